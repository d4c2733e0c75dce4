//! What a user sets, one type per view: the single source of truth. The
//! app's state holds these plus what is derived from them; links
//! (`formats::link`) encode and decode them; nothing keeps a second copy.

pub use crate::engine::cluster_view::ClusterInputs;
use crate::engine::config::KubeletConfig;
pub use crate::engine::job::JobInputs;
use crate::engine::ScenarioSpec;

/// What the app's page shows at a bare address (no query, no `#job`): the
/// 1.37 kubelet with ReduceDefaultCrashLoopBackOffDecay turned on (alpha, off
/// by default: KEP-4603's change as a cluster would opt into it), against
/// today's default, so that the first view already shows a
/// difference. Links are untouched: `?v=1.37` alone is still today's default.
pub const FIRST_VISIT_LINK: &str = "v=1.37&gr=1";
/// What that first view compares, in words.
pub const FIRST_VISIT_SHOWS: &str = "kubelet 1.37 with its alpha gate ReduceDefaultCrashLoopBackOffDecay turned on (KEP-4603's faster curve; off unless a cluster sets it) against today's default";

/// Which view the page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    CrashLoop,
    Job,
    Cluster,
}

impl View {
    pub const ALL: [View; 3] = [View::CrashLoop, View::Job, View::Cluster];

    /// The one name: links (`view=`), the element's attribute, `#` addresses.
    pub fn name(self) -> &'static str {
        match self {
            View::CrashLoop => "crashloop",
            View::Job => "job",
            View::Cluster => "cluster",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }
}

/// The page's colours: a link's `theme=`, else the reader's remembered
/// choice, else the system's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// As the system prefers (`prefers-color-scheme`).
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    /// The one name: links, the custom element's attribute, stored choice, DOM.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The toggle's order.
    pub fn next(self) -> Theme {
        match self {
            Theme::Auto => Theme::Dark,
            Theme::Dark => Theme::Light,
            Theme::Light => Theme::Auto,
        }
    }
}

/// A scenario drawn beside the live one: one of the KEP's curves, or a
/// pinned copy of an earlier live scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareRef {
    Preset(&'static str),
    Pinned(Box<ScenarioSpec>),
}

/// The CrashLoopBackOff view's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// The live scenario; `spec.config` is set unless a custom curve is in use.
    pub spec: ScenarioSpec,
    /// The gate and field controls, kept while a custom curve is in use.
    pub config: KubeletConfig,
    pub compared: Vec<CompareRef>,
    /// A moment marked on the time charts: a diagnosed pod's age at "now".
    pub marker_ms: Option<crate::engine::Ms>,
}

impl Default for Inputs {
    /// Today's default: the kubelet's own configuration, nothing compared.
    fn default() -> Self {
        let config = KubeletConfig::default();
        Inputs {
            spec: ScenarioSpec {
                config: Some(config.clone()),
                ..Default::default()
            },
            config,
            compared: vec![],
            marker_ms: None,
        }
    }
}

/// The Job view's inputs as a link writes them (`job=`, `js=`, `jr=`),
/// carried unread: the CrashLoopBackOff view's wasm holds no Job types; the
/// Job view, in the second wasm, reads them (`formats::link::job_inputs`) and
/// writes them back (`formats::link::job_link`). `None`: the default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JobLink {
    pub manifest: Option<String>,
    pub script: Option<String>,
    pub run: Option<String>,
}

/// The cluster view's keys as a link writes them, carried unread, as
/// `JobLink` is: the cluster view, in the second wasm, reads them
/// (`formats::link::cluster_inputs`) and writes them back
/// (`formats::link::cluster_link`). Empty: the default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClusterLink(pub Vec<(&'static str, String)>);

/// Everything a link reopens: the view, both views' inputs, and how the
/// page is embedded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Page {
    pub view: View,
    pub inputs: Inputs,
    pub job: JobLink,
    pub cluster: ClusterLink,
    pub embed: bool,
    /// In embed mode, the controls to show.
    pub controls: Vec<String>,
    /// The link's `theme=`, if it has one (a host page's theme for an embed).
    pub theme: Option<Theme>,
}
