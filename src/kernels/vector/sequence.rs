//! `sequence(nvec, from, by)`: the concatenated sequences
//! `seq(from[i], by = by[i], length.out = nvec[i])`, as R 4.2.2's
//! do_sequence (seq.c) after sequence.default's `as.integer`s; `from`
//! and `by` are recycled over `nvec`.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn sequence_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["nvec", "from", "by"] {
        if matches!(
            args.ty(name),
            Some(Type::List { .. } | Type::Record { .. } | Type::Formula { .. } | Type::Str { .. })
        ) {
            return Err(args.error(name, format!("'{name}' must be a numeric vector")));
        }
    }
    let len = args
        .ty("nvec")
        .and_then(Type::const_nums)
        .filter(|v| v.iter().all(|&x| x >= 0.0 && x.is_finite()))
        .map(|v| v.iter().map(|&x| x.trunc() as usize).sum());
    Ok(Type::Num { len, value: None })
}

/// R's `as.integer(v)`: NA for NA and what an integer cannot hold.
fn integers(
    args: &Args<&Value>,
    name: &str,
    default: i64,
) -> Result<Vec<Option<i64>>, KernelError> {
    let v = match args.get(name) {
        None => return Ok(vec![Some(default)]),
        Some(v) => v,
    };
    if matches!(v, Value::Null) {
        return Ok(Vec::new());
    }
    let nums = v.as_f64_slice().ok_or_else(|| {
        KernelError::new(format!(
            "'{name}' must be a numeric vector, not {}",
            v.type_name()
        ))
    })?;
    Ok(nums
        .iter()
        .map(|&x| (x.is_finite() && x.abs() < 2147483648.0).then(|| x.trunc() as i64))
        .collect())
}

pub(super) fn sequence_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let lengths = integers(args, "nvec", 0)?;
    let from = integers(args, "from", 1)?;
    let by = integers(args, "by", 1)?;
    if !lengths.is_empty() {
        if from.is_empty() {
            return Err(KernelError::new("'from' has length 0, but not 'lengths'"));
        }
        if by.is_empty() {
            return Err(KernelError::new("'by' has length 0, but not 'lengths'"));
        }
    }
    let mut total = 0usize;
    let mut lens = Vec::with_capacity(lengths.len());
    for l in &lengths {
        match l {
            Some(l) if *l >= 0 => {
                total += *l as usize;
                lens.push(*l as usize);
            }
            _ => {
                return Err(KernelError::new(
                    "'lengths' must be a vector of non-negative integers",
                ))
            }
        }
    }
    let mut out = crate::kernels::alloc::vec_with_capacity(total)?;
    for (i, &length) in lens.iter().enumerate() {
        let from_elt = from[i % from.len()];
        let by_elt = by[i % by.len()];
        let Some(start) = from_elt.or((length == 0).then_some(0)) else {
            return Err(KernelError::new("'from' contains NAs"));
        };
        let step = match by_elt {
            Some(b) => b,
            None if length >= 2 => return Err(KernelError::new("'by' contains NAs")),
            None => 0,
        };
        let mut j = start;
        for _ in 0..length {
            // C's int would overflow past R's integer range; R then holds NA.
            out.push(if j.abs() < 2147483648 { j as f64 } else { NA });
            j += step;
        }
    }
    Ok(Value::Num(out))
}
