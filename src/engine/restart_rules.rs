//! Container restart rules (KEP-5307, gate `ContainerRestartRules`) and the
//! `RestartAllContainers` action (KEP-5532, gate
//! `RestartAllContainersOnContainerExits`): a container may set its own
//! `restartPolicy` and `restartPolicyRules` on exit codes, which decide
//! whether the kubelet restarts it in place. Restarts still follow the
//! CrashLoopBackOff curve (KEP-5307; KEP-5532 "the same backoff mechanism will
//! be applied to pod restarts").
//!
//! Validation follows `validateContainerRestartPolicy` in kubernetes/kubernetes
//! `pkg/apis/core/validation/validation.go` (words as the API server prints
//! them); with a gate off the API server drops the fields (`dropDisabledFields`
//! in `pkg/api/pod/util.go`), so the pod's `restartPolicy` applies.

use serde::{Deserialize, Serialize};

use super::config::{KubeletVersion, CONTAINER_RESTART_RULES, RESTART_ALL_CONTAINERS};
use super::field::{go_quoted_slice, FieldError};
use super::scenario::RestartPolicy;

/// At most this many rules a container (`validateContainerRestartPolicy`).
pub const MAX_RESTART_RULES: usize = 20;
/// At most this many exit codes a rule.
pub const MAX_RULE_EXIT_CODES: usize = 255;

/// One `restartPolicyRules` entry as the API spells it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerRestartRule {
    #[serde(default)]
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_codes: Option<ContainerRestartRuleOnExitCodes>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContainerRestartRuleOnExitCodes {
    #[serde(default)]
    pub operator: String,
    #[serde(default)]
    pub values: Vec<i32>,
}

