//! Conditions and pass-through: `stop`, `warning`, `message`,
//! `invisible`, `identity` and `print`, so that a step can refuse its data
//! (`if (anyNA(x)) stop("x has missing values")`) as an R script does; the
//! condition objects `tryCatch` hands its handlers, and `conditionMessage`
//! and `conditionCall` to read them.
//!
//! The console functions `cat`, `message` and `writeLines` run, so that a
//! script's functions need no editing, but show nothing: steps run on many
//! workers at once, and a step's value, not its chatter, is what the run's
//! table shows. `check` and the run warn at each such call (`graph::lint`).

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
    // A written tryCatch is the evaluator's (`exec::conditions`): it calls
    // the handlers. Called by name (`do.call`), its `expr` is already a
    // value and nothing is left to catch.
    Kernel {
        name: "tryCatch",
        params: &[opt("expr"), DOTS, opt("finally")],
        random: false,
        shape: expr_shape,
        eval: expr_eval,
    },
    // A written try is the evaluator's too; called by name its `expr`
    // has already run.
    Kernel {
        name: "try",
        params: &[opt("expr"), opt("silent"), opt("outFile")],
        random: false,
        shape: expr_shape,
        eval: expr_eval,
    },
    // A written suppressWarnings drops the warnings its `expr` raised
    // (`exec::eval`); its value is `expr`'s. R's `classes` chooses which
    // warnings, and flowcast's are all simpleWarnings.
    Kernel {
        name: "suppressWarnings",
        params: &[opt("expr"), opt("classes")],
        random: false,
        shape: expr_shape,
        eval: suppress_eval,
    },
    Kernel {
        name: "suppressMessages",
        params: &[opt("expr"), opt("classes")],
        random: false,
        shape: expr_shape,
        eval: suppress_eval,
    },
    Kernel {
        name: "conditionMessage",
        params: &[req("c")],
        random: false,
        shape: message_shape,
        eval: condition_message_eval,
    },
    Kernel {
        name: "conditionCall",
        params: &[req("c")],
        random: false,
        shape: call_shape,
        eval: condition_call_eval,
    },
    Kernel {
        name: "message",
        params: &[DOTS, opt("domain"), opt("appendLF")],
        random: false,
        shape: null_shape,
        eval: message_eval,
    },
    Kernel {
        name: "cat",
        params: &[
            DOTS,
            opt("file"),
            opt("sep"),
            opt("fill"),
            opt("labels"),
            opt("append"),
        ],
        random: false,
        shape: null_shape,
        eval: cat_eval,
    },
    Kernel {
        name: "writeLines",
        params: &[opt("text"), opt("con"), opt("sep"), opt("useBytes")],
        random: false,
        shape: null_shape,
        eval: write_lines_eval,
    },
    Kernel {
        name: "flush.console",
        params: &[],
        random: false,
        shape: null_shape,
        eval: null_eval,
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

/// R's `message()` (src/library/base/R/message.R): a simpleMessage whose
/// text ends in a newline unless `appendLF = FALSE`, signalled, then
/// invisible NULL.
fn message_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let mut text = message(args)?;
    if flag(args, "appendLF")?.unwrap_or(true) {
        text.push('\n');
    }
    ctx.message(text);
    Ok(Value::Null)
}

/// An argument R's code tests with `if (x)`, and R's errors for what
/// `if` cannot test.
fn flag(args: &Args<&Value>, name: &str) -> Result<Option<bool>, KernelError> {
    let Some(v) = args.get(name) else {
        return Ok(None);
    };
    if v.is_empty() {
        return Err(KernelError::new("argument is of length zero"));
    }
    match v.as_logicals().as_deref() {
        Some([Some(b), ..]) => Ok(Some(*b)),
        Some([None, ..]) => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        _ => Err(KernelError::new("argument is not interpretable as logical")),
    }
}

