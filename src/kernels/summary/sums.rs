//! `colSums` and `rowSums`: R's `do_colsum` with the division left out, so
//! each sum is accumulated in long double, NA propagating unless
//! `na.rm = TRUE` skips it, exactly as `colMeans`/`rowMeans` are. Then the
//! sums that divide: `prop.table` (`proportions`) and `weighted.mean`.

use super::ldouble::{self, LongDouble};
use super::{margin_shape, matrix_arg, na_rm};
use crate::kernels::{
    opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS,
};

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
    Kernel {
        name: "prop.table",
        params: &[req("x"), opt("margin")],
        random: false,
        shape: prop_table_shape,
        eval: prop_table_eval,
    },
    Kernel {
        name: "proportions",
        params: &[req("x"), opt("margin")],
        random: false,
        shape: prop_table_shape,
        eval: prop_table_eval,
    },
    Kernel {
        name: "weighted.mean",
        params: &[req("x"), opt("w"), DOTS, opt("na.rm")],
        random: false,
        shape: weighted_mean_shape,
        eval: weighted_mean_eval,
    },
];

/// `prop.table(x, margin)`: `x / sum(x)`, or with a margin
/// `sweep(x, margin, marginSums(x, margin), "/")`, each sum R's.
fn prop_table_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if crate::kernels::arrays::array_dims(x).is_some() {
        return array_prop_table(x, args.get("margin"));
    }
    let margin = match args.get("margin") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_scalar() {
            Some(m) if m == 1.0 || m == 2.0 => Some(m as usize),
            _ => return Err(KernelError::new("'margin' must be 1 or 2")),
        },
    };
    let sum = |v: &[f64]| ldouble::sum(v).to_f64();
    match (x, margin) {
        (Value::Mat(m), Some(margin)) => {
            let mut out = m.clone();
            if margin == 1 {
                for i in 0..m.nrows() {
                    let row: Vec<f64> = m.row(i).iter().copied().collect();
                    let s = sum(&row);
                    out.row_mut(i).iter_mut().for_each(|v| *v /= s);
                }
            } else {
                for j in 0..m.ncols() {
                    let s = sum(m.column(j).as_slice());
                    out.column_mut(j).iter_mut().for_each(|v| *v /= s);
                }
            }
            Ok(Value::Mat(out))
        }
        // A one-way table's margin 1 is each cell alone.
        (Value::Num(v), Some(_)) => Ok(Value::Num(v.iter().map(|&x| x / sum(&[x])).collect())),
        (Value::Num(_) | Value::Mat(_), None) => {
            let d = x.as_f64_slice().unwrap_or_default();
            let s = sum(&d);
            Ok(Value::nums_shaped(
                d.iter().map(|v| v / s).collect(),
                x.dims(),
            ))
        }
        (other, _) => Err(KernelError::new(format!(
            "prop.table() needs a table or numbers, not {}",
            other.type_name()
        ))),
    }
}

/// prop.table of an array of three or more dimensions:
/// `sweep(x, margin, marginSums(x, margin), "/")`, each cell over the sum
/// of the cells that share its margins (all of them with no margin); the
/// result keeps x's dim, dimnames and class.
fn array_prop_table(x: &Value, margin: Option<&Value>) -> Result<Value, KernelError> {
    let Some(t) = crate::kernels::ftable::as_table(x) else {
        return Err(KernelError::new("prop.table() needs a table or numbers"));
    };
    let n = t.dx.len();
    let keep: Vec<usize> = match margin.map(crate::kernels::names::bare) {
        None | Some(Value::Null) => Vec::new(),
        Some(m) => {
            let Some(v) = m.as_f64_slice() else {
                return Err(KernelError::new("'MARGIN' does not match dim(X)"));
            };
            v.iter()
                .map(|&d| {
                    if d.is_finite() && d >= 1.0 && d.trunc() as usize <= n {
                        Ok(d.trunc() as usize)
                    } else {
                        Err(KernelError::new("'MARGIN' does not match dim(X)"))
                    }
                })
                .collect::<Result<_, _>>()?
        }
    };
    let sums = crate::kernels::ftable::collapse(&t, &keep);
    let cells: Vec<f64> = t
        .cells
        .iter()
        .enumerate()
        .map(|(at, &v)| {
            let (mut rest, mut idx) = (at, Vec::with_capacity(n));
            for &d in &t.dx {
                idx.push(rest % d);
                rest /= d;
            }
            let (mut cell, mut stride) = (0, 1);
            for &k in &keep {
                cell += idx[k - 1] * stride;
                stride *= t.dx[k - 1];
            }
            v / sums[cell]
        })
        .collect();
    Ok(match x {
        Value::Named(named) => {
            let mut out = named.clone();
            out.value = Value::Num(cells);
            Value::Named(out)
        }
        _ => Value::Num(cells),
    })
}

fn prop_table_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows, cols }) => Ok(Type::Mat {
            rows: *rows,
            cols: *cols,
        }),
        Some(t @ Type::Num { .. }) => Ok(Type::Num {
            len: t.len(),
            value: None,
        }),
        None | Some(Type::Any) => Ok(Type::Any),
        Some(t) => Err(args.error(
            "x",
            format!(
                "prop.table() needs a table or numbers, not {}",
                t.describe()
            ),
        )),
    }
}

/// `weighted.mean.default`: `sum((x * w)[w != 0]) / sum(w)`, NA pairs
/// dropped first under `na.rm = TRUE`; without `w`, `sum(x) / length(x)`.
fn weighted_mean_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .and_then(Value::as_f64_slice)
        .ok_or_else(|| KernelError::new("'x' must be numeric"))?;
    let rm = na_rm(args)?;
    let w: Vec<f64> = match args.get("w") {
        None | Some(Value::Null) => vec![1.0; x.len()],
        Some(w) => w
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("'w' must be numeric"))?
            .into_owned(),
    };
    if w.len() != x.len() {
        return Err(KernelError::new("'x' and 'w' must have the same length"));
    }
    if args.get("w").is_none() {
        let x: Vec<f64> = x.iter().copied().filter(|v| !(rm && v.is_nan())).collect();
        return Ok(Value::scalar(ldouble::sum(&x).to_f64() / x.len() as f64));
    }
    let keep: Vec<usize> = (0..x.len()).filter(|&i| !(rm && x[i].is_nan())).collect();
    let products: Vec<f64> = keep
        .iter()
        .filter(|&&i| w[i] != 0.0)
        .map(|&i| x[i] * w[i])
        .collect();
    let weights: Vec<f64> = keep.iter().map(|&i| w[i]).collect();
    Ok(Value::scalar(
        ldouble::sum(&products).to_f64() / ldouble::sum(&weights).to_f64(),
    ))
}

fn weighted_mean_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "w"] {
        if let Some(t) = args.ty(name) {
            if !t.is_numeric() && !matches!(t, Type::Null) {
                return Err(args.error(name, format!("'{name}' must be numeric")));
            }
        }
    }
    Ok(Type::num(1))
}

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
