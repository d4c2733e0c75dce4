//! Line charts on shared axes: series, folding, the time axis, extras
//! (bands, limit lines, marks, ringed points) and the one drawing path.

use super::prelude::*;

/// More points than this per series are folded (each bucket keeps its low and
/// high): a plot is some 750 CSS pixels wide, and every point is rasterized.
pub(super) const MAX_POINTS: usize = 800;
/// Lines with more points than this are drawn thin.
pub(super) const DENSE_POINTS: usize = 400;

/// A scenario to draw, with its label.
#[derive(Clone, Copy)]
pub struct Series<'a> {
    pub label: &'a str,
    pub timeline: &'a Timeline,
}

/// What every chart shows: today's default, then the scenarios (live first).
#[derive(Clone)]
pub struct ChartData<'a> {
    pub reference: &'a Timeline,
    pub series: Vec<Series<'a>>,
    pub look: Look,
    /// A moment to mark on the time charts: a diagnosed pod's "now".
    pub marker_ms: Option<Ms>,
}

/// The live scenario's name in legends, tables and exports.
pub const LIVE_LABEL: &str = "this configuration";

impl<'a> ChartData<'a> {
    /// An exploration's live scenario against today's default, nothing else marked.
    pub fn of(e: &'a crate::engine::Exploration) -> Self {
        ChartData {
            reference: &e.reference,
            series: vec![Series {
                label: LIVE_LABEL,
                timeline: &e.timeline,
            }],
            look: Look::default(),
            marker_ms: None,
        }
    }

    pub(super) fn horizon_ms(&self) -> Ms {
        self.reference.horizon_ms
    }
}

