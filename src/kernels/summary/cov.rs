//! `var` and `sd`: R's `cov.c` (two-pass long-double column means, then
//! long-double sums of double cross-products divided by n - 1).

use std::borrow::Cow;

use nalgebra::DMatrix;

use super::ldouble::{self, LongDouble};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// A data argument seen as columns: (data column-major, rows, cols, is a matrix).
struct Cols<'a> {
    data: Cow<'a, [f64]>,
    n: usize,
    p: usize,
    matrix: bool,
}

fn cols<'a>(v: &'a Value, what: &str) -> Result<Cols<'a>, KernelError> {
    match v {
        Value::Mat(m) => Ok(Cols {
            data: Cow::Borrowed(m.as_slice()),
            n: m.nrows(),
            p: m.ncols(),
            matrix: true,
        }),
        other => {
            let data = other.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!(
                    "'{what}' must be numeric, not {}",
                    other.type_name()
                ))
            })?;
            let n = data.len();
            Ok(Cols {
                data,
                n,
                p: 1,
                matrix: false,
            })
        }
    }
}

impl Cols<'_> {
    fn col(&self, j: usize) -> &[f64] {
        &self.data[j * self.n..(j + 1) * self.n]
    }
}

/// R's cross-product sum: the means are held in long double, so the
/// deviations and their product are long-double operations too.
fn cross(x: &[f64], xm: f64, y: &[f64], ym: f64) -> f64 {
    let (xm, ym) = (LongDouble::from_f64(xm), LongDouble::from_f64(ym));
    ldouble::sum_products(x, xm, y, ym)
        .div_count(x.len() - 1)
        .to_f64()
}

/// The covariance of the columns of `x` with those of `y` (`y = x` when
/// absent). `complete`: R's "na.or.complete" (drop rows with any NA);
/// otherwise "everything" (a column with an NA gives NA entries).
fn covariance(x: &Cols, y: Option<&Cols>, complete: bool) -> Vec<f64> {
    let n = x.n;
    let mut keep = vec![true; n];
    if complete {
        for c in std::iter::once(x).chain(y) {
            for j in 0..c.p {
                for (k, v) in keep.iter_mut().zip(c.col(j)) {
                    if v.is_nan() {
                        *k = false;
                    }
                }
            }
        }
    }
    let nobs = keep.iter().filter(|&&k| k).count();
    let out_len = x.p * y.unwrap_or(x).p;
    if nobs <= 1 {
        return vec![NA; out_len];
    }
    // Incomplete rows are dropped once, here; the sums below then run over
    // whole columns.
    let kept = |c: &Cols<'_>| -> Option<Cols<'static>> {
        (nobs < n).then(|| Cols {
            data: Cow::Owned(
                (0..c.p)
                    .flat_map(|j| {
                        c.col(j)
                            .iter()
                            .zip(&keep)
                            .filter(|(_, &k)| k)
                            .map(|(&v, _)| v)
                    })
                    .collect(),
            ),
            n: nobs,
            p: c.p,
            matrix: c.matrix,
        })
    };
    let (kx, ky) = (kept(x), y.and_then(kept));
    let x = kx.as_ref().unwrap_or(x);
    let yy = ky.as_ref().or(y).unwrap_or(x);
    let has_na = |c: &Cols, j: usize| c.col(j).iter().any(|v| v.is_nan());
    let means = |c: &Cols| -> Vec<Option<f64>> {
        (0..c.p)
            // cov.c's MEAN is `mean`'s two long-double passes.
            .map(|j| (complete || !has_na(c, j)).then(|| super::mean(c.col(j))))
            .collect()
    };
    let xm = means(x);
    let ym = if y.is_some() { means(yy) } else { xm.clone() };
    let mut out = vec![NA; out_len];
    for i in 0..x.p {
        for j in 0..yy.p {
            if y.is_none() && j < i {
                out[j * x.p + i] = out[i * x.p + j];
                continue;
            }
            if let (Some(a), Some(b)) = (xm[i], ym[j]) {
                out[j * x.p + i] = cross(x.col(i), a, yy.col(j), b);
            }
        }
    }
    out
}

/// R's `use =` of `var`/`cov`, in its `pmatch` order.
#[derive(Clone, Copy, PartialEq)]
enum Use {
    AllObs,
    CompleteObs,
    Pairwise,
    Everything,
    NaOrComplete,
}

const USES: [(&str, Use); 5] = [
    ("all.obs", Use::AllObs),
    ("complete.obs", Use::CompleteObs),
    ("pairwise.complete.obs", Use::Pairwise),
    ("everything", Use::Everything),
    ("na.or.complete", Use::NaOrComplete),
];

fn use_arg(args: &Args<&Value>) -> Result<Use, KernelError> {
    let na_rm = args.bool_or("na.rm", false)?;
    match args.get("use") {
        None if na_rm => Ok(Use::NaOrComplete),
        None => Ok(Use::Everything),
        Some(Value::Str(s)) if s.len() == 1 => {
            let u = s[0].as_str();
            // pmatch: an exact name, else a unique prefix.
            let exact = USES.iter().find(|(n, _)| *n == u);
            let mut partial = USES
                .iter()
                .filter(|(n, _)| !u.is_empty() && n.starts_with(u));
            match (exact, partial.next(), partial.next()) {
                (Some((_, m)), _, _) | (None, Some((_, m)), None) => Ok(*m),
                _ => Err(KernelError::new("invalid 'use' argument")),
            }
        }
        Some(_) => Err(KernelError::new("invalid 'use' argument")),
    }
}

