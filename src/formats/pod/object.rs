//! Pods in kubectl's YAML or JSON (`-o yaml`, `-o json`), whole or in
//! part: a Pod (with or without `kind`), a `List`/`PodList`, a `status:`
//! block, a `containerStatuses:` list or one container status. Field names
//! follow the core/v1 Pod API.

use serde_json::Value;

use super::{Reading, Shape, HOW};
use crate::engine::config::KubeletVersion;
use crate::engine::field::FieldError;
use crate::engine::pod::{
    ContainerKind, Epoch, ObservedContainer, ObservedState, PodObservation, Terminated,
};
use crate::engine::restart_rules::{ContainerRestart, ContainerRestartRule};
use crate::engine::scenario::RestartPolicy;
use crate::formats::time::parse_rfc3339;

fn kind_of(v: &Value) -> &str {
    v.get("kind").and_then(Value::as_str).unwrap_or("")
}

/// A container status: a name and a state or a restart count.
fn is_container_status(v: &Value) -> bool {
    v.is_object()
        && (v.get("state").is_some() || v.get("lastState").is_some())
        && (v.get("name").is_some() || v.get("restartCount").is_some())
}

/// A Pod without its `kind`: another tool's output, or a copy cut short.
fn is_pod_like(v: &Value) -> bool {
    v.is_object()
        && (v.get("spec").and_then(|s| s.get("containers")).is_some()
            || (v.get("metadata").is_some() && v.get("status").is_some()))
}

/// Whether a value has any key a Pod or a piece of one has.
pub fn has_pod_keys(v: &Value) -> bool {
    const KEYS: [&str; 9] = [
        "apiVersion",
        "kind",
        "metadata",
        "spec",
        "status",
        "containerStatuses",
        "initContainerStatuses",
        "state",
        "items",
    ];
    match v {
        Value::Object(m) => KEYS.iter().any(|k| m.contains_key(*k)),
        Value::Array(a) => a.iter().any(has_pod_keys),
        _ => false,
    }
}

/// A pod's `status` (the block's contents).
fn is_status(v: &Value) -> bool {
    v.is_object()
        && ["containerStatuses", "initContainerStatuses", "phase"]
            .iter()
            .any(|k| v.get(k).is_some())
}

/// Every pod in a value that is one of the shapes kubectl prints.
pub fn read_value(
    v: &Value,
    version: KubeletVersion,
) -> Result<(Shape, Vec<Reading>, Vec<String>), String> {
    let (shape, pods, notes) = read_shape(v, version)?;
    Ok((shape, pods, notes))
}

/// One Pod object (a watch's document), with what the reader assumed.
pub fn read_pod(
    v: &Value,
    version: KubeletVersion,
) -> Result<(PodObservation, Vec<String>), String> {
    let mut notes = vec![];
    parse_pod_object(v, version, &mut notes).map(|p| (p, notes))
}

/// Whether a Pod reports any container status yet.
pub fn has_container_statuses(v: &Value) -> bool {
    LISTS.iter().any(|(list, _)| {
        v.get("status")
            .and_then(|s| s.get(list))
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    })
}

/// Every pod of `items`: of several, one that cannot be read (a pod still
/// pending, with no container statuses) is left out with a note.
fn read_items(
    items: &[&Value],
    version: KubeletVersion,
) -> Result<(Vec<Reading>, Vec<String>), String> {
    let mut pods = vec![];
    let mut notes = vec![];
    let mut first_error = None;
    for i in items {
        match parse_pod_object(i, version, &mut notes) {
            Ok(p) => pods.push(Reading::Observed(p)),
            Err(e) => {
                if items.len() > 1 {
                    notes.push(format!("left out: {e}"));
                }
                first_error.get_or_insert(e);
            }
        }
    }
    match (pods.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        _ => Ok((pods, notes)),
    }
}

