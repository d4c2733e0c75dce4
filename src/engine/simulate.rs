//! One container crash-looping under a curve, and the node it sits on.

use serde::{Deserialize, Serialize};

use super::backoff::{Backoff, ExpiryRule, Ms};
use super::config::{EffectiveBackoff, Semantics};
use super::rng::SplitMix64;
use super::scenario::Scenario;

/// `/pods` status API requests per restart (KEP-4603's kubelet overhead analysis).
pub const REQUESTS_PER_RESTART: u64 = 5;
/// The window the KEP counts API load in.
pub const LOAD_WINDOW_MS: Ms = 10_000;
/// "The first five minutes" of the KEP's excess-restart figures.
pub const FIRST_MINUTES_MS: Ms = 300_000;
/// A backstop far above anything the validated ranges allow (24 h at 25 ms).
const MAX_RESTARTS: usize = 4_000_000;

/// What one container does over the horizon, and what its node sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    /// Time of each restart, since the pod started.
    pub restarts_at_ms: Vec<Ms>,
    /// The wait before each restart, from the container's exit.
    pub delays_ms: Vec<Ms>,
    pub horizon_ms: Ms,
    pub pods: u32,
    pub window_ms: Ms,
    pub requests_per_restart: u64,
    /// `/pods` status requests in each window for the whole node, pods in lockstep.
    pub node_requests_per_window: Vec<u64>,
}

impl Timeline {
    /// Restarts at or before `t`.
    pub fn restarts_by(&self, t: Ms) -> u64 {
        self.restarts_at_ms.partition_point(|&r| r <= t) as u64
    }

    /// Restarts in each window `(previous bound, bound]`, the first from 0.
    pub fn restarts_in_windows(&self, bounds_ms: &[Ms]) -> Vec<u64> {
        let mut prev = 0;
        bounds_ms
            .iter()
            .map(|&b| {
                let n = self.restarts_by(b) - prev;
                prev += n;
                n
            })
            .collect()
    }
}

/// Restarts and requests, per pod and for the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub restarts_per_pod: i64,
    pub restarts_per_node: i64,
    pub requests_per_pod: i64,
    pub requests_per_node: i64,
}

impl Counts {
    fn of(restarts: u64, pods: u32) -> Self {
        let r = restarts as i64;
        let per_restart = REQUESTS_PER_RESTART as i64;
        Self {
            restarts_per_pod: r,
            restarts_per_node: r * i64::from(pods),
            requests_per_pod: r * per_restart,
            requests_per_node: r * per_restart * i64::from(pods),
        }
    }

    fn minus(self, o: Counts) -> Counts {
        Counts {
            restarts_per_pod: self.restarts_per_pod - o.restarts_per_pod,
            restarts_per_node: self.restarts_per_node - o.restarts_per_node,
            requests_per_pod: self.requests_per_pod - o.requests_per_pod,
            requests_per_node: self.requests_per_node - o.requests_per_node,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub horizon: Counts,
    /// Within the first 5 minutes (restarts at or before 300 s), or the horizon if shorter.
    pub first5m: Counts,
    /// The busiest 10-second window for the node.
    pub peak_node_requests_per_window: i64,
}

impl Summary {
    pub fn of(t: &Timeline) -> Self {
        Self {
            horizon: Counts::of(t.restarts_at_ms.len() as u64, t.pods),
            first5m: Counts::of(t.restarts_by(FIRST_MINUTES_MS), t.pods),
            peak_node_requests_per_window: t
                .node_requests_per_window
                .iter()
                .copied()
                .max()
                .unwrap_or(0) as i64,
        }
    }

    pub fn minus(&self, o: &Summary) -> Summary {
        Summary {
            horizon: self.horizon.minus(o.horizon),
            first5m: self.first5m.minus(o.first5m),
            peak_node_requests_per_window: self.peak_node_requests_per_window
                - o.peak_node_requests_per_window,
        }
    }
}

/// A scenario against today's default, as the app shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exploration {
    pub backoff: EffectiveBackoff,
    pub timeline: Timeline,
    pub summary: Summary,
    pub reference: Timeline,
    pub reference_summary: Summary,
    /// `summary - referenceSummary`: what this configuration adds over today's default.
    pub excess: Summary,
}

/// Restart times and waits for one container. The kubelet model follows
/// `doBackOff`: no entry yet (or an expired one) means start now, so the first
/// exit restarts at once (k/k#133472). The KEP model waits the curve every time.
fn restarts(
    b: &EffectiveBackoff,
    run_ms: Ms,
    horizon_ms: Ms,
    model: Semantics,
) -> (Vec<Ms>, Vec<Ms>) {
    let mut backoff = Backoff::new(
        b.initial_ms,
        b.max_ms,
        0.0,
        ExpiryRule::After(b.reset_after_ms),
    );
    // CrashLoopBackOff's jitter factor is 0: the generator is never drawn from.
    let mut rng = SplitMix64::new(0);
    let key = ();
    let (mut at, mut delays) = (vec![], vec![]);
    let mut started: Ms = 0;
    while at.len() < MAX_RESTARTS {
        let exit = started + run_ms;
        let delay = match model {
            Semantics::Kubelet if backoff.is_in_back_off_since(&key, exit, exit) => {
                backoff.get(&key)
            }
            Semantics::Kubelet => 0,
            Semantics::Kep => backoff.next_value(&key, exit, &mut rng),
        };
        let restart = exit + delay;
        if restart > horizon_ms {
            break;
        }
        match model {
            Semantics::Kubelet => backoff.next(&key, exit, restart, &mut rng),
            Semantics::Kep => backoff.store(&key, delay, restart),
        }
        at.push(restart);
        delays.push(delay);
        started = restart;
    }
    (at, delays)
}

/// The container's restarts over the horizon and the node's `/pods` load.
/// Pods crash in lockstep, so the node is one timeline times `pods`: the cost
/// does not depend on the number of pods.
pub fn simulate(scenario: &Scenario) -> Timeline {
    let horizon_ms = scenario.horizon_ms();
    let (restarts_at_ms, delays_ms) = restarts(
        scenario.backoff(),
        scenario.run_ms(),
        horizon_ms,
        scenario.model(),
    );
    let windows = horizon_ms.div_ceil(LOAD_WINDOW_MS).max(1) as usize;
    let per_restart = REQUESTS_PER_RESTART * u64::from(scenario.pods());
    let mut node_requests_per_window = vec![0u64; windows];
    for &t in &restarts_at_ms {
        let i = ((t / LOAD_WINDOW_MS) as usize).min(windows - 1);
        node_requests_per_window[i] += per_restart;
    }
    Timeline {
        restarts_at_ms,
        delays_ms,
        horizon_ms,
        pods: scenario.pods(),
        window_ms: LOAD_WINDOW_MS,
        requests_per_restart: REQUESTS_PER_RESTART,
        node_requests_per_window,
    }
}

/// The scenario and today's default side by side, with the excess.
pub fn explore(scenario: &Scenario) -> Exploration {
    let timeline = simulate(scenario);
    let reference = simulate(&scenario.with_todays_default());
    let summary = Summary::of(&timeline);
    let reference_summary = Summary::of(&reference);
    Exploration {
        backoff: scenario.backoff().clone(),
        excess: summary.minus(&reference_summary),
        timeline,
        summary,
        reference,
        reference_summary,
    }
}
