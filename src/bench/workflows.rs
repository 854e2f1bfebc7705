//! `flowcast bench workflows`: real makespans of emcp against work-stealing
//! (`dynamic`) on whole workflows, measured in one process on one machine.
//!
//! Each workflow first runs `warmup` times with emcp so the cost models
//! have learnt it (a fresh history of its own, deleted afterwards); then
//! emcp and dynamic alternate, so drifting machine load hits both alike.
//! Reported: the median real makespan of each, their ratio, and each
//! against the lower bound of the measured runs, which says how much any
//! scheduler could still gain; then how well the models predicted: the
//! median per-task error on the first run and after three training runs,
//! and emcp's makespan prediction error run by run (warm-up runs included).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::exec::{RunOptions, RunReport};
use crate::pipeline::{self, Learning};
use crate::sched::{Dag, Scheduler};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    pub files: Vec<PathBuf>,
    /// Measured runs per scheduler.
    pub runs: usize,
    /// Training runs before measuring.
    pub warmup: usize,
    /// Worker counts, each measured in turn.
    pub workers: Vec<usize>,
    pub seed: i64,
}

/// Tasks shorter than this are left out of the per-task error: their
/// times are mostly timer and scheduling noise, and a relative error on
/// them would swamp the median.
pub const MIN_TASK_SECONDS: f64 = 0.010;

/// The run (counted from 0) whose per-task error shows what the models
/// learnt: the one after three training runs.
pub const TRAINED_RUN: usize = 3;

/// One workflow's measurements on one worker count.
#[derive(Clone, Debug)]
pub struct Measured {
    pub workflow: String,
    pub workers: usize,
    pub emcp: Vec<f64>,
    pub dynamic: Vec<f64>,
    /// The lower bound of every measured run, emcp's and dynamic's.
    pub lower_bound: Vec<f64>,
    /// Each emcp run's makespan over its own lower bound (a run's task
    /// times differ from another's, so only its own bound binds it).
    pub emcp_to_bound: Vec<f64>,
    /// The same for each dynamic run.
    pub dynamic_to_bound: Vec<f64>,
    /// emcp's |predicted − actual| / actual makespan, in run order.
    pub emcp_error: Vec<f64>,
    /// Every run's median per-task error (see [`median_task_error`]), in
    /// run order, both schedulers: each run trains the models.
    pub task_error: Vec<Option<f64>>,
    /// Every task's error in every run after [`TRAINED_RUN`] training
    /// runs, pooled: one run of a few tasks is a noisy sample.
    pub trained_errors: Vec<f64>,
    /// The last emcp run's graph with its predicted and its measured costs,
    /// to replay at more workers than this machine has ([`replay`]).
    pub last: Option<(Dag, Dag)>,
}

impl Measured {
    pub fn ratio(&self) -> f64 {
        median(&self.emcp) / median(&self.dynamic)
    }

