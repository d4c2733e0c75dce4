//! From one node to the cluster: classes of nodes, each a count of nodes
//! that run the same workload, summed into what reaches the API server's
//! `system` priority level, and the `maxContainerRestartPeriod` values under
//! which what the user asks for holds.
//!
//! A class costs one node's evaluation whatever its node count: nodes that
//! crash together send the same requests in the same windows (count × the
//! node); nodes whose onset is spread over a time send the node's requests
//! shifted, so the class is the node's series averaged over the spread
//! (a running sum, not a loop over nodes).

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::apf::{self, ApiServer, LevelSeats};
use super::backoff::Ms;
use super::config::{CrashLoopBackOffConfig, KubeletConfig, Semantics};
use super::duration::{format_count, format_go_duration_ms};
use super::kept::Kept;
use super::limiter::ApiLoad;
use super::node::{node_admitted, node_timeline, sent_into, sent_per_window, Admitted};
use super::presets::Preset;
use super::requests::RequestsByKind;
use super::runs::{pod_runs_unbanded, pod_runs_unwindowed};
use super::scenario::{Scenario, ScenarioSpec};
use super::sent::{self, NodeRequests};
use super::windows::LOAD_WINDOW_MS;
use super::{KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY};

/// SIG Scalability's tested envelope.
pub const MAX_NODES: u32 = 15_000;
pub const MAX_CLASSES: usize = 20;
/// A spread longer than a day is not one rollout.
pub const MAX_SPREAD_MS: Ms = 86_400_000;
/// Nodes beyond the classes: ten times the tested envelope still reads.
pub const MAX_OTHER_NODES: u32 = 150_000;

/// Nodes that run the same workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeClass {
    pub name: String,
    pub nodes: u32,
    /// One node's workload and kubelet, as the bare command reads it.
    #[serde(default)]
    pub scenario: Scenario,
    /// Over how long the crashes start across the class's nodes (a rollout
    /// going node by node); 0: every node at once.
    #[serde(default)]
    pub spread_ms: Ms,
}

/// What `crashloop-explorer cluster` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Cluster {
    pub node_classes: Vec<NodeClass>,
    #[serde(default)]
    pub api_server: ApiServer,
    /// Nodes that run no crash-looping pod: they renew their leases, and
    /// send the `system` level nothing from crash loops.
    #[serde(default)]
    pub other_nodes: u32,
}

impl Cluster {
    /// The first field out of range, named as the JSON names it.
    pub fn validate(&self) -> Result<(), String> {
        if self.node_classes.is_empty() {
            return Err("nodeClasses: at least one node class".into());
        }
        if self.node_classes.len() > MAX_CLASSES {
            return Err(format!("nodeClasses: at most {MAX_CLASSES} classes"));
        }
        for (i, c) in self.node_classes.iter().enumerate() {
            if !(1..=MAX_NODES).contains(&c.nodes) {
                return Err(format!(
                    "nodeClasses[{i}].nodes: {} is not 1 to {MAX_NODES}",
                    c.nodes
                ));
            }
            if c.spread_ms > MAX_SPREAD_MS {
                return Err(format!("nodeClasses[{i}].spreadMs: at most a day"));
            }
        }
        if self.other_nodes > MAX_OTHER_NODES {
            return Err(format!("otherNodes: at most {MAX_OTHER_NODES}"));
        }
        self.api_server.validate()
    }

    /// The same nodes on one of the curves KEP-4603 modelled or rejected,
    /// as the node view draws it beside the live one (`Preset::apply`).
    pub fn on_curve(&self, curve: &Preset) -> Result<Cluster, String> {
        let scenarios = self
            .node_classes
            .iter()
            .map(|c| {
                Scenario::try_from(curve.apply(c.scenario.spec()))
                    .map_err(|e| format!("{} on {}: {e}", c.name, curve.id))
            })
            .collect::<Result<_, String>>()?;
        Ok(self.with_scenarios(scenarios))
    }

    /// The same nodes on today's default kubelet (10 s doubling to 5 min).
    pub fn on_todays_default(&self) -> Cluster {
        self.with_scenarios(
            self.node_classes
                .iter()
                .map(|c| c.scenario.with_todays_default())
                .collect(),
        )
    }

