// Loads the app. An external module rather than Trunk's injected inline
// script, so that the Content-Security-Policy can forbid inline scripts.
import init, * as bindings from "./crashloop-explorer.js";

const wasm = await init({ module_or_path: new URL("./crashloop-explorer_bg.wasm", import.meta.url) });
window.wasmBindings = bindings;
// Loading the module mounts nothing (docs pages load it for the custom
// element); this page is the app.
bindings.start();
dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
