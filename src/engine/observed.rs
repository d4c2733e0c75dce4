//! Proof that a node's curve is the one its crash loops follow: each run of a
//! container that a watch has seen, by the restart count it ran at (a
//! status's `lastState.terminated` is the run before its count, or the run
//! at it while it waits to restart; `state.running` or `state.terminated`
//! the run at it), the back-offs
//! between runs, and those set against a node's curve: agrees, disagrees
//! (and which known curve they fit instead), or too few seen yet.

use std::collections::BTreeMap;

use super::duration::format_human_ms;
use super::pod::{
    curve_wait, requeue_lag, Epoch, NodeAssumption, ObservedContainer, ObservedState,
};
use super::Ms;

/// Runs kept per container: the newest; a verdict needs only a few, and a
/// watch of 10,000 pods keeps them all.
const KEPT_RUNS: usize = 8;

/// Back-offs needed for a verdict: the first restart waits nothing on
/// every curve, so one more than it.
pub const BACKOFFS_NEEDED: usize = 2;

/// How much later than the curve a restart may start and still follow it:
/// PLEG's relist (1 s) sees the exit, the container is created and started,
/// and the API's times are whole seconds. The pod worker's own lag is
/// the version's (`pod::requeue_lag`).
const START_SLACK_MS: Ms = 5_000;

/// How much earlier: two times in whole seconds.
const EARLY_SLACK_MS: Ms = 1_000;

/// What the API reported of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Run {
    started: Option<Epoch>,
    finished: Option<Epoch>,
}

/// One container's runs, as a watch saw them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeenRuns {
    runs: BTreeMap<u64, Run>,
}

/// The wait before one restart: `restart` is the restart count the run
/// after it began with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObservedBackoff {
    pub restart: u64,
    pub wait_ms: Ms,
    /// How long the run before it lasted.
    pub run_before_ms: Ms,
}

impl SeenRuns {
    /// Takes in what one status says of the container.
    pub fn observe(&mut self, c: &ObservedContainer) {
        let Some(count) = c.restart_count else {
            return;
        };
        let mut note = |index: u64, started: Option<Epoch>, finished: Option<Epoch>| {
            let run = self.runs.entry(index).or_default();
            run.started = started.or(run.started);
            run.finished = finished.or(run.finished);
        };
        // A container the kubelet will start again is Waiting, the run that
        // exited moved to its lastState: the run at its count. Running or
        // just exited, its lastState is the run before (pkg/kubelet/
        // kubelet_pods.go, `convertToAPIContainerStatuses`).
        let last = match c.state {
            ObservedState::Waiting { .. } => Some(count),
            _ => count.checked_sub(1),
        };
        if let (Some(t), Some(index)) = (&c.last_terminated, last) {
            note(index, t.started_at, t.finished_at);
        }
        match &c.state {
            ObservedState::Running { started_at } => note(count, *started_at, None),
            ObservedState::Terminated(t) => note(count, t.started_at, t.finished_at),
            _ => {}
        }
        while self.runs.len() > KEPT_RUNS {
            self.runs.pop_first();
        }
    }

    /// Takes in the runs another watch saw of the same container.
    pub fn merge(&mut self, other: &SeenRuns) {
        for (&k, run) in &other.runs {
            let mine = self.runs.entry(k).or_default();
            mine.started = mine.started.or(run.started);
            mine.finished = mine.finished.or(run.finished);
        }
        while self.runs.len() > KEPT_RUNS {
            self.runs.pop_first();
        }
    }

    /// The back-offs between runs seen one after the other.
    pub fn backoffs(&self) -> Vec<ObservedBackoff> {
        self.runs
            .iter()
            .zip(self.runs.iter().skip(1))
            .filter_map(|((&k, before), (&next, after))| {
                let (start, end, began) = (before.started?, before.finished?, after.started?);
                (next == k + 1 && began >= end && end >= start).then(|| ObservedBackoff {
                    restart: next,
                    wait_ms: (began - end) as Ms,
                    run_before_ms: (end - start) as Ms,
                })
            })
            .collect()
    }
}

/// A verdict on a node's curve from the back-offs seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// `None`: too few back-offs seen yet.
    pub agrees: Option<bool>,
    pub observed_ms: Vec<Ms>,
    pub expected_ms: Vec<Ms>,
    pub note: String,
}

/// Curves a node may follow instead of the one it is said to run: (initial,
/// maximum, what sets it).
const KNOWN_CURVES: [(Ms, Ms, &str); 3] = [
    (
        10_000,
        300_000,
        "the shipped defaults before KEP-4603 (10 s / 5 min)",
    ),
    (
        1_000,
        60_000,
        "ReduceDefaultCrashLoopBackOffDecay on with a 1 min maximum (1 s / 1 min)",
    ),
    (
        1_000,
        300_000,
        "ReduceDefaultCrashLoopBackOffDecay on (1 s / 5 min)",
    ),
];

