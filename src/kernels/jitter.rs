//! `jitter(x, factor, amount)`: R's stats::jitter, `x` plus uniform
//! noise drawn from the workflow's random stream as R's
//! `runif(length(x), -amount, amount)` draws it.

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "jitter",
    params: &[req("x"), opt("factor"), opt("amount")],
    random: true,
    shape,
    eval,
}];

fn number(v: Option<&Value>, default: f64) -> Result<f64, KernelError> {
    match v.map(bare) {
        None => Ok(default),
        Some(v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_))) if !v.is_empty() => {
            Ok(v.as_f64_slice().map_or(f64::NAN, |x| x[0]))
        }
        Some(_) => Err(KernelError::new("non-numeric argument to binary operator")),
    }
}

/// R's jitter: the spread `z` of the finite values, the default amount a
/// fifth of the smallest gap between the values rounded to about three
/// significant digits of `z`.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if xv.is_empty() {
        return Ok(xv.clone());
    }
    let shape = xv.dims();
    let x: Vec<f64> = match bare(xv) {
        v @ (Value::Num(_) | Value::Mat(_)) => v.as_f64_slice().unwrap_or_default().into_owned(),
        _ => return Err(KernelError::new("'x' must be numeric")),
    };
    let finite: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let (lo, hi) = if finite.is_empty() {
        ctx.warn("no non-missing arguments to min; returning Inf");
        ctx.warn("no non-missing arguments to max; returning -Inf");
        (f64::INFINITY, f64::NEG_INFINITY)
    } else {
        (
            finite.iter().copied().fold(f64::INFINITY, f64::min),
            finite.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let mut z = hi - lo;
    if z == 0.0 {
        z = lo.abs();
    }
    if z == 0.0 {
        z = 1.0;
    }
    let factor = number(args.get("factor"), 1.0)?;
    let amount = match args.get("amount").map(bare) {
        None | Some(Value::Null) => {
            let digits = 3.0 - z.log10().floor();
            let mut xx: Vec<f64> = x
                .iter()
                .map(|&v| super::arith::fround(v, digits))
                .filter(|v| !v.is_nan())
                .collect();
            xx.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            xx.dedup_by(|a, b| a == b);
            let d = if xx.len() > 1 {
                xx.windows(2)
                    .map(|w| w[1] - w[0])
                    .fold(f64::INFINITY, f64::min)
            } else if xx.len() == 1 {
                if xx[0] != 0.0 {
                    xx[0] / 10.0
                } else {
                    z / 10.0
                }
            } else {
                return Err(KernelError::new("argument is of length zero"));
            };
            factor / 5.0 * d.abs()
        }
        Some(v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_))) => {
            let a = v
                .as_f64_slice()
                .map_or(f64::NAN, |x| x.first().copied().unwrap_or(f64::NAN));
            if v.is_empty() {
                return Err(KernelError::new("argument is of length zero"));
            }
            if a.is_nan() {
                return Err(KernelError::new("missing value where TRUE/FALSE needed"));
            }
            if a == 0.0 {
                factor * (z / 50.0)
            } else {
                a
            }
        }
        Some(_) => return Err(KernelError::new("invalid argument to unary operator")),
    };
    let mut nan = false;
    let out: Vec<f64> = x
        .iter()
        .map(|&v| {
            let u = super::data::runif1(-amount, amount, ctx.rng);
            nan |= u.is_nan();
            v + u
        })
        .collect();
    if nan {
        ctx.warn("NAs produced");
    }
    Ok(Value::nums_shaped(out, shape))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Mat { rows, cols }) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        Some(t) => Type::Num {
            len: t.len(),
            value: None,
        },
        None => Type::num_unknown(),
    })
}