    /// emcp's and dynamic's median ratio of a run's makespan to that
    /// run's lower bound.
    pub fn to_bound(&self) -> (f64, f64) {
        (median(&self.emcp_to_bound), median(&self.dynamic_to_bound))
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

/// No scheduler could have run this workflow faster than this, given the
/// task times this run measured: [`Dag::lower_bound`] of `dag` (the plan's
/// graph, one node per task) with each task's busy time as its cost, so a
/// loop's work is divisible over the run's workers.
pub fn measured_lower_bound(dag: &Dag, report: &RunReport) -> f64 {
    measured_dag(dag, report).lower_bound(report.workers)
}

/// The median of [`task_errors`]; `None` when no task ran that long.
pub fn median_task_error(predicted: &[f64], report: &RunReport) -> Option<f64> {
    let errors = task_errors(predicted, report);
    (!errors.is_empty()).then(|| median(&errors))
}

/// |predicted − actual| / actual of each task that ran for at least
/// [`MIN_TASK_SECONDS`]; `predicted` is by task id.
pub fn task_errors(predicted: &[f64], report: &RunReport) -> Vec<f64> {
    predicted
        .iter()
        .zip(&report.outcomes)
        .filter(|(_, o)| o.value.is_ok())
        .map(|(&p, o)| (p, o.busy.as_secs_f64()))
        .filter(|&(_, actual)| actual >= MIN_TASK_SECONDS)
        .map(|(p, actual)| (p - actual).abs() / actual)
        .collect()
}

/// What one run measured.
struct Run {
    makespan: f64,
    lower_bound: f64,
    makespan_error: f64,
    task_errors: Vec<f64>,
    /// The run's graph with predicted costs, and with measured ones.
    costs: (Dag, Dag),
}

/// `dag` with each task's measured busy time as its cost: on one worker,
/// so a call that ran k wide is scaled back by its speedup at k.
fn measured_dag(dag: &Dag, report: &RunReport) -> Dag {
    let mut dag = dag.clone();
    for (node, outcome) in dag.nodes.iter_mut().zip(&report.outcomes) {
        let width = 1 + outcome.lanes.len();
        let speedup = node.speedup.map_or(1.0, |u| u.speedup(width));
        node.cost = outcome.busy.as_secs_f64() * speedup;
    }
    dag
}

/// A run replayed by the simulator on `p` workers: emcp's runtime planning
/// with `predicted` costs while the tasks take their `measured` times,
/// against greedy list scheduling that knows the measured times (the best
/// work-stealing can do), and the lower bound. Returns (emcp/dynamic,
/// emcp/LB). Contention for memory bandwidth at higher p is not modelled.
pub fn replay(predicted: &Dag, measured: &Dag, p: usize, m: usize) -> (f64, f64) {
    use crate::cost::Comm;
    use crate::sched::{plan, Policy, Runtime};
    // The run's loop policies were chosen for its own worker count (a
    // loop held to 2 workers at p = 2): choose them again for p.
    let repolicied = |dag: &Dag| {
        let mut dag = dag.clone();
        crate::pipeline::loop_policy::choose_policies(&mut dag, &Default::default(), p);
        dag
    };
    let (predicted, measured) = (&repolicied(predicted), &repolicied(measured));
    let drives: Vec<usize> = (0..predicted.nodes.len())
        .filter(|&i| {
            predicted.nodes[i]
                .iterations()
                .is_some_and(|n| crate::cost::needs_test_drive(n, p, m))
        })
        .collect();
    let mut rt = Runtime::emcp(
        predicted,
        &Comm::SHARED_MEMORY,
        p,
        m,
        &drives,
        Policy::ADAPTIVE,
        Box::new(|_, s| s),
    );
    let emcp = rt.simulate(measured).makespan();
    let dynamic = plan(measured, &Comm::SHARED_MEMORY, p, Scheduler::Dynamic).makespan();
    let lb = measured.lower_bound(p);
    (emcp / dynamic.max(1e-12), emcp / lb.max(1e-12))
}

/// The worker counts runs are replayed at.
pub const REPLAY_WORKERS: [usize; 3] = [8, 16, 32];

/// Measures one workflow file on `workers` workers.
pub fn measure(path: &Path, opts: &Options, workers: usize) -> Result<Measured, String> {
    let wf = crate::workflow::load(path).map_err(|d| super::diagnostics(&d))?;
    let graph = crate::graph::build(&wf).map_err(|d| super::diagnostics(&d))?;
    let store = std::env::temp_dir().join(format!(
        "flowcast-bench-{}-{}-p{workers}.sqlite",
        std::process::id(),
        wf.name
    ));
    let _ = std::fs::remove_file(&store);
    let result = (|| {
        let mut learning = Learning::open(Some(&store))?;
        let run_opts = RunOptions::new(workers, opts.seed);
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
            let makespan = f.report.makespan.as_secs_f64();
            let predicted = f.plan.predicted_makespan();
            let mut before = f.plan.dag.clone();
            for (node, &c) in before.nodes.iter_mut().zip(&f.plan.predicted) {
                node.cost = c;
            }
            Ok(Run {
                makespan,
                lower_bound: measured_lower_bound(&f.plan.dag, &f.report),
                makespan_error: (predicted - makespan).abs() / makespan.max(1e-9),
                task_errors: task_errors(&f.plan.predicted_as_ran(&f.report), &f.report),
                costs: (before, measured_dag(&f.plan.dag, &f.report)),
            })
        };
        let mut m = Measured {
            workflow: wf.name.clone(),
            workers,
            emcp: Vec::new(),
            dynamic: Vec::new(),
            lower_bound: Vec::new(),
            emcp_to_bound: Vec::new(),
            dynamic_to_bound: Vec::new(),
            emcp_error: Vec::new(),
            task_error: Vec::new(),
            trained_errors: Vec::new(),
            last: None,
        };
        let record = |m: &mut Measured, r: &Run| {
            if m.task_error.len() >= TRAINED_RUN {
                m.trained_errors.extend(&r.task_errors);
            }
            let e = &r.task_errors;
            m.task_error.push((!e.is_empty()).then(|| median(e)));
        };
        for _ in 0..opts.warmup {
            let r = once(Scheduler::Emcp, &mut learning)?;
            m.emcp_error.push(r.makespan_error);
            record(&mut m, &r);
        }
        for _ in 0..opts.runs {
            for scheduler in [Scheduler::Emcp, Scheduler::Dynamic] {
                let r = once(scheduler, &mut learning)?;
                m.lower_bound.push(r.lower_bound);
                record(&mut m, &r);
                let to_bound = r.makespan / r.lower_bound.max(1e-12);
                if scheduler == Scheduler::Emcp {
                    m.emcp.push(r.makespan);
                    m.emcp_to_bound.push(to_bound);
                    m.emcp_error.push(r.makespan_error);
                    m.last = Some(r.costs);
                } else {
                    m.dynamic.push(r.makespan);
                    m.dynamic_to_bound.push(to_bound);
                }
            }
        }
        Ok(m)
    })();
    super::remove_store(&store);
    result
}

/// An error as a percentage; a prior off by orders of magnitude in
/// scientific form, so it does not push the table's columns apart.
fn percent(e: Option<f64>) -> String {
    match e {
        None => "-".to_string(),
        Some(e) if e * 100.0 >= 1e4 => format!("{:.0e}%", e * 100.0),
        Some(e) => format!("{:.0}%", e * 100.0),
    }
}

/// Measures every file on every worker count and renders two tables:
/// makespans against each other and the lower bound, then the models'
/// prediction error.
pub fn run_workflows(opts: &Options) -> Result<String, String> {
    let mut all = Vec::new();
    for &p in &opts.workers {
        for f in &opts.files {
            all.push(measure(f, opts, p.max(1))?);
        }
    }
    Ok(render(opts, &all))
}

fn render(opts: &Options, all: &[Measured]) -> String {
    let seconds = crate::report::units::seconds;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} warm-up run(s), {} measured run(s) per scheduler; LB: the lower bound \
         max(critical path, work / p, t + the work that cannot start before t / p) of each run's \
         measured task times, loops divisible; \
         emcp/LB and dynamic/LB: the median of each run's makespan over its own LB\n",
        opts.warmup, opts.runs
    );
    let _ = writeln!(
        out,
        "{:<16} {:>3} {:>12} {:>15} {:>10} {:>13} {:>8} {:>11}",
        "workflow",
        "p",
        "emcp median",
        "dynamic median",
        "LB median",
        "emcp/dynamic",
        "emcp/LB",
        "dynamic/LB"
    );
    for m in all {
        let (emcp_lb, dynamic_lb) = m.to_bound();
        let _ = writeln!(
            out,
            "{:<16} {:>3} {:>12} {:>15} {:>10} {:>13.3} {:>8.3} {:>11.3}",
            m.workflow,
            m.workers,
            seconds(median(&m.emcp)),
            seconds(median(&m.dynamic)),
            seconds(median(&m.lower_bound)),
            m.ratio(),
            emcp_lb,
            dynamic_lb,
        );
    }
    let _ = writeln!(
        out,
        "\nPrediction: median per-task error (tasks over {:.0} ms) on run 1 (fresh models), \
         on run {1} (after {TRAINED_RUN} training runs), and over every task of runs {1} on, \
         either scheduler; emcp's makespan error",
        MIN_TASK_SECONDS * 1e3,
        TRAINED_RUN + 1,
    );
    let _ = writeln!(
        out,
        "{:<16} {:>3} {:>12} {:>12} {:>14} {:>15}  emcp makespan error by run",
        "workflow",
        "p",
        "tasks run 1",
        format!("tasks run {}", TRAINED_RUN + 1),
        format!("tasks runs {}+", TRAINED_RUN + 1),
        "makespan run 1"
    );
    for m in all {
        let errors: Vec<String> = m.emcp_error.iter().map(|&e| percent(Some(e))).collect();
        let _ = writeln!(
            out,
            "{:<16} {:>3} {:>12} {:>12} {:>14} {:>15}  {}",
            m.workflow,
            m.workers,
            percent(m.task_error.first().copied().flatten()),
            percent(m.task_error.get(TRAINED_RUN).copied().flatten()),
            percent((!m.trained_errors.is_empty()).then(|| median(&m.trained_errors))),
            percent(m.emcp_error.first().copied()),
            errors.join(" ")
        );
    }
    let _ = writeln!(
        out,
        "\nReplayed by the simulator from the last emcp run's predicted and measured task \
         times (not measured on that many cores; memory contention not modelled): \
         emcp/dynamic (greedy with the measured times), emcp/LB"
    );
    let mut header = format!("{:<16} {:>3}", "workflow", "p");
    for p in REPLAY_WORKERS {
        header.push_str(&format!(" {:>17}", format!("p={p} e/d e/LB")));
    }
    let _ = writeln!(out, "{header}");
    for m in all {
        let Some((predicted, measured)) = &m.last else {
            continue;
        };
        let mut line = format!("{:<16} {:>3}", m.workflow, m.workers);
        for p in REPLAY_WORKERS {
            let (vs_dynamic, vs_lb) = replay(predicted, measured, p, crate::sched::DEFAULT_M);
            line.push_str(&format!(" {:>8.3} {:>8.3}", vs_dynamic, vs_lb));
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::Arc;
    use std::time::Duration;

    use crate::exec::StepOutcome;
    use crate::kernels::Value;
    use crate::sched::{Edge, Node};

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    fn report(busy: &[f64], workers: usize) -> RunReport {
        RunReport {
            outcomes: busy
                .iter()
                .map(|&b| StepOutcome {
                    value: Ok(Arc::new(Value::Null)),
                    worker: Some(0),
                    start: Duration::ZERO,
                    end: Duration::from_secs_f64(b),
                    path: None,
                    blocks: Vec::new(),
                    busy: Duration::from_secs_f64(b),
                    reused: false,
                    warnings: Vec::new(),
                    lanes: Vec::new(),
                })
                .collect(),
            makespan: Duration::from_secs_f64(busy.iter().sum()),
            workers,
            seed: 1,
            cancelled: false,
            streams: Vec::new(),
        }
    }

    fn chain(nodes: Vec<Node>) -> Dag {
        let edges = (1..nodes.len())
            .map(|i| Edge {
                from: i - 1,
                to: i,
                bytes: 0.0,
            })
            .collect();
        Dag { nodes, edges }
    }

    #[test]
    fn lower_bound_uses_measured_times_and_divides_loops_only() {
        // Planned costs are wrong on purpose: only the measured ones count.
        let functions = chain(vec![Node::function("a", 9.0), Node::function("b", 9.0)]);
        let r = report(&[1.0, 3.0], 4);
        // A chain of calls cannot be split: its length is the bound.
        assert!((measured_lower_bound(&functions, &r) - 4.0).abs() < 1e-9);

        let with_loop = chain(vec![Node::function("a", 9.0), Node::looped("b", 9.0, 100)]);
        // The loop's 3 s spread over 4 workers: 1 + 3/4.
        assert!((measured_lower_bound(&with_loop, &r) - 1.75).abs() < 1e-9);
        // On one worker nothing divides.
        assert!((measured_lower_bound(&with_loop, &report(&[1.0, 3.0], 1)) - 4.0).abs() < 1e-9);

        // Independent calls: the work over p bounds, not the longest call.
        let wide = Dag {
            nodes: (0..4)
                .map(|i| Node::function(&i.to_string(), 0.0))
                .collect(),
            edges: Vec::new(),
        };
        assert!((measured_lower_bound(&wide, &report(&[2.0; 4], 2)) - 4.0).abs() < 1e-9);
    }

    #[test]
    fn percent_stays_narrow() {
        assert_eq!(percent(None), "-");
        assert_eq!(percent(Some(0.254)), "25%");
        assert_eq!(percent(Some(66_598_967.5)), "7e9%");
    }

    #[test]
    fn task_error_skips_short_and_failed_tasks() {
        let mut r = report(&[1.0, 0.5, 0.001, 2.0], 2);
        r.outcomes[3].value = Err(crate::exec::StepError::Skipped {
            reason: "input failed".into(),
        });
        // 1.0 predicted 1.5 (50%), 0.5 predicted 0.4 (20%); the 1 ms task
        // and the failed one are left out.
        let e = median_task_error(&[1.5, 0.4, 1.0, 0.0], &r).unwrap();
        assert!((e - 0.35).abs() < 1e-9, "{e}");
        assert_eq!(median_task_error(&[1.0], &report(&[0.001], 1)), None);
    }
}
