//! A kubelet's configuration as a user has it: the kubelet's own `/configz`
//! (what `kubectl get --raw /api/v1/nodes/NAME/proxy/configz` prints: the
//! running KubeletConfiguration v1beta1 under `kubeletconfig`; cmd/kubelet/
//! app/server.go registers it under that name), a KubeletConfiguration file
//! in YAML or JSON, or its parts alone. Read into the engine's
//! `KubeletConfig`, which the kubelet's own validation then judges.

use serde_json::Value;

use crate::engine::config::KubeletConfig;
use crate::engine::field::quoted;
use crate::engine::kubelets::{ClientLimits, NodeConfig};

/// A paste or a file larger than any kubelet's configuration.
pub const MAX_KUBELET_CONFIG_TEXT: usize = 256 * 1024;

const API_VERSION: &str = "kubelet.config.k8s.io/v1beta1";
const KIND: &str = "KubeletConfiguration";

/// Where the configuration came from, as an answer says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A kubelet's `/configz`: what it runs.
    Configz,
    /// A KubeletConfiguration file: what a kubelet would start with.
    File,
    /// `featureGates` and `crashLoopBackOff` alone.
    Parts,
}

impl Source {
    pub fn words(self) -> &'static str {
        match self {
            Source::Configz => "its /configz",
            Source::File => "a KubeletConfiguration",
            Source::Parts => "the configuration given",
        }
    }
}

/// Reads `text` (YAML or JSON) as one of the three shapes.
pub fn read(text: &str) -> Result<(KubeletConfig, Source), String> {
    if text.len() > MAX_KUBELET_CONFIG_TEXT {
        return Err(format!(
            "{} bytes: more than a kubelet's configuration ({} KB at most)",
            text.len(),
            MAX_KUBELET_CONFIG_TEXT / 1024
        ));
    }
    let value: Value =
        serde_yaml_ng::from_str(text).map_err(|e| format!("not YAML or JSON: {e}"))?;
    let Value::Object(mut top) = value else {
        return Err(
            "not a kubelet's configuration: expected an object (a /configz, a KubeletConfiguration, or its featureGates and crashLoopBackOff)"
                .to_owned(),
        );
    };
    let (inner, source) = match top.remove("kubeletconfig") {
        Some(inner) if top.is_empty() => (inner, Source::Configz),
        Some(_) => {
            return Err("a /configz holds \"kubeletconfig\" alone".to_owned());
        }
        None if top.contains_key("kind") || top.contains_key("apiVersion") => {
            (Value::Object(top), Source::File)
        }
        None => (Value::Object(top), Source::Parts),
    };
    if source == Source::File {
        let field = |k: &str| inner.get(k).and_then(Value::as_str).unwrap_or_default();
        // The kubelet's decoder: an unknown kind or version is not loaded.
        if field("kind") != KIND || field("apiVersion") != API_VERSION {
            return Err(format!(
                "no kind {} is registered for version {}: a kubelet reads kind {KIND}, apiVersion {API_VERSION}",
                quoted(field("kind")),
                quoted(field("apiVersion"))
            ));
        }
    }
    let config: KubeletConfig =
        serde_json::from_value(inner).map_err(|e| format!("not a KubeletConfiguration: {e}"))?;
    Ok((config, source))
}

/// What a node's `/configz` read gave, as the engine takes it: its
/// configuration and its clients' limits, or why none, in the API server's
/// words as kubectl prints them (`Error from server (Forbidden): …`) with
/// the rule that would allow the read where it was refused.
pub fn from_configz(node: &str, got: Result<&str, String>) -> Result<NodeConfig, String> {
    let text = got.map_err(|said| {
        if said.contains("(Forbidden)") {
            format!(
                "its /configz: {said}; reading it needs {}",
                crate::engine::kubelets::CONFIGZ_RULE
            )
        } else if said.contains("(NotFound)") {
            format!(
                "its /configz: {said}: its kubelet does not serve /configz through the node proxy"
            )
        } else {
            format!("its /configz: {said}")
        }
    })?;
    let at = || format!("its /configz (GET /api/v1/nodes/{node}/proxy/configz)");
    let (config, _) = read(text).map_err(|e| format!("{}: {e}", at()))?;
    let limits = client_limits(text).map_err(|e| format!("{}: {e}", at()))?;
    Ok(NodeConfig { config, limits })
}

