//! Load now: what a watched cluster's kubelets send the API server for
//! their crash loops, each node on its own kubelet's curve, summed and set
//! against the `system` priority level's seats as the cluster view sets
//! them. A node's looping pods are one workload on its kubelet (each
//! running as long as the median of their last runs, their starts spread),
//! run through the request model for `HORIZON_MS`; its rate is what its two
//! clients send per second over the next `STEADY_MS` from where its loops
//! are: from the run's restart as many restarts in as the median pod has
//! had on its curve (fresh loops restart often, and their events are not
//! yet held back by the spam filter), or, where the loops have come
//! further than the run or it is unknown, its last `STEADY_MS`, by when
//! they run at their cap. The busiest 10 s sums the nodes' windows each at
//! its own moment: shifted to where the node's next restart falls in that
//! stretch.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::rc::Rc;

use super::apf::{ApiServer, SYSTEM};
use super::backoff::Ms;
use super::config::{KubeletVersion, Semantics};
use super::kubelets::ClientLimits;
use super::live::Live;
use super::node::{node_admitted, sent_into};
use super::pod::{curve_wait, Epoch};
use super::requests::{CLIENT_GO_DEFAULT_BURST, CLIENT_GO_DEFAULT_QPS};
use super::runs::pod_runs_unbanded;
use super::scenario::{
    Group, Scenario, ScenarioSpec, BURST_RANGE, EVENT_LIMIT_RANGE, PODS_RANGE, QPS_RANGE,
    RUN_RANGE_MS,
};
use super::windows::LOAD_WINDOW_MS;

/// How long a node's crash loops are run: an hour reaches any cap.
pub const HORIZON_MS: Ms = 3_600_000;
/// The stretch of it the rate is read over.
pub const STEADY_MS: Ms = 600_000;
/// The windows of that stretch.
const STEADY_WINDOWS: usize = (STEADY_MS / LOAD_WINDOW_MS) as usize;
/// A node's pods crash at their own moments: their starts spread this long.
const SPREAD_MS: Ms = 300_000;
/// Runs are read to the second (the API's times are whole seconds).
const RUN_STEP_MS: Ms = 1_000;
/// Workloads kept: past this many the cache starts over.
const KEPT: usize = 4_096;

/// One node's crash loops and what its kubelet sends for them.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeLoad {
    /// Empty where the pods do not say their node.
    pub node: String,
    pub looping_pods: u32,
    pub requests_per_second: f64,
}

/// The cluster's crash loops, against the `system` level.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadNow {
    pub nodes: Vec<NodeLoad>,
    pub requests_per_second: f64,
    /// The level's nominal seats over all replicas.
    pub system_seats: u32,
    /// Seats busy at this rate over all replicas (each request holds one
    /// for `secondsPerRequest`).
    pub seats_busy: f64,
    /// The busiest `LOAD_WINDOW_MS` of the last `STEADY_MS`, the nodes'
    /// windows summed, each node's shifted to where its next restart falls
    /// in that stretch (nodes restarting together add up together), in
    /// requests a second; and its seats busy.
    pub peak_requests_per_second: f64,
    pub peak_seats_busy: f64,
    /// The API servers it was set against.
    pub api: ApiServer,
}

/// A node's workload as the request model reads it: its curve (initial,
/// maximum, reset), its kubelet, its looping pods and their run, its
/// clients' limits, and how many restarts its pods have had on the curve.
type Workload = (
    Ms,
    Ms,
    Ms,
    KubeletVersion,
    u32,
    Ms,
    ClientLimits,
    Option<u64>,
);

/// The rates already worked out, by workload: a watch asks on every
/// change, and most nodes' workloads stay the same.
#[derive(Debug, Default)]
pub struct LoadCache {
    rates: HashMap<Workload, Rc<NodeRate>>,
}

/// What a node's workload sends: its rate over `STEADY_MS`, and
/// each of that stretch's windows in requests a second.
#[derive(Debug)]
struct NodeRate {
    per_second: f64,
    windows: Vec<f64>,
}

/// A node's crash loops as a watch has them: its workload but for the
/// median run and restarts, its pods' last runs and restarts on the curve,
/// and its soonest next restart.
struct NodeLoops {
    node: String,
    workload: Workload,
    runs: Vec<Ms>,
    restarts: Vec<u64>,
    next: Option<Epoch>,
}

