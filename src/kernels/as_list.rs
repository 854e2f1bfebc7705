//! `as.list(x)`: R's as.list methods: a vector's elements one by one
//! (names kept as the list's, a matrix's dim dropped), a factor's as
//! one-element factors, a data frame's columns without its class and row
//! names, any other list as it is.

use super::args::{ArgError, Args};
use super::names::{bare, names};
use super::value::{Factor, List};
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "as.list",
    params: &[req("x"), DOTS],
    random: false,
    shape,
    eval,
}];

/// The elements of an atomic vector or matrix, each a length-one value.
pub(super) fn elements(v: &Value) -> Option<Vec<Value>> {
    Some(match v {
        Value::Num(x) => x.iter().map(|&x| Value::Num(vec![x])).collect(),
        Value::Mat(m) => m.iter().map(|&x| Value::Num(vec![x])).collect(),
        Value::Str(x) => x.iter().map(|s| Value::Str(vec![s.clone()])).collect(),
        Value::StrMat(m) => m.iter().map(|s| Value::Str(vec![s.clone()])).collect(),
        Value::Bool(x) => x.iter().map(|&b| Value::Bool(vec![b])).collect(),
        Value::BoolMat(m) => m.iter().map(|&b| Value::Bool(vec![b])).collect(),
        Value::Complex(x) => x.iter().map(|&z| Value::Complex(vec![z])).collect(),
        Value::ComplexMat(m) => m.iter().map(|&z| Value::Complex(vec![z])).collect(),
        // `x[[i]]` keeps the levels.
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|&c| {
                Value::Factor(Factor {
                    codes: vec![c],
                    levels: f.levels.clone(),
                    ordered: f.ordered,
                })
            })
            .collect(),
        _ => return None,
    })
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    match bare(x) {
        Value::Null => Ok(Value::List(List::sequence(Vec::new()))),
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Ok(Value::List(List {
                class: None,
                names: l.names.clone(),
                items: l.items.clone(),
                row_names: None,
            }))
        }
        Value::List(l) => Ok(Value::List(l.clone())),
        Value::Formula(_) | Value::Lang(_) => Err(KernelError::new(format!(
            "as.list of a {} is not supported: flowcast takes a formula apart with [[",
            x.type_name()
        ))),
        v => {
            let items = elements(v).unwrap_or_default();
            super::alloc::ensure_room(items.len() as f64 * 64.0)?;
            // A vector's names; a matrix's dimnames do not carry over.
            let names = if v.dims().is_none() {
                names(x).map(<[String]>::to_vec)
            } else {
                None
            };
            Ok(Value::List(List {
                class: None,
                names,
                items,
                row_names: None,
            }))
        }
    }
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Null) => Type::List {
            len: Some(0),
            elem: Box::new(Type::Any),
        },
        Some(
            t @ (Type::Num { .. }
            | Type::Mat { .. }
            | Type::Str { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::StrMat { .. }
            | Type::Complex { .. }
            | Type::ComplexMat { .. }
            | Type::Factor { .. }),
        ) => Type::List {
            len: t.len(),
            elem: Box::new(Type::Any),
        },
        _ => Type::Any,
    })
}
