//! `[` and `[[` as functions: `sapply(parts, "[", 2)` and
//! `lapply(fits, "[[", "coefficients")`, the idiom R users write to take
//! one element of each, and `do.call("[", list(x, i))`. They index as
//! `x[i, j]` and `x[[i]]` written in place do (`index::index_drop`,
//! `index::index2`), names included.

use super::{index, opt, req};
use super::{ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "[",
        params: &[req("x"), DOTS, opt("drop")],
        random: false,
        shape: any_shape,
        eval: subset_eval,
    },
    Kernel {
        name: "[[",
        params: &[req("x"), DOTS, opt("exact")],
        random: false,
        shape: any_shape,
        eval: element_eval,
    },
];

fn any_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

/// The subscripts, which R's primitives take by position: a named one
/// other than `drop`/`exact` would be an index of that name in R's
/// matching, which no caller means.
fn subscripts(args: &Args<&Value>) -> Result<Vec<Option<Value>>, KernelError> {
    args.dots()
        .map(|(name, v)| match name {
            None => Ok(Some(v.clone())),
            Some(n) => Err(KernelError::new(format!(
                "flowcast's `[` and `[[` take their subscripts by position, not as `{n} =`"
            ))),
        })
        .collect()
}

fn subset_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let idx = subscripts(args)?;
    let drop = match args.get("drop") {
        Some(d) => index::drop_flag(d)?,
        None => true,
    };
    // `x[]` is x itself.
    if idx.is_empty() {
        return Ok(x.clone());
    }
    index::index_drop(x, &idx, drop)
}

fn element_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let idx = subscripts(args)?;
    match idx.as_slice() {
        [Some(i)] => index::index2(x, i),
        [Some(i), Some(j)] => index::index2_matrix(x, i, j),
        [] => Err(KernelError::new("invalid subscript type 'symbol'")),
        _ => Err(KernelError::new("incorrect number of subscripts")),
    }
}
