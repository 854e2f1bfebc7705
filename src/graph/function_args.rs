//! Functions as arguments: `sapply(x, mean)`, `apply(m, 2, sd)`,
//! `outer(x, y, "-")`, `Reduce(function(a, b) a + b, xs)`. A bare name in
//! the function position of these calls that is no step is the registered
//! function of that name, handed to the kernel as its name; a
//! `function(x) expr` there is a closure, which the evaluator runs for the
//! kernel (see `kernels::fun`). Function values exist nowhere else.
//! Dependence analysis, shape inference and evaluation all ask here, so a
//! function that checks is a function that runs.

use crate::diagnostic::Span;
use crate::kernels::{registry, Args};
pub use crate::workflow::binding::{bind, missing_arg, Bound};
use crate::workflow::{Arg, Expr, ExprKind, Param};

/// The functions that take a function, and the formals that take one:
/// the first is the call's function (`FUN`, `f`, optim's `fn`), the second
/// (optim's `gr`) an optional one beside it.
fn function_formals(func: &str) -> &'static [&'static str] {
    match func {
        "sapply" | "lapply" | "vapply" | "apply" | "outer" | "tapply" | "by" | "aggregate"
        | "mapply" | "ave" | "addmargins" | "sweep" | "combn" | "reorder" => &["FUN"],
        "Reduce" | "Filter" | "Position" | "Find" | "Map" | "rapply" | "optimize" | "optimise"
        | "uniroot" | "integrate" | "nlm" => &["f"],
        "optim" | "optimHess" => &["fn", "gr"],
        "constrOptim" => &["f", "grad"],
        "nlminb" => &["objective", "gradient"],
        "arima.sim" => &["rand.gen"],
        "do.call" => &["what"],
        "approx" | "spline" | "approxfun" | "splinefun" | "stepfun" => &["ties"],
        _ => &[],
    }
}

/// A closure a call takes: its parameters and body.
pub type ClosureParts<'e> = (&'e [Param], &'e Expr);

/// The closures a call takes, one per function formal (see
/// [`function_formals`]).
pub type Closures<'e> = [Option<(usize, ClosureParts<'e>)>; 2];

/// The closures a call to `func` takes, and the indices of their
/// arguments: a `function(x) expr` in a function position, or
/// `replicate`'s `expr`, which R evaluates anew each time, as the body of
/// a function of nothing. A function value anywhere else is an error: its
/// span and message.
pub fn closure<'e>(func: &str, args: &'e [Arg]) -> Result<Closures<'e>, (Span, String)> {
    if func == "replicate" {
        if let Some(k) = registry().get(func) {
            let given: Vec<(Option<String>, &Expr)> =
                args.iter().map(|a| (a.name.clone(), &a.value)).collect();
            let matched = Args::match_call(k.name, k.params, given).ok();
            let at = matched
                .as_ref()
                .and_then(|m| m.get("expr"))
                .and_then(|v| args.iter().position(|a| std::ptr::eq(&a.value, v)));
            if let Some(i) = at {
                return Ok([Some((i, (&[], &args[i].value))), None]);
            }
        }
    }
    Ok(closure_arg(func, args)?.map(|at| {
        at.and_then(|i| match &args[i].value.kind {
            ExprKind::Function { params, body } => Some((i, (params.as_slice(), &**body))),
            _ => None,
        })
    }))
}

/// The calls that take a function, for messages.
const TAKERS: &str = "sapply, lapply, vapply, apply, mapply, Map, Reduce, Filter, Position, Find, rapply, outer, \
                      tapply, by, aggregate, ave, addmargins, sweep, combn, reorder, optimize, uniroot, integrate, \
                      optim, optimHess, constrOptim, nlm, nlminb, arima.sim (rand.gen), approx, approxfun, spline, splinefun and stepfun (ties) and tryCatch (handlers)";

