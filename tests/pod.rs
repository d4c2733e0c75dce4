//! Diagnose a real pod: kubectl's outputs read, and each container's place on
//! the curve worked out by hand (kubelet 1.37 defaults: 10 s doubling to
//! 5 min, reset 600 s after the last restart, restarts at expiry, the pod
//! worker up to half the last requeue (≤ 30 s) late).
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::config::{KubeletConfig, KubeletVersion};
use crashloop_explorer::engine::pod::{diagnose, ContainerKind, NodeAssumption, PodDiagnosis};
use crashloop_explorer::formats::pod::parse_pod;
use crashloop_explorer::formats::time::{format_rfc3339, parse_rfc3339};

fn node() -> NodeAssumption {
    NodeAssumption::new(KubeletVersion::V1_37, None, "").expect("defaults resolve")
}

// The pod does not carry its node's configuration: unless a configuration is
// chosen, a kubelet's shipped defaults (1.37: ReduceDefaultCrashLoopBackOffDecay
// alpha, off; KubeletCrashLoopBackOffMax beta, on, field unset: 10 s / 5 min).
// With the decay gate chosen the curve is 1 s / 5 min (the max gate is on and
// the unset field means 300 s).
#[test]
fn shipped_defaults_unless_a_configuration_is_chosen() {
    let shipped = node();
    assert_eq!(
        (shipped.backoff.initial_ms, shipped.backoff.max_ms),
        (10_000, 300_000)
    );
    assert_eq!(
        shipped.label,
        "kubelet 1.37's shipped defaults (10 s / 5 min)"
    );
    let gate: KubeletConfig =
        serde_json::from_str(r#"{"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true}}"#)
            .expect("config");
    let chosen =
        NodeAssumption::new(KubeletVersion::V1_37, Some(&gate), "as configured above").unwrap();
    assert_eq!(
        (
            chosen.backoff.initial_ms,
            chosen.backoff.max_ms,
            chosen.label.as_str()
        ),
        (
            1_000,
            300_000,
            "kubelet 1.37 as configured above (1 s / 5 min)"
        )
    );
    // 1.31 knows no decay gate: the kubelet refuses it, and so does the choice.
    let old = NodeAssumption::new(KubeletVersion::V1_31, Some(&gate), "as configured above");
    assert!(old
        .unwrap_err()
        .to_string()
        .contains("unrecognized feature gate"));
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

fn at(t: &str) -> i64 {
    parse_rfc3339(t).expect("time")
}

fn run(name: &str, now: &str) -> (PodDiagnosis, Vec<String>) {
    let (pod, notes) = parse_pod(&fixture(name), KubeletVersion::V1_37).expect("a pod");
    (diagnose(&pod, &node(), at(now)), notes)
}

fn show(t: Option<i64>) -> Option<String> {
    t.map(format_rfc3339)
}

// restartCount 5 and the kubelet's "back-off 2m40s" (10 s · 2⁴ = 160 s, the
// 5th wait): the exit at 10:00:03 restarts at 10:02:43, at the latest 30 s
// later (1.35+ requeue: half of min(160 s, 60 s)); 103 s from 10:01:00.
#[test]
fn crash_looping_container_from_json() {
    let (d, notes) = run("web-0.json", "2026-11-20T10:01:00Z");
    assert!(notes.is_empty());
    assert_eq!((d.pod.as_str(), d.age_ms), ("web-0", Some(21 * 60_000)));
    let app = d.containers.iter().find(|c| c.name == "app").unwrap();
    assert_eq!(app.state, "CrashLoopBackOff");
    assert_eq!(
        (app.restart_count, app.backoff_ms, app.curve_step),
        (Some(5), Some(160_000), Some(5))
    );
    assert_eq!(
        show(app.next_restart_at).as_deref(),
        Some("2026-11-20T10:02:43Z")
    );
    assert_eq!(
        show(app.next_restart_latest_at).as_deref(),
        Some("2026-11-20T10:03:13Z")
    );
    assert_eq!(app.countdown_ms, Some(103_000));
    assert_eq!((app.run_ms, app.exit_code), (Some(3_000), Some(1)));
    // The next run resets the curve if it is still up 600 s after it starts.
    assert_eq!(
        show(app.resets_if_runs_until).as_deref(),
        Some("2026-11-20T10:12:43Z")
    );
    // One figure for the next hour: this configuration's 12 (below), not
    // 3 600 s / (3 s + 160 s) = 22.1 at today's wait, which grows to 5 min.
    assert_eq!(app.restarts_next_hour, Some(12));
    assert_eq!(app.exit_reason.as_deref(), Some("Error"));
    assert_eq!(
        app.verdict,
        "exit 1 (Error): restartPolicy Always restarts it"
    );
    // This configuration: 10:02:43, then every 303 s from 10:07:46; 12 before 11:01:00.
    let this = &app.alternatives[0];
    assert_eq!((this.backoff_ms, this.restarts_next_hour), (160_000, 12));
    // 1 s / 1 min: 16 s at step 5, so 10:00:19 and 10:00:54 have passed;
    // 10:01:57, then every 63 s: 57 before 11:01:00.
    let fast = app
        .alternatives
        .iter()
        .find(|a| (a.initial_ms, a.max_ms) == (1_000, 60_000))
        .unwrap();
    assert_eq!(
        show(fast.next_restart_at).as_deref(),
        Some("2026-11-20T10:00:19Z")
    );
    assert_eq!(fast.restarts_next_hour, 57);
    // The sidecar is a restartable init container, up since 09:40:02.
    let side = d
        .containers
        .iter()
        .find(|c| c.name == "log-shipper")
        .unwrap();
    assert_eq!(
        (side.kind, side.state.as_str(), side.next_restart_at),
        (ContainerKind::Sidecar, "Running", None)
    );
}

// OnFailure and exit 0: the kubelet will not restart it.
#[test]
fn on_failure_exit_zero_stays_down() {
    let (d, _) = run("worker-1.yaml", "2026-11-20T08:05:00Z");
    let main = &d.containers[0];
    assert_eq!(
        main.verdict,
        "exit 0 (Completed): restartPolicy OnFailure does not restart it"
    );
    assert_eq!(
        (main.next_restart_at, main.state.as_str()),
        (None, "Completed")
    );
    assert!(main.notes.iter().any(|n| n.contains("will not restart")));
}

// describe text: no waiting message, so the configuration decides: restart
// count 9 → 10 s · 2⁸ capped at 300 s; the exit at 09:50:45 restarts at
// 09:55:45, at the latest 09:56:15.
#[test]
fn describe_text() {
    let (d, _) = run("api-describe.txt", "2026-11-20T09:52:00Z");
    assert_eq!(
        (d.pod.as_str(), d.namespace.as_str()),
        ("api-7f9c6d8b5-qx2lm", "shop")
    );
    let api = &d.containers[0];
    assert_eq!(
        (api.restart_count, api.backoff_ms, api.message_backoff_ms),
        (Some(9), Some(300_000), None)
    );
    assert_eq!(
        show(api.next_restart_at).as_deref(),
        Some("2026-11-20T09:55:45Z")
    );
    assert_eq!(
        show(api.next_restart_latest_at).as_deref(),
        Some("2026-11-20T09:56:15Z")
    );
    assert_eq!((api.run_ms, api.exit_code), (Some(45_000), Some(2)));
    assert!(d.notes.iter().any(|n| n.contains("Always assumed")));
    assert!(d.notes.iter().any(|n| n.contains("1 Back-off event")));
}

// A container that ran 15 min (past the 600 s threshold) and restarted at
// once: running since 09:15:00; up past 09:25:00, its next exit starts over.
#[test]
fn a_container_that_has_just_reset() {
    let (d, _) = run("just-reset.json", "2026-11-20T09:16:00Z");
    let redis = &d.containers[0];
    assert_eq!(
        (redis.state.as_str(), redis.next_restart_at),
        ("Running", None)
    );
    assert_eq!(
        show(redis.resets_if_runs_until).as_deref(),
        Some("2026-11-20T09:25:00Z")
    );
    assert!(redis.run_resets_curve);
    assert_eq!(redis.exit_code, Some(137));
}

// KEP-5307: a Never pod whose container restarts on exit 42 by its own rule:
// restartCount 3 → 40 s; the exit at 10:00:30 restarts at 10:01:10.
#[test]
fn container_restart_rules() {
    let (d, _) = run("trainer-rules.yaml", "2026-11-20T10:00:40Z");
    let t = &d.containers[0];
    assert_eq!(
        t.verdict,
        "exit 42 (Error): restartPolicyRules[0] (Restart) restarts it"
    );
    assert_eq!(
        show(t.next_restart_at).as_deref(),
        Some("2026-11-20T10:01:10Z")
    );
    assert!(t.notes.is_empty(), "{:?}", t.notes);
}

// The issue's example: "back-off 1m0s" at restartCount 9 means a 60 s max:
// the next restart is finishedAt + 60 s whatever the defaults say.
#[test]
fn the_message_wins_and_says_which_configurations_fit() {
    let (d, notes) = run("capped-list.json", "2026-11-20T10:00:30Z");
    assert_eq!(
        notes,
        ["the text holds 2 pods: showing edge-3 (the first in CrashLoopBackOff, else the first)"]
    );
    let p = &d.containers[0];
    assert_eq!(p.backoff_ms, Some(60_000));
    assert_eq!(
        show(p.next_restart_at).as_deref(),
        Some("2026-11-20T10:01:10Z")
    );
    assert!(p.notes[0].contains("the kubelet says back-off 1m0s but kubelet 1.37's shipped defaults (10 s / 5 min) gives 5m0s at restartCount 9"), "{:?}", p.notes);
    assert!(
        p.notes.iter().any(|n| n.contains("a maximum of 1m0s fits")),
        "{:?}",
        p.notes
    );
}

// The backoff GC: a container that ran 9 min 40 s (under the 600 s reset)
// waits 160 s, but its entry (last updated at its start, 10:00:00) goes at
// the first 2 s housekeeping pass after 10:10:00: it restarts at 10:10:02.
#[test]
fn the_gc_brings_the_restart_forward() {
    let text = fixture("web-0.json").replace("2026-11-20T10:00:03Z", "2026-11-20T10:09:40Z");
    let (pod, _) = parse_pod(&text, KubeletVersion::V1_37).unwrap();
    let d = diagnose(&pod, &node(), at("2026-11-20T10:09:50Z"));
    let app = d.containers.iter().find(|c| c.name == "app").unwrap();
    assert_eq!(
        show(app.next_restart_at).as_deref(),
        Some("2026-11-20T10:10:02Z")
    );
    assert!(app.notes.iter().any(|n| n.contains("backoff GC")));
}

// A container's `Last State:` lines alone name no pod, no container, no
// restart count and no state: refused, saying what they held, not shown as
// a pod with nothing known. The lines as a pull request quoted them
// (hmcts/cnp-flux-config#28772, 2024: "Seeing OOMKilled").
#[test]
fn a_last_state_alone_is_no_pod() {
    let err = |text: &str| parse_pod(text, KubeletVersion::V1_37).unwrap_err();
    let quoted = "    Last State:     Terminated\n      Reason:       OOMKilled\n\n";
    assert_eq!(
        err(quoted),
        "this text holds a container's last state alone (Terminated: reason OOMKilled), \
         with no pod name, container name, restart count or state: nothing to place on \
         the curve; paste what `kubectl get pod NAME -o yaml` (or `-o json`), `kubectl \
         describe pod NAME` or `kubectl get pods` prints"
    );
    let with_code = "Last State: Terminated\n  Reason: Error\n  Exit Code: 1\n";
    assert!(err(with_code).contains("(Terminated: reason Error, exit code 1)"));
    // With its restart count it is a container to place (estimated).
    let counted = format!("{with_code}Restart Count: 3\n");
    assert!(parse_pod(&counted, KubeletVersion::V1_37).is_ok());
}

// kubectl's own error pasted instead of its output is said to be one, in
// its words, not given a YAML reader's complaint about them.
#[test]
fn kubectl_errors_are_named_as_such() {
    let err = |text: &str| parse_pod(text, KubeletVersion::V1_37).unwrap_err();
    let forbidden = "Error from server (Forbidden): pods \"web-0\" is forbidden: User \"system:serviceaccount:default:dev\" cannot get resource \"pods\" in API group \"\" in the namespace \"shop\"\n";
    assert_eq!(
        err(forbidden),
        format!(
            "this is kubectl's error, not a pod: \"{}\"; once kubectl prints the pod, paste that",
            forbidden.trim()
        )
    );
    for (text, starts) in [
        ("$ kubectl get pod web-0 -o yaml\nError from server (NotFound): pods \"web-0\" not found\n", "Error from server (NotFound)"),
        ("The connection to the server localhost:8080 was refused - did you specify the right host or port?\n", "The connection to the server"),
        ("error: the server doesn't have a resource type \"pdo\"\n", "error: the server"),
    ] {
        let e = err(text);
        assert!(e.starts_with(&format!("this is kubectl's error, not a pod: \"{starts}")), "{e}");
    }
}

#[test]
fn what_is_not_a_pod_is_named() {
    let err = |text: &str| parse_pod(text, KubeletVersion::V1_37).unwrap_err();
    assert!(
        err("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
            .starts_with("this is a Deployment, not a Pod")
    );
    assert!(err("NAME    READY   STATUS             RESTARTS      AGE\nweb-0   0/1     CrashLoopBackOff   5 (2m ago)    21m\n").contains("kubectl get pods table has no times"));
    assert!(err("hello, world").starts_with("this text holds no pod (plain text)"));
    assert!(err(&"x".repeat(10 << 20)).starts_with("the text is 10240 KB"));
    assert!(err("").starts_with("nothing to read"));
    let pending = r#"{"kind":"Pod","metadata":{"name":"p"},"status":{"phase":"Pending"}}"#;
    assert_eq!(
        err(pending),
        "pod p has no container statuses yet (phase Pending): nothing has run to restart"
    );
    let bad_time = fixture("web-0.json").replace(
        "\"finishedAt\": \"2026-11-20T10:00:03Z\"",
        "\"finishedAt\": \"yesterday\"",
    );
    // One field that cannot be read (a time edited by hand, a count past
    // int32) costs that field, with a note, not the pod.
    let (pod, notes) = parse_pod(&bad_time, KubeletVersion::V1_37).unwrap();
    assert_eq!(notes, ["status.containerStatuses[0].lastState.terminated.finishedAt: \"yesterday\" is not an RFC 3339 time such as 2026-11-20T10:02:43Z; left out"]);
    let app = pod.containers.iter().find(|c| c.name == "app").unwrap();
    assert_eq!(
        app.last_terminated
            .as_ref()
            .map(|t| (t.exit_code, t.finished_at)),
        Some((Some(1), None))
    );
    let huge =
        fixture("web-0.json").replace("\"restartCount\": 5", "\"restartCount\": 1099511627776");
    let (pod, notes) = parse_pod(&huge, KubeletVersion::V1_37).unwrap();
    assert_eq!(notes, ["status.containerStatuses[0].restartCount: 1099511627776 is not the API's restartCount (an int32); left out"]);
    assert_eq!(pod.containers[1].restart_count, None);
}

#[test]
fn a_container_kind_is_named_as_its_json() {
    for k in [
        ContainerKind::Regular,
        ContainerKind::Init,
        ContainerKind::Sidecar,
    ] {
        assert_eq!(
            serde_json::to_string(&k).unwrap(),
            format!("\"{}\"", k.name())
        );
    }
    assert_eq!(ContainerKind::Sidecar.name(), "sidecar");
}
