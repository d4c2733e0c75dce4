//! From a KubeletConfiguration (feature gates + `crashLoopBackOff`) to the
//! backoff curve a node uses, as the KEPs describe it or as kubelet 1.35 does it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::duration::{format_go_duration_ms, format_go_float, parse_go_duration, NANOS_PER_MS};

pub const REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY: &str = "ReduceDefaultCrashLoopBackOffDecay";
pub const KUBELET_CRASH_LOOP_BACK_OFF_MAX: &str = "KubeletCrashLoopBackOffMax";

/// Today's default curve (`MaxContainerBackOff` and the 10 s initial).
pub const DEFAULT_INITIAL_MS: Ms = 10_000;
pub const DEFAULT_MAX_MS: Ms = 300_000;
/// With ReduceDefaultCrashLoopBackOffDecay.
pub const REDUCED_INITIAL_MS: Ms = 1_000;
pub const REDUCED_MAX_MS: Ms = 60_000;
/// Validation bounds of `maxContainerRestartPeriod`.
pub const MIN_MAX_CONTAINER_RESTART_PERIOD_MS: Ms = 1_000;
pub const MAX_MAX_CONTAINER_RESTART_PERIOD_MS: Ms = 300_000;
/// The flat reset threshold since kubelet 1.32 (and in KEP-4603).
pub const FLAT_RESET_MS: Ms = 600_000;

/// Whose rules: the KEP text, or the shipped kubelet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    /// As KEP-4603/5593 describe it.
    Kep,
    /// As kubelet 1.35 does it.
    #[default]
    Kubelet,
}

/// How the backoff counter resets after a long run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ResetRule {
    /// A run longer than 600 s resets the curve (kubelet 1.32+, KEP-4603).
    #[default]
    Flat10m,
    /// client-go's default, 2 × max (kubelets before 1.32).
    TwiceMax,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrashLoopBackOffConfig {
    /// A Go duration such as "4s"; unset means the kubelet's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_container_restart_period: Option<String>,
}

/// The parts of a `KubeletConfiguration` that decide the restart curve.
/// Other KubeletConfiguration fields are accepted and ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KubeletConfig {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_gates: BTreeMap<String, bool>,
    #[serde(default)]
    pub crash_loop_back_off: CrashLoopBackOffConfig,
    /// Unset: the scenario's model, or `kubelet` on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantics: Option<Semantics>,
    #[serde(default)]
    pub reset_rule: ResetRule,
}

/// What a node's configuration resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectiveBackoff {
    pub initial_ms: Ms,
    pub max_ms: Ms,
    pub reset_after_ms: Ms,
    /// How the values were reached, one line a step.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the kubelet would log as a warning, or settings with no effect.
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl EffectiveBackoff {
    /// Today's default: 10 s doubling to 300 s, reset after 600 s.
    pub fn todays_default() -> Self {
        Self {
            initial_ms: DEFAULT_INITIAL_MS,
            max_ms: DEFAULT_MAX_MS,
            reset_after_ms: FLAT_RESET_MS,
            notes: vec!["today's default curve: initial 10s, max 5m0s".to_owned()],
            warnings: vec![],
        }
    }
}

/// Why a kubelet would not start with this configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigError {
    /// Each message as the kubelet prints it.
    pub messages: Vec<String>,
}

