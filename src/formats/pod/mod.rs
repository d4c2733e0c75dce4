//! What people paste from kubectl, read into `engine::pod` types: Pods in
//! YAML or JSON whole or in part (`object`), `kubectl describe pod` whole
//! or in part (`describe`), back-off events (`events`) and `kubectl get
//! pods` tables (`table`). One entry, `read_pods`, says which shape it
//! recognised; whatever is not a pod gets a message saying what it is.

mod blocks;
mod console;
mod describe;
mod events;
mod object;
mod table;
pub mod watch;

use serde_json::Value;

use crate::engine::config::KubeletVersion;
pub use crate::engine::pod::PodReading as Reading;
use crate::engine::pod::{Epoch, ObservedState, PodObservation, PodsDiagnosis};
pub use table::parse_age;

/// A paste larger than this is not what kubectl prints for a few pods.
pub const MAX_POD_TEXT: usize = 1 << 20;
/// A whole cluster's `kubectl get pods -A -o wide` (150,000 pods is some
/// 25 MB), read by `crashloop-explorer cluster --from-pods` alone.
pub const MAX_CLUSTER_TEXT: usize = 64 << 20;

const HOW: &str = "paste what `kubectl get pod NAME -o yaml` (or `-o json`), `kubectl describe pod NAME` or `kubectl get pods` prints";

/// The shapes a paste is recognised as, one name table: (shape, name in
/// JSON, what the reader says it read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Pod,
    PodList,
    PodWithoutKind,
    Status,
    ContainerStatuses,
    ContainerStatus,
    Describe,
    DescribeContainers,
    DescribeState,
    Events,
    Table,
    Several,
    Watch,
}

const SHAPES: [(Shape, &str, &str); 13] = [
    (Shape::Pod, "pod", "a Pod (YAML or JSON)"),
    (Shape::PodList, "podList", "a list of Pods (YAML or JSON)"),
    (
        Shape::PodWithoutKind,
        "podWithoutKind",
        "a Pod without its kind (YAML or JSON)",
    ),
    (Shape::Status, "status", "a pod's status block"),
    (
        Shape::ContainerStatuses,
        "containerStatuses",
        "a containerStatuses list",
    ),
    (
        Shape::ContainerStatus,
        "containerStatus",
        "one container status",
    ),
    (Shape::Describe, "describe", "kubectl describe pod"),
    (
        Shape::DescribeContainers,
        "describeContainers",
        "a Containers section of kubectl describe",
    ),
    (
        Shape::DescribeState,
        "describeState",
        "a State block of kubectl describe",
    ),
    (Shape::Events, "events", "back-off events"),
    (Shape::Table, "table", "a kubectl get pods table"),
    (Shape::Several, "several", "several kubectl outputs"),
    (
        Shape::Watch,
        "watch",
        "JSON documents one after another (a watch: kubectl get pods -o json --watch)",
    ),
];

impl Shape {
    fn row(self) -> &'static (Shape, &'static str, &'static str) {
        SHAPES
            .iter()
            .find(|(s, _, _)| *s == self)
            .unwrap_or(&SHAPES[0])
    }
    /// Its name in the command line's JSON.
    pub fn name(self) -> &'static str {
        self.row().1
    }
    /// What the reader says it read.
    pub fn describe(self) -> &'static str {
        self.row().2
    }
}

/// What a paste held: its shape, its pods, and what the reader assumed.
#[derive(Debug, Clone, PartialEq)]
pub struct PodsRead {
    pub shape: Shape,
    pub pods: Vec<Reading>,
    pub notes: Vec<String>,
}

/// One pod, as the single-pod views read it, and the reader's notes.
pub type PodRead = (PodObservation, Vec<String>);

/// A time at or before the 1970 epoch is no time: Go's zero time, and the
/// epoch that containers failing to start show.
pub fn real_time(t: Epoch) -> Option<Epoch> {
    (t > 0).then_some(t)
}

