//! `rle` and `inverse.rle`: runs of equal values, as R 4.2's base R code.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::List;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

const NOT_ATOMIC: &str = "'x' must be a vector of an atomic type";

/// R's `rle`: `y <- x[-1L] != x[-n]`, a run ending wherever `y` is TRUE
/// or NA, so each NA is a run of its own.
pub(super) fn rle_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    // Whether element i+1 differs from element i, None where `!=` is NA.
    let differs: Vec<Option<bool>> = match x {
        Value::Num(v) => v
            .windows(2)
            .map(|w| (!w[0].is_nan() && !w[1].is_nan()).then_some(w[0] != w[1]))
            .collect(),
        Value::Str(v) => v
            .windows(2)
            .map(|w| {
                let na = |s: &str| crate::kernels::factor::text_is_na(s);
                (!na(&w[0]) && !na(&w[1])).then_some(w[0] != w[1])
            })
            .collect(),
        Value::Bool(v) => v
            .windows(2)
            .map(|w| match (w[0], w[1]) {
                (Some(a), Some(b)) => Some(a != b),
                _ => None,
            })
            .collect(),
        Value::Complex(v) => v
            .windows(2)
            .map(|w| {
                let na = |c: &num_complex::Complex64| c.re.is_nan() || c.im.is_nan();
                (!na(&w[0]) && !na(&w[1])).then_some(w[0] != w[1])
            })
            .collect(),
        Value::Null => {
            return Err(KernelError::new(NOT_ATOMIC));
        }
        Value::List(l) if l.class.is_none() => {
            return Err(KernelError::new(
                "flowcast's rle() takes an atomic vector, not a list",
            ))
        }
        _ => return Err(KernelError::new(NOT_ATOMIC)),
    };
    let n = x.len();
    let mut ends: Vec<usize> = differs
        .iter()
        .enumerate()
        .filter(|(_, d)| **d != Some(false))
        .map(|(i, _)| i)
        .collect();
    if n > 0 {
        ends.push(n - 1);
    }
    let mut lengths = Vec::with_capacity(ends.len());
    let mut start = 0;
    for &e in &ends {
        lengths.push((e + 1 - start) as f64);
        start = e + 1;
    }
    let pick = Value::Num(ends.iter().map(|&e| e as f64 + 1.0).collect());
    let values = crate::kernels::index::index(x, &[Some(pick)])?;
    Ok(Value::List(List::record(
        "rle",
        vec![("lengths", Value::Num(lengths)), ("values", values)],
    )))
}

pub(super) fn rle_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let values = match args.ty("x") {
        Some(Type::Num { .. }) => Type::num_unknown(),
        Some(Type::Str { .. }) => Type::Str {
            len: None,
            value: None,
        },
        Some(Type::Bool { .. }) => Type::logical(None),
        Some(Type::Complex { .. }) => Type::Complex { len: None },
        Some(Type::Any) => Type::Any,
        _ => return Err(args.error("x", NOT_ATOMIC)),
    };
    Ok(Type::record(
        "rle",
        vec![("lengths", Type::num_unknown()), ("values", values)],
    ))
}

/// R's `inverse.rle`: `rep.int(x$values, x$lengths)`.
pub(super) fn inverse_rle_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let invalid = || KernelError::new("invalid 'rle' structure");
    let Some(Value::List(l)) = args.get("x") else {
        return Err(invalid());
    };
    let (Some(le), Some(v)) = (l.field("lengths"), l.field("values")) else {
        return Err(invalid());
    };
    if matches!(le, Value::Null) || matches!(v, Value::Null) || le.len() != v.len() {
        return Err(invalid());
    }
    let times = le.as_f64_slice().ok_or_else(invalid)?;
    if times.iter().any(|t| !t.is_finite() || *t < 0.0) {
        return Err(KernelError::new("invalid 'times' value"));
    }
    // The whole result is asked for before it is built, so a huge run
    // fails as R's allocation does rather than aborting.
    let total: f64 = times.iter().map(|t| t.trunc()).sum();
    crate::kernels::alloc::ensure_room(total * 8.0)?;
    let mut pick = crate::kernels::alloc::vec_with_capacity(total as usize)?;
    for (i, t) in times.iter().enumerate() {
        for _ in 0..(*t as usize) {
            pick.push(i as f64 + 1.0);
        }
    }
    crate::kernels::index::index(v, &[Some(Value::Num(pick))])
}

pub(super) fn inverse_rle_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Record { fields, .. }) => {
            match fields.iter().find(|(n, _)| n == "values").map(|(_, t)| t) {
                Some(Type::Num { .. }) => Type::num_unknown(),
                Some(Type::Str { .. }) => Type::Str {
                    len: None,
                    value: None,
                },
                Some(Type::Bool { .. }) => Type::logical(None),
                Some(Type::Complex { .. }) => Type::Complex { len: None },
                _ => Type::Any,
            }
        }
        _ => Type::Any,
    })
}
