//! Which part of the worst case costs what: `cargo run --release --example profile`.
use std::time::Instant;

use crashloop_explorer::engine::{
    simulate, ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioSpec, Semantics,
};

fn main() {
    {
        use crashloop_explorer::engine::simulate::{pod_restarts, PodRun};
        let b = crashloop_explorer::engine::EffectiveBackoff {
            initial_ms: 25,
            max_ms: 1000,
            reset_after_ms: 600_000,
            schedule_ms: vec![],
            notes: vec![],
            warnings: vec![],
        };
        for requeue in [Requeue::Ideal, Requeue::AtExpiry] {
            let t = Instant::now();
            for seed in 0..5 {
                std::hint::black_box(pod_restarts(&PodRun {
                    backoff: &b,
                    run_ms: 0,
                    horizon_ms: 86_400_000,
                    model: Semantics::Kubelet,
                    requeue,
                    start_latency_ms: 0,
                    seed,
                }));
            }
            println!(
                "{:<40} {:>8.2} ms",
                format!("pod loop only, {requeue:?}"),
                t.elapsed().as_secs_f64() * 1000.0 / 5.0
            );
        }
    }
    let group = |pods, run_ms, spread_ms| Group {
        name: String::new(),
        pods,
        run_ms,
        exit: ExitKind::Failed,
        restart_policy: RestartPolicy::Always,
        spread_ms,
    };
    for (name, groups, band_seeds, requeue) in [
        (
            "1 lockstep group, ideal",
            vec![group(100, 0, 0)],
            0,
            Requeue::Ideal,
        ),
        (
            "1 lockstep group, at expiry, no band",
            vec![group(100, 0, 0)],
            0,
            Requeue::AtExpiry,
        ),
        (
            "1 lockstep group, at expiry, band 8",
            vec![group(100, 0, 0)],
            8,
            Requeue::AtExpiry,
        ),
        (
            "1 spread group (10 min), ideal",
            vec![group(100, 0, 600_000)],
            0,
            Requeue::Ideal,
        ),
        (
            "1 spread group (1 min), ideal",
            vec![group(100, 0, 60_000)],
            0,
            Requeue::Ideal,
        ),
    ] {
        let s = Scenario::try_from(ScenarioSpec {
            initial_ms: Some(25),
            max_ms: Some(1_000),
            horizon_ms: 86_400_000,
            model: Semantics::Kubelet,
            requeue: Some(requeue),
            band_seeds,
            groups,
            ..Default::default()
        })
        .unwrap();
        let t = Instant::now();
        for _ in 0..5 {
            std::hint::black_box(simulate(&s));
        }
        println!(
            "{name:<40} {:>8.2} ms",
            t.elapsed().as_secs_f64() * 1000.0 / 5.0
        );
    }
}

#[allow(dead_code)]
fn pod_loop_only() {}
