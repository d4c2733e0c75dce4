//! The JS API's module, `crashloop-explorer.js` (Trunk's main entry):
//! the library's JS exports. The app's own page loads a leaner module
//! without them (src/bin/page.rs). Natively, a command line (clap): the
//! bare binary reads a Scenario as JSON on standard input and prints the
//! exploration; `pod` and `pods` read what kubectl prints and say where each
//! container stands on the CrashLoopBackOff curve.

// Loading the module mounts nothing by itself (`start()` mounts the app on
// <body>), so a docs page can load it for `mount` without an app appearing
// on its <body>.
#[cfg(target_arch = "wasm32")]
fn main() {}

/// The JS API (documented in `crashloop_explorer::api`), exported from this
/// binary alone: the second wasm (src/bin/extras.rs) links the same library
/// and must not carry it.
#[cfg(target_arch = "wasm32")]
mod js {
    use crashloop_explorer::api;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    pub fn resolve(config: JsValue) -> Result<JsValue, JsError> {
        api::resolve(config)
    }

    #[wasm_bindgen]
    pub fn simulate(scenario: JsValue) -> Result<JsValue, JsError> {
        api::simulate(scenario)
    }

    #[wasm_bindgen]
    pub fn explore(scenario: JsValue) -> Result<JsValue, JsError> {
        api::explore(scenario)
    }

    #[wasm_bindgen]
    pub fn cluster(cluster: JsValue, options: JsValue) -> Result<JsValue, JsError> {
        api::cluster(cluster, options)
    }

    /// A Promise: the audit is in the second wasm, fetched on first use.
    #[wasm_bindgen]
    pub async fn audit() -> Result<JsValue, JsValue> {
        crashloop_explorer::app::lazy::audit_from_extras().await
    }

    #[wasm_bindgen]
    pub fn start() {
        api::start();
    }

    crashloop_explorer::export_mount!(crashloop_explorer::app::App);
}

