//! The scheduler's input: a task graph with costs. Node `i` is task `i`
//! of the [`TaskGraph`]: a call, or a do-all loop that may be cut into
//! blocks of iterations, with its predicted (or measured) seconds; an edge
//! per value read, carrying its bytes.

use std::ops::Range;

use crate::cost::{shape_profile, value_bytes, Predictor, Profile, Usl};
use crate::graph::{TaskGraph, TaskKind};

use super::LoopPolicy;

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
    /// The scheduler's input for a task graph: node `i` is task `i`, with cost
    /// `costs[i]` (predicted seconds; 0 when missing), an edge per predecessor.
    /// Values are shared between threads, so edges carry no bytes.
    pub fn costed(graph: &TaskGraph, costs: &[f64]) -> Dag {
        let nodes = graph
            .tasks
            .iter()
            .map(|t| {
                let cost = costs
                    .get(t.id)
                    .copied()
                    .filter(|c| c.is_finite())
                    .unwrap_or(0.0);
                match &t.iterations {
                    Some(it) if !it.is_empty() => {
                        Node::looped(&t.name, cost, it.len()).with_profile(shape_profile(t))
                    }
                    _ => Node::function(&t.name, cost),
                }
            })
            .collect();
        let edges = graph
            .tasks
            .iter()
            .flat_map(|t| {
                graph.predecessors(t.id).map(move |from| Edge {
                    from,
                    to: t.id,
                    bytes: 0.0,
                })
            })
            .collect();
        Dag { nodes, edges }
    }

    /// The scheduler's input: one node per task with its predicted cost (a
    /// loop as a divisible node of its iterations), one edge per value read,
    /// carrying the value's bytes (8 per number), and a zero-byte edge for the
    /// random-stream order.
    pub fn predicted(graph: &TaskGraph, predictor: &Predictor) -> Dag {
        let nodes = graph
            .tasks
            .iter()
            .map(|t| {
                let cost = predictor.predict(t);
                match (t.kind, &t.iterations) {
                    (TaskKind::Loop, Some(it)) => {
                        Node::looped(&t.name, cost, it.len()).with_profile(shape_profile(t))
                    }
                    _ => Node {
                        speedup: predictor.speedup(t),
                        ..Node::function(&t.name, cost)
                    },
                }
            })
            .collect();
        let mut edges = Vec::new();
        for t in &graph.tasks {
            for &d in &t.deps {
                edges.push(Edge {
                    from: d,
                    to: t.id,
                    bytes: value_bytes(&graph.tasks[d].ty),
                });
            }
            if let Some(r) = t.rng_after.filter(|r| !t.deps.contains(r)) {
                edges.push(Edge {
                    from: r,
                    to: t.id,
                    bytes: 0.0,
                });
            }
        }
        Dag { nodes, edges }
    }

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

    /// No schedule on p workers can finish sooner: max(critical path, work/p),
    /// tightened by release times. A loop is divisible: on the path its
    /// cost counts divided among as many workers as it has iterations, up
    /// to p. A moldable call counts at its fastest width on the path; its
    /// work is least on one worker.
    ///
    /// The work/p term assumes every worker busy from time 0, but nothing
    /// can start before its inputs exist: fig1 at p = 8 leaves six workers
    /// idle while its two random matrices are drawn. So for every task's
    /// earliest start t (its longest path of predecessors, each at its
    /// fastest), the tasks that cannot start before t still need their
    /// work / p after it: t + that is a bound too (at t = 0, work / p).
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
        let bound = fastest.critical_path().max(self.total_work() / p as f64);
        let Some(order) = self.topological_order() else {
            return bound;
        };
        let preds = self.preds();
        let mut earliest = vec![0.0f64; self.nodes.len()];
        for &i in &order {
            earliest[i] = preds[i]
                .iter()
                .map(|e| earliest[e.from] + fastest.nodes[e.from].cost)
                .fold(0.0, f64::max);
        }
        // Latest release first: the work released at or after each t.
        let mut by_release: Vec<usize> = (0..self.nodes.len()).collect();
        by_release.sort_by(|&a, &b| earliest[b].total_cmp(&earliest[a]));
        let mut later_work = 0.0;
        let mut released = bound;
        for &i in &by_release {
            later_work += self.nodes[i].cost;
            released = released.max(earliest[i] + later_work / p as f64);
        }
        released
    }
}
