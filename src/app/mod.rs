//! The Yew app: controls on the left, charts and figures on the right. Every
//! number comes from the engine; this maps results to Html and canvas.

pub mod controls;
pub mod state;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;

use crate::chart;
use crate::engine::duration::{format_go_duration_ms, format_human_ms};
use crate::engine::{Counts, Ms, Semantics};
use controls::{Checkbox, Choice, Slider, TextField};
use state::{
    nearest_stop, Action, CurveSource, Shown, State, HORIZON_STOPS_MS, INITIAL_STOPS_MS,
    MAX_STOPS_MS, RUN_STOPS_MS,
};

/// Mounts the explorer into `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// Mounts the explorer into any element.
pub fn mount(root: Element) {
    yew::Renderer::<App>::with_root(root).render();
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Restarts,
    Delays,
    Load,
}

#[derive(Properties, PartialEq)]
struct ChartProps {
    id: AttrValue,
    kind: ChartKind,
    shown: Shown,
    alt: AttrValue,
}

#[function_component]
fn Chart(p: &ChartProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        use_effect_with((p.kind, p.shown.clone()), move |(kind, shown)| {
            let backend = canvas
                .cast::<HtmlCanvasElement>()
                .and_then(CanvasBackend::with_canvas_object);
            if let Some(backend) = backend {
                let area = backend.into_drawing_area();
                let drawn = match kind {
                    ChartKind::Restarts => chart::draw_restarts(&area, &shown.0),
                    ChartKind::Delays => chart::draw_delays(&area, &shown.0),
                    ChartKind::Load => chart::draw_load(&area, &shown.0),
                };
                if let Err(e) = drawn {
                    web_sys::console::error_1(&format!("chart {}: {e}", "draw").into());
                }
            }
        });
    }
    html! {
        <figure class="chart">
            <canvas id={p.id.clone()} ref={canvas} width="720" height="300" role="img"
                aria-label={p.alt.clone()}></canvas>
        </figure>
    }
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

#[derive(Properties, PartialEq)]
struct SummaryProps {
    shown: Shown,
    horizon_ms: Ms,
}

#[function_component]
fn SummaryTable(p: &SummaryProps) -> Html {
    let e = &p.shown.0;
    let horizon = format_human_ms(p.horizon_ms);
    let first = if p.horizon_ms < 300_000 {
        format!("first {horizon}")
    } else {
        "first 5 min".to_owned()
    };
    type Pick = fn(&Counts) -> i64;
    let rows: [(&str, String, Pick, bool); 6] = [
        (
            "restarts-pod-5m",
            format!("Restarts per pod, {first}"),
            |c| c.restarts_per_pod,
            true,
        ),
        (
            "restarts-pod-all",
            format!("Restarts per pod, {horizon}"),
            |c| c.restarts_per_pod,
            false,
        ),
        (
            "restarts-node-5m",
            format!("Restarts on the node, {first}"),
            |c| c.restarts_per_node,
            true,
        ),
        (
            "restarts-node-all",
            format!("Restarts on the node, {horizon}"),
            |c| c.restarts_per_node,
            false,
        ),
        (
            "requests-node-5m",
            format!("/pods requests from the node, {first}"),
            |c| c.requests_per_node,
            true,
        ),
        (
            "requests-node-all",
            format!("/pods requests from the node, {horizon}"),
            |c| c.requests_per_node,
            false,
        ),
    ];
    let cell = |id: String, v: String| html! { <td id={id}>{ v }</td> };
    html! {
        <table class="summary" id="summary">
            <thead><tr><th></th><th>{"this configuration"}</th><th>{"today's default"}</th><th>{"excess"}</th></tr></thead>
            <tbody>
                { for rows.iter().map(|(id, label, pick, first5)| {
                    let of = |s: &crate::engine::Summary| if *first5 { pick(&s.first5m) } else { pick(&s.horizon) };
                    html! { <tr>
                        <th scope="row">{ label.clone() }</th>
                        { cell(format!("sum-{id}"), of(&e.summary).to_string()) }
                        { cell(format!("ref-{id}"), of(&e.reference_summary).to_string()) }
                        { cell(format!("excess-{id}"), signed(of(&e.excess))) }
                    </tr> }
                }) }
                <tr>
                    <th scope="row">{"Busiest 10 s: /pods requests from the node"}</th>
                    { cell("sum-peak".into(), e.summary.peak_node_requests_per_window.to_string()) }
                    { cell("ref-peak".into(), e.reference_summary.peak_node_requests_per_window.to_string()) }
                    { cell("excess-peak".into(), signed(e.excess.peak_node_requests_per_window)) }
                </tr>
            </tbody>
        </table>
    }
}

