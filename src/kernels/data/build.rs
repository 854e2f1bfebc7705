//! `matrix` and `array`: R's `do_matrix` and `do_array`, restricted to the
//! numeric, logical and character matrices flowcast's values can hold.

use std::borrow::Cow;

use nalgebra::DMatrix;

use super::num_of_len;
use crate::kernels::value::NA;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

const INT_MAX: f64 = 2_147_483_647.0;

/// The numbers of `data` (R's default `NA` when absent); strings and lists
/// cannot become a numeric matrix.
fn data_nums<'a>(a: &'a Args<&Value>) -> Result<Cow<'a, [f64]>, KernelError> {
    match a.get("data") {
        None => Ok(Cow::Owned(vec![NA])),
        Some(Value::Null) => Ok(Cow::Owned(Vec::new())),
        Some(v) => v.as_f64_slice().ok_or_else(|| {
            KernelError::new(format!(
                "{}() builds numeric data only, not from {}",
                a.func,
                v.type_name()
            ))
        }),
    }
}

/// R's `asInteger` on a matrix extent, with `do_matrix`'s messages.
fn extent(name: &str, v: Option<f64>, numeric: bool) -> Result<Option<usize>, String> {
    if !numeric {
        return Err("non-numeric matrix extent".into());
    }
    match v {
        None => Ok(None),
        Some(x) if x.is_nan() || x.abs() >= INT_MAX + 1.0 => {
            Err(format!("invalid '{name}' value (too large or NA)"))
        }
        Some(x) if x.trunc() < 0.0 => Err(format!("invalid '{name}' value (< 0)")),
        Some(x) => Ok(Some(x.trunc() as usize)),
    }
}

/// R's inference of a missing dimension. `None` results are unknown.
fn infer_dims(
    lendat: Option<usize>,
    nr: Option<Option<usize>>,
    nc: Option<Option<usize>>,
) -> Result<(Option<usize>, Option<usize>), String> {
    // Outer Option: supplied or missing; inner: known or unknown value.
    match (nr, nc) {
        (None, None) => Ok((lendat, Some(1))),
        (Some(nr), None) => Ok((nr, infer_other("nr", lendat, nr)?)),
        (None, Some(nc)) => Ok((infer_other("nc", lendat, nc)?, nc)),
        (Some(nr), Some(nc)) => Ok((nr, nc)),
    }
}

fn infer_other(
    what: &str,
    lendat: Option<usize>,
    given: Option<usize>,
) -> Result<Option<usize>, String> {
    let (Some(len), Some(d)) = (lendat, given) else {
        return Ok(None);
    };
    if len as f64 > d as f64 * INT_MAX {
        return Err("data is too long".into());
    }
    if d == 0 {
        return if len > 0 {
            Err(format!("{what} = 0 for non-null data"))
        } else {
            Ok(Some(0))
        };
    }
    Ok(Some(len.div_ceil(d)))
}

/// A matrix extent: missing (`None`), supplied with an unknown value
/// (`Some(None)`), or known.
type Extent = Option<Option<usize>>;

fn matrix_extents<T>(
    a: &Args<T>,
    get: impl Fn(&str) -> Option<(Option<f64>, bool)>,
) -> Result<(Extent, Extent), ArgError> {
    let mut out = [None, None];
    for (slot, name) in out.iter_mut().zip(["nrow", "ncol"]) {
        if let Some((v, numeric)) = get(name) {
            *slot = Some(extent(name, v, numeric).map_err(|m| a.error(name, m))?);
        }
    }
    let [nr, nc] = out;
    Ok((nr, nc))
}

/// R's `asInteger` reads the first element of a longer vector.
fn first_num(t: &Type) -> (Option<f64>, bool) {
    match t {
        Type::Str { .. } | Type::Record { .. } | Type::List { .. } | Type::Formula { .. } => {
            (None, false)
        }
        Type::Null => (Some(f64::NAN), true),
        _ => match t.const_nums() {
            Some(v) if v.is_empty() => (Some(f64::NAN), true),
            Some(v) => (Some(v[0]), true),
            None => (None, true),
        },
    }
}

