//! flowcast: run statistical workflows on every core.
//!
//! One pipeline, one direction: [`workflow`] (parse, validate) → [`graph`]
//! (dependences, shapes) → cost → sched → [`exec`] (run, events) → report.

pub mod cli;
pub mod diagnostic;
pub mod exec;
pub mod export;
pub mod graph;
pub mod kernels;
pub mod report;
pub mod sched;
pub mod tui;
pub mod watch;
pub mod workflow;
