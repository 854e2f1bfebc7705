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

/// A closure's parameters bound to the arguments it is called with, as R
/// matches them: by exact name first, then by position. A parameter given
/// no argument takes its default (`None` here, for the caller to
/// evaluate); one with no default must receive a value, unless `body`
/// asks `missing(p)` of it (R reads an argument only where the body does:
/// `if (missing(b)) a else a + b`).
pub fn bind<'p, T>(
    params: &'p [Param],
    body: &Expr,
    given: Vec<(Option<String>, T)>,
) -> Result<Vec<(&'p Param, Option<T>)>, String> {
    // A `...` parameter takes the arguments no other parameter does; the
    // body cannot read them (flowcast passes no `...` on), so they are
    // dropped, as R drops what a body never reads.
    let dots = params.iter().position(|p| p.name == "...");
    // As many unnamed arguments as parameters: each takes its own.
    if dots.is_none() && given.len() == params.len() && given.iter().all(|(n, _)| n.is_none()) {
        return Ok(params
            .iter()
            .zip(given)
            .map(|(p, (_, v))| (p, Some(v)))
            .collect());
    }
    let mut slots: Vec<Option<T>> = params.iter().map(|_| None).collect();
    let mut positional = Vec::new();
    for (name, v) in given {
        match name {
            Some(n) => match params.iter().position(|p| p.name == n && n != "...") {
                Some(i) if slots[i].is_none() => slots[i] = Some(v),
                Some(_) => {
                    return Err(format!(
                        "formal argument \"{n}\" matched by multiple actual arguments"
                    ))
                }
                None if dots.is_some() => {}
                None => return Err(format!("unused argument ({n} = ...)")),
            },
            None => positional.push(v),
        }
    }
    // R gives positional arguments to the parameters no name took, in
    // order, defaults or not, up to a `...`.
    let mut positional = positional.into_iter();
    for (_, slot) in slots
        .iter_mut()
        .enumerate()
        .filter(|(i, s)| s.is_none() && dots.is_none_or(|d| *i < d))
    {
        match positional.next() {
            Some(v) => *slot = Some(v),
            None => break,
        }
    }
    if dots.is_none() && positional.next().is_some() {
        return Err(format!(
            "unused argument: the function takes {} argument{}",
            params.len(),
            if params.len() == 1 { "" } else { "s" }
        ));
    }
    params
        .iter()
        .zip(slots)
        .map(|(p, v)| match (v, &p.default) {
            (None, None) if p.name != "..." && !asks_missing(body, &p.name) => Err(format!(
                "argument \"{}\" is missing, with no default",
                p.name
            )),
            (v, _) => Ok((p, v)),
        })
        .collect()
}

/// Whether `body` calls `missing(name)` (a rare question, asked only of a
/// parameter given no argument and no default).
fn asks_missing(body: &Expr, name: &str) -> bool {
    let mut found = false;
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            found |= func == "missing" && missing_arg(args).is_ok_and(|n| n == name);
        }
        e.visit_children(&mut |c| stack.push(c));
    }
    found
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

/// The name `missing(x)` asks about, as R's `do_missing` takes it: a name,
/// or a string standing for one. The error is R's.
pub fn missing_arg(args: &[Arg]) -> Result<&str, String> {
    let [a] = args else {
        return Err(format!(
            "{} arguments passed to 'missing' which requires 1",
            args.len()
        ));
    };
    match &a.value.kind {
        ExprKind::Name(n) | ExprKind::Str(n) if !n.is_empty() => Ok(n),
        _ => Err("invalid use of 'missing'".into()),
    }
}
