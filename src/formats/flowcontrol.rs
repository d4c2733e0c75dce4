//! The cluster's API Priority and Fairness levels, from its
//! PriorityLevelConfigurations (`flowcontrol.apiserver.k8s.io/v1`): each
//! level's `nominalConcurrencyShares` and `lendablePercent`, the exempt
//! level's included, since the API server sums every level's shares
//! (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go,
//! `digestConfigObjects`, through `plSpecCommons`).

use serde::Deserialize;

use crate::engine::apf::{LevelShares, SYSTEM};

/// Where the API serves them.
pub const PRIORITY_LEVELS: &str =
    "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";

/// Larger than any cluster's list of priority levels.
pub const MAX_PRIORITY_LEVELS_TEXT: usize = 256 * 1024;

/// The most shares a level is read with: far past any cluster's, and small
/// enough that a server's limit times a level's shares stays exact.
const MAX_SHARES: u32 = 1_000_000;

#[derive(Deserialize)]
struct List {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    items: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    metadata: Meta,
    spec: Spec,
}

#[derive(Deserialize)]
struct Meta {
    name: String,
}

#[derive(Deserialize)]
struct Spec {
    #[serde(default)]
    limited: Option<Commons>,
    #[serde(default)]
    exempt: Option<Commons>,
}

/// What limited and exempt levels share; the API server fills in its
/// defaults before it serves a level (30 shares limited, 0 exempt; 0 lent).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Commons {
    #[serde(default)]
    nominal_concurrency_shares: Option<u32>,
    #[serde(default)]
    lendable_percent: Option<u32>,
}

/// Every level the list holds; refused where it is not a list of levels or
/// its `system` level has no nominal seats (it would only borrow, which the
/// load is not set against).
pub fn levels(text: &str) -> Result<Vec<LevelShares>, String> {
    let list: List = super::json::api_object(
        text,
        MAX_PRIORITY_LEVELS_TEXT,
        "the PriorityLevelConfigurations are over",
        "not a PriorityLevelConfigurationList",
    )?;
    if let Some(kind) = list
        .kind
        .as_deref()
        .filter(|k| *k != "PriorityLevelConfigurationList")
    {
        return Err(format!(
            "the PriorityLevelConfigurations came back as a {kind}"
        ));
    }
    let levels: Vec<LevelShares> = list
        .items
        .into_iter()
        .map(|i| {
            let (commons, shares) = match (i.spec.limited, i.spec.exempt) {
                (Some(c), _) => (Some(c), 30),
                (None, c) => (c, 0),
            };
            LevelShares {
                name: i.metadata.name,
                nominal_concurrency_shares: commons
                    .as_ref()
                    .and_then(|c| c.nominal_concurrency_shares)
                    .unwrap_or(shares)
                    .min(MAX_SHARES),
                lendable_percent: commons
                    .and_then(|c| c.lendable_percent)
                    .unwrap_or(0)
                    .min(100),
            }
        })
        .collect();
    match levels.iter().find(|l| l.name == SYSTEM) {
        None => return Err("the cluster has no system PriorityLevelConfiguration".into()),
        Some(l) if l.nominal_concurrency_shares == 0 => {
            return Err("the cluster's system level has 0 nominalConcurrencyShares".into())
        }
        Some(_) => {}
    }
    Ok(levels)
}

/// The system level's share, as a load's words say where its seats came from.
pub fn shares_words(levels: &[LevelShares]) -> String {
    let total: u64 = levels
        .iter()
        .map(|l| u64::from(l.nominal_concurrency_shares))
        .sum();
    let system = levels
        .iter()
        .find(|l| l.name == SYSTEM)
        .map_or(0, |l| l.nominal_concurrency_shares);
    format!("The system level's seats are {system} of {total} shares, as the cluster's PriorityLevelConfigurations set them")
}

