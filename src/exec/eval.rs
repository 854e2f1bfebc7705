//! The expression evaluator: one step's expression, given the values of the
//! steps it reads. Values of other steps are borrowed, never copied.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::diagnostic::{SourceFile, Span};
use crate::graph::formula::{self, Variable};
use crate::graph::function_args::{self, Bound};
use crate::graph::promises;
use crate::kernels::value::{Formula, List, NA};
use crate::kernels::{
    alloc, frame, fun, index, logical, model_matrix, names, path, registry, splines, switch, Args,
    Ctx, KernelError, Value, Warning,
};
use crate::workflow::{binding, deparse, Arg, BinaryOp, Expr, ExprKind, Param};

use super::integer::{self, Integers};

mod call_text;
mod date_methods;
mod nls;
mod update;

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
    /// Inside a closure's body: the scope around it, whose names the
    /// parameter in `local` shadows.
    pub outer: Option<&'a Scope<'a>>,
    /// The function whose body this scope runs, for the body's calls of
    /// itself (see [`recall`]).
    pub running: Option<Running<'a>>,
}

/// A function being run: its name, parameters and body, and the body's
/// height, measured at its first call of itself (see [`recall`]).
#[derive(Clone, Copy)]
pub struct Running<'a> {
    name: &'a str,
    params: &'a [Param],
    body: &'a Expr,
    height: &'a std::cell::OnceCell<usize>,
}

impl<'a> Scope<'a> {
    /// This scope with `name` bound to `value` in front of it.
    pub fn with_local(&'a self, name: &'a str, value: &'a Value) -> Scope<'a> {
        Scope {
            steps: self.steps,
            local: Some((name, value)),
            integer_steps: self.integer_steps,
            local_integer: false,
            outer: Some(self),
            running: None,
        }
    }

    /// The scope a call of function `running` runs its body in: this one,
    /// where the function was put in place, marked as running it.
    fn running(&'a self, running: Running<'a>) -> Scope<'a> {
        Scope {
            steps: self.steps,
            local: None,
            integer_steps: self.integer_steps,
            local_integer: false,
            outer: Some(self),
            running: Some(running),
        }
    }

    /// The innermost call of the function `name` being run, and its scope.
    fn running_scope(&self, name: &str) -> Option<(&Scope<'a>, Running<'a>)> {
        match self.running {
            Some(r) if r.name == name => Some((self, r)),
            _ => self.outer?.running_scope(name),
        }
    }

    /// This scope with `name` bound to `value`, an R integer when
    /// `integer` (a statement's `n <- length(x)`).
    pub fn with_local_integer(
        &'a self,
        name: &'a str,
        value: &'a Value,
        integer: bool,
    ) -> Scope<'a> {
        Scope {
            local_integer: integer,
            ..self.with_local(name, value)
        }
    }

    /// Whether the innermost local named `name` holds an R integer; `None`
    /// when no local has that name.
    pub fn integer_local(&self, name: &str) -> Option<bool> {
        match (self.local, self.outer) {
            (Some((n, _)), _) if n == name => Some(self.local_integer),
            (_, Some(o)) => o.integer_local(name),
            _ => None,
        }
    }

    /// `missing(name)`: `Some(true)` when the innermost of `name` and its
    /// `marker` is the marker, `Some(false)` when it is a local or step of
    /// that name, `None` when neither is bound (R's constants are not
    /// arguments).
    fn missing(&self, name: &str, marker: &str) -> Option<bool> {
        match (self.local, self.outer) {
            (Some((n, _)), _) if n == marker => Some(true),
            (Some((n, _)), _) if n == name => Some(false),
            (_, Some(o)) => o.missing(name, marker),
            _ => self.steps.contains_key(name).then_some(false),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        match (self.local, self.outer) {
            (Some((n, v)), _) if n == name => Some(v),
            (_, Some(o)) => o.lookup(name),
            _ => self
                .steps
                .get(name)
                .map(|v| &**v)
                .or_else(|| crate::kernels::constants::constant(name)),
        }
    }
}

/// `f` of `scope` with each of `vars` (name, value, whether an R integer)
/// bound in front of it, the last innermost.
pub(super) fn bind_all<R>(
    scope: &Scope,
    vars: &[(&str, &Value, bool)],
    f: impl FnOnce(&Scope) -> R,
) -> R {
    match vars.split_first() {
        None => f(scope),
        Some(((name, value, integer), rest)) => {
            bind_all(&scope.with_local_integer(name, value, *integer), rest, f)
        }
    }
}

/// R's error on evaluating an empty argument.
const MISSING: &str = "argument is missing, with no default";

/// Evaluates `e`, read from `file`.
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
        ExprKind::Bool(b) => Cow::Owned(Value::flag(*b)),
        ExprKind::Null => Cow::Owned(Value::Null),
        ExprKind::Missing => return Err(err(e.span, MISSING.into())),
        // R's `NA` is logical; `NA_real_` and `NA_integer_` are numbers.
        ExprKind::Na if e.is_logical_na(file) => Cow::Owned(Value::Bool(vec![None])),
        ExprKind::Na => Cow::Owned(Value::scalar(NA)),
        ExprKind::Name(n) => match scope.lookup(n) {
            Some(v) if std::ptr::eq(v, &MISSING_ARG) => {
                return Err(err(
                    e.span,
                    format!("argument \"{n}\" is missing, with no default"),
                ))
            }
            Some(v) => Cow::Borrowed(v),
            None if crate::workflow::is_dots_element(n) => {
                return Err(err(e.span, dots_element_missing(n, scope)))
            }
            None => return Err(err(e.span, format!("object `{n}` not found"))),
        },
        ExprKind::Call { func, args, .. } if func == crate::workflow::RECALL => {
            Cow::Owned(recall(args, e.span, scope, ctx, file)?)
        }
        ExprKind::Call {
            func,
            func_span,
            args,
        } => {
            let args = expand_dots(args, scope)?;
            let call = (func.as_str(), *func_span, &args[..]);
            Cow::Owned(eval_call(e.span, call, scope, ctx, file, false)?.0)
        }
        ExprKind::Unary { op, expr } => {
            let v = eval(expr, scope, ctx, file)?;
            Cow::Owned(call(op.symbol(), e.span, e.span, &[], &[(None, v)], ctx)?)
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let l = eval(lhs, scope, ctx, file)?;
            if let Some(decided) = short_circuit(*op, &l, ctx).map_err(|k| err(e.span, k.0))? {
                return Ok(Cow::Owned(Value::flag(decided)));
            }
            let r = eval(rhs, scope, ctx, file)?;
            let mut v = operate(*op, e.span, l, r, ctx)?;
            match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => {
                    integer_overflow(&mut v, lhs, rhs, scope, ctx, file, e)
                }
                BinaryOp::IntDiv | BinaryOp::Mod => integer_by_zero(&mut v, lhs, rhs, scope, file),
                _ => {}
            }
            Cow::Owned(v)
        }
        ExprKind::Index {
            target,
            indices,
            drop,
        } => {
            let t = eval(target, scope, ctx, file)?;
            if let (Value::Num(x), [Some(i)], None) = (&*t, &indices[..], drop) {
                if let Some((lhs, rhs)) = i.range_ends() {
                    // `x[a:b]` in a loop body: a slice of x, without the
                    // vector a:b (28 % of `sum(x[1:n])`'s time went to
                    // building it and checking it runs up by one).
                    let l = eval(lhs, scope, ctx, file)?;
                    let r = eval(rhs, scope, ctx, file)?;
                    if let Some(run) = index::range_run(&l, &r, x.len()) {
                        return Ok(Cow::Owned(Value::Num(x[run].to_vec())));
                    }
                    let range = operate(BinaryOp::Range, i.span, l, r, ctx)?;
                    let v = index::index_drop(&t, &[Some(range)], true);
                    return Ok(Cow::Owned(v.map_err(|k| err(e.span, k.0))?));
                }
            }
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
            if let ([Some(Value::Num(k))], Value::Num(x), None) = (&idx[..], &*t, drop) {
                if let Some(v) = index::element(x, k) {
                    return Ok(Cow::Owned(v));
                }
            }
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
            let mut unknown = false;
            e.visit_names(&mut |n, _| {
                unknown |= n != "." && scope.lookup(n).is_none();
            });
            if unknown {
                // A formula no call reads yet (`f = 'y ~ g'`, see
                // `graph::formula::loose_formula_spans`): kept as its text,
                // as R keeps it unevaluated, until a model function reads
                // it among its data.
                Cow::Owned(
                    crate::kernels::formula_text::from_text(&deparse(e))
                        .map_err(|k| err(e.span, k.0))?,
                )
            } else {
                Cow::Owned(eval_formula(lhs.as_deref(), rhs, scope, ctx, file, None)?)
            }
        }
        ExprKind::Block(_)
        | ExprKind::Assign { .. }
        | ExprKind::If { .. }
        | ExprKind::For { .. }
        | ExprKind::While { .. }
        | ExprKind::Break
        | ExprKind::Next => Cow::Owned(super::statements::run(&[e], scope, ctx, file)?),
        ExprKind::Apply {
            func,
            params,
            body,
            args,
            ..
        } => {
            let height = std::cell::OnceCell::new();
            let running = Running {
                name: func,
                params,
                body,
                height: &height,
            };
            Cow::Owned(apply(
                running,
                args,
                e.span,
                scope,
                &scope.running(running),
                ctx,
                file,
            )?)
        }
        // `check` refuses these (`function_args::closure_arg`).
        ExprKind::Function { .. } => {
            return Err(err(
                e.span,
                "a function(...) is a value only as the function argument of sapply, \
                 Reduce, mapply and the like"
                    .into(),
            ))
        }
    })
}

