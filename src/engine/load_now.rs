//! Load now: what a watched cluster's kubelets send the API server for
//! their crash loops, each node on its own kubelet's curve, summed and set
//! against the `system` priority level's seats as the cluster view sets
//! them. A node's looping pods are one workload on its kubelet (each
//! running as long as the median of their last runs, their starts spread),
//! run through the request model for `HORIZON_MS`; its rate is what its two
//! clients sent per second over the last `STEADY_MS`, by when the loops
//! run at their cap: the rate crash loops settle at. The busiest 10 s sums
//! the nodes' windows each at its own moment: shifted to where the node's
//! next restart falls in that stretch.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::rc::Rc;

use super::apf::{ApiServer, SYSTEM};
use super::backoff::Ms;
use super::cluster::node_series;
use super::config::{KubeletVersion, Semantics};
use super::kubelets::ClientLimits;
use super::live::Live;
use super::pod::Epoch;
use super::requests::{CLIENT_GO_DEFAULT_BURST, CLIENT_GO_DEFAULT_QPS};
use super::scenario::{
    Group, Scenario, ScenarioSpec, BURST_RANGE, EVENT_LIMIT_RANGE, PODS_RANGE, QPS_RANGE,
    RUN_RANGE_MS,
};
use super::windows::LOAD_WINDOW_MS;

/// How long a node's crash loops are run: an hour reaches any cap.
pub const HORIZON_MS: Ms = 3_600_000;
/// The last stretch of it the rate is read over.
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
/// clients' limits.
type Workload = (Ms, Ms, Ms, KubeletVersion, u32, Ms, ClientLimits);

/// The rates already worked out, by workload: a watch asks on every
/// change, and most nodes' workloads stay the same.
#[derive(Debug, Default)]
pub struct LoadCache {
    rates: HashMap<Workload, Rc<NodeRate>>,
}

/// What a node's workload sends: its rate over the last `STEADY_MS`, and
/// each of that stretch's windows in requests a second.
#[derive(Debug)]
struct NodeRate {
    per_second: f64,
    windows: Vec<f64>,
}

/// The load of `live`'s crash loops on `api`.
pub fn load_now(live: &Live, api: &ApiServer, cache: &mut LoadCache) -> LoadNow {
    // Each node's curve, looping pods, their last runs, and its soonest
    // next restart.
    let mut by_node: Vec<(String, Workload, Vec<Ms>, Option<Epoch>)> = vec![];
    for p in live.pods() {
        let node = p.diagnosis_node().unwrap_or_default();
        let b = &live.assumption_of(p).backoff;
        let version = live.assumption_of(p).version;
        let limits = live.kubelet_of(p).map(|k| k.limits).unwrap_or_default();
        let looping = || p.diagnosis.containers.iter().filter(|c| c.looping());
        let runs = looping().filter_map(|c| c.run_ms);
        let next = looping().filter_map(|c| c.next_restart_at).min();
        match by_node.iter_mut().find(|(n, _, _, _)| n == node) {
            Some((_, w, r, soonest)) => {
                w.4 += 1;
                r.extend(runs);
                *soonest = soonest.iter().copied().chain(next).min();
            }
            None => by_node.push((
                node.to_owned(),
                (
                    b.initial_ms,
                    b.max_ms,
                    b.reset_after_ms,
                    version,
                    1,
                    0,
                    limits,
                ),
                runs.collect(),
                next,
            )),
        }
    }
    let mut windows = vec![0.0; STEADY_WINDOWS];
    let nodes: Vec<NodeLoad> = by_node
        .into_iter()
        .map(|(node, mut w, mut runs, next)| {
            runs.sort_unstable();
            let median = runs.get(runs.len() / 2).copied().unwrap_or(0);
            w.5 = median / RUN_STEP_MS * RUN_STEP_MS;
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

/// What a node's clients send per second over the last `STEADY_MS` of its
/// workload. More pods than a scenario holds are run at its most and
/// scaled: lockstep-free pods on one curve send in proportion.
fn node_rate((initial, max, reset, version, pods, run, limits): Workload) -> NodeRate {
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
    let sent = node_series(&scenario).sent.sent_per_window;
    let steady = &sent[sent.len().saturating_sub(STEADY_WINDOWS)..];
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
        live.apply(looping("b-0", "node-b", 20), 0);
        live.apply(looping("c-0", "node-c", 20), 0);
        live.apply(looping("c-1", "node-c", 20), 0);
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
        // Worked out once per workload.
        assert_eq!(cache.rates.len(), 2);
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
            live.apply(looping_at("x-0", "node-x", 20, AT), 0);
            if let Some(at) = second_exit {
                live.apply(looping_at("y-0", "node-y", 20, at), 0);
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
                live.apply(looping(&format!("p-{i}"), "node-q", 20), 0);
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
