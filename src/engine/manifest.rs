//! Job manifests in and out: paste YAML or JSON, export YAML.

use super::job::JobManifest;

/// Reads a Job manifest, YAML or JSON (JSON is YAML too, but its errors read better).
pub fn parse_job_manifest(text: &str) -> Result<JobManifest, String> {
    if text.trim().is_empty() {
        return Err("the manifest is empty".into());
    }
    if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))
    } else {
        serde_yaml_ng::from_str(text).map_err(|e| format!("invalid YAML: {e}"))
    }
}

/// The manifest as YAML, as one would `kubectl apply` it.
pub fn job_manifest_yaml(m: &JobManifest) -> String {
    serde_yaml_ng::to_string(m).unwrap_or_else(|e| format!("# cannot write YAML: {e}\n"))
}
