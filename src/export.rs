//! What the explorer hands out: the series as CSV, the charts as SVG (the
//! same drawing code as the canvas), and the configuration as it is deployed.

use plotters::prelude::*;

use crate::chart::{ChartData, Kind, MeasureText, Measured};
use crate::engine::config::KubeletConfig;
use crate::engine::duration::{format_count, format_human_ms};
use crate::engine::sent::load_window;
use crate::engine::windows::FIRST_MINUTES_MS;
use crate::engine::{Counts, Summary};
use crate::engine::{
    Exploration, Timeline, KUBELET_CRASH_LOOP_BACK_OFF_MAX,
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
use crate::engine::{Ms, NodeRequests, RequestKind, RequestsByKind};

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

fn timeline_rows(out: &mut String, who: &str, t: &Timeline) {
    for (i, (at, wait)) in t.restarts_at_ms.iter().zip(t.delays_ms.iter()).enumerate() {
        out.push_str(&format!(
            // As many fields as the header: a restart has no requests.
            "{who},restart,{},{},{},,,,,,\n",
            i + 1,
            seconds(at),
            seconds(wait)
        ));
    }
    let mut i = 0;
    while let Some(w) = load_window(t, i) {
        i += 1;
        // The kinds offered (kubelet model; empty for the KEP's flat count).
        let kinds: Vec<String> = RequestKind::ALL
            .iter()
            .map(|&k| w.by_kind.map_or_else(String::new, |b| b.get(k).to_string()))
            .collect();
        out.push_str(&format!(
            "{who},window,{i},{},{},{},{}\n",
            seconds(w.from_ms),
            w.offered,
            w.sent,
            kinds.join(",")
        ));
    }
}

/// Restart times and waits, and the node's requests per window (offered,
/// sent, and offered by kind), for this configuration and today's default.
/// One row per restart or window.
pub fn csv(e: &Exploration) -> String {
    let mut out = String::from("scenario,series,number,time_s,wait_s_or_offered,sent");
    for k in RequestKind::ALL {
        out.push(',');
        out.push_str(k.name());
    }
    out.push('\n');
    timeline_rows(&mut out, crate::chart::LIVE_LABEL, &e.timeline);
    timeline_rows(&mut out, "today's default", &e.reference);
    out
}

/// One chart as an SVG document, its text measured by `measure` (in a
/// browser, not plotters' own way: see `MeasureText`).
/// The chart as an SVG document: titled with what it shows and described
/// by `desc` (e.g. `figure_desc`), so a figure on a page has alt text.
pub fn svg(chart: Kind, data: &ChartData, measure: &dyn MeasureText, desc: &str) -> String {
    let mut out = String::new();
    {
        let backend = SVGBackend::with_string(&mut out, (720, chart.heights().0));
        let area = Measured { backend, measure }.into_drawing_area();
        if let Err(e) = chart.draw(&area, data) {
            return format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><text y=\"20\">{}</text></svg>",
                escape(&e.to_string())
            );
        }
    }
    // The accessible name and description go first inside the root element.
    if let Some(end) = out.find('>') {
        let about = format!(
            "\n<title>{}</title>\n<desc>{}</desc>",
            escape(chart.alt()),
            escape(desc)
        );
        out.insert_str(end + 1, &about);
    }
    out
}

/// The two windows every figure is given for: the first five minutes (or
/// the whole horizon when it is shorter) and the horizon.
pub fn window_labels(horizon_ms: Ms) -> (String, String) {
    let horizon = format_human_ms(horizon_ms);
    let first = if horizon_ms <= FIRST_MINUTES_MS {
        format!("first {horizon}")
    } else {
        format!("first {}", format_human_ms(FIRST_MINUTES_MS))
    };
    (first, horizon)
}

/// One of the headline figures: what it counts, over which window, the
/// figure, and how far it is from today's default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadlineFigure {
    /// `head-{id}` and `head-excess-{id}` in the page.
    pub id: &'static str,
    pub label: String,
    pub value: i64,
    pub excess: String,
    /// The same in brief: "(+1,760)", "(same)".
    pub excess_short: String,
    /// The requests by kind (kubelet model): status, events sent, dropped.
    pub split: Option<String>,
}

