//! A real pod, as kubectl showed it, and where each container stands on the
//! CrashLoopBackOff curve: the backoff now, when it restarts next, whether
//! the next run resets the curve, and what other configurations would do.
//!
//! Times here are wall-clock milliseconds since the Unix epoch (the pod's
//! timestamps); "now" is passed in. The kubelet's rules are those of
//! `simulate` (kuberuntime_manager.go `doBackOff`, client-go `Backoff`, the
//! housekeeping GC), applied from the pod's last restart.

use serde::{Deserialize, Serialize};

use super::backoff::{Backoff, ExpiryRule, Ms};
use super::config::{
    resolve, ConfigError, EffectiveBackoff, KubeletConfig, KubeletVersion, Semantics, FLAT_RESET_MS,
};
use super::duration::{
    format_go_duration_ms, format_human_ms, format_span_ms, parse_go_duration, NANOS_PER_MS,
};
use super::restart_rules::{ContainerRestart, Verdict};
use super::rng::SplitMix64;
use super::scenario::{Requeue, RestartPolicy};
use super::simulate::{gc_time, next_start, MAX_REQUEUE_MS, PERIODIC_RECHECK_MS};
use super::waiting::{self, Rhythm};

/// Wall-clock milliseconds since the Unix epoch.
pub type Epoch = i64;

/// Where a container sits in its pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ContainerKind {
    #[default]
    Regular,
    /// An init container that runs to completion before the others.
    Init,
    /// A restartable init container (`restartPolicy: Always`).
    Sidecar,
}

impl ContainerKind {
    /// Its name as the JSON spells it, and as the pod reader labels it.
    pub fn name(self) -> &'static str {
        match self {
            ContainerKind::Regular => "regular",
            ContainerKind::Init => "init",
            ContainerKind::Sidecar => "sidecar",
        }
    }
}

/// A container's end, from `state.terminated` or `lastState.terminated`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Terminated {
    /// `None` where the output does not show it (`describe | grep State`).
    pub exit_code: Option<i32>,
    pub reason: String,
    pub started_at: Option<Epoch>,
    pub finished_at: Option<Epoch>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ObservedState {
    /// `state.waiting`: its reason (`CrashLoopBackOff`) and the kubelet's message.
    Waiting {
        reason: String,
        message: String,
    },
    Running {
        started_at: Option<Epoch>,
    },
    Terminated(Terminated),
    /// No state reported yet.
    #[default]
    Unknown,
}

/// One container of the pod, validated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObservedContainer {
    pub name: String,
    pub kind: ContainerKind,
    /// Its own restart settings (KEP-5307); empty when it follows the pod.
    pub restart: ContainerRestart,
    /// The same as the spec spells them, to explore them.
    pub own_policy: Option<RestartPolicy>,
    pub rules: Vec<super::restart_rules::ContainerRestartRule>,
    /// `None` where the output does not say (an event line).
    pub restart_count: Option<u64>,
    pub state: ObservedState,
    pub last_terminated: Option<Terminated>,
}

/// The pod, as read from kubectl's output.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PodObservation {
    /// Empty where the output does not say (a pasted fragment).
    pub name: String,
    pub namespace: String,
    /// `spec.nodeName` or describe's `Node:`.
    pub node: Option<String>,
    /// `status.phase` (with its `reason`), or describe's `Status:`.
    pub status: Option<String>,
    /// `None` where the output does not say (`kubectl describe`): Always assumed.
    pub restart_policy: Option<RestartPolicy>,
    /// `status.startTime`, else the creation time.
    pub started_at: Option<Epoch>,
    pub containers: Vec<ObservedContainer>,
    /// `Back-off restarting failed container` events, as printed.
    pub backoff_events: Vec<String>,
    /// `Failed to pull image` events, where the output shows them.
    pub pull_failures: Option<PullFailures>,
    /// When the output was printed, where its events' ages tell (a
    /// container's last start plus its `Started` event's age).
    pub printed_at: Option<Epoch>,
}

/// What the events tell of an image's failed pulls: how many (the event's
/// count, `x7`) and how long before the output the last one was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PullFailures {
    pub count: u64,
    pub last_ago_ms: Option<Ms>,
}

