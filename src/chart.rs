//! The three charts, drawn through any plotters backend: the canvas in the
//! app, SVG for export and the native tests.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::engine::{Exploration, Ms, Timeline};

pub const CURRENT: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
pub const REFERENCE: RGBColor = RGBColor(0x88, 0x88, 0x88);
/// More points than this per series are folded: a chart is a few hundred pixels wide.
const MAX_POINTS: usize = 1_600;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Cumulative restarts as a step line; folded to samples when there are more
/// restarts than pixels.
pub fn restart_steps(restarts_at_ms: &[Ms], horizon_ms: Ms) -> Vec<(f64, f64)> {
    let n = restarts_at_ms.len();
    if 2 * n + 2 <= MAX_POINTS {
        let mut pts = Vec::with_capacity(2 * n + 2);
        pts.push((0.0, 0.0));
        for (i, &t) in restarts_at_ms.iter().enumerate() {
            pts.push((t as f64 / 1000.0, i as f64));
            pts.push((t as f64 / 1000.0, (i + 1) as f64));
        }
        pts.push((horizon_ms as f64 / 1000.0, n as f64));
        return pts;
    }
    let samples = MAX_POINTS / 2;
    (0..=samples)
        .map(|k| {
            let t = horizon_ms * k as u64 / samples as u64;
            let count = restarts_at_ms.partition_point(|&r| r <= t);
            (t as f64 / 1000.0, count as f64)
        })
        .collect()
}

/// A series of `(x, y)` values folded to at most `MAX_POINTS`, keeping each
/// bucket's lowest and highest value so that peaks survive.
pub fn fold_min_max(
    values: impl ExactSizeIterator<Item = f64>,
    x0: f64,
    dx: f64,
) -> Vec<(f64, f64)> {
    let n = values.len();
    let buckets = (MAX_POINTS / 2).max(1);
    if n <= MAX_POINTS {
        return values
            .enumerate()
            .map(|(i, v)| (x0 + i as f64 * dx, v))
            .collect();
    }
    let per = n.div_ceil(buckets);
    let mut out = Vec::with_capacity(2 * buckets);
    let (mut lo, mut hi, mut start) = (f64::INFINITY, f64::NEG_INFINITY, 0usize);
    for (i, v) in values.enumerate() {
        lo = lo.min(v);
        hi = hi.max(v);
        if (i + 1) % per == 0 || i + 1 == n {
            out.push((x0 + start as f64 * dx, lo));
            out.push((x0 + i as f64 * dx, hi));
            lo = f64::INFINITY;
            hi = f64::NEG_INFINITY;
            start = i + 1;
        }
    }
    out
}

/// The x axis of a time chart: seconds, minutes or hours, whichever keeps the
/// ticks round.
#[derive(Clone, Copy)]
struct TimeAxis {
    seconds_per_unit: f64,
    unit: &'static str,
}

impl TimeAxis {
    fn for_span(seconds: f64) -> Self {
        let (seconds_per_unit, unit) = if seconds <= 180.0 {
            (1.0, "s")
        } else if seconds <= 3.0 * 3600.0 {
            (60.0, "min")
        } else {
            (3600.0, "h")
        };
        Self {
            seconds_per_unit,
            unit,
        }
    }

    fn scale(self, points: &[(f64, f64)]) -> Vec<(f64, f64)> {
        points
            .iter()
            .map(|&(x, y)| (x / self.seconds_per_unit, y))
            .collect()
    }
}

