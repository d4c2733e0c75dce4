//! The Job controller: validation in the API server's words, podFailurePolicy
//! matching and actions, replacement backoff, and the KEP-3329 user stories.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::job::{
    compress_indexes, run_job, Attempt, ConditionType, FailureScript, JobManifest, JobRun,
    PodResult, ValidJob, DEFAULT_HORIZON_MS,
};
use crashloop_explorer::formats::manifest::{job_manifest_yaml, parse_job_manifest};

fn manifest(yaml: &str) -> JobManifest {
    parse_job_manifest(yaml).expect("parses")
}

fn valid(yaml: &str) -> ValidJob {
    manifest(yaml)
        .validate()
        .unwrap_or_else(|e| panic!("{e:?}"))
}

fn errors(yaml: &str) -> Vec<String> {
    match manifest(yaml).validate() {
        Ok(_) => vec![],
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

const BASE: &str = "
kind: Job
metadata: {name: demo}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main}, {name: monitor}]
";

fn with(extra: &str) -> String {
    format!("{BASE}{extra}")
}

fn secs(v: &[u64]) -> Vec<u64> {
    v.iter().map(|ms| ms / 1000).collect()
}

fn run(yaml: &str, script: &FailureScript) -> JobRun {
    run_job(&valid(yaml), script, DEFAULT_HORIZON_MS)
}