/// One row of the "what would change" table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Alternative {
    pub label: String,
    pub initial_ms: Ms,
    pub max_ms: Ms,
    pub backoff_ms: Ms,
    pub next_restart_at: Option<Epoch>,
    pub restarts_next_hour: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerDiagnosis {
    /// Empty for a `kubectl get pods` row, which sums the pod's containers.
    pub name: String,
    pub kind: ContainerKind,
    pub restart_count: Option<u64>,
    /// Worked out from a summary (a table row): bounds, not the kubelet's times.
    pub estimated: bool,
    /// `CrashLoopBackOff`, `Running`, `Completed`, `Error`…
    pub state: String,
    /// The wait before the next restart, from the kubelet's message when it
    /// gives one, else from the configuration.
    pub backoff_ms: Option<Ms>,
    /// The kubelet's own figure (the waiting message), when there is one.
    pub message_backoff_ms: Option<Ms>,
    /// Which wait of the curve this is (1 is the initial backoff).
    pub curve_step: Option<u32>,
    pub next_restart_at: Option<Epoch>,
    /// The latest the pod worker may act, with this version's requeue timing.
    pub next_restart_latest_at: Option<Epoch>,
    pub countdown_ms: Option<i64>,
    /// Restarts in the hour from "now" under the assumed configuration (the
    /// waits still growing to the cap, the GC, the reset), as the first row
    /// of `alternatives` has it: one figure, not a cadence beside it.
    pub restarts_next_hour: Option<u64>,
    /// The last run: `finishedAt − startedAt`.
    pub run_ms: Option<Ms>,
    pub exit_code: Option<i32>,
    /// The last termination's reason as the kubelet set it (`Error`,
    /// `OOMKilled`, `Completed`, `StartError`…), where the output shows it.
    pub exit_reason: Option<String>,
    /// Running past this moment makes the next exit start the curve over.
    pub resets_if_runs_until: Option<Epoch>,
    /// Whether the last run's length would reset the curve if repeated.
    pub run_resets_curve: bool,
    /// The restart policy's answer for the last exit.
    pub verdict: String,
    pub notes: Vec<String>,
    pub alternatives: Vec<Alternative>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDiagnosis {
    pub pod: String,
    pub namespace: String,
    pub node: Option<String>,
    pub status: Option<String>,
    /// How old the pod is at "now".
    pub age_ms: Option<Ms>,
    pub containers: Vec<ContainerDiagnosis>,
    pub notes: Vec<String>,
}

/// The configuration the diagnosis assumes for the node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeAssumption {
    pub backoff: EffectiveBackoff,
    pub version: KubeletVersion,
    pub label: String,
}

impl NodeAssumption {
    /// A kubelet of `version` on its shipped defaults (`config` `None`: every
    /// gate at the version's default, no `crashLoopBackOff` field), or with
    /// `config`, said as `whose` ("as configured above", "with this
    /// configuration"). The pod does not carry its node's configuration, so
    /// the defaults are what a diagnosis assumes unless a user chooses.
    pub fn new(
        version: KubeletVersion,
        config: Option<&KubeletConfig>,
        whose: &str,
    ) -> Result<Self, ConfigError> {
        let backoff = resolve(&KubeletConfig {
            semantics: Some(Semantics::Kubelet),
            kubelet_version: Some(version),
            ..config.cloned().unwrap_or_default()
        })?;
        let curve = format!(
            "{} / {}",
            format_human_ms(backoff.initial_ms),
            format_human_ms(backoff.max_ms)
        );
        let label = match config {
            None => format!("kubelet {}'s shipped defaults ({curve})", version.name()),
            Some(_) => format!("kubelet {} {whose} ({curve})", version.name()),
        };
        Ok(Self {
            backoff,
            version,
            label,
        })
    }
}

/// The wait the kubelet's message states: `back-off 2m40s restarting failed
/// container=app pod=web-0_default(…)`.
pub fn message_backoff(message: &str) -> Option<Ms> {
    const MARK: &str = "back-off ";
    // Old events say `Back-off 40s`; lowercasing keeps byte offsets.
    let at = message.to_ascii_lowercase().find(MARK)? + MARK.len();
    let word = message[at..].split_whitespace().next()?;
    let ns = parse_go_duration(word).ok()?;
    (ns >= 0).then_some((ns / NANOS_PER_MS) as Ms)
}

