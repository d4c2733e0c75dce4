//! kubectl itself prints what the reader reads: a loopback API stub
//! (127.0.0.1 only, a bounded number of requests, stops with the test)
//! serves pods built from the engine's curve (a crash loop with the kubelet's
//! new-style message, an old-style `Back-off 40s` one after an OOM kill, an
//! image pull back-off, an init container that completed, a sidecar) and
//! their events; every kubectl on the machine prints them (`get pod -o
//! json`/`-o yaml`, `get pods -o json`, `describe pod` in three time zones,
//! `kubectl events`), and the reader must read back exactly what was served.
//! `get pods` tables are printed by the API server, not by kubectl, so they
//! stay with the corpus (tests/corpus.rs).
//!
//! kubectl's binaries: the image's `kubectl` package (`kubectl.1.27` …
//! `kubectl.1.33` beside its dispatcher) and Debian's 1.20, which
//! scripts/test.sh unpacks into target/kubectl-debian (its /usr/bin/kubectl
//! would clash with the package's if installed). KUBECTLS, a list of paths
//! split by `:`, adds more.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::pod::{
    message_backoff, ContainerKind, ObservedState, PodObservation, PodReading,
};
use crashloop_explorer::formats::pod::{read_pods, Shape};
use crashloop_explorer::formats::time::{format_rfc3339, parse_rfc3339};
use serde_json::Value;

#[path = "support/apistub.rs"]
mod apistub;
use apistub::{kubectl_at, kubectls, pods, serve, serve_nodes, Options, ServedPod};

