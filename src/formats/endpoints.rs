//! The API servers' count, from the `kubernetes` Service's Endpoints in
//! `default`: with the lease reconciler (the API server's default) each
//! live API server keeps its own address there, one subset of them all
//! (kubernetes pkg/controlplane/reconcilers/lease.go, `doReconcile`).
//! API servers behind one address (a managed control plane's load
//! balancer) count once, and the older `master-count` reconciler with too
//! low an `--apiserver-count` lists one of several (k/k#80781): the page
//! says the count is the Endpoints'.

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::engine::apf::REPLICAS_RANGE;

/// Where the API serves it, under `/api/v1`.
pub const KUBERNETES_ENDPOINTS: &str = "namespaces/default/endpoints/kubernetes";

/// Larger than any Endpoints of API servers.
pub const MAX_ENDPOINTS_TEXT: usize = 64 * 1024;

#[derive(Deserialize)]
struct Endpoints {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    subsets: Vec<Subset>,
}

#[derive(Deserialize)]
struct Subset {
    #[serde(default)]
    addresses: Vec<Address>,
}

#[derive(Deserialize)]
struct Address {
    ip: String,
}

/// How many API servers the Endpoints lists: its distinct addresses.
pub fn api_servers(text: &str) -> Result<u32, String> {
    let e: Endpoints = super::json::api_object(
        text,
        MAX_ENDPOINTS_TEXT,
        "the kubernetes Endpoints is over",
        "the kubernetes Endpoints is not an Endpoints",
    )?;
    if let Some(kind) = e.kind.as_deref().filter(|k| *k != "Endpoints") {
        return Err(format!("the kubernetes Endpoints came back as a {kind}"));
    }
    let ips: BTreeSet<&str> = e
        .subsets
        .iter()
        .flat_map(|s| &s.addresses)
        .map(|a| a.ip.as_str())
        .collect();
    let n = u32::try_from(ips.len()).unwrap_or(u32::MAX);
    if n == 0 {
        return Err("the kubernetes Endpoints lists no API server".into());
    }
    if !REPLICAS_RANGE.contains(&n) {
        return Err(format!(
            "the kubernetes Endpoints lists {n} API servers; the load is worked out for {} to {}",
            REPLICAS_RANGE.start(),
            REPLICAS_RANGE.end()
        ));
    }
    Ok(n)
}

/// The count as a load's words say where its API servers came from.
pub fn counted_words(n: u32) -> String {
    format!(
        "{n} API server{}, as the cluster's kubernetes Endpoints lists them",
        if n == 1 { "" } else { "s" }
    )
}

/// Why there is no count, and what the load is set against instead.
pub fn not_counted_words(why: &str, against: &str) -> String {
    format!("the API servers could not be counted ({why}): the load is set against {against}; counting them needs get on endpoints in default")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_is_an_api_server_once() {
        // Three servers, as the lease reconciler writes them: one subset.
        let three = r#"{"kind":"Endpoints","apiVersion":"v1","metadata":{"name":"kubernetes","namespace":"default"},
            "subsets":[{"addresses":[{"ip":"10.0.0.10"},{"ip":"10.0.0.11"},{"ip":"10.0.0.12"}],
            "ports":[{"name":"https","port":6443,"protocol":"TCP"}]}]}"#;
        assert_eq!(api_servers(three), Ok(3));
        // An address listed twice (two subsets) is one server.
        let twice = r#"{"subsets":[{"addresses":[{"ip":"10.0.0.10"}]},{"addresses":[{"ip":"10.0.0.10"},{"ip":"10.0.0.11"}]}]}"#;
        assert_eq!(api_servers(twice), Ok(2));
    }

    #[test]
    fn what_is_no_count_says_why() {
        assert_eq!(
            api_servers(r#"{"kind":"Endpoints","subsets":[]}"#),
            Err("the kubernetes Endpoints lists no API server".into())
        );
        assert_eq!(
            api_servers(r#"{"kind":"Status","status":"Failure"}"#),
            Err("the kubernetes Endpoints came back as a Status".into())
        );
        assert!(api_servers("<html>")
            .unwrap_err()
            .starts_with("the kubernetes Endpoints is not an Endpoints"));
        let many: Vec<String> = (0..16)
            .map(|i| format!(r#"{{"ip":"10.0.0.{i}"}}"#))
            .collect();
        let sixteen = format!(r#"{{"subsets":[{{"addresses":[{}]}}]}}"#, many.join(","));
        assert_eq!(
            api_servers(&sixteen),
            Err(
                "the kubernetes Endpoints lists 16 API servers; the load is worked out for 1 to 15"
                    .into()
            )
        );
    }
}
