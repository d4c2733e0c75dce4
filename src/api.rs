//! The JS API, from the same wasm as the app: plain JS objects in and out,
//! in the engine's JSON shapes. Every input is validated as the app's is, so a
//! caller gets a clear error instead of a billion points or a panic.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::engine::{self, KubeletConfig, Scenario};

// Through JSON text, so the API reuses serde_json's code instead of a second
// (de)serializer for every type: the app's download stays small.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("cannot make a JS object"))
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    // JSON.stringify(undefined) is undefined, not a string.
    let text = js_sys::JSON::stringify(&value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| JsError::new(&format!("invalid {what}: give an object")))?;
    serde_json::from_str(&text).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}

/// `resolve({featureGates, crashLoopBackOff, semantics, kubeletVersion})` →
/// `{initialMs, maxMs, resetAfterMs, notes, warnings}`, or throws the kubelet's refusal.
#[wasm_bindgen]
pub fn resolve(config: JsValue) -> Result<JsValue, JsError> {
    let config: KubeletConfig = from_js(config, "KubeletConfig")?;
    match engine::resolve(&config) {
        Ok(b) => to_js(&b),
        Err(e) => Err(JsError::new(&e.to_string())),
    }
}

/// `simulate(scenario)` → the Timeline (`restartsAtMs`, `delaysMs`,
/// `nodeRequestsPerWindow`, `api`, `groups`, `band`).
#[wasm_bindgen]
pub fn simulate(scenario: JsValue) -> Result<JsValue, JsError> {
    let scenario: Scenario = from_js(scenario, "scenario")?;
    to_js(&engine::simulate(&scenario))
}

/// `explore(scenario)` → the scenario against today's default, with the excess.
#[wasm_bindgen]
pub fn explore(scenario: JsValue) -> Result<JsValue, JsError> {
    let scenario: Scenario = from_js(scenario, "scenario")?;
    to_js(&engine::explore(&scenario))
}

/// `audit()` → every KEP claim, recomputed.
#[wasm_bindgen]
pub fn audit() -> Result<JsValue, JsError> {
    to_js(&engine::audit::audit())
}

/// `mount(element, {link, embed, controls})`: the explorer inside `element`,
/// starting from `link` (a query string such as "m=kep&i=1s"). The page's own
/// URL is left alone.
#[wasm_bindgen]
pub fn mount(element: web_sys::Element, options: JsValue) -> Result<(), JsError> {
    #[derive(serde::Deserialize, Default)]
    #[serde(default, deny_unknown_fields)]
    struct Options {
        link: String,
        embed: bool,
        controls: Vec<String>,
    }
    let o: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        from_js(options, "mount options")?
    };
    let mut query = o.link.trim_start_matches('?').to_owned();
    if o.embed {
        query.push_str("&embed=1");
        if !o.controls.is_empty() {
            query.push_str(&format!("&controls={}", o.controls.join(",")));
        }
    }
    // The explorer lives as long as the page.
    let _ = crate::app::mount_with_query(element, query);
    Ok(())
}
