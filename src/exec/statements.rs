//! Statements: braces, local assignments, `if`, and R's sequential loops
//! (`for`, `while`, `repeat`, with `break` and `next`), run as R runs them.
//!
//! R's braces, `if` and loops make no scope of their own: an assignment
//! binds its name for every statement after it in the step's expression
//! (or the closure's body) that holds it, and a loop's body sees what its
//! previous iteration assigned. So the locals of a statement list live in
//! one [`Locals`], owned by the run and updated in place as statements
//! assign; an expression reads them through scopes chained in front of
//! the outer one for as long as it is evaluated. Nothing assigned inside
//! a step's expression outlives it.

use std::sync::atomic::Ordering;

use crate::diagnostic::{SourceFile, Span};
use crate::kernels::logical::condition;
use crate::kernels::{index, Ctx, Value};
use crate::workflow::{Expr, ExprKind};

use super::eval::{self, eval, EvalError, Scope};
use super::integer::Integers;

/// R's error for a `break` or `next` outside any loop of its function.
const NO_LOOP: &str = "no loop for break/next, jumping to top level";

/// Runs `items` in order and gives the last one's value (NULL when the
/// last is an `if` that took no branch, a loop, or there is none).
pub(super) fn run(
    items: &[&Expr],
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    let mut locals = Locals::default();
    let run = Run { scope, file };
    match run.items(items, &mut locals, ctx, true)? {
        Flow::Value(v) => Ok(v),
        Flow::Break(span) | Flow::Next(span) => Err(EvalError {
            span,
            message: NO_LOOP.into(),
        }),
    }
}

