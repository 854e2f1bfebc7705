//! Conditions and pass-through: `stop`, `warning`, `invisible`, `identity`
//! and `print`, so that a step can refuse its data (`if (anyNA(x))
//! stop("x has missing values")`) as an R script does.

use super::vector::labels::strings;
use super::{opt, req};
use super::{ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "stop",
        params: &[DOTS, opt("call."), opt("domain")],
        random: false,
        shape: any_shape,
        eval: stop_eval,
    },
    Kernel {
        name: "warning",
        params: &[
            DOTS,
            opt("call."),
            opt("immediate."),
            opt("noBreaks."),
            opt("domain"),
        ],
        random: false,
        shape: message_shape,
        eval: warning_eval,
    },
    Kernel {
        name: "invisible",
        params: &[opt("x")],
        random: false,
        shape: same_shape,
        eval: same_eval,
    },
    Kernel {
        name: "identity",
        params: &[req("x")],
        random: false,
        shape: same_shape,
        eval: same_eval,
    },
    // R prints and returns its argument; flowcast shows every step's value
    // in its table and output files, so `print` only returns it.
    Kernel {
        name: "print",
        params: &[req("x"), DOTS],
        random: false,
        shape: same_shape,
        eval: same_eval,
    },
];

/// R's `.makeMessage`: the arguments as text, pasted with no separator.
fn message(args: &Args<&Value>) -> Result<String, KernelError> {
    let mut out = String::new();
    for (_, v) in args.dots() {
        out.push_str(&strings(v)?.concat());
    }
    Ok(out)
}

fn stop_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Err(KernelError::new(message(args)?))
}

fn warning_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let m = message(args)?;
    ctx.warn(m.clone());
    Ok(Value::Str(vec![m]))
}

fn same_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(args.get("x").cloned().unwrap_or(Value::Null))
}

/// `stop` never returns: its value is whatever the other branch's is.
fn any_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

fn message_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: Some(1),
        value: None,
    })
}

fn same_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("x").cloned().unwrap_or(Type::Null))
}