fn number_label(v: &f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A legend's sample of a series' line.
fn swatch(color: RGBColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
}

fn max_of(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(0.0, f64::max)
}

/// Draws two series (this configuration solid, today's default dashed) on shared axes.
/// `x_max` and a time chart's x values are in seconds.
#[allow(clippy::too_many_arguments)]
fn draw_pair<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    x_is_time: bool,
    x_max: f64,
    current: &[(f64, f64)],
    reference: &[(f64, f64)],
) -> DrawResult<DB> {
    area.fill(&WHITE)?;
    let axis = x_is_time.then(|| TimeAxis::for_span(x_max));
    let (x_max, current, reference, x_desc) = match axis {
        Some(a) => (
            x_max / a.seconds_per_unit,
            a.scale(current),
            a.scale(reference),
            format!("{x_desc} ({})", a.unit),
        ),
        None => (
            x_max,
            current.to_vec(),
            reference.to_vec(),
            x_desc.to_owned(),
        ),
    };
    // Headroom above the data for the legend, so it never hides a series.
    let y_max = (max_of(&current).max(max_of(&reference)) * 1.35).max(1.0);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..x_max.max(1e-9), 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&number_label)
        .y_label_formatter(&number_label)
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart
        .draw_series(DashedLineSeries::new(
            reference.iter().copied(),
            6,
            4,
            REFERENCE.stroke_width(2),
        ))?
        .label("today's default (10 s / 5 min)")
        .legend(swatch(REFERENCE));
    chart
        .draw_series(LineSeries::new(
            current.iter().copied(),
            CURRENT.stroke_width(2),
        ))?
        .label("this configuration")
        .legend(swatch(CURRENT));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()?;
    area.present()?;
    Ok(())
}

/// Cumulative restarts against elapsed time.
pub fn draw_restarts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    e: &Exploration,
) -> DrawResult<DB> {
    let h = e.timeline.horizon_ms;
    draw_pair(
        area,
        "Restarts over time (one pod)",
        "elapsed time",
        "restarts",
        true,
        h as f64 / 1000.0,
        &restart_steps(&e.timeline.restarts_at_ms, h),
        &restart_steps(&e.reference.restarts_at_ms, h),
    )
}

fn delay_points(t: &Timeline) -> Vec<(f64, f64)> {
    fold_min_max(t.delays_ms.iter().map(|&d| d as f64 / 1000.0), 1.0, 1.0)
}

/// The wait before each restart, by restart number.
pub fn draw_delays<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    e: &Exploration,
) -> DrawResult<DB> {
    let n = e.timeline.delays_ms.len().max(e.reference.delays_ms.len());
    draw_pair(
        area,
        "Wait before each restart (seconds)",
        "restart number",
        "wait (s)",
        false,
        n.max(2) as f64,
        &delay_points(&e.timeline),
        &delay_points(&e.reference),
    )
}

fn load_points(t: &Timeline) -> Vec<(f64, f64)> {
    let window_s = t.window_ms as f64 / 1000.0;
    fold_min_max(
        t.node_requests_per_window.iter().map(|&r| r as f64),
        0.0,
        window_s,
    )
}

/// `/pods` status requests per 10-second window for the node.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    e: &Exploration,
) -> DrawResult<DB> {
    draw_pair(
        area,
        "Node /pods status requests per 10 s",
        "elapsed time",
        "requests / 10 s",
        true,
        e.timeline.horizon_ms as f64 / 1000.0,
        &load_points(&e.timeline),
        &load_points(&e.reference),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_exact_when_few_and_folded_when_many() {
        assert_eq!(
            restart_steps(&[1_000, 3_000], 10_000),
            vec![
                (0.0, 0.0),
                (1.0, 0.0),
                (1.0, 1.0),
                (3.0, 1.0),
                (3.0, 2.0),
                (10.0, 2.0)
            ]
        );
        let many: Vec<Ms> = (1..=10_000).map(|i| i * 1000).collect();
        let pts = restart_steps(&many, 10_000_000);
        assert!(pts.len() <= MAX_POINTS + 1);
        assert_eq!(pts.last(), Some(&(10_000.0, 10_000.0)));
    }

    #[test]
    fn folding_keeps_peaks() {
        let mut v = vec![1.0; 10_000];
        v[5_555] = 99.0;
        let pts = fold_min_max(v.into_iter(), 0.0, 1.0);
        assert!(pts.len() <= MAX_POINTS);
        assert_eq!(max_of(&pts), 99.0);
    }
}
