//! The cluster view's inputs: what they show, and their link keys, with
//! numbers worked out by hand.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::apf::ApiServer;
use crashloop_explorer::engine::cluster::Constraints;
use crashloop_explorer::engine::cluster_view::{
    classes_from_paste, recommendation, show, sweep_is_quick, sweep_key, ClassInputs, ClusterInputs,
};
use crashloop_explorer::engine::{Group, RestartPolicy};
use crashloop_explorer::inputs::{Page, View};
use crashloop_explorer::share::{cluster_inputs, cluster_link, decode, encode};

fn class(name: &str, nodes: u32, pods: u32) -> ClassInputs {
    ClassInputs {
        name: name.into(),
        nodes,
        pods,
        run_ms: 0,
        spread_ms: 0,
        groups: vec![],
    }
}

/// The view opens on a bad DaemonSet rollout: 5,000 nodes, one pod each
/// crashing at once, on today's kubelet. Its first 10 s: 3 status versions
/// (Pending, the first exit, restarted at once, and the second), a GET and
/// a PATCH each, and 7 events (Pulled, Created and Started twice, a BackOff):
/// 13 requests, 5,000 × 13 = 65,000 a window, 6,500 per second, holding
/// 6,500 × 20 ms = 130 seats of the system level's 3 × 74 = 222. Unset,
/// maxContainerRestartPeriod leaves today's default: the live line is
/// today's.
#[test]
fn the_first_view_is_a_daemonset_rollout_on_todays_kubelet() {
    let inputs = ClusterInputs::default();
    let s = show(&inputs).unwrap();
    assert_eq!(s.live.requests_per_window[0], 65_000);
    assert_eq!(s.live.peak_requests_per_second, 6_500.0);
    assert!((s.live.peak_seats_busy - 130.0).abs() < 1e-9);
    assert_eq!(s.live.system_seats, 222);
    assert_eq!(s.live.time_over_seats_ms, 0);
    assert_eq!(
        s.live.requests_per_window,
        s.todays_default.requests_per_window
    );
    // 5,000 leases at 0.1/s, apart: 500 per second, 10 seats.
    assert!((s.live.lease_requests_per_second - 500.0).abs() < 1e-9);
    // KEP-4603's new default beside it: 1 s initial, so the first window
    // holds more than one start, and the peak is above today's.
    assert_eq!(s.compared.len(), 1);
    assert!(s.compared[0].1.peak_requests_per_second > 6_500.0);
    // After 5 crashes in a row today's curve waits min(160 s, max): within
    // a minute for every max up to 60 s, the largest recommended.
    let r = recommendation(&inputs).unwrap();
    assert_eq!(r.recommended_ms, Some(60_000));
    assert_eq!(r.feasible_ms.map(|f| f.1), Some(60_000));
}

/// Every class runs its pods on the kubelet the view sets: with
/// ReduceDefaultCrashLoopBackOffDecay and a 30 s cap, the first 10 s holds
/// the first start, the restart at once and those after 1, 2 and 4 s (at
/// 1, 3 and 7 s, later by the kubelet's sync but still inside the window):
/// 5 starts and 5 exits. Status: Pending, 5 Terminated, 3 Waiting (shown at
/// the restarting syncs; the wait after the 7 s exit ends past 10 s): 9
/// versions, 18 requests. Events: 15 Normal and 4 BackOff (every exit but
/// the first waits), 19, under both buckets. 37 × 5,000 nodes = 185,000.
#[test]
fn the_kubelet_set_here_runs_on_every_class() {
    let inputs = ClusterInputs {
        max_ms: Some(30_000),
        reduce_default_decay: true,
        ..ClusterInputs::default()
    };
    let s = show(&inputs).unwrap();
    assert_eq!(s.live.requests_per_window[0], 185_000);
    assert_eq!(s.live.peak_requests_per_second, 18_500.0);
    // 18,500/s × 20 ms = 370 seats: over the 222 for the first window.
    assert_eq!(s.live.time_over_seats_ms, 10_000);
    // Today's default is still the reference.
    assert_eq!(s.todays_default.requests_per_window[0], 65_000);
    // With the 1 s initial the 5th wait is 16 s: every value holds the
    // minute, and the sweep follows the view's gate.
    assert_eq!(
        recommendation(&inputs).unwrap().candidates[0].initial_ms,
        1_000,
        "the sweep runs with the view's gate"
    );
    // A class of twice the nodes doubles the load (N × the node).
    let doubled = ClusterInputs {
        classes: vec![class("big", 10_000, 1)],
        ..inputs
    };
    assert_eq!(show(&doubled).unwrap().live.requests_per_window[0], 370_000);
}

