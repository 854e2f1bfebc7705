//! `xtfrm(x)` and `sort.list(x)`: the numbers R sorts and orders a vector
//! by (base's sort.R), and the permutation that sorts one vector.

use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "xtfrm",
        params: &[req("x")],
        random: false,
        shape: xtfrm_shape,
        eval: xtfrm_eval,
    },
    Kernel {
        name: "sort.list",
        params: &[
            req("x"),
            opt("partial"),
            opt("na.last"),
            opt("decreasing"),
            opt("method"),
        ],
        random: false,
        shape: sort_list_shape,
        eval: sort_list_eval,
    },
];

/// R's `xtfrm.default` (`unclass(x)` of numbers, else `rank(x, ties.method
/// = "min", na.last = "keep")`) and `xtfrm.factor` (the codes).
fn xtfrm_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    match super::names::bare(x) {
        Value::Num(_) | Value::Mat(_) => Ok(x.clone()),
        Value::Factor(f) => Ok(Value::Num(f.integer_codes())),
        Value::Str(_) | Value::Bool(_) | Value::BoolMat(_) => {
            let keep = Value::string("keep");
            let min = Value::string("min");
            // rank() ranks a logical matrix as the vector of its cells.
            let cells = match super::names::bare(x) {
                Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
                other => other.clone(),
            };
            let ranks = super::registry().call(
                "rank",
                vec![
                    (None, &cells),
                    (Some("ties.method".into()), &min),
                    (Some("na.last".into()), &keep),
                ],
                ctx,
            )?;
            Ok(super::names::strip_value(ranks))
        }
        Value::Null => Ok(Value::Num(Vec::new())),
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Err(KernelError::new("cannot xtfrm data frames"))
        }
        Value::List(_) => Err(KernelError::new("unimplemented type 'list' in 'greater'")),
        other => Err(KernelError::new(format!(
            "xtfrm() of {} is not supported: R ranks it by its class's own method",
            other.type_name()
        ))),
    }
}

fn xtfrm_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.ty("x") {
        Some(t @ (Type::Num { .. } | Type::Mat { .. })) => t.clone(),
        Some(t @ (Type::Factor { .. } | Type::Str { .. } | Type::Bool { .. })) => Type::Num {
            len: t.len(),
            value: None,
        },
        Some(Type::Null) => Type::num(0),
        _ => Type::Any,
    })
}

/// R's `sort.list`: `order(x, na.last =, decreasing =)` of one atomic
/// vector; R itself refuses `partial`.
fn sort_list_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args
        .get("partial")
        .is_some_and(|p| !matches!(p, Value::Null))
    {
        return Err(KernelError::new(
            "argument 'partial != NULL' is not used (yet)",
        ));
    }
    let x = args.get("x").unwrap_or(&Value::Null);
    if matches!(x, Value::List(_) | Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new(
            "'x' must be atomic for 'sort.list', method \"shell\" and \"quick\"\n\
             Have you called 'sort' on a list?",
        ));
    }
    // R's sort.list with `na.last = NA` orders x without its NAs, and
    // numbers the kept elements among themselves.
    let na = args.get("na.last");
    let drops = na.is_some_and(|v| match v {
        Value::Bool(b) => b.len() == 1 && b[0].is_none(),
        other => other.as_scalar().is_some_and(f64::is_nan),
    });
    let kept;
    let x = if drops {
        kept = without_na(x);
        &kept
    } else {
        x
    };
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, x)];
    if let Some(v) = na.filter(|_| !drops) {
        given.push((Some("na.last".into()), v));
    }
    if let Some(v) = args.get("decreasing") {
        given.push((Some("decreasing".into()), v));
    }
    super::registry().call("order", given, ctx)
}

/// `x[!is.na(x)]` of an atomic vector or factor.
fn without_na(x: &Value) -> Value {
    match super::names::bare(x) {
        Value::Num(v) => Value::Num(v.iter().copied().filter(|x| !x.is_nan()).collect()),
        Value::Mat(m) => Value::Num(m.iter().copied().filter(|x| !x.is_nan()).collect()),
        Value::Bool(v) => Value::Bool(v.iter().copied().filter(Option::is_some).collect()),
        Value::Str(v) => Value::Str(
            v.iter()
                .filter(|s| !super::factor::text_is_na(s))
                .cloned()
                .collect(),
        ),
        Value::Factor(f) => Value::Factor(super::value::Factor {
            codes: f.codes.iter().copied().filter(Option::is_some).collect(),
            levels: f.levels.clone(),
            ordered: f.ordered,
        }),
        other => other.clone(),
    }
}

fn sort_list_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.ty("x");
    if matches!(x, Some(Type::Record { .. } | Type::List { .. })) {
        return Err(a.error(
            "x",
            "'x' must be atomic for 'sort.list', method \"shell\" and \"quick\"\n\
             Have you called 'sort' on a list?",
        ));
    }
    let dropping = a.ty("na.last").is_some_and(
        |t| !matches!(t, Type::Bool { value: Some(v), .. } if v.iter().all(Option::is_some)),
    );
    Ok(Type::Num {
        len: if dropping {
            None
        } else {
            x.and_then(Type::len)
        },
        value: None,
    })
}
