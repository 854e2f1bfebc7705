//! How a loop's iterations are dealt out (issue 16, item 5; seed 002):
//! static blocks, cyclic, or guided chunks, on p workers or fewer.
//!
//! The worker count comes from the history: the fewest workers that got
//! nearly the best throughput as more of the loop's blocks ran at once (a
//! memory-bound body stops scaling). The cost profile comes from the
//! shapes, else from a line through the measured blocks; emcp cuts the
//! loop's planned blocks to equal shares of it.
//!
//! The kind is guided chunks on more than one worker, whatever the shape.
//! `flowcast bench loops` timed all three on a flat loop and on a
//! triangular one: on 2 cores guided was best or within 1 % on both; on
//! 16 cores of a shared Xeon it was best on both, by 15–34 %, because
//! workers there do not run at equal speed and a fixed split (static
//! blocks of equal cost, or cyclic) waits for its slowest worker. Guided
//! claims only O(k log n) chunks, so its bookkeeping never showed. Static
//! and cyclic stay, for `bench loops` to measure against.

use std::ops::Range;

use crate::cost::profile::{fit_linear, Profile};

/// A loop's iteration costs vary when the dearest over the cheapest is
/// above this.
pub const VARYING_SPREAD: f64 = 1.5;

/// Fewer threads are chosen only when they get at least this share of the
/// best throughput seen: a few percent of noise is no reason to leave
/// workers idle.
const SCALING_TOLERANCE: f64 = 0.9;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopKind {
    /// Contiguous blocks of equal predicted cost, one per worker.
    Static,
    /// Iteration i on worker i mod k.
    Cyclic,
    /// Chunks of ⌈remaining / 2k⌉ iterations (at least one), claimed by
    /// whichever worker is free.
    Guided,
}

impl LoopKind {
    pub const ALL: [LoopKind; 3] = [LoopKind::Static, LoopKind::Cyclic, LoopKind::Guided];

    pub fn name(self) -> &'static str {
        match self {
            LoopKind::Static => "static",
            LoopKind::Cyclic => "cyclic",
            LoopKind::Guided => "guided",
        }
    }

    pub fn parse(s: &str) -> Option<LoopKind> {
        LoopKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// A loop's policy: how its iterations are dealt out, and to how many
/// workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopPolicy {
    pub kind: LoopKind,
    pub threads: usize,
}

impl std::fmt::Display for LoopPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ×{}", self.kind.name(), self.threads)
    }
}

/// One measured block of a loop: its iterations, its seconds, and how many
/// of the loop's blocks (itself included) ran at the same time.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockTime {
    pub iterations: Range<usize>,
    pub seconds: f64,
    pub concurrent: usize,
}

/// Each block's concurrency from when blocks of one loop ran: the blocks
/// running at its midpoint, itself included.
pub fn with_concurrency(blocks: &[(Range<usize>, f64, f64)]) -> Vec<BlockTime> {
    blocks
        .iter()
        .map(|(r, start, end)| {
            let mid = 0.5 * (start + end);
            let concurrent = blocks
                .iter()
                .filter(|(_, s, e)| *s <= mid && mid < *e)
                .count()
                .max(1);
            BlockTime {
                iterations: r.clone(),
                seconds: (end - start).max(0.0),
                concurrent,
            }
        })
        .collect()
}

/// What the measured blocks say of a loop of `n` iterations: the cost
/// profile when they show one (a line through them).
pub fn measured_profile(n: usize, blocks: &[BlockTime]) -> Option<Profile> {
    // Blocks that ran alongside different numbers of others ran at
    // different speeds: correct each to its speed alone is not possible
    // without the scaling, so fit the most common concurrency only.
    // When that leaves one block (a static loop on two workers whose
    // first block ends long before its second: they overlapped only in
    // part), a line through all of them beats no line at all.
    let common = most_common(blocks.iter().map(|b| b.concurrent))?;
    let timed = |b: &&BlockTime| b.seconds > 0.0;
    let mut same: Vec<(Range<usize>, f64)> = blocks
        .iter()
        .filter(timed)
        .filter(|b| b.concurrent == common)
        .map(|b| (b.iterations.clone(), b.seconds))
        .collect();
    if same.len() < 2 {
        same = blocks
            .iter()
            .filter(timed)
            .map(|b| (b.iterations.clone(), b.seconds))
            .collect();
    }
    let (a, b) = fit_linear(&same)?;
    Some(Profile::linear(n, a, b))
}

fn most_common(xs: impl Iterator<Item = usize>) -> Option<usize> {
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for x in xs {
        match counts.iter_mut().find(|c| c.0 == x) {
            Some(c) => c.1 += 1,
            None => counts.push((x, 1)),
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|c| c.0)
}

/// How many of `p` workers the loop should use, from its blocks' speed at
/// each concurrency seen: the fewest that reach nearly the best throughput
/// (iterations per second, each block's iterations weighted by
/// `profile`); `p` when the best was at the most ever seen (it may scale
/// further).
pub fn threads(n: usize, p: usize, profile: &Profile, blocks: &[BlockTime]) -> usize {
    let p = p.max(1);
    // Per concurrency: (work in mean iterations, seconds).
    let mut by_c: Vec<(usize, f64, f64)> = Vec::new();
    for b in blocks.iter().filter(|b| b.seconds > 0.0) {
        let work = profile.share(n, &b.iterations) * n as f64;
        match by_c.iter_mut().find(|x| x.0 == b.concurrent) {
            Some(x) => {
                x.1 += work;
                x.2 += b.seconds;
            }
            None => by_c.push((b.concurrent, work, b.seconds)),
        }
    }
    by_c.sort_by_key(|x| x.0);
    if by_c.len() < 2 {
        return p;
    }
    let throughput: Vec<(usize, f64)> = by_c
        .iter()
        .map(|&(c, work, secs)| (c, c as f64 * work / secs))
        .collect();
    let best = throughput.iter().map(|t| t.1).fold(0.0, f64::max);
    let Some(&(c, _)) = throughput.iter().find(|t| t.1 >= SCALING_TOLERANCE * best) else {
        return p;
    };
    let widest = throughput.last().map_or(p, |t| t.0);
    if c >= widest {
        p
    } else {
        c.clamp(1, p)
    }
}

/// The policy for a loop of `n` iterations on `p` workers: `shape` is the
/// profile shape inference gave it (flat when it could not tell), `blocks`
/// what past runs (or this run's test drive) measured.
pub fn choose(n: usize, p: usize, shape: &Profile, blocks: &[BlockTime]) -> (LoopPolicy, Profile) {
    let p = p.max(1);
    let measured = measured_profile(n, blocks);
    let profile = if shape.is_flat() {
        measured
            .filter(|m| m.spread(n) > VARYING_SPREAD)
            .unwrap_or(Profile::FLAT)
    } else {
        shape.clone()
    };
    let threads = threads(n, p, &profile, blocks).min(n.max(1));
    // One worker has nothing to deal out.
    let kind = if threads > 1 {
        LoopKind::Guided
    } else {
        LoopKind::Static
    };
    (LoopPolicy { kind, threads }, profile)
}
