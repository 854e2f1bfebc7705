//! Section VI-E: every microbenchmark planned by baseline, dynamic, emcp
//! (costs predicted by models trained on measured points) and ideal (emcp
//! with the measured costs), each plan replayed under the measured costs for
//! p = 8, 16, 32.

use std::collections::HashMap;

use crate::cost::model::{Model, ModelKind};
use crate::cost::Comm;
use crate::sched::{self, Dag, Edge, Node, Scheduler};

use super::calls::{Call, LoopCost};
use super::micro::Micro;

/// The processor counts of Tables IV and V.
pub const PROCESSORS: [usize; 3] = [8, 16, 32];

/// The plans compared, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plan {
    Baseline,
    Dynamic,
    /// emcp on the default model's predictions.
    Emcp,
    /// emcp on the paper's ANN's predictions.
    EmcpAnn,
    Ideal,
}

impl Plan {
    pub const ALL: [Plan; 5] = [
        Plan::Baseline,
        Plan::Dynamic,
        Plan::Emcp,
        Plan::EmcpAnn,
        Plan::Ideal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Plan::Baseline => "baseline",
            Plan::Dynamic => "dynamic",
            Plan::Emcp => "emcp",
            Plan::EmcpAnn => "emcp (paper ANN)",
            Plan::Ideal => "ideal",
        }
    }
}

/// One microbenchmark's measured costs: per task, and its loop's.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub tasks: Vec<f64>,
    pub looped: Option<LoopCost>,
}

/// Per function name, the calls measured for training, in arrival order.
pub type Pools = HashMap<String, Vec<(Call, f64)>>;

/// Per function name, a model trained on the first `k` points of its pool.
pub fn train(pools: &Pools, kind: ModelKind, k: usize) -> HashMap<String, Model> {
    pools
        .iter()
        .map(|(name, pool)| {
            let mut m = Model::new(kind, name);
            for (call, secs) in pool.iter().take(k) {
                m.observe(&call.features(), *secs);
            }
            m.retrain();
            (name.clone(), m)
        })
        .collect()
}

/// The scheduler's graph of `micro`: nodes in program order (the loop at
/// its position), an edge per dependence carrying an n×n matrix.
pub fn dag(micro: &Micro, task_costs: &[f64], loop_cost: Option<f64>) -> Dag {
    let mut nodes = Vec::new();
    let mut node_of_task = Vec::with_capacity(micro.tasks.len());
    for (i, (call, &cost)) in micro.tasks.iter().zip(task_costs).enumerate() {
        if i == micro.loop_position {
            push_loop(micro, loop_cost, &mut nodes);
        }
        node_of_task.push(nodes.len());
        nodes.push(Node::function(
            &format!("t{i}_{}", call.function.name()),
            cost,
        ));
    }
    if micro.loop_position >= micro.tasks.len() {
        push_loop(micro, loop_cost, &mut nodes);
    }
    let edges = micro
        .edges
        .iter()
        .map(|&(a, b)| Edge {
            from: node_of_task[a],
            to: node_of_task[b],
            bytes: 8.0 * (micro.tasks[a].n_a * micro.tasks[a].n_a) as f64,
        })
        .collect();
    Dag { nodes, edges }
}

fn push_loop(micro: &Micro, cost: Option<f64>, nodes: &mut Vec<Node>) {
    if let (Some(spec), Some(cost)) = (&micro.looped, cost) {
        nodes.push(Node::looped("loop", cost, spec.iterations));
    }
}

/// The measured graph, and the graph `models` predict: each call's model's
/// prediction, and the loop's test drive × its iterations (section IV).
pub fn dags(micro: &Micro, measured: &Measured, models: &HashMap<String, Model>) -> (Dag, Dag) {
    let truth = dag(
        micro,
        &measured.tasks,
        measured.looped.as_ref().map(|l| l.total),
    );
    let predicted: Vec<f64> = micro
        .tasks
        .iter()
        .map(|c| {
            models
                .get(&c.function.name())
                .map_or(0.0, |m| m.predict(&c.features()))
        })
        .collect();
    let loop_guess = micro
        .looped
        .as_ref()
        .zip(measured.looped.as_ref())
        .map(|(spec, l)| l.test_drive * spec.iterations as f64);
    (truth, dag(micro, &predicted, loop_guess))
}

