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
mod dag_json;
mod emcp;
pub mod loop_policy;
mod mcp;
mod moldable;
pub mod profile;
pub mod runtime;
mod simulate;
mod stg;

use std::ops::Range;

/// The most workers a plan or a run may have. Far more than one machine's
/// cores (a plan for 64 workers on 2 cores is a simulation worth having),
/// and few enough that planning stays quick and a worker table never asks
/// for more memory than exists (`-p 4294967296` once aborted the process).
pub const MAX_PROCESSORS: usize = 4096;

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

pub use emcp::{emcp, emcp_from, loop_granularity, Granularity, DEFAULT_M};
pub use loop_policy::{LoopKind, LoopPolicy};
pub use mcp::{alap, mcp};
pub use moldable::{allot, Usl};
pub use profile::Profile;
pub use runtime::{Policy, Runtime};
pub use simulate::{simulate, simulate_from};

/// Index of a node in [`Dag::nodes`].
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// An indivisible task.
    Function,
    /// A do-all loop of `iterations` independent iterations; the node's cost
    /// is the whole loop's, spread evenly over its iterations.
    Loop { iterations: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    /// Predicted (or measured) seconds.
    pub cost: f64,
    pub kind: NodeKind,
    /// A loop's cost per iteration, relative (flat unless known): blocks
    /// are cut to equal shares of it, and an item costs its iterations'.
    pub profile: Profile,
    /// A loop's policy, when one was chosen: how many workers its blocks
    /// go to, and how its iterations are dealt out.
    pub policy: Option<LoopPolicy>,
    /// For a call whose kernel can use several workers: how its time
    /// shrinks with them. `cost` is its time on one.
    pub speedup: Option<Usl>,
}

impl Node {
    pub fn function(name: &str, cost: f64) -> Node {
        Node {
            name: name.to_string(),
            cost,
            kind: NodeKind::Function,
            profile: Profile::FLAT,
            policy: None,
            speedup: None,
        }
    }

    pub fn looped(name: &str, cost: f64, iterations: usize) -> Node {
        Node {
            name: name.to_string(),
            cost,
            kind: NodeKind::Loop { iterations },
            profile: Profile::FLAT,
            policy: None,
            speedup: None,
        }
    }

    /// The same call, able to run on several workers.
    pub fn moldable(self, usl: Usl) -> Node {
        Node {
            speedup: Some(usl),
            ..self
        }
    }

    /// Its time on `k` workers (a loop's, or a rigid call's, is its cost).
    pub fn time_on(&self, k: usize) -> f64 {
        match (&self.kind, self.speedup) {
            (NodeKind::Function, Some(usl)) if k > 1 => self.cost / usl.speedup(k),
            _ => self.cost,
        }
    }

    /// This loop with iteration costs `profile`.
    pub fn with_profile(mut self, profile: Profile) -> Node {
        self.profile = profile;
        self
    }

    /// The share of this node's cost that iterations `r` take (all of it
    /// for a call).
    pub fn share(&self, r: &Range<usize>) -> f64 {
        match self.iterations() {
            Some(n) => self.profile.share(n, r),
            None => 1.0,
        }
    }

    /// The loop cut into at most `parts` blocks of equal predicted cost,
    /// on no more workers than its policy allows.
    pub fn blocks(&self, parts: usize) -> Vec<Range<usize>> {
        let n = self.iterations().unwrap_or(1);
        let parts = match self.policy {
            Some(pol) => parts.min(pol.threads.max(1)),
            None => parts,
        };
        self.profile.equal_cost_blocks(n, parts)
    }

    /// A loop's iterations, to cut into blocks. A loop of none is planned
    /// as a call: one item, which makes its empty value.
    pub fn iterations(&self) -> Option<usize> {
        match self.kind {
            NodeKind::Loop { iterations } if iterations > 0 => Some(iterations),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    /// Size of the value passed, for the communication model.
    pub bytes: f64,
}

/// A task graph with costs: the scheduler's whole input besides p.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dag {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl Dag {
    /// Predecessor edges of every node.
    pub fn preds(&self) -> Vec<Vec<Edge>> {
        let mut p = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            p[e.to].push(*e);
        }
        p
    }

