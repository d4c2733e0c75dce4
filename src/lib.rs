//! crashloop-explorer: a pure backoff engine (`engine`), the input formats
//! beside it (`formats`: YAML, Job manifests, links), the charts drawn
//! through any plotters backend (`chart`), the Yew app (`app`), exports
//! (`export`) and the JS API (`api`).

pub mod api;
pub mod app;
pub mod chart;
pub mod engine;
pub mod export;
pub mod formats;
pub mod inputs;

/// The link codec, under the name the app and tests know.
pub use formats::link as share;
