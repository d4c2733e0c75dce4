//! A Job spec checked as the API server checks it (kubernetes/kubernetes
//! `pkg/apis/batch/validation/validation.go`: `validatePodFailurePolicy`,
//! `validatePodReplacementPolicy`; container restart rules in
//! `pkg/apis/core/validation/validation.go`), in its words, plus the
//! explorer's own size limits. The result, `ValidJob`, is what the controller
//! runs.

use std::collections::BTreeSet;

use super::api::{JobManifest, JobSpec, PodFailurePolicyRule};
use super::{MAX_COMPLETIONS, MAX_EXIT_CODE_VALUES, MAX_RULES};
use crate::engine::config::KubeletVersion;
use crate::engine::field::{go_int32_slice, go_quoted_slice, quoted, FieldError};
use crate::engine::restart_rules::ContainerRestart;
use crate::engine::scenario::RestartPolicy;

/// `podFailurePolicy` actions, in the order the API lists them.
const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
const OPERATORS: [&str; 2] = ["In", "NotIn"];
const CONDITION_STATUSES: [&str; 3] = ["False", "True", "Unknown"];
/// `podReplacementPolicy` values (`sets.List` order).
const REPLACEMENT_POLICIES: [&str; 2] = ["Failed", "TerminatingOrFailed"];
/// `backoffLimit` when unset (and no backoffLimitPerIndex).
pub const DEFAULT_BACKOFF_LIMIT: u32 = 6;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RuleAction {
    FailJob,
    FailIndex,
    Ignore,
    Count,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Matcher {
    ExitCodes {
        container: Option<String>,
        not_in: bool,
        values: BTreeSet<i32>,
    },
    /// Condition types whose pattern status is True (a disruption sets
    /// DisruptionTarget=True, the only condition the explorer's pods carry).
    Conditions(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rule {
    pub(super) action: RuleAction,
    pub(super) matcher: Matcher,
}

/// One container of the pod template as the controller and kubelet see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidContainer {
    pub name: String,
    /// Its own restart settings (KEP-5307), empty when it follows the pod.
    pub restart: ContainerRestart,
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
    /// The pod's `restartPolicy`: OnFailure or Never.
    pub restart_policy: RestartPolicy,
    /// In spec order (the failure script names them).
    pub containers: Vec<ValidContainer>,
    /// What the API server did without refusing (fields dropped with a gate off).
    pub warnings: Vec<String>,
    pub(super) rules: Vec<Rule>,
}

impl ValidJob {
    pub fn on_failure(&self) -> bool {
        self.restart_policy == RestartPolicy::OnFailure
    }

    pub fn container_names(&self) -> Vec<String> {
        self.containers.iter().map(|c| c.name.clone()).collect()
    }
}

fn validate_exit_codes(
    on: &super::api::OnExitCodes,
    p: &str,
    containers: &[String],
    errs: &mut Vec<FieldError>,
) -> Option<Matcher> {
    let not_in = match on.operator.as_str() {
        "In" => Some(false),
        "NotIn" => Some(true),
        "" => {
            errs.push(FieldError::required(
                format!("{p}.operator"),
                &format!("valid values: {}", go_quoted_slice(&OPERATORS)),
            ));
            None
        }
        other => {
            errs.push(FieldError::not_supported(
                format!("{p}.operator"),
                other,
                &OPERATORS,
            ));
            None
        }
    };
    if let Some(name) = &on.container_name {
        if !containers.contains(name) {
            errs.push(FieldError::invalid(
                format!("{p}.containerName"),
                quoted(name),
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let vp = format!("{p}.values");
    if on.values.is_empty() {
        errs.push(FieldError::invalid(
            vp,
            go_int32_slice(&on.values),
            "at least one value is required",
        ));
    } else if on.values.len() > MAX_EXIT_CODE_VALUES {
        errs.push(FieldError::too_many(
            vp,
            on.values.len(),
            MAX_EXIT_CODE_VALUES,
        ));
    } else {
        let mut seen = BTreeSet::new();
        for (j, &v) in on.values.iter().enumerate() {
            if not_in == Some(false) && v == 0 {
                errs.push(FieldError::invalid(
                    format!("{vp}[{j}]"),
                    v,
                    "must not be 0 for the In operator",
                ));
            }
            if !seen.insert(v) {
                errs.push(FieldError::duplicate(format!("{vp}[{j}]"), v));
            }
        }
        if on.values.windows(2).any(|w| w[0] > w[1]) {
            errs.push(FieldError::invalid(
                vp,
                go_int32_slice(&on.values),
                "must be ordered",
            ));
        }
    }
    not_in.map(|not_in| Matcher::ExitCodes {
        container: on.container_name.clone(),
        not_in,
        values: on.values.iter().copied().collect(),
    })
}

fn validate_conditions(
    rule: &PodFailurePolicyRule,
    path: &str,
    errs: &mut Vec<FieldError>,
) -> Matcher {
    for (j, pattern) in rule.on_pod_conditions.iter().enumerate() {
        let pp = format!("{path}.onPodConditions[{j}]");
        if !is_qualified_name(&pattern.type_) {
            errs.push(FieldError::invalid(
                format!("{pp}.type"),
                quoted(&pattern.type_),
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ));
        }
        match pattern.status.as_str() {
            s if CONDITION_STATUSES.contains(&s) => {}
            "" => errs.push(FieldError::required(
                format!("{pp}.status"),
                &format!("valid values: {}", go_quoted_slice(&CONDITION_STATUSES)),
            )),
            other => errs.push(FieldError::not_supported(
                format!("{pp}.status"),
                other,
                &CONDITION_STATUSES,
            )),
        }
    }
    Matcher::Conditions(
        rule.on_pod_conditions
            .iter()
            .filter(|c| c.status == "True")
            .map(|c| c.type_.clone())
            .collect(),
    )
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
            errs.push(FieldError::required(
                format!("{path}.action"),
                &format!("valid values: {}", go_quoted_slice(&ACTIONS)),
            ));
            None
        }
        "FailJob" => Some(RuleAction::FailJob),
        "Ignore" => Some(RuleAction::Ignore),
        "Count" => Some(RuleAction::Count),
        "FailIndex" => {
            if spec.backoff_limit_per_index.is_none() {
                errs.push(FieldError::invalid(
                    format!("{path}.action"),
                    quoted("FailIndex"),
                    "requires the backoffLimitPerIndex to be set",
                ));
            }
            Some(RuleAction::FailIndex)
        }
        other => {
            errs.push(FieldError::not_supported(
                format!("{path}.action"),
                other,
                &ACTIONS,
            ));
            None
        }
    };
    let before = errs.len();
    let mut matcher = None;
    if let Some(on) = &rule.on_exit_codes {
        matcher = validate_exit_codes(on, &format!("{path}.onExitCodes"), containers, errs);
    }
    if !rule.on_pod_conditions.is_empty() {
        matcher = Some(validate_conditions(rule, path, errs));
    }
    match (&rule.on_exit_codes, rule.on_pod_conditions.is_empty()) {
        (Some(_), false) => errs.push(FieldError::invalid_omit_value(
            path,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        )),
        (None, true) => errs.push(FieldError::invalid_omit_value(
            path,
            "specifying one of OnExitCodes and OnPodConditions is required",
        )),
        _ => {}
    }
    match (action, matcher) {
        (Some(action), Some(matcher)) if errs.len() == before => Some(Rule { action, matcher }),
        _ => None,
    }
}

fn non_negative(field: &str, v: Option<i32>, errs: &mut Vec<FieldError>) {
    if let Some(v) = v.filter(|&v| v < 0) {
        errs.push(FieldError::invalid(
            field,
            v,
            "must be greater than or equal to 0",
        ));
    }
}

fn validate_restart_policy(
    restart: &str,
    spec: &JobSpec,
    errs: &mut Vec<FieldError>,
) -> RestartPolicy {
    const FIELD: &str = "spec.template.spec.restartPolicy";
    let policy = match restart {
        "Never" => RestartPolicy::Never,
        "OnFailure" => RestartPolicy::OnFailure,
        "" => {
            errs.push(FieldError::required(
                FIELD,
                "a Job's pods need restartPolicy OnFailure or Never",
            ));
            RestartPolicy::Never
        }
        other => {
            errs.push(FieldError::not_supported(
                FIELD,
                other,
                &["OnFailure", "Never"],
            ));
            RestartPolicy::Never
        }
    };
    for (what, set) in [
        ("podFailurePolicy", spec.pod_failure_policy.is_some()),
        (
            "backoffLimitPerIndex",
            spec.backoff_limit_per_index.is_some(),
        ),
    ] {
        if set && policy == RestartPolicy::OnFailure {
            errs.push(FieldError::invalid(
                FIELD,
                quoted(restart),
                &format!("only \"Never\" is supported when {what} is specified"),
            ));
        }
    }
    policy
}

/// `validatePodReplacementPolicy`: with a podFailurePolicy only `Failed`
/// (declarative validation's words since 1.36); else one of the two values.
fn validate_replacement_policy(spec: &JobSpec, errs: &mut Vec<FieldError>) {
    const FIELD: &str = "spec.podReplacementPolicy";
    let Some(p) = spec.pod_replacement_policy.as_deref() else {
        return;
    };
    if spec.pod_failure_policy.is_some() && p != "Failed" {
        errs.push(FieldError::invalid(
            FIELD,
            quoted(p),
            "must be \"Failed\" when podFailurePolicy is used",
        ));
    } else if !REPLACEMENT_POLICIES.contains(&p) {
        errs.push(FieldError::not_supported(FIELD, p, &REPLACEMENT_POLICIES));
    }
}

impl JobManifest {
    /// Validation as the newest modelled API server does it.
    pub fn validate(&self) -> Result<ValidJob, Vec<FieldError>> {
        self.validate_for(KubeletVersion::default())
    }

    /// The API server's checks that bear on the explorer, in its words, plus
    /// the explorer's own size limits; `version` decides which gates are on.
    pub fn validate_for(&self, version: KubeletVersion) -> Result<ValidJob, Vec<FieldError>> {
        let spec = &self.spec;
        let mut errs = vec![];
        if self.kind != "Job" {
            errs.push(FieldError::invalid(
                "kind",
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
                errs.push(FieldError::not_supported(
                    "spec.completionMode",
                    other,
                    &["NonIndexed", "Indexed"],
                ));
                false
            }
        };
        if indexed && spec.completions.is_none() {
            errs.push(FieldError::required(
                "spec.completions",
                "when completion mode is Indexed",
            ));
        }
        if let Some(v) = spec.backoff_limit_per_index {
            if !indexed {
                errs.push(FieldError::invalid(
                    "spec.backoffLimitPerIndex",
                    v,
                    "requires indexed completion mode",
                ));
            }
        }
        if let Some(v) = spec.max_failed_indexes {
            if spec.backoff_limit_per_index.is_none() {
                errs.push(FieldError::invalid(
                    "spec.maxFailedIndexes",
                    v,
                    "requires the backoffLimitPerIndex to be set",
                ));
            } else if let Some(c) = spec.completions.filter(|&c| v > c) {
                errs.push(FieldError::invalid(
                    "spec.maxFailedIndexes",
                    v,
                    &format!("must be less than or equal to completions ({c})"),
                ));
            }
        }
        let pod = &spec.template.spec;
        let restart_policy =
            validate_restart_policy(pod.restart_policy.as_deref().unwrap_or(""), spec, &mut errs);
        validate_replacement_policy(spec, &mut errs);
        let names: Vec<String> = pod
            .init_containers
            .iter()
            .chain(&pod.containers)
            .map(|c| c.name.clone())
            .collect();
        if pod.containers.is_empty() {
            errs.push(FieldError::required("spec.template.spec.containers", ""));
        }
        let mut warnings = vec![];
        let mut containers = vec![];
        for (i, c) in pod.containers.iter().enumerate() {
            let path = format!("spec.template.spec.containers[{i}]");
            if c.name.is_empty() {
                errs.push(FieldError::required(format!("{path}.name"), ""));
            }
            let (restart, w) = ContainerRestart::validate(
                &path,
                c.restart_policy.as_deref(),
                &c.restart_policy_rules,
                version,
                &mut errs,
            );
            warnings.extend(w);
            containers.push(ValidContainer {
                name: c.name.clone(),
                restart,
            });
        }
        let mut rules = vec![];
        if let Some(policy) = &spec.pod_failure_policy {
            if policy.rules.len() > MAX_RULES {
                errs.push(FieldError::too_many(
                    "spec.podFailurePolicy.rules",
                    policy.rules.len(),
                    MAX_RULES,
                ));
            } else {
                for (i, r) in policy.rules.iter().enumerate() {
                    let path = format!("spec.podFailurePolicy.rules[{i}]");
                    rules.extend(validate_rule(spec, r, &path, &names, &mut errs));
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
                errs.push(FieldError::invalid(
                    field,
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
                    DEFAULT_BACKOFF_LIMIT
                },
                |v| v as u32,
            ),
            backoff_limit_per_index: spec.backoff_limit_per_index.map(|v| v as u32),
            max_failed_indexes: spec.max_failed_indexes.map(|v| v as u32),
            restart_policy,
            containers,
            warnings,
            rules,
        })
    }
}

/// A number field's text as the API server reads an int32 field of a Job
/// (from YAML made JSON; `go_struct` is the Go type that holds the field): empty is unset; a string, a fraction or a number
/// past int32 is refused in the decoder's words (apimachinery's JSON
/// decoding, sigs.k8s.io/json's UnmarshalTypeError).
pub fn read_int32(go_struct: &str, path: &str, text: &str) -> Result<Option<i32>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let what = match t.parse::<i128>() {
        Ok(v) => match i32::try_from(v) {
            Ok(v) => return Ok(Some(v)),
            Err(_) => format!("number {t}"),
        },
        Err(_) if t.parse::<f64>().is_ok_and(f64::is_finite) => format!("number {t}"),
        Err(_) => "string".to_owned(),
    };
    Err(format!(
        "Job in version \"v1\" cannot be handled as a Job: json: cannot unmarshal {what} into Go struct field {go_struct}.{path} of type int32"
    ))
}
