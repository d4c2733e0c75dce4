//! Containers crash-looping under a curve, and the node they sit on: restart
//! times per pod, `/pods` requests per window, and what the kubelet's client
//! rate limiter lets through.

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::backoff::{Backoff, ExpiryRule, Ms};
use super::config::{EffectiveBackoff, Semantics};
use super::limiter::{self, ApiLoad};
use super::requests::{event_client_limits, Kind, PodRequests, RequestsByKind, RequestsTimeline};
use super::rng::{Rng, SplitMix64};
use super::scenario::{Group, Requeue, Scenario};
use super::schedule::{RestartBackoff, ScheduleBackoff};
use super::sent::{self, NodeRequests};
use super::times::Times;

/// The window the KEP counts API load in.
pub const LOAD_WINDOW_MS: Ms = 10_000;
/// "The first five minutes" of the KEP's excess-restart figures.
pub const FIRST_MINUTES_MS: Ms = 300_000;
/// A backstop far above anything the validated ranges allow (24 h at 25 ms).
const MAX_RESTARTS: usize = 4_000_000;
/// The pod worker's recheck period before k/k#133066 (`backOffPeriod`).
pub const PERIODIC_RECHECK_MS: Ms = 10_000;
/// k/k#133066 clamps the requeue to at most a minute.
pub const MAX_REQUEUE_MS: Ms = 60_000;
/// Points on the band's time axis.
const BAND_SAMPLES: u64 = 240;

/// One container's life under a curve.
#[derive(Debug, Clone, Copy)]
pub struct PodRun<'a> {
    pub backoff: &'a EffectiveBackoff,
    pub run_ms: Ms,
    pub horizon_ms: Ms,
    pub model: Semantics,
    pub requeue: Requeue,
    pub start_latency_ms: Ms,
    pub seed: u64,
}

/// `wait.Jitter(d, factor)`: `d` plus up to `factor × d`.
pub fn jitter(d: Ms, factor: f64, rng: &mut dyn Rng) -> Ms {
    d + (rng.next_f64() * factor * d as f64) as Ms
}

/// The kubelet's housekeeping period (`housekeepingPeriod`, pkg/kubelet/kubelet.go):
/// each pass ends with the backoff GC (`HandlePodCleanups` in
/// pkg/kubelet/kubelet_pods.go calls `crashLoopBackOff.GC()`).
pub const HOUSEKEEPING_MS: Ms = 2_000;

/// When the pod worker next finds the container out of backoff, given that
/// it exited at `exit` and may restart from `ready`, or finds its entry gone
/// (dropped by the GC at `gc_at`).
pub fn land(requeue: Requeue, exit: Ms, ready: Ms, gc_at: Option<Ms>, rng: &mut dyn Rng) -> Ms {
    land_syncs(requeue, (exit, ready, gc_at), rng, &mut Vec::new())
}

/// `land`, writing down the syncs in between that found the container
/// still backing off (each emits a BackOff event; the exit's own sync is
/// not among them).
pub fn land_syncs(
    requeue: Requeue,
    (exit, ready, gc_at): (Ms, Ms, Option<Ms>),
    rng: &mut dyn Rng,
    syncs: &mut Vec<Ms>,
) -> Ms {
    let gone = |t: Ms| gc_at.is_some_and(|g| t >= g);
    let mut check = exit;
    match requeue {
        // Ideal: the kubelet acts the moment the wait ends or the entry goes.
        Requeue::Ideal => return gc_at.map_or(ready, |g| g.min(ready)),
        Requeue::Periodic => {
            while check < ready && !gone(check) {
                if check > exit {
                    syncs.push(check);
                }
                check += jitter(PERIODIC_RECHECK_MS, 0.5, rng);
            }
        }
        Requeue::AtExpiry => {
            while check < ready && !gone(check) {
                if check > exit {
                    syncs.push(check);
                }
                let remaining = (ready - check).min(MAX_REQUEUE_MS);
                check += jitter(remaining, 0.5, rng).max(1);
            }
        }
    }
    check
}

/// The first housekeeping pass that finds an entry last updated at `last`
/// expired: `now − lastUpdate > expiry` (client-go `Backoff.GC`).
pub fn gc_time(last: Ms, expiry: Ms) -> Ms {
    (last.saturating_add(expiry) / HOUSEKEEPING_MS + 1) * HOUSEKEEPING_MS
}

/// What happens after one exit at `exit`: when the next container starts
/// (before start latency), and the wait it had. Updates the backoff entry as
/// `doBackOff` does: `IsInBackOffSince(key, FinishedAt)`, then `Next` when it
/// starts (`lastUpdate` = that moment, kuberuntime_manager.go). Under the
/// kubelet model the first exit (no entry) restarts at once, and an entry
/// whose last update is older than the reset threshold is dropped by the
/// housekeeping GC even in the middle of a wait: the container then starts at
/// the next pod sync on a fresh curve. The KEP model waits the curve every
/// time and has no GC.
pub fn next_start(
    b: &mut impl RestartBackoff,
    model: Semantics,
    requeue: Requeue,
    exit: Ms,
    rng: &mut dyn Rng,
) -> Start {
    next_start_syncs(b, (model, requeue), exit, rng, &mut Vec::new())
}

/// `next_start`, writing down the syncs during the wait that found the
/// container still backing off (`land_syncs`).
pub fn next_start_syncs(
    b: &mut impl RestartBackoff,
    (model, requeue): (Semantics, Requeue),
    exit: Ms,
    rng: &mut dyn Rng,
    syncs: &mut Vec<Ms>,
) -> Start {
    let kubelet = model == Semantics::Kubelet;
    if kubelet && !b.is_in_back_off_since(exit, exit) {
        let value = b.next_value(exit, rng);
        b.store(value, exit, exit);
        return Start {
            at: exit,
            gc: false,
            housekeeping: false,
            waited: false,
        };
    }
    let value = b.next_value(exit, rng);
    let wait = if kubelet { b.get() } else { value };
    // The GC can only drop the entry during the wait if the wait ends past
    // lastUpdate + expiry; most waits end long before (checked first, it is
    // cheaper than the housekeeping arithmetic).
    let ready = exit + wait;
    // The entry's last update, when it expires before the wait ends.
    let expiring = b
        .last_update()
        .filter(|&last| kubelet && ready > last.saturating_add(b.expiry_ms()));
    let gc_at = expiring
        .map(|last| gc_time(last, b.expiry_ms()))
        .filter(|&g| g < ready);
    let decided = land_syncs(requeue, (exit, ready, gc_at), rng, syncs);
    let gc = gc_at.is_some_and(|g| decided >= g);
    if gc {
        // The entry is gone: Next starts a fresh one at the initial value.
        b.forget();
        let fresh = b.next_value(exit, rng);
        b.store(fresh, exit, decided);
    } else {
        b.store(value, exit, decided);
    }
    Start {
        at: decided,
        gc,
        housekeeping: expiring.is_some(),
        waited: true,
    }
}

