//! From one node to the cluster: API Priority and Fairness seats, classes
//! of nodes summed, the recommendation sweep and its snippets, with numbers
//! worked out by hand.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::apf::{seats, ApiServer};
use crashloop_explorer::engine::cluster::{
    evaluate, evaluate_by, node_series, recommend, snippets, ClassSums, Cluster, Constraints,
    NodeClass,
};
use crashloop_explorer::engine::{Scenario, ScenarioSpec};

fn class(nodes: u32, spec: ScenarioSpec, spread_ms: u64) -> NodeClass {
    NodeClass {
        name: "pool".into(),
        nodes,
        scenario: Scenario::try_from(spec).expect("valid"),
        spread_ms,
    }
}

fn cluster(classes: Vec<NodeClass>) -> Cluster {
    Cluster {
        node_classes: classes,
        api_server: ApiServer::default(),
        other_nodes: 0,
    }
}

#[test]
fn the_system_level_gets_its_share_of_the_servers_seats() {
    // 400 + 200 = 600 seats; shares 30 of 245: ceil(600 · 30 / 245) =
    // ceil(73.47) = 74; 33 % lendable: round(24.42) = 24. The others lend
    // node-high round(98 · .25 = 24.5) = 25, workload-high round(98 · .5) =
    // 49, workload-low round(245 · .9 = 220.5) = 221, global-default
    // round(49 · .5 = 24.5) = 25, leader-election and catch-all 0: 320.
    let s = seats(600);
    let system = &s[0];
    assert_eq!(
        (
            system.name.as_str(),
            system.nominal,
            system.lendable,
            system.borrowable
        ),
        ("system", 74, 24, 320)
    );
    let nominal: Vec<u32> = s.iter().map(|l| l.nominal).collect();
    assert_eq!(nominal, vec![74, 98, 25, 98, 245, 49, 13]);
    // 800 + 400: ceil(1200 · 30 / 245) = ceil(146.94) = 147, lendable round(48.51) = 49.
    let s = seats(1_200);
    assert_eq!((s[0].nominal, s[0].lendable), (147, 49));
    // Three replicas: 3 × 74 seats.
    let one = cluster(vec![class(1, ScenarioSpec::default(), 0)]);
    assert_eq!(evaluate(&one).system_seats, 222);
}

#[test]
fn a_class_of_n_nodes_is_n_times_its_node() {
    let spec = ScenarioSpec {
        pods: Some(10),
        ..ScenarioSpec::default()
    };
    let one = evaluate(&cluster(vec![class(1, spec.clone(), 0)]));
    let many = evaluate(&cluster(vec![class(5_000, spec.clone(), 0)]));
    let times: Vec<u64> = one.requests_per_window.iter().map(|r| r * 5_000).collect();
    assert_eq!(many.requests_per_window, times);
    assert_eq!(
        many.peak_requests_per_second,
        one.peak_requests_per_second * 5_000.0
    );
    // Peak requests per second × 0.02 s each.
    assert!((many.peak_seats_busy - many.peak_requests_per_second * 0.02).abs() < 1e-9);
    // Leases: 5,000 nodes × 0.1 per second, on node-high.
    assert_eq!(many.lease_requests_per_second, 500.0);
    // Two classes add up.
    let both = evaluate(&cluster(vec![
        class(1, spec.clone(), 0),
        class(4_999, spec, 0),
    ]));
    assert_eq!(both.requests_per_window, many.requests_per_window);
}

#[test]
fn a_spread_rollout_is_the_node_averaged_over_the_spread() {
    let spec = ScenarioSpec {
        pods: Some(1),
        ..ScenarioSpec::default()
    };
    let node = evaluate(&cluster(vec![class(1, spec.clone(), 0)])).requests_per_window;
    // 6 nodes over 30 s (3 windows): window w carries
    // (node[w] + node[w−1] + node[w−2]) · 6 / 3.
    let spread = evaluate(&cluster(vec![class(6, spec, 30_000)])).requests_per_window;
    assert_eq!(spread.len(), node.len() + 2);
    for (w, &got) in spread.iter().enumerate() {
        let sum: u64 = (0..3)
            .filter_map(|j| w.checked_sub(j).and_then(|i| node.get(i)))
            .sum();
        assert_eq!(got, sum * 6 / 3, "window {w}");
    }
}

