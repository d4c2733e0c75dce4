//! The parts of the app fetched the first time they are needed. The Job
//! view, the pod reader, the claims audit and the exports live in a
//! second wasm (`crashloop-explorer-extras`, `src/bin/extras.rs`), so that
//! the CrashLoopBackOff view's download holds none of them (nor the Job
//! types, the YAML reader and the Kubernetes objects it reads, the audit's
//! recomputations, plotters' SVG backend, the CSV and configuration
//! writers). The two modules share no memory, only strings: a part is given
//! the page's link (a query string) and answers with link text (a claim's
//! scenario as its link keys, a chart to draw).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::Element;
use yew::prelude::*;

use super::state::PodGroup;
use crate::chart::Kind;
use crate::engine::{KubeletConfig, KubeletVersion, ScenarioSpec};
use crate::inputs::{ClusterLink, Inputs, JobLink, Page};
use crate::share;

/// A part of the app in the second wasm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The Job view. Reads the link's Job keys once, when mounted; answers
    /// with its own (`job=…&js=…&jr=…`, defaults left out) on every change.
    Job,
    /// The pod reader (its panel's body). Reads the kubelet the link sets;
    /// answers `g=…&mk=…` when a container is to be explored in the charts.
    Pod,
    /// The KEP claims audit (its panel's body). Reads nothing; answers with
    /// a claim's scenario when its "show me" is pressed (`scenario_message`).
    Audit,
    /// The exports (their panel's body): CSV, SVG and PNG downloads and the
    /// configuration to deploy. Reads the whole link; answers `draw_message`
    /// before it reads a chart's pixels, so that the page first draws a
    /// chart whose drawing waits.
    Export,
    /// The cluster view. Reads the link's cluster keys once, when mounted;
    /// answers with its own (`cn=…&cmax=…`, defaults left out) on every change.
    Cluster,
    /// The cluster watch (its panel's body). Reads the kubelet the link
    /// sets, as the pod reader does; answers nothing.
    Live,
}

impl Part {
    pub const ALL: [Part; 6] = [
        Part::Job,
        Part::Pod,
        Part::Audit,
        Part::Export,
        Part::Cluster,
        Part::Live,
    ];

    /// The one name, across the boundary.
    pub fn name(self) -> &'static str {
        match self {
            Part::Job => "job",
            Part::Pod => "pod",
            Part::Audit => "audit",
            Part::Export => "export",
            Part::Cluster => "cluster",
            Part::Live => "live",
        }
    }

    pub fn parse(s: &str) -> Option<Part> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }

    fn what(self) -> &'static str {
        match self {
            Part::Job => "the Job view",
            Part::Pod => "the pod reader",
            Part::Audit => "the claims audit",
            Part::Export => "the exports",
            Part::Cluster => "the cluster view",
            Part::Live => "the cluster watch",
        }
    }
}

/// What the Job view reads of the page: its own keys. A part is given only
/// what it reads, so a move in the other view does not reach it.
pub fn job_part_link(job: &JobLink) -> String {
    share::encode(&Page {
        job: job.clone(),
        ..Page::default()
    })
}

/// What the cluster view reads of the page: its own keys, and the node
/// view's workload (`g=`), which a node class may take.
pub fn cluster_part_link(cluster: &ClusterLink, node_groups: &[crate::engine::Group]) -> String {
    share::encode(&Page {
        cluster: cluster.clone(),
        inputs: Inputs {
            spec: ScenarioSpec {
                groups: node_groups.to_vec(),
                ..Inputs::default().spec
            },
            ..Inputs::default()
        },
        ..Page::default()
    })
}

/// What the pod reader reads of the page: the kubelet, its version and the
/// gate and field controls.
pub fn pod_part_link(version: Option<KubeletVersion>, config: &KubeletConfig) -> String {
    live_part_link(version, config, &ClusterLink::default())
}

/// The cluster watch's link: the pod reader's, and the cluster view's keys
/// (its API servers, which the load now is set against).
pub fn live_part_link(
    version: Option<KubeletVersion>,
    config: &KubeletConfig,
    cluster: &ClusterLink,
) -> String {
    share::encode(&Page {
        cluster: cluster.clone(),
        inputs: Inputs {
            spec: ScenarioSpec {
                kubelet_version: version,
                config: Some(config.clone()),
                ..Inputs::default().spec
            },
            config: config.clone(),
            ..Inputs::default()
        },
        ..Page::default()
    })
}

