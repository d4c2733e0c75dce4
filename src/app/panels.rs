//! The control panels and the tables. Each maps state to Html and user input
//! to actions; none computes a figure.

use yew::prelude::*;

use super::controls::{
    codes_text, parse_codes, send, send_stop, use_chrome, Checkbox, Choice, Slider, TextField,
};
use super::hooks::use_caught_up;
use super::state::{
    nearest_stop, Action, Compared, GroupEdit, Handle, State, BURST_STOPS, CRASH_INTERVAL_STOPS_MS,
    EVENT_BURST_STOPS, EVENT_QPS_STOPS, GATES, HORIZON_STOPS_MS, INITIAL_STOPS_MS,
    LATENCY_STOPS_MS, MAX_COMPARED, MAX_STOPS_MS, QPS_STOPS, REQUESTS_STOPS, SPREAD_STOPS_MS,
};
use super::words::breakable;
use super::Root;
use crate::chart::PALETTE;
use crate::engine::audit::{audit, Verdict};
use crate::engine::config::DEFAULT_MAX_MS;
use crate::engine::duration::{format_count, format_go_duration_ms, format_human_ms};
use crate::engine::presets::presets;
use crate::engine::restart_rules::MAX_RULE_EXIT_CODES;
use crate::engine::scenario::{EXIT_CODE_RANGE, MAX_GROUPS, PODS_RANGE};
use crate::engine::windows::FIRST_MINUTES_MS;
use crate::engine::{
    ConfigError, Counts, EffectiveBackoff, ExitKind, Group, KubeletConfig, KubeletVersion, Ms,
    RequestKind, Requeue, RestartPolicy, RunningSeen, Semantics, Summary,
    KUBELET_CRASH_LOOP_BACK_OFF_MAX,
};
use crate::export::{signed_count, window_labels};
use crate::inputs::{JobInputs, Page, View};

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub state: Handle,
}

/// Props of a panel that re-renders only when its slice of the state
/// changes: the parent passes `slice`, a snapshot of what the panel reads
/// (the handle always reads the newest state, so it cannot tell); the
/// panel's callbacks only dispatch.
macro_rules! slice_props {
    ($name:ident, $slice:ident -> $ty:ty) => {
        #[derive(Properties)]
        pub struct $name {
            pub state: Handle,
            pub slice: $ty,
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.slice == other.slice
            }
        }
    };
}

type Resolved = Result<EffectiveBackoff, ConfigError>;

type KubeletSlice = (
    Semantics,
    Option<KubeletVersion>,
    KubeletConfig,
    Resolved,
    Option<EffectiveBackoff>,
);

pub fn kubelet_slice(s: &State) -> KubeletSlice {
    let spec = &s.inputs.spec;
    (
        spec.model,
        spec.kubelet_version,
        s.inputs.config.clone(),
        s.resolved.clone(),
        s.custom().then(|| s.scenario.backoff().clone()),
    )
}
slice_props!(KubeletProps, kubelet_slice -> KubeletSlice);

pub fn curve_slice(s: &State) -> (EffectiveBackoff, bool) {
    (s.scenario.backoff().clone(), s.custom())
}
slice_props!(CurveProps, curve_slice -> (EffectiveBackoff, bool));

pub fn timing_slice(s: &State) -> (Option<Requeue>, u64, Ms) {
    let spec = &s.inputs.spec;
    (spec.requeue, spec.seed, spec.start_latency_ms)
}
slice_props!(TimingProps, timing_slice -> (Option<Requeue>, u64, Ms));

type WorkloadSlice = (Vec<Group>, Option<u32>, Option<Ms>, usize, Vec<String>);

pub fn workload_slice(s: &State) -> WorkloadSlice {
    let spec = &s.inputs.spec;
    (
        spec.groups.clone(),
        spec.pods,
        spec.run_ms,
        spec.chart_group,
        s.scenario.warnings().to_vec(),
    )
}
slice_props!(WorkloadProps, workload_slice -> WorkloadSlice);

/// What the API panel shows: the model (which picks its controls), the
/// limits of both clients, Running seen, and the horizon.
type ApiSlice = (Semantics, u32, (u32, u32), (u32, u32), RunningSeen, Ms);

pub fn api_slice(s: &State) -> ApiSlice {
    let spec = &s.inputs.spec;
    (
        spec.model,
        spec.requests_per_restart,
        (spec.kube_api_qps, spec.kube_api_burst),
        (spec.event_record_qps, spec.event_burst),
        spec.running_seen,
        spec.horizon_ms,
    )
}
slice_props!(ApiProps, api_slice -> ApiSlice);

/// What a feature gate's checkbox says beside it: whether this kubelet has
/// it, its default, and what it changes.
fn gate_hint(name: &str, exists: bool, model: Semantics, version: KubeletVersion) -> String {
    let hint = if !exists {
        format!("not in kubelet {}", version.name())
    } else if model == Semantics::Kep {
        "KEP: alpha, off by default".to_owned()
    } else {
        match version.gate_default(name) {
            Some(true) => format!("{}: on by default (beta)", version.name()),
            _ => format!("{}: alpha, off by default", version.name()),
        }
    };
    if name == KUBELET_CRASH_LOOP_BACK_OFF_MAX {
        format!("{hint}; lets the field below set the max")
    } else {
        format!("{hint}; initial 1s, max 1m0s")
    }
}