/// The wait after `restarts` restarts without a reset: none before the first
/// restart (no entry yet), then initial, doubling, capped.
pub fn curve_wait(initial: Ms, max: Ms, restarts: u64) -> Ms {
    if restarts == 0 {
        return 0;
    }
    let shift = (restarts - 1).min(40) as u32;
    initial.saturating_mul(1u64 << shift.min(62)).min(max)
}

/// The smallest step `k ≥ 1` at which the curve waits `wait`.
pub fn step_of(initial: Ms, max: Ms, wait: Ms) -> Option<u32> {
    (1..=64u32).find(|&k| curve_wait(initial, max, u64::from(k)) == wait)
}

const HOUR_MS: Epoch = 3_600_000;

/// Restarts in `[now, now + 1 h)` from a container that exited at `exit`,
/// last restarted at `last_restart` with `wait` as its entry, running `run`
/// each time: the kubelet's rules (first restart at once after a reset, the
/// GC), restarts at expiry.
fn restarts_next_hour(
    initial: Ms,
    max: Ms,
    wait: Ms,
    last_restart: Epoch,
    exit: Epoch,
    run: Ms,
    now: Epoch,
) -> (Option<Epoch>, u64) {
    // Relative times keep the engine's unsigned clock.
    let origin = last_restart.min(exit).min(now);
    let rel = |t: Epoch| (t - origin).max(0) as Ms;
    let mut b = Backoff::<()>::new(initial, max, 0.0, ExpiryRule::After(FLAT_RESET_MS));
    b.store(&(), wait, rel(last_restart));
    let mut rng = SplitMix64::new(0);
    let (end, mut count, mut exit_at, mut first) = (rel(now + HOUR_MS), 0, rel(exit), None);
    let mut last: Option<(Ms, Ms)> = None;
    for _ in 0..100_000 {
        let mut start = next_start(
            &mut b,
            Semantics::Kubelet,
            Requeue::Ideal,
            exit_at,
            &mut rng,
        )
        .at;
        // Two equal cycles are the steady state: an output hours or years
        // behind "now" is carried to just before it in one step.
        if let Some((prev, cycle)) = last {
            if start - prev == cycle && cycle > 0 && start + 2 * cycle < rel(now) {
                let skip = (rel(now) - start) / cycle - 1;
                start += skip * cycle;
                let wait = b.get(&());
                b.store(&(), wait, start);
            }
        }
        if start >= end {
            break;
        }
        first.get_or_insert(start);
        if start >= rel(now) {
            count += 1;
        }
        last = Some((start, last.map_or(0, |(p, _)| start - p)));
        exit_at = start + run.max(1);
    }
    (first.map(|t| origin + t as Epoch), count)
}

/// How late the pod worker may act after the wait ends: 1.35+ requeues at
/// the expiry clamped to a minute and jittered up to 1.5× (up to half the
/// last interval, ≤ 30 s); before, it rechecked every 10-15 s.
pub(crate) fn requeue_lag(version: KubeletVersion, wait: Ms) -> Ms {
    if version.requeues_at_expiry() {
        wait.min(MAX_REQUEUE_MS) / 2
    } else {
        PERIODIC_RECHECK_MS * 3 / 2
    }
}

fn state_word(c: &ObservedContainer) -> String {
    match &c.state {
        ObservedState::Waiting { reason, .. } if !reason.is_empty() => reason.clone(),
        ObservedState::Waiting { .. } => "Waiting".into(),
        ObservedState::Running { .. } => "Running".into(),
        ObservedState::Terminated(t) if !t.reason.is_empty() => t.reason.clone(),
        ObservedState::Terminated(t) if t.exit_code == Some(0) => "Completed".into(),
        ObservedState::Terminated(t) if t.exit_code.is_none() => "Terminated".into(),
        ObservedState::Terminated(_) => "Error".into(),
        ObservedState::Unknown => "Unknown".into(),
    }
}

/// An exit as kubectl's reader would say it: the code with the kubelet's
/// reason beside it where the output shows one ("137 (OOMKilled)").
pub fn exit_words(code: i32, reason: &str) -> String {
    if reason.is_empty() {
        code.to_string()
    } else {
        format!("{code} ({reason})")
    }
}