/// A `file` or `con` other than the console: R would write a file, which
/// flowcast's console functions do not.
fn console_only(args: &Args<&Value>, name: &str, func: &str) -> Result<(), KernelError> {
    match args.get(name) {
        None => Ok(()),
        Some(Value::Str(f)) if f.len() == 1 && f[0].is_empty() => Ok(()),
        Some(_) => Err(KernelError::new(format!(
            "{func}() writes no files in flowcast: write.csv(x, \"x.csv\") writes a table \
             beside the workflow, and `flowcast run --out DIR` every step's value"
        ))),
    }
}

/// R's `cat()` (do_cat in src/main/builtin.c): it checks what it would
/// print, atomic vectors, names and empty objects, then prints nothing
/// here.
fn cat_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    console_only(args, "file", "cat")?;
    if let Some(sep) = args.get("sep") {
        if !matches!(sep, Value::Str(_)) {
            return Err(KernelError::new("invalid 'sep' specification"));
        }
    }
    for (k, (_, v)) in args.dots().enumerate() {
        let kind = match v {
            Value::List(l) if !l.items.is_empty() => "list",
            Value::Formula(_) => "language",
            Value::Lang(l) if !l.symbol => "language",
            _ => continue,
        };
        return Err(KernelError::new(format!(
            "argument {} (type '{kind}') cannot be handled by 'cat'",
            k + 1
        )));
    }
    Ok(Value::Null)
}

/// R's `writeLines(text)` to the console: text only.
fn write_lines_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    console_only(args, "con", "writeLines")?;
    match args.get("text") {
        Some(Value::Str(_)) | None => {}
        Some(Value::Named(n)) if matches!(n.value, Value::Str(_)) => {}
        Some(_) => return Err(KernelError::new("can only write character objects")),
    }
    if let Some(sep) = args.get("sep") {
        if !matches!(sep, Value::Str(s) if s.len() == 1) {
            return Err(KernelError::new("invalid 'sep' argument"));
        }
    }
    Ok(Value::Null)
}

fn null_eval(_: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::Null)
}

fn null_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Null)
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

/// The kind of condition a handler of `tryCatch` may catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Error,
    Warning,
    Message,
}

impl Signal {
    /// R's class of the condition: `stop` and R's own errors signal a
    /// `simpleError`, `warning` a `simpleWarning`.
    pub fn class(self) -> &'static str {
        match self {
            Signal::Error => "simpleError",
            Signal::Warning => "simpleWarning",
            Signal::Message => "simpleMessage",
        }
    }

    /// Whether a handler established for `class` catches this condition
    /// (`class(cond)` holds it).
    pub fn caught_by(self, class: &str) -> bool {
        super::class::condition_classes(self.class()).contains(&class)
    }
}

/// The condition object R hands a handler: its `message` and `call` (the
/// call is not kept: NULL).
pub fn condition(signal: Signal, message: &str) -> Value {
    Value::List(crate::kernels::value::List::record(
        signal.class(),
        vec![("message", Value::string(message)), ("call", Value::Null)],
    ))
}

/// The type of [`condition`].
pub fn condition_type(signal: Signal) -> Type {
    Type::record(
        signal.class(),
        vec![
            (
                "message",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("call", Type::Null),
        ],
    )
}

/// R's `conditionMessage(c)`, the default method: `c$message`.
fn condition_message_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    field(args, "message")
}

fn condition_call_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    field(args, "call")
}

fn field(args: &Args<&Value>, name: &str) -> Result<Value, KernelError> {
    match args.get("c") {
        Some(c @ Value::List(_)) => crate::kernels::index::field(c, name),
        Some(c) => Err(KernelError::new(format!(
            "$ operator is invalid for atomic vectors ({})",
            c.type_name()
        ))),
        None => Err(KernelError::new(
            "argument \"c\" is missing, with no default",
        )),
    }
}

fn call_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

fn expr_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(args.get("expr").cloned().unwrap_or(Value::Null))
}

/// R's suppressWarnings and suppressMessages evaluate `expr` when they
/// run, so a missing one is R's error for a missing argument.
fn suppress_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    args.get("expr")
        .cloned()
        .ok_or_else(|| KernelError::new("argument \"expr\" is missing, with no default"))
}

fn expr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("expr").cloned().unwrap_or(Type::Null))
}
