//! `== != < > <= >=` and `%in%`: R's relational operators (relop.c) with
//! recycling, NA and matrix dims, and `match`-based `%in%`.
//!
//! Numbers compare as doubles (a logical as 0/1); when either side is text
//! both compare as text, numbers written as `as.character` writes them.

use crate::kernels::hashing::{FastMap, FastSet};
use std::borrow::Cow;
use std::cmp::Ordering;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::r_num_to_string;
use crate::kernels::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value};

use super::ops::{conform, ragged, RECYCLE};

const OP_PARAMS: &[Param] = &[req("e1"), req("e2")];

pub(super) const fn kernel(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: OP_PARAMS,
        random: false,
        shape: elementwise_logical_shape,
        eval: compare_eval,
    }
}

pub(super) const MATCH: Kernel = Kernel {
    name: "match",
    params: &[req("x"), req("table"), opt("nomatch"), opt("incomparables")],
    random: false,
    shape: in_shape,
    eval: match_eval,
};

pub(super) const IN: Kernel = Kernel {
    name: "%in%",
    params: &[req("x"), req("table")],
    random: false,
    shape: in_shape,
    eval: in_eval,
};

/// `is.element(x, table)`: base R's `match(x, table, 0L) > 0L`, which is
/// `%in%`.
pub(super) const IS_ELEMENT: Kernel = Kernel {
    name: "is.element",
    ..IN
};

/// One side of a comparison.
enum Side<'a> {
    Num(Cow<'a, [f64]>),
    /// `None` is NA.
    Str(Vec<Option<Cow<'a, str>>>),
}

impl Side<'_> {
    fn len(&self) -> usize {
        match self {
            Side::Num(v) => v.len(),
            Side::Str(v) => v.len(),
        }
    }
}

fn numbers<'a>(v: &'a Value, op: &str) -> Result<Cow<'a, [f64]>, KernelError> {
    // relop.c coerces a list operand with coerceVector: an element each,
    // so `sapply(numeric(0), f) <= 1` (a list()) is logical(0).
    if let Value::List(l) = v {
        return l
            .items
            .iter()
            .map(|e| match e.as_f64_slice() {
                Some(x) if x.len() == 1 => Ok(x[0]),
                _ => Err(KernelError::new(
                    "'list' object cannot be coerced to type 'double'",
                )),
            })
            .collect::<Result<Vec<f64>, _>>()
            .map(Cow::Owned);
    }
    v.as_f64_slice().ok_or_else(|| {
        KernelError::new(format!(
            "comparison ({op}) is possible only for atomic types, not {}",
            v.type_name()
        ))
    })
}

/// A value as text for comparing with text: `as.character`.
pub(super) fn texts<'a>(v: &'a Value, op: &str) -> Result<Vec<Option<Cow<'a, str>>>, KernelError> {
    Ok(match v {
        // A missing text cell ("NA", see `factor`) compares as NA.
        Value::Str(_) | Value::StrMat(_) => v
            .as_strs()
            .unwrap_or_default()
            .iter()
            .map(|s| (!crate::kernels::factor::text_is_na(s)).then_some(Cow::Borrowed(s.as_str())))
            .collect(),
        Value::Bool(b) => b
            .iter()
            .map(|b| b.map(|b| Cow::Borrowed(if b { "TRUE" } else { "FALSE" })))
            .collect(),
        Value::BoolMat(m) => m
            .iter()
            .map(|b| b.map(|b| Cow::Borrowed(if b { "TRUE" } else { "FALSE" })))
            .collect(),
        other => numbers(other, op)?
            .iter()
            .map(|&x| (!crate::kernels::value::is_na(x)).then(|| Cow::Owned(r_num_to_string(x))))
            .collect(),
    })
}

fn side<'a>(v: &'a Value, text: bool, op: &str) -> Result<Side<'a>, KernelError> {
    if text {
        Ok(Side::Str(texts(v, op)?))
    } else if matches!(v, Value::Null) {
        Ok(Side::Num(Cow::Borrowed(&[])))
    } else {
        Ok(Side::Num(numbers(v, op)?))
    }
}

fn decide(op: &str, o: Ordering) -> bool {
    match op {
        "==" => o == Ordering::Equal,
        "!=" => o != Ordering::Equal,
        "<" => o == Ordering::Less,
        ">" => o == Ordering::Greater,
        "<=" => o != Ordering::Greater,
        _ => o != Ordering::Less,
    }
}

