//! Following a plan while it runs: the dispatcher the static executor (and
//! the run simulator, [`Runtime::simulate`]) drives. Pure and clock-free:
//! the caller says what time it is and what has finished.
//!
//! A plan is a forecast, not a contract. The runtime hands each worker the
//! head of its queue once that item's inputs are complete, and re-plans
//! everything not yet started, from the run's state, with emcp when
//! - a loop's test drive has measured it: nothing waits for a stage to
//!   drain, the paper's bubble is gone;
//! - a task ends far from its prediction (a surprise, [`Policy`]).
//!
//! A re-plan starts from the state: each worker is free when its running
//! task should end, and a task whose inputs are still running is held back
//! until they should end. It replaces the queues only when it predicts an
//! earlier end than carrying on with the current ones.
//!
//! A loop's block runs in pieces claimed one at a time, so a re-plan can
//! hand out the iterations a running block has not reached, and an idle
//! worker may take the unclaimed half of another worker's block. Each
//! iteration is claimed exactly once; values never depend on who ran it.

use std::collections::VecDeque;
use std::ops::Range;

use super::emcp::emcp_from;
use super::simulate::{item_cost, simulate_from};
use super::{Dag, Edge, Item, LoopPolicy, Node, NodeId, Schedule, Start};
use crate::cost::Comm;

/// A surprise must be off its prediction by this many re-plans' time to
/// be re-planned: a re-plan wins back only part of the gap, and the
/// workers that need new work wait on the run's lock while it is computed.
const REPLAN_PAYBACK: f64 = 4.0;

/// What an idle worker may take out of plan order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steal {
    /// Nothing: a worker whose next item is not ready waits for it. (When
    /// no worker has anything running, a ready item is taken anyway: a
    /// plan must never stall a run.)
    Never,
    /// Only work predicted to end before the worker's own next item should
    /// be ready, or anything once its queue is empty: it fills holes, and
    /// never delays the plan by the predictions.
    Fits,
}

/// When the runtime departs from the plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// A task is a surprise when its time is off its prediction by more
    /// than this factor (either way)...
    pub surprise_factor: f64,
    /// ...and by more than this share of the plan's makespan.
    pub surprise_share: f64,
    pub steal: Steal,
}

impl Policy {
    /// Follow the plan exactly (baseline, mcp: the algorithms as published).
    pub const FOLLOW: Policy = Policy {
        surprise_factor: f64::INFINITY,
        surprise_share: f64::INFINITY,
        steal: Steal::Never,
    };

    /// emcp's: re-plan on surprises, and let idle workers fill holes.
    /// Chosen by replaying random workflow-like graphs whose real costs are
    /// the predictions times log-normal noise (the `policy_table` test):
    /// mean makespan over the lower bound at p = 8 and 16, log-spread 0.3,
    /// following the plan 1.069 and 1.071; holes filled 1.030, 1.029;
    /// re-planning at 1.3x 1.029, 1.035; both at 1.2x 1.017, 1.023, at 1.5x
    /// 1.021, 1.025, at 2x 1.028, 1.029 (greedy list scheduling with the
    /// real costs, work-stealing at its best: 1.193, 1.228).
    pub const ADAPTIVE: Policy = Policy {
        surprise_factor: 1.2,
        surprise_share: 0.02,
        steal: Steal::Fits,
    };
}

/// One piece of work handed to a worker: a call, or some of a loop's
/// iterations (0-based, half-open).
#[derive(Clone, Debug, PartialEq)]
pub struct Work {
    pub node: NodeId,
    pub iterations: Option<Range<usize>>,
    /// The other workers a moldable call runs on: they wait while it runs.
    pub lanes: Vec<usize>,
}

/// What a finished piece of work completed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Finish {
    /// The worker's contiguous block of a loop ended: these iterations ran
    /// on it, one piece after another, from the time given.
    pub block: Option<(Range<usize>, f64)>,
    /// The queues were re-planned.
    pub replanned: bool,
    /// A re-plan was computed, installed or not: the caller may time it
    /// ([`Runtime::replan_took`]).
    pub planned: bool,
}

/// A worker's block of a loop: `first..next` claimed (the last claim,
/// `piece`, still running), `next..end` not yet.
#[derive(Clone, Debug)]
struct Block {
    first: usize,
    next: usize,
    end: usize,
    piece: Range<usize>,
    /// When the block started, and when its last finished piece ended.
    began: f64,
    ended: f64,
}

/// A worker's block of a loop that ended: which loop, its iterations,
/// and when it began and ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Closed {
    pub node: NodeId,
    pub iterations: Range<usize>,
    pub began: f64,
    pub ended: f64,
}

/// What a worker is running.
#[derive(Clone, Debug)]
struct Running {
    node: NodeId,
    block: Option<Block>,
    /// When the call or the current piece started, and its predicted cost.
    started: f64,
    predicted: f64,
    /// Index in `past` of the planned item this runs.
    past: usize,
    /// The workers a moldable call borrowed.
    lanes: Vec<usize>,
}

/// A loop's pieces aim at this many seconds: short enough to split a block
/// late, long enough that claiming one is noise.
const PIECE_SECONDS: f64 = 0.002;

/// How this runtime deals out a planned loop's iterations, in words, for
/// `flowcast plan`: whatever the policy's kind, which is how the loop runs
/// on its own (`bench loops`).
pub fn how_loops_run() -> String {
    format!(
        "the blocks above, each claimed in pieces of about {:.0} ms; a worker that \
         runs out takes half of the largest unclaimed rest, up to the policy's workers",
        PIECE_SECONDS * 1e3
    )
}

