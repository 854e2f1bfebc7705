//! The header's ETA (issue 14, item 3): from the plan and the progress of
//! the running tasks; never 0 before the end, never stretched by the pace
//! of a badly predicted finished task, and "?" when nothing is known.

use flowcast::report::gantt::{Actual, Gantt, Row, Slot, Status};
use flowcast::tui::eta::{eta, Eta};

fn slot(worker: usize, start: f64, end: f64) -> Slot {
    Slot {
        worker,
        start,
        end,
        iterations: None,
    }
}

fn row(name: &str, predicted: Vec<Slot>, actual: Option<Actual>) -> Row {
    Row {
        name: name.into(),
        function: "f".into(),
        kind: "call".into(),
        predicted,
        actual,
    }
}

fn ran(worker: usize, start: f64, end: f64, status: Status) -> Option<Actual> {
    Some(Actual {
        worker: Some(worker),
        start,
        end,
        status,
        message: None,
        chunks: Vec::new(),
        lanes: Vec::new(),
        warnings: Vec::new(),
    })
}

fn chart(workers: usize, rows: Vec<Row>) -> Gantt {
    let mut g = Gantt {
        workflow: "w".into(),
        scheduler: "mcp".into(),
        workers,
        rows,
        predicted_makespan: 0.0,
        actual_makespan: None,
        replans: Vec::new(),
        transfers: Vec::new(),
        measuring: Vec::new(),
    };
    g.predicted_makespan = g.horizon();
    g
}

fn about(e: Eta) -> f64 {
    match e {
        Eta::About(s) => s,
        Eta::Unknown => panic!("expected an estimate, got ?"),
    }
}

/// a done, b running (predicted 2 s, 1 s gone), c planned after b.
fn three(now_b_started: f64) -> Gantt {
    chart(
        1,
        vec![
            row("a", vec![slot(0, 0.0, 1.0)], ran(0, 0.0, 1.0, Status::Done)),
            row(
                "b",
                vec![slot(0, 1.0, 3.0)],
                ran(0, now_b_started, now_b_started, Status::Running),
            ),
            row("c", vec![slot(0, 3.0, 4.0)], None),
        ],
    )
}

#[test]
fn eta_is_what_running_tasks_have_left_plus_the_plan_after_them() {
    let g = three(1.0);
    // b: 2 s predicted, 1 s gone; then c's 1 s.
    assert!((about(eta(&g, 2.0, false)) - 2.0).abs() < 1e-9);
}

#[test]
fn eta_never_reads_zero_while_tasks_remain() {
    let g = three(1.0);
    // b has overrun its 2 s: c's second is still to come.
    assert!((about(eta(&g, 10.0, false)) - 1.0).abs() < 1e-9);
    // Only an overrun task left: its end is unknown, not 0.
    let mut last = three(1.0);
    last.rows.pop();
    assert_eq!(eta(&last, 10.0, false), Eta::Unknown);
    assert_ne!(eta(&last, 10.0, false).to_string(), "0s");
}

#[test]
fn a_badly_predicted_finished_task_does_not_stretch_the_eta() {
    // a was predicted 10 ms and took 1 s (×100): b's plan still says 1 s.
    let g = chart(
        1,
        vec![
            row(
                "a",
                vec![slot(0, 0.0, 0.01)],
                ran(0, 0.0, 1.0, Status::Done),
            ),
            row("b", vec![slot(0, 0.01, 1.01)], None),
        ],
    );
    assert!((about(eta(&g, 1.0, false)) - 1.0).abs() < 1e-9);
}

#[test]
fn eta_waits_for_a_pending_task_s_planned_start_on_another_worker() {
    // w1 is idle until c, planned at 3 s (after b's result).
    let mut g = three(1.0);
    g.workers = 2;
    g.rows[2].predicted = vec![slot(1, 3.0, 4.5)];
    assert!((about(eta(&g, 2.0, false)) - 2.5).abs() < 1e-9);
}

#[test]
fn a_running_loop_counts_only_its_blocks_not_yet_done() {
    let mut blocks = vec![slot(0, 0.0, 2.0), slot(1, 0.0, 2.0)];
    blocks[0].iterations = Some((1, 50));
    blocks[1].iterations = Some((51, 100));
    let mut actual = ran(0, 0.0, 0.0, Status::Running);
    if let Some(a) = actual.as_mut() {
        a.chunks.push(Slot {
            worker: 0,
            start: 0.0,
            end: 1.5,
            iterations: Some((1, 50)),
        });
    }
    let g = chart(2, vec![row("loop", blocks, actual)]);
    // The second block: 2 s predicted, 1.6 s gone.
    assert!((about(eta(&g, 1.6, false)) - 0.4).abs() < 1e-9);
}

#[test]
fn without_predictions_the_eta_is_unknown() {
    let g = three(1.0);
    assert_eq!(eta(&g, 2.0, true), Eta::Unknown);
    assert_eq!(eta(&g, 2.0, true).to_string(), "?");
    let zero = chart(1, vec![row("a", vec![slot(0, 0.0, 0.0)], None)]);
    assert_eq!(eta(&zero, 0.5, false), Eta::Unknown);
    assert_eq!(eta(&chart(1, Vec::new()), 0.5, false), Eta::Unknown);
}
