//! Table I (section VI-B): how long MCP takes against the size of the task
//! graph, on seeded random DAGs of the paper's sizes, p = 8. Only the
//! scheduler is timed (the thread's CPU time, see
//! [`thread_seconds`]): the graph is built before the clock starts.

use crate::cost::model::SplitMix;
use crate::cost::Comm;
use crate::sched::{self, Dag, Edge, Node};

use super::calls::thread_seconds;

/// The graph sizes of Table I.
pub const SIZES: [usize; 10] = [41, 81, 161, 321, 640, 1279, 2553, 5104, 10206, 20410];

/// The paper's MCP seconds for each size, for the table's last column.
pub const PAPER_SECONDS: [f64; 10] = [
    0.001243, 0.003279, 0.004021, 0.009392, 0.024071, 0.073890, 0.213416, 0.751423, 3.701525,
    14.927635,
];

/// A random DAG of `n` nodes: each node reads up to two earlier ones,
/// costs uniform in [1, 10] s. No loops: Table I times MCP on graphs
/// whose loops are already cut.
pub fn random_dag(n: usize, seed: u64) -> Dag {
    let mut rng = SplitMix(seed);
    let mut dag = Dag::default();
    for i in 0..n {
        let cost = rng.range(1.0, 10.0);
        dag.nodes.push(Node::function(&format!("t{i}"), cost));
        for _ in 0..2 {
            if i > 0 && rng.uniform() < 0.7 {
                let from = (rng.next_u64() % i as u64) as usize;
                if !dag
                    .edges
                    .iter()
                    .rev()
                    .take(2)
                    .any(|e| e.from == from && e.to == i)
                {
                    dag.edges.push(Edge {
                        from,
                        to: i,
                        bytes: 8e4,
                    });
                }
            }
        }
    }
    dag
}

/// One row: the graph size, MCP's and emcp's milliseconds (best of a few).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub nodes: usize,
    pub mcp_ms: f64,
    pub emcp_ms: f64,
    pub paper_ms: f64,
}

fn best_ms(reps: usize, mut f: impl FnMut() -> f64) -> f64 {
    let mut best = f64::INFINITY;
    let mut sink = 0.0;
    for _ in 0..reps.max(1) {
        let t = thread_seconds();
        sink += f();
        best = best.min((thread_seconds() - t) * 1e3);
    }
    std::hint::black_box(sink);
    best
}

/// Times both schedulers on every size up to `max_nodes`.
pub fn run(max_nodes: usize, seed: u64) -> Vec<Row> {
    let comm = Comm::local(1e-4, 1e-9);
    SIZES
        .iter()
        .zip(PAPER_SECONDS)
        .filter(|(&n, _)| n <= max_nodes)
        .map(|(&n, paper)| {
            let dag = random_dag(n, seed ^ n as u64);
            let reps = if n > 5000 { 1 } else { 3 };
            Row {
                nodes: n,
                mcp_ms: best_ms(reps, || sched::mcp(&dag, &comm, 8).makespan()),
                emcp_ms: best_ms(reps, || {
                    sched::emcp(&dag, &comm, 8, sched::DEFAULT_M).makespan()
                }),
                paper_ms: paper * 1e3,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_dags_have_the_asked_size_and_no_cycle() {
        let d = random_dag(321, 5);
        assert_eq!(d.nodes.len(), 321);
        assert!(d.topological_order().is_some());
        assert!(d.edges.len() > 321);
    }

    /// `cargo test --release --lib table1 -- --ignored --nocapture`
    #[test]
    #[ignore = "timing: prints the largest row of Table I"]
    fn largest_graph() {
        println!("{:?}", run(20_410, 1).last());
    }
}
