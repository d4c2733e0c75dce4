//! API Priority and Fairness as a default API server configures it: which
//! priority level serves a kubelet's pod traffic, and how many seats it has.
//!
//! Read from kubernetes/kubernetes
//! `staging/src/k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go`:
//! the FlowSchema `system-nodes` (precedence 500) sends every request of
//! the `system:nodes` group to the level `system`, except what
//! `system-node-high` (precedence 400) sends to `node-high`: `nodes`,
//! `nodes/status` and `leases`. So the kubelet's pod GETs and `pods/status`
//! PATCHes are served by `system`, its lease renewals by `node-high`. The
//! levels' concurrency shares are that file's (system 30, node-high 40,
//! leader-election 10, workload-high 40, workload-low 100, global-default
//! 20, catch-all 5; exempt has none). `lendablePercent` came with the v1
//! API (1.29); the stored copy of default.go read here predates it, so the
//! percentages below are flowcontrol v1's documented defaults, not checked
//! against a file here.
//!
//! `apf_controller.go`: the server's limit is `--max-requests-inflight` +
//! `--max-mutating-requests-inflight`; a level's nominal seats are
//! `ceil(limit × shares / Σ shares)`, the seats it may lend
//! `round(nominal × lendablePercent / 100)`; with no
//! `borrowingLimitPercent` (the defaults set none) a level may borrow what
//! the others lend. Each replica of the API server has its own seats.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;

/// One priority level's defaults: (name, nominal shares, lendable percent).
const LEVELS: [(&str, u32, u32); 7] = [
    ("system", 30, 33),
    ("node-high", 40, 25),
    ("leader-election", 10, 0),
    ("workload-high", 40, 50),
    ("workload-low", 100, 90),
    ("global-default", 20, 50),
    ("catch-all", 5, 0),
];

/// The level that serves the kubelet's `/pods` requests.
pub const SYSTEM: &str = "system";
/// The level that serves node leases.
pub const NODE_HIGH: &str = "node-high";
/// A node renews its lease every 10 s (`nodeLeaseDurationSeconds` / 4).
pub const LEASE_REQUESTS_PER_NODE_PER_S: f64 = 0.1;

pub const DEFAULT_MAX_REQUESTS_INFLIGHT: u32 = 400;
pub const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT: u32 = 200;
/// How long a pod GET or `pods/status` PATCH holds a seat: no published
/// figure; a PATCH is an etcd write (about 10 ms on a healthy etcd) plus
/// admission and encoding, a GET from the watch cache far less. 20 ms errs
/// on the side of the control plane.
pub const DEFAULT_SECONDS_PER_REQUEST: f64 = 0.02;
pub const DEFAULT_REPLICAS: u32 = 3;
/// The API servers a cluster may have here.
pub const REPLICAS_RANGE: std::ops::RangeInclusive<u32> = 1..=15;

/// A level's seats on one API server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelSeats {
    pub name: String,
    pub nominal: u32,
    pub lendable: u32,
    /// What it may borrow at most: what the other levels lend.
    pub borrowable: u32,
}

/// A priority level's share of a server, as its PriorityLevelConfiguration
/// sets it (`nominalConcurrencyShares`, `lendablePercent`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LevelShares {
    pub name: String,
    pub nominal_concurrency_shares: u32,
    pub lendable_percent: u32,
}

/// The levels a default API server configures.
pub fn default_shares() -> Vec<LevelShares> {
    LEVELS
        .iter()
        .map(|&(name, shares, lendable)| LevelShares {
            name: name.to_owned(),
            nominal_concurrency_shares: shares,
            lendable_percent: lendable,
        })
        .collect()
}

/// Every level's seats on one API server whose limit is `server_limit`.
pub fn seats(server_limit: u32) -> Vec<LevelSeats> {
    seats_of(&default_shares(), server_limit)
}

/// `seats` for the levels a cluster configures: the server sums every
/// level's shares, the exempt one's included (`apf_controller.go`,
/// `digestConfigObjects`).
pub fn seats_of(levels: &[LevelShares], server_limit: u32) -> Vec<LevelSeats> {
    let total: u64 = levels
        .iter()
        .map(|l| u64::from(l.nominal_concurrency_shares))
        .sum::<u64>()
        .max(1);
    let limit = u64::from(server_limit);
    let nominal: Vec<u64> = levels
        .iter()
        .map(|l| (limit * u64::from(l.nominal_concurrency_shares)).div_ceil(total))
        .collect();
    // Go's math.Round: halves away from zero.
    let lendable: Vec<u64> = levels
        .iter()
        .zip(&nominal)
        .map(|(l, n)| (n * u64::from(l.lendable_percent.min(100)) * 2 + 100) / 200)
        .collect();
    let lent: u64 = lendable.iter().sum();
    levels
        .iter()
        .enumerate()
        .map(|(i, l)| LevelSeats {
            name: l.name.clone(),
            nominal: u32::try_from(nominal[i]).unwrap_or(u32::MAX),
            lendable: u32::try_from(lendable[i]).unwrap_or(u32::MAX),
            borrowable: u32::try_from(lent - lendable[i]).unwrap_or(u32::MAX),
        })
        .collect()
}

