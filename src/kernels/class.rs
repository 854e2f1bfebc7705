//! What R says a value is: `typeof(x)`, `mode(x)`, `storage.mode(x)`,
//! `class(x)`, `oldClass(x)` and `inherits(x, what, which)`, and R's
//! `data.class`, which all.equal reports. flowcast stores integers as
//! doubles, so an integer is known from the call ([`Ctx::is_integer`]).

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "typeof",
        params: &[req("x")],
        random: false,
        shape: one_string,
        eval: typeof_eval,
    },
    Kernel {
        name: "mode",
        params: &[req("x")],
        random: false,
        shape: one_string,
        eval: mode_eval,
    },
    Kernel {
        name: "storage.mode",
        params: &[req("x")],
        random: false,
        shape: one_string,
        eval: storage_mode_eval,
    },
    Kernel {
        name: "class",
        params: &[req("x")],
        random: false,
        shape: strings,
        eval: class_eval,
    },
    Kernel {
        name: "oldClass",
        params: &[req("x")],
        random: false,
        shape: old_class_shape,
        eval: old_class_eval,
    },
    Kernel {
        name: "unclass",
        params: &[req("x")],
        random: false,
        shape: unclass_shape,
        eval: unclass_eval,
    },
    Kernel {
        name: "inherits",
        params: &[req("x"), req("what"), opt("which")],
        random: false,
        shape: inherits_shape,
        eval: inherits_eval,
    },
];

/// R's `typeof`: a factor is its integer codes, a formula a call.
pub(crate) fn type_of(v: &Value, integer: bool) -> &'static str {
    match v {
        Value::Null => "NULL",
        Value::Num(_) | Value::Mat(_) if integer => "integer",
        Value::Num(_) | Value::Mat(_) => "double",
        Value::Complex(_) | Value::ComplexMat(_) => "complex",
        Value::Str(_) | Value::StrMat(_) => "character",
        Value::Bool(_) | Value::BoolMat(_) => "logical",
        Value::List(_) => "list",
        Value::Formula(_) => "language",
        Value::Lang(l) if l.symbol => "symbol",
        Value::Lang(_) => "language",
        Value::Factor(_) => "integer",
        // A table holds counts, which R keeps as integers.
        Value::Named(n) if n.table.is_some() => type_of(&n.value, true),
        Value::Named(n) => type_of(&n.value, integer),
    }
}

/// R's `mode`: both kinds of number are "numeric", a call "call".
pub(crate) fn mode_of(v: &Value) -> &'static str {
    // A parenthesised call's mode is "(", as its class.
    if matches!(v, Value::Lang(l) if crate::kernels::language::is_paren(l)) {
        return "(";
    }
    match type_of(v, false) {
        "double" | "integer" => "numeric",
        "language" => "call",
        t => t,
    }
}

/// The classes flowcast's result objects stand for, as R sets them: a
/// few of R's objects inherit from another class.
fn r_classes(class: &str) -> Vec<String> {
    let conditions = condition_classes(class);
    let chain: &[&str] = match class {
        _ if !conditions.is_empty() => conditions,
        "glm" => &["glm", "lm"],
        "ecdf" => &["ecdf", "stepfun", "function"],
        "stepfun" => &["stepfun", "function"],
        "aov" => &["aov", "lm"],
        "mlm" => &["mlm", "lm"],
        "manova" => &["manova", "maov", "aov", "mlm", "lm"],
        "TukeyHSD" => &["TukeyHSD", "multicomp"],
        "summary.aov" => &["summary.aov", "listof"],
        "anova" => &["anova", "data.frame"],
        other => return vec![other.to_string()],
    };
    chain.iter().map(|c| c.to_string()).collect()
}

/// The class vector of one of R's simple conditions; empty for any
/// other class.
pub(crate) fn condition_classes(class: &str) -> &'static [&'static str] {
    match class {
        "simpleError" => &["simpleError", "error", "condition"],
        "simpleWarning" => &["simpleWarning", "warning", "condition"],
        "simpleMessage" => &["simpleMessage", "message", "condition"],
        _ => &[],
    }
}

/// R's `oldClass(x)`: the class attribute, if any.
pub(crate) fn class_attr(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::List(List { class: Some(c), .. }) if c != "list" => Some(r_classes(c)),
        Value::Factor(f) if f.ordered => Some(vec!["ordered".into(), "factor".into()]),
        Value::Factor(_) => Some(vec!["factor".into()]),
        Value::Formula(_) => Some(vec!["formula".into()]),
        Value::Named(n) if n.table.is_some() => Some(vec!["table".into()]),
        // try's "try-error" text.
        Value::Named(n) if n.attrs.iter().any(|(k, _)| k == "class") => n
            .attrs
            .iter()
            .find(|(k, _)| k == "class")
            .and_then(|(_, v)| match v {
                Value::Str(s) => Some(s.clone()),
                _ => None,
            }),
        Value::Named(n) if n.tsp.is_some() => Some(if n.value.dims().is_some() {
            ["mts", "ts", "matrix"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        } else {
            vec!["ts".into()]
        }),
        _ => None,
    }
}