#[function_component]
pub fn KubeletPanel<R: Root>(p: &KubeletProps) -> Html {
    let chrome = use_chrome::<R>();
    let state = &p.state;
    let s = &**state;
    let model = s.inputs.spec.model;
    let version = s.version();
    let versions = KubeletVersion::ALL
        .iter()
        .map(|v| {
            (
                AttrValue::from(v.name()),
                AttrValue::from(format!("kubelet {}", v.name())),
            )
        })
        .collect::<Vec<_>>();
    let on_version = send(state, |v: String| {
        Action::Version(KubeletVersion::parse(&v).unwrap_or_default())
    });
    let on_model = send(state, |v: String| {
        Action::Model(if v == "kep" {
            Semantics::Kep
        } else {
            Semantics::Kubelet
        })
    });
    let field_error = s
        .resolved
        .as_ref()
        .err()
        .map(|e| AttrValue::from(e.to_string()));
    let gates = GATES.iter().map(|&name| {
        let exists = s.gate_exists(name);
        // Hints are chrome: an embed shows none.
        let hint = if chrome {
            gate_hint(name, exists, model, version)
        } else {
            String::new()
        };
        let id = if name == KUBELET_CRASH_LOOP_BACK_OFF_MAX {
            "gate-max"
        } else {
            "gate-reduce"
        };
        html! {
            <Checkbox id={id} label={name} checked={s.gate(name)} disabled={!exists}
                onchange={send(state, move |on| Action::Gate(name, on))} hint={hint} />
        }
    });
    let effective = chrome.then(|| match (&s.resolved, s.custom()) {
        (_, true) => {
            let b = s.scenario.backoff();
            html! {
                <div class="effective custom" id="effective">
                    <p><strong>{"Custom what-if curve"}</strong>{" (no kubelet configuration gives it): "}
                        {"initial "}<b id="eff-initial">{ format_go_duration_ms(b.initial_ms) }</b>
                        {" · max "}<b id="eff-max">{ format_go_duration_ms(b.max_ms) }</b>
                        {" · reset after "}<b id="eff-reset">{ format_go_duration_ms(b.reset_after_ms) }</b></p>
                    if !b.schedule_ms.is_empty() {
                        <p class="hint">{ format!("waits: {} then the max",
                            b.schedule_ms.iter().map(|&w| format_human_ms(w)).collect::<Vec<_>>().join(", ")) }</p>
                    }
                    <button type="button" id="use-config" onclick={send(state, |_: MouseEvent| Action::UseConfig)}>
                        {"Back to the kubelet configuration"}</button>
                </div>
            }
        }
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
    });
    html! {
        <section class="panel" aria-labelledby={chrome.then_some("h-kubelet")}>
            if chrome { <h2 id="h-kubelet">{"Kubelet configuration"}</h2> }
            <Choice id="model" label="Model" selected={if model == Semantics::Kep { "kep" } else { "kubelet" }}
                options={vec![("kubelet".into(), "as the kubelet does it".into()), ("kep".into(), "as KEP-4603/5593 describe it".into())]}
                onchange={on_model} />
            <Choice id="version" label="Kubelet version (kubelet model)" selected={version.name()} options={versions}
                onchange={on_version} />
            { for gates }
            <TextField id="max-container-restart-period"
                label={html! { <><code>{"crashLoopBackOff."}<wbr/>{"maxContainerRestartPeriod"}</code>{" (1s to 5m0s, empty = unset)"}</> }}
                value={s.inputs.config.crash_loop_back_off.max_container_restart_period.clone().unwrap_or_default()}
                placeholder="unset, e.g. 4s or 1m30s"
                oninput={send(state, Action::MaxContainerRestartPeriod)} error={field_error} />
            { for effective }
        </section>
    }
}

#[function_component]
pub fn CurvePanel<R: Root>(p: &CurveProps) -> Html {
    let chrome = use_chrome::<R>();
    let state = &p.state;
    let b = state.scenario.backoff();
    let custom = state.custom();
    html! {
        <section class="panel" aria-labelledby={chrome.then_some("h-curve")}>
            if chrome {
                <h2 id="h-curve">{"Backoff curve"}</h2>
                <p class="hint">{"These follow the configuration above; moving one makes a custom what-if."}</p>
            }
            <Slider id="initial" label="Initial backoff" positions={INITIAL_STOPS_MS.len()}
                position={nearest_stop(INITIAL_STOPS_MS, b.initial_ms)} display={format_human_ms(b.initial_ms)}
                onchange={send_stop(state, INITIAL_STOPS_MS, Action::Initial)} inactive={!custom} />
            <Slider id="max" label="Maximum backoff" positions={MAX_STOPS_MS.len()}
                position={nearest_stop(MAX_STOPS_MS, b.max_ms)}
                display={if b.max_ms == DEFAULT_MAX_MS { "5 min (today's cap)".to_owned() } else { format_human_ms(b.max_ms) }}
                onchange={send_stop(state, MAX_STOPS_MS, Action::Max)} inactive={!custom} />
        </section>
    }
}