/// The API servers, as `crashloop-explorer cluster` reads them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiServer {
    #[serde(default = "default_replicas")]
    pub replicas: u32,
    #[serde(default = "default_inflight")]
    pub max_requests_inflight: u32,
    #[serde(default = "default_mutating")]
    pub max_mutating_requests_inflight: u32,
    #[serde(default = "default_seconds")]
    pub seconds_per_request: f64,
    /// The cluster's priority levels where they were read
    /// (`formats::flowcontrol`), else a default server's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<Vec<LevelShares>>,
}

fn default_replicas() -> u32 {
    DEFAULT_REPLICAS
}
fn default_inflight() -> u32 {
    DEFAULT_MAX_REQUESTS_INFLIGHT
}
fn default_mutating() -> u32 {
    DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT
}
fn default_seconds() -> f64 {
    DEFAULT_SECONDS_PER_REQUEST
}

impl Default for ApiServer {
    fn default() -> Self {
        Self {
            replicas: DEFAULT_REPLICAS,
            max_requests_inflight: DEFAULT_MAX_REQUESTS_INFLIGHT,
            max_mutating_requests_inflight: DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
            seconds_per_request: DEFAULT_SECONDS_PER_REQUEST,
            levels: None,
        }
    }
}

impl ApiServer {
    /// The field that is out of range, in the API server's flag words.
    pub fn validate(&self) -> Result<(), String> {
        if !REPLICAS_RANGE.contains(&self.replicas) {
            return Err(format!(
                "apiServer.replicas: {} is not {} to {}",
                self.replicas,
                REPLICAS_RANGE.start(),
                REPLICAS_RANGE.end()
            ));
        }
        if self.max_requests_inflight + self.max_mutating_requests_inflight == 0 {
            return Err("apiServer.maxRequestsInflight: with maxMutatingRequestsInflight, the server's total concurrency limit must be positive".into());
        }
        if self.max_requests_inflight > 100_000 || self.max_mutating_requests_inflight > 100_000 {
            return Err("apiServer.maxRequestsInflight: at most 100000 each".into());
        }
        if let Some(levels) = &self.levels {
            if !levels
                .iter()
                .any(|l| l.name == SYSTEM && l.nominal_concurrency_shares > 0)
            {
                return Err("apiServer.levels: no system level with nominalConcurrencyShares above 0, which serves the kubelets' pod requests".into());
            }
            if levels.iter().any(|l| l.lendable_percent > 100) {
                return Err("apiServer.levels: lendablePercent is 0 to 100".into());
            }
        }
        if !(self.seconds_per_request > 0.0 && self.seconds_per_request <= 60.0) {
            return Err(format!(
                "apiServer.secondsPerRequest: {} is not more than 0 and at most 60",
                self.seconds_per_request
            ));
        }
        Ok(())
    }

    /// The server's concurrency limit, one replica.
    pub fn server_limit(&self) -> u32 {
        self.max_requests_inflight + self.max_mutating_requests_inflight
    }

    /// A level's seats on one replica.
    pub fn level(&self, name: &str) -> LevelSeats {
        let limit = self.server_limit();
        self.levels
            .as_deref()
            .map_or_else(|| seats(limit), |l| seats_of(l, limit))
            .into_iter()
            .find(|l| l.name == name)
            .unwrap_or(LevelSeats {
                name: name.to_owned(),
                nominal: 0,
                lendable: 0,
                borrowable: 0,
            })
    }

    /// Seats busy on average at `requests_per_s` spread over the replicas
    /// (Little's law: arrivals × time each holds a seat), per replica.
    pub fn seats_busy(&self, requests_per_s: f64) -> f64 {
        requests_per_s * self.seconds_per_request / f64::from(self.replicas)
    }
}

/// How long demand stays above the seats: windows of `window_ms` whose
/// requests need more seats than `seats` (per replica).
pub fn time_over(api: &ApiServer, requests_per_window: &[u64], window_ms: Ms, seats: u32) -> Ms {
    let per_s = |r: u64| r as f64 * 1_000.0 / window_ms as f64;
    requests_per_window
        .iter()
        .filter(|&&r| api.seats_busy(per_s(r)) > f64::from(seats))
        .count() as Ms
        * window_ms
}
