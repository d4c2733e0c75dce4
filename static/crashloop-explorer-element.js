// <crashloop-explorer>: the explorer as an element for docs pages.
//
//   <script type="module" src="https://YOUR-HOST/crashloop-explorer/crashloop-explorer-element.js"></script>
//   <crashloop-explorer link="v=1.37&m=kep&i=1s" controls="initial,max,pods" theme="light"></crashloop-explorer>
//
// Attributes: link (a query string the app understands), controls (the
// controls to show, as &controls=), view (crashloop | job | cluster), theme (light |
// dark | auto). Changing one updates the instance. Each instance is mount()
// on the element (the JS API's, with the attributes as its options, passed
// as strings: its wasm has no deserializer): a shadow root of its own with the app's
// styles, so several work side by side and the host's CSS stays out (and ours
// in). The wasm loads relative to this module's URL; a host CSP needs
// script-src 'self' 'wasm-unsafe-eval' (or this module's origin).
// Its own wasm (src/bin/embed.rs): the embed alone, without the full page's
// other panels and the rest of the JS API.
import init, { mount } from "./crashloop-explorer-embed.js";

// In the order mount() and set() take them (src/api.rs, export_mount!).
const ATTRIBUTES = ["link", "controls", "view", "theme"];
const appUrl = new URL("./", import.meta.url).href;
let ready;

function load() {
  ready ??= init({ module_or_path: new URL("./crashloop-explorer-embed_bg.wasm", import.meta.url) });
  return ready;
}

class CrashloopExplorerElement extends HTMLElement {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  #handle = null;
  #queued = false;

  // The attributes as mount() and set() take them (null where unset; the
  // wasm splits controls and reads the rest as the JS API's options).
  args() {
    return [...ATTRIBUTES.map((name) => this.getAttribute(name)), appUrl];
  }

  async connectedCallback() {
    try {
      await load();
    } catch (e) {
      this.#fail(`crashloop-explorer: the WebAssembly module did not load (${e.message ?? e})`);
      return;
    }
    // Moved or removed while the module loaded.
    if (!this.isConnected || this.#handle) return;
    try {
      this.#handle = mount(this, ...this.args());
    } catch (e) {
      this.#fail(e.message ?? String(e));
    }
  }

  disconnectedCallback() {
    this.#handle?.unmount();
    this.#handle = null;
  }

  // Several attributes set in one task (a framework's render) update once.
  attributeChangedCallback() {
    if (!this.#handle || this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#handle?.set(...this.args());
    });
  }

  #fail(message) {
    console.error(message);
    this.textContent = message;
  }
}

if (!customElements.get("crashloop-explorer")) {
  customElements.define("crashloop-explorer", CrashloopExplorerElement);
}
