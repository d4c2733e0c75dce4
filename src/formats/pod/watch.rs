//! A watch of pods as it comes: `kubectl get pods -o json --watch` (each Pod
//! its own indented document; `--output-watch-events` wraps each in
//! `{"type", "object"}`), the API's own stream (`kubectl get --raw
//! '/api/v1/pods?watch=1'`, an event a line) and a PodList (the list a watch
//! starts from), read into `engine::live` changes. kubectl prints the
//! list's pods first, then the watch's from the list's resourceVersion, and
//! the Status of an `ERROR` event bare (pkg/cmd/get/get.go, `watch`); an
//! event client-go cannot decode ends the watch as an `ERROR` with a 500
//! Status (apimachinery pkg/watch/streamwatcher.go, `receive`).
//!
//! Documents are framed here, by brace depth: serde_json's
//! StreamDeserializer stops for good at the first malformed document, and a
//! watch must skip it, say so and read on.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::object::{has_container_statuses, read_pod};
use super::{diagnosis_json, time};
use crate::engine::apf::ApiServer;
use crate::engine::config::KubeletVersion;
use crate::engine::duration::format_go_duration_ms;
use crate::engine::live::{Change, Listed, Live};
use crate::engine::load_now::LoadNow;
use crate::engine::pod::{step_of, ContainerDiagnosis, Epoch, NodeAssumption};
use crate::formats::time::format_rfc3339;

/// One document is at most this long: a Pod is a few KB, its managed fields
/// included.
pub const MAX_DOCUMENT: usize = super::MAX_POD_TEXT;

/// What the command tells a user whose stream is not this.
pub const FOLLOW_HOW: &str =
    "--follow reads `kubectl get pods -A -o json --watch` (with or without --output-watch-events)";

/// Documents cut out of a stream of text.
#[derive(Debug, Default)]
pub struct Framer {
    /// The part of the last chunk after its last newline.
    partial: String,
    doc: String,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Lines read, and the line the open document started on.
    line: u64,
    doc_line: u64,
    /// Inside a run of lines that are not JSON, already reported.
    stray: bool,
    /// Dropping the rest of a document that was too long.
    dropping: bool,
}

/// A document cut out, or text that is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Framed {
    Document { line: u64, value: Value },
    Bad { line: u64, why: String },
}

impl Framer {
    /// Reads a chunk of the stream (any length; a line may span chunks).
    pub fn push(&mut self, chunk: &str) -> Vec<Framed> {
        let mut out = vec![];
        self.partial.push_str(chunk);
        while let Some(end) = self.partial.find('\n') {
            let line: String = self.partial.drain(..=end).collect();
            self.line(line.trim_end_matches(['\n', '\r']), &mut out);
        }
        if self.partial.len() > MAX_DOCUMENT {
            let line = std::mem::take(&mut self.partial);
            self.line(&line, &mut out);
        }
        out
    }

    /// The end of the stream: what is left is read, or reported cut short.
    pub fn finish(&mut self) -> Vec<Framed> {
        let mut out = vec![];
        let rest = std::mem::take(&mut self.partial);
        if !rest.is_empty() {
            self.line(&rest, &mut out);
        }
        if !self.doc.is_empty() {
            out.push(Framed::Bad {
                line: self.doc_line,
                why: "cut short: the stream ended inside it".into(),
            });
            self.reset();
        }
        out
    }

    fn reset(&mut self) {
        self.doc.clear();
        self.depth = 0;
        self.in_string = false;
        self.escaped = false;
    }

