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

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::duration::format_go_duration_ms;
use crashloop_explorer::engine::pod::{
    curve_wait, message_backoff, ContainerKind, ObservedState, PodObservation, PodReading,
};
use crashloop_explorer::formats::pod::{read_pods, Shape};
use crashloop_explorer::formats::time::{format_rfc3339, parse_rfc3339};
use serde_json::{json, Value};

/// What the stub serves of one container, and what the reader must find.
struct Served {
    name: &'static str,
    kind: ContainerKind,
    restarts: u64,
    /// (reason, message) of a waiting state; `None`: running since `running`.
    waiting: Option<(&'static str, String)>,
    running: Option<&'static str>,
    /// (reason, exit code, startedAt, finishedAt) of the last termination.
    last: Option<(&'static str, i32, &'static str, &'static str)>,
}

struct ServedPod {
    name: &'static str,
    namespace: &'static str,
    uid: &'static str,
    containers: Vec<Served>,
}

/// The kubelet's message in a waiting state: `back-off 2m40s restarting
/// failed container=app pod=web-0_shop(uid)` (kuberuntime_manager.go
/// doBackOff), the wait being the curve's after `restarts` restarts; before
/// 1.27-era kubelets, `Back-off 40s …`.
fn crash_message(
    old: bool,
    restarts: u64,
    container: &str,
    pod: &str,
    ns: &str,
    uid: &str,
) -> String {
    let wait = format_go_duration_ms(curve_wait(10_000, 300_000, restarts));
    let word = if old { "Back-off" } else { "back-off" };
    format!("{word} {wait} restarting failed container={container} pod={pod}_{ns}({uid})")
}

fn pods() -> Vec<ServedPod> {
    vec![
        ServedPod {
            name: "web-0",
            namespace: "shop",
            uid: "6b1b9c2e-3f4a-4d7e-9c1a-2b7f0e1d5a11",
            containers: vec![
                Served {
                    name: "migrate",
                    kind: ContainerKind::Init,
                    restarts: 0,
                    waiting: None,
                    running: None,
                    last: None,
                },
                Served {
                    name: "log-shipper",
                    kind: ContainerKind::Sidecar,
                    restarts: 0,
                    waiting: None,
                    running: Some("2026-11-20T09:40:05Z"),
                    last: None,
                },
                Served {
                    name: "app",
                    kind: ContainerKind::Regular,
                    restarts: 5,
                    waiting: Some((
                        "CrashLoopBackOff",
                        crash_message(
                            false,
                            5,
                            "app",
                            "web-0",
                            "shop",
                            "6b1b9c2e-3f4a-4d7e-9c1a-2b7f0e1d5a11",
                        ),
                    )),
                    running: None,
                    last: Some(("Error", 1, "2026-11-20T10:00:00Z", "2026-11-20T10:00:03Z")),
                },
            ],
        },
        ServedPod {
            name: "legacy-1",
            namespace: "default",
            uid: "0c0ffee0-1111-4222-8333-944445555666",
            containers: vec![Served {
                name: "app",
                kind: ContainerKind::Regular,
                restarts: 3,
                waiting: Some((
                    "CrashLoopBackOff",
                    crash_message(
                        true,
                        3,
                        "app",
                        "legacy-1",
                        "default",
                        "0c0ffee0-1111-4222-8333-944445555666",
                    ),
                )),
                running: None,
                last: Some((
                    "OOMKilled",
                    137,
                    "2026-11-20T09:58:01Z",
                    "2026-11-20T09:59:31Z",
                )),
            }],
        },
        ServedPod {
            name: "worker-7",
            namespace: "batch",
            uid: "7e7e7e7e-aaaa-4bbb-8ccc-dddddddddddd",
            containers: vec![Served {
                name: "main",
                kind: ContainerKind::Regular,
                restarts: 0,
                waiting: Some((
                    "ImagePullBackOff",
                    "Back-off pulling image \"registry.example/worker:2\"".to_owned(),
                )),
                running: None,
                last: None,
            }],
        },
    ]
}

fn status_of(c: &Served) -> Value {
    let state = match (&c.waiting, c.running, c.kind) {
        (Some((reason, message)), _, _) => {
            json!({"waiting": {"reason": reason, "message": message}})
        }
        (None, Some(at), _) => json!({"running": {"startedAt": at}}),
        (None, None, _) => json!({"terminated": {"reason": "Completed", "exitCode": 0,
            "startedAt": "2026-11-20T09:40:01Z", "finishedAt": "2026-11-20T09:40:04Z"}}),
    };
    let last = c.last.map_or(json!({}), |(reason, code, started, finished)| {
        json!({"terminated": {"reason": reason, "exitCode": code, "startedAt": started, "finishedAt": finished,
            "containerID": "containerd://0123"}})
    });
    json!({
        "name": c.name, "image": format!("registry.example/{}:1", c.name), "imageID": "",
        "ready": c.running.is_some(), "restartCount": c.restarts, "started": c.running.is_some(),
        "state": state, "lastState": last,
    })
}

fn pod_json(p: &ServedPod) -> Value {
    let spec = |c: &Served| {
        let mut s = json!({"name": c.name, "image": format!("registry.example/{}:1", c.name)});
        if c.kind == ContainerKind::Sidecar {
            s["restartPolicy"] = json!("Always");
        }
        s
    };
    let init: Vec<&Served> = p
        .containers
        .iter()
        .filter(|c| c.kind != ContainerKind::Regular)
        .collect();
    let regular: Vec<&Served> = p
        .containers
        .iter()
        .filter(|c| c.kind == ContainerKind::Regular)
        .collect();
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": p.name, "namespace": p.namespace, "uid": p.uid, "resourceVersion": "4242",
            "creationTimestamp": "2026-11-20T09:39:58Z"},
        "spec": {"nodeName": "node-a", "restartPolicy": "Always",
            "initContainers": init.iter().map(|c| spec(c)).collect::<Vec<_>>(),
            "containers": regular.iter().map(|c| spec(c)).collect::<Vec<_>>()},
        "status": {"phase": "Running", "startTime": "2026-11-20T09:40:00Z", "hostIP": "10.0.0.5", "podIP": "10.1.0.7",
            "initContainerStatuses": init.iter().map(|c| status_of(c)).collect::<Vec<_>>(),
            "containerStatuses": regular.iter().map(|c| status_of(c)).collect::<Vec<_>>()},
    })
}

