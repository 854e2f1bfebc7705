//! Wu & Gajski's Modified Critical Path, on a graph whose loops may already
//! be cut into blocks ("units"). Units are taken in ascending ALAP order
//! (as-late-as-possible start, from the critical path including
//! communication) among those whose predecessors are placed, and each goes to
//! the worker where it can start earliest, filling idle holes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Range;

use super::{Dag, Item, NodeId, Schedule, Start};
use crate::cost::Comm;

/// A schedulable piece: a whole node, or a block of a loop's iterations.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unit {
    pub node: NodeId,
    pub iterations: Option<Range<usize>>,
    /// Seconds on `width` workers.
    pub cost: f64,
    /// Workers it runs on at once (a moldable call's allotment).
    pub width: usize,
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
                        let cost = node.cost * node.profile.share(total, &b);
                        units.push(Unit {
                            node: id,
                            iterations: Some(b),
                            cost,
                            width: 1,
                        });
                    }
                }
                (total, _) => units.push(Unit {
                    node: id,
                    iterations: total.map(|t| 0..t),
                    cost: node.cost,
                    width: 1,
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
                .map(|&(s, bytes)| comm.worst(bytes) + bl[s])
                .fold(0.0, f64::max);
            bl[u] = self.units[u].cost + after;
        }
        bl
    }

    /// Gives each call its allotted width, and the time it then takes.
    pub fn mold(&mut self, dag: &Dag, widths: &[usize]) {
        for u in &mut self.units {
            let k = widths.get(u.node).copied().unwrap_or(1);
            if u.iterations.is_none() && k > 1 {
                u.width = k;
                u.cost = dag.nodes[u.node].time_on(k);
            }
        }
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
    Schedule::sorted(p, mcp_units(&units, comm, p, &Start::fresh()))
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

/// Where a unit goes on a worker: into one of its idle holes, or after its
/// last unit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slot {
    Hole(usize),
    End,
}

/// One worker's schedule as MCP needs it: the idle holes before its last
/// unit ends (sorted, disjoint, non-empty) and that end. Keeping holes, not
/// busy intervals, with the longest hole of every suffix, lets a search
/// stop as soon as no later hole is long enough: on large graphs most
/// searches start early and would otherwise walk the whole queue.
#[derive(Default, Clone)]
struct Timeline {
    holes: Vec<(f64, f64)>,
    /// `suffix_max[k]`: the longest of `holes[k..]`.
    suffix_max: Vec<f64>,
    last_end: f64,
}

impl Timeline {
    /// The earliest start ≥ `ready` where `cost` fits, and where; `None`
    /// when it would not start before `limit` (the caller already has a
    /// start that good elsewhere).
    fn earliest(&self, ready: f64, cost: f64, limit: f64) -> Option<(f64, Slot)> {
        // A hole ending at or before `ready` cannot be used.
        let mut k = self.holes.partition_point(|&(_, end)| end <= ready);
        // Hole lengths are differences, rounded: only skip holes surely short.
        let slack = 1e-9 * (1.0 + self.last_end.abs());
        while k < self.holes.len() && self.suffix_max[k] + slack >= cost {
            let (s, e) = self.holes[k];
            let start = s.max(ready);
            if start >= limit {
                return None;
            }
            if start + cost <= e {
                return Some((start, Slot::Hole(k)));
            }
            k += 1;
        }
        let start = ready.max(self.last_end);
        (start < limit).then_some((start, Slot::End))
    }