    fn line(&mut self, line: &str, out: &mut Vec<Framed>) {
        self.line += 1;
        // kubectl indents what is inside a document: a `{` at the start of
        // a line opens a new one, and one still open was cut short.
        let opens =
            line.starts_with('{') || (self.doc.is_empty() && line.trim_start().starts_with('{'));
        if opens {
            self.dropping = false;
            self.stray = false;
            if !self.doc.is_empty() {
                out.push(Framed::Bad {
                    line: self.doc_line,
                    why: "cut short: a new document began before it closed".into(),
                });
                self.reset();
            }
        }
        if self.dropping {
            return;
        }
        if self.doc.is_empty() && !opens {
            if !line.trim().is_empty() && !self.stray {
                self.stray = true;
                out.push(Framed::Bad {
                    line: self.line,
                    why: format!("not JSON ({}): {FOLLOW_HOW}", excerpt(line)),
                });
            }
            return;
        }
        if self.doc.is_empty() {
            self.doc_line = self.line;
        }
        let mut from = 0;
        for (i, b) in line.bytes().enumerate() {
            if self.in_string {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            // Between documents, what is not the next one's `{` (a stray
            // closer, a comma, prose after it) is passed over.
            if self.depth == 0 && self.doc.is_empty() && b != b'{' {
                from = i + 1;
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.doc.push_str(&line[from..=i]);
                        from = i + 1;
                        let text = std::mem::take(&mut self.doc);
                        out.push(match serde_json::from_str(&text) {
                            Ok(value) => Framed::Document {
                                line: self.doc_line,
                                value,
                            },
                            Err(e) => Framed::Bad {
                                line: self.doc_line,
                                why: format!("not JSON: {e}"),
                            },
                        });
                        self.reset();
                        self.doc_line = self.line;
                    }
                }
                _ => {}
            }
        }
        let rest = &line[from..];
        if self.doc.is_empty() && rest.trim().is_empty() {
            return;
        }
        self.doc.push_str(rest);
        self.doc.push('\n');
        if self.doc.len() > MAX_DOCUMENT {
            out.push(Framed::Bad {
                line: self.doc_line,
                why: format!(
                    "over {} KB: no Pod is this long; skipped to the next document",
                    MAX_DOCUMENT / 1024
                ),
            });
            self.reset();
            self.dropping = true;
        }
    }
}

/// The start of a line, to say which.
fn excerpt(line: &str) -> String {
    const CHARS: usize = 40;
    let t = line.trim();
    match t.char_indices().nth(CHARS) {
        Some((at, _)) => format!("`{}…`", &t[..at]),
        None => format!("`{t}`"),
    }
}

/// What one document of a watch means.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    Change(Change),
    /// The API server ended the watch with an error (an `ERROR` event, or
    /// the Status kubectl prints for one).
    Ended(String),
    /// A document not read, and why (said with where it began).
    Skipped(String),
}

/// Reads a stream of documents into changes.
#[derive(Debug)]
pub struct WatchReader {
    framer: Framer,
    version: KubeletVersion,
    documents: u64,
    /// The newest `resourceVersion` seen (an object's, a list's, a
    /// bookmark's): where a watch would resume.
    pub resource_version: Option<String>,
    /// A list page's `metadata.continue`: where the list goes on.
    pub continue_token: Option<String>,
    /// The API server said `410 Gone` (its version is too old to resume
    /// from): a watch must list again.
    pub expired: bool,
}

impl WatchReader {
    pub fn new(version: KubeletVersion) -> Self {
        Self {
            framer: Framer::default(),
            version,
            documents: 0,
            resource_version: None,
            continue_token: None,
            expired: false,
        }
    }

    /// How many documents the stream has carried, read or not.
    pub fn documents(&self) -> u64 {
        self.documents
    }

    /// Reads a chunk of the stream.
    pub fn push(&mut self, chunk: &str) -> Vec<Read> {
        let framed = self.framer.push(chunk);
        self.read(framed)
    }

    /// The end of the stream.
    pub fn finish(&mut self) -> Vec<Read> {
        let framed = self.framer.finish();
        self.read(framed)
    }

    fn read(&mut self, framed: Vec<Framed>) -> Vec<Read> {
        let mut out = vec![];
        for f in framed {
            self.documents += 1;
            match f {
                Framed::Bad { line, why } => out.push(Read::Skipped(format!(
                    "document {} (line {line}): {why}; skipped",
                    self.documents
                ))),
                Framed::Document { line, value } => {
                    let at = format!("document {} (line {line})", self.documents);
                    self.document(&at, &value, &mut out);
                }
            }
        }
        out
    }

    /// A Status that ends the watch, noting a 410.
    fn ended(&mut self, status: &Value) -> Read {
        const GONE: u64 = 410;
        self.expired |= status.get("code").and_then(Value::as_u64) == Some(GONE);
        Read::Ended(status_words(status))
    }

    fn note_version(&mut self, v: &Value) {
        if let Some(rv) = v
            .get("metadata")
            .and_then(|m| m.get("resourceVersion"))
            .and_then(Value::as_str)
        {
            self.resource_version = Some(rv.to_owned());
        }
    }

