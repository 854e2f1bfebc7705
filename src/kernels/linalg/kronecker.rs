//! `kronecker(X, Y, FUN = "*")`: R's `.kronecker` for numeric vectors and
//! matrices. Every entry of `X` times (or `FUN`) the whole of `Y`, block by
//! block; a vector is a one-column matrix beside a matrix, and two vectors
//! give a vector.

use nalgebra::DMatrix;

use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::Ctx;

const FUNS: &[&str] = &["*", "+", "-", "/"];

pub(super) fn kronecker_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (xr, xc) = matrix_dims(args, "X")?;
    let (yr, yc) = matrix_dims(args, "Y")?;
    if let Some(f) = args.const_str("FUN") {
        if !FUNS.contains(&f) {
            return Err(args.error("FUN", fun_error(f)));
        }
    }
    let mul = |a: Option<usize>, b: Option<usize>| a.zip(b).map(|(a, b)| a * b);
    let both_vectors = !matches!(args.ty("X"), Some(Type::Mat { .. }))
        && !matches!(args.ty("Y"), Some(Type::Mat { .. }));
    Ok(if both_vectors {
        Type::Num {
            len: mul(xr, yr),
            value: None,
        }
    } else {
        Type::Mat {
            rows: mul(xr, yr),
            cols: mul(xc, yc),
        }
    })
}

fn fun_error(f: &str) -> String {
    format!("flowcast's kronecker() takes FUN = \"*\", \"+\", \"-\" or \"/\", not \"{f}\"")
}

pub(super) fn kronecker_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::as_matrix(args, "X")?;
    let y = super::as_matrix(args, "Y")?;
    let fun = args.str_or("FUN", "*")?;
    let op: fn(f64, f64) -> f64 = match fun {
        "*" => |a, b| a * b,
        "+" => |a, b| a + b,
        "-" => |a, b| a - b,
        "/" => |a, b| a / b,
        f => return Err(KernelError::new(fun_error(f))),
    };
    let (xr, xc) = x.shape();
    let (yr, yc) = y.shape();
    let (rows, cols) = (xr.checked_mul(yr), xc.checked_mul(yc));
    let (Some(rows), Some(cols)) = (rows, cols) else {
        return Err(KernelError::new("kronecker(): the result is too large"));
    };
    if rows.checked_mul(cols).is_none() {
        return Err(KernelError::new("kronecker(): the result is too large"));
    }
    let out = DMatrix::from_fn(rows, cols, |i, j| {
        op(x[(i / yr, j / yc)], y[(i % yr, j % yc)])
    });
    let vectors = !matches!(args.get("X"), Some(Value::Mat(_)))
        && !matches!(args.get("Y"), Some(Value::Mat(_)));
    Ok(if vectors {
        Value::Num(out.as_slice().to_vec())
    } else {
        Value::Mat(out)
    })
}
