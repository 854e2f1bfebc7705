//! `rank(x, na.last, ties.method)`: R's `rank` with every deterministic
//! ties method; NAs ranked last, first, kept as NA or dropped.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::order::{order_of, Key};

const METHODS: &[&str] = &["average", "first", "last", "random", "max", "min"];

/// R's `match.arg` on `ties.method`.
fn method(given: Option<&str>) -> Result<&'static str, String> {
    let Some(m) = given else { return Ok("average") };
    let hits: Vec<&'static str> = METHODS
        .iter()
        .copied()
        .filter(|c| c.starts_with(m))
        .collect();
    let exact = METHODS.iter().copied().find(|c| *c == m);
    match (exact, hits.as_slice()) {
        (Some(c), _) if !m.is_empty() => Ok(c),
        (None, [c]) if !m.is_empty() => Ok(c),
        _ => Err(String::from(
            "'arg' should be one of \u{201c}average\u{201d}, \u{201c}first\u{201d}, \
             \u{201c}last\u{201d}, \u{201c}random\u{201d}, \u{201c}max\u{201d}, \u{201c}min\u{201d}"
        )),
    }
}

/// How NAs are ranked.
enum NaRank {
    Last,
    First,
    Keep,
    Drop,
}

fn na_rank(v: Option<&Value>) -> Result<NaRank, KernelError> {
    match v {
        None => Ok(NaRank::Last),
        Some(Value::Str(s)) if s.len() == 1 && s[0] == "keep" => Ok(NaRank::Keep),
        Some(Value::Bool(b)) if b.len() == 1 => Ok(match b[0] {
            Some(true) => NaRank::Last,
            Some(false) => NaRank::First,
            None => NaRank::Drop,
        }),
        Some(v) => match v.as_scalar() {
            Some(x) if x.is_nan() => Ok(NaRank::Drop),
            Some(x) if x != 0.0 => Ok(NaRank::Last),
            Some(_) => Ok(NaRank::First),
            None => Err(KernelError::new("invalid 'na.last' argument")),
        },
    }
}

/// Ranks of the non-NA entries `idx` (in sorted order) of `key`.
fn tie_ranks(key: &Key, sorted: &[usize], method: &str, ranks: &mut [f64], offset: f64) {
    let mut start = 0;
    while start < sorted.len() {
        let mut end = start + 1;
        while end < sorted.len() && key.cmp(sorted[start], sorted[end]).is_eq() {
            end += 1;
        }
        // Positions start+1 ..= end share a value.
        let (lo, hi) = ((start + 1) as f64 + offset, end as f64 + offset);
        for (k, &i) in sorted[start..end].iter().enumerate() {
            ranks[i] = match method {
                "average" => (lo + hi) / 2.0,
                "first" => lo + k as f64,
                "last" => hi - k as f64,
                "max" => hi,
                _ => lo,
            };
        }
        start = end;
    }
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let m = method(match args.get("ties.method") {
        None => None,
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].as_str()),
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    })
    .map_err(KernelError)?;
    if m == "random" {
        return Err(KernelError::new(
            "rank(ties.method = \"random\") is not supported by flowcast",
        ));
    }
    if matches!(x, Value::List(_) | Value::Formula(_) | Value::Lang(_)) {
        return Err(KernelError::new("argument is not a vector"));
    }
    let na = na_rank(args.get("na.last"))?;
    let key = Key::of(x)?;
    let n = key.len();
    let sorted = order_of(std::slice::from_ref(&key), false, None)?;
    let nas: Vec<usize> = (0..n).filter(|&i| key.is_na(i)).collect();
    let mut ranks = vec![NA; n];
    let offset = if matches!(na, NaRank::First) {
        nas.len() as f64
    } else {
        0.0
    };
    tie_ranks(&key, &sorted, m, &mut ranks, offset);
    match na {
        NaRank::Last => {
            for (k, &i) in nas.iter().enumerate() {
                ranks[i] = (sorted.len() + k + 1) as f64;
            }
        }
        NaRank::First => {
            for (k, &i) in nas.iter().enumerate() {
                ranks[i] = (k + 1) as f64;
            }
        }
        NaRank::Keep => {}
        NaRank::Drop => {
            ranks = (0..n)
                .filter(|&i| !key.is_na(i))
                .map(|i| ranks[i])
                .collect();
        }
    }
    Ok(Value::Num(ranks))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("ties.method") {
        match t.const_str() {
            Some(s) => {
                let m = method(Some(s)).map_err(|e| args.error("ties.method", e))?;
                if m == "random" {
                    return Err(args.error(
                        "ties.method",
                        "rank(ties.method = \"random\") is not supported by flowcast",
                    ));
                }
            }
            None if !matches!(t, Type::Str { .. } | Type::Any) => {
                return Err(args.error("ties.method", "'arg' must be of length 1"));
            }
            None => {}
        }
    }
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::Record { .. } | Type::List { .. } | Type::Formula { .. }
    ) {
        return Err(args.error("x", format!("argument is not a vector: {}", x.describe())));
    }
    let dropping = args
        .ty("na.last")
        .and_then(Type::const_nums)
        .is_some_and(|v| v.first().is_some_and(|x| x.is_nan()));
    Ok(Type::Num {
        len: if dropping { None } else { x.len() },
        value: None,
    })
}
