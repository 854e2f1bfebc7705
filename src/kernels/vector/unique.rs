//! `unique(x)`: first occurrences, compared as `match` compares (NA and
//! NaN are distinct values, -0 equals 0); a matrix's or a data frame's
//! unique rows, as R's `unique.matrix` and `unique.data.frame` give them.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::is_na;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::{like, pick};

/// A number as `match` hashes it.
pub(super) fn num_key(x: f64) -> u64 {
    if is_na(x) {
        1
    } else if x.is_nan() {
        2
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let keep: Vec<usize> = match x {
        Value::Null => return Ok(Value::Null),
        // unique.matrix: the rows duplicated.matrix does not mark.
        Value::Mat(m) => {
            let rows = kept(&super::sets::duplicates(args, x)?);
            let out = DMatrix::from_fn(rows.len(), m.ncols(), |i, j| m[(rows[i], j)]);
            return Ok(Value::Mat(out));
        }
        Value::StrMat(m) => {
            let rows = kept(&super::sets::duplicates(args, x)?);
            let out = DMatrix::from_fn(rows.len(), m.ncols(), |i, j| m[(rows[i], j)].clone());
            return Ok(Value::StrMat(out));
        }
        // x[!duplicated(x, incomparables, fromLast)], a factor keeping
        // its levels (unique.default).
        Value::Str(_) | Value::Num(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Factor(_) => {
            kept(&super::sets::duplicates(args, x)?)
        }
        // unique.data.frame: x[!duplicated(x, fromLast = fromLast), ],
        // keeping the rows' names.
        other if crate::kernels::frame::as_frame(other).is_some() => {
            let rows = kept(&super::sets::duplicates(args, other)?)
                .into_iter()
                .map(|i| i as f64 + 1.0)
                .collect();
            return crate::kernels::index::index_drop(
                other,
                &[Some(Value::Num(rows)), None],
                false,
            );
        }
        other => {
            return Err(KernelError::new(format!(
                "unique() applies only to vectors, not {}",
                other.type_name()
            )))
        }
    };
    Ok(pick(x, &keep))
}

/// The positions `duplicated` did not mark.
fn kept(duplicated: &[bool]) -> Vec<usize> {
    (0..duplicated.len()).filter(|&i| !duplicated[i]).collect()
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    Ok(match &x {
        Type::Null => Type::Null,
        Type::Mat { cols, .. } => Type::Mat {
            rows: None,
            cols: *cols,
        },
        Type::StrMat { cols, .. } => Type::StrMat {
            rows: None,
            cols: *cols,
        },
        Type::Num { .. }
        | Type::Bool { .. }
        | Type::BoolMat { .. }
        | Type::Str { .. }
        | Type::Factor { .. } => like(&x, None),
        Type::Any => Type::Any,
        t if crate::kernels::frame::frame_fields(t).is_some() => {
            crate::kernels::frame::index_type(t, &[Some(Type::num_unknown()), None])
                .and_then(Result::ok)
                .unwrap_or(Type::Any)
        }
        other => {
            return Err(args.error(
                "x",
                format!("unique() applies only to vectors, not {}", other.describe()),
            ))
        }
    })
}
