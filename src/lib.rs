//! crashloop-explorer: a pure backoff engine (`engine`), the charts drawn
//! through any plotters backend (`chart`), and the Yew app (`app`).

pub mod app;
pub mod chart;
pub mod engine;
pub mod export;
pub mod share;
