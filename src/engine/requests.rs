//! What the kubelet sends the API server for a crash-looping pod, read from
//! its code (the kubelet model; the KEP model keeps a flat
//! `requestsPerRestart`).
//!
//! **Status** (pkg/kubelet/status/status_manager.go): `SetPodStatus` →
//! `updateStatusInternal` keeps a version only when the status changed
//! (`isPodStatusByKubeletEqual`), and `syncBatch` → `syncPod` sends a pod's
//! newest version as one GET pods/NAME and one PATCH pods/NAME/status
//! (`PatchPodStatus`, pkg/util/pod/pod.go). An unchanged status sends
//! nothing, the 10 s tick included. A crash loop's versions: the pod's first
//! (Pending); `Running` at each start a relist sees (`RunningSeen`);
//! `Terminated` at each exit; `Waiting` (CrashLoopBackOff) at the first sync
//! of each wait, whose reason the exit's sync left in the reason cache
//! (`convertToAPIContainerStatuses`, pkg/kubelet/kubelet_pods.go). An exit
//! restarted at once (the first, k/k#133472) has no wait and no Waiting.
//!
//! **Events**: `Pulled`, `Created` and `Started` (Normal) at each start, and
//! `BackOff` (Warning) at each sync that finds the container backing off
//! (`doBackOff`, pkg/kubelet/kuberuntime/kuberuntime_manager.go), through
//! client-go's correlator (tools/record/events_cache.go, `EventCorrelate`):
//! 1. the aggregator folds 10 distinct messages of one reason within 600 s;
//!    a crash loop repeats its messages, so it never does;
//! 2. the logger (`eventObserve`) counts every event, sent or not: a key's
//!    (source, object, type, reason, message) first is a POST, each later
//!    one a PATCH of the count;
//! 3. the spam filter (`EventSourceObjectSpamFilter`) keeps a token bucket
//!    per source, object and type (2026's key; older copies leave the type
//!    out): 25 tokens, full at first, one more per 300 s; an event that finds
//!    none is not sent (its count still grows for the next that is).
//!
//! A PATCH that finds no event (never created, or gone after the API
//! server's one-hour `--event-ttl`, which each write renews) is followed by a
//! POST (`recordEvent`, tools/record/event.go): both are sent.

use std::cell::OnceCell;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::KubeletVersion;
use super::simulate::Restarts;
use super::times::Times;
use super::windows::{add_windows, count_per_window, per_window, total, window_of, LOAD_WINDOW_MS};

/// The spam filter's bucket: `defaultSpamBurst`.
pub const SPAM_BURST: u64 = 25;
/// One token per 300 s: `defaultSpamQPS` is 1/300.
pub const SPAM_REFILL_MS: Ms = 300_000;
/// The API server keeps an event this long after its last write (`--event-ttl`).
pub const EVENT_TTL_MS: Ms = 3_600_000;
/// `Pulled`, `Created`, `Started`: the Normal events of each start.
pub const EVENTS_PER_START: u64 = 3;
/// The generic PLEG's relist period (`genericPlegRelistPeriod`, pkg/kubelet/kubelet.go).
pub const RELIST_MS: Ms = 1_000;
/// `eventRecordQPS` and `eventBurst` defaults (KubeletConfiguration v1beta1).
pub const DEFAULT_EVENT_RECORD_QPS: u32 = 50;
pub const DEFAULT_EVENT_BURST: u32 = 100;
/// What client-go's REST client puts in for a QPS or burst of 0
/// (`DefaultQPS`, `DefaultBurst` in rest/config.go, `RESTClientFor`): the
/// kubelet hands `eventRecordQPS` over as it is, though its documentation
/// reads 0 as "no limit".
pub const CLIENT_GO_DEFAULT_QPS: u32 = 5;
pub const CLIENT_GO_DEFAULT_BURST: u32 = 10;

/// Whether the status ever shows a restarted container `Running`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunningSeen {
    /// From the crash interval and the version: a container running at
    /// least one relist period is seen; from 1.36 the relist a starting sync
    /// asks for (k/k#137362) sees any that does not exit at once.
    #[default]
    Auto,
    Always,
    Never,
}

impl RunningSeen {
    pub const ALL: [RunningSeen; 3] = [RunningSeen::Auto, RunningSeen::Always, RunningSeen::Never];
    pub const NAMES: [&'static str; 3] = ["auto", "always", "never"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == s)
    }