/// Cumulative restarts as a step line; folded to samples when there are more
/// restarts than pixels.
pub fn restart_steps(restarts_at_ms: &Times, horizon_ms: Ms) -> Vec<(f64, f64)> {
    let n = restarts_at_ms.len();
    if 2 * n + 2 <= MAX_POINTS {
        let mut pts = Vec::with_capacity(2 * n + 2);
        pts.push((0.0, 0.0));
        for (i, t) in restarts_at_ms.iter().enumerate() {
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
            let count = restarts_at_ms.count_by(t);
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
    if n <= MAX_POINTS {
        return values
            .enumerate()
            .map(|(i, v)| (x0 + i as f64 * dx, v))
            .collect();
    }
    let per = per_bucket(n);
    let mut out = Vec::with_capacity(2 * n.div_ceil(per));
    let (mut lo, mut hi, mut start) = (f64::INFINITY, f64::NEG_INFINITY, 0usize);
    // Counted down rather than a remainder per value.
    let mut left = per;
    for (i, v) in values.enumerate() {
        lo = lo.min(v);
        hi = hi.max(v);
        left -= 1;
        if left == 0 || i + 1 == n {
            left = per;
            out.push((x0 + start as f64 * dx, lo));
            out.push((x0 + i as f64 * dx, hi));
            lo = f64::INFINITY;
            hi = f64::NEG_INFINITY;
            start = i + 1;
        }
    }
    out
}

/// Values in a bucket when `n` are folded into `MAX_POINTS / 2` buckets.
fn per_bucket(n: usize) -> usize {
    n.div_ceil((MAX_POINTS / 2).max(1))
}

/// `fold_min_max` of whole numbers shown as `show(v)`, which must not
/// decrease: each bucket's lowest and highest are found on the numbers and
/// shown once, not converted one by one (a day's waits are 86,404 a series).
pub fn fold_shown(values: &[u64], x0: f64, dx: f64, show: impl Fn(u64) -> f64) -> Vec<(f64, f64)> {
    fold_ranges(
        values.len(),
        |r| {
            values[r]
                .iter()
                .fold((u64::MAX, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)))
        },
        x0,
        dx,
        show,
    )
}

/// `fold_shown` of waits held as `Times`: a bucket of a periodic tail is
/// read at its ends, not walked.
pub fn fold_times(values: &Times, x0: f64, dx: f64, show: impl Fn(u64) -> f64) -> Vec<(f64, f64)> {
    fold_ranges(values.len(), |r| values.min_max(r), x0, dx, show)
}

/// `n` values folded by `min_max` of each bucket's range (every value its
/// own bucket when they fit).
fn fold_ranges(
    n: usize,
    min_max: impl Fn(std::ops::Range<usize>) -> (u64, u64),
    x0: f64,
    dx: f64,
    show: impl Fn(u64) -> f64,
) -> Vec<(f64, f64)> {
    if n <= MAX_POINTS {
        return (0..n)
            .map(|i| (x0 + i as f64 * dx, show(min_max(i..i + 1).0)))
            .collect();
    }
    let per = per_bucket(n);
    let mut out = Vec::with_capacity(2 * n.div_ceil(per));
    for start in (0..n).step_by(per) {
        let end = (start + per).min(n);
        let (lo, hi) = min_max(start..end);
        out.push((x0 + start as f64 * dx, show(lo)));
        out.push((x0 + (end - 1) as f64 * dx, show(hi)));
    }
    out
}

/// The x axis of a time chart: seconds, minutes or hours, whichever keeps the
/// ticks round.
#[derive(Clone, Copy)]
pub(super) struct TimeAxis {
    pub(super) seconds_per_unit: f64,
    pub(super) unit: &'static str,
}

impl TimeAxis {
    pub(super) fn for_span(seconds: f64) -> Self {
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
}

/// Ticks on an axis of counts up to `max`: as many as whole numbers fit, at
/// most 10, so that plotters steps by 1 or more and none falls between two.
pub(super) fn whole_ticks(max: f64) -> usize {
    (max.max(0.0).floor() as usize + 1).clamp(2, 10)
}

pub(super) fn number_label(v: &f64) -> String {
    crate::engine::duration::grouped(*v, 2)
}

pub(super) fn max_of(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(0.0, f64::max)
}

/// One line of a line chart.
pub(super) struct Line {
    pub(super) label: String,
    pub(super) color: RGBColor,
    pub(super) width: f64,
    pub(super) dash: (u32, u32),
    pub(super) points: Vec<(f64, f64)>,
}

impl Line {
    pub(super) fn of(label: impl Into<String>, index: usize, points: Vec<(f64, f64)>) -> Self {
        Line {
            label: label.into(),
            color: PALETTE[index % PALETTE.len()],
            width: 2.0,
            dash: DASHES[index % DASHES.len()],
            points,
        }
    }

    pub(super) fn reference(points: Vec<(f64, f64)>) -> Self {
        Line {
            label: "today's default (10 s / 5 min)".into(),
            color: REFERENCE,
            width: 2.0,
            dash: (6, 4),
            points,
        }
    }
}

/// A band's points: (x, low, high) in data units.
pub(super) type Span = Vec<(f64, f64, f64)>;
/// A shaded band's colour, legend and points.
pub(super) type Band = (RGBColor, &'static str, Span);

/// The band of the live scenario's restarts over seeds.
pub(super) const JITTER_LABEL: &str = "jitter band (min–max over seeds)";
/// The moment marked on the time charts.
pub(super) const NOW_LABEL: &str = "now (the diagnosed pod)";

/// A row of marks: its colour, what it means, and the x ranges.
pub(super) type Marks = (RGBColor, &'static str, Vec<(f64, f64)>);

/// Extras a line chart may carry.
#[derive(Default)]
pub(super) struct Extras {
    pub(super) band: Option<Band>,
    /// Stacked areas, bottom first: (x, low, high) each, as steps.
    pub(super) stack: Vec<(Fill, &'static str, Span)>,
    /// A horizontal limit line and its label.
    pub(super) limit: Option<(f64, String)>,
    /// x ranges to mark along the bottom.
    pub(super) marks: Vec<(f64, f64)>,
    /// A second row of marks above them, its colour and what it means.
    pub(super) marks2: Option<Marks>,
    /// Points to ring, and what they are.
    pub(super) dots: Option<(&'static str, Vec<(f64, f64)>)>,
    /// A moment (seconds, or the x value of a chart not of time) to mark
    /// with a vertical line, and what it is.
    pub(super) now: Option<(f64, String)>,
    /// The x axis, and the y axis, count things (a restart's number,
    /// restarts): ticks at whole numbers only (`whole_ticks`).
    pub(super) x_counts: bool,
    pub(super) y_counts: bool,
}

/// The x ranges of the flagged intervals, adjacent ones joined into one
/// span: the marks along a chart's bottom.
pub(super) fn marked_spans(
    intervals: impl IntoIterator<Item = ((f64, f64), bool)>,
) -> Vec<(f64, f64)> {
    let mut spans: Vec<(f64, f64)> = vec![];
    for ((x0, x1), _) in intervals.into_iter().filter(|(_, flagged)| *flagged) {
        match spans.last_mut() {
            Some(last) if last.1 == x0 => last.1 = x1,
            _ => spans.push((x0, x1)),
        }
    }
    spans
}

/// The 10 s windows of a series as x ranges (seconds), each with its flag.
pub(super) fn windows_flagged<'a, T>(
    values: &'a [T],
    window_s: f64,
    flag: impl Fn(&T) -> bool + 'a,
) -> impl Iterator<Item = ((f64, f64), bool)> + 'a {
    values
        .iter()
        .enumerate()
        .map(move |(i, v)| ((i as f64 * window_s, (i + 1) as f64 * window_s), flag(v)))
}

/// The live scenario's restarts that the kubelet's backoff GC brought
/// forward, as (restart index, time) pairs.
pub(super) fn gc_restarts(d: &ChartData) -> Vec<(usize, Ms)> {
    let Some(live) = d.series.first() else {
        return vec![];
    };
    let t = live.timeline;
    t.gc_restarts_at_ms
        .iter()
        .filter_map(|&at| t.restarts_at_ms.binary_search(at).ok().map(|i| (i, at)))
        .collect()
}

pub(super) const GC_LABEL: &str = "restart after the kubelet's backoff GC";

/// Lines on shared axes; `x_max` and a time chart's x values are in seconds.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    look: Look,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    x_is_time: bool,
    x_max: f64,
    lines: Vec<Line>,
    mut extras: Extras,
) -> DrawResult<DB> {
    let axis = x_is_time.then(|| TimeAxis::for_span(x_max));
    let scale = axis.map_or(1.0, |a| a.seconds_per_unit);
    let x_desc = axis.map_or(x_desc.to_owned(), |a| format!("{x_desc} ({})", a.unit));
    let x_max = x_max / scale;
    let data_max = lines
        .iter()
        .map(|l| max_of(&l.points))
        .chain(
            extras
                .band
                .iter()
                .flat_map(|(_, _, b)| b.iter().map(|p| p.2)),
        )
        .chain(
            extras
                .stack
                .iter()
                .flat_map(|(_, _, b)| b.iter().map(|p| p.2)),
        )
        .fold(0.0, f64::max);
    // A limit near the data is drawn; one far above it would flatten the
    // data, so the axis stops short of it and its legend says where it is.
    let data_max = match &mut extras.limit {
        Some((y, label)) if *y > 1.5 * data_max && data_max > 0.0 => {
            label.push_str(" (above the plot)");
            data_max
        }
        Some((y, _)) => data_max.max(*y),
        None => data_max,
    };
    let legend = legend_rows(look, &lines, &extras);
    // The legend below the plot takes the rows it needs and the plot the
    // rest: no entry covers data, and the axis is the data's.
    let (plot, below, at) = look.legend_split(area, &legend)?;
    let y_max = (data_max * 1.05).max(1.0);
    let mut chart = look.frame(&plot, caption, 0f64..x_max.max(1e-9), 0f64..y_max)?;
    let mut mesh = look.mesh(&mut chart);
    mesh.axis_desc_style(look.y_desc_font(&plot, y_desc))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&number_label)
        .y_label_formatter(&number_label);
    if extras.x_counts {
        mesh.x_labels(whole_ticks(x_max));
    }
    if extras.y_counts {
        mesh.y_labels(whole_ticks(y_max));
    }
    mesh.draw()?;
    if let Some((color, _, band)) = &extras.band {
        // The jitter band faint.
        draw_band(&mut chart, band, scale, look.ink(*color).mix(0.22))?;
    }
    for (fill, _, band) in &extras.stack {
        draw_band(&mut chart, band, scale, fill.color().mix(1.0))?;
        if let Fill::Dotted(_, dots) = fill {
            draw_dots(&mut chart, look, band, scale, *dots)?;
        }
    }
    // Marks are strips 4 px high along the bottom, whatever the scale.
    let h = {
        let ys = chart.plotting_area().get_pixel_range().1;
        y_max * f64::from(look.px(4.0)) / f64::from((ys.end - ys.start).max(1))
    };
    for (x0, x1) in &extras.marks {
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x0 / scale, 0.0), (x1 / scale, h)],
            look.ink(LIMIT).mix(0.8).filled(),
        )))?;
    }
    if let Some((color, _, marks)) = &extras.marks2 {
        for (x0, x1) in marks {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0 / scale, h), (x1 / scale, 2.0 * h)],
                look.ink(*color).mix(0.8).filled(),
            )))?;
        }
    }
    if let Some((_, dots)) = &extras.dots {
        let r = look.px(4.0) as i32;
        let style = look.line(LIMIT, 1.5);
        chart.draw_series(
            dots.iter()
                .map(|&(x, y)| Circle::new((x / scale, y), r, style)),
        )?;
    }
    if let Some((x, _)) = extras.now {
        let (style, (on, off)) = (look.line(LIMIT, 1.5), (look.px(4.0), look.px(3.0)));
        chart.draw_series(DashedLineSeries::new(
            [(x / scale, 0.0), (x / scale, y_max)],
            on,
            off,
            style,
        ))?;
    }
    if let Some((y, _)) = extras.limit.as_ref().filter(|(y, _)| *y <= y_max) {
        let (style, (on, off)) = (look.line(LIMIT, 1.0), (look.px(2.0), look.px(3.0)));
        chart.draw_series(DashedLineSeries::new(
            [(0.0, *y), (x_max, *y)],
            on,
            off,
            style,
        ))?;
    }
    for line in &lines {
        let (style, dash) = line_style(look, line);
        let pts = line.points.iter().map(|&(x, y)| (x / scale, y));
        if dash.0 == 0 {
            chart.draw_series(LineSeries::new(pts, style))?;
        } else {
            chart.draw_series(DashedLineSeries::new(pts, dash.0, dash.1, style))?;
        }
    }
    look.legend_below(&below, &legend, &at)?;
    area.present()?;
    Ok(Axes::of(&chart, x_max, scale))
}

