//! The backoff engine: pure Rust, no clock, no web crates. Time is integer
//! milliseconds; randomness comes from seeds the caller passes.

pub mod backoff;
pub mod config;
pub mod duration;
pub mod rng;
pub mod scenario;
pub mod simulate;

pub use backoff::{Backoff, ExpiryRule, Ms};
pub use config::{
    resolve, ConfigError, CrashLoopBackOffConfig, EffectiveBackoff, KubeletConfig, ResetRule,
    Semantics, KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
pub use scenario::{Scenario, ScenarioError, ScenarioSpec};
pub use simulate::{explore, simulate, Counts, Exploration, Summary, Timeline};
