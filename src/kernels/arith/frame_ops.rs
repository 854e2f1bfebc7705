//! R's group methods for data frames (base/R/dataframe.R): `Ops.data.frame`
//! (`d == -99`, `d * 2`, `!d`) and `Math.data.frame` (`round(d, 2)`,
//! `log(d)`). Each applies the operator or function column by column.
//! Arithmetic keeps a data frame; a comparison or logical operator gives a
//! logical matrix named by the columns, which `d[m] <- v` then reads.

use std::borrow::Cow;

use crate::kernels::args::Args;
use crate::kernels::frame::{as_frame, frame_fields, named_frame, nrow, type_dims, CLASS};
use crate::kernels::names::{bare, dimnamed, strip_value};
use crate::kernels::row_names::matrix_rownames;
use crate::kernels::value::List;
use crate::kernels::{index, Ctx, KernelError, Type, Value};

type Eval = fn(&Args<&Value>, &mut Ctx) -> Result<Value, KernelError>;

/// The operators whose method gives a data frame; the others (comparison
/// and logic) give a logical matrix.
fn arithmetic(op: &str) -> bool {
    matches!(op, "+" | "-" | "*" | "^" | "%%" | "%/%" | "/")
}

/// What one operand gives each column.
enum Side<'a> {
    /// The same value for every column (a scalar, or a list of one).
    Whole(&'a Value),
    /// A value per column.
    Columns(Vec<Cow<'a, Value>>),
}

impl Side<'_> {
    fn column(&self, j: usize) -> &Value {
        match self {
            Side::Whole(v) => v,
            Side::Columns(c) => &c[j],
        }
    }
}

/// How `Ops.data.frame` spreads an operand over `nc` columns of `nr` rows.
fn side<'a>(v: &'a Value, nr: usize, nc: usize) -> Result<Side<'a>, KernelError> {
    if let Some(l) = as_frame(v) {
        return Ok(Side::Columns(l.items.iter().map(Cow::Borrowed).collect()));
    }
    let v = bare(v);
    if let Value::List(l) = v {
        return match l.items.len() {
            0 => Ok(Side::Whole(&Value::Null)),
            1 => Ok(Side::Whole(&l.items[0])),
            n if n == nc => Ok(Side::Columns(l.items.iter().map(Cow::Borrowed).collect())),
            n => Err(KernelError::new(format!(
                "list of length {n} not meaningful"
            ))),
        };
    }
    if v.len() <= 1 {
        return Ok(Side::Whole(v));
    }
    // split(rep_len(as.vector(e), nr * nc), column): the values fill the
    // frame column by column.
    let len = v.len();
    (0..nc)
        .map(|j| {
            let at = (0..nr).map(|i| ((j * nr + i) % len + 1) as f64).collect();
            index::index(v, &[Some(Value::Num(at))]).map(|c| Cow::Owned(strip_value(c)))
        })
        .collect::<Result<_, _>>()
        .map(Side::Columns)
}

/// `Ops.data.frame`: `each` (the operator's own rule) on every column, when
/// `e1` or `e2` (`None` for a unary operator) is a data frame; `None`
/// otherwise.
pub(super) fn ops(
    args: &Args<&Value>,
    e1: &Value,
    e2: Option<&Value>,
    ctx: &mut Ctx,
    each: Eval,
) -> Option<Result<Value, KernelError>> {
    let frame = as_frame(e1).or_else(|| e2.and_then(as_frame))?;
    Some(frame_op(args, frame, e1, e2, ctx, each))
}

fn frame_op(
    args: &Args<&Value>,
    frame: &List,
    e1: &Value,
    e2: Option<&Value>,
    ctx: &mut Ctx,
    each: Eval,
) -> Result<Value, KernelError> {
    let op = args.func;
    let (nr, nc) = (nrow(frame), frame.items.len());
    if let (Some(a), Some(b)) = (as_frame(e1), e2.and_then(as_frame)) {
        if nrow(a) != nrow(b) || a.items.len() != b.items.len() {
            return Err(KernelError::new(format!(
                "\u{2018}{op}\u{2019} only defined for equally-sized data frames"
            )));
        }
    }
    let left = side(e1, nr, nc)?;
    let right = e2.map(|e| side(e, nr, nc)).transpose()?;
    let mut columns = Vec::with_capacity(nc);
    for j in 0..nc {
        let mut given = vec![(None, left.column(j))];
        if let Some(r) = &right {
            given.push((None, r.column(j)));
        }
        let matched =
            Args::match_call(op, args.params(), given).map_err(|e| KernelError::new(e.message))?;
        columns.push(strip_value(each(&matched, ctx)?));
    }
    let names = frame.names.clone().unwrap_or_default();
    if arithmetic(op) {
        if let Some(c) = columns.iter().find(|c| c.len() != nr) {
            return Err(KernelError::new(format!(
                "arguments imply differing number of rows: {nr}, {}",
                c.len()
            )));
        }
        return Ok(named_frame(names, columns, frame.row_names.clone()));
    }
    let mut cells = Vec::with_capacity(nr * nc);
    for c in &columns {
        let l = c
            .as_logicals()
            .ok_or_else(|| KernelError::new(format!("{op}: a column gave {}", c.type_name())))?;
        if l.len() != nr {
            return Err(KernelError::new(format!(
                "data length [{}] is not a sub-multiple or multiple of the number of rows [{nr}]",
                l.len()
            )));
        }
        cells.extend_from_slice(&l);
    }
    let m = Value::BoolMat(nalgebra::DMatrix::from_vec(nr, nc, cells));
    Ok(dimnamed(m, matrix_rownames(frame), Some(names)))
}

