//! The JS API, from the same wasm as the app: plain JS objects in and out,
//! in the engine's JSON shapes. Every input is validated as the app's is, so a
//! caller gets a clear error instead of a billion points or a panic.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::engine::{self, KubeletConfig, Scenario};

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
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
