//! What a fit's QR says of its columns: `effects` (stats' `effects.lm`,
//! the orthogonal effects Q'y) and `variable.names` (`variable.names.lm`),
//! both in the QR's pivoted column order.

use super::super::names::{bare, named};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::{model_type, Fit};

fn flag(args: &Args<&Value>, name: &str) -> Result<bool, KernelError> {
    match args.get(name) {
        None => Ok(false),
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed")),
    }
}

/// The coefficients' names in the QR's column order (R's
/// `dimnames(qr.lm(object)$qr)[[2]]`, `colnames(x)[pivot]`).
fn pivoted_names(fit: &Fit) -> Result<(Vec<String>, usize), KernelError> {
    let qr = fit.qr()?;
    let names = fit.names();
    let pivoted = qr
        .pivot
        .iter()
        .map(|&j| names.get(j - 1).cloned().unwrap_or_default())
        .collect();
    Ok((pivoted, qr.rank))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "object")?;
    Ok(match args.func {
        "variable.names" => Type::Str {
            len: None,
            value: None,
        },
        _ => Type::num_unknown(),
    })
}

/// `effects.lm(object, set.sign)`: the fit's effects, the first `rank`
/// named by the pivoted coefficients, the rest "".
pub(super) fn effects_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let set_sign = flag(args, "set.sign")?;
    let fit = Fit::from_arg(args, "object", "effects")?;
    let Some(Value::Num(eff)) = fit.exact("effects").map(bare) else {
        return Err(KernelError::new("'object' has no 'effects' component"));
    };
    let mut eff = eff.clone();
    let (pivoted, rank) = pivoted_names(&fit)?;
    if set_sign {
        // `eff[r] <- sign(dd) * abs(eff[r])` over r in seq_along(coef):
        // the coefficients in their own order, NA where aliased.
        let coef = fit.nums("coefficients")?;
        for (e, c) in eff.iter_mut().zip(coef) {
            *e = if c.is_nan() {
                *c
            } else if *c > 0.0 {
                e.abs()
            } else if *c < 0.0 {
                -e.abs()
            } else {
                0.0
            };
        }
    }
    let names = (0..eff.len())
        .map(|i| {
            if i < rank {
                pivoted.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .collect();
    Ok(named(Value::Num(eff), names))
}

/// `variable.names.lm(object, full)`: the pivoted coefficients' names,
/// the first `rank` of them unless `full`.
pub(super) fn variable_names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let full = flag(args, "full")?;
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    if Fit::from_value(bare(object)).is_none() {
        // variable.names.default: colnames(object).
        return match bare(object) {
            Value::List(l) if l.class.as_deref() == Some(crate::kernels::frame::CLASS) => {
                Ok(Value::Str(l.names.clone().unwrap_or_default()))
            }
            Value::Null | Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => {
                Ok(Value::Null)
            }
            _ => Err(super::fit::not_a_model(
                "variable.names",
                object.type_name(),
            )),
        };
    }
    let fit = Fit::from_arg(args, "object", "variable.names")?;
    let (mut pivoted, rank) = pivoted_names(&fit)?;
    if !full {
        pivoted.truncate(rank);
    }
    Ok(Value::Str(pivoted))
}
