//! What the reducer keeps between moves: pod runs and node timelines,
//! found again by what they depend on.

use std::rc::Rc;

use crate::engine::cluster::{node_series, ClassSums, NodeSeries};
use crate::engine::kept::Kept;
use crate::engine::runs::{jitter_band, pod_runs_unbanded, wants_band};
use crate::engine::{node_timeline, pod_runs, PodKey, PodRuns, Scenario, Timeline};

/// Pod runs already made, by what they depend on: a slider that only changes
/// the node (pods, spread, API limits) reuses them, band and all, and a
/// slider dragged back and forth finds the runs of the stops it passed.
#[derive(Debug, Clone)]
pub struct RunCache {
    runs: Rc<std::cell::RefCell<Vec<Cached>>>,
    timelines: Rc<std::cell::RefCell<Kept<TimelineKey, Rc<Timeline>>>>,
}

type Cached = (PodKey, Rc<PodRuns>);
/// A node timeline's scenario and the very runs it was made from (held,
/// so that no other runs can take their address).
type TimelineKey = (Scenario, Rc<PodRuns>);

impl Default for RunCache {
    fn default() -> Self {
        RunCache {
            runs: Rc::default(),
            timelines: Rc::new(Kept::new(TIMELINES).into()),
        }
    }
}

/// Node timelines kept: the live one's recent stops, today's default and
/// up to three compared, which a curve slider leaves unchanged.
const TIMELINES: usize = 12;

/// What the cache may hold: a day at a 1 s cap is some 4 MB of runs, and
/// most scenarios a few KB.
const CACHE_BYTES: usize = 32 << 20;
const CACHE_ENTRIES: usize = 64;

impl RunCache {
    /// The node over the horizon from these runs; made again only when the
    /// scenario or its runs changed (a curve slider changes neither today's
    /// default nor the compared curves, each 3 ms at a day and a 1 s cap).
    pub fn timeline(&self, s: &Scenario, runs: &Rc<PodRuns>) -> Rc<Timeline> {
        self.timelines.borrow_mut().get_or(
            |(k, r)| Rc::ptr_eq(r, runs) && k == s,
            || ((s.clone(), runs.clone()), Rc::new(node_timeline(s, runs))),
        )
    }

    /// The runs; the band only if `band` asks for it or it was made before.
    pub fn get(&self, s: &Scenario, band: bool) -> Rc<PodRuns> {
        let key = s.pod_key();
        let mut cache = self.runs.borrow_mut();
        // Most recently used last; runs this cache let go but a node
        // timeline still holds are taken back, not made again.
        let kept = match cache.iter().position(|(k, _)| *k == key) {
            Some(i) => Some(cache.remove(i).1),
            None => self.held_by_a_timeline(&key),
        };
        let runs = match kept {
            Some(runs) if band && runs.band.is_none() && wants_band(s) => Rc::new(PodRuns {
                band: jitter_band(s),
                ..(*runs).clone()
            }),
            Some(runs) => runs,
            None if band => Rc::new(pod_runs(s)),
            None => Rc::new(pod_runs_unbanded(s)),
        };
        cache.push((key, runs.clone()));
        let mut bytes: usize = cache.iter().map(|(_, r)| r.bytes()).sum();
        while cache.len() > 1 && (bytes > CACHE_BYTES || cache.len() > CACHE_ENTRIES) {
            bytes -= cache.remove(0).1.bytes();
        }
        runs
    }

    /// Runs with this key that a kept node timeline was made from: held in
    /// memory anyway, so a slider dragged back over more stops than the
    /// byte limit keeps (a day at a 1 s cap: six initial stops of 5.4 MB)
    /// finds them.
    fn held_by_a_timeline(&self, key: &PodKey) -> Option<Rc<PodRuns>> {
        self.timelines
            .borrow()
            .iter()
            .rev()
            .find(|((s, _), _)| s.pod_key() == *key)
            .map(|((_, runs), _)| runs.clone())
    }
}

impl PartialEq for RunCache {
    /// Always equal, on purpose: a cache is not state. Two states that
    /// differ only in what they have cached show the same thing, so the
    /// reducer's and the components' comparisons must not tell them apart.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ScenarioSpec;

    fn with_seed(seed: u64) -> Scenario {
        Scenario::try_from(ScenarioSpec {
            seed,
            ..ScenarioSpec::default()
        })
        .unwrap_or_default()
    }

    #[test]
    fn the_run_cache_keeps_what_was_used_last() {
        let cache = RunCache::default();
        let first = cache.get(&with_seed(0), true);
        assert!(Rc::ptr_eq(&first, &cache.get(&with_seed(0), true)));
        // Fill the cache past its entry limit, touching the first one halfway.
        for seed in 1..CACHE_ENTRIES as u64 + 10 {
            cache.get(&with_seed(seed), true);
            if seed == CACHE_ENTRIES as u64 / 2 {
                cache.get(&with_seed(0), true);
            }
        }
        assert_eq!(cache.runs.borrow().len(), CACHE_ENTRIES);
        assert!(
            Rc::ptr_eq(&first, &cache.get(&with_seed(0), true)),
            "evicted while in use"
        );
        let held = |seed| {
            let key = with_seed(seed).pod_key();
            cache.runs.borrow().iter().any(|(k, _)| *k == key)
        };
        assert!(!held(1), "the least recently used goes first");
        assert!(held(CACHE_ENTRIES as u64 + 9));
    }

    #[test]
    fn runs_a_node_timeline_holds_are_taken_back_not_made_again() {
        let cache = RunCache::default();
        let first = cache.get(&with_seed(0), true);
        let node = cache.timeline(&with_seed(0), &first);
        // The runs cache lets the first runs go; the node timeline keeps them.
        for seed in 1..=CACHE_ENTRIES as u64 {
            cache.get(&with_seed(seed), true);
        }
        let key = with_seed(0).pod_key();
        assert!(!cache.runs.borrow().iter().any(|(k, _)| *k == key));
        let again = cache.get(&with_seed(0), true);
        assert!(Rc::ptr_eq(&first, &again), "the runs were made again");
        assert!(Rc::ptr_eq(&node, &cache.timeline(&with_seed(0), &again)));
    }
}

/// The cluster view's nodes already run, by scenario: moving a node count
/// or a spread, or a compared curve in and out, re-sums them instead of
/// running the kubelet again (a day at a 1 s cap is milliseconds a node).
#[derive(Debug, Clone)]
pub struct SeriesCache(
    Rc<std::cell::RefCell<Kept<Scenario, Rc<NodeSeries>>>>,
    SharedSums,
);

/// The classes' sums of those nodes, kept the same way (`ClassSums`).
pub type SharedSums = Rc<std::cell::RefCell<ClassSums>>;

/// Nodes kept: a few classes on the live curve, today's and the compared
/// ones, and a slider's recent stops (a day's series is some 70 KB).
const SERIES_ENTRIES: usize = 48;

impl Default for SeriesCache {
    fn default() -> Self {
        SeriesCache(
            Rc::new(Kept::new(SERIES_ENTRIES).into()),
            SharedSums::default(),
        )
    }
}

impl SeriesCache {
    pub fn series(&self, s: &Scenario) -> Rc<NodeSeries> {
        self.0
            .borrow_mut()
            .get_or(|k| k == s, || (s.clone(), Rc::new(node_series(s))))
    }

    /// The classes' sums kept beside the nodes.
    pub fn sums(&self) -> SharedSums {
        self.1.clone()
    }
}

impl PartialEq for SeriesCache {
    /// Always equal, as `RunCache` is: a cache is not state.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
