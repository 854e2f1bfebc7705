//! Running a plan with the loop test drive (paper section IV): a loop of at
//! least p·M iterations first runs its first iterations, as soon as what it
//! reads is computed; the measured time, extrapolated to the rest of the loop
//! (and blended with the loop's model, see [`crate::cost::testdrive`]), is
//! the cost emcp partitions the remaining iterations with.
//!
//! The paper times the first iteration alone. Here the first iteration of a
//! loop over a large matrix pays for cold caches and first allocations (fig1:
//! 17 ms against 3 ms for the others, which made the first run's prediction
//! of the loop six times too long), so the test drive runs the first two
//! iterations, in order on one worker, and takes the faster.
//!
//! The run is planned in two stages on one static executor: stage 1 runs
//! every test drive, whatever it depends on, and calls that fill the idle
//! workers meanwhile; stage 2 plans everything not yet run with the test
//! drives' costs. The test drives' values are kept, so each iteration runs
//! once. The price is the paper's "bubble": stage 2 starts only when stage 1
//! has finished.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use super::{Learning, Plan};
use crate::cost;
use crate::exec::{Event, PlannedRun, RunOptions, RunReport};
use crate::graph::{TaskGraph, TaskId};
use crate::sched::{self, Dag, Edge, Item, Node, NodeKind, Schedule};
use crate::workflow::Workflow;

/// The loops emcp test-drives on `p` workers with parameter `m`: those of at
/// least p·M iterations, except one that another such loop reads (it runs
/// whole before that loop's test drive, so there is nothing left to plan).
pub fn test_driven(graph: &TaskGraph, p: usize, m: usize) -> Vec<TaskId> {
    let candidates: Vec<TaskId> = graph
        .tasks
        .iter()
        .filter(|t| {
            t.iterations
                .as_ref()
                .is_some_and(|it| cost::needs_test_drive(it.len(), p, m))
        })
        .map(|t| t.id)
        .collect();
    let upstream = ancestors(graph, &candidates);
    candidates.into_iter().filter(|&c| !upstream[c]).collect()
}

/// Per task, whether one of `ids` depends on it (transitively).
fn ancestors(graph: &TaskGraph, ids: &[TaskId]) -> Vec<bool> {
    let mut seen = vec![false; graph.tasks.len()];
    let mut stack: Vec<TaskId> = ids.iter().flat_map(|&i| graph.predecessors(i)).collect();
    while let Some(t) = stack.pop() {
        if !std::mem::replace(&mut seen[t], true) {
            stack.extend(graph.predecessors(t));
        }
    }
    seen
}

/// Calls that stage 1 runs besides the test drives and their inputs, to
/// fill the workers the inputs leave idle: those the full plan starts before
/// the last input is ready, which do not depend on a test-driven loop, and
/// whose inputs stage 1 computes. Without them a call that could run beside
/// the inputs would wait for stage 2.
fn fillers(
    graph: &TaskGraph,
    planned: &Schedule,
    upstream: &[bool],
    drives: &[TaskId],
) -> Vec<bool> {
    let n = graph.tasks.len();
    let ready_at = planned
        .items
        .iter()
        .filter(|i| upstream.get(i.node).copied().unwrap_or(false))
        .map(|i| i.end)
        .fold(0.0, f64::max);
    let mut start = vec![f64::INFINITY; n];
    for i in planned.items.iter().filter(|i| i.node < n) {
        start[i.node] = start[i.node].min(i.start);
    }
    let mut filler = vec![false; n];
    for t in graph.topological_order() {
        let task = &graph.tasks[t];
        filler[t] = !upstream[t]
            && !drives.contains(&t)
            && task.iterations.is_none()
            && start[t] < ready_at
            && graph.predecessors(t).all(|p| upstream[p] || filler[p]);
    }
    filler
}

/// Iterations a test drive runs: the first warms the caches.
const TEST_DRIVE_ITERATIONS: usize = 2;

/// What a stage runs of one task, and its predicted seconds.
#[derive(Clone, Debug)]
struct Part {
    /// For a loop, the iterations; `None` for a non-loop.
    iterations: Option<Range<usize>>,
    cost: f64,
    /// Run a loop's iterations as one block, in order on one worker.
    one_block: bool,
}

