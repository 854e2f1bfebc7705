//! R's `data.frame(..., stringsAsFactors = FALSE)`: columns from vectors,
//! factors, matrices (one column each) and data frames (their columns),
//! recycled to the longest when its length is a multiple of theirs, named
//! as `make.names(unique = TRUE)` names them.
//!
//! R names an unnamed vector argument after its expression (`data.frame(x,
//! y)` has columns `x` and `y`); a kernel sees values, not expressions, so
//! flowcast asks for the name instead of guessing it.

use super::factor::as_factor;
use super::frame::{self, as_frame, frame_fields};
use super::names::{bare, strip_value};
use super::value::RowNames;
use super::vector::{like, pick};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "data.frame",
        params: &[
            DOTS,
            opt("row.names"),
            opt("stringsAsFactors"),
            opt("check.names"),
        ],
        random: false,
        shape: shape_data_frame,
        eval: eval_data_frame,
    },
    Kernel {
        name: "transform",
        params: &[req("_data"), DOTS],
        random: false,
        shape: shape_transform,
        eval: eval_transform,
    },
    // `within(data, expr)`: the evaluator runs `expr` among data's columns
    // (`graph::formula::data_scope`) and hands over what it assigned.
    Kernel {
        name: "within",
        params: &[req("data"), req("expr"), DOTS],
        random: false,
        shape: shape_within,
        eval: eval_within,
    },
];

/// Why an argument of `transform` needs a name.
const TRANSFORM_NAMES: &str =
    "each argument of transform() is a column named by its tag: `transform(d, ratio = a / b)`";

fn not_a_frame(what: &str) -> String {
    format!("flowcast's transform() takes a data frame, not {what}")
}

/// R's `transform.data.frame`: each argument (evaluated among `_data`'s
/// columns; see `graph::formula::data_scope`) replaces the column its tag
/// names, recycled as `[<-.data.frame` recycles, or is added after the
/// columns by `data.frame(_data, ...)`.
fn eval_transform(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let data = args.get("_data").unwrap_or(&Value::Null);
    let frame = as_frame(data).ok_or_else(|| KernelError::new(not_a_frame(data.type_name())))?;
    let n = frame::nrow(frame);
    let mut out = frame.clone();
    let mut added: Vec<(&str, &Value)> = Vec::new();
    for (name, v) in args.dots() {
        let name = name.ok_or_else(|| KernelError::new(TRANSFORM_NAMES))?;
        let names = out.names.as_deref().unwrap_or_default();
        match names.iter().position(|c| c == name) {
            Some(i) => out.items[i] = replacement(v, n)?,
            None => added.push((name, v)),
        }
    }
    let out = Value::List(out);
    let given = std::iter::once((None, &out)).chain(added.into_iter().map(|(n, v)| (Some(n), v)));
    build("data.frame", given, None, false, true, ctx)
}

/// R's `within.data.frame`: `expr`'s assignments (in the order their
/// names were first assigned) become columns. R lists the environment
/// `expr` ran in newest name first (`as.list(e)`), then `data[nl] <- l`
/// replaces the columns it names in place and adds the others after them
/// in that order; a name assigned NULL is a column removed.
fn eval_within(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let data = args.get("data").unwrap_or(&Value::Null);
    let frame = as_frame(data).ok_or_else(|| {
        KernelError::new(format!(
            "flowcast's within() takes a data frame, not {}",
            data.type_name()
        ))
    })?;
    let Some(Value::List(assigned)) = args.get("expr") else {
        return Ok(data.clone());
    };
    let n = frame::nrow(frame);
    let columns = frame.names.clone().unwrap_or_default();
    let given = assigned.names.as_deref().unwrap_or_default();
    // The environment's names, oldest first: the columns, then each new
    // name where it was first assigned; each with its value at the end.
    let mut env: Vec<(&str, &Value)> = columns
        .iter()
        .zip(&frame.items)
        .map(|(c, v)| (c.as_str(), v))
        .collect();
    for (name, v) in given.iter().zip(&assigned.items) {
        match env.iter_mut().find(|(c, _)| c == name) {
            Some(slot) => slot.1 = v,
            None => env.push((name, v)),
        }
    }
    let listed: Vec<(&str, &Value)> = env
        .into_iter()
        .rev()
        .filter(|(_, v)| !matches!(v, Value::Null))
        .collect();
    let mut names = Vec::with_capacity(listed.len());
    let mut items = Vec::with_capacity(listed.len());
    // A column assigned NULL is not listed: `data[del] <- NULL`.
    for c in &columns {
        if let Some(k) = listed.iter().position(|(l, _)| l == c) {
            names.push(c.clone());
            items.push(within_column(listed[k].1, n, k + 1)?);
        }
    }
    for (k, (l, v)) in listed.iter().enumerate() {
        if !columns.iter().any(|c| c == l) {
            names.push((*l).to_string());
            items.push(within_column(v, n, k + 1)?);
        }
    }
    let rows = frame.row_names.clone();
    Ok(frame::named_frame(names, items, rows))
}