    /// Whether a container that runs `run_ms` before it exits is seen running.
    pub fn seen(self, run_ms: Ms, version: KubeletVersion) -> bool {
        match self {
            RunningSeen::Always => true,
            RunningSeen::Never => false,
            RunningSeen::Auto if version.relists_pod_after_sync() => run_ms > 0,
            RunningSeen::Auto => run_ms >= RELIST_MS,
        }
    }
}

/// What the kubelet's clients send, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    GetPods,
    PatchPodStatus,
    PostEvents,
    PatchEvents,
    /// Events the spam filter kept back: counted, never sent.
    DroppedEvents,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::GetPods,
        Kind::PatchPodStatus,
        Kind::PostEvents,
        Kind::PatchEvents,
        Kind::DroppedEvents,
    ];
    /// JSON names.
    pub const NAMES: [&'static str; 5] = [
        "getPods",
        "patchPodStatus",
        "postEvents",
        "patchEvents",
        "droppedEvents",
    ];
    /// As a chart or table says them.
    pub const LABELS: [&'static str; 5] = [
        "GET pods",
        "PATCH pods/status",
        "POST events",
        "PATCH events",
        "events dropped",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn label(self) -> &'static str {
        Self::LABELS[self as usize]
    }

    /// Handed to a client for the API server (the dropped ones are not).
    pub fn offered(self) -> bool {
        self != Kind::DroppedEvents
    }

    /// Through the event client (`eventRecordQPS`), not the main one.
    pub fn event(self) -> bool {
        matches!(self, Kind::PostEvents | Kind::PatchEvents)
    }
}

/// A number per kind: totals for a pod or a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestsByKind {
    pub get_pods: i64,
    pub patch_pod_status: i64,
    pub post_events: i64,
    pub patch_events: i64,
    pub dropped_events: i64,
}

impl RequestsByKind {
    pub fn of(f: impl Fn(Kind) -> u64) -> Self {
        let n = |k| f(k) as i64;
        Self {
            get_pods: n(Kind::GetPods),
            patch_pod_status: n(Kind::PatchPodStatus),
            post_events: n(Kind::PostEvents),
            patch_events: n(Kind::PatchEvents),
            dropped_events: n(Kind::DroppedEvents),
        }
    }

    pub fn get(&self, k: Kind) -> i64 {
        match k {
            Kind::GetPods => self.get_pods,
            Kind::PatchPodStatus => self.patch_pod_status,
            Kind::PostEvents => self.post_events,
            Kind::PatchEvents => self.patch_events,
            Kind::DroppedEvents => self.dropped_events,
        }
    }

    /// The requests handed to the clients: every kind but the dropped events.
    pub fn offered(&self) -> i64 {
        Kind::ALL
            .into_iter()
            .filter(|k| k.offered())
            .map(|k| self.get(k))
            .sum()
    }

    pub fn minus(&self, o: &Self) -> Self {
        Self::of(|k| (self.get(k) - o.get(k)) as u64)
    }
}

/// The node's requests in each load window, by kind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestsTimeline {
    pub window_ms: Ms,
    pub get_pods: Vec<u64>,
    pub patch_pod_status: Vec<u64>,
    pub post_events: Vec<u64>,
    pub patch_events: Vec<u64>,
    pub dropped_events: Vec<u64>,
    /// The charted pod's totals over the horizon and in its first 5 minutes.
    pub pod: RequestsByKind,
    pub pod_first5m: RequestsByKind,
    /// The event client's limits as configured (0: see `CLIENT_GO_DEFAULT_QPS`).
    #[serde(rename = "eventRecordQPS")]
    pub event_record_qps: u32,
    pub event_burst: u32,
}

impl RequestsTimeline {
    pub fn windows(&self, k: Kind) -> &[u64] {
        match k {
            Kind::GetPods => &self.get_pods,
            Kind::PatchPodStatus => &self.patch_pod_status,
            Kind::PostEvents => &self.post_events,
            Kind::PatchEvents => &self.patch_events,
            Kind::DroppedEvents => &self.dropped_events,
        }
    }

    pub fn windows_mut(&mut self, k: Kind) -> &mut Vec<u64> {
        match k {
            Kind::GetPods => &mut self.get_pods,
            Kind::PatchPodStatus => &mut self.patch_pod_status,
            Kind::PostEvents => &mut self.post_events,
            Kind::PatchEvents => &mut self.patch_events,
            Kind::DroppedEvents => &mut self.dropped_events,
        }
    }

