//! `rep(x, times, length.out, each)` and `rep_len`, R's `do_rep`: `each`
//! first, then `length.out` (which overrides `times`), else `times` as
//! one count or one count per element.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::{like, pick};

/// Largest result `rep` will make (R fails near here too).
const MAX_LEN: usize = 1 << 31;

fn counts(v: Option<&Value>, what: &str) -> Result<Option<Vec<usize>>, KernelError> {
    let Some(v) = v else { return Ok(None) };
    let d = v
        .as_f64_slice()
        .ok_or_else(|| KernelError::new(format!("invalid '{what}' argument")))?;
    d.iter()
        .map(|&x| {
            if x.is_nan() || x < 0.0 || x >= MAX_LEN as f64 {
                Err(KernelError::new(format!("invalid '{what}' argument")))
            } else {
                Ok(x.trunc() as usize)
            }
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// How many positions [`positions`] gives, or R's error, without making
/// them: the shape rule needs only the length, and a result of 2^31
/// positions would take 16 GB to count.
fn positions_len(
    n: usize,
    times: Option<&[usize]>,
    length_out: Option<usize>,
    each: usize,
) -> Result<usize, KernelError> {
    let expanded_len = n.saturating_mul(each);
    if expanded_len > MAX_LEN {
        return Err(KernelError::new("invalid 'each' argument"));
    }
    if let Some(len) = length_out {
        if len > MAX_LEN {
            return Err(KernelError::new("invalid 'length.out' argument"));
        }
        return Ok(if expanded_len == 0 { 0 } else { len });
    }
    let times = times.unwrap_or(&[1]);
    let total = if times.len() == 1 {
        expanded_len.saturating_mul(times[0])
    } else if times.len() != expanded_len {
        return Err(KernelError::new("invalid 'times' argument"));
    } else {
        times.iter().fold(0usize, |a, &t| a.saturating_add(t))
    };
    if total > MAX_LEN {
        return Err(KernelError::new("invalid 'times' argument"));
    }
    Ok(total)
}

/// The positions `rep` takes from a vector of length `n`, or R's error
/// (a result that cannot be allocated is refused, not aborted on).
fn positions(
    n: usize,
    times: Option<&[usize]>,
    length_out: Option<usize>,
    each: usize,
) -> Result<Vec<usize>, KernelError> {
    let total = positions_len(n, times, length_out, each)?;
    let mut out = crate::kernels::alloc::vec_with_capacity(total)?;
    // `each` copies of every position: the k-th is k / each.
    let expanded_len = n * each;
    match times.filter(|t| length_out.is_none() && t.len() != 1) {
        Some(times) => {
            for (k, &t) in times.iter().enumerate() {
                out.extend(std::iter::repeat_n(k / each, t));
            }
        }
        None => out.extend((0..total).map(|i| (i % expanded_len.max(1)) / each.max(1))),
    }
    Ok(out)
}

fn check_x(x: &Value) -> Result<(), KernelError> {
    if matches!(x, Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new(format!(
            "attempt to replicate an object of type '{}'",
            super::super::class::type_of(x, false)
        )));
    }
    Ok(())
}

/// `length.out` NAs of `x`'s type when `x` is empty: do_rep's
/// `xlengthgets` of a zero-length vector (`rep_len(numeric(0), 3)` is
/// `NA NA NA`). `None` where the empty result stands.
fn empty_extended(x: &Value, len: Option<usize>) -> Option<Value> {
    let len = len.filter(|&l| l > 0 && x.is_empty())?;
    match x {
        Value::Num(_) | Value::Mat(_) => Some(Value::Num(vec![crate::kernels::value::NA; len])),
        Value::Bool(_) | Value::BoolMat(_) => Some(Value::Bool(vec![None; len])),
        // NA_character_, written "NA" as flowcast's text NA is.
        Value::Str(_) => Some(Value::Str(vec!["NA".to_string(); len])),
        _ => None,
    }
}

pub(super) fn rep_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    check_x(x)?;
    let each = match counts(args.get("each"), "each")? {
        None => 1,
        Some(v) if v.is_empty() => 1,
        Some(v) => v[0],
    };
    let length_out = match args.get("length.out") {
        None => None,
        Some(v) if v.as_scalar().is_some_and(f64::is_nan) => None,
        Some(v) => counts(Some(v), "length.out")?.and_then(|v| v.first().copied()),
    };
    let times = counts(args.get("times"), "times")?;
    if let Some(v) = empty_extended(x, length_out) {
        return Ok(v);
    }
    // The common `rep(x, k)` of numbers: whole copies, no positions.
    if let (Value::Num(v), 1, None, Some([t])) = (x, each, length_out, times.as_deref()) {
        if v.len().saturating_mul(*t) > MAX_LEN {
            return Err(KernelError::new("invalid 'times' argument"));
        }
        let mut out = crate::kernels::alloc::vec_with_capacity(v.len() * t)?;
        for _ in 0..*t {
            out.extend_from_slice(v);
        }
        return Ok(Value::Num(out));
    }
    let pos = positions(x.len(), times.as_deref(), length_out, each)?;
    Ok(if matches!(x, Value::Null) {
        Value::Null
    } else {
        pick(x, &pos)
    })
}

pub(super) fn rep_len_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    check_x(x)?;
    let len = match args.get("length.out").and_then(Value::as_scalar) {
        Some(l) if (0.0..MAX_LEN as f64).contains(&l) => l as usize,
        _ => return Err(KernelError::new("invalid 'length.out' value")),
    };
    if let Some(v) = empty_extended(x, Some(len)) {
        return Ok(v);
    }
    let pos = positions(x.len(), None, Some(len), 1)?;
    Ok(pick(x, &pos))
}

