//! The background runner: a run is planned and run on its own thread and
//! reports back over the channel, a rerun while running cancels and queues,
//! and only one rerun is ever pending.

use std::sync::mpsc;
use std::time::Duration;

use flowcast::diagnostic::SourceFile;
use flowcast::graph::TaskGraph;
use flowcast::sched::Scheduler;
use flowcast::tui::{Action, Runner};
use flowcast::workflow::Workflow;

fn empty() -> (Workflow, TaskGraph) {
    let wf = Workflow {
        file: SourceFile::new("empty.toml", ""),
        name: "empty".into(),
        seed: Some(1),
        processors: None,
        scheduler: None,
        m: None,
        out: None,
        steps: Vec::new(),
        functions: Vec::new(),
    };
    (wf, TaskGraph { tasks: Vec::new() })
}

/// Waits for run `run`'s plan (sent by the run's thread).
fn planned(rx: &mpsc::Receiver<Action>, want: usize) -> flowcast::report::gantt::Gantt {
    loop {
        match rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the run is planned")
        {
            Action::RunPlanned { run, gantt } => {
                assert_eq!(run, want);
                return gantt;
            }
            Action::Planning { run } => assert_eq!(run, want),
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn finished_run(rx: &mpsc::Receiver<Action>) -> usize {
    loop {
        match rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the run reports back")
        {
            Action::RunFinished { run, result, .. } => {
                assert!(result.is_ok());
                return run;
            }
            Action::RunEvent { .. } | Action::PlanGuessed { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn nothing_runs_before_a_workflow_is_loaded() {
    let (tx, _rx) = mpsc::channel();
    let mut r = Runner::new(tx, None, None);
    assert!(r.request(Scheduler::Emcp, 2).is_none());
    assert!(!r.running());
}

#[test]
fn reruns_while_running_queue_at_most_one() {
    let (tx, rx) = mpsc::channel();
    let mut r = Runner::new(tx, None, None);
    let (wf, g) = empty();
    r.set_workflow(wf, g);
    let Some(Action::Planning { run: 1 }) = r.request(Scheduler::Emcp, 2) else {
        panic!("first request starts run 1");
    };
    let gantt = planned(&rx, 1);
    assert_eq!(gantt.workflow, "empty");
    assert_eq!(gantt.scheduler, "emcp");
    assert!(r.running());
    // Until run 1 is reported finished, reruns are queued; the last wins.
    assert!(r.request(Scheduler::Mcp, 2).is_none());
    assert!(r.request(Scheduler::Baseline, 3).is_none());
    assert_eq!(finished_run(&rx), 1);
    let Some(Action::Planning { run: 2 }) = r.finished(1, None) else {
        panic!("the queued rerun starts as run 2");
    };
    let gantt = planned(&rx, 2);
    assert_eq!(gantt.scheduler, "baseline");
    assert_eq!(gantt.workers, 3);
    assert_eq!(finished_run(&rx), 2);
    assert!(r.finished(2, None).is_none(), "only one rerun was pending");
    assert!(!r.running());
}

#[test]
fn a_recorded_run_reports_its_history_id() {
    let dir = tempfile::tempdir().unwrap();
    let learning = flowcast::pipeline::Learning::open(Some(&dir.path().join("h.sqlite"))).unwrap();
    let (tx, rx) = mpsc::channel();
    let mut r = Runner::with_learning(tx, None, None, learning);
    let (wf, g) = empty();
    r.set_workflow(wf, g);
    assert!(r.request(Scheduler::Emcp, 2).is_some());
    planned(&rx, 1);
    assert_eq!(finished_run(&rx), 1);
    let stored = loop {
        match rx.recv_timeout(Duration::from_secs(10)).expect("stored") {
            Action::Stored { run, id } => break (run, id),
            Action::Store { .. } | Action::Note(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    };
    // The first run in a fresh history.
    assert_eq!(stored, (1, 1));
}

/// Waits for the end of run `want` and returns its report.
fn report_of(rx: &mpsc::Receiver<Action>, want: usize) -> flowcast::exec::RunReport {
    loop {
        match rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the run reports back")
        {
            Action::RunFinished { run, result, .. } if run == want => {
                return result.expect("the run ran");
            }
            _ => {}
        }
    }
}

/// Issue 15: the UI keeps values in memory between runs. A run of an
/// unchanged workflow reuses every step; `r` (force) and another
/// scheduler run everything again.
#[test]
fn reruns_reuse_unchanged_steps_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        "[workflow]\nseed = 2\n[steps]\nx = \"rnorm(50)\"\nm = \"mean(x)\"\n",
    )
    .unwrap();
    let (tx, rx) = mpsc::channel();
    let mut r = Runner::new(tx, None, None);
    let (wf, g) = flowcast::pipeline::load_checked(&path).unwrap();
    r.set_workflow(wf, g);
    let run = |r: &mut Runner, scheduler, n: usize| {
        r.request(scheduler, 2);
        let report = report_of(&rx, n);
        r.finished(n, None);
        report
    };
    let first = run(&mut r, Scheduler::Emcp, 1);
    assert_eq!(first.ran_and_reused(), (2, 0));
    let second = run(&mut r, Scheduler::Emcp, 2);
    assert_eq!(second.ran_and_reused(), (0, 2));
    assert_eq!(
        first.outcomes[1].value.as_ref().unwrap(),
        second.outcomes[1].value.as_ref().unwrap()
    );
    // An edit to one step re-runs that step only.
    std::fs::write(
        &path,
        "[workflow]\nseed = 2\n[steps]\nx = \"rnorm(50)\"\nm = \"sum(x)\"\n",
    )
    .unwrap();
    let (wf, g) = flowcast::pipeline::load_checked(&path).unwrap();
    r.set_workflow(wf, g);
    assert_eq!(run(&mut r, Scheduler::Emcp, 3).ran_and_reused(), (1, 1));
    r.force_next();
    assert_eq!(run(&mut r, Scheduler::Emcp, 4).ran_and_reused(), (2, 0));
    assert_eq!(run(&mut r, Scheduler::Dynamic, 5).ran_and_reused(), (2, 0));
    assert_eq!(run(&mut r, Scheduler::Dynamic, 6).ran_and_reused(), (0, 2));
}

/// Issue 14, item 3: with nothing to predict from, the plan's times are
/// placeholders and the UI must not derive an ETA from them.
#[test]
fn a_plan_without_predictions_says_so() {
    let (tx, rx) = mpsc::channel();
    let mut r = Runner::new(tx, None, None);
    let (wf, g) = empty();
    r.set_workflow(wf, g);
    r.request(Scheduler::Emcp, 2);
    planned(&rx, 1);
    let next = rx.recv_timeout(Duration::from_secs(10)).expect("a report");
    assert!(matches!(next, Action::PlanGuessed { run: 1 }), "{next:?}");

    let (tx, rx) = mpsc::channel();
    let predict: flowcast::tui::Predictor =
        std::sync::Arc::new(|g: &TaskGraph| vec![1.0; g.tasks.len()]);
    let mut r = Runner::new(tx, Some(predict), None);
    let (wf, g) = empty();
    r.set_workflow(wf, g);
    r.request(Scheduler::Emcp, 2);
    planned(&rx, 1);
    let next = rx.recv_timeout(Duration::from_secs(10)).expect("a report");
    assert!(!matches!(next, Action::PlanGuessed { .. }), "{next:?}");
}

/// A step that fails at run time is reported as `check` reports a bad
/// file: at its place, so the UI's error line can say where.
#[test]
fn a_failed_step_reports_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        "[workflow]\nseed = 2\n[steps]\nx = \"rnorm(5)\"\nbad = \"solve(matrix(0, 2, 2))\"\n",
    )
    .unwrap();
    let (tx, rx) = mpsc::channel();
    let mut r = Runner::new(tx, None, None);
    let (wf, g) = flowcast::pipeline::load_checked(&path).unwrap();
    r.set_workflow(wf, g);
    r.request(Scheduler::Emcp, 2);
    let failure = loop {
        if let Action::RunFinished { failure, .. } =
            rx.recv_timeout(Duration::from_secs(20)).expect("a report")
        {
            break failure.expect("a failure");
        }
    };
    let line = flowcast::tui::header::one_line(&failure);
    assert!(
        line.ends_with(
            "w.toml:5:8 (step `bad`): Lapack routine dgesv: system is exactly singular: U[1,1] = 0"
        ),
        "{line}"
    );
}
