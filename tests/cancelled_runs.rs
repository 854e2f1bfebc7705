//! Issue 14, item 5: a run cancelled (a save in watch mode, Ctrl-C,
//! quitting the UI) is recorded as `cancelled`, not `failed`: in the
//! history, its exports and views, and outside the models' error figures.

use std::sync::atomic::{AtomicBool, Ordering};

use flowcast::cost::history::{History, RunRecord, TaskRecord};
use flowcast::diagnostic::SourceFile;
use flowcast::exec::{Event, RunOptions};
use flowcast::export::stored::{self, Which};
use flowcast::graph::{self, TaskGraph};
use flowcast::pipeline::{self, Learning};
use flowcast::report::gantt::Status;
use flowcast::sched::Scheduler;
use flowcast::workflow::{self, Workflow};

fn analyse() -> (Workflow, TaskGraph) {
    let text = r#"
[workflow]
name = "stopped"
seed = 3

[steps]
x = "rnorm(100)"
m = "mean(x)"
burn = { for = "k in 1:8", do = "spin(0.25 + 0 * m)" }
after = "sum(burn)"
"#;
    let wf = workflow::parse(SourceFile::new("stopped.toml", text)).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    (wf, g)
}

/// Runs the workflow, cancelling it as `burn` starts when `stop`; the
/// chart is stored when `charted`. Returns the run's id.
fn run(learning: &mut Learning, stop: bool, charted: bool) -> i64 {
    let (wf, g) = analyse();
    let burn = g.task("burn").unwrap().id;
    let cancel = AtomicBool::new(false);
    let sink = |e: Event| {
        if stop && matches!(e, Event::Started { task, .. } if task == burn) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let opts = RunOptions::new(2, 3);
    let finished = if charted {
        flowcast::cli::chart::run_charted(
            &wf,
            &g,
            learning,
            &opts,
            Scheduler::Dynamic,
            &sink,
            &cancel,
            &mut flowcast::cache::Cache::new(None),
            false,
        )
        .map(|(f, _)| f)
    } else {
        pipeline::run(&wf, &g, learning, &opts, Scheduler::Dynamic, &sink, &cancel)
    }
    .expect("runs");
    assert_eq!(finished.report.cancelled, stop);
    assert_eq!(
        finished.report.state(),
        if stop { "cancelled" } else { "done" }
    );
    finished.run_id.expect("recorded")
}

#[test]
fn a_cancelled_run_is_recorded_and_shown_as_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut learning = Learning::open(Some(&path)).unwrap();
    let done = run(&mut learning, false, true);
    let errors_before = {
        let h = History::open(&path).unwrap();
        flowcast::report::models::recent_errors(&h).unwrap()
    };
    let charted = run(&mut learning, true, true);
    let rebuilt = run(&mut learning, true, false);

    let h = History::open(&path).unwrap();
    let states = h.run_states().unwrap();
    assert_eq!(states[&done], "done");
    assert_eq!(states[&charted], "cancelled");
    assert_eq!(states[&rebuilt], "cancelled");

    // `export --run`: from the stored chart and rebuilt from the tasks.
    for id in [charted, rebuilt] {
        let (g, _) = stored::load(&h, Which::Id(id), None).unwrap();
        let status = |name: &str| g.rows.iter().find(|r| r.name == name).unwrap().status();
        assert_eq!(status("x"), Status::Done, "run {id}");
        assert_eq!(status("burn"), Status::Cancelled, "run {id}");
        assert_eq!(status("after"), Status::Cancelled, "run {id}");
    }

    // The models' error figures leave cancelled runs out.
    let errors_after = flowcast::report::models::recent_errors(&h).unwrap();
    assert_eq!(errors_after, errors_before);

    // The UI's history view.
    let (rows, _) = flowcast::tui::store::load(&learning, "stopped")
        .unwrap()
        .unwrap();
    let states: Vec<&str> = rows.iter().map(|r| r.state.as_str()).collect();
    assert_eq!(states, ["done", "cancelled", "cancelled"]);
}

/// Stores written before runs had a state stay readable: a run without one
/// ended `failed` when a task has no time.
#[test]
fn runs_recorded_without_a_state_are_derived_from_their_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    let task = |step: &str, actual: Option<f64>| TaskRecord {
        step: step.into(),
        function: "mean".into(),
        features: vec![1.0],
        kind: "call".into(),
        iterations: None,
        predicted: Some(0.1),
        actual,
        worker: Some(0),
        start: Some(0.0),
        end: actual,
        model: None,
        observed: None,
        blocks: Vec::new(),
        width: None,
        lanes: Vec::new(),
    };
    let record = |tasks| RunRecord {
        id: 0,
        workflow: "old".into(),
        path: "old.toml".into(),
        scheduler: "emcp".into(),
        processors: 1,
        started_at: 0.0,
        predicted_makespan: Some(0.1),
        actual_makespan: Some(0.1),
        tasks,
    };
    let ok = h.record_run(&record(vec![task("a", Some(0.1))])).unwrap();
    let bad = h
        .record_run(&record(vec![task("a", Some(0.1)), task("b", None)]))
        .unwrap();
    let states = h.run_states().unwrap();
    assert_eq!(states[&ok], "done");
    assert_eq!(states[&bad], "failed");
}

/// Runs `step` alone, cancelling the run as the step starts; returns the
/// report.
fn cancelled_at_start(step: &str) -> flowcast::exec::RunReport {
    let text = format!("[workflow]\nname = \"long\"\nseed = 1\n\n[steps]\nlong = '{step}'\n");
    let wf = workflow::parse(SourceFile::new("long.toml", text.as_str())).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    let long = g.task("long").unwrap().id;
    let cancel = AtomicBool::new(false);
    let sink = |e: Event| {
        if matches!(e, Event::Started { task, .. } if task == long) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    flowcast::exec::run(&wf, &g, &RunOptions::new(1, 1), &sink, &cancel).expect("runs")
}

/// Long kernels see Ctrl-C between their outer steps (Householder panels
/// and blocks, divide-and-conquer merges, an odd factor's transform) and
/// stop there; they used to run to the end (minutes at n = 10⁴) first.
/// Each step here is small, so it would have finished with a value.
#[test]
fn long_kernels_stop_when_the_run_is_cancelled() {
    for step in [
        "eigen(crossprod(matrix(rnorm(90000), 300)))",
        "eigen(crossprod(matrix(rnorm(90000), 300)), only.values = TRUE)",
        "eigen(matrix(rnorm(90000), 300))",
        // 5003 is prime: one odd factor, O(n²).
        "convolve(as.numeric(1:5000), c(1, 2, 3, 4), type = \"open\")",
        "fft(as.numeric(1:5003))",
    ] {
        let report = cancelled_at_start(step);
        assert!(report.cancelled, "{step}");
        let outcome = &report.outcomes[0];
        assert!(
            matches!(&outcome.value, Err(e) if e.to_string().contains("cancelled")),
            "{step}: {:?}",
            outcome.value.as_ref().map(|_| "a value")
        );
    }
}
