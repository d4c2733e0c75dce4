//! Downloads (CSV, PNG, SVG) and the configuration to deploy, with copy buttons.

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement};
use yew::prelude::*;
use yew::TargetCast;

use super::lazy;
use super::state::State;
use crate::chart::Kind;
use crate::export::{csv, feature_gates_flag, kubelet_configuration_yaml};

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub state: UseReducerHandle<State>,
    /// The page's link: the SVG downloads are drawn from it by the second
    /// wasm (which holds plotters' SVG backend).
    pub link: AttrValue,
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
    // Set when the second wasm cannot be had for an SVG.
    let svg_error = use_state(|| None::<String>);
    let charts = Kind::ALL.iter().map(|&c| {
        let svg_link = {
            let (link, svg_error) = (p.link.clone(), svg_error.clone());
            Callback::from(move |e: MouseEvent| {
                let Some(a) = e.target_dyn_into::<HtmlAnchorElement>() else {
                    return;
                };
                match lazy::svg_now(c, &link) {
                    Some(Ok(svg)) => a.set_href(&data_url("image/svg+xml", &svg)),
                    Some(Err(why)) => {
                        e.prevent_default();
                        svg_error.set(Some(why));
                    }
                    // First fetch the module, then click again: drawn at once then.
                    None => {
                        e.prevent_default();
                        let (link, svg_error) = (link.clone(), svg_error.clone());
                        yew::platform::spawn_local(async move {
                            match lazy::svg_later(c, &link).await {
                                Ok(_) => a.click(),
                                Err(why) => svg_error.set(Some(why)),
                            }
                        });
                    }
                }
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
                .and_then(|canvas| {
                    super::charts::draw_now(&canvas);
                    canvas.to_data_url().ok()
                })
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
            // Pointing at the downloads starts fetching what draws the SVGs.
            <ul class="downloads" onpointerenter={Callback::from(|_: PointerEvent| lazy::prefetch())}
                onfocusin={Callback::from(|_: FocusEvent| lazy::prefetch())}>{ for charts }</ul>
            if let Some(why) = &*svg_error {
                <p class="error" role="alert" id="svg-error">{ format!("The SVG could not be drawn ({why}). Reload the page to try again.") }</p>
            }
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
