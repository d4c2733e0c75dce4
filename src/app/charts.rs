//! The charts on `<canvas>`, drawn by the shared plotters code after each render.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::state::State;
use crate::chart::{self, ChartData, Series};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Restarts,
    Delays,
    Load,
    Windows,
}

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub id: AttrValue,
    pub kind: ChartKind,
    pub state: UseReducerHandle<State>,
    pub alt: AttrValue,
}

/// What a chart depends on, compared by pointer.
#[derive(PartialEq)]
struct Inputs(ChartKind, usize, Vec<usize>);

#[function_component]
pub fn Chart(p: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let state = p.state.clone();
    let inputs = Inputs(
        p.kind,
        std::rc::Rc::as_ptr(&state.shown.0) as usize,
        state
            .compared_results
            .iter()
            .map(|c| {
                c.result
                    .as_ref()
                    .map_or(0, |t| std::rc::Rc::as_ptr(t) as usize)
            })
            .collect(),
    );
    {
        let canvas = canvas.clone();
        let kind = p.kind;
        use_effect_with(inputs, move |_| {
            let backend = canvas
                .cast::<HtmlCanvasElement>()
                .and_then(CanvasBackend::with_canvas_object);
            if let Some(backend) = backend {
                let area = backend.into_drawing_area();
                let e = &state.shown.0;
                let mut series = vec![Series {
                    label: "this configuration",
                    timeline: &e.timeline,
                }];
                series.extend(state.compared_results.iter().filter_map(|c| {
                    c.result.as_ref().ok().map(|t| Series {
                        label: c.label.as_str(),
                        timeline: t,
                    })
                }));
                let data = ChartData {
                    reference: &e.reference,
                    series,
                };
                let drawn = match kind {
                    ChartKind::Restarts => chart::draw_restarts(&area, &data),
                    ChartKind::Delays => chart::draw_delays(&area, &data),
                    ChartKind::Load => chart::draw_load(&area, &data),
                    ChartKind::Windows => chart::draw_windows(&area, &data),
                };
                if let Err(e) = drawn {
                    web_sys::console::error_1(&format!("drawing a chart: {e}").into());
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
