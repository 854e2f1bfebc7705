//! `mcnemar.test(x, y = NULL, correct = TRUE)`: McNemar's test of symmetry
//! of a square table, or of the table of two factors, as R 4.2's
//! `mcnemar.test`.

use nalgebra::DMatrix;

use super::record;
use crate::kernels::factor::as_factor;
use crate::kernels::nmath::{pchisq, rsum};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// `table(x, y)` of the complete pairs, both read with `as.factor` (a
/// factor keeps its levels, used or not).
fn paired_table(x: &Value, y: &Value) -> Result<DMatrix<f64>, KernelError> {
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' must have the same length"));
    }
    // complete.cases(x, y): as.factor codes NA exactly where x is NA.
    let (fx, fy) = (as_factor(x)?, as_factor(y)?);
    let ok: Vec<bool> = fx
        .codes
        .iter()
        .zip(&fy.codes)
        .map(|(a, b)| a.is_some() && b.is_some())
        .collect();
    let subset = |v: &Value, f: crate::kernels::value::Factor| -> Result<Value, KernelError> {
        let codes = f
            .codes
            .iter()
            .zip(&ok)
            .filter(|(_, k)| **k)
            .map(|(c, _)| *c)
            .collect();
        let sub = crate::kernels::value::Factor {
            codes,
            levels: f.levels,
            ordered: false,
        };
        Ok(match v {
            // as.factor(x[OK]) of text or numbers: only the values kept
            // become levels.
            Value::Factor(_) => Value::Factor(sub),
            _ => Value::Factor(crate::kernels::factor::drop_unused(&sub)),
        })
    };
    let (Value::Factor(fx), Value::Factor(fy)) = (subset(x, fx)?, subset(y, fy)?) else {
        return Err(KernelError::new("'x' and 'y' must have the same length"));
    };
    let r = fx.levels.len();
    if r < 2 || fy.levels.len() != r {
        return Err(KernelError::new(
            "'x' and 'y' must have the same number of levels (minimum 2)",
        ));
    }
    let mut t = DMatrix::<f64>::zeros(r, r);
    for (a, b) in fx.codes.iter().zip(&fy.codes) {
        if let (Some(a), Some(b)) = (a, b) {
            t[(*a as usize, *b as usize)] += 1.0;
        }
    }
    Ok(t)
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let correct = args.bool_or("correct", true)?;
    let x = match x {
        Value::Mat(m) => {
            let r = m.nrows();
            if r < 2 || m.ncols() != r {
                return Err(KernelError::new(
                    "'x' must be square with at least two rows and columns",
                ));
            }
            if m.iter().any(|v| v.is_nan() || *v < 0.0) {
                return Err(KernelError::new(
                    "all entries of 'x' must be nonnegative and finite",
                ));
            }
            m.clone()
        }
        _ => match args.get("y") {
            None | Some(Value::Null) => {
                return Err(KernelError::new(
                    "if 'x' is not a matrix, 'y' must be given",
                ))
            }
            Some(y) => paired_table(x, y)?,
        },
    };
    let r = x.nrows();
    let parameter = (r * (r - 1)) as f64 / 2.0;
    let mut method = "McNemar's Chi-squared test".to_string();
    let xt = x.transpose();
    let diff = &x - &xt;
    let y = if correct && r == 2 && diff.iter().any(|v| *v != 0.0) {
        method.push_str(" with continuity correction");
        diff.map(|v| v.abs() - 1.0)
    } else {
        diff
    };
    let s = &x + &xt;
    // y[upper.tri(x)]^2 / x[upper.tri(x)], column by column.
    let mut terms = Vec::new();
    for j in 0..r {
        for i in 0..j {
            terms.push(y[(i, j)].powi(2) / s[(i, j)]);
        }
    }
    let stat = rsum(&terms);
    Ok(record(vec![
        ("statistic", super::nm(stat, "McNemar's chi-squared")),
        ("parameter", super::nm(parameter, "df")),
        (
            "p.value",
            Value::scalar(pchisq(stat, parameter, false, false)),
        ),
        ("method", Value::string(&method)),
    ]))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat {
            rows: Some(r),
            cols: Some(c),
        }) if *r < 2 || r != c => {
            return Err(args.error("x", "'x' must be square with at least two rows and columns"))
        }
        Some(Type::Mat { .. } | Type::Any) | None => {}
        Some(t) => {
            if matches!(args.ty("y"), None | Some(Type::Null)) {
                return Err(args.error("x", "if 'x' is not a matrix, 'y' must be given"));
            }
            if let (Some(a), Some(b)) = (t.len(), args.ty("y").and_then(Type::len)) {
                if a != b {
                    return Err(args.error("y", "'x' and 'y' must have the same length"));
                }
            }
        }
    }
    Ok(super::htest_type_no_alt())
}
