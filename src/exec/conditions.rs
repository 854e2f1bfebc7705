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
use crate::workflow::deparse;
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
    let caught = |signal: Signal| {
        tc.handlers
            .iter()
            .find(|(class, _)| signal.caught_by(class))
            .map(|(_, h)| *h)
    };
    let raised = ctx.warnings.len();
    // Messages are kept only while a tryCatch may catch them.
    let catching = caught(Signal::Message).is_some();
    let said = ctx.messages.raised.len();
    ctx.messages.catching += usize::from(catching);
    let result = match tc.expr {
        Some(e) => eval(&e.value, scope, ctx, file),
        None => Ok(Cow::Owned(Value::Null)),
    };
    ctx.messages.catching -= usize::from(catching);
    // The first message `expr` signalled is this call's to handle; an
    // outer tryCatch sees those of an inner one that has no handler.
    let message = (catching && ctx.messages.raised.len() > said).then(|| {
        let first = ctx.messages.raised.remove(said);
        ctx.messages.raised.truncate(said);
        first
    });
    let cancelled = ctx.cancel.load(Ordering::Relaxed);
    // R's tryCatch exits at the first condition it has a handler for;
    // flowcast ran `expr` to its end, and picks that first one by order:
    // an error ends `expr`, so any warning or message came before it.
    let warning_handler = caught(Signal::Warning).filter(|_| ctx.warnings.len() > raised);
    // A message caught, and no warning caught before it.
    let message_caught = caught(Signal::Message)
        .zip(message)
        .filter(|(_, (_, warned))| warning_handler.is_none() || *warned <= raised);
    let outcome = match (result, warning_handler, message_caught) {
        _ if cancelled => Err(EvalError {
            span,
            message: "cancelled".into(),
        }),
        // `expr` ended at the message: what it warned later never was.
        (_, _, Some((h, (text, _)))) => {
            ctx.warnings.truncate(raised);
            handle(h, condition(Signal::Message, &text), scope, ctx, file)
        }
        (_, Some(h), None) => {
            let first = ctx.warnings.drain(raised..).next().map(|w| w.message);
            let cond = condition(Signal::Warning, &first.unwrap_or_default());
            handle(h, cond, scope, ctx, file)
        }
        (Err(e), None, None) => match caught(Signal::Error) {
            Some(h) => handle(h, condition(Signal::Error, &e.message), scope, ctx, file),
            None => Err(e),
        },
        (Ok(v), None, None) => Ok(v.into_owned()),
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
            let bound = function_args::bind(params, body, vec![(None, &cond)]).map_err(fail)?;
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

/// R's `try(expr, silent)` (src/library/base/R/try.R): `tryCatch(expr,
/// error = )` whose handler makes the text "Error in <call> : <message>\n"
/// of class "try-error", with the condition as its attribute. R prints
/// that text unless `silent`; flowcast's steps print nothing, so `silent`
/// changes nothing.
pub(super) fn try_<'s>(
    span: Span,
    args: &'s [Arg],
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Cow<'s, Value>, EvalError> {
    let expr = promises::try_expr(args).map_err(|message| EvalError { span, message })?;
    let Some(expr) = expr else {
        return Err(EvalError {
            span,
            message: "argument \"expr\" is missing, with no default".into(),
        });
    };
    let result = eval(&expr.value, scope, ctx, file);
    if ctx.cancel.load(Ordering::Relaxed) {
        return Err(EvalError {
            span,
            message: "cancelled".into(),
        });
    }
    let e = match result {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let whole = format!(
        "try({})",
        args.iter()
            .map(|a| match &a.name {
                Some(n) => format!("{n} = {}", deparse(&a.value)),
                None => deparse(&a.value),
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    let dcall = error_call(&expr.value, &e, whole);
    let text = try_error_text(dcall.as_deref(), &e.message);
    let cond = condition(Signal::Error, &e.message);
    let v = crate::kernels::names::with_attr(
        Value::Str(vec![text]),
        "class",
        Value::string("try-error"),
    );
    Ok(Cow::Owned(crate::kernels::names::with_attr(
        v,
        "condition",
        cond,
    )))
}

/// The call R's error would name, deparsed: the innermost call in `expr`
/// around where the error arose. `stop()` written in `expr` itself is
/// called from try's own frame, so R names the `try(...)` call (`whole`,
/// as written); `stop(call. = FALSE)` names none. An error from inside a
/// function step's body names the call of it that `expr` is.
fn error_call(expr: &crate::workflow::Expr, e: &EvalError, whole: String) -> Option<String> {
    use crate::workflow::{Expr, ExprKind};
    fn innermost<'e>(x: &'e Expr, at: Span, best: &mut Option<&'e Expr>) {
        let inside = x.span.start <= at.start && at.end <= x.span.end;
        if !inside {
            return;
        }
        if matches!(
            x.kind,
            ExprKind::Call { .. }
                | ExprKind::Binary { .. }
                | ExprKind::Unary { .. }
                | ExprKind::Index { .. }
                | ExprKind::Index2 { .. }
        ) {
            *best = Some(x);
        }
        x.visit_children(&mut |c| innermost(c, at, best));
    }
    let mut best = None;
    innermost(expr, e.span, &mut best);
    let call = match best {
        Some(c) => c,
        None if matches!(expr.kind, ExprKind::Call { .. } | ExprKind::Binary { .. }) => expr,
        None => return None,
    };
    if let ExprKind::Call { func, args, .. } = &call.kind {
        if func == "stop" {
            let no_call = args.iter().any(|a| {
                a.name.as_deref() == Some("call.") && matches!(a.value.kind, ExprKind::Bool(false))
            });
            return (!no_call).then_some(whole);
        }
    }
    let text = deparse(call);
    // An S3 generic fails in the method it dispatched to, and R names
    // that method's call: the same arguments under the method's name.
    if let ExprKind::Call { func, .. } = &call.kind {
        if let (Some(method), Some(rest)) = (default_method(func), text.strip_prefix(func.as_str()))
        {
            return Some(format!("{method}{rest}"));
        }
    }
    Some(text)
}

/// The method R's generic `func` dispatches to for flowcast's plain
/// vectors and matrices, where its errors arise.
fn default_method(func: &str) -> Option<&'static str> {
    Some(match func {
        "solve" => "solve.default",
        "chol" => "chol.default",
        "quantile" => "quantile.default",
        "median" => "median.default",
        "diff" => "diff.default",
        "scale" => "scale.default",
        "sort" => "sort.default",
        "seq" => "seq.default",
        "rev" => "rev.default",
        "unique" => "unique.default",
        "t" => "t.default",
        "determinant" => "determinant.matrix",
        _ => return None,
    })
}

/// try.R's handler: "Error in <call> : " with the message on a line of
/// its own when the two are longer than R's LONG (75, as errors.c), or
/// "Error : " without a call.
fn try_error_text(dcall: Option<&str>, message: &str) -> String {
    match dcall {
        Some(dcall) => {
            let first = message.split('\n').next().unwrap_or("");
            let w = 14 + dcall.chars().count() + first.chars().count();
            let sep = if w > 75 { "\n  " } else { "" };
            format!("Error in {dcall} : {sep}{message}\n")
        }
        None => format!("Error : {message}\n"),
    }
}