/// Why the levels were not read, and what the seats are instead.
pub fn not_read_words(why: &str) -> String {
    format!("the priority levels could not be read ({why}): the system level's seats are a default API server's; reading them needs list on prioritylevelconfigurations in flowcontrol.apiserver.k8s.io")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::apf::{default_shares, seats_of, ApiServer};

    /// A default server's levels as the API serves them, and one of the
    /// cluster's own (100 shares).
    const CLUSTER: &str = r#"{"kind":"PriorityLevelConfigurationList","apiVersion":"flowcontrol.apiserver.k8s.io/v1","items":[
        {"metadata":{"name":"exempt"},"spec":{"type":"Exempt","exempt":{"nominalConcurrencyShares":0,"lendablePercent":0}}},
        {"metadata":{"name":"system"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":30,"lendablePercent":33,"limitResponse":{"type":"Queue"}}}},
        {"metadata":{"name":"node-high"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":40,"lendablePercent":25}}},
        {"metadata":{"name":"leader-election"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":10,"lendablePercent":0}}},
        {"metadata":{"name":"workload-high"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":40,"lendablePercent":50}}},
        {"metadata":{"name":"workload-low"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":100,"lendablePercent":90}}},
        {"metadata":{"name":"global-default"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":20,"lendablePercent":50}}},
        {"metadata":{"name":"catch-all"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":5,"lendablePercent":0}}},
        {"metadata":{"name":"batch"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":100}}}]}"#;

    #[test]
    fn each_level_shares_as_the_cluster_sets_it() {
        let l = levels(CLUSTER).expect("levels");
        assert_eq!(l.len(), 9);
        // 245 shares of a default server and the cluster's 100: the system
        // level's 30 of 345 of a 600-seat server is ceil(52.2) = 53 seats,
        // 17 of them lendable (33 % of 53 = 17.49, rounded).
        let system = seats_of(&l, 600)
            .into_iter()
            .find(|s| s.name == SYSTEM)
            .expect("system");
        assert_eq!((system.nominal, system.lendable), (53, 17));
        let api = ApiServer {
            levels: Some(l.clone()),
            ..ApiServer::default()
        };
        assert_eq!(api.level(SYSTEM).nominal, 53);
        assert_eq!(api.validate(), Ok(()));
        // A JSON caller's levels without a system level to serve the kubelets.
        let none = ApiServer {
            levels: Some(
                default_shares()
                    .into_iter()
                    .filter(|l| l.name != SYSTEM)
                    .collect(),
            ),
            ..ApiServer::default()
        };
        assert!(none
            .validate()
            .unwrap_err()
            .starts_with("apiServer.levels: no system level"));
        // Without the cluster's: ceil(600 × 30 / 245) = 74.
        assert_eq!(ApiServer::default().level(SYSTEM).nominal, 74);
        assert_eq!(
            shares_words(&l),
            "The system level's seats are 30 of 345 shares, as the cluster's PriorityLevelConfigurations set them"
        );
        // A level the server filled in no figures for takes its defaults.
        let bare = r#"{"items":[{"metadata":{"name":"system"},"spec":{"type":"Limited","limited":{}}},
            {"metadata":{"name":"exempt"},"spec":{"type":"Exempt"}}]}"#;
        let b = levels(bare).expect("levels");
        assert_eq!(
            b.iter()
                .map(|l| (l.nominal_concurrency_shares, l.lendable_percent))
                .collect::<Vec<_>>(),
            [(30, 0), (0, 0)]
        );
    }

    #[test]
    fn what_is_no_list_of_levels_says_why() {
        assert_eq!(
            levels(r#"{"kind":"Status","status":"Failure"}"#),
            Err("the PriorityLevelConfigurations came back as a Status".into())
        );
        assert_eq!(
            levels(r#"{"kind":"PriorityLevelConfigurationList","items":[]}"#),
            Err("the cluster has no system PriorityLevelConfiguration".into())
        );
        assert_eq!(
            levels(
                r#"{"items":[{"metadata":{"name":"system"},"spec":{"limited":{"nominalConcurrencyShares":0}}}]}"#
            ),
            Err("the cluster's system level has 0 nominalConcurrencyShares".into())
        );
        assert!(levels("<html>")
            .unwrap_err()
            .starts_with("not a PriorityLevelConfigurationList"));
    }
}