/// Lines as kubectl printed them: code fences, shell prompts and the
/// command echoed before its output left out; a common indentation (a
/// markdown quote, a chat's block) taken off.
fn clean(text: &str) -> Vec<&str> {
    let prompt = |l: &str| {
        let t = l.trim_start();
        t.starts_with("```") || t.starts_with("$ ") || t.contains('➜') || blocks::is_command(l)
    };
    // A markdown quote (`> ` before every line) is taken off first.
    let quoted = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|l| l.trim_start().starts_with('>'));
    fn unquote(l: &str, quoted: bool) -> &str {
        if quoted {
            let t = l.trim_start().trim_start_matches('>');
            t.strip_prefix(' ').unwrap_or(t)
        } else {
            l
        }
    }
    let lines: Vec<&str> = text
        .lines()
        .map(|l| unquote(l.trim_end_matches('\r'), quoted))
        .filter(|l| !prompt(l))
        .collect();
    let indent = |l: &&str| l.len() - l.trim_start_matches(' ').len();
    let filled: Vec<&&str> = lines.iter().filter(|l| !l.trim().is_empty()).collect();
    let common = filled.iter().map(|l| indent(l)).min().unwrap_or(0);
    // A code block whose first line was copied from outside it: every line
    // but the first indented alike (`Name: x` then `    Namespace: y`).
    let rest = filled.iter().skip(1).map(|l| indent(l)).min().unwrap_or(0);
    let first = filled.first().map(|l| indent(l));
    // The first line must be a whole `key: value` (a `status:` with its
    // block below is YAML's own nesting).
    let valued = filled
        .first()
        .and_then(|l| l.split_once(':'))
        .is_some_and(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty());
    let (skip_first, common) =
        if common == 0 && first == Some(0) && rest >= 2 && valued && filled.len() > 2 {
            (true, rest)
        } else {
            (false, common)
        };
    let mut seen_first = false;
    lines
        .into_iter()
        .map(|l| {
            let keep = skip_first && !seen_first && !l.trim().is_empty();
            seen_first |= !l.trim().is_empty();
            if keep {
                l
            } else {
                l.get(common..).unwrap_or(l.trim_start())
            }
        })
        .collect()
}

/// YAML documents, read with serde_yaml_ng. Text cut short or followed by
/// prose is read up to the line before the first error, once or twice.
fn yaml_values(text: &str) -> Result<(Vec<Value>, Vec<String>), String> {
    use serde::Deserialize as _;
    let mut notes = vec![];
    // Prose or a table before the YAML (an issue's text): from its first
    // key on, where one of a pod's keys starts a line.
    const STARTS: [&str; 7] = [
        "apiVersion:",
        "kind:",
        "metadata:",
        "status:",
        "items:",
        "containerStatuses:",
        "- ",
    ];
    let start = text
        .lines()
        .position(|l| STARTS.iter().any(|k| l.starts_with(k)))
        .unwrap_or(0);
    if start > 0 {
        notes.push(format!("the {start} line(s) before the YAML were left out"));
    }
    let mut text = text.lines().skip(start).collect::<Vec<_>>().join("\n");
    let mut first_error = None;
    for _ in 0..3 {
        let mut docs = vec![];
        let mut failed = None;
        for doc in serde_yaml_ng::Deserializer::from_str(&text) {
            match Value::deserialize(doc) {
                Ok(Value::Null) => {}
                Ok(v) => docs.push(v),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        let Some(e) = failed else {
            return Ok((docs, notes));
        };
        let line = e.location().map_or(0, |l| l.line());
        first_error.get_or_insert_with(|| e.to_string());
        if line <= 2 {
            break;
        }
        let kept: Vec<&str> = text.lines().take(line - 1).collect();
        notes.push(format!(
            "read up to line {} (the text after it is not YAML: {e})",
            line - 1
        ));
        text = kept.join("\n");
    }
    Err(first_error.unwrap_or_default())
}

/// The first JSON value of the text: what follows it (a prompt, prose) is
/// left with a note.
fn json_value(text: &str) -> Result<(Value, Vec<String>), String> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match values.next() {
        Some(Ok(v)) => {
            let rest = text[values.byte_offset()..].trim();
            let notes = if rest.is_empty() {
                vec![]
            } else {
                vec!["text after the JSON was left out".to_owned()]
            };
            Ok((v, notes))
        }
        Some(Err(e)) if e.is_eof() => match json_cut_short(text) {
            Some((v, line)) => Ok((
                v,
                vec![format!(
                    "the JSON is cut short ({e}): read up to line {line}, its last whole field"
                )],
            )),
            None => Err(e.to_string()),
        },
        Some(Err(e)) => Err(e.to_string()),
        None => Err("no JSON value".into()),
    }
}

/// JSON cut short (a terminal's scrollback, a chat's length limit): the text
/// up to one of its last commas outside strings, its open brackets closed,
/// and the line that comma is on. serde_json reads no partial documents.
fn json_cut_short(text: &str) -> Option<(Value, usize)> {
    const TRIES: usize = 8;
    let (mut open, mut cuts) = (vec![], vec![]);
    let (mut in_string, mut escaped) = (false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => open.push('}'),
            b'[' => open.push(']'),
            b'}' | b']' => {
                open.pop();
            }
            b',' => {
                if cuts.len() == TRIES {
                    cuts.remove(0);
                }
                cuts.push((i, open.clone()));
            }
            _ => {}
        }
    }
    cuts.iter().rev().find_map(|(at, open)| {
        let mut whole = text[..*at].to_owned();
        whole.extend(open.iter().rev());
        let v = serde_json::from_str(&whole).ok()?;
        Some((v, text[..*at].lines().count()))
    })
}