/// The command line (native only): clap reads the arguments.
#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::{Args, Parser, Subcommand};

    #[derive(Parser)]
    #[command(
        name = "crashloop-explorer",
        version,
        about = "Kubernetes CrashLoopBackOff, computed",
        long_about = "Kubernetes CrashLoopBackOff, computed.\n\nWithout a command, reads a Scenario (JSON) on standard input and prints its exploration (JSON).",
        after_help = "EXIT CODES: 0 done, 2 the input or an option is not what it should be."
    )]
    pub struct Cli {
        #[command(subcommand)]
        pub command: Option<Command>,
    }

    #[derive(Subcommand)]
    pub enum Command {
        /// Reads one pod as kubectl prints it (YAML, JSON or describe; of
        /// several, the first in CrashLoopBackOff) on standard input and
        /// prints, per container, the backoff now, the next restart
        /// (earliest and latest), the last run and exit code, when a run
        /// resets the curve, and what other configurations would do (JSON,
        /// times in RFC 3339 UTC).
        Pod(Node),
        /// Reads every pod in any of kubectl's outputs on standard input (a
        /// Pod or a List in YAML or JSON, whole or in part; describe, whole
        /// or in part; back-off events; a `kubectl get pods` table) and
        /// prints each, soonest restart first, with the shape recognised.
        /// With --follow, reads a watch as it comes: `kubectl get pods -A -o
        /// json --watch | crashloop-explorer pods --follow`.
        Pods {
            #[command(flatten)]
            node: Node,
            /// Read a watch (`kubectl get pods -o json --watch`, with or
            /// without --output-watch-events) until it ends, and show the
            /// crash-looping pods as they change: in a terminal a table that
            /// redraws in place, its countdowns ticking.
            #[arg(long)]
            follow: bool,
            /// With --follow: a line of JSON per change (JSON Lines), each
            /// the whole set of crash-looping pods.
            #[arg(long, requires = "follow")]
            json: bool,
            /// With --follow: the API servers the load is set against, as
            /// `cluster`'s JSON "apiServer" (default: 3 replicas, 400 + 200
            /// in flight, 20 ms a request).
            #[arg(long, requires = "follow")]
            api_server: Option<String>,
        },
        /// Watches the cluster with your own kubectl (`$KUBECTL`, else
        /// `kubectl` on PATH; your kubeconfig and context): the pods, the
        /// nodes and each node's kubelet configuration (its /configz, where
        /// you may read `nodes/proxy`), and shows each crash-looping pod on
        /// its own node's kubelet, as `pods --follow` shows them, and each
        /// node's verdict: whether the restarts seen follow its curve. Also
        /// `kubectl crashloop watch` where installed as `kubectl-crashloop`.
        Watch {
            #[command(flatten)]
            node: Node,
            #[command(flatten)]
            scope: Scope,
            /// A line of JSON per change (JSON Lines), each the whole set of
            /// crash-looping pods and the nodes.
            #[arg(long)]
            json: bool,
            /// The API servers the load is set against, as `cluster`'s JSON
            /// "apiServer", e.g. '{"replicas": 5, "maxRequestsInflight":
            /// 800}' (default: as many replicas as the cluster's kubernetes
            /// Endpoints lists, else 3; 400 + 200 in flight, 20 ms a
            /// request). Its "replicas" wins over the Endpoints' count.
            #[arg(long)]
            api_server: Option<String>,
        },
        /// Reads a cluster as JSON on standard input, `{"nodeClasses": [{"name":
        /// "pool-a", "nodes": 5000, "scenario": {…a Scenario…}, "spreadMs": 0}],
        /// "apiServer": {"replicas": 3, "maxRequestsInflight": 400,
        /// "maxMutatingRequestsInflight": 200, "secondsPerRequest": 0.02}}`, and
        /// prints what its kubelets send the API server's `system` priority
        /// level per 10 s window, against the level's seats.
        Cluster {
            /// Read what kubectl printed of the cluster's pods instead (a
            /// `kubectl get pods -A -o wide` table or a `-o json` list, up to
            /// 64 MB): nodes are grouped by how many crash-looping pods each
            /// runs, one class per count.
            #[arg(long)]
            from_pods: bool,
            /// A preset instead of the JSON: daemonset (one crashing pod on
            /// every node of 5,000), deployment (3,000 pods over 300 nodes)
            /// or pool (500 nodes of 110 crashing pods).
            #[arg(long, value_parser = ["daemonset", "deployment", "pool"])]
            preset: Option<String>,
            /// With --from-pods: the API servers, as the JSON's "apiServer".
            #[arg(long)]
            api_server: Option<String>,
            /// Also weigh every maxContainerRestartPeriod from 1 s to 5 min
            /// against these constraints, e.g. '{"crashes": 5,
            /// "restartWithinMs": 60000, "noLimiterBinds": true,
            /// "maxSystemBusyPercent": 50}', and print the feasible range
            /// and the configuration to apply.
            #[arg(long)]
            recommend: Option<String>,
            /// Also evaluate the cluster on these of KEP-4603's curves,
            /// comma-separated: initial-250ms, initial-25ms, new-default,
            /// initial-1s-max-30s, rapid, flat-rate-succeeded,
            /// front-loaded-with-interval.
            #[arg(long, value_delimiter = ',')]
            compare: Vec<String>,
        },
        /// Draws one chart of the state a link describes (the query string
        /// the app writes, e.g. 'v=1.37&m=kep&i=1s') as SVG, through the
        /// app's own drawing code. Any part of the link the app would not
        /// use is an error.
        Figure {
            /// The link's query string.
            #[arg(long)]
            link: String,
            /// restarts, waits, load or windows.
            #[arg(long)]
            chart: String,
            /// light or dark.
            #[arg(long, default_value = "light")]
            theme: String,
        },
        /// Writes the app's first view into DIR/index.html (a built page
        /// with the `<!-- prerender -->` marker), and the restart and load
        /// charts as SVG files beside it: the build's post_build hook.
        Prerender {
            /// The built site's directory.
            dir: std::path::PathBuf,
        },
    }

    /// Which cluster and pods `watch` asks kubectl for.
    #[derive(Args)]
    pub struct Scope {
        /// The pods of this namespace (default: the context's).
        #[arg(short, long, conflicts_with = "all_namespaces")]
        pub namespace: Option<String>,
        /// The pods of every namespace.
        #[arg(short = 'A', long)]
        pub all_namespaces: bool,
        /// The kubeconfig context to use, passed to kubectl.
        #[arg(long)]
        pub context: Option<String>,
        /// The kubeconfig file to use, passed to kubectl.
        #[arg(long, value_name = "FILE")]
        pub kubeconfig: Option<std::path::PathBuf>,
    }

    /// The node a pod runs on, as far as the diagnosis must assume it (with
    /// `watch`: a pod whose node's kubelet is not known).
    #[derive(Args)]
    pub struct Node {
        /// The moment to diagnose at, RFC 3339 (default: now; an output
        /// over an hour old is diagnosed as of its own newest time).
        #[arg(long)]
        pub now: Option<String>,
        /// The kubelet's version, 1.31 to 1.37, or as its node reports it
        /// (`kubectl get nodes`' VERSION: v1.33.5-eks-113cf36, v1.31.4+k3s1).
        #[arg(long, default_value = "1.37")]
        pub version: String,
        /// The node's KubeletConfiguration parts as JSON, e.g.
        /// '{"featureGates":{"KubeletCrashLoopBackOffMax":true},"crashLoopBackOff":{"maxContainerRestartPeriod":"60s"}}'.
        #[arg(long, conflicts_with = "kubelet_config")]
        pub config: Option<String>,
        /// The node's kubelet configuration from a file: its /configz
        /// (`kubectl get --raw /api/v1/nodes/NODE/proxy/configz`), or a
        /// KubeletConfiguration in YAML or JSON.
        #[arg(long, value_name = "FILE")]
        pub kubelet_config: Option<std::path::PathBuf>,
    }
}