#[test]
fn class_sums_kept_from_move_to_move_give_the_fresh_answer() {
    use std::rc::Rc;
    let spec = ScenarioSpec {
        pods: Some(1),
        ..ScenarioSpec::default()
    };
    let node = Rc::new(node_series(
        &Scenario::try_from(spec.clone()).expect("valid"),
    ));
    // One node series for every class, as the view's cache gives it.
    let same = |_: &Scenario| node.clone();
    let mut sums = ClassSums::default();
    // A class at once and one spread over 30 s (3 windows); then the first
    // class's node count moved, and moved back.
    for first in [4, 6, 4] {
        let c = cluster(vec![
            class(first, spec.clone(), 0),
            class(6, spec.clone(), 30_000),
        ]);
        assert_eq!(
            evaluate_by(&c, same, &mut sums),
            evaluate(&c),
            "{first} nodes"
        );
    }
    // Another move of the first class: the spread class's sum is the one
    // kept, not made again (a new one would be found first).
    let len = node.sent.sent_per_window.len() + 2;
    let kept = sums.get(&node, 6, 3, len);
    let moved = cluster(vec![class(5, spec.clone(), 0), class(6, spec, 30_000)]);
    evaluate_by(&moved, same, &mut sums);
    assert!(Rc::ptr_eq(&kept, &sums.get(&node, 6, 3, len)));
    // Window 1 carries (node[1] + node[0]) · 6 / 3.
    let w = &node.sent.sent_per_window;
    assert_eq!(kept[1], (w[0] + w[1]) * 6 / 3);
    // Another count is another sum.
    assert_eq!(sums.get(&node, 3, 3, len)[1], w[0] + w[1]);
}

#[test]
fn a_kubelet_limiter_that_binds_is_named() {
    // 110 pods restarting together, 5 requests each, against 1 request per
    // second with a burst of 1: the limiter holds them back.
    let spec = ScenarioSpec {
        pods: Some(110),
        kube_api_qps: 1,
        kube_api_burst: 1,
        ..ScenarioSpec::default()
    };
    let r = evaluate(&cluster(vec![class(10, spec, 0)]));
    assert!(r.classes[0].limiter_binds);
    assert!(r.notes.iter().any(|n| n.contains("client rate limiter")));
}

#[test]
fn the_feasible_range_of_a_restart_goal() {
    let c = cluster(vec![class(100, ScenarioSpec::default(), 0)]);
    // After 5 crashes in a row the curve waits min(10 s · 2⁴ = 160 s, max):
    // within 60 s exactly when max ≤ 60 s. Nothing else is asked: every
    // value from 1 s to 60 s holds; the least load is the largest, 60 s.
    let want = Constraints {
        crashes: 5,
        restart_within_ms: Some(60_000),
        no_limiter_binds: false,
        max_system_busy_percent: None,
        reduce_default_decay: false,
    };
    let r = recommend(&c, &want);
    assert_eq!(r.feasible_ms, Some((1_000, 60_000)));
    assert_eq!(r.recommended_ms, Some(60_000));
    let at = |ms| r.candidates.iter().find(|c| c.max_ms == ms).unwrap();
    assert_eq!((at(60_000).wait_ms, at(65_000).wait_ms), (60_000, 65_000));
    assert!(!at(65_000).restart_ok);
    // With a 1 s initial the 5th wait is 16 s: every value holds.
    let r = recommend(
        &c,
        &Constraints {
            reduce_default_decay: true,
            ..want.clone()
        },
    );
    assert_eq!(r.feasible_ms, Some((1_000, 300_000)));
    // A busy share no value meets: none, and it says so.
    let r = recommend(
        &c,
        &Constraints {
            max_system_busy_percent: Some(0.0),
            ..want
        },
    );
    assert_eq!(r.feasible_ms, None);
    assert!(r.notes[0].starts_with("no value from 1 s to 5 min"));
}

#[test]
fn the_snippets_name_each_platforms_fields() {
    let s = snippets(60_000, false);
    assert_eq!(
        s[0].text.as_deref(),
        Some("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KubeletCrashLoopBackOffMax: true\ncrashLoopBackOff:\n  maxContainerRestartPeriod: \"1m0s\"\n")
    );
    assert_eq!(
        s[1].text.as_deref(),
        Some("{\n  \"kubeletConfig\": {\n    \"crashLoopBackOff\": {\n      \"maxContainerRestartPeriod\": \"1m0s\"\n    }\n  }\n}\n")
    );
    assert_eq!(
        s[2].text.as_deref(),
        Some("node_config {\n  kubelet_config {\n    crash_loop_back_off {\n      max_container_restart_period = \"1m0s\"\n    }\n  }\n}\n")
    );
    // kOps: no field found, so no snippet.
    assert_eq!(
        (s[3].platform.as_str(), s[3].text.as_deref()),
        ("kOps", None)
    );
    let s = snippets(4_000, true);
    assert!(s[0].text.as_deref().unwrap().contains("ReduceDefaultCrashLoopBackOffDecay: true\ncrashLoopBackOff:\n  maxContainerRestartPeriod: \"4s\""));
}

