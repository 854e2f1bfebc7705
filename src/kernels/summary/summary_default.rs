//! `summary()` of a vector, as R 4.2's `summary.default` and
//! `summary.factor`: numbers give Min., 1st Qu., Median, Mean, 3rd Qu. and
//! Max. (type-7 quantiles of the non-NA values, unrounded) and the count
//! of NA's when there are any; a factor its level counts (and NA's); a
//! logical vector its mode and counts, and text its length, class and
//! mode, both as text, each element named as R names it.

use super::quantile::quantile;
use crate::kernels::{names, KernelError, Type, Value};

/// `summary(object)` of a vector; `None` for anything else (a model is
/// `models::summary`'s).
pub(crate) fn summary_default(object: &Value) -> Option<Result<Value, KernelError>> {
    Some(Ok(match object {
        Value::Num(x) => {
            let present: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
            let nas = x.len() - present.len();
            let q = quantile(&present, &[0.0, 0.25, 0.5, 0.75, 1.0], 7)?;
            let mut out = vec![q[0], q[1], q[2], super::mean(&present), q[3], q[4]];
            let mut labels = ["Min.", "1st Qu.", "Median", "Mean", "3rd Qu.", "Max."].to_vec();
            if nas > 0 {
                out.push(nas as f64);
                labels.push("NA's");
            }
            names::named(
                Value::Num(out),
                labels.iter().map(|s| s.to_string()).collect(),
            )
        }
        Value::Factor(f) => {
            let mut counts = vec![0.0; f.levels.len()];
            let mut nas = 0.0;
            for c in &f.codes {
                match c {
                    Some(c) => counts[*c as usize] += 1.0,
                    None => nas += 1.0,
                }
            }
            let mut labels = f.levels.clone();
            if nas > 0.0 {
                counts.push(nas);
                labels.push("NA's".to_string());
            }
            names::named(Value::Num(counts), labels)
        }
        Value::Bool(b) => {
            let count = |v: Option<bool>| b.iter().filter(|x| **x == v).count();
            let mut out = vec!["logical".to_string()];
            for v in [Some(false), Some(true), None] {
                let n = count(v);
                if n > 0 {
                    out.push(n.to_string());
                }
            }
            Value::Str(out)
        }
        Value::Str(s) => Value::Str(vec![
            s.len().to_string(),
            "character".to_string(),
            "character".to_string(),
        ]),
        _ => return None,
    }))
}

/// The type of [`summary_default`]; `None` where it does not apply.
pub(crate) fn summary_default_type(object: &Type) -> Option<Type> {
    match object {
        Type::Num { .. } | Type::Factor { .. } => Some(Type::num_unknown()),
        Type::Bool { .. } | Type::Str { .. } => Some(Type::Str {
            len: None,
            value: None,
        }),
        _ => None,
    }
}
