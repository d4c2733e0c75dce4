//! The YAML that Kubernetes manifests use, read into JSON values and written
//! back: block and flow mappings and sequences, plain and quoted scalars,
//! `|`/`>` block scalars, comments, one document. Anchors, aliases, tags and
//! complex keys are refused with a clear error. Small on purpose: a full YAML
//! library would double the app's download.

use super::value::{decimal, json_string, Map, Number, Value};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError(pub String);

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Nesting deeper than this is refused (a hostile paste cannot overflow the stack).
const MAX_DEPTH: usize = 64;

struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

fn err<T>(line: usize, msg: impl Into<String>) -> Result<T, YamlError> {
    Err(YamlError(format!("line {line}: {}", msg.into())))
}

/// The line without its comment (a `#` after whitespace, outside quotes).
fn strip_comment(s: &str) -> &str {
    let (mut single, mut double, mut prev_space) = (false, false, true);
    for (i, c) in s.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev_space => return s[..i].trim_end(),
            _ => {}
        }
        prev_space = c == ' ' || c == '\t';
    }
    s.trim_end()
}

fn scalar(s: &str, line: usize) -> Result<Value, YamlError> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix('"') {
        let inner = rest
            .strip_suffix('"')
            .ok_or_else(|| YamlError(format!("line {line}: unclosed \"")))?;
        // JSON's escapes, which YAML's double quotes include.
        return match super::value::from_json(&format!("\"{inner}\"")) {
            Ok(v @ Value::String(_)) => Ok(v),
            Ok(_) => err(line, "bad escape in a double-quoted string"),
            Err(e) => err(line, format!("bad escape in a double-quoted string: {e}")),
        };
    }
    if let Some(rest) = s.strip_prefix('\'') {
        let inner = rest
            .strip_suffix('\'')
            .ok_or_else(|| YamlError(format!("line {line}: unclosed '")))?;
        return Ok(Value::String(inner.replace("''", "'")));
    }
    if s.starts_with(['&', '*', '!']) {
        return err(
            line,
            format!("anchors, aliases and tags are not supported ({s})"),
        );
    }
    Ok(match s {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => {
            if let Ok(i) = s.parse::<i64>() {
                Value::from(i)
            } else if let Some(x) = decimal(s).filter(|f| f.is_finite()) {
                Value::Number(Number::Float(x))
            } else {
                Value::String(s.to_owned())
            }
        }
    })
}

/// A flow collection or scalar: `[a, {b: c}]`, `{type: X}`, `"q"`, `plain`.
struct Flow<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    line: usize,
}

impl Flow<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, YamlError> {
        if depth > MAX_DEPTH {
            return err(self.line, "nested too deeply");
        }
        self.ws();
        match self.s.get(self.i) {
            Some(b'[') => {
                self.i += 1;
                let mut items = vec![];
                loop {
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        self.i += 1;
                        return Ok(Value::Array(items));
                    }
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {}
                        _ => return err(self.line, "expected , or ] in a flow sequence"),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut map = Map::new();
                loop {
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        return Ok(Value::Object(map));
                    }
                    let key = match self.token(true)? {
                        Value::String(k) => k,
                        other => other.to_string(),
                    };
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return err(
                            self.line,
                            format!(
                                "expected : after {} in a flow mapping",
                                crate::engine::field::quoted(&key)
                            ),
                        );
                    }
                    self.i += 1;
                    let v = self.value(depth + 1)?;
                    map.insert(key, v);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {}
                        _ => return err(self.line, "expected , or } in a flow mapping"),
                    }
                }
            }
            Some(_) => self.token(false),
            None => err(self.line, "a value is missing"),
        }
    }

    /// A scalar up to the next `,`, `]`, `}` (or `:` for a key).
    fn token(&mut self, key: bool) -> Result<Value, YamlError> {
        self.ws();
        let start = self.i;
        if let Some(&q) = self.s.get(self.i).filter(|&&c| c == b'"' || c == b'\'') {
            self.i += 1;
            while self.i < self.s.len() {
                if self.s[self.i] == b'\\' && q == b'"' {
                    self.i += 2;
                    continue;
                }
                if self.s[self.i] == q {
                    if q == b'\'' && self.s.get(self.i + 1) == Some(&b'\'') {
                        self.i += 2;
                        continue;
                    }
                    self.i += 1;
                    return scalar(&self.text[start..self.i.min(self.text.len())], self.line);
                }
                self.i += 1;
            }
            return err(self.line, "an unclosed quote");
        }
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c == b',' || c == b']' || c == b'}' || (key && c == b':') {
                break;
            }
            if c == b':'
                && self
                    .s
                    .get(self.i + 1)
                    .is_some_and(|n| n.is_ascii_whitespace())
            {
                break;
            }
            self.i += 1;
        }
        scalar(&self.text[start..self.i], self.line)
    }
}

