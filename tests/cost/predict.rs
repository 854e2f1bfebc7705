//! The predictor over a task graph: predictions, the scheduler's DAG, and
//! learning from a run report.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use flowcast::cost::speedup::Speedups;
use flowcast::cost::{model_key, observations, task_records, ModelKind, Predictor};
use flowcast::exec::{RunReport, StepError, StepOutcome};
use flowcast::graph::{Task, TaskGraph, TaskKind};
use flowcast::kernels::{Type, Value};
use flowcast::sched::Dag;
use flowcast::sched::NodeKind;

fn task(id: usize, name: &str, kind: TaskKind, function: &str, deps: Vec<usize>, ty: Type) -> Task {
    Task {
        id,
        name: name.into(),
        kind,
        deps,
        rng_after: None,
        rng_skip: 0,
        random: false,
        function: function.into(),
        inner: Vec::new(),
        ty,
        iterations: None,
        labels: None,
        features: Vec::new(),
        path: None,
        symmetric: false,
        work: Default::default(),
        index_work: None,
    }
}

/// The paper's figure 1: a, c random 100×100; f = friedman.test(a);
/// w = wilcox.test(c); b = a 1200-iteration loop of mean(c %*% a[i, ]).
fn fig1() -> TaskGraph {
    let mut a = task(
        0,
        "a",
        TaskKind::Data,
        "matrix",
        vec![],
        Type::mat(100, 100),
    );
    a.random = true;
    let mut c = task(
        1,
        "c",
        TaskKind::Data,
        "matrix",
        vec![],
        Type::mat(100, 100),
    );
    c.random = true;
    c.rng_after = Some(0);
    let mut f = task(2, "f", TaskKind::Call, "friedman.test", vec![0], Type::Any);
    f.features = vec![100.0, 100.0];
    let mut w = task(3, "w", TaskKind::Call, "wilcox.test", vec![1], Type::Any);
    w.features = vec![100.0, 100.0];
    let mut b = task(4, "b", TaskKind::Loop, "mean", vec![0, 1], Type::num(1200));
    b.iterations = Some((1..=1200).map(f64::from).collect());
    b.features = vec![100.0];
    TaskGraph {
        tasks: vec![a, c, f, w, b],
    }
}

fn outcome(worker: usize, start: f64, end: f64) -> StepOutcome {
    StepOutcome {
        value: Ok(Arc::new(Value::Num(vec![1.0]))),
        worker: Some(worker),
        start: Duration::from_secs_f64(start),
        end: Duration::from_secs_f64(end),
        // Unknown: loops fall back to wall time × workers.
        busy: Duration::ZERO,
        path: None,
        blocks: Vec::new(),
        reused: false,
        warnings: Vec::new(),
        lanes: Vec::new(),
    }
}

fn report() -> RunReport {
    let mut failed = outcome(1, 0.0, 0.5);
    failed.value = Err(StepError::Skipped {
        reason: "test".into(),
    });
    RunReport {
        outcomes: vec![
            outcome(0, 0.0, 0.01),
            outcome(1, 0.0, 0.02),
            outcome(0, 0.01, 1.01),
            failed,
            outcome(1, 0.02, 3.02),
        ],
        makespan: Duration::from_secs_f64(3.02),
        workers: 4,
        seed: 42,
        cancelled: false,
        streams: Vec::new(),
    }
}

#[test]
fn the_predicted_dag_has_a_node_per_task_and_edges_with_bytes() {
    let g = fig1();
    let p = Predictor::new(ModelKind::LogLinear);
    let dag = Dag::predicted(&g, &p);
    assert_eq!(dag.nodes.len(), 5);
    assert_eq!(dag.nodes[4].kind, NodeKind::Loop { iterations: 1200 });
    assert_eq!(dag.nodes[2].kind, NodeKind::Function);
    assert!(dag.nodes.iter().all(|n| n.cost > 0.0 && n.cost.is_finite()));
    let bytes = |from, to| {
        dag.edges
            .iter()
            .find(|e| e.from == from && e.to == to)
            .map(|e| e.bytes)
    };
    assert_eq!(bytes(0, 2), Some(80_000.0)); // 8 × 100 × 100
    assert_eq!(bytes(1, 4), Some(80_000.0));
    assert_eq!(bytes(0, 1), Some(0.0)); // random-stream order only
    assert_eq!(dag.edges.len(), 5);
}