/// Runs `graph` with the loops in `drives` test-driven, planning with emcp
/// and parameter `m`. On return `plan` holds the costs and schedule the run
/// actually followed: stage 1's, then stage 2's from where stage 1 ended.
/// Fails, running nothing, when stage 1's plan does not fit the graph.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    wf: &Workflow,
    graph: &TaskGraph,
    learning: &mut Learning,
    plan: &mut Plan,
    drives: &[TaskId],
    opts: &RunOptions,
    on_event: &(dyn Fn(Event) + Sync),
    cancel: &AtomicBool,
) -> Result<RunReport, String> {
    let p = plan.workers.max(1);
    let n_of = |id: TaskId| graph.tasks[id].iterations.as_ref().map_or(0, Vec::len);
    let mut run = PlannedRun::new(wf, graph, opts, on_event, cancel);

    // Stage 1: the first iterations, and what they read.
    let before = cost::to_dag(graph, &learning.predictor);
    let upstream = ancestors(graph, drives);
    let filler = fillers(graph, &plan.schedule, &upstream, drives);
    let stage1: Vec<Option<Part>> = graph
        .tasks
        .iter()
        .map(|t| {
            let c = before.nodes[t.id].cost;
            if drives.contains(&t.id) {
                let n = n_of(t.id);
                let k = TEST_DRIVE_ITERATIONS.min(n);
                Some(Part {
                    iterations: Some(0..k),
                    cost: c * k as f64 / n.max(1) as f64,
                    one_block: true,
                })
            } else if upstream[t.id] || filler[t.id] {
                Some(Part {
                    iterations: t.iterations.as_ref().map(|it| 0..it.len()),
                    cost: c,
                    one_block: false,
                })
            } else {
                None
            }
        })
        .collect();
    let first = stage_schedule(graph, &before, &stage1, learning, p, plan.m);
    run.run(&first, false)?;
    let stage1_end = run.now().as_secs_f64();

    // Stage 2: the rest, with the test drives' extrapolations.
    let mut driven = Vec::new();
    for &d in drives {
        if !run.complete(d) {
            let secs = run.fastest_iteration(d).as_secs_f64();
            learning
                .predictor
                .set_test_drive(&graph.tasks[d].name, secs);
            driven.push(d);
        }
    }
    let after = cost::to_dag(graph, &learning.predictor);
    learning.predictor.clear_test_drives();
    let stage2: Vec<Option<Part>> = graph
        .tasks
        .iter()
        .map(|t| {
            if run.complete(t.id) {
                return None;
            }
            let c = after.nodes[t.id].cost;
            if driven.contains(&t.id) {
                let n = n_of(t.id);
                let k = TEST_DRIVE_ITERATIONS.min(n);
                Some(Part {
                    iterations: Some(k..n),
                    cost: c * (n - k) as f64 / n.max(1) as f64,
                    one_block: false,
                })
            } else {
                Some(Part {
                    iterations: t.iterations.as_ref().map(|it| 0..it.len()),
                    cost: c,
                    one_block: false,
                })
            }
        })
        .collect();
    let second = stage_schedule(graph, &after, &stage2, learning, p, plan.m);
    let mut items = first.items;
    items.extend(second.items.iter().cloned().map(|mut i| {
        i.start += stage1_end;
        i.end += stage1_end;
        i
    }));
    plan.schedule = Schedule::sorted(p, items);
    plan.predicted = after.nodes.iter().map(|n| n.cost).collect();
    plan.dag = after;
    // Charts drawn from the first plan would show blocks that never run.
    on_event(Event::Replanned {
        schedule: plan.schedule.clone(),
    });
    run.run(&second, false)?;
    Ok(run.finish())
}

