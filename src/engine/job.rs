//! The Job controller: a Job spec as the API takes it, validated as the API
//! server does, and run against a failure script: which pods start when, which
//! `podFailurePolicy` rule matches each failure, and how the Job ends.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::rng::{Rng, SplitMix64};

/// `DefaultJobPodFailureBackOff` and `MaxJobPodFailureBackOff`.
pub const JOB_BACKOFF_INITIAL_MS: Ms = 10_000;
pub const JOB_BACKOFF_MAX_MS: Ms = 600_000;
/// The kubelet's CrashLoopBackOff for `restartPolicy: OnFailure` restarts.
const KUBELET_INITIAL_MS: Ms = 10_000;
const KUBELET_MAX_MS: Ms = 300_000;
pub const MAX_RULES: usize = 20;
pub const MAX_EXIT_CODE_VALUES: usize = 255;
/// The explorer's own bounds: a Gantt chart of more would not be read.
pub const MAX_COMPLETIONS: i32 = 8;
pub const MAX_PODS: usize = 400;
pub const DEFAULT_POD_RUN_MS: Ms = 30_000;
pub const DEFAULT_HORIZON_MS: Ms = 86_400_000;
/// Containers killed for a disruption exit with SIGKILL's code.
pub const DISRUPTION_EXIT_CODE: i32 = 137;
pub const DISRUPTION_TARGET: &str = "DisruptionTarget";

// ---- The Job API, as a manifest spells it ----

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobManifest {
    #[serde(default = "api_version")]
    pub api_version: String,
    #[serde(default = "kind")]
    pub kind: String,
    #[serde(default)]
    pub metadata: Metadata,
    #[serde(default)]
    pub spec: JobSpec,
}

