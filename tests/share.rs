//! Links: state to a query string and back, and what a bad link does.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::job::JobManifest;
use crashloop_explorer::engine::{
    ExitKind, Group, KubeletConfig, KubeletVersion, Requeue, RestartPolicy, ScenarioSpec, Semantics,
};
use crashloop_explorer::inputs::{ClusterInputs, CompareRef, Inputs, JobInputs, Page, View};
use crashloop_explorer::share::{cluster_link, decode, encode, job_inputs, job_link};

fn defaults() -> Page {
    Page::default()
}

#[test]
fn the_defaults_make_a_query_with_only_the_version() {
    // Every link records the kubelet version, so it keeps its meaning when
    // the default moves on.
    assert_eq!(encode(&defaults()), "v=1.37");
    assert_eq!(decode(""), (defaults(), vec![]));
    assert_eq!(decode("?"), (defaults(), vec![]));
    let mut pinned = defaults();
    pinned.inputs.spec.kubelet_version = Some(KubeletVersion::V1_37);
    assert_eq!(decode("v=1.37"), (pinned, vec![]));
    // A link from before: no v= with other inputs means 1.35, said so.
    let (s, notices) = decode("n=50");
    assert_eq!(s.inputs.spec.kubelet_version, Some(KubeletVersion::V1_35));
    assert_eq!(
        notices[0].message,
        "this link does not say which kubelet: read as 1.35, the default when links left it out"
    );
    // Someone else's keys alone are not a link of ours.
    assert_eq!(decode("utm_source=docs").0, defaults());
    // Nor is a link that only says how to show the defaults (an embed's, a
    // custom element's): today's kubelet, no notice.
    let (shown, notices) = decode("embed=1&controls=initial,max&view=job&theme=dark");
    assert_eq!(notices, vec![]);
    assert_eq!(shown.inputs, defaults().inputs);
    assert_eq!(shown.view, View::Job);
}

#[test]
fn every_input_round_trips() {
    let mut config = KubeletConfig::default();
    config
        .feature_gates
        .insert("ReduceDefaultCrashLoopBackOffDecay".into(), true);
    config
        .feature_gates
        .insert("KubeletCrashLoopBackOffMax".into(), false);
    config.crash_loop_back_off.max_container_restart_period = Some("1m30s".into());
    let job = JobInputs {
        manifest: JobManifest::default(),
        script: "exit 42\nsucceed".into(),
        run_ms: 60_000,
    };
    let live = ScenarioSpec {
        config: Some(config.clone()),
        model: Semantics::Kep,
        kubelet_version: Some(KubeletVersion::V1_33),
        requeue: Some(Requeue::Periodic),
        seed: 99,
        band_seeds: 4,
        start_latency_ms: 1_500,
        groups: vec![
            Group {
                name: "web front.end".into(),
                pods: 40,
                run_ms: 10_000,
                exit: ExitKind::Succeeded,
                restart_policy: RestartPolicy::OnFailure,
                spread_ms: 60_000,
                ..Group::default()
            },
            Group {
                name: String::new(),
                pods: 5,
                run_ms: 0,
                exit: ExitKind::Failed,
                restart_policy: RestartPolicy::Always,
                spread_ms: 0,
                ..Group::default()
            },
            // Durations Go writes with a dot, in a dot-separated field.
            Group {
                name: "a.b".into(),
                pods: 7,
                run_ms: 1_500,
                exit: ExitKind::Failed,
                restart_policy: RestartPolicy::Never,
                spread_ms: 12_345,
                ..Group::default()
            },
        ],
        chart_group: 1,
        horizon_ms: 7_200_000,
        requests_per_restart: 3,
        kube_api_qps: 5,
        kube_api_burst: 10,
        ..Default::default()
    };
    let configured = Page {
        inputs: Inputs {
            spec: live.clone(),
            config,
            marker_ms: Some(300_000),
            compared: vec![
                CompareRef::Preset("rapid"),
                CompareRef::Pinned(Box::new(ScenarioSpec {
                    kubelet_version: Some(KubeletVersion::V1_37),
                    initial_ms: Some(250),
                    max_ms: Some(60_000),
                    ..Default::default()
                })),
                // A pin carries its scenario's own keys: the whole live one.
                CompareRef::Pinned(Box::new(live)),
            ],
        },
        view: View::Job,
        job: job_link(&job),
        // The cluster view's keys ride along (tests/cluster_view.rs reads them).
        cluster: cluster_link(&ClusterInputs {
            max_ms: Some(45_000),
            ..ClusterInputs::default()
        }),
        embed: true,
        controls: vec!["initial".into(), "max".into()],
        theme: Some(crashloop_explorer::inputs::Theme::Light),
    };
    let query = encode(&configured);
    assert!(
        query.contains("v=1.33")
            && query.contains("p=1m30s")
            && query.contains("h=2h0m0s")
            && query.contains("mk=5m0s"),
        "{query}"
    );
    assert_eq!(decode(&query), (configured, vec![]));
    // The Job view reads its keys itself (it is in the second wasm).
    assert_eq!(job_inputs(&decode(&query).0.job), (job, vec![]));

    let custom = Page {
        inputs: Inputs {
            spec: ScenarioSpec {
                kubelet_version: Some(KubeletVersion::V1_37),
                initial_ms: Some(1_000),
                max_ms: Some(300_000),
                schedule_ms: vec![1_000, 2_000, 569_000],
                pods: Some(7),
                run_ms: Some(599_999),
                ..Default::default()
            },
            ..Inputs::default()
        },
        ..defaults()
    };
    let query = encode(&custom);
    assert_eq!(query, "v=1.37&i=1s&x=5m0s&sc=1s,2s,9m29s&n=7&r=9m59.999s");
    assert_eq!(decode(&query), (custom, vec![]));
}

