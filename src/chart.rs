//! The charts, drawn through any plotters backend: the canvas in the app,
//! SVG for export and the native tests. Series differ by colour and by dash
//! pattern, so they read without colour too.

use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind};

use crate::engine::audit::{kep_window_counts, KEP_WINDOWS_MS};
use crate::engine::{Ms, Timeline};

pub const REFERENCE: RGBColor = RGBColor(0x88, 0x88, 0x88);
/// The live scenario first, then up to three compared ones.
pub const PALETTE: [RGBColor; 4] = [
    RGBColor(0x1f, 0x5f, 0xbf),
    RGBColor(0xd9, 0x5f, 0x02),
    RGBColor(0x1b, 0x9e, 0x77),
    RGBColor(0x75, 0x70, 0xb3),
];
const ADMITTED: RGBColor = RGBColor(0x2c, 0xa0, 0x2c);
const LIMIT: RGBColor = RGBColor(0xc0, 0x20, 0x20);
/// Dash (on, off) per palette index; 0 is solid.
const DASHES: [(u32, u32); 4] = [(0, 0), (10, 4), (3, 3), (12, 3)];
/// More points than this per series are folded (each bucket keeps its low and
/// high): a plot is some 750 CSS pixels wide, and every point is rasterized.
const MAX_POINTS: usize = 800;
/// Lines with more points than this are drawn thin.
const DENSE_POINTS: usize = 400;

pub type DrawResult<DB> = Result<Axes, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Where a chart's plot sits, so a pointer position maps back to data.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Axes {
    /// The plot area's left and right edges, in backend pixels.
    pub left: i32,
    pub right: i32,
    /// The x axis runs from 0 to `x_max`, in units of `seconds_per_unit`
    /// seconds (1 for an x axis that is not time).
    pub x_max: f64,
    pub seconds_per_unit: f64,
}

impl Axes {
    fn of<DB: DrawingBackend>(chart: &Chart2d<'_, DB>, x_max: f64, seconds_per_unit: f64) -> Axes {
        let (xs, _) = chart.plotting_area().get_pixel_range();
        Axes {
            left: xs.start,
            right: xs.end,
            x_max,
            seconds_per_unit,
        }
    }

    /// The x value (in seconds for a time axis) under a backend pixel.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        let width = f64::from(self.right - self.left);
        let f = (px - f64::from(self.left)) / width;
        (width > 0.0 && (0.0..=1.0).contains(&f)).then_some(f * self.x_max * self.seconds_per_unit)
    }
}

/// How a chart is drawn: its pixel scale (the device pixel ratio, so a canvas
/// is crisp on HiDPI screens) and light or dark colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    pub scale: f64,
    pub dark: bool,
}

impl Default for Look {
    fn default() -> Self {
        Self {
            scale: 1.0,
            dark: false,
        }
    }
}