/// Iterations a test drive runs first: the first warms the caches.
pub const TEST_DRIVE_ITERATIONS: usize = 2;

/// A line through a drive's samples is taken as the loop's profile only
/// when it makes the dearest iteration this many times the cheapest: a few
/// noisy samples of a flat loop must not tilt it.
const DRIVE_SPREAD: f64 = 2.0;

/// Single iterations a test drive then samples across the rest of the
/// range, at its quarters and its end: a loop whose iterations cost more
/// with i is measured as such, not by its two cheapest (issue 16).
pub const TEST_DRIVE_SAMPLES: usize = 4;

/// The iterations a test drive of a loop of `n` runs, each range a block
/// of its own: the first [`TEST_DRIVE_ITERATIONS`], then one at each
/// quarter of the range and the last. Empty when the loop is too short to
/// leave anything to plan after the drive.
pub fn drive_ranges(n: usize) -> Vec<Range<usize>> {
    if n <= TEST_DRIVE_ITERATIONS + TEST_DRIVE_SAMPLES {
        return if n > TEST_DRIVE_ITERATIONS {
            std::iter::once(0..TEST_DRIVE_ITERATIONS).collect()
        } else {
            Vec::new()
        };
    }
    let mut out: Vec<Range<usize>> = std::iter::once(0..TEST_DRIVE_ITERATIONS).collect();
    for q in 1..=TEST_DRIVE_SAMPLES {
        let k = (n * q / TEST_DRIVE_SAMPLES).min(n - 1);
        let last = out.last().map_or(0, |r| r.end);
        if k >= last {
            out.push(k..k + 1);
        }
    }
    out
}

/// Per-iteration seconds of loop `node` given its test drive's fastest
/// iteration; the caller's cost model blends the two.
pub type Estimator = Box<dyn Fn(NodeId, f64) -> f64 + Send + Sync>;

/// A run in progress, as the plan sees it.
pub struct Runtime {
    /// Costs: predicted, then updated by what the run measures.
    dag: Dag,
    preds: Vec<Vec<NodeId>>,
    comm: Comm,
    p: usize,
    m: usize,
    policy: Policy,
    queues: Vec<VecDeque<Item>>,
    running: Vec<Option<Running>>,
    /// Per worker, the worker whose moldable call holds it.
    lent: Vec<Option<usize>>,
    /// Per node, iterations (1 for a call) not finished.
    left: Vec<usize>,
    /// Per node, when its last iteration (or the call) finished.
    done_at: Vec<f64>,
    /// Per loop with a test drive not yet measured: the drive's blocks not
    /// yet run (empty: no drive).
    drive: Vec<Vec<Range<usize>>>,
    /// Per loop, the drive's blocks measured so far, with their seconds.
    samples: Vec<Vec<(Range<usize>, f64)>>,
    estimator: Estimator,
    /// Items started so far, as planned when they started.
    past: Vec<Item>,
    /// Per worker, a block a re-plan closed between two of its pieces,
    /// not yet reported ([`Runtime::take_closed`]).
    closed: Vec<Option<Closed>>,
    /// When each re-plan happened.
    replans: Vec<f64>,
    /// Each test-driven loop and the whole-loop cost its drive gave it.
    driven: Vec<(NodeId, f64)>,
    /// The current plan's predicted makespan.
    horizon: f64,
    /// What one re-plan costs the executor, as it measured it (zero in the
    /// simulator, whose clock stands still while it plans).
    replan_seconds: f64,
}

impl Runtime {
    /// Plans `dag` with emcp, test-driving the loops in `drives`: each
    /// drive's first iterations run as one block, as early as their inputs
    /// allow, and the rest of that loop waits for it; when it has run, the
    /// loop is costed by `estimator` and everything not started re-planned.
    pub fn emcp(
        dag: &Dag,
        comm: &Comm,
        p: usize,
        m: usize,
        drives: &[NodeId],
        policy: Policy,
        estimator: Estimator,
    ) -> Runtime {
        let mut rt = Runtime::empty(dag, comm, p, m, policy, estimator);
        for &d in drives {
            if let Some(n) = dag.nodes.get(d).and_then(Node::iterations) {
                rt.drive[d] = drive_ranges(n);
            }
        }
        // The whole graph is pending: one item per node, all on worker 0,
        // for the planner to redistribute.
        for (id, node) in dag.nodes.iter().enumerate() {
            rt.queues[0].push_back(Item {
                node: id,
                iterations: node.iterations().map(|n| 0..n),
                worker: 0,
                start: 0.0,
                end: 0.0,
                lanes: Vec::new(),
            });
        }
        if let Some(s) = rt.plan_pending(0.0) {
            rt.install(s);
        }
        rt.replans.clear();
        rt
    }

    /// Runs a given schedule (baseline, mcp, or a plan from elsewhere).
    /// Fails when it does not cover every node and iteration exactly once.
    pub fn follow(
        dag: &Dag,
        comm: &Comm,
        schedule: &Schedule,
        policy: Policy,
    ) -> Result<Runtime, String> {
        validate(dag, schedule)?;
        let p = schedule.workers.max(1);
        let mut rt = Runtime::empty(dag, comm, p, super::DEFAULT_M, policy, Box::new(|_, s| s));
        rt.install(schedule.clone());
        Ok(rt)
    }

