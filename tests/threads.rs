//! A planned run keeps to its workers: no call starts a thread pool of its
//! own behind the plan's back. faer's convenience routines (the singular
//! values of `svd(x, nu = 0, nv = 0)`, among others) ran on rayon's
//! global pool by default; from a planned worker that put a second thread
//! on another worker's core and woke the pool thousands of times a run.
//!
//! This file holds one test, so that nothing else in its process starts
//! rayon's global pool first: its threads, once started, live as long as
//! the process, which is what the test looks for.

use std::sync::atomic::AtomicBool;

use flowcast::diagnostic::SourceFile;
use flowcast::exec::RunOptions;
use flowcast::pipeline::{self, Learning};
use flowcast::sched::Scheduler;

/// This process's threads, as Linux lists them.
fn threads() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

#[test]
fn a_planned_run_of_linear_algebra_leaves_no_pool_behind() {
    let text = "[workflow]\nname = \"pool\"\nseed = 3\n\n[steps]\n\
                x = \"matrix(rnorm(300 * 300), 300)\"\n\
                d = \"svd(x, nu = 0, nv = 0)$d\"\n\
                s = \"svd(x)$d\"\n\
                i = \"solve(x)\"\n\
                e = \"eigen(crossprod(x), only.values = TRUE)$values\"\n\
                q = \"qr(x)$rank\"\n\
                l = { for = \"k in 1:40\", do = \"sum(svd(x[1:(k + 20), 1:20], nu = 0, nv = 0)$d)\" }\n";
    let wf = flowcast::workflow::parse(SourceFile::new("pool.toml", text)).unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut learning = Learning::open(Some(path.as_path())).unwrap();
    let cancel = AtomicBool::new(false);
    let Some(before) = threads() else {
        return; // not Linux: nothing to count
    };
    // One worker: no call runs wide, so no pool is leased for one either.
    for scheduler in [Scheduler::Emcp, Scheduler::Mcp] {
        let f = pipeline::run(
            &wf,
            &g,
            &mut learning,
            &RunOptions::new(1, 1),
            scheduler,
            &|_| {},
            &cancel,
        )
        .expect("runs");
        assert!(!f.report.failed(), "{scheduler:?}: a step failed");
    }
    // The run's worker has ended; a pool started by a call would not have.
    // A scoped thread counts as done when its closure returns, a moment
    // before the kernel removes it, so a loaded machine gets a few seconds
    // for that; a pool's threads never leave.
    let mut after = threads().unwrap_or(before);
    for _ in 0..100 {
        if after <= before {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        after = threads().unwrap_or(before);
    }
    assert_eq!(after, before, "threads outlived the runs");
}