/// A call of function `f` with `args` (evaluated in `scope`), its body run
/// in `home`: the scope marked as running `f`.
fn apply<'a>(
    f: Running<'a>,
    args: &[Arg],
    span: Span,
    scope: &Scope,
    home: &'a Scope<'a>,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    let args = expand_dots(args, scope)?;
    let values = args
        .iter()
        .map(|a| Ok((a.name.clone(), eval(&a.value, scope, ctx, file)?)))
        .collect::<Result<Vec<_>, EvalError>>()?;
    let given = values.iter().map(|(n, v)| (n.clone(), &**v)).collect();
    let bound = function_args::bind(f.params, f.body, given)
        .map_err(|message| EvalError { span, message })?;
    run_bound(&bound, f.body, home, ctx, file)
}

thread_local! {
    /// How deep this thread's calls of functions by themselves are nested.
    static RECALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A function's call of itself (`workflow::RECALL`: the function's name,
/// then the call's arguments): its body runs again, in the scope its
/// innermost running call has, so it sees what that call saw, not the
/// locals of the call it is made from. Each level nests the evaluator
/// once more around the body: past `MAX_DEPTH` operations in all, it is
/// R's error for infinite recursion, not a stack overflow.
fn recall(
    args: &[Arg],
    span: Span,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    let err = |message: &str| EvalError {
        span,
        message: message.into(),
    };
    let running = match args.first().map(|a| &a.value.kind) {
        Some(ExprKind::Str(name)) => scope.running_scope(name),
        _ => None,
    };
    let Some((home, f)) = running else {
        return Err(err("'Recall' called from outside a closure"));
    };
    let rest = args.get(1..).unwrap_or_default();
    let per_level = *f
        .height
        .get_or_init(|| crate::workflow::depth::height(f.body))
        + 1;
    let depth = RECALLS.with(|d| d.get()) + 1;
    if depth.saturating_mul(per_level) > crate::workflow::depth::MAX_DEPTH {
        return Err(err(
            "evaluation nested too deeply: infinite recursion / options(expressions=)?",
        ));
    }
    RECALLS.with(|d| d.set(depth));
    let r = apply(f, rest, span, scope, home, ctx, file);
    RECALLS.with(|d| d.set(depth - 1));
    r
}

/// The closures a call to `func` takes, if any, and their arguments' indices.
fn closure<'e>(func: &str, args: &'e [Arg]) -> Result<function_args::Closures<'e>, EvalError> {
    function_args::closure(func, args).map_err(|(span, message)| EvalError { span, message })
}

/// Runs `kernel_call`, handing it the call's closures (`params`, `body`),
/// if any, in its context (see `kernels::fun`). A closure's body is
/// evaluated in `scope` with its parameters bound; an error inside it is
/// reported where it happened, not at the call.
fn call_with<T>(
    closures: [Option<function_args::ClosureParts>; 2],
    scope: &Scope,
    file: &SourceFile,
    ctx: &mut Ctx,
    kernel_call: impl FnOnce(&mut Ctx) -> Result<T, EvalError>,
) -> Result<T, EvalError> {
    if closures.iter().all(Option::is_none) {
        return kernel_call(ctx);
    }
    let failure: std::cell::RefCell<Option<EvalError>> = std::cell::RefCell::new(None);
    let [first, second] = closures;
    let run = first.map(|c| runner(c, scope, file, &failure));
    let run2 = second.map(|c| runner(c, scope, file, &failure));
    let mut inner = Ctx {
        rng: &mut *ctx.rng,
        base_dir: ctx.base_dir,
        cancel: ctx.cancel,
        warnings: std::mem::take(&mut ctx.warnings),
        closure: run.as_ref().map(|r| r as fun::Closure),
        closure2: run2.as_ref().map(|r| r as fun::Closure),
        integers: std::mem::take(&mut ctx.integers),
        messages: std::mem::take(&mut ctx.messages),
    };
    let r = kernel_call(&mut inner);
    ctx.warnings = inner.warnings;
    ctx.messages = inner.messages;
    r.map_err(|e| failure.borrow_mut().take().unwrap_or(e))
}

/// A closure's body as a kernel runs it (see [`call_with`]); its first
/// error is kept in `failure`, to be reported where it happened.
// An `impl Fn` has no alias to name it by.
#[allow(clippy::type_complexity)]
fn runner<'a>(
    (params, body): function_args::ClosureParts<'a>,
    scope: &'a Scope,
    file: &'a SourceFile,
    failure: &'a std::cell::RefCell<Option<EvalError>>,
) -> impl Fn(Vec<(Option<String>, &Value)>, &mut Ctx) -> Result<Value, KernelError> + 'a {
    move |given, ctx| {
        let bound = function_args::bind(params, body, given).map_err(KernelError::new)?;
        // The body's own calls take no closure but their own.
        let own = (ctx.closure.take(), ctx.closure2.take());
        let r = run_bound(&bound, body, scope, ctx, file);
        (ctx.closure, ctx.closure2) = own;
        r.map_err(|e| {
            let message = e.message.clone();
            failure.borrow_mut().get_or_insert(e);
            KernelError::new(message)
        })
    }
}

/// A function's `body` run with its parameters `bound` (see
/// `function_args::bind`). What its `...` took is bound as R names it,
/// `..1`, `..2`, …, and `...` itself to their names, which a call's
/// `...` expands to (see [`expand_dots`]).
pub(super) fn run_bound(
    bound: &Bound<'_, &Value>,
    body: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    if !bound.has_dots {
        return run_params(&bound.params, body, scope, ctx, file);
    }
    let names = Value::Str(
        bound
            .dots
            .iter()
            .map(|(n, _)| n.clone().unwrap_or_default())
            .collect(),
    );
    let at: Vec<String> = (1..=bound.dots.len()).map(|k| format!("..{k}")).collect();
    let dots: Vec<(&str, &Value)> = std::iter::once((crate::workflow::DOTS, &names))
        .chain(
            at.iter()
                .map(String::as_str)
                .zip(bound.dots.iter().map(|(_, v)| *v)),
        )
        .collect();
    with_bindings(scope, &dots, &mut |s| {
        run_params(&bound.params, body, s, ctx, file)
    })
}

/// R's error for reading `..k` where `...` took fewer values, or where no
/// function running takes `...`.
fn dots_element_missing(name: &str, scope: &Scope) -> String {
    match scope.lookup(crate::workflow::DOTS) {
        Some(_) => format!("the ... list contains fewer than {} elements", &name[2..]),
        None => format!("{name} used in an incorrect context, no ... to look in"),
    }
}

/// R's `...length()` and `...elt(n)`: how many values the running
/// function's `...` took, and the `n`th of them.
fn dots_call(
    func: &str,
    span: Span,
    args: &[Arg],
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    let err = |message: String| EvalError { span, message };
    let Some(Value::Str(names)) = scope.lookup(crate::workflow::DOTS) else {
        return Err(err(crate::kernels::scoping::NO_DOTS.into()));
    };
    if func == "...length" {
        return match args {
            [] => Ok(Value::scalar(names.len() as f64)),
            _ => Err(err(format!("unused argument{}", plural(args.len())))),
        };
    }
    let [n] = args else {
        return Err(err(match args {
            [] => "argument \"n\" is missing, with no default".into(),
            _ => format!("unused argument{}", plural(args.len() - 1)),
        }));
    };
    let k = eval(&n.value, scope, ctx, file)?;
    let k = match k.as_scalar() {
        Some(k) if k.is_finite() && k >= 1.0 => k.trunc() as usize,
        _ => return Err(err("indexing '...' with an invalid index".into())),
    };
    let name = format!("..{k}");
    match scope.lookup(&name) {
        Some(v) if k <= names.len() => Ok(v.clone()),
        _ => Err(err(dots_element_missing(&name, scope))),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `args` with each `...` among them replaced by what the running
/// function's `...` took (see [`run_bound`]). R's error where no function
/// running takes `...`.
fn expand_dots<'a>(args: &'a [Arg], scope: &Scope) -> Result<Cow<'a, [Arg]>, EvalError> {
    if !binding::passes_dots(args) {
        return Ok(Cow::Borrowed(args));
    }
    match scope.lookup(crate::workflow::DOTS) {
        Some(Value::Str(names)) => Ok(Cow::Owned(binding::expand_dots(args, names))),
        _ => Err(EvalError {
            span: args
                .iter()
                .find(|a| matches!(&a.value.kind, ExprKind::Name(n) if n == crate::workflow::DOTS))
                .map_or(Span::default(), |a| a.span),
            message: "'...' used in an incorrect context".into(),
        }),
    }
}

