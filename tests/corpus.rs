//! The pod reader on real kubectl outputs (tests/fixtures/kubectl, each
//! source in SOURCES.md): the shape it recognises, every pod, and each
//! container's restart count, state and wait, diagnosed on kubelet 1.37
//! defaults (10 s doubling to 300 s: the wait after n restarts is
//! 10 s · 2^(n−1), capped) at a fixed moment.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::pod::{diagnose_pods, NodeAssumption, PodsDiagnosis};
use crashloop_explorer::formats::pod::{read_pods, Shape};
use crashloop_explorer::formats::time::{format_rfc3339, parse_rfc3339};

const NOW: &str = "2026-11-26T00:00:00Z";

fn node() -> NodeAssumption {
    NodeAssumption::new(KubeletVersion::V1_37, None, "").expect("defaults resolve")
}

fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/kubectl/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

/// A text read and diagnosed at `NOW`.
fn read_text(t: &str) -> Result<(Shape, PodsDiagnosis), String> {
    let read = read_pods(t, KubeletVersion::V1_37)?;
    let now = parse_rfc3339(NOW).unwrap();
    Ok((read.shape, diagnose_pods(&read.pods, &node(), now, false)))
}

fn read(name: &str) -> (Shape, PodsDiagnosis) {
    read_text(&text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The names of the corpus's files.
fn fixtures() -> Vec<String> {
    let dir = format!("{}/tests/fixtures/kubectl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "SOURCES.md")
        .collect()
}

/// What a text reads as, to compare two texts' readings.
fn reading(t: &str) -> Result<(Shape, Vec<Read>), String> {
    read_text(t).map(|(shape, d)| (shape, rows(&d)))
}

/// (pod, container, restartCount, state, wait in ms) of every container.
type Row = (
    &'static str,
    &'static str,
    Option<u64>,
    &'static str,
    Option<u64>,
);

/// The same, owned.
type Read = (String, String, Option<u64>, String, Option<u64>);

fn rows(d: &PodsDiagnosis) -> Vec<Read> {
    d.pods
        .iter()
        .flat_map(|p| {
            p.containers.iter().map(|c| {
                (
                    p.pod.clone(),
                    c.name.clone(),
                    c.restart_count,
                    c.state.clone(),
                    c.backoff_ms,
                )
            })
        })
        .collect()
}

fn check(name: &str, shape: Shape, expected: &[Row]) -> PodsDiagnosis {
    let (s, d) = read(name);
    assert_eq!(s, shape, "{name}");
    let want: Vec<_> = expected
        .iter()
        .map(|&(p, c, n, st, w)| (p.to_owned(), c.to_owned(), n, st.to_owned(), w))
        .collect();
    assert_eq!(rows(&d), want, "{name}");
    d
}

// --- `kubectl get pods` tables -------------------------------------------

#[test]
fn tables_of_every_kubectl_era() {
    // 2015: padded with 5 spaces; RESTARTS 25 is past the cap: 300 s.
    check(
        "k8s-17460-get-po-2015.txt",
        Shape::Table,
        &[
            (
                "elasticsearch-attiy",
                "",
                Some(25),
                "CrashLoopBackOff",
                Some(300_000),
            ),
            (
                "elasticsearch-lkl4i",
                "",
                Some(25),
                "CrashLoopBackOff",
                Some(300_000),
            ),
            ("frontend-81lqv", "", Some(0), "Running", None),
            ("frontend-ddanc", "", Some(0), "Running", None),
        ],
    );
    // 3 restarts: 10 · 2² = 40 s.
    let d = check(
        "k8s-80981-coredns-table.txt",
        Shape::Table,
        &[
            (
                "coredns-5c98db65d4-qx4mq",
                "",
                Some(3),
                "CrashLoopBackOff",
                Some(40_000),
            ),
            (
                "coredns-5c98db65d4-v5mg8",
                "",
                Some(3),
                "CrashLoopBackOff",
                Some(40_000),
            ),
            ("etcd-localhost.localdomain", "", Some(0), "Running", None),
            (
                "kube-apiserver-localhost.localdomain",
                "",
                Some(0),
                "Running",
                None,
            ),
            (
                "kube-controller-manager-localhost.localdomain",
                "",
                Some(0),
                "Running",
                None,
            ),
            ("kube-flannel-ds-amd64-gltqj", "", Some(0), "Running", None),
            ("kube-proxy-x2crp", "", Some(0), "Running", None),
            (
                "kube-scheduler-localhost.localdomain",
                "",
                Some(0),
                "Running",
                None,
            ),
        ],
    );
    // No "(… ago)" in this kubectl: a step, no window.
    assert_eq!(d.pods[0].containers[0].curve_step, Some(3));
    assert_eq!(d.pods[0].containers[0].next_restart_at, None);
    assert!(d.pods[0].containers[0].estimated);
}

#[test]
fn all_namespaces_wide_and_pod_prefixes() {
    let (_, d) = read("k8s-27873-all-namespaces-wide-2018.txt");
    let p = &d.pods[0];
    assert_eq!(
        (p.namespace.as_str(), p.pod.as_str(), p.node.as_deref()),
        (
            "kube-system",
            "coredns-78fcdf6894-gdj9r",
            Some("192-168-43-131.master")
        )
    );
    let (_, d) = read("kubeadm-1688-get-all-wide-pod-prefix.txt");
    assert_eq!(d.pods[0].pod, "coredns-8476d449d8-d9whc");
    assert_eq!(d.pods[0].node.as_deref(), Some("elastestsp1"));
    // 7 restarts: 10 · 2⁶ = 640 s, capped at 300 s.
    assert_eq!(d.pods[0].containers[0].backoff_ms, Some(300_000));
    assert_eq!(d.pods.len(), 2);
}

#[test]
fn rows_cut_short_flattened_or_between_prompts() {
    // Two tables of one pod between shell prompts: the later row wins;
    // 1 restart: the first wait, 10 s.
    check(
        "certificate-init-container-13-two-tables.txt",
        Shape::Table,
        &[(
            "tls-app-dc7787455-69rhx",
            "",
            Some(1),
            "Init:CrashLoopBackOff",
            Some(10_000),
        )],
    );
    // Cut after STATUS: the pod and its state, no count, no wait.
    let d = check(
        "istio-23661-row-cut-after-status.txt",
        Shape::Table,
        &[(
            "mall-8578f56f5b-9pq4b",
            "",
            None,
            "Init:CrashLoopBackOff",
            None,
        )],
    );
    assert!(d.pods[0].containers[0]
        .notes
        .iter()
        .any(|n| n.contains("cut before RESTARTS")));
    // A headerless wide row at one space: NODE follows the IP; 283 restarts
    // sit at the 300 s cap.
    let d = check(
        "learning-istio-20-wide-row-flattened.txt",
        Shape::Table,
        &[(
            "wk-sys-acl-v1-0-5-7cf7f79d6c-d9qcr",
            "",
            Some(283),
            "Init:CrashLoopBackOff",
            Some(300_000),
        )],
    );
    assert_eq!(d.pods[0].node.as_deref(), Some("10.1.128.6"));
}

#[test]
fn a_table_with_the_last_restart_gives_a_window() {
    // RESTARTS 9 (2m10s ago), printed at NOW: the last restart at
    // 23:57:50; it exited by NOW and waits 300 s, so the next restart falls
    // in [23:57:50 + 300 s, NOW + 300 s] = [00:02:50, 00:05:00], the latest
    // 30 s later for the pod worker (half of min(300 s, 60 s)). The backoff
    // GC (600 s after the last restart, 00:07:50) comes after both.
    let d = check(
        "written-wrapped-row.txt",
        Shape::Table,
        &[(
            "payments-reconciler-batch-worker-5c9f7d8b6-k2v9q",
            "",
            Some(9),
            "CrashLoopBackOff",
            Some(300_000),
        )],
    );
    let c = &d.pods[0].containers[0];
    assert_eq!(d.pods[0].namespace, "payments");
    assert_eq!(
        c.next_restart_at.map(format_rfc3339).as_deref(),
        Some("2026-11-26T00:02:50Z")
    );
    assert_eq!(
        c.next_restart_latest_at.map(format_rfc3339).as_deref(),
        Some("2026-11-26T00:05:30Z")
    );
}

#[test]
fn watch_rows_keep_each_pods_last_row() {
    // Three rows of one pod: the last (CrashLoopBackOff, 4 (1s ago)) wins;
    // 4 restarts: 10 · 2³ = 80 s, so [NOW − 1 s + 80 s, NOW + 80 s].
    let d = check(
        "written-watch-rows.txt",
        Shape::Table,
        &[(
            "worker-6f7d8c9b5-x2x9z",
            "",
            Some(4),
            "CrashLoopBackOff",
            Some(80_000),
        )],
    );
    assert_eq!(
        d.pods[0].containers[0]
            .next_restart_at
            .map(format_rfc3339)
            .as_deref(),
        Some("2026-11-26T00:01:19Z")
    );
    check(
        "kube-state-metrics-788-rows-no-header.txt",
        Shape::Table,
        &[(
            "apo-api-analitica-1560020400-bzshk",
            "",
            Some(1061),
            "Init:Error",
            Some(300_000),
        )],
    );
}

#[test]
fn tables_with_other_back_offs() {
    let d = check(
        "k8s-63873-get-pod-kube-system.txt",
        Shape::Table,
        // No window without "(… ago)": the pods in trouble first, then the
        // most restarted, then as pasted.
        &[
            (
                "calico-node-ls4nf",
                "",
                Some(12),
                "CrashLoopBackOff",
                Some(300_000),
            ),
            ("kube-proxy-gfvf8", "", Some(0), "ImagePullBackOff", None),
            ("kube-proxy-gn99x", "", Some(0), "ImagePullBackOff", None),
            ("calico-node-x7nkw", "", Some(13), "Running", Some(300_000)),
            ("calico-node-t9r8z", "", Some(1), "Running", Some(10_000)),
            ("calico-etcd-spwts", "", Some(0), "Running", None),
            (
                "calico-kube-controllers-685755779f-8qvg9",
                "",
                Some(0),
                "Running",
                None,
            ),
            ("etcd-k8s-node1", "", Some(0), "Running", None),
            ("kube-apiserver-k8s-node1", "", Some(0), "Running", None),
            (
                "kube-controller-manager-k8s-node1",
                "",
                Some(0),
                "Running",
                None,
            ),
            ("kube-dns-86f4d74b45-tb98s", "", Some(0), "Running", None),
            ("kube-proxy-s9kjw", "", Some(0), "Running", None),
            ("kube-scheduler-k8s-node1", "", Some(0), "Running", None),
            (
                "kubernetes-dashboard-7d5dcdb6d9-nlvxs",
                "",
                Some(0),
                "ContainerCreating",
                None,
            ),
        ],
    );
    let pull = &d.pods[1].containers[0];
    assert!(
        pull.notes.iter().any(|n| n.contains("image pull backoff")),
        "{:?}",
        pull.notes
    );
    let (_, d) = read("aegis-293-createcontainerconfigerror.txt");
    assert!(d.pods[0].containers[0]
        .notes
        .iter()
        .any(|n| n.contains("every 10-15 s")));
    check(
        "matrixone-6209-namespace-flag-table.txt",
        Shape::Table,
        &[
            (
                "reusee-issue-6209-log-0",
                "",
                Some(0),
                "CreateContainerConfigError",
                None,
            ),
            (
                "reusee-issue-6209-log-1",
                "",
                Some(0),
                "CreateContainerConfigError",
                None,
            ),
            (
                "reusee-issue-6209-log-2",
                "",
                Some(0),
                "CreateContainerConfigError",
                None,
            ),
        ],
    );
    check(
        "iks-handson-7-init-createcontainerconfigerror.txt",
        Shape::Table,
        &[(
            "sample-mychart-6bfc89db65-j9g9z",
            "",
            Some(0),
            "Init:CreateContainerConfigError",
            None,
        )],
    );
    check(
        "k8s-14307-get-pods.txt",
        Shape::Table,
        &[("succeeder", "", Some(0), "Error", None)],
    );
    // 2015's REASON column: the rows whose reason has spaces are not rows
    // kubectl prints any more; the other eight are read.
    // 2015's REASON column holds words too: all ten pods.
    let (_, d) = read("k8s-10560-reason-column-2015.txt");
    assert_eq!(d.pods.len(), 10);
    let status = |name: &str| {
        d.pods
            .iter()
            .find(|p| p.pod == name)
            .and_then(|p| p.status.clone())
    };
    assert_eq!(status("memhog").as_deref(), Some("OOM Killed"));
    assert_eq!(
        status("private-image-test-3").as_deref(),
        Some("Error: image foo/private:v1 not found")
    );
}

// --- `kubectl describe pod` ----------------------------------------------

#[test]
fn describe_as_kubectl_prints_it() {
    // 4 restarts: 80 s; the last run 14:39:10 → 14:39:10 (+0200).
    let d = check(
        "coredns-6321-describe-minikube.txt",
        Shape::Describe,
        &[(
            "coredns-5d78c9869d-c97fq",
            "coredns",
            Some(4),
            "CrashLoopBackOff",
            Some(80_000),
        )],
    );
    let c = &d.pods[0].containers[0];
    assert_eq!((c.exit_code, c.run_ms), (Some(1), Some(0)));
    // Two years old: diagnosed as of its newest time, 12:39:10 UTC; the
    // exit then waits 80 s.
    assert!(
        d.notes[0].contains("diagnosed as of that moment"),
        "{:?}",
        d.notes
    );
    assert_eq!(format_rfc3339(d.as_of), "2023-09-15T12:39:10Z");
    assert_eq!(
        c.next_restart_at.map(format_rfc3339).as_deref(),
        Some("2023-09-15T12:40:30Z")
    );
    assert_eq!(d.pods[0].node.as_deref(), Some("minikube"));
}

#[test]
fn describe_a_chat_or_terminal_touched() {
    // The first character lost ("ame:"); Completed, exit 0, 6 restarts: 10 · 2⁵ = 320 → 300 s.
    check(
        "portainer-5314-describe-first-char-lost.txt",
        Shape::Describe,
        &[(
            "centos-new-6846f658db-w4qhj",
            "centos-new",
            Some(6),
            "CrashLoopBackOff",
            Some(300_000),
        )],
    );
    // Two characters lost ("me:").
    check(
        "rook-5439-describe-two-chars-lost.txt",
        Shape::Describe,
        &[(
            "rook-ceph-mds-arch-cloud-b-6d68d59894-tbmb6",
            "chown-container-data-dir",
            None,
            "Completed",
            None,
        )],
    );
    // Every line flush left: the state blocks are told apart by their keys.
    let d = check(
        "k8s-93826-describe-flat.txt",
        Shape::Describe,
        &[(
            "wordpress-5bbd7fd785-p4s9r",
            "wordpress",
            Some(19),
            "Running",
            Some(300_000),
        )],
    );
    let c = &d.pods[0].containers[0];
    // Last run 12:12:19 → 12:16:06: 227 s, exit 1.
    assert_eq!((c.exit_code, c.run_ms), (Some(1), Some(227_000)));
    // A markdown quote ("> ") before every line, cut short after State.
    check(
        "kubesphere-669-describe-quoted.txt",
        Shape::Describe,
        &[("coredns-54f76f594-7kgk8", "coredns", None, "Waiting", None)],
    );
    // Cut short inside Last State: no restart count yet.
    check(
        "kubeless-1157-describe.txt",
        Shape::Describe,
        &[(
            "wordpress-5bbd7fd785-p4s9r",
            "wordpress",
            None,
            "Running",
            None,
        )],
    );
    check(
        "k8s-17460-describe-2016-cut.txt",
        Shape::Describe,
        &[("hello-node-lihpv", "hello-node", None, "Unknown", None)],
    );
    // OpenShift 3.5's `oc describe` (2017: `Security Policy:`, `Environment
    // Variables:`), every line at one indentation: its one container, never
    // scheduled (no State), and neither its variables nor its volume taken
    // for containers.
    let d = check(
        "nuage-oc-describe-2017-flattened.txt",
        Shape::Describe,
        &[("router-3-deploy", "deployment", None, "Unknown", None)],
    );
    assert_eq!(d.pods[0].namespace, "default");
    // The same pod's page in Google Cloud's console (2016), copied: `Label
    // <tab> value` lines and a containers table whose State cell goes on
    // below it. 7 restarts: 10 · 2⁶ = 640 → 300 s.
    check(
        "k8s-17460-console-2016.txt",
        Shape::Describe,
        &[(
            "hello-node-lihpv",
            "hello-node",
            Some(7),
            "CrashLoopBackOff",
            Some(300_000),
        )],
    );
}

#[test]
fn describe_from_2015() {
    // Tab-aligned columns, echoed command before: 5 restarts, 160 s.
    check(
        "k8s-10861-describe-2015-tabs.txt",
        Shape::Describe,
        &[(
            "simmemleak-hra99",
            "simmemleak",
            Some(5),
            "Running",
            Some(160_000),
        )],
    );
    // `Last Termination State:` (kubectl 1.0): run 12:54:30 → 12:54:33.
    let d = check(
        "k8s-10861-describe-last-termination-state.txt",
        Shape::Describe,
        &[(
            "simmemleak-hra99",
            "simmemleak",
            Some(5),
            "Running",
            Some(160_000),
        )],
    );
    assert_eq!(d.pods[0].containers[0].run_ms, Some(3_000));
    assert_eq!(d.pods[0].containers[0].exit_code, Some(1));
}

#[test]
fn describe_in_part() {
    let d = check(
        "k8s-68286-containers-section.txt",
        Shape::DescribeContainers,
        &[("", "static", Some(1), "Running", Some(10_000))],
    );
    assert_eq!(d.pods[0].containers[0].exit_code, Some(2));
    let d = check(
        "k8s-94216-init-containers.txt",
        Shape::DescribeContainers,
        &[("", "init", Some(16), "CrashLoopBackOff", Some(300_000))],
    );
    assert_eq!(
        d.pods[0].containers[0].kind,
        crashloop_explorer::engine::pod::ContainerKind::Init
    );
    // A state block with single spaces after each colon; exit 137 after 123 s.
    let d = check(
        "k8s-122256-state-fragment-single-space.txt",
        Shape::DescribeState,
        &[("", "", Some(1), "Running", Some(10_000))],
    );
    assert_eq!(d.pods[0].containers[0].run_ms, Some(123_000));
    // A Last State block alone (OOMKilled after 3 s) names no pod, no
    // container, no restart count and no state: no pod, and it says what
    // it held.
    let err = read_text(&text("gimlet-649-last-state-block.txt")).unwrap_err();
    assert!(
        err.starts_with("this text holds a container's last state alone (Terminated: reason OOMKilled, exit code 137), with no pod name"),
        "{err}"
    );
    check(
        "k8s-14307-describe-fragment.txt",
        Shape::DescribeContainers,
        &[("", "c", None, "Error", None)],
    );
    check(
        "iks-handson-7-describe-init-configerror.txt",
        Shape::Describe,
        &[(
            "sample-mychart-6bfc89db65-j9g9z",
            "init-myservice",
            Some(0),
            "CreateContainerConfigError",
            None,
        )],
    );
}

/// Events alone tell of an image pull backoff too: `Back-off pulling image`,
/// with the `Failed to pull image` events' count and age.
#[test]
fn events_alone_give_the_next_pull() {
    let now = parse_rfc3339(NOW).unwrap();
    let (shape, d) = read("written-get-events-pull-backoff.txt");
    assert_eq!(shape, Shape::Events);
    let next = |pod: &str| {
        let p = d.pods.iter().find(|p| p.pod == pod).unwrap();
        (
            p.containers[0].state.clone(),
            p.containers[0].next_restart_at.map(|t| t - now),
        )
    };
    // One failed pull: the next waits 10 s after it. 3 s ago: in 7 s; 30 s
    // ago: 20 s overdue.
    assert_eq!(next("api-b"), ("ImagePullBackOff".into(), Some(7_000)));
    assert_eq!(next("web-a"), ("ImagePullBackOff".into(), Some(-20_000)));
    assert_eq!(next("job-c").0, "CrashLoopBackOff");
    // describe's Events table alone: 4 failed pulls, 10 · 2³ = 80 s after
    // the last, 7 s ago: in 73 s.
    let describe = text("written-describe-imagepullbackoff.txt");
    let events = &describe[describe.find("Events:").unwrap()..];
    let read = read_pods(events, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(&read.pods, &node(), now, false);
    assert_eq!(
        d.pods[0].containers[0].next_restart_at.map(|t| t - now),
        Some(73_000)
    );
}

#[test]
fn an_image_pull_back_off_is_its_own_rhythm() {
    // 4 failed pulls: the image backoff waits 10 · 2³ = 80 s after the last,
    // which failed 7 s before the output (taken as printed at NOW): the next
    // pull at NOW − 7 s + 80 s = 00:01:13.
    let d = check(
        "written-describe-imagepullbackoff.txt",
        Shape::Describe,
        &[(
            "web-5d9c7b6f4-x8k2p",
            "web",
            Some(0),
            "ImagePullBackOff",
            None,
        )],
    );
    let c = &d.pods[0].containers[0];
    assert_eq!(
        c.next_restart_at.map(format_rfc3339).as_deref(),
        Some("2026-11-26T00:01:13Z")
    );
    assert!(c.estimated);
    assert!(
        c.notes.iter().any(|n| n.contains("4 failed pulls")),
        "{:?}",
        c.notes
    );
    assert!(c
        .notes
        .iter()
        .any(|n| n.contains("maxContainerRestartPeriod does not change it")));
}

// --- events ----------------------------------------------------------------

#[test]
fn back_off_events_old_and_new() {
    // The new wording names the container, not the wait; the scheduler's
    // event names the pod.
    check(
        "k8s-113215-events-section.txt",
        Shape::Events,
        &[(
            "xxx-controller-manager-7c8fcd5fff-4fprb",
            "manager",
            None,
            "CrashLoopBackOff",
            None,
        )],
    );
    // The old FailedSync wording carries the wait and the pod.
    let d = check(
        "k8s-47715-events-failedsync.txt",
        Shape::Events,
        &[(
            "docker-registry-1-df7qm",
            "registry",
            None,
            "CrashLoopBackOff",
            Some(10_000),
        )],
    );
    assert_eq!(d.pods[0].namespace, "default");
    let d = check(
        "k8sgpt-792-backoff-messages.txt",
        Shape::Events,
        &[
            (
                "opa-849dcb7499-9chrt",
                "kube-mgmt",
                None,
                "CrashLoopBackOff",
                Some(300_000),
            ),
            (
                "opa-849dcb7499-9chrt",
                "opa",
                None,
                "CrashLoopBackOff",
                Some(300_000),
            ),
        ],
    );
    assert_eq!(d.pods[0].namespace, "opa");
    check(
        "knative-serving-2804-events.txt",
        Shape::Events,
        &[("", "", None, "CrashLoopBackOff", None)],
    );
    check(
        "tarantool-operator-88-events.txt",
        Shape::Events,
        &[("", "", None, "CrashLoopBackOff", None)],
    );
    // Before the container runtime interface the Docker runtime's event
    // said "docker container" and named none: the row's SUBOBJECT does.
    check(
        "libfaketime-79-get-events-docker-backoff.txt",
        Shape::Events,
        &[(
            "jenkins1-controller-pca1x",
            "jenkins1",
            None,
            "CrashLoopBackOff",
            None,
        )],
    );
}

/// describe's 2016 events name an init container by its field path, as
/// `kubectl get events -o wide` still does: two rows written here in the
/// columns of openshift/origin#12084's (FirstSeen LastSeen Count From
/// SubobjectPath Type Reason Message), tab-separated as kubectl printed them.
#[test]
fn an_init_containers_field_path_names_it() {
    let t = "  10m\t10m\t1\t{kubelet master3.paastest.cn}\tspec.initContainers{init}\tNormal\tCreated\tCreated container with docker id 0ce3fbd1d0a8\n  9m\t5s\t40\t{kubelet master3.paastest.cn}\tspec.initContainers{init}\tWarning\tBackOff\tBack-off restarting failed docker container\n";
    let (shape, d) = read_text(t).unwrap();
    assert_eq!(shape, Shape::Events);
    assert_eq!(
        rows(&d),
        vec![(
            String::new(),
            "init".to_owned(),
            None,
            "CrashLoopBackOff".to_owned(),
            None
        )]
    );
}

/// An events table cut short where its back-off event would be says so,
/// rather than only that it holds none (the table of kubernetes/kubernetes
/// #47715 cut as the one of #50962 was, after a row's type; and inside the
/// BackOff row's message).
#[test]
fn an_events_table_cut_at_a_warning_says_so() {
    let whole = text("k8s-47715-events-failedsync.txt");
    let rows: Vec<&str> = whole.lines().collect();
    // rows[6]: "  Warning  BackOff  1h (x3 from 1h)  kubelet, ...  Back-off restarting failed container".
    let cut = |row: &str| format!("{}\n{row}", rows[..6].join("\n"));
    let err = read_text(&cut("  Warning")).unwrap_err();
    assert!(
        err.starts_with("this text holds no pod (events without a back-off event; the last row is cut short after its type, \"Warning\", where one may have been): paste what"),
        "{err}"
    );
    let at = rows[6].find("fai").unwrap();
    let err = read_text(&cut(&rows[6][..at])).unwrap_err();
    assert!(
        err.starts_with("this text holds no pod (events without a whole back-off event; the last row, a BackOff event, is cut short before its message says which back-off)"),
        "{err}"
    );
    // A whole row after it, or a Warning row of another reason, is no cut.
    let err = read_text(&format!("{}\n{}", cut("  Warning"), rows[2])).unwrap_err();
    assert!(
        err.starts_with("this text holds no pod (events without a back-off event)"),
        "{err}"
    );
    let failed =
        "  Warning  Failed     4m11s (x6 over 4m53s)  kubelet  Error: secrets \"s\" not found";
    let err = read_text(&cut(failed)).unwrap_err();
    assert!(
        err.starts_with("this text holds no pod (events without a back-off event)"),
        "{err}"
    );
    // `kubectl get events`' own table, its type a column of its own.
    let err =
        read_text("LAST SEEN   TYPE      REASON    OBJECT       MESSAGE\n5m          Warning")
            .unwrap_err();
    assert!(err.contains("cut short after its type"), "{err}");
}

// --- YAML and JSON ---------------------------------------------------------

#[test]
fn yaml_and_json_whole_or_in_part() {
    // Folded `>-` message; restartCount 617: 300 s, as the message says.
    let d = check(
        "neoshowcase-725-containerstatuses-folded.yaml",
        Shape::Status,
        &[("", "app", Some(617), "CrashLoopBackOff", Some(300_000))],
    );
    assert_eq!(d.pods[0].containers[0].run_ms, Some(2_000));
    // back-off 20s at restartCount 2: 10 · 2¹.
    check(
        "otel-semconv-996-containerstatuses.yaml",
        Shape::Status,
        &[("", "test", Some(2), "CrashLoopBackOff", Some(20_000))],
    );
    let d = check(
        "k8s-14491-status-runcontainererror.yaml",
        Shape::Status,
        &[("", "hello-openshift", Some(0), "RunContainerError", None)],
    );
    assert_eq!(d.pods[0].status.as_deref(), Some("Pending"));
    // A Pod indented by 4 (a markdown block), its message single-quoted
    // over three lines.
    let d = check(
        "written-markdown-indented-pod.yaml",
        Shape::Pod,
        &[(
            "cache-0",
            "redis",
            Some(7),
            "CrashLoopBackOff",
            Some(300_000),
        )],
    );
    assert_eq!(d.pods[0].node.as_deref(), Some("node-c"));
    // Go's zero time for a start error: no run length; 2 restarts: 20 s.
    let d = check(
        "written-starterror-epoch.json",
        Shape::ContainerStatus,
        &[("", "debugger", Some(2), "RunContainerError", Some(20_000))],
    );
    assert_eq!(d.pods[0].containers[0].run_ms, None);
    // A re-indented, broken paste that keeps nothing of a pod: no pod.
    let err = read_text(&text("k8s-48511-reindented-broken.yaml")).unwrap_err();
    assert!(
        err.starts_with("this text holds a pod's status block, with no pod name, container name, restart count or state"),
        "{err}"
    );
}

#[test]
fn a_list_is_every_pod_soonest_first() {
    // Stale: as of the newest time, 09:10:25 (fghij's exit). fghij waits
    // 10 s (restartCount 1): 09:10:35; abcde waits 40 s from 09:10:05: 09:10:45.
    let d = check(
        "written-podlist.json",
        Shape::PodList,
        &[
            (
                "api-7d9c-fghij",
                "api",
                Some(1),
                "CrashLoopBackOff",
                Some(10_000),
            ),
            (
                "api-7d9c-abcde",
                "api",
                Some(3),
                "CrashLoopBackOff",
                Some(40_000),
            ),
        ],
    );
    assert_eq!(d.order, vec![1, 0]);
    assert_eq!(format_rfc3339(d.as_of), "2026-11-20T09:10:25Z");
    let next: Vec<_> = d
        .pods
        .iter()
        .map(|p| p.containers[0].next_restart_at.map(format_rfc3339))
        .collect();
    assert_eq!(
        next,
        vec![
            Some("2026-11-20T09:10:35Z".to_owned()),
            Some("2026-11-20T09:10:45Z".to_owned())
        ]
    );
}

/// An old describe is diagnosed as of the moment it was printed: the
/// container last started at 19:52:22, and its `Started` event was 2 min
/// old when printed, so the output is of 19:54:22 (its newest timestamp
/// alone would say 19:52:25).
#[test]
fn the_events_ages_date_an_old_output() {
    let text = "Name:         web-0\nNamespace:    default\nContainers:\n  app:\n\
        \x20   State:          Waiting\n      Reason:       CrashLoopBackOff\n\
        \x20   Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n\
        \x20     Started:      Wed, 14 Jul 2021 19:52:22 +0000\n      Finished:     Wed, 14 Jul 2021 19:52:25 +0000\n\
        \x20   Restart Count:  6\nEvents:\n  Type     Reason   Age                From     Message\n\
        \x20 ----     ------   ----               ----     -------\n\
        \x20 Normal   Started  2m (x7 over 12m)   kubelet  Started container app\n\
        \x20 Warning  BackOff  1s (x20 over 11m)  kubelet  Back-off restarting failed container app in pod web-0_default(u)\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    assert_eq!(format_rfc3339(d.as_of), "2021-07-14T19:54:22Z");
    // 6 restarts: 10 · 2⁵ = 320 → 300 s after the exit at 19:52:25.
    assert_eq!(
        d.pods[0].containers[0]
            .next_restart_at
            .map(format_rfc3339)
            .as_deref(),
        Some("2021-07-14T19:57:25Z")
    );
}

/// Debug containers never restart: describe's `Ephemeral Containers:` is
/// left out; Go's zero time is no time, not a note.
#[test]
fn ephemeral_containers_and_the_zero_time() {
    let text = "Name: a\nNamespace: x\nContainers:\n  c:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n\
        \x20   Last State:     Terminated\n      Reason:       StartError\n      Exit Code:    128\n\
        \x20     Started:      Mon, 01 Jan 0001 00:00:00 +0000\n      Finished:     Wed, 14 Jul 2021 19:52:25 +0000\n\
        \x20   Restart Count:  2\nEphemeral Containers:\n  debugger-x:\n    State:          Terminated\n\
        \x20     Reason:       Completed\n      Exit Code:    0\n    Restart Count:  0\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    assert!(read.notes.is_empty(), "{:?}", read.notes);
    let d = diagnose_pods(
        &read.pods,
        &node(),
        parse_rfc3339("2021-07-14T19:53:00Z").unwrap(),
        true,
    );
    let names: Vec<&str> = d.pods[0]
        .containers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, vec!["c"]);
    // 2 restarts: 20 s after the exit at 19:52:25; no run length (no start).
    let c = &d.pods[0].containers[0];
    assert_eq!(
        (c.run_ms, c.next_restart_at.map(format_rfc3339).as_deref()),
        (None, Some("2021-07-14T19:52:45Z"))
    );
}

#[test]
fn get_events_names_the_pod_in_its_object_column() {
    // `kubectl get events` before 1.27: the message names no pod, OBJECT does.
    let text = "LAST SEEN   TYPE      REASON    OBJECT       MESSAGE\n\
                2m10s       Warning   BackOff   pod/web-0    Back-off restarting failed container\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.shape, Shape::Events);
    let now = parse_rfc3339(NOW).unwrap();
    let d = diagnose_pods(&read.pods, &node(), now, false);
    assert_eq!(d.pods[0].pod, "web-0");
    // Before 1.14: NAME is the event's (`POD.hash`), KIND `Pod`, SUBOBJECT the container.
    let old = "LASTSEEN   FIRSTSEEN   COUNT   NAME                     KIND   SUBOBJECT              TYPE      REASON    SOURCE            MESSAGE\n\
               1m         1h          200     web-0.15a2b3c4d5e6f7a8   Pod    spec.containers{app}   Warning   BackOff   kubelet, node-a   Back-off restarting failed container\n";
    let read = read_pods(old, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(&read.pods, &node(), now, false);
    assert_eq!(
        (
            d.pods[0].pod.as_str(),
            d.pods[0].containers[0].name.as_str()
        ),
        ("web-0", "app")
    );
}

/// An issue's text: prose, a table, then the pod's YAML. The YAML has the
/// times and is read: the exit at 23:58:03 and back-off 2m40s give 00:00:43.
#[test]
fn a_table_and_yaml_in_one_paste_read_the_yaml() {
    let text = "I get this:\nNAME    READY   STATUS             RESTARTS      AGE\n\
        web-0   0/1     CrashLoopBackOff   5 (2m ago)    21m\nand the yaml:\n\
        apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: shop\nstatus:\n  containerStatuses:\n\
        \x20 - name: app\n    restartCount: 5\n    state:\n      waiting:\n        reason: CrashLoopBackOff\n\
        \x20       message: back-off 2m40s restarting failed container=app pod=web-0_shop(x)\n\
        \x20   lastState:\n      terminated:\n        exitCode: 1\n        startedAt: \"2026-11-25T23:58:00Z\"\n\
        \x20       finishedAt: \"2026-11-25T23:58:03Z\"\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.shape, Shape::Pod);
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    assert_eq!(
        d.pods[0].containers[0]
            .next_restart_at
            .map(format_rfc3339)
            .as_deref(),
        Some("2026-11-26T00:00:43Z")
    );
}

/// A describe cut down to the pod and its container's state (the
/// container's name line cut too): a fragment of one container.
#[test]
fn a_describe_cut_to_its_state() {
    let text = "Name:                 kube-controller-manager-controlplane\nNamespace:            kube-system\n\
        \x20   Command:\n      kube-controller-manegaar\n    State:          Waiting\n      Reason:       RunContainerError\n\
        \x20   Last State:     Terminated\n      Reason:       StartError\n      Exit Code:    128\n\
        \x20     Started:      Thu, 01 Jan 1970 00:00:00 +0000\n      Finished:     Wed, 27 Aug 2025 23:31:22 +0000\n\
        \x20   Ready:          False\n    Restart Count:  2\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(
        &read.pods,
        &node(),
        parse_rfc3339("2025-08-27T23:31:30Z").unwrap(),
        true,
    );
    let c = &d.pods[0].containers[0];
    assert_eq!(
        (d.pods[0].pod.as_str(), c.restart_count, c.state.as_str()),
        (
            "kube-controller-manager-controlplane",
            Some(2),
            "RunContainerError"
        )
    );
    // A start error is an exit: 2 restarts, 20 s after 23:31:22.
    assert_eq!(
        c.next_restart_at.map(format_rfc3339).as_deref(),
        Some("2025-08-27T23:31:42Z")
    );
}

/// A code block whose first line was copied from outside it: every line but
/// the first indented by 4.
#[test]
fn every_line_but_the_first_indented() {
    let text = "Name:         web-0\n    Namespace:    shop\n    Containers:\n      app:\n\
        \x20       State:          Waiting\n          Reason:       CrashLoopBackOff\n        Restart Count:  5\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    let p = &d.pods[0];
    assert_eq!(
        (
            p.pod.as_str(),
            p.namespace.as_str(),
            p.containers[0].restart_count
        ),
        ("web-0", "shop", Some(5))
    );
}

/// kubecolor's colours and a byte-order mark are not part of the table.
#[test]
fn colours_and_a_bom_are_taken_off() {
    let text = "\u{feff}NAME    READY   STATUS             RESTARTS      AGE\n\
        web-0   0/1     \u{1b}[31mCrashLoopBackOff\u{1b}[0m   5 (2m ago)    21m\n";
    let read = read_pods(text, KubeletVersion::V1_37).unwrap();
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    assert_eq!(
        (
            d.pods[0].pod.as_str(),
            d.pods[0].containers[0].state.as_str()
        ),
        ("web-0", "CrashLoopBackOff")
    );
}

/// A list with a pod still pending: that pod is left out with a note, the
/// others are read.
#[test]
fn a_pending_pod_in_a_list_is_left_out() {
    let list = r#"{"kind":"List","items":[
        {"kind":"Pod","metadata":{"name":"p","namespace":"n"},"status":{"phase":"Pending"}},
        {"kind":"Pod","metadata":{"name":"q","namespace":"n"},"status":{"containerStatuses":[{"name":"c","restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}}]}"#;
    let read = read_pods(list, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.pods.len(), 1);
    assert_eq!(
        read.notes,
        vec!["left out: pod p has no container statuses yet (phase Pending): nothing has run to restart"]
    );
}

#[test]
fn a_pod_without_kind_and_a_bare_status_block_are_told_apart() {
    let status = "status:\n  containerStatuses:\n  - name: app\n    restartCount: 3\n    state:\n      waiting:\n        reason: CrashLoopBackOff\n";
    let read = read_pods(status, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.shape, Shape::Status);
    let pod = format!("metadata:\n  name: web-0\n  namespace: shop\n{status}");
    let read = read_pods(&pod, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.shape, Shape::PodWithoutKind);
    // 3 restarts: 10 · 2² = 40 s.
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    assert_eq!(
        (d.pods[0].pod.as_str(), d.pods[0].containers[0].backoff_ms),
        ("web-0", Some(40_000))
    );
}

#[test]
fn json_cut_short_reads_up_to_its_last_whole_field() {
    // kubectl prints a list's kind after its items: cut inside the second
    // pod's status, the text has no kind, the first pod is whole and the
    // second has no status yet.
    let whole = text("written-podlist.json");
    let mut cut: String = whole.lines().take(27).collect::<Vec<_>>().join("\n");
    cut.push_str("\n                \"pha");
    let read = read_pods(&cut, KubeletVersion::V1_37).unwrap();
    assert_eq!(read.shape, Shape::PodList);
    assert!(
        read.notes[0].starts_with("the JSON is cut short")
            && read.notes[0].ends_with("read up to line 26, its last whole field"),
        "{:?}",
        read.notes
    );
    assert!(read.notes[1].starts_with("left out: pod api-7d9c-fghij has no container statuses"));
    // 3 restarts: 10 · 2² = 40 s, as the kubelet's message says.
    let d = diagnose_pods(&read.pods, &node(), parse_rfc3339(NOW).unwrap(), false);
    assert_eq!(
        rows(&d),
        vec![(
            "api-7d9c-abcde".to_owned(),
            "api".to_owned(),
            Some(3),
            "CrashLoopBackOff".to_owned(),
            Some(40_000)
        )]
    );
    // Cut before any whole field: the error, not a guess.
    assert!(read_pods("{\n  \"apiVersion\": \"v", KubeletVersion::V1_37)
        .unwrap_err()
        .contains("EOF while parsing"));
}

#[test]
fn what_holds_no_pod_says_what_it_is() {
    let err = read_pods(
        &text("eirini-111-configerror-event.txt"),
        KubeletVersion::V1_37,
    )
    .unwrap_err();
    assert!(
        err.starts_with("this text holds no pod (events without a back-off event)"),
        "{err}"
    );
    // kubectl 1.0 printed no Containers section for a pod that never ran.
    let err = read_pods(
        &text("k8s-6014-describe-1.0-no-containers.txt"),
        KubeletVersion::V1_37,
    )
    .unwrap_err();
    assert!(
        err.starts_with("pod valid-pod shows no containers"),
        "{err}"
    );
    let deployment = "Name:                   web\nNamespace:              default\nReplicas:               3 desired | 3 updated\nStrategyType:           RollingUpdate\nPod Template:\n  Labels:  app=web\n  Containers:\n   web:\n    Image:        nginx\n    Host Port:    0/TCP\n";
    assert!(read_pods(deployment, KubeletVersion::V1_37)
        .unwrap_err()
        .starts_with("this describes a workload"));
    for (t, says) in [
        ("NAME   TYPE   CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\nweb   ClusterIP   10.0.0.1   <none>   80/TCP   1d\n", "`kubectl get services` table"),
        ("No resources found in default namespace.\n", "no pods matched"),
        ("Traceback (most recent call last):\n  File \"app.py\", line 1\n", "program's log"),
    ] {
        let err = read_pods(t, KubeletVersion::V1_37).unwrap_err();
        assert!(err.contains(says), "{err}");
    }
}

/// What a Windows terminal (CRLF) or a rendered page (no-break spaces in the
/// padding) does to a paste changes nothing that is read.
#[test]
fn line_ends_and_no_break_spaces_read_the_same() {
    for name in fixtures() {
        let t = text(&name);
        let want = reading(&t);
        let crlf = t.replace('\n', "\r\n");
        assert_eq!(reading(&crlf), want, "{name} with CRLF");
        let nbsp = t.replace("  ", "\u{a0} ");
        assert_eq!(reading(&nbsp), want, "{name} with no-break spaces");
    }
}

/// A terminal that folds long lines at its width (tmux, a web console)
/// changes nothing that is read, at 80, 100 or 120 columns.
#[test]
fn lines_a_terminal_folded_read_the_same() {
    let fold = |t: &str, width: usize| {
        let mut out = String::new();
        for line in t.lines() {
            let chars: Vec<char> = line.chars().collect();
            if chars.is_empty() {
                out.push('\n');
            }
            for part in chars.chunks(width) {
                out.extend(part);
                out.push('\n');
            }
        }
        out
    };
    let mut folded = 0;
    for name in fixtures() {
        let t = text(&name);
        let Ok(want) = reading(&t) else { continue };
        for width in [80, 100, 120] {
            let f = fold(&t, width);
            folded += usize::from(f.lines().count() > t.lines().count());
            assert_eq!(reading(&f).as_ref(), Ok(&want), "{name} folded at {width}");
        }
    }
    assert!(folded > 40, "{folded} folded texts");
}

/// Line numbers before every line, as pastebins and editors print them
/// (`  1. `, `12) `, `3: `, `4 | `, `cat -n`'s tab), change nothing that is
/// read, on every real paste of the corpus.
#[test]
fn numbered_lines_read_the_same() {
    let styles: [fn(usize, usize) -> String; 5] = [
        |n, w| format!("{n:>w$}. "),
        |n, _| format!("{n}) "),
        |n, w| format!("{n:>w$}: "),
        |n, w| format!("{n:>w$} | "),
        |n, _| format!("{n:>6}\t"),
    ];
    for name in fixtures() {
        let t = text(&name);
        // One or two lines with a number before them are not told apart
        // from a list's items: three or more are.
        let Ok(want) = reading(&t) else { continue };
        if t.lines().count() < 3 {
            continue;
        }
        let width = t.lines().count().to_string().len();
        for (i, style) in styles.iter().enumerate() {
            let numbered: String = t
                .lines()
                .enumerate()
                .map(|(k, l)| format!("{}{l}\n", style(k + 1, width)))
                .collect();
            assert_eq!(
                reading(&numbered).as_ref(),
                Ok(&want),
                "{name}, numbers {i}"
            );
        }
    }
}

/// A paste a program wrote as one line, its line ends as `\n` (a string
/// in a log or a tool's output, quoted or not), reads as its lines: every
/// real paste of the corpus that is not JSON.
#[test]
fn one_line_with_escaped_line_ends_reads_the_same() {
    let mut read = 0;
    for name in fixtures() {
        let t = text(&name);
        let Ok(want) = reading(&t) else { continue };
        if t.trim_start().starts_with(['{', '[']) || t.lines().count() < 3 {
            continue;
        }
        let escaped = t
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\t', "\\t");
        for one in [
            escaped.replace('\n', "\\n"),
            format!("\"{}\"", escaped.replace('\n', "\\n")),
        ] {
            assert!(!one.contains('\n'));
            assert_eq!(
                reading(&one).as_ref(),
                Ok(&want),
                "{name} on one line: {one:.80}"
            );
        }
        read += 1;
    }
    assert!(read >= 30, "{read} pastes");
}

/// A describe a chat turned into a bulleted list (`- `, `* ` or `• `
/// before every line, the indentation gone) reads as the describe without
/// its indentation: every describe of the corpus.
#[test]
fn a_describe_as_a_bulleted_list_reads_the_same() {
    let mut read = 0;
    for name in fixtures() {
        let t = text(&name);
        let Ok((shape, _)) = reading(&t) else {
            continue;
        };
        if !matches!(shape, Shape::Describe | Shape::DescribeContainers) || t.lines().count() < 3 {
            continue;
        }
        let flat: String = t.lines().map(|l| format!("{}\n", l.trim_start())).collect();
        let want = reading(&flat);
        for bullet in ["- ", "* ", "• "] {
            let listed: String = t
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| format!("{bullet}{}\n", l.trim_start()))
                .collect();
            assert_eq!(reading(&listed), want, "{name} after {bullet:?}");
        }
        read += 1;
    }
    assert!(read >= 10, "{read} describes");
}

/// A describe re-indented by hand so that a state's lines (`Reason:`,
/// `Exit Code:`, `Started:`) sit at its container's fields' indentation
/// reads the same states: `Waiting` with its reason `CrashLoopBackOff`, not
/// a bare `Waiting`. Every describe of the corpus whose states have lines.
#[test]
fn a_describe_with_its_state_lines_flattened_reads_the_same() {
    let mut read = 0;
    for name in fixtures() {
        let t = text(&name);
        let Ok(want) = reading(&t) else { continue };
        if !matches!(want.0, Shape::Describe | Shape::DescribeContainers) {
            continue;
        }
        // Each line under a container's State (six spaces or more) moved
        // to the fields' four.
        let flattened: String = t
            .lines()
            .map(|l| {
                let body = l.trim_start_matches(' ');
                match l.len() - body.len() {
                    n if n >= 6 => format!("    {body}\n"),
                    n => format!("{}{body}\n", " ".repeat(n)),
                }
            })
            .collect();
        if !flattened.contains("    Reason:") {
            continue;
        }
        let got = reading(&flattened);
        let states = |r: &Result<(Shape, Vec<Read>), String>| {
            r.as_ref()
                .map(|(_, rows)| rows.iter().map(|r| r.3.clone()).collect::<Vec<_>>())
                .ok()
        };
        assert_eq!(states(&got), states(&Ok(want.clone())), "{name}");
        read += 1;
    }
    assert!(read >= 4, "{read} describes");
}

/// A `kubectl get pods` table pasted into markdown, its statuses in bold
/// (`**CrashLoopBackOff**`) or as a markdown table (`| web-0 | 0/1 | … |`),
/// reads as the table: every table of the corpus.
#[test]
fn a_table_in_markdown_reads_the_same() {
    let mut tables = 0;
    for name in fixtures() {
        let t = text(&name);
        let Ok(want) = reading(&t) else { continue };
        if want.0 != Shape::Table {
            continue;
        }
        let statuses = [
            "CrashLoopBackOff",
            "Running",
            "Error",
            "Completed",
            "OOMKilled",
        ];
        let bold: String = t
            .lines()
            .map(|l| {
                let words: Vec<String> = l
                    .split(' ')
                    .map(|w| match statuses.contains(&w) {
                        true => format!("**{w}**"),
                        false => w.to_owned(),
                    })
                    .collect();
                words.join(" ") + "\n"
            })
            .collect();
        if bold.trim_end() == t.trim_end() {
            continue;
        }
        tables += 1;
        assert_eq!(reading(&bold).as_ref(), Ok(&want), "{name} in bold");
        let piped: String = t
            .lines()
            .map(|l| match l.split_whitespace().collect::<Vec<_>>() {
                w if w.is_empty() => "\n".to_owned(),
                w => format!("| {} |\n", w.join(" | ")),
            })
            .collect();
        assert_eq!(
            reading(&piped).as_ref(),
            Ok(&want),
            "{name} as a markdown table"
        );
    }
    assert!(tables >= 8, "{tables} tables");
}

/// Every file of the corpus is listed in SOURCES.md, and every listed file exists.
#[test]
fn every_fixture_has_its_source() {
    let sources = text("SOURCES.md");
    let names = fixtures();
    for name in &names {
        assert!(
            sources.contains(&format!("`{name}`")),
            "{name} is not in SOURCES.md"
        );
        read_pods(&text(name), KubeletVersion::V1_37).ok();
    }
    assert!(names.len() >= 40, "{} files", names.len());
}

// --- several outputs in one paste, and a tool's wrapping -----------------

// A table, then `kubectl describe po | grep State` (no pod names, no exit
// codes): the table's pods are read; the grep lines name no pod, so they
// are left out with a note, not made into an unnamed pod that exited 0.
// pod-terminated: 1 restart, the first wait, 10 s.
#[test]
fn a_table_then_describe_grep_state() {
    let name = "kubernetesmadeeasy-table-then-describe-grep-state.txt";
    check(
        name,
        Shape::Several,
        &[
            (
                "pod-terminated",
                "",
                Some(1),
                "CrashLoopBackOff",
                Some(10_000),
            ),
            ("pod-waiting", "", Some(0), "ErrImagePull", None),
            ("pod-running", "", Some(0), "Running", None),
        ],
    );
    let notes = read_pods(&text(name), KubeletVersion::V1_37).unwrap().notes;
    assert_eq!(
        notes[0],
        "read 2 outputs: lines 2–6 as a kubectl get pods table; lines 8–13 as a State block of kubectl describe"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("1 reading(s) that name no pod")),
        "{notes:?}"
    );
    // Alone, the grep lines are a fragment: no exit code is invented.
    let grep = "    State:          Running\n    State:          Terminated\n    Last State:     Terminated\n    State:          Waiting\n";
    let (_, d) = read_text(grep).unwrap();
    assert!(d
        .pods
        .iter()
        .flat_map(|p| &p.containers)
        .all(|c| c.exit_code.is_none()));
}

// What tools wrap around kubectl's output reads as the output itself: a JSON
// record whose "stdout" holds a describe (an agent's tool log), and `## `
// before every line with a JSON header line, stdout:/stderr: markers and a
// stray quote around a State block.
#[test]
fn a_tools_wrapping_is_taken_off() {
    let inner = text("portainer-5314-describe-first-char-lost.txt");
    assert_eq!(
        reading(&text("written-tool-json-stdout-describe.txt")),
        reading(&inner)
    );
    let wrapped = text("written-tool-lines-around-describe.txt");
    assert_eq!(
        reading(&wrapped),
        reading(&text("k8s-122256-state-fragment-single-space.txt"))
    );
    let notes = read_pods(&wrapped, KubeletVersion::V1_37).unwrap().notes;
    assert_eq!(
        notes[..4],
        [
            "## before every line was taken off",
            "1 line(s) of a tool's JSON before the output were left out",
            "a tool's stdout:/stderr: lines were left out",
            "a stray quote around the output was taken off",
        ]
    );
}

// `oc describe pod` prints kubectl's describer; a paste of it whose first key
// came out as `name:` reads as `Name:`.
#[test]
fn a_first_key_in_lower_case() {
    let inner = text("portainer-5314-describe-first-char-lost.txt");
    let lower = format!("n{inner}");
    assert!(lower.starts_with("name:"));
    let (shape, d) = read_text(&lower).unwrap();
    assert_eq!(
        (shape, d.pods[0].pod.as_str()),
        (Shape::Describe, "centos-new-6846f658db-w4qhj")
    );
}

// A JSON fragment copied from the middle of a Pod (no opening brace) and cut
// in the middle of a key: read up to its last whole field. restartCount 5,
// exit 1 after 3 s.
#[test]
fn a_json_fragment_cut_in_a_key() {
    let fragment = "\"containerStatuses\": [\n    {\n        \"lastState\": {\n            \"terminated\": {\n                \"exitCode\": 1,\n                \"finishedAt\": \"2026-11-20T10:00:03Z\",\n                \"reason\": \"Error\",\n                \"startedAt\": \"2026-11-20T10:00:00Z\"\n            }\n        },\n        \"name\": \"app\",\n        \"restartCount\": 5,\n        \"sta";
    let (shape, d) = read_text(fragment).unwrap();
    let c = &d.pods[0].containers[0];
    assert_eq!(shape, Shape::Status);
    assert_eq!(
        (c.name.as_str(), c.restart_count, c.exit_code, c.run_ms),
        ("app", Some(5), Some(1), Some(3_000))
    );
}

// `kubectl describe` of several kinds at once: the pod is read, the
// DaemonSet (no containers of its own) left out and named. 4 restarts: 80 s.
#[test]
fn describe_of_several_kinds_keeps_its_pods() {
    let name = "assembled-describe-pod-and-daemonset.txt";
    check(
        name,
        Shape::Describe,
        &[(
            "coredns-5d78c9869d-c97fq",
            "coredns",
            Some(4),
            "CrashLoopBackOff",
            Some(80_000),
        )],
    );
    let notes = read_pods(&text(name), KubeletVersion::V1_37).unwrap().notes;
    assert_eq!(notes, ["1 described object(s) with no containers of their own (services, workloads, a pod cut short) left out: prometheus-node-exporter"]);
}

// describe's Events section alone (OpenShift 3.11): the back-off line names
// no pod, the scheduler's `Successfully assigned javatest/hello-v2-1-fjchl`
// does.
#[test]
fn an_events_section_named_by_the_scheduler() {
    check(
        "openshift-origin-23729-events-section.txt",
        Shape::Events,
        &[("hello-v2-1-fjchl", "", None, "CrashLoopBackOff", None)],
    );
    let (_, d) = read("openshift-origin-23729-events-section.txt");
    assert_eq!(d.pods[0].namespace, "javatest");
}
