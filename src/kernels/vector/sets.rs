//! `duplicated`, `union`, `intersect` and `setdiff`, as R 4.2's base
//! functions: elements compared as `match` compares them (the key of
//! [`super::unique`]), `union` and `intersect` in the type `c(x, y)` has,
//! `setdiff` in `x`'s.

use crate::kernels::hashing::FastSet;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::combine;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

use super::unique::num_key;
use super::{like, pick};

/// What `match` compares of each element of a vector.
#[derive(Clone, Copy, Hash, PartialEq, Eq)]
enum Key<'a> {
    Num(u64),
    Text(&'a str),
}

fn keys<'a>(v: &'a Value, func: &str) -> Result<Vec<Key<'a>>, KernelError> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Str(s) => Ok(s.iter().map(|s| Key::Text(s)).collect()),
        Value::StrMat(s) => Ok(s.iter().map(|s| Key::Text(s)).collect()),
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => Ok(v
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|&x| Key::Num(num_key(x)))
            .collect()),
        // A factor compares its codes (R's duplicated/unique of the
        // integer vector underneath); NA apart from every code.
        Value::Factor(f) => Ok(f
            .codes
            .iter()
            .map(|c| Key::Num(c.map_or(u64::MAX, u64::from)))
            .collect()),
        other => Err(KernelError::new(format!(
            "{func}() applies only to vectors, not {}",
            other.type_name()
        ))),
    }
}

/// Whether each element repeats one before it.
fn repeats(keys: &[Key]) -> Vec<bool> {
    repeats_from(keys, false)
}

/// Whether each key repeats one before it, or after it when `from_last`.
fn repeats_from<K: std::hash::Hash + Eq>(keys: &[K], from_last: bool) -> Vec<bool> {
    let mut seen = FastSet::default();
    if from_last {
        let mut d: Vec<bool> = keys.iter().rev().map(|k| !seen.insert(k)).collect();
        d.reverse();
        d
    } else {
        keys.iter().map(|k| !seen.insert(k)).collect()
    }
}

/// The rows of a matrix or data frame, each as its elements' keys: what
/// R's duplicated.matrix and duplicated.data.frame compare. `None` for a
/// vector.
fn row_keys<'a>(x: &'a Value, func: &str) -> Result<Option<Vec<Vec<Key<'a>>>>, KernelError> {
    let (rows, columns): (usize, Vec<Vec<Key>>) = match x {
        Value::Mat(_) | Value::BoolMat(_) | Value::StrMat(_) => {
            let (r, c) = x.dims().unwrap_or((0, 0));
            let k = keys(x, func)?;
            let columns = (0..c).map(|j| k[j * r..(j + 1) * r].to_vec()).collect();
            (r, columns)
        }
        _ => match crate::kernels::frame::as_frame(x) {
            Some(frame) => (
                crate::kernels::frame::nrow(frame),
                frame
                    .items
                    .iter()
                    .map(|c| keys(crate::kernels::names::bare(c), func))
                    .collect::<Result<_, _>>()?,
            ),
            None => return Ok(None),
        },
    };
    Ok(Some(
        (0..rows)
            .map(|i| columns.iter().filter_map(|c| c.get(i).copied()).collect())
            .collect(),
    ))
}

pub(super) fn duplicated_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    Ok(Value::Bool(
        duplicates(args, x)?.into_iter().map(Some).collect(),
    ))
}

/// R's duplicated(x, incomparables, fromLast): whether each element
/// repeats one before it (after it, fromLast = TRUE); the values of
/// `incomparables` (unless it is FALSE) are never duplicates.
pub(super) fn duplicates(args: &Args<&Value>, x: &Value) -> Result<Vec<bool>, KernelError> {
    let from_last = args.bool_or("fromLast", false)?;
    let inc = args
        .get("incomparables")
        .map(crate::kernels::names::bare)
        .filter(|v| !matches!(v, Value::Bool(b) if b == &[Some(false)]));
    // A matrix's or data frame's rows (duplicated.matrix with MARGIN 1,
    // duplicated.data.frame).
    if let Some(rows) = row_keys(x, args.func)? {
        if inc.is_some() {
            return Err(KernelError::new(
                "argument 'incomparables != FALSE' is not used (yet)",
            ));
        }
        return Ok(repeats_from(&rows, from_last));
    }
    let k = keys(x, args.func)?;
    let mut dup = repeats_from(&k, from_last);
    if let Some(inc) = inc {
        let ik = keys(inc, args.func)?;
        let never: FastSet<&Key> = ik.iter().collect();
        for (d, k) in dup.iter_mut().zip(&k) {
            if never.contains(k) {
                *d = false;
            }
        }
    }
    Ok(dup)
}