/// [`run_bound`] for the parameters but `...`: the defaults of those given
/// no argument are evaluated first, seeing the arguments given.
fn run_params(
    bound: &[(&Param, Option<&Value>)],
    body: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Value, EvalError> {
    // The common cases, one parameter or every parameter given, run the
    // body directly: a closure in sapply runs once per element.
    if let [(p, Some(v))] = bound {
        return eval(body, &scope.with_local(&p.name, v), ctx, file).map(Cow::into_owned);
    }
    let given: Vec<(&str, &Value)> = bound
        .iter()
        .filter_map(|(p, v)| v.map(|v| (p.name.as_str(), v)))
        .collect();
    if given.len() == bound.len() {
        return with_bindings(scope, &given, &mut |s| {
            eval(body, s, ctx, file).map(Cow::into_owned)
        });
    }
    let defaults = with_bindings(scope, &given, &mut |s| {
        bound
            .iter()
            .filter(|(_, v)| v.is_none())
            .filter_map(|(p, _)| p.default.as_ref())
            .map(|d| eval(d, s, ctx, file).map(Cow::into_owned))
            .collect::<Result<Vec<_>, EvalError>>()
    })?;
    let mut defaults = defaults.iter();
    // Each parameter given no argument is marked, for `missing`.
    let markers: Vec<String> = bound
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(p, _)| function_args::missing_marker(&p.name))
        .collect();
    let yes = Value::flag(true);
    // The markers innermost: a parameter's default binds its name too.
    let all: Vec<(&str, &Value)> = bound
        .iter()
        .filter_map(|(p, v)| {
            let v = match (v, &p.default) {
                (Some(v), _) => v,
                (None, Some(_)) => defaults.next()?,
                (None, None) => &MISSING_ARG,
            };
            Some((p.name.as_str(), v))
        })
        .chain(markers.iter().map(|m| (m.as_str(), &yes)))
        .collect();
    with_bindings(scope, &all, &mut |s| {
        eval(body, s, ctx, file).map(Cow::into_owned)
    })
}

/// What a parameter given no argument and no default is bound to (only
/// a body that asks `missing` of it runs so): reading it is R's error.
/// Known by its address.
static MISSING_ARG: Value = Value::Null;

/// `scope` with each of `bound` as a local, the last innermost.
fn with_bindings<R>(scope: &Scope, bound: &[(&str, &Value)], f: &mut dyn FnMut(&Scope) -> R) -> R {
    match bound.split_first() {
        None => f(scope),
        Some((&(name, value), rest)) => with_bindings(&scope.with_local(name, value), rest, f),
    }
}

/// `FALSE && y` and `TRUE || y`: R does not evaluate `y`.
fn short_circuit(op: BinaryOp, lhs: &Value, ctx: &mut Ctx) -> Result<Option<bool>, KernelError> {
    let want = match op {
        BinaryOp::AndAnd => false,
        BinaryOp::OrOr => true,
        _ => return Ok(None),
    };
    let x = crate::kernels::logic::scalar_side(lhs, "x", op.symbol(), ctx)?;
    Ok((x == Some(want)).then_some(want))
}

/// R's `missing(x)`, a special form: whether the function running was
/// given no argument for its parameter `x` (its default, if any, does not
/// count). A name that is no parameter or local is R's error.
fn missing(span: Span, args: &[Arg], scope: &Scope) -> Result<bool, EvalError> {
    let err = |message: &str| EvalError {
        span,
        message: message.into(),
    };
    let name = function_args::missing_arg(args).map_err(|m| err(&m))?;
    scope
        .missing(name, &function_args::missing_marker(name))
        .ok_or_else(|| err("'missing' can only be used for arguments"))
}

/// R's `switch`, a special form: `EXPR`, then only the alternative it
/// picks (`kernels::switch::choose`) is evaluated.
fn switch<'s>(
    span: Span,
    args: &[Arg],
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Cow<'s, Value>, EvalError> {
    let err = |span: Span, message: String| EvalError { span, message };
    let (expr, alts) = promises::switch_args(args).map_err(|m| err(span, m))?;
    let x = eval(&expr.value, scope, ctx, file)?;
    let (key, warning) = switch::key(&x).map_err(|m| err(span, m))?;
    let at = Some((span.start, span.end));
    for message in warning
        .into_iter()
        .chain(alts.is_empty().then_some(switch::NO_ALTERNATIVES))
    {
        ctx.warnings.push(Warning {
            message: message.into(),
            at,
        });
    }
    let written = promises::switch_alternatives(alts);
    let chosen =
        switch::choose(&key, &written, |i| deparse(&alts[i].value)).map_err(|m| err(span, m))?;
    match chosen {
        Some(i) => eval(&alts[i].value, scope, ctx, file),
        None => Ok(Cow::Owned(Value::Null)),
    }
}

/// An evaluated argument and its name, if it was named.
pub(super) type NamedValue<'s> = (Option<String>, Cow<'s, Value>);

/// `ifelse`'s arguments forced as R's closure forces them: `test` first,
/// then `yes` only if some test is TRUE, then `no` only if some is FALSE
/// (see `graph::promises`). One never forced is passed as NULL, which the
/// kernel does not read.
fn ifelse_args<'s>(
    [test, yes, no]: [Option<usize>; 3],
    args: &[Arg],
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Vec<NamedValue<'s>>, EvalError> {
    let mut values: Vec<Option<Cow<'s, Value>>> = vec![None; args.len()];
    let mut needed = (true, true);
    if let Some(i) = test {
        let t = eval(&args[i].value, scope, ctx, file)?;
        if let Some(l) = t.as_logicals() {
            needed = (l.contains(&Some(true)), l.contains(&Some(false)));
        }
        values[i] = Some(t);
    }
    for (slot, needed) in [(yes, needed.0), (no, needed.1)] {
        if let Some(i) = slot {
            values[i] = Some(if needed {
                eval(&args[i].value, scope, ctx, file)?
            } else {
                Cow::Owned(Value::Null)
            });
        }
    }
    args.iter()
        .zip(values)
        .map(|(a, v)| {
            let v = match v {
                Some(v) => v,
                None => eval(&a.value, scope, ctx, file)?,
            };
            Ok((a.name.clone(), v))
        })
        .collect()
}

