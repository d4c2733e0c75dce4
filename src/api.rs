//! The JS API, from a wasm with the app beside it: plain JS objects in and out,
//! in the engine's JSON shapes. Every input is validated as the app's is, so a
//! caller gets a clear error instead of a billion points or a panic. The
//! API's binary exports these to JS (src/main.rs, `crashloop-explorer.js`),
//! under the same names; the library does not, so the page's module, the
//! element's and the second wasm, which link it too, carry none.

use std::cell::RefCell;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::app::Root;
use crate::engine::{self, KubeletConfig, Scenario};

// serde-wasm-bindgen: JS objects in and out without JSON text between.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    crate::formats::json::to_js(value).map_err(|e| JsError::new(&e))
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
    if !value.is_object() {
        return Err(JsError::new(&format!("invalid {what}: give an object")));
    }
    crate::formats::json::from_js(value).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}

/// An object's own keys (none for anything else).
fn keys(v: &JsValue) -> Vec<String> {
    if !v.is_object() {
        return vec![];
    }
    js_sys::Object::keys(v.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect()
}

/// `resolve({featureGates, crashLoopBackOff, semantics, kubeletVersion})` →
/// `{initialMs, maxMs, resetAfterMs, notes, warnings}`, or throws the kubelet's refusal.
pub fn resolve(config: JsValue) -> Result<JsValue, JsError> {
    // Strict, as the Scenario is: a misspelt key is named, not ignored.
    let known: [(&str, &[&str]); 4] = [
        ("featureGates", &[]),
        ("crashLoopBackOff", &["maxContainerRestartPeriod"]),
        ("semantics", &[]),
        ("kubeletVersion", &[]),
    ];
    for k in keys(&config) {
        let Some((_, inner)) = known.iter().find(|(name, _)| *name == k) else {
            return Err(JsError::new(&format!(
                "invalid KubeletConfig: unknown field `{k}`, expected one of {}",
                known.map(|(n, _)| format!("`{n}`")).join(", ")
            )));
        };
        if inner.is_empty() {
            continue;
        }
        let value = js_sys::Reflect::get(&config, &JsValue::from_str(&k)).unwrap_or_default();
        if let Some(bad) = keys(&value)
            .into_iter()
            .find(|key| !inner.contains(&key.as_str()))
        {
            return Err(JsError::new(&format!(
                "invalid KubeletConfig: unknown field `{k}.{bad}`, expected `{k}.{}`",
                inner.join("`, `")
            )));
        }
    }
    let config: KubeletConfig = from_js(config, "KubeletConfig")?;
    match engine::resolve(&config) {
        Ok(b) => to_js(&b),
        Err(e) => Err(JsError::new(&e.to_string())),
    }
}

/// `simulate(scenario)` → the Timeline (`restartsAtMs`, `delaysMs`,
/// `nodeRequestsPerWindow`, `api`, `groups`, `band`).
pub fn simulate(scenario: JsValue) -> Result<JsValue, JsError> {
    let scenario: Scenario = from_js(scenario, "scenario")?;
    to_js(&engine::simulate(&scenario))
}

/// `explore(scenario)` → the scenario against today's default, with the excess.
pub fn explore(scenario: JsValue) -> Result<JsValue, JsError> {
    let scenario: Scenario = from_js(scenario, "scenario")?;
    to_js(&engine::explore(&scenario))
}

/// `cluster(cluster, {compare, recommend})`'s options: the KEP-4603
/// curves to compare, by id, and what is wanted of a setting.
#[derive(serde::Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct ClusterOptions {
    compare: Vec<String>,
    recommend: Option<engine::cluster::Constraints>,
}

/// `cluster({nodeClasses, apiServer, otherNodes}, options?)` → what
/// `crashloop-explorer cluster` prints: `requestsPerWindow`,
/// `peakRequestsPerSecond`, `systemSeats`, `peakSeatsBusy`, `classes`,
/// `notes`, `todaysDefault`, `compared` and `recommendation`.
pub fn cluster(cluster: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let c: engine::cluster::Cluster = from_js(cluster, "cluster")?;
    let o: ClusterOptions = if options.is_undefined() || options.is_null() {
        ClusterOptions::default()
    } else {
        from_js(options, "options")?
    };
    let report = engine::cluster::report(&c, &o.compare, o.recommend.as_ref())
        .map_err(|e| JsError::new(&e))?;
    to_js(&report)
}

