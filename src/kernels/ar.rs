//! R's `ar(x, aic, order.max, method)` on one series for the Yule-Walker
//! method (`ar.yw.default`: the autocovariances (acf), Levinson-Durbin
//! through stats/src/eureka.f for every order up to `order.max`) and
//! Burg's (`ar.burg.default` over stats/src/burg.c), the order AIC picks,
//! its coefficients, residuals (a series when `x` is one) and their
//! asymptotic covariance; and `predict(fit, newdata, n.ahead, se.fit)`
//! (`predict.ar`). The result is R's `ar` object; `partialacf`, an array
//! of lag × 1 × 1 in R, is a one-column matrix here. `series` and `call`,
//! which R takes from the call, are added by the evaluator. R evaluates
//! the text of `series` again to forecast without `newdata`; a step sees
//! only the steps it names, so the fit carries the series itself as a
//! last field of its own, `series.x`. `ar.yw` and `ar.burg` are R's
//! generics on one series; `method = "ols"` and `ar.ols` are in
//! ar_ols.rs. R's ar.mle, which fits by arima0, and multivariate series
//! are refused.

use nalgebra::DMatrix;

use super::acf::{acf_values, col_means, match_arg, series_matrix, sweep};
use super::args::{ArgError, Args};
use super::arith::matmul;
use super::value::{List, Value, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ar",
        params: &[
            req("x"),
            opt("aic"),
            opt("order.max"),
            opt("method"),
            opt("na.action"),
            opt("series"),
            DOTS,
        ],
        random: false,
        shape,
        eval,
    },
    // R's generics ar.yw and ar.burg dispatch to their default methods
    // for a vector or ts, whose formals these are.
    Kernel {
        name: "ar.yw",
        params: &[
            req("x"),
            opt("aic"),
            opt("order.max"),
            opt("na.action"),
            opt("demean"),
            opt("series"),
            DOTS,
        ],
        random: false,
        shape,
        eval: eval_yw,
    },
    Kernel {
        name: "ar.burg",
        params: &[
            req("x"),
            opt("aic"),
            opt("order.max"),
            opt("na.action"),
            opt("demean"),
            opt("series"),
            opt("var.method"),
            DOTS,
        ],
        random: false,
        shape,
        eval: eval_burg,
    },
    Kernel {
        name: "ar.ols",
        params: &[
            req("x"),
            opt("aic"),
            opt("order.max"),
            opt("na.action"),
            opt("demean"),
            opt("intercept"),
            opt("series"),
            DOTS,
        ],
        random: false,
        shape: super::ar_ols::shape,
        eval: eval_ols,
    },
    Kernel {
        name: "ar.mle",
        params: &[
            req("x"),
            opt("aic"),
            opt("order.max"),
            opt("na.action"),
            opt("demean"),
            opt("series"),
            DOTS,
        ],
        random: false,
        shape,
        eval: eval_mle,
    },
];

const METHODS: &[&str] = &["yule-walker", "burg", "ols", "mle", "yw"];

