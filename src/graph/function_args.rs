//! Functions passed by name: `sapply(x, mean)`, `apply(m, 2, sd)`,
//! `outer(x, y, "-")`. flowcast has no function values; a bare name in the
//! `FUN` position of these calls that is no step is the registered
//! function of that name, handed to the kernel as its name. Dependence
//! analysis, shape inference and evaluation all ask here, so a name that
//! checks is a name that runs.

use crate::diagnostic::Span;
use crate::kernels::{registry, Args};
use crate::workflow::{Arg, Expr, ExprKind};

/// The functions that take a function, and the formal that takes it.
fn function_formal(func: &str) -> Option<&'static str> {
    match func {
        "sapply" | "lapply" | "vapply" | "apply" | "outer" | "tapply" | "aggregate" => Some("FUN"),
        _ => None,
    }
}

/// The index among `args` of a call to `func` whose value is a bare name
/// of a registered function in `FUN`'s position.
pub fn function_arg(func: &str, args: &[Arg]) -> Option<usize> {
    let formal = function_formal(func)?;
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

/// The spans of every function named in a `FUN` position, anywhere in `e`.
pub fn function_arg_spans(e: &Expr, out: &mut Vec<Span>) {
    if let ExprKind::Call { func, args, .. } = &e.kind {
        if let Some(i) = function_arg(func, args) {
            out.push(args[i].value.span);
        }
    }
    e.visit_children(&mut |c| function_arg_spans(c, out));
}
