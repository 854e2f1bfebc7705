//! Moldable calls: a call whose kernel can use k workers at once (seed 003).
//! How its time shrinks with k follows the Universal Scalability Law,
//! S(k) = k / (1 + σ(k−1) + κk(k−1)): σ is the share that does not
//! parallelise (Amdahl), κ the cost of the workers keeping each other
//! coherent, which makes S fall again past its peak.
//!
//! Allotment follows MCPA (Bansal et al. 2006): widen the critical path's
//! calls one worker at a time while the critical path outweighs the work
//! divided by p, then list-schedule the k-wide calls (emcp does that).

use super::{Dag, NodeId};

/// A call is widened only when one more worker saves at least this share
/// of its time: a learnt curve that barely rises is noise, and every lane
/// a call holds is one no other task can use.
const MIN_GAIN: f64 = 0.05;

/// When the critical path cannot shrink, paths longer than this share of
/// it are still widened: per-task predictions after training are off by
/// about 10 % (`bench workflows`), so a path within 15 % of the critical
/// one is the critical one in a good share of runs.
const NEAR_CRITICAL: f64 = 0.85;

/// Each node's width (1 for loops and calls that cannot use more): MCPA's
/// allotment phase on `p` workers.
pub fn allot(dag: &Dag, p: usize) -> Vec<usize> {
    allot_up_to(dag, p, p)
}

