//! Calls of values: `Fn(q)` where `Fn` is a step or a variable holding a
//! function value (`ecdf(x)`, `approxfun(x, y)`, …), not a built-in
//! function. Each becomes a call of the one kernel that evaluates function
//! values (`kernels::callable`), with `Fn` as its first argument: so the
//! call reads `Fn` as any argument is read, and dependences, shapes, costs
//! and cache keys need nothing new. A name that is a built-in function
//! stays one, as R's lookup of a function skips values that are not.

use std::collections::HashSet;

use crate::kernels::callable::CALL_VALUE;
use crate::kernels::registry;

use super::ast::{Arg, Expr, ExprKind, Step, StepBody};
use crate::diagnostic::Span;

/// Rewrites every call of a step's or a variable's value in `steps`.
pub fn rewrite(steps: &mut [Step]) {
    let step_names: HashSet<String> = steps.iter().map(|s| s.name.clone()).collect();
    for step in steps {
        // The step's own bindings, beside the steps' names: a copy of all
        // the steps' names for each step was quadratic (10,000 steps took
        // minutes before anything ran).
        let mut local = HashSet::new();
        let exprs: Vec<&mut Expr> = match &mut step.body {
            StepBody::Expr(e) => vec![e],
            StepBody::Loop(l) => {
                local.insert(l.var.clone());
                vec![&mut l.range, &mut l.body]
            }
        };
        for e in exprs {
            bound_names(e, &mut local);
            let known = |n: &str| step_names.contains(n) || local.contains(n);
            rewrite_expr(e, &known);
        }
    }
}

/// Every name `e` binds anywhere: its assignments and its functions'
/// parameters. A call of one before it is bound fails when it runs, as
/// R's would.
fn bound_names(e: &Expr, out: &mut HashSet<String>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Assign { name, .. } => {
                out.insert(name.clone());
            }
            ExprKind::For { var, .. } => {
                out.insert(var.clone());
            }
            ExprKind::Function { params, .. } | ExprKind::Apply { params, .. } => {
                out.extend(params.iter().map(|p| p.name.clone()));
            }
            _ => {}
        }
        e.visit_children(&mut |c| stack.push(c));
    }
}

fn rewrite_expr(e: &mut Expr, known: &dyn Fn(&str) -> bool) {
    e.visit_children_mut(&mut |c| rewrite_expr(c, known));
    method_as_generic(e, known);
    do_call_inline(e, known);
    ties_by_name(e, known);
    removals(e);
    if let ExprKind::Call {
        func,
        func_span,
        args,
    } = &mut e.kind
    {
        if !known(func.as_str()) || registry().get(func).is_some() {
            return;
        }
        let name = std::mem::replace(func, CALL_VALUE.to_string());
        let at = *func_span;
        let arg = |kind| Arg {
            name: None,
            value: Expr { kind, span: at },
            span: at,
        };
        args.splice(
            0..0,
            [arg(ExprKind::Name(name.clone())), arg(ExprKind::Str(name))],
        );
    }
}

/// The built-in function `e` names (`mapply` or `"mapply"`), unless a
/// step or variable takes the name.
fn builtin_named(e: &Expr, known: &dyn Fn(&str) -> bool) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) if !known(n) => registry().get(n).map(|_| n.clone()),
        ExprKind::Str(n) => registry().get(n).map(|_| n.clone()),
        _ => None,
    }
}

/// `do.call(f, list(...))` whose list holds a `function(...)`: a function
/// value lives only where a call takes one, so the call is written out as
/// R makes it, `f(...)`, with the list's arguments and their names.
fn do_call_inline(e: &mut Expr, known: &dyn Fn(&str) -> bool) {
    let ExprKind::Call { func, args, .. } = &mut e.kind else {
        return;
    };
    if func != "do.call" || args.len() != 2 {
        return;
    }
    // R's matching of do.call(what, args): by name, then by position.
    let (w, l) = match (args[0].name.as_deref(), args[1].name.as_deref()) {
        (None | Some("what"), None | Some("args")) => (0, 1),
        (None | Some("args"), Some("what")) | (Some("args"), None) => (1, 0),
        _ => return,
    };
    let (what, list) = (&args[w], &args[l]);
    let Some(f) = builtin_named(&what.value, known) else {
        return;
    };
    let at = what.value.span;
    let ExprKind::Call {
        func: list_func,
        args: items,
        ..
    } = &list.value.kind
    else {
        return;
    };
    let closure = |a: &Arg| matches!(a.value.kind, ExprKind::Function { .. });
    if list_func != "list" || !items.iter().any(closure) {
        return;
    }
    let items = items.clone();
    e.kind = ExprKind::Call {
        func: f,
        func_span: at,
        args: items,
    };
}

