//! A pod as kubectl prints it, read into `engine::pod::PodObservation`:
//! `kubectl get pod NAME -o json` or `-o yaml` (a Pod, or a `List`/`PodList`
//! of pods), or `kubectl describe pod NAME`. Field names follow the core/v1
//! Pod API. Whatever is not a pod gets a message saying what it is instead.

use super::value::{self, Value};

use super::time::{parse_rfc1123z, parse_rfc3339};
use super::yaml;
use crate::engine::config::KubeletVersion;
use crate::engine::field::FieldError;
use crate::engine::pod::{
    ContainerKind, Epoch, ObservedContainer, ObservedState, PodObservation, Terminated,
};
use crate::engine::restart_rules::{ContainerRestart, ContainerRestartRule};
use crate::engine::scenario::RestartPolicy;

/// A pod's YAML is a few KB; a paste larger than this is not a pod.
pub const MAX_POD_TEXT: usize = 1 << 20;

/// What was read, and what the reader chose or assumed.
pub type PodRead = (PodObservation, Vec<String>);

const HOW: &str = "paste what `kubectl get pod NAME -o yaml` (or `-o json`) or `kubectl describe pod NAME` prints";

/// Reads a pod from any of kubectl's three outputs.
pub fn parse_pod(text: &str, version: KubeletVersion) -> Result<PodRead, String> {
    if text.len() > MAX_POD_TEXT {
        return Err(format!(
            "the text is {:.1} MB; one pod is a few KB (at most 1 MB is read): {HOW}",
            text.len() as f64 / 1_048_576.0
        ));
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(format!("nothing to read: {HOW}"));
    }
    let first = trimmed.lines().next().unwrap_or("");
    if first.starts_with("NAME ") && first.contains("READY") && first.contains("STATUS") {
        return Err(format!(
            "this is a `kubectl get pods` table: it has no timestamps or backoff; {HOW}"
        ));
    }
    if first.starts_with("Name:") {
        return parse_describe(text);
    }
    let value: Value = if trimmed.starts_with('{') {
        value::from_json(text)
            .map_err(|e| format!("not a pod (not JSON as kubectl prints it: {e}): {HOW}"))?
    } else {
        yaml::parse(text)
            .map_err(|e| format!("not a pod (not YAML as kubectl prints it: {e}): {HOW}"))?
    };
    parse_object(&value, version)
}

fn kind_of(v: &Value) -> &str {
    v.get("kind").and_then(Value::as_str).unwrap_or("")
}

/// A Pod, or one pod of a list: the first in CrashLoopBackOff, else the first.
fn parse_object(v: &Value, version: KubeletVersion) -> Result<PodRead, String> {
    match kind_of(v) {
        "Pod" => parse_pod_object(v, version).map(|p| (p, vec![])),
        "List" | "PodList" => {
            let items: Vec<&Value> = v
                .get("items")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter(|i| kind_of(i) == "Pod" || kind_of(i).is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let looping = |i: &&&Value| i.to_string().contains("CrashLoopBackOff");
            let pick = items
                .iter()
                .find(looping)
                .or(items.first())
                .ok_or_else(|| format!("the list holds no pods: {HOW}"))?;
            let pod = parse_pod_object(pick, version)?;
            let mut notes = vec![];
            if items.len() > 1 {
                notes.push(format!(
                    "the list holds {} pods: showing {} (the first in CrashLoopBackOff, else the first)",
                    items.len(),
                    pod.name
                ));
            }
            Ok((pod, notes))
        }
        "" if v.is_object() => Err(format!("this has no `kind`: {HOW}")),
        "" => Err(format!("not a pod: {HOW}")),
        other => Err(format!(
            "this is a {other}, not a Pod: run `kubectl get pod NAME -o yaml` for one of its pods"
        )),
    }
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str()
}

/// An optional RFC 3339 timestamp at `field`: absent is fine, malformed is not.
fn time_at(v: &Value, key: &str, field: &str) -> Result<Option<Epoch>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse_rfc3339(s)
            .map(Some)
            .map_err(|e| format!("{field}.{key}: {e}")),
        Some(other) => Err(format!("{field}.{key}: {other} is not a timestamp")),
    }
}

fn terminated(v: Option<&Value>, field: &str) -> Result<Option<Terminated>, String> {
    let Some(t) = v.and_then(|s| s.get("terminated")) else {
        return Ok(None);
    };
    let field = format!("{field}.terminated");
    let exit_code = match t.get("exitCode") {
        Some(c) => c
            .as_i64()
            .and_then(|c| i32::try_from(c).ok())
            .ok_or_else(|| format!("{field}.exitCode: {c} is not an int32 exit code"))?,
        None => return Err(format!("{field}.exitCode is missing")),
    };
    Ok(Some(Terminated {
        exit_code,
        reason: t
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        started_at: time_at(t, "startedAt", &field)?,
        finished_at: time_at(t, "finishedAt", &field)?,
    }))
}

