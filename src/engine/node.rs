//! The node over the horizon: its pods' windows summed (lockstep pods one
//! pod times their count, spread pods a convolution over offsets), the
//! streams handed to the kubelet's two client rate limiters (`limiter`), and
//! the `Timeline` every view reads.

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::Semantics;
use super::limiter::{self, ApiLoad, Flow, WaitsKept};
use super::requests::{event_client_limits, Kind, RequestsTimeline};
use super::runs::{pod_runs, Band, PodRuns, RestartsAndWaits, Series};
use super::scenario::Scenario;
use super::times::Times;
use super::windows::{
    add_windows, binned, per_window, restarts_in_windows, sum_windows, windows_of, zeroed,
    FIRST_MINUTES_MS, LOAD_WINDOW_MS,
};

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
        sent_per_window(&self.api, self.event_api.as_ref())
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

/// A node's pods summed, before its clients' rate limiters: each kind's
/// offered requests per window (restarts, KEP model), lockstep groups and
/// spread groups apart (spread groups reach the limiters as a flow per
/// window, lockstep groups as bursts at their times), and each group's
/// restarts.
pub struct NodeStreams<'a> {
    pub lockstep: Series,
    /// Spread groups' flow, when there are any.
    pub spread: Option<Series>,
    /// Lockstep groups' status requests (kubelet model: a GET and a PATCH
    /// per status version), or all their requests (KEP model).
    pub status_bursts: limiter::Bursts<'a>,
    /// Lockstep groups' events (kubelet model).
    pub event_bursts: limiter::Bursts<'a>,
    pub groups: Vec<GroupTimeline>,
}

/// Whether the runs carry the kubelet model's requests for every group.
fn has_requests(s: &Scenario, runs: &PodRuns) -> bool {
    s.model() == Semantics::Kubelet && runs.requests.len() == s.groups().len()
}

/// The node's pods summed per window from their runs. Lockstep pods are one
/// timeline times their count and spread pods a convolution over windows, so
/// the cost does not depend on the number of pods.
pub fn node_streams<'a>(s: &Scenario, runs: &'a PodRuns) -> NodeStreams<'a> {
    streams_of(s, runs, true)
}

/// `node_streams`, with lockstep groups' windows summed only if `offered`
/// (only the offered figures read them; the limiters take those groups as
/// bursts).
fn streams_of<'a>(s: &Scenario, runs: &'a PodRuns, offered: bool) -> NodeStreams<'a> {
    let horizon = s.horizon_ms();
    let per_restart = u64::from(s.spec().requests_per_restart);
    let windows = windows_of(horizon);
    let kubelet = has_requests(s, runs);
    // What is summed per window: restarts (KEP model), or each kind.
    let series = if kubelet { Kind::ALL.len() } else { 1 };
    let mut streams = NodeStreams {
        lockstep: if offered {
            zeroed(series, windows)
        } else {
            vec![]
        },
        spread: None,
        status_bursts: limiter::Bursts::default(),
        event_bursts: limiter::Bursts::default(),
        groups: Vec::with_capacity(s.groups().len()),
    };
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
                let own: Cow<[Vec<u64>]> = if kept.len() == Kind::ALL.len()
                    && kept
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
                streams.status_bursts.push(req.status_times(), 2 * pods);
                streams.event_bursts.push(req.posts(), pods);
                streams.event_bursts.push(req.patches(), pods);
            } else if let Some((at, _)) = runs.groups.get(i) {
                streams.status_bursts.push(at, pods * per_restart);
            }
            if offered {
                add(&mut streams.lockstep);
            }
        } else {
            let load = runs
                .spread_loads
                .get_or((i, g.pods, g.spread_ms, horizon), || {
                    let mut load = zeroed(series, windows);
                    add(&mut load);
                    load
                });
            let spread = streams
                .spread
                .get_or_insert_with(|| zeroed(series, windows));
            for (total, l) in spread.iter_mut().zip(load.iter()) {
                add_windows(total, l, false);
            }
        }
        streams.groups.push(GroupTimeline {
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
    streams
}

/// What the node offers and sends: its pods' streams (`node_streams`)
/// through the kubelet's clients' rate limiters, status through the main
/// client's (`kubeAPIQPS`), events through the event client's.
struct Limited {
    node_requests_per_window: Vec<u64>,
    api: ApiLoad,
    requests: Option<RequestsTimeline>,
    event_api: Option<ApiLoad>,
}

/// What the kubelet's clients let through: the status (or, KEP model,
/// every) request through the main client's limiter, events through the
/// event client's (kubelet model).
pub struct Admitted {
    pub api: ApiLoad,
    pub event_api: Option<ApiLoad>,
}

/// Requests sent in each window: the status client's admitted windows,
/// plus the event client's.
pub fn sent_per_window<'a>(status: &'a ApiLoad, events: Option<&ApiLoad>) -> Cow<'a, [u64]> {
    match events {
        Some(events) => Cow::Owned(sent_into(status.admitted_per_window.clone(), Some(events))),
        None => Cow::Borrowed(&status.admitted_per_window),
    }
}

/// `sent_per_window` into the status client's own list, where it is the
/// caller's to keep (the cluster's sweep: a day's list a value not copied).
pub fn sent_into(mut status: Vec<u64>, events: Option<&ApiLoad>) -> Vec<u64> {
    if let Some(events) = events {
        add_windows(&mut status, &events.admitted_per_window, false);
    }
    status
}