#[test]
fn observations_use_per_iteration_work_for_loops() {
    let g = fig1();
    let obs = observations(
        &g,
        &report().measured(),
        &HashMap::new(),
        &Speedups::default(),
    );
    assert_eq!(obs[2], Some(("friedman.test".into(), 1.0)));
    assert_eq!(obs[3], None, "a skipped task teaches nothing");
    // 3 s of wall time on all 4 workers, over 1200 iterations.
    let (key, secs) = obs[4].clone().unwrap();
    assert_eq!(key, "loop:mean");
    assert_eq!(Some(key), model_key(&g.tasks[4]));
    assert!((secs - 3.0 * 4.0 / 1200.0).abs() < 1e-9);
    // When the executor knows only 2 workers ran it:
    let two = observations(
        &g,
        &report().measured(),
        &HashMap::from([(4, 2)]),
        &Speedups::default(),
    );
    assert!((two[4].as_ref().unwrap().1 - 3.0 * 2.0 / 1200.0).abs() < 1e-9);
    let rows = task_records(
        &g,
        &report().measured(),
        &[0.0, 0.0, 0.9, 0.8, 2.5],
        &HashMap::new(),
        &Speedups::default(),
    );
    assert_eq!(rows[4].iterations, Some(1200));
    assert_eq!(rows[4].model.as_deref(), Some("loop:mean"));
    assert_eq!(rows[3].actual, None);
    assert_eq!(rows[0].features, vec![10_000.0]); // a data step: its value's size
}

#[test]
fn predictor_learns_from_a_run_and_uses_test_drives() {
    let g = fig1();
    let mut p = Predictor::new(ModelKind::LogLinear);
    p.observe(&g, &report().measured(), &HashMap::new());
    p.retrain();
    // One observation of friedman.test on these sizes: predicted back.
    assert!((p.predict(&g.tasks[2]) - 1.0).abs() < 1e-9);
    // The loop: per-iteration work × iterations.
    assert!((p.predict(&g.tasks[4]) - 12.0).abs() < 1e-6);
    // A test drive replaces the model (which has too few points to be
    // trusted in a blend): first iteration + 1199 × its time.
    p.set_test_drive("b", 0.02);
    assert!((p.predict(&g.tasks[4]) - 0.02 * 1200.0).abs() < 1e-9);
    p.clear_test_drives();
    assert!((p.predict(&g.tasks[4]) - 12.0).abs() < 1e-6);
}

/// When the executor timed a loop's iterations, their sum is the loop's
/// work, however the iterations were spread over workers.
#[test]
fn a_timed_loop_is_observed_per_iteration_exactly() {
    let graph = fig1();
    let mut r = report();
    r.outcomes[4].busy = Duration::from_secs_f64(2.4);
    let obs = observations(&graph, &r.measured(), &HashMap::new(), &Speedups::default());
    let (key, secs) = obs[4].clone().expect("the loop is observed");
    assert_eq!(key, "loop:mean");
    assert!((secs - 2.4 / 1200.0).abs() < 1e-15, "{secs}");
}