fn state(v: Option<&Value>, field: &str) -> Result<ObservedState, String> {
    let Some(s) = v else {
        return Ok(ObservedState::Unknown);
    };
    if let Some(w) = s.get("waiting") {
        let text = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        return Ok(ObservedState::Waiting {
            reason: text("reason"),
            message: text("message"),
        });
    }
    if let Some(r) = s.get("running") {
        return Ok(ObservedState::Running {
            started_at: time_at(r, "startedAt", &format!("{field}.running"))?,
        });
    }
    Ok(terminated(Some(s), field)?.map_or(ObservedState::Unknown, ObservedState::Terminated))
}

/// A container's spec, by name: its own restartPolicy and rules.
fn container_spec<'a>(spec: &'a Value, list: &str, name: &str) -> Option<(usize, &'a Value)> {
    spec.get(list)?
        .as_array()?
        .iter()
        .enumerate()
        .find(|(_, c)| c.get("name").and_then(Value::as_str) == Some(name))
}

fn parse_pod_object(v: &Value, version: KubeletVersion) -> Result<PodObservation, String> {
    let name = str_at(v, &["metadata", "name"]).unwrap_or("").to_owned();
    let namespace = str_at(v, &["metadata", "namespace"])
        .unwrap_or("default")
        .to_owned();
    let spec = v.get("spec").cloned().unwrap_or(Value::Null);
    let restart_policy = match spec.get("restartPolicy").and_then(Value::as_str) {
        None => None,
        Some(p) => Some(RestartPolicy::parse(p).ok_or_else(|| {
            format!(
                "spec.restartPolicy: {} is not Always, OnFailure or Never",
                crate::engine::field::quoted(p)
            )
        })?),
    };
    let status = v.get("status").cloned().unwrap_or(Value::Null);
    let started_at = match time_at(&status, "startTime", "status")? {
        Some(t) => Some(t),
        None => v
            .get("metadata")
            .map(|m| time_at(m, "creationTimestamp", "metadata"))
            .transpose()?
            .flatten(),
    };
    let mut containers = vec![];
    let mut errors: Vec<FieldError> = vec![];
    for (list, spec_list, init) in [
        ("initContainerStatuses", "initContainers", true),
        ("containerStatuses", "containers", false),
    ] {
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
                None => 0,
                Some(n) => n
                    .as_u64()
                    .filter(|&n| n <= i32::MAX as u64)
                    .ok_or_else(|| {
                        format!(
                            "{field}.restartCount: {n} is not the API's restartCount (an int32)"
                        )
                    })?,
            };
            let found = container_spec(&spec, spec_list, &cname);
            let own_policy = found
                .and_then(|(_, c)| c.get("restartPolicy"))
                .and_then(Value::as_str);
            let rules: Vec<ContainerRestartRule> =
                match found.and_then(|(_, c)| c.get("restartPolicyRules")) {
                    None => vec![],
                    Some(r) => value::from_value(r.clone()).map_err(|e| {
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
                state: state(s.get("state"), &format!("{field}.state"))?,
                last_terminated: terminated(s.get("lastState"), &format!("{field}.lastState"))?,
            });
        }
    }
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    if containers.is_empty() {
        let phase = str_at(v, &["status", "phase"]).unwrap_or("unknown");
        return Err(format!(
            "pod {name} has no container statuses yet (phase {phase}): nothing has run to restart"
        ));
    }
    Ok(PodObservation {
        name,
        namespace,
        restart_policy,
        started_at,
        containers,
        backoff_events: vec![],
    })
}

/// `  key:   value` at some indentation.
fn key_value(line: &str) -> Option<(usize, &str, &str)> {
    let indent = line.len() - line.trim_start().len();
    let (k, v) = line.trim_start().split_once(':')?;
    if k.is_empty() || k.len() > 40 {
        return None;
    }
    Some((indent, k, v.trim()))
}