/// How an events table's last row is cut short where a back-off event may be.
enum Cut {
    /// After its type, `Warning` (a back-off event's).
    AfterType,
    /// A `BackOff` row before its message says which back-off: the kubelet
    /// gives the container's and the image pull's that one reason
    /// (kubernetes/kubernetes `pkg/kubelet/events/event.go`).
    BackOffMessage,
}

impl Cut {
    /// What the text is, said with the cut.
    fn what(self) -> &'static str {
        match self {
            Cut::AfterType => "events without a back-off event; the last row is cut short after its type, \"Warning\", where one may have been",
            Cut::BackOffMessage => "events without a whole back-off event; the last row, a BackOff event, is cut short before its message says which back-off",
        }
    }
}

/// Whether the last row of an events table (describe's or `kubectl get
/// events`', old or new, the type a column of its own) is cut short where
/// a back-off event may have been.
fn cut_warning(text: &str) -> Option<Cut> {
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let mut fields = last.split_whitespace().skip_while(|&f| f != "Warning");
    fields.next()?;
    match fields.next() {
        None => Some(Cut::AfterType),
        // `Backoff` as 2016's kubelets wrote it (libfaketime-79 in the fixtures).
        Some("BackOff" | "Backoff")
            if !events::is_backoff(last) && !events::is_pull_backoff(last) =>
        {
            Some(Cut::BackOffMessage)
        }
        Some(_) => None,
    }
}

/// What a text that holds no pod looks like instead.
fn looks_like_instead(text: &str) -> String {
    let t = text.trim_start();
    let first = t.lines().next().unwrap_or("");
    let kind =
        if first.starts_with("NAME") && first.contains("TYPE") && first.contains("CLUSTER-IP") {
            "a `kubectl get services` table"
        } else if first.starts_with("NAME")
            && (first.contains("UP-TO-DATE") || first.contains("DESIRED"))
        {
            "a table of Deployments or ReplicaSets"
        } else if first.starts_with("NAME") && first.contains("COMPLETIONS") {
            "a `kubectl get jobs` table"
        } else if first.starts_with("NAME") && first.contains("ROLES") {
            "a `kubectl get nodes` table"
        } else if t.contains("LAST SEEN")
            || t.contains("LASTSEEN")
            || t.lines()
                .any(|l| matches!(l.split_whitespace().next(), Some("Warning" | "Normal")))
        {
            cut_warning(t).map_or("events without a back-off event", Cut::what)
        } else if t.contains("Traceback") || t.contains("Exception") || t.contains("panic:") {
            "a program's log (`kubectl logs`), not the pod's status"
        } else if first.starts_with("No resources found") {
            "kubectl's answer that no pods matched"
        } else {
            "plain text"
        };
    format!("this text holds no pod ({kind}): {HOW}")
}

/// Reads every pod in what kubectl printed, whatever the shape.
pub fn read_pods(text: &str, version: KubeletVersion) -> Result<PodsRead, String> {
    read_pods_up_to(text, version, MAX_POD_TEXT)
}

/// U+00A0, U+2007 and U+202F: what copying from a rendered page turns
/// spaces into.
const NO_BREAK_SPACES: [char; 3] = ['\u{a0}', '\u{2007}', '\u{202f}'];