fn kubectl(bin: &Path, server: &str, tz: &str, args: &[&str]) -> String {
    let out = kubectl_at(bin, server)
        .arg("--request-timeout=10s")
        .args(args)
        .env("TZ", tz)
        .output()
        .expect("kubectl runs");
    assert!(
        out.status.success(),
        "{} {args:?}: {}",
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn epoch(t: &str) -> i64 {
    parse_rfc3339(t).expect("a served time")
}

/// The reader's pod against the served one: names, kinds, counts, states
/// and reasons, the message's wait (`message` only where the output shows
/// it), the last termination's reason, exit code and times.
fn same(what: &str, read: &PodObservation, served: &ServedPod, messages: bool, sidecars: bool) {
    assert_eq!(
        (read.name.as_str(), read.namespace.as_str()),
        (served.name, served.namespace),
        "{what}"
    );
    let names: Vec<&str> = read.containers.iter().map(|c| c.name.as_str()).collect();
    let want: Vec<&str> = served.containers.iter().map(|c| c.name).collect();
    assert_eq!(names, want, "{what}");
    for (r, s) in read.containers.iter().zip(&served.containers) {
        let what = format!("{what}, {}", s.name);
        // No describer through 1.33 prints an init container's restartPolicy
        // (its `Restart Policy` key is the reader's for a later one): there a
        // sidecar reads as the init container it looks like.
        let kind = match s.kind {
            ContainerKind::Sidecar if !sidecars => ContainerKind::Init,
            k => k,
        };
        assert_eq!(
            (r.kind, r.restart_count),
            (kind, Some(s.restarts)),
            "{what}"
        );
        match (&r.state, &s.waiting, s.running) {
            (ObservedState::Waiting { reason, message }, Some((want_reason, want_message)), _) => {
                assert_eq!(reason, want_reason, "{what}");
                if messages {
                    assert_eq!(message, want_message, "{what}");
                    assert_eq!(
                        message_backoff(message),
                        message_backoff(want_message),
                        "{what}"
                    );
                }
            }
            (ObservedState::Running { started_at }, None, Some(at)) => {
                assert_eq!(*started_at, Some(epoch(at)), "{what}")
            }
            (ObservedState::Terminated(t), None, None) => {
                assert_eq!(
                    (t.reason.as_str(), t.exit_code),
                    ("Completed", Some(0)),
                    "{what}"
                );
                assert_eq!(
                    (t.started_at, t.finished_at),
                    (
                        Some(epoch("2026-11-20T09:40:01Z")),
                        Some(epoch("2026-11-20T09:40:04Z"))
                    ),
                    "{what}"
                );
            }
            (other, _, _) => panic!("{what}: state {other:?}"),
        }
        let last = r
            .last_terminated
            .as_ref()
            .map(|t| (t.reason.as_str(), t.exit_code, t.started_at, t.finished_at));
        let want = s.last.map(|(reason, code, started, finished)| {
            (
                reason,
                Some(code),
                Some(epoch(started)),
                Some(epoch(finished)),
            )
        });
        assert_eq!(last, want, "{what}");
    }
}

fn observed(readings: &[PodReading]) -> Vec<&PodObservation> {
    readings
        .iter()
        .map(|r| match r {
            PodReading::Observed(p) => p,
            PodReading::Row(r) => panic!("a row: {r:?}"),
        })
        .collect()
}

#[test]
fn every_kubectl_prints_what_the_reader_reads_back() {
    let found = kubectls();
    assert!(
        !found.is_empty(),
        "no kubectl on this machine: the image's kubectl package holds them (scripts/test.sh unpacks Debian's 1.20 too)"
    );
    let stub = serve(Options {
        held: false,
        malformed: false,
        locked: false,
    });
    let server = stub.url.clone();
    let served = pods();
    let version = KubeletVersion::V1_37;
    let mut checked = vec![];
    for (name, bin) in &found {
        let minor: u32 = name
            .split_once('.')
            .and_then(|(_, m)| m.parse().ok())
            .unwrap_or(0);
        for p in &served {
            let what = |form: &str| format!("kubectl {name} {form} {}/{}", p.namespace, p.name);
            for form in ["json", "yaml"] {
                let text = kubectl(
                    bin,
                    &server,
                    "UTC",
                    &["get", "pod", p.name, "-n", p.namespace, "-o", form],
                );
                let read =
                    read_pods(&text, version).unwrap_or_else(|e| panic!("{}: {e}", what(form)));
                assert_eq!(read.shape, Shape::Pod, "{}", what(form));
                same(&what(form), observed(&read.pods)[0], p, true, true);
            }
            // describe prints times in the client's zone, with its offset.
            for tz in ["UTC", "Asia/Kolkata", "America/St_Johns"] {
                let form = format!("describe (TZ={tz})");
                let text = kubectl(
                    bin,
                    &server,
                    tz,
                    &["describe", "pod", p.name, "-n", p.namespace],
                );
                let read = read_pods(&text, version)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", what(&form)));
                assert_eq!(read.shape, Shape::Describe, "{}", what(&form));
                same(&what(&form), observed(&read.pods)[0], p, false, false);
                // The pod's BackOff event is in describe's Events.
                let looping = p
                    .containers
                    .iter()
                    .any(|c| matches!(c.waiting, Some(("CrashLoopBackOff", _))));
                assert_eq!(
                    !observed(&read.pods)[0].backoff_events.is_empty(),
                    looping,
                    "{}\n{text}",
                    what(&form)
                );
            }
        }
        // A namespace's list, and every namespace's.
        let text = kubectl(bin, &server, "UTC", &["get", "pods", "-A", "-o", "json"]);
        let read =
            read_pods(&text, version).unwrap_or_else(|e| panic!("kubectl {name} get pods -A: {e}"));
        assert_eq!(read.shape, Shape::PodList);
        for (r, p) in observed(&read.pods).into_iter().zip(&served) {
            same(
                &format!("kubectl {name} get pods -A -o json"),
                r,
                p,
                true,
                true,
            );
        }
        // `kubectl events` (1.26 and later): the back-off events name the pods.
        if minor >= 26 {
            let text = kubectl(bin, &server, "UTC", &["events", "-n", "shop"]);
            let read = read_pods(&text, version)
                .unwrap_or_else(|e| panic!("kubectl {name} events: {e}\n{text}"));
            assert_eq!(read.shape, Shape::Events, "{text}");
            let p = observed(&read.pods)[0];
            assert_eq!(
                (p.name.as_str(), p.containers[0].name.as_str()),
                ("web-0", "app"),
                "{text}"
            );
        }
        checked.push(name.clone());
    }
    drop(stub);
    eprintln!("kubectl versions checked: {}", checked.join(", "));
    // The times the reader gave back are the served ones, in any zone.
    assert_eq!(
        format_rfc3339(epoch("2026-11-20T10:00:03Z")),
        "2026-11-20T10:00:03Z"
    );
}

/// `kubectl … get pods -o json --watch [ARGS]` against the stub, piped into
/// `crashloop-explorer pods --follow --json`: its lines, parsed, and what it
/// said on standard error.
fn follow(bin: &Path, server: &str, args: &[&str]) -> (Vec<Value>, String) {
    let mut watch = kubectl_at(bin, server)
        .args([
            "--request-timeout=0",
            "get",
            "pods",
            "-o",
            "json",
            "--watch",
        ])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubectl runs");
    let piped = watch.stdout.take().expect("kubectl's output");
    let out = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(["pods", "--follow", "--json"])
        .stdin(Stdio::from(piped))
        .output()
        .expect("the command runs");
    let _ = watch.wait();
    assert!(out.status.success(), "exit {:?}", out.status);
    let lines = BufReader::new(&out.stdout[..])
        .lines()
        .map(|l| serde_json::from_str(&l.expect("a line")).expect("a line of JSON"))
        .collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// namespace/name of each pod of a line, in its order.
fn names(line: &Value) -> Vec<String> {
    line["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .map(|p| {
            format!(
                "{}/{}",
                p["namespace"].as_str().unwrap_or(""),
                p["pod"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The container `name` of pod `pod` in a line.
fn container<'a>(line: &'a Value, pod: &str, name: &str) -> Option<&'a Value> {
    line["pods"].as_array()?.iter().find(|p| p["pod"] == pod)?["containers"]
        .as_array()?
        .iter()
        .find(|c| c["name"] == name)
}

/// The watch as every kubectl prints it, read as it comes. The stub moves
/// the pods (tests/support/apistub.rs `script`); the numbers, worked out by
/// hand on the shipped 1.37 curve (10 s doubling to 5 min):
/// - web-0's app first: restartCount 5, the kubelet's message says 2m40s
///   (10·2⁴ s), step 5 of 6;
/// - then its sixth restart ran 10:05:43–10:05:46 and the message says 5m0s
///   (10·2⁵ = 320 s, capped at 300): step 6, the next restart at 10:05:46 +
///   5 min = 10:10:46 (the GC, 600 s after the 10:05:43 start, is later);
/// - api-2 appears after one restart (10:06:00–10:06:01): 10 s, step 1, the
///   next restart at 10:06:11;
/// - legacy-1 is marked for deletion, then deleted: it leaves the list;
/// - the watch ends with 410 Expired, which the command reports.
///
/// At the end, soonest first: api-2 (10:06:11), web-0 (10:10:46), then
/// worker-7 (an image pull back-off, no time known).
#[test]
fn follow_reads_every_kubectls_watch() {
    let found = kubectls();
    assert!(!found.is_empty(), "no kubectl on this machine");
    for (name, bin) in &found {
        let stub = serve(Options {
            held: false,
            malformed: false,
            locked: false,
        });
        let mut runs = vec![("-A", follow(bin, &stub.url, &["-A"]))];
        drop(stub);
        let stub = serve(Options {
            held: false,
            malformed: false,
            locked: false,
        });
        runs.push((
            "-A --output-watch-events",
            follow(bin, &stub.url, &["-A", "--output-watch-events"]),
        ));
        drop(stub);
        for (how, (lines, stderr)) in &runs {
            let what = format!("kubectl {name} get pods {how}");
            assert!(lines.len() >= 2, "{what}: {lines:?}\n{stderr}");
            let first = &lines[0];
            assert_eq!(first["shape"], "watch", "{what}");
            let mut listed = names(first);
            listed.sort();
            assert_eq!(
                listed,
                ["batch/worker-7", "default/legacy-1", "shop/web-0"],
                "{what}"
            );
            let app = container(first, "web-0", "app").expect("web-0's app");
            assert_eq!(
                (&app["restartCount"], &app["backoffMs"], &app["curveStep"]),
                (&Value::from(5), &Value::from(160_000), &Value::from(5)),
                "{what}"
            );
            let sixth = lines
                .iter()
                .filter_map(|l| container(l, "web-0", "app"))
                .find(|c| c["restartCount"] == 6)
                .unwrap_or_else(|| panic!("{what}: no line with web-0's sixth restart"));
            assert_eq!(
                (
                    &sixth["backoffMs"],
                    &sixth["curveStep"],
                    &sixth["nextRestartAt"],
                    &sixth["exitCode"]
                ),
                (
                    &Value::from(300_000),
                    &Value::from(6),
                    &Value::from("2026-11-20T10:10:46Z"),
                    &Value::from(1)
                ),
                "{what}"
            );
            let last = lines.last().expect("a last line");
            assert_eq!(
                names(last),
                ["shop/api-2", "shop/web-0", "batch/worker-7"],
                "{what}"
            );
            let api = container(last, "api-2", "api").expect("api-2's api");
            assert_eq!(
                (&api["backoffMs"], &api["curveStep"], &api["nextRestartAt"]),
                (
                    &Value::from(10_000),
                    &Value::from(1),
                    &Value::from("2026-11-20T10:06:11Z")
                ),
                "{what}"
            );
            assert_eq!(last["watched"], 3, "{what}");
            assert!(
                stderr.contains("410 Expired: too old resource version"),
                "{what}: {stderr}"
            );
        }
        // The same watch pasted into the reader (`pods` without --follow):
        // JSON documents one after another, each pod's newest state.
        let stub = serve(Options {
            held: false,
            malformed: false,
            locked: false,
        });
        let text = kubectl(
            bin,
            &stub.url,
            "UTC",
            &[
                "get",
                "pods",
                "-A",
                "-o",
                "json",
                "--watch",
                "--request-timeout=0",
            ],
        );
        drop(stub);
        let read = read_pods(&text, KubeletVersion::V1_37)
            .unwrap_or_else(|e| panic!("kubectl {name}'s watch, pasted: {e}"));
        assert_eq!(read.shape, Shape::Watch, "kubectl {name}");
        let pasted: Vec<String> = observed(&read.pods)
            .iter()
            .map(|p| {
                format!(
                    "{}/{}/{:?}",
                    p.namespace,
                    p.name,
                    p.containers
                        .iter()
                        .map(|c| c.restart_count)
                        .collect::<Vec<_>>()
                )
            })
            .collect();
        assert_eq!(
            pasted,
            [
                "shop/web-0/[Some(0), Some(0), Some(6)]",
                "batch/worker-7/[Some(0)]",
                "shop/api-2/[Some(1)]"
            ],
            "kubectl {name}"
        );
        assert!(
            read.notes.iter().any(|n| n.contains("410 Expired")),
            "kubectl {name}: {:?}",
            read.notes
        );
        // One namespace, and an event no decoder reads: client-go ends the
        // watch there with an error kubectl prints, and the command says so.
        let stub = serve(Options {
            held: false,
            malformed: true,
            locked: false,
        });
        let (lines, stderr) = follow(bin, &stub.url, &["-n", "shop"]);
        let what = format!("kubectl {name} get pods -n shop");
        let last = lines.last().unwrap_or_else(|| panic!("{what}: no line"));
        assert_eq!(names(last), ["shop/api-2", "shop/web-0"], "{what}");
        assert!(
            stderr.contains("the watch ended with an error"),
            "{what}: {stderr}"
        );
        assert!(!stderr.contains("410"), "{what}: {stderr}");
    }
}

/// A kubeconfig whose context `stub` is the stub, in `dir`.
fn kubeconfig(dir: &Path, server: &str) -> std::path::PathBuf {
    let path = dir.join("kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: stub\n  cluster:\n    server: {server}\ncontexts:\n- name: stub\n  context:\n    cluster: stub\n    user: dev\nusers:\n- name: dev\n  user: {{}}\ncurrent-context: other\n"
        ),
    )
    .expect("a kubeconfig");
    path
}

/// `watch` with the user's kubectl, through its plugin name or its own,
/// until each node's /configz has been asked (none pending), then the
/// script released: its JSON lines, what it said, how it ended, and the
/// requests the stub served.
fn watch_cluster(bin: &Path, plugin: bool) -> (Vec<Value>, String, bool, Vec<String>) {
    let (lines, stderr, ok, requests) = watching(bin, plugin, &["--json"], false);
    let lines = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("a line of JSON"))
        .collect();
    (lines, stderr, ok, requests)
}

/// `watch_cluster` with `more` options, its output's lines as they are (the
/// table's without --json), released once each node's /configz has been
/// asked; `locked`: the stub's Endpoints and priority levels forbidden.
fn watching(
    bin: &Path,
    plugin: bool,
    more: &[&str],
    locked: bool,
) -> (Vec<String>, String, bool, Vec<String>) {
    let json = more.contains(&"--json");
    let stub = serve_nodes(Options {
        held: true,
        malformed: false,
        locked,
    });
    // A directory of its own per watch: tests run side by side, and two
    // watches that shared one read each other's kubeconfig (each other's
    // stub) and lost it when the other ended.
    static WATCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "crashloop-watch-{}-{}-{}",
        std::process::id(),
        WATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        bin.file_name()
            .and_then(|f| f.to_str())
            .unwrap_or("kubectl")
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let config = kubeconfig(&dir, &stub.url);
    let ours = Path::new(env!("CARGO_BIN_EXE_crashloop-explorer"));
    let mut args = vec![
        "watch",
        "-A",
        "--context",
        "stub",
        "--kubeconfig",
        config.to_str().expect("a path"),
    ];
    args.extend(more);
    let mut command = if plugin {
        // kubectl finds `kubectl-crashloop` on PATH.
        let link = dir.join("kubectl-crashloop");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(ours, &link).expect("the plugin's link");
        let path = format!(
            "{}:{}",
            dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut c = Command::new(bin);
        c.arg("crashloop").args(args).env("PATH", path);
        c
    } else {
        let mut c = Command::new(ours);
        c.args(args);
        c
    };
    let mut child = command
        .env("KUBECTL", bin)
        .env("HOME", &dir)
        .env_remove("KUBECONFIG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("watch runs");
    let (tx, rx) = std::sync::mpsc::channel();
    let out = child.stdout.take().expect("its output");
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut lines = vec![];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    // Asked: the JSON's nodes, none still to be read; in the table, the
    // last one whole (its load line come), node-a the one node whose facts
    // are not its /configz: the other three rows' read, as the test wants,
    // rather than two lines of a table still coming.
    let settled = |lines: &[String]| match lines {
        [.., l] if json => {
            let v: Value = serde_json::from_str(l).expect("a line of JSON");
            v["nodes"].as_array().is_some_and(|n| {
                n.len() == 4 && n.iter().all(|n| n["why"] != "its /configz not read yet")
            })
        }
        [.., l] if l.starts_with("Load now") => {
            let table = &lines[lines
                .iter()
                .rposition(|l| l.starts_with("crash-looping of"))
                .unwrap_or(0)..];
            let read = |n: &str| {
                table
                    .iter()
                    .any(|r| r.starts_with(&format!("{n}  ")) && r.contains("  configz  "))
            };
            ["node-b", "node-c", "node-d"].into_iter().all(read)
                && table
                    .iter()
                    .any(|r| r.starts_with("node-a: ") && r.contains("(Forbidden)"))
        }
        _ => false,
    };
    while !settled(&lines) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => lines.push(l),
            Err(_) => break,
        }
    }
    stub.release(4);
    lines.extend(rx.iter());
    let end = child.wait_with_output().expect("it ends");
    let requests = stub.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    (
        lines,
        String::from_utf8_lossy(&end.stderr).into_owned(),
        end.status.success(),
        requests,
    )
}

/// Each pod on its own node's kubelet (tests/support/apistub.rs `nodes`,
/// `fleet`; every number worked out there by hand):
/// - node-a, kubelet v1.33.5, answers 403 for its /configz: its version's
///   shipped defaults, said with kubectl's words and the rule to allow it;
/// - node-b, v1.37.1, `maxContainerRestartPeriod: 30s`: b-0's 20 s, 30 s
///   agree with 10 s / 30 s;
/// - node-c, v1.36.2, ReduceDefaultCrashLoopBackOffDecay on: c-0's 4 s, 8 s
///   agree with 1 s / 5 min;
/// - node-d, v1.37.0-eks, 30 s maximum: d-0's 160 s, 300 s disagree (30 s,
///   30 s expected) and fit the shipped defaults before KEP-4603.
///
/// Each /configz is asked once; the cluster sees GETs alone.
#[test]
fn watch_diagnoses_each_pod_on_its_own_nodes_kubelet() {
    let found = kubectls();
    assert!(!found.is_empty(), "no kubectl on this machine");
    for (i, (name, bin)) in found.iter().enumerate() {
        // The plugin's name through every kubectl, the command's own once.
        for plugin in [true, false].into_iter().take(if i == 0 { 2 } else { 1 }) {
            let what = format!("kubectl {name}, plugin {plugin}");
            let (lines, stderr, ok, requests) = watch_cluster(bin, plugin);
            assert!(ok, "{what}: {stderr}");
            let last = lines
                .last()
                .unwrap_or_else(|| panic!("{what}: no line; {stderr}"));
            let nodes = last["nodes"].as_array().expect("nodes");
            let node = |n: &str| {
                nodes
                    .iter()
                    .find(|v| v["name"] == n)
                    .unwrap_or_else(|| panic!("{what}: {n} in {last}"))
            };
            assert_eq!(
                nodes[0]["name"], "node-d",
                "{what}: the disagreeing node first"
            );
            let a = node("node-a");
            assert_eq!(a["kubeletVersion"], "v1.33.5");
            assert_eq!(a["configFrom"], "version defaults");
            let why = a["why"].as_str().unwrap_or_default();
            assert!(
                why.contains(r#"Error from server (Forbidden): nodes "node-a" is forbidden"#)
                    && why.contains("nodes/proxy"),
                "{what}: {why}"
            );
            for (n, observed, expected, agrees) in [
                ("node-b", [20_000, 30_000], [20_000, 30_000], true),
                ("node-c", [4_000, 8_000], [4_000, 8_000], true),
                ("node-d", [160_000, 300_000], [30_000, 30_000], false),
            ] {
                let v = node(n);
                assert_eq!(v["configFrom"], "configz", "{what}: {v}");
                assert_eq!(v["loopingPods"], 1, "{what}: {v}");
                assert_eq!(
                    v["observedBackoffsMs"],
                    serde_json::json!(observed),
                    "{what}: {v}"
                );
                assert_eq!(
                    v["expectedBackoffsMs"],
                    serde_json::json!(expected),
                    "{what}: {v}"
                );
                assert_eq!(v["agrees"], agrees, "{what}: {v}");
            }
            assert_eq!(node("node-d")["kubeletVersion"], "v1.37.0-eks-1a2b3c");
            assert!(
                node("node-d")["note"]
                    .as_str()
                    .is_some_and(|n| n
                        .ends_with("they fit the shipped defaults before KEP-4603 (10 s / 5 min)")),
                "{what}: {last}"
            );
            let b0 = last["pods"]
                .as_array()
                .and_then(|p| p.iter().find(|p| p["pod"] == "b-0"))
                .unwrap_or_else(|| panic!("{what}: b-0"));
            assert_eq!(
                b0["assumes"],
                "node-b: kubelet v1.37.1 from its /configz (10 s / 30 s)"
            );
            assert_eq!(b0["kubeletVersion"], "v1.37.1");
            assert_eq!(b0["configFrom"], "configz");
            // The load now: each node's rate (engine::load_now pins them),
            // summed, against the 2 API servers the stub's kubernetes
            // Endpoints lists, each with the system level's 30 of the
            // cluster's 345 shares of 600 seats: ceil(52.2) = 53 (74 at a
            // default server's 245).
            let load = &last["load"];
            assert_eq!(load["systemSeats"], 106, "{what}: {load}");
            assert_eq!(
                load["apiServer"]["levels"].as_array().map(Vec::len),
                Some(9),
                "{what}: {load}"
            );
            assert_eq!(load["apiServer"]["replicas"], 2, "{what}: {load}");
            assert_eq!(load["replicasFrom"], "endpoints", "{what}: {load}");
            let sum: f64 = nodes
                .iter()
                .map(|n| n["requestsPerSecond"].as_f64().unwrap_or(-1.0))
                .sum();
            let total = load["requestsPerSecond"].as_f64().unwrap_or(0.0);
            assert!(
                total > 0.0 && (sum - total).abs() < 1e-9,
                "{what}: {load} against {sum}"
            );
            // Each node's /configz once; nothing but GET.
            let configz: Vec<&String> =
                requests.iter().filter(|r| r.contains("/configz")).collect();
            assert_eq!(configz.len(), 4, "{what}: {configz:?}");
            let endpoints = requests
                .iter()
                .filter(|r| r.contains("/endpoints/kubernetes"))
                .count();
            assert_eq!(endpoints, 1, "{what}: {requests:?}");
            let levels = requests
                .iter()
                .filter(|r| r.contains("/prioritylevelconfigurations"))
                .count();
            assert_eq!(levels, 1, "{what}: {requests:?}");
            assert!(
                requests.iter().all(|r| r.starts_with("GET ")),
                "{what}: {requests:?}"
            );
        }
    }
    // The terminal's table, its output not a terminal: a row per node,
    // what each node's facts are where not its /configz, the disagreement.
    let (lines, stderr, ok, _) = watching(&found[0].1, false, &[], false);
    assert!(ok, "{stderr}");
    let text = lines.join("\n");
    let last = &text[text.rfind("crash-looping of").expect("a table")..];
    for expected in [
        "NODE    KUBELET             CURVE FROM        LOOPING  BACK-OFFS SEEN  VERDICT",
        "node-d  v1.37.0-eks-1a2b3c  configz           1        2m40s 5m0s      DISAGREES",
        "node-b  v1.37.1             configz           1        20s 30s         agrees",
        "node-a: kubelet v1.33.5's shipped defaults (10 s / 5 min; its /configz: Error from server (Forbidden):",
        "node-d: disagrees: 2 min 40 s, 5 min seen where kubelet 1.37 from its /configz (10 s / 30 s) waits 30 s, 30 s; they fit the shipped defaults before KEP-4603 (10 s / 5 min)",
        "of its 106 system seats busy",
        "(2 replicas, 20 ms a request). 2 API servers, as the cluster's kubernetes Endpoints lists them; --api-server sets their limits. The system level's seats are 30 of 345 shares, as the cluster's PriorityLevelConfigurations set them",
    ] {
        assert!(last.contains(expected), "{expected}\n in\n{last}");
    }
    // The user's count wins (API servers behind one load balancer are one
    // address in the Endpoints), and the Endpoints is not read.
    let (lines, stderr, ok, requests) = watching(
        &found[0].1,
        false,
        &["--json", "--api-server", r#"{"replicas": 5}"#],
        false,
    );
    assert!(ok, "{stderr}");
    let last: Value = serde_json::from_str(lines.last().expect("a line")).expect("JSON");
    assert_eq!(last["load"]["systemSeats"], 265, "{last}");
    assert_eq!(last["load"]["replicasFrom"], "--api-server", "{last}");
    assert!(
        !requests.iter().any(|r| r.contains("/endpoints/")),
        "{requests:?}"
    );
}

/// A user without the optional rules (get on the kubernetes Endpoints, list
/// on the priority levels), through every kubectl: the load is set against
/// a default API server's, and the command says why in kubectl's words and
/// which rule would allow each. By default 3 servers, each with the system
/// level's 30 of a default server's 245 shares of 600 seats: ceil(73.5) =
/// 74, 222 seats.
#[test]
fn watch_without_the_optional_rules_says_why() {
    let found = kubectls();
    assert!(!found.is_empty(), "no kubectl on this machine");
    for (name, bin) in &found {
        let what = format!("kubectl {name}");
        let (lines, stderr, ok, requests) = watching(bin, false, &["--json"], true);
        assert!(ok, "{what}: {stderr}");
        let last: Value = serde_json::from_str(lines.last().expect("a line")).expect("JSON");
        let load = &last["load"];
        assert_eq!(load["replicasFrom"], "default", "{what}: {load}");
        assert_eq!(load["apiServer"]["replicas"], 3, "{what}: {load}");
        assert!(load["apiServer"].get("levels").is_none(), "{what}: {load}");
        assert_eq!(load["systemSeats"], 222, "{what}: {load}");
        for expected in [
            r#"the API servers could not be counted (Error from server (Forbidden): endpoints "kubernetes" is forbidden: User "dev" cannot get resource "endpoints" in API group "" in the namespace "default"): the load is set against 3 replicas by default (--api-server sets them); counting them needs get on endpoints in default"#,
            r#"the priority levels could not be read (Error from server (Forbidden): prioritylevelconfigurations.flowcontrol.apiserver.k8s.io is forbidden: User "dev" cannot list resource "prioritylevelconfigurations" in API group "flowcontrol.apiserver.k8s.io" at the cluster scope): the system level's seats are a default API server's; reading them needs list on prioritylevelconfigurations in flowcontrol.apiserver.k8s.io"#,
        ] {
            assert!(
                stderr.contains(expected),
                "{what}: {expected}\n in\n{stderr}"
            );
        }
        // Each asked once, not again on every change.
        for path in ["/endpoints/kubernetes", "/prioritylevelconfigurations"] {
            let asked = requests.iter().filter(|r| r.contains(path)).count();
            assert_eq!(asked, 1, "{what}: {path} in {requests:?}");
        }
    }
}
