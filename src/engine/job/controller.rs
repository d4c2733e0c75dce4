//! The Job controller's run of a Job against a failure script, as a small
//! state machine: create the pods it may, advance to the next event (a run
//! ends, an in-place restart happens, a backoff passes), handle it, check
//! whether the Job has finished.
//!
//! The rules, read from kubernetes/kubernetes `pkg/controller/job/`:
//! - `backoff_utils.go`: a backoff record per Job counts every newly failed
//!   pod since the last success, ignored ones included (`newBackoffRecord`
//!   takes all new failed pods; only the `failed` count leaves out pods that
//!   match an `Ignore` rule, `nonIgnoredFailedPodsCount` in
//!   `job_controller.go`); the next pod waits `min(10 s·2^(n−1), 10 min)`
//!   from the last failure's finish time; a success resets it. With
//!   `backoffLimitPerIndex` an index waits on its absolute failure count
//!   (failed plus ignored annotations, `getIndexAbsoluteFailureCount`) and
//!   no success resets it (`getRemainingTimePerIndex`).
//! - `job_controller.go` `syncJob`: the Job fails once `failed >
//!   backoffLimit`; a failure that ends the Job or its index creates no
//!   replacement, so no wait follows it. `pastBackoffLimitOnFailure`: with
//!   pod `restartPolicy: OnFailure` the Job fails when the summed
//!   `restartCount` of its running and pending pods reaches `backoffLimit`
//!   (`>=`; `> 0` when it is 0). Restarts made by container restart rules in
//!   a `Never` pod are not counted: the controller sees no failure at all.
//! - `pod_failure_policy.go`: rules in order, first match wins; exit codes
//!   are matched over the container statuses, which the kubelet sorts by
//!   container name, skipping exit code 0.

use serde::{Deserialize, Serialize};

use super::script::{Attempt, FailureScript};
use super::validate::{Matcher, RuleAction, ValidJob};
use super::{
    DISRUPTION_EXIT_CODE, DISRUPTION_TARGET, JOB_BACKOFF_INITIAL_MS, JOB_BACKOFF_MAX_MS, MAX_PODS,
};
use crate::engine::backoff::{Backoff, ExpiryRule, Ms};
use crate::engine::config::{Semantics, DEFAULT_INITIAL_MS, DEFAULT_MAX_MS, FLAT_RESET_MS};
use crate::engine::restart_rules::Verdict;
use crate::engine::rng::SplitMix64;
use crate::engine::scenario::Requeue;
use crate::engine::simulate::next_start;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PodResult {
    Succeeded,
    /// Counted toward backoffLimit (or backoffLimitPerIndex).
    Failed,
    /// Matched an Ignore rule: not counted, but backed off.
    Ignored,
    /// Matched a FailIndex rule, or exceeded backoffLimitPerIndex.
    FailedIndex,
    /// Matched a FailJob rule.
    FailedJob,
    /// A container exited and the kubelet restarted it in place (the pod's
    /// OnFailure, or a container restart rule); the pod did not fail.
    RestartedInPlace,
    /// Still running when the Job ended: terminated by the controller.
    Terminated,
}