    /// The same classes, each on its scenario of `scenarios`, in order.
    fn with_scenarios(&self, scenarios: Vec<Scenario>) -> Cluster {
        Cluster {
            node_classes: self
                .node_classes
                .iter()
                .zip(scenarios)
                .map(|(c, scenario)| NodeClass {
                    scenario,
                    ..c.clone()
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// One class's share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassResult {
    pub name: String,
    pub nodes: u32,
    /// The busiest window of the class, in requests per second.
    pub peak_requests_per_second: f64,
    /// The busiest window of one of its nodes.
    pub node_peak_requests_per_second: f64,
    /// Whether its kubelets' own client rate limiter holds requests back.
    pub limiter_binds: bool,
    /// Its nodes' requests over the horizon: offered, sent, still queued.
    pub requests: NodeRequests,
    /// Its nodes' requests offered, by kind, over the horizon (kubelet model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_by_kind: Option<RequestsByKind>,
}

/// What the cluster sends the API server, against what it can serve
/// (`Default`: nothing, against no seats).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterResult {
    pub window_ms: Ms,
    /// The kubelets' requests sent per window, summed: pod status and
    /// events (kubelet model; the KEP model's flat count per restart), all
    /// `system-nodes` traffic served by the `system` level.
    pub requests_per_window: Vec<u64>,
    /// The classes' requests over their horizons, summed: offered, sent,
    /// still queued.
    pub requests: NodeRequests,
    /// The classes' requests offered by kind over their horizons, summed
    /// (kubelet model; events dropped by the spam filter are never offered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_by_kind: Option<RequestsByKind>,
    pub peak_requests_per_second: f64,
    /// The `system` level's nominal seats over all replicas.
    pub system_seats: u32,
    /// One replica's `system` level: nominal, lendable, borrowable.
    pub system: LevelSeats,
    /// Peak requests per second × seconds per request, over all replicas.
    pub peak_seats_busy: f64,
    /// How long demand needs more than the nominal seats.
    pub time_over_seats_ms: Ms,
    /// Node leases, a separate baseline on `node-high`.
    pub lease_requests_per_second: f64,
    pub lease_seats_busy: f64,
    pub classes: Vec<ClassResult>,
    pub notes: Vec<String>,
}

/// A node's admitted requests per window spread over `spread` windows: the
/// mean of the series shifted by 0 … spread − 1 windows, times `nodes`.
fn spread_sum(node: &[u64], nodes: u32, spread: usize, len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    spread_add(node, nodes, spread, &mut out);
    out
}

/// Classes' sums (`spread_sum` of a node series) kept from one evaluation
/// to the next: a move of one class's node count re-sums that class only,
/// not the spread classes beside it on every curve shown (issue 47: the
/// 3 × 5,000-node move over its frame). Keyed by the node series (held,
/// so that its address is not reused by another), node count, spread and
/// length.
#[derive(Debug)]
pub struct ClassSums(Kept<ClassSumKey, Rc<[u64]>>);

type ClassSumKey = (Rc<NodeSeries>, u32, usize, usize);

/// Sums kept: every class on every curve of a few moves' views.
const CLASS_SUMS: usize = 32;

impl Default for ClassSums {
    fn default() -> Self {
        ClassSums(Kept::new(CLASS_SUMS))
    }
}

impl ClassSums {
    /// `node`'s series over `nodes` nodes spread over `spread` windows, in
    /// `len` windows: kept, or summed and kept.
    pub fn get(
        &mut self,
        node: &Rc<NodeSeries>,
        nodes: u32,
        spread: usize,
        len: usize,
    ) -> Rc<[u64]> {
        self.0.get_or(
            |(n, k_nodes, k_spread, k_len)| {
                Rc::ptr_eq(n, node) && (*k_nodes, *k_spread, *k_len) == (nodes, spread, len)
            },
            || {
                let sum = spread_sum(&node.sent.sent_per_window, nodes, spread, len).into();
                ((node.clone(), nodes, spread, len), sum)
            },
        )
    }
}

/// `spread_sum` added into `out`.
fn spread_add(node: &[u64], nodes: u32, spread: usize, out: &mut [u64]) {
    let n = u64::from(nodes);
    if spread <= 1 {
        for (slot, r) in out.iter_mut().zip(node) {
            *slot += r * n;
        }
        return;
    }
    // Nodes are spread evenly: in window w the class sends
    // Σ_{j<spread} node[w − j] · nodes / spread, a running sum of the node:
    // in u64 where the node's whole series times the nodes fits (a day's
    // always does; u128's division is many times slower in wasm), else u128.
    let at = |w: usize| node.get(w).copied().unwrap_or(0);
    if all_times(node, nodes).is_some() {
        let mut class = Spreading::new(node, nodes, spread);
        for (w, slot) in out.iter_mut().enumerate() {
            *slot += class.next(w);
        }
        return;
    }
    let mut running: u128 = 0;
    for (w, slot) in out.iter_mut().enumerate() {
        running += u128::from(at(w));
        if w >= spread {
            running -= u128::from(at(w - spread));
        }
        *slot += (running * u128::from(n) / spread as u128) as u64;
    }
}

/// The node's whole series times its nodes, where it fits in u64: then so
/// does each window's share of it.
fn all_times(node: &[u64], nodes: u32) -> Option<u64> {
    node.iter()
        .try_fold(0u64, |sum, &r| sum.checked_add(r))?
        .checked_mul(u64::from(nodes))
}

/// A class's windows in turn, in u64 (where `all_times` fits): the running
/// sum of its node's last `spread` windows, times its nodes, over the
/// spread.
struct Spreading<'a> {
    node: &'a [u64],
    nodes: u64,
    spread: usize,
    running: u64,
}

impl<'a> Spreading<'a> {
    fn new(node: &'a [u64], nodes: u32, spread: usize) -> Self {
        Spreading {
            node,
            nodes: u64::from(nodes),
            spread,
            running: 0,
        }
    }

    /// Window `w`'s requests, the windows asked for in order from 0
    /// (inlined: at opt-level "z" a call per window was a quarter more).
    #[inline(always)]
    fn next(&mut self, w: usize) -> u64 {
        let at = |i: usize| self.node.get(i).copied().unwrap_or(0);
        if self.spread <= 1 {
            return at(w) * self.nodes;
        }
        self.running += at(w);
        if w >= self.spread {
            self.running -= at(w - self.spread);
        }
        self.running * self.nodes / self.spread as u64
    }
}

/// A class as the sweep sums it: its node, nodes and spread.
type SweepClass<'a> = (&'a NodeSent, u32, usize);

/// The busiest of `len` windows of the classes summed (`spread_add` of
/// each), in one pass over the windows with nothing written: the sweep
/// re-sums 108 values when a node count moves, within the frame.
fn peak_of(classes: &[SweepClass], len: usize) -> u64 {
    let fits = classes.iter().try_fold(0u64, |sum, &(node, nodes, _)| {
        sum.checked_add(node.total?.checked_mul(u64::from(nodes))?)
    });
    if fits.is_none() {
        let mut total = vec![0; len];
        for &(node, nodes, spread) in classes {
            spread_add(&node.sent_per_window, nodes, spread, &mut total);
        }
        return total.into_iter().max().unwrap_or(0);
    }
    let mut spreading: Vec<Spreading> = classes
        .iter()
        .map(|&(node, nodes, spread)| Spreading::new(&node.sent_per_window, nodes, spread))
        .collect();
    let mut peak = 0;
    for w in 0..len {
        let mut total = 0;
        for class in spreading.iter_mut() {
            total += class.next(w);
        }
        peak = peak.max(total);
    }
    peak
}

/// One node's admitted `/pods` requests per window, and whether either of
/// its clients' rate limiters binds: all the sweep reads of a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSent {
    /// Both clients' (status and events) requests sent.
    pub sent_per_window: Vec<u64>,
    /// Their sum, where it fits in u64: summed once, not on each of the
    /// sweep's re-sums (it reads a day's windows per class and value).
    total: Option<u64>,
    pub limiter_binds: bool,
}