    fn document(&mut self, at: &str, v: &Value, out: &mut Vec<Read>) {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
        // A watch event: {"type": "MODIFIED", "object": {…}}.
        if let (Some(kind), Some(object)) = (v.get("type").and_then(Value::as_str), v.get("object"))
        {
            let node = object.get("kind").and_then(Value::as_str) == Some(NODE);
            match kind {
                "ADDED" | "MODIFIED" => self.object(at, object, out),
                "DELETED" if node => {
                    self.note_version(object);
                    let name = name_of(object).to_owned();
                    out.push(Read::Change(Change::NodeGone { name }));
                }
                "DELETED" => {
                    self.note_version(object);
                    out.push(Read::Change(Change::Remove { key: key(object) }));
                }
                "BOOKMARK" => self.note_version(object),
                "ERROR" => out.push(self.ended(object)),
                other => out.push(Read::Skipped(format!(
                    "{at}: a watch event of type {}, not ADDED, MODIFIED, DELETED, BOOKMARK or ERROR; skipped",
                    crate::engine::field::quoted(other)
                ))),
            }
            return;
        }
        match kind {
            "Status" => out.push(self.ended(v)),
            "List" | "PodList" | "NodeList" => {
                let items = v.get("items").and_then(Value::as_array);
                for item in items.into_iter().flatten() {
                    // The API's own lists leave their items' kind out.
                    if kind == "NodeList" {
                        self.node(item, out);
                    } else {
                        self.object(at, item, out);
                    }
                }
                // The list's own version, not its items' older ones, is
                // where a watch of it starts.
                self.note_version(v);
                self.continue_token = v
                    .get("metadata")
                    .and_then(|m| m.get("continue"))
                    .and_then(Value::as_str)
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned);
            }
            NODE => self.node(v, out),
            "Pod" | ""
                if v.is_object() && (v.get("metadata").is_some() || v.get("status").is_some()) =>
            {
                self.pod(at, v, out)
            }
            "" => out.push(Read::Skipped(format!(
                "{at}: neither a Pod nor a watch event; skipped: {FOLLOW_HOW}"
            ))),
            other => out.push(Read::Skipped(format!(
                "{at}: a {other}, not a Pod; skipped: {FOLLOW_HOW}"
            ))),
        }
    }

    /// A list's or an event's object: a Node, else a Pod.
    fn object(&mut self, at: &str, v: &Value, out: &mut Vec<Read>) {
        if v.get("kind").and_then(Value::as_str) == Some(NODE) {
            self.node(v, out);
        } else {
            self.pod(at, v, out);
        }
    }

    /// A Node: its kubelet's version as it reports it.
    fn node(&mut self, v: &Value, out: &mut Vec<Read>) {
        self.note_version(v);
        let version = v
            .pointer("/status/nodeInfo/kubeletVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        out.push(Read::Change(Change::Node {
            name: name_of(v).to_owned(),
            kubelet_version: version.to_owned(),
        }));
    }

    fn pod(&mut self, at: &str, v: &Value, out: &mut Vec<Read>) {
        self.note_version(v);
        let key = key(v);
        let deleting = v
            .get("metadata")
            .and_then(|m| m.get("deletionTimestamp"))
            .is_some_and(|t| !t.is_null());
        if deleting || !has_container_statuses(v) {
            out.push(Read::Change(Change::Remove { key }));
            return;
        }
        match read_pod(v, self.version) {
            Ok((pod, notes)) => {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                v.get("status").map(Value::to_string).hash(&mut h);
                v.get("spec").map(Value::to_string).hash(&mut h);
                out.push(Read::Change(Change::Put {
                    key,
                    fingerprint: h.finish(),
                    pod: Box::new(pod),
                    notes,
                }));
            }
            Err(e) => out.push(Read::Skipped(format!("{at}: {key}: {e}; skipped"))),
        }
    }
}

