//! `diff(x, lag, differences)`: R's `diff.default`, on a vector or on the
//! rows of a matrix; of a time series, `diff.ts`, whose result is a series
//! ending where `x` ends.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

const BAD: &str = "'lag' and 'differences' must be integers >= 1";

fn lag_differences(args: &Args<&Value>) -> Result<(usize, usize), KernelError> {
    let get = |name: &str| -> Result<usize, KernelError> {
        match args.get(name) {
            None => Ok(1),
            Some(v) => match v.as_scalar() {
                Some(x) if (1.0..1e15).contains(&x) => Ok(x.trunc() as usize),
                _ => Err(KernelError::new(BAD)),
            },
        }
    };
    Ok((get("lag")?, get("differences")?))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let tsp = crate::kernels::ts::tsp_of(x);
    let x = crate::kernels::names::bare(x);
    let (lag, differences) = lag_differences(args)?;
    let (data, cols) = match x {
        Value::Mat(m) => (m.as_slice().to_vec(), Some(m.ncols())),
        Value::Null => return Ok(Value::Null),
        other => (
            other
                .as_f64_slice()
                .ok_or_else(|| {
                    KernelError::new(format!(
                        "non-numeric argument to binary operator: {}",
                        other.type_name()
                    ))
                })?
                .into_owned(),
            None,
        ),
    };
    let ncol = cols.unwrap_or(1);
    let mut rows = data.len().checked_div(ncol).unwrap_or(0);
    if lag.saturating_mul(differences) >= rows {
        return Ok(Value::Num(Vec::new()));
    }
    let mut r = data;
    for _ in 0..differences {
        let next_rows = rows - lag;
        let mut next = Vec::with_capacity(next_rows * ncol);
        for j in 0..ncol {
            let col = &r[j * rows..(j + 1) * rows];
            next.extend((0..next_rows).map(|i| col[i + lag] - col[i]));
        }
        r = next;
        rows = next_rows;
    }
    let out = match cols {
        Some(c) => Value::Mat(DMatrix::from_vec(rows, c, r)),
        None => Value::Num(r),
    };
    // diff.ts: ts(r, end = xtsp[2L], frequency = xtsp[3L]).
    Ok(match tsp {
        Some([_, end, f]) => {
            crate::kernels::ts::with_tsp(out, [end - (rows as f64 - 1.0) / f, end, f])
        }
        None => out,
    })
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut ld = [Some(1usize), Some(1usize)];
    for (k, name) in ["lag", "differences"].into_iter().enumerate() {
        if let Some(t) = args.ty(name) {
            ld[k] = match t.const_scalar() {
                Some(x) if (1.0..1e15).contains(&x) => Some(x.trunc() as usize),
                Some(_) => return Err(args.error(name, BAD)),
                None => None,
            };
        }
    }
    let shrink = |n: Option<usize>| match (n, ld[0], ld[1]) {
        (Some(n), Some(l), Some(d)) => Some(n.saturating_sub(l.saturating_mul(d))),
        _ => None,
    };
    Ok(match args.ty("x") {
        Some(Type::Mat { rows, cols }) => match shrink(*rows) {
            Some(0) => Type::num(0),
            r => Type::Mat {
                rows: r,
                cols: *cols,
            },
        },
        Some(Type::Null) | None => Type::Null,
        Some(t) if t.is_numeric() => Type::Num {
            len: shrink(t.len()),
            value: None,
        },
        Some(t) => {
            return Err(args.error(
                "x",
                format!("non-numeric argument to binary operator: {}", t.describe()),
            ))
        }
    })
}