/// The node's clients' limiters alone, for what reads only what is sent
/// and the waits' totals (the cluster's sweep): no offered windows are
/// summed, and no window's waits kept (`WaitsKept::Totals`).
pub fn node_admitted(s: &Scenario, runs: &PodRuns) -> Admitted {
    admitted(s, runs, &streams_of(s, runs, false), WaitsKept::Totals)
}

/// The limiters' stage: the streams' bursts and the spread groups' flow
/// through each client's limiter.
fn admitted(s: &Scenario, runs: &PodRuns, streams: &NodeStreams<'_>, keep: WaitsKept) -> Admitted {
    let (horizon, spec) = (s.horizon_ms(), s.spec());
    let windows = windows_of(horizon);
    // No spread group: no flow.
    let admit = |bursts: &limiter::Bursts, fluid: Option<Vec<u64>>, limits: (u32, u32)| {
        let flow = match &fluid {
            Some(fluid) => Flow::PerWindow(fluid),
            None => Flow::Nothing { windows },
        };
        limiter::admit_keeping(bursts, flow, (LOAD_WINDOW_MS, horizon), limits, keep)
    };
    let main_limits = (spec.kube_api_qps, spec.kube_api_burst);
    let spread = streams.spread.as_ref();
    if !has_requests(s, runs) {
        return Admitted {
            api: admit(&streams.status_bursts, kep_flow(s, spread), main_limits),
            event_api: None,
        };
    }
    let flow = |kinds: &[Kind]| spread.map(|spread| sum_kinds(windows, spread, kinds));
    // PATCH pods/status is GET pods, one for one.
    let status = [Kind::GetPods, Kind::GetPods];
    let events = [Kind::PostEvents, Kind::PatchEvents];
    let event_limits = event_client_limits(spec.event_record_qps, spec.event_burst);
    Admitted {
        api: admit(&streams.status_bursts, flow(&status), main_limits),
        event_api: Some(admit(&streams.event_bursts, flow(&events), event_limits)),
    }
}

/// The KEP model's spread flow: its restarts, each `requests_per_restart`.
fn kep_flow(s: &Scenario, spread: Option<&Series>) -> Option<Vec<u64>> {
    let per_restart = u64::from(s.spec().requests_per_restart);
    let mut fluid = spread?[0].clone();
    fluid.iter_mut().for_each(|n| *n *= per_restart);
    Some(fluid)
}

/// Some kinds' windows summed.
fn sum_kinds(windows: usize, of: &[Vec<u64>], kinds: &[Kind]) -> Vec<u64> {
    let lists: Vec<&[u64]> = kinds.iter().map(|&k| of[k as usize].as_slice()).collect();
    sum_windows(windows, &lists)
}

fn limited(s: &Scenario, runs: &PodRuns, streams: NodeStreams<'_>) -> Limited {
    let (horizon, spec) = (s.horizon_ms(), s.spec());
    let windows = windows_of(horizon);
    let Admitted { api, event_api } = admitted(s, runs, &streams, WaitsKept::EveryWindow);
    let NodeStreams {
        lockstep, spread, ..
    } = streams;
    if !has_requests(s, runs) {
        // Restarts become requests in place: a day is 8,640 windows a list.
        let per_restart = u64::from(spec.requests_per_restart);
        let fluid = kep_flow(s, spread.as_ref()).unwrap_or_default();
        let mut lockstep = lockstep;
        let mut node = lockstep.swap_remove(0);
        for (w, n) in node.iter_mut().enumerate() {
            *n = *n * per_restart + fluid.get(w).copied().unwrap_or(0);
        }
        return Limited {
            api,
            node_requests_per_window: node,
            requests: None,
            event_api: None,
        };
    }
    let mut kinds = lockstep;
    for (total, s) in kinds.iter_mut().zip(spread.iter().flatten()) {
        add_windows(total, s, false);
    }
    kinds[Kind::PatchPodStatus as usize] = kinds[Kind::GetPods as usize].clone();
    let offered: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.offered()).collect();
    let node = sum_kinds(windows, &kinds, &offered);
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
    Limited {
        node_requests_per_window: node,
        api,
        requests: Some(requests),
        event_api,
    }
}

/// The node over the horizon from its pods' runs: a pipeline of the pods
/// summed (`node_streams`), then the limiters (`limited`), then the
/// charted pod's restarts beside them.
pub fn node_timeline(s: &Scenario, runs: &PodRuns) -> Timeline {
    let spec = s.spec();
    let mut streams = node_streams(s, runs);
    let groups = std::mem::take(&mut streams.groups);
    let Limited {
        node_requests_per_window,
        api,
        requests,
        event_api,
    } = limited(s, runs, streams);
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
        horizon_ms: s.horizon_ms(),
        pods: s.pods(),
        window_ms: LOAD_WINDOW_MS,
        requests_per_restart: u64::from(spec.requests_per_restart),
        node_requests_per_window,
        api,
        requests,
        event_api,
        band: runs.band.clone(),
        groups,
    }
}

/// The node over the horizon.
pub fn simulate(s: &Scenario) -> Timeline {
    node_timeline(s, &pod_runs(s))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    // A spread group's load is kept with the runs: a node timeline after
    // another group's pods moved reads it back, and is the node made afresh;
    // the spread group's own pods moved are worked out again.
    #[test]
    fn spread_loads_are_kept_with_the_runs() {
        use crate::engine::{Group, ScenarioSpec};
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
}
