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

/// The USL's two coefficients for one function and path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Usl {
    pub sigma: f64,
    pub kappa: f64,
}

impl Usl {
    /// Speedup on `k` workers over one.
    pub fn speedup(&self, k: usize) -> f64 {
        let k = k.max(1) as f64;
        let d = 1.0 + self.sigma * (k - 1.0) + self.kappa * k * (k - 1.0);
        if d > 0.0 && d.is_finite() {
            k / d
        } else {
            1.0
        }
    }

    /// The width, at most `max`, that runs fastest.
    pub fn best_width(&self, max: usize) -> usize {
        (1..=max.max(1))
            .max_by(|&a, &b| self.speedup(a).total_cmp(&self.speedup(b)).then(b.cmp(&a)))
            .unwrap_or(1)
    }

    /// Least squares on the USL's linear form, k/S(k) − 1 = σ(k−1) + κk(k−1),
    /// from observed (k, speedup) pairs. With one width above 1 only σ can
    /// be told (κ = 0). `None` without any observation above k = 1.
    pub fn fit(observed: &[(usize, f64)]) -> Option<Usl> {
        let pts: Vec<(f64, f64, f64)> = observed
            .iter()
            .filter(|&&(k, s)| k > 1 && s.is_finite() && s > 0.0)
            .map(|&(k, s)| {
                let k = k as f64;
                (k - 1.0, k * (k - 1.0), k / s - 1.0)
            })
            .collect();
        if pts.is_empty() {
            return None;
        }
        let widths: std::collections::BTreeSet<u64> = pts.iter().map(|p| p.0.to_bits()).collect();
        let sigma_only = |pts: &[(f64, f64, f64)]| {
            let sxx: f64 = pts.iter().map(|p| p.0 * p.0).sum();
            let sxy: f64 = pts.iter().map(|p| p.0 * p.2).sum();
            Usl {
                sigma: (sxy / sxx).clamp(0.0, 1.0),
                kappa: 0.0,
            }
        };
        if widths.len() < 2 {
            return Some(sigma_only(&pts));
        }
        // Normal equations of the two-variable fit without intercept.
        let (mut a, mut b, mut c, mut d, mut e) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x1, x2, y) in &pts {
            a += x1 * x1;
            b += x1 * x2;
            c += x2 * x2;
            d += x1 * y;
            e += x2 * y;
        }
        let det = a * c - b * b;
        if det.abs() <= 1e-12 * a * c {
            return Some(sigma_only(&pts));
        }
        let sigma = (d * c - b * e) / det;
        let kappa = (a * e - b * d) / det;
        if kappa < 0.0 {
            // Contention cannot speed a kernel up: refit σ alone.
            return Some(sigma_only(&pts));
        }
        if sigma < 0.0 {
            let kappa = (e / c).max(0.0);
            return Some(Usl { sigma: 0.0, kappa });
        }
        Some(Usl {
            sigma: sigma.min(1.0),
            kappa,
        })
    }
}

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
    fn the_fit_recovers_sigma_and_kappa() {
        let truth = Usl {
            sigma: 0.12,
            kappa: 0.004,
        };
        let obs: Vec<(usize, f64)> = [1, 2, 4, 8, 16]
            .iter()
            .map(|&k| (k, truth.speedup(k)))
            .collect();
        let fit = Usl::fit(&obs).unwrap();
        assert!((fit.sigma - 0.12).abs() < 1e-9, "{fit:?}");
        assert!((fit.kappa - 0.004).abs() < 1e-9, "{fit:?}");
        // One width: σ alone.
        let fit = Usl::fit(&[(1, 1.0), (4, 2.5)]).unwrap();
        assert_eq!(fit.kappa, 0.0);
        assert!((truth_sigma(4, 2.5) - fit.sigma).abs() < 1e-12);
        assert!(Usl::fit(&[(1, 1.0)]).is_none());
    }

    fn truth_sigma(k: usize, s: f64) -> f64 {
        let k = k as f64;
        (k / s - 1.0) / (k - 1.0)
    }

    #[test]
    fn the_best_width_is_the_peak() {
        let usl = Usl {
            sigma: 0.05,
            kappa: 0.01,
        };
        // S'(k) = 0 at k = sqrt((1 - σ) / κ) ≈ 9.7.
        assert_eq!(usl.best_width(32), 10);
        assert_eq!(usl.best_width(4), 4);
        assert_eq!(LINEAR.best_width(16), 16);
    }

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
