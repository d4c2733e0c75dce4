//! The Job controller: a Job spec as the API takes it (`api`), validated as
//! the API server does (`validate`), run against a failure script (`script`)
//! by a model of the controller (`controller`): which pods start when, which
//! `podFailurePolicy` rule matches each failure, and how the Job ends.

pub mod api;
pub mod controller;
pub mod script;
pub mod validate;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;

pub use api::{
    Container, JobManifest, JobSpec, Metadata, OnExitCodes, OnPodCondition, PodFailurePolicy,
    PodFailurePolicyRule, PodSpec, PodTemplate,
};
pub use controller::{
    compress_indexes, job_backoff, run_job, ConditionType, JobCondition, JobRun, PodRecord,
    PodResult, ReplacementWait,
};
pub use script::{Attempt, FailureScript, DISRUPTION_REASONS};
pub use validate::{RuleAction, ValidContainer, ValidJob, DEFAULT_BACKOFF_LIMIT};

pub use super::field::FieldError;

/// `DefaultJobPodFailureBackOff` and `MaxJobPodFailureBackOff`
/// (pkg/controller/job/job_controller.go).
pub const JOB_BACKOFF_INITIAL_MS: Ms = 10_000;
pub const JOB_BACKOFF_MAX_MS: Ms = 600_000;
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

/// A Job and a failure script as typed: the Job view's inputs, and what an
/// audit row about Jobs loads into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobInputs {
    pub manifest: JobManifest,
    /// The failure script as typed.
    pub script: String,
    /// How long each pod runs.
    pub run_ms: Ms,
}

impl Default for JobInputs {
    /// KEP-3329's story 2: preempted twice, then it succeeds.
    fn default() -> Self {
        let mut manifest = JobManifest::ignoring_disruptions("demo");
        manifest.spec.backoff_limit = Some(6);
        if let Some(c) = manifest.spec.template.spec.containers.first_mut() {
            c.image = "busybox".into();
        }
        JobInputs {
            manifest,
            script: "preempt\npreempt\nsucceed".into(),
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }
}
