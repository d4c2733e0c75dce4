//! The Yew app: the CrashLoopBackOff view and the Job view, its state in the
//! URL, and an embed mode for iframes. Every number comes from the engine;
//! this maps results to Html and canvas.

pub mod cache;
pub mod canvas;
pub mod charts;
pub mod cluster;
pub mod controls;
pub mod diagnose;
pub mod exports;
pub mod extras;
pub mod hooks;
pub mod instant;
pub mod job;
pub mod later;
pub mod lazy;
pub mod lifecycle;
pub mod live;
pub mod panels;
pub mod results;
pub mod state;
pub mod stops;
pub mod words;

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use crate::inputs::{Page, View, FIRST_VISIT_LINK, FIRST_VISIT_SHOWS};
use crate::share::{self, Notice};
use charts::Chart;
use controls::Embed;
use hooks::{use_embed_height, use_theme, use_url_sync};
use lazy::{LazyDetails, Part, Slot};
use lifecycle::LifecyclePanel;
use panels::{
    api_slice, curve_slice, kubelet_slice, timing_slice, workload_slice, Announce, ApiPanel,
    ComparePanel, CompareTable, CurvePanel, Headline, HeadlineBar, KubeletPanel, SummaryTable,
    TimingPanel, WorkloadPanel,
};
use state::{Action, State};
use std::rc::Rc;

/// Mounts the explorer into `<body>`: the app's own page (boot.js calls it
/// through the JS API's `start`).
pub fn start() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // The first view drawn at build time gives way to the live one; the
    // page's header stays. Yew empties the element it mounts in, so the app
    // gets one of its own rather than <body>.
    let static_header = document
        .query_selector("header.page-header")
        .ok()
        .flatten()
        .is_some();
    let (Ok(root), Some(body)) = (document.create_element("div"), document.body()) else {
        return;
    };
    root.set_id(APP_ROOT_ID);
    // Out of sight and out of the flow while its first render's steps run
    // (`App` shows it in the prerender's place when they are done).
    root.set_class_name(BUILDING);
    let _ = body.append_child(&root);
    // In a task of its own, after the one that instantiated the wasm.
    gloo_timers::callback::Timeout::new(0, move || {
        mount_props(
            root,
            AppProps {
                static_header,
                ..AppProps::default()
            },
        );
    })
    .forget();
}

/// The cluster watch's panel: a link ending in `#live` opens it at once.
pub const LIVE_ID: &str = "live";

fn live_asked() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|h| h.trim_start_matches('#') == LIVE_ID)
}

/// The page's first render's steps after the first (`App`).
const FIRST_RENDER_STEPS: u8 = 6;

/// The class of the page's app's element while its first render's steps run.
const BUILDING: &str = "building";

/// The first render done: the page's app takes the prerendered view's place
/// in one change, as it did when it rendered at once.
fn built() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(pre) = document.get_element_by_id(crate::export::PRERENDER_ID) {
        pre.remove();
    }
    if let Some(root) = document.get_element_by_id(APP_ROOT_ID) {
        let _ = root.class_list().remove_1(BUILDING);
    }
}

/// The element the page's app is mounted in.
pub const APP_ROOT_ID: &str = "app-root";

/// Mounts the explorer into any element, from its own page's URL (kept in sync).
pub fn mount(root: Element) -> yew::AppHandle<App> {
    yew::Renderer::<App>::with_root(root).render()
}

/// Mounts the explorer into an element from a link's query string, leaving
/// the page's URL alone.
pub fn mount_with_query(root: Element, query: String) -> yew::AppHandle<App> {
    mount_props(
        root,
        AppProps {
            query: Some(query.into()),
            ..AppProps::default()
        },
    )
}

pub fn mount_props(root: Element, props: AppProps) -> yew::AppHandle<App> {
    yew::Renderer::<App>::with_root_and_props(root, props).render()
}

