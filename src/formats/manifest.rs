//! Job manifests in and out: paste YAML or JSON, export YAML. Reading is
//! strict as `kubectl apply --validate=strict` (the API server's strict field
//! validation): a field batch/v1 does not have is reported by its path,
//! never dropped in silence. Fields Kubernetes has but the explorer does not
//! model (labels, images, resources…) are accepted and left alone.

use serde_json::Value;

use crate::engine::job::JobManifest;

/// The shape of the fields a Job may carry: a leaf the explorer does not look
/// into, an object with these fields, or a list of one shape.
enum Shape {
    Any,
    Obj(&'static [(&'static str, Shape)]),
    List(&'static Shape),
}

use Shape::{Any, List, Obj};

/// `metav1.ObjectMeta`.
const OBJECT_META: Shape = Obj(&[
    ("name", Any),
    ("generateName", Any),
    ("namespace", Any),
    ("selfLink", Any),
    ("uid", Any),
    ("resourceVersion", Any),
    ("generation", Any),
    ("creationTimestamp", Any),
    ("deletionTimestamp", Any),
    ("deletionGracePeriodSeconds", Any),
    ("labels", Any),
    ("annotations", Any),
    ("ownerReferences", Any),
    ("finalizers", Any),
    ("managedFields", Any),
]);

/// `corev1.ContainerRestartRule` (KEP-5307).
const RESTART_RULE: Shape = Obj(&[
    ("action", Any),
    ("exitCodes", Obj(&[("operator", Any), ("values", Any)])),
]);

/// `corev1.Container`.
const CONTAINER: Shape = Obj(&[
    ("name", Any),
    ("image", Any),
    ("command", Any),
    ("args", Any),
    ("workingDir", Any),
    ("ports", Any),
    ("envFrom", Any),
    ("env", Any),
    ("resources", Any),
    ("resizePolicy", Any),
    ("restartPolicy", Any),
    ("restartPolicyRules", List(&RESTART_RULE)),
    ("volumeMounts", Any),
    ("volumeDevices", Any),
    ("livenessProbe", Any),
    ("readinessProbe", Any),
    ("startupProbe", Any),
    ("lifecycle", Any),
    ("terminationMessagePath", Any),
    ("terminationMessagePolicy", Any),
    ("imagePullPolicy", Any),
    ("securityContext", Any),
    ("stdin", Any),
    ("stdinOnce", Any),
    ("tty", Any),
]);

/// `corev1.PodSpec`.
const POD_SPEC: Shape = Obj(&[
    ("volumes", Any),
    ("initContainers", List(&CONTAINER)),
    ("containers", List(&CONTAINER)),
    ("ephemeralContainers", Any),
    ("restartPolicy", Any),
    ("terminationGracePeriodSeconds", Any),
    ("activeDeadlineSeconds", Any),
    ("dnsPolicy", Any),
    ("nodeSelector", Any),
    ("serviceAccountName", Any),
    ("serviceAccount", Any),
    ("automountServiceAccountToken", Any),
    ("nodeName", Any),
    ("hostNetwork", Any),
    ("hostPID", Any),
    ("hostIPC", Any),
    ("shareProcessNamespace", Any),
    ("securityContext", Any),
    ("imagePullSecrets", Any),
    ("hostname", Any),
    ("subdomain", Any),
    ("affinity", Any),
    ("schedulerName", Any),
    ("tolerations", Any),
    ("hostAliases", Any),
    ("priorityClassName", Any),
    ("priority", Any),
    ("dnsConfig", Any),
    ("readinessGates", Any),
    ("runtimeClassName", Any),
    ("enableServiceLinks", Any),
    ("preemptionPolicy", Any),
    ("overhead", Any),
    ("topologySpreadConstraints", Any),
    ("setHostnameAsFQDN", Any),
    ("os", Any),
    ("hostUsers", Any),
    ("schedulingGates", Any),
    ("resourceClaims", Any),
    ("resources", Any),
    ("hostnameOverride", Any),
]);

