//! Kubelet timing (requeue jitter, start latency), workload groups, the rate
//! limiter on a node, and schedule curves.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::node::Offsets;
use crashloop_explorer::engine::requests::PodRequests;
use crashloop_explorer::engine::restart_rules::ContainerRestartRule;
use crashloop_explorer::engine::simulate::{pod_restarts, pod_restarts_gc, PodRun};
use crashloop_explorer::engine::windows::LOAD_WINDOW_MS;
use crashloop_explorer::engine::{
    simulate, EffectiveBackoff, ExitKind, Group, KubeletVersion, RequestKind, Requeue,
    RestartPolicy, Scenario, ScenarioSpec, Semantics,
};

fn curve(initial_ms: u64, max_ms: u64) -> EffectiveBackoff {
    EffectiveBackoff {
        initial_ms,
        max_ms,
        reset_after_ms: 600_000,
        schedule_ms: vec![],
        notes: vec![],
        warnings: vec![],
    }
}

fn run(b: &EffectiveBackoff, run_ms: u64, requeue: Requeue, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let (at, delays) = pod_restarts(&PodRun {
        backoff: b,
        run_ms,
        horizon_ms: 7_200_000,
        model: Semantics::Kubelet,
        requeue,
        start_latency_ms: 0,
        seed,
    });
    (at.to_vec(), delays.to_vec())
}

fn scenario(spec: ScenarioSpec) -> Scenario {
    Scenario::try_from(spec).expect("valid scenario")
}

#[test]
fn requeue_at_expiry_is_1_to_1_5_times_and_seeded() {
    let b = curve(1_000, 60_000);
    let (_, ideal) = run(&b, 0, Requeue::Ideal, 0);
    let mut differs = false;
    for seed in 0..50 {
        let (at, delays) = run(&b, 0, Requeue::AtExpiry, seed);
        assert_eq!(
            (at.clone(), delays.clone()),
            run(&b, 0, Requeue::AtExpiry, seed),
            "deterministic per seed"
        );
        assert_eq!(delays[0], 0, "the first restart is still free");
        // Each wait follows the backoff the kubelet holds: 1, 2, 4 ... 60 s.
        for (i, &d) in delays.iter().enumerate().skip(1).take(12) {
            let wait = ideal[i];
            assert!(d >= wait, "seed {seed}: wait {i} {d} < {wait}");
            assert!(
                d * 2 <= wait * 3,
                "seed {seed}: wait {i} {d} > 1.5 × {wait}"
            );
        }
        differs |= delays != run(&b, 0, Requeue::AtExpiry, seed + 1).1;
    }
    assert!(differs, "seeds change the draw");
}

#[test]
fn requeue_at_expiry_is_clamped_to_a_minute_steps() {
    // A 300 s wait is reached in requeues of at most 1.5 × 60 s: never early,
    // at most 30 s late.
    let (_, delays) = run(&curve(300_000, 300_000), 0, Requeue::AtExpiry, 3);
    for &d in &delays[1..10] {
        assert!((300_000..=330_000).contains(&d), "{d}");
    }
}

#[test]
fn periodic_recheck_adds_up_to_15_seconds() {
    let b = curve(10_000, 300_000);
    let (_, ideal) = run(&b, 0, Requeue::Ideal, 0);
    for seed in 0..20 {
        let (_, delays) = run(&b, 0, Requeue::Periodic, seed);
        for (i, &d) in delays.iter().enumerate().skip(1).take(8) {
            assert!(
                d >= ideal[i] && d < ideal[i] + 15_000,
                "seed {seed}: {d} vs {}",
                ideal[i]
            );
        }
    }
}

#[test]
fn start_latency_is_added_to_each_restart() {
    let b = curve(10_000, 300_000);
    let (at, delays) = pod_restarts(&PodRun {
        backoff: &b,
        run_ms: 0,
        horizon_ms: 1_000_000,
        model: Semantics::Kubelet,
        requeue: Requeue::Ideal,
        start_latency_ms: 2_000,
        seed: 0,
    });
    // Exit at 0, restart decided at once, running at 2 s; exit at 2 s, the
    // backoff (10 s since that exit) lets it restart at 12 s, running at 14 s.
    assert_eq!(&at.to_vec()[..4], [2_000, 14_000, 36_000, 78_000]);
    assert_eq!(&delays.to_vec()[..4], [2_000, 12_000, 22_000, 42_000]);
}