/// A loop that ran at these sizes before is predicted by those runs, not
/// by one cold test-driven iteration (fig1's loop on 2 cores, driven about
/// 1.4x slower than it ran, was predicted 1.29 s for 0.77 s of work).
#[test]
fn a_driven_loop_trusts_its_own_recent_runs_over_one_iteration() {
    use flowcast::cost::StepTimes;
    let g = fig1();
    let b = &g.tasks[4];
    let key = model_key(b).unwrap();
    let mut p = Predictor::new(ModelKind::LogLinear);
    let mut steps = StepTimes::default();
    for s in [0.6e-3, 0.62e-3, 0.58e-3] {
        steps.push("b", key.clone(), b.features.clone(), s, None);
    }
    p.set_steps(steps);
    p.set_test_drive("b", 0.9e-3);
    let per_iteration = p.predict(b) / 1200.0;
    // One iteration at 1.5x: within 6 % of the runs' 0.6 ms (weights 1/0.1²
    // for the runs against 1/0.25² for the drive give 1.5^0.14 = 1.057).
    assert!(
        per_iteration > 0.6e-3 && per_iteration < 0.636e-3,
        "{per_iteration}"
    );
    // Without those runs the drive alone decides.
    let mut fresh = Predictor::new(ModelKind::LogLinear);
    fresh.set_test_drive("b", 0.9e-3);
    assert!((fresh.predict(b) / 1200.0 - 0.9e-3).abs() < 1e-9);
}

/// A moldable call that only ever ran wide: the models' one-worker time is
/// its wide times converted by the assumed speedup, so only a run on one
/// worker can show that speedup wrong. Here `dist` (prior: nearly linear)
/// runs no faster on 4 workers than on one.
#[test]
fn a_call_always_run_wide_learns_its_speedup_from_one_narrow_run() {
    use flowcast::cost::steps::Held;
    use flowcast::cost::{Measured, MeasuredRun, StepTimes};
    let mut d = task(0, "d", TaskKind::Call, "dist", vec![], Type::Any);
    d.features = vec![3000.0, 40.0];
    let graph = TaskGraph { tasks: vec![d] };
    let d = &graph.tasks[0];
    let key = model_key(d).unwrap();
    let prior = flowcast::cost::speedup::prior(&key).unwrap();
    let one = 0.4;
    let ran = |width: usize| MeasuredRun {
        tasks: vec![Measured {
            ok: true,
            reused: false,
            path: None,
            wall: one,
            busy: 0.0,
            work: one,
            width,
            lanes: (1..width).collect(),
            worker: Some(0),
            start: 0.0,
            end: one,
            blocks: Vec::new(),
        }],
        workers: 4,
    };
    // Runs newest first, as `StepTimes::load` reads them: (seconds, width).
    let steps = |runs: &[(f64, u64)]| {
        let mut s = StepTimes::default();
        for &(secs, w) in runs {
            s.push(
                "d",
                key.clone(),
                d.features.clone(),
                secs,
                Some(Held {
                    width: w,
                    wall: one,
                }),
            );
        }
        s
    };
    let mut p = Predictor::new(ModelKind::LogLinear);
    // The first run went 4 wide, converted to one worker by the prior.
    let mut runs = vec![(one * prior.speedup(4), 4)];
    p.observe(&graph, &ran(4), &HashMap::new());
    p.retrain();
    p.set_steps(steps(&runs));
    assert!(
        p.speedup(d).is_none(),
        "never measured on one worker: runs narrow once"
    );
    assert!(p.measuring_speedup(d), "and `plan` says why");
    p.observe(&graph, &ran(1), &HashMap::new());
    p.retrain();
    runs.insert(0, (one, 1));
    p.set_steps(steps(&runs));
    assert_eq!(
        p.speedup(d),
        p.speedups().usl(&key),
        "measured narrow: wide again"
    );
    assert!(!p.measuring_speedup(d));
    // Every wide run now takes as long as the narrow one did.
    for _ in 0..6 {
        p.observe(&graph, &ran(4), &HashMap::new());
        p.retrain();
    }
    let learnt = p.speedups().usl(&key).unwrap();
    assert!(prior.speedup(4) > 3.5, "{prior:?}");
    assert!(learnt.speedup(4) < 1.2, "{learnt:?}");
    // The wide run's time is taken again as one worker's by what is known
    // now: about the narrow run's, not the prior's 3.8x of its wall.
    p.set_steps(steps(&runs));
    let t1 = p.predict(d);
    assert!(t1 > one && t1 < one * 1.2, "{t1}");
    // Learnt for the model: no other narrow run is needed.
    p.set_steps(steps(&[(one, 4)]));
    assert!(p.speedup(d).is_some());
}
