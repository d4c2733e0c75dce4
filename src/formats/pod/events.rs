//! The kubelet's back-off events, from `kubectl get events` or describe's
//! `Events:` table. Since 1.27 the kubelet words them `Back-off restarting
//! failed container X in pod Y_NS(UID)` without the wait
//! (kubernetes/kubernetes `pkg/kubelet/kuberuntime/kuberuntime_manager.go`
//! `doBackOff`); older kubelets wrote `Back-off 2m40s restarting failed
//! container=X pod=Y_NS(UID)`, whose wait is the curve's step. The image
//! pull backoff's `Back-off pulling image` events, with the `Failed to pull
//! image` events' count, give the next pull.

use super::{Reading, Shape, HOW};
use crate::engine::pod::{ObservedContainer, ObservedState, PodObservation, PullFailures};

/// The kubelet's words, and before the container runtime interface (1.5's
/// `pkg/kubelet/dockertools/docker_manager.go`, whose event names no
/// container: the row's `spec.containers{X}` does) its Docker runtime's.
const PHRASES: [&str; 2] = [
    "restarting failed container",
    "restarting failed docker container",
];
/// The image pull backoff's event (kubernetes/kubernetes
/// `pkg/kubelet/images/image_manager.go`: `Back-off pulling image "X"`).
const PULL_PHRASE: &str = "back-off pulling image";

/// Whether a line is a CrashLoopBackOff event.
pub fn is_backoff(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("back-off") && PHRASES.iter().any(|p| lower.contains(p))
}

/// Whether a line is an image pull backoff event.
pub fn is_pull_backoff(line: &str) -> bool {
    line.to_ascii_lowercase().contains(PULL_PHRASE)
}

/// The event's message: from its `Back-off` on.
pub fn message_of(line: &str) -> &str {
    let at = line
        .find("Back-off")
        .or_else(|| line.find("back-off"))
        .unwrap_or(0);
    line[at..].trim()
}

fn word_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let rest = &line[line.find(marker)? + marker.len()..];
    rest.split_whitespace().next()
}

/// The container an event names: `container X in pod` or `container=X`.
pub fn container_of(line: &str) -> Option<&str> {
    word_after(line, "container=")
        .or_else(|| word_after(line, "failed container ").filter(|w| !w.starts_with("container=")))
        // The SUBOBJECT column (old `kubectl get events`, describe's
        // SubobjectPath, `-o wide`): `spec.containers{app}`, or an init
        // container's `spec.initContainers{init}`.
        .or_else(|| {
            ["spec.containers{", "spec.initContainers{"]
                .iter()
                .find_map(|path| Some(&line[line.find(path)? + path.len()..]))?
                .split('}')
                .next()
        })
}

/// What `Failed to pull image` events say: the most failed pulls one
/// counts (`7s (x21 over 154m)`: 21) and the newest one's age (`7s`).
pub fn pull_failures(lines: &[&str]) -> Option<PullFailures> {
    let mut found: Option<PullFailures> = None;
    for line in lines.iter().filter(|l| l.contains("Failed to pull image")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| w.starts_with("(x"));
        let count = at
            .and_then(|i| words[i].trim_start_matches("(x").parse::<u64>().ok())
            .unwrap_or(1);
        // The age is the word before the count, or describe's third (Type,
        // Reason, Age), or `kubectl get events`' first (LAST SEEN).
        let age = at
            .and_then(|i| i.checked_sub(1))
            .into_iter()
            .chain([2, 0])
            .find_map(|i| words.get(i).and_then(|w| super::table::parse_age(w)));
        let f = found.get_or_insert(PullFailures {
            count: 0,
            last_ago_ms: None,
        });
        f.count = f.count.max(count);
        f.last_ago_ms = match (f.last_ago_ms, age) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    found
}

/// `NAME_NAMESPACE(UID)` as the kubelet writes a pod, split.
fn pod_of(line: &str) -> Option<(String, String)> {
    let Some(full) = word_after(line, " in pod ").or_else(|| word_after(line, "pod=")) else {
        // `kubectl get events`' OBJECT column: `pod/NAME`; before 1.14 its
        // NAME and KIND columns: `web-0.15a2b3c4d5e6f7a8   Pod`.
        let words: Vec<&str> = line.split_whitespace().collect();
        let name = words
            .iter()
            .find_map(|w| w.strip_prefix("pod/"))
            .or_else(|| {
                let at = words.iter().position(|w| *w == "Pod")?;
                let event = words.get(at.checked_sub(1)?)?;
                Some(match event.rsplit_once('.') {
                    Some((pod, id))
                        if !id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit()) =>
                    {
                        pod
                    }
                    _ => event,
                })
            })?;
        return Some((name.to_owned(), String::new()));
    };
    let full = full.split('(').next().unwrap_or(full);
    // Pod names have no `_`; the namespace follows the last one.
    let (name, ns) = full.rsplit_once('_').unwrap_or((full, ""));
    Some((name.to_owned(), ns.to_owned()))
}

