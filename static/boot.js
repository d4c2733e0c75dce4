// Loads the app. An external module rather than Trunk's injected inline
// script, so that the Content-Security-Policy can forbid inline scripts.
import init, * as bindings from "./crashloop-explorer.js";

const wasm = await init({ module_or_path: new URL("./crashloop-explorer_bg.wasm", import.meta.url) });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