/// The indices among `args` of the `function(x) expr`s a call to `func`
/// takes at its function formals. A function value anywhere else is an
/// error: its span and message.
fn closure_arg(func: &str, args: &[Arg]) -> Result<[Option<usize>; 2], (Span, String)> {
    // tryCatch's handlers are called by the evaluator itself, not by a
    // kernel (`exec::conditions`).
    if func == "tryCatch" {
        return Ok([None, None]);
    }
    let closures: Vec<usize> = (0..args.len())
        .filter(|&i| matches!(args[i].value.kind, ExprKind::Function { .. }))
        .collect();
    let Some(&first) = closures.first() else {
        return Ok([None, None]);
    };
    let misplaced = |i: usize| {
        (
            args[i].value.span,
            format!(
                "a function(...) is a value only as the function argument of {TAKERS}; \
                 `{func}` does not take one here"
            ),
        )
    };
    let formals = function_formals(func);
    let Some(kernel) = registry().get(func).filter(|_| !formals.is_empty()) else {
        return Err(misplaced(first));
    };
    let given: Vec<(Option<String>, &Expr)> =
        args.iter().map(|a| (a.name.clone(), &a.value)).collect();
    let matched = Args::match_call(kernel.name, kernel.params, given).ok();
    let mut at = [None, None];
    for (slot, formal) in at.iter_mut().zip(formals) {
        *slot = matched
            .as_ref()
            .and_then(|m| m.get(formal))
            .and_then(|v| args.iter().position(|a| std::ptr::eq(&a.value, v)))
            .filter(|i| closures.contains(i));
    }
    match closures.iter().find(|&&i| !at.contains(&Some(i))) {
        Some(&i) => Err(misplaced(i)),
        None => Ok(at),
    }
}

/// The index among `args` of a call to `func` whose value is a bare name
/// of a registered function in `FUN`'s position.
pub fn function_arg(func: &str, args: &[Arg]) -> Option<usize> {
    let formal = function_formals(func).first()?;
    let kernel = registry().get(func)?;
    let given: Vec<(Option<String>, &Expr)> =
        args.iter().map(|a| (a.name.clone(), &a.value)).collect();
    let matched = Args::match_call(kernel.name, kernel.params, given).ok()?;
    let v = matched.get(formal)?;
    match &v.kind {
        ExprKind::Name(n) if registry().get(n).is_some() => {
            args.iter().position(|a| std::ptr::eq(&a.value, v))
        }
        _ => None,
    }
}

/// The functions R's model.frame takes as `na.action` by name.
const NA_ACTIONS: [&str; 4] = ["na.omit", "na.exclude", "na.fail", "na.pass"];

/// The index among `args` of a call's `na.action` argument that names
/// one of R's NA actions (`lm(y ~ x, d, na.action = na.exclude)`): like a
/// FUN, it is handed to the kernel as its name.
pub fn na_action_arg(func: &str, args: &[Arg]) -> Option<usize> {
    let kernel = registry().get(func)?;
    if !kernel.params.iter().any(|p| p.name == "na.action") {
        return None;
    }
    let given: Vec<(Option<String>, &Expr)> =
        args.iter().map(|a| (a.name.clone(), &a.value)).collect();
    let matched = Args::match_call(kernel.name, kernel.params, given).ok()?;
    let v = matched.get("na.action")?;
    match &v.kind {
        ExprKind::Name(n) if NA_ACTIONS.contains(&n.as_str()) => {
            args.iter().position(|a| std::ptr::eq(&a.value, v))
        }
        _ => None,
    }
}

/// The spans of every function named in a `FUN` position, anywhere in `e`.
pub fn function_arg_spans(e: &Expr, out: &mut Vec<Span>) {
    if let ExprKind::Call { func, args, .. } = &e.kind {
        if let Some(i) = function_arg(func, args) {
            out.push(args[i].value.span);
        }
        if let Some(i) = na_action_arg(func, args) {
            out.push(args[i].value.span);
        }
        // `tryCatch(x, error = conditionMessage)`: handlers named by name.
        if let (true, Ok(t)) = (func == "tryCatch", super::promises::try_catch_args(args)) {
            for (_, h) in t.handlers {
                if matches!(&h.value.kind, ExprKind::Name(n) if registry().get(n).is_some()) {
                    out.push(h.value.span);
                }
            }
        }
    }
    e.visit_children(&mut |c| function_arg_spans(c, out));
}

/// The name a function's parameter that was given no argument is marked
/// by while its body runs, so that `missing(p)` can tell; no name written
/// in a workflow can be it.
pub fn missing_marker(param: &str) -> String {
    format!("\u{1}missing {param}")
}