#[derive(Properties, PartialEq, Default, Clone)]
pub struct AppProps {
    /// A link's query string to start from; unset, the page's own (kept in sync).
    #[prop_or_default]
    pub query: Option<AttrValue>,
    /// The element that carries `data-theme` (a mounted explorer's shadow
    /// host); unset, the document's.
    #[prop_or_default]
    pub theme_root: Option<Element>,
    /// Where the full app lives, for "Open in crashloop-explorer" and "Copy
    /// link" (a custom element on a docs page is not at the app's address);
    /// unset, this page.
    #[prop_or_default]
    pub app_url: Option<AttrValue>,
    /// The page already has the title and lede (the built index.html's, drawn
    /// at build time), which the app leaves in place.
    #[prop_or_default]
    pub static_header: bool,
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

/// The query string a link is read from: the one given, or the page's address's.
fn link_source(query: &Option<AttrValue>) -> String {
    match query {
        Some(q) => q.to_string(),
        None => location().and_then(|l| l.search().ok()).unwrap_or_default(),
    }
}

fn read_link(query: &Option<AttrValue>, json_pin: share::JsonPin) -> (Page, Vec<Notice>) {
    let decode = |q: &str| share::decode_with(q, json_pin);
    match query {
        Some(q) => decode(q),
        None => {
            let search = link_source(query);
            let hash = location().and_then(|l| l.hash().ok()).unwrap_or_default();
            // A bare address is the first view, whichever part its `#` opens.
            let bare = search.trim_start_matches('?').is_empty();
            let (mut shared, notices) = decode(if bare { FIRST_VISIT_LINK } else { &search });
            if let Some(view) = hash.strip_prefix('#').and_then(View::parse) {
                shared.view = view;
            }
            (shared, notices)
        }
    }
}

/// The full link to this state: at `app_url` when given, else on this page.
fn link_to(query: &str, app_url: Option<&str>) -> String {
    if let Some(base) = app_url {
        let base = base.split(['?', '#']).next().unwrap_or_default();
        return if query.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{query}")
        };
    }
    let l = location();
    let origin = l.as_ref().and_then(|l| l.origin().ok()).unwrap_or_default();
    let path = l
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_default();
    if query.is_empty() {
        format!("{origin}{path}")
    } else {
        format!("{origin}{path}?{query}")
    }
}

/// What the full app and the embed both hold: the state, what the link
/// gave, the view shown, the theme, and the Job view's link.
struct Core {
    link: std::rc::Rc<(Page, Vec<Notice>)>,
    state: UseReducerHandle<State>,
    view: UseStateHandle<View>,
    on_job: Callback<String>,
    on_cluster: Callback<String>,
    notices: UseStateHandle<Vec<Notice>>,
    /// The page owns its URL (not a mounted explorer).
    sync: bool,
    theme: crate::inputs::Theme,
    toggle_theme: Callback<MouseEvent>,
    dark: bool,
    root: NodeRef,
    page: Page,
    query: String,
    job_part_link: std::rc::Rc<String>,
    cluster_part_link: std::rc::Rc<String>,
}

/// A part's link keys as the part (in the second wasm) last wrote them,
/// and the callback that takes its answers: `keys` picks its own out of a
/// page.
#[hook]
fn use_part_keys<T: PartialEq + Clone + 'static>(
    initial: T,
    json_pin: share::JsonPin,
    keys: fn(Page) -> T,
) -> (UseStateHandle<T>, Callback<String>) {
    let state = use_state(move || initial);
    let on_keys = {
        let state = state.clone();
        Callback::from(move |text: String| {
            let now = keys(share::decode_with(&text, json_pin).0);
            if *state != now {
                state.set(now);
            }
        })
    };
    (state, on_keys)
}

