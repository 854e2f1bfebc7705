//! `det(x)`: R's `det` is `determinant(x, logarithm = TRUE)` exponentiated,
//! and `determinant` is `La_det`: LAPACK `dgetrf`, then the log modulus
//! summed over U's diagonal and the sign from the pivots and negative
//! entries. The exponential of a sum of logs, not the plain product, is
//! what R returns.

use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::Ctx;

pub(super) fn det_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows, cols }) => {
            if let (Some(r), Some(c)) = (rows, cols) {
                if r != c {
                    return Err(args.error("x", "'x' must be a square matrix"));
                }
            }
        }
        None | Some(Type::Any) => {}
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "no applicable method for 'determinant' applied to {}",
                    t.describe()
                ),
            ))
        }
    }
    matrix_dims(args, "x")?;
    Ok(Type::num(1))
}

pub(super) fn det_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Mat(x)) = args.get("x") else {
        let what = args.get("x").map_or("NULL", Value::type_name);
        return Err(KernelError::new(format!(
            "no applicable method for 'determinant' applied to a {what}"
        )));
    };
    let n = x.nrows();
    if n != x.ncols() {
        return Err(KernelError::new("'x' must be a square matrix"));
    }
    if n == 0 {
        return Ok(Value::scalar(1.0));
    }
    let (modulus, sign) = super::solve::log_determinant(x);
    Ok(Value::scalar(sign * modulus.exp()))
}