    /// Records a unit running from `start` to `end` at `slot`.
    fn place(&mut self, start: f64, end: f64, slot: Slot) {
        match slot {
            Slot::End => {
                if start > self.last_end {
                    let len = start - self.last_end;
                    self.holes.push((self.last_end, start));
                    self.suffix_max.push(len);
                    // Earlier suffixes grow until one is already as long.
                    let n = self.suffix_max.len();
                    for m in self.suffix_max[..n - 1].iter_mut().rev() {
                        if *m >= len {
                            break;
                        }
                        *m = len;
                    }
                }
                self.last_end = self.last_end.max(end);
            }
            Slot::Hole(k) => {
                let (s, e) = self.holes[k];
                let pieces: Vec<(f64, f64)> = [(s, start), (end, e)]
                    .into_iter()
                    .filter(|(a, b)| b > a)
                    .collect();
                let last_changed = k + pieces.len().saturating_sub(1);
                self.holes.splice(k..=k, pieces.iter().copied());
                self.suffix_max.splice(k..=k, pieces.iter().map(|_| 0.0));
                // Recompute the suffix maxima from the changed holes back,
                // stopping once an earlier one no longer changes.
                let mut next = self
                    .suffix_max
                    .get(last_changed + 1)
                    .copied()
                    .unwrap_or(0.0);
                for i in (0..=last_changed.min(self.holes.len().saturating_sub(1))).rev() {
                    if self.holes.is_empty() {
                        break;
                    }
                    let (a, b) = self.holes[i];
                    let m = (b - a).max(next);
                    if i < k && m == self.suffix_max[i] {
                        break;
                    }
                    self.suffix_max[i] = m;
                    next = m;
                }
            }
        }
    }
}

/// The smallest float above `x` (for "start ≤ x" as "start < next_up(x)").
fn next_up(x: f64) -> f64 {
    if x.is_finite() && x >= 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        x
    }
}

/// MCP over `units`, with workers busy and nodes held back as `start` says
/// (a plan made mid-run starts from the run's state).
pub(crate) fn mcp_units(units: &Units, comm: &Comm, p: usize, start: &Start) -> Vec<Item> {
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
    let mut timelines: Vec<Timeline> = (0..p)
        .map(|w| Timeline {
            last_end: start.free_at(w),
            ..Timeline::default()
        })
        .collect();
    let mut placed: Vec<Option<(usize, f64)>> = vec![None; n]; // (worker, end)
    let mut items = Vec::with_capacity(n);
    while let Some(Ready { unit: u, .. }) = heap.pop() {
        let cost = units.units[u].cost;
        // Each worker's ready time; then the best start appending at the
        // end of a queue, which bounds how far any hole search must look.
        let release = start.release_of(units.units[u].node);
        let readies: Vec<f64> = (0..p)
            .map(|w| {
                units.preds[u]
                    .iter()
                    .map(|&(q, bytes)| match placed[q] {
                        Some((qw, end)) => end + comm.between(qw, w, bytes),
                        None => 0.0,
                    })
                    .fold(release, f64::max)
            })
            .collect();
        let width = units.units[u].width.min(comm.widest(p));
        if width > 1 {
            let (begin, lanes) = gang(&timelines, &readies, width, comm);
            let end = begin + cost;
            for &w in &lanes {
                timelines[w].place(begin, end, Slot::End);
            }
            placed[u] = Some((lanes[0], end));
            items.push(Item {
                node: units.units[u].node,
                iterations: None,
                worker: lanes[0],
                start: begin,
                end,
                lanes: lanes[1..].to_vec(),
            });
            release_succs(units, u, &mut waiting, &mut heap, cp, &bl);
            continue;
        }
        let mut best: Option<(f64, usize, Slot)> = None; // (start, worker, slot)
        for (w, tl) in timelines.iter().enumerate() {
            let append = readies[w].max(tl.last_end);
            if best.is_none_or(|(s, _, _)| append < s) {
                best = Some((append, w, Slot::End));
            }
        }
        // A hole strictly earlier than the best append wins; among equal
        // starts the lower worker, as a plain scan in worker order would.
        for (w, tl) in timelines.iter().enumerate() {
            let limit = best.map_or(f64::INFINITY, |(s, bw, _)| {
                if w < bw {
                    // Equal start on a lower worker also wins.
                    next_up(s)
                } else {
                    s
                }
            });
            if let Some((start, slot)) = tl.earliest(readies[w], cost, limit) {
                best = Some((start, w, slot));
            }
        }
        let Some((begin, w, slot)) = best else { break };
        let end = begin + cost;
        timelines[w].place(begin, end, slot);
        placed[u] = Some((w, end));
        items.push(Item {
            node: units.units[u].node,
            iterations: units.units[u].iterations.clone(),
            worker: w,
            start: begin,
            end,
            lanes: Vec::new(),
        });
        release_succs(units, u, &mut waiting, &mut heap, cp, &bl);
    }
    items
}

