//! Statements: braces, local assignments and `if`, run as R runs them.
//!
//! R's braces and `if` make no scope of their own, so a statement list is
//! run flat: an inner block or the branch an `if` takes is spliced in
//! ahead of the statements after it, and an assignment binds its name for
//! everything that follows. Each binding is a new [`Scope`] in front of the
//! old one, so a value is borrowed, never copied, by the statements that
//! read it, and nothing assigned inside a step's expression (or a
//! closure's body) outlives it.

use crate::diagnostic::SourceFile;
use crate::kernels::logical::condition;
use crate::kernels::{Ctx, Value};
use crate::workflow::{Expr, ExprKind};

use super::eval::{eval, EvalError, Scope};
use super::integer::Integers;

/// Runs `items` in order and gives the last one's value (NULL when the
/// last is an `if` that took no branch, or there is none).
pub(super) fn run(
    items: &[&Expr],
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    for (k, s) in items.iter().enumerate() {
        let rest = &items[k + 1..];
        // What stands in for a branch not taken, or an empty block.
        let null = Expr {
            kind: ExprKind::Null,
            span: s.span,
        };
        match &s.kind {
            ExprKind::Assign { .. } => {
                // `a <- b <- v`: every name of the chain takes v.
                let mut names = Vec::new();
                let mut value = *s;
                while let ExprKind::Assign { name, value: v, .. } = &value.kind {
                    names.push(name.as_str());
                    value = v;
                }
                let v = eval(value, scope, ctx, file)?.into_owned();
                if rest.is_empty() {
                    return Ok(v);
                }
                let integer = Integers {
                    file,
                    steps: scope.integer_steps,
                    locals: &|n| scope.integer_local(n),
                }
                .is_integer(value);
                return bind_then_run(&names, (&v, integer), rest, scope, ctx, file);
            }
            ExprKind::Block(stmts) => {
                return run(&splice(stmts.iter(), &null, rest), scope, ctx, file);
            }
            ExprKind::If { cond, yes, no } => {
                let c = eval(cond, scope, ctx, file)?;
                let taken = condition(&c).map_err(|message| EvalError {
                    span: cond.span,
                    message: message.into(),
                })?;
                let branch = if taken { Some(&**yes) } else { no.as_deref() };
                return run(&splice(branch.into_iter(), &null, rest), scope, ctx, file);
            }
            _ if rest.is_empty() => return Ok(eval(s, scope, ctx, file)?.into_owned()),
            _ => {
                eval(s, scope, ctx, file)?;
            }
        }
    }
    Ok(Value::Null)
}

/// Runs `rest` with each of `names` bound to `value`, an R integer when
/// its flag says so.
fn bind_then_run(
    names: &[&str],
    value: (&Value, bool),
    rest: &[&Expr],
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    match names.split_first() {
        None => run(rest, scope, ctx, file),
        Some((name, others)) => bind_then_run(
            others,
            value,
            rest,
            &scope.with_local_integer(name, value.0, value.1),
            ctx,
            file,
        ),
    }
}

/// `inner` (else `null`), then `rest`.
fn splice<'e>(
    inner: impl Iterator<Item = &'e Expr>,
    null: &'e Expr,
    rest: &[&'e Expr],
) -> Vec<&'e Expr> {
    let mut next: Vec<&Expr> = inner.collect();
    if next.is_empty() {
        next.push(null);
    }
    next.extend_from_slice(rest);
    next
}
