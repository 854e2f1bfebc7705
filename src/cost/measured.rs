//! What a run measured of its tasks: all the cost layer learns from. The
//! executor writes it ([`crate::exec::RunReport::measured`]), so learning
//! needs nothing from the layers above.

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// One block of a loop's iterations, as one worker ran it: what a loop's
/// policy is learnt from (how its cost varies with the index, and whether
/// it kept scaling as more of its blocks ran at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopBlock {
    /// 0-based positions, half-open.
    pub iterations: Range<usize>,
    /// Seconds from the run's start.
    pub start: f64,
    pub end: f64,
}

/// One task of a finished run, as the cost models see it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// It ended with a value: a failed or skipped task teaches nothing.
    pub ok: bool,
    /// Its value came from the cache: it took no time.
    pub reused: bool,
    /// The algorithm path its outermost call took, where the data decided
    /// it (eigen's `isSymmetric`, a rank test's ties).
    pub path: Option<String>,
    /// Seconds from its start to its end.
    pub wall: f64,
    /// A loop's iterations' seconds summed over workers; 0 when they were
    /// not timed one by one.
    pub busy: f64,
    /// Seconds workers spent on it, what every view calls its work.
    pub work: f64,
    /// Workers it held at once: more than one for a moldable call.
    pub width: usize,
    /// The workers a moldable call held beside its own.
    pub lanes: Vec<usize>,
    pub worker: Option<usize>,
    /// Seconds from the run's start.
    pub start: f64,
    pub end: f64,
    /// A loop's blocks, in iteration order; empty for other tasks.
    pub blocks: Vec<LoopBlock>,
}

/// A finished run: each task by id, and the workers it had.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasuredRun {
    pub tasks: Vec<Measured>,
    pub workers: usize,
}