#[test]
fn bad_inputs_name_the_field() {
    let bad = |f: fn(&mut ClusterInputs)| {
        let mut i = ClusterInputs::default();
        f(&mut i);
        show(&i).unwrap_err()
    };
    assert_eq!(
        bad(|i| i.classes[0].nodes = 0),
        "nodeClasses[0].nodes: 0 is not 1 to 15000"
    );
    assert_eq!(
        bad(|i| i.classes[0].pods = 251),
        "nodeClasses[0].pods: 251 is not 1 to 250 (the kubelet's maxPods is 110 by default)"
    );
    assert_eq!(
        bad(|i| i.max_ms = Some(301_000)),
        "crashLoopBackOff.maxContainerRestartPeriod: must be between 1s and 300s"
    );
    assert_eq!(
        bad(|i| i.classes.clear()),
        "nodeClasses: at least one node class"
    );
    assert_eq!(
        bad(|i| i.api_server.replicas = 0),
        "apiServer.replicas: 0 is not 1 to 15"
    );
}

/// Every input round-trips through a link; the default writes no key.
#[test]
fn the_cluster_keys_round_trip() {
    assert!(cluster_link(&ClusterInputs::default()).0.is_empty());
    let inputs = ClusterInputs {
        classes: vec![
            class("pool a~b", 300, 10),
            ClassInputs {
                run_ms: 30_000,
                spread_ms: 600_000,
                ..class("gpu", 12, 2)
            },
            ClassInputs {
                groups: vec![
                    Group::crash_looping(10, 30_000, 0),
                    Group {
                        name: "batch".into(),
                        restart_policy: RestartPolicy::OnFailure,
                        ..Group::crash_looping(5, 0, 60_000)
                    },
                ],
                ..class("web", 40, 1)
            },
        ],
        max_ms: Some(45_000),
        reduce_default_decay: true,
        kube_api_qps: 20,
        kube_api_burst: 50,
        api_server: ApiServer {
            replicas: 5,
            max_requests_inflight: 800,
            max_mutating_requests_inflight: 400,
            seconds_per_request: 0.05,
            levels: None,
        },
        other_nodes: 1_000,
        horizon_ms: 7_200_000,
        compared: vec!["rapid", "initial-1s-max-30s"],
        want: Constraints {
            crashes: 3,
            restart_within_ms: None,
            no_limiter_binds: false,
            max_system_busy_percent: Some(60.0),
            reduce_default_decay: false,
        },
    };
    let page = Page {
        view: View::Cluster,
        cluster: cluster_link(&inputs),
        ..Page::default()
    };
    let query = encode(&page);
    assert_eq!(
        query,
        "view=cluster&v=1.37&cn=pool%20a~b~300~10~0s~0s&cn=gpu~12~2~30s~10m0s&cn=web~40~1~0s~0s&cgr=2~10.30s.f.A.0s.&cgr=2~5.0s.f.O.1m0s.batch&cmax=45s&cdecay=1&cqps=20,50&capi=5,800,400,50ms&cother=1000&ch=2h0m0s&ccmp=rapid,initial-1s-max-30s&cwant=3,,0,60"
    );
    let (back, notices) = decode(&query);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back.view, View::Cluster);
    let (read, notices) = cluster_inputs(&back.cluster);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(read, inputs);
}

/// A bad value keeps the default and names the key, as the node view's
/// link does; a link of cluster keys alone is no old link missing `v=`.
#[test]
fn bad_cluster_keys_fall_back_with_a_notice() {
    let (page, notices) =
        decode("view=cluster&cn=a~0~1~0s~0s&cmax=10m&capi=3,400,200&ccmp=nope&cwant=5,1m,1,80");
    assert!(notices.is_empty(), "{notices:?}");
    let (c, notices) = cluster_inputs(&page.cluster);
    let d = ClusterInputs::default();
    assert_eq!(c.classes, d.classes);
    assert_eq!(c.max_ms, None);
    assert_eq!(c.api_server, d.api_server);
    assert!(c.compared.is_empty());
    assert_eq!(c.want.restart_within_ms, Some(60_000));
    let messages: Vec<&str> = notices.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "ignored cn nodes=\"0\": must be between 1 and 15000 (got 0); using the default",
            "ignored cmax=\"10m\": must be between 1s and 5m0s (got 10m0s); using the default",
            "ignored capi=\"3,400,200\": write replicas,maxRequestsInflight,maxMutatingRequestsInflight,secondsPerRequest, e.g. 3,400,200,20ms; using the default",
            "ignored ccmp=\"nope\": not one of the KEP's curves; using the default",
        ]
    );
}

