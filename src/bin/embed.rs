//! The custom element's wasm (`static/crashloop-explorer-element.js` loads
//! it): `mount` and its handle, showing the embed alone, so that a docs page
//! downloads none of the full page (its other panels, the exports, the rest
//! of the JS API). The Job view comes from the second wasm, as in the app.
//! `mount` takes the element's attributes as strings, not the JS API's
//! options object: no deserializer in this wasm.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    crashloop_explorer::wasm_only(
        "crashloop-explorer-embed is the custom element's WebAssembly module",
    )
}

#[cfg(target_arch = "wasm32")]
mod js {
    crashloop_explorer::export_mount!(element crashloop_explorer::app::EmbedApp);
}
