//! Scheduling: a cost-annotated task graph and p workers in, a [`Schedule`]
//! out. Pure and deterministic: no threads, clocks or I/O, so schedules can be
//! compared for any p by replaying them under any cost table.
//!
//! The nouns:
//! - a [`Dag`] of [`Node`]s (function calls, or do-all loops that may be cut
//!   into blocks of iterations) and [`Edge`]s carrying bytes;
//! - a [`Comm`] model: moving a value between workers costs `l + b·bytes`;
//! - a [`Schedule`]: per worker, an ordered queue of [`Item`]s, each one
//!   node or one block of a loop's iterations, with start and end times.
//!
//! Invariants every scheduler keeps (checked by the property tests): each
//! node, and each loop iteration, is scheduled exactly once; an item starts
//! no earlier than every predecessor's end (plus communication when on
//! another worker); no worker runs two items at once.

mod baseline;
mod dag;
mod dag_json;
mod emcp;
pub mod loop_policy;
mod mcp;
mod moldable;
pub mod runtime;
mod simulate;
pub mod stg;

use crate::cost::Comm;
use crate::workflow::MAX_PROCESSORS;
use std::ops::Range;

/// Why `p` workers cannot be: `None` when 1 ≤ p ≤ [`MAX_PROCESSORS`].
pub fn processors_problem(p: usize) -> Option<String> {
    if p == 0 {
        Some("must be at least 1".to_string())
    } else if p > MAX_PROCESSORS {
        Some(format!("must be at most {MAX_PROCESSORS}"))
    } else {
        None
    }
}

pub use dag::{Dag, Edge, Node, NodeId, NodeKind};
pub use emcp::{emcp, emcp_from, loop_granularity, Granularity, DEFAULT_M};
pub use loop_policy::{LoopKind, LoopPolicy};
pub use mcp::{alap, mcp};
pub use moldable::{allot, allotments};
pub use runtime::{Policy, Runtime};
pub use simulate::{simulate, simulate_from};

/// Where a plan starts: at time 0 with every worker free, or mid-run, with
/// workers busy until their running tasks should end and nodes whose inputs
/// are still being computed held back until then.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Start {
    /// Per worker, when it is free; missing workers are free at 0.
    pub free: Vec<f64>,
    /// Per node, the earliest it may start; missing nodes at 0.
    pub release: Vec<f64>,
}

impl Start {
    /// The start of a run: everything free at 0.
    pub fn fresh() -> Start {
        Start::default()
    }

    pub fn free_at(&self, worker: usize) -> f64 {
        self.free.get(worker).copied().unwrap_or(0.0)
    }

    pub fn release_of(&self, node: NodeId) -> f64 {
        self.release.get(node).copied().unwrap_or(0.0)
    }
}

/// One entry of a worker's queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub node: NodeId,
    /// For a loop, the iterations (0-based, half-open) this item runs.
    pub iterations: Option<Range<usize>>,
    pub worker: usize,
    pub start: f64,
    pub end: f64,
    /// The other workers a moldable call holds while it runs on `worker`
    /// (empty for a call on one worker, and for a loop's block).
    pub lanes: Vec<usize>,
}

impl Item {
    /// How many workers it holds.
    pub fn width(&self) -> usize {
        1 + self.lanes.len()
    }

    /// Every worker it holds, its own first.
    pub fn all_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.worker).chain(self.lanes.iter().copied())
    }
}

/// Which algorithm plans the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheduler {
    /// pR: loops split evenly over p; calls in program order to the first free worker.
    Baseline,
    /// Work-stealing over tasks and chunks of iterations.
    Dynamic,
    /// Wu & Gajski's Modified Critical Path, loops kept whole.
    Mcp,
    /// Algorithm 1: granularity, MCP, merge.
    Emcp,
    /// emcp fed with the previous run's measured costs.
    Ideal,
}

impl Scheduler {
    pub const ALL: [Scheduler; 5] = [
        Scheduler::Emcp,
        Scheduler::Mcp,
        Scheduler::Baseline,
        Scheduler::Dynamic,
        Scheduler::Ideal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Baseline => "baseline",
            Scheduler::Dynamic => "dynamic",
            Scheduler::Mcp => "mcp",
            Scheduler::Emcp => "emcp",
            Scheduler::Ideal => "ideal",
        }
    }

    pub fn parse(s: &str) -> Option<Scheduler> {
        Scheduler::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A plan: every worker's queue, in order, with predicted times.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub workers: usize,
    /// All items, sorted by (worker, start).
    pub items: Vec<Item>,
}

impl Schedule {
    pub fn makespan(&self) -> f64 {
        self.items.iter().map(|i| i.end).fold(0.0, f64::max)
    }

    /// The items of one worker, in queue order.
    pub fn queue(&self, worker: usize) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(move |i| i.worker == worker)
    }

    /// The items that hold `worker`, its own and the moldable calls that
    /// borrow it as a lane, in time order.
    pub fn lane(&self, worker: usize) -> Vec<&Item> {
        let mut out: Vec<&Item> = self
            .items
            .iter()
            .filter(|i| i.worker == worker || i.lanes.contains(&worker))
            .collect();
        out.sort_by(|a, b| {
            a.start
                .total_cmp(&b.start)
                .then(a.end.total_cmp(&b.end))
                .then(a.node.cmp(&b.node))
        });
        out
    }

    pub(crate) fn sorted(workers: usize, mut items: Vec<Item>) -> Schedule {
        items.sort_by(|a, b| {
            a.worker
                .cmp(&b.worker)
                .then(a.start.total_cmp(&b.start))
                .then(a.node.cmp(&b.node))
        });
        Schedule { workers, items }
    }
}

/// Plans `dag` on `p` workers with the chosen scheduler. `Ideal` is `Emcp`
/// here: the caller supplies measured instead of predicted costs.
pub fn plan(dag: &Dag, comm: &Comm, p: usize, scheduler: Scheduler) -> Schedule {
    let p = p.max(1);
    match scheduler {
        Scheduler::Baseline => baseline::baseline(dag, comm, p),
        Scheduler::Dynamic => baseline::dynamic(dag, comm, p),
        Scheduler::Mcp => mcp(dag, comm, p),
        Scheduler::Emcp | Scheduler::Ideal => emcp(dag, comm, p, DEFAULT_M),
    }
}

#[cfg(test)]
mod tests;
