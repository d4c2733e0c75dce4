//! The Job API as a manifest spells it (batch/v1 `Job`, the parts of the pod
//! template the controller reads). Plain strings where the API takes enums, so
//! that validation can answer in the API server's words.

use serde::{Deserialize, Serialize};

use crate::engine::restart_rules::ContainerRestartRule;

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
    /// `Failed` or `TerminatingOrFailed`; must be `Failed` with a podFailurePolicy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_replacement_policy: Option<String>,
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
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    /// The container's own policy (KEP-5307); unset: the pod's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_policy_rules: Vec<ContainerRestartRule>,
    /// Its other fields (`command`, `args`, `env`, …) as the manifest has
    /// them, so that a Job loaded is written back whole.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

impl Container {
    pub fn named(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            ..Self::default()
        }
    }
}

impl JobManifest {
    /// KEP-3329's story 2: a Job whose pods are retried without counting when
    /// they are disrupted (an `Ignore` rule on `DisruptionTarget`).
    pub fn ignoring_disruptions(name: &str) -> Self {
        JobManifest {
            api_version: "batch/v1".into(),
            kind: "Job".into(),
            metadata: Metadata { name: name.into() },
            spec: JobSpec {
                pod_failure_policy: Some(PodFailurePolicy {
                    rules: vec![PodFailurePolicyRule {
                        action: "Ignore".into(),
                        on_exit_codes: None,
                        on_pod_conditions: vec![OnPodCondition {
                            type_: "DisruptionTarget".into(),
                            status: "True".into(),
                        }],
                    }],
                }),
                template: PodTemplate {
                    spec: PodSpec {
                        restart_policy: Some("Never".into()),
                        containers: vec![Container::named("main")],
                        init_containers: vec![],
                    },
                },
                ..Default::default()
            },
        }
    }
}
