//! `ppoints(n, a)`: R's probability points `(1:n - a) / (n + 1 - 2a)`,
//! for `n` a count or a vector whose length is the count (stats'
//! ppoints).

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "ppoints",
    params: &[req("n"), opt("a")],
    random: false,
    shape,
    eval,
}];

/// R's ppoints: `a` defaults to 3/8 for ten points or fewer, else 1/2.
pub(crate) fn ppoints(n: f64, a: Option<f64>) -> Result<Vec<f64>, KernelError> {
    if n.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let a = a.unwrap_or(if n <= 10.0 { 3.0 / 8.0 } else { 0.5 });
    if n <= 0.0 {
        return Ok(Vec::new());
    }
    // `1L:n` stops at the last whole number not above n.
    let m = n.floor();
    super::alloc::ensure_room(m * 8.0)?;
    let denom = n + 1.0 - 2.0 * a;
    Ok((1..=m as usize).map(|i| (i as f64 - a) / denom).collect())
}

/// `n` as R's ppoints reads it: a length-one number is the count, a
/// longer vector gives its length.
fn count(v: &Value) -> Result<f64, KernelError> {
    let v = bare(v);
    if v.is_empty() {
        return Err(KernelError::new("argument is of length zero"));
    }
    if v.len() > 1 {
        return Ok(v.len() as f64);
    }
    match v {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => Ok(v
            .as_f64_slice()
            .and_then(|x| x.first().copied())
            .unwrap_or(f64::NAN)),
        Value::Factor(_) => Ok(1.0),
        Value::Null => Err(KernelError::new("argument is of length zero")),
        _ if v.is_empty() => Err(KernelError::new("argument is of length zero")),
        _ => Err(KernelError::new("NA/NaN argument")),
    }
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let n = args
        .get("n")
        .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?;
    let n = count(n)?;
    let a = match args.get("a").map(bare) {
        None => None,
        Some(v @ (Value::Num(_) | Value::Bool(_))) if v.len() == 1 => v.as_scalar(),
        Some(_) => return Err(KernelError::new("ppoints(): a must be a single number")),
    };
    Ok(Value::Num(ppoints(n, a)?))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = match args.ty("n") {
        Some(Type::Num { value: Some(v), .. }) if v.len() == 1 && v[0].is_finite() => {
            Some(v[0].max(0.0).floor() as usize)
        }
        Some(t) => t.len().filter(|&l| l > 1),
        None => None,
    };
    Ok(Type::Num { len, value: None })
}
