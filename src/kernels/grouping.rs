//! Grouping by factors: `tapply`, `by`, `split`, `aggregate` and `table`.
//!
//! Groups are the levels of `as.factor(g)` ([`as_factor`]); NA is no
//! group. `FUN` is a function's name (`FUN = mean` or `FUN = "mean"`) or
//! a `function(v) expr` closure ([`fun`]), called with the group's values
//! first and the call's `...` after, as R's `FUN(x, ...)`.

use nalgebra::DMatrix;

use super::factor::{as_factor, text_is_na};
use super::frame::{self, as_frame};
use super::fun::{self, Fun, FunShape};
use super::index;
use super::na_action::NaAction;
use super::names;
use super::value::{Factor, List, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "tapply",
        params: &[
            req("X"),
            req("INDEX"),
            opt("FUN"),
            DOTS,
            opt("default"),
            opt("simplify"),
        ],
        random: false,
        shape: tapply_shape,
        eval: tapply_eval,
    },
    Kernel {
        name: "by",
        params: &[
            req("data"),
            req("INDICES"),
            req("FUN"),
            DOTS,
            opt("simplify"),
        ],
        random: false,
        shape: by_shape,
        eval: by_eval,
    },
    Kernel {
        name: "split",
        params: &[
            req("x"),
            req("f"),
            opt("drop"),
            opt("sep"),
            opt("lex.order"),
            DOTS,
        ],
        random: false,
        shape: split_shape,
        eval: split_eval,
    },
    Kernel {
        name: "aggregate",
        params: &[
            req("x"),
            opt("by"),
            opt("FUN"),
            opt("data"),
            DOTS,
            opt("na.action"),
        ],
        random: false,
        shape: aggregate_shape,
        eval: aggregate_eval,
    },
    Kernel {
        name: "table",
        params: &[DOTS, opt("exclude"), opt("useNA"), opt("dnn")],
        random: false,
        shape: table_shape,
        eval: table_eval,
    },
    Kernel {
        name: "xtabs",
        params: &[
            opt("formula"),
            opt("data"),
            opt("subset"),
            opt("sparse"),
            opt("na.action"),
            opt("addNA"),
            opt("exclude"),
            opt("drop.unused.levels"),
        ],
        random: false,
        shape: xtabs_shape,
        eval: xtabs_eval,
    },
];

/// Functions whose value is one number for any group: their tapply and
/// aggregate results are numeric vectors of known length.
pub(super) const SCALAR_FUNS: &[&str] = &[
    "mean", "sum", "median", "length", "sd", "var", "min", "max", "prod", "IQR", "mad",
];

/// The grouping factor a value stands for (`INDEX`, `f`, `by`'s items).
pub(super) fn grouping(g: &Value, what: &str) -> Result<Factor, KernelError> {
    match g {
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => as_factor(g),
        Value::Mat(m) => as_factor(&Value::Num(m.as_slice().to_vec())),
        Value::BoolMat(m) => as_factor(&Value::Bool(m.as_slice().to_vec())),
        Value::StrMat(m) => as_factor(&Value::Str(m.as_slice().to_vec())),
        other => Err(KernelError::new(format!(
            "'{what}' must be a factor or a vector, not {}",
            other.type_name()
        ))),
    }
}

/// The rows (0-based) of each level, in row order.
fn members(f: &Factor) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); f.levels.len()];
    for (i, c) in f.codes.iter().enumerate() {
        if let Some(c) = c {
            out[*c as usize].push(i);
        }
    }
    out
}

/// `x[rows]` (rows 0-based), keeping x's kind (a factor keeps its levels).
fn subset(x: &Value, rows: &[usize]) -> Result<Value, KernelError> {
    let i = Value::Num(rows.iter().map(|&r| r as f64 + 1.0).collect());
    match as_frame(x) {
        Some(_) => frame::index(x, &[Some(i), None]).unwrap_or(Ok(Value::Null)),
        None => index::index(x, &[Some(i)]),
    }
}

/// Scalar results as one vector (numbers, text or logicals), as
/// `simplify = TRUE` makes them; `None` when some result is not a scalar.
fn simplify(results: &[Value]) -> Option<Value> {
    if results
        .iter()
        .all(|r| matches!(r, Value::Str(s) if s.len() == 1))
    {
        return Some(Value::Str(
            results
                .iter()
                .map(|r| match r {
                    Value::Str(s) => s[0].clone(),
                    _ => String::new(),
                })
                .collect(),
        ));
    }
    if results
        .iter()
        .all(|r| matches!(r, Value::Bool(b) if b.len() == 1))
        && !results.is_empty()
    {
        return Some(Value::Bool(
            results
                .iter()
                .map(|r| match r {
                    Value::Bool(b) => b[0],
                    _ => None,
                })
                .collect(),
        ));
    }
    results
        .iter()
        .map(|r| match r {
            Value::Num(v) if v.len() == 1 => Some(v[0]),
            Value::Bool(b) if b.len() == 1 => Some(b[0].map_or(NA, |b| f64::from(u8::from(b)))),
            _ => None,
        })
        .collect::<Option<Vec<f64>>>()
        .map(Value::Num)
}

fn dots<'a>(args: &'a Args<&Value>) -> Vec<(Option<&'a str>, &'a Value)> {
    args.dots().collect()
}

fn tapply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("X")
        .ok_or_else(|| KernelError::new("argument \"X\" is missing, with no default"))?;
    let index = args
        .get("INDEX")
        .ok_or_else(|| KernelError::new("argument \"INDEX\" is missing, with no default"))?;
    let factors = index_factors(index)?;
    let fun = fun::resolve(args.get("FUN"), ctx)?;
    let extra = dots(args);
    let default = args.get("default").cloned();
    let simplify = args.bool_or("simplify", true)?;
    let Some(fun) = fun else {
        let (cells, _) = cells_of(&factors, x.len())?;
        // No FUN: each element's cell, R's `group`.
        return Ok(Value::Num(
            cells
                .iter()
                .map(|c| c.map_or(NA, |c| c as f64 + 1.0))
                .collect(),
        ));
    };
    let call = |rows: &[usize], ctx: &mut Ctx| fun.call_on(&subset(x, rows)?, &extra, ctx);
    grouped("tapply", &factors, x.len(), call, default, simplify, ctx)
}

/// The factors `INDEX` stands for: each item of a list (a data frame's
/// columns), else the one vector, each as `as.factor` makes it.
fn index_factors(index: &Value) -> Result<Vec<Factor>, KernelError> {
    match index {
        Value::List(l) if l.items.is_empty() => Err(KernelError::new("'INDEX' is of length zero")),
        Value::List(l) => l.items.iter().map(|g| grouping(g, "INDEX")).collect(),
        g => Ok(vec![grouping(g, "INDEX")?]),
    }
}

