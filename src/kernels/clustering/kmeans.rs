//! `kmeans(x, centers, iter.max, nstart, algorithm)`: R's `kmeans()` R code
//! (argument checks, the order of its `sample.int` draws, `nstart`
//! restarts) around the algorithms in `kmns.rs`.

use super::kmns::{self, Fit};
use super::{as_matrix, long_sum, matrix_dims, pmatch, KernelError, Type, Value};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::List;
use crate::kernels::width;
use crate::kernels::{Ctx, ShapeCtx};
use nalgebra::DMatrix;
use std::collections::HashSet;

const ALGORITHMS: [&str; 4] = ["Hartigan-Wong", "Lloyd", "Forgy", "MacQueen"];

/// `match.arg(algorithm)`: 1 Hartigan-Wong, 2 Lloyd/Forgy, 3 MacQueen.
pub(super) fn method(s: &str) -> Result<u8, String> {
    match pmatch(s, &ALGORITHMS) {
        Some(0) => Ok(1),
        Some(1 | 2) => Ok(2),
        Some(_) => Ok(3),
        None => Err(
            "'arg' should be one of \u{201c}Hartigan-Wong\u{201d}, \u{201c}Lloyd\u{201d}, \
             \u{201c}Forgy\u{201d}, \u{201c}MacQueen\u{201d}"
                .to_string(),
        ),
    }
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").unwrap_or(&Type::Any);
    let Some((m, p)) = matrix_dims(x) else {
        return Err(args.error(
            "x",
            format!("kmeans() needs a numeric matrix, not {}", x.describe()),
        ));
    };
    let nmeth = match args.get("algorithm") {
        None => Some(1),
        Some(t) => match t.const_str() {
            Some(s) => Some(method(s).map_err(|e| args.error("algorithm", e))?),
            None => None,
        },
    };
    if let Some(it) = args.const_scalar_or("iter.max", Some(10.0))? {
        if it.is_nan() || it.trunc() < 1.0 {
            return Err(args.error("iter.max", "'iter.max' must be positive"));
        }
    }
    let centers = args
        .ty("centers")
        .ok_or_else(|| ArgError::call("'centers' must be a number or a matrix"))?;
    let k = match centers {
        // Any length-one `centers` is the number k in R, a 1 x 1 matrix too.
        Type::Num { len: Some(1), .. }
        | Type::Bool { len: Some(1), .. }
        | Type::Mat {
            rows: Some(1),
            cols: Some(1),
        } => {
            let k = centers.const_scalar();
            if let (Some(k), Some(m)) = (k, m) {
                if k.trunc() > m as f64 {
                    return Err(args.error(
                        "centers",
                        "cannot take a sample larger than the population when 'replace = FALSE'",
                    ));
                }
            }
            k.filter(|k| *k >= 0.0).map(|k| k.trunc() as usize)
        }
        t => match matrix_dims(t) {
            Some((k, pc)) => {
                if let (Some(p), Some(pc)) = (p, pc) {
                    if p != pc {
                        return Err(args.error(
                            "centers",
                            "must have same number of columns in 'x' and 'centers'",
                        ));
                    }
                }
                if let (Some(k), Some(m)) = (k, m) {
                    if m < k {
                        return Err(args.error("centers", "more cluster centers than data points"));
                    }
                }
                k
            }
            None => return Err(args.error("centers", "'centers' must be a number or a matrix")),
        },
    };
    let num = |n: Option<usize>| n.map_or_else(Type::num_unknown, Type::num);
    Ok(Type::record(
        "kmeans",
        vec![
            ("cluster", num(m)),
            ("centers", Type::Mat { rows: k, cols: p }),
            ("totss", Type::num(1)),
            ("withinss", num(k)),
            ("tot.withinss", Type::num(1)),
            ("betweenss", Type::num(1)),
            ("size", num(k)),
            ("iter", Type::num(1)),
            // NULL for Lloyd and MacQueen unless they did not converge.
            (
                "ifault",
                if nmeth == Some(1) && k != Some(1) {
                    Type::num(1)
                } else {
                    Type::Any
                },
            ),
        ],
    ))
}

/// R's row identity for `duplicated()`/`unique()` on a matrix: rows are
/// pasted with `as.character`, i.e. numbers compared to 15 significant
/// digits; a one-column matrix compares the numbers themselves.
fn row_key(x: &[f64], nrow: usize, ncol: usize, i: usize) -> Vec<u64> {
    (0..ncol)
        .map(|j| {
            let v = x[i + j * nrow];
            let v = if v == 0.0 { 0.0 } else { v };
            if ncol == 1 || !v.is_finite() {
                return if crate::kernels::value::is_na(v) {
                    1
                } else if v.is_nan() {
                    2
                } else {
                    v.to_bits()
                };
            }
            let s = format!("{v:.14e}");
            s.parse::<f64>().map_or(3, f64::to_bits)
        })
        .collect()
}