/// Unit `u` is placed: its successors with no other unplaced predecessor
/// join the ready list.
fn release_succs(
    units: &Units,
    u: usize,
    waiting: &mut [usize],
    heap: &mut BinaryHeap<Ready>,
    cp: f64,
    bl: &[f64],
) {
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

/// Where a call `width` workers wide starts earliest: the workers whose
/// queues end first, from when the last of them is free and its inputs
/// have arrived on all. It goes after their last units (a hole would have
/// to be free on every lane at once). The first lane is the one whose
/// queue ends last, where the call would have had to wait anyway.
fn gang(timelines: &[Timeline], readies: &[f64], width: usize, comm: &Comm) -> (f64, Vec<usize>) {
    // A call's threads share one process: under MPI its lanes come from
    // one rank, the rank where the gang can begin soonest.
    let groups: Vec<Vec<usize>> = match comm.network {
        Some(n) => (0..timelines.len())
            .collect::<Vec<_>>()
            .chunks(n.per_rank.max(1))
            .map(<[usize]>::to_vec)
            .collect(),
        None => vec![(0..timelines.len()).collect()],
    };
    let mut best: Option<(f64, Vec<usize>)> = None;
    for mut order in groups {
        order.sort_by(|&a, &b| {
            timelines[a]
                .last_end
                .total_cmp(&timelines[b].last_end)
                .then(a.cmp(&b))
        });
        let mut lanes: Vec<usize> = order[..width.min(order.len())].to_vec();
        let begin = lanes
            .iter()
            .map(|&w| timelines[w].last_end.max(readies[w]))
            .fold(0.0, f64::max);
        lanes.reverse();
        if best.as_ref().is_none_or(|(b, _)| begin < *b) {
            best = Some((begin, lanes));
        }
    }
    best.unwrap_or((0.0, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain search MCP describes: walk the busy intervals from `ready`.
    fn scan(busy: &[(f64, f64)], ready: f64, cost: f64) -> f64 {
        let mut start = ready;
        for &(s, e) in busy.iter().filter(|&&(_, e)| e > ready) {
            if start + cost <= s {
                break;
            }
            start = start.max(e);
        }
        start
    }

    /// Holes with suffix maxima find the same start as walking the busy
    /// intervals, on seeded random placements.
    #[test]
    fn hole_search_matches_the_plain_scan() {
        let mut rng = crate::cost::model::SplitMix(9);
        for _ in 0..50 {
            let mut tl = Timeline::default();
            let mut busy: Vec<(f64, f64)> = Vec::new();
            for _ in 0..200 {
                let ready = rng.range(0.0, tl.last_end + 5.0).floor();
                let cost = rng.range(1.0, 6.0).floor();
                let expected = scan(&busy, ready, cost);
                let (start, slot) = tl
                    .earliest(ready, cost, f64::INFINITY)
                    .expect("no limit: always a start");
                assert_eq!(start, expected, "ready {ready} cost {cost} busy {busy:?}");
                tl.place(start, start + cost, slot);
                let at = busy.partition_point(|&(s, _)| s < start);
                busy.insert(at, (start, start + cost));
                // The suffix maxima stay exact.
                for k in 0..tl.holes.len() {
                    let m = tl.holes[k..].iter().map(|(a, b)| b - a).fold(0.0, f64::max);
                    assert_eq!(tl.suffix_max[k], m);
                }
            }
        }
    }
}