/// Each element's cell in the array of the factors' levels (the first
/// factor varying fastest, as R's tapply numbers its `group`), `None`
/// where any factor is NA; and the array's extents.
fn cells_of(factors: &[Factor], n: usize) -> Result<(Vec<Option<usize>>, Vec<usize>), KernelError> {
    if factors.iter().any(|f| f.codes.len() != n) {
        return Err(KernelError::new("arguments must have same length"));
    }
    let extents: Vec<usize> = factors.iter().map(|f| f.levels.len()).collect();
    let total = extents.iter().try_fold(1usize, |a, &e| a.checked_mul(e));
    if total.is_none_or(|t| t > i32::MAX as usize) {
        return Err(KernelError::new("total number of levels >= 2^31"));
    }
    let cells = (0..n)
        .map(|i| {
            let mut cell = 0usize;
            let mut stride = 1usize;
            for f in factors {
                cell += f.codes[i]? as usize * stride;
                stride *= f.levels.len();
            }
            Some(cell)
        })
        .collect();
    Ok((cells, extents))
}

/// Whether `v` is R's NA as a `default`: one NA of any atomic type.
fn is_na_scalar(v: &Value) -> bool {
    match v {
        Value::Num(x) => x.len() == 1 && x[0].is_nan(),
        Value::Bool(b) => b.len() == 1 && b[0].is_none(),
        Value::Str(s) => s.len() == 1 && text_is_na(&s[0]),
        _ => false,
    }
}

/// Element `k` of an atomic vector, as a vector of length one.
fn element(v: &Value, k: usize) -> Value {
    match v {
        Value::Num(x) => Value::Num(vec![x[k]]),
        Value::Str(x) => Value::Str(vec![x[k].clone()]),
        Value::Bool(x) => Value::Bool(vec![x[k]]),
        _ => Value::Null,
    }
}

/// The NA of a simplified result's type.
fn na_like(v: &Value) -> Value {
    match v {
        Value::Str(_) => Value::Str(vec!["NA".to_string()]),
        Value::Bool(_) => Value::Bool(vec![None]),
        _ => Value::scalar(NA),
    }
}

/// R's tapply after the grouping: `call` (FUN) on the rows of each cell
/// that has any, then the cells as R's `ansmat`. FUN's values all of
/// length one (and `simplify`) make an atomic array, its empty cells
/// `default` (NA of the values' type when `default` is NA); otherwise a
/// list whose empty cells are NULL. One factor's array is a named vector
/// (or list), two factors' a matrix with dimnames. R's arrays of more
/// dimensions, and its list matrices, are values flowcast does not have:
/// refused, naming what R would return.
fn grouped(
    func: &str,
    factors: &[Factor],
    n: usize,
    mut call: impl FnMut(&[usize], &mut Ctx) -> Result<Value, KernelError>,
    default: Option<Value>,
    simplify_scalars: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let (cells, extents) = cells_of(factors, n)?;
    if extents.len() > 2 {
        return Err(KernelError::new(format!(
            "{func}(): {} grouping factors make R's answer a {}-dimensional array, \
             which flowcast does not have",
            extents.len(),
            extents.len()
        )));
    }
    let total: usize = extents.iter().product();
    let mut rows = vec![Vec::new(); total];
    for (i, c) in cells.iter().enumerate() {
        if let Some(c) = c {
            rows[*c].push(i);
        }
    }
    let mut results: Vec<Option<Value>> = Vec::with_capacity(total);
    for r in &rows {
        results.push(if r.is_empty() {
            None
        } else {
            Some(names::strip_value(call(r, ctx)?))
        });
    }
    let levels: Vec<Vec<String>> = factors.iter().map(|f| f.levels.clone()).collect();
    let scalars = simplify_scalars
        && results
            .iter()
            .flatten()
            .all(|r| matches!(r, Value::Num(_) | Value::Str(_) | Value::Bool(_)) && r.len() == 1);
    let filled = if scalars {
        let given: Vec<Value> = results.iter().flatten().cloned().collect();
        // R's `unlist(ans)`: NULL when no cell has rows.
        let ans = if given.is_empty() {
            None
        } else {
            simplify(&given)
        };
        if ans.is_none() && !given.is_empty() {
            return Err(KernelError::new(format!(
                "{func}(): FUN's values mix text with numbers or logicals, which flowcast \
                 does not combine"
            )));
        }
        let default = default.unwrap_or(Value::Bool(vec![None]));
        let fill = match &ans {
            Some(a) if is_na_scalar(&default) => na_like(a),
            _ => default,
        };
        if fill.is_empty() && results.iter().any(Option::is_none) {
            return Err(KernelError::new(format!(
                "{func}(): 'default' is empty, so R's array has no value for its empty cells"
            )));
        }
        // R fills the whole array with `default` recycled, then sets the
        // cells that have elements.
        let cells: Vec<Value> = results
            .iter()
            .enumerate()
            .map(|(p, r)| match r {
                Some(v) => v.clone(),
                None => element(&fill, p % fill.len()),
            })
            .collect();
        Some(simplify(&cells).ok_or_else(|| {
            KernelError::new(format!(
                "{func}(): 'default' and FUN's values differ in type, which flowcast does \
                 not combine"
            ))
        })?)
    } else {
        None
    };
    match (filled, &levels[..]) {
        (Some(v), [l]) => Ok(names::named(v, l.clone())),
        (Some(Value::Num(d)), [r, c]) => Ok(names::dimnamed(
            Value::Mat(DMatrix::from_vec(r.len(), c.len(), d)),
            Some(r.clone()),
            Some(c.clone()),
        )),
        (Some(Value::Bool(d)), [r, c]) => Ok(names::dimnamed(
            Value::BoolMat(DMatrix::from_vec(r.len(), c.len(), d)),
            Some(r.clone()),
            Some(c.clone()),
        )),
        (Some(Value::Str(d)), [r, c]) => Ok(names::dimnamed(
            Value::StrMat(DMatrix::from_vec(r.len(), c.len(), d)),
            Some(r.clone()),
            Some(c.clone()),
        )),
        (Some(v), _) => Err(KernelError::new(format!(
            "{func}(): flowcast cannot shape FUN's values ({}) as R's array",
            v.type_name()
        ))),
        (None, [l]) => Ok(Value::List(List {
            class: None,
            names: Some(l.clone()),
            items: results
                .into_iter()
                .map(|r| r.unwrap_or(Value::Null))
                .collect(),
            row_names: None,
        })),
        (None, _) => Err(KernelError::new(format!(
            "{func}(): FUN's values are not all of length one, so R's answer is a list \
             matrix, which flowcast does not have"
        ))),
    }
}

/// The levels of a grouping type, when known.
fn type_levels(t: &Type) -> Option<usize> {
    match t {
        Type::Factor { levels, .. } => levels.as_ref().map(Vec::len),
        Type::Str { value: Some(v), .. } => Some(
            as_factor(&Value::Str(v.clone()))
                .map(|f| f.levels.len())
                .ok()?,
        ),
        Type::Num { value: Some(v), .. } => Some(
            as_factor(&Value::Num(v.clone()))
                .map(|f| f.levels.len())
                .ok()?,
        ),
        _ => None,
    }
}

