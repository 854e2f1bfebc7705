//! Data frames: what `read.csv` returns, as in R. A data frame is a list of
//! class `data.frame` whose named columns (numbers, text or logicals) have
//! one length, so `d$height`, `d[[6]]`, `names(d)` and `length(d)` (the
//! number of columns) are list operations and need nothing special.
//!
//! What is special lives here: `nrow`, `ncol` and `dim`; `d[j]` and
//! `d[i, j]`, which index rows and columns and carry the row names as
//! `[.data.frame` does (see [`super::row_names`]); `rbind`'s rows and
//! their names; and the functions R lets take a data frame because they
//! start with `as.matrix(x)` (`colMeans`, `prcomp`, `dist`, …). Those get
//! the frame as a numeric matrix before they run, in one place
//! ([`coerce_value`], [`coerce_type`]), rather than each kernel learning
//! about frames.

use nalgebra::DMatrix;

use super::index::{self, IndexError};
use super::value::{List, RowNames};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub const CLASS: &str = "data.frame";

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "as.matrix",
        params: &[req("x")],
        random: false,
        shape: as_matrix_shape,
        eval: as_matrix_eval,
    },
    Kernel {
        name: "dim",
        params: &[req("x")],
        random: false,
        shape: dim_shape,
        eval: dim_eval,
    },
    Kernel {
        name: "names",
        params: &[req("x")],
        random: false,
        shape: names_shape,
        eval: names_eval,
    },
];

/// Functions whose R code turns a data frame into a matrix first
/// (`as.matrix(x)`, or `Summary.data.frame` for `sum`, `prod`, `min`,
/// `max` and `range`).
/// Others (`%*%`, `crossprod`, `sd`, `mean`) refuse a data frame in R, and
/// refuse it here too.
const TAKES_MATRIX: &[&str] = &[
    "as.matrix",
    "colMeans",
    "colSums",
    "rowMeans",
    "rowSums",
    "prcomp",
    "dist",
    "kmeans",
    "eigen",
    "svd",
    "qr",
    "solve",
    "var",
    "cor",
    "cov",
    "scale",
    "apply",
    "t",
    "sum",
    "prod",
    "min",
    "max",
    "range",
    "mahalanobis",
    "max.col",
    "acf",
    "pacf",
    "ar",
    "ar.yw",
    "ar.burg",
    "ar.ols",
    "cov.wt",
];

/// Whether `func` takes a data frame as the numeric matrix it holds.
pub fn takes_matrix(func: &str) -> bool {
    TAKES_MATRIX.contains(&func)
}

/// The data frame `v` is, if it is one.
pub fn as_frame(v: &Value) -> Option<&List> {
    match v {
        Value::List(l) if l.class.as_deref() == Some(CLASS) => Some(l),
        _ => None,
    }
}

/// A data frame of these columns (all of one length), with R's
/// automatic row names.
pub fn frame(names: Vec<String>, columns: Vec<Value>) -> Value {
    named_frame(names, columns, None)
}

/// A data frame of these columns with these row names (`None`: automatic).
pub fn named_frame(names: Vec<String>, columns: Vec<Value>, rows: Option<RowNames>) -> Value {
    Value::List(List {
        class: Some(CLASS.to_string()),
        names: Some(names),
        items: columns,
        row_names: rows,
    })
}

/// A numeric or logical matrix as the makings of a data frame
/// (`as.data.frame.matrix`).
pub struct MatrixParts<'a> {
    pub columns: Vec<Value>,
    pub colnames: Option<&'a [String]>,
    /// Its row names, made unique as R makes them.
    pub rows: Option<RowNames>,
}

/// [`MatrixParts`] of `v`; `None` for anything but a numeric, logical or
/// character matrix.
pub fn matrix_parts(v: &Value) -> Option<MatrixParts<'_>> {
    let (rownames, colnames) = super::names::dimnames(v);
    let columns: Vec<Value> = match super::names::bare(v) {
        Value::Mat(m) => (0..m.ncols())
            .map(|j| Value::Num(m.column(j).iter().copied().collect()))
            .collect(),
        Value::BoolMat(m) => (0..m.ncols())
            .map(|j| Value::Bool(m.column(j).iter().copied().collect()))
            .collect(),
        Value::StrMat(m) => (0..m.ncols())
            .map(|j| Value::Str(m.column(j).iter().cloned().collect()))
            .collect(),
        _ => return None,
    };
    let rows = rownames.map(|r| RowNames::Text(super::quote::make_unique(r, ".")));
    Some(MatrixParts {
        columns,
        colnames,
        rows,
    })
}