#[cfg(not(target_arch = "wasm32"))]
use crashloop_explorer::engine::field::quoted;

#[cfg(not(target_arch = "wasm32"))]
mod follow;
#[cfg(not(target_arch = "wasm32"))]
mod watch;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use cli::{Cli, Command};
    use std::io::Read;
    use std::process::ExitCode;

    let cli = Cli::parse();
    let read_input_up_to = |limit: usize| -> Result<String, String> {
        let mut input = String::new();
        // A little over the limit, to say so.
        std::io::stdin()
            .take(limit as u64 * 4 + 1)
            .read_to_string(&mut input)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok(input)
    };
    let read_input = || read_input_up_to(crashloop_explorer::formats::pod::MAX_POD_TEXT);
    let result = match cli.command {
        None => read_input()
            .and_then(|i| scenario(&i))
            .map(|j| format!("{j}\n")),
        Some(Command::Pod(node)) => read_input()
            .and_then(|i| pod(&node, &i, false))
            .map(|j| format!("{j}\n")),
        Some(Command::Pods {
            node,
            follow: true,
            json,
            api_server,
        }) => return follow::run(&node, json, api_server.as_deref()),
        Some(Command::Watch {
            node,
            scope,
            json,
            api_server,
        }) => return watch::run(&node, &scope, json, api_server.as_deref()),
        Some(Command::Pods { node, .. }) => read_input()
            .and_then(|i| pod(&node, &i, true))
            .map(|j| format!("{j}\n")),
        Some(Command::Cluster {
            recommend,
            from_pods,
            preset: Some(name),
            api_server,
            compare,
        }) if !from_pods => {
            cluster_preset(&name, api_server.as_deref(), recommend.as_deref(), &compare)
                .map(|j| format!("{j}\n"))
        }
        Some(Command::Cluster {
            recommend,
            from_pods,
            api_server,
            compare,
            ..
        }) => read_input_up_to(if from_pods {
            crashloop_explorer::formats::pod::MAX_CLUSTER_TEXT
        } else {
            crashloop_explorer::formats::pod::MAX_POD_TEXT
        })
        .and_then(|i| {
            cluster(
                &i,
                from_pods,
                api_server.as_deref(),
                recommend.as_deref(),
                &compare,
            )
        })
        .map(|j| format!("{j}\n")),
        Some(Command::Figure { link, chart, theme }) => figure(&link, &chart, &theme),
        Some(Command::Prerender { dir }) => prerender(&dir).map(|()| String::new()),
    };
    match result {
        Ok(text) => out(&text),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Writes the answer. A reader that stops early (`| head`) ends the command
/// quietly, as Unix tools end, rather than with a panic.
#[cfg(not(target_arch = "wasm32"))]
fn out(text: &str) -> std::process::ExitCode {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("writing standard output: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn scenario(input: &str) -> Result<String, String> {
    use crashloop_explorer::engine::{explore, Scenario};
    let input = if input.trim().is_empty() { "{}" } else { input };
    let s: Scenario = serde_json::from_str(input).map_err(|e| format!("invalid scenario: {e}"))?;
    serde_json::to_string_pretty(&explore(&s)).map_err(|e| e.to_string())
}

/// The node the options describe: `--version` and `--config`.
#[cfg(not(target_arch = "wasm32"))]
fn node_assumed(
    node: &cli::Node,
) -> Result<crashloop_explorer::engine::pod::NodeAssumption, String> {
    use crashloop_explorer::engine::config::{KubeletConfig, KubeletVersion};
    use crashloop_explorer::engine::pod::NodeAssumption;
    let version = KubeletVersion::of_node(&node.version).map_err(|e| format!("--version: {e}"))?;
    if let Some(path) = &node.kubelet_config {
        use crashloop_explorer::formats::kubelet_config::{read, MAX_KUBELET_CONFIG_TEXT};
        let shown = path.display();
        let text = read_limited(path, MAX_KUBELET_CONFIG_TEXT)
            .map_err(|e| format!("--kubelet-config {shown}: {e}"))?;
        let (config, source) = read(&text).map_err(|e| format!("--kubelet-config {shown}: {e}"))?;
        return NodeAssumption::new(
            version,
            Some(&config),
            &format!("with {} ({shown})", source.words()),
        )
        .map_err(|e| format!("--kubelet-config {shown}: {e}"));
    }
    let config: Option<KubeletConfig> = node
        .config
        .as_deref()
        .map(|c| {
            serde_json::from_str(c)
                .map_err(|e| format!("--config: not a KubeletConfiguration: {e}"))
        })
        .transpose()?;
    NodeAssumption::new(version, config.as_ref(), "with this configuration")
        .map_err(|e| e.to_string())
}

/// A file's text, refused past `limit` bytes without reading it all.
#[cfg(not(target_arch = "wasm32"))]
fn read_limited(path: &std::path::Path, limit: usize) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(limit as u64 + 1)
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    if text.len() > limit {
        return Err(format!("more than {} KB", limit / 1024));
    }
    Ok(text)
}

/// The wall clock, in milliseconds since the Unix epoch.
#[cfg(not(target_arch = "wasm32"))]
fn clock() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(not(target_arch = "wasm32"))]
fn pod(node: &cli::Node, input: &str, every: bool) -> Result<String, String> {
    use crashloop_explorer::engine::pod::{diagnose, diagnose_pods};
    use crashloop_explorer::formats::pod::{diagnosis_json, parse_pod, pods_json, read_pods};
    use crashloop_explorer::formats::time::parse_rfc3339;

    let node_assumed = node_assumed(node)?;
    let version = node_assumed.version;
    let chosen = node
        .now
        .as_deref()
        .map(|t| parse_rfc3339(t).map_err(|e| format!("--now: {e}")))
        .transpose()?;
    let now = chosen.unwrap_or_else(clock);
    let node = node_assumed;
    let json = if every {
        let read = read_pods(input, version)?;
        let d = diagnose_pods(&read.pods, &node, now, chosen.is_some());
        pods_json(read.shape, &d, &read.notes)
    } else {
        let (pod, mut notes) = parse_pod(input, version)?;
        let mut d = diagnose(&pod, &node, now);
        notes.append(&mut d.notes);
        d.notes = notes;
        diagnosis_json(&d)
    };
    // Said first: the pod does not carry its node's configuration.
    let json = match json {
        serde_json::Value::Object(fields) => serde_json::Value::Object(
            std::iter::once(("assumes".to_owned(), node.label.clone().into()))
                .chain(fields)
                .collect(),
        ),
        other => other,
    };
    serde_json::to_string_pretty(&json).map_err(|e| e.to_string())
}

