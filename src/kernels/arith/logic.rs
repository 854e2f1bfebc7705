//! `& | !`, `&& ||`, `xor`, `isTRUE` and `isFALSE`: R's logical operators
//! (logic.c) with three-valued NA (`FALSE & NA` is FALSE, `TRUE | NA` is
//! TRUE), recycling and matrix dims.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

use super::compare::elementwise_logical_shape;
use super::ops::{conform, ragged, RECYCLE};

const OP_PARAMS: &[Param] = &[req("e1"), req("e2")];

pub(super) const AND: Kernel = Kernel {
    name: "&",
    params: OP_PARAMS,
    random: false,
    shape: elementwise_logical_shape,
    eval: logic_eval,
};

pub(super) const OR: Kernel = Kernel {
    name: "|",
    params: OP_PARAMS,
    random: false,
    shape: elementwise_logical_shape,
    eval: logic_eval,
};

pub(super) const XOR: Kernel = Kernel {
    name: "xor",
    params: &[req("x"), req("y")],
    random: false,
    shape: elementwise_logical_shape,
    eval: logic_eval,
};

pub(super) const NOT: Kernel = Kernel {
    name: "!",
    params: &[req("x")],
    random: false,
    shape: not_shape,
    eval: not_eval,
};

pub(super) const AND2: Kernel = Kernel {
    name: "&&",
    params: OP_PARAMS,
    random: false,
    shape: scalar_logical_shape,
    eval: scalar_logic_eval,
};

pub(super) const OR2: Kernel = Kernel {
    name: "||",
    params: OP_PARAMS,
    random: false,
    shape: scalar_logical_shape,
    eval: scalar_logic_eval,
};

pub(super) const IS_TRUE: Kernel = Kernel {
    name: "isTRUE",
    params: &[req("x")],
    random: false,
    shape: scalar_logical_shape,
    eval: is_true_eval,
};

pub(super) const IS_FALSE: Kernel = Kernel {
    name: "isFALSE",
    params: &[req("x")],
    random: false,
    shape: scalar_logical_shape,
    eval: is_true_eval,
};

/// Three-valued `a & b`.
pub fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// Three-valued `a | b`.
pub fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

fn logicals<'a>(v: &'a Value) -> Result<std::borrow::Cow<'a, [Option<bool>]>, KernelError> {
    v.as_logicals().ok_or_else(|| {
        KernelError::new("operations are possible only for numeric, logical or complex types")
    })
}

fn logic_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (n1, n2) = if args.func == "xor" {
        ("x", "y")
    } else {
        ("e1", "e2")
    };
    let e1 = args.get(n1).unwrap_or(&Value::Null);
    let e2 = args.get(n2).unwrap_or(&Value::Null);
    if args.func != "xor" {
        if let Some(r) = super::frame_ops::ops(args, e1, Some(e2), ctx, logic_eval) {
            return r;
        }
        if let Some(r) = super::factor_ops::ops(args.func, e1, Some(e2), ctx) {
            return r;
        }
    }
    let a = logicals(e1)?;
    let b = logicals(e2)?;
    let (n, dims) = conform(a.len(), e1.dims(), b.len(), e2.dims()).map_err(KernelError)?;
    if ragged(a.len(), b.len()) {
        ctx.warn(RECYCLE);
    }
    let f: fn(Option<bool>, Option<bool>) -> Option<bool> = match args.func {
        "&" => and,
        "|" => or,
        // R's xor is `(x | y) & !(x & y)`.
        _ => |x, y| and(or(x, y), and(x, y).map(|b| !b)),
    };
    let data = if n == 0 {
        Vec::new()
    } else {
        (0..n).map(|i| f(a[i % a.len()], b[i % b.len()])).collect()
    };
    if args.func == "xor" && ragged(a.len(), b.len()) {
        // R's xor warns once for `x | y` and once for `x & y`.
        ctx.warn(RECYCLE);
    }
    Ok(Value::logicals_shaped(data, dims))
}

fn not_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if let Some(r) = super::frame_ops::ops(args, x, None, ctx, not_eval) {
        return r;
    }
    if let Some(r) = super::factor_ops::ops("!", x, None, ctx) {
        return r;
    }
    let v = x
        .as_logicals()
        .ok_or_else(|| KernelError::new("invalid argument type"))?;
    let data = v.iter().map(|b| b.map(|b| !b)).collect();
    Ok(Value::logicals_shaped(data, x.dims()))
}

fn not_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(x) = args.ty("x") {
        if let Some(t) = super::frame_ops::ops_shape("!", x, None) {
            return t.map_err(ArgError::call);
        }
        if let Some(t) = super::factor_ops::ops_shape("!", x, None) {
            return Ok(t);
        }
    }
    match args.ty("x") {
        Some(Type::Num { len, .. }) => Ok(Type::logical(*len)),
        Some(Type::Bool { len, value }) => Ok(match value {
            Some(v) => Type::logical_const(v.iter().map(|b| b.map(|b| !b)).collect()),
            None => Type::logical(*len),
        }),
        Some(Type::Null) => Ok(Type::logical(Some(0))),
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => Ok(Type::BoolMat {
            rows: *rows,
            cols: *cols,
        }),
        Some(Type::Any) | None => Ok(Type::logical(None)),
        Some(other) => Err(args.error("x", format!("invalid argument type: {}", other.describe()))),
    }
}

fn scalar_logical_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if matches!(args.func, "&&" | "||") {
        for (name, side) in [("e1", "x"), ("e2", "y")] {
            if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::List { .. })) =
                args.ty(name)
            {
                return Err(args.error(
                    name,
                    format!(
                        "invalid '{side}' type in 'x {} y': {}",
                        args.func,
                        t.describe()
                    ),
                ));
            }
        }
    }
    Ok(Type::logical(Some(1)))
}

/// One side of `&&` / `||`: its first logical, NA when empty, with R
/// 4.2's warning for a longer one.
pub fn scalar_side(
    v: &Value,
    side: &str,
    op: &str,
    ctx: &mut Ctx,
) -> Result<Option<bool>, KernelError> {
    let l = match v {
        Value::Str(_) | Value::List(_) | Value::Formula(_) | Value::Complex(_) => None,
        other => other.as_logicals(),
    }
    .ok_or_else(|| KernelError::new(format!("invalid '{side}' type in 'x {op} y'")))?;
    if l.len() > 1 {
        ctx.warn(format!(
            "'length({side}) = {} > 1' in coercion to 'logical(1)'",
            l.len()
        ));
    }
    Ok(l.first().copied().flatten())
}

fn scalar_logic_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let op = args.func;
    let x = scalar_side(args.get("e1").unwrap_or(&Value::Null), "x", op, ctx)?;
    // The evaluator has already skipped `y` where `x` decides (`FALSE && y`);
    // here both were evaluated.
    let decided = match (op, x) {
        ("&&", Some(false)) => Some(false),
        ("||", Some(true)) => Some(true),
        _ => None,
    };
    if let Some(d) = decided {
        return Ok(Value::flag(d));
    }
    let y = scalar_side(args.get("e2").unwrap_or(&Value::Null), "y", op, ctx)?;
    Ok(Value::Bool(vec![if op == "&&" {
        and(x, y)
    } else {
        or(x, y)
    }]))
}

fn is_true_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let want = args.func == "isTRUE";
    Ok(Value::flag(matches!(
        args.get("x"),
        Some(Value::Bool(b)) if b.len() == 1 && b[0] == Some(want)
    )))
}
