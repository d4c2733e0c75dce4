//! JSON text for the few values that travel as JSON: a pinned scenario in an
//! older link (`pin={…}`; pins are now scenario keys), a claim's scenario
//! between the app's two wasm modules, the JS API's objects. Natively
//! serde_json; in the browser, the browser's own `JSON` with
//! serde-wasm-bindgen, so the app's wasm carries no JSON parser or printer
//! of its own.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// JSON text of a value; `None` if it has none (in the browser: a whole
/// number beyond 2^53, which a JS number cannot hold).
pub fn to_string<T: Serialize>(value: &T) -> Option<String> {
    imp::to_string(value)
}

/// A value from JSON text, or why not.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    imp::from_str(text)
}

/// An object a watch reads of the API once (`endpoints`, `flowcontrol`):
/// refused past `max` bytes (`over`, then its size in KB) or where it does
/// not read as `T` (`not`, then why).
pub fn api_object<T: DeserializeOwned>(
    text: &str,
    max: usize,
    over: &str,
    not: &str,
) -> Result<T, String> {
    if text.len() > max {
        return Err(format!("{over} {} KB", max / 1024));
    }
    from_str(text).map_err(|e| format!("{not}: {e}"))
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;

    pub fn to_string<T: Serialize>(value: &T) -> Option<String> {
        serde_json::to_string(value).ok()
    }

    pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use wasm_bindgen::JsCast;

    pub fn to_string<T: Serialize>(value: &T) -> Option<String> {
        let js = to_js(value).ok()?;
        js_sys::JSON::stringify(&js).ok()?.as_string()
    }

    pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
        let js = js_sys::JSON::parse(text).map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map_or_else(|| "not JSON".to_owned(), |e| String::from(e.message()))
        })?;
        from_js(js)
    }
}

/// A value from a JS value, as strict about unknown keys as serde_json.
pub fn from_js<T: DeserializeOwned>(js: wasm_bindgen::JsValue) -> Result<T, String> {
    T::deserialize(super::strict::Strict(
        serde_wasm_bindgen::Deserializer::from(js),
    ))
    .map_err(message)
}

/// The words of serde-wasm-bindgen's error (a JS Error), without "Error: ".
fn message(e: serde_wasm_bindgen::Error) -> String {
    use wasm_bindgen::JsCast;
    let js = wasm_bindgen::JsValue::from(e);
    match js.dyn_ref::<js_sys::Error>() {
        Some(e) => e.message().into(),
        None => js
            .as_string()
            .unwrap_or_else(|| "not a valid value".to_owned()),
    }
}

/// A JS value as JSON would make it (objects, not Maps; `null` for unset
/// values): the JS API's results.
pub fn to_js<T: Serialize>(value: &T) -> Result<wasm_bindgen::JsValue, String> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(message)
}
