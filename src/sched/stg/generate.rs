//! Random graphs made the way Kasahara's Standard Task Graph Set was,
//! written as STG text: what `flowcast bench schedule` and the parser's
//! tests read back.
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

use std::fmt::Write;

use crate::cost::model::SplitMix;

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
