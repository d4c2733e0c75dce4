//! Messages are worded for Kubernetes users, not in Rust's `Debug` syntax:
//! no code outside the test modules may word anything with `Debug`; strings
//! a message quotes go through `engine::field::quoted` (Go's `%q`). Clippy has no lint for `format!`'s
//! Debug, hence this scan of the sources.
//!
//! The same scan keeps Unicode's case tables (about 25 KB of data, 14 KB of
//! the app's gzip download) out of the wasm: nothing outside the tests
//! changes case beyond ASCII, and no chart names its font family as text
//! (plotters lowercases it).
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

/// `{…:?}` / `{…:#?}` / `{:>8?}`: a format placeholder whose spec ends in `?`.
fn debug_placeholders(code: &str) -> Vec<String> {
    let mut found = vec![];
    for (i, _) in code.match_indices('{') {
        let rest = &code[i + 1..];
        let Some(end) = rest.find(['}', '{', '\n']) else {
            continue;
        };
        let inner = &rest[..end];
        if rest[end..].starts_with('}') && inner.contains(':') && inner.ends_with('?') {
            found.push(format!("{{{inner}}}"));
        }
    }
    found
}

/// Calls that bring Unicode's case tables into the wasm.
fn case_conversions(code: &str) -> Vec<String> {
    const CALLS: [&str; 2] = [".to_lowercase(", ".to_uppercase("];
    const FAMILIES: [&str; 3] = ["(\"sans-serif\",", "(\"serif\",", "(\"monospace\","];
    CALLS
        .iter()
        .chain(&FAMILIES)
        .filter(|c| code.contains(*c))
        .map(|c| c.to_string())
        .collect()
}

type Check = fn(&str) -> Vec<String>;

fn scan(dir: &Path, check: Check, bad: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            scan(&path, check, bad);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            // Test modules sit at the end of their files.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (n, line) in code.lines().enumerate() {
                let line = line.split("//").next().unwrap_or("");
                for p in check(line) {
                    bad.push(format!("{}:{}: {p}", path.display(), n + 1));
                }
            }
        }
    }
}

#[test]
fn the_scan_sees_debug_placeholders() {
    assert_eq!(
        debug_placeholders(r#"format!("{x:?} {:#?} {:>8?} {y} {{z}} {:.1}")"#),
        ["{x:?}", "{:#?}", "{:>8?}"]
    );
}

/// Fails, naming every place, where `check` finds something in src.
fn assert_src_clean(check: Check, what: &str) {
    let mut bad = vec![];
    scan(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        check,
        &mut bad,
    );
    assert!(bad.is_empty(), "{what}:\n{}", bad.join("\n"));
}

#[test]
fn no_message_outside_the_tests_is_worded_with_debug() {
    assert_src_clean(debug_placeholders, "Debug formatting outside tests");
}

#[test]
fn the_scan_sees_case_conversions() {
    assert_eq!(
        case_conversions(r#"s.to_lowercase(); c.to_ascii_uppercase(); ("sans-serif", 12.0)"#),
        [".to_lowercase(", "(\"sans-serif\","]
    );
}

#[test]
fn nothing_outside_the_tests_changes_case_beyond_ascii() {
    assert_src_clean(
        case_conversions,
        "Unicode case conversion (use the ASCII one, or FontFamily's variants)",
    );
}