fn check_grouping(args: &Args<Type>, name: &str) -> Result<(), ArgError> {
    match args.ty(name) {
        Some(
            Type::Num { .. }
            | Type::Str { .. }
            | Type::Bool { .. }
            | Type::Factor { .. }
            | Type::Mat { .. }
            | Type::List { .. }
            | Type::Any,
        )
        | None => Ok(()),
        Some(t) if frame::frame_fields(t).is_some() => Ok(()),
        Some(t) => Err(args.error(
            name,
            format!(
                "'{name}' must be a factor or a vector, not {}",
                t.describe()
            ),
        )),
    }
}

/// FUN before the run: `Ok(None)` when not given; a kernel's name or
/// `""` (not known before the run) otherwise. A closure's body is checked
/// on a group of X's elements, once per group when their count is known.
pub(super) fn fun_of(
    args: &Args<Type>,
    elem: Type,
    groups: Option<usize>,
    ctx: &ShapeCtx,
) -> Result<Option<String>, ArgError> {
    match fun::resolve_shape(args.ty("FUN"), ctx) {
        Ok(None) if matches!(args.ty("FUN"), Some(Type::Any | Type::Str { .. })) => {
            Ok(Some(String::new()))
        }
        Ok(None) => Ok(None),
        Ok(Some(FunShape::Kernel(k))) => Ok(Some(k.name.to_string())),
        Ok(Some(f)) => {
            let mut given = vec![(None, elem)];
            given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
            f.shape(given, groups, ctx)
                .map_err(|m| args.error("FUN", m))?;
            Ok(Some(String::new()))
        }
        Err(m) => Err(args.error("FUN", m)),
    }
}

/// One group of `x`'s elements, as FUN receives it.
pub(super) fn group_type(x: Option<&Type>) -> Type {
    match x {
        Some(Type::Bool { .. }) => Type::logical(None),
        Some(Type::Str { .. }) => Type::Str {
            len: None,
            value: None,
        },
        Some(Type::Num { .. } | Type::Mat { .. }) => Type::num_unknown(),
        _ => Type::Any,
    }
}

/// The types of the factors INDEX stands for: one vector, a data frame's
/// columns or a list's items; `None` when their count is not known before
/// the run (a `list(...)` is typed as anything).
fn index_types(t: &Type) -> Option<Vec<Type>> {
    match t {
        Type::List { len: Some(n), elem } => Some(vec![(**elem).clone(); *n]),
        Type::List { .. } | Type::Any => None,
        t => match frame::frame_fields(t) {
            Some(fields) => Some(fields.iter().map(|(_, t)| t.clone()).collect()),
            None => Some(vec![t.clone()]),
        },
    }
}

/// R's tapply answer before the run, given its factors' types (`None`:
/// unknown) and whether FUN gives one number per cell: a named vector for
/// one factor, a matrix for two; anything when FUN may give more.
fn grouped_shape(
    args: &Args<Type>,
    at: &str,
    factors: Option<&[Type]>,
    scalar: bool,
) -> Result<Type, ArgError> {
    match factors {
        Some([]) => Err(args.error(at, "'INDEX' is of length zero")),
        Some([_, _, _, ..]) => Err(args.error(
            at,
            format!(
                "{}(): {} grouping factors make R's answer a {}-dimensional array, \
                 which flowcast does not have",
                args.func,
                factors.map_or(0, <[Type]>::len),
                factors.map_or(0, <[Type]>::len)
            ),
        )),
        Some([f]) if scalar => Ok(Type::Num {
            len: type_levels(f),
            value: None,
        }),
        Some([a, b]) if scalar => Ok(Type::Mat {
            rows: type_levels(a),
            cols: type_levels(b),
        }),
        _ => Ok(Type::Any),
    }
}

fn tapply_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    check_grouping(args, "INDEX")?;
    let factors = args.ty("INDEX").and_then(index_types);
    if let (Some(n), Some(fs)) = (args.ty("X").and_then(Type::len), &factors) {
        if fs.iter().any(|f| f.len().is_some_and(|k| k != n)) {
            return Err(args.error("INDEX", "arguments must have same length"));
        }
    }
    // FUN runs once per cell that has elements: at most this many times.
    let cells = factors.as_ref().and_then(|fs| {
        fs.iter()
            .try_fold(1usize, |a, f| a.checked_mul(type_levels(f)?))
    });
    let fun = fun_of(args, group_type(args.ty("X")), cells, ctx)?;
    match fun.as_deref() {
        None => Ok(Type::Num {
            len: args.ty("X").and_then(Type::len),
            value: None,
        }),
        Some(f) => grouped_shape(args, "INDEX", factors.as_deref(), SCALAR_FUNS.contains(&f)),
    }
}

/// R's `by(data, INDICES, FUN)`: `tapply(seq_len(nrow(data)), INDICES,
/// function(rows) FUN(data[rows, , drop = FALSE], ...))`, FUN seeing each
/// cell's rows as a data frame (a vector's elements, for a vector, as
/// `by.default` hands them). R's value is that tapply array with class
/// "by". flowcast keeps what the array holds and how it is indexed, not
/// the class on an atomic array: FUN's values all of length one give a
/// named vector (one factor) or a matrix with dimnames (two), as tapply's,
/// so `b[[1]]`, `b["a"]`, `unlist(b)` and arithmetic read them as R's do;
/// other values give a named list of class "by", NULL for an empty cell,
/// whose `[[`, `as.list` and `unlist` are R's. Two or more factors with
/// such values (R's list matrix) are refused, as for tapply.
fn by_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let data = args.get("data").ok_or_else(|| missing("data"))?;
    let index = args.get("INDICES").ok_or_else(|| missing("INDICES"))?;
    let fun = fun::resolve(args.get("FUN"), ctx)?.ok_or_else(|| missing("FUN"))?;
    let n = match (frame::dims(data), data) {
        (Some((rows, _)), _) => rows,
        (None, Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_)) => data.len(),
        (None, other) => {
            return Err(KernelError::new(format!(
                "flowcast's by() takes a data frame or a vector, not {} \
                 (as.data.frame() makes one of a matrix)",
                other.type_name()
            )))
        }
    };
    let factors = index_factors(index)?;
    let extra = dots(args);
    let simplify = args.bool_or("simplify", true)?;
    let call = |rows: &[usize], ctx: &mut Ctx| {
        let i = Value::Num(rows.iter().map(|&r| r as f64 + 1.0).collect());
        let part = match frame::index_drop(data, &[Some(i), None], false) {
            Some(part) => part?,
            None => subset(data, rows)?,
        };
        fun.call_on(&part, &extra, ctx)
    };
    Ok(
        match grouped("by", &factors, n, call, None, simplify, ctx)? {
            Value::List(mut l) => {
                l.class = Some("by".to_string());
                Value::List(l)
            }
            other => other,
        },
    )
}

/// A column's type with its length and values unknown: one cell's part.
fn part_type(t: &Type) -> Type {
    match t {
        Type::Num { .. } => Type::num_unknown(),
        Type::Str { .. } => Type::Str {
            len: None,
            value: None,
        },
        Type::Bool { .. } => Type::logical(None),
        Type::Factor {
            levels, ordered, ..
        } => Type::Factor {
            len: None,
            levels: levels.clone(),
            ordered: *ordered,
        },
        _ => Type::Any,
    }
}

