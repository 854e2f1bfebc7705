//! `format.pval(pv, digits, eps, na.form)`, as R's format.pval (R's
//! src/library/base/R/format.R) writes the p-values of summary tables:
//! those below `eps` as `"< eps"` (its digits two fewer), the others by
//! `format(digits = digits)`, fixed and scientific ones each formatted as
//! one group, and the missing ones as `na.form`.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// `getOption("digits") - 2`, format.pval's default digits.
const DEFAULT_DIGITS: i64 = 5;

/// R's `format()` digits bounds.
const DIGITS: std::ops::RangeInclusive<i64> = 1..=22;

fn digits_arg(args: &Args<&Value>) -> Result<i32, KernelError> {
    let d = match args.get("digits") {
        None => return Ok(DEFAULT_DIGITS as i32),
        Some(v) => match v.as_scalar() {
            Some(x) if x.is_finite() => x.trunc() as i64,
            _ => return Err(KernelError::new("invalid value NA for 'digits' argument")),
        },
    };
    if !DIGITS.contains(&d) {
        return Err(KernelError::new(format!(
            "invalid value {d} for 'digits' argument"
        )));
    }
    Ok(d as i32)
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let pv = match args.get("pv") {
        None => {
            return Err(KernelError::new(
                "argument \"pv\" is missing, with no default",
            ))
        }
        Some(v) => v
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("non-numeric argument to mathematical function"))?,
    };
    let digits = digits_arg(args)?;
    let eps = match args.get("eps") {
        None => f64::EPSILON,
        Some(v) => v.as_scalar().ok_or_else(|| {
            KernelError::new("flowcast's format.pval() takes 'eps' as one number")
        })?,
    };
    let na_form = args.str_or("na.form", "NA")?.to_string();
    let ina: Vec<bool> = pv.iter().map(|v| v.is_nan()).collect();
    let ok: Vec<f64> = pv.iter().copied().filter(|v| !v.is_nan()).collect();
    // `pv < eps` is NA for an NA eps, and R's `if (any(!is0))` stops.
    if eps.is_nan() && !ok.is_empty() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let is0: Vec<bool> = ok.iter().map(|&v| v < eps).collect();
    let mut r = vec![String::new(); ok.len()];
    let rest: Vec<usize> = (0..ok.len()).filter(|&i| !is0[i]).collect();
    let mut rr: Vec<String> = Vec::with_capacity(rest.len());
    if !rest.is_empty() {
        let pv: Vec<f64> = rest.iter().map(|&i| ok[i]).collect();
        // floor(log10(.)) >= -3 is fixed notation, the rest scientific:
        // each group gets its own common layout.
        let fixp: Vec<bool> = pv
            .iter()
            .map(|&v| (if v > 0.0 { v } else { 1e-50 }).log10().floor() >= -3.0 || v == 0.0)
            .collect();
        rr = vec![String::new(); pv.len()];
        for group in [true, false] {
            let at: Vec<usize> = (0..pv.len()).filter(|&i| fixp[i] == group).collect();
            if at.is_empty() {
                continue;
            }
            let vals: Vec<f64> = at.iter().map(|&i| pv[i]).collect();
            for (&i, s) in at.iter().zip(super::format::format_padded(&vals, digits)) {
                rr[i] = s;
            }
        }
        for (&i, s) in rest.iter().zip(&rr) {
            r[i] = s.clone();
        }
    }
    if is0.iter().any(|&z| z) {
        let mut digits = (digits - 2).max(1);
        let sep = if rest.is_empty() {
            if digits == 1 {
                ""
            } else {
                " "
            }
        } else {
            let nc = rr.iter().map(|s| s.chars().count()).max().unwrap_or(0) as i32;
            if digits > 1 && digits + 6 > nc {
                digits = (nc - 7).max(1);
            }
            if digits == 1 && nc <= 6 {
                ""
            } else {
                " "
            }
        };
        let text = format!("<{sep}{}", super::format::format_number(eps, digits));
        for (slot, _) in r.iter_mut().zip(&is0).filter(|(_, &z)| z) {
            slot.clone_from(&text);
        }
    }
    let mut ok = r.into_iter();
    Ok(Value::Str(
        ina.iter()
            .map(|&na| {
                if na {
                    na_form.clone()
                } else {
                    ok.next().unwrap_or_default()
                }
            })
            .collect(),
    ))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let pv = args.ty("pv").cloned().unwrap_or(Type::Any);
    if !pv.is_numeric() && !matches!(pv, Type::Any | Type::Null) {
        return Err(args.error("pv", "non-numeric argument to mathematical function"));
    }
    Ok(Type::Str {
        len: pv.len(),
        value: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::format::format_padded;

    #[test]
    fn fixed_and_scientific_are_formatted_apart() {
        assert_eq!(
            format_padded(&[0.5, 0.0123456, 1.0], 5),
            ["0.500000", "0.012346", "1.000000"]
        );
        assert_eq!(format_padded(&[2e-5, 3.1e-7], 5), ["2.0e-05", "3.1e-07"]);
    }
}