#[test]
fn bad_input_names_the_field() {
    let mut c = cluster(vec![class(15_001, ScenarioSpec::default(), 0)]);
    assert_eq!(
        c.validate().unwrap_err(),
        "nodeClasses[0].nodes: 15001 is not 1 to 15000"
    );
    c.node_classes[0].nodes = 1;
    c.api_server.seconds_per_request = 0.0;
    assert!(c
        .validate()
        .unwrap_err()
        .starts_with("apiServer.secondsPerRequest"));
    assert!(cluster(vec![])
        .validate()
        .unwrap_err()
        .starts_with("nodeClasses: at least one"));
}

/// A pasted cluster becomes classes: nodes grouped by how many
/// crash-looping pods they run.
#[test]
fn a_pasted_cluster_is_grouped_by_crash_looping_pods_per_node() {
    use crashloop_explorer::engine::cluster::classes_from_pods;
    use crashloop_explorer::engine::config::KubeletVersion;
    use crashloop_explorer::formats::pod::read_pods;
    // node-a: 2 looping pods, node-b: 2, node-c: 1, node-d: none (its pod
    // waits on an image, which is no crash loop).
    let table = include_str!("fixtures/cluster-o-wide.txt");
    let read = read_pods(table, KubeletVersion::V1_37).unwrap();
    let (classes, others, notes) = classes_from_pods(&read.pods, &ScenarioSpec::default());
    let got: Vec<(u32, u32)> = classes
        .iter()
        .map(|c| (c.nodes, c.scenario.pods()))
        .collect();
    assert_eq!(got, vec![(1, 1), (2, 2)]);
    // node-d runs none: it renews its lease all the same (4 nodes × 0.1/s).
    assert_eq!(others, 1);
    let c = Cluster {
        node_classes: classes,
        api_server: ApiServer::default(),
        other_nodes: others,
    };
    assert!((evaluate(&c).lease_requests_per_second - 0.4).abs() < 1e-9);
    assert!(
        notes[0].starts_with("4 nodes, 3 of them running crash-looping pods"),
        "{notes:?}"
    );
}

/// The presets: every pod's first start and restarts fall in lockstep, and
/// the busiest window is the first. A pod's first 10 s (kubelet 1.37, exits
/// at once): 3 status versions (Pending and two exits, the first restarted
/// at once), a GET and a PATCH each, 6; 7 events (Pulled, Created, Started
/// twice, one BackOff): 13 requests. A DaemonSet on 5,000 nodes: 65,000
/// (6,500 per second); a Deployment of 10 pods on each of 300 nodes: 130 a
/// node, under both clients' bursts of 100 … of 60 and of 70: 39,000
/// (3,900/s). A pool of 110 a node: 660 status and 770 events a node, each
/// client passing its 100 at once and 50/s: 600 + 600 a node, 600,000 for
/// 500 nodes (60,000/s).
#[test]
fn the_presets_peak_as_worked_out() {
    use crashloop_explorer::engine::cluster::{preset, PRESETS};
    let peak =
        |name| evaluate(&preset(name, ApiServer::default()).unwrap()).peak_requests_per_second;
    assert_eq!(peak("daemonset"), 6_500.0);
    assert_eq!(peak("deployment"), 3_900.0);
    assert_eq!(peak("pool"), 60_000.0);
    assert_eq!(PRESETS.len(), 3);
    assert!(PRESETS
        .iter()
        .all(|(n, _)| preset(n, ApiServer::default()).is_some()));
    assert!(preset("daemon", ApiServer::default()).is_none());
}

/// Today's default beside the configured curve: the same nodes, 10 s
/// doubling to 5 min, send fewer requests than a 1 s cap.
#[test]
fn the_same_cluster_on_todays_default() {
    let fast = cluster(vec![class(
        1,
        ScenarioSpec {
            initial_ms: Some(1_000),
            max_ms: Some(1_000),
            pods: Some(10),
            ..ScenarioSpec::default()
        },
        0,
    )]);
    let today = fast.on_todays_default();
    assert_eq!(today.node_classes[0].scenario.spec().max_ms, Some(300_000));
    let total = |c: &Cluster| evaluate(c).requests_per_window.iter().sum::<u64>();
    assert!(total(&today) < total(&fast));
}

/// A compared curve is the same nodes on one of KEP-4603's curves, modelled
/// as the KEP models them (every exit waits, restarts land on expiry).
#[test]
fn a_compared_curve_runs_the_same_nodes() {
    use crashloop_explorer::engine::presets::presets;
    let spec = ScenarioSpec {
        pods: Some(1),
        run_ms: Some(0),
        ..ScenarioSpec::default()
    };
    let c = cluster(vec![class(100, spec, 0)]);
    let curves = presets();
    let curve = curves
        .iter()
        .find(|p| p.id == "initial-1s-max-30s")
        .unwrap();
    // A container that exits at once starts at 0 s and restarts 1, 2, 4, 8,
    // 16 s later: at 1, 3, 7, 15, 31 s. The first 10 s window holds three
    // restarts of 5 requests: 15 per node, 1,500 for 100 nodes, 150 per
    // second; then one each in the windows of 15 s and 31 s.
    let r = evaluate(&c.on_curve(curve).unwrap());
    assert_eq!(&r.requests_per_window[..4], &[1_500, 500, 0, 500]);
    assert_eq!(r.peak_requests_per_second, 150.0);
    assert_eq!(r.classes[0].nodes, 100);
}

