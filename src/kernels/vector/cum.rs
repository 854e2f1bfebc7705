//! Running results and products: `cumsum`, `cumprod`, `cummax`, `cummin`
//! (R's cum.c: sums and products accumulated in long double, each partial
//! result rounded to double; NA and NaN carried forward), `prod` (R's
//! `rprod`, long double) and `range`.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::arith::math;
use crate::kernels::summary::ldouble::{self, LongDouble};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::numeric_type;

fn cum_data<'a>(args: &'a Args<&Value>) -> Result<std::borrow::Cow<'a, [f64]>, KernelError> {
    let x = super::arg_or_null(args, "x");
    match x {
        Value::Null => Ok(std::borrow::Cow::Borrowed(&[])),
        Value::Str(_) => Err(KernelError::new(format!(
            "'{}' not defined for character vectors in flowcast",
            args.func
        ))),
        other => other.as_f64_slice().ok_or_else(|| {
            KernelError::new(format!(
                "invalid 'type' ({}) of argument",
                other.type_name()
            ))
        }),
    }
}

pub(super) fn cum_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = cum_data(args)?;
    let integer = super::arg_or_null(args, "x");
    let out: Vec<f64> = match args.func {
        "cumsum" if ctx.is_integer(integer) => icumsum(&x, ctx),
        "cumsum" => ldouble::cumsum(&x),
        "cumprod" => ldouble::cumprod(&x),
        func => {
            let max = func == "cummax";
            let mut m = if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            x.iter()
                .map(|&v| {
                    if v.is_nan() || m.is_nan() {
                        // cum.c propagates NA and NaN by adding them.
                        m += v;
                    } else if (max && v > m) || (!max && v < m) {
                        m = v;
                    }
                    m
                })
                .collect()
        }
    };
    Ok(Value::Num(out))
}

/// R's `icumsum` (cum.c): the running sum of integers, NA from the first
/// NA or the first sum outside the integer range on, with R's warning.
fn icumsum(x: &[f64], ctx: &mut Ctx) -> Vec<f64> {
    let mut out = vec![crate::kernels::value::NA; x.len()];
    let mut sum = 0.0;
    for (o, &v) in out.iter_mut().zip(x) {
        if v.is_nan() {
            break;
        }
        sum += v;
        if sum.abs() > 2_147_483_647.0 {
            ctx.warn("integer overflow in 'cumsum'; use 'cumsum(as.numeric(.))'");
            break;
        }
        *o = sum;
    }
    out
}

pub(super) fn cum_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(Type::Str { .. }) = args.ty("x") {
        return Err(args.error(
            "x",
            format!(
                "'{}' not defined for character vectors in flowcast",
                args.func
            ),
        ));
    }
    let len = numeric_type(args, "x")?;
    Ok(Type::Num { len, value: None })
}

/// The numbers of every `...` argument.
fn dots_numbers<'a>(
    args: &'a Args<&Value>,
) -> Result<Vec<std::borrow::Cow<'a, [f64]>>, KernelError> {
    let mut parts = Vec::new();
    for (_, v) in args.dots() {
        match v {
            Value::Null => {}
            v => parts.push(v.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
            })?),
        }
    }
    Ok(parts)
}

/// R's `rprod`: one long-double product over all arguments.
pub(super) fn prod_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = args.bool_or("na.rm", false)?;
    let values: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    if let Some(parts) = crate::kernels::arith::complex_ops::complex_parts(&values) {
        return Ok(crate::kernels::arith::complex_ops::prod(&parts?, rm));
    }
    let mut p = LongDouble::from_f64(1.0);
    for part in dots_numbers(args)? {
        for &v in part.iter() {
            if !(rm && v.is_nan()) {
                p = p.mul(LongDouble::from_f64(v));
            }
        }
    }
    Ok(Value::scalar(p.to_f64()))
}

pub(super) fn prod_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = crate::kernels::summary::complex_summary(args) {
        return Ok(t);
    }
    args.numeric_dots()?;
    Ok(Type::num(1))
}

/// `range(..., na.rm, finite)`: `c(min, max)` of every argument.
pub(super) fn range_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let finite = args.bool_or("finite", false)?;
    let rm = args.bool_or("na.rm", false)? || finite;
    if let Some(r) = crate::kernels::factor::summary_ordered("range", args, rm, ctx) {
        return r;
    }
    // range.default: `c(...)` first, so every argument is text (TRUE is
    // "TRUE" here, where max(TRUE, "a") compares "1"), then min and max,
    // `finite` meaning na.rm.
    if args.dots().any(|(_, v)| matches!(v, Value::Str(_))) {
        if let Some((_, Value::Factor(_))) = args.dots().next() {
            return Err(KernelError::new(
                "\u{2018}range\u{2019} not meaningful for factors",
            ));
        }
        let mut texts = Vec::new();
        for (_, v) in args.dots() {
            texts.extend(crate::kernels::factor::as_text(v).ok_or_else(|| {
                KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
            })?);
        }
        let lo = math::text_or_warn(math::text_extreme(false, &texts, rm), ctx);
        let hi = math::text_or_warn(math::text_extreme(true, &texts, rm), ctx);
        return Ok(Value::Str(vec![lo, hi]));
    }
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut na: Option<f64> = None;
    let mut any = false;
    for part in dots_numbers(args)? {
        for &v in part.iter() {
            if v.is_nan() {
                if !rm {
                    // R's min/max: NA wins over NaN.
                    na = Some(match na {
                        Some(p) if crate::kernels::value::is_na(p) => p,
                        _ => v,
                    });
                }
                continue;
            }
            if finite && v.is_infinite() {
                continue;
            }
            any = true;
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if let Some(n) = na {
        return Ok(Value::Num(vec![n, n]));
    }
    if !any {
        ctx.warn("no non-missing arguments to min; returning Inf");
        ctx.warn("no non-missing arguments to max; returning -Inf");
    }
    Ok(Value::Num(vec![lo, hi]))
}

pub(super) fn range_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = crate::kernels::factor::summary_ordered_type(args, 2) {
        return Ok(t);
    }
    if let Some(t) = args.text_dots(2)? {
        return Ok(t);
    }
    args.numeric_dots()?;
    Ok(Type::num(2))
}
