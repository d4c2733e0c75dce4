//! Properties over the engine and every parser: for any valid input the
//! numbers keep their invariants; for any string a parser answers, never panics.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::config::EffectiveBackoff;
use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::duration::{parse_go_duration, rounded};
use crashloop_explorer::engine::job::{
    run_job, Attempt, ConditionType, FailureScript, JobManifest, MAX_PODS,
};
use crashloop_explorer::engine::node::Offsets;
use crashloop_explorer::engine::pod::{diagnose, NodeAssumption};
use crashloop_explorer::engine::simulate::{
    pod_restarts_gc, pod_restarts_stepwise, PodRun, HOUSEKEEPING_MS,
};
use crashloop_explorer::engine::windows::LOAD_WINDOW_MS;
use crashloop_explorer::engine::{
    explore, node_timeline, pod_runs, simulate, Group, PodRuns, RequestKind, Requeue, RunningSeen,
    Scenario, ScenarioSpec, Semantics, Times,
};
use crashloop_explorer::formats::manifest::parse_job_manifest;
use crashloop_explorer::formats::pod::{parse_pod, read_pods};
use crashloop_explorer::share;
use proptest::prelude::*;
use std::ops::RangeInclusive;
use std::rc::Rc;

fn timing() -> impl Strategy<Value = (Semantics, Requeue)> {
    prop_oneof![
        Just((Semantics::Kep, Requeue::Ideal)),
        Just((Semantics::Kubelet, Requeue::Ideal)),
        Just((Semantics::Kubelet, Requeue::AtExpiry)),
        Just((Semantics::Kubelet, Requeue::Periodic)),
        Just((Semantics::Kep, Requeue::AtExpiry)),
    ]
}

/// One group of pods on any curve, started up to `spread_ms` apart.
fn scenario_spread(spread_ms: RangeInclusive<u64>) -> impl Strategy<Value = Scenario> {
    (
        (25u64..=60_000, 1_000u64..=600_000),
        0u64..=900_000,
        60_000u64..=7_200_000,
        1u32..=250,
        spread_ms,
        timing(),
        any::<u64>(),
    )
        .prop_map(
            |((initial, max), run_ms, horizon, pods, spread_ms, (model, requeue), seed)| {
                Scenario::try_from(ScenarioSpec {
                    initial_ms: Some(initial),
                    max_ms: Some(max),
                    horizon_ms: horizon,
                    groups: vec![Group::crash_looping(pods, run_ms, spread_ms)],
                    model,
                    requeue: Some(requeue),
                    seed,
                    band_seeds: 0,
                    ..Default::default()
                })
                .expect("in range")
            },
        )
}

/// A lockstep group and a spread one under tight API limits, so that the
/// limiter binds, drains and refills.
fn node_under_limits() -> impl Strategy<Value = Scenario> {
    (
        (25u64..=10_000, 1_000u64..=60_000),
        (1u32..=125, 1u32..=125, 0u64..=600_000),
        (1u32..=10, 1u32..=50, 1u32..=200),
        60_000u64..=3_600_000,
        timing(),
    )
        .prop_map(
            |(
                (initial, max),
                (lockstep, spread, spread_ms),
                (per_restart, qps, burst),
                horizon,
                (model, requeue),
            )| {
                Scenario::try_from(ScenarioSpec {
                    initial_ms: Some(initial),
                    max_ms: Some(max),
                    horizon_ms: horizon,
                    groups: vec![
                        Group::crash_looping(lockstep, 0, 0),
                        Group::crash_looping(spread, 0, spread_ms),
                    ],
                    requests_per_restart: per_restart,
                    kube_api_qps: qps,
                    kube_api_burst: burst,
                    model,
                    requeue: Some(requeue),
                    band_seeds: 0,
                    ..Default::default()
                })
                .expect("in range")
            },
        )
}

