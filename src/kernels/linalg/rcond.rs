//! `rcond(x, norm, triangular)`: R's reciprocal condition number, LAPACK
//! `dgecon` on the LU of a square matrix (`dtrcon` on its upper triangle
//! when `triangular`), and of the R of its QR when it is not square.

use nalgebra::DMatrix;

use super::linpack::dqrdc2;
use super::solve::{la_dgecon, la_dtrcon};
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::logical::if_condition;
use crate::kernels::names::bare;
use crate::kernels::Ctx;

/// `match.arg(norm, c("O", "I", "1"))`: whether it is the infinity norm.
fn infinity_norm(args: &Args<&Value>) -> Result<bool, KernelError> {
    let choices = "'arg' should be one of \u{201c}O\u{201d}, \u{201c}I\u{201d}, \u{201c}1\u{201d}";
    match args.get("norm").map(bare) {
        None => Ok(false),
        Some(Value::Str(s)) if s.len() == 1 => match s[0].as_str() {
            "O" | "1" => Ok(false),
            "I" => Ok(true),
            _ => Err(KernelError::new(choices)),
        },
        Some(Value::Str(s)) if s.len() > 1 => Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

/// `qr.R(qr(x))` of a tall matrix: the p-by-p triangle of R's LINPACK QR.
pub(crate) fn qr_r(x: &DMatrix<f64>) -> Result<DMatrix<f64>, KernelError> {
    if x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    let (n, p) = x.shape();
    let q = dqrdc2(x.as_slice().to_vec(), n, p, 1e-7);
    let k = n.min(p);
    Ok(DMatrix::from_fn(k, p, |i, j| {
        if i <= j {
            q.qr[j * n + i]
        } else {
            0.0
        }
    }))
}

pub(super) fn rcond_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let inf = infinity_norm(args)?;
    let triangular = match args.get("triangular") {
        Some(t) => if_condition(t)?,
        None => false,
    };
    let m = match bare(x) {
        Value::Mat(m) => m.clone(),
        Value::BoolMat(m) => m.map(crate::kernels::value::logical_f64),
        _ => return Err(KernelError::new("is.matrix(x) is not TRUE")),
    };
    let (r, c) = m.shape();
    if r != c {
        // The recursive call passes only `norm` on: R's LU of the triangle.
        let t = qr_r(&if r < c { m.transpose() } else { m })?;
        return Ok(Value::scalar(la_dgecon(&t, inf)?));
    }
    Ok(Value::scalar(if triangular {
        if r == 0 {
            return Err(KernelError::new(
                "BLAS/LAPACK routine 'DTRCON' gave error code -4",
            ));
        }
        la_dtrcon(&m, inf)
    } else {
        la_dgecon(&m, inf)?
    }))
}

pub(super) fn rcond_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { .. } | Type::BoolMat { .. } | Type::Any) | None => Ok(Type::num(1)),
        Some(_) => Err(args.error("x", "is.matrix(x) is not TRUE")),
    }
}
