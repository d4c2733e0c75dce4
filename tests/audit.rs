//! The KEP claims audit: every row's recomputed value. Each was worked by hand
//! from the restart times (e.g. 1 s / 30 s: 1, 3, 7 | 15 | 31, 61 | 91, 121 | 151 … 301 s).
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::audit::{audit, Verdict};
use crashloop_explorer::engine::job::FailureScript;
use crashloop_explorer::engine::Scenario;

#[test]
fn every_claim_is_recomputed() {
    let expected = [
        (
            "ten-second-crasher-30-min",
            Verdict::Matches,
            "9 (KEP curve), 10 (kubelet: first restart at once)",
        ),
        (
            "ten-second-crasher-first-5-min",
            Verdict::Matches,
            "4 (KEP curve), 5 (kubelet)",
        ),
        (
            "nine-fifty-nine-runner",
            Verdict::Matches,
            "2 (KEP curve), 2 (kubelet)",
        ),
        ("windows-for-1s-initial", Verdict::Matches, "3, 1, 2"),
        (
            "excess-per-backoff-lifetime",
            Verdict::Differs,
            "3–9 (1 s: 3–4, 250 ms: 5–6, 25 ms: 8–9)",
        ),
        (
            "excess-1s-30s-by-window",
            Verdict::Differs,
            "2, 0, 1, 1, 5 (total 9)",
        ),
        ("new-default-excess-first-5-min", Verdict::Matches, "5"),
        (
            "new-default-excess-first-30-s",
            Verdict::Convention,
            "2 counting today's restart at 30 s, 3 without it",
        ),
        ("new-default-excess-150-300-s", Verdict::Matches, "2"),
        (
            "new-default-excess-per-5-min",
            Verdict::Differs,
            "4 (5 against 1)",
        ),
        (
            "new-default-requests-per-10-s",
            Verdict::Differs,
            "550 → 1650",
        ),
        (
            "new-default-excess-requests",
            Verdict::Matches,
            "25 per pod, 2750 per node in the first 5 min; 2200 per later 5 min",
        ),
        ("one-second-cap-requests-per-10-s", Verdict::Matches, "5500"),
        ("one-second-cap-excess-first-5-min", Verdict::Differs, "296"),
        ("one-second-cap-excess-per-5-min", Verdict::Differs, "299"),
        (
            "one-second-cap-excess-requests-per-pod",
            Verdict::Differs,
            "1495",
        ),
        (
            "one-second-cap-excess-requests-per-node",
            Verdict::Differs,
            "164450",
        ),
        (
            "one-second-cap-excess-per-10-s",
            Verdict::Differs,
            "5481 per 10 s (548 per second); the KEP's own 170,500 gives 5683 per 10 s",
        ),
        (
            "client-rate-limit",
            Verdict::Differs,
            "kubeAPIQPS 50, kubeAPIBurst 100 (since 1.27; 5 and 10 before)",
        ),
        // A day of one pod: 292 restarts; 585 status versions (1,170
        // requests) with Running never seen, 878 (1,756) with it always seen;
        // 604 events sent (tests/requests.rs works them out).
        (
            "requests-per-restart",
            Verdict::Differs,
            "4.0 (Running not seen) to 6.0 (seen) /pods requests per restart, a GET and a PATCH per status version; plus 2.0 events sent per restart, which the KEP leaves out",
        ),
        ("reset-threshold", Verdict::Differs, "600 s"),
        ("k-k-123602", Verdict::Matches, "0, 10, 20, 40, 80 s"),
        (
            "kep-4603-table-today",
            Verdict::Matches,
            "KEP: 10s / 5m0s; kubelet 1.37: 10s / 5m0s",
        ),
        (
            "kep-4603-table-new-default",
            Verdict::Matches,
            "KEP: 1s / 1m0s; kubelet 1.37: 1s / 1m0s",
        ),
        (
            "kep-4603-table-60s",
            Verdict::Matches,
            "KEP: 10s / 1m0s; kubelet 1.37: 10s / 1m0s",
        ),
        (
            "kep-4603-table-2s",
            Verdict::Matches,
            "KEP: 2s / 2s; kubelet 1.37: 2s / 2s",
        ),
        (
            "kep-4603-table-2s-reduced",
            Verdict::Matches,
            "KEP: 1s / 2s; kubelet 1.37: 1s / 2s",
        ),
        (
            "kep-4603-table-30s",
            Verdict::Matches,
            "KEP: 1s / 30s; kubelet 1.37: 1s / 30s",
        ),
        (
            "kep-4603-table-300s",
            Verdict::Matches,
            "KEP: 1s / 5m0s; kubelet 1.37: 1s / 5m0s",
        ),
        (
            "kep-4603-table-61s",
            Verdict::Matches,
            "KEP: 1s / 1m1s; kubelet 1.37: 1s / 1m1s",
        ),
        (
            "kep-4603-table-today-again",
            Verdict::Matches,
            "KEP: 10s / 5m0s; kubelet 1.37: 10s / 5m0s",
        ),
        (
            "kep-4603-table-301s",
            Verdict::Matches,
            "KEP: kubelet crashes; kubelet 1.37: kubelet crashes",
        ),
        (
            "kep-4603-table-301s-reduced",
            Verdict::Matches,
            "KEP: kubelet crashes; kubelet 1.37: kubelet crashes",
        ),
        (
            "kep-5593-table-today",
            Verdict::Matches,
            "KEP: 10s / 5m0s; kubelet 1.37: 10s / 5m0s",
        ),
        (
            "kep-5593-table-2s",
            Verdict::Matches,
            "KEP: 2s / 2s; kubelet 1.37: 2s / 2s",
        ),
        (
            "kep-5593-table-10s",
            Verdict::Matches,
            "KEP: 10s / 10s; kubelet 1.37: 10s / 10s",
        ),
        (
            "kep-5593-table-11s",
            Verdict::Differs,
            "KEP: 10s / 11s; kubelet 1.37: 10s / 11s",
        ),
        (
            "kep-5593-table-300s",
            Verdict::Differs,
            "KEP: 10s / 5m0s; kubelet 1.37: 10s / 5m0s",
        ),
        (
            "kep-5593-table-301s",
            Verdict::Matches,
            "KEP: kubelet crashes; kubelet 1.37: kubelet crashes",
        ),
        (
            "backoff-gc-restart",
            Verdict::Differs,
            "waits 2m40s, 3m22s, 10s, 20s …: the 5 min wait is cut at 600 s since the last restart and the curve starts over",
        ),
        (
            "reduce-gate-alone-on-1-35",
            Verdict::Differs,
            "1s / 5m0s; 1s / 1m0s needs maxContainerRestartPeriod: 60s too",
        ),
        (
            "kep-yaml-gate-spelling",
            Verdict::Differs,
            "the code's name is ReduceDefaultCrashLoopBackOffDecay; with the KEP's spelling: unrecognized feature gate: ReduceDefaultCrashLoopBackoffDecay",
        ),
        (
            "job-ignored-failures-back-off",
            Verdict::Differs,
            "not counted, but pods at 0s, 40s, 1m30s: every failure enters the backoff record",
        ),
    ];
    let claims = audit();
    assert_eq!(claims.len(), expected.len());
    for (claim, (id, verdict, recomputed)) in claims.iter().zip(expected) {
        assert_eq!(claim.id, id);
        assert_eq!(
            (claim.verdict, claim.recomputed.as_str()),
            (verdict, recomputed),
            "{id}"
        );
        assert!(!claim.quote.is_empty() && !claim.why.is_empty() && !claim.section.is_empty());
    }
}