impl NodeSent {
    pub fn new(sent_per_window: Vec<u64>, limiter_binds: bool) -> NodeSent {
        NodeSent {
            total: all_times(&sent_per_window, 1),
            sent_per_window,
            limiter_binds,
        }
    }

    /// What a node's clients' limiters let through, as the sweep reads it.
    fn of(api: &ApiLoad, event_api: Option<&ApiLoad>) -> NodeSent {
        NodeSent::new(
            sent_per_window(api, event_api).into_owned(),
            binds(api, event_api),
        )
    }

    /// `of`, the status client's windows taken rather than copied.
    fn admitted(a: Admitted) -> NodeSent {
        let binds = binds(&a.api, a.event_api.as_ref());
        NodeSent::new(
            sent_into(a.api.admitted_per_window, a.event_api.as_ref()),
            binds,
        )
    }
}

/// Whether either client's rate limiter holds a request back.
fn binds(api: &ApiLoad, event_api: Option<&ApiLoad>) -> bool {
    api.limited_windows > 0 || event_api.is_some_and(|e| e.limited_windows > 0)
}

/// One node's sent series, with its requests over the horizon: all a class
/// needs of its node. `Eq`, so that comparing two `Rc`s of one series (a
/// state kept from move to move) stops at their address instead of reading
/// a day's windows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSeries {
    pub sent: NodeSent,
    /// Over the horizon.
    pub requests: NodeRequests,
    pub by_kind: Option<RequestsByKind>,
}

/// A class's node run through the kubelet model.
pub fn node_series(s: &Scenario) -> NodeSeries {
    let t = node_timeline(s, &pod_runs_unbanded(s));
    let by_kind = t.requests.as_ref().map(|r| r.totals(usize::MAX));
    NodeSeries {
        sent: NodeSent::of(&t.api, t.event_api.as_ref()),
        requests: sent::node_requests_of(&t, usize::MAX, by_kind.as_ref()),
        by_kind,
    }
}

/// The cluster's load over the longest class horizon (plus any spread).
pub fn evaluate(cluster: &Cluster) -> ClusterResult {
    evaluate_by(
        cluster,
        |s| Rc::new(node_series(s)),
        &mut ClassSums::default(),
    )
}

/// `evaluate`, each class's node from `series` (a cache: a node count or a
/// spread moved re-sums the node's series without running it again) and
/// its sum from `sums` (a class left alone is not re-summed).
pub fn evaluate_by(
    cluster: &Cluster,
    mut series: impl FnMut(&Scenario) -> Rc<NodeSeries>,
    sums: &mut ClassSums,
) -> ClusterResult {
    let timelines: Vec<_> = cluster
        .node_classes
        .iter()
        .map(|c| series(&c.scenario))
        .collect();
    evaluate_series(cluster, &timelines, sums)
}

/// Each class's spread, in windows.
fn spreads(cluster: &Cluster) -> Vec<usize> {
    cluster
        .node_classes
        .iter()
        .map(|c| (c.spread_ms / LOAD_WINDOW_MS) as usize)
        .collect()
}

/// The windows the classes' series take, spreads included.
fn span<'a>(series: impl Iterator<Item = &'a NodeSent>, spreads: &[usize]) -> usize {
    series
        .zip(spreads)
        .map(|(t, s)| t.sent_per_window.len() + s.saturating_sub(1))
        .max()
        .unwrap_or(0)
}