/// The same, for texts up to `limit` bytes.
pub fn read_pods_up_to(
    text: &str,
    version: KubeletVersion,
    limit: usize,
) -> Result<PodsRead, String> {
    if text.len() > limit {
        return Err(format!(
            "the text is {} KB; at most {} KB is read: {HOW}",
            text.len() / 1024,
            limit / 1024
        ));
    }
    // Colours (kubecolor, a terminal's copy) and a byte-order mark go first;
    // the no-break spaces a web page or chat pastes are spaces (YAML and
    // JSON refuse them as indentation); then what a tool wrapped around it.
    let mut plain = std::borrow::Cow::Borrowed(text);
    if plain.contains('\u{1b}') {
        plain = strip_ansi_escapes::strip_str(&plain).into();
    }
    if plain.contains(NO_BREAK_SPACES) {
        plain = plain.replace(NO_BREAK_SPACES, " ").into();
    }
    let (text, notes) = blocks::unwrap_tool(plain.trim_start_matches('\u{feff}'));
    let mut read = read_text(&text, version);
    // A terminal that folded long lines at its width: the text with those
    // lines joined again, where that reads more.
    if let Some((width, lines, joined)) = unfolded(&text) {
        let again = read_text(&joined, version);
        // Where several lines were folded, even is enough: joined, a name or
        // a status cut in two is whole again. One line joined must say more.
        let (before, after) = (facts(&read), facts(&again));
        if after > before || (lines >= 2 && after == before && after > 0) {
            read = again.map(|mut r| {
                r.notes.insert(
                    0,
                    format!("lines of {width} characters were joined to the next: a terminal folded them at its width"),
                );
                r
            });
        }
    }
    let read = read
        .map_err(|e| kubectl_error(&text).unwrap_or(e))
        .and_then(refuse_nameless)?;
    Ok(PodsRead {
        notes: notes.into_iter().chain(read.notes).collect(),
        ..read
    })
}

/// How kubectl words a failure instead of an output
/// (`StandardErrorMessage`, staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go).
const KUBECTL_ERRORS: [&str; 6] = [
    "Error from server",
    "error: ",
    "The connection to the server ",
    "Unable to connect to the server",
    "Server returned an unexpected response",
    "Error: ",
];

/// Where nothing was read and kubectl's own error is in the text: said so,
/// with its first line, not as a reader's complaint about the error's words.
fn kubectl_error(text: &str) -> Option<String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| KUBECTL_ERRORS.iter().any(|e| l.starts_with(e)))?;
    let shown: String = line.chars().take(200).collect();
    Some(format!(
        "this is kubectl's error, not a pod: \"{shown}\"; once kubectl prints the pod, paste that"
    ))
}

/// A reading that names no pod and no container and gives no restart count
/// and no state is no pod (a container's `Last State:` lines alone): left
/// out, and refused when nothing else was read, saying what the text held.
fn refuse_nameless(mut read: PodsRead) -> Result<PodsRead, String> {
    let nameless = |r: &Reading| match r {
        Reading::Observed(p) => {
            p.name.is_empty()
                && p.containers.iter().all(|c| {
                    c.name.is_empty()
                        && c.restart_count.is_none()
                        && c.state == ObservedState::Unknown
                })
        }
        Reading::Row(_) => false,
    };
    let Some(Reading::Observed(first)) = read.pods.iter().find(|r| nameless(r)).cloned() else {
        return Ok(read);
    };
    read.pods.retain(|r| !nameless(r));
    if !read.pods.is_empty() {
        return Ok(read);
    }
    let held = match first
        .containers
        .iter()
        .find_map(|c| c.last_terminated.as_ref())
    {
        Some(t) => {
            let mut what = vec![];
            if !t.reason.is_empty() {
                what.push(format!("reason {}", t.reason));
            }
            if let Some(code) = t.exit_code {
                what.push(format!("exit code {code}"));
            }
            match what.is_empty() {
                true => "a container's last state alone (Terminated)".to_owned(),
                false => format!(
                    "a container's last state alone (Terminated: {})",
                    what.join(", ")
                ),
            }
        }
        None => read.shape.describe().to_owned(),
    };
    Err(format!(
        "this text holds {held}, with no pod name, container name, restart count or state: nothing to place on the curve; {HOW}"
    ))
}

