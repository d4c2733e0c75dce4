//! The look shared by every chart: colours, dashes, the frame, the mesh and
//! the legend, at the pixel scale of the target.

use super::prelude::*;

pub const REFERENCE: RGBColor = RGBColor(0x88, 0x88, 0x88);
/// The live scenario first, then up to three compared ones.
pub const PALETTE: [RGBColor; 4] = [
    RGBColor(0x1f, 0x5f, 0xbf),
    RGBColor(0xd9, 0x5f, 0x02),
    RGBColor(0x1b, 0x9e, 0x77),
    RGBColor(0x75, 0x70, 0xb3),
];
pub(super) const LIMIT: RGBColor = RGBColor(0xc0, 0x20, 0x20);
/// The event client's limit, marked beside the main one's.
pub(super) const EVENT_LIMIT: RGBColor = RGBColor(0xe6, 0x9f, 0x00);
/// The colours above as drawn on the other theme's background, where they
/// fall under 3:1 (`Look::ink`): the live blue and the limit's red on the
/// dark one, the event limit's amber on white.
const INKS: [(bool, RGBColor, RGBColor); 3] = [
    (true, PALETTE[0], RGBColor(0x5b, 0x9b, 0xf0)),
    (true, LIMIT, RGBColor(0xe8, 0x5c, 0x5c)),
    (false, EVENT_LIMIT, RGBColor(0xa8, 0x6e, 0x00)),
];
/// The kinds of request, stacked in `Kind::ALL`'s order, for each theme
/// (light, dark): status in blues, events in greens; each pair told apart
/// by lightness and by the lighter one's dots (`Fill::Dotted`) too. Every
/// solid colour and every dot is at least 3:1 against its background
/// (WCAG 2.2's non-text contrast); the dropped events are a dashed line.
const KIND_COLORS: [[RGBColor; 5]; 2] = [
    [
        RGBColor(0x0b, 0x5c, 0xad),
        RGBColor(0x9c, 0xc6, 0xf0),
        RGBColor(0x00, 0x79, 0x5a),
        RGBColor(0x9a, 0xdc, 0xc4),
        RGBColor(0x6e, 0x6e, 0x6e),
    ],
    [
        RGBColor(0x6c, 0xb6, 0xff),
        RGBColor(0x24, 0x4e, 0x7a),
        RGBColor(0x3f, 0xd1, 0xa2),
        RGBColor(0x1d, 0x5c, 0x4a),
        RGBColor(0x9a, 0xa4, 0xae),
    ],
];

/// How a stacked kind is filled: solid, or a lighter fill with its darker
/// sibling's dots on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Fill {
    Solid(RGBColor),
    Dotted(RGBColor, RGBColor),
}

impl Fill {
    /// The colour a legend's key or a line of this kind is drawn in.
    pub(super) fn color(self) -> RGBColor {
        match self {
            Fill::Solid(c) | Fill::Dotted(c, _) => c,
        }
    }
}

/// Dash (on, off) per palette index; 0 is solid.
pub(super) const DASHES: [(u32, u32); 4] = [(0, 0), (10, 4), (3, 3), (12, 3)];
/// Every label's font family. Named by the enum, not the string "sans-serif":
/// plotters lowercases a family given as text.
pub(super) const FONT: FontFamily = FontFamily::SansSerif;
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
    pub(super) fn of<DB: DrawingBackend>(
        chart: &Chart2d<'_, DB>,
        x_max: f64,
        seconds_per_unit: f64,
    ) -> Axes {
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

pub(super) type Chart2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// A numeric axis: plotters' own, whose labels default to ours
/// (`number_label`). Plotters' f64 axis writes a label it is not given
/// through core's float writer (`{}`, `{:.0}`); every label here is ours,
/// and this default keeps that writer out of the wasm.
#[derive(Clone)]
pub(super) struct Axis(RangedCoordf64);

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;
    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.0.map(value, limit)
    }
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        self.0.key_points(hint)
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.0.range()
    }
}

impl ValueFormatter<f64> for Axis {
    fn format(value: &f64) -> String {
        number_label(value)
    }
}

