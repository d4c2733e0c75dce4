//! The charts through plotters' SVG backend: the same drawing code as the canvas.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::chart::{draw_delays, draw_load, draw_restarts};
use crashloop_explorer::engine::{explore, Exploration, Scenario, ScenarioSpec};
use plotters::prelude::*;

fn svg(draw: impl Fn(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (720, 300)).into_drawing_area();
        draw(&area);
    }
    out
}

fn exploration(json: &str) -> Exploration {
    explore(&serde_json::from_str::<Scenario>(json).unwrap())
}

#[test]
fn each_chart_draws_both_series_with_labels() {
    let e = exploration(r#"{"initialMs": 1000, "maxMs": 60000, "model": "kep"}"#);
    for (name, doc) in [
        ("restarts", svg(|a| draw_restarts(a, &e).unwrap())),
        ("delays", svg(|a| draw_delays(a, &e).unwrap())),
        ("load", svg(|a| draw_load(a, &e).unwrap())),
    ] {
        assert!(doc.starts_with("<svg"), "{name}");
        assert!(doc.contains("this configuration"), "{name}");
        assert!(
            doc.contains("today&apos;s default") || doc.contains("today's default"),
            "{name}"
        );
        assert!(doc.matches("<polyline").count() >= 2, "{name}: two series");
    }
    // A 30-minute horizon is labelled in minutes.
    assert!(svg(|a| draw_restarts(a, &e).unwrap()).contains("elapsed time (min)"));
}

#[test]
fn the_chart_follows_the_numbers() {
    let a = exploration(r#"{"initialMs": 1000, "maxMs": 60000}"#);
    let b = exploration(r#"{"initialMs": 10000, "maxMs": 300000}"#);
    assert_ne!(
        svg(|x| draw_restarts(x, &a).unwrap()),
        svg(|x| draw_restarts(x, &b).unwrap())
    );
}

#[test]
fn a_day_at_one_second_draws_folded() {
    let e = explore(
        &Scenario::try_from(ScenarioSpec {
            initial_ms: Some(25),
            max_ms: Some(1000),
            horizon_ms: 86_400_000,
            pods: Some(250),
            ..Default::default()
        })
        .unwrap(),
    );
    let doc = svg(|a| draw_load(a, &e).unwrap());
    assert!(doc.contains("elapsed time (h)"));
    assert!(
        doc.len() < 400_000,
        "folded, not 8640 windows of points: {} bytes",
        doc.len()
    );
}