/// A call's arguments, evaluated. Those R evaluates inside the call's
/// `data` (`lm(y ~ x, data = d, weights = w)`) see `d`'s columns before
/// other steps, as `model.frame` sees them.
pub(super) fn eval_args<'s>(
    func: &str,
    args: &[Arg],
    scope: &'s Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Vec<NamedValue<'s>>, EvalError> {
    if func == "ifelse" {
        if let Some(slots) = promises::ifelse_slots(args) {
            return ifelse_args(slots, args, scope, ctx, file);
        }
    }
    let function = function_args::function_arg(func, args);
    let na_action = function_args::na_action_arg(func, args);
    let closures = closure(func, args)?.map(|c| c.map(|(i, _)| i));
    // A function passed by name is passed as its name; a closure, which
    // the kernel gets in its context, as NULL. As in R's match.fun, a
    // variable of that name counts only when it holds one string (the
    // name of a function); otherwise (a step `sum` beside `apply(m, 2,
    // sum)`) the function is meant.
    let function_name = |i: usize| match &args[i].value.kind {
        _ if closures.contains(&Some(i)) => Some(Cow::Owned(Value::Null)),
        ExprKind::Name(n)
            if (Some(i) == function || Some(i) == na_action)
                && !matches!(scope.lookup(n), Some(Value::Str(s)) if s.len() == 1) =>
        {
            Some(Cow::Owned(Value::string(n)))
        }
        _ => None,
    };
    let Some(ds) = formula::data_scope(func, args) else {
        let mut values = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = match function_name(i) {
                Some(v) => v,
                None => eval(&a.value, scope, ctx, file)?,
            };
            values.push((a.name.clone(), v));
        }
        let reads_formula = formula::reads_formula(func) || is_two_way(func);
        if !reads_formula || !values.iter().any(|(_, v)| deferred(v).is_some()) {
            return Ok(values);
        }
        return formula_by_name(func, args, values, scope, ctx);
    };
    let data_arg = &args[ds.data];
    let data = eval(&data_arg.value, scope, ctx, file)?;
    if ds.frames_only && frame::as_frame(&data).is_none() {
        return args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let v = match function_name(i) {
                    _ if i == ds.data => data.clone(),
                    Some(v) => v,
                    None => eval(&a.value, scope, ctx, file)?,
                };
                Ok((a.name.clone(), v))
            })
            .collect();
    }
    let Value::List(List {
        names: Some(names),
        items,
        ..
    }) = &*data
    else {
        return Err(EvalError {
            span: data_arg.span,
            message: format!(
                "'data' must be a data frame or a named list, not {}",
                data.type_name()
            ),
        });
    };
    // The columns in front of every name the call can read (locals, then
    // steps), the first of a repeated name innermost, as R's lookup in a
    // list finds it; and for `select`-like arguments each column's name
    // standing for its position.
    let columns: Vec<(&str, &Value, bool)> = names
        .iter()
        .zip(items)
        .rev()
        .map(|(n, v)| (n.as_str(), v, false))
        .collect();
    let positions: Vec<Value> = (1..=names.len()).map(|k| Value::scalar(k as f64)).collect();
    let positions: Vec<(&str, &Value, bool)> = names
        .iter()
        .zip(&positions)
        .rev()
        .map(|(n, v)| (n.as_str(), v, false))
        .collect();
    let two_way_call = args.iter().any(|a| two_way(func, &a.value).is_some());
    bind_all(scope, &columns, |inner| {
        bind_all(scope, &positions, |at| {
            let mut out = Vec::with_capacity(args.len());
            let mut skip_data = false;
            for (i, a) in args.iter().enumerate() {
                if let Some(parts) = two_way(func, &a.value) {
                    // friedman.test.formula and quade.test.formula:
                    // model.frame's three columns
                    // handed to the default method.
                    for (name, e) in [("y", parts.0), ("groups", parts.1), ("blocks", parts.2)] {
                        let v = eval(e, inner, ctx, file)?.into_owned();
                        out.push((Some(name.to_string()), Cow::Owned(v)));
                    }
                    // model.frame's default action, which the default
                    // method, given the columns, would not apply.
                    if !args.iter().any(|a| a.name.as_deref() == Some("na.action")) {
                        out.push((
                            Some("na.action".into()),
                            Cow::Owned(Value::string("na.omit")),
                        ));
                    }
                    continue;
                }
                if i == ds.data && (two_way_call || skip_data) {
                    continue;
                }
                let v = if i == ds.data {
                    Cow::Owned(data.as_ref().clone())
                } else if let Some(v) = function_name(i) {
                    v
                } else if ds.positions.contains(&i) {
                    Cow::Owned(eval(&a.value, at, ctx, file)?.into_owned())
                } else if !ds.scoped.contains(&i) {
                    eval(&a.value, scope, ctx, file)?
                } else if func == "within" {
                    // within.data.frame reads what `expr` assigned, not
                    // its value: the kernel gets the assignments.
                    let items: Vec<&Expr> = match &a.value.kind {
                        ExprKind::Block(stmts) => stmts.iter().collect(),
                        _ => vec![&a.value],
                    };
                    let (names, items) = super::statements::assigned(&items, inner, ctx, file)?
                        .into_iter()
                        .unzip();
                    Cow::Owned(Value::List(List {
                        class: None,
                        names: Some(names),
                        items,
                        row_names: None,
                    }))
                } else if let ExprKind::Formula { lhs, rhs } = &a.value.kind {
                    Cow::Owned(eval_formula(
                        lhs.as_deref(),
                        rhs,
                        inner,
                        ctx,
                        file,
                        Some(names),
                    )?)
                } else {
                    let v = eval(&a.value, inner, ctx, file)?;
                    match deferred(&v) {
                        Some(text) => {
                            if let Some(parts) = two_way_text(func, text, a.value.span, inner, ctx)?
                            {
                                out.extend(parts.into_iter().map(|(n, v)| (n, Cow::Owned(v))));
                                if !args.iter().any(|a| a.name.as_deref() == Some("na.action")) {
                                    out.push((
                                        Some("na.action".into()),
                                        Cow::Owned(Value::string("na.omit")),
                                    ));
                                }
                                // The data went into the three columns.
                                if ds.data < i {
                                    out.remove(ds.data);
                                } else {
                                    skip_data = true;
                                }
                                continue;
                            }
                            Cow::Owned(materialise(text, a.value.span, inner, ctx, Some(names))?)
                        }
                        None => Cow::Owned(v.into_owned()),
                    }
                };
                out.push((a.name.clone(), v));
            }
            Ok(out)
        })
    })
}

/// A formula built from text reaching a function that reads it by name,
/// not as written in the call (`f = 'as.formula("y ~ g")'`, then
/// `t.test(f, data = d)`, `lm(f, d)`): R's formula method evaluates it in
/// its `data` all the same, so it is read among the data's columns as
/// one written there is.
fn formula_by_name<'s>(
    func: &str,
    args: &[Arg],
    values: Vec<NamedValue<'s>>,
    scope: &'s Scope,
    ctx: &mut Ctx,
) -> Result<Vec<NamedValue<'s>>, EvalError> {
    // The data: the argument named so, else the second unnamed one, the
    // formula methods' second formal (`t.test(formula, data)`).
    let data_at = values
        .iter()
        .position(|(n, _)| n.as_deref() == Some("data"))
        .or_else(|| {
            let mut unnamed = values.iter().enumerate().filter(|(_, (n, _))| n.is_none());
            match unnamed.nth(1) {
                Some((i, _)) if formula::data_second(func) => Some(i),
                _ => None,
            }
        })
        .filter(|&i| deferred(&values[i].1).is_none());
    let data = data_at.map(|i| values[i].1.clone().into_owned());
    let names = match &data {
        Some(Value::List(List {
            names: Some(names), ..
        })) => Some(names.clone()),
        _ => None,
    };
    let items: Vec<Value> = match &data {
        Some(Value::List(l)) if names.is_some() => l.items.clone(),
        _ => Vec::new(),
    };
    let columns: Vec<(&str, &Value, bool)> = match &names {
        Some(n) => n
            .iter()
            .zip(&items)
            .rev()
            .map(|(n, v)| (n.as_str(), v, false))
            .collect(),
        None => Vec::new(),
    };
    let given_na_action = args.iter().any(|a| a.name.as_deref() == Some("na.action"));
    let out: Vec<OwnedArg> = bind_all(scope, &columns, |inner| {
        let mut out = Vec::with_capacity(values.len());
        let mut two_way = false;
        let mut data_out = None;
        for (i, ((name, v), a)) in values.iter().zip(args).enumerate() {
            let Some(text) = deferred(v) else {
                if Some(i) == data_at {
                    data_out = Some(out.len());
                }
                out.push((name.clone(), (**v).clone()));
                continue;
            };
            let span = a.value.span;
            if let Some(parts) = two_way_text(func, text, span, inner, ctx)? {
                // As friedman.test.formula hands model.frame's three
                // columns to the default method.
                out.extend(parts);
                if !given_na_action {
                    out.push((Some("na.action".into()), Value::string("na.omit")));
                }
                two_way = true;
                continue;
            }
            out.push((
                name.clone(),
                materialise(text, span, inner, ctx, names.as_deref())?,
            ));
        }
        if two_way {
            // The data went into the three columns.
            if let Some(at) = data_out {
                out.remove(at);
            }
        }
        Ok::<_, EvalError>(out)
    })?;
    Ok(out.into_iter().map(|(n, v)| (n, Cow::Owned(v))).collect())
}

/// friedman.test's and quade.test's `y ~ groups | blocks` built from text:
/// its three variables, evaluated in `scope`.
fn two_way_text(
    func: &str,
    text: &str,
    span: Span,
    scope: &Scope,
    ctx: &mut Ctx,
) -> Result<Option<Vec<OwnedArg>>, EvalError> {
    if !is_two_way(func) {
        return Ok(None);
    }
    let at = |message: String| EvalError {
        span,
        message: format!("{message} (in the formula `{text}`)"),
    };
    let e = crate::workflow::parse_expr_str(text).map_err(|d| at(d.message))?;
    let Some(parts) = two_way(func, &e) else {
        return Ok(None);
    };
    let own = SourceFile::new("<formula>", text);
    let mut out = Vec::with_capacity(3);
    for (name, e) in [("y", parts.0), ("groups", parts.1), ("blocks", parts.2)] {
        let v = eval(e, scope, ctx, &own).map_err(|e| at(e.message))?;
        out.push((Some(name.to_string()), v.into_owned()));
    }
    Ok(Some(out))
}

/// An argument's name and value, owned.
type OwnedArg = (Option<String>, Value);

fn is_two_way(func: &str) -> bool {
    func == "friedman.test" || func == "quade.test"
}

/// The text of a formula built from text and not yet evaluated (see
/// `kernels::formula_text`).
fn deferred(v: &Value) -> Option<&str> {
    // A terms object is its formula with attributes.
    match crate::kernels::names::bare(v) {
        Value::Formula(f) => f.text.as_deref(),
        _ => None,
    }
}

/// A formula built from text, evaluated where a model function reads it:
/// among `columns` (the call's data, bound in `scope`), then the steps.
/// Its text is no part of the workflow file, so a failure is reported at
/// the argument that gave it.
fn materialise(
    text: &str,
    span: Span,
    scope: &Scope,
    ctx: &mut Ctx,
    columns: Option<&[String]>,
) -> Result<Value, EvalError> {
    let at = |message: String| EvalError {
        span,
        message: format!("{message} (in the formula `{text}`)"),
    };
    let e = crate::workflow::parse_expr_str(text).map_err(|d| at(d.message))?;
    let ExprKind::Formula { lhs, rhs } = &e.kind else {
        return Err(at("invalid formula".into()));
    };
    let own = SourceFile::new("<formula>", text);
    eval_formula(lhs.as_deref(), rhs, scope, ctx, &own, columns).map_err(|e| at(e.message))
}

