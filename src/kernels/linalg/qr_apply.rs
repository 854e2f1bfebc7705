//! `qr.coef`, `qr.resid`, `qr.fitted`, `qr.qy` and `qr.qty` of a `qr()`
//! result: R's `dqrcf`, `dqrrsd`, `dqrxb`, `dqrqy` and `dqrqty`, each a
//! LINPACK `dqrsl` per column of `y` through the first `rank` (or `k`)
//! reflections, as R runs them.

use nalgebra::DMatrix;

use super::linpack::{dqrsl, Job, Qr};
use super::qr_solve::qr_of;
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::names::bare;
use crate::kernels::value::NA;
use crate::kernels::Ctx;

/// `y` as columns of `n` rows, and whether it was a matrix.
fn columns(y: &Value) -> Result<(Vec<Vec<f64>>, usize, bool), KernelError> {
    let bad = || KernelError::new(format!("invalid 'y': a {}", y.type_name()));
    match bare(y) {
        Value::Mat(m) => Ok((
            m.column_iter()
                .map(|c| c.iter().copied().collect())
                .collect(),
            m.nrows(),
            true,
        )),
        Value::BoolMat(m) => {
            let m = m.map(crate::kernels::value::logical_f64);
            Ok((
                m.column_iter()
                    .map(|c| c.iter().copied().collect())
                    .collect(),
                m.nrows(),
                true,
            ))
        }
        v @ (Value::Num(_) | Value::Bool(_)) => {
            let d = v.as_f64_slice().ok_or_else(bad)?.into_owned();
            let n = d.len();
            Ok((vec![d], n, false))
        }
        _ => Err(bad()),
    }
}

fn shaped(cols: Vec<Vec<f64>>, rows: usize, matrix: bool) -> Value {
    if matrix {
        let k = cols.len();
        Value::Mat(DMatrix::from_vec(rows, k, cols.concat()))
    } else {
        Value::Num(cols.into_iter().next().unwrap_or_default())
    }
}

fn the_qr(args: &Args<&Value>, message: &str) -> Result<Qr, KernelError> {
    args.get("qr")
        .map(bare)
        .and_then(qr_of)
        .ok_or_else(|| KernelError::new(message))
}

fn y_arg<'a>(args: &'a Args<&Value>) -> Result<&'a Value, KernelError> {
    args.get("y")
        .ok_or_else(|| KernelError::new("argument \"y\" is missing, with no default"))
}

const ROWS: &str = "'qr' and 'y' must have the same number of rows";

/// `qr.coef(qr, y)`: aliased coefficients NA.
pub(super) fn coef_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let q = the_qr(args, "first argument must be a QR decomposition")?;
    let (cols, rows, matrix) = columns(y_arg(args)?)?;
    if rows != q.n {
        return Err(KernelError::new(ROWS));
    }
    let k = q.rank;
    let mut out = vec![vec![NA; q.p]; cols.len()];
    if k > 0 {
        for (y, o) in cols.iter().zip(out.iter_mut()) {
            let r = dqrsl(
                &q,
                k,
                y,
                Job {
                    b: true,
                    ..Job::default()
                },
            );
            if r.info != 0 {
                return Err(KernelError::new("exact singularity in 'qr.coef'"));
            }
            for (i, b) in r.b.iter().enumerate().take(k) {
                if let Some(slot) = q.pivot.get(i).and_then(|&p| o.get_mut(p - 1)) {
                    *slot = *b;
                }
            }
        }
    }
    Ok(shaped(out, q.p, matrix))
}

/// `qr.resid`, `qr.fitted(qr, y, k)`, `qr.qy` and `qr.qty`.
pub(super) fn apply_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let q = the_qr(args, "argument is not a QR decomposition")?;
    let y = y_arg(args)?;
    let func = args.func;
    if func == "qr.resid" && q.rank == 0 {
        return Ok(bare(y).clone());
    }
    let k = if func == "qr.fitted" {
        match args.get_if_formal("k") {
            None => q.rank,
            Some(v) => {
                let k = v
                    .as_scalar()
                    .filter(|k| !k.is_nan())
                    .ok_or_else(|| KernelError::new("invalid 'k'"))?
                    .trunc();
                if k > q.rank as f64 {
                    return Err(KernelError::new("'k' is too large"));
                }
                // LINPACK takes a negative k as none.
                k.max(0.0) as usize
            }
        }
    } else {
        q.rank
    };
    let (cols, rows, matrix) = columns(y)?;
    if rows != q.n {
        return Err(KernelError::new(ROWS));
    }
    if cols.iter().flatten().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 5)",
        ));
    }
    let job = match func {
        "qr.resid" => Job {
            rsd: true,
            ..Job::default()
        },
        "qr.fitted" => Job {
            xb: true,
            ..Job::default()
        },
        "qr.qy" => Job {
            qy: true,
            ..Job::default()
        },
        _ => Job {
            qty: true,
            ..Job::default()
        },
    };
    let out = cols
        .iter()
        .map(|y| {
            let r = dqrsl(&q, k, y, job);
            match func {
                "qr.resid" => r.rsd,
                "qr.fitted" => r.xb,
                "qr.qy" => r.qy,
                _ => r.qty,
            }
        })
        .collect();
    Ok(shaped(out, rows, matrix))
}

fn qr_type(args: &Args<Type>) -> Result<Option<usize>, ArgError> {
    match args.ty("qr") {
        Some(t @ Type::Record { class, .. }) if class == "qr" => {
            Ok(t.field("qr").and_then(Type::dims).and_then(|(_, p)| p))
        }
        None | Some(Type::Any) => Ok(None),
        Some(t) => {
            let m = if args.func == "qr.coef" {
                "first argument must be a QR decomposition"
            } else {
                "argument is not a QR decomposition"
            };
            Err(args.error("qr", format!("{m} ({})", t.describe())))
        }
    }
}

pub(super) fn coef_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let p = qr_type(args)?;
    Ok(match args.ty("y") {
        Some(Type::Mat { cols, .. } | Type::BoolMat { cols, .. }) => Type::Mat {
            rows: p,
            cols: *cols,
        },
        Some(Type::Num { .. } | Type::Bool { .. }) => Type::Num {
            len: p,
            value: None,
        },
        _ => Type::Any,
    })
}

pub(super) fn apply_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    qr_type(args)?;
    Ok(match args.ty("y") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Type::Num {
            len: t.len(),
            value: None,
        },
        _ => Type::Any,
    })
}
