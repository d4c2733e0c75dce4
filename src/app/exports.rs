//! Downloads (CSV, PNG, SVG) and the configuration to deploy, with copy
//! buttons: a part in the second wasm (`lazy::Part::Export`).

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement};
use yew::prelude::*;
use yew::TargetCast;

use super::controls::CopyButton;
use super::lazy;
use super::state::State;
use crate::chart::Kind;
use crate::export::{csv, feature_gates_flag, kubelet_configuration_yaml};
use crate::share;

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    /// The page's link: everything exported is worked out from it.
    pub link: AttrValue,
    /// Told `lazy::draw_message` before a chart's pixels are read.
    pub on_message: Callback<String>,
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

/// The exports panel's body, in the second wasm (`lazy::Part::Export`):
/// the page gives it its link and draws a chart when asked.
#[function_component]
pub fn ExportPanel(p: &ExportProps) -> Html {
    let inputs = use_memo(p.link.clone(), |link| share::decode(link).0.inputs);
    // The series are worked out on the click, not on every move.
    let csv_link = {
        let inputs = inputs.clone();
        on_click_set_href(move |_| data_url("text/csv", &csv(&State::new((*inputs).clone()).shown)))
    };
    let charts = Kind::ALL.iter().map(|&c| {
        let svg_link = {
            let link = p.link.clone();
            on_click_set_href(move |_| data_url("image/svg+xml", &super::extras::svg(c, &link)))
        };
        let canvas_id = c.dom_id();
        let on_message = p.on_message.clone();
        // The canvas beside the link, in this explorer: there may be several
        // on a page, each in its own shadow root.
        let png_link = on_click_set_href(move |a| {
            on_message.emit(lazy::draw_message(c));
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
    let yaml = kubelet_configuration_yaml(&inputs.config);
    let flag = feature_gates_flag(&inputs.config);
    // A custom what-if curve: no kubelet configuration gives it.
    let custom = inputs.spec.config.is_none();
    html! {
        <>
            <p><a href="#" id="download-csv" download="crashloop-explorer.csv" onclick={csv_link}>{"CSV of the series"}</a>
                {" (restart times and waits, and requests per 10 s window, for this configuration and today's default)"}</p>
            <ul class="downloads">{ for charts }</ul>
            <h3>{"This configuration, as a node needs it"}</h3>
            if custom {
                <p class="hint">{"A custom what-if curve has no KubeletConfiguration; this is the configuration the gate and field controls hold."}</p>
            }
            <div class="snippet">
                <pre id="kubelet-config-yaml" tabindex="0">{ yaml.clone() }</pre>
                <CopyButton id="copy-kubelet-config" text={yaml.clone()} />
            </div>
            if let Some(flag) = flag {
                <div class="snippet">
                    <pre id="feature-gates-flag" tabindex="0">{ flag.clone() }</pre>
                    <CopyButton id="copy-feature-gates" text={flag.clone()} />
                </div>
                <p class="hint">{"crashLoopBackOff.maxContainerRestartPeriod has no command-line flag; set it in the KubeletConfiguration file."}</p>
            }
        </>
    }
}