/// A pasted watch (several JSON documents one after another, as `kubectl
/// get pods -o json --watch` prints them): each pod's newest state, in the
/// order pods first appeared. `None` for one document.
pub fn read_stream(text: &str, version: KubeletVersion) -> Option<Result<super::PodsRead, String>> {
    // Whole documents from the start (a paste may be re-indented, so the
    // live framing's column rule does not apply); one cut short ends it.
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut framed = vec![];
    // The line each document begins on: newlines counted up to its first
    // character.
    let (mut line, mut at) = (1u64, 0usize);
    let mut begins = |end: usize| {
        let rest = &text[at..end];
        let start = at + rest.len() - rest.trim_start().len();
        line += text[at..start].matches('\n').count() as u64;
        let begun = line;
        line += text[start..end].matches('\n').count() as u64;
        at = end;
        begun
    };
    let mut cut = None;
    loop {
        match values.next() {
            Some(Ok(value)) => {
                let line = begins(values.byte_offset());
                framed.push(Framed::Document { line, value });
            }
            Some(Err(e)) => {
                cut = Some((begins(text.len()), e));
                break;
            }
            None => break,
        }
    }
    if framed.len() < 2 {
        return None;
    }
    if let Some((line, e)) = cut {
        framed.push(Framed::Bad {
            line,
            why: format!("not JSON: {e}"),
        });
    }
    let mut reader = WatchReader::new(version);
    let mut pods: Vec<(String, super::Reading)> = vec![];
    let mut notes = vec![];
    for r in reader.read(framed) {
        match r {
            Read::Change(Change::Put {
                key,
                pod,
                notes: mut n,
                ..
            }) => {
                notes.append(&mut n);
                let reading = super::Reading::Observed(*pod);
                match pods.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = reading,
                    None => pods.push((key, reading)),
                }
            }
            Read::Change(Change::Remove { key }) => pods.retain(|(k, _)| *k != key),
            // A pasted watch is diagnosed on the kubelet chosen.
            Read::Change(_) => {}
            Read::Skipped(why) => notes.push(why),
            Read::Ended(status) => notes.push(format!("the watch ended with an error: {status}")),
        }
    }
    if pods.is_empty() {
        return Some(Err(format!(
            "a watch whose pods were all deleted, or none of whose pods has a container status yet: {}",
            super::HOW
        )));
    }
    Some(Ok(super::PodsRead {
        shape: super::Shape::Watch,
        pods: pods.into_iter().map(|(_, r)| r).collect(),
        notes,
    }))
}

const NODE: &str = "Node";

/// An object's `metadata.name`.
fn name_of(v: &Value) -> &str {
    v.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// A pod's identity: its UID, else namespace/name.
fn key(v: &Value) -> String {
    let meta = |k: &str| {
        v.get("metadata")
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    match meta("uid") {
        "" => format!("{}/{}", meta("namespace"), meta("name")),
        uid => uid.to_owned(),
    }
}

/// A Status as the API server words it: `410 Expired: too old resource
/// version: 1 (42)`.
fn status_words(v: &Value) -> String {
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
    let code = v.get("code").and_then(Value::as_u64);
    let mut words = String::new();
    if let Some(c) = code {
        words.push_str(&format!("{c} "));
    }
    words.push_str(match text("reason") {
        "" => "error",
        r => r,
    });
    if !text("message").is_empty() {
        words.push_str(": ");
        words.push_str(text("message"));
    }
    words
}

/// A countdown as the table shows it: `in 1m12s`, `due` inside the window
/// the kubelet acts in, `due, 12s late` past it.
pub fn countdown(c: &ContainerDiagnosis, now: Epoch) -> String {
    countdown_in(c, now, format_go_duration_ms)
}

/// `countdown`, its durations written by `style` (the page's own, beside
/// its diagnosis; the terminal's are Go's, as kubectl's).
pub fn countdown_in(c: &ContainerDiagnosis, now: Epoch, style: fn(u64) -> String) -> String {
    let Some(next) = c.next_restart_at else {
        return "-".into();
    };
    let secs = |ms: i64| style((ms.max(0) as u64).div_ceil(1000) * 1000);
    if next > now {
        return format!("in {}", secs(next - now));
    }
    match c.next_restart_latest_at {
        Some(latest) if now > latest => format!("due, {} late", secs(now - latest)),
        _ => "due".into(),
    }
}

/// The steps of a curve up to its cap (6 for 10 s doubling to 5 min).
pub fn steps_of(node: &NodeAssumption) -> Option<u32> {
    let b = &node.backoff;
    step_of(b.initial_ms, b.max_ms, b.max_ms)
}

/// `5/6`: a container's step of the curve, of `steps`.
pub fn step_words(c: &ContainerDiagnosis, steps: Option<u32>) -> Option<String> {
    let s = c.curve_step?;
    Some(match steps {
        Some(of) => format!("{s}/{of}"),
        None => s.to_string(),
    })
}

/// `Error (1)`: the last exit's reason and code, as far as shown.
pub fn exit_short(c: &ContainerDiagnosis) -> Option<String> {
    match (&c.exit_reason, c.exit_code) {
        (Some(r), Some(code)) => Some(format!("{r} ({code})")),
        (None, Some(code)) => Some(format!("exit {code}")),
        (Some(r), None) => Some(r.clone()),
        (None, None) => None,
    }
}

/// The header line: what the diagnoses assume, how many pods loop, when.
pub fn watch_header(live: &Live, now: Epoch) -> String {
    let listed = live.looping();
    let nodes = live.kubelets().len();
    let assumed = match nodes {
        0 => live.node().label.clone(),
        _ => format!(
            "each pod's own node ({nodes} watched), else {}",
            live.node().label
        ),
    };
    format!(
        "{} crash-looping of {} pods watched, {} · assumed: {assumed}",
        listed,
        live.watched(),
        format_rfc3339(now),
    )
}

/// Where a watch's load took its API servers' count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicasFrom {
    /// The cluster's `kubernetes` Endpoints (`formats::endpoints`).
    Endpoints,
    /// The user's `--api-server`.
    Given,
    /// `ApiServer`'s default.
    Default,
}

impl ReplicasFrom {
    /// As a JSON line's `load.replicasFrom` names it.
    pub fn name(self) -> &'static str {
        match self {
            ReplicasFrom::Endpoints => "endpoints",
            ReplicasFrom::Given => "--api-server",
            ReplicasFrom::Default => "default",
        }
    }
}

