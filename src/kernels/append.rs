//! `append(x, values, after = length(x))`: R 4.2.2's base/R/append.R,
//!
//! ```r
//! if (!after) c(values, x)
//! else if (after >= lengx) c(x, values)
//! else c(x[1L:after], values, x[(after + 1L):lengx])
//! ```
//!
//! in that shape: the two pieces of `x` are R's subscripts of the colon
//! sequences (a fractional `after` truncates them as `[` does, so
//! `append(1:5, 0, 1.5)` loses x's last element as R's does), joined as
//! `c` joins them, names and all.

use super::data::combine::combine;
use super::index::index;
use super::names::{bare, named, names};
use super::value::List;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "append",
    params: &[req("x"), req("values"), opt("after")],
    random: false,
    shape,
    eval,
}];

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// R's `from:to` of doubles (seq_colon): `floor(|to - from| + 1e-10) + 1`
/// steps of one from `from`, with seq_colon's refusals: a length past
/// R_XLEN_T_MAX (`after = -Inf` overflowed the count, a panic), and a
/// vector no machine holds (`after = -1e15`) in R's words before it is
/// made.
fn colon(from: f64, to: f64) -> Result<Vec<f64>, KernelError> {
    let r = (to - from).abs();
    if r.is_nan() || r >= 4_503_599_627_370_496.0 {
        return Err(KernelError::new("result would be too long a vector"));
    }
    let n = (r + 1e-10).floor() as usize + 1;
    let step = if from <= to { 1.0 } else { -1.0 };
    let mut out = super::alloc::vec_with_capacity(n)?;
    out.extend((0..n).map(|k| from + step * k as f64));
    Ok(out)
}

/// `after` as `if (!after)` reads it: a number (logicals as 0/1); R's
/// errors for what `!` or `if` refuse.
fn after_of(v: Option<&Value>, lengx: usize) -> Result<f64, KernelError> {
    let Some(v) = v else {
        return Ok(lengx as f64);
    };
    let nums = match bare(v) {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
            bare(v).as_f64_slice().unwrap_or_default().into_owned()
        }
        Value::Null => Vec::new(),
        Value::Factor(f) => f.integer_codes(),
        _ => return Err(KernelError::new("invalid argument type")),
    };
    match nums.as_slice() {
        [] => Err(KernelError::new("argument is of length zero")),
        [a] if a.is_nan() => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        [a] => Ok(*a),
        _ => Err(KernelError::new("the condition has length > 1")),
    }
}

/// The names of the joined pieces, `""` where a piece has none; `None`
/// when no piece has any (as `c` gives).
fn joined_names(pieces: &[Value]) -> Option<Vec<String>> {
    let own = |v: &Value| -> Option<Vec<String>> {
        match v {
            Value::List(l) => l.names.clone(),
            other => names(other).map(<[String]>::to_vec),
        }
    };
    if pieces.iter().all(|p| own(p).is_none()) {
        return None;
    }
    let mut out = Vec::new();
    for p in pieces {
        match own(p) {
            Some(ns) => out.extend(ns),
            None => out.extend(std::iter::repeat_n(String::new(), p.len())),
        }
    }
    Some(out)
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let values = args.get("values").ok_or_else(|| missing("values"))?;
    for v in [x, values] {
        if matches!(bare(v), Value::Factor(_)) {
            return Err(KernelError::new(
                "flowcast's append does not join factors: use as.character() first",
            ));
        }
        if matches!(bare(v), Value::Formula(_)) {
            return Err(KernelError::new("cannot combine a formula with c()"));
        }
        if matches!(bare(v), Value::Lang(_)) {
            return Err(KernelError::new(
                "flowcast's c() does not combine names or calls",
            ));
        }
    }
    let lengx = x.len();
    let after = after_of(args.get("after"), lengx)?;
    let pieces: Vec<Value> = if after == 0.0 {
        vec![values.clone(), x.clone()]
    } else if after >= lengx as f64 {
        vec![x.clone(), values.clone()]
    } else {
        let head = index(x, &[Some(Value::Num(colon(1.0, after)?))])?;
        let tail = index(x, &[Some(Value::Num(colon(after + 1.0, lengx as f64)?))])?;
        vec![head, values.clone(), tail]
    };
    let ns = joined_names(&pieces);
    let bare_pieces: Vec<&Value> = pieces.iter().map(bare).collect();
    let joined = combine(&bare_pieces)?;
    Ok(match (joined, ns) {
        (Value::List(l), ns) => Value::List(List { names: ns, ..l }),
        (v, Some(ns)) => named(v, ns),
        (v, None) => v,
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (Some(x), Some(values)) = (args.ty("x"), args.ty("values")) else {
        return Ok(Type::Any);
    };
    for (name, t) in [("x", x), ("values", values)] {
        match t {
            Type::Factor { .. } => {
                return Err(args.error(
                    name,
                    "flowcast's append does not join factors: use as.character() first",
                ))
            }
            Type::Formula { .. } => {
                return Err(args.error(name, "cannot combine a formula with c()"))
            }
            _ => {}
        }
    }
    if let Some(t) = args.ty("after") {
        if matches!(
            t,
            Type::Str { .. } | Type::List { .. } | Type::Record { .. }
        ) {
            return Err(args.error("after", "invalid argument type"));
        }
    }
    // The length is known only when `after` cuts no element away.
    let whole = args.ty("after").is_none_or(|t| {
        t.const_nums()
            .is_some_and(|v| v.len() == 1 && v[0].fract() == 0.0)
    });
    let len = match (x.len(), values.len()) {
        (Some(a), Some(b)) if whole => Some(a + b),
        _ => None,
    };
    let rank = |t: &Type| match t {
        Type::Null => Some(0),
        Type::Bool { .. } | Type::BoolMat { .. } => Some(1),
        Type::Num { .. } | Type::Mat { .. } => Some(2),
        Type::Complex { .. } | Type::ComplexMat { .. } => Some(3),
        Type::Str { .. } => Some(4),
        Type::List { .. } | Type::Record { .. } => Some(5),
        _ => None,
    };
    let (Some(a), Some(b)) = (rank(x), rank(values)) else {
        return Ok(Type::Any);
    };
    Ok(match a.max(b) {
        0 => Type::Null,
        1 => Type::Bool { len, value: None },
        2 => Type::Num { len, value: None },
        3 => Type::Complex { len },
        4 => Type::Str { len, value: None },
        _ => Type::List {
            len,
            elem: Box::new(Type::Any),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colon_is_rs() {
        assert_eq!(colon(1.0, 3.0).unwrap(), vec![1.0, 2.0, 3.0]);
        assert_eq!(colon(2.5, 5.0).unwrap(), vec![2.5, 3.5, 4.5]);
        assert_eq!(colon(1.0, -1.0).unwrap(), vec![1.0, 0.0, -1.0]);
    }
}
