//! Real runs: a microbenchmark written out as a workflow and executed by
//! flowcast's executors at the local core count, once per plan, so the
//! simulated comparison can be checked against wall time on this machine.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use crate::cost::model::{Model, ModelKind};
use crate::cost::Comm;
use crate::cost::Predictor;
use crate::diagnostic::SourceFile;
use crate::exec::{self, RunOptions, RunReport};
use crate::graph::{self, TaskGraph, TaskKind};
use crate::sched::{self, Dag, Scheduler};
use crate::workflow::{self, Workflow};

use super::calls::Function;
use super::micro::Micro;
use super::schedules;
use super::Case;

/// The plans run for real, in this order.
pub const REAL_PLANS: [Scheduler; 4] = [
    Scheduler::Baseline,
    Scheduler::Dynamic,
    Scheduler::Emcp,
    Scheduler::Ideal,
];

/// One benchmark run for real with every plan.
#[derive(Clone, Debug, PartialEq)]
pub struct RealCase {
    pub label: String,
    /// Wall-clock makespans, in [`REAL_PLANS`] order.
    pub actual: [f64; 4],
    /// The same plans' makespans replayed under the measured costs.
    pub simulated: [f64; 4],
}

/// The benchmark as workflow text: data steps, then the tasks in program
/// order with the loop at its place. A dependent task reads the sum of its
/// predecessors' values, or the shared input `x` when it has none.
pub fn workflow_text(micro: &Micro, seed: u64) -> String {
    let kind = if micro.expected_edges.is_some() {
        "dep"
    } else {
        "ind"
    };
    let mut t = format!(
        "[workflow]\nname = \"paper-{kind}-{}\"\nseed = {}\n\n[steps]\n",
        micro.id,
        seed % 1_000_000
    );
    let dependent = micro.expected_edges.is_some();
    if dependent {
        let n = micro.tasks.first().map_or(2, |c| c.n_a);
        let _ = writeln!(t, "x = \"matrix(rnorm({n} * {n}), {n}, {n})\"");
    }
    for (i, c) in micro.tasks.iter().enumerate() {
        if !dependent {
            let _ = writeln!(t, "a{i} = \"{}\"", square(c.n_a));
            if c.function.two_matrices() {
                let _ = writeln!(t, "b{i} = \"{}\"", square(c.n_b));
            }
        }
    }
    if let Some(spec) = &micro.looped {
        let (inputs, _) = spec.workflow("l");
        for (name, expr) in inputs {
            let _ = writeln!(t, "{name} = \"{expr}\"");
        }
    }
    for (i, c) in micro.tasks.iter().enumerate() {
        if i == micro.loop_position {
            push_loop(micro, &mut t);
        }
        let input = if dependent {
            let preds: Vec<String> = micro
                .edges
                .iter()
                .filter(|e| e.1 == i)
                .map(|e| format!("t{}", e.0))
                .collect();
            if preds.is_empty() {
                "x".to_string()
            } else {
                preds.join(" + ")
            }
        } else {
            format!("a{i}")
        };
        let expr = match c.function {
            Function::Invert(_) if input.contains('+') => {
                c.function.expr(&format!("({input})"), "")
            }
            _ => c.function.expr(&input, &format!("b{i}")),
        };
        let _ = writeln!(t, "t{i} = \"{expr}\"");
    }
    if micro.loop_position >= micro.tasks.len() {
        push_loop(micro, &mut t);
    }
    t
}

fn square(n: usize) -> String {
    format!("matrix(rnorm({n} * {n}), {n}, {n})")
}

fn push_loop(micro: &Micro, t: &mut String) {
    if let Some(spec) = &micro.looped {
        let (_, body) = spec.workflow("l");
        let _ = writeln!(
            t,
            "lp = {{ for = \"i in 1:{}\", do = \"{body}\" }}",
            spec.iterations
        );
    }
}

/// The graph's DAG with each benchmark task's cost from `task_cost`, the
/// loop's from `loop_cost`, and data steps' from `data_costs` (by name).
fn costed_dag(
    graph: &TaskGraph,
    task_cost: &dyn Fn(usize) -> f64,
    loop_cost: f64,
    data_costs: &HashMap<String, f64>,
) -> Dag {
    let mut dag = Dag::predicted(graph, &Predictor::new(ModelKind::LogLinear));
    for (node, task) in dag.nodes.iter_mut().zip(&graph.tasks) {
        node.cost = match (task.kind, task.name.strip_prefix('t')) {
            (TaskKind::Loop, _) => loop_cost,
            (TaskKind::Data, _) | (_, None) => data_costs.get(&task.name).copied().unwrap_or(0.0),
            (_, Some(i)) => i.parse().map_or(0.0, task_cost),
        };
    }
    dag
}