#[function_component]
pub fn TimingPanel(p: &TimingProps) -> Html {
    let state = &p.state;
    let spec = &state.inputs.spec;
    let selected = spec.requeue.map_or("version", Requeue::name);
    let on_requeue = send(state, |v: String| Action::Requeue(Requeue::parse(&v)));
    // A seed that does not read stays in the field with its refusal; the
    // jitter keeps the last seed that read, and says which.
    let refused_seed = use_state(|| None::<String>);
    let seed_text = (*refused_seed)
        .clone()
        .unwrap_or_else(|| spec.seed.to_string());
    let seed_error = (*refused_seed).as_ref().map(|t| {
        AttrValue::from(format!(
            "{} is not a whole number from 0 to {}: the jitter still follows seed {}",
            crate::engine::field::quoted(t.trim()),
            u64::MAX,
            spec.seed
        ))
    });
    let on_seed = {
        let (state, refused_seed) = (state.clone(), refused_seed.clone());
        Callback::from(move |v: String| match v.trim().parse::<u64>() {
            Ok(seed) => {
                refused_seed.set(None);
                state.dispatch(Action::Seed(seed));
            }
            Err(_) => refused_seed.set(Some(v)),
        })
    };
    html! {
        <section class="panel" aria-labelledby="h-timing">
            <h2 id="h-timing">{"Kubelet timing"}</h2>
            <Choice id="requeue" label="When a restart lands after the backoff expires" selected={selected}
                options={vec![
                    ("version".into(), "as the model and version do".into()),
                    (Requeue::Ideal.name().into(), "exactly at expiry (the KEPs' curves)".into()),
                    (Requeue::Periodic.name().into(), "recheck every 10–15 s (before 1.35)".into()),
                    (Requeue::AtExpiry.name().into(), "requeue at expiry ×1.0–1.5, ≤ 1 min (1.35+, k/k#133066)".into()),
                ]}
                onchange={on_requeue} />
            <div class="row">
                <TextField id="seed" label={html! {"Jitter seed"}} value={seed_text} placeholder="a whole number"
                    oninput={on_seed} error={seed_error} />
                <button type="button" id="reroll" onclick={{
                    let (state, refused_seed) = (state.clone(), refused_seed.clone());
                    Callback::from(move |_: MouseEvent| {
                        refused_seed.set(None);
                        state.dispatch(Action::Reroll);
                    })
                }}>{"Re-roll"}</button>
            </div>
            <Slider id="latency" label="Container start latency (image, sandbox), added to each restart"
                positions={LATENCY_STOPS_MS.len()} position={nearest_stop(LATENCY_STOPS_MS, spec.start_latency_ms)}
                display={format_human_ms(spec.start_latency_ms)}
                onchange={send_stop(state, LATENCY_STOPS_MS, Action::Latency)} />
        </section>
    }
}

/// Exit codes offered for a group: success, the usual failures, a chosen
/// "retriable" code, SIGKILL and SIGTERM.
const EXIT_CODES: [i32; 7] = [0, 1, 2, 42, 137, 143, 255];

fn policy_options(with_pods: bool) -> Vec<(AttrValue, AttrValue)> {
    let mut out: Vec<(AttrValue, AttrValue)> = vec![];
    if with_pods {
        out.push(("".into(), "unset (the pod's)".into()));
    }
    out.extend(RestartPolicy::NAMES.map(|n| (AttrValue::from(n), AttrValue::from(n))));
    out
}

/// A group's exit code and its container's own restart settings (KEP-5307,
/// KEP-5532): the first rule is edited here; links and JSON carry up to 20.
fn container_rules(state: &Handle, g: &Group, i: usize, id: &dyn Fn(&str) -> String) -> Html {
    let code = g.exit_code();
    let mut codes: Vec<i32> = EXIT_CODES.to_vec();
    if !codes.contains(&code) {
        codes.push(code);
    }
    let on_code = send(state, move |v: String| {
        Action::EditGroup(i, GroupEdit::ExitCode(v.parse().unwrap_or(1)))
    });
    let on_container = send(state, move |v: String| {
        Action::EditGroup(i, GroupEdit::ContainerPolicy(RestartPolicy::parse(&v)))
    });
    let on_action = send(state, move |v: String| {
        Action::EditGroup(i, GroupEdit::RuleAction((!v.is_empty()).then_some(v)))
    });
    let on_operator = send(state, move |v: String| {
        Action::EditGroup(i, GroupEdit::RuleOperator(v))
    });
    let on_values = send(state, move |v: String| {
        let values = parse_codes(&v)
            .into_iter()
            .filter(|x| EXIT_CODE_RANGE.contains(x))
            .take(MAX_RULE_EXIT_CODES)
            .collect();
        Action::EditGroup(i, GroupEdit::RuleValues(values))
    });
    let rule = g.restart_policy_rules.first();
    let action = rule.map_or(String::new(), |r| r.action.clone());
    let exit_codes = rule.and_then(|r| r.exit_codes.clone()).unwrap_or_default();
    let values = codes_text(&exit_codes.values);
    let more = g.restart_policy_rules.len().saturating_sub(1);
    html! {
        <details class="rules" id={id("rules")} open={g.container_restart_policy.is_some() || rule.is_some()}>
            <summary>{"Exit code and container restart rules (KEP-5307)"}</summary>
            <div class="row">
                <Choice id={id("exit-code")} label="Exit code" selected={code.to_string()}
                    options={codes.iter().map(|c| (AttrValue::from(c.to_string()), AttrValue::from(c.to_string()))).collect::<Vec<_>>()}
                    onchange={on_code} />
                <Choice id={id("container-policy")} label="container restartPolicy"
                    selected={g.container_restart_policy.map_or("", RestartPolicy::name)}
                    options={policy_options(true)} onchange={on_container} />
            </div>
            <div class="row">
                <Choice id={id("rule-action")} label="restartPolicyRules[0].action" selected={action}
                    options={vec![("".into(), "no rule".into()), ("Restart".into(), "Restart".into()), ("RestartAllContainers".into(), "RestartAllContainers".into())]}
                    onchange={on_action} />
                if rule.is_some() {
                    <Choice id={id("rule-operator")} label="exitCodes.operator" selected={exit_codes.operator.clone()}
                        options={vec![("In".into(), "In".into()), ("NotIn".into(), "NotIn".into())]} onchange={on_operator} />
                }
            </div>
            if rule.is_some() {
                <TextField id={id("rule-values")} label={html! {<code>{"exitCodes.values"}</code>}} value={values}
                    placeholder="e.g. 42, 43" oninput={on_values} />
            }
            if more > 0 {
                <p class="fineprint">{ format!("{more} more rule(s) from the link or JSON are kept as they are.") }</p>
            }
            <button type="button" id={id("restart-on-42")} onclick={send(state, move |_: MouseEvent| Action::EditGroup(i, GroupEdit::RestartOn42))}>
                {"Example: a Never pod that restarts in place on exit 42"}</button>
            <p class="fineprint">{"The first matching rule decides; with none, the container's restartPolicy, else the pod's. Restarts follow the CrashLoopBackOff curve. Rules need ContainerRestartRules (beta, on since 1.35); RestartAllContainers needs RestartAllContainersOnContainerExits (beta, on since 1.36)."}</p>
        </details>
    }
}

