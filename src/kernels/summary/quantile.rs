//! Order statistics: `median`, `quantile` (R's nine types), `IQR`, `mad`
//! and `fivenum`, following R 4.2's `median.default`, `quantile.default`,
//! `IQR`, `mad` and `fivenum` (src/library/stats/R/*.R) step by step, so
//! ties, NA and empty input give R's values.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::NA;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// The numbers of `x` (numeric or logical); R's error for anything else.
fn numbers(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        Some(Value::Null) => Ok(Vec::new()),
        Some(v) => v
            .as_f64_slice()
            .map(|s| s.into_owned())
            .ok_or_else(|| KernelError::new("need numeric data")),
        None => Err(KernelError::new(format!(
            "argument \"{name}\" is missing, with no default"
        ))),
    }
}

fn sorted(mut x: Vec<f64>) -> Vec<f64> {
    x.sort_by(f64::total_cmp);
    x
}

/// Puts the sorted order's elements at positions `ks` (0-based, ascending,
/// distinct) in place, as R's `sort(x, partial = ks)` does: each selection
/// splits the slice, so the rest need not be sorted.
fn select_at(x: &mut [f64], ks: &[usize]) {
    if ks.is_empty() {
        return;
    }
    let mid = ks.len() / 2;
    let k = ks[mid];
    let (left, _, right) = x.select_nth_unstable_by(k, f64::total_cmp);
    select_at(left, &ks[..mid]);
    let above: Vec<usize> = ks[mid + 1..].iter().map(|&i| i - k - 1).collect();
    select_at(right, &above);
}

/// `x` with the sorted order's elements at positions `ks` (any order,
/// repeats allowed) in place.
fn partially_sorted(mut x: Vec<f64>, ks: &mut Vec<usize>) -> Vec<f64> {
    ks.sort_unstable();
    ks.dedup();
    ks.retain(|&k| k < x.len());
    select_at(&mut x, ks);
    x
}

fn drop_na(x: Vec<f64>) -> Vec<f64> {
    x.into_iter().filter(|v| !v.is_nan()).collect()
}

/// The median of numbers without NA (NA when there are none): the middle
/// one or two order statistics, found by selection as R's
/// `sort(x, partial = half + 0:1)` does.
pub(crate) fn median_of(x: Vec<f64>) -> f64 {
    let n = x.len();
    if n == 0 {
        return NA;
    }
    let half = n.div_ceil(2);
    let mut ks = vec![half - 1];
    if n % 2 == 0 {
        ks.push(half);
    }
    let s = partially_sorted(x, &mut ks);
    if n % 2 == 1 {
        s[half - 1]
    } else {
        super::mean(&s[half - 1..=half])
    }
}

/// `median.default(x, na.rm)`.
pub(crate) fn median(x: Vec<f64>, na_rm: bool) -> f64 {
    if na_rm {
        median_of(drop_na(x))
    } else if x.iter().any(|v| v.is_nan()) {
        NA
    } else {
        median_of(x)
    }
}

/// `quantile.default(x, probs, type = type)` on data without NA; `None`
/// for a type R has no formula for. Like R, it first works out which
/// order statistics the formula reads, then sorts only those into place.
pub(crate) fn quantile(x: &[f64], probs: &[f64], ty: u8) -> Option<Vec<f64>> {
    let n = x.len();
    let mut ks = Vec::new();
    quantile_by(n, probs, ty, |i| {
        ks.push(i);
        0.0
    })?;
    let s = partially_sorted(x.to_vec(), &mut ks);
    quantile_by(n, probs, ty, |i| s[i])
}