#[test]
fn versions_choose_the_requeue() {
    let spec = |v: &str| {
        serde_json::from_str::<Scenario>(&format!(r#"{{"kubeletVersion": "{v}"}}"#)).unwrap()
    };
    assert_eq!(spec("1.35").requeue(), Requeue::AtExpiry);
    assert_eq!(spec("1.34").requeue(), Requeue::Periodic);
    let kep: Scenario = serde_json::from_str(r#"{"model": "kep"}"#).unwrap();
    assert_eq!(kep.requeue(), Requeue::Ideal);
}

#[test]
fn restart_policy_and_exit_kind() {
    let group = |exit, restart_policy| Group {
        name: "g".into(),
        pods: 3,
        run_ms: 5_000,
        exit,
        restart_policy,
        spread_ms: 0,
        ..Group::default()
    };
    let t = simulate(&scenario(ScenarioSpec {
        groups: vec![
            group(ExitKind::Succeeded, RestartPolicy::OnFailure),
            group(ExitKind::Failed, RestartPolicy::OnFailure),
            group(ExitKind::Succeeded, RestartPolicy::Always),
            group(ExitKind::Failed, RestartPolicy::Never),
        ],
        ..Default::default()
    }));
    let restarted: Vec<bool> = t.groups.iter().map(|g| g.restarts_per_pod > 0).collect();
    assert_eq!(restarted, [false, true, true, false]);
    assert_eq!(
        t.node_restarts(),
        3 * (t.groups[1].restarts_per_pod + t.groups[2].restarts_per_pod)
    );
}

/// Each pod on its own: simulated from its own start, binned one by one.
fn brute_force(s: &Scenario) -> (Vec<u64>, u64) {
    let horizon = s.horizon_ms();
    let mut windows = vec![0u64; horizon.div_ceil(LOAD_WINDOW_MS) as usize];
    let mut restarts = 0;
    for (gi, g) in s.groups().iter().enumerate() {
        for i in 0..u64::from(g.pods) {
            // Pod i starts floor(i × k / pods) whole 10 s windows late.
            let k = g.spread_ms / LOAD_WINDOW_MS;
            let offset = i * k / u64::from(g.pods) * LOAD_WINDOW_MS;
            if offset >= horizon {
                continue;
            }
            let r = pod_restarts_gc(&PodRun {
                backoff: s.backoff(),
                run_ms: g.run_ms,
                horizon_ms: horizon - offset,
                model: s.model(),
                requeue: s.requeue(),
                start_latency_ms: s.spec().start_latency_ms,
                seed: s.spec().seed ^ (gi as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            });
            if s.model() == Semantics::Kubelet {
                // The kinds sent, each request in its window.
                let pod =
                    PodRequests::of(r.clone(), g.run_ms, horizon - offset, s.running_seen(gi));
                for k in RequestKind::ALL.into_iter().filter(|k| k.offered()) {
                    for (w, slot) in windows.iter_mut().enumerate() {
                        let bound =
                            |w: u64| (w * LOAD_WINDOW_MS).min(horizon).saturating_sub(offset);
                        *slot += pod.below(k, bound(w as u64 + 1)) - pod.below(k, bound(w as u64));
                    }
                }
            }
            for t in r.at.iter() {
                if s.model() == Semantics::Kep {
                    let w = (((t + offset) / LOAD_WINDOW_MS) as usize).min(windows.len() - 1);
                    windows[w] += u64::from(s.spec().requests_per_restart);
                }
                restarts += 1;
            }
        }
    }
    (windows, restarts)
}

#[test]
fn mixed_groups_equal_a_pod_by_pod_simulation() {
    let mk = |name: &str, pods, run_ms, spread_ms| Group {
        name: name.into(),
        ..Group::crash_looping(pods, run_ms, spread_ms)
    };
    for (model, requeue) in [
        (Semantics::Kep, Requeue::Ideal),
        (Semantics::Kubelet, Requeue::AtExpiry),
        (Semantics::Kubelet, Requeue::Periodic),
    ] {
        let s = scenario(ScenarioSpec {
            initial_ms: Some(1_000),
            max_ms: Some(60_000),
            groups: vec![
                mk("lockstep", 5, 0, 0),
                mk("spread", 7, 5_000, 45_000),
                mk("slow", 3, 95_000, 600_000),
            ],
            horizon_ms: 900_000,
            model,
            requeue: Some(requeue),
            start_latency_ms: 1_500,
            ..Default::default()
        });
        let t = simulate(&s);
        let (windows, restarts) = brute_force(&s);
        assert_eq!(t.node_requests_per_window, windows, "{model:?} {requeue:?}");
        assert_eq!(t.node_restarts(), restarts);
        assert_eq!(t.pods, 15);
    }
    // More pods than offsets (several per offset, in two sizes), a partial
    // last window, and a spread longer than the horizon.
    for (pods, spread_ms, horizon_ms) in [
        (100, 600_000, 905_000),
        (50, 600_000, 900_000),
        (59, 600_000, 600_000),
        (61, 600_000, 999_999),
        (243, 70_000, 123_456),
        (23, 600_000, 300_000),
        (110, 300_000, 7_200_000),
    ] {
        // Restarts in most windows, and in few (today's cap).
        for (initial_ms, max_ms) in [(1_000, 20_000), (10_000, 300_000)] {
            let s = scenario(ScenarioSpec {
                initial_ms: Some(initial_ms),
                max_ms: Some(max_ms),
                groups: vec![mk("a", pods, 0, spread_ms), mk("b", 7, 3_000, 0)],
                horizon_ms,
                model: Semantics::Kubelet,
                requeue: Some(Requeue::AtExpiry),
                ..Default::default()
            });
            let t = simulate(&s);
            let (windows, restarts) = brute_force(&s);
            assert_eq!(
                t.node_requests_per_window, windows,
                "{pods} over {spread_ms}"
            );
            assert_eq!(t.node_restarts(), restarts, "{pods} over {spread_ms}");
        }
    }
}

#[test]
fn spread_offsets_count_pods_in_closed_form() {
    let o = Offsets {
        pods: 110,
        spread_ms: 300_000,
    };
    let brute = |lo: i64, hi: i64| {
        (0..110)
            .filter(|&i| (lo..hi).contains(&(o.offset(i) as i64)))
            .count() as u64
    };
    for (lo, hi) in [
        (0, 1),
        (0, 10_000),
        (2_727, 25_455),
        (290_000, 300_000),
        (-5, 3),
        (299_999, 400_000),
    ] {
        assert_eq!(
            o.started_by(hi - 1) - o.started_by(lo - 1),
            brute(lo, hi),
            "[{lo}, {hi})"
        );
    }
    // 30 windows: 110 pods in 30 offsets, 3 or 4 each.
    assert_eq!(o.offset(109), 290_000);
}

#[test]
fn the_rate_limiter_on_a_node() {
    // 110 lockstep pods, pre-1.27 limits. The KEP's flat 5 per restart: the
    // first restart (10 s; the KEP has no immediate one) makes 550 requests
    // that drain at 5/s (10 at once, 50 more in the window, the last after
    // 108 s).
    let s = scenario(ScenarioSpec {
        model: Semantics::Kep,
        requeue: Some(Requeue::Ideal),
        kube_api_qps: 5,
        kube_api_burst: 10,
        ..Default::default()
    });
    let t = simulate(&s);
    assert_eq!(t.node_requests_per_window[..2], [0, 550]);
    assert_eq!(t.api.admitted_per_window[1], 60);
    assert_eq!(t.api.max_queue_delay_ms[1], 108_000);
    // The kubelet: at 0 s each pod's status has three versions (Pending, the
    // first exit, the second, which its immediate restart made), a GET and a
    // PATCH each: 660, of which 10 pass at once and 650 wait up to 130 s.
    let kubelet = |qps, burst| {
        simulate(&scenario(ScenarioSpec {
            model: Semantics::Kubelet,
            requeue: Some(Requeue::Ideal),
            kube_api_qps: qps,
            kube_api_burst: burst,
            ..Default::default()
        }))
    };
    let t = kubelet(5, 10);
    let r = t.requests.as_ref().expect("kubelet model");
    assert_eq!(r.get_pods[0] + r.patch_pod_status[0], 660);
    assert_eq!(t.api.admitted_per_window[0], 60);
    assert_eq!(t.api.max_queue_delay_ms[0], 130_000);
    let status: u64 = r.get_pods.iter().chain(&r.patch_pod_status).sum();
    assert_eq!(t.api.admitted_per_window.iter().sum::<u64>(), status);
    // Today's limits (50/100): 560 wait, the last 11.2 s.
    assert_eq!(kubelet(50, 100).api.max_queue_delay_ms[0], 11_200);
}

// KEP-4603 "Front loaded decay with interval": 1 s initial, a 569 s catch-up
// on the 6th retry (then, as modelled here, today's 300 s cap).
#[test]
fn a_schedule_curve() {
    let s = scenario(ScenarioSpec {
        initial_ms: Some(1_000),
        max_ms: Some(300_000),
        schedule_ms: vec![1_000, 2_000, 4_000, 8_000, 16_000, 569_000],
        model: Semantics::Kep,
        horizon_ms: 3_600_000,
        ..Default::default()
    });
    let t = simulate(&s);
    let secs: Vec<u64> = t.restarts_at_ms.iter().map(|ms| ms / 1000).collect();
    assert_eq!(&secs[..8], [1, 3, 7, 15, 31, 600, 900, 1200]);
    // The catch-up makes the 6th restart land by 600 s, as today's 6th does (610 s).
    assert_eq!(t.restarts_by(600_000), 6);
    // A long run resets the schedule.
    let long = simulate(&scenario(ScenarioSpec {
        run_ms: Some(601_000),
        ..s.spec().clone()
    }));
    assert!(long.delays_ms.iter().all(|d| d == 1_000));
}

#[test]
fn the_band_spans_the_seeds() {
    let s = scenario(ScenarioSpec {
        initial_ms: Some(1_000),
        max_ms: Some(60_000),
        model: Semantics::Kubelet,
        ..Default::default()
    });
    let t = simulate(&s);
    let band = t.band.as_ref().expect("jittered timing has a band");
    assert_eq!(band.seeds, 8);
    assert!(band.min.iter().zip(&band.max).all(|(lo, hi)| lo <= hi));
    assert!(
        band.min.iter().zip(&band.max).any(|(lo, hi)| lo < hi),
        "jitter shows"
    );
    let ideal = simulate(&scenario(ScenarioSpec {
        requeue: Some(Requeue::Ideal),
        ..s.spec().clone()
    }));
    assert!(ideal.band.is_none());
    // The ideal line is never above the band: jitter only delays.
    for (j, &time) in band.times_ms.iter().enumerate() {
        assert!(band.max[j] <= ideal.restarts_by(time), "at {time}");
    }
}

// KEP-5307: a `restartPolicy: Never` pod whose container has its own
// `restartPolicy: Never` and a rule restarting it on exit 42. Kubelet 1.37
// defaults (10 s / 5 min), restarts at expiry: it runs 30 s each time and
// restarts in place at 30 (at once), 70, 120, 190, 300, 490 s (waits 0, 10,
// 20, 40, 80, 160 s after exits at 30, 60, 100, 150, 220, 330 s).
#[test]
fn container_restart_rules_restart_in_place() {
    let rules = || ScenarioSpec {
        groups: vec![Group {
            pods: 1,
            run_ms: 30_000,
            exit: ExitKind::Failed,
            exit_code: Some(42),
            restart_policy: RestartPolicy::Never,
            container_restart_policy: Some(RestartPolicy::Never),
            restart_policy_rules: vec![ContainerRestartRule::restart_on(&[42])],
            ..Group::default()
        }],
        requeue: Some(Requeue::Ideal),
        horizon_ms: 600_000,
        ..Default::default()
    };
    let t = simulate(&scenario(rules()));
    assert_eq!(
        *t.restarts_at_ms,
        vec![30_000, 70_000, 120_000, 190_000, 300_000, 490_000]
    );
    // Exit 1 matches no rule: the container's Never keeps it down.
    let mut spec = rules();
    spec.groups[0].exit_code = Some(1);
    assert!(simulate(&scenario(spec)).restarts_at_ms.is_empty());
    // Kubelet 1.34: ContainerRestartRules is alpha (off); the API server
    // drops the fields and the pod's Never applies.
    let mut spec = rules();
    spec.kubelet_version = Some(KubeletVersion::V1_34);
    let s = scenario(spec);
    assert!(
        s.warnings()[0].contains("dropped by the API server"),
        "{:?}",
        s.warnings()
    );
    assert!(simulate(&s).restarts_at_ms.is_empty());
    // RestartAllContainers is beta from 1.36; 1.35 refuses it in the API's words.
    let mut spec = rules();
    spec.kubelet_version = Some(KubeletVersion::V1_35);
    spec.groups[0].restart_policy_rules[0].action = "RestartAllContainers".into();
    assert_eq!(
        Scenario::try_from(spec).unwrap_err().to_string(),
        "groups[0].container.restartPolicyRules[0].action: Unsupported value: \"RestartAllContainers\": supported values: \"Restart\""
    );
    // Rules need the container's own restartPolicy.
    let mut spec = rules();
    spec.groups[0].container_restart_policy = None;
    assert_eq!(
        Scenario::try_from(spec).unwrap_err().to_string(),
        "groups[0].container.restartPolicy: Required value: must specify restartPolicy when restart rules are used"
    );
}
