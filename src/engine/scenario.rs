//! A scenario: one node's backoff curve, how long the container runs, how many
//! pods, and for how long. Parsed once into a validated `Scenario`, so the
//! simulation never sees an out-of-range value from a slider, URL or JS caller.

use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::{
    resolve, ConfigError, EffectiveBackoff, KubeletConfig, Semantics, DEFAULT_INITIAL_MS,
    DEFAULT_MAX_MS, FLAT_RESET_MS,
};
use super::duration::format_human_ms;

pub const INITIAL_RANGE_MS: RangeInclusive<Ms> = 25..=60_000;
pub const MAX_RANGE_MS: RangeInclusive<Ms> = 1_000..=600_000;
pub const RUN_RANGE_MS: RangeInclusive<Ms> = 0..=900_000;
pub const PODS_RANGE: RangeInclusive<u32> = 1..=250;
pub const HORIZON_RANGE_MS: RangeInclusive<Ms> = 60_000..=86_400_000;
pub const RESET_RANGE_MS: RangeInclusive<Ms> = 1_000..=86_400_000;
pub const DEFAULT_PODS: u32 = 110;
pub const DEFAULT_HORIZON_MS: Ms = 1_800_000;

/// The scenario as JSON carries it: a custom curve (`initialMs`/`maxMs`) or a
/// `config` to resolve, never both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ms: Option<Ms>,
    /// Custom curves only; a config's reset comes from its `resetRule`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset_after_ms: Option<Ms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<KubeletConfig>,
    /// The crash interval: how long the container runs before it exits.
    #[serde(default)]
    pub run_ms: Ms,
    #[serde(default = "default_horizon")]
    pub horizon_ms: Ms,
    #[serde(default = "default_pods")]
    pub pods: u32,
    #[serde(default)]
    pub model: Semantics,
}

fn default_horizon() -> Ms {
    DEFAULT_HORIZON_MS
}

fn default_pods() -> u32 {
    DEFAULT_PODS
}

impl Default for ScenarioSpec {
    fn default() -> Self {
        Self {
            initial_ms: None,
            max_ms: None,
            reset_after_ms: None,
            config: None,
            run_ms: 0,
            horizon_ms: DEFAULT_HORIZON_MS,
            pods: DEFAULT_PODS,
            model: Semantics::default(),
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
    /// Both a custom curve and a config.
    Conflict(String),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Config(e) => e.fmt(f),
            ScenarioError::OutOfRange { message, .. } => f.write_str(message),
            ScenarioError::Conflict(m) => f.write_str(m),
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

impl TryFrom<ScenarioSpec> for Scenario {
    type Error = ScenarioError;

    fn try_from(spec: ScenarioSpec) -> Result<Self, ScenarioError> {
        check("runMs", spec.run_ms, &RUN_RANGE_MS, show_ms)?;
        check("horizonMs", spec.horizon_ms, &HORIZON_RANGE_MS, show_ms)?;
        check("pods", spec.pods, &PODS_RANGE, |p| p.to_string())?;
        let custom =
            spec.initial_ms.is_some() || spec.max_ms.is_some() || spec.reset_after_ms.is_some();
        let backoff = match &spec.config {
            Some(_) if custom => return Err(ScenarioError::Conflict(
                "give either a custom curve (initialMs, maxMs, resetAfterMs) or a config, not both"
                    .into(),
            )),
            Some(config) => {
                let mut config = config.clone();
                config.semantics = Some(config.semantics.unwrap_or(spec.model));
                resolve(&config).map_err(ScenarioError::Config)?
            }
            None if !custom => EffectiveBackoff::todays_default(),
            None => {
                let initial = spec.initial_ms.unwrap_or(DEFAULT_INITIAL_MS);
                let max = spec.max_ms.unwrap_or(DEFAULT_MAX_MS);
                let reset = spec.reset_after_ms.unwrap_or(FLAT_RESET_MS);
                check("initialMs", initial, &INITIAL_RANGE_MS, show_ms)?;
                check("maxMs", max, &MAX_RANGE_MS, show_ms)?;
                check("resetAfterMs", reset, &RESET_RANGE_MS, show_ms)?;
                let mut notes = vec!["custom what-if curve".to_owned()];
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
                EffectiveBackoff {
                    initial_ms: initial,
                    max_ms: max,
                    reset_after_ms: reset,
                    notes,
                    warnings: vec![],
                }
            }
        };
        Ok(Scenario { spec, backoff })
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
        Scenario {
            spec: ScenarioSpec::default(),
            backoff: EffectiveBackoff::todays_default(),
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
    pub fn run_ms(&self) -> Ms {
        self.spec.run_ms
    }
    pub fn horizon_ms(&self) -> Ms {
        self.spec.horizon_ms
    }
    pub fn pods(&self) -> u32 {
        self.spec.pods
    }
    pub fn model(&self) -> Semantics {
        self.spec.model
    }

    /// The same node, pods and crash interval under today's default curve.
    pub fn with_todays_default(&self) -> Scenario {
        Scenario {
            spec: ScenarioSpec {
                initial_ms: Some(DEFAULT_INITIAL_MS),
                max_ms: Some(DEFAULT_MAX_MS),
                reset_after_ms: Some(FLAT_RESET_MS),
                config: None,
                ..self.spec.clone()
            },
            backoff: EffectiveBackoff::todays_default(),
        }
    }
}