/// A pasted cluster of more distinct counts than classes keeps the 20
/// with the most crash-looping pods and says how many nodes it left out.
#[test]
fn a_pasted_cluster_keeps_at_most_twenty_classes() {
    use crashloop_explorer::engine::KubeletVersion;
    use crashloop_explorer::formats::pod::read_pods;
    // Node n runs n crash-looping pods, n = 1 … 22: 22 counts of one node.
    let mut table = String::from("NAMESPACE NAME READY STATUS RESTARTS AGE IP NODE\n");
    for n in 1..=22 {
        for p in 0..n {
            table.push_str(&format!(
                "a p-{n}-{p} 0/1 CrashLoopBackOff 3 1h 10.0.{n}.{p} node-{n}\n"
            ));
        }
    }
    let read = read_pods(&table, KubeletVersion::V1_37).unwrap();
    let (classes, others, notes) = classes_from_paste(&read.pods);
    assert_eq!(classes.len(), 20);
    // Nodes with 1 and 2 pods are the least: left out.
    assert_eq!(classes[0].pods, 3);
    assert_eq!(classes[19].pods, 22);
    assert_eq!(others, 0);
    assert!(
        notes
            .last()
            .unwrap()
            .starts_with("2 nodes of rarer counts left out"),
        "{notes:?}"
    );
}

/// The sweep reads neither the live value, the compared curves nor the
/// goals: moving those judges the last sweep again. It runs on the move
/// up to three classes over 30 minutes (24 with its nodes cached); past
/// that, once the controls rest.
#[test]
fn the_sweep_depends_on_the_nodes_not_the_goals() {
    let d = ClusterInputs::default();
    let moved = ClusterInputs {
        max_ms: Some(10_000),
        compared: vec![],
        want: Constraints {
            crashes: 2,
            ..d.want.clone()
        },
        ..d.clone()
    };
    assert_eq!(sweep_key(&moved), sweep_key(&d));
    let bigger = ClusterInputs {
        classes: vec![class("a", 10, 1)],
        ..d.clone()
    };
    assert_ne!(sweep_key(&bigger), sweep_key(&d));
    assert!(sweep_is_quick(&d, false));
    let three = ClusterInputs {
        classes: vec![class("a", 1, 1), class("b", 1, 1), class("c", 1, 1)],
        ..d.clone()
    };
    assert!(sweep_is_quick(&three, false));
    let day = ClusterInputs {
        horizon_ms: 86_400_000,
        ..d
    };
    assert!(!sweep_is_quick(&day, false));
    // With its nodes cached, a sweep of 24 class-halves-of-an-hour re-sums
    // them at once: 12 hours of one class, not a day.
    let half_day = ClusterInputs {
        horizon_ms: 43_200_000,
        ..day.clone()
    };
    assert!(sweep_is_quick(&half_day, true));
    assert!(!sweep_is_quick(&day, true));
}

/// A class may run the node view's workload: groups of pods, each crashing
/// at once here, 10 and 5 pods: their first 10 s send 13 requests a pod
/// (above), (10 + 5) × 13 = 195 a node: 90 status requests under the main
/// client's burst of 100, and 105 events, of which 5 wait a tenth of a
/// second for the event client: 19,500 from 100 nodes.
#[test]
fn a_class_runs_the_node_views_groups() {
    let inputs = ClusterInputs {
        classes: vec![ClassInputs {
            groups: vec![
                Group::crash_looping(10, 0, 0),
                Group::crash_looping(5, 0, 0),
            ],
            ..class("mixed", 100, 1)
        }],
        ..ClusterInputs::default()
    };
    let s = show(&inputs).unwrap();
    assert_eq!(s.live.requests_per_window[0], 19_500);
    // More than the node holds is the scenario's refusal, named by class.
    let full = ClusterInputs {
        classes: vec![ClassInputs {
            groups: vec![
                Group::crash_looping(200, 0, 0),
                Group::crash_looping(100, 0, 0),
            ],
            ..class("full", 1, 1)
        }],
        ..ClusterInputs::default()
    };
    let err = show(&full).unwrap_err();
    assert!(err.starts_with("nodeClasses[0]: "), "{err}");
}