/// Makespan of plan `kind` made from `planned` costs, replayed under
/// `truth` on `p` workers. Baseline and dynamic decide at run time (which
/// worker is free first), so they are planned with the true costs.
pub fn makespan(truth: &Dag, planned: &Dag, p: usize, kind: Plan) -> f64 {
    makespan_with(truth, planned, p, kind, &Comm::SHARED_MEMORY)
}

/// The paper's cluster (section VI): l = 0.69 ms and b = 2.6·10⁻⁶ ms/byte
/// between nodes, one worker per node.
pub const PAPER_CLUSTER: Comm = Comm {
    latency: 0.0,
    per_byte: 0.0,
    network: Some(crate::cost::Network {
        per_rank: 1,
        latency: 0.69e-3,
        per_byte: 2.6e-9,
    }),
};

/// [`makespan`], planned and replayed with communication `comm`.
pub fn makespan_with(truth: &Dag, planned: &Dag, p: usize, kind: Plan, comm: &Comm) -> f64 {
    let comm = *comm;
    let s = match kind {
        Plan::Baseline => sched::plan(truth, &comm, p, Scheduler::Baseline),
        Plan::Dynamic => sched::plan(truth, &comm, p, Scheduler::Dynamic),
        Plan::Emcp | Plan::EmcpAnn => sched::plan(planned, &comm, p, Scheduler::Emcp),
        Plan::Ideal => sched::plan(truth, &comm, p, Scheduler::Ideal),
    };
    sched::simulate(&s, truth, &comm).makespan()
}

/// All plans' makespans of one benchmark for one p, in [`Plan::ALL`] order.
pub fn makespans(
    micro: &Micro,
    measured: &Measured,
    default: &HashMap<String, Model>,
    ann: &HashMap<String, Model>,
    p: usize,
) -> [f64; 5] {
    let (truth, by_default) = dags(micro, measured, default);
    let (_, by_ann) = dags(micro, measured, ann);
    Plan::ALL.map(|kind| {
        let planned = if kind == Plan::EmcpAnn {
            &by_ann
        } else {
            &by_default
        };
        makespan(&truth, planned, p, kind)
    })
}

/// Improvement over the baseline, in percent.
pub fn improvement(baseline: f64, t: f64) -> f64 {
    if baseline > 0.0 {
        100.0 * (baseline - t) / baseline
    } else {
        0.0
    }
}

/// Section VI-E's normalised improvement: the share of the ideal's gain
/// over the baseline that a plan achieves. `None` when the ideal gains
/// nothing (the ratio means nothing then).
pub fn normalised(baseline: f64, t: f64, ideal: f64) -> Option<f64> {
    let possible = baseline - ideal;
    (possible > 1e-9 * baseline.abs().max(1e-12)).then(|| (baseline - t) / possible)
}

/// Best, worst and average improvement, and how many cases improved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub best: f64,
    pub worst: f64,
    pub average: f64,
    pub improved: usize,
    pub cases: usize,
}

pub fn summarise(improvements: &[f64]) -> Summary {
    let n = improvements.len();
    Summary {
        best: improvements
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max),
        worst: improvements.iter().copied().fold(f64::INFINITY, f64::min),
        average: improvements.iter().sum::<f64>() / n.max(1) as f64,
        // A case counts as improved when it gains more than rounding.
        improved: improvements.iter().filter(|&&v| v > 1e-9).count(),
        cases: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_improvement_is_the_share_of_the_ideal_gain() {
        // Baseline 10 s, ideal 6 s: the possible gain is 4 s.
        assert_eq!(normalised(10.0, 7.0, 6.0), Some(0.75));
        assert_eq!(normalised(10.0, 6.0, 6.0), Some(1.0));
        assert_eq!(normalised(10.0, 12.0, 6.0), Some(-0.5));
        // No possible gain: undefined.
        assert_eq!(normalised(10.0, 9.0, 10.0), None);
    }

    #[test]
    fn improvement_and_summary() {
        assert_eq!(improvement(10.0, 8.0), 20.0);
        assert_eq!(improvement(10.0, 11.0), -10.0);
        let s = summarise(&[20.0, -10.0, 5.0, 0.0]);
        assert_eq!(s.best, 20.0);
        assert_eq!(s.worst, -10.0);
        assert_eq!(s.average, 3.75);
        assert_eq!(s.improved, 2);
        assert_eq!(s.cases, 4);
    }
}
