//! Summaries: `mean`, `sum`, `colMeans`, `rowMeans`, `var`, `sd`, and the
//! size queries `length`, `nrow`, `ncol`. Sums accumulate in R's long double
//! (emulated exactly in [`ldouble`]) so results match R to the last bit.

pub(crate) mod corcov;
mod cov2cor;
pub mod ldouble;
pub(crate) mod quantile;
mod scale;
mod summary_default;
mod sums;

pub(crate) use corcov::{cor_or_na, kendall_xy, method_arg, var, Method};
pub(crate) use quantile::{median_of, quantile};
pub(crate) use summary_default::{summary_default, summary_default_type};

pub(super) use sums::KERNELS as SUM_KERNELS;

use crate::kernels::arith::complex_ops::{self, complex_parts};
use std::borrow::Cow;

use super::args::{ArgError, Args};
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};
use ldouble::LongDouble;

/// Order statistics, correlations and `scale` (issue 17).
pub(super) static STATS_KERNELS: &[Kernel] = &[
    Kernel {
        name: "cov2cor",
        params: &[req("V")],
        random: false,
        shape: cov2cor::shape,
        eval: cov2cor::eval,
    },
    Kernel {
        name: "median",
        params: &[req("x"), opt("na.rm"), DOTS],
        random: false,
        shape: quantile::scalar_shape,
        eval: quantile::median_eval,
    },
    Kernel {
        name: "quantile",
        params: &[
            req("x"),
            opt("probs"),
            opt("na.rm"),
            opt("names"),
            opt("type"),
            opt("digits"),
            DOTS,
        ],
        random: false,
        shape: quantile::quantile_shape,
        eval: quantile::quantile_eval,
    },
    Kernel {
        name: "IQR",
        params: &[req("x"), opt("na.rm"), opt("type")],
        random: false,
        shape: quantile::scalar_shape,
        eval: quantile::iqr_eval,
    },
    Kernel {
        name: "mad",
        params: &[
            req("x"),
            opt("center"),
            opt("constant"),
            opt("na.rm"),
            opt("low"),
            opt("high"),
        ],
        random: false,
        shape: quantile::scalar_shape,
        eval: quantile::mad_eval,
    },
    Kernel {
        name: "fivenum",
        params: &[req("x"), opt("na.rm")],
        random: false,
        shape: quantile::fivenum_shape,
        eval: quantile::fivenum_eval,
    },
    Kernel {
        name: "cor",
        params: &[req("x"), opt("y"), opt("use"), opt("method")],
        random: false,
        shape: corcov::shape,
        eval: corcov::cor_eval,
    },
    Kernel {
        name: "cov",
        params: &[req("x"), opt("y"), opt("use"), opt("method")],
        random: false,
        shape: corcov::shape,
        eval: corcov::cov_eval,
    },
    Kernel {
        name: "scale",
        params: &[req("x"), opt("center"), opt("scale")],
        random: false,
        shape: scale::shape,
        eval: scale::eval,
    },
];

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "mean",
        params: &[req("x"), opt("trim"), opt("na.rm"), DOTS],
        random: false,
        shape: mean_shape,
        eval: mean_eval,
    },
    Kernel {
        name: "sum",
        params: &[DOTS, opt("na.rm")],
        random: false,
        shape: sum_shape,
        eval: sum_eval,
    },
    Kernel {
        name: "colMeans",
        params: &[req("x"), opt("na.rm"), opt("dims")],
        random: false,
        shape: col_means_shape,
        eval: col_means_eval,
    },
    Kernel {
        name: "rowMeans",
        params: &[req("x"), opt("na.rm"), opt("dims")],
        random: false,
        shape: row_means_shape,
        eval: row_means_eval,
    },
    Kernel {
        name: "var",
        params: &[req("x"), opt("y"), opt("na.rm"), opt("use")],
        random: false,
        shape: corcov::var_shape,
        eval: corcov::var_eval,
    },
    Kernel {
        name: "sd",
        params: &[req("x"), opt("na.rm")],
        random: false,
        shape: corcov::sd_shape,
        eval: corcov::sd_eval,
    },
    Kernel {
        name: "length",
        params: &[req("x")],
        random: false,
        shape: length_shape,
        eval: length_eval,
    },
    Kernel {
        name: "nrow",
        params: &[req("x")],
        random: false,
        shape: nrow_shape,
        eval: nrow_eval,
    },
    Kernel {
        name: "ncol",
        params: &[req("x")],
        random: false,
        shape: ncol_shape,
        eval: ncol_eval,
    },
];