/// eureka.f's `eureka(lr, r, g, f, var, a)`: Levinson-Durbin for the
/// Toeplitz system of autocovariances `r` with right-hand side `g`; row l
/// of `f` holds the order-l coefficients and `var` each order's
/// innovations variance. 1-based, as the Fortran.
pub(super) fn eureka(lr: usize, r: &[f64], g: &[f64]) -> (DMatrix<f64>, Vec<f64>) {
    // r(1..lr+1), g(1..lr+1), f(1..lr, 1..lr), var(1..lr), a(1..lr)
    let r = |i: usize| r[i - 1];
    let g = |i: usize| g[i - 1];
    let mut f = DMatrix::<f64>::zeros(lr + 1, lr + 1);
    let mut var = vec![0.0; lr + 1];
    let mut a = vec![0.0; lr + 1];
    let mut v = r(1);
    let mut d = r(2);
    a[1] = 1.0;
    f[(1, 1)] = g(2) / v;
    let mut q = f[(1, 1)] * r(2);
    var[1] = (1.0 - f[(1, 1)] * f[(1, 1)]) * r(1);
    if lr > 1 {
        for l in 2..=lr {
            a[l] = -d / v;
            if l > 2 {
                let l1 = (l - 2) / 2;
                let l2 = l1 + 1;
                for j in 2..=l2 {
                    let hold = a[j];
                    let k = l - j + 1;
                    a[j] += a[l] * a[k];
                    a[k] += a[l] * hold;
                }
                if 2 * l1 != l - 2 {
                    a[l2 + 1] *= 1.0 + a[l];
                }
            }
            v += a[l] * d;
            f[(l, l)] = (g(l + 1) - q) / v;
            for j in 1..l {
                f[(l, j)] = f[(l - 1, j)] + f[(l, l)] * a[l - j + 1];
            }
            var[l] = var[l - 1] * (1.0 - f[(l, l)] * f[(l, l)]);
            if l == lr {
                break;
            }
            d = 0.0;
            q = 0.0;
            for i in 1..=l {
                let k = l - i + 2;
                d += a[i] * r(k);
                q += f[(l, i)] * r(k);
            }
        }
    }
    let coefs = f.view((1, 1), (lr, lr)).into_owned();
    (coefs, var[1..].to_vec())
}

/// A TRUE/FALSE argument R tests with `if`.
fn flag(v: Option<&Value>, default: bool) -> Result<bool, KernelError> {
    match v {
        None => Ok(default),
        Some(v) => match v.as_flag() {
            Some(b) => Ok(b),
            None if v.is_empty() => Err(KernelError::new("argument is of length zero")),
            None => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
    }
}

/// An option of the method: its own formal, or (through `ar`'s `...`)
/// an argument by that name.
fn option<'a>(args: &'a Args<&Value>, name: &str) -> Option<&'a Value> {
    args.get_if_formal(name)
        .or_else(|| args.dots().find(|(n, _)| *n == Some(name)).map(|(_, v)| v))
}

/// A TRUE/FALSE option R tests with `if`.
fn option_flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    flag(option(args, name), default)
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    match match_arg(args.get("method"), METHODS)? {
        "burg" => fit(args, true),
        "ols" => fit_ols(args),
        "mle" => refuse_mle(),
        _ => fit(args, false),
    }
}

fn eval_yw(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    fit(args, false)
}

fn eval_burg(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    fit(args, true)
}

fn eval_ols(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    fit_ols(args)
}

fn eval_mle(_: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    refuse_mle()
}

/// R's ar.mle fits each order by `arima0` (arima.c's arma0 with its own
/// starting values and optimiser), which flowcast does not have.
fn refuse_mle() -> Result<Value, KernelError> {
    Err(KernelError::new(
        "flowcast's ar has no method \"mle\": R's ar.mle fits every order by arima0, which flowcast does not port (use method \"ols\", \"burg\" or \"yule-walker\", or arima(x, order = c(p, 0, 0), method = \"ML\"))",
    ))
}

fn fit_ols(args: &Args<&Value>) -> Result<Value, KernelError> {
    if args.has("na.action") {
        return Err(KernelError::new(
            "flowcast's ar takes only R's default na.action (na.fail)",
        ));
    }
    let demean = option_flag(args, "demean", true)?;
    let order_max = match args.get("order.max") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([o, ..]) => Some(*o),
            _ => return Err(KernelError::new("argument is of length zero")),
        },
    };
    let o = super::ar_ols::Options {
        aic: flag(args.get("aic"), true)?,
        order_max,
        demean,
        intercept: option_flag(args, "intercept", demean)?,
    };
    let xtsp = args.get("x").and_then(super::ts::tsp_of);
    let mut fields = super::ar_ols::ar_ols(args.get("x"), xtsp, &o)?;
    fields.push((SERIES_X, given_series(args, xtsp)));
    Ok(Value::List(List::record("ar", fields)))
}

