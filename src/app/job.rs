//! The Job explorer: a Job spec and a failure script in, the Job controller's
//! run out. The manifest is the state; every control edits it.

use std::rc::Rc;

use plotters::prelude::*;
use yew::prelude::*;

use super::charts::DrawnCanvas;
use super::controls::{
    codes_text, parse_codes, send, send_stop, Choice, CopyButton, Refusals, Slider, TextArea,
    TextField,
};
use super::state::nearest_stop;
use super::words::{breakable, units_kept};
use crate::chart::draw_job;
use crate::engine::duration::format_human_ms;
use crate::engine::job::script::DEFAULT_CONTAINER;
use crate::engine::job::validate::read_int32;
use crate::engine::job::{
    run_job, ConditionType, FailureScript, FieldError, JobManifest, JobRun, OnExitCodes,
    OnPodCondition, PodFailurePolicyRule, PodResult, ValidJob, DEFAULT_HORIZON_MS, MAX_RULES,
};
use crate::engine::restart_rules::ContainerRestartRule;
use crate::engine::Ms;
use crate::formats::manifest::{job_manifest_yaml, parse_job_manifest};
use crate::inputs::JobInputs;

/// The pods table's columns after the pod's name, as its header names them.
const POD_COLUMNS: [&str; 5] = ["index", "ran", "result", "rule", "what happened"];

pub const POD_RUN_STOPS_MS: &[Ms] = &[
    1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000,
];

#[derive(Debug, Clone, PartialEq)]
pub struct JobState {
    /// What the user set: the one source of truth; the rest is derived or
    /// text being typed.
    pub inputs: JobInputs,
    /// Each rule's exit-code values as typed.
    pub values_text: Vec<String>,
    pub seed: u64,
    /// The seed as typed, and why it is refused (the last good seed stays).
    pub seed_text: String,
    pub seed_error: Option<String>,
    /// Number fields whose text is not an int32: the text as typed, and the
    /// API server's refusal. The Job runs again once every one reads.
    pub int_refused: Refusals<IntField>,
    pub failure_percent: u32,
    pub paste: String,
    pub paste_error: Option<String>,
    pub valid: Result<ValidJob, Vec<FieldError>>,
    pub script: Result<FailureScript, String>,
    /// The last run of a valid spec and script.
    pub run: Option<Rc<JobRun>>,
}

pub enum JobAction {
    Int(IntField, String),
    Mode(String),
    RestartPolicy(String),
    AddRule,
    RemoveRule(usize),
    MoveUp(usize),
    Rule(usize, RuleEdit),
    Script(String),
    Fill(Fill),
    RunMs(Ms),
    Seed(String),
    FailurePercent(u32),
    Paste(String),
    LoadPaste,
    /// The first container's own restartPolicy (KEP-5307); "" unsets it.
    ContainerPolicy(String),
    /// Exit codes on which the first container restarts in place; "" removes the rule.
    ContainerRuleCodes(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntField {
    BackoffLimit,
    Completions,
    Parallelism,
    BackoffLimitPerIndex,
    MaxFailedIndexes,
}

impl IntField {
    /// The field's path, as the API server names it.
    pub fn path(self) -> &'static str {
        match self {
            IntField::BackoffLimit => "spec.backoffLimit",
            IntField::Completions => "spec.completions",
            IntField::Parallelism => "spec.parallelism",
            IntField::BackoffLimitPerIndex => "spec.backoffLimitPerIndex",
            IntField::MaxFailedIndexes => "spec.maxFailedIndexes",
        }
    }
}

pub enum RuleEdit {
    Action(String),
    Kind(bool),
    Container(String),
    Operator(String),
    Values(String),
    ConditionType(String),
    ConditionStatus(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    AlwaysFail,
    FailThenSucceed,
    PreemptedTwice,
    Random,
}

fn containers(m: &JobManifest) -> Vec<String> {
    m.spec
        .template
        .spec
        .containers
        .iter()
        .map(|c| c.name.clone())
        .collect()
}

fn first_container(m: &JobManifest) -> String {
    containers(m)
        .into_iter()
        .next()
        .unwrap_or_else(|| DEFAULT_CONTAINER.to_owned())
}

fn values_text(m: &JobManifest) -> Vec<String> {
    m.spec
        .pod_failure_policy
        .iter()
        .flat_map(|p| &p.rules)
        .map(|r| {
            r.on_exit_codes
                .as_ref()
                .map(|e| codes_text(&e.values))
                .unwrap_or_default()
        })
        .collect()
}

impl Default for JobState {
    fn default() -> Self {
        Self::new(JobInputs::default())
    }
}

impl JobState {
    /// The Job view for these inputs (a link's, say).
    pub fn new(inputs: JobInputs) -> JobState {
        Self::derive(JobState {
            values_text: values_text(&inputs.manifest),
            inputs,
            seed: 1,
            seed_text: "1".into(),
            seed_error: None,
            int_refused: Refusals::default(),
            failure_percent: 50,
            paste: String::new(),
            paste_error: None,
            valid: Err(vec![]),
            script: Err(String::new()),
            run: None,
        })
    }
}

impl JobState {
    fn derive(mut s: JobState) -> JobState {
        let i = &s.inputs;
        s.valid = i.manifest.validate();
        s.script = FailureScript::parse_for(&i.script, &containers(&i.manifest), i.run_ms);
        if let (Ok(job), Ok(script), true) = (&s.valid, &s.script, s.int_refused.is_empty()) {
            s.run = Some(Rc::new(run_job(job, script, DEFAULT_HORIZON_MS)));
        }
        s
    }