/// Lines a terminal folded are all as wide as it: the widest lines, if 60
/// characters or more, joined to the line after; and how many they are.
fn unfolded(text: &str) -> Option<(usize, usize, String)> {
    let width = |l: &str| l.trim_end_matches('\r').chars().count();
    let widest = text.lines().map(width).max()?;
    let folded = text.lines().filter(|l| width(l) == widest).count();
    if widest < 60 {
        return None;
    }
    let mut joined = String::with_capacity(text.len());
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        joined.push_str(line);
        if width(line) != widest {
            joined.push('\n');
        }
    }
    Some((widest, folded, joined))
}

/// How much a reading says: containers (a table's rows) and the counts and
/// times they carry, a little more where no YAML was left unread; an error
/// says nothing.
fn facts(read: &Result<PodsRead, String>) -> usize {
    let Ok(read) = read else { return 0 };
    let whole = !read.notes.iter().any(|n| n.starts_with("read up to line"));
    usize::from(whole)
        + 2 * read
            .pods
            .iter()
            .map(|p| match p {
                Reading::Observed(o) => o
                    .containers
                    .iter()
                    .map(|c| {
                        let state = match &c.state {
                            ObservedState::Waiting { reason, message } => {
                                1 + usize::from(!reason.is_empty())
                                    + usize::from(!message.is_empty())
                            }
                            ObservedState::Running { started_at } => {
                                1 + usize::from(started_at.is_some())
                            }
                            ObservedState::Terminated(_) => 1,
                            ObservedState::Unknown => 0,
                        };
                        1 + state
                            + usize::from(c.restart_count.is_some())
                            + usize::from(c.last_terminated.is_some())
                    })
                    .sum::<usize>(),
                Reading::Row(r) => {
                    1 + usize::from(r.restarts.is_some())
                        + usize::from(r.age_ms.is_some())
                        + usize::from(r.last_restart_ago_ms.is_some())
                }
            })
            .sum::<usize>()
}

/// `read_pods_up_to` once the size is checked.
fn read_text(text: &str, version: KubeletVersion) -> Result<PodsRead, String> {
    let parts = blocks::split(text);
    if parts.len() < 2 {
        read_block(text, version)
    } else {
        read_blocks(text, &parts, version)
    }
}

/// Each block read with its own reader and what they say merged; the whole
/// text's reading where only one block reads and the whole says more.
fn read_blocks(
    text: &str,
    parts: &[blocks::Block],
    version: KubeletVersion,
) -> Result<PodsRead, String> {
    let mut reads = vec![];
    let mut notes = vec![];
    let mut read_as = vec![];
    let mut left = vec![];
    for b in parts {
        let lines = if b.first_line == b.last_line {
            format!("line {}", b.first_line)
        } else {
            format!("lines {}–{}", b.first_line, b.last_line)
        };
        match read_block(&b.text, version) {
            Ok(r) => {
                read_as.push(format!("{lines} as {}", r.shape.describe()));
                notes.extend(r.notes.iter().cloned());
                reads.push(r);
            }
            // A block of nothing but a prompt or a code fence.
            Err(e) if e.starts_with("nothing to read") => {}
            Err(e) => left.push(format!(
                "{lines} left out ({})",
                e.split(": paste").next().unwrap_or(&e)
            )),
        }
    }
    if reads.len() < 2 {
        // The whole text is read only where the blocks alone may say less.
        let whole = read_block(text, version);
        let Some(one) = reads.pop() else {
            return whole;
        };
        let one = Ok(one);
        if facts(&whole) > facts(&one) {
            return whole;
        }
        return one.map(|mut r| {
            r.notes.extend(left);
            r
        });
    }
    notes.insert(
        0,
        format!("read {} outputs: {}", reads.len(), read_as.join("; ")),
    );
    notes.extend(left);
    let (shape, pods) = blocks::merge(
        reads.into_iter().map(|r| (r.shape, r.pods)).collect(),
        &mut notes,
    );
    Ok(PodsRead { shape, pods, notes })
}

