//! `dist(x, method, diag, upper, p)`: R's `distance.c`. Rows are
//! observations; a pair's coordinates where either value is NA/NaN are
//! dropped and the sum is scaled up by `ncol / used` (not for `maximum`).

use super::{as_matrix, matrix_dims, pmatch, KernelError, Type, Value};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::{List, NA};
use crate::kernels::ShapeCtx;
use nalgebra::DMatrix;

pub(super) const METHODS: [&str; 6] = [
    "euclidean",
    "maximum",
    "manhattan",
    "canberra",
    "binary",
    "minkowski",
];

/// R's method matching, including its acceptance of the misspelling
/// "euclidian" (and its prefixes).
pub(super) fn method_index(s: &str) -> Option<usize> {
    if pmatch(s, &["euclidian"]).is_some() {
        return Some(0);
    }
    pmatch(s, &METHODS)
}

/// The type of a dist object of `n` points (`None`: any number): its
/// distances and size, the fields `between` (dist's method), and the
/// labels `names::carry` sets from the rows' names.
pub fn dist_type(n: Option<usize>, between: Vec<(&str, Type)>) -> Type {
    let mut fields = vec![
        (
            "values",
            n.map_or_else(Type::num_unknown, |n| {
                Type::num(n * n.saturating_sub(1) / 2)
            }),
        ),
        (
            "size",
            n.map_or_else(|| Type::num(1), |n| Type::scalar_const(n as f64)),
        ),
    ];
    fields.extend(between);
    fields.push(("labels", Type::Any));
    Type::record("dist", fields)
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").unwrap_or(&Type::Any);
    let Some((rows, _)) = matrix_dims(x) else {
        return Err(args.error(
            "x",
            format!("dist() needs a numeric matrix, not {}", x.describe()),
        ));
    };
    let method = match args.get("method") {
        None => Some("euclidean"),
        Some(t) => match t.const_str() {
            Some(s) => match method_index(s) {
                Some(i) => Some(METHODS[i]),
                None => return Err(args.error("method", "invalid distance method")),
            },
            None => None,
        },
    };
    if method == Some("minkowski") {
        if let Some(p) = args.const_scalar_or("p", Some(2.0))? {
            if !p.is_finite() || p <= 0.0 {
                return Err(args.error("p", "distance(): invalid p"));
            }
        }
    }
    Ok(dist_type(
        rows,
        vec![(
            "method",
            method.map_or(
                Type::Str {
                    len: Some(1),
                    value: None,
                },
                Type::str_const,
            ),
        )],
    ))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut crate::kernels::Ctx) -> Result<Value, KernelError> {
    let x = as_matrix(args.get("x").unwrap_or(&Value::Null), "dist", "x")?;
    let method_name = args.str_or("method", "euclidean")?;
    let method =
        method_index(method_name).ok_or_else(|| KernelError::new("invalid distance method"))?;
    let p = args.scalar_or("p", 2.0)?;
    if method == 5 && (!p.is_finite() || p <= 0.0) {
        return Err(KernelError::new("distance(): invalid p"));
    }
    let values = distances(&x.data, x.nrow, x.ncol, method, p);
    Ok(Value::List(List::record(
        "dist",
        vec![
            ("values", Value::Num(values)),
            ("size", Value::scalar(x.nrow as f64)),
            ("method", Value::string(METHODS[method])),
            ("labels", Value::Null),
        ],
    )))
}

/// `as.dist(m, diag, upper)`: R 4.2.2's stats/R/dist.R `as.dist.default`,
/// the lower triangle `m[row(m) > col(m)]` of a square matrix as a dist
/// of size `nrow(m)` (its labels, m's row or else column names, are set
/// by `names::carry`); a dist is returned as it is.
pub(super) fn as_dist_eval(
    args: &Args<&Value>,
    _: &mut crate::kernels::Ctx,
) -> Result<Value, KernelError> {
    let m = args
        .get("m")
        .ok_or_else(|| KernelError::new("argument \"m\" is missing, with no default"))?;
    if let Value::List(l) = m {
        if l.class.as_deref() == Some("dist") {
            return Ok(m.clone());
        }
    }
    let x = as_matrix(m, "as.dist", "m")?;
    // R only warns "non-square matrix" and makes a dist whose length does
    // not fit its size, which every later use refuses.
    if x.nrow != x.ncol {
        return Err(KernelError::new(format!(
            "flowcast's as.dist takes a square matrix (R warns \"non-square matrix\"): this one is {}x{}",
            x.nrow, x.ncol
        )));
    }
    let n = x.nrow;
    let mut values = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for j in 0..n {
        for i in j + 1..n {
            values.push(x.data[i + j * n]);
        }
    }
    Ok(Value::List(List::record(
        "dist",
        vec![
            ("values", Value::Num(values)),
            ("size", Value::scalar(n as f64)),
            ("labels", Value::Null),
        ],
    )))
}