/// R's `.Internal(mean(x))` for doubles: the long-double mean, then the mean
/// of the residuals added as a correction.
pub fn mean(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = ldouble::rsum(x).div_count(n);
    if s.is_finite_f64() {
        s = s.add(ldouble::sum_deviations(x, s).div_count(n));
    }
    s.to_f64()
}

/// `(mean(x), mean(y))` of two vectors of one length, each as [`mean`]
/// gives it, their passes fused (each sum still added in order).
pub fn mean2(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len();
    let (sx, sy) = ldouble::sum2(x, y);
    let (mx, my) = (sx.div_count(n), sy.div_count(n));
    let correct = |m: ldouble::LongDouble, d: ldouble::LongDouble| m.add(d.div_count(n)).to_f64();
    match (mx.is_finite_f64(), my.is_finite_f64()) {
        (true, true) => {
            let (dx, dy) = ldouble::sum_deviations2(x, mx, y, my);
            (correct(mx, dx), correct(my, dy))
        }
        (true, false) => (correct(mx, ldouble::sum_deviations(x, mx)), my.to_f64()),
        (false, true) => (mx.to_f64(), correct(my, ldouble::sum_deviations(y, my))),
        (false, false) => (mx.to_f64(), my.to_f64()),
    }
}

/// R's `rsum`: a long-double sum, optionally skipping NA/NaN.
pub fn sum(x: &[f64], na_rm: bool) -> f64 {
    if na_rm && x.iter().any(|v| v.is_nan()) {
        let kept: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
        return ldouble::sum(&kept).to_f64();
    }
    ldouble::rsum(x).to_f64()
}

fn na_rm(args: &Args<&Value>) -> Result<bool, KernelError> {
    args.bool_or("na.rm", false)
}

/// R's `mean.default` with `trim > 0`: NA if any value is, the median
/// from 0.5 on, else the mean of the order statistics `lo..=hi`.
fn trimmed_mean(data: &[f64], trim: f64) -> f64 {
    if data.iter().any(|v| v.is_nan()) {
        return NA;
    }
    let n = data.len();
    let mut sorted = data.to_vec();
    sorted.sort_by(f64::total_cmp);
    if trim >= 0.5 {
        let half = n.div_ceil(2);
        return if n % 2 == 1 {
            sorted[half - 1]
        } else {
            mean(&sorted[half - 1..=half])
        };
    }
    let lo = (n as f64 * trim).floor() as usize + 1;
    let hi = n + 1 - lo;
    mean(&sorted[lo - 1..hi])
}

fn mean_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let trim = match args.get("trim") {
        None => 0.0,
        Some(t) => t
            .as_scalar()
            .ok_or_else(|| KernelError::new("'trim' must be numeric of length one"))?,
    };
    let x = args.get("x").unwrap_or(&Value::Null);
    if let Some(parts) = complex_parts(&[x]) {
        return Ok(complex_ops::mean(&parts?.concat()));
    }
    let Some(data) = x.as_f64_slice() else {
        // mean.default of text, a factor or a list.
        ctx.warn("argument is not numeric or logical: returning NA");
        return Ok(Value::scalar(NA));
    };
    let data: Cow<[f64]> = if na_rm(args)? {
        Cow::Owned(data.iter().copied().filter(|v| !v.is_nan()).collect())
    } else {
        data
    };
    if trim > 0.0 && !data.is_empty() {
        return Ok(Value::scalar(trimmed_mean(&data, trim)));
    }
    if matches!(x, Value::Bool(_) | Value::BoolMat(_)) {
        // Integers and logicals: one long-double pass, no correction.
        let s = ldouble::sum(&data);
        return Ok(Value::scalar(s.div_count(data.len()).to_f64()));
    }
    Ok(Value::scalar(mean(&data)))
}