fn flow(text: &str, line: usize) -> Result<Value, YamlError> {
    let mut f = Flow {
        s: text.as_bytes(),
        text,
        i: 0,
        line,
    };
    let v = f.value(0)?;
    f.ws();
    if f.i < f.s.len() {
        return err(
            line,
            format!(
                "unexpected {} after a value",
                crate::engine::field::quoted(&text[f.i..])
            ),
        );
    }
    Ok(v)
}

/// `key: rest` (the key plain or quoted), if the line is a mapping entry.
fn split_key(text: &str) -> Option<(String, &str)> {
    let (key, rest) = if let Some(q) = text.strip_prefix('"') {
        let end = q.find('"')?;
        (q[..end].to_owned(), q[end + 1..].strip_prefix(':')?)
    } else if let Some(q) = text.strip_prefix('\'') {
        let end = q.find('\'')?;
        (q[..end].to_owned(), q[end + 1..].strip_prefix(':')?)
    } else {
        let at = text
            .find(": ")
            .or_else(|| text.strip_suffix(':').map(|k| k.len()))?;
        let key = &text[..at];
        if key.starts_with(['[', '{', '-', '?']) {
            return None;
        }
        (key.trim().to_owned(), &text[at + 1..])
    };
    (rest.is_empty() || rest.starts_with(' ')).then(|| (key, rest.trim()))
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    raw: Vec<&'a str>,
    at: usize,
}

impl<'a> Parser<'a> {
    fn block(&mut self, indent: usize, depth: usize) -> Result<Value, YamlError> {
        if depth > MAX_DEPTH {
            return err(
                self.lines.get(self.at).map_or(0, |l| l.number),
                "nested too deeply",
            );
        }
        let Some(first) = self.lines.get(self.at) else {
            return Ok(Value::Null);
        };
        if first.indent < indent {
            return Ok(Value::Null);
        }
        let indent = first.indent;
        if first.text == "-" || first.text.starts_with("- ") {
            self.sequence(indent, depth)
        } else if split_key(first.text).is_some() {
            self.mapping(indent, depth)
        } else {
            let (number, text) = (first.number, first.text);
            self.at += 1;
            flow(text, number)
        }
    }

