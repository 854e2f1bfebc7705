//! Kernel density bandwidths: `bw.nrd0(x)` (Silverman's rule of thumb,
//! density's default) and `bw.nrd(x)` (Scott's variation), as
//! stats/R/bandwidths.R computes them from `sd`, `var` and `quantile`. The
//! cross-validated and plug-in rules (`bw.ucv`, `bw.bcv`, `bw.SJ`) are not
//! here.

use super::args::{ArgError, Args};
use super::summary::{quantile, var};
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "bw.nrd0",
        params: &[req("x")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "bw.nrd",
        params: &[req("x")],
        random: false,
        shape,
        eval,
    },
];

/// R's `min(a, b)` of two numbers: NA or NaN wins.
fn r_min(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else {
        a.min(b)
    }
}

/// `quantile(x, c(0.25, 0.75))`, refusing NA as R does.
fn quartiles(x: &[f64]) -> Result<(f64, f64), KernelError> {
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new(
            "missing values and NaN's not allowed if 'na.rm' is FALSE",
        ));
    }
    let q = quantile(x, &[0.25, 0.75], 7).unwrap_or_default();
    Ok((q[0], q[1]))
}

/// R's `bw.nrd0`: `0.9 * min(sd, IQR / 1.34) * n^-0.2`, falling back to
/// the sd, then `|x[1]|`, then 1 when the spread is zero.
pub(crate) fn bw_nrd0(x: &[f64]) -> Result<f64, KernelError> {
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let hi = var(x).sqrt();
    let (q1, q3) = quartiles(x)?;
    let mut lo = r_min(hi, (q3 - q1) / 1.34);
    if lo.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if lo == 0.0 {
        lo = hi;
        if lo == 0.0 {
            lo = x[0].abs();
            if lo == 0.0 {
                lo = 1.0;
            }
        }
    }
    Ok(0.9 * lo * (x.len() as f64).powf(-0.2))
}

/// R's `bw.nrd`: `1.06 * min(sqrt(var(x)), IQR / 1.34) * n^-0.2`.
pub(crate) fn bw_nrd(x: &[f64]) -> Result<f64, KernelError> {
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let (q1, q3) = quartiles(x)?;
    let h = (q3 - q1) / 1.34;
    Ok(1.06 * r_min(var(x).sqrt(), h) * (x.len() as f64).powf(-1.0 / 5.0))
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .and_then(Value::as_f64_slice)
        .ok_or_else(|| KernelError::new("need at least 2 data points"))?;
    let bw = if args.func == "bw.nrd" {
        bw_nrd(&x)?
    } else {
        bw_nrd0(&x)?
    };
    Ok(Value::scalar(bw))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t) if t.len().is_some_and(|n| n < 2) => {
            Err(args.error("x", "need at least 2 data points"))
        }
        Some(t) if !t.is_numeric() => Err(args.error(
            "x",
            format!("{}() needs numbers, not {}", args.func, t.describe()),
        )),
        _ => Ok(Type::num(1)),
    }
}