fn by_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    check_grouping(args, "INDICES")?;
    let data = args.ty("data");
    let (n, part) = match data {
        Some(t) => match frame::frame_fields(t) {
            Some(fields) => (
                frame::type_dims(t).and_then(|(r, _)| r),
                Type::Record {
                    class: "data.frame".to_string(),
                    fields: fields
                        .iter()
                        .map(|(n, t)| (n.clone(), part_type(t)))
                        .collect(),
                },
            ),
            None => match t {
                Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. } => {
                    (t.len(), part_type(t))
                }
                Type::Any => (None, Type::Any),
                t => {
                    return Err(args.error(
                        "data",
                        format!(
                            "flowcast's by() takes a data frame or a vector, not {} \
                             (as.data.frame() makes one of a matrix)",
                            t.describe()
                        ),
                    ))
                }
            },
        },
        None => return Err(args.error("data", "argument \"data\" is missing, with no default")),
    };
    let factors = args.ty("INDICES").and_then(index_types);
    if let (Some(n), Some(fs)) = (n, &factors) {
        if fs.iter().any(|f| f.len().is_some_and(|k| k != n)) {
            return Err(args.error("INDICES", "arguments must have same length"));
        }
    }
    let cells = factors.as_ref().and_then(|fs| {
        fs.iter()
            .try_fold(1usize, |a, f| a.checked_mul(type_levels(f)?))
    });
    match fun_of(args, part, cells, ctx)? {
        None => Err(args.error("FUN", "argument \"FUN\" is missing, with no default")),
        Some(f) => grouped_shape(
            args,
            "INDICES",
            factors.as_deref(),
            SCALAR_FUNS.contains(&f.as_str()),
        ),
    }
}

fn split_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let g = args
        .get("f")
        .ok_or_else(|| KernelError::new("argument \"f\" is missing, with no default"))?;
    let drop = args.bool_or("drop", false)?;
    // split.default's parts are x[f == level]: x's names go with them (the
    // evaluator keeps them for split).
    let x_names = match x {
        Value::Named(_) => names::names(x).map(<[String]>::to_vec),
        _ => None,
    };
    let x = names::bare(x);
    let g = names::bare(g);
    // split.default: a list of factors is split by their interaction.
    let mut f = match g {
        Value::List(l) => {
            let sep = match args.get("sep").map(names::bare) {
                None => ".".to_string(),
                Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
                Some(_) => return Err(KernelError::new("invalid separator")),
            };
            let lex = args.bool_or("lex.order", false)?;
            super::interaction::interaction(l.items.clone(), drop, &sep, lex, ctx)?
        }
        _ => grouping(g, "f")?,
    };
    let n = frame::dims(x).map_or(x.len(), |(r, _)| r);
    // R's split (split.c): f recycled along x, with a warning when the
    // lengths are not multiples.
    if n != f.codes.len() {
        let k = f.codes.len();
        if k == 0 {
            if n > 0 {
                return Err(KernelError::new("group length is 0 but data length > 0"));
            }
        } else {
            if n % k != 0 {
                ctx.warn("data length is not a multiple of split variable");
            }
            f.codes = (0..n).map(|i| f.codes[i % k]).collect();
        }
    }
    let mut names = Vec::new();
    let mut items = Vec::new();
    for (level, rows) in f.levels.iter().zip(members(&f)) {
        if drop && rows.is_empty() {
            continue;
        }
        names.push(level.clone());
        let part = subset(x, &rows)?;
        items.push(match &x_names {
            Some(ns) if ns.len() == n => {
                names::named(part, rows.iter().map(|&r| ns[r].clone()).collect())
            }
            _ => part,
        });
    }
    Ok(Value::List(List {
        class: None,
        names: Some(names),
        items,
        row_names: None,
    }))
}

fn split_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("f") {
        Some(Type::List { .. }) => Ok(Type::Any),
        _ => {
            check_grouping(args, "f")?;
            Ok(Type::Any)
        }
    }
}

/// One `by` variable: its name and values.
type ByColumn = (String, Value);

/// R's `aggregate.data.frame(x, by, FUN)`: the groups that have rows, in
/// the order of their levels (the first `by` variable varying fastest),
/// each `by` variable's value and FUN of each column of `x`.
fn aggregate_frame(
    x: &[(String, Value)],
    by: &[ByColumn],
    fun: Fun,
    extra: &[(Option<&str>, &Value)],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let n = x.first().map_or(0, |(_, v)| v.len());
    let mut factors = Vec::with_capacity(by.len());
    for (name, v) in by {
        if v.len() != n {
            return Err(KernelError::new("arguments must have same length"));
        }
        let f = grouping(v, name)?;
        factors.push(f);
    }
    // Rows with an NA grouping value take part in no group.
    let keep: Vec<usize> = (0..n)
        .filter(|&i| factors.iter().all(|f| f.codes[i].is_some()))
        .collect();
    // Each kept row's group key: level codes, last `by` variable major.
    let key = |i: usize| -> Vec<u32> {
        factors
            .iter()
            .rev()
            .map(|f| f.codes[i].unwrap_or(0))
            .collect()
    };
    let mut groups: Vec<(Vec<u32>, Vec<usize>)> = Vec::new();
    {
        let mut map: std::collections::BTreeMap<Vec<u32>, Vec<usize>> = Default::default();
        for &i in &keep {
            map.entry(key(i)).or_default().push(i);
        }
        groups.extend(map);
    }
    let firsts: Vec<usize> = groups.iter().map(|(_, rows)| rows[0]).collect();
    let mut names = Vec::new();
    let mut columns = Vec::new();
    for (name, v) in by {
        names.push(name.clone());
        columns.push(subset(v, &firsts)?);
    }
    for (name, v) in x {
        let mut results = Vec::with_capacity(groups.len());
        for (_, rows) in &groups {
            results.push(fun.call_on_named(&subset(v, rows)?, extra, ctx)?);
        }
        let bare: Vec<Value> = results.iter().cloned().map(names::strip_value).collect();
        let column = simplify(&bare)
            .or_else(|| matrix_column(&results))
            .ok_or_else(|| {
                KernelError::new(format!(
                    "flowcast's aggregate() needs FUN to give one value per group, or \
                     numbers of one length for every group (column `{name}`)"
                ))
            })?;
        names.push(name.clone());
        columns.push(column);
    }
    Ok(frame::frame(names, columns))
}

/// aggregate.data.frame's simplification of FUN's values when they all
/// have one length above 1: a matrix of a row per group (`byrow = TRUE`),
/// its columns named by the first value's names. `None` for values of
/// unequal lengths (R keeps a list column, which flowcast's data frames
/// cannot hold) or that are not numbers or logicals.
fn matrix_column(results: &[Value]) -> Option<Value> {
    let first = results.first()?;
    let len = first.len();
    if len < 2 {
        return None;
    }
    let mut rows = Vec::with_capacity(results.len());
    for r in results {
        let v = match names::bare(r) {
            Value::Num(v) => v.clone(),
            b @ Value::Bool(_) => b.as_f64_slice()?.into_owned(),
            _ => return None,
        };
        if v.len() != len {
            return None;
        }
        rows.push(v);
    }
    let colnames = names::names(first).map(<[String]>::to_vec);
    // unlist() of logicals alone stays logical.
    let m = if results
        .iter()
        .all(|r| matches!(names::bare(r), Value::Bool(_)))
    {
        Value::BoolMat(DMatrix::from_fn(rows.len(), len, |i, j| {
            let x = rows[i][j];
            (!x.is_nan()).then_some(x != 0.0)
        }))
    } else {
        Value::Mat(DMatrix::from_fn(rows.len(), len, |i, j| rows[i][j]))
    };
    Some(names::dimnamed(m, None, colnames))
}