    fn empty(
        dag: &Dag,
        comm: &Comm,
        p: usize,
        m: usize,
        policy: Policy,
        estimator: Estimator,
    ) -> Runtime {
        let n = dag.nodes.len();
        let mut preds = vec![Vec::new(); n];
        for e in &dag.edges {
            if e.from < n && e.to < n && !preds[e.to].contains(&e.from) {
                preds[e.to].push(e.from);
            }
        }
        let p = p.max(1);
        Runtime {
            dag: dag.clone(),
            preds,
            comm: *comm,
            p,
            m,
            policy,
            queues: vec![VecDeque::new(); p],
            running: vec![None; p],
            lent: vec![None; p],
            // A loop of no iterations still runs once, to make its value.
            left: dag
                .nodes
                .iter()
                .map(|n| n.iterations().unwrap_or(1).max(1))
                .collect(),
            done_at: vec![0.0; n],
            drive: vec![Vec::new(); n],
            samples: vec![Vec::new(); n],
            estimator,
            past: Vec::new(),
            closed: vec![None; p],
            replans: Vec::new(),
            driven: Vec::new(),
            horizon: 0.0,
            replan_seconds: 0.0,
        }
    }

    pub fn workers(&self) -> usize {
        self.p
    }

    /// Whether worker `w` is held by another worker's moldable call: it can
    /// take nothing until that call ends.
    pub fn is_lent(&self, w: usize) -> bool {
        self.lent.get(w).is_some_and(Option::is_some)
    }

    /// Every node has finished.
    pub fn done(&self) -> bool {
        self.left.iter().all(|&l| l == 0)
    }

    /// Whether node `id` has finished (all its iterations).
    pub fn complete(&self, id: NodeId) -> bool {
        self.left.get(id).is_none_or(|&l| l == 0)
    }

    /// Times of the re-plans so far.
    pub fn replans(&self) -> &[f64] {
        &self.replans
    }

    /// Each test-driven loop and the whole-loop cost its drive predicted:
    /// a prediction made before the rest of the loop ran.
    pub fn test_driven(&self) -> &[(NodeId, f64)] {
        &self.driven
    }

    /// The costs the runtime plans with now.
    pub fn dag(&self) -> &Dag {
        &self.dag
    }

    /// The plan as followed: items started so far as planned when they
    /// started, then the current queues.
    pub fn followed(&self) -> Schedule {
        let mut items = self.past.clone();
        items.extend(self.queues.iter().flatten().cloned());
        Schedule::sorted(self.p, items)
    }

    /// The current plan's predicted makespan.
    pub fn predicted_makespan(&self) -> f64 {
        self.horizon
    }

    /// The next work for idle worker `w`, if any is ready for it now.
    pub fn next(&mut self, w: usize, now: f64) -> Option<Work> {
        if w >= self.p
            || self.lent[w].is_some()
            || self.running[w].as_ref().is_some_and(|r| r.block.is_none())
        {
            return None;
        }
        if self.running[w].is_some() {
            if let Some(work) = self.claim(w, now) {
                return Some(work);
            }
            // A re-plan took the rest of the block: it ended with its last
            // piece.
            if let Some(r) = self.running[w].take() {
                if let Some(b) = r.block {
                    self.closed[w] = Some(Closed {
                        node: r.node,
                        iterations: b.first..b.end,
                        began: b.began,
                        ended: b.ended,
                    });
                }
            }
        }
        if let Some(work) = self.start_gang(w, now, false) {
            return Some(work);
        }
        let reserved = self.reserved_at(w);
        if let Some(item) = self.queues[w].front() {
            if item.width() == 1 && self.ready(item) && item.start < reserved {
                let item = self.queues[w].pop_front()?;
                return Some(self.begin(w, item, now));
            }
        }
        if reserved.is_finite() && !self.stuck() {
            // Held for a moldable call: taking other work could delay it.
            return None;
        }
        if let Some(work) = self.start_gang(w, now, true) {
            return Some(work);
        }
        self.steal(w, now)
    }

    /// The planned start of the earliest moldable call not yet started
    /// that holds worker `w` (infinite when none does).
    fn reserved_at(&self, w: usize) -> f64 {
        self.queues
            .iter()
            .flatten()
            .filter(|i| i.width() > 1 && i.all_lanes().any(|l| l == w))
            .map(|i| i.start)
            .fold(f64::INFINITY, f64::min)
    }

    /// Starts, on idle worker `w`, a moldable call that holds it, when the
    /// call heads its own worker's queue, its inputs are ready and all its
    /// lanes are idle with nothing planned before it. `force` (nothing
    /// else can move the run on) drops the last condition.
    fn start_gang(&mut self, w: usize, now: f64, force: bool) -> Option<Work> {
        // Every queue head that holds `w`, earliest first: one that waits
        // for its inputs must not keep a ready one from starting.
        let mut heads: Vec<(usize, &Item)> = self
            .queues
            .iter()
            .enumerate()
            .filter_map(|(v, q)| q.front().map(|i| (v, i)))
            .filter(|(_, i)| i.width() > 1 && i.all_lanes().any(|l| l == w))
            .collect();
        heads.sort_by(|a, b| a.1.start.total_cmp(&b.1.start).then(a.0.cmp(&b.0)));
        let (owner, lanes) = heads.into_iter().find_map(|(owner, item)| {
            let lanes: Vec<usize> = item.all_lanes().collect();
            let free = lanes.iter().all(|&l| {
                l < self.p
                    && self.lent[l].is_none()
                    && self.running[l].is_none()
                    && (force
                        || l == owner
                        || self.queues[l].front().is_none_or(|h| h.start >= item.start))
            });
            (free && self.ready(item)).then_some((owner, lanes))
        })?;
        let mut item = self.queues[owner].pop_front()?;
        let others: Vec<usize> = lanes.into_iter().filter(|&l| l != w).collect();
        for &l in &others {
            self.lent[l] = Some(w);
        }
        item.worker = w;
        item.lanes = others;
        Some(self.begin(w, item, now))
    }