/// An older link's pins written as JSON wait for the second module, which
/// reads them; the link as first read (the URL follows the state since) is
/// then read again for what it compares, and what was moved meanwhile
/// stays. If the module cannot be had, it is read again for its notices,
/// the pins saying so. Only where pins wait (`Root::PINS_WAIT`): a root
/// returns here or never, so its hooks keep their order.
#[hook]
fn use_json_pins<R: Root>(
    query: Option<AttrValue>,
    link: std::rc::Rc<(Page, Vec<Notice>)>,
    d: UseReducerDispatcher<State>,
    notices: UseStateHandle<Vec<Notice>>,
) {
    if !R::PINS_WAIT {
        return;
    }
    let source = use_memo(query, link_source);
    use_effect_with(link, move |link| {
        if link.1.iter().any(|n| n.message.contains(lazy::PIN_WAITS)) {
            yew::platform::spawn_local(async move {
                let came = lazy::fetch_for_pins().await;
                let read: share::JsonPin = if came {
                    R::JSON_PIN
                } else {
                    |_| Err(lazy::PIN_UNREAD.into())
                };
                let (page, again) = share::decode_with(&source, read);
                if came {
                    d.dispatch(Action::CompareAll(page.inputs.compared));
                }
                notices.set(again);
            });
        }
    });
}

/// The page's URL, kept at the state's link, and an iframe's height,
/// posted to its host: the full app's. The element's root is always given
/// its link and owns no URL, so it needs neither hook; a root always returns
/// here or never, so its hooks keep their order.
#[hook]
fn use_page_owner<R: Root>(query: String, sync: bool, embed: bool, root: NodeRef) {
    if R::EMBED_ONLY {
        return;
    }
    use_url_sync(query, sync);
    // Only an iframe's page posts its height: a mounted explorer is in the
    // host's own document, where the message would reach the host itself.
    use_embed_height(embed && sync, root);
}

/// What both roots hold, read as root `R` reads links.
#[hook]
fn use_core<R: Root>(props: &AppProps, first: Option<Prepared>) -> Core {
    let json_pin = R::JSON_PIN;
    let link = {
        let first = first.clone();
        let link = use_memo(props.query.clone(), move |q| {
            match first.filter(|f| f.0.query == *q) {
                Some(f) => f.0.link.clone(),
                None => Rc::new(read_link(q, json_pin)),
            }
        });
        (*link).clone()
    };
    let state = {
        let l = link.clone();
        use_reducer(move || match first.filter(|f| Rc::ptr_eq(&f.0.link, &l)) {
            Some(f) => f.0.state.clone(),
            None => State::new(l.0.inputs.clone()),
        })
    };
    {
        let d = state.dispatcher();
        hooks::use_when_rested(
            state.band_pending,
            state.shown.ptr(),
            Callback::from(move |()| d.dispatch(Action::Band)),
        );
    }
    // The Job and cluster views' link keys, as they (in the second wasm) last wrote them.
    let (job, on_job) = use_part_keys(link.0.job.clone(), json_pin, |p| p.job);
    let (cluster, on_cluster) = use_part_keys(link.0.cluster.clone(), json_pin, |p| p.cluster);
    let view = {
        let v = link.0.view;
        use_state(move || v)
    };
    let notices = {
        let n = link.1.clone();
        use_state(move || n)
    };
    use_json_pins::<R>(
        props.query.clone(),
        link.clone(),
        state.dispatcher(),
        notices.clone(),
    );
    let sync = props.query.is_none();
    let (theme, toggle_theme) = use_theme::<R>(link.0.theme, sync, props.theme_root.clone());
    let dark = hooks::use_dark(theme);
    let root = use_node_ref();
    let page = Page {
        view: *view,
        inputs: state.inputs.clone(),
        job: (*job).clone(),
        cluster: (*cluster).clone(),
        embed: link.0.embed,
        controls: link.0.controls.clone(),
        // A link that names a theme keeps naming the one shown.
        theme: link.0.theme.map(|_| theme),
    };
    let query = share::encode(&page);
    // The parts in the second wasm get only what they read, so that a
    // slider move does not reach them.
    let job_part_link = use_memo((*job).clone(), lazy::job_part_link);
    // The node view's workload only while the cluster view shows, so that
    // a slider moved in the node view does not reach a hidden cluster view.
    let cluster_part_link = use_memo(
        (
            (*cluster).clone(),
            (*view == View::Cluster).then(|| state.inputs.spec.effective_groups()),
        ),
        |(cluster, groups)| lazy::cluster_part_link(cluster, groups.as_deref().unwrap_or_default()),
    );
    use_page_owner::<R>(query.clone(), sync, page.embed, root.clone());
    Core {
        link,
        state,
        view,
        on_job,
        on_cluster,
        notices,
        sync,
        theme,
        toggle_theme,
        dark,
        root,
        page,
        query,
        job_part_link,
        cluster_part_link,
    }
}

