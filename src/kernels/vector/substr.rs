//! `substr(x, start, stop)` and `substring(text, first, last)`, following
//! R's `do_substr` (character.c): positions count characters, not bytes;
//! `start` below 1 is 1, `stop` past the end is the end, `start > stop`
//! is ""; NA text or an NA position gives NA. `substring` is R's wrapper:
//! the text recycled to the longest of its three arguments first.

use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// R's `as.integer(v)`: numbers truncated, NA outside the integer range
/// and for text that is no number (with R's warnings).
fn as_integer(v: &Value, ctx: &mut Ctx) -> Result<Vec<Option<i64>>, KernelError> {
    let mut range = false;
    let mut text = false;
    let mut int = |x: f64| {
        if x.is_nan() {
            None
        } else if x >= 2_147_483_648.0 || x <= -2_147_483_648.0 {
            range = true;
            None
        } else {
            Some(x.trunc() as i64)
        }
    };
    let out = match v {
        Value::Null => Vec::new(),
        Value::Str(s) => s
            .iter()
            .map(|s| {
                if s == "NA" {
                    return None;
                }
                match s.trim().parse::<f64>() {
                    Ok(x) => int(x),
                    Err(_) => {
                        text = true;
                        None
                    }
                }
            })
            .collect(),
        Value::Factor(f) => f.integer_codes().into_iter().map(&mut int).collect(),
        other => other
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("invalid substring arguments"))?
            .iter()
            .map(|&x| int(x))
            .collect(),
    };
    if text {
        ctx.warn("NAs introduced by coercion");
    }
    if range {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    Ok(out)
}

/// Characters `start..=stop` (from 1) of `s`.
fn chars_between(s: &str, start: i64, stop: i64) -> String {
    let start = start.max(1);
    if start > stop {
        return String::new();
    }
    s.chars()
        .skip((start - 1) as usize)
        .take((stop - start + 1) as usize)
        .collect()
}

/// `do_substr`: `x` along its own length, positions recycled.
fn substr(
    x: &[Option<String>],
    start: &[Option<i64>],
    stop: &[Option<i64>],
) -> Result<Vec<String>, KernelError> {
    if x.is_empty() {
        return Ok(Vec::new());
    }
    if start.is_empty() || stop.is_empty() {
        return Err(KernelError::new("invalid substring arguments"));
    }
    Ok(x.iter()
        .enumerate()
        .map(
            |(i, s)| match (s, start[i % start.len()], stop[i % stop.len()]) {
                (Some(s), Some(a), Some(b)) => chars_between(s, a, b),
                _ => "NA".to_string(),
            },
        )
        .collect())
}

fn text(args: &Args<&Value>, name: &str) -> Result<Vec<Option<String>>, KernelError> {
    as_character(args.get(name).unwrap_or(&Value::Null))
        .ok_or_else(|| KernelError::new("extracting substrings from a non-character object"))
}

pub(super) fn substr_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = text(args, "x")?;
    let start = as_integer(super::arg_or_null(args, "start"), ctx)?;
    let stop = as_integer(super::arg_or_null(args, "stop"), ctx)?;
    substr(&x, &start, &stop).map(Value::Str)
}

pub(super) fn substring_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let mut x = text(args, "text")?;
    let first = as_integer(super::arg_or_null(args, "first"), ctx)?;
    let last = match args.get("last") {
        None => vec![Some(1_000_000)],
        Some(v) => as_integer(v, ctx)?,
    };
    let n = x.len().max(first.len()).max(last.len());
    if !x.is_empty() && x.len() < n {
        x = (0..n).map(|i| x[i % x.len()].clone()).collect();
    }
    substr(&x, &first, &last).map(Value::Str)
}

fn text_type(args: &Args<Type>, name: &str) -> Result<Option<usize>, ArgError> {
    match args.ty(name) {
        None => Ok(Some(0)),
        Some(Type::Record { .. } | Type::Formula { .. } | Type::Complex { .. }) => {
            Err(args.error(name, "extracting substrings from a non-character object"))
        }
        Some(t) => Ok(t.len()),
    }
}

pub(super) fn substr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: text_type(args, "x")?,
        value: None,
    })
}

pub(super) fn substring_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let lens = [
        text_type(args, "text")?,
        args.ty("first").and_then(Type::len),
        args.ty("last").map_or(Some(1), Type::len),
    ];
    let len = match lens {
        [Some(0), ..] => Some(0),
        [Some(a), Some(b), Some(c)] => Some(a.max(b).max(c)),
        _ => None,
    };
    Ok(Type::Str { len, value: None })
}
