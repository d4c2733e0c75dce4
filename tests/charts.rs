//! The charts through plotters' SVG backend: the same drawing code as the canvas.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::chart::{
    draw_delays, draw_load, draw_restarts, draw_windows, ChartData, Series,
};
use crashloop_explorer::engine::{explore, Exploration, Scenario, ScenarioSpec};
use plotters::prelude::*;

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn svg<T>(draw: impl Fn(&Area) -> T) -> String {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (720, 300)).into_drawing_area();
        let _ = draw(&area);
    }
    out
}

fn exploration(json: &str) -> Exploration {
    explore(&serde_json::from_str::<Scenario>(json).unwrap())
}

fn data(e: &Exploration) -> ChartData<'_> {
    ChartData::of(e)
}

#[test]
fn each_chart_draws_every_series_with_labels() {
    let e = exploration(r#"{"initialMs": 1000, "maxMs": 60000, "model": "kep"}"#);
    let d = data(&e);
    for (name, doc) in [
        ("restarts", svg(|a| draw_restarts(a, &d).unwrap())),
        ("delays", svg(|a| draw_delays(a, &d).unwrap())),
        ("load", svg(|a| draw_load(a, &d).unwrap())),
        ("windows", svg(|a| draw_windows(a, &d).unwrap())),
    ] {
        assert!(doc.starts_with("<svg"), "{name}");
        assert!(doc.contains("this configuration"), "{name}");
        assert!(
            doc.contains("today&apos;s default") || doc.contains("today's default"),
            "{name}"
        );
    }
    assert!(svg(|a| draw_restarts(a, &d).unwrap()).contains("elapsed time (min)"));
    assert!(svg(|a| draw_load(a, &d).unwrap()).contains("kubeAPIQPS 50"));
}

#[test]
fn the_band_and_compared_scenarios_are_drawn() {
    let live = exploration(r#"{"initialMs": 1000, "maxMs": 60000, "model": "kubelet"}"#);
    let other = exploration(r#"{"initialMs": 250, "maxMs": 60000, "model": "kep"}"#);
    assert!(live.timeline.band.is_some());
    let mut d = data(&live);
    let one = svg(|a| draw_restarts(a, &d).unwrap());
    assert!(one.contains("jitter band"));
    d.series.push(Series {
        label: "Rapid",
        timeline: &other.timeline,
    });
    let two = svg(|a| draw_restarts(a, &d).unwrap());
    assert!(two.contains("Rapid") && !one.contains("Rapid"));
    assert!(svg(|a| draw_windows(a, &d).unwrap()).contains("Rapid"));
}

#[test]
fn the_chart_follows_the_numbers() {
    let a = exploration(r#"{"initialMs": 1000, "maxMs": 60000}"#);
    let b = exploration(r#"{"initialMs": 10000, "maxMs": 300000}"#);
    assert_ne!(
        svg(|x| draw_restarts(x, &data(&a)).unwrap()),
        svg(|x| draw_restarts(x, &data(&b)).unwrap())
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
    let doc = svg(|a| draw_load(a, &data(&e)).unwrap());
    assert!(doc.contains("elapsed time (h)"));
    assert!(doc.len() < 600_000, "folded: {} bytes", doc.len());
}

#[test]
fn a_caption_shrinks_to_fit_a_narrow_chart() {
    // The load chart's caption is wider than a 360 px phone's chart: its font
    // shrinks so the whole caption shows; on a wide one it keeps 16 px.
    let e = exploration(r#"{"initialMs": 1000, "maxMs": 60000, "model": "kep"}"#);
    let d = data(&e);
    let draw = |width: u32| {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (width, 300)).into_drawing_area();
            draw_load(&area, &d).unwrap();
        }
        out
    };
    let caption_size = |doc: &str| -> f64 {
        let at = doc.find("/pods requests per second").expect("the caption");
        let tag = &doc[doc[..at].rfind("<text").unwrap()..at];
        let size = tag.split("font-size=\"").nth(1).unwrap();
        size[..size.find('"').unwrap()].parse().unwrap()
    };
    // plotters' SVG writes a font's size divided by 1.24.
    let (full, smallest) = (16.0 / 1.24, 9.0 / 1.24);
    assert_eq!(caption_size(&draw(1200)), full);
    let narrow = caption_size(&draw(340));
    assert!(narrow >= smallest && narrow < full * 0.8, "{narrow}");
}

// Axes of counts tick at whole numbers only. Today's default curve over
// 30 min restarts once in each of the KEP's five windows: the windows
// chart's axis runs to 1 × 1.35 + 1 = 2.35, which plotters' ten ticks
// would step by 0.5; in the KEP's model a minute of it restarts at 10 and
// 30 s (exits at 0 and 10 s, waits of 10 and 20 s; the next at 30 + 40 s
// is past the minute): an axis to 2 × 1.05 = 2.1, and the waits chart
// counts restarts 1 and 2 along an x axis to 2.
#[test]
fn counts_tick_at_whole_numbers() {
    let fractional = |doc: &str| {
        ["0.5", "1.5", "2.5", "0.2", "0.4"]
            .iter()
            .find(|t| doc.contains(&format!(">\n{t}\n<")))
            .copied()
    };
    let day = exploration(r#"{"model": "kubelet", "horizonMs": 1800000}"#);
    let windows = svg(|a| draw_windows(a, &data(&day)).unwrap());
    assert_eq!(fractional(&windows), None, "windows");
    assert!(windows.contains(">\n2\n<"), "windows: a tick at 2");
    let minute = exploration(r#"{"model": "kep", "horizonMs": 60000}"#);
    assert_eq!(minute.timeline.restarts_at_ms.to_vec(), [10_000, 30_000]);
    for (name, doc) in [
        (
            "restarts",
            svg(|a| draw_restarts(a, &data(&minute)).unwrap()),
        ),
        ("delays", svg(|a| draw_delays(a, &data(&minute)).unwrap())),
    ] {
        assert_eq!(fractional(&doc), None, "{name}");
        assert!(doc.contains(">\n2\n<"), "{name}: a tick at 2");
    }
}

/// The y of the SVG text element that says exactly `label`.
fn text_y(doc: &str, label: &str) -> f64 {
    let end = doc
        .find(&format!(">\n{label}\n<"))
        .unwrap_or_else(|| panic!("no text {label:?}"));
    let start = doc[..end].rfind("<text").expect("a text element");
    let y = &doc[start..end];
    let y = &y[y.find(" y=\"").expect("its y") + 4..];
    y[..y.find('"').expect("quoted")].parse().expect("a number")
}

// Every chart's legend sits below its plot, under the x axis's words: no
// entry covers a bar or a lane (the Job's and the KEP windows' legends sat
// in a corner of the plot, over the first lanes).
#[test]
fn legends_sit_below_the_plot() {
    use crashloop_explorer::chart::{draw_job, Look};
    use crashloop_explorer::engine::job::{run_job, FailureScript};
    let job = crashloop_explorer::formats::manifest::parse_job_manifest(
        "kind: Job\nspec:\n  completions: 3\n  parallelism: 3\n  completionMode: Indexed\n  backoffLimitPerIndex: 1\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: main}]\n",
    )
    .unwrap()
    .validate()
    .unwrap();
    let run = run_job(&job, &FailureScript::random("main", 3, 0.5), 3_600_000);
    let gantt = svg(|a| draw_job(a, &run, Look::default()).unwrap());
    let axis = text_y(&gantt, "time (s)");
    assert!(text_y(&gantt, "succeeded") > axis, "Job: succeeded");
    assert!(
        text_y(&gantt, "index 2") < axis,
        "Job: the top lane in the plot"
    );
    let half_hour = exploration(r#"{"model": "kubelet", "horizonMs": 1800000}"#);
    let windows = svg(|a| draw_windows(a, &data(&half_hour)).unwrap());
    assert!(text_y(&windows, "today&apos;s default") > text_y(&windows, "window (s)"));
}
