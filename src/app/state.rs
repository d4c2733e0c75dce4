//! The app's state, its actions and the reducer, and nothing else: the live
//! scenario as the controls set it, the kubelet configuration to go back
//! to, and the scenarios compared with it. The engine decides every number;
//! this only edits a `ScenarioSpec`. What the state holds for components is
//! in `results`, the runs it keeps in `cache`, the sliders' stops in `stops`.

use std::rc::Rc;

use yew::Reducible;

use super::cache::RunCache;
pub use super::results::{ComparedResult, Deferred, Figures, Shown};
pub use super::stops::*;

use crate::engine::config::{DEFAULT_INITIAL_MS, DEFAULT_MAX_MS};
use crate::engine::presets::presets;
use crate::engine::restart_rules::ContainerRestartRule;
use crate::engine::rng::{Rng, SplitMix64};
use crate::engine::runs::wants_band;
use crate::engine::scenario::HORIZON_RANGE_MS;
use crate::engine::{
    resolve, ConfigError, EffectiveBackoff, ExitKind, Group, KubeletConfig, KubeletVersion, Ms,
    PodRuns, Requeue, RestartPolicy, RunningSeen, Scenario, ScenarioError, ScenarioSpec, Semantics,
    KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};

/// The live scenario and up to three more.
pub const MAX_COMPARED: usize = 3;

pub use crate::inputs::CompareRef as Compared;
use crate::inputs::Inputs;

