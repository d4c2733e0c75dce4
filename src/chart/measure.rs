//! Text measuring, where a backend's own measurement will not do.

use super::prelude::*;

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
        (FONT, size).into_font().box_size(text).unwrap_or((0, 0))
    }
}

/// A text style as a CSS font, as plotters' canvas and SVG backends write it.
pub fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        crate::engine::duration::rounded(style.size(), 3),
        style.family().as_str()
    )
}

/// A backend whose text `measure` measures; all else as the backend does it.
pub struct Measured<'m, DB> {
    pub backend: DB,
    pub measure: &'m dyn MeasureText,
}

pub(super) type BackendResult<DB> = Result<(), DrawingErrorKind<<DB as DrawingBackend>::ErrorType>>;

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
