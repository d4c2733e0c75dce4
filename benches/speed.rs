//! Engine cost, measured (not asserted): `cargo bench --bench speed`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crashloop_explorer::app::state::{Action, GroupEdit, State};
use crashloop_explorer::chart::{draw_delays, draw_load, draw_restarts, ChartData, Series};
use crashloop_explorer::engine::{
    explore, resolve, simulate, Group, KubeletConfig, Requeue, Scenario, ScenarioSpec, Semantics,
};
use plotters::prelude::*;
use yew::Reducible;

/// `scripts/bench.mjs`'s worst case.
const WORST_QUERY: &str = "v=1.37&i=25ms&x=1s&h=24h0m0s&rq=atExpiry&g=100.0s.f.A.0s.lockstep&g=100.0s.f.A.10m0s.spread&g=50.30s.f.A.10m0s.slow&c=rapid,initial-25ms,new-default";

/// Median time per call over enough calls to fill ~0.3 s.
fn measure(name: &str, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < Duration::from_millis(50) {
        f();
        calls += 1;
    }
    let batch = calls.max(1);
    let mut samples: Vec<Duration> = (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                f();
            }
            t.elapsed() / batch
        })
        .collect();
    samples.sort();
    let median = samples[3];
    println!("{name:<58} {:>12.3} µs", median.as_secs_f64() * 1e6);
    median
}

fn scenario(initial: u64, max: u64, horizon: u64, pods: u32) -> Scenario {
    Scenario::try_from(ScenarioSpec {
        initial_ms: Some(initial),
        max_ms: Some(max),
        horizon_ms: horizon,
        pods: Some(pods),
        model: Semantics::Kep,
        ..Default::default()
    })
    .expect("valid")
}

/// A paste of `lines` generated until it reaches the reader's 1 MB limit.
fn megabyte(head: &str, line: impl Fn(usize) -> String) -> String {
    let limit = crashloop_explorer::formats::pod::MAX_POD_TEXT;
    let mut text = head.to_owned();
    for i in 0.. {
        let next = line(i);
        if text.len() + next.len() > limit {
            break;
        }
        text.push_str(&next);
    }
    text
}

/// The pod reader at its size limit, each shape: read and diagnosed.
fn pod_reader() {
    use crashloop_explorer::engine::config::KubeletVersion;
    use crashloop_explorer::engine::pod::{diagnose_pods, NodeAssumption};
    use crashloop_explorer::formats::pod::read_pods;
    let node = NodeAssumption {
        backoff: resolve(&KubeletConfig::default()).expect("defaults"),
        version: KubeletVersion::V1_37,
        label: "defaults".into(),
    };
    let texts = [
        (
            "kubectl get pods -A table",
            megabyte(
                "NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE\n",
                |i| {
                    format!(
                        "ns{}   pod-{i}   0/1   CrashLoopBackOff   {} ({}s ago)   21m\n",
                        i % 50,
                        i % 30,
                        i % 300
                    )
                },
            ),
        ),
        (
            "kubectl describe pods",
            megabyte("", |i| {
                format!("Name: p{i}\nNamespace: n\nContainers:\n  app:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Exit Code:    1\n      Started:      Wed, 14 Jul 2021 19:52:22 +0000\n      Finished:     Wed, 14 Jul 2021 19:52:25 +0000\n    Restart Count:  {}\n", i % 20)
            }),
        ),
        (
            "a List in YAML",
            megabyte("kind: List\nitems:\n", |i| {
                format!("- kind: Pod\n  metadata:\n    name: p{i}\n    namespace: n\n  status:\n    containerStatuses:\n    - name: a\n      restartCount: {}\n      state:\n        waiting:\n          reason: CrashLoopBackOff\n      lastState:\n        terminated:\n          exitCode: 1\n          startedAt: \"2026-11-20T10:00:00Z\"\n          finishedAt: \"2026-11-20T10:00:05Z\"\n", i % 20)
            }),
        ),
        (
            "back-off events",
            megabyte("", |i| {
                format!("  Warning  BackOff  1s (x9 over 2m)  kubelet  Back-off restarting failed container app in pod p{i}_n(u)\n")
            }),
        ),
    ];
    for (name, text) in &texts {
        measure(&format!("pod reader, 1 MB: {name}"), || {
            let read = read_pods(black_box(text), KubeletVersion::V1_37).expect("reads");
            black_box(diagnose_pods(&read.pods, &node, 1_795_000_000_000, true));
        });
    }
}

