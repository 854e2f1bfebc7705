//! `chol2inv(x, size)`: R's `La_chol2inv`, the inverse of `R'R` from the
//! upper triangle `R` of a Cholesky factor by LAPACK `dpotri("U")`, and
//! `mahalanobis(x, center, cov, inverted)` as stats/R/mahalanobis.R
//! computes it: `rowSums((x - center) %*% solve(cov) * (x - center))`.

use nalgebra::DMatrix;

use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::Ctx;

pub(super) fn chol2inv_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let dims = match args.ty("x") {
        None | Some(Type::Any) => (None, None),
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => (*rows, *cols),
        Some(Type::Num { .. }) => (Some(1), Some(1)),
        Some(_) => return Err(args.error("x", "'a' must be a numeric matrix")),
    };
    let size = match args.ty("size") {
        None => dims.1,
        Some(t) => match t.const_scalar() {
            Some(s) if s.is_nan() || s < 1.0 => {
                return Err(args.error("size", "'size' argument must be a positive integer"))
            }
            Some(s) => Some(s as usize),
            None => None,
        },
    };
    Ok(Type::Mat {
        rows: size,
        cols: size,
    })
}

/// R's `asInteger` of a length-one number: NA for NA, NaN and values out
/// of int's range.
fn as_integer(v: &Value) -> Option<i64> {
    let x = match crate::kernels::names::bare(v) {
        Value::Str(s) => s.first()?.trim().parse::<f64>().ok()?,
        other => *other.as_f64_slice()?.first()?,
    };
    (x.is_finite() && x.abs() < 2147483648.0).then(|| x.trunc() as i64)
}

pub(super) fn chol2inv_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (m, n, data): (usize, usize, std::borrow::Cow<[f64]>) = match x {
        Value::Mat(a) => (
            a.nrows(),
            a.ncols(),
            std::borrow::Cow::Borrowed(a.as_slice()),
        ),
        Value::BoolMat(_) => {
            let (r, c) = x.dims().unwrap_or((0, 0));
            (r, c, x.as_f64_slice().unwrap_or_default())
        }
        Value::Num(v) if !v.is_empty() => (1, 1, std::borrow::Cow::Borrowed(&v[..1])),
        _ => (0, 0, std::borrow::Cow::Borrowed(&[][..])),
    };
    if args.has("LINPACK") {
        return Err(KernelError::new(
            "the LINPACK argument has been defunct since R 3.1.0",
        ));
    }
    // `size = NCOL(x)`: one for a vector.
    let sz = match args.get("size") {
        Some(s) => as_integer(s).unwrap_or(-1),
        None if matches!(x, Value::Num(_)) => 1,
        None => n as i64,
    };
    if sz < 1 {
        return Err(KernelError::new(
            "'size' argument must be a positive integer",
        ));
    }
    let numeric_vector = matches!(x, Value::Num(v) if !v.is_empty());
    if !(x.dims().is_some() || (sz == 1 && numeric_vector)) {
        return Err(KernelError::new("'a' must be a numeric matrix"));
    }
    let sz = sz as usize;
    if sz > n {
        return Err(KernelError::new(format!(
            "'size' cannot exceed ncol(x) = {n}"
        )));
    }
    if sz > m {
        return Err(KernelError::new(format!(
            "'size' cannot exceed nrow(x) = {m}"
        )));
    }
    let a = la_chol2inv(&data, m, sz)?;
    Ok(Value::Mat(DMatrix::from_vec(sz, sz, a)))
}

/// R's `La_chol2inv` (src/modules/lapack/Lapack.c): `(R'R)^-1` from the
/// leading `size x size` upper triangle `R` of the column-major `x` with
/// `ld` rows (the `R` of a Cholesky factor, or of a packed QR such as
/// `qr$qr`), by LAPACK `dpotri("U")` ([`dpotri_upper`]), the lower
/// triangle then copied from the upper. R's message when a diagonal entry
/// of `R` is exactly zero. `chol2inv()`, summary.lm/summary.glm's
/// standard errors and `cov.unscaled`, vcov, dfbetas and
/// influence.measures all take it from here, so they keep R's bits.
pub(crate) fn la_chol2inv(x: &[f64], ld: usize, size: usize) -> Result<Vec<f64>, KernelError> {
    let mut a = vec![0.0; size * size];
    for j in 0..size {
        for i in 0..=j {
            a[i + j * size] = x[i + j * ld];
        }
    }
    dpotri_upper(&mut a, size).map_err(|info| {
        KernelError::new(format!(
            "element ({info}, {info}) is zero, so the inverse cannot be computed"
        ))
    })?;
    for j in 0..size {
        for i in j + 1..size {
            a[i + j * size] = a[j + i * size];
        }
    }
    Ok(a)
}

/// LAPACK's `dpotri("U")`: `dtrtri` inverts the triangle, `dlauum` forms
/// `U^-1 U^-T` in the upper triangle. Both unblocked (`dtrti2`, `dlauu2`),
/// as LAPACK runs them below its block size of 64; larger orders differ
/// from R's blocked path only in rounding. `Err(j)` (1-based) when the
/// j-th diagonal entry is exactly zero.
fn dpotri_upper(a: &mut [f64], n: usize) -> Result<(), usize> {
    if let Some(j) = (0..n).find(|&j| a[j + j * n] == 0.0) {
        return Err(j + 1);
    }
    dtrti2_upper(a, n);
    dlauu2_upper(a, n);
    Ok(())
}

