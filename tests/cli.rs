//! The native command, run as users run it.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that refuses its options ends before reading its input.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write: {e}");
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A pod's container in `pod`'s JSON, by name.
fn container<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["containers"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == name))
        .expect("the container")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

#[test]
fn pod_prints_each_containers_next_restart() {
    let (code, out, _) = run(
        &["pod", "--now", "2026-11-20T10:01:00Z"],
        &fixture("web-0.json"),
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["pod"], "web-0");
    let app = container(&v, "app");
    assert_eq!(app["restartCount"], 5);
    assert_eq!(app["state"], "CrashLoopBackOff");
    assert_eq!(app["backoffMs"], 160_000);
    assert_eq!(app["nextRestartAt"], "2026-11-20T10:02:43Z");
    assert_eq!(app["nextRestartLatestAt"], "2026-11-20T10:03:13Z");
    assert_eq!(
        (app["runMs"].as_u64(), app["exitCode"].as_i64()),
        (Some(3_000), Some(1))
    );
    assert_eq!(app["resetsIfRunsUntil"], "2026-11-20T10:12:43Z");
    // The assumption is said first; the exit has its reason; one figure for
    // the next hour (10:02:43, then every 303 s: 12 before 11:01:00).
    assert_eq!(
        v["assumes"],
        "kubelet 1.37's shipped defaults (10 s / 5 min)"
    );
    assert_eq!(app["exitReason"], "Error");
    assert_eq!(app["restartsNextHour"], 12);
    // A 1 min cap on 1.37: the same pod would wait 1 min and restart at 10:01:03.
    let (_, out, _) = run(
        &[
            "pod",
            "--now",
            "2026-11-20T10:01:00Z",
            "--config",
            r#"{"crashLoopBackOff":{"maxContainerRestartPeriod":"60s"}}"#,
        ],
        &fixture("api-describe.txt"),
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["containers"][0]["nextRestartAt"], "2026-11-20T09:51:45Z");
    assert_eq!(
        v["assumes"],
        "kubelet 1.37 with this configuration (10 s / 1 min)"
    );
}