/// When a container starts again, and whether the backoff GC decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub at: Ms,
    /// The entry was dropped during the wait: the curve starts over.
    pub gc: bool,
    /// The entry expires during the wait, so whether a housekeeping pass
    /// (on the clock's 2 s ticks, not relative to the restart) drops it
    /// before the wait ends depends on where the wait falls.
    pub housekeeping: bool,
    /// The container was found backing off (not restarted at once).
    pub waited: bool,
}

/// One pod's restarts: when each runs, the wait before it, and which came
/// early because the backoff GC dropped the entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restarts {
    pub at: Times,
    pub delays: Times,
    pub gc_at: Vec<Ms>,
    /// The syncs that found the container backing off (each emits a BackOff
    /// event): the exit's own, then any during the wait.
    pub backoff_syncs: Times,
    /// When the status first shows `Waiting` in each wait: the first sync
    /// after the exit's (the one that restarts it, if none came before).
    pub waiting_at: Times,
}

/// What makes one restart like the next: its wait, the entry's settled
/// wait, how long before the restart the entry was last updated, and
/// whether it waited at all.
type Step = (Ms, Ms, Ms, bool);

/// How to step: with the periodic shortcut, and writing down the syncs (the
/// kubelet model's requests need them; a jitter band's seeds do not).
#[derive(Clone, Copy)]
struct Stepping {
    shortcut: bool,
    syncs: bool,
}

fn restarts_with(mut b: impl RestartBackoff, p: &PodRun, how: Stepping) -> Restarts {
    let Stepping {
        shortcut,
        syncs: record,
    } = how;
    let mut rng = SplitMix64::new(p.seed);
    let (mut at, mut delays, mut gc_at) = (Times::new(), Times::new(), vec![]);
    let (mut backoff_syncs, mut waiting_at, mut syncs) = (Times::new(), Times::new(), vec![]);
    let mut started: Ms = 0;
    // Without jitter (restarts at expiry), once two restarts in a row are
    // alike the loop is periodic: every comparison the kubelet and the KEP
    // model make is of time differences, so the rest are the last one
    // shifted by one period (crash interval plus wait). They are kept as that
    // arithmetic (`Times`), neither stepped through nor written out: a 24 h
    // horizon at a 1 s cap is 86,400 restarts. The one comparison with the
    // clock is the housekeeping pass on its 2 s ticks: where one falls within
    // a wait, the steps repeat only when the period is whole ticks.
    let shortcut = shortcut && p.requeue == Requeue::Ideal;
    let mut previous: Option<Step> = None;
    while at.len() < MAX_RESTARTS {
        let exit = started + p.run_ms;
        // The horizon is an open end: a restart exactly at it is not counted.
        if exit >= p.horizon_ms {
            break;
        }
        syncs.clear();
        let start = next_start_syncs(&mut b, (p.model, p.requeue), exit, &mut rng, &mut syncs);
        if start.waited && record {
            backoff_syncs.push(exit);
            let before = |t: &&Ms| **t < p.horizon_ms;
            syncs
                .iter()
                .filter(before)
                .for_each(|&t| backoff_syncs.push(t));
            let waiting = syncs.first().copied().unwrap_or(start.at);
            if waiting < p.horizon_ms {
                waiting_at.push(waiting);
            }
        }
        let running = start.at + p.start_latency_ms;
        if running >= p.horizon_ms {
            break;
        }
        at.push(running);
        delays.push(running - exit);
        if start.gc {
            gc_at.push(running);
        }
        started = running;
        if shortcut {
            let step = (!start.gc)
                .then(|| {
                    Some((
                        running - exit,
                        b.settled_wait()?,
                        running - b.last_update()?,
                        start.waited,
                    ))
                })
                .flatten();
            let (wait, period) = (running - exit, p.run_ms + running - exit);
            // A period of 0 cannot repeat (time would not move); stepping on is safe.
            let ticks = !start.housekeeping || period % HOUSEKEEPING_MS == 0;
            if step.is_some() && step == previous && period > 0 && ticks {
                // Every later start before the horizon, up to the cap on restarts.
                let next = running + period;
                let more = if next < p.horizon_ms {
                    (p.horizon_ms - 1 - next) / period + 1
                } else {
                    0
                };
                let more = usize::try_from(more)
                    .unwrap_or(usize::MAX)
                    .min(MAX_RESTARTS.saturating_sub(at.len()));
                at.repeat(next, period, more);
                delays.repeat(wait, 0, more);
                // Periodic only at the ideal requeue: one sync at each exit,
                // the next at the restart.
                // The cycle after the last restart counts up to the horizon.
                let upto =
                    |first: Ms| more + usize::from(first + more as Ms * period < p.horizon_ms);
                if start.waited && record {
                    backoff_syncs.repeat(next - wait, period, upto(next - wait));
                    let waiting = next - p.start_latency_ms;
                    waiting_at.repeat(waiting, period, upto(waiting));
                }
                break;
            }
            previous = step;
        }
    }
    Restarts {
        at,
        delays,
        gc_at,
        backoff_syncs,
        waiting_at,
    }
}

/// Restart times (when the new container runs) and the wait before each.
/// The kubelet model follows `doBackOff`: no entry yet (or an expired one)
/// means start now, so the first exit restarts at once (k/k#133472).
pub fn pod_restarts(p: &PodRun) -> (Times, Times) {
    let r = restarts_of(
        p,
        Stepping {
            shortcut: true,
            syncs: false,
        },
    );
    (r.at, r.delays)
}

/// `pod_restarts`, with the restarts the backoff GC brought forward and the
/// syncs that found the container backing off.
pub fn pod_restarts_gc(p: &PodRun) -> Restarts {
    restarts_of(
        p,
        Stepping {
            shortcut: true,
            syncs: true,
        },
    )
}

/// `pod_restarts_gc` stepping through every restart, periodic or not: the
/// reference the shortcut is checked against (tests/properties.rs).
pub fn pod_restarts_stepwise(p: &PodRun) -> Restarts {
    restarts_of(
        p,
        Stepping {
            shortcut: false,
            syncs: true,
        },
    )
}

fn restarts_of(p: &PodRun, how: Stepping) -> Restarts {
    let b = p.backoff;
    let expiry = ExpiryRule::After(b.reset_after_ms);
    if b.schedule_ms.is_empty() {
        // CrashLoopBackOff's jitter factor is 0.
        restarts_with(
            Backoff::<()>::new(b.initial_ms, b.max_ms, 0.0, expiry),
            p,
            how,
        )
    } else {
        restarts_with(
            ScheduleBackoff::new(b.schedule_ms.clone(), b.max_ms, expiry),
            p,
            how,
        )
    }
}

