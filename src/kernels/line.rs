//! R's `line(x, y, iter)`: Tukey's resistant line, a port of
//! stats/src/line.c's `line` (R >= 3.5.0, with `iter` polishing steps)
//! after `xy.coords` and `complete.cases` as stats::line does them. The
//! value is R's "tukeyline" list; its `call` (R's `sys.call()`) is added
//! by the evaluator, which has the call's text.

use super::args::{ArgError, Args};
use super::value::{List, Value};
use super::width::sort_by;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "line",
    params: &[req("x"), opt("y"), opt("iter")],
    random: false,
    shape,
    eval,
}];

/// line.c's `il(n, x)`.
fn il(n: usize, x: f64) -> usize {
    ((n as f64 - 1.0) * x).floor() as usize
}

/// line.c's `iu(n, x)`.
fn iu(n: usize, x: f64) -> usize {
    ((n as f64 - 1.0) * x).ceil() as usize
}

/// R_rsort on the values at hand (no NA reaches here).
fn rsort(z: &mut [f64]) {
    sort_by(z, |a, b| a.total_cmp(b));
}

/// The median of the first `k` of `z` once sorted, as line.c takes it.
fn half(z: &mut [f64], k: usize) -> f64 {
    rsort(&mut z[..k]);
    0.5 * (z[il(k, 0.5)] + z[iu(k, 0.5)])
}

/// line.c's `line(x, y, z, w, n, iter, coef)`: the coefficients, the
/// residuals (`z`) and the fitted values (`w`).
fn line(x: &[f64], y: &[f64], iter: i64) -> ([f64; 2], Vec<f64>, Vec<f64>) {
    let n = x.len();
    let mut z = x.to_vec();
    let mut w = y.to_vec();
    rsort(&mut z);
    // The x-space thirds and their medians do not change between
    // iterations, so they are found once.
    let x1 = 0.5 * (z[il(n, 1. / 3.)] + z[iu(n, 1. / 3.)]);
    let x2 = 0.5 * (z[il(n, 2. / 3.)] + z[iu(n, 2. / 3.)]);
    let mut k = 0;
    for &xi in x {
        if xi <= x1 {
            z[k] = xi;
            k += 1;
        }
    }
    let xb = half(&mut z, k);
    k = 0;
    for &xi in x {
        if xi >= x2 {
            z[k] = xi;
            k += 1;
        }
    }
    let xt = half(&mut z, k);
    let mut slope = 0.0;
    for _ in 1..=iter {
        k = 0;
        for i in 0..n {
            if x[i] <= x1 {
                z[k] = w[i];
                k += 1;
            }
        }
        let yb = half(&mut z, k);
        k = 0;
        for i in 0..n {
            if x[i] >= x2 {
                z[k] = w[i];
                k += 1;
            }
        }
        let yt = half(&mut z, k);
        slope += (yt - yb) / (xt - xb);
        for i in 0..n {
            w[i] = y[i] - slope * x[i];
        }
    }
    rsort(&mut w);
    let yint = 0.5 * (w[il(n, 0.5)] + w[iu(n, 0.5)]);
    for i in 0..n {
        w[i] = yint + slope * x[i];
        z[i] = y[i] - w[i];
    }
    ([yint, slope], z, w)
}

fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::Named(_) => v
            .as_f64_slice()
            .map(|s| s.into_owned())
            .ok_or_else(|| KernelError::new(format!("'{what}' is not numeric"))),
        _ => Err(KernelError::new(format!(
            "flowcast's line takes numeric '{what}', not {}",
            v.type_name()
        ))),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").unwrap_or(&Value::Null);
    let (x, y) = match args.get("y") {
        None | Some(Value::Null) => {
            if xv.dims().is_some_and(|(_, c)| c != 1) {
                return Err(KernelError::new(
                    "flowcast's line takes 'x' and 'y' as vectors",
                ));
            }
            let y = numbers(xv, "x")?;
            ((1..=y.len()).map(|i| i as f64).collect(), y)
        }
        Some(yv) => {
            let (x, y) = (numbers(xv, "x")?, numbers(yv, "y")?);
            if x.len() != y.len() {
                return Err(KernelError::new("'x' and 'y' lengths differ"));
            }
            (x, y)
        }
    };
    let iter = match args.get("iter") {
        None => 1,
        Some(v) => match v.as_scalar() {
            Some(i) if i.is_finite() && i.abs() < 2147483648.0 => i.trunc() as i64,
            // asInteger(NA) is INT_MIN: no iteration, slope 0.
            Some(i) if i.is_nan() => i64::from(i32::MIN),
            _ => {
                return Err(KernelError::new(
                    "flowcast's line takes one finite number as 'iter'",
                ))
            }
        },
    };
    let ok: Vec<usize> = (0..x.len())
        .filter(|&i| !x[i].is_nan() && !y[i].is_nan())
        .collect();
    let x: Vec<f64> = ok.iter().map(|&i| x[i]).collect();
    let y: Vec<f64> = ok.iter().map(|&i| y[i]).collect();
    if x.len() < 2 {
        return Err(KernelError::new("insufficient observations"));
    }
    let (coef, res, fit) = line(&x, &y, iter);
    Ok(Value::List(List::record(
        "tukeyline",
        vec![
            ("coefficients", Value::Num(coef.to_vec())),
            ("residuals", Value::Num(res)),
            ("fitted.values", Value::Num(fit)),
        ],
    )))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y"] {
        if let Some(t @ (Type::Str { .. } | Type::List { .. })) = args.ty(name) {
            return Err(args.error(
                name,
                format!(
                    "flowcast's line takes numeric '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let v = || Type::Num {
        len: None,
        value: None,
    };
    Ok(Type::record(
        "tukeyline",
        vec![
            (
                "call",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("coefficients", Type::num(2)),
            ("residuals", v()),
            ("fitted.values", v()),
        ],
    ))
}
