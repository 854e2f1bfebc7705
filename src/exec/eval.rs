//! The expression evaluator: one step's expression, given the values of the
//! steps it reads. Values of other steps are borrowed, never copied.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::diagnostic::{SourceFile, Span};
use crate::graph::formula_terms;
use crate::kernels::value::{Formula, NA};
use crate::kernels::{alloc, index, path, registry, Args, Ctx, KernelError, Value, Warning};
use crate::workflow::{Arg, BinaryOp, Expr, ExprKind, UnaryOp};

use super::integer::{self, Integers};

/// A failure while evaluating: where and why.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub span: Span,
    pub message: String,
}

/// The names an expression can read: other steps' values and, inside a
/// loop body, the loop variable.
pub struct Scope<'a> {
    pub steps: &'a HashMap<String, Arc<Value>>,
    pub local: Option<(&'a str, &'a Value)>,
    /// The steps whose values are R integers (see [`integer`]).
    pub integer_steps: &'a HashSet<String>,
    /// The loop variable runs over integers (`i in 1:n`).
    pub local_integer: bool,
}

impl Scope<'_> {
    fn lookup(&self, name: &str) -> Option<&Value> {
        match self.local {
            Some((n, v)) if n == name => Some(v),
            _ => self.steps.get(name).map(|v| &**v),
        }
    }
}

/// Evaluates `e`. `file` is only used to label formula terms.
pub fn eval<'s>(
    e: &Expr,
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Cow<'s, Value>, EvalError> {
    let err = |span: Span, message: String| EvalError { span, message };
    Ok(match &e.kind {
        ExprKind::Num(x) => Cow::Owned(Value::scalar(*x)),
        ExprKind::Str(s) => Cow::Owned(Value::string(s)),
        ExprKind::Bool(b) => Cow::Owned(Value::Bool(vec![*b])),
        ExprKind::Null => Cow::Owned(Value::Null),
        ExprKind::Na => Cow::Owned(Value::scalar(NA)),
        ExprKind::Name(n) => Cow::Borrowed(
            scope
                .lookup(n)
                .ok_or_else(|| err(e.span, format!("object `{n}` not found")))?,
        ),
        ExprKind::Call {
            func,
            func_span,
            args,
        } => {
            let values = args
                .iter()
                .map(|a| Ok((a.name.clone(), eval(&a.value, scope, ctx, file)?)))
                .collect::<Result<Vec<_>, EvalError>>()?;
            Cow::Owned(call(func, *func_span, e.span, args, &values, ctx)?)
        }
        ExprKind::Unary { op, expr } => {
            let v = eval(expr, scope, ctx, file)?;
            let name = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
            };
            Cow::Owned(call(name, e.span, e.span, &[], &[(None, v)], ctx)?)
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let l = eval(lhs, scope, ctx, file)?;
            let r = eval(rhs, scope, ctx, file)?;
            let mut v = call(
                op.symbol(),
                e.span,
                e.span,
                &[],
                &[(None, l), (None, r)],
                ctx,
            )?;
            if matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul) {
                integer_overflow(&mut v, lhs, rhs, scope, ctx, file, e);
            }
            Cow::Owned(v)
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            let t = eval(target, scope, ctx, file)?;
            let extents = index::extents(&t, indices.len());
            let idx = indices
                .iter()
                .zip(extents)
                .map(|(i, n)| {
                    i.as_ref()
                        .map(|i| {
                            if i.is_logical_na(file) {
                                return Ok(index::logical_na(n));
                            }
                            eval(i, scope, ctx, file).map(Cow::into_owned)
                        })
                        .transpose()
                })
                .collect::<Result<Vec<_>, EvalError>>()?;
            let drop = match drop {
                Some(d) => {
                    index::drop_flag(&*eval(d, scope, ctx, file)?).map_err(|k| err(d.span, k.0))?
                }
                None => true,
            };
            Cow::Owned(index::index_drop(&t, &idx, drop).map_err(|k| err(e.span, k.0))?)
        }
        ExprKind::Index2 {
            target,
            index: i,
            column,
        } => {
            let t = eval(target, scope, ctx, file)?;
            let iv = eval(i, scope, ctx, file)?;
            let v = match column {
                Some(j) => {
                    let jv = eval(j, scope, ctx, file)?;
                    index::index2_matrix(&t, &iv, &jv)
                }
                None => index::index2(&t, &iv),
            };
            Cow::Owned(v.map_err(|k| err(e.span, k.0))?)
        }
        ExprKind::Field { target, name, .. } => {
            let t = eval(target, scope, ctx, file)?;
            Cow::Owned(index::field(&t, name).map_err(|k| err(e.span, k.0))?)
        }
        ExprKind::Formula { lhs, rhs } => {
            let response = match lhs {
                Some(l) => Some(Box::new(eval(l, scope, ctx, file)?.into_owned())),
                None => None,
            };
            let (terms, intercept) = formula_terms(rhs);
            let terms = terms
                .into_iter()
                .map(|t| {
                    let label = crate::graph::term_label(file, t.span);
                    Ok((label, eval(t, scope, ctx, file)?.into_owned()))
                })
                .collect::<Result<Vec<_>, EvalError>>()?;
            Cow::Owned(Value::Formula(Formula {
                response,
                terms,
                intercept,
            }))
        }
    })
}

