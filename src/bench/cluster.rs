//! `mpirun -np N flowcast bench mpi [FILES] [-p K]`: each workflow spread
//! over the job's N ranks of K workers, against the same workflow on rank 0
//! alone with N·K workers (equal total workers), emcp for both, alternating
//! runs after one training run each, with models learnt in one history so
//! both plan from the same predictions; the median makespans, their ratio,
//! and whether every value came out the same. Also the network the ranks
//! measured, beside the paper's.

use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use crate::cost::Network;
use crate::exec::remote::Cluster;
use crate::exec::{RunOptions, RunReport};
use crate::pipeline::{self, Learning};
use crate::sched::Scheduler;

pub struct Options {
    pub files: Vec<PathBuf>,
    /// Workers per rank.
    pub per_rank: usize,
    pub runs: usize,
    pub seed: i64,
    /// The network between ranks, `l` and `b`, as measured at start-up.
    pub latency: f64,
    pub per_byte: f64,
}

/// Runs the comparison on `cluster` (rank 0's view) and returns the table.
pub fn run(cluster: &Cluster, opts: &Options) -> Result<String, String> {
    if let Some(w) = crate::exec::remote::binding_warning(0, opts.per_rank) {
        crate::stdout::errln!("{w}");
    }
    let cluster = cluster.with_per_rank(opts.per_rank);
    let total = cluster.workers();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "flowcast bench mpi: {} ranks x {} workers against one process with {total} workers; emcp, median of {} runs each\n\
         network between ranks (ping-pong): l = {:.3} ms, b = {:.2e} ms/byte (the paper's cluster: l = 0.69 ms, b = 2.6e-6 ms/byte)\n",
        cluster.ranks(),
        opts.per_rank,
        opts.runs,
        opts.latency * 1e3,
        opts.per_byte * 1e3,
    );
    let _ = writeln!(
        out,
        "{:<16} {:>10} {:>10} {:>9}  values",
        "workflow", "one proc", "mpi", "mpi/one"
    );
    let cancel = AtomicBool::new(false);
    for file in &opts.files {
        let (wf, graph) = pipeline::load_checked(file)?;
        let store = std::env::temp_dir().join(format!(
            "flowcast-bench-mpi-{}-{}.sqlite",
            std::process::id(),
            wf.name
        ));
        let _ = std::fs::remove_file(&store);
        let mut learning = Learning::open(Some(&store))?;
        let mut times = [Vec::new(), Vec::new()];
        let mut differ: Vec<String> = Vec::new();
        // The first round trains the models; it is not timed.
        for round in 0..=opts.runs.max(1) {
            let mut reports: Vec<RunReport> = Vec::new();
            for spread in [false, true] {
                learning.comm.network = None;
                let mut run_opts = RunOptions::new(total, opts.seed);
                if spread {
                    learning.comm.network = Some(Network {
                        per_rank: opts.per_rank,
                        latency: opts.latency,
                        per_byte: opts.per_byte,
                    });
                    run_opts.cluster = Some(cluster.clone());
                }
                let f = pipeline::run(
                    &wf,
                    &graph,
                    &mut learning,
                    &run_opts,
                    Scheduler::Emcp,
                    &|_| {},
                    &cancel,
                )?;
                if round > 0 {
                    times[usize::from(spread)].push(f.report.makespan.as_secs_f64());
                }
                reports.push(f.report);
            }
            for (t, (a, b)) in graph
                .tasks
                .iter()
                .zip(reports[0].outcomes.iter().zip(&reports[1].outcomes))
            {
                if a.value_bits() != b.value_bits() && !differ.contains(&t.name) {
                    differ.push(t.name.clone());
                }
            }
        }
        drop(learning);
        let _ = std::fs::remove_file(&store);
        let one = crate::cost::eval::median(&mut times[0]);
        let mpi = crate::cost::eval::median(&mut times[1]);
        let values = if differ.is_empty() {
            "identical".to_string()
        } else {
            format!("differ: {}", differ.join(", "))
        };
        let _ = writeln!(
            out,
            "{:<16} {:>9.3}s {:>9.3}s {:>9.3}  {values}",
            wf.name,
            one,
            mpi,
            mpi / one.max(1e-12)
        );
    }
    Ok(out)
}