    fn sequence(&mut self, indent: usize, depth: usize) -> Result<Value, YamlError> {
        let mut items = vec![];
        while let Some(l) = self.lines.get(self.at) {
            if l.indent != indent || !(l.text == "-" || l.text.starts_with("- ")) {
                if l.indent > indent {
                    return err(l.number, "bad indentation in a sequence");
                }
                break;
            }
            let rest = l.text[1..].trim_start();
            let number = l.number;
            if rest.is_empty() {
                self.at += 1;
                items.push(self.block(indent + 1, depth + 1)?);
            } else if rest.starts_with('|') || rest.starts_with('>') {
                self.at += 1;
                items.push(self.block_scalar(rest, indent, number)?);
            } else {
                // "- key: v" opens a mapping whose other keys sit under the key.
                let inner = indent + (l.text.len() - rest.len());
                self.lines[self.at] = Line {
                    number,
                    indent: inner,
                    text: rest,
                };
                items.push(self.block(inner, depth + 1)?);
            }
        }
        Ok(Value::Array(items))
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Result<Value, YamlError> {
        let mut map = Map::new();
        while let Some(l) = self.lines.get(self.at) {
            if l.indent < indent {
                break;
            }
            if l.indent > indent {
                return err(l.number, "bad indentation in a mapping");
            }
            let number = l.number;
            let Some((key, rest)) = split_key(l.text) else {
                return err(
                    number,
                    format!(
                        "expected `key: value`, got {}",
                        crate::engine::field::quoted(l.text)
                    ),
                );
            };
            self.at += 1;
            let value = if rest.is_empty() {
                // A nested block, or a sequence at the same indent ("key:\n- a").
                match self.lines.get(self.at) {
                    Some(n) if n.indent > indent => self.block(indent + 1, depth + 1)?,
                    Some(n)
                        if n.indent == indent && (n.text == "-" || n.text.starts_with("- ")) =>
                    {
                        self.sequence(indent, depth + 1)?
                    }
                    _ => Value::Null,
                }
            } else if rest.starts_with('|') || rest.starts_with('>') {
                self.block_scalar(rest, indent, number)?
            } else {
                flow(rest, number)?
            };
            if map.insert(key.clone(), value).is_some() {
                return err(
                    number,
                    format!("duplicate key {}", crate::engine::field::quoted(&key)),
                );
            }
        }
        Ok(Value::Object(map))
    }

    /// `|` keeps line breaks, `>` folds them; `-` strips the final one.
    fn block_scalar(
        &mut self,
        header: &str,
        indent: usize,
        number: usize,
    ) -> Result<Value, YamlError> {
        let literal = header.starts_with('|');
        let strip = header.contains('-');
        let mut body: Vec<&str> = vec![];
        let start = self.lines.get(self.at).map(|l| l.number);
        while let Some(l) = self.lines.get(self.at) {
            if l.indent <= indent {
                break;
            }
            self.at += 1;
        }
        // Block scalars keep their text as written, blank lines and comments too.
        if let (Some(first), Some(last)) = (
            start,
            self.lines
                .get(self.at)
                .map(|l| l.number)
                .or(Some(self.raw.len() + 1)),
        ) {
            let lines = &self.raw[first - 1..(last - 1).min(self.raw.len())];
            let cut = lines
                .iter()
                .filter(|r| !r.trim().is_empty())
                .map(|r| r.len() - r.trim_start().len())
                .min()
                .unwrap_or(0);
            body = lines.iter().map(|r| r.get(cut..).unwrap_or("")).collect();
            while body.last().is_some_and(|b| b.trim().is_empty()) {
                body.pop();
            }
        }
        if body.is_empty() {
            return if start.is_some() {
                Ok(Value::String(String::new()))
            } else {
                err(number, "an empty block scalar")
            };
        }
        let mut text = if literal {
            body.join("\n")
        } else {
            body.join(" ")
        };
        if !strip {
            text.push('\n');
        }
        Ok(Value::String(text))
    }
}

/// Reads one YAML document into a JSON value.
pub fn parse(text: &str) -> Result<Value, YamlError> {
    let raw: Vec<&str> = text.lines().collect();
    let mut lines = vec![];
    let mut started = false;
    for (i, r) in raw.iter().enumerate() {
        if r.contains('\t') && r.trim_start().len() != r.trim_start_matches('\t').len() {
            return err(i + 1, "tabs cannot indent YAML");
        }
        let t = strip_comment(r);
        if t.trim().is_empty() {
            continue;
        }
        if t == "---" {
            if started {
                break;
            }
            continue;
        }
        if t == "..." {
            break;
        }
        started = true;
        let indent = t.len() - t.trim_start().len();
        lines.push(Line {
            number: i + 1,
            indent,
            text: t.trim_start(),
        });
    }
    let mut p = Parser { lines, raw, at: 0 };
    let v = p.block(0, 0)?;
    if let Some(l) = p.lines.get(p.at) {
        return err(
            l.number,
            format!("unexpected {}", crate::engine::field::quoted(l.text)),
        );
    }
    Ok(v)
}

fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s != s.trim()
        || !matches!(scalar(s, 0), Ok(Value::String(ref v)) if v == s)
        || s.starts_with([
            '-', '[', '{', '"', '\'', '|', '>', '?', ':', '#', '%', '@', '`',
        ])
        || s.contains(": ")
        || s.contains(" #")
        || s.contains(['\n', '\t'])
        || s.ends_with(':')
}