/// `x` as given, with its tsp: the fit's copy of its series.
fn given_series(args: &Args<&Value>, xtsp: Option<[f64; 3]>) -> Value {
    let given = args.get("x").map(super::names::bare).cloned();
    match (given, xtsp) {
        (Some(v), Some(t)) => super::ts::with_tsp(v, t),
        (Some(v), None) => v,
        (None, _) => Value::Null,
    }
}

/// `ar.yw.default` (or `ar.burg.default` when `burg`) of one series.
fn fit(args: &Args<&Value>, burg: bool) -> Result<Value, KernelError> {
    if args.has("na.action") {
        return Err(KernelError::new(
            "flowcast's ar takes only R's default na.action (na.fail)",
        ));
    }
    let demean = match option(args, "demean") {
        None => true,
        Some(v) => match v.as_flag() {
            Some(b) => b,
            None => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
    };
    let var_method = match option(args, "var.method") {
        Some(v) if burg => match v.as_scalar() {
            Some(m) if !m.is_nan() => m,
            _ => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
        _ => 1.0,
    };
    let o = Fit {
        burg,
        aic: args.get("aic"),
        order_max: args.get("order.max"),
        demean,
        var_method,
    };
    let xtsp = args.get("x").and_then(super::ts::tsp_of);
    let mut fields = fit_series(args.get("x"), xtsp, &o)?;
    fields.push((SERIES_X, given_series(args, xtsp)));
    Ok(Value::List(List::record("ar", fields)))
}

/// What `ar.yw.default` (or `ar.burg.default` when `burg`) reads besides
/// `x`; `aic` and `order.max` as given, read where R reads them.
pub(super) struct Fit<'a> {
    pub burg: bool,
    pub aic: Option<&'a Value>,
    pub order_max: Option<&'a Value>,
    pub demean: bool,
    pub var_method: f64,
}

/// The fields of the fit of the series `xv` (dated by `xtsp`), less the
/// copy of the series.
pub(super) fn fit_series(
    xv: Option<&Value>,
    xtsp: Option<[f64; 3]>,
    o: &Fit,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    let Fit {
        burg,
        demean,
        var_method,
        ..
    } = *o;
    let mut x = series_matrix(xv, false)?;
    if x.ncols() > 1 {
        return Err(KernelError::new(
            "flowcast's ar takes one series (R's multivariate Yule-Walker is not ported)",
        ));
    }
    let xm = if demean {
        let m = col_means(&x);
        sweep(&mut x, &m);
        m[0]
    } else {
        0.0
    };
    let n_used = x.nrows();
    let n_obs = x.iter().filter(|v| !v.is_nan()).count();
    let order_max = match o.order_max {
        None | Some(Value::Null) => {
            (n_obs as f64 - 1.0).min((10.0 * (n_obs as f64).log10()).floor())
        }
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([o, ..]) => o.floor(),
            _ => return Err(KernelError::new("argument is of length zero")),
        },
    };
    if order_max.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if order_max < 1.0 {
        return Err(KernelError::new("'order.max' must be >= 1"));
    }
    if order_max >= n_obs as f64 {
        return Err(KernelError::new(if burg {
            "'order.max' must be < 'n.used'"
        } else {
            "'order.max' must be < 'n.obs'"
        }));
    }
    let order_max = order_max as usize;
    let aic = flag(o.aic, true)?;
    let (coefs, var_pred) = if burg {
        let (coefs, var1, var2) = burg_c(x.as_slice(), order_max);
        let var_pred = if var_method == 1.0 { var1 } else { var2 };
        if var_pred.iter().any(|v| v.is_nan()) {
            return Err(KernelError::new("zero-variance series"));
        }
        (coefs, var_pred)
    } else {
        let (_, xacf) = acf_values(x.clone(), Some(order_max as f64), false, demean)?;
        if xacf[0] == 0.0 {
            return Err(KernelError::new("zero-variance series"));
        }
        let (coefs, vars) = eureka(order_max, &xacf, &xacf);
        let mut var_pred = vec![xacf[0]];
        var_pred.extend(vars);
        (coefs, var_pred)
    };
    let partialacf: Vec<f64> = (0..order_max).map(|i| coefs[(i, i)]).collect();
    let n = n_obs as f64;
    let dm = if demean { 2.0 } else { 0.0 };
    let xaic: Vec<f64> = var_pred
        .iter()
        .enumerate()
        .map(|(i, v)| n * v.ln() + 2.0 * i as f64 + dm)
        .collect();
    // min(xaic): NaN when any is (R's min gives NA or NaN).
    let min = xaic.iter().copied().fold(f64::INFINITY, |m, v| {
        if m.is_nan() || v.is_nan() {
            m + v
        } else {
            m.min(v)
        }
    });
    let xaic: Vec<f64> = xaic.iter().map(|v| v - min).collect();
    let order = if aic {
        let zeros: Vec<usize> = (0..=order_max).filter(|&i| xaic[i] == 0.0).collect();
        match zeros.as_slice() {
            [o] => *o,
            [] => return Err(KernelError::new("argument is of length zero")),
            _ => return Err(KernelError::new("the condition has length > 1")),
        }
    } else {
        order_max
    };
    let ar: Vec<f64> = (0..order).map(|j| coefs[(order - 1, j)]).collect();
    let var_pred = if burg {
        var_pred[order]
    } else {
        // Splus compatibility fix
        var_pred[order] * n / (n - (order as f64 + 1.0))
    };
    let xs = x.as_slice();
    let resid = if order > 0 {
        // embed(x, order + 1) %*% c(1, -ar)
        let k = order + 1;
        let rows = n_used - order;
        let mut e = Vec::with_capacity(rows * k);
        for j in 0..k {
            e.extend((0..rows).map(|i| xs[i + order - j]));
        }
        let mut b = vec![1.0];
        b.extend(ar.iter().map(|a| -a));
        let fit = matmul(&e, rows, k, &b, 1);
        let mut r = vec![NA; order];
        r.extend(fit.iter().copied());
        r
    } else {
        xs.to_vec()
    };
    let resid = match xtsp {
        Some(t) => super::ts::with_tsp(Value::Num(resid), t),
        None => Value::Num(resid),
    };
    let method = match (burg, var_method == 1.0) {
        (false, _) => "Yule-Walker",
        (true, true) => "Burg",
        (true, false) => "Burg2",
    };
    let mut fields = vec![
        ("order", Value::scalar(order as f64)),
        ("ar", Value::Num(ar)),
        ("var.pred", Value::scalar(var_pred)),
        ("x.mean", Value::scalar(xm)),
        ("aic", Value::Num(xaic)),
        ("n.used", Value::scalar(n_used as f64)),
        ("n.obs", Value::scalar(n)),
        ("order.max", Value::scalar(order_max as f64)),
        (
            "partialacf",
            Value::Mat(DMatrix::from_vec(order_max, 1, partialacf)),
        ),
        ("resid", resid),
        ("method", Value::string(method)),
        ("frequency", Value::scalar(xtsp.map_or(1.0, |t| t[2]))),
    ];
    if order > 0 {
        // var.pred/n.obs * solve(toeplitz(xacf[seq_len(order)])); burg's
        // acf is of its demeaned x, demeaned once more.
        let (_, xacf) = acf_values(x.clone(), Some(order as f64), false, demean || burg)?;
        let t = DMatrix::from_fn(order, order, |i, j| xacf[i.abs_diff(j)]);
        let inv = super::linalg::solve(&t, None, f64::EPSILON)?;
        let s = var_pred / n;
        fields.push(("asy.var.coef", Value::Mat(inv.map(|v| s * v))));
    }
    Ok(fields)
}

