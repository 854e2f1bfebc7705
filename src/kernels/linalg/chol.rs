//! `chol(x)`: R's `La_chol`, the upper triangle `R` with `R'R = x` from
//! LAPACK `dpotrf("U")`; only the upper triangle of `x` is read, the lower
//! triangle of the result is zero.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef};

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
    dpotrf_upper(a.as_mut_slice(), n).map_err(|info| {
        KernelError::new(format!(
            "the leading minor of order {info} is not positive definite"
        ))
    })?;
    for j in 0..n {
        for i in j + 1..n {
            a[(i, j)] = 0.0;
        }
    }
    Ok(Value::Mat(a))
}

/// LAPACK's `dpotrf("U")`: blocked as LAPACK blocks it (NB = 64), the
/// updates from the rows above each block row a matrix product, then the
/// block factored by [`dpotf2_upper`] and the rest of its row solved
/// against it (`dtrsm`). `Err(j)` (1-based) when the j-th leading minor is
/// not positive (or NaN). Writes below the diagonal: the caller clears
/// the lower triangle.
pub(super) fn dpotrf_upper(a: &mut [f64], n: usize) -> Result<(), usize> {
    const NB: usize = 64;
    if n <= NB {
        return dpotf2_upper(a, n, 0, n);
    }
    let mut above = Vec::new();
    for j in (0..n).step_by(NB) {
        let jb = NB.min(n - j);
        if j > 0 {
            // A[j.., j..] -= A[..j, j..jb]' A[..j, j..], from a copy of the
            // rows above (they are read while the block row is written).
            above.clear();
            for c in j..n {
                above.extend_from_slice(&a[c * n..c * n + j]);
            }
            let p = MatRef::from_column_major_slice(&above, j, n - j);
            let dst =
                MatMut::from_column_major_slice_with_stride_mut(&mut a[j * n + j..], jb, n - j, n);
            matmul(
                dst,
                Accum::Add,
                p.subcols(0, jb).transpose(),
                p,
                -1.0,
                crate::kernels::width::par(),
            );
        }
        dpotf2_upper(a, n, j, jb).map_err(|info| j + info)?;
        // A[j..jb, c] = U_jj^-T A[j..jb, c] for the columns after the block.
        for c in j + jb..n {
            for i in 0..jb {
                let mut s = a[c * n + j + i];
                for k in 0..i {
                    s -= a[(j + i) * n + j + k] * a[c * n + j + k];
                }
                a[c * n + j + i] = s / a[(j + i) * n + j + i];
            }
        }
    }
    Ok(())
}

/// LAPACK's unblocked upper Cholesky (`dpotf2("U")`) of the `m`x`m` block
/// at (`off`, `off`) of the `n`x`n` column-major `a`: column by column,
/// `Err(j)` (1-based within the block) when the j-th leading minor is not
/// positive (or NaN).
fn dpotf2_upper(a: &mut [f64], n: usize, off: usize, m: usize) -> Result<(), usize> {
    let at = |r: usize, c: usize| (off + c) * n + off + r;
    for j in 0..m {
        let mut ajj = a[at(j, j)];
        for k in 0..j {
            ajj -= a[at(k, j)] * a[at(k, j)];
        }
        if ajj <= 0.0 || ajj.is_nan() {
            return Err(j + 1);
        }
        let ajj = ajj.sqrt();
        a[at(j, j)] = ajj;
        for c in j + 1..m {
            let mut s = a[at(j, c)];
            for k in 0..j {
                s -= a[at(k, j)] * a[at(k, c)];
            }
            a[at(j, c)] = s / ajj;
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
