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

/// Values of the loop variable the body is typed at.
const SAMPLES: usize = 9;

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
    // The distinct values at evenly spaced positions of the sorted range.
    let mut sorted: Vec<f64> = iterations
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    sorted.sort_by(f64::total_cmp);
    let mut values: Vec<f64> = (0..SAMPLES)
        .map(|k| sorted[(k * (sorted.len() - 1)) / (SAMPLES - 1)])
        .collect();
    values.dedup();
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