#[test]
fn every_claim_has_a_scenario_to_show() {
    for claim in audit() {
        // Refusals are shown as the kubelet's message.
        assert!(
            Scenario::try_from(claim.scenario.clone()).is_ok()
                || claim.recomputed.contains("crashes")
                || claim.recomputed.contains("unrecognized feature gate"),
            "{}",
            claim.id
        );
        // Job claims load a valid Job and script into the Job view.
        if let Some(job) = &claim.job {
            assert!(job.manifest.validate().is_ok(), "{}", claim.id);
            assert!(FailureScript::parse(&job.script, "main", job.run_ms).is_ok());
        }
    }
}

#[test]
fn presets_load_on_the_live_node() {
    use crashloop_explorer::engine::audit::kep_window_counts;
    use crashloop_explorer::engine::presets::presets;
    use crashloop_explorer::engine::{simulate, ExitKind, ScenarioSpec};
    let base = ScenarioSpec {
        run_ms: Some(0),
        pods: Some(50),
        ..Default::default()
    };
    let all = presets();
    assert_eq!(all.len(), 7);
    for p in &all {
        let s = Scenario::try_from(p.apply(&base)).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(s.pods(), 50, "{}", p.id);
    }
    let counts = |id: &str| {
        let p = all.iter().find(|p| p.id == id).unwrap();
        let s = Scenario::try_from(p.apply(&base)).unwrap();
        (kep_window_counts(&simulate(&s).restarts_at_ms), s)
    };
    // The KEP's figure: restarts per window (10, 30, 70, 150, 310 s).
    // 0.25, 0.75, 1.75, 3.75, 7.75 | 15.75 | 31.75, 63.75 | 127.75 | 255.75 s
    assert_eq!(counts("initial-250ms").0, [5, 1, 2, 1, 1]);
    // … 63.75 | 123.75 | 183.75, 243.75, 303.75 s
    assert_eq!(counts("rapid").0, [5, 1, 2, 1, 3]);
    let (flat, s) = counts("flat-rate-succeeded");
    assert_eq!(flat, [2, 4, 8, 16, 32]);
    assert_eq!(s.groups()[0].exit, ExitKind::Succeeded);
    assert_eq!(counts("front-loaded-with-interval").0, [3, 1, 1, 0, 0]);
}
