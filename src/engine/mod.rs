//! The backoff engine: pure Rust, no clock, no web crates. Time is integer
//! milliseconds; randomness comes from seeds the caller passes.

pub mod apf;
pub mod audit;
pub mod backoff;
pub mod cluster;
pub mod cluster_view;
pub mod config;
pub mod duration;
pub mod explore;
pub mod field;
pub mod job;
pub mod kept;
pub mod kubelets;
pub mod lifecycle;
pub mod limiter;
pub mod live;
pub mod load_now;
pub mod node;
pub mod observed;
pub mod pod;
pub mod presets;
pub mod requests;
pub mod restart_rules;
pub mod rng;
pub mod runs;
pub mod scenario;
pub mod schedule;
pub mod sent;
pub mod simulate;
pub mod times;
pub mod waiting;
pub mod windows;

pub use backoff::{Backoff, ExpiryRule, Ms};
pub use config::{
    resolve, ConfigError, CrashLoopBackOffConfig, EffectiveBackoff, KubeletConfig, KubeletVersion,
    Semantics, KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
pub use explore::{explore, explore_with, Counts, Exploration, Summary};
pub use limiter::ApiLoad;
pub use node::{node_timeline, simulate, GroupTimeline, Timeline};
pub use requests::{Kind as RequestKind, RequestsByKind, RequestsTimeline, RunningSeen};
pub use runs::{pod_runs, Band, PodKey, PodRuns};
pub use scenario::{
    ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioError, ScenarioSpec,
};
pub use sent::{Delivery, NodeRequests};
pub use times::Times;
