//! Hostile loops: several failing iterations, empty ranges. R runs a loop
//! (a `for`, an `sapply`) in order and stops at its first failing
//! iteration; flowcast runs iterations in any order on any worker, and
//! must still report that iteration's error, whatever the scheduler and p.

mod common;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use flowcast::cost::Profile;
use flowcast::diagnostic::SourceFile;
use flowcast::exec::loop_policy::run_loop;
use flowcast::exec::{Event, RunOptions, RunReport};
use flowcast::graph::{self, TaskGraph};
use flowcast::kernels::Value;
use flowcast::pipeline::{self, Learning};
use flowcast::sched::{LoopKind, LoopPolicy, Scheduler};
use flowcast::workflow::{self, Workflow};

fn analyse(text: &str) -> (Workflow, TaskGraph) {
    let wf = workflow::parse(SourceFile::new("loops.toml", text)).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    (wf, g)
}

fn run_all(wf: &Workflow, g: &TaskGraph, scheduler: Scheduler, p: usize) -> RunReport {
    let sink = |_: Event| {};
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(p, 3);
    pipeline::run(
        wf,
        g,
        &mut Learning::none(),
        &opts,
        scheduler,
        &sink,
        &cancel,
    )
    .expect("runs")
    .report
}

fn outcome(g: &TaskGraph, r: &RunReport, step: &str) -> Result<String, String> {
    let t = g.tasks.iter().find(|t| t.name == step).expect("a step");
    match &r.outcomes[t.id].value {
        Ok(v) => Ok(format!("{v:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// Iterations 7 and 300 fail; 7 late (after a spin), so that on two or
/// more workers 300 fails first in time.
const TWO_FAILURES: &str = r#"
[steps]
x = { for = "i in 1:400", do = "{ if (i == 7) { spin(0.05); stop('seven') }; if (i == 300) stop('three hundred'); i * 2 }" }
y = "sum(x)"
"#;

#[test]
fn the_first_failing_iteration_is_reported_under_every_scheduler() {
    let (wf, g) = analyse(TWO_FAILURES);
    for scheduler in Scheduler::ALL {
        for p in [1, 2, 4] {
            let r = run_all(&wf, &g, scheduler, p);
            let err = outcome(&g, &r, "x").expect_err("x fails");
            assert!(
                err.contains("in iteration 7 (i = 7): seven"),
                "{} p = {p}: {err}",
                scheduler.name()
            );
            assert!(outcome(&g, &r, "y").is_err());
        }
    }
}

#[test]
fn the_first_failing_iteration_is_reported_under_every_loop_policy() {
    let (wf, g) = analyse(TWO_FAILURES);
    let x = g.tasks.iter().find(|t| t.name == "x").unwrap();
    let inputs: HashMap<String, Arc<Value>> = HashMap::new();
    for kind in LoopKind::ALL {
        for threads in [1, 2, 4] {
            let err = run_loop(
                &wf,
                &g,
                x.id,
                &inputs,
                3,
                LoopPolicy { kind, threads },
                &Profile::FLAT,
            )
            .err()
            .expect("fails");
            assert!(
                err.contains("in iteration 7 (i = 7): seven"),
                "{kind:?} x{threads}: {err}"
            );
        }
    }
}

#[test]
fn a_loop_that_fails_nowhere_has_the_same_value_everywhere() {
    let (wf, g) = analyse(
        "[steps]\nx = { for = \"i in 1:400\", do = \"{ if (i == 7) spin(0.02); i * 2 }\" }\n",
    );
    let want = outcome(&g, &run_all(&wf, &g, Scheduler::Dynamic, 1), "x").expect("runs");
    for scheduler in Scheduler::ALL {
        for p in [1, 2, 4] {
            let r = run_all(&wf, &g, scheduler, p);
            assert_eq!(
                outcome(&g, &r, "x").as_ref(),
                Ok(&want),
                "{}",
                scheduler.name()
            );
        }
    }
}

/// A loop over no values (`integer(0)`, `seq_len(0)`) was refused as
/// "loop range must be known"; R's `sapply(integer(0), f)` is `list()`,
/// and so is the loop's value (DESIGN.md: a list, or numbers where every
/// iteration is a scalar; with none, the list).
#[test]
fn a_loop_over_no_values_is_an_empty_list() {
    let (wf, g) = analyse(
        "[steps]\na = { for = \"i in integer(0)\", do = \"i * 2\" }\n\
         b = { for = \"i in seq_len(0)\", do = \"i * 2\" }\n\
         n = \"0\"\nc = { for = \"i in seq_len(n)\", do = \"i * 2\" }\nd = \"length(a) + length(c)\"\n",
    );
    for scheduler in Scheduler::ALL {
        let r = run_all(&wf, &g, scheduler, 2);
        for step in ["a", "b", "c"] {
            let t = g.tasks.iter().find(|t| t.name == step).unwrap();
            let v = r.outcomes[t.id].value.as_ref().expect("runs");
            assert!(
                matches!(&**v, Value::List(l) if l.items.is_empty()),
                "{step}: {v:?}"
            );
        }
        assert_eq!(outcome(&g, &r, "d"), Ok("Num([0.0])".into()));
    }
}
