//! `chol(x)`: R's `La_chol`, the upper triangle `R` with `R'R = x` from
//! LAPACK `dpotrf("U")`; only the upper triangle of `x` is read, the lower
//! triangle of the result is zero.

use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::Ctx;

pub(super) fn chol_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (r, c) = matrix_dims(args, "x")?;
    if let (Some(r), Some(c)) = (r, c) {
        if r != c {
            return Err(args.error("x", "'a' must be a square matrix"));
        }
        if r == 0 {
            return Err(args.error("x", "'a' must have dims > 0"));
        }
    }
    if args.ty("pivot").and_then(Type::const_scalar) == Some(1.0) {
        return Err(args.error("pivot", PIVOT));
    }
    Ok(Type::Mat { rows: r, cols: c })
}

const PIVOT: &str = "chol(pivot = TRUE) is not supported by flowcast yet";

pub(super) fn chol_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if matches!(
        args.get("x"),
        Some(Value::Complex(_) | Value::ComplexMat(_))
    ) {
        return Err(KernelError::new(
            "complex matrices not permitted at present",
        ));
    }
    let x = super::as_matrix(args, "x")?;
    if args.bool_or("pivot", false)? {
        return Err(KernelError::new(PIVOT));
    }
    let n = x.nrows();
    if n != x.ncols() {
        return Err(KernelError::new("'a' must be a square matrix"));
    }
    if n == 0 {
        return Err(KernelError::new("'a' must have dims > 0"));
    }
    let mut a = x;
    for j in 0..n {
        for i in j + 1..n {
            a[(i, j)] = 0.0;
        }
    }
    dpotrf_upper(a.as_mut_slice(), n).map_err(|info| {
        KernelError::new(format!(
            "the leading minor of order {info} is not positive definite"
        ))
    })?;
    Ok(Value::Mat(a))
}

/// LAPACK's unblocked upper Cholesky (`dpotf2("U")`, which `dpotrf` runs
/// on matrices below its block size): column by column, `Err(j)` (1-based)
/// when the j-th leading minor is not positive (or NaN).
pub(super) fn dpotrf_upper(a: &mut [f64], n: usize) -> Result<(), usize> {
    for j in 0..n {
        let col = j * n;
        let mut ajj = a[col + j];
        for k in 0..j {
            ajj -= a[col + k] * a[col + k];
        }
        if ajj <= 0.0 || ajj.is_nan() {
            return Err(j + 1);
        }
        let ajj = ajj.sqrt();
        a[col + j] = ajj;
        for c in j + 1..n {
            let mut s = a[c * n + j];
            for k in 0..j {
                s -= a[col + k] * a[c * n + k];
            }
            a[c * n + j] = s / ajj;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn factor_reproduces_the_matrix() {
        let mut a = vec![4.0, 2.0, 2.0, 5.0];
        dpotrf_upper(&mut a, 2).unwrap();
        let r = DMatrix::from_vec(2, 2, a).upper_triangle();
        let back = r.transpose() * &r;
        assert!((back[(0, 1)] - 2.0).abs() < 1e-15 && (back[(1, 1)] - 5.0).abs() < 1e-15);
        assert_eq!(dpotrf_upper(&mut [1.0, 2.0, 2.0, 1.0], 2), Err(2));
    }
}