/// The allotments worth list-scheduling: MCPA's, and MCPA's with no call
/// wider than 1, 2, 4, … workers. MCPA compares the critical path with the
/// work over p, and a call whose speedup flattens can pass that test while
/// the lanes it takes would have served a loop better; which of these
/// packs best, only the list schedule shows. Distinct ones, narrowest first.
pub fn allotments(dag: &Dag, p: usize) -> Vec<Vec<usize>> {
    #[cfg(test)]
    match VARIANT.get() {
        Variant::Shipped => {}
        Variant::Mcpa => return vec![allot_from(dag, p, p, false)],
        Variant::NearOnly => return vec![allot_from(dag, p, p, true)],
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut cap = 1;
    loop {
        let widths = allot_up_to(dag, p, cap.min(p));
        if !out.contains(&widths) {
            out.push(widths);
        }
        if cap >= p {
            return out;
        }
        cap *= 2;
    }
}

/// Which allotment emcp uses, for `allotment_table` (the experiment that
/// chose the shipped one).
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Variant {
    Shipped,
    /// MCPA as published: the critical path alone, no candidates.
    Mcpa,
    /// MCPA with near-critical paths, no candidates.
    NearOnly,
}

#[cfg(test)]
thread_local! {
    pub(crate) static VARIANT: std::cell::Cell<Variant> = const { std::cell::Cell::new(Variant::Shipped) };
}

fn allot_up_to(dag: &Dag, p: usize, cap: usize) -> Vec<usize> {
    allot_from(dag, p, cap, true)
}

/// MCPA's widening with no call past `cap`; `near`: go on to paths within
/// NEAR_CRITICAL of a critical path that cannot shrink.
fn allot_from(dag: &Dag, p: usize, cap: usize, near: bool) -> Vec<usize> {
    let n = dag.nodes.len();
    let mut width = vec![1usize; n];
    if p < 2 || !dag.nodes.iter().any(|node| node.speedup.is_some()) {
        return width;
    }
    let Some(order) = dag.topological_order() else {
        return width;
    };
    let preds = dag.preds();
    // Loops are cut among workers anyway: on the path, a loop counts as its
    // share, as in the lower bound.
    let span = |id: NodeId, k: usize| -> f64 {
        let node = &dag.nodes[id];
        match (node.iterations(), node.speedup) {
            (Some(it), _) => node.cost / it.clamp(1, p) as f64,
            (None, Some(usl)) => node.cost / usl.speedup(k),
            (None, None) => node.cost,
        }
    };
    let area = |id: NodeId, k: usize| -> f64 {
        match dag.nodes[id].speedup {
            Some(usl) if dag.nodes[id].iterations().is_none() => {
                dag.nodes[id].cost / usl.speedup(k) * k as f64
            }
            _ => dag.nodes[id].cost,
        }
    };
    // Each step widens one call by one: at most n·p steps.
    for _ in 0..n * p {
        let mut finish = vec![0.0f64; n];
        let mut via: Vec<Option<NodeId>> = vec![None; n];
        for &i in &order {
            let mut ready = 0.0f64;
            for e in &preds[i] {
                if finish[e.from] > ready {
                    ready = finish[e.from];
                    via[i] = Some(e.from);
                }
            }
            finish[i] = ready + span(i, width[i]);
        }
        let work: f64 = (0..n).map(|i| area(i, width[i])).sum();
        let floor = work / p as f64;
        // Paths from the longest down. When the longest has no call that
        // can widen (a general eigen), MCPA would stop; a path just below
        // it still decides the makespan whenever its calls overrun their
        // predictions, so it is widened down to NEAR_CRITICAL of it.
        // The others are sorted only when the longest has nothing to widen.
        let Some(top) = (0..n).max_by(|&a, &b| finish[a].total_cmp(&finish[b])) else {
            break;
        };
        let mut others: Option<Vec<NodeId>> = None;
        let mut checked = vec![false; n];
        let mut fixed: Option<f64> = None;
        let mut widen: Option<NodeId> = None;
        for k in 0..=n {
            let end = match k {
                0 => top,
                _ => {
                    let sorted = others.get_or_insert_with(|| {
                        let mut v: Vec<NodeId> = (0..n).collect();
                        v.sort_by(|&a, &b| finish[b].total_cmp(&finish[a]));
                        v
                    });
                    match sorted.get(k - 1) {
                        Some(&e) => e,
                        None => break,
                    }
                }
            };
            let len = finish[end];
            if len <= floor || fixed.is_some_and(|f| len <= f * NEAR_CRITICAL) {
                break;
            }
            // The call on this path that one more worker helps most. Nodes
            // already walked are on a longer path with nothing to widen.
            let mut best: Option<(f64, NodeId)> = None;
            let mut at = Some(end);
            while let Some(i) = at.filter(|&i| !checked[i]) {
                checked[i] = true;
                let node = &dag.nodes[i];
                if node.iterations().is_none() && node.speedup.is_some() && width[i] < cap {
                    let now = span(i, width[i]);
                    let gain = now - span(i, width[i] + 1);
                    if gain > MIN_GAIN * now && best.is_none_or(|(g, _)| gain > g) {
                        best = Some((gain, i));
                    }
                }
                at = via[i];
            }
            if let Some((_, id)) = best {
                // MCPA's test is the path against the work before the step;
                // taken after it, a call that scales poorly stops widening
                // once its extra area would make the work the longer bound.
                let k = width[id];
                let grown = work + area(id, k + 1) - area(id, k);
                if grown / (p as f64) < len {
                    widen = Some(id);
                }
                break;
            }
            if !near {
                break;
            }
            fixed.get_or_insert(len);
        }
        let Some(id) = widen else { break };
        width[id] += 1;
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Usl;
    use crate::sched::{Edge, Node};

    fn moldable(name: &str, cost: f64, usl: Usl) -> Node {
        Node {
            speedup: Some(usl),
            ..Node::function(name, cost)
        }
    }

    const LINEAR: Usl = Usl::new(0.0, 0.0);

    #[test]
    fn a_chain_gets_every_worker() {
        let dag = Dag {
            nodes: vec![
                moldable("a", 4.0, LINEAR),
                moldable("b", 4.0, LINEAR),
                moldable("c", 4.0, LINEAR),
            ],
            edges: vec![
                Edge {
                    from: 0,
                    to: 1,
                    bytes: 0.0,
                },
                Edge {
                    from: 1,
                    to: 2,
                    bytes: 0.0,
                },
            ],
        };
        assert_eq!(allot(&dag, 8), vec![8, 8, 8]);
    }

    #[test]
    fn independent_equal_tasks_get_one_each() {
        let dag = Dag {
            nodes: (0..8)
                .map(|i| moldable(&format!("t{i}"), 1.0, LINEAR))
                .collect(),
            edges: Vec::new(),
        };
        assert_eq!(allot(&dag, 8), vec![1; 8]);
        // Four tasks on eight workers: two each.
        let four = Dag {
            nodes: dag.nodes[..4].to_vec(),
            edges: Vec::new(),
        };
        assert_eq!(allot(&four, 8), vec![2; 4]);
    }

    #[test]
    fn a_near_critical_path_is_widened_when_the_critical_one_cannot_be() {
        // serial (10) beside moldable (4) → tail (5): the second path, 9,
        // is within NEAR_CRITICAL of the first, so its call widens until
        // the path is under 8.5: 4/2 + 5 = 7.
        let dag = Dag {
            nodes: vec![
                Node::function("serial", 10.0),
                moldable("dist", 4.0, LINEAR),
                Node::function("hclust", 5.0),
            ],
            edges: vec![Edge {
                from: 1,
                to: 2,
                bytes: 0.0,
            }],
        };
        assert_eq!(allot(&dag, 8), vec![1, 2, 1]);
        // A path well below the critical one is left narrow.
        let mut short = dag.clone();
        short.nodes[2].cost = 2.0;
        assert_eq!(allot(&short, 8), vec![1, 1, 1]);
    }

    #[test]
    fn a_call_that_cannot_scale_stays_narrow() {
        let dag = Dag {
            nodes: vec![
                Node::function("serial", 10.0),
                moldable("flat", 10.0, Usl::new(0.99, 0.0)),
            ],
            edges: Vec::new(),
        };
        assert_eq!(allot(&dag, 16), vec![1, 1]);
    }
}