/// The kubelet's events for a pod: BackOff for a crash loop (new wording
/// without the wait; the old pod's in the old wording with it), the image
/// manager's for a pull back-off.
fn events_of(p: &ServedPod) -> Vec<Value> {
    p.containers
        .iter()
        .filter_map(|c| {
            let (reason, message) = match &c.waiting {
                Some(("CrashLoopBackOff", m)) if m.starts_with("Back-off") => ("BackOff", m.clone()),
                Some(("CrashLoopBackOff", _)) => (
                    "BackOff",
                    format!("Back-off restarting failed container {} in pod {}_{}({})", c.name, p.name, p.namespace, p.uid),
                ),
                Some((_, m)) => ("BackOff", m.clone()),
                None => return None,
            };
            Some(json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": format!("{}.{}", p.name, c.name), "namespace": p.namespace},
                "involvedObject": {"kind": "Pod", "name": p.name, "namespace": p.namespace, "uid": p.uid,
                    "apiVersion": "v1", "fieldPath": format!("spec.containers{{{}}}", c.name)},
                "reason": reason, "message": message, "type": "Warning", "count": 12,
                "source": {"component": "kubelet", "host": "node-a"},
                "firstTimestamp": "2026-11-20T09:41:00Z", "lastTimestamp": "2026-11-20T10:00:10Z",
                "reportingComponent": "kubelet", "reportingInstance": "node-a",
            }))
        })
        .collect()
}

const API_RESOURCES: &str = r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
{"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get","list","watch"],"shortNames":["po"],"categories":["all"]},
{"name":"events","singularName":"event","namespaced":true,"kind":"Event","verbs":["get","list","watch"],"shortNames":["ev"]},
{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["get","list"],"shortNames":["ns"]}]}"#;