/// friedman.test's and quade.test's formula `y ~ groups | blocks` (R's
/// friedman.test.formula and quade.test.formula, whose right side must be
/// `a | b` of two variables): its three variables.
fn two_way<'e>(func: &str, e: &'e Expr) -> Option<(&'e Expr, &'e Expr, &'e Expr)> {
    if !is_two_way(func) {
        return None;
    }
    let ExprKind::Formula { lhs: Some(y), rhs } = &e.kind else {
        return None;
    };
    let ExprKind::Binary {
        op: BinaryOp::Or,
        lhs: g,
        rhs: b,
    } = &rhs.kind
    else {
        return None;
    };
    Some((&**y, &**g, &**b))
}

/// `lhs ~ rhs` with its terms expanded as R's `terms()` expands them
/// ([`formula::terms`]): each variable evaluated once, each interaction
/// its variables (`model_matrix` codes them by the other terms).
fn eval_formula(
    lhs: Option<&Expr>,
    rhs: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    columns: Option<&[String]>,
) -> Result<Value, EvalError> {
    let t = formula::terms(lhs, rhs, columns).map_err(|f| EvalError {
        span: f.span,
        message: f.message,
    })?;
    let mut needed = vec![false; t.variables.len()];
    for v in t.terms.iter().flatten().chain(t.response.iter()) {
        needed[*v] = true;
    }
    let mut values: Vec<Option<Value>> = Vec::with_capacity(t.variables.len());
    let mut predvars = Vec::new();
    for ((label, var), &need) in t.variables.iter().zip(&needed) {
        if !need {
            values.push(None);
            continue;
        }
        let v = match var {
            Variable::Expr(x) => {
                let v = eval(x, scope, ctx, file)?.into_owned();
                if Some(*x) != lhs {
                    if let Some(p) = spline_predvars(x, scope, ctx, file)? {
                        predvars.push((label.clone(), p));
                    }
                }
                v
            }
            Variable::Column(c) => scope.lookup(c).cloned().ok_or_else(|| EvalError {
                span: rhs.span,
                message: format!("object `{label}` not found"),
            })?,
        };
        values.push(Some(v));
    }
    let value = |i: usize| values[i].as_ref().expect("needed variables are evaluated");
    let mut terms = Vec::with_capacity(t.terms.len());
    for term in &t.terms {
        let label = t.label(term);
        let v = if let [v] = term.as_slice() {
            if formula::is_offset(&t.variables[*v].1) {
                model_matrix::offset_term(value(*v).clone())
            } else {
                value(*v).clone()
            }
        } else {
            model_matrix::interaction(
                term.iter()
                    .map(|&v| (t.variables[v].0.clone(), value(v).clone()))
                    .collect(),
            )
        };
        terms.push((label, v));
    }
    Ok(Value::Formula(Formula {
        response: t.response.map(|r| Box::new(value(r).clone())),
        response_label: t.response.map(|r| t.variables[r].0.clone()),
        terms,
        intercept: t.intercept,
        predvars,
        text: None,
        source: Some(written_text(lhs, rhs, columns)),
    }))
}

/// The formula as R prints it after `terms.formula`: as written, with a
/// `.` on the right replaced by the data's other columns joined by `+`,
/// parenthesised except where R's `ExpandDots` leaves the sum bare (the
/// whole right side, or the left operand of a `+`).
fn written_text(lhs: Option<&Expr>, rhs: &Expr, columns: Option<&[String]>) -> String {
    let whole = |rhs: Expr| Expr {
        span: rhs.span,
        kind: ExprKind::Formula {
            lhs: lhs.map(|l| Box::new(l.clone())),
            rhs: Box::new(rhs),
        },
    };
    let Some(columns) = columns else {
        return deparse(&whole(rhs.clone()));
    };
    let mut lhs_names = Vec::new();
    if let Some(l) = lhs {
        l.visit_names(&mut |n, _| lhs_names.push(n.to_string()));
    }
    let others: Vec<&str> = columns
        .iter()
        .filter(|c| !lhs_names.contains(c))
        .map(String::as_str)
        .collect();
    let sum = others.join(" + ");
    // Each `.` becomes a placeholder name, replaced in the text after.
    let mut bare = Vec::new();
    let mut rhs = rhs.clone();
    mark_dots(&mut rhs, false, &mut bare);
    let mut text = deparse(&whole(rhs));
    for (k, wrap) in bare.iter().enumerate().rev() {
        let by = if *wrap {
            format!("({sum})")
        } else {
            sum.clone()
        };
        text = text.replace(&format!("{DOT_MARK}{k}"), &by);
    }
    text
}

const DOT_MARK: &str = "..flowcast.dot";

/// Replaces each `.` in `e` by a numbered placeholder name, noting
/// whether R parenthesises its expansion there (`wrap`).
fn mark_dots(e: &mut Expr, wrap: bool, marks: &mut Vec<bool>) {
    match &mut e.kind {
        ExprKind::Name(n) if n == "." => {
            *n = format!("{DOT_MARK}{}", marks.len());
            marks.push(wrap);
        }
        ExprKind::Binary {
            op: BinaryOp::Add,
            lhs,
            rhs,
        } => {
            mark_dots(lhs, false, marks);
            mark_dots(rhs, true, marks);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            mark_dots(lhs, true, marks);
            mark_dots(rhs, true, marks);
        }
        ExprKind::Unary { expr, .. } => mark_dots(expr, true, marks),
        // ExpandDots leaves the sum bare inside parentheses.
        ExprKind::Call { func, args, .. } if func == crate::workflow::PAREN && args.len() == 1 => {
            mark_dots(&mut args[0].value, false, marks)
        }
        // Inside a call `.` is no column list (R: object '.' not found).
        _ => {}
    }
}

/// Whether evaluating `e` calls a kernel that draws random numbers.
fn draws(e: &Expr) -> bool {
    let mut found = matches!(&e.kind, ExprKind::Call { func, .. }
        if registry().get(func).is_none_or(|k| k.random));
    e.visit_children(&mut |c| found |= draws(c));
    found
}

/// R's `makepredictcall` for a formula variable written `bs(…)` or
/// `ns(…)`: the call at the fit's knots, which `predict` evaluates in
/// `newdata` in place of the variable's own text (see
/// [`splines::predict_call`]). The call's arguments are evaluated again
/// for it.
fn spline_predvars(
    x: &Expr,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<Option<String>, EvalError> {
    let ExprKind::Call { func, args, .. } = &x.kind else {
        return Ok(None);
    };
    // Arguments that draw random numbers are not evaluated twice (the
    // stream would move on): such a term is rebuilt from its text.
    if !matches!(func.as_str(), "bs" | "ns" | "poly") || args.iter().any(|a| draws(&a.value)) {
        return Ok(None);
    }
    let Some(kernel) = registry().get(func) else {
        return Ok(None);
    };
    let mut values = Vec::with_capacity(args.len());
    for a in args {
        values.push(eval(&a.value, scope, ctx, file)?.into_owned());
    }
    let given = args
        .iter()
        .map(|a| (a.name.clone(), &a.value))
        .collect::<Vec<(Option<String>, &Expr)>>();
    let Ok(matched) = Args::match_call(kernel.name, kernel.params, given) else {
        return Ok(None);
    };
    let Some(x_arg) = matched.get("x") else {
        return Ok(None);
    };
    let at = |e: &Expr| {
        args.iter()
            .position(|a| std::ptr::eq(&a.value, e))
            .unwrap_or(0)
    };
    let vals = matched.map(|e| &values[at(e)]);
    if func == "poly" {
        return Ok(crate::kernels::poly::predict_call(
            &x_arg.to_string(),
            &vals,
        ));
    }
    Ok(splines::predict_call(func, &x_arg.to_string(), &vals))
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
        locals: &|n| scope.integer_local(n),
    };
    if ints.is_integer(lhs) && ints.is_integer(rhs) && integer::overflow(data) {
        ctx.warnings.push(Warning {
            message: integer::OVERFLOW.into(),
            at: Some((e.span.start, e.span.end)),
        });
    }
}