    /// The node's totals over the first `n` windows.
    pub fn totals(&self, n: usize) -> RequestsByKind {
        RequestsByKind::of(|k| total(self.windows(k), n))
    }

    /// Windows in which the spam filter drops events while status requests
    /// keep going: where events flatten out.
    pub fn spam_filter_binds(&self) -> bool {
        self.dropped_events.iter().any(|&d| d > 0)
    }
}

/// The events the spam filter lets through, and how each is written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Sent {
    posts: Vec<Ms>,
    patches: Vec<Ms>,
    passed: Vec<Ms>,
}

/// Runs one event type's emissions through its spam bucket and the logger:
/// `keys` distinct events (in order) at each of `times`. Steps once per
/// event that passes; the stretches the bucket is dry are skipped to the
/// token's arrival, so the cost is not the emissions' (a day at a 1 s cap is
/// 86,400 starts) but at most 25 plus one per 300 s.
fn filter(times: &impl Emissions, keys: usize, sent: &mut Sent) {
    let (token, cap) = (SPAM_REFILL_MS, SPAM_BURST * SPAM_REFILL_MS);
    // Tokens in milliseconds of refill: one token is 300,000.
    let mut level = cap;
    let mut last = 0;
    let mut written: Vec<Option<Ms>> = vec![None; keys];
    let first = times.get(0);
    let mut i = 0;
    while let Some(t) = times.get(i) {
        level = (level + (t - last)).min(cap);
        last = t;
        if level < token {
            // Dry: every event before the next token is dropped.
            i = times.count_below(t + (token - level)).max(i + 1);
            continue;
        }
        for w in written.iter_mut() {
            if level < token {
                break;
            }
            level -= token;
            sent.passed.push(t);
            match *w {
                None if Some(t) == first => sent.posts.push(t),
                Some(prev) if t - prev < EVENT_TTL_MS => sent.patches.push(t),
                // The PATCH finds no event: a POST follows.
                _ => {
                    sent.patches.push(t);
                    sent.posts.push(t);
                }
            }
            *w = Some(t);
        }
        i += 1;
    }
}

/// Times events are emitted at, in order, as the filter reads them.
trait Emissions {
    fn get(&self, i: usize) -> Option<Ms>;
    fn count_below(&self, t: Ms) -> usize;
}

impl Emissions for Times {
    fn get(&self, i: usize) -> Option<Ms> {
        Times::get(self, i)
    }
    fn count_below(&self, t: Ms) -> usize {
        Times::count_below(self, t)
    }
}

/// A pod's starts: the first at 0, then its restarts (not a copy of them).
struct Starts<'a>(&'a Times);

impl Emissions for Starts<'_> {
    fn get(&self, i: usize) -> Option<Ms> {
        match i {
            0 => Some(0),
            _ => self.0.get(i - 1),
        }
    }
    fn count_below(&self, t: Ms) -> usize {
        usize::from(t > 0) + self.0.count_below(t)
    }
}

/// One pod's requests over the horizon. Starts and exits are its restart
/// times read again (with the first start at 0, exits later by the run),
/// not copies: a day at a 1 s cap is 86,400 of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRequests {
    /// The restarts (the starts but the first, at 0).
    at: Rc<Times>,
    run_ms: Ms,
    horizon_ms: Ms,
    running_seen: bool,
    /// The syncs that found the container backing off (a BackOff each), and
    /// when each wait first showed Waiting.
    backoff_syncs: Times,
    waiting_at: Times,
    posts: Times,
    patches: Times,
    passed: Times,
    /// The status versions as one list, for the rate limiter, when asked.
    merged: OnceCell<Rc<Times>>,
}

impl PodRequests {
    /// A pod whose container runs `run_ms` each time and restarted at `at`
    /// (its syncs as `pod_restarts_gc` wrote them down), within `horizon_ms`.
    pub fn new(
        (at, backoff_syncs, waiting_at): (Rc<Times>, Times, Times),
        run_ms: Ms,
        horizon_ms: Ms,
        running_seen: bool,
    ) -> Self {
        let mut sent = Sent::default();
        filter(&Starts(&at), EVENTS_PER_START as usize, &mut sent);
        filter(&backoff_syncs, 1, &mut sent);
        // Each list is two sorted runs (the starts' events, then the
        // syncs'): the stable sort merges runs in one pass.
        let sorted = |mut v: Vec<Ms>| {
            v.sort();
            Times::from(v)
        };
        PodRequests {
            at,
            run_ms,
            horizon_ms,
            running_seen,
            backoff_syncs,
            waiting_at,
            posts: sorted(sent.posts),
            patches: sorted(sent.patches),
            passed: sorted(sent.passed),
            merged: OnceCell::new(),
        }
    }