/// The formulas of `quantile.default`, reading the sorted data's element
/// at 0-based position i through `sorted`. Which positions are read does
/// not depend on the values read.
fn quantile_by(
    n: usize,
    probs: &[f64],
    ty: u8,
    mut sorted: impl FnMut(usize) -> f64,
) -> Option<Vec<f64>> {
    let mut at = |i: f64| -> f64 {
        // x[i], 1-based; outside 1..=n (or empty) R's index gives NA.
        if i >= 1.0 && (i as usize) <= n {
            sorted(i as usize - 1)
        } else {
            NA
        }
    };
    let mut qs = Vec::with_capacity(probs.len());
    if ty == 7 {
        for &p0 in probs {
            if p0.is_nan() {
                qs.push(p0);
                continue;
            }
            let p = p0.clamp(0.0, 1.0);
            let index = 1.0 + (n.max(1) - 1) as f64 * p;
            let lo = index.floor();
            let hi = index.ceil();
            let mut q = at(lo);
            let xh = at(hi);
            if index > lo && xh != q {
                let h = index - lo;
                q = (1.0 - h) * q + h * xh;
            }
            qs.push(q);
        }
        return Some(qs);
    }
    let (a, b) = match ty {
        1..=3 => (0.0, 0.0),
        4 => (0.0, 1.0),
        5 => (0.5, 0.5),
        6 => (0.0, 0.0),
        8 => (1.0 / 3.0, 1.0 / 3.0),
        9 => (3.0 / 8.0, 3.0 / 8.0),
        _ => return None,
    };
    // x padded as R pads it: c(x[1], x[1], x, x[n], x[n]), indexed j + 2.
    let mut pad = |j: f64| -> f64 {
        if n == 0 {
            return NA;
        }
        let i = j + 2.0;
        if i <= 2.0 {
            sorted(0)
        } else if i >= (n + 2) as f64 {
            sorted(n - 1)
        } else {
            sorted(i as usize - 3)
        }
    };
    let nf = n as f64;
    for &p0 in probs {
        if p0.is_nan() {
            qs.push(p0);
            continue;
        }
        let p = p0.clamp(0.0, 1.0);
        let (j, h) = if ty <= 3 {
            let nppm = if ty == 3 { nf * p - 0.5 } else { nf * p };
            let j = nppm.floor();
            let h = match ty {
                1 => f64::from(u8::from(nppm > j)),
                2 => (f64::from(u8::from(nppm > j)) + 1.0) / 2.0,
                _ => f64::from(u8::from(nppm != j || j.rem_euclid(2.0) == 1.0)),
            };
            (j, h)
        } else {
            let fuzz = 4.0 * f64::EPSILON;
            let nppm = a + p * (nf + 1.0 - a - b);
            let j = (nppm + fuzz).floor();
            let mut h = nppm - j;
            if h.abs() < fuzz {
                h = 0.0;
            }
            (j, h)
        };
        let (lo, hi) = (pad(j), pad(j + 1.0));
        let mut q = lo;
        if h == 1.0 {
            q = hi;
        }
        let other = (0.0 < h && h < 1.0 && lo != hi) || h.is_nan() || lo.is_nan() || hi.is_nan();
        if other {
            q = (1.0 - h) * lo + h * hi;
        }
        qs.push(q);
    }
    Some(qs)
}

/// The checks and NA handling `quantile.default` does before its formula.
fn quantile_checked(
    x: Vec<f64>,
    probs: &[f64],
    na_rm: bool,
    ty: f64,
) -> Result<Vec<f64>, KernelError> {
    let x = if na_rm {
        drop_na(x)
    } else if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new(
            "missing values and NaN's not allowed if 'na.rm' is FALSE",
        ));
    } else {
        x
    };
    let eps = 100.0 * f64::EPSILON;
    if probs
        .iter()
        .any(|&p| !p.is_nan() && !(-eps..=1.0 + eps).contains(&p))
    {
        return Err(KernelError::new("'probs' outside [0,1]"));
    }
    let t = if ty.fract() == 0.0 && (1.0..=9.0).contains(&ty) {
        ty as u8
    } else {
        0
    };
    quantile(&x, probs, t).ok_or_else(|| KernelError::new("object 'a' not found"))
}