pub(super) fn duplicated_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x");
    if let Some(fields) = x.and_then(crate::kernels::frame::frame_fields) {
        let rows = fields.first().and_then(|(_, t)| t.len());
        return Ok(Type::logical(rows));
    }
    check(args, "x")?;
    let len = match x {
        Some(Type::Mat { rows, .. } | Type::BoolMat { rows, .. } | Type::StrMat { rows, .. }) => {
            *rows
        }
        t => t.and_then(Type::len),
    };
    Ok(Type::logical(len))
}

pub(super) fn set_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let func = args.func;
    let x = super::arg_or_null(args, "x");
    let y = super::arg_or_null(args, "y");
    let both = combine(&[x, y])?;
    let k = keys(&both, func)?;
    // unique(c(as.vector(x), as.vector(y))): one pass over both.
    if func == "union" {
        let keep: Vec<usize> = repeats(&k)
            .iter()
            .enumerate()
            .filter(|(_, r)| !**r)
            .map(|(i, _)| i)
            .collect();
        return Ok(pick(&both, &keep));
    }
    let (kx, ky) = k.split_at(x.len().min(k.len()));
    let first = repeats(kx);
    let in_y: FastSet<&Key> = ky.iter().collect();
    Ok(match func {
        // c(u[!duplicated(u) & match(u, v, 0) > 0], v[0])
        "intersect" => {
            let keep: Vec<usize> = (0..kx.len())
                .filter(|&i| !first[i] && in_y.contains(&kx[i]))
                .collect();
            pick(&both, &keep)
        }
        // u[!duplicated(u) & match(u, v, 0) == 0]
        _ => {
            let keep: Vec<usize> = (0..kx.len())
                .filter(|&i| !first[i] && !in_y.contains(&kx[i]))
                .collect();
            match x {
                Value::Null => Value::Null,
                Value::Mat(_) => pick(
                    &Value::Num(x.as_f64_slice().unwrap_or_default().into_owned()),
                    &keep,
                ),
                _ => pick(x, &keep),
            }
        }
    })
}

fn check(args: &Args<Type>, name: &str) -> Result<(), ArgError> {
    match args.ty(name) {
        None
        | Some(
            Type::Any
            | Type::Null
            | Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::StrMat { .. }
            | Type::Factor { .. }
            | Type::Str { .. },
        ) => Ok(()),
        Some(t) => Err(args.error(
            name,
            format!(
                "{}() applies only to vectors, not {}",
                args.func,
                t.describe()
            ),
        )),
    }
}

pub(super) fn set_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check(args, "x")?;
    check(args, "y")?;
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let y = args.ty("y").cloned().unwrap_or(Type::Null);
    if matches!(x, Type::Any) || matches!(y, Type::Any) {
        return Ok(Type::Any);
    }
    let text = matches!(x, Type::Str { .. }) || matches!(y, Type::Str { .. });
    let logical = |t: &Type| matches!(t, Type::Bool { .. } | Type::BoolMat { .. } | Type::Null);
    let of = if args.func == "setdiff" {
        x.clone()
    } else if text {
        Type::Str {
            len: None,
            value: None,
        }
    } else if logical(&x) && logical(&y) {
        Type::logical(None)
    } else {
        Type::num_unknown()
    };
    Ok(match of {
        Type::Null => Type::Null,
        Type::Mat { .. } => Type::num_unknown(),
        Type::BoolMat { .. } => Type::logical(None),
        other => like(&other, None),
    })
}

/// R's anyDuplicated(x, incomparables, fromLast): the position of the
/// first element that repeats one before it (scanning from the end for
/// fromLast, which finds the last), 0 when none does. A matrix is
/// anyDuplicated.matrix's: its rows compared whole (MARGIN = 1).
pub(super) fn any_duplicated_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = crate::kernels::names::bare(super::arg_or_null(args, "x"));
    let from_last = args.bool_or("fromLast", false)?;
    let dup = duplicates(args, x)?;
    let at = if from_last {
        dup.iter().rposition(|&d| d)
    } else {
        dup.iter().position(|&d| d)
    };
    Ok(Value::scalar(at.map_or(0.0, |i| (i + 1) as f64)))
}

pub(super) fn any_duplicated_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args
        .ty("x")
        .and_then(crate::kernels::frame::frame_fields)
        .is_none()
    {
        check(args, "x")?;
    }
    Ok(Type::num(1))
}

/// R's setequal(x, y): every element of each is matched in the other,
/// the two compared in the type `c(x, y)` has, as `match` compares them.
pub(super) fn setequal_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let y = super::arg_or_null(args, "y");
    let both = combine(&[x, y])?;
    let k = keys(&both, args.func)?;
    let (kx, ky) = k.split_at(x.len().min(k.len()));
    let in_x: FastSet<&Key> = kx.iter().collect();
    let in_y: FastSet<&Key> = ky.iter().collect();
    let equal = kx.iter().all(|k| in_y.contains(k)) && ky.iter().all(|k| in_x.contains(k));
    Ok(Value::Bool(vec![Some(equal)]))
}

pub(super) fn setequal_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check(args, "x")?;
    check(args, "y")?;
    Ok(Type::logical(Some(1)))
}
