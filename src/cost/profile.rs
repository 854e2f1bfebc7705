//! How a loop's cost spreads over its iterations. A do-all loop whose
//! iteration i reads i elements (`sum(x[1:i])`) costs its last iteration as
//! much as all of its first few together: cut into blocks of equal count,
//! the last block takes most of the time (issue 16: emcp 6.2 s against
//! dynamic's 2.9 s at p = 2). A [`Profile`] holds each iteration's share,
//! so that blocks are cut to equal predicted cost and an item's cost is
//! its iterations' share of the loop's.

use std::ops::Range;
use std::sync::Arc;

/// Above this many iterations a profile is not stored (8 bytes each): the
/// loop is taken as flat.
const MAX_ITERATIONS: usize = 1 << 22;

/// Splits `0..n` into `parts` contiguous ranges whose sizes differ by at most one.
pub fn even_blocks(n: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.clamp(1, n.max(1));
    let (q, r) = (n / parts, n % parts);
    let mut start = 0;
    (0..parts)
        .map(|k| {
            let len = q + usize::from(k < r);
            let range = start..start + len;
            start += len;
            range
        })
        .filter(|r| !r.is_empty())
        .collect()
}

/// Relative cost of each iteration of a loop; flat (all equal) unless told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// Cumulative weights, `cum[0] = 0`, `cum[n] = 1`; `None`: flat.
    cum: Option<Arc<[f64]>>,
}

impl Profile {
    pub const FLAT: Profile = Profile { cum: None };

    /// The profile of iterations costing `weights` (any positive scale).
    /// Weights that are all equal, or not all finite and non-negative with
    /// a positive sum, give a flat profile.
    pub fn from_weights(weights: &[f64]) -> Profile {
        let n = weights.len();
        if !(2..=MAX_ITERATIONS).contains(&n) || weights.iter().any(|w| !w.is_finite() || *w < 0.0)
        {
            return Profile::FLAT;
        }
        let total: f64 = weights.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            return Profile::FLAT;
        }
        let first = weights[0];
        if weights
            .iter()
            .all(|&w| (w - first).abs() <= 1e-12 * first.abs())
        {
            return Profile::FLAT;
        }
        let mut cum = Vec::with_capacity(n + 1);
        let mut acc = 0.0;
        cum.push(0.0);
        for w in weights {
            acc += w;
            cum.push(acc / total);
        }
        Profile {
            cum: Some(cum.into()),
        }
    }

    /// Iteration k (0-based) costs `a + b·k`, floored at 0.
    pub fn linear(n: usize, a: f64, b: f64) -> Profile {
        let w: Vec<f64> = (0..n).map(|k| (a + b * k as f64).max(0.0)).collect();
        Profile::from_weights(&w)
    }

    pub fn is_flat(&self) -> bool {
        self.cum.is_none()
    }

    /// The iterations it describes, when not flat.
    pub fn iterations(&self) -> Option<usize> {
        self.cum.as_ref().map(|c| c.len() - 1)
    }

    /// Whether it describes a loop of `n` iterations (a flat one fits any).
    fn fits(&self, n: usize) -> bool {
        self.iterations().is_none_or(|len| len == n)
    }

    /// The share of the whole loop's cost (of `n` iterations) that
    /// iterations `r` take.
    pub fn share(&self, n: usize, r: &Range<usize>) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let (a, b) = (r.start.min(n), r.end.min(n));
        if a >= b {
            return 0.0;
        }
        match &self.cum {
            Some(c) if self.fits(n) => c[b] - c[a],
            _ => (b - a) as f64 / n as f64,
        }
    }

    /// Iteration `k`'s cost relative to the mean iteration (1 when flat).
    pub fn weight(&self, n: usize, k: usize) -> f64 {
        self.share(n, &(k..k + 1)) * n as f64
    }

    /// The profile of the iterations `ranges` of a loop of `n`, in that
    /// order, as a loop of their own.
    pub fn concat(&self, n: usize, ranges: &[Range<usize>]) -> Profile {
        if self.is_flat() || !self.fits(n) {
            return Profile::FLAT;
        }
        let w: Vec<f64> = ranges
            .iter()
            .flat_map(|r| r.clone())
            .map(|k| self.weight(n, k))
            .collect();
        Profile::from_weights(&w)
    }

    /// `0..n` cut into at most `parts` contiguous ranges of about equal
    /// cost (equal count when flat): each cut where the cumulative cost
    /// crosses a multiple of 1/parts.
    pub fn equal_cost_blocks(&self, n: usize, parts: usize) -> Vec<Range<usize>> {
        let Some(c) = self.cum.as_ref().filter(|_| self.fits(n)) else {
            return even_blocks(n, parts);
        };
        let parts = parts.clamp(1, n.max(1));
        let mut cuts = Vec::with_capacity(parts + 1);
        cuts.push(0);
        for j in 1..parts {
            let target = j as f64 / parts as f64;
            // The first boundary whose cumulative cost reaches the target,
            // or the one before it when that is nearer.
            let k = c.partition_point(|&x| x < target).min(n);
            let k = if k > 0 && (target - c[k - 1]) < (c[k] - target) {
                k - 1
            } else {
                k
            };
            let prev = *cuts.last().unwrap_or(&0);
            cuts.push(k.max(prev));
        }
        cuts.push(n);
        cuts.windows(2)
            .map(|w| w[0]..w[1])
            .filter(|r| !r.is_empty())
            .collect()
    }

    /// The end `k ≥ from` of the range from `from` whose share of the
    /// loop's cost is nearest `share`.
    pub fn advance(&self, n: usize, from: usize, share: f64) -> usize {
        let from = from.min(n);
        let Some(c) = self.cum.as_ref().filter(|_| self.fits(n)) else {
            return (from + (share * n as f64).round().max(0.0) as usize).min(n);
        };
        let target = c[from] + share;
        let k = c.partition_point(|&x| x < target).clamp(from, n);
        if k > from && (target - c[k - 1]) < (c[k] - target) {
            k - 1
        } else {
            k
        }
    }

    /// `0..n` cut into contiguous blocks each about `share` of the loop's
    /// cost (at least one iteration each).
    pub fn blocks_of_share(&self, n: usize, share: f64) -> Vec<Range<usize>> {
        if n == 0 {
            return Vec::new();
        }
        let parts = if share > 0.0 && share.is_finite() {
            (1.0 / share).round().clamp(1.0, n as f64) as usize
        } else {
            n
        };
        self.equal_cost_blocks(n, parts)
    }

    /// The costliest iteration over the cheapest (1 when flat; infinite
    /// when one is free).
    pub fn spread(&self, n: usize) -> f64 {
        if self.is_flat() || !self.fits(n) {
            return 1.0;
        }
        let (lo, hi) = (0..n)
            .map(|k| self.weight(n, k))
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), w| {
                (lo.min(w), hi.max(w))
            });
        if lo > 0.0 {
            hi / lo
        } else {
            f64::INFINITY
        }
    }
}

