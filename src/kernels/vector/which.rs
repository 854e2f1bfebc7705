//! `which`, `which.max` and `which.min`: 1-based positions, integers in R
//! (stored as doubles, as flowcast stores every integer).

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::{arg_or_null, numbers};

pub(super) fn which_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = arg_or_null(args, "x");
    let l = match x {
        Value::Bool(_) | Value::BoolMat(_) | Value::Null => x.as_logicals().unwrap_or_default(),
        _ => return Err(KernelError::new("argument to 'which' is not logical")),
    };
    let at: Vec<usize> = l
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == Some(true))
        .map(|(i, _)| i)
        .collect();
    // arr.ind = TRUE of a matrix: R's arrayInd, one (row, col) row per hit.
    if let (Value::BoolMat(m), true) = (x, args.bool_or("arr.ind", false)?) {
        let r = m.nrows().max(1);
        let mut out = nalgebra::DMatrix::zeros(at.len(), 2);
        for (k, &i) in at.iter().enumerate() {
            out[(k, 0)] = (i % r + 1) as f64;
            out[(k, 1)] = (i / r + 1) as f64;
        }
        return Ok(Value::Mat(out));
    }
    Ok(Value::Num(at.into_iter().map(|i| (i + 1) as f64).collect()))
}

pub(super) fn which_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    // A logical typed as a vector may be an array, whose subscripts are
    // a matrix.
    if args.has("arr.ind") {
        return Ok(match args.ty("x") {
            Some(Type::BoolMat { .. }) => Type::Mat {
                rows: None,
                cols: Some(2),
            },
            _ => Type::Any,
        });
    }
    match args.ty("x") {
        Some(Type::Bool { value: Some(v), .. }) => Ok(Type::num_const(
            v.iter()
                .enumerate()
                .filter(|(_, b)| **b == Some(true))
                .map(|(i, _)| (i + 1) as f64)
                .collect(),
        )),
        Some(Type::Bool { .. } | Type::BoolMat { .. } | Type::Any | Type::Null) | None => {
            Ok(Type::num_unknown())
        }
        Some(t) => Err(args.error(
            "x",
            format!("argument to 'which' is not logical: {}", t.describe()),
        )),
    }
}

/// R's `which.max` / `which.min`: the first extreme, NA and NaN skipped.
pub(super) fn which_extreme_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x")?;
    let max = args.func == "which.max";
    let mut best: Option<(usize, f64)> = None;
    for (i, &v) in x.iter().enumerate() {
        if v.is_nan() {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, b)) => {
                if max {
                    v > b
                } else {
                    v < b
                }
            }
        };
        if better {
            best = Some((i, v));
        }
    }
    Ok(Value::Num(
        best.map(|(i, _)| (i + 1) as f64).into_iter().collect(),
    ))
}

pub(super) fn which_extreme_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    super::numeric_type(args, "x")?;
    Ok(Type::num_unknown())
}