/// The other configurations people ask about, with the chosen one first.
fn alternatives(chosen: &NodeAssumption) -> Vec<(String, Ms, Ms)> {
    let b = &chosen.backoff;
    let mut out = vec![(chosen.label.clone(), b.initial_ms, b.max_ms)];
    for (label, i, m) in [
        ("10 s / 5 min: today's default", 10_000, 300_000),
        (
            "1 s / 1 min: ReduceDefaultCrashLoopBackOffDecay and a 60s max",
            1_000,
            60_000,
        ),
        (
            "1 s / 5 min: ReduceDefaultCrashLoopBackOffDecay alone (1.35+)",
            1_000,
            300_000,
        ),
        ("10 s / 30 s: maxContainerRestartPeriod 30s", 10_000, 30_000),
        (
            "10 s / 1 min: maxContainerRestartPeriod 60s",
            10_000,
            60_000,
        ),
        (
            "10 s / 2 min: maxContainerRestartPeriod 2m",
            10_000,
            120_000,
        ),
    ] {
        if (i, m) != (b.initial_ms, b.max_ms) {
            out.push((label.to_owned(), i, m));
        }
    }
    out
}

/// What the curve tells of a message's wait that the chosen configuration
/// does not give: which configurations fit it.
fn fits(wait: Ms, restarts: u64, chosen: &EffectiveBackoff) -> Vec<String> {
    let mut out = vec![];
    let uncapped = curve_wait(chosen.initial_ms, Ms::MAX, restarts);
    if wait < uncapped && (1_000..=300_000).contains(&wait) {
        out.push(format!(
            "a maximum of {} fits (crashLoopBackOff.maxContainerRestartPeriod: {}, KubeletCrashLoopBackOffMax on)",
            format_go_duration_ms(wait),
            format_go_duration_ms(wait)
        ));
    }
    if curve_wait(1_000, 300_000, restarts) == wait || curve_wait(1_000, 60_000, restarts) == wait {
        out.push("a 1 s initial fits (ReduceDefaultCrashLoopBackOffDecay on)".into());
    }
    if let Some(k) =
        step_of(chosen.initial_ms, chosen.max_ms, wait).filter(|&k| u64::from(k) < restarts)
    {
        out.push(format!(
            "the chosen curve at its step {k}, not {restarts}: the curve started over since (a run over 10 min, the backoff GC, a changed container spec or a kubelet restart), while restartCount kept counting"
        ));
    }
    out
}