/// The pod reader's answer: the container to explore, as a link of its
/// group (`g=`), its age at "now" (`mk=`) and the configuration it was
/// diagnosed on.
pub fn explore_link(g: PodGroup) -> String {
    share::encode(&Page {
        inputs: Inputs {
            spec: ScenarioSpec {
                groups: vec![g.group],
                config: Some(g.config.clone()),
                ..Inputs::default().spec
            },
            config: g.config,
            marker_ms: g.marker_ms,
            ..Inputs::default()
        },
        ..Page::default()
    })
}

/// ... and back; `None` when it holds no group.
pub fn explored(link: &str) -> Option<PodGroup> {
    let inputs = share::decode_with(link, share::json_pin_elsewhere).0.inputs;
    let group = inputs.spec.groups.into_iter().next()?;
    Some(PodGroup {
        group,
        marker_ms: inputs.marker_ms,
        config: inputs.config,
    })
}

/// The exports' answer before a PNG: draw this chart now if it waits.
pub fn draw_message(kind: Kind) -> String {
    format!("{DRAW}{}", kind.name())
}

/// ... and back.
pub fn drawn_chart(message: &str) -> Option<Kind> {
    message.strip_prefix(DRAW).and_then(Kind::parse)
}

const DRAW: &str = "draw ";

/// The audit's answer: a claim's scenario as its link keys, as a pin
/// holds one (`fg=` carries the gate one claim misspells, to show the
/// kubelet's refusal). Link keys rather than JSON: the first wasm then needs
/// no JSON reader for scenarios.
pub fn scenario_message(spec: &ScenarioSpec) -> String {
    share::scenario_keys(spec)
}

/// ... and back.
pub fn scenario_of(message: &str) -> Option<ScenarioSpec> {
    share::scenario_of_keys(message).ok()
}

/// What a pin written as JSON says while the second module, which reads
/// JSON, is fetched (`use_core` reads the link again once it has come).
pub const PIN_WAITS: &str = "a pin written as JSON, as older links wrote pins, read once the app's second module has loaded";

/// ... and if it cannot be fetched.
pub const PIN_UNREAD: &str = "a pin written as JSON, as older links wrote pins, which the app's second module reads, and it could not be loaded; reload the page to try again";

/// How the full app reads an older link's pin written as JSON: the second
/// wasm reads it (the first carries no JSON reader for scenarios) and
/// answers with its link keys. Before that module has come, the pin waits.
pub fn json_pin(v: &str) -> Result<ScenarioSpec, String> {
    let keys = if let Some(here) = HERE.with(Cell::get) {
        (here.pin_keys)(v)?
    } else {
        match come() {
            Some(m) => m.pin_keys(v).map_err(|e| describe(&e))?,
            None => return Err(PIN_WAITS.into()),
        }
    };
    share::scenario_of_keys(&keys)
}

/// Fetches the second module for a link's JSON pins; whether it came.
pub async fn fetch_for_pins() -> bool {
    HERE.with(Cell::get).is_some() || fetched().await.is_ok()
}

/// A mounted part: `update` gives it the page's link and theme again;
/// dropping it unmounts it.
pub trait Mounted {
    fn update(&mut self, link: &str, dark: bool);
}

/// Mounts a part into an element, from this wasm.
pub type MountHere = fn(Part, Element, &str, bool, Callback<String>) -> Box<dyn Mounted>;

/// What a wasm that links everything does in place of the second module.
#[derive(Clone, Copy)]
pub struct Here {
    pub mount: MountHere,
    /// A pin written as JSON, as its link keys (`pin_keys`).
    pub pin_keys: fn(&str) -> Result<String, String>,
}

thread_local! {
    static HERE: Cell<Option<Here>> = const { Cell::new(None) };
    /// The second module, once fetched and started.
    static FETCHED: RefCell<Option<Extras>> = const { RefCell::new(None) };
}

/// Parts are mounted, and figures drawn, from this wasm instead of the
/// second module: for a wasm that links everything (the browser tests; see
/// `extras::link_here`).
pub fn from_here(here: Here) {
    HERE.with(|h| h.set(Some(here)));
}

