//! `kubectl get pods` tables: `NAME READY STATUS RESTARTS AGE`, with
//! `NAMESPACE` first (`-A`), `-o wide`'s `IP NODE NOMINATED NODE READINESS
//! GATES` after, `pod/` prefixes, rows without a header, rows a terminal
//! wrapped, and `--watch` rows out of line with the header (a pod's last row
//! wins). kubectl's printer (kubernetes/kubernetes
//! `pkg/printers/internalversion/printers.go` `printPod`) pads columns with
//! spaces, and `RESTARTS` reads `16 (102s ago)` since 1.22, so a row is read
//! by what its words are (READY is `n/m`, RESTARTS a count) rather than by
//! column offsets: a chat that folded the padding to one space reads the same.

use super::{Reading, Shape};
use crate::engine::pod::PodRow;
use crate::engine::Ms;

/// kubectl's human durations (apimachinery `duration.HumanDuration`):
/// `102s`, `5m12s`, `3h4m`, `5d3h`, `2y30d`.
pub fn parse_age(s: &str) -> Option<Ms> {
    let mut total: Ms = 0;
    let mut digits = String::new();
    let mut any = false;
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        let unit: Ms = match ch {
            's' => 1_000,
            'm' => 60_000,
            'h' => 3_600_000,
            'd' => 86_400_000,
            'y' => 365 * 86_400_000,
            _ => return None,
        };
        let n: Ms = digits.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        digits.clear();
        any = true;
    }
    (any && digits.is_empty()).then_some(total)
}

fn is_ready(t: &str) -> bool {
    t.split_once('/').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && (a.bytes().chain(b.bytes())).all(|c| c.is_ascii_digit())
    })
}

/// A STATUS word as kubectl's printer writes one: `CrashLoopBackOff`,
/// `Init:0/1`, `OOMKilled`.
fn is_status(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_uppercase())
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '/')
}

fn is_count(t: &str) -> bool {
    !t.is_empty() && t.len() <= 10 && t.bytes().all(|c| c.is_ascii_digit())
}

/// What the header says of the columns around the fixed ones.
#[derive(Default, Clone, Copy)]
struct Columns {
    /// A header was seen: 2015's REASON column may then hold words
    /// (`OOM Killed`, `Error: image foo not found`).
    header: bool,
    namespace: bool,
    node: bool,
}

/// A line's cells: its words, with what markdown puts around them off (a
/// `**CrashLoopBackOff**`, a `` `web-0` ``, a table's `|` between cells).
/// No name, status, count or age kubectl prints holds `*`, `` ` `` or `|`.
fn cells(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .map(|w| w.trim_matches(['*', '`', '|']))
        .filter(|w| !w.is_empty())
        .collect()
}

fn header(line: &str) -> Option<Columns> {
    let words = cells(line);
    let has = |w: &str| words.contains(&w);
    let status = has("STATUS") || has("REASON");
    (has("NAME") && status && (has("READY") || has("RESTARTS"))).then(|| Columns {
        header: true,
        namespace: words.first() == Some(&"NAMESPACE"),
        node: has("NODE"),
    })
}

