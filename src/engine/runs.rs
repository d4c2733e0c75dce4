//! Each group's pod over the horizon: its restarts (`simulate`), its requests
//! by kind (`requests`) and both per load window, what the app caches by
//! `PodKey`; and the charted pod's jitter band over seeds.

use std::rc::Rc;

use super::backoff::Ms;
use super::config::{EffectiveBackoff, Semantics};
use super::requests::PodRequests;
use super::scenario::{Group, Requeue, Scenario};
use super::simulate::{pod_restarts, restarts_of, PodRun, Restarts, Stepping};
use super::times::Times;
use super::windows::{per_window, windows_of};
use serde::{Deserialize, Serialize};

/// Points on the band's time axis.
const BAND_SAMPLES: u64 = 240;

/// The band of a restart line over seeds: min and max restarts by each time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Band {
    pub seeds: u32,
    pub times_ms: Vec<Ms>,
    pub min: Vec<u64>,
    pub max: Vec<u64>,
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
pub(crate) type Series = Vec<Vec<u64>>;

/// Loads kept per runs, the most recent: a few groups' few pod counts.
const SPREAD_LOADS: usize = 4;

impl SpreadLoads {
    pub(crate) fn get_or(&self, key: SpreadKey, make: impl FnOnce() -> Series) -> Rc<Series> {
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
    runs_of(s, true)
}

/// Each group's pod without its windows (`per_window` and
/// `requests_per_window` left empty): what the node's limiters read
/// (`node::node_admitted`), for a sweep of many values.
pub fn pod_runs_unwindowed(s: &Scenario) -> PodRuns {
    runs_of(s, false)
}

fn runs_of(s: &Scenario, windowed: bool) -> PodRuns {
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
        let restarts = if windowed {
            per_window(&r.at, n)
        } else {
            vec![]
        };
        let at = Rc::new(r.at);
        if kubelet {
            let syncs = (at.clone(), r.backoff_syncs, r.waiting_at);
            let requests = PodRequests::new(syncs, g.run_ms, s.horizon_ms(), s.running_seen(i));
            runs.requests_per_window.push(Rc::new(if windowed {
                requests.per_window(n, &restarts)
            } else {
                vec![]
            }));
            runs.requests.push(Rc::new(requests));
        }
        runs.per_window.push(restarts);
        runs.groups.push((at, Rc::new(r.delays)));
        runs.gc_at.push(r.gc_at);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::requests::Kind;
    use crate::engine::{Group, ScenarioSpec};

    fn scenario(model: Semantics) -> Scenario {
        Scenario::try_from(ScenarioSpec {
            initial_ms: Some(10_000),
            max_ms: Some(40_000),
            horizon_ms: 60_000,
            model,
            requeue: Some(Requeue::Ideal),
            groups: vec![Group::crash_looping(3, 0, 0)],
            ..Default::default()
        })
        .expect("valid")
    }

    // The KEP model, 10 s doubling to 40 s, a container that exits at once,
    // a minute: it waits 10 s (restarts at 10 s), 20 s (30 s), then 40 s
    // (70 s, past the minute). In 10 s windows the restart at 10 s opens
    // the second window and the one at 30 s the fourth. No requests by kind.
    #[test]
    fn a_groups_pod_counted_per_window() {
        let kep = pod_runs(&scenario(Semantics::Kep));
        assert_eq!(kep.groups[0].0.to_vec(), [10_000, 30_000]);
        assert_eq!(kep.groups[0].1.to_vec(), [10_000, 20_000]);
        assert_eq!(kep.per_window, [vec![0, 1, 0, 1, 0, 0]]);
        assert!(kep.requests.is_empty() && kep.requests_per_window.is_empty());
    }

    // The kubelet model's runs carry each kind per window, PATCH pods/status
    // left empty (it is GET pods, one for one), and each kind's windows add
    // up to the pod's own count of it.
    #[test]
    fn a_kubelet_pod_has_its_requests_per_window() {
        let runs = pod_runs(&scenario(Semantics::Kubelet));
        let (req, windows) = (&runs.requests[0], &runs.requests_per_window[0]);
        for (k, w) in Kind::ALL.into_iter().zip(windows.iter()) {
            if k == Kind::PatchPodStatus {
                assert!(w.is_empty());
            } else {
                assert_eq!(w.len(), 6, "{k:?}");
                assert_eq!(w.iter().sum::<u64>(), req.below(k, Ms::MAX), "{k:?}");
            }
        }
        assert!(req.below(Kind::GetPods, Ms::MAX) > 0);
    }
}
