//! `cut(x, breaks, labels, include.lowest, right, dig.lab)`, as R 4.2's
//! `cut.default`: breaks given, or a number of equal intervals over the
//! range widened by a thousandth at each end; labels `(a,b]` from
//! `formatC(breaks, digits = dig, width = 1)` with the fewest digits from
//! `dig.lab` that tell them apart; each value's interval as `.bincode`
//! finds it.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::Factor;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// C's `sprintf("%.{digits}g", x)`, as `formatC(x, digits, width = 1)`
/// writes a double.
fn format_g(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    let p = digits.max(1);
    // The exponent after rounding to p significant digits decides.
    let sci = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if exp < -4 || exp >= p as i32 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mantissa), exp.abs())
    } else {
        strip(&format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, x))
    }
}

/// `seq.int(from, to, length.out = n)` as R's C code fills it: from the
/// ends inwards.
fn spaced(from: f64, to: f64, n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    if n > 0 {
        v[0] = from;
    }
    if n > 1 {
        v[n - 1] = to;
    }
    if n > 2 {
        let by = (to - from) / (n - 1) as f64;
        for (i, slot) in v.iter_mut().enumerate().take(n - 1).skip(1) {
            *slot = if i < n / 2 {
                from + i as f64 * by
            } else {
                to - (n - 1 - i) as f64 * by
            };
        }
    }
    v
}

fn breaks_of(x: &[f64], breaks: &[f64], ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    if let [b] = breaks {
        if b.is_nan() || *b < 2.0 {
            return Err(KernelError::new("invalid number of intervals"));
        }
        // `nb <- as.integer(breaks + 1)`: NA past R's integers, which
        // seq.int then refuses.
        if b + 1.0 >= 2147483648.0 {
            ctx.warn("NAs introduced by coercion to integer range");
            return Err(KernelError::new(
                "'length.out' must be a non-negative number",
            ));
        }
        let nb = (b + 1.0) as usize;
        // The breaks, and a label of some tens of bytes per interval.
        crate::kernels::alloc::ensure_room(nb as f64 * 64.0)?;
        let present: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
        let lo = present.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = present.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // range(x, na.rm = TRUE) of nothing, or an infinite end, which
        // seq.int refuses.
        if present.is_empty() {
            ctx.warn("no non-missing arguments to min; returning Inf");
            ctx.warn("no non-missing arguments to max; returning -Inf");
        }
        if !lo.is_finite() {
            return Err(KernelError::new("'from' must be a finite number"));
        }
        if !hi.is_finite() {
            return Err(KernelError::new("'to' must be a finite number"));
        }
        let dx = hi - lo;
        return Ok(if dx == 0.0 {
            let dx = if lo != 0.0 { lo.abs() } else { 1.0 };
            spaced(lo - dx / 1000.0, hi + dx / 1000.0, nb)
        } else {
            let mut b = spaced(lo, hi, nb);
            b[0] = lo - dx / 1000.0;
            b[nb - 1] = hi + dx / 1000.0;
            b
        });
    }
    let mut b = breaks.to_vec();
    b.sort_by(f64::total_cmp);
    Ok(b)
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = match args.get("x") {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => v.as_f64_slice().unwrap_or_default(),
        _ => return Err(KernelError::new("'x' must be numeric")),
    };
    let given = args
        .get("breaks")
        .and_then(Value::as_f64_slice)
        .ok_or_else(|| KernelError::new("argument \"breaks\" is missing, with no default"))?;
    let right = args.bool_or("right", true)?;
    let lowest = args.bool_or("include.lowest", false)?;
    let dig = args.scalar_or("dig.lab", 3.0)?.max(1.0) as usize;
    let ordered = args.bool_or("ordered_result", false)?;
    let b = breaks_of(&x, &given, ctx)?;
    let nb = b.len();
    if b.windows(2).any(|w| w[0] == w[1]) {
        return Err(KernelError::new("'breaks' are not unique"));
    }
    let labels: Option<Vec<String>> = match args.get("labels") {
        None | Some(Value::Null) => {
            let mut text = Vec::new();
            let mut ok = false;
            for d in dig..=dig.max(12) {
                // `0 +` keeps a negative zero from printing as "-0".
                text = b.iter().map(|v| format_g(0.0 + v, d)).collect();
                ok = text.windows(2).all(|w| w[0] != w[1]);
                if ok {
                    break;
                }
            }
            let mut l: Vec<String> = if ok {
                (0..nb.saturating_sub(1))
                    .map(|i| {
                        let (open, close) = if right { ("(", "]") } else { ("[", ")") };
                        format!("{open}{},{}{close}", text[i], text[i + 1])
                    })
                    .collect()
            } else {
                (1..nb).map(|i| format!("Range_{i}")).collect()
            };
            if ok && lowest && !l.is_empty() {
                if right {
                    l[0].replace_range(0..1, "[");
                } else {
                    let last = l.len() - 1;
                    let n = l[last].len();
                    l[last].replace_range(n - 1..n, "]");
                }
            }
            Some(l)
        }
        Some(Value::Bool(b)) if b == &[Some(false)] => None,
        Some(v) => {
            let l = crate::kernels::factor::as_text(v)
                .ok_or_else(|| KernelError::new("invalid 'labels'"))?
                .into_iter()
                .map(|t| t.unwrap_or_else(|| "NA".into()))
                .collect::<Vec<_>>();
            if l.len() + 1 != nb {
                return Err(KernelError::new("lengths of 'breaks' and 'labels' differ"));
            }
            Some(l)
        }
    };
    // .bincode(x, breaks, right, include.lowest)
    let codes: Vec<Option<u32>> = x
        .iter()
        .map(|&v| {
            if nb < 2 || v.is_nan() {
                return None;
            }
            let (mut lo, mut hi) = (0, nb - 1);
            let border = if right { b[lo] } else { b[hi] };
            if v < b[lo] || b[hi] < v || (v == border && !lowest) {
                return None;
            }
            while hi - lo >= 2 {
                let mid = (hi + lo) / 2;
                if v > b[mid] || (!right && v == b[mid]) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Some(lo as u32)
        })
        .collect();
    Ok(match labels {
        None => Value::Num(
            codes
                .iter()
                .map(|c| c.map_or(crate::kernels::value::NA, |c| f64::from(c + 1)))
                .collect(),
        ),
        Some(levels) => Value::Factor(Factor {
            codes,
            levels,
            ordered,
        }),
    })
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Any | Type::Num { .. } | Type::Mat { .. }) => {}
        Some(t) => {
            return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())))
        }
    }
    let len = args.ty("x").and_then(Type::len);
    if matches!(args.ty("labels"), Some(Type::Bool { .. })) {
        return Ok(Type::Num { len, value: None });
    }
    let ordered = matches!(args.ty("ordered_result"), Some(Type::Bool { value: Some(v), .. }) if v == &[Some(true)]);
    Ok(Type::Factor {
        len,
        levels: None,
        ordered,
    })
}
