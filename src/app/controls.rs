//! Small input components. Each parses what the browser gives it and emits
//! only valid values; anything else is dropped without a panic.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;
use yew::TargetCast;

use super::Root;

/// A callback for a form element's events that emits what `read` makes of
/// the element (an `<input>`, `<select>` or `<textarea>`), and nothing when
/// it makes nothing of it.
fn from_target<E, El, T>(cb: Callback<T>, read: impl Fn(&El) -> Option<T> + 'static) -> Callback<E>
where
    E: TargetCast + 'static,
    El: wasm_bindgen::JsCast + AsRef<web_sys::EventTarget>,
    T: 'static,
{
    Callback::from(move |e: E| {
        if let Some(v) = e.target_dyn_into::<El>().and_then(|el| read(&el)) {
            cb.emit(v);
        }
    })
}

/// A callback that dispatches `f(value)` to a view's reducer: every view's
/// controls send their edits this way.
pub fn send<R, T>(state: &UseReducerHandle<R>, f: impl Fn(T) -> R::Action + 'static) -> Callback<T>
where
    R: Reducible + 'static,
    T: 'static,
{
    let state = state.clone();
    Callback::from(move |v| state.dispatch(f(v)))
}

/// A slider over `stops` that dispatches the stop's value (a position past
/// the end sends nothing).
pub fn send_stop<R: Reducible + 'static>(
    state: &UseReducerHandle<R>,
    stops: &'static [u64],
    f: impl Fn(u64) -> R::Action + 'static,
) -> Callback<usize> {
    let state = state.clone();
    Callback::from(move |pos: usize| {
        if let Some(&v) = stops.get(pos) {
            state.dispatch(f(v));
        }
    })
}

fn from_input<E: TargetCast + 'static, T: 'static>(
    cb: Callback<T>,
    read: impl Fn(&HtmlInputElement) -> Option<T> + 'static,
) -> Callback<E> {
    from_target(cb, read)
}

/// In embed mode, the controls the host page asked for (by id); absent in the
/// full app. Controls not listed, and the panels' headings, hints and buttons
/// (`use_chrome`), are not rendered at all.
#[derive(Clone, PartialEq)]
pub struct Embed(pub std::rc::Rc<[String]>);

/// Whether the control `id` is shown: always in the full app.
#[hook]
fn use_shown(id: &AttrValue) -> bool {
    use_context::<Embed>().is_none_or(|e| e.0.iter().any(|c| c.as_str() == id.as_str()))
}

/// Whether this is the full app (not an embed).
#[hook]
pub fn use_full_app() -> bool {
    use_context::<Embed>().is_none()
}

/// Whether the panels' headings, hints, buttons and group frames (their
/// chrome) show: in the full app, not in an embed. Under a root that shows
/// only embeds (the element's), known when compiling, so that its wasm
/// holds none of them.
#[hook]
pub fn use_chrome<R: Root>() -> bool {
    let full = use_full_app();
    !R::EMBED_ONLY && full
}

/// Exit codes as typed ("1, 2 3"): the ones that parse, in order.
pub fn parse_codes(text: &str) -> Vec<i32> {
    text.split([',', ' '])
        .filter_map(|x| x.trim().parse().ok())
        .collect()
}

/// Exit codes as a text field shows them: "1, 2, 3".
pub fn codes_text(values: &[i32]) -> String {
    values
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A labelled text control with the message it gets refused with beside it.
fn text_control(id: &AttrValue, label: Html, error: &Option<AttrValue>, control: Html) -> Html {
    html! {
        <div class="control text">
            <label for={id.clone()}>{ label }</label>
            { control }
            <p id={format!("{id}-error")} class="error" role="alert">{ error.clone().unwrap_or_default() }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct SliderProps {
    pub id: AttrValue,
    pub label: AttrValue,
    /// Positions are 0..positions.
    pub positions: usize,
    pub position: usize,
    /// The value as people read it, also the `aria-valuetext`.
    pub display: AttrValue,
    pub onchange: Callback<usize>,
    #[prop_or_default]
    pub hint: AttrValue,
    #[prop_or_default]
    pub inactive: bool,
}

#[function_component]
pub fn Slider(p: &SliderProps) -> Html {
    let full = use_full_app();
    if !use_shown(&p.id) {
        return html! {};
    }
    let positions = p.positions;
    let oninput = from_input::<InputEvent, _>(p.onchange.clone(), move |i| {
        i.value()
            .parse::<usize>()
            .ok()
            .filter(|&pos| pos < positions)
    });
    let value_id = format!("{}-value", p.id);
    html! {
        <div class="control" data-inactive={p.inactive.then_some("")}>
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <input type="range" id={p.id.clone()} min="0" max={positions.saturating_sub(1).to_string()}
                step="1" value={p.position.to_string()} aria-valuetext={p.display.clone()} {oninput} />
            <output id={value_id} for={p.id.clone()}>{ p.display.clone() }</output>
            if !p.hint.is_empty() && full { <small class="hint">{ p.hint.clone() }</small> }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CheckboxProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub checked: bool,
    pub onchange: Callback<bool>,
    #[prop_or_default]
    pub hint: AttrValue,
    #[prop_or_default]
    pub disabled: bool,
}

#[function_component]
pub fn Checkbox(p: &CheckboxProps) -> Html {
    let full = use_full_app();
    if !use_shown(&p.id) {
        return html! {};
    }
    let onchange = from_input::<Event, _>(p.onchange.clone(), |i| Some(i.checked()));
    html! {
        <div class="control checkbox">
            <input type="checkbox" id={p.id.clone()} checked={p.checked} disabled={p.disabled} {onchange} />
            <label for={p.id.clone()}><code>{ p.label.clone() }</code></label>
            if !p.hint.is_empty() && full { <small class="hint">{ p.hint.clone() }</small> }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub id: AttrValue,
    pub label: Html,
    pub value: AttrValue,
    pub placeholder: AttrValue,
    pub oninput: Callback<String>,
    /// The refusal to show beside the field.
    #[prop_or_default]
    pub error: Option<AttrValue>,
}

#[function_component]
pub fn TextField(p: &TextFieldProps) -> Html {
    if !use_shown(&p.id) {
        return html! {};
    }
    let oninput = from_input::<InputEvent, _>(p.oninput.clone(), |i| Some(i.value()));
    let input = html! {
        <input type="text" id={p.id.clone()} value={p.value.clone()} placeholder={p.placeholder.clone()}
            spellcheck="false" autocomplete="off" aria-invalid={p.error.is_some().to_string()}
            aria-describedby={format!("{}-error", p.id)} {oninput} />
    };
    text_control(&p.id, p.label.clone(), &p.error, input)
}

#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    pub id: AttrValue,
    pub label: AttrValue,
    /// (value, text)
    pub options: Vec<(AttrValue, AttrValue)>,
    pub selected: AttrValue,
    pub onchange: Callback<String>,
}

#[function_component]
pub fn Choice(p: &ChoiceProps) -> Html {
    let select = use_node_ref();
    {
        // The options' `selected` attributes set the first selection; once
        // the user (or a script) has chosen, browsers follow only the
        // `value` property (Firefox strictly so), so it is set as well.
        let select = select.clone();
        use_effect_with(p.selected.clone(), move |selected| {
            if let Some(s) = select.cast::<HtmlSelectElement>() {
                if s.value() != selected.as_str() {
                    s.set_value(selected);
                }
            }
        });
    }
    if !use_shown(&p.id) {
        return html! {};
    }
    let onchange =
        from_target::<Event, HtmlSelectElement, _>(p.onchange.clone(), |s| Some(s.value()));
    html! {
        <div class="control">
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <select id={p.id.clone()} ref={select} {onchange}>
                { for p.options.iter().map(|(v, t)| html! {
                    <option value={v.clone()} selected={*v == p.selected}>{ t.clone() }</option>
                }) }
            </select>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextAreaProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    pub rows: u32,
    pub oninput: Callback<String>,
    #[prop_or_default]
    pub error: Option<AttrValue>,
}

#[function_component]
pub fn TextArea(p: &TextAreaProps) -> Html {
    if !use_shown(&p.id) {
        return html! {};
    }
    let oninput =
        from_target::<InputEvent, web_sys::HtmlTextAreaElement, _>(p.oninput.clone(), |t| {
            Some(t.value())
        });
    let area = html! {
        <textarea id={p.id.clone()} value={p.value.clone()} rows={p.rows.to_string()} spellcheck="false"
            aria-invalid={p.error.is_some().to_string()} aria-describedby={format!("{}-error", p.id)} {oninput} />
    };
    text_control(&p.id, html! { { p.label.clone() } }, &p.error, area)
}

#[derive(Properties, PartialEq)]
pub struct CopyProps {
    pub id: AttrValue,
    pub text: AttrValue,
}

/// A copy button for a snippet, that says whether the copy happened.
#[function_component]
pub fn CopyButton(p: &CopyProps) -> Html {
    let label = use_state(|| "Copy");
    let onclick = {
        let (label, text) = (label.clone(), p.text.clone());
        Callback::from(move |_: MouseEvent| {
            let (label, text) = (label.clone(), text.clone());
            yew::platform::spawn_local(async move {
                let done = super::hooks::write_clipboard(&text).await;
                label.set(if done {
                    "Copied"
                } else {
                    "Copy failed: select the text"
                });
            });
        })
    };
    html! { <button type="button" class="copy" id={p.id.clone()} {onclick} aria-live="polite">{ *label }</button> }
}

/// Number fields whose text is refused, each with the text as typed and
/// why: the field keeps showing the text and its refusal while the value
/// stays the last that read. One per view (`F` names its fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusals<F>(Vec<(F, String, String)>);

impl<F> Default for Refusals<F> {
    fn default() -> Self {
        Self(vec![])
    }
}

impl<F: Copy + PartialEq> Refusals<F> {
    /// The field's value read from `text` by `read`, or its refusal kept.
    pub fn read<T>(
        &mut self,
        field: F,
        text: &str,
        read: impl FnOnce(&str) -> Result<T, String>,
    ) -> Option<T> {
        self.0.retain(|(f, _, _)| *f != field);
        match read(text) {
            Ok(v) => Some(v),
            Err(why) => {
                self.0.push((field, text.to_owned(), why));
                None
            }
        }
    }

    /// What the field shows: its refused text, else `value`.
    pub fn text(&self, field: F, value: impl FnOnce() -> String) -> String {
        self.0
            .iter()
            .find(|(f, _, _)| *f == field)
            .map_or_else(value, |(_, t, _)| t.clone())
    }

    /// Why the field is refused.
    pub fn error(&self, field: F) -> Option<AttrValue> {
        self.0
            .iter()
            .find(|(f, _, _)| *f == field)
            .map(|(_, _, e)| AttrValue::from(e.clone()))
    }

    /// Each refused field and why, in the order they were refused.
    pub fn iter(&self) -> impl Iterator<Item = (F, &str)> {
        self.0.iter().map(|(f, _, e)| (*f, e.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}
