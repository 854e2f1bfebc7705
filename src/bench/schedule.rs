//! `flowcast bench schedule`: how close MCP and extended MCP come to the
//! lower bound max(critical path, work/p) on random graphs made the way
//! Kasahara's Standard Task Graph Set was, written as STG text and read back
//! through the same parser `flowcast schedule` uses.
//!
//! The set's four generators (costs uniform integers 1–10, tasks numbered
//! in topological order):
//! - `sameprob`: each earlier task is a predecessor with one probability;
//! - `samepred`: each task draws how many predecessors it has, then picks
//!   them among all earlier tasks;
//! - `layrprob`: tasks fall in layers; each task of an earlier layer is a
//!   predecessor with one probability;
//! - `layrpred`: layers again; each task draws how many predecessors it has
//!   and picks them in the layer just before its own.
//!
//! Each (method, size) gets graphs with average predecessor counts 1, 3, 5,
//! … so both wide and chain-like graphs are in every class.

use std::fmt::Write;

use crate::cost::model::SplitMix;
use crate::sched::{self, Comm, Dag, Scheduler};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    SameProb,
    SamePred,
    LayrProb,
    LayrPred,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::SameProb,
        Method::SamePred,
        Method::LayrProb,
        Method::LayrPred,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::SameProb => "sameprob",
            Method::SamePred => "samepred",
            Method::LayrProb => "layrprob",
            Method::LayrPred => "layrpred",
        }
    }
}

/// Distinct picks of `k` values from `range`, sorted.
fn pick(rng: &mut SplitMix, range: std::ops::Range<usize>, k: usize) -> Vec<usize> {
    let k = k.min(range.len());
    let mut chosen: Vec<usize> = Vec::with_capacity(k);
    while chosen.len() < k {
        let c = rng.between(range.start, range.end - 1);
        if !chosen.contains(&c) {
            chosen.push(c);
        }
    }
    chosen.sort_unstable();
    chosen
}

/// Layer of each of `n` tasks: widths uniform in 1..=2√n, so about √n layers.
fn layers(rng: &mut SplitMix, n: usize) -> Vec<std::ops::Range<usize>> {
    let max_width = ((n as f64).sqrt() * 2.0).ceil().max(1.0) as usize;
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let end = (start + rng.between(1, max_width)).min(n);
        out.push(start..end);
        start = end;
    }
    out
}

/// Predecessors (0-based real tasks) of each of `n` tasks, `avg_preds` on
/// average.
fn predecessors(method: Method, n: usize, avg_preds: f64, rng: &mut SplitMix) -> Vec<Vec<usize>> {
    let count = |rng: &mut SplitMix| rng.between(0, (2.0 * avg_preds).round() as usize);
    match method {
        Method::SameProb => {
            // Task j has j candidates: (n-1)/2 on average.
            let q = (2.0 * avg_preds / (n.max(2) - 1) as f64).min(1.0);
            (0..n)
                .map(|j| (0..j).filter(|_| rng.uniform() < q).collect())
                .collect()
        }
        Method::SamePred => (0..n)
            .map(|j| {
                let k = count(rng);
                pick(rng, 0..j, k)
            })
            .collect(),
        Method::LayrProb => {
            let ls = layers(rng, n);
            let mut preds = vec![Vec::new(); n];
            for l in &ls {
                // Candidates: every task of earlier layers, l.start of them.
                let q = (avg_preds / l.start.max(1) as f64).min(1.0);
                for j in l.clone() {
                    preds[j] = (0..l.start).filter(|_| rng.uniform() < q).collect();
                }
            }
            preds
        }
        Method::LayrPred => {
            let ls = layers(rng, n);
            let mut preds = vec![Vec::new(); n];
            for w in ls.windows(2) {
                for j in w[1].clone() {
                    let k = count(rng).max(1);
                    preds[j] = pick(rng, w[0].clone(), k);
                }
            }
            preds
        }
    }
}

/// One graph in STG text: `n` real tasks plus the dummy entry and exit.
pub fn generate_stg(method: Method, n: usize, avg_preds: f64, seed: u64) -> String {
    let mut rng = SplitMix(seed ^ ((n as u64) << 32));
    let preds = predecessors(method, n, avg_preds, &mut rng);
    let mut has_succ = vec![false; n];
    let mut out = format!("{n}\n0 0 0\n");
    for (j, ps) in preds.iter().enumerate() {
        let cost = rng.between(1, 10);
        write!(out, "{} {cost} ", j + 1).unwrap();
        if ps.is_empty() {
            out.push_str("1 0");
        } else {
            write!(out, "{}", ps.len()).unwrap();
            for &p in ps {
                has_succ[p] = true;
                write!(out, " {}", p + 1).unwrap();
            }
        }
        out.push('\n');
    }
    let exits: Vec<usize> = (0..n).filter(|&j| !has_succ[j]).map(|j| j + 1).collect();
    write!(out, "{} 0 {}", n + 1, exits.len()).unwrap();
    for e in exits {
        write!(out, " {e}").unwrap();
    }
    writeln!(
        out,
        "\n# {} n={n} avg_preds={avg_preds} seed={seed}",
        method.name()
    )
    .unwrap();
    out
}

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
