//! `det(x)`: R's `det` is `determinant(x, logarithm = TRUE)` exponentiated,
//! and `determinant` is `La_det`: LAPACK `dgetrf`, then the log modulus
//! summed over U's diagonal and the sign from the pivots and negative
//! entries. The exponential of a sum of logs, not the plain product, is
//! what R returns.

use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::value::List;
use crate::kernels::Ctx;

pub(super) fn det_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows, cols }) => {
            if let (Some(r), Some(c)) = (rows, cols) {
                if r != c {
                    return Err(args.error("x", "'x' must be a square matrix"));
                }
            }
        }
        None | Some(Type::Any) => {}
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "no applicable method for 'determinant' applied to {}",
                    t.describe()
                ),
            ))
        }
    }
    matrix_dims(args, "x")?;
    Ok(Type::num(1))
}

pub(super) fn det_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Mat(x)) = args.get("x") else {
        let what = args.get("x").map_or("NULL", Value::type_name);
        return Err(KernelError::new(format!(
            "no applicable method for 'determinant' applied to a {what}"
        )));
    };
    let n = x.nrows();
    if n != x.ncols() {
        return Err(KernelError::new("'x' must be a square matrix"));
    }
    if n == 0 {
        return Ok(Value::scalar(1.0));
    }
    let (modulus, sign) = super::solve::log_determinant(x);
    Ok(Value::scalar(sign * modulus.exp()))
}

/// `determinant(x, logarithm)`: a list of `modulus` and `sign`, class
/// "det"; the types as det's.
pub(super) fn determinant_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    // UseMethod's message names the implicit class.
    let class = match args.ty("x") {
        Some(Type::Num { .. }) => Some("c('double', 'numeric')"),
        Some(Type::Bool { .. }) => Some("logical"),
        Some(Type::Str { .. }) => Some("character"),
        Some(Type::Complex { .. }) => Some("complex"),
        Some(Type::Null) => Some("NULL"),
        _ => None,
    };
    if let Some(class) = class {
        return Err(args.error(
            "x",
            format!(
                "no applicable method for 'determinant' applied to an object of class \"{class}\""
            ),
        ));
    }
    det_shape(args, ctx)?;
    Ok(Type::record(
        "det",
        vec![("modulus", Type::num(1)), ("sign", Type::num(1))],
    ))
}

/// R's determinant.matrix: `La_det_ge_real` on x, or the empty matrix's
/// modulus 0 (1 without the logarithm) and sign 1.
pub(super) fn determinant_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = match args.get("x") {
        Some(Value::Mat(x)) => x.clone(),
        Some(Value::BoolMat(b)) => b.map(crate::kernels::value::logical_f64),
        other => {
            // UseMethod's message names the implicit class.
            let class = match other {
                None | Some(Value::Null) => "NULL",
                Some(Value::Num(_)) => "c('double', 'numeric')",
                Some(Value::Bool(_)) => "logical",
                Some(Value::Str(_)) => "character",
                Some(Value::Complex(_)) => "complex",
                Some(Value::List(_)) => "list",
                Some(Value::Factor(_)) => "factor",
                Some(v) => v.type_name(),
            };
            return Err(KernelError::new(format!(
                "no applicable method for 'determinant' applied to an object of class \"{class}\""
            )));
        }
    };
    let n = x.nrows();
    if n != x.ncols() {
        return Err(KernelError::new("'x' must be a square matrix"));
    }
    // `if (logarithm)` for the empty matrix; asLogical in La_det_ge_real.
    let logarithm = match args.get("logarithm") {
        None => Some(true),
        Some(Value::Bool(b)) if !b.is_empty() => b[0],
        Some(v @ (Value::Num(_) | Value::Mat(_))) if !v.is_empty() => {
            let x = v.as_f64_slice().unwrap_or_default()[0];
            (!x.is_nan()).then_some(x != 0.0)
        }
        Some(Value::Str(s)) if !s.is_empty() => match s[0].as_str() {
            "TRUE" | "true" | "T" | "True" => Some(true),
            "FALSE" | "false" | "F" | "False" => Some(false),
            _ => None,
        },
        Some(_) => None,
    };
    // R sets the modulus' `logarithm` attribute to the argument itself
    // for the empty matrix (`structure(..., logarithm = logarithm)`), and
    // to asLogical's reading of it in La_det_ge_real.
    let (modulus, sign, attr) = if n == 0 {
        let given = args.get("logarithm");
        if given.is_some_and(|v| v.len() > 1) {
            return Err(KernelError::new("the condition has length > 1"));
        }
        let log = logarithm.ok_or_else(|| {
            KernelError::new(match given {
                Some(v) if v.is_empty() => "argument is of length zero",
                Some(Value::Str(_)) => "argument is not interpretable as logical",
                _ => "missing value where TRUE/FALSE needed",
            })
        })?;
        let attr = given.cloned().unwrap_or(Value::Bool(vec![Some(true)]));
        (if log { 0.0 } else { 1.0 }, 1.0, attr)
    } else {
        let log =
            logarithm.ok_or_else(|| KernelError::new("argument 'logarithm' must be logical"))?;
        let (modulus, sign) = super::solve::determinant(&x, log);
        (modulus, sign, Value::Bool(vec![Some(log)]))
    };
    let modulus = crate::kernels::names::with_attr(Value::scalar(modulus), "logarithm", attr);
    Ok(Value::List(List::record(
        "det",
        vec![("modulus", modulus), ("sign", Value::scalar(sign))],
    )))
}
