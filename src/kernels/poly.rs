//! `poly(x, degree, coefs, raw, simple)`: R 4.2.2's poly for one
//! variable. Orthogonal polynomials as R fits them (the centred powers'
//! LINPACK QR, `qr.qy` of its diagonal, columns scaled to unit norm), or
//! as it predicts them from given `coefs` (the three-term recurrence), or
//! raw powers. R's attributes (`coefs`, `degree`, class "poly") have no
//! place on a flowcast matrix and are left out: the result is the matrix
//! that `poly(x, degree, simple = TRUE)` gives, with its column names.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::logical::if_condition;
use super::names::{bare, dimnamed};
use super::splines::deparse_num;
use super::summary::{mean, sum};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "poly",
    params: &[
        req("x"),
        DOTS,
        opt("degree"),
        opt("coefs"),
        opt("raw"),
        opt("simple"),
    ],
    random: false,
    shape,
    eval,
}];

/// R's `x ^ k` (R_POW: `x * x` for 2, 1 for a zero power or a base of 1,
/// else C's pow).
pub(super) fn power(x: f64, k: i32) -> f64 {
    if x == 1.0 || k == 0 {
        1.0
    } else if k == 2 {
        x * x
    } else {
        x.powf(f64::from(k))
    }
}

fn degree_of(args: &Args<&Value>) -> Result<f64, KernelError> {
    let dots: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    let d = match dots.as_slice() {
        [] => match args.get("degree") {
            None => return Ok(1.0),
            Some(d) => d,
        },
        [d] if d.len() == 1 => *d,
        _ => {
            return Err(KernelError::new(
                "poly() of several variables (R's polym) is not supported",
            ))
        }
    };
    bare(d)
        .as_scalar()
        .ok_or_else(|| KernelError::new("'degree' must be at least 1"))
}

/// `coefs$alpha` and `coefs$norm2` of an earlier fit.
fn coefs(v: &Value) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let bad = || KernelError::new("'coefs' must be a list with components 'alpha' and 'norm2'");
    let Value::List(l) = bare(v) else {
        return Err(bad());
    };
    let get = |n: &str| {
        l.field(n)
            .and_then(Value::as_f64_slice)
            .map(|v| v.into_owned())
            .ok_or_else(bad)
    };
    Ok((get("alpha")?, get("norm2")?))
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let degree = degree_of(args)?;
    if xv.dims().is_some() {
        return Err(KernelError::new(
            "poly() of a matrix (R's polym) is not supported",
        ));
    }
    let x: Vec<f64> = match bare(xv) {
        v @ (Value::Num(_) | Value::Bool(_)) => v.as_f64_slice().unwrap_or_default().into_owned(),
        _ => return Err(KernelError::new("non-numeric argument to binary operator")),
    };
    if degree.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if degree < 1.0 {
        return Err(KernelError::new("'degree' must be at least 1"));
    }
    let raw = args.get("raw").map_or(Ok(false), if_condition)?;
    // `1L:degree` stops at the last whole number not above it.
    let d = degree.floor().min(f64::from(i32::MAX)) as usize;
    let n = x.len();
    // The column names too: a huge degree of an empty x is no small call.
    super::alloc::ensure_room((n as f64 + 4.0) * (d as f64 + 1.0) * 8.0)?;
    let names: Vec<String> = (1..=d).map(|k| k.to_string()).collect();
    if raw {
        let z = DMatrix::from_fn(n, d, |i, j| power(x[i], j as i32 + 1));
        return Ok(dimnamed(Value::Mat(z), None, Some(names)));
    }
    let z = match args.get("coefs").map(bare) {
        None | Some(Value::Null) => fit(&x, d)?,
        Some(c) => {
            let (alpha, norm2) = coefs(c)?;
            if alpha.len() < d || norm2.len() < d + 2 {
                return Err(KernelError::new("subscript out of bounds"));
            }
            let mut z = DMatrix::from_element(n, d + 1, 1.0);
            for i in 0..n {
                z[(i, 1)] = x[i] - alpha[0];
            }
            for k in 2..=d {
                for i in 0..n {
                    z[(i, k)] = (x[i] - alpha[k - 1]) * z[(i, k - 1)]
                        - (norm2[k] / norm2[k - 1]) * z[(i, k - 2)];
                }
            }
            for k in 0..=d {
                let s = norm2[k + 1].sqrt();
                z.column_mut(k).iter_mut().for_each(|v| *v /= s);
            }
            z
        }
    };
    let z = z.columns(1, d).into_owned();
    Ok(dimnamed(Value::Mat(z), None, Some(names)))
}