    /// A block of worker `w`'s that [`Runtime::next`] found closed by a
    /// re-plan after its last piece (the block [`Finish`] did not report).
    pub fn take_closed(&mut self, w: usize) -> Option<Closed> {
        self.closed.get_mut(w).and_then(Option::take)
    }

    /// Records that worker `w` finished the work [`Runtime::next`] gave it,
    /// `fastest` being, for a loop, the fastest of its iterations so far.
    pub fn finish(&mut self, w: usize, now: f64, fastest: f64) -> Finish {
        let Some(mut r) = self.running.get_mut(w).and_then(Option::take) else {
            return Finish::default();
        };
        let node = r.node;
        let mut out = Finish::default();
        let measured = (now - r.started).max(0.0);
        for &l in &r.lanes {
            if let Some(slot) = self.lent.get_mut(l) {
                *slot = None;
            }
        }
        let Some(b) = &mut r.block else {
            self.left[node] = 0;
            self.done_at[node] = now;
            out.planned = self.surprised(r.predicted, measured);
            out.replanned = out.planned && self.replan(now);
            return out;
        };
        self.left[node] = self.left[node].saturating_sub(b.piece.len());
        if self.left[node] == 0 {
            self.done_at[node] = now;
        }
        b.ended = now;
        let drove = b.next == b.end && self.drive[node].contains(&(b.first..b.end));
        if b.next < b.end {
            self.running[w] = Some(r);
            return out;
        }
        // The block is over.
        let block = b.first..b.end;
        let block_time = (now - b.began).max(0.0);
        let predicted = self.range_cost(node, &block);
        out.block = Some((block.clone(), b.began));
        let mut replan = false;
        if drove {
            self.drive[node].retain(|d| *d != block);
            // The first block's first iteration warms the caches: its
            // fastest iteration stands for its last.
            let sample = if block.start == 0 && block.len() > 1 && fastest > 0.0 {
                (block.end - 1..block.end, fastest)
            } else {
                (block.clone(), block_time)
            };
            self.samples[node].push(sample);
            if self.drive[node].is_empty() {
                self.drove(node);
                replan = true;
            }
        } else if self.surprised(predicted, block_time) && !block.is_empty() {
            // The rest of this loop probably runs at the speed just seen.
            let share = self.dag.nodes[node].share(&block);
            if share > 0.0 {
                let n = self.dag.nodes[node].iterations().unwrap_or(1).max(1);
                self.set_per_iteration(node, block_time / (share * n as f64));
            }
            replan = true;
        }
        out.planned = replan && self.left[node] + self.pending() > 0;
        out.replanned = out.planned && self.replan(now);
        out
    }

    /// Tells the runtime how long a re-plan (or the first plan, which is a
    /// re-plan of everything) took on the executor's clock. A surprise
    /// smaller than a few re-plans is not worth one: on a workflow of
    /// microsecond steps, re-planning under the run's lock at each one
    /// cost more than any plan could win back.
    pub fn replan_took(&mut self, seconds: f64) {
        if seconds.is_finite() && seconds >= 0.0 {
            // The mean of the recent ones: one re-plan interrupted by the
            // OS must not switch re-planning off for the rest of the run.
            self.replan_seconds = if self.replan_seconds > 0.0 {
                0.75 * self.replan_seconds + 0.25 * seconds
            } else {
                seconds
            };
        }
    }

    /// Nobody runs anything and no queue's head can start: only taking
    /// work out of plan order moves the run on (or, when nothing is ready
    /// at all, nothing can).
    pub fn stuck(&self) -> bool {
        self.running.iter().all(Option::is_none)
            && self.lent.iter().all(Option::is_none)
            && !self
                .queues
                .iter()
                .flat_map(|q| q.front())
                .any(|i| self.ready(i))
    }

    /// Iterations and calls still queued.
    fn pending(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum()
    }

    fn surprised(&self, predicted: f64, measured: f64) -> bool {
        let f = self.policy.surprise_factor;
        if !f.is_finite() {
            return false;
        }
        let tiny = 1e-9;
        let ratio = measured.max(tiny) / predicted.max(tiny);
        let off = (measured - predicted).abs();
        (ratio > f || ratio < 1.0 / f)
            && off > self.policy.surprise_share * self.horizon
            && off > REPLAN_PAYBACK * self.replan_seconds
    }

    /// Predicted seconds of iterations `r` of loop `node`.
    fn range_cost(&self, node: NodeId, r: &Range<usize>) -> f64 {
        let n = &self.dag.nodes[node];
        n.cost * n.share(r)
    }

    /// Costs loop `node` from its test drive's samples: the profile shape
    /// inference gave it, or, when it had none, a line through the samples
    /// when they show the cost varying with i; the mean iteration's
    /// seconds blended with the loop's model by the estimator.
    fn drove(&mut self, node: NodeId) {
        let samples = std::mem::take(&mut self.samples[node]);
        let n = self.dag.nodes[node].iterations().unwrap_or(1).max(1);
        if self.dag.nodes[node].profile.is_flat() {
            if let Some((a, b)) = crate::cost::profile::fit_linear(&samples) {
                let fitted = crate::cost::Profile::linear(n, a, b);
                if fitted.spread(n) > DRIVE_SPREAD {
                    self.dag.nodes[node].profile = fitted;
                }
            }
        }
        let node_ref = &self.dag.nodes[node];
        let implied: Vec<(f64, f64)> = samples
            .iter()
            .map(|(r, t)| (*t, node_ref.share(r) * n as f64))
            .collect();
        if let Some(mean) = crate::cost::testdrive::mean_iteration(&implied) {
            let per = (self.estimator)(node, mean);
            self.set_per_iteration(node, per);
        }
        self.driven.push((node, self.dag.nodes[node].cost));
    }