#[function_component]
pub fn WorkloadPanel<R: Root>(p: &WorkloadProps) -> Html {
    let chrome = use_chrome::<R>();
    let state = &p.state;
    let spec = &state.inputs.spec;
    let groups = spec.effective_groups();
    let many = groups.len() > 1;
    let rows = groups.iter().enumerate().map(|(i, g)| {
        // Group 0 keeps the plain ids the single-group layout had.
        let id = |name: &str| if i == 0 { name.to_owned() } else { format!("{name}-{i}") };
        let edit = move |f: fn(Ms) -> GroupEdit| move |v: Ms| Action::EditGroup(i, f(v));
        let on_pods = send(state, move |pos: usize| Action::EditGroup(i, GroupEdit::Pods(pos as u32 + 1)));
        let on_exit = send(state, move |v: String| {
            Action::EditGroup(i, GroupEdit::Exit(ExitKind::parse(&v).unwrap_or_default()))
        });
        let on_policy = send(state, move |v: String| {
            Action::EditGroup(i, GroupEdit::Policy(RestartPolicy::parse(&v).unwrap_or_default()))
        });
        let policy = g.restart_policy.name();
        let rules = chrome.then(|| container_rules(state, g, i, &id));
        let spread = if g.spread_ms == 0 { "lockstep".to_owned() } else { format!("over {}", format_human_ms(g.spread_ms)) };
        html! {
            <fieldset class="group" id={id("group")}>
                if chrome {
                    <legend>
                        <span class="swatch-text">{ if g.name.is_empty() { format!("Group {}", i + 1) } else { g.name.clone() } }</span>
                        if many {
                            <button type="button" class="remove" id={id("remove-group")} aria-label={format!("Remove group {}", i + 1)}
                                onclick={send(state, move |_: MouseEvent| Action::RemoveGroup(i))}>{"×"}</button>
                        }
                    </legend>
                }
                if many {
                    <TextField id={id("group-name")} label={html! {"Name"}} value={g.name.clone()} placeholder="e.g. batch workers"
                        oninput={send(state, move |v: String| Action::EditGroup(i, GroupEdit::Name(v.chars().take(40).collect())))} />
                }
                <Slider id={id("pods")} label="Pods (crashing together)" positions={*PODS_RANGE.end() as usize}
                    position={(g.pods as usize).saturating_sub(1)} display={g.pods.to_string()} onchange={on_pods}
                    hint={if many { "" } else { "110 is the kubelet's default maxPods" }} />
                <Slider id={id("run")} label="Crash interval (how long the container runs before it exits)"
                    positions={CRASH_INTERVAL_STOPS_MS.len()} position={nearest_stop(CRASH_INTERVAL_STOPS_MS, g.run_ms)}
                    display={format_human_ms(g.run_ms)} onchange={send_stop(state, CRASH_INTERVAL_STOPS_MS, edit(GroupEdit::Run))}
                    hint="a run longer than the reset threshold starts the curve over" />
                <div class="row">
                    <Choice id={id("exit")} label="Exits" selected={g.exit.name()}
                        options={vec![(ExitKind::Failed.name().into(), "Failed (code ≠ 0)".into()), (ExitKind::Succeeded.name().into(), "Succeeded (code 0)".into())]}
                        onchange={on_exit} />
                    <Choice id={id("policy")} label="restartPolicy" selected={policy}
                        options={vec![("Always".into(), "Always".into()), ("OnFailure".into(), "OnFailure".into()), ("Never".into(), "Never".into())]}
                        onchange={on_policy} />
                </div>
                { for rules }
                <Slider id={id("spread")} label="Starts" positions={SPREAD_STOPS_MS.len()}
                    position={nearest_stop(SPREAD_STOPS_MS, g.spread_ms)} display={spread}
                    onchange={send_stop(state, SPREAD_STOPS_MS, edit(GroupEdit::Spread))} />
            </fieldset>
        }
    });
    let chart_options = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            (
                AttrValue::from(i.to_string()),
                AttrValue::from(if g.name.is_empty() {
                    format!("group {}", i + 1)
                } else {
                    g.name.clone()
                }),
            )
        })
        .collect::<Vec<_>>();
    let on_chart_group = send(state, |v: String| {
        Action::ChartGroup(v.parse().unwrap_or(0))
    });
    html! {
        <section class="panel" aria-labelledby={chrome.then_some("h-workload")}>
            if chrome { <h2 id="h-workload">{"Workloads on the node"}</h2> }
            { for rows }
            if !state.scenario.warnings().is_empty() {
                <ul class="warnings" id="group-warnings">{ for state.scenario.warnings().iter().map(|w| html! { <li>{"warning: "}{ w.clone() }</li> }) }</ul>
            }
            if groups.len() < MAX_GROUPS {
                if chrome { <button type="button" id="add-group" onclick={send(state, |_: MouseEvent| Action::AddGroup)}>{"Add a workload group"}</button> }
            }
            if many {
                <Choice id="chart-group" label="Restart and wait charts follow" selected={spec.chart_group.to_string()}
                    options={chart_options} onchange={on_chart_group} />
            }
        </section>
    }
}

