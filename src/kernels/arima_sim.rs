//! `arima.sim(model, n, rand.gen, innov, n.start, start.innov, ...)`:
//! R 4.2.2's stats/R/arima.sim.R kept in its shape. The burn-in and the
//! innovations are drawn from the workflow's stream by `rand.gen` (R's
//! `rnorm` kernel when not given) in R's order: `start.innov`'s default
//! is forced before `innov`'s, as `c(start.innov[...], innov[...])` forces
//! them. The MA part is filter.c's `cfilter` (sides = 1), the AR part its
//! `rfilter` from zeros, the differencing `diffinv` from zeros.

use super::filter::{cfilter, rfilter};
use super::fun::Fun;
use super::names::bare;
use super::polyroot::roots;
use super::ts::with_tsp;
use super::value::NA;
use super::{
    opt, registry, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS,
};
use num_complex::Complex64;

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "arima.sim",
    params: &[
        req("model"),
        req("n"),
        opt("rand.gen"),
        opt("innov"),
        opt("n.start"),
        opt("start.innov"),
        DOTS,
    ],
    random: true,
    shape,
    eval,
}];

/// More points than this (burn-in and series together) are refused
/// rather than drawn: an AR root just outside the unit circle asks R for
/// a burn-in of hundreds of millions.
const MAX_POINTS: f64 = 1e8;

/// Differences beyond this are refused: each is a pass over the series.
const MAX_DIFFERENCES: f64 = 1e4;

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// `if (cond)` on one number R compared: length and NA as R's errors.
fn condition(v: &[f64], test: impl Fn(f64) -> bool) -> Result<bool, KernelError> {
    match v {
        [] => Err(KernelError::new("argument is of length zero")),
        [x] if x.is_nan() => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        [x] => Ok(test(*x)),
        _ => Err(KernelError::new("the condition has length > 1")),
    }
}

/// A component of `model` as the numbers R's arithmetic takes (NULL:
/// none).
fn part(model: &super::value::List, name: &str) -> Result<Vec<f64>, KernelError> {
    match model.field(name).map(bare) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_))) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        Some(_) => Err(KernelError::new(format!(
            "flowcast's arima.sim takes a numeric 'model${name}'"
        ))),
    }
}

/// A number argument as R reads it: numeric or logical.
fn numbers(v: &Value, name: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        _ => Err(KernelError::new(format!(
            "flowcast's arima.sim takes a numeric '{name}'"
        ))),
    }
}

/// `rand.gen(count, ...)`: the numbers it returns.
fn generate(
    rand_gen: &Fun,
    count: &Value,
    dots: &[(Option<&str>, &Value)],
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let v = rand_gen.call_on(count, dots, ctx)?;
    match bare(&v) {
        v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        Value::Null => Ok(Vec::new()),
        _ => Err(KernelError::new(
            "flowcast's arima.sim takes numbers from 'rand.gen'",
        )),
    }
}

/// `rand.gen` as given: a `function(n, ...)` closure, or a registered
/// function named by it (a random one draws from this step's stream, as
/// arima.sim's own draws do), `rnorm` when not given.
fn rand_gen<'f>(args: &Args<&Value>, ctx: &Ctx<'f>) -> Result<Fun<'f>, KernelError> {
    if let Some(c) = ctx.closure {
        return Ok(Fun::Closure(c));
    }
    let name = match args.get("rand.gen").map(bare) {
        None => "rnorm",
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(_) => return Err(KernelError::new("could not find function \"rand.gen\"")),
    };
    registry()
        .get(name)
        .map(Fun::Kernel)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))
}

