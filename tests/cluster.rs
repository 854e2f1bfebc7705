//! A run spread over ranks (issue 18), with the ranks as threads talking
//! through queues (`remote::loopback`): the same protocol `--mpi` speaks
//! over MPI, in the default build. `tests/mpi.rs` runs it under mpirun.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::thread::JoinHandle;

use flowcast::cost::Network;
use flowcast::diagnostic::SourceFile;
use flowcast::exec::remote::{self, Cluster};
use flowcast::exec::{self, Event, RunOptions, RunReport, StepError};
use flowcast::graph::TaskGraph;
use flowcast::pipeline::{self, Learning};
use flowcast::sched::Scheduler;
use flowcast::workflow::{self, Workflow};

/// Ranks 1.. serving on threads, and rank 0's view of all of them.
struct Ranks {
    cluster: Cluster,
    servers: Vec<JoinHandle<Result<(), String>>>,
}

fn ranks(n: usize, per_rank: usize) -> Ranks {
    let ts = remote::loopback(n);
    let servers = ts[1..]
        .iter()
        .map(|t| {
            let t = t.clone();
            std::thread::spawn(move || remote::serve(&*t))
        })
        .collect();
    Ranks {
        cluster: Cluster::new(ts[0].clone(), per_rank),
        servers,
    }
}

impl Ranks {
    fn stop(self) {
        self.cluster.shut_down();
        for s in self.servers {
            assert_eq!(s.join().expect("server thread"), Ok(()));
        }
    }
}

/// Runs `wf` on the ranks with `scheduler`; the events as they came.
fn run_on(
    ranks: &Ranks,
    wf: &Workflow,
    graph: &TaskGraph,
    scheduler: Scheduler,
    seed: i64,
) -> (RunReport, Vec<Event>) {
    let mut learning = Learning::none();
    learning.comm.network = Some(Network {
        per_rank: ranks.cluster.per_rank(),
        latency: 0.0,
        per_byte: 0.0,
    });
    let mut opts = RunOptions::new(ranks.cluster.workers(), seed);
    opts.cluster = Some(ranks.cluster.clone());
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| events.lock().unwrap().push(e);
    let cancel = AtomicBool::new(false);
    let f =
        pipeline::run(wf, graph, &mut learning, &opts, scheduler, &sink, &cancel).expect("runs");
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    (f.report, events.into_inner().unwrap())
}

fn local(wf: &Workflow, graph: &TaskGraph, seed: i64) -> RunReport {
    let cancel = AtomicBool::new(false);
    exec::run(wf, graph, &RunOptions::new(2, seed), &|_| {}, &cancel).expect("runs")
}

/// Every value, bit for bit, and every warning, as on one machine.
fn assert_same(wf: &Workflow, graph: &TaskGraph, a: &RunReport, b: &RunReport) {
    for (id, t) in graph.tasks.iter().enumerate() {
        assert_eq!(
            a.outcomes[id].value_bits(),
            b.outcomes[id].value_bits(),
            "{}: step `{}`",
            wf.name,
            t.name
        );
        assert_eq!(
            a.outcomes[id].warnings, b.outcomes[id].warnings,
            "{}: warnings of `{}`",
            wf.name, t.name
        );
    }
}

#[test]
fn values_and_random_streams_equal_a_run_on_one_machine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = ranks(3, 2);
    for file in [
        "tests/fixtures/workflows/closures.toml",
        "workflows/field_trial.toml",
        "workflows/triangular.toml",
    ] {
        let (wf, graph) = pipeline::load_checked(&root.join(file)).expect(file);
        let here = local(&wf, &graph, 11);
        for scheduler in [Scheduler::Baseline, Scheduler::Emcp, Scheduler::Mcp] {
            let (spread, events) = run_on(&r, &wf, &graph, scheduler, 11);
            assert_same(&wf, &graph, &here, &spread);
            if scheduler == Scheduler::Baseline {
                // Baseline deals calls to the first free worker: some land
                // on other ranks, and what they make comes back.
                // A loop's blocks count where they ran, not only its first.
                let remote = spread
                    .outcomes
                    .iter()
                    .filter(|o| o.spans().iter().any(|s| s.0 >= 2))
                    .count();
                assert!(remote > 0, "{file}: nothing ran on ranks 1 and 2");
                assert!(
                    events
                        .iter()
                        .any(|e| matches!(e, Event::Transfer { to: 0, .. })),
                    "{file}: no value came back"
                );
            }
        }
    }
    r.stop();
}

#[test]
fn a_value_crosses_to_a_rank_once() {
    let wf = workflow::parse(SourceFile::new(
        "fan.toml",
        "[workflow]\nseed = 3\n[steps]\nx = \"rnorm(5000)\"\n\
         a = \"mean(x)\"\nb = \"sd(x)\"\nc = \"median(x)\"\nd = \"max(x)\"\n\
         e = \"min(x)\"\nf = \"sum(x)\"\ng = \"var(x)\"\nh = \"IQR(x)\"\n",
    ))
    .unwrap();
    let graph = flowcast::graph::build(&wf).unwrap();
    let r = ranks(2, 1);
    let (report, events) = run_on(&r, &wf, &graph, Scheduler::Baseline, 3);
    assert_same(&wf, &graph, &local(&wf, &graph, 3), &report);
    let mut sent: HashMap<(String, usize), usize> = HashMap::new();
    for e in &events {
        if let Event::Transfer { value, to, .. } = e {
            *sent.entry((value.clone(), *to)).or_default() += 1;
        }
    }
    assert!(sent.values().all(|&n| n == 1), "{sent:?}");
    r.stop();
}

#[test]
fn a_step_failing_on_another_rank_names_the_rank_and_fails_alone() {
    // Baseline deals the three calls to workers 0, 1 and 2 in order: `b`
    // runs on rank 1.
    let wf = workflow::parse(SourceFile::new(
        "fail.toml",
        "[steps]\na = \"sum(1:10)\"\nb = \"solve(matrix(0, 2, 2))\"\nc = \"mean(1:4)\"\nd = \"b + 1\"\n",
    ))
    .unwrap();
    let graph = flowcast::graph::build(&wf).unwrap();
    let r = ranks(3, 1);
    let (report, _) = run_on(&r, &wf, &graph, Scheduler::Baseline, 1);
    let b = &report.outcomes[graph.task("b").unwrap().id];
    assert_eq!(b.worker, Some(1));
    match &b.value {
        Err(StepError::Failed { message, span }) => {
            assert!(message.starts_with("on rank 1: "), "{message}");
            assert!(message.contains("singular"), "{message}");
            assert_eq!(
                &wf.file.text[span.start..span.end],
                "solve(matrix(0, 2, 2))"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        report.outcomes[graph.task("d").unwrap().id].value,
        Err(StepError::Skipped { .. })
    ));
    for ok in ["a", "c"] {
        assert!(report.outcomes[graph.task(ok).unwrap().id].value.is_ok());
    }
    // The ranks serve the next run as if nothing happened.
    let (again, _) = run_on(&r, &wf, &graph, Scheduler::Emcp, 1);
    assert!(again.outcomes[graph.task("c").unwrap().id].value.is_ok());
    r.stop();
}

/// Without the `mpi` feature, `--mpi` says how to get it.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_flowcast"))
        .args(["run", "workflows/quick.toml", "--mpi"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--features mpi"), "{err}");
}
