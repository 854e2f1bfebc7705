//! Issue 14, item 1: one meaning for a task's time in every view. A task's
//! "work" is the sum of its blocks' durations (a loop's blocks may run side
//! by side, or with other tasks between them), and each worker that ran it
//! has a wall span. The headless table, `--json` and the chart agree.

use std::sync::atomic::AtomicBool;

use flowcast::diagnostic::SourceFile;
use flowcast::exec::RunOptions;
use flowcast::graph;
use flowcast::pipeline::Learning;
use flowcast::report::{self, table, units};
use flowcast::sched::Scheduler;
use flowcast::workflow;

#[test]
fn every_view_reports_a_loops_work_and_workers_alike() {
    let text = "[workflow]\nname = \"burn\"\nseed = 1\n[steps]\nburn = { for = \"k in 1:8\", do = \"spin(0.05)\" }\n";
    let wf = workflow::parse(SourceFile::new("burn.toml", text)).unwrap();
    let g = graph::build(&wf).unwrap();
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(2, 1);
    let mut learning = Learning::none();
    let (finished, chart) = flowcast::cli::chart::run_charted(
        &wf,
        &g,
        &mut learning,
        &opts,
        Scheduler::Dynamic,
        &|_| {},
        &cancel,
        &mut flowcast::cache::Cache::new(None),
        false,
    )
    .unwrap();
    let burn = &finished.report.outcomes[0];
    let work = burn.work();
    // Eight spins of 0.05 s each: at least 0.4 s of work, however split.
    assert!(work >= 0.4, "{work}");
    let spans = burn.spans();
    assert_eq!(spans.len(), 2, "both workers ran it: {spans:?}");
    for (_, start, end) in &spans {
        assert!(start <= end && end.as_secs_f64() <= burn.end.as_secs_f64() + 1e-9);
    }

    // The chart (the TUI's table and the exports read it).
    let row = &chart.rows[0];
    let charted = row.work_seconds().unwrap();
    assert!((charted - work).abs() < 1e-9, "{charted} vs {work}");

    // The headless table: every worker, and the work.
    let plan = &finished.plan;
    let rendered = table::render(
        &g,
        &finished.report,
        &plan.predicted_as_ran(&finished.report),
        plan.forecast,
    );
    let header: Vec<&str> = rendered
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let cells: Vec<&str> = rendered
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    let at = |name: &str| cells[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(at("workers"), "0,1", "{rendered}");
    assert_eq!(at("work"), units::seconds(work), "{rendered}");

    // `run --json`.
    let doc = report::run_document(&wf, &g, &finished);
    let step = &doc["steps"]["burn"];
    assert_eq!(step["work_s"].as_f64().unwrap(), work);
    assert_eq!(step["actual_s"], step["work_s"]);
    let workers: Vec<u64> = step["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["worker"].as_u64().unwrap())
        .collect();
    assert_eq!(workers, [0, 1]);
}