/// One block of a paste, read by the reader its shape wants.
fn read_block(text: &str, version: KubeletVersion) -> Result<PodsRead, String> {
    let lines = clean(text);
    let cleaned = lines.join("\n");
    let trimmed = cleaned.trim_start();
    if trimmed.is_empty() {
        return Err(format!("nothing to read: {HOW}"));
    }
    let done =
        |(shape, pods, notes): (Shape, Vec<Reading>, Vec<String>)| PodsRead { shape, pods, notes };
    if trimmed.starts_with(['{', '[']) {
        // Documents one after another: a watch's stream, its pods' newest
        // states.
        if let Some(read) = watch::read_stream(trimmed, version) {
            return read;
        }
        let (v, mut notes) = json_value(trimmed)
            .map_err(|e| format!("not a pod (not JSON as kubectl prints it: {e}): {HOW}"))?;
        let (shape, pods, mut more) = object::read_value(&v, version)?;
        notes.append(&mut more);
        return Ok(done((shape, pods, notes)));
    }
    // A JSON object's members without its opening brace (`"containerStatuses":
    // [ …`, a fragment copied from the middle), cut short or not.
    if trimmed.starts_with('"')
        && trimmed
            .split_once(':')
            .is_some_and(|(k, _)| k.ends_with('"'))
    {
        let wrapped = format!("{{{}", trimmed.trim_end().trim_end_matches(','));
        if let Ok((v, mut notes)) = json_value(&wrapped) {
            if let Ok((shape, pods, mut more)) = object::read_value(&v, version) {
                notes.insert(
                    0,
                    "read as the inside of a JSON object (its opening brace was not in the text)"
                        .into(),
                );
                notes.append(&mut more);
                return Ok(done((shape, pods, notes)));
            }
        }
    }
    // A web console's page of the pod, written again as describe prints it.
    for (rewrite, note) in console::REWRITES {
        let Some(text) = rewrite(&lines) else {
            continue;
        };
        let again: Vec<&str> = text.lines().collect();
        if let Ok((shape, pods, mut notes)) = describe::read(&again) {
            notes.insert(0, note.into());
            return Ok(done((shape, pods, notes)));
        }
    }
    if describe::looks_like(&lines) {
        // `kubectl describe deployment` (or a ReplicaSet, a Job…) shows a
        // template's containers, which never ran; beside pods, it is left out.
        let has = |key: &str| lines.iter().any(|l| l.trim_start().starts_with(key));
        let template = has("Pod Template:") && !has("Restart Count:");
        return match describe::read(&lines) {
            _ if template => Err("this describes a workload (its Pod Template), not a pod: run `kubectl describe pod NAME` for one of its pods".into()),
            read => read.map(done),
        };
    }
    if table::looks_like(&lines) {
        // A table and a pod's YAML in one paste: the YAML has the times.
        let yaml_too = lines
            .iter()
            .any(|l| l.starts_with("apiVersion:") || l.starts_with("kind: Pod"));
        let from_yaml = yaml_too
            .then(|| yaml_values(&cleaned).ok())
            .flatten()
            .and_then(|(docs, mut notes)| {
                let v = docs.into_iter().find(|d| d.is_object())?;
                let (shape, pods, mut more) = object::read_value(&v, version).ok()?;
                notes.append(&mut more);
                notes.push("a table was pasted too: the YAML, which has the times, is read".into());
                Some((shape, pods, notes))
            });
        return match from_yaml {
            Some(read) => Ok(done(read)),
            None => table::read(&lines).map(done),
        };
    }
    let events_only = lines
        .iter()
        .any(|l| events::is_backoff(l) || events::is_pull_backoff(l))
        && !lines.iter().any(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            [
                "apiVersion:",
                "kind:",
                "status:",
                "state:",
                "containerStatuses:",
            ]
            .iter()
            .any(|k| t.starts_with(k))
        });
    if events_only {
        return events::read(&lines).map(done);
    }
    match yaml_values(&cleaned) {
        Ok((docs, mut notes)) if docs.iter().any(|d| d.is_object() || d.is_array()) => {
            let docs: Vec<Value> = docs
                .into_iter()
                .filter(|d| d.is_object() || d.is_array())
                .collect();
            if docs.len() == 1 {
                let (shape, pods, mut more) =
                    object::read_value(&docs[0], version).map_err(|e| {
                        if object::has_pod_keys(&docs[0]) {
                            e
                        } else {
                            looks_like_instead(&cleaned)
                        }
                    })?;
                notes.append(&mut more);
                return Ok(done((shape, pods, notes)));
            }
            // Several documents (`---`): each a pod, a list or a fragment.
            let mut all = vec![];
            let mut shape = Shape::PodList;
            for d in &docs {
                match object::read_value(d, version) {
                    Ok((s, mut pods, mut more)) => {
                        notes.append(&mut more);
                        shape = if all.is_empty() { s } else { Shape::PodList };
                        all.append(&mut pods);
                    }
                    Err(e) => notes.push(format!("a document left out: {e}")),
                }
            }
            if all.is_empty() {
                return Err(format!("no document holds a pod: {HOW}"));
            }
            Ok(done((shape, all, notes)))
        }
        Ok(_) => Err(looks_like_instead(&cleaned)),
        Err(e) if lines.iter().any(|l| l.contains(": ")) => Err(format!(
            "not a pod (not YAML as kubectl prints it: {e}): {HOW}"
        )),
        Err(_) => Err(looks_like_instead(&cleaned)),
    }
}