/// A line's stroke and dashes in backend pixels: a dense trace is as
/// legible 1 px wide, and a wider one is many times the rasterizing (a
/// software-rendered canvas feels it).
fn line_style(look: Look, line: &Line) -> (ShapeStyle, (u32, u32)) {
    let width = if line.points.len() > DENSE_POINTS {
        line.width.min(1.0)
    } else {
        line.width
    };
    let dash = match line.dash {
        (0, _) => (0, 0),
        (on, off) => (look.px(f64::from(on)), look.px(f64::from(off))),
    };
    (look.line(line.color, width), dash)
}

/// Every legend row, in the order the chart draws them.
fn legend_rows(look: Look, lines: &[Line], extras: &Extras) -> Vec<(String, Key)> {
    let mut legend = vec![];
    if let Some((color, label, _)) = &extras.band {
        legend.push(((*label).to_owned(), Key::Patch(look.ink(*color).mix(0.22))));
    }
    // The stack's top layer first, as the eye meets it.
    for (fill, label, _) in extras.stack.iter().rev() {
        legend.push(((*label).to_owned(), Key::Fill(*fill)));
    }
    if let Some((color, label, _)) = &extras.marks2 {
        legend.push(((*label).to_owned(), Key::Patch(look.ink(*color).mix(0.8))));
    }
    if let Some((label, _)) = &extras.dots {
        legend.push(((*label).to_owned(), Key::Patch(look.ink(LIMIT).mix(0.8))));
    }
    if let Some((_, label)) = &extras.now {
        let dash = (look.px(4.0), look.px(3.0));
        legend.push((label.clone(), Key::Line(look.line(LIMIT, 1.5), dash)));
    }
    if let Some((_, label)) = &extras.limit {
        let dash = (look.px(2.0), look.px(3.0));
        legend.push((label.clone(), Key::Line(look.line(LIMIT, 1.0), dash)));
    }
    for line in lines {
        let (style, dash) = line_style(look, line);
        legend.push((line.label.clone(), Key::Line(style, dash)));
    }
    legend
}

