//! Replaying a schedule: the same queues, in the same order, re-timed under
//! a (possibly different) cost table. This is how a plan made from
//! predictions is judged against measured costs, and how schedules for 8, 16
//! or 32 workers are compared on a 2-core machine.

use super::{Dag, Item, Schedule, Start};
use crate::cost::Comm;

/// Re-times `schedule` with the node costs of `dag`: each worker runs its
/// queue in order; an item starts when its worker is free and every item of
/// every predecessor node has ended (plus communication from other workers).
pub fn simulate(schedule: &Schedule, dag: &Dag, comm: &Comm) -> Schedule {
    simulate_from(schedule, dag, comm, &Start::fresh())
}

/// [`simulate`] from a run's state: each worker free from `start`'s time for
/// it, each node startable no earlier than its release.
pub fn simulate_from(schedule: &Schedule, dag: &Dag, comm: &Comm, start: &Start) -> Schedule {
    let p = schedule.workers.max(1);
    // A moldable call sits in the queue of every worker it holds, and
    // starts once it heads them all.
    let queues: Vec<Vec<&Item>> = (0..p).map(|w| schedule.lane(w)).collect();
    let n_nodes = dag.nodes.len();
    let mut remaining = vec![0usize; n_nodes]; // unfinished items per node
    for it in &schedule.items {
        if it.node < n_nodes {
            remaining[it.node] += 1;
        }
    }
    let preds = dag.preds();
    // Per node: (latest end, and per worker the latest end) once finished.
    let mut ends: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n_nodes];
    let mut head = vec![0usize; p];
    let mut free: Vec<f64> = (0..p).map(|w| start.free_at(w)).collect();
    let mut out = Vec::with_capacity(schedule.items.len());
    let heads = |head: &[usize], w: usize, item: &Item| {
        queues
            .get(w)
            .and_then(|q| q.get(head[w]))
            .is_some_and(|h| std::ptr::eq(*h, item))
    };
    loop {
        let mut best: Option<(f64, usize)> = None;
        for w in 0..p {
            let Some(item) = queues[w].get(head[w]) else {
                continue;
            };
            if item.worker != w || !item.lanes.iter().all(|&l| l < p && heads(&head, l, item)) {
                continue;
            }
            let mut ready = item
                .all_lanes()
                .map(|l| free[l])
                .fold(start.release_of(item.node), f64::max);
            let mut blocked = false;
            for e in preds.get(item.node).into_iter().flatten() {
                if remaining[e.from] > 0 {
                    blocked = true;
                    break;
                }
                for &(qw, end) in &ends[e.from] {
                    let arrive = end + comm.between(qw, w, e.bytes);
                    ready = ready.max(arrive);
                }
            }
            if !blocked && best.is_none_or(|(s, _)| ready < s) {
                best = Some((ready, w));
            }
        }
        let Some((begin, w)) = best else { break };
        let item = queues[w][head[w]];
        let cost = item_cost(dag, item);
        let end = begin + cost;
        for l in item.all_lanes() {
            head[l] += 1;
            free[l] = end;
        }
        if item.node < n_nodes {
            remaining[item.node] -= 1;
            ends[item.node].push((w, end));
        }
        out.push(Item {
            start: begin,
            end,
            ..item.clone()
        });
    }
    // A queue that never became ready means the schedule violated precedence;
    // keep its items at the end rather than lose them.
    for w in 0..p {
        for item in &queues[w][head[w]..] {
            if item.worker != w {
                continue;
            }
            let begin = item
                .all_lanes()
                .map(|l| free.get(l).copied().unwrap_or(0.0))
                .fold(free[w], f64::max);
            let end = begin + item_cost(dag, item);
            for l in item.all_lanes() {
                if let Some(f) = free.get_mut(l) {
                    *f = end;
                }
            }
            out.push(Item {
                start: begin,
                end,
                ..(*item).clone()
            });
        }
    }
    Schedule::sorted(p, out)
}

/// An item's cost: its node's on the item's width, or its share of the loop's.
pub(crate) fn item_cost(dag: &Dag, item: &Item) -> f64 {
    let Some(node) = dag.nodes.get(item.node) else {
        return 0.0;
    };
    match (node.iterations(), &item.iterations) {
        (Some(total), Some(its)) if total > 0 => node.cost * node.profile.share(total, its),
        _ => node.time_on(item.width()),
    }
}
