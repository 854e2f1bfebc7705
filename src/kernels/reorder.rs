//! `reorder(x, X, FUN = mean, ..., order = is.ordered(x), decreasing =
//! FALSE)`: R 4.2.2's stats::reorder.default. The scores are `tapply(X,
//! x, FUN, ...)`, the levels x's own sorted by them (stably, NA last), and
//! the scores are kept on the factor as its `scores` attribute.

use super::args::{ArgError, Args};
use super::grouping::{fun_of, group_type, grouping};
use super::names::{bare, names, with_attr};
use super::value::Factor;
use super::{opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "reorder",
    params: &[
        req("x"),
        req("X"),
        opt("FUN"),
        DOTS,
        opt("order"),
        opt("decreasing"),
    ],
    random: false,
    shape,
    eval,
}];

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// sort.default's check of `decreasing`, then radix order's.
fn decreasing(v: Option<&Value>) -> Result<bool, KernelError> {
    let Some(v) = v else { return Ok(false) };
    match bare(v) {
        Value::Bool(b) if b.len() == 1 => {
            b[0].ok_or_else(|| KernelError::new("'decreasing' elements must be TRUE or FALSE"))
        }
        _ => Err(KernelError::new(
            "'decreasing' must be a length-1 logical vector.\nDid you intend to set 'partial'?",
        )),
    }
}

/// The indices of `scores` in `sort(scores, decreasing, na.last = TRUE)`'s
/// order: radix order is stable both ways, so ties keep the levels' order.
fn sorted(scores: &[f64], decreasing: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).collect();
    idx.sort_by(|&a, &b| {
        let (x, y) = (scores[a], scores[b]);
        match (x.is_nan(), y.is_nan()) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            _ if decreasing => y.total_cmp(&x),
            _ => x.total_cmp(&y),
        }
    });
    idx
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let big_x = args.get("X").ok_or_else(|| missing("X"))?;
    if matches!(bare(x), Value::Null) {
        // as.factor(NULL) has no elements.
        return Err(KernelError::new("arguments must have same length"));
    }
    // R's default FUN is mean; a closure given as FUN is the call's own,
    // which tapply finds in ctx.
    let mean = Value::string("mean");
    let fun = args.get("FUN").unwrap_or(&mean);
    let mut given: Vec<(Option<String>, &Value)> = vec![
        (Some("X".into()), big_x),
        (Some("INDEX".into()), x),
        (Some("FUN".into()), fun),
    ];
    given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
    let scores = registry().call("tapply", given, ctx)?;
    let values: Vec<f64> = match bare(&scores) {
        Value::Num(v) => v.clone(),
        Value::Bool(_) => bare(&scores)
            .as_f64_slice()
            .unwrap_or_default()
            .into_owned(),
        // No levels: nothing to sort, whatever the type.
        v if v.is_empty() && !matches!(v, Value::List(_)) => Vec::new(),
        // sort() of tapply's list.
        Value::List(_) => return Err(KernelError::new("'x' must be atomic")),
        other => {
            return Err(KernelError::new(format!(
                "flowcast's reorder takes numeric or logical scores from FUN, not {}",
                other.type_name()
            )))
        }
    };
    // `(if (order) ordered else factor)` comes before sort's checks.
    if let Some(order) = args.get("order") {
        let order = super::logical::condition(order).map_err(KernelError::new)?;
        if order {
            return Err(KernelError::new(
                "flowcast does not support ordered factors (order = TRUE)",
            ));
        }
    }
    let decreasing = decreasing(args.get("decreasing"))?;
    let f = grouping(x, "x")?;
    let labels = names(&scores).map_or_else(|| f.levels.clone(), <[String]>::to_vec);
    if labels.len() != values.len() || labels.len() != f.levels.len() {
        return Err(KernelError::new(
            "flowcast's reorder needs one score per level of 'x'",
        ));
    }
    let order = sorted(&values, decreasing);
    // factor(x, levels = the sorted names): old level `order[k]` is new
    // level k.
    let mut new_code = vec![0u32; order.len()];
    for (k, &old) in order.iter().enumerate() {
        new_code[old] = k as u32;
    }
    let factor = Factor {
        codes: f
            .codes
            .iter()
            .map(|c| c.map(|c| new_code[c as usize]))
            .collect(),
        levels: order.iter().map(|&i| labels[i].clone()).collect(),
        ordered: f.ordered,
    };
    let scores = match scores {
        Value::Named(_) => scores,
        bare_scores => super::names::named(bare_scores, labels),
    };
    Ok(with_attr(Value::Factor(factor), "scores", scores))
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let n = args.ty("x").and_then(Type::len);
    if let (Some(n), Some(m)) = (n, args.ty("X").and_then(Type::len)) {
        if n != m {
            return Err(args.error("X", "arguments must have same length"));
        }
    }
    if let Some(t @ Type::Formula { .. }) = args.ty("x") {
        return Err(args.error(
            "x",
            format!("'x' must be a factor or a vector, not {}", t.describe()),
        ));
    }
    fun_of(args, group_type(args.ty("X")), None, ctx)?;
    Ok(Type::Factor {
        len: n,
        levels: None,
        ordered: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_keep_their_order_and_na_sorts_last_both_ways() {
        let s = [1.0, 2.0, super::super::value::NA, 1.0, 0.5];
        assert_eq!(sorted(&s, false), vec![4, 0, 3, 1, 2]);
        assert_eq!(sorted(&s, true), vec![1, 0, 3, 4, 2]);
    }
}
