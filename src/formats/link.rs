//! The app's state in a URL query string: short keys, durations as Go writes
//! them ("1s", "5m0s"), defaults left out. Decoding never fails: a value that
//! does not parse or is out of range falls back to the default, with a notice
//! naming the key. Pure Rust, so it is tested natively.

use crate::engine::config::{
    CrashLoopBackOffConfig, KubeletConfig, KubeletVersion, Semantics, DEFAULT_INITIAL_MS,
    DEFAULT_MAX_MS,
};
use crate::engine::duration::{format_go_duration_ms, parse_go_duration, NANOS_PER_MS};
use crate::engine::job::JobManifest;
use crate::engine::presets::presets;
use crate::engine::restart_rules::{
    ContainerRestartRule, ContainerRestartRuleOnExitCodes, RuleAction, MAX_RESTART_RULES,
};
use crate::engine::scenario::{
    ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioSpec, BAND_SEEDS_RANGE, BURST_RANGE,
    DEFAULT_PODS, EXIT_CODE_RANGE, HORIZON_RANGE_MS, INITIAL_RANGE_MS, LATENCY_RANGE_MS,
    MAX_GROUPS, MAX_GROUP_NAME, MAX_RANGE_MS, PODS_RANGE, QPS_RANGE, REQUESTS_PER_RESTART_RANGE,
    RESET_RANGE_MS, RUN_RANGE_MS, SCHEDULE_WAIT_RANGE_MS, SPREAD_RANGE_MS,
};
use crate::engine::{
    Ms, KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};

/// A query string longer than this is not read (no browser needs more).
pub const MAX_QUERY: usize = 16_384;
const MAX_TEXT: usize = 4_096;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    CrashLoop,
    Job,
}

/// A scenario drawn beside the live one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareRef {
    Preset(&'static str),
    Pinned(Box<ScenarioSpec>),
}

/// The Job view's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobShare {
    pub manifest: Option<JobManifest>,
    pub script: Option<String>,
    pub run_ms: Option<Ms>,
}

/// Everything a link reopens.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shared {
    pub view: View,
    /// The live scenario; `config` is set unless a custom curve is in use.
    pub spec: ScenarioSpec,
    /// The gate and field controls (kept while a custom curve is in use).
    pub config: KubeletConfig,
    pub compared: Vec<CompareRef>,
    pub job: Option<JobShare>,
    pub embed: bool,
    /// In embed mode, the controls to show.
    pub controls: Vec<String>,
}

/// Why part of a link was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub key: String,
    pub message: String,
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or(())
                {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `key=value` pairs of a query string (with or without the leading `?`).
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

struct Writer(Vec<String>);

impl Writer {
    fn put(&mut self, key: &str, value: impl AsRef<str>) {
        self.0
            .push(format!("{key}={}", percent_encode(value.as_ref())));
    }
    fn ms(&mut self, key: &str, ms: Ms) {
        self.put(key, format_go_duration_ms(ms));
    }
}

/// A group's exit in a link: its name's first letter (`f`, `s`), or the
/// exact code (`42`).
fn exit_field(g: &Group) -> String {
    match g.exit_code {
        Some(code) => code.to_string(),
        None => g.exit.name()[..1].to_owned(),
    }
}

/// One letter per restart policy: `A`, `O`, `N`.
fn policy_letter(p: RestartPolicy) -> &'static str {
    &p.name()[..1]
}

fn policy_of_letter(s: &str) -> Option<RestartPolicy> {
    RestartPolicy::ALL
        .into_iter()
        .find(|p| policy_letter(*p) == s)
}

/// A rule in a link: action (`R` Restart, `P` RestartAllContainers), operator
/// (`i` In, `n` NotIn), then the exit codes joined by `-`: `Ri42-43`.
fn rule_field(r: &ContainerRestartRule) -> String {
    let action = if r.action == RuleAction::RestartAllContainers.name() {
        "P"
    } else {
        "R"
    };
    let (op, values) = match &r.exit_codes {
        Some(e) => (
            if e.operator == "NotIn" { "n" } else { "i" },
            e.values
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join("-"),
        ),
        None => ("i", String::new()),
    };
    format!("{action}{op}{values}")
}

