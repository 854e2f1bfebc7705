//! `local`, `missing`, `...length` and `...elt`, which R answers from the environment a call
//! runs in. The evaluator does the scoping: an argument that is a block or
//! an assignment runs with locals of its own (`exec::statements::run`,
//! `graph::shape`'s statement types), and `missing(x)` is a special form
//! of the evaluator and of shape inference, which read the parameter
//! markers a function's call binds (`graph::function_args::missing_marker`);
//! `...length()` and `...elt(n)` are special forms of the evaluator too,
//! reading the running function's `...` (`exec::eval::run_bound`).

use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    // R's `local` evaluates `expr` in a new environment; what a block
    // assigns already stays inside it, so `local` hands its value on.
    Kernel {
        name: "local",
        params: &[opt("expr"), opt("envir")],
        random: false,
        shape: local_shape,
        eval: local_eval,
    },
    // Written, `missing(x)` never reaches its kernel (see above); called
    // by name (`do.call`) it has no function's arguments to ask about.
    Kernel {
        name: "missing",
        params: &[DOTS],
        random: false,
        shape: missing_shape,
        eval: missing_eval,
    },
    // Written, these never reach their kernels either; called by name
    // they have no function's `...` to read.
    Kernel {
        name: "...length",
        params: &[],
        random: false,
        shape: dots_shape,
        eval: dots_eval,
    },
    Kernel {
        name: "...elt",
        params: &[opt("n")],
        random: false,
        shape: dots_shape,
        eval: dots_eval,
    },
];

/// R's error for `...length()` or `...elt(n)` where no function running
/// takes `...`.
pub const NO_DOTS: &str = "incorrect context: the current call has no '...' to look in";

fn dots_eval(_: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Err(KernelError::new(NO_DOTS))
}

fn dots_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

/// R's `local()` forces `expr` through `eval.parent`, whose own argument
/// is then missing: its message names no argument.
const LOCAL_MISSING: &str = "argument is missing, with no default";
const LOCAL_ENVIR: &str =
    "flowcast's local() evaluates in a new environment only: it takes no 'envir'";
const NOT_ARGUMENT: &str = "'missing' can only be used for arguments";

fn local_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if args.get("envir").is_some() {
        return Err(KernelError::new(LOCAL_ENVIR));
    }
    args.get("expr")
        .cloned()
        .ok_or_else(|| KernelError::new(LOCAL_MISSING))
}

fn local_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.ty("envir").is_some() {
        return Err(args.error("envir", LOCAL_ENVIR));
    }
    args.ty("expr")
        .cloned()
        .ok_or_else(|| ArgError::call(LOCAL_MISSING))
}

fn missing_eval(_: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Err(KernelError::new(NOT_ARGUMENT))
}

fn missing_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Err(ArgError::call(NOT_ARGUMENT))
}