/// R's fitting branch: the columns 0..=degree of Z, each divided by its
/// norm.
fn fit(x: &[f64], d: usize) -> Result<DMatrix<f64>, KernelError> {
    Ok(fit_coefs(x, d)?.0)
}

/// R's `makepredictcall.poly` for a formula's variable `poly(…)` of
/// matched arguments `args`, whose x argument is written `x_text`: the
/// call with the fit's `coefs` (`alpha` and `norm2`), which predicts the
/// same polynomials at newdata's x by the three-term recurrence. None for
/// raw powers and given coefs, which need no fit, and for what poly
/// refuses.
pub(crate) fn predict_call(x_text: &str, args: &Args<&Value>) -> Option<String> {
    if args
        .get("raw")
        .is_some_and(|r| !matches!(if_condition(r), Ok(false)))
        || args
            .get("coefs")
            .is_some_and(|c| !matches!(bare(c), Value::Null))
    {
        return None;
    }
    let degree = degree_of(args).ok()?;
    if !(1.0..=f64::from(i32::MAX)).contains(&degree) {
        return None;
    }
    let d = degree.floor() as usize;
    let x = match bare(args.get("x")?) {
        v @ (Value::Num(_) | Value::Bool(_)) => v.as_f64_slice()?.into_owned(),
        _ => return None,
    };
    let (_, alpha, norm2) = fit_coefs(&x, d).ok()?;
    let vec = |v: &[f64]| {
        let all: Vec<String> = v.iter().map(|x| deparse_num(*x)).collect();
        match all.as_slice() {
            [one] => one.clone(),
            _ => format!("c({})", all.join(", ")),
        }
    };
    Some(format!(
        "poly({x_text}, degree = {d}, coefs = list(alpha = {}, norm2 = {}))",
        vec(&alpha),
        vec(&norm2)
    ))
}

/// Z scaled, with R's `alpha` and `norm2`.
type Fitted = (DMatrix<f64>, Vec<f64>, Vec<f64>);

/// R's fitting branch with the `coefs` it keeps: Z scaled, `alpha` (the
/// recurrence's centres, `colSums(x * Z^2) / norm2 + xbar` of the first
/// `degree` columns) and `norm2` (1, then each column's squared norm).
fn fit_coefs(x: &[f64], d: usize) -> Result<Fitted, KernelError> {
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new("missing values are not allowed in 'poly'"));
    }
    let too_high = || KernelError::new("'degree' must be less than number of unique points");
    let mut unique: Vec<u64> = x.iter().map(|v| (v + 0.0).to_bits()).collect();
    unique.sort_unstable();
    unique.dedup();
    if d >= unique.len() {
        return Err(too_high());
    }
    let n = x.len();
    let xbar = mean(x);
    let xc: Vec<f64> = x.iter().map(|v| v - xbar).collect();
    let p = d + 1;
    let big_x: Vec<f64> = (0..p)
        .flat_map(|k| xc.iter().map(move |&v| power(v, k as i32)))
        .collect();
    let q = dqrdc2(big_x, n, p, 1e-7);
    if q.rank < d {
        return Err(too_high());
    }
    let mut z = DMatrix::zeros(n, p);
    for j in 0..p {
        let mut col = vec![0.0; n];
        if j < n {
            col[j] = q.qr[j * n + j];
        }
        let r = dqrsl(
            &q,
            q.rank,
            &col,
            Job {
                qy: true,
                ..Job::default()
            },
        );
        z.column_mut(j).copy_from_slice(&r.qy);
    }
    let mut norm2 = vec![1.0];
    let mut alpha = Vec::with_capacity(d);
    for j in 0..p {
        let sq: Vec<f64> = z.column(j).iter().map(|v| v * v).collect();
        let n2 = sum(&sq, false);
        if j < d {
            let xz: Vec<f64> = xc.iter().zip(&sq).map(|(x, z2)| x * z2).collect();
            alpha.push(sum(&xz, false) / n2 + xbar);
        }
        norm2.push(n2);
        let s = n2.sqrt();
        z.column_mut(j).iter_mut().for_each(|v| *v /= s);
    }
    Ok((z, alpha, norm2))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = args.ty("x").and_then(Type::len);
    let d = args
        .dots()
        .next()
        .map(|(_, t)| t)
        .or_else(|| args.ty("degree"))
        .map_or(Some(1.0), Type::const_scalar)
        .filter(|d| d.is_finite() && *d >= 1.0)
        .map(|d| d.floor() as usize);
    Ok(Type::Mat { rows: n, cols: d })
}