#[test]
fn bad_values_fall_back_with_a_notice_naming_the_key() {
    let (s, notices) = decode("v=1.37&n=abc&i=5h&h=30m&zz=1&utm_source=docs&m=kep&rq=fast");
    let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(keys, ["n", "i", "rq"]);
    assert_eq!(
        notices[0].message,
        "ignored n=\"abc\": not a whole number; using the default"
    );
    assert_eq!(
        notices[1].message,
        "ignored i=\"5h\": must be between 25ms and 1m0s (got 5h0m0s); using the default"
    );
    assert_eq!(s.inputs.spec.pods, None);
    assert_eq!(s.inputs.spec.horizon_ms, 1_800_000);
    assert_eq!(s.inputs.spec.model, Semantics::Kep);
    // Keys valid alone but not together.
    let (s, notices) = decode("v=1.37&g=200.0s.f.A.0s.a&g=100.0s.f.A.0s.b");
    assert!(
        notices[0].message.contains("showing the defaults"),
        "{notices:?}"
    );
    assert!(s.inputs.spec.groups.is_empty());
}

#[test]
fn hostile_links_are_plain_text() {
    let (s, _) = decode("p=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E");
    assert_eq!(
        s.inputs
            .config
            .crash_loop_back_off
            .max_container_restart_period
            .as_deref(),
        Some("<img src=x onerror=alert(1)>")
    );
    for q in [
        "%",
        "%%",
        "%zz",
        "a=%e2%82",
        "&&&=&",
        "g=.....",
        "g=1.1.1.1.1.1",
        "pin={",
        "job=[1]",
        "c=nope,,rapid",
    ] {
        let _ = decode(q);
    }
    assert!(decode(&"x".repeat(20_000)).1[0]
        .message
        .contains("longer than"));
}

// A group's exit code, its container's own policy and its restart rules
// ride in the `g=` field: `…42.N_N_Ri42-43_Pn0…`; old links (`f`, `A`) still read.
#[test]
fn container_restart_rules_round_trip() {
    use crashloop_explorer::engine::restart_rules::{
        ContainerRestartRule, ContainerRestartRuleOnExitCodes,
    };
    let group = Group {
        name: "rules".into(),
        pods: 3,
        run_ms: 30_000,
        exit: ExitKind::Failed,
        exit_code: Some(42),
        restart_policy: RestartPolicy::Never,
        container_restart_policy: Some(RestartPolicy::Never),
        restart_policy_rules: vec![
            ContainerRestartRule::restart_on(&[42, 43]),
            ContainerRestartRule {
                action: "RestartAllContainers".into(),
                exit_codes: Some(ContainerRestartRuleOnExitCodes {
                    operator: "NotIn".into(),
                    values: vec![0],
                }),
            },
        ],
        ..Group::default()
    };
    let mut shared = defaults();
    shared.inputs.spec.kubelet_version = Some(KubeletVersion::V1_37);
    shared.inputs.spec.groups = vec![group];
    let query = encode(&shared);
    assert!(
        query.contains("g=3.30s.42.N_N_Ri42-43_Pn0.0s.rules"),
        "{query}"
    );
    assert_eq!(decode(&query), (shared, vec![]));
    let (s, notices) = decode("v=1.37&g=3.30s.f.A.0s.old");
    assert!(notices.is_empty());
    assert_eq!(s.inputs.spec.groups[0].exit_code, None);
    let (_, notices) = decode("v=1.37&g=3.30s.42.N_N_Xi42.0s.bad");
    assert!(
        notices[0].message.contains("a restart rule is R or P"),
        "{notices:?}"
    );
}