/// Indices of the first occurrence of each distinct row (R's `unique(x)`).
fn unique_rows(x: &[f64], nrow: usize, ncol: usize) -> Vec<usize> {
    let mut seen = HashSet::new();
    (0..nrow)
        .filter(|&i| seen.insert(row_key(x, nrow, ncol, i)))
        .collect()
}

fn rows_of(x: &[f64], nrow: usize, ncol: usize, rows: &[usize]) -> Vec<f64> {
    let k = rows.len();
    let mut out = vec![0.0; k * ncol];
    for j in 0..ncol {
        for (r, &i) in rows.iter().enumerate() {
            out[r + j * k] = x[i + j * nrow];
        }
    }
    out
}

/// `sample.int(n, k)`, 0-based, with R's errors.
fn sample(ctx: &mut Ctx, n: usize, k: f64) -> Result<Vec<usize>, KernelError> {
    if k.is_nan() || k < 0.0 {
        return Err(KernelError::new("invalid 'size' argument"));
    }
    let k = k.trunc();
    if k > n as f64 {
        return Err(KernelError::new(
            "cannot take a sample larger than the population when 'replace = FALSE'",
        ));
    }
    Ok(ctx
        .rng
        .sample_int(n, k as usize)
        .into_iter()
        .map(|i| i.saturating_sub(1))
        .collect())
}

fn count(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    args.scalar_or(name, default)
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = as_matrix(args.get("x").unwrap_or(&Value::Null), "kmeans", "x")?;
    let (x, m, p) = (xv.data.as_ref(), xv.nrow, xv.ncol);
    let centers_v = match args.get("centers") {
        None | Some(Value::Null) => {
            return Err(KernelError::new("'centers' must be a number or a matrix"))
        }
        Some(v) => v,
    };
    let mut nmeth = method(args.str_or("algorithm", "Hartigan-Wong")?).map_err(KernelError)?;
    let nstart = count(args, "nstart", 1.0)?;
    let iter_max = count(args, "iter.max", 10.0)?;

    // Initial centres, drawing exactly as R does.
    let mut distinct: Option<Vec<usize>> = None;
    let (k, centers) = if centers_v.len() == 1 {
        let k = centers_v
            .as_scalar()
            .ok_or_else(|| KernelError::new("'centers' must be a number or a matrix"))?;
        if k > -1.0 && k < 1.0 {
            // R would sample no rows and fail on dimnames; say what is wrong.
            return Err(KernelError::new(
                "number of cluster centres must lie between 1 and nrow(x)",
            ));
        }
        let mut centers = None;
        if nstart == 1.0 {
            let rows = sample(ctx, m, k)?;
            let c = rows_of(x, m, p, &rows);
            let dup = unique_rows(&c, rows.len(), p).len() < rows.len();
            centers = Some(c);
            if dup {
                centers = None;
            }
        }
        if nstart >= 2.0 || centers.is_none() && nstart == 1.0 {
            let cn = unique_rows(x, m, p);
            if (cn.len() as f64) < k {
                return Err(KernelError::new(
                    "more cluster centers than distinct data points.",
                ));
            }
            let rows: Vec<usize> = sample(ctx, cn.len(), k)?.iter().map(|&r| cn[r]).collect();
            centers = Some(rows_of(x, m, p, &rows));
            distinct = Some(cn);
        }
        let centers = centers.ok_or_else(|| KernelError::new("argument is of length zero"))?;
        (k.trunc() as usize, centers)
    } else {
        let c = as_matrix(centers_v, "kmeans", "centers")?;
        if unique_rows(&c.data, c.nrow, c.ncol).len() < c.nrow {
            return Err(KernelError::new("initial centers are not distinct"));
        }
        if m < c.nrow {
            return Err(KernelError::new("more cluster centers than data points"));
        }
        if c.ncol != p {
            return Err(KernelError::new(
                "must have same number of columns in 'x' and 'centers'",
            ));
        }
        (c.nrow, c.data.into_owned())
    };
    // R's Lloyd and MacQueen fail obscurely on zero centres (a dimnames
    // error) and Hartigan-Wong with this message: give it for all three.
    if k == 0 {
        return Err(KernelError::new(
            "number of cluster centres must lie between 1 and nrow(x)",
        ));
    }
    if k == 1 {
        nmeth = 3;
    }
    if iter_max.is_nan() || iter_max.trunc() < 1.0 {
        return Err(KernelError::new("'iter.max' must be positive"));
    }
    let iter_max = iter_max.trunc().min(i32::MAX as f64) as usize;

    // R runs the starts one after another, drawing each one's centres
    // just before it. The runs draw nothing, so the centres of a batch of
    // starts can be drawn first, in R's order, the batch run on the call's
    // workers, and the fits compared and warned about in R's order: the
    // same draws, the same winner (the first of equal sums), the same
    // warnings, whatever the width.
    // R's further starts are `for(i in 2:nstart)`, whose seq_colon refuses
    // a range past R_XLEN_T_MAX: `nstart = Inf` (or 1e308) is that error
    // in R, where the batches below would run for ever.
    if distinct.is_some() && nstart >= 2.0 && nstart - 2.0 >= 4_503_599_627_370_496.0 {
        return Err(KernelError::new("result would be too long a vector"));
    }
    let mut starts = vec![centers];
    let mut fit: Option<Fit> = None;
    let mut best = 0.0;
    let mut left = nstart;
    loop {
        // A few starts per worker in a batch: their times differ, and the
        // workers take them one by one.
        let batch = (4 * width::width()) as f64;
        if let Some(cn) = &distinct {
            while (starts.len() as f64) < batch && left - (starts.len() as f64) >= 1.0 {
                let rows: Vec<usize> = sample(ctx, cn.len(), k as f64)?
                    .iter()
                    .map(|&r| cn[r])
                    .collect();
                starts.push(rows_of(x, m, p, &rows));
            }
        }
        let ran = width::map_each(starts.len(), |i| {
            run(nmeth, x, m, p, &starts[i], k, iter_max)
        });
        left -= starts.len() as f64;
        starts.clear();
        for other in ran {
            let other = other?;
            warn_fit(ctx, nmeth, &other, m, iter_max);
            let z = long_sum(other.wss.iter().copied());
            if fit.is_none() || z < best {
                fit = Some(other);
                best = z;
            }
        }
        if distinct.is_none() || left < 1.0 {
            break;
        }
    }
    let fit = fit.ok_or_else(|| KernelError::new("argument is of length zero"))?;

    let totss = long_sum((0..p).flat_map(|j| {
        let col = &x[j * m..(j + 1) * m];
        let mean = long_sum(col.iter().copied()) / m as f64;
        col.iter().map(move |&v| (v - mean) * (v - mean))
    }));
    let ifault = if nmeth == 1 {
        Value::scalar(f64::from(fit.ifault))
    } else if fit.iter > iter_max {
        Value::scalar(2.0)
    } else {
        Value::Null
    };
    let iter = if nmeth == 1 && fit.ifault == 2 {
        fit.iter.max(iter_max + 1)
    } else {
        fit.iter
    };
    let nums = |v: &[usize]| Value::Num(v.iter().map(|&c| c as f64).collect());
    Ok(Value::List(List::record(
        "kmeans",
        vec![
            ("cluster", nums(&fit.cluster)),
            (
                "centers",
                Value::Mat(DMatrix::from_column_slice(k, p, &fit.centers)),
            ),
            ("totss", Value::scalar(totss)),
            ("withinss", Value::Num(fit.wss)),
            ("tot.withinss", Value::scalar(best)),
            ("betweenss", Value::scalar(totss - best)),
            ("size", nums(&fit.size)),
            ("iter", Value::scalar(iter as f64)),
            ("ifault", ifault),
        ],
    )))
}

