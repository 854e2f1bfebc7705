//! `diffinv(x, lag, differences, xi)`: R 4.2.2's inverse of `diff`
//! (stats/R/diffinv.R): diffinv.default, which runs diffinv.vector on a
//! vector or on each column of a matrix, and diffinv.vector's recursion
//! over the differences down to filter.c's `intgrt_vec`, kept in their
//! shape so that every sum is R's; diffinv.ts around them for a series.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "diffinv",
    params: &[req("x"), opt("lag"), opt("differences"), opt("xi"), DOTS],
    random: false,
    shape,
    eval,
}];

/// The most differences R 4.2 manages with its default C stack.
const MAX_DIFFERENCES: usize = 200;

/// filter.c's `intgrt_vec`: `y[i + lag] = x[i] + y[i]` from `xi`.
fn intgrt_vec(x: &[f64], xi: &[f64], lag: usize) -> Result<Vec<f64>, KernelError> {
    let n = x.len();
    let mut y = super::alloc::filled(n + lag, 0.0)?;
    y[..lag].copy_from_slice(&xi[..lag]);
    for i in 0..n {
        y[i + lag] = x[i] + y[i];
    }
    Ok(y)
}

/// `diff(xi, lag = lag, differences = 1L)`.
fn diff(x: &[f64], lag: usize) -> Vec<f64> {
    (lag..x.len()).map(|i| x[i] - x[i - lag]).collect()
}

/// diffinv.vector on `x` with `lag` and `differences` already whole
/// numbers of at least one and `xi` of their product's length.
fn diffinv_vector(
    x: &[f64],
    lag: usize,
    differences: usize,
    xi: &[f64],
) -> Result<Vec<f64>, KernelError> {
    if differences == 1 {
        intgrt_vec(x, xi, lag)
    } else {
        let inner = diffinv_vector(x, lag, differences - 1, &diff(xi, lag))?;
        diffinv_vector(&inner, lag, 1, &xi[..lag])
    }
}

/// `as.integer` of a `lag` or `differences`: one number (flowcast
/// refuses a longer one), truncated; `None` is NA.
fn whole(args: &Args<&Value>, name: &str) -> Result<Option<i64>, KernelError> {
    let v = match args.get(name).map(bare) {
        None => return Ok(Some(1)),
        Some(v) => v,
    };
    let x = match v {
        Value::Num(_) | Value::Bool(_) if v.len() == 1 => v.as_f64_slice().unwrap_or_default()[0],
        _ => {
            return Err(KernelError::new(format!(
                "flowcast's diffinv takes '{name}' as one number"
            )))
        }
    };
    Ok((x.is_finite() && x.abs() < 2147483648.0).then_some(x.trunc() as i64))
}

/// The numbers of `xi` (`as.double`), or flowcast's refusal of text.
fn numbers(v: &Value, name: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            Ok(v.as_f64_slice().unwrap_or_default().into_owned())
        }
        _ => Err(KernelError::new(format!(
            "flowcast's diffinv takes a numeric or logical '{name}'"
        ))),
    }
}

/// diffinv.vector's checks of `lag`, `differences` and `xi`: the lag and
/// differences as whole numbers, and xi (zeros when missing).
fn checked(
    lag: Option<i64>,
    differences: Option<i64>,
    xi: Option<Vec<f64>>,
) -> Result<(usize, usize, Vec<f64>), KernelError> {
    let (lag, differences) = match (lag, differences) {
        (Some(l), _) if l < 1 => return Err(bad()),
        (_, Some(d)) if d < 1 => return Err(bad()),
        (Some(l), Some(d)) => (l as usize, d as usize),
        _ => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
    };
    // diffinv.vector recurses once per difference, and R 4.2 runs out of
    // C stack between 200 and 230 of them; each level here also copies
    // the series, so a million differences would take terabytes.
    if differences > MAX_DIFFERENCES {
        return Err(KernelError::new(format!(
            "flowcast's diffinv takes at most {MAX_DIFFERENCES} 'differences' (R runs out of C stack soon after)"
        )));
    }
    let len = lag.checked_mul(differences).filter(|&l| l < (1 << 31));
    let Some(len) = len else {
        return Err(KernelError::new(
            "flowcast's diffinv refuses a 'lag' times 'differences' beyond R's integers",
        ));
    };
    // Up to 2^31 - 1 zeros (16 GB): refused like R where they do not fit.
    let xi = match xi {
        Some(xi) => xi,
        None => super::alloc::filled(len, 0.0)?,
    };
    if xi.len() != len {
        return Err(KernelError::new("'xi' does not have the right length"));
    }
    Ok((lag, differences, xi))
}

fn bad() -> KernelError {
    KernelError::new("bad value for 'lag' or 'differences'")
}

