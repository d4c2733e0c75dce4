//! `kubectl describe pod`, whole or in part (a `Containers:` or `Init
//! Containers:` section, a `State:`/`Last State:` block), as kubectl's
//! describer prints it (kubernetes/kubectl `pkg/describe/describe.go`
//! `describePod`, `describeContainers`, `describeContainerState`), from 2015's
//! tab-aligned columns and `Last Termination State:` to today's.
//!
//! Pastes lose their indentation, gain a common one, lose their first
//! character or get single spaces after each colon, so the reader follows
//! kubectl's keys rather than columns: a key opens or closes a section or a
//! state block, and indentation is used only where it is there.

use super::{real_time, Reading, Shape};
use crate::engine::field::quoted;
use crate::engine::pod::{
    ContainerKind, Epoch, ObservedContainer, ObservedState, PodObservation, Terminated,
};
use crate::formats::time::{parse_rfc1123z, parse_rfc3339};

/// The pod-level keys that open a section or describe the pod.
const POD_KEYS: &[&str] = &[
    "Name",
    "Namespace",
    "Priority",
    "Priority Class Name",
    "Runtime Class Name",
    "Service Account",
    "Node",
    "Start Time",
    "Labels",
    "Annotations",
    "Status",
    "Reason",
    "Message",
    "SeccompProfile",
    "IP",
    "IPs",
    "Controlled By",
    "Init Containers",
    "Containers",
    // Debug containers never restart: their section is left out.
    "Ephemeral Containers",
    "Conditions",
    "Volumes",
    "QoS Class",
    "Node-Selectors",
    "Tolerations",
    "Events",
    "Image(s)",
    "Replication Controllers",
    "Nominated Node Name",
    "Topology Spread Constraints",
    "Readiness Gates",
];

/// A container's own keys (`describeContainers`): each ends a state block.
const CONTAINER_KEYS: &[&str] = &[
    "Container ID",
    "Image",
    "Image ID",
    "Port",
    "Ports",
    "Host Port",
    "Host Ports",
    "Command",
    "Args",
    "Ready",
    "Restart Count",
    "Restart Policy",
    "Limits",
    "Requests",
    "Liveness",
    "Readiness",
    "Startup",
    "Environment",
    "Environment Variables from",
    "Mounts",
    "Devices",
    "SeccompProfile",
];

/// The keys that open a list of the container's own (arguments, variables,
/// mounts): lines under them are values, never a container's name.
const LIST_KEYS: &[&str] = &[
    "Command",
    "Args",
    "Limits",
    "Requests",
    "Environment",
    "Environment Variables from",
    "Mounts",
    "Devices",
];

/// Lines that only `kubectl describe` prints: how a paste is recognised.
const MARKERS: &[&str] = &[
    "Restart Count",
    "Last State",
    "Last Termination State",
    "Container ID",
    "Image ID",
    "Start Time",
    "Controlled By",
    "QoS Class",
    "Init Containers",
    "Host Port",
    // kubectl before 1.2.
    "Image(s)",
    "Replication Controllers",
];

/// `key: value`, the key trimmed; `None` for a line that is not one.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.trim().split_once(':')?;
    let k = k.trim_end();
    let plain = !k.is_empty()
        && k.len() <= 40
        && !k.starts_with(['-', '/', '"', '['])
        && k.chars().next().is_some_and(char::is_alphanumeric);
    plain.then_some((k, v.trim()))
}

fn is_state(v: &str) -> bool {
    matches!(v, "Waiting" | "Running" | "Terminated")
}

/// Whether the text is describe's: one of its own keys, or a state line.
pub fn looks_like(lines: &[&str]) -> bool {
    lines.iter().take(2_000).any(|l| {
        key_value(l).is_some_and(|(k, v)| MARKERS.contains(&k) || (k == "State" && is_state(v)))
    })
}

/// A container's name line: a DNS label with nothing after its colon.
fn is_container_name(key: &str) -> bool {
    key.len() <= 63
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && key
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Pod,
    Containers(ContainerKind),
    Events,
    Other,
}

#[derive(Clone, Copy, PartialEq)]
enum Block {
    None,
    State,
    Last,
    /// Under `Environment:` (`env`), `Args:`, `Mounts:`…
    List {
        env: bool,
    },
}

fn new_container(name: &str, kind: ContainerKind) -> ObservedContainer {
    ObservedContainer {
        name: name.to_owned(),
        kind,
        ..ObservedContainer::default()
    }
}

/// describe's times: RFC 1123 with a numeric zone; RFC 3339 from tools that
/// imitate it. Go's zero time and the 1970 epoch are no time at all.
fn time(value: &str) -> Option<Option<Epoch>> {
    let v = value.trim_end_matches("...").trim();
    // Go's zero time as describe prints it (RFC 2822 reads no year 1).
    if v.starts_with("Mon, 01 Jan 0001") {
        return Some(None);
    }
    parse_rfc1123z(v)
        .or_else(|_| parse_rfc3339(v))
        .ok()
        .map(real_time)
}

