//! The loop test drive, end to end: a test-driven loop's first iteration
//! runs once, before the rest of the loop is planned, and the plan uses its
//! extrapolated time.

mod common;

use common::step_values;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use flowcast::cost::Comm;
use flowcast::diagnostic::SourceFile;
use flowcast::exec::{self, Event, RunOptions};
use flowcast::graph::{self, TaskGraph};
use flowcast::pipeline::{self, Learning};
use flowcast::sched::{Policy, Runtime, Scheduler};
use flowcast::workflow::{self, Workflow};

fn analyse(text: &str) -> (Workflow, TaskGraph) {
    let wf = workflow::parse(SourceFile::new("td.toml", text)).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    (wf, g)
}

/// A random matrix, a random vector, a loop that reads both and draws in
/// its body, and a call after the loop: values depend on every stream.
const WORKFLOW: &str = r#"
[workflow]
seed = 7

[steps]
x = "matrix(rnorm(40 * 5), 40, 5)"
y = "rnorm(40)"
s = { for = "i in 1:40", do = "mean(x[i, ] * y[i]) + rnorm(1)" }
w = "wilcox.test(y)"
z = "sum(s) + mean(y)"
"#;

fn run_with(
    wf: &Workflow,
    g: &TaskGraph,
    scheduler: Scheduler,
) -> (pipeline::Finished, Vec<Event>) {
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| events.lock().unwrap().push(e);
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(2, 7);
    let mut learning = Learning::none();
    let f = pipeline::run(wf, g, &mut learning, &opts, scheduler, &sink, &cancel).expect("runs");
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    (f, events.into_inner().unwrap())
}

#[test]
fn first_iteration_runs_once_and_values_do_not_change() {
    let (wf, g) = analyse(WORKFLOW);
    let s = g.tasks.iter().find(|t| t.name == "s").unwrap().id;
    // 40 iterations ≥ p·M = 16: test-driven.
    assert_eq!(pipeline::test_driven(&g, 2, 8), vec![s]);
    let (driven, events) = run_with(&wf, &g, Scheduler::Emcp);
    let chunks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Chunk {
                task, iterations, ..
            } if *task == s => Some(iterations.clone()),
            _ => None,
        })
        .collect();
    // The test drive is a chunk of its own, the first two iterations, first.
    assert_eq!(chunks.first(), Some(&(0..2)));
    let mut seen = vec![0; 40];
    for r in &chunks {
        r.clone().for_each(|k| seen[k] += 1);
    }
    assert!(seen.iter().all(|&k| k == 1), "{seen:?}");
    let started = events
        .iter()
        .filter(|e| matches!(e, Event::Started { task, .. } if *task == s))
        .count();
    assert_eq!(started, 1);

    // The same values as work-stealing and a plan without a test drive.
    let (dynamic, _) = run_with(&wf, &g, Scheduler::Dynamic);
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(2, 7);
    let plan = pipeline::plan(&wf, &g, &mut Learning::none(), 2, Scheduler::Emcp);
    let rt = Runtime::follow(
        &plan.dag,
        &Comm::SHARED_MEMORY,
        &plan.schedule,
        Policy::FOLLOW,
    )
    .unwrap();
    let (plain, _) = exec::run_planned(&wf, &g, rt, &opts, &|_| {}, &cancel).unwrap();
    let want = step_values(&g, &plain);
    assert_eq!(step_values(&g, &driven.report), want);
    assert_eq!(step_values(&g, &dynamic.report), want);
    assert!(!driven.report.failed());
}

#[test]
fn no_test_drive_below_p_times_m() {
    let (_, g) = analyse(WORKFLOW);
    // 40 iterations: below 2·21 = 42 and 3·16 = 48, at 2·20 and 5·8.
    assert!(pipeline::test_driven(&g, 2, 21).is_empty());
    assert!(pipeline::test_driven(&g, 3, 16).is_empty());
    assert_eq!(pipeline::test_driven(&g, 2, 20).len(), 1);
    assert_eq!(pipeline::test_driven(&g, 5, 8).len(), 1);
    // `[workflow] m` raises the threshold: no test drive, no chunk of one.
    let (wf, g) = analyse(&WORKFLOW.replace("seed = 7", "seed = 7\nm = 30"));
    assert_eq!(wf.m, Some(30));
    let (f, events) = run_with(&wf, &g, Scheduler::Emcp);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::Chunk { iterations, .. } if *iterations == (0..2))));
    assert_eq!(f.plan.m, 30);
    // Other schedulers never test-drive.
    let (wf, g) = analyse(WORKFLOW);
    let (_, events) = run_with(&wf, &g, Scheduler::Mcp);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::Chunk { iterations, .. } if *iterations == (0..2))));
}

#[test]
fn the_plan_uses_the_extrapolated_cost() {
    // A loop of known per-iteration time the priors know nothing about.
    let (wf, g) = analyse(
        r#"
[steps]
n = "20"
burn = { for = "k in 1:32", do = "spin(0.005 + n * 0)" }
"#,
    );
    let burn = g.tasks.iter().find(|t| t.name == "burn").unwrap().id;
    let before = pipeline::plan(&wf, &g, &mut Learning::none(), 2, Scheduler::Emcp);
    let (f, events) = run_with(&wf, &g, Scheduler::Emcp);
    // The drive's chunks: the first two iterations, then one at each
    // quarter of the range and the last.
    let drive = flowcast::sched::runtime::drive_ranges(32);
    let sampled: Vec<f64> = events
        .iter()
        .filter_map(|e| match e {
            Event::Chunk {
                task,
                iterations,
                start,
                end,
                ..
            } if *task == burn && drive.contains(iterations) => {
                Some((*end - *start).as_secs_f64() / iterations.len() as f64)
            }
            _ => None,
        })
        .collect();
    assert_eq!(sampled.len(), drive.len(), "a test drive across the range");
    let first = sampled.iter().copied().fold(0.0, f64::max);
    let predicted = f.plan.predicted[burn];
    // No model to blend with: 32 × the mean of the samples (the first
    // chunk's faster iteration, then each single one), no slower than the
    // slowest sample.
    assert!(predicted <= 32.0 * first + 1e-9, "{predicted} vs {first}");
    assert!(predicted >= 32.0 * 0.005, "{predicted}");
    assert_ne!(predicted, before.predicted[burn]);
    assert_eq!(f.plan.dag.nodes[burn].cost, predicted);
    // The followed plan covers every iteration: the test drive and the rest.
    let rest: usize = f
        .plan
        .schedule
        .items
        .iter()
        .filter(|i| i.node == burn)
        .filter_map(|i| i.iterations.as_ref())
        .map(|r| r.len())
        .sum();
    assert_eq!(rest, 32);
    // The loop's work, which the history observes, includes the test
    // drive: all 32 iterations (each runs once: see the first test).
    let busy = f.report.outcomes[burn].busy.as_secs_f64();
    assert!(busy >= 32.0 * 0.005, "{busy}");
}