/// The kubelet model's node at the ideal requeue (periodic tails): a
/// lockstep group and a spread one, any crash interval, start latency and
/// `runningSeen`, each client's limiter binding or not.
fn kubelet_node() -> impl Strategy<Value = Scenario> {
    (
        (25u64..=10_000, 1_000u64..=120_000),
        (1u32..=125, 0u32..=60, 0u64..=600_000),
        (
            prop_oneof![Just(0u64), 0u64..=30_000],
            prop_oneof![Just(0u64), 0u64..=3_000],
        ),
        (prop_oneof![
            Just(RunningSeen::Auto),
            Just(RunningSeen::Always),
            Just(RunningSeen::Never)
        ]),
        ((1u32..=60, 1u32..=200), (0u32..=60, 0u32..=200)),
        60_000u64..=14_400_000,
    )
        .prop_map(
            |(
                (initial, max),
                (lockstep, spread, spread_ms),
                (run_ms, start_latency_ms),
                running_seen,
                ((qps, burst), (event_qps, event_burst)),
                horizon,
            )| {
                let mut groups = vec![Group::crash_looping(lockstep, run_ms, 0)];
                if spread > 0 {
                    groups.push(Group::crash_looping(spread, run_ms, spread_ms));
                }
                Scenario::try_from(ScenarioSpec {
                    initial_ms: Some(initial),
                    max_ms: Some(max),
                    horizon_ms: horizon,
                    groups,
                    start_latency_ms,
                    running_seen,
                    kube_api_qps: qps,
                    kube_api_burst: burst,
                    event_record_qps: event_qps,
                    event_burst,
                    model: Semantics::Kubelet,
                    requeue: Some(Requeue::Ideal),
                    band_seeds: 0,
                    ..Default::default()
                })
                .expect("in range")
            },
        )
}

/// Lockstep pods.
fn scenario() -> impl Strategy<Value = Scenario> {
    scenario_spread(0..=0)
}

fn node() -> NodeAssumption {
    NodeAssumption::new(KubeletVersion::V1_37, None, "").expect("defaults resolve")
}

/// Reads any text as a pod and diagnoses what it reads.
/// Pieces of what kubectl prints, for the reader's property tests.
const KUBECTL_LINES: &[&str] = &[
    "NAME   READY   STATUS   RESTARTS   AGE",
    "web-0   0/1   CrashLoopBackOff   16 (102s ago)   21m",
    "kube-system   pod/x   1/2   Init:0/1   3   5d3h   10.0.0.1   node-a   <none>   <none>",
    "Name:         web-0",
    "Namespace:    default",
    "Containers:",
    "Init Containers:",
    "  app:",
    "    State:          Waiting",
    "      Reason:       CrashLoopBackOff",
    "    Last State:     Terminated",
    "      Exit Code:    137",
    "      Started:      Thu, 01 Jan 1970 00:00:00 +0000",
    "      Finished:     Wed, 14 Jul 2021 19:52:22 +0000",
    "    Restart Count:  4294967296",
    "Events:",
    "  Warning  BackOff  1s (x9 over 2m)  kubelet  Back-off restarting failed container app in pod web-0_default(u)",
    "Back-off 2m40s restarting failed container=app pod=web-0_ns(u)",
    "apiVersion: v1",
    "kind: List",
    "items:",
    "- kind: Pod",
    "status:",
    "  containerStatuses:",
    "  - name: app",
    "    restartCount: -3",
    "    state: {waiting: {reason: CrashLoopBackOff, message: 'back-off 5m0s x'}}",
    "    lastState: {terminated: {exitCode: 1, finishedAt: \"2026-11-20T10:00:03Z\"}}",
    "{\"kind\": \"Pod\", \"status\": {\"containerStatuses\": [",
    "]}}",
    "> ",
    "$ kubectl get pods",
    "...",
    "---",
];

/// Texts at the size limit, of each shape: read or refused, never a panic.
#[test]
fn the_pod_reader_answers_a_megabyte() {
    let limit = crashloop_explorer::formats::pod::MAX_POD_TEXT;
    // Room for a header line before the repeated one.
    let fill = |line: &str| line.repeat((limit - 64) / line.len());
    for text in [
        fill("web-0   0/1   CrashLoopBackOff   16 (102s ago)   21m\n"),
        format!("Name: x\nContainers:\n{}", fill("  app:\n    State: Waiting\n    Restart Count: 5\n")),
        format!("kind: List\nitems:\n{}", fill("- kind: Pod\n  status: {containerStatuses: [{name: a, restartCount: 1, state: {}}]}\n")),
        fill("Back-off 10s restarting failed container=a pod=b_c(d)\n"),
        "[".repeat(limit),
        "- ".repeat(limit / 2),
        "{\"a\":".repeat(limit / 5),
        "\u{0}\u{7f}é\t".repeat(limit / 8),
    ] {
        assert!(text.len() <= limit);
        diagnose_text(&text);
    }
}

