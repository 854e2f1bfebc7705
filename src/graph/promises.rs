//! Arguments R forces only when it needs them: `ifelse` evaluates `yes`
//! only when some `test` is TRUE and `no` only when some is FALSE,
//! `switch` only the alternative it picks, `tryCatch` a handler only for
//! a condition it catches, and `&&` and `||` their right side only when
//! the left does not decide.
//! Evaluation forces them the same way (`exec::eval`); analysis counts no
//! fixed number of draws for a step whose lazy part draws, since only the
//! run decides whether it does.

use super::draws_random;
use crate::kernels::switch::Alternative;
use crate::kernels::{registry, Args};
use crate::workflow::{Arg, ExprKind};

/// The indices of the call arguments that supply `ifelse`'s `test`, `yes`
/// and `no`, in the order R forces them; `None` where the call does not
/// match (the call's own check reports it).
pub fn ifelse_slots(args: &[Arg]) -> Option<[Option<usize>; 3]> {
    let k = registry().get("ifelse")?;
    let given = args.iter().map(|a| (a.name.clone(), ())).collect();
    let m = Args::match_call(k.name, k.params, given).ok()?;
    Some(["test", "yes", "no"].map(|f| m.position(f)))
}

/// Whether a call's draws from the random stream depend on which of its
/// lazily forced arguments the run forces.
pub fn call_draws_lazily(func: &str, args: &[Arg]) -> bool {
    if func == "tryCatch" {
        return try_catch_args(args).is_ok_and(|t| {
            t.handlers.iter().any(|(_, h)| draws_random(&h.value))
                || t.expr.is_some_and(|e| draws_random(&e.value))
        });
    }
    // What `try`'s `expr` draws before it fails only the run tells.
    if func == "try" {
        return args.iter().any(|a| draws_random(&a.value));
    }
    if func == "switch" {
        return args.iter().skip(1).any(|a| draws_random(&a.value));
    }
    func == "ifelse"
        && ifelse_slots(args).is_some_and(|[_, yes, no]| {
            [yes, no]
                .into_iter()
                .flatten()
                .any(|i| draws_random(&args[i].value))
        })
}

/// `switch`'s `EXPR` and its alternatives as written. R's primitive takes
/// the first argument as `EXPR` whatever its position in a call (its
/// `check1arg` only refuses a name that is not a prefix of `EXPR`).
pub fn switch_args(args: &[Arg]) -> Result<(&Arg, &[Arg]), String> {
    let Some((expr, alts)) = args.split_first() else {
        return Err("'EXPR' is missing".into());
    };
    match expr.name.as_deref() {
        Some(n) if !"EXPR".starts_with(n) || n.is_empty() => Err(format!(
            "supplied argument name '{n}' does not match 'EXPR'"
        )),
        _ if matches!(expr.value.kind, ExprKind::Missing) => Err("'EXPR' is missing".into()),
        _ => Ok((expr, alts)),
    }
}

/// The alternatives of a written `switch`, for `kernels::switch::choose`.
pub fn switch_alternatives(alts: &[Arg]) -> Vec<Alternative<'_>> {
    alts.iter()
        .map(|a| Alternative {
            name: a.name.as_deref(),
            empty: matches!(a.value.kind, ExprKind::Missing),
        })
        .collect()
}

/// A written `tryCatch(expr, ..., finally)`: R evaluates `expr`, then a
/// handler only for a condition it catches, and `finally` last.
pub struct TryCatch<'a> {
    pub expr: Option<&'a Arg>,
    /// Each handler's condition class and the handler as written, in the
    /// order given (the first that catches a condition is the one called).
    pub handlers: Vec<(&'a str, &'a Arg)>,
    pub finally: Option<&'a Arg>,
}

/// `tryCatch`'s arguments matched as R matches them: `expr` by name or as
/// the first positional argument, `finally` by its exact name (it follows
/// `...`), and every other argument a handler named by its class.
pub fn try_catch_args(args: &[Arg]) -> Result<TryCatch<'_>, String> {
    let named = |n: &str| args.iter().find(|a| a.name.as_deref() == Some(n));
    let expr = named("expr").or_else(|| args.iter().find(|a| a.name.is_none()));
    let finally = named("finally");
    let mut handlers = Vec::new();
    for a in args {
        if expr.is_some_and(|e| std::ptr::eq(e, a)) || finally.is_some_and(|f| std::ptr::eq(f, a)) {
            continue;
        }
        match a.name.as_deref() {
            Some(class) => handlers.push((class, a)),
            None => {
                return Err("condition handlers must be specified with a condition class".into())
            }
        }
    }
    Ok(TryCatch {
        expr,
        handlers,
        finally,
    })
}

/// `try`'s `expr`: named or the first positional argument.
pub fn try_expr(args: &[Arg]) -> Result<Option<&Arg>, String> {
    let formals = ["expr", "silent", "outFile"];
    for a in args {
        if let Some(n) = &a.name {
            if !formals.iter().any(|f| f.starts_with(n.as_str())) {
                return Err(format!(
                    "unused argument ({n} = {})",
                    crate::workflow::deparse(&a.value)
                ));
            }
        }
    }
    Ok(args
        .iter()
        .find(|a| a.name.as_deref() == Some("expr"))
        .or_else(|| args.iter().find(|a| a.name.is_none())))
}
