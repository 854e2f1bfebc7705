//! A loop body's work as a function of the loop index. Shape inference
//! types the loop variable as an unknown number, so `sum(x[1:i])` reads "a
//! vector of unknown length" and one iteration's work is a guess; typed
//! with the variable's value instead, the same rules give the length, i,
//! and the work at that i. Sampled across the range, that is the body's
//! cost as a function of i: constant, linear (`x[1:(i*200)]`), quadratic
//! (`crossprod(m[1:i, ])`), or whatever the kernels' counts make it.

use std::collections::HashMap;

use super::shape::infer_with_operands;
use crate::diagnostic::SourceFile;
use crate::kernels::work::Work;
use crate::kernels::{ShapeCtx, Type};
use crate::workflow::Loop;

/// Values of the loop variable the body is typed at, evenly spaced over
/// the range.
const SAMPLES: usize = 9;

/// Values typed at first, at most: the evenly spaced ones and more at
/// positions spread by the golden ratio. A body whose sizes cycle with the
/// index (`x[1:(200 * (k %% 12))]`) can take the same size at every evenly
/// spaced value, and these fall in between.
const FIRST: usize = 25;

/// Values typed when the first ones' work goes up and down: a cycling body
/// is not smooth between samples, so it is typed at every value of a range
/// this short, and at this many of a longer one (about 18 µs each).
const DENSE: usize = 256;

/// Works that differ by less than this share are the same.
const SAME: f64 = 1e-9;

/// The body's operation count at sampled values of the loop variable,
/// sorted by value; in between, linear.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexWork {
    pub values: Vec<f64>,
    /// The work at each value, in [`Work::equivalent_ops`].
    pub ops: Vec<f64>,
    /// The work at each value, count by count: long-double adds and
    /// streamed elements are priced apart (see [`Work`]).
    works: Vec<Work>,
}

impl IndexWork {
    /// The work at value `v`: linear between the samples, the nearest
    /// sample's outside them.
    pub fn at(&self, v: f64) -> f64 {
        interpolate(&self.values, &self.ops, v)
    }

    /// Each iteration's work, for the loop variable's `iterations`.
    pub fn weights(&self, iterations: &[f64]) -> Vec<f64> {
        iterations.iter().map(|&v| self.at(v)).collect()
    }

    /// The same work at every sampled value.
    pub fn is_flat(&self) -> bool {
        let first = self.ops.first().copied().unwrap_or(0.0);
        self.ops
            .iter()
            .all(|&y| (y - first).abs() <= SAME * first.abs().max(1.0))
    }

    /// The mean iteration's work.
    pub fn mean(&self, iterations: &[f64]) -> Work {
        if iterations.is_empty() {
            return Work::default();
        }
        let sum = iterations
            .iter()
            .map(|&v| {
                let (k0, k1, t) = bracket(&self.values, v);
                self.works[k0].lerp(self.works[k1], t)
            })
            .fold(Work::default(), |a, b| a + b);
        sum * (1.0 / iterations.len() as f64)
    }

    /// Whether the work only rises, or only falls, from sample to sample
    /// (ties aside): then it is smooth enough to interpolate.
    fn is_monotone(&self) -> bool {
        let steps = || self.ops.windows(2).map(|w| w[1] - w[0]);
        let tol = |d: f64, y: f64| d.abs() <= SAME * y.abs().max(1.0);
        let up = steps().zip(&self.ops).all(|(d, &y)| d >= 0.0 || tol(d, y));
        let down = steps().zip(&self.ops).all(|(d, &y)| d <= 0.0 || tol(d, y));
        up || down
    }