/// The cluster: three classes of 5,000 nodes × 110 pods, a day at a 1 s cap.
fn cluster() {
    use crashloop_explorer::engine::apf::ApiServer;
    use crashloop_explorer::engine::cluster::{evaluate, Cluster, NodeClass};
    let class = |name: &str, spread_ms| NodeClass {
        name: name.into(),
        nodes: 5_000,
        scenario: scenario(1_000, 1_000, 86_400_000, 110),
        spread_ms,
    };
    let c = Cluster {
        node_classes: vec![class("a", 0), class("b", 600_000), class("c", 3_600_000)],
        api_server: ApiServer::default(),
        other_nodes: 0,
    };
    measure(
        "cluster: 3 classes × 5,000 nodes × 110 pods, 24 h, 1 s cap",
        || {
            black_box(evaluate(black_box(&c)));
        },
    );
    // What the cluster view works out on a move at its first view (one
    // class, 30 min: the curves and the sweep), and the sweep it leaves for
    // the controls' rest at the size above.
    use crashloop_explorer::engine::cluster::sweep;
    use crashloop_explorer::engine::cluster_view::{recommendation, show, ClusterInputs};
    let first = ClusterInputs::default();
    measure(
        "cluster view: a move at the first view (curves + sweep)",
        || {
            black_box(show(black_box(&first)).ok());
            black_box(recommendation(black_box(&first)).ok());
        },
    );
    measure(
        "cluster sweep: 108 values × the 3 classes above (after the controls rest)",
        || {
            black_box(sweep(black_box(&c), false));
        },
    );
    // A node count moved: every value's nodes are kept, and re-summed.
    use crashloop_explorer::engine::cluster::{sweep_nodes, sweep_with};
    let nodes = sweep_nodes(&c, false);
    measure("cluster sweep, its nodes kept (a node count moved)", || {
        black_box(sweep_with(black_box(&c), &nodes));
    });
}