fn rule_of_field(s: &str) -> Option<ContainerRestartRule> {
    let mut chars = s.chars();
    let action = match chars.next()? {
        'R' => RuleAction::Restart,
        'P' => RuleAction::RestartAllContainers,
        _ => return None,
    };
    let operator = match chars.next()? {
        'i' => "In",
        'n' => "NotIn",
        _ => return None,
    };
    let values = chars
        .as_str()
        .split('-')
        .map(|v| v.parse::<i32>().ok())
        .collect::<Option<Vec<_>>>()?;
    Some(ContainerRestartRule {
        action: action.name().to_owned(),
        exit_codes: Some(ContainerRestartRuleOnExitCodes {
            operator: operator.to_owned(),
            values,
        }),
    })
}

/// A group's policies in a link: the pod's letter, then optionally `_` and
/// the container's own letter, then `_` and each rule: `N_N_Ri42`.
fn policy_field(g: &Group) -> String {
    let mut out = policy_letter(g.restart_policy).to_owned();
    if g.container_restart_policy.is_some() || !g.restart_policy_rules.is_empty() {
        out.push('_');
        out.push_str(g.container_restart_policy.map_or("", policy_letter));
        for r in &g.restart_policy_rules {
            out.push('_');
            out.push_str(&rule_field(r));
        }
    }
    out
}

/// The query string (without `?`) for a state; empty for the defaults.
/// A duration for a dot-separated field: "1.5s" would split, "1500ms" does not.
fn dotless_duration(ms: Ms) -> String {
    let go = format_go_duration_ms(ms);
    if go.contains('.') {
        format!("{ms}ms")
    } else {
        go
    }
}

pub fn encode(s: &Shared) -> String {
    let d = ScenarioSpec::default();
    let spec = &s.spec;
    let mut w = Writer(vec![]);
    if s.view == View::Job {
        w.put("view", "job");
    }
    if s.embed {
        w.put("embed", "1");
        if !s.controls.is_empty() {
            w.put("controls", s.controls.join(","));
        }
    }
    if spec.model == Semantics::Kep {
        w.put("m", "kep");
    }
    // Always written, so that a shared link keeps its meaning when the
    // default version moves.
    w.put("v", spec.kubelet_version.unwrap_or_default().name());
    for (key, gate) in [
        ("gr", REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY),
        ("gm", KUBELET_CRASH_LOOP_BACK_OFF_MAX),
    ] {
        if let Some(on) = s.config.feature_gates.get(gate) {
            w.put(key, if *on { "1" } else { "0" });
        }
    }
    if let Some(p) = &s.config.crash_loop_back_off.max_container_restart_period {
        w.put("p", p);
    }
    if spec.config.is_none() {
        w.ms("i", spec.initial_ms.unwrap_or(DEFAULT_INITIAL_MS));
        w.ms("x", spec.max_ms.unwrap_or(DEFAULT_MAX_MS));
        if let Some(r) = spec.reset_after_ms {
            w.ms("rs", r);
        }
        if !spec.schedule_ms.is_empty() {
            w.put(
                "sc",
                spec.schedule_ms
                    .iter()
                    .map(|&m| format_go_duration_ms(m))
                    .collect::<Vec<_>>()
                    .join(","),
            );
        }
    }
    if let Some(r) = spec.requeue {
        w.put("rq", r.name());
    }
    if spec.seed != d.seed {
        w.put("s", spec.seed.to_string());
    }
    if spec.band_seeds != d.band_seeds {
        w.put("bs", spec.band_seeds.to_string());
    }
    if spec.start_latency_ms != 0 {
        w.ms("l", spec.start_latency_ms);
    }
    if spec.groups.is_empty() {
        if let Some(n) = spec.pods.filter(|&n| n != DEFAULT_PODS) {
            w.put("n", n.to_string());
        }
        if let Some(r) = spec.run_ms.filter(|&r| r != 0) {
            w.ms("r", r);
        }
    } else {
        for g in &spec.groups {
            w.put(
                "g",
                format!(
                    "{}.{}.{}.{}.{}.{}",
                    g.pods,
                    dotless_duration(g.run_ms),
                    exit_field(g),
                    policy_field(g),
                    dotless_duration(g.spread_ms),
                    g.name
                ),
            );
        }
    }
    if spec.chart_group != 0 {
        w.put("cg", spec.chart_group.to_string());
    }
    if spec.horizon_ms != d.horizon_ms {
        w.ms("h", spec.horizon_ms);
    }
    if spec.requests_per_restart != d.requests_per_restart {
        w.put("rp", spec.requests_per_restart.to_string());
    }
    if spec.kube_api_qps != d.kube_api_qps {
        w.put("q", spec.kube_api_qps.to_string());
    }
    if spec.kube_api_burst != d.kube_api_burst {
        w.put("b", spec.kube_api_burst.to_string());
    }
    let preset_ids: Vec<&str> = s
        .compared
        .iter()
        .filter_map(|c| match c {
            CompareRef::Preset(id) => Some(*id),
            CompareRef::Pinned(_) => None,
        })
        .collect();
    if !preset_ids.is_empty() {
        w.put("c", preset_ids.join(","));
    }
    for c in &s.compared {
        if let CompareRef::Pinned(spec) = c {
            if let Ok(json) = serde_json::to_string(spec) {
                w.put("pin", json);
            }
        }
    }
    if let Some(job) = &s.job {
        if let Some(m) = job
            .manifest
            .as_ref()
            .and_then(|m| serde_json::to_string(m).ok())
        {
            w.put("job", m);
        }
        if let Some(t) = &job.script {
            w.put("js", t);
        }
        if let Some(r) = job.run_ms {
            w.ms("jr", r);
        }
    }
    w.0.join("&")
}