    /// The degree of the polynomial in the loop variable the samples lie
    /// on, when it is at most 3 (the divided differences of one order
    /// above it vanish); `None` otherwise.
    pub fn degree(&self) -> Option<usize> {
        let xs = &self.values;
        let scale = self.ops.iter().fold(0.0f64, |m, y| m.max(y.abs())).max(1.0);
        let span = xs.last().copied().unwrap_or(0.0) - xs.first().copied().unwrap_or(0.0);
        let mut d = self.ops.clone();
        for order in 0..=3usize {
            // An order-k difference times span^k is on the scale of the ops.
            let unit = scale / span.abs().max(1.0).powi(order as i32);
            // Constant within 2 %: a call's fixed cost, or a small range
            // folded to a constant, bends the first samples a little.
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            let tol = 0.02 * mean.abs() + 1e-6 * unit;
            if d.iter().all(|y| (y - mean).abs() <= tol) {
                return Some(order);
            }
            if d.len() < 2 {
                return None;
            }
            d = d
                .windows(2)
                .enumerate()
                .map(|(j, w)| (w[1] - w[0]) / (xs[j + order + 1] - xs[j]))
                .collect();
        }
        None
    }
}

/// `ys` at `v`: linear between the samples `xs`, the nearest sample's
/// outside them.
fn interpolate(xs: &[f64], ys: &[f64], v: f64) -> f64 {
    let (k0, k1, t) = bracket(xs, v);
    ys[k0] + (ys[k1] - ys[k0]) * t
}

/// The samples either side of `v` in the sorted, non-empty `xs`, and how
/// far `v` is from the first to the second (0 to 1).
fn bracket(xs: &[f64], v: f64) -> (usize, usize, f64) {
    let k = xs.partition_point(|&x| x < v);
    if k == 0 {
        return (0, 0, 0.0);
    }
    if k >= xs.len() {
        return (xs.len() - 1, xs.len() - 1, 0.0);
    }
    let (x0, x1) = (xs[k - 1], xs[k]);
    if x1 <= x0 {
        return (k, k, 0.0);
    }
    (k - 1, k, (v - x0) / (x1 - x0))
}

/// `count` positions in a sorted range of `len` values, in order: every
/// one of a range that short; else [`SAMPLES`] evenly spaced ones and the
/// rest where the golden ratio's multiples fall.
fn positions(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    let last = (len - 1) as f64;
    let even = (0..SAMPLES).map(|k| (k * (len - 1)) / (SAMPLES - 1));
    let spread = (1..=count.saturating_sub(SAMPLES))
        .map(|j| ((j as f64 * 0.618_033_988_749_895).fract() * last).round() as usize);
    let mut at: Vec<usize> = even.chain(spread).collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// The body of loop `l`, whose variable takes `iterations`, typed at
/// values spread over them; `None` when it cannot be typed at one of them
/// (the unknown-index typing stands). The work can be the same at each
/// and still be known only so: `x[(i * 50):(i * 50 + 5000)]` has 5001
/// elements at every i, and an unknown length with an unknown i.
pub fn sample<'a>(
    l: &'a Loop,
    iterations: &[f64],
    env: &HashMap<&'a str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Option<IndexWork> {
    let n = iterations.len();
    if n < 2 {
        return None;
    }
    let mut sorted: Vec<f64> = iterations
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    sorted.sort_by(f64::total_cmp);
    let typed = type_at(l, &sorted, FIRST, env, file, ctx)?;
    if typed.is_monotone() {
        return Some(typed);
    }
    type_at(l, &sorted, DENSE, env, file, ctx)
}

/// The body of `l` typed at `count` of the `sorted` values.
fn type_at<'a>(
    l: &'a Loop,
    sorted: &[f64],
    count: usize,
    env: &HashMap<&'a str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Option<IndexWork> {
    let mut values: Vec<f64> = positions(sorted.len(), count)
        .into_iter()
        .map(|k| sorted[k])
        .collect();
    values.dedup();
    if values.is_empty() {
        return None;
    }
    let mut env = env.clone();
    let mut ops = Vec::with_capacity(values.len());
    let mut works = Vec::with_capacity(values.len());
    for &v in &values {
        env.insert(l.var.as_str(), Type::scalar_const(v));
        let (_, _, w) = infer_with_operands(&l.body, &env, file, ctx).ok()?;
        ops.push(w.equivalent_ops());
        works.push(w);
    }
    Some(IndexWork { values, ops, works })
}