/// Rows of a data frame: its columns' length, or its row names' count
/// when it has no columns (`d[0]`).
pub fn nrow(l: &List) -> usize {
    l.items
        .first()
        .map_or_else(|| l.row_names.as_ref().map_or(0, RowNames::len), Value::len)
}

fn names(l: &List) -> Vec<String> {
    l.names.clone().unwrap_or_default()
}

/// R's `as.matrix(d)` for a data frame of numbers and logicals. A text
/// column would make R's result a character matrix, which no numeric
/// function takes: that is an error naming the column.
pub fn numeric_matrix(l: &List, func: &str) -> Result<DMatrix<f64>, KernelError> {
    let n = nrow(l);
    let mut data = Vec::with_capacity(n * l.items.len());
    for (k, col) in l.items.iter().enumerate() {
        let Some(v) = col.as_f64_slice().filter(|_| !matches!(col, Value::Mat(_))) else {
            let name = l
                .names
                .as_ref()
                .and_then(|ns| ns.get(k))
                .map_or("?", String::as_str);
            return Err(KernelError::new(text_column_message(
                func,
                name,
                col.type_name(),
            )));
        };
        data.extend_from_slice(&v);
    }
    Ok(DMatrix::from_vec(n, l.items.len(), data))
}

fn text_column_message(func: &str, column: &str, what: &str) -> String {
    format!(
        "{func}() takes a data frame through as.matrix(), which needs numeric columns, \
         but column `{column}` is {what}"
    )
}

/// A data-frame argument of a [`takes_matrix`] function, as the matrix R
/// would hand it; `None` for any other value.
pub fn coerce_value(func: &str, v: &Value) -> Option<Result<Value, KernelError>> {
    let l = as_frame(v)?;
    if func == "as.matrix" {
        if let Some(m) = text_matrix(l) {
            return Some(Ok(Value::StrMat(m)));
        }
    }
    Some(numeric_matrix(l, func).map(Value::Mat))
}

/// R's `as.matrix(d)` for a data frame whose columns are all text or
/// factors: a character matrix of the text and the factors' labels.
/// `None` when a column holds anything else (R formats numbers beside
/// text, which flowcast does not).
fn text_matrix(l: &List) -> Option<DMatrix<String>> {
    if l.items.is_empty() {
        return None;
    }
    let n = nrow(l);
    let mut data = Vec::with_capacity(n * l.items.len());
    for col in &l.items {
        match super::names::bare(col) {
            Value::Str(s) => data.extend(s.iter().cloned()),
            Value::Factor(f) => data.extend(f.labels()),
            _ => return None,
        }
    }
    (data.len() == n * l.items.len()).then(|| DMatrix::from_vec(n, l.items.len(), data))
}

/// The fields of a data-frame type.
pub fn frame_fields(t: &Type) -> Option<&[(String, Type)]> {
    match t {
        Type::Record { class, fields } if class == CLASS => Some(fields),
        _ => None,
    }
}

fn type_nrow(fields: &[(String, Type)]) -> Option<usize> {
    match fields.first() {
        Some((_, t)) => t.len(),
        None => Some(0),
    }
}

/// [`coerce_value`] for shape inference: the matrix type, or why not.
pub fn coerce_type(func: &str, t: &Type) -> Option<Result<Type, String>> {
    let fields = frame_fields(t)?;
    if func == "as.matrix"
        && !fields.is_empty()
        && fields
            .iter()
            .all(|(_, t)| matches!(t, Type::Str { .. } | Type::Factor { .. }))
    {
        return Some(Ok(Type::StrMat {
            rows: type_nrow(fields),
            cols: Some(fields.len()),
        }));
    }
    for (name, t) in fields {
        if !matches!(t, Type::Num { .. } | Type::Bool { .. } | Type::Any) {
            let what = match t {
                Type::Str { .. } => "character",
                Type::Factor { .. } => "factor",
                _ => "not numeric",
            };
            return Some(Err(text_column_message(func, name, what)));
        }
    }
    Some(Ok(Type::Mat {
        rows: type_nrow(fields),
        cols: Some(fields.len()),
    }))
}