/// The load of `live`'s crash loops on `api`.
pub fn load_now(live: &Live, api: &ApiServer, cache: &mut LoadCache) -> LoadNow {
    let mut by_node: Vec<NodeLoops> = vec![];
    for p in live.pods() {
        let node = p.diagnosis_node().unwrap_or_default();
        let b = &live.assumption_of(p).backoff;
        let version = live.assumption_of(p).version;
        let limits = live.kubelet_of(p).map(|k| k.limits).unwrap_or_default();
        let looping = || p.diagnosis.containers.iter().filter(|c| c.looping());
        let runs = looping().filter_map(|c| c.run_ms);
        // A wait below the cap says where on the curve (restarts before a
        // reset are not on it); at the cap, the restart count says how
        // long it has been there.
        let restarts = looping().filter_map(|c| {
            let below_cap = c.backoff_ms.is_some_and(|w| w < b.max_ms);
            let on_curve = c
                .curve_step
                .filter(|_| below_cap)
                .map(|s| u64::from(s.saturating_sub(1)));
            match (c.restart_count, on_curve) {
                (Some(r), Some(s)) => Some(r.min(s)),
                (r, s) => r.or(s),
            }
        });
        let next = looping().filter_map(|c| c.next_restart_at).min();
        match by_node.iter_mut().find(|l| l.node == node) {
            Some(l) => {
                l.workload.4 += 1;
                l.runs.extend(runs);
                l.restarts.extend(restarts);
                l.next = l.next.into_iter().chain(next).min();
            }
            None => by_node.push(NodeLoops {
                node: node.to_owned(),
                workload: (
                    b.initial_ms,
                    b.max_ms,
                    b.reset_after_ms,
                    version,
                    1,
                    0,
                    limits,
                    None,
                ),
                runs: runs.collect(),
                restarts: restarts.collect(),
                next,
            }),
        }
    }
    let mut windows = vec![0.0; STEADY_WINDOWS];
    let nodes: Vec<NodeLoad> = by_node
        .into_iter()
        .map(|mut l| {
            let (node, next, mut w) = (l.node, l.next, l.workload);
            l.runs.sort_unstable();
            let median = l.runs.get(l.runs.len() / 2).copied().unwrap_or(0);
            w.5 = median / RUN_STEP_MS * RUN_STEP_MS;
            l.restarts.sort_unstable();
            // Past as many restarts as the run can hold before its last
            // stretch, that stretch is read: one workload, however far on.
            let within = restarts_by(w.0, w.1, w.5, HORIZON_MS - STEADY_MS);
            w.7 = l
                .restarts
                .get(l.restarts.len() / 2)
                .copied()
                .filter(|&r| r <= within);
            if cache.rates.len() >= KEPT && !cache.rates.contains_key(&w) {
                cache.rates.clear();
            }
            let rate = cache
                .rates
                .entry(w)
                .or_insert_with(|| Rc::new(node_rate(w)))
                .clone();
            // The node's windows from where its next restart falls in the
            // stretch: nodes whose loops restart together add up together,
            // others at their own moments.
            let phase = next.map_or(0, |t| {
                (t.rem_euclid(STEADY_MS as Epoch) as u64 / LOAD_WINDOW_MS) as usize
            });
            for (i, r) in rate.windows.iter().enumerate() {
                windows[(i + phase) % STEADY_WINDOWS] += r;
            }
            NodeLoad {
                node,
                looping_pods: w.4,
                requests_per_second: rate.per_second,
            }
        })
        .collect();
    let requests_per_second = nodes.iter().map(|n| n.requests_per_second).sum();
    let peak = windows.iter().copied().fold(0.0, f64::max);
    LoadNow {
        nodes,
        requests_per_second,
        system_seats: api.level(SYSTEM).nominal * api.replicas,
        seats_busy: requests_per_second * api.seconds_per_request,
        peak_requests_per_second: peak,
        peak_seats_busy: peak * api.seconds_per_request,
        api: api.clone(),
    }
}

/// The most restarts a pod running `run` each time can have made by `span`
/// on a curve from `initial` to `max`: each wait at its soonest (the
/// kubelet's jitter only lengthens them), the capped ones counted at once.
fn restarts_by(initial: Ms, max: Ms, run: Ms, span: Ms) -> u64 {
    let (mut at, mut n) = (0u64, 0u64);
    loop {
        let wait = curve_wait(initial, max, n + 1);
        // A curve that never grows (an initial of 0) is counted as capped.
        if wait >= max || wait == 0 {
            let cycle = (run + max).max(1);
            return n + span.saturating_sub(at) / cycle;
        }
        at += run + wait;
        if at > span {
            return n;
        }
        n += 1;
    }
}

