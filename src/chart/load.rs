//! The node's `/pods` requests per 10 s window, offered and admitted.

use super::prelude::*;

pub(super) fn window_points(t: &Timeline, values: &[u64]) -> Vec<(f64, f64)> {
    fold_shown(values, 0.0, t.window_ms as f64 / 1000.0, |r| r as f64)
}

/// `/pods` status requests per 10-second window for the node: offered and
/// admitted by the client rate limiter, for the live scenario and today's default.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
) -> DrawResult<DB> {
    let mut lines = vec![Line::reference(window_points(
        d.reference,
        &d.reference.node_requests_per_window,
    ))];
    let mut extras = Extras {
        now: d
            .marker_ms
            .map(|m| (m as f64 / 1000.0, NOW_LABEL.to_owned())),
        ..Extras::default()
    };
    if let Some(live) = d.series.first() {
        let t = live.timeline;
        lines.push(Line::of(
            format!("{} (offered)", live.label),
            0,
            window_points(t, &t.node_requests_per_window),
        ));
        lines.push(Line {
            label: "admitted by the client rate limiter".into(),
            color: ADMITTED,
            width: 1.0,
            dash: (0, 0),
            points: window_points(t, &t.api.admitted_per_window),
        });
        let window_s = t.window_ms as f64 / 1000.0;
        extras.limit = Some((
            f64::from(t.api.qps) * window_s,
            format!("kubeAPIQPS {} × 10 s", t.api.qps),
        ));
        // The windows where the limit binds.
        extras.marks = marked_spans(windows_flagged(&t.api.max_queue_delay_ms, window_s, |&d| {
            d > 0
        }));
    }
    draw_lines(
        area,
        d.look,
        "Node /pods status requests per 10 s (red marks: the rate limit binds)",
        "elapsed time",
        "requests / 10 s",
        true,
        d.horizon_ms() as f64 / 1000.0,
        lines,
        extras,
    )
}
