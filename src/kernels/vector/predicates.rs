//! `any`, `all`, `is.na` and `anyNA`.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn any_all_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let rm = args.bool_or("na.rm", false)?;
    let any = args.func == "any";
    let mut saw_na = false;
    for (_, v) in args.dots() {
        let l = match v {
            Value::Null => continue,
            Value::Bool(_) | Value::BoolMat(_) => v.as_logicals().unwrap_or_default(),
            Value::Num(_) | Value::Mat(_) => {
                ctx.warn("coercing argument of type 'double' to logical");
                v.as_logicals().unwrap_or_default()
            }
            other => {
                return Err(KernelError::new(format!(
                    "invalid 'type' ({}) of argument",
                    r_type(other)
                )))
            }
        };
        for b in l.iter() {
            match b {
                Some(b) if *b == any => return Ok(Value::flag(any)),
                Some(_) => {}
                None => saw_na = true,
            }
        }
    }
    Ok(Value::Bool(vec![if saw_na && !rm {
        None
    } else {
        Some(!any)
    }]))
}

/// R's `typeof`, for messages.
fn r_type(v: &Value) -> &'static str {
    match v {
        Value::Str(_) | Value::StrMat(_) => "character",
        Value::List(_) => "list",
        Value::Complex(_) | Value::ComplexMat(_) => "complex",
        Value::Formula(_) => "language",
        Value::Lang(_) => v.type_name(),
        _ => "double",
    }
}

pub(super) fn any_all_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for (k, (_, t)) in args.dots().enumerate() {
        if matches!(
            t,
            Type::Str { .. } | Type::Record { .. } | Type::List { .. } | Type::Formula { .. }
        ) {
            return Err(args.dots_error(k, format!("invalid 'type' of argument: {}", t.describe())));
        }
    }
    Ok(Type::logical(Some(1)))
}

fn is_na_list_item(v: &Value) -> bool {
    match v {
        Value::Num(x) if x.len() == 1 => x[0].is_nan(),
        Value::Bool(b) if b.len() == 1 => b[0].is_none(),
        _ => false,
    }
}

/// R's `is.na`: NA and NaN alike; a matrix stays a matrix, and a data
/// frame gives a logical matrix of its cells.
pub fn is_na(x: &Value) -> Result<Value, KernelError> {
    if let Some(l) = crate::kernels::frame::as_frame(x) {
        return crate::kernels::coerce::frame_is_na(l);
    }
    let data: Vec<Option<bool>> = match x {
        Value::Named(n) => return is_na(&n.value),
        Value::Null => Vec::new(),
        // Text has no NA of its own: "NA" stands for it (see `factor`).
        Value::Str(_) | Value::StrMat(_) => x
            .as_strs()
            .unwrap_or_default()
            .iter()
            .map(|s| Some(crate::kernels::factor::text_is_na(s)))
            .collect(),
        Value::Bool(_) | Value::BoolMat(_) => x
            .as_logicals()
            .unwrap_or_default()
            .iter()
            .map(|b| Some(b.is_none()))
            .collect(),
        Value::Complex(z) => z
            .iter()
            .map(|c| Some(c.re.is_nan() || c.im.is_nan()))
            .collect(),
        Value::ComplexMat(z) => z
            .iter()
            .map(|c| Some(c.re.is_nan() || c.im.is_nan()))
            .collect(),
        Value::List(l) => l.items.iter().map(|v| Some(is_na_list_item(v))).collect(),
        Value::Factor(f) => f.codes.iter().map(|c| Some(c.is_none())).collect(),
        Value::Num(_) | Value::Mat(_) => x
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|v| Some(v.is_nan()))
            .collect(),
        Value::Formula(_) | Value::Lang(_) => {
            return Err(KernelError::new(format!(
                "is.na() applied to non-(list or vector) of type '{}'",
                x.type_name()
            )))
        }
    };
    Ok(Value::logicals_shaped(data, x.dims()))
}

pub(super) fn is_na_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    is_na(super::arg_or_null(args, "x"))
}

pub(super) fn is_na_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args
        .ty("x")
        .and_then(crate::kernels::coerce::frame_is_na_type)
    {
        return Ok(t);
    }
    Ok(match args.ty("x") {
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Type::BoolMat {
            rows: *rows,
            cols: *cols,
        },
        Some(Type::Formula { .. }) => {
            return Err(args.error(
                "x",
                "is.na() applied to non-(list or vector) of type 'language'",
            ))
        }
        Some(Type::Any) => Type::Any,
        Some(t) => Type::logical(t.len()),
        None => Type::logical(Some(0)),
    })
}

pub(super) fn any_na_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let r = is_na(x)?;
    let l = r.as_logicals().unwrap_or_default();
    Ok(Value::flag(l.contains(&Some(true))))
}

pub(super) fn any_na_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(Some(1)))
}

/// R's `is.finite`, `is.infinite` and `is.nan` (do_isfinite, do_isinfinite
/// and do_isnan in coerce.c): element-wise, keeping a matrix's dims. Text
/// and a factor's codes are never infinite nor NaN, and NA_real_ is not
/// NaN; lists and language have no default method.
fn finiteness(x: &Value, func: &str) -> Result<Value, KernelError> {
    let num = |v: f64| -> bool {
        match func {
            "is.finite" => v.is_finite(),
            "is.infinite" => v.is_infinite(),
            _ => v.is_nan() && !crate::kernels::value::is_na(v),
        }
    };
    let data: Vec<Option<bool>> = match x {
        Value::Named(n) => return finiteness(&n.value, func),
        Value::Null => Vec::new(),
        Value::Str(_) | Value::StrMat(_) => vec![Some(false); x.len()],
        Value::Bool(_) | Value::BoolMat(_) => x
            .as_logicals()
            .unwrap_or_default()
            .iter()
            .map(|b| Some(func == "is.finite" && b.is_some()))
            .collect(),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| Some(func == "is.finite" && c.is_some()))
            .collect(),
        Value::Complex(_) | Value::ComplexMat(_) => {
            let z: Vec<num_complex::Complex64> = match x {
                Value::Complex(z) => z.clone(),
                Value::ComplexMat(m) => m.iter().copied().collect(),
                _ => Vec::new(),
            };
            z.iter()
                .map(|c| {
                    Some(match func {
                        "is.finite" => c.re.is_finite() && c.im.is_finite(),
                        "is.infinite" => c.re.is_infinite() || c.im.is_infinite(),
                        _ => num(c.re) || num(c.im),
                    })
                })
                .collect()
        }
        Value::Num(_) | Value::Mat(_) => x
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|v| Some(num(*v)))
            .collect(),
        Value::List(_) => {
            return Err(KernelError::new(
                "default method not implemented for type 'list'",
            ))
        }
        Value::Formula(_) | Value::Lang(_) => {
            return Err(KernelError::new(format!(
                "default method not implemented for type '{}'",
                x.type_name()
            )))
        }
    };
    Ok(Value::logicals_shaped(data, x.dims()))
}

pub(super) fn finiteness_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    finiteness(super::arg_or_null(args, "x"), args.func)
}

pub(super) fn finiteness_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::ComplexMat { rows, cols },
        ) => Type::BoolMat {
            rows: *rows,
            cols: *cols,
        },
        Some(Type::Formula { .. }) => {
            return Err(args.error("x", "default method not implemented for type 'language'"))
        }
        Some(Type::List { .. } | Type::Record { .. }) => {
            return Err(args.error("x", "default method not implemented for type 'list'"))
        }
        Some(Type::Any) => Type::Any,
        Some(t) => Type::logical(t.len()),
        None => Type::logical(Some(0)),
    })
}