#[test]
fn a_link_can_name_the_theme() {
    use crashloop_explorer::inputs::Theme;
    // A host page's theme for an embed: written back as read, and only when given.
    let (s, notices) = decode("v=1.37&embed=1&theme=dark");
    assert_eq!((s.theme, notices.len()), (Some(Theme::Dark), 0));
    assert_eq!(encode(&s), "embed=1&theme=dark&v=1.37");
    let (s, notices) = decode("v=1.37&theme=sepia");
    assert_eq!(s.theme, None);
    assert_eq!(notices[0].key, "theme");
    assert_eq!(
        notices[0].message,
        "ignored theme=\"sepia\": the theme is light, dark or auto; using the default"
    );
    assert_eq!(encode(&defaults()), "v=1.37");
}

// The Job view (in the second wasm) reads its own keys; the first carries
// them as written, so that a link keeps them while the Job view is not loaded.
#[test]
fn the_job_keys_are_carried_as_written_and_read_by_the_job_view() {
    let query = "view=job&v=1.37&job=%7B%22spec%22%3A1%7D&js=exit%2042&jr=2h";
    let (page, notices) = decode(query);
    assert_eq!(notices, vec![]);
    assert_eq!(page.job.manifest.as_deref(), Some(r#"{"spec":1}"#));
    assert_eq!(page.job.script.as_deref(), Some("exit 42"));
    assert_eq!(page.job.run.as_deref(), Some("2h"));
    assert_eq!(encode(&page), query);
    // Read by the Job view: the manifest and the run (over an hour) refused,
    // each with its key; the script taken.
    let (job, notices) = job_inputs(&page.job);
    assert_eq!(job.manifest, JobInputs::default().manifest);
    assert_eq!(job.script, "exit 42");
    assert_eq!(job.run_ms, JobInputs::default().run_ms);
    let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(keys, ["job", "jr"]);
    assert!(notices[0].message.contains("not a Job manifest"));
    // Written back: the defaults leave no key.
    assert_eq!(job_link(&job).manifest, None);
    assert_eq!(job_link(&job).run, None);
    assert_eq!(job_link(&job).script.as_deref(), Some("exit 42"));
    // A script over 4,096 bytes is not carried.
    let (page, notices) = decode(&format!("v=1.37&js={}", "x".repeat(4_097)));
    assert_eq!(page.job.script, None);
    assert_eq!(notices[0].key, "js");
}

// "Explore … in the charts" crosses from the pod reader (second wasm) to the
// charts as a link: the container's group, its age and the configuration
// it was diagnosed on.
#[test]
fn an_explored_container_crosses_as_a_link() {
    use crashloop_explorer::app::lazy::{explore_link, explored};
    use crashloop_explorer::app::state::PodGroup;
    use crashloop_explorer::engine::restart_rules::ContainerRestartRule;
    let pod = PodGroup {
        group: Group {
            name: "shop/web-0.v2/app".into(),
            run_ms: 3_000,
            exit: ExitKind::Failed,
            exit_code: Some(137),
            restart_policy: RestartPolicy::Always,
            container_restart_policy: Some(RestartPolicy::OnFailure),
            restart_policy_rules: vec![ContainerRestartRule::restart_on(&[42])],
            ..Group::default()
        },
        marker_ms: Some(1_260_000),
        config: serde_json::from_str(
            r#"{"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true}}"#,
        )
        .unwrap(),
    };
    let link = explore_link(pod.clone());
    assert!(link.contains("mk=21m0s") && link.contains("gr=1"), "{link}");
    assert_eq!(explored(&link), Some(pod.clone()));
    // Diagnosed on the shipped defaults: the link says so by saying nothing.
    let shipped = PodGroup {
        config: Default::default(),
        ..pod
    };
    assert_eq!(explored(&explore_link(shipped.clone())), Some(shipped));
    assert_eq!(explored("v=1.37"), None);
}

// The audit (second wasm) hands a claim's scenario to the charts as text:
// every claim's scenario comes back whole, as link keys (one spells a gate
// the kubelet refuses, which `fg=` carries).
#[test]
fn every_claims_scenario_crosses_whole() {
    use crashloop_explorer::app::lazy::{scenario_message, scenario_of};
    let claims = crashloop_explorer::engine::audit::audit();
    assert!(claims.len() > 20);
    use crashloop_explorer::engine::scenario::DEFAULT_PODS;
    use crashloop_explorer::engine::Scenario;
    // What the engine makes of a scenario: its curve's numbers, groups,
    // kubelet and requeue, or the refusal.
    let resolved = |spec: &ScenarioSpec| {
        Scenario::try_from(spec.clone())
            .map(|s| {
                let b = s.backoff();
                (
                    (
                        b.initial_ms,
                        b.max_ms,
                        b.reset_after_ms,
                        b.schedule_ms.clone(),
                    ),
                    s.groups().to_vec(),
                    (s.kubelet_version(), s.requeue(), s.horizon_ms(), s.model()),
                )
            })
            .map_err(|e| e.to_string())
    };
    let mut refused = vec![];
    for c in claims {
        let keys = scenario_message(&c.scenario);
        let back = scenario_of(&keys).unwrap_or_else(|| panic!("{}: {keys}", c.id));
        // The rest of a scenario, which its curve does not show; defaults
        // come back as defaults (110 pods as unset pods).
        let rest = |s: &ScenarioSpec| {
            let c = s.config.clone().unwrap_or_default();
            (
                (c.feature_gates, c.crash_loop_back_off),
                s.pods.unwrap_or(DEFAULT_PODS),
                (
                    s.seed,
                    s.band_seeds,
                    s.start_latency_ms,
                    s.requests_per_restart,
                ),
                (s.kube_api_qps, s.kube_api_burst, s.chart_group),
            )
        };
        assert_eq!(rest(&back), rest(&c.scenario), "{}: {keys}", c.id);
        assert_eq!(scenario_message(&back), keys, "{}", c.id);
        assert_eq!(resolved(&back), resolved(&c.scenario), "{}: {keys}", c.id);
        if resolved(&back).is_err() {
            refused.push(c.id);
        }
    }
    // Among the refusals it shows, the misspelt gate's.
    assert!(refused.contains(&"kep-yaml-gate-spelling"), "{refused:?}");
    let spelt = scenario_message(
        &crashloop_explorer::engine::audit::audit()
            .into_iter()
            .find(|c| c.id == "kep-yaml-gate-spelling")
            .expect("the gate spelling claim")
            .scenario,
    );
    assert!(
        spelt.contains("fg=ReduceDefaultCrashLoopBackoffDecay.1"),
        "{spelt}"
    );
    assert_eq!(scenario_of("zz=1"), None);
    assert_eq!(scenario_of("v=1.37&i=nope"), None);
}

// The parts in the second wasm are given only what they read: the pod reader
// the kubelet (version, gates, maxContainerRestartPeriod), the Job view its keys.
#[test]
fn each_part_is_given_what_it_reads() {
    use crashloop_explorer::app::lazy::{job_part_link, pod_part_link};
    let mut config = KubeletConfig::default();
    config
        .feature_gates
        .insert("KubeletCrashLoopBackOffMax".into(), true);
    config.crash_loop_back_off.max_container_restart_period = Some("30s".into());
    let (page, notices) = decode(&pod_part_link(Some(KubeletVersion::V1_33), &config));
    assert_eq!(notices, vec![]);
    assert_eq!(
        page.inputs.spec.kubelet_version,
        Some(KubeletVersion::V1_33)
    );
    assert_eq!(page.inputs.config, config);
    let job = job_link(&JobInputs {
        script: "exit 42".into(),
        ..JobInputs::default()
    });
    assert_eq!(decode(&job_part_link(&job)).0.job, job);
}

// A pinned scenario rides in `pin=` as a query string of its own scenario
// keys (the live scenario's keys, nothing else), percent-encoded once more.
#[test]
fn a_pin_is_its_scenario_keys() {
    use crashloop_explorer::share::{decode_with, json_pin_elsewhere};
    let pin = ScenarioSpec {
        kubelet_version: Some(KubeletVersion::V1_37),
        initial_ms: Some(250),
        max_ms: Some(60_000),
        seed: 42,
        ..Default::default()
    };
    let mut page = decode("v=1.37").0;
    page.inputs.compared = vec![CompareRef::Pinned(Box::new(pin))];
    let link = "v=1.37&pin=v%3D1.37%26i%3D250ms%26x%3D1m0s%26s%3D42";
    assert_eq!(encode(&page), link);
    assert_eq!(decode(link), (page.clone(), vec![]));
    // What is compared keeps its order (the legend's, the colours'):
    // presets side by side share a `c=`.
    let mut mixed = page.clone();
    mixed.inputs.compared.push(CompareRef::Preset("rapid"));
    mixed
        .inputs
        .compared
        .push(CompareRef::Preset("new-default"));
    let query = encode(&mixed);
    assert_eq!(
        query,
        "v=1.37&pin=v%3D1.37%26i%3D250ms%26x%3D1m0s%26s%3D42&c=rapid,new-default"
    );
    assert_eq!(decode(&query), (mixed, vec![]));

    // Links before this wrote the pin as JSON: still read (it carries no
    // version, which meant the newest), written anew as keys.
    let json = "v=1.37&pin=%7B%22initialMs%22%3A250,%22maxMs%22%3A60000,%22horizonMs%22%3A1800000,%22model%22%3A%22kubelet%22,%22seed%22%3A42,%22bandSeeds%22%3A8,%22startLatencyMs%22%3A0,%22requestsPerRestart%22%3A5,%22kubeApiQps%22%3A50,%22kubeApiBurst%22%3A100,%22chartGroup%22%3A0%7D";
    let (old, notices) = decode(json);
    assert_eq!(notices, vec![]);
    assert_eq!(encode(&old), link);
    // The custom element's wasm has no JSON reader for scenarios: it names
    // the pin and shows the rest.
    let (shown, notices) = decode_with(&format!("{json}&n=7"), json_pin_elsewhere);
    assert!(shown.inputs.compared.is_empty());
    assert_eq!(shown.inputs.spec.pods, Some(7));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].message.ends_with(": a pin written as JSON, as older links wrote pins, which the custom element does not read; open the link in crashloop-explorer and copy it anew; using the default"),
        "{}",
        notices[0].message
    );

    // A bad value, a key a scenario does not have (another pin included),
    // or a scenario that does not hold together refuses the whole pin, with
    // the reason; the rest of the link stands.
    for (bad, why) in [
        (
            "i%3D5h",
            r#"ignored pin="i=5h": i="5h": must be between 25ms and 1m0s (got 5h0m0s); using the default"#,
        ),
        (
            "v%3D1.37%26zz%3D1%26pin%3Dv",
            r#"ignored pin="v=1.37&zz=1&pin=v": zz="1": not a key of a scenario; pin="v": not a key of a scenario; using the default"#,
        ),
        (
            "g%3D200.0s.f.A.0s.a%26g%3D100.0s.f.A.0s.b",
            r#"ignored pin="g=200.0s.f.A.0s.a&g=100.0s.f.A.0s.b": pods must be between 1 on the node and 250 on the node (got 300 on the node); using the default"#,
        ),
    ] {
        let (page, notices) = decode(&format!("v=1.37&n=7&pin={bad}"));
        assert!(page.inputs.compared.is_empty());
        assert_eq!(page.inputs.spec.pods, Some(7));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].key, "pin");
        assert_eq!(notices[0].message, why);
    }
}

