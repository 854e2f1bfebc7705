//! R's `ar(x, aic, order.max, method)` for the Yule-Walker method on one
//! series (`ar.yw.default`): the autocovariances (acf), Levinson-Durbin
//! through stats/src/eureka.f for every order up to `order.max`, the
//! order AIC picks, its coefficients, residuals and their asymptotic
//! covariance. The result is R's `ar` object; `partialacf`, an array of
//! lag × 1 × 1 in R, is a one-column matrix here. `series` and `call`,
//! which R takes from the call, are added by the evaluator. R's other
//! methods (burg, ols, mle) and multivariate series are refused.

use nalgebra::DMatrix;

use super::acf::{acf_values, col_means, match_arg, series_matrix, sweep};
use super::args::{ArgError, Args};
use super::arith::matmul;
use super::value::{List, Value, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
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
}];

const METHODS: &[&str] = &["yule-walker", "burg", "ols", "mle", "yw"];

/// eureka.f's `eureka(lr, r, g, f, var, a)`: Levinson-Durbin for the
/// Toeplitz system of autocovariances `r` with right-hand side `g`; row l
/// of `f` holds the order-l coefficients and `var` each order's
/// innovations variance. 1-based, as the Fortran.
fn eureka(lr: usize, r: &[f64], g: &[f64]) -> (DMatrix<f64>, Vec<f64>) {
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
fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => match v.as_flag() {
            Some(b) => Ok(b),
            None if v.is_empty() => Err(KernelError::new("argument is of length zero")),
            None => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let method = match_arg(args.get("method"), METHODS)?;
    if !matches!(method, "yule-walker" | "yw") {
        return Err(KernelError::new(format!(
            "flowcast's ar has only method = \"yule-walker\" (R's \"{method}\" is not ported)"
        )));
    }
    if args.has("na.action") {
        return Err(KernelError::new(
            "flowcast's ar takes only R's default na.action (na.fail)",
        ));
    }
    let mut demean = true;
    for (name, v) in args.dots() {
        if name == Some("demean") {
            demean = match v.as_flag() {
                Some(b) => b,
                None => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
            };
        }
    }
    let mut x = series_matrix(args.get("x"), false)?;
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
    let order_max = match args.get("order.max") {
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
        return Err(KernelError::new("'order.max' must be < 'n.obs'"));
    }
    let order_max = order_max as usize;
    let aic = flag(args, "aic", true)?;
    let (_, xacf) = acf_values(x.clone(), Some(order_max as f64), false, demean)?;
    if xacf[0] == 0.0 {
        return Err(KernelError::new("zero-variance series"));
    }
    let (coefs, vars) = eureka(order_max, &xacf, &xacf);
    let partialacf: Vec<f64> = (0..order_max).map(|i| coefs[(i, i)]).collect();
    let mut var_pred = vec![xacf[0]];
    var_pred.extend(vars);
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
    // Splus compatibility fix
    let var_pred = var_pred[order] * n / (n - (order as f64 + 1.0));
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
        ("resid", Value::Num(resid)),
        ("method", Value::string("Yule-Walker")),
        ("frequency", Value::scalar(1.0)),
    ];
    if order > 0 {
        // var.pred/n.obs * solve(toeplitz(xacf[seq_len(order)]))
        let t = DMatrix::from_fn(order, order, |i, j| xacf[i.abs_diff(j)]);
        let inv = super::linalg::solve(&t, None, f64::EPSILON)?;
        let s = var_pred / n;
        fields.push(("asy.var.coef", Value::Mat(inv.map(|v| s * v))));
    }
    Ok(Value::List(List::record("ar", fields)))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
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
        ],
    ))
}