/// R's integer `%/%` and `%%` by zero, whose value is `v`: NA where
/// doubles give an infinity or NaN (arithmetic.c, `R_integer_divide`),
/// and no warning. Asked only when a value is not finite.
fn integer_by_zero(v: &mut Value, lhs: &Expr, rhs: &Expr, scope: &Scope, file: &SourceFile) {
    let data = match v {
        Value::Num(d) => d.as_mut_slice(),
        Value::Mat(m) => m.as_mut_slice(),
        _ => return,
    };
    if data.iter().all(|x| x.is_finite()) {
        return;
    }
    let ints = Integers {
        file,
        steps: scope.integer_steps,
        locals: &|n| scope.integer_local(n),
    };
    if ints.is_integer(lhs) && ints.is_integer(rhs) {
        for x in data.iter_mut().filter(|x| !x.is_finite()) {
            *x = crate::kernels::value::NA;
        }
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
    match &e.kind {
        ExprKind::Call {
            func,
            func_span,
            args,
        } => eval_call(e.span, (func, *func_span, args), scope, ctx, file, true),
        _ => Ok((eval(e, scope, ctx, file)?.into_owned(), None)),
    }
}

/// Evaluates the call at `span` (its function, the function's span, its
/// arguments), with the path its kernel took when `trace`.
fn eval_call(
    span: Span,
    (func, func_span, args): (&str, Span, &[Arg]),
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    trace: bool,
) -> Result<(Value, Option<String>), EvalError> {
    if func == "switch" {
        return Ok((switch(span, args, scope, ctx, file)?.into_owned(), None));
    }
    if func == "missing" {
        return Ok((Value::flag(missing(span, args, scope)?), None));
    }
    if func == "...length" || func == "...elt" {
        return Ok((dots_call(func, span, args, scope, ctx, file)?, None));
    }
    if func == "tryCatch" {
        let v = super::conditions::try_catch(span, args, scope, ctx, file)?;
        return Ok((v.into_owned(), None));
    }
    if func == "try" {
        let v = super::conditions::try_(span, args, scope, ctx, file)?;
        return Ok((v.into_owned(), None));
    }
    // R's suppressMessages muffles every message `expr` signals, so no
    // tryCatch around it sees them.
    if func == "suppressMessages" {
        let said = ctx.messages.raised.len();
        let values = eval_args(func, args, scope, ctx, file);
        ctx.messages.raised.truncate(said);
        return call_evaluated(
            span,
            (func, func_span, args),
            values?,
            scope,
            ctx,
            file,
            trace,
        );
    }
    // R's suppressWarnings (src/library/base/R/warnings.R) muffles every
    // warning signalled while `expr` is evaluated: its value is returned
    // and the step lists none of them.
    if func == "suppressWarnings" {
        let raised = ctx.warnings.len();
        let values = eval_args(func, args, scope, ctx, file);
        ctx.warnings.truncate(raised);
        let r = call_evaluated(
            span,
            (func, func_span, args),
            values?,
            scope,
            ctx,
            file,
            trace,
        );
        ctx.warnings.truncate(raised);
        return r;
    }
    if func == "nls" || func == "getInitial" {
        return nls::nls_call(span, (func, func_span, args), scope, ctx, file, trace);
    }
    if update::formula_param(func).is_some() {
        return update::update_call(span, (func, func_span, args), scope, ctx, file, trace);
    }
    // `terms(y ~ x)` reads the formula, not its variables' values, which
    // need not exist: the formula is kept as its text (as.formula's).
    if let Some(a) = formula::terms_formula_arg(func, args).map(|i| &args[i]) {
        let f =
            crate::kernels::formula_text::from_text(&deparse(&a.value)).map_err(|k| EvalError {
                span: a.value.span,
                message: k.0,
            })?;
        let mut values: Vec<NamedValue> = vec![(a.name.clone(), Cow::Owned(f))];
        for rest in &args[1..] {
            values.push((rest.name.clone(), eval(&rest.value, scope, ctx, file)?));
        }
        return call_evaluated(
            span,
            (func, func_span, args),
            values,
            scope,
            ctx,
            file,
            trace,
        );
    }
    let values = eval_args(func, args, scope, ctx, file)?;
    call_evaluated(
        span,
        (func, func_span, args),
        values,
        scope,
        ctx,
        file,
        trace,
    )
}

/// The rest of [`eval_call`] once the arguments' values are in `values`
/// (see `statements`, which looks at them before it calls `[<-`).
pub(super) fn call_evaluated(
    span: Span,
    (func, func_span, args): (&str, Span, &[Arg]),
    mut values: Vec<NamedValue>,
    scope: &Scope,
    ctx: &mut Ctx,
    file: &SourceFile,
    trace: bool,
) -> Result<(Value, Option<String>), EvalError> {
    model_newdata(func, args, &mut values, ctx, file)?;
    integers_as_text(func, args, &mut values, scope, file);
    deparsed_args(func, args, &mut values);
    implicit_names(func, args, &mut values);
    let closures = closure(func, args)?.map(|c| c.map(|(_, c)| c));
    let integers = integer_args(func, args, &values, scope, file);
    call_with(closures, scope, file, ctx, |ctx| {
        ctx.integers = integers;
        let r = call_traced(func, func_span, span, args, &values, ctx, trace);
        ctx.integers = Vec::new();
        r
    })
}

/// The arguments of a call to `func` that R holds as integers, by
/// address (see [`Ctx::integers`]), for the functions whose answer tells
/// an integer from a double (`typeof(1:3)` is "integer", `identical(1:3,
/// c(1, 2, 3))` FALSE). Other calls pay nothing.
fn integer_args(
    func: &str,
    args: &[Arg],
    values: &[NamedValue],
    scope: &Scope,
    file: &SourceFile,
) -> Vec<usize> {
    if func == "rapply" {
        return rapply_integers(args, values, scope, file);
    }
    if !matches!(
        func,
        "typeof"
            | "class"
            | "storage.mode"
            | "inherits"
            | "identical"
            | "isSymmetric"
            | "deparse"
            | "deparse1"
            | "is.integer"
            | "is.double"
            | "is.vector"
            | "cumsum"
    ) {
        return Vec::new();
    }
    let ints = Integers {
        file,
        steps: scope.integer_steps,
        locals: &|n| scope.integer_local(n),
    };
    args.iter()
        .zip(values)
        .filter(|(a, (_, v))| {
            matches!(names::bare(v), Value::Num(_) | Value::Mat(_)) && ints.is_integer(&a.value)
        })
        .map(|(_, (_, v))| std::ptr::from_ref::<Value>(v) as usize)
        .collect()
}

/// rapply's `object` written as `list(...)`: the list itself, which
/// tells rapply that it knows its leaves, and each leaf written as an
/// integer (`1L`, `2:3`), by address, so that `classes = "integer"` and
/// `"numeric"` tell them apart as R does. A list from elsewhere (a step)
/// is not marked: rapply refuses those classes there.
fn rapply_integers(
    args: &[Arg],
    values: &[NamedValue],
    scope: &Scope,
    file: &SourceFile,
) -> Vec<usize> {
    let at = args
        .iter()
        .position(|a| a.name.as_deref() == Some("object"))
        .or_else(|| args.iter().position(|a| a.name.is_none()));
    let (Some(arg), Some((_, value))) = (at.map(|i| &args[i]), at.and_then(|i| values.get(i)))
    else {
        return Vec::new();
    };
    let ints = Integers {
        file,
        steps: scope.integer_steps,
        locals: &|n| scope.integer_local(n),
    };
    fn walk(e: &Expr, v: &Value, ints: &Integers, out: &mut Vec<usize>) -> bool {
        let ExprKind::Call { func, args, .. } = &e.kind else {
            return false;
        };
        let Value::List(l) = v else { return false };
        if func != "list" || args.len() != l.items.len() {
            return false;
        }
        for (a, item) in args.iter().zip(&l.items) {
            match item {
                Value::List(_) if !walk(&a.value, item, ints, out) => return false,
                Value::Num(_) if ints.is_integer(&a.value) => {
                    out.push(std::ptr::from_ref::<Value>(item) as usize);
                }
                _ => {}
            }
        }
        out.push(std::ptr::from_ref::<Value>(v) as usize);
        true
    }
    let mut out = Vec::new();
    if walk(&arg.value, value, &ints, &mut out) {
        out
    } else {
        Vec::new()
    }
}

/// R writes an integer in full where it writes the same double in
/// scientific notation (`paste(100000L)` is "100000", `paste(1e5)` is
/// "1e+05"). flowcast stores integers as doubles, so the functions that
/// turn numbers into text get an integer argument (known from how it was
/// written, [`Integers`]) already as text; `format` gets it with
/// `scientific = FALSE` and no `nsmall` (R's `formatInteger` writes whole
/// numbers in fixed notation and ignores both), `formatC` with `mode =
/// "integer"`, its default for an integer.
fn integers_as_text(
    func: &str,
    args: &[Arg],
    values: &mut Vec<NamedValue>,
    scope: &Scope,
    file: &SourceFile,
) {
    if !matches!(
        func,
        "paste" | "paste0" | "as.character" | "format" | "formatC"
    ) {
        return;
    }
    let ints = Integers {
        file,
        steps: scope.integer_steps,
        locals: &|n| scope.integer_local(n),
    };
    if matches!(func, "format" | "formatC") {
        let x = args
            .iter()
            .position(|a| a.name.as_deref() == Some("x"))
            .or_else(|| args.iter().position(|a| a.name.is_none()));
        let integer = x.is_some_and(|i| {
            ints.is_integer(&args[i].value) && matches!(names::bare(&values[i].1), Value::Num(_))
        });
        if !integer {
            return;
        }
        let mut set = |name: &str, v: Value, replace: bool| match args
            .iter()
            .position(|a| a.name.as_deref() == Some(name))
        {
            Some(i) if replace => values[i].1 = Cow::Owned(v),
            Some(_) => {}
            None => values.push((Some(name.to_string()), Cow::Owned(v))),
        };
        if func == "format" {
            set("scientific", Value::flag(false), true);
            if args.iter().any(|a| a.name.as_deref() == Some("nsmall")) {
                set("nsmall", Value::scalar(0.0), true);
            }
        } else {
            set("mode", Value::string("integer"), false);
        }
        return;
    }
    for (a, (_, v)) in args.iter().zip(values.iter_mut()) {
        let Value::Num(x) = names::bare(v) else {
            continue;
        };
        // Below 1e5 both are written alike.
        if !x.iter().any(|x| x.abs() >= 1e5) || !ints.is_integer(&a.value) {
            continue;
        }
        let text = x
            .iter()
            .map(|&x| {
                if x.is_nan() {
                    "NA".to_string()
                } else {
                    format!("{x:.0}")
                }
            })
            .collect();
        *v = Cow::Owned(Value::Str(text));
    }
}

/// Tags the arguments R names after their text (`data.frame(x, y)`), as
/// the analysis did (`graph::implicit_names`).
fn implicit_names(func: &str, args: &[Arg], values: &mut [NamedValue]) {
    let one_column: Vec<bool> = values
        .iter()
        .map(|(_, v)| {
            matches!(
                crate::kernels::names::bare(v),
                Value::Num(_)
                    | Value::Str(_)
                    | Value::Bool(_)
                    | Value::Factor(_)
                    | Value::Complex(_)
            )
        })
        .collect();
    let with_frame = values
        .iter()
        .any(|(_, v)| crate::kernels::frame::as_frame(v).is_some());
    // cbind.ts, R's method when a series is among the arguments.
    let with_ts = func == "cbind"
        && !with_frame
        && values
            .iter()
            .any(|(_, v)| crate::kernels::ts::tsp_of(v).is_some());
    let mut tags: Vec<&mut Option<String>> = values.iter_mut().map(|(n, _)| n).collect();
    if with_ts {
        crate::graph::implicit_names::tag_series(args, &mut tags);
        return;
    }
    crate::graph::implicit_names::tag(func, args, &mut tags, |i| one_column[i], with_frame);
}

/// The formals R gives a default from the call's own text, which a kernel
/// never sees: `table`'s `dnn` (each argument's name, or the name of a
/// symbol; R's `list.names` at `deparse.level = 1`) and
/// `as.data.frame`'s `nm` (`deparse1(substitute(x))`). Appended as named
/// arguments when the call does not give them.
fn deparsed_args(func: &str, args: &[Arg], values: &mut Vec<NamedValue>) {
    let given = |name: &str| args.iter().any(|a| a.name.as_deref() == Some(name));
    match func {
        "table" if !given("dnn") => {
            // One list argument (a data frame) is named by its names.
            if let [(None, v)] = &values[..] {
                if let Value::List(List { names: Some(n), .. }) = &**v {
                    let dnn = Value::Str(n.clone());
                    values.push((Some("dnn".to_string()), Cow::Owned(dnn)));
                    return;
                }
            }
            let dnn = args
                .iter()
                .filter(|a| !matches!(a.name.as_deref(), Some("useNA" | "exclude")))
                .map(|a| match (&a.name, &a.value.kind) {
                    (Some(n), _) => n.clone(),
                    (None, ExprKind::Name(n)) => n.clone(),
                    _ => String::new(),
                })
                .collect();
            values.push((Some("dnn".to_string()), Cow::Owned(Value::Str(dnn))));
        }
        "as.data.frame" if !given("nm") => {
            let x = args
                .iter()
                .find(|a| a.name.as_deref() == Some("x"))
                .or_else(|| args.iter().find(|a| a.name.is_none()));
            if let Some(x) = x {
                let nm = Value::string(&deparse(&x.value));
                values.push((Some("nm".to_string()), Cow::Owned(nm)));
            }
        }
        f if crate::kernels::models::self_start::spec(f).is_some() => {
            if let Some(texts) = nls::actual_args(f, args) {
                values.push((
                    Some(crate::kernels::models::self_start::ACTUAL_ARGS.to_string()),
                    Cow::Owned(Value::Str(texts)),
                ));
            }
        }
        "stopifnot" => {
            // R words a failure by the argument as written: what each
            // unnamed argument deparses to, and for an `all.equal(a, b)`
            // also its two compared arguments (see kernels::stopifnot).
            let texts = args
                .iter()
                .filter(|a| !matches!(a.name.as_deref(), Some("exprs" | "exprObject" | "local")))
                .map(stopifnot_text)
                .collect();
            values.push((
                Some(crate::kernels::STOPIFNOT_TEXTS.to_string()),
                Cow::Owned(Value::Str(texts)),
            ));
        }
        _ => {}
    }
}

/// One argument of `stopifnot` as its message reads it: the deparsed
/// argument, or, for R's special case of `all.equal(a, b)`, `a` and `b`
/// deparsed, separated by a NUL.
fn stopifnot_text(a: &Arg) -> String {
    if let ExprKind::Call { func, args, .. } = &a.value.kind {
        if func == "all.equal" {
            let unnamed: Vec<&Arg> = args.iter().filter(|a| a.name.is_none()).collect();
            let pair = if args.iter().all(|a| a.name.is_none()) || args.len() == 2 {
                args.first().zip(args.get(1))
            } else if unnamed.len() == 2 {
                Some((unnamed[0], unnamed[1]))
            } else {
                None
            };
            if let Some((x, y)) = pair {
                return format!("{}\0{}", deparse(&x.value), deparse(&y.value));
            }
        }
    }
    deparse(&a.value)
}

/// `predict(fit, newdata)`: R rebuilds the model's terms in `newdata`
/// (`model.frame(Terms, newdata)`). The fit keeps its terms' variables,
/// which are R text; they are read as a formula and evaluated among
/// `newdata`'s columns only (a name found nowhere else fails, as it would
/// in R once the fit's environment is gone), and the kernel gets the
/// evaluated variables in place of the data frame.
fn model_newdata(
    func: &str,
    args: &[Arg],
    values: &mut [NamedValue],
    ctx: &mut Ctx,
    file: &SourceFile,
) -> Result<(), EvalError> {
    if func != "predict" {
        return Ok(());
    }
    let Some(kernel) = registry().get(func) else {
        return Ok(());
    };
    let given = args
        .iter()
        .map(|a| (a.name.clone(), &a.value))
        .collect::<Vec<(Option<String>, &Expr)>>();
    let Ok(matched) = Args::match_call(kernel.name, kernel.params, given) else {
        return Ok(());
    };
    let position = |name: &str| {
        let v = matched.get(name)?;
        args.iter().position(|a| std::ptr::eq(&a.value, v))
    };
    let (Some(object), Some(newdata)) = (position("object"), position("newdata")) else {
        return Ok(());
    };
    let span = args[newdata].span;
    if let Some(p) = nls::predict_newdata(&values[object].1, &values[newdata].1, span, ctx, file)? {
        values[newdata].1 = Cow::Owned(p);
        return Ok(());
    }
    // The variables the terms are made of (a fit without them: its terms),
    // then the offset's parts.
    let (mut labels, mut predvars, offsets) = match &*values[object].1 {
        Value::List(l)
            if matches!(
                l.class.as_deref(),
                Some("lm" | "aov" | "glm" | "mlm" | "manova")
            ) =>
        {
            match l.field("terms") {
                Some(Value::List(t)) => {
                    let labels = match (t.field("variables"), t.field("term.labels")) {
                        (Some(Value::Str(s)), _) | (None, Some(Value::Str(s))) => s.clone(),
                        _ => return Ok(()),
                    };
                    // R's predvars: the spline bases at the fit's knots.
                    let predvars = match t.field("predvars") {
                        Some(Value::Str(p)) if p.len() == labels.len() && *p != labels => {
                            Some(p.clone())
                        }
                        _ => None,
                    };
                    let offsets = match t.field("offset") {
                        Some(Value::Str(o)) => o.clone(),
                        _ => Vec::new(),
                    };
                    (labels, predvars, offsets)
                }
                _ => return Ok(()),
            }
        }
        _ => return Ok(()),
    };
    let Value::List(List {
        names: Some(names),
        items,
        ..
    }) = &*values[newdata].1
    else {
        return Ok(());
    };
    // An intercept-only model: the kernel counts newdata's rows itself.
    if labels.is_empty() && offsets.is_empty() {
        return Ok(());
    }
    if let Some(p) = predvars.as_mut() {
        p.extend(offsets.iter().cloned());
    }
    labels.extend(offsets);
    let fail = |message: String| EvalError { span, message };
    // A spline basis whose knots the fit could not fix (its arguments
    // draw random numbers, so they were not evaluated twice) would be
    // rebuilt at newdata's own knots: a wrong answer where R has one.
    for (k, label) in labels.iter().enumerate() {
        let fixed = predvars.as_ref().is_some_and(|p| p[k] != *label);
        if (label.starts_with("bs(") || label.starts_with("ns(")) && !fixed {
            return Err(fail(format!(
                "cannot rebuild `{label}` in newdata at the fit's knots: its arguments draw \
                 random numbers; compute them in a step of their own"
            )));
        }
        // The same for orthogonal polynomials, which newdata's x alone
        // would refit (raw powers and given coefs need no fit).
        if label.starts_with("poly(")
            && !fixed
            && !label.contains("raw = T")
            && !label.contains("coefs")
        {
            return Err(fail(format!(
                "cannot rebuild `{label}` in newdata from the fit's coefs: its arguments draw \
                 random numbers; compute them in a step of their own"
            )));
        }
    }
    let read_predvars = predvars.is_some();
    let text = format!("~ {}", predvars.as_ref().unwrap_or(&labels).join(" + "));
    let parsed = crate::workflow::parse_expr_str(&text)
        .map_err(|_| fail(format!("cannot read the model's terms `{text}` back")))?;
    let ExprKind::Formula { rhs, .. } = &parsed.kind else {
        return Err(fail(format!("cannot read the model's terms `{text}` back")));
    };
    let steps: HashMap<String, Arc<Value>> = names
        .iter()
        .zip(items)
        .map(|(n, v)| (n.clone(), Arc::new(v.clone())))
        .collect();
    let no_integers = HashSet::new();
    let inner = Scope {
        steps: &steps,
        local: None,
        integer_steps: &no_integers,
        local_integer: false,
        outer: None,
        running: None,
    };
    let mut terms = eval_formula(None, rhs, &inner, ctx, file, None)
        .map_err(|e| fail(format!("in 'newdata': {}", e.message)))?;
    if let (true, Value::Formula(f)) = (read_predvars, &mut terms) {
        // R's model.frame(Terms, newdata) with predvars: each variable
        // evaluated from its predvar, named by its own label.
        if f.terms.len() != labels.len() {
            return Err(fail(format!("cannot read the model's terms `{text}` back")));
        }
        for (t, label) in f.terms.iter_mut().zip(&labels) {
            t.0.clone_from(label);
        }
    }
    values[newdata].1 = Cow::Owned(terms);
    Ok(())
}

/// Calls kernel `func` on already evaluated arguments. `args` are the
/// written arguments (for error spans); operators pass none.
/// Operator `op` on its evaluated operands, spanning `span`: the scalar
/// fast path when it applies, the kernel otherwise.
fn operate(
    op: BinaryOp,
    span: Span,
    l: Cow<Value>,
    r: Cow<Value>,
    ctx: &mut Ctx,
) -> Result<Value, EvalError> {
    match crate::kernels::scalar_op(op.symbol(), &l, &r) {
        Some(v) => Ok(v),
        None => call(op.symbol(), span, span, &[], &[(None, l), (None, r)], ctx),
    }
}

/// An argument-matching error at the argument it names, else the call.
fn arg_error(e: crate::kernels::ArgError, args: &[Arg], call_span: Span) -> EvalError {
    EvalError {
        span: e
            .arg
            .and_then(|i| args.get(i))
            .map_or(call_span, |a| a.span),
        message: e.message,
    }
}

pub(super) fn call(
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
    // R dispatches on a Date's class before the default sees its days.
    if let Some(r) = date_methods::dispatch(func, func_span, call_span, args, values, ctx) {
        return r.map(|v| (v, None));
    }
    let kernel = registry().get(func).ok_or_else(|| EvalError {
        span: func_span,
        message: format!("could not find function `{func}`"),
    })?;
    let arg_span = |i: usize| args.get(i).map_or(call_span, |a| a.span);
    // An array's dimensions are an attribute the kernels below never see.
    if values
        .iter()
        .any(|(_, v)| crate::kernels::arrays::array_dims(v).is_some())
    {
        let operands: Vec<&Value> = values.iter().map(|(_, v)| &**v).collect();
        crate::kernels::arrays::check_conformable(func, &operands).map_err(|e| EvalError {
            span: call_span,
            message: e.0,
        })?;
    }
    if crate::kernels::arrays::reads_dims(func)
        && values
            .iter()
            .any(|(_, v)| crate::kernels::arrays::array_dims(v).is_some())
    {
        let given = values.iter().map(|(n, v)| (n.clone(), &**v)).collect();
        let matched = Args::match_call(kernel.name, kernel.params, given)
            .map_err(|e| arg_error(e, args, call_span))?;
        if let Some(r) = crate::kernels::arrays::array_call(&matched, ctx) {
            let value = r.map_err(|e| EvalError {
                span: call_span,
                message: e.0,
            })?;
            return Ok((value, None));
        }
    }
    // Names are kept around the kernel, not in it (`names::carry`).
    let reads_names = names::reads_names(func);
    let carries = !reads_names && names::may_carry(func, values);
    let written = values;
    let stripped: Vec<(Option<String>, Cow<Value>)>;
    let values = if reads_names || !values.iter().any(|(_, v)| names::has_named(v)) {
        values
    } else {
        let ar_predict = func == "predict"
            && values
                .iter()
                .any(|(_, v)| crate::kernels::ar::is_ar(Some(v)));
        // A contrast matrix's column names name the coefficients.
        let keeps = |n: &Option<String>, v: &Value| {
            (matches!(func, "lm" | "glm" | "model.matrix")
                && matches!(n.as_deref(), Some("contrasts" | "contrasts.arg")))
                // An arima fit's coefficient names say which is the mean
                // and its residuals' tsp dates the forecasts.
                || (matches!(func, "predict" | "residuals" | "resid")
                    && crate::kernels::arima::is_arima(Some(v)))
                // FUN sees each element of a list as R hands it over,
                // names and all (`sapply(parts, function(v) v["y"])`); the
                // kernel strips them again for a built-in FUN
                // (`kernels::fun`).
                || (matches!(func, "sapply" | "lapply" | "vapply" | "mapply" | "Map" | "Filter")
                    && matches!(v, Value::List(_)))
                // split's parts keep x's names (`split(x, g)[[1]]`).
                || (func == "split" && matches!(v, Value::Named(n) if n.names.is_some()))
                // An array's dimensions say which cells a margin sums.
                || (matches!(func, "prop.table" | "proportions" | "addmargins")
                    && crate::kernels::arrays::array_dims(v).is_some())
                // predict.ar dates its forecasts by newdata's tsp.
                || ar_predict
                // A fit's na.action of class "exclude" pads its cases.
                || crate::kernels::na_action::keeps_fit(func, v)
                // aggregate.ts: R dispatches on the series' class.
                || (func == "aggregate" && crate::kernels::ts::tsp_of(v).is_some())
                // ar's residuals and frequency (spec.ar's) are x's tsp; only a series
                // is kept whole, so the rest stays as other kernels see it.
                || (matches!(func, "ar" | "ar.yw" | "ar.burg" | "ar.ols" | "ar.mle" | "spec.ar")
                    && crate::kernels::ts::tsp_of(v).is_some())
                // spec.ar reads a fit's fields as they are.
                || (func == "spec.ar" && crate::kernels::ar::is_ar(Some(v)))
                // predict.HoltWinters dates its forecasts by the fit's tsp.
                || (func == "predict" && crate::kernels::holt_winters::is_holt_winters(Some(v)))
                // An mlm's coefficient, residual and fitted matrices carry
                // their dimnames: the coefficients' and the responses'.
                || (crate::kernels::models::mlm::reads_fit(func)
                    && crate::kernels::models::mlm::is_mlm(v))
        };
        stripped = values
            .iter()
            .map(|(n, v)| {
                let v = if keeps(n, v) {
                    Cow::Borrowed(&**v)
                } else {
                    names::strip(v)
                };
                (n.clone(), v)
            })
            .collect();
        &stripped[..]
    };
    // R hands these functions `as.matrix(d)` for a data frame `d`, and
    // numeric functions read a logical matrix as numbers.
    let coercible = values
        .iter()
        .any(|(_, v)| matches!(**v, Value::List(_) | Value::BoolMat(_)));
    let frames = coercible && frame::takes_matrix(func);
    let beside_complex = logical::keeps_logical_matrix_beside_complex(func)
        && values
            .iter()
            .any(|(_, v)| matches!(**v, Value::Complex(_) | Value::ComplexMat(_)));
    let logicals = coercible && !logical::keeps_logical_matrix(func) && !beside_complex;
    let coerced = if frames || logicals {
        values
            .iter()
            .enumerate()
            .map(|(i, (_, v))| {
                let m = if frames {
                    frame::coerce_value(func, v).transpose()
                } else {
                    Ok(None)
                };
                m.map(|m| m.or_else(|| logicals.then(|| logical::numeric_matrix(v)).flatten()))
                    .map_err(|e| EvalError {
                        span: arg_span(i),
                        message: e.0,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let given: Vec<(Option<String>, &Value)> = values
        .iter()
        .enumerate()
        .map(|(i, (n, v))| {
            let v = coerced.get(i).and_then(Option::as_ref).unwrap_or(&**v);
            (n.clone(), v)
        })
        .collect();
    let matched = Args::match_call(kernel.name, kernel.params, given)
        .map_err(|e| arg_error(e, args, call_span))?;
    // The result must fit before the kernel makes it: Rust aborts the
    // process on a failed allocation, R fails the call.
    let room = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        alloc::room_for_result(kernel, &matched, ctx.base_dir)
    }))
    .unwrap_or(Ok(()));
    room.map_err(|e| EvalError {
        span: call_span,
        message: e.0,
    })?;
    let raised = ctx.warnings.len();
    // A kernel bug must fail its step, not take down a worker and leave the
    // run waiting forever for the step's value.
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| kernel.call(&matched, ctx)))
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
    let mut value = result.map_err(|e| EvalError {
        span: call_span,
        message: e.0,
    })?;
    if carries {
        let given: Vec<(Option<String>, &Value)> =
            written.iter().map(|(n, v)| (n.clone(), &**v)).collect();
        let matched = Args::match_call(kernel.name, kernel.params, given.clone()).ok();
        value = names::carry(func, &given, matched.as_ref(), value);
    }
    call_text::attach(func, kernel, &matched, args, &mut value);
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
