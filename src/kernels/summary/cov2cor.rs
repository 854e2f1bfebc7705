//! `cov2cor(V)`: a covariance matrix scaled to correlations, as R 4.2's
//! `cov2cor`.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

const NOT_SQUARE: &str = "'V' is not a square numeric matrix";

/// `Is * V * rep(Is, each = p)` with `Is <- sqrt(1/diag(V))`, then 1 on
/// the diagonal exactly.
pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Mat(v)) = args.get("V") else {
        return Err(KernelError::new(NOT_SQUARE));
    };
    let p = v.nrows();
    if v.ncols() != p {
        return Err(KernelError::new(NOT_SQUARE));
    }
    let is: Vec<f64> = (0..p).map(|i| (1.0 / v[(i, i)]).sqrt()).collect();
    if is.iter().any(|s| !s.is_finite()) {
        ctx.warn("diag(.) had 0 or NA entries; non-finite result is doubtful");
    }
    let mut r = DMatrix::<f64>::from_fn(p, p, |i, j| is[i] * v[(i, j)] * is[j]);
    for i in 0..p {
        r[(i, i)] = 1.0;
    }
    Ok(Value::Mat(r))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("V") {
        Some(Type::Mat { rows, cols }) => {
            if let (Some(r), Some(c)) = (rows, cols) {
                if r != c {
                    return Err(args.error("V", NOT_SQUARE));
                }
            }
            Ok(Type::Mat {
                rows: *rows,
                cols: *cols,
            })
        }
        Some(Type::Any) => Ok(Type::Any),
        _ => Err(args.error("V", NOT_SQUARE)),
    }
}
