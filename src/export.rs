//! What the explorer hands out: the series as CSV, the charts as SVG (the
//! same drawing code as the canvas), and the configuration as it is deployed.

use plotters::prelude::*;

use crate::chart::{ChartData, Kind, MeasureText, Measured};
use crate::engine::config::KubeletConfig;
use crate::engine::{
    Exploration, Timeline, KUBELET_CRASH_LOOP_BACK_OFF_MAX,
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

fn timeline_rows(out: &mut String, who: &str, t: &Timeline) {
    for (i, (at, wait)) in t.restarts_at_ms.iter().zip(&t.delays_ms).enumerate() {
        out.push_str(&format!(
            // As many fields as the header: a restart has no "admitted".
            "{who},restart,{},{},{},\n",
            i + 1,
            seconds(*at),
            seconds(*wait)
        ));
    }
    for (i, (offered, admitted)) in t
        .node_requests_per_window
        .iter()
        .zip(&t.api.admitted_per_window)
        .enumerate()
    {
        let start = i as u64 * t.window_ms;
        out.push_str(&format!(
            "{who},window,{},{},{offered},{admitted}\n",
            i + 1,
            seconds(start)
        ));
    }
}

/// Restart times and waits, and the node's requests per window, for this
/// configuration and today's default. One row per restart or window.
pub fn csv(e: &Exploration) -> String {
    let mut out = String::from("scenario,series,number,time_s,wait_s_or_offered,admitted\n");
    timeline_rows(&mut out, crate::chart::LIVE_LABEL, &e.timeline);
    timeline_rows(&mut out, "today's default", &e.reference);
    out
}

/// One chart as an SVG document, its text measured by `measure` (in a
/// browser, not plotters' own way: see `MeasureText`).
pub fn svg(chart: Kind, data: &ChartData, measure: &dyn MeasureText) -> String {
    let mut out = String::new();
    {
        let backend = SVGBackend::with_string(&mut out, (720, 300));
        let area = Measured { backend, measure }.into_drawing_area();
        if let Err(e) = chart.draw(&area, data) {
            return format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><text y=\"20\">{}</text></svg>",
                escape(&e.to_string())
            );
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The KubeletConfiguration a node needs for this configuration.
pub fn kubelet_configuration_yaml(c: &KubeletConfig) -> String {
    let mut y =
        String::from("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n");
    let gates: Vec<(&String, &bool)> = c
        .feature_gates
        .iter()
        .filter(|(g, _)| {
            *g == REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY || *g == KUBELET_CRASH_LOOP_BACK_OFF_MAX
        })
        .collect();
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
            serde_json::to_string(p).unwrap_or_default()
        ));
    }
    y
}

/// The same gates as the kubelet's `--feature-gates` flag (the max period has no flag).
pub fn feature_gates_flag(c: &KubeletConfig) -> Option<String> {
    let gates: Vec<String> = c
        .feature_gates
        .iter()
        .filter(|(g, _)| {
            *g == REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY || *g == KUBELET_CRASH_LOOP_BACK_OFF_MAX
        })
        .map(|(g, on)| format!("{g}={on}"))
        .collect();
    (!gates.is_empty()).then(|| format!("--feature-gates={}", gates.join(",")))
}