/// One row, if the line is one; a row cut right after STATUS is one too.
fn row(line: &str, columns: Columns) -> Option<PodRow> {
    let t = cells(line);
    let cut = || {
        let i = t.len().checked_sub(2)?;
        ((3..=4).contains(&t.len()) && is_ready(t[i]) && is_status(t[i + 1])).then_some(i)
    };
    // Under a header, a status of several words ends at the first count.
    let words = |i: usize| {
        (columns.header && is_ready(t[i]) && t[i + 1].starts_with(|c: char| c.is_ascii_uppercase()))
            .then(|| (i + 2..t.len().min(i + 8)).find(|&k| is_count(t[k])))
            .flatten()
    };
    let (i, restarts_at) = (1..t.len().saturating_sub(2))
        .find(|&i| is_ready(t[i]) && is_count(t[i + 2]) && !t[i + 1].contains('='))
        .or_else(cut)
        .map(|i| (i, i + 2))
        .or_else(|| (1..t.len().saturating_sub(2)).find_map(|i| Some((i, words(i)?))))?;
    let name = t[i - 1].strip_prefix("pod/").unwrap_or(t[i - 1]);
    let namespace = (i >= 2 && (columns.namespace || i == 2)).then(|| t[i - 2].to_owned());
    let (ready, total) = t[i].split_once('/')?;
    let mut j = restarts_at + 1;
    let mut ago = None;
    if let Some(word) = t.get(j).and_then(|w| w.strip_prefix('(')) {
        ago = parse_age(word);
        j += if t.get(j + 1).is_some_and(|w| w.starts_with("ago")) {
            2
        } else {
            1
        };
    }
    let age = t.get(j).and_then(|w| parse_age(w));
    // Without a header, `-o wide` shows itself by the IP after AGE.
    let wide = columns.node
        || t.get(j + 1)
            .is_some_and(|ip| ip.parse::<std::net::IpAddr>().is_ok());
    let node = if wide && age.is_some() {
        t.get(j + 2)
            .filter(|n| **n != "<none>")
            .map(|n| n.to_string())
    } else {
        None
    };
    Some(PodRow {
        name: name.to_owned(),
        namespace,
        node,
        ready: Some((ready.parse().ok()?, total.parse().ok()?)),
        status: t[i + 1..restarts_at].join(" "),
        restarts: t.get(restarts_at).and_then(|w| w.parse().ok()),
        last_restart_ago_ms: ago,
        age_ms: age,
    })
}

/// Whether the text reads as a table: a header, or rows.
/// A `kubectl get pods` header line (`NAME  READY  STATUS  RESTARTS  AGE`).
pub fn is_header(line: &str) -> bool {
    header(line).is_some()
}

/// A line that reads as one of the table's rows, header or not.
pub fn is_row(line: &str) -> bool {
    row(line, Columns::default()).is_some()
}

pub fn looks_like(lines: &[&str]) -> bool {
    // The first lines tell: a pasted cluster has tens of thousands.
    let head = &lines[..lines.len().min(500)];
    let yaml_like = head.iter().filter(|l| l.contains(": ")).count();
    let rows = head
        .iter()
        .filter(|l| row(l, Columns::default()).is_some())
        .count();
    head.iter().any(|l| header(l).is_some()) || (rows > 0 && rows * 2 >= yaml_like)
}

/// Every pod of the table, each once (its last row).
pub fn read(lines: &[&str]) -> Result<(Shape, Vec<Reading>, Vec<String>), String> {
    let mut columns = Columns::default();
    let mut rows: Vec<PodRow> = vec![];
    // Each pod's place in `rows`: a pasted cluster has thousands.
    let mut seen: std::collections::HashMap<(Option<String>, String), usize> =
        std::collections::HashMap::new();
    let mut notes = vec![];
    let mut skip_next = false;
    for (n, line) in lines.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        if let Some(c) = header(line) {
            columns = c;
            continue;
        }
        let mut found = row(line, columns).filter(|r| r.age_ms.is_some());
        // A row the terminal wrapped: its end on the next line.
        if found.is_none() {
            if let Some(next) = lines.get(n + 1) {
                for joined in [
                    format!("{line} {next}"),
                    format!("{line}{}", next.trim_start()),
                ] {
                    if let Some(r) = row(&joined, columns).filter(|r| r.age_ms.is_some()) {
                        found = Some(r);
                        skip_next = true;
                        break;
                    }
                }
            }
        }
        let Some(r) = found.or_else(|| row(line, columns)) else {
            continue;
        };
        match seen.entry((r.namespace.clone(), r.name.clone())) {
            std::collections::hash_map::Entry::Occupied(at) => rows[*at.get()] = r,
            std::collections::hash_map::Entry::Vacant(at) => {
                at.insert(rows.len());
                rows.push(r);
            }
        }
    }
    if rows.is_empty() {
        return Err("a `kubectl get pods` table with no pod rows: paste the rows too".into());
    }
    notes
        .push("a table has no clock: it is taken as printed at the moment of the diagnosis".into());
    Ok((
        Shape::Table,
        rows.into_iter().map(Reading::Row).collect(),
        notes,
    ))
}