// Any gate beside the two with keys of their own crosses as `fg=Name.1`;
// a bad one is named and the rest of the link stands.
#[test]
fn other_feature_gates_cross_as_fg() {
    let (page, notices) = decode("v=1.37&gr=1&fg=ReduceDefaultCrashLoopBackoffDecay.1&fg=Zeta.0");
    assert_eq!(notices, vec![]);
    let gates: Vec<(&str, bool)> = page.inputs.config.feature_gates.iter().collect();
    assert_eq!(
        gates,
        [
            ("ReduceDefaultCrashLoopBackOffDecay", true),
            ("ReduceDefaultCrashLoopBackoffDecay", true),
            ("Zeta", false)
        ]
    );
    assert_eq!(
        encode(&page),
        "v=1.37&gr=1&fg=ReduceDefaultCrashLoopBackoffDecay.1&fg=Zeta.0"
    );
    for bad in ["Zeta", "Ze-ta.1", ".1", "Zeta.2", "Zeta.on"] {
        let (page, notices) = decode(&format!("v=1.37&n=7&fg={bad}"));
        assert_eq!(page.inputs.config.feature_gates.iter().count(), 0, "{bad}");
        assert_eq!(page.inputs.spec.pods, Some(7));
        assert_eq!(notices.len(), 1, "{bad}: {notices:?}");
        assert_eq!(notices[0].key, "fg");
    }
    let many: Vec<String> = (0..20).map(|i| format!("fg=G{i}.1")).collect();
    let (page, notices) = decode(&format!("v=1.37&{}", many.join("&")));
    assert_eq!(page.inputs.config.feature_gates.iter().count(), 16);
    assert_eq!(notices.len(), 4);
}