/// The shape of a summary that reduces numeric data to one number; folds
/// when the data is a known constant.
fn reduce_shape(
    args: &Args<Type>,
    name: &str,
    fold: impl Fn(&[f64]) -> f64,
) -> Result<Type, ArgError> {
    match args.ty(name) {
        Some(t) if !t.is_numeric() => Err(args.error(
            name,
            format!("argument must be numeric or logical, not {}", t.describe()),
        )),
        Some(t) => Ok(match t.const_nums() {
            Some(v) => Type::scalar_const(fold(&v)),
            None => Type::num(1),
        }),
        None => Ok(Type::num(1)),
    }
}

fn const_na_rm(args: &Args<Type>) -> bool {
    args.get("na.rm")
        .and_then(Type::const_scalar)
        .is_some_and(|v| v != 0.0)
}

fn mean_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = complex_summary(args) {
        return Ok(t);
    }
    // mean.default returns NA (with a warning) for what is not numbers.
    if let Some(Type::Str { .. } | Type::Factor { .. } | Type::List { .. }) = args.ty("x") {
        return Ok(Type::num(1));
    }
    let Some(trim) = args.const_scalar_or("trim", Some(0.0))? else {
        return reduce_shape(args, "x", |_| f64::NAN).map(|_| Type::num(1));
    };
    let rm = const_na_rm(args);
    reduce_shape(args, "x", |v| {
        let kept: Vec<f64> = if rm {
            v.iter().copied().filter(|x| !x.is_nan()).collect()
        } else {
            v.to_vec()
        };
        if trim > 0.0 && !kept.is_empty() {
            trimmed_mean(&kept, trim)
        } else {
            mean(&kept)
        }
    })
}

/// `sum(...)`: each argument summed in long double, then the per-argument
/// results added in double, as R's `do_summary` does.
fn sum_values<'a>(items: impl Iterator<Item = Cow<'a, [f64]>>, na_rm: bool) -> f64 {
    items.fold(0.0, |acc, v| acc + sum(&v, na_rm))
}

fn sum_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = na_rm(args)?;
    let values: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    if let Some(parts) = complex_parts(&values) {
        return Ok(complex_ops::sum(&parts?, rm));
    }
    let mut parts = Vec::new();
    for (_, v) in args.dots() {
        match v {
            Value::Null => {}
            v => parts.push(
                v.dist_values()
                    .map(Cow::Borrowed)
                    .or_else(|| v.as_f64_slice())
                    .ok_or_else(|| {
                        KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
                    })?,
            ),
        }
    }
    Ok(Value::scalar(sum_values(parts.into_iter(), rm)))
}

/// A `sum`, `prod` or `mean` of a complex argument is one complex number.
pub(crate) fn complex_summary(args: &Args<Type>) -> Option<Type> {
    let complex = |t: &Type| matches!(t, Type::Complex { .. } | Type::ComplexMat { .. });
    let any = if args.func == "mean" {
        args.ty("x").is_some_and(complex)
    } else {
        args.dots().any(|(_, t)| complex(t))
    };
    any.then_some(Type::Complex { len: Some(1) })
}

fn sum_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = complex_summary(args) {
        return Ok(t);
    }
    let consts = args.numeric_dots()?;
    Ok(match consts {
        Some(c) => Type::scalar_const(sum_values(
            c.iter().map(|v| Cow::Borrowed(v.as_slice())),
            const_na_rm(args),
        )),
        None => Type::num(1),
    })
}

/// A numeric matrix argument: its data and dimensions.
fn matrix_arg<'a>(
    args: &'a Args<&Value>,
    name: &str,
) -> Result<(Cow<'a, [f64]>, usize, usize), KernelError> {
    match args.get(name) {
        Some(Value::Mat(m)) => Ok((Cow::Borrowed(m.as_slice()), m.nrows(), m.ncols())),
        _ => Err(KernelError::new(
            "'x' must be an array of at least two dimensions",
        )),
    }
}

fn col_means_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = na_rm(args)?;
    let (x, n, p) = matrix_arg(args, "x")?;
    let out = (0..p)
        .map(|j| {
            let col = &x[j * n..(j + 1) * n];
            if rm && col.iter().any(|v| v.is_nan()) {
                let kept: Vec<f64> = col.iter().copied().filter(|v| !v.is_nan()).collect();
                return ldouble::sum(&kept).div_count(kept.len()).to_f64();
            }
            ldouble::sum(col).div_count(n).to_f64()
        })
        .collect();
    Ok(Value::Num(out))
}