/// The pod(s) a describe paste holds (one `Name:` each).
pub fn read(lines: &[&str]) -> Result<(Shape, Vec<Reading>, Vec<String>), String> {
    let lost_indentation = lines
        .iter()
        .all(|l| l.trim().is_empty() || !l.starts_with([' ', '\t']));
    let mut pods: Vec<PodObservation> = vec![];
    let mut notes = vec![];
    let mut flattened_noted = false;
    let mut section = Section::Other;
    let mut block = Block::None;
    // The indentation of the current container's fields, where there is one.
    let mut field_indent: Option<usize> = None;
    let mut saw_name = false;
    // (pod, container, age) of each `Started` event.
    let mut started: Vec<(usize, String, crate::engine::Ms)> = vec![];
    // (pod, line) of each Events line, for the pod's failed pulls.
    let mut event_lines: Vec<(usize, &str)> = vec![];
    let mut saw_section = false;
    let new_pod = PodObservation::default;
    for (n, raw) in lines.iter().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let kv = key_value(line).map(|(k, v)| {
            // The first character lost when the paste was selected.
            // A first key lower-cased (`name:`, as some pastes of `oc
            // describe pod` begin) or its first characters lost.
            if n == 0 && k != "Name" && (k == "name" || (k.len() >= 2 && "Name".ends_with(k))) {
                ("Name", v)
            } else {
                (k, v)
            }
        });
        let in_list = matches!(block, Block::List { .. });
        let in_env = block == Block::List { env: true };
        // A pod-level key at the margin (or anywhere, when the paste lost its
        // indentation and the key is not also a container's).
        let pod_key = kv.filter(|(k, _)| {
            POD_KEYS.contains(k)
                && if lost_indentation {
                    !matches!(section, Section::Containers(_))
                        || matches!(
                            *k,
                            "Containers"
                                | "Init Containers"
                                | "Conditions"
                                | "Volumes"
                                | "Events"
                                | "QoS Class"
                        )
                        || (*k == "Name" && !in_list)
                } else {
                    indent == 0
                }
        });
        if let Some((k, v)) = pod_key {
            block = Block::None;
            field_indent = None;
            match k {
                "Name" => {
                    saw_name = true;
                    pods.push(PodObservation {
                        name: v.to_owned(),
                        ..new_pod()
                    });
                    section = Section::Pod;
                }
                "Containers" | "Init Containers" => {
                    saw_section = true;
                    section = Section::Containers(if k == "Containers" {
                        ContainerKind::Regular
                    } else {
                        ContainerKind::Init
                    });
                }
                "Events" => section = Section::Events,
                // Sections whose blocks are no container of the pod's.
                "Ephemeral Containers" | "Conditions" | "Volumes" => section = Section::Other,
                _ => {
                    section = if section == Section::Pod {
                        Section::Pod
                    } else {
                        Section::Other
                    }
                }
            }
            if pods.is_empty() {
                pods.push(new_pod());
            }
            let Some(pod) = pods.last_mut() else {
                continue;
            };
            match k {
                "Namespace" => pod.namespace = v.to_owned(),
                "Node" if v != "<none>" && !v.is_empty() => {
                    pod.node = Some(v.split('/').next().unwrap_or(v).to_owned())
                }
                "Status" if !v.is_empty() => pod.status = Some(v.to_owned()),
                "Start Time" => match time(v) {
                    Some(t) => pod.started_at = t,
                    None if !v.is_empty() => notes.push(format!(
                        "Start Time: {} is not a time kubectl prints; left out",
                        quoted(v)
                    )),
                    None => {}
                },
                _ => {}
            }
            continue;
        }
        if section == Section::Events {
            // `Normal  Started  4m53s (x5 over 9m)  kubelet  Started container app`:
            // the container's last start was that long before the output.
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.get(1) == Some(&"Started") && line.contains("Started container") {
                let name = words
                    .iter()
                    .rposition(|w| *w == "container")
                    .and_then(|i| words.get(i + 1))
                    .map(|n| n.trim_matches('"'));
                let age = words.get(2).and_then(|a| super::table::parse_age(a));
                if let (Some(age), Some(pod)) = (age, pods.len().checked_sub(1)) {
                    started.push((pod, name.unwrap_or("").to_owned(), age));
                }
            }
            if let Some(pod) = pods.len().checked_sub(1) {
                event_lines.push((pod, line));
            }
            if super::events::is_backoff(line) {
                if let Some(pod) = pods.last_mut() {
                    pod.backoff_events.push(line.trim().to_owned());
                }
            }
            continue;
        }
        let Some((k, v)) = kv else { continue };
        // A state block with no container line above it: a fragment.
        let state_key = matches!(
            k,
            "State" | "Last State" | "Last Termination State" | "Restart Count"
        );
        if !matches!(section, Section::Containers(_)) {
            // Outside a Containers section, a state block is a fragment
            // (a describe cut down to its pod and a container's state), but
            // not inside a section of other things (ephemeral containers).
            if !state_key || (section == Section::Other && (saw_name || saw_section)) {
                continue;
            }
            section = Section::Containers(ContainerKind::Regular);
            if pods.is_empty() {
                pods.push(new_pod());
            }
            let Some(pod) = pods.last_mut() else {
                continue;
            };
            pod.containers
                .push(new_container("", ContainerKind::Regular));
            field_indent = Some(indent);
        }
        let Section::Containers(kind) = section else {
            continue;
        };
        if pods.is_empty() {
            pods.push(new_pod());
        }
        let Some(pod) = pods.last_mut() else {
            continue;
        };
        let known = CONTAINER_KEYS.contains(&k)
            || matches!(
                k,
                "State"
                    | "Last State"
                    | "Last Termination State"
                    | "Reason"
                    | "Message"
                    | "Exit Code"
                    | "Signal"
                    | "Started"
                    | "Finished"
            );
        let shallower = field_indent.is_some_and(|f| indent < f);
        let opens_container = v.is_empty()
            && !known
            && is_container_name(k)
            && if lost_indentation {
                !in_env
            } else {
                field_indent.is_none() || shallower
            };
        if opens_container {
            pod.containers.push(new_container(k, kind));
            block = Block::None;
            field_indent = None;
            continue;
        }
        if pod.containers.is_empty() {
            continue;
        }
        if !known || (in_list && !lost_indentation && field_indent.is_some_and(|f| indent > f)) {
            continue;
        }
        let Some(c) = pod.containers.last_mut() else {
            continue;
        };
        let sub = matches!(
            k,
            "Reason" | "Message" | "Exit Code" | "Signal" | "Started" | "Finished"
        );
        if !sub {
            field_indent.get_or_insert(indent);
        }
        match k {
            "State" | "Last State" | "Last Termination State" => {
                let current = k == "State";
                block = if current { Block::State } else { Block::Last };
                field_indent.get_or_insert(indent);
                let st = match v {
                    "Waiting" => ObservedState::Waiting {
                        reason: String::new(),
                        message: String::new(),
                    },
                    "Running" => ObservedState::Running { started_at: None },
                    "Terminated" => ObservedState::Terminated(Terminated::default()),
                    _ => ObservedState::Unknown,
                };
                if current {
                    c.state = st;
                } else if let ObservedState::Terminated(t) = st {
                    c.last_terminated = Some(t);
                }
            }
            "Restart Count" => {
                block = Block::None;
                match v.parse::<u64>().ok().filter(|&n| n <= i32::MAX as u64) {
                    Some(n) => c.restart_count = Some(n),
                    None => notes.push(format!(
                        "{}: Restart Count {} is not a count; left out",
                        c.name,
                        quoted(v)
                    )),
                }
            }
            "Restart Policy" => {
                block = Block::None;
                if v == "Always" && c.kind == ContainerKind::Init {
                    c.kind = ContainerKind::Sidecar;
                }
            }
            _ if !sub => {
                block = if LIST_KEYS.contains(&k) && v.is_empty() {
                    Block::List {
                        env: k.starts_with("Environment"),
                    }
                } else {
                    Block::None
                };
            }
            // A sub-key deeper than the fields, or in a paste without indentation.
            _ => {
                let at_field_level = !lost_indentation && field_indent.is_some_and(|f| indent <= f);
                // A state's lines at its container's indentation (a paste
                // re-indented by hand): no container field has these names,
                // so they are the state's (`Started: True` is the container's).
                let state_lines_flattened = at_field_level
                    && matches!(block, Block::State | Block::Last)
                    && (k != "Started" || time(v).is_some());
                if at_field_level && !state_lines_flattened {
                    block = Block::None;
                    continue;
                }
                if state_lines_flattened && !flattened_noted {
                    flattened_noted = true;
                    notes.push(format!(
                        "{}: the lines under State were at its fields' indentation: read as the state's",
                        c.name
                    ));
                }
                let target: Option<&mut Terminated> = match (block, &mut c.state) {
                    (Block::State, ObservedState::Terminated(t)) => Some(t),
                    (Block::Last, _) => c.last_terminated.as_mut(),
                    _ => None,
                };
                let when = || match time(v) {
                    Some(t) => Ok(t),
                    None => Err(format!(
                        "{} {k}: {} is not a time kubectl prints; left out",
                        c.name,
                        quoted(v)
                    )),
                };
                match (k, target) {
                    ("Exit Code", Some(t)) => match v.parse() {
                        Ok(code) => t.exit_code = Some(code),
                        Err(_) => notes.push(format!(
                            "{} Exit Code: {} is not an exit code; left out",
                            c.name,
                            quoted(v)
                        )),
                    },
                    ("Reason", Some(t)) => t.reason = v.to_owned(),
                    ("Started", Some(t)) => match when() {
                        Ok(at) => t.started_at = at,
                        Err(e) => notes.push(e),
                    },
                    ("Finished", Some(t)) => match when() {
                        Ok(at) => t.finished_at = at,
                        Err(e) => notes.push(e),
                    },
                    (_, None) => match (k, block, &mut c.state) {
                        ("Reason", Block::State, ObservedState::Waiting { reason, .. }) => {
                            *reason = v.to_owned()
                        }
                        ("Message", Block::State, ObservedState::Waiting { message, .. }) => {
                            *message = v.to_owned()
                        }
                        ("Started", Block::State, ObservedState::Running { started_at }) => {
                            // `Started: True` is the container's own flag.
                            if let Some(at) = time(v) {
                                *started_at = at;
                            }
                        }
                        _ => {}
                    },
                    _ => {}
                }
            }
        }
    }
    // In pod order: one run of lines per pod.
    for run in event_lines.chunk_by(|a, b| a.0 == b.0) {
        let lines: Vec<&str> = run.iter().map(|&(_, l)| l).collect();
        if let Some(pod) = pods.get_mut(run[0].0) {
            pod.pull_failures = super::events::pull_failures(&lines);
        }
    }
    attach_event_backoff(&mut pods);
    printed_from_events(&mut pods, &started);
    pods.retain(|p| !p.containers.is_empty() || !p.name.is_empty());
    if pods.is_empty() {
        return Err(format!(
            "no container in this describe text: {}",
            super::HOW
        ));
    }
    // `kubectl describe` of several kinds at once (pods among services,
    // daemonsets, replicasets): what shows no container of its own is no
    // pod, and is left out where pods are there.
    let (others, kept): (Vec<PodObservation>, Vec<PodObservation>) =
        pods.into_iter().partition(|p| p.containers.is_empty());
    if let Some(p) = others.first().filter(|_| kept.is_empty()) {
        return Err(format!(
            "pod {} shows no containers: paste all of what `kubectl describe pod {}` prints",
            p.name, p.name
        ));
    }
    if !others.is_empty() {
        notes.push(format!(
            "{} described object(s) with no containers of their own (services, workloads, a pod cut short) left out: {}",
            others.len(),
            others.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
        ));
    }
    let pods = kept;
    let shape = if saw_name {
        Shape::Describe
    } else if saw_section {
        Shape::DescribeContainers
    } else {
        Shape::DescribeState
    };
    Ok((
        shape,
        pods.into_iter().map(Reading::Observed).collect(),
        notes,
    ))
}