/// `kubectl describe pod`: the Name, Namespace and Start Time lines, the
/// Init Containers and Containers sections, and the Events table.
fn parse_describe(text: &str) -> Result<PodRead, String> {
    let mut name = String::new();
    let mut namespace = "default".to_owned();
    let mut started_at = None;
    let mut containers: Vec<ObservedContainer> = vec![];
    let mut events = vec![];
    let mut section = "";
    // Which state block a sub-field belongs to: "State" or "Last State".
    let mut block = "";
    let time = |v: &str, what: &str| parse_rfc1123z(v).map_err(|e| format!("{what}: {e}"));
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent == 0 && !line.trim().is_empty() {
            section = line.split(':').next().unwrap_or("");
            match key_value(line) {
                Some((_, "Name", v)) => name = v.to_owned(),
                Some((_, "Namespace", v)) => namespace = v.to_owned(),
                Some((_, "Start Time", v)) if !v.is_empty() => {
                    started_at = Some(time(v, "Start Time")?)
                }
                _ => {}
            }
            continue;
        }
        match section {
            "Containers" | "Init Containers" => {
                let Some((indent, key, value)) = key_value(line) else {
                    continue;
                };
                if indent == 2 && value.is_empty() {
                    containers.push(ObservedContainer {
                        name: key.to_owned(),
                        kind: if section == "Containers" {
                            ContainerKind::Regular
                        } else {
                            ContainerKind::Init
                        },
                        restart: ContainerRestart::default(),
                        own_policy: None,
                        rules: vec![],
                        restart_count: 0,
                        state: ObservedState::Unknown,
                        last_terminated: None,
                    });
                    continue;
                }
                let Some(c) = containers.last_mut() else {
                    continue;
                };
                let what = |k: &str| format!("{} {k}", c.name);
                match (indent, key) {
                    (4, "State") | (4, "Last State") => {
                        block = if key == "State" {
                            "State"
                        } else {
                            "Last State"
                        };
                        let st = match value {
                            "Waiting" => ObservedState::Waiting {
                                reason: String::new(),
                                message: String::new(),
                            },
                            "Running" => ObservedState::Running { started_at: None },
                            "Terminated" => ObservedState::Terminated(Terminated::default()),
                            _ => ObservedState::Unknown,
                        };
                        if block == "State" {
                            c.state = st;
                        } else if let ObservedState::Terminated(t) = st {
                            c.last_terminated = Some(t);
                        }
                    }
                    (4, "Restart Count") => {
                        c.restart_count = value
                            .parse::<u64>()
                            .ok()
                            .filter(|&n| n <= i32::MAX as u64)
                            .ok_or_else(|| {
                                format!(
                                    "{}: {} is not a restart count",
                                    what("Restart Count"),
                                    crate::engine::field::quoted(value)
                                )
                            })?;
                    }
                    (4, "Restart Policy") if value == "Always" && c.kind == ContainerKind::Init => {
                        c.kind = ContainerKind::Sidecar;
                    }
                    (4, _) => block = "",
                    (6, k) => {
                        let target: Option<&mut Terminated> = match (block, &mut c.state) {
                            ("State", ObservedState::Terminated(t)) => Some(t),
                            ("Last State", _) => c.last_terminated.as_mut(),
                            _ => None,
                        };
                        match (k, target) {
                            ("Exit Code", Some(t)) => {
                                t.exit_code = value.parse().map_err(|_| {
                                    format!(
                                        "{}: {} is not an exit code",
                                        what("Exit Code"),
                                        crate::engine::field::quoted(value)
                                    )
                                })?
                            }
                            ("Reason", Some(t)) => t.reason = value.to_owned(),
                            ("Started", Some(t)) => {
                                t.started_at = Some(time(value, &what("Started"))?)
                            }
                            ("Finished", Some(t)) => {
                                t.finished_at = Some(time(value, &what("Finished"))?)
                            }
                            _ => match (k, block, &mut c.state) {
                                ("Reason", "State", ObservedState::Waiting { reason, .. }) => {
                                    *reason = value.to_owned()
                                }
                                ("Started", "State", ObservedState::Running { started_at }) => {
                                    *started_at = Some(time(value, &what("Started"))?)
                                }
                                _ => {}
                            },
                        }
                    }
                    _ => {}
                }
            }
            "Events" if line.contains("Back-off restarting failed container") => {
                events.push(line.trim().to_owned());
            }
            _ => {}
        }
    }
    if name.is_empty() {
        return Err(format!("no `Name:` line: {HOW}"));
    }
    if containers.is_empty() {
        return Err(format!("pod {name} shows no containers: {HOW}"));
    }
    Ok((
        PodObservation {
            name,
            namespace,
            restart_policy: None,
            started_at,
            containers,
            backoff_events: events,
        },
        vec![],
    ))
}

/// A diagnosis as the command line prints it: times in RFC 3339 (UTC),
/// `null` where there is none. (serde_json: the command line is native.)
#[cfg(not(target_arch = "wasm32"))]
pub fn diagnosis_json(d: &crate::engine::pod::PodDiagnosis) -> serde_json::Value {
    use super::time::format_rfc3339;
    use serde_json::Value;
    let time = |t: Option<Epoch>| t.map_or(Value::Null, |t| Value::String(format_rfc3339(t)));
    let containers: Vec<Value> = d
        .containers
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name,
                "kind": c.kind,
                "restartCount": c.restart_count,
                "state": c.state,
                "backoffMs": c.backoff_ms,
                "curveStep": c.curve_step,
                "nextRestartAt": time(c.next_restart_at),
                "nextRestartLatestAt": time(c.next_restart_latest_at),
                "countdownMs": c.countdown_ms,
                "restartsPerHour": c.restarts_per_hour.map(|r| (r * 100.0).round() / 100.0),
                "runMs": c.run_ms,
                "exitCode": c.exit_code,
                "resetsIfRunsUntil": time(c.resets_if_runs_until),
                "verdict": c.verdict,
                "notes": c.notes,
                "alternatives": c.alternatives.iter().map(|a| serde_json::json!({
                    "label": a.label,
                    "initialMs": a.initial_ms,
                    "maxMs": a.max_ms,
                    "backoffMs": a.backoff_ms,
                    "nextRestartAt": time(a.next_restart_at),
                    "restartsNextHour": a.restarts_next_hour,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "pod": d.pod,
        "namespace": d.namespace,
        "containers": containers,
        "notes": d.notes,
    })
}
