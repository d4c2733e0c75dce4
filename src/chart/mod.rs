//! The charts, drawn through any plotters backend: the canvas in the app,
//! SVG for export and the native tests. Series differ by colour and by dash
//! pattern, so they read without colour too.
//!
//! `look` (colours, frame, legend), `measure` (text measuring), `lines` (the
//! line-chart drawing path), one module per chart, and `Kind`: the one list
//! of the app's charts that the canvas, the exports and the DOM ids share.

mod cluster;
mod delays;
mod job;
mod lines;
mod load;
mod look;
mod measure;
mod restarts;
mod windows;

/// What every chart module draws with.
mod prelude {
    pub(super) use plotters::chart::MeshStyle;
    pub(super) use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
    pub(super) use plotters::coord::types::RangedCoordf64;
    pub(super) use plotters::coord::Shift;
    pub(super) use plotters::prelude::*;
    pub(super) use plotters::style::text_anchor::{HPos, Pos, VPos};
    pub(super) use plotters_backend::{
        BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind,
    };

    pub(super) use super::lines::*;
    pub(super) use super::look::*;
    // Ours, not plotters' alias of the same name.
    pub(super) use super::look::DrawResult;
    pub(super) use crate::engine::audit::{kep_window_counts, KEP_WINDOWS_MS};
    pub(super) use crate::engine::{ApiLoad, Ms, RequestKind, RequestsTimeline, Timeline, Times};
}

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

pub use cluster::{draw_cluster_load, draw_setting};
pub use delays::draw_delays;
pub use job::draw_job;
pub use lines::{fold_min_max, restart_steps, ChartData, Series, LIVE_LABEL};
pub use load::draw_load;
pub use look::{Axes, DrawResult, Look, PALETTE, REFERENCE};
pub use measure::{css_font, FontText, MeasureText, Measured};
pub use restarts::draw_restarts;
pub use windows::draw_windows;

/// The app's charts: each one's DOM id, export file name and drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Restarts,
    Delays,
    Load,
    Windows,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Restarts, Kind::Delays, Kind::Load, Kind::Windows];

    /// The canvas's id in the page.
    pub fn dom_id(self) -> &'static str {
        match self {
            Kind::Restarts => "chart-restarts",
            Kind::Delays => "chart-delays",
            Kind::Load => "chart-load",
            Kind::Windows => "chart-windows",
        }
    }

    /// The exported file's name, without extension.
    pub fn file_stem(self) -> &'static str {
        match self {
            Kind::Restarts => "restarts",
            Kind::Delays => "waits",
            Kind::Load => "api-load",
            Kind::Windows => "kep-windows",
        }
    }

    /// The chart's name on the command line (`figure --chart`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Restarts => "restarts",
            Kind::Delays => "waits",
            Kind::Load => "load",
            Kind::Windows => "windows",
        }
    }

    /// A chart by its name or its export file's name.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == name || k.file_stem() == name)
    }

    /// The chart's height in CSS pixels, wide and on a narrow screen: a
    /// legend goes below its plot, in more rows when narrow, so a narrow
    /// chart is no shorter.
    pub fn heights(self) -> (u32, u32) {
        match self {
            Kind::Load => (380, 420),
            _ => (300, 300),
        }
    }

    /// What the chart shows, for screen readers.
    pub fn alt(self) -> &'static str {
        match self {
            Kind::Restarts => "Cumulative restarts of one pod over time, against today's default",
            Kind::Delays => "Wait before each restart by restart number",
            Kind::Load => "Node /pods requests per 10-second window: offered by kind, and sent through the kubelet's client rate limiters",
            Kind::Windows => "Restarts in the KEP's time windows, per scenario",
        }
    }

    pub fn draw<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        data: &ChartData,
    ) -> DrawResult<DB> {
        match self {
            Kind::Restarts => draw_restarts(area, data),
            Kind::Delays => draw_delays(area, data),
            Kind::Load => draw_load(area, data),
            Kind::Windows => draw_windows(area, data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::prelude::*;

    #[test]
    fn steps_are_exact_when_few_and_folded_when_many() {
        assert_eq!(
            restart_steps(&Times::from(vec![1_000, 3_000]), 10_000),
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
        let pts = restart_steps(&Times::from(many), 10_000_000);
        assert!(pts.len() <= MAX_POINTS + 1);
        assert_eq!(pts.last(), Some(&(10_000.0, 10_000.0)));
    }

    // 1,000 values into 400 buckets: 3 a bucket, so 334 buckets (the last
    // holds one value), each its lowest then its highest.
    #[test]
    fn folding_buckets() {
        let pts = fold_min_max((0..1_000).map(f64::from), 0.0, 1.0);
        assert_eq!(pts.len(), 668);
        assert_eq!(pts[..4], [(0.0, 0.0), (2.0, 2.0), (3.0, 3.0), (5.0, 5.0)]);
        assert_eq!(pts[666..], [(999.0, 999.0), (999.0, 999.0)]);
    }

    // Folding whole milliseconds and showing each bucket's ends in seconds
    // is folding the seconds: showing does not reorder.
    #[test]
    fn folding_then_showing_is_showing_then_folding() {
        let ms: Vec<Ms> = (0..86_404u64).map(|i| (i * 7_919) % 1_000_003).collect();
        let seconds = fold_min_max(ms.iter().map(|&d| d as f64 / 1000.0), 1.0, 1.0);
        let shown = super::lines::fold_shown(&ms, 1.0, 1.0, |d| d as f64 / 1000.0);
        assert_eq!(shown, seconds);
        // 217 values a bucket (86,404 / 400, up), so 399 buckets.
        assert_eq!(shown.len(), 798);
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