/// `rm(x, "y")` as a statement: `x <- NULL; y <- NULL`. A removed
/// variable then reads as NULL where R would look further out, and
/// within() drops it from its data as R's drops a name gone from the
/// environment `expr` ran in (`within(d, { z <- x + y; rm(x) })`).
fn removals(e: &mut Expr) {
    let statements: Vec<&mut Expr> = match &mut e.kind {
        ExprKind::Block(stmts) => stmts.iter_mut().collect(),
        ExprKind::Call { func, args, .. } if func == "within" => {
            // within(data, expr): `expr` by name, else the second
            // positional one (the first when `data` is named).
            let data_named = args.iter().any(|a| a.name.as_deref() == Some("data"));
            let at = args
                .iter()
                .position(|a| a.name.as_deref() == Some("expr"))
                .or_else(|| {
                    args.iter()
                        .enumerate()
                        .filter(|(_, a)| a.name.is_none())
                        .nth(usize::from(!data_named))
                        .map(|(i, _)| i)
                });
            match at {
                Some(i) => vec![&mut args[i].value],
                None => return,
            }
        }
        _ => return,
    };
    for s in statements {
        let ExprKind::Call { func, args, .. } = &s.kind else {
            continue;
        };
        let names: Option<Vec<(String, Span)>> = args
            .iter()
            .map(|a| match (&a.name, &a.value.kind) {
                (None, ExprKind::Name(n) | ExprKind::Str(n)) => Some((n.clone(), a.value.span)),
                _ => None,
            })
            .collect();
        let Some(names) = names.filter(|n| func == "rm" && !n.is_empty()) else {
            continue;
        };
        let span = s.span;
        let assign = |(name, name_span): (String, Span)| Expr {
            kind: ExprKind::Assign {
                name,
                name_span,
                value: Box::new(Expr {
                    kind: ExprKind::Null,
                    span,
                }),
            },
            span,
        };
        s.kind = ExprKind::Block(names.into_iter().map(assign).collect());
    }
}

/// `ties = list("ordered", mean)` of approx and its kin: the function
/// in the list is handed to the kernel as its name, as a function
/// written by name in a function position is.
/// S3 methods users call by their full name, each with the generic that
/// dispatches to it for the classes flowcast's values have.
const METHODS: &[(&str, &str)] = &[
    ("summary.lm", "summary"),
    ("summary.glm", "summary"),
    ("summary.aov", "summary"),
    ("summary.data.frame", "summary"),
    ("summary.factor", "summary"),
    ("summary.default", "summary"),
    ("predict.lm", "predict"),
    ("predict.glm", "predict"),
    ("residuals.lm", "residuals"),
    ("residuals.glm", "residuals"),
    ("confint.lm", "confint"),
    ("model.matrix.lm", "model.matrix"),
    ("model.matrix.default", "model.matrix"),
    ("model.frame.default", "model.frame"),
    ("mean.default", "mean"),
    ("median.default", "median"),
    ("sort.default", "sort"),
    ("rev.default", "rev"),
    ("unique.default", "unique"),
    ("unique.data.frame", "unique"),
    ("duplicated.default", "duplicated"),
    ("duplicated.data.frame", "duplicated"),
    ("anyDuplicated.default", "anyDuplicated"),
    ("t.default", "t"),
    ("t.data.frame", "t"),
    ("solve.default", "solve"),
    ("split.default", "split"),
    ("split.data.frame", "split"),
    ("subset.data.frame", "subset"),
    ("subset.default", "subset"),
    ("merge.data.frame", "merge"),
    ("merge.default", "merge"),
    ("aggregate.data.frame", "aggregate"),
    ("transform.data.frame", "transform"),
    ("with.default", "with"),
    ("within.data.frame", "within"),
    ("seq.default", "seq"),
    ("range.default", "range"),
    ("diff.default", "diff"),
    ("scale.default", "scale"),
    ("format.default", "format"),
    ("as.list.default", "as.list"),
    ("as.data.frame.matrix", "as.data.frame"),
    ("as.data.frame.list", "as.data.frame"),
    ("as.matrix.data.frame", "as.matrix"),
    ("as.matrix.default", "as.matrix"),
    ("levels.default", "levels"),
    ("cut.default", "cut"),
    ("rowsum.default", "rowsum"),
    ("rowsum.data.frame", "rowsum"),
    ("xtfrm.default", "xtfrm"),
    ("all.equal.numeric", "all.equal"),
    ("all.equal.default", "all.equal"),
];