/// Pods of a group start at evenly spread offsets, in whole load windows:
/// pod `i` of `pods` starts `floor(i × k / pods)` windows late, where `k` is
/// the spread in whole windows (0: lockstep).
#[derive(Debug, Clone, Copy)]
pub struct Offsets {
    pub pods: u32,
    pub spread_ms: Ms,
}

impl Offsets {
    /// The spread in whole windows.
    pub fn windows(self) -> u64 {
        self.spread_ms / LOAD_WINDOW_MS
    }

    /// Pod `i`'s start, in ms.
    pub fn offset(self, i: u32) -> Ms {
        let k = self.windows();
        if k == 0 {
            0
        } else {
            u64::from(i) * k / u64::from(self.pods) * LOAD_WINDOW_MS
        }
    }

    /// How many pods start at or before `y` ms.
    pub fn started_by(self, y: i64) -> u64 {
        let (p, k) = (u64::from(self.pods), self.windows());
        if y < 0 {
            0
        } else if k == 0 {
            p
        } else {
            let m = y as u64 / LOAD_WINDOW_MS;
            ((m + 1) * p).div_ceil(k).min(p)
        }
    }

    /// How many pods start exactly `j` windows late.
    fn at_window(self, j: u64) -> u64 {
        let at = (j * LOAD_WINDOW_MS) as i64;
        self.started_by(at) - self.started_by(at - 1)
    }

    /// Pods per offset, 0 to k − 1 windows late, for `n` windows of horizon
    /// (offsets at or past it start no pod within it).
    pub fn per_offset(self, n: usize) -> Vec<u64> {
        (0..self.windows().clamp(1, n as u64))
            .map(|j| self.at_window(j))
            .collect()
    }
}

/// A group's restarts, counted for its pods.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupTimeline {
    pub name: String,
    pub pods: u32,
    /// Whether the restart policy restarts this exit at all.
    pub restarts: bool,
    /// Restarts of the group's first pod (offset 0).
    pub restarts_per_pod: u64,
    /// Restarts of all its pods within the horizon, and within 5 minutes.
    pub restarts_all_pods: u64,
    pub restarts_all_pods_first5m: u64,
}

/// The band of a restart line over seeds: min and max restarts by each time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Band {
    pub seeds: u32,
    pub times_ms: Vec<Ms>,
    pub min: Vec<u64>,
    pub max: Vec<u64>,
}

/// What the node does over the horizon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    /// Time of each restart of the charted group's first pod, since it
    /// started. Shared with the pod runs it came from (a day at a 1 s cap is
    /// 86,400 of them; a node timeline does not copy them).
    pub restarts_at_ms: Rc<Times>,
    /// The wait before each of those restarts, from the container's exit.
    pub delays_ms: Rc<Times>,
    /// Those restarts the kubelet's backoff GC brought forward (the entry was
    /// dropped during the wait, so the curve started over).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gc_restarts_at_ms: Vec<Ms>,
    pub horizon_ms: Ms,
    pub pods: u32,
    pub window_ms: Ms,
    pub requests_per_restart: u64,
    /// `/pods` status requests the node offers in each window.
    pub node_requests_per_window: Vec<u64>,
    /// What the kubelet's client rate limiter admits, and how long requests
    /// wait: its main client (`kubeAPIQPS`), the status requests.
    pub api: ApiLoad,
    /// The kubelet model's requests by kind (the KEP model has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<RequestsTimeline>,
    /// The event client's limiter (`eventRecordQPS`), kubelet model only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_api: Option<ApiLoad>,
    pub groups: Vec<GroupTimeline>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
}

impl Timeline {
    /// Requests sent in each window: what the kubelet's clients' rate
    /// limiters let through to the API server, status and events (kubelet
    /// model), or all (KEP). `sent::node_requests` sums these.
    pub fn sent_per_window(&self) -> Cow<'_, [u64]> {
        let status = &self.api.admitted_per_window;
        match &self.event_api {
            Some(events) => {
                let mut sent = status.clone();
                add_windows(&mut sent, &events.admitted_per_window, false);
                Cow::Owned(sent)
            }
            None => Cow::Borrowed(status),
        }
    }

    /// Restarts of the charted pod at or before `t`.
    pub fn restarts_by(&self, t: Ms) -> u64 {
        self.restarts_at_ms.count_by(t) as u64
    }

    /// Restarts in each window `(previous bound, bound]`, the first from 0.
    pub fn restarts_in_windows(&self, bounds_ms: &[Ms]) -> Vec<u64> {
        restarts_in_windows(&self.restarts_at_ms, bounds_ms)
    }

    pub fn node_restarts(&self) -> u64 {
        self.groups.iter().map(|g| g.restarts_all_pods).sum()
    }

    pub fn node_restarts_first5m(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| g.restarts_all_pods_first5m)
            .sum()
    }
}

/// Restarts in each window `(previous bound, bound]`, the first from 0.
pub fn restarts_in_windows(restarts_at_ms: &Times, bounds_ms: &[Ms]) -> Vec<u64> {
    let mut prev = 0;
    bounds_ms
        .iter()
        .map(|&b| {
            let n = restarts_at_ms.count_by(b) as u64 - prev;
            prev += n;
            n
        })
        .collect()
}

/// Restarts and requests, per pod and for the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// The charted group's first pod.
    pub restarts_per_pod: i64,
    pub restarts_per_node: i64,
    /// What the charted pod hands its kubelet's clients: the flat count per
    /// restart (KEP model) or every kind but the dropped events (kubelet
    /// model). A pod has no "sent" of its own: the node's limiters are shared.
    pub requests_offered_per_pod: i64,
    /// The node's requests offered, sent (let through by the client rate
    /// limiters: what reached the API server) and still queued.
    pub node_requests: NodeRequests,
    /// The node's requests offered, by kind (kubelet model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_by_kind: Option<RequestsByKind>,
}

impl Counts {
    /// Restarts of the pod and the node; the requests over the first
    /// `windows` load windows.
    fn of(
        t: &Timeline,
        (per_pod, per_node): (u64, u64),
        pod_offered: Option<RequestsByKind>,
        windows: usize,
    ) -> Self {
        let kinds = t.requests.as_ref().map(|r| r.totals(windows));
        Self {
            restarts_per_pod: per_pod as i64,
            restarts_per_node: per_node as i64,
            requests_offered_per_pod: pod_offered
                .map_or((per_pod * t.requests_per_restart) as i64, |k| k.offered()),
            node_requests: sent::node_requests_of(t, windows, kinds.as_ref()),
            requests_by_kind: kinds,
        }
    }