/// The cluster's load from each class's node series, in the classes' order.
fn evaluate_series(
    cluster: &Cluster,
    timelines: &[Rc<NodeSeries>],
    sums: &mut ClassSums,
) -> ClusterResult {
    let api = &cluster.api_server;
    let per_s = |r: u64| r as f64 * 1_000.0 / LOAD_WINDOW_MS as f64;
    let spreads = spreads(cluster);
    let len = span(timelines.iter().map(|t| &t.sent), &spreads);
    let mut total = vec![0u64; len];
    let mut classes = vec![];
    for ((c, t), &spread) in cluster.node_classes.iter().zip(timelines).zip(&spreads) {
        let series = sums.get(t, c.nodes, spread, len);
        for (slot, r) in total.iter_mut().zip(series.iter()) {
            *slot += r;
        }
        classes.push(ClassResult {
            name: c.name.clone(),
            nodes: c.nodes,
            peak_requests_per_second: per_s(series.iter().copied().max().unwrap_or(0)),
            node_peak_requests_per_second: per_s(
                t.sent.sent_per_window.iter().copied().max().unwrap_or(0),
            ),
            limiter_binds: t.sent.limiter_binds,
            requests: t.requests.times(i64::from(c.nodes)),
            requests_by_kind: t
                .by_kind
                .map(|k| RequestsByKind::of(|kind| k.get(kind) as u64 * u64::from(c.nodes))),
        });
    }
    let by_kind: Option<Vec<RequestsByKind>> = classes.iter().map(|c| c.requests_by_kind).collect();
    let requests_by_kind =
        by_kind.map(|all| RequestsByKind::of(|kind| all.iter().map(|k| k.get(kind) as u64).sum()));
    let requests = classes
        .iter()
        .fold(NodeRequests::default(), |sum, c| sum.plus(c.requests));
    let peak = per_s(total.iter().copied().max().unwrap_or(0));
    let system = api.level(apf::SYSTEM);
    let nodes: u32 =
        cluster.node_classes.iter().map(|c| c.nodes).sum::<u32>() + cluster.other_nodes;
    let lease = f64::from(nodes) * apf::LEASE_REQUESTS_PER_NODE_PER_S;
    let mut notes = vec![format!(
        "each replica's system level: {} seats, {} of them lendable, up to {} borrowed while the other levels are idle; requests spread evenly over {} replica(s)",
        system.nominal, system.lendable, system.borrowable, api.replicas
    )];
    let over = apf::time_over(api, &total, LOAD_WINDOW_MS, system.nominal);
    if over > 0 {
        notes.push(format!(
            "demand needs more than the system level's nominal seats for {}: it borrows if the other levels are idle, else requests queue (64 queues of 50) and the rest are refused with 429",
            format_go_duration_ms(over)
        ));
    }
    if classes.iter().any(|c| c.limiter_binds) {
        notes.push("a kubelet's client rate limiter (kubeAPIQPS/kubeAPIBurst, or eventRecordQPS/eventBurst for events) holds requests back on some nodes: the API server sees less than the nodes offer, and pod status reaches it late".into());
    }
    if let (Some(k), Some(events)) = (requests_by_kind, requests.events) {
        let share = |n: i64| n as f64 * 100.0 / requests.sent.max(1) as f64;
        notes.push(format!(
            "of the requests sent, {:.0} % are pod status (GET pods and PATCH pods/status) and {:.0} % events (POST and PATCH events); {} more were still queued in the kubelets at the end, and their spam filter kept back {} events",
            share(requests.status.sent),
            share(events.sent),
            format_count(requests.queued),
            format_count(k.dropped_events)
        ));
    }
    ClusterResult {
        window_ms: LOAD_WINDOW_MS,
        requests_per_window: total,
        requests,
        requests_by_kind,
        peak_requests_per_second: peak,
        system_seats: system.nominal * api.replicas,
        peak_seats_busy: peak * api.seconds_per_request,
        time_over_seats_ms: over,
        lease_requests_per_second: lease,
        lease_seats_busy: lease * api.seconds_per_request,
        system,
        classes,
        notes,
    }
}

/// What the user wants of a setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Constraints {
    /// A container that crashed this many times in a row …
    #[serde(default = "default_crashes")]
    pub crashes: u32,
    /// … restarts within this long of its last exit (unset: no bound).
    #[serde(default)]
    pub restart_within_ms: Option<Ms>,
    /// No kubelet's client rate limiter binds.
    #[serde(default)]
    pub no_limiter_binds: bool,
    /// At peak, the system level is at most this busy (per cent of its
    /// nominal seats, each replica).
    #[serde(default)]
    pub max_system_busy_percent: Option<f64>,
    /// Also weigh `ReduceDefaultCrashLoopBackOffDecay` (1 s initial).
    #[serde(default)]
    pub reduce_default_decay: bool,
}

fn default_crashes() -> u32 {
    5
}

/// One candidate value and which constraints hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub max_ms: Ms,
    pub initial_ms: Ms,
    /// The wait after `crashes` crashes in a row.
    pub wait_ms: Ms,
    pub restart_ok: bool,
    pub limiter_ok: bool,
    pub busy_percent: f64,
    pub busy_ok: bool,
}

/// The feasible values, the recommendation and the configuration to apply
/// (`Default`: none yet).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    pub candidates: Vec<Candidate>,
    /// The smallest and largest feasible maximum, when any is.
    pub feasible_ms: Option<(Ms, Ms)>,
    pub recommended_ms: Option<Ms>,
    pub snippets: Vec<Snippet>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snippet {
    pub platform: String,
    /// The configuration's text, or `None` where the platform has no field.
    pub text: Option<String>,
    /// Where its field names were checked.
    pub source: String,
}

/// The values of `maxContainerRestartPeriod` weighed: every second to a
/// minute, then every 5 s to 5 min.
pub fn candidate_values() -> Vec<Ms> {
    (1..=60u64)
        .map(|s| s * 1_000)
        .chain((13..=60u64).map(|s| s * 5_000))
        .collect()
}

/// The wait after `crashes` crashes in a row: none before the first restart.
fn wait_after(initial: Ms, max: Ms, crashes: u32) -> Ms {
    super::pod::curve_wait(initial.min(max), max, u64::from(crashes))
}