/// When the output was printed: a container's last start plus the age of
/// its last `Started` event (describe prints ages, not times).
fn printed_from_events(
    pods: &mut [PodObservation],
    started: &[(usize, String, crate::engine::Ms)],
) {
    for (i, name, age) in started {
        let Some(pod) = pods.get_mut(*i) else {
            continue;
        };
        let last_start = pod
            .containers
            .iter()
            .filter(|c| name.is_empty() || c.name == *name)
            .filter_map(|c| match &c.state {
                ObservedState::Running { started_at } => *started_at,
                ObservedState::Terminated(t) => t.started_at,
                _ => c.last_terminated.as_ref().and_then(|t| t.started_at),
            })
            .max();
        if let Some(t) = last_start {
            let at = t + *age as Epoch;
            pod.printed_at = Some(pod.printed_at.map_or(at, |p| p.max(at)));
        }
    }
}

/// Old kubelets wrote the wait into the event (`Back-off 2m40s restarting
/// failed container=app …`): where the container's state carries no message,
/// the longest such wait in its events stands in for it.
fn attach_event_backoff(pods: &mut [PodObservation]) {
    for pod in pods {
        let events = pod.backoff_events.clone();
        for c in &mut pod.containers {
            let ObservedState::Waiting { message, .. } = &mut c.state else {
                continue;
            };
            if !message.is_empty() {
                continue;
            }
            let best = events
                .iter()
                .filter(|e| super::events::container_of(e).is_none_or(|n| n == c.name))
                .filter_map(|e| {
                    let m = super::events::message_of(e);
                    crate::engine::pod::message_backoff(m).map(|w| (w, m))
                })
                .max_by_key(|(w, _)| *w);
            if let Some((_, m)) = best {
                *message = m.to_owned();
            }
        }
    }
}
