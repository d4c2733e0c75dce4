//! Engine numbers pinned to hand-worked values from the KEPs and kubelet source.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::{
    explore, resolve, simulate, KubeletConfig, KubeletVersion, Requeue, Scenario, ScenarioError,
    ScenarioSpec, Semantics, KUBELET_CRASH_LOOP_BACK_OFF_MAX as MAX_GATE,
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY as REDUCE,
};

const S: u64 = 1000;

fn config(
    semantics: Semantics,
    reduce: Option<bool>,
    max_gate: Option<bool>,
    period: Option<&str>,
) -> KubeletConfig {
    let mut c = KubeletConfig {
        semantics: Some(semantics),
        ..Default::default()
    };
    if let Some(v) = reduce {
        c.feature_gates.insert(REDUCE.into(), v);
    }
    if let Some(v) = max_gate {
        c.feature_gates.insert(MAX_GATE.into(), v);
    }
    c.crash_loop_back_off.max_container_restart_period = period.map(str::to_owned);
    c
}

fn curve(c: &KubeletConfig) -> (u64, u64) {
    let b = resolve(c).expect("valid config");
    (b.initial_ms / S, b.max_ms / S)
}

fn refusal(c: &KubeletConfig) -> String {
    resolve(c).expect_err("kubelet refuses").to_string()
}

fn custom(initial_ms: u64, max_ms: u64, run_ms: u64, model: Semantics) -> Scenario {
    Scenario::try_from(ScenarioSpec {
        initial_ms: Some(initial_ms),
        max_ms: Some(max_ms),
        run_ms: Some(run_ms),
        model,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    })
    .expect("valid scenario")
}

fn secs(v: &[u64]) -> Vec<u64> {
    v.iter().map(|ms| ms / S).collect()
}

// KEP-4603 "Conflict resolution" table, every row, as the KEP describes it.
#[test]
fn kep_4603_conflict_table() {
    use Semantics::Kep;
    // scenario | ReduceDefaultCrashLoopBackoffDecay | EnableKubeletCrashLoopBackoffMax | initial | max
    assert_eq!(
        curve(&config(Kep, Some(false), Some(false), None)),
        (10, 300),
        "today's behavior"
    );
    assert_eq!(
        curve(&config(Kep, Some(true), Some(false), None)),
        (1, 60),
        "new default only"
    );
    assert_eq!(
        curve(&config(Kep, Some(false), Some(true), Some("60s"))),
        (10, 60),
        "faster per node"
    );
    assert_eq!(
        curve(&config(Kep, Some(false), Some(true), Some("2s"))),
        (2, 2)
    );
    assert_eq!(
        curve(&config(Kep, Some(true), Some(true), Some("2s"))),
        (1, 2)
    );
    assert_eq!(
        curve(&config(Kep, Some(true), Some(true), Some("30s"))),
        (1, 30)
    );
    assert_eq!(
        curve(&config(Kep, Some(true), Some(true), Some("300s"))),
        (1, 300),
        "slower per node"
    );
    assert_eq!(
        curve(&config(Kep, Some(true), Some(true), Some("61s"))),
        (1, 61)
    );
    assert_eq!(
        curve(&config(Kep, Some(false), Some(true), Some("300s"))),
        (10, 300),
        "reimplements today"
    );
    for reduce in [false, true] {
        assert_eq!(
            refusal(&config(Kep, Some(reduce), Some(true), Some("301s"))),
            "failed to validate kubelet configuration, error: invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 301 seconds) must be set between 1s and 300s",
            "invalid per node config: kubelet crashes"
        );
    }
}

