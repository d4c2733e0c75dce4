//! The backoff engine: pure Rust, no clock, no web crates. Time is integer
//! milliseconds; randomness comes from seeds the caller passes.

pub mod apf;
pub mod audit;
pub mod backoff;
pub mod cluster;
pub mod cluster_view;
pub mod config;
pub mod duration;
pub mod field;
pub mod job;
pub mod lifecycle;
pub mod limiter;
pub mod live;
pub mod pod;
pub mod presets;
pub mod requests;
pub mod restart_rules;
pub mod rng;
pub mod scenario;
pub mod schedule;
pub mod sent;
pub mod simulate;
pub mod times;
pub mod waiting;

pub use backoff::{Backoff, ExpiryRule, Ms};
pub use config::{
    resolve, ConfigError, CrashLoopBackOffConfig, EffectiveBackoff, KubeletConfig, KubeletVersion,
    Semantics, KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
pub use limiter::ApiLoad;
pub use requests::{Kind as RequestKind, RequestsByKind, RequestsTimeline, RunningSeen};
pub use scenario::{
    ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioError, ScenarioSpec,
};
pub use sent::{Delivery, NodeRequests};
pub use simulate::{
    explore, explore_with, node_timeline, pod_runs, simulate, Band, Counts, Exploration,
    GroupTimeline, PodKey, PodRuns, Summary, Timeline,
};
pub use times::Times;