impl PodResult {
    pub const ALL: [PodResult; 7] = [
        PodResult::Succeeded,
        PodResult::Failed,
        PodResult::Ignored,
        PodResult::FailedIndex,
        PodResult::FailedJob,
        PodResult::RestartedInPlace,
        PodResult::Terminated,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodRecord {
    pub name: String,
    pub index: u32,
    pub start_ms: Ms,
    pub end_ms: Ms,
    pub result: PodResult,
    /// The podFailurePolicy rule that matched, by index.
    pub rule: Option<usize>,
    /// "exit 42 in main", "DisruptionTarget (PreemptionByScheduler)".
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionType {
    Complete,
    Failed,
    /// Neither by the horizon (or the pod cap).
    Running,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCondition {
    #[serde(rename = "type")]
    pub type_: ConditionType,
    pub reason: String,
    pub message: String,
    pub at_ms: Ms,
}

/// One wait the controller imposed before creating a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplacementWait {
    pub index: u32,
    pub wait_ms: Ms,
    /// The failure count the wait was computed from (ignored ones included).
    pub failures: u32,
    /// The failure before it matched an Ignore rule.
    pub after_ignored: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRun {
    pub pods: Vec<PodRecord>,
    /// Each wait the controller imposed before creating a replacement.
    pub replacement_delays_ms: Vec<Ms>,
    pub waits: Vec<ReplacementWait>,
    /// `status.failed`: failed pods not ignored by the policy.
    pub failed: u32,
    pub succeeded: u32,
    /// Failed pods that matched an Ignore rule.
    pub ignored: u32,
    /// Containers the kubelet restarted in place (each raises a
    /// `restartCount`); with pod `restartPolicy: OnFailure` these decide
    /// `backoffLimit`.
    pub restarts: u32,
    /// `completionMode: Indexed`: the pods have indexes and the status lists
    /// them; a NonIndexed Job's lanes are only the pods running at once.
    pub indexed: bool,
    /// Failures per lane: per index (Indexed) or per parallel slot.
    pub failures_per_index: Vec<u32>,
    /// `status.completedIndexes` and `status.failedIndexes`, compressed as
    /// the API does (Indexed Jobs only: empty for NonIndexed).
    pub completed_indexes: String,
    pub failed_indexes: String,
    pub condition: JobCondition,
}

/// "0-2,4": the API's compressed index list.
pub fn compress_indexes(indexes: &[u32]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < indexes.len() {
        let start = indexes[i];
        let mut end = start;
        while i + 1 < indexes.len() && indexes[i + 1] == end + 1 {
            i += 1;
            end = indexes[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// `getRemainingTimeForFailuresCount`'s wait for `n` failures: 10 s doubling,
/// capped at 10 min; none for 0.
pub fn job_backoff(failures: u32) -> Ms {
    if failures == 0 {
        return 0;
    }
    let shift = (failures - 1).min(16);
    (JOB_BACKOFF_INITIAL_MS << shift).min(JOB_BACKOFF_MAX_MS)
}

/// What a finished pod looks like to the policy: its container statuses in
/// the kubelet's order (by name) and its conditions.
struct Failure<'a> {
    exits: Vec<(&'a str, i32)>,
    conditions: Vec<&'a str>,
}

struct Matched {
    rule: usize,
    action: RuleAction,
    /// The FailJob message, with `{pod}` for the pod's name.
    what: String,
}

impl ValidJob {
    /// The first rule that matches, as `matchPodFailurePolicy` evaluates them.
    fn match_rule(&self, f: &Failure) -> Option<Matched> {
        self.rules.iter().enumerate().find_map(|(i, r)| {
            let what = match &r.matcher {
                Matcher::ExitCodes {
                    container,
                    not_in,
                    values,
                } => f
                    .exits
                    .iter()
                    // Containers that exit 0 are never matched.
                    .filter(|(name, code)| {
                        *code != 0 && container.as_deref().is_none_or(|c| c == *name)
                    })
                    .find(|(_, code)| values.contains(code) != *not_in)
                    .map(|(name, code)| {
                        format!("Container {name} for pod {{pod}} failed with exit code {code}")
                    }),
                Matcher::Conditions(types) => f
                    .conditions
                    .iter()
                    .find(|c| types.iter().any(|t| t == *c))
                    .map(|c| format!("Pod {{pod}} has condition {c}")),
            }?;
            Some(Matched {
                rule: i,
                action: r.action,
                what,
            })
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LaneState {
    Waiting,
    Active,
    Succeeded,
    Failed,
}

/// One completion index (or one slot of a NonIndexed Job).
struct Lane {
    state: LaneState,
    /// The next script attempt.
    attempt: usize,
    /// Counted failures (`job-index-failure-count`).
    failures: u32,
    /// Ignored failures (`job-index-ignored-failure-count`).
    ignored: u32,
    /// Per index: when its next pod may be created.
    ready_at: Ms,
    /// The running pod: its record, its container run, its restarts.
    pod: usize,
    run_started: Ms,
    /// An in-place restart scheduled at this time, of this many containers.
    restart_at: Option<(Ms, u32)>,
    restart_count: u32,
    /// Containers of the running pod that stay terminated, with their codes.
    done: Vec<(String, i32)>,
    /// The kubelet's CrashLoopBackOff entries of the running pod's containers.
    kubelet: Vec<(String, Backoff<()>)>,
}

impl Lane {
    fn new() -> Self {
        Lane {
            state: LaneState::Waiting,
            attempt: 0,
            failures: 0,
            ignored: 0,
            ready_at: 0,
            pod: 0,
            run_started: 0,
            restart_at: None,
            restart_count: 0,
            done: vec![],
            kubelet: vec![],
        }
    }
}

/// The global backoff record (`backoffRecord`).
#[derive(Default)]
struct BackoffRecord {
    failures_after_last_success: u32,
    last_failure: Ms,
}

impl BackoffRecord {
    fn ready_at(&self) -> Ms {
        self.last_failure + job_backoff(self.failures_after_last_success)
    }
}

struct Ending {
    type_: ConditionType,
    reason: &'static str,
    message: String,
}

impl Ending {
    fn failed(reason: &'static str, message: impl Into<String>) -> Self {
        Ending {
            type_: ConditionType::Failed,
            reason,
            message: message.into(),
        }
    }
}

const BACKOFF_LIMIT_EXCEEDED: &str = "Job has reached the specified backoff limit";

struct Controller<'a> {
    job: &'a ValidJob,
    script: &'a FailureScript,
    run_ms: Ms,
    per_index: bool,
    lanes: Vec<Lane>,
    pods: Vec<PodRecord>,
    waits: Vec<ReplacementWait>,
    failed: u32,
    succeeded: u32,
    ignored: u32,
    restarts: u32,
    record: BackoffRecord,
    now: Ms,
    end: Option<Ending>,
}

/// Runs a Job against a failure script until it completes, fails, reaches
/// the horizon or has created `MAX_PODS` pods.
pub fn run_job(job: &ValidJob, script: &FailureScript, horizon_ms: Ms) -> JobRun {
    let mut c = Controller {
        job,
        script,
        run_ms: script.run_ms.max(1),
        per_index: job.backoff_limit_per_index.is_some(),
        lanes: (0..job.completions).map(|_| Lane::new()).collect(),
        pods: vec![],
        waits: vec![],
        failed: 0,
        succeeded: 0,
        ignored: 0,
        restarts: 0,
        record: BackoffRecord::default(),
        now: 0,
        end: None,
    };
    loop {
        c.create_pods();
        let Some(next) = c.next_event() else {
            if c.pods.len() >= MAX_PODS {
                c.end = Some(Ending {
                    type_: ConditionType::Running,
                    reason: "PodCap",
                    message: format!("the explorer stops after {MAX_PODS} pods"),
                });
            }
            break;
        };
        if next > horizon_ms {
            c.now = horizon_ms;
            break;
        }
        c.now = next;
        c.handle_events();
        if c.end.is_none() {
            c.check_finished();
        }
        if c.end.is_some() {
            break;
        }
    }
    c.finish()
}

impl Controller<'_> {
    fn active(&self) -> u32 {
        self.lanes
            .iter()
            .filter(|l| l.state == LaneState::Active)
            .count() as u32
    }

    /// When a waiting lane may get a pod: its own backoff per index, else the
    /// Job's (`manageJob` creates nothing while the global wait runs).
    fn ready_at(&self, lane: &Lane) -> Ms {
        if self.per_index {
            lane.ready_at
        } else {
            lane.ready_at.max(self.record.ready_at())
        }
    }

    fn pod_name(&self, index: usize) -> String {
        let k = self.pods.len();
        if self.job.indexed {
            format!("{}-{index}-{k}", self.job.name)
        } else {
            format!("{}-{k}", self.job.name)
        }
    }

    /// Step 1: create pods where a lane waits, its backoff has passed, and
    /// parallelism allows.
    fn create_pods(&mut self) {
        let mut active = self.active();
        for i in 0..self.lanes.len() {
            let lane = &self.lanes[i];
            if lane.state != LaneState::Waiting
                || self.ready_at(lane) > self.now
                || active >= self.job.parallelism
                || self.pods.len() >= MAX_PODS
            {
                continue;
            }
            let name = self.pod_name(i);
            let now = self.now;
            let record = self.pods.len();
            self.pods.push(PodRecord {
                name,
                index: i as u32,
                start_ms: now,
                end_ms: now,
                result: PodResult::Succeeded,
                rule: None,
                detail: String::new(),
            });
            let lane = &mut self.lanes[i];
            lane.state = LaneState::Active;
            lane.pod = record;
            lane.run_started = now;
            lane.restart_at = None;
            lane.restart_count = 0;
            lane.done.clear();
            lane.kubelet.clear();
            active += 1;
        }
    }

    /// Step 2: the next thing to happen: a run ends, an in-place restart
    /// happens, or a waiting lane becomes ready.
    fn next_event(&self) -> Option<Ms> {
        let room = self.active() < self.job.parallelism;
        self.lanes
            .iter()
            .filter_map(|l| match l.state {
                LaneState::Active => Some(match l.restart_at {
                    Some((at, _)) if at > self.now => at,
                    _ => l.run_started + self.run_ms,
                }),
                LaneState::Waiting if room => Some(self.ready_at(l)).filter(|&t| t > self.now),
                _ => None,
            })
            .min()
    }

    /// Step 3: handle everything due now, lane by lane.
    fn handle_events(&mut self) {
        for i in 0..self.lanes.len() {
            if self.end.is_some() {
                return;
            }
            if self.lanes[i].state != LaneState::Active {
                continue;
            }
            if let Some((at, n)) = self.lanes[i].restart_at {
                if at == self.now {
                    self.restarted_in_place(i, n);
                    continue;
                }
            }
            if self.lanes[i].run_started + self.run_ms == self.now {
                self.run_ended(i);
            }
        }
    }

    /// The kubelet restarted `n` containers in place: their restartCounts
    /// rise, which the controller reads under OnFailure.
    fn restarted_in_place(&mut self, i: usize, n: u32) {
        let lane = &mut self.lanes[i];
        lane.restart_at = None;
        lane.restart_count += n;
        self.restarts += n;
        if self.job.on_failure() {
            let sum: u32 = self
                .lanes
                .iter()
                .filter(|l| l.state == LaneState::Active)
                .map(|l| l.restart_count)
                .sum();
            let limit = self.job.backoff_limit;
            if (limit == 0 && sum > 0) || (limit > 0 && sum >= limit) {
                self.end = Some(Ending::failed(
                    "BackoffLimitExceeded",
                    BACKOFF_LIMIT_EXCEEDED,
                ));
            }
        }
    }

    /// A container run ended: the kubelet restarts some containers in place,
    /// or the pod finishes (succeeds or fails).
    fn run_ended(&mut self, i: usize) {
        let now = self.now;
        let attempt = self
            .script
            .attempt(self.lanes[i].attempt)
            .cloned()
            .unwrap_or(Attempt::Exit(Default::default()));
        self.lanes[i].attempt += 1;
        let running: Vec<&str> = self
            .job
            .containers
            .iter()
            .map(|c| c.name.as_str())
            .filter(|n| !self.lanes[i].done.iter().any(|(d, _)| d == n))
            .collect();
        let (codes, disruption): (Vec<(String, i32)>, Option<&str>) = match &attempt {
            Attempt::Exit(map) => (
                running
                    .iter()
                    .map(|n| ((*n).to_owned(), map.get(*n).copied().unwrap_or(0)))
                    .collect(),
                None,
            ),
            Attempt::Disruption(reason) => (
                running
                    .iter()
                    .map(|n| ((*n).to_owned(), DISRUPTION_EXIT_CODE))
                    .collect(),
                Some(reason.as_str()),
            ),
        };
        let detail = match disruption {
            Some(reason) => format!("{DISRUPTION_TARGET} ({reason})"),
            None => {
                let failing: Vec<String> = codes
                    .iter()
                    .filter(|(_, c)| *c != 0)
                    .map(|(n, c)| format!("exit {c} in {n}"))
                    .collect();
                if failing.is_empty() {
                    "exit 0".to_owned()
                } else {
                    failing.join(", ")
                }
            }
        };
        // A disrupted pod is terminated whole; otherwise each container's
        // restart settings decide (the pod's policy, or its own rules).
        let mut restarting = vec![];
        let mut because = vec![];
        if disruption.is_none() {
            for (name, code) in &codes {
                let Some(c) = self.job.containers.iter().find(|c| &c.name == name) else {
                    continue;
                };
                let verdict = c.restart.after_exit(self.job.restart_policy, *code);
                if verdict.restarts() {
                    restarting.push(name.clone());
                    if let Verdict::RestartByRule(..) = verdict {
                        because.push(format!(
                            "{name}: {}",
                            verdict.describe(c.restart.policy(self.job.restart_policy))
                        ));
                    }
                } else {
                    self.lanes[i].done.push((name.clone(), *code));
                }
            }
        }
        if !restarting.is_empty() {
            self.restart_in_place(i, &restarting, &detail, &because);
            return;
        }
        // The pod is terminal: every container has exited for good.
        let lane = &mut self.lanes[i];
        if disruption.is_some() {
            lane.done.extend(codes);
        }
        let mut statuses = lane.done.clone();
        statuses.sort();
        let record = lane.pod;
        self.pods[record].end_ms = now;
        self.pods[record].detail = detail;
        let success = disruption.is_none() && statuses.iter().all(|(_, c)| *c == 0);
        if success {
            self.pods[record].result = PodResult::Succeeded;
            lane.state = LaneState::Succeeded;
            self.succeeded += 1;
            self.record = BackoffRecord::default();
            return;
        }
        let exits: Vec<(&str, i32)> = statuses.iter().map(|(n, c)| (n.as_str(), *c)).collect();
        let conditions: Vec<&str> = disruption.map(|_| DISRUPTION_TARGET).into_iter().collect();
        let matched = self.job.match_rule(&Failure { exits, conditions });
        self.pod_failed(i, matched);
    }

    /// The kubelet restarts these containers in place on the CrashLoopBackOff
    /// curve (today's default, 10 s doubling to 5 min; first exit at once).
    fn restart_in_place(
        &mut self,
        i: usize,
        restarting: &[String],
        detail: &str,
        because: &[String],
    ) {
        let now = self.now;
        let lane = &mut self.lanes[i];
        let mut start = now;
        for name in restarting {
            let p = match lane.kubelet.iter().position(|(n, _)| n == name) {
                Some(p) => p,
                None => {
                    let fresh = Backoff::new(
                        DEFAULT_INITIAL_MS,
                        DEFAULT_MAX_MS,
                        0.0,
                        ExpiryRule::After(FLAT_RESET_MS),
                    );
                    lane.kubelet.push((name.clone(), fresh));
                    lane.kubelet.len() - 1
                }
            };
            // No jitter: the factor is 0 and the requeue is ideal.
            let mut rng = SplitMix64::new(0);
            let b = &mut lane.kubelet[p].1;
            start = start.max(next_start(b, Semantics::Kubelet, Requeue::Ideal, now, &mut rng).at);
        }
        let record = lane.pod;
        let name = self.pods[record].name.clone();
        let mut note = format!(
            "{detail}; restarted in place after {}s",
            (start - now) / 1000
        );
        if !because.is_empty() {
            note.push_str(&format!(" ({})", because.join("; ")));
        }
        self.pods.push(PodRecord {
            name,
            index: i as u32,
            start_ms: lane.run_started,
            end_ms: now,
            result: PodResult::RestartedInPlace,
            rule: None,
            detail: note,
        });
        lane.run_started = start;
        lane.restart_at = Some((start, restarting.len() as u32));
        self.pods[record].start_ms = start;
        if start == now {
            self.restarted_in_place(i, restarting.len() as u32);
        }
    }

    /// A pod failed: the podFailurePolicy decides, then the backoff.
    fn pod_failed(&mut self, i: usize, matched: Option<Matched>) {
        let record = self.lanes[i].pod;
        let name = self.pods[record].name.clone();
        self.pods[record].rule = matched.as_ref().map(|m| m.rule);
        self.lanes[i].state = LaneState::Waiting;
        match matched.as_ref().map_or(RuleAction::Count, |m| m.action) {
            RuleAction::FailJob => {
                self.pods[record].result = PodResult::FailedJob;
                self.failed += 1;
                if let Some(m) = matched {
                    self.end = Some(Ending::failed(
                        "PodFailurePolicy",
                        format!(
                            "{} matching FailJob rule at index {}",
                            m.what.replace("{pod}", &format!("default/{name}")),
                            m.rule
                        ),
                    ));
                }
            }
            RuleAction::FailIndex => {
                self.pods[record].result = PodResult::FailedIndex;
                self.failed += 1;
                self.lanes[i].failures += 1;
                self.lanes[i].state = LaneState::Failed;
            }
            RuleAction::Ignore => {
                self.pods[record].result = PodResult::Ignored;
                self.ignored += 1;
                self.lanes[i].ignored += 1;
                self.back_off(i, true);
            }
            RuleAction::Count => {
                self.pods[record].result = PodResult::Failed;
                self.failed += 1;
                self.lanes[i].failures += 1;
                let per_index_limit = self.job.backoff_limit_per_index;
                if per_index_limit.is_some_and(|l| self.lanes[i].failures > l) {
                    self.pods[record].result = PodResult::FailedIndex;
                    self.lanes[i].state = LaneState::Failed;
                } else if self.failed > self.job.backoff_limit {
                    self.end = Some(Ending::failed(
                        "BackoffLimitExceeded",
                        BACKOFF_LIMIT_EXCEEDED,
                    ));
                } else {
                    self.back_off(i, false);
                }
            }
        }
        // An explicit backoffLimit still caps a Job with per-index limits.
        if self.end.is_none() && self.failed > self.job.backoff_limit {
            self.end = Some(Ending::failed(
                "BackoffLimitExceeded",
                BACKOFF_LIMIT_EXCEEDED,
            ));
        }
    }

    /// The failure enters the backoff: the index's own count, or the Job's
    /// record (every failure since the last success, ignored ones too).
    fn back_off(&mut self, i: usize, after_ignored: bool) {
        let now = self.now;
        let failures = if self.per_index {
            let lane = &mut self.lanes[i];
            let n = lane.failures + lane.ignored;
            lane.ready_at = now + job_backoff(n);
            n
        } else {
            self.record.failures_after_last_success += 1;
            self.record.last_failure = now;
            self.lanes[i].ready_at = now;
            self.record.failures_after_last_success
        };
        self.waits.push(ReplacementWait {
            index: i as u32,
            wait_ms: job_backoff(failures),
            failures,
            after_ignored,
        });
    }

    /// Step 4: has the Job finished?
    fn check_finished(&mut self) {
        let failed_lanes = self
            .lanes
            .iter()
            .filter(|l| l.state == LaneState::Failed)
            .count() as u32;
        if self
            .job
            .max_failed_indexes
            .is_some_and(|m| failed_lanes > m)
        {
            self.end = Some(Ending::failed(
                "MaxFailedIndexesExceeded",
                "Job has exceeded the specified maximal number of failed indexes",
            ));
        } else if self
            .lanes
            .iter()
            .all(|l| matches!(l.state, LaneState::Succeeded | LaneState::Failed))
        {
            self.end = Some(if failed_lanes > 0 {
                Ending::failed("FailedIndexes", "Job has failed indexes")
            } else {
                Ending {
                    type_: ConditionType::Complete,
                    reason: "CompletionsReached",
                    message: "Reached expected number of succeeded pods".into(),
                }
            });
        }
    }

    /// Whatever still runs is terminated when the Job ends.
    fn finish(mut self) -> JobRun {
        let ended = self.end.is_some();
        for lane in &self.lanes {
            if lane.state == LaneState::Active {
                let p = &mut self.pods[lane.pod];
                p.end_ms = self.now.max(p.start_ms);
                p.result = PodResult::Terminated;
                p.detail = if ended {
                    "terminated: the Job ended".into()
                } else {
                    "running".into()
                };
            }
        }
        let end = self.end.unwrap_or(Ending {
            type_: ConditionType::Running,
            reason: "HorizonReached",
            message: "no Complete or Failed condition within the horizon".into(),
        });
        let indexes = |s: LaneState| -> Vec<u32> {
            self.lanes
                .iter()
                .enumerate()
                .filter(|(_, l)| l.state == s)
                .map(|(i, _)| i as u32)
                .collect()
        };
        JobRun {
            replacement_delays_ms: self.waits.iter().map(|w| w.wait_ms).collect(),
            waits: self.waits,
            failed: self.failed,
            succeeded: self.succeeded,
            ignored: self.ignored,
            restarts: self.restarts,
            indexed: self.job.indexed,
            failures_per_index: self.lanes.iter().map(|l| l.failures).collect(),
            // The API has these for Indexed Jobs only (JobStatus).
            completed_indexes: if self.job.indexed {
                compress_indexes(&indexes(LaneState::Succeeded))
            } else {
                String::new()
            },
            failed_indexes: if self.job.indexed {
                compress_indexes(&indexes(LaneState::Failed))
            } else {
                String::new()
            },
            condition: JobCondition {
                type_: end.type_,
                reason: end.reason.to_owned(),
                message: end.message,
                at_ms: self.now,
            },
            pods: self.pods,
        }
    }
}
