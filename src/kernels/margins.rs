//! `addmargins(A, margin, FUN = sum, quiet)` of a one- or two-way table, as
//! R's `stats::addmargins` with one FUN: for each margin in turn
//! (`expand.one`), FUN over that dimension is added as a last slice, so
//! the second margin's totals include the first's (the corner of a 2-d
//! table is the sum of the column sums). The kernel works on the bare
//! numbers; the table's dimnames, with R's `Sum` label on each new slice,
//! are carried by names::carry (a FUN's own label is not, so a result with
//! FUN given is unnamed), and the message R prints for several margins
//! with a FUN given is not printed.

use nalgebra::DMatrix;

use super::fun::{self, Fun};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "addmargins",
    params: &[req("A"), opt("margin"), opt("FUN"), opt("quiet")],
    random: false,
    shape,
    eval,
}];

const NOT_TABLE: &str = "'A' must be an array or table";

/// The margins asked for, each 1-based and at most `dims`.
fn margins(m: Option<&[f64]>, dims: usize) -> Result<Vec<usize>, String> {
    let Some(m) = m else {
        return Ok((1..=dims).collect());
    };
    m.iter()
        .map(|&x| {
            if x.is_finite() && x.trunc() >= 1.0 && x.trunc() as usize <= dims {
                Ok(x.trunc() as usize)
            } else {
                // R fails indexing the dimnames by the margin.
                Err("subscript out of bounds".to_string())
            }
        })
        .collect()
}