/// `nrow`/`ncol` of a data frame value.
pub fn dims(v: &Value) -> Option<(usize, usize)> {
    as_frame(v).map(|l| (nrow(l), l.items.len()))
}

/// `nrow`/`ncol` of a data frame type.
pub fn type_dims(t: &Type) -> Option<(Option<usize>, Option<usize>)> {
    frame_fields(t).map(|f| (type_nrow(f), Some(f.len())))
}

/// The 0-based columns a column subscript selects, with R's message for
/// a column that is not there.
fn columns(l: &List, j: &Value) -> Result<Vec<usize>, KernelError> {
    // The list indexing rules (names, negatives, logicals) pick positions
    // from a probe list holding each column's number.
    let probe = Value::List(List {
        class: None,
        names: l.names.clone(),
        items: (0..l.items.len())
            .map(|k| Value::scalar(k as f64))
            .collect(),
        row_names: None,
    });
    let Value::List(picked) = index::index(&probe, &[Some(j.clone())])? else {
        return Err(KernelError::new("undefined columns selected"));
    };
    picked
        .items
        .iter()
        .map(|v| {
            v.as_scalar()
                .map(|k| k as usize)
                .ok_or_else(|| KernelError::new("undefined columns selected"))
        })
        .collect()
}

/// `d[j]` and `d[i, j]` (`None`: an empty subscript); `None` when `x` is
/// not a data frame. As R's `[.data.frame`: one subscript picks columns
/// and keeps a data frame; two pick rows and columns, and a single column
/// drops to its vector.
pub fn index(x: &Value, indices: &[Option<Value>]) -> Option<Result<Value, KernelError>> {
    index_drop(x, indices, true)
}

/// [`index`] with `[.data.frame`'s `drop`: `drop = FALSE` keeps a single
/// column a data frame.
pub fn index_drop(
    x: &Value,
    indices: &[Option<Value>],
    drop: bool,
) -> Option<Result<Value, KernelError>> {
    let l = as_frame(x)?;
    Some(index_frame(l, indices, drop))
}

fn index_frame(l: &List, indices: &[Option<Value>], drop: bool) -> Result<Value, KernelError> {
    let all_names = names(l);
    let (rows, cols) = match indices {
        [] | [None] => return Ok(Value::List(l.clone())),
        [Some(j)] => (None, columns(l, j)?),
        [i, j] => {
            let cols = match j {
                Some(j) => columns(l, j)?,
                None => (0..l.items.len()).collect(),
            };
            (i.as_ref(), cols)
        }
        _ => return Err(KernelError::new("incorrect number of dimensions")),
    };
    // Rows are found once, for every column and the row names alike; a
    // name finds its row among the row names.
    let positions = match rows {
        Some(Value::Str(wanted)) => Some(super::row_names::find(l, wanted)),
        Some(i) => Some(index::resolve(i, nrow(l), false, None)?),
        None => None,
    };
    let pick = |k: usize| -> Result<Value, KernelError> {
        match &positions {
            // `[.data.frame` takes a matrix column's rows as `xj[i, ,
            // drop = FALSE]` (aggregate makes them).
            Some(p) if super::names::bare(&l.items[k]).dims().is_some() => {
                let i = p
                    .iter()
                    .map(|r| r.map_or(super::value::NA, |r| r as f64 + 1.0))
                    .collect();
                index::index_drop(&l.items[k], &[Some(Value::Num(i)), None], false)
            }
            Some(p) => index::pick_value(&l.items[k], p),
            None => Ok(l.items[k].clone()),
        }
    };
    if drop && indices.len() == 2 && cols.len() == 1 {
        return pick(cols[0]);
    }
    let columns = cols.iter().map(|&k| pick(k)).collect::<Result<_, _>>()?;
    let row_names = match &positions {
        Some(p) => Some(super::row_names::picked(l, p)),
        // Without columns the rows are counted by their names (`d[0]`
        // keeps d's rows).
        None if cols.is_empty() && l.row_names.is_none() => Some(super::row_names::picked(
            l,
            &(0..nrow(l)).map(Some).collect::<Vec<_>>(),
        )),
        None => l.row_names.clone(),
    };
    Ok(named_frame(
        cols.iter().map(|&k| all_names[k].clone()).collect(),
        columns,
        row_names,
    ))
}