/// A preset's cluster, as `cluster` prints any.
#[cfg(not(target_arch = "wasm32"))]
fn cluster_preset(
    name: &str,
    api: Option<&str>,
    recommend: Option<&str>,
    compare: &[String],
) -> Result<String, String> {
    let api = match api {
        Some(a) => serde_json::from_str(a).map_err(|e| format!("--api-server: {e}"))?,
        None => Default::default(),
    };
    let c = crashloop_explorer::engine::cluster::preset(name, api)
        .ok_or_else(|| format!("--preset {}: not a preset", quoted(name)))?;
    let json = serde_json::to_string(&c).map_err(|e| e.to_string())?;
    cluster(&json, false, None, recommend, compare)
}

#[cfg(not(target_arch = "wasm32"))]
fn cluster(
    input: &str,
    from_pods: bool,
    api_server: Option<&str>,
    recommend: Option<&str>,
    compare: &[String],
) -> Result<String, String> {
    use crashloop_explorer::engine::cluster::{self, Cluster, Constraints};
    use crashloop_explorer::engine::config::KubeletVersion;
    use crashloop_explorer::formats::pod::{read_pods_up_to, MAX_CLUSTER_TEXT};
    let mut from_notes = vec![];
    let c: Cluster = if from_pods {
        let read = read_pods_up_to(input, KubeletVersion::default(), MAX_CLUSTER_TEXT)?;
        let (node_classes, other_nodes, notes) =
            cluster::classes_from_pods(&read.pods, &Default::default());
        if node_classes.is_empty() {
            return Err("no node runs a crash-looping pod in this text: nothing reaches the API server from crash loops".into());
        }
        from_notes = notes;
        Cluster {
            node_classes,
            other_nodes,
            api_server: api_server_arg(api_server)?,
        }
    } else {
        serde_json::from_str(input).map_err(|e| format!("invalid cluster: {e}"))?
    };
    let want: Option<Constraints> = recommend
        .map(|w| serde_json::from_str(w).map_err(|e| format!("--recommend: {e}")))
        .transpose()?;
    let mut out = cluster::report(&c, compare, want.as_ref()).map_err(|e| {
        if e.contains(": not a curve (") {
            format!("--compare {e}")
        } else {
            e
        }
    })?;
    from_notes.append(&mut out.result.notes);
    out.result.notes = from_notes;
    serde_json::to_string_pretty(&out).map_err(|e| e.to_string())
}

