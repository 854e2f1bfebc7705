//! `scale(x, center, scale)`: R's `scale.default`, column means with
//! `na.rm = TRUE` (long double, as `colMeans`) and the root mean square
//! `sqrt(sum(v^2) / max(1, n - 1))` of each centred column.

use nalgebra::DMatrix;

use super::ldouble;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::names::with_attr;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// `center`/`scale`: TRUE/FALSE, or one number per column.
enum How {
    Auto(bool),
    Given(Vec<f64>),
}

fn how(args: &Args<&Value>, name: &str, nc: usize) -> Result<How, KernelError> {
    match args.get(name) {
        None => Ok(How::Auto(true)),
        Some(Value::Bool(b)) if matches!(b[..], [Some(_)]) => Ok(How::Auto(b[0] == Some(true))),
        Some(v) => {
            let s = v.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!(
                    "length of '{name}' must equal the number of columns of 'x'"
                ))
            })?;
            if s.len() != nc {
                return Err(KernelError::new(format!(
                    "length of '{name}' must equal the number of columns of 'x'"
                )));
            }
            Ok(How::Given(s.into_owned()))
        }
    }
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut m = match args.get("x") {
        Some(Value::Mat(m)) => m.clone(),
        Some(v @ (Value::Num(_) | Value::Bool(_))) => {
            let s = v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default();
            DMatrix::from_vec(s.len(), 1, s)
        }
        Some(v) => {
            return Err(KernelError::new(format!(
                "'x' must be numeric, not {}",
                v.type_name()
            )))
        }
        None => {
            return Err(KernelError::new(
                "argument \"x\" is missing, with no default",
            ))
        }
    };
    let nc = m.ncols();
    let center = match how(args, "center", nc)? {
        How::Auto(false) => None,
        How::Auto(true) => Some(
            m.column_iter()
                .map(|c| {
                    let kept: Vec<f64> = c.iter().copied().filter(|v| !v.is_nan()).collect();
                    ldouble::sum(&kept).div_count(kept.len()).to_f64()
                })
                .collect::<Vec<f64>>(),
        ),
        How::Given(v) => Some(v),
    };
    if let Some(c) = &center {
        for (j, mut col) in m.column_iter_mut().enumerate() {
            col.iter_mut().for_each(|v| *v -= c[j]);
        }
    }
    let scale = match how(args, "scale", nc)? {
        How::Auto(false) => None,
        How::Auto(true) => Some(
            m.column_iter()
                .map(|c| {
                    let sq: Vec<f64> = c.iter().filter(|v| !v.is_nan()).map(|v| v * v).collect();
                    let d = (sq.len() as f64 - 1.0).max(1.0);
                    (ldouble::sum(&sq).to_f64() / d).sqrt()
                })
                .collect::<Vec<f64>>(),
        ),
        How::Given(v) => Some(v),
    };
    if let Some(s) = &scale {
        for (j, mut col) in m.column_iter_mut().enumerate() {
            col.iter_mut().for_each(|v| *v /= s[j]);
        }
    }
    // R records what it subtracted and divided by, as attributes.
    let mut out = Value::Mat(m);
    if let Some(c) = center {
        out = with_attr(out, "scaled:center", Value::Num(c));
    }
    if let Some(s) = scale {
        out = with_attr(out, "scaled:scale", Value::Num(s));
    }
    Ok(out)
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (rows, cols) = match args.ty("x") {
        None | Some(Type::Any) => {
            return Ok(Type::Mat {
                rows: None,
                cols: None,
            })
        }
        Some(Type::Mat { rows, cols }) => (*rows, *cols),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => (t.len(), Some(1)),
        Some(t) => {
            return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())))
        }
    };
    for name in ["center", "scale"] {
        if let (Some(t), Some(nc)) = (args.ty(name), cols) {
            if matches!(t, Type::Num { .. }) && t.len().is_some_and(|n| n != nc) {
                return Err(args.error(
                    name,
                    format!("length of '{name}' must equal the number of columns of 'x'"),
                ));
            }
        }
    }
    Ok(Type::Mat { rows, cols })
}