/// diffinv.ts for a series, else diffinv.default: a series' result is
/// `ts(y, frequency = frequency(x), end = end(x))`, its start moved back
/// by `lag * differences` observations.
fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let y = diffinv_default(x, args)?;
    if super::ts::tsp_of(x).is_none() {
        return Ok(y);
    }
    super::ts::ending_as(&y, x, ctx)
}

fn diffinv_default(x: &Value, args: &Args<&Value>) -> Result<Value, KernelError> {
    let lag = whole(args, "lag")?;
    let differences = whole(args, "differences")?;
    match bare(x) {
        Value::Mat(_) | Value::BoolMat(_) => {
            let (n, m) = bare(x).dims().unwrap_or((0, 0));
            let data = numbers(x, "x")?;
            // diffinv.default's `n + lag * differences` rows, before
            // diffinv.vector reads them as integers.
            let raw = |name: &str| -> f64 {
                args.get(name)
                    .and_then(|v| v.as_f64_slice().and_then(|s| s.first().copied()))
                    .unwrap_or(1.0)
            };
            let rows = raw("lag") * raw("differences");
            let nrow = n as f64 + rows;
            if !(nrow.is_finite() && nrow < 2147483648.0) {
                return Err(KernelError::new("invalid 'nrow' value (too large or NA)"));
            }
            if nrow < 0.0 {
                return Err(KernelError::new("invalid 'nrow' value (< 0)"));
            }
            if m == 0 {
                return Ok(Value::Mat(DMatrix::zeros(nrow.trunc() as usize, 0)));
            }
            let xi: Option<(Vec<f64>, usize, usize, bool)> = match args.get("xi") {
                None => None,
                Some(v) => {
                    let d = bare(v).dims();
                    let vals = numbers(v, "xi")?;
                    let (r, c) = d.unwrap_or((vals.len(), 1));
                    Some((vals, r, c, d.is_some()))
                }
            };
            let mut out = Vec::new();
            // The default xi is `matrix(0, lag * differences, m)`, of
            // whole rows.
            let xi_rows = xi.as_ref().map_or(rows.trunc(), |x| x.1 as f64);
            let xi_cols = xi.as_ref().map_or(m, |x| x.2);
            if xi_rows != rows || xi_cols != m {
                return Err(KernelError::new("incorrect dimensions for 'xi'"));
            }
            if xi.as_ref().is_some_and(|x| !x.3) {
                return Err(KernelError::new("incorrect number of dimensions"));
            }
            let mut len = None;
            for i in 0..m {
                let col = &data[i * n..(i + 1) * n];
                let xi_col = xi
                    .as_ref()
                    .map(|(v, r, _, _)| v[i * r..(i + 1) * r].to_vec());
                let (lag, differences, xi_col) = checked(lag, differences, xi_col)?;
                let y = diffinv_vector(col, lag, differences, &xi_col)?;
                len = Some(y.len());
                out.extend(y);
            }
            let len = len.unwrap_or(n);
            Ok(Value::Mat(DMatrix::from_vec(len, m, out)))
        }
        v @ (Value::Num(_) | Value::Bool(_) | Value::Null) => {
            if matches!(v, Value::Null) {
                // is.vector(NULL) is FALSE.
                return Err(KernelError::new("'x' is not a vector or matrix"));
            }
            let data = numbers(v, "x")?;
            let xi = args.get("xi").map(|v| numbers(v, "xi")).transpose()?;
            let (lag, differences, xi) = checked(lag, differences, xi)?;
            Ok(Value::Num(diffinv_vector(&data, lag, differences, &xi)?))
        }
        Value::Str(_) | Value::List(_) => Err(KernelError::new(
            "flowcast's diffinv takes a numeric or logical 'x' (R coerces text and lists with as.double)",
        )),
        _ => Err(KernelError::new("'x' is not a vector or matrix")),
    }
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let extra = |name: &str| {
        args.ty(name)
            .map_or(Some(1.0), Type::const_scalar)
            .filter(|v| *v >= 1.0 && *v < 1e6)
            .map(|v| v.trunc() as usize)
    };
    let extra = match (extra("lag"), extra("differences")) {
        (Some(l), Some(d)) => Some(l * d),
        _ => None,
    };
    match args.ty("x") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => Ok(Type::Mat {
            rows: rows.zip(extra).map(|(r, e)| r + e),
            cols: *cols,
        }),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok(match t.len().zip(extra) {
            Some((n, e)) => Type::num(n + e),
            None => Type::num_unknown(),
        }),
        Some(Type::Null) => Err(args.error("x", "'x' is not a vector or matrix")),
        _ => Ok(Type::Any),
    }
}
