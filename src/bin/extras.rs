//! The app's second wasm: the Job view, the pod reader, the claims audit and
//! the exports, which the first (the page's src/bin/page.rs, or the JS API's
//! src/main.rs) fetches the first time one of them is shown
//! (`crashloop_explorer::app::lazy`). Its exports mount a part, compute the
//! claims audit and read an older link's JSON pin.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    crashloop_explorer::wasm_only(
        "crashloop-explorer-extras is the web app's second WebAssembly module",
    )
}

#[cfg(target_arch = "wasm32")]
mod js {
    use crashloop_explorer::api;
    use crashloop_explorer::app::{extras, lazy};
    use wasm_bindgen::prelude::*;
    use yew::Callback;

    /// The claims audit, for the first module's `audit()`.
    #[wasm_bindgen]
    pub fn audit() -> Result<JsValue, JsError> {
        api::audit()
    }

    /// `pin_keys(json)`: an older link's pin written as JSON, as link keys
    /// (the first module carries no JSON reader for scenarios).
    #[wasm_bindgen]
    pub fn pin_keys(json: &str) -> Result<String, JsError> {
        extras::pin_keys(json).map_err(|e| JsError::new(&e))
    }

    /// A mounted part: `update(link, dark)`, `unmount()`.
    #[wasm_bindgen]
    pub struct PartHandle(Box<dyn lazy::Mounted>);

    #[wasm_bindgen]
    impl PartHandle {
        pub fn update(&mut self, link: &str, dark: bool) {
            self.0.update(link, dark);
        }

        /// Removes the part (the handle is spent).
        pub fn unmount(self) {}
    }

    /// `mount_part(part, element, link, dark, onMessage)`: the part ("job",
    /// "pod", "audit", "export" or "cluster") in `element`, from the page's link; `onMessage(text)` receives
    /// what it answers (see `lazy::Part`).
    #[wasm_bindgen]
    pub fn mount_part(
        part: &str,
        root: web_sys::Element,
        link: &str,
        dark: bool,
        on_message: js_sys::Function,
    ) -> Result<PartHandle, JsError> {
        let part = lazy::Part::parse(part).ok_or_else(|| {
            JsError::new(&format!(
                "mount_part: no part {} ({})",
                crashloop_explorer::engine::field::quoted(part),
                lazy::Part::ALL.map(lazy::Part::name).join(", ")
            ))
        })?;
        let on_message = Callback::from(move |m: String| {
            let _ = on_message.call1(&JsValue::NULL, &JsValue::from_str(&m));
        });
        Ok(PartHandle(extras::mount(
            part, root, link, dark, on_message,
        )))
    }
}
