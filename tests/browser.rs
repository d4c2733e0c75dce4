//! The real app in headless Chromium: real inputs, real DOM events, and what a
//! user would see (the figures, the refusal text, the canvas pixels).
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    CanvasRenderingContext2d, Element, Event, EventInit, HtmlCanvasElement, HtmlInputElement,
};

wasm_bindgen_test_configure!(run_in_browser);

struct Page {
    root: Element,
}

impl Page {
    async fn mount() -> Page {
        let document = web_sys::window()
            .expect("window")
            .document()
            .expect("document");
        let root = document.create_element("div").expect("div");
        document
            .body()
            .expect("body")
            .append_child(&root)
            .expect("append");
        crashloop_explorer::app::mount(root.clone());
        settle().await;
        Page { root }
    }

    fn get(&self, id: &str) -> Element {
        self.root
            .query_selector(&format!("#{id}"))
            .expect("selector")
            .unwrap_or_else(|| panic!("no #{id} on the page"))
    }

    fn text(&self, id: &str) -> String {
        self.get(id)
            .text_content()
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    fn input(&self, id: &str) -> HtmlInputElement {
        self.get(id).dyn_into().expect("an <input>")
    }

    /// What a user's drag or typing does: set the value, fire a bubbling `input`.
    async fn type_into(&self, id: &str, value: &str) {
        let input = self.input(id);
        input.set_value(value);
        fire(&input, "input");
        settle().await;
    }

    async fn click_checkbox(&self, id: &str) {
        let input = self.input(id);
        input.set_checked(!input.checked());
        fire(&input, "change");
        settle().await;
    }

    /// A fingerprint of the canvas pixels.
    fn pixels(&self, id: &str) -> u64 {
        let canvas: HtmlCanvasElement = self.get(id).dyn_into().expect("a <canvas>");
        let ctx: CanvasRenderingContext2d = canvas
            .get_context("2d")
            .expect("context")
            .expect("2d")
            .dyn_into()
            .expect("2d context");
        let data = ctx
            .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
            .expect("image data")
            .data();
        let inked = data.chunks(4).filter(|p| p[0] < 200 || p[2] < 200).count();
        assert!(inked > 1_000, "canvas #{id} is blank");
        data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }

    fn charts(&self) -> [u64; 3] {
        [
            self.pixels("chart-restarts"),
            self.pixels("chart-delays"),
            self.pixels("chart-load"),
        ]
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

/// Lets Yew render and the chart effects draw.
async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(60)).await;
}

#[wasm_bindgen_test]
async fn moving_the_initial_slider_changes_figures_and_charts() {
    let page = Page::mount().await;
    // Kubelet 1.35, today's default: restarts at 0, 10, 30, 70, 150 s.
    assert_eq!(page.text("sum-restarts-pod-5m"), "5");
    assert_eq!(page.text("eff-initial"), "10s");
    let before = page.charts();

    // Position 5 is 1 s: restarts at 0, 1, 3, 7, 15, 31, 63, 127, 255 s.
    page.type_into("initial", "5").await;
    assert_eq!(page.text("initial-value"), "1 s");
    assert_eq!(page.text("sum-restarts-pod-5m"), "9");
    assert_eq!(page.text("excess-restarts-pod-5m"), "+4");
    assert_eq!(page.text("sum-restarts-node-5m"), "990");
    assert!(page.text("effective").contains("Custom what-if"));
    let after = page.charts();
    for (i, (b, a)) in before.iter().zip(after.iter()).enumerate() {
        assert_ne!(b, a, "chart {i} did not redraw");
    }

    // Back to the configuration: the figures return.
    let button: web_sys::HtmlElement = page.get("use-config").dyn_into().expect("button");
    button.click();
    settle().await;
    assert_eq!(page.text("sum-restarts-pod-5m"), "5");
    assert_eq!(page.charts(), before);
}

#[wasm_bindgen_test]
async fn feature_gates_derive_the_curve() {
    let page = Page::mount().await;
    let before = page.charts();
    page.click_checkbox("gate-reduce").await;
    // Kubelet 1.35 with both gates on and the field unset: 1 s initial, but the max stays 300 s.
    assert_eq!(page.text("eff-initial"), "1s");
    assert_eq!(page.text("eff-max"), "5m0s");
    assert_ne!(page.charts(), before);

    page.click_checkbox("gate-max").await;
    assert_eq!(page.text("eff-max"), "1m0s");
    // 0, 1, 3, 7, 15, 31, 63, 123, 183, 243 s.
    assert_eq!(page.text("sum-restarts-pod-5m"), "10");
}

#[wasm_bindgen_test]
async fn an_invalid_period_shows_the_kubelets_refusal_and_keeps_the_charts() {
    let page = Page::mount().await;
    page.type_into("max-container-restart-period", "4s").await;
    assert_eq!(page.text("eff-max"), "4s");
    assert_eq!(page.text("eff-initial"), "4s");
    let good_figure = page.text("sum-restarts-pod-all");
    let good_charts = page.charts();

    page.type_into("max-container-restart-period", "301s").await;
    let error = page.text("max-container-restart-period-error");
    assert!(
        error.contains("CrashLoopBackOff.MaxContainerRestartPeriod (got: 301 seconds) must be set between 1s and 300s"),
        "{error}"
    );
    assert_eq!(
        page.input("max-container-restart-period")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    // The last valid result stays.
    assert_eq!(page.text("sum-restarts-pod-all"), good_figure);
    assert_eq!(page.charts(), good_charts);

    // Gate off with the field set: the shipped kubelet refuses to start.
    page.type_into("max-container-restart-period", "4s").await;
    page.click_checkbox("gate-max").await;
    assert!(page
        .text("max-container-restart-period-error")
        .contains("FeatureGate KubeletCrashLoopBackOffMax not enabled"));

    // Garbage is a Go parse error, not a panic; the page keeps working.
    page.type_into("max-container-restart-period", "4 seconds")
        .await;
    assert!(page
        .text("max-container-restart-period-error")
        .contains("time: unknown unit"));
    page.click_checkbox("gate-max").await;
    page.type_into("max-container-restart-period", "").await;
    assert_eq!(page.text("max-container-restart-period-error"), "");
    assert_eq!(page.text("eff-max"), "5m0s");
}