fn const_counts(args: &Args<Type>, name: &str) -> Option<Vec<usize>> {
    let v = args.ty(name)?.const_nums()?;
    v.iter()
        .map(|&x| (0.0..MAX_LEN as f64).contains(&x).then_some(x as usize))
        .collect()
}

pub(super) fn rep_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(x, Type::Formula { .. }) {
        return Err(args.error("x", "attempt to replicate an object of type 'language'"));
    }
    if let Type::Null = x {
        return Ok(Type::Null);
    }
    let each = match args.ty("each") {
        None => Some(1),
        Some(_) => const_counts(args, "each").and_then(|v| v.first().copied()),
    };
    let length_out = match args.ty("length.out") {
        None => Some(None),
        Some(t) => match t.const_scalar() {
            Some(v) if v.is_nan() => Some(None),
            Some(v) if (0.0..MAX_LEN as f64).contains(&v) => Some(Some(v as usize)),
            Some(_) => return Err(args.error("length.out", "invalid 'length.out' argument")),
            None => None,
        },
    };
    let times = match args.ty("times") {
        None => Some(vec![1]),
        Some(_) => const_counts(args, "times"),
    };
    let len = match (x.len(), each, length_out, &times) {
        (_, _, Some(Some(l)), _) => Some(l),
        (Some(n), Some(e), Some(None), Some(t)) => {
            positions_len(n, Some(t.as_slice()), None, e).ok()
        }
        _ => None,
    };
    if let (Type::Num { value: Some(v), .. }, Some(e), Some(lo), Some(t)) =
        (&x, each, length_out, times)
    {
        let small = positions_len(v.len(), Some(t.as_slice()), lo, e)
            .is_ok_and(|len| len <= crate::kernels::types::MAX_CONST_LEN);
        if let (true, Ok(p)) = (small, positions(v.len(), Some(t.as_slice()), lo, e)) {
            return Ok(Type::num_const(p.iter().map(|&i| v[i]).collect()));
        }
    }
    Ok(like(&x, len))
}

pub(super) fn rep_len_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let len = match args.ty("length.out").and_then(Type::const_scalar) {
        Some(l) if (0.0..MAX_LEN as f64).contains(&l) => Some(l as usize),
        Some(_) => return Err(args.error("length.out", "invalid 'length.out' value")),
        None => None,
    };
    Ok(like(&x, len))
}

/// rep's formals, for `rep.int(x, times)` matched as `rep(x, times)`.
const REP_PARAMS: &[crate::kernels::Param] = &[
    crate::kernels::req("x"),
    crate::kernels::opt("times"),
    crate::kernels::opt("length.out"),
    crate::kernels::opt("each"),
];

/// `rep.int(x, times)` as the `rep(x, times)` it equals.
fn as_rep<T: Clone>(args: &Args<T>) -> Result<Args<T>, ArgError> {
    let given = ["x", "times"]
        .iter()
        .filter_map(|name| Some((Some((*name).to_string()), args.slot_value(name)?.clone())))
        .collect();
    Args::match_call("rep", REP_PARAMS, given)
}

/// R's `rep.int` (do_rep_int): rep's `times`, named `value` in its
/// message.
pub(super) fn rep_int_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let rep = as_rep(args).map_err(|e| KernelError::new(e.message))?;
    rep_eval(&rep, ctx).map_err(|e| {
        KernelError::new(e.0.replace("invalid 'times' argument", "invalid 'times' value"))
    })
}

pub(super) fn rep_int_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    rep_shape(&as_rep(args)?, ctx)
}