type Chart2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl Look {
    fn px(self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }
    fn bg(self) -> RGBColor {
        if self.dark {
            RGBColor(0x16, 0x1b, 0x22)
        } else {
            WHITE
        }
    }
    fn fg(self) -> RGBColor {
        if self.dark {
            RGBColor(0xdd, 0xe3, 0xea)
        } else {
            BLACK
        }
    }
    fn font(self, size: f64) -> TextStyle<'static> {
        ("sans-serif", size * self.scale)
            .into_font()
            .color(&self.fg())
    }
    fn line(self, color: RGBColor, width: f64) -> ShapeStyle {
        color.stroke_width(self.px(width))
    }
    /// The frame every chart shares: background, caption, margins, label areas.
    fn frame<'a, DB: DrawingBackend>(
        self,
        area: &'a DrawingArea<DB, Shift>,
        caption: &str,
        x: std::ops::Range<f64>,
        y: std::ops::Range<f64>,
    ) -> Result<Chart2d<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&self.bg())?;
        ChartBuilder::on(area)
            .caption(caption, self.font(16.0))
            .margin(self.px(8.0))
            .x_label_area_size(self.px(36.0))
            .y_label_area_size(self.px(56.0))
            .build_cartesian_2d(x, y)
    }

    /// Axes and grid in this look's colours.
    fn mesh<'a, 'b, DB: DrawingBackend>(
        self,
        chart: &'b mut Chart2d<'a, DB>,
    ) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
        let mut mesh = chart.configure_mesh();
        mesh.axis_style(self.fg())
            .label_style(self.font(12.0))
            .axis_desc_style(self.font(13.0))
            .bold_line_style(self.fg().mix(0.12))
            .light_line_style(self.bg().mix(0.0));
        mesh
    }

    /// The legend box in a corner of the plot. Drawn here rather than as
    /// plotters' series labels, which measure text around the backend: in a
    /// browser, a page layout per label.
    fn legend<DB: DrawingBackend>(
        self,
        chart: &Chart2d<'_, DB>,
        rows: &[(String, Key)],
        right: bool,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        if rows.is_empty() {
            return Ok(());
        }
        let area = chart.plotting_area().strip_coord_spec();
        let font = self.font(12.0);
        let mut text_w = 0;
        for (label, _) in rows {
            text_w = text_w.max(area.estimate_text_size(label, &font)?.0 as i32);
        }
        let px = |v: f64| self.px(v) as i32;
        let (row_h, pad, key_w, gap) = (px(15.0), px(6.0), px(18.0), px(6.0));
        let (w, h) = (
            pad + key_w + gap + text_w + pad,
            2 * pad + row_h * rows.len() as i32,
        );
        let x0 = if right {
            area.dim_in_pixel().0 as i32 - w - px(5.0)
        } else {
            px(5.0)
        };
        let corners = [(x0, px(5.0)), (x0 + w, px(5.0) + h)];
        area.draw(&Rectangle::new(corners, self.bg().mix(0.85).filled()))?;
        area.draw(&Rectangle::new(
            corners,
            self.fg().mix(0.3).stroke_width(self.px(1.0)),
        ))?;
        for (i, (label, key)) in rows.iter().enumerate() {
            let (x, y) = (x0 + pad, corners[0].1 + pad + row_h * i as i32 + row_h / 2);
            match *key {
                // Dashed as the series is, so the legend reads without colour.
                Key::Line(style, (on, off)) => {
                    let step = if on == 0 { key_w } else { on as i32 };
                    let mut from = x;
                    while from < x + key_w {
                        let to = (from + step).min(x + key_w);
                        area.draw(&PathElement::new(vec![(from, y), (to, y)], style))?;
                        from = to + off as i32;
                    }
                }
                Key::Patch(color) => area.draw(&Rectangle::new(
                    [(x, y - px(5.0)), (x + key_w, y + px(5.0))],
                    color.filled(),
                ))?,
            }
            let style = font.pos(Pos::new(HPos::Left, VPos::Center));
            area.draw(&Text::new(label.as_str(), (x + key_w + gap, y), style))?;
        }
        Ok(())
    }
}

/// How a legend row shows its series: a stretch of its line (with its dashes
/// on and off, in backend pixels; 0 on is solid), or a filled box.
#[derive(Clone, Copy)]
enum Key {
    Line(ShapeStyle, (u32, u32)),
    Patch(RGBAColor),
}

/// Measures text where a backend's own measurement will not do: plotters'
/// on the web inserts an inline-styled span into the page and reads its size,
/// which forces a page layout per string and which the app's
/// Content-Security-Policy refuses.
pub trait MeasureText {
    /// Width and height in pixels of `text` in the CSS font `font`, of `size` px.
    fn text_size(&self, text: &str, font: &str, size: f64) -> (u32, u32);
}

/// plotters' own measurement, for where there is no page (native tests and tools).
pub struct FontText;

impl MeasureText for FontText {
    fn text_size(&self, text: &str, _font: &str, size: f64) -> (u32, u32) {
        ("sans-serif", size)
            .into_font()
            .box_size(text)
            .unwrap_or((0, 0))
    }
}

/// A text style as a CSS font, as plotters' canvas and SVG backends write it.
pub fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

/// A backend whose text `measure` measures; all else as the backend does it.
pub struct Measured<'m, DB> {
    pub backend: DB,
    pub measure: &'m dyn MeasureText,
}

type BackendResult<DB> = Result<(), DrawingErrorKind<<DB as DrawingBackend>::ErrorType>>;

impl<DB: DrawingBackend> DrawingBackend for Measured<'_, DB> {
    type ErrorType = DB::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.backend.get_size()
    }
    fn ensure_prepared(&mut self) -> BackendResult<DB> {
        self.backend.ensure_prepared()
    }
    fn present(&mut self) -> BackendResult<DB> {
        self.backend.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> BackendResult<DB> {
        self.backend.draw_pixel(point, color)
    }
    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> BackendResult<DB> {
        self.backend.draw_line(from, to, style)
    }
    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        corner: BackendCoord,
        opposite: BackendCoord,
        style: &S,
        fill: bool,
    ) -> BackendResult<DB> {
        self.backend.draw_rect(corner, opposite, style, fill)
    }
    fn draw_path<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> BackendResult<DB> {
        self.backend.draw_path(path, style)
    }
    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> BackendResult<DB> {
        self.backend.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vertices: I,
        style: &S,
    ) -> BackendResult<DB> {
        self.backend.fill_polygon(vertices, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> BackendResult<DB> {
        self.backend.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(self.measure.text_size(text, &css_font(style), style.size()))
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> BackendResult<DB> {
        self.backend.blit_bitmap(pos, size, src)
    }
}

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
}

impl ChartData<'_> {
    fn horizon_ms(&self) -> Ms {
        self.reference.horizon_ms
    }
}

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
}

