//! The cluster view: node classes, the kubelet and the API servers in;
//! the `system` level's seats busy, and the setting to choose, out. The
//! inputs (`ClusterInputs`) are the state; the reducer edits them and the
//! engine (`cluster_view::show`) works out the rest.

use std::rc::Rc;

use plotters::prelude::*;
use yew::prelude::*;

use super::charts::DrawnCanvas;
use super::controls::{
    send, send_stop, Checkbox, CopyButton, Refusals, Slider, TextArea, TextField,
};
use super::stops::{
    nearest_stop, BURST_STOPS, CRASH_INTERVAL_STOPS_MS, HORIZON_STOPS_MS, MAX_STOPS_MS, QPS_STOPS,
    SPREAD_STOPS_MS,
};
use crate::chart::{draw_cluster_load, draw_setting, Look};
use crate::engine::cluster::{
    self, candidate_values, judge, sweep_value, sweep_with, Cluster, ClusterResult, Recommendation,
    Sweep, SweepNodes, ValueNodes, MAX_CLASSES, PRESETS,
};
use crate::engine::cluster_view::{
    classes_from_paste, show_by, sweep_is_quick, sweep_key, sweep_nodes_key, ClassInputs,
    ClusterInputs, ClusterShown, NodesKey, MAX_RESTART_PERIOD_RANGE_MS,
};
use crate::engine::duration::{
    format_count, format_go_duration_ms, format_human_ms, grouped, rounded,
};
use crate::engine::presets::presets;
use crate::engine::{Group, KubeletVersion, Ms};
use crate::formats::pod::{read_pods_up_to, MAX_CLUSTER_TEXT};

pub const NODE_STOPS: &[u64] = &[
    1, 3, 10, 30, 100, 300, 500, 1_000, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000,
];
pub const PODS_STOPS: &[u64] = &[1, 2, 3, 5, 10, 20, 30, 50, 110, 250];
pub const REPLICA_STOPS: &[u64] = &[1, 2, 3, 5, 7, 10, 15];
pub const SEAT_STOPS_MS: &[Ms] = &[1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000];
pub const CRASHES_STOPS: &[u64] = &[1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20];
/// 0: no goal.
pub const WITHIN_STOPS_MS: &[Ms] = &[0, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000];
/// 0: no goal.
pub const BUSY_STOPS: &[u64] = &[0, 25, 50, 60, 70, 80, 90, 100];

/// `maxContainerRestartPeriod`'s stops: unset (0), then the node view's up to 5 min.
fn max_stops() -> Vec<Ms> {
    std::iter::once(0)
        .chain(
            MAX_STOPS_MS
                .iter()
                .copied()
                .filter(|m| MAX_RESTART_PERIOD_RANGE_MS.contains(m)),
        )
        .collect()
}

/// How long one task of a sweep runs its values' nodes before it leaves
/// the rest to the next (`ClusterState::run_sweep`): half a frame, so a
/// move in between is answered within one.
const SWEEP_TASK_MS: f64 = 8.0;

#[derive(Debug, Clone, PartialEq)]
pub struct ClusterState {
    /// What the user set: the one source of truth.
    pub inputs: ClusterInputs,
    /// What the inputs show, or why they cannot be shown.
    pub error: Option<String>,
    /// The last inputs that could be shown, worked out.
    pub shown: Rc<ClusterShown>,
    /// The last sweep, and the inputs it was made for (`sweep_key`).
    pub sweep: Option<(ClusterInputs, Rc<Sweep>)>,
    /// The last sweep's nodes, and what they depend on (`sweep_nodes_key`).
    pub sweep_nodes: Option<(NodesKey, Rc<SweepNodes>)>,
    /// The goals judged over the last sweep.
    pub recommendation: Rc<Recommendation>,
    /// The sweep is behind the inputs: it runs once the controls rest.
    pub sweep_pending: bool,
    /// The values a sweep under way has run its nodes at, and what they
    /// depend on (`sweep_nodes_key`): the rest come in the next tasks.
    pub sweep_partial: Option<(NodesKey, Vec<ValueNodes>)>,
    pub cache: super::cache::SeriesCache,
    /// The pasted cluster (shared, not copied from state to state: it may
    /// be megabytes), its reading's notes or error.
    pub paste: AttrValue,
    pub paste_notes: Vec<String>,
    pub paste_error: Option<String>,
    pub other_nodes_text: String,
    /// Number fields whose text is refused: the text and why. The view
    /// keeps the last value that read, and says so.
    pub refused: Refusals<NumberField>,
}

/// The view's typed number fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberField {
    OtherNodes,
    Inflight,
    Mutating,
}