impl Core {
    /// The slot of a view that is a part in the second wasm (Job, cluster).
    fn part_slot(&self, view: View) -> Option<Html> {
        let (part, link, on_message) = match view {
            View::CrashLoop => return None,
            View::Job => (Part::Job, &self.job_part_link, &self.on_job),
            View::Cluster => (Part::Cluster, &self.cluster_part_link, &self.on_cluster),
        };
        Some(html! {
            <Slot part={part} link={(**link).clone()} dark={self.dark} on_message={on_message.clone()} />
        })
    }

    /// The link's notices, with a button that dismisses them (and moves
    /// focus to `done`, the status line beside them, when there is one).
    fn banner(&self, done: &NodeRef) -> Option<Html> {
        let dismiss = {
            let (notices, done) = (self.notices.clone(), done.clone());
            Callback::from(move |_: MouseEvent| {
                notices.set(vec![]);
                if let Some(el) = done.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            })
        };
        (!self.notices.is_empty()).then(|| {
            html! {
                <div class="notices" id="link-notices" role="status">
                    { notice_list(&self.notices) }
                    <button type="button" onclick={dismiss}>{"Dismiss"}</button>
                </div>
            }
        })
    }

    /// The embed: the headline, the controls the link names, two charts and
    /// the summary (or the Job view), with a link to the full app.
    fn embed_view<R: Root>(&self, app_url: Option<&str>) -> Html {
        let (state, dark) = (&self.state, self.dark);
        let banner = self.banner(&NodeRef::default());
        let full = link_to(
            &share::encode(&Page {
                embed: false,
                controls: vec![],
                ..self.page.clone()
            }),
            app_url,
        );
        let open_full = html! {
            <p class="fineprint"><a href={full} target="_blank" rel="noopener" id="open-full">{"Open in crashloop-explorer"}</a></p>
        };
        // The element sits in someone else's page, which has its own main
        // landmark: it adds none, nor a "Results" region per element.
        let (tag, results_label) = if R::EMBED_ONLY {
            ("div", None)
        } else {
            ("main", Some("Results"))
        };
        if let Some(part) = self.part_slot(*self.view) {
            return html! {
                <@{tag} class="app embed" ref={self.root.clone()}>
                    { for banner }
                    { part }
                    { open_full }
                </@>
            };
        }
        html! {
            <@{tag} class="app embed" ref={self.root.clone()}>
                { for banner }
                <Headline state={state.clone()} />
                <div class="layout">
                    <ContextProvider<Embed> context={Embed(self.page.controls.clone().into())}>
                        <div class="controls">
                            <KubeletPanel<R> state={state.clone()} slice={kubelet_slice(state)} />
                            <CurvePanel<R> state={state.clone()} slice={curve_slice(state)} />
                            <WorkloadPanel<R> state={state.clone()} slice={workload_slice(state)} />
                            <ApiPanel<R> state={state.clone()} slice={api_slice(state)} />
                        </div>
                    </ContextProvider<Embed>>
                    <section class="results" aria-label={results_label}>
                        <Chart chart={charts::RESTARTS} state={state.clone()} dark={dark} />
                        <Chart chart={charts::LOAD} state={state.clone()} dark={dark} />
                        <SummaryTable state={state.clone()} />
                        { open_full }
                    </section>
                </div>
                <Announce state={state.clone()} />
            </@>
        }
    }
}

