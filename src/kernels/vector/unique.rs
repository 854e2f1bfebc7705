//! `unique(x)`: first occurrences, compared as `match` compares (NA and
//! NaN are distinct values, -0 equals 0); a matrix's unique rows, as R's
//! `unique.matrix` gives them.

use crate::kernels::hashing::FastSet;

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
        Value::Mat(m) => {
            let mut seen = FastSet::default();
            let mut order: Vec<usize> = (0..m.nrows()).collect();
            if args.bool_or("fromLast", false)? {
                order.reverse();
            }
            let mut rows: Vec<usize> = order
                .into_iter()
                .filter(|&i| seen.insert(m.row(i).iter().map(|&v| num_key(v)).collect::<Vec<_>>()))
                .collect();
            rows.sort_unstable();
            let out = DMatrix::from_fn(rows.len(), m.ncols(), |i, j| m[(rows[i], j)]);
            return Ok(Value::Mat(out));
        }
        // x[!duplicated(x, incomparables, fromLast)], a factor keeping
        // its levels (unique.default).
        Value::Str(_) | Value::Num(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Factor(_) => {
            super::sets::duplicates(args, x)?
                .iter()
                .enumerate()
                .filter(|(_, d)| !**d)
                .map(|(i, _)| i)
                .collect()
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

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    Ok(match &x {
        Type::Null => Type::Null,
        Type::Mat { cols, .. } => Type::Mat {
            rows: None,
            cols: *cols,
        },
        Type::Num { .. }
        | Type::Bool { .. }
        | Type::BoolMat { .. }
        | Type::Str { .. }
        | Type::Factor { .. } => like(&x, None),
        Type::Any => Type::Any,
        other => {
            return Err(args.error(
                "x",
                format!("unique() applies only to vectors, not {}", other.describe()),
            ))
        }
    })
}
