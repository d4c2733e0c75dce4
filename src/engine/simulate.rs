//! A container crash-looping under a curve: the kubelet's pod worker
//! stepped restart by restart (backoff, requeue, the housekeeping GC), a
//! periodic tail kept as arithmetic, and the syncs the request model reads.

use super::backoff::{Backoff, ExpiryRule, Ms};
use super::config::{EffectiveBackoff, Semantics};
use super::rng::{Rng, SplitMix64};
use super::scenario::Requeue;
use super::schedule::{RestartBackoff, ScheduleBackoff};
use super::times::Times;

/// A backstop far above anything the validated ranges allow (24 h at 25 ms).
const MAX_RESTARTS: usize = 4_000_000;
/// The pod worker's recheck period before k/k#133066 (`backOffPeriod`).
pub const PERIODIC_RECHECK_MS: Ms = 10_000;
/// k/k#133066 clamps the requeue to at most a minute.
pub const MAX_REQUEUE_MS: Ms = 60_000;

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
pub(crate) struct Stepping {
    pub shortcut: bool,
    pub syncs: bool,
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
        // Stepped to the end (jitter, no periodic tail): room for the rest
        // at the second restart's pace, not grown by doubling (a day at a
        // 1 s cap is some 69,000 restarts a list).
        if at.len() == 2 && !shortcut {
            let rest = (p.horizon_ms - running) / (running - started).max(1);
            let room = usize::try_from(rest + rest / 10 + 16).unwrap_or(MAX_RESTARTS);
            let room = room.min(MAX_RESTARTS);
            at.reserve(room);
            delays.reserve(room);
            if record {
                // A BackOff sync at each exit and a Waiting status each wait.
                backoff_syncs.reserve(room);
                waiting_at.reserve(room);
            }
        }
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

pub(crate) fn restarts_of(p: &PodRun, how: Stepping) -> Restarts {
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
}