/// `audit()` → every KEP claim, recomputed (exported by the second wasm;
/// the app's module exports it as a Promise that fetches that one).
pub fn audit() -> Result<JsValue, JsError> {
    to_js(&engine::audit::audit())
}

/// `start()`: the explorer on this page's `<body>`, its state in the page's
/// URL. The app's own page calls it (boot.js); importing the module alone
/// mounts nothing, so a page may use the functions, `mount` or the custom
/// element instead.
pub fn start() {
    crate::app::start();
}

/// An explorer mounted by `mount`: `unmount()` removes it, `update(link)`
/// shows another link in its place, `set(options)` takes new options.
/// `R` is what it mounts: the full app (the app's module) or the embed
/// alone (the custom element's module).
pub struct Explorer<R: Root = crate::app::App> {
    host: web_sys::Element,
    shadow: web_sys::ShadowRoot,
    app: Option<yew::AppHandle<R>>,
    options: Options,
}

/// Marks an element that holds an explorer, so that it is not mounted twice.
const MOUNTED: &str = "data-crashloop-explorer";

/// `mount`'s options; the custom element's attributes are the same names.
#[derive(serde::Deserialize, Default, Clone)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Options {
    /// A link's query string, e.g. "m=kep&i=1s".
    link: String,
    /// Only the charts, the headline and the `controls` named.
    embed: bool,
    controls: Vec<String>,
    /// `crashloop`, `job` or `cluster`; `light`, `dark` or `auto`. Unset, the link's.
    view: Option<String>,
    theme: Option<String>,
    /// Where the full app is served, for "Open in crashloop-explorer".
    app_url: Option<String>,
}

impl Options {
    /// The custom element's attributes as its module reads them (`None`
    /// where unset; `controls` as the attribute writes them, "initial,max"):
    /// `mount`'s options without a deserializer, so that the element's wasm
    /// carries none.
    pub fn of_element(
        link: Option<String>,
        controls: Option<String>,
        view: Option<String>,
        theme: Option<String>,
        app_url: Option<String>,
    ) -> Options {
        let controls = controls.unwrap_or_default();
        Options {
            link: link.unwrap_or_default(),
            embed: true,
            controls: controls
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned)
                .collect(),
            view,
            theme,
            app_url,
        }
    }

    /// One query string: the link, then the options, which win over the
    /// link's own keys (the link codec reads keys in order).
    fn query(&self) -> String {
        let mut query = self.link.trim_start_matches('?').to_owned();
        let mut add = |key: &str, value: &str| {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(key);
            query.push('=');
            query.push_str(&String::from(js_sys::encode_uri_component(value)));
        };
        if self.embed {
            add("embed", "1");
            if !self.controls.is_empty() {
                add("controls", &self.controls.join(","));
            }
        }
        if let Some(v) = &self.view {
            add("view", v);
        }
        if let Some(t) = &self.theme {
            add("theme", t);
        }
        query
    }
}

thread_local! {
    /// Each stylesheet as one parsed sheet, adopted by every shadow root
    /// that shows it (`None`: the browser has no constructable sheets).
    static SHEETS: RefCell<Vec<(&'static str, Option<web_sys::CssStyleSheet>)>> =
        const { RefCell::new(Vec::new()) };
}

/// The root's stylesheet (`Root::STYLESHEET`), built into the wasm so that
/// a mounted explorer needs no file beside the host page and no `<link>`
/// the host's CSP might refuse: adopted by each shadow root.
fn style(shadow: &web_sys::ShadowRoot, text: &'static str) {
    let sheet = SHEETS.with_borrow_mut(|sheets| {
        if let Some((_, sheet)) = sheets.iter().find(|(t, _)| std::ptr::eq(*t, text)) {
            return sheet.clone();
        }
        let sheet = web_sys::CssStyleSheet::new()
            .ok()
            .filter(|sheet| sheet.replace_sync(text).is_ok());
        sheets.push((text, sheet.clone()));
        sheet
    });
    if let Some(sheet) = sheet {
        shadow.set_adopted_style_sheets(&js_sys::Array::of1(&sheet));
    } else if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("style").ok())
    {
        // Browsers without constructable stylesheets.
        el.set_text_content(Some(text));
        let _ = shadow.append_child(&el);
    }
}