/// The type of `d[j]` or `d[i, j]`; `None` when `x` is not a data frame.
pub fn index_type(x: &Type, indices: &[Option<Type>]) -> Option<Result<Type, IndexError>> {
    index_drop_type(x, indices, true)
}

/// The type of [`index_drop`].
pub fn index_drop_type(
    x: &Type,
    indices: &[Option<Type>],
    drop: bool,
) -> Option<Result<Type, IndexError>> {
    let fields = frame_fields(x)?;
    Some(index_frame_type(fields, indices, drop))
}

fn const_value(t: &Type) -> Option<Value> {
    match t {
        Type::Num { value: Some(v), .. } => Some(Value::Num(v.clone())),
        Type::Bool { value: Some(v), .. } => Some(Value::Bool(v.clone())),
        Type::Str { value: Some(v), .. } => Some(Value::Str(v.clone())),
        _ => None,
    }
}

fn index_frame_type(
    fields: &[(String, Type)],
    indices: &[Option<Type>],
    drop: bool,
) -> Result<Type, IndexError> {
    let (rows, cols, at) = match indices {
        [] | [None] => return Ok(Type::record(CLASS, borrow(fields))),
        [Some(j)] => (None, Some(j), 0),
        [i, j] => (i.as_ref(), j.as_ref(), 1),
        _ => return Err((None, "incorrect number of dimensions".into())),
    };
    // Which columns, when the subscript is a constant.
    let picked: Option<Vec<usize>> = match cols {
        None => Some((0..fields.len()).collect()),
        Some(j) => match const_value(j) {
            Some(v) => {
                let probe = List {
                    class: None,
                    names: Some(fields.iter().map(|(n, _)| n.clone()).collect()),
                    items: vec![Value::Null; fields.len()],
                    row_names: None,
                };
                Some(columns(&probe, &v).map_err(|e| (Some(at), e.0))?)
            }
            None => None,
        },
    };
    let Some(picked) = picked else {
        return Ok(Type::Any);
    };
    let n = type_nrow(fields);
    let len = match rows {
        None => n,
        Some(i) => index::index_type(
            &Type::Num {
                len: n,
                value: None,
            },
            &[Some(i.clone())],
        )
        .map_err(|(_, m)| (Some(0), m))?
        .len(),
    };
    let column = |k: usize| match &fields[k].1 {
        Type::Num { .. } => Type::Num { len, value: None },
        Type::Str { .. } => Type::Str { len, value: None },
        Type::Bool { .. } => Type::Bool { len, value: None },
        Type::Factor {
            levels, ordered, ..
        } => Type::Factor {
            len,
            levels: levels.clone(),
            ordered: *ordered,
        },
        _ => Type::Any,
    };
    if drop && indices.len() == 2 && picked.len() == 1 {
        return Ok(column(picked[0]));
    }
    Ok(Type::Record {
        class: CLASS.to_string(),
        fields: picked
            .iter()
            .map(|&k| (fields[k].0.clone(), column(k)))
            .collect(),
    })
}

fn borrow(fields: &[(String, Type)]) -> Vec<(&str, Type)> {
    fields
        .iter()
        .map(|(n, t)| (n.as_str(), t.clone()))
        .collect()
}

