//! Restarts in the KEP's time windows, per scenario.

use super::prelude::*;

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
        * 1.05
        + 1.0;
    let n = groups.len() as f64;
    let windows = KEP_WINDOWS_MS.len();
    let legend: Vec<(String, Key)> = groups
        .iter()
        .map(|(name, color, _)| (name.clone(), Key::Patch(look.ink(*color).to_rgba())))
        .collect();
    let (plot, below, at) = look.legend_split(area, &legend)?;
    let mut chart = look.frame(
        &plot,
        "Restarts in the KEP's windows",
        0f64..windows as f64,
        0f64..y_max,
    )?;
    let mut prev = 0;
    let names: Vec<String> = KEP_WINDOWS_MS
        .iter()
        .map(|&b| {
            // The unit in the axis's words: "70–150 s150–310 s" ran together
            // on a 360 px phone.
            let s = format!("{}–{}", prev / 1000, b / 1000);
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
        .x_desc("window (s)")
        .y_desc("restarts")
        .x_labels(windows * 2 + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&number_label)
        .y_labels(whole_ticks(y_max))
        .disable_x_mesh()
        .draw()?;
    for (gi, (_, color, counts)) in groups.into_iter().enumerate() {
        let (w, color) = (0.8 / n, look.ink(color));
        chart.draw_series(counts.iter().enumerate().map(move |(i, &c)| {
            let x0 = i as f64 + 0.1 + gi as f64 * w;
            Rectangle::new([(x0, 0.0), (x0 + w * 0.9, c as f64)], color.filled())
        }))?;
    }
    look.legend_below(&below, &legend, &at)?;
    area.present()?;
    Ok(Axes::of(&chart, windows as f64, 1.0))
}