// The second module sits beside the first (Trunk writes both into dist/);
// wasm-bindgen puts this snippet two folders below them. Fetched and
// started once; a failed fetch may be tried again.
#[wasm_bindgen(inline_js = "let extras;
export function load_extras() {
  extras = extras || import(new URL('../../crashloop-explorer-extras.js', import.meta.url).href)
    .then(async (m) => { await m.default(); return m; })
    .catch((e) => { extras = undefined; throw e; });
  return extras;
}
export function with_extras(done) {
  load_extras().then((m) => done(true, m), (e) => done(false, e));
}")]
extern "C" {
    fn load_extras() -> js_sys::Promise;
    /// `load_extras`, calling back `done(true, module)` or `done(false, error)`.
    fn with_extras(done: &JsValue);

    #[derive(Clone)]
    type Extras;
    #[wasm_bindgen(method, catch)]
    fn mount_part(
        this: &Extras,
        part: &str,
        root: &Element,
        link: &str,
        dark: bool,
        on_message: &js_sys::Function,
    ) -> Result<PartHandle, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn audit(this: &Extras) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn pin_keys(this: &Extras, json: &str) -> Result<String, JsValue>;

    type PartHandle;
    #[wasm_bindgen(method)]
    fn update(this: &PartHandle, link: &str, dark: bool);
    #[wasm_bindgen(method)]
    fn unmount(this: &PartHandle);
}

/// The second module, fetched and started once.
async fn fetched() -> Result<Extras, JsValue> {
    if let Some(m) = come() {
        return Ok(m);
    }
    Ok(keep(
        wasm_bindgen_futures::JsFuture::from(load_extras()).await?,
    ))
}

/// The second module, if it has come.
fn come() -> Option<Extras> {
    FETCHED.with(|f| f.borrow().clone())
}

/// The second module as the loader gave it, kept for every later part.
fn keep(module: JsValue) -> Extras {
    let m: Extras = module.unchecked_into();
    FETCHED.with(|f| *f.borrow_mut() = Some(m.clone()));
    m
}

/// Starts fetching the second module: a hint that it is about to be needed
/// (a pointer over the Job tab or a panel's summary).
pub fn prefetch() {
    if HERE.with(Cell::get).is_none() {
        yew::platform::spawn_local(async {
            let _ = fetched().await;
        });
    }
}

/// The JS API's `audit()`: the claims, from the second module.
pub async fn audit_from_extras() -> Result<JsValue, JsValue> {
    fetched().await?.audit()
}

/// A part in the second module, and the closure it calls back.
struct Fetched {
    handle: PartHandle,
    _on_message: Closure<dyn FnMut(String)>,
}

impl Mounted for Fetched {
    fn update(&mut self, link: &str, dark: bool) {
        self.handle.update(link, dark);
    }
}

impl Drop for Fetched {
    fn drop(&mut self) {
        self.handle.unmount();
    }
}