/// `x op y` over numbers recycled to `n`: NA where either side is NA or
/// NaN. The operator is matched once, not per element, and the common
/// shapes (equal lengths, a scalar side) index without a division.
pub(super) fn compare_nums(op: &str, x: &[f64], y: &[f64], n: usize) -> Vec<Option<bool>> {
    fn each(x: &[f64], y: &[f64], n: usize, f: impl Fn(f64, f64) -> bool) -> Vec<Option<bool>> {
        let at = |a: f64, b: f64| (!a.is_nan() && !b.is_nan()).then(|| f(a, b));
        match (x.len(), y.len()) {
            (a, b) if a == n && b == n => x.iter().zip(y).map(|(&a, &b)| at(a, b)).collect(),
            (a, 1) if a == n => x.iter().map(|&a| at(a, y[0])).collect(),
            (1, b) if b == n => y.iter().map(|&b| at(x[0], b)).collect(),
            _ => (0..n).map(|i| at(x[i % x.len()], y[i % y.len()])).collect(),
        }
    }
    match op {
        "==" => each(x, y, n, |a, b| a == b),
        "!=" => each(x, y, n, |a, b| a != b),
        "<" => each(x, y, n, |a, b| a < b),
        ">" => each(x, y, n, |a, b| a > b),
        "<=" => each(x, y, n, |a, b| a <= b),
        _ => each(x, y, n, |a, b| a >= b),
    }
}

/// `a op b` with R's recycling, for text or numbers.
fn relop(op: &str, a: &Side, b: &Side, n: usize) -> Vec<Option<bool>> {
    if n == 0 {
        return Vec::new();
    }
    match (a, b) {
        (Side::Num(x), Side::Num(y)) => compare_nums(op, x, y, n),
        (Side::Str(x), Side::Str(y)) => (0..n)
            .map(|i| match (&x[i % x.len()], &y[i % y.len()]) {
                (Some(p), Some(q)) => Some(decide(
                    op,
                    if matches!(op, "==" | "!=") {
                        p.as_ref().cmp(q.as_ref())
                    } else {
                        crate::kernels::collate::compare(p, q)
                    },
                )),
                _ => None,
            })
            .collect(),
        _ => vec![None; n],
    }
}

fn is_text(v: &Value) -> bool {
    matches!(v, Value::Str(_) | Value::StrMat(_))
}

fn is_list(v: &Value) -> bool {
    matches!(v, Value::List(_))
}

fn compare_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let op = args.func;
    let e1 = args.get("e1").unwrap_or(&Value::Null);
    let e2 = args.get("e2").unwrap_or(&Value::Null);
    if let Some(r) = super::frame_ops::ops(args, e1, Some(e2), ctx, compare_eval) {
        return r;
    }
    if let Some(r) = super::factor_ops::ops(op, e1, Some(e2), ctx) {
        return r;
    }
    if let Some(r) = super::complex_ops::compare(op, e1, e2, ctx) {
        return r;
    }
    let text = is_text(e1) || is_text(e2);
    let a = side(e1, text, op)?;
    let b = side(e2, text, op)?;
    let (n, dims) = conform(a.len(), e1.dims(), b.len(), e2.dims()).map_err(KernelError)?;
    if ragged(a.len(), b.len()) {
        ctx.warn(RECYCLE);
    }
    Ok(Value::logicals_shaped(relop(op, &a, &b, n), dims))
}

/// What an element-wise operator's shape rule knows of one operand.
struct Operand {
    len: Option<usize>,
    dims: Option<(Option<usize>, Option<usize>)>,
}

fn operand(t: &Type) -> Option<Operand> {
    match t {
        Type::Null => Some(Operand {
            len: Some(0),
            dims: None,
        }),
        Type::Num { len, .. }
        | Type::Bool { len, .. }
        | Type::Str { len, .. }
        | Type::List { len, .. } => Some(Operand {
            len: *len,
            dims: None,
        }),
        Type::Complex { len } => Some(Operand {
            len: *len,
            dims: None,
        }),
        Type::Mat { rows, cols }
        | Type::BoolMat { rows, cols }
        | Type::StrMat { rows, cols }
        | Type::ComplexMat { rows, cols } => Some(Operand {
            len: t.len(),
            dims: Some((*rows, *cols)),
        }),
        _ => None,
    }
}

