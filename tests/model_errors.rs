//! `model show` and the Models view (issue 14, item 6): each model's error
//! comes from its own recent runs, one value per run.

use flowcast::cost::history::{History, RunRecord, TaskRecord};
use flowcast::report::models::{recent_errors, RECENT_RUNS};

fn task(step: &str, model: &str, predicted: f64, actual: f64) -> TaskRecord {
    TaskRecord {
        step: step.into(),
        function: model.into(),
        features: vec![10.0],
        kind: "call".into(),
        iterations: None,
        predicted: Some(predicted),
        actual: Some(actual),
        worker: Some(0),
        start: Some(0.0),
        end: Some(actual),
        model: Some(model.into()),
        observed: Some(actual),
        blocks: Vec::new(),
        width: None,
        lanes: Vec::new(),
    }
}

fn run(workflow: &str, tasks: Vec<TaskRecord>) -> RunRecord {
    RunRecord {
        id: 0,
        workflow: workflow.into(),
        path: format!("/tmp/{workflow}.toml"),
        scheduler: "emcp".into(),
        processors: 2,
        started_at: 1.7e9,
        predicted_makespan: Some(1.0),
        actual_makespan: Some(1.0),
        tasks,
    }
}

#[test]
fn a_model_keeps_its_error_after_other_workflows_ran() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    // 12 runs that used eigen, then 15 that did not.
    for i in 0..12 {
        let actual = 1.0 + f64::from(i) / 100.0;
        h.record_run(&run("spectral", vec![task("e", "eigen", 1.0, actual)]))
            .unwrap();
    }
    for _ in 0..15 {
        h.record_run(&run("other", vec![task("m", "mean", 1.0, 2.0)]))
            .unwrap();
    }
    let errors = recent_errors(&h).unwrap();
    let eigen = &errors["eigen"];
    assert_eq!(eigen.len(), RECENT_RUNS);
    // Its last runs, oldest first: runs 3..=12 of the 12.
    assert!((eigen[0] - 0.02).abs() < 1e-9, "{eigen:?}");
    assert!((eigen[RECENT_RUNS - 1] - 0.11).abs() < 1e-9, "{eigen:?}");
    assert_eq!(errors["mean"].len(), RECENT_RUNS);
}

#[test]
fn the_sparkline_has_one_bar_per_run_not_per_task() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    for _ in 0..3 {
        // Two tasks of one model in a run: 1 s predicted each, 1.5 s and
        // 2.5 s taken: the run's error is (4 - 2) / 2.
        let tasks = vec![task("a", "svd", 1.0, 1.5), task("b", "svd", 1.0, 2.5)];
        h.record_run(&run("w", tasks)).unwrap();
    }
    let errors = recent_errors(&h).unwrap();
    assert_eq!(errors["svd"], vec![1.0, 1.0, 1.0]);
}