/// R's `cov_pairwise`: each pair of columns over the rows where both are
/// present, with one-pass long-double means (cov.c, `COV_PAIRWISE_BODY`).
fn pairwise(x: &Cols, y: Option<&Cols>) -> Vec<f64> {
    let yy = y.unwrap_or(x);
    let mut out = vec![NA; x.p * yy.p];
    for i in 0..x.p {
        for j in 0..yy.p {
            if y.is_none() && j < i {
                out[j * x.p + i] = out[i * x.p + j];
                continue;
            }
            let (a, b): (Vec<f64>, Vec<f64>) = x
                .col(i)
                .iter()
                .zip(yy.col(j))
                .filter(|(u, v)| !u.is_nan() && !v.is_nan())
                .map(|(&u, &v)| (u, v))
                .unzip();
            let nobs = a.len();
            if nobs >= 2 {
                let am = ldouble::sum(&a).div_count(nobs);
                let bm = ldouble::sum(&b).div_count(nobs);
                out[j * x.p + i] = ldouble::sum_products(&a, am, &b, bm)
                    .div_count(nobs - 1)
                    .to_f64();
            }
        }
    }
    out
}

pub(super) fn var_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let how = use_arg(args)?;
    let x = cols(args.get("x").unwrap_or(&Value::Null), "x")?;
    let y = match args.get("y") {
        None | Some(Value::Null) => None,
        Some(v) => Some(cols(v, "y")?),
    };
    if let Some(y) = &y {
        if y.n != x.n {
            return Err(KernelError::new("incompatible dimensions"));
        }
    }
    let ncy = y.as_ref().map_or(x.p, |y| y.p);
    let as_matrix = x.matrix || y.as_ref().is_some_and(|y| y.matrix);
    let any_na = || {
        x.data.iter().any(|v| v.is_nan())
            || y.as_ref()
                .is_some_and(|y| y.data.iter().any(|v| v.is_nan()))
    };
    let out = match how {
        Use::AllObs if any_na() => return Err(KernelError::new("missing observations in cov/cor")),
        Use::Pairwise => pairwise(&x, y.as_ref()),
        Use::Everything => covariance(&x, y.as_ref(), false),
        Use::CompleteObs => {
            let complete_row = |k: usize| {
                (0..x.p).all(|j| !x.col(j)[k].is_nan())
                    && y.as_ref()
                        .is_none_or(|y| (0..y.p).all(|j| !y.col(j)[k].is_nan()))
            };
            if !(0..x.n).any(complete_row) {
                return Err(KernelError::new("no complete element pairs"));
            }
            covariance(&x, y.as_ref(), true)
        }
        Use::AllObs | Use::NaOrComplete => covariance(&x, y.as_ref(), true),
    };
    Ok(if as_matrix {
        Value::Mat(DMatrix::from_vec(x.p, ncy, out))
    } else {
        Value::Num(out)
    })
}

pub(super) fn sd_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let complete = args.bool_or("na.rm", false)?;
    let x = args.nums("x")?;
    let c = Cols {
        n: x.len(),
        data: x,
        p: 1,
        matrix: false,
    };
    Ok(Value::scalar(covariance(&c, None, complete)[0].sqrt()))
}

/// (rows, columns, is a matrix) of a data argument's type.
fn shape_of(t: &Type) -> Option<(Option<usize>, Option<usize>, bool)> {
    match t {
        Type::Mat { rows, cols } => Some((*rows, *cols, true)),
        Type::Num { len, .. } | Type::Bool { len, .. } => Some((*len, Some(1), false)),
        _ => None,
    }
}

pub(super) fn var_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let xt = args.ty("x").cloned().unwrap_or(Type::Any);
    if matches!(xt, Type::Any) {
        return Ok(Type::Any);
    }
    let (xn, xp, xmat) = shape_of(&xt)
        .ok_or_else(|| args.error("x", format!("'x' must be numeric, not {}", xt.describe())))?;
    let (yp, ymat) = match args.ty("y") {
        None | Some(Type::Null) => (xp, false),
        Some(Type::Any) => return Ok(Type::Any),
        Some(yt) => {
            let (yn, yp, ymat) = shape_of(yt).ok_or_else(|| {
                args.error("y", format!("'y' must be numeric, not {}", yt.describe()))
            })?;
            if let (Some(a), Some(b)) = (xn, yn) {
                if a != b {
                    return Err(args.error(
                        "y",
                        format!("incompatible dimensions: 'x' has {a} rows, 'y' has {b}"),
                    ));
                }
            }
            (yp, ymat)
        }
    };
    Ok(if xmat || ymat {
        Type::Mat { rows: xp, cols: yp }
    } else {
        Type::num(1)
    })
}

pub(super) fn sd_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t) if !t.is_numeric() => {
            Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())))
        }
        _ => Ok(Type::num(1)),
    }
}
