//! The wait before each restart, by restart number.

use super::prelude::*;

pub(super) fn delay_points(t: &Timeline) -> Vec<(f64, f64)> {
    fold_times(&t.delays_ms, 1.0, 1.0, |d| d as f64 / 1000.0)
}

/// The wait before each restart, by restart number.
pub fn draw_delays<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
) -> DrawResult<DB> {
    let n = d
        .series
        .iter()
        .map(|s| s.timeline.delays_ms.len())
        .chain(std::iter::once(d.reference.delays_ms.len()))
        .max()
        .unwrap_or(0);
    let mut lines = vec![Line::reference(delay_points(d.reference))];
    lines.extend(
        d.series
            .iter()
            .enumerate()
            .map(|(i, s)| Line::of(s.label, i, delay_points(s.timeline))),
    );
    draw_lines(
        area,
        d.look,
        "Wait before each restart (seconds)",
        "restart number",
        "wait (s)",
        false,
        n.max(2) as f64,
        lines,
        Extras {
            dots: d.series.first().and_then(|s| {
                let delays = &s.timeline.delays_ms;
                gc_dots(d, |i, _| {
                    (
                        (i + 1) as f64,
                        delays.get(i).map_or(0.0, |w| w as f64 / 1000.0),
                    )
                })
            }),
            x_counts: true,
            ..Default::default()
        },
    )
}
