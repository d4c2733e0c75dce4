//! Job manifests in and out: paste YAML or JSON, export YAML.

use super::job::JobManifest;
use super::yaml;

/// Reads a Job manifest, YAML or JSON (JSON is YAML too, but its errors read better).
pub fn parse_job_manifest(text: &str) -> Result<JobManifest, String> {
    if text.trim().is_empty() {
        return Err("the manifest is empty".into());
    }
    if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))
    } else {
        let value = yaml::parse(text).map_err(|e| format!("invalid YAML: {e}"))?;
        serde_json::from_value(value).map_err(|e| format!("invalid YAML: {e}"))
    }
}

/// The manifest as YAML, as one would `kubectl apply` it.
pub fn job_manifest_yaml(m: &JobManifest) -> String {
    match serde_json::to_value(m) {
        Ok(v) => yaml::to_string(&v),
        Err(e) => format!("# cannot write the manifest: {e}\n"),
    }
}