fn first_value(v: &Value) -> (Option<f64>, bool) {
    match v.as_f64_slice() {
        Some(s) => (Some(s.first().copied().unwrap_or(f64::NAN)), true),
        None => (None, false),
    }
}

fn data_len_type(a: &Args<Type>) -> Result<Option<usize>, ArgError> {
    match a.get("data") {
        None => Ok(Some(1)),
        Some(Type::Record { .. } | Type::List { .. } | Type::Formula { .. }) => Err(a.error(
            "data",
            format!(
                "{}() builds numeric, logical or character data only",
                a.func
            ),
        )),
        Some(t) => Ok(t.len()),
    }
}

/// The strings of character `data`, when it is character.
fn data_strs<'a>(a: &'a Args<&Value>) -> Option<&'a [String]> {
    a.get("data").and_then(|v| match v {
        Value::Str(_) | Value::StrMat(_) => v.as_strs(),
        _ => None,
    })
}

/// `data` recycled into `rows` by `cols` cells, column-major (filled by
/// row when `byrow`), `na` where `data` is empty: do_matrix's copy.
pub(crate) fn fill<T: Clone>(
    data: &[T],
    rows: usize,
    cols: usize,
    byrow: bool,
    na: T,
) -> Result<Vec<T>, KernelError> {
    let total = rows
        .checked_mul(cols)
        .ok_or_else(|| KernelError::new("too many elements specified"))?;
    let len = data.len();
    let mut buf = crate::kernels::alloc::vec_with_capacity(total)?;
    if len == 0 {
        buf.resize(total, na);
    } else if byrow {
        for j in 0..cols {
            for i in 0..rows {
                buf.push(data[(i * cols + j) % len].clone());
            }
        }
    } else {
        buf.extend(data.iter().cycle().take(total).cloned());
    }
    Ok(buf)
}

pub(super) fn shape_matrix(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let lendat = data_len_type(a)?;
    let (nr, nc) = matrix_extents(a, |n| a.get(n).map(first_num))?;
    let (rows, cols) = infer_dims(lendat, nr, nc).map_err(ArgError::call)?;
    Ok(match a.get("data") {
        Some(Type::Bool { .. } | Type::BoolMat { .. }) => Type::BoolMat { rows, cols },
        Some(Type::Str { .. } | Type::StrMat { .. }) => Type::StrMat { rows, cols },
        _ => Type::Mat { rows, cols },
    })
}

/// `matrix()` of character data: a character matrix, NA where `data` is
/// empty.
fn eval_str_matrix(a: &Args<&Value>, data: &[String], ctx: &mut Ctx) -> Result<Value, KernelError> {
    let byrow = a.bool_or("byrow", false)?;
    let (nr, nc) = matrix_extents(a, |n| a.get(n).map(first_value))
        .map_err(|e| KernelError::new(e.message))?;
    let (rows, cols) = infer_dims(Some(data.len()), nr, nc).map_err(KernelError::new)?;
    let (rows, cols) = (rows.unwrap_or(0), cols.unwrap_or(0));
    if let Some(w) = matrix_length_warning(data.len(), rows, cols) {
        ctx.warn(w);
    }
    let buf = fill(data, rows, cols, byrow, "NA".to_string())?;
    named_dims(a, Value::StrMat(DMatrix::from_vec(rows, cols, buf)), ctx)
}