/// A kubelet with `maxContainerRestartPeriod` set to `max` (unset: the
/// kubelet's own 5 min) and, if `reduce`, ReduceDefaultCrashLoopBackOffDecay.
pub fn kubelet_config(max: Option<Ms>, reduce: bool) -> KubeletConfig {
    let mut config = KubeletConfig {
        crash_loop_back_off: CrashLoopBackOffConfig {
            max_container_restart_period: max.map(format_go_duration_ms),
        },
        semantics: Some(Semantics::Kubelet),
        ..KubeletConfig::default()
    };
    if max.is_some() {
        config
            .feature_gates
            .insert(KUBELET_CRASH_LOOP_BACK_OFF_MAX.to_owned(), true);
    }
    if reduce {
        config
            .feature_gates
            .insert(REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY.to_owned(), true);
    }
    config
}

/// A class's scenario on a node configured with `max` (and the 1 s initial).
fn configured(s: &Scenario, max: Ms, reduce: bool) -> Scenario {
    let spec = ScenarioSpec {
        config: Some(kubelet_config(Some(max), reduce)),
        initial_ms: None,
        max_ms: None,
        model: Semantics::Kubelet,
        ..s.spec().clone()
    };
    Scenario::try_from(spec).unwrap_or_else(|_| s.clone())
}

/// Every candidate under the constraints, and the configuration to apply.
pub fn recommend(cluster: &Cluster, want: &Constraints) -> Recommendation {
    judge(&sweep(cluster, want.reduce_default_decay), want)
}

/// Every value weighed on the cluster's nodes: the costly half of
/// `recommend`, which no goal changes (`judge` is the other).
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub reduce_default_decay: bool,
    pub points: Vec<SweepPoint>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    pub max_ms: Ms,
    /// The system level's seats busy at peak, per cent of its nominal seats.
    pub busy_percent: f64,
    pub limiter_binds: bool,
}

/// The cluster evaluated at every candidate value (`candidate_values`).
pub fn sweep(cluster: &Cluster, reduce: bool) -> Sweep {
    sweep_with(cluster, &sweep_nodes(cluster, reduce))
}

/// Each candidate value's node series for every class, in the classes'
/// order: the costly part of a sweep, which node counts, spreads and the
/// API servers do not change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepNodes {
    pub reduce_default_decay: bool,
    pub per_value: Vec<ValueNodes>,
}

/// One value of `maxContainerRestartPeriod` and every class's node at it.
pub type ValueNodes = (Ms, Vec<Rc<NodeSent>>);

/// Runs every class's node at every candidate value (classes alike run once).
pub fn sweep_nodes(cluster: &Cluster, reduce: bool) -> SweepNodes {
    SweepNodes {
        reduce_default_decay: reduce,
        per_value: candidate_values()
            .into_iter()
            .map(|max| (max, sweep_value(cluster, reduce, max)))
            .collect(),
    }
}

/// Every class's node at one value of `maxContainerRestartPeriod`, in the
/// classes' order (classes alike run once): one value of `sweep_nodes`, so
/// that a caller can spread a sweep's values over several tasks.
pub fn sweep_value(cluster: &Cluster, reduce: bool, max: Ms) -> Vec<Rc<NodeSent>> {
    let mut ran: Vec<(Scenario, Rc<NodeSent>)> = vec![];
    cluster
        .node_classes
        .iter()
        .map(|n| {
            let s = configured(&n.scenario, max, reduce);
            if let Some((_, done)) = ran.iter().find(|(k, _)| *k == s) {
                return done.clone();
            }
            let done = Rc::new(NodeSent::admitted(node_admitted(
                &s,
                &pod_runs_unwindowed(&s),
            )));
            ran.push((s, done.clone()));
            done
        })
        .collect()
}

/// The sweep from its nodes (`sweep_nodes` of the same classes' workloads):
/// each value's classes summed into one series for its peak, nothing else
/// (no per-class series, no notes), so a node count moved re-sums 108
/// values within a frame.
pub fn sweep_with(cluster: &Cluster, nodes: &SweepNodes) -> Sweep {
    let api = &cluster.api_server;
    let seats = f64::from(api.level(apf::SYSTEM).nominal);
    let spreads = spreads(cluster);
    let points = nodes
        .per_value
        .iter()
        .map(|(max, series)| {
            let classes: Vec<SweepClass> = cluster
                .node_classes
                .iter()
                .zip(series)
                .zip(&spreads)
                .map(|((c, t), &spread)| (&**t, c.nodes, spread))
                .collect();
            let len = span(series.iter().map(|t| &**t), &spreads);
            let peak = peak_of(&classes, len) as f64 * 1_000.0 / LOAD_WINDOW_MS as f64;
            SweepPoint {
                max_ms: *max,
                busy_percent: 100.0 * api.seats_busy(peak) / seats,
                limiter_binds: series.iter().any(|t| t.limiter_binds),
            }
        })
        .collect();
    Sweep {
        reduce_default_decay: nodes.reduce_default_decay,
        points,
    }
}