/// One pod for the single-pod views: the first in CrashLoopBackOff, else the
/// first; a table row is refused (it has no times).
pub fn parse_pod(text: &str, version: KubeletVersion) -> Result<PodRead, String> {
    let read = read_pods(text, version)?;
    let observed: Vec<&PodObservation> = read
        .pods
        .iter()
        .filter_map(|r| match r {
            Reading::Observed(p) => Some(p),
            Reading::Row(_) => None,
        })
        .collect();
    let looping = |p: &&&PodObservation| {
        p.containers.iter().any(|c| {
            matches!(&c.state, crate::engine::pod::ObservedState::Waiting { reason, .. } if reason.ends_with("CrashLoopBackOff"))
        })
    };
    let Some(pick) = observed.iter().find(looping).or(observed.first()) else {
        return Err(format!(
            "{} has no times: `crashloop-explorer pods` reads it; {HOW}",
            read.shape.describe()
        ));
    };
    let mut notes = read.notes.clone();
    if observed.len() > 1 {
        notes.push(format!(
            "the text holds {} pods: showing {} (the first in CrashLoopBackOff, else the first)",
            observed.len(),
            pick.name
        ));
    }
    Ok(((*pick).clone(), notes))
}

fn time(t: Option<Epoch>) -> Value {
    t.map_or(Value::Null, |t| {
        Value::String(super::time::format_rfc3339(t))
    })
}

fn text_or_null(s: &str) -> Value {
    if s.is_empty() {
        Value::Null
    } else {
        Value::String(s.to_owned())
    }
}

/// A diagnosis as the command line prints it: times in RFC 3339 (UTC),
/// `null` where there is none.
pub fn diagnosis_json(d: &crate::engine::pod::PodDiagnosis) -> Value {
    let containers: Vec<Value> = d
        .containers
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": text_or_null(&c.name),
                "kind": c.kind,
                "restartCount": c.restart_count,
                "state": c.state,
                "estimated": c.estimated,
                "backoffMs": c.backoff_ms,
                "curveStep": c.curve_step,
                "nextRestartAt": time(c.next_restart_at),
                "nextRestartLatestAt": time(c.next_restart_latest_at),
                "countdownMs": c.countdown_ms,
                "restartsNextHour": c.restarts_next_hour,
                "runMs": c.run_ms,
                "exitCode": c.exit_code,
                "exitReason": c.exit_reason,
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
        "pod": text_or_null(&d.pod),
        "namespace": text_or_null(&d.namespace),
        "node": d.node,
        "status": d.status,
        "containers": containers,
        "notes": d.notes,
    })
}

/// Every pod of a paste as `crashloop-explorer pods` prints them.
pub fn pods_json(shape: Shape, d: &PodsDiagnosis, notes: &[String]) -> Value {
    serde_json::json!({
        "shape": shape.name(),
        "asOf": time(Some(d.as_of)),
        "asOfOutput": d.as_of_output,
        "pods": d.pods.iter().map(diagnosis_json).collect::<Vec<_>>(),
        "notes": notes.iter().chain(&d.notes).collect::<Vec<_>>(),
    })
}
