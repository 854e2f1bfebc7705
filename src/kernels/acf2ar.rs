//! R's `acf2AR(acf)` (stats/R/ARMAtheory.R): the coefficients of the
//! autoregressions of every order up to `length(acf) - 1` that an
//! autocorrelation (or autocovariance) sequence implies, by eureka.f's
//! Levinson-Durbin recursion, as R calls it with the sequence as both the
//! Toeplitz system and its right-hand side. Row `ar(p)` holds order p's
//! coefficients, zero beyond p.

use super::args::{ArgError, Args};
use super::value::Value;
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "acf2AR",
    params: &[req("acf")],
    random: false,
    shape,
    eval,
}];

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // as.double(drop(acf)): a vector or matrix of numbers or logicals.
    let acf = args.get("acf").map(super::names::bare);
    let r = match acf.and_then(Value::as_f64_slice) {
        Some(r) => r.into_owned(),
        None if matches!(acf, Some(Value::Null)) => Vec::new(),
        None => {
            return Err(KernelError::new(
                "flowcast's acf2AR takes a numeric vector (an acf object's `$acf`)",
            ))
        }
    };
    if r.len() < 2 {
        return Err(KernelError::new("'acf' must be of length two or more"));
    }
    let order_max = r.len() - 1;
    let (coefs, _) = super::ar::eureka(order_max, &r, &r);
    let rows = (1..=order_max).map(|p| format!("ar({p})")).collect();
    let cols = (1..=order_max).map(|p| p.to_string()).collect();
    Ok(super::names::dimnamed(
        Value::Mat(coefs),
        Some(rows),
        Some(cols),
    ))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match args.ty("acf") {
        Some(t @ Type::Num { .. }) => t.len(),
        Some(Type::Str { .. }) => {
            return Err(args.error(
                "acf",
                "flowcast's acf2AR takes a numeric vector (an acf object's `$acf`)",
            ))
        }
        _ => None,
    };
    if n.is_some_and(|n| n < 2) {
        return Err(args.error("acf", "'acf' must be of length two or more"));
    }
    let p = n.map(|n| n - 1);
    Ok(Type::Mat { rows: p, cols: p })
}