/// The figures that answer the question, first on the page: restarts per
/// pod and the node's /pods requests, in the first minutes and over the
/// horizon, each against today's default. The app's strip and the page
/// prerendered at build time both show these.
pub fn headline(e: &Exploration) -> Vec<HeadlineFigure> {
    let (first, horizon) = window_labels(e.timeline.horizon_ms);
    type Pick = fn(&Counts) -> i64;
    let figures: [(&str, &str, Pick, bool); 4] = [
        (
            "restarts-5m",
            "Restarts per pod",
            |c| c.restarts_per_pod,
            true,
        ),
        (
            "restarts-all",
            "Restarts per pod",
            |c| c.restarts_per_pod,
            false,
        ),
        ("requests-5m", REQUESTS_SENT, Counts::requests_sent, true),
        ("requests-all", REQUESTS_SENT, Counts::requests_sent, false),
    ];
    figures
        .into_iter()
        .map(|(id, what, pick, first5)| {
            let counts = |s: &Summary| if first5 { s.first5m } else { s.horizon };
            let of = |s: &Summary| pick(&counts(s));
            let excess = of(&e.excess);
            HeadlineFigure {
                id,
                label: format!("{what}, {}", if first5 { &first } else { &horizon }),
                split: Some(counts(&e.summary))
                    .filter(|_| id.starts_with("requests"))
                    .map(|c| requests_in_brief(&c.node_requests, c.requests_by_kind)),
                value: of(&e.summary),
                excess_short: if excess == 0 {
                    "(same)".to_owned()
                } else {
                    format!("({})", signed_count(excess))
                },
                excess: if excess == 0 {
                    "same as today's default".to_owned()
                } else {
                    format!("{} against today's default", signed_count(excess))
                },
            }
        })
        .collect()
}

/// What every view calls the requests that reached the API server.
pub const REQUESTS_SENT: &str = "/pods requests sent, node";

/// A count with its sign: "+1,024", "-3".
pub fn signed_count(n: i64) -> String {
    if n > 0 {
        format!("+{}", format_count(n))
    } else {
        format_count(n)
    }
}

/// The requests behind a "sent" figure, in a few words: by client where the
/// kubelet has two, then what was offered and still queued, and the events
/// the spam filter kept back: "3,100 status · 700 events; of 12,980
/// offered, 9,180 still queued; 567 events dropped by the spam filter".
pub fn requests_in_brief(r: &NodeRequests, offered: Option<RequestsByKind>) -> String {
    let mut parts = vec![];
    if let Some(events) = r.events {
        parts.push(format!(
            "{} status · {} events",
            format_count(r.status.sent),
            format_count(events.sent)
        ));
    }
    parts.push(format!(
        "of {} offered, {} still queued",
        format_count(r.offered),
        match r.queued {
            0 => "none".to_owned(),
            n => format_count(n),
        }
    ));
    if let Some(k) = offered.filter(|k| k.dropped_events > 0) {
        parts.push(format!(
            "{} events dropped by the spam filter",
            format_count(k.dropped_events)
        ));
    }
    parts.join("; ")
}

/// The headline figures in a sentence: a chart's description.
pub fn figure_desc(e: &Exploration) -> String {
    let (first, horizon) = window_labels(e.timeline.horizon_ms);
    let (s, r) = (&e.summary, &e.reference_summary);
    format!(
        "This configuration: {} restarts per pod over {horizon} ({} in the {first}); {} /pods requests from the node reach the API server over {horizon} ({} in the {first}). Today's default: {} restarts per pod ({}), {} requests sent ({}).",
        s.horizon.restarts_per_pod,
        s.first5m.restarts_per_pod,
        format_count(s.horizon.requests_sent()),
        format_count(s.first5m.requests_sent()),
        r.horizon.restarts_per_pod,
        r.first5m.restarts_per_pod,
        format_count(r.horizon.requests_sent()),
        format_count(r.first5m.requests_sent()),
    )
}

/// Text made safe for HTML and SVG content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's lede, around the `/pods` in code: the app's header and the
/// prerendered first view say the same, so the reader sees no jump.
pub const LEDE: [&str; 3] = [
    "How a crash-looping container restarts under CrashLoopBackOff, the ",
    "/pods",
    " status and event load a node of them makes, and how a Job's pod failures play out. Move a control; everything redraws.",
];

