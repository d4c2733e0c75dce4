//! The app's browser plumbing as hooks and guards that clean up on drop
//! (gloo's timers and frames, a ResizeObserver guard): URL sync, the theme,
//! the embed's height.

use super::state::Figures;
use super::Root;
use crate::inputs::Theme;
use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, IntersectionObserver, ResizeObserver};
use yew::prelude::*;

/// An observer of the page (`ResizeObserver`, `IntersectionObserver`).
pub trait Observer {
    fn disconnect(&self);
}

impl Observer for ResizeObserver {
    fn disconnect(&self) {
        ResizeObserver::disconnect(self);
    }
}

impl Observer for IntersectionObserver {
    fn disconnect(&self) {
        IntersectionObserver::disconnect(self);
    }
}

/// Calls back as an observer reports, until dropped.
pub struct ObserverGuard<O: Observer, F: ?Sized> {
    observer: Option<O>,
    _callback: Closure<F>,
}

impl<O: Observer, F: ?Sized> Drop for ObserverGuard<O, F> {
    fn drop(&mut self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
    }
}

/// Calls back whenever an element changes size, until dropped.
pub type ResizeGuard = ObserverGuard<ResizeObserver, dyn FnMut()>;

/// Calls back whenever an element comes within a margin of sight or leaves
/// it, until dropped.
pub type NearGuard = ObserverGuard<IntersectionObserver, dyn FnMut(js_sys::Array)>;

/// How far from sight an element counts as near: half a viewport above and
/// below, so that what scrolls into view was drawn a moment before.
pub const NEAR_MARGIN: &str = "50% 0px";

/// In sight: within the viewport itself.
pub const SIGHT_MARGIN: &str = "0px";