/// The columns of `x` for aggregate: a data frame's, or one vector named `x`.
fn columns_of(x: &Value) -> Result<Vec<(String, Value)>, KernelError> {
    if let Some(l) = as_frame(x) {
        let names = l.names.clone().unwrap_or_default();
        return Ok(names.into_iter().zip(l.items.iter().cloned()).collect());
    }
    match x {
        Value::Num(_) | Value::Bool(_) | Value::Str(_) | Value::Factor(_) => {
            Ok(vec![("x".to_string(), x.clone())])
        }
        Value::Mat(m) => Ok((0..m.ncols())
            .map(|j| {
                (
                    format!("V{}", j + 1),
                    Value::Num(m.column(j).iter().copied().collect()),
                )
            })
            .collect()),
        other => Err(KernelError::new(format!(
            "aggregate() needs a data frame, a vector or a formula, not {}",
            other.type_name()
        ))),
    }
}

/// `by`: a list of grouping vectors; unnamed ones are `Group.i`.
fn by_columns(by: &Value) -> Result<Vec<ByColumn>, KernelError> {
    let Value::List(l) = by else {
        return Err(KernelError::new("'by' must be a list"));
    };
    Ok(l.items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let name = l
                .names
                .as_ref()
                .and_then(|n| n.get(i))
                .filter(|n| !n.is_empty())
                .cloned()
                .unwrap_or_else(|| format!("Group.{}", i + 1));
            (name, v.clone())
        })
        .collect())
}

fn aggregate_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if let Some(tsp) = super::ts::tsp_of(x) {
        return aggregate_ts(args, x, tsp, ctx);
    }
    let fun = fun::resolve(args.get("FUN"), ctx)?
        .ok_or_else(|| KernelError::new("argument \"FUN\" is missing, with no default"))?;
    let extra = dots(args);
    let na = args.get("na.action");
    if let Value::Formula(f) = x {
        return aggregate_formula(f, fun, &extra, NaAction::of(na)?, ctx);
    }
    if na.is_some() {
        // aggregate.data.frame has no na.action: R hands it on to FUN.
        return Err(KernelError::new(
            "flowcast's aggregate() takes na.action only with a formula (aggregate(y ~ g, data, FUN, na.action = na.pass))",
        ));
    }
    let by = args
        .get("by")
        .ok_or_else(|| KernelError::new("argument \"by\" is missing, with no default"))?;
    aggregate_frame(&columns_of(x)?, &by_columns(by)?, fun, &extra, ctx)
}

/// R's `aggregate.ts(x, nfrequency = 1, FUN = sum, ndeltat = 1, ts.eps,
/// ...)` (stats/R/aggregate.R): FUN of each block of
/// `frequency(x) / nfrequency` observations of each column, a series of
/// frequency `nfrequency` from x's start; a last partial block is
/// dropped. Its second and fourth arguments are aggregate's `by` and
/// `data` here.
fn aggregate_ts(
    args: &Args<&Value>,
    x: &Value,
    tsp: [f64; 3],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let named = |name: &str| args.dots().find(|(n, _)| *n == Some(name)).map(|(_, v)| v);
    let number = |v: &Value, what: &str| -> Result<f64, KernelError> {
        match names::bare(v).as_f64_slice().as_deref() {
            Some([n]) => Ok(*n),
            _ => Err(KernelError::new(format!(
                "flowcast's aggregate of a series takes one number as '{what}'"
            ))),
        }
    };
    let ts_eps = match named("ts.eps") {
        Some(v) => number(v, "ts.eps")?,
        None => 1e-5,
    };
    let ofrequency = tsp[2];
    let fun = fun::resolve_or(args.get("FUN"), ctx, "sum")?;
    let mut nfrequency = match (
        args.get("by").or_else(|| named("nfrequency")),
        args.get("data").or_else(|| named("ndeltat")),
    ) {
        (Some(v), _) => number(v, "nfrequency")?,
        (None, Some(v)) => 1.0 / number(v, "ndeltat")?,
        (None, None) => 1.0,
    };
    if nfrequency.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if nfrequency > 1.0 && (nfrequency - nfrequency.round()).abs() < ts_eps {
        nfrequency = nfrequency.round();
    }
    if nfrequency == ofrequency {
        return Ok(x.clone());
    }
    let ratio = ofrequency / nfrequency;
    if (ratio - ratio.round()).abs() > ts_eps {
        return Err(KernelError::new(format!(
            "cannot change frequency from {} to {}",
            super::vector::sprintf::format_g(ofrequency),
            super::vector::sprintf::format_g(nfrequency)
        )));
    }
    let len = (ratio + ts_eps).trunc();
    if !(1.0..=1e9).contains(&len) {
        return Err(KernelError::new(format!(
            "flowcast's aggregate of a series takes blocks of 1 to 1e9 observations, not {len}"
        )));
    }
    let len = len as usize;
    let colnames = match x {
        Value::Named(n) => n.colnames.clone(),
        _ => None,
    };
    let (data, rows, cols, mat) = match names::bare(x) {
        Value::Mat(m) => (m.as_slice().to_vec(), m.nrows(), m.ncols(), true),
        v => {
            let d = v
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("flowcast aggregates a numeric series"))?
                .into_owned();
            let n = d.len();
            (d, n, 1, false)
        }
    };
    let blocks = rows / len;
    let extra: Vec<(Option<&str>, &Value)> = args
        .dots()
        .filter(|(n, _)| !matches!(*n, Some("nfrequency" | "ndeltat" | "ts.eps")))
        .collect();
    let mut out = Vec::with_capacity(blocks * cols);
    for c in 0..cols {
        for b in 0..blocks {
            let start = c * rows + b * len;
            let block = Value::Num(data[start..start + len].to_vec());
            let v = fun.call_on_named(&block, &extra, ctx)?;
            match names::bare(&v).as_f64_slice().as_deref() {
                Some([one]) => out.push(*one),
                _ => {
                    return Err(KernelError::new(
                        "flowcast's aggregate of a series needs FUN to give one number per block",
                    ))
                }
            }
        }
    }
    if blocks == 0 {
        return Err(KernelError::new(
            "'ts' object must have one or more observations",
        ));
    }
    let value = if mat {
        names::dimnamed(
            Value::Mat(DMatrix::from_vec(blocks, cols, out)),
            None,
            colnames,
        )
    } else {
        Value::Num(out)
    };
    let start = tsp[0];
    Ok(super::ts::with_tsp(
        value,
        [
            start,
            start + (blocks as f64 - 1.0) / nfrequency,
            nfrequency,
        ],
    ))
}