/// With no value meeting every goal, the note names the goals that fail
/// and only what would help them: API server replicas do nothing for a
/// kubelet's own rate limiter (issue 48).
#[test]
fn no_value_names_the_goals_that_fail() {
    use crashloop_explorer::engine::cluster::{judge, Sweep, SweepPoint};
    let sweep = |points: &[(u64, f64, bool)]| Sweep {
        reduce_default_decay: false,
        points: points
            .iter()
            .map(|&(max_ms, busy_percent, limiter_binds)| SweepPoint {
                max_ms,
                busy_percent,
                limiter_binds,
            })
            .collect(),
    };
    let want = |restart, limiter, busy| Constraints {
        crashes: 5,
        restart_within_ms: restart,
        no_limiter_binds: limiter,
        max_system_busy_percent: busy,
        reduce_default_decay: false,
    };
    // A kubelet's limiter binds at every value; no other goal is set.
    let binding = sweep(&[
        (1_000, 20.0, true),
        (60_000, 5.0, true),
        (300_000, 2.0, true),
    ]);
    let r = judge(&binding, &want(None, true, None));
    assert_eq!(r.recommended_ms, None);
    assert_eq!(
        r.notes,
        ["no value from 1 s to 5 min meets every goal: no kubelet's rate limiter binds (no value meets it); to get one, raise the nodes' kubeAPIQPS and kubeAPIBurst (eventRecordQPS and eventBurst for events), or let the limiter bind"]
    );
    // Five crashes on today's curve (10 s doubling) wait min(160 s, max):
    // within 30 s only up to a 30 s maximum; the system level is 40 % busy
    // or less only from 60 s. Each goal holds somewhere, never together.
    let apart = sweep(&[
        (10_000, 90.0, false),
        (30_000, 60.0, false),
        (60_000, 30.0, false),
        (300_000, 10.0, false),
    ]);
    let r = judge(&apart, &want(Some(30_000), false, Some(40.0)));
    assert_eq!(
        r.notes,
        ["no value from 1 s to 5 min meets every goal: the restart time and the busy share (each holds at some values, never at the same ones); to get one, allow a longer restart time; or allow a higher busy share, or add API server replicas"]
    );
}

/// The sweep reads only what a node sends (its limiters, no offered
/// windows): each of its points is the cluster evaluated in full at that
/// value, the busy share and whether a limiter binds. Jittered requeue, a
/// spread class, limits that bind at short maxima (5 QPS) and not at long.
#[test]
fn each_sweep_point_is_the_cluster_evaluated_at_its_value() {
    use crashloop_explorer::engine::apf::SYSTEM;
    use crashloop_explorer::engine::cluster::{kubelet_config, sweep};
    use crashloop_explorer::engine::Semantics;
    let spec = ScenarioSpec {
        pods: Some(10),
        horizon_ms: 1_800_000,
        kube_api_qps: 5,
        kube_api_burst: 100,
        event_record_qps: 5,
        event_burst: 100,
        ..ScenarioSpec::default()
    };
    let c = cluster(vec![
        class(40, spec.clone(), 0),
        class(70, spec.clone(), 300_000),
    ]);
    let at = |max: u64| {
        let on = ScenarioSpec {
            config: Some(kubelet_config(Some(max), false)),
            initial_ms: None,
            max_ms: None,
            model: Semantics::Kubelet,
            ..spec.clone()
        };
        cluster(vec![class(40, on.clone(), 0), class(70, on, 300_000)])
    };
    let points = sweep(&c, false).points;
    let (mut binds, mut free) = (0, 0);
    for p in points
        .iter()
        .filter(|p| p.max_ms % 10_000 == 0 || p.max_ms < 5_000)
    {
        let r = evaluate(&at(p.max_ms));
        let api = &c.api_server;
        let busy = 100.0 * api.seats_busy(r.peak_requests_per_second)
            / f64::from(api.level(SYSTEM).nominal);
        assert_eq!(p.busy_percent, busy, "{} ms", p.max_ms);
        let bound = r.classes.iter().any(|k| k.limiter_binds);
        assert_eq!(p.limiter_binds, bound, "{} ms", p.max_ms);
        if bound {
            binds += 1
        } else {
            free += 1
        }
    }
    assert!(binds > 0 && free > 0, "{binds} binding, {free} not");
}