/// The load shown with a watch: the crash loops' now, and where its API
/// servers' count came from.
#[derive(Clone, Copy)]
pub struct WatchLoad<'a> {
    pub now: &'a LoadNow,
    pub replicas_from: ReplicasFrom,
}

impl WatchLoad<'_> {
    /// The load line, and where the API servers and their levels came
    /// from where the cluster said.
    fn words(&self) -> String {
        let mut words = load_words(self.now);
        if self.replicas_from == ReplicasFrom::Endpoints {
            words.push_str(&format!(
                ". {}; --api-server sets their limits",
                crate::formats::endpoints::counted_words(self.now.api.replicas)
            ));
        }
        if let Some(levels) = &self.now.api.levels {
            words.push_str(&format!(
                ". {}",
                crate::formats::flowcontrol::shares_words(levels)
            ));
        }
        words
    }
}

/// The terminal's table at `now`: a row per looping container, soonest
/// restart first; then, where the watch reports nodes, a row per node; then
/// the load the crash loops make, where given.
pub fn watch_table(live: &Live, now: Epoch, load: Option<WatchLoad>) -> String {
    const HEAD: [&str; 8] = [
        "POD",
        "CONTAINER",
        "STATE",
        "RESTARTS",
        "STEP",
        "BACK-OFF",
        "NEXT RESTART",
        "LAST EXIT",
    ];
    let pods = live.pods();
    let mut rows: Vec<Vec<String>> = vec![HEAD.map(str::to_owned).to_vec()];
    for p in &pods {
        let d = &p.diagnosis;
        let steps = steps_of(live.assumption_of(p));
        for c in p.diagnosis.containers.iter().filter(|c| c.looping()) {
            rows.push(vec![
                format!("{}/{}", d.namespace, d.pod),
                if c.name.is_empty() {
                    "-".into()
                } else {
                    c.name.clone()
                },
                c.state.clone(),
                c.restart_count.map_or("-".into(), |n| n.to_string()),
                step_words(c, steps).unwrap_or_else(|| "-".into()),
                c.backoff_ms.map_or("-".into(), format_go_duration_ms),
                countdown(c, now),
                exit_short(c).unwrap_or_else(|| "-".into()),
            ]);
        }
    }
    let mut out = watch_header(live, now);
    out.push('\n');
    let none = rows.len() == 1;
    out.push_str(&aligned(&rows));
    if none {
        out.push_str("(no crash-looping pod)\n");
    }
    // What the restarts seen say of the curve, where they say enough.
    for p in &pods {
        let d = &p.diagnosis;
        for (name, j) in p.curves.iter().filter(|(_, j)| j.agrees.is_some()) {
            out.push_str(&format!("{}/{} {name}: {}\n", d.namespace, d.pod, j.note));
        }
    }
    if !live.kubelets().is_empty() {
        out.push('\n');
        out.push_str(&nodes_table(live, load.map(|l| l.now)));
    }
    if let Some(l) = load.filter(|l| !l.now.nodes.is_empty()) {
        out.push_str(&format!("{}\n", l.words()));
    }
    out
}