fn read_shape(
    v: &Value,
    version: KubeletVersion,
) -> Result<(Shape, Vec<Reading>, Vec<String>), String> {
    let pods = |items: &[&Value]| read_items(items, version);
    // kubectl prints a list's `kind` after its items: a list cut short has
    // none.
    let kind = match kind_of(v) {
        "" if v.get("items").is_some_and(Value::is_array) => "List",
        kind => kind,
    };
    match kind {
        "Pod" => {
            let (p, n) = pods(&[v])?;
            return Ok((Shape::Pod, p, n));
        }
        "List" | "PodList" => {
            let items: Vec<&Value> = v
                .get("items")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter(|i| kind_of(i) == "Pod" || (kind_of(i).is_empty() && is_pod_like(i)))
                        .collect()
                })
                .unwrap_or_default();
            if items.is_empty() {
                let other = v
                    .get("items")
                    .and_then(Value::as_array)
                    .and_then(|a| a.first())
                    .map(kind_of)
                    .filter(|k| !k.is_empty());
                return Err(match other {
                    Some(k) => format!("the list holds {k}s, not Pods: {HOW}"),
                    None => format!("the list holds no pods: {HOW}"),
                });
            }
            let (p, n) = pods(&items)?;
            return Ok((Shape::PodList, p, n));
        }
        "" => {}
        other => {
            return Err(format!(
                "this is a {other}, not a Pod: run `kubectl get pods -l …` or `kubectl get pod NAME -o yaml` for its pods"
            ))
        }
    }
    if let Some(items) = v.as_array() {
        if !items.is_empty() && items.iter().all(is_container_status) {
            let status = serde_json::json!({ "containerStatuses": items });
            let (p, n) = pods(&[&wrap_status(status)])?;
            return Ok((Shape::ContainerStatuses, p, n));
        }
        let found: Vec<&Value> = items
            .iter()
            .filter(|i| kind_of(i) == "Pod" || is_pod_like(i))
            .collect();
        if !found.is_empty() {
            let (p, n) = pods(&found)?;
            return Ok((Shape::PodList, p, n));
        }
        return Err(format!(
            "a list of neither pods nor container statuses: {HOW}"
        ));
    }
    if is_pod_like(v) {
        let (p, n) = pods(&[v])?;
        return Ok((Shape::PodWithoutKind, p, n));
    }
    if let Some(s) = v.get("status").filter(|s| is_status(s)) {
        let (p, n) = pods(&[&wrap_status(s.clone())])?;
        return Ok((Shape::Status, p, n));
    }
    if is_status(v) {
        let (p, n) = pods(&[&wrap_status(v.clone())])?;
        return Ok((Shape::Status, p, n));
    }
    for (list, _) in LISTS {
        if let Some(items) = v.get(list).and_then(Value::as_array) {
            let status = serde_json::json!({ list: items });
            let (p, n) = pods(&[&wrap_status(status)])?;
            return Ok((Shape::ContainerStatuses, p, n));
        }
    }
    if is_container_status(v) {
        let status = serde_json::json!({ "containerStatuses": [v] });
        let (p, n) = pods(&[&wrap_status(status)])?;
        return Ok((Shape::ContainerStatus, p, n));
    }
    if v.is_object() {
        Err(format!(
            "this has no `kind` and no pod's fields (status, containerStatuses, state): {HOW}"
        ))
    } else {
        Err(format!("not a pod: {HOW}"))
    }
}

/// A status block as a Pod without metadata, so one reader reads both.
fn wrap_status(status: Value) -> Value {
    serde_json::json!({ "status": status })
}

/// What an absent field reads as.
static NULL: Value = Value::Null;

/// The status lists and the spec lists beside them.
const LISTS: [(&str, &str); 2] = [
    ("initContainerStatuses", "initContainers"),
    ("containerStatuses", "containers"),
];

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str()
}

/// An optional RFC 3339 timestamp at `field`: absent is none; malformed (a
/// time edited by hand) is none too, with a note: it costs that field, not
/// the pod.
fn time_at(v: &Value, key: &str, field: &str, notes: &mut Vec<String>) -> Option<Epoch> {
    let problem = match v.get(key) {
        None | Some(Value::Null) => return None,
        Some(Value::String(s)) => match parse_rfc3339(s) {
            Ok(t) => return super::real_time(t),
            Err(e) => e,
        },
        Some(other) => format!("{other} is not a timestamp"),
    };
    notes.push(format!("{field}.{key}: {problem}; left out"));
    None
}

/// A `terminated` block; one whose exitCode is missing or no int32 is left
/// out with a note (its times say nothing without the exit).
fn terminated(v: Option<&Value>, field: &str, notes: &mut Vec<String>) -> Option<Terminated> {
    let t = v.and_then(|s| s.get("terminated"))?;
    let field = format!("{field}.terminated");
    let exit_code = match t.get("exitCode") {
        Some(c) => match c.as_i64().and_then(|c| i32::try_from(c).ok()) {
            Some(code) => code,
            None => {
                notes.push(format!(
                    "{field}.exitCode: {c} is not an int32 exit code; the block is left out"
                ));
                return None;
            }
        },
        None => {
            notes.push(format!(
                "{field}.exitCode is missing; the block is left out"
            ));
            return None;
        }
    };
    Some(Terminated {
        exit_code: Some(exit_code),
        reason: t
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        started_at: time_at(t, "startedAt", &field, notes),
        finished_at: time_at(t, "finishedAt", &field, notes),
    })
}

fn state(v: Option<&Value>, field: &str, notes: &mut Vec<String>) -> ObservedState {
    let Some(s) = v else {
        return ObservedState::Unknown;
    };
    if let Some(w) = s.get("waiting") {
        let text = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        return ObservedState::Waiting {
            reason: text("reason"),
            message: text("message"),
        };
    }
    if let Some(r) = s.get("running") {
        return ObservedState::Running {
            started_at: time_at(r, "startedAt", &format!("{field}.running"), notes),
        };
    }
    terminated(Some(s), field, notes).map_or(ObservedState::Unknown, ObservedState::Terminated)
}