/// Where the container stands, and what comes next.
fn diagnose_container(
    pod: &PodObservation,
    c: &ObservedContainer,
    node: &NodeAssumption,
    now: Epoch,
) -> ContainerDiagnosis {
    let b = &node.backoff;
    let mut notes = vec![];
    let pod_policy = match c.kind {
        ContainerKind::Sidecar => RestartPolicy::Always,
        // Init containers of an Always pod restart on failure.
        ContainerKind::Init if pod.restart_policy != Some(RestartPolicy::Never) => {
            RestartPolicy::OnFailure
        }
        _ => pod.restart_policy.unwrap_or_default(),
    };
    let last = match &c.state {
        ObservedState::Terminated(t) => Some(t.clone()),
        _ => c.last_terminated.clone(),
    };
    let run_ms = last
        .as_ref()
        .and_then(|t| Some((t.finished_at? - t.started_at?).max(0) as Ms));
    let exit_code = last.as_ref().and_then(|t| t.exit_code);
    let verdict = exit_code.map(|code| c.restart.after_exit(pod_policy, code));
    let verdict_text = match (exit_code, verdict) {
        (Some(code), Some(v)) => format!(
            "exit {}: {}",
            exit_words(code, last.as_ref().map_or("", |t| t.reason.as_str())),
            v.describe(c.restart.policy(pod_policy))
        ),
        _ if last.is_some() => "the output shows no exit code".to_owned(),
        _ => "no exit yet".to_owned(),
    };
    let message = match &c.state {
        ObservedState::Waiting { message, .. } => message_backoff(message),
        _ => None,
    };
    let restarts_seen = c.restart_count.unwrap_or(0);
    let waiting_reason = match &c.state {
        ObservedState::Waiting { reason, .. } => Some(reason.as_str()),
        _ => None,
    };
    let rhythm = waiting_reason.and_then(waiting::rhythm);
    // The next image pull, where the events say when the last one failed.
    let mut pull_at: Option<Epoch> = None;
    if let Some((r, meaning)) = rhythm.filter(|(r, _)| *r != Rhythm::CrashLoop) {
        notes.push(format!("{}: {meaning}", waiting_reason.unwrap_or_default()));
        if r == Rhythm::ImagePull {
            match pod.pull_failures {
                Some(f) => {
                    let wait = waiting::image_pull_wait(f.count);
                    notes.push(format!(
                        "{} failed pulls in the events: the next pull waits {} after the last failed one",
                        f.count,
                        format_go_duration_ms(wait)
                    ));
                    pull_at = f.last_ago_ms.map(|ago| now - ago as Epoch + wait as Epoch);
                }
                None => notes.push(format!(
                    "the pod's status does not count failed pulls: the next pull is at most {} after the last failed one (the Failed events' count gives the step)",
                    format_go_duration_ms(waiting::IMAGE_BACKOFF_MAX_MS)
                )),
            }
        }
    }
    let configured = curve_wait(b.initial_ms, b.max_ms, restarts_seen);
    let in_backoff =
        matches!(&c.state, ObservedState::Waiting { reason, .. } if reason == "CrashLoopBackOff");
    let other_rhythm = rhythm.is_some_and(|(r, _)| r != Rhythm::CrashLoop);
    let backoff_ms = message.or(((restarts_seen > 0 && !other_rhythm) || in_backoff)
        .then_some(configured)
        .filter(|_| c.restart_count.is_some()));
    if let Some(m) = message.filter(|&m| m != configured && c.restart_count.is_some()) {
        notes.push(format!(
            "the kubelet says back-off {} but {} gives {} at restartCount {}: the kubelet's figure is used",
            format_go_duration_ms(m),
            node.label,
            format_go_duration_ms(configured),
            restarts_seen
        ));
        notes.extend(fits(m, restarts_seen, b));
    }
    let curve_step = backoff_ms.and_then(|w| step_of(b.initial_ms, b.max_ms, w));
    let restarts = verdict.is_some_and(Verdict::restarts);
    let finished = last.as_ref().and_then(|t| t.finished_at);
    let last_restart = last.as_ref().and_then(|t| t.started_at);
    let mut next = None;
    let mut latest = None;
    let mut resets_until = None;
    match (&c.state, restarts, finished, backoff_ms) {
        (ObservedState::Running { started_at }, _, _, _) => {
            resets_until = started_at.map(|s| s + b.reset_after_ms as Epoch);
            notes.push(match resets_until {
                Some(t) if t <= now => "running past the reset moment: if it exits, it restarts at once on a fresh curve".into(),
                Some(_) => "running: if it stays up past the reset moment, its next exit restarts at once on a fresh curve".into(),
                None => "running".into(),
            });
        }
        (_, false, _, _) if verdict.is_some() => {
            notes.push("it will not restart: the restart policy keeps it down".into());
        }
        (_, true, Some(done), Some(wait)) => {
            let mut at = done + wait as Epoch;
            let mut lag = requeue_lag(node.version, wait);
            // The housekeeping GC drops the entry 600 s after the last restart.
            // (Housekeeping passes are taken on whole 2 s of the clock.)
            if let Some(gc) =
                last_restart.map(|s| gc_time(s.max(0) as Ms, b.reset_after_ms) as Epoch)
            {
                if gc < at {
                    notes.push(format!(
                        "the backoff GC drops the entry {} after the last restart, before the {} wait ends: it restarts then, on a fresh curve",
                        format_go_duration_ms(b.reset_after_ms),
                        format_go_duration_ms(wait)
                    ));
                    at = gc;
                    lag = MAX_REQUEUE_MS / 2;
                }
            }
            next = Some(at);
            latest = Some(at + lag as Epoch);
            resets_until = Some(at + FLAT_RESET_MS as Epoch);
        }
        _ => {}
    }
    if !in_backoff && next.is_some() {
        notes.push(format!(
            "state {}: not in CrashLoopBackOff right now",
            state_word(c)
        ));
    }
    let run_resets_curve = run_ms.is_some_and(|r| r > b.reset_after_ms);
    if run_resets_curve {
        notes.push(
            "its runs last longer than the reset threshold: each exit restarts at once".into(),
        );
    }
    let alternatives: Vec<Alternative> = match (finished, last_restart, restarts) {
        (Some(done), Some(started), true) => alternatives(node)
            .into_iter()
            .map(|(label, i, m)| {
                let wait = curve_wait(i.min(m), m, restarts_seen.max(1));
                let (first, n) =
                    restarts_next_hour(i.min(m), m, wait, started, done, run_ms.unwrap_or(0), now);
                Alternative {
                    label,
                    initial_ms: i.min(m),
                    max_ms: m,
                    backoff_ms: wait,
                    next_restart_at: first,
                    restarts_next_hour: n,
                }
            })
            .collect(),
        _ => vec![],
    };
    let restarts_next_hour = alternatives.first().map(|a| a.restarts_next_hour);
    if let Some(at) = pull_at.filter(|_| next.is_none()) {
        next = Some(at);
        notes.push("the next pull is worked out from the events' ages, taken as printed at the moment of the diagnosis: an estimate".into());
    }
    ContainerDiagnosis {
        name: c.name.clone(),
        kind: c.kind,
        restart_count: c.restart_count,
        estimated: pull_at.is_some(),
        state: state_word(c),
        backoff_ms,
        message_backoff_ms: message,
        curve_step,
        next_restart_at: next,
        next_restart_latest_at: latest,
        countdown_ms: next.map(|t| t - now),
        restarts_next_hour,
        run_ms,
        exit_code,
        exit_reason: last
            .as_ref()
            .map(|t| t.reason.clone())
            .filter(|r| !r.is_empty()),
        resets_if_runs_until: resets_until,
        run_resets_curve,
        verdict: verdict_text,
        notes,
        alternatives,
    }
}

