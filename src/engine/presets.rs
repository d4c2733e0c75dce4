//! The curves KEP-4603 modelled or rejected, to overlay against today's.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::Semantics;
use super::scenario::{ExitKind, Group, Requeue, ScenarioSpec, DEFAULT_PODS};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    /// Where the KEP discusses it.
    pub section: &'static str,
    pub note: &'static str,
    pub initial_ms: Ms,
    pub max_ms: Ms,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_ms: Vec<Ms>,
    /// Succeeded exits only (the flat-rate alternative).
    pub succeeded_only: bool,
}

impl Preset {
    /// The preset's curve on the given scenario's node and horizon, as the KEP
    /// models curves: every exit waits, restarts land on expiry.
    pub fn apply(&self, base: &ScenarioSpec) -> ScenarioSpec {
        let groups = if self.succeeded_only {
            let (pods, run_ms) = match base.groups.first() {
                Some(g) => (g.pods, g.run_ms),
                None => (base.pods.unwrap_or(DEFAULT_PODS), base.run_ms.unwrap_or(0)),
            };
            vec![Group {
                name: "Succeeded, restartPolicy Always".into(),
                exit: ExitKind::Succeeded,
                ..Group::crash_looping(pods, run_ms, 0)
            }]
        } else {
            base.groups.clone()
        };
        let single = groups.is_empty();
        ScenarioSpec {
            initial_ms: Some(self.initial_ms),
            max_ms: Some(self.max_ms),
            reset_after_ms: None,
            schedule_ms: self.schedule_ms.clone(),
            config: None,
            run_ms: if single { base.run_ms } else { None },
            pods: if single { base.pods } else { None },
            groups,
            model: Semantics::Kep,
            requeue: Some(Requeue::Ideal),
            chart_group: 0,
            ..base.clone()
        }
    }
}

pub fn presets() -> Vec<Preset> {
    let curve = |id, label, section, note, initial_ms, max_ms| Preset {
        id,
        label,
        section,
        note,
        initial_ms,
        max_ms,
        schedule_ms: vec![],
        succeeded_only: false,
    };
    vec![
        curve("initial-250ms", "initial 250 ms, max 5 min", "Front loaded decay curve", "modelled: more restarts early, same cap", 250, 300_000),
        curve("initial-25ms", "initial 25 ms, max 5 min", "Front loaded decay curve", "modelled: the fastest initial value", 25, 300_000),
        curve("new-default", "initial 1 s, max 1 min", "Proposal", "ReduceDefaultCrashLoopBackOffDecay", 1_000, 60_000),
        curve("initial-1s-max-30s", "initial 1 s, max 30 s", "Front loaded decay curve", "the most extreme modelled case", 1_000, 30_000),
        curve("rapid", "restartPolicy: Rapid (250 ms, max 1 min)", "Alternatives: RestartPolicy: Rapid", "rejected: per-pod opt-in", 250, 60_000),
        Preset {
            id: "flat-rate-succeeded",
            label: "flat-rate 5 s for Succeeded pods",
            section: "Alternatives: Flat-rate restarts for Succeeded Pods",
            note: "rejected; every restart of a Succeeded container waits 5 s",
            initial_ms: 5_000,
            max_ms: 5_000,
            schedule_ms: vec![],
            succeeded_only: true,
        },
        Preset {
            id: "front-loaded-with-interval",
            label: "front loaded decay with interval (1 s, 569 s on the 6th retry)",
            section: "Alternatives: Front loaded decay with interval",
            note: "rejected; after the catch-up the explorer assumes today's 5 min cap (the KEP does not say)",
            initial_ms: 1_000,
            max_ms: 300_000,
            schedule_ms: vec![1_000, 2_000, 4_000, 8_000, 16_000, 569_000],
            succeeded_only: false,
        },
    ]
}