/// Runs `items` as [`run`] does and gives what they assigned, in the
/// order the names were first assigned: the columns `within` makes.
pub(super) fn assigned(
    items: &[&Expr],
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Vec<(String, Value)>, EvalError> {
    let mut locals = Locals::default();
    let run = Run { scope, file };
    match run.items(items, &mut locals, ctx, false)? {
        Flow::Value(_) => Ok(locals.vars.into_iter().map(|l| (l.name, l.value)).collect()),
        Flow::Break(span) | Flow::Next(span) => Err(EvalError {
            span,
            message: NO_LOOP.into(),
        }),
    }
}

/// The names a statement list has assigned, with their values.
#[derive(Default)]
struct Locals {
    vars: Vec<Local>,
}

struct Local {
    name: String,
    value: Value,
    /// An R integer (see `exec::integer`).
    integer: bool,
}

impl Locals {
    fn set(&mut self, name: &str, value: Value, integer: bool) {
        match self.vars.iter_mut().find(|l| l.name == name) {
            Some(l) => {
                l.value = value;
                l.integer = integer;
            }
            None => self.vars.push(Local {
                name: name.to_string(),
                value,
                integer,
            }),
        }
    }

    /// `f` of `scope` with every local in front of it.
    fn with<R>(&self, scope: &Scope, f: impl FnOnce(&Scope) -> R) -> R {
        // Chained on the stack, one frame per local: a statement runs once
        // per loop iteration, so this must not allocate.
        fn chain<R>(scope: &Scope, vars: &[Local], f: impl FnOnce(&Scope) -> R) -> R {
            match vars.split_first() {
                None => f(scope),
                Some((l, rest)) => chain(
                    &scope.with_local_integer(&l.name, &l.value, l.integer),
                    rest,
                    f,
                ),
            }
        }
        chain(scope, &self.vars, f)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Local> {
        self.vars.iter_mut().find(|l| l.name == name)
    }
}

/// How a statement list ended.
enum Flow {
    /// It ran to its end: the last statement's value.
    Value(Value),
    /// At a `break` (written at this span).
    Break(Span),
    /// At a `next`.
    Next(Span),
}

/// What every statement of a run reads besides its locals.
struct Run<'r, 's> {
    scope: &'r Scope<'s>,
    file: &'r SourceFile,
}

impl Run<'_, '_> {
    /// Runs `items`; the last one's value is kept only when `want` (a loop's
    /// body gives none, and copying it out each iteration would cost).
    fn items(
        &self,
        items: &[&Expr],
        locals: &mut Locals,
        ctx: &mut Ctx,
        want: bool,
    ) -> Result<Flow, EvalError> {
        let mut last = Value::Null;
        for (k, s) in items.iter().enumerate() {
            let want = want && k + 1 == items.len();
            last = match &s.kind {
                ExprKind::Assign { .. } => match self.assign(s, locals, ctx, want)? {
                    Flow::Value(v) => v,
                    flow => return Ok(flow),
                },
                ExprKind::Block(stmts) => {
                    let stmts: Vec<&Expr> = stmts.iter().collect();
                    match self.items(&stmts, locals, ctx, want)? {
                        Flow::Value(v) => v,
                        flow => return Ok(flow),
                    }
                }
                ExprKind::If { cond, yes, no } => {
                    let taken = self.condition(cond, locals, ctx)?;
                    match if taken { Some(&**yes) } else { no.as_deref() } {
                        Some(branch) => match self.items(&[branch], locals, ctx, want)? {
                            Flow::Value(v) => v,
                            flow => return Ok(flow),
                        },
                        None => Value::Null,
                    }
                }
                ExprKind::For { var, seq, body, .. } => {
                    self.for_loop(var, seq, body, locals, ctx)?;
                    Value::Null
                }
                ExprKind::While { cond, body } => {
                    self.while_loop(cond.as_deref(), body, locals, ctx)?;
                    Value::Null
                }
                ExprKind::Break => return Ok(Flow::Break(s.span)),
                ExprKind::Next => return Ok(Flow::Next(s.span)),
                _ => locals.with(self.scope, |sc| {
                    let v = eval(s, sc, ctx, self.file)?;
                    Ok::<_, EvalError>(if want { v.into_owned() } else { Value::Null })
                })?,
            };
        }
        Ok(Flow::Value(last))
    }

    /// `a <- b <- v`: every name of the chain takes v. A `v` that is an
    /// `if` or a block runs as a statement of this list, as in R: what it
    /// assigns stays, and a `break` or `next` in it (`y <- if (c) break
    /// else i`) leaves the loop before anything is assigned.
    fn assign(
        &self,
        s: &Expr,
        locals: &mut Locals,
        ctx: &mut Ctx,
        want: bool,
    ) -> Result<Flow, EvalError> {
        // The chain's first name, and the others (none in the common
        // `x <- v`, so no allocation per loop iteration).
        let (mut first, mut others) = ("", Vec::new());
        let mut value = s;
        while let ExprKind::Assign { name, value: v, .. } = &value.kind {
            if first.is_empty() {
                first = name.as_str();
            } else {
                others.push(name.as_str());
            }
            value = v;
        }
        let (v, integer) = match self.assign_in_place(first, value, locals, ctx)? {
            Some(made) => made,
            None if matches!(value.kind, ExprKind::If { .. } | ExprKind::Block(_)) => {
                let integer = locals.with(self.scope, |sc| self.is_integer(value, sc));
                match self.items(&[value], locals, ctx, true)? {
                    Flow::Value(v) => (Some(v), integer),
                    flow => return Ok(flow),
                }
            }
            None => locals.with(self.scope, |sc| {
                let v = eval(value, sc, ctx, self.file)?.into_owned();
                Ok::<_, EvalError>((Some(v), self.is_integer(value, sc)))
            })?,
        };
        let Some(v) = v else {
            // Set in place: the chain's first name holds the value.
            let v = match &others[..] {
                [] if !want => Value::Null,
                _ => locals
                    .get_mut(first)
                    .map_or(Value::Null, |l| l.value.clone()),
            };
            for name in &others {
                locals.set(name, v.clone(), integer);
            }
            return Ok(Flow::Value(if want { v } else { Value::Null }));
        };
        for name in &others {
            locals.set(name, v.clone(), integer);
        }
        if want {
            locals.set(first, v.clone(), integer);
            Ok(Flow::Value(v))
        } else {
            locals.set(first, v, integer);
            Ok(Flow::Value(Value::Null))
        }
    }

    /// `x[i] <- v` (the parser's `` x <- `[<-`(x, i, value = v) ``) on a
    /// local numeric vector, or `x[i, j] <- v` on a local numeric matrix:
    /// when the positions are whole, inside it, and `v` is one number, the
    /// element is set where it lies, as R does for a value nothing else
    /// holds, so a loop filling a vector is not quadratic. Otherwise `[<-`
    /// makes the new value from the arguments already evaluated (each is
    /// evaluated once whatever the path). `None` when the statement is not
    /// such an assignment.
    fn assign_in_place(
        &self,
        name: &str,
        value: &Expr,
        locals: &mut Locals,
        ctx: &mut Ctx,
    ) -> Result<Option<(Option<Value>, bool)>, EvalError> {
        let ExprKind::Call {
            func,
            func_span,
            args,
        } = &value.kind
        else {
            return Ok(None);
        };
        let array_local = |v: &Value| {
            matches!(v, Value::Named(n) if matches!(n.value, Value::Num(_)))
                && crate::kernels::arrays::array_dims(v).is_some()
        };
        let fits = func == "[<-"
            && args.len() >= 3
            && args[0].name.is_none()
            && args[1..args.len() - 1]
                .iter()
                .zip(["i", "j"])
                .all(|(a, slot)| a.name.as_deref().is_none_or(|n| n == slot))
            && args[args.len() - 1].name.as_deref() == Some("value")
            && matches!(&args[0].value.kind, ExprKind::Name(n) if n == name)
            && locals.get_mut(name).is_some_and(|l| {
                (args.len() <= 4 && matches!(l.value, Value::Num(_) | Value::Mat(_)))
                    || array_local(&l.value)
            });
        if !fits {
            return Ok(None);
        }
        let whole = |v: &Value| match v {
            Value::Num(x) if x.len() == 1 && x[0].fract() == 0.0 && x[0] >= 1.0 => {
                Some(x[0] as usize)
            }
            _ => None,
        };
        let made = locals.with(self.scope, |sc| {
            let values = eval::eval_args(func, args, sc, ctx, self.file)?;
            let integer = self.is_integer(value, sc);
            let positions: Option<Vec<usize>> = values[1..values.len() - 1]
                .iter()
                .map(|(_, v)| whole(v))
                .collect();
            let inside = match (&*values[0].1, positions.as_deref()) {
                (Value::Num(v), Some(&[i])) => i <= v.len(),
                (Value::Mat(m), Some(&[i])) => i <= m.len(),
                (Value::Mat(m), Some(&[i, j])) => i <= m.nrows() && j <= m.ncols(),
                (a @ Value::Named(_), Some(p)) => array_offset(a, p).is_some(),
                _ => false,
            };
            if let (true, Value::Num(x)) = (inside, &*values[values.len() - 1].1) {
                if x.len() == 1 {
                    return Ok((Err((positions, x[0])), integer));
                }
            }
            let call = (func.as_str(), *func_span, &args[..]);
            let (v, _) = eval::call_evaluated(value.span, call, values, sc, ctx, self.file, false)?;
            Ok::<_, EvalError>((Ok(v), integer))
        })?;
        match made {
            (Ok(v), integer) => Ok(Some((Some(v), integer))),
            (Err((positions, x)), integer) => {
                let local = locals.get_mut(name).expect("checked above");
                match (&mut local.value, positions.as_deref()) {
                    (Value::Num(v), Some(&[i])) => v[i - 1] = x,
                    (Value::Mat(m), Some(&[i])) => m.as_mut_slice()[i - 1] = x,
                    (Value::Mat(m), Some(&[i, j])) => m[(i - 1, j - 1)] = x,
                    (a @ Value::Named(_), Some(p)) => {
                        let at = array_offset(a, p);
                        if let (Some(at), Value::Named(n)) = (at, a) {
                            if let Value::Num(v) = &mut n.value {
                                v[at] = x;
                            }
                        }
                    }
                    _ => unreachable!("positions checked inside the target"),
                }
                local.integer = integer;
                Ok(Some((None, integer)))
            }
        }
    }

    fn is_integer(&self, e: &Expr, sc: &Scope) -> bool {
        Integers {
            file: self.file,
            steps: sc.integer_steps,
            locals: &|n| sc.integer_local(n),
        }
        .is_integer(e)
    }

    /// An `if`'s or a `while`'s condition, as R tests it.
    fn condition(&self, cond: &Expr, locals: &Locals, ctx: &mut Ctx) -> Result<bool, EvalError> {
        locals.with(self.scope, |sc| {
            let c = eval(cond, sc, ctx, self.file)?;
            condition(&c).map_err(|message| EvalError {
                span: cond.span,
                message: message.into(),
            })
        })
    }

    /// `for (var in seq) body`: `seq` is evaluated once, and `var` takes
    /// each of its elements in turn (a list's items; a factor's labels, as
    /// R's `for` takes them).
    fn for_loop(
        &self,
        var: &str,
        seq: &Expr,
        body: &Expr,
        locals: &mut Locals,
        ctx: &mut Ctx,
    ) -> Result<(), EvalError> {
        let (values, integer) = locals.with(self.scope, |sc| {
            let v = eval(seq, sc, ctx, self.file)?.into_owned();
            Ok::<_, EvalError>((v, self.is_integer(seq, sc)))
        })?;
        let values = match crate::kernels::names::bare(&values) {
            Value::Factor(f) => Value::Str(f.labels()),
            _ => values,
        };
        for k in 0..values.len() {
            cancelled(ctx, seq.span)?;
            match (&values, locals.get_mut(var)) {
                // A number over a plain numeric sequence: the loop
                // variable's own one-element vector takes it, no allocation.
                (Value::Num(xs), Some(l)) if matches!(&l.value, Value::Num(v) if v.len() == 1) => {
                    if let Value::Num(v) = &mut l.value {
                        v[0] = xs[k];
                    }
                    l.integer = integer;
                }
                _ => {
                    let item =
                        index::index2(&values, &Value::scalar((k + 1) as f64)).map_err(|e| {
                            EvalError {
                                span: seq.span,
                                message: e.0,
                            }
                        })?;
                    locals.set(var, item, integer);
                }
            }
            if let Flow::Break(_) = self.items(&[body], locals, ctx, false)? {
                break;
            }
        }
        Ok(())
    }

    /// `while (cond) body`, or `repeat body` without a condition.
    fn while_loop(
        &self,
        cond: Option<&Expr>,
        body: &Expr,
        locals: &mut Locals,
        ctx: &mut Ctx,
    ) -> Result<(), EvalError> {
        loop {
            cancelled(ctx, cond.map_or(body.span, |c| c.span))?;
            if let Some(c) = cond {
                if !self.condition(c, locals, ctx)? {
                    return Ok(());
                }
            }
            if let Flow::Break(_) = self.items(&[body], locals, ctx, false)? {
                return Ok(());
            }
        }
    }
}

/// The offset of the cell at the 1-based `positions` (one per dimension)
/// of a numeric array, when every one lies within its extent: `x[i, j, k]`
/// of a loop body set where it lies, as a matrix's cell is.
fn array_offset(a: &Value, positions: &[usize]) -> Option<usize> {
    if !matches!(a, Value::Named(n) if matches!(n.value, Value::Num(_))) {
        return None;
    }
    let dims = crate::kernels::arrays::array_dims(a)?;
    if dims.len() != positions.len() {
        return None;
    }
    let mut at = 0;
    let mut stride = 1;
    for (&p, &d) in positions.iter().zip(&dims) {
        if p == 0 || p > d {
            return None;
        }
        at += (p - 1) * stride;
        stride *= d;
    }
    Some(at)
}

/// A loop that may never end stops when the run is cancelled.
fn cancelled(ctx: &Ctx, span: Span) -> Result<(), EvalError> {
    if ctx.cancel.load(Ordering::Relaxed) {
        return Err(EvalError {
            span,
            message: "cancelled".into(),
        });
    }
    Ok(())
}