const DEFAULT_PROBS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

pub(super) fn median_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x")?;
    let na_rm = args.bool_or("na.rm", false)?;
    Ok(Value::scalar(median(x, na_rm)))
}

pub(super) fn quantile_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // quantile.ecdf: the quantiles of the data the ecdf was made of.
    let x = match args.get("x").and_then(crate::kernels::callable::ecdf_data) {
        Some(data) => data,
        None => numbers(args, "x")?,
    };
    let probs = match args.get("probs") {
        None => DEFAULT_PROBS.to_vec(),
        Some(v) => v
            .as_f64_slice()
            .map(|s| s.into_owned())
            .ok_or_else(|| KernelError::new("non-numeric argument to binary operator"))?,
    };
    let ty = args.scalar_or("type", 7.0)?;
    let na_rm = args.bool_or("na.rm", false)?;
    let q = Value::Num(quantile_checked(x, &probs, na_rm, ty)?);
    Ok(if args.bool_or("names", true)? {
        crate::kernels::names::named(q, percent_names(&probs))
    } else {
        q
    })
}

/// R's names for quantiles (`format_perc`, 7 digits): `formatC(100 * p,
/// format = "fg", digits = 7)` for fewer than 100 probabilities, else
/// `format(100 * p, digits = 7)`, which gives every name one number of
/// decimals; then `%`.
fn percent_names(probs: &[f64]) -> Vec<String> {
    crate::kernels::names::percent_labels(probs, 7, probs.len() >= 100, "%")
}

pub(super) fn iqr_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x")?;
    let ty = args.scalar_or("type", 7.0)?;
    let na_rm = args.bool_or("na.rm", false)?;
    let q = quantile_checked(x, &[0.25, 0.75], na_rm, ty)?;
    Ok(Value::scalar(q[1] - q[0]))
}

pub(super) fn mad_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut x = numbers(args, "x")?;
    let na_rm = args.bool_or("na.rm", false)?;
    let constant = args.scalar_or("constant", 1.4826)?;
    let low = args.bool_or("low", false)?;
    let high = args.bool_or("high", false)?;
    if na_rm {
        x = drop_na(x);
    }
    // `center = median(x)` is a promise: forced after the NAs are dropped.
    let center = match args.get("center") {
        None => median(x.clone(), false),
        Some(_) => args.scalar("center")?,
    };
    let dev: Vec<f64> = x.iter().map(|v| (v - center).abs()).collect();
    let n = dev.len();
    if (low || high) && n % 2 == 0 {
        if low && high {
            return Err(KernelError::new("'low' and 'high' cannot be both TRUE"));
        }
        // `sort(abs(x - center), partial = n2)[n2]`: sort drops the NAs,
        // and psort refuses a partial index outside what is left.
        let n2 = n / 2 + usize::from(high);
        let dev = drop_na(dev);
        if n2 < 1 || n2 > dev.len() {
            return Err(KernelError::new(format!("index {n2} outside bounds")));
        }
        let s = partially_sorted(dev, &mut vec![n2 - 1]);
        return Ok(Value::scalar(constant * s[n2 - 1]));
    }
    Ok(Value::scalar(constant * median(dev, false)))
}

pub(super) fn fivenum_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = numbers(args, "x")?;
    let na_rm = args.bool_or("na.rm", true)?;
    let x = if x.iter().any(|v| v.is_nan()) {
        if na_rm {
            drop_na(x)
        } else {
            return Ok(Value::Num(vec![NA; 5]));
        }
    } else {
        x
    };
    let x = sorted(x);
    let n = x.len();
    if n == 0 {
        return Ok(Value::Num(vec![NA; 5]));
    }
    let nf = n as f64;
    let n4 = ((nf + 3.0) / 2.0).floor() / 2.0;
    let d = [1.0, n4, (nf + 1.0) / 2.0, nf + 1.0 - n4, nf];
    let at = |i: f64| x[i as usize - 1];
    Ok(Value::Num(
        d.iter()
            .map(|&di| 0.5 * (at(di.floor()) + at(di.ceil())))
            .collect(),
    ))
}

