//! The JS API's module, `crashloop-explorer.js` (Trunk's main entry):
//! the library's JS exports. The app's own page loads a leaner module
//! without them (src/bin/page.rs). Natively, a command line: the bare
//! binary reads a Scenario as JSON on standard input and prints the
//! exploration; `pod` reads a pod as kubectl prints it and says where each
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

#[cfg(not(target_arch = "wasm32"))]
const HELP: &str = "\
crashloop-explorer: Kubernetes CrashLoopBackOff, computed

USAGE:
    crashloop-explorer < scenario.json
        Reads a Scenario (JSON) and prints its exploration (JSON).
    crashloop-explorer pod [--now RFC3339] [--version 1.37] [--config KUBELET_CONFIG_JSON] < pod
        Reads one pod as `kubectl get pod NAME -o yaml` (or -o json, or a List of
        pods: the first in CrashLoopBackOff is taken) or `kubectl describe pod NAME`
        prints it, and prints, per container, the backoff now, the next restart
        (earliest and latest), the last crash interval and exit code, when a run
        resets the curve, and what other configurations would do, as JSON (times in
        RFC 3339, UTC; nextRestartAt is null when no restart is coming).
    crashloop-explorer figure --link QUERY --chart CHART [--theme light|dark] > fig.svg
        Draws one chart of the state a link describes (the query string the app
        writes, e.g. 'v=1.37&m=kep&i=1s') as SVG, through the app's own drawing
        code: for pages that cannot run the app, for print, and as the fallback
        inside <crashloop-explorer>. CHART is restarts, waits, load or windows.
        Any part of the link the app would not use is an error.
    crashloop-explorer prerender DIR
        Writes the app's first view into DIR/index.html (a built page with the
        `<!-- prerender -->` marker): the headline figures, and the restart and
        load charts as SVG files beside it, light and dark, so that the page
        shows them before the wasm has run, and without JavaScript. The build
        runs it (Trunk's post_build hook, scripts/prerender.sh).
    crashloop-explorer --help

OPTIONS (pod):
    --now RFC3339        the moment to diagnose at (default: now)
    --version V          the kubelet's version, 1.31 to 1.37 (default 1.37)
    --config JSON        the node's KubeletConfiguration parts, e.g.
                         '{\"featureGates\":{\"KubeletCrashLoopBackOffMax\":true},
                           \"crashLoopBackOff\":{\"maxContainerRestartPeriod\":\"60s\"}}'

EXIT CODES: 0 done, 2 the input or an option is not what it should be.
";

#[cfg(not(target_arch = "wasm32"))]
use crashloop_explorer::engine::field::quoted;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::io::Read;
    use std::process::ExitCode;

    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return out(HELP);
    }
    // The figure and the prerender read no standard input.
    let command = args.first().map(String::as_str);
    if matches!(command, Some("figure" | "prerender")) {
        let done = if command == Some("figure") {
            figure(&args[1..])
        } else {
            prerender(&args[1..]).map(|()| String::new())
        };
        return match done {
            Ok(svg) => out(&svg),
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        };
    }
    let mut input = String::new();
    // One pod is a few KB; read a little over the limit to say so.
    let limit = crashloop_explorer::formats::pod::MAX_POD_TEXT as u64 + 1;
    if let Err(e) = std::io::stdin().take(limit * 4).read_to_string(&mut input) {
        eprintln!("reading standard input: {e}");
        return ExitCode::FAILURE;
    }
    let result = match args.first().map(String::as_str) {
        None => scenario(&input),
        Some("pod") => pod(&args[1..], &input),
        Some(other) => Err(format!("unknown command {}: see --help", quoted(other))),
    };
    match result {
        Ok(json) => out(&format!("{json}\n")),
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

#[cfg(not(target_arch = "wasm32"))]
fn pod(args: &[String], input: &str) -> Result<String, String> {
    use crashloop_explorer::engine::config::{resolve, KubeletConfig, KubeletVersion};
    use crashloop_explorer::engine::pod::{diagnose, NodeAssumption};
    use crashloop_explorer::formats::pod::{diagnosis_json, parse_pod};
    use crashloop_explorer::formats::time::parse_rfc3339;

    let mut now = None;
    let mut version = KubeletVersion::default();
    let mut config = KubeletConfig::default();
    for (flag, value) in flag_values(args)? {
        match flag {
            "--now" => now = Some(parse_rfc3339(value)?),
            "--version" => {
                version = KubeletVersion::parse(value).ok_or_else(|| {
                    format!(
                        "--version {}: not a modelled kubelet version (1.31 to 1.37)",
                        quoted(value)
                    )
                })?
            }
            "--config" => {
                config = serde_json::from_str(value)
                    .map_err(|e| format!("--config: not a KubeletConfiguration: {e}"))?
            }
            other => return Err(format!("unknown option {}: see --help", quoted(other))),
        }
    }
    config.kubelet_version = Some(version);
    let backoff = resolve(&config).map_err(|e| e.to_string())?;
    let label = format!(
        "kubelet {} with this configuration ({} / {})",
        version.name(),
        crashloop_explorer::engine::duration::format_human_ms(backoff.initial_ms),
        crashloop_explorer::engine::duration::format_human_ms(backoff.max_ms)
    );
    let now = match now {
        Some(t) => t,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    };
    let (pod, mut notes) = parse_pod(input, version)?;
    let node = NodeAssumption {
        backoff,
        version,
        label,
    };
    let mut d = diagnose(&pod, &node, now);
    notes.append(&mut d.notes);
    d.notes = notes;
    serde_json::to_string_pretty(&diagnosis_json(&d)).map_err(|e| e.to_string())
}

#[cfg(not(target_arch = "wasm32"))]
fn figure(args: &[String]) -> Result<String, String> {
    use crashloop_explorer::app::charts::figure_of_link;
    use crashloop_explorer::chart::{FontText, Kind, Look};
    use crashloop_explorer::inputs::Theme;

    let (mut link, mut chart, mut dark) = (None, None, false);
    for (flag, value) in flag_values(args)? {
        match flag {
            "--link" => link = Some(value.to_owned()),
            "--chart" => {
                chart = Some(Kind::parse(value).ok_or_else(|| {
                    format!(
                        "--chart {}: not a chart (restarts, waits, load or windows)",
                        quoted(value)
                    )
                })?)
            }
            "--theme" => {
                dark = match Theme::parse(value) {
                    Some(Theme::Light) => false,
                    Some(Theme::Dark) => true,
                    _ => {
                        return Err(format!(
                            "--theme {}: a figure is light or dark",
                            quoted(value)
                        ))
                    }
                }
            }
            other => return Err(format!("unknown option {}: see --help", quoted(other))),
        }
    }
    let chart = chart.ok_or("figure needs --chart (restarts, waits, load or windows)")?;
    let link = link.ok_or("figure needs --link (a query string, e.g. 'v=1.37&m=kep&i=1s')")?;
    let (svg, notices) = figure_of_link(&link, chart, Look { scale: 1.0, dark }, &FontText);
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
fn prerender(args: &[String]) -> Result<(), String> {
    use crashloop_explorer::app::{charts::chart_data, state::State};
    use crashloop_explorer::chart::{FontText, Kind, Look};
    use crashloop_explorer::export::{
        figure_desc, prerendered_view, svg, PrerenderedChart, PRERENDER_ID, PRERENDER_MARKER,
    };
    use crashloop_explorer::inputs::{FIRST_VISIT_LINK, FIRST_VISIT_SHOWS};
    use crashloop_explorer::style::{integrity, with_integrity};
    use std::path::Path;

    let [dir] = args else {
        return Err("prerender needs the built site's directory: prerender DIR".into());
    };
    let dir = Path::new(dir);
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

/// `--flag value` pairs, in order; a flag without its value is an error.
#[cfg(not(target_arch = "wasm32"))]
fn flag_values(args: &[String]) -> Result<Vec<(&str, &str)>, String> {
    args.chunks(2)
        .map(|pair| {
            // A chunk is never empty.
            let flag = pair[0].as_str();
            pair.get(1)
                .map(|value| (flag, value.as_str()))
                .ok_or_else(|| format!("{flag} needs a value: see --help"))
        })
        .collect()
}
