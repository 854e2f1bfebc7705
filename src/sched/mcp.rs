//! Wu & Gajski's Modified Critical Path, on a graph whose loops may already
//! be cut into blocks ("units"). Units are taken in ascending ALAP order
//! (as-late-as-possible start, from the critical path including
//! communication) among those whose predecessors are placed, and each goes to
//! the worker where it can start earliest, filling idle holes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Range;

use super::{Comm, Dag, Item, NodeId, Schedule};

/// A schedulable piece: a whole node, or a block of a loop's iterations.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unit {
    pub node: NodeId,
    pub iterations: Option<Range<usize>>,
    pub cost: f64,
}

/// Units and the edges between them (unit index, bytes).
#[derive(Clone, Debug, Default)]
pub(crate) struct Units {
    pub units: Vec<Unit>,
    pub preds: Vec<Vec<(usize, f64)>>,
    pub succs: Vec<Vec<(usize, f64)>>,
}

impl Units {
    /// Expands `dag`, cutting each loop node into `blocks(node)` (whole when
    /// `None`). A block's cost is its share of the loop's; an edge between two
    /// cut nodes connects every block of one to every block of the other.
    /// Each carries the whole value's bytes: a block's input is the whole
    /// value it reads, which keeps the model the same as the simulator's.
    pub fn expand(dag: &Dag, blocks: impl Fn(NodeId) -> Option<Vec<Range<usize>>>) -> Units {
        let mut units = Vec::new();
        let mut of_node: Vec<Range<usize>> = Vec::with_capacity(dag.nodes.len());
        for (id, node) in dag.nodes.iter().enumerate() {
            let first = units.len();
            match (node.iterations(), blocks(id)) {
                (Some(total), Some(bs)) if total > 0 && !bs.is_empty() => {
                    for b in bs {
                        let cost = node.cost * b.len() as f64 / total as f64;
                        units.push(Unit {
                            node: id,
                            iterations: Some(b),
                            cost,
                        });
                    }
                }
                (total, _) => units.push(Unit {
                    node: id,
                    iterations: total.map(|t| 0..t),
                    cost: node.cost,
                }),
            }
            of_node.push(first..units.len());
        }
        let mut preds = vec![Vec::new(); units.len()];
        let mut succs = vec![Vec::new(); units.len()];
        for e in &dag.edges {
            let (from, to) = (of_node[e.from].clone(), of_node[e.to].clone());
            for f in from {
                for t in to.clone() {
                    preds[t].push((f, e.bytes));
                    succs[f].push((t, e.bytes));
                }
            }
        }
        Units {
            units,
            preds,
            succs,
        }
    }

    /// Bottom levels: a unit's cost plus the longest path after it,
    /// communication included. Units are expanded in node order and a DAG's
    /// edges may point backwards in that order, so this walks a topological
    /// order.
    pub fn bottom_levels(&self, comm: &Comm) -> Vec<f64> {
        let order = self.topological_order();
        let mut bl = vec![0.0f64; self.units.len()];
        for &u in order.iter().rev() {
            let after = self.succs[u]
                .iter()
                .map(|&(s, bytes)| comm.cost(bytes) + bl[s])
                .fold(0.0, f64::max);
            bl[u] = self.units[u].cost + after;
        }
        bl
    }

    pub fn topological_order(&self) -> Vec<usize> {
        let n = self.units.len();
        let mut indegree: Vec<usize> = self.preds.iter().map(Vec::len).collect();
        let mut stack: Vec<usize> = (0..n).rev().filter(|&i| indegree[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(u) = stack.pop() {
            order.push(u);
            for &(s, _) in self.succs[u].iter().rev() {
                indegree[s] -= 1;
                if indegree[s] == 0 {
                    stack.push(s);
                }
            }
        }
        order
    }
}

/// ALAP start times of the nodes of `dag` (loops whole).
pub fn alap(dag: &Dag, comm: &Comm) -> Vec<f64> {
    let units = Units::expand(dag, |_| None);
    let bl = units.bottom_levels(comm);
    let cp = bl.iter().copied().fold(0.0, f64::max);
    bl.iter().map(|b| cp - b).collect()
}

/// MCP with every loop kept whole.
pub fn mcp(dag: &Dag, comm: &Comm, p: usize) -> Schedule {
    let units = Units::expand(dag, |_| None);
    Schedule::sorted(p, mcp_units(&units, comm, p))
}

/// The ready-list entry: smallest ALAP first, then more successors, then
/// the earlier unit (stable, deterministic).
#[derive(PartialEq)]
struct Ready {
    alap: f64,
    succs: usize,
    unit: usize,
}

impl Eq for Ready {}

impl Ord for Ready {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .alap
            .total_cmp(&self.alap)
            .then(self.succs.cmp(&other.succs))
            .then(other.unit.cmp(&self.unit))
    }
}

impl PartialOrd for Ready {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// One worker's busy intervals, sorted and disjoint.
#[derive(Default, Clone)]
struct Timeline {
    busy: Vec<(f64, f64)>,
}

impl Timeline {
    /// The earliest start ≥ `ready` of a hole that fits `cost`, and where the
    /// interval would be inserted.
    fn earliest(&self, ready: f64, cost: f64) -> (f64, usize) {
        // Intervals ending at or before `ready` cannot constrain the start.
        let mut k = self.busy.partition_point(|&(_, end)| end <= ready);
        let mut start = ready;
        while k < self.busy.len() {
            let (s, e) = self.busy[k];
            if start + cost <= s {
                break;
            }
            start = start.max(e);
            k += 1;
        }
        (start, k)
    }
}

pub(crate) fn mcp_units(units: &Units, comm: &Comm, p: usize) -> Vec<Item> {
    let n = units.units.len();
    let bl = units.bottom_levels(comm);
    let cp = bl.iter().copied().fold(0.0, f64::max);
    let mut waiting: Vec<usize> = units.preds.iter().map(Vec::len).collect();
    let mut heap: BinaryHeap<Ready> = (0..n)
        .filter(|&u| waiting[u] == 0)
        .map(|u| Ready {
            alap: cp - bl[u],
            succs: units.succs[u].len(),
            unit: u,
        })
        .collect();
    let mut timelines = vec![Timeline::default(); p];
    let mut placed: Vec<Option<(usize, f64)>> = vec![None; n]; // (worker, end)
    let mut items = Vec::with_capacity(n);
    while let Some(Ready { unit: u, .. }) = heap.pop() {
        let cost = units.units[u].cost;
        let mut best: Option<(f64, usize, usize)> = None; // (start, worker, slot)
        for (w, tl) in timelines.iter().enumerate() {
            let ready = units.preds[u]
                .iter()
                .map(|&(q, bytes)| match placed[q] {
                    Some((qw, end)) if qw == w => end,
                    Some((_, end)) => end + comm.cost(bytes),
                    None => 0.0,
                })
                .fold(0.0, f64::max);
            let (start, slot) = tl.earliest(ready, cost);
            if best.is_none_or(|(s, _, _)| start < s) {
                best = Some((start, w, slot));
            }
        }
        let Some((start, w, slot)) = best else { break };
        let end = start + cost;
        timelines[w].busy.insert(slot, (start, end));
        placed[u] = Some((w, end));
        items.push(Item {
            node: units.units[u].node,
            iterations: units.units[u].iterations.clone(),
            worker: w,
            start,
            end,
        });
        for &(s, _) in &units.succs[u] {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                heap.push(Ready {
                    alap: cp - bl[s],
                    succs: units.succs[s].len(),
                    unit: s,
                });
            }
        }
    }
    items
}