/// Which candidates meet `want`, the range and the recommendation: cheap,
/// so a goal's slider redraws at once.
pub fn judge(sweep: &Sweep, want: &Constraints) -> Recommendation {
    let reduce = sweep.reduce_default_decay;
    let initial = if reduce {
        super::config::REDUCED_INITIAL_MS
    } else {
        super::config::DEFAULT_INITIAL_MS
    };
    let candidates: Vec<Candidate> = sweep
        .points
        .iter()
        .map(|p| {
            let wait = wait_after(initial, p.max_ms, want.crashes);
            Candidate {
                max_ms: p.max_ms,
                initial_ms: initial.min(p.max_ms),
                wait_ms: wait,
                restart_ok: want.restart_within_ms.is_none_or(|w| wait <= w),
                limiter_ok: !want.no_limiter_binds || !p.limiter_binds,
                busy_percent: (p.busy_percent * 10.0).round() / 10.0,
                busy_ok: want
                    .max_system_busy_percent
                    .is_none_or(|m| p.busy_percent <= m),
            }
        })
        .collect();
    let ok: Vec<Ms> = candidates
        .iter()
        .filter(|c| c.restart_ok && c.limiter_ok && c.busy_ok)
        .map(|c| c.max_ms)
        .collect();
    let feasible = ok.first().zip(ok.last()).map(|(&a, &b)| (a, b));
    // The least load that still meets the restart goal: the largest
    // feasible maximum.
    let recommended = ok.last().copied();
    let mut notes = vec![];
    match (feasible, ok.len() == candidates.len()) {
        (None, _) => notes.push(no_value_note(&candidates, want)),
        (Some(_), false) if !is_interval(&candidates) => notes.push("the values that meet every constraint are not one interval: the range shown spans values that do not".into()),
        _ => {}
    }
    Recommendation {
        snippets: recommended.map_or_else(Vec::new, |m| snippets(m, reduce)),
        candidates,
        feasible_ms: feasible,
        recommended_ms: recommended,
        notes,
    }
}

/// A goal: whether a candidate meets it, its name, what would help it.
type Goal = (fn(&Candidate) -> bool, &'static str, &'static str);

/// The goals asked for, each with whether a candidate meets it, its name
/// and what would help it: only these, never a remedy for another goal
/// (API server replicas do nothing for a kubelet's own rate limiter).
fn goals(want: &Constraints) -> Vec<Goal> {
    let mut goals: Vec<Goal> = vec![];
    if want.restart_within_ms.is_some() {
        goals.push((
            |c| c.restart_ok,
            "the restart time",
            "allow a longer restart time",
        ));
    }
    if want.no_limiter_binds {
        goals.push((
            |c| c.limiter_ok,
            "no kubelet's rate limiter binds",
            "raise the nodes' kubeAPIQPS and kubeAPIBurst (eventRecordQPS and eventBurst for events), or let the limiter bind",
        ));
    }
    if want.max_system_busy_percent.is_some() {
        goals.push((
            |c| c.busy_ok,
            "the busy share",
            "allow a higher busy share, or add API server replicas",
        ));
    }
    goals
}

/// Why no candidate meets every goal: the goals no value meets on its own
/// (or, when each is met somewhere, the goals that are never met together),
/// and what would help each of them.
fn no_value_note(candidates: &[Candidate], want: &Constraints) -> String {
    let goals = goals(want);
    let never: Vec<_> = goals
        .iter()
        .filter(|(met, _, _)| !candidates.iter().any(met))
        .collect();
    let (blocking, why) = if never.is_empty() {
        let somewhere: Vec<_> = goals
            .iter()
            .filter(|(met, _, _)| !candidates.iter().all(met))
            .collect();
        (
            somewhere,
            "each holds at some values, never at the same ones",
        )
    } else {
        (never, "no value meets it")
    };
    let names: Vec<&str> = blocking.iter().map(|(_, name, _)| *name).collect();
    let helps: Vec<&str> = blocking.iter().map(|(_, _, help)| *help).collect();
    format!(
        "no value from 1 s to 5 min meets every goal: {} ({why}); to get one, {}",
        names.join(" and "),
        helps.join("; or ")
    )
}

fn is_interval(c: &[Candidate]) -> bool {
    let ok: Vec<bool> = c
        .iter()
        .map(|c| c.restart_ok && c.limiter_ok && c.busy_ok)
        .collect();
    let first = ok.iter().position(|&b| b);
    let last = ok.iter().rposition(|&b| b);
    match (first, last) {
        (Some(a), Some(b)) => ok[a..=b].iter().all(|&x| x),
        _ => true,
    }
}

