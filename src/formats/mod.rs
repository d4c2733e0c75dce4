//! Input and output formats at the edge of the engine: each parses text into
//! validated engine types (or writes them back), with errors in the words
//! their users know. `yaml` (a YAML subset reader/writer), `manifest` (Job
//! manifests, strict about unknown fields as `kubectl --validate=strict`),
//! `link` (the URL codec), `json` (JSON text, the browser's own in the wasm), `strict` (every key
//! shown to a struct, for serde-wasm-bindgen), `value` (JSON's data model,
//! which YAML and pasted JSON are read into; serde both ways).

pub mod json;
pub mod link;
pub mod manifest;
pub mod pod;
pub mod strict;
pub mod time;
pub mod value;
pub mod yaml;
