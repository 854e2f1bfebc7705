//! flowcast: run statistical workflows on every core.
//!
//! One pipeline, one direction: [`workflow`] (parse, validate) → [`graph`]
//! (dependences, shapes) → cost → [`sched`] (plan) → [`exec`] (run, events)
//! → [`report`] (summaries, and the Gantt chart every drawer shares) →
//! {[`tui`], [`export`]}. No layer imports one after it, and the two
//! siblings at the end never import each other: [`cli`], which uses both,
//! hands the terminal UI what it needs from `export`. [`kernels`] holds the
//! built-in functions; [`regular_file`] reads the user's files.

// What the command line prints goes through `stdout`, which a closed pipe
// cannot make panic.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod bench;
pub mod cache;
pub mod cli;
pub mod codec;
pub mod cores;
pub mod cost;
pub mod cpu_cache;
pub mod diagnostic;
pub mod exec;
pub mod export;
pub mod graph;
pub mod interrupt;
pub mod kernels;
pub mod output_target;
pub mod pipeline;
pub mod printable;
pub mod regular_file;
pub mod report;
pub mod sched;
pub mod stdout;
pub mod tui;
pub mod watch;
pub mod workflow;
