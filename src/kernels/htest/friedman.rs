//! `friedman.test(y)`: y a matrix, rows blocks, columns groups.

use super::super::nmath::{pchisq, rsum};
use super::super::value::is_na;
use super::{htest_type_no_alt, rank, record, tie_counts};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

const DIM_ERROR: &str = "dim(X) must have a positive length";

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("y") {
        None | Some(Type::Any) | Some(Type::Mat { .. }) => {}
        Some(t) if t.is_numeric() => {
            if !args.has("groups") {
                return Err(args.error("groups", "argument \"groups\" is missing, with no default"));
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

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let m = match args.get("y") {
        Some(Value::Mat(m)) => m,
        Some(Value::Num(_)) | Some(Value::Bool(_)) => {
            return Err(KernelError::new(if args.has("groups") {
                "friedman.test with 'groups' and 'blocks' is not supported: give a matrix"
            } else {
                "argument \"groups\" is missing, with no default"
            }))
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
    let mut col_sums = vec![0.0; k];
    let mut ties = Vec::new();
    for r in &rows {
        let rk = rank(r);
        for (s, v) in col_sums.iter_mut().zip(&rk) {
            *s += v;
        }
        for t in tie_counts(&rk) {
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
        ("statistic", Value::scalar(statistic)),
        ("parameter", Value::scalar(parameter)),
        ("p.value", Value::scalar(p)),
        ("method", Value::string("Friedman rank sum test")),
    ]))
}
