//! The work-stealing executor on graphs where a task reads a value and also
//! follows it on the random stream (two edges from one task).

use std::sync::atomic::AtomicBool;

use flowcast::diagnostic::SourceFile;
use flowcast::exec::{self, RunOptions};
use flowcast::graph;
use flowcast::workflow;

#[test]
fn a_random_step_reading_a_random_step_runs() {
    let wf = workflow::parse(SourceFile::new(
        "r.toml",
        "[workflow]\nseed = 1\n[steps]\nx = \"sample(10)\"\ny = \"rnorm(length(x))\"\nz = \"sum(y)\"\n",
    ))
    .unwrap();
    let g = graph::build(&wf).unwrap();
    let y = g.task("y").unwrap();
    assert_eq!(g.predecessors(y.id).count(), 2, "a read and the stream");
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(2, 1);
    let r = exec::run(&wf, &g, &opts, &|_| {}, &cancel).unwrap();
    assert!(!r.failed(), "{:?}", r.outcomes);
    let z = r.outcomes[g.task("z").unwrap().id].value.as_ref().unwrap();
    // R 4.2.2: set.seed(1); x <- sample(10); sum(rnorm(length(x))). (A
    // counted `rnorm(10)` for x would be skipped over, not followed.)
    let flowcast::kernels::Value::Num(v) = &**z else {
        panic!("{z:?}")
    };
    assert!((v[0] - 0.866_293_193_222_907_2).abs() < 1e-12, "{v:?}");
}

/// Issue 14, item 2: under `dynamic`, a loop both workers ran was drawn as
/// one bar on one worker. Each block of iterations a worker ran is
/// reported, so the chart shows the loop on every worker that ran it.
#[test]
fn work_stealing_reports_which_worker_ran_each_block_of_a_loop() {
    use std::sync::Mutex;
    let wf = workflow::parse(SourceFile::new(
        "burn.toml",
        "[steps]\nburn = { for = \"k in 1:8\", do = \"spin(0.05)\" }\n",
    ))
    .unwrap();
    let g = graph::build(&wf).unwrap();
    let events = Mutex::new(Vec::new());
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(2, 1);
    let sink = |e: exec::Event| events.lock().unwrap().push(e);
    let r = exec::run(&wf, &g, &opts, &sink, &cancel).unwrap();
    assert!(!r.failed());
    let mut covered = Vec::new();
    let mut workers = std::collections::BTreeSet::new();
    for e in events.into_inner().unwrap() {
        if let exec::Event::Chunk {
            worker,
            iterations,
            start,
            end,
            ..
        } = e
        {
            assert!(start <= end);
            assert!(end <= r.makespan);
            covered.extend(iterations);
            workers.insert(worker);
        }
    }
    covered.sort_unstable();
    assert_eq!(covered, (0..8).collect::<Vec<_>>(), "each iteration once");
    assert_eq!(workers.len(), 2, "both workers ran the loop: {workers:?}");
}