    fn rules_mut(&mut self) -> &mut Vec<PodFailurePolicyRule> {
        &mut self
            .inputs
            .manifest
            .spec
            .pod_failure_policy
            .get_or_insert_with(Default::default)
            .rules
    }

    /// The API server's errors for one field and what is under it: a
    /// number field's refused text, else the checks of the value it holds.
    pub fn errors_for(&self, field: &str) -> Vec<String> {
        let under = |f: &str| {
            f == field
                || f.strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
        };
        self.all_errors()
            .into_iter()
            .filter(|(f, _)| under(f))
            .map(|(_, e)| e)
            .collect()
    }

    /// Every refusal, with the field it is about: the number fields' texts
    /// that do not read, then the checks of the fields that do (a refused
    /// field's last value is not what the user asked about).
    pub fn all_errors(&self) -> Vec<(String, String)> {
        let refused = |f: &str| self.int_refused.iter().any(|(r, _)| r.path() == f);
        let checks = self.valid.as_ref().err().into_iter().flatten();
        self.int_refused
            .iter()
            .map(|(f, e)| (f.path().to_owned(), e.to_owned()))
            .chain(
                checks
                    .filter(|e| !refused(&e.field))
                    .map(|e| (e.field.clone(), e.to_string())),
            )
            .collect()
    }
}

impl Reducible for JobState {
    type Action = JobAction;

