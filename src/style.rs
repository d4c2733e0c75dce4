//! The app's stylesheet as it ships: `static/style.css` without its comments
//! and with each run of whitespace cut to one space, or to none beside
//! `{ } ; , >` and after `:` (never before it: `a :hover` is not `a:hover`). Done when the crate compiles, so the copy built into the wasm
//! (for the custom element's shadow roots) and the page's `style.css` (which
//! the prerender hook writes from this constant) are one text, and the
//! comments stay in the source. A few lines of our own: a CSS crate would
//! parse what only needs its comments and blank runs taken out.
//! The custom element's copy ([`ELEMENT_STYLESHEET`]) also leaves out the
//! rules between `/* page only { */` and `/* } page only */`: the full
//! page's header, tabs, pod reader, exports and audit, which an element
//! never shows.
//! Trunk wrote the page's `<link>` with the integrity of the file it copied,
//! so the hook writes it again ([`integrity`], [`with_integrity`]): a browser
//! refuses a stylesheet whose digest differs.

const SOURCE: &str = include_str!("../static/style.css");

const LEN: usize = minified_len(SOURCE.as_bytes(), false);
static BYTES: [u8; LEN] = minified(SOURCE.as_bytes(), false);
const ELEMENT_LEN: usize = minified_len(SOURCE.as_bytes(), true);
static ELEMENT_BYTES: [u8; ELEMENT_LEN] = minified(SOURCE.as_bytes(), true);

/// The minified stylesheet: the page's, and the JS API's `mount`.
pub const STYLESHEET: &str = text(&BYTES);

/// ... without the page's own rules: the custom element's.
pub const ELEMENT_STYLESHEET: &str = text(&ELEMENT_BYTES);

const fn text(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // Only whole comments, ASCII whitespace and whole rules are dropped.
        Err(_) => panic!("the minified stylesheet is not UTF-8"),
    }
}

/// Where the page's own rules start and end in the source.
const PAGE_ONLY: &[u8] = b"/* page only { */";
const PAGE_ONLY_END: &[u8] = b"/* } page only */";

const fn starts_with(src: &[u8], i: usize, pattern: &[u8]) -> bool {
    if i + pattern.len() > src.len() {
        return false;
    }
    let mut k = 0;
    while k < pattern.len() {
        if src[i + k] != pattern[k] {
            return false;
        }
        k += 1;
    }
    true
}

const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// Bytes before which a space means nothing.
const fn tight_before(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b';' | b',' | b'>')
}

/// Bytes after which a space means nothing (0: the start of the text).
const fn tight_after(b: u8) -> bool {
    tight_before(b) || matches!(b, b':' | 0)
}