/// A client limit's slider (a QPS or a burst) over its stops.
fn limit_slider(
    state: &Handle,
    (id, label): (&'static str, &'static str),
    stops: &'static [u64],
    value: u32,
    action: fn(u32) -> Action,
) -> Html {
    html! {
        <Slider {id} {label} positions={stops.len()}
            position={nearest_stop(stops, u64::from(value))} display={value.to_string()}
            onchange={send_stop(state, stops, move |v| action(v as u32))} />
    }
}

#[function_component]
pub fn ApiPanel<R: Root>(p: &ApiProps) -> Html {
    let chrome = use_chrome::<R>();
    let state = &p.state;
    let spec = &state.inputs.spec;
    html! {
        <section class="panel" aria-labelledby={chrome.then_some("h-api")}>
            if chrome { <h2 id="h-api">{"API server and horizon"}</h2> }
            if spec.model == Semantics::Kep {
                <Slider id="requests" label="/pods status requests per restart (the KEP's count)" positions={REQUESTS_STOPS.len()}
                    position={nearest_stop(REQUESTS_STOPS, u64::from(spec.requests_per_restart))}
                    display={spec.requests_per_restart.to_string()}
                    onchange={send_stop(state, REQUESTS_STOPS, |v| Action::RequestsPerRestart(v as u32))} />
            } else {
                <Choice id="running-seen" label="Status shows each restart Running (auto: if a relist sees it, from the run and version)" selected={spec.running_seen.name()}
                    options={vec![
                        (RunningSeen::Auto.name().into(), "auto".into()),
                        (RunningSeen::Always.name().into(), "always (6 requests a restart)".into()),
                        (RunningSeen::Never.name().into(), "never (4 a restart)".into()),
                    ]}
                    onchange={send(state, |v: String| Action::RunningSeen(RunningSeen::parse(&v).unwrap_or_default()))} />
            }
            { limit_slider(state, ("qps", "kubeAPIQPS (50 since 1.27; 5 before)"), QPS_STOPS, spec.kube_api_qps, Action::Qps) }
            { limit_slider(state, ("burst", "kubeAPIBurst (100 since 1.27; 10 before)"), BURST_STOPS, spec.kube_api_burst, Action::Burst) }
            if spec.model == Semantics::Kubelet {
                { limit_slider(state, ("event-qps", "eventRecordQPS (50; 0 is client-go's 5)"), EVENT_QPS_STOPS, spec.event_record_qps, Action::EventQps) }
                { limit_slider(state, ("event-burst", "eventBurst (100)"), EVENT_BURST_STOPS, spec.event_burst, Action::EventBurst) }
            }
            <Slider id="horizon" label="Time horizon" positions={HORIZON_STOPS_MS.len()}
                position={nearest_stop(HORIZON_STOPS_MS, spec.horizon_ms)} display={format_human_ms(spec.horizon_ms)}
                onchange={send_stop(state, HORIZON_STOPS_MS, Action::Horizon)} />
        </section>
    }
}

