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
    let mut caption = "Node /pods status requests per 10 s (red marks: the rate limit binds)";
    if let Some(live) = d.series.first() {
        let t = live.timeline;
        let window_s = t.window_ms as f64 / 1000.0;
        let binding = |api: &ApiLoad| {
            marked_spans(windows_flagged(&api.max_queue_delay_ms, window_s, |&d| {
                d > 0
            }))
        };
        extras.marks = binding(&t.api);
        match (&t.requests, &t.event_api) {
            (Some(r), Some(events)) => {
                caption = "Node requests per 10 s, by kind (marks: a client rate limit binds)";
                stack_kinds(t, r, &mut lines, &mut extras);
                // Bucket means where the kinds are (a day's windows).
                lines.push(admitted(fold_mean(&t.admitted_per_window(), 0.0, window_s)));
                extras.marks2 = Some((EVENT_LIMIT, "eventRecordQPS binds", binding(events)));
            }
            _ => {
                lines.push(Line::of(
                    format!("{} (offered)", live.label),
                    0,
                    window_points(t, &t.node_requests_per_window),
                ));
                lines.push(admitted(window_points(t, &t.api.admitted_per_window)));
            }
        }
        extras.limit = Some((
            f64::from(t.api.qps) * window_s,
            format!("kubeAPIQPS {} × 10 s", t.api.qps),
        ));
    }
    draw_lines(
        area,
        d.look,
        caption,
        "elapsed time",
        "requests / 10 s",
        true,
        d.horizon_ms() as f64 / 1000.0,
        lines,
        extras,
    )
}

fn admitted(points: Vec<(f64, f64)>) -> Line {
    Line {
        label: "admitted by the client rate limiters".into(),
        color: ADMITTED,
        width: 1.0,
        dash: (0, 0),
        points,
    }
}

/// The kinds sent as stacked areas, bottom first, and the events the spam
/// filter dropped as a dashed line above them (never sent).
fn stack_kinds(t: &Timeline, r: &RequestsTimeline, lines: &mut Vec<Line>, extras: &mut Extras) {
    let n = t.node_requests_per_window.len();
    let window_s = t.window_ms as f64 / 1000.0;
    // A day's windows are drawn as bucket means, which add up; the peaks
    // show as a line of their own.
    let folded = n > MAX_POINTS;
    let points = |v: &[u64]| fold_mean(v, 0.0, window_s);
    let mut below = vec![0u64; n];
    for k in RequestKind::ALL {
        let mut top = below.clone();
        top.iter_mut().zip(r.windows(k)).for_each(|(a, b)| *a += b);
        if k.sent() {
            let lo = points(&below);
            let hi = points(&top);
            let band = lo.iter().zip(&hi).map(|(l, h)| (l.0, l.1, h.1)).collect();
            extras
                .stack
                .push((KIND_COLORS[k as usize], k.label(), band));
        } else if r.spam_filter_binds() {
            lines.push(Line {
                label: "+ events the spam filter dropped (not sent)".into(),
                color: KIND_COLORS[k as usize],
                width: 1.5,
                dash: (4, 3),
                points: points(&top),
            });
        }
        below = top;
    }
    if folded {
        lines.push(Line {
            label: "all sent, the busiest 10 s of each stretch".into(),
            color: KIND_COLORS[RequestKind::GetPods as usize],
            width: 1.0,
            dash: (0, 0),
            points: window_points(t, &t.node_requests_per_window),
        });
    }
}
