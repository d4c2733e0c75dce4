//! A paste as a sequence of blocks: what a tool wrapped around kubectl's
//! output taken off (a JSON header line, `stdout:`/`stderr:` markers, a
//! stray quote, `## ` or a line number before every line, a JSON record
//! whose `stdout` holds the output), then the stretches each of kubectl's readers reads, split
//! where a command was echoed or a table's header starts a new output; what
//! the blocks say of the same pod is merged. Our own code: no crate knows
//! kubectl's outputs, and a paste mixes them.

use serde_json::Value;

use super::{table, Reading, Shape};

/// Lines a tool prints around a command's output, never kubectl.
const MARKERS: [&str; 6] = [
    "stdout:",
    "stderr:",
    "stdout: |",
    "stderr: |",
    "STDOUT:",
    "STDERR:",
];

/// Prefixes a chat or a notebook puts before every line (a markdown quote
/// is `clean`'s: it is taken off there).
const LINE_PREFIXES: [&str; 4] = ["## ", "# ", "// ", "| "];

/// Bullets a chat puts before every line when it makes a list of a paste.
const BULLETS: [&str; 3] = ["- ", "* ", "• "];

/// The text with a tool's wrapping taken off, and what was taken.
pub fn unwrap_tool(text: &str) -> (String, Vec<String>) {
    let mut notes = vec![];
    // One line whose line ends are written `\n` (a program's string, a
    // log's field): the lines it stands for. JSON on one line keeps its
    // strings' escapes.
    let t = text.trim();
    if !t.contains('\n') && !t.starts_with(['{', '[']) && t.matches("\\n").count() >= 2 {
        notes.push("the text was one line with its line ends written \\n: read as the lines they stand for".to_owned());
        // A string's quotes are not the text's.
        let inner = t
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or(t);
        let (text, mut more) = unwrap_tool(&unescaped(inner));
        notes.append(&mut more);
        return (text, notes);
    }
    // Line numbers before every line (a pastebin's, an editor's) go first.
    if let Some(plain) = unnumbered(&text.lines().collect::<Vec<_>>()) {
        notes.push(
            "the numbers before every line (a pastebin's or an editor's) were taken off".to_owned(),
        );
        let (text, mut more) = unwrap_tool(&plain.join("\n"));
        notes.append(&mut more);
        return (text, notes);
    }
    // A tool's JSON record whose `stdout` (or `output`) holds the output.
    if let Some(inner) = json_stdout(text) {
        notes.push("the output was read from a tool's JSON record (its \"stdout\")".to_owned());
        let (text, mut more) = unwrap_tool(&inner);
        notes.append(&mut more);
        return (text, notes);
    }
    // A prefix before every line (`## `, `// `) goes first.
    let filled: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let prefix = LINE_PREFIXES.iter().find(|p| {
        filled.len() >= 2
            && filled
                .iter()
                .all(|l| l.starts_with(**p) || l.trim_end() == p.trim_end())
    });
    // A chat's bullet before every line of a describe or a console's page
    // (its indentation gone with it): a YAML list keeps its dashes.
    let bullet = BULLETS.into_iter().find(|b| {
        filled.len() >= 2 && filled.iter().all(|l| l.trim_start().starts_with(b)) && {
            let unlisted: Vec<&str> = filled
                .iter()
                .map(|l| {
                    l.trim_start()
                        .trim_start_matches(b)
                        .trim_start_matches(['>', ' '])
                })
                .collect();
            super::describe::looks_like(&unlisted) || super::console::looks_like(&unlisted)
        }
    });
    let prefix = prefix.or(bullet.as_ref());
    let mut lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start_matches(|c| bullet.is_some() && c == ' '))
        .map(|l| match prefix {
            Some(p) => l
                .strip_prefix(*p)
                .unwrap_or(l.trim_start_matches(p.trim_end())),
            None => l,
        })
        .collect();
    if let Some(p) = prefix {
        notes.push(format!("{} before every line was taken off", p.trim_end()));
    }

    // One-line JSON records before text that is not JSON: a tool's header.
    let first_text = lines.iter().position(|l| {
        let t = l.trim();
        !t.is_empty() && !one_line_json(t)
    });
    if let Some(n) = first_text {
        let records = lines[..n].iter().filter(|l| !l.trim().is_empty()).count();
        if records > 0 && !lines[n].trim_start().starts_with(['{', '[']) {
            notes.push(format!(
                "{records} line(s) of a tool's JSON before the output were left out"
            ));
            lines.drain(..n);
        }
    }
    let before = lines.len();
    lines.retain(|l| !MARKERS.contains(&l.trim()));
    if lines.len() < before {
        notes.push("a tool's stdout:/stderr: lines were left out".to_owned());
    }
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    // A stray quote around the output (a string copied out of a log).
    let first = out.iter().position(|l| !l.trim().is_empty());
    let last = out.iter().rposition(|l| !l.trim().is_empty());
    if let (Some(f), Some(l)) = (first, last) {
        let opens = out[f].trim_start().starts_with(['"', '\'']);
        let closes = out[l].trim_end().ends_with(['"', '\'']);
        let json = out[f]
            .trim_start()
            .trim_start_matches(['"', '\''])
            .starts_with(['{', '['])
            || out[f].trim_start().starts_with("\"apiVersion\"");
        if opens && !json && !out[f].contains("\": ") {
            let t = out[f].trim_start();
            out[f] = t[1..].to_owned();
            if closes && f != l {
                let t = out[l].trim_end();
                out[l] = t[..t.len() - 1].to_owned();
            }
            notes.push("a stray quote around the output was taken off".to_owned());
        }
    }
    (out.join("\n"), notes)
}