/// Observes whether `target` is within `margin` of the viewport (the root
/// margin of an IntersectionObserver); `on_change` gets the answer when the
/// observation starts and whenever it changes (as IntersectionObserver
/// reports).
pub fn observe_within(
    target: &Element,
    margin: &str,
    mut on_change: impl FnMut(bool) + 'static,
) -> NearGuard {
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        // The latest entry is the element's state now.
        if let Ok(entry) = entries
            .at(-1)
            .dyn_into::<web_sys::IntersectionObserverEntry>()
        {
            on_change(entry.is_intersecting());
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(margin);
    let observer =
        IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok();
    if let Some(o) = &observer {
        o.observe(target);
    }
    ObserverGuard {
        observer,
        _callback: callback,
    }
}

/// Observes `target`'s size; `on_resize` runs after each change (and once
/// when the observation starts, as ResizeObserver reports).
pub fn observe_resize(target: &Element, on_resize: impl FnMut() + 'static) -> ResizeGuard {
    let callback = Closure::<dyn FnMut()>::new(on_resize);
    let observer = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok();
    if let Some(o) = &observer {
        o.observe(target);
    }
    ObserverGuard {
        observer,
        _callback: callback,
    }
}

fn document_element() -> Option<Element> {
    web_sys::window()?.document()?.document_element()
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

/// The page URL with this query: in place, or as a new history entry.
fn set_url(query: &str, push: bool) {
    let (Some(w), Some(l)) = (web_sys::window(), location()) else {
        return;
    };
    let path = l.pathname().unwrap_or_default();
    let url = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    if let Ok(history) = w.history() {
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}

/// How long the URL waits after the last change: a drag does not flood the
/// browser's history.
const URL_DEBOUNCE_MS: u32 = 250;

/// Keeps the page URL at `query`, a quarter second after it last changed.
#[hook]
pub fn use_url_sync(query: String, enabled: bool) {
    use_effect_with((query, enabled), |(query, enabled)| {
        let q = query.clone();
        let timer = enabled.then(|| Timeout::new(URL_DEBOUNCE_MS, move || set_url(&q, false)));
        move || drop(timer)
    });
}

/// Where the reader's theme choice is remembered between visits.
const THEME_KEY: &str = "crashloop-explorer.theme";

/// The system's colour preference, which decides `Theme::Auto`.
const PREFERS_DARK: &str = "(prefers-color-scheme: dark)";

/// `query` as a media query list, which reports when it changes.
fn media(query: &str) -> Option<web_sys::MediaQueryList> {
    web_sys::window()?.match_media(query).ok()?
}

/// Calls back with whether `query` matches each time that changes, until
/// dropped (a system turning dark, a window moved to a screen of another
/// density).
pub fn watch_media(
    query: &str,
    mut on_change: impl FnMut(bool) + 'static,
) -> Option<gloo_events::EventListener> {
    let list = media(query)?;
    let read = list.clone();
    Some(gloo_events::EventListener::new(
        &list,
        "change",
        move |_| on_change(read.matches()),
    ))
}

/// Whether the page is drawn dark: the system's preference decides `Auto`,
/// followed as it changes (an evening switch turns the page's CSS dark at
/// once; the charts, drawn with the state's colours, follow this), and
/// asked once, not on every render.
#[hook]
pub fn use_dark(theme: Theme) -> bool {
    let prefers = use_state_eq(|| media(PREFERS_DARK).is_some_and(|list| list.matches()));
    {
        let set = prefers.setter();
        use_effect_with((), move |_| {
            let listener = watch_media(PREFERS_DARK, move |dark| set.set(dark));
            move || drop(listener)
        });
    }
    match theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => *prefers,
    }
}

pub fn theme_label(theme: Theme) -> &'static str {
    match theme {
        Theme::Auto => "Theme: system",
        Theme::Light => "Theme: light",
        Theme::Dark => "Theme: dark",
    }
}

fn storage() -> Option<web_sys::Storage> {
    // Storage can be refused (privacy modes, sandboxed iframes): then nothing is remembered.
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the theme choice is remembered: on a page that asks, never under
/// a root that shows only embeds (known when compiling: the element's wasm
/// holds no storage code).
fn remembers<R: Root>(asked: bool) -> bool {
    !R::EMBED_ONLY && asked
}

/// The theme, set as `data-theme` on `root` (the document's element for a
/// page, the shadow host for a mounted explorer), and a callback that moves
/// to the next one. A link's `theme=` wins (a host page's theme for an
/// embed); otherwise, on a page, the reader's last choice, remembered. A
/// mounted explorer without a theme follows the system, not the reader's
/// choice on another page.
#[hook]
pub fn use_theme<R: Root>(
    linked: Option<Theme>,
    remember: bool,
    root: Option<Element>,
) -> (Theme, Callback<MouseEvent>) {
    let theme = use_state_eq(move || {
        linked
            .or_else(|| {
                remembers::<R>(remember)
                    .then(|| Theme::parse(&storage()?.get_item(THEME_KEY).ok()??))
                    .flatten()
            })
            .unwrap_or_default()
    });
    use_effect_with((*theme, root), |(theme, root)| {
        if let Some(root) = root.clone().or_else(document_element) {
            let _ = match theme {
                Theme::Auto => root.remove_attribute("data-theme"),
                t => root.set_attribute("data-theme", t.name()),
            };
        }
    });
    let toggle = {
        let theme = theme.clone();
        Callback::from(move |_: MouseEvent| {
            let next = theme.next();
            if let Some(s) = storage().filter(|_| remembers::<R>(remember)) {
                let _ = s.set_item(THEME_KEY, next.name());
            }
            theme.set(next);
        })
    };
    (*theme, toggle)
}

fn object(pairs: &[(&str, JsValue)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
    }
    o
}

/// Tells the parent page how tall the embed is: our message, AMP's
/// `embed-size`, and Pym's when the page gave a `childId`.
fn post_height(app: &Element) {
    let Some(w) = web_sys::window() else { return };
    let Ok(Some(parent)) = w.parent() else { return };
    let height = app.get_bounding_client_rect().height().ceil() as i32;
    if height <= 0 {
        return;
    }
    let ours = object(&[
        ("type", "crashloop-explorer:height".into()),
        ("height", height.into()),
    ]);
    let _ = parent.post_message(&ours, "*");
    let amp = object(&[
        ("sentinel", "amp".into()),
        ("type", "embed-size".into()),
        ("height", height.into()),
    ]);
    let _ = parent.post_message(&amp, "*");
    let child = location()
        .and_then(|l| l.search().ok())
        .and_then(|s| {
            crate::share::parse_query(&s)
                .into_iter()
                .find(|(k, _)| k == "childId")
        })
        .map(|(_, v)| v);
    if let Some(id) = child {
        let pym = format!("pymxPYMx{id}xPYMxheightxPYMx{height}");
        let _ = parent.post_message(&pym.into(), "*");
    }
}

/// In an embed, posts the app's height to the parent whenever it changes,
/// smaller as well as larger. It measures the app's own box (`app`): the
/// document's scrollHeight never drops below the iframe's current height,
/// so it could only ever grow.
#[hook]
pub fn use_embed_height(enabled: bool, app: NodeRef) {
    use_effect_with(enabled, move |&enabled| {
        let guard = enabled.then(|| app.cast::<Element>()).flatten().map(|el| {
            let measured = el.clone();
            observe_resize(&el, move || post_height(&measured))
        });
        move || drop(guard)
    });
}

/// Pushes a history entry: another view's link, so Back returns to this one.
pub fn push_url(query: &str) {
    set_url(query, true);
}

/// Back and Forward between the views: the view follows the URL's `view=`.
#[hook]
pub fn use_view_history(view: UseStateHandle<crate::inputs::View>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            gloo_events::EventListener::new(&w, "popstate", move |_| {
                let search = location().and_then(|l| l.search().ok()).unwrap_or_default();
                let shown = crate::share::parse_query(&search)
                    .into_iter()
                    .rev()
                    .find(|(k, _)| k == "view")
                    .and_then(|(_, v)| crate::inputs::View::parse(&v));
                view.set(shown.unwrap_or_default());
            })
        });
        move || drop(listener)
    });
}