    /// The node's requests that reached the API server.
    pub fn requests_sent(&self) -> i64 {
        self.node_requests.sent
    }

    fn minus(self, o: Counts) -> Counts {
        Counts {
            restarts_per_pod: self.restarts_per_pod - o.restarts_per_pod,
            restarts_per_node: self.restarts_per_node - o.restarts_per_node,
            requests_offered_per_pod: self.requests_offered_per_pod - o.requests_offered_per_pod,
            node_requests: self.node_requests.minus(o.node_requests),
            requests_by_kind: match (self.requests_by_kind, o.requests_by_kind) {
                (Some(a), Some(b)) => Some(a.minus(&b)),
                _ => None,
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub horizon: Counts,
    /// Within the first 5 minutes (restarts at or before 300 s), or the horizon if shorter.
    pub first5m: Counts,
    /// The busiest 10-second window for the node, offered.
    pub peak_node_requests_per_window: i64,
    /// The busiest window sent: after the client rate limiters.
    pub peak_sent_per_window: i64,
    /// The longest any request waits for the rate limiter.
    pub max_queue_delay_ms: i64,
    /// Windows in which the rate limiter holds requests back.
    pub limited_windows: i64,
    /// The same for the event client (kubelet model).
    #[serde(default)]
    pub event_max_queue_delay_ms: i64,
    #[serde(default)]
    pub event_limited_windows: i64,
}

impl Summary {
    pub fn of(t: &Timeline) -> Self {
        let peak = |v: &[u64]| v.iter().copied().max().unwrap_or(0) as i64;
        let first_windows = (FIRST_MINUTES_MS / LOAD_WINDOW_MS) as usize;
        let pod = |of: fn(&RequestsTimeline) -> RequestsByKind| t.requests.as_ref().map(of);
        let delays = |api: Option<&ApiLoad>| {
            let d = api.map_or(&[][..], |a| &a.max_queue_delay_ms[..]);
            (
                d.iter().copied().max().unwrap_or(0) as i64,
                d.iter().filter(|&&d| d > 0).count() as i64,
            )
        };
        let (max_queue_delay_ms, limited_windows) = delays(Some(&t.api));
        let (event_max_queue_delay_ms, event_limited_windows) = delays(t.event_api.as_ref());
        Self {
            horizon: Counts::of(
                t,
                (t.restarts_at_ms.len() as u64, t.node_restarts()),
                pod(|r| r.pod),
                usize::MAX,
            ),
            first5m: Counts::of(
                t,
                (t.restarts_by(FIRST_MINUTES_MS), t.node_restarts_first5m()),
                pod(|r| r.pod_first5m),
                first_windows,
            ),
            peak_node_requests_per_window: peak(&t.node_requests_per_window),
            peak_sent_per_window: peak(&t.sent_per_window()),
            max_queue_delay_ms,
            limited_windows,
            event_max_queue_delay_ms,
            event_limited_windows,
        }
    }

    pub fn minus(&self, o: &Summary) -> Summary {
        Summary {
            horizon: self.horizon.minus(o.horizon),
            first5m: self.first5m.minus(o.first5m),
            peak_node_requests_per_window: self.peak_node_requests_per_window
                - o.peak_node_requests_per_window,
            peak_sent_per_window: self.peak_sent_per_window - o.peak_sent_per_window,
            max_queue_delay_ms: self.max_queue_delay_ms - o.max_queue_delay_ms,
            limited_windows: self.limited_windows - o.limited_windows,
            event_max_queue_delay_ms: self.event_max_queue_delay_ms - o.event_max_queue_delay_ms,
            event_limited_windows: self.event_limited_windows - o.event_limited_windows,
        }
    }
}

/// A scenario against today's default, as the app shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exploration {
    pub backoff: EffectiveBackoff,
    /// Shared with the app's timeline cache rather than copied per move.
    pub timeline: Rc<Timeline>,
    pub summary: Summary,
    pub reference: Rc<Timeline>,
    pub reference_summary: Summary,
    /// `summary - referenceSummary`: what this configuration adds over today's default.
    pub excess: Summary,
}

fn group_seed(seed: u64, group: usize) -> u64 {
    seed ^ (group as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn pod_run<'a>(s: &'a Scenario, g: &Group, seed: u64) -> PodRun<'a> {
    PodRun {
        backoff: s.backoff(),
        run_ms: g.run_ms,
        horizon_ms: s.horizon_ms(),
        model: s.model(),
        requeue: s.requeue(),
        start_latency_ms: s.spec().start_latency_ms,
        seed,
    }
}

/// Adds a group's restarts to the node's windows: `pods` copies of one
/// timeline shifted by whole windows, so the node's load is the pod's
/// per-window counts convolved with the pods per offset. No loop over pods.
fn add_group_load(
    (below, own): (&dyn Fn(Ms) -> u64, &[u64]),
    counts: &[u64],
    horizon: Ms,
    per_window: &mut [u64],
) {
    let n = per_window.len();
    let width = counts.len();
    // Pods per offset are all ⌊pods/k⌋ or ⌈pods/k⌉: the commoner of the two
    // is a sliding sum over k windows, and only the others are shifted copies.
    let low = counts.iter().copied().min().unwrap_or(0);
    let lows = counts.iter().filter(|&&c| c == low).count();
    let (base, others) = if 2 * lows >= width {
        (low, width - lows)
    } else {
        (low + 1, lows)
    };
    let busy = || own.iter().filter(|&&c| c > 0).count();
    if let [pods] = counts {
        // Lockstep: the pod's windows times its pods, window by window.
        let m = own.len().min(n);
        let (to, own) = (&mut per_window[..m], &own[..m]);
        let mut w = 0;
        while w < m {
            to[w] += pods * own[w];
            w += 1;
        }
    } else if busy() * width <= n * (others + 2) {
        // Few busy windows (a long cap): each spreads over the offsets.
        for (m, &o) in own.iter().enumerate().filter(|&(_, &o)| o > 0) {
            for (slot, &c) in per_window[m..].iter_mut().zip(counts) {
                *slot += c * o;
            }
        }
    } else {
        let mut prefix = Vec::with_capacity(n + 1);
        prefix.push(0u64);
        for &c in own {
            prefix.push(prefix[prefix.len() - 1] + c);
        }
        for (w, slot) in per_window.iter_mut().enumerate() {
            *slot += base * (prefix[w + 1] - prefix[(w + 1).saturating_sub(width)]);
        }
        // Additions first, so that the subtractions never go below zero.
        for (j, &c) in counts.iter().enumerate().filter(|&(_, &c)| c > base) {
            for (slot, &o) in per_window[j..].iter_mut().zip(own) {
                *slot += (c - base) * o;
            }
        }
        for (j, &c) in counts.iter().enumerate().filter(|&(_, &c)| c < base) {
            for (slot, &o) in per_window[j..].iter_mut().zip(own) {
                *slot -= (base - c) * o;
            }
        }
    }
    // A partial last window holds only the shifted restarts that land before the horizon.
    let last = n - 1;
    let rem = horizon - last as u64 * LOAD_WINDOW_MS;
    if rem < LOAD_WINDOW_MS {
        for (j, &count) in counts.iter().enumerate().skip(1) {
            let start = (last - j) as u64 * LOAD_WINDOW_MS;
            let (lo, hi) = (below(start + rem), below(start + LOAD_WINDOW_MS));
            per_window[last] -= (hi - lo) * count;
        }
    }
}

/// Restarts of all a group's pods at or before `by`, with `counts` pods per
/// offset (`Offsets::per_offset`): each offset's pods count the restarts that
/// fit before `by` once shifted.
pub fn group_restarts_by(restarts: &Times, counts: &[u64], by: Ms) -> u64 {
    counts
        .iter()
        .zip((0..).map(|j| j * LOAD_WINDOW_MS))
        .take_while(|&(_, shift)| shift <= by)
        .map(|(&count, shift)| count * restarts.count_by(by - shift) as u64)
        .sum()
}

/// The min-max band of the charted pod's restarts over `seeds` seeds.
fn band(s: &Scenario, g: &Group, group: usize) -> Option<Band> {
    let seeds = s.spec().band_seeds;
    if seeds == 0 || s.requeue() == Requeue::Ideal || !s.restarts(group) {
        return None;
    }
    let h = s.horizon_ms();
    let times_ms: Vec<Ms> = (0..=BAND_SAMPLES).map(|k| h * k / BAND_SAMPLES).collect();
    let (mut min, mut max) = (vec![u64::MAX; times_ms.len()], vec![0; times_ms.len()]);
    for k in 0..u64::from(seeds) {
        let seed = group_seed(
            s.spec()
                .seed
                .wrapping_add(k.wrapping_mul(0xD1B5_4A32_D192_ED03)),
            group,
        );
        let (at, _) = pod_restarts(&pod_run(s, g, seed));
        for (j, &t) in times_ms.iter().enumerate() {
            let i = at.count_by(t) as u64;
            min[j] = min[j].min(i);
            max[j] = max[j].max(i);
        }
    }
    Some(Band {
        seeds,
        times_ms,
        min,
        max,
    })
}

/// A pod's restart times and the wait before each.
pub type RestartsAndWaits = (Rc<Times>, Rc<Times>);

/// Each group's pod over the horizon, and the charted pod's jitter band:
/// everything that depends only on the curve, the timing and the group's
/// run, not on pod counts, spreads or API limits. The app caches it by `PodKey`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRuns {
    /// Restart times and waits of each group's first pod.
    pub groups: Vec<RestartsAndWaits>,
    /// Which of those restarts the backoff GC brought forward.
    pub gc_at: Vec<Vec<Ms>>,
    /// Each group's first pod's restarts in each load window (the last one
    /// partial when the horizon is not whole windows).
    pub per_window: Vec<Vec<u64>>,
    pub band: Option<Band>,
    /// Each group's pod's requests by kind (kubelet model; none for the KEP's).
    pub requests: Vec<Rc<PodRequests>>,
    /// Those requests in each load window, by kind (`Kind::ALL`'s order;
    /// PATCH pods/status left empty, as it is GET pods').
    pub requests_per_window: Vec<Rc<Series>>,
    /// Spread groups' loads worked out from these runs (`node_timeline`).
    pub spread_loads: SpreadLoads,
}

/// A spread group's restarts per window, all its pods, by the group, its
/// pods, its spread and the horizon: what the convolution of the group's
/// pod over its offsets depends on beside the runs.
type SpreadKey = (usize, u32, Ms, Ms);

/// Spread groups' loads already worked out from one `PodRuns`: a slider
/// that moves another group's pods or the API limits finds them (the
/// convolution is a spread group's whole cost: two 10-minute spreads of a
/// day at a 1 s cap were about a quarter of the browser's worst pods move,
/// natively). Not part of what the runs are: equal however full.
#[derive(Clone, Default)]
pub struct SpreadLoads(std::cell::RefCell<Vec<(SpreadKey, Rc<Series>)>>);

/// Windows per series: restarts (KEP model), or each kind of request.
type Series = Vec<Vec<u64>>;

/// Loads kept per runs, the most recent: a few groups' few pod counts.
const SPREAD_LOADS: usize = 4;

impl SpreadLoads {
    fn get_or(&self, key: SpreadKey, make: impl FnOnce() -> Series) -> Rc<Series> {
        let hit = self
            .0
            .borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone());
        hit.unwrap_or_else(|| {
            let load = Rc::new(make());
            let mut kept = self.0.borrow_mut();
            if kept.len() == SPREAD_LOADS {
                kept.remove(0);
            }
            kept.push((key, load.clone()));
            load
        })
    }