/// The clients' limits a configuration sets (KubeletConfiguration v1beta1:
/// `kubeAPIQPS`, `kubeAPIBurst`, `eventRecordQPS`, `eventBurst`, whole
/// numbers), under `kubeletconfig` for a /configz.
fn client_limits(text: &str) -> Result<ClientLimits, String> {
    let value: Value = serde_yaml_ng::from_str(text).map_err(|e| e.to_string())?;
    let c = value.get("kubeletconfig").unwrap_or(&value);
    let field = |k: &str| -> Result<Option<u32>, String> {
        match c.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| format!("{k}: {v} is not a whole number of at most {}", u32::MAX)),
        }
    };
    Ok(ClientLimits {
        kube_api_qps: field("kubeAPIQPS")?,
        kube_api_burst: field("kubeAPIBurst")?,
        event_record_qps: field("eventRecordQPS")?,
        event_burst: field("eventBurst")?,
    })
}

/// How kubectl prints an API server's refusal from its Status: `Error from
/// server (Forbidden): nodes "node-a" is forbidden: …`; else the HTTP status.
pub fn refusal_words(code: u16, body: &str) -> String {
    let status: Option<Value> = serde_json::from_str(body).ok();
    let field = |k: &str| {
        status
            .as_ref()
            .and_then(|s| s.get(k))
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    match (field("reason"), field("message")) {
        (Some(reason), Some(message)) => format!("Error from server ({reason}): {message}"),
        (None, Some(message)) => format!("Error from server: {message}"),
        _ => format!("HTTP {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kubectl's words for a refused /configz keep their place, the rule
    /// that would allow the read after them; the page's answer from the
    /// API's Status reads the same.
    #[test]
    fn a_refused_configz_says_the_rule_that_would_allow_it() {
        let message = r#"nodes "node-a" is forbidden: User "dev" cannot get resource "nodes/proxy" in API group "" at the cluster scope"#;
        let said = format!("Error from server (Forbidden): {message}");
        let status = format!(
            r#"{{"kind":"Status","apiVersion":"v1","status":"Failure","message":{},"reason":"Forbidden","code":403}}"#,
            Value::from(message)
        );
        assert_eq!(refusal_words(403, &status), said);
        assert_eq!(refusal_words(502, "<html>bad gateway</html>"), "HTTP 502");
        let why = from_configz("node-a", Err(said.clone())).unwrap_err();
        assert_eq!(
            why,
            format!("its /configz: {said}; reading it needs a ClusterRole rule allowing get on nodes/proxy (apiGroups: [\"\"], resources: [\"nodes/proxy\"], verbs: [\"get\"])")
        );
        let why = from_configz("node-c", Ok("<html>")).unwrap_err();
        assert!(
            why.starts_with("its /configz (GET /api/v1/nodes/node-c/proxy/configz): not a kubelet's configuration"),
            "{why}"
        );
        let c = from_configz(
            "node-b",
            Ok(r#"{"kubeletconfig":{"crashLoopBackOff":{"maxContainerRestartPeriod":"30s"},"kubeAPIQPS":1,"eventBurst":200}}"#),
        )
        .unwrap();
        assert_eq!(
            c.config
                .crash_loop_back_off
                .max_container_restart_period
                .as_deref(),
            Some("30s")
        );
        assert_eq!(
            c.limits,
            ClientLimits {
                kube_api_qps: Some(1),
                event_burst: Some(200),
                ..ClientLimits::default()
            }
        );
        let why = from_configz("node-b", Ok(r#"{"kubeletconfig":{"kubeAPIQPS":-1}}"#)).unwrap_err();
        assert!(
            why.ends_with("kubeAPIQPS: -1 is not a whole number of at most 4294967295"),
            "{why}"
        );
    }
}
