//! `head`, `tail` and `rev`. A matrix or data frame is cut by rows, as
//! R's `head.matrix` and `head.data.frame` cut it.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{frame, index, Ctx, KernelError, ShapeCtx, Type, Value};

use super::{int_arg, like, pick};

/// The 0-based range `head` (or `tail`) keeps of `len` items.
fn kept(len: usize, n: i64, head: bool) -> std::ops::Range<usize> {
    let k = if n >= 0 {
        (n as usize).min(len)
    } else {
        len.saturating_sub(n.unsigned_abs() as usize)
    };
    if head {
        0..k
    } else {
        len - k..len
    }
}

pub(super) fn head_tail_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let n = match args.get("n") {
        Some(v) if v.len() != 1 => {
            return Err(KernelError::new(
                "invalid 'n' - must have length one when dim(x) is NULL",
            ))
        }
        _ => int_arg(args, "n", 6)?,
    };
    let head = args.func == "head";
    let rows = match (x, frame::as_frame(x)) {
        (Value::Mat(m), _) => Some(m.nrows()),
        (Value::BoolMat(m), _) => Some(m.nrows()),
        (Value::ComplexMat(m), _) => Some(m.nrows()),
        (Value::StrMat(m), _) => Some(m.nrows()),
        (_, Some(f)) => Some(f.items.first().map_or(0, Value::len)),
        _ => None,
    };
    if let Some(nr) = rows {
        let r: Vec<f64> = kept(nr, n, head).map(|i| (i + 1) as f64).collect();
        return index::index_drop(x, &[Some(Value::Num(r)), None], false);
    }
    if matches!(x, Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new(format!(
            "object of type '{}' is not subsettable",
            x.type_name()
        )));
    }
    let pos: Vec<usize> = kept(x.len(), n, head).collect();
    Ok(if matches!(x, Value::Null) {
        Value::Null
    } else {
        pick(x, &pos)
    })
}

pub(super) fn head_tail_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let n = match args.ty("n") {
        None => Some(6),
        Some(_) => super::const_int(args, "n"),
    };
    let head = args.func == "head";
    Ok(match &x {
        Type::Mat { rows, cols } | Type::BoolMat { rows, cols } | Type::StrMat { rows, cols } => {
            let r = match (rows, n) {
                (Some(r), Some(n)) => Some(kept(*r, n, head).len()),
                _ => None,
            };
            if matches!(x, Type::StrMat { .. }) {
                Type::StrMat {
                    rows: r,
                    cols: *cols,
                }
            } else if matches!(x, Type::BoolMat { .. }) {
                Type::BoolMat {
                    rows: r,
                    cols: *cols,
                }
            } else {
                Type::Mat {
                    rows: r,
                    cols: *cols,
                }
            }
        }
        Type::Record { .. } | Type::Any => Type::Any,
        Type::Null => Type::Null,
        Type::Formula { .. } => {
            return Err(args.error("x", "object of type 'formula' is not subsettable"))
        }
        t => {
            let len = match (t.len(), n) {
                (Some(l), Some(n)) => Some(kept(l, n, head).len()),
                _ => None,
            };
            if let (Type::Num { value: Some(v), .. }, Some(n)) = (t, n) {
                return Ok(Type::num_const(v[kept(v.len(), n, head)].to_vec()));
            }
            like(t, len)
        }
    })
}

pub(super) fn rev_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    if matches!(x, Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new(format!(
            "object of type '{}' is not subsettable",
            x.type_name()
        )));
    }
    if matches!(x, Value::Null) {
        return Ok(Value::Null);
    }
    let pos: Vec<usize> = (0..x.len()).rev().collect();
    Ok(pick(x, &pos))
}

pub(super) fn rev_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    Ok(match &x {
        Type::Null => Type::Null,
        Type::Num { value: Some(v), .. } => Type::num_const(v.iter().rev().copied().collect()),
        Type::Formula { .. } => {
            return Err(args.error("x", "object of type 'formula' is not subsettable"))
        }
        t => like(t, t.len()),
    })
}
