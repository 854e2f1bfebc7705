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