pub(super) fn as_dist_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let m = args.ty("m").unwrap_or(&Type::Any);
    if let Type::Record { class, .. } = m {
        if class == "dist" {
            return Ok(m.clone());
        }
    }
    let Some((rows, cols)) = matrix_dims(m) else {
        return Err(args.error(
            "m",
            format!("as.dist() needs a numeric matrix, not {}", m.describe()),
        ));
    };
    if let (Some(r), Some(c)) = (rows, cols) {
        if r != c {
            return Err(args.error(
                "m",
                format!("flowcast's as.dist takes a square matrix (R warns \"non-square matrix\"): this one is {r}x{c}"),
            ));
        }
    }
    Ok(dist_type(rows, Vec::new()))
}

/// `as.matrix` of a dist object (R's `as.matrix.dist`): the symmetric
/// n×n matrix its lower triangle describes, zeros on the diagonal. `None`
/// when `v` is not a dist whose values fit its size.
pub fn as_square(v: &Value) -> Option<DMatrix<f64>> {
    let Value::List(l) = v else { return None };
    if l.class.as_deref() != Some("dist") {
        return None;
    }
    let values = l.field("values")?.as_f64_slice()?;
    let n = match l.field("size").and_then(|s| s.as_f64_slice()) {
        Some(s) if s.len() == 1 && s[0] >= 0.0 && s[0] <= usize::MAX as f64 => s[0] as usize,
        _ => return None,
    };
    if n.checked_mul(n.saturating_sub(1))? / 2 != values.len() {
        return None;
    }
    let mut m = DMatrix::zeros(n, n);
    let mut k = 0;
    for j in 0..n {
        for i in j + 1..n {
            m[(i, j)] = values[k];
            m[(j, i)] = values[k];
            k += 1;
        }
    }
    Some(m)
}

/// The lower triangle of the distance matrix in R's order (column by
/// column): d(2,1), d(3,1), …, d(n,1), d(3,2), …
pub(super) fn distances(x: &[f64], nr: usize, nc: usize, method: usize, p: f64) -> Vec<f64> {
    use rayon::prelude::*;
    // Coordinates still summed in column order.
    let rows = super::by_rows(x, nr, nc);
    let row = |i: usize| &rows[i * nc..(i + 1) * nc];
    // Column j holds nr − 1 − j distances, column after column.
    let offset = |j: usize| j * nr - j * (j + 1) / 2;
    let fill = |cols: std::ops::Range<usize>, d: &mut [f64]| {
        let mut out = d.iter_mut();
        for j in cols {
            for i in j + 1..nr {
                let pairs = row(i).iter().copied().zip(row(j).iter().copied());
                if let Some(o) = out.next() {
                    *o = match method {
                        0 => euclidean(pairs, nc),
                        1 => maximum(pairs),
                        2 => manhattan(pairs, nc),
                        3 => canberra(pairs, nc),
                        4 => binary(pairs),
                        _ => minkowski(pairs, nc, p),
                    };
                }
            }
        }
    };
    // Written in place: grown by pushes, the vector was copied at each
    // doubling, onto fresh pages the kernel zeroed first.
    let total = offset(nr);
    let mut d = vec![0.0; total];
    let k = crate::kernels::width::width();
    if k <= 1 || nr < 64 {
        fill(0..nr, &mut d);
        return d;
    }
    // Run k wide: the columns are cut where each part holds an equal share
    // of the distances. Each distance is computed whole by one thread: the
    // same numbers as on one.
    let mut cuts = vec![0usize];
    let mut done = 0usize;
    for j in 0..nr {
        done += nr - 1 - j;
        if done * k >= total * cuts.len() && cuts.len() < k {
            cuts.push(j + 1);
        }
    }
    cuts.push(nr);
    cuts.dedup();
    let mut parts = Vec::with_capacity(cuts.len());
    let mut rest = &mut d[..];
    for w in cuts.windows(2) {
        let (part, tail) = rest.split_at_mut(offset(w[1]) - offset(w[0]));
        parts.push((w[0]..w[1], part));
        rest = tail;
    }
    parts
        .into_par_iter()
        .for_each(|(cols, part)| fill(cols, part));
    d
}

/// `dist /= count / nc` when coordinates were dropped, NA when all were.
fn scaled(dist: f64, count: usize, nc: usize) -> f64 {
    if count == 0 {
        NA
    } else if count != nc {
        dist / (count as f64 / nc as f64)
    } else {
        dist
    }
}

