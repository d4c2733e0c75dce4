//! A scenario: one node's backoff curve, the workloads on it, the kubelet's
//! timing and API client limits, and the horizon. Parsed once into a validated
//! `Scenario`, so the simulation never sees an out-of-range value from a
//! slider, URL or JS caller.

use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::{
    resolve, ConfigError, EffectiveBackoff, KubeletConfig, KubeletVersion, Semantics,
    DEFAULT_INITIAL_MS, DEFAULT_MAX_MS, FLAT_RESET_MS,
};
use super::duration::format_human_ms;
use super::field::FieldError;
use super::requests::{RunningSeen, DEFAULT_EVENT_BURST, DEFAULT_EVENT_RECORD_QPS};
use super::restart_rules::{ContainerRestart, ContainerRestartRule, Verdict};

pub const INITIAL_RANGE_MS: RangeInclusive<Ms> = 25..=60_000;
pub const MAX_RANGE_MS: RangeInclusive<Ms> = 1_000..=600_000;
pub const RUN_RANGE_MS: RangeInclusive<Ms> = 0..=900_000;
pub const PODS_RANGE: RangeInclusive<u32> = 1..=250;
pub const HORIZON_RANGE_MS: RangeInclusive<Ms> = 60_000..=86_400_000;
pub const RESET_RANGE_MS: RangeInclusive<Ms> = 1_000..=86_400_000;
pub const SCHEDULE_WAIT_RANGE_MS: RangeInclusive<Ms> = 25..=3_600_000;
pub const MAX_SCHEDULE_LEN: usize = 32;
/// Spreading starts over longer than this would make node load cost grow
/// with the spread; ten minutes covers a full crash cycle at today's cap.
pub const SPREAD_RANGE_MS: RangeInclusive<Ms> = 0..=600_000;
pub const MAX_GROUPS: usize = 8;
pub const MAX_GROUP_NAME: usize = 40;
pub const LATENCY_RANGE_MS: RangeInclusive<Ms> = 0..=600_000;
pub const BAND_SEEDS_RANGE: RangeInclusive<u32> = 0..=32;
pub const REQUESTS_PER_RESTART_RANGE: RangeInclusive<u32> = 0..=100;
pub const QPS_RANGE: RangeInclusive<u32> = 1..=10_000;
pub const BURST_RANGE: RangeInclusive<u32> = 1..=10_000;
/// `eventRecordQPS` and `eventBurst`: 0 is valid (client-go's default).
pub const EVENT_LIMIT_RANGE: RangeInclusive<u32> = 0..=10_000;
/// What a container can exit with.
pub const EXIT_CODE_RANGE: RangeInclusive<i32> = 0..=255;

pub const DEFAULT_PODS: u32 = 110;
pub const DEFAULT_HORIZON_MS: Ms = 1_800_000;
pub const DEFAULT_REQUESTS_PER_RESTART: u32 = 5;
/// `kubeAPIQPS` / `kubeAPIBurst` defaults since 1.27 (5 and 10 before).
pub const DEFAULT_KUBE_API_QPS: u32 = 50;
pub const DEFAULT_KUBE_API_BURST: u32 = 100;
pub const DEFAULT_BAND_SEEDS: u32 = 8;

/// How a container ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExitKind {
    /// Exit code 0: phase Succeeded if it stays down.
    Succeeded,
    #[default]
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RestartPolicy {
    #[default]
    Always,
    OnFailure,
    Never,
}

impl RestartPolicy {
    pub const ALL: [RestartPolicy; 3] = [
        RestartPolicy::Always,
        RestartPolicy::OnFailure,
        RestartPolicy::Never,
    ];
    pub const NAMES: [&'static str; 3] = ["Always", "OnFailure", "Never"];

    /// The API's spelling, also used in links and the DOM.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == s)
    }

    /// Whether the kubelet restarts a container that exited this way.
    pub fn restarts(self, exit: ExitKind) -> bool {
        match self {
            RestartPolicy::Always => true,
            RestartPolicy::OnFailure => exit == ExitKind::Failed,
            RestartPolicy::Never => false,
        }
    }