#[test]
fn validation_in_the_api_servers_words() {
    let one = |extra: &str| {
        let e = errors(&with(extra));
        assert_eq!(e.len(), 1, "{extra}: {e:?}");
        e[0].clone()
    };
    let rule = |r: &str| one(&format!("  podFailurePolicy:\n    rules:\n    - {r}\n"));
    assert_eq!(
        rule("{action: FailJob, onExitCodes: {operator: In, values: [0, 1]}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator"
    );
    assert_eq!(
        rule("{action: FailJob, onExitCodes: {operator: NotIn, values: [3, 2]}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 2}: must be ordered"
    );
    assert_eq!(
        rule("{action: FailJob, onExitCodes: {operator: In, values: [2, 2]}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 2"
    );
    assert_eq!(
        rule("{action: FailJob, onExitCodes: {operator: In, values: []}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32(nil): at least one value is required"
    );
    let many: Vec<String> = (1..=256).map(|v| v.to_string()).collect();
    assert_eq!(
        rule(&format!("{{action: FailJob, onExitCodes: {{operator: In, values: [{}]}}}}", many.join(","))),
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items"
    );
    assert_eq!(
        rule("{action: FailIndex, onExitCodes: {operator: In, values: [1]}}"),
        "spec.podFailurePolicy.rules[0].action: Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set"
    );
    assert_eq!(
        rule("{action: Restart, onExitCodes: {operator: In, values: [1]}}"),
        "spec.podFailurePolicy.rules[0].action: Unsupported value: \"Restart\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\""
    );
    assert_eq!(
        rule("{onExitCodes: {operator: In, values: [1]}}"),
        "spec.podFailurePolicy.rules[0].action: Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"
    );
    assert_eq!(
        rule("{action: Ignore, onExitCodes: {operator: Maybe, values: [1]}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: \"Maybe\": supported values: \"In\", \"NotIn\""
    );
    assert_eq!(
        rule("{action: Ignore, onExitCodes: {containerName: sidecar, operator: In, values: [1]}}"),
        "spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"sidecar\": must be one of the container or initContainer names in the pod template"
    );
    assert_eq!(
        rule("{action: Ignore}"),
        "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
    );
    assert_eq!(
        rule("{action: Ignore, onExitCodes: {operator: In, values: [1]}, onPodConditions: [{type: DisruptionTarget}]}"),
        "spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
    );
    assert_eq!(
        rule("{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: Maybe}]}"),
        "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\""
    );
    assert!(rule("{action: Ignore, onPodConditions: [{type: 'bad type'}]}")
        .starts_with("spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"bad type\": name part must consist of"));
    let rules: String = (0..21)
        .map(|_| "    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n")
        .collect();
    assert_eq!(
        one(&format!("  podFailurePolicy:\n    rules:\n{rules}")),
        "spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items"
    );
    assert_eq!(
        one("  backoffLimit: -1\n"),
        "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"
    );
    assert_eq!(
        one("  backoffLimitPerIndex: 1\n  completions: 2\n"),
        "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"
    );
    assert_eq!(
        one("  maxFailedIndexes: 1\n  completions: 2\n  completionMode: Indexed\n"),
        "spec.maxFailedIndexes: Invalid value: 1: requires the backoffLimitPerIndex to be set"
    );
    assert_eq!(
        one("  completionMode: Indexed\n"),
        "spec.completions: Required value: when completion mode is Indexed"
    );
    let on_failure = BASE.replace("restartPolicy: Never", "restartPolicy: OnFailure");
    let e = errors(&format!("{on_failure}  podFailurePolicy:\n    rules:\n    - {{action: Ignore, onPodConditions: [{{type: DisruptionTarget}}]}}\n"));
    assert_eq!(
        e,
        ["spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"]
    );
    let e = errors(&BASE.replace("restartPolicy: Never", "restartPolicy: Always"));
    assert_eq!(e, ["spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""]);
    // Several errors are all reported.
    assert_eq!(
        errors(&with("  backoffLimit: -1\n  completionMode: Indexed\n")).len(),
        2
    );
}

// DefaultJobPodFailureBackOff 10 s, doubling: a pod runs 30 s, fails, and the
// next starts 10, 20, 40 … s after; the 7th failure exceeds backoffLimit 6 and
// ends the Job, so no wait follows it (pkg/controller/job/backoff_utils.go).
#[test]
fn replacement_backoff_and_backoff_limit() {
    let r = run(
        &with("  backoffLimit: 6\n"),
        &FailureScript::always_fail("main"),
    );
    assert_eq!(secs(&r.replacement_delays_ms), [10, 20, 40, 80, 160, 320]);
    let starts: Vec<u64> = r.pods.iter().map(|p| p.start_ms / 1000).collect();
    assert_eq!(starts, [0, 40, 90, 160, 270, 460, 810]);
    assert_eq!(r.failed, 7);
    assert_eq!(r.condition.type_, ConditionType::Failed);
    assert_eq!(r.condition.reason, "BackoffLimitExceeded");
    assert_eq!(
        r.condition.message,
        "Job has reached the specified backoff limit"
    );
    assert_eq!(r.condition.at_ms, 840_000);
}

#[test]
fn a_success_resets_the_backoff() {
    let script = FailureScript {
        attempts: vec![
            Attempt::Exit([("main".to_owned(), 1)].into()),
            Attempt::Exit([("main".to_owned(), 1)].into()),
            Attempt::Exit(Default::default()),
        ],
        run_ms: 30_000,
    };
    let r = run(&with("  completions: 2\n"), &script);
    assert_eq!(secs(&r.replacement_delays_ms), [10, 20, 10, 20]);
    assert_eq!((r.succeeded, r.failed), (2, 4));
    assert_eq!(r.condition.type_, ConditionType::Complete);
}

// KEP-3329 story 1: exit codes 40-50 are retriable, anything else is a bug.
#[test]
fn story_1_retriable_exit_codes() {
    let job = with(
        "  backoffLimit: 3
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: main, operator: NotIn, values: [40,41,42,43,44,45,46,47,48,49,50]}
",
    );
    let retriable = run(&job, &FailureScript::always_fail("main"));
    assert_eq!(retriable.condition.reason, "PodFailurePolicy");
    assert_eq!(
        retriable.condition.message,
        "Container main for pod default/demo-0 failed with exit code 1 matching FailJob rule at index 0"
    );
    assert_eq!(retriable.pods.len(), 1);
    let r = run(&job, &FailureScript::fail_then_succeed("main", 42));
    assert_eq!(r.condition.type_, ConditionType::Complete);
    assert_eq!(
        (r.failed, r.pods[0].rule, r.pods[0].result),
        (1, None, PodResult::Failed)
    );
    // Exit 42 every time: counted, until backoffLimit 3 is exceeded.
    let always_42 = FailureScript {
        attempts: vec![Attempt::Exit([("main".to_owned(), 42)].into())],
        run_ms: 30_000,
    };
    let r = run(&job, &always_42);
    assert_eq!(
        (r.condition.reason.as_str(), r.failed),
        ("BackoffLimitExceeded", 4)
    );
    // A failing monitor container is not the main container: the rule does not match.
    let monitor = FailureScript {
        attempts: vec![
            Attempt::Exit([("monitor".to_owned(), 1)].into()),
            Attempt::Exit(Default::default()),
        ],
        run_ms: 30_000,
    };
    assert_eq!(run(&job, &monitor).condition.type_, ConditionType::Complete);
}

// KEP-3329 story 2: infinite retries for infrastructure disruptions.
#[test]
fn story_2_disruptions_are_ignored() {
    let job = with(
        "  backoffLimit: 3
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
    - action: FailJob
      onExitCodes: {operator: NotIn, values: [40,41,42,43,44,45,46,47,48,49,50]}
",
    );
    let r = run(&job, &FailureScript::preempted_then_succeed("main", 10));
    assert_eq!(r.condition.type_, ConditionType::Complete);
    assert_eq!((r.ignored, r.failed, r.pods.len()), (10, 0, 11));
    assert!(r.pods[..10]
        .iter()
        .all(|p| p.result == PodResult::Ignored && p.rule == Some(0)));
    // Ignored failures are not counted but still back off (k/k#130881):
    // n = 1..10 failures since the last success wait 10 s·2^(n−1), capped at
    // 10 min: 10, 20, 40, 80, 160, 320, 600, 600, 600, 600 s; 11 runs of 30 s.
    assert_eq!(
        secs(&r.replacement_delays_ms),
        [10, 20, 40, 80, 160, 320, 600, 600, 600, 600]
    );
    assert!(r.waits.iter().all(|w| w.after_ignored));
    assert_eq!(r.condition.at_ms, (11 * 30 + 2_430 + 600) * 1_000);
    // Rule order matters: with FailJob first, the killed containers' 137 matches it.
    let reversed = with(
        "  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: NotIn, values: [40,41,42,43,44,45,46,47,48,49,50]}
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
",
    );
    let r = run(&reversed, &FailureScript::preempted_then_succeed("main", 2));
    assert_eq!(r.condition.reason, "PodFailurePolicy");
    assert!(r
        .condition
        .message
        .contains("exit code 137 matching FailJob rule at index 0"));
    // Without any policy a disruption counts like any failure.
    let r = run(
        &with("  backoffLimit: 1\n"),
        &FailureScript::preempted_then_succeed("main", 2),
    );
    assert_eq!(r.condition.reason, "BackoffLimitExceeded");
}

#[test]
fn count_and_exit_code_zero() {
    let job = with(
        "  backoffLimit: 0
  podFailurePolicy:
    rules:
    - action: Count
      onExitCodes: {operator: In, values: [3]}
    - action: Ignore
      onExitCodes: {operator: NotIn, values: [3]}
",
    );
    // Exit 5 in main: the second rule (NotIn [3]) ignores it; monitor's exit 0 matches nothing.
    let five = FailureScript {
        attempts: vec![
            Attempt::Exit([("main".to_owned(), 5)].into()),
            Attempt::Exit(Default::default()),
        ],
        run_ms: 30_000,
    };
    let r = run(&job, &five);
    assert_eq!(
        (r.pods[0].rule, r.pods[0].result),
        (Some(1), PodResult::Ignored)
    );
    assert_eq!(r.condition.type_, ConditionType::Complete);
    let three = FailureScript {
        attempts: vec![Attempt::Exit([("main".to_owned(), 3)].into())],
        run_ms: 30_000,
    };
    let r = run(&job, &three);
    assert_eq!(
        (r.pods[0].rule, r.condition.reason.as_str()),
        (Some(0), "BackoffLimitExceeded")
    );
}

#[test]
fn backoff_limit_per_index() {
    let indexed = "  completions: 3\n  parallelism: 3\n  completionMode: Indexed\n  backoffLimitPerIndex: 1\n";
    let r = run(&with(indexed), &FailureScript::always_fail("main"));
    // Every index fails at 30 s, retries 10 s later, fails again at 70 s.
    assert_eq!(
        (r.condition.reason.as_str(), r.condition.at_ms),
        ("FailedIndexes", 70_000)
    );
    assert_eq!(r.condition.message, "Job has failed indexes");
    assert_eq!(r.failed_indexes, "0-2");
    assert_eq!(r.failures_per_index, [2, 2, 2]);
    assert_eq!(r.pods[0].name, "demo-0-0");
    let r = run(
        &with(&format!("{indexed}  maxFailedIndexes: 1\n")),
        &FailureScript::always_fail("main"),
    );
    assert_eq!(r.condition.reason, "MaxFailedIndexesExceeded");
    // FailIndex ends an index at once.
    let fail_index = format!(
        "{indexed}  podFailurePolicy:\n    rules:\n    - {{action: FailIndex, onExitCodes: {{operator: In, values: [42]}}}}\n"
    );
    let script = FailureScript {
        attempts: vec![Attempt::Exit([("main".to_owned(), 42)].into())],
        run_ms: 30_000,
    };
    let r = run(&with(&fail_index), &script);
    assert_eq!(
        (r.condition.reason.as_str(), r.condition.at_ms, r.pods.len()),
        ("FailedIndexes", 30_000, 3)
    );
    assert!(r.pods.iter().all(|p| p.result == PodResult::FailedIndex));
}

// OnFailure: the kubelet restarts the container in place (at once, then 10, 20 … s);
// the Job fails when the summed restartCount reaches backoffLimit
// (`pastBackoffLimitOnFailure`, `>=`).
#[test]
fn on_failure_restarts_in_place() {
    let on_failure = BASE.replace("restartPolicy: Never", "restartPolicy: OnFailure");
    // backoffLimit 2: exit at 30 s, restart at once (count 1); exit at 60 s,
    // restart after 10 s at 70 s (count 2 >= 2): Failed at 70 s.
    let r = run(
        &format!("{on_failure}  backoffLimit: 2\n"),
        &FailureScript::always_fail("main"),
    );
    assert_eq!(r.condition.reason, "BackoffLimitExceeded");
    assert_eq!(r.condition.at_ms, 70_000);
    let restarts = r
        .pods
        .iter()
        .filter(|p| p.result == PodResult::RestartedInPlace)
        .count();
    assert_eq!((restarts, r.restarts, r.failed), (2, 2, 0));
    // backoffLimit 6 (the issue's example): restarts at 30, 70, 120, 190, 300,
    // 490 s (waits 0, 10, 20, 40, 80, 160 after exits at 30, 60, 100, 150,
    // 220, 330 s): Failed at 490 s, at the 6th restart.
    let r = run(
        &format!("{on_failure}  backoffLimit: 6\n"),
        &FailureScript::always_fail("main"),
    );
    assert_eq!((r.condition.at_ms, r.restarts), (490_000, 6));
    let exits: Vec<u64> = r
        .pods
        .iter()
        .filter(|p| p.result == PodResult::RestartedInPlace)
        .map(|p| p.end_ms / 1000)
        .collect();
    assert_eq!(exits, [30, 60, 100, 150, 220, 330]);
    // backoffLimit 0: the first restart (at once, at 30 s) fails it.
    let r = run(
        &format!("{on_failure}  backoffLimit: 0\n"),
        &FailureScript::always_fail("main"),
    );
    assert_eq!(
        (r.condition.reason.as_str(), r.condition.at_ms),
        ("BackoffLimitExceeded", 30_000)
    );
}

#[test]
fn endless_retries_stop_at_the_pod_cap() {
    // Ignored failures back off up to 10 min, so one lane makes ~140 pods a
    // day; eight indexes with their own backoff reach the 400-pod cap.
    let job = with("  completions: 8\n  parallelism: 8\n  completionMode: Indexed\n  backoffLimitPerIndex: 1\n  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n");
    let always = FailureScript {
        attempts: vec![Attempt::Disruption("EvictionByEvictionAPI".into())],
        run_ms: 30_000,
    };
    let r = run(&job, &always);
    assert_eq!(
        (r.condition.type_, r.condition.reason.as_str()),
        (ConditionType::Running, "PodCap")
    );
    let r = run_job(&valid(&job), &always, 600_000);
    assert_eq!(
        (r.condition.type_, r.condition.reason.as_str()),
        (ConditionType::Running, "HorizonReached")
    );
}

#[test]
fn random_scripts_are_seeded() {
    let a = FailureScript::random("main", 7, 0.5);
    assert_eq!(a, FailureScript::random("main", 7, 0.5));
    assert_ne!(a, FailureScript::random("main", 8, 0.5));
    assert_eq!(
        run(&with(""), &FailureScript::random("main", 7, 0.0)).failed,
        0
    );
}

#[test]
fn manifests_round_trip() {
    let m = manifest(&with("  backoffLimit: 3\n  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n"));
    let yaml = job_manifest_yaml(&m);
    assert!(
        yaml.contains("apiVersion: batch/v1") && yaml.contains("podFailurePolicy:"),
        "{yaml}"
    );
    assert_eq!(parse_job_manifest(&yaml), Ok(m.clone()));
    let json = serde_json::to_string(&m).unwrap();
    assert_eq!(parse_job_manifest(&json), Ok(m));
    assert!(parse_job_manifest("spec: [")
        .unwrap_err()
        .starts_with("invalid YAML"));
    assert!(parse_job_manifest("{\"spec\": 1}")
        .unwrap_err()
        .starts_with("invalid JSON"));
    assert_eq!(compress_indexes(&[0, 1, 2, 4, 6, 7]), "0-2,4,6-7");
    // Another kind says what it is, not which of its fields a Job lacks.
    let deployment =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n";
    assert_eq!(
        parse_job_manifest(deployment),
        Err("this is a Deployment, not a Job: paste a Job manifest (kind: Job, apiVersion: batch/v1)".into())
    );
    assert!(parse_job_manifest("{\"kind\": \"CronJob\", \"spec\": {}}")
        .unwrap_err()
        .starts_with("this is a CronJob, not a Job: paste the Job of its spec.jobTemplate"));
    // A JSON Job loaded and written back keeps its container's command.
    let pi = r#"{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi"}, "spec": {"backoffLimit": 4, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34.0", "command": ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]}]}}}}"#;
    let yaml = job_manifest_yaml(&parse_job_manifest(pi).unwrap());
    assert!(
        yaml.contains("print bpi(2000)") && yaml.contains("-Mbignum=bpi"),
        "{yaml}"
    );
}

#[test]
fn scripts_as_text() {
    let s = FailureScript::parse(
        "exit 42\n\npreempt\nexit main=1 monitor=3\nsucceed\n",
        "main",
        5_000,
    )
    .unwrap();
    assert_eq!(s.attempts.len(), 4);
    assert_eq!(
        s.attempts[1],
        Attempt::Disruption("PreemptionByScheduler".into())
    );
    assert_eq!(
        s.to_text(),
        "exit main=42\ndisrupt PreemptionByScheduler\nexit main=1 monitor=3\nsucceed"
    );
    assert_eq!(FailureScript::parse(&s.to_text(), "main", 5_000), Ok(s));
    assert_eq!(
        FailureScript::parse("exit 256", "main", 1).unwrap_err(),
        "line 1: \"256\" is not an exit code (0 to 255)"
    );
    assert!(FailureScript::parse("explode", "main", 1)
        .unwrap_err()
        .starts_with("line 1: \"explode\": write"));
    assert!(FailureScript::parse("disrupt Meteor", "main", 1)
        .unwrap_err()
        .contains("unknown disruption reason"));
    assert!(FailureScript::parse("  \n", "main", 1)
        .unwrap_err()
        .contains("empty"));
}

// The issue's example: Ignore on DisruptionTarget; preempt, preempt, succeed,
// 30 s each. The ignored failures enter the backoff record: pods at 0, 40 s
// (30 + 10) and 90 s (70 + 20), not 0, 30, 60.
#[test]
fn ignored_failures_delay_the_replacement() {
    let job = with("  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n");
    let r = run(&job, &FailureScript::preempted_then_succeed("main", 2));
    let starts: Vec<u64> = r.pods.iter().map(|p| p.start_ms / 1000).collect();
    assert_eq!(starts, [0, 40, 90]);
    assert_eq!((r.ignored, r.failed, r.condition.at_ms), (2, 0, 120_000));
    assert_eq!(secs(&r.replacement_delays_ms), [10, 20]);
}

// With backoffLimitPerIndex the index waits on its absolute failure count
// (failed + ignored annotations): preempt (ignored, n=1: 10 s), exit 1 (n=2:
// 20 s), exit 1 (n=3: 40 s), succeed. Pods at 0, 40, 90, 160 s; Complete at 190.
#[test]
fn per_index_wait_counts_ignored_failures() {
    let job = with("  completions: 1\n  completionMode: Indexed\n  backoffLimitPerIndex: 2\n  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n");
    let script = FailureScript::parse("preempt\nexit 1\nexit 1\nsucceed", "main", 30_000).unwrap();
    let r = run(&job, &script);
    let starts: Vec<u64> = r.pods.iter().map(|p| p.start_ms / 1000).collect();
    assert_eq!(starts, [0, 40, 90, 160]);
    assert_eq!(secs(&r.replacement_delays_ms), [10, 20, 40]);
    assert_eq!(
        r.waits.iter().map(|w| w.failures).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!((r.failures_per_index[0], r.ignored), (2, 1));
    assert_eq!(
        (r.condition.type_, r.condition.at_ms),
        (ConditionType::Complete, 190_000)
    );
    // A third counted failure exceeds backoffLimitPerIndex 2: the index fails
    // and no wait follows (waits 10, 20, 40 only; the 4th failure at 190 s).
    let script = FailureScript::parse("preempt\nexit 1", "main", 30_000).unwrap();
    let r = run(&job, &script);
    assert_eq!(secs(&r.replacement_delays_ms), [10, 20, 40]);
    assert_eq!(
        (r.condition.reason.as_str(), r.condition.at_ms),
        ("FailedIndexes", 190_000)
    );
}

// backoffLimit 0 and one exit 1: the failure ends the Job; no replacement, no wait.
#[test]
fn no_wait_after_the_failure_that_ends_the_job() {
    let r = run(
        &with("  backoffLimit: 0\n"),
        &FailureScript::always_fail("main"),
    );
    assert!(r.replacement_delays_ms.is_empty());
    assert_eq!(
        (r.condition.reason.as_str(), r.condition.at_ms, r.pods.len()),
        ("BackoffLimitExceeded", 30_000, 1)
    );
}

// Container statuses are sorted by name: with `worker` before `app` in the
// spec and both exiting 3, the FailJob message names `app`.
#[test]
fn fail_job_names_the_first_container_by_name() {
    let job = "
kind: Job
metadata: {name: demo}
spec:
  podFailurePolicy:
    rules:
    - {action: FailJob, onExitCodes: {operator: In, values: [3]}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: worker}, {name: app}]
";
    let script = FailureScript::parse("exit worker=3 app=3", "worker", 30_000).unwrap();
    let r = run(job, &script);
    assert_eq!(
        r.condition.message,
        "Container app for pod default/demo-0 failed with exit code 3 matching FailJob rule at index 0"
    );
}

// A `restartPolicy: Never` pod whose container restarts on exit 42 by its own
// rule (KEP-5307): the pod never fails, the controller sees no failure and
// backoffLimit 0 is never reached; the kubelet restarts it at once, then after
// 10 and 20 s. Exits at 30, 60, 100 s; restarts at 30, 70, 120 s; succeeds at 150 s.
#[test]
fn container_rule_restarts_in_place_without_a_failure() {
    let job = "
kind: Job
metadata: {name: demo}
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        restartPolicy: Never
        restartPolicyRules:
        - {action: Restart, exitCodes: {operator: In, values: [42]}}
";
    let script =
        FailureScript::parse("exit 42\nexit 42\nexit 42\nsucceed", "main", 30_000).unwrap();
    let r = run(job, &script);
    assert_eq!(
        (r.condition.type_, r.condition.at_ms),
        (ConditionType::Complete, 150_000)
    );
    assert_eq!((r.failed, r.restarts, r.pods.len()), (0, 3, 4));
    let first = r
        .pods
        .iter()
        .find(|p| p.result == PodResult::RestartedInPlace)
        .unwrap();
    assert!(
        first
            .detail
            .contains("restartPolicyRules[0] (Restart) restarts it"),
        "{}",
        first.detail
    );
    // Exit 1 matches no rule and the container's Never keeps it down: the pod fails.
    let r = run(job, &FailureScript::always_fail("main"));
    assert_eq!(
        (r.condition.reason.as_str(), r.failed, r.restarts),
        ("BackoffLimitExceeded", 1, 0)
    );
}

#[test]
fn validation_as_it_is_now() {
    // podReplacementPolicy must be Failed with a podFailurePolicy.
    let pfp = "  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n";
    assert_eq!(
        errors(&with(&format!("{pfp}  podReplacementPolicy: TerminatingOrFailed\n"))),
        ["spec.podReplacementPolicy: Invalid value: \"TerminatingOrFailed\": must be \"Failed\" when podFailurePolicy is used"]
    );
    assert!(errors(&with(&format!("{pfp}  podReplacementPolicy: Failed\n"))).is_empty());
    assert_eq!(
        errors(&with("  podReplacementPolicy: Sometimes\n")),
        ["spec.podReplacementPolicy: Unsupported value: \"Sometimes\": supported values: \"Failed\", \"TerminatingOrFailed\""]
    );
    // onPodConditions status True, False or Unknown.
    assert!(errors(&with("  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget, status: Unknown}]}\n")).is_empty());
    // Exit code values are int32s: 256 and 1000 are accepted.
    assert!(errors(&with("  podFailurePolicy:\n    rules:\n    - {action: Count, onExitCodes: {operator: In, values: [256, 1000]}}\n")).is_empty());
    // Unknown fields are named, as `kubectl apply --validate=strict` does.
    assert_eq!(
        parse_job_manifest(&with("  backofLimit: 3\n")).unwrap_err(),
        "strict decoding error: unknown field \"spec.backofLimit\""
    );
    assert_eq!(
        parse_job_manifest(&BASE.replace("{name: monitor}", "{name: monitor, restartPolicyRule: []}")).unwrap_err(),
        "strict decoding error: unknown field \"spec.template.spec.containers[1].restartPolicyRule\""
    );
    // Fields Kubernetes has but the explorer does not model are fine.
    assert!(parse_job_manifest(&BASE.replace(
        "{name: monitor}",
        "{name: monitor, image: busybox, command: [sh], resources: {limits: {cpu: 1}}}"
    ))
    .is_ok());
    // Container rules: the container must set its own restartPolicy.
    let rules = BASE.replace("{name: monitor}", "{name: monitor, restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]}");
    assert_eq!(
        errors(&rules),
        ["spec.template.spec.containers[1].restartPolicy: Required value: must specify restartPolicy when restart rules are used"]
    );
}

// A number field reads as the API server decodes an int32 from YAML made
// JSON: letters are a string, a fraction or 2^31 a number that is no int32,
// in the decoder's words (the Deployment message seen in public threads:
// "cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas
// of type int32").
#[test]
fn number_fields_refuse_what_is_no_int32() {
    use crashloop_explorer::engine::job::validate::read_int32;
    let read = |t: &str| read_int32("JobSpec", "spec.backoffLimit", t);
    assert_eq!(read(" 6 "), Ok(Some(6)));
    assert_eq!(read(""), Ok(None));
    assert_eq!(read("-1"), Ok(Some(-1)));
    assert_eq!(read("2147483647"), Ok(Some(i32::MAX)));
    let prefix = "Job in version \"v1\" cannot be handled as a Job: json: cannot unmarshal ";
    let suffix = " into Go struct field JobSpec.spec.backoffLimit of type int32";
    for (text, what) in [
        ("abc", "string"),
        ("1.5", "number 1.5"),
        ("2147483648", "number 2147483648"),
        ("-2147483649", "number -2147483649"),
        ("1e400", "string"),
    ] {
        assert_eq!(read(text), Err(format!("{prefix}{what}{suffix}")), "{text}");
    }
}

// A script line naming a container the Job lacks matches nothing: refused,
// naming it; `exit 1` means the Job's first container; a script written for
// `main` is carried to a loaded Job's `pi`.
#[test]
fn scripts_name_the_jobs_containers() {
    let pi = vec!["pi".to_owned()];
    assert_eq!(
        FailureScript::parse_for("exit main=1", &pi, 1_000).unwrap_err(),
        "line 1: the Job has no container \"main\" (its containers: pi)"
    );
    let s = FailureScript::parse_for("exit 1\nsucceed", &pi, 1_000).unwrap();
    assert_eq!(s.to_text(), "exit pi=1\nsucceed");
    let main = FailureScript::parse("exit main=1\nexit 42", "main", 1_000).unwrap();
    assert_eq!(
        main.retarget("main", "pi").to_text(),
        "exit pi=1\nexit pi=42"
    );
}

/// Indexes are the API's for an Indexed Job only: the same five completions
/// NonIndexed leave `completedIndexes` unset (JobStatus documents it for
/// Indexed Jobs), Indexed list them compressed, 0-4.
#[test]
fn only_an_indexed_job_has_indexes() {
    let script = FailureScript {
        attempts: vec![Attempt::Exit(Default::default())],
        run_ms: 30_000,
    };
    let non = run(&with("  completions: 5\n  parallelism: 5\n"), &script);
    assert_eq!(non.condition.type_, ConditionType::Complete);
    assert!(!non.indexed);
    assert_eq!(
        (non.completed_indexes.as_str(), non.failed_indexes.as_str()),
        ("", "")
    );
    let indexed = run(
        &with("  completions: 5\n  parallelism: 5\n  completionMode: Indexed\n"),
        &script,
    );
    assert!(indexed.indexed);
    assert_eq!(indexed.completed_indexes, "0-4");
}
