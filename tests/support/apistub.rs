//! A loopback API server stub for the kubectl tests (tests/kubectl.rs,
//! tests/live.rs): 127.0.0.1 only, at most `MAX_REQUESTS` requests, stopped
//! when the `Stub` is dropped. It serves pods built from the engine's curve
//! (a crash loop with the kubelet's new-style message, an old-style
//! `Back-off 40s` one after an OOM kill, an image pull back-off, an init
//! container that completed, a sidecar), their events, and a watch that
//! moves them through a crash loop (`script`): a restart count rising and
//! its waiting message changing, a new pod, a pod marked for deletion and
//! then deleted, optionally a malformed event, and a `410 Gone` that ends
//! the watch as the API server ends one from a compacted resourceVersion.
//! Lists show the pods as the watches have moved them so far, at the
//! resourceVersion a watch resumes from.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crashloop_explorer::engine::duration::format_go_duration_ms;
use crashloop_explorer::engine::pod::{curve_wait, ContainerKind};
use serde_json::{json, Value};

/// What the stub serves of one container, and what the reader must find.
pub struct Served {
    pub name: &'static str,
    pub kind: ContainerKind,
    pub restarts: u64,
    /// (reason, message) of a waiting state; `None`: running since `running`.
    pub waiting: Option<(&'static str, String)>,
    pub running: Option<&'static str>,
    /// (reason, exit code, startedAt, finishedAt) of the last termination.
    pub last: Option<(&'static str, i32, &'static str, &'static str)>,
}

pub struct ServedPod {
    pub name: &'static str,
    pub namespace: &'static str,
    /// `spec.nodeName`.
    pub node: &'static str,
    pub uid: &'static str,
    pub containers: Vec<Served>,
}

/// The kubelet's message in a waiting state: `back-off 2m40s restarting
/// failed container=app pod=web-0_shop(uid)` (kuberuntime_manager.go
/// doBackOff), the wait being the curve's after `restarts` restarts; before
/// 1.27-era kubelets, `Back-off 40s …`.
pub fn crash_message(
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

pub fn pods() -> Vec<ServedPod> {
    vec![
        ServedPod {
            name: "web-0",
            namespace: "shop",
            node: "node-a",
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
            node: "node-a",
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
            node: "node-a",
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

pub fn status_of(c: &Served) -> Value {
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

pub fn pod_json(p: &ServedPod) -> Value {
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
        "spec": {"nodeName": p.node, "restartPolicy": "Always",
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
{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["get","list"],"shortNames":["ns"]},
{"name":"nodes","singularName":"node","namespaced":false,"kind":"Node","verbs":["get","list","watch"],"shortNames":["no"]},
{"name":"nodes/proxy","singularName":"","namespaced":false,"kind":"NodeProxyOptions","verbs":["create","delete","get","patch","update"]}]}"#;

/// The resourceVersion of the pods as first served; each step of the
/// script is one more.
pub const FIRST_RESOURCE_VERSION: usize = 4242;

/// One step of the watch's script.
#[derive(Clone)]
pub enum Step {
    /// A watch event: its type and the Pod.
    Event(&'static str, Value),
    /// A line no decoder reads: client-go ends its watch at it, the page's
    /// reader skips it.
    Malformed,
    /// `410 Gone`: an ERROR event with the Status the API server sends for a
    /// compacted resourceVersion, and the stream's end. Served once.
    Expire,
}

/// web-0's app restarts a sixth time (10:05:43 to 10:05:46, exit 1: the
/// kubelet now waits the cap, 5m0s); shop/api-2 appears after its first
/// restart (back-off 10s); legacy-1 is marked for deletion, then deleted.
pub fn script(malformed: bool) -> Vec<Step> {
    let served = pods();
    let web = &served[0];
    let mut web0 = pod_json(web);
    let app = &mut web0["status"]["containerStatuses"][0];
    app["restartCount"] = json!(6);
    app["state"]["waiting"]["message"] = json!(crash_message(
        false,
        6,
        "app",
        web.name,
        web.namespace,
        web.uid
    ));
    app["lastState"]["terminated"]["startedAt"] = json!("2026-11-20T10:05:43Z");
    app["lastState"]["terminated"]["finishedAt"] = json!("2026-11-20T10:05:46Z");
    let api_uid = "a2a2a2a2-0000-4111-8222-333344445555";
    let api2 = pod_json(&ServedPod {
        name: "api-2",
        namespace: "shop",
        node: "node-a",
        uid: api_uid,
        containers: vec![Served {
            name: "api",
            kind: ContainerKind::Regular,
            restarts: 1,
            waiting: Some((
                "CrashLoopBackOff",
                crash_message(false, 1, "api", "api-2", "shop", api_uid),
            )),
            running: None,
            last: Some(("Error", 2, "2026-11-20T10:06:00Z", "2026-11-20T10:06:01Z")),
        }],
    });
    let mut legacy = pod_json(&served[1]);
    legacy["metadata"]["deletionTimestamp"] = json!("2026-11-20T10:07:00Z");
    let mut steps = vec![
        Step::Event("MODIFIED", web0),
        Step::Event("ADDED", api2),
        Step::Event("MODIFIED", legacy.clone()),
        Step::Event("DELETED", legacy),
    ];
    if malformed {
        steps.push(Step::Malformed);
    }
    steps.push(Step::Expire);
    steps
}

/// The nodes of `serve_nodes`: (name, kubelet version as reported, what
/// its /configz answers: `None` a 403 for want of `nodes/proxy`).
pub fn nodes() -> Vec<(&'static str, &'static str, Option<Value>)> {
    let configz = |kubelet: Value| {
        let mut c: Value = serde_json::from_str(include_str!("../fixtures/configz/writeup.json"))
            .expect("configz");
        for (k, v) in kubelet.as_object().expect("fields") {
            c["kubeletconfig"][k] = v.clone();
        }
        c
    };
    let max_30s = || configz(json!({"crashLoopBackOff": {"maxContainerRestartPeriod": "30s"}}));
    vec![
        ("node-a", "v1.33.5", None),
        ("node-b", "v1.37.1", Some(max_30s())),
        (
            "node-c",
            "v1.36.2",
            Some(configz(
                json!({"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true}}),
            )),
        ),
        ("node-d", "v1.37.0-eks-1a2b3c", Some(max_30s())),
    ]
}

pub fn node_json(name: &str, version: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": format!("{name}-uid"), "resourceVersion": "4242",
            "creationTimestamp": "2026-11-01T00:00:00Z"},
        "status": {"nodeInfo": {"kubeletVersion": version, "kubeProxyVersion": version,
            "containerRuntimeVersion": "containerd://1.7.22", "operatingSystem": "linux", "architecture": "amd64"}},
    })
}

/// A pod of one container `app` in namespace `fleet`, running since
/// `since` after `restarts` restarts, its last run `last` (10:MM:SS).
fn fleet_pod(
    name: &'static str,
    node: &'static str,
    restarts: u64,
    last: (&'static str, &'static str),
    since: &'static str,
) -> ServedPod {
    ServedPod {
        name,
        namespace: "fleet",
        node,
        uid: name,
        containers: vec![Served {
            name: "app",
            kind: ContainerKind::Regular,
            restarts,
            waiting: None,
            running: Some(since),
            last: Some(("Error", 1, last.0, last.1)),
        }],
    }
}

/// The pods `serve_nodes` adds, first as listed, then each restarted once
/// by the script (runs of 3 s):
/// - b-0 on node-b (10 s / 30 s from its /configz): run 2 10:00:16–19,
///   run 3 from 10:00:39 (20 s); run 3 10:00:39–42, run 4 from 10:01:12
///   (30 s, the cap);
/// - c-0 on node-c (1 s / 5 min: ReduceDefaultCrashLoopBackOffDecay on):
///   run 3 10:00:12–15, run 4 from 10:00:19 (4 s); run 4 10:00:19–22, run 5
///   from 10:00:30 (8 s);
/// - d-0 on node-d (10 s / 30 s from its /configz), following the shipped
///   curve instead: run 5 10:00:00–03, run 6 from 10:02:43 (160 s); run 6
///   10:02:43–46, run 7 from 10:07:46 (300 s).
pub fn fleet() -> Vec<(ServedPod, ServedPod)> {
    vec![
        (
            fleet_pod(
                "b-0",
                "node-b",
                3,
                ("2026-11-20T10:00:16Z", "2026-11-20T10:00:19Z"),
                "2026-11-20T10:00:39Z",
            ),
            fleet_pod(
                "b-0",
                "node-b",
                4,
                ("2026-11-20T10:00:39Z", "2026-11-20T10:00:42Z"),
                "2026-11-20T10:01:12Z",
            ),
        ),
        (
            fleet_pod(
                "c-0",
                "node-c",
                4,
                ("2026-11-20T10:00:12Z", "2026-11-20T10:00:15Z"),
                "2026-11-20T10:00:19Z",
            ),
            fleet_pod(
                "c-0",
                "node-c",
                5,
                ("2026-11-20T10:00:19Z", "2026-11-20T10:00:22Z"),
                "2026-11-20T10:00:30Z",
            ),
        ),
        (
            fleet_pod(
                "d-0",
                "node-d",
                6,
                ("2026-11-20T10:00:00Z", "2026-11-20T10:00:03Z"),
                "2026-11-20T10:02:43Z",
            ),
            fleet_pod(
                "d-0",
                "node-d",
                7,
                ("2026-11-20T10:02:43Z", "2026-11-20T10:02:46Z"),
                "2026-11-20T10:07:46Z",
            ),
        ),
    ]
}

/// How the stub's watches go.
#[derive(Clone, Copy)]
pub struct Options {
    /// Steps wait to be released (`Stub::release`), and a watch stays open
    /// after the last one, as a real one does; else every step is sent at
    /// once, 100 ms apart, and the watch ends after the last.
    pub held: bool,
    pub malformed: bool,
    /// The user may not read the kubernetes Endpoints nor list the priority
    /// levels (nodes mode): RBAC's 403 for each.
    pub locked: bool,
}

/// The stub, serving until dropped.
pub struct Stub {
    pub url: String,
    stop: Arc<AtomicBool>,
    released: Arc<AtomicUsize>,
    /// Requests served: (method and path).
    pub requests: Arc<Mutex<Vec<String>>>,
}

impl Stub {
    /// Lets `n` more steps of the script go out.
    pub fn release(&self, n: usize) {
        self.released.fetch_add(n, Ordering::SeqCst);
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// What the watches have moved so far: how many steps went out, and
/// whether the 410 was sent.
#[derive(Default)]
struct Moved {
    streamed: usize,
    expired: bool,
}

struct Shared {
    served: Vec<ServedPod>,
    /// `serve_nodes`: the nodes and their /configz served too.
    nodes: bool,
    script: Vec<Step>,
    options: Options,
    moved: Mutex<Moved>,
    released: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Shared {
    /// The pods as the steps streamed so far left them, and their
    /// resourceVersion.
    fn current(&self) -> (Vec<Value>, usize) {
        let streamed = self.moved.lock().map_or(0, |m| m.streamed);
        let mut pods: Vec<Value> = self.served.iter().map(pod_json).collect();
        for step in &self.script[..streamed] {
            if let Step::Event(kind, pod) = step {
                let uid = &pod["metadata"]["uid"];
                pods.retain(|p| &p["metadata"]["uid"] != uid);
                if *kind != "DELETED" {
                    pods.push(pod.clone());
                }
            }
        }
        (pods, FIRST_RESOURCE_VERSION + streamed)
    }
}

fn in_namespace(p: &Value, ns: Option<&str>) -> bool {
    ns.is_none_or(|n| p["metadata"]["namespace"] == n)
}

/// The stub's answer to one path (query included).
fn answer(path: &str, shared: &Shared) -> (u16, String) {
    let served = &shared.served[..];
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let list = |kind: &str, items: Vec<Value>, rv: usize| {
        json!({"kind": kind, "apiVersion": "v1", "metadata": {"resourceVersion": rv.to_string()}, "items": items}).to_string()
    };
    let pods = |ns: Option<&str>| {
        let (pods, rv) = shared.current();
        list(
            "PodList",
            pods.into_iter().filter(|p| in_namespace(p, ns)).collect(),
            rv,
        )
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
        ["api", "v1", "pods"] => (200, pods(None)),
        ["api", "v1", "nodes"] if shared.nodes => (
            200,
            list("NodeList", nodes().iter().map(|(n, v, _)| node_json(n, v)).collect(), FIRST_RESOURCE_VERSION),
        ),
        ["api", "v1", "nodes", name, "proxy", "configz"] if shared.nodes => {
            match nodes().into_iter().find(|(n, _, _)| n == name) {
                Some((_, _, Some(configz))) => (200, configz.to_string()),
                Some((_, _, None)) => (403, json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                    "message": format!("nodes \"{name}\" is forbidden: User \"dev\" cannot get resource \"nodes/proxy\" in API group \"\" at the cluster scope"),
                    "reason": "Forbidden", "details": {"name": name, "kind": "nodes"}, "code": 403}).to_string()),
                None => (404, format!(r#"{{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nodes \"{name}\" not found","reason":"NotFound","code":404}}"#)),
            }
        }
        // What RBAC answers a user without the optional rules: a Status
        // whose message is the authorizer's (apiserver's
        // endpoints/handlers/responsewriters/errors.go, forbiddenMessage),
        // wrapped as apimachinery's NewForbidden words it.
        ["api", "v1", "namespaces", "default", "endpoints", "kubernetes"] if shared.nodes && shared.options.locked => (403, json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "endpoints \"kubernetes\" is forbidden: User \"dev\" cannot get resource \"endpoints\" in API group \"\" in the namespace \"default\"",
            "reason": "Forbidden", "details": {"name": "kubernetes", "kind": "endpoints"}, "code": 403}).to_string()),
        ["apis", "flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"] if shared.nodes && shared.options.locked => (403, json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": "prioritylevelconfigurations.flowcontrol.apiserver.k8s.io is forbidden: User \"dev\" cannot list resource \"prioritylevelconfigurations\" in API group \"flowcontrol.apiserver.k8s.io\" at the cluster scope",
            "reason": "Forbidden", "details": {"group": "flowcontrol.apiserver.k8s.io", "kind": "prioritylevelconfigurations"}, "code": 403}).to_string()),
        // Two API servers, as the lease reconciler lists them.
        ["api", "v1", "namespaces", "default", "endpoints", "kubernetes"] if shared.nodes => (200, json!({
            "kind": "Endpoints", "apiVersion": "v1", "metadata": {"name": "kubernetes", "namespace": "default"},
            "subsets": [{"addresses": [{"ip": "10.0.0.10"}, {"ip": "10.0.0.11"}], "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]}]}).to_string()),
        // A default server's priority levels and one of the cluster's own
        // (100 shares): the system level's 30 of 345.
        ["apis", "flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations"] if shared.nodes => {
            let level = |name: &str, kind: &str, shares: u32, lendable: u32| json!({
                "metadata": {"name": name},
                "spec": {"type": kind, (kind.to_lowercase()): {"nominalConcurrencyShares": shares, "lendablePercent": lendable}}});
            let levels = vec![
                level("exempt", "Exempt", 0, 0),
                level("system", "Limited", 30, 33),
                level("node-high", "Limited", 40, 25),
                level("leader-election", "Limited", 10, 0),
                level("workload-high", "Limited", 40, 50),
                level("workload-low", "Limited", 100, 90),
                level("global-default", "Limited", 20, 50),
                level("catch-all", "Limited", 5, 0),
                level("batch", "Limited", 100, 0),
            ];
            (200, json!({"kind": "PriorityLevelConfigurationList", "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
                "metadata": {"resourceVersion": FIRST_RESOURCE_VERSION.to_string()}, "items": levels}).to_string())
        }
        ["api", "v1", "namespaces", ns, "pods"] => (200, pods(Some(ns))),
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
            (200, list("EventList", events, FIRST_RESOURCE_VERSION))
        }
        ["api", "v1", "events"] => (200, list("EventList", in_ns(served, None).flat_map(events_of).collect(), FIRST_RESOURCE_VERSION)),
        _ => (404, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.into()),
    }
}

/// A query parameter's value.
fn param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// A watch: the script's steps after `resourceVersion`, as chunks of one
/// event a line (the API server's own framing), in the namespace asked.
fn watch(stream: &mut TcpStream, path: &str, shared: &Shared) {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let ns = match parts.as_slice() {
        ["api", "v1", "namespaces", ns, "pods"] => Some(ns.to_string()),
        _ => None,
    };
    // The nodes' watch: nothing changes; open until the stub stops.
    let nodes = parts.as_slice() == ["api", "v1", "nodes"];
    let from = param(query, "resourceVersion")
        .and_then(|rv| rv.parse::<usize>().ok())
        .map_or(0, |rv| rv.saturating_sub(FIRST_RESOURCE_VERSION));
    if stream
        .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        .is_err()
    {
        return;
    }
    let chunk = |stream: &mut TcpStream, line: &str| -> bool {
        let body = format!("{line}\n");
        stream
            .write_all(format!("{:x}\r\n{body}\r\n", body.len()).as_bytes())
            .and_then(|()| stream.flush())
            .is_ok()
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut at = from;
    while nodes && !shared.stop.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    loop {
        if nodes {
            break;
        }
        if shared.stop.load(Ordering::SeqCst) || Instant::now() > deadline {
            break;
        }
        if at >= shared.script.len() {
            if shared.options.held {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            break;
        }
        if shared.options.held && shared.released.load(Ordering::SeqCst) <= at {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        if !shared.options.held {
            // Far apart beside the command's 25 ms settling: each step its
            // own change, even on a busy machine.
            std::thread::sleep(Duration::from_millis(if at == from { 300 } else { 100 }));
        }
        let step = &shared.script[at];
        at += 1;
        let sent = match step {
            Step::Event(kind, pod) => {
                let mut pod = pod.clone();
                pod["metadata"]["resourceVersion"] =
                    json!((FIRST_RESOURCE_VERSION + at).to_string());
                !in_namespace(&pod, ns.as_deref())
                    || chunk(stream, &json!({"type": kind, "object": pod}).to_string())
            }
            Step::Malformed => chunk(
                stream,
                r#"{"type":"MODIFIED","object":{"kind":"Pod",,"metadata":{}}}"#,
            ),
            Step::Expire => {
                let first = shared
                    .moved
                    .lock()
                    .map(|mut m| !std::mem::replace(&mut m.expired, true))
                    .unwrap_or(false);
                if first {
                    let _ = chunk(
                        stream,
                        r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 4242 (4250)","reason":"Expired","code":410}}"#,
                    );
                    if let Ok(mut m) = shared.moved.lock() {
                        m.streamed = m.streamed.max(at);
                    }
                    break;
                }
                true
            }
        };
        if let Ok(mut m) = shared.moved.lock() {
            m.streamed = m.streamed.max(at);
        }
        if !sent {
            return;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    let _ = stream.flush();
}

fn handle(mut stream: TcpStream, shared: &Shared, requests: &Mutex<Vec<String>>) {
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
    if let Ok(mut r) = requests.lock() {
        if !request.contains("/_stub/") {
            r.push(request.trim().to_owned());
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let query = path.split_once('?').map_or("", |(_, q)| q);
    // The test's own controls (never through kubectl): let the next step
    // of the script go, and the requests served so far.
    let control = match path.split('?').next() {
        Some("/_stub/release") => {
            let n = shared.released.fetch_add(1, Ordering::SeqCst) + 1;
            Some(n.to_string())
        }
        Some("/_stub/requests") => {
            Some(json!(requests.lock().map(|r| r.clone()).unwrap_or_default()).to_string())
        }
        _ => None,
    };
    if let Some(body) = control {
        let reply = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(reply.as_bytes());
        return;
    }
    if matches!(param(query, "watch"), Some("true" | "1")) {
        watch(&mut stream, path, shared);
        return;
    }
    let (code, body) = answer(path, shared);
    let reply = format!(
        "HTTP/1.1 {code} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        match code {
            200 => "OK",
            403 => "Forbidden",
            _ => "Not Found",
        },
        body.len()
    );
    let _ = stream.write_all(reply.as_bytes());
    let _ = reader.read(&mut [0; 1]);
}

/// At most this many requests, each on its own thread.
const MAX_REQUESTS: usize = 20_000;

/// The stub on 127.0.0.1.
pub fn serve(options: Options) -> Stub {
    serving(options, false)
}

/// The stub with nodes (`nodes`) and the pods of `fleet` on them, whose
/// script restarts each fleet pod once, then ends the watch with a 410.
pub fn serve_nodes(options: Options) -> Stub {
    serving(options, true)
}

fn serving(options: Options, with_nodes: bool) -> Stub {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("address").to_string();
    listener.set_nonblocking(true).expect("nonblocking");
    let stop = Arc::new(AtomicBool::new(false));
    let released = Arc::new(AtomicUsize::new(0));
    let requests = Arc::new(Mutex::new(vec![]));
    let (served, script) = if with_nodes {
        let mut served = pods();
        let mut steps = vec![];
        for (first, then) in fleet() {
            served.push(first);
            steps.push(Step::Event("MODIFIED", pod_json(&then)));
        }
        steps.push(Step::Expire);
        (served, steps)
    } else {
        (pods(), script(options.malformed))
    };
    let shared = Arc::new(Shared {
        served,
        nodes: with_nodes,
        script,
        options,
        moved: Mutex::new(Moved::default()),
        released: released.clone(),
        stop: stop.clone(),
    });
    let (flag, log) = (stop.clone(), requests.clone());
    std::thread::spawn(move || {
        let mut handled = 0;
        while !flag.load(Ordering::SeqCst) && handled < MAX_REQUESTS {
            match listener.accept() {
                Ok((stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    let (shared, log) = (shared.clone(), log.clone());
                    std::thread::spawn(move || handle(stream, &shared, &log));
                    handled += 1;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    });
    Stub {
        url: format!("http://{address}"),
        stop,
        released,
        requests,
    }
}

/// `kubectl --server SERVER` with no kubeconfig of the user's: every test
/// talks to the stub alone.
pub fn kubectl_at(bin: &std::path::Path, server: &str) -> Command {
    let mut c = Command::new(bin);
    c.args(["--server", server])
        .env("KUBECONFIG", "/dev/null")
        .env("HOME", std::env::temp_dir());
    c
}

/// Every kubectl on the machine, with its version.
pub fn kubectls() -> Vec<(String, PathBuf)> {
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