fn row_means_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let rm = na_rm(args)?;
    let (x, n, p) = matrix_arg(args, "x")?;
    if p > 0 && !(rm && x.iter().any(|v| v.is_nan())) {
        // R adds each row's values column after column; one row at a time
        // in a register gives the same sums, and neighbouring rows find the
        // same cache lines still loaded.
        let out = (0..n)
            .map(|i| ldouble::sum_strided(&x[i..], n).div_count(p).to_f64())
            .collect();
        return Ok(Value::Num(out));
    }
    // Missing values to skip: accumulated column by column, as R does.
    let mut sums = vec![LongDouble::ZERO; n];
    let mut counts = vec![0usize; n];
    for j in 0..p {
        for (i, &v) in x[j * n..(j + 1) * n].iter().enumerate() {
            if !(rm && v.is_nan()) {
                sums[i] = sums[i].add(LongDouble::from_f64(v));
                counts[i] += 1;
            }
        }
    }
    let out = sums
        .iter()
        .zip(&counts)
        .map(|(s, &c)| s.div_count(c).to_f64())
        .collect();
    Ok(Value::Num(out))
}

fn margin_shape(args: &Args<Type>, rows: bool) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat { rows: r, cols: c }) => Ok(Type::Num {
            len: if rows { *r } else { *c },
            value: None,
        }),
        // An array (typed unknown, or as numbers or logicals of unknown
        // length after arithmetic or a comparison): its sums are a
        // vector, a matrix or an array. A vector of known length holds no
        // dims, and R refuses it.
        Some(Type::Any | Type::Num { len: None, .. } | Type::Bool { len: None, .. }) | None => {
            Ok(Type::Any)
        }
        Some(t) => Err(args.error(
            "x",
            format!(
                "'x' must be an array of at least two dimensions, not {}",
                t.describe()
            ),
        )),
    }
}

fn col_means_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    margin_shape(args, false)
}

fn row_means_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    margin_shape(args, true)
}

fn length_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x");
    if let Some(d) = x.and_then(Value::dist_values) {
        return Ok(Value::scalar(d.len() as f64));
    }
    Ok(Value::scalar(x.map_or(0, Value::len) as f64))
}

fn dim_eval(args: &Args<&Value>, rows: bool) -> Value {
    match args.get("x") {
        Some(Value::Mat(m)) => Value::scalar(if rows { m.nrows() } else { m.ncols() } as f64),
        Some(Value::ComplexMat(m)) => {
            Value::scalar(if rows { m.nrows() } else { m.ncols() } as f64)
        }
        Some(Value::BoolMat(m)) => Value::scalar(if rows { m.nrows() } else { m.ncols() } as f64),
        Some(Value::StrMat(m)) => Value::scalar(if rows { m.nrows() } else { m.ncols() } as f64),
        Some(v) => super::frame::dims(v).map_or(Value::Null, |(r, c)| {
            Value::scalar(if rows { r } else { c } as f64)
        }),
        None => Value::Null,
    }
}

fn nrow_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(dim_eval(args, true))
}

fn ncol_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(dim_eval(args, false))
}

fn length_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = match args.ty("x") {
        Some(t @ Type::Record { class, .. }) if class == "dist" => t.field("values"),
        t => t,
    };
    Ok(match x.and_then(Type::len) {
        Some(n) => Type::scalar_const(n as f64),
        None => Type::num(1),
    })
}

/// Constant when the dimension is known, so `1:nrow(a)` folds.
fn dim_shape(args: &Args<Type>, rows: bool) -> Type {
    match args.ty("x") {
        Some(t @ (Type::Mat { .. } | Type::ComplexMat { .. } | Type::StrMat { .. })) => {
            let (r, c) = t.dims().unwrap_or((None, None));
            match if rows { r } else { c } {
                Some(n) => Type::scalar_const(n as f64),
                None => Type::num(1),
            }
        }
        // An array may be typed as numbers or logicals of unknown length.
        Some(Type::Any | Type::Num { len: None, .. } | Type::Bool { len: None, .. }) => Type::Any,
        Some(t) => match super::frame::type_dims(t) {
            Some((r, c)) => match if rows { r } else { c } {
                Some(n) => Type::scalar_const(n as f64),
                None => Type::num(1),
            },
            None => Type::Null,
        },
        None => Type::Null,
    }
}

fn nrow_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(dim_shape(args, true))
}

fn ncol_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(dim_shape(args, false))
}