    fn set_per_iteration(&mut self, node: NodeId, seconds: f64) {
        if seconds.is_finite() && seconds >= 0.0 {
            let n = &mut self.dag.nodes[node];
            n.cost = seconds * n.iterations().unwrap_or(1) as f64;
        }
    }

    /// Whether `item` may start: its inputs are complete, and the rest of
    /// a loop waits for its test drive.
    fn ready(&self, item: &Item) -> bool {
        self.preds[item.node].iter().all(|&q| self.left[q] == 0)
            && match (&self.drive[item.node], &item.iterations) {
                (d, Some(r)) if !d.is_empty() => d.contains(r),
                _ => true,
            }
    }

    /// Whether `item`'s inputs have been complete for longer than a
    /// hand-off to another worker costs.
    fn overdue(&self, item: &Item, now: f64) -> bool {
        let since = self.preds[item.node]
            .iter()
            .map(|&q| self.done_at[q])
            .fold(0.0, f64::max);
        self.ready(item) && now - since > self.comm.latency
    }

    fn begin(&mut self, w: usize, item: Item, now: f64) -> Work {
        self.past.push(item.clone());
        let past = self.past.len() - 1;
        match &item.iterations {
            Some(r) if self.dag.nodes[item.node].iterations().is_some() && !r.is_empty() => {
                self.running[w] = Some(Running {
                    node: item.node,
                    block: Some(Block {
                        first: r.start,
                        next: r.start,
                        end: r.end,
                        piece: r.start..r.start,
                        began: now,
                        ended: now,
                    }),
                    started: now,
                    predicted: 0.0,
                    past,
                    lanes: Vec::new(),
                });
                self.claim(w, now).unwrap_or(Work {
                    node: item.node,
                    iterations: Some(r.start..r.start),
                    lanes: Vec::new(),
                })
            }
            _ => {
                self.running[w] = Some(Running {
                    node: item.node,
                    block: None,
                    started: now,
                    predicted: self.dag.nodes[item.node].time_on(item.width()),
                    past,
                    lanes: item.lanes.clone(),
                });
                Work {
                    node: item.node,
                    iterations: None,
                    lanes: item.lanes,
                }
            }
        }
    }

    /// Claims the next piece of worker `w`'s block; `None` when it has no
    /// unclaimed iterations left.
    fn claim(&mut self, w: usize, now: f64) -> Option<Work> {
        let node = self.running[w].as_ref()?.node;
        let is_drive = !self.drive[node].is_empty();
        let (first, next, end) = {
            let b = self.running[w].as_ref()?.block.as_ref()?;
            (b.first, b.next, b.end)
        };
        if next >= end {
            return None;
        }
        let len = if is_drive {
            // A test drive runs as one piece: its time is the measurement.
            end - next
        } else {
            // Pieces as long as the iterations where they start cost.
            piece_len(self.range_cost(node, &(next..next + 1)), end - first)
        };
        let piece = next..(next + len).min(end);
        let predicted = self.range_cost(node, &piece);
        let r = self.running[w].as_mut()?;
        let b = r.block.as_mut()?;
        b.next = piece.end;
        b.piece = piece.clone();
        r.started = now;
        r.predicted = predicted;
        Some(Work {
            node,
            iterations: Some(piece),
            lanes: Vec::new(),
        })
    }

    /// When worker `w`'s own next item should be ready, by the plan.
    fn head_ready_at(&self, w: usize, now: f64) -> f64 {
        let Some(head) = self.queues[w].front() else {
            return f64::INFINITY;
        };
        let mut at = now;
        for &q in &self.preds[head.node] {
            if self.left[q] == 0 {
                continue;
            }
            let queued = self
                .queues
                .iter()
                .flatten()
                .filter(|i| i.node == q)
                .map(|i| i.end)
                .fold(f64::NEG_INFINITY, f64::max);
            at = at.max(queued).max(self.running_end(q, now));
        }
        at
    }

    /// When the running parts of node `q` should end (`now` if none run).
    fn running_end(&self, q: NodeId, now: f64) -> f64 {
        self.running
            .iter()
            .flatten()
            .filter(|r| r.node == q)
            .map(|r| {
                let tail = r
                    .block
                    .as_ref()
                    .map_or(0.0, |b| self.range_cost(q, &(b.next..b.end)));
                expected_end(r.started, r.predicted, now) + tail
            })
            .fold(now, f64::max)
    }