/// Puts text on the clipboard; whether the browser took it (it may refuse:
/// no permission, an insecure page, no clipboard at all).
pub async fn write_clipboard(text: &str) -> bool {
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .is_ok()
}

/// How long the controls must rest before what waits for them (the jitter
/// band, charts and figures out of sight, the spoken summary) catches up:
/// longer than the gap between a drag's moves (a frame) or a held key's
/// repeats.
const REST_MS: u32 = 100;

/// Runs `then` once the controls have rested (`REST_MS`), unless the
/// returned timer is dropped first (a newer change restarts the wait).
pub fn after_rest(then: impl FnOnce() + 'static) -> Timeout {
    Timeout::new(REST_MS, then)
}

/// Runs `draw` once the state has rested `REST_MS` with work pending (the
/// node view's jitter band, the cluster view's sweep): each new state
/// (`shown`, a result's identity) restarts the wait, so a drag paints every
/// move without it, and it follows.
#[hook]
pub fn use_when_rested(pending: bool, shown: usize, draw: Callback<()>) {
    use_effect_with((pending, shown), move |&(pending, _)| {
        let timer = pending.then(|| after_rest(move || draw.emit(())));
        move || drop(timer)
    });
}

/// The results figures show while the controls move: the newest while their
/// element is in sight (`SIGHT_MARGIN`; with no element, never), else the
/// results they last showed, until the controls rest (`REST_MS` after the
/// latest change) or the element comes into sight. Changed text costs layout
/// wherever it is on the page, in view or not (a table's cells are laid out
/// together), so a drag leaves the figures nobody sees alone, and they
/// catch up a tenth of a second after the drag, before anyone can scroll
/// to them or print them. The flag says it is behind; its element says so with
/// `aria-busy`, which also holds a live region's announcement until it has
/// caught up.
#[hook]
pub fn use_caught_up(newest: Figures, sight: Option<NodeRef>) -> (Figures, bool) {
    // Until the first report, an element counts as in sight.
    let in_sight = use_mut_ref(|| sight.is_some());
    let shown = use_mut_ref(|| newest.clone());
    let update = use_force_update();
    {
        let (in_sight, update) = (in_sight.clone(), update.clone());
        use_effect_with((), move |_| {
            let guard = sight.and_then(|n| n.cast::<Element>()).map(|element| {
                observe_within(&element, SIGHT_MARGIN, move |now| {
                    let was = std::mem::replace(&mut *in_sight.borrow_mut(), now);
                    if now && !was {
                        update.force_update();
                    }
                })
            });
            move || drop(guard)
        });
    }
    if *in_sight.borrow() {
        *shown.borrow_mut() = newest.clone();
    }
    let behind = shown.borrow().key() != newest.key();
    {
        let shown = shown.clone();
        // Every render while behind (each new state) restarts the wait.
        use_effect(move || {
            let timer = behind.then(|| {
                after_rest(move || {
                    *shown.borrow_mut() = newest;
                    update.force_update();
                })
            });
            move || drop(timer)
        });
    }
    let value = shown.borrow().clone();
    (value, behind)
}

/// The first render in steps, one a task: the step reached, 0 to `last`.
/// The page's first render at once was one task of about 170 ms on a
/// phone's CPU (Lighthouse's 4 × slowed), over the 50 ms that blocks input;
/// each step is a part of it, and the browser may answer input and paint
/// between them. Charts' first drawings wait for the last step
/// (`charts::hold_first_drawings`).
#[hook]
pub fn use_first_render_steps(last: u8) -> u8 {
    let step = use_state_eq(|| 0u8);
    {
        let step = step.clone();
        use_effect_with(*step, move |&now| {
            let next = (now < last).then(|| Timeout::new(0, move || step.set(now + 1)));
            move || drop(next)
        });
    }
    use_effect_with(*step < last, |&stepping| {
        let held = stepping.then(super::charts::hold_first_drawings);
        move || drop(held)
    });
    *step
}