fn api_version() -> String {
    "batch/v1".into()
}
fn kind() -> String {
    "Job".into()
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Metadata {
    #[serde(default)]
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit_per_index: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failed_indexes: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_failure_policy: Option<PodFailurePolicy>,
    #[serde(default)]
    pub template: PodTemplate,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PodFailurePolicy {
    #[serde(default)]
    pub rules: Vec<PodFailurePolicyRule>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyRule {
    #[serde(default)]
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_exit_codes: Option<OnExitCodes>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_pod_conditions: Vec<OnPodCondition>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnExitCodes {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
    #[serde(default)]
    pub operator: String,
    #[serde(default)]
    pub values: Vec<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OnPodCondition {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default = "condition_true")]
    pub status: String,
}

fn condition_true() -> String {
    "True".into()
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PodTemplate {
    #[serde(default)]
    pub spec: PodSpec,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    #[serde(default)]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Container {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
}

// ---- Validation, worded as the API server words it ----

/// One `field.Error`: the field path and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

fn invalid(field: String, value: impl fmt::Display, detail: &str) -> FieldError {
    FieldError {
        field,
        message: format!("Invalid value: {value}: {detail}"),
    }
}

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn go_int32_slice(v: &[i32]) -> String {
    format!(
        "[]int32{{{}}}",
        v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
    )
}

const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];

/// `ValidateQualifiedName`'s name part.
fn is_qualified_name(s: &str) -> bool {
    let name = s.rsplit_once('/').map_or(s, |(_, n)| n);
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    !name.is_empty()
        && name.len() <= 63
        && name.chars().all(ok)
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleAction {
    FailJob,
    FailIndex,
    Ignore,
    Count,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Matcher {
    ExitCodes {
        container: Option<String>,
        not_in: bool,
        values: BTreeSet<i32>,
    },
    Conditions(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    action: RuleAction,
    matcher: Matcher,
}

/// A Job spec the API server would accept, with defaults applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidJob {
    pub name: String,
    pub completions: u32,
    pub parallelism: u32,
    pub indexed: bool,
    pub backoff_limit: u32,
    pub backoff_limit_per_index: Option<u32>,
    pub max_failed_indexes: Option<u32>,
    pub on_failure: bool,
    pub containers: Vec<String>,
    rules: Vec<Rule>,
}

fn validate_rule(
    spec: &JobSpec,
    rule: &PodFailurePolicyRule,
    path: &str,
    containers: &[String],
    errs: &mut Vec<FieldError>,
) -> Option<Rule> {
    let action = match rule.action.as_str() {
        "" => {
            errs.push(FieldError {
                field: format!("{path}.action"),
                message: format!(
                    "Required value: valid values: [{}]",
                    ACTIONS.map(quoted).join(" ")
                ),
            });
            None
        }
        "FailJob" => Some(RuleAction::FailJob),
        "Ignore" => Some(RuleAction::Ignore),
        "Count" => Some(RuleAction::Count),
        "FailIndex" => {
            if spec.backoff_limit_per_index.is_none() {
                errs.push(invalid(
                    format!("{path}.action"),
                    quoted("FailIndex"),
                    "requires the backoffLimitPerIndex to be set",
                ));
            }
            Some(RuleAction::FailIndex)
        }
        other => {
            errs.push(FieldError {
                field: format!("{path}.action"),
                message: format!(
                    "Unsupported value: {}: supported values: {}",
                    quoted(other),
                    ACTIONS.map(quoted).join(", ")
                ),
            });
            None
        }
    };
    let before = errs.len();
    let mut matcher = None;
    if let Some(on) = &rule.on_exit_codes {
        let p = format!("{path}.onExitCodes");
        let not_in = match on.operator.as_str() {
            "In" => Some(false),
            "NotIn" => Some(true),
            "" => {
                errs.push(FieldError {
                    field: format!("{p}.operator"),
                    message: "Required value: valid values: [\"In\" \"NotIn\"]".into(),
                });
                None
            }
            other => {
                errs.push(FieldError {
                    field: format!("{p}.operator"),
                    message: format!(
                        "Unsupported value: {}: supported values: \"In\", \"NotIn\"",
                        quoted(other)
                    ),
                });
                None
            }
        };
        if let Some(name) = &on.container_name {
            if !containers.contains(name) {
                errs.push(invalid(
                    format!("{p}.containerName"),
                    quoted(name),
                    "must be one of the container or initContainer names in the pod template",
                ));
            }
        }
        let vp = format!("{p}.values");
        if on.values.is_empty() {
            errs.push(invalid(
                vp,
                "[]int32(nil)",
                "at least one value is required",
            ));
        } else if on.values.len() > MAX_EXIT_CODE_VALUES {
            errs.push(FieldError {
                field: vp,
                message: format!(
                    "Too many: {}: must have at most {MAX_EXIT_CODE_VALUES} items",
                    on.values.len()
                ),
            });
        } else {
            let mut seen = BTreeSet::new();
            for (j, &v) in on.values.iter().enumerate() {
                if not_in == Some(false) && v == 0 {
                    errs.push(invalid(
                        format!("{vp}[{j}]"),
                        v,
                        "must not be 0 for the In operator",
                    ));
                }
                if !seen.insert(v) {
                    errs.push(FieldError {
                        field: format!("{vp}[{j}]"),
                        message: format!("Duplicate value: {v}"),
                    });
                }
            }
            if on.values.windows(2).any(|w| w[0] > w[1]) {
                errs.push(invalid(vp, go_int32_slice(&on.values), "must be ordered"));
            }
        }
        if let Some(not_in) = not_in {
            matcher = Some(Matcher::ExitCodes {
                container: on.container_name.clone(),
                not_in,
                values: on.values.iter().copied().collect(),
            });
        }
    }
    if !rule.on_pod_conditions.is_empty() {
        for (j, pattern) in rule.on_pod_conditions.iter().enumerate() {
            let pp = format!("{path}.onPodConditions[{j}]");
            if !is_qualified_name(&pattern.type_) {
                errs.push(invalid(
                    format!("{pp}.type"),
                    quoted(&pattern.type_),
                    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                ));
            }
            match pattern.status.as_str() {
                "True" | "False" | "Unknown" => {}
                "" => errs.push(FieldError {
                    field: format!("{pp}.status"),
                    message: "Required value: valid values: [\"False\" \"True\" \"Unknown\"]"
                        .into(),
                }),
                other => errs.push(FieldError {
                    field: format!("{pp}.status"),
                    message: format!(
                        "Unsupported value: {}: supported values: \"False\", \"True\", \"Unknown\"",
                        quoted(other)
                    ),
                }),
            }
        }
        matcher = Some(Matcher::Conditions(
            rule.on_pod_conditions
                .iter()
                .filter(|c| c.status == "True")
                .map(|c| c.type_.clone())
                .collect(),
        ));
    }
    match (&rule.on_exit_codes, rule.on_pod_conditions.is_empty()) {
        (Some(_), false) => errs.push(FieldError {
            field: path.to_owned(),
            message:
                "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
                    .into(),
        }),
        (None, true) => errs.push(FieldError {
            field: path.to_owned(),
            message: "Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
                .into(),
        }),
        _ => {}
    }
    match (action, matcher) {
        (Some(action), Some(matcher)) if errs.len() == before => Some(Rule { action, matcher }),
        _ => None,
    }
}

fn non_negative(field: &str, v: Option<i32>, errs: &mut Vec<FieldError>) {
    if let Some(v) = v.filter(|&v| v < 0) {
        errs.push(invalid(
            field.into(),
            v,
            "must be greater than or equal to 0",
        ));
    }
}

impl JobManifest {
    /// The API server's checks that bear on the explorer, in its words, plus
    /// the explorer's own size limits.
    pub fn validate(&self) -> Result<ValidJob, Vec<FieldError>> {
        let spec = &self.spec;
        let mut errs = vec![];
        if self.kind != "Job" {
            errs.push(invalid(
                "kind".into(),
                quoted(&self.kind),
                "the explorer takes a Job",
            ));
        }
        non_negative("spec.parallelism", spec.parallelism, &mut errs);
        non_negative("spec.completions", spec.completions, &mut errs);
        non_negative("spec.backoffLimit", spec.backoff_limit, &mut errs);
        non_negative(
            "spec.backoffLimitPerIndex",
            spec.backoff_limit_per_index,
            &mut errs,
        );
        non_negative("spec.maxFailedIndexes", spec.max_failed_indexes, &mut errs);
        let indexed = match spec.completion_mode.as_deref() {
            None | Some("NonIndexed") => false,
            Some("Indexed") => true,
            Some(other) => {
                errs.push(FieldError {
                    field: "spec.completionMode".into(),
                    message: format!(
                        "Unsupported value: {}: supported values: \"NonIndexed\", \"Indexed\"",
                        quoted(other)
                    ),
                });
                false
            }
        };
        if indexed && spec.completions.is_none() {
            errs.push(FieldError {
                field: "spec.completions".into(),
                message: "Required value: when completion mode is Indexed".into(),
            });
        }
        if let Some(v) = spec.backoff_limit_per_index {
            if !indexed {
                errs.push(invalid(
                    "spec.backoffLimitPerIndex".into(),
                    v,
                    "requires indexed completion mode",
                ));
            }
        }
        if let Some(v) = spec.max_failed_indexes {
            if spec.backoff_limit_per_index.is_none() {
                errs.push(invalid(
                    "spec.maxFailedIndexes".into(),
                    v,
                    "requires the backoffLimitPerIndex to be set",
                ));
            } else if let Some(c) = spec.completions.filter(|&c| v > c) {
                errs.push(invalid(
                    "spec.maxFailedIndexes".into(),
                    v,
                    &format!("must be less than or equal to completions ({c})"),
                ));
            }
        }
        let restart = spec.template.spec.restart_policy.as_deref().unwrap_or("");
        let on_failure = match restart {
            "Never" => false,
            "OnFailure" => true,
            "" => {
                errs.push(FieldError {
                    field: "spec.template.spec.restartPolicy".into(),
                    message: "Required value: a Job's pods need restartPolicy OnFailure or Never"
                        .into(),
                });
                false
            }
            other => {
                errs.push(FieldError {
                    field: "spec.template.spec.restartPolicy".into(),
                    message: format!(
                        "Unsupported value: {}: supported values: \"OnFailure\", \"Never\"",
                        quoted(other)
                    ),
                });
                false
            }
        };
        for (what, set) in [
            ("podFailurePolicy", spec.pod_failure_policy.is_some()),
            (
                "backoffLimitPerIndex",
                spec.backoff_limit_per_index.is_some(),
            ),
        ] {
            if set && restart == "OnFailure" {
                errs.push(invalid(
                    "spec.template.spec.restartPolicy".into(),
                    quoted(restart),
                    &format!("only \"Never\" is supported when {what} is specified"),
                ));
            }
        }
        let containers: Vec<String> = spec
            .template
            .spec
            .init_containers
            .iter()
            .chain(&spec.template.spec.containers)
            .map(|c| c.name.clone())
            .collect();
        if spec.template.spec.containers.is_empty() {
            errs.push(FieldError {
                field: "spec.template.spec.containers".into(),
                message: "Required value".into(),
            });
        }
        for (i, c) in spec.template.spec.containers.iter().enumerate() {
            if c.name.is_empty() {
                errs.push(FieldError {
                    field: format!("spec.template.spec.containers[{i}].name"),
                    message: "Required value".into(),
                });
            }
        }
        let mut rules = vec![];
        if let Some(policy) = &spec.pod_failure_policy {
            if policy.rules.len() > MAX_RULES {
                errs.push(FieldError {
                    field: "spec.podFailurePolicy.rules".into(),
                    message: format!(
                        "Too many: {}: must have at most {MAX_RULES} items",
                        policy.rules.len()
                    ),
                });
            } else {
                for (i, r) in policy.rules.iter().enumerate() {
                    let path = format!("spec.podFailurePolicy.rules[{i}]");
                    rules.extend(validate_rule(spec, r, &path, &containers, &mut errs));
                }
            }
        }
        let completions = spec.completions.unwrap_or(1);
        let parallelism = spec.parallelism.unwrap_or(1);
        for (field, v) in [
            ("spec.completions", completions),
            ("spec.parallelism", parallelism),
        ] {
            if v > MAX_COMPLETIONS || v < 1 && field == "spec.completions" {
                errs.push(invalid(
                    field.into(),
                    v,
                    &format!("the explorer models 1 to {MAX_COMPLETIONS}"),
                ));
            }
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        let name = if self.metadata.name.is_empty() {
            "job".to_owned()
        } else {
            self.metadata.name.clone()
        };
        Ok(ValidJob {
            name,
            completions: completions as u32,
            parallelism: parallelism as u32,
            indexed,
            // With backoffLimitPerIndex the global limit defaults to "no limit".
            backoff_limit: spec.backoff_limit.map_or(
                if spec.backoff_limit_per_index.is_some() {
                    u32::MAX
                } else {
                    6
                },
                |v| v as u32,
            ),
            backoff_limit_per_index: spec.backoff_limit_per_index.map(|v| v as u32),
            max_failed_indexes: spec.max_failed_indexes.map(|v| v as u32),
            on_failure,
            containers: spec
                .template
                .spec
                .containers
                .iter()
                .map(|c| c.name.clone())
                .collect(),
            rules,
        })
    }
}

// ---- The failure script ----

/// What one attempt (one pod, or one container run under OnFailure) does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Attempt {
    /// Exit codes by container; containers not named exit 0.
    Exit(std::collections::BTreeMap<String, i32>),
    /// The pod is disrupted (DisruptionTarget with this reason); its
    /// containers are killed (exit code 137).
    Disruption(String),
}

/// Attempts by index (lane): attempt k of every index does `attempts[k]`; the
/// last attempt repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureScript {
    pub attempts: Vec<Attempt>,
    #[serde(default = "pod_run")]
    pub run_ms: Ms,
}

fn pod_run() -> Ms {
    DEFAULT_POD_RUN_MS
}

pub const DISRUPTION_REASONS: [&str; 5] = [
    "PreemptionByScheduler",
    "TerminationByKubelet",
    "EvictionByEvictionAPI",
    "DeletionByTaintManager",
    "DeletionByPodGC",
];

impl FailureScript {
    fn exit(container: &str, code: i32) -> Attempt {
        Attempt::Exit([(container.to_owned(), code)].into())
    }

    /// "always exit 1"
    pub fn always_fail(container: &str) -> Self {
        Self {
            attempts: vec![Self::exit(container, 1)],
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// "exit 42 then succeed"
    pub fn fail_then_succeed(container: &str, code: i32) -> Self {
        Self {
            attempts: vec![Self::exit(container, code), Self::exit(container, 0)],
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// "preempted twice then succeed"
    pub fn preempted_then_succeed(container: &str, times: usize) -> Self {
        let mut attempts = vec![Attempt::Disruption("PreemptionByScheduler".into()); times];
        attempts.push(Self::exit(container, 0));
        Self {
            attempts,
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// Each attempt fails (exit 1) with probability `p`, from a seed.
    pub fn random(container: &str, seed: u64, p: f64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let attempts = (0..32)
            .map(|_| Self::exit(container, i32::from(rng.next_f64() < p)))
            .chain(std::iter::once(Self::exit(container, 0)))
            .collect();
        Self {
            attempts,
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// Reads one attempt a line: `exit 42` (the first container), `exit
    /// main=1 monitor=0`, `succeed`, `disrupt <reason>` or `preempt`/`evict`.
    pub fn parse(text: &str, first_container: &str, run_ms: Ms) -> Result<Self, String> {
        let mut attempts = vec![];
        for (n, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = |msg: String| format!("line {}: {msg}", n + 1);
            let attempt = match words.as_slice() {
                [] => continue,
                ["succeed"] | ["exit", "0"] => Attempt::Exit(Default::default()),
                ["preempt"] => Attempt::Disruption("PreemptionByScheduler".into()),
                ["evict"] => Attempt::Disruption("EvictionByEvictionAPI".into()),
                ["disrupt", reason] => {
                    if !DISRUPTION_REASONS.contains(reason) {
                        return Err(at(format!(
                            "unknown disruption reason {reason:?}; one of {}",
                            DISRUPTION_REASONS.join(", ")
                        )));
                    }
                    Attempt::Disruption((*reason).to_owned())
                }
                ["exit", codes @ ..] if !codes.is_empty() => {
                    let mut map = std::collections::BTreeMap::new();
                    for c in codes {
                        let (name, code) = c.split_once('=').unwrap_or((first_container, c));
                        let code: i32 = code
                            .parse()
                            .ok()
                            .filter(|v| (0..=255).contains(v))
                            .ok_or_else(|| at(format!("{code:?} is not an exit code (0 to 255)")))?;
                        map.insert(name.to_owned(), code);
                    }
                    Attempt::Exit(map)
                }
                _ => {
                    return Err(at(format!(
                        "{line:?}: write `exit 1`, `exit main=1 monitor=0`, `succeed`, `preempt`, `evict` or `disrupt <reason>`"
                    )))
                }
            };
            attempts.push(attempt);
            if attempts.len() > 1_000 {
                return Err("at most 1000 attempts".into());
            }
        }
        if attempts.is_empty() {
            return Err("the script is empty: write one attempt a line, e.g. `exit 1`".into());
        }
        Ok(Self { attempts, run_ms })
    }

    /// The script in the form `parse` reads.
    pub fn to_text(&self) -> String {
        self.attempts
            .iter()
            .map(|a| match a {
                Attempt::Disruption(r) => format!("disrupt {r}"),
                Attempt::Exit(codes) if codes.values().all(|&c| c == 0) => "succeed".to_owned(),
                Attempt::Exit(codes) => format!(
                    "exit {}",
                    codes
                        .iter()
                        .map(|(n, c)| format!("{n}={c}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn attempt(&self, k: usize) -> Option<&Attempt> {
        self.attempts.get(k).or(self.attempts.last())
    }
}

// ---- The run ----

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PodResult {
    Succeeded,
    /// Counted toward backoffLimit (or backoffLimitPerIndex).
    Failed,
    /// Matched an Ignore rule: not counted.
    Ignored,
    /// Matched a FailIndex rule, or exceeded backoffLimitPerIndex.
    FailedIndex,
    /// Matched a FailJob rule.
    FailedJob,
    /// A container failed and the kubelet restarted it in place (OnFailure).
    RestartedInPlace,
    /// Still running when the Job ended: terminated by the controller.
    Terminated,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodRecord {
    pub name: String,
    pub index: u32,
    pub start_ms: Ms,
    pub end_ms: Ms,
    pub result: PodResult,
    /// The podFailurePolicy rule that matched, by index.
    pub rule: Option<usize>,
    /// "exit 42 in main", "DisruptionTarget (PreemptionByScheduler)".
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionType {
    Complete,
    Failed,
    /// Neither by the horizon (or the pod cap).
    Running,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCondition {
    #[serde(rename = "type")]
    pub type_: ConditionType,
    pub reason: String,
    pub message: String,
    pub at_ms: Ms,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRun {
    pub pods: Vec<PodRecord>,
    /// Each wait the controller imposed before creating a replacement.
    pub replacement_delays_ms: Vec<Ms>,
    /// `status.failed` (OnFailure: container restarts count here too).
    pub failed: u32,
    pub succeeded: u32,
    pub ignored: u32,
    pub failures_per_index: Vec<u32>,
    /// `status.completedIndexes` and `status.failedIndexes`, compressed as the API does.
    pub completed_indexes: String,
    pub failed_indexes: String,
    pub condition: JobCondition,
}

/// "0-2,4": the API's compressed index list.
pub fn compress_indexes(indexes: &[u32]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < indexes.len() {
        let start = indexes[i];
        let mut end = start;
        while i + 1 < indexes.len() && indexes[i + 1] == end + 1 {
            i += 1;
            end = indexes[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

fn job_backoff(consecutive_failures: u32) -> Ms {
    if consecutive_failures == 0 {
        return 0;
    }
    let shift = (consecutive_failures - 1).min(16);
    (JOB_BACKOFF_INITIAL_MS << shift).min(JOB_BACKOFF_MAX_MS)
}

/// What a failed pod looks like to the policy.
struct Failure<'a> {
    exits: Vec<(&'a str, i32)>,
    conditions: Vec<&'a str>,
}

impl ValidJob {
    /// The first rule that matches, as the Job controller evaluates them.
    fn match_rule(&self, f: &Failure) -> Option<(usize, RuleAction, String)> {
        self.rules
            .iter()
            .enumerate()
            .find_map(|(i, r)| match &r.matcher {
                Matcher::ExitCodes {
                    container,
                    not_in,
                    values,
                } => f
                    .exits
                    .iter()
                    // Containers that exit 0 are never matched.
                    .filter(|(name, code)| {
                        *code != 0 && container.as_deref().is_none_or(|c| c == *name)
                    })
                    .find(|(_, code)| values.contains(code) != *not_in)
                    .map(|(name, code)| {
                        (
                            i,
                            r.action,
                            format!(
                                "Container {name} for pod {{pod}} failed with exit code {code}"
                            ),
                        )
                    }),
                Matcher::Conditions(types) => f
                    .conditions
                    .iter()
                    .find(|c| types.iter().any(|t| t == *c))
                    .map(|c| (i, r.action, format!("Pod {{pod}} has condition {c}"))),
            })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LaneState {
    Waiting,
    Active,
    Succeeded,
    Failed,
}

struct Lane {
    state: LaneState,
    attempt: usize,
    /// When the next pod may be created.
    ready_at: Ms,
    failures: u32,
    consecutive: u32,
    /// The running pod: its record's position, start, and in-place restarts.
    pod: usize,
    run_started: Ms,
}

/// Runs a Job against a failure script until it completes, fails, reaches
/// the horizon or has created `MAX_PODS` pods.
pub fn run_job(job: &ValidJob, script: &FailureScript, horizon_ms: Ms) -> JobRun {
    let n = job.completions as usize;
    let run = script.run_ms.max(1);
    let mut lanes: Vec<Lane> = (0..n)
        .map(|_| Lane {
            state: LaneState::Waiting,
            attempt: 0,
            ready_at: 0,
            failures: 0,
            consecutive: 0,
            pod: 0,
            run_started: 0,
        })
        .collect();
    let mut pods: Vec<PodRecord> = vec![];
    let mut delays = vec![];
    let (mut failed, mut succeeded, mut ignored) = (0u32, 0u32, 0u32);
    // Failures since the last success, for the shared backoff.
    let mut consecutive = 0u32;
    let mut shared_ready: Ms = 0;
    let per_index = job.backoff_limit_per_index.is_some();
    let mut now: Ms = 0;
    let mut end: Option<(ConditionType, String, String)> = None;
    let pod_name = |index: usize, k: usize| {
        if job.indexed {
            format!("{}-{index}-{k}", job.name)
        } else {
            format!("{}-{k}", job.name)
        }
    };

    loop {
        // Create pods where a lane waits, its backoff has passed, and parallelism allows.
        let mut active = lanes
            .iter()
            .filter(|l| l.state == LaneState::Active)
            .count() as u32;
        for (i, lane) in lanes.iter_mut().enumerate() {
            let ready = if per_index {
                lane.ready_at
            } else {
                lane.ready_at.max(shared_ready)
            };
            if lane.state == LaneState::Waiting
                && ready <= now
                && active < job.parallelism
                && pods.len() < MAX_PODS
            {
                lane.state = LaneState::Active;
                lane.pod = pods.len();
                lane.run_started = now;
                pods.push(PodRecord {
                    name: pod_name(i, pods.len()),
                    index: i as u32,
                    start_ms: now,
                    end_ms: now,
                    result: PodResult::Succeeded,
                    rule: None,
                    detail: String::new(),
                });
                active += 1;
            }
        }
        // The next thing to happen: a run ends, or a waiting lane becomes ready.
        let next_end = lanes
            .iter()
            .filter(|l| l.state == LaneState::Active)
            .map(|l| l.run_started + run)
            .min();
        let next_ready = lanes
            .iter()
            .filter(|l| l.state == LaneState::Waiting && active < job.parallelism)
            .map(|l| {
                if per_index {
                    l.ready_at
                } else {
                    l.ready_at.max(shared_ready)
                }
            })
            .filter(|&t| t > now)
            .min();
        let Some(next) = [next_end, next_ready].into_iter().flatten().min() else {
            if pods.len() >= MAX_PODS {
                end = Some((
                    ConditionType::Running,
                    "PodCap".into(),
                    format!("the explorer stops after {MAX_PODS} pods"),
                ));
            }
            break;
        };
        if next > horizon_ms {
            now = horizon_ms;
            break;
        }
        now = next;
        for (i, lane) in lanes.iter_mut().enumerate() {
            if lane.state != LaneState::Active || lane.run_started + run != now {
                continue;
            }
            let attempt = script
                .attempt(lane.attempt)
                .cloned()
                .unwrap_or(Attempt::Exit(Default::default()));
            let (exits, conditions, detail): (Vec<(String, i32)>, Vec<&str>, String) =
                match &attempt {
                    Attempt::Exit(codes) => {
                        let exits: Vec<(String, i32)> = job
                            .containers
                            .iter()
                            .map(|c| (c.clone(), codes.get(c).copied().unwrap_or(0)))
                            .collect();
                        let failing: Vec<String> = exits
                            .iter()
                            .filter(|(_, c)| *c != 0)
                            .map(|(n, c)| format!("exit {c} in {n}"))
                            .collect();
                        let detail = if failing.is_empty() {
                            "exit 0".to_owned()
                        } else {
                            failing.join(", ")
                        };
                        (exits, vec![], detail)
                    }
                    Attempt::Disruption(reason) => (
                        job.containers
                            .iter()
                            .map(|c| (c.clone(), DISRUPTION_EXIT_CODE))
                            .collect(),
                        vec![DISRUPTION_TARGET],
                        format!("{DISRUPTION_TARGET} ({reason})"),
                    ),
                };
            lane.attempt += 1;
            let record = lane.pod;
            let success = conditions.is_empty() && exits.iter().all(|(_, c)| *c == 0);
            if success {
                pods[record].end_ms = now;
                pods[record].detail = detail;
                pods[record].result = PodResult::Succeeded;
                lane.state = LaneState::Succeeded;
                lane.consecutive = 0;
                consecutive = 0;
                succeeded += 1;
                continue;
            }
            // OnFailure: the kubelet restarts the container in the same pod,
            // and the controller counts the restart.
            if job.on_failure && conditions.is_empty() {
                failed += 1;
                lane.failures += 1;
                let restarts = lane.failures;
                let wait = if restarts == 1 {
                    0
                } else {
                    (KUBELET_INITIAL_MS << (restarts - 2).min(16)).min(KUBELET_MAX_MS)
                };
                pods.push(PodRecord {
                    name: pods[record].name.clone(),
                    index: i as u32,
                    start_ms: lane.run_started,
                    end_ms: now,
                    result: PodResult::RestartedInPlace,
                    rule: None,
                    detail: format!("{detail}; CrashLoopBackOff {}s", wait / 1000),
                });
                lane.run_started = now + wait;
                pods[record].start_ms = lane.run_started;
                if failed > job.backoff_limit {
                    end = Some((
                        ConditionType::Failed,
                        "BackoffLimitExceeded".into(),
                        "Job has reached the specified backoff limit".into(),
                    ));
                }
                continue;
            }
            let exits_ref: Vec<(&str, i32)> = exits.iter().map(|(n, c)| (n.as_str(), *c)).collect();
            let matched = job.match_rule(&Failure {
                exits: exits_ref,
                conditions: conditions.clone(),
            });
            let name = pods[record].name.clone();
            pods[record].end_ms = now;
            pods[record].detail = detail;
            pods[record].rule = matched.as_ref().map(|m| m.0);
            let action = matched.as_ref().map_or(RuleAction::Count, |m| m.1);
            lane.state = LaneState::Waiting;
            match action {
                RuleAction::FailJob => {
                    pods[record].result = PodResult::FailedJob;
                    failed += 1;
                    let (index, _, what) = matched.unwrap_or((0, action, String::new()));
                    end = Some((
                        ConditionType::Failed,
                        "PodFailurePolicy".into(),
                        format!(
                            "{} matching FailJob rule at index {index}",
                            what.replace("{pod}", &format!("default/{name}"))
                        ),
                    ));
                }
                RuleAction::Ignore => {
                    pods[record].result = PodResult::Ignored;
                    ignored += 1;
                    lane.ready_at = now;
                }
                RuleAction::FailIndex => {
                    pods[record].result = PodResult::FailedIndex;
                    failed += 1;
                    lane.failures += 1;
                    lane.state = LaneState::Failed;
                }
                RuleAction::Count => {
                    pods[record].result = PodResult::Failed;
                    failed += 1;
                    lane.failures += 1;
                    if per_index {
                        lane.consecutive += 1;
                        let d = job_backoff(lane.consecutive);
                        lane.ready_at = now + d;
                        delays.push(d);
                        if lane.failures > job.backoff_limit_per_index.unwrap_or(0) {
                            pods[record].result = PodResult::FailedIndex;
                            lane.state = LaneState::Failed;
                        }
                        // An explicit backoffLimit still caps the whole Job.
                        if failed > job.backoff_limit {
                            end = Some((
                                ConditionType::Failed,
                                "BackoffLimitExceeded".into(),
                                "Job has reached the specified backoff limit".into(),
                            ));
                        }
                    } else {
                        consecutive += 1;
                        let d = job_backoff(consecutive);
                        shared_ready = now + d;
                        lane.ready_at = now;
                        delays.push(d);
                        if failed > job.backoff_limit {
                            end = Some((
                                ConditionType::Failed,
                                "BackoffLimitExceeded".into(),
                                "Job has reached the specified backoff limit".into(),
                            ));
                        }
                    }
                }
            }
            if end.is_some() {
                break;
            }
        }
        let failed_lanes = lanes
            .iter()
            .filter(|l| l.state == LaneState::Failed)
            .count() as u32;
        if end.is_none() {
            if job.max_failed_indexes.is_some_and(|m| failed_lanes > m) {
                end = Some((
                    ConditionType::Failed,
                    "MaxFailedIndexesExceeded".into(),
                    "Job has exceeded the specified maximal number of failed indexes".into(),
                ));
            } else if lanes
                .iter()
                .all(|l| matches!(l.state, LaneState::Succeeded | LaneState::Failed))
            {
                end = Some(if failed_lanes > 0 {
                    (
                        ConditionType::Failed,
                        "FailedIndexes".into(),
                        "Job has failed indexes".into(),
                    )
                } else {
                    (
                        ConditionType::Complete,
                        "CompletionsReached".into(),
                        "Reached expected number of succeeded pods".into(),
                    )
                });
            }
        }
        if end.is_some() {
            break;
        }
    }
    // Whatever still runs is terminated when the Job ends.
    for lane in &lanes {
        if lane.state == LaneState::Active {
            let p = &mut pods[lane.pod];
            p.end_ms = now;
            p.result = PodResult::Terminated;
            p.detail = if end.is_some() {
                "terminated: the Job ended".into()
            } else {
                "running".into()
            };
        }
    }
    let (type_, reason, message) = end.unwrap_or((
        ConditionType::Running,
        "HorizonReached".into(),
        "no Complete or Failed condition within the horizon".into(),
    ));
    let indexes = |s: LaneState| -> Vec<u32> {
        lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| l.state == s)
            .map(|(i, _)| i as u32)
            .collect()
    };
    JobRun {
        replacement_delays_ms: delays,
        failed,
        succeeded,
        ignored,
        failures_per_index: lanes.iter().map(|l| l.failures).collect(),
        completed_indexes: compress_indexes(&indexes(LaneState::Succeeded)),
        failed_indexes: compress_indexes(&indexes(LaneState::Failed)),
        condition: JobCondition {
            type_,
            reason,
            message,
            at_ms: now,
        },
        pods,
    }
}
