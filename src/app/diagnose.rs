//! "Diagnose a pod": paste or drop what kubectl prints, see where each
//! container stands on the curve and when it restarts next. The text stays
//! in this component: it is never sent anywhere nor written into the link.
//! The UI passes the clock to the engine (the moment of the paste, or one
//! typed by hand); a live countdown ticks once a second.

use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use super::controls::{Choice, TextArea, TextField};
use super::instant::instant;
use super::state::PodGroup;
use super::words::{breakable, units_kept};
use crate::engine::config::{ConfigError, KubeletConfig, KubeletVersion};
use crate::engine::duration::{format_human_ms, format_span_ms};
use crate::engine::pod::{
    diagnose_pods, exit_words, ContainerDiagnosis, ContainerKind, NodeAssumption,
    ObservedContainer, PodObservation, PodReading,
};
use crate::engine::scenario::{ExitKind, Group, EXIT_CODE_RANGE, RUN_RANGE_MS};
use crate::engine::Ms;
use crate::formats::kubelet_config;
use crate::formats::pod::{read_pods, PodsRead};
use crate::formats::time::{format_rfc3339, parse_rfc3339};

#[derive(Properties, PartialEq)]
pub struct PodPanelProps {
    /// The node's configuration as the view's controls set it.
    pub version: KubeletVersion,
    pub config: KubeletConfig,
    /// "Explore … in the charts": the container, for the CrashLoopBackOff view.
    pub on_explore: Callback<PodGroup>,
}

/// The "Diagnose on" choice's values.
const ASSUME_SHIPPED: &str = "shipped";
const ASSUME_ABOVE: &str = "above";
const ASSUME_PASTED: &str = "pasted";

/// The node a panel diagnoses pods on, and the "Diagnose on" choice that
/// picks it.
pub struct Assumed {
    /// The node, or why there is none, as the panel says it.
    pub node: Result<NodeAssumption, String>,
    /// The configuration behind `node`: the shipped one (no field set), the
    /// view's or the pasted kubelet's.
    pub config: KubeletConfig,
    /// Why the view's configuration is refused, for the panel to say (a
    /// pasted one's refusal is said under its field).
    pub refused: Option<String>,
    pub choice: Html,
}

