//! `poisson.test(x, T, r)`: R 4.2's exact test of a Poisson rate (one
//! count) or of the ratio of two rates (two counts, by binom.test).

use super::super::nmath::dfun::{dpois, ppois};
use super::super::nmath::qgamma::qgamma;
use super::super::summary::ldouble;
use super::counts::binom_core;
use super::ttest::conf_level;
use super::{alternative, check_alternative, record, Alternative};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_alternative(args)?;
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            ("conf.int", Type::num(2)),
            ("estimate", Type::num(1)),
            ("null.value", Type::num(1)),
            ("alternative", s()),
            ("method", s()),
        ],
    ))
}

fn numbers(args: &Args<&Value>, name: &str, default: f64) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        None => Ok(vec![default]),
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_))) => {
            Ok(v.as_f64_slice().map(|s| s.to_vec()).unwrap_or_default())
        }
        Some(_) => Err(KernelError::new(
            "non-numeric argument to mathematical function",
        )),
    }
}

/// How many `i` of `from..=to` (whole numbers) have `dpois(i, m) <= d`,
/// where that holds on a tail: a suffix (`upper`) or a prefix. R counts
/// them one by one (`sum(dpois(i, m) <= d * relErr)` over the whole
/// range); past a million the range is bisected instead, as dpois is
/// monotone there, and R's vector would be gigabytes.
fn tail_count(from: f64, to: f64, m: f64, d: f64, upper: bool) -> Result<f64, KernelError> {
    if to < from {
        return Ok(0.0);
    }
    // seq.int(from, to)'s own limit, then room for it and for dpois's
    // values, as R allocates both.
    let len = to - from + 1.0;
    if len.is_nan() || len >= 4_503_599_627_370_496.0 {
        return Err(KernelError::new("result would be too long a vector"));
    }
    super::super::alloc::ensure_room(16.0 * len)?;
    let hit = |i: f64| dpois(i, m, false) <= d;
    if to - from < 1e6 {
        let mut c = 0.0;
        let mut i = from;
        while i <= to {
            if hit(i) {
                c += 1.0;
            }
            i += 1.0;
        }
        return Ok(c);
    }
    // The first index of the suffix that holds (upper), or one past the
    // last of the prefix.
    let (mut lo, mut hi) = (from, to + 1.0);
    while hi - lo > 1.0 {
        let mid = (lo + (hi - lo) / 2.0).floor();
        if mid <= lo || mid >= hi {
            break;
        }
        if hit(mid) == upper {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let edge = if hit(lo) == upper { lo } else { hi };
    Ok(if upper { to - edge + 1.0 } else { edge - from })
}

/// The one-sample test's two-sided p-value (poisson.test's own loop).
fn two_sided(x: f64, m: f64) -> Result<Value, KernelError> {
    if m == 0.0 {
        // R's `(x == 0)`: a logical p-value.
        return Ok(Value::flag(x == 0.0));
    }
    let rel_err = 1.0 + 1e-7;
    let d = dpois(x, m, false);
    let p = if x == m {
        1.0
    } else if x < m {
        let mut n = (2.0 * m - x).ceil();
        while dpois(n, m, false) > d {
            n *= 2.0;
        }
        let y = tail_count(m.ceil(), n, m, d * rel_err, true)?;
        ppois(x, m, true, false) + ppois(n - y, m, false, false)
    } else {
        let y = tail_count(0.0, m.floor(), m, d * rel_err, false)?;
        ppois(y - 1.0, m, true, false) + ppois(x - 1.0, m, false, false)
    };
    Ok(Value::scalar(p))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x", 0.0)?;
    let mut t = numbers(args, "T", 1.0)?;
    if x.len() != t.len() {
        if t.len() == 1 {
            t = vec![t[0]; x.len()];
        } else {
            return Err(KernelError::new("'x' and 'T' have incompatible length"));
        }
    }
    let xr: Vec<f64> = x.iter().map(|v| v.round_ties_even()).collect();
    if x.iter().any(|v| !v.is_finite() || *v < 0.0)
        || x.iter().zip(&xr).any(|(a, b)| (a - b).abs() > 1e-7)
    {
        return Err(KernelError::new(
            "'x' must be finite, nonnegative, and integer",
        ));
    }
    let x = xr;
    if t.iter().any(|v| v.is_nan() || *v < 0.0) {
        return Err(KernelError::new("'T' must be nonnegative"));
    }
    if x.is_empty() {
        return Err(KernelError::new("not enough data"));
    }
    if x.len() > 2 {
        return Err(KernelError::new("the case k > 2 is unimplemented"));
    }
    let r = match args.get("r") {
        None => 1.0,
        Some(v) => {
            let r = v.as_f64_slice().unwrap_or_default();
            match r.as_ref() {
                [] => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
                [r] if !r.is_nan() && *r >= 0.0 => *r,
                _ => return Err(KernelError::new("'r' must be a single positive number")),
            }
        }
    };
    let alt = alternative(args)?;
    if x.len() == 2 {
        let p = r * t[0] / (r * t[0] + t[1]);
        if !(0.0..=1.0).contains(&p) {
            return Err(KernelError::new(
                "'p' must be a single number between 0 and 1",
            ));
        }
        let conf = conf_level(args, true)?;
        let n = x[0] + x[1];
        let (pval, cint) = binom_core(x[0], n, p, alt, conf)?;
        let expected = n * r * t[0] / ldouble::sum(&[t[0], t[1] * r]).to_f64();
        let cint = cint
            .iter()
            .map(|pp| pp / (1.0 - pp) * t[1] / t[0])
            .collect();
        return Ok(record(vec![
            ("statistic", super::nm(x[0], "count1")),
            ("parameter", super::nm(expected, "expected count1")),
            ("p.value", Value::scalar(pval)),
            ("conf.int", Value::Num(cint)),
            (
                "estimate",
                super::nm((x[0] / t[0]) / (x[1] / t[1]), "rate ratio"),
            ),
            ("null.value", super::nm(r, "rate ratio")),
            ("alternative", Value::string(alt.r_name())),
            ("method", Value::string("Comparison of Poisson rates")),
        ]));
    }
    let (x, t) = (x[0], t[0]);
    let m = r * t;
    let pval = match alt {
        Alternative::Less => Value::scalar(ppois(x, m, true, false)),
        Alternative::Greater => Value::scalar(ppois(x - 1.0, m, false, false)),
        Alternative::TwoSided => two_sided(x, m)?,
    };
    // conf.level is not checked in the one-sample test: R's qgamma gives
    // NaN for a level outside [0, 1].
    let conf = match args.get("conf.level") {
        None => 0.95,
        Some(v) => v.as_scalar().ok_or_else(|| {
            KernelError::new("'conf.level' must be a single number between 0 and 1")
        })?,
    };
    let p_l = |alpha: f64| {
        if x == 0.0 {
            0.0
        } else {
            qgamma(alpha, x, 1.0, true, false)
        }
    };
    let p_u = |alpha: f64| qgamma(1.0 - alpha, x + 1.0, 1.0, true, false);
    let cint = match alt {
        Alternative::Less => [0.0, p_u(1.0 - conf)],
        Alternative::Greater => [p_l(1.0 - conf), f64::INFINITY],
        Alternative::TwoSided => {
            let alpha = (1.0 - conf) / 2.0;
            [p_l(alpha), p_u(alpha)]
        }
    };
    Ok(record(vec![
        ("statistic", super::nm(x, "number of events")),
        ("parameter", super::nm(t, "time base")),
        ("p.value", pval),
        ("conf.int", Value::Num(cint.iter().map(|c| c / t).collect())),
        ("estimate", super::nm(x / t, "event rate")),
        ("null.value", super::nm(r, "event rate")),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string("Exact Poisson test")),
    ]))
}