/// Whether a column is what `Math.data.frame` calls numeric-alike.
fn numeric_alike(v: &Value) -> bool {
    matches!(bare(v), Value::Num(_) | Value::Bool(_))
}

/// `Math.data.frame`: `each` (the function's own rule) on every column of
/// the data frame `x`, the call's other arguments passed on; `None` when
/// `x` is not a data frame.
pub(super) fn math(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    each: Eval,
) -> Option<Result<Value, KernelError>> {
    let frame = as_frame(args.get("x")?)?;
    Some(frame_math(args, frame, ctx, each))
}

fn frame_math(
    args: &Args<&Value>,
    frame: &List,
    ctx: &mut Ctx,
    each: Eval,
) -> Result<Value, KernelError> {
    let names = frame.names.clone().unwrap_or_default();
    let bad: Vec<&str> = frame
        .items
        .iter()
        .zip(&names)
        .filter(|(c, _)| !numeric_alike(c))
        .map(|(_, n)| n.as_str())
        .collect();
    if !bad.is_empty() {
        return Err(KernelError::new(format!(
            "non-numeric-alike variable(s) in data frame: {}",
            bad.join(", ")
        )));
    }
    let others: Vec<(Option<String>, &Value)> = args
        .params()
        .iter()
        .filter(|p| p.name != "x" && p.name != "...")
        .filter_map(|p| args.get(p.name).map(|v| (Some(p.name.to_string()), v)))
        .chain(args.dots().map(|(n, v)| (n.map(str::to_string), v)))
        .collect();
    let mut columns = Vec::with_capacity(frame.items.len());
    for c in &frame.items {
        let mut given = vec![(None, c)];
        given.extend(others.iter().cloned());
        let matched = Args::match_call(args.func, args.params(), given)
            .map_err(|e| KernelError::new(e.message))?;
        columns.push(strip_value(each(&matched, ctx)?));
    }
    Ok(named_frame(names, columns, frame.row_names.clone()))
}

fn number_column(t: &Type, nr: Option<usize>) -> Type {
    match t {
        Type::Factor { .. } => Type::logical(nr),
        _ => Type::Num {
            len: nr,
            value: None,
        },
    }
}

/// A data frame of these columns' names, each now numbers (NA for a
/// factor's), as arithmetic and maths leave them.
fn number_frame(fields: &[(String, Type)], nr: Option<usize>) -> Type {
    Type::Record {
        class: CLASS.into(),
        fields: fields
            .iter()
            .map(|(n, t)| (n.clone(), number_column(t, nr)))
            .collect(),
    }
}

/// The type `Ops.data.frame` gives, when either operand is a data frame;
/// `Err` with R's message for operands it refuses.
pub(super) fn ops_shape(op: &str, t1: &Type, t2: Option<&Type>) -> Option<Result<Type, String>> {
    let (f1, f2) = (frame_fields(t1), t2.and_then(frame_fields));
    let (fields, t) = match (f1, f2) {
        (Some(f), _) => (f, t1),
        (None, Some(f)) => (f, t2?),
        (None, None) => return None,
    };
    let (nr, nc) = type_dims(t)?;
    if let (Some(a), Some(b)) = (f1, f2) {
        if a.len() != b.len() {
            return Some(Err(format!(
                "\u{2018}{op}\u{2019} only defined for equally-sized data frames"
            )));
        }
    }
    if !arithmetic(op) {
        return Some(Ok(Type::BoolMat { rows: nr, cols: nc }));
    }
    let texts = fields.iter().any(|(_, t)| matches!(t, Type::Str { .. }));
    if texts {
        return Some(Err("non-numeric argument to binary operator".into()));
    }
    Some(Ok(number_frame(fields, nr)))
}

/// The type `Math.data.frame` gives when `x` is a data frame.
pub(super) fn math_shape(x: &Type) -> Option<Result<Type, String>> {
    let fields = frame_fields(x)?;
    let (nr, _) = type_dims(x)?;
    let bad: Vec<&str> = fields
        .iter()
        .filter(|(_, t)| matches!(t, Type::Str { .. } | Type::Factor { .. }))
        .map(|(n, _)| n.as_str())
        .collect();
    if !bad.is_empty() {
        return Some(Err(format!(
            "non-numeric-alike variable(s) in data frame: {}",
            bad.join(", ")
        )));
    }
    Some(Ok(number_frame(fields, nr)))
}