/// R's integer overflow of `lhs op rhs`, whose value is `v`: asked only
/// when a value is out of integer range, so double arithmetic pays nothing.
fn integer_overflow(
    v: &mut Value,
    lhs: &Expr,
    rhs: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    e: &Expr,
) {
    let data = match v {
        Value::Num(d) => d.as_mut_slice(),
        Value::Mat(m) => m.as_mut_slice(),
        _ => return,
    };
    if !data.iter().any(|x| x.abs() > integer::INT_MAX) {
        return;
    }
    let ints = Integers {
        file,
        steps: scope.integer_steps,
        local: scope.local.filter(|_| scope.local_integer).map(|(n, _)| n),
    };
    if ints.is_integer(lhs) && ints.is_integer(rhs) && integer::overflow(data) {
        ctx.warnings.push(Warning {
            message: integer::OVERFLOW.into(),
            at: Some((e.span.start, e.span.end)),
        });
    }
}

/// [`eval`] of a step's expression, also giving the algorithm path its
/// outermost call took where R decides it on the data
/// ([`path::taken`](crate::kernels::path::taken)).
pub fn eval_traced(
    e: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<(Value, Option<String>), EvalError> {
    let ExprKind::Call {
        func,
        func_span,
        args,
    } = &e.kind
    else {
        return Ok((eval(e, scope, ctx, file)?.into_owned(), None));
    };
    let values = args
        .iter()
        .map(|a| Ok((a.name.clone(), eval(&a.value, scope, ctx, file)?)))
        .collect::<Result<Vec<_>, EvalError>>()?;
    call_traced(func, *func_span, e.span, args, &values, ctx, true)
}

/// Calls kernel `func` on already evaluated arguments. `args` are the
/// written arguments (for error spans); operators pass none.
fn call(
    func: &str,
    func_span: Span,
    call_span: Span,
    args: &[Arg],
    values: &[(Option<String>, Cow<Value>)],
    ctx: &mut Ctx,
) -> Result<Value, EvalError> {
    call_traced(func, func_span, call_span, args, values, ctx, false).map(|(v, _)| v)
}

/// [`call`], with the path taken when `trace`.
fn call_traced(
    func: &str,
    func_span: Span,
    call_span: Span,
    args: &[Arg],
    values: &[(Option<String>, Cow<Value>)],
    ctx: &mut Ctx,
    trace: bool,
) -> Result<(Value, Option<String>), EvalError> {
    let kernel = registry().get(func).ok_or_else(|| EvalError {
        span: func_span,
        message: format!("could not find function `{func}`"),
    })?;
    let given: Vec<(Option<String>, &Value)> =
        values.iter().map(|(n, v)| (n.clone(), &**v)).collect();
    // The result must fit before the kernel makes it: Rust aborts the
    // process on a failed allocation, R fails the call.
    let room = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        alloc::room_for_result(kernel, &given, ctx.base_dir)
    }))
    .unwrap_or(Ok(()));
    room.map_err(|e| EvalError {
        span: call_span,
        message: e.0,
    })?;
    let matched = Args::match_call(kernel.name, kernel.params, given).map_err(|e| EvalError {
        span: e
            .arg
            .and_then(|i| args.get(i))
            .map_or(call_span, |a| a.span),
        message: e.message,
    })?;
    let raised = ctx.warnings.len();
    // A kernel bug must fail its step, not take down a worker and leave the
    // run waiting forever for the step's value.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        (kernel.eval)(&matched, ctx)
    }))
    .unwrap_or_else(|panic| {
        Err(KernelError::new(format!(
            "internal error in {func}() (a flowcast bug, please report it): {}",
            panic_message(&*panic)
        )))
    });
    // R names the call a warning came from; the innermost call that raised
    // it is the one the user can find.
    for w in ctx.warnings.iter_mut().skip(raised) {
        w.at.get_or_insert((call_span.start, call_span.end));
    }
    let value = result.map_err(|e| EvalError {
        span: call_span,
        message: e.0,
    })?;
    let path = if trace {
        path::taken(kernel.name, &matched, &value)
    } else {
        None
    };
    Ok((value, path))
}

/// What a caught panic said, when it said it as text.
pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}