pub(super) fn eval_matrix(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(s) = data_strs(a) {
        return eval_str_matrix(a, s, ctx);
    }
    let data = data_nums(a)?;
    let byrow = a.bool_or("byrow", false)?;
    let (nr, nc) = matrix_extents(a, |n| a.get(n).map(first_value))
        .map_err(|e| KernelError::new(e.message))?;
    let (rows, cols) = infer_dims(Some(data.len()), nr, nc).map_err(KernelError::new)?;
    let (rows, cols) = (rows.unwrap_or(0), cols.unwrap_or(0));
    let total = rows
        .checked_mul(cols)
        .ok_or_else(|| KernelError::new("too many elements specified"))?;
    let mut buf = super::alloc_num(total)?;
    let len = data.len();
    if let Some(w) = matrix_length_warning(len, rows, cols) {
        ctx.warn(w);
    }
    // R fills an empty `data` with NA and recycles any other.
    if len == 0 {
        buf.resize(total, NA);
    } else if byrow {
        for j in 0..cols {
            for i in 0..rows {
                buf.push(data[(i * cols + j) % len]);
            }
        }
    } else {
        buf.extend(data.iter().cycle().take(total));
    }
    let m = DMatrix::from_vec(rows, cols, buf);
    // R's matrix() keeps its data's type: logical data, a logical matrix.
    let m = match a.get("data") {
        Some(Value::Bool(_) | Value::BoolMat(_)) => {
            Value::BoolMat(m.map(|x| (!x.is_nan()).then_some(x != 0.0)))
        }
        _ => Value::Mat(m),
    };
    named_dims(a, m, ctx)
}

/// do_matrix's warning when `len` values do not fill `nr` by `nc` evenly.
fn matrix_length_warning(len: usize, nr: usize, nc: usize) -> Option<String> {
    let nrc = nr * nc;
    let uneven = |n: usize| (len > n && (len / n) * n != len) || (len < n && (n / len) * len != n);
    if len > 1 && nrc % len != 0 {
        Some(if uneven(nr) {
            format!("data length [{len}] is not a sub-multiple or multiple of the number of rows [{nr}]")
        } else if uneven(nc) {
            format!(
                "data length [{len}] is not a sub-multiple or multiple of the number of columns [{nc}]"
            )
        } else {
            format!("data length differs from size of matrix: [{len} != {nr} x {nc}]")
        })
    } else if len > 1 && nrc == 0 {
        Some("non-empty data for zero-extent matrix".into())
    } else {
        None
    }
}

/// `x` with the call's `dimnames`, which R sets as `dimnames(x) <- dimnames`
/// would (and checks the same way); a vector's one dimension names its
/// elements.
fn named_dims(a: &Args<&Value>, x: Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(dn) = a.get("dimnames").filter(|d| !matches!(d, Value::Null)) else {
        return Ok(x);
    };
    match (&x, dn) {
        (Value::Num(v), Value::List(l)) if l.items.len() == 1 => match &l.items[0] {
            Value::Null => Ok(x),
            names if names.len() == v.len() => crate::kernels::names::set_names(&x, names),
            _ => Err(KernelError::new(
                "length of 'dimnames' [1] not equal to array extent",
            )),
        },
        (Value::Num(_), Value::List(l)) => Err(KernelError::new(format!(
            "length of 'dimnames' [{}] must match that of 'dims' [1]",
            l.items.len()
        ))),
        _ => crate::kernels::replace::with_dimnames(&x, dn, ctx),
    }
}

/// `dim`'s extents: R coerces to integer (truncating) and refuses NA and
/// negatives.
fn dims_of(v: &[f64]) -> Result<Vec<usize>, String> {
    if v.is_empty() {
        return Err("'dims' cannot be of length 0".into());
    }
    v.iter()
        .map(|&d| {
            if d.is_nan() || d.trunc() < 0.0 || d >= INT_MAX + 1.0 {
                Err("negative length vectors are not allowed".to_string())
            } else {
                Ok(d.trunc() as usize)
            }
        })
        .collect()
}

const MORE_DIMS: &str =
    "flowcast's arrays of more than 2 dimensions carry no dimnames (dimnames = NULL only)";

