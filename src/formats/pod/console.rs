//! A pod's page copied from a web console instead of kubectl's describe,
//! written again as describe prints it, for `describe` to read: a console
//! that puts each label on its own line above its value, and one that lays
//! a pod out as `Label <tab> value` lines and a containers table whose
//! state cell goes on over the lines below it (Google Cloud's in 2016,
//! kubernetes/kubernetes#17460). Neither is kubectl's, so each is read only
//! where its own marks are all there.

/// describe's keys that always carry a value on their line
/// (`describePod`, `describeContainerState` in
/// staging/src/k8s.io/kubectl/pkg/describe/describe.go): a line of one of
/// these alone is a label whose value a console put on the next line.
const VALUED_KEYS: [&str; 14] = [
    "Name",
    "Namespace",
    "Node",
    "Status",
    "Image",
    "State",
    "Last State",
    "Reason",
    "Exit Code",
    "Started",
    "Finished",
    "Ready",
    "Restart Count",
    "Start Time",
];

/// Labels above values need at least this many of them, so that a describe
/// with one empty field (`Reason:`, `Node:` of a pending pod) is left alone.
const MIN_LABELS_ABOVE: usize = 3;

/// The containers table's header cells a console page must have.
const TABLE_HEADER: [&str; 3] = ["Name", "Restarts", "State"];

/// Whether a line is a label alone: a valued key and its colon.
fn label_alone(line: &str) -> Option<&'static str> {
    let key = line.trim().strip_suffix(':')?;
    VALUED_KEYS.iter().copied().find(|k| *k == key)
}

/// Whether a line is a `key: value` or a `key:` line of its own.
fn keyed(line: &str) -> bool {
    line.trim()
        .split_once(':')
        .is_some_and(|(k, _)| !k.is_empty() && k.len() <= 40 && !k.contains(['(', '/']))
}

/// A state as a console words it, `Waiting (CrashLoopBackOff)`: describe's
/// state line and its reason line.
fn state_lines(key: &str, value: &str) -> Vec<String> {
    let (state, reason) = match value.split_once(" (") {
        Some((s, r)) if r.ends_with(')') => (s.trim(), Some(r.trim_end_matches(')'))),
        _ => (value, None),
    };
    let mut out = vec![format!("{key}: {state}")];
    if let (Some(r), "Waiting" | "Terminated") = (reason, state) {
        out.push(format!("Reason: {r}"));
    }
    out
}

/// Each label alone on its line joined to the value on the next, where
/// there are at least `MIN_LABELS_ABOVE` of them.
pub fn labels_above_values(lines: &[&str]) -> Option<String> {
    let above = |i: usize| {
        label_alone(lines[i]).filter(|_| {
            lines
                .get(i + 1)
                .is_some_and(|next| !next.trim().is_empty() && !keyed(next))
        })
    };
    let count = (0..lines.len()).filter(|&i| above(i).is_some()).count();
    if count < MIN_LABELS_ABOVE {
        return None;
    }
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        match above(i) {
            Some(key) => {
                let value = lines[i + 1].trim();
                if matches!(key, "State" | "Last State") {
                    out.extend(state_lines(key, value));
                } else {
                    out.push(format!("{key}: {value}"));
                }
                i += 2;
            }
            None => {
                out.push(lines[i].trim().to_owned());
                i += 1;
            }
        }
    }
    Some(out.join("\n"))
}

/// A console's page written as describe prints it, where it is one.
pub type Rewrite = fn(&[&str]) -> Option<String>;

/// Each kind of console page, and what the reading says of it.
pub const REWRITES: [(Rewrite, &str); 2] = [
    (
        table_page,
        "read as a web console's pod page (its labels and containers table), as describe prints them",
    ),
    (
        labels_above_values,
        "read with each label joined to its value on the next line, as a web console's copy puts them",
    ),
];

/// Whether the text is a console's page of a pod, of either kind.
pub fn looks_like(lines: &[&str]) -> bool {
    REWRITES.iter().any(|(rewrite, _)| rewrite(lines).is_some())
}

/// A line's tab-separated cells, trimmed (empty cells kept in place).
fn cells(line: &str) -> Vec<&str> {
    line.split('\t').map(str::trim).collect()
}

