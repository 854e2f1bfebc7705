//! Algorithm 1 of the paper, extended MCP:
//! 1. choose each loop's granularity from the average function time, the
//!    loop's (test-driven) cost, p and M, and cut the loop into blocks;
//! 2. run MCP on the expanded graph;
//! 3. merge each worker's blocks of one loop into one contiguous chunk of
//!    iterations, and re-time the queues.

use std::collections::HashMap;
use std::ops::Range;

use super::mcp::{mcp_units, Units};
use super::moldable::allotments;
use super::simulate::simulate_from;
use super::{Dag, Item, NodeKind, Schedule, Start};
use crate::cost::Comm;

/// The paper's M: bounds how finely a loop is cut (and, below p·M
/// iterations, disables the test drive).
pub const DEFAULT_M: usize = 8;

/// How a loop is cut before MCP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Granularity {
    /// Into p even blocks: the loop dominates (or is too short to
    /// test-drive, and the functions dominate it).
    Even,
    /// Into blocks of this many iterations, to fill holes between functions.
    Blocks(usize),
    /// Kept whole: functions dominate.
    Whole,
}

/// Phase 1 for one loop of `iterations` iterations predicted to take
/// `loop_time` seconds, among functions averaging `avg_func_time`.
pub fn loop_granularity(
    avg_func_time: f64,
    loop_time: f64,
    iterations: usize,
    p: usize,
    m: usize,
) -> Granularity {
    let (pf, mf) = (p as f64, m as f64);
    if iterations == 0 {
        return Granularity::Even;
    }
    let iter_time = loop_time / iterations as f64;
    if loop_time > avg_func_time * pf * mf {
        Granularity::Even
    } else if avg_func_time < loop_time * mf && iter_time > 0.0 {
        // Also below p·M iterations, where section IV splits evenly: on
        // the 16-core machine, `chain.toml`'s 60 solves cut into 8 blocks
        // of 0.11 s at p = 8 each outranked a 0.08 s path of calls, which
        // then waited for them (1.42x the lower bound).
        let block = ((avg_func_time / mf) / iter_time).ceil().max(1.0) as usize;
        Granularity::Blocks(block.min(iterations))
    } else if iterations < p * m {
        // Too few iterations to test-drive: split evenly (section IV).
        Granularity::Even
    } else {
        Granularity::Whole
    }
}

/// Blocks of `size` iterations' worth of cost each: equal count when the
/// loop is flat, equal predicted cost when its iterations differ.
fn blocks_of(node: &super::Node, n: usize, size: usize) -> Vec<Range<usize>> {
    if node.profile.is_flat() {
        return (0..n.div_ceil(size))
            .map(|k| k * size..((k + 1) * size).min(n))
            .collect();
    }
    node.profile
        .blocks_of_share(n, size as f64 / n.max(1) as f64)
}

pub fn emcp(dag: &Dag, comm: &Comm, p: usize, m: usize) -> Schedule {
    emcp_from(dag, comm, p, m, &Start::fresh())
}

/// [`emcp`] from a run's state: workers busy until `start` says, nodes held
/// back until their release (inputs still being computed).
pub fn emcp_from(dag: &Dag, comm: &Comm, p: usize, m: usize, start: &Start) -> Schedule {
    let functions: Vec<f64> = dag
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Function)
        .map(|n| n.cost)
        .collect();
    let avg = if functions.is_empty() {
        0.0
    } else {
        functions.iter().sum::<f64>() / functions.len() as f64
    };
    // Phase 1.
    let units = Units::expand(dag, |id| {
        let node = &dag.nodes[id];
        let n = node.iterations()?;
        // A loop that stops scaling before p keeps to its workers: one
        // block each, not small blocks MCP could spread over every lane.
        if node.policy.is_some_and(|pol| pol.threads < p) {
            return Some(node.blocks(p));
        }
        match loop_granularity(avg, node.cost, n, p, m) {
            Granularity::Even => Some(node.blocks(p)),
            Granularity::Blocks(size) => Some(blocks_of(node, n, size)),
            Granularity::Whole => None,
        }
    });
    // The moldable calls' allotment, then phases 2 and 3 for each
    // candidate; the shortest schedule wins. On a tie (a path no call can
    // shorten sets the makespan) the widest wins: its near-critical paths
    // are shorter, so an overrun on them costs less.
    let plan_with = |widths: &Vec<usize>| {
        let mut units = units.clone();
        units.mold(dag, widths);
        let items = mcp_units(&units, comm, p, start);
        simulate_from(&merge_loop_blocks(dag, p, items), dag, comm, start)
    };
    let mut best: Option<Schedule> = None;
    for widths in allotments(dag, p) {
        let schedule = plan_with(&widths);
        if best
            .as_ref()
            .is_none_or(|b| schedule.makespan() <= b.makespan() * (1.0 + 1e-9))
        {
            best = Some(schedule);
        }
    }
    best.unwrap_or_else(|| plan_with(&vec![1; dag.nodes.len()]))
}

/// Replaces each worker's blocks of one loop by one item at the place of its
/// first block, holding as many iterations as the blocks did; the chunks
/// are contiguous and ordered by when each worker starts on the loop.
fn merge_loop_blocks(dag: &Dag, p: usize, items: Vec<Item>) -> Schedule {
    let mut first: HashMap<(usize, usize), usize> = HashMap::new(); // (node, worker) → item
                                                                    // Per (node, worker): iterations, and their share of the loop's cost.
    let mut count: HashMap<(usize, usize), (usize, f64)> = HashMap::new();
    let mut keep = Vec::with_capacity(items.len());
    let mut ordered = items;
    ordered.sort_by(|a, b| a.start.total_cmp(&b.start).then(a.worker.cmp(&b.worker)));
    for item in ordered {
        let Some(its) = &item.iterations else {
            keep.push(item);
            continue;
        };
        let key = (item.node, item.worker);
        let share = dag.nodes.get(item.node).map_or(0.0, |n| n.share(its));
        let c = count.entry(key).or_default();
        c.0 += its.len();
        c.1 += share;
        if let std::collections::hash_map::Entry::Vacant(e) = first.entry(key) {
            e.insert(keep.len());
            keep.push(item);
        }
    }
    // Per loop, the chunks still to hand out.
    let mut chunks: HashMap<usize, usize> = HashMap::new();
    for &(node, _) in count.keys() {
        *chunks.entry(node).or_default() += 1;
    }
    // Hand out contiguous ranges per loop, in order of first appearance:
    // as many iterations as the blocks held, or, when the loop's
    // iterations differ, as large a share of its cost.
    let mut next: HashMap<usize, usize> = HashMap::new();
    for item in &mut keep {
        let Some(total) = dag.nodes[item.node].iterations() else {
            continue;
        };
        if item.iterations.is_none() {
            continue;
        }
        let (n, share) = count[&(item.node, item.worker)];
        let left = chunks.entry(item.node).or_default();
        *left = left.saturating_sub(1);
        let start = next.entry(item.node).or_default();
        let profile = &dag.nodes[item.node].profile;
        let end = if *left == 0 {
            total
        } else if profile.is_flat() {
            *start + n
        } else {
            profile.advance(total, *start, share)
        };
        let end = end.clamp(*start, total);
        item.iterations = Some(*start..end);
        *start = end;
    }
    // A worker whose blocks' share rounded to nothing runs nothing of it.
    keep.retain(|i| i.iterations.as_ref().is_none_or(|r| !r.is_empty()));
    Schedule::sorted(p, keep)
}
