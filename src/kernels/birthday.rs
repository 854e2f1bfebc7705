//! `pbirthday(n, classes, coincident)` and `qbirthday(prob, classes,
//! coincident)` (stats/R/birthday.R): the probability of a coincidence
//! among n draws from `classes` equally likely classes, exact for pairs
//! and by Diaconis & Mosteller's approximation (7.5) for more, and the
//! smallest n that reaches a probability.

use super::alloc::ensure_room;
use super::args::ArgError;
use super::nmath::lgammafn;
use super::summary::ldouble::LongDouble;
use super::{opt, req, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "pbirthday",
        params: &[req("n"), opt("classes"), opt("coincident")],
        random: false,
        shape,
        eval: p_eval,
    },
    Kernel {
        name: "qbirthday",
        params: &[opt("prob"), opt("classes"), opt("coincident")],
        random: false,
        shape,
        eval: q_eval,
    },
];

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let first = if args.func == "pbirthday" {
        "n"
    } else {
        "prob"
    };
    for name in [first, "classes", "coincident"] {
        match args.ty(name) {
            None | Some(Type::Any) => {}
            Some(t) if t.is_numeric() => {}
            Some(t) => {
                return Err(args.error(
                    name,
                    format!("`{name}` must be a single number, not {}", t.describe()),
                ))
            }
        }
    }
    Ok(Type::num(1))
}

/// One number: R's `if (k < 2)` and friends need exactly one.
fn number(args: &Args<&Value>, name: &str, default: f64) -> Result<f64, KernelError> {
    let v = match args.get(name) {
        None => return Ok(default),
        Some(v) => v,
    };
    let s = match v {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) => v.as_f64_slice().unwrap_or_default(),
        _ => {
            return Err(KernelError::new(format!(
                "flowcast's {}() takes a single number as '{name}', not {}",
                args.func,
                v.type_name()
            )))
        }
    };
    match s.as_ref() {
        [x] => Ok(*x),
        [] => Err(KernelError::new("argument is of length zero")),
        _ => Err(KernelError::new(format!(
            "flowcast's {}() takes a single number as '{name}'",
            args.func
        ))),
    }
}

fn na_condition() -> KernelError {
    KernelError::new("missing value where TRUE/FALSE needed")
}

/// R's `if (a < b)`, an error on NA.
fn lt(a: f64, b: f64) -> Result<bool, KernelError> {
    if a.is_nan() || b.is_nan() {
        return Err(na_condition());
    }
    Ok(a < b)
}

/// `1 - prod((c:(c-n+1)) / rep(c, n))`, the pairs' exact probability:
/// R's `:`, `rep` and recycling division, the product in long double as
/// R's `prod`. Streamed rather than built, R's vectors checked for room.
fn pairs(n: f64, c: f64, warn: &mut Vec<String>) -> Result<f64, KernelError> {
    let (from, to) = (c, c - n + 1.0);
    if from.is_nan() || to.is_nan() {
        return Err(KernelError::new("NA/NaN argument"));
    }
    let span = (to - from).abs();
    if span >= 4_503_599_627_370_496.0 {
        return Err(KernelError::new("result would be too long a vector"));
    }
    let len_seq = (span + 1e-10).floor() + 1.0;
    let step = if from <= to { 1.0 } else { -1.0 };
    let times = n.trunc();
    if n.is_nan() || times < 0.0 {
        return Err(KernelError::new("invalid 'times' argument"));
    }
    let len = if times == 0.0 {
        0.0
    } else {
        len_seq.max(times)
    };
    ensure_room(8.0 * (times + len))?;
    if len > 0.0 && len % len_seq.min(times) != 0.0 {
        warn.push("longer object length is not a multiple of shorter object length".into());
    }
    let mut prod = LongDouble::from_f64(1.0);
    let mut i = 0.0;
    while i < len {
        let term = (from + step * (i % len_seq)) / c;
        prod = prod.mul(LongDouble::from_f64(term));
        let p = prod.to_f64();
        // Zero stays zero, and NaN NaN, over finite terms.
        if p.is_nan() || (p == 0.0 && c.is_finite() && c != 0.0) {
            break;
        }
        i += 1.0;
    }
    Ok(1.0 - prod.to_f64())
}

fn pbirthday(n: f64, c: f64, k: f64, warn: &mut Vec<String>) -> Result<f64, KernelError> {
    if lt(k, 2.0)? {
        return Ok(1.0);
    }
    if k == 2.0 {
        return pairs(n, c, warn);
    }
    if lt(n, k)? {
        return Ok(0.0);
    }
    if lt(c * (k - 1.0), n)? {
        return Ok(1.0);
    }
    let lhs = n * (-n / (c * k)).exp() / (1.0 - n / (c * (k + 1.0))).powf(1.0 / k);
    let lxx = k * lhs.ln() - (k - 1.0) * c.ln() - lgammafn(k + 1.0);
    Ok(-(-lxx.exp()).exp_m1())
}

fn p_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = number(args, "n", 0.0)?;
    let c = number(args, "classes", 365.0)?;
    let k = number(args, "coincident", 2.0)?;
    let mut warn = Vec::new();
    let p = pbirthday(n, c, k, &mut warn)?;
    for w in warn {
        ctx.warn(w);
    }
    Ok(Value::scalar(p))
}

/// qbirthday's steps from its first guess, at most: R would step on for
/// as long as it takes (one pbirthday of n terms each).
const MAX_STEPS: u32 = 1_000_000;

fn q_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let p = number(args, "prob", 0.5)?;
    let c = number(args, "classes", 365.0)?;
    let k = number(args, "coincident", 2.0)?;
    if !lt(0.0, p)? {
        return Ok(Value::scalar(1.0));
    }
    if !lt(p, 1.0)? {
        return Ok(Value::scalar(c * (k - 1.0) + 1.0));
    }
    // Diaconis & Mosteller's (7.5) inverted: usually an underestimate.
    let guess = (((k - 1.0) * c.ln() + lgammafn(k + 1.0) + (-(-p).ln_1p()).ln()) / k).exp();
    let mut n = guess.ceil();
    let mut warn = Vec::new();
    let mut steps = 0;
    let mut step = |warn: &mut Vec<String>| -> Result<(), KernelError> {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(KernelError::new(format!(
                "flowcast's qbirthday() stops after {MAX_STEPS} steps from its first guess"
            )));
        }
        let _ = warn;
        Ok(())
    };
    if lt(pbirthday(n, c, k, &mut warn)?, p)? {
        n += 1.0;
        while lt(pbirthday(n, c, k, &mut warn)?, p)? {
            step(&mut warn)?;
            n += 1.0;
        }
    } else if !lt(pbirthday(n - 1.0, c, k, &mut warn)?, p)? {
        n -= 1.0;
        while !lt(pbirthday(n - 1.0, c, k, &mut warn)?, p)? {
            step(&mut warn)?;
            n -= 1.0;
        }
    }
    for w in warn {
        ctx.warn(w);
    }
    Ok(Value::scalar(n))
}