/// Element `k` of `data[nl] <- l` as `[<-.data.frame` takes it: `n`
/// rows, or fewer recycled when they divide `n`.
fn within_column(v: &Value, n: usize, k: usize) -> Result<Value, KernelError> {
    recycled_column(v, n, "made by within()", |len| {
        format!("replacement element {k} has {len} rows, need {n}")
    })
}

/// within()'s columns are known once `expr` has run.
fn shape_within(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("data") {
        Some(t) if frame_fields(t).is_none() && !matches!(t, Type::Any) => Err(args.error(
            "data",
            format!(
                "flowcast's within() takes a data frame, not {}",
                t.describe()
            ),
        )),
        _ => Ok(Type::Any),
    }
}

/// A column of transform() as `[<-.data.frame` replaces it.
fn replacement(v: &Value, n: usize) -> Result<Value, KernelError> {
    recycled_column(v, n, "of transform()", |len| {
        format!("replacement has {len} rows, data has {n}")
    })
}

/// A column as `[<-.data.frame` replaces it: `n` rows, or fewer recycled
/// when they divide `n`; `by` says where it came from, `mismatch` words
/// R's error for a length that does not fit.
fn recycled_column(
    v: &Value,
    n: usize,
    by: &str,
    mismatch: impl FnOnce(usize) -> String,
) -> Result<Value, KernelError> {
    let v = strip_value(v.clone());
    if !matches!(
        v,
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) | Value::Complex(_)
    ) {
        return Err(KernelError::new(format!(
            "a column {by} must be a vector or factor, not {}",
            v.type_name()
        )));
    }
    let len = v.len();
    if len == n {
        return Ok(v);
    }
    if len == 0 || len > n || n % len != 0 {
        return Err(KernelError::new(mismatch(len)));
    }
    Ok(pick(&v, &(0..n).map(|i| i % len).collect::<Vec<_>>()))
}

fn shape_transform(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let data = args.ty("_data").cloned().unwrap_or(Type::Null);
    if matches!(data, Type::Any) {
        return Ok(Type::Any);
    }
    let fields =
        frame_fields(&data).ok_or_else(|| args.error("_data", not_a_frame(&data.describe())))?;
    let n = match fields.first() {
        Some((_, t)) => t.len(),
        None => Some(0),
    };
    let mut fields = fields.to_vec();
    let mut added: Vec<(usize, &str, &Type)> = Vec::new();
    for (k, (name, t)) in args.dots().enumerate() {
        let name = name.ok_or_else(|| args.dots_error(k, TRANSFORM_NAMES))?;
        let Some(i) = fields.iter().position(|(c, _)| c == name) else {
            added.push((k, name, t));
            continue;
        };
        if let (Some(len), Some(n)) = (t.len(), n) {
            if len == 0 || len > n || n % len != 0 {
                return Err(args.dots_error(k, format!("replacement has {len} rows, data has {n}")));
            }
        }
        fields[i].1 = like(t, n);
    }
    let record = Type::Record {
        class: frame::CLASS.to_string(),
        fields,
    };
    let given =
        std::iter::once((None, &record)).chain(added.iter().map(|(_, n, t)| (Some(*n), *t)));
    // A length mismatch is reported as argument 0: the call as a whole.
    build_type("data.frame", given, false, true).map_err(|(k, m)| match k {
        0 => ArgError::call(m),
        k => args.dots_error(added[k - 1].0, m),
    })
}

/// One argument as `data.frame` takes it (`as.data.frame(x, optional =
/// TRUE)`): its columns under their own names (`None`: it has none), and
/// its row names when they are not automatic.
struct Part {
    columns: Vec<(Option<String>, Value)>,
    rows: Option<RowNames>,
}

/// A column without its names; a Date column keeps its class, as R's
/// `as.data.frame.Date` keeps it.
fn kept_column(c: &Value) -> Value {
    let bare = strip_value(c.clone());
    if super::dates::is_date(c) {
        super::dates::date(bare)
    } else if super::datetime::is_posixct(c) {
        super::datetime::posixct(bare, &super::datetime::tzone(c))
    } else {
        bare
    }
}

/// `bare` with the Date class of `v`, when it has it.
fn with_class_of(v: &Value, bare: &Value) -> Value {
    if super::dates::is_date(v) {
        super::dates::date(bare.clone())
    } else if super::datetime::is_posixct(v) {
        super::datetime::posixct(bare.clone(), &super::datetime::tzone(v))
    } else {
        bare.clone()
    }
}

