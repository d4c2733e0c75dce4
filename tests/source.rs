//! The release wasm is built with `-Zfmt-debug=none` (scripts/env.sh): a
//! `{:?}` there prints nothing. So no code outside the test modules may word
//! anything with `Debug`; strings a message quotes go through
//! `engine::field::quoted` (Go's `%q`). Clippy has no lint for `format!`'s
//! Debug, hence this scan of the sources.
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

fn scan(dir: &Path, bad: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            scan(&path, bad);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            // Test modules sit at the end of their files.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (n, line) in code.lines().enumerate() {
                let line = line.split("//").next().unwrap_or("");
                for p in debug_placeholders(line) {
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

#[test]
fn no_message_outside_the_tests_is_worded_with_debug() {
    let mut bad = vec![];
    scan(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut bad);
    assert!(
        bad.is_empty(),
        "Debug formatting outside tests:\n{}",
        bad.join("\n")
    );
}