/// Whether `seen` follows the curve (`initial`, `max`) on `node`'s timing.
fn follows(seen: &[ObservedBackoff], initial: Ms, max: Ms, node: &NodeAssumption) -> bool {
    seen.iter().all(|b| {
        let expected = curve_wait(initial, max, b.restart - 1);
        let late = requeue_lag(node.version, expected) + START_SLACK_MS;
        b.wait_ms + EARLY_SLACK_MS >= expected && b.wait_ms <= expected + late
    })
}

fn listed(waits: &[Ms]) -> String {
    waits
        .iter()
        .map(|&w| format_human_ms(w))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The back-offs seen against `node`'s curve. The kubelet's wait runs from
/// the run's `finishedAt`, and the first exit, with no back-off entry yet,
/// restarts at once (pkg/kubelet/kuberuntime/kuberuntime_manager.go,
/// `doBackOff`). Restarts after a run past the curve's reset (the kubelet
/// starts it over) and the first restart say nothing of the curve and are
/// left out.
pub fn judge(seen: &[ObservedBackoff], node: &NodeAssumption) -> Judgement {
    let b = &node.backoff;
    let telling: Vec<ObservedBackoff> = seen
        .iter()
        .copied()
        .filter(|s| s.restart >= 2 && s.run_before_ms < b.reset_after_ms)
        .collect();
    let observed_ms: Vec<Ms> = telling.iter().map(|s| s.wait_ms).collect();
    let expected_ms: Vec<Ms> = telling
        .iter()
        .map(|s| curve_wait(b.initial_ms, b.max_ms, s.restart - 1))
        .collect();
    if telling.len() < BACKOFFS_NEEDED {
        return Judgement {
            agrees: None,
            note: format!(
                "not enough restarts seen yet: {} back-off{} of the {BACKOFFS_NEEDED} a verdict needs",
                telling.len(),
                if telling.len() == 1 { "" } else { "s" }
            ),
            observed_ms,
            expected_ms,
        };
    }
    if follows(&telling, b.initial_ms, b.max_ms, node) {
        return Judgement {
            agrees: Some(true),
            note: format!(
                "agrees: {} seen, as {} waits",
                listed(&observed_ms),
                node.label
            ),
            observed_ms,
            expected_ms,
        };
    }
    // The curves it may follow instead: the known ones, and the node's own
    // initial with the longest wait seen as its maximum.
    let longest = observed_ms.iter().copied().max().unwrap_or(0);
    let capped = format!(
        "a {} maximum (crashLoopBackOff.maxContainerRestartPeriod)",
        format_human_ms(longest)
    );
    let instead = KNOWN_CURVES
        .iter()
        .map(|&(i, m, what)| (i, m, what.to_owned()))
        .chain(std::iter::once((b.initial_ms, longest, capped)))
        .filter(|&(i, m, _)| (i, m) != (b.initial_ms, b.max_ms))
        .find(|(i, m, _)| follows(&telling, *i, *m, node))
        .map_or("no curve this tool knows".to_owned(), |(_, _, what)| what);
    Judgement {
        agrees: Some(false),
        note: format!(
            "disagrees: {} seen where {} waits {}; they fit {instead}",
            listed(&observed_ms),
            node.label,
            listed(&expected_ms)
        ),
        observed_ms,
        expected_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{KubeletConfig, KubeletVersion};
    use crate::engine::pod::Terminated;

    const S: Epoch = 1_000;

    fn ended(started: Epoch, finished: Epoch) -> Terminated {
        Terminated {
            exit_code: Some(1),
            reason: "Error".into(),
            started_at: Some(started * S),
            finished_at: Some(finished * S),
        }
    }

    /// A container as a status shows it: its count, its last run, its state.
    fn status(
        count: u64,
        last: Option<(Epoch, Epoch)>,
        running_since: Option<Epoch>,
    ) -> ObservedContainer {
        ObservedContainer {
            name: "app".into(),
            restart_count: Some(count),
            last_terminated: last.map(|(a, b)| ended(a, b)),
            state: match running_since {
                Some(t) => ObservedState::Running {
                    started_at: Some(t * S),
                },
                None => ObservedState::Waiting {
                    reason: "CrashLoopBackOff".into(),
                    message: String::new(),
                },
            },
            ..ObservedContainer::default()
        }
    }

    /// Runs of 3 s: the first restart at once, then waits of 10, 20 and
    /// 40 s (seconds from the first start): run 0 0–3, run 1 3–6, run 2
    /// 16–19, run 3 39–42, run 4 from 82. Run 3 is seen running, then
    /// waiting to restart with itself as its lastState.
    fn doubling_from_10s() -> SeenRuns {
        let mut seen = SeenRuns::default();
        for c in [
            status(1, Some((0, 3)), Some(3)),
            status(2, Some((3, 6)), Some(16)),
            status(3, Some((16, 19)), Some(39)),
            status(3, Some((39, 42)), None),
            status(4, Some((39, 42)), Some(82)),
        ] {
            seen.observe(&c);
        }
        seen
    }

    fn node(config: Option<&str>) -> NodeAssumption {
        let c: Option<KubeletConfig> = config.map(|c| serde_json::from_str(c).unwrap());
        NodeAssumption::new(KubeletVersion::V1_37, c.as_ref(), "with its /configz").unwrap()
    }

    #[test]
    fn back_offs_are_the_gaps_between_runs_seen() {
        let waits: Vec<(u64, Ms)> = doubling_from_10s()
            .backoffs()
            .iter()
            .map(|b| (b.restart, b.wait_ms))
            .collect();
        // 3 − 3, 16 − 6, 39 − 19, 82 − 42.
        assert_eq!(waits, [(1, 0), (2, 10_000), (3, 20_000), (4, 40_000)]);
    }

    #[test]
    fn the_shipped_curve_agrees_with_a_doubling_from_10s() {
        // 1.37's shipped defaults: 10 s · 2^(n−1) before restart n + 1.
        let j = judge(&doubling_from_10s().backoffs(), &node(None));
        assert_eq!(j.agrees, Some(true), "{}", j.note);
        assert_eq!(j.observed_ms, [10_000, 20_000, 40_000]);
        assert_eq!(j.expected_ms, [10_000, 20_000, 40_000]);
    }

    #[test]
    fn a_30s_maximum_disagrees_and_the_curve_it_fits_is_named() {
        let mut seen = doubling_from_10s();
        // Run 4 82–85, then 80 s: run 5 from 165.
        seen.observe(&status(5, Some((82, 85)), Some(165)));
        let n = node(Some(
            r#"{"crashLoopBackOff":{"maxContainerRestartPeriod":"30s"}}"#,
        ));
        let j = judge(&seen.backoffs(), &n);
        // 10, 20, 30, 30 s expected: 80 s is past 30 s and the pod worker's
        // latest (30 s + 15 s + 5 s).
        assert_eq!(j.expected_ms, [10_000, 20_000, 30_000, 30_000]);
        disagrees_and_fits(&j, "the shipped defaults before KEP-4603 (10 s / 5 min)");
    }

    fn disagrees_and_fits(j: &Judgement, curve: &str) {
        assert_eq!(j.agrees, Some(false));
        assert!(j.note.ends_with(&format!("they fit {curve}")), "{}", j.note);
    }

    #[test]
    fn a_node_that_caps_where_its_configuration_does_not_is_named_by_its_cap() {
        // 10, 20, 30, 30 s seen on a node said to run the shipped 5 min.
        let mut seen = SeenRuns::default();
        for c in [
            status(1, Some((0, 3)), Some(3)),
            status(2, Some((3, 6)), Some(16)),
            status(3, Some((16, 19)), Some(39)),
            status(4, Some((39, 42)), Some(72)),
            status(5, Some((72, 75)), Some(105)),
        ] {
            seen.observe(&c);
        }
        let j = judge(&seen.backoffs(), &node(None));
        // The shipped curve waits 80 s before restart 5: 30 s is too early.
        disagrees_and_fits(
            &j,
            "a 30 s maximum (crashLoopBackOff.maxContainerRestartPeriod)",
        );
    }

    #[test]
    fn too_few_restarts_or_a_reset_give_no_verdict() {
        let mut seen = SeenRuns::default();
        seen.observe(&status(2, Some((3, 6)), Some(16)));
        // One pair of runs: restart 2's 10 s.
        let j = judge(&seen.backoffs(), &node(None));
        assert_eq!(j.agrees, None);
        assert_eq!(
            j.note,
            "not enough restarts seen yet: 1 back-off of the 2 a verdict needs"
        );
        // Run 2 lasts 700 s, past the 10 min reset: the wait after it says
        // nothing of the curve; restart 4's 20 s is alone again.
        let mut reset = SeenRuns::default();
        reset.observe(&status(3, Some((16, 716)), Some(723)));
        reset.observe(&status(4, Some((723, 726)), Some(746)));
        let waits: Vec<(u64, Ms)> = reset
            .backoffs()
            .iter()
            .map(|b| (b.restart, b.wait_ms))
            .collect();
        assert_eq!(waits, [(3, 7_000), (4, 20_000)]);
        assert_eq!(judge(&reset.backoffs(), &node(None)).agrees, None);
    }

    /// A crash loop as the kubelet reports it, every status seen: running,
    /// waiting to restart (the run that exited its lastState, at the same
    /// count), running again. Runs of 3 s on the shipped curve: run 1 3–6,
    /// run 2 16–19 (10 s), run 3 39–42 (20 s).
    #[test]
    fn a_waiting_status_shows_the_run_at_its_count() {
        let mut seen = SeenRuns::default();
        for c in [
            status(1, Some((0, 3)), Some(3)),
            status(1, Some((3, 6)), None),
            status(2, Some((3, 6)), Some(16)),
            status(2, Some((16, 19)), None),
            status(3, Some((16, 19)), Some(39)),
            status(3, Some((39, 42)), None),
        ] {
            seen.observe(&c);
        }
        let waits: Vec<(u64, Ms)> = seen
            .backoffs()
            .iter()
            .map(|b| (b.restart, b.wait_ms))
            .collect();
        assert_eq!(waits, [(1, 0), (2, 10_000), (3, 20_000)]);
        assert_eq!(judge(&seen.backoffs(), &node(None)).agrees, Some(true));
    }
}