/// A named column of aggregate's input.
type Column = (String, Value);

/// `aggregate(y ~ g1 + g2, data, FUN, na.action)`: rows with an NA in any
/// variable dropped (`na.action = na.omit`, R's default; `na.pass` keeps
/// them for FUN to see), then as `aggregate.data.frame`. A
/// `cbind(a, b)` response aggregates each of its columns, named as R's
/// `as.data.frame` names them; `. ~ g` every other column of `data`.
fn aggregate_formula(
    f: &super::value::Formula,
    fun: Fun,
    extra: &[(Option<&str>, &Value)],
    na: NaAction,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let dot = super::value::DOT_RESPONSE;
    let (responses, terms): (Vec<Column>, Vec<&Column>) = match f.response.as_deref() {
        Some(y) => (
            response_columns(y, f.response_label.as_deref())?,
            f.terms.iter().collect(),
        ),
        None => {
            let (ys, gs): (Vec<_>, Vec<_>) = f.terms.iter().partition(|(l, _)| l.starts_with(dot));
            if ys.is_empty() {
                return Err(KernelError::new("aggregate() needs a response: y ~ g"));
            }
            let ys = ys
                .into_iter()
                .map(|(l, v)| (l[dot.len()..].to_string(), v.clone()))
                .collect();
            (ys, gs)
        }
    };
    let n = responses.first().map_or(0, |(_, v)| v.len());
    for (name, v) in terms.iter().copied().chain(responses.iter()) {
        if v.len() != n {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{name}')"
            )));
        }
    }
    let missing = |v: &Value, i: usize| match v {
        Value::Num(x) => x[i].is_nan(),
        Value::Str(s) => text_is_na(&s[i]),
        Value::Factor(f) => f.codes[i].is_none(),
        Value::Bool(b) => b[i].is_none(),
        _ => false,
    };
    let complete = |i: usize| {
        responses
            .iter()
            .map(|(_, v)| v)
            .chain(terms.iter().map(|(_, v)| v))
            .all(|v| !missing(v, i))
    };
    let keep: Vec<usize> = match na {
        // The model frame keeps every row; aggregate.data.frame then drops
        // those whose groups are incomplete (`complete.cases(by)`).
        NaAction::Pass => (0..n)
            .filter(|&i| terms.iter().all(|(_, v)| !missing(v, i)))
            .collect(),
        _ => na.rows(n, complete)?,
    };
    let x = responses
        .iter()
        .map(|(name, v)| Ok((name.clone(), subset(v, &keep)?)))
        .collect::<Result<Vec<_>, KernelError>>()?;
    let by = terms
        .iter()
        .map(|(name, v)| Ok((name.clone(), subset(v, &keep)?)))
        .collect::<Result<Vec<_>, KernelError>>()?;
    aggregate_frame(&x, &by, fun, extra, ctx)
}

/// The response's columns: one vector, or each column of a matrix named
/// as `as.data.frame(cbind(...))` names it (a symbol or `name = ` by that
/// name, anything else `V` and its position).
fn response_columns(y: &Value, label: Option<&str>) -> Result<Vec<(String, Value)>, KernelError> {
    let names = |k: usize| -> Vec<String> {
        let args = label.and_then(cbind_args).filter(|a| a.len() == k);
        (0..k)
            .map(|j| {
                args.as_ref()
                    .and_then(|a| column_name(&a[j]))
                    .unwrap_or_else(|| format!("V{}", j + 1))
            })
            .collect()
    };
    Ok(match y {
        Value::Mat(m) => names(m.ncols())
            .into_iter()
            .enumerate()
            .map(|(j, nm)| (nm, Value::Num(m.column(j).iter().copied().collect())))
            .collect(),
        Value::BoolMat(m) => names(m.ncols())
            .into_iter()
            .enumerate()
            .map(|(j, nm)| (nm, Value::Bool(m.column(j).iter().copied().collect())))
            .collect(),
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => {
            vec![(label.unwrap_or("x").to_string(), y.clone())]
        }
        other => {
            return Err(KernelError::new(format!(
                "aggregate() takes a vector or a cbind() of vectors as the response, not {}",
                other.type_name()
            )))
        }
    })
}

/// The arguments' text of `cbind(...)`, split at top-level commas.
fn cbind_args(label: &str) -> Option<Vec<String>> {
    let inner = label.trim().strip_prefix("cbind(")?.strip_suffix(')')?;
    let mut out = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0usize);
    let mut prev = ' ';
    for (i, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q && prev != '\\' => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    out.push(inner[start..].trim().to_string());
    Some(out)
}

/// cbind's column name for an argument (deparse.level = 1): its name when
/// named, a symbol's own name; `None` otherwise.
fn column_name(arg: &str) -> Option<String> {
    let symbol = |s: &str| -> Option<String> {
        let s = s.trim();
        if let Some(q) = s.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
            return Some(q.to_string());
        }
        let mut chars = s.chars();
        let first = chars.next()?;
        let ok_start = first.is_alphabetic()
            || (first == '.' && !s[1..].starts_with(|c: char| c.is_ascii_digit()));
        (ok_start
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '_'))
        .then(|| s.to_string())
    };
    // `name = expr` (not `==`): the name.
    if let Some(eq) = arg.find('=') {
        let (name, rest) = (&arg[..eq], &arg[eq + 1..]);
        if !rest.starts_with('=') && !name.ends_with(['<', '>', '!', '=']) {
            if let Some(n) = symbol(name) {
                return Some(n);
            }
        }
    }
    symbol(arg)
}

fn aggregate_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    // aggregate.ts (FUN = sum by default, its own arguments among the
    // dots): whether x is a series shows when it runs.
    if args
        .dots()
        .any(|(n, _)| matches!(n, Some("nfrequency" | "ndeltat")))
    {
        return Ok(Type::Any);
    }
    let fun = fun_of(args, Type::num_unknown(), None, ctx)?;
    if fun.is_none() {
        return Err(args.error("FUN", "argument \"FUN\" is missing, with no default"));
    }
    match args.ty("x") {
        // A formula built from text is known only as it runs.
        Some(Type::Formula { .. } | Type::Any) => {}
        _ if !args.has("by") => {
            return Err(args.error("by", "argument \"by\" is missing, with no default"))
        }
        _ => {}
    }
    Ok(Type::Any)
}