/// A console page of `Label <tab> value` lines and a tab-separated
/// containers table, as describe prints the same pod.
pub fn table_page(lines: &[&str]) -> Option<String> {
    let header_at = lines.iter().position(|l| {
        let c = cells(l);
        l.contains('\t') && TABLE_HEADER.iter().all(|h| c.contains(h))
    })?;
    let header = cells(lines[header_at]);
    let column = |name: &str| header.iter().position(|h| *h == name);
    let (name_at, restarts_at, state_at) = (column("Name")?, column("Restarts")?, column("State")?);
    let (image_at, ready_at) = (column("Image"), column("Ready"));
    // The pod's own labels, above the table: `Label <tab> value`, or
    // `Label: value` as the page's title line reads.
    let label = |key: &str| {
        lines[..header_at].iter().find_map(|l| {
            let (_, v) = l
                .split_once('\t')
                .or_else(|| l.split_once(':'))
                .filter(|(k, _)| k.trim() == key)?;
            Some(v.trim().to_owned()).filter(|v| !v.is_empty())
        })
    };
    let name = label("Name")?;
    let mut out = vec![format!("Name: {name}")];
    if let Some(ns) = label("Namespace") {
        out.push(format!("Namespace: {ns}"));
    }
    // "Running on" (its node on the next line, or lost): the phase alone.
    if let Some(phase) =
        label("Status").and_then(|s| s.split_whitespace().next().map(str::to_owned))
    {
        out.push(format!("Status: {phase}"));
    }
    out.push("Containers:".into());
    let mut rows = 0;
    let mut i = header_at + 1;
    while i < lines.len() {
        let row = cells(lines[i]);
        if !lines[i].contains('\t') || row.len() <= name_at.max(state_at) {
            break;
        }
        // The state cell, and the lines below it until the next row.
        let mut state: Vec<&str> = vec![row[state_at]];
        i += 1;
        while i < lines.len() && !lines[i].contains('\t') && !lines[i].trim().is_empty() {
            state.push(lines[i].trim());
            i += 1;
        }
        let state: Vec<&str> = state.into_iter().filter(|s| !s.is_empty()).collect();
        out.push(format!("  {}:", row[name_at]));
        if let Some(image) = image_at.and_then(|c| row.get(c)) {
            out.push(format!("    Image: {image}"));
        }
        if let Some((first, rest)) = state.split_first() {
            out.push(format!("    State: {first}"));
            out.extend(rest.iter().map(|l| format!("      {l}")));
        }
        if let Some(ready) = ready_at.and_then(|c| row.get(c)).filter(|r| !r.is_empty()) {
            out.push(format!("    Ready: {ready}"));
        }
        if let Some(n) = row.get(restarts_at).filter(|n| !n.is_empty()) {
            out.push(format!("    Restart Count: {n}"));
        }
        rows += 1;
    }
    (rows > 0).then(|| out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(t: &str) -> Vec<&str> {
        t.lines().collect()
    }

    #[test]
    fn labels_above_values_are_joined() {
        let t = "Name:\nweb-1\nNamespace:\ndefault\nContainers:\napp:\nState:\nWaiting (CrashLoopBackOff)\nRestart Count:\n75\n";
        assert_eq!(
            labels_above_values(&lines(t)).unwrap(),
            "Name: web-1\nNamespace: default\nContainers:\napp:\nState: Waiting\nReason: CrashLoopBackOff\nRestart Count: 75"
        );
        // describe's own empty fields are not labels above values.
        let own = "Name:   web-1\nReason:\nMessage:\nNode:\nIP:\n";
        assert_eq!(labels_above_values(&lines(own)), None);
    }

    #[test]
    fn a_console_table_page_is_written_as_describe() {
        let t = " Name: hello-node-lihpv\nStatus \tRunning on\nNamespace \tdefault\nContainers \t\nName \tImage \tReady \tRestarts \tState\nhello-node \tgcr.io/x/hello-node:v2 \tfalse \t7 \t\nWaiting\nReason: CrashLoopBackOff\n";
        assert_eq!(
            table_page(&lines(t)).unwrap(),
            "Name: hello-node-lihpv\nNamespace: default\nStatus: Running\nContainers:\n  hello-node:\n    Image: gcr.io/x/hello-node:v2\n    State: Waiting\n      Reason: CrashLoopBackOff\n    Ready: false\n    Restart Count: 7"
        );
        // A tab-separated table without the page's marks is not one.
        assert_eq!(table_page(&lines("Name\tRestarts\tState\n")), None);
        // Rows shorter than the header's columns end the table.
        let short = "Name: p\nState\tRestarts\tName\nWaiting\t1\n";
        assert_eq!(table_page(&lines(short)), None);
    }
}