fn execute(
    wf: &Workflow,
    graph: &TaskGraph,
    plan: Option<(&Dag, &sched::Schedule)>,
    workers: usize,
) -> Result<RunReport, String> {
    let opts = RunOptions::new(workers, wf.seed.unwrap_or(1));
    let cancel = AtomicBool::new(false);
    let report = match plan {
        // The paper's plans, followed as made.
        Some((dag, s)) => {
            let rt = sched::Runtime::follow(dag, &Comm::SHARED_MEMORY, s, sched::Policy::FOLLOW)?;
            exec::run_planned(wf, graph, rt, &opts, &|_| {}, &cancel)?.0
        }
        None => exec::run(wf, graph, &opts, &|_| {}, &cancel)?,
    };
    if let Some((task, o)) = graph
        .tasks
        .iter()
        .zip(&report.outcomes)
        .find(|(_, o)| o.value.is_err())
    {
        return Err(format!(
            "step `{}` failed: {}",
            task.name,
            o.value
                .as_ref()
                .err()
                .map_or(String::new(), ToString::to_string)
        ));
    }
    Ok(report)
}

/// Runs `case` for real with every plan on `workers` workers. Data steps
/// are costed from the dynamic run, which needs no costs and runs first.
pub fn run_case(
    case: &Case,
    models: &HashMap<String, Model>,
    workers: usize,
    seed: u64,
) -> Result<RealCase, String> {
    let micro = &case.micro;
    let text = workflow_text(micro, seed);
    let label = format!(
        "{} #{}",
        if micro.expected_edges.is_some() {
            "dependent"
        } else {
            "independent"
        },
        micro.id
    );
    let wf = workflow::parse(SourceFile::new(format!("<{label}>"), text)).map_err(|d| {
        format!(
            "{label}: {}",
            d.first().map_or(String::new(), ToString::to_string)
        )
    })?;
    let graph = graph::build(&wf).map_err(|d| {
        format!(
            "{label}: {}",
            d.first().map_or(String::new(), ToString::to_string)
        )
    })?;
    let dynamic = execute(&wf, &graph, None, workers).map_err(|e| format!("{label}: {e}"))?;
    let data_costs: HashMap<String, f64> = graph
        .tasks
        .iter()
        .zip(&dynamic.outcomes)
        .filter(|(t, _)| t.kind == TaskKind::Data)
        .map(|(t, o)| (t.name.clone(), o.busy.as_secs_f64()))
        .collect();
    let measured = &case.measured;
    let loop_total = measured.looped.as_ref().map_or(0.0, |l| l.total);
    let loop_guess = micro
        .looped
        .as_ref()
        .zip(measured.looped.as_ref())
        .map_or(0.0, |(s, l)| l.test_drive * s.iterations as f64);
    let truth = costed_dag(&graph, &|i| measured.tasks[i], loop_total, &data_costs);
    let predicted = costed_dag(
        &graph,
        &|i| {
            let c = &micro.tasks[i];
            models
                .get(&c.function.name())
                .map_or(0.0, |m| m.predict(&c.features()))
        },
        loop_guess,
        &data_costs,
    );
    let comm = Comm::SHARED_MEMORY;
    let mut actual = [0.0; 4];
    let mut simulated = [0.0; 4];
    for (k, &kind) in REAL_PLANS.iter().enumerate() {
        let planned = if kind == Scheduler::Emcp {
            &predicted
        } else {
            &truth
        };
        let schedule = sched::plan(planned, &comm, workers, kind);
        simulated[k] = sched::simulate(&schedule, &truth, &comm).makespan();
        actual[k] = if kind == Scheduler::Dynamic {
            dynamic.makespan.as_secs_f64()
        } else {
            execute(&wf, &graph, Some((planned, &schedule)), workers)
                .map_err(|e| format!("{label}: {e}"))?
                .makespan
                .as_secs_f64()
        };
    }
    Ok(RealCase {
        label,
        actual,
        simulated,
    })
}

/// Improvement of plan `k` over the baseline, in percent.
pub fn improvement(makespans: &[f64; 4], k: usize) -> f64 {
    schedules::improvement(makespans[0], makespans[k])
}