fn number_label(v: &f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn max_of(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(0.0, f64::max)
}

/// One line of a line chart.
struct Line {
    label: String,
    color: RGBColor,
    width: f64,
    dash: (u32, u32),
    points: Vec<(f64, f64)>,
}

impl Line {
    fn of(label: impl Into<String>, index: usize, points: Vec<(f64, f64)>) -> Self {
        Line {
            label: label.into(),
            color: PALETTE[index % PALETTE.len()],
            width: 2.0,
            dash: DASHES[index % DASHES.len()],
            points,
        }
    }

    fn reference(points: Vec<(f64, f64)>) -> Self {
        Line {
            label: "today's default (10 s / 5 min)".into(),
            color: REFERENCE,
            width: 2.0,
            dash: (6, 4),
            points,
        }
    }
}

/// A shaded band's colour and points: (x, low, high) in data units.
type Band = (RGBColor, Vec<(f64, f64, f64)>);

/// Extras a line chart may carry.
#[derive(Default)]
struct Extras {
    band: Option<Band>,
    /// A horizontal limit line and its label.
    limit: Option<(f64, String)>,
    /// x ranges to mark along the bottom.
    marks: Vec<(f64, f64)>,
    /// Points to ring, and what they are.
    dots: Option<(&'static str, Vec<(f64, f64)>)>,
}

/// The live scenario's restarts that the kubelet's backoff GC brought
/// forward, as (restart index, time) pairs.
fn gc_restarts(d: &ChartData) -> Vec<(usize, Ms)> {
    let Some(live) = d.series.first() else {
        return vec![];
    };
    let t = live.timeline;
    t.gc_restarts_at_ms
        .iter()
        .filter_map(|at| t.restarts_at_ms.binary_search(at).ok().map(|i| (i, *at)))
        .collect()
}

const GC_LABEL: &str = "restart after the kubelet's backoff GC";

/// Lines on shared axes; `x_max` and a time chart's x values are in seconds.
#[allow(clippy::too_many_arguments)]
fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    look: Look,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
    x_is_time: bool,
    x_max: f64,
    lines: Vec<Line>,
    extras: Extras,
) -> DrawResult<DB> {
    let axis = x_is_time.then(|| TimeAxis::for_span(x_max));
    let scale = axis.map_or(1.0, |a| a.seconds_per_unit);
    let x_desc = axis.map_or(x_desc.to_owned(), |a| format!("{x_desc} ({})", a.unit));
    let x_max = x_max / scale;
    let data_max = lines
        .iter()
        .map(|l| max_of(&l.points))
        .chain(extras.band.iter().flat_map(|(_, b)| b.iter().map(|p| p.2)))
        .chain(extras.limit.iter().map(|l| l.0))
        .fold(0.0, f64::max);
    // Headroom above the data for the legend, so it never hides a series.
    let y_max = (data_max * 1.35).max(1.0);
    let mut chart = look.frame(area, caption, 0f64..x_max.max(1e-9), 0f64..y_max)?;
    look.mesh(&mut chart)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&number_label)
        .y_label_formatter(&number_label)
        .draw()?;
    let mut legend = vec![];
    if let Some((color, band)) = &extras.band {
        let upper = band.iter().map(|&(x, _, hi)| (x / scale, hi));
        let lower = band.iter().rev().map(|&(x, lo, _)| (x / scale, lo));
        chart.draw_series(std::iter::once(Polygon::new(
            upper.chain(lower).collect::<Vec<_>>(),
            color.mix(0.22).filled(),
        )))?;
        legend.push((
            "jitter band (min–max over seeds)".to_owned(),
            Key::Patch(color.mix(0.22)),
        ));
    }
    for (x0, x1) in &extras.marks {
        let h = y_max * 0.03;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x0 / scale, 0.0), (x1 / scale, h)],
            LIMIT.mix(0.8).filled(),
        )))?;
    }
    if let Some((label, dots)) = &extras.dots {
        let r = look.px(4.0) as i32;
        let style = look.line(LIMIT, 1.5);
        chart.draw_series(
            dots.iter()
                .map(|&(x, y)| Circle::new((x / scale, y), r, style)),
        )?;
        legend.push(((*label).to_owned(), Key::Patch(LIMIT.mix(0.8))));
    }
    if let Some((y, label)) = &extras.limit {
        let (style, (on, off)) = (look.line(LIMIT, 1.0), (look.px(2.0), look.px(3.0)));
        chart.draw_series(DashedLineSeries::new(
            [(0.0, *y), (x_max, *y)],
            on,
            off,
            style,
        ))?;
        legend.push((label.clone(), Key::Line(style, (on, off))));
    }
    for line in lines {
        // A dense trace is as legible 1 px wide, and a wider one is many
        // times the rasterizing (a software-rendered canvas feels it).
        let width = if line.points.len() > DENSE_POINTS {
            line.width.min(1.0)
        } else {
            line.width
        };
        let style = look.line(line.color, width);
        let pts = line.points.iter().map(|&(x, y)| (x / scale, y));
        let dash = match line.dash {
            (0, _) => (0, 0),
            (on, off) => (look.px(f64::from(on)), look.px(f64::from(off))),
        };
        if dash.0 == 0 {
            chart.draw_series(LineSeries::new(pts, style))?;
        } else {
            chart.draw_series(DashedLineSeries::new(pts, dash.0, dash.1, style))?;
        }
        legend.push((line.label, Key::Line(style, dash)));
    }
    look.legend(&chart, &legend, false)?;
    area.present()?;
    Ok(Axes::of(&chart, x_max, scale))
}

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
            (PALETTE[0], pts)
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
            ..Default::default()
        },
    )
}