/// Each pod's looping containers, as the events show them.
pub fn read(lines: &[&str]) -> Result<(Shape, Vec<Reading>, Vec<String>), String> {
    let mut pods: Vec<PodObservation> = vec![];
    let mut seen: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    for line in lines.iter().filter(|l| is_backoff(l) || is_pull_backoff(l)) {
        let reason = if is_backoff(line) {
            "CrashLoopBackOff"
        } else {
            "ImagePullBackOff"
        };
        let (name, namespace) = pod_of(line).unwrap_or_default();
        let container = container_of(line).unwrap_or("").to_owned();
        let message = message_of(line).to_owned();
        // Each pod's place in `pods`: a cluster's events name thousands.
        let at = match seen.get(&(name.clone(), namespace.clone())) {
            Some(&i) => i,
            None => {
                seen.insert((name.clone(), namespace.clone()), pods.len());
                pods.push(PodObservation {
                    name,
                    namespace,
                    ..PodObservation::default()
                });
                pods.len() - 1
            }
        };
        let pod = &mut pods[at];
        pod.backoff_events.push(line.trim().to_owned());
        let wait = crate::engine::pod::message_backoff(&message);
        let same = |c: &&mut ObservedContainer| {
            c.name == container
                && matches!(&c.state, ObservedState::Waiting { reason: r, .. } if r == reason)
        };
        match pod.containers.iter_mut().find(same) {
            // The longest wait seen is the furthest step of the curve.
            Some(c) => {
                if let ObservedState::Waiting { message: m, .. } = &mut c.state {
                    if wait > crate::engine::pod::message_backoff(m) {
                        *m = message;
                    }
                }
            }
            None => pod.containers.push(ObservedContainer {
                name: container,
                state: ObservedState::Waiting {
                    reason: reason.into(),
                    message,
                },
                ..ObservedContainer::default()
            }),
        }
    }
    // An event that names neither pod nor container adds nothing beside one that does.
    if pods.iter().any(|p| !p.name.is_empty()) {
        pods.retain(|p| !p.name.is_empty() || p.containers.iter().any(|c| !c.name.is_empty()));
    }
    if pods.is_empty() {
        return Err(format!("no back-off event in this text: {HOW}"));
    }
    // Each pod's failed pulls: the lines that name it, or every line where
    // none names a pod (describe's Events table). Grouped once: a cluster's
    // events name thousands of pods.
    let mut failed: std::collections::HashMap<(String, String), Vec<&str>> =
        std::collections::HashMap::new();
    for &line in lines.iter().filter(|l| l.contains("Failed to pull image")) {
        failed
            .entry(pod_of(line).unwrap_or_default())
            .or_default()
            .push(line);
    }
    for pod in pods.iter_mut().filter(|p| {
        p.containers.iter().any(
            |c| matches!(&c.state, ObservedState::Waiting { reason, .. } if reason == "ImagePullBackOff"),
        )
    }) {
        pod.pull_failures = if pod.name.is_empty() {
            pull_failures(lines)
        } else {
            failed
                .get(&(pod.name.clone(), pod.namespace.clone()))
                .and_then(|own| pull_failures(own))
        };
    }
    // describe's Events section names no pod on its back-off lines; the
    // scheduler's `Successfully assigned NS/NAME to NODE` does, where there
    // is one pod to name.
    let assigned: Vec<(&str, &str)> = lines
        .iter()
        .filter_map(|l| {
            let rest = &l[l.find("Successfully assigned ")? + "Successfully assigned ".len()..];
            let who = rest.split_whitespace().next()?;
            Some(who.split_once('/').unwrap_or(("", who)))
        })
        .collect();
    if let ([(ns, name)], [pod]) = (assigned.as_slice(), pods.as_mut_slice()) {
        if pod.name.is_empty() {
            pod.name = (*name).to_owned();
            pod.namespace = (*ns).to_owned();
        }
    }
    let notes = vec![
        "events carry no restart count and no exit time: `kubectl get pod NAME -o yaml` gives both"
            .to_owned(),
    ];
    Ok((
        Shape::Events,
        pods.into_iter().map(Reading::Observed).collect(),
        notes,
    ))
}
