//! One definition of "sent" (issue 47): what the kubelet's client rate
//! limiters let through to the API server within the span. The headline,
//! the figures, the load chart's windows (its readout, its data table and
//! the CSV all read `sent::load_window`), the JSON the JS API returns and
//! the cluster view say the same numbers, worked out here by hand with each
//! limiter binding.

use crashloop_explorer::engine::cluster::{evaluate, Cluster, NodeClass};
use crashloop_explorer::engine::sent::load_window;
use crashloop_explorer::engine::{explore, Exploration, Scenario};
use crashloop_explorer::export::{csv, headline};
use crashloop_explorer::formats::link::decode;

/// A scenario as a link opens it.
fn linked(query: &str) -> Scenario {
    let (page, notices) = decode(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    Scenario::try_from(page.inputs.spec).expect("a valid scenario")
}

/// The CSV's window rows of this configuration: (offered, sent).
fn csv_windows(e: &Exploration) -> Vec<(i64, i64)> {
    csv(e)
        .lines()
        .filter(|l| l.starts_with("this configuration,window,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[4].parse().unwrap(), f[5].parse().unwrap())
        })
        .collect()
}

fn figure(e: &Exploration, id: &str) -> (i64, String) {
    let f = headline(e).into_iter().find(|f| f.id == id).unwrap();
    (f.value, f.split.unwrap_or_default())
}

/// kubeAPIQPS 1 and eventRecordQPS 1 (bursts of 100 each), kubelet 1.37
/// with the faster curve, 110 pods exiting at once, 30 minutes. Each client
/// is handed more than 100 requests at 0 s (110 pods' Pending status, a GET
/// and a PATCH each; their first starts' events), and more than one a
/// second from then on, so neither queue empties again: each sends its
/// burst at once and then one a second, 100 + 1,800 = 1,900 in 30 minutes
/// and 100 + 300 = 400 in the first 5. The rest are still queued.
#[test]
fn both_limiters_binding_send_their_burst_and_one_a_second() {
    let e = explore(&linked("v=1.37&gr=1&q=1&eq=1"));
    let all = e.summary.horizon.node_requests;
    assert_eq!(all.status.sent, 1_900);
    assert_eq!(all.events.unwrap().sent, 1_900);
    assert_eq!(all.sent, 3_800);
    // Offered: 3,190 GETs and as many PATCHes; 440 POSTs and 6,160 PATCHes
    // of events (1,980 more dropped by the spam filter, never offered).
    let kinds = e.summary.horizon.requests_by_kind.unwrap();
    assert_eq!((kinds.get_pods, kinds.patch_pod_status), (3_190, 3_190));
    assert_eq!((kinds.post_events, kinds.patch_events), (440, 6_160));
    assert_eq!(all.offered, 3_190 * 2 + 440 + 6_160);
    assert_eq!(all.queued, 12_980 - 3_800);
    let first = e.summary.first5m.node_requests;
    assert_eq!((first.status.sent, first.events.unwrap().sent), (400, 400));

    // The headline says these, and names what was offered and queued.
    let (value, split) = figure(&e, "requests-all");
    assert_eq!(value, 3_800);
    assert_eq!(
        split,
        "1,900 status · 1,900 events; of 12,980 offered, 9,180 still queued; 1,980 events dropped by the spam filter"
    );
    assert_eq!(figure(&e, "requests-5m").0, 800);

    // The windows: 100 + 10 through each client in the first, then 10 each.
    let windows = csv_windows(&e);
    assert_eq!(windows.len(), 180);
    assert_eq!(windows[0].1, 2 * (100 + 10));
    assert!(windows[1..].iter().all(|w| w.1 == 20), "{windows:?}");
    assert_eq!(windows.iter().map(|w| w.1).sum::<i64>(), 3_800);
    assert_eq!(windows.iter().map(|w| w.0).sum::<i64>(), 12_980);
    let w = load_window(&e.timeline, 1).unwrap();
    assert_eq!((w.status_sent, w.events_sent, w.sent), (10, Some(10), 20));
    assert_eq!(w.wait_ms, e.timeline.api.max_queue_delay_ms[1]);

    // The JS API's JSON (`explore`) carries the same three.
    let json = serde_json::to_value(&e).unwrap();
    let node = &json["summary"]["horizon"]["nodeRequests"];
    assert_eq!(node["sent"], 3_800);
    assert_eq!(node["offered"], 12_980);
    assert_eq!(node["queued"], 9_180);
    assert_eq!(node["events"]["sent"], 1_900);

    // The cluster view: three such nodes send three times as much.
    let c = Cluster {
        node_classes: vec![NodeClass {
            name: "pool".into(),
            nodes: 3,
            scenario: linked("v=1.37&gr=1&q=1&eq=1"),
            spread_ms: 0,
        }],
        api_server: Default::default(),
        other_nodes: 0,
    };
    let r = evaluate(&c);
    assert_eq!(r.requests.sent, 3 * 3_800);
    assert_eq!(r.requests.queued, 3 * 9_180);
    assert_eq!(r.requests_per_window.iter().sum::<u64>(), 3 * 3_800);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("27,540 more were still queued")),
        "{:?}",
        r.notes
    );
}

/// A 25 ms initial and a 1 s cap offer far more, and send no more: the
/// clients' limits are what reach the API server.
#[test]
fn a_faster_curve_offers_more_and_sends_the_same() {
    let e = explore(&linked("v=1.37&gr=1&q=1&eq=1&i=25ms&x=1s"));
    let all = e.summary.horizon.node_requests;
    assert_eq!((all.status.sent, all.events.unwrap().sent), (1_900, 1_900));
    assert!(all.offered > 100_000, "{all:?}");
    assert_eq!(all.queued, all.offered - 3_800);
    assert!(e.summary.max_queue_delay_ms > 3_600_000);
}

/// Moving eventRecordQPS moves the headline: at 1 000 the event client no
/// longer binds and sends all it is offered.
#[test]
fn event_record_qps_moves_what_is_sent() {
    let one = explore(&linked("v=1.37&gr=1&q=1&eq=1"));
    let free = explore(&linked("v=1.37&gr=1&q=1&eq=1000"));
    let events = free.summary.horizon.node_requests.events.unwrap();
    assert_eq!(events.sent, events.offered);
    assert_eq!(events.queued, 0);
    assert_eq!(events.offered, 6_600);
    assert_eq!(figure(&free, "requests-all").0, 1_900 + 6_600);
    assert_ne!(
        figure(&free, "requests-all").0,
        figure(&one, "requests-all").0
    );
}

/// Nothing binds by default over 30 minutes: all offered is sent.
#[test]
fn unbound_limiters_send_everything_offered() {
    let e = explore(&Scenario::default());
    let all = e.summary.horizon.node_requests;
    assert_eq!(all.queued, 0);
    assert_eq!(all.sent, all.offered);
    assert!(figure(&e, "requests-all").1.contains(", none still queued"));
}