/// The stub's answer to one path (query included).
fn answer(path: &str, served: &[ServedPod]) -> (u16, String) {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let list = |kind: &str, items: Vec<Value>| {
        json!({"kind": kind, "apiVersion": "v1", "metadata": {"resourceVersion": "4242"}, "items": items}).to_string()
    };
    fn in_ns<'a>(
        served: &'a [ServedPod],
        ns: Option<&'a str>,
    ) -> impl Iterator<Item = &'a ServedPod> {
        served
            .iter()
            .filter(move |p| ns.is_none_or(|n| n == p.namespace))
    }
    match parts.as_slice() {
        ["version"] => (200, r#"{"major":"1","minor":"33","gitVersion":"v1.33.0","platform":"linux/amd64"}"#.into()),
        ["api"] => (200, r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}"#.into()),
        ["apis"] => (200, r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[]}"#.into()),
        ["api", "v1"] => (200, API_RESOURCES.into()),
        ["api", "v1", "pods"] => (200, list("PodList", in_ns(served, None).map(pod_json).collect())),
        ["api", "v1", "namespaces", ns, "pods"] => (200, list("PodList", in_ns(served, Some(ns)).map(pod_json).collect())),
        ["api", "v1", "namespaces", ns, "pods", name] => match in_ns(served, Some(ns)).find(|p| p.name == *name) {
            Some(p) => (200, pod_json(p).to_string()),
            None => (404, format!(r#"{{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"{name}\" not found","reason":"NotFound","code":404}}"#)),
        },
        ["api", "v1", "namespaces", ns, "events"] => {
            // describe asks for the pod's own: involvedObject.name=NAME,…
            let named = query
                .split(['&', ','])
                .find_map(|kv| kv.strip_prefix("fieldSelector=involvedObject.name%3D").or(kv.strip_prefix("fieldSelector=involvedObject.name=")))
                .map(|n| n.split("%2C").next().unwrap_or(n).to_owned());
            let events = in_ns(served, Some(ns))
                .filter(|p| named.as_deref().is_none_or(|n| n == p.name))
                .flat_map(events_of)
                .collect();
            (200, list("EventList", events))
        }
        ["api", "v1", "events"] => (200, list("EventList", in_ns(served, None).flat_map(events_of).collect())),
        _ => (404, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.into()),
    }
}

fn handle(mut stream: TcpStream, served: &[ServedPod]) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers, up to the blank line (kubectl sends no body on GET).
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let (code, body) = answer(path, served);
    let reply = format!(
        "HTTP/1.1 {code} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        if code == 200 { "OK" } else { "Not Found" },
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
    let _ = reader.read(&mut [0; 1]);
}

/// The stub on 127.0.0.1: its address; it stops when `stop` is set, after
/// at most `MAX_REQUESTS` requests.
fn serve(stop: Arc<AtomicBool>) -> String {
    const MAX_REQUESTS: usize = 20_000;
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("address").to_string();
    listener.set_nonblocking(true).expect("nonblocking");
    std::thread::spawn(move || {
        let served = pods();
        let mut handled = 0;
        while !stop.load(Ordering::Relaxed) && handled < MAX_REQUESTS {
            match listener.accept() {
                Ok((stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    handle(stream, &served);
                    handled += 1;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    });
    format!("http://{address}")
}

/// Every kubectl on the machine, with its version.
fn kubectls() -> Vec<(String, PathBuf)> {
    let mut paths: Vec<PathBuf> = vec![];
    if let Ok(out) = Command::new("dpkg").args(["-L", "kubectl"]).output() {
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if line
                .rsplit('/')
                .next()
                .is_some_and(|f| f.starts_with("kubectl.1."))
            {
                paths.push(line.into());
            }
        }
    }
    let debian =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/kubectl-debian/usr/bin/kubectl");
    if debian.exists() {
        paths.push(debian);
    }
    if let Ok(more) = std::env::var("KUBECTLS") {
        paths.extend(more.split(':').filter(|p| !p.is_empty()).map(PathBuf::from));
    }
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let out = Command::new(&p)
                .args(["version", "--client", "-o", "json"])
                .output()
                .ok()?;
            let v: Value = serde_json::from_slice(&out.stdout).ok()?;
            let info = &v["clientVersion"];
            Some((
                format!(
                    "{}.{}",
                    info["major"].as_str()?,
                    info["minor"].as_str()?.trim_end_matches('+')
                ),
                p,
            ))
        })
        .collect()
}

fn kubectl(bin: &PathBuf, server: &str, tz: &str, args: &[&str]) -> String {
    let out = Command::new(bin)
        .args(["--server", server, "--request-timeout=10s"])
        .args(args)
        .env("KUBECONFIG", "/dev/null")
        .env("HOME", std::env::temp_dir())
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
    let stop = Arc::new(AtomicBool::new(false));
    let server = serve(stop.clone());
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
    stop.store(true, Ordering::Relaxed);
    eprintln!("kubectl versions checked: {}", checked.join(", "));
    // The times the reader gave back are the served ones, in any zone.
    assert_eq!(
        format_rfc3339(epoch("2026-11-20T10:00:03Z")),
        "2026-11-20T10:00:03Z"
    );
}