    /// Successor edges of every node.
    pub fn succs(&self) -> Vec<Vec<Edge>> {
        let mut s = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            s[e.from].push(*e);
        }
        s
    }

    /// Nodes in an order where every predecessor comes first; `None` when the
    /// graph has a cycle.
    pub fn topological_order(&self) -> Option<Vec<NodeId>> {
        let (order, _) = self.kahn();
        (order.len() == self.nodes.len()).then_some(order)
    }

    /// Kahn's algorithm: the nodes it can order, and each node's count of
    /// predecessors it could not (all zero for a DAG; the rest sit on or
    /// after a cycle).
    pub(crate) fn kahn(&self) -> (Vec<NodeId>, Vec<usize>) {
        let n = self.nodes.len();
        let mut indegree = vec![0usize; n];
        for e in &self.edges {
            indegree[e.to] += 1;
        }
        let succs = self.succs();
        let mut stack: Vec<NodeId> = (0..n).rev().filter(|&i| indegree[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(i) = stack.pop() {
            order.push(i);
            for e in succs[i].iter().rev() {
                indegree[e.to] -= 1;
                if indegree[e.to] == 0 {
                    stack.push(e.to);
                }
            }
        }
        (order, indegree)
    }

    /// The longest path of computation alone (no communication).
    pub fn critical_path(&self) -> f64 {
        let Some(order) = self.topological_order() else {
            return f64::INFINITY;
        };
        let preds = self.preds();
        let mut finish = vec![0.0f64; self.nodes.len()];
        for &i in &order {
            let ready = preds[i].iter().map(|e| finish[e.from]).fold(0.0, f64::max);
            finish[i] = ready + self.nodes[i].cost;
        }
        finish.into_iter().fold(0.0, f64::max)
    }

    pub fn total_work(&self) -> f64 {
        self.nodes.iter().map(|n| n.cost).sum()
    }

    /// No schedule on p workers can finish sooner: max(critical path, work/p).
    /// A loop is divisible: on the path its cost counts divided among as
    /// many workers as it has iterations, up to p. A moldable call counts
    /// at its fastest width on the path; its work is least on one worker.
    pub fn lower_bound(&self, p: usize) -> f64 {
        let p = p.max(1);
        let mut fastest = self.clone();
        for n in &mut fastest.nodes {
            if let Some(it) = n.iterations().filter(|&it| it > 1) {
                n.cost /= it.min(p) as f64;
            } else if let Some(usl) = n.speedup {
                n.cost = n.time_on(usl.best_width(p));
                n.speedup = None;
            }
        }
        fastest.critical_path().max(self.total_work() / p as f64)
    }
}

/// The communication model: `latency + per_byte × bytes` seconds to move a
/// value between two workers; nothing on the same worker. Under MPI the
/// workers are spread over ranks, `network` says how, and a value that
/// crosses ranks costs the network's figure instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comm {
    pub latency: f64,
    pub per_byte: f64,
    pub network: Option<Network>,
}

/// Workers on several ranks (MPI processes): rank r holds workers
/// `r·per_rank .. (r+1)·per_rank`, and a value between ranks costs
/// `latency + per_byte × bytes`, measured by a ping-pong at start-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Network {
    pub per_rank: usize,
    pub latency: f64,
    pub per_byte: f64,
}

impl Network {
    /// The rank that holds `worker`.
    pub fn rank_of(&self, worker: usize) -> usize {
        worker / self.per_rank.max(1)
    }
}

impl Comm {
    /// Threads share memory: values are passed by reference.
    pub const SHARED_MEMORY: Comm = Comm {
        latency: 0.0,
        per_byte: 0.0,
        network: None,
    };

    /// The model on one machine.
    pub const fn local(latency: f64, per_byte: f64) -> Comm {
        Comm {
            latency,
            per_byte,
            network: None,
        }
    }

    /// Moving a value between two workers on the same rank.
    pub fn cost(&self, bytes: f64) -> f64 {
        self.latency + self.per_byte * bytes
    }

    /// Moving a value from worker `from` to worker `to`: nothing on the
    /// same worker, the network's figure between ranks.
    pub fn between(&self, from: usize, to: usize, bytes: f64) -> f64 {
        if from == to {
            return 0.0;
        }
        match self.network {
            Some(n) if n.rank_of(from) != n.rank_of(to) => n.latency + n.per_byte * bytes,
            _ => self.cost(bytes),
        }
    }

    /// The most a move between two different workers can cost: what
    /// bottom levels count, as the paper's MCP does before placing.
    pub fn worst(&self, bytes: f64) -> f64 {
        match self.network {
            Some(n) => self.cost(bytes).max(n.latency + n.per_byte * bytes),
            None => self.cost(bytes),
        }
    }

    /// The most workers one call may hold: a moldable call's threads share
    /// one process.
    pub fn widest(&self, p: usize) -> usize {
        match self.network {
            Some(n) => p.min(n.per_rank.max(1)),
            None => p,
        }
    }
}

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

/// Splits `0..n` into `parts` contiguous ranges whose sizes differ by at most one.
pub fn even_blocks(n: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.clamp(1, n.max(1));
    let (q, r) = (n / parts, n % parts);
    let mut start = 0;
    (0..parts)
        .map(|k| {
            let len = q + usize::from(k < r);
            let range = start..start + len;
            start += len;
            range
        })
        .filter(|r| !r.is_empty())
        .collect()
}

#[cfg(test)]
mod tests;