/// Past the whitespace and comments from `i` (and, with `page_only`, the
/// page's own rules): where the next kept byte is, and whether anything was
/// skipped. An unclosed comment or page-only region runs to the end.
const fn skip(src: &[u8], mut i: usize, page_only: bool) -> (usize, bool) {
    let mut skipped = false;
    loop {
        if i < src.len() && is_space(src[i]) {
            i += 1;
        } else if page_only && starts_with(src, i, PAGE_ONLY) {
            while i < src.len() && !starts_with(src, i, PAGE_ONLY_END) {
                i += 1;
            }
            i += PAGE_ONLY_END.len();
        } else if i + 1 < src.len() && src[i] == b'/' && src[i + 1] == b'*' {
            i += 2;
            while i + 1 < src.len() && !(src[i] == b'*' && src[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else {
            return (i, skipped);
        }
        skipped = true;
    }
}

/// The next byte to write after `last`, and where to read on; `None` at the
/// end. `drop_page`: the page's own rules are left out.
const fn next(src: &[u8], i: usize, last: u8, drop_page: bool) -> Option<(u8, usize)> {
    let (j, skipped) = skip(src, i, drop_page);
    if j >= src.len() {
        None
    } else if skipped && !tight_after(last) && !tight_before(src[j]) {
        Some((b' ', j))
    } else {
        Some((src[j], j + 1))
    }
}

const fn minified_len(src: &[u8], drop_page: bool) -> usize {
    let (mut i, mut last, mut len) = (0, 0, 0);
    while let Some((b, j)) = next(src, i, last, drop_page) {
        (i, last, len) = (j, b, len + 1);
    }
    len
}

const fn minified<const N: usize>(src: &[u8], drop_page: bool) -> [u8; N] {
    let mut out = [0; N];
    let (mut i, mut last, mut len) = (0, 0, 0);
    while let Some((b, j)) = next(src, i, last, drop_page) {
        out[len] = b;
        (i, last, len) = (j, b, len + 1);
    }
    out
}

/// A subresource integrity value, as trunk writes them: `sha384-` and the
/// SHA-384 digest in base64.
#[cfg(not(target_arch = "wasm32"))]
pub fn integrity(bytes: &[u8]) -> String {
    use base64::Engine as _;
    use sha2::Digest;
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha384::digest(bytes))
    )
}

/// `page` with the `integrity` of its stylesheet `<link>` to `file` set to
/// `value`; unchanged where that link has none (trunk's
/// `data-integrity="none"`). An error where no such link is found.
#[cfg(not(target_arch = "wasm32"))]
pub fn with_integrity(page: &str, file: &str, value: &str) -> Result<String, String> {
    const ATTRIBUTE: &str = "integrity=\"";
    let href = format!("{file}\"");
    let tag = page.match_indices("<link").find_map(|(start, _)| {
        let end = start + page[start..].find('>')?;
        let tag = &page[start..end];
        (tag.contains("rel=\"stylesheet\"") && tag.contains(&href)).then_some(start..end)
    });
    let Some(tag) = tag else {
        return Err(format!("no stylesheet <link> to {file}"));
    };
    let Some(at) = page[tag.clone()].find(ATTRIBUTE) else {
        return Ok(page.to_owned());
    };
    let from = tag.start + at + ATTRIBUTE.len();
    let to = from
        + page[from..tag.end]
            .find('"')
            .ok_or_else(|| format!("the <link> to {file} has an unclosed integrity"))?;
    let mut out = page.to_owned();
    out.replace_range(from..to, value);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two digests as `openssl dgst -sha384 -binary | base64` gives them.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn integrity_is_sha384_in_base64() {
        assert_eq!(
            integrity(b""),
            "sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
        assert_eq!(
            integrity(b"a { color: red; }"),
            "sha384-fft7wyX9yT5GLEgRgavgoVOhlvKRrKA/1DCJW2LLNeUwKDNktSCKxo7j2QFjXlyT"
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_stylesheet_link_gets_the_new_integrity() {
        let page = r#"<link rel="preload" href="/style.css" integrity="x"/><link rel="stylesheet" href="/style.css" integrity="sha384-old"/><link rel="stylesheet" href="/other.css" integrity="y"/>"#;
        assert_eq!(
            with_integrity(page, "style.css", "sha384-new").unwrap(),
            r#"<link rel="preload" href="/style.css" integrity="x"/><link rel="stylesheet" href="/style.css" integrity="sha384-new"/><link rel="stylesheet" href="/other.css" integrity="y"/>"#
        );
        let bare = r#"<link rel="stylesheet" href="/style.css"/>"#;
        assert_eq!(
            with_integrity(bare, "style.css", "sha384-new").unwrap(),
            bare
        );
        assert_eq!(
            with_integrity("<p>", "style.css", "v").unwrap_err(),
            "no stylesheet <link> to style.css"
        );
    }

    fn minify(css: &str) -> String {
        minify_for(css, false)
    }

    fn minify_for(css: &str, drop_page: bool) -> String {
        let src = css.as_bytes();
        let mut out = vec![];
        let (mut i, mut last) = (0, 0);
        while let Some((b, j)) = next(src, i, last, drop_page) {
            out.push(b);
            (i, last) = (j, b);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn comments_go_and_whitespace_shrinks() {
        assert_eq!(
            minify("/* head */\n.a  .b ,\n.c {\n  color: red; /* why */\n  margin: 0 1px;\n}\n\n@media (width > 40em) {\n  a:hover { x: \"Segoe UI\" }\n}\n"),
            ".a .b,.c{color:red;margin:0 1px;}@media (width>40em){a:hover{x:\"Segoe UI\"}}"
        );
        // A comment between words still leaves them apart; an unclosed one ends the text.
        assert_eq!(minify("a/* */b /* open"), "a b");
        assert_eq!(minify("p :is(a) > b"), "p :is(a)>b");
        assert_eq!(minify(""), "");
    }

    /// Against the source, read with a plainer rule: the same text once
    /// comments and all whitespace are gone, and no comment left.
    #[test]
    fn the_stylesheet_keeps_every_rule() {
        let mut plain = String::new();
        let mut rest = SOURCE;
        while let Some(at) = rest.find("/*") {
            plain.push_str(&rest[..at]);
            rest = rest[at..].split_once("*/").map_or("", |(_, after)| after);
        }
        plain.push_str(rest);
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squeeze(STYLESHEET), squeeze(&plain));
        assert!(!STYLESHEET.contains("/*"));
        assert!(STYLESHEET.len() < SOURCE.len() * 4 / 5);
        assert_eq!(STYLESHEET, minify(SOURCE));
    }

    #[test]
    fn the_element_leaves_out_the_page_only_rules() {
        let css = "a { x: 1 }\n/* page only { */\nnav b { y: 2 }\n/* } page only */\n@media print {\n  /* page only { */ nav { z: 3 } /* } page only */\n  c { w: 4 }\n}\n";
        assert_eq!(
            minify_for(css, false),
            "a{x:1}nav b{y:2}@media print{nav{z:3}c{w:4}}"
        );
        assert_eq!(minify_for(css, true), "a{x:1}@media print{c{w:4}}");
        // An unclosed region runs to the end.
        assert_eq!(minify_for("a{} /* page only { */ b{}", true), "a{}");
        // The source's regions: each one closed, and what they hold is the
        // page's alone (the element's shadow roots never show it).
        assert_eq!(
            SOURCE.matches("/* page only { */").count(),
            SOURCE.matches("/* } page only */").count()
        );
        assert!(SOURCE.contains("/* page only { */"));
        for page in ["nav.views a{", ".audit table", "header h1", "ul.downloads"] {
            assert!(STYLESHEET.contains(page), "{page}");
            assert!(!ELEMENT_STYLESHEET.contains(page), "{page}");
        }
        for shared in [
            ".app.embed",
            "table.data",
            "dl.headline",
            "dl.counters",
            ":host",
        ] {
            assert!(ELEMENT_STYLESHEET.contains(shared), "{shared}");
        }
        assert!(ELEMENT_STYLESHEET.len() < STYLESHEET.len());
    }
}
