//! The app's own page (`static/boot.js` loads it): `start()` alone, the
//! explorer on the page's `<body>`. The JS API (`resolve`, `simulate`,
//! `explore`, `audit`, `mount`) is the module `crashloop-explorer.js`
//! (src/main.rs), the same app with the API beside it; leaving it out of the
//! page's download takes its deserializers, the mounting into shadow roots
//! and the stylesheet text the shadow roots need (the page links
//! `style.css`) out of every visit.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    crashloop_explorer::wasm_only(
        "crashloop-explorer-page is the web app's page's WebAssembly module",
    )
}

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    pub fn start() {
        crashloop_explorer::api::start();
    }
}