/// The explorer as embeds show it, and only that: the custom element's own
/// wasm (src/bin/embed.rs) mounts this, so that it carries nothing of the
/// full page (the other panels, the exports, the JS API).
#[function_component]
pub fn EmbedApp(props: &AppProps) -> Html {
    use_core::<EmbedApp>(props, None).embed_view::<EmbedApp>(props.app_url.as_deref())
}

/// What can be mounted as the explorer (`api::mount`): the full app, which
/// shows the embed for an embed link, or the embed alone.
pub trait Root: BaseComponent<Properties = AppProps> {
    /// Every link is shown as an embed.
    const EMBED_ONLY: bool;
    /// How a pin written as JSON by an older link is read.
    const JSON_PIN: share::JsonPin;
    /// Such a pin waits for the second module (`lazy::json_pin`).
    const PINS_WAIT: bool;
    /// The stylesheet its shadow roots adopt when mounted (`api::mount`).
    const STYLESHEET: &'static str;
}

impl Root for App {
    const EMBED_ONLY: bool = false;
    // Read by the second wasm, fetched when a link has one.
    const JSON_PIN: share::JsonPin = lazy::json_pin;
    const PINS_WAIT: bool = true;
    const STYLESHEET: &'static str = crate::style::STYLESHEET;
}

impl Root for EmbedApp {
    const EMBED_ONLY: bool = true;
    // Its wasm holds no JSON reader for scenarios: an older link's JSON pin
    // is named, and opens in the full app.
    const JSON_PIN: share::JsonPin = share::json_pin_elsewhere;
    const PINS_WAIT: bool = false;
    // Without the full page's own rules (its header, tabs, pod reader,
    // exports and audit), which an element never shows.
    const STYLESHEET: &'static str = crate::style::ELEMENT_STYLESHEET;
}

/// A link read and the state it opens with, made in a task before the app
/// that shows them (`App`).
#[derive(Clone)]
struct Prepared(Rc<PreparedParts>);

struct PreparedParts {
    query: Option<AttrValue>,
    link: Rc<(Page, Vec<Notice>)>,
    state: State,
}

impl Prepared {
    fn new(query: &Option<AttrValue>, link: Rc<(Page, Vec<Notice>)>) -> Self {
        let state = State::new(link.0.inputs.clone());
        // The results the first view reads, worked out here, not in the
        // app's first render.
        let _ = &*state.shown;
        Self(Rc::new(PreparedParts {
            query: query.clone(),
            link,
            state,
        }))
    }
}