/// The fit's own copy of its series: what `predict` reads without
/// `newdata` (R evaluates the text of `series` again).
const SERIES_X: &str = "series.x";

/// burg.c's `burg(n, x, pmax, coefs, var1, var2)`: Burg's recursions for
/// every order up to `pmax`, row p of `coefs` holding the order-p
/// coefficients; `var1` the innovations variances by the recursion,
/// `var2` by the forward and backward errors (R's var.method 2).
fn burg_c(x: &[f64], pmax: usize) -> (DMatrix<f64>, Vec<f64>, Vec<f64>) {
    let n = x.len();
    let mut coefs = vec![0.0; pmax * pmax];
    let mut var1 = vec![0.0; pmax + 1];
    let mut var2 = vec![0.0; pmax + 1];
    let mut u = vec![0.0; n];
    let mut v = vec![0.0; n];
    let mut u0 = vec![0.0; n];
    let mut sum = 0.0;
    for t in 0..n {
        u[t] = x[n - 1 - t];
        v[t] = x[n - 1 - t];
        sum += x[t] * x[t];
    }
    var1[0] = sum / n as f64;
    var2[0] = var1[0];
    for p in 1..=pmax {
        sum = 0.0;
        let mut d = 0.0;
        for t in p..n {
            sum += v[t] * u[t - 1];
            d += v[t] * v[t] + u[t - 1] * u[t - 1];
        }
        let phii = 2.0 * sum / d;
        coefs[pmax * (p - 1) + (p - 1)] = phii;
        if p > 1 {
            for j in 1..p {
                coefs[p - 1 + pmax * (j - 1)] =
                    coefs[p - 2 + pmax * (j - 1)] - phii * coefs[p - 2 + pmax * (p - j - 1)];
            }
        }
        u0.copy_from_slice(&u);
        for t in p..n {
            u[t] = u0[t - 1] - phii * v[t];
            v[t] -= phii * u0[t - 1];
        }
        var1[p] = var1[p - 1] * (1.0 - phii * phii);
        d = 0.0;
        for t in p..n {
            d += v[t] * v[t] + u[t] * u[t];
        }
        var2[p] = d / (2.0 * (n - p) as f64);
    }
    (DMatrix::from_vec(pmax, pmax, coefs), var1, var2)
}