impl Look {
    pub(super) fn px(self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }
    pub(super) fn bg(self) -> RGBColor {
        if self.dark {
            RGBColor(0x16, 0x1b, 0x22)
        } else {
            WHITE
        }
    }
    pub(super) fn fg(self) -> RGBColor {
        if self.dark {
            RGBColor(0xdd, 0xe3, 0xea)
        } else {
            BLACK
        }
    }
    /// A kind of request's fill in this theme.
    pub(super) fn kind(self, k: RequestKind) -> Fill {
        let colors = &KIND_COLORS[usize::from(self.dark)];
        match k {
            RequestKind::PatchPodStatus => Fill::Dotted(colors[1], colors[0]),
            RequestKind::PatchEvents => Fill::Dotted(colors[3], colors[2]),
            k => Fill::Solid(colors[k as usize]),
        }
    }
    /// What the client rate limiters let through: the foreground's colour,
    /// so that it stands apart from every kind.
    pub(super) fn sent(self) -> RGBColor {
        self.fg()
    }
    pub(super) fn font(self, size: f64) -> TextStyle<'static> {
        (FONT, size * self.scale).into_font().color(&self.fg())
    }
    pub(super) fn line(self, color: RGBColor, width: f64) -> ShapeStyle {
        self.ink(color).stroke_width(self.px(width))
    }
    /// A series' or a mark's colour as drawn on this theme's background:
    /// every one at least 3:1 against it (WCAG 2.2's non-text contrast).
    pub(super) fn ink(self, color: RGBColor) -> RGBColor {
        INKS.iter()
            .find(|&&(dark, base, _)| dark == self.dark && base == color)
            .map_or(color, |&(_, _, drawn)| drawn)
    }
    /// The caption's font: 16 px, smaller where the caption would not fit
    /// the chart's width (a 360 px phone), never below 9 px.
    fn caption_font<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        caption: &str,
    ) -> TextStyle<'static> {
        // Room for the margins on either side.
        let room = f64::from(area.dim_in_pixel().0) - f64::from(self.px(16.0));
        self.fitted_font(area, caption, 16.0, room)
    }

    /// The font of a y axis's description: 13 px, smaller where it is
    /// longer than the plot `area` leaves it (caption, margins and the x
    /// labels off), never below 9 px.
    pub(super) fn y_desc_font<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        desc: &str,
    ) -> TextStyle<'static> {
        let room =
            f64::from(area.dim_in_pixel().1) - f64::from(self.px(16.0 + 2.0 * 8.0 + 8.0 + 36.0));
        self.fitted_font(area, desc, 13.0, room)
    }

    /// `size`, or smaller so that `text` is no longer than `room` pixels,
    /// down to `MIN_TEXT_SIZE`.
    fn fitted_font<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        text: &str,
        size: f64,
        room: f64,
    ) -> TextStyle<'static> {
        match area.estimate_text_size(text, &self.font(size)) {
            Ok((w, _)) if f64::from(w) > room && w > 0 && room > 0.0 => {
                self.font((size * room / f64::from(w)).max(MIN_TEXT_SIZE))
            }
            _ => self.font(size),
        }
    }

    /// The frame every chart shares: background, caption, margins, label areas.
    pub(super) fn frame<'a, DB: DrawingBackend>(
        self,
        area: &'a DrawingArea<DB, Shift>,
        caption: &str,
        x: std::ops::Range<f64>,
        y: std::ops::Range<f64>,
    ) -> Result<Chart2d<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&self.bg())?;
        ChartBuilder::on(area)
            .caption(caption, self.caption_font(area, caption))
            .margin(self.px(8.0))
            .x_label_area_size(self.px(36.0))
            .y_label_area_size(self.px(56.0))
            .build_cartesian_2d(Axis(x.into()), Axis(y.into()))
    }

    /// Axes and grid in this look's colours.
    pub(super) fn mesh<'a, 'b, DB: DrawingBackend>(
        self,
        chart: &'b mut Chart2d<'a, DB>,
    ) -> MeshStyle<'a, 'b, Axis, Axis, DB> {
        let mut mesh = chart.configure_mesh();
        mesh.axis_style(self.fg())
            .label_style(self.font(12.0))
            .axis_desc_style(self.font(13.0))
            .bold_line_style(self.fg().mix(0.12))
            .light_line_style(self.bg().mix(0.0));
        mesh
    }

    /// `area` split into a plot above and its legend's rows below, and
    /// where each entry goes there: measured before the plot is laid out, so
    /// that the plot takes the rest and no entry ever covers data. Every
    /// chart's legend is drawn this way (`legend_below`).
    pub(super) fn legend_split<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        rows: &[(String, Key)],
    ) -> Result<LegendSplit<DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        let (at, height) = self.legend_flow(area, rows)?;
        let (plot, below) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(height));
        Ok((plot, below, at))
    }

    /// Where a legend's rows go below a plot: each entry's left edge and
    /// row, flowing left to right, and the legend's height.
    fn legend_flow<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        rows: &[(String, Key)],
    ) -> Result<LegendFlow, DrawingAreaErrorKind<DB::ErrorType>> {
        let px = |v: f64| self.px(v) as i32;
        let (row_h, key_w, gap, space) = (px(16.0), px(18.0), px(6.0), px(16.0));
        let width = area.dim_in_pixel().0 as i32 - 2 * px(8.0);
        let font = self.font(12.0);
        let (mut x, mut row, mut at) = (0, 0, vec![]);
        for (label, _) in rows {
            let w = key_w + gap + area.estimate_text_size(label, &font)?.0 as i32;
            if x > 0 && x + w > width {
                (x, row) = (0, row + 1);
            }
            at.push((x, row));
            x += w + space;
        }
        let lines = if rows.is_empty() { 0 } else { row + 1 };
        Ok((at, (lines * row_h + 2 * px(4.0)).max(0) as u32))
    }

    /// A legend laid out by `legend_split`, drawn on its own background in
    /// `area` (below a plot).
    pub(super) fn legend_below<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        rows: &[(String, Key)],
        at: &[(i32, i32)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let px = |v: f64| self.px(v) as i32;
        let (row_h, key_w, gap) = (px(16.0), px(18.0), px(6.0));
        area.fill(&self.bg())?;
        let style = self.font(12.0).pos(Pos::new(HPos::Left, VPos::Center));
        for ((label, key), &(x, row)) in rows.iter().zip(at) {
            let (x, y) = (px(8.0) + x, px(4.0) + row * row_h + row_h / 2);
            self.key(area, *key, (x, y), key_w)?;
            area.draw(&Text::new(
                label.as_str(),
                (x + key_w + gap, y),
                style.clone(),
            ))?;
        }
        Ok(())
    }

    /// A legend row's key at `(x, y)` (its left end and middle).
    fn key<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        key: Key,
        (x, y): (i32, i32),
        key_w: i32,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let px = |v: f64| self.px(v) as i32;
        match key {
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
            Key::Fill(fill) => {
                let (lo, hi) = ((x, y - px(5.0)), (x + key_w, y + px(5.0)));
                match fill {
                    Fill::Solid(c) => area.draw(&Rectangle::new([lo, hi], c.filled()))?,
                    Fill::Dotted(light, dots) => {
                        area.draw(&Rectangle::new([lo, hi], light.filled()))?;
                        let step = px(DOT_STEP);
                        for dx in (step / 2..key_w).step_by(step.max(1) as usize) {
                            for dy in [-px(2.5), px(2.5)] {
                                area.draw(&Rectangle::new(
                                    [
                                        (x + dx - px(1.0), y + dy - px(1.0)),
                                        (x + dx + px(1.0), y + dy + px(1.0)),
                                    ],
                                    dots.filled(),
                                ))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// How a legend row shows its series: a stretch of its line (with its dashes
/// on and off, in backend pixels; 0 on is solid), or a filled box.
#[derive(Clone, Copy)]
pub(super) enum Key {
    Line(ShapeStyle, (u32, u32)),
    Patch(RGBAColor),
    Fill(Fill),
}

/// Each legend entry's left edge and row, and the legend's height.
type LegendFlow = (Vec<(i32, i32)>, u32);

/// A plot's area, its legend's below it, and each entry's place there.
pub(super) type LegendSplit<DB> = (
    DrawingArea<DB, Shift>,
    DrawingArea<DB, Shift>,
    Vec<(i32, i32)>,
);

/// The smallest a caption or an axis's description is drawn, in CSS pixels.
const MIN_TEXT_SIZE: f64 = 9.0;

/// The spacing of a dotted fill's dots, in CSS pixels.
pub(super) const DOT_STEP: f64 = 7.0;

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG 2.2's contrast ratio of two sRGB colours.
    fn contrast(a: RGBColor, b: RGBColor) -> f64 {
        let luminance = |c: RGBColor| {
            let lin = |v: u8| {
                let v = f64::from(v) / 255.0;
                if v <= 0.04045 {
                    v / 12.92
                } else {
                    ((v + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
        };
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    // Every line, mark, bar and dot on both themes stands 3:1 from the
    // background (non-text contrast): the live blue on dark was 2.9:1, the
    // limit's red 2.9:1, the event limit's amber on white 2.2:1.
    #[test]
    fn every_series_stands_out_on_both_themes() {
        use crate::engine::RequestKind;
        assert!(
            contrast(
                PALETTE[0],
                Look {
                    dark: true,
                    ..Look::default()
                }
                .bg()
            ) < 3.0
        );
        for dark in [false, true] {
            let look = Look {
                dark,
                ..Look::default()
            };
            let mut inks: Vec<(String, RGBColor)> = PALETTE
                .iter()
                .chain(&[REFERENCE, LIMIT, EVENT_LIMIT])
                .map(|&c| (format!("{c:?}"), look.ink(c)))
                .collect();
            for k in RequestKind::ALL {
                let (solid, dots) = match look.kind(k) {
                    Fill::Solid(c) => (c, c),
                    Fill::Dotted(_, dots) => (dots, dots),
                };
                inks.push((format!("{k:?}"), solid));
                inks.push((format!("{k:?} dots"), dots));
            }
            for r in crate::engine::job::PodResult::ALL {
                inks.push((format!("{r:?}"), super::super::job::result_color(look, r)));
            }
            for (name, c) in inks {
                let ratio = contrast(c, look.bg());
                assert!(
                    ratio >= 3.0,
                    "{name} on {}: {ratio:.2}",
                    if dark { "dark" } else { "light" }
                );
            }
        }
    }
}