    /// Out-of-plan work for idle worker `w`, as the policy allows: the
    /// ready queued item planned earliest, else half of the longest
    /// unclaimed rest of another worker's block.
    fn steal(&mut self, w: usize, now: f64) -> Option<Work> {
        let stalled = self.stuck();
        let budget = match self.policy.steal {
            _ if stalled => f64::INFINITY,
            Steal::Never => return None,
            Steal::Fits => self.head_ready_at(w, now) - now,
        };
        let mut best: Option<(f64, usize, usize)> = None; // (planned start, worker, index)
        for (v, q) in self.queues.iter().enumerate() {
            // An idle worker takes its own ready head itself, unless it
            // has let it wait longer than a hand-off: it is asleep, and
            // waking a thread (a VM's idle vCPU above all) can take
            // longer than the head's work.
            let overdue = v != w && q.front().is_some_and(|h| self.overdue(h, now));
            let skip = usize::from(self.running[v].is_none() && !overdue);
            for (k, item) in q.iter().enumerate().skip(skip) {
                if best.is_some_and(|(s, _, _)| item.start >= s) {
                    continue;
                }
                let cost = item_cost(&self.dag, item);
                if item.width() == 1 && cost <= budget && self.ready(item) {
                    best = Some((item.start, v, k));
                }
            }
        }
        if let Some((_, v, k)) = best {
            let item = self.queues[v].remove(k)?;
            return Some(self.begin(w, item, now));
        }
        // Split the running block with the most unclaimed time.
        let mut split: Option<(f64, usize)> = None;
        for (v, r) in self.running.iter().enumerate() {
            let Some(r) = r else { continue };
            let Some(b) = &r.block else { continue };
            if !self.drive[r.node].is_empty() || self.at_thread_limit(r.node) {
                continue;
            }
            let unclaimed = b.end - b.next;
            let rest = self.range_cost(r.node, &(b.next..b.end));
            // Worth splitting only when each half is at least a piece.
            let piece = piece_len(rest / unclaimed.max(1) as f64, b.end - b.first);
            if unclaimed < 2 * piece.max(1) {
                continue;
            }
            let half = rest / 2.0;
            if half <= budget && split.is_none_or(|(t, _)| half > t) {
                split = Some((half, v));
            }
        }
        let (_, v) = split?;
        let victim = self.running[v].as_mut()?;
        let node = victim.node;
        let b = victim.block.as_mut()?;
        let mid = b.next + (b.end - b.next).div_ceil(2);
        let taken = mid..b.end;
        b.end = mid;
        if let Some(item) = self.past.get_mut(victim.past) {
            trim(item, b.first..mid);
        }
        let item = Item {
            node,
            end: now + self.range_cost(node, &taken),
            iterations: Some(taken),
            worker: w,
            start: now,
            lanes: Vec::new(),
        };
        Some(self.begin(w, item, now))
    }

    /// Whether loop `node` already runs on as many workers as its policy
    /// allows: past that, its body stops scaling, so an idle worker leaves
    /// it alone.
    fn at_thread_limit(&self, node: NodeId) -> bool {
        let Some(limit) = self.dag.nodes[node].policy.map(|pol| pol.threads) else {
            return false;
        };
        self.running_on(node) >= limit.max(1)
    }

    /// How many workers are running blocks of loop `node` now.
    fn running_on(&self, node: NodeId) -> usize {
        self.running
            .iter()
            .flatten()
            .filter(|r| r.node == node && r.block.is_some())
            .count()
    }

    /// Plans everything not started from the state at `now`, and installs
    /// the plan when it is predicted to end sooner than the current one.
    fn replan(&mut self, now: f64) -> bool {
        let Some(new) = self.plan_pending(now) else {
            return false;
        };
        let start = self.start_state(now);
        let mut current = Schedule {
            workers: self.p,
            items: self.queues.iter().flatten().cloned().collect(),
        };
        // Carrying on, each running block keeps its unclaimed tail.
        for (w, r) in self.running.iter().enumerate() {
            if let Some((node, b)) = r.as_ref().and_then(|r| Some((r.node, r.block.as_ref()?))) {
                if b.next < b.end {
                    current
                        .items
                        .push(self.tail_item(w, node, b.next..b.end, &start));
                }
            }
        }
        let current = Schedule::sorted(self.p, current.items);
        let keep = simulate_from(&current, &self.dag, &self.comm, &start).makespan();
        if new.makespan() > keep * (1.0 - 1e-9) {
            self.horizon = keep;
            return false;
        }
        // The new plan took the tails: the blocks end after their pieces.
        for r in self.running.iter_mut().flatten() {
            if let Some(b) = &mut r.block {
                b.end = b.next;
                if let Some(item) = self.past.get_mut(r.past) {
                    trim(item, b.first..b.end);
                }
            }
        }
        self.install(new);
        self.replans.push(now);
        true
    }

    fn tail_item(&self, w: usize, node: NodeId, its: Range<usize>, start: &Start) -> Item {
        let from = start.free_at(w);
        Item {
            node,
            end: from + self.range_cost(node, &its),
            iterations: Some(its),
            worker: w,
            start: from,
            lanes: Vec::new(),
        }
    }

    fn install(&mut self, s: Schedule) {
        self.horizon = s.makespan();
        for q in &mut self.queues {
            q.clear();
        }
        for item in s.items {
            if let Some(q) = self.queues.get_mut(item.worker) {
                q.push_back(item);
            }
        }
    }

    /// When each worker is free and each node may start, by the plan's
    /// predictions of what is running.
    fn start_state(&self, now: f64) -> Start {
        let free = self
            .running
            .iter()
            .map(|r| {
                r.as_ref()
                    .map_or(now, |r| expected_end(r.started, r.predicted, now))
            })
            .collect::<Vec<f64>>();
        let free: Vec<f64> = (0..self.p)
            .map(|w| match self.lent[w] {
                Some(runner) => free[runner],
                None => free[w],
            })
            .collect();
        let n = self.dag.nodes.len();
        // Per node, when its running pieces should end.
        let mut busy_until = vec![now; n];
        for r in self.running.iter().flatten() {
            busy_until[r.node] = busy_until[r.node].max(expected_end(r.started, r.predicted, now));
        }
        let release = (0..n)
            .map(|id| {
                let own = if !self.drive[id].is_empty() {
                    busy_until[id]
                } else {
                    now
                };
                self.preds[id]
                    .iter()
                    .map(|&q| busy_until[q])
                    .fold(own, f64::max)
            })
            .collect();
        Start { free, release }
    }