pub enum Action {
    Model(Semantics),
    Version(KubeletVersion),
    Gate(&'static str, bool),
    MaxContainerRestartPeriod(String),
    UseConfig,
    Initial(Ms),
    Max(Ms),
    Requeue(Option<Requeue>),
    Seed(u64),
    Reroll,
    Latency(Ms),
    AddGroup,
    RemoveGroup(usize),
    EditGroup(usize, GroupEdit),
    ChartGroup(usize),
    Horizon(Ms),
    RequestsPerRestart(u32),
    Qps(u32),
    Burst(u32),
    EventQps(u32),
    EventBurst(u32),
    RunningSeen(RunningSeen),
    Compare(Compared),
    Uncompare(usize),
    /// The link's compared scenarios, read again once its pins written as
    /// JSON could be read (`lazy::json_pin`).
    CompareAll(Vec<crate::inputs::CompareRef>),
    /// Loads a whole scenario (an audit row's "show me").
    Load(ScenarioSpec),
    /// Loads a diagnosed pod's container into the charts, marked at its age.
    ExplorePod(PodGroup),
    ClearMarker,
    /// Draws the jitter band a move left for later.
    Band,
}

/// What "Explore this pod" carries over: the container's crash interval and
/// restart settings, the pod's age at "now" and the configuration it was
/// diagnosed on (never the pod's text).
#[derive(Debug, Clone, PartialEq)]
pub struct PodGroup {
    pub group: Group,
    pub marker_ms: Option<Ms>,
    pub config: KubeletConfig,
}

pub enum GroupEdit {
    Name(String),
    Pods(u32),
    Run(Ms),
    Exit(ExitKind),
    /// An exact exit code (its kind follows: 0 succeeded, else failed).
    ExitCode(i32),
    Policy(RestartPolicy),
    /// The container's own restartPolicy; `None`: the pod's.
    ContainerPolicy(Option<RestartPolicy>),
    /// The first rule's action; `None` removes the rules.
    RuleAction(Option<String>),
    RuleOperator(String),
    RuleValues(Vec<i32>),
    /// KEP-5307's example: a `Never` pod whose container restarts on exit 42.
    RestartOn42,
    Spread(Ms),
}

/// Edits a group's first container restart rule, creating it when needed.
fn first_rule(g: &mut Group) -> &mut ContainerRestartRule {
    if g.restart_policy_rules.is_empty() {
        g.restart_policy_rules
            .push(ContainerRestartRule::restart_on(&[g.exit_code().max(1)]));
    }
    &mut g.restart_policy_rules[0]
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// What the user set: the one source of truth; the rest is derived.
    pub inputs: Inputs,
    /// The configuration on its own, whichever curve is in use.
    pub resolved: Result<EffectiveBackoff, ConfigError>,
    /// Why the live controls give no scenario; the charts keep the last one.
    pub error: Option<ScenarioError>,
    /// The last valid result, and the scenario it came from.
    pub shown: Shown,
    pub scenario: Rc<Scenario>,
    /// The pod runs behind what is shown (live, today's default, compared):
    /// charts of pods alone redraw only when these change.
    pub runs: Vec<Rc<PodRuns>>,
    pub cache: RunCache,
    pub compared_results: Rc<[ComparedResult]>,
    /// The charted pod's jitter band is still to be drawn: it is most of a
    /// jittered scenario's cost, so a move draws everything else first and
    /// the band once the control rests (`Action::Band`).
    pub band_pending: bool,
}

impl Default for State {
    fn default() -> Self {
        Self::new(Inputs::default())
    }
}

/// How the legend names a compared scenario.
pub fn label_of(c: &Compared) -> String {
    match c {
        Compared::Preset(id) => presets()
            .into_iter()
            .find(|p| p.id == *id)
            .map_or_else(|| (*id).to_owned(), |p| p.label.to_owned()),
        Compared::Pinned(spec) => {
            let curve = match (&spec.config, spec.initial_ms, spec.max_ms) {
                (Some(_), _, _) => "a kubelet configuration".to_owned(),
                (None, i, m) => format!(
                    "{} / {}",
                    crate::engine::duration::format_human_ms(i.unwrap_or(DEFAULT_INITIAL_MS)),
                    crate::engine::duration::format_human_ms(m.unwrap_or(DEFAULT_MAX_MS))
                ),
            };
            let model = if spec.model == Semantics::Kep {
                "KEP"
            } else {
                "kubelet"
            };
            format!("pinned: {curve}, {model}")
        }
    }
}

fn compared_spec(c: &Compared, live: &ScenarioSpec) -> Option<ScenarioSpec> {
    match c {
        Compared::Preset(id) => presets()
            .into_iter()
            .find(|p| p.id == *id)
            .map(|p| p.apply(live)),
        Compared::Pinned(spec) => Some((**spec).clone()),
    }
}

/// The app's state as components hold it (it always reads the newest).
pub type Handle = yew::functional::UseReducerHandle<State>;

impl State {
    pub fn figures(&self) -> Figures {
        Figures {
            shown: self.shown.clone(),
            compared: self.compared_results.clone(),
        }
    }

    /// The state for these inputs (a link's are validated by `share::decode`).
    pub fn new(inputs: Inputs) -> Self {
        Self::derive(inputs, None, RunCache::default(), true)
    }

    fn derive(
        inputs: Inputs,
        last: Option<(Shown, Rc<Scenario>, Vec<Rc<PodRuns>>)>,
        cache: RunCache,
        band: bool,
    ) -> Self {
        let Inputs {
            spec,
            config,
            compared,
            ..
        } = &inputs;
        let resolved = resolve(&KubeletConfig {
            semantics: Some(spec.model),
            kubelet_version: spec.kubelet_version.or(config.kubelet_version),
            ..config.clone()
        });
        let explore_cached = |s: Scenario| {
            let todays_default = s.with_todays_default();
            // Only the live scenario's band is drawn.
            let (live, reference) = (cache.get(&s, band), cache.get(&todays_default, false));
            let s = Rc::new(s);
            let from = (
                s.clone(),
                live.clone(),
                todays_default,
                reference.clone(),
                cache.clone(),
            );
            let shown = Shown::new(from);
            (shown, s, vec![live, reference])
        };
        let (error, (shown, scenario, mut runs)) = match Scenario::try_from(spec.clone()) {
            Ok(s) => (None, explore_cached(s)),
            // The last valid result stays; before there is one, today's default.
            Err(e) => (
                Some(e),
                last.unwrap_or_else(|| explore_cached(Scenario::default())),
            ),
        };
        runs.truncate(2);
        let compared_results = compared
            .iter()
            .map(|c| ComparedResult {
                label: label_of(c),
                result: compared_spec(c, spec)
                    .ok_or_else(|| "unknown preset".to_owned())
                    .and_then(|s| Scenario::try_from(s).map_err(|e| e.to_string()))
                    .map(|s| {
                        let r = cache.get(&s, false);
                        runs.push(r.clone());
                        Deferred::new(s, r, &cache)
                    }),
            })
            .collect::<Vec<_>>()
            .into();
        // The live runs' band is the shown timeline's.
        let band_pending = runs.first().is_some_and(|r| r.band.is_none()) && wants_band(&scenario);
        Self {
            inputs,
            resolved,
            error,
            shown,
            scenario,
            runs,
            cache,
            compared_results,
            band_pending,
        }
    }

