//! `drop(x)` and `mat.or.vec(nr, nc)`: R's base functions that move between
//! a matrix and a vector by its extents.

use super::names::{bare, dimnames, named};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "drop",
        params: &[req("x")],
        random: false,
        shape: drop_shape,
        eval: drop_eval,
    },
    Kernel {
        name: "mat.or.vec",
        params: &[req("nr"), req("nc")],
        random: false,
        shape: mat_or_vec_shape,
        eval: mat_or_vec_eval,
    },
];

/// R's `DropDims` (src/main/array.c) on a matrix: the extents of 1 go; a
/// matrix with one extent left is a vector named by that extent's
/// dimnames, and one with none left keeps names only where exactly one
/// extent had them.
fn drop_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let Some((r, c)) = bare(x).dims() else {
        return Ok(x.clone());
    };
    if r != 1 && c != 1 {
        return Ok(x.clone());
    }
    let (rows, cols) = dimnames(x);
    let data = match bare(x) {
        Value::Mat(m) => Value::Num(m.as_slice().to_vec()),
        Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
        Value::ComplexMat(m) => Value::Complex(m.as_slice().to_vec()),
        Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
        _ => return Ok(x.clone()),
    };
    let names = match (r == 1, c == 1) {
        (true, false) => cols,
        (false, true) => rows,
        // A 1 x 1 matrix: one extent's names, if only one has any.
        _ => match (rows, cols) {
            (Some(n), None) | (None, Some(n)) => Some(n),
            _ => None,
        },
    };
    Ok(match names {
        Some(n) => named(data, n.to_vec()),
        None => data,
    })
}

fn drop_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match a.ty("x") {
        Some(Type::Mat { rows, cols }) => match (rows, cols) {
            (Some(1), n) | (n, Some(1)) => Type::Num {
                len: *n,
                value: None,
            },
            (Some(_), Some(_)) => Type::Mat {
                rows: *rows,
                cols: *cols,
            },
            _ => Type::Any,
        },
        Some(Type::StrMat { rows, cols }) => match (rows, cols) {
            (Some(1), n) | (n, Some(1)) => Type::Str {
                len: *n,
                value: None,
            },
            (Some(_), Some(_)) => Type::StrMat {
                rows: *rows,
                cols: *cols,
            },
            _ => Type::Any,
        },
        Some(Type::BoolMat { rows, cols }) => match (rows, cols) {
            (Some(1), n) | (n, Some(1)) => Type::logical(*n),
            (Some(_), Some(_)) => Type::BoolMat {
                rows: *rows,
                cols: *cols,
            },
            _ => Type::Any,
        },
        Some(t) => t.clone(),
        None => Type::Any,
    })
}

/// R's `mat.or.vec`: `if (nc == 1L) numeric(nr) else matrix(0, nr, nc)`.
fn mat_or_vec_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let nc = args
        .get("nc")
        .and_then(Value::as_scalar)
        .ok_or_else(|| KernelError::new("non-numeric matrix extent"))?;
    if nc.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let nr = args.get("nr").and_then(Value::as_scalar);
    if nc == 1.0 {
        return match nr {
            Some(n) if (0.0..4.5e15).contains(&n) => {
                let mut v = super::alloc::vec_with_capacity(n as usize)?;
                v.resize(n as usize, 0.0);
                Ok(Value::Num(v))
            }
            _ => Err(KernelError::new("invalid 'length' argument")),
        };
    }
    let nr = match nr {
        None => return Err(KernelError::new("non-numeric matrix extent")),
        Some(n) if n.is_nan() || n > f64::from(i32::MAX) => {
            return Err(KernelError::new("invalid 'nrow' value (too large or NA)"))
        }
        Some(n) if n < 0.0 => return Err(KernelError::new("invalid 'nrow' value (< 0)")),
        Some(n) => n as usize,
    };
    if nc < 0.0 {
        return Err(KernelError::new("invalid 'ncol' value (< 0)"));
    }
    if nc > f64::from(i32::MAX) {
        return Err(KernelError::new("invalid 'ncol' value (too large or NA)"));
    }
    let nc = nc as usize;
    let cells = nr
        .checked_mul(nc)
        .ok_or_else(|| KernelError::new("too many elements specified"))?;
    super::alloc::ensure_room(cells as f64 * 8.0)?;
    Ok(Value::Mat(nalgebra::DMatrix::zeros(nr, nc)))
}

fn mat_or_vec_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let nr = a
        .get("nr")
        .and_then(Type::const_scalar)
        .filter(|n| n.is_finite() && *n >= 0.0)
        .map(|n| n as usize);
    Ok(match a.get("nc").and_then(Type::const_scalar) {
        Some(1.0) => Type::Num {
            len: nr,
            value: None,
        },
        Some(nc) if nc.is_finite() && nc >= 0.0 => Type::Mat {
            rows: nr,
            cols: Some(nc as usize),
        },
        _ => Type::Any,
    })
}
