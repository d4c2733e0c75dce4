//! The kubelet model's requests by kind, pinned to numbers worked out by
//! hand from the code's rules (`src/engine/requests.rs` cites them).
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::requests::{Kind, RequestsByKind, RunningSeen};
use crashloop_explorer::engine::{
    simulate, KubeletConfig, KubeletVersion, Requeue, Scenario, ScenarioSpec, Semantics, Timeline,
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY as REDUCE,
};

const S: u64 = 1000;
const MIN: u64 = 60 * S;
const HOUR: u64 = 60 * MIN;

/// One pod (or `pods` in lockstep) that exits at once on kubelet 1.35, the
/// shipped 10 s → 300 s curve, restarted the moment each wait ends.
fn spec(pods: u32, horizon_ms: u64) -> ScenarioSpec {
    ScenarioSpec {
        kubelet_version: Some(KubeletVersion::V1_35),
        pods: Some(pods),
        run_ms: Some(0),
        horizon_ms,
        requeue: Some(Requeue::Ideal),
        band_seeds: 0,
        ..Default::default()
    }
}

fn run(spec: ScenarioSpec) -> Timeline {
    simulate(&Scenario::try_from(spec).expect("valid"))
}

fn pod(t: &Timeline) -> RequestsByKind {
    t.requests.as_ref().expect("kubelet model").pod
}

fn windows(t: &Timeline, k: Kind) -> Vec<u64> {
    t.requests
        .as_ref()
        .expect("kubelet model")
        .windows(k)
        .to_vec()
}

fn by_kind(get: i64, post: i64, patch: i64, dropped: i64) -> RequestsByKind {
    RequestsByKind {
        get_pods: get,
        patch_pod_status: get,
        post_events: post,
        patch_events: patch,
        dropped_events: dropped,
    }
}

// Restarts at 0 (the first exit restarts at once), 10, 30, 70, 150 and
// 310 s; the next would be at 610 s. 7 starts (the pod's own and 6), 7 exits.
// Status versions: Pending 1 + Terminated 7 + Waiting 5 (the waits ending at
// 10, 30, 70, 150, 310 s; the one after the 310 s exit shows at its restart
// sync, 610 s, past the horizon; none after the first exit) = 13, a GET and
// a PATCH each. Running is never seen: 1.35 relists every 1 s and the
// container is gone at once. Events: 3 Normal per start = 21, a BackOff at
// each of the 6 exits that wait = 27, all under the 25-token buckets (21 of
// the Normal bucket's 25 + 2 s of refill; 6 of the Warning's). Four keys
// (Pulled, Created, Started, BackOff): 4 POSTs, the other 23 PATCHes.
#[test]
fn one_pod_over_ten_minutes() {
    let t = run(spec(1, 10 * MIN));
    assert_eq!(
        t.restarts_at_ms.to_vec(),
        [0, 10 * S, 30 * S, 70 * S, 150 * S, 310 * S]
    );
    assert_eq!(pod(&t), by_kind(13, 4, 23, 0));
    // At 0: Pending, two exits (the first container's and the second's) and
    // 7 events (3 + 3 Normal, 1 BackOff) in the first window.
    assert_eq!(windows(&t, Kind::GetPods)[..2], [3, 2]);
    assert_eq!(windows(&t, Kind::PostEvents)[0], 4);
    assert_eq!(windows(&t, Kind::PatchEvents)[..2], [3, 4]);
    // The node's request count is the sum of the four kinds sent.
    let sent: u64 = t.node_requests_per_window.iter().sum();
    assert_eq!(sent, 13 + 13 + 4 + 23);
}

