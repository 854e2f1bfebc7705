//! `Negate(f)`: R's `function(f) { f <- match.fun(f); function(...) !f(...) }`.
//! flowcast's function values are `function(x) expr`s written where a call
//! takes a function (or as a step), so the parser writes `Negate(f)` as the
//! function R returns: `function(...) !f(...)` for a function named `f`,
//! and for `function(params) body` the same parameters with `!(body)`.

use crate::diagnostic::Span;
use crate::workflow::ast::{Arg, Expr, ExprKind, Param, UnaryOp, DOTS};

/// The function `Negate(args)` returns; `None` for any other call, or a
/// `Negate` whose argument is not a function (left for the checks that
/// follow to refuse).
pub(super) fn function(func: &str, args: &[Arg], span: Span) -> Option<Expr> {
    if func != "Negate" {
        return None;
    }
    let [arg] = args else { return None };
    if arg.name.as_deref().is_some_and(|n| n != "f") {
        return None;
    }
    let not = |e: Expr| Expr {
        span,
        kind: ExprKind::Unary {
            op: UnaryOp::Not,
            expr: Box::new(e),
        },
    };
    let (params, body) = match &arg.value.kind {
        ExprKind::Function { params, body } => (params.clone(), not((**body).clone())),
        ExprKind::Name(f) | ExprKind::Str(f) => {
            let dots = Expr {
                span,
                kind: ExprKind::Name(DOTS.into()),
            };
            let call = Expr {
                span,
                kind: ExprKind::Call {
                    func: f.clone(),
                    func_span: arg.value.span,
                    args: vec![Arg {
                        name: None,
                        value: dots,
                        span,
                    }],
                },
            };
            let param = Param {
                name: DOTS.into(),
                span,
                default: None,
            };
            (vec![param], not(call))
        }
        _ => return None,
    };
    Some(Expr {
        span,
        kind: ExprKind::Function {
            params,
            body: Box::new(body),
        },
    })
}