/// Counts of each level (one factor) or each pair of levels (two), NA
/// excluded, as R's `table`.
fn table_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut vars: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    // table(d) of a data frame tabulates its columns.
    let owned: Vec<Value>;
    if let [v] = vars[..] {
        if let Some(l) = as_frame(v) {
            owned = l.items.clone();
            vars = owned.iter().collect();
        }
    }
    let mut factors = vars
        .iter()
        .map(|v| grouping(v, "..."))
        .collect::<Result<Vec<_>, _>>()?;
    // R's table(): values in `exclude` are no level; an `exclude` without
    // NA counts NAs as useNA = "ifany" does, unless useNA is given.
    let mut use_na = super::filter::choice(args.get("useNA"), &["no", "ifany", "always"])?;
    let was_na: Vec<Vec<bool>> = factors
        .iter()
        .map(|f| f.codes.iter().map(Option::is_none).collect())
        .collect();
    if let Some(exclude) = args.get("exclude") {
        let (gone, na_gone) = match exclude {
            Value::Null => (Vec::new(), false),
            e => {
                let e = grouping(e, "exclude")?;
                let na = e.codes.iter().any(Option::is_none);
                (e.levels, na)
            }
        };
        if args.get("useNA").is_none() && !na_gone {
            use_na = "ifany";
        }
        for f in &mut factors {
            let keep: Vec<bool> = f.levels.iter().map(|l| !gone.contains(l)).collect();
            let mut to = Vec::with_capacity(keep.len());
            let mut next = 0u32;
            for &k in &keep {
                to.push(k.then_some(next));
                next += u32::from(k);
            }
            for c in &mut f.codes {
                *c = c.and_then(|c| to[c as usize]);
            }
            let mut k = keep.iter();
            f.levels.retain(|_| *k.next().unwrap_or(&true));
        }
    }
    if use_na != "no" {
        for (f, was_na) in factors.iter_mut().zip(&was_na) {
            if use_na == "always" || was_na.iter().any(|&b| b) {
                let na = f.levels.len() as u32;
                f.levels.push("NA".to_string());
                for (c, &was) in f.codes.iter_mut().zip(was_na) {
                    if was {
                        *c = Some(na);
                    }
                }
            }
        }
    }
    // The dimnames' names: given, or the arguments' names (the evaluator
    // gives R's, which also names a symbol argument after itself).
    let dnn: Vec<String> = match args.get("dnn") {
        Some(Value::Str(d)) if d.len() == factors.len() => d.clone(),
        Some(Value::Null) | None => {
            let given: Vec<String> = args
                .dots()
                .map(|(n, _)| n.unwrap_or("").to_string())
                .collect();
            if given.len() == factors.len() {
                given
            } else {
                vec![String::new(); factors.len()]
            }
        }
        Some(_) => {
            return Err(KernelError::new(format!(
                "'dnn' must be a character vector of length {}",
                factors.len()
            )))
        }
    };
    match &factors[..] {
        [] => Err(KernelError::new("nothing to tabulate")),
        [f] => {
            let mut counts = vec![0.0; f.levels.len()];
            for c in f.codes.iter().flatten() {
                counts[*c as usize] += 1.0;
            }
            Ok(names::tabled(
                names::named(Value::Num(counts), f.levels.clone()),
                dnn,
            ))
        }
        [a, b] => {
            if a.codes.len() != b.codes.len() {
                return Err(KernelError::new("all arguments must have the same length"));
            }
            // R's table() stops on `prod(dims) > .Machine$integer.max`;
            // `table(1:1e7, 1:1e7)` asked for 800 TB here, and the failed
            // allocation aborted.
            if a.levels.len() as f64 * b.levels.len() as f64 > f64::from(i32::MAX) {
                return Err(KernelError::new(
                    "attempt to make a table with >= 2^31 elements",
                ));
            }
            let mut m = DMatrix::zeros(a.levels.len(), b.levels.len());
            for (x, y) in a.codes.iter().zip(&b.codes) {
                if let (Some(x), Some(y)) = (x, y) {
                    m[(*x as usize, *y as usize)] += 1.0;
                }
            }
            Ok(names::tabled(
                names::dimnamed(
                    Value::Mat(m),
                    Some(a.levels.clone()),
                    Some(b.levels.clone()),
                ),
                dnn,
            ))
        }
        many => {
            if many.iter().any(|f| f.codes.len() != many[0].codes.len()) {
                return Err(KernelError::new("all arguments must have the same length"));
            }
            let ones = vec![1.0; many[0].codes.len()];
            let counts = cross_sums(many, &ones)?;
            Ok(table_array(counts, many, dnn))
        }
    }
}

/// The sum of `ys` in each cell of the cross-classification by `by`
/// (every factor as long as `ys`), column-major as R's arrays are, each
/// cell summed in row order as R's sum() sums it; rows with an NA code
/// fall in no cell.
pub(super) fn cross_sums(by: &[Factor], ys: &[f64]) -> Result<Vec<f64>, KernelError> {
    let total = by
        .iter()
        .try_fold(1usize, |a, f| a.checked_mul(f.levels.len()))
        .filter(|&t| t <= i32::MAX as usize)
        .ok_or_else(|| KernelError::new("attempt to make a table with >= 2^31 elements"))?;
    let mut cells = vec![Vec::new(); total];
    'rows: for (k, y) in ys.iter().enumerate() {
        let (mut at, mut stride) = (0, 1);
        for f in by {
            let Some(c) = f.codes[k] else { continue 'rows };
            at += c as usize * stride;
            stride *= f.levels.len();
        }
        cells[at].push(*y);
    }
    Ok(cells.iter().map(|c| super::nmath::rsum(c)).collect())
}

/// A table of three or more dimensions as R holds it: the counts with
/// `dim` and `dimnames` (the factors' levels, named by `dnn`) and class
/// "table".
pub(super) fn table_array(counts: Vec<f64>, by: &[Factor], dnn: Vec<String>) -> Value {
    let dn = by.iter().map(|f| f.levels.clone()).collect();
    array_table(counts, dn, Some(dnn))
}

/// [`table_array`] from the dimnames themselves (named by `dnn`, when
/// given).
pub(super) fn array_table(
    counts: Vec<f64>,
    dn: Vec<Vec<String>>,
    dnn: Option<Vec<String>>,
) -> Value {
    let dims = Value::Num(dn.iter().map(|d| d.len() as f64).collect());
    let mut dn = List::sequence(dn.into_iter().map(Value::Str).collect());
    dn.names = dnn;
    let v = names::with_attr(Value::Num(counts), "dim", dims);
    // Named's `table` describes one or two dimensions: an array's class
    // is an attribute of its own, after its dimnames as in R.
    let v = names::with_attr(v, "dimnames", Value::List(dn));
    names::with_attr(v, "class", Value::string("table"))
}

fn table_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let vars: Vec<&Type> = args.dots().map(|(_, t)| t).collect();
    // An NA level may be added, so the counts' length is known only without.
    let type_levels =
        |t: &Type| type_levels(t).filter(|_| !args.has("useNA") && !args.has("exclude"));
    for (k, t) in vars.iter().enumerate() {
        if !matches!(
            t,
            Type::Num { .. }
                | Type::Str { .. }
                | Type::Bool { .. }
                | Type::Factor { .. }
                | Type::Mat { .. }
                | Type::BoolMat { .. }
                | Type::StrMat { .. }
                | Type::Any
        ) && frame::frame_fields(t).is_none()
        {
            return Err(args.dots_error(
                k,
                format!("table() needs factors or vectors, not {}", t.describe()),
            ));
        }
    }
    Ok(match vars[..] {
        [] => return Err(ArgError::call("nothing to tabulate")),
        [t] if frame::frame_fields(t).is_none() => Type::Num {
            len: type_levels(t),
            value: None,
        },
        [a, b] => Type::Mat {
            rows: type_levels(a),
            cols: type_levels(b),
        },
        _ => Type::Any,
    })
}