fn write_scalar(v: &Value) -> String {
    match v {
        Value::String(s) if needs_quotes(s) => json_string(s),
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

fn write(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let key = write_scalar(&Value::String(k.clone()));
                match v {
                    Value::Object(m) if !m.is_empty() => {
                        out.push_str(&format!("{pad}{key}:\n"));
                        write(v, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() && !a.iter().all(is_scalar) => {
                        out.push_str(&format!("{pad}{key}:\n"));
                        write(v, indent, out);
                    }
                    _ => out.push_str(&format!("{pad}{key}: {}\n", inline(v))),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::Object(m) if !m.is_empty() => {
                        let mut inner = String::new();
                        write(item, indent + 2, &mut inner);
                        // The first key goes on the dash's line.
                        out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
                    }
                    _ => out.push_str(&format!("{pad}- {}\n", inline(item))),
                }
            }
        }
        _ => out.push_str(&format!("{pad}{}\n", inline(v))),
    }
}

/// A value on one line: scalars, and flow style for short collections.
fn inline(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("[{}]", a.iter().map(inline).collect::<Vec<_>>().join(", ")),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", write_scalar(&Value::String(k.clone())), inline(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => write_scalar(other),
    }
}

/// Writes a JSON value as block YAML.
pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    write(v, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// As serde_json's value, whose indexing keeps the tests short.
    fn j(v: Value) -> serde_json::Value {
        serde_json::to_value(v).unwrap()
    }

    #[test]
    fn reads_what_manifests_use() {
        let y = r#"
# a Job
apiVersion: batch/v1
kind: Job
metadata:
  name: "demo"   # quoted
  labels: {app: web, tier: 'back end'}
spec:
  backoffLimit: 3
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes:
        containerName: main
        operator: In
        values: [1, 2, 3]
    - action: Ignore
      onPodConditions:
      - type: DisruptionTarget
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        command: ["sh", "-c", "exit 1"]
        args:
          - |
            echo one
              echo two
          - >-
            folded
            text
        env:
        - {name: A, value: "a: b # not a comment"}
---
kind: Other
"#;
        let v = j(parse(y).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(v["metadata"]["labels"]["tier"], "back end");
        assert_eq!(v["spec"]["backoffLimit"], 3);
        assert_eq!(
            v["spec"]["podFailurePolicy"]["rules"][0]["onExitCodes"]["values"],
            json!([1, 2, 3])
        );
        assert_eq!(
            v["spec"]["podFailurePolicy"]["rules"][1]["onPodConditions"][0]["type"],
            "DisruptionTarget"
        );
        let c = &v["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c["command"], json!(["sh", "-c", "exit 1"]));
        assert_eq!(c["args"][0], "echo one\n  echo two\n");
        assert_eq!(c["args"][1], "folded text");
        assert_eq!(c["env"][0]["value"], "a: b # not a comment");
        assert_eq!(v["kind"], "Job");
    }

    #[test]
    fn refuses_what_it_does_not_read() {
        assert!(parse("a: &x 1\nb: *x").unwrap_err().0.contains("anchors"));
        assert!(parse("a: [1, 2").unwrap_err().0.contains("expected , or ]"));
        assert!(parse("a: 1\na: 2").unwrap_err().0.contains("duplicate key"));
        assert!(parse("a:\n  b: 1\n c: 2").is_err());
        assert!(parse(&"[".repeat(1000))
            .unwrap_err()
            .0
            .contains("nested too deeply"));
        assert!(parse("a: \"unclosed").is_err());
    }

    #[test]
    fn writes_and_reads_back() {
        let v = json!({
            "apiVersion": "batch/v1",
            "spec": {"backoffLimit": 6, "values": [40, 41], "empty": [], "rules": [
                {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}
            ]},
            "tricky": ["true", "1", "", "a: b", "-x", "#c", "multi\nline", "ok"]
        });
        let text = to_string(&super::super::value::from_json(&v.to_string()).unwrap());
        assert!(text.contains("status: \"True\""), "{text}");
        assert_eq!(
            j(parse(&text).unwrap_or_else(|e| panic!("{e}"))),
            v,
            "{text}"
        );
    }
}