/// The number of dimensions R gives `x` (`length(dim(x))`): a table of
/// one factor is a one-dimensional array.
pub(crate) fn dim_count(v: &Value) -> usize {
    match v {
        Value::Mat(_) | Value::ComplexMat(_) | Value::BoolMat(_) | Value::StrMat(_) => 2,
        Value::Named(n) if n.table.as_ref().is_some_and(|t| t.len() == 1) => 1,
        Value::Named(_) if super::arrays::array_dims(v).is_some() => {
            super::arrays::array_dims(v).map_or(0, |d| d.len())
        }
        Value::Named(n) => dim_count(&n.value),
        _ => 0,
    }
}

/// R's `class(x)`: the class attribute, else the implicit class.
pub(crate) fn class_of(v: &Value, integer: bool) -> Vec<String> {
    if let Some(c) = class_attr(v) {
        return c;
    }
    match dim_count(v) {
        2 => return vec!["matrix".into(), "array".into()],
        0 => {}
        _ => return vec!["array".into()],
    }
    if matches!(v, Value::Lang(l) if crate::kernels::language::is_paren(l)) {
        return vec!["(".into()];
    }
    let c = match type_of(v, integer) {
        "double" => "numeric",
        "symbol" => "name",
        "language" => "call",
        t => t,
    };
    vec![c.to_string()]
}

/// R's `data.class(x)`: the first class, else "matrix" or "array" by
/// the dimensions, else the mode.
pub(crate) fn data_class(v: &Value) -> String {
    if let Some(c) = class_attr(v) {
        return c[0].clone();
    }
    match dim_count(v) {
        2 => "matrix".into(),
        0 => mode_of(v).into(),
        _ => "array".into(),
    }
}

fn x_arg<'a>(args: &'a Args<&Value>) -> Result<&'a Value, KernelError> {
    args.get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))
}

fn typeof_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = x_arg(args)?;
    Ok(Value::string(type_of(x, ctx.is_integer(x))))
}

fn mode_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::string(mode_of(x_arg(args)?)))
}

fn storage_mode_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = x_arg(args)?;
    Ok(Value::string(type_of(x, ctx.is_integer(x))))
}

fn class_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("0 arguments passed to 'class' which requires 1"))?;
    Ok(Value::Str(class_of(x, ctx.is_integer(x))))
}

fn old_class_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("0 arguments passed to 'oldClass' which requires 1"))?;
    Ok(class_attr(x).map_or(Value::Null, Value::Str))
}

/// R's inherits3 (objects.c): the classes of `class(x)` matched against
/// `what`, as TRUE/FALSE or, with `which`, as 1-based positions.
fn inherits_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = x_arg(args)?;
    let what = match args.get("what").map(bare) {
        Some(Value::Str(s)) => s,
        Some(_) => return Err(KernelError::new("'what' must be a character vector")),
        None => {
            return Err(KernelError::new(
                "argument \"what\" is missing, with no default",
            ))
        }
    };
    let which = match args.get("which").map(bare) {
        None => false,
        Some(Value::Bool(b)) if b.len() == 1 => b[0] == Some(true),
        Some(_) => {
            return Err(KernelError::new(
                "'which' must be a length 1 logical vector",
            ))
        }
    };
    let classes = class_of(x, ctx.is_integer(x));
    let position = |w: &String| classes.iter().position(|c| c == w);
    Ok(if which {
        Value::Num(
            what.iter()
                .map(|w| position(w).map_or(0.0, |i| (i + 1) as f64))
                .collect(),
        )
    } else {
        Value::flag(what.iter().any(|w| position(w).is_some()))
    })
}

fn one_string(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: Some(1),
        value: None,
    })
}

fn strings(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: None,
        value: None,
    })
}

fn old_class_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

fn inherits_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Null)) = args.ty("what") {
        let _ = t;
        return Err(args.error("what", "'what' must be a character vector"));
    }
    Ok(match args.ty("which") {
        Some(Type::Bool { value: Some(v), .. }) if v.len() == 1 && v[0] == Some(true) => {
            Type::Num {
                len: args.ty("what").and_then(Type::len),
                value: None,
            }
        }
        None => Type::logical(Some(1)),
        Some(_) => Type::Any,
    })
}

/// R's `unclass(x)`: the class attribute dropped, the rest kept: a Date's
/// days, a factor's codes (with its levels), a data frame's list.
fn unclass_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(match x {
        Value::Named(_) if super::dates::is_date(x) || super::dates::is_difftime(x) => {
            super::dates::unclassed(x)
        }
        Value::Named(n) => {
            let mut n = n.clone();
            n.attrs.retain(|(k, _)| k != "class");
            n.table = None;
            n.tsp = None;
            let bare = n.names.is_none()
                && n.rownames.is_none()
                && n.colnames.is_none()
                && n.match_length.is_none()
                && n.attrs.is_empty();
            if bare {
                n.value
            } else {
                Value::Named(n)
            }
        }
        Value::Factor(f) => super::names::with_attr(
            Value::Num(f.integer_codes()),
            "levels",
            Value::Str(f.levels.clone()),
        ),
        Value::List(l) => {
            let mut l = l.clone();
            l.class = None;
            Value::List(l)
        }
        other => other.clone(),
    })
}

fn unclass_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Factor { len, .. }) => Type::Num {
            len: *len,
            value: None,
        },
        Some(Type::Record { .. }) | None => Type::Any,
        Some(t) => t.clone(),
    })
}