/// Each container of the pod, diagnosed under the node's assumed
/// configuration at `now`.
pub fn diagnose(pod: &PodObservation, node: &NodeAssumption, now: Epoch) -> PodDiagnosis {
    let mut notes = vec![];
    if pod.restart_policy.is_none() {
        notes.push("the output does not show the pod's restartPolicy: Always assumed".into());
    }
    if !pod.backoff_events.is_empty() {
        notes.push(format!(
            "{} Back-off event line(s): the kubelet found a container still in backoff at each",
            pod.backoff_events.len()
        ));
    }
    PodDiagnosis {
        pod: pod.name.clone(),
        namespace: pod.namespace.clone(),
        node: pod.node.clone(),
        status: pod.status.clone(),
        age_ms: pod.started_at.map(|s| (now - s).max(0) as Ms),
        containers: pod
            .containers
            .iter()
            .map(|c| diagnose_container(pod, c, node, now))
            .collect(),
        notes,
    }
}

/// One row of `kubectl get pods`: a summary of the pod, without times.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PodRow {
    pub name: String,
    pub namespace: Option<String>,
    /// `-o wide`'s NODE.
    pub node: Option<String>,
    /// READY: ready containers of all.
    pub ready: Option<(u32, u32)>,
    /// STATUS as kubectl's printer words it (`CrashLoopBackOff`, `Init:0/1`).
    pub status: String,
    /// RESTARTS: the pod's containers' restarts, summed by kubectl; `None`
    /// where the row was cut before it.
    pub restarts: Option<u64>,
    /// `16 (102s ago)`: the last restart, before the table was printed.
    pub last_restart_ago_ms: Option<Ms>,
    pub age_ms: Option<Ms>,
}

