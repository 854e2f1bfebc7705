//! `gl(n, k, length, labels, ordered)`: a factor of n levels, each
//! repeated k times, cut or recycled to `length`, as gl.R of R 4.2.2:
//! `rep_len(rep.int(seq_len(n), rep.int(k, n)), length)` with the labels
//! as levels.

use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::Factor;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn gl_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = args.ty("n").and_then(Type::const_scalar);
    let k = args.ty("k").and_then(Type::const_scalar);
    let len = match args.ty("length") {
        Some(t) => t.const_scalar().filter(|x| *x >= 0.0).map(|x| x as usize),
        None => match (n, k) {
            (Some(n), Some(k)) if n >= 0.0 && k >= 0.0 => Some((n.trunc() * k.trunc()) as usize),
            _ => None,
        },
    };
    let levels = match args.ty("labels") {
        None => n
            .filter(|&n| (0.0..=1e4).contains(&n))
            .map(|n| (1..=n.trunc() as usize).map(|i| i.to_string()).collect()),
        Some(t) => t
            .const_str()
            .map(|s| vec![s.to_string()])
            .or_else(|| match t {
                Type::Str { value, .. } => value.clone(),
                _ => None,
            }),
    };
    let ordered = args.ty("ordered").and_then(Type::const_scalar) == Some(1.0);
    Ok(Type::Factor {
        len,
        levels,
        ordered,
    })
}

/// One whole number as R's `asVecSize` reads `seq_len`'s and `rep_len`'s.
fn count(v: Option<&Value>, what: &str) -> Result<Option<usize>, KernelError> {
    let Some(v) = v else {
        return Ok(None);
    };
    let x = v.as_f64_slice().and_then(|s| (s.len() == 1).then(|| s[0]));
    match x {
        Some(x) if x >= 0.0 && x.is_finite() && x < 4.5e15 => Ok(Some(x.trunc() as usize)),
        _ => Err(KernelError::new(what.to_string())),
    }
}

pub(super) fn gl_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let n = count(
        args.get("n"),
        "argument must be coercible to non-negative integer",
    )?
    .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?;
    let k_value = args
        .get("k")
        .ok_or_else(|| KernelError::new("argument \"k\" is missing, with no default"))?;
    let invalid_times = || KernelError::new("invalid 'times' value");
    let ks = k_value.as_f64_slice().ok_or_else(invalid_times)?;
    // rep.int(k, n) must give one count per level: one k, or no level.
    let k = match (ks.len(), n) {
        (_, 0) => 0,
        (1, _) if ks[0] >= 0.0 && ks[0].is_finite() => ks[0].trunc() as usize,
        _ => return Err(invalid_times()),
    };
    // rep.int(seq_len(n), rep.int(k, n)): level c at positions c*k..(c+1)*k.
    let period = n
        .checked_mul(k)
        .ok_or_else(|| KernelError::new("invalid 'times' value"))?;
    let length = count(args.get("length"), "invalid 'length.out' value")?.unwrap_or(period);
    let mut codes = crate::kernels::alloc::vec_with_capacity(length)?;
    codes.extend((0..length).map(|i| (period > 0).then(|| ((i % period) / k) as u32)));
    let levels: Vec<String> = match args.get("labels") {
        None => (1..=n).map(|i| i.to_string()).collect(),
        Some(l) => as_character(l)
            .ok_or_else(|| KernelError::new("'labels' must be a vector"))?
            .into_iter()
            .map(|s| s.unwrap_or_else(|| "NA".into()))
            .collect(),
    };
    for (i, l) in levels.iter().enumerate() {
        if levels[..i].contains(l) {
            return Err(KernelError::new(format!(
                "factor level [{}] is duplicated",
                i + 1
            )));
        }
    }
    if levels.len() < n && length > 0 && k > 0 {
        return Err(KernelError::new(format!(
            "gl() with {} labels for {n} levels: R makes an invalid factor (codes without a level), which flowcast cannot hold",
            levels.len()
        )));
    }
    let ordered = args.bool_or("ordered", false)?;
    Ok(Value::Factor(Factor {
        codes,
        levels,
        ordered,
    }))
}
