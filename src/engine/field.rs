//! `field.Error` as the API server reports it: a field path, an error type and
//! a detail, printed as `spec.backoffLimit: Invalid value: -1: must be …`.
//! (k8s.io/apimachinery `pkg/util/validation/field/errors.go`.)

use std::fmt;

use serde::{Deserialize, Serialize};

/// One `field.Error`, already worded: the field path and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Go's `%q` (`strconv.Quote`) of a string, which the API uses for string
/// values: quotes, backslashes and control characters escaped (`\a` `\b`
/// `\f` `\n` `\r` `\t` `\v`, else `\xNN` below 0x80 and `\uNNNN` above, as
/// Go's src/strconv/quote.go `appendEscapedRune` writes them), the rest kept. Written out rather than borrowed
/// from `Debug`, which the release wasm builds without (`-Zfmt-debug=none`).
pub fn quoted(s: &str) -> String {
    quote_with(s, |c, out| match c {
        '\u{7}' => out.push_str("\\a"),
        '\u{b}' => out.push_str("\\v"),
        c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
        c => out.push_str(&format!("\\u{:04x}", c as u32)),
    })
}

/// `s` in double quotes with `"`, `\`, `\n`, `\t`, `\r`, `\b` and `\f`
/// escaped as Go and JSON both write them; `other` writes any other control
/// character (the two differ there).
pub fn quote_with(s: &str, other: impl Fn(char, &mut String)) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => other(c, &mut out),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `"a", "b"`: how `field.NotSupported` lists the supported values.
pub fn quoted_list(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| quoted(v))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FieldError {
    /// `field.Invalid`; `value` is printed as the API prints it (quote strings).
    pub fn invalid(field: impl Into<String>, value: impl fmt::Display, detail: &str) -> Self {
        Self {
            field: field.into(),
            message: format!("Invalid value: {value}: {detail}"),
        }
    }

    /// `field.Invalid` with `field.OmitValueType{}`: no value printed.
    pub fn invalid_omit_value(field: impl Into<String>, detail: &str) -> Self {
        Self {
            field: field.into(),
            message: format!("Invalid value: {detail}"),
        }
    }

    /// `field.Required`.
    pub fn required(field: impl Into<String>, detail: &str) -> Self {
        Self {
            field: field.into(),
            message: if detail.is_empty() {
                "Required value".to_owned()
            } else {
                format!("Required value: {detail}")
            },
        }
    }

    /// `field.NotSupported` for a string value.
    pub fn not_supported(field: impl Into<String>, value: &str, supported: &[&str]) -> Self {
        Self {
            field: field.into(),
            message: format!(
                "Unsupported value: {}: supported values: {}",
                quoted(value),
                quoted_list(supported)
            ),
        }
    }

    /// `field.TooMany`.
    pub fn too_many(field: impl Into<String>, actual: usize, max: usize) -> Self {
        Self {
            field: field.into(),
            message: format!("Too many: {actual}: must have at most {max} items"),
        }
    }

    /// `field.Duplicate`.
    pub fn duplicate(field: impl Into<String>, value: impl fmt::Display) -> Self {
        Self {
            field: field.into(),
            message: format!("Duplicate value: {value}"),
        }
    }

    /// `field.Forbidden`.
    pub fn forbidden(field: impl Into<String>, detail: &str) -> Self {
        Self {
            field: field.into(),
            message: format!("Forbidden: {detail}"),
        }
    }
}

/// `[]int32{3, 2}`: how `field.Invalid` prints an int32 slice.
pub fn go_int32_slice(v: &[i32]) -> String {
    if v.is_empty() {
        return "[]int32(nil)".to_owned();
    }
    format!(
        "[]int32{{{}}}",
        v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
    )
}

/// `Required value: valid values: ["In" "NotIn"]` (Go's `%q` of a slice).
pub fn go_quoted_slice(values: &[&str]) -> String {
    format!(
        "[{}]",
        values
            .iter()
            .map(|v| quoted(v))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_escapes_as_go_does() {
        // strconv.Quote: `\"`, `\\`, `\n`, `\t`; other ASCII controls as `\xNN`;
        // a C1 control (U+0085) as `\u0085`; printable runes kept.
        assert_eq!(
            quoted("a\"b\\c\n\t\u{1}\u{85}é"),
            r#""a\"b\\c\n\t\x01\u0085é""#
        );
        // Go's short forms: \a \b \f \v.
        assert_eq!(quoted("\u{7}\u{8}\u{c}\u{b}"), r#""\a\b\f\v""#);
        assert_eq!(quoted_list(&["Always", "Never"]), r#""Always", "Never""#);
    }
}