impl NumberField {
    /// As the refusal names it: the API server's flag, or the field's label.
    fn name(self) -> &'static str {
        match self {
            NumberField::OtherNodes => "other nodes",
            NumberField::Inflight => "--max-requests-inflight",
            NumberField::Mutating => "--max-mutating-requests-inflight",
        }
    }
}

pub enum ClusterAction {
    Class(usize, ClassEdit),
    AddClass,
    RemoveClass(usize),
    Preset(&'static str),
    MaxMs(Ms),
    Decay(bool),
    Qps(u64),
    Burst(u64),
    Replicas(u64),
    Inflight(String),
    Mutating(String),
    SeatMs(Ms),
    OtherNodes(String),
    Compare(&'static str, bool),
    Crashes(u64),
    Within(Ms),
    NoLimiter(bool),
    Busy(u64),
    UseRecommended,
    /// The sweep, once the controls have rested.
    Sweep,
    Horizon(Ms),
    Paste(String),
    LoadPaste,
}

pub enum ClassEdit {
    /// The node view's workload on this class's nodes; empty: back to its
    /// own crash-looping pods.
    Workload(Vec<Group>),
    Name(String),
    Nodes(u64),
    Pods(u64),
    Run(Ms),
    Spread(Ms),
}

impl ClusterState {
    /// The view for these inputs (a link's, say). Inputs that cannot be
    /// shown give way to the default, with the reason kept.
    pub fn new(inputs: ClusterInputs) -> ClusterState {
        let cache = super::cache::SeriesCache::default();
        let (inputs, error) = match inputs.cluster() {
            Ok(_) => (inputs, None),
            Err(e) => (ClusterInputs::default(), Some(e)),
        };
        let state = ClusterState {
            other_nodes_text: inputs.other_nodes.to_string(),
            inputs,
            error: None,
            shown: Rc::default(),
            sweep: None,
            recommendation: Rc::default(),
            sweep_pending: false,
            sweep_partial: None,
            cache,
            sweep_nodes: None,
            paste: AttrValue::default(),
            paste_notes: vec![],
            paste_error: None,
            refused: Refusals::default(),
        };
        // The first view waits for nothing, whatever its cost.
        let mut state = state.derive();
        state.error = state.error.or(error);
        state.sweep_if_pending(None);
        state
    }

    /// The sweep left for the controls' rest, now: within `budget_ms` and
    /// the rest in the next tasks (`sweep_progress`), or all at once.
    fn sweep_if_pending(&mut self, budget_ms: Option<f64>) {
        if let (true, Ok(cluster)) = (self.sweep_pending, self.inputs.cluster()) {
            self.run_sweep(&cluster, budget_ms);
        }
    }

    /// The values a sweep under way has run, of `candidate_values` (0: none
    /// under way for these inputs).
    pub fn sweep_progress(&self) -> usize {
        match &self.sweep_partial {
            Some((k, done)) if self.sweep_pending && *k == sweep_nodes_key(&self.inputs) => {
                done.len()
            }
            _ => 0,
        }
    }

    /// Weighs every value on the nodes (running them, unless the last
    /// sweep's are these inputs'), and judges the goals over it. With a
    /// budget, the nodes run value by value until it is spent (at least one
    /// a call), and the sweep stays pending until the last: 108 values of
    /// three day-long classes at a 1 s cap were one task of some 40 ms
    /// natively, more in the wasm, after each rest of the controls.
    fn run_sweep(&mut self, cluster: &Cluster, budget_ms: Option<f64>) {
        let key = sweep_nodes_key(&self.inputs);
        let nodes = match &self.sweep_nodes {
            Some((k, nodes)) if *k == key => nodes.clone(),
            _ => {
                let reduce = self.inputs.reduce_default_decay;
                let mut done = match self.sweep_partial.take() {
                    Some((k, done)) if k == key => done,
                    _ => vec![],
                };
                let values = candidate_values();
                let started = budget_ms.map(|b| (b, js_sys::Date::now()));
                for &max in &values[done.len().min(values.len())..] {
                    done.push((max, sweep_value(cluster, reduce, max)));
                    if started.is_some_and(|(b, t)| js_sys::Date::now() - t >= b) {
                        break;
                    }
                }
                if done.len() < values.len() {
                    self.sweep_partial = Some((key, done));
                    self.sweep_pending = true;
                    return;
                }
                Rc::new(SweepNodes {
                    reduce_default_decay: reduce,
                    per_value: done,
                })
            }
        };
        let sweep = sweep_with(cluster, &nodes);
        self.sweep_nodes = Some((key, nodes));
        self.sweep = Some((sweep_key(&self.inputs), Rc::new(sweep)));
        self.rejudge(cluster);
    }

    /// The goals judged over the sweep when it is the inputs'. Otherwise
    /// the sweep runs again at once when it is quick (`sweep_is_quick`: its
    /// nodes are kept when only node counts, spreads or the API servers
    /// moved), else once the controls rest.
    fn rejudge(&mut self, cluster: &Cluster) {
        let key = sweep_key(&self.inputs);
        match &self.sweep {
            Some((k, sweep)) if *k == key => {
                self.recommendation = Rc::new(judge(sweep, &self.inputs.want));
                self.sweep_pending = false;
            }
            _ => {
                let kept = self
                    .sweep_nodes
                    .as_ref()
                    .is_some_and(|(k, _)| *k == sweep_nodes_key(&self.inputs));
                if sweep_is_quick(&self.inputs, kept) {
                    self.run_sweep(cluster, None);
                } else {
                    self.sweep_pending = true;
                }
            }
        }
    }

    /// Works the inputs out again; on an error, the last good result stays.
    fn derive(mut self) -> Self {
        let cache = self.cache.clone();
        let sums = cache.sums();
        let worked = self.inputs.cluster().and_then(|cluster| {
            let shown = show_by(
                &cluster,
                &self.inputs.compared,
                |s| cache.series(s),
                &mut sums.borrow_mut(),
            )?;
            Ok((cluster, shown))
        });
        match worked {
            Ok((cluster, shown)) => {
                self.shown = Rc::new(shown);
                self.error = None;
                self.rejudge(&cluster);
            }
            Err(e) => self.error = Some(e),
        }
        if let Some((_, e)) = self.refused.iter().next() {
            self.error = Some(e.to_owned());
        }
        self
    }
}

/// What a sweep behind the inputs says above the answer it leaves in place.
fn sweep_pending_words(done: usize) -> String {
    let before = "below, the answer for the settings as they were";
    match done {
        0 => format!(
            "The settings changed: every value is weighed again once the controls rest; {before}."
        ),
        n => format!(
            "Trying every value on these nodes: {n} of {} so far; {before}.",
            candidate_values().len()
        ),
    }
}

/// A whole number typed into one of the cluster view's fields, or why not.
fn read_number(field: NumberField, text: &str) -> Result<u32, String> {
    let t = text.trim();
    t.parse::<u32>().map_err(|_| match field {
        // kube-apiserver's flags are read by pflag: its words for what is
        // no integer (strconv.ParseInt's).
        NumberField::Inflight | NumberField::Mutating if t.parse::<i128>().is_err() => format!(
            "invalid argument {} for \"{}\" flag: strconv.ParseInt: parsing {}: invalid syntax",
            crate::engine::field::quoted(t),
            field.name(),
            crate::engine::field::quoted(t)
        ),
        _ => format!(
            "{}: {} is not a whole number from 0 to {}",
            field.name(),
            crate::engine::field::quoted(t),
            u32::MAX
        ),
    })
}

impl Reducible for ClusterState {
    type Action = ClusterAction;

    fn reduce(self: Rc<Self>, action: ClusterAction) -> Rc<Self> {
        let mut s = (*self).clone();
        let i = &mut s.inputs;
        let narrow = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        match action {
            ClusterAction::Class(n, edit) => {
                if let Some(c) = i.classes.get_mut(n) {
                    match edit {
                        ClassEdit::Workload(g) => c.groups = g,
                        ClassEdit::Name(t) => c.name = t,
                        ClassEdit::Nodes(v) => c.nodes = narrow(v),
                        ClassEdit::Pods(v) => c.pods = narrow(v),
                        ClassEdit::Run(v) => c.run_ms = v,
                        ClassEdit::Spread(v) => c.spread_ms = v,
                    }
                }
            }
            ClusterAction::AddClass => {
                if i.classes.len() < MAX_CLASSES {
                    i.classes.push(ClassInputs {
                        name: format!("pool {}", i.classes.len() + 1),
                        nodes: 100,
                        pods: 1,
                        run_ms: 0,
                        spread_ms: 0,
                        groups: vec![],
                    });
                }
            }
            ClusterAction::RemoveClass(n) => {
                if i.classes.len() > 1 && n < i.classes.len() {
                    i.classes.remove(n);
                }
            }
            ClusterAction::Preset(name) => {
                if let Some(c) = cluster::preset(name, i.api_server.clone()) {
                    i.classes = c.node_classes.into_iter().map(ClassInputs::from).collect();
                    i.other_nodes = 0;
                    s.other_nodes_text = "0".into();
                }
            }
            ClusterAction::MaxMs(m) => i.max_ms = (m > 0).then_some(m),
            ClusterAction::Decay(on) => i.reduce_default_decay = on,
            ClusterAction::Qps(v) => i.kube_api_qps = narrow(v),
            ClusterAction::Burst(v) => i.kube_api_burst = narrow(v),
            ClusterAction::Replicas(v) => i.api_server.replicas = narrow(v),
            ClusterAction::Inflight(t) => {
                if let Some(v) = s.refused.read(NumberField::Inflight, &t, |t| {
                    read_number(NumberField::Inflight, t)
                }) {
                    s.inputs.api_server.max_requests_inflight = v;
                }
            }
            ClusterAction::Mutating(t) => {
                if let Some(v) = s.refused.read(NumberField::Mutating, &t, |t| {
                    read_number(NumberField::Mutating, t)
                }) {
                    s.inputs.api_server.max_mutating_requests_inflight = v;
                }
            }
            ClusterAction::SeatMs(ms) => i.api_server.seconds_per_request = ms as f64 / 1_000.0,
            ClusterAction::OtherNodes(t) => {
                if let Some(v) = s.refused.read(NumberField::OtherNodes, &t, |t| {
                    read_number(NumberField::OtherNodes, t)
                }) {
                    s.inputs.other_nodes = v;
                }
                s.other_nodes_text = t;
            }
            ClusterAction::Compare(id, on) => {
                i.compared.retain(|c| *c != id);
                if on {
                    // In the curves' own order, as the node view lists them.
                    let order = presets();
                    i.compared.push(id);
                    i.compared
                        .sort_by_key(|c| order.iter().position(|p| p.id == *c));
                }
            }
            ClusterAction::Crashes(v) => i.want.crashes = narrow(v),
            ClusterAction::Within(ms) => i.want.restart_within_ms = (ms > 0).then_some(ms),
            ClusterAction::NoLimiter(on) => i.want.no_limiter_binds = on,
            ClusterAction::Busy(p) => i.want.max_system_busy_percent = (p > 0).then_some(p as f64),
            ClusterAction::UseRecommended => {
                if let Some(m) = s.recommendation.recommended_ms {
                    s.inputs.max_ms = Some(m);
                }
            }
            ClusterAction::Sweep => {
                s.sweep_if_pending(Some(SWEEP_TASK_MS));
                return Rc::new(s);
            }
            ClusterAction::Horizon(h) => i.horizon_ms = h,
            ClusterAction::Paste(t) => {
                s.paste = t.into();
                s.paste_error = None;
                // Text being typed changes nothing shown.
                return Rc::new(s);
            }
            ClusterAction::LoadPaste => {
                match read_pods_up_to(&s.paste, KubeletVersion::default(), MAX_CLUSTER_TEXT) {
                    Ok(read) => {
                        let (classes, others, notes) = classes_from_paste(&read.pods);
                        if classes.is_empty() {
                            s.paste_error = Some("no node runs a crash-looping pod in this text (a table needs -o wide, or -o json, to name the nodes)".into());
                        } else {
                            s.inputs.classes = classes;
                            s.inputs.other_nodes = others;
                            s.other_nodes_text = others.to_string();
                            s.paste_notes = notes;
                            s.paste_error = None;
                        }
                    }
                    Err(e) => s.paste_error = Some(e),
                }
            }
        }
        Rc::new(s.derive())
    }
}

pub type Handle = UseReducerHandle<ClusterState>;

/// A workload in a few words: each group's pods and crash interval.
fn workload_words(groups: &[Group]) -> String {
    groups
        .iter()
        .map(|g| {
            let name = if g.name.is_empty() {
                String::new()
            } else {
                format!("{}: ", g.name)
            };
            format!(
                "{name}{} pods, crashing after {}",
                g.pods,
                format_human_ms(g.run_ms)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn per_s(v: f64) -> String {
    format!("{} /s", grouped(v, 1))
}

fn seats(v: f64) -> String {
    grouped(v, 1)
}

#[derive(Properties, PartialEq)]
pub struct ClusterViewProps {
    pub state: Handle,
    /// The CrashLoopBackOff view's workload, which a class may take.
    pub node_groups: Rc<Vec<Group>>,
    #[prop_or_default]
    pub dark: bool,
}

#[function_component]
pub fn ClusterView(p: &ClusterViewProps) -> Html {
    let state = p.state.clone();
    let i = &state.inputs;
    let shown = state.shown.clone();
    let live = &shown.live;
    let spr = i.api_server.seconds_per_request;
    let stops_max = max_stops();
    let max_position = i.max_ms.map_or(0, |m| nearest_stop(&stops_max, m).max(1));
    let on_max = {
        let state = state.clone();
        Callback::from(move |pos: usize| {
            state.dispatch(ClusterAction::MaxMs(
                max_stops().get(pos).copied().unwrap_or_default(),
            ))
        })
    };
    let rec = state.recommendation.clone();
    {
        let d = state.dispatcher();
        super::hooks::use_when_rested(
            state.sweep_pending,
            Rc::as_ptr(&state.shown) as usize,
            Callback::from(move |()| d.dispatch(ClusterAction::Sweep)),
        );
    }
    {
        // A sweep under way goes on in the next task.
        let d = state.dispatcher();
        use_effect_with(state.sweep_progress(), move |&done| {
            let next = (done > 0).then(|| {
                gloo_timers::callback::Timeout::new(0, move || d.dispatch(ClusterAction::Sweep))
            });
            move || drop(next)
        });
    }
    let classes = i.classes.iter().enumerate().map(|(n, c)| {
        let id = |what: &str| format!("class-{n}-{what}");
        let edit = |f: fn(u64) -> ClassEdit, stops: &'static [u64]| {
            send_stop(&state, stops, move |v| ClusterAction::Class(n, f(v)))
        };
        html! {
            <fieldset class="rule" key={n}>
                <legend>{ format!("Node class {n}") }
                    if i.classes.len() > 1 {
                        <button type="button" class="remove" id={id("remove")} aria-label={format!("Remove node class {n}")}
                            onclick={send(&state, move |_: MouseEvent| ClusterAction::RemoveClass(n))}>{"×"}</button>
                    }
                </legend>
                <TextField id={id("name")} label={html! {"name"}} value={c.name.clone()} placeholder="pool-a"
                    oninput={send(&state, move |t: String| ClusterAction::Class(n, ClassEdit::Name(t)))} />
                <Slider id={id("nodes")} label="nodes" positions={NODE_STOPS.len()}
                    position={nearest_stop(NODE_STOPS, u64::from(c.nodes))} display={format_count(i64::from(c.nodes))}
                    onchange={edit(ClassEdit::Nodes, NODE_STOPS)} />
                if c.groups.is_empty() {
                    <Slider id={id("pods")} label="crash-looping pods per node" positions={PODS_STOPS.len()}
                        position={nearest_stop(PODS_STOPS, u64::from(c.pods))} display={c.pods.to_string()}
                        onchange={edit(ClassEdit::Pods, PODS_STOPS)} />
                    <Slider id={id("run")} label="each runs before it crashes" positions={CRASH_INTERVAL_STOPS_MS.len()}
                        position={nearest_stop(CRASH_INTERVAL_STOPS_MS, c.run_ms)} display={format_human_ms(c.run_ms)}
                        onchange={edit(ClassEdit::Run, CRASH_INTERVAL_STOPS_MS)} />
                    <p>
                        <button type="button" id={id("take-workload")} onclick={{
                            let groups = (*p.node_groups).clone();
                            send(&state, move |_: MouseEvent| ClusterAction::Class(n, ClassEdit::Workload(groups.clone())))
                        }}>{"Take the CrashLoopBackOff view's workload"}</button>
                        <small class="hint">{ format!(" {}", workload_words(&p.node_groups)) }</small>
                    </p>
                } else {
                    <p class="hint" id={id("workload")}>{ format!("Each node runs the CrashLoopBackOff view's workload as it was taken: {}.", workload_words(&c.groups)) }</p>
                    <p><button type="button" id={id("own-pods")}
                        onclick={send(&state, move |_: MouseEvent| ClusterAction::Class(n, ClassEdit::Workload(vec![])))}>{"Back to crash-looping pods"}</button></p>
                }
                <Slider id={id("spread")} label="the rollout reaches its nodes over" positions={SPREAD_STOPS_MS.len()}
                    position={nearest_stop(SPREAD_STOPS_MS, c.spread_ms)}
                    display={if c.spread_ms == 0 { "at once".to_owned() } else { format_human_ms(c.spread_ms) }}
                    onchange={edit(ClassEdit::Spread, SPREAD_STOPS_MS)} />
            </fieldset>
        }
    });
    let curves = presets();
    let compare_boxes = curves.iter().map(|c| {
        let id = c.id;
        html! {
            <Checkbox id={format!("cluster-compare-{id}")} label={c.label} checked={i.compared.contains(&id)}
                onchange={send(&state, move |on: bool| ClusterAction::Compare(id, on))} />
        }
    });
    let row = |label: &str, r: &ClusterResult| {
        html! {
            <tr>
                <th scope="row">{ label.to_owned() }</th>
                <td>{ per_s(r.peak_requests_per_second) }</td>
                <td>{ format!("{} of {}", seats(r.peak_seats_busy), r.system_seats) }</td>
                <td>{ if r.time_over_seats_ms == 0 { "never".to_owned() } else { format_human_ms(r.time_over_seats_ms) } }</td>
            </tr>
        }
    };
    let range = match (rec.feasible_ms, rec.recommended_ms) {
        (Some((lo, hi)), Some(best)) => html! {
            <p id="setting-range" role="status">
                {"Every goal holds for "}<code>{"maxContainerRestartPeriod"}</code>{ format!(" from {} to {}. Recommended: ", format_go_duration_ms(lo), format_go_duration_ms(hi)) }
                <strong id="setting-recommended">{ format_go_duration_ms(best) }</strong>
                {" (the largest that holds: the least load on the API server)."}
                if i.max_ms != Some(best) {
                    {" "}<button type="button" id="setting-use" onclick={send(&state, |_: MouseEvent| ClusterAction::UseRecommended)}>{"Use it above"}</button>
                }
            </p>
        },
        _ => {
            html! { <p id="setting-range" role="status">{"No value from 1 s to 5 min meets every goal."}</p> }
        }
    };
    html! {
        <div class="layout cluster">
            <div class="controls">
                // The figures in one strip that stays at the top of the
                // controls on a phone, where they come after the results.
                <div class="headline-bar" id="cluster-bar" aria-hidden="true">
                    <span><small>{"peak requests, all nodes"}</small><b id="cluster-bar-peak">{ per_s(live.peak_requests_per_second) }</b></span>
                    <span><small>{"system seats busy at peak"}</small><b>{ seats(live.peak_seats_busy) }</b>{ format!(" of {}", live.system_seats) }</span>
                </div>
                <section class="panel" aria-labelledby="h-classes">
                    <h2 id="h-classes">{"Node classes"}</h2>
                    <p class="hint">{"Start from a rollout people ask about:"}</p>
                    <ul class="presets">
                        { for PRESETS.iter().map(|&(name, what)| html! {
                            <li><button type="button" id={format!("cluster-preset-{name}")} title={what}
                                onclick={send(&state, move |_: MouseEvent| ClusterAction::Preset(name))}>{ what }</button></li>
                        }) }
                    </ul>
                    { for classes }
                    if i.classes.len() < MAX_CLASSES {
                        <p><button type="button" id="add-class" onclick={send(&state, |_: MouseEvent| ClusterAction::AddClass)}>{"Add a node class"}</button></p>
                    }
                    <Slider id="cluster-horizon" label="followed for" positions={HORIZON_STOPS_MS.len()}
                        position={nearest_stop(HORIZON_STOPS_MS, i.horizon_ms)} display={format_human_ms(i.horizon_ms)}
                        onchange={send_stop(&state, HORIZON_STOPS_MS, ClusterAction::Horizon)} />
                    <TextField id="cluster-other-nodes" label={html! {"other nodes (no crash-looping pod; their leases count)"}}
                        value={state.other_nodes_text.clone()} placeholder="0" oninput={send(&state, ClusterAction::OtherNodes)}
                        error={state.refused.error(NumberField::OtherNodes)} />
                </section>
                <section class="panel" aria-labelledby="h-cluster-kubelet">
                    <h2 id="h-cluster-kubelet">{"Every node's kubelet"}</h2>
                    <Slider id="cluster-max" label="maxContainerRestartPeriod" positions={stops_max.len()} position={max_position}
                        display={i.max_ms.map_or_else(|| "unset (5m0s)".to_owned(), format_go_duration_ms)} onchange={on_max} />
                    <Checkbox id="cluster-decay" label="ReduceDefaultCrashLoopBackOffDecay" checked={i.reduce_default_decay}
                        onchange={send(&state, ClusterAction::Decay)} hint="alpha: 1 s initial instead of 10 s" />
                    <Slider id="cluster-qps" label="kubeAPIQPS" positions={QPS_STOPS.len()}
                        position={nearest_stop(QPS_STOPS, u64::from(i.kube_api_qps))} display={i.kube_api_qps.to_string()}
                        onchange={send_stop(&state, QPS_STOPS, ClusterAction::Qps)} />
                    <Slider id="cluster-burst" label="kubeAPIBurst" positions={BURST_STOPS.len()}
                        position={nearest_stop(BURST_STOPS, u64::from(i.kube_api_burst))} display={i.kube_api_burst.to_string()}
                        onchange={send_stop(&state, BURST_STOPS, ClusterAction::Burst)} />
                </section>
                <section class="panel" aria-labelledby="h-apiserver">
                    <h2 id="h-apiserver">{"API servers"}</h2>
                    <Slider id="cluster-replicas" label="replicas" positions={REPLICA_STOPS.len()}
                        position={nearest_stop(REPLICA_STOPS, u64::from(i.api_server.replicas))} display={i.api_server.replicas.to_string()}
                        onchange={send_stop(&state, REPLICA_STOPS, ClusterAction::Replicas)} />
                    // One a line: side by side, the flags' names broke at their hyphens.
                    <TextField id="cluster-inflight" label={html! {<code>{"--max-requests-inflight"}</code>}}
                        value={state.refused.text(NumberField::Inflight, || i.api_server.max_requests_inflight.to_string())} placeholder="400"
                        oninput={send(&state, ClusterAction::Inflight)} error={state.refused.error(NumberField::Inflight)} />
                    <TextField id="cluster-mutating" label={html! {<code>{"--max-mutating-requests-inflight"}</code>}}
                        value={state.refused.text(NumberField::Mutating, || i.api_server.max_mutating_requests_inflight.to_string())} placeholder="200"
                        oninput={send(&state, ClusterAction::Mutating)} error={state.refused.error(NumberField::Mutating)} />
                    <Slider id="cluster-seat" label="each request holds a seat for" positions={SEAT_STOPS_MS.len()}
                        position={nearest_stop(SEAT_STOPS_MS, (spr * 1_000.0).round() as u64)} display={format_human_ms((spr * 1_000.0).round() as u64)}
                        onchange={send_stop(&state, SEAT_STOPS_MS, ClusterAction::SeatMs)}
                        hint="not published anywhere: 20 ms is a guess for a small GET or PATCH of pods/status; move it and watch the verdict" />
                </section>
                <section class="panel" aria-labelledby="h-cluster-compare">
                    <h2 id="h-cluster-compare">{"Compare KEP-4603's curves"}</h2>
                    { for compare_boxes }
                </section>
                <section class="panel" aria-labelledby="h-cluster-paste">
                    <h2 id="h-cluster-paste">{"From your cluster"}</h2>
                    <TextArea id="cluster-paste" label="Paste kubectl get pods -A -o wide (or -o json)" value={state.paste.clone()} rows={5}
                        oninput={send(&state, ClusterAction::Paste)} error={state.paste_error.clone().map(AttrValue::from)} />
                    <button type="button" id="cluster-load" onclick={send(&state, |_: MouseEvent| ClusterAction::LoadPaste)}>{"Make node classes of it"}</button>
                    if !state.paste_notes.is_empty() {
                        <ul class="notes" id="cluster-paste-notes">{ for state.paste_notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                    }
                </section>
            </div>
            <section class="results" aria-label="Cluster results">
                if let Some(e) = &state.error {
                    <p class="error" role="alert" id="cluster-error">{ format!("{e}; showing the last valid cluster.") }</p>
                }
                <dl class="counters" id="cluster-figures">
                    <dt>{"peak requests (pod status and events), all nodes"}</dt><dd id="cluster-peak">{ per_s(live.peak_requests_per_second) }</dd>
                    <dt>{ format!("/pods requests sent, all nodes, {}", format_human_ms(i.horizon_ms)) }</dt>
                    <dd id="cluster-sent">{ format_count(live.requests.sent) }</dd>
                    <dd class="split" id="cluster-kinds">{ crate::export::requests_in_brief(&live.requests, live.requests_by_kind) }</dd>
                    <dt>{"system level seats busy at peak"}</dt><dd id="cluster-busy">{ format!("{} of {} ({} replica(s) × {})", seats(live.peak_seats_busy), live.system_seats, i.api_server.replicas, live.system.nominal) }</dd>
                    <dt>{"over the seats for"}</dt><dd id="cluster-over">{ if live.time_over_seats_ms == 0 { "never".to_owned() } else { format_human_ms(live.time_over_seats_ms) } }</dd>
                    <dt>{"node leases (node-high, apart)"}</dt><dd id="cluster-leases">{ format!("{}, {} seats", per_s(live.lease_requests_per_second), seats(live.lease_seats_busy)) }</dd>
                </dl>
                <DrawnCanvas<ChartOf> id="chart-cluster" heights={(300, 300)} data={ChartOf::Load(shown.clone(), spr)} dark={p.dark}
                    alt="The system priority level's seats busy over time, for all API servers, against its seats: today's default, this setting and each compared curve" />
                <div class="table-scroll" tabindex="0">
                    <table class="summary" id="cluster-curves">
                        <caption>{"Each kubelet curve on these nodes"}</caption>
                        <thead><tr><th>{"kubelet"}</th><th>{"peak requests"}</th><th>{"seats busy at peak"}</th><th>{"over the seats for"}</th></tr></thead>
                        <tbody>
                            { row("today's default (10 s / 5 min)", &shown.todays_default) }
                            { row(crate::chart::LIVE_LABEL, live) }
                            { for shown.compared.iter().map(|(label, r)| row(label, r)) }
                        </tbody>
                    </table>
                </div>
                <div class="table-scroll" tabindex="0">
                    <table class="summary" id="cluster-classes">
                        <caption>{"Each node class, on this configuration"}</caption>
                        <thead><tr><th>{"node class"}</th><th>{"nodes"}</th><th>{"one node's peak"}</th><th>{"the class's peak"}</th><th>{"kubelet rate limiter"}</th></tr></thead>
                        <tbody>{ for live.classes.iter().map(|c| html! {
                            <tr>
                                <th scope="row">{ c.name.clone() }</th><td>{ format_count(i64::from(c.nodes)) }</td>
                                <td>{ per_s(c.node_peak_requests_per_second) }</td><td>{ per_s(c.peak_requests_per_second) }</td>
                                <td>{ if c.limiter_binds { "binds" } else { "does not bind" } }</td>
                            </tr>
                        }) }</tbody>
                    </table>
                </div>
                <ul class="notes" id="cluster-notes">{ for live.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                <section class="panel" aria-labelledby="h-setting" id="setting" aria-busy={state.sweep_pending.then_some("true")}>
                    <h2 id="h-setting">{"Choose a setting"}</h2>
                    <p class="hint">{"Say what you want; every value of maxContainerRestartPeriod from 1 s to 5 min is tried on these nodes."}</p>
                    <div class="row">
                        <Slider id="want-crashes" label="a container that crashed this many times in a row" positions={CRASHES_STOPS.len()}
                            position={nearest_stop(CRASHES_STOPS, u64::from(i.want.crashes))} display={i.want.crashes.to_string()}
                            onchange={send_stop(&state, CRASHES_STOPS, ClusterAction::Crashes)} />
                        <Slider id="want-within" label="restarts within" positions={WITHIN_STOPS_MS.len()}
                            position={nearest_stop(WITHIN_STOPS_MS, i.want.restart_within_ms.unwrap_or(0))}
                            display={i.want.restart_within_ms.map_or_else(|| "no goal".to_owned(), format_human_ms)}
                            onchange={send_stop(&state, WITHIN_STOPS_MS, ClusterAction::Within)} />
                    </div>
                    <div class="row">
                        <Slider id="want-busy" label="the system level at most this busy at peak" positions={BUSY_STOPS.len()}
                            position={nearest_stop(BUSY_STOPS, i.want.max_system_busy_percent.map_or(0, |b| b.round() as u64))}
                            display={i.want.max_system_busy_percent.map_or_else(|| "no goal".to_owned(), |b| format!("{} %", rounded(b, 1)))}
                            onchange={send_stop(&state, BUSY_STOPS, ClusterAction::Busy)} />
                        <Checkbox id="want-no-limiter" label="no kubelet's rate limiter binds" checked={i.want.no_limiter_binds}
                            onchange={send(&state, ClusterAction::NoLimiter)} />
                    </div>
                    if state.sweep_pending {
                        <p class="hint" id="setting-pending">{ sweep_pending_words(state.sweep_progress()) }</p>
                    }
                    { range }
                    <DrawnCanvas<ChartOf> id="chart-setting" heights={(300, 300)} data={ChartOf::Setting(rec.clone(), i.want.clone())} dark={p.dark}
                        alt="Each goal as a per cent of itself over maxContainerRestartPeriod from 1 s to 5 min: where every goal holds is shaded, and the recommended value marked" />
                    <ul class="notes">{ for rec.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                    <div id="setting-snippets">
                        { for rec.snippets.iter().enumerate().map(|(i, s)| html! {
                            <div class="setting-snippet">
                                <h3>{ s.platform.clone() }</h3>
                                if let Some(text) = &s.text {
                                    <pre class="manifest" id={format!("setting-snippet-{i}")} tabindex="0">{ text.clone() }</pre>
                                    <CopyButton id={format!("copy-setting-snippet-{i}")} text={text.clone()} />
                                }
                                <p class="fineprint">{ s.source.clone() }</p>
                            </div>
                        }) }
                    </div>
                </section>
                <p class="fineprint">{"The kubelet's pod status traffic (GET and PATCH of pods/status, the requests per restart of the node view) is matched by the system-nodes FlowSchema and served by API Priority and Fairness's system level. Its seats are the API servers' --max-requests-inflight plus --max-mutating-requests-inflight, shared by nominal concurrency shares (kubernetes/apiserver pkg/apis/flowcontrol/bootstrap/default.go). A class of nodes costs one node's evaluation: nodes that crash together send the same requests; a spread rollout is the node's series averaged over the spread."}</p>
            </section>
        </div>
    }
}

/// A chart of the view and all it draws from, so that each redraws only
/// when its own data changed.
#[derive(Clone, PartialEq)]
enum ChartOf {
    /// Seats busy over time, at this many seconds a request.
    Load(Rc<ClusterShown>, f64),
    /// Each goal over the values.
    Setting(Rc<Recommendation>, cluster::Constraints),
}

impl super::charts::Drawn for ChartOf {
    fn draw(
        &self,
        area: &DrawingArea<super::canvas::Canvas, plotters::coord::Shift>,
        look: Look,
    ) -> Result<(), String> {
        match self {
            ChartOf::Setting(rec, want) => draw_setting(area, rec, want, look).map(drop),
            ChartOf::Load(shown, spr) => draw_cluster_load(area, shown, *spr, look).map(drop),
        }
        .map_err(|e| e.to_string())
    }
}
