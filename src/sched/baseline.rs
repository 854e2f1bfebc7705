//! The two schedulers every informed plan is measured against: the paper's
//! baseline pR (each loop split evenly, one block per worker; calls in
//! program order to the first free worker) and dynamic work-stealing (ready
//! tasks and small loop chunks taken by whichever worker frees up first).

use std::collections::VecDeque;

use super::mcp::{Unit, Units};
use super::{Dag, Item, Schedule};
use crate::cost::profile::even_blocks;
use crate::cost::Comm;

/// pR: every loop in p even blocks, block k queued on worker k (the loop
/// is "divided evenly by the number of processors", Figure 1(b): a worker
/// busy with a call still gets its block, after the call); other units in
/// program order, each to the worker that becomes free first.
pub(crate) fn baseline(dag: &Dag, comm: &Comm, p: usize) -> Schedule {
    let units = Units::expand(dag, |id| {
        dag.nodes[id].iterations().map(|n| even_blocks(n, p))
    });
    let order = units.topological_order_stable();
    let mut pinned = vec![None; units.units.len()];
    let mut block_of_node = vec![0usize; dag.nodes.len()];
    for (u, unit) in units.units.iter().enumerate() {
        if dag.nodes[unit.node].iterations().is_some() {
            pinned[u] = Some(block_of_node[unit.node] % p);
            block_of_node[unit.node] += 1;
        }
    }
    Schedule::sorted(p, list_schedule(&units, comm, p, order, &pinned))
}

/// Work-stealing, as rayon does it: loops in chunks of about a quarter of
/// an even share, every ready unit in FIFO order to the first free worker.
pub(crate) fn dynamic(dag: &Dag, comm: &Comm, p: usize) -> Schedule {
    let units = Units::expand(dag, |id| {
        dag.nodes[id].iterations().map(|n| even_blocks(n, 4 * p))
    });
    let n = units.units.len();
    let mut waiting: Vec<usize> = units.preds.iter().map(Vec::len).collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&u| waiting[u] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(u) = queue.pop_front() {
        order.push(u);
        for &(s, _) in &units.succs[u] {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                queue.push_back(s);
            }
        }
    }
    let free_choice = vec![None; n];
    Schedule::sorted(p, list_schedule(&units, comm, p, order, &free_choice))
}

impl Units {
    /// A topological order that keeps program order wherever dependences
    /// allow (the smallest ready unit first).
    pub(crate) fn topological_order_stable(&self) -> Vec<usize> {
        let n = self.units.len();
        let mut waiting: Vec<usize> = self.preds.iter().map(Vec::len).collect();
        let mut ready: std::collections::BTreeSet<usize> =
            (0..n).filter(|&u| waiting[u] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(u) = ready.pop_first() {
            order.push(u);
            for &(s, _) in &self.succs[u] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.insert(s);
                }
            }
        }
        order
    }
}

/// Places units in `order` (a topological order), each on its `pinned`
/// worker or else the worker that is free first; it starts when that worker
/// is free and its inputs have arrived. No hole filling: that is what MCP
/// adds.
fn list_schedule(
    units: &Units,
    comm: &Comm,
    p: usize,
    order: Vec<usize>,
    pinned: &[Option<usize>],
) -> Vec<Item> {
    let mut free = vec![0.0f64; p];
    let mut placed: Vec<Option<(usize, f64)>> = vec![None; units.units.len()];
    let mut items = Vec::with_capacity(order.len());
    for u in order {
        let w = pinned[u].filter(|&w| w < p).unwrap_or_else(|| {
            (0..p)
                .min_by(|&a, &b| free[a].total_cmp(&free[b]).then(a.cmp(&b)))
                .unwrap_or(0)
        });
        let ready = units.preds[u]
            .iter()
            .map(|&(q, bytes)| match placed[q] {
                Some((qw, end)) => end + comm.between(qw, w, bytes),
                None => 0.0,
            })
            .fold(0.0, f64::max);
        let Unit {
            node,
            iterations,
            cost,
            ..
        } = &units.units[u];
        let start = free[w].max(ready);
        let end = start + cost;
        free[w] = end;
        placed[u] = Some((w, end));
        items.push(Item {
            node: *node,
            iterations: iterations.clone(),
            worker: w,
            start,
            end,
            lanes: Vec::new(),
        });
    }
    items
}