impl PartialEq for Prepared {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The app's first steps, a task each (`hooks::use_first_render_steps`):
/// the renderer started, the link read, its state worked out (the engine's
/// first run), then the app's first render (`FIRST_RENDER_STEPS`). Each
/// first call of a wasm function compiles it, so a task's cost is the code
/// it reaches first: the last three in one task were about 85 ms on a
/// phone's CPU (Lighthouse's 4 × slowed), over the 50 ms that blocks input.
const APP_STEPS: u8 = 3;

/// The full app.
#[function_component]
pub fn App(props: &AppProps) -> Html {
    let step = hooks::use_first_render_steps(APP_STEPS);
    let link = {
        let query = props.query.clone();
        use_memo(step >= 1, move |&ready| {
            ready.then(|| Rc::new(read_link(&query, App::JSON_PIN)))
        })
    };
    let first = {
        let query = props.query.clone();
        use_memo(step >= 2, move |&ready| {
            let link = (*link).clone().filter(|_| ready)?;
            Some(Prepared::new(&query, link))
        })
    };
    if step < APP_STEPS {
        return html! { <div aria-busy="true"></div> };
    }
    html! { <FullApp app={props.clone()} first={(*first).clone()} /> }
}

#[derive(Properties, PartialEq)]
struct FullAppProps {
    app: AppProps,
    first: Option<Prepared>,
}

#[function_component]
fn FullApp(full: &FullAppProps) -> Html {
    let props = &full.app;
    let core = use_core::<App>(props, full.first.clone());
    let state = core.state.clone();
    let (view, link, sync, dark) = (core.view.clone(), core.link.clone(), core.sync, core.dark);
    // Once shown, a part's view stays mounted (hidden in the others), so
    // that its text being typed survives a visit to another view.
    let seen = use_mut_ref(Vec::<View>::new);
    if !seen.borrow().contains(&view) {
        seen.borrow_mut().push(*view);
    }
    let copied = use_state(String::new);
    let app_url = props.app_url.as_deref();
    let theme_label = hooks::theme_label(core.theme);
    // Asked for by the address the page was opened at, not by what the
    // address says later (the page rewrites it as the inputs move).
    let live_open = *use_memo((), |_| live_asked());
    // The pod reader reads only the kubelet's version and configuration
    // (the audit reads nothing).
    let pod_part_link = use_memo(
        (
            state.inputs.spec.kubelet_version,
            state.inputs.config.clone(),
        ),
        |(version, config)| lazy::pod_part_link(*version, config),
    );
    let live_part_link = use_memo(
        (
            state.inputs.spec.kubelet_version,
            state.inputs.config.clone(),
            core.page.cluster.clone(),
        ),
        |(version, config, cluster)| lazy::live_part_link(*version, config, cluster),
    );
    // The pod reader's "Explore … in the charts" and the audit's "show me",
    // as text from the second wasm; the same callbacks from render to render,
    // so that a slider move does not re-render the panels that hold them.
    let explore_pod = use_callback(state.dispatcher(), |message: String, d| {
        if let Some(pod) = lazy::explored(&message) {
            d.dispatch(Action::ExplorePod(pod));
        }
    });
    let load_claim = use_callback(state.dispatcher(), |message: String, d| {
        if let Some(spec) = lazy::scenario_of(&message) {
            d.dispatch(Action::Load(spec));
        }
    });
    // The exports (in the second wasm) read a chart's pixels: a chart whose
    // drawing waits is drawn first.
    let draw_chart = use_callback(core.root.clone(), |message: String, root| {
        let canvas = lazy::drawn_chart(&message)
            .and_then(|kind| {
                root.cast::<Element>()?
                    .query_selector(&format!("#{}", kind.dom_id()))
                    .ok()?
            })
            .and_then(|el| el.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        if let Some(canvas) = canvas {
            charts::draw_now(&canvas);
        }
    });
    // A tab is a page: it pushes a history entry, and Back returns to the other view.
    // Only a page that owns its URL: a mounted explorer leaves the host's alone.
    // The link is written on the click, not on every render.
    let go = |to: View| {
        let view = view.clone();
        let page = sync.then(|| Page {
            view: to,
            ..core.page.clone()
        });
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            if *view != to {
                if let Some(page) = &page {
                    hooks::push_url(&share::encode(page));
                }
                view.set(to);
            }
        })
    };
    hooks::use_view_history(view.clone());
    // Focus moves to the status line beside the notices, not to the page's top.
    let done = use_node_ref();
    // While the first view is untouched, say what it compares.
    let showcase = use_memo((), |_| {
        share::decode_with(FIRST_VISIT_LINK, share::json_pin_elsewhere)
            .0
            .inputs
    });
    // The first render in steps (`hooks::use_first_render_steps`): the
    // hooks, the page's frame, the answer, the controls in two, the charts
    // below it, the rest.
    let step = hooks::use_first_render_steps(FIRST_RENDER_STEPS);
    use_effect_with(step == FIRST_RENDER_STEPS, |&done| {
        if done {
            built();
        }
    });
    if core.page.embed {
        return core.embed_view::<App>(app_url);
    }
    // Its hooks' first run (the app's state and its own) in a step of its own.
    if step == 0 {
        return html! { <main class="app" ref={core.root.clone()} aria-busy="true"></main> };
    }
    // Busy until its last step: assistive technology, and tests, wait.
    let busy = (step < FIRST_RENDER_STEPS).then_some("true");
    // The link is made on the click (it reads the page's location), not on every render.
    let copy = {
        let (copied, query, app_url) = (copied.clone(), core.query.clone(), props.app_url.clone());
        Callback::from(move |_: MouseEvent| {
            let (copied, url) = (copied.clone(), link_to(&query, app_url.as_deref()));
            yew::platform::spawn_local(async move {
                let done = hooks::write_clipboard(&url).await;
                copied.set(if done {
                    "Link copied.".to_owned()
                } else {
                    format!("Copy this link: {url}")
                });
            });
        })
    };
    let banner = core.banner(&done);
    let current = |v: View| (*view == v).then_some("page");
    let first_view = (sync && state.inputs == *showcase).then(|| html! {
        <p class="hint" id="first-visit">{ format!("Shown: {FIRST_VISIT_SHOWS}. Untick the gate, or move any control, to explore.") }</p>
    });
    let error = state
        .error
        .as_ref()
        .filter(|_| state.resolved.is_ok() || state.custom())
        .map(|e| e.to_string());
    let query = &core.query;
    let body = match *view {
        View::CrashLoop => html! {
            <>
                if step >= 2 {
                    <Headline state={state.clone()} />
                }
                <div class="layout">
                    <div class="controls">
                        if step >= 3 {
                            <HeadlineBar state={state.clone()} />
                            <KubeletPanel<App> state={state.clone()} slice={kubelet_slice(&state)} />
                            <CurvePanel<App> state={state.clone()} slice={curve_slice(&state)} />
                            <TimingPanel state={state.clone()} slice={timing_slice(&state)} />
                        }
                        if step >= 4 {
                            <WorkloadPanel<App> state={state.clone()} slice={workload_slice(&state)} />
                            <ApiPanel<App> state={state.clone()} slice={api_slice(&state)} />
                        }
                        if let Some(msg) = error {
                            <p class="error" role="alert" id="scenario-error">{ msg }</p>
                        }
                    </div>
                    <section class="results" aria-label="Results">
                        <section class="panel diagnose" aria-labelledby="h-diagnose">
                            <LazyDetails part={Part::Pod} id="diagnose" link={(*pod_part_link).clone()} dark={dark}
                                summary={html! { <h2 id="h-diagnose">{"Diagnose a real pod"}</h2> }} on_message={explore_pod.clone()} />
                        </section>
                        <section class="panel live" aria-labelledby="h-live">
                            <LazyDetails part={Part::Live} id={LIVE_ID} open={live_open} link={(*live_part_link).clone()} dark={dark}
                                summary={html! { <h2 id="h-live">{"Watch this cluster"}</h2> }} on_message={explore_pod} />
                        </section>
                        if step >= 2 {
                            <ComparePanel state={state.clone()} />
                            <Chart chart={charts::RESTARTS} state={state.clone()} dark={dark} />
                            { gc_note(state.gc_restarts()) }
                        }
                        if let Some(m) = state.inputs.marker_ms {
                            <p class="note" id="marker-note">{ format!("The red dashed line marks the diagnosed pod at {} old (its restarts before it are this model's, from the observed crash interval). ", crate::engine::duration::format_human_ms(m)) }
                                <button type="button" id="clear-marker" onclick={{ let d = state.dispatcher(); Callback::from(move |_: MouseEvent| d.dispatch(Action::ClearMarker)) }}>{"Clear the marker"}</button></p>
                        }
                        if step >= 5 {
                            <LifecyclePanel scenario={state.scenario.clone()} runs={state.runs.first().cloned()} />
                            <Chart chart={charts::DELAYS} state={state.clone()} dark={dark} />
                            <Chart chart={charts::LOAD} state={state.clone()} dark={dark} />
                            <Chart chart={charts::WINDOWS} state={state.clone()} dark={dark} />
                        }
                        if step >= FIRST_RENDER_STEPS {
                            <SummaryTable state={state.clone()} />
                            <CompareTable state={state.clone()} />
                            <section class="panel exports" aria-labelledby="h-exports">
                                <LazyDetails part={Part::Export} id="exports" link={query.clone()} dark={dark}
                                    summary={html! { <h2 id="h-exports">{"Export: CSV, SVG, PNG and the configuration to deploy"}</h2> }} on_message={draw_chart} />
                            </section>
                        }
                        <p class="fineprint">{"Requests: the kubelet model's from its code (a GET and a PATCH per status version, events after client-go's spam filter), the KEP model's as many per restart as set above. Lockstep pods crash together, as KEP-4603 assumes. \"First 5 min\" counts restarts at or before 300 s and requests before it; everything counts before the horizon."}</p>
                    </section>
                </div>
                if step >= FIRST_RENDER_STEPS {
                    <section class="audit" aria-labelledby="h-audit">
                        <LazyDetails part={Part::Audit} id="audit" link="" dark={dark}
                            summary={html! { <h2 id="h-audit">{"KEP claims audit: every number recomputed"}</h2> }} on_message={load_claim} />
                    </section>
                }
                <Announce state={state.clone()} />
            </>
        },
        View::Job | View::Cluster => html! {},
    };
    let part_views: Vec<Html> = seen
        .borrow()
        .iter()
        .filter_map(|&v| {
            core.part_slot(v)
                .map(|slot| html! { <div key={v.name()} hidden={*view != v}>{ slot }</div> })
        })
        .collect();
    html! {
        <main class="app" ref={core.root.clone()} aria-busy={busy}>
            <header>
                if !props.static_header {
                    <h1>{"crashloop-explorer"}</h1>
                    <p class="lede">{ crate::export::LEDE[0] }<code>{ crate::export::LEDE[1] }</code>{ crate::export::LEDE[2] }</p>
                }
                { for first_view }
                <nav class="views" aria-label="Views">
                    <a href="?" id="nav-crashloop" aria-current={current(View::CrashLoop)} onclick={go(View::CrashLoop)}>{"CrashLoopBackOff"}</a>
                    <a href="?view=job" id="nav-job" aria-current={current(View::Job)} onclick={go(View::Job)}
                        onpointerenter={Callback::from(|_: PointerEvent| lazy::prefetch())} onfocus={Callback::from(|_: FocusEvent| lazy::prefetch())}>{"Jobs: backoffLimit and podFailurePolicy"}</a>
                    <a href="?view=cluster" id="nav-cluster" aria-current={current(View::Cluster)} onclick={go(View::Cluster)}
                        onpointerenter={Callback::from(|_: PointerEvent| lazy::prefetch())} onfocus={Callback::from(|_: FocusEvent| lazy::prefetch())}>{"Cluster: the API server, and which setting"}</a>
                    <span class="spacer"></span>
                    <button type="button" id="theme" onclick={core.toggle_theme.clone()} aria-label={format!("{theme_label} (change)")}>{ theme_label }</button>
                    <button type="button" id="copy-link" onclick={copy}>{"Copy link"}</button>
                    <span id="copy-status" class="hint" role="status">{ (*copied).clone() }</span>
                </nav>
                { for banner }
                <p id="notices-done" ref={done} class="visually-hidden" tabindex="-1">{ if core.notices.is_empty() && !link.1.is_empty() { "Notices dismissed." } else { "" } }</p>
            </header>
            { body }
            { for part_views }
        </main>
    }
}

/// What a link's notices say, each under its key (the page's banner, and
/// the Job view's for its own keys).
pub fn notice_list(notices: &[Notice]) -> Html {
    html! {
        <>
            <p>{"Parts of this link were not used:"}</p>
            <ul>{ for notices.iter().map(|n| html! { <li><code>{ n.key.clone() }</code>{": "}{ n.message.clone() }</li> }) }</ul>
        </>
    }
}

/// Says when the kubelet's backoff GC changed the charted pod's restarts.
fn gc_note(n: usize) -> Html {
    if n == 0 {
        return html! {};
    }
    html! {
        <p class="note" id="gc-note">
            { format!("{n} restart{} came early (ringed on the charts): the kubelet's housekeeping dropped the backoff entry 600 s after the last restart, during the wait, and the curve started over. No KEP or document mentions it; the KEP model has no such GC.", if n == 1 { "" } else { "s" }) }
        </p>
    }
}
