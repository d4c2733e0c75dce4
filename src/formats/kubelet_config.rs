//! A kubelet's configuration as a user has it: the kubelet's own `/configz`
//! (what `kubectl get --raw /api/v1/nodes/NAME/proxy/configz` prints: the
//! running KubeletConfiguration v1beta1 under `kubeletconfig`; cmd/kubelet/
//! app/server.go registers it under that name), a KubeletConfiguration file
//! in YAML or JSON, or its parts alone. Read into the engine's
//! `KubeletConfig`, which the kubelet's own validation then judges.

use serde_json::Value;

use crate::engine::config::KubeletConfig;
use crate::engine::field::quoted;

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
