//! Arguments R forces only when it needs them: `ifelse` evaluates `yes`
//! only when some `test` is TRUE and `no` only when some is FALSE,
//! `switch` only the alternative it picks, and `&&` and `||` their right
//! side only when the left does not decide.
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
