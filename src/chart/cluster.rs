//! The cluster view's charts: the `system` level's seats busy over time,
//! and each goal over `maxContainerRestartPeriod`.

use super::prelude::*;
use crate::engine::cluster::{ClusterResult, Constraints, Recommendation};
use crate::engine::cluster_view::ClusterShown;

/// Per cent of a goal above which the setting chart stops (a 1 s cap
/// against a 5 min goal would flatten every other line).
const GOAL_CAP_PERCENT: f64 = 300.0;
const FEASIBLE: RGBColor = RGBColor(0x2c, 0xa0, 0x2c);

/// Seats busy per 10 s window: requests per second × seconds per request.
fn seats_points(r: &ClusterResult, seconds_per_request: f64) -> Vec<(f64, f64)> {
    let window_s = r.window_ms as f64 / 1000.0;
    fold_shown(&r.requests_per_window, 0.0, window_s, |n| {
        n as f64 / window_s * seconds_per_request
    })
}

/// The `system` level's seats busy over time, over all API server replicas:
/// today's default, the live setting and each compared curve, against the
/// level's nominal seats.
pub fn draw_cluster_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    shown: &ClusterShown,
    seconds_per_request: f64,
    look: Look,
) -> DrawResult<DB> {
    let points = |r| seats_points(r, seconds_per_request);
    let mut lines = vec![Line::reference(points(&shown.todays_default))];
    lines.push(Line::of(LIVE_LABEL, 0, points(&shown.live)));
    lines.extend(
        shown
            .compared
            .iter()
            .enumerate()
            .map(|(i, (label, r))| Line::of(*label, i + 1, points(r))),
    );
    let live = &shown.live;
    let window_s = live.window_ms as f64 / 1000.0;
    let seats = f64::from(live.system_seats);
    let marks = marked_spans(windows_flagged(&live.requests_per_window, window_s, |&n| {
        n as f64 / window_s * seconds_per_request > seats
    }));
    let span_s = [&shown.todays_default, live]
        .into_iter()
        .chain(shown.compared.iter().map(|(_, r)| r))
        .map(|r| r.requests_per_window.len())
        .max()
        .unwrap_or(1) as f64
        * window_s;
    draw_lines(
        area,
        look,
        "The system level's seats busy, all API servers (red marks: over its seats)",
        "elapsed time",
        "seats busy",
        true,
        span_s,
        lines,
        Extras {
            limit: Some((
                f64::from(live.system_seats),
                format!("system level: {} seats", live.system_seats),
            )),
            marks,
            ..Extras::default()
        },
    )
}

/// Each goal the user set, as a per cent of the goal, over the values of
/// `maxContainerRestartPeriod` weighed: a goal holds at or below 100 %.
/// Shaded: where every goal holds; red marks: where a kubelet's rate
/// limiter binds; the line: the recommended value.
pub fn draw_setting<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rec: &Recommendation,
    want: &Constraints,
    look: Look,
) -> DrawResult<DB> {
    let x = |ms: Ms| ms as f64 / 1000.0;
    let capped = |p: f64| p.min(GOAL_CAP_PERCENT);
    let mut lines = vec![];
    if let Some(within) = want.restart_within_ms.filter(|&w| w > 0) {
        lines.push(Line::of(
            format!(
                "wait after {} crashes in a row, % of {}",
                want.crashes,
                crate::engine::duration::format_human_ms(within)
            ),
            0,
            rec.candidates
                .iter()
                .map(|c| {
                    (
                        x(c.max_ms),
                        capped(100.0 * c.wait_ms as f64 / within as f64),
                    )
                })
                .collect(),
        ));
    }
    if let Some(busy) = want.max_system_busy_percent {
        lines.push(Line::of(
            format!("system level busy at peak, % of {busy} %"),
            1,
            rec.candidates
                .iter()
                .map(|c| (x(c.max_ms), capped(100.0 * c.busy_percent / busy)))
                .collect(),
        ));
    } else {
        lines.push(Line::of(
            "system level busy at peak, % of its seats",
            1,
            rec.candidates
                .iter()
                .map(|c| (x(c.max_ms), capped(c.busy_percent)))
                .collect(),
        ));
    }
    // Each value marks the stretch from the value before it.
    let starts = std::iter::once(0.0).chain(rec.candidates.iter().map(|c| x(c.max_ms)));
    let marks = marked_spans(
        starts
            .zip(&rec.candidates)
            .map(|(from, c)| ((from, x(c.max_ms)), !c.limiter_ok)),
    );
    let x_max = rec.candidates.last().map_or(300.0, |c| x(c.max_ms));
    let band = rec.feasible_ms.map(|(lo, hi)| {
        let top = GOAL_CAP_PERCENT.min(
            lines
                .iter()
                .map(|l| max_of(&l.points))
                .fold(100.0, f64::max),
        );
        (
            FEASIBLE,
            "every goal holds",
            vec![(x(lo), 0.0, top), (x(hi), 0.0, top)],
        )
    });
    draw_lines(
        area,
        look,
        "Each goal over maxContainerRestartPeriod (≤ 100 %: it holds)",
        "maxContainerRestartPeriod (s)",
        "% of the goal (300 at most)",
        false,
        x_max,
        lines,
        Extras {
            band,
            limit: Some((100.0, "the goal".into())),
            marks,
            now: rec.recommended_ms.map(|m| {
                (
                    x(m),
                    format!(
                        "recommended: {}",
                        crate::engine::duration::format_human_ms(m)
                    ),
                )
            }),
            ..Extras::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{FontText, Measured};
    use crate::engine::cluster_view::{recommendation, ClusterInputs};
    use plotters::backend::SVGBackend;

    /// The goal chart drawn `size` large: its y axis's description's font
    /// size, and the description's and the legend's vertical extents.
    fn drawn(size: (u32, u32)) -> String {
        let i = ClusterInputs::default();
        let rec = recommendation(&i).expect("the default cluster sweeps");
        let mut out = String::new();
        {
            let area = Measured {
                backend: SVGBackend::with_string(&mut out, size),
                measure: &FontText,
            }
            .into_drawing_area();
            draw_setting(&area, &rec, &i.want, Look::default()).expect("drawn");
        }
        out
    }

    fn font_size_of(svg: &str, text: &str) -> f64 {
        let at = svg.find(text).expect("the text is drawn");
        let tag = &svg[svg[..at].rfind("<text").expect("in a text element")..at];
        let size = tag.split("font-size=\"").nth(1).expect("a font size");
        size[..size.find('"').unwrap()].parse().unwrap()
    }

    // The y axis's description fits its plot: a tall one leaves it room at
    // 13 px; at 348 × 240, with the legend's rows below, the plot leaves
    // the text some 100 px, less than it takes at 13 px: it is drawn
    // smaller, and no smaller than 9 px.
    // Sizes relative to a tick label's 12 px: the SVG writes every size
    // in its own unit.
    #[test]
    fn the_y_description_fits_a_short_plot() {
        let relative = |size| {
            let svg = drawn(size);
            12.0 * font_size_of(&svg, "% of the goal (300 at most)")
                / font_size_of(&svg, ">\n250\n")
        };
        assert!((relative((720, 600)) - 13.0).abs() < 1e-9);
        let small = relative((348, 240));
        assert!((9.0..12.5).contains(&small), "{small}");
    }
}
