//! R's `ar.ols(x, aic, order.max, na.action, demean, intercept)` (and
//! `ar(method = "ols")`) for one series, in the shape of stats/R/ar.R's
//! `ar.ols`: the series rescaled by its standard deviation, each order's
//! least-squares regression on its lags (and an intercept) through the
//! normal equations as R solves them, the order AIC picks, its residuals
//! and the asymptotic standard errors, scaled back. R's `ar` is an array
//! of order × 1 × 1 for one series; flowcast has no 3-d arrays, so it is
//! a vector here, as `ar.yw`'s is. A matrix of several series (R's
//! multivariate fit, whose coefficients are such an array) is refused.

use nalgebra::DMatrix;

use super::acf::{col_means, series_matrix};
use super::args::{ArgError, Args};
use super::arith::matmul;
use super::linalg::linpack::dqrdc2;
use super::value::{List, Value, NA};
use super::{KernelError, ShapeCtx, Type};

/// The options `ar.ols` reads besides `x`.
pub(super) struct Options {
    pub aic: bool,
    pub order_max: Option<f64>,
    pub demean: bool,
    pub intercept: bool,
}

/// `embed(x, m + 1)`'s column `j` (0-based): `x` lagged by `j`, over the
/// rows from `m` on.
fn lagged(x: &[f64], m: usize, j: usize) -> impl Iterator<Item = f64> + '_ {
    (0..x.len() - m).map(move |i| x[i + m - j])
}

/// One order's least-squares fit: the coefficients `A` (intercept first),
/// the residual variance `varE` and the standard errors `seA`.
struct Order {
    a: Vec<f64>,
    var_e: f64,
    se_a: Vec<f64>,
}

/// The regressors `X` of order `m` (N × k, column-major) and the response.
fn design(x: &[f64], m: usize, intercept: bool) -> (Vec<f64>, usize, Vec<f64>) {
    let rows = x.len() - m;
    let mut xm = Vec::new();
    if intercept {
        xm.extend(std::iter::repeat_n(1.0, rows));
    }
    for j in 1..=m {
        xm.extend(lagged(x, m, j));
    }
    let k = m + usize::from(intercept);
    (xm, k, lagged(x, m, 0).collect())
}

/// Order `m`'s fit; `None` where R warns that `t(X) %*% X` is singular
/// and stops raising the order.
fn fit_order(x: &[f64], m: usize, intercept: bool) -> Result<Option<Order>, KernelError> {
    let (xd, k, y) = design(x, m, intercept);
    let n = y.len();
    // XX <- t(X) %*% X, each entry summed over the rows in order, as
    // the reference dgemm R calls adds them.
    let xt = DMatrix::from_column_slice(n, k, &xd).transpose();
    let col = |j: usize| &xd[j * n..(j + 1) * n];
    let xx = DMatrix::from_fn(k, k, |i, j| {
        col(i).iter().zip(col(j)).fold(0.0, |s, (a, b)| s + a * b)
    });
    // qr(XX)$rank, LINPACK's with R's tolerance 1e-7.
    if k > 0 && dqrdc2(xx.as_slice().to_vec(), k, k, 1e-7).rank != k {
        return Ok(None);
    }
    let p = if k > 0 {
        super::linalg::solve(&xx, None, f64::EPSILON)?
    } else {
        xx
    };
    // A <- Y %*% X %*% P
    let yx = matmul(&y, 1, n, &xd, k);
    let a = matmul(yx.as_slice(), 1, k, p.as_slice(), k);
    // YH <- A %*% t(X); E <- Y - YH; varE <- tcrossprod(E) / N
    let yh = matmul(a.as_slice(), 1, k, xt.as_slice(), n);
    let sse = y
        .iter()
        .zip(yh.iter())
        .fold(0.0, |s, (y, h)| s + (y - h) * (y - h));
    let var_e = sse / n as f64;
    // sqrt(diag(P %x% varE))
    let se_a = (0..k).map(|i| (p[(i, i)] * var_e).sqrt()).collect();
    Ok(Some(Order {
        a: a.as_slice().to_vec(),
        var_e,
        se_a,
    }))
}

