//! Downloads (CSV, PNG, SVG) and the configuration to deploy, with copy buttons.

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement};
use yew::prelude::*;
use yew::TargetCast;

use super::state::State;
use crate::chart::Kind;
use crate::export::{csv, feature_gates_flag, kubelet_configuration_yaml, svg};

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub state: UseReducerHandle<State>,
}

fn data_url(mime: &str, text: &str) -> String {
    format!(
        "data:{mime};charset=utf-8,{}",
        js_sys::encode_uri_component(text)
    )
}

/// The file is made when the link is clicked, not at every redraw.
fn on_click_set_href(
    make: impl Fn(&HtmlAnchorElement) -> String + 'static,
) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        // Yew delegates events to its root: the link is the target, not the current target.
        if let Some(a) = e.target_dyn_into::<HtmlAnchorElement>() {
            a.set_href(&make(&a));
        }
    })
}

fn copy_button(id: String, text: String) -> Html {
    html! { <CopyButton id={id} text={text} /> }
}

#[derive(Properties, PartialEq)]
struct CopyProps {
    id: AttrValue,
    text: AttrValue,
}

/// A copy button that says whether the copy happened.
#[function_component]
fn CopyButton(p: &CopyProps) -> Html {
    let label = use_state(|| "Copy");
    let onclick = {
        let (label, text) = (label.clone(), p.text.clone());
        Callback::from(move |_: MouseEvent| {
            let (label, text) = (label.clone(), text.clone());
            yew::platform::spawn_local(async move {
                let done = super::hooks::write_clipboard(&text).await;
                label.set(if done {
                    "Copied"
                } else {
                    "Copy failed: select the text"
                });
            });
        })
    };
    html! { <button type="button" id={p.id.clone()} {onclick} aria-live="polite">{ *label }</button> }
}

#[function_component]
pub fn ExportPanel(p: &ExportProps) -> Html {
    let state = p.state.clone();
    let csv_link = {
        let state = state.clone();
        on_click_set_href(move |_| data_url("text/csv", &csv(&state.shown)))
    };
    let charts = Kind::ALL.iter().map(|&c| {
        let svg_link = {
            let state = state.clone();
            on_click_set_href(move |_| {
                let data = super::charts::chart_data(&state, crate::chart::Look::default());
                let desc = crate::export::figure_desc(&state.shown);
                // Without a canvas to measure on, plotters' own way still makes the file.
                let svg = match super::canvas::CanvasText::offscreen() {
                    Some(text) => svg(c, &data, &text, &desc),
                    None => svg(c, &data, &crate::chart::FontText, &desc),
                };
                data_url("image/svg+xml", &svg)
            })
        };
        let canvas_id = c.dom_id();
        // The canvas beside the link, in this explorer: there may be several
        // on a page, each in its own shadow root.
        let png_link = on_click_set_href(move |a| {
            a.closest("main.app")
                .ok()
                .flatten()
                .and_then(|app| app.query_selector(&format!("#{canvas_id}")).ok().flatten())
                .and_then(|el| el.dyn_into::<HtmlCanvasElement>().ok())
                .and_then(|canvas| canvas.to_data_url().ok())
                .unwrap_or_default()
        });
        let stem = c.file_stem();
        html! {
            <li>{ stem }{": "}
                <a href="#" id={format!("download-{stem}-svg")} download={format!("{stem}.svg")} onclick={svg_link}>{"SVG"}</a>{" · "}
                <a href="#" id={format!("download-{stem}-png")} download={format!("{stem}.png")} onclick={png_link}>{"PNG"}</a>
            </li>
        }
    });
    let yaml = kubelet_configuration_yaml(&state.inputs.config);
    let flag = feature_gates_flag(&state.inputs.config);
    html! {
        <section class="panel exports" aria-labelledby="h-exports">
            <h2 id="h-exports">{"Export"}</h2>
            <p><a href="#" id="download-csv" download="crashloop-explorer.csv" onclick={csv_link}>{"CSV of the series"}</a>
                {" (restart times and waits, and requests per 10 s window, for this configuration and today's default)"}</p>
            <ul class="downloads">{ for charts }</ul>
            <h3>{"This configuration, as a node needs it"}</h3>
            if state.custom() {
                <p class="hint">{"A custom what-if curve has no KubeletConfiguration; this is the configuration the gate and field controls hold."}</p>
            }
            <div class="snippet">
                <pre id="kubelet-config-yaml">{ yaml.clone() }</pre>
                { copy_button("copy-kubelet-config".into(), yaml) }
            </div>
            if let Some(flag) = flag {
                <div class="snippet">
                    <pre id="feature-gates-flag">{ flag.clone() }</pre>
                    { copy_button("copy-feature-gates".into(), flag) }
                </div>
                <p class="hint">{"crashLoopBackOff.maxContainerRestartPeriod has no command-line flag; set it in the KubeletConfiguration file."}</p>
            }
        </section>
    }
}