// A day: restarts at 0, 10, 30, 70, 150, then every 300 s from 310 s to
// 86,110 s (287 of them) = 292; 293 starts and 293 exits. Status: 1 + 293 +
// 291 Waiting (every restart but the first) = 585.
// Normal bucket (in tokens): 25 − 6 at 0, − 3 at each of 10, 30, 70, 150,
// 310, 610, 910 s with 910/300 refilled: 1.03 left; at 1,210 s 2.03: Pulled
// and Created pass, Started is the first dropped (window 121). Dry from
// then: 0.03 + 290 s of refill makes a token at 1,500 s, taken by the next
// Pulled (1,510 s), and so on every 300 s to 86,110 s: 283 more. Normal
// sent: 27 + 2 + 283 = 312 of 879. Warning: one BackOff per 300 s cycle
// never outruns the refill: all 292 sent. Sent events 604: 4 POST, 600
// PATCH; dropped 879 − 312 = 567.
#[test]
fn one_pod_over_a_day() {
    let t = run(spec(1, 24 * HOUR));
    assert_eq!(t.restarts_at_ms.len(), 292);
    assert_eq!(pod(&t), by_kind(585, 4, 600, 567));
    let dropped = windows(&t, Kind::DroppedEvents);
    assert_eq!(dropped.iter().position(|&d| d > 0), Some(121));
    assert_eq!(dropped[121], 1);
    // From then on each start's Created and Started are dropped.
    assert_eq!(dropped[151], 2);
    assert_eq!(windows(&t, Kind::PatchEvents)[151], 2);
    // Status requests keep going while events flatten out.
    assert_eq!(windows(&t, Kind::GetPods)[151], 2);
    assert!(t.requests.as_ref().is_some_and(|r| r.spam_filter_binds()));
}

// A 1 s cap with the decay gate (initial 1 s): restarts at 0, 1, …, 599 s
// (600); 601 starts and exits; 599 Waiting; status 1 + 601 + 599 = 1,201.
// Normal bucket in ms of refill (a token is 300,000): 7,500,000 − 6 tokens
// at 0 = 5,700,000; each second +1,000 − 3 tokens: 4,801,000 at 1 s, …,
// 306,000 at 6 s; at 7 s 307,000: Pulled passes, Created and Started are
// dropped; the next token comes at 300 s exactly. Normal sent 6 + 18 + 1 +
// 1 = 26. Warning: BackOff at 0, 1, …, 599 s: 25 pass by 24 s (24,000
// left), dry from 25 s to 300 s: 26 sent. 52 sent (4 POST, 48 PATCH) of
// 601 × 3 + 600 = 2,403: 2,351 dropped. The filter binds in seconds.
#[test]
fn a_one_second_cap_runs_the_buckets_dry() {
    let mut config = KubeletConfig::default();
    config.feature_gates.insert(REDUCE.into(), true);
    config.crash_loop_back_off.max_container_restart_period = Some("1s".into());
    let t = run(ScenarioSpec {
        config: Some(config),
        ..spec(1, 10 * MIN)
    });
    assert_eq!(t.restarts_at_ms.len(), 600);
    assert_eq!(pod(&t), by_kind(1_201, 4, 48, 2_351));
    // Window 0: 25 Normal and 10 BackOff sent; then only BackOff until 25 s.
    assert_eq!(windows(&t, Kind::PostEvents)[0], 4);
    assert_eq!(windows(&t, Kind::PatchEvents)[..4], [31, 10, 5, 0]);
    assert_eq!(windows(&t, Kind::PatchEvents)[30], 2);
    assert_eq!(windows(&t, Kind::DroppedEvents)[..3], [8, 30, 35]);
}

// 110 pods in lockstep, the event client at 1 QPS with a burst of 1: each
// pod sends 27 events in 10 minutes (above), 2,970 for the node; 770 of
// them at 0 s (7 a pod). The limiter passes 1 at once and one a second
// after: 1 + 600 at most by the horizon, the rest still waiting. The status
// requests go through the main client (50/100) and are not held by it: 660
// at 0 s (3 versions a pod) drain in 11.2 s.
#[test]
fn a_full_node_against_a_slow_event_client() {
    let t = run(ScenarioSpec {
        event_record_qps: 1,
        event_burst: 1,
        ..spec(110, 10 * MIN)
    });
    let r = t.requests.as_ref().expect("kubelet model");
    let offered: u64 = r.post_events.iter().chain(&r.patch_events).sum();
    assert_eq!(offered, 110 * 27);
    let events = t.event_api.as_ref().expect("event client");
    let admitted: u64 = events.admitted_per_window.iter().sum();
    assert!((600..=601).contains(&admitted), "{admitted}");
    assert!(events.max_queue_delay_ms.iter().all(|&d| d > 0));
    assert_eq!(windows(&t, Kind::GetPods)[0], 330);
    assert_eq!(t.api.max_queue_delay_ms[0], 11_200);
    // With the defaults (50/100): 770 at 0 s, 100 pass, 670 wait 13.4 s; at
    // 10 s 170 still wait and 440 join (drained at 22.2 s); 440 at each of
    // 30, 70, 150 and 310 s find 100 tokens and wait up to 6.8 s. Held back
    // in windows 0 to 2 (the queue drains into the third) and in those four.
    let fast = run(spec(110, 10 * MIN));
    let delays = &fast
        .event_api
        .as_ref()
        .expect("event client")
        .max_queue_delay_ms;
    let held: Vec<usize> = (0..delays.len()).filter(|&w| delays[w] > 0).collect();
    assert_eq!(held, [0, 1, 2, 3, 7, 15, 31]);
    assert_eq!((delays[0], delays[1], delays[3]), (13_400, 12_200, 6_800));
}

