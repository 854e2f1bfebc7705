//! `list2DF(x, nrow)`: base R 4.2.2's list2DF (base/R/dataframe.R), a list
//! of equally long columns made a data frame as it is (no names checked,
//! no text made factors).

use super::value::{List, Value};
use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "list2DF",
    params: &[opt("x"), opt("nrow")],
    random: false,
    shape: list2df_shape,
    eval: list2df_eval,
}];

fn list2df_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let empty = Value::List(List::sequence(Vec::new()));
    let x = args.get("x").unwrap_or(&empty);
    let Value::List(l) = x else {
        return Err(KernelError::new("is.list(x) is not TRUE"));
    };
    let nrow = match args.get("nrow") {
        None => Some(0.0),
        Some(Value::Null) => None,
        Some(v) => match v.as_scalar() {
            Some(n) if n >= 0.0 => Some(n),
            _ => return Err(KernelError::new("is.null(nrow) || nrow >= 0L is not TRUE")),
        },
    };
    if l.items.is_empty() {
        // list2DF(list(), nrow = n): n rows of nothing.
        let n = nrow.unwrap_or(0.0);
        if n > f64::from(i32::MAX) {
            return Err(KernelError::new("invalid 'n' argument"));
        }
        let rows =
            (n as i32 > 0).then(|| super::value::RowNames::Numbers((1..=n as i32).collect()));
        return Ok(super::frame::named_frame(Vec::new(), Vec::new(), rows));
    }
    let n = l.items[0].len();
    if l.items.iter().any(|c| c.len() != n) {
        return Err(KernelError::new(
            "all variables should have the same length",
        ));
    }
    if l.items.iter().any(|c| {
        matches!(
            super::names::bare(c),
            Value::Mat(_) | Value::BoolMat(_) | Value::List(_)
        )
    }) {
        return Err(KernelError::new(
            "list2DF() of matrix or list columns is not supported: a flowcast data frame \
             holds vectors and factors",
        ));
    }
    let names = l
        .names
        .clone()
        .unwrap_or_else(|| vec![String::new(); l.items.len()]);
    Ok(super::frame::frame(names, l.items.clone()))
}

fn list2df_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.ty("x") {
        Some(Type::Record { fields, .. }) => Type::Record {
            class: super::frame::CLASS.to_string(),
            fields: fields.clone(),
        },
        Some(Type::Any) | None => Type::Any,
        Some(Type::List { .. }) => Type::Any,
        Some(t) => {
            return Err(a.error(
                "x",
                format!("is.list(x) is not TRUE: x is {}", t.describe()),
            ))
        }
    })
}