/// `batchv1.PodFailurePolicy`.
const POD_FAILURE_POLICY: Shape = Obj(&[(
    "rules",
    List(&Obj(&[
        ("action", Any),
        (
            "onExitCodes",
            Obj(&[("containerName", Any), ("operator", Any), ("values", Any)]),
        ),
        (
            "onPodConditions",
            List(&Obj(&[("type", Any), ("status", Any)])),
        ),
    ])),
)]);

/// `batchv1.JobSpec`.
const JOB_SPEC: Shape = Obj(&[
    ("parallelism", Any),
    ("completions", Any),
    ("activeDeadlineSeconds", Any),
    ("podFailurePolicy", POD_FAILURE_POLICY),
    ("successPolicy", Any),
    ("backoffLimit", Any),
    ("backoffLimitPerIndex", Any),
    ("maxFailedIndexes", Any),
    ("selector", Any),
    ("manualSelector", Any),
    (
        "template",
        Obj(&[("metadata", OBJECT_META), ("spec", POD_SPEC)]),
    ),
    ("ttlSecondsAfterFinished", Any),
    ("completionMode", Any),
    ("suspend", Any),
    ("podReplacementPolicy", Any),
    ("managedBy", Any),
]);

/// `batchv1.Job`.
const JOB: Shape = Obj(&[
    ("apiVersion", Any),
    ("kind", Any),
    ("metadata", OBJECT_META),
    ("spec", JOB_SPEC),
    ("status", Any),
]);

/// The paths of fields the shape does not know, as the API server names them.
fn unknown_fields(v: &Value, shape: &Shape, path: &str, out: &mut Vec<String>) {
    let child = |name: &str| {
        if path.is_empty() {
            name.to_owned()
        } else {
            format!("{path}.{name}")
        }
    };
    match (shape, v) {
        (Obj(fields), Value::Object(map)) => {
            for (k, val) in map {
                match fields.iter().find(|(name, _)| name == k) {
                    Some((_, s)) => unknown_fields(val, s, &child(k), out),
                    None => out.push(child(k)),
                }
            }
        }
        (List(item), Value::Array(items)) => {
            for (i, val) in items.iter().enumerate() {
                unknown_fields(val, item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Reads a Job manifest, YAML or JSON (JSON is YAML too, but its errors read
/// better). Unknown fields are refused as the API server's strict field
/// validation refuses them.
pub fn parse_job_manifest(text: &str) -> Result<JobManifest, String> {
    if text.trim().is_empty() {
        return Err("the manifest is empty".into());
    }
    let (value, format) = if text.trim_start().starts_with('{') {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
        (v, "JSON")
    } else {
        let v: Value = serde_yaml_ng::from_str(text).map_err(|e| format!("invalid YAML: {e}"))?;
        (v, "YAML")
    };
    // Another kind is named as such, not as its fields unknown to a Job.
    match value.get("kind").and_then(Value::as_str) {
        Some("Job") | None => {}
        Some("CronJob") => {
            return Err("this is a CronJob, not a Job: paste the Job of its spec.jobTemplate (kind: Job, its spec)".into())
        }
        Some(kind) => {
            let kind: String = kind.chars().take(63).collect();
            return Err(format!("this is a {kind}, not a Job: paste a Job manifest (kind: Job, apiVersion: batch/v1)"));
        }
    }
    let mut unknown = vec![];
    unknown_fields(&value, &JOB, "", &mut unknown);
    if !unknown.is_empty() {
        return Err(format!(
            "strict decoding error: {}",
            unknown
                .iter()
                .map(|p| format!("unknown field {}", crate::engine::field::quoted(p)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    serde_json::from_value(value).map_err(|e| format!("invalid {format}: {e}"))
}

/// The manifest as YAML, as one would `kubectl apply` it.
pub fn job_manifest_yaml(m: &JobManifest) -> String {
    match serde_yaml_ng::to_string(m) {
        Ok(text) => text,
        Err(e) => format!("# cannot write the manifest: {e}\n"),
    }
}
