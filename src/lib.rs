//! flowcast: run statistical workflows on every core.
//!
//! One pipeline, one direction: [`workflow`] (parse, validate) → [`graph`]
//! (dependences, shapes) → cost → [`sched`] (plan) → [`exec`] (run, events)
//! → [`report`]. [`kernels`] holds the built-in functions; [`regular_file`]
//! reads the user's files.

pub mod bench;
pub mod cli;
pub mod cost;
pub mod diagnostic;
pub mod exec;
pub mod export;
pub mod graph;
pub mod kernels;
pub mod output_target;
pub mod pipeline;
pub mod printable;
pub mod regular_file;
pub mod report;
pub mod sched;
pub mod tui;
pub mod watch;
pub mod workflow;
