//! `flowcast bench schedule`: how close MCP and extended MCP come to the
//! lower bound max(critical path, work/p) on random graphs made the way
//! Kasahara's Standard Task Graph Set was, written as STG text and read back
//! through the same parser `flowcast schedule` uses.
//!
//! The graphs come from the set's four generators
//! ([`crate::sched::stg::generate`]). Each (method, size) gets graphs with
//! average predecessor counts 1, 3, 5, … so both wide and chain-like graphs
//! are in every class.

use std::fmt::Write;

use crate::cost::Comm;
use crate::sched::stg::generate::{generate_stg, Method};
use crate::sched::{self, Dag, Scheduler};

/// Makespan / lower bound statistics of one scheduler in one cell.
#[derive(Default, Clone)]
struct Gaps {
    ratios: Vec<f64>,
    at_bound: usize,
    worst: (f64, usize),
}

impl Gaps {
    fn add(&mut self, ratio: f64, size: usize) {
        if ratio <= 1.0 + 1e-9 {
            self.at_bound += 1;
        }
        if ratio > self.worst.0 {
            self.worst = (ratio, size);
        }
        self.ratios.push(ratio);
    }
    fn mean(&self) -> f64 {
        self.ratios.iter().sum::<f64>() / self.ratios.len().max(1) as f64
    }
}

/// The most tasks the graphs of one method may hold together (sizes
/// summed, times graphs): they are all made before any is planned. The
/// defaults hold 26,850.
pub const MAX_TASKS: usize = 1_000_000;

/// Why the bench cannot run with these settings, if it cannot: `-p
/// 99999999` sized a worker table of gigabytes, and `--graphs 99999999999`
/// reserved terabytes for the graphs; both aborted the process.
pub fn settings_problem(sizes: &[usize], processors: &[usize], graphs: usize) -> Option<String> {
    if let Some((p, problem)) = processors
        .iter()
        .find_map(|&p| sched::processors_problem(p).map(|e| (p, e)))
    {
        return Some(format!("-p {p}: {problem}"));
    }
    let tasks = sizes
        .iter()
        .try_fold(0usize, |a, &n| a.checked_add(n))
        .and_then(|n| n.checked_mul(graphs));
    match tasks {
        Some(t) if t <= MAX_TASKS => None,
        _ => Some(format!(
            "--sizes and --graphs ask for more than {MAX_TASKS} tasks per method \
             (the sizes summed, times the graphs)"
        )),
    }
}

/// The evaluation: for every method and p, mean and max makespan/bound of
/// MCP and extended MCP over `graphs` graphs of each size, and how many
/// reach the bound. Returns the report as text.
pub fn run_schedule_bench(sizes: &[usize], processors: &[usize], graphs: usize) -> String {
    let schedulers = [Scheduler::Mcp, Scheduler::Emcp];
    let mut out = String::new();
    writeln!(
        out,
        "makespan / lower bound, lower bound = max(critical path, work/p); \
         {graphs} graphs per size, sizes {sizes:?}"
    )
    .unwrap();
    write!(out, "{:<9} {:>3}", "method", "p").unwrap();
    for s in schedulers {
        let mean = format!("{} mean", s.name());
        write!(
            out,
            " | {mean:>10} {:>6} {:>6} {:>9}",
            "max", "(n)", "at bound"
        )
        .unwrap();
    }
    out.push('\n');
    for method in Method::ALL {
        let dags: Vec<(usize, Dag)> = sizes
            .iter()
            .flat_map(|&n| (0..graphs).map(move |g| (n, g)))
            .map(|(n, g)| {
                let text = generate_stg(method, n, 1.0 + 2.0 * g as f64, g as u64);
                let dag = Dag::from_stg(&text).expect("generated STG parses");
                (n, dag)
            })
            .collect();
        for &p in processors {
            write!(out, "{:<9} {p:>3}", method.name()).unwrap();
            for s in schedulers {
                let mut gaps = Gaps::default();
                for (n, dag) in &dags {
                    let plan = sched::plan(dag, &Comm::SHARED_MEMORY, p, s);
                    let bound = dag.lower_bound(p);
                    // An empty graph (size 0) is trivially at its bound.
                    let ratio = if bound > 0.0 {
                        plan.makespan() / bound
                    } else {
                        1.0
                    };
                    gaps.add(ratio, *n);
                }
                write!(
                    out,
                    " | {:>10.4} {:>6.4} {:>6} {:>9}",
                    gaps.mean(),
                    gaps.worst.0,
                    format!("({})", gaps.worst.1),
                    format!("{}/{}", gaps.at_bound, gaps.ratios.len())
                )
                .unwrap();
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_a_row_per_method_and_p_with_ratios_at_least_one() {
        let report = run_schedule_bench(&[20, 40], &[2, 4], 2);
        let rows: Vec<&str> = report.lines().skip(2).collect();
        assert_eq!(rows.len(), 4 * 2, "{report}");
        for row in rows {
            let cells: Vec<&str> = row.split('|').collect();
            for cell in &cells[1..] {
                let mut f = cell.split_whitespace();
                let mean: f64 = f.next().unwrap().parse().unwrap();
                let max: f64 = f.next().unwrap().parse().unwrap();
                assert!((1.0 - 1e-9..=max + 1e-9).contains(&mean), "{row}");
                assert!(f.last().unwrap().ends_with("/4"), "{row}");
            }
        }
    }

    #[test]
    fn generation_is_deterministic_per_seed() {
        let a = generate_stg(Method::LayrPred, 100, 3.0, 5);
        assert_eq!(a, generate_stg(Method::LayrPred, 100, 3.0, 5));
        assert_ne!(a, generate_stg(Method::LayrPred, 100, 3.0, 6));
    }
}