    /// The same requests from every list written out one by one (no
    /// periodic tail): what the shortcuts are checked against.
    pub fn written_out(&self) -> Self {
        let out = |t: &Times| Times::from(t.to_vec());
        Self::new(
            (
                Rc::new(out(&self.at)),
                out(&self.backoff_syncs),
                out(&self.waiting_at),
            ),
            self.run_ms,
            self.horizon_ms,
            self.running_seen,
        )
    }

    /// `new` from the restarts as `pod_restarts_gc` gives them.
    pub fn of(r: Restarts, run_ms: Ms, horizon_ms: Ms, running_seen: bool) -> Self {
        Self::new(
            (Rc::new(r.at), r.backoff_syncs, r.waiting_at),
            run_ms,
            horizon_ms,
            running_seen,
        )
    }

    /// Starts before `t`: the first at 0 and the restarts.
    fn starts_below(&self, t: Ms) -> u64 {
        Starts(&self.at).count_below(t) as u64
    }

    /// Exits before `t` (those past the horizon never happen).
    fn exits_below(&self, t: Ms) -> u64 {
        let t = t.min(self.horizon_ms);
        if t <= self.run_ms {
            0
        } else {
            self.starts_below(t - self.run_ms)
        }
    }

    /// Requests of a kind before `t`.
    pub fn below(&self, k: Kind, t: Ms) -> u64 {
        let n = |times: &Times| times.count_below(t) as u64;
        match k {
            Kind::GetPods | Kind::PatchPodStatus => {
                let running = if self.running_seen {
                    self.starts_below(t)
                } else {
                    0
                };
                u64::from(t > 0) + self.exits_below(t) + n(&self.waiting_at) + running
            }
            Kind::PostEvents => n(&self.posts),
            Kind::PatchEvents => n(&self.patches),
            Kind::DroppedEvents => {
                EVENTS_PER_START * self.starts_below(t) + n(&self.backoff_syncs) - n(&self.passed)
            }
        }
    }

    /// Totals before `t`.
    pub fn totals_below(&self, t: Ms) -> RequestsByKind {
        RequestsByKind::of(|k| self.below(k, t))
    }

    /// Each kind's requests in each of `n` load windows, in `Kind::ALL`'s
    /// order, given the restarts per window (`restarts`, as the runs have
    /// them). PATCH pods/status is GET pods, one for one: its list is left
    /// empty, not kept twice.
    pub fn per_window(&self, n: usize, restarts: &[u64]) -> Vec<Vec<u64>> {
        let n = n.max(1);
        // `k` per start: the restarts, and the first at 0 (one pass).
        let starts_times = |k: u64| {
            let mut out = vec![0; n];
            let m = restarts.len().min(n);
            let (to, from) = (&mut out[..m], &restarts[..m]);
            let mut w = 0;
            while w < m {
                to[w] = k * from[w];
                w += 1;
            }
            out[0] += k;
            out
        };
        let mut scratch = vec![];
        // Adds `times` per window to `to` (or takes them off): a few values
        // each to its window, many counted window by window first.
        let mut add = |to: &mut [u64], times: &Times, take: bool| {
            if times.len() < n {
                let last = n - 1;
                for t in times.iter() {
                    let w = window_of(t, last);
                    if take {
                        to[w] -= 1;
                    } else {
                        to[w] += 1;
                    }
                }
                return;
            }
            scratch.resize(n, 0);
            count_per_window(times, &mut scratch);
            add_windows(to, &scratch, take);
        };
        // Status: the first version, each exit and wait, and each start seen.
        let exits_are_starts = self.run_ms == 0;
        let mut status = starts_times(u64::from(exits_are_starts) + u64::from(self.running_seen));
        status[0] += 1;
        if !exits_are_starts {
            add(
                &mut status,
                &self.at.shifted(self.run_ms, self.horizon_ms),
                false,
            );
            if self.run_ms < self.horizon_ms {
                status[(self.run_ms / LOAD_WINDOW_MS) as usize] += 1;
            }
        }
        add(&mut status, &self.waiting_at, false);
        // Dropped: every event emitted less those that passed (within a
        // window, never more of them).
        let mut dropped = starts_times(EVENTS_PER_START);
        add(&mut dropped, &self.backoff_syncs, false);
        add(&mut dropped, &self.passed, true);
        vec![
            status,
            vec![],
            per_window(&self.posts, n),
            per_window(&self.patches, n),
            dropped,
        ]
    }