fn main() {
    pod_reader();
    cluster();
    let config: KubeletConfig = serde_json::from_str(
        r#"{"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true}, "crashLoopBackOff": {"maxContainerRestartPeriod": "4s"}}"#,
    )
    .expect("json");
    measure("resolve (gates + maxContainerRestartPeriod)", || {
        black_box(resolve(black_box(&config)).ok());
    });
    let default = scenario(10_000, 300_000, 1_800_000, 110);
    measure("simulate: default curve, 30 min, 110 pods", || {
        black_box(simulate(black_box(&default)));
    });
    measure("explore (+ today's default): default, 30 min", || {
        black_box(explore(black_box(&default)));
    });
    for pods in [1, 110, 250] {
        let s = scenario(25, 1_000, 86_400_000, pods);
        measure(
            &format!("simulate: 24 h, 25 ms / 1 s cap, no jitter, {pods} pods"),
            || {
                black_box(simulate(black_box(&s)));
            },
        );
    }
    // What the horizon costs, each model (issue 47): 30 minutes, 6 hours and
    // a day (the longest a scenario takes) at a 1 s cap, 110 pods, restarts
    // at the ideal requeue (periodic tails).
    for (label, horizon) in [
        ("30 min", 1_800_000),
        ("6 h", 21_600_000),
        ("24 h", 86_400_000),
    ] {
        for (model, name) in [(Semantics::Kep, "KEP"), (Semantics::Kubelet, "kubelet")] {
            let s = Scenario::try_from(ScenarioSpec {
                model,
                requeue: Some(Requeue::Ideal),
                ..scenario(25, 1_000, horizon, 110).spec().clone()
            })
            .expect("valid");
            measure(
                &format!("horizon {label}, {name} model: explore, 25 ms / 1 s cap, 110 pods"),
                || {
                    black_box(explore(black_box(&s)));
                },
            );
        }
    }
    // The kubelet model's requests by kind (issue 40): status versions and
    // events through the spam filter, two client limiters.
    for (name, initial, max, horizon, pods) in [
        (
            "default curve, 30 min, 110 pods",
            10_000,
            300_000,
            1_800_000,
            110,
        ),
        (
            "24 h, 25 ms / 1 s cap, 250 pods",
            25,
            1_000,
            86_400_000,
            250,
        ),
    ] {
        let s = Scenario::try_from(ScenarioSpec {
            model: Semantics::Kubelet,
            requeue: Some(Requeue::Ideal),
            ..scenario(initial, max, horizon, pods).spec().clone()
        })
        .expect("valid");
        measure(&format!("simulate, kubelet requests: {name}"), || {
            black_box(simulate(black_box(&s)));
        });
        let runs = crashloop_explorer::engine::pod_runs(&s);
        measure(
            &format!("  node timeline from the runs, kubelet: {name}"),
            || {
                black_box(crashloop_explorer::engine::node_timeline(
                    black_box(&s),
                    &runs,
                ));
            },
        );
    }
    let worst = scenario(25, 1_000, 86_400_000, 250);
    measure("  pod runs: 24 h, 1 s cap (no band)", || {
        black_box(crashloop_explorer::engine::runs::pod_runs_unbanded(
            black_box(&worst),
        ));
    });
    let worst_runs = crashloop_explorer::engine::pod_runs(&worst);
    {
        // The limiter alone: 250 pods × 2 requests every second for a day,
        // with and without a spread group's flow.
        // Written out, as jittered restarts would be (not a periodic tail).
        let times = crashloop_explorer::engine::Times::from(
            (0..86_400u64).map(|k| k * 1000 + 25).collect::<Vec<_>>(),
        );
        let mut bursts = crashloop_explorer::engine::limiter::Bursts::default();
        bursts.push(&times, 500);
        for (name, flow) in [("no flow", 0u64), ("a flow", 3_000)] {
            let flow = vec![flow; 8_640];
            measure(&format!("  limiter: 86,400 bursts, {name}"), || {
                black_box(crashloop_explorer::engine::limiter::admit(
                    black_box(&bursts),
                    &flow,
                    10_000,
                    86_400_000,
                    50,
                    100,
                ));
            });
        }
    }
    measure(
        "  node timeline from the runs: 24 h, 1 s cap, 250 pods",
        || {
            black_box(crashloop_explorer::engine::node_timeline(
                black_box(&worst),
                &worst_runs,
            ));
        },
    );
    let e = explore(&worst);
    println!(
        "  (worst case: {} restarts per pod)",
        e.timeline.restarts_at_ms.len()
    );
    measure("explore: worst case (24 h, 1 s cap, 250 pods)", || {
        black_box(explore(black_box(&worst)));
    });
    // Issue 3's worst case: jittered requeues with an 8-seed band, and a mix
    // of lockstep and spread groups.
    for pods in [10, 100] {
        let mixed = Scenario::try_from(ScenarioSpec {
            initial_ms: Some(25),
            max_ms: Some(1_000),
            horizon_ms: 86_400_000,
            model: Semantics::Kubelet,
            requeue: Some(Requeue::AtExpiry),
            groups: vec![
                Group::crash_looping(pods, 0, 0),
                Group::crash_looping(pods, 0, 600_000),
                Group::crash_looping(50, 30_000, 600_000),
            ],
            ..Default::default()
        })
        .expect("valid");
        measure(
            &format!("explore: 24 h, 1 s cap, jitter + band, 3 groups ({pods}/{pods}/50 pods)"),
            || {
                black_box(explore(black_box(&mixed)));
            },
        );
    }
    // The Job view: 8 indexes, a policy, a script that retries to the limit.
    let job = crashloop_explorer::formats::manifest::parse_job_manifest(
        "kind: Job\nspec:\n  completions: 8\n  parallelism: 8\n  completionMode: Indexed\n  backoffLimitPerIndex: 6\n  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: main}]\n",
    )
    .expect("manifest")
    .validate()
    .expect("valid");
    let script = crashloop_explorer::engine::job::FailureScript::random("main", 3, 0.7);
    measure("Job: validate + run (8 indexes, per-index limit 6)", || {
        black_box(crashloop_explorer::engine::job::run_job(
            black_box(&job),
            &script,
            86_400_000,
        ));
    });
    // The browser benchmark's worst case: one pods slider move, through the
    // app's reducer (pod runs cached; every node waits until something
    // reads it, and nothing does here).
    let (page, _) = crashloop_explorer::share::decode(WORST_QUERY);
    let mut state = std::rc::Rc::new(State::new(page.inputs));
    let mut pods = 60;
    measure("app: pods slider move, browser worst case", || {
        pods = 60 + (pods + 1) % 40;
        state = state
            .clone()
            .reduce(Action::EditGroup(0, GroupEdit::Pods(pods)));
        black_box(&state);
    });
    // The same, with every node read (the live one against today's default,
    // and the compared curves'), as the headline, the load chart or the
    // compared table does in sight.
    measure("app: the same, every node read", || {
        pods = 60 + (pods + 1) % 40;
        state = state
            .clone()
            .reduce(Action::EditGroup(0, GroupEdit::Pods(pods)));
        black_box(&state.shown.excess);
        for c in state.compared_results.iter() {
            if let Ok(t) = &c.result {
                black_box(t.get());
            }
        }
    });
    // The initial-backoff slider between two stops already visited: pod runs
    // cached; today's default and the compared curves unchanged.
    let mut stop = false;
    measure(
        "app: initial slider move, visited stops, worst case",
        || {
            stop = !stop;
            state = state
                .clone()
                .reduce(Action::Initial(if stop { 25 } else { 50 }));
            black_box(&state);
        },
    );
    measure("draw 3 charts to SVG: worst case", || {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (720, 900)).into_drawing_area();
            let parts = root.split_evenly((3, 1));
            let d = ChartData {
                reference: &e.reference,
                series: vec![Series {
                    label: "worst case",
                    timeline: &e.timeline,
                }],
                look: Default::default(),
                marker_ms: None,
            };
            draw_restarts(&parts[0], &d).ok();
            draw_delays(&parts[1], &d).ok();
            draw_load(&parts[2], &d).ok();
        }
        black_box(out);
    });
}
