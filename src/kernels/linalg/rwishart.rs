//! `rWishart(n, df, Sigma)`: n draws from the Wishart distribution, a
//! p x p x n array, as R 4.2.2's rWishart (stats/src/rWishart.c): Sigma's
//! upper Cholesky factor U (dpotrf), then per draw Bartlett's upper
//! triangular factor Z (column by column: sqrt(rchisq(df - j)) on the
//! diagonal, then norm_rand above it), and the draw (Z U)'(Z U) by
//! reference BLAS's dtrmm and dsyrk, so the stream and the sums' order
//! are R's.

use super::chol::dpotrf_upper;
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::names::with_attr;
use crate::kernels::nmath::rand as r;
use crate::kernels::{Ctx, Rng};

pub(super) fn rwishart_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("Sigma") {
        None | Some(Type::Any) => {}
        Some(Type::Mat { rows, cols }) if rows.zip(*cols).is_none_or(|(r, c)| r == c) => {}
        Some(_) => return Err(args.error("Sigma", SQUARE)),
    }
    // An array of three dimensions, which shape inference types as unknown.
    Ok(Type::Any)
}

const SQUARE: &str = "'scal' must be a square, real matrix";

/// std_rWishart_factor(nu, p, upper = 1, ans): Bartlett's decomposition.
fn std_rwishart_factor(
    nu: f64,
    p: usize,
    ans: &mut [f64],
    rng: &mut Rng,
) -> Result<(), KernelError> {
    if nu < p as f64 || p == 0 {
        return Err(KernelError::new(
            "inconsistent degrees of freedom and dimension",
        ));
    }
    ans.fill(0.0);
    for j in 0..p {
        ans[j * (p + 1)] = r::rchisq(nu - j as f64, rng).sqrt();
        for i in 0..j {
            ans[i + j * p] = rng.norm_rand();
            ans[j + i * p] = 0.0;
        }
    }
    Ok(())
}

/// Reference BLAS dtrmm("R", "U", "N", "N", m = n = p, alpha = 1):
/// B := B A, A upper triangular, column by column from the last.
fn dtrmm_right_upper(p: usize, a: &[f64], b: &mut [f64]) {
    for j in (0..p).rev() {
        let temp = a[j + j * p];
        for i in 0..p {
            b[i + j * p] *= temp;
        }
        for k in 0..j {
            let akj = a[k + j * p];
            if akj != 0.0 {
                for i in 0..p {
                    b[i + j * p] += akj * b[i + k * p];
                }
            }
        }
    }
}

/// Reference BLAS dsyrk("U", "T", n = k = p, alpha = 1, beta = 0):
/// the upper triangle of C := A'A, each entry one dot product in order.
fn dsyrk_upper_trans(p: usize, a: &[f64], c: &mut [f64]) {
    for j in 0..p {
        for i in 0..=j {
            let mut temp = 0.0;
            for l in 0..p {
                temp += a[l + i * p] * a[l + j * p];
            }
            c[i + j * p] = temp;
        }
    }
}

pub(super) fn rwishart_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // asInteger(n), below 1 taken as 1.
    let n = args
        .nums("n")?
        .first()
        .copied()
        .filter(|x| x.is_finite() && x.abs() < 2147483648.0)
        .map_or(1, |x| (x.trunc() as i64).max(1) as usize);
    let nu = args
        .get("df")
        .and_then(|v| v.as_f64_slice())
        .and_then(|v| v.first().copied())
        .unwrap_or(f64::NAN);
    let sigma = match args.get("Sigma") {
        Some(Value::Mat(m)) if m.nrows() == m.ncols() => m,
        Some(_) => return Err(KernelError::new(SQUARE)),
        None => {
            return Err(KernelError::new(
                "argument \"Sigma\" is missing, with no default",
            ))
        }
    };
    let p = sigma.nrows();
    let psqr = p * p;
    let total = psqr
        .checked_mul(n)
        .ok_or_else(|| KernelError::new("rWishart's result would be too large"))?;
    let mut sc_cp = sigma.as_slice().to_vec();
    if dpotrf_upper(&mut sc_cp, p).is_err() {
        return Err(KernelError::new("'scal' matrix is not positive-definite"));
    }
    let mut ans = crate::kernels::alloc::filled(total, 0.0)?;
    let mut tmp = vec![0.0; psqr];
    for j in 0..n {
        let ansj = &mut ans[j * psqr..(j + 1) * psqr];
        std_rwishart_factor(nu, p, &mut tmp, ctx.rng)?;
        dtrmm_right_upper(p, &sc_cp, &mut tmp);
        dsyrk_upper_trans(p, &tmp, ansj);
        for i in 1..p {
            for k in 0..i {
                ansj[i + k * p] = ansj[k + i * p];
            }
        }
    }
    let dim = Value::Num(vec![p as f64, p as f64, n as f64]);
    Ok(with_attr(Value::Num(ans), "dim", dim))
}
