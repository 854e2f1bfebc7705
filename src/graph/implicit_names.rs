//! The names R gives arguments from their text: `data.frame(x, y)` has
//! columns `x` and `y`, `cbind(x, y)` columns `x` and `y`. R reads the
//! call's expressions (`substitute`), which a kernel never sees, so the
//! analysis and the evaluator both tag such arguments here, before the
//! kernel reads its arguments' names.

use crate::workflow::{Arg, ExprKind};

/// Tags the untagged arguments of a call to `func` that R names after
/// their text. `one_column(i)` says whether argument `i` makes one column
/// (a vector or factor, not a matrix, list or data frame, whose columns
/// keep their own names).
///
/// - `data.frame`, and `cbind` with a data frame among its arguments
///   (`cbind.data.frame` calls `data.frame`): any expression, deparsed
///   (`check.names` then makes a syntactic name of it, as R's
///   `make.names` does);
/// - `cbind`, `rbind` otherwise: a bare symbol only (R's
///   `deparse.level = 1`).
pub fn tag(
    func: &str,
    args: &[Arg],
    tags: &mut [&mut Option<String>],
    one_column: impl Fn(usize) -> bool,
    with_frame: bool,
) {
    if matches!(func, "ts.union" | "ts.intersect") {
        return tag_series(args, tags);
    }
    let any_expression = match func {
        "data.frame" => true,
        "cbind" => with_frame,
        "rbind" => false,
        _ => return,
    };
    for (i, (a, tag)) in args.iter().zip(tags.iter_mut()).enumerate() {
        if tag.is_some() || !one_column(i) {
            continue;
        }
        **tag = match &a.value.kind {
            ExprKind::Name(n) => Some(n.clone()),
            _ if any_expression => Some(crate::workflow::deparse(&a.value)),
            _ => None,
        };
    }
}

/// `.makeNamesTs(...)`, the names of `ts.union`, `ts.intersect` and
/// `cbind.ts`: every untagged argument (a matrix too, whose columns it
/// prefixes) is named by its text.
pub fn tag_series(args: &[Arg], tags: &mut [&mut Option<String>]) {
    for (a, tag) in args.iter().zip(tags.iter_mut()) {
        if tag.is_none() {
            **tag = Some(crate::workflow::deparse(&a.value));
        }
    }
}