/// The configuration to apply, per platform, with where its fields were checked.
pub fn snippets(max: Ms, reduce: bool) -> Vec<Snippet> {
    let d = format_go_duration_ms(max);
    let gates = if reduce {
        format!("featureGates:\n  {KUBELET_CRASH_LOOP_BACK_OFF_MAX}: true\n  {REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY}: true\n")
    } else {
        format!("featureGates:\n  {KUBELET_CRASH_LOOP_BACK_OFF_MAX}: true\n")
    };
    let mut out = vec![Snippet {
        platform: "KubeletConfiguration".into(),
        text: Some(format!(
            "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n{gates}crashLoopBackOff:\n  maxContainerRestartPeriod: \"{d}\"\n"
        )),
        source: "kubernetes/kubernetes staging/src/k8s.io/kubelet/config/v1beta1/types.go (CrashLoopBackOffConfig.MaxContainerRestartPeriod, +featureGate=KubeletCrashLoopBackOffMax; beta and on by default since 1.35)".into(),
    }];
    out.push(Snippet {
        platform: "GKE node pool (API field NodeKubeletConfig)".into(),
        text: Some(format!(
            "{{\n  \"kubeletConfig\": {{\n    \"crashLoopBackOff\": {{\n      \"maxContainerRestartPeriod\": \"{d}\"\n    }}\n  }}\n}}\n"
        )),
        source: "Google Kubernetes Engine API reference, NodeKubeletConfig.CrashLoopBackOffConfig.max_container_restart_period (1 s to 300 s)".into(),
    });
    out.push(Snippet {
        platform: "Terraform (google provider, google_container_node_pool)".into(),
        text: Some(format!(
            "node_config {{\n  kubelet_config {{\n    crash_loop_back_off {{\n      max_container_restart_period = \"{d}\"\n    }}\n  }}\n}}\n"
        )),
        source: "the provider's node_config.kubelet_config.crash_loop_back_off block, as Pulumi's gcp package (generated from it) names it: NodePoolNodeConfigKubeletConfigCrashLoopBackOff.maxContainerRestartPeriod".into(),
    });
    out.push(Snippet {
        platform: "kOps".into(),
        text: None,
        source: "the kOps source read here (pkg/apis/kops/v1alpha2/componentconfig.go, KubeletConfigSpec) has no crashLoopBackOff field; no snippet is invented for it".into(),
    });
    if reduce {
        out.push(Snippet {
            platform: "note".into(),
            text: None,
            source: "ReduceDefaultCrashLoopBackOffDecay is alpha (off by default): managed platforms may not let you turn it on".into(),
        });
    }
    out
}

/// The states of a pod that is crash-looping, or about to be.
fn looping(state: &str) -> bool {
    matches!(
        super::waiting::rhythm(state),
        Some((super::waiting::Rhythm::CrashLoop, _))
    )
}

/// Node classes from a pasted cluster (`kubectl get pods -A -o wide`, or a
/// `-o json` list): nodes grouped by how many crash-looping pods each runs,
/// one class per count, so that 150,000 pods cost as many evaluations as
/// there are distinct counts. A class's node runs that many pods that crash
/// at once after each restart: the table holds no crash interval.
pub fn classes_from_pods(
    pods: &[super::pod::PodReading],
    base: &ScenarioSpec,
) -> (Vec<NodeClass>, u32, Vec<String>) {
    use super::pod::PodReading;
    use std::collections::BTreeMap;
    let mut per_node: BTreeMap<String, u32> = BTreeMap::new();
    let mut without_node = 0u32;
    for p in pods {
        let (node, states): (Option<&str>, Vec<&str>) = match p {
            PodReading::Row(r) => (r.node.as_deref(), vec![r.status.as_str()]),
            PodReading::Observed(o) => (
                o.node.as_deref(),
                o.containers
                    .iter()
                    .map(|c| match &c.state {
                        super::pod::ObservedState::Waiting { reason, .. } => reason.as_str(),
                        super::pod::ObservedState::Terminated(t) if !t.reason.is_empty() => {
                            t.reason.as_str()
                        }
                        _ => "",
                    })
                    .collect(),
            ),
        };
        let loops = states.iter().any(|s| looping(s));
        match node {
            Some(n) => {
                let count = per_node.entry(n.to_owned()).or_default();
                *count += u32::from(loops);
            }
            None if loops => without_node += 1,
            None => {}
        }
    }
    let mut by_count: BTreeMap<u32, u32> = BTreeMap::new();
    for &count in per_node.values().filter(|&&c| c > 0) {
        *by_count.entry(count).or_default() += 1;
    }
    let mut notes = vec![format!(
        "{} nodes, {} of them running crash-looping pods; each crash-looping pod is taken as crashing at once after every restart (a table holds no crash interval)",
        per_node.len(),
        per_node.values().filter(|&&c| c > 0).count()
    )];
    if without_node > 0 {
        notes.push(format!(
            "{without_node} crash-looping pods name no node (`-o wide` or `-o json` shows it): left out"
        ));
    }
    let classes = by_count
        .into_iter()
        .filter_map(|(count, nodes)| {
            let spec = ScenarioSpec {
                pods: Some(count),
                groups: vec![],
                ..base.clone()
            };
            Scenario::try_from(spec).ok().map(|scenario| NodeClass {
                name: format!("{count} crash-looping pod(s) per node"),
                nodes: nodes.min(MAX_NODES),
                scenario,
                spread_ms: 0,
            })
        })
        .collect();
    let others = per_node.values().filter(|&&c| c == 0).count() as u32;
    (classes, others, notes)
}

/// The rollouts people ask about, one name table: (name, what it is, its classes).
pub const PRESETS: [(&str, &str); 3] = [
    (
        "daemonset",
        "a bad DaemonSet rollout: one crashing pod on every node of 5,000",
    ),
    (
        "deployment",
        "a bad Deployment: 3,000 crashing pods over 300 nodes",
    ),
    (
        "pool",
        "a node pool of 500 nodes full of crashing pods (110 each)",
    ),
];

/// A preset's cluster (the API servers as `api` has them).
pub fn preset(name: &str, api: ApiServer) -> Option<Cluster> {
    let class = |name: &str, nodes: u32, pods: u32| {
        Scenario::try_from(ScenarioSpec {
            pods: Some(pods),
            ..ScenarioSpec::default()
        })
        .ok()
        .map(|scenario| NodeClass {
            name: name.to_owned(),
            nodes,
            scenario,
            spread_ms: 0,
        })
    };
    let classes = match name {
        "daemonset" => vec![class("every node", 5_000, 1)?],
        "deployment" => vec![class("nodes of the Deployment", 300, 10)?],
        "pool" => vec![class("the pool", 500, 110)?],
        _ => return None,
    };
    Some(Cluster {
        node_classes: classes,
        api_server: api,
        other_nodes: 0,
    })
}