    pub fn custom(&self) -> bool {
        self.inputs.spec.config.is_none()
    }

    pub fn version(&self) -> KubeletVersion {
        self.inputs.spec.kubelet_version.unwrap_or_default()
    }

    /// A gate as its checkbox shows it: set, or the default.
    pub fn gate(&self, name: &str) -> bool {
        KubeletConfig {
            semantics: Some(self.inputs.spec.model),
            kubelet_version: Some(self.version()),
            ..self.inputs.config.clone()
        }
        .gate(name)
    }

    /// Whether the modelled kubelet knows the gate at all.
    pub fn gate_exists(&self, name: &str) -> bool {
        self.inputs.spec.model == Semantics::Kep || self.version().gate_default(name).is_some()
    }

    /// How many of the charted pod's restarts the backoff GC brought
    /// forward: the shown timeline's, read from its runs.
    pub fn gc_restarts(&self) -> usize {
        self.runs
            .first()
            .and_then(|r| r.gc_at.get(self.scenario.spec().chart_group))
            .map_or(0, Vec::len)
    }

    /// The curve in use, for starting a what-if from it.
    fn current_curve(&self) -> (Ms, Ms) {
        match (&self.inputs.spec.config, &self.resolved) {
            (Some(_), Ok(b)) => (b.initial_ms, b.max_ms),
            // The shown scenario's curve (its result waits to be read).
            _ => (
                self.scenario.backoff().initial_ms,
                self.scenario.backoff().max_ms,
            ),
        }
    }
}

/// Materializes the groups so that one can be edited.
fn groups_mut(spec: &mut ScenarioSpec) -> &mut Vec<Group> {
    if spec.groups.is_empty() {
        spec.groups = spec.effective_groups();
        spec.pods = None;
        spec.run_ms = None;
    }
    &mut spec.groups
}

fn use_config(spec: &mut ScenarioSpec, config: &KubeletConfig) {
    spec.config = Some(config.clone());
    spec.initial_ms = None;
    spec.max_ms = None;
    spec.reset_after_ms = None;
    spec.schedule_ms.clear();
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if matches!(action, Action::Band) {
            if !self.band_pending {
                return self;
            }
            return Rc::new(State::derive(
                self.inputs.clone(),
                Some((self.shown.clone(), self.scenario.clone(), self.runs.clone())),
                self.cache.clone(),
                true,
            ));
        }
        let (initial, max) = self.current_curve();
        let mut inputs = self.inputs.clone();
        let Inputs {
            spec,
            config,
            compared,
            marker_ms,
        } = &mut inputs;
        match action {
            Action::Model(m) => spec.model = m,
            Action::Version(v) => {
                spec.kubelet_version = Some(v);
                // Overrides of gates this kubelet does not know would only be refused.
                config
                    .feature_gates
                    .retain(|g, _| v.gate_default(g).is_some());
                if spec.config.is_some() {
                    use_config(spec, config);
                }
            }
            Action::Gate(name, on) => {
                config.feature_gates.insert(name.to_owned(), on);
                use_config(spec, config);
            }
            Action::MaxContainerRestartPeriod(text) => {
                let text = text.trim();
                config.crash_loop_back_off.max_container_restart_period =
                    (!text.is_empty()).then(|| text.to_owned());
                use_config(spec, config);
            }
            Action::UseConfig => use_config(spec, config),
            // Moving a curve slider starts a what-if from the curve in use.
            Action::Initial(v) | Action::Max(v) => {
                let is_initial = matches!(action, Action::Initial(_));
                spec.config = None;
                spec.schedule_ms.clear();
                spec.initial_ms = Some(if is_initial { v } else { initial });
                spec.max_ms = Some(if is_initial { max } else { v });
            }
            Action::Requeue(r) => spec.requeue = r,
            Action::Seed(s) => spec.seed = s,
            Action::Reroll => spec.seed = SplitMix64::new(spec.seed).next_u64() % 1_000_000,
            Action::Latency(ms) => spec.start_latency_ms = ms,
            Action::AddGroup => {
                let groups = groups_mut(spec);
                let n = groups.len() + 1;
                groups.push(Group {
                    name: format!("group {n}"),
                    ..Group::crash_looping(10, 30_000, 60_000)
                });
            }
            Action::RemoveGroup(i) => {
                let groups = groups_mut(spec);
                if groups.len() > 1 && i < groups.len() {
                    groups.remove(i);
                }
                spec.chart_group = spec.chart_group.min(spec.groups.len().saturating_sub(1));
            }
            Action::EditGroup(i, edit) => {
                if let Some(g) = groups_mut(spec).get_mut(i) {
                    match edit {
                        GroupEdit::Name(n) => g.name = n,
                        GroupEdit::Pods(p) => g.pods = p,
                        GroupEdit::Run(ms) => g.run_ms = ms,
                        GroupEdit::Exit(e) => {
                            g.exit = e;
                            g.exit_code = None;
                        }
                        GroupEdit::ExitCode(c) => {
                            g.exit = ExitKind::of_code(c);
                            g.exit_code = Some(c);
                        }
                        GroupEdit::Policy(p) => g.restart_policy = p,
                        GroupEdit::ContainerPolicy(p) => g.container_restart_policy = p,
                        GroupEdit::RuleAction(None) => g.restart_policy_rules.clear(),
                        GroupEdit::RuleAction(Some(a)) => first_rule(g).action = a,
                        GroupEdit::RuleOperator(op) => {
                            if let Some(e) = &mut first_rule(g).exit_codes {
                                e.operator = op;
                            }
                        }
                        GroupEdit::RuleValues(v) => {
                            if let Some(e) = &mut first_rule(g).exit_codes {
                                e.values = v;
                            }
                        }
                        GroupEdit::RestartOn42 => {
                            g.exit = ExitKind::Failed;
                            g.exit_code = Some(42);
                            g.restart_policy = RestartPolicy::Never;
                            g.container_restart_policy = Some(RestartPolicy::Never);
                            g.restart_policy_rules = vec![ContainerRestartRule::restart_on(&[42])];
                        }
                        GroupEdit::Spread(ms) => g.spread_ms = ms,
                    }
                }
            }
            Action::ChartGroup(i) => spec.chart_group = i,
            Action::Horizon(ms) => spec.horizon_ms = ms,
            Action::RequestsPerRestart(n) => spec.requests_per_restart = n,
            Action::Qps(n) => spec.kube_api_qps = n,
            Action::Burst(n) => spec.kube_api_burst = n,
            Action::EventQps(n) => spec.event_record_qps = n,
            Action::EventBurst(n) => spec.event_burst = n,
            Action::RunningSeen(r) => spec.running_seen = r,
            Action::Compare(c) => {
                if compared.len() >= MAX_COMPARED {
                    compared.remove(0);
                }
                if !compared.contains(&c) {
                    compared.push(c);
                }
            }
            Action::Uncompare(i) => {
                if i < compared.len() {
                    compared.remove(i);
                }
            }
            Action::CompareAll(all) => *compared = all,
            Action::ExplorePod(p) => {
                // The curve the pod was diagnosed on.
                *config = p.config;
                use_config(spec, config);
                // The node keeps its pod count; the charts follow this container.
                let pods = spec.effective_groups().first().map_or(1, |g| g.pods);
                spec.groups = vec![Group { pods, ..p.group }];
                spec.pods = None;
                spec.run_ms = None;
                spec.chart_group = 0;
                // The horizon grows to show the pod's age (up to a day).
                *marker_ms = p.marker_ms.filter(|m| HORIZON_RANGE_MS.contains(m));
                if let Some(m) = *marker_ms {
                    if m >= spec.horizon_ms {
                        let minutes = (m + m / 5).div_ceil(60_000) * 60_000;
                        spec.horizon_ms =
                            minutes.clamp(*HORIZON_RANGE_MS.start(), *HORIZON_RANGE_MS.end());
                    }
                }
            }
            Action::ClearMarker => *marker_ms = None,
            // Handled above: it changes no input.
            Action::Band => {}
            Action::Load(new) => {
                if let Some(c) = &new.config {
                    *config = c.clone();
                }
                *spec = new;
            }
        }
        Rc::new(State::derive(
            inputs,
            Some((self.shown.clone(), self.scenario.clone(), self.runs.clone())),
            self.cache.clone(),
            false,
        ))
    }
}

