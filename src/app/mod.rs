//! The Yew app: the CrashLoopBackOff view and the Job view (`#job`). Every
//! number comes from the engine; this maps results to Html and canvas.

pub mod charts;
pub mod controls;
pub mod job;
pub mod lifecycle;
pub mod panels;
pub mod state;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use charts::{Chart, ChartKind};
use job::{JobState, JobView};
use lifecycle::LifecyclePanel;
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    CrashLoop,
    Job,
}

fn view_from_location() -> View {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if hash == "#job" {
        View::Job
    } else {
        View::CrashLoop
    }
}

#[function_component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let job = use_reducer(JobState::default);
    let view = use_state(view_from_location);
    {
        // The back button and pasted links switch views too.
        let view = view.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let listener = Closure::<dyn Fn()>::new(move || view.set(view_from_location()));
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback(
                    "hashchange",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(w) = window {
                    let _ = w.remove_event_listener_with_callback(
                        "hashchange",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    let go = |to: View| {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| view.set(to))
    };
    let current = |v: View| (*view == v).then_some("page");
    let body = match *view {
        View::CrashLoop => {
            let error = state
                .error
                .as_ref()
                .filter(|_| state.resolved.is_ok() || state.custom())
                .map(|e| e.to_string());
            html! {
                <>
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
                            <LifecyclePanel state={state.clone()} />
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
                </>
            }
        }
        View::Job => html! { <JobView state={job.clone()} /> },
    };
    html! {
        <main class="app">
            <header>
                <h1>{"crashloop-explorer"}</h1>
                <p class="lede">{"How a crash-looping container restarts under CrashLoopBackOff, the "}
                    <code>{"/pods"}</code>{" API load a node of them makes, and how a Job's pod failures play out. Move a control; everything redraws."}</p>
                <nav class="views" aria-label="Views">
                    <a href="#crashloop" id="nav-crashloop" aria-current={current(View::CrashLoop)} onclick={go(View::CrashLoop)}>{"CrashLoopBackOff"}</a>
                    <a href="#job" id="nav-job" aria-current={current(View::Job)} onclick={go(View::Job)}>{"Jobs: backoffLimit and podFailurePolicy"}</a>
                </nav>
            </header>
            { body }
        </main>
    }
}