/// Plans one stage: the parts in `parts` (by task id), with emcp, as a
/// schedule of the whole graph's task ids and iteration numbers.
fn stage_schedule(
    graph: &TaskGraph,
    full: &Dag,
    parts: &[Option<Part>],
    learning: &Learning,
    p: usize,
    m: usize,
) -> Schedule {
    let (dag, origin) = stage_dag(graph, full, parts);
    let s = sched::emcp(&dag, &learning.comm, p, m);
    let items = s
        .items
        .into_iter()
        .map(|i| {
            let (task, block) = origin[i.node].clone();
            Item {
                node: task,
                iterations: match (i.iterations, block) {
                    (Some(r), Some(b)) => Some(r.start + b.start..r.end + b.start),
                    (None, Some(b)) => Some(b),
                    (r, None) => r,
                },
                ..i
            }
        })
        .collect();
    Schedule {
        workers: s.workers,
        items,
    }
}

/// The task a stage's node stands for and, for a loop, its iterations.
type Origin = (TaskId, Option<Range<usize>>);

/// The DAG of one stage's parts, and per node the task it stands for and,
/// for a loop, its iterations in this stage (a loop run as one block is a
/// function node). Edges from tasks outside the stage are dropped: their
/// values exist already.
fn stage_dag(graph: &TaskGraph, full: &Dag, parts: &[Option<Part>]) -> (Dag, Vec<Origin>) {
    let mut index = vec![None; graph.tasks.len()];
    let mut nodes = Vec::new();
    let mut origin = Vec::new();
    for (id, part) in parts.iter().enumerate() {
        let Some(part) = part else { continue };
        let name = &full.nodes[id].name;
        index[id] = Some(nodes.len());
        let node = match (&part.iterations, &full.nodes[id].kind) {
            (Some(r), NodeKind::Loop { .. }) => {
                origin.push((id, Some(r.clone())));
                if part.one_block {
                    Node::function(name, part.cost)
                } else {
                    Node::looped(name, part.cost, r.len())
                }
            }
            _ => {
                origin.push((id, None));
                Node::function(name, part.cost)
            }
        };
        nodes.push(node);
    }
    let edges = full
        .edges
        .iter()
        .filter_map(|e| {
            Some(Edge {
                from: index[e.from]?,
                to: index[e.to]?,
                bytes: e.bytes,
            })
        })
        .collect();
    (Dag { nodes, edges }, origin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::SourceFile;

    fn item(node: TaskId, worker: usize, start: f64, end: f64) -> Item {
        Item {
            node,
            iterations: None,
            worker,
            start,
            end,
        }
    }

    #[test]
    fn calls_planned_before_the_inputs_are_ready_fill_stage_1() {
        let wf = crate::workflow::parse(SourceFile::new(
            "f.toml",
            "[steps]\na = \"rnorm(100)\"\nc = \"rnorm(100)\"\nf = \"sum(a)\"\n\
             w = \"sum(c)\"\nb = { for = \"i in 1:100\", do = \"a[i] * c[i]\" }\n\
             after = \"sum(b)\"\nlate = \"sum(f)\"\n",
        ))
        .unwrap();
        let g = crate::graph::build(&wf).unwrap();
        let id = |n: &str| g.task(n).unwrap().id;
        let drives = test_driven(&g, 2, 8);
        assert_eq!(drives, vec![id("b")]);
        let upstream = ancestors(&g, &drives);
        assert!(upstream[id("a")] && upstream[id("c")] && !upstream[id("f")]);
        // a then c on worker 0 (ready at 2); f fits beside c, w and late
        // start when c is done, after depends on the loop.
        let mut b = item(id("b"), 0, 2.0, 4.0);
        b.iterations = Some(0..100);
        let planned = Schedule::sorted(
            2,
            vec![
                item(id("a"), 0, 0.0, 1.0),
                item(id("c"), 0, 1.0, 2.0),
                item(id("f"), 1, 1.0, 1.5),
                item(id("late"), 1, 2.5, 2.6),
                item(id("w"), 1, 2.0, 2.5),
                b,
                item(id("after"), 0, 4.0, 4.1),
            ],
        );
        let filler = fillers(&g, &planned, &upstream, &drives);
        let names: Vec<&str> = g
            .tasks
            .iter()
            .filter(|t| filler[t.id])
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(names, vec!["f"]);
    }
}