/// A container's spec, by name: its own restartPolicy and rules.
fn container_spec<'a>(spec: &'a Value, list: &str, name: &str) -> Option<(usize, &'a Value)> {
    spec.get(list)?
        .as_array()?
        .iter()
        .enumerate()
        .find(|(_, c)| c.get("name").and_then(Value::as_str) == Some(name))
}

fn parse_pod_object(
    v: &Value,
    version: KubeletVersion,
    notes: &mut Vec<String>,
) -> Result<PodObservation, String> {
    let name = str_at(v, &["metadata", "name"]).unwrap_or("").to_owned();
    // A Pod printed by kubectl always has its namespace; a fragment has none.
    let namespace = str_at(v, &["metadata", "namespace"])
        .unwrap_or(if v.get("metadata").is_some() {
            "default"
        } else {
            ""
        })
        .to_owned();
    let node = str_at(v, &["spec", "nodeName"]).map(str::to_owned);
    let status_word = str_at(v, &["status", "reason"])
        .or(str_at(v, &["status", "phase"]))
        .map(str::to_owned);
    let spec = v.get("spec").unwrap_or(&NULL);
    let restart_policy = match spec.get("restartPolicy").and_then(Value::as_str) {
        None => None,
        Some(p) => {
            let policy = RestartPolicy::parse(p);
            if policy.is_none() {
                notes.push(format!(
                    "spec.restartPolicy: {} is not Always, OnFailure or Never; left out",
                    crate::engine::field::quoted(p)
                ));
            }
            policy
        }
    };
    let status = v.get("status").unwrap_or(&NULL);
    let started_at = time_at(status, "startTime", "status", notes).or_else(|| {
        v.get("metadata")
            .and_then(|m| time_at(m, "creationTimestamp", "metadata", notes))
    });
    let mut containers = vec![];
    let mut errors: Vec<FieldError> = vec![];
    for (list, spec_list) in LISTS {
        let init = list == "initContainerStatuses";
        let Some(statuses) = status.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, s) in statuses.iter().enumerate() {
            let field = format!("status.{list}[{i}]");
            let cname = s
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let restart_count = match s.get("restartCount") {
                None => None,
                Some(n) => {
                    let count = n.as_u64().filter(|&n| n <= i32::MAX as u64);
                    if count.is_none() {
                        notes.push(format!(
                            "{field}.restartCount: {n} is not the API's restartCount (an int32); left out"
                        ));
                    }
                    count
                }
            };
            let found = container_spec(spec, spec_list, &cname);
            let own_policy = found
                .and_then(|(_, c)| c.get("restartPolicy"))
                .and_then(Value::as_str);
            let rules: Vec<ContainerRestartRule> =
                match found.and_then(|(_, c)| c.get("restartPolicyRules")) {
                    None => vec![],
                    Some(r) => serde_json::from_value(r.clone()).map_err(|e| {
                        format!(
                            "spec.{spec_list}[{}].restartPolicyRules: {e}",
                            found.map_or(0, |f| f.0)
                        )
                    })?,
                };
            let kind = match (init, own_policy) {
                (true, Some("Always")) => ContainerKind::Sidecar,
                (true, _) => ContainerKind::Init,
                (false, _) => ContainerKind::Regular,
            };
            // A sidecar's Always is what makes it one, not a restart rule.
            let (restart, _) = if kind == ContainerKind::Sidecar {
                (ContainerRestart::default(), vec![])
            } else {
                ContainerRestart::validate(
                    &format!("spec.{spec_list}[{}]", found.map_or(0, |f| f.0)),
                    own_policy,
                    &rules,
                    version,
                    &mut errors,
                )
            };
            containers.push(ObservedContainer {
                name: cname,
                kind,
                restart,
                own_policy: own_policy.and_then(RestartPolicy::parse),
                rules,
                restart_count,
                state: state(s.get("state"), &format!("{field}.state"), notes),
                last_terminated: terminated(
                    s.get("lastState"),
                    &format!("{field}.lastState"),
                    notes,
                ),
            });
        }
    }
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    if containers.is_empty() {
        let phase = str_at(v, &["status", "phase"]).unwrap_or("unknown");
        return Err(format!(
            "pod {} has no container statuses yet (phase {phase}): nothing has run to restart",
            if name.is_empty() { "(unnamed)" } else { &name }
        ));
    }
    Ok(PodObservation {
        name,
        namespace,
        node,
        status: status_word,
        restart_policy,
        started_at,
        containers,
        backoff_events: vec![],
        pull_failures: None,
        printed_at: None,
    })
}
