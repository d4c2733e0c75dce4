//! The second wasm's side of `lazy`: each part is a Yew app of its own in the
//! element the CrashLoopBackOff view gives it, reading the page's link and
//! answering with link text.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::charts::figure_of_link;
use super::cluster::{ClusterState, ClusterView};
use super::diagnose::PodPanel;
use super::exports::ExportPanel;
use super::job::{JobState, JobView};
use super::lazy::{self, Mounted, Part};
use super::live::LivePanel;
use super::panels::AuditTable;
use super::state::PodGroup;
use crate::chart::{Kind, Look};
use crate::inputs::Page;
use crate::share;
use crate::share::Notice;

#[derive(Properties, PartialEq, Clone)]
pub struct PartProps {
    pub part: Part,
    pub link: AttrValue,
    pub dark: bool,
    pub on_message: Callback<String>,
}

#[function_component]
pub fn PartApp(p: &PartProps) -> Html {
    match p.part {
        Part::Job => html! { <JobPart ..p.clone() /> },
        Part::Pod => html! { <PodPart ..p.clone() /> },
        Part::Audit => {
            let on_message = p.on_message.clone();
            let on_load =
                Callback::from(move |spec| on_message.emit(lazy::scenario_message(&spec)));
            html! { <AuditTable on_load={on_load} /> }
        }
        Part::Export => {
            html! { <ExportPanel link={p.link.clone()} on_message={p.on_message.clone()} /> }
        }
        Part::Cluster => html! { <ClusterPart ..p.clone() /> },
        Part::Live => html! { <LivePart ..p.clone() /> },
    }
}

/// A view in the second wasm whose state a link describes (the Job and
/// cluster views): read from the page's link once, when mounted; from then
/// on the state is the truth, and the page's link follows it.
trait LinkedView: Reducible + 'static {
    type Inputs: Clone + 'static;
    /// Where its notices go.
    const NOTICES_ID: &'static str;
    /// Its inputs from a page's link, and what in it was not used.
    fn read(page: Page) -> (Self::Inputs, Vec<Notice>);
    fn start(inputs: Self::Inputs) -> Self;
    /// Its inputs as a page's link keys.
    fn keys(&self) -> Page;
}

impl LinkedView for JobState {
    type Inputs = crate::inputs::JobInputs;
    const NOTICES_ID: &'static str = "job-link-notices";
    fn read(page: Page) -> (Self::Inputs, Vec<Notice>) {
        share::job_inputs(&page.job)
    }
    fn start(inputs: Self::Inputs) -> Self {
        JobState::new(inputs)
    }
    fn keys(&self) -> Page {
        Page {
            job: share::job_link(&self.inputs),
            ..Page::default()
        }
    }
}

impl LinkedView for ClusterState {
    type Inputs = crate::inputs::ClusterInputs;
    const NOTICES_ID: &'static str = "cluster-link-notices";
    fn read(page: Page) -> (Self::Inputs, Vec<Notice>) {
        share::cluster_inputs(&page.cluster)
    }
    fn start(inputs: Self::Inputs) -> Self {
        ClusterState::new(inputs)
    }
    fn keys(&self) -> Page {
        Page {
            cluster: share::cluster_link(&self.inputs),
            ..Page::default()
        }
    }
}

/// A linked view's state, and the link's notices shown above it. Every
/// change, and once at first, its keys go back as the view writes them (a
/// bad one dropped).
#[hook]
fn use_linked<S: LinkedView>(p: &PartProps) -> (UseReducerHandle<S>, Html) {
    let start = {
        let link = p.link.clone();
        use_memo((), move |_| S::read(share::decode(&link).0))
    };
    let state = {
        let start = start.clone();
        use_reducer(move || S::start(start.0.clone()))
    };
    let keys = share::encode(&state.keys());
    {
        let on_message = p.on_message.clone();
        use_effect_with(keys, move |keys| on_message.emit(keys.clone()));
    }
    let notices = html! {
        if !start.1.is_empty() {
            <div class="notices" id={S::NOTICES_ID} role="status">
                { super::notice_list(&start.1) }
            </div>
        }
    };
    (state, notices)
}

#[function_component]
fn ClusterPart(p: &PartProps) -> Html {
    let (state, notices) = use_linked::<ClusterState>(p);
    // The node view's workload as it stands, for a class to take.
    let node_groups = use_memo(p.link.clone(), |link| {
        share::decode(link).0.inputs.spec.effective_groups()
    });
    html! { <>{ notices }<ClusterView state={state} dark={p.dark} node_groups={node_groups} /></> }
}

#[function_component]
fn JobPart(p: &PartProps) -> Html {
    let (state, notices) = use_linked::<JobState>(p);
    html! { <>{ notices }<JobView state={state} dark={p.dark} /></> }
}