#[function_component]
pub fn ComparePanel(p: &PanelProps) -> Html {
    let state = &p.state;
    let live_label = crate::chart::LIVE_LABEL;
    let buttons = presets().into_iter().map(|preset| {
        let id = preset.id;
        html! {
            <li>
                <button type="button" id={format!("preset-{id}")} title={format!("{} — {}", preset.section, preset.note)}
                    onclick={send(state, move |_: MouseEvent| Action::Compare(Compared::Preset(id)))}>
                    { preset.label }
                </button>
            </li>
        }
    });
    let pin = {
        let spec = state.inputs.spec.clone();
        send(state, move |_: MouseEvent| {
            Action::Compare(Compared::Pinned(Box::new(spec.clone())))
        })
    };
    html! {
        <section class="panel" aria-labelledby="h-compare">
            <h2 id="h-compare">{"Compare"}</h2>
            <ul class="legend" id="compare-legend">
                <li><span class="swatch" data-series="0"></span>{ live_label }{" (solid)"}</li>
                { for state.compared_results.iter().enumerate().map(|(i, c)| html! {
                    <li>
                        <span class="swatch" data-series={series(i + 1)}></span>
                        { c.label.clone() }
                        if let Err(e) = &c.result { <span class="error">{ format!(" ({e})") }</span> }
                        <button type="button" class="remove" aria-label={format!("Stop comparing {}", c.label)}
                            onclick={send(state, move |_: MouseEvent| Action::Uncompare(i))}>{"×"}</button>
                    </li>
                }) }
            </ul>
            <p class="hint">{ format!("Up to {MAX_COMPARED} beside this configuration; the KEP's curves run on this node, as the KEP models them (every exit waits, restarts on expiry).") }</p>
            <button type="button" id="pin" onclick={pin}>{"Pin this configuration"}</button>
            <h3>{"Curves KEP-4603 modelled or rejected"}</h3>
            <ul class="presets">{ for buttons }</ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct AuditProps {
    /// A claim's "show me": its scenario, for the charts.
    pub on_load: Callback<crate::engine::ScenarioSpec>,
}

/// The claims audit's columns, as its header names them.
const AUDIT_COLUMNS: [&str; 5] = ["KEP", "claim", "KEP says", "explorer", "verdict"];

/// The claims audit's body (the second wasm's; the CrashLoopBackOff view
/// draws its panel and summary and fetches this when it is first opened).
#[function_component]
pub fn AuditTable(p: &AuditProps) -> Html {
    let claims = use_memo((), |_| audit());
    let rows = claims.iter().map(|c| {
        let spec = c.scenario.clone();
        let (verdict, word) = match c.verdict {
            Verdict::Matches => ("matches", "matches"),
            Verdict::Differs => ("differs", "differs"),
            Verdict::Convention => ("convention", "depends on counting"),
        };
        html! {
            <tr id={format!("claim-{}", c.id)}>
                // Kubernetes' long names break between their words, so that
                // the table fits its panel.
                <td class="wide"><span class="kep">{ c.kep }</span><br/><small>{ breakable(c.section) }</small></td>
                <td class="wide"><q>{ breakable(c.quote) }</q><br/><small>{"assuming "}{ breakable(&c.assumptions) }</small></td>
                // On a phone a row is a card, each figure under its
                // column's name (the stylesheet reads `data-label`).
                <td data-label={AUDIT_COLUMNS[2]}>{ breakable(&c.kep_value) }</td>
                <td data-label={AUDIT_COLUMNS[3]}>{ breakable(&c.recomputed) }</td>
                <td class="wide" data-label={AUDIT_COLUMNS[4]}><span class="verdict" data-verdict={verdict}>{ word }</span><br/><small>{ breakable(&c.why) }</small></td>
                <td class="wide">
                    if let Some(job) = &c.job {
                        // A Job claim opens the Job view with its manifest and script.
                        <a class="show-me" id={format!("show-{}", c.id)} href={job_link(job)}>{"show me"}</a>
                    } else {
                        <button type="button" class="show-me" id={format!("show-{}", c.id)}
                            onclick={{ let load = p.on_load.clone(); Callback::from(move |_: MouseEvent| load.emit(spec.clone())) }}>{"show me"}</button>
                    }
                </td>
            </tr>
        }
    });
    html! {
        <>
        <p class="hint" id="audit-count">{ format!("{} claims, each recomputed by the engine.", claims.len()) }</p>
        <div class="table-scroll" tabindex="0">
            <table class="cards">
                <thead><tr>{ for AUDIT_COLUMNS.iter().map(|c| html! { <th>{ *c }</th> }) }<th><span class="visually-hidden">{"scenario"}</span></th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
        </>
    }
}

/// The link that opens the Job view on a claim's Job.
fn job_link(job: &JobInputs) -> String {
    let page = Page {
        view: View::Job,
        job: crate::share::job_link(job),
        ..Page::default()
    };
    format!("?{}", crate::share::encode(&page))
}

/// A legend swatch's colour: the chart's palette index, which the
/// stylesheet colours (`.swatch[data-series=N]`). An attribute, not a class
/// made at render: the stylesheet reads the state from the attribute.
fn series(i: usize) -> &'static str {
    const NAMES: [&str; PALETTE.len()] = ["0", "1", "2", "3"];
    NAMES[i % PALETTE.len()]
}

/// The figures that answer the question, first on the page: restarts per
/// pod and the node's /pods requests, in the first minutes and over the
/// horizon, each against today's default.
#[function_component]
pub fn Headline(p: &PanelProps) -> Html {
    let node = use_node_ref();
    let (figures, behind) = use_caught_up(p.state.figures(), Some(node.clone()));
    html! {
        <dl class="headline" id="headline" ref={node} aria-busy={busy(behind)}>
            { for crate::export::headline(&figures.shown).into_iter().map(|f| html! {
                <div>
                    <dt>{ f.label }</dt>
                    <dd class="figure" id={format!("head-{}", f.id)}>{ format_count(f.value) }</dd>
                    <dd class="excess" id={format!("head-excess-{}", f.id)}>{ f.excess }</dd>
                    if let Some(split) = f.split {
                        <dd class="split" id={format!("head-split-{}", f.id)}>{ split }</dd>
                    }
                </div>
            }) }
        </dl>
    }
}

/// The headline in one strip that stays at the top of the controls while
/// they scroll past, shown on a phone only (the stylesheet), where the
/// controls come after the results: a control moved there changes figures
/// in sight. Hidden from screen readers, which have the headline and its
/// announcement.
#[function_component]
pub fn HeadlineBar(p: &PanelProps) -> Html {
    let node = use_node_ref();
    let (figures, behind) = use_caught_up(p.state.figures(), Some(node.clone()));
    let e = &*figures.shown;
    let (first, horizon) = window_labels(e.timeline.horizon_ms);
    html! {
        <div class="headline-bar" id="headline-bar" ref={node} aria-hidden="true" aria-busy={busy(behind)}>
            { for crate::export::headline(e).into_iter().map(|f| {
                let what = if f.id.starts_with("restarts") { "restarts/pod" } else { "sent" };
                let when = if f.id.ends_with("5m") { &first } else { &horizon };
                html! {
                    <span id={format!("bar-{}", f.id)}>
                        <small>{ format!("{what}, {when}") }</small>
                        <b>{ format_count(f.value) }</b>{ format!(" {}", f.excess_short) }
                    </span>
                }
            }) }
        </div>
    }
}

/// The results in words for screen readers, spoken once the controls rest
/// (a drag would queue a sentence per move; `aria-busy` holds it meanwhile).
#[function_component]
pub fn Announce(p: &PanelProps) -> Html {
    let (figures, behind) = use_caught_up(p.state.figures(), None);
    let e = &*figures.shown;
    let text = format!(
        "{} restarts per pod in the first 5 minutes ({:+} over today's default); {} over the horizon; the node sends {} /pods requests in the first 5 minutes ({}).",
        e.summary.first5m.restarts_per_pod, e.excess.first5m.restarts_per_pod, e.summary.horizon.restarts_per_pod,
        format_count(e.summary.first5m.requests_sent()), signed_count(e.excess.first5m.requests_sent())
    );
    html! { <p class="visually-hidden" aria-live="polite" id="announce" aria-busy={busy(behind)}>{ text }</p> }
}

#[function_component]
pub fn SummaryTable(p: &PanelProps) -> Html {
    let node = use_node_ref();
    let (results, behind) = use_caught_up(p.state.figures(), Some(node.clone()));
    let e = &*results.shown;
    let (first, horizon) = window_labels(e.timeline.horizon_ms);
    let kubelet = e.timeline.requests.is_some();
    type Pick = fn(&Counts) -> i64;
    let requests: [(&str, &str, Pick); 3] = [
        (
            "requests-node",
            "/pods requests sent from the node",
            Counts::requests_sent,
        ),
        (
            "offered-node",
            "Requests offered to its client rate limiters",
            |c| c.node_requests.offered,
        ),
        ("queued-node", "Requests still queued at the end", |c| {
            c.node_requests.queued
        }),
    ];
    let mut rows: Vec<(String, String, Pick, bool)> = vec![
        (
            "restarts-pod-5m".into(),
            format!("Restarts per pod, {first}"),
            |c| c.restarts_per_pod,
            true,
        ),
        (
            "restarts-pod-all".into(),
            format!("Restarts per pod, {horizon}"),
            |c| c.restarts_per_pod,
            false,
        ),
        (
            "restarts-node-5m".into(),
            format!("Restarts on the node, {first}"),
            |c| c.restarts_per_node,
            true,
        ),
        (
            "restarts-node-all".into(),
            format!("Restarts on the node, {horizon}"),
            |c| c.restarts_per_node,
            false,
        ),
    ];
    for (id, what, pick) in requests {
        rows.push((format!("{id}-5m"), format!("{what}, {first}"), pick, true));
        rows.push((
            format!("{id}-all"),
            format!("{what}, {horizon}"),
            pick,
            false,
        ));
    }
    if kubelet {
        let clients: [(&str, &str, Pick); 2] = [
            ("status-sent", "Pod status sent (kubeAPIQPS)", |c| {
                c.node_requests.status.sent
            }),
            ("events-sent", "Events sent (eventRecordQPS)", |c| {
                c.node_requests.events.map_or(0, |e| e.sent)
            }),
        ];
        for (id, what, pick) in clients {
            rows.push((
                format!("{id}-all"),
                format!("{what}, {horizon}"),
                pick,
                false,
            ));
        }
    }
    // The kubelet model's kinds, over the horizon.
    let kinds: Vec<(String, String, RequestKind)> = if kubelet {
        RequestKind::ALL
            .into_iter()
            .map(|k| {
                (
                    format!("kind-{}", k.name()),
                    format!(
                        "{}, {}, {horizon}",
                        k.label(),
                        if k.offered() {
                            "offered"
                        } else {
                            "never offered"
                        }
                    ),
                    k,
                )
            })
            .collect()
    } else {
        vec![]
    };
    type Whole = fn(&Summary) -> i64;
    let whole: [(&str, &str, Whole); 4] = [
        ("peak", "Busiest 10 s: requests offered", |s| {
            s.peak_node_requests_per_window
        }),
        ("sent", "Busiest 10 s: requests sent", |s| {
            s.peak_sent_per_window
        }),
        ("queue", "Longest wait for the rate limiter (s)", |s| {
            s.max_queue_delay_ms / 1000
        }),
        ("limited", "10 s windows where the limit binds", |s| {
            s.limited_windows
        }),
    ];
    let event_client: [(&str, &str, Whole); 2] = [
        (
            "event-queue",
            "Longest wait for the event client (s)",
            |s| s.event_max_queue_delay_ms / 1000,
        ),
        (
            "event-limited",
            "10 s windows where eventRecordQPS binds",
            |s| s.event_limited_windows,
        ),
    ];
    let by_kind =
        |k: RequestKind| move |s: &Summary| s.horizon.requests_by_kind.map_or(0, |b| b.get(k));
    let cell = |id: String, v: String| html! { <td id={id}>{ v }</td> };
    let row = |id: &str, label: String, of: &dyn Fn(&Summary) -> i64| {
        html! {
            <tr>
                <th scope="row">{ label }</th>
                { cell(format!("sum-{id}"), format_count(of(&e.summary))) }
                { cell(format!("ref-{id}"), format_count(of(&e.reference_summary))) }
                { cell(format!("excess-{id}"), signed_count(of(&e.excess))) }
            </tr>
        }
    };
    figures(
        node,
        behind,
        html! {
            <>
            <table class="summary" id="summary">
                <caption>{"Figures for the node"}</caption>
                <thead><tr><th><span class="visually-hidden">{"figure"}</span></th><th>{ crate::chart::LIVE_LABEL }</th><th>{"today's default"}</th><th>{"excess"}</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|(id, label, pick, first5)| row(id, label.clone(), &|s: &Summary| pick(if *first5 { &s.first5m } else { &s.horizon }))) }
                    { for kinds.iter().map(|(id, label, k)| row(id, label.clone(), &by_kind(*k))) }
                    { for whole.iter().map(|(id, label, pick)| row(id, (*label).to_owned(), pick)) }
                    if kubelet {
                        { for event_client.iter().map(|(id, label, pick)| row(id, (*label).to_owned(), pick)) }
                    }
                </tbody>
            </table>
            { for why_events_flatten(e) }
            { for event_qps_zero(e) }
            </>
        },
    )
}