fn check_x(args: &Args<Type>) -> Result<(), ArgError> {
    match args.ty("x") {
        None | Some(Type::Any | Type::Null) => Ok(()),
        Some(t) if t.is_numeric() => Ok(()),
        Some(t) => Err(args.error("x", format!("need numeric data, not {}", t.describe()))),
    }
}

pub(super) fn scalar_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_x(args)?;
    Ok(Type::num(1))
}

pub(super) fn fivenum_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_x(args)?;
    Ok(Type::num(5))
}

pub(super) fn quantile_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if !matches!(args.ty("x"), Some(Type::Record { class, .. }) if class == "ecdf") {
        check_x(args)?;
    }
    if let Some(t) = args.const_scalar_or("type", Some(7.0))? {
        if !(t.fract() == 0.0 && (1.0..=9.0).contains(&t)) {
            return Err(args.error("type", "object 'a' not found"));
        }
    }
    match args.ty("probs") {
        None => Ok(Type::num(5)),
        Some(Type::Any) => Ok(Type::num_unknown()),
        Some(t) if t.is_numeric() => {
            if let Some(p) = t.const_nums() {
                let eps = 100.0 * f64::EPSILON;
                if p.iter()
                    .any(|&p| !p.is_nan() && !(-eps..=1.0 + eps).contains(&p))
                {
                    return Err(args.error("probs", "'probs' outside [0,1]"));
                }
            }
            Ok(match t.len() {
                Some(n) => Type::num(n),
                None => Type::num_unknown(),
            })
        }
        Some(t) => Err(args.error(
            "probs",
            format!("'probs' must be numeric, not {}", t.describe()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type7_interpolates_and_other_types_follow_r() {
        let x = [1.0, 3.0, 2.0, 10.0];
        assert_eq!(quantile(&x, &[0.5], 7).unwrap(), vec![2.5]);
        // R: quantile(c(1,3,2,10), 0.3, type = 1) is 2, type 6 is 1.5
        assert_eq!(quantile(&x, &[0.3], 1).unwrap(), vec![2.0]);
        assert_eq!(quantile(&x, &[0.3], 6).unwrap(), vec![1.5]);
        assert_eq!(quantile(&x, &[0.5], 2).unwrap(), vec![2.5]);
        assert!(quantile(&[], &[0.5], 7).unwrap()[0].is_nan());
    }

    #[test]
    fn median_of_even_and_na() {
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0], false), 2.5);
        assert!(median(vec![1.0, NA], false).is_nan());
        assert_eq!(median(vec![1.0, NA], true), 1.0);
    }

    /// Selection puts exactly the sorted order's elements where the
    /// formulas read them, for every type, on data with ties, for every
    /// length from empty to a few hundred.
    #[test]
    fn selection_reads_what_a_full_sort_would() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 50) as f64 - 25.0
        };
        let probs: Vec<f64> = (0..=40)
            .map(|k| k as f64 / 40.0)
            .chain([0.333, 1e-9])
            .collect();
        for n in (0..40).chain([99, 100, 257]) {
            let x: Vec<f64> = (0..n).map(|_| next()).collect();
            let full = sorted(x.clone());
            for ty in 1..=9 {
                let want = quantile_by(n, &probs, ty, |i| full[i]).unwrap();
                let got = quantile(&x, &probs, ty).unwrap();
                assert_eq!(
                    want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    "n = {n}, type {ty}"
                );
            }
            let m = if n == 0 {
                NA
            } else if n % 2 == 1 {
                full[n / 2]
            } else {
                (full[n / 2 - 1] + full[n / 2]) / 2.0
            };
            assert_eq!(median_of(x).to_bits(), m.to_bits(), "median, n = {n}");
        }
    }
}