    /// The same for an exit code (0 succeeded, anything else failed).
    pub fn restarts_code(self, exit_code: i32) -> bool {
        self.restarts(ExitKind::of_code(exit_code))
    }
}

impl ExitKind {
    pub const ALL: [ExitKind; 2] = [ExitKind::Succeeded, ExitKind::Failed];

    /// The one name: JSON, the DOM, and (its first letter) links.
    pub fn name(self) -> &'static str {
        match self {
            ExitKind::Succeeded => "succeeded",
            ExitKind::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    pub fn of_code(exit_code: i32) -> Self {
        if exit_code == 0 {
            ExitKind::Succeeded
        } else {
            ExitKind::Failed
        }
    }
}

impl Requeue {
    pub const ALL: [Requeue; 3] = [Requeue::Ideal, Requeue::Periodic, Requeue::AtExpiry];

    /// The one name: JSON, links and the DOM.
    pub fn name(self) -> &'static str {
        match self {
            Requeue::Ideal => "ideal",
            Requeue::Periodic => "periodic",
            Requeue::AtExpiry => "atExpiry",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// How a restart lands once the backoff allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Requeue {
    /// Exactly at the expiry: the KEPs' curves.
    Ideal,
    /// Kubelets before 1.35: the pod worker rechecks every 10-15 s
    /// (`wait.Jitter(10s, 0.5)`), adding up to ~15 s to each wait.
    Periodic,
    /// 1.35+ (k/k#133066): requeue at the expiry, clamped to [0, 1 min],
    /// jittered 1.0-1.5× (`wait.Jitter(d, 0.5)`).
    AtExpiry,
}

/// Pods of one kind on the node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Group {
    #[serde(default)]
    pub name: String,
    pub pods: u32,
    /// How long the container runs before it exits.
    #[serde(default)]
    pub run_ms: Ms,
    #[serde(default)]
    pub exit: ExitKind,
    /// The exact exit code (0 to 255); unset: 1 when failed, 0 when succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The pod's `restartPolicy`.
    #[serde(default)]
    pub restart_policy: RestartPolicy,
    /// The container's own `restartPolicy` (KEP-5307); unset: the pod's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_restart_policy: Option<RestartPolicy>,
    /// The container's `restartPolicyRules`, as the API spells them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_policy_rules: Vec<ContainerRestartRule>,
    /// 0: the pods start (and crash) in lockstep; otherwise their starts are
    /// spread evenly over this long.
    #[serde(default)]
    pub spread_ms: Ms,
}

impl Default for Group {
    /// One unnamed pod whose container fails at once and restarts.
    fn default() -> Self {
        Group::crash_looping(1, 0, 0)
    }
}

impl Group {
    /// Unnamed pods whose container fails and restarts (`restartPolicy: Always`).
    pub fn crash_looping(pods: u32, run_ms: Ms, spread_ms: Ms) -> Self {
        Group {
            name: String::new(),
            pods,
            run_ms,
            exit: ExitKind::Failed,
            exit_code: None,
            restart_policy: RestartPolicy::Always,
            container_restart_policy: None,
            restart_policy_rules: vec![],
            spread_ms,
        }
    }

    /// The code the container exits with.
    pub fn exit_code(&self) -> i32 {
        self.exit_code.unwrap_or(match self.exit {
            ExitKind::Succeeded => 0,
            ExitKind::Failed => 1,
        })
    }

