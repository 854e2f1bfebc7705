//! flowcast: run statistical workflows on every core.
//!
//! One pipeline, one direction: [`workflow`] (parse, validate) → [`graph`]
//! (dependences, shapes) → cost → sched → [`exec`] (run, events) → report.

pub mod bench;
pub mod diagnostic;
pub mod kernels;
pub mod workflow;
