//! What the controls hold and how each change becomes a scenario. The engine
//! decides every number; this only maps control values to a `ScenarioSpec`.

use std::rc::Rc;

use yew::Reducible;

use crate::engine::config::CrashLoopBackOffConfig;
use crate::engine::{
    explore, resolve, ConfigError, EffectiveBackoff, Exploration, KubeletConfig, Ms, Scenario,
    ScenarioError, ScenarioSpec, Semantics, KUBELET_CRASH_LOOP_BACK_OFF_MAX,
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};

/// Slider stops: human values instead of a linear range that wastes its
/// length on one end.
pub const INITIAL_STOPS_MS: &[Ms] = &[
    25, 50, 100, 250, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000,
    60_000,
];
pub const MAX_STOPS_MS: &[Ms] = &[
    1_000, 2_000, 3_000, 4_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 90_000,
    120_000, 180_000, 240_000, 300_000, 360_000, 480_000, 600_000,
];
/// Around the 600 s reset: 9 min 59 s keeps the curve, 10 min 1 s resets it.
pub const RUN_STOPS_MS: &[Ms] = &[
    0, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 120_000, 180_000,
    300_000, 599_000, 600_000, 601_000, 900_000,
];
pub const HORIZON_STOPS_MS: &[Ms] = &[
    60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000,
    21_600_000, 43_200_000, 86_400_000,
];

/// The stop nearest to `value` (values between stops come from a config).
pub fn nearest_stop(stops: &[Ms], value: Ms) -> usize {
    stops
        .iter()
        .enumerate()
        .min_by_key(|(_, &s)| s.abs_diff(value))
        .map_or(0, |(i, _)| i)
}

/// Where the curve comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveSource {
    /// Derived from the feature gates and `maxContainerRestartPeriod`.
    Config,
    /// The initial/max sliders, a what-if no kubelet configuration gives.
    Custom,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Controls {
    pub model: Semantics,
    pub reduce_decay: bool,
    pub back_off_max_gate: bool,
    /// Empty means unset.
    pub max_container_restart_period: String,
    pub source: CurveSource,
    pub custom_initial_ms: Ms,
    pub custom_max_ms: Ms,
    pub run_ms: Ms,
    pub pods: u32,
    pub horizon_ms: Ms,
}

impl Default for Controls {
    /// Kubelet 1.35 defaults: KubeletCrashLoopBackOffMax beta and on.
    fn default() -> Self {
        let spec = ScenarioSpec::default();
        Self {
            model: Semantics::Kubelet,
            reduce_decay: false,
            back_off_max_gate: true,
            max_container_restart_period: String::new(),
            source: CurveSource::Config,
            custom_initial_ms: 10_000,
            custom_max_ms: 300_000,
            run_ms: 0,
            pods: crate::engine::scenario::DEFAULT_PODS,
            horizon_ms: spec.horizon_ms,
        }
    }
}

impl Controls {
    pub fn kubelet_config(&self) -> KubeletConfig {
        let period = self.max_container_restart_period.trim();
        KubeletConfig {
            feature_gates: [
                (
                    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY.to_owned(),
                    self.reduce_decay,
                ),
                (
                    KUBELET_CRASH_LOOP_BACK_OFF_MAX.to_owned(),
                    self.back_off_max_gate,
                ),
            ]
            .into(),
            crash_loop_back_off: CrashLoopBackOffConfig {
                max_container_restart_period: (!period.is_empty()).then(|| period.to_owned()),
            },
            semantics: Some(self.model),
            ..Default::default()
        }
    }

    pub fn spec(&self) -> ScenarioSpec {
        let (initial_ms, max_ms, config) = match self.source {
            CurveSource::Config => (None, None, Some(self.kubelet_config())),
            CurveSource::Custom => (Some(self.custom_initial_ms), Some(self.custom_max_ms), None),
        };
        ScenarioSpec {
            initial_ms,
            max_ms,
            reset_after_ms: None,
            config,
            run_ms: Some(self.run_ms),
            horizon_ms: self.horizon_ms,
            pods: Some(self.pods),
            model: self.model,
            ..Default::default()
        }
    }
}

pub enum Action {
    Model(Semantics),
    ReduceDecay(bool),
    BackOffMaxGate(bool),
    MaxContainerRestartPeriod(String),
    UseConfig,
    Initial(Ms),
    Max(Ms),
    Run(Ms),
    Pods(u32),
    Horizon(Ms),
}

/// Shared so that components compare by pointer, not by every restart time.
#[derive(Debug, Clone)]
pub struct Shown(pub Rc<Exploration>);

impl PartialEq for Shown {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub controls: Controls,
    /// The kubelet configuration on its own, whichever curve is in use.
    pub config: Result<EffectiveBackoff, ConfigError>,
    /// Why the current controls give no scenario; the charts keep the last one.
    pub error: Option<ScenarioError>,
    /// The last valid result.
    pub shown: Shown,
}

impl Default for State {
    fn default() -> Self {
        let controls = Controls::default();
        let shown = Shown(Rc::new(explore(&Scenario::default())));
        Self::from_controls(controls, shown)
    }
}

impl State {
    fn from_controls(controls: Controls, last: Shown) -> Self {
        let config = resolve(&controls.kubelet_config());
        let (error, shown) = match Scenario::try_from(controls.spec()) {
            Ok(s) => (None, Shown(Rc::new(explore(&s)))),
            Err(e) => (Some(e), last),
        };
        Self {
            controls,
            config,
            error,
            shown,
        }
    }

    /// The curve in use: the config's while it resolves, else the last shown.
    fn current_curve(&self) -> (Ms, Ms) {
        let b = self.config.as_ref().unwrap_or(&self.shown.0.backoff);
        match self.controls.source {
            CurveSource::Config => (b.initial_ms, b.max_ms),
            CurveSource::Custom => (self.controls.custom_initial_ms, self.controls.custom_max_ms),
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut c = self.controls.clone();
        let (initial, max) = self.current_curve();
        // Touching the configuration goes back to the configured curve.
        if matches!(
            action,
            Action::Model(_)
                | Action::ReduceDecay(_)
                | Action::BackOffMaxGate(_)
                | Action::MaxContainerRestartPeriod(_)
                | Action::UseConfig
        ) {
            c.source = CurveSource::Config;
        }
        match action {
            Action::Model(m) => c.model = m,
            Action::ReduceDecay(on) => c.reduce_decay = on,
            Action::BackOffMaxGate(on) => c.back_off_max_gate = on,
            Action::MaxContainerRestartPeriod(text) => c.max_container_restart_period = text,
            Action::UseConfig => {}
            // Moving a curve slider starts a what-if from the curve in use.
            Action::Initial(v) => {
                c.source = CurveSource::Custom;
                c.custom_initial_ms = v;
                c.custom_max_ms = max;
            }
            Action::Max(v) => {
                c.source = CurveSource::Custom;
                c.custom_initial_ms = initial;
                c.custom_max_ms = v;
            }
            Action::Run(v) => c.run_ms = v,
            Action::Pods(v) => c.pods = v,
            Action::Horizon(v) => c.horizon_ms = v,
        }
        Rc::new(State::from_controls(c, self.shown.clone()))
    }
}
