//! `modifyList(x, val, keep.null)`: a list updated by the named elements
//! of another, recursively where both hold lists, as utils' modifyList.R
//! of R 4.2.2: each name of `val` in turn sets the first element of `x`
//! so named (or appends one), and NULL removes it unless `keep.null`.

use super::args::{ArgError, Args};
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "modifyList",
    params: &[req("x"), req("val"), opt("keep.null")],
    random: false,
    shape: modify_list_shape,
    eval: modify_list_eval,
}];

fn is_list_type(t: Option<&Type>) -> bool {
    matches!(
        t,
        None | Some(Type::List { .. } | Type::Record { .. } | Type::Any)
    )
}

fn modify_list_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "val"] {
        if !is_list_type(args.ty(name)) {
            return Err(args.error(name, format!("is.list({name}) is not TRUE")));
        }
    }
    Ok(Type::Any)
}

fn as_list<'a>(v: &'a Value, name: &str) -> Result<&'a List, KernelError> {
    match v {
        Value::List(l) if l.class.as_deref() == Some("data.frame") => Err(KernelError::new(
            format!("modifyList of a data frame '{name}' is not supported (R would assign its columns without checking their length)"),
        )),
        Value::List(l) => Ok(l),
        _ => Err(KernelError::new(format!("is.list({name}) is not TRUE"))),
    }
}

fn position(l: &List, name: &str) -> Option<usize> {
    l.names.as_ref()?.iter().position(|n| n == name)
}

/// `x[[name]] <- value` (or `x[name] <- list(value)` with `keep`): the
/// first element so named is replaced, or removed by a NULL unless
/// `keep`; a new name is appended.
fn assign(x: &mut List, name: &str, value: Value, keep: bool) {
    match (position(x, name), value) {
        (Some(i), Value::Null) if !keep => {
            x.items.remove(i);
            if let Some(n) = x.names.as_mut() {
                n.remove(i);
            }
        }
        (None, Value::Null) if !keep => {}
        (Some(i), v) => x.items[i] = v,
        (None, v) => {
            let len = x.items.len();
            x.names
                .get_or_insert_with(|| vec![String::new(); len])
                .push(name.to_string());
            x.items.push(v);
        }
    }
}

fn modify_list(x: &List, val: &List, keep: bool) -> List {
    let mut out = x.clone();
    let xnames = x.names.clone().unwrap_or_default();
    let Some(vnames) = val.names.as_ref() else {
        return out;
    };
    for v in vnames.iter().filter(|v| !v.is_empty()) {
        let Some(vi) = position(val, v) else {
            continue;
        };
        let new = &val.items[vi];
        let merged = match (xnames.contains(v), position(&out, v)) {
            (true, Some(xi)) => match (&out.items[xi], new) {
                (Value::List(a), Value::List(b))
                    if a.class.as_deref() != Some("data.frame")
                        && b.class.as_deref() != Some("data.frame") =>
                {
                    Some(Value::List(modify_list(a, b, keep)))
                }
                _ => None,
            },
            _ => None,
        };
        assign(&mut out, v, merged.unwrap_or_else(|| new.clone()), keep);
    }
    out
}

fn modify_list_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let get = |name: &str| {
        args.get(name).ok_or_else(|| {
            KernelError::new(format!("argument \"{name}\" is missing, with no default"))
        })
    };
    let x = as_list(get("x")?, "x")?;
    let val = as_list(get("val")?, "val")?;
    let keep = args.bool_or("keep.null", false)?;
    Ok(Value::List(modify_list(x, val, keep)))
}