#[function_component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let c = &state.controls;
    let send = |f: fn(Ms) -> Action, stops: &'static [Ms]| {
        let state = state.clone();
        Callback::from(move |pos: usize| {
            if let Some(&v) = stops.get(pos) {
                state.dispatch(f(v));
            }
        })
    };
    let dispatch = |f: fn(bool) -> Action| {
        let state = state.clone();
        Callback::from(move |v: bool| state.dispatch(f(v)))
    };
    let on_model = {
        let state = state.clone();
        Callback::from(move |v: String| match v.as_str() {
            "kep" => state.dispatch(Action::Model(Semantics::Kep)),
            "kubelet" => state.dispatch(Action::Model(Semantics::Kubelet)),
            _ => {}
        })
    };
    let on_period = {
        let state = state.clone();
        Callback::from(move |v: String| state.dispatch(Action::MaxContainerRestartPeriod(v)))
    };
    let on_pods = {
        let state = state.clone();
        Callback::from(move |pos: usize| state.dispatch(Action::Pods(pos as u32 + 1)))
    };
    let use_config = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::UseConfig))
    };

    let shown = state.shown.clone();
    let b = &shown.0.backoff;
    let custom = c.source == CurveSource::Custom;
    let config_error = state
        .config
        .as_ref()
        .err()
        .map(|e| AttrValue::from(e.to_string()));
    let scenario_error = state.error.as_ref().map(|e| e.to_string());
    let gate_default = match c.model {
        Semantics::Kubelet => "1.35 default: on (beta)",
        Semantics::Kep => "KEP: alpha, off by default",
    };

    let effective = match (&state.config, custom) {
        (_, true) => html! {
            <div class="effective custom" id="effective">
                <p><strong>{"Custom what-if curve"}</strong>{" (set by the sliders below; no kubelet configuration gives it): "}
                    {"initial "}<b id="eff-initial">{ format_go_duration_ms(b.initial_ms) }</b>
                    {" · max "}<b id="eff-max">{ format_go_duration_ms(b.max_ms) }</b>
                    {" · reset after "}<b id="eff-reset">{ format_go_duration_ms(b.reset_after_ms) }</b></p>
                <button type="button" id="use-config" onclick={use_config}>{"Back to the kubelet configuration"}</button>
            </div>
        },
        (Ok(cfg), false) => html! {
            <div class="effective" id="effective">
                <p>{"Effective initial "}<b id="eff-initial">{ format_go_duration_ms(cfg.initial_ms) }</b>
                    {" / max "}<b id="eff-max">{ format_go_duration_ms(cfg.max_ms) }</b>
                    {" / reset after "}<b id="eff-reset">{ format_go_duration_ms(cfg.reset_after_ms) }</b></p>
                <ul class="notes">{ for cfg.notes.iter().map(|n| html! { <li>{ n }</li> }) }</ul>
                if !cfg.warnings.is_empty() {
                    <ul class="warnings" id="warnings">{ for cfg.warnings.iter().map(|w| html! { <li>{"warning: "}{ w }</li> }) }</ul>
                }
            </div>
        },
        (Err(_), false) => html! {
            <div class="effective refused" id="effective">
                <p>{"The kubelet would not start with this configuration (see the message under the field). The charts show the last valid configuration."}</p>
            </div>
        },
    };

    html! {
        <main class="app">
            <header>
                <h1>{"crashloop-explorer"}</h1>
                <p class="lede">{"How a crash-looping container restarts under CrashLoopBackOff, and the "}
                    <code>{"/pods"}</code>{" API load a node of them makes. Move a control; everything redraws."}</p>
            </header>
            <div class="layout">
                <section class="controls" aria-label="Configuration">
                    <h2>{"Kubelet configuration"}</h2>
                    <Choice id="model" label="Model" selected={match c.model { Semantics::Kep => "kep", Semantics::Kubelet => "kubelet" }}
                        options={vec![("kubelet".into(), "as kubelet 1.35 does it".into()), ("kep".into(), "as KEP-4603/5593 describe it".into())]}
                        onchange={on_model} />
                    <Checkbox id="gate-reduce" label="ReduceDefaultCrashLoopBackOffDecay" checked={c.reduce_decay}
                        onchange={dispatch(Action::ReduceDecay)} hint="initial 1s, max 1m0s (alpha, off by default)" />
                    <Checkbox id="gate-max" label="KubeletCrashLoopBackOffMax" checked={c.back_off_max_gate}
                        onchange={dispatch(Action::BackOffMaxGate)} hint={gate_default} />
                    <TextField id="max-container-restart-period"
                        label={html! { <><code>{"crashLoopBackOff.maxContainerRestartPeriod"}</code>{" (1s to 5m0s, empty = unset)"}</> }}
                        value={c.max_container_restart_period.clone()} placeholder="unset, e.g. 4s or 1m30s"
                        oninput={on_period} error={config_error} />
                    { effective }

                    <h2>{"Backoff curve"}</h2>
                    <p class="hint">{"These follow the configuration above; moving one makes a custom what-if."}</p>
                    <Slider id="initial" label="Initial backoff" positions={INITIAL_STOPS_MS.len()}
                        position={nearest_stop(INITIAL_STOPS_MS, b.initial_ms)} display={format_human_ms(b.initial_ms)}
                        onchange={send(Action::Initial, INITIAL_STOPS_MS)} inactive={!custom} />
                    <Slider id="max" label="Maximum backoff" positions={MAX_STOPS_MS.len()}
                        position={nearest_stop(MAX_STOPS_MS, b.max_ms)} display={format_human_ms(b.max_ms)}
                        onchange={send(Action::Max, MAX_STOPS_MS)} inactive={!custom} />

                    <h2>{"Workload and node"}</h2>
                    <Slider id="run" label="Crash interval (how long the container runs before it exits)" positions={RUN_STOPS_MS.len()}
                        position={nearest_stop(RUN_STOPS_MS, c.run_ms)} display={format_human_ms(c.run_ms)}
                        onchange={send(Action::Run, RUN_STOPS_MS)} hint="a run longer than the reset threshold starts the curve over" />
                    <Slider id="pods" label="Pods on the node (crashing in lockstep)" positions={250}
                        position={(c.pods as usize).saturating_sub(1)} display={c.pods.to_string()} onchange={on_pods}
                        hint="110 is the kubelet's default maxPods" />
                    <Slider id="horizon" label="Time horizon" positions={HORIZON_STOPS_MS.len()}
                        position={nearest_stop(HORIZON_STOPS_MS, c.horizon_ms)} display={format_human_ms(c.horizon_ms)}
                        onchange={send(Action::Horizon, HORIZON_STOPS_MS)} />
                    if let Some(msg) = scenario_error.filter(|_| state.config.is_ok() || custom) {
                        <p class="error" role="alert" id="scenario-error">{ msg }</p>
                    }
                </section>
                <section class="results" aria-label="Results">
                    <Chart id="chart-restarts" kind={ChartKind::Restarts} shown={shown.clone()}
                        alt="Cumulative restarts of one pod over time, this configuration against today's default" />
                    <Chart id="chart-delays" kind={ChartKind::Delays} shown={shown.clone()}
                        alt="Wait before each restart by restart number" />
                    <Chart id="chart-load" kind={ChartKind::Load} shown={shown.clone()}
                        alt="Node /pods status requests per 10-second window" />
                    <SummaryTable shown={shown.clone()} horizon_ms={shown.0.timeline.horizon_ms} />
                    <p class="fineprint">{"5 "}<code>{"/pods"}</code>{" status requests per restart; pods crash in lockstep, as KEP-4603 assumes. \"First 5 min\" counts restarts at or before 300 s."}</p>
                </section>
            </div>
        </main>
    }
}