    /// The status versions as one list in order (periodic where the
    /// restarts are).
    pub fn status_times(&self) -> &Rc<Times> {
        self.merged.get_or_init(|| {
            let starts = Times::starting_with(0, &self.at);
            let exits = starts.shifted(self.run_ms, self.horizon_ms);
            let pending = Times::from(vec![0]);
            let mut lists = vec![&pending, &exits, &self.waiting_at];
            if self.running_seen {
                lists.push(&starts);
            }
            Rc::new(Times::merge(&lists, self.horizon_ms))
        })
    }

    /// The events sent, POSTs and PATCHes.
    pub fn posts(&self) -> &Times {
        &self.posts
    }

    pub fn patches(&self) -> &Times {
        &self.patches
    }

    /// Roughly the memory held (the restarts are the runs').
    pub fn bytes(&self) -> usize {
        let lists = self.backoff_syncs.stored()
            + self.waiting_at.stored()
            + self.posts.stored()
            + self.patches.stored()
            + self.passed.stored()
            + self.merged.get().map_or(0, |m| m.stored());
        8 * lists
    }
}

/// The event client's limits as client-go applies them: a 0 becomes its
/// default.
pub fn event_client_limits(qps: u32, burst: u32) -> (u32, u32) {
    (
        if qps == 0 { CLIENT_GO_DEFAULT_QPS } else { qps },
        if burst == 0 {
            CLIENT_GO_DEFAULT_BURST
        } else {
            burst
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Rng, SplitMix64};

    /// The filter stepped through every event, as client-go meets them.
    fn every_event(times: &[Ms], keys: usize) -> Sent {
        let (token, cap) = (SPAM_REFILL_MS, SPAM_BURST * SPAM_REFILL_MS);
        let (mut level, mut last) = (cap, 0);
        let mut written: Vec<Option<Ms>> = vec![None; keys];
        let mut sent = Sent::default();
        for (i, &t) in times.iter().enumerate() {
            level = (level + (t - last)).min(cap);
            last = t;
            for w in written.iter_mut() {
                if level < token {
                    continue;
                }
                level -= token;
                sent.passed.push(t);
                match *w {
                    None if i == 0 => sent.posts.push(t),
                    Some(prev) if t - prev < EVENT_TTL_MS => sent.patches.push(t),
                    _ => {
                        sent.patches.push(t);
                        sent.posts.push(t);
                    }
                }
                *w = Some(t);
            }
        }
        sent
    }

    // Skipping the dry stretches sends what stepping through every event
    // does, on bursts and lulls of every length; nothing is dropped while a
    // token is left, and no more pass by t than 25 + t / 300 s per key set.
    #[test]
    fn skipping_dry_stretches_sends_the_same() {
        let mut rng = SplitMix64::new(42);
        for case in 0..300 {
            let mut t = 0;
            let mut times = vec![];
            let gap_scale = [500, 20_000, 400_000, 4_000_000][case % 4];
            for _ in 0..(rng.next_f64() * 400.0) as usize {
                times.push(t);
                t += (rng.next_f64() * gap_scale as f64) as Ms;
            }
            let keys = 1 + case % 3;
            let mut fast = Sent::default();
            filter(&Times::from(times.clone()), keys, &mut fast);
            let slow = every_event(&times, keys);
            assert_eq!(fast, slow, "case {case}");
            for (i, &at) in fast.passed.iter().enumerate() {
                assert!((i as u64) < SPAM_BURST + at / SPAM_REFILL_MS, "case {case}");
            }
        }
    }

    // A periodic tail (a day at a 1 s cap) is read, never written out.
    #[test]
    fn a_periodic_day_costs_its_sent_events() {
        let mut times = Times::from(vec![0]);
        times.repeat(1_000, 1_000, 86_399);
        let mut sent = Sent::default();
        filter(&times, 3, &mut sent);
        // 25 at once, then one per 300 s: the last token at 86,100 s.
        assert_eq!(sent.passed.len() as u64, 25 + 86_399_000 / SPAM_REFILL_MS);
    }
}