/// A band (x, low, high) filled between its edges.
fn draw_band<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    band: &[(f64, f64, f64)],
    scale: f64,
    color: RGBAColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let upper = band.iter().map(|&(x, _, hi)| (x / scale, hi));
    let lower = band.iter().rev().map(|&(x, lo, _)| (x / scale, lo));
    chart.draw_series(std::iter::once(Polygon::new(
        upper.chain(lower).collect::<Vec<_>>(),
        color.filled(),
    )))?;
    Ok(())
}

/// Dots on a grid of `DOT_STEP` pixels wherever the band (steps, in time
/// order) is at least a dot high: a texture that tells the band from its
/// neighbours without colour. The band is one height per x, so no clipping.
fn draw_dots<DB: DrawingBackend>(
    chart: &mut Chart2d<'_, DB>,
    look: Look,
    band: &[(f64, f64, f64)],
    scale: f64,
    color: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let ((x0, x1), (y0, y1)) = {
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        ((xs.start, xs.end), (ys.start, ys.end))
    };
    let step = look.px(DOT_STEP) as i32;
    let r = look.px(1.0) as i32;
    let area = chart.plotting_area().strip_coord_spec();
    let to_px = |x: f64, y: f64| chart.backend_coord(&(x / scale, y));
    let mut dots = vec![];
    let mut i = 0;
    for px in (x0 + step / 2..x1).step_by(step.max(1) as usize) {
        // The band's step under this column of pixels.
        while i + 1 < band.len() && to_px(band[i + 1].0, 0.0).0 <= px {
            i += 1;
        }
        let Some(&(_, lo, hi)) = band.get(i) else {
            break;
        };
        let (top, bottom) = (to_px(0.0, hi).1, to_px(0.0, lo).1);
        // Rows on one grid for every column, so the dots line up.
        let first = y0 + ((top - y0 + step - 1).max(0) / step) * step + step / 2;
        for py in (first..bottom.min(y1)).step_by(step.max(1) as usize) {
            if py - r > top && py + r < bottom {
                dots.push(Rectangle::new(
                    [(px - r - x0, py - r - y0), (px + r - x0, py + r - y0)],
                    color.filled(),
                ));
            }
        }
    }
    for d in dots {
        area.draw(&d)?;
    }
    Ok(())
}

/// The live scenario's GC restarts as ringed points, placed by `at`.
pub(super) fn gc_dots(
    d: &ChartData,
    at: impl Fn(usize, Ms) -> (f64, f64),
) -> Option<(&'static str, Vec<(f64, f64)>)> {
    let gc = gc_restarts(d);
    (!gc.is_empty()).then(|| (GC_LABEL, gc.into_iter().map(|(i, t)| at(i, t)).collect()))
}
