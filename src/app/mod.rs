//! The Yew app: controls on the left, charts and figures on the right. Every
//! number comes from the engine; this maps results to Html and canvas.

pub mod charts;
pub mod controls;
pub mod panels;
pub mod state;

use web_sys::Element;
use yew::prelude::*;

use charts::{Chart, ChartKind};
use panels::{
    ApiPanel, AuditPanel, ComparePanel, CompareTable, CurvePanel, KubeletPanel, SummaryTable,
    TimingPanel, WorkloadPanel,
};
use state::State;

/// Mounts the explorer into `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// Mounts the explorer into any element.
pub fn mount(root: Element) {
    yew::Renderer::<App>::with_root(root).render();
}

#[function_component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let error = state
        .error
        .as_ref()
        .filter(|_| state.resolved.is_ok() || state.custom())
        .map(|e| e.to_string());
    html! {
        <main class="app">
            <header>
                <h1>{"crashloop-explorer"}</h1>
                <p class="lede">{"How a crash-looping container restarts under CrashLoopBackOff, and the "}
                    <code>{"/pods"}</code>{" API load a node of them makes. Move a control; everything redraws."}</p>
            </header>
            <div class="layout">
                <div class="controls">
                    <KubeletPanel state={state.clone()} />
                    <CurvePanel state={state.clone()} />
                    <TimingPanel state={state.clone()} />
                    <WorkloadPanel state={state.clone()} />
                    <ApiPanel state={state.clone()} />
                    if let Some(msg) = error {
                        <p class="error" role="alert" id="scenario-error">{ msg }</p>
                    }
                </div>
                <section class="results" aria-label="Results">
                    <ComparePanel state={state.clone()} />
                    <Chart id="chart-restarts" kind={ChartKind::Restarts} state={state.clone()}
                        alt="Cumulative restarts of one pod over time, against today's default" />
                    <Chart id="chart-delays" kind={ChartKind::Delays} state={state.clone()}
                        alt="Wait before each restart by restart number" />
                    <Chart id="chart-load" kind={ChartKind::Load} state={state.clone()}
                        alt="Node /pods status requests per 10-second window, offered and admitted by the rate limiter" />
                    <Chart id="chart-windows" kind={ChartKind::Windows} state={state.clone()}
                        alt="Restarts in the KEP's time windows, per scenario" />
                    <SummaryTable state={state.clone()} />
                    <CompareTable state={state.clone()} />
                    <p class="fineprint">{"Requests per restart as set above; lockstep pods crash together, as KEP-4603 assumes. \"First 5 min\" counts restarts at or before 300 s; restarts count before the horizon."}</p>
                </section>
            </div>
            <AuditPanel state={state.clone()} />
        </main>
    }
}