/// The fields of `ar.ols`'s value for the series `x` (dated by `tsp`
/// when a ts).
pub(super) fn ar_ols(
    xv: Option<&Value>,
    tsp: Option<[f64; 3]>,
    o: &Options,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    let x = series_matrix(xv, false)?;
    if x.ncols() > 1 {
        return Err(KernelError::new(
            "flowcast's ar.ols takes one series (R's multivariate fit holds its coefficients in a 3-d array, which flowcast lacks)",
        ));
    }
    let n_used = x.nrows();
    // rescale: by the standard deviation, 1 where it is 0.
    let mut sc = super::summary::corcov::var(x.as_slice()).sqrt();
    if sc == 0.0 {
        sc = 1.0;
    }
    let mut x: Vec<f64> = x.iter().map(|v| v / sc).collect();
    let order_max = match o.order_max {
        None => (n_used as f64 - 1.0).min((10.0 * (n_used as f64).log10()).floor()),
        Some(v) => v.round_ties_even(),
    };
    if order_max.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if order_max < 0.0 {
        return Err(KernelError::new("'order.max' must be >= 0"));
    }
    if order_max >= n_used as f64 {
        return Err(KernelError::new("'order.max' must be < 'n.used'"));
    }
    let order_max = order_max as usize;
    let order_min = if o.aic { 0 } else { order_max };
    let xm = if o.demean {
        let m = col_means(&DMatrix::from_column_slice(n_used, 1, &x))[0];
        x.iter_mut().for_each(|v| *v -= m);
        m
    } else {
        0.0
    };
    let mut fits: Vec<Order> = Vec::new();
    let mut xaic = vec![f64::INFINITY; order_max - order_min + 1];
    for m in order_min..=order_max {
        let Some(f) = fit_order(&x, m, o.intercept)? else {
            // R warns that results are valid only up to order m - 1.
            break;
        };
        // det(varE) for one series: max(0, varE).
        let det = f.var_e.max(0.0);
        xaic[m - order_min] =
            n_used as f64 * det.ln() + 2.0 * (m as f64 + f64::from(u8::from(o.intercept)));
        fits.push(f);
    }
    let min = xaic.iter().copied().fold(f64::INFINITY, f64::min);
    let m = if o.aic {
        xaic.iter().position(|v| *v == min).unwrap_or(0) + order_min
    } else {
        order_max
    };
    let Some(best) = fits.get(m - order_min) else {
        // R indexes a NULL fit here and fails.
        return Err(KernelError::new(format!(
            "flowcast's ar.ols: the normal equations of order {m} are singular (R stops there with no fit)"
        )));
    };
    let (xint, ar) = if o.intercept {
        (Some(best.a[0]), best.a[1..].to_vec())
    } else {
        (None, best.a.clone())
    };
    // The residuals of the best model, NA over its first m.
    let (xd, k, y) = design(&x, m, o.intercept);
    let n = y.len();
    let xt = DMatrix::from_column_slice(n, k, &xd).transpose();
    let yh = matmul(&best.a, 1, k, xt.as_slice(), n);
    let mut e = vec![NA; m];
    e.extend(y.iter().zip(yh.iter()).map(|(y, h)| (y - h) * sc));
    let e = match tsp {
        Some(t) => super::ts::with_tsp(Value::Num(e), t),
        None => Value::Num(e),
    };
    // xaic - min(xaic): R tests min(aic), the logical argument, which is
    // always finite.
    let xaic: Vec<f64> = xaic.iter().map(|v| v - min).collect();
    let (sem, ses) = if o.intercept {
        (best.se_a[0], &best.se_a[1..])
    } else {
        (0.0, &best.se_a[..])
    };
    let aa = sc * (1.0 / sc);
    let ses: Vec<f64> = ses.iter().map(|s| s * aa).collect();
    let fields = vec![
        ("order", Value::scalar(m as f64)),
        ("ar", Value::Num(ar)),
        ("var.pred", Value::scalar(best.var_e * (sc * sc))),
        ("x.mean", Value::scalar(xm * sc)),
        (
            "x.intercept",
            xint.map_or(Value::Null, |v| Value::scalar(v * sc)),
        ),
        ("aic", Value::Num(xaic)),
        ("n.used", Value::scalar(n_used as f64)),
        ("n.obs", Value::scalar(n_used as f64)),
        ("order.max", Value::scalar(order_max as f64)),
        ("partialacf", Value::Null),
        ("resid", e),
        ("method", Value::string("Unconstrained LS")),
        ("frequency", Value::scalar(tsp.map_or(1.0, |t| t[2]))),
        (
            "asy.se.coef",
            Value::List(List::named(vec![
                ("x.mean", Value::scalar(sem * sc)),
                ("ar", Value::Num(ses)),
            ])),
        ),
    ];
    Ok(fields)
}

/// The fields of `ar.ols`'s value, known before the run.
pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    Ok(record())
}

pub(super) fn record() -> Type {
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    let v = || Type::Num {
        len: None,
        value: None,
    };
    Type::record(
        "ar",
        vec![
            ("order", Type::num(1)),
            ("ar", v()),
            ("var.pred", Type::num(1)),
            ("x.mean", Type::num(1)),
            // NULL without an intercept.
            ("x.intercept", Type::Any),
            ("aic", v()),
            ("n.used", Type::num(1)),
            ("n.obs", Type::num(1)),
            ("order.max", Type::num(1)),
            ("partialacf", Type::Null),
            ("resid", v()),
            ("method", s()),
            ("series", s()),
            ("frequency", Type::num(1)),
            ("call", s()),
            ("asy.se.coef", Type::Any),
            ("series.x", Type::Any),
        ],
    )
}