/// How many of `innov[1L:n]` R takes: `1:n` counts down to 1 from a
/// fraction below one.
fn one_to(n: f64) -> usize {
    if n >= 1.0 {
        n.floor() as usize
    } else {
        1
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let model = match args.get("model").map(bare) {
        None => return Err(missing("model")),
        Some(Value::List(l)) => l,
        Some(_) => return Err(KernelError::new("'model' must be list")),
    };
    let n_value = args.get("n").ok_or_else(|| missing("n"))?;
    let n_numbers = numbers(n_value, "n")?;
    if condition(&n_numbers, |n| n <= 0.0)? {
        return Err(KernelError::new("'n' must be strictly positive"));
    }
    let n = n_numbers[0];
    let ar = part(model, "ar")?;
    let p = ar.len();
    let mut minroots = f64::INFINITY;
    if p > 0 {
        let mut coef = vec![Complex64::new(1.0, 0.0)];
        coef.extend(ar.iter().map(|&a| Complex64::new(-a, 0.0)));
        let z = roots(&coef)?;
        if z.is_empty() {
            ctx.warn("no non-missing arguments to min; returning Inf");
        }
        minroots = z.iter().map(|c| c.norm()).fold(f64::INFINITY, f64::min);
        if minroots <= 1.0 {
            return Err(KernelError::new("'ar' part of model is not stationary"));
        }
    }
    let ma = part(model, "ma")?;
    let q = ma.len();
    let pq = (p + q) as f64;
    let given_start = match args.get("n.start") {
        None => None,
        Some(v) => {
            let v = numbers(v, "n.start")?;
            if condition(&v, f64::is_nan)? {
                None
            } else {
                Some(v[0])
            }
        }
    };
    let n_start = match given_start {
        Some(s) => s,
        None if p > 0 => pq + (6.0 / minroots.ln()).ceil(),
        None => pq,
    };
    if n_start < pq {
        return Err(KernelError::new(
            "burn-in 'n.start' must be as long as 'ar + ma'",
        ));
    }
    let mut d = 0.0;
    if let Some(ord) = model
        .field("order")
        .filter(|v| !matches!(bare(v), Value::Null))
    {
        let ord = numbers(ord, "model$order")?;
        if ord.len() != 3 {
            return Err(KernelError::new("'model$order' must be of length 3"));
        }
        if condition(&ord[..1], |o| p as f64 != o)? {
            return Err(KernelError::new("inconsistent specification of 'ar' order"));
        }
        if condition(&ord[2..], |o| q as f64 != o)? {
            return Err(KernelError::new("inconsistent specification of 'ma' order"));
        }
        d = ord[1];
        if condition(&[d], |d| d != d.round() || d < 0.0)? {
            return Err(KernelError::new(
                "number of differences must be a positive integer",
            ));
        }
        if d > MAX_DIFFERENCES {
            return Err(KernelError::new(
                "flowcast's arima.sim takes at most 10000 differences in 'model$order'",
            ));
        }
    }
    if n_start + n > MAX_POINTS || (n_start + n).is_nan() {
        return Err(KernelError::new(
            "flowcast's arima.sim refuses more than 1e8 points ('n.start' and 'n' together)",
        ));
    }
    // seq_len truncates, as R's integer coercion does.
    let burn = n_start.trunc() as usize;
    let given_start_innov = match args.get("start.innov") {
        None => None,
        Some(v) => Some(numbers(v, "start.innov")?),
    };
    if let Some(s) = &given_start_innov {
        if (s.len() as f64) < n_start {
            let points = if n_start == 1.0 { "point" } else { "points" };
            return Err(KernelError::new(format!(
                "'start.innov' is too short: need {} {points}",
                n_start as i64
            )));
        }
    }
    let gen = rand_gen(args, ctx)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let start_innov = match given_start_innov {
        Some(s) => s,
        None => generate(&gen, &Value::scalar(n_start), &dots, ctx)?,
    };
    let innov = match args.get("innov") {
        Some(v) => numbers(v, "innov")?,
        None => generate(&gen, n_value, &dots, ctx)?,
    };
    let mut x: Vec<f64> = (0..burn)
        .map(|i| start_innov.get(i).copied().unwrap_or(NA))
        .chain((0..one_to(n)).map(|i| innov.get(i).copied().unwrap_or(NA)))
        .collect();
    if q > 0 {
        let mut filter = vec![1.0];
        filter.extend_from_slice(&ma);
        x = cfilter(&x, &filter, 1, false);
        for v in x.iter_mut().take(q) {
            *v = 0.0;
        }
    }
    if p > 0 {
        let mut r = vec![0.0; p + x.len()];
        rfilter(&x, &ar, &mut r);
        x = r.split_off(p);
    }
    // Dropping the burn-in drops the series' tsp, so as.ts starts it at 1;
    // with none, the ts made at 1 - 0 goes through diffinv.ts, which keeps
    // its end.
    let dropped = burn > 0;
    if dropped {
        x.drain(..burn.min(x.len()));
    }
    let len = x.len();
    for _ in 0..d as usize {
        // diffinv.vector from xi = 0: filter.c's intgrt_vec.
        let mut y = vec![0.0; x.len() + 1];
        for i in 0..x.len() {
            y[i + 1] = x[i] + y[i];
        }
        x = y;
    }
    let end = if dropped { x.len() as f64 } else { len as f64 };
    let start = end - x.len() as f64 + 1.0;
    Ok(with_tsp(Value::Num(x), [start, end, 1.0]))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("model") {
        Some(Type::List { .. } | Type::Record { .. } | Type::Any) | None => {}
        Some(_) => return Err(args.error("model", "'model' must be list")),
    }
    Ok(Type::num_unknown())
}