    /// The container's restart settings as the given version's API server
    /// accepts them, with its warnings, or the errors in the API's words.
    pub fn container_restart(
        &self,
        index: usize,
        version: KubeletVersion,
    ) -> Result<(ContainerRestart, Vec<String>), Vec<FieldError>> {
        let mut errs = vec![];
        let path = format!("groups[{index}].container");
        let (restart, warnings) = ContainerRestart::validate(
            &path,
            self.container_restart_policy.map(RestartPolicy::name),
            &self.restart_policy_rules,
            version,
            &mut errs,
        );
        for (i, r) in self.restart_policy_rules.iter().enumerate() {
            let values = r.exit_codes.iter().flat_map(|e| &e.values);
            if let Some(v) = values.into_iter().find(|v| !EXIT_CODE_RANGE.contains(*v)) {
                errs.push(FieldError::invalid(
                    format!("{path}.restartPolicyRules[{i}].exitCodes.values"),
                    v,
                    "a container exits with 0 to 255",
                ));
            }
        }
        if errs.is_empty() {
            Ok((restart, warnings))
        } else {
            Err(errs)
        }
    }
}

/// The scenario as JSON carries it. The curve is custom (`initialMs`,
/// `maxMs`, …) or a `config` to resolve, never both; the node is `pods` and
/// `runMs` (one lockstep group) or `groups`, never both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ms: Option<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_after_ms: Option<Ms>,
    /// Custom curves only: explicit waits, then `maxMs` for every later one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_ms: Vec<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<KubeletConfig>,
    /// The crash interval of the single group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_ms: Option<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pods: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    #[serde(default = "default_horizon")]
    pub horizon_ms: Ms,
    #[serde(default)]
    pub model: Semantics,
    /// Unset: the config's, or the newest release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubelet_version: Option<KubeletVersion>,
    /// Unset: `ideal` for the KEP model, the version's for the kubelet model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requeue: Option<Requeue>,
    /// Seeds the requeue jitter; the same seed gives the same chart.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// How many seeds the min-max band runs (0: no band).
    #[serde(default = "default_band_seeds")]
    pub band_seeds: u32,
    /// Added to each restart: image pull, sandbox creation, container start.
    #[serde(default)]
    pub start_latency_ms: Ms,
    #[serde(default = "default_requests_per_restart")]
    pub requests_per_restart: u32,
    #[serde(default = "default_qps")]
    pub kube_api_qps: u32,
    #[serde(default = "default_burst")]
    pub kube_api_burst: u32,
    /// The kubelet's event client (`eventRecordQPS`; 0: client-go's default).
    #[serde(default = "default_event_qps", rename = "eventRecordQPS")]
    pub event_record_qps: u32,
    #[serde(default = "default_event_burst")]
    pub event_burst: u32,
    /// Whether the status shows each restarted container `Running`.
    #[serde(default)]
    pub running_seen: RunningSeen,
    /// Which group's pod the restart and delay charts follow.
    #[serde(default)]
    pub chart_group: usize,
}

fn default_horizon() -> Ms {
    DEFAULT_HORIZON_MS
}
fn default_seed() -> u64 {
    1
}
fn default_band_seeds() -> u32 {
    DEFAULT_BAND_SEEDS
}
fn default_requests_per_restart() -> u32 {
    DEFAULT_REQUESTS_PER_RESTART
}
fn default_qps() -> u32 {
    DEFAULT_KUBE_API_QPS
}
fn default_burst() -> u32 {
    DEFAULT_KUBE_API_BURST
}
fn default_event_qps() -> u32 {
    DEFAULT_EVENT_RECORD_QPS
}
fn default_event_burst() -> u32 {
    DEFAULT_EVENT_BURST
}

