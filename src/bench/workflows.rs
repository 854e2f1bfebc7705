//! `flowcast bench workflows`: real makespans of emcp against work-stealing
//! (`dynamic`) on whole workflows, measured in one process on one machine.
//!
//! Each workflow first runs `warmup` times with emcp so the cost models
//! have learnt it (a fresh history of its own, deleted afterwards); then
//! emcp and dynamic alternate, so drifting machine load hits both alike.
//! Reported: the median real makespan of each, their ratio, and emcp's
//! makespan prediction error run by run (warm-up runs included), which
//! shows how fast the models learn.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::exec::RunOptions;
use crate::pipeline::{self, Learning};
use crate::sched::Scheduler;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    pub files: Vec<PathBuf>,
    /// Measured runs per scheduler.
    pub runs: usize,
    /// Training runs before measuring.
    pub warmup: usize,
    pub workers: usize,
    pub seed: i64,
}

/// One workflow's measurements.
#[derive(Clone, Debug)]
pub struct Measured {
    pub workflow: String,
    pub emcp: Vec<f64>,
    pub dynamic: Vec<f64>,
    /// emcp's |predicted − actual| / actual makespan, in run order.
    pub emcp_error: Vec<f64>,
}

impl Measured {
    pub fn ratio(&self) -> f64 {
        median(&self.emcp) / median(&self.dynamic)
    }
}

pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// Measures one workflow file.
pub fn measure(path: &Path, opts: &Options) -> Result<Measured, String> {
    let wf = crate::workflow::load(path).map_err(|d| diagnostics(&d))?;
    let graph = crate::graph::build(&wf).map_err(|d| diagnostics(&d))?;
    let store = std::env::temp_dir().join(format!(
        "flowcast-bench-{}-{}.sqlite",
        std::process::id(),
        wf.name
    ));
    let _ = std::fs::remove_file(&store);
    let result = (|| {
        let mut learning = Learning::open(Some(&store))?;
        let run_opts = RunOptions {
            workers: opts.workers,
            seed: opts.seed,
        };
        let cancel = AtomicBool::new(false);
        let once = |scheduler: Scheduler, learning: &mut Learning| {
            let f = pipeline::run(
                &wf,
                &graph,
                learning,
                &run_opts,
                scheduler,
                &|_| {},
                &cancel,
            )?;
            if f.report.failed() {
                return Err(format!("{}: a step failed", path.display()));
            }
            let actual = f.report.makespan.as_secs_f64();
            let predicted = f.plan.predicted_makespan();
            Ok((actual, (predicted - actual).abs() / actual.max(1e-9)))
        };
        let mut m = Measured {
            workflow: wf.name.clone(),
            emcp: Vec::new(),
            dynamic: Vec::new(),
            emcp_error: Vec::new(),
        };
        for _ in 0..opts.warmup {
            let (_, err) = once(Scheduler::Emcp, &mut learning)?;
            m.emcp_error.push(err);
        }
        for _ in 0..opts.runs {
            let (t, err) = once(Scheduler::Emcp, &mut learning)?;
            m.emcp.push(t);
            m.emcp_error.push(err);
            let (t, _) = once(Scheduler::Dynamic, &mut learning)?;
            m.dynamic.push(t);
        }
        Ok(m)
    })();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", store.display()));
    }
    result
}

fn diagnostics(d: &[crate::diagnostic::Diagnostic]) -> String {
    d.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Measures every file and renders the table.
pub fn run_workflows(opts: &Options) -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} workers, {} warm-up run(s), {} measured run(s) per scheduler\n",
        opts.workers, opts.warmup, opts.runs
    );
    let _ = writeln!(
        out,
        "{:<16} {:>16} {:>19} {:>13}  emcp makespan error by run",
        "workflow", "emcp median", "dynamic median", "emcp/dynamic"
    );
    for f in &opts.files {
        let m = measure(f, opts)?;
        let errors: Vec<String> = m
            .emcp_error
            .iter()
            .map(|e| format!("{:.0}%", e * 100.0))
            .collect();
        let _ = writeln!(
            out,
            "{:<16} {:>16} {:>19} {:>13.3}  {}",
            m.workflow,
            crate::export::axis::seconds(median(&m.emcp)),
            crate::export::axis::seconds(median(&m.dynamic)),
            m.ratio(),
            errors.join(" ")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }
}