    fn reduce(self: Rc<Self>, action: JobAction) -> Rc<Self> {
        let mut s = (*self).clone();
        let spec = &mut s.inputs.manifest.spec;
        match action {
            JobAction::Int(field, text) => {
                // Empty unsets it; text that is no int32 is refused, and the
                // Job does not run until it reads.
                let read = |t: &str| read_int32("JobSpec", field.path(), t);
                if let Some(v) = s.int_refused.read(field, &text, read) {
                    let spec = &mut s.inputs.manifest.spec;
                    match field {
                        IntField::BackoffLimit => spec.backoff_limit = v,
                        IntField::Completions => spec.completions = v,
                        IntField::Parallelism => spec.parallelism = v,
                        IntField::BackoffLimitPerIndex => spec.backoff_limit_per_index = v,
                        IntField::MaxFailedIndexes => spec.max_failed_indexes = v,
                    }
                }
            }
            JobAction::Mode(m) => spec.completion_mode = (m != "NonIndexed").then_some(m),
            JobAction::ContainerPolicy(p) => {
                if let Some(c) = spec.template.spec.containers.first_mut() {
                    c.restart_policy = (!p.is_empty()).then_some(p);
                }
            }
            JobAction::ContainerRuleCodes(text) => {
                let codes = parse_codes(&text);
                if let Some(c) = spec.template.spec.containers.first_mut() {
                    c.restart_policy_rules = if codes.is_empty() {
                        vec![]
                    } else {
                        vec![ContainerRestartRule::restart_on(&codes)]
                    };
                }
            }
            JobAction::RestartPolicy(p) => spec.template.spec.restart_policy = Some(p),
            JobAction::AddRule => {
                if s.inputs
                    .manifest
                    .spec
                    .pod_failure_policy
                    .as_ref()
                    .map_or(0, |p| p.rules.len())
                    < MAX_RULES
                {
                    s.rules_mut().push(PodFailurePolicyRule {
                        action: "FailJob".into(),
                        on_exit_codes: Some(OnExitCodes {
                            container_name: None,
                            operator: "In".into(),
                            values: vec![1],
                        }),
                        on_pod_conditions: vec![],
                    });
                    s.values_text.push("1".into());
                }
            }
            JobAction::RemoveRule(i) => {
                if i < s.values_text.len() {
                    s.rules_mut().remove(i);
                    s.values_text.remove(i);
                }
                if s.inputs
                    .manifest
                    .spec
                    .pod_failure_policy
                    .as_ref()
                    .is_some_and(|p| p.rules.is_empty())
                {
                    s.inputs.manifest.spec.pod_failure_policy = None;
                }
            }
            JobAction::MoveUp(i) => {
                if i > 0 && i < s.values_text.len() {
                    s.rules_mut().swap(i - 1, i);
                    s.values_text.swap(i - 1, i);
                }
            }
            JobAction::Rule(i, edit) => {
                let mut text = s.values_text.get(i).cloned().unwrap_or_default();
                if let Some(rule) = s.rules_mut().get_mut(i) {
                    match edit {
                        RuleEdit::Action(a) => rule.action = a,
                        RuleEdit::Kind(exit_codes) => {
                            if exit_codes {
                                rule.on_pod_conditions.clear();
                                rule.on_exit_codes = Some(OnExitCodes {
                                    container_name: None,
                                    operator: "In".into(),
                                    values: vec![1],
                                });
                                text = "1".into();
                            } else {
                                rule.on_exit_codes = None;
                                rule.on_pod_conditions = vec![OnPodCondition {
                                    type_: "DisruptionTarget".into(),
                                    status: "True".into(),
                                }];
                            }
                        }
                        RuleEdit::Container(c) => {
                            if let Some(e) = &mut rule.on_exit_codes {
                                e.container_name = (!c.is_empty()).then_some(c);
                            }
                        }
                        RuleEdit::Operator(o) => {
                            if let Some(e) = &mut rule.on_exit_codes {
                                e.operator = o;
                            }
                        }
                        RuleEdit::Values(v) => {
                            // The API takes what parses; "1, 2, x" keeps 1 and 2 and says so.
                            if let Some(e) = &mut rule.on_exit_codes {
                                e.values = parse_codes(&v);
                            }
                            text = v;
                        }
                        RuleEdit::ConditionType(t) => {
                            if let Some(c) = rule.on_pod_conditions.first_mut() {
                                c.type_ = t;
                            }
                        }
                        RuleEdit::ConditionStatus(st) => {
                            if let Some(c) = rule.on_pod_conditions.first_mut() {
                                c.status = st;
                            }
                        }
                    }
                }
                if let Some(t) = s.values_text.get_mut(i) {
                    *t = text;
                }
            }
            JobAction::Script(t) => s.inputs.script = t,
            JobAction::Fill(fill) => {
                let c = first_container(&s.inputs.manifest);
                let script = match fill {
                    Fill::AlwaysFail => FailureScript::always_fail(&c),
                    Fill::FailThenSucceed => FailureScript::fail_then_succeed(&c, 42),
                    Fill::PreemptedTwice => FailureScript::preempted_then_succeed(&c, 2),
                    Fill::Random => {
                        FailureScript::random(&c, s.seed, f64::from(s.failure_percent) / 100.0)
                    }
                };
                s.inputs.script = script.to_text();
            }
            JobAction::RunMs(ms) => s.inputs.run_ms = ms,
            JobAction::Seed(t) => {
                match t.trim().parse() {
                    Ok(v) => {
                        s.seed = v;
                        s.seed_error = None;
                    }
                    Err(_) => {
                        s.seed_error = Some(format!(
                            "random: seed: {} is not a whole number from 0 to {}; the \"random\" script uses seed {}",
                            crate::engine::field::quoted(t.trim()),
                            u64::MAX,
                            s.seed
                        ))
                    }
                }
                s.seed_text = t;
            }
            JobAction::FailurePercent(p) => s.failure_percent = p.min(100),
            JobAction::Paste(t) => s.paste = t,
            JobAction::LoadPaste => match parse_job_manifest(&s.paste) {
                Ok(m) => {
                    // A script written for the old Job's first container is
                    // carried to the new one's.
                    let (from, to) = (first_container(&s.inputs.manifest), first_container(&m));
                    let old = containers(&s.inputs.manifest);
                    if let Ok(script) =
                        FailureScript::parse_for(&s.inputs.script, &old, s.inputs.run_ms)
                    {
                        if from != to && !containers(&m).contains(&from) {
                            s.inputs.script = script.retarget(&from, &to).to_text();
                        }
                    }
                    s.values_text = values_text(&m);
                    s.inputs.manifest = m;
                    s.paste_error = None;
                    s.int_refused.clear();
                }
                Err(e) => s.paste_error = Some(e),
            },
        }
        Rc::new(JobState::derive(s))
    }
}

pub type Handle = UseReducerHandle<JobState>;

fn int_text(v: Option<i32>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// What a field is refused with, under the field itself (its border red).
fn field_error(state: &JobState, field: IntField) -> Option<AttrValue> {
    let errors = state.errors_for(field.path());
    (!errors.is_empty()).then(|| AttrValue::from(errors.join("; ")))
}

fn error_list(errors: Vec<String>) -> Html {
    if errors.is_empty() {
        return html! {};
    }
    html! { <div role="alert"><ul class="field-errors">{ for errors.into_iter().map(|e| html! { <li>{ e }</li> }) }</ul></div> }
}

#[derive(Properties, PartialEq)]
struct RuleProps {
    state: Handle,
    index: usize,
}

/// A Job's condition as the outcome says it.
fn condition_word(c: ConditionType) -> &'static str {
    match c {
        ConditionType::Complete => "Complete",
        ConditionType::Failed => "Failed",
        ConditionType::Running => "no final condition",
    }
}

#[function_component]
fn RuleEditor(p: &RuleProps) -> Html {
    let (state, i) = (&p.state, p.index);
    let Some(rule) = state
        .inputs
        .manifest
        .spec
        .pod_failure_policy
        .as_ref()
        .and_then(|pol| pol.rules.get(i))
        .cloned()
    else {
        return html! {};
    };
    let id = |name: &str| format!("rule-{i}-{name}");
    let edit =
        move |f: fn(String) -> RuleEdit| send(state, move |v: String| JobAction::Rule(i, f(v)));
    let on_kind = send(state, move |v: String| {
        JobAction::Rule(i, RuleEdit::Kind(v == "exit"))
    });
    let containers: Vec<(AttrValue, AttrValue)> =
        std::iter::once(("".into(), "any container".into()))
            .chain(
                state
                    .inputs
                    .manifest
                    .spec
                    .template
                    .spec
                    .containers
                    .iter()
                    .map(|c| (c.name.clone().into(), c.name.clone().into())),
            )
            .collect();
    let matcher = match &rule.on_exit_codes {
        Some(e) => html! {
            <div class="row">
                <Choice id={id("container")} label="containerName" selected={e.container_name.clone().unwrap_or_default()}
                    options={containers} onchange={edit(RuleEdit::Container)} />
                <Choice id={id("operator")} label="operator" selected={e.operator.clone()}
                    options={vec![("In".into(), "In".into()), ("NotIn".into(), "NotIn".into())]}
                    onchange={edit(RuleEdit::Operator)} />
                <TextField id={id("values")} label={html! {"values"}} value={state.values_text.get(i).cloned().unwrap_or_default()}
                    placeholder="1, 2, 3" oninput={edit(RuleEdit::Values)} />
            </div>
        },
        None => {
            let c = rule.on_pod_conditions.first().cloned().unwrap_or_default();
            html! {
                <div class="row">
                    <TextField id={id("type")} label={html! {"condition type"}} value={c.type_} placeholder="DisruptionTarget"
                        oninput={edit(RuleEdit::ConditionType)} />
                    <Choice id={id("status")} label="status" selected={c.status}
                        options={vec![("True".into(), "True".into()), ("False".into(), "False".into()), ("Unknown".into(), "Unknown".into())]}
                        onchange={edit(RuleEdit::ConditionStatus)} />
                </div>
            }
        }
    };
    html! {
        <fieldset class="group rule" id={id("fieldset")}>
            <legend>
                { format!("rules[{i}]") }
                if i > 0 {
                    <button type="button" aria-label={format!("Move rule {i} up")} onclick={send(state, move |_: MouseEvent| JobAction::MoveUp(i))}>{"↑"}</button>
                }
                <button type="button" class="remove" id={id("remove")} aria-label={format!("Remove rule {i}")}
                    onclick={send(state, move |_: MouseEvent| JobAction::RemoveRule(i))}>{"×"}</button>
            </legend>
            <div class="row">
                <Choice id={id("action")} label="action" selected={rule.action.clone()}
                    options={["FailJob", "FailIndex", "Ignore", "Count"].map(|a| (AttrValue::from(a), AttrValue::from(a))).to_vec()}
                    onchange={edit(RuleEdit::Action)} />
                <Choice id={id("kind")} label="on" selected={if rule.on_exit_codes.is_some() { "exit" } else { "conditions" }}
                    options={vec![("exit".into(), "onExitCodes".into()), ("conditions".into(), "onPodConditions".into())]}
                    onchange={on_kind} />
            </div>
            { matcher }
            { error_list(state.errors_for(&format!("spec.podFailurePolicy.rules[{i}]"))) }
        </fieldset>
    }
}

/// The Job's pods by index over time.
#[derive(Clone, PartialEq)]
struct Gantt(Rc<JobRun>);

impl super::charts::Drawn for Gantt {
    fn draw(
        &self,
        area: &DrawingArea<super::canvas::Canvas, plotters::coord::Shift>,
        look: crate::chart::Look,
    ) -> Result<(), String> {
        draw_job(area, &self.0, look)
            .map(drop)
            .map_err(|e| e.to_string())
    }
}

fn result_word(r: PodResult) -> &'static str {
    match r {
        PodResult::Succeeded => "Succeeded",
        PodResult::Failed => "Failed (counted)",
        PodResult::Ignored => "Failed (ignored)",
        PodResult::FailedIndex => "Failed (index failed)",
        PodResult::FailedJob => "Failed (FailJob)",
        PodResult::RestartedInPlace => "container restarted in place",
        PodResult::Terminated => "terminated / running",
    }
}

#[derive(Properties, PartialEq)]
pub struct JobViewProps {
    pub state: Handle,
    #[prop_or_default]
    pub dark: bool,
}

#[function_component]
pub fn JobView(p: &JobViewProps) -> Html {
    let state = p.state.clone();
    let spec = &state.inputs.manifest.spec;
    let int = |field: IntField| send(&state, move |v: String| JobAction::Int(field, v));
    let rules = spec
        .pod_failure_policy
        .as_ref()
        .map_or(0, |p| p.rules.len());
    let script_error = state
        .script
        .as_ref()
        .err()
        .map(|e| AttrValue::from(e.clone()));
    let manifest_yaml = job_manifest_yaml(&state.inputs.manifest);
    let errors: Vec<String> = state
        .all_errors()
        .into_iter()
        .map(|(_, e)| e)
        .chain(
            state
                .script
                .as_ref()
                .err()
                .filter(|e| !e.is_empty())
                .map(|e| format!("failure script: {e}")),
        )
        .collect();
    // The last valid run stays, marked, while the input is refused.
    let stale = !errors.is_empty();
    // The outcome in one strip that stays at the top of the controls on a
    // phone, where they come after the results (as the main view's).
    let bar = state.run.as_ref().map(|run| {
        let word = condition_word(run.condition.type_);
        html! {
            <div class="headline-bar" id="job-bar" aria-hidden="true">
                <span><small>{ if stale { "last valid run" } else { "outcome" } }</small><b>{ word }</b>{ format!(" after {}", format_human_ms(run.condition.at_ms)) }</span>
                <span><small>{"pods"}</small><b id="job-bar-failed">{ run.failed }</b>{" failed, "}<b>{ run.succeeded }</b>{" succeeded"}</span>
            </div>
        }
    });
    let outcome = match &state.run {
        None => html! { <p>{"No run yet: fix the spec and the script."}</p> },
        Some(run) => {
            let c = &run.condition;
            let condition = match c.type_ {
                ConditionType::Complete => "complete",
                ConditionType::Failed => "failed",
                ConditionType::Running => "running",
            };
            let word = condition_word(c.type_);
            html! {
                <div class={classes!("job-outcome", stale.then_some("stale"))} id="job-outcome" data-stale={stale.to_string()}>
                    if stale {
                        <p class="stale-label" id="job-stale">{"The last valid Job's run: not an answer to the input above"}</p>
                    }
                    <div class="condition" data-condition={condition} id="job-condition" role="status">
                        <strong id="job-condition-type">{ word }</strong>
                        {" · reason "}<code id="job-condition-reason">{ c.reason.clone() }</code>
                        {" · after "}{ format_human_ms(c.at_ms) }
                        <p id="job-condition-message">{ c.message.clone() }</p>
                    </div>
                    <dl class="counters">
                        <dt>{"failed"}</dt><dd id="job-failed">{ run.failed }</dd>
                        <dt>{"succeeded"}</dt><dd id="job-succeeded">{ run.succeeded }</dd>
                        <dt>{"ignored"}</dt><dd id="job-ignored">{ run.ignored }</dd>
                        <dt>{"container restarts (kubelet, in place)"}</dt><dd id="job-restarts">{ run.restarts }</dd>
                        if run.indexed {
                            <dt>{"failures per index"}</dt><dd id="job-failures-per-index">{ run.failures_per_index.iter().map(u32::to_string).collect::<Vec<_>>().join(", ") }</dd>
                        }
                        if !run.completed_indexes.is_empty() { <dt>{"completedIndexes"}</dt><dd id="job-completed-indexes">{ run.completed_indexes.clone() }</dd> }
                        if !run.failed_indexes.is_empty() { <dt>{"failedIndexes"}</dt><dd id="job-failed-indexes">{ run.failed_indexes.clone() }</dd> }
                        <dt>{"replacement delays"}</dt><dd id="job-delays">{
                            if run.waits.is_empty() { "none".to_owned() }
                            else { run.waits.iter().map(|w| if w.after_ignored {
                                format!("{} (after an ignored failure)", format_human_ms(w.wait_ms))
                            } else {
                                format_human_ms(w.wait_ms)
                            }).collect::<Vec<_>>().join(", ") }
                        }</dd>
                    </dl>
                    if run.waits.iter().any(|w| w.after_ignored) {
                        <p class="note" id="job-ignored-note">{"Ignored failures do not count toward backoffLimit, but they still delay the replacement: the Job controller backs off on every failed pod since the last success (pkg/controller/job/backoff_utils.go; k/k#130881 is open about it)."}</p>
                    }
                    if run.restarts > 0 && state.inputs.manifest.spec.template.spec.restart_policy.as_deref().is_none_or(|p| p != "OnFailure") {
                        <p class="note" id="job-rule-note">{ format!("The kubelet restarted containers in place {} time(s) by their own restart rules: the pods did not fail, so the Job controller saw no failure and backoffLimit is not touched.", run.restarts) }</p>
                    }
                    <DrawnCanvas<Gantt> id="chart-job" heights={(260, 208)} data={Gantt(run.clone())} dark={p.dark}
                        alt="The Job's pods over time (by index for an Indexed Job), coloured by how each ended" />
                    <div class="table-scroll" tabindex="0">
                        // On a phone a pod is a card, each cell under its
                        // column's name (the stylesheet reads `data-label`).
                        <table class="pods cards" id="job-pods">
                            <thead><tr><th>{"pod"}</th>if run.indexed { <th>{POD_COLUMNS[0]}</th> }<th>{POD_COLUMNS[1]}</th><th>{POD_COLUMNS[2]}</th><th>{POD_COLUMNS[3]}</th><th>{POD_COLUMNS[4]}</th></tr></thead>
                            <tbody>{ for run.pods.iter().take(200).map(|p| html! {
                                <tr>
                                    <td><code>{ p.name.clone() }</code></td>if run.indexed { <td data-label={POD_COLUMNS[0]}>{ p.index }</td> }
                                    <td data-label={POD_COLUMNS[1]}>{ units_kept(&format!("{} – {}", format_human_ms(p.start_ms), format_human_ms(p.end_ms))) }</td>
                                    <td data-label={POD_COLUMNS[2]}>{ result_word(p.result) }</td>
                                    <td data-label={POD_COLUMNS[3]}>{ p.rule.map_or_else(|| "—".to_owned(), |r| format!("rules[{r}]")) }</td>
                                    <td class="wide" data-label={POD_COLUMNS[4]}>{ breakable(&p.detail) }</td>
                                </tr>
                            }) }</tbody>
                        </table>
                    </div>
                </div>
            }
        }
    };
    let all_errors = if errors.is_empty() {
        html! {}
    } else {
        html! {
            <div class="refused" id="job-errors">
                <p>{"Not run: the API server would reject this Job, or the script cannot be played on it:"}</p>
                <ul>{ for errors.iter().map(|e| html! { <li>{ e.clone() }</li> }) }</ul>
                if state.run.is_some() {
                    <p class="hint">{"Below: the last valid Job's run, not this one's."}</p>
                }
            </div>
        }
    };
    let fill = |f: Fill| send(&state, move |_: MouseEvent| JobAction::Fill(f));
    let first = spec.template.spec.containers.first();
    let container_policy = first
        .and_then(|c| c.restart_policy.clone())
        .unwrap_or_default();
    let rule_codes = first
        .and_then(|c| c.restart_policy_rules.first())
        .and_then(|r| r.exit_codes.as_ref())
        .map(|e| codes_text(&e.values))
        .unwrap_or_default();
    let warnings = state
        .valid
        .as_ref()
        .map(|v| v.warnings.clone())
        .unwrap_or_default();
    html! {
        <div class="layout">
            <div class="controls">
                { for bar }
                <section class="panel" aria-labelledby="h-jobspec">
                    <h2 id="h-jobspec">{"Job spec"}</h2>
                    <div class="row">
                        <TextField id="job-backoff-limit" label={html! {<code>{"backoffLimit"}</code>}} value={state.int_refused.text(IntField::BackoffLimit, || int_text(spec.backoff_limit))}
                            placeholder="6" oninput={int(IntField::BackoffLimit)}
                            error={field_error(&state, IntField::BackoffLimit)} />
                        <TextField id="job-completions" label={html! {<code>{"completions"}</code>}} value={state.int_refused.text(IntField::Completions, || int_text(spec.completions))}
                            placeholder="1" oninput={int(IntField::Completions)}
                            error={field_error(&state, IntField::Completions)} />
                        <TextField id="job-parallelism" label={html! {<code>{"parallelism"}</code>}} value={state.int_refused.text(IntField::Parallelism, || int_text(spec.parallelism))}
                            placeholder="1" oninput={int(IntField::Parallelism)}
                            error={field_error(&state, IntField::Parallelism)} />
                    </div>
                    <div class="row">
                        <Choice id="job-mode" label="completionMode" selected={spec.completion_mode.clone().unwrap_or_else(|| "NonIndexed".into())}
                            options={vec![("NonIndexed".into(), "NonIndexed".into()), ("Indexed".into(), "Indexed".into())]}
                            onchange={send(&state, JobAction::Mode)} />
                        <Choice id="job-restart-policy" label="pod restartPolicy" selected={spec.template.spec.restart_policy.clone().unwrap_or_default()}
                            options={vec![("Never".into(), "Never".into()), ("OnFailure".into(), "OnFailure".into())]}
                            onchange={send(&state, JobAction::RestartPolicy)} />
                    </div>
                    { error_list([state.errors_for("spec.completionMode"), state.errors_for("spec.template")].concat()) }
                    <div class="row">
                        <TextField id="job-backoff-limit-per-index" label={html! {<code>{"backoffLimit"}<wbr/>{"PerIndex"}</code>}}
                            value={state.int_refused.text(IntField::BackoffLimitPerIndex, || int_text(spec.backoff_limit_per_index))} placeholder="unset" oninput={int(IntField::BackoffLimitPerIndex)}
                            error={field_error(&state, IntField::BackoffLimitPerIndex)} />
                        <TextField id="job-max-failed-indexes" label={html! {<code>{"maxFailedIndexes"}</code>}}
                            value={state.int_refused.text(IntField::MaxFailedIndexes, || int_text(spec.max_failed_indexes))} placeholder="unset" oninput={int(IntField::MaxFailedIndexes)}
                            error={field_error(&state, IntField::MaxFailedIndexes)} />
                    </div>
                    <p class="hint">{"Both apply to an Indexed Job only (completionMode: Indexed)."}</p>
                    <div class="row">
                        <Choice id="job-container-policy" label={format!("{} restartPolicy (container)", first.map_or("main", |c| c.name.as_str()))} selected={container_policy}
                            options={vec![("".into(), "unset (the pod's)".into()), ("Always".into(), "Always".into()), ("OnFailure".into(), "OnFailure".into()), ("Never".into(), "Never".into())]}
                            onchange={send(&state, JobAction::ContainerPolicy)} />
                        <TextField id="job-container-rule" label={html! {<>{"restarts in place on exit codes ("}<code>{"restartPolicy"}<wbr/>{"Rules"}</code>{")"}</>}}
                            value={rule_codes} placeholder="e.g. 42" oninput={send(&state, JobAction::ContainerRuleCodes)} />
                    </div>
                    { error_list(state.errors_for("spec.template.spec.containers")) }
                    if !warnings.is_empty() {
                        <ul class="warnings" id="job-warnings">{ for warnings.iter().map(|w| html! { <li>{"warning: "}{ w.clone() }</li> }) }</ul>
                    }
                </section>
                <section class="panel" aria-labelledby="h-policy">
                    <h2 id="h-policy"><code>{"podFailurePolicy"}</code>{" rules (first match wins)"}</h2>
                    { for (0..rules).map(|i| html! { <RuleEditor state={state.clone()} index={i} /> }) }
                    { error_list(state.errors_for("spec.podFailurePolicy.rules").into_iter().filter(|e| e.starts_with("spec.podFailurePolicy.rules:")).collect()) }
                    if rules < MAX_RULES {
                        <button type="button" id="add-rule" onclick={send(&state, |_: MouseEvent| JobAction::AddRule)}>{"Add a rule"}</button>
                    } else {
                        <p class="hint">{ format!("The API allows at most {MAX_RULES} rules.") }</p>
                    }
                </section>
                <section class="panel" aria-labelledby="h-script">
                    <h2 id="h-script">{"Failure script"}</h2>
                    <p class="hint">{"One attempt a line, for every index: "}<code>{"exit 1"}</code>{", "}<code>{"exit main=1 sidecar=0"}</code>{", "}
                        <code>{"succeed"}</code>{", "}<code>{"preempt"}</code>{", "}<code>{"evict"}</code>{", "}<code>{"disrupt DeletionByTaintManager"}</code>{". The last line repeats."}</p>
                    <ul class="presets">
                        <li><button type="button" id="fill-always-fail" onclick={fill(Fill::AlwaysFail)}>{"always exit 1"}</button></li>
                        <li><button type="button" id="fill-42-then-succeed" onclick={fill(Fill::FailThenSucceed)}>{"exit 42 then succeed"}</button></li>
                        <li><button type="button" id="fill-preempted-twice" onclick={fill(Fill::PreemptedTwice)}>{"preempted twice then succeed"}</button></li>
                        <li><button type="button" id="fill-random" onclick={fill(Fill::Random)}>{"random"}</button></li>
                    </ul>
                    <div class="row">
                        <TextField id="job-seed" label={html! {"random: seed"}} value={state.seed_text.clone()} placeholder="1"
                            oninput={send(&state, JobAction::Seed)} error={state.seed_error.clone().map(AttrValue::from)} />
                        <Slider id="job-failure-percent" label="random: failure probability" positions={21}
                            position={(state.failure_percent / 5) as usize} display={format!("{} %", state.failure_percent)}
                            onchange={send(&state, |pos: usize| JobAction::FailurePercent(pos as u32 * 5))} />
                    </div>
                    <TextArea id="job-script" label="Attempts" value={state.inputs.script.clone()} rows={6}
                        oninput={send(&state, JobAction::Script)} error={script_error} />
                    <Slider id="job-run" label="Each pod runs" positions={POD_RUN_STOPS_MS.len()}
                        position={nearest_stop(POD_RUN_STOPS_MS, state.inputs.run_ms)} display={format_human_ms(state.inputs.run_ms)}
                        onchange={send_stop(&state, POD_RUN_STOPS_MS, JobAction::RunMs)} />
                </section>
                <section class="panel" aria-labelledby="h-manifest">
                    <h2 id="h-manifest">{"Manifest"}</h2>
                    <TextArea id="job-paste" label="Paste a Job manifest (YAML or JSON)" value={state.paste.clone()} rows={6}
                        oninput={send(&state, JobAction::Paste)} error={state.paste_error.clone().map(AttrValue::from)} />
                    <button type="button" id="job-load" onclick={send(&state, |_: MouseEvent| JobAction::LoadPaste)}>{"Load the manifest"}</button>
                    <h3>{"This Job as a manifest"}</h3>
                    <pre class="manifest" id="job-manifest" tabindex="0">{ manifest_yaml.clone() }</pre>
                    <CopyButton id="copy-job-manifest" text={manifest_yaml} />
                </section>
            </div>
            <section class="results" aria-label="Job results" aria-live="polite">
                { all_errors }
                { outcome }
                <p class="fineprint">{"Replacement pods wait 10 s doubling to 10 min, counting every failed pod since the last success, ignored ones included (per index: the index's failures, ignored ones included); the failure that ends the Job or its index is not followed by a wait. Disrupted pods carry the DisruptionTarget condition and their containers exit 137. With pod restartPolicy OnFailure the kubelet restarts failed containers in place (CrashLoopBackOff: at once, then 10 s doubling) and the Job fails when the pods' summed restartCount reaches backoffLimit. A container's own restart rules (KEP-5307) restart it in place without the pod failing: the controller sees nothing."}</p>
            </section>
        </div>
    }
}