/// Mounts `part` from the second module, fetched first if it has not come
/// yet, and calls `done` with it or with what failed. Callbacks rather than
/// a future: the element's wasm, whose one fetch of the module this is,
/// then carries no future of its own.
fn fetch_and_mount(
    part: Part,
    root: Element,
    link: String,
    dark: bool,
    on_message: Callback<String>,
    done: impl FnOnce(Result<Box<dyn Mounted>, String>) + 'static,
) {
    let mount = move |module: Extras| -> Result<Box<dyn Mounted>, String> {
        let on_message = Closure::<dyn FnMut(String)>::new(move |m: String| on_message.emit(m));
        let handle = module
            .mount_part(
                part.name(),
                &root,
                &link,
                dark,
                on_message.as_ref().unchecked_ref(),
            )
            .map_err(|e| describe(&e))?;
        Ok(Box::new(Fetched {
            handle,
            _on_message: on_message,
        }))
    };
    if let Some(m) = come() {
        return done(mount(m));
    }
    let came = Closure::once_into_js(move |ok: bool, value: JsValue| {
        done(if ok {
            mount(keep(value))
        } else {
            Err(describe(&value))
        })
    });
    with_extras(&came);
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

#[derive(Properties, PartialEq)]
pub struct SlotProps {
    pub part: Part,
    /// The page's link (a query string).
    pub link: AttrValue,
    pub dark: bool,
    pub on_message: Callback<String>,
}

/// Where a part appears: it is fetched when the slot is first rendered,
/// says so while it loads, and says what failed if it cannot be loaded.
#[function_component]
pub fn Slot(p: &SlotProps) -> Html {
    let root = use_node_ref();
    let mounted: Rc<RefCell<Option<Box<dyn Mounted>>>> = use_mut_ref(|| None);
    // None while loading; Some(Err) when the module could not be had.
    let loaded = use_state(|| None::<Result<(), String>>);
    // What a part fetched late is given once it is there.
    let latest = use_mut_ref(|| (String::new(), false));
    *latest.borrow_mut() = (p.link.to_string(), p.dark);
    {
        let (root, mounted, loaded, latest) = (
            root.clone(),
            mounted.clone(),
            loaded.clone(),
            latest.clone(),
        );
        let (part, link, dark, on_message) =
            (p.part, p.link.to_string(), p.dark, p.on_message.clone());
        use_effect_with((), move |_| {
            let alive = Rc::new(Cell::new(true));
            if let Some(el) = root.cast::<Element>() {
                if let Some(here) = HERE.with(Cell::get) {
                    *mounted.borrow_mut() = Some((here.mount)(part, el, &link, dark, on_message));
                    loaded.set(Some(Ok(())));
                } else {
                    let (slot, alive) = (mounted.clone(), alive.clone());
                    fetch_and_mount(part, el, link, dark, on_message, move |m| {
                        let mut m = match m {
                            Ok(m) => m,
                            Err(e) => return loaded.set(Some(Err(e))),
                        };
                        // A slot removed meanwhile: the part goes with it (dropped here).
                        if alive.get() {
                            let (link, dark) = latest.borrow().clone();
                            m.update(&link, dark);
                            *slot.borrow_mut() = Some(m);
                            loaded.set(Some(Ok(())));
                        }
                    });
                }
            }
            move || {
                alive.set(false);
                drop(mounted.borrow_mut().take());
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with((p.link.clone(), p.dark), move |(link, dark)| {
            if let Some(m) = mounted.borrow_mut().as_mut() {
                m.update(link, *dark);
            }
        });
    }
    let what = p.part.what();
    html! {
        <div class="part" data-part={p.part.name()}>
            if loaded.is_none() {
                <p class="hint part-loading" role="status">{ format!("Loading {what}…") }</p>
            }
            if let Some(Err(e)) = &*loaded {
                <p class="error" role="alert">{ format!("{} could not be loaded ({e}). Reload the page to try again.", capitalized(what)) }</p>
            }
            // The part's own app renders in here; this app gives it no children.
            <div ref={root}></div>
        </div>
    }
}

/// ASCII only: the parts' names are.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect())
        .unwrap_or_default()
}

#[derive(Properties, PartialEq)]
pub struct LazyDetailsProps {
    pub part: Part,
    /// Open (and its part fetched) from the start.
    #[prop_or_default]
    pub open: bool,
    pub id: AttrValue,
    pub summary: Html,
    pub link: AttrValue,
    pub dark: bool,
    pub on_message: Callback<String>,
}

/// A closed panel whose body is a part: fetched when it is first opened.
#[function_component]
pub fn LazyDetails(p: &LazyDetailsProps) -> Html {
    let opened = use_state(|| p.open);
    let ontoggle = {
        let opened = opened.clone();
        Callback::from(move |e: Event| {
            let open = e
                .target_dyn_into::<web_sys::HtmlDetailsElement>()
                .is_some_and(|d| d.open());
            if open && !*opened {
                opened.set(true);
            }
        })
    };
    html! {
        <details id={p.id.clone()} open={p.open} {ontoggle}>
            // Pointing at (or tabbing to) the summary starts the fetch.
            <summary onpointerenter={Callback::from(|_: PointerEvent| prefetch())}
                onfocus={Callback::from(|_: FocusEvent| prefetch())}>{ p.summary.clone() }</summary>
            if *opened {
                <Slot part={p.part} link={p.link.clone()} dark={p.dark} on_message={p.on_message.clone()} />
            }
        </details>
    }
}