/// `--api-server`'s JSON, as `cluster`'s "apiServer", checked; the default
/// API servers where it is not given.
#[cfg(not(target_arch = "wasm32"))]
fn api_server_arg(
    json: Option<&str>,
) -> Result<crashloop_explorer::engine::apf::ApiServer, String> {
    let Some(json) = json else {
        return Ok(Default::default());
    };
    let api: crashloop_explorer::engine::apf::ApiServer =
        serde_json::from_str(json).map_err(|e| format!("--api-server: {e}"))?;
    api.validate().map_err(|e| format!("--api-server: {e}"))?;
    Ok(api)
}

#[cfg(not(target_arch = "wasm32"))]
fn figure(link: &str, chart: &str, theme: &str) -> Result<String, String> {
    use crashloop_explorer::app::charts::figure_of_link;
    use crashloop_explorer::chart::{FontText, Kind, Look};
    use crashloop_explorer::inputs::Theme;

    let chart = Kind::parse(chart).ok_or_else(|| {
        format!(
            "--chart {}: not a chart (restarts, waits, load or windows)",
            quoted(chart)
        )
    })?;
    let dark = match Theme::parse(theme) {
        Some(Theme::Light) => false,
        Some(Theme::Dark) => true,
        _ => {
            return Err(format!(
                "--theme {}: a figure is light or dark",
                quoted(theme)
            ))
        }
    };
    let (svg, notices) = figure_of_link(link, chart, Look { scale: 1.0, dark }, &FontText);
    // A figure in a document must show what its author meant: whatever the
    // app would only warn about is an error here.
    if !notices.is_empty() {
        let lines: Vec<String> = notices
            .iter()
            .map(|n| format!("  {}: {}", n.key, n.message))
            .collect();
        return Err(format!(
            "--link: not used as written:\n{}",
            lines.join("\n")
        ));
    }
    Ok(svg)
}

