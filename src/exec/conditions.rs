//! R's `tryCatch(expr, ..., finally)`, a special form of the evaluator: its
//! handlers are closures it calls itself, and only for a condition they
//! catch (R's tryCatch and tryCatchList, src/library/base/R/conditions.R).
//!
//! An error in `expr` goes to the first handler, in the order written,
//! whose class the error has (`simpleError`, `error`, `condition`). A
//! warning goes to the first that catches a `simpleWarning`; R leaves
//! `expr` at the warning, flowcast finishes it and drops its value (what
//! it draws after the warning is the one difference). `finally` runs last,
//! whatever happened.

use std::borrow::Cow;
use std::sync::atomic::Ordering;

use crate::diagnostic::{SourceFile, Span};
use crate::graph::{function_args, promises};
use crate::kernels::conditions::{condition, Signal};
use crate::kernels::{Ctx, Value};
use crate::workflow::{Arg, ExprKind};

use super::eval::{call, eval, run_bound, EvalError, Scope};

pub(super) fn try_catch<'s>(
    span: Span,
    args: &[Arg],
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Cow<'s, Value>, EvalError> {
    let tc = promises::try_catch_args(args).map_err(|message| EvalError { span, message })?;
    let raised = ctx.warnings.len();
    let result = match tc.expr {
        Some(e) => eval(&e.value, scope, ctx, file),
        None => Ok(Cow::Owned(Value::Null)),
    };
    let cancelled = ctx.cancel.load(Ordering::Relaxed);
    let caught = |signal: Signal| {
        tc.handlers
            .iter()
            .find(|(class, _)| signal.caught_by(class))
            .map(|(_, h)| *h)
    };
    let warning_handler = caught(Signal::Warning).filter(|_| ctx.warnings.len() > raised);
    let outcome = match (result, warning_handler) {
        _ if cancelled => Err(EvalError {
            span,
            message: "cancelled".into(),
        }),
        (_, Some(h)) => {
            let first = ctx.warnings.drain(raised..).next().map(|w| w.message);
            let cond = condition(Signal::Warning, &first.unwrap_or_default());
            handle(h, cond, scope, ctx, file)
        }
        (Err(e), None) => match caught(Signal::Error) {
            Some(h) => handle(h, condition(Signal::Error, &e.message), scope, ctx, file),
            None => Err(e),
        },
        (Ok(v), None) => Ok(v.into_owned()),
    };
    if let Some(f) = tc.finally {
        eval(&f.value, scope, ctx, file)?;
    }
    outcome.map(Cow::Owned)
}

/// Calls handler `h` (a `function(e) ...`, or a function's name) on the
/// condition.
fn handle(
    h: &Arg,
    cond: Value,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    let fail = |message: String| EvalError {
        span: h.value.span,
        message,
    };
    match &h.value.kind {
        // R calls `handler(cond)`, and names that argument when it is
        // one too many.
        ExprKind::Function { params, .. } if params.is_empty() => {
            Err(fail("unused argument (cond)".into()))
        }
        ExprKind::Function { params, body } => {
            let bound = function_args::bind(params, vec![(None, &cond)]).map_err(fail)?;
            run_bound(&bound, body, scope, ctx, file)
        }
        ExprKind::Name(n) if crate::kernels::registry().get(n).is_some() => call(
            n,
            h.value.span,
            h.value.span,
            &[],
            &[(None, Cow::Owned(cond))],
            ctx,
        ),
        _ => Err(fail("attempt to apply non-function".into())),
    }
}