impl fmt::Display for ConfigError {
    /// As Kubernetes' aggregate error prints: one message alone, several in brackets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.messages.as_slice() {
            [one] => write!(f, "failed to validate kubelet configuration, error: {one}"),
            many => write!(
                f,
                "failed to validate kubelet configuration, error: [{}]",
                many.join(", ")
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl KubeletConfig {
    pub fn semantics(&self) -> Semantics {
        self.semantics.unwrap_or_default()
    }

    /// A gate's value, or its default in the chosen semantics: in kubelet 1.35
    /// KubeletCrashLoopBackOffMax is beta and on; in the KEPs both are alpha, off.
    pub fn gate(&self, name: &str) -> bool {
        self.feature_gates.get(name).copied().unwrap_or(
            self.semantics() == Semantics::Kubelet && name == KUBELET_CRASH_LOOP_BACK_OFF_MAX,
        )
    }
}

/// The curve a node with this configuration uses, or the kubelet's refusal.
pub fn resolve(config: &KubeletConfig) -> Result<EffectiveBackoff, ConfigError> {
    let semantics = config.semantics();
    let reduce = config.gate(REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY);
    let max_gate = config.gate(KUBELET_CRASH_LOOP_BACK_OFF_MAX);
    let mut notes = vec![];
    let mut warnings: Vec<String> = config
        .feature_gates
        .keys()
        .filter(|g| {
            g.as_str() != REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY
                && g.as_str() != KUBELET_CRASH_LOOP_BACK_OFF_MAX
        })
        .map(|g| {
            format!("feature gate {g} does not change the restart curve; the explorer ignores it")
        })
        .collect();
    let mut errors = vec![];

    let period_ms = match config
        .crash_loop_back_off
        .max_container_restart_period
        .as_deref()
    {
        None => None,
        Some(text) => match parse_go_duration(text) {
            Err(e) => {
                errors.push(e.0);
                None
            }
            Ok(ns) => {
                if !max_gate {
                    match semantics {
                        Semantics::Kubelet => errors.push(format!(
                            "invalid configuration: FeatureGate {KUBELET_CRASH_LOOP_BACK_OFF_MAX} not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"
                        )),
                        Semantics::Kep => warnings.push(format!(
                            "{KUBELET_CRASH_LOOP_BACK_OFF_MAX} is off: the kubelet logs a warning and does not honor crashLoopBackOff.maxContainerRestartPeriod (KEP-4603, KEP-5593)"
                        )),
                    }
                }
                let min_ns = MIN_MAX_CONTAINER_RESTART_PERIOD_MS as i64 * NANOS_PER_MS;
                let max_ns = MAX_MAX_CONTAINER_RESTART_PERIOD_MS as i64 * NANOS_PER_MS;
                if !(min_ns..=max_ns).contains(&ns) {
                    errors.push(format!(
                        "invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: {} seconds) must be set between 1s and 300s",
                        format_go_float(ns as f64 / 1e9)
                    ));
                    None
                } else {
                    // The kubelet keeps nanoseconds; the explorer's clock is milliseconds.
                    if ns % NANOS_PER_MS != 0 {
                        warnings.push(format!(
                            "maxContainerRestartPeriod {text} is rounded down to whole milliseconds"
                        ));
                    }
                    Some((ns / NANOS_PER_MS) as Ms)
                }
            }
        },
    };
    if !errors.is_empty() {
        return Err(ConfigError { messages: errors });
    }

    let (mut initial, mut max) = if reduce {
        notes.push(format!(
            "{REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY} on: initial 1s, max 1m0s"
        ));
        (REDUCED_INITIAL_MS, REDUCED_MAX_MS)
    } else {
        notes.push("default curve: initial 10s, max 5m0s".to_owned());
        (DEFAULT_INITIAL_MS, DEFAULT_MAX_MS)
    };
    if max_gate {
        match (period_ms, semantics) {
            (Some(p), _) => {
                max = p;
                notes.push(format!(
                    "maxContainerRestartPeriod {} sets the max",
                    format_go_duration_ms(p)
                ));
            }
            // The shipped kubelet reads an unset field as its 300 s default,
            // even over ReduceDefaultCrashLoopBackOffDecay's 60 s.
            (None, Semantics::Kubelet) => {
                if max != DEFAULT_MAX_MS {
                    notes.push(format!(
                        "{KUBELET_CRASH_LOOP_BACK_OFF_MAX} on with maxContainerRestartPeriod unset: the kubelet uses its 5m0s default, not 1m0s"
                    ));
                }
                max = DEFAULT_MAX_MS;
            }
            (None, Semantics::Kep) => {}
        }
    }
    if max < initial {
        notes.push(format!(
            "max {} is below initial {}: initial lowered to the max",
            format_go_duration_ms(max),
            format_go_duration_ms(initial)
        ));
        initial = max;
    }
    let reset_after_ms = match config.reset_rule {
        ResetRule::Flat10m => FLAT_RESET_MS,
        ResetRule::TwiceMax => {
            notes.push(format!(
                "reset after 2 × max = {} (kubelets before 1.32)",
                format_go_duration_ms(max * 2)
            ));
            max * 2
        }
    };
    Ok(EffectiveBackoff {
        initial_ms: initial,
        max_ms: max,
        reset_after_ms,
        notes,
        warnings,
    })
}
