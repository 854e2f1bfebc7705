//! `norm(x, type)`: R's `La_dlange` (LAPACK 3.11 `dlange`, the Frobenius
//! norm through `dlassq`'s three accumulators) and, for type "2", the
//! largest singular value.

use nalgebra::DMatrix;

use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::names::bare;
use crate::kernels::Ctx;

/// LAPACK `dlange` on `a` for a type already read by [`norm_type`].
pub(crate) fn dlange(kind: char, a: &DMatrix<f64>) -> f64 {
    let (m, n) = a.shape();
    if m.min(n) == 0 {
        return 0.0;
    }
    // `value < x .or. disnan(x)`: a NaN once met stays.
    let keep = |value: f64, x: f64| if value < x || x.is_nan() { x } else { value };
    match kind {
        'M' => a.iter().fold(0.0, |v, x| keep(v, x.abs())),
        'O' => (0..n).fold(0.0, |v, j| {
            let mut sum = 0.0;
            for x in a.column(j).iter() {
                sum += x.abs();
            }
            keep(v, sum)
        }),
        'I' => {
            let mut work = vec![0.0; m];
            for j in 0..n {
                for (w, x) in work.iter_mut().zip(a.column(j).iter()) {
                    *w += x.abs();
                }
            }
            work.into_iter().fold(0.0, keep)
        }
        _ => {
            let (mut scale, mut sumsq) = (0.0, 1.0);
            for j in 0..n {
                dlassq(a.column(j).as_slice(), &mut scale, &mut sumsq);
            }
            scale * sumsq.sqrt()
        }
    }
}

/// LAPACK 3.11 `dlassq` (Anderson's algorithm, la_constants' thresholds
/// for doubles): `scale^2 * sumsq` updated by the squares of `x`.
fn dlassq(x: &[f64], scale: &mut f64, sumsq: &mut f64) {
    let tsml = 2f64.powi(-511);
    let tbig = 2f64.powi(486);
    let ssml = 2f64.powi(537);
    let sbig = 2f64.powi(-538);
    if scale.is_nan() || sumsq.is_nan() {
        return;
    }
    if *sumsq == 0.0 {
        *scale = 1.0;
    }
    if *scale == 0.0 {
        *scale = 1.0;
        *sumsq = 0.0;
    }
    if x.is_empty() {
        return;
    }
    let mut notbig = true;
    let (mut asml, mut amed, mut abig) = (0.0f64, 0.0f64, 0.0f64);
    for &v in x {
        let ax = v.abs();
        if ax > tbig {
            abig += (ax * sbig) * (ax * sbig);
            notbig = false;
        } else if ax < tsml {
            if notbig {
                asml += (ax * ssml) * (ax * ssml);
            }
        } else {
            amed += ax * ax;
        }
    }
    if *sumsq > 0.0 {
        let ax = *scale * sumsq.sqrt();
        if ax > tbig {
            if *scale > 1.0 {
                *scale *= sbig;
                abig += *scale * (*scale * *sumsq);
            } else {
                abig += *scale * (*scale * (sbig * (sbig * *sumsq)));
            }
        } else if ax < tsml {
            if notbig {
                if *scale < 1.0 {
                    *scale *= ssml;
                    asml += *scale * (*scale * *sumsq);
                } else {
                    asml += *scale * (*scale * (ssml * (ssml * *sumsq)));
                }
            }
        } else {
            amed += *scale * (*scale * *sumsq);
        }
    }
    if abig > 0.0 {
        if amed > 0.0 || amed.is_nan() {
            abig += (amed * sbig) * sbig;
        }
        *scale = 1.0 / sbig;
        *sumsq = abig;
    } else if asml > 0.0 {
        if amed > 0.0 || amed.is_nan() {
            let amed = amed.sqrt();
            let asml = asml.sqrt() / ssml;
            let (ymin, ymax) = if asml > amed {
                (amed, asml)
            } else {
                (asml, amed)
            };
            *scale = 1.0;
            *sumsq = ymax * ymax * (1.0 + (ymin / ymax) * (ymin / ymax));
        } else {
            *scale = 1.0 / ssml;
            *sumsq = asml;
        }
    } else {
        *scale = 1.0;
        *sumsq = amed;
    }
}

/// R's `La_norm_type`: one letter, any case; "1" is "O", "E" is "F".
fn norm_type(t: &str) -> Result<char, KernelError> {
    let mut chars = t.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(KernelError::new(format!(
            "argument type[1]='{t}' must be a character string of string length 1"
        )));
    };
    match c.to_ascii_uppercase() {
        '1' | 'O' => Ok('O'),
        'E' | 'F' => Ok('F'),
        c @ ('M' | 'I') => Ok(c),
        _ => Err(KernelError::new(format!(
            "argument type[1]='{t}' must be one of 'M','1','O','I','F' or 'E'"
        ))),
    }
}

/// The matrix `x` is as LAPACK reads it (logicals as 0/1); `None` for a
/// vector or anything not numeric.
fn numeric_matrix(x: &Value) -> Option<DMatrix<f64>> {
    match bare(x) {
        Value::Mat(m) => Some(m.clone()),
        Value::BoolMat(m) => Some(m.map(crate::kernels::value::logical_f64)),
        _ => None,
    }
}

pub(super) fn norm_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let t = match args.get("type").map(bare) {
        None => "O".to_string(),
        Some(Value::Str(s)) if !s.is_empty() => s[0].clone(),
        Some(Value::Str(_)) => return Err(KernelError::new("invalid 'type' argument")),
        Some(_) => {
            return Err(KernelError::new(
                "argument type[1]='' must be a one-letter character string",
            ))
        }
    };
    // `identical("2", type)`: only the one string "2".
    if t == "2" && matches!(args.get("type").map(bare), Some(Value::Str(s)) if s.len() == 1) {
        let m = match bare(x) {
            Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_) => {
                let v = bare(x).as_f64_slice().unwrap_or_default();
                match x.dims() {
                    Some((r, c)) => DMatrix::from_column_slice(r, c, &v),
                    None => DMatrix::from_column_slice(v.len(), 1, &v),
                }
            }
            _ => return Err(KernelError::new("argument is not a matrix")),
        };
        if m.iter().any(|v| v.is_nan()) {
            return Ok(Value::scalar(crate::kernels::value::NA));
        }
        let s = super::svd::svd(&m, 0, 0)?;
        return Ok(Value::scalar(
            s.d.first().copied().unwrap_or(crate::kernels::value::NA),
        ));
    }
    let Some(m) = numeric_matrix(x) else {
        return Err(KernelError::new("'A' must be a numeric matrix"));
    };
    let kind = norm_type(&t)?;
    Ok(Value::scalar(dlange(kind, &m)))
}

pub(super) fn norm_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num(1))
}