/// `dtrti2("U", "N")`: column by column, `A(1:j-1, j) = -A(j,j)^-1 *
/// (U^-1 already formed) * A(1:j-1, j)` by reference BLAS `dtrmv` and
/// `dscal`.
fn dtrti2_upper(a: &mut [f64], n: usize) {
    for j in 0..n {
        a[j + j * n] = 1.0 / a[j + j * n];
        let ajj = -a[j + j * n];
        // dtrmv("U", "N", "N"): x := T x over the leading j x j block.
        for jj in 0..j {
            let xj = a[jj + j * n];
            if xj != 0.0 {
                let temp = xj;
                for i in 0..jj {
                    a[i + j * n] += temp * a[i + jj * n];
                }
                a[jj + j * n] *= a[jj + jj * n];
            }
        }
        for i in 0..j {
            a[i + j * n] *= ajj;
        }
    }
}

/// `dlauu2("U")`: `U U'` row by row, the diagonal by `ddot` along the
/// row, the rest of the row's column by `dgemv("N")` scaled by the old
/// diagonal.
fn dlauu2_upper(a: &mut [f64], n: usize) {
    for i in 0..n {
        let aii = a[i + i * n];
        if i + 1 < n {
            let mut dot = 0.0;
            for k in i..n {
                dot += a[i + k * n] * a[i + k * n];
            }
            a[i + i * n] = dot;
            // y := A(1:i-1, i+1:n) * A(i, i+1:n)' + aii * y, y = A(1:i-1, i).
            for r in 0..i {
                a[r + i * n] *= aii;
            }
            for k in i + 1..n {
                let temp = a[i + k * n];
                for r in 0..i {
                    a[r + i * n] += temp * a[r + k * n];
                }
            }
        } else {
            for r in 0..=i {
                a[r + i * n] *= aii;
            }
        }
    }
}

pub(super) fn mahalanobis_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let rows = match args.ty("x") {
        None | Some(Type::Any) => None,
        Some(Type::Mat { rows, .. } | Type::BoolMat { rows, .. }) => *rows,
        Some(Type::Num { .. } | Type::Bool { .. }) => Some(1),
        Some(Type::Record { .. } | Type::List { .. }) => None,
        Some(t) => {
            return Err(args.error(
                "x",
                format!("mahalanobis() needs a numeric matrix, not {}", t.describe()),
            ))
        }
    };
    Ok(Type::Num {
        len: rows,
        value: None,
    })
}

pub(super) fn mahalanobis_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::as_matrix(args, "x")?;
    // A vector is one observation: `matrix(x, ncol = length(x))`.
    let x = match args.get("x") {
        Some(Value::Mat(_)) => x,
        _ => x.transpose(),
    };
    let (n, p) = x.shape();
    let mut x = x;
    let center = args
        .get("center")
        .ok_or_else(|| KernelError::new("argument \"center\" is missing, with no default"))?;
    let skip_center = matches!(center, Value::Bool(b) if b.len() == 1 && b[0] == Some(false));
    if !skip_center {
        let c = center
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("non-numeric argument to binary operator"))?;
        sweep_columns(&mut x, &c, ctx);
    }
    let cov = super::as_matrix(args, "cov")?;
    let inverted = args.bool_or("inverted", false)?;
    let inv = if inverted {
        cov
    } else {
        let tol = args
            .dots()
            .find(|(name, _)| *name == Some("tol"))
            .and_then(|(_, v)| v.as_scalar())
            .unwrap_or(f64::EPSILON);
        super::solve::solve(&cov, None, tol)?
    };
    if inv.nrows() != p {
        return Err(KernelError::new("non-conformable arguments"));
    }
    let k = inv.ncols();
    let xc = crate::kernels::arith::matmul(x.as_slice(), n, p, inv.as_slice(), k);
    // `x %*% cov * x`: the product must have x's shape to multiply.
    if k != p {
        return Err(KernelError::new("non-conformable arrays"));
    }
    let prod: Vec<f64> = xc
        .as_slice()
        .iter()
        .zip(x.as_slice())
        .map(|(a, b)| a * b)
        .collect();
    let mut sums = vec![crate::kernels::summary::ldouble::LongDouble::ZERO; n];
    for j in 0..p {
        crate::kernels::summary::ldouble::add_column(&mut sums, &prod[j * n..(j + 1) * n]);
    }
    Ok(Value::Num(sums.into_iter().map(|s| s.to_f64()).collect()))
}

/// `sweep(x, 2, center)`: `center` recycled down the transposed array as
/// R's `aperm(array(STATS, ...))` recycles it, with sweep's warning when
/// its length does not divide the columns.
fn sweep_columns(x: &mut DMatrix<f64>, center: &[f64], ctx: &mut Ctx) {
    let (n, p) = x.shape();
    let len = center.len();
    if len > p {
        ctx.warn("STATS is longer than the extent of 'dim(x)[MARGIN]'");
    } else if len > 1 && p % len != 0 {
        ctx.warn("STATS does not recycle exactly across MARGIN");
    }
    for i in 0..n {
        for j in 0..p {
            let c = if len == 0 {
                crate::kernels::value::NA
            } else {
                center[(j + i * p) % len]
            };
            x[(i, j)] -= c;
        }
    }
}