fn usable(pairs: impl Iterator<Item = (f64, f64)>) -> impl Iterator<Item = (f64, f64)> {
    pairs.filter(|(a, b)| !a.is_nan() && !b.is_nan())
}

fn euclidean(pairs: impl Iterator<Item = (f64, f64)>, nc: usize) -> f64 {
    let (mut dist, mut count) = (0.0, 0);
    for (a, b) in usable(pairs) {
        let dev = a - b;
        if !dev.is_nan() {
            dist += dev * dev;
            count += 1;
        }
    }
    let d = scaled(dist, count, nc);
    if count == 0 {
        d
    } else {
        d.sqrt()
    }
}

fn maximum(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut dist, mut count) = (-f64::MAX, 0);
    for (a, b) in usable(pairs) {
        let dev = (a - b).abs();
        if !dev.is_nan() {
            if dev > dist {
                dist = dev;
            }
            count += 1;
        }
    }
    if count == 0 {
        NA
    } else {
        dist
    }
}

fn manhattan(pairs: impl Iterator<Item = (f64, f64)>, nc: usize) -> f64 {
    let (mut dist, mut count) = (0.0, 0);
    for (a, b) in usable(pairs) {
        let dev = (a - b).abs();
        if !dev.is_nan() {
            dist += dev;
            count += 1;
        }
    }
    scaled(dist, count, nc)
}

/// sum(|a - b| / (|a| + |b|)); terms with 0/0 are left out (and the sum
/// scaled up, as for NAs);
/// Inf/Inf counts as 1.
fn canberra(pairs: impl Iterator<Item = (f64, f64)>, nc: usize) -> f64 {
    let (mut dist, mut count) = (0.0, 0);
    for (a, b) in usable(pairs) {
        let sum = a.abs() + b.abs();
        let diff = (a - b).abs();
        if sum > f64::MIN_POSITIVE || diff > f64::MIN_POSITIVE {
            let mut dev = diff / sum;
            let ok = if dev.is_nan() {
                if !diff.is_finite() && diff == sum {
                    dev = 1.0;
                    true
                } else {
                    false
                }
            } else {
                true
            };
            if ok {
                dist += dev;
                count += 1;
            }
        }
    }
    scaled(dist, count, nc)
}

/// Non-finite values count as NA (R warns); the share of coordinates
/// where exactly one is non-zero among those where at least one is.
fn binary(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut total, mut count, mut dist) = (0u64, 0u64, 0u64);
    for (a, b) in usable(pairs) {
        if a.is_finite() && b.is_finite() {
            if a != 0.0 || b != 0.0 {
                count += 1;
                if !(a != 0.0 && b != 0.0) {
                    dist += 1;
                }
            }
            total += 1;
        }
    }
    if total == 0 {
        NA
    } else if count == 0 {
        0.0
    } else {
        dist as f64 / count as f64
    }
}

fn minkowski(pairs: impl Iterator<Item = (f64, f64)>, nc: usize, p: f64) -> f64 {
    let (mut dist, mut count) = (0.0, 0);
    for (a, b) in usable(pairs) {
        let dev = a - b;
        if !dev.is_nan() {
            dist += r_pow(dev.abs(), p);
            count += 1;
        }
    }
    if count == 0 {
        return NA;
    }
    r_pow(scaled(dist, count, nc), 1.0 / p)
}

/// R's `R_pow(x, y)` for the finite positive `y` that `dist` allows.
fn r_pow(x: f64, y: f64) -> f64 {
    if y == 2.0 {
        return x * x;
    }
    if x == 1.0 || y == 0.0 {
        return 1.0;
    }
    if x == 0.0 {
        return if y > 0.0 { 0.0 } else { f64::INFINITY };
    }
    if x.is_finite() && y.is_finite() {
        return x.powf(y);
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    // x is +Inf here (|dev| and sums are never negative).
    if y < 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_order_matches_r() {
        // x = matrix(1:6, 3): d21 = d32 = sqrt(2), d31 = sqrt(8).
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let d = distances(&x, 3, 2, 0, 2.0);
        assert_eq!(d, vec![2f64.sqrt(), 8f64.sqrt(), 2f64.sqrt()]);
    }

    #[test]
    fn canberra_skips_zero_over_zero_and_scales_up() {
        let x = [0.0, 0.0, 1.0, NA, 0.0, 3.0];
        let d = distances(&x, 3, 2, 3, 2.0);
        assert!(crate::kernels::value::is_na(d[0]));
        assert_eq!(&d[1..], &[2.0, 2.0]);
    }
}
