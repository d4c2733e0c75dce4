//! One pod over time as `kubectl get pod -w` prints it, with its conditions,
//! a sidecar (restartable init container) under the same backoff, and the end
//! of the pod: phase, then KEP-4576's proposed PodTerminated condition once
//! the kubelet has cleaned up.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::scenario::{ExitKind, Scenario};
use super::simulate::{pod_restarts, PodRun};
use super::times::Times;

/// `kubectl` prints at most this many lines here; later ones are dropped.
pub const MAX_LINES: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sidecar {
    /// How long the sidecar runs before it crashes; unset: it never does.
    #[serde(default)]
    pub crash_after_ms: Option<Ms>,
}

/// What the kubelet does after the pod's phase is final, in order (KEP-4576).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cleanup {
    /// Volume unmount can take up to ~2 min per sync loop.
    pub unmount_volumes_ms: Ms,
    pub unregister_secrets_and_configmaps_ms: Ms,
    pub remove_cgroups_ms: Ms,
    pub release_user_namespace_ms: Ms,
}

impl Default for Cleanup {
    fn default() -> Self {
        Self {
            unmount_volumes_ms: 5_000,
            unregister_secrets_and_configmaps_ms: 100,
            remove_cgroups_ms: 1_000,
            release_user_namespace_ms: 100,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleSpec {
    #[serde(default = "pod_name")]
    pub name: String,
    #[serde(default)]
    pub sidecar: Option<Sidecar>,
    /// `kubectl delete pod` at this time.
    #[serde(default)]
    pub delete_at_ms: Option<Ms>,
    #[serde(default)]
    pub cleanup: Cleanup,
}

fn pod_name() -> String {
    "crashloop".into()
}

impl Default for LifecycleSpec {
    fn default() -> Self {
        Self {
            name: pod_name(),
            sidecar: None,
            delete_at_ms: None,
            cleanup: Cleanup::default(),
        }
    }
}

/// One line of `kubectl get pod -w`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WatchLine {
    pub at_ms: Ms,
    pub ready: String,
    pub status: String,
    /// "3 (12s ago)"
    pub restarts: String,
    pub age: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionChange {
    pub at_ms: Ms,
    #[serde(rename = "type")]
    pub type_: String,
    pub status: bool,
    /// KEP-4576's PodTerminated: a proposal, in no release.
    pub proposal: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerRuns {
    pub name: String,
    pub sidecar: bool,
    /// (start, end) of each run; the end is the exit, or the horizon.
    pub runs: Vec<(Ms, Ms)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lifecycle {
    pub name: String,
    pub lines: Vec<WatchLine>,
    pub truncated: bool,
    pub conditions: Vec<ConditionChange>,
    pub containers: Vec<ContainerRuns>,
    /// When the phase became Succeeded or Failed, and which.
    pub phase: Option<(Ms, String)>,
    /// When KEP-4576's PodTerminated would turn True.
    pub pod_terminated_at_ms: Option<Ms>,
}

/// apimachinery's `duration.HumanDuration`, as kubectl prints ages.
pub fn human_duration(ms: Ms) -> String {
    let seconds = ms / 1000;
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let (d, h) = (hours / 24, hours % 24);
    if hours < 24 * 8 && h != 0 {
        format!("{d}d{h}h")
    } else {
        format!("{d}d")
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    Exit { code0: bool },
    BackOff,
    Start,
}

struct ContainerState {
    running: bool,
    /// Waiting or terminated reason while not running.
    reason: &'static str,
    restarts: u32,
    last_finished: Option<Ms>,
}

/// A container's runs, the first from 0, cut at `end` (the pod ended or was
/// deleted), and at as many as the lines shown can use.
fn runs(restarts: &Times, run_ms: Ms, end: Ms) -> Vec<(Ms, Ms)> {
    std::iter::once(0)
        .chain(restarts.iter().take_while(|&s| s < end))
        .take(MAX_LINES)
        .map(|s| (s, (s + run_ms).min(end)))
        .collect()
}

/// The pod from creation to the horizon (or its end); `main_restarts` are
/// its restarts as the simulation made them (the charted group's first pod).
pub fn lifecycle(s: &Scenario, spec: &LifecycleSpec, main_restarts: &Times) -> Lifecycle {
    let horizon = s.horizon_ms();
    // The pod is the charted group's first pod.
    let index = s.spec().chart_group.min(s.groups().len().saturating_sub(1));
    let group = s.groups().get(index);
    let run_ms = group.map_or(0, |g| g.run_ms);
    let exit = group.map_or(ExitKind::Failed, |g| ExitKind::of_code(g.exit_code()));
    // The pod's policy, or the container's own restart rules (KEP-5307).
    let restarts_at = s.restarts(index);
    let pod_run = |run_ms: Ms, seed: u64| PodRun {
        backoff: s.backoff(),
        run_ms,
        horizon_ms: horizon,
        model: s.model(),
        requeue: s.requeue(),
        start_latency_ms: s.spec().start_latency_ms,
        seed,
    };
    let none = Times::new();
    let main_restarts = if restarts_at { main_restarts } else { &none };
    // Without restarts the pod ends when the main container exits.
    let natural_end = (!restarts_at && run_ms < horizon).then_some(run_ms);
    let deleted = spec.delete_at_ms.filter(|&d| d < horizon);
    let end = match (natural_end, deleted) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let stop = end.unwrap_or(horizon);
    let main_runs = runs(main_restarts, run_ms, stop);
    let mut containers = vec![ContainerRuns {
        name: "main".into(),
        sidecar: false,
        runs: main_runs.clone(),
    }];
    let sidecar_runs = spec.sidecar.as_ref().map(|sc| match sc.crash_after_ms {
        Some(run) => runs(
            &pod_restarts(&pod_run(run, s.spec().seed ^ 0x5eed)).0,
            run,
            stop,
        ),
        None => vec![(0, stop)],
    });
    if let Some(r) = &sidecar_runs {
        containers.push(ContainerRuns {
            name: "sidecar".into(),
            sidecar: true,
            runs: r.clone(),
        });
    }

    // Container state changes: each container's in its own order (a 0 s run
    // starts, then exits), merged by time.
    let mut changes: Vec<(Ms, Change, usize)> = vec![];
    for (c, container) in containers.iter().enumerate() {
        let runs = &container.runs;
        let code0 = c == 0 && exit == ExitKind::Succeeded;
        for (i, &(start, finish)) in runs.iter().enumerate() {
            changes.push((start, Change::Start, c));
            let exits = finish < stop || (c == 0 && natural_end == Some(finish));
            if exits {
                changes.push((finish, Change::Exit { code0 }, c));
                if let Some(&(next, _)) = runs.get(i + 1) {
                    if next > finish + 1_000 {
                        changes.push((finish + 1_000, Change::BackOff, c));
                    }
                }
            }
        }
    }
    changes.sort_by_key(|c| c.0);

    let n = containers.len();
    let mut boxes: Vec<ContainerState> = (0..n)
        .map(|_| ContainerState {
            running: false,
            reason: "ContainerCreating",
            restarts: 0,
            last_finished: None,
        })
        .collect();
    let mut lines = vec![];
    let mut conditions = vec![
        condition(0, "PodScheduled", true),
        condition(0, "PodReadyToStartContainers", true),
        condition(0, "Initialized", true),
    ];
    let mut ready_before = false;
    let line = |t: Ms, boxes: &[ContainerState], status: &str| {
        let ready = boxes.iter().filter(|b| b.running).count();
        let restarts: u32 = boxes.iter().map(|b| b.restarts).sum();
        let last = boxes.iter().filter_map(|b| b.last_finished).max();
        WatchLine {
            at_ms: t,
            ready: format!("{ready}/{}", boxes.len()),
            status: status.to_owned(),
            restarts: match (restarts, last) {
                (0, _) | (_, None) => restarts.to_string(),
                (r, Some(f)) => format!("{r} ({} ago)", human_duration(t.saturating_sub(f))),
            },
            age: human_duration(t),
        }
    };
    for (t, change, c) in changes {
        let b = &mut boxes[c];
        match change {
            Change::Start => {
                if b.last_finished.is_some() {
                    b.restarts += 1;
                }
                b.running = true;
            }
            Change::Exit { code0 } => {
                b.running = false;
                b.reason = if code0 { "Completed" } else { "Error" };
                b.last_finished = Some(t);
            }
            Change::BackOff => b.reason = "CrashLoopBackOff",
        }
        // kubectl shows the main container's state (sidecars count in READY and RESTARTS).
        let status = if boxes[0].running {
            "Running"
        } else {
            boxes[0].reason
        };
        lines.push(line(t, &boxes, status));
        let ready = boxes.iter().all(|b| b.running);
        if ready != ready_before {
            conditions.push(condition(t, "ContainersReady", ready));
            conditions.push(condition(t, "Ready", ready));
            ready_before = ready;
        }
    }

    let mut phase = None;
    let mut pod_terminated_at_ms = None;
    if let Some(end) = end {
        let by_delete = deleted == Some(end) && natural_end != Some(end);
        if by_delete {
            for b in boxes.iter_mut() {
                b.running = false;
            }
            lines.push(line(end, &boxes, "Terminating"));
            if ready_before {
                conditions.push(condition(end, "ContainersReady", false));
                conditions.push(condition(end, "Ready", false));
            }
        } else if boxes.len() > 1 {
            // Sidecars are stopped once the main containers have finished.
            boxes[1].running = false;
            lines.push(line(end, &boxes, boxes[0].reason));
        }
        let succeeded = !by_delete && exit == ExitKind::Succeeded;
        let name = if succeeded { "Succeeded" } else { "Failed" };
        phase = Some((end, name.to_owned()));
        let c = spec.cleanup;
        let done = end
            + c.unmount_volumes_ms
            + c.unregister_secrets_and_configmaps_ms
            + c.remove_cgroups_ms
            + c.release_user_namespace_ms;
        if done < horizon {
            pod_terminated_at_ms = Some(done);
            conditions.push(ConditionChange {
                at_ms: done,
                type_: "PodTerminated".into(),
                status: true,
                proposal: true,
            });
        }
    }
    conditions.sort_by_key(|c| c.at_ms);
    let conditions = coalesce(conditions);
    let truncated = lines.len() > MAX_LINES;
    lines.truncate(MAX_LINES);
    Lifecycle {
        name: spec.name.clone(),
        lines,
        truncated,
        conditions,
        containers,
        phase,
        pod_terminated_at_ms,
    }
}

fn condition(at_ms: Ms, type_: &str, status: bool) -> ConditionChange {
    ConditionChange {
        at_ms,
        type_: type_.into(),
        status,
        proposal: false,
    }
}

/// Within one instant only a condition's last value shows, and a value equal
/// to the one before is no change.
fn coalesce(conditions: Vec<ConditionChange>) -> Vec<ConditionChange> {
    let mut out: Vec<ConditionChange> = vec![];
    for c in conditions {
        if let Some(i) = out.iter().rposition(|o| o.type_ == c.type_) {
            if out[i].at_ms == c.at_ms {
                out.remove(i);
            }
        }
        let before = out
            .iter()
            .rev()
            .find(|o| o.type_ == c.type_)
            .map(|o| o.status);
        if before != Some(c.status) {
            out.push(c);
        }
    }
    out
}