    fn bytes(&self) -> usize {
        self.0
            .borrow()
            .iter()
            .map(|(_, v)| 8 * v.iter().map(Vec::len).sum::<usize>())
            .sum()
    }
}

impl PartialEq for SpreadLoads {
    /// Always equal, on purpose: a cache of what the runs already imply,
    /// so `PodRuns` compare by their runs alone, however full it is.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SpreadLoads {}

impl std::fmt::Debug for SpreadLoads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpreadLoads({} kept)", self.0.borrow().len())
    }
}

impl PodRuns {
    /// Roughly the memory the runs hold.
    pub fn bytes(&self) -> usize {
        let restarts: usize = self
            .groups
            .iter()
            .map(|(at, d)| at.stored() + d.stored())
            .sum();
        let windows: usize = self.per_window.iter().map(Vec::len).sum();
        let band = self.band.as_ref().map_or(0, |b| 3 * b.times_ms.len());
        let requests: usize = self.requests.iter().map(|r| r.bytes()).sum();
        let kinds: usize = self
            .requests_per_window
            .iter()
            .map(|k| 8 * k.iter().map(Vec::len).sum::<usize>())
            .sum();
        8 * (restarts + windows + band) + requests + kinds + self.spread_loads.bytes()
    }
}

/// What `PodRuns` depend on: equal keys give equal runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodKey {
    backoff: EffectiveBackoff,
    model: Semantics,
    requeue: Requeue,
    start_latency_ms: Ms,
    seed: u64,
    band_seeds: u32,
    horizon_ms: Ms,
    chart_group: usize,
    /// Each group's crash interval, whether its container restarts and
    /// whether the status shows it running.
    groups: Vec<(Ms, bool, bool)>,
}

