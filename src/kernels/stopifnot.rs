//! `stopifnot(...)`: R 4.2.2's stopifnot (base/R/stop.R). Each argument
//! must be a logical vector without NA whose elements are all TRUE; the
//! first that is not stops the step with R's message: its name when it
//! has one, "all.equal's two arguments are not equal" with the first
//! three differences for an `all.equal(a, b)`, else the argument as
//! written and "is not TRUE" (one element) or "are not all TRUE".
//!
//! R evaluates the arguments one at a time and stops at the first that
//! fails; flowcast evaluates every argument first, so an argument that
//! itself fails after an earlier one that is not TRUE reports its own
//! error. `exprs` and `exprObject` (unevaluated code) are not taken.

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS, STOPIFNOT_TEXTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "stopifnot",
    params: &[DOTS, opt("exprs"), opt("exprObject"), opt("local")],
    random: false,
    shape,
    eval,
}];

/// `is.logical(r) && !anyNA(r) && all(r)`.
fn holds(v: &Value) -> bool {
    match bare(v) {
        Value::Bool(b) => b.iter().all(|b| *b == Some(true)),
        Value::BoolMat(b) => b.iter().all(|b| *b == Some(true)),
        _ => false,
    }
}

/// R's `abbrev(ae)`: all.equal's first three differences, one a line.
fn abbrev(r: &Value) -> String {
    let msgs: Vec<String> = match bare(r) {
        Value::Str(s) => s.clone(),
        _ => Vec::new(),
    };
    let mut parts: Vec<String> = msgs.iter().take(3).cloned().collect();
    if msgs.len() > 3 {
        parts.push("....".into());
    }
    parts.join("\n  ")
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    for name in ["exprs", "exprObject"] {
        if args.has(name) {
            return Err(KernelError::new(format!(
                "stopifnot({name} = ) is not supported: flowcast has no unevaluated code; \
                 give the conditions as arguments"
            )));
        }
    }
    let texts: Vec<String> = args
        .dots()
        .find(|(n, _)| *n == Some(STOPIFNOT_TEXTS))
        .and_then(|(_, v)| match v {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let dots = args.dots().filter(|(n, _)| *n != Some(STOPIFNOT_TEXTS));
    for (i, (name, r)) in dots.enumerate() {
        if holds(r) {
            continue;
        }
        let msg = match name {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => {
                let text = texts.get(i).cloned().unwrap_or_default();
                match text.split_once('\0') {
                    Some((a, b)) => format!("{a} and {b} are not equal:\n  {}", abbrev(r)),
                    None if r.len() == 1 => format!("{text} is not TRUE"),
                    None => format!("{text} are not all TRUE"),
                }
            }
        };
        return Err(KernelError::new(msg));
    }
    Ok(Value::Null)
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Null)
}
