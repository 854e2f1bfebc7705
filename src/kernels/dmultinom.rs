//! `dmultinom(x, size, prob, log)`: R's multinomial probability (stats'
//! distn.R), `lgamma(size + 1) + sum(x * log(prob) - lgamma(x + 1))`
//! after R's checks, in R's order and with R's messages.

use super::args::{ArgError, Args};
use super::logical::if_condition;
use super::names::bare;
use super::nmath::gamma::lgammafn;
use super::summary::sum;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "dmultinom",
    params: &[req("x"), opt("size"), req("prob"), opt("log")],
    random: false,
    shape,
    eval,
}];

const NA_CONDITION: &str = "missing value where TRUE/FALSE needed";

fn numbers<'a>(v: &'a Value, what: &str) -> Result<std::borrow::Cow<'a, [f64]>, KernelError> {
    match bare(v) {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Null => {
            Ok(bare(v).as_f64_slice().unwrap_or_default())
        }
        _ => Err(KernelError::new(format!("non-numeric argument to {what}"))),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let prob_v = args.get("prob").ok_or_else(|| missing("prob"))?;
    let x_v = args.get("x").ok_or_else(|| missing("x"))?;
    if x_v.len() != prob_v.len() {
        return Err(KernelError::new(
            "x[] and prob[] must be equal length vectors.",
        ));
    }
    let prob = numbers(prob_v, "mathematical function")?;
    let invalid = || KernelError::new("probabilities must be finite, non-negative and not all 0");
    if prob.iter().any(|p| !p.is_finite()) || prob.iter().any(|&p| p < 0.0) {
        return Err(invalid());
    }
    let s = sum(&prob, false);
    if s == 0.0 {
        return Err(invalid());
    }
    let prob: Vec<f64> = prob.iter().map(|p| p / s).collect();
    let x = numbers(x_v, "binary operator")?;
    // `as.integer(x + 0.5)`: truncation toward zero, NA outside the
    // integer range (with R's warning).
    let mut out_of_range = false;
    let x: Vec<Option<f64>> = x
        .iter()
        .map(|&v| {
            let v = v + 0.5;
            if v.is_nan() {
                None
            } else if v >= 2_147_483_648.0 || v <= -2_147_483_649.0 {
                out_of_range = true;
                None
            } else {
                Some(v.trunc())
            }
        })
        .collect();
    if out_of_range {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    // `any(x < 0)`: TRUE wins over NA.
    if x.iter().any(|v| v.is_some_and(|v| v < 0.0)) {
        return Err(KernelError::new("'x' must be non-negative"));
    }
    let Some(x) = x.into_iter().collect::<Option<Vec<f64>>>() else {
        return Err(KernelError::new(NA_CONDITION));
    };
    let n: f64 = x.iter().sum();
    // An integer sum past R's integers is NA (with R's warning).
    let n = if n > 2_147_483_647.0 {
        ctx.warn("integer overflow - use sum(as.numeric(.))");
        f64::NAN
    } else {
        n
    };
    let size = match args.get("size").map(bare) {
        None | Some(Value::Null) => n,
        Some(v) => {
            let s = v
                .as_scalar()
                .ok_or_else(|| KernelError::new("argument is not interpretable as logical"))?;
            if s.is_nan() || n.is_nan() {
                return Err(KernelError::new(NA_CONDITION));
            }
            if s != n {
                return Err(KernelError::new("size != sum(x), i.e. one is wrong"));
            }
            s
        }
    };
    if n.is_nan() {
        return Err(KernelError::new(NA_CONDITION));
    }
    let log = match args.get("log") {
        Some(l) => if_condition(l)?,
        None => false,
    };
    let (mut x, mut prob) = (x, prob);
    if prob.contains(&0.0) {
        if x.iter().zip(&prob).any(|(&x, &p)| p == 0.0 && x != 0.0) {
            return Ok(Value::scalar(if log { f64::NEG_INFINITY } else { 0.0 }));
        }
        if prob.iter().all(|&p| p == 0.0) {
            return Ok(Value::scalar(if log { 0.0 } else { 1.0 }));
        }
        let keep: Vec<bool> = prob.iter().map(|&p| p != 0.0).collect();
        x = x
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&v, _)| v)
            .collect();
        prob.retain(|&p| p != 0.0);
    }
    let terms: Vec<f64> = x
        .iter()
        .zip(&prob)
        .map(|(&x, &p)| x * p.ln() - lgammafn(x + 1.0))
        .collect();
    let r = lgammafn(size + 1.0) + sum(&terms, false);
    Ok(Value::scalar(if log { r } else { r.exp() }))
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num(1))
}
