//! "Sent", one definition for every view: a request is sent when its
//! client's rate limiter lets it through to the API server within the span
//! (client-go's rest/request.go, `tryThrottleWithInfo`: a request waits for
//! its limiter's token before it is written). What the kubelet handed its
//! clients is *offered*; offered and still waiting at the span's end is
//! *queued*. Events the spam filter keeps back are never offered.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::node::Timeline;
use super::requests::{Kind, RequestsByKind};
use super::windows::total;

/// One client's requests over a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    /// Handed to the client: its rate limiter's input.
    pub offered: i64,
    /// Let through by its rate limiter: reached the API server.
    pub sent: i64,
    /// Offered, still waiting for the rate limiter at the span's end.
    pub queued: i64,
}

impl Delivery {
    /// `offered` over the first `windows`, and what was admitted in them.
    fn over(offered: i64, admitted: &[u64], windows: usize) -> Self {
        let sent = total(admitted, windows) as i64;
        Self {
            offered,
            sent,
            queued: offered - sent,
        }
    }

    fn plus(self, o: Self) -> Self {
        Self {
            offered: self.offered + o.offered,
            sent: self.sent + o.sent,
            queued: self.queued + o.queued,
        }
    }

    pub fn minus(self, o: Self) -> Self {
        Self {
            offered: self.offered - o.offered,
            sent: self.sent - o.sent,
            queued: self.queued - o.queued,
        }
    }

    /// Each figure times `n` (a class's nodes).
    pub fn times(self, n: i64) -> Self {
        Self {
            offered: self.offered * n,
            sent: self.sent * n,
            queued: self.queued * n,
        }
    }
}

/// A node's requests over a span: both clients', then each one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRequests {
    pub offered: i64,
    pub sent: i64,
    pub queued: i64,
    /// The main client (`kubeAPIQPS`): pod status, or the KEP model's flat
    /// count per restart.
    pub status: Delivery,
    /// The event client (`eventRecordQPS`), kubelet model only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Delivery>,
}

impl NodeRequests {
    fn of(status: Delivery, events: Option<Delivery>) -> Self {
        let all = events.map_or(status, |e| status.plus(e));
        Self {
            offered: all.offered,
            sent: all.sent,
            queued: all.queued,
            status,
            events,
        }
    }

    pub fn minus(self, o: Self) -> Self {
        let events = match (self.events, o.events) {
            (Some(a), Some(b)) => Some(a.minus(b)),
            _ => None,
        };
        Self::of(self.status.minus(o.status), events)
    }

    pub fn times(self, n: i64) -> Self {
        Self::of(self.status.times(n), self.events.map(|e| e.times(n)))
    }

    pub fn plus(self, o: Self) -> Self {
        let events = match (self.events, o.events) {
            (Some(a), Some(b)) => Some(a.plus(b)),
            (a, b) => a.or(b),
        };
        Self::of(self.status.plus(o.status), events)
    }
}

/// The node's requests over its first `windows` load windows: what each
/// client was offered, what its limiter let through (sent) and what still
/// waited at the end.
pub fn node_requests(t: &Timeline, windows: usize) -> NodeRequests {
    let kinds = t.requests.as_ref().map(|r| r.totals(windows));
    node_requests_of(t, windows, kinds.as_ref())
}

/// `node_requests`, the kinds' totals over those windows already summed
/// (`RequestsTimeline::totals`).
pub fn node_requests_of(
    t: &Timeline,
    windows: usize,
    kinds: Option<&RequestsByKind>,
) -> NodeRequests {
    match (kinds, &t.event_api) {
        (Some(k), Some(events)) => {
            let client = |a: Kind, b: Kind| k.get(a) + k.get(b);
            NodeRequests::of(
                Delivery::over(
                    client(Kind::GetPods, Kind::PatchPodStatus),
                    &t.api.admitted_per_window,
                    windows,
                ),
                Some(Delivery::over(
                    client(Kind::PostEvents, Kind::PatchEvents),
                    &events.admitted_per_window,
                    windows,
                )),
            )
        }
        _ => {
            let offered = total(&t.node_requests_per_window, windows);
            NodeRequests::of(
                Delivery::over(offered as i64, &t.api.admitted_per_window, windows),
                None,
            )
        }
    }
}

/// One load window as every view reads it (the chart's readout, its data
/// table, the CSV).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadWindow {
    pub from_ms: Ms,
    /// Offered by kind, the dropped events too (kubelet model).
    pub by_kind: Option<RequestsByKind>,
    pub offered: u64,
    pub sent: u64,
    /// The main client's sent, and the event client's (kubelet model).
    pub status_sent: u64,
    pub events_sent: Option<u64>,
    /// The longest any request waits for each limiter.
    pub wait_ms: Ms,
    pub events_wait_ms: Option<Ms>,
}

/// Window `i` of the node's load (none past the horizon).
pub fn load_window(t: &Timeline, i: usize) -> Option<LoadWindow> {
    let offered = *t.node_requests_per_window.get(i)?;
    let at = |v: &[u64]| v.get(i).copied().unwrap_or(0);
    let events = t.event_api.as_ref();
    let status_sent = at(&t.api.admitted_per_window);
    let events_sent = events.map(|e| at(&e.admitted_per_window));
    Some(LoadWindow {
        from_ms: i as Ms * t.window_ms,
        by_kind: t
            .requests
            .as_ref()
            .map(|r| RequestsByKind::of(|k| at(r.windows(k)))),
        offered,
        sent: status_sent + events_sent.unwrap_or(0),
        status_sent,
        events_sent,
        wait_ms: at(&t.api.max_queue_delay_ms),
        events_wait_ms: events.map(|e| at(&e.max_queue_delay_ms)),
    })
}