/// FUN of one slice of the table, as the single number R stores.
fn margin_value(fun: &Fun, slice: Vec<f64>, ctx: &mut Ctx) -> Result<f64, KernelError> {
    let v = fun.call_on(&Value::Num(slice), &[], ctx)?;
    let nums = match &v {
        Value::Num(_) | Value::Bool(_) | Value::Mat(_) => v.as_f64_slice().unwrap_or_default(),
        other => {
            return Err(KernelError::new(format!(
                "addmargins(): FUN must give a number, not {}",
                other.type_name()
            )))
        }
    };
    match nums.len() {
        0 => Err(KernelError::new("replacement has length zero")),
        1 => Ok(nums[0]),
        _ => {
            ctx.warn("number of items to replace is not a multiple of replacement length");
            Ok(nums[0])
        }
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let a = args
        .get("A")
        .ok_or_else(|| KernelError::new("argument \"A\" is missing, with no default"))?;
    args.bool_or("quiet", false)?;
    let fun = fun::resolve_or(args.get("FUN"), ctx, "sum")?;
    let margin = match args.get("margin") {
        None => None,
        Some(v) => Some(v.as_f64_slice().ok_or_else(|| {
            KernelError::new(format!("'margin' must be numbers, not {}", v.type_name()))
        })?),
    };
    if super::arrays::array_dims(a).is_some() {
        if let Some(t) = super::ftable::as_table(a) {
            return array_margins(t, margin.as_deref(), args.has("FUN"), &fun, ctx);
        }
    }
    match a {
        Value::Num(_) | Value::Bool(_) => {
            let mut v = a.as_f64_slice().unwrap_or_default().into_owned();
            for _ in margins(margin.as_deref(), 1).map_err(KernelError::new)? {
                let total = margin_value(&fun, v.clone(), ctx)?;
                v.push(total);
            }
            Ok(Value::Num(v))
        }
        Value::Mat(_) | Value::BoolMat(_) => {
            let (r, c) = a.dims().unwrap_or((0, 0));
            let data = a.as_f64_slice().unwrap_or_default().into_owned();
            let mut m = DMatrix::from_vec(r, c, data);
            for k in margins(margin.as_deref(), 2).map_err(KernelError::new)? {
                m = if k == 1 {
                    let mut sums = Vec::with_capacity(m.ncols());
                    for j in 0..m.ncols() {
                        sums.push(margin_value(
                            &fun,
                            m.column(j).iter().copied().collect(),
                            ctx,
                        )?);
                    }
                    let n = m.nrows();
                    let mut grown = m.insert_row(n, 0.0);
                    for (j, s) in sums.into_iter().enumerate() {
                        grown[(n, j)] = s;
                    }
                    grown
                } else {
                    let mut sums = Vec::with_capacity(m.nrows());
                    for i in 0..m.nrows() {
                        sums.push(margin_value(&fun, m.row(i).iter().copied().collect(), ctx)?);
                    }
                    let n = m.ncols();
                    let mut grown = m.insert_column(n, 0.0);
                    for (i, s) in sums.into_iter().enumerate() {
                        grown[(i, n)] = s;
                    }
                    grown
                };
            }
            Ok(Value::Mat(m))
        }
        _ => Err(KernelError::new(NOT_TABLE)),
    }
}

/// addmargins of an array of three or more dimensions, as R's
/// `expand.one` for each margin in turn: the array grows by one slice
/// along that dimension, each of its cells FUN of the cells along the
/// dimension that share its other indices, labelled "Sum" for R's default
/// FUN.
fn array_margins(
    mut t: super::ftable::Table,
    margin: Option<&[f64]>,
    fun_given: bool,
    fun: &Fun,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    if fun_given {
        return Err(KernelError::new(
            "flowcast's addmargins() takes the default FUN for an array of three or more dimensions",
        ));
    }
    for k in margins(margin, t.dx.len()).map_err(KernelError::new)? {
        let d = k - 1;
        let mut dims = t.dx.clone();
        dims[d] += 1;
        let total: usize = dims.iter().product();
        let stride_old: Vec<usize> =
            t.dx.iter()
                .scan(1, |s, &x| {
                    let here = *s;
                    *s *= x;
                    Some(here)
                })
                .collect();
        let mut cells = Vec::with_capacity(total);
        for at in 0..total {
            let (mut rest, mut idx) = (at, Vec::with_capacity(dims.len()));
            for &x in &dims {
                idx.push(rest % x);
                rest /= x;
            }
            let base: usize = idx
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != d)
                .map(|(j, &i)| i * stride_old[j])
                .sum();
            if idx[d] < t.dx[d] {
                cells.push(t.cells[base + idx[d] * stride_old[d]]);
            } else {
                let slice = (0..t.dx[d])
                    .map(|i| t.cells[base + i * stride_old[d]])
                    .collect();
                cells.push(margin_value(fun, slice, ctx)?);
            }
        }
        t.cells = cells;
        t.dx = dims;
        t.dn[d].push("Sum".to_string());
    }
    Ok(super::grouping::array_table(t.cells, t.dn, t.dnn))
}

fn shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    if let Err(m) = fun::resolve_shape(args.ty("FUN"), ctx) {
        return Err(args.error("FUN", m));
    }
    if let Ok(Some(f)) = fun::resolve_shape(args.ty("FUN"), ctx) {
        f.shape(vec![(None, Type::num_unknown())], None, ctx)
            .map_err(|m| args.error("FUN", m))?;
    }
    let margin = match args.ty("margin") {
        None => None,
        Some(t) => match t.const_nums() {
            Some(v) => Some(v),
            None if t.is_numeric() => return Ok(Type::Any),
            None => {
                return Err(args.error(
                    "margin",
                    format!("'margin' must be numbers, not {}", t.describe()),
                ))
            }
        },
    };
    match args.ty("A") {
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => {
            let added = margins(margin.as_deref(), 1)
                .map_err(|m| args.error("margin", m))?
                .len();
            Ok(Type::Num {
                len: t.len().map(|n| n + added),
                value: None,
            })
        }
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => {
            let m = margins(margin.as_deref(), 2).map_err(|m| args.error("margin", m))?;
            let ones = m.iter().filter(|&&k| k == 1).count();
            Ok(Type::Mat {
                rows: rows.map(|r| r + ones),
                cols: cols.map(|c| c + m.len() - ones),
            })
        }
        None | Some(Type::Any) => Ok(Type::Any),
        Some(_) => Err(args.error("A", NOT_TABLE)),
    }
}