fn as_matrix_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t @ (Type::Mat { .. } | Type::StrMat { .. })) => Ok(t.clone()),
        Some(t @ Type::Str { .. }) => Ok(Type::str_mat(t.len(), Some(1))),
        Some(t @ Type::Record { class, .. }) if class == "dist" => {
            let n = t
                .field("size")
                .and_then(Type::const_scalar)
                .map(|n| n as usize);
            Ok(Type::Mat { rows: n, cols: n })
        }
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok(Type::Mat {
            rows: t.len(),
            cols: Some(1),
        }),
        None | Some(Type::Any) => Ok(Type::Mat {
            rows: None,
            cols: None,
        }),
        Some(t) => Err(args.error(
            "x",
            format!(
                "as.matrix() needs numbers or a data frame, not {}",
                t.describe()
            ),
        )),
    }
}

fn as_matrix_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    match args.get("x") {
        Some(Value::Mat(m)) => Ok(Value::Mat(m.clone())),
        Some(Value::StrMat(m)) => Ok(Value::StrMat(m.clone())),
        Some(Value::Str(s)) => Ok(Value::StrMat(DMatrix::from_column_slice(s.len(), 1, s))),
        Some(v @ (Value::Num(_) | Value::Bool(_))) => {
            let d = v.as_f64_slice().unwrap_or_default();
            Ok(Value::Mat(DMatrix::from_column_slice(d.len(), 1, &d)))
        }
        Some(v) => super::clustering::as_square(v)
            .map(Value::Mat)
            .ok_or_else(|| {
                KernelError::new(format!(
                    "as.matrix() needs numbers or a data frame, not {}",
                    v.type_name()
                ))
            }),
        None => Err(KernelError::new(
            "argument \"x\" is missing, with no default",
        )),
    }
}

fn dim_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let dims = match args.ty("x") {
        Some(t) => type_dims(t).or_else(|| t.dims()),
        None => None,
    };
    Ok(match (dims, args.ty("x")) {
        (Some((Some(r), Some(c))), _) => Type::num_const(vec![r as f64, c as f64]),
        (Some(_), _) => Type::num(2),
        // An array is typed unknown, or as the numbers or logicals it holds.
        (None, Some(Type::Any | Type::Num { .. } | Type::Bool { .. })) => Type::Any,
        _ => Type::Null,
    })
}

fn dim_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x");
    if let Some(d) = x.and_then(super::arrays::array_dims) {
        return Ok(Value::Num(d.iter().map(|&n| n as f64).collect()));
    }
    // A one-way table is a one-dimensional array.
    if let Some(x) = x.filter(|x| super::class::dim_count(x) == 1) {
        return Ok(Value::Num(vec![x.len() as f64]));
    }
    let d = x.and_then(|v| v.dims().or_else(|| dims(v)));
    Ok(d.map_or(Value::Null, |(r, c)| Value::Num(vec![r as f64, c as f64])))
}

fn names_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Record { fields, .. }) => Type::Str {
            len: Some(fields.len()),
            value: Some(fields.iter().map(|(n, _)| n.clone()).collect()),
        },
        // A vector's names are known at run time only.
        Some(Type::Null | Type::Formula { .. }) | None => Type::Null,
        Some(_) => Type::Any,
    })
}

fn names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(args.get("x").map_or(Value::Null, super::names::names_of))
}