/// R's `xtabs` with its defaults: the rows with an NA anywhere dropped
/// (`model.frame`'s na.omit), each classifier `factor(u)` of what is left
/// (a factor keeps its levels), then `table(by)` of a one-sided formula or
/// `tapply(y, by, sum, default = 0)` of the response.
fn xtabs_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(if args.has("formula") {
            "'formula' missing or incorrect"
        } else {
            "must supply either 'formula' or 'data'"
        }));
    };
    for flag in ["sparse", "drop.unused.levels"] {
        if args.bool_or(flag, false)? {
            return Err(KernelError::new(format!(
                "flowcast's xtabs() takes {flag} = FALSE only"
            )));
        }
    }
    if args.has("exclude") {
        return Err(KernelError::new(
            "flowcast's xtabs() takes the default exclude only",
        ));
    }
    if f.terms.iter().any(|(label, _)| label.contains(':')) {
        return Err(KernelError::new("interactions are not allowed"));
    }
    if f.terms.is_empty() {
        return Err(KernelError::new(
            "flowcast's xtabs() cross-classifies by one variable or more",
        ));
    }
    let y: Option<Vec<f64>> = match f.response.as_deref() {
        None => None,
        Some(r @ (Value::Num(_) | Value::Bool(_))) => {
            Some(r.as_f64_slice().unwrap_or_default().into_owned())
        }
        // R sums each cell's responses with sum(), which refuses these.
        Some(Value::Str(_)) => {
            return Err(KernelError::new("invalid 'type' (character) of argument"))
        }
        Some(Value::Factor(_)) => {
            return Err(KernelError::new(
                "\u{2018}sum\u{2019} not meaningful for factors",
            ))
        }
        Some(_) => {
            return Err(KernelError::new(
                "flowcast's xtabs() needs a numeric response",
            ))
        }
    };
    let n = f.terms[0].1.len();
    for (label, v) in &f.terms {
        if v.len() != n || y.as_ref().is_some_and(|y| y.len() != n) {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
    }
    let factors = f
        .terms
        .iter()
        .map(|(_, v)| grouping(v, "formula"))
        .collect::<Result<Vec<_>, _>>()?;
    // R 4.2's xtabs: the model frame under na.action (na.pass when
    // addNA = TRUE and none is given, else na.omit); with addNA each
    // classifier gains an NA level where it has an NA (addNA(u, ifany =
    // TRUE)); rows whose classifier is NA are in no cell.
    let add_na = args.bool_or("addNA", false)?;
    let na = match args.get("na.action") {
        None if add_na => NaAction::Pass,
        given => NaAction::of(given)?,
    };
    let complete = |i: usize| {
        factors.iter().all(|g| g.codes[i].is_some()) && y.as_ref().is_none_or(|y| !y[i].is_nan())
    };
    let keep = na.rows(n, complete)?;
    let by: Vec<Factor> = factors
        .iter()
        .zip(&f.terms)
        .map(|(g, (_, v))| {
            let kept = Factor {
                codes: keep.iter().map(|&i| g.codes[i]).collect(),
                levels: g.levels.clone(),
                ordered: g.ordered,
            };
            let kept = if matches!(v, Value::Factor(_)) {
                kept
            } else {
                super::factor::drop_unused(&kept)
            };
            if add_na {
                super::factor::add_na(kept, true)
            } else {
                kept
            }
        })
        .collect();
    let ys: Vec<f64> = match &y {
        Some(y) => keep.iter().map(|&i| y[i]).collect(),
        None => vec![1.0; keep.len()],
    };
    // A table of three or more dimensions is R's array.
    let dnn: Vec<String> = f.terms.iter().map(|(label, _)| label.clone()).collect();
    if by.len() > 2 {
        let sums = cross_sums(&by, &ys)?;
        return Ok(table_array(sums, &by, dnn));
    }
    let rows = by[0].levels.len();
    let cols = by.get(1).map_or(1, |b| b.levels.len());
    // Each cell's values in row order, summed as R's sum() sums them.
    let mut cells = vec![Vec::new(); rows * cols];
    for (k, v) in ys.iter().enumerate() {
        let (Some(r), c) = (by[0].codes[k], by.get(1).map_or(Some(0), |b| b.codes[k])) else {
            continue;
        };
        let Some(c) = c else { continue };
        cells[r as usize + c as usize * rows].push(*v);
    }
    let sums: Vec<f64> = cells.iter().map(|c| super::nmath::rsum(c)).collect();
    let value = match &by[..] {
        [a] => names::named(Value::Num(sums), a.levels.clone()),
        [a, b] => names::dimnamed(
            Value::Mat(DMatrix::from_vec(rows, cols, sums)),
            Some(a.levels.clone()),
            Some(b.levels.clone()),
        ),
        _ => Value::Null,
    };
    // A table whose dimnames are named by the formula's terms, as R's.
    Ok(names::tabled(value, dnn))
}

/// A factor's levels stay whatever rows go; other classifiers' levels are
/// known only after the NA rows are dropped.
fn fixed_levels(t: &Type) -> Option<usize> {
    match t {
        Type::Factor { levels, .. } => levels.as_ref().map(Vec::len),
        _ => None,
    }
}

fn xtabs_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("formula") {
        Some(Type::Formula { terms, .. }) => {
            if terms.iter().any(|(label, _)| label.contains(':')) {
                return Err(args.error("formula", "interactions are not allowed"));
            }
            // With addNA a classifier's NA level is there only when it has
            // an NA, which the run tells.
            let no_na_level = args.ty("addNA").and_then(Type::const_scalar) == Some(0.0)
                || args.ty("addNA").is_none();
            let levels = |t: &Type| fixed_levels(t).filter(|_| no_na_level);
            Ok(match &terms[..] {
                [(_, a)] => Type::Num {
                    len: levels(a),
                    value: None,
                },
                [(_, a), (_, b)] => Type::Mat {
                    rows: levels(a),
                    cols: levels(b),
                },
                // An array of three or more dimensions.
                _ => Type::Any,
            })
        }
        Some(Type::Any) => Ok(Type::Any),
        Some(_) => Err(args.error("formula", "'formula' missing or incorrect")),
        None => Err(ArgError::call("must supply either 'formula' or 'data'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbind_response_names_are_rs() {
        let args = cbind_args("cbind(yield, log(h, base = 2), w = a + b, `my col`)").unwrap();
        assert_eq!(args, ["yield", "log(h, base = 2)", "w = a + b", "`my col`"]);
        let names: Vec<Option<String>> = args.iter().map(|a| column_name(a)).collect();
        assert_eq!(
            names,
            [
                Some("yield".to_string()),
                None,
                Some("w".to_string()),
                Some("my col".to_string())
            ]
        );
        assert_eq!(column_name("a == b"), None);
        assert_eq!(column_name(".5"), None);
        assert_eq!(cbind_args("y"), None);
    }
}