impl Scenario {
    pub fn pod_key(&self) -> PodKey {
        PodKey {
            backoff: self.backoff().clone(),
            model: self.model(),
            requeue: self.requeue(),
            start_latency_ms: self.spec().start_latency_ms,
            seed: self.spec().seed,
            band_seeds: self.spec().band_seeds,
            horizon_ms: self.horizon_ms(),
            chart_group: self.spec().chart_group,
            groups: self
                .groups()
                .iter()
                .enumerate()
                .map(|(i, g)| (g.run_ms, self.restarts(i), self.running_seen(i)))
                .collect(),
        }
    }
}

fn windows_of(horizon: Ms) -> usize {
    horizon.div_ceil(LOAD_WINDOW_MS).max(1) as usize
}

/// Restarts in each of `n` load windows (the last takes any later ones).
pub(crate) fn per_window(restarts: &Times, n: usize) -> Vec<u64> {
    let mut own = vec![0; n.max(1)];
    count_per_window(restarts, &mut own);
    own
}

/// The load window `t` falls in, of windows up to `last` (which takes any
/// later time).
pub(crate) fn window_of(t: Ms, last: usize) -> usize {
    usize::try_from(t / LOAD_WINDOW_MS).map_or(last, |w| w.min(last))
}

/// Writes the values in each load window to `own` (the last takes any
/// later ones). Fewer values than windows (a long cap, the events sent) are
/// each put in their window. Otherwise each window counts on from where the
/// last stopped, a periodic tail by arithmetic (`Times::below_rising`), so no
/// restart of it is visited (a day at a 1 s cap is 86,400), and windows
/// whose counts repeat those a period before (`Times::window_repeats`) are
/// copies of that period.
pub(crate) fn count_per_window(times: &Times, own: &mut [u64]) {
    own.fill(0);
    let Some(last) = own.len().checked_sub(1) else {
        return;
    };
    if times.len() < own.len() {
        for t in times.iter() {
            own[window_of(t, last)] += 1;
        }
        return;
    }
    // Windows from `start` on, counted on from `before` below the first's start.
    let count = |own: &mut [u64], start: usize, mut before: usize| {
        let mut below = times.below_rising();
        let mut end = start as Ms * LOAD_WINDOW_MS;
        for slot in own.iter_mut() {
            end += LOAD_WINDOW_MS;
            // The walk never counts fewer below a higher bound (pinned against
            // the plain count natively and in each browser); were a wasm engine
            // ever to compute it so (WebKit once did), the plain
            // count stands in: no panic, no wrapped count.
            let mut k = below.below(end);
            if k < before {
                k = times.count_below(end).max(before);
            }
            *slot = (k - before) as u64;
            before = k;
        }
        before
    };
    let copied = match times.window_repeats(LOAD_WINDOW_MS) {
        Some((range, period)) if range.start < last => {
            let (from, to) = (range.start, range.end.min(last));
            count(&mut own[..from], 0, 0);
            // The period before `from`, copied on in ever longer runs (each
            // a whole number of periods).
            let mut done = from;
            while done < to {
                let run = (done - (from - period)).min(to - done);
                own.copy_within(from - period..from - period + run, done);
                done += run;
            }
            to
        }
        _ => 0,
    };
    let before = times.count_below(copied as Ms * LOAD_WINDOW_MS);
    let before = count(&mut own[copied..], copied, before);
    own[last] += times.len().saturating_sub(before) as u64;
}

/// `from` added to `to` (or taken off), window by window: indexed in a
/// plain loop, which opt-level "z" keeps free of calls.
pub(crate) fn add_windows(to: &mut [u64], from: &[u64], take: bool) {
    // Both cut to one length, so that no index is checked.
    let n = to.len().min(from.len());
    let (to, from) = (&mut to[..n], &from[..n]);
    let mut w = 0;
    if take {
        while w < n {
            to[w] -= from[w];
            w += 1;
        }
    } else {
        while w < n {
            to[w] += from[w];
            w += 1;
        }
    }
}

/// The windows of each of `lists` added up.
fn sum_windows(n: usize, lists: &[&[u64]]) -> Vec<u64> {
    let mut sum = vec![0; n];
    for list in lists {
        add_windows(&mut sum, list, false);
    }
    sum
}

/// Each group's pod, and the band.
pub fn pod_runs(s: &Scenario) -> PodRuns {
    PodRuns {
        band: jitter_band(s),
        ..pod_runs_unbanded(s)
    }
}

/// Whether the charted pod has a jitter band: seeds asked for, jittered
/// requeue, and a container that restarts.
pub fn wants_band(s: &Scenario) -> bool {
    s.spec().band_seeds > 0 && s.requeue() != Requeue::Ideal && s.restarts(s.spec().chart_group)
}

/// The charted pod's band over seeds: a run per seed, most of a jittered
/// scenario's cost, so the app draws it after the rest (`pod_runs_unbanded`).
pub fn jitter_band(s: &Scenario) -> Option<Band> {
    let chart_group = s.spec().chart_group;
    s.groups()
        .get(chart_group)
        .and_then(|g| band(s, g, chart_group))
}

/// Each group's pod, without the band: every figure, and every chart but
/// the band.
pub fn pod_runs_unbanded(s: &Scenario) -> PodRuns {
    let n = windows_of(s.horizon_ms());
    let kubelet = s.model() == Semantics::Kubelet;
    let mut runs = PodRuns {
        groups: vec![],
        gc_at: vec![],
        per_window: vec![],
        band: None,
        requests: vec![],
        requests_per_window: vec![],
        spread_loads: SpreadLoads::default(),
    };
    for (i, g) in s.groups().iter().enumerate() {
        let run = pod_run(s, g, group_seed(s.spec().seed, i));
        let r = if s.restarts(i) {
            restarts_of(
                &run,
                Stepping {
                    shortcut: true,
                    syncs: kubelet,
                },
            )
        } else {
            Restarts::default()
        };
        let restarts = per_window(&r.at, n);
        let at = Rc::new(r.at);
        if kubelet {
            let syncs = (at.clone(), r.backoff_syncs, r.waiting_at);
            let requests = PodRequests::new(syncs, g.run_ms, s.horizon_ms(), s.running_seen(i));
            runs.requests_per_window
                .push(Rc::new(requests.per_window(n, &restarts)));
            runs.requests.push(Rc::new(requests));
        }
        runs.per_window.push(restarts);
        runs.groups.push((at, Rc::new(r.delays)));
        runs.gc_at.push(r.gc_at);
    }
    runs
}