/// `rbind` with a data frame among its arguments, as R's
/// `rbind.data.frame`: arguments of length zero are dropped, and those
/// without rows unless none has any; the first (a data frame here) gives
/// the columns. After it come data frames and named lists, their columns
/// matched by name; unnamed lists, by position; vectors, one row each,
/// recycled across the columns. Each column joins as [`rbind_column`].
pub fn rbind_frames(parts: &[(Option<&str>, &Value)], ctx: &mut Ctx) -> Result<Value, KernelError> {
    let rows = |v: &Value| match v {
        Value::List(l) if as_frame(v).is_some() => nrow(l),
        Value::List(l) => l.items.first().map_or(0, Value::len),
        other => other.len(),
    };
    let mut args: Vec<(Option<&str>, &Value)> = parts
        .iter()
        .copied()
        .filter(|(_, v)| !v.is_empty())
        .collect();
    if !args.is_empty() && args.iter().any(|(_, v)| rows(v) == 0) {
        if args.iter().all(|(_, v)| rows(v) == 0) {
            return Ok(args[0].1.clone());
        }
        args.retain(|(_, v)| rows(v) > 0);
    }
    let Some((&(first_name, first), rest)) = args.split_first() else {
        return Ok(frame(Vec::new(), Vec::new()));
    };
    let mut labels = RbindLabels::default();
    let Some(first) = as_frame(first) else {
        return Err(KernelError::new(format!(
            "flowcast's rbind() of data frames needs a data frame first, not {}",
            first.type_name()
        )));
    };
    let clabs = names(first);
    let nvar = clabs.len();
    let mut columns: Vec<Vec<Value>> = first.items.iter().map(|c| vec![c.clone()]).collect();
    labels.frame(first_name, first);
    for (i, &(name, xi)) in rest.iter().enumerate() {
        match xi {
            Value::List(l) => {
                let is_frame = as_frame(xi).is_some();
                if is_frame {
                    labels.frame(name, l);
                } else {
                    labels.rows(name, RowLabels::Auto(rows(xi)));
                }
                if !is_frame && l.items.iter().any(|v| v.len() != rows(xi)) {
                    return Err(KernelError::new(
                        "invalid list argument: all variables should have the same length",
                    ));
                }
                let perm = match &l.names {
                    Some(n) if !n.is_empty() => {
                        if n.len() != nvar {
                            return Err(KernelError::new(
                                "numbers of columns of arguments do not match",
                            ));
                        }
                        match_names(&clabs, n)?
                    }
                    _ if is_frame && l.items.len() != nvar => {
                        return Err(KernelError::new(
                            "numbers of columns of arguments do not match",
                        ))
                    }
                    _ => (0..nvar).collect(),
                };
                for (j, &jj) in perm.iter().enumerate() {
                    let item = l
                        .items
                        .get(j)
                        .ok_or_else(|| KernelError::new("subscript out of bounds"))?;
                    columns[jj].push(item.clone());
                }
            }
            Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => {
                labels.vector(name);
                let ni = xi.len();
                if ni != nvar && nvar % ni != 0 {
                    ctx.warn(format!(
                        "number of columns of result, {nvar}, is not a multiple of vector \
                         length {ni} of arg {}",
                        i + 2
                    ));
                }
                let labels;
                let xi = match xi {
                    Value::Factor(f) => {
                        labels = Value::Str(f.labels());
                        &labels
                    }
                    other => other,
                };
                for (j, column) in columns.iter_mut().enumerate() {
                    column.push(super::vector::pick(xi, &[j % ni]));
                }
            }
            other => {
                return Err(KernelError::new(format!(
                    "flowcast's rbind() of data frames takes data frames, lists and vectors, \
                     not {}",
                    other.type_name()
                )))
            }
        }
    }
    let columns = columns
        .iter()
        .map(|parts| rbind_column(&parts.iter().collect::<Vec<_>>(), ctx))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(named_frame(clabs, columns, labels.finish()))
}

/// One argument's row names as `rbind.data.frame` reads them
/// (`attr(xi, "row.names")`): automatic ones are the numbers `1..n`.
enum RowLabels<'a> {
    Auto(usize),
    Given(&'a RowNames),
}

/// `rbind.data.frame`'s row names, argument by argument
/// (`Make.row.names`): rows keep their names, except that rows numbered
/// `1..n` in their own frame are numbered on from the rows before them; a
/// named argument names its rows `name.1`, `name.2`, …; repeats are made
/// unique with `make.unique(sep = "")`.
#[derive(Default)]
struct RbindLabels {
    labels: Vec<Label>,
    /// No argument so far gave names of its own: the result's are
    /// automatic.
    given: bool,
    nrow: usize,
}

#[derive(Clone, PartialEq)]
enum Label {
    Number(i64),
    Text(String),
}

impl RbindLabels {
    fn frame(&mut self, name: Option<&str>, l: &List) {
        let rows = match &l.row_names {
            None => RowLabels::Auto(nrow(l)),
            Some(r) => RowLabels::Given(r),
        };
        self.rows(name, rows);
    }

