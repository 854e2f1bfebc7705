//! `glm(y ~ x, family = binomial)`: R's `glm` calls a family given as a
//! function (`if (is.function(family)) family <- family()`). flowcast's
//! function values exist only where a call takes a function, so the parser
//! writes the bare name as the call R makes of it, `binomial()`, and every
//! later stage sees a call.

use crate::workflow::ast::{Arg, Expr, ExprKind};

const FAMILIES: &[&str] = &[
    "gaussian",
    "binomial",
    "poisson",
    "Gamma",
    "inverse.gaussian",
    "quasibinomial",
    "quasipoisson",
    "quasi",
];

/// Rewrites `glm`'s family argument (named, or the second positional as R
/// matches it) from a bare family name to a call.
pub(super) fn call_family_names(func: &str, args: &mut [Arg]) {
    if func != "glm" {
        return;
    }
    let named = |a: &Arg, n: &str| a.name.as_deref() == Some(n);
    let family = match args.iter().position(|a| named(a, "family")) {
        Some(i) => Some(i),
        None => {
            // Positional arguments fill the formals not given by name.
            let formula_named = args.iter().any(|a| named(a, "formula"));
            let skip = usize::from(!formula_named);
            args.iter()
                .enumerate()
                .filter(|(_, a)| a.name.is_none())
                .nth(skip)
                .map(|(i, _)| i)
        }
    };
    let Some(arg) = family.and_then(|i| args.get_mut(i)) else {
        return;
    };
    if let ExprKind::Name(n) = &arg.value.kind {
        if FAMILIES.contains(&n.as_str()) {
            arg.value = Expr {
                span: arg.value.span,
                kind: ExprKind::Call {
                    func: n.clone(),
                    func_span: arg.value.span,
                    args: Vec::new(),
                },
            };
        }
    }
}
