//! A small task graph, its plan, and a finished run with fixed times, so
//! the exporters and the UI are tested on the same deterministic chart.
#![allow(dead_code)]

use std::time::Duration;

use flowcast::cost::Comm;
use flowcast::exec::Event;
use flowcast::graph::{Task, TaskGraph, TaskKind};
use flowcast::kernels::Type;
use flowcast::report::gantt::Gantt;
use flowcast::sched::{plan, Dag, Scheduler};

fn task(
    id: usize,
    name: &str,
    kind: TaskKind,
    function: &str,
    deps: &[usize],
    iterations: Option<usize>,
) -> Task {
    Task {
        id,
        name: name.into(),
        kind,
        deps: deps.to_vec(),
        rng_after: None,
        rng_skip: 0,
        random: false,
        function: function.into(),
        inner: Vec::new(),
        ty: Type::Null,
        iterations: iterations.map(|n| (1..=n).map(|i| i as f64).collect()),
        labels: None,
        features: Vec::new(),
        path: None,
        symmetric: false,
        work: Default::default(),
        index_work: None,
    }
}

/// x -> (spectrum, pcs, fit); pcs -> top.
pub fn graph() -> TaskGraph {
    TaskGraph {
        tasks: vec![
            task(0, "x", TaskKind::Data, "rnorm", &[], None),
            task(1, "spectrum", TaskKind::Call, "eigen", &[0], None),
            task(2, "pcs", TaskKind::Call, "prcomp", &[0], None),
            task(3, "fit", TaskKind::Call, "lm", &[0], None),
            task(4, "top", TaskKind::Call, "sum", &[2], None),
        ],
    }
}

pub const COSTS: [f64; 5] = [0.5, 2.0, 1.5, 1.0, 0.25];

pub fn planned() -> Gantt {
    let g = graph();
    let s = plan(
        &Dag::costed(&g, &COSTS),
        &Comm::SHARED_MEMORY,
        2,
        Scheduler::Mcp,
    );
    Gantt::planned("demo", "mcp", &g, &s)
}

fn at(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

/// The run's events: everything took 20% longer than planned, on the
/// planned worker, and `fit` failed.
pub fn events(g: &Gantt) -> Vec<Event> {
    let mut out = Vec::new();
    for (task, r) in g.rows.iter().enumerate() {
        let s = &r.predicted[0];
        out.push(Event::Started {
            task,
            worker: s.worker,
            at: at(s.start * 1.2),
        });
        if r.name == "fit" {
            out.push(Event::Failed {
                task,
                worker: s.worker,
                at: at(s.end * 1.2),
                message: "singular fit".into(),
            });
        } else {
            out.push(Event::Finished {
                task,
                worker: s.worker,
                at: at(s.end * 1.2),
            });
        }
    }
    out
}

pub fn finished() -> Gantt {
    let mut g = planned();
    for e in events(&g.clone()) {
        g.apply(&e);
    }
    g.actual_makespan = Some(
        g.rows
            .iter()
            .filter_map(|r| r.actual.as_ref().map(|a| a.end))
            .fold(0.0, f64::max),
    );
    g
}

/// `n` tasks spread over `workers` lanes, each `width` seconds, for the
/// aggregation and speed tests.
pub fn many(n: usize, workers: usize, width: f64) -> Gantt {
    use flowcast::report::gantt::{Actual, Row, Slot, Status};
    let rows = (0..n)
        .map(|i| {
            let w = i % workers;
            let start = (i / workers) as f64 * width;
            Row {
                name: format!("t{i}"),
                function: ["eigen", "svd", "qr"][i % 3].into(),
                kind: "call".into(),
                predicted: vec![Slot {
                    worker: w,
                    start,
                    end: start + width,
                    iterations: None,
                }],
                actual: Some(Actual {
                    worker: Some(w),
                    start,
                    end: start + width * 1.1,
                    status: Status::Done,
                    message: None,
                    chunks: Vec::new(),
                    lanes: Vec::new(),
                    warnings: Vec::new(),
                }),
            }
        })
        .collect();
    let mut g = Gantt {
        workflow: "many".into(),
        scheduler: "emcp".into(),
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

/// `x -> scores`, a loop of 100 iterations planned in two blocks, that ran
/// as two chunks, one per worker.
pub fn looped() -> Gantt {
    let g = TaskGraph {
        tasks: vec![
            task(0, "x", TaskKind::Data, "rnorm", &[], None),
            task(1, "scores", TaskKind::Loop, "mean", &[0], Some(100)),
        ],
    };
    let s = plan(
        &Dag::costed(&g, &[0.5, 2.0]),
        &Comm::SHARED_MEMORY,
        2,
        Scheduler::Emcp,
    );
    let mut chart = Gantt::planned("loop", "emcp", &g, &s);
    chart.workers = 2;
    let events = [
        Event::Started {
            task: 0,
            worker: 0,
            at: at(0.0),
        },
        Event::Finished {
            task: 0,
            worker: 0,
            at: at(0.5),
        },
        Event::Started {
            task: 1,
            worker: 0,
            at: at(0.5),
        },
        Event::Chunk {
            task: 1,
            worker: 0,
            iterations: 0..50,
            start: at(0.5),
            end: at(1.5),
        },
        Event::Chunk {
            task: 1,
            worker: 1,
            iterations: 50..100,
            start: at(0.5),
            end: at(1.6),
        },
        Event::Finished {
            task: 1,
            worker: 0,
            at: at(1.6),
        },
    ];
    for e in &events {
        chart.apply(e);
    }
    chart.actual_makespan = Some(1.6);
    chart
}
