//! What the views show of a node timeline: the counts, the summary, and a
//! scenario against today's default with the excess.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::config::EffectiveBackoff;
use super::limiter::ApiLoad;
use super::node::{node_timeline, Timeline};
use super::requests::{RequestsByKind, RequestsTimeline};
use super::runs::{pod_runs, PodRuns};
use super::scenario::Scenario;
use super::sent::{self, NodeRequests};
use super::windows::{peak_and_busy, peak_of_sum, FIRST_MINUTES_MS, LOAD_WINDOW_MS};

/// Restarts and requests, per pod and for the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// The charted group's first pod.
    pub restarts_per_pod: i64,
    pub restarts_per_node: i64,
    /// What the charted pod hands its kubelet's clients: the flat count per
    /// restart (KEP model) or every kind but the dropped events (kubelet
    /// model). A pod has no "sent" of its own: the node's limiters are shared.
    pub requests_offered_per_pod: i64,
    /// The node's requests offered, sent (let through by the client rate
    /// limiters: what reached the API server) and still queued.
    pub node_requests: NodeRequests,
    /// The node's requests offered, by kind (kubelet model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_by_kind: Option<RequestsByKind>,
}

impl Counts {
    /// Restarts of the pod and the node; the requests over the first
    /// `windows` load windows.
    fn of(
        t: &Timeline,
        (per_pod, per_node): (u64, u64),
        pod_offered: Option<RequestsByKind>,
        windows: usize,
    ) -> Self {
        let kinds = t.requests.as_ref().map(|r| r.totals(windows));
        Self {
            restarts_per_pod: per_pod as i64,
            restarts_per_node: per_node as i64,
            requests_offered_per_pod: pod_offered
                .map_or((per_pod * t.requests_per_restart) as i64, |k| k.offered()),
            node_requests: sent::node_requests_of(t, windows, kinds.as_ref()),
            requests_by_kind: kinds,
        }
    }

    /// The node's requests that reached the API server.
    pub fn requests_sent(&self) -> i64 {
        self.node_requests.sent
    }

    fn minus(self, o: Counts) -> Counts {
        Counts {
            restarts_per_pod: self.restarts_per_pod - o.restarts_per_pod,
            restarts_per_node: self.restarts_per_node - o.restarts_per_node,
            requests_offered_per_pod: self.requests_offered_per_pod - o.requests_offered_per_pod,
            node_requests: self.node_requests.minus(o.node_requests),
            requests_by_kind: match (self.requests_by_kind, o.requests_by_kind) {
                (Some(a), Some(b)) => Some(a.minus(&b)),
                _ => None,
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub horizon: Counts,
    /// Within the first 5 minutes (restarts at or before 300 s), or the horizon if shorter.
    pub first5m: Counts,
    /// The busiest 10-second window for the node, offered.
    pub peak_node_requests_per_window: i64,
    /// The busiest window sent: after the client rate limiters.
    pub peak_sent_per_window: i64,
    /// The longest any request waits for the rate limiter.
    pub max_queue_delay_ms: i64,
    /// Windows in which the rate limiter holds requests back.
    pub limited_windows: i64,
    /// The same for the event client (kubelet model).
    #[serde(default)]
    pub event_max_queue_delay_ms: i64,
    #[serde(default)]
    pub event_limited_windows: i64,
}

impl Summary {
    pub fn of(t: &Timeline) -> Self {
        let peak = |v: &[u64]| peak_and_busy(v).0 as i64;
        let first_windows = (FIRST_MINUTES_MS / LOAD_WINDOW_MS) as usize;
        let pod = |of: fn(&RequestsTimeline) -> RequestsByKind| t.requests.as_ref().map(of);
        let delays = |api: Option<&ApiLoad>| {
            api.map_or((0, 0), |a| {
                (a.longest_wait_ms as i64, a.limited_windows as i64)
            })
        };
        let (max_queue_delay_ms, limited_windows) = delays(Some(&t.api));
        let (event_max_queue_delay_ms, event_limited_windows) = delays(t.event_api.as_ref());
        Self {
            horizon: Counts::of(
                t,
                (t.restarts_at_ms.len() as u64, t.node_restarts()),
                pod(|r| r.pod),
                usize::MAX,
            ),
            first5m: Counts::of(
                t,
                (t.restarts_by(FIRST_MINUTES_MS), t.node_restarts_first5m()),
                pod(|r| r.pod_first5m),
                first_windows,
            ),
            peak_node_requests_per_window: peak(&t.node_requests_per_window),
            peak_sent_per_window: peak_of_sum(
                &t.api.admitted_per_window,
                t.event_api.as_ref().map(|e| &e.admitted_per_window[..]),
            ) as i64,
            max_queue_delay_ms,
            limited_windows,
            event_max_queue_delay_ms,
            event_limited_windows,
        }
    }

    pub fn minus(&self, o: &Summary) -> Summary {
        Summary {
            horizon: self.horizon.minus(o.horizon),
            first5m: self.first5m.minus(o.first5m),
            peak_node_requests_per_window: self.peak_node_requests_per_window
                - o.peak_node_requests_per_window,
            peak_sent_per_window: self.peak_sent_per_window - o.peak_sent_per_window,
            max_queue_delay_ms: self.max_queue_delay_ms - o.max_queue_delay_ms,
            limited_windows: self.limited_windows - o.limited_windows,
            event_max_queue_delay_ms: self.event_max_queue_delay_ms - o.event_max_queue_delay_ms,
            event_limited_windows: self.event_limited_windows - o.event_limited_windows,
        }
    }
}

/// A scenario against today's default, as the app shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exploration {
    pub backoff: EffectiveBackoff,
    /// Shared with the app's timeline cache rather than copied per move.
    pub timeline: Rc<Timeline>,
    pub summary: Summary,
    pub reference: Rc<Timeline>,
    pub reference_summary: Summary,
    /// `summary - referenceSummary`: what this configuration adds over today's default.
    pub excess: Summary,
}

/// The scenario and today's default side by side, with the excess.
pub fn explore(scenario: &Scenario) -> Exploration {
    let reference = scenario.with_todays_default();
    explore_with(
        (scenario, &pod_runs(scenario)),
        (&reference, &pod_runs(&reference)),
    )
}

/// `explore` from runs already made: the scenario and today's default
/// (`scenario.with_todays_default()`), each with its runs.
pub fn explore_with(
    (scenario, runs): (&Scenario, &PodRuns),
    (todays_default, reference_runs): (&Scenario, &PodRuns),
) -> Exploration {
    exploration(
        scenario,
        Rc::new(node_timeline(scenario, runs)),
        Rc::new(node_timeline(todays_default, reference_runs)),
    )
}

/// The scenario's node timeline against today's default's, with the
/// summaries and the excess (timelines made elsewhere, e.g. cached).
pub fn exploration(
    scenario: &Scenario,
    timeline: Rc<Timeline>,
    reference: Rc<Timeline>,
) -> Exploration {
    let summary = Summary::of(&timeline);
    let reference_summary = Summary::of(&reference);
    Exploration {
        backoff: scenario.backoff().clone(),
        excess: summary.minus(&reference_summary),
        timeline,
        summary,
        reference,
        reference_summary,
    }
}
