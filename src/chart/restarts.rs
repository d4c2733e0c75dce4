//! Cumulative restarts of one pod over time.

use super::prelude::*;

/// Cumulative restarts against elapsed time, with the live scenario's jitter band.
pub fn draw_restarts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
) -> DrawResult<DB> {
    let h = d.horizon_ms();
    let mut lines = vec![Line::reference(restart_steps(
        &d.reference.restarts_at_ms,
        h,
    ))];
    lines.extend(
        d.series
            .iter()
            .enumerate()
            .map(|(i, s)| Line::of(s.label, i, restart_steps(&s.timeline.restarts_at_ms, h))),
    );
    let band = d
        .series
        .first()
        .and_then(|s| s.timeline.band.as_ref())
        .map(|b| {
            let pts = b
                .times_ms
                .iter()
                .zip(b.min.iter().zip(&b.max))
                .map(|(&t, (&lo, &hi))| (t as f64 / 1000.0, lo as f64, hi as f64))
                .collect();
            (PALETTE[0], JITTER_LABEL, pts)
        });
    draw_lines(
        area,
        d.look,
        "Restarts over time (one pod)",
        "elapsed time",
        "restarts",
        true,
        h as f64 / 1000.0,
        lines,
        Extras {
            band,
            dots: gc_dots(d, |i, at| (at as f64 / 1000.0, (i + 1) as f64)),
            now: d
                .marker_ms
                .map(|m| (m as f64 / 1000.0, NOW_LABEL.to_owned())),
            y_counts: true,
            ..Default::default()
        },
    )
}
