//! The headless reporter: progress while running, then a summary table, a
//! JSON document, or one JSON file per step.

pub mod json;
pub mod progress;
pub mod table;