// KEP-5593 "Conflict resolution" table: KubeletCrashLoopBackOffMax | effective initial.
#[test]
fn kep_5593_conflict_table() {
    for semantics in [Semantics::Kep, Semantics::Kubelet] {
        let initial =
            |gate: bool, p: Option<&str>| curve(&config(semantics, None, Some(gate), p)).0;
        assert_eq!(initial(false, None), 10, "today's behavior");
        assert_eq!(initial(true, Some("2s")), 2, "faster per node config");
        assert_eq!(initial(true, Some("10s")), 10, "slower per node config");
        // The KEP's row says 11s; its own rule (initial = max only when max < initial)
        // and the kubelet both give 10 s. A slip in the table, not a behaviour.
        assert_eq!(
            initial(true, Some("11s")),
            10,
            "KEP table row '11s → 11s' is a slip"
        );
        assert_eq!(initial(true, Some("300s")), 10);
        assert!(
            resolve(&config(semantics, None, Some(true), Some("301s"))).is_err(),
            "kubelet crashes"
        );
    }
}

#[test]
fn kubelet_differs_from_the_kep_where_the_source_does() {
    use Semantics::{Kep, Kubelet};
    // KubeletCrashLoopBackOffMax is beta and on in 1.35; the KEP's alpha is off.
    assert_eq!(curve(&config(Kubelet, None, None, Some("4s"))), (4, 4));
    assert_eq!(curve(&config(Kubelet, None, None, None)), (10, 300));
    // Both gates on, field unset: the kubelet reads 300 s, the KEP keeps 60 s.
    assert_eq!(
        curve(&config(Kubelet, Some(true), Some(true), None)),
        (1, 300)
    );
    assert_eq!(curve(&config(Kep, Some(true), Some(true), None)), (1, 60));
    assert_eq!(
        curve(&config(Kubelet, Some(true), Some(false), None)),
        (1, 60)
    );
    // Field set with the gate off: the kubelet refuses, the KEP warns and ignores.
    assert_eq!(
        refusal(&config(Kubelet, None, Some(false), Some("4s"))),
        "failed to validate kubelet configuration, error: invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"
    );
    let kep = resolve(&config(Kep, None, Some(false), Some("4s"))).unwrap();
    assert_eq!((kep.initial_ms, kep.max_ms), (10_000, 300_000));
    assert!(
        kep.warnings[0].contains("does not honor"),
        "{:?}",
        kep.warnings
    );
    // Both refusals at once, in Kubernetes' aggregate form.
    assert_eq!(
        refusal(&config(Kubelet, None, Some(false), Some("0.5s"))),
        "failed to validate kubelet configuration, error: [invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set, invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.5 seconds) must be set between 1s and 300s]"
    );
}