    /// emcp's plan of everything not started (queued items, and the
    /// unclaimed tails of running blocks), from the state at `now`; `None`
    /// when nothing is left.
    fn plan_pending(&self, now: f64) -> Option<Schedule> {
        let n = self.dag.nodes.len();
        // Per node, what is left to start: the call, or iteration ranges.
        let mut calls = vec![false; n];
        let mut ranges: Vec<Vec<Range<usize>>> = vec![Vec::new(); n];
        for item in self.queues.iter().flatten() {
            match &item.iterations {
                Some(r) if self.dag.nodes[item.node].iterations().is_some() && !r.is_empty() => {
                    ranges[item.node].push(r.clone())
                }
                _ => calls[item.node] = true,
            }
        }
        for r in self.running.iter().flatten() {
            if let Some(b) = &r.block {
                if b.next < b.end {
                    ranges[r.node].push(b.next..b.end);
                }
            }
        }
        // The sub-DAG: one node per pending call or loop rest, and one per
        // test drive not yet started, which the rest follows.
        let mut sub = Dag::default();
        let mut origin: Vec<(NodeId, Vec<Range<usize>>)> = Vec::new();
        let mut first = vec![None; n];
        let mut last = vec![None; n];
        let start = self.start_state(now);
        let mut release = Vec::new();
        for id in 0..n {
            let node = &self.dag.nodes[id];
            if calls[id] {
                first[id] = Some(sub.nodes.len());
                last[id] = first[id];
                sub.nodes.push(Node {
                    speedup: node.speedup,
                    ..Node::function(&node.name, node.cost)
                });
                origin.push((id, Vec::new()));
                release.push(start.release_of(id));
                continue;
            }
            let mut rs = std::mem::take(&mut ranges[id]);
            if rs.is_empty() {
                continue;
            }
            for d in &self.drive[id] {
                rs = carve(rs, d);
            }
            rs.sort_by_key(|r| r.start);
            // The drive's blocks not yet started: one task, on one worker.
            let (driving, rest): (Vec<_>, Vec<_>) =
                rs.into_iter().partition(|r| self.drive[id].contains(r));
            rs = rest;
            if !driving.is_empty() {
                let cost = driving.iter().map(|d| self.range_cost(id, d)).sum();
                first[id] = Some(sub.nodes.len());
                last[id] = first[id];
                sub.nodes.push(Node::function(&node.name, cost));
                origin.push((id, driving));
                release.push(start.release_of(id));
            }
            let count: usize = rs.iter().map(Range::len).sum();
            if count > 0 {
                let rest = sub.nodes.len();
                if let Some(d) = last[id] {
                    sub.edges.push(Edge {
                        from: d,
                        to: rest,
                        bytes: 0.0,
                    });
                }
                first[id] = first[id].or(Some(rest));
                last[id] = Some(rest);
                let cost = rs.iter().map(|r| self.range_cost(id, r)).sum();
                let total = node.iterations().unwrap_or(count);
                let mut rest_node = Node::looped(&node.name, cost, count)
                    .with_profile(node.profile.concat(total, &rs));
                // The workers still on the loop's running blocks count
                // against its policy's.
                rest_node.policy = node.policy.map(|pol| LoopPolicy {
                    threads: pol.threads.saturating_sub(self.running_on(id)).max(1),
                    ..pol
                });
                sub.nodes.push(rest_node);
                origin.push((id, rs));
                release.push(start.release_of(id));
            }
        }
        if sub.nodes.is_empty() {
            return None;
        }
        for e in &self.dag.edges {
            if let (Some(from), Some(to)) = (last[e.from], first[e.to]) {
                sub.edges.push(Edge {
                    from,
                    to,
                    bytes: e.bytes,
                });
            }
        }
        let sub_start = Start {
            free: start.free.clone(),
            release,
        };
        let planned = emcp_from(&sub, &self.comm, self.p, self.m, &sub_start);
        let mut items = Vec::with_capacity(planned.items.len());
        for item in planned.items {
            let (id, rs) = &origin[item.node];
            let is_loop = self.dag.nodes[*id].iterations().is_some();
            match (&item.iterations, is_loop) {
                (Some(r), true) => {
                    items.extend(one_after_another(&item, *id, map_range(rs, r.clone())))
                }
                (None, true) => items.extend(one_after_another(&item, *id, rs.clone())),
                _ => items.push(Item { node: *id, ..item }),
            }
        }
        Some(Schedule::sorted(self.p, items))
    }

    /// Replays a run of this plan with `actual` costs, as the executor runs
    /// it (each idle worker asks for work whenever anything finishes): the
    /// items as they ran, with their real times.
    pub fn simulate(&mut self, actual: &Dag) -> Schedule {
        let p = self.p;
        let mut busy: Vec<Option<(f64, f64, Work)>> = vec![None; p]; // (start, end, work)
        let mut ran = Vec::new();
        let mut now = 0.0f64;
        loop {
            for (w, slot) in busy.iter_mut().enumerate() {
                if slot.is_none() {
                    if let Some(work) = self.next(w, now) {
                        let cost = work_cost(actual, &work);
                        *slot = Some((now, now + cost, work));
                    }
                }
            }
            let Some(w) = (0..p).filter(|&w| busy[w].is_some()).min_by(|&a, &b| {
                let ea = busy[a].as_ref().map_or(f64::INFINITY, |s| s.1);
                let eb = busy[b].as_ref().map_or(f64::INFINITY, |s| s.1);
                ea.total_cmp(&eb).then(a.cmp(&b))
            }) else {
                break;
            };
            let Some((start, end, work)) = busy[w].take() else {
                break;
            };
            now = end;
            // The piece's cheapest iteration, as the executor times them.
            let fastest = actual.nodes.get(work.node).map_or(0.0, |n| {
                let total = n.iterations().unwrap_or(1).max(1);
                match &work.iterations {
                    Some(r) if !r.is_empty() && !n.profile.is_flat() => r
                        .clone()
                        .map(|k| n.cost * n.share(&(k..k + 1)))
                        .fold(f64::INFINITY, f64::min),
                    _ => n.cost / total as f64,
                }
            });
            ran.push(Item {
                node: work.node,
                iterations: work.iterations,
                worker: w,
                start,
                end,
                lanes: work.lanes,
            });
            self.finish(w, now, fastest);
        }
        Schedule::sorted(p, ran)
    }
}

