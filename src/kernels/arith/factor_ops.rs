//! R's `Ops.factor` (base/R/factor.R): a factor compares by its labels
//! with `==` and `!=`; every other operator is "not meaningful for
//! factors" and gives NA with R's warning. And `Ops.ordered`: an ordered
//! factor compares by its levels' order with `<`, `>`, `<=` and `>=`,
//! against another of the same levels or against values matched to them.

use std::borrow::Cow;

use crate::kernels::value::Factor;
use crate::kernels::{Ctx, KernelError, Type, Value};

use super::compare::texts;
use super::ops::{ragged, RECYCLE};

fn factor(v: &Value) -> Option<&Factor> {
    match v {
        Value::Factor(f) => Some(f),
        _ => None,
    }
}

fn labels(f: &Factor) -> Vec<Option<Cow<'_, str>>> {
    f.codes
        .iter()
        .map(|c| {
            c.and_then(|c| f.levels.get(c as usize))
                .map(|l| Cow::Borrowed(l.as_str()))
        })
        .collect()
}

fn side<'a>(v: &'a Value, op: &str) -> Result<Vec<Option<Cow<'a, str>>>, KernelError> {
    match factor(v) {
        Some(f) => Ok(labels(f)),
        None => texts(v, op),
    }
}

/// `op` on `e1` and `e2` (absent for a unary operator) when either is a
/// factor; `None` otherwise, for the operator's own rule.
pub(super) fn ops(
    op: &str,
    e1: &Value,
    e2: Option<&Value>,
    ctx: &mut Ctx,
) -> Option<Result<Value, KernelError>> {
    let (f1, f2) = (factor(e1), e2.and_then(factor));
    if f1.is_none() && f2.is_none() {
        return None;
    }
    let n1 = e1.len();
    let n2 = e2.map_or(0, Value::len);
    let ordered = f1.is_some_and(|f| f.ordered) || f2.is_some_and(|f| f.ordered);
    if ordered {
        if let (Some(a), Some(b)) = (f1, f2) {
            if a.ordered != b.ordered {
                return Some(Err(KernelError::new(format!(
                    "flowcast does not compare an ordered factor with an unordered one ('{op}'), where R warns of incompatible methods"
                ))));
            }
        }
        if matches!(op, "<" | ">" | "<=" | ">=") {
            return Some(ordered_compare(op, e1, e2?, ctx));
        }
        if !matches!(op, "==" | "!=") {
            ctx.warn(format!("'{op}' is not meaningful for ordered factors"));
            return Some(Ok(Value::Bool(vec![None; n1.max(n2)])));
        }
    }
    if !matches!(op, "==" | "!=") {
        ctx.warn(format!("\u{2018}{op}\u{2019} not meaningful for factors"));
        return Some(Ok(Value::Bool(vec![None; n1.max(n2)])));
    }
    let e2 = e2?;
    if let (Some(a), Some(b)) = (f1, f2) {
        let mut la = a.levels.clone();
        let mut lb = b.levels.clone();
        la.sort();
        lb.sort();
        if la != lb {
            return Some(Err(KernelError::new("level sets of factors are different")));
        }
    }
    let (a, b) = match (side(e1, op), side(e2, op)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return Some(Err(e)),
    };
    if a.is_empty() || b.is_empty() {
        return Some(Ok(Value::Bool(Vec::new())));
    }
    if ragged(a.len(), b.len()) {
        ctx.warn(RECYCLE);
    }
    let n = a.len().max(b.len());
    let equal = op == "==";
    Some(Ok(Value::Bool(
        (0..n)
            .map(|i| match (&a[i % a.len()], &b[i % b.len()]) {
                (Some(x), Some(y)) => Some((x == y) == equal),
                _ => None,
            })
            .collect(),
    )))
}

/// Ops.ordered's comparison: both sides as codes into the ordered
/// factor's levels (the other side `match`ed to them), NA where either
/// side was NA or matched no level.
fn ordered_compare(op: &str, e1: &Value, e2: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let levels = match (factor(e1), factor(e2)) {
        (Some(a), Some(b)) => {
            if a.levels != b.levels {
                return Err(KernelError::new("level sets of factors are different"));
            }
            &a.levels
        }
        (Some(a), None) => &a.levels,
        (None, Some(b)) => &b.levels,
        (None, None) => return Ok(Value::Bool(Vec::new())),
    };
    let codes = |v: &Value| -> Result<Vec<Option<u32>>, KernelError> {
        match v {
            Value::Factor(f) => Ok(f.codes.clone()),
            other => {
                let text = crate::kernels::factor::as_text(other).ok_or_else(|| {
                    KernelError::new(format!(
                        "comparison ({op}) is possible only for atomic and list types"
                    ))
                })?;
                Ok(text
                    .iter()
                    .map(|t| {
                        t.as_ref()
                            .and_then(|t| levels.iter().position(|l| l == t))
                            .map(|i| i as u32)
                    })
                    .collect())
            }
        }
    };
    let (a, b) = (codes(e1)?, codes(e2)?);
    if a.is_empty() || b.is_empty() {
        return Ok(Value::Bool(Vec::new()));
    }
    if ragged(a.len(), b.len()) {
        ctx.warn(RECYCLE);
    }
    let n = a.len().max(b.len());
    Ok(Value::Bool(
        (0..n)
            .map(|i| match (a[i % a.len()], b[i % b.len()]) {
                (Some(x), Some(y)) => Some(match op {
                    "<" => x < y,
                    ">" => x > y,
                    "<=" => x <= y,
                    _ => x >= y,
                }),
                _ => None,
            })
            .collect(),
    ))
}

/// The type of `op` on these operands when either is a factor: logical
/// of the longer length (NA when the operator is not `==` or `!=`).
pub(super) fn ops_shape(op: &str, t1: &Type, t2: Option<&Type>) -> Option<Type> {
    let is_factor = |t: &Type| matches!(t, Type::Factor { .. });
    if !is_factor(t1) && !t2.is_some_and(is_factor) {
        return None;
    }
    let compares = matches!(op, "==" | "!=");
    let len = match (t1.len(), t2.map(Type::len)) {
        (Some(0), _) | (_, Some(Some(0))) if compares => Some(0),
        (Some(a), None) => Some(a),
        (Some(a), Some(Some(b))) => Some(a.max(b)),
        _ => None,
    };
    Some(Type::logical(len))
}