impl<R: Root> Explorer<R> {
    /// The app in a fresh container of the shadow root (after `clear`).
    fn render(&mut self) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(container) = document.create_element("div") else {
            return;
        };
        let _ = self.shadow.append_child(&container);
        let props = crate::app::AppProps {
            query: Some(self.options.query().into()),
            theme_root: Some(self.host.clone()),
            app_url: self.options.app_url.clone().map(Into::into),
            static_header: false,
        };
        self.app = Some(yew::Renderer::<R>::with_root_and_props(container, props).render());
    }

    fn clear(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        while let Some(child) = self.shadow.first_child() {
            let _ = self.shadow.remove_child(&child);
        }
    }

    /// The explorer again, with the current options.
    fn remount(&mut self) {
        self.clear();
        style(&self.shadow, R::STYLESHEET);
        self.render();
    }
}

impl<R: Root> Explorer<R> {
    /// Removes the explorer; the element is left empty and may be mounted again.
    pub fn unmount(&mut self) {
        self.clear();
        let _ = self.host.remove_attribute(MOUNTED);
        let _ = self.host.remove_attribute("data-theme");
    }

    /// Shows another link (a query string) in the same element, with the
    /// same options otherwise.
    pub fn update(&mut self, link: String) {
        self.options.link = link;
        self.remount();
    }

    /// Takes new options (as `mount`'s) in the same element.
    pub fn set(&mut self, options: JsValue) -> Result<(), JsError> {
        self.set_options(options_from(options, R::EMBED_ONLY)?);
        Ok(())
    }

    /// The same, with options already read (the custom element's).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
        self.remount();
    }
}

/// `mount`'s options; `embed_only`, every link shown as an embed.
fn options_from(options: JsValue, embed_only: bool) -> Result<Options, JsError> {
    let mut options: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        from_js(options, "mount options")?
    };
    options.embed |= embed_only;
    Ok(options)
}

/// The element's shadow root for the explorer: its own, made here, or one
/// left empty by an earlier `unmount()` (a shadow root cannot be removed).
fn shadow_of(element: &web_sys::Element) -> Result<web_sys::ShadowRoot, JsError> {
    if let Some(shadow) = element.shadow_root() {
        return if shadow.child_element_count() == 0 {
            Ok(shadow)
        } else {
            Err(JsError::new(
                "mount: this element already has a shadow root with content of its own; mount into an empty element",
            ))
        };
    }
    element
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .map_err(|_| {
            JsError::new(&format!(
                "mount: a <{}> cannot hold an explorer (it takes no shadow root, or has a closed one); mount into a <div>, a <section> or a custom element",
                element.local_name()
            ))
        })
}

/// `mount(element, {link, embed, controls, view, theme, appUrl})`: the
/// explorer inside `element`, in a shadow root of its own with its own
/// styles (the host page's CSS neither breaks it nor sees it), starting from
/// `link` (a query string such as "m=kep&i=1s"). Returns a handle with
/// `unmount()`, `update(link)` and `set(options)`. The page's own URL is left
/// alone. A target that is not an element, cannot hold a shadow root, or
/// already holds an explorer, is refused with an Error saying so. The
/// `<crashloop-explorer>` element is this, with attributes for options.
pub fn mount(target: JsValue, options: JsValue) -> Result<Explorer, JsError> {
    mount_as(target, options)
}