/// `summary.lm(fit)`, `mean.default(x)`, `sapply(fits, summary.lm)`: an
/// S3 method called (or handed on) by its full name is its generic, which
/// dispatches to that method for the values it serves. A step or local
/// of that name, or a built-in function, is left as it is.
fn method_as_generic(e: &mut Expr, known: &dyn Fn(&str) -> bool) {
    let name = match &mut e.kind {
        ExprKind::Call { func, .. } => func,
        ExprKind::Name(n) => n,
        _ => return,
    };
    if known(name) || registry().get(name).is_some() {
        return;
    }
    if let Some((_, generic)) = METHODS.iter().find(|(m, _)| *m == name.as_str()) {
        if registry().get(generic).is_some() {
            *name = (*generic).to_string();
        }
    }
}

fn ties_by_name(e: &mut Expr, known: &dyn Fn(&str) -> bool) {
    let ExprKind::Call { func, args, .. } = &mut e.kind else {
        return;
    };
    if !matches!(
        func.as_str(),
        "approx" | "approxfun" | "spline" | "splinefun"
    ) {
        return;
    }
    let Some(ties) = args.iter_mut().find(|a| a.name.as_deref() == Some("ties")) else {
        return;
    };
    if let ExprKind::Call {
        func: list_func,
        args: items,
        ..
    } = &mut ties.value.kind
    {
        if list_func == "list" && items.len() == 2 && items[1].name.is_none() {
            match &items[1].value.kind {
                ExprKind::Name(n) if !known(n) && registry().get(n).is_some() => {
                    items[1].value.kind = ExprKind::Str(n.clone());
                }
                // R takes a function there, not its name: NULL in its
                // place meets R's refusal of anything else.
                ExprKind::Str(_) => items[1].value.kind = ExprKind::Null,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::SourceFile;
    use crate::kernels::callable::CALL_VALUE;
    use crate::workflow::{parse, StepBody};

    /// Whether step `step` of `toml` calls a value.
    fn calls_value(toml: &str, step: &str) -> bool {
        let wf = parse(SourceFile::new("w.toml", toml)).unwrap();
        let e = match &wf.step(step).unwrap().body {
            StepBody::Expr(e) => e.clone(),
            StepBody::Loop(l) => l.body.clone(),
        };
        let mut found = false;
        e.visit_calls(&mut |f, _| found |= f == CALL_VALUE);
        found
    }

    #[test]
    fn a_call_of_a_step_or_variable_calls_its_value() {
        let toml = "[steps]\nFn = 'ecdf(c(1, 2))'\na = 'Fn(1)'\nb = '{ g <- Fn; g(2) }'\n\
                    c = { for = \"i in 1:2\", do = \"Fn(i)\" }\n";
        assert!(calls_value(toml, "a"));
        assert!(calls_value(toml, "b"));
        assert!(calls_value(toml, "c"));
    }

    #[test]
    fn a_built_in_function_stays_one_beside_a_step_of_its_name() {
        let toml = "[steps]\nc = 'seq(1, 3)'\na = 'c(c, 1)'\n";
        assert!(!calls_value(toml, "a"));
    }
}