/// When a task started at `started` and predicted to take `predicted`
/// should end, seen at `now`: as predicted, or, once it has overrun, a
/// quarter of its time so far from now (the longer it has overrun, the
/// longer it probably has to go).
fn expected_end(started: f64, predicted: f64, now: f64) -> f64 {
    let end = started + predicted;
    if end > now {
        end
    } else {
        now + 0.25 * (now - started)
    }
}

/// Iterations per piece of a block of `block` iterations costing `per`
/// seconds each: about [`PIECE_SECONDS`], at most a quarter of the block.
fn piece_len(per: f64, block: usize) -> usize {
    let quarter = block.div_ceil(4).max(1);
    if per <= 0.0 || !per.is_finite() {
        return quarter;
    }
    let n = (PIECE_SECONDS / per).ceil();
    if n >= quarter as f64 {
        quarter
    } else {
        (n as usize).max(1)
    }
}

/// `ranges` with `part` a range of its own, when one of them holds it.
fn carve(ranges: Vec<Range<usize>>, part: &Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(ranges.len() + 2);
    for r in ranges {
        if r.start <= part.start && part.end <= r.end && r != *part {
            out.extend(
                [r.start..part.start, part.clone(), part.end..r.end]
                    .into_iter()
                    .filter(|x| !x.is_empty()),
            );
        } else {
            out.push(r);
        }
    }
    out
}

/// Shortens a started item to the iterations `kept`, its end in proportion.
fn trim(item: &mut Item, kept: Range<usize>) {
    if let Some(r) = &item.iterations {
        let len = r.len().max(1) as f64;
        item.end = item.start + (item.end - item.start) * kept.len() as f64 / len;
        item.iterations = Some(kept);
    }
}

/// A planned block of loop `node` that stands for several runs of real
/// iterations: one item per run, sharing the block's time in proportion to
/// their lengths, one after another on the block's worker (not each over
/// the whole block, which would draw the worker busy several times over).
fn one_after_another(block: &Item, node: NodeId, runs: Vec<Range<usize>>) -> Vec<Item> {
    let total = runs
        .iter()
        .map(ExactSizeIterator::len)
        .sum::<usize>()
        .max(1) as f64;
    let per = (block.end - block.start) / total;
    let mut at = block.start;
    runs.into_iter()
        .map(|real| {
            let start = at;
            at += per * real.len() as f64;
            Item {
                node,
                iterations: Some(real),
                worker: block.worker,
                start,
                end: at,
                lanes: Vec::new(),
            }
        })
        .collect()
}

/// The real iterations that positions `sub` of the concatenation of
/// `ranges` stand for, as contiguous ranges.
fn map_range(ranges: &[Range<usize>], sub: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for r in ranges {
        let (lo, hi) = (offset, offset + r.len());
        let a = sub.start.max(lo);
        let b = sub.end.min(hi);
        if a < b {
            out.push(r.start + (a - lo)..r.start + (b - lo));
        }
        offset = hi;
    }
    out
}

fn work_cost(dag: &Dag, work: &Work) -> f64 {
    item_cost(
        dag,
        &Item {
            node: work.node,
            iterations: work.iterations.clone(),
            worker: 0,
            start: 0.0,
            end: 0.0,
            lanes: work.lanes.clone(),
        },
    )
}

/// Checks that `schedule` runs every node of `dag`, and every iteration of
/// every loop, exactly once, on its workers.
pub fn validate(dag: &Dag, schedule: &Schedule) -> Result<(), String> {
    let mut covered: Vec<Vec<u32>> = dag
        .nodes
        .iter()
        .map(|n| vec![0; n.iterations().unwrap_or(1)])
        .collect();
    for item in &schedule.items {
        let Some(c) = covered.get_mut(item.node) else {
            return Err(format!(
                "the plan names task {} but the graph has {}",
                item.node,
                dag.nodes.len()
            ));
        };
        let name = &dag.nodes[item.node].name;
        match (
            &item.iterations,
            dag.nodes[item.node].iterations().is_some(),
        ) {
            (Some(r), true) if r.end <= c.len() => r.clone().for_each(|k| c[k] += 1),
            (None, false) => c[0] += 1,
            _ => {
                return Err(format!(
                    "the plan's item for `{name}` does not fit the task"
                ))
            }
        }
        if item.worker >= schedule.workers {
            return Err(format!(
                "the plan uses worker {} of {}",
                item.worker, schedule.workers
            ));
        }
    }
    for (id, c) in covered.iter().enumerate() {
        let name = &dag.nodes[id].name;
        if c.iter().any(|&k| k > 1) {
            return Err(format!("the plan runs (part of) `{name}` twice"));
        }
        if c.contains(&0) {
            return Err(format!("the plan does not run `{name}`"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
