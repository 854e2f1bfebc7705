//! `kappa(z, exact, norm, method)`: R 4.2.2's kappa.default. The estimate
//! (exact = FALSE) is `1 / dtrco` of the triangle R of `qr(z)` (LINPACK's
//! `dtrco`, which R's `.kappa_tri` calls even for the 2-norm); the exact
//! 2-norm condition number is the ratio of singular values.

use nalgebra::DMatrix;

use super::blas::{dasum, dscal};
use super::rcond::qr_r;
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::logical::if_condition;
use crate::kernels::names::bare;
use crate::kernels::Ctx;

/// LINPACK `dtrco(t, ldt, n, rcond, z, job = 1)` on an upper triangular
/// `t`: the reciprocal condition estimate in the one norm. Fortran's
/// loops, with 0-based indices.
#[allow(clippy::needless_range_loop)] // the Fortran's loops, as written
fn dtrco_upper(t: &DMatrix<f64>) -> f64 {
    let n = t.nrows();
    let tt = |i: usize, j: usize| t[(i, j)];
    let mut tnorm = 0.0f64;
    for j in 0..n {
        // `dmax1`: gfortran's max keeps the first when either is NaN.
        let s = dasum(&t.column(j).as_slice()[..=j]);
        tnorm = if s > tnorm { s } else { tnorm };
    }
    let mut ek = 1.0f64;
    let mut z = vec![0.0; n];
    for k in 0..n {
        if z[k] != 0.0 {
            ek = ek.abs().copysign(-z[k]);
        }
        if (ek - z[k]).abs() > tt(k, k).abs() {
            let s = tt(k, k).abs() / (ek - z[k]).abs();
            dscal(s, &mut z);
            ek *= s;
        }
        let mut wk = ek - z[k];
        let mut wkm = -ek - z[k];
        let mut s = wk.abs();
        let mut sm = wkm.abs();
        if tt(k, k) != 0.0 {
            wk /= tt(k, k);
            wkm /= tt(k, k);
        } else {
            wk = 1.0;
            wkm = 1.0;
        }
        if k + 1 < n {
            for j in k + 1..n {
                sm += (z[j] + wkm * tt(k, j)).abs();
                z[j] += wk * tt(k, j);
                s += z[j].abs();
            }
            if s < sm {
                let w = wkm - wk;
                wk = wkm;
                for j in k + 1..n {
                    z[j] += w * tt(k, j);
                }
            }
        }
        z[k] = wk;
    }
    let s = 1.0 / dasum(&z);
    dscal(s, &mut z);
    let mut ynorm = 1.0;
    for kk in 0..n {
        let k = n - 1 - kk;
        if z[k].abs() > tt(k, k).abs() {
            let s = tt(k, k).abs() / z[k].abs();
            dscal(s, &mut z);
            ynorm *= s;
        }
        if tt(k, k) != 0.0 {
            z[k] /= tt(k, k);
        } else {
            z[k] = 1.0;
        }
        if kk + 1 < n {
            // daxpy(n - kk, -z(k), t(1, k), 1, z(1), 1) over the rows above.
            let w = -z[k];
            for i in 0..k {
                z[i] += w * tt(i, k);
            }
        }
    }
    let s = 1.0 / dasum(&z);
    dscal(s, &mut z);
    ynorm *= s;
    if tnorm != 0.0 {
        ynorm / tnorm
    } else {
        0.0
    }
}

/// R's `.kappa_tri(z, exact = FALSE, norm)` with LINPACK: `1 / dtrco` of
/// the upper triangle, of its transpose for the infinity norm.
fn kappa_tri(z: &DMatrix<f64>, inf: bool) -> f64 {
    let z = if inf { z.transpose() } else { z.clone() };
    1.0 / dtrco_upper(&z)
}

/// `match.arg(arg, choices)` for a single string, with R's messages.
fn match_arg(v: Option<&Value>, choices: &[&str]) -> Result<Option<String>, KernelError> {
    let quoted: Vec<String> = choices
        .iter()
        .map(|c| format!("\u{201c}{c}\u{201d}"))
        .collect();
    match v.map(bare) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) if s.len() == 1 => {
            let hits: Vec<&&str> = choices.iter().filter(|c| c.starts_with(&s[0])).collect();
            match (choices.iter().find(|c| **c == s[0]), hits.as_slice()) {
                (Some(c), _) => Ok(Some(c.to_string())),
                (None, [c]) if !s[0].is_empty() => Ok(Some(c.to_string())),
                _ => Err(KernelError::new(format!(
                    "'arg' should be one of {}",
                    quoted.join(", ")
                ))),
            }
        }
        Some(Value::Str(s)) if s.len() > 1 => Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

pub(super) fn kappa_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let z = args
        .get("z")
        .ok_or_else(|| KernelError::new("argument \"z\" is missing, with no default"))?;
    let exact = match args.get("exact") {
        Some(e) => if_condition(e)?,
        None => false,
    };
    // method's match.arg comes first in kappa.default.
    let method = match args.get("method") {
        None => "qr".to_string(),
        m => match_arg(m, &["qr", "direct"])?.unwrap_or_else(|| "qr".into()),
    };
    let z = match bare(z) {
        Value::Mat(m) => m.clone(),
        Value::BoolMat(m) => m.map(crate::kernels::value::logical_f64),
        v @ (Value::Num(_) | Value::Bool(_)) => {
            let x = v.as_f64_slice().unwrap_or_default();
            DMatrix::from_column_slice(x.len(), 1, &x)
        }
        Value::List(l) if l.class.as_deref() == Some(crate::kernels::frame::CLASS) => {
            crate::kernels::frame::numeric_matrix(l, "kappa")?
        }
        _ => {
            return Err(KernelError::new(
                "kappa(z) takes a numeric matrix, vector or data frame",
            ))
        }
    };
    let norm = match_arg(args.get("norm"), &["2", "1", "O", "I"])?.unwrap_or_else(|| "2".into());
    if exact && norm == "2" {
        let s = super::svd::svd(&z, 0, 0)?.d;
        let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = s
            .iter()
            .copied()
            .filter(|&d| d > 0.0)
            .fold(f64::INFINITY, f64::min);
        return Ok(Value::scalar(max / min));
    }
    if exact {
        ctx.warn(format!("norm '{norm}' currently always uses exact = FALSE"));
    }
    let inf = norm == "I";
    let (r, c) = z.shape();
    if method == "qr" || r != c {
        let t = if r < c { z.transpose() } else { z };
        if t.ncols() == 0 || t.nrows() == 0 {
            return Err(KernelError::new(if t.nrows() == 0 {
                "subscript out of bounds"
            } else {
                "triangular matrix should be square"
            }));
        }
        let tri = qr_r(&t)?;
        return Ok(Value::scalar(kappa_tri(&tri, inf)));
    }
    if z.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    Ok(Value::scalar(kappa_tri(&z, inf)))
}

pub(super) fn kappa_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num(1))
}