/// Where the spam filter drops events: when it starts, and why the events
/// flatten out while the status requests keep going.
fn why_events_flatten(e: &crate::engine::Exploration) -> Option<Html> {
    let r = e.timeline.requests.as_ref()?;
    let first = r.dropped_events.iter().position(|&d| d > 0)?;
    let at = first as Ms * r.window_ms;
    Some(html! {
        <p class="note" id="spam-filter">
            { format!(
                "Events flatten out from {}: client-go's spam filter lets each pod send 25 events of each type (Normal, Warning) at once, then one per 5 minutes; the rest ({} on the node) are counted on the kubelet and never sent. The status requests keep going.",
                format_human_ms(at),
                r.dropped_events.iter().sum::<u64>()
            ) }
        </p>
    })
}

/// `eventRecordQPS: 0` read both ways: the documentation's (no limit) and
/// client-go's (its default of 5 per second), which the kubelet runs.
fn event_qps_zero(e: &crate::engine::Exploration) -> Option<Html> {
    let r = e.timeline.requests.as_ref()?;
    if r.event_record_qps != 0 {
        return None;
    }
    let api = e.timeline.event_api.as_ref()?;
    let s = &e.summary;
    Some(html! {
        <p class="note" id="event-qps-zero">
            { format!(
                "eventRecordQPS 0: the kubelet's documentation reads it as no limit, but the kubelet hands it to client-go, whose REST client takes 0 for its default of {} per second; that is what runs, and here events wait up to {} s in {} windows. Read as no limit, none would wait.",
                api.qps,
                s.event_max_queue_delay_ms / 1000,
                s.event_limited_windows
            ) }
        </p>
    })
}

