//! `sapply`, `lapply`, `vapply` and `apply` with FUN a function's name
//! (`sapply(x, mean)`, `apply(m, 2, "sd")`), extra arguments passed on
//! as R's `...` passes them. FUN's shape rule gives the result's shape
//! before the run.
//!
//! `function(i) expr` closures are not supported: a closure's body would
//! read steps the dependence analysis cannot see through yet.

use super::args::{ArgError, Args};
use super::value::List;
use super::{frame, opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "sapply",
        params: &[
            req("X"),
            req("FUN"),
            DOTS,
            opt("simplify"),
            opt("USE.NAMES"),
        ],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "lapply",
        params: &[req("X"), req("FUN"), DOTS],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "vapply",
        params: &[
            req("X"),
            req("FUN"),
            req("FUN.VALUE"),
            DOTS,
            opt("USE.NAMES"),
        ],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "apply",
        params: &[req("X"), req("MARGIN"), req("FUN"), DOTS, opt("simplify")],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
];

/// The kernel FUN names; random ones are refused, as their draws would
/// not be ordered with the workflow's random steps.
fn fun_kernel(v: Option<&Value>) -> Result<&'static Kernel, KernelError> {
    let name = match v {
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        _ => {
            return Err(KernelError::new(
                "FUN must be a function's name (`sapply(x, mean)`); flowcast has no \
                 function(x) closures",
            ))
        }
    };
    let k = registry()
        .get(name)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))?;
    if k.random {
        return Err(KernelError::new(format!(
            "FUN = {name} draws random numbers; flowcast applies only deterministic functions"
        )));
    }
    Ok(k)
}

/// The slices FUN is called on.
fn slices(func: &str, args: &Args<&Value>) -> Result<Vec<Value>, KernelError> {
    let x = args.get("X").unwrap_or(&Value::Null);
    if func == "apply" {
        let margin = args
            .get("MARGIN")
            .and_then(Value::as_scalar)
            .ok_or_else(|| KernelError::new("MARGIN must be 1 or 2"))?;
        if let Value::BoolMat(m) = x {
            return match margin as i64 {
                1 => Ok((0..m.nrows())
                    .map(|i| Value::Bool(m.row(i).iter().copied().collect()))
                    .collect()),
                2 => Ok((0..m.ncols())
                    .map(|j| Value::Bool(m.column(j).iter().copied().collect()))
                    .collect()),
                _ => Err(KernelError::new("'MARGIN' does not match dim(X)")),
            };
        }
        let x = frame::coerce_value("apply", x)
            .transpose()?
            .unwrap_or_else(|| x.clone());
        let Value::Mat(m) = &x else {
            return Err(KernelError::new("dim(X) must have a positive length"));
        };
        return match margin as i64 {
            1 => Ok((0..m.nrows())
                .map(|i| Value::Num(m.row(i).iter().copied().collect()))
                .collect()),
            2 => Ok((0..m.ncols())
                .map(|j| Value::Num(m.column(j).iter().copied().collect()))
                .collect()),
            _ => Err(KernelError::new("'MARGIN' does not match dim(X)")),
        };
    }
    Ok(match x {
        Value::List(l) => l.items.clone(),
        Value::Null => Vec::new(),
        Value::Formula(_) => return Err(KernelError::new("X must be a vector")),
        other => (0..other.len())
            .map(|i| super::index::index2(other, &Value::scalar((i + 1) as f64)))
            .collect::<Result<_, _>>()?,
    })
}

/// FUN(slice, ...).
fn call(
    k: &Kernel,
    slice: &Value,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, slice)];
    given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
    let matched =
        Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
    (k.eval)(&matched, ctx)
}