/// The warnings R's `do_one(nmeth)` gives for one run, in its order.
fn warn_fit(ctx: &mut Ctx, nmeth: u8, fit: &Fit, m: usize, iter_max: usize) {
    let empty = "empty cluster: try a better set of initial centers";
    let lloyd_like = nmeth != 1;
    if nmeth == 1 && fit.ifault == 4 {
        let qtran = (50 * m as i64).min(i64::from(i32::MAX));
        ctx.warn(format!(
            "Quick-TRANSfer stage steps exceeded maximum (= {qtran})"
        ));
    }
    if lloyd_like && fit.size.contains(&0) {
        ctx.warn(empty);
    }
    if fit.iter > iter_max || (nmeth == 1 && fit.ifault == 2) {
        let unit = if iter_max == 1 {
            "iteration"
        } else {
            "iterations"
        };
        ctx.warn(format!("did not converge in {iter_max} {unit}"));
    }
    if lloyd_like && fit.size.contains(&0) {
        ctx.warn(empty);
    }
}

/// `do_one(nmeth)`: one run, with R's errors for bad input and faults.
fn run(
    nmeth: u8,
    x: &[f64],
    m: usize,
    p: usize,
    centers: &[f64],
    k: usize,
    iter_max: usize,
) -> Result<Fit, KernelError> {
    if x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    if centers.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 4)",
        ));
    }
    match nmeth {
        1 => {
            let max_qtran = (50 * m as i64).min(i32::MAX as i64);
            let fit = kmns::hartigan_wong(x, m, p, centers, k, iter_max, max_qtran);
            match fit.ifault {
                1 => Err(KernelError::new(
                    "empty cluster: try a better set of initial centers",
                )),
                3 => Err(KernelError::new(
                    "number of cluster centres must lie between 1 and nrow(x)",
                )),
                _ => Ok(fit),
            }
        }
        2 => Ok(kmns::lloyd(x, m, p, centers, k, iter_max)),
        _ => Ok(kmns::macqueen(x, m, p, centers, k, iter_max)),
    }
}