/// A table of figures in a box of its own (see `.figures` in style.css),
/// busy while it waits to catch up (`use_caught_up`).
fn figures(node: NodeRef, behind: bool, table: Html) -> Html {
    html! { <div class="figures" ref={node} aria-busy={busy(behind)}>{ table }</div> }
}

/// `aria-busy` while figures wait to catch up; no attribute otherwise.
fn busy(behind: bool) -> Option<AttrValue> {
    behind.then_some(AttrValue::Static("true"))
}

#[function_component]
pub fn CompareTable(p: &PanelProps) -> Html {
    let node = use_node_ref();
    let (results, behind) = use_caught_up(p.state.figures(), Some(node.clone()));
    if results.compared.is_empty() {
        // Observed from the start, for when scenarios are compared later.
        return html! { <div ref={node}></div> };
    }
    let live: &crate::engine::Timeline = &results.shown.timeline;
    let rows = std::iter::once((crate::chart::LIVE_LABEL.to_owned(), Some(live))).chain(
        results
            .compared
            .iter()
            .map(|c| (c.label.clone(), c.result.as_ref().ok().map(|t| t.get()))),
    );
    figures(
        node,
        behind,
        html! {
            <table class="summary" id="compare-table">
                <caption>{"Compared, per pod"}</caption>
                <thead><tr><th><span class="visually-hidden">{"curve"}</span></th><th>{"restarts, first 5 min"}</th><th>{ format!("restarts, {}", format_human_ms(live.horizon_ms)) }</th><th>{"busiest 10 s, node requests"}</th></tr></thead>
                <tbody>
                    { for rows.enumerate().map(|(i, (label, t))| match t {
                        Some(t) => html! { <tr>
                            <th scope="row"><span class="swatch" data-series={series(i)}></span>{ label }</th>
                            <td>{ t.restarts_by(FIRST_MINUTES_MS) }</td>
                            <td>{ t.restarts_at_ms.len() }</td>
                            <td>{ t.node_requests_per_window.iter().max().copied().unwrap_or(0) }</td>
                        </tr> },
                        None => html! { <tr><th scope="row">{ label }</th><td colspan="3">{"invalid"}</td></tr> },
                    }) }
                </tbody>
            </table>
        },
    )
}