fn part(func: &str, v: &Value) -> Result<Part, String> {
    if let Some(l) = as_frame(v) {
        let names = l.names.clone().unwrap_or_default();
        return Ok(Part {
            columns: names
                .into_iter()
                .map(Some)
                .zip(l.items.iter().map(kept_column))
                .collect(),
            rows: l.row_names.clone(),
        });
    }
    if super::names::table_dnn(v).is_some() {
        let t = super::coerce::table_frame(v, "Freq", true).map_err(|e| e.0)?;
        return part(func, &t);
    }
    if let Some(frame::MatrixParts {
        columns,
        colnames,
        rows,
    }) = frame::matrix_parts(v)
    {
        return Ok(Part {
            columns: columns
                .into_iter()
                .enumerate()
                .map(|(j, c)| (colnames.map(|n| n[j].clone()), c))
                .collect(),
            rows,
        });
    }
    match bare(v) {
        bare @ (Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_)) => Ok(Part {
            columns: vec![(None, kept_column(&with_class_of(v, bare)))],
            rows: super::row_names::from_names(super::names::names(v)),
        }),
        other => Err(format!(
            "{func}() takes vectors, factors, matrices and data frames, not {}",
            other.type_name()
        )),
    }
}

/// The names `data.frame` gives one argument's columns: their own names,
/// led by the argument's (`a.x`) when it has several; the argument's name
/// for a single column without one; positions for several without.
fn column_names(
    func: &str,
    name: Option<&str>,
    own: Vec<Option<String>>,
    k: usize,
) -> Result<Vec<String>, String> {
    let name = name.filter(|n| !n.is_empty());
    if own.len() == 1 {
        return match (&own[0], name) {
            (Some(o), _) => Ok(vec![o.clone()]),
            (None, Some(n)) => Ok(vec![n.to_string()]),
            (None, None) => Err(unnamed(func, k)),
        };
    }
    Ok(own
        .into_iter()
        .enumerate()
        .map(|(j, o)| {
            let o = o.unwrap_or_else(|| (j + 1).to_string());
            match name {
                Some(n) => format!("{n}.{o}"),
                None => o,
            }
        })
        .collect())
}

fn unnamed(func: &str, k: usize) -> String {
    format!(
        "argument {} of {func}() has no name: write it `name = value` \
         (flowcast does not name columns after their expressions, as R does)",
        k + 1
    )
}

/// The rows: the longest column's length, when every other divides it.
fn rows(lengths: &[usize]) -> Result<usize, String> {
    let n = lengths.iter().copied().max().unwrap_or(0);
    if lengths
        .iter()
        .any(|&l| (l == 0 && n > 0) || (l > 0 && n % l != 0))
    {
        let mut seen: Vec<String> = Vec::new();
        for l in lengths {
            let s = l.to_string();
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        return Err(format!(
            "arguments imply differing number of rows: {}",
            seen.join(", ")
        ));
    }
    Ok(n)
}

fn eval_data_frame(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let factors = args.bool_or("stringsAsFactors", false)?;
    let check = args.bool_or("check.names", true)?;
    build(
        "data.frame",
        args.dots(),
        args.get("row.names"),
        factors,
        check,
        ctx,
    )
}

/// `cbind` with a data frame among its arguments: R's `cbind.data.frame`,
/// `data.frame(..., check.names = FALSE)`. NULL arguments add nothing.
pub fn cbind_frames<'a>(
    given: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    build(
        "cbind",
        given.filter(|(_, v)| !matches!(v, Value::Null)),
        None,
        false,
        false,
        ctx,
    )
}

/// The type of [`cbind_frames`]: the error is for the `k`-th argument.
pub fn cbind_frames_type<'a>(
    given: impl Iterator<Item = (Option<&'a str>, &'a Type)>,
) -> Result<Type, (usize, String)> {
    build_type(
        "cbind",
        given.filter(|(_, t)| !matches!(t, Type::Null)),
        false,
        false,
    )
}

