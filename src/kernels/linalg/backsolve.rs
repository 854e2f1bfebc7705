//! `backsolve(r, x, k, upper.tri, transpose)` and `forwardsolve(l, x, k,
//! upper.tri, transpose)`: R's `do_backsolve`, the triangular solve of the
//! leading `k x k` block of `r` against the first `k` rows of `x` by BLAS
//! `dtrsm` (reference loop order). A vector `x` gives a vector.

use nalgebra::DMatrix;

use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::Ctx;

/// The triangle's argument: `r` for backsolve, `l` for forwardsolve.
fn tri_name(func: &str) -> &'static str {
    if func == "forwardsolve" {
        "l"
    } else {
        "r"
    }
}

pub(super) fn backsolve_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let name = tri_name(args.func);
    let (_, rc) = matrix_dims(args, name)?;
    let (_, xc) = matrix_dims(args, "x")?;
    let k = match args.const_scalar_or("k", None)? {
        Some(k) if k >= 1.0 => Some(k as usize),
        Some(_) => return Err(args.error("k", "invalid 'k' argument")),
        None => rc,
    };
    Ok(match args.ty("x") {
        Some(Type::Mat { .. }) => Type::Mat { rows: k, cols: xc },
        _ => Type::Num {
            len: k,
            value: None,
        },
    })
}

pub(super) fn backsolve_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let name = tri_name(args.func);
    let r = super::as_matrix(args, name)?;
    let x_is_matrix = matches!(args.get("x"), Some(Value::Mat(_)));
    let x = super::as_matrix(args, "x")?;
    let k = match args.get("k") {
        None | Some(Value::Null) => r.ncols() as f64,
        Some(_) => args.scalar("k")?.trunc(),
    };
    let (nrr, nrx, ncx) = (r.nrows(), x.nrows(), x.ncols());
    if k.is_nan() || k <= 0.0 || k > nrr as f64 || k > r.ncols() as f64 || k > nrx as f64 {
        return Err(KernelError::new("invalid 'k' argument"));
    }
    let k = k as usize;
    let upper = args.bool_or("upper.tri", args.func != "forwardsolve")?;
    let trans = args.bool_or("transpose", false)?;
    for i in 0..k {
        if r[(i, i)] == 0.0 {
            return Err(KernelError::new(format!(
                "singular matrix in 'backsolve'. First zero in diagonal [{}]",
                i + 1
            )));
        }
    }
    let mut b = DMatrix::<f64>::zeros(k, ncx);
    for j in 0..ncx {
        for i in 0..k {
            b[(i, j)] = x[(i, j)];
        }
    }
    let a = |i: usize, j: usize| r[(i, j)];
    for j in 0..ncx {
        match (upper, trans) {
            (true, false) => {
                for kk in (0..k).rev() {
                    if b[(kk, j)] != 0.0 {
                        b[(kk, j)] /= a(kk, kk);
                        let t = b[(kk, j)];
                        for i in 0..kk {
                            b[(i, j)] -= t * a(i, kk);
                        }
                    }
                }
            }
            (false, false) => {
                for kk in 0..k {
                    if b[(kk, j)] != 0.0 {
                        b[(kk, j)] /= a(kk, kk);
                        let t = b[(kk, j)];
                        for i in kk + 1..k {
                            b[(i, j)] -= t * a(i, kk);
                        }
                    }
                }
            }
            (true, true) => {
                for i in 0..k {
                    let mut t = b[(i, j)];
                    for kk in 0..i {
                        t -= a(kk, i) * b[(kk, j)];
                    }
                    b[(i, j)] = t / a(i, i);
                }
            }
            (false, true) => {
                for i in (0..k).rev() {
                    let mut t = b[(i, j)];
                    for kk in i + 1..k {
                        t -= a(kk, i) * b[(kk, j)];
                    }
                    b[(i, j)] = t / a(i, i);
                }
            }
        }
    }
    Ok(if x_is_matrix {
        Value::Mat(b)
    } else {
        Value::Num(b.as_slice().to_vec())
    })
}
