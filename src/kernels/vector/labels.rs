//! Labels: `paste` and `paste0` (R's `do_paste`: arguments as
//! `as.character` writes them, recycled to the longest, a zero-length one
//! read as ""), `setNames`, `colnames` and `rownames`.
//!
//! flowcast's vectors and matrices carry no names: lists and data frames
//! do. `names(x) <- v` cannot be written in a workflow (a step is a single
//! assignment), so `setNames(x, nm)` names a list or data frame.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::r_num_to_string;
use crate::kernels::{frame, Ctx, KernelError, ShapeCtx, Type, Value};

/// `as.character(v)` of an atomic vector.
pub(crate) fn strings(v: &Value) -> Result<Vec<String>, KernelError> {
    Ok(match v {
        Value::Null => Vec::new(),
        Value::Str(s) => s.clone(),
        Value::Bool(_) | Value::BoolMat(_) => v
            .as_logicals()
            .unwrap_or_default()
            .iter()
            .map(|b| match b {
                Some(true) => "TRUE",
                Some(false) => "FALSE",
                None => "NA",
            })
            .map(str::to_string)
            .collect(),
        Value::Num(_) | Value::Mat(_) => v
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|&x| r_num_to_string(x))
            .collect(),
        // as.character of a factor is its labels (do_paste's as.character).
        Value::Factor(f) => f.labels(),
        Value::List(l) => l
            .items
            .iter()
            .map(|item| match item {
                Value::Str(s) if s.len() == 1 => Ok(s[0].clone()),
                other if other.len() == 1 => Ok(strings(other)?.remove(0)),
                other => Err(KernelError::new(format!(
                    "paste() of a list element that is {}: not supported by flowcast",
                    other.type_name()
                ))),
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(KernelError::new(format!(
                "cannot coerce {} to character",
                other.type_name()
            )))
        }
    })
}

fn one_string<'a>(args: &'a Args<&Value>, name: &str) -> Result<Option<&'a str>, KernelError> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) if s.len() == 1 => Ok(Some(&s[0])),
        Some(_) => Err(KernelError::new(format!("invalid '{name}' argument"))),
    }
}

pub(super) fn paste_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let sep = if args.func == "paste0" {
        ""
    } else {
        one_string(args, "sep")?.unwrap_or(" ")
    };
    let collapse = one_string(args, "collapse")?;
    let parts = args
        .dots()
        .map(|(_, v)| strings(v))
        .collect::<Result<Vec<_>, _>>()?;
    let n = parts.iter().map(Vec::len).max().unwrap_or(0);
    let rows: Vec<String> = (0..n)
        .map(|i| {
            parts
                .iter()
                .map(|p| {
                    if p.is_empty() {
                        ""
                    } else {
                        p[i % p.len()].as_str()
                    }
                })
                .collect::<Vec<_>>()
                .join(sep)
        })
        .collect();
    Ok(Value::Str(match collapse {
        Some(c) => vec![rows.join(c)],
        None => rows,
    }))
}

pub(super) fn paste_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut len = Some(0);
    for (k, (_, t)) in args.dots().enumerate() {
        if matches!(
            t,
            Type::Record { .. } | Type::Formula { .. } | Type::Complex { .. }
        ) {
            return Err(args.dots_error(k, format!("cannot coerce {} to character", t.describe())));
        }
        len = match (len, t.len()) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
    }
    let collapsed = args
        .ty("collapse")
        .is_some_and(|t| !matches!(t, Type::Null));
    Ok(Type::Str {
        len: if collapsed { Some(1) } else { len },
        value: None,
    })
}

pub(super) fn set_names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let nm = super::arg_or_null(args, "nm");
    // R's default: `object = nm`.
    set_names_of(args.get("object").unwrap_or(nm), nm)
}

/// `setNames(object, nm)`, which is also `names(object) <- nm`.
pub(crate) fn set_names_of(object: &Value, nm: &Value) -> Result<Value, KernelError> {
    let names = match nm {
        Value::Null => None,
        other => Some(strings(other)?),
    };
    match object {
        Value::List(l) => {
            let mut out = l.clone();
            out.names = names.map(|mut n| {
                n.resize(l.items.len(), "NA".to_string());
                n
            });
            if frame::as_frame(object).is_some() && out.names.is_none() {
                return Err(KernelError::new(
                    "a data frame's names cannot be removed by flowcast",
                ));
            }
            Ok(Value::List(out))
        }
        other => crate::kernels::names::set_names(other, nm),
    }
}

pub(super) fn set_names_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let object = args.ty("object").or_else(|| args.ty("nm")).cloned();
    match object {
        Some(t @ Type::Formula { .. }) => Err(args.error(
            "object",
            format!(
                "setNames(): flowcast keeps names on vectors and lists, not on a {}",
                t.describe()
            ),
        )),
        Some(t) => Ok(t),
        None => Ok(Type::Null),
    }
}

pub(super) fn colnames_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    Ok(match frame::as_frame(x) {
        Some(f) => Value::Str(f.names.clone().unwrap_or_default()),
        None => crate::kernels::names::dimnames(x)
            .1
            .map_or(Value::Null, |c| Value::Str(c.to_vec())),
    })
}

pub(super) fn rownames_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    Ok(match frame::as_frame(x) {
        Some(f) => Value::Str(crate::kernels::row_names::labels(f)),
        None => crate::kernels::names::dimnames(x)
            .0
            .map_or(Value::Null, |r| Value::Str(r.to_vec())),
    })
}

pub(super) fn colnames_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Record { class, fields }) if class == frame::CLASS => Type::Str {
            len: Some(fields.len()),
            value: Some(fields.iter().map(|(n, _)| n.clone()).collect()),
        },
        // A matrix's dimnames are known at run time only.
        Some(
            Type::Any
            | Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::ComplexMat { .. }
            | Type::StrMat { .. },
        ) => Type::Any,
        _ => Type::Null,
    })
}

pub(super) fn rownames_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Record { class, fields }) if class == frame::CLASS => Type::Str {
            len: fields.first().and_then(|(_, t)| t.len()),
            value: None,
        },
        Some(
            Type::Any
            | Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::ComplexMat { .. }
            | Type::StrMat { .. },
        ) => Type::Any,
        _ => Type::Null,
    })
}
