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
    let opts = RunOptions {
        workers: 2,
        seed: 1,
    };
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