#[test]
fn every_refusal() {
    let r = |p: &str| refusal(&config(Semantics::Kubelet, None, Some(true), Some(p)));
    assert!(r("301s").contains("(got: 301 seconds) must be set between 1s and 300s"));
    assert!(r("0.5s").contains("(got: 0.5 seconds)"));
    assert!(r("999ms").contains("(got: 0.999 seconds)"));
    assert!(r("0").contains("(got: 0 seconds)"));
    assert!(r("-1s").contains("(got: -1 seconds)"));
    assert!(r("5m0.001s").contains("(got: 300.001 seconds)"));
    assert!(r("24h").contains("(got: 86400 seconds)"));
    // As Go's Duration.Seconds() makes it: 300 + 0.062894, two float64s
    // summed (the sum rounds up to the double nearest 300.06289400000003);
    // 300062894000 / 1e9 in one step would print 300.062894.
    assert!(r("300.062894s").contains("(got: 300.06289400000003 seconds)"));
    assert!(r("5m0.093356s").contains("(got: 300.09335599999997 seconds)"));
    assert!(r("-300.062894s").contains("(got: -300.06289400000003 seconds)"));
    assert!(r("4").ends_with(r#"time: missing unit in duration "4""#));
    assert!(r("4x").ends_with(r#"time: unknown unit "x" in duration "4x""#));
    assert!(r("").ends_with(r#"time: invalid duration """#));
    // The bounds themselves are valid.
    assert_eq!(
        curve(&config(Semantics::Kubelet, None, Some(true), Some("1s"))),
        (1, 1)
    );
    assert_eq!(
        curve(&config(Semantics::Kubelet, None, Some(true), Some("5m"))),
        (10, 300)
    );
    assert_eq!(
        curve(&config(Semantics::Kubelet, None, Some(true), Some("1m30s"))),
        (10, 90)
    );
}

#[test]
fn kubelet_versions() {
    let at = |v: KubeletVersion, c: KubeletConfig| KubeletConfig {
        kubelet_version: Some(v),
        ..c
    };
    let kubelet = |reduce, max, p| config(Semantics::Kubelet, reduce, max, p);
    // Gates a version does not know: the kubelet refuses to start.
    assert_eq!(
        refusal(&at(KubeletVersion::V1_31, kubelet(None, Some(true), None))),
        "failed to validate kubelet configuration, error: unrecognized feature gate: KubeletCrashLoopBackOffMax"
    );
    assert!(
        refusal(&at(KubeletVersion::V1_32, kubelet(Some(true), None, None)))
            .ends_with("unrecognized feature gate: ReduceDefaultCrashLoopBackOffDecay")
    );
    let reduced = kubelet(Some(true), Some(false), None);
    assert_eq!(curve(&at(KubeletVersion::V1_33, reduced.clone())), (1, 60));
    assert_eq!(
        resolve(&at(KubeletVersion::V1_33, reduced))
            .unwrap()
            .reset_after_ms,
        600_000
    );
    // KubeletCrashLoopBackOffMax is alpha (off) in 1.32-1.34: the field alone is refused.
    for v in [
        KubeletVersion::V1_32,
        KubeletVersion::V1_33,
        KubeletVersion::V1_34,
    ] {
        assert!(refusal(&at(v, kubelet(None, None, Some("4s")))).contains("not enabled"));
        assert_eq!(curve(&at(v, kubelet(None, Some(true), Some("4s")))), (4, 4));
    }
    assert_eq!(
        curve(&at(KubeletVersion::V1_35, kubelet(None, None, Some("4s")))),
        (4, 4)
    );
    // 1.31 does not know the field: dropped, with a warning; its reset is 2 × max = 600 s.
    let b = resolve(&at(KubeletVersion::V1_31, kubelet(None, None, Some("4s")))).unwrap();
    assert_eq!(
        (b.initial_ms, b.max_ms, b.reset_after_ms),
        (10_000, 300_000, 600_000)
    );
    assert!(b.warnings[0].contains("dropped"), "{:?}", b.warnings);
    assert!(b.notes.iter().any(|n| n.contains("2 × max")));
    // The KEP model ignores versions.
    let mut kep = config(Semantics::Kep, Some(true), None, None);
    kep.kubelet_version = Some(KubeletVersion::V1_31);
    assert_eq!(curve(&kep), (1, 60));
}

#[test]
fn kubelet_configuration_json_shape() {
    let c: KubeletConfig = serde_json::from_str(
        r#"{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
            "featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true},
            "crashLoopBackOff": {"maxContainerRestartPeriod": "4s"}, "semantics": "kep"}"#,
    )
    .unwrap();
    assert_eq!(c.semantics, Some(Semantics::Kep));
    // KEP semantics: the max gate is alpha and off, so the field is ignored.
    let b = resolve(&c).unwrap();
    assert_eq!(
        (b.initial_ms, b.max_ms, b.reset_after_ms),
        (1_000, 60_000, 600_000)
    );
    let json = serde_json::to_value(&b).unwrap();
    assert_eq!(json["initialMs"], 1000);
    assert_eq!(json["maxMs"], 60000);
    assert_eq!(json["resetAfterMs"], 600000);
}

// "10s, 30s, 70s, 150s, 310s": today's default for an instantly crashing container.
#[test]
fn todays_default_kep_model() {
    let t = simulate(&custom(10_000, 300_000, 0, Semantics::Kep));
    assert_eq!(
        secs(&t.restarts_at_ms.to_vec()[..8]),
        [10, 30, 70, 150, 310, 610, 910, 1210]
    );
    assert_eq!(
        secs(&t.delays_ms.to_vec()[..7]),
        [10, 20, 40, 80, 160, 300, 300]
    );
}

#[test]
fn reduced_curve_kep_model() {
    let t = simulate(&custom(1_000, 60_000, 0, Semantics::Kep));
    assert_eq!(
        secs(&t.restarts_at_ms.to_vec()[..9]),
        [1, 3, 7, 15, 31, 63, 123, 183, 243]
    );
}

// k/k#133472: the first exit restarts at once, then 10, 20, 40... s.
#[test]
fn kubelet_model_first_restart_is_immediate() {
    let t = simulate(&custom(10_000, 300_000, 0, Semantics::Kubelet));
    assert_eq!(
        secs(&t.delays_ms.to_vec()[..8]),
        [0, 10, 20, 40, 80, 160, 300, 300]
    );
    assert_eq!(
        secs(&t.restarts_at_ms.to_vec()[..7]),
        [0, 10, 30, 70, 150, 310, 610]
    );
    let t = simulate(&custom(10_000, 300_000, 5_000, Semantics::Kubelet));
    assert_eq!(secs(&t.restarts_at_ms.to_vec()[..4]), [5, 20, 45, 90]);
}

// KEP-4603: "3 restarts in the first time window, 1 ... in the second, and two
// more ... within the third" for a 1 s initial value (max still 5 minutes).
#[test]
fn kep_windows_for_1s_initial() {
    let t = simulate(&custom(1_000, 300_000, 0, Semantics::Kep));
    assert_eq!(t.restarts_in_windows(&[10_000, 30_000, 70_000]), [3, 1, 2]);
    let today = simulate(&custom(10_000, 300_000, 0, Semantics::Kep));
    assert_eq!(
        today.restarts_in_windows(&[10_000, 30_000, 70_000, 150_000, 310_000]),
        [1, 1, 1, 1, 1]
    );
}

// A 10 s crash interval: 4 restarts in the first 5 minutes under today's default.
#[test]
fn ten_second_crasher_first_five_minutes() {
    let t = simulate(&custom(10_000, 300_000, 10_000, Semantics::Kep));
    assert_eq!(
        secs(&t.restarts_at_ms.to_vec()[..5]),
        [20, 50, 100, 190, 360]
    );
    assert_eq!(t.restarts_by(300_000), 4);
}

#[test]
fn reset_after_a_long_run() {
    // Runs of 601 s exceed the flat 600 s threshold: every wait is the first one.
    let long = simulate(&custom(10_000, 300_000, 601_000, Semantics::Kep));
    assert!(
        long.delays_ms.iter().all(|d| d == 10_000),
        "{:?}",
        long.delays_ms
    );
    let long = simulate(&custom(10_000, 300_000, 601_000, Semantics::Kubelet));
    assert!(
        long.delays_ms.iter().all(|d| d == 0),
        "{:?}",
        long.delays_ms
    );
    // 600 s exactly is not longer than the threshold: the curve keeps doubling.
    let edge = simulate(&custom(10_000, 300_000, 600_000, Semantics::Kep));
    assert_eq!(secs(&edge.delays_ms.to_vec()), [10, 20]);
    assert_eq!(secs(&edge.restarts_at_ms.to_vec()), [610, 1230]);
    // A reset after 120 s (2 × a 60 s max, as before 1.32).
    let mut spec = ScenarioSpec {
        initial_ms: Some(1_000),
        max_ms: Some(60_000),
        reset_after_ms: Some(120_000),
        run_ms: Some(121_000),
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    };
    let t = simulate(&Scenario::try_from(spec.clone()).unwrap());
    assert!(t.delays_ms.iter().all(|d| d == 0));
    spec.run_ms = Some(120_000);
    let t = simulate(&Scenario::try_from(spec.clone()).unwrap());
    // 120 s is not longer than the threshold, so no exit resets the curve,
    // but the housekeeping GC (every 2 s) drops the entry once 120 s have
    // passed since the last restart: restart at 120 (lastUpdate 120); exit 240,
    // wait 1 s → 241; exit 361, the 2 s wait would end at 363 but the entry
    // goes at the 362 s pass → start at 362 on a fresh curve (1 s); and so on.
    assert_eq!(secs(&t.restarts_at_ms.to_vec()[..4]), [120, 241, 362, 483]);
    assert_eq!(t.delays_ms.to_vec()[..4], [0, 1_000, 1_000, 1_000]);
    // The KEP model has no GC: the curve doubles.
    spec.model = Semantics::Kep;
    let t = simulate(&Scenario::try_from(spec).unwrap());
    assert_eq!(secs(&t.delays_ms.to_vec()[..4]), [1, 2, 4, 8]);
}

#[test]
fn node_load_is_pods_times_one_timeline() {
    let t = simulate(&custom(1_000, 60_000, 0, Semantics::Kep));
    assert_eq!(t.node_requests_per_window.len(), 180);
    // Restarts at 1, 3, 7 s fall in the first window: 3 × 5 × 110.
    assert_eq!(t.node_requests_per_window[0], 1650);
    assert_eq!(t.node_requests_per_window[1], 550);
    let total: u64 = t.node_requests_per_window.iter().sum();
    assert_eq!(total, t.restarts_at_ms.len() as u64 * 5 * 110);
}

// KEP-4603: 1 s / 60 s adds "5 excess restarts per pod in the first five minutes".
#[test]
fn excess_over_todays_default() {
    let e = explore(&custom(1_000, 60_000, 0, Semantics::Kep));
    assert_eq!(e.reference_summary.first5m.restarts_per_pod, 4);
    assert_eq!(e.summary.first5m.restarts_per_pod, 9);
    assert_eq!(e.excess.first5m.restarts_per_pod, 5);
    assert_eq!(e.excess.first5m.node_requests.offered, 5 * 5 * 110);
    // Under 50 QPS, burst 100 each burst of 550 drains within 9 s, and the
    // deepest queue (1,400 at 15 s) is gone by 54 s: all of the first 5
    // minutes' requests are sent within them, in both scenarios.
    assert_eq!(e.summary.first5m.node_requests.sent, 9 * 5 * 110);
    assert_eq!(e.summary.first5m.node_requests.queued, 0);
    assert_eq!(e.excess.first5m.requests_sent(), 5 * 5 * 110);
    // Over 30 minutes: 1 s/60 s restarts at 1,3,7,15,31,63 then every 60 s up to 1803 > 1800.
    assert_eq!(e.summary.horizon.restarts_per_pod, 6 + (1800 - 63) / 60);
    // Today's default: 10,30,70,150,310 then every 300 s: 610..1810 → 610,910,1210,1510.
    assert_eq!(e.reference_summary.horizon.restarts_per_pod, 9);
}

#[test]
fn scenario_json_and_validation() {
    let s: Scenario = serde_json::from_str(
        r#"{"initialMs": 1000, "maxMs": 60000, "runMs": 0, "horizonMs": 1800000, "pods": 110, "model": "kep"}"#,
    )
    .unwrap();
    assert_eq!(s.backoff().max_ms, 60_000);
    let with_config: Scenario = serde_json::from_str(
        r#"{"config": {"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true}}, "model": "kep"}"#,
    )
    .unwrap();
    assert_eq!(with_config.backoff().initial_ms, 1_000);
    let timeline = serde_json::to_value(simulate(&s)).unwrap();
    assert_eq!(timeline["restartsAtMs"][0], 1000);
    assert_eq!(timeline["delaysMs"][1], 2000);
    assert!(timeline["nodeRequestsPerWindow"].is_array());

    let err = |json: &str| {
        serde_json::from_str::<Scenario>(json)
            .unwrap_err()
            .to_string()
    };
    assert!(err(r#"{"pods": 0}"#).contains("pods must be between 1 and 250 (got 0)"));
    assert!(err(r#"{"pods": 1000000000}"#).contains("pods must be between 1 and 250"));
    assert!(
        err(r#"{"initialMs": 1}"#).contains("initialMs must be between 25 ms and 1 min (got 1 ms)")
    );
    assert!(
        err(r#"{"horizonMs": 999999999999}"#).contains("horizonMs must be between 1 min and 24 h")
    );
    assert!(err(r#"{"initialMs": 1000, "config": {}}"#).contains("not both"));
    assert!(err(r#"{"intialMs": 1000}"#).contains("unknown field `intialMs`"));
    assert!(err(r#"{"pods": -1}"#).contains("invalid value"));
    match Scenario::try_from(ScenarioSpec {
        config: Some(config(Semantics::Kubelet, None, None, Some("301s"))),
        ..Default::default()
    }) {
        Err(ScenarioError::Config(e)) => assert!(e.to_string().contains("301 seconds")),
        other => panic!("{other:?}"),
    }
    // A custom max below the initial lowers the initial, as the kubelet does.
    let s = custom(60_000, 1_000, 0, Semantics::Kep);
    assert_eq!((s.backoff().initial_ms, s.backoff().max_ms), (1_000, 1_000));
}

#[test]
fn worst_case_stays_bounded() {
    let s = Scenario::try_from(ScenarioSpec {
        initial_ms: Some(25),
        max_ms: Some(1_000),
        horizon_ms: 86_400_000,
        pods: Some(250),
        ..Default::default()
    })
    .unwrap();
    let t = simulate(&s);
    assert!(t.restarts_at_ms.len() < 90_000);
    assert!(t.restarts_at_ms.to_vec().windows(2).all(|w| w[0] < w[1]));
    assert_eq!(t.node_requests_per_window.len(), 8_640);
}

// 25 ms doubling to a 1 s cap, the KEP model, restarts at expiry, a crash at
// once: waits 25, 50, 100, 200, 400, 800 ms, then 1 s for ever. Restarts at
// 25, 75, 175, 375, 775, 1575 ms, then every 1000 ms while before 24 h:
// 1575 + 1000 j < 86,400,000 for j up to 86,398, so 6 + 86,398 = 86,404
// restarts, the last at 86,399,575 ms. Past the cap they are written out a
// period at a time, not stepped through (the properties test checks the two
// agree everywhere).
#[test]
fn a_capped_curve_is_periodic_to_the_horizon() {
    let s = Scenario::try_from(ScenarioSpec {
        initial_ms: Some(25),
        max_ms: Some(1_000),
        horizon_ms: 86_400_000,
        model: Semantics::Kep,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    })
    .unwrap();
    let t = simulate(&s);
    assert_eq!(t.restarts_at_ms.len(), 86_404);
    assert_eq!(
        &t.restarts_at_ms.to_vec()[..8],
        &[25, 75, 175, 375, 775, 1_575, 2_575, 3_575]
    );
    assert_eq!(
        &t.delays_ms.to_vec()[..8],
        &[25, 50, 100, 200, 400, 800, 1_000, 1_000]
    );
    assert_eq!(t.restarts_at_ms.last(), Some(86_399_575));
    assert!(t.delays_ms.to_vec()[6..].iter().all(|&d| d == 1_000));
}

#[test]
fn the_default_scenario_is_what_its_spec_parses_to() {
    assert_eq!(
        Scenario::default(),
        Scenario::try_from(ScenarioSpec::default()).unwrap()
    );
}

// The kubelet's housekeeping drops a backoff entry once `now − lastUpdate`
// passes 600 s, even in the middle of a wait (client-go `Backoff.GC`, called
// every 2 s from `HandlePodCleanups`). 10 s / 300 s, crash every 400 s: the
// restarts land at 400 (at once), 810, 1230, 1670, 2150, 2710 s; the exit at
// 3110 s would wait 300 s, but the entry (last updated at 2710 s) goes at the
// first 2 s pass after 3310 s, 3312 s: the container starts then (a 202 s
// wait) on a fresh curve: 10, 20, 40, 80, 160 s, and the cut again.
#[test]
fn backoff_gc_restarts_the_curve_during_a_wait() {
    let mut spec = ScenarioSpec {
        initial_ms: Some(10_000),
        max_ms: Some(300_000),
        run_ms: Some(400_000),
        horizon_ms: 6_400_000,
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    };
    let t = simulate(&Scenario::try_from(spec.clone()).unwrap());
    assert_eq!(
        secs(&t.restarts_at_ms.to_vec()),
        [400, 810, 1230, 1670, 2150, 2710, 3312, 3722, 4142, 4582, 5062, 5622, 6224]
    );
    assert_eq!(
        secs(&t.delays_ms.to_vec()),
        [0, 10, 20, 40, 80, 160, 202, 10, 20, 40, 80, 160, 202]
    );
    assert_eq!(secs(&t.gc_restarts_at_ms), [3312, 6224]);
    // The KEP's model has no GC: 10, 20, 40, 80, 160, 300, 300 s.
    spec.model = Semantics::Kep;
    let t = simulate(&Scenario::try_from(spec).unwrap());
    assert_eq!(
        secs(&t.delays_ms.to_vec()[..7]),
        [10, 20, 40, 80, 160, 300, 300]
    );
    assert!(t.gc_restarts_at_ms.is_empty());
}

// The reset test at an exit compares FinishedAt with `lastUpdate`, the moment
// of the previous restart (when `Next` ran), not the previous exit and not
// when the container began to run: with a 10 s start latency a 595 s run
// ends 605 s after the restart decision, past 600 s, so every exit restarts
// at once (each wait is only the 10 s latency).
#[test]
fn reset_measures_from_the_previous_restart() {
    let spec = ScenarioSpec {
        initial_ms: Some(10_000),
        max_ms: Some(300_000),
        run_ms: Some(595_000),
        start_latency_ms: 10_000,
        horizon_ms: 7_200_000,
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    };
    let t = simulate(&Scenario::try_from(spec).unwrap());
    assert!(t.delays_ms.iter().all(|d| d == 10_000), "{:?}", t.delays_ms);
    // Without the latency, 595 s is within 600 s of the restart: no reset at
    // the exit, but the GC drops the entry at the first pass after 600 s
    // since the restart, 6 s into the 10 s wait: restarts at 595, 1196 s.
    let t = simulate(&custom(10_000, 300_000, 595_000, Semantics::Kubelet));
    assert_eq!(secs(&t.restarts_at_ms.to_vec()[..2]), [595, 1196]);
}

// The kubelet range-checks maxContainerRestartPeriod in whole milliseconds
// (`Duration.Milliseconds()` truncates): 300.0009 s is 300 000 ms and passes,
// 300.001 s is 300 001 ms and is refused; 0.9999 s is 999 ms and is refused.
#[test]
fn max_restart_period_is_checked_in_whole_milliseconds() {
    let period = |p: &str| resolve(&config(Semantics::Kubelet, None, Some(true), Some(p)));
    assert_eq!(period("300.0009s").map(|b| b.max_ms), Ok(300_000));
    assert!(period("300.001s").is_err());
    assert!(period("0.9999s").is_err());
    assert_eq!(period("1000ms").map(|b| b.max_ms), Ok(1_000));
}

// Kubelet 1.36 and 1.37 behave as 1.35 for the curve; 1.37 is the default.
#[test]
fn versions_1_36_and_1_37() {
    use crashloop_explorer::engine::KubeletVersion;
    assert_eq!(KubeletVersion::default(), KubeletVersion::V1_37);
    for v in [
        KubeletVersion::V1_35,
        KubeletVersion::V1_36,
        KubeletVersion::V1_37,
    ] {
        let c = KubeletConfig {
            kubelet_version: Some(v),
            ..config(Semantics::Kubelet, Some(true), None, None)
        };
        // ReduceDefault… alone: 1 s initial, but the max gate is on and the
        // unset field reads as 300 s.
        assert_eq!(curve(&c), (1, 300), "{}", v.name());
    }
    assert_eq!(KubeletVersion::parse("1.37"), Some(KubeletVersion::V1_37));
    assert_eq!(
        KubeletVersion::V1_36.gate_default("RestartAllContainersOnContainerExits"),
        Some(true)
    );
    assert_eq!(
        KubeletVersion::V1_35.gate_default("RestartAllContainersOnContainerExits"),
        Some(false)
    );
    assert_eq!(
        KubeletVersion::V1_34.gate_default("ContainerRestartRules"),
        Some(false)
    );
}
