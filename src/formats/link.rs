//! The app's state in a URL query string: short keys, durations as Go writes
//! them ("1s", "5m0s"), defaults left out. Decoding never fails: a value that
//! does not parse or is out of range falls back to the default, with a notice
//! naming the key. Pure Rust, so it is tested natively. Percent escapes
//! are the percent-encoding crate's.

use crate::engine::config::{
    CrashLoopBackOffConfig, KubeletVersion, Semantics, DEFAULT_INITIAL_MS, DEFAULT_MAX_MS,
};
use crate::engine::duration::{format_go_duration_ms, parse_go_duration, NANOS_PER_MS};
use crate::engine::job::JobManifest;
use crate::engine::presets::presets;
use crate::engine::requests::RunningSeen;
use crate::engine::restart_rules::{
    ContainerRestartRule, ContainerRestartRuleOnExitCodes, RuleAction, MAX_RESTART_RULES,
};
use crate::engine::scenario::{
    ExitKind, Group, Requeue, RestartPolicy, Scenario, ScenarioSpec, BAND_SEEDS_RANGE, BURST_RANGE,
    DEFAULT_PODS, EVENT_LIMIT_RANGE, EXIT_CODE_RANGE, HORIZON_RANGE_MS, INITIAL_RANGE_MS,
    LATENCY_RANGE_MS, MAX_GROUPS, MAX_GROUP_NAME, MAX_RANGE_MS, MAX_SCHEDULE_LEN, PODS_RANGE,
    QPS_RANGE, REQUESTS_PER_RESTART_RANGE, RESET_RANGE_MS, RUN_RANGE_MS, SCHEDULE_WAIT_RANGE_MS,
    SPREAD_RANGE_MS,
};
use crate::engine::{
    Ms, KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
use crate::inputs::{Inputs, JobInputs, JobLink, Theme};

/// A query string longer than this is not read (no browser needs more).
pub const MAX_QUERY: usize = 16_384;
const MAX_TEXT: usize = 4_096;
/// How long a Job's pods may run, in a link.
const JOB_RUN_RANGE_MS: std::ops::RangeInclusive<Ms> = 1_000..=3_600_000;

pub use crate::inputs::{CompareRef, Page, View};

#[path = "cluster_link.rs"]
mod cluster;
pub use cluster::{cluster_inputs, cluster_link};

/// The name links and their tests know the page by.
pub type Shared = Page;

/// At most this many scenarios are compared with the live one.
const MAX_COMPARED: usize = 3;

/// Why part of a link was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub key: String,
    pub message: String,
}

/// What a value keeps as written: RFC 3986's unreserved characters, and `,`
/// (lists read better unescaped).
const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b',');

/// A query component as a form writes it: `+` is a space, `%XX` a byte; an
/// escape that is not one stays as written.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

fn percent_encode(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, KEEP).to_string()
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

/// A duration for a dot-separated field: "1.5s" would split, "1500ms" does not.
fn dotless_duration(ms: Ms) -> String {
    let go = format_go_duration_ms(ms);
    if go.contains('.') {
        format!("{ms}ms")
    } else {
        go
    }
}

/// A group in a link: `pods.run.exit.policy.spread.name`.
fn group_field(g: &Group) -> String {
    format!(
        "{}.{}.{}.{}.{}.{}",
        g.pods,
        dotless_duration(g.run_ms),
        exit_field(g),
        policy_field(g),
        dotless_duration(g.spread_ms),
        g.name
    )
}

/// The query string (without `?`) for a page: every parameter in `PARAMS`
/// order, defaults left out (but the version, always).
pub fn encode(page: &Page) -> String {
    let mut w = Writer(vec![]);
    for (key, v) in &page.cluster.0 {
        w.put(key, v);
    }
    let keys = write_keys(page, params());
    match (keys.is_empty(), w.0.is_empty()) {
        (_, true) => keys,
        (true, false) => w.0.join("&"),
        (false, false) => format!("{keys}&{}", w.0.join("&")),
    }
}