#[test]
fn what_is_not_a_pod_exits_2_with_a_message() {
    let (code, out, err) = run(&["pod"], "apiVersion: apps/v1\nkind: Deployment\n");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("this is a Deployment, not a Pod"), "{err}");
    let (code, _, err) = run(&["pod", "--version", "1.99"], &fixture("web-0.json"));
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "--version: kubelet 1.99: 1.99 is not a modelled release (1.31 to 1.37)"
    );
    // A node's own VERSION, vendor suffix and all, names its release.
    let (code, out, err) = run(
        &["pod", "--version", "v1.33.5-eks-113cf36"],
        &fixture("web-0.json"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kubelet 1.33's shipped defaults"), "{out}");
    let (code, _, err) = run(
        &[
            "pod",
            "--config",
            r#"{"crashLoopBackOff":{"maxContainerRestartPeriod":"301s"}}"#,
        ],
        &fixture("web-0.json"),
    );
    assert_eq!(code, 2);
    assert!(err.contains("must be set between 1s and 300s"), "{err}");
}

#[test]
fn help_and_the_bare_scenario() {
    let (code, out, _) = run(&["--help"], "");
    assert_eq!(code, 0);
    // clap's help: every command named.
    assert!(out.contains("Usage: crashloop-explorer [COMMAND]"), "{out}");
    assert!(out.contains("pods ") && out.contains("figure "), "{out}");
    let (code, out, _) = run(&["pods", "--help"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("--now <NOW>") && out.contains("--config <CONFIG>"),
        "{out}"
    );
    let (code, out, _) = run(
        &[],
        r#"{"initialMs": 1000, "maxMs": 60000, "model": "kep"}"#,
    );
    assert_eq!(code, 0);
    assert!(out.contains("\"restartsAtMs\""));
}

#[test]
fn figure_draws_a_chart_of_a_link_as_svg() {
    let (code, out, err) = run(
        &[
            "figure",
            "--link",
            "v=1.37&m=kep&i=1s",
            "--chart",
            "restarts",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg") && out.trim_end().ends_with("</svg>"));
    assert!(out.contains("Restarts over time (one pod)"));
    // The KEP curve from 1 s, doubling to 5 min, restarts at expiry:
    // 1, 3, 7, 15, 31, 63, 127, 255 s (8 by 5 min), then 511, 811, 1111,
    // 1411, 1711 s: 13 by 30 min. Today's default (10 s doubling to 5 min):
    // 10, 30, 70, 150 s (4), then 310, 610, 910, 1210, 1510 s: 9.
    assert!(
        out.contains("13 restarts per pod over 30 min (8 in the first 5 min)"),
        "{out:.600}"
    );
    assert!(out.contains("Today's default: 9 restarts per pod (4)"));
    // Light unless asked: the page behind the chart.
    assert!(out.contains(r##"fill="#FFFFFF""##));
    let (code, dark, _) = run(
        &[
            "figure", "--link", "v=1.37", "--chart", "waits", "--theme", "dark",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(dark.contains(r##"fill="#161B22""##) && !dark.contains(r##"fill="#FFFFFF""##));
    assert!(dark.contains("Wait before each restart"));
}

#[test]
fn figure_refuses_what_the_app_would_only_warn_about() {
    let refused = |args: &[&str]| {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty());
        err
    };
    // A link without v= changes meaning when the default moves on.
    assert!(
        refused(&["figure", "--link", "m=kep&i=1s", "--chart", "load"])
            .contains("v: this link does not say which kubelet")
    );
    assert!(refused(&["figure", "--link", "v=1.37&i=abc", "--chart", "load"]).contains("  i: "));
    assert!(refused(&["figure", "--link", "v=1.37", "--chart", "pie"])
        .contains("not a chart (restarts, waits, load or windows)"));
    assert!(
        refused(&["figure", "--link", "v=1.37", "--chart", "load", "--theme", "auto"])
            .contains("a figure is light or dark")
    );
    // clap's own words for a missing option; exit code 2 all the same.
    let err = refused(&["figure", "--chart", "load"]);
    assert!(
        err.contains("required arguments were not provided") && err.contains("--link"),
        "{err}"
    );
}

#[test]
fn prerender_writes_the_first_view_into_a_built_page() {
    let dir = std::env::temp_dir().join(format!("crashloop-prerender-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let index = dir.join("index.html");
    std::fs::write(
        &index,
        "<!DOCTYPE html><html><head><link rel=\"stylesheet\" href=\"/style.css\" integrity=\"sha384-trunks\"/></head><body>\n<!-- prerender -->\n<noscript>x</noscript></body></html>",
    )
    .unwrap();
    // Trunk's copy of the stylesheet is not there yet: nothing is written.
    let (code, _, err) = run(&["prerender", dir.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("style.css is missing"), "{err}");
    assert!(std::fs::read_to_string(&index)
        .unwrap()
        .contains("<!-- prerender -->"));
    let style = dir.join("style.css");
    std::fs::write(&style, "/* as in static/ */\na { color: red; }\n").unwrap();
    let (code, _, err) = run(&["prerender", dir.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    // The page's stylesheet is the one the wasm carries: minified.
    let css = std::fs::read_to_string(&style).unwrap();
    assert_eq!(css, crashloop_explorer::style::STYLESHEET);
    assert!(
        css.starts_with(":host{all:initial;display:block;}"),
        "{css:.80}"
    );
    let page = std::fs::read_to_string(&index).unwrap();
    // ... and the page's link to it carries that file's digest, not trunk's.
    let sri = crashloop_explorer::style::integrity(css.as_bytes());
    assert!(
        page.contains(&format!(r#"href="/style.css" integrity="{sri}"/>"#)),
        "{page:.300}"
    );
    assert!(!page.contains("<!-- prerender -->"));
    assert!(page.contains(r#"<main class="app prerendered" id="prerender" aria-busy="true">"#));
    // The four headline figures, labelled as the app labels them.
    assert_eq!(page.matches("<dd class=\"figure\">").count(), 4);
    assert!(page.contains("<dt>Restarts per pod, first 5 min</dt>"));
    assert!(page.contains("<dt>/pods requests sent, node, 30 min</dt>"));
    // By client: status and events sent, what was offered, events dropped.
    assert!(page.contains("<dd class=\"split\">"), "{page:.300}");
    // Two charts, light and dark files beside the page, described for readers.
    for name in ["restarts", "load"] {
        for theme in ["light", "dark"] {
            let file = format!("prerender-{name}-{theme}.svg");
            assert!(page.contains(&file), "{file}");
            let svg = std::fs::read_to_string(dir.join(&file)).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("<desc>This configuration: "));
        }
    }
    assert!(page.contains(r#"media="(prefers-color-scheme: dark)""#));
    assert!(page.contains(
        "alt=\"Cumulative restarts of one pod over time, against today's default. This configuration: "
    ));
    // Run again: no marker left, so it says so rather than writing twice.
    let (code, _, err) = run(&["prerender", dir.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("has no <!-- prerender --> marker"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader that stops early (`… | head`): the command ends quietly, not with
/// a panic. A day at a 1 s cap is megabytes of JSON, far past a pipe's buffer.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(
            br#"{"initialMs":25,"maxMs":1000,"horizonMs":86400000,"pods":1,"requeue":"ideal"}"#,
        )
        .expect("write");
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `pods`: every pod of a table, soonest restart first, as JSON; text with
/// no pod exits with code 2 and says what it is.
#[test]
fn pods_reads_a_table() {
    let table = "NAMESPACE   NAME    READY   STATUS             RESTARTS        AGE\n\
                 shop        web-0   0/1     CrashLoopBackOff   16 (102s ago)   21m\n\
                 shop        web-1   1/1     Running            0               21m\n";
    let (code, out, err) = run(&["pods", "--now", "2026-11-26T00:00:00Z"], table);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["shape"], "table");
    let c = &v["pods"][0]["containers"][0];
    assert_eq!(v["pods"][0]["pod"], "web-0");
    assert_eq!(v["pods"][0]["namespace"], "shop");
    assert!(c["name"].is_null());
    // 16 restarts: capped at 300 s; the last restart 102 s before NOW, so
    // the next falls in [23:58:18 + 300 s, NOW + 300 s (+30 s)].
    assert_eq!(
        (c["restartCount"].as_u64(), c["backoffMs"].as_u64()),
        (Some(16), Some(300_000))
    );
    assert_eq!(c["nextRestartAt"], "2026-11-26T00:03:18Z");
    assert_eq!(c["nextRestartLatestAt"], "2026-11-26T00:05:30Z");
    assert_eq!(c["estimated"], true);
    let (code, _, err) = run(&["pods"], "No resources found in default namespace.\n");
    assert_eq!(code, 2);
    assert!(err.contains("holds no pod"), "{err}");
}

/// `cluster`: a class of 5,000 nodes against 3 replicas' system seats
/// (3 × 74); `--recommend` adds the feasible range; a bad field exits 2.
#[test]
fn cluster_reads_classes_and_recommends() {
    let input = r#"{"nodeClasses": [{"name": "pool-a", "nodes": 5000, "scenario": {"pods": 1}}],
        "apiServer": {"replicas": 3, "maxRequestsInflight": 400, "maxMutatingRequestsInflight": 200, "secondsPerRequest": 0.01}}"#;
    let (code, out, err) = run(
        &[
            "cluster",
            "--recommend",
            r#"{"crashes": 5, "restartWithinMs": 60000}"#,
        ],
        input,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["windowMs"], 10000);
    assert_eq!(v["systemSeats"], 222);
    let peak = v["peakRequestsPerSecond"].as_f64().unwrap();
    assert!((v["peakSeatsBusy"].as_f64().unwrap() - peak * 0.01).abs() < 1e-9);
    assert_eq!(
        v["recommendation"]["feasibleMs"],
        serde_json::json!([1000, 60000])
    );
    assert!(v["recommendation"]["snippets"][0]["text"]
        .as_str()
        .unwrap()
        .contains("maxContainerRestartPeriod: \"1m0s\""));
    let (code, _, err) = run(
        &["cluster"],
        r#"{"nodeClasses": [{"name": "a", "nodes": 0}]}"#,
    );
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "nodeClasses[0].nodes: 0 is not 1 to 15000");
    let (code, _, err) = run(&["cluster"], r#"{"nodeClasses": [], "apiServers": {}}"#);
    assert_eq!(code, 2);
    assert!(err.contains("unknown field `apiServers`"), "{err}");
}

/// `cluster --compare`: the same cluster on KEP-4603's curves, each named;
/// a curve that is not one exits 2 and lists those that are.
#[test]
fn cluster_compares_curves() {
    // 100 nodes of one pod that exits at once: on 1 s doubling to 30 s, the
    // first window holds the restarts at 1, 3 and 7 s, 5 requests each:
    // 1,500 requests, 150 per second.
    let input =
        r#"{"nodeClasses": [{"name": "a", "nodes": 100, "scenario": {"pods": 1, "runMs": 0}}]}"#;
    let (code, out, err) = run(
        &["cluster", "--compare", "initial-1s-max-30s,new-default"],
        input,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["compared"][0]["id"], "initial-1s-max-30s");
    assert_eq!(v["compared"][0]["peakRequestsPerSecond"], 150.0);
    assert_eq!(v["compared"][1]["label"], "initial 1 s, max 1 min");
    let (code, _, err) = run(&["cluster", "--compare", "fast"], input);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("--compare \"fast\": not a curve (initial-250ms, "),
        "{err}"
    );
}

/// `cluster --from-pods`: what kubectl printed of a cluster, grouped.
#[test]
fn cluster_from_pasted_pods() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/kubectl/kubeadm-1688-get-all-wide-pod-prefix.txt"
    ))
    .unwrap();
    let (code, out, err) = run(&["cluster", "--from-pods"], &table);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // One node (elastestsp1) runs the one crash-looping coredns pod.
    assert_eq!(v["classes"][0]["nodes"], 1);
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("2 nodes, 1 of them"));
    let (code, _, err) = run(
        &["cluster", "--from-pods"],
        "NAME READY STATUS RESTARTS AGE\nweb 1/1 Running 0 1h\n",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("no node runs a crash-looping pod"), "{err}");
}

/// `pods --follow` with its output not a terminal: the table once per
/// change, the stream's problems on standard error, exit 0 at its end.
/// web-0.json's app (restartCount 5, the kubelet's `back-off 2m40s`, its
/// last run 10:00:00–10:00:03) is on step 5 of the shipped 1.37 curve; the
/// next restart (10:02:43) is long past by the clock.
#[test]
fn follow_prints_the_table_per_change_and_says_what_it_skips() {
    let web = fixture("web-0.json");
    let stream =
        format!("{web}\nNAME READY STATUS\n{{\"kind\": \"Service\", \"metadata\": {{}}}}\n");
    let (code, out, err) = run(&["pods", "--follow", "--version", "1.37"], &stream);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("1 crash-looping of 1 pods watched, ")
            && lines[0].ends_with(" · assumed: kubelet 1.37's shipped defaults (10 s / 5 min)"),
        "{out}"
    );
    assert!(
        lines[1].starts_with(
            "POD            CONTAINER  STATE             RESTARTS  STEP  BACK-OFF  NEXT RESTART"
        ),
        "{out}"
    );
    assert!(
        lines[2].starts_with(
            "default/web-0  app        CrashLoopBackOff  5         5/6   2m40s     due, "
        ),
        "{out}"
    );
    assert!(lines[2].ends_with("late  Error (1)"), "{out}");
    // Below the table, what the crash loops send the API server at their
    // cap (engine::load_now pins the numbers).
    assert!(
        lines[3].starts_with(
            "Load now, the crash loops' next 10 min from where they are on their curves: "
        ) && lines[3].contains(" of its 222 system seats busy, ")
            && lines[3].ends_with(" in the busiest 10 s (3 replicas by default, 20 ms a request)"),
        "{out}"
    );
    assert_eq!(lines.len(), 4, "one change, one table: {out}");
    let said: Vec<&str> = err.lines().collect();
    assert_eq!(said.len(), 2, "{err}");
    assert!(said[0].contains("not JSON (`NAME READY STATUS`)"), "{err}");
    assert!(said[1].contains("a Service, not a Pod; skipped"), "{err}");
    // Options it refuses.
    let (code, _, err) = run(&["pods", "--follow", "--now", "2026-11-20T10:00:00Z"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("--now: a watch is diagnosed as it comes"),
        "{err}"
    );
    let (code, _, err) = run(&["pods", "--json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--follow"), "{err}");
    // A stream with nothing in it: one (empty) line, exit 0.
    let (code, out, _) = run(&["pods", "--follow", "--json"], "");
    assert_eq!(code, 0);
    let line: serde_json::Value = serde_json::from_str(out.trim()).expect("a JSON line");
    assert_eq!(
        (
            line["watched"].as_u64(),
            line["pods"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
}

/// The load is set against the API servers `--api-server` gives (the JSON
/// `cluster` reads): one replica has the `system` level's 74 seats, and each
/// request holds one for its `secondsPerRequest`; the rate is the
/// kubelets', the same whatever the servers. A wrong one exits 2 in the
/// API server's flag words.
#[test]
fn follow_sets_the_load_against_the_api_servers_given() {
    let web = fixture("web-0.json");
    let load = |args: &[&str]| {
        let (code, out, err) = run(&[&["pods", "--follow", "--json"], args].concat(), &web);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        v["load"].clone()
    };
    let default = load(&[]);
    let one = load(&[
        "--api-server",
        r#"{"replicas": 1, "secondsPerRequest": 0.05}"#,
    ]);
    assert_eq!(
        (default["systemSeats"].as_u64(), one["systemSeats"].as_u64()),
        (Some(222), Some(74))
    );
    let rate = one["requestsPerSecond"].as_f64().unwrap();
    assert!(
        rate > 0.0 && rate == default["requestsPerSecond"].as_f64().unwrap(),
        "{one}"
    );
    assert!(
        (one["seatsBusy"].as_f64().unwrap() - rate * 0.05).abs() < 1e-12,
        "{one}"
    );
    let peak = one["peakRequestsPerSecond"].as_f64().unwrap();
    assert!(peak >= rate, "{one}");
    assert!(
        (one["peakSeatsBusy"].as_f64().unwrap() - peak * 0.05).abs() < 1e-12,
        "{one}"
    );
    assert_eq!(one["apiServer"]["replicas"], 1);
    // The table says the servers it was set against.
    let (_, out, _) = run(
        &[
            "pods",
            "--follow",
            "--api-server",
            r#"{"replicas": 1, "secondsPerRequest": 0.05}"#,
        ],
        &web,
    );
    assert!(
        out.contains(" of its 74 system seats busy, ")
            && out.contains(" in the busiest 10 s (1 replica, 50 ms a request)"),
        "{out}"
    );
    for (bad, said) in [
        (
            r#"{"replicas": 0}"#,
            "--api-server: apiServer.replicas: 0 is not 1 to 15",
        ),
        (r#"{"replica": 1}"#, "--api-server: unknown field `replica`"),
    ] {
        let (code, out, err) = run(&["pods", "--follow", "--api-server", bad], &web);
        assert_eq!((code, out.as_str()), (2, ""), "{bad}");
        assert!(err.starts_with(said), "{err}");
    }
    let (code, _, err) = run(&["pods", "--api-server", "{}"], &web);
    assert_eq!(code, 2);
    assert!(err.contains("--follow"), "{err}");
}

/// Ctrl-C (SIGINT, which kubectl gets too) ends a watch with exit 0, what
/// it had already shown, and nothing lost: the stream is still open when
/// it comes.
#[test]
fn ctrl_c_ends_a_follow_with_exit_0() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(["pods", "--follow", "--version", "1.37"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("its input");
    stdin
        .write_all(format!("{}\n", fixture("web-0.json")).as_bytes())
        .expect("written");
    // The first table: the watch is running, its handler set before it.
    let (tx, rx) = std::sync::mpsc::channel();
    let out = child.stdout.take().expect("its output");
    let reader = std::thread::spawn(move || {
        let mut lines = vec![];
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(());
            lines.push(line);
        }
        lines
    });
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .expect("a table within 30 s");
    // The shell's own kill: no package needed.
    let sent = Command::new("sh")
        .args(["-c", "kill -INT \"$0\"", &child.id().to_string()])
        .status()
        .expect("sh runs");
    assert!(sent.success());
    let status = child.wait().expect("it ends");
    drop(stdin);
    let lines = reader.join().expect("read");
    assert_eq!(status.code(), Some(0), "{status}");
    assert!(
        lines.iter().any(|l| l.starts_with("default/web-0  app  ")),
        "{lines:?}"
    );
}

/// A pod's status in a watch: `count` restarts, its last run from
/// `last.0` to `last.1` and its current run since `since` (seconds after
/// 10:00:00), or in CrashLoopBackOff.
fn watched(count: u64, last: (u64, u64), since: Option<u64>) -> String {
    let at = |s: u64| format!("2026-11-20T10:{:02}:{:02}Z", s / 60, s % 60);
    let state = match since {
        Some(t) => format!(r#"{{"running":{{"startedAt":"{}"}}}}"#, at(t)),
        None => r#"{"waiting":{"reason":"CrashLoopBackOff"}}"#.to_owned(),
    };
    format!(
        r#"{{"type":"MODIFIED","object":{{"kind":"Pod","metadata":{{"name":"w","namespace":"n","uid":"u1"}},"spec":{{"restartPolicy":"Always"}},"status":{{"phase":"Running","containerStatuses":[{{"name":"app","restartCount":{count},"lastState":{{"terminated":{{"exitCode":1,"reason":"Error","startedAt":"{}","finishedAt":"{}"}}}},"state":{state}}}]}}}}}}"#,
        at(last.0),
        at(last.1)
    )
}

/// `pods --follow` keeps the runs it sees and sets their back-offs against
/// the node's curve. Runs of 3 s; 1.37's shipped curve waits 10, 20, 40 s
/// before restarts 2, 3 and 4 (the first is at once). Seen: 3 − 3 = 0,
/// 16 − 6 = 10, 39 − 19 = 20 and 82 − 42 = 40 s: it agrees. Waits of 1, 2
/// and 4 s instead fit KEP-4603's 1 s / 1 min.
#[test]
fn follow_judges_the_curve_from_the_restarts_it_sees() {
    let last_line = |stream: &[String]| {
        let (code, out, err) = run(
            &["pods", "--follow", "--json", "--version", "1.37"],
            &stream.join("\n"),
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        v["pods"][0]["containers"][0].clone()
    };
    // Waiting to restart, a status's lastState is the run at its count
    // (run 3 39–42 at count 3); running, the run before.
    let doubling = [
        watched(1, (0, 3), Some(3)),
        watched(2, (3, 6), Some(16)),
        watched(3, (16, 19), Some(39)),
        watched(3, (39, 42), None),
        watched(4, (39, 42), Some(82)),
        watched(4, (82, 85), None),
    ];
    let c = last_line(&doubling);
    assert_eq!(
        c["observedBackoffsMs"],
        serde_json::json!([10_000, 20_000, 40_000])
    );
    assert_eq!(
        c["expectedBackoffsMs"],
        serde_json::json!([10_000, 20_000, 40_000])
    );
    assert_eq!(c["agrees"], true, "{c}");
    // Only the first two: one back-off that says anything.
    let c = last_line(&doubling[..2]);
    assert_eq!(c["agrees"], serde_json::Value::Null, "{c}");
    // 0 − 3 … : run 1 3–6, run 2 from 7 (1 s), 7–10, run 3 from 12 (2 s),
    // 12–15, run 4 from 19 (4 s).
    let fast = [
        watched(1, (0, 3), Some(3)),
        watched(2, (3, 6), Some(7)),
        watched(3, (7, 10), Some(12)),
        watched(4, (12, 15), Some(19)),
        watched(4, (19, 22), None),
    ];
    let c = last_line(&fast);
    assert_eq!(c["agrees"], false, "{c}");
    assert!(
        c["curveNote"].as_str().unwrap().ends_with(
            "they fit ReduceDefaultCrashLoopBackOffDecay on with a 1 min maximum (1 s / 1 min)"
        ),
        "{c}"
    );
    // The terminal's table says it below the rows.
    let (_, out, _) = run(&["pods", "--follow", "--version", "1.37"], &fast.join("\n"));
    assert!(
        out.lines().any(|l| l.starts_with("n/w app: disagrees: 1 s, 2 s, 4 s seen where kubelet 1.37's shipped defaults (10 s / 5 min) waits 10 s, 20 s, 40 s")),
        "{out}"
    );
}

#[test]
fn follow_ends_on_ctrl_c_with_exit_0() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(["pods", "--follow", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(fixture("web-0.json").as_bytes())
        .expect("write");
    stdin.write_all(b"\n").expect("write");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).expect("a line");
    let v: serde_json::Value = serde_json::from_str(&line).expect("JSON");
    assert_eq!(v["pods"][0]["pod"], "web-0");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("it ends");
    drop(stdin);
    assert_eq!(status.code(), Some(0));
}

/// `--kubelet-config FILE`: a kubelet's real /configz, a KubeletConfiguration
/// file, or one the kubelet would refuse (fixtures in tests/fixtures/configz).
#[test]
fn a_pod_is_diagnosed_on_a_kubelets_own_configuration() {
    let dir = format!("{}/tests/fixtures/configz", env!("CARGO_MANIFEST_DIR"));
    let now = ["pod", "--now", "2026-11-20T10:01:00Z", "--kubelet-config"];
    fn with<'a>(now: &[&'a str], file: &'a str) -> Vec<&'a str> {
        [now, &[file]].concat()
    }
    // A real /configz sets neither gate nor crashLoopBackOff: the version's
    // own curve, the same restart as on its shipped defaults (10:02:43).
    let configz = format!("{dir}/writeup.json");
    let (code, out, err) = run(&with(&now, &configz), &fixture("web-0.json"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        v["assumes"],
        format!("kubelet 1.37 with its /configz ({configz}) (10 s / 5 min)")
    );
    let app = container(&v, "app");
    assert_eq!(app["nextRestartAt"], "2026-11-20T10:02:43Z");
    // kubernetes#96366's file with a 1 min cap added: as `--config` above,
    // the api pod waits 1 min and restarts at 09:51:45.
    let tmp = std::env::temp_dir().join(format!("crashloop-kubelet-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let capped = tmp.join("config.yaml");
    let file = std::fs::read_to_string(format!("{dir}/k8s-96366.yaml")).unwrap();
    std::fs::write(
        &capped,
        format!("{file}crashLoopBackOff:\n  maxContainerRestartPeriod: 60s\n"),
    )
    .unwrap();
    let capped = capped.display().to_string();
    let (code, out, err) = run(&with(&now, &capped), &fixture("api-describe.txt"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["containers"][0]["nextRestartAt"], "2026-11-20T09:51:45Z");
    assert_eq!(
        v["assumes"],
        format!("kubelet 1.37 with a KubeletConfiguration ({capped}) (10 s / 1 min)")
    );
    // What the kubelet refuses, in its words; what is no configuration.
    for (text, said) in [
        (
            format!("{file}crashLoopBackOff:\n  maxContainerRestartPeriod: 0s\n"),
            "must be set between 1s and 300s",
        ),
        (
            "apiVersion: v1\nkind: Pod\n".to_owned(),
            "no kind \"Pod\" is registered for version \"v1\"",
        ),
        (
            "{\"kubeletconfig\": {}, \"extra\": 1}".to_owned(),
            "a /configz holds \"kubeletconfig\" alone",
        ),
        ("[1, 2]".to_owned(), "not a kubelet's configuration"),
        ("key: [unclosed".to_owned(), "not YAML or JSON"),
        ("x".repeat(300 * 1024), "more than 256 KB"),
    ] {
        let bad = tmp.join("bad.yaml");
        std::fs::write(&bad, &text).unwrap();
        let bad = bad.display().to_string();
        let (code, out, err) = run(&with(&now, &bad), &fixture("web-0.json"));
        assert_eq!((code, out.as_str()), (2, ""), "{said}");
        assert!(
            err.contains("--kubelet-config ") && err.contains(said),
            "{err}"
        );
    }
    let none = format!("{dir}/none.yaml");
    let (code, _, err) = run(&with(&now, &none), &fixture("web-0.json"));
    assert_eq!(code, 2);
    assert!(err.contains("No such file"), "{err}");
    // One node: --config and --kubelet-config are not both given.
    let (code, _, err) = run(
        &["pod", "--config", "{}", "--kubelet-config", &configz],
        &fixture("web-0.json"),
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&tmp).ok();
}

/// A thousand nodes: `watch` reads each node's /configz once, never more
/// than 4 at a time. `$KUBECTL` is a script standing in for kubectl: its
/// nodes' watch prints 1,000 Nodes at once, each `get --raw …/configz`
/// notes how many reads run beside it (the `kubernetes` Endpoints and the
/// priority levels, read once, are not among them), and its pods' watch ends
/// once every node has been read.
#[test]
fn watch_reads_a_thousand_nodes_configz_four_at_a_time() {
    const NODES: usize = 1_000;
    let dir = std::env::temp_dir().join(format!("crashloop-thousand-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("running")).unwrap();
    let script = kubectl_stand_in(
        &dir,
        &format!(
            r#"#!/bin/sh
d='{dir}'
case "$*" in
  *"get pods"*) while [ "$(wc -l < "$d/asked" 2>/dev/null || echo 0)" -lt {NODES} ]; do sleep 0.05; done; exit 0 ;;
  *"get nodes"*)
    i=0
    while [ $i -lt {NODES} ]; do
      printf '{{"type":"ADDED","object":{{"kind":"Node","metadata":{{"name":"n-%s"}},"status":{{"nodeInfo":{{"kubeletVersion":"v1.37.1"}}}}}}}}\n' $i
      i=$((i+1))
    done
    sleep 60 ;;
  *"prioritylevelconfigurations"*) echo '{{"items":[{{"metadata":{{"name":"system"}},"spec":{{"limited":{{}}}}}}]}}' ;;
  *"endpoints/kubernetes"*) echo '{{"kind":"Endpoints","subsets":[{{"addresses":[{{"ip":"10.0.0.1"}}]}}]}}' ;;
  *"get --raw"*)
    touch "$d/running/$$"
    ls "$d/running" | wc -l >> "$d/beside"
    sleep 0.01
    rm "$d/running/$$"
    for a; do path=$a; done
    echo "$path" >> "$d/asked"
    echo '{{"kubeletconfig":{{"crashLoopBackOff":{{"maxContainerRestartPeriod":"30s"}}}}}}' ;;
esac
"#,
            dir = dir.display()
        ),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(["watch", "-A"])
        .env("KUBECTL", &script)
        .stdin(Stdio::null())
        .output()
        .expect("watch runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    let asked: Vec<String> = read("asked").lines().map(str::to_owned).collect();
    let mut once = asked.clone();
    once.sort();
    once.dedup();
    assert_eq!(
        (asked.len(), once.len()),
        (NODES, NODES),
        "each node's /configz once"
    );
    assert!(once.contains(&"/api/v1/nodes/n-999/proxy/configz".to_owned()));
    let beside: Vec<usize> = read("beside")
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    let most = beside.iter().copied().max().unwrap_or(0);
    assert!(
        (2..=4).contains(&most),
        "reads side by side, at most 4: {most}"
    );
    // The last table: every node's curve from its /configz.
    let text = String::from_utf8_lossy(&out.stdout);
    let last = &text[text.rfind("crash-looping of").expect("a table")..];
    assert_eq!(
        last.lines()
            .filter(|l| l.starts_with("n-") && l.contains(" configz "))
            .count(),
        NODES,
        "{}",
        &last[..last.len().min(2000)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kubectl that cannot reach a cluster fails before any pod comes:
/// `watch` says what kubectl said and ends as kubectl did, with a failure,
/// not as a watch that ran and ended.
#[test]
fn watch_fails_where_kubectl_cannot_watch() {
    let dir = std::env::temp_dir().join(format!("crashloop-nocluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = kubectl_stand_in(
        &dir,
        "#!/bin/sh\necho 'The connection to the server localhost:8080 was refused - did you specify the right host or port?' >&2\nexit 1\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_crashloop-explorer"))
        .args(["watch", "-A", "--json"])
        .env("KUBECTL", &script)
        .stdin(Stdio::null())
        .output()
        .expect("watch runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("kubectl (pods): The connection to the server localhost:8080 was refused"),
        "{err}"
    );
    assert!(
        err.contains("kubectl's watch of the pods ended (exit status: 1) before any pod came"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An executable `kubectl` in `dir` that runs `body` (a shell script): a
/// stand-in for kubectl where the test decides what it prints.
fn kubectl_stand_in(dir: &std::path::Path, body: &str) -> std::path::PathBuf {
    let script = dir.join("kubectl");
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    script
}
