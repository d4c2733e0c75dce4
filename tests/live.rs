//! The page's "Watch this cluster" through real `kubectl proxy --www` in
//! front of the loopback API stub (tests/support/apistub.rs), in headless
//! Chromium (scripts/live.mjs): the panel finds the API at its origin,
//! lists the pods, follows the watch as the stub moves them (a restart
//! count rising, a new pod, a pod deleted, a malformed event, a 410 that
//! makes it list again), and a click shows a pod's diagnosis. It needs the
//! release build in dist/: scripts/test.sh runs it after `trunk build
//! --release` (`cargo test --test live -- --ignored`).
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "support/apistub.rs"]
mod apistub;
use apistub::{kubectl_at, kubectls, serve, serve_nodes, Options, Stub};

/// Kills kubectl proxy however the test ends.
struct Proxy(std::process::Child);

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore = "needs the release build in dist/; scripts/test.sh runs it after `trunk build --release`"]
fn the_page_watches_a_cluster_through_kubectl_proxy() {
    let stub = serve(Options {
        held: true,
        malformed: true,
        locked: false,
    });
    through_proxy(&stub, "pods");
}

/// The nodes too: each pod on its own node's kubelet, the node whose
/// /configz is refused and the node whose pod follows another curve
/// (tests/support/apistub.rs `nodes`, `fleet`).
#[test]
#[ignore = "needs the release build in dist/; scripts/test.sh runs it after `trunk build --release`"]
fn the_page_diagnoses_each_pod_on_its_own_nodes_kubelet() {
    let stub = serve_nodes(Options {
        held: true,
        malformed: false,
        locked: false,
    });
    through_proxy(&stub, "nodes");
}

/// scripts/live.mjs in `mode` on the page as the newest kubectl's proxy
/// serves it in front of `stub`.
fn through_proxy(stub: &Stub, mode: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dist = root.join("dist");
    assert!(
        dist.join("index.html").is_file(),
        "no release build in {}: run `trunk build --release` first",
        dist.display()
    );
    // The newest kubectl here.
    let (version, kubectl) = kubectls()
        .into_iter()
        .max_by_key(|(v, _)| {
            v.split_once('.')
                .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        })
        .expect("a kubectl on this machine");
    let mut child = kubectl_at(&kubectl, &stub.url)
        .args(["proxy", "--port=0", "--address=127.0.0.1"])
        .arg(format!("--www={}", dist.display()))
        .arg("--www-prefix=/ui/")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kubectl proxy runs");
    let out = child.stdout.take().expect("its output");
    let proxy = Proxy(child);
    // "Starting to serve on 127.0.0.1:PORT"
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("kubectl proxy says where");
    let address = line
        .trim()
        .rsplit(' ')
        .next()
        .filter(|a| a.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("kubectl {version} proxy said: {line}"));
    // With nodes, the link sets the cluster view's API servers (one
    // replica, 800 + 400 in flight), which the load is set against; the
    // stub's `kubernetes` Endpoints lists two, which the load takes.
    let link = if mode == "nodes" {
        "?capi=1,800,400,20ms"
    } else {
        ""
    };
    let page = format!("http://{address}/ui/{link}#live");
    let status = Command::new("node")
        .current_dir(&root)
        .args([
            "scripts/live.mjs",
            &page,
            &stub.url,
            &dist.display().to_string(),
            mode,
        ])
        .status()
        .expect("node runs");
    drop(proxy);
    assert!(
        status.success(),
        "scripts/live.mjs {mode} through kubectl {version} proxy: {status}"
    );
}
