//! `strtrim(x, width)`: each string cut to a display width, as R 4.2.2's
//! do_strtrim (character.c) after strtrim's `as.character` at R level.
//! Widths are terminal columns (a CJK character takes two, a combining
//! mark none), so a cut never splits a character.

use unicode_width::UnicodeWidthChar;

use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// The display width of one character, as the C library's `wcwidth`:
/// `None` for a character that does not print (a control character).
pub(crate) fn char_width(c: char) -> Option<usize> {
    if c == '\0' {
        return Some(0);
    }
    c.width()
}

/// R's `nchar(s, type = "w")`: the width of what prints.
pub(crate) fn display_width(s: &str) -> usize {
    s.chars().filter_map(char_width).sum()
}

pub(super) fn strtrim_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    if matches!(
        x,
        Type::List { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(args.error("x", "strtrim() requires a character vector"));
    }
    Ok(Type::Str {
        len: x.len(),
        value: None,
    })
}

/// R's `as.integer(width)`: doubles truncated toward zero, NA kept NA.
fn int_widths(v: &Value) -> Option<Vec<Option<i64>>> {
    let nums = v.as_f64_slice()?;
    Some(
        nums.iter()
            .map(|&w| (w.is_finite() && w.abs() < 2147483648.0).then(|| w.trunc() as i64))
            .collect(),
    )
}

pub(super) fn strtrim_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let texts =
        as_character(x).ok_or_else(|| KernelError::new("strtrim() requires a character vector"))?;
    strtrim(&texts, args.get("width")).map(|v| {
        Value::Str(
            v.into_iter()
                .map(|s| s.unwrap_or_else(|| "NA".into()))
                .collect(),
        )
    })
}

/// do_strtrim: widths recycled over `x` (a count that does not divide
/// its length, or an NA or negative width, is R's invalid 'width'), NA
/// kept NA, characters that do not print skipped.
pub(crate) fn strtrim(
    texts: &[Option<String>],
    width: Option<&Value>,
) -> Result<Vec<Option<String>>, KernelError> {
    let invalid = || KernelError::new("invalid 'width' argument");
    if texts.is_empty() {
        return Ok(Vec::new());
    }
    let width = match width {
        Some(w) => int_widths(w).ok_or_else(invalid)?,
        None => {
            return Err(KernelError::new(
                "argument \"width\" is missing, with no default",
            ))
        }
    };
    let (len, nw) = (texts.len(), width.len());
    if nw == 0 || (nw < len && len % nw != 0) {
        return Err(invalid());
    }
    let width: Vec<i64> = width
        .into_iter()
        .map(|w| w.filter(|&w| w >= 0).ok_or_else(invalid))
        .collect::<Result<_, _>>()?;
    Ok(texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let t = t.as_ref()?;
            let w = width[i % nw];
            let mut wsum = 0i64;
            let mut out = String::new();
            for c in t.chars() {
                let Some(w0) = char_width(c) else {
                    continue;
                };
                wsum += w0 as i64;
                if wsum <= w {
                    out.push(c);
                } else {
                    break;
                }
            }
            Some(out)
        })
        .collect())
}