impl Default for ScenarioSpec {
    fn default() -> Self {
        Self {
            initial_ms: None,
            max_ms: None,
            reset_after_ms: None,
            schedule_ms: vec![],
            config: None,
            run_ms: None,
            pods: None,
            groups: vec![],
            horizon_ms: DEFAULT_HORIZON_MS,
            model: Semantics::default(),
            kubelet_version: None,
            requeue: None,
            seed: default_seed(),
            band_seeds: DEFAULT_BAND_SEEDS,
            start_latency_ms: 0,
            requests_per_restart: DEFAULT_REQUESTS_PER_RESTART,
            kube_api_qps: DEFAULT_KUBE_API_QPS,
            kube_api_burst: DEFAULT_KUBE_API_BURST,
            event_record_qps: DEFAULT_EVENT_RECORD_QPS,
            event_burst: DEFAULT_EVENT_BURST,
            running_seen: RunningSeen::Auto,
            chart_group: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScenarioError {
    /// The kubelet would refuse this configuration.
    Config(ConfigError),
    /// A value outside what the explorer models.
    OutOfRange {
        field: &'static str,
        message: String,
    },
    /// Two ways of saying the same thing.
    Conflict(String),
    /// The API server would refuse a group's container (restart rules).
    Invalid(Vec<FieldError>),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Config(e) => e.fmt(f),
            ScenarioError::OutOfRange { message, .. } => f.write_str(message),
            ScenarioError::Conflict(m) => f.write_str(m),
            ScenarioError::Invalid(errs) => f.write_str(
                &errs
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A scenario whose every value is in range, with its curve resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ScenarioSpec", into = "ScenarioSpec")]
pub struct Scenario {
    spec: ScenarioSpec,
    backoff: EffectiveBackoff,
    groups: Vec<Group>,
    /// What the kubelet does after each group's container exits.
    verdicts: Vec<Verdict>,
    /// What the API server did without refusing (fields dropped with a gate off).
    warnings: Vec<String>,
    version: KubeletVersion,
    requeue: Requeue,
}

fn check<T: PartialOrd + Copy>(
    field: &'static str,
    value: T,
    range: &RangeInclusive<T>,
    show: impl Fn(T) -> String,
) -> Result<(), ScenarioError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(ScenarioError::OutOfRange {
            field,
            message: format!(
                "{field} must be between {} and {} (got {})",
                show(*range.start()),
                show(*range.end()),
                show(value)
            ),
        })
    }
}

fn show_ms(ms: Ms) -> String {
    format_human_ms(ms)
}

fn show_n<T: fmt::Display>(n: T) -> String {
    n.to_string()
}

fn custom_curve(spec: &ScenarioSpec) -> Result<EffectiveBackoff, ScenarioError> {
    let initial = spec.initial_ms.unwrap_or(DEFAULT_INITIAL_MS);
    let max = spec.max_ms.unwrap_or(DEFAULT_MAX_MS);
    check("initialMs", initial, &INITIAL_RANGE_MS, show_ms)?;
    check("maxMs", max, &MAX_RANGE_MS, show_ms)?;
    if spec.schedule_ms.len() > MAX_SCHEDULE_LEN {
        return Err(ScenarioError::OutOfRange {
            field: "scheduleMs",
            message: format!("scheduleMs takes at most {MAX_SCHEDULE_LEN} waits"),
        });
    }
    for &w in &spec.schedule_ms {
        check("scheduleMs", w, &SCHEDULE_WAIT_RANGE_MS, show_ms)?;
    }
    let mut notes = vec![if spec.schedule_ms.is_empty() {
        "custom what-if curve".to_owned()
    } else {
        format!(
            "custom schedule: {} waits, then {} each",
            spec.schedule_ms.len(),
            format_human_ms(max)
        )
    }];
    // As the kubelet does when a configured max is below the initial.
    let initial = if max < initial {
        notes.push(format!(
            "max {} is below initial {}: initial lowered to the max, as the kubelet does",
            format_human_ms(max),
            format_human_ms(initial)
        ));
        max
    } else {
        initial
    };
    let reset = spec.reset_after_ms.unwrap_or(FLAT_RESET_MS);
    check("resetAfterMs", reset, &RESET_RANGE_MS, show_ms)?;
    Ok(EffectiveBackoff {
        initial_ms: initial,
        max_ms: max,
        reset_after_ms: reset,
        schedule_ms: spec.schedule_ms.clone(),
        notes,
        warnings: vec![],
    })
}

impl ScenarioSpec {
    /// The node's groups: `groups`, or the one lockstep group `pods`/`runMs` describe.
    pub fn effective_groups(&self) -> Vec<Group> {
        if self.groups.is_empty() {
            vec![Group::crash_looping(
                self.pods.unwrap_or(DEFAULT_PODS),
                self.run_ms.unwrap_or(0),
                0,
            )]
        } else {
            self.groups.clone()
        }
    }
}

fn groups_of(spec: &ScenarioSpec) -> Result<Vec<Group>, ScenarioError> {
    if !spec.groups.is_empty() && (spec.pods.is_some() || spec.run_ms.is_some()) {
        return Err(ScenarioError::Conflict(
            "give either pods and runMs (one group) or groups, not both".into(),
        ));
    }
    let groups = spec.effective_groups();
    if groups.len() > MAX_GROUPS {
        return Err(ScenarioError::OutOfRange {
            field: "groups",
            message: format!("at most {MAX_GROUPS} groups (got {})", groups.len()),
        });
    }
    for g in &groups {
        check("pods", g.pods, &PODS_RANGE, show_n)?;
        check("runMs", g.run_ms, &RUN_RANGE_MS, show_ms)?;
        check("spreadMs", g.spread_ms, &SPREAD_RANGE_MS, show_ms)?;
        if g.name.chars().count() > MAX_GROUP_NAME {
            return Err(ScenarioError::OutOfRange {
                field: "name",
                message: format!("a group name takes at most {MAX_GROUP_NAME} characters"),
            });
        }
        if let Some(code) = g.exit_code {
            check("exitCode", code, &EXIT_CODE_RANGE, |c| c.to_string())?;
            if ExitKind::of_code(code) != g.exit {
                return Err(ScenarioError::Conflict(format!(
                    "exit code {code} and exit {} disagree: exit code 0 is succeeded, any other failed",
                    g.exit.name()
                )));
            }
        }
    }
    let total: u32 = groups.iter().map(|g| g.pods).sum();
    check("pods", total, &PODS_RANGE, |n| format!("{n} on the node"))?;
    Ok(groups)
}

impl TryFrom<ScenarioSpec> for Scenario {
    type Error = ScenarioError;

    fn try_from(spec: ScenarioSpec) -> Result<Self, ScenarioError> {
        check("horizonMs", spec.horizon_ms, &HORIZON_RANGE_MS, show_ms)?;
        check(
            "startLatencyMs",
            spec.start_latency_ms,
            &LATENCY_RANGE_MS,
            show_ms,
        )?;
        check("bandSeeds", spec.band_seeds, &BAND_SEEDS_RANGE, show_n)?;
        check(
            "requestsPerRestart",
            spec.requests_per_restart,
            &REQUESTS_PER_RESTART_RANGE,
            show_n,
        )?;
        check("kubeAPIQPS", spec.kube_api_qps, &QPS_RANGE, show_n)?;
        check("kubeAPIBurst", spec.kube_api_burst, &BURST_RANGE, show_n)?;
        check(
            "eventRecordQPS",
            spec.event_record_qps,
            &EVENT_LIMIT_RANGE,
            show_n,
        )?;
        check("eventBurst", spec.event_burst, &EVENT_LIMIT_RANGE, show_n)?;
        let groups = groups_of(&spec)?;
        if spec.chart_group >= groups.len() {
            return Err(ScenarioError::OutOfRange {
                field: "chartGroup",
                message: format!(
                    "chartGroup {} names no group (there are {})",
                    spec.chart_group,
                    groups.len()
                ),
            });
        }
        let custom = spec.initial_ms.is_some()
            || spec.max_ms.is_some()
            || spec.reset_after_ms.is_some()
            || !spec.schedule_ms.is_empty();
        let config_version = spec.config.as_ref().and_then(|c| c.kubelet_version);
        let version = match (spec.kubelet_version, config_version) {
            (Some(a), Some(b)) if a != b => {
                return Err(ScenarioError::Conflict(format!(
                    "kubeletVersion {} and config.kubeletVersion {} differ",
                    a.name(),
                    b.name()
                )))
            }
            (a, b) => a.or(b).unwrap_or_default(),
        };
        let backoff = match &spec.config {
            Some(_) if custom => {
                return Err(ScenarioError::Conflict(
                    "give either a custom curve (initialMs, maxMs, resetAfterMs, scheduleMs) or a config, not both".into(),
                ))
            }
            Some(config) => {
                let mut config = config.clone();
                config.semantics = Some(config.semantics.unwrap_or(spec.model));
                config.kubelet_version = Some(version);
                resolve(&config).map_err(ScenarioError::Config)?
            }
            None if !custom => EffectiveBackoff::todays_default(),
            None => custom_curve(&spec)?,
        };
        let requeue = spec.requeue.unwrap_or(match spec.model {
            Semantics::Kep => Requeue::Ideal,
            Semantics::Kubelet if version.requeues_at_expiry() => Requeue::AtExpiry,
            Semantics::Kubelet => Requeue::Periodic,
        });
        let mut verdicts = vec![];
        let mut warnings = vec![];
        let mut errors = vec![];
        for (i, g) in groups.iter().enumerate() {
            match g.container_restart(i, version) {
                Ok((restart, w)) => {
                    verdicts.push(restart.after_exit(g.restart_policy, g.exit_code()));
                    warnings.extend(w);
                }
                Err(e) => errors.extend(e),
            }
        }
        if !errors.is_empty() {
            return Err(ScenarioError::Invalid(errors));
        }
        Ok(Scenario {
            spec,
            backoff,
            groups,
            verdicts,
            warnings,
            version,
            requeue,
        })
    }
}

impl From<Scenario> for ScenarioSpec {
    fn from(s: Scenario) -> Self {
        s.spec
    }
}

impl Default for Scenario {
    /// Today's default curve on a full node of instantly crashing pods, over 30 minutes.
    fn default() -> Self {
        // Built directly: the defaults are valid, and no panic path is left.
        let spec = ScenarioSpec::default();
        Scenario {
            groups: spec.effective_groups(),
            verdicts: vec![Verdict::RestartByPolicy],
            warnings: vec![],
            backoff: EffectiveBackoff::todays_default(),
            version: KubeletVersion::default(),
            requeue: Requeue::AtExpiry,
            spec,
        }
    }
}

impl Scenario {
    pub fn spec(&self) -> &ScenarioSpec {
        &self.spec
    }
    pub fn backoff(&self) -> &EffectiveBackoff {
        &self.backoff
    }
    /// What the kubelet does after group `i`'s container exits.
    pub fn verdict(&self, i: usize) -> Verdict {
        self.verdicts.get(i).copied().unwrap_or(Verdict::Stays)
    }

    /// Whether group `i`'s container restarts at all.
    pub fn restarts(&self, i: usize) -> bool {
        self.verdict(i).restarts()
    }

    /// Fields the API server would drop (a gate off in this version).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }
    pub fn horizon_ms(&self) -> Ms {
        self.spec.horizon_ms
    }
    pub fn pods(&self) -> u32 {
        self.groups.iter().map(|g| g.pods).sum()
    }
    pub fn model(&self) -> Semantics {
        self.spec.model
    }
    pub fn kubelet_version(&self) -> KubeletVersion {
        self.version
    }
    pub fn requeue(&self) -> Requeue {
        self.requeue
    }

    /// Whether group `i`'s restarted container shows `Running` in the status.
    pub fn running_seen(&self, i: usize) -> bool {
        let run = self.groups.get(i).map_or(0, |g| g.run_ms);
        self.spec.running_seen.seen(run, self.version)
    }

    /// The same node, workloads and timing under today's default curve.
    pub fn with_todays_default(&self) -> Scenario {
        Scenario {
            spec: ScenarioSpec {
                initial_ms: Some(DEFAULT_INITIAL_MS),
                max_ms: Some(DEFAULT_MAX_MS),
                reset_after_ms: Some(FLAT_RESET_MS),
                schedule_ms: vec![],
                config: None,
                ..self.spec.clone()
            },
            backoff: EffectiveBackoff::todays_default(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod names {
    use super::*;

    /// The name tables are the JSON names.
    #[test]
    fn names_are_the_json_names() {
        let json = |v: &dyn erased::Named| v.json();
        for r in Requeue::ALL {
            assert_eq!(json(&r), format!("{:?}", r.name()));
            assert_eq!(Requeue::parse(r.name()), Some(r));
        }
        for k in ExitKind::ALL {
            assert_eq!(json(&k), format!("{:?}", k.name()));
        }
        for p in RestartPolicy::ALL {
            assert_eq!(json(&p), format!("{:?}", p.name()));
        }
    }

    mod erased {
        pub trait Named {
            fn json(&self) -> String;
        }
        impl<T: serde::Serialize> Named for T {
            fn json(&self) -> String {
                serde_json::to_string(self).unwrap_or_default()
            }
        }
    }
}