    fn rows(&mut self, name: Option<&str>, ri: RowLabels) {
        let ni = match &ri {
            RowLabels::Auto(n) => *n,
            RowLabels::Given(r) => r.len(),
        };
        let numbered = match &ri {
            RowLabels::Auto(_) => true,
            RowLabels::Given(RowNames::Numbers(v)) => v
                .iter()
                .enumerate()
                .all(|(i, &r)| i64::from(r) == i as i64 + 1),
            RowLabels::Given(RowNames::Text(_)) => false,
        };
        let own = |i: usize| match &ri {
            RowLabels::Auto(_) => Label::Number(i as i64 + 1),
            RowLabels::Given(RowNames::Numbers(v)) => Label::Number(i64::from(v[i])),
            RowLabels::Given(RowNames::Text(v)) => Label::Text(v[i].clone()),
        };
        match name.filter(|n| !n.is_empty()) {
            Some(n) => {
                self.given = true;
                if ni > 1 {
                    self.labels.extend((0..ni).map(|i| {
                        let ri = match own(i) {
                            Label::Number(k) => k.to_string(),
                            Label::Text(t) => t,
                        };
                        Label::Text(format!("{n}.{ri}"))
                    }));
                } else if ni == 1 {
                    self.labels.push(Label::Text(n.to_string()));
                }
            }
            None if !self.given && self.nrow > 0 && numbered => {
                let from = self.nrow as i64;
                self.labels
                    .extend((1..=ni as i64).map(|k| Label::Number(from + k)));
            }
            None => {
                if !self.given && (self.nrow > 0 || !numbered) {
                    self.given = true;
                }
                self.labels.extend((0..ni).map(own));
            }
        }
        self.nrow += ni;
    }

    /// A vector argument: one row, named by the argument's name or its
    /// row number.
    fn vector(&mut self, name: Option<&str>) {
        self.nrow += 1;
        self.labels.push(match name.filter(|n| !n.is_empty()) {
            Some(n) => Label::Text(n.to_string()),
            None => Label::Number(self.nrow as i64),
        });
    }

    fn finish(self) -> Option<RowNames> {
        if !self.given {
            return None;
        }
        let text = |l: &Label| match l {
            Label::Number(k) => k.to_string(),
            Label::Text(t) => t.clone(),
        };
        let all: Vec<String> = self.labels.iter().map(text).collect();
        let mut seen = std::collections::HashSet::with_capacity(all.len());
        if !all.iter().all(|l| seen.insert(l.as_str())) {
            return Some(RowNames::Text(super::quote::make_unique(&all, "")));
        }
        let numbers: Option<Vec<i32>> = self
            .labels
            .iter()
            .map(|l| match l {
                Label::Number(k) => i32::try_from(*k).ok(),
                Label::Text(_) => None,
            })
            .collect();
        Some(match numbers {
            Some(v) => RowNames::Numbers(v),
            None => RowNames::Text(all),
        })
    }
}

/// `rbind.data.frame`'s `match.names`: where each of `names` goes among
/// the first frame's columns `clabs`.
fn match_names(clabs: &[String], names: &[String]) -> Result<Vec<usize>, KernelError> {
    let mismatch = || KernelError::new("names do not match previous names");
    if clabs == names {
        return Ok((0..clabs.len()).collect());
    }
    let mut used = vec![false; clabs.len()];
    names
        .iter()
        .map(|n| {
            let at = (0..clabs.len())
                .find(|&k| !used[k] && clabs[k] == *n)
                .ok_or_else(mismatch)?;
            used[at] = true;
            Ok(at)
        })
        .collect()
}