/// Gate names the UI offers, in order.
pub const GATES: [&str; 2] = [
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
    KUBELET_CRASH_LOOP_BACK_OFF_MAX,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::runs::pod_runs_unbanded;
    use crate::engine::Timeline;

    // A pods move makes no node: the live one against today's default and
    // each compared curve's wait to be read, and are then the nodes their
    // scenarios make afresh, at the new pod count.
    #[test]
    fn nodes_wait_to_be_read() {
        // A curve of one's own (`i`, `x`), as the browser's worst case has.
        let (page, _) =
            crate::share::decode("i=1s&x=1m0s&g=20.0s.f.A.0s.lockstep&c=rapid,initial-25ms");
        let first = Rc::new(State::new(page.inputs));
        let moved = first
            .clone()
            .reduce(Action::EditGroup(0, GroupEdit::Pods(30)));
        assert!(
            !moved.shown.made() && !first.shown.made(),
            "a live node was made before it was read"
        );
        let fresh = crate::engine::explore(&moved.scenario);
        assert_eq!(moved.shown.timeline.pods, 30);
        assert!(moved.shown.made());
        assert_eq!(moved.gc_restarts(), fresh.timeline.gc_restarts_at_ms.len());
        assert_eq!(*moved.shown.timeline, *fresh.timeline);
        // Only the live scenario's band is drawn.
        let reference = Timeline {
            band: None,
            ..(*fresh.reference).clone()
        };
        assert_eq!(*moved.shown.reference, reference);
        assert_eq!(moved.shown.excess, fresh.excess);
        assert_eq!(moved.compared_results.len(), 2);
        for c in moved.compared_results.iter() {
            let Ok(deferred) = &c.result else {
                panic!("{} is invalid", c.label);
            };
            assert!(!deferred.made(), "{} was made before it was read", c.label);
            let preset = presets()
                .into_iter()
                .find(|p| p.label == c.label)
                .map(|p| p.apply(&moved.inputs.spec));
            let s = Scenario::try_from(preset.unwrap_or_default()).unwrap_or_default();
            let expected = crate::engine::node_timeline(&s, &pod_runs_unbanded(&s));
            assert_eq!(deferred.get(), &expected, "{}", c.label);
            assert_eq!(deferred.get().pods, 30);
            assert!(deferred.made());
        }
    }
}
