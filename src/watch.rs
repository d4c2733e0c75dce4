//! `watch`: the user's own kubectl (`$KUBECTL`, else `kubectl` on PATH,
//! with their kubeconfig and context) watches the pods and the nodes,
//! reads each node's `/configz` through the API server's node proxy (at
//! most `CONFIGZ_IN_FLIGHT` at a time, once per kubelet version) and, once,
//! the `kubernetes` Endpoints to count the API servers and the priority
//! levels for the `system` level's seats (as the page does);
//! what they print goes through the same loop as `pods --follow`. Only GET,
//! LIST and WATCH reach the cluster: kubectl's `get`, `get --watch` and
//! `get --raw`.

use std::ffi::OsString;
use std::io::Read;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc::{channel, Sender};

use crashloop_explorer::engine::kubelets::ConfigzQueue;
use crashloop_explorer::engine::live::Live;
use crashloop_explorer::formats::endpoints::{
    api_servers, KUBERNETES_ENDPOINTS, MAX_ENDPOINTS_TEXT,
};
use crashloop_explorer::formats::flowcontrol::{levels, MAX_PRIORITY_LEVELS_TEXT, PRIORITY_LEVELS};
use crashloop_explorer::formats::kubelet_config::MAX_KUBELET_CONFIG_TEXT;
use crashloop_explorer::formats::pod::watch::ReplicasFrom;

use crate::cli::{Node, Scope};
use crate::follow::{follow, lines, Input, Stream, Watching};

/// How kubectl is run: the program and the options every call passes on.
#[derive(Clone)]
struct Kubectl {
    program: OsString,
    common: Vec<String>,
}

impl Kubectl {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.common).args(args).stdin(Stdio::null());
        c
    }

    /// A `get … --watch` whose output and complaints come as `stream`'s.
    fn watch(&self, args: &[&str], stream: Stream, tx: &Sender<Input>) -> Result<Child, String> {
        let mut child = self
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "{}: {e} (set $KUBECTL to kubectl's path, or put kubectl on PATH)",
                    self.program.to_string_lossy()
                )
            })?;
        if let Some(out) = child.stdout.take() {
            lines(out, stream, "kubectl's output", tx.clone());
        }
        if let Some(err) = child.stderr.take() {
            let tx = tx.clone();
            std::thread::spawn(move || {
                use std::io::BufRead;
                for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                    if !line.trim().is_empty() && tx.send(Input::Said(stream, line)).is_err() {
                        return;
                    }
                }
            });
        }
        Ok(child)
    }
}

/// The nodes' /configz reads, each on a thread of its own.
pub struct Configz {
    kubectl: Kubectl,
    tx: Sender<Input>,
    queue: ConfigzQueue,
}

impl Configz {
    /// Starts the reads the nodes want now.
    pub fn ask(&mut self, live: &Live) {
        for (name, version) in self.queue.ask(live.kubelets()) {
            let (kubectl, tx) = (self.kubectl.clone(), self.tx.clone());
            std::thread::spawn(move || {
                let path = format!("/api/v1/nodes/{name}/proxy/configz");
                let read = raw(&kubectl, &path, MAX_KUBELET_CONFIG_TEXT);
                let _ = tx.send(Input::Configz {
                    name,
                    version,
                    read,
                });
            });
        }
    }

    /// One read came back.
    pub fn came(&mut self) {
        self.queue.came();
    }
}

/// `kubectl get --raw PATH`: its output (at most one byte past `limit`,
/// for the reader to refuse), or the last line it wrote on standard error.
fn raw(kubectl: &Kubectl, path: &str, limit: usize) -> Result<String, String> {
    let mut child = kubectl
        .command(&["get", "--raw", path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("kubectl get --raw {path}: {e}"))?;
    let mut text = String::new();
    if let Some(out) = child.stdout.take() {
        out.take(limit as u64 + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("kubectl get --raw {path}: {e}"))?;
    }
    let mut err = String::new();
    if let Some(e) = child.stderr.take() {
        let _ = e.take(64 * 1024).read_to_string(&mut err);
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        return Ok(text);
    }
    let said = err
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message")
        .trim()
        .to_owned();
    Err(said)
}

/// `watch`: kubectl's watches of the pods and the nodes, followed.
pub fn run(node: &Node, scope: &Scope, json: bool, api_server: Option<&str>) -> ExitCode {
    let watching = match Watching::of(node, json, api_server) {
        Ok(w) => w,
        Err(code) => return code,
    };
    let mut common = vec![];
    if let Some(c) = &scope.context {
        common.push(format!("--context={c}"));
    }
    if let Some(k) = &scope.kubeconfig {
        common.push(format!("--kubeconfig={}", k.display()));
    }
    let kubectl = Kubectl {
        program: std::env::var_os("KUBECTL")
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| "kubectl".into()),
        common,
    };
    let (tx, rx) = channel();
    // A watch that never times out on the client's side, with its events'
    // types, so that a node or a pod deleted says so.
    let watched = [
        "-o",
        "json",
        "--watch",
        "--output-watch-events",
        "--request-timeout=0",
    ];
    let mut pods_args = vec!["get", "pods"];
    let namespace = scope.namespace.as_ref().map(|n| format!("--namespace={n}"));
    if scope.all_namespaces {
        pods_args.push("--all-namespaces");
    } else if let Some(n) = &namespace {
        pods_args.push(n);
    }
    pods_args.extend(watched);
    let mut pods = match kubectl.watch(&pods_args, Stream::Pods, &tx) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut nodes_args = vec!["get", "nodes"];
    nodes_args.extend(watched);
    let mut nodes = kubectl.watch(&nodes_args, Stream::Nodes, &tx).ok();
    if watching.replicas_from != ReplicasFrom::Given {
        let (kubectl, tx) = (kubectl.clone(), tx.clone());
        std::thread::spawn(move || {
            let path = format!("/api/v1/{KUBERNETES_ENDPOINTS}");
            let read = raw(&kubectl, &path, MAX_ENDPOINTS_TEXT);
            let _ = tx.send(Input::ApiServers(read.and_then(|t| api_servers(&t))));
        });
    }
    {
        let (kubectl, tx) = (kubectl.clone(), tx.clone());
        std::thread::spawn(move || {
            let read = raw(&kubectl, PRIORITY_LEVELS, MAX_PRIORITY_LEVELS_TEXT);
            let _ = tx.send(Input::Levels(read.and_then(|t| levels(&t))));
        });
    }
    let mut configz = Configz {
        kubectl,
        tx: tx.clone(),
        queue: ConfigzQueue::default(),
    };
    let ended = follow(watching, (tx, rx), Some(&mut configz));
    if let Some(n) = nodes.as_mut() {
        let _ = n.kill();
        let _ = n.wait();
    }
    // Its output over, the pods' kubectl is ending: its status says whether
    // it failed before any pod came (no cluster, no access), as kubectl's
    // own exit would.
    if !ended.pods_ended {
        let _ = pods.kill();
    }
    match pods.wait() {
        Ok(status) if ended.pods_ended && !ended.pods_read && !status.success() => {
            eprintln!("kubectl's watch of the pods ended ({status}) before any pod came: what it said is above");
            ExitCode::FAILURE
        }
        _ => ended.code,
    }
}
