//! A plotters backend on a `<canvas>`. Kept over plotters-canvas, measured
//! on the first view (4 charts, Chromium): plotters-canvas measures each
//! label with an inline-styled `<span>` (plotters' web font metrics, 38 of
//! them), which the page's Content-Security-Policy refuses, and issues 1,445
//! strokes and 1,453 stroke styles where this backend issues 184 and 192:
//! it measures text on the canvas (`chart::MeasureText`), strokes a style's
//! lines as one path, and sets only the text state that changes.

use plotters::prelude::*;
use std::cell::RefCell;

use plotters::style::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::chart::{css_font, MeasureText};
use crate::engine::duration::rounded;

pub struct Canvas {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    text: CanvasText,
    /// The stroke style of the path being gathered, if one is open.
    open: Option<Stroke>,
    /// The fill colour (rgb, alpha bits) last set, where still in force.
    fill: Option<((u8, u8, u8), u64)>,
    /// Text alignment and baseline last set.
    align: Option<&'static str>,
    baseline: Option<&'static str>,
}

/// Text measured on a canvas context (`measureText`), not in the page. Its
/// font is the context's, shared with the drawing: set only when it changes.
pub struct CanvasText {
    context: CanvasRenderingContext2d,
    /// The font set on the context last.
    font: RefCell<String>,
}

impl CanvasText {
    fn new(context: CanvasRenderingContext2d) -> Self {
        Self {
            context,
            font: RefCell::new(String::new()),
        }
    }

    fn set_font(&self, font: &str) {
        let mut current = self.font.borrow_mut();
        if *current != font {
            self.context.set_font(font);
            current.clear();
            current.push_str(font);
        }
    }

    /// On a canvas that is never shown, for the SVG export.
    pub fn offscreen() -> Option<Self> {
        let canvas = web_sys::window()?
            .document()?
            .create_element("canvas")
            .ok()?
            .dyn_into::<HtmlCanvasElement>()
            .ok()?;
        context_2d(&canvas).map(Self::new)
    }
}

/// Whether `value` differs from the state last set (`last`), which it then
/// becomes: a context property is set only when it changes.
fn changed<T: PartialEq>(last: &mut Option<T>, value: T) -> bool {
    if last.as_ref() == Some(&value) {
        return false;
    }
    *last = Some(value);
    true
}

impl MeasureText for CanvasText {
    fn text_size(&self, text: &str, font: &str, size: f64) -> (u32, u32) {
        self.set_font(font);
        let Ok(m) = self.context.measure_text(text) else {
            return (0, 0);
        };
        let height = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
        // The line box a span of this font would have, where the browser does
        // not report the font's bounding box.
        let height = if height > 0.0 { height } else { size * 1.15 };
        (m.width().ceil() as u32, height.ceil() as u32)
    }
}

fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// A stroke style, comparable: colour, alpha bits and width.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stroke((u8, u8, u8), u64, u32);

impl Stroke {
    fn of<S: BackendStyle>(style: &S) -> Self {
        let c = style.color();
        Stroke(c.rgb, c.alpha.to_bits(), style.stroke_width())
    }
}

/// A canvas call that failed. Plotters stops drawing at an error; a failed
/// call here draws nothing and the chart goes on, so none is ever made.
#[derive(Debug)]
pub struct CanvasError;

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the canvas refused a drawing call")
    }
}

impl std::error::Error for CanvasError {}

type Error = DrawingErrorKind<CanvasError>;

/// A colour as the canvas reads it, its alpha to thousandths.
fn css_color(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", rounded(color.alpha, 3))
}