/// `mount`, showing `R`: the custom element's module mounts the embed alone.
pub fn mount_as<R: Root>(target: JsValue, options: JsValue) -> Result<Explorer<R>, JsError> {
    mount_with(target, || options_from(options, R::EMBED_ONLY))
}

/// `mount` with options read by `options` once the target is known good
/// (a bad target is the error that wins).
pub fn mount_with<R: Root>(
    target: JsValue,
    options: impl FnOnce() -> Result<Options, JsError>,
) -> Result<Explorer<R>, JsError> {
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
    let options = options()?;
    let shadow = shadow_of(&element)?;
    let _ = element.set_attribute(MOUNTED, "");
    style(&shadow, R::STYLESHEET);
    let mut explorer = Explorer {
        host: element,
        shadow,
        app: None,
        options,
    };
    explorer.render();
    Ok(explorer)
}

/// A binary's JS exports for `mount` and its handle, mounting `$root`: the
/// API's module mounts the full app, with options as a JS object; the custom
/// element's (`element`) the embed alone, with its attributes as strings.
#[macro_export]
macro_rules! export_mount {
    (element $root:ty) => {
        /// `mount(element, link, controls, view, theme, appUrl)`: the
        /// attributes as the element reads them, `null` where unset.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn mount(
            target: ::wasm_bindgen::JsValue,
            link: Option<String>,
            controls: Option<String>,
            view: Option<String>,
            theme: Option<String>,
            app_url: Option<String>,
        ) -> Result<Explorer, ::wasm_bindgen::JsError> {
            $crate::api::mount_with::<$root>(target, || {
                Ok($crate::api::Options::of_element(
                    link, controls, view, theme, app_url,
                ))
            })
            .map(Explorer)
        }

        $crate::export_mount!(@handle $root);

        #[::wasm_bindgen::prelude::wasm_bindgen]
        impl Explorer {
            pub fn set(
                &mut self,
                link: Option<String>,
                controls: Option<String>,
                view: Option<String>,
                theme: Option<String>,
                app_url: Option<String>,
            ) {
                self.0.set_options($crate::api::Options::of_element(
                    link, controls, view, theme, app_url,
                ));
            }
        }
    };
    (@handle $root:ty) => {
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub struct Explorer($crate::api::Explorer<$root>);

        #[::wasm_bindgen::prelude::wasm_bindgen]
        impl Explorer {
            pub fn unmount(&mut self) {
                self.0.unmount();
            }
        }
    };
    ($root:ty) => {
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn mount(
            target: ::wasm_bindgen::JsValue,
            options: ::wasm_bindgen::JsValue,
        ) -> Result<Explorer, ::wasm_bindgen::JsError> {
            $crate::api::mount_as::<$root>(target, options).map(Explorer)
        }

        $crate::export_mount!(@handle $root);

        #[::wasm_bindgen::prelude::wasm_bindgen]
        impl Explorer {
            pub fn update(&mut self, link: String) {
                self.0.update(link);
            }

            pub fn set(
                &mut self,
                options: ::wasm_bindgen::JsValue,
            ) -> Result<(), ::wasm_bindgen::JsError> {
                self.0.set(options)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Options;

    /// The element's attributes read as `mount`'s options would be: an
    /// embed, its controls split on commas with the blanks dropped.
    #[test]
    fn element_attributes_are_mount_options() {
        let o = Options::of_element(
            Some("m=kep&i=1s".into()),
            Some(" initial, max ,,pods ".into()),
            None,
            Some("dark".into()),
            Some("https://example.test/x/".into()),
        );
        assert_eq!(o.link, "m=kep&i=1s");
        assert!(o.embed);
        assert_eq!(o.controls, ["initial", "max", "pods"]);
        assert_eq!((o.view, o.theme), (None, Some("dark".to_owned())));
        assert_eq!(o.app_url.as_deref(), Some("https://example.test/x/"));
        let bare = Options::of_element(None, None, Some("job".into()), None, None);
        assert_eq!((bare.link.as_str(), bare.controls.len()), ("", 0));
        assert_eq!(bare.view.as_deref(), Some("job"));
    }
}