fn diagnose_text(s: &str) {
    if let Ok((pod, _)) = parse_pod(s, KubeletVersion::V1_37) {
        let _ = diagnose(&pod, &node(), 0);
    }
    if let Ok(read) = read_pods(s, KubeletVersion::V1_37) {
        let _ = crashloop_explorer::engine::pod::diagnose_pods(&read.pods, &node(), 0, false);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The node's load, computed without a loop over pods, is the sum of its
    /// pods one by one: each pod runs the group's timeline from its own start
    /// (a shorter horizon keeps a prefix of the same restarts).
    #[test]
    fn spread_load_is_the_sum_of_the_pods(s in scenario_spread(0..=600_000)) {
        let t = simulate(&s);
        let g = &s.groups()[0];
        let o = Offsets { pods: g.pods, spread_ms: g.spread_ms };
        let n = t.node_requests_per_window.len();
        let mut windows = vec![0u64; n];
        let mut restarts = 0;
        for i in 0..g.pods {
            for at in t.restarts_at_ms.iter() {
                let when = at + o.offset(i);
                if when < s.horizon_ms() {
                    windows[(when / LOAD_WINDOW_MS) as usize] += t.requests_per_restart;
                    restarts += 1;
                }
            }
        }
        prop_assert_eq!(t.node_restarts(), restarts);
        match &t.requests {
            None => prop_assert_eq!(&t.node_requests_per_window, &windows),
            Some(r) => {
                // Each kind: the pod's requests, shifted to each pod's start.
                let runs = pod_runs(&s);
                let pod = &runs.requests[0];
                let h = s.horizon_ms();
                for k in RequestKind::ALL {
                    let mut by_pods = vec![0u64; n];
                    for i in 0..g.pods {
                        let off = o.offset(i);
                        let below = |t: u64| if t <= off { 0 } else { pod.below(k, t - off) };
                        for (w, slot) in by_pods.iter_mut().enumerate() {
                            let (a, b) = (w as u64 * LOAD_WINDOW_MS, ((w as u64 + 1) * LOAD_WINDOW_MS).min(h));
                            *slot += below(b) - below(a);
                        }
                    }
                    prop_assert_eq!(r.windows(k), &by_pods[..], "{}", k.name());
                }
                let sent: Vec<u64> = (0..n)
                    .map(|w| RequestKind::ALL.iter().filter(|k| k.offered()).map(|&k| r.windows(k)[w]).sum())
                    .collect();
                prop_assert_eq!(&t.node_requests_per_window, &sent);
            }
        }
    }

    /// The API limiter neither makes nor loses requests and passes no more
    /// than its bucket holds: up to any window, it admitted at most what
    /// arrived and at most the burst plus the rate's tokens since the start
    /// (within half a request: the windows are rounded as a running total);
    /// with no queue in the last window it admitted every request.
    #[test]
    fn the_limiter_keeps_its_bounds(s in node_under_limits()) {
        let t = simulate(&s);
        // The main client's: the status requests (kubelet model), or all.
        let status: Option<Vec<u64>> = t.requests.as_ref().map(|r| {
            r.get_pods.iter().zip(&r.patch_pod_status).map(|(g, p)| g + p).collect()
        });
        let arrived = status.as_ref().unwrap_or(&t.node_requests_per_window);
        let admitted = &t.api.admitted_per_window;
        prop_assert_eq!(arrived.len(), admitted.len());
        let (mut a, mut d) = (0u128, 0u128);
        for (k, (&x, &y)) in arrived.iter().zip(admitted).enumerate() {
            (a, d) = (a + u128::from(x), d + u128::from(y));
            let window_end = ((k as u64 + 1) * LOAD_WINDOW_MS).min(s.horizon_ms());
            let tokens = u128::from(t.api.burst) * 1000 + u128::from(t.api.qps) * u128::from(window_end);
            prop_assert!(d <= a, "window {}: admitted {} of {} arrived", k, d, a);
            prop_assert!(2000 * d <= 2 * tokens + 1000, "window {}: admitted {} with {} tokens", k, d, tokens / 1000);
        }
        if t.api.max_queue_delay_ms.last() == Some(&0) {
            prop_assert_eq!(d, a);
        }
    }

    /// "Sent" is one thing everywhere: the summary's sent, offered and
    /// queued are the windows' sums, each client's sent is within its
    /// bucket and the first 5 minutes' within the horizon's.
    #[test]
    fn sent_is_the_windows_that_passed(s in node_under_limits()) {
        let e = explore(&s);
        let t = &e.timeline;
        let (all, first) = (e.summary.horizon.node_requests, e.summary.first5m.node_requests);
        prop_assert_eq!(all.sent, t.sent_per_window().iter().sum::<u64>() as i64);
        prop_assert_eq!(all.offered, t.node_requests_per_window.iter().sum::<u64>() as i64);
        prop_assert_eq!(all.queued, all.offered - all.sent);
        prop_assert!(all.queued >= 0 && first.queued >= 0);
        prop_assert!(first.sent <= all.sent && first.offered <= all.offered);
        let cap = |qps: u32, burst: u32| i64::from(burst) + (u64::from(qps) * s.horizon_ms()).div_ceil(1000) as i64 + 1;
        prop_assert!(all.status.sent <= cap(t.api.qps, t.api.burst));
        if let (Some(events), Some(api)) = (all.events, &t.event_api) {
            prop_assert!(events.sent <= cap(api.qps, api.burst));
            prop_assert_eq!(events.sent + all.status.sent, all.sent);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Writing out the periodic tail gives exactly what stepping through
    /// every restart gives: both models, any curve (a schedule too), crash
    /// interval, start latency and horizon, reset thresholds short enough to
    /// fire.
    #[test]
    fn the_periodic_shortcut_is_the_stepwise_run(
        (initial, max) in (25u64..=60_000, 25u64..=600_000),
        run_ms in prop_oneof![Just(0u64), 0u64..=900_000],
        start_latency_ms in prop_oneof![Just(0u64), 0u64..=5_000],
        horizon_ms in 1_000u64..=14_400_000,
        reset_after_ms in prop_oneof![Just(600_000u64), 1_000u64..=1_200_000],
        schedule in prop_oneof![Just(vec![]), proptest::collection::vec(25u64..=600_000, 1..6)],
        kep in any::<bool>(),
    ) {
        let backoff = EffectiveBackoff {
            initial_ms: initial,
            max_ms: max,
            reset_after_ms,
            schedule_ms: schedule,
            notes: vec![],
            warnings: vec![],
        };
        let run = PodRun {
            backoff: &backoff,
            run_ms,
            horizon_ms,
            model: if kep { Semantics::Kep } else { Semantics::Kubelet },
            requeue: Requeue::Ideal,
            start_latency_ms,
            seed: 7,
        };
        prop_assert_eq!(pod_restarts_gc(&run), pod_restarts_stepwise(&run));
    }

    /// The node read from runs whose periodic tails are arithmetic is the
    /// node read from the same restarts written out one by one: per-window
    /// counts, the limiter's windows (alike ones skipped by arithmetic), the
    /// pods by offset and every count; in the kubelet model each kind of
    /// request too, the status versions merged (a period of several values)
    /// and the events, through both clients' limiters, window by window.
    #[test]
    fn the_node_from_a_periodic_tail_is_the_node_from_its_restarts(
        s in prop_oneof![node_under_limits(), scenario_spread(0..=600_000), kubelet_node()],
    ) {
        let runs = pod_runs(&s);
        let written = PodRuns {
            groups: runs
                .groups
                .iter()
                .map(|(at, waits)| {
                    (Rc::new(Times::from(at.to_vec())), Rc::new(Times::from(waits.to_vec())))
                })
                .collect(),
            // Binned again, from the restarts written out.
            per_window: vec![],
            requests: runs.requests.iter().map(|r| Rc::new(r.written_out())).collect(),
            requests_per_window: runs.requests.iter().map(|_| Rc::new(vec![vec![]; 5])).collect(),
            ..runs.clone()
        };
        let (short, long) = (node_timeline(&s, &runs), node_timeline(&s, &written));
        if let (Some(a), Some(b)) = (&short.requests, &long.requests) {
            for k in RequestKind::ALL {
                prop_assert_eq!(a.windows(k), b.windows(k), "{}", k.name());
            }
            prop_assert_eq!(&short.event_api, &long.event_api);
        }
        prop_assert_eq!(&short.api, &long.api);
        prop_assert_eq!(short, long);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn restarts_increase_and_waits_stay_on_the_curve(s in scenario()) {
        let t = simulate(&s);
        let b = s.backoff();
        prop_assert!(t.restarts_at_ms.to_vec().windows(2).all(|w| w[0] < w[1]), "not increasing");
        prop_assert!(t.restarts_at_ms.iter().all(|r| r < s.horizon_ms()));
        let (lo, max) = (b.initial_ms, b.max_ms);
        // How far past the expiry a restart may land.
        let slack = match s.requeue() {
            Requeue::Ideal => 0,
            Requeue::Periodic => 15_000,
            Requeue::AtExpiry => max.min(60_000) / 2,
        };
        for (d, at) in t.delays_ms.iter().zip(t.restarts_at_ms.iter()) {
            let kubelet = s.model() == Semantics::Kubelet;
            let free = kubelet && d == 0;
            // The housekeeping GC may cut a kubelet wait short; the restart
            // then lands on a housekeeping pass (ideal timing) or a recheck.
            let cut = kubelet && d < lo && (s.requeue() != Requeue::Ideal || (at - s.spec().start_latency_ms) % HOUSEKEEPING_MS == 0);
            prop_assert!(free || cut || (lo..=max + slack).contains(&d), "wait {d} outside [{lo}, {max} + {slack}]");
        }
        // Lockstep pods: the node is pods × one pod.
        let per_pod = match &t.requests {
            Some(r) => r.pod.offered() as u64,
            None => t.restarts_at_ms.len() as u64 * t.requests_per_restart,
        };
        prop_assert_eq!(t.node_requests_per_window.iter().sum::<u64>(), per_pod * u64::from(s.pods()));
        prop_assert_eq!(t.api.admitted_per_window.len(), t.node_requests_per_window.len());
    }

    #[test]
    fn every_job_run_ends_with_one_outcome(
        completions in 1i32..=8,
        parallelism in 1i32..=8,
        backoff_limit in 0i32..=8,
        per_index in proptest::option::of(0i32..=3),
        ignore_disruptions in any::<bool>(),
        codes in proptest::collection::vec(prop_oneof![Just(-1i32), 0i32..=3, Just(42)], 1..12),
        run_ms in 1_000u64..=120_000,
    ) {
        let indexed = per_index.is_some();
        let rules = if ignore_disruptions {
            "  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n    - {action: FailJob, onExitCodes: {operator: In, values: [42]}}\n"
        } else {
            ""
        };
        let yaml = format!(
            "kind: Job\nspec:\n  completions: {completions}\n  parallelism: {parallelism}\n  backoffLimit: {backoff_limit}\n{}{}{rules}  template:\n    spec:\n      restartPolicy: Never\n      containers: [{{name: main}}]\n",
            if indexed { "  completionMode: Indexed\n" } else { "" },
            per_index.map(|p| format!("  backoffLimitPerIndex: {p}\n")).unwrap_or_default(),
        );
        let parsed = parse_job_manifest(&yaml).unwrap();
        // What the app writes reads back equal.
        prop_assert_eq!(parse_job_manifest(&crashloop_explorer::formats::manifest::job_manifest_yaml(&parsed)), Ok(parsed.clone()));
        let job = parsed.validate().unwrap();
        let attempts = codes
            .iter()
            .map(|&c| if c < 0 { Attempt::Disruption("PreemptionByScheduler".into()) } else { Attempt::Exit([("main".to_owned(), c)].into()) })
            .collect();
        let run = run_job(&job, &FailureScript { attempts, run_ms }, 86_400_000);
        prop_assert!(run.pods.len() <= 2 * MAX_PODS);
        prop_assert!(run.pods.iter().all(|p| p.start_ms <= p.end_ms && p.end_ms <= run.condition.at_ms));
        match run.condition.type_ {
            ConditionType::Complete => prop_assert_eq!(run.succeeded, completions as u32),
            ConditionType::Failed => prop_assert!(!run.condition.reason.is_empty()),
            ConditionType::Running => prop_assert!(run.condition.reason == "PodCap" || run.condition.reason == "HorizonReached"),
        }
    }

    #[test]
    fn parsers_answer_any_string(s in ".{0,200}") {
        let _ = parse_go_duration(&s);
        let _ = share::decode(&s);
        let _ = read_pods(&s, KubeletVersion::V1_37);
        let _ = FailureScript::parse(&s, "main", 1_000);
        let _ = parse_job_manifest(&s);
        let _ = serde_json::from_str::<Scenario>(&s);
        let _ = serde_json::from_str::<JobManifest>(&s).map(|m| m.validate());
        diagnose_text(&s);
        diagnose_text(&format!("Name: x\nContainers:\n  app:\n{s}"));
    }

    /// A real pod's numbers pushed anywhere: read and diagnosed, never a panic.
    #[test]
    fn any_pod_numbers_are_diagnosed(
        restarts in 0u64..=2_147_483_647,
        exit in -5i64..=300,
        run_s in 0u64..=100_000,
        wait in "[0-9]{1,6}(ms|s|m|h)",
        now_s in 0i64..=4_000_000_000,
    ) {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/web-0.json"))
            .unwrap_or_default()
            .replace("\"restartCount\": 5", &format!("\"restartCount\": {restarts}"))
            .replace("\"exitCode\": 1", &format!("\"exitCode\": {exit}"))
            .replace("back-off 2m40s", &format!("back-off {wait}"))
            .replace("2026-11-20T10:00:03Z", &crashloop_explorer::formats::time::format_rfc3339(1_795_168_800_000 + run_s as i64 * 1000));
        if let Ok((pod, _)) = parse_pod(&text, KubeletVersion::V1_37) {
            let _ = diagnose(&pod, &node(), now_s * 1000);
        }
    }

    /// A tick label to hundredths in integers is what `{:.2}` writes less
    /// its trailing zeros, where the float is not within a hair of a
    /// half-hundredth (there `{:.2}` rounds the float's exact value, ties
    /// to even, and the label halves away from zero).
    #[test]
    fn labels_to_hundredths_are_what_rust_writes(v in 0.0f64..1e12) {
        let hundredths = v * 100.0;
        prop_assume!((hundredths - hundredths.floor() - 0.5).abs() > 1e-6);
        let old = format!("{v:.2}");
        prop_assert_eq!(rounded(v, 2), old.trim_end_matches('0').trim_end_matches('.'));
    }

    #[test]
    fn parsers_answer_structured_noise(s in "[-a-z0-9:{}\\[\\],'\" #|>&*!.%=&?\n]{0,300}") {
        let _ = share::decode(&s);
        let _ = read_pods(&s, KubeletVersion::V1_37);
        let _ = parse_job_manifest(&s);
        let _ = FailureScript::parse(&s, "main", 1_000);
        diagnose_text(&s);
    }

    /// Lines of every shape kubectl prints, shuffled, cut and re-indented:
    /// a reading or an error, never a panic.
    #[test]
    fn the_pod_reader_answers_any_kubectl_like_text(
        lines in proptest::collection::vec((0usize..KUBECTL_LINES.len(), 0usize..6, ".{0,12}"), 0..60),
    ) {
        let text: String = lines
            .iter()
            .map(|(i, indent, tail)| format!("{}{}{tail}\n", " ".repeat(*indent * 2), KUBECTL_LINES[*i]))
            .collect();
        diagnose_text(&text);
    }

    #[test]
    fn links_round_trip(s in scenario()) {
        let shared = share::Shared {
            inputs: crashloop_explorer::inputs::Inputs {
                spec: s.spec().clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        let (back, notices) = share::decode(&share::encode(&shared));
        prop_assert!(notices.is_empty(), "{notices:?}");
        // Defaults are left out of links: compare with the groups spelled out.
        // Links always carry the version: an unset one reads back as the default.
        let canon = |s: &ScenarioSpec| ScenarioSpec { groups: s.effective_groups(), pods: None, run_ms: None, kubelet_version: Some(s.kubelet_version.unwrap_or_default()), ..s.clone() };
        prop_assert_eq!(canon(&back.inputs.spec), canon(&shared.inputs.spec));
    }
}

#[path = "support/below.rs"]
mod below;

#[test]
fn below_rising_matches_the_plain_count() {
    assert_eq!(below::below_matches_the_plain_count(1, 2_000), 800_000);
}
