//! crashloop-explorer: a pure backoff engine (`engine`), the charts drawn
//! through any plotters backend (`chart`), the Yew app (`app`), links
//! (`share`), exports (`export`) and the JS API (`api`).

pub mod api;
pub mod app;
pub mod chart;
pub mod engine;
pub mod export;
pub mod share;
