//! `lag(x, k = 1)`: R 4.2.2's stats::lag.default, which moves a series'
//! time base back by `k` observations: `tsp(x) <- tsp(x) - (k /
//! frequency) * c(1, 1, 0)`, the values untouched.

use super::args::{ArgError, Args};
use super::names::bare;
use super::ts::{set_tsp, tsp_of, with_tsp};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "lag",
    params: &[req("x"), opt("k"), DOTS],
    random: false,
    shape,
    eval,
}];

/// lag.default's `if (k != round(k))` on `k`: R's errors for what `round`
/// or `if` refuses, else k (a logical's TRUE as 1) and whether it was
/// rounded.
fn whole_k(k: &Value) -> Result<(f64, bool), KernelError> {
    let k = match bare(k) {
        Value::Factor(_) => {
            return Err(KernelError::new(
                "\u{2018}round\u{2019} not meaningful for factors",
            ))
        }
        v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().unwrap_or_default().into_owned()
        }
        Value::Complex(z) => {
            // `if` passes a whole complex k; `tsp<-` then refuses it.
            return Err(KernelError::new(match z.len() {
                0 => "argument is of length zero",
                1 if z[0].re.is_nan() || z[0].im.is_nan() => {
                    "missing value where TRUE/FALSE needed"
                }
                1 => "'tsp' attribute must be numeric of length three",
                _ => "the condition has length > 1",
            }));
        }
        _ => {
            return Err(KernelError::new(
                "non-numeric argument to mathematical function",
            ))
        }
    };
    match k[..] {
        [] => Err(KernelError::new("argument is of length zero")),
        [k] if k.is_nan() => Err(KernelError::new("missing value where TRUE/FALSE needed")),
        // R's round is C's nearbyint: halves to even.
        [k] => Ok((k.round_ties_even(), k != k.round_ties_even())),
        _ => Err(KernelError::new("the condition has length > 1")),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (k, rounded) = match args.get("k") {
        None => (1.0, false),
        Some(k) => whole_k(k)?,
    };
    if rounded {
        ctx.warn("'k' is not an integer");
    }
    if matches!(bare(x), Value::Null) {
        return Err(KernelError::new("attempt to set an attribute on NULL"));
    }
    let Some(p) = tsp_of(x) else {
        return Err(KernelError::new(format!(
            "flowcast's lag takes a time series (ts): R gives a {} a 'tsp' without the class \"ts\", which flowcast's values do not hold",
            bare(x).type_name()
        )));
    };
    if !k.is_finite() {
        // R would set a tsp of infinities and NaN, which nothing can print.
        return Err(KernelError::new("flowcast's lag takes a finite 'k'"));
    }
    let shift = k / p[2];
    let tsp = [p[0] - shift, p[1] - shift, p[2] - shift * 0.0];
    let b = bare(x);
    let rows = b.dims().map_or(b.len(), |(r, _)| r);
    set_tsp(tsp, rows)?;
    Ok(with_tsp(x.clone(), tsp))
}

/// The series itself, its time base moved.
fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t @ (Type::Num { .. } | Type::Mat { .. } | Type::Bool { .. })) => Ok(t.clone()),
        _ => Ok(Type::Any),
    }
}