fn gc_dots(
    d: &ChartData,
    at: impl Fn(usize, Ms) -> (f64, f64),
) -> Option<(&'static str, Vec<(f64, f64)>)> {
    let gc = gc_restarts(d);
    (!gc.is_empty()).then(|| (GC_LABEL, gc.into_iter().map(|(i, t)| at(i, t)).collect()))
}

fn delay_points(t: &Timeline) -> Vec<(f64, f64)> {
    fold_min_max(t.delays_ms.iter().map(|&d| d as f64 / 1000.0), 1.0, 1.0)
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
                        delays.get(i).map_or(0.0, |&w| w as f64 / 1000.0),
                    )
                })
            }),
            ..Default::default()
        },
    )
}

fn window_points(t: &Timeline, values: &[u64]) -> Vec<(f64, f64)> {
    fold_min_max(
        values.iter().map(|&r| r as f64),
        0.0,
        t.window_ms as f64 / 1000.0,
    )
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
    let mut extras = Extras::default();
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
        // Adjacent limited windows make one span.
        for (i, _) in t
            .api
            .max_queue_delay_ms
            .iter()
            .enumerate()
            .filter(|(_, &d)| d > 0)
        {
            let (x0, x1) = (i as f64 * window_s, (i + 1) as f64 * window_s);
            match extras.marks.last_mut() {
                Some(last) if last.1 == x0 => last.1 = x1,
                _ => extras.marks.push((x0, x1)),
            }
        }
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

/// Restarts in each of the KEP's windows (10, 30, 70, 150, 310 s), as bars
/// grouped by window, like the KEP's figure.
pub fn draw_windows<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
) -> DrawResult<DB> {
    let look = d.look;
    let mut groups: Vec<(String, RGBColor, Vec<u64>)> = vec![(
        "today's default".into(),
        REFERENCE,
        kep_window_counts(&d.reference.restarts_at_ms),
    )];
    groups.extend(d.series.iter().enumerate().map(|(i, s)| {
        (
            s.label.to_owned(),
            PALETTE[i % PALETTE.len()],
            kep_window_counts(&s.timeline.restarts_at_ms),
        )
    }));
    let y_max = groups
        .iter()
        .flat_map(|g| g.2.iter().copied())
        .max()
        .unwrap_or(0) as f64
        * 1.35
        + 1.0;
    let n = groups.len() as f64;
    let windows = KEP_WINDOWS_MS.len();
    let mut chart = look.frame(
        area,
        "Restarts in the KEP's windows",
        0f64..windows as f64,
        0f64..y_max,
    )?;
    let mut prev = 0;
    let names: Vec<String> = KEP_WINDOWS_MS
        .iter()
        .map(|&b| {
            let s = format!("{}–{} s", prev / 1000, b / 1000);
            prev = b;
            s
        })
        .collect();
    let label = move |x: &f64| {
        let i = x.floor() as usize;
        if (x - x.floor() - 0.5).abs() < 1e-6 {
            names.get(i).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    look.mesh(&mut chart)
        .x_desc("window")
        .y_desc("restarts")
        .x_labels(windows * 2 + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&number_label)
        .disable_x_mesh()
        .draw()?;
    let mut legend = vec![];
    for (gi, (name, color, counts)) in groups.into_iter().enumerate() {
        let w = 0.8 / n;
        chart.draw_series(counts.iter().enumerate().map(move |(i, &c)| {
            let x0 = i as f64 + 0.1 + gi as f64 * w;
            Rectangle::new([(x0, 0.0), (x0 + w * 0.9, c as f64)], color.filled())
        }))?;
        legend.push((name, Key::Patch(color.to_rgba())));
    }
    look.legend(&chart, &legend, false)?;
    area.present()?;
    Ok(Axes::of(&chart, windows as f64, 1.0))
}

/// Colours for a pod's outcome in the Job Gantt chart.
fn result_color(r: crate::engine::job::PodResult) -> RGBColor {
    use crate::engine::job::PodResult::*;
    match r {
        Succeeded => RGBColor(0x2c, 0xa0, 0x2c),
        Failed => RGBColor(0xd6, 0x27, 0x28),
        Ignored => RGBColor(0xaa, 0xaa, 0xaa),
        FailedIndex => RGBColor(0x8c, 0x1c, 0x13),
        FailedJob => RGBColor(0x5a, 0x00, 0x5a),
        RestartedInPlace => RGBColor(0xff, 0x7f, 0x0e),
        Terminated => RGBColor(0x1f, 0x5f, 0xbf),
    }
}

/// A Job's pods by index over time: one bar a pod (or a container run under
/// OnFailure), coloured and hatched by how it ended.
pub fn draw_job<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    run: &crate::engine::job::JobRun,
    look: Look,
) -> DrawResult<DB> {
    use crate::engine::job::PodResult::*;
    let lanes = run.failures_per_index.len().max(1);
    let end_s = run
        .pods
        .iter()
        .map(|p| p.end_ms)
        .max()
        .unwrap_or(0)
        .max(run.condition.at_ms) as f64
        / 1000.0;
    let axis = TimeAxis::for_span(end_s.max(1.0));
    let x_max = (end_s / axis.seconds_per_unit) * 1.05 + 1e-9;
    let mut chart = look.frame(area, "Pods by index", 0f64..x_max, 0f64..lanes as f64 + 1.2)?;
    let lane_label = move |y: &f64| {
        let i = y.floor();
        if (y - i - 0.5).abs() < 1e-6 && (i as usize) < lanes {
            format!("index {}", i as usize)
        } else {
            String::new()
        }
    };
    look.mesh(&mut chart)
        .x_desc(format!("time ({})", axis.unit))
        .x_label_formatter(&number_label)
        .y_labels(lanes * 2 + 3)
        .y_label_formatter(&lane_label)
        .disable_y_mesh()
        .draw()?;
    let bars = run.pods.iter().map(|p| {
        let (x0, x1) = (
            p.start_ms as f64 / 1000.0 / axis.seconds_per_unit,
            (p.end_ms.max(p.start_ms + 1)) as f64 / 1000.0 / axis.seconds_per_unit,
        );
        let y = p.index as f64;
        Rectangle::new(
            [(x0, y + 0.15), (x1, y + 0.85)],
            result_color(p.result).filled(),
        )
    });
    chart.draw_series(bars)?;
    let end_x = run.condition.at_ms as f64 / 1000.0 / axis.seconds_per_unit;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(end_x, 0.0), (end_x, lanes as f64)],
        look.line(look.fg(), 2.0),
    )))?;
    let legend: Vec<(String, Key)> = [
        ("succeeded", Succeeded),
        ("failed (counted)", Failed),
        ("ignored", Ignored),
        ("index failed", FailedIndex),
        ("FailJob", FailedJob),
        ("restarted in place", RestartedInPlace),
        ("running / terminated", Terminated),
    ]
    .into_iter()
    .filter(|&(_, result)| run.pods.iter().any(|p| p.result == result))
    .map(|(label, result)| (label.to_owned(), Key::Patch(result_color(result).to_rgba())))
    .collect();
    look.legend(&chart, &legend, true)?;
    area.present()?;
    Ok(Axes::of(&chart, x_max, axis.seconds_per_unit))
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
