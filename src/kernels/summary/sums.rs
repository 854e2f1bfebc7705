//! `colSums` and `rowSums`: R's `do_colsum` with the division left out, so
//! each sum is accumulated in long double, NA propagating unless
//! `na.rm = TRUE` skips it, exactly as `colMeans`/`rowMeans` are.

use super::ldouble::{self, LongDouble};
use super::{margin_shape, matrix_arg, na_rm};
use crate::kernels::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(in crate::kernels) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "colSums",
        params: &[req("x"), opt("na.rm"), opt("dims")],
        random: false,
        shape: col_sums_shape,
        eval: col_sums_eval,
    },
    Kernel {
        name: "rowSums",
        params: &[req("x"), opt("na.rm"), opt("dims")],
        random: false,
        shape: row_sums_shape,
        eval: row_sums_eval,
    },
];

fn col_sums_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    margin_shape(args, false)
}

fn row_sums_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    margin_shape(args, true)
}

fn col_sums_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = na_rm(args)?;
    let (x, n, p) = matrix_arg(args, "x")?;
    let out = (0..p)
        .map(|j| {
            let col = &x[j * n..(j + 1) * n];
            if rm && col.iter().any(|v| v.is_nan()) {
                let kept: Vec<f64> = col.iter().copied().filter(|v| !v.is_nan()).collect();
                return ldouble::sum(&kept).to_f64();
            }
            ldouble::sum(col).to_f64()
        })
        .collect();
    Ok(Value::Num(out))
}

fn row_sums_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = na_rm(args)?;
    let (x, n, p) = matrix_arg(args, "x")?;
    // R adds each row's values column after column.
    let mut sums = vec![LongDouble::ZERO; n];
    for j in 0..p {
        let col = &x[j * n..(j + 1) * n];
        if !(rm && col.iter().any(|v| v.is_nan())) {
            ldouble::add_column(&mut sums, col);
            continue;
        }
        for (i, &v) in col.iter().enumerate() {
            if !v.is_nan() {
                sums[i] = sums[i].add(LongDouble::from_f64(v));
            }
        }
    }
    Ok(Value::Num(
        sums.into_iter().map(LongDouble::to_f64).collect(),
    ))
}