/// The shape of a logical result of an element-wise binary operator
/// (`==`, `&`, `xor`): R's recycling, a matrix operand's dims kept.
pub(super) fn elementwise_logical_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let text_ok = !matches!(args.func, "&" | "|" | "xor");
    if args.func != "xor" {
        let t1 = args.ty("e1").cloned().unwrap_or(Type::Null);
        let t2 = args.ty("e2").cloned().unwrap_or(Type::Null);
        if let Some(t) = super::frame_ops::ops_shape(args.func, &t1, Some(&t2)) {
            return t.map_err(ArgError::call);
        }
        if let Some(t) = super::factor_ops::ops_shape(args.func, &t1, Some(&t2)) {
            return Ok(t);
        }
    }
    let mut sides = Vec::new();
    for name in ["e1", "e2"] {
        let name = if args.func == "xor" {
            if name == "e1" {
                "x"
            } else {
                "y"
            }
        } else {
            name
        };
        let t = args.ty(name).cloned().unwrap_or(Type::Null);
        if matches!(t, Type::Any) {
            sides.push(None);
            continue;
        }
        if matches!(t, Type::Str { .. } | Type::StrMat { .. }) && !text_ok {
            return Err(args.error(
                name,
                "operations are possible only for numeric, logical or complex types",
            ));
        }
        match operand(&t) {
            Some(o) => sides.push(Some(o)),
            None => {
                return Err(args.error(
                    name,
                    format!(
                        "comparison ({}) is possible only for atomic types, not {}",
                        args.func,
                        t.describe()
                    ),
                ))
            }
        }
    }
    Ok(match (&sides[0], &sides[1]) {
        (Some(a), Some(b)) => match (a.dims, b.dims) {
            (Some(d), _) | (None, Some(d)) => {
                let (m, v) = if a.dims.is_some() {
                    (a.len, b.len)
                } else {
                    (b.len, a.len)
                };
                match (m, v) {
                    (Some(m), Some(v)) if m > 0 && v > m => {
                        return Err(ArgError::call(format!(
                            "dims [product {m}] do not match the length of object [{v}]"
                        )))
                    }
                    (Some(m), Some(0)) if m > 0 => Type::logical(Some(0)),
                    _ => Type::BoolMat {
                        rows: d.0,
                        cols: d.1,
                    },
                }
            }
            (None, None) => Type::logical(match (a.len, b.len) {
                (Some(0), _) | (_, Some(0)) => Some(0),
                (Some(x), Some(y)) => Some(x.max(y)),
                _ => None,
            }),
        },
        (Some(Operand { dims: Some(d), .. }), None)
        | (None, Some(Operand { dims: Some(d), .. })) => Type::BoolMat {
            rows: d.0,
            cols: d.1,
        },
        _ => Type::logical(None),
    })
}

/// The key `match` compares by: NA and NaN are distinct values that match
/// themselves, and -0 matches 0.
#[derive(PartialEq, Eq, Hash)]
enum Key<'a> {
    Na,
    NaN,
    Num(u64),
    Str(Cow<'a, str>),
}

fn num_key(x: f64) -> Key<'static> {
    if crate::kernels::value::is_na(x) {
        Key::Na
    } else if x.is_nan() {
        Key::NaN
    } else if x == 0.0 {
        Key::Num(0.0f64.to_bits())
    } else {
        Key::Num(x.to_bits())
    }
}

/// The `match` keys of `v`, as text when `text`.
fn keys<'a>(v: &'a Value, text: bool) -> Result<Vec<Key<'a>>, KernelError> {
    if text {
        return Ok(texts(v, "%in%")?
            .into_iter()
            .map(|s| s.map_or(Key::Na, Key::Str))
            .collect());
    }
    if matches!(v, Value::Null) {
        return Ok(Vec::new());
    }
    let nums = v
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("'match' requires vector arguments".to_string()))?;
    Ok(nums.iter().map(|&x| num_key(x)).collect())
}

/// [`num_key`] as one number: numbers are matched on these, without
/// building a key per element.
fn num_bits(x: f64) -> u64 {
    match num_key(x) {
        Key::Num(b) => b,
        Key::Na => crate::kernels::value::NA.to_bits(),
        _ => f64::NAN.to_bits(),
    }
}