/// A string's escapes as a program writes them (`\n`, `\t`, `\"`, `\\`)
/// read back; `\r` is dropped (a line end is `\n`), any other kept as it is.
fn unescaped(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => {}
            Some(e @ ('"' | '\\')) => out.push(e),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// A line's number as a pastebin or an editor prints it (`  1. `, `12) `,
/// `3: `, `4 | `, `cat -n`'s tab), the mark after it and the line after
/// that; a number alone is a numbered blank line.
fn line_number(l: &str) -> Option<(u64, char, &str)> {
    let t = l.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 6 {
        return None;
    }
    let n = t[..digits].parse().ok()?;
    let rest = &t[digits..];
    if let Some(after) = rest.strip_prefix('\t') {
        return Some((n, '\t', after));
    }
    let marked = rest.trim_start_matches(' ');
    match marked.chars().next() {
        None => Some((n, ' ', "")),
        Some(mark @ ('.' | ')' | ':' | '|')) => {
            let after = &marked[1..];
            // `1.5`, `10:30`: a number, not a line's.
            if after.starts_with(|c: char| !c.is_whitespace()) {
                return None;
            }
            Some((n, mark, after.strip_prefix(' ').unwrap_or(after)))
        }
        _ => None,
    }
}

/// The lines without their numbers, where every line that is not blank has
/// one, with the same mark, counting up by one (blank lines between them
/// may have lost theirs), at least three lines.
fn unnumbered<'a>(lines: &[&'a str]) -> Option<Vec<&'a str>> {
    let mut out = Vec::with_capacity(lines.len());
    let (mut last, mut mark, mut blanks, mut numbered) = (None, None, 0, 0);
    for l in lines {
        if l.trim().is_empty() {
            blanks += 1;
            out.push("");
            continue;
        }
        let (n, m, rest) = line_number(l)?;
        let blank_mark = m == ' ' && rest.is_empty();
        if !blank_mark && *mark.get_or_insert(m) != m {
            return None;
        }
        if let Some(prev) = last {
            if n != prev + 1 && n != prev + 1 + blanks {
                return None;
            }
        }
        (last, blanks) = (Some(n), 0);
        numbered += 1;
        out.push(rest);
    }
    (numbered >= 3 && mark.is_some()).then_some(out)
}

fn one_line_json(t: &str) -> bool {
    t.starts_with('{')
        && t.ends_with('}')
        && serde_json::from_str::<Value>(t).is_ok_and(|v| v.is_object())
}

/// The text a tool's JSON record carries as `stdout` (or `output`), where
/// the whole paste is such a record and it is no Kubernetes object.
fn json_stdout(text: &str) -> Option<String> {
    let t = text.trim();
    if !t.starts_with('{') {
        return None;
    }
    // A one-line record a terminal folded: its strings hold no raw newline.
    let v: Value = serde_json::from_str(t)
        .or_else(|_| serde_json::from_str(&t.replace(['\n', '\r'], "")))
        .ok()?;
    if v.get("kind").is_some() || v.get("apiVersion").is_some() || v.get("status").is_some() {
        return None;
    }
    ["stdout", "output"]
        .iter()
        .find_map(|k| v.get(k)?.as_str())
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned)
}

