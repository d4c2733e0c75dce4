//! The pod as `kubectl get pod -w` shows it, its conditions, sidecars, and
//! KEP-4576's proposed PodTerminated condition.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::lifecycle::{
    human_duration, lifecycle, Cleanup, LifecycleSpec, Sidecar,
};
use crashloop_explorer::engine::{
    ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioSpec, Semantics,
};

fn scenario(run_ms: u64, exit: ExitKind, restart_policy: RestartPolicy) -> Scenario {
    Scenario::try_from(ScenarioSpec {
        groups: vec![Group {
            name: String::new(),
            pods: 1,
            run_ms,
            exit,
            restart_policy,
            spread_ms: 0,
            ..Group::default()
        }],
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        horizon_ms: 600_000,
        ..Default::default()
    })
    .unwrap()
}

fn life(s: &Scenario, spec: &LifecycleSpec) -> crashloop_explorer::engine::lifecycle::Lifecycle {
    lifecycle(
        s,
        spec,
        &crashloop_explorer::engine::pod_runs(s).groups[0].0,
    )
}

fn rows(l: &crashloop_explorer::engine::lifecycle::Lifecycle, n: usize) -> Vec<String> {
    l.lines
        .iter()
        .take(n)
        .map(|w| format!("{} {} {} {}", w.ready, w.status, w.restarts, w.age))
        .collect()
}

#[test]
fn kubectl_ages() {
    for (ms, want) in [
        (29_000, "29s"),
        (119_999, "119s"),
        (120_000, "2m"),
        (139_000, "2m19s"),
        (600_000, "10m"),
        (10_799_000, "179m"),
        (10_800_000, "3h"),
        (11_100_000, "3h5m"),
        (28_800_000, "8h"),
        (172_800_000, "2d"),
        (183_600_000, "2d3h"),
    ] {
        assert_eq!(human_duration(ms), want, "{ms}");
    }
}

// Like the KEP's trace: a container that completes after 6 s gets a free first
// restart, then CrashLoopBackOff before each later one.
#[test]
fn a_crash_looping_pod_as_kubectl_prints_it() {
    let l = life(
        &scenario(6_000, ExitKind::Succeeded, RestartPolicy::Always),
        &LifecycleSpec::default(),
    );
    assert_eq!(
        rows(&l, 8),
        [
            "1/1 Running 0 0s",
            "0/1 Completed 0 6s",
            "1/1 Running 1 (0s ago) 6s",
            "0/1 Completed 1 (0s ago) 12s",
            "0/1 CrashLoopBackOff 1 (1s ago) 13s",
            "1/1 Running 2 (10s ago) 22s",
            "0/1 Completed 2 (0s ago) 28s",
            "0/1 CrashLoopBackOff 2 (1s ago) 29s",
        ]
    );
    assert!(l.phase.is_none() && l.pod_terminated_at_ms.is_none());
    let ready: Vec<(u64, bool)> = l
        .conditions
        .iter()
        .filter(|c| c.type_ == "Ready")
        .map(|c| (c.at_ms, c.status))
        .collect();
    // The exit and free restart at 6 s are one instant: Ready stays True through it.
    assert_eq!(&ready[..3], [(0, true), (12_000, false), (22_000, true)]);
}

#[test]
fn a_pod_that_ends_then_terminates_after_cleanup() {
    let l = life(
        &scenario(30_000, ExitKind::Failed, RestartPolicy::Never),
        &LifecycleSpec::default(),
    );
    assert_eq!(rows(&l, 5), ["1/1 Running 0 0s", "0/1 Error 0 30s"]);
    assert_eq!(l.phase, Some((30_000, "Failed".to_owned())));
    // Phase first; PodTerminated only after volumes, secrets, cgroups and userns.
    assert_eq!(
        l.pod_terminated_at_ms,
        Some(30_000 + 5_000 + 100 + 1_000 + 100)
    );
    let last = l.conditions.last().unwrap();
    assert!(last.type_ == "PodTerminated" && last.proposal && last.status);
    // OnFailure does not restart a Succeeded container: the phase is Succeeded.
    let slow_unmount = LifecycleSpec {
        cleanup: Cleanup {
            unmount_volumes_ms: 120_000,
            ..Cleanup::default()
        },
        ..LifecycleSpec::default()
    };
    let l = life(
        &scenario(30_000, ExitKind::Succeeded, RestartPolicy::OnFailure),
        &slow_unmount,
    );
    assert_eq!(l.phase, Some((30_000, "Succeeded".to_owned())));
    assert_eq!(l.pod_terminated_at_ms, Some(30_000 + 120_000 + 1_200));
}

#[test]
fn deletion_and_sidecars() {
    let spec = LifecycleSpec {
        sidecar: Some(Sidecar {
            crash_after_ms: Some(20_000),
        }),
        delete_at_ms: Some(100_000),
        ..LifecycleSpec::default()
    };
    let l = life(
        &scenario(600_000 - 1, ExitKind::Failed, RestartPolicy::Always),
        &spec,
    );
    assert_eq!(l.containers.len(), 2);
    let lines = rows(&l, 4);
    assert_eq!(lines[0], "1/2 Running 0 0s");
    assert_eq!(lines[1], "2/2 Running 0 0s");
    // The sidecar crashes at 20 s and restarts at once (its own backoff entry).
    assert_eq!(lines[2], "1/2 Running 0 20s");
    assert_eq!(lines[3], "2/2 Running 1 (0s ago) 20s");
    let last = l.lines.last().unwrap();
    assert_eq!(
        (last.status.as_str(), last.at_ms, last.ready.as_str()),
        ("Terminating", 100_000, "0/2")
    );
    assert_eq!(l.phase, Some((100_000, "Failed".to_owned())));
    assert!(l.pod_terminated_at_ms.unwrap() > 100_000);
}

#[test]
fn instant_crashes_read_in_order() {
    let l = life(
        &scenario(0, ExitKind::Failed, RestartPolicy::Always),
        &LifecycleSpec::default(),
    );
    assert_eq!(
        rows(&l, 7),
        [
            "1/1 Running 0 0s",
            "0/1 Error 0 0s",
            "1/1 Running 1 (0s ago) 0s",
            "0/1 Error 1 (0s ago) 0s",
            "0/1 CrashLoopBackOff 1 (1s ago) 1s",
            "1/1 Running 2 (10s ago) 10s",
            "0/1 Error 2 (0s ago) 10s",
        ]
    );
    // A 0 s run is never ready for a measurable time: Ready is False from the start.
    let ready: Vec<(u64, bool)> = l
        .conditions
        .iter()
        .filter(|c| c.type_ == "Ready")
        .map(|c| (c.at_ms, c.status))
        .collect();
    assert_eq!(ready, [(0, false)]);
}