fn write_keys<'a>(page: &Page, params: impl Iterator<Item = &'a Param>) -> String {
    let mut w = Writer(vec![]);
    for p in params {
        match p.write {
            Values(write) => write(page).into_iter().for_each(|v| w.put(p.key, v)),
            Pairs(write) => write(page).into_iter().for_each(|(k, v)| w.put(k, v)),
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
    format!(
        "{}{}",
        crate::engine::field::quoted(&short),
        if v.chars().count() > 40 { "…" } else { "" }
    )
}

struct Reader {
    notices: Vec<Notice>,
    json_pin: JsonPin,
    /// Reading a pin's own keys: a notice says only the key, value and why,
    /// for the pin's notice to quote.
    in_pin: bool,
}

impl Reader {
    fn new(json_pin: JsonPin) -> Self {
        Reader {
            notices: vec![],
            json_pin,
            in_pin: false,
        }
    }

    fn notice(&mut self, key: &str, value: &str, why: impl Into<String>) {
        let (value, why) = (show_value(value), why.into());
        self.notices.push(Notice {
            key: key.to_owned(),
            message: if self.in_pin {
                format!("{key}={value}: {why}")
            } else {
                format!("ignored {key}={value}: {why}; using the default")
            },
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

/// Links written before every link carried `v=` left the version out when it
/// was the default, which was 1.35 until 1.36 and 1.37 were added.
pub const LEGACY_LINK_VERSION: KubeletVersion = KubeletVersion::V1_35;

/// The page a query string describes, and what in it was not used.
/// Decoding never fails: a bad value keeps the default and says so.
pub fn decode(query: &str) -> (Page, Vec<Notice>) {
    decode_with(query, json_pin)
}

/// How a wasm reads a pin written as JSON, as links wrote pins before they
/// were link keys: `json_pin`, or `json_pin_elsewhere` where the wasm
/// carries no JSON reader for scenarios (the custom element's).
pub type JsonPin = fn(&str) -> Result<ScenarioSpec, String>;

/// A pin as JSON (`{"initialMs":250,…}`), read as the JS API reads a scenario.
pub fn json_pin(v: &str) -> Result<ScenarioSpec, String> {
    super::json::from_str::<ScenarioSpec>(v)
}

/// For the custom element, whose wasm reads pins only as link keys: the
/// full app opens the link and writes the pin anew.
pub fn json_pin_elsewhere(_: &str) -> Result<ScenarioSpec, String> {
    Err("a pin written as JSON, as older links wrote pins, which the custom element does not read; open the link in crashloop-explorer and copy it anew".into())
}

/// `decode`, with pins written as JSON read by `json_pin`.
pub fn decode_with(query: &str, json_pin: JsonPin) -> (Page, Vec<Notice>) {
    let mut r = Reader::new(json_pin);
    let mut page = Page::default();
    if query.len() > MAX_QUERY {
        r.notices.push(Notice {
            key: "?".into(),
            message: format!(
                "the link is longer than {MAX_QUERY} characters; showing the defaults"
            ),
        });
        return (page, r.notices);
    }
    let (mut saw_known, mut saw_version) = (false, false);
    for (key, v) in parse_query(query) {
        // The cluster view's keys, carried as written (see `ClusterLink`).
        if let Some(key) = cluster::KEYS.into_iter().find(|k| *k == key) {
            page.cluster.0.push((key, v));
            continue;
        }
        // Unknown keys belong to someone else (analytics, a docs site): left alone.
        let Some(p) = params().find(|p| p.key == key) else {
            continue;
        };
        (p.read)(&mut page, &v, &mut r);
        // Keys that say how to show a page, not what it computes: a link of
        // only these (an embed's or a custom element's) is no old link
        // missing `v=`.
        saw_known |= !PRESENTATION.iter().any(|shown| shown.key == key);
        saw_version |= key == "v";
    }
    if saw_known && !saw_version {
        page.inputs.spec.kubelet_version = Some(LEGACY_LINK_VERSION);
        r.notices.push(Notice {
            key: "v".into(),
            message: format!(
                "this link does not say which kubelet: read as {}, the default when links left it out",
                LEGACY_LINK_VERSION.name()
            ),
        });
    }
    let inputs = &mut page.inputs;
    settle(inputs);
    // What is right key by key can still be wrong together (pods over 250 on the node).
    if let Err(e) = Scenario::try_from(inputs.spec.clone()) {
        if !matches!(e, crate::engine::ScenarioError::Config(_)) {
            r.notices.push(Notice {
                key: "?".into(),
                message: format!("the link's scenario is invalid ({e}); showing the defaults"),
            });
            let compared = std::mem::take(&mut inputs.compared);
            *inputs = Inputs {
                compared,
                ..Inputs::default()
            };
        }
    }
    (page, r.notices)
}

/// A custom curve (i, x, sc) or the configuration, never both.
fn settle(inputs: &mut Inputs) {
    let spec = &mut inputs.spec;
    if spec.initial_ms.is_some() || spec.max_ms.is_some() || !spec.schedule_ms.is_empty() {
        spec.initial_ms = Some(spec.initial_ms.unwrap_or(DEFAULT_INITIAL_MS));
        spec.max_ms = Some(spec.max_ms.unwrap_or(DEFAULT_MAX_MS));
        spec.config = None;
    } else {
        spec.reset_after_ms = None;
        spec.config = Some(inputs.config.clone());
    }
}

/// A scenario as its link keys (`SCENARIO`), a query string of its own: a
/// pin's value (`pin=v%3D1.37%26i%3D250ms%26x%3D1m0s`), and the audit's
/// answer from the second wasm (a claim's scenario).
pub fn scenario_keys(spec: &ScenarioSpec) -> String {
    let mut spec = spec.clone();
    // The keys name the kubelet and the model once, for the scenario (a
    // configuration's own are the scenario's or refused as conflicting).
    if let Some(c) = &mut spec.config {
        spec.kubelet_version = spec.kubelet_version.or(c.kubelet_version.take());
        if c.semantics == Some(spec.model) {
            c.semantics = None;
        }
    }
    let mut inputs = Inputs {
        config: spec.config.clone().unwrap_or_default(),
        spec,
        ..Inputs::default()
    };
    settle(&mut inputs);
    let page = Page {
        inputs,
        ..Page::default()
    };
    write_keys(&page, SCENARIO.iter())
}

/// A pin's scenario from its keys (or, from an older link, its JSON): a
/// key it does not know, a bad value or a scenario that does not hold
/// together refuses the whole pin, saying why.
fn read_pin(v: &str, json_pin: JsonPin) -> Result<ScenarioSpec, String> {
    let spec = if v.starts_with('{') {
        json_pin(v)?
    } else {
        scenario_of_keys(v)?
    };
    Scenario::try_from(spec.clone()).map_err(|e| e.to_string())?;
    Ok(spec)
}

/// A scenario from its link keys (`scenario_keys`): a key it does not know
/// or a bad value refuses it, saying why. A configuration the kubelet would
/// refuse is still a scenario (the audit shows the refusal); a pin checks
/// more (`read_pin`).
pub fn scenario_of_keys(keys: &str) -> Result<ScenarioSpec, String> {
    let mut r = Reader {
        in_pin: true,
        ..Reader::new(json_pin_elsewhere)
    };
    let mut page = Page::default();
    for (key, v) in parse_query(keys) {
        match SCENARIO.iter().find(|p| p.key == key) {
            Some(p) => (p.read)(&mut page, &v, &mut r),
            None => r.notice(&key, &v, "not a key of a scenario"),
        }
    }
    if !r.notices.is_empty() {
        let whys: Vec<String> = r.notices.into_iter().map(|n| n.message).collect();
        return Err(whys.join("; "));
    }
    settle(&mut page.inputs);
    Ok(page.inputs.spec)
}

/// One parameter of a link: its key, its values as written (none at the
/// default; a repeated key has several), and how a value is read back.
struct Param {
    key: &'static str,
    write: Write,
    read: fn(&mut Page, &str, &mut Reader),
}

/// How a parameter is written.
enum Write {
    /// Its values, under its own key.
    Values(fn(&Page) -> Vec<String>),
    /// Keys and values in an order that matters: what is compared (`c`, `pin`).
    Pairs(fn(&Page) -> Vec<(&'static str, String)>),
}
use Write::{Pairs, Values};

/// A value written only when `cond` holds.
fn when(cond: bool, value: impl FnOnce() -> String) -> Vec<String> {
    if cond {
        vec![value()]
    } else {
        vec![]
    }
}

/// The values of an optional setting.
fn some<T>(v: Option<T>, show: impl FnOnce(T) -> String) -> Vec<String> {
    v.map(show).into_iter().collect()
}

fn gate_value(page: &Page, gate: &str) -> Vec<String> {
    some(page.inputs.config.feature_gates.get(gate), |on| {
        if on { "1" } else { "0" }.to_owned()
    })
}

/// The gates with keys of their own (`gr`, `gm`); `fg` carries the others.
const OWN_KEY_GATES: [&str; 2] = [
    REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
    KUBELET_CRASH_LOOP_BACK_OFF_MAX,
];

/// A link names at most this many feature gates (a kubelet's configuration
/// names a handful).
const MAX_LINK_GATES: usize = 16;

/// A feature gate's name as Kubernetes spells them: letters and digits.
fn is_gate_name(s: &str) -> bool {
    (1..=MAX_GATE_NAME).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Longer than any gate Kubernetes has named.
const MAX_GATE_NAME: usize = 80;

fn read_gate(page: &mut Page, gate: &str, key: &str, v: &str, r: &mut Reader) {
    match v {
        "1" | "true" => {
            page.inputs.config.feature_gates.insert(gate.into(), true);
        }
        "0" | "false" => {
            page.inputs.config.feature_gates.insert(gate.into(), false);
        }
        _ => r.notice(key, v, "a gate is 1 or 0"),
    }
}

/// A custom curve's value, written only while a custom curve is in use.
fn custom(page: &Page, v: Option<Ms>) -> Vec<String> {
    when(page.inputs.spec.config.is_none(), || {
        format_go_duration_ms(v.unwrap_or_default())
    })
}

fn compare(page: &mut Page, c: CompareRef, key: &str, v: &str, r: &mut Reader) {
    if page.inputs.compared.len() < MAX_COMPARED {
        page.inputs.compared.push(c);
    } else {
        r.notice(key, v, format!("at most {MAX_COMPARED} compared scenarios"));
    }
}

/// The link's parameters, in the order they are written: how the page is
/// shown, the live scenario, then what is compared and the Job view's keys.
const PARAMS: [&[Param]; 3] = [PRESENTATION, SCENARIO, BESIDE];

fn params() -> impl Iterator<Item = &'static Param> {
    PARAMS.into_iter().flatten()
}

/// How a page is shown, not what it computes.
const PRESENTATION: &[Param] = &[
    Param {
        key: "view",
        write: Values(|p| when(p.view != View::CrashLoop, || p.view.name().into())),
        read: |p, v, r| match View::parse(v) {
            Some(view) => p.view = view,
            None => r.notice("view", v, "not a view (crashloop, job or cluster)"),
        },
    },
    Param {
        key: "embed",
        write: Values(|p| when(p.embed, || "1".into())),
        read: |p, v, _| p.embed = v == "1" || v == "true",
    },
    Param {
        key: "theme",
        write: Values(|p| some(p.theme, |t| t.name().into())),
        read: |p, v, r| match Theme::parse(v) {
            Some(t) => p.theme = Some(t),
            None => r.notice("theme", v, "the theme is light, dark or auto"),
        },
    },
    Param {
        key: "controls",
        write: Values(|p| when(p.embed && !p.controls.is_empty(), || p.controls.join(","))),
        read: |p, v, _| {
            p.controls = v
                .split(',')
                .filter(|c| !c.is_empty())
                .take(32)
                .map(|c| c.chars().take(40).collect())
                .collect()
        },
    },
];

/// A scenario: the live one's keys, and a pin's.
const SCENARIO: &[Param] = &[
    Param {
        key: "m",
        write: Values(|p| when(p.inputs.spec.model == Semantics::Kep, || "kep".into())),
        read: |p, v, r| match v {
            "kep" => p.inputs.spec.model = Semantics::Kep,
            "kubelet" => p.inputs.spec.model = Semantics::Kubelet,
            _ => r.notice("m", v, "the model is kep or kubelet"),
        },
    },
    // Always written, so that a shared link keeps its meaning when the
    // default version moves.
    Param {
        key: "v",
        write: Values(|p| {
            vec![p
                .inputs
                .spec
                .kubelet_version
                .unwrap_or_default()
                .name()
                .into()]
        }),
        read: |p, v, r| match KubeletVersion::parse(v) {
            Some(version) => p.inputs.spec.kubelet_version = Some(version),
            None => r.notice(
                "v",
                v,
                format!(
                    "not a modelled kubelet version ({} to {})",
                    KubeletVersion::ALL[0].name(),
                    KubeletVersion::default().name()
                ),
            ),
        },
    },
    Param {
        key: "gr",
        write: Values(|p| gate_value(p, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY)),
        read: |p, v, r| read_gate(p, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY, "gr", v, r),
    },
    Param {
        key: "gm",
        write: Values(|p| gate_value(p, KUBELET_CRASH_LOOP_BACK_OFF_MAX)),
        read: |p, v, r| read_gate(p, KUBELET_CRASH_LOOP_BACK_OFF_MAX, "gm", v, r),
    },
    // Any other gate a configuration names (`fg=Name.1`, one a gate): the
    // audit's misspelt gate, which the kubelet refuses, crosses from the
    // second wasm as link keys too, and a link keeps it.
    Param {
        key: "fg",
        write: Values(|p| {
            p.inputs
                .config
                .feature_gates
                .iter()
                .filter(|(g, _)| !OWN_KEY_GATES.contains(g))
                .map(|(g, on)| format!("{g}.{}", if on { "1" } else { "0" }))
                .collect()
        }),
        read: |p, v, r| match v.rsplit_once('.') {
            Some((gate, on)) if is_gate_name(gate) => {
                if p.inputs.config.feature_gates.iter().count() >= MAX_LINK_GATES {
                    r.notice("fg", v, format!("at most {MAX_LINK_GATES} feature gates"));
                } else {
                    read_gate(p, gate, "fg", on, r);
                }
            }
            _ => r.notice(
                "fg",
                v,
                "a gate is its name (letters and digits), a dot, and 1 or 0",
            ),
        },
    },
    // The field's own validation is the kubelet's: shown where it is typed.
    Param {
        key: "p",
        write: Values(|p| {
            some(
                p.inputs
                    .config
                    .crash_loop_back_off
                    .max_container_restart_period
                    .clone(),
                |v| v,
            )
        }),
        read: |p, v, r| {
            if v.chars().count() > 64 {
                return r.notice("p", v, "longer than 64 characters");
            }
            p.inputs.config.crash_loop_back_off = CrashLoopBackOffConfig {
                max_container_restart_period: (!v.is_empty()).then(|| v.to_owned()),
            }
        },
    },
    Param {
        key: "i",
        write: Values(|p| {
            custom(
                p,
                Some(p.inputs.spec.initial_ms.unwrap_or(DEFAULT_INITIAL_MS)),
            )
        }),
        read: |p, v, r| p.inputs.spec.initial_ms = r.ms("i", v, &INITIAL_RANGE_MS),
    },
    Param {
        key: "x",
        write: Values(|p| custom(p, Some(p.inputs.spec.max_ms.unwrap_or(DEFAULT_MAX_MS)))),
        read: |p, v, r| p.inputs.spec.max_ms = r.ms("x", v, &MAX_RANGE_MS),
    },
    Param {
        key: "rs",
        write: Values(|p| match p.inputs.spec.reset_after_ms {
            Some(rs) => custom(p, Some(rs)),
            None => vec![],
        }),
        read: |p, v, r| p.inputs.spec.reset_after_ms = r.ms("rs", v, &RESET_RANGE_MS),
    },
    Param {
        key: "sc",
        write: Values(|p| {
            let waits = &p.inputs.spec.schedule_ms;
            when(p.inputs.spec.config.is_none() && !waits.is_empty(), || {
                waits
                    .iter()
                    .map(|&m| format_go_duration_ms(m))
                    .collect::<Vec<_>>()
                    .join(",")
            })
        }),
        read: |p, v, r| {
            let waits: Result<Vec<Ms>, String> = v
                .split(',')
                .take(MAX_SCHEDULE_LEN + 1)
                .map(|w| {
                    parse_ms(w)
                        .ok()
                        .filter(|m| SCHEDULE_WAIT_RANGE_MS.contains(m))
                        .ok_or_else(|| w.to_owned())
                })
                .collect();
            match waits {
                Ok(w) if w.len() <= MAX_SCHEDULE_LEN => p.inputs.spec.schedule_ms = w,
                Ok(_) => r.notice("sc", v, format!("at most {MAX_SCHEDULE_LEN} waits")),
                Err(w) => r.notice(
                    "sc",
                    v,
                    format!(
                        "{} is not a wait between 25ms and 1h0m0s",
                        crate::engine::field::quoted(&w)
                    ),
                ),
            }
        },
    },
    Param {
        key: "rq",
        write: Values(|p| some(p.inputs.spec.requeue, |r| r.name().into())),
        read: |p, v, r| match (Requeue::parse(v), v) {
            (Some(q), _) => p.inputs.spec.requeue = Some(q),
            // What links said before the name table.
            (None, "expiry") => p.inputs.spec.requeue = Some(Requeue::AtExpiry),
            _ => r.notice("rq", v, "the requeue is ideal, periodic or atExpiry"),
        },
    },
    Param {
        key: "s",
        write: Values(|p| {
            let seed = p.inputs.spec.seed;
            when(seed != ScenarioSpec::default().seed, || seed.to_string())
        }),
        read: |p, v, r| match v.parse::<u64>() {
            Ok(seed) => p.inputs.spec.seed = seed,
            Err(_) => r.notice("s", v, "a seed is a whole number"),
        },
    },
    Param {
        key: "bs",
        write: Values(|p| {
            let n = p.inputs.spec.band_seeds;
            when(n != ScenarioSpec::default().band_seeds, || n.to_string())
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("bs", v, &BAND_SEEDS_RANGE) {
                p.inputs.spec.band_seeds = n;
            }
        },
    },
    Param {
        key: "l",
        write: Values(|p| {
            let l = p.inputs.spec.start_latency_ms;
            when(l != 0, || format_go_duration_ms(l))
        }),
        read: |p, v, r| {
            p.inputs.spec.start_latency_ms = r.ms("l", v, &LATENCY_RANGE_MS).unwrap_or(0)
        },
    },
    Param {
        key: "n",
        write: Values(|p| {
            let spec = &p.inputs.spec;
            some(
                spec.pods
                    .filter(|&n| spec.groups.is_empty() && n != DEFAULT_PODS),
                |n| n.to_string(),
            )
        }),
        read: |p, v, r| p.inputs.spec.pods = r.num("n", v, &PODS_RANGE),
    },
    Param {
        key: "r",
        write: Values(|p| {
            let spec = &p.inputs.spec;
            some(
                spec.run_ms.filter(|&r| spec.groups.is_empty() && r != 0),
                format_go_duration_ms,
            )
        }),
        read: |p, v, r| p.inputs.spec.run_ms = r.ms("r", v, &RUN_RANGE_MS),
    },
    Param {
        key: "g",
        write: Values(|p| p.inputs.spec.groups.iter().map(group_field).collect()),
        read: |p, v, r| {
            if p.inputs.spec.groups.len() >= MAX_GROUPS {
                r.notice("g", v, format!("at most {MAX_GROUPS} groups"));
            } else if let Some(g) = r.group(v) {
                p.inputs.spec.groups.push(g);
            }
        },
    },
    Param {
        key: "cg",
        write: Values(|p| {
            let cg = p.inputs.spec.chart_group;
            when(cg != 0, || cg.to_string())
        }),
        read: |p, v, r| {
            p.inputs.spec.chart_group = r.num("cg", v, &(0..=MAX_GROUPS - 1)).unwrap_or(0)
        },
    },
    Param {
        key: "h",
        write: Values(|p| {
            let h = p.inputs.spec.horizon_ms;
            when(h != ScenarioSpec::default().horizon_ms, || {
                format_go_duration_ms(h)
            })
        }),
        read: |p, v, r| {
            if let Some(h) = r.ms("h", v, &HORIZON_RANGE_MS) {
                p.inputs.spec.horizon_ms = h;
            }
        },
    },
    Param {
        key: "rp",
        write: Values(|p| {
            let n = p.inputs.spec.requests_per_restart;
            when(n != ScenarioSpec::default().requests_per_restart, || {
                n.to_string()
            })
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("rp", v, &REQUESTS_PER_RESTART_RANGE) {
                p.inputs.spec.requests_per_restart = n;
            }
        },
    },
    Param {
        key: "q",
        write: Values(|p| {
            let n = p.inputs.spec.kube_api_qps;
            when(n != ScenarioSpec::default().kube_api_qps, || n.to_string())
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("q", v, &QPS_RANGE) {
                p.inputs.spec.kube_api_qps = n;
            }
        },
    },
    Param {
        key: "b",
        write: Values(|p| {
            let n = p.inputs.spec.kube_api_burst;
            when(n != ScenarioSpec::default().kube_api_burst, || {
                n.to_string()
            })
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("b", v, &BURST_RANGE) {
                p.inputs.spec.kube_api_burst = n;
            }
        },
    },
    Param {
        key: "eq",
        write: Values(|p| {
            let n = p.inputs.spec.event_record_qps;
            when(n != ScenarioSpec::default().event_record_qps, || {
                n.to_string()
            })
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("eq", v, &EVENT_LIMIT_RANGE) {
                p.inputs.spec.event_record_qps = n;
            }
        },
    },
    Param {
        key: "eb",
        write: Values(|p| {
            let n = p.inputs.spec.event_burst;
            when(n != ScenarioSpec::default().event_burst, || n.to_string())
        }),
        read: |p, v, r| {
            if let Some(n) = r.num("eb", v, &EVENT_LIMIT_RANGE) {
                p.inputs.spec.event_burst = n;
            }
        },
    },
    Param {
        key: "rn",
        write: Values(|p| {
            let seen = p.inputs.spec.running_seen;
            when(seen != RunningSeen::default(), || seen.name().into())
        }),
        read: |p, v, r| match RunningSeen::parse(v) {
            Some(seen) => p.inputs.spec.running_seen = seen,
            None => r.notice("rn", v, "Running seen is auto, always or never"),
        },
    },
];

/// What is drawn beside the live scenario, and the Job view's keys.
const BESIDE: &[Param] = &[
    Param {
        key: "mk",
        write: Values(|p| some(p.inputs.marker_ms, format_go_duration_ms)),
        read: |p, v, r| p.inputs.marker_ms = r.ms("mk", v, &HORIZON_RANGE_MS),
    },
    Param {
        key: "c",
        // Presets (`c=rapid,flat`) and pins (`pin=`) in the order compared,
        // which is the legend's and the colours'.
        write: Pairs(|p| {
            let mut pairs: Vec<(&'static str, String)> = vec![];
            for c in &p.inputs.compared {
                match (c, pairs.last_mut()) {
                    (CompareRef::Preset(id), Some(("c", ids))) => {
                        ids.push(',');
                        ids.push_str(id);
                    }
                    (CompareRef::Preset(id), _) => pairs.push(("c", (*id).to_owned())),
                    (CompareRef::Pinned(spec), _) => pairs.push(("pin", scenario_keys(spec))),
                }
            }
            pairs
        }),
        read: |p, v, r| {
            for id in v.split(',').filter(|id| !id.is_empty()) {
                match presets().into_iter().find(|preset| preset.id == id) {
                    Some(preset) => compare(p, CompareRef::Preset(preset.id), "c", id, r),
                    None => r.notice("c", id, "not one of the KEP's curves"),
                }
            }
        },
    },
    Param {
        key: "pin",
        write: Values(|_| vec![]), // with `c`
        read: |p, v, r| match read_pin(v, r.json_pin) {
            Ok(spec) => compare(p, CompareRef::Pinned(Box::new(spec)), "pin", v, r),
            Err(e) => r.notice("pin", v, e),
        },
    },
    // The Job view's keys, carried as written (see `JobLink`): read and
    // checked by `job_inputs`, written by `job_link`.
    Param {
        key: "job",
        write: Values(|p| p.job.manifest.iter().cloned().collect()),
        read: |p, v, _| p.job.manifest = Some(v.to_owned()),
    },
    Param {
        key: "js",
        write: Values(|p| p.job.script.iter().cloned().collect()),
        read: |p, v, r| {
            if v.len() <= MAX_TEXT {
                p.job.script = Some(v.to_owned());
            } else {
                r.notice("js", v, "the script is too long");
            }
        },
    },
    Param {
        key: "jr",
        write: Values(|p| p.job.run.iter().cloned().collect()),
        read: |p, v, _| p.job.run = Some(v.to_owned()),
    },
];

/// The Job view's inputs from a link's Job keys, and what in them was not
/// used (a bad value keeps the default, as `decode` does).
pub fn job_inputs(link: &JobLink) -> (JobInputs, Vec<Notice>) {
    let mut r = Reader::new(json_pin_elsewhere);
    let mut job = JobInputs::default();
    if let Some(v) = &link.manifest {
        match serde_json::from_str::<JobManifest>(v) {
            Ok(m) => job.manifest = m,
            Err(e) => r.notice("job", v, format!("not a Job manifest: {e}")),
        }
    }
    if let Some(v) = &link.script {
        job.script = v.clone();
    }
    if let Some(ms) = link
        .run
        .as_ref()
        .and_then(|v| r.ms("jr", v, &JOB_RUN_RANGE_MS))
    {
        job.run_ms = ms;
    }
    (job, r.notices)
}

/// A Job view's inputs as link keys: defaults left out.
pub fn job_link(job: &JobInputs) -> JobLink {
    let default = JobInputs::default();
    JobLink {
        manifest: (job.manifest != default.manifest)
            .then(|| serde_json::to_string(&job.manifest).unwrap_or_default()),
        script: (job.script != default.script).then(|| job.script.clone()),
        run: (job.run_ms != default.run_ms).then(|| format_go_duration_ms(job.run_ms)),
    }
}