/// The kubelet's shipped defaults for `version`, the configuration the
/// view's controls set, or a kubelet's own (its /configz or its
/// KubeletConfiguration, pasted): a pod does not carry its node's
/// configuration, so the user chooses (shipped, until they do).
#[hook]
pub fn use_assumed(id: &'static str, version: KubeletVersion, config: &KubeletConfig) -> Assumed {
    let chosen = use_state(|| ASSUME_SHIPPED);
    let pasted_text = use_state(String::new);
    let shipped = NodeAssumption::new(version, None, "");
    let above = NodeAssumption::new(version, Some(config), "as configured above");
    // The option without "kubelet " (the heading under it says it whole),
    // so that it fits a phone's select.
    let option_text = |n: &Result<NodeAssumption, _>, refused: &str| match n {
        Ok(n) => n
            .label
            .strip_prefix("kubelet ")
            .unwrap_or(&n.label)
            .to_owned(),
        Err(e) => format!("{refused} (refused: {e})"),
    };
    // A kubelet's own configuration: read, then judged as the kubelet would;
    // once per text and version, not on every render (the watch's ticks).
    let pasted = use_memo(
        ((*chosen == ASSUME_PASTED), (*pasted_text).clone(), version),
        |(chosen, text, version)| {
            chosen.then(|| {
                if text.trim().is_empty() {
                    return Err("paste the kubelet's /configz (kubectl get --raw /api/v1/nodes/NODE/proxy/configz) or its KubeletConfiguration".to_owned());
                }
                let (c, source) = kubelet_config::read(text)?;
                let node = NodeAssumption::new(*version, Some(&c), &format!("with {}", source.words()))
                    .map_err(|e| e.to_string())?;
                Ok((node, c))
            })
        },
    );
    let pasted = (*pasted).clone();
    let field = pasted.as_ref().map(|p| {
        let text = pasted_text.clone();
        html! {
            <TextArea id={format!("{id}-config")} label="its /configz or KubeletConfiguration" rows={4}
                value={(*pasted_text).clone()} oninput={Callback::from(move |t: String| text.set(t))}
                error={p.as_ref().err().map(|e| AttrValue::from(e.clone()))} />
        }
    });
    let choice = html! {
        <>
            <Choice id={id} label="Diagnose on"
                options={vec![
                    (AttrValue::from(ASSUME_SHIPPED), AttrValue::from(option_text(&shipped, "the kubelet's shipped defaults"))),
                    (AttrValue::from(ASSUME_ABOVE), AttrValue::from(option_text(&above, "the configuration chosen above"))),
                    (AttrValue::from(ASSUME_PASTED), AttrValue::from("a kubelet's own configuration")),
                ]}
                selected={*chosen}
                onchange={{ let c = chosen.clone(); Callback::from(move |v: String| c.set([ASSUME_ABOVE, ASSUME_PASTED].into_iter().find(|&k| k == v).unwrap_or(ASSUME_SHIPPED))) }} />
            { for field }
        </>
    };
    let refused = |e: &ConfigError| format!("the view's kubelet configuration is refused: {e}");
    match (*chosen, pasted) {
        (_, Some(Ok((node, c)))) => Assumed {
            node: Ok(node),
            config: c,
            refused: None,
            choice,
        },
        (_, Some(Err(e))) => Assumed {
            node: Err(e),
            config: KubeletConfig::default(),
            refused: None,
            choice,
        },
        (ASSUME_ABOVE, None) => Assumed {
            refused: above.as_ref().err().map(refused),
            node: above.map_err(|e| refused(&e)),
            config: config.clone(),
            choice,
        },
        _ => Assumed {
            refused: shipped.as_ref().err().map(refused),
            node: shipped.map_err(|e| refused(&e)),
            config: KubeletConfig::default(),
            choice,
        },
    }
}

fn clock_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// "in 1 min 43 s", "due 12 s ago" (whole seconds: a pod's times are).
fn relative(ms: i64) -> String {
    if ms >= 0 {
        format!("in {}", format_span_ms(ms as Ms))
    } else {
        format!("due {} ago", format_span_ms(ms.unsigned_abs()))
    }
}

/// The countdown to a restart, and what a restart already due means: the
/// kubelet starts it at its next sync of the pod, by `latest` at the latest.
fn countdown(at: i64, latest: Option<i64>, clock: i64, watched: bool) -> String {
    if at >= clock {
        return relative(at - clock);
    }
    match latest {
        Some(l) if l >= clock => format!(
            "due since {}: the kubelet starts it at its next sync of the pod, {} at the latest",
            format_span_ms((clock - at).unsigned_abs()),
            relative(l - clock)
        ),
        _ if watched => format!(
            "due since {}: the kubelet should have restarted it by now, and the API has not said so: its node may be down, or its kubelet not reporting",
            format_span_ms((clock - at).unsigned_abs())
        ),
        _ => format!(
            "due since {}: the kubelet should have restarted it by now; the output is older than it looks or the pod has moved on (paste a fresh one)",
            format_span_ms((clock - at).unsigned_abs())
        ),
    }
}

fn time(t: Option<i64>) -> String {
    t.map_or_else(|| "—".to_owned(), format_rfc3339)
}

