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

/// Each node's width (1 for loops and calls that cannot use more): MCPA's
/// allotment phase on `p` workers.
pub fn allot(dag: &Dag, p: usize) -> Vec<usize> {
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
        let Some(mut at) = (0..n).max_by(|&a, &b| finish[a].total_cmp(&finish[b])) else {
            break;
        };
        let path_len = finish[at];
        let work: f64 = (0..n).map(|i| area(i, width[i])).sum();
        if path_len <= work / p as f64 {
            break;
        }
        // The call on the critical path that one more worker helps most.
        let mut best: Option<(f64, NodeId)> = None;
        loop {
            let node = &dag.nodes[at];
            if node.iterations().is_none() && node.speedup.is_some() && width[at] < p {
                let now = span(at, width[at]);
                let gain = now - span(at, width[at] + 1);
                if gain > MIN_GAIN * now && best.is_none_or(|(g, _)| gain > g) {
                    best = Some((gain, at));
                }
            }
            match via[at] {
                Some(q) => at = q,
                None => break,
            }
        }
        let Some((_, id)) = best else { break };
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

    const LINEAR: Usl = Usl {
        sigma: 0.0,
        kappa: 0.0,
    };

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
    fn a_call_that_cannot_scale_stays_narrow() {
        let dag = Dag {
            nodes: vec![
                Node::function("serial", 10.0),
                moldable(
                    "flat",
                    10.0,
                    Usl {
                        sigma: 0.99,
                        kappa: 0.0,
                    },
                ),
            ],
            edges: Vec::new(),
        };
        assert_eq!(allot(&dag, 16), vec![1, 1]);
    }
}