/// R's `simplify2array` of results: one value each → a vector, as `c`
/// combines them; equal lengths → a matrix with a column each; else the
/// list.
fn simplify(results: Vec<Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let atomic = |v: &Value| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Str(_));
    if results.is_empty() || !results.iter().all(atomic) {
        return Ok(Value::List(List::sequence(results)));
    }
    let n = results[0].len();
    if results.iter().any(|r| r.len() != n) {
        return Ok(Value::List(List::sequence(results)));
    }
    let combined = {
        let c = registry()
            .get("c")
            .ok_or_else(|| KernelError::new("c() is missing"))?;
        let given: Vec<(Option<String>, &Value)> = results.iter().map(|r| (None, r)).collect();
        let matched =
            Args::match_call(c.name, c.params, given).map_err(|e| KernelError::new(e.message))?;
        (c.eval)(&matched, ctx)?
    };
    if n == 1 {
        return Ok(combined);
    }
    let cols = results.len();
    Ok(match combined {
        Value::Num(d) => Value::nums_shaped(d, Some((n, cols))),
        Value::Bool(d) => Value::logicals_shaped(d, Some((n, cols))),
        // flowcast has no character matrices.
        _ => Value::List(List::sequence(results)),
    })
}

fn apply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let k = fun_kernel(args.get("FUN"))?;
    let parts = slices(args.func, args)?;
    let results = parts
        .iter()
        .map(|s| call(k, s, args, ctx))
        .collect::<Result<Vec<_>, _>>()?;
    match args.func {
        "lapply" => Ok(Value::List(List::sequence(results))),
        "vapply" => vapply_check(args.get("FUN.VALUE"), results, ctx),
        "sapply" if !args.bool_or("simplify", true)? => Ok(Value::List(List::sequence(results))),
        "apply" if !args.bool_or("simplify", true)? => Ok(Value::List(List::sequence(results))),
        _ => simplify(results, ctx),
    }
}

/// `vapply`'s check of every result against FUN.VALUE, then its shape.
fn vapply_check(
    template: Option<&Value>,
    results: Vec<Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let t = template.ok_or_else(|| KernelError::new("argument \"FUN.VALUE\" is missing"))?;
    let kind = |v: &Value| match v {
        Value::Bool(_) => 0,
        Value::Num(_) | Value::Mat(_) => 1,
        Value::Str(_) => 2,
        _ => 3,
    };
    for (i, r) in results.iter().enumerate() {
        if r.len() != t.len() {
            return Err(KernelError::new(format!(
                "values must be length {},\n but FUN(X[[{}]]) result is length {}",
                t.len(),
                i + 1,
                r.len()
            )));
        }
        if kind(r) > kind(t) || kind(t) == 3 {
            return Err(KernelError::new(format!(
                "values must be type '{}',\n but FUN(X[[{}]]) result is type '{}'",
                type_word(t),
                i + 1,
                type_word(r)
            )));
        }
    }
    if results.is_empty() {
        return Ok(match t {
            Value::Str(_) => Value::Str(Vec::new()),
            Value::Bool(_) => Value::Bool(Vec::new()),
            _ => Value::Num(Vec::new()),
        });
    }
    let v = simplify(results, ctx)?;
    // Logical results promote to FUN.VALUE's type.
    Ok(match (t, v) {
        (Value::Num(_), Value::Bool(b)) => {
            Value::Num(b.iter().map(|&x| super::value::logical_f64(x)).collect())
        }
        (_, v) => v,
    })
}

fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "logical",
        Value::Num(_) | Value::Mat(_) => "double",
        Value::Str(_) => "character",
        _ => "list",
    }
}