pub(super) fn shape_array(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let lendat = data_len_type(a)?;
    let dims = match a.get("dim") {
        None => return Ok(num_of_len(lendat)),
        Some(t) if !t.is_numeric() => return Err(a.error("dim", "'dim' must be numeric")),
        Some(t) => t,
    };
    if let Some(v) = dims.const_nums() {
        let d = dims_of(&v).map_err(|m| a.error("dim", m))?;
        let text = matches!(a.get("data"), Some(Type::Str { .. } | Type::StrMat { .. }));
        return match d.as_slice() {
            [n] if text => Ok(Type::Str {
                len: Some(*n),
                value: None,
            }),
            [r, c] if text => Ok(Type::str_mat(Some(*r), Some(*c))),
            [n] => Ok(Type::num(*n)),
            [r, c] => Ok(Type::mat(*r, *c)),
            // An array: its type says nothing of its dimensions.
            _ => Ok(Type::Any),
        };
    }
    if matches!(a.get("data"), Some(Type::Str { .. } | Type::StrMat { .. })) {
        return Ok(match dims.len() {
            Some(2) => Type::str_mat(None, None),
            _ => Type::Any,
        });
    }
    match dims.len() {
        Some(0) => Err(a.error("dim", "'dims' cannot be of length 0")),
        Some(1) => Ok(num_of_len(None)),
        Some(2) => Ok(Type::Mat {
            rows: None,
            cols: None,
        }),
        Some(_) | None => Ok(Type::Any),
    }
}

/// `array()` of character data: a vector or a matrix; more dimensions
/// are refused (flowcast's arrays beyond two are numbers or logicals).
fn eval_str_array(a: &Args<&Value>, data: &[String], ctx: &mut Ctx) -> Result<Value, KernelError> {
    let dims = match a.get("dim") {
        None => vec![data.len()],
        Some(v) => {
            let d = v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'dim' must be numeric"))?;
            dims_of(&d).map_err(KernelError::new)?
        }
    };
    let x = match dims.as_slice() {
        [n] => Value::Str(fill(data, *n, 1, false, "NA".to_string())?),
        [r, c] => Value::StrMat(DMatrix::from_vec(
            *r,
            *c,
            fill(data, *r, *c, false, "NA".to_string())?,
        )),
        _ => {
            return Err(KernelError::new(
                "flowcast's character arrays have at most 2 dimensions",
            ))
        }
    };
    named_dims(a, x, ctx)
}

pub(super) fn eval_array(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(s) = data_strs(a) {
        return eval_str_array(a, s, ctx);
    }
    let data = data_nums(a)?;
    let dims = match a.get("dim") {
        None => vec![data.len()],
        Some(v) => {
            let d = v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'dim' must be numeric"))?;
            dims_of(&d).map_err(KernelError::new)?
        }
    };
    let total = dims
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| KernelError::new("'dim' specifies too large an array"))?;
    let mut buf = super::alloc_num(total)?;
    if data.is_empty() {
        buf.resize(total, NA);
    } else {
        buf.extend((0..total).map(|i| data[i % data.len()]));
    }
    let x = match dims.as_slice() {
        [_] => Value::Num(buf),
        [r, c] => Value::Mat(DMatrix::from_vec(*r, *c, buf)),
        _ => {
            if a.get("dimnames").is_some_and(|d| !matches!(d, Value::Null)) {
                return Err(KernelError::new(MORE_DIMS));
            }
            // A logical array stays logical, as R's array() keeps the type.
            let data = match a.get("data").map(crate::kernels::names::bare) {
                Some(Value::Bool(_) | Value::BoolMat(_)) => Value::Bool(
                    buf.iter()
                        .map(|&v| (!v.is_nan()).then_some(v != 0.0))
                        .collect(),
                ),
                _ => Value::Num(buf),
            };
            return crate::kernels::arrays::shaped(data, &dims);
        }
    };
    named_dims(a, x, ctx)
}