/// R's `data.frame(...)`. The row names are `row_names` when given (one
/// value names the column to take them from, as in R); else those of the
/// first argument with row names of its own (a data frame's that are not
/// automatic, a named vector's names, a matrix's row names), unless they
/// repeat or were recycled.
fn build<'a>(
    func: &str,
    given: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
    row_names: Option<&Value>,
    factors: bool,
    check: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let row_names = row_names.filter(|v| !matches!(bare(v), Value::Null));
    let mut names = Vec::new();
    let mut columns = Vec::new();
    let mut found: Option<(RowNames, usize)> = None;
    let mut args = 0;
    for (k, (name, v)) in given.enumerate() {
        args += 1;
        let p = part(func, v).map_err(KernelError::new)?;
        let rows = p.columns.first().map_or(0, |(_, c)| c.len());
        let own: Vec<Option<String>> = p.columns.iter().map(|(n, _)| n.clone()).collect();
        names.extend(column_names(func, name, own, k).map_err(KernelError::new)?);
        columns.extend(p.columns.into_iter().map(|(_, c)| c));
        if row_names.is_none() && found.is_none() {
            found = p.rows.map(|r| (r, rows));
        }
    }
    let lengths: Vec<usize> = columns.iter().map(Value::len).collect();
    let n = rows(&lengths).map_err(KernelError::new)?;
    let mut columns = columns
        .into_iter()
        .map(|c| {
            let c = if c.len() == n {
                c
            } else {
                pick(&c, &(0..n).map(|i| i % c.len()).collect::<Vec<_>>())
            };
            match c {
                Value::Str(_) if factors => as_factor(&c).map(Value::Factor),
                c => Ok(c),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut names = if check {
        super::quote::make_names(&names, true, true)
    } else {
        names
    };
    let n = match row_names {
        Some(r) if args == 0 => bare(r).len(),
        _ => n,
    };
    let rows = match row_names {
        None => match found {
            Some((r, len)) if len == n => Some(r),
            Some(_) => {
                ctx.warn("row names were found from a short variable and have been discarded");
                None
            }
            None => None,
        },
        // One value names the column holding the row names.
        Some(r) if r.len() == 1 && n != 1 => {
            let at = match bare(r) {
                Value::Str(s) => names.iter().position(|c| *c == s[0]),
                other => other
                    .as_scalar()
                    .filter(|&i| i >= 1.0 && i as usize <= names.len())
                    .map(|i| i as usize - 1),
            }
            .ok_or_else(|| KernelError::new("'row.names' should specify one of the variables"))?;
            names.remove(at);
            let column = columns.remove(at);
            super::row_names::given(&column, n)?
        }
        Some(r) => super::row_names::given(r, n)?,
    };
    if args == 0 {
        // R's `data.frame(row.names = ...)`: rows and no columns.
        return Ok(frame::named_frame(Vec::new(), Vec::new(), rows));
    }
    Ok(frame::named_frame(names, columns, rows))
}

/// One argument's column types, or `None` when its columns are not known
/// before the run.
fn column_types(
    func: &str,
    name: Option<&str>,
    t: &Type,
    k: usize,
) -> Result<Option<Vec<(String, Type)>>, String> {
    if let Some(fields) = frame_fields(t) {
        return Ok(Some(fields.to_vec()));
    }
    match t {
        Type::Any => Ok(None),
        // A matrix's columns are named by its colnames, which only the
        // run knows.
        Type::Mat { .. } | Type::StrMat { .. } => Ok(None),
        Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. } => match name
        {
            Some(n) => Ok(Some(vec![(n.to_string(), t.without_value())])),
            None => Err(unnamed(func, k)),
        },
        other => Err(format!(
            "{func}() takes vectors, factors, matrices and data frames, not {}",
            other.describe()
        )),
    }
}

fn shape_data_frame(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let factors = args.ty("stringsAsFactors").and_then(Type::const_scalar) == Some(1.0);
    let check = args.ty("check.names").and_then(Type::const_scalar) != Some(0.0);
    build_type("data.frame", args.dots(), factors, check).map_err(|(k, m)| args.dots_error(k, m))
}

fn build_type<'a>(
    func: &str,
    given: impl Iterator<Item = (Option<&'a str>, &'a Type)>,
    factors: bool,
    check: bool,
) -> Result<Type, (usize, String)> {
    let mut fields: Vec<(String, Type)> = Vec::new();
    let mut known = true;
    for (k, (name, t)) in given.enumerate() {
        match column_types(func, name, t, k).map_err(|m| (k, m))? {
            Some(f) => fields.extend(f),
            None => known = false,
        }
    }
    if !known {
        return Ok(Type::Any);
    }
    let lengths: Option<Vec<usize>> = fields.iter().map(|(_, t)| t.len()).collect();
    let n = match lengths {
        Some(l) => Some(rows(&l).map_err(|m| (0, m))?),
        None => None,
    };
    let names: Vec<String> = fields.iter().map(|(n, _)| n.clone()).collect();
    let names = if check {
        super::quote::make_names(&names, true, true)
    } else {
        names
    };
    Ok(Type::Record {
        class: frame::CLASS.to_string(),
        fields: names
            .into_iter()
            .zip(fields)
            .map(|(name, (_, t))| {
                let t = match t {
                    Type::Str { .. } if factors => Type::Factor {
                        len: n,
                        levels: None,
                        ordered: false,
                    },
                    t => like(&t, n),
                };
                (name, t)
            })
            .collect(),
    })
}