/// A line `a + b·k` through blocks of a loop, each block's seconds the
/// sum of its iterations' (`Σ a + b·k = a·len + b·Σk`): what measured
/// blocks say about how an iteration's cost grows with k. Theil–Sen's
/// line, not least squares': the slope is the median of the slopes
/// through each pair of blocks, the intercept the median of what each
/// block implies at that slope. A test drive's sample preempted to ten
/// times its due tilted a least-squares line through a flat loop's
/// samples; here it moves neither (up to 29 % of the blocks can be off).
/// `None` with fewer than two blocks of different positions.
pub fn fit_linear(blocks: &[(Range<usize>, f64)]) -> Option<(f64, f64)> {
    // A block's mean iteration is the line at its mean position.
    let points: Vec<(f64, f64)> = blocks
        .iter()
        .filter(|(r, t)| !r.is_empty() && t.is_finite())
        .map(|(r, t)| {
            let len = r.len() as f64;
            ((r.start + r.end - 1) as f64 / 2.0, t / len)
        })
        .collect();
    let mut slopes = Vec::new();
    for (i, &(x1, y1)) in points.iter().enumerate() {
        for &(x2, y2) in &points[i + 1..] {
            if (x2 - x1).abs() > 1e-9 * x1.abs().max(x2.abs()).max(1.0) {
                slopes.push((y2 - y1) / (x2 - x1));
            }
        }
    }
    if slopes.is_empty() {
        return None;
    }
    let b = super::eval::median(&mut slopes);
    let mut intercepts: Vec<f64> = points.iter().map(|&(x, y)| y - b * x).collect();
    let a = super::eval::median(&mut intercepts);
    (a.is_finite() && b.is_finite()).then_some((a, b))
}