/// The pod reader's body, assuming the kubelet the page's link sets.
#[function_component]
fn PodPart(p: &PartProps) -> Html {
    let page = use_memo(p.link.clone(), |link| share::decode(link).0);
    let on_explore = {
        let on_message = p.on_message.clone();
        Callback::from(move |g: PodGroup| on_message.emit(lazy::explore_link(g)))
    };
    html! {
        <PodPanel version={page.inputs.spec.kubelet_version.unwrap_or_default()}
            config={page.inputs.config.clone()} on_explore={on_explore} />
    }
}

/// The cluster watch's body, assuming the kubelet the page's link sets, its
/// load set against the cluster view's API servers.
#[function_component]
fn LivePart(p: &PartProps) -> Html {
    let page = use_memo(p.link.clone(), |link| {
        let page = share::decode(link).0;
        let api = share::cluster_inputs(&page.cluster).0.api_server;
        (page, api)
    });
    let (page, api) = &*page;
    html! {
        <LivePanel version={page.inputs.spec.kubelet_version.unwrap_or_default()}
            config={page.inputs.config.clone()} api={api.clone()} />
    }
}

/// A part mounted from this wasm.
struct Here {
    app: Option<yew::AppHandle<PartApp>>,
    props: PartProps,
}

impl Mounted for Here {
    fn update(&mut self, link: &str, dark: bool) {
        if *self.props.link == *link && self.props.dark == dark {
            return;
        }
        self.props.link = AttrValue::from(link.to_owned());
        self.props.dark = dark;
        if let Some(app) = &mut self.app {
            app.update(self.props.clone());
        }
    }
}

impl Drop for Here {
    fn drop(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
    }
}

/// The JS property by which every copy of Yew marks an element with the
/// id of the app it belongs to (an app's host with its own).
const SUBTREE_ID: &str = "__yew_subtree_id";

/// The id Yew marked `node` with, if any.
fn subtree_id(node: &web_sys::Node) -> Option<u32> {
    let id = js_sys::Reflect::get(node, &SUBTREE_ID.into())
        .ok()?
        .as_f64()?;
    // Ids are counted from 1 in u32.
    (id >= 1.0 && id <= f64::from(u32::MAX) && id.fract() == 0.0).then_some(id as u32)
}

/// The ids of the apps whose elements hold `root`, across shadow roots: a
/// listener of each hears every event in `root`.
fn ids_around(root: &Element) -> Vec<u32> {
    let mut ids = Vec::new();
    let mut node: Option<web_sys::Node> = Some(root.clone().into());
    while let Some(n) = node {
        ids.extend(subtree_id(&n));
        node = n
            .parent_node()
            .map(|p| match p.dyn_ref::<web_sys::ShadowRoot>() {
                Some(shadow) => shadow.host().into(),
                None => p,
            });
    }
    ids
}

/// Mounts and destroys an empty app: the id it took from this module's count.
fn take_an_id() -> Option<u32> {
    let host = web_sys::window()?.document()?.create_element("div").ok()?;
    let app = yew::Renderer::<Nothing>::with_root(host.clone()).render();
    let id = subtree_id(&host);
    app.destroy();
    id
}

#[function_component]
fn Nothing() -> Html {
    html! {}
}

/// Steps this module's count of app ids past those of the apps around
/// `root`. Yew gives each app the next id of its module's own count, from
/// 1, and an app takes a DOM event whose target's marked element carries
/// its id: a part whose id an app around it has (the page's is 1, as is
/// this module's first) would run that app's handlers on its clicks.
fn clear_of_ids_around(root: &Element) {
    let around = ids_around(root);
    while let Some(taken) = take_an_id() {
        if !around.contains(&taken.saturating_add(1)) {
            break;
        }
    }
}

/// Mounts a part into `root`.
pub fn mount(
    part: Part,
    root: Element,
    link: &str,
    dark: bool,
    on_message: Callback<String>,
) -> Box<dyn Mounted> {
    let props = PartProps {
        part,
        link: AttrValue::from(link.to_owned()),
        dark,
        on_message,
    };
    clear_of_ids_around(&root);
    let app = yew::Renderer::<PartApp>::with_root_and_props(root, props.clone()).render();
    Box::new(Here {
        app: Some(app),
        props,
    })
}

/// A chart of the state a link describes, as SVG (the exports' "SVG"):
/// measured on a canvas where there is one, else by plotters' own way.
pub fn svg(kind: Kind, link: &str) -> String {
    let look = Look::default();
    match super::canvas::CanvasText::offscreen() {
        Some(text) => figure_of_link(link, kind, look, &text).0,
        None => figure_of_link(link, kind, look, &crate::chart::FontText).0,
    }
}

/// For a wasm that links everything (the browser tests): the app mounts its
/// parts and draws its figures from here instead of fetching the second module.
pub fn link_here() {
    lazy::from_here(lazy::Here { mount, pin_keys });
}

/// An older link's pin written as JSON, read as the JS API reads a scenario,
/// as its link keys: the first wasm reads no JSON scenarios itself.
pub fn pin_keys(json: &str) -> Result<String, String> {
    share::json_pin(json).map(|spec| share::scenario_keys(&spec))
}