/// A duration: a Go duration ("1s", "1m30s") or whole milliseconds.
fn parse_ms(v: &str) -> Result<Ms, String> {
    if let Ok(ms) = v.parse::<Ms>() {
        return Ok(ms);
    }
    let ns = parse_go_duration(v).map_err(|e| e.0)?;
    if ns < 0 {
        return Err("a duration cannot be negative".into());
    }
    Ok((ns / NANOS_PER_MS) as Ms)
}

fn show_value(v: &str) -> String {
    let short: String = v.chars().take(40).collect();
    format!("{short:?}{}", if v.chars().count() > 40 { "…" } else { "" })
}

struct Reader {
    notices: Vec<Notice>,
}

impl Reader {
    fn notice(&mut self, key: &str, value: &str, why: impl Into<String>) {
        self.notices.push(Notice {
            key: key.to_owned(),
            message: format!(
                "ignored {key}={}: {}; using the default",
                show_value(value),
                why.into()
            ),
        });
    }

    fn ms(&mut self, key: &str, v: &str, range: &std::ops::RangeInclusive<Ms>) -> Option<Ms> {
        match parse_ms(v) {
            Ok(ms) if range.contains(&ms) => Some(ms),
            Ok(ms) => {
                self.notice(
                    key,
                    v,
                    format!(
                        "must be between {} and {} (got {})",
                        format_go_duration_ms(*range.start()),
                        format_go_duration_ms(*range.end()),
                        format_go_duration_ms(ms)
                    ),
                );
                None
            }
            Err(e) => {
                self.notice(key, v, e);
                None
            }
        }
    }

    fn num<T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display>(
        &mut self,
        key: &str,
        v: &str,
        range: &std::ops::RangeInclusive<T>,
    ) -> Option<T> {
        match v.parse::<T>() {
            Ok(n) if range.contains(&n) => Some(n),
            Ok(n) => {
                self.notice(
                    key,
                    v,
                    format!(
                        "must be between {} and {} (got {n})",
                        range.start(),
                        range.end()
                    ),
                );
                None
            }
            Err(_) => {
                self.notice(key, v, "not a whole number");
                None
            }
        }
    }