/// One column of `rbind.data.frame`, `parts[0]` the first frame's. A
/// factor there gathers the levels of the later factors and the values of
/// later text, in order of appearance (NA is no level); a later value not
/// among them is NA, with R's warning. Any other column joins the values
/// as `c` joins them, a factor among them as its labels.
pub(super) fn rbind_column(parts: &[&Value], ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Factor(first)) = parts.first() else {
        let labels: Vec<Value> = parts
            .iter()
            .map(|v| match v {
                Value::Factor(f) => Value::Str(f.labels()),
                other => (*other).clone(),
            })
            .collect();
        return super::data::combine(&labels.iter().collect::<Vec<_>>());
    };
    let mut levels = first.levels.clone();
    let mut index: crate::kernels::hashing::FastMap<String, u32> = levels
        .iter()
        .enumerate()
        .rev()
        .map(|(i, l)| (l.clone(), i as u32))
        .collect();
    let mut add = |l: &str, levels: &mut Vec<String>| {
        if !index.contains_key(l) {
            index.insert(l.to_string(), levels.len() as u32);
            levels.push(l.to_string());
        }
    };
    for v in &parts[1..] {
        match v {
            Value::Factor(f) => f.levels.iter().for_each(|l| add(l, &mut levels)),
            Value::Str(s) => s
                .iter()
                .filter(|t| !super::factor::text_is_na(t))
                .for_each(|t| add(t, &mut levels)),
            _ => {}
        }
    }
    let index = super::factor::level_index(&levels);
    let mut codes = first.codes.clone();
    for v in &parts[1..] {
        let text = super::factor::as_text(v).ok_or_else(|| {
            KernelError::new(format!(
                "cannot join a {} to a factor column",
                v.type_name()
            ))
        })?;
        let mut invalid = false;
        codes.extend(text.iter().map(|t| {
            let t = t.as_deref()?;
            let c = index.get(t).copied();
            invalid |= c.is_none();
            c
        }));
        if invalid {
            ctx.warn("invalid factor level, NA generated");
        }
    }
    Ok(Value::Factor(super::value::Factor {
        codes,
        levels,
        ordered: false,
    }))
}

/// The type of [`rbind_frames`]: the first frame's columns, their lengths
/// the sum of the frames' rows where every one is known.
pub fn rbind_frames_type(parts: &[&Type]) -> Option<Type> {
    let frames: Vec<&[(String, Type)]> = parts
        .iter()
        .filter(|t| !matches!(t, Type::Null))
        .map(|t| frame_fields(t))
        .collect::<Option<_>>()?;
    let first = frames.first()?;
    let rows = frames
        .iter()
        .map(|f| type_nrow(f))
        .try_fold(0usize, |a, r| r.map(|r| a + r));
    let fields = first
        .iter()
        .map(|(n, t)| {
            let t = match t {
                Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } => {
                    super::vector::like(t, rows)
                }
                Type::Factor { ordered, .. } => Type::Factor {
                    len: rows,
                    levels: None,
                    ordered: *ordered,
                },
                _ => Type::Any,
            };
            (n.clone(), t)
        })
        .collect();
    Some(Type::Record {
        class: CLASS.to_string(),
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d() -> Value {
        frame(
            vec!["a".into(), "b".into(), "g".into()],
            vec![
                Value::Num(vec![1.0, 2.0, 3.0]),
                Value::Num(vec![4.0, 5.0, 6.0]),
                Value::Str(vec!["x".into(), "y".into(), "z".into()]),
            ],
        )
    }

    #[test]
    fn one_column_drops_to_its_vector_only_with_two_subscripts() {
        let two = index(&d(), &[None, Some(Value::scalar(2.0))])
            .unwrap()
            .unwrap();
        assert_eq!(two, Value::Num(vec![4.0, 5.0, 6.0]));
        let one = index(&d(), &[Some(Value::scalar(2.0))]).unwrap().unwrap();
        assert_eq!(dims(&one), Some((3, 1)));
        let rows = index(&d(), &[Some(Value::Num(vec![1.0, 3.0])), None])
            .unwrap()
            .unwrap();
        assert_eq!(dims(&rows), Some((2, 3)));
        let e = index(&d(), &[None, Some(Value::scalar(7.0))])
            .unwrap()
            .unwrap_err();
        assert_eq!(e.0, "undefined columns selected");
    }

    #[test]
    fn a_text_column_is_named_when_a_matrix_is_needed() {
        let Value::List(l) = d() else { unreachable!() };
        let e = numeric_matrix(&l, "colMeans").unwrap_err();
        assert!(e.0.contains("column `g` is character"), "{}", e.0);
    }
}