/// The node over the horizon from its pods' runs. Lockstep pods are one
/// timeline times their count and spread pods a convolution over windows, so
/// the cost does not depend on the number of pods.
pub fn node_timeline(s: &Scenario, runs: &PodRuns) -> Timeline {
    let horizon = s.horizon_ms();
    let spec = s.spec();
    let per_restart = u64::from(spec.requests_per_restart);
    let windows = windows_of(horizon);
    let kubelet = s.model() == Semantics::Kubelet && runs.requests.len() == s.groups().len();
    // What is summed per window: restarts (KEP model), or each kind.
    let series = if kubelet { Kind::ALL.len() } else { 1 };
    let mut lockstep = vec![vec![0u64; windows]; series];
    // Spread groups' flow, when there are any.
    let mut spread: Option<Series> = None;
    let (mut status_bursts, mut event_bursts) =
        (limiter::Bursts::default(), limiter::Bursts::default());
    let mut groups = Vec::with_capacity(s.groups().len());
    let empty: RestartsAndWaits = Default::default();
    for (i, g) in s.groups().iter().enumerate() {
        let (at, _) = runs.groups.get(i).unwrap_or(&empty);
        let offsets = Offsets {
            pods: g.pods,
            spread_ms: g.spread_ms,
        };
        let counts = offsets.per_offset(windows);
        // Runs made for another horizon are binned again rather than misread.
        let add = |target: &mut [Vec<u64>]| {
            if kubelet {
                let req = &runs.requests[i];
                let kept = &runs.requests_per_window[i];
                let own: Cow<[Vec<u64>]> = if kept
                    .iter()
                    .zip(Kind::ALL)
                    .all(|(w, k)| w.len() == windows || k == Kind::PatchPodStatus)
                {
                    Cow::Borrowed(kept)
                } else {
                    Cow::Owned(req.per_window(windows, &per_window(at, windows)))
                };
                // PATCH pods/status is GET pods, one for one: summed once.
                let kinds = Kind::ALL.iter().enumerate();
                for (j, &k) in kinds.filter(|&(_, &k)| k != Kind::PatchPodStatus) {
                    let below = |t: Ms| req.below(k, t);
                    add_group_load((&below, &own[j]), &counts, horizon, &mut target[j]);
                }
            } else {
                let none = vec![];
                let own = binned(runs.per_window.get(i).unwrap_or(&none), windows, || {
                    per_window(at, windows)
                });
                let below = |t: Ms| at.count_below(t) as u64;
                add_group_load((&below, &own), &counts, horizon, &mut target[0]);
            }
        };
        if offsets.windows() == 0 {
            let pods = u64::from(g.pods);
            if kubelet {
                let req = &runs.requests[i];
                status_bursts.push(req.status_times(), 2 * pods);
                event_bursts.push(req.posts(), pods);
                event_bursts.push(req.patches(), pods);
            } else {
                status_bursts.push(at, pods * per_restart);
            }
            add(&mut lockstep);
        } else {
            let load = runs
                .spread_loads
                .get_or((i, g.pods, g.spread_ms, horizon), || {
                    let mut load = vec![vec![0; windows]; series];
                    add(&mut load);
                    load
                });
            let spread = spread.get_or_insert_with(|| vec![vec![0u64; windows]; series]);
            for (total, l) in spread.iter_mut().zip(load.iter()) {
                add_windows(total, l, false);
            }
        }
        groups.push(GroupTimeline {
            name: g.name.clone(),
            pods: g.pods,
            restarts: s.restarts(i),
            restarts_per_pod: at.len() as u64,
            restarts_all_pods: group_restarts_by(at, &counts, horizon - 1),
            restarts_all_pods_first5m: group_restarts_by(
                at,
                &counts,
                FIRST_MINUTES_MS.min(horizon - 1),
            ),
        });
    }
    let admit = |bursts: &limiter::Bursts, fluid: &[u64], (qps, burst): (u32, u32)| {
        limiter::admit(bursts, fluid, LOAD_WINDOW_MS, horizon, qps, burst)
    };
    let main_limits = (spec.kube_api_qps, spec.kube_api_burst);
    let (node_requests_per_window, api, requests, event_api) = if kubelet {
        let sum = |of: &[Vec<u64>], kinds: &[Kind]| {
            let lists: Vec<&[u64]> = kinds.iter().map(|&k| of[k as usize].as_slice()).collect();
            sum_windows(windows, &lists)
        };
        // PATCH pods/status is GET pods, one for one.
        let status = [Kind::GetPods, Kind::GetPods];
        let events = [Kind::PostEvents, Kind::PatchEvents];
        // No spread group: one list of no flow for both clients.
        let none = std::cell::OnceCell::new();
        let flow = |kinds: &[Kind]| -> Cow<[u64]> {
            match &spread {
                Some(spread) => Cow::Owned(sum(spread, kinds)),
                None => Cow::Borrowed(none.get_or_init(|| vec![0; windows])),
            }
        };
        let api = admit(&status_bursts, &flow(&status), main_limits);
        let event_limits = event_client_limits(spec.event_record_qps, spec.event_burst);
        let event_api = admit(&event_bursts, &flow(&events), event_limits);
        let mut kinds = lockstep;
        for (total, s) in kinds.iter_mut().zip(spread.iter().flatten()) {
            add_windows(total, s, false);
        }
        kinds[Kind::PatchPodStatus as usize] = kinds[Kind::GetPods as usize].clone();
        let offered: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.offered()).collect();
        let node = sum(&kinds, &offered);
        let pod = runs.requests.get(spec.chart_group);
        let totals = |by: Ms| pod.map(|p| p.totals_below(by)).unwrap_or_default();
        let mut requests = RequestsTimeline {
            window_ms: LOAD_WINDOW_MS,
            pod: totals(Ms::MAX),
            pod_first5m: totals(FIRST_MINUTES_MS),
            event_record_qps: spec.event_record_qps,
            event_burst: spec.event_burst,
            ..Default::default()
        };
        for (k, windows) in Kind::ALL.into_iter().zip(kinds) {
            *requests.windows_mut(k) = windows;
        }
        (node, api, Some(requests), Some(event_api))
    } else {
        // Restarts become requests in place: a day is 8,640 windows a list.
        let mut fluid = spread.map_or_else(|| vec![0; windows], |mut s| s.swap_remove(0));
        fluid.iter_mut().for_each(|n| *n *= per_restart);
        let mut node = lockstep.swap_remove(0);
        for (n, f) in node.iter_mut().zip(&fluid) {
            *n = *n * per_restart + f;
        }
        let api = admit(&status_bursts, &fluid, main_limits);
        (node, api, None, None)
    };
    let (restarts_at_ms, delays_ms) = runs
        .groups
        .get(spec.chart_group)
        .cloned()
        .unwrap_or_default();
    let gc_restarts_at_ms = runs
        .gc_at
        .get(spec.chart_group)
        .cloned()
        .unwrap_or_default();
    Timeline {
        restarts_at_ms,
        delays_ms,
        gc_restarts_at_ms,
        horizon_ms: horizon,
        pods: s.pods(),
        window_ms: LOAD_WINDOW_MS,
        requests_per_restart: per_restart,
        node_requests_per_window,
        api,
        requests,
        event_api,
        band: runs.band.clone(),
        groups,
    }
}