    fn group(&mut self, v: &str) -> Option<Group> {
        let parts: Vec<&str> = v.splitn(6, '.').collect();
        let bad = |r: &mut Reader, why: &str| {
            r.notice(
                "g",
                v,
                format!(
                    "{why} (write pods.run.exit.policy.spread.name, e.g. 10.30s.f.A.1m0s.batch or 10.30s.42.N_N_Ri42.0s.rules)"
                ),
            );
            None
        };
        let [pods, run, exit, policy, spread, name] = parts.as_slice() else {
            return bad(self, "needs six parts");
        };
        let Some(pods) = pods.parse::<u32>().ok().filter(|p| PODS_RANGE.contains(p)) else {
            return bad(self, "pods must be 1 to 250");
        };
        let Some(run_ms) = parse_ms(run).ok().filter(|r| RUN_RANGE_MS.contains(r)) else {
            return bad(self, "the crash interval must be 0s to 15m0s");
        };
        let by_letter = ExitKind::ALL.into_iter().find(|k| &k.name()[..1] == *exit);
        let by_code = exit
            .parse::<i32>()
            .ok()
            .filter(|c| EXIT_CODE_RANGE.contains(c));
        let (exit, exit_code) = match (by_letter, by_code) {
            (Some(kind), _) => (kind, None),
            (None, Some(c)) => (ExitKind::of_code(c), Some(c)),
            (None, None) => return bad(self, "exit must be f, s or an exit code 0 to 255"),
        };
        let mut policies = policy.split('_');
        let Some(restart_policy) = policies.next().and_then(policy_of_letter) else {
            return bad(self, "policy must be A, O or N");
        };
        let container_restart_policy = match policies.next() {
            None | Some("") => None,
            Some(letter) => match policy_of_letter(letter) {
                Some(p) => Some(p),
                None => return bad(self, "the container's policy must be A, O or N"),
            },
        };
        let mut restart_policy_rules = vec![];
        for r in policies.take(MAX_RESTART_RULES + 1) {
            match rule_of_field(r) {
                Some(rule) => restart_policy_rules.push(rule),
                None => {
                    return bad(
                        self,
                        "a restart rule is R or P, i or n, then exit codes (Ri42-43)",
                    )
                }
            }
        }
        let Some(spread_ms) = parse_ms(spread)
            .ok()
            .filter(|s| SPREAD_RANGE_MS.contains(s))
        else {
            return bad(self, "the spread must be 0s to 10m0s");
        };
        Some(Group {
            name: name.chars().take(MAX_GROUP_NAME).collect(),
            pods,
            run_ms,
            exit,
            exit_code,
            restart_policy,
            container_restart_policy,
            restart_policy_rules,
            spread_ms,
        })
    }
}

/// The state a query string describes, and what in it was not used.
/// Links written before every link carried `v=` left the version out when it
/// was the default, which was 1.35 until 1.36 and 1.37 were added.
pub const LEGACY_LINK_VERSION: KubeletVersion = KubeletVersion::V1_35;

