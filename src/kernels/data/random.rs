//! `rnorm` and `runif`: R's `random2` wrapper around `rnorm`/`runif` in
//! nmath, drawing in R's order so `set.seed(s)` gives R's numbers.

use super::{alloc_num, num_of_len, num_param};
use crate::kernels::recycle::Recycled;
use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, Rng, ShapeCtx, Type, Value};

/// R's rule for `n`: a single number is a count (truncated), a longer
/// vector stands for its length.
pub(crate) fn count_type(a: &Args<Type>, name: &str) -> Result<Option<usize>, ArgError> {
    let Some(t) = a.get(name) else {
        return Ok(None);
    };
    if matches!(
        t,
        Type::Str { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(a.error(name, "invalid arguments"));
    }
    match t.len() {
        Some(1) => match t.const_scalar() {
            Some(x) if !(0.0..=4.5e15).contains(&x) => Err(a.error(name, "invalid arguments")),
            Some(x) => Ok(Some(x as usize)),
            None => Ok(None),
        },
        other => Ok(other),
    }
}

pub(super) fn count_value(a: &Args<&Value>, name: &str) -> Result<usize, KernelError> {
    let invalid = || KernelError::new("invalid arguments");
    let v = a.get(name).ok_or_else(invalid)?;
    if matches!(
        v,
        Value::Null | Value::Str(_) | Value::Formula(_) | Value::List(_)
    ) {
        return Err(invalid());
    }
    if v.len() != 1 {
        return Ok(v.len());
    }
    match v.as_scalar() {
        Some(x) if (0.0..=4.5e15).contains(&x) => Ok(x as usize),
        _ => Err(invalid()),
    }
}

/// The uniforms a call of `rnorm` or `runif` takes from the stream, when
/// its arguments settle that before the run: a constant count, and
/// constant parameters under which every number is drawn (nmath draws
/// nothing for `sd = 0`, a non-finite mean or `min == max`). `None` for
/// every other call of a random function.
pub fn draws(function: &str, a: &Args<Type>) -> Option<u64> {
    let constant = |name: &str, default: f64| match a.get(name) {
        None => Some(default),
        Some(t) => t.const_scalar().filter(|x| x.is_finite()),
    };
    let per_number =
        match function {
            "rnorm" => {
                (constant("sd", 1.0)? > 0.0 && constant("mean", 0.0).is_some()).then_some(2)?
            }
            "runif" => (constant("min", 0.0)? < constant("max", 1.0)?).then_some(1)?,
            // exp(rnorm(meanlog, sdlog)): drawn unless sdlog = 0.
            "rlnorm" => (constant("sdlog", 1.0)? > 0.0 && constant("meanlog", 0.0).is_some())
                .then_some(2)?,
            // One uniform each, by inversion, under valid finite parameters.
            "rweibull" => (constant("shape", f64::NAN)? > 0.0 && constant("scale", 1.0)? > 0.0)
                .then_some(1)?,
            "rcauchy" => (constant("scale", 1.0)? > 0.0 && constant("location", 0.0).is_some())
                .then_some(1)?,
            "rlogis" => (constant("scale", 1.0)? != 0.0 && constant("location", 0.0).is_some())
                .then_some(1)?,
            _ => return None,
        };
    let n = count_type(a, "n").ok()??;
    (n as u64).checked_mul(per_number)
}

pub(super) fn shape_draws(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = count_type(a, "n")?;
    let params = if a.func == "runif" {
        ["min", "max"]
    } else {
        ["mean", "sd"]
    };
    for p in params {
        if a.get(p).is_some_and(|t| !t.is_numeric()) {
            return Err(a.error(p, "invalid arguments"));
        }
    }
    Ok(num_of_len(n))
}

/// A recycled distribution parameter, R's default when absent.
fn param(a: &Args<&Value>, name: &str, default: f64) -> Result<Vec<f64>, KernelError> {
    match a.get(name) {
        None => Ok(vec![default]),
        Some(v) => num_param(v).ok_or_else(|| KernelError::new("invalid arguments")),
    }
}

/// R's `random2`: `n` draws of `draw(a[i %% na], b[i %% nb])`; an empty
/// parameter gives all NA (R warns "NAs produced").
fn random2(
    n: usize,
    pa: &[f64],
    pb: &[f64],
    rng: &mut Rng,
    draw: impl Fn(f64, f64, &mut Rng) -> f64,
) -> Result<Value, KernelError> {
    let mut out = alloc_num(n)?;
    if pa.is_empty() || pb.is_empty() {
        out.resize(n, NA);
        return Ok(Value::Num(out));
    }
    if let (&[a], &[b]) = (pa, pb) {
        // One pair of parameters, the usual call: a loop of known length
        // with the draw inlined into it.
        out.extend((0..n).map(|_| draw(a, b, rng)));
        return Ok(Value::Num(out));
    }
    let mut rows = Recycled::new(vec![pa, pb]);
    for _ in 0..n {
        if let &[a, b] = rows.next_row() {
            out.push(draw(a, b, rng));
        }
    }
    Ok(Value::Num(out))
}

/// nmath's `rnorm(mu, sigma)`: invalid parameters give NaN without drawing.
pub fn rnorm1(mu: f64, sigma: f64, rng: &mut Rng) -> f64 {
    if mu.is_nan() || !sigma.is_finite() || sigma < 0.0 {
        return f64::NAN;
    }
    if sigma == 0.0 || !mu.is_finite() {
        return mu;
    }
    mu + sigma * rng.norm_rand()
}

/// nmath's `runif(a, b)`: `a + (b - a) * unif_rand()`.
pub fn runif1(a: f64, b: f64, rng: &mut Rng) -> f64 {
    if !a.is_finite() || !b.is_finite() || b < a {
        return f64::NAN;
    }
    if a == b {
        return a;
    }
    a + (b - a) * rng.unif_rand()
}

pub(super) fn eval_rnorm(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = count_value(a, "n")?;
    let mean = param(a, "mean", 0.0)?;
    let sd = param(a, "sd", 1.0)?;
    random2(n, &mean, &sd, ctx.rng, rnorm1)
}

pub(super) fn eval_runif(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = count_value(a, "n")?;
    let min = param(a, "min", 0.0)?;
    let max = param(a, "max", 1.0)?;
    random2(n, &min, &max, ctx.rng, runif1)
}
