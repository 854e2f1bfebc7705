//! `nextn(n, factors)`: fourier.c's `nextn` of R 4.2.2, the smallest
//! integer at least `n` that R's `ok_n` accepts (divided down to 1 by the
//! factors, each in turn as often as it goes). R steps up from `n` one by
//! one; flowcast does so for a while, then finds the same number among the
//! products of the factors (every number `ok_n` accepts is one), so that a
//! far answer (the next power of 2 past 2^30) does not take 2^30 steps.

use super::args::{ArgError, Args};
use super::names::bare;
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "nextn",
    params: &[req("n"), opt("factors")],
    random: false,
    shape,
    eval,
}];

const INT_MAX: f64 = 2147483647.0;

/// fourier.c's `ok_n` (and `ok_n_64`).
fn ok_n(mut n: u128, f: &[u128]) -> bool {
    for &fi in f {
        while n % fi == 0 {
            n /= fi;
            if n == 1 {
                return true;
            }
        }
    }
    n == 1
}

/// The smallest number at least `n` (> 1) that `ok_n` accepts: R's search
/// for a while, then, as a power of the first factor is one, the products
/// of the factors up to it, each branch cut once it reaches the best
/// found.
pub(crate) fn next_ok(n: u128, f: &[u128]) -> u128 {
    // R's count up first: with many factors the answer is near, and the
    // products below it too many to list.
    for m in n..n.saturating_add(100_000) {
        if ok_n(m, f) {
            return m;
        }
    }
    let mut best = 1u128;
    while best < n {
        best = best.saturating_mul(f[0]);
    }
    let mut distinct: Vec<u128> = f.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    // Depth-first over products p·d with d at least the last factor used.
    let mut stack: Vec<(u128, usize)> = vec![(1, 0)];
    while let Some((p, from)) = stack.pop() {
        // A product ok_n refuses may still have multiples it accepts.
        if p >= n && ok_n(p, f) {
            best = best.min(p);
            continue;
        }
        for (i, &d) in distinct.iter().enumerate().skip(from) {
            let q = p.saturating_mul(d);
            if q >= best {
                break;
            }
            stack.push((q, i));
        }
    }
    best
}

/// `coerceVector(x, INTSXP)` of one element: truncated, NA (None) for NA,
/// NaN or past the int range.
fn as_int(v: f64) -> Option<i64> {
    (v.is_finite() && v.abs() <= INT_MAX).then(|| v.trunc() as i64)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let nv = bare(
        args.get("n")
            .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?,
    );
    if matches!(nv, Value::Null) {
        return Ok(Value::Num(Vec::new()));
    }
    let factors: Vec<Option<i64>> = match args.get("factors").map(bare) {
        None => vec![Some(2), Some(3), Some(5)],
        Some(Value::Null) => Vec::new(),
        Some(Value::Str(s)) => s
            .iter()
            .map(|t| t.trim().parse::<f64>().ok().and_then(as_int))
            .collect(),
        Some(v) => match v.as_f64_slice() {
            Some(s) => s.iter().map(|&x| as_int(x)).collect(),
            None => return Err(KernelError::new("invalid factors")),
        },
    };
    if factors.is_empty() {
        return Err(KernelError::new("no factors"));
    }
    let f: Vec<u128> = factors
        .iter()
        .map(|v| match v {
            Some(x) if *x > 1 => Ok(*x as u128),
            _ => Err(KernelError::new("invalid factors")),
        })
        .collect::<Result<_, _>>()?;
    let n: Vec<f64> = match nv {
        Value::Num(_) | Value::Mat(_) => nv.as_f64_slice().unwrap_or_default().into_owned(),
        _ => {
            return Err(KernelError::new(
                "'n' must have typeof(.) \"integer\" or \"double\"",
            ))
        }
    };
    if n.is_empty() {
        return Ok(Value::Num(Vec::new()));
    }
    let n_max = n
        .iter()
        .filter(|v| !v.is_nan())
        .fold(-1.0f64, |m, &v| if v > m { v } else { m });
    // The C compares with INT_MAX / f[0] in integer division.
    let use_int = n_max <= (2147483647 / f[0]) as f64;
    let mut warned_big = false;
    let out = n
        .iter()
        .map(|&v| {
            if v.is_nan() {
                return NA;
            }
            let v = if use_int { v.trunc() } else { v };
            if v <= 1.0 {
                return 1.0;
            }
            // (uint64_t) of a double truncates; past 2^64 the C is
            // undefined, and flowcast gives NA.
            if !use_int && v >= 18446744073709551616.0 {
                return NA;
            }
            let r = next_ok(v.trunc() as u128, &f);
            if use_int {
                if r >= INT_MAX as u128 {
                    ctx.warn(
                        "nextn() found no solution < 2147483647 = INT_MAX (the maximal integer); \
                         pass '0+ n' instead of 'n'",
                    );
                    return NA;
                }
            } else if r > 9007199254740992 && !warned_big {
                warned_big = true;
                ctx.warn(format!(
                    "nextn() = {r} > 2^53 may not be exactly representable in R (as \"double\")"
                ));
            }
            r as f64
        })
        .collect();
    Ok(Value::Num(out))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("n") {
        Some(Type::Null) => Ok(Type::num(0)),
        Some(t @ (Type::Num { .. } | Type::Mat { .. })) => Ok(Type::Num {
            len: t.len(),
            value: None,
        }),
        None | Some(Type::Any) => Ok(Type::num_unknown()),
        Some(_) => Err(args.error("n", "'n' must have typeof(.) \"integer\" or \"double\"")),
    }
}