/// The load line: `Load now: 0.34 requests/s …`.
pub fn load_words(l: &LoadNow) -> String {
    let replicas = if l.api == ApiServer::default() {
        format!("{} replicas by default", l.api.replicas)
    } else if l.api.replicas == 1 {
        "1 replica".to_owned()
    } else {
        format!("{} replicas", l.api.replicas)
    };
    format!(
        "Load now, the crash loops' next {} from where they are on their curves: {} requests/s to the API server, {} of its {} system seats busy, {} in the busiest {} ({replicas}, {} ms a request)",
        crate::engine::duration::format_human_ms(crate::engine::load_now::STEADY_MS),
        per_second(l.requests_per_second),
        per_second(l.seats_busy),
        l.system_seats,
        per_second(l.peak_seats_busy),
        crate::engine::duration::format_human_ms(crate::engine::windows::LOAD_WINDOW_MS),
        (l.api.seconds_per_request * 1e6).round() / 1e3
    )
}

/// A rate to two significant places past the point where it is small.
fn per_second(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else if r >= 1.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

/// A row per node: its kubelet, where its curve came from, its crash loops
/// and the back-offs seen; then what each node's facts are and why, and
/// what a disagreement fits instead.
fn nodes_table(live: &Live, load: Option<&LoadNow>) -> String {
    const HEAD: [&str; 7] = [
        "NODE",
        "KUBELET",
        "CURVE FROM",
        "LOOPING",
        "BACK-OFFS SEEN",
        "VERDICT",
        "REQUESTS/S",
    ];
    let nodes = live.nodes();
    let mut rows: Vec<Vec<String>> = vec![HEAD.map(str::to_owned).to_vec()];
    for v in &nodes {
        let k = v.kubelet;
        let j = v.judgement;
        rows.push(vec![
            k.name.clone(),
            k.reported.clone(),
            k.config_from.name().to_owned(),
            v.looping_pods.to_string(),
            j.filter(|j| !j.observed_ms.is_empty())
                .map_or("-".into(), |j| {
                    j.observed_ms
                        .iter()
                        .map(|&ms| format_go_duration_ms(ms))
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
            match j.map(|j| j.agrees) {
                Some(Some(true)) => "agrees",
                Some(Some(false)) => "DISAGREES",
                Some(None) => "too few seen",
                None => "-",
            }
            .to_owned(),
            node_rate(load, &k.name).map_or("-".into(), per_second),
        ]);
    }
    let mut out = aligned(&rows);
    for v in &nodes {
        if v.kubelet.config_from.why().is_some() {
            out.push_str(&format!("{}\n", v.kubelet.facts(live.node())));
        }
        if let Some(j) = v.judgement.filter(|j| j.agrees == Some(false)) {
            out.push_str(&format!("{}: {}\n", v.kubelet.name, j.note));
        }
    }
    out
}

/// What a node's kubelet sends for its crash loops, where the load is known.
fn node_rate(load: Option<&LoadNow>, node: &str) -> Option<f64> {
    load?
        .nodes
        .iter()
        .find(|n| n.node == node)
        .map(|n| n.requests_per_second)
}

/// Rows as columns two spaces apart, each as wide as its widest cell.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// `--json`'s lines: the whole current set at each moment asked, as `pods`
/// prints pods, each pod as diagnosed at its last change (`diagnosedAt`),
/// its countdowns as of the line. Each pod's JSON is written once per
/// change and kept, cut where its countdowns go and filled in per line:
/// writing a thousand pods' JSON anew took 143 ms a line, far over a frame.
#[derive(Debug, Default)]
pub struct JsonLines {
    written: HashMap<String, Written>,
}

/// A pod's JSON, cut where its containers' countdowns go.
#[derive(Debug)]
struct Written {
    at: Epoch,
    pieces: Vec<String>,
    next: Vec<Option<Epoch>>,
}

/// What stands in each countdown's place while a pod's JSON is written:
/// no other key or value serializes to it (quotes inside a value are
/// escaped).
const GAP: &str = r#""countdownMs":"\u0000""#;

impl Written {
    fn of(p: &Listed, live: &Live) -> Self {
        let mut v = diagnosis_json(&p.diagnosis);
        // Which node facts the answer used.
        v["assumes"] = live.facts(p).into();
        if let Some(k) = live.kubelet_of(p) {
            v["kubeletVersion"] = k.reported.clone().into();
            v["configFrom"] = k.config_from.name().into();
        }
        if let Some(cs) = v.get_mut("containers").and_then(Value::as_array_mut) {
            for c in cs {
                c["countdownMs"] = "\u{0}".into();
                let name = c["name"].as_str().unwrap_or_default();
                // The back-offs this watch has seen, against the node's curve.
                if let Some((_, j)) = p.curves.iter().find(|(n, _)| n == name) {
                    c["observedBackoffsMs"] = j.observed_ms.clone().into();
                    c["expectedBackoffsMs"] = j.expected_ms.clone().into();
                    c["agrees"] = j.agrees.into();
                    c["curveNote"] = j.note.clone().into();
                }
            }
        }
        v["diagnosedAt"] = time(Some(p.at));
        let text = v.to_string();
        Self {
            at: p.at,
            pieces: text.split(GAP).map(str::to_owned).collect(),
            next: p
                .diagnosis
                .containers
                .iter()
                .map(|c| c.next_restart_at)
                .collect(),
        }
    }
}

impl JsonLines {
    /// The line at `now` (without its newline), with the load where given.
    pub fn line(&mut self, live: &Live, now: Epoch, load: Option<WatchLoad>) -> String {
        use std::fmt::Write as _;
        let pods = live.pods();
        let listed: std::collections::HashSet<&str> = pods.iter().map(|p| p.key.as_str()).collect();
        self.written.retain(|k, _| listed.contains(k.as_str()));
        let mut out = format!(
            r#"{{"assumes":{},"shape":{},"asOf":{},"watched":{},"pods":["#,
            Value::from(live.node().label.as_str()),
            Value::from(super::Shape::Watch.name()),
            time(Some(now)),
            live.watched()
        );
        for (i, p) in pods.iter().enumerate() {
            let w = self
                .written
                .entry(p.key.clone())
                .and_modify(|w| {
                    if w.at != p.at {
                        *w = Written::of(p, live);
                    }
                })
                .or_insert_with(|| Written::of(p, live));
            if i > 0 {
                out.push(',');
            }
            let gaps = w.pieces.len() - 1;
            for (j, piece) in w.pieces.iter().enumerate() {
                out.push_str(piece);
                if j < gaps {
                    match w.next.get(j).copied().flatten() {
                        Some(t) => {
                            let _ = write!(out, r#""countdownMs":{}"#, t - now);
                        }
                        None => out.push_str(r#""countdownMs":null"#),
                    }
                }
            }
        }
        out.push_str(r#"],"nodes":"#);
        out.push_str(&nodes_json(live, load.map(|l| l.now)).to_string());
        if let Some(WatchLoad {
            now: l,
            replicas_from,
        }) = load
        {
            out.push_str(r#","load":"#);
            let v = serde_json::json!({
                "requestsPerSecond": l.requests_per_second,
                "systemSeats": l.system_seats,
                "seatsBusy": l.seats_busy,
                "peakRequestsPerSecond": l.peak_requests_per_second,
                "peakSeatsBusy": l.peak_seats_busy,
                "apiServer": l.api,
                "replicasFrom": replicas_from.name(),
            });
            out.push_str(&v.to_string());
        }
        out.push('}');
        out
    }
}

/// The line's `nodes`: each node's kubelet, where its curve came from, its
/// crash loops and what their restarts say of the curve.
fn nodes_json(live: &Live, load: Option<&LoadNow>) -> Value {
    live.nodes()
        .into_iter()
        .map(|v| {
            let k = v.kubelet;
            let j = v.judgement;
            serde_json::json!({
                "name": k.name,
                "kubeletVersion": k.reported,
                "configFrom": k.config_from.name(),
                "why": k.config_from.why(),
                "assumes": k.facts(live.node()),
                "loopingPods": v.looping_pods,
                "observedBackoffsMs": j.map(|j| j.observed_ms.clone()).unwrap_or_default(),
                "expectedBackoffsMs": j.map(|j| j.expected_ms.clone()).unwrap_or_default(),
                "agrees": j.and_then(|j| j.agrees),
                "note": j.map(|j| j.note.clone()),
                "requestsPerSecond": node_rate(load, &k.name).unwrap_or(0.0),
            })
        })
        .collect()
}
