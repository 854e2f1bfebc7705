//! `tabulate(bin, nbins)`: counts of the whole numbers 1..nbins in `bin`
//! (truncated as `as.integer` truncates); others and NA are ignored.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// Largest `nbins` flowcast accepts (R's limit is the integer range).
const MAX_BINS: f64 = 2_147_483_647.0;

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let bin = super::arg_or_null(args, "bin");
    let b = match bin {
        Value::Str(_) | Value::Bool(_) | Value::List(_) | Value::Formula(_) | Value::Complex(_) => {
            return Err(KernelError::new("'bin' must be numeric or a factor"))
        }
        // R tabulates a factor's codes (its levels play no part).
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| c.map_or(f64::NAN, |c| c as f64 + 1.0))
            .collect(),
        other => other.as_f64_slice().unwrap_or_default(),
    };
    let ints: Vec<Option<i64>> = b
        .iter()
        .map(|&x| (x.is_finite() && x.abs() < MAX_BINS).then_some(x.trunc() as i64))
        .collect();
    let nbins = match args.get("nbins") {
        None => ints.iter().flatten().copied().max().unwrap_or(1).max(1) as f64,
        Some(v) => v.as_scalar().unwrap_or(f64::NAN).trunc(),
    };
    nbins_ok(nbins).map_err(KernelError::new)?;
    if nbins > 1e8 {
        return Err(KernelError::new("'nbins' is too large for flowcast"));
    }
    let mut counts = vec![0.0; nbins as usize];
    for k in ints.into_iter().flatten() {
        if k >= 1 && (k as usize) <= counts.len() {
            counts[k as usize - 1] += 1.0;
        }
    }
    Ok(Value::Num(counts))
}

/// tabulate's checks of `nbins` in R's order: the R code's `nbins >
/// .Machine$integer.max` (NA fails the `if`), then the C code's `nb < 0`
/// (which names it "nbin").
fn nbins_ok(nbins: f64) -> Result<(), &'static str> {
    if nbins.is_nan() {
        Err("missing value where TRUE/FALSE needed")
    } else if nbins > MAX_BINS {
        Err("attempt to make a table with >= 2^31 elements")
    } else if nbins < 0.0 {
        Err("invalid 'nbin' argument")
    } else {
        Ok(())
    }
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(
        t @ (Type::Str { .. }
        | Type::Bool { .. }
        | Type::Record { .. }
        | Type::List { .. }
        | Type::Formula { .. }),
    ) = args.ty("bin")
    {
        return Err(args.error(
            "bin",
            format!("'bin' must be numeric or a factor, not {}", t.describe()),
        ));
    }
    let len = match args.ty("nbins").map(Type::const_scalar) {
        Some(Some(n)) if n.is_finite() && (0.0..=1e8).contains(&n.trunc()) => {
            Some(n.trunc() as usize)
        }
        Some(Some(n)) => {
            nbins_ok(n.trunc()).map_err(|m| args.error("nbins", m))?;
            None
        }
        _ => None,
    };
    Ok(Type::Num { len, value: None })
}