/// What a table row allows: the step of the curve its restart count implies
/// (if the curve has not reset since), and, where RESTARTS says how long ago
/// the last restart was, the window the next restart falls in: the container
/// exited somewhere between its last restart and the moment the table was
/// printed (`printed_at`), and waits the curve's delay from that exit, or
/// less where the backoff GC drops the entry first.
pub fn diagnose_row(
    row: &PodRow,
    node: &NodeAssumption,
    printed_at: Epoch,
    now: Epoch,
) -> PodDiagnosis {
    let b = &node.backoff;
    let mut notes = vec![];
    let init = row.status.starts_with("Init:");
    let rhythm = waiting::rhythm(&row.status);
    if let Some((_, meaning)) = rhythm {
        notes.push(format!("{}: {meaning}", row.status));
    }
    let crash_like = rhythm.is_some_and(|(r, _)| r == Rhythm::CrashLoop);
    let running = row.status == "Running";
    let restarts = row.restarts.unwrap_or(0);
    let wait = (restarts > 0 && (crash_like || running))
        .then(|| curve_wait(b.initial_ms, b.max_ms, restarts));
    if row.restarts.is_none() {
        notes.push("the row was cut before RESTARTS: no step of the curve; `kubectl get pods` prints the whole row".into());
    }
    if row.restarts == Some(0) && crash_like && init {
        notes.push("RESTARTS 0 while an init container loops: kubectl before 1.28 left init containers' restarts out of the count".into());
    }
    let last_restart = row.last_restart_ago_ms.map(|ago| printed_at - ago as Epoch);
    let (mut next, mut latest, mut resets_until) = (None, None, None);
    match (wait, last_restart) {
        (Some(wait), Some(l)) if crash_like => {
            let gc = gc_time(l.max(0) as Ms, b.reset_after_ms) as Epoch;
            let earliest = (l + wait as Epoch).min(gc);
            let last = (printed_at + wait as Epoch).min(gc);
            next = Some(earliest);
            latest = Some(last + requeue_lag(node.version, wait) as Epoch);
            resets_until = Some(earliest + b.reset_after_ms as Epoch);
        }
        (Some(wait), Some(l)) => {
            resets_until = Some(l + b.reset_after_ms as Epoch);
            notes.push(format!(
                "running: if it exits within {} of its last restart, it waits {} and restarts; later, it restarts at once on a fresh curve",
                format_go_duration_ms(b.reset_after_ms),
                format_go_duration_ms(wait)
            ));
        }
        (Some(_), None) => notes.push(
            "this kubectl prints no \"(… ago)\" after RESTARTS: no window for the next restart"
                .into(),
        ),
        _ => {}
    }
    if wait.is_some() {
        notes.push("estimated from a `kubectl get pods` row: RESTARTS sums the pod's containers, and the curve may have started over since (a run over 10 min, a changed container spec, a kubelet restart); `kubectl get pod NAME -o yaml` gives the exact times".into());
    }
    let backoff_ms = wait;
    PodDiagnosis {
        pod: row.name.clone(),
        namespace: row.namespace.clone().unwrap_or_default(),
        node: row.node.clone(),
        status: Some(row.status.clone()),
        age_ms: row.age_ms,
        containers: vec![ContainerDiagnosis {
            name: String::new(),
            kind: if init {
                ContainerKind::Init
            } else {
                ContainerKind::Regular
            },
            restart_count: row.restarts,
            estimated: true,
            state: row.status.clone(),
            backoff_ms,
            message_backoff_ms: None,
            curve_step: backoff_ms.and_then(|w| step_of(b.initial_ms, b.max_ms, w)),
            next_restart_at: next,
            next_restart_latest_at: latest,
            countdown_ms: next.map(|t| t - now),
            restarts_next_hour: None,
            run_ms: None,
            exit_code: None,
            exit_reason: None,
            resets_if_runs_until: resets_until,
            run_resets_curve: false,
            verdict: "a table shows no exit code".into(),
            notes,
            alternatives: vec![],
        }],
        notes: vec![],
    }
}

/// A pod as one of kubectl's outputs shows it: whole, or a table's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodReading {
    Observed(PodObservation),
    Row(PodRow),
}

/// Text older than this (its newest time against "now") is diagnosed as of
/// its own moment: a paste from a ticket is hours or months old.
pub const STALE_AFTER_MS: Ms = 3_600_000;

/// Every pod of a paste, diagnosed at one moment, soonest restart first,
/// then those in trouble, then the most restarted.
#[derive(Debug, Clone, PartialEq)]
pub struct PodsDiagnosis {
    pub pods: Vec<PodDiagnosis>,
    /// For each of `pods`, the index of its reading.
    pub order: Vec<usize>,
    /// The moment diagnosed at: "now", or the output's own newest time.
    pub as_of: Epoch,
    /// Whether `as_of` is the output's newest time rather than "now".
    pub as_of_output: bool,
    pub notes: Vec<String>,
}

