//! Input and output formats at the edge of the engine: each parses text into
//! validated engine types (or writes them back), with errors in the words
//! their users know. `pod` (what kubectl prints of pods, every shape),
//! `manifest` (Job manifests, strict about unknown fields as `kubectl
//! --validate=strict`), `link` (the URL codec), `json` (JSON text, the
//! browser's own in the wasm), `strict` (every key shown to a struct, for
//! serde-wasm-bindgen), `time` (kubectl's timestamps), `endpoints` (the
//! API servers' count, from the `kubernetes` Endpoints), `flowcontrol` (the
//! cluster's priority levels).

pub mod endpoints;
pub mod flowcontrol;
pub mod json;
pub mod kubelet_config;
pub mod link;
pub mod manifest;
pub mod pod;
pub mod strict;
pub mod time;