/// `have` if it is `windows` long (runs made for this horizon), else `make`'s.
fn binned(have: &[u64], windows: usize, make: impl Fn() -> Vec<u64>) -> Cow<'_, [u64]> {
    if have.len() == windows {
        Cow::Borrowed(have)
    } else {
        Cow::Owned(make())
    }
}

/// The node over the horizon.
pub fn simulate(s: &Scenario) -> Timeline {
    node_timeline(s, &pod_runs(s))
}

/// The scenario and today's default side by side, with the excess.
pub fn explore(scenario: &Scenario) -> Exploration {
    let reference = scenario.with_todays_default();
    explore_with(
        (scenario, &pod_runs(scenario)),
        (&reference, &pod_runs(&reference)),
    )
}

/// `explore` from runs already made: the scenario and today's default
/// (`scenario.with_todays_default()`), each with its runs.
pub fn explore_with(
    (scenario, runs): (&Scenario, &PodRuns),
    (todays_default, reference_runs): (&Scenario, &PodRuns),
) -> Exploration {
    exploration(
        scenario,
        Rc::new(node_timeline(scenario, runs)),
        Rc::new(node_timeline(todays_default, reference_runs)),
    )
}

/// The scenario's node timeline against today's default's, with the
/// summaries and the excess (timelines made elsewhere, e.g. cached).
pub fn exploration(
    scenario: &Scenario,
    timeline: Rc<Timeline>,
    reference: Rc<Timeline>,
) -> Exploration {
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

#[cfg(test)]
mod tests {
    use super::*;

    // The housekeeping pass runs on the clock's 2 s ticks, so a cap just over
    // the reset threshold is not periodic: 459 ms doubling to a 505,450 ms
    // cap, reset after 504,977 ms. After the restart at 3,466,823 the entry
    // expires past 3,971,800; the tick at 3,972,000 comes before the wait's
    // end (3,972,273), drops it, and the container starts then (a wait of
    // 505,177 ms). The waits before it missed a tick by where they fell.
    #[test]
    fn a_housekeeping_tick_breaks_the_period() {
        let backoff = EffectiveBackoff {
            initial_ms: 459,
            max_ms: 505_450,
            reset_after_ms: 504_977,
            schedule_ms: vec![],
            notes: vec![],
            warnings: vec![],
        };
        let run = PodRun {
            backoff: &backoff,
            run_ms: 0,
            horizon_ms: 3_972_001,
            model: Semantics::Kubelet,
            requeue: Requeue::Ideal,
            start_latency_ms: 0,
            seed: 7,
        };
        let r = pod_restarts_gc(&run);
        assert_eq!(r.at.to_vec()[16..], [3_466_823, 3_972_000]);
        assert_eq!(r.delays.to_vec()[16..], [505_450, 505_177]);
        assert_eq!(r.gc_at, [3_972_000]);
        assert_eq!(r, pod_restarts_stepwise(&run));
    }

    // 10 s windows: a restart on a boundary opens the next window, and the
    // last window takes every later one.
    #[test]
    fn restarts_per_window() {
        let at = Times::from(vec![0, 9_999, 10_000, 25_000, 25_001, 99_999_999]);
        assert_eq!(per_window(&at, 3), [2, 1, 3]);
        assert_eq!(per_window(&at, 1), [6]);
        assert_eq!(per_window(&Times::new(), 3), [0, 0, 0]);
        // A periodic tail counted by arithmetic: 4 s, then every 3 s from 8 s
        // to 35 s (8, 11, …, 35): windows [0, 10) hold 4, 8; [10, 20) 11,
        // 14, 17; [20, 30) 20, 23, 26, 29; the last 32, 35.
        let mut periodic = Times::from(vec![4_000]);
        periodic.repeat(8_000, 3_000, 10);
        assert_eq!(per_window(&periodic, 4), [2, 3, 4, 2]);
        assert_eq!(
            per_window(&periodic, 4),
            per_window(&Times::from(periodic.to_vec()), 4)
        );
    }

    // A spread group's load is kept with the runs: a node timeline after
    // another group's pods moved reads it back, and is the node made afresh;
    // the spread group's own pods moved are worked out again.
    #[test]
    fn spread_loads_are_kept_with_the_runs() {
        use crate::engine::ScenarioSpec;
        let scenario = |lockstep: u32, spread: u32| {
            Scenario::try_from(ScenarioSpec {
                initial_ms: Some(1_000),
                max_ms: Some(60_000),
                horizon_ms: 3_600_000,
                model: Semantics::Kep,
                groups: vec![
                    Group::crash_looping(lockstep, 0, 0),
                    Group::crash_looping(spread, 30_000, 600_000),
                ],
                ..Default::default()
            })
            .expect("valid")
        };
        let runs = pod_runs(&scenario(10, 50));
        let first = node_timeline(&scenario(10, 50), &runs);
        assert_eq!(format!("{:?}", runs.spread_loads), "SpreadLoads(1 kept)");
        for (lockstep, spread, kept) in [(20, 50, 1), (20, 70, 2), (10, 50, 2)] {
            let s = scenario(lockstep, spread);
            assert_eq!(node_timeline(&s, &runs), node_timeline(&s, &pod_runs(&s)));
            assert_eq!(
                format!("{:?}", runs.spread_loads),
                format!("SpreadLoads({kept} kept)")
            );
        }
        assert_eq!(node_timeline(&scenario(10, 50), &runs), first);
        assert_ne!(
            first.node_requests_per_window,
            node_timeline(&scenario(10, 70), &runs).node_requests_per_window
        );
    }

    #[test]
    fn offsets_are_whole_windows() {
        // 7 pods over 60 s (6 windows): 0, 0, 10, 20, 30, 40, 50 s.
        let o = Offsets {
            pods: 7,
            spread_ms: 60_000,
        };
        let starts: Vec<Ms> = (0..7).map(|i| o.offset(i)).collect();
        assert_eq!(starts, [0, 0, 10_000, 20_000, 30_000, 40_000, 50_000]);
        for y in [-1i64, 0, 9_999, 10_000, 45_000, 50_000, 99_999] {
            let brute = starts.iter().filter(|&&s| (s as i64) <= y).count() as u64;
            assert_eq!(o.started_by(y), brute, "{y}");
        }
        let lockstep = Offsets {
            pods: 7,
            spread_ms: 5_000,
        };
        assert_eq!((lockstep.windows(), lockstep.started_by(0)), (0, 7));
    }
}
