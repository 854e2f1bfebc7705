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
use crate::kernels::{names, Ctx, Value};
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

/// `if`'s condition as R reads it (`asLogicalNoNA` in R's eval.c): one
/// value, not NA; numbers are TRUE when not 0, strings only when R's
/// logical spellings.
pub fn condition(v: &Value) -> Result<bool, &'static str> {
    let v = names::bare(v);
    if v.is_empty() {
        return Err("argument is of length zero");
    }
    if v.len() > 1 {
        return Err("the condition has length > 1");
    }
    let not_logical = "argument is not interpretable as logical";
    let b = match v {
        Value::Bool(_) | Value::BoolMat(_) => v.as_logicals().and_then(|l| l[0]),
        Value::Num(_) | Value::Mat(_) => v
            .as_f64_slice()
            .and_then(|x| (!x[0].is_nan()).then_some(x[0] != 0.0)),
        // R reads a factor as its 1-based codes: never 0.
        Value::Factor(f) => f.codes[0].map(|_| true),
        Value::Str(s) => match s[0].as_str() {
            "TRUE" | "true" | "True" | "T" => Some(true),
            "FALSE" | "false" | "False" | "F" => Some(false),
            _ => return Err(not_logical),
        },
        _ => return Err(not_logical),
    };
    match (b, v) {
        (Some(b), _) => Ok(b),
        (None, Value::Bool(_) | Value::BoolMat(_)) => Err("missing value where TRUE/FALSE needed"),
        (None, _) => Err(not_logical),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_r_reads_them() {
        assert_eq!(condition(&Value::scalar(2.5)), Ok(true));
        assert_eq!(condition(&Value::scalar(0.0)), Ok(false));
        assert_eq!(condition(&Value::string("T")), Ok(true));
        let first_level = crate::kernels::value::Factor {
            codes: vec![Some(0)],
            levels: vec!["a".into()],
        };
        assert_eq!(condition(&Value::Factor(first_level)), Ok(true));
        assert_eq!(condition(&Value::string("false")), Ok(false));
        assert_eq!(
            condition(&Value::string("yes")),
            Err("argument is not interpretable as logical")
        );
        assert_eq!(
            condition(&Value::Bool(vec![None])),
            Err("missing value where TRUE/FALSE needed")
        );
        assert_eq!(
            condition(&Value::scalar(f64::NAN)),
            Err("argument is not interpretable as logical")
        );
        assert_eq!(
            condition(&Value::Num(vec![])),
            Err("argument is of length zero")
        );
        assert_eq!(
            condition(&Value::Bool(vec![Some(true), Some(false)])),
            Err("the condition has length > 1")
        );
    }
}