/// Where the built page's `<body>` takes the prerendered first view.
pub const PRERENDER_MARKER: &str = "<!-- prerender -->";
/// The page as it ships: its comments (notes for whoever reads the source)
/// dropped, each with the
/// indentation and line it stood on alone, the prerender marker kept.
/// An unclosed comment is left as it is.
pub fn without_comments(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(start) = rest.find("<!--") {
        let Some(len) = rest[start..].find("-->").map(|end| end + "-->".len()) else {
            break;
        };
        let comment = &rest[start..start + len];
        if comment == PRERENDER_MARKER {
            out.push_str(&rest[..start + len]);
            rest = &rest[start + len..];
            continue;
        }
        let before = &rest[..start];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let alone = before[line_start..].trim().is_empty() && rest[start + len..].starts_with('\n');
        if alone {
            out.push_str(&before[..line_start]);
            rest = &rest[start + len + 1..];
        } else {
            out.push_str(before);
            rest = &rest[start + len..];
        }
    }
    out.push_str(rest);
    out
}

/// The prerendered view's element, which the app removes when it mounts.
pub const PRERENDER_ID: &str = "prerender";

/// A chart drawn at build time, as files beside the page: light and dark.
pub struct PrerenderedChart<'a> {
    pub kind: Kind,
    pub light: &'a str,
    pub dark: &'a str,
}

/// The first view as static HTML, for the built `index.html`: what the
/// reader sees before the wasm has loaded and run, and without JavaScript.
/// The page's header (which stays), then, until the app replaces them, the
/// headline figures and the charts as images (the dark one when the system
/// is dark), each described by the figures.
pub fn prerendered_view(e: &Exploration, shows: &str, charts: &[PrerenderedChart]) -> String {
    let mut html = format!(
        // The page's header stays when the app mounts (it renders the rest),
        // so what the reader saw first does not disappear and come back.
        "<header class=\"app page-header\"><h1>crashloop-explorer</h1>\n<p class=\"lede\">{}<code>{}</code>{}</p></header>\n<main class=\"app prerendered\" id=\"{PRERENDER_ID}\" aria-busy=\"true\">\n<p class=\"hint\">{}</p>\n<dl class=\"headline\">\n",
        escape(LEDE[0]),
        escape(LEDE[1]),
        escape(LEDE[2]),
        escape(shows)
    );
    for f in headline(e) {
        let split = f.split.map_or(String::new(), |s| {
            format!("<dd class=\"split\">{}</dd>", escape(&s))
        });
        html.push_str(&format!(
            "<div><dt>{}</dt><dd class=\"figure\">{}</dd><dd class=\"excess\">{}</dd>{split}</div>\n",
            escape(&f.label),
            format_count(f.value),
            escape(&f.excess)
        ));
    }
    html.push_str("</dl>\n<div class=\"prerendered-charts\">\n");
    let desc = figure_desc(e);
    // The largest paint's images at high priority from the start: Chromium
    // asks for an image at low priority until layout finds it in sight.
    for c in charts {
        html.push_str(&format!(
            "<picture><source srcset=\"{}\" media=\"(prefers-color-scheme: dark)\"><img src=\"{}\" fetchpriority=\"high\" width=\"720\" height=\"{}\" alt=\"{}. {}\"></picture>\n",
            escape(c.dark),
            escape(c.light),
            c.kind.heights().0,
            escape(c.kind.alt()),
            escape(&desc)
        ));
    }
    html.push_str("</div>\n</main>");
    html
}

/// The gates set that decide the curve, in name order (others are not written out).
fn curve_gates(c: &KubeletConfig) -> impl Iterator<Item = (&str, bool)> {
    c.feature_gates.iter().filter(|(g, _)| {
        *g == REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY || *g == KUBELET_CRASH_LOOP_BACK_OFF_MAX
    })
}

/// The KubeletConfiguration a node needs for this configuration.
pub fn kubelet_configuration_yaml(c: &KubeletConfig) -> String {
    let mut y =
        String::from("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n");
    let gates: Vec<(&str, bool)> = curve_gates(c).collect();
    if !gates.is_empty() {
        y.push_str("featureGates:\n");
        for (g, on) in gates {
            y.push_str(&format!("  {g}: {on}\n"));
        }
    }
    if let Some(p) = &c.crash_loop_back_off.max_container_restart_period {
        // A JSON string is a valid YAML scalar, whatever was typed.
        y.push_str(&format!(
            "crashLoopBackOff:\n  maxContainerRestartPeriod: {}\n",
            crate::formats::json::to_string(p).unwrap_or_default()
        ));
    }
    y
}

/// The same gates as the kubelet's `--feature-gates` flag (the max period has no flag).
pub fn feature_gates_flag(c: &KubeletConfig) -> Option<String> {
    let gates: Vec<String> = curve_gates(c).map(|(g, on)| format!("{g}={on}")).collect();
    (!gates.is_empty()).then(|| format!("--feature-gates={}", gates.join(",")))
}