/// The newest time a pod's output shows.
pub fn newest_time(pod: &PodObservation) -> Option<Epoch> {
    let ends = |t: &Terminated| [t.started_at, t.finished_at];
    pod.containers
        .iter()
        .flat_map(|c| {
            let state = match &c.state {
                ObservedState::Terminated(t) => ends(t),
                ObservedState::Running { started_at } => [*started_at, None],
                _ => [None, None],
            };
            state
                .into_iter()
                .chain(c.last_terminated.iter().flat_map(ends))
        })
        .chain([pod.started_at])
        .flatten()
        .max()
}

impl ContainerDiagnosis {
    /// Running, done or still being created: nothing to wait for.
    pub fn calm(&self) -> bool {
        matches!(
            self.state.as_str(),
            "Running" | "Completed" | "ContainerCreating" | "PodInitializing"
        )
    }

    /// Part of a crash loop: not calm, restarted before, or a restart to come.
    pub fn looping(&self) -> bool {
        !self.calm() || self.restart_count.unwrap_or(0) > 0 || self.next_restart_at.is_some()
    }
}

impl PodDiagnosis {
    /// The soonest next restart of its containers.
    pub fn soonest(&self) -> Option<Epoch> {
        self.containers
            .iter()
            .filter_map(|c| c.next_restart_at)
            .min()
    }

    /// Every container calm.
    pub fn calm(&self) -> bool {
        self.containers.iter().all(ContainerDiagnosis::calm)
    }

    /// Its containers' restarts, summed as kubectl's RESTARTS sums them.
    pub fn restarts(&self) -> u64 {
        self.containers.iter().filter_map(|c| c.restart_count).sum()
    }

    /// Whether it belongs in a list of crash loops: a container looping.
    pub fn looping(&self) -> bool {
        self.containers.iter().any(ContainerDiagnosis::looping)
    }
}

/// The order pods are listed in: soonest restart first, then those in
/// trouble (a container not running), then the most restarted.
pub fn rank(d: &PodDiagnosis) -> (Epoch, bool, std::cmp::Reverse<u64>) {
    (
        d.soonest().unwrap_or(Epoch::MAX),
        d.calm(),
        std::cmp::Reverse(d.restarts()),
    )
}

/// Diagnoses every pod at `now`, or, when the caller did not choose the
/// moment and the output is stale, as of the output's newest time.
pub fn diagnose_pods(
    readings: &[PodReading],
    node: &NodeAssumption,
    now: Epoch,
    now_chosen: bool,
) -> PodsDiagnosis {
    let newest = readings
        .iter()
        .filter_map(|r| match r {
            PodReading::Observed(p) => newest_time(p).max(p.printed_at),
            PodReading::Row(_) => None,
        })
        .max();
    let mut notes = vec![];
    let stale = newest.filter(|&t| now - t > STALE_AFTER_MS as Epoch);
    let as_of = match stale {
        Some(t) if !now_chosen => {
            notes.push(format!(
                "the output's newest time is {} before now: diagnosed as of that moment, the output's own; choose a moment to diagnose at another",
                format_span_ms((now - t) as Ms)
            ));
            t
        }
        Some(t) => {
            notes.push(format!(
                "the output's newest time is {} before the moment chosen: what it shows may have moved on since",
                format_span_ms((now - t) as Ms)
            ));
            now
        }
        None => now,
    };
    let mut ranked: Vec<(usize, PodDiagnosis)> = readings
        .iter()
        .map(|r| match r {
            PodReading::Observed(p) => diagnose(p, node, as_of),
            PodReading::Row(row) => diagnose_row(row, node, as_of, as_of),
        })
        .enumerate()
        .collect();
    ranked.sort_by_key(|(_, d)| rank(d));
    let (order, pods) = ranked.into_iter().unzip();
    PodsDiagnosis {
        pods,
        order,
        as_of,
        as_of_output: stale.is_some() && !now_chosen,
        notes,
    }
}