/// Whether `v` is an `ar` fit.
pub(crate) fn is_ar(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::List(l)) if l.class.as_deref() == Some("ar"))
}

/// pacf.c's `artoma(p, phi, psi, npsi)`: the MA(∞) weights of an AR(p).
fn artoma(phi: &[f64], npsi: usize) -> Vec<f64> {
    let p = phi.len();
    let mut psi = vec![0.0; npsi];
    psi[..p.min(npsi)].copy_from_slice(&phi[..p.min(npsi)]);
    for i in 0..npsi.saturating_sub(p + 1) {
        for j in 0..p {
            psi[i + j + 1] += phi[j] * psi[i];
        }
    }
    psi
}

/// R's `predict.ar(object, newdata, n.ahead = 1L, se.fit = TRUE)` for a
/// fit of one series: the recursion from the last `order` observations
/// of `newdata` (the fit's own series when missing), and the standard
/// errors from the MA(∞) weights (`ar2ma`), as series one step after it.
pub(crate) fn predict(
    object: &Value,
    newdata: Option<&Value>,
    n_ahead: Option<&Value>,
    se_fit: Option<&Value>,
) -> Result<Value, KernelError> {
    let err = KernelError::new;
    let Value::List(l) = object else {
        return Err(err("not an ar fit"));
    };
    let num = |name: &str| -> Result<Vec<f64>, KernelError> {
        l.field(name)
            .and_then(|v| super::names::bare(v).as_f64_slice().map(|s| s.to_vec()))
            .ok_or_else(|| KernelError::new(format!("an ar fit without its '{name}'")))
    };
    let n_ahead = match n_ahead.map(super::names::bare) {
        None => 1.0,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| err("flowcast takes one number as 'n.ahead'"))?,
    };
    if n_ahead.is_nan() {
        return Err(err("missing value where TRUE/FALSE needed"));
    }
    if n_ahead < 1.0 {
        return Err(err("'n.ahead' must be at least 1"));
    }
    if n_ahead > 1e7 {
        return Err(err(
            "flowcast's predict of an ar fit takes an 'n.ahead' up to 1e7",
        ));
    }
    let n_ahead = n_ahead.trunc() as usize;
    let se_fit = super::logical::if_given(se_fit, true)?;
    let newdata = match newdata {
        Some(v) => v,
        None => l
            .field(SERIES_X)
            .ok_or_else(|| err("an ar fit without its series: give 'newdata'"))?,
    };
    let data = series_matrix(Some(newdata), true)?;
    let ar = num("ar")?;
    if data.ncols() != 1 {
        return Err(err(
            "number of series in 'object' and 'newdata' do not match",
        ));
    }
    let p = num("order")?.first().copied().unwrap_or(0.0) as usize;
    if ar.len() != p {
        return Err(err("an ar fit whose 'ar' is not of its order"));
    }
    let x_mean = num("x.mean")?.first().copied().unwrap_or(NA);
    let var_pred = num("var.pred")?.first().copied().unwrap_or(NA);
    let xint = match l.field("x.intercept").map(super::names::bare) {
        None | Some(Value::Null) => 0.0,
        Some(v) => v.as_scalar().unwrap_or(NA),
    };
    let tsp = super::ts::has_tsp(newdata);
    let n = data.nrows();
    let mut x: Vec<f64> = data.iter().map(|v| v - x_mean).collect();
    x.resize(n + n_ahead, 0.0);
    let (pred, se): (Vec<f64>, Vec<f64>) = if p > 0 {
        for i in 1..=n_ahead {
            // sum(ar * x[n+i - seq_len(p)]): R's index n+i-k may reach
            // before the data (0 or negative), which R drops or reads as
            // nothing; flowcast takes a series at least p long.
            if n + i <= p {
                return Err(err("flowcast's predict of an ar fit takes 'newdata' of at least 'order' observations"));
            }
            let s: f64 = (1..=p).map(|k| ar[k - 1] * x[n + i - 1 - k]).sum();
            x[n + i - 1] = s + xint;
        }
        let pred = x[n..].to_vec();
        let se = if se_fit {
            let psi = artoma(&ar, n_ahead - 1 + p + 1);
            let mut vars = Vec::with_capacity(n_ahead);
            let mut acc = 1.0;
            vars.push(acc);
            for w in psi.iter().take(n_ahead - 1) {
                acc += w * w;
                vars.push(acc);
            }
            vars.iter().map(|v| (var_pred * v).sqrt()).collect()
        } else {
            Vec::new()
        };
        (pred, se)
    } else {
        (vec![xint; n_ahead], vec![var_pred.sqrt(); n_ahead])
    };
    let f = tsp[2];
    let start = tsp[1] + 1.0 / f;
    let out_tsp = [start, start + (n_ahead as f64 - 1.0) / f, f];
    let pred = super::ts::with_tsp(
        Value::Num(pred.iter().map(|v| v + x_mean).collect()),
        out_tsp,
    );
    if !se_fit {
        return Ok(pred);
    }
    let se = super::ts::with_tsp(Value::Num(se), out_tsp);
    Ok(Value::List(List::named(vec![("pred", pred), ("se", se)])))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    if args.get_if_formal("method").and_then(Type::const_str) == Some("ols") {
        return Ok(super::ar_ols::record());
    }
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    let v = || Type::Num {
        len: None,
        value: None,
    };
    Ok(Type::record(
        "ar",
        vec![
            ("order", Type::num(1)),
            ("ar", v()),
            ("var.pred", Type::num(1)),
            ("x.mean", Type::num(1)),
            ("aic", v()),
            ("n.used", Type::num(1)),
            ("n.obs", Type::num(1)),
            ("order.max", Type::num(1)),
            (
                "partialacf",
                Type::Mat {
                    rows: None,
                    cols: Some(1),
                },
            ),
            ("resid", v()),
            ("method", s()),
            ("series", s()),
            ("frequency", Type::num(1)),
            ("call", s()),
            // Only when the order is above 0, as in R.
            ("asy.var.coef", Type::Any),
            (SERIES_X, Type::Any),
        ],
    ))
}