/// What "Explore this container" loads: its crash interval, exit and
/// restart settings, the pod's age, and the configuration it was diagnosed
/// on (so the charts draw the curve the diagnosis placed it on).
fn explore(
    pod: &PodObservation,
    c: &ObservedContainer,
    d: &ContainerDiagnosis,
    age: Option<Ms>,
    config: &KubeletConfig,
) -> PodGroup {
    let code = d.exit_code.unwrap_or(1);
    let code = EXIT_CODE_RANGE.contains(&code).then_some(code);
    PodGroup {
        group: Group {
            name: format!("{}/{}", pod.name, c.name)
                .chars()
                .take(40)
                .collect(),
            run_ms: d.run_ms.unwrap_or(0).min(*RUN_RANGE_MS.end()),
            exit: ExitKind::of_code(d.exit_code.unwrap_or(1)),
            exit_code: code,
            restart_policy: match c.kind {
                ContainerKind::Sidecar => crate::engine::RestartPolicy::Always,
                _ => pod.restart_policy.unwrap_or_default(),
            },
            container_restart_policy: c.own_policy,
            restart_policy_rules: c.rules.clone(),
            ..Group::default()
        },
        marker_ms: age,
        config: config.clone(),
    }
}

#[function_component]
pub fn PodPanel(p: &PodPanelProps) -> Html {
    let text = use_state(String::new);
    // When the text arrived: the default "now".
    let pasted_at = use_state(|| None::<i64>);
    let now_text = use_state(String::new);
    let tick = use_state(|| 0u64);
    // Which pod of a paste of several is shown in full (its rank).
    let selected = use_state(|| 0usize);
    let read: Rc<Result<Rc<PodsRead>, String>> = {
        let version = p.version;
        use_memo(((*text).clone(), version), |(t, v)| {
            if t.trim().is_empty() {
                Err(String::new())
            } else {
                read_pods(t, *v).map(Rc::new)
            }
        })
    };
    // Only the reading of the text as it is now: a refused paste shows its
    // error and no earlier pod's diagnosis.
    let shown = (*read).as_ref().ok().cloned();
    let typed_now = (!now_text.trim().is_empty()).then(|| parse_rfc3339(&now_text));
    let now = match &typed_now {
        Some(Ok(t)) => *t,
        _ => pasted_at.unwrap_or_else(clock_ms),
    };
    let Assumed {
        node,
        config: assumed_config,
        choice: assume_choice,
        refused,
    } = use_assumed("pod-assume", p.version, &p.config);
    let node = &node;
    let all = match (&shown, node) {
        (Some(r), Ok(node)) => Some(diagnose_pods(&r.pods, node, now, typed_now.is_some())),
        _ => None,
    };
    let rank = all
        .as_ref()
        .map_or(0, |a| (*selected).min(a.pods.len().saturating_sub(1)));
    // The diagnosis moment: "now", or the output's own when it is stale.
    let now = all.as_ref().map_or(now, |a| a.as_of);
    let diagnosis = all.as_ref().and_then(|a| a.pods.get(rank).cloned());
    let observed_pod: Option<PodObservation> = match (&shown, &all) {
        (Some(r), Some(a)) => {
            a.order
                .get(rank)
                .and_then(|&i| r.pods.get(i))
                .and_then(|p| match p {
                    PodReading::Observed(p) => Some(p.clone()),
                    PodReading::Row(_) => None,
                })
        }
        _ => None,
    };
    // A live countdown while a restart is coming and "now" is the clock.
    let live = typed_now.is_none()
        && !all.as_ref().is_some_and(|a| a.as_of_output)
        && diagnosis
            .as_ref()
            .is_some_and(|d| d.containers.iter().any(|c| c.next_restart_at.is_some()));
    {
        let tick = tick.clone();
        use_effect_with(live, move |&live| {
            let timer = live.then(|| Interval::new(1_000, move || tick.set(clock_ms() as u64)));
            move || drop(timer)
        });
    }
    let set_text = {
        let (text, pasted_at, selected) = (text.clone(), pasted_at.clone(), selected.clone());
        move |t: String| {
            selected.set(0);
            pasted_at.set(Some(clock_ms()));
            text.set(t);
        }
    };
    let on_text = {
        let set_text = set_text.clone();
        Callback::from(set_text)
    };
    let read_file = {
        let set_text = set_text.clone();
        Callback::from(move |file: web_sys::File| {
            let set_text = set_text.clone();
            if file.size() > crate::formats::pod::MAX_POD_TEXT as f64 * 4.0 {
                set_text(format!("(a {:.0} MB file)", file.size() / 1_048_576.0));
                return;
            }
            yew::platform::spawn_local(async move {
                if let Ok(t) = JsFuture::from(file.text()).await {
                    set_text(t.as_string().unwrap_or_default());
                }
            });
        })
    };
    let on_file = {
        let read_file = read_file.clone();
        Callback::from(move |e: Event| {
            let file = e
                .target_dyn_into::<HtmlInputElement>()
                .and_then(|i| i.files())
                .and_then(|f| f.get(0));
            if let Some(f) = file {
                read_file.emit(f);
            }
        })
    };
    let on_drop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(f) = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            read_file.emit(f);
        }
    });
    let on_dragover = Callback::from(|e: DragEvent| e.prevent_default());
    let error = match (&*read, node) {
        (Err(e), _) if !e.is_empty() => Some(e.clone()),
        (_, Err(_)) => refused.clone(),
        _ => None,
    };
    let now_error = match &typed_now {
        Some(Err(e)) => Some(AttrValue::from(e.clone())),
        _ => None,
    };
    let clock = if live {
        clock_ms().max(*tick as i64)
    } else {
        now
    };
    let body = diagnosis.map(|d| {
        let read = observed_pod.clone();
        // A table row is the only reading with no observed pod behind it.
        let from_row = read.is_none();
        let containers = d.containers.iter().enumerate().map(|(i, c)| {
            let observed = read.as_ref().and_then(|r| r.containers.get(i)).cloned();
            let explore_button = observed.filter(|_| c.run_ms.is_some()).map(|o| {
                let (on_explore, pod) = (p.on_explore.clone(), read.clone());
                let (cd, age, config) = (c.clone(), d.age_ms, assumed_config.clone());
                html! {
                    <button type="button" id={format!("pod-explore-{i}")} onclick={Callback::from(move |_: MouseEvent| {
                        if let Some(r) = &pod {
                            on_explore.emit(explore(r, &o, &cd, age, &config));
                        }
                    })}>{ format!("Explore {} in the charts", c.name) }</button>
                }
            });
            container_view("pod", i, c, clock, from_row, explore_button, false)
        });
        let reader_notes: Vec<String> = shown
            .as_ref()
            .map(|r| r.notes.clone())
            .into_iter()
            .flatten()
            .chain(all.as_ref().map(|a| a.notes.clone()).into_iter().flatten())
            .collect();
        let shape = shown.as_ref().map(|r| r.shape.describe()).unwrap_or_default();
        let ranking = all.as_ref().filter(|a| a.pods.len() > 1).map(|a| {
            let rows = a.pods.iter().enumerate().map(|(i, p)| {
                let next = p.containers.iter().filter_map(|c| c.next_restart_at).min();
                // Unknown where no container's count was shown (a row cut before RESTARTS).
                let restarts = p.containers.iter().filter_map(|c| c.restart_count).reduce(|a, b| a + b);
                let states = p.containers.iter().map(|c| c.state.clone()).collect::<Vec<_>>().join(", ");
                let select = {
                    let selected = selected.clone();
                    Callback::from(move |_: MouseEvent| selected.set(i))
                };
                let name = if p.pod.is_empty() { "(unnamed)".to_owned() } else { p.pod.clone() };
                html! {
                    <tr aria-current={(i == rank).then_some("true")}>
                        <td>{ i + 1 }</td>
                        <td><button type="button" class="link" id={format!("pod-pick-{i}")} onclick={select}
                            title="Show this pod's diagnosis">{ name }</button></td>
                        <td>{ next.map_or("—".to_owned(), |t| relative(t - clock)) }</td>
                        <td>{ states }</td>
                        <td>{ restarts.map_or("—".to_owned(), |n| n.to_string()) }</td>
                    </tr>
                }
            });
            html! {
                <div class="table-scroll" tabindex="0">
                    <table id="pod-ranking">
                        <caption>{ format!("{} pods, soonest restart first: click one for its diagnosis", a.pods.len()) }</caption>
                        <thead><tr><th>{"#"}</th><th>{"pod"}</th><th>{"next restart"}</th><th>{"state"}</th><th>{"restarts"}</th></tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        });
        html! {
            <div id="pod-result">
                if let Ok(n) = node {
                    <h3 id="pod-assumes">{ format!("Diagnosed on {}", n.label) }</h3>
                }
                <p id="pod-shape">{ format!("Read as {shape}.") }</p>
                { for ranking }
                <p>{ format!("Pod {}{}", if d.namespace.is_empty() { String::new() } else { format!("{}/", d.namespace) }, if d.pod.is_empty() { "(unnamed)" } else { &d.pod }) }
                    { d.age_ms.map_or(String::new(), |a| format!(", {} old", format_span_ms(a))) }
                    {", at "}{ instant(now) }</p>
                if !(reader_notes.is_empty() && d.notes.is_empty()) {
                    <ul class="notes">{ for reader_notes.iter().chain(&d.notes).map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                }
                { for containers }
            </div>
        }
    });
    // The panel's body: the CrashLoopBackOff view draws the panel and its
    // summary, and fetches this (the second wasm) when it is first opened.
    html! {
        <>
            <p class="hint">{"Paste what "}<code>{"kubectl get pod NAME -o yaml"}</code>{" (or "}<code>{"-o json"}</code>{"), "}
                <code>{"kubectl describe pod NAME"}</code>{", "}<code>{"kubectl get pods"}</code>{" or "}<code>{"kubectl get events"}</code>{" prints, whole or in part, or drop the file here. The text stays in this page: it is never sent anywhere and never written into the link."}</p>
            <div ondrop={on_drop} ondragover={on_dragover}>
                <TextArea id="pod-text" label="kubectl output" value={(*text).clone()} rows={8} oninput={on_text}
                    error={error.map(AttrValue::from)} />
            </div>
            <div class="row">
                <div class="control">
                    <label for="pod-file">{"or a file"}</label>
                    <input type="file" id="pod-file" accept=".yaml,.yml,.json,.txt" onchange={on_file} />
                </div>
                <TextField id="pod-now" label={html! {"now (RFC 3339; empty: the moment of the paste)"}} value={(*now_text).clone()}
                    placeholder="e.g. 2026-11-20T10:01:00Z" oninput={{ let n = now_text.clone(); Callback::from(move |v: String| n.set(v)) }}
                    error={now_error} />
            </div>
            <div class="row">{ assume_choice }</div>
            <p class="hint">{"A pod does not carry its node's kubelet configuration: it is diagnosed on the kubelet's shipped defaults for the version chosen above unless you choose that view's configuration or paste its kubelet's own (kubectl get --raw /api/v1/nodes/NODE/proxy/configz); the kubelet's own back-off message, where the output shows one, wins."}</p>
            { for body }
        </>
    }
}

/// One container's full diagnosis: its state, backoff, next restart and
/// countdown at `clock`, last run, what its restart policy says, and what
/// other configurations would do. `prefix` keeps its ids apart from another
/// panel's; `watched`: the pod's state comes from a watch, not a paste.
pub fn container_view(
    prefix: &str,
    i: usize,
    c: &ContainerDiagnosis,
    clock: i64,
    from_row: bool,
    explore_button: Option<Html>,
    watched: bool,
) -> Html {
    let step = c
        .curve_step
        .map_or(String::new(), |k| format!(" (step {k} of the curve)"));
    html! {
        <div class="pod-container" id={format!("{prefix}-c-{i}")}>
            <h3>{ match (from_row, c.name.is_empty()) {
                (true, _) => "the pod's containers, summed ".to_owned(),
                (false, true) => "a container the output does not name ".to_owned(),
                (false, false) => format!("{} ", c.name),
            } }<small>{ match (c.estimated, from_row) {
                (true, true) => "estimated from a table row".to_owned(),
                (true, false) => format!("{}, estimated", c.kind.name()),
                _ => c.kind.name().to_owned(),
            } }</small></h3>
            <dl class="counters">
                <dt>{"state"}</dt><dd id={format!("{prefix}-state-{i}")}>{ c.state.clone() }</dd>
                <dt>{"restartCount"}</dt><dd>{ c.restart_count.map_or("not shown".to_owned(), |n| n.to_string()) }</dd>
                <dt>{"backoff now"}</dt><dd id={format!("{prefix}-backoff-{i}")}>{
                    c.backoff_ms.map_or("—".to_owned(), |b| format!("{}{step}{}", format_human_ms(b),
                        if c.message_backoff_ms.is_some() { ", from the kubelet's message" } else { ", from the configuration" }))
                }</dd>
                <dt>{ if c.state.ends_with("ImagePullBackOff") || c.state.ends_with("ErrImagePull") { "next pull" } else { "next restart" } }</dt>
                <dd id={format!("{prefix}-next-{i}")}>{
                    match (c.next_restart_at, c.next_restart_latest_at) {
                        (Some(t), Some(l)) => html! { <>{ instant(t) }{" (at the latest "}{ instant(l) }{")"}</> },
                        (Some(t), None) => instant(t),
                        (None, _) => html! { {"none coming"} },
                    }
                }</dd>
                if let Some(t) = c.next_restart_at {
                    <dt>{"countdown"}</dt><dd id={format!("{prefix}-countdown-{i}")}>{ countdown(t, c.next_restart_latest_at, clock, watched) }</dd>
                }
                <dt>{"last run"}</dt><dd id={format!("{prefix}-run-{i}")}>{
                    c.run_ms.map_or("—".to_owned(), |r| format!("{}, exit code {}", format_span_ms(r),
                        c.exit_code.map_or("not shown".into(), |e| exit_words(e, c.exit_reason.as_deref().unwrap_or_default()))))
                }</dd>
                <dt>{"restart policy"}</dt><dd>{ c.verdict.clone() }</dd>
                if let Some(r) = c.restarts_next_hour {
                    <dt>{"in the next hour"}</dt><dd id={format!("{prefix}-hour-{i}")}>{ format!("{r} restart{}", if r == 1 { "" } else { "s" }) }</dd>
                }
                if let Some(t) = c.resets_if_runs_until {
                    <dt>{"resets the curve"}</dt><dd id={format!("{prefix}-reset-{i}")}>{"if it runs until "}{ instant(t) }</dd>
                }
            </dl>
            if !c.notes.is_empty() {
                <ul class="notes">{ for c.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
            }
            if !c.alternatives.is_empty() {
                <div class="table-scroll" tabindex="0">
                    <table id={format!("{prefix}-alternatives-{i}")}>
                        <caption>{"What would change"}</caption>
                        <thead><tr><th>{"configuration"}</th><th>{"wait now"}</th><th>{"next restart"}</th><th>{"restarts in the next hour"}</th></tr></thead>
                        <tbody>{ for c.alternatives.iter().map(|a| html! {
                            <tr>
                                <td>{ breakable(&a.label) }</td>
                                <td>{ units_kept(&format_human_ms(a.backoff_ms)) }</td>
                                <td title={time(a.next_restart_at)}>{ a.next_restart_at.map_or("—".to_owned(), |t| units_kept(&relative(t - clock))) }</td>
                                <td>{ a.restarts_next_hour }</td>
                            </tr>
                        }) }</tbody>
                    </table>
                </div>
            }
            { for explore_button }
        </div>
    }
}