impl ContainerRestartRule {
    /// `{action: Restart, exitCodes: {operator: In, values}}`.
    pub fn restart_on(values: &[i32]) -> Self {
        Self {
            action: RuleAction::Restart.name().to_owned(),
            exit_codes: Some(ContainerRestartRuleOnExitCodes {
                operator: "In".to_owned(),
                values: values.to_vec(),
            }),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleAction {
    /// Restart the container that exited.
    Restart,
    /// Restart every container of the pod in place (KEP-5532).
    RestartAllContainers,
}

impl RuleAction {
    pub const ALL: [RuleAction; 2] = [RuleAction::Restart, RuleAction::RestartAllContainers];

    pub fn name(self) -> &'static str {
        match self {
            RuleAction::Restart => "Restart",
            RuleAction::RestartAllContainers => "RestartAllContainers",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    action: RuleAction,
    not_in: bool,
    values: Vec<i32>,
}

/// A container's own restart settings, validated; empty when the container
/// follows the pod's `restartPolicy`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContainerRestart {
    policy: Option<RestartPolicy>,
    rules: Vec<Rule>,
}

/// What the kubelet does after a container exits with a given code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It stays down.
    Stays,
    /// Restarted in place by the container's or the pod's restartPolicy.
    RestartByPolicy,
    /// Restarted in place by rule `index` with this action.
    RestartByRule(usize, RuleAction),
}

impl Verdict {
    pub fn restarts(self) -> bool {
        self != Verdict::Stays
    }

    /// "rule 0 (Restart on exit 42)", "restartPolicy Always".
    pub fn describe(self, policy: RestartPolicy) -> String {
        match self {
            Verdict::Stays => format!("restartPolicy {} does not restart it", policy.name()),
            Verdict::RestartByPolicy => format!("restartPolicy {} restarts it", policy.name()),
            Verdict::RestartByRule(i, a) => {
                format!("restartPolicyRules[{i}] ({}) restarts it", a.name())
            }
        }
    }
}

impl ContainerRestart {
    pub fn is_empty(&self) -> bool {
        self.policy.is_none() && self.rules.is_empty()
    }

    /// The container's own policy, else the pod's.
    pub fn policy(&self, pod: RestartPolicy) -> RestartPolicy {
        self.policy.unwrap_or(pod)
    }

    /// The first rule whose exit codes match decides; with none, the
    /// container's restartPolicy (else the pod's) does.
    pub fn after_exit(&self, pod: RestartPolicy, exit_code: i32) -> Verdict {
        let matched = self
            .rules
            .iter()
            .position(|r| r.values.contains(&exit_code) != r.not_in);
        match matched {
            Some(i) => Verdict::RestartByRule(i, self.rules[i].action),
            None if self.policy(pod).restarts_code(exit_code) => Verdict::RestartByPolicy,
            None => Verdict::Stays,
        }
    }

    /// Validates a container's `restartPolicy` and `restartPolicyRules` at
    /// `path` (e.g. `spec.containers[0]`) for this version's API server.
    /// Returns the settings and warnings (fields dropped with a gate off).
    pub fn validate(
        path: &str,
        policy: Option<&str>,
        rules: &[ContainerRestartRule],
        version: KubeletVersion,
        errs: &mut Vec<FieldError>,
    ) -> (Self, Vec<String>) {
        let mut warnings = vec![];
        if policy.is_none() && rules.is_empty() {
            return (Self::default(), warnings);
        }
        if version.gate_default(CONTAINER_RESTART_RULES) != Some(true) {
            warnings.push(format!(
                "{path}: restartPolicy and restartPolicyRules are dropped by the API server: {CONTAINER_RESTART_RULES} is off in {}; the pod's restartPolicy applies",
                version.name()
            ));
            return (Self::default(), warnings);
        }
        let before = errs.len();
        let policy = match policy {
            None => {
                if !rules.is_empty() {
                    errs.push(FieldError::required(
                        format!("{path}.restartPolicy"),
                        "must specify restartPolicy when restart rules are used",
                    ));
                }
                None
            }
            Some(p) => match RestartPolicy::parse(p) {
                Some(p) => Some(p),
                None => {
                    errs.push(FieldError::not_supported(
                        format!("{path}.restartPolicy"),
                        p,
                        &RestartPolicy::NAMES,
                    ));
                    None
                }
            },
        };
        let all_containers = version.gate_default(RESTART_ALL_CONTAINERS) == Some(true);
        let actions: Vec<&str> = RuleAction::ALL
            .iter()
            .filter(|a| all_containers || **a == RuleAction::Restart)
            .map(|a| a.name())
            .collect();
        let rules_path = format!("{path}.restartPolicyRules");
        if rules.len() > MAX_RESTART_RULES {
            errs.push(FieldError::too_many(
                rules_path.clone(),
                rules.len(),
                MAX_RESTART_RULES,
            ));
        }
        let mut valid = vec![];
        for (i, r) in rules.iter().enumerate().take(MAX_RESTART_RULES) {
            let rp = format!("{rules_path}[{i}]");
            let action = match r.action.as_str() {
                "" => {
                    errs.push(FieldError::required(
                        format!("{rp}.action"),
                        &format!("valid values: {}", go_quoted_slice(&actions)),
                    ));
                    None
                }
                a => {
                    let found = RuleAction::ALL
                        .into_iter()
                        .find(|x| x.name() == a && actions.contains(&a));
                    if found.is_none() {
                        errs.push(FieldError::not_supported(
                            format!("{rp}.action"),
                            a,
                            &actions,
                        ));
                    }
                    found
                }
            };
            let Some(on) = &r.exit_codes else {
                errs.push(FieldError::required(
                    format!("{rp}.exitCodes"),
                    "must be specified",
                ));
                continue;
            };
            let not_in = match on.operator.as_str() {
                "In" => Some(false),
                "NotIn" => Some(true),
                other => {
                    errs.push(FieldError::not_supported(
                        format!("{rp}.exitCodes.operator"),
                        other,
                        &["In", "NotIn"],
                    ));
                    None
                }
            };
            if on.values.len() > MAX_RULE_EXIT_CODES {
                errs.push(FieldError::too_many(
                    format!("{rp}.exitCodes.values"),
                    on.values.len(),
                    MAX_RULE_EXIT_CODES,
                ));
            }
            if let (Some(action), Some(not_in)) = (action, not_in) {
                valid.push(Rule {
                    action,
                    not_in,
                    values: on.values.clone(),
                });
            }
        }
        if errs.len() > before {
            return (Self::default(), warnings);
        }
        (
            Self {
                policy,
                rules: valid,
            },
            warnings,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_42() -> Vec<ContainerRestartRule> {
        vec![ContainerRestartRule::restart_on(&[42])]
    }

    #[test]
    fn first_matching_rule_then_the_containers_policy() {
        let mut errs = vec![];
        let (c, w) = ContainerRestart::validate(
            "spec.containers[0]",
            Some("Never"),
            &rules_42(),
            KubeletVersion::V1_37,
            &mut errs,
        );
        assert!(errs.is_empty() && w.is_empty(), "{errs:?} {w:?}");
        assert_eq!(
            c.after_exit(RestartPolicy::Never, 42),
            Verdict::RestartByRule(0, RuleAction::Restart)
        );
        assert_eq!(c.after_exit(RestartPolicy::Never, 1), Verdict::Stays);
        // The container's Never wins over the pod's Always.
        assert_eq!(c.after_exit(RestartPolicy::Always, 1), Verdict::Stays);
    }

    #[test]
    fn gate_off_drops_the_fields() {
        let mut errs = vec![];
        let (c, w) = ContainerRestart::validate(
            "spec.containers[0]",
            Some("Never"),
            &rules_42(),
            KubeletVersion::V1_34,
            &mut errs,
        );
        assert!(errs.is_empty());
        assert!(c.is_empty());
        assert!(
            w[0].contains("ContainerRestartRules is off in 1.34"),
            "{w:?}"
        );
    }

    #[test]
    fn api_words() {
        let mut errs = vec![];
        ContainerRestart::validate(
            "spec.containers[1]",
            None,
            &rules_42(),
            KubeletVersion::V1_37,
            &mut errs,
        );
        assert_eq!(
            errs[0].to_string(),
            "spec.containers[1].restartPolicy: Required value: must specify restartPolicy when restart rules are used"
        );
        let mut errs = vec![];
        let mut bad = rules_42();
        bad[0].action = "DoNotRestart".into();
        ContainerRestart::validate(
            "spec.containers[0]",
            Some("Never"),
            &bad,
            KubeletVersion::V1_37,
            &mut errs,
        );
        assert_eq!(
            errs[0].to_string(),
            "spec.containers[0].restartPolicyRules[0].action: Unsupported value: \"DoNotRestart\": supported values: \"Restart\", \"RestartAllContainers\""
        );
        // RestartAllContainers is alpha (off) in 1.35.
        let mut errs = vec![];
        bad[0].action = "RestartAllContainers".into();
        ContainerRestart::validate(
            "spec.containers[0]",
            Some("Never"),
            &bad,
            KubeletVersion::V1_35,
            &mut errs,
        );
        assert_eq!(
            errs[0].to_string(),
            "spec.containers[0].restartPolicyRules[0].action: Unsupported value: \"RestartAllContainers\": supported values: \"Restart\""
        );
        let mut errs = vec![];
        let many = vec![ContainerRestartRule::restart_on(&[1]); 21];
        ContainerRestart::validate(
            "spec.containers[0]",
            Some("Never"),
            &many,
            KubeletVersion::V1_37,
            &mut errs,
        );
        assert_eq!(
            errs[0].to_string(),
            "spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items"
        );
    }
}
