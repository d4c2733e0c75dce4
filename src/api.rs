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

/// The path of the first number that is NaN or infinite: JSON would turn it
/// into `null`, which reads as "unset".
fn non_finite(v: &JsValue, path: &str, depth: usize) -> Option<String> {
    if let Some(n) = v.as_f64() {
        return (!n.is_finite()).then(|| format!("{path} is {n}, not a finite number"));
    }
    if depth > 16 || !v.is_object() {
        return None;
    }
    js_sys::Object::entries(v.unchecked_ref())
        .iter()
        .find_map(|entry| {
            let pair: js_sys::Array = entry.unchecked_into();
            let key = pair.get(0).as_string().unwrap_or_default();
            non_finite(&pair.get(1), &format!("{path}.{key}"), depth + 1)
        })
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    if let Some(bad) = non_finite(&value, what, 0) {
        return Err(JsError::new(&format!("invalid {bad}")));
    }
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
    // Strict, as the Scenario is: a misspelt key is named, not ignored.
    let value: serde_json::Value = from_js(config, "KubeletConfig")?;
    let known: [(&str, &[&str]); 4] = [
        ("featureGates", &[]),
        ("crashLoopBackOff", &["maxContainerRestartPeriod"]),
        ("semantics", &[]),
        ("kubeletVersion", &[]),
    ];
    if let Some(map) = value.as_object() {
        for (k, v) in map {
            let Some((_, inner)) = known.iter().find(|(name, _)| name == k) else {
                return Err(JsError::new(&format!(
                    "invalid KubeletConfig: unknown field `{k}`, expected one of {}",
                    known.map(|(n, _)| format!("`{n}`")).join(", ")
                )));
            };
            if let (false, Some(obj)) = (inner.is_empty(), v.as_object()) {
                if let Some(bad) = obj.keys().find(|key| !inner.contains(&key.as_str())) {
                    return Err(JsError::new(&format!(
                        "invalid KubeletConfig: unknown field `{k}.{bad}`, expected `{k}.{}`",
                        inner.join("`, `")
                    )));
                }
            }
        }
    }
    let config: KubeletConfig = serde_json::from_value(value)
        .map_err(|e| JsError::new(&format!("invalid KubeletConfig: {e}")))?;
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

/// An explorer mounted by `mount`: `unmount()` removes it, `update(link)`
/// shows another link in its place.
#[wasm_bindgen]
pub struct Explorer {
    element: web_sys::Element,
    app: Option<yew::AppHandle<crate::app::App>>,
    embed: bool,
    controls: Vec<String>,
}

/// Marks an element that holds an explorer, so that it is not mounted twice.
const MOUNTED: &str = "data-crashloop-explorer";

fn query_of(link: &str, embed: bool, controls: &[String]) -> String {
    let mut query = link.trim_start_matches('?').to_owned();
    if embed {
        query.push_str("&embed=1");
        if !controls.is_empty() {
            query.push_str(&format!("&controls={}", controls.join(",")));
        }
    }
    query
}

#[wasm_bindgen]
impl Explorer {
    /// Removes the explorer; the element is left empty and may be mounted again.
    pub fn unmount(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        let _ = self.element.remove_attribute(MOUNTED);
    }

    /// Shows another link (a query string) in the same element.
    pub fn update(&mut self, link: String) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        let query = query_of(&link, self.embed, &self.controls);
        self.app = Some(crate::app::mount_with_query(self.element.clone(), query));
    }
}

/// `mount(element, {link, embed, controls})`: the explorer inside `element`,
/// starting from `link` (a query string such as "m=kep&i=1s"); returns a
/// handle with `unmount()` and `update(link)`. The page's own URL is left
/// alone. A target that is not an element, or already holds an explorer, is
/// refused with an Error saying so.
#[wasm_bindgen]
pub fn mount(target: JsValue, options: JsValue) -> Result<Explorer, JsError> {
    #[derive(serde::Deserialize, Default)]
    #[serde(default, deny_unknown_fields)]
    struct Options {
        link: String,
        embed: bool,
        controls: Vec<String>,
    }
    let element: web_sys::Element = target.dyn_into().map_err(|t| {
        let what = if t.is_null() {
            "null".to_owned()
        } else if t.is_undefined() {
            "undefined".to_owned()
        } else {
            t.js_typeof().as_string().unwrap_or_default()
        };
        JsError::new(&format!(
            "mount: the target must be a DOM element (got {what}); e.g. mount(document.getElementById(\"explorer\"))"
        ))
    })?;
    if element.has_attribute(MOUNTED) {
        return Err(JsError::new(
            "mount: this element already holds an explorer; call unmount() on its handle first",
        ));
    }
    let o: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        from_js(options, "mount options")?
    };
    let _ = element.set_attribute(MOUNTED, "");
    let app =
        crate::app::mount_with_query(element.clone(), query_of(&o.link, o.embed, &o.controls));
    Ok(Explorer {
        element,
        app: Some(app),
        embed: o.embed,
        controls: o.controls,
    })
}