/// The type of one slice of X.
fn slice_type(func: &str, args: &Args<Type>) -> Result<(Option<usize>, Type), ArgError> {
    let x = args.ty("X").cloned().unwrap_or(Type::Null);
    if func == "apply" {
        let margin = args.ty("MARGIN").and_then(Type::const_scalar);
        let (rows, cols) = match &x {
            Type::Mat { rows, cols } | Type::BoolMat { rows, cols } => (*rows, *cols),
            Type::Any => return Ok((None, Type::Any)),
            Type::Record { .. } => return Ok((None, Type::num_unknown())),
            other => {
                return Err(args.error(
                    "X",
                    format!("dim(X) must have a positive length: {}", other.describe()),
                ))
            }
        };
        return match margin {
            Some(m) if m as i64 == 1 => Ok((
                rows,
                Type::Num {
                    len: cols,
                    value: None,
                },
            )),
            Some(m) if m as i64 == 2 => Ok((
                cols,
                Type::Num {
                    len: rows,
                    value: None,
                },
            )),
            Some(_) => Err(args.error("MARGIN", "'MARGIN' does not match dim(X)")),
            None => Ok((None, Type::num_unknown())),
        };
    }
    Ok(match &x {
        Type::Num { .. } | Type::Mat { .. } => (x.len(), Type::num(1)),
        Type::Bool { len, .. } => (*len, Type::logical(Some(1))),
        Type::BoolMat { .. } => (x.len(), Type::logical(Some(1))),
        Type::Str { len, .. } => (
            *len,
            Type::Str {
                len: Some(1),
                value: None,
            },
        ),
        Type::List { len, elem } => (*len, (**elem).clone()),
        Type::Record { fields, .. } => (Some(fields.len()), Type::Any),
        Type::Null => (Some(0), Type::Any),
        _ => (None, Type::Any),
    })
}

fn apply_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let name = match args.ty("FUN") {
        Some(t) => match t.const_str() {
            Some(s) => s.to_string(),
            None if matches!(t, Type::Any) => return Ok(Type::Any),
            None => {
                return Err(args.error(
                    "FUN",
                    "FUN must be a function's name (`sapply(x, mean)`); flowcast has no \
                     function(x) closures",
                ))
            }
        },
        None => return Ok(Type::Any),
    };
    let k = registry()
        .get(name.as_str())
        .ok_or_else(|| args.error("FUN", format!("could not find function \"{name}\"")))?;
    if k.random {
        return Err(args.error(
            "FUN",
            format!(
                "FUN = {name} draws random numbers; flowcast applies only deterministic functions"
            ),
        ));
    }
    let (n, elem) = slice_type(args.func, args)?;
    if args.func == "lapply" {
        return Ok(Type::List {
            len: n,
            elem: Box::new(Type::Any),
        });
    }
    // FUN's own shape rule on one slice: its errors are the call's.
    let mut given: Vec<(Option<String>, Type)> = vec![(None, elem)];
    given.extend(
        args.dots()
            .map(|(nm, t)| (nm.map(str::to_string), t.clone())),
    );
    let one = match Args::match_call(k.name, k.params, given) {
        Ok(m) => {
            (k.shape)(&m, ctx).map_err(|e| args.error("FUN", format!("{name}(): {}", e.message)))?
        }
        Err(e) => return Err(args.error("FUN", format!("{name}(): {}", e.message))),
    };
    let one = if args.func == "vapply" {
        args.ty("FUN.VALUE").cloned().unwrap_or(Type::Any)
    } else {
        one
    };
    let simplify_off = matches!(args.func, "sapply" | "apply")
        && args
            .ty("simplify")
            .and_then(Type::const_scalar)
            .is_some_and(|s| s == 0.0);
    if simplify_off {
        return Ok(Type::List {
            len: n,
            elem: Box::new(one),
        });
    }
    Ok(match (&one, one.len()) {
        (Type::Num { .. }, Some(1)) => Type::Num {
            len: n,
            value: None,
        },
        (Type::Bool { .. }, Some(1)) => Type::logical(n),
        (Type::Str { .. }, Some(1)) => Type::Str {
            len: n,
            value: None,
        },
        (Type::Num { .. } | Type::Mat { .. }, Some(k)) if k > 1 && n != Some(0) => Type::Mat {
            rows: Some(k),
            cols: n,
        },
        _ => Type::Any,
    })
}
