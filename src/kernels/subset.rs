//! `subset` and `with`, whose arguments R evaluates among a data frame's
//! columns. The evaluator does the scoping (`graph::formula::DataScope`):
//! these kernels receive `subset`'s condition, `select`'s columns and
//! `with`'s result already evaluated.
//!
//! `subset` follows R's `subset.data.frame` (`x[r & !is.na(r), vars, drop
//! = drop]`, `vars` evaluated with each column name standing for its
//! position) and `subset.default` for vectors (`x[subset & !is.na(subset)]`).

use super::frame::{self, as_frame, frame_fields};
use super::vector::like;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "subset",
        params: &[req("x"), opt("subset"), opt("select"), opt("drop"), DOTS],
        random: false,
        shape: subset_shape,
        eval: subset_eval,
    },
    Kernel {
        name: "with",
        params: &[req("data"), req("expr"), DOTS],
        random: false,
        shape: with_shape,
        eval: with_eval,
    },
];

const NOT_LOGICAL: &str = "'subset' must be logical";

/// `r & !is.na(r)`: R's rows to keep, NA as FALSE.
fn rows_kept(r: &Value) -> Result<Value, KernelError> {
    match r {
        Value::Bool(_) | Value::BoolMat(_) => {
            let b = r.as_logicals().unwrap_or_default();
            Ok(Value::Bool(
                b.iter().map(|x| Some(x.unwrap_or(false))).collect(),
            ))
        }
        _ => Err(KernelError::new(NOT_LOGICAL)),
    }
}

fn subset_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if as_frame(x).is_some() {
        let rows = args.get("subset").map(rows_kept).transpose()?;
        let vars = args.get("select").cloned();
        let drop = args.bool_or("drop", false)?;
        return frame::index_drop(x, &[rows, vars], drop).unwrap_or(Ok(Value::Null));
    }
    match x {
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) | Value::Complex(_) => {
            let r = args.get("subset").ok_or_else(|| {
                KernelError::new("argument \"subset\" is missing, with no default")
            })?;
            super::index::index(x, &[Some(rows_kept(r)?)])
        }
        Value::Null => Ok(Value::Null),
        other => Err(KernelError::new(format!(
            "flowcast's subset() takes a data frame or a vector, not {}",
            other.type_name()
        ))),
    }
}

fn subset_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("subset") {
        None | Some(Type::Bool { .. } | Type::BoolMat { .. } | Type::Any) => {}
        Some(_) => return Err(args.error("subset", NOT_LOGICAL)),
    }
    let x = args.ty("x").unwrap_or(&Type::Any);
    if frame_fields(x).is_some() {
        let drop = match args.ty("drop") {
            None => false,
            Some(t) => match t.const_scalar() {
                Some(d) if !d.is_nan() => d != 0.0,
                _ => return Ok(Type::Any),
            },
        };
        let rows = args.has("subset").then(|| Type::logical(None));
        let vars = args.ty("select").cloned();
        return match frame::index_drop_type(x, &[rows, vars], drop) {
            Some(Ok(t)) => Ok(t),
            Some(Err((_, message))) => Err(args.error("select", message)),
            None => Ok(Type::Any),
        };
    }
    match x {
        Type::Any => Ok(Type::Any),
        Type::Null => Ok(Type::Null),
        Type::Num { .. }
        | Type::Str { .. }
        | Type::Bool { .. }
        | Type::Factor { .. }
        | Type::Complex { .. } => {
            if !args.has("subset") {
                return Err(ArgError::call(
                    "argument \"subset\" is missing, with no default",
                ));
            }
            Ok(like(x, None))
        }
        other => Err(args.error(
            "x",
            format!(
                "flowcast's subset() takes a data frame or a vector, not {}",
                other.describe()
            ),
        )),
    }
}

fn with_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    args.get("expr")
        .cloned()
        .ok_or_else(|| KernelError::new("argument \"expr\" is missing, with no default"))
}

fn with_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("expr").cloned().unwrap_or(Type::Any))
}