// eventRecordQPS 0: the kubelet passes it to client-go as it is, whose REST
// client puts in its default of 5 QPS (the kubelet's documentation reads 0
// as no limit).
#[test]
fn event_record_qps_zero_is_client_gos_five() {
    let t = run(ScenarioSpec {
        event_record_qps: 0,
        ..spec(110, 10 * MIN)
    });
    assert_eq!(t.event_api.as_ref().map(|a| a.qps), Some(5));
}

// Running: 1.35 relists every second, so a container that lives 2 s is seen
// and one that exits at once is not; 1.36 relists a pod right after the
// sync that started it, so 1 ms is enough. Each start seen adds a version.
#[test]
fn running_is_seen_by_a_relist() {
    let v35 = KubeletVersion::V1_35;
    let v36 = KubeletVersion::V1_36;
    assert!(!RunningSeen::Auto.seen(0, v36));
    assert!(RunningSeen::Auto.seen(1, v36));
    assert!(!RunningSeen::Auto.seen(999, v35));
    assert!(RunningSeen::Auto.seen(1_000, v35));
    assert!(RunningSeen::Always.seen(0, v35));
    assert!(!RunningSeen::Never.seen(5_000, v36));
    // 7 starts: 13 versions + 7 Running.
    let always = run(ScenarioSpec {
        running_seen: RunningSeen::Always,
        ..spec(1, 10 * MIN)
    });
    assert_eq!(pod(&always).get_pods, 20);
}

// GET pods and PATCH pods/status go together in every window, and the KEP
// model keeps its flat count per restart with no kinds.
#[test]
fn status_requests_come_in_pairs_and_the_kep_keeps_its_five() {
    for horizon in [10 * MIN, 24 * HOUR] {
        let t = run(ScenarioSpec {
            groups: vec![
                crashloop_explorer::engine::Group::crash_looping(60, 0, 0),
                crashloop_explorer::engine::Group::crash_looping(50, 30 * S, 600 * S),
            ],
            ..spec(1, horizon)
        }
        .without_pods());
        assert_eq!(
            windows(&t, Kind::GetPods),
            windows(&t, Kind::PatchPodStatus)
        );
    }
    let kep = run(ScenarioSpec {
        model: Semantics::Kep,
        ..spec(1, 10 * MIN)
    });
    assert!(kep.requests.is_none());
    let sent: u64 = kep.node_requests_per_window.iter().sum();
    assert_eq!(sent, 5 * kep.restarts_at_ms.len() as u64);
}

trait WithoutPods {
    fn without_pods(self) -> Self;
}

impl WithoutPods for ScenarioSpec {
    fn without_pods(self) -> Self {
        ScenarioSpec {
            pods: None,
            run_ms: None,
            ..self
        }
    }
}

// The CSV's windows set what the clients admit beside what is offered, both
// kinds of client: one pod, nothing held back, so every window admits what
// it offers (status and events, 13 in the first window).
#[test]
fn the_csv_admits_what_both_clients_pass() {
    let e =
        crashloop_explorer::engine::explore(&Scenario::try_from(spec(1, 10 * MIN)).expect("valid"));
    let csv = crashloop_explorer::export::csv(&e);
    let windows: Vec<(u64, u64)> = csv
        .lines()
        .filter(|l| l.starts_with("this configuration,window,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[4].parse().expect("offered"),
                f[5].parse().expect("admitted"),
            )
        })
        .collect();
    assert_eq!(windows.len(), 60);
    assert_eq!(windows[0], (13, 13));
    assert!(windows.iter().all(|(o, a)| o == a));
}