/// A curve's cluster in brief: `Report`'s `todaysDefault` and `compared`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Brief {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<&'static str>,
    pub peak_requests_per_second: f64,
    pub peak_seats_busy: f64,
    pub time_over_seats_ms: Ms,
}

impl Brief {
    fn of(r: &ClusterResult, curve: Option<&Preset>) -> Brief {
        Brief {
            id: curve.map(|c| c.id),
            label: curve.map(|c| c.label),
            peak_requests_per_second: r.peak_requests_per_second,
            peak_seats_busy: r.peak_seats_busy,
            time_over_seats_ms: r.time_over_seats_ms,
        }
    }
}

/// What `crashloop-explorer cluster` prints and the JS API's `cluster`
/// returns: the cluster's result, today's default and each compared curve
/// in brief, and the recommendation when constraints were given.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    #[serde(flatten)]
    pub result: ClusterResult,
    pub todays_default: Brief,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<Brief>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<Recommendation>,
}

/// The cluster checked and evaluated, against today's default and the
/// curves `compare` names (`presets` ids), with the recommendation for `want`.
pub fn report(
    c: &Cluster,
    compare: &[String],
    want: Option<&Constraints>,
) -> Result<Report, String> {
    c.validate()?;
    let curves = super::presets::presets();
    let compared = compare
        .iter()
        .map(|id| {
            let curve = curves.iter().find(|p| p.id == *id).ok_or_else(|| {
                let ids: Vec<&str> = curves.iter().map(|p| p.id).collect();
                format!(
                    "{}: not a curve ({})",
                    super::field::quoted(id),
                    ids.join(", ")
                )
            })?;
            Ok(Brief::of(&evaluate(&c.on_curve(curve)?), Some(curve)))
        })
        .collect::<Result<_, String>>()?;
    Ok(Report {
        result: evaluate(c),
        todays_default: Brief::of(&evaluate(&c.on_todays_default()), None),
        compared,
        recommendation: want.map(|w| recommend(c, w)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Rng, SplitMix64};

    /// `peak_of` is the busiest window of the classes' sums as `spread_add`
    /// writes them: one to four classes, spreads of 0 to 30 windows, nodes
    /// alike and not, and sums past u64 (then summed in u128).
    #[test]
    fn the_sweeps_peak_is_the_written_sums_busiest_window() {
        let mut rng = SplitMix64::new(0x2545_f491_4f6c_dd1d);
        let mut next = |bound: u64| rng.next_u64() % bound;
        for case in 0..300 {
            let big = case % 10 == 0;
            // Big: a window times its nodes near 2^60, so that four classes'
            // windows still fit in u64 and a node's whole series times its
            // nodes does not (then summed in u128).
            let nodes: Vec<NodeSent> = (0..1 + next(3))
                .map(|_| {
                    let windows = (0..next(50))
                        .map(|_| {
                            if big {
                                (1 << 48) + next(1000)
                            } else {
                                next(500)
                            }
                        })
                        .collect();
                    NodeSent::new(windows, false)
                })
                .collect();
            let classes: Vec<SweepClass> = (0..1 + next(4))
                .map(|_| {
                    let node = &nodes[next(nodes.len() as u64) as usize];
                    (node, 1 + next(6000) as u32, next(31) as usize)
                })
                .collect();
            let len = classes
                .iter()
                .map(|&(node, _, spread)| node.sent_per_window.len() + spread.saturating_sub(1))
                .max()
                .unwrap_or(0);
            let mut total = vec![0u64; len];
            for &(node, nodes, spread) in &classes {
                spread_add(&node.sent_per_window, nodes, spread, &mut total);
            }
            let want = total.iter().copied().max().unwrap_or(0);
            assert_eq!(peak_of(&classes, len), want, "case {case}: {classes:?}");
        }
    }

    /// `spread_add` is its definition, window by window: the node's
    /// windows w − spread + 1 … w, times the nodes, over the spread,
    /// rounded down; spreads longer than the node and sums longer than it
    /// spread included, in u64 and in u128.
    #[test]
    fn a_spread_class_is_its_running_mean() {
        let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |bound: u64| rng.next_u64() % bound;
        for case in 0..400 {
            let len = next(40) as usize;
            let big = case % 10 == 0;
            let node: Vec<u64> = (0..len)
                .map(|_| {
                    if big {
                        (1 << 50) + next(1000)
                    } else {
                        next(500)
                    }
                })
                .collect();
            let nodes = 1 + next(6000) as u32;
            let spread = next(50) as usize;
            let out_len = len + next(60) as usize;
            let mut out: Vec<u64> = (0..out_len).map(|_| next(10)).collect();
            let before = out.clone();
            spread_add(&node, nodes, spread, &mut out);
            for (w, (&got, &was)) in out.iter().zip(&before).enumerate() {
                let over = spread.max(1);
                let sum: u128 = (0..over)
                    .filter_map(|j| w.checked_sub(j).and_then(|i| node.get(i)))
                    .map(|&r| u128::from(r))
                    .sum();
                let want = sum * u128::from(nodes) / over as u128;
                assert_eq!(
                    u128::from(got - was),
                    want,
                    "case {case}: window {w} of {out_len}, spread {spread}, {len} node windows"
                );
            }
        }
    }
}