/// A line that echoes a command: kubectl (or `k`, `oc`) after a shell
/// prompt, or alone at the start of the line.
pub fn is_command(line: &str) -> bool {
    let t = line.trim_start();
    let tools = [
        "kubectl",
        "k get ",
        "k describe ",
        "oc get ",
        "oc describe ",
    ];
    tools.iter().any(|c| t.contains(c))
        && (t.starts_with(['$', '#', '[', '|', '>', '%'])
            || t.starts_with("kubectl ")
            || t.starts_with("k ")
            || t.starts_with("oc ")
            || t.contains("$ ")
            || t.contains("# ")
            || t.contains('➜'))
}

/// One stretch of the paste: its first line (1-based) and its text.
pub struct Block {
    pub first_line: usize,
    pub last_line: usize,
    pub text: String,
}

/// The blocks of a paste: a new one at each echoed command and at each
/// table header that follows other text. One block is the whole paste.
pub fn split(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = vec![];
    let mut current: Vec<&str> = vec![];
    let mut start = 1;
    let mut flush = |current: &mut Vec<&str>, start: usize, end: usize| {
        // Its last line with text: blank lines belong to no output.
        let filled = current.iter().rposition(|l| !l.trim().is_empty());
        if let Some(last) = filled {
            blocks.push(Block {
                first_line: start,
                last_line: (start + last).min(end),
                text: current.join("\n"),
            });
        }
        current.clear();
    };
    // Whether the current block has text that is not a table's.
    let mut other = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let header = table::is_header(line);
        if is_command(line) || (header && other) {
            flush(&mut current, start, n - 1);
            start = n;
            other = false;
        }
        if !header && !line.trim().is_empty() && !is_command(line) && !table::is_row(line) {
            other = true;
        }
        current.push(line);
    }
    let end = text.lines().count();
    flush(&mut current, start, end);
    blocks
}

/// Pods the blocks read, merged: a pod named in several blocks once, its
/// fullest reading (a pod's own status before a table's row of it); pods
/// that no block names (a `describe | grep` fragment) left out where others
/// are named, with a note.
pub fn merge(reads: Vec<(Shape, Vec<Reading>)>, notes: &mut Vec<String>) -> (Shape, Vec<Reading>) {
    let shapes: Vec<Shape> = reads.iter().map(|(s, _)| *s).collect();
    let mut all: Vec<Reading> = vec![];
    let named = |r: &Reading| !name_of(r).1.is_empty();
    let any_named = reads.iter().flat_map(|(_, p)| p).any(named);
    let mut unnamed = 0;
    for (_, pods) in reads {
        for p in pods {
            if !named(&p) {
                if any_named {
                    unnamed += 1;
                } else {
                    all.push(p);
                }
                continue;
            }
            let (ns, name) = name_of(&p);
            let same = all.iter().position(|q| {
                let (qns, qname) = name_of(q);
                qname == name && (qns == ns || qns.is_empty() || ns.is_empty())
            });
            match same {
                Some(i) if rank(&p) >= rank(&all[i]) => all[i] = p,
                Some(_) => {}
                None => all.push(p),
            }
        }
    }
    if unnamed > 0 {
        notes.push(format!(
            "{unnamed} reading(s) that name no pod (a `describe | grep` fragment) were left out: the pods named elsewhere in the text are read"
        ));
    }
    let first = shapes.first().copied().unwrap_or(Shape::Pod);
    let shape = if shapes.iter().all(|s| *s == first) {
        first
    } else {
        Shape::Several
    };
    (shape, all)
}

fn name_of(r: &Reading) -> (String, String) {
    match r {
        Reading::Observed(p) => (p.namespace.clone(), p.name.clone()),
        Reading::Row(r) => (r.namespace.clone().unwrap_or_default(), r.name.clone()),
    }
}

/// A pod's own status says more than a table's row of it.
fn rank(r: &Reading) -> u8 {
    match r {
        Reading::Observed(_) => 1,
        Reading::Row(_) => 0,
    }
}