pub fn decode(query: &str) -> (Shared, Vec<Notice>) {
    let mut r = Reader { notices: vec![] };
    let mut s = Shared::default();
    if query.len() > MAX_QUERY {
        r.notices.push(Notice {
            key: "?".into(),
            message: format!(
                "the link is longer than {MAX_QUERY} characters; showing the defaults"
            ),
        });
        s.spec.config = Some(s.config.clone());
        return (s, r.notices);
    }
    let mut custom = (None, None);
    let mut job = JobShare {
        manifest: None,
        script: None,
        run_ms: None,
    };
    let mut has_job = false;
    let (mut saw_known, mut saw_version) = (false, false);
    for (key, v) in parse_query(query) {
        let spec = &mut s.spec;
        match key.as_str() {
            "view" => match v.as_str() {
                "job" => s.view = View::Job,
                "crashloop" => {}
                _ => r.notice("view", &v, "not a view (job or crashloop)"),
            },
            "embed" => s.embed = v == "1" || v == "true",
            "controls" => {
                s.controls = v
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .take(32)
                    .map(|c| c.chars().take(40).collect())
                    .collect()
            }
            "m" => match v.as_str() {
                "kep" => spec.model = Semantics::Kep,
                "kubelet" => spec.model = Semantics::Kubelet,
                _ => r.notice("m", &v, "the model is kep or kubelet"),
            },
            "v" => match KubeletVersion::parse(&v) {
                Some(version) => spec.kubelet_version = Some(version),
                None => r.notice(
                    "v",
                    &v,
                    format!(
                        "not a modelled kubelet version ({} to {})",
                        KubeletVersion::ALL[0].name(),
                        KubeletVersion::default().name()
                    ),
                ),
            },
            "gr" | "gm" => {
                let gate = if key == "gr" {
                    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY
                } else {
                    KUBELET_CRASH_LOOP_BACK_OFF_MAX
                };
                match v.as_str() {
                    "1" | "true" => {
                        s.config.feature_gates.insert(gate.into(), true);
                    }
                    "0" | "false" => {
                        s.config.feature_gates.insert(gate.into(), false);
                    }
                    _ => r.notice(&key, &v, "a gate is 1 or 0"),
                }
            }
            // The field's own validation is the kubelet's: shown where it is typed.
            "p" if v.chars().count() <= 64 => {
                s.config.crash_loop_back_off = CrashLoopBackOffConfig {
                    max_container_restart_period: (!v.is_empty()).then_some(v),
                }
            }
            "p" => r.notice("p", &v, "longer than 64 characters"),
            "i" => custom.0 = r.ms("i", &v, &INITIAL_RANGE_MS),
            "x" => custom.1 = r.ms("x", &v, &MAX_RANGE_MS),
            "rs" => spec.reset_after_ms = r.ms("rs", &v, &RESET_RANGE_MS),
            "sc" => {
                let waits: Result<Vec<Ms>, String> = v
                    .split(',')
                    .take(33)
                    .map(|w| {
                        parse_ms(w)
                            .ok()
                            .filter(|m| SCHEDULE_WAIT_RANGE_MS.contains(m))
                            .ok_or_else(|| w.to_owned())
                    })
                    .collect();
                match waits {
                    Ok(w) if w.len() <= 32 => spec.schedule_ms = w,
                    Ok(_) => r.notice("sc", &v, "at most 32 waits"),
                    Err(w) => r.notice(
                        "sc",
                        &v,
                        format!("{w:?} is not a wait between 25ms and 1h0m0s"),
                    ),
                }
            }
            "rq" => match v.as_str() {
                name if Requeue::parse(name).is_some() => spec.requeue = Requeue::parse(name),
                // What links said before the name table.
                "expiry" => spec.requeue = Some(Requeue::AtExpiry),
                _ => r.notice("rq", &v, "the requeue is ideal, periodic or expiry"),
            },
            "s" => match v.parse::<u64>() {
                Ok(seed) => spec.seed = seed,
                Err(_) => r.notice("s", &v, "a seed is a whole number"),
            },
            "bs" => {
                spec.band_seeds = r
                    .num("bs", &v, &BAND_SEEDS_RANGE)
                    .unwrap_or(spec.band_seeds)
            }
            "l" => spec.start_latency_ms = r.ms("l", &v, &LATENCY_RANGE_MS).unwrap_or(0),
            "n" => spec.pods = r.num("n", &v, &PODS_RANGE),
            "r" => spec.run_ms = r.ms("r", &v, &RUN_RANGE_MS),
            "g" => {
                if spec.groups.len() >= MAX_GROUPS {
                    r.notice("g", &v, format!("at most {MAX_GROUPS} groups"));
                } else if let Some(g) = r.group(&v) {
                    spec.groups.push(g);
                }
            }
            "cg" => spec.chart_group = r.num("cg", &v, &(0..=MAX_GROUPS - 1)).unwrap_or(0),
            "h" => spec.horizon_ms = r.ms("h", &v, &HORIZON_RANGE_MS).unwrap_or(spec.horizon_ms),
            "rp" => {
                spec.requests_per_restart = r
                    .num("rp", &v, &REQUESTS_PER_RESTART_RANGE)
                    .unwrap_or(spec.requests_per_restart)
            }
            "q" => spec.kube_api_qps = r.num("q", &v, &QPS_RANGE).unwrap_or(spec.kube_api_qps),
            "b" => {
                spec.kube_api_burst = r.num("b", &v, &BURST_RANGE).unwrap_or(spec.kube_api_burst)
            }
            "c" => {
                for id in v.split(',').filter(|id| !id.is_empty()) {
                    match presets().into_iter().find(|p| p.id == id) {
                        Some(p) if s.compared.len() < 3 => {
                            s.compared.push(CompareRef::Preset(p.id))
                        }
                        Some(_) => r.notice("c", id, "at most 3 compared scenarios"),
                        None => r.notice("c", id, "not one of the KEP's curves"),
                    }
                }
            }
            "pin" => match serde_json::from_str::<ScenarioSpec>(&v)
                .map_err(|e| e.to_string())
                .and_then(|p| {
                    Scenario::try_from(p.clone())
                        .map(|_| p)
                        .map_err(|e| e.to_string())
                }) {
                Ok(p) if s.compared.len() < 3 => s.compared.push(CompareRef::Pinned(Box::new(p))),
                Ok(_) => r.notice("pin", &v, "at most 3 compared scenarios"),
                Err(e) => r.notice("pin", &v, e),
            },
            "job" => match serde_json::from_str::<JobManifest>(&v) {
                Ok(m) => {
                    job.manifest = Some(m);
                    has_job = true;
                }
                Err(e) => r.notice("job", &v, format!("not a Job manifest: {e}")),
            },
            "js" if v.len() <= MAX_TEXT => {
                job.script = Some(v);
                has_job = true;
            }
            "js" => r.notice("js", &v, "the script is too long"),
            "jr" => {
                job.run_ms = r.ms("jr", &v, &(1_000..=3_600_000));
                has_job = true;
            }
            // Unknown keys belong to someone else (analytics, a docs site): left alone.
            _ => continue,
        }
        saw_known = true;
        saw_version |= key == "v";
    }
    if saw_known && !saw_version {
        s.spec.kubelet_version = Some(LEGACY_LINK_VERSION);
        r.notices.push(Notice {
            key: "v".into(),
            message: format!(
                "this link does not say which kubelet: read as {}, the default when links left it out",
                LEGACY_LINK_VERSION.name()
            ),
        });
    }
    if has_job {
        s.job = Some(job);
    }
    if custom.0.is_some() || custom.1.is_some() || !s.spec.schedule_ms.is_empty() {
        s.spec.initial_ms = Some(custom.0.unwrap_or(DEFAULT_INITIAL_MS));
        s.spec.max_ms = Some(custom.1.unwrap_or(DEFAULT_MAX_MS));
    } else {
        s.spec.reset_after_ms = None;
        s.spec.config = Some(s.config.clone());
    }
    // What is right key by key can still be wrong together (pods over 250 on the node).
    if let Err(e) = Scenario::try_from(s.spec.clone()) {
        if !matches!(e, crate::engine::ScenarioError::Config(_)) {
            r.notices.push(Notice {
                key: "?".into(),
                message: format!("the link's scenario is invalid ({e}); showing the defaults"),
            });
            let config = KubeletConfig::default();
            s.spec = ScenarioSpec {
                config: Some(config.clone()),
                ..ScenarioSpec::default()
            };
            s.config = config;
        }
    }
    (s, r.notices)
}