impl Canvas {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = context_2d(&canvas)?;
        Some(Self {
            text: CanvasText::new(context.clone()),
            canvas,
            context,
            open: None,
            fill: None,
            align: None,
            baseline: None,
        })
    }

    /// Strokes the gathered path, so that what comes next paints over it.
    fn flush(&mut self) {
        if self.open.take().is_some() {
            self.context.stroke();
        }
    }

    /// Sets the fill colour, if it is not the one in force, for a fill that
    /// paints over the gathered path (stroked first).
    fn set_fill(&mut self, color: BackendColor) {
        self.flush();
        if changed(&mut self.fill, (color.rgb, color.alpha.to_bits())) {
            self.context.set_fill_style_str(&css_color(color));
        }
    }

    /// Sets the stroke colour and width for a shape stroked on its own
    /// (the gathered path, if any, is stroked first).
    fn set_stroke<S: BackendStyle>(&mut self, style: &S) {
        self.flush();
        self.context.set_stroke_style_str(&css_color(style.color()));
        self.context.set_line_width(f64::from(style.stroke_width()));
    }

    /// Adds a polyline to the path of its style.
    fn polyline<S: BackendStyle>(
        &mut self,
        points: impl IntoIterator<Item = (f64, f64)>,
        style: &S,
    ) {
        if style.color().alpha == 0.0 {
            return;
        }
        let stroke = Stroke::of(style);
        if self.open != Some(stroke) {
            self.set_stroke(style);
            self.context.begin_path();
            self.open = Some(stroke);
        }
        let mut points = points.into_iter();
        if let Some((x, y)) = points.next() {
            self.context.move_to(x, y);
            for (x, y) in points {
                self.context.line_to(x, y);
            }
        }
    }
}

impl Drop for Canvas {
    fn drop(&mut self) {
        self.flush();
    }
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }

    fn ensure_prepared(&mut self) -> Result<(), Error> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), Error> {
        self.flush();
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error> {
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.set_fill(color);
        let (x, y) = (f64::from(point.0), f64::from(point.1));
        self.context.fill_rect(x, y, 1.0, 1.0);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error> {
        // On the half pixel, so that a 1 px horizontal or vertical line is crisp
        // (as plotters-canvas does it).
        let (mut a, mut b) = (
            (f64::from(from.0), f64::from(from.1)),
            (f64::from(to.0), f64::from(to.1)),
        );
        if from.0 == to.0 {
            a.0 -= 0.5;
            b.0 -= 0.5;
        }
        if from.1 == to.1 {
            a.1 -= 0.5;
            b.1 -= 0.5;
        }
        self.polyline([a, b], style);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
        let (w, h) = (
            f64::from(bottom_right.0 - upper_left.0),
            f64::from(bottom_right.1 - upper_left.1),
        );
        if fill {
            self.set_fill(style.color());
            self.context.fill_rect(x, y, w, h);
        } else {
            self.set_stroke(style);
            self.context.stroke_rect(x, y, w, h);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        let points = path.into_iter().map(|(x, y)| (f64::from(x), f64::from(y)));
        self.polyline(points, style);
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        if fill {
            self.set_fill(style.color());
        } else {
            self.set_stroke(style);
        }
        self.context.begin_path();
        let (x, y) = (f64::from(center.0), f64::from(center.1));
        let _ = self
            .context
            .arc(x, y, f64::from(radius), 0.0, std::f64::consts::TAU);
        if fill {
            self.context.fill();
        } else {
            self.context.stroke();
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.set_fill(style.color());
        self.context.begin_path();
        let mut vert = vert.into_iter();
        if let Some((x, y)) = vert.next() {
            self.context.move_to(f64::from(x), f64::from(y));
            for (x, y) in vert {
                self.context.line_to(f64::from(x), f64::from(y));
            }
            self.context.close_path();
        }
        self.context.fill();
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Error> {
        self.flush();
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        // As plotters-canvas draws a label, less the state already set.
        let anchor = style.anchor();
        let baseline = match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if changed(&mut self.baseline, baseline) {
            self.context.set_text_baseline(baseline);
        }
        let align = match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        if changed(&mut self.align, align) {
            self.context.set_text_align(align);
        }
        self.set_fill(color);
        self.text.set_font(&css_font(style));
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let (x, y) = (f64::from(pos.0), f64::from(pos.1));
        // A failed call draws nothing; the chart goes on (as it would in plotters).
        if quarter_turns == 0.0 {
            let _ = self.context.fill_text(text, x, y);
        } else {
            // restore() brings back the state set above, so it stays known.
            self.context.save();
            let _ = self.context.translate(x, y);
            let _ = self
                .context
                .rotate(quarter_turns * std::f64::consts::FRAC_PI_2);
            let _ = self.context.fill_text(text, 0.0, 0.0);
            self.context.restore();
        }
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Error> {
        Ok(self.text.text_size(text, &css_font(style), style.size()))
    }
}