#[cfg(not(target_arch = "wasm32"))]
fn prerender(dir: &std::path::Path) -> Result<(), String> {
    use crashloop_explorer::app::{charts::chart_data, state::State};
    use crashloop_explorer::chart::{FontText, Kind, Look};
    use crashloop_explorer::export::{
        figure_desc, prerendered_view, svg, PrerenderedChart, PRERENDER_ID, PRERENDER_MARKER,
    };
    use crashloop_explorer::inputs::{FIRST_VISIT_LINK, FIRST_VISIT_SHOWS};
    use crashloop_explorer::style::{integrity, with_integrity};

    let index = dir.join("index.html");
    let page = std::fs::read_to_string(&index)
        .map_err(|e| format!("prerender: reading {}: {e}", index.display()))?;
    let style = dir.join("style.css");
    if !style.is_file() {
        return Err(format!("prerender: {} is missing", style.display()));
    }
    let (link, notices) = crashloop_explorer::share::decode(FIRST_VISIT_LINK);
    if let Some(n) = notices.first() {
        return Err(format!(
            "prerender: the first view's link: {}: {}",
            n.key, n.message
        ));
    }
    let state = State::new(link.inputs);
    let desc = figure_desc(&state.shown);
    let kinds = [Kind::Restarts, Kind::Load];
    let names: Vec<(Kind, String, String)> = kinds
        .iter()
        .map(|&k| {
            let name = |theme: &str| format!("{PRERENDER_ID}-{}-{theme}.svg", k.name());
            (k, name("light"), name("dark"))
        })
        .collect();
    for (kind, light, dark) in &names {
        for (file, dark) in [(light, false), (dark, true)] {
            let data = chart_data(&state, Look { scale: 1.0, dark });
            std::fs::write(dir.join(file), svg(*kind, &data, &FontText, &desc))
                .map_err(|e| format!("prerender: writing {file}: {e}"))?;
        }
    }
    let charts: Vec<PrerenderedChart> = names
        .iter()
        .map(|(kind, light, dark)| PrerenderedChart {
            kind: *kind,
            light,
            dark,
        })
        .collect();
    let view = prerendered_view(
        &state.shown,
        &format!("Shown: {FIRST_VISIT_SHOWS}. Computed when this page was built: the controls appear when the explorer has loaded."),
        &charts,
    );
    let Some(at) = page.find(PRERENDER_MARKER) else {
        return Err(format!(
            "prerender: {} has no {PRERENDER_MARKER} marker in its <body>",
            index.display()
        ));
    };
    let mut out = page.clone();
    out.replace_range(at..at + PRERENDER_MARKER.len(), &view);
    let out = crashloop_explorer::export::without_comments(&out);
    // The page's stylesheet as the wasm carries it (minified, one text), and
    // its link's integrity to match.
    let sheet = crashloop_explorer::style::STYLESHEET;
    let out = with_integrity(&out, "style.css", &integrity(sheet.as_bytes()))
        .map_err(|e| format!("prerender: {}: {e}", index.display()))?;
    std::fs::write(&style, sheet)
        .map_err(|e| format!("prerender: writing {}: {e}", style.display()))?;
    std::fs::write(&index, out).map_err(|e| format!("prerender: writing {}: {e}", index.display()))
}
