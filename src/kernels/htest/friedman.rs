//! `friedman.test(y)`: y a matrix, rows blocks, columns groups; or
//! `friedman.test(y, groups, blocks)` with three vectors of one length.

use super::super::nmath::{pchisq, rsum};
use super::super::value::is_na;
use super::{htest_type_no_alt, rank, record, tie_counts};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use nalgebra::DMatrix;

const DIM_ERROR: &str = "dim(X) must have a positive length";

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("y") {
        None | Some(Type::Any) | Some(Type::Mat { .. }) => {}
        // `y ~ groups | blocks`: the evaluator hands the three columns to
        // the default method; any other formula is refused as it runs.
        Some(Type::Formula { .. }) => {}
        Some(t) if t.is_numeric() => {
            if !args.has("groups") {
                return Err(args.error("groups", "argument \"groups\" is missing, with no default"));
            }
            if !args.has("blocks") {
                return Err(args.error("blocks", "argument \"blocks\" is missing, with no default"));
            }
        }
        Some(t) => {
            return Err(args.error(
                "y",
                format!("friedman.test needs a numeric matrix, not {}", t.describe()),
            ))
        }
    }
    Ok(htest_type_no_alt())
}

/// A grouping vector's levels, as R's `factor()` sorts them, and each
/// element's level.
fn levels(v: &Value, name: &str) -> Result<(usize, Vec<usize>), KernelError> {
    let na = || KernelError::new("NA's are not allowed in 'groups' or 'blocks'");
    match v {
        // table(groups, blocks) counts every level, used or not: an unused
        // one leaves empty cells, which the design check refuses.
        Value::Factor(f) => {
            let codes = f
                .codes
                .iter()
                .map(|c| c.map(|c| c as usize).filter(|&c| c < f.levels.len()))
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(na)?;
            Ok((f.levels.len(), codes))
        }
        Value::Str(s) => {
            if s.iter().any(|x| x == "NA") {
                return Err(na());
            }
            let mut u: Vec<&String> = s.iter().collect();
            u.sort();
            u.dedup();
            Ok((
                u.len(),
                s.iter().map(|x| u.binary_search(&x).unwrap_or(0)).collect(),
            ))
        }
        other => {
            let x = other.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!(
                    "'{name}' must be a vector, not {}",
                    other.type_name()
                ))
            })?;
            if x.iter().any(|v| v.is_nan()) {
                return Err(na());
            }
            let mut u: Vec<f64> = x.to_vec();
            u.sort_by(f64::total_cmp);
            u.dedup();
            Ok((
                u.len(),
                x.iter().map(|v| u.partition_point(|w| w < v)).collect(),
            ))
        }
    }
}

/// R's friedman.test.default for vectors: `y` laid out as a blocks x
/// groups matrix, each cell given exactly once.
fn design(y: &Value, groups: &Value, blocks: &Value) -> Result<DMatrix<f64>, KernelError> {
    let yv = y
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("'y' must be numeric"))?;
    let (k, g) = levels(groups, "groups")?;
    let (n, b) = levels(blocks, "blocks")?;
    if yv.len() != g.len() || g.len() != b.len() {
        return Err(KernelError::new(
            "'y', 'groups' and 'blocks' must have the same length",
        ));
    }
    let mut seen = vec![0u32; n * k];
    let mut m = DMatrix::zeros(n, k);
    for ((&v, &gi), &bi) in yv.iter().zip(&g).zip(&b) {
        seen[bi + n * gi] += 1;
        m[(bi, gi)] = v;
    }
    if seen.iter().any(|&c| c != 1) {
        return Err(KernelError::new(
            "not an unreplicated complete block design",
        ));
    }
    Ok(m)
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let built;
    let m = match args.get("y") {
        Some(Value::Mat(m)) => m,
        Some(y @ (Value::Num(_) | Value::Bool(_))) => {
            match (args.get("groups"), args.get("blocks")) {
                (Some(g), Some(b)) if args.has("subset") || args.has("na.action") => {
                    let (y, g, b) = super::formula::block_frame(args, y, g, b)?;
                    built = design(&y, &g, &b)?;
                    &built
                }
                (Some(g), Some(b)) => {
                    built = design(y, g, b)?;
                    &built
                }
                (None, _) => {
                    return Err(KernelError::new(
                        "argument \"groups\" is missing, with no default",
                    ))
                }
                (Some(_), None) => {
                    return Err(KernelError::new(
                        "argument \"blocks\" is missing, with no default",
                    ))
                }
            }
        }
        // A formula the evaluator did not split: not `y ~ groups | blocks`.
        Some(Value::Formula(_)) => {
            return Err(KernelError::new("incorrect specification for 'formula'"))
        }
        Some(v) => {
            return Err(KernelError::new(format!(
                "friedman.test needs a numeric matrix, not {}",
                v.type_name()
            )))
        }
        None => {
            return Err(KernelError::new(
                "argument \"y\" is missing, with no default",
            ))
        }
    };
    let k = m.ncols();
    // incomplete blocks are dropped (R: y[complete.cases(y), ])
    let rows: Vec<Vec<f64>> = (0..m.nrows())
        .map(|i| (0..k).map(|j| m[(i, j)]).collect::<Vec<f64>>())
        .filter(|r| !r.iter().any(|&v| v.is_nan() || is_na(v)))
        .collect();
    let n = rows.len();
    // R's subsetting drops a single row or column to a vector, and apply()
    // then fails
    if n <= 1 || k <= 1 {
        return Err(KernelError::new(DIM_ERROR));
    }
    // Each block's ranks on its own, split among the call's workers; the
    // sums then run in block order, as on one worker.
    let ranked = crate::kernels::width::map_ranges(n, |blocks| {
        blocks
            .map(|i| {
                let rk = rank(&rows[i]);
                let ties = tie_counts(&rk);
                (rk, ties)
            })
            .collect()
    });
    let mut col_sums = vec![0.0; k];
    let mut ties = Vec::new();
    for (rk, block_ties) in &ranked {
        for (s, v) in col_sums.iter_mut().zip(rk) {
            *s += v;
        }
        for t in block_ties {
            ties.push(t * t * t - t);
        }
    }
    let (nf, kf) = (n as f64, k as f64);
    let dev: Vec<f64> = col_sums
        .iter()
        .map(|s| {
            let d = s - nf * (kf + 1.0) / 2.0;
            d * d
        })
        .collect();
    let statistic = 12.0 * rsum(&dev) / (nf * kf * (kf + 1.0) - rsum(&ties) / (kf - 1.0));
    let parameter = kf - 1.0;
    let p = pchisq(statistic, parameter, false, false);
    Ok(record(vec![
        ("statistic", super::nm(statistic, "Friedman chi-squared")),
        ("parameter", super::nm(parameter, "df")),
        ("p.value", Value::scalar(p)),
        ("method", Value::string("Friedman rank sum test")),
    ]))
}
