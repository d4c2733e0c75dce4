//! The Job's pods over time (by index for an Indexed Job).

use super::prelude::*;

/// Colours for a pod's outcome in the Job Gantt chart.
pub(super) fn result_color(look: Look, r: crate::engine::job::PodResult) -> RGBColor {
    use crate::engine::job::PodResult::*;
    // (light, dark): each at least 3:1 against its theme's background.
    let (light, dark) = match r {
        Succeeded => (RGBColor(0x2c, 0xa0, 0x2c), RGBColor(0x2c, 0xa0, 0x2c)),
        Failed => (RGBColor(0xd6, 0x27, 0x28), RGBColor(0xd6, 0x27, 0x28)),
        Ignored => (RGBColor(0x80, 0x80, 0x80), RGBColor(0xaa, 0xaa, 0xaa)),
        FailedIndex => (RGBColor(0x8c, 0x1c, 0x13), RGBColor(0xe0, 0x70, 0x5f)),
        FailedJob => (RGBColor(0x5a, 0x00, 0x5a), RGBColor(0xc0, 0x70, 0xc0)),
        RestartedInPlace => (RGBColor(0xc2, 0x5e, 0x00), RGBColor(0xff, 0x7f, 0x0e)),
        Terminated => (PALETTE[0], look.ink(PALETTE[0])),
    };
    if look.dark {
        dark
    } else {
        light
    }
}

/// A Job's pods over time, by index for an Indexed Job: one bar a pod (or a
/// container run under OnFailure), coloured and hatched by how it ended.
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
    // A NonIndexed Job's pods have no index: its lanes are the pods
    // running at once.
    let (caption, lane) = if run.indexed {
        ("Pods by index", "index")
    } else {
        ("Pods over time, one lane per pod running at once", "pod")
    };
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
    .map(|(label, result)| {
        (
            label.to_owned(),
            Key::Patch(result_color(look, result).to_rgba()),
        )
    })
    .collect();
    let (plot, below, at) = look.legend_split(area, &legend)?;
    let mut chart = look.frame(&plot, caption, 0f64..x_max, 0f64..lanes as f64)?;
    let lane_label = move |y: &f64| {
        let i = y.floor();
        if (y - i - 0.5).abs() < 1e-6 && (i as usize) < lanes {
            format!("{lane} {}", i as usize + usize::from(!run.indexed))
        } else {
            String::new()
        }
    };
    look.mesh(&mut chart)
        .x_desc(format!("time ({})", axis.unit))
        .x_label_formatter(&number_label)
        // Key points at each lane's edges and middle, labelled there.
        .y_labels(lanes * 2 + 1)
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
            result_color(look, p.result).filled(),
        )
    });
    chart.draw_series(bars)?;
    let end_x = run.condition.at_ms as f64 / 1000.0 / axis.seconds_per_unit;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(end_x, 0.0), (end_x, lanes as f64)],
        look.line(look.fg(), 2.0),
    )))?;
    look.legend_below(&below, &legend, &at)?;
    area.present()?;
    Ok(Axes::of(&chart, x_max, axis.seconds_per_unit))
}