/// A vector's numbers, borrowed where they are stored as such.
type Numbers<'a> = Cow<'a, [f64]>;

/// Both vectors' numbers, when neither is matched as text.
fn both_numbers<'a>(x: &'a Value, table: &'a Value) -> Option<(Numbers<'a>, Numbers<'a>)> {
    match (x, table) {
        (Value::Num(_) | Value::Bool(_), Value::Num(_) | Value::Bool(_)) => {
            Some((x.as_f64_slice()?, table.as_f64_slice()?))
        }
        _ => None,
    }
}

/// R's `match(x, table, nomatch = 0) > 0`.
pub fn in_table(x: &Value, table: &Value) -> Result<Vec<bool>, KernelError> {
    let (x, table) = (&*factor_as_text(x), &*factor_as_text(table));
    if let Some((x, table)) = both_numbers(x, table) {
        let t: FastSet<u64> = table.iter().map(|&v| num_bits(v)).collect();
        return Ok(x.iter().map(|&v| t.contains(&num_bits(v))).collect());
    }
    // match.c matches a list as text (VECSXP is above STRSXP).
    let text = is_text(x) || is_text(table) || is_list(x) || is_list(table);
    let t: FastSet<Key> = keys(table, text)?.into_iter().collect();
    Ok(keys(x, text)?.iter().map(|k| t.contains(k)).collect())
}

/// match.c reads a factor as its labels (asCharacterFactor).
fn factor_as_text(v: &Value) -> Cow<'_, Value> {
    match v {
        Value::Factor(f) => Cow::Owned(Value::Str(f.labels())),
        v => Cow::Borrowed(v),
    }
}

/// R's `match(x, table)`: 1-based positions of each x's first match, NA
/// where none.
pub fn match_positions(x: &Value, table: &Value) -> Result<Vec<f64>, KernelError> {
    let (x, table) = (&*factor_as_text(x), &*factor_as_text(table));
    if let Some((x, table)) = both_numbers(x, table) {
        let mut first: FastMap<u64, usize> = FastMap::default();
        for (i, &v) in table.iter().enumerate() {
            first.entry(num_bits(v)).or_insert(i + 1);
        }
        return Ok(x
            .iter()
            .map(|&v| {
                first
                    .get(&num_bits(v))
                    .map_or(crate::kernels::value::NA, |&i| i as f64)
            })
            .collect());
    }
    // match.c matches a list as text (VECSXP is above STRSXP).
    let text = is_text(x) || is_text(table) || is_list(x) || is_list(table);
    let mut first: FastMap<Key, usize> = FastMap::default();
    for (i, k) in keys(table, text)?.into_iter().enumerate() {
        first.entry(k).or_insert(i + 1);
    }
    Ok(keys(x, text)?
        .iter()
        .map(|k| {
            first
                .get(k)
                .map_or(crate::kernels::value::NA, |&i| i as f64)
        })
        .collect())
}

fn in_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let table = args.get("table").unwrap_or(&Value::Null);
    Ok(Value::logical(&in_table(x, table)?))
}

fn match_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let table = args.get("table").unwrap_or(&Value::Null);
    let nomatch = args.scalar_or("nomatch", crate::kernels::value::NA)?;
    let mut pos = match_positions(x, table)?;
    // Values of x among `incomparables` (unless FALSE) match nothing.
    let inc = args
        .get("incomparables")
        .map(crate::kernels::names::bare)
        .filter(|v| !matches!(v, Value::Bool(b) if b == &[Some(false)]));
    if let Some(inc) = inc {
        for (p, i) in pos.iter_mut().zip(in_table(x, inc)?) {
            if i {
                *p = f64::NAN;
            }
        }
    }
    for p in &mut pos {
        if p.is_nan() {
            *p = nomatch;
        }
    }
    Ok(Value::Num(pos))
}

fn in_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "table"] {
        if let Some(Type::Record { .. } | Type::Formula { .. } | Type::Complex { .. }) =
            args.ty(name)
        {
            return Err(args.error(name, "'match' requires vector arguments"));
        }
    }
    let len = args.ty("x").and_then(Type::len);
    Ok(if args.func == "match" {
        Type::Num { len, value: None }
    } else {
        Type::logical(len)
    })
}
