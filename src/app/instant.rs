//! An instant as its reader reads it: the browser's own time zone and
//! date and time style (`Intl.DateTimeFormat`), the UTC instant, as the API
//! writes it, on hover and in the element's `datetime`.

use std::cell::OnceCell;

use js_sys::{Array, Date, Intl::DateTimeFormat, Object, Reflect};
use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::formats::time::format_rfc3339;

thread_local! {
    /// One formatter: the live views render each second.
    static LOCAL: OnceCell<Option<DateTimeFormat>> = const { OnceCell::new() };
}

/// The reader's date and time, with their time zone's name.
fn formatter() -> Option<DateTimeFormat> {
    let options = Object::new();
    for (k, v) in [("dateStyle", "medium"), ("timeStyle", "long")] {
        Reflect::set(&options, &JsValue::from_str(k), &JsValue::from_str(v)).ok()?;
    }
    Some(DateTimeFormat::new(&Array::new(), &options))
}

/// `ms` since the Unix epoch in the reader's time zone, if the browser says.
pub fn local(ms: i64) -> Option<String> {
    LOCAL.with(|f| {
        let f = f.get_or_init(formatter).as_ref()?;
        let date = Date::new(&JsValue::from_f64(ms as f64));
        f.format().call1(f, &date).ok()?.as_string()
    })
}

/// `local`, else the UTC instant.
pub fn readable(ms: i64) -> String {
    local(ms).unwrap_or_else(|| format_rfc3339(ms))
}

/// A `<time>` of `ms`: local, the UTC instant on hover.
pub fn instant(ms: i64) -> Html {
    let utc = format_rfc3339(ms);
    let shown = readable(ms);
    html! { <time datetime={utc.clone()} title={format!("{utc} (UTC)")}>{ shown }</time> }
}