/// What a node's clients send per second over `STEADY_MS` of its
/// workload, from its pods' restarts (see the module's comment). More pods
/// than a scenario holds are run at its most and scaled: lockstep-free pods
/// on one curve send in proportion.
fn node_rate((initial, max, reset, version, pods, run, limits, restarts): Workload) -> NodeRate {
    let ran = pods.min(*PODS_RANGE.end());
    // The kubelet hands a limit of 0 to client-go, which puts its own in;
    // one past the scenario's range never binds for one node's loops.
    let limit = |set: Option<u32>, zero: u32, default: u32, range: &RangeInclusive<u32>| match set {
        None => default,
        Some(0) => zero,
        Some(n) => n.clamp(*range.start(), *range.end()),
    };
    let defaults = ScenarioSpec::default();
    let spec = ScenarioSpec {
        initial_ms: Some(initial),
        max_ms: Some(max),
        reset_after_ms: Some(reset),
        groups: vec![Group::crash_looping(
            ran,
            run.min(*RUN_RANGE_MS.end()),
            SPREAD_MS,
        )],
        horizon_ms: HORIZON_MS,
        model: Semantics::Kubelet,
        kubelet_version: Some(version),
        band_seeds: 0,
        kube_api_qps: limit(
            limits.kube_api_qps,
            CLIENT_GO_DEFAULT_QPS,
            defaults.kube_api_qps,
            &QPS_RANGE,
        ),
        kube_api_burst: limit(
            limits.kube_api_burst,
            CLIENT_GO_DEFAULT_BURST,
            defaults.kube_api_burst,
            &BURST_RANGE,
        ),
        // The scenario reads an event limit of 0 as client-go's itself.
        event_record_qps: limit(
            limits.event_record_qps,
            0,
            defaults.event_record_qps,
            &EVENT_LIMIT_RANGE,
        ),
        event_burst: limit(
            limits.event_burst,
            0,
            defaults.event_burst,
            &EVENT_LIMIT_RANGE,
        ),
        ..defaults
    };
    let Ok(scenario) = Scenario::try_from(spec) else {
        return NodeRate {
            per_second: 0.0,
            windows: vec![],
        };
    };
    // Only what is sent is read: the limiters' stage alone, as the sweep
    // runs it (no offered windows by kind), and the first pod's restarts.
    let runs = pod_runs_unbanded(&scenario);
    let a = node_admitted(&scenario, &runs);
    let sent = sent_into(a.api.admitted_per_window, a.event_api.as_ref());
    let last = sent.len().saturating_sub(STEADY_WINDOWS);
    let from = match restarts {
        None => last,
        Some(0) => 0,
        Some(n) => runs
            .groups
            .first()
            .and_then(|(at, _)| at.get(n as usize - 1))
            .map_or(last, |at| ((at / LOAD_WINDOW_MS) as usize).min(last)),
    };
    let steady = &sent[from..from + STEADY_WINDOWS.min(sent.len() - from)];
    let scale = f64::from(pods) / f64::from(ran);
    NodeRate {
        per_second: steady.iter().sum::<u64>() as f64 * 1_000.0 / STEADY_MS as f64 * scale,
        windows: steady
            .iter()
            .map(|&w| w as f64 * 1_000.0 / LOAD_WINDOW_MS as f64 * scale)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::live::Change;
    use crate::engine::pod::{
        NodeAssumption, ObservedContainer, ObservedState, PodObservation, Terminated,
    };

    const AT: i64 = 1_763_632_800_000; // 2025-11-20T10:00:00Z

    /// A pod on `node`, its app waiting to restart after `restarts`
    /// restarts, its last run 10:00:00–10:00:00 (it exits at once).
    fn looping(name: &str, node: &str, restarts: u64) -> Change {
        looping_at(name, node, restarts, AT)
    }

    /// `looping`, its last run ending at `at`.
    fn looping_at(name: &str, node: &str, restarts: u64, at: i64) -> Change {
        Change::Put {
            key: name.into(),
            fingerprint: restarts,
            pod: Box::new(PodObservation {
                name: name.into(),
                namespace: "n".into(),
                node: Some(node.into()),
                containers: vec![ObservedContainer {
                    name: "app".into(),
                    restart_count: Some(restarts),
                    last_terminated: Some(Terminated {
                        exit_code: Some(1),
                        reason: "Error".into(),
                        started_at: Some(at),
                        finished_at: Some(at),
                    }),
                    state: ObservedState::Waiting {
                        reason: "CrashLoopBackOff".into(),
                        message: String::new(),
                    },
                    ..ObservedContainer::default()
                }],
                ..PodObservation::default()
            }),
            notes: vec![],
        }
    }

    /// Restarts far along a curve: more than an hour's run holds at a 30 s
    /// cap (some 100), so a node's last 600 s is read, at its cap.
    const FAR: u64 = 200;

    /// One pod exiting at once on kubelet 1.37 with a 30 s maximum
    /// (`/configz`): at its cap a restart lands 30 to 45 s after the exit
    /// (the expiry jittered 1.0–1.5×), 14 to 20 restarts in 600 s; each
    /// sends 2 status versions (Terminated, Waiting; a container that exits
    /// at once is not seen Running), a GET and a PATCH each: 56 to 80
    /// requests. Its events are past the spam filter's 25 a type by then:
    /// one a type (Normal, Warning) per 300 s, 4 in 600 s, give or take one
    /// a type at the edges: 2 to 6. So 58 to 86 requests: 0.096 to 0.144
    /// a second. Two such pods send twice one's (their starts spread), a
    /// node with none nothing; the cluster is the sum; 3 replicas of 74
    /// `system` seats, 20 ms a request. Its busiest 10 s: restarts 30 s
    /// or more apart put at most one cycle's 4 status requests and the 2
    /// events a window, 0.6 a second a pod: at most 1.8 for the three, and
    /// no less than their rate over the 600 s.
    #[test]
    fn a_nodes_crash_loops_at_their_cap_on_its_own_curve() {
        let mut live = nodes_on(&["node-b", "node-c"], THIRTY_SECONDS);
        live.apply(looping("b-0", "node-b", FAR), 0);
        live.apply(looping("c-0", "node-c", FAR), 0);
        live.apply(looping("c-1", "node-c", FAR), 0);
        let mut cache = LoadCache::default();
        let load = load_now(&live, &ApiServer::default(), &mut cache);
        let rate = |n: &str| {
            load.nodes
                .iter()
                .find(|l| l.node == n)
                .map(|l| (l.looping_pods, l.requests_per_second))
                .unwrap()
        };
        let (pods, one) = rate("node-b");
        assert_eq!(pods, 1);
        assert!((58.0 / 600.0..=86.0 / 600.0).contains(&one), "{one}");
        let (pods, two) = rate("node-c");
        assert_eq!(pods, 2);
        assert!((116.0 / 600.0..=172.0 / 600.0).contains(&two), "{two}");
        assert_eq!(load.requests_per_second, one + two);
        assert_eq!(load.system_seats, 222);
        assert_eq!(load.seats_busy, (one + two) * 0.02);
        let peak = load.peak_requests_per_second;
        assert!((one + two..=1.8).contains(&peak), "{peak}");
        assert_eq!(load.peak_seats_busy, peak * 0.02);
        // Worked out once per workload; further on still, the same ones
        // (past the 101 restarts an hour's run holds before its last 600 s).
        assert_eq!(cache.rates.len(), 2);
        live.apply(looping("b-0", "node-b", FAR + 7), 0);
        load_now(&live, &ApiServer::default(), &mut cache);
        assert_eq!(cache.rates.len(), 2);
    }

    /// Fresh loops send more than loops at their cap: on 1.37's defaults
    /// (10 s doubling to 300 s, each expiry jittered 1.0–1.5×) a pod that
    /// exits at once, in its first wait (no restart yet), restarts 5 times
    /// in the next 600 s (at 10, 30, 70, 150 and 310 s at the soonest, 15,
    /// 45, 105, 225 and 465 at the latest; the 6th past 600 s): at least 5
    /// × 4 status requests and a Started event each, 25; at most 6 exits'
    /// 2 status versions (24), 3 Normal events a start (18) and the spam
    /// filter's 25 Warning: 67. So 0.042 to 0.112 a second. The same pod
    /// far along (its cap: a restart each 300 to 450 s) restarts once or
    /// twice in 600 s: 4 to 8 status requests and 2 to 6 events past the
    /// filter, at most 0.024 a second.
    #[test]
    fn fresh_loops_send_more_than_loops_at_their_cap() {
        let rate = |restarts: u64| {
            let mut live = nodes_on(&["node-f"], r#"{"kubeletconfig":{}}"#);
            live.apply(looping("f-0", "node-f", restarts), 0);
            load_now(&live, &ApiServer::default(), &mut LoadCache::default()).requests_per_second
        };
        let fresh = rate(0);
        assert!((25.0 / 600.0..=67.0 / 600.0).contains(&fresh), "{fresh}");
        let far = rate(FAR);
        assert!(far <= 14.0 / 600.0, "{far}");
    }

    // 10 s doubling to 300 s, exiting at once: restarts at 10, 30, 70, 150
    // and 310 s, then every 300 s: 5 + 8 = 13 by 3,000 s (the last at
    // 2,710). Running 60 s each: 70, 150, 250, 390 and 610 s, then every
    // 360 s: 5 + 6 = 11 (the last at 2,770). A 30 s cap: 10 and 30 s, then
    // every 30 s: 2 + 99 = 101 (the last at 3,000). A 1 s cap from 1 s:
    // 3,000.
    #[test]
    fn restarts_a_run_holds() {
        assert_eq!(restarts_by(10_000, 300_000, 0, 3_000_000), 13);
        assert_eq!(restarts_by(10_000, 300_000, 60_000, 3_000_000), 11);
        assert_eq!(restarts_by(10_000, 30_000, 0, 3_000_000), 101);
        assert_eq!(restarts_by(1_000, 1_000, 0, 3_000_000), 3_000);
        // Degenerate curves end: no wait at all, or none that grows.
        assert_eq!(restarts_by(0, 0, 0, 3_000_000), 3_000_000);
        assert_eq!(restarts_by(0, 300_000, 0, 3_000_000), 10);
    }

    /// A 30 s maximum, as a kubelet's /configz says it.
    const THIRTY_SECONDS: &str =
        r#"{"kubeletconfig":{"crashLoopBackOff":{"maxContainerRestartPeriod":"30s"}}}"#;

    /// Nodes on kubelet 1.37, each configured as `configz` says.
    fn nodes_on(names: &[&str], configz: &str) -> Live {
        let mut live = Live::new(NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap());
        for node in names {
            live.apply(
                Change::Node {
                    name: (*node).into(),
                    kubelet_version: "v1.37.1".into(),
                },
                0,
            );
            let read = crate::formats::kubelet_config::from_configz(node, Ok(configz));
            live.apply(
                Change::NodeConfig {
                    name: (*node).into(),
                    kubelet_version: "v1.37.1".into(),
                    read,
                },
                0,
            );
        }
        live
    }

    /// Two nodes alike, one pod each (the first test's node-b). One node's
    /// busiest 10 s is a restart's 4 status requests and its 2 events
    /// (Normal and Warning, one a type per 300 s or more past the spam
    /// filter): 0.6 a second; its other windows hold at most a restart's
    /// 4 (0.4). Exiting at the same moment, their next restarts (30 s on)
    /// fall together: 1.2, twice one's. The second exiting 150 s later,
    /// its windows are 15 later, and no two event windows are 150 s apart:
    /// at most 0.6 + 0.4 = 1.0; and never less than their rate.
    #[test]
    fn nodes_add_up_at_their_own_moments() {
        let peak = |second_exit: Option<i64>| {
            let mut live = nodes_on(&["node-x", "node-y"], THIRTY_SECONDS);
            live.apply(looping_at("x-0", "node-x", FAR, AT), 0);
            if let Some(at) = second_exit {
                live.apply(looping_at("y-0", "node-y", FAR, at), 0);
            }
            let load = load_now(&live, &ApiServer::default(), &mut LoadCache::default());
            (load.peak_requests_per_second, load.requests_per_second)
        };
        let (one, _) = peak(None);
        assert_eq!(one, 0.6);
        let (together, _) = peak(Some(AT));
        assert_eq!(together, 1.2);
        let (apart, rate) = peak(Some(AT + 150_000));
        assert!(apart <= 1.0 + 1e-9, "{apart}");
        assert!(apart >= rate, "{apart} against {rate}");
    }

    /// A node's clients' limits come from its /configz. 110 pods exiting
    /// at once on a 30 s cap offer at least 110 × 14 restarts × 4 status
    /// requests in 600 s: 10.27 a second, under the default 50. With
    /// `kubeAPIQPS: 1` and `kubeAPIBurst: 1` the status client sends one a
    /// second (600, and the one token it may hold: 601), the events at most
    /// 3 a type (Normal, Warning) a pod in 600 s past the spam filter: 660.
    /// So 1.0 to 2.1 a second.
    #[test]
    fn a_nodes_own_client_limits_hold_its_load() {
        let rate = |configz: &str| {
            let mut live = nodes_on(&["node-q"], configz);
            for i in 0..110 {
                live.apply(looping(&format!("p-{i}"), "node-q", FAR), 0);
            }
            load_now(&live, &ApiServer::default(), &mut LoadCache::default()).requests_per_second
        };
        let free = rate(THIRTY_SECONDS);
        assert!(free >= 6_160.0 / 600.0, "{free}");
        let held = rate(
            r#"{"kubeletconfig":{"crashLoopBackOff":{"maxContainerRestartPeriod":"30s"},"kubeAPIQPS":1,"kubeAPIBurst":1}}"#,
        );
        assert!((1.0..=1_261.0 / 600.0).contains(&held), "{held}");
    }
}
