//! `match.arg(type)` inside `function(type = c("a", "b"))`: R reads the
//! choices from the formals of the function the call is in
//! (`formals(sys.function(sys.parent()))`), which flowcast's kernels
//! cannot see. So the parser writes that default in, as the call's
//! `choices`, where the function is parsed: what R would evaluate there,
//! in the same frame.

use super::super::ast::{Arg, Expr, ExprKind, Param};
use super::super::depth::{height, MAX_DEPTH};

/// Gives each `match.arg(p)` in `body` whose `p` is one of `params` with a
/// default that default as its `choices`. A function inside the body has
/// had its own calls given theirs when it was parsed, and its parameters
/// hide these, so it is not entered.
pub(super) fn give_choices(params: &[Param], body: &mut Expr) {
    if params.iter().any(|p| p.default.is_some()) {
        walk(params, body);
    }
}

fn walk(params: &[Param], e: &mut Expr) {
    if let ExprKind::Function { .. } = e.kind {
        return;
    }
    if let ExprKind::Call { func, args, .. } = &mut e.kind {
        if let Some(default) = formal_default(func, args, params) {
            // The copy must not take the tree past the parser's limit.
            if height(default) < MAX_DEPTH / 2 {
                let span = default.span;
                args.push(Arg {
                    name: Some("choices".into()),
                    value: default.clone(),
                    span,
                });
            }
        }
    }
    e.visit_children_mut(&mut |c| walk(params, c));
}

/// The default of the parameter a `match.arg(p)` without choices names.
fn formal_default<'p>(func: &str, args: &[Arg], params: &'p [Param]) -> Option<&'p Expr> {
    let [arg] = args else { return None };
    if func != "match.arg" || arg.name.as_deref().is_some_and(|n| n != "arg") {
        return None;
    }
    let ExprKind::Name(p) = &arg.value.kind else {
        return None;
    };
    params.iter().find(|q| &q.name == p)?.default.as_ref()
}
