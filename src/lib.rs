//! crashloop-explorer: a pure backoff engine (`engine`), the input formats
//! beside it (`formats`: kubectl outputs, Job manifests, links), the charts drawn
//! through any plotters backend (`chart`), the Yew app (`app`), exports
//! (`export`), the JS API (`api`) and the stylesheet as it ships (`style`).

pub mod api;
pub mod app;
pub mod chart;
pub mod engine;
pub mod export;
pub mod formats;
pub mod inputs;
pub mod style;

/// The link codec, under the name the app and tests know.
pub use formats::link as share;

/// A wasm-only binary run natively: says what it is, and to run the CLI.
#[cfg(not(target_arch = "wasm32"))]
pub fn wasm_only(what: &str) -> std::process::ExitCode {
    eprintln!("{what}; natively, run crashloop-explorer");
    std::process::ExitCode::from(2)
}

/// The README's Rust example, compiled and run as a doc-test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
