//! Re-planning in real runs: random workflows whose loops and calls run far
//! from their predictions (spins the priors know nothing of, bodies that
//! grow with the index), run with emcp's adaptive runtime, give the same
//! values as work-stealing and a plan followed as made, and run every loop
//! iteration exactly once.

mod common;

use common::step_values;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use flowcast::diagnostic::SourceFile;
use flowcast::exec::{Event, RunOptions, RunReport};
use flowcast::graph::{self, TaskGraph};
use flowcast::pipeline::{self, Learning};
use flowcast::sched::Scheduler;
use flowcast::workflow::{self, Workflow};

/// A small deterministic generator for the workflows' shapes.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// A random workflow: random vectors, calls reading one or two earlier
/// steps (some spinning), and loops whose bodies draw and spin longer as
/// the index grows, so the plan's even blocks are wrong on purpose
/// (`0 * spin(..)`: a spin's value is the time it took).
fn random_workflow(seed: u64) -> String {
    let mut g = Lcg(seed);
    let mut text = format!(
        "[workflow]\nseed = {}\n\n[steps]\ns0 = \"rnorm(64)\"\n",
        seed + 1
    );
    let n = 5 + g.below(8);
    for k in 1..n {
        let a = g.below(k);
        let b = g.below(k);
        let line = match g.below(4) {
            0 => format!("s{k} = \"rnorm(64) + s{a}\"\n"),
            1 => format!(
                "s{k} = \"sum(s{a}) + mean(s{b}) + 0 * spin(0.00{})\"\n",
                1 + g.below(5)
            ),
            _ => format!(
                "s{k} = {{ for = \"i in 1:{its}\", do = \"sum(s{a}[1:8]) * i + rnorm(1) + 0 * spin(0.00002 * i)\" }}\n",
                its = 40 + g.below(60)
            ),
        };
        text.push_str(&line);
    }
    text
}

fn run(wf: &Workflow, g: &TaskGraph, scheduler: Scheduler) -> (RunReport, Vec<Event>) {
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| events.lock().unwrap().push(e);
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(3, wf.seed.unwrap_or(1));
    let mut learning = Learning::none();
    let f = pipeline::run(wf, g, &mut learning, &opts, scheduler, &sink, &cancel).expect("runs");
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    (f.report, events.into_inner().unwrap())
}

#[test]
fn adaptive_runs_give_the_same_values_and_run_each_iteration_once() {
    let mut replanned = 0;
    for seed in 0..12u64 {
        let text = random_workflow(seed);
        let wf = workflow::parse(SourceFile::new("r.toml", text.as_str())).expect(&text);
        let g = graph::build(&wf).expect(&text);
        let (emcp, events) = run(&wf, &g, Scheduler::Emcp);
        let (dynamic, _) = run(&wf, &g, Scheduler::Dynamic);
        let (mcp, _) = run(&wf, &g, Scheduler::Mcp);
        let want = step_values(&g, &dynamic);
        assert_eq!(step_values(&g, &emcp), want, "{text}");
        assert_eq!(step_values(&g, &mcp), want, "{text}");
        for t in g.tasks.iter().filter(|t| t.iterations.is_some()) {
            let n = t.iterations.as_ref().unwrap().len();
            let mut seen = vec![0; n];
            for e in &events {
                if let Event::Chunk {
                    task, iterations, ..
                } = e
                {
                    if *task == t.id {
                        iterations.clone().for_each(|k| seen[k] += 1);
                    }
                }
            }
            assert!(seen.iter().all(|&k| k == 1), "{}: {seen:?}\n{text}", t.name);
        }
        replanned += usize::from(events.iter().any(|e| matches!(e, Event::Replanned { .. })));
    }
    // The plans were wrong on purpose: the runtime must have re-planned.
    assert!(replanned >= 3, "re-planned in {replanned} of 12 runs");
}
