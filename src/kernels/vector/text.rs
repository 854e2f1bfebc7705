//! Text: `toupper`, `tolower`, `casefold` and `nchar` (type "chars"),
//! element by element, NA kept NA; `startsWith`, `endsWith` and `chartr`;
//! `strtoi`, as C's `strtol`. Numbers are read as `as.character` writes
//! them.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::r_num_to_string;
use crate::kernels::factor::{as_text, text_is_na};
use crate::kernels::names::bare;
use crate::kernels::value::{is_na, NA};
use crate::kernels::{registry, Ctx, KernelError, ShapeCtx, Type, Value};

fn texts(args: &Args<&Value>) -> Result<Vec<Option<String>>, KernelError> {
    let x = super::arg_or_null(args, "x");
    as_text(x).ok_or_else(|| {
        KernelError::new(format!(
            "{}() needs a character vector, not {}",
            args.func,
            x.type_name()
        ))
    })
}

pub(super) fn case_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let upper = args.func == "toupper";
    Ok(Value::Str(
        texts(args)?
            .into_iter()
            .map(|t| match t {
                None => "NA".to_string(),
                Some(s) if upper => s.to_uppercase(),
                Some(s) => s.to_lowercase(),
            })
            .collect(),
    ))
}

pub(super) fn nchar_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // R's do_nchar: a factor is refused; `type` is any prefix of "bytes",
    // "chars" or "width" (tried in that order); keepNA = NA keeps NA as NA
    // except for "width", where NA counts 2.
    if matches!(bare(super::arg_or_null(args, "x")), Value::Factor(_)) {
        return Err(KernelError::new("'nchar()' requires a character vector"));
    }
    let ty = match args.get("type") {
        None => "chars",
        Some(Value::Str(s)) if s.len() == 1 && !s[0].is_empty() => ["bytes", "chars", "width"]
            .into_iter()
            .find(|t| t.starts_with(s[0].as_str()))
            .ok_or_else(|| KernelError::new("invalid 'type' argument"))?,
        Some(_) => return Err(KernelError::new("invalid 'type' argument")),
    };
    let keep_na = match args.get("keepNA") {
        None => None,
        Some(Value::Bool(b)) if b.len() == 1 => b[0],
        Some(_) => return Err(KernelError::new("invalid 'keepNA' argument")),
    };
    let na = match keep_na {
        Some(true) => NA,
        Some(false) => 2.0,
        None if ty == "width" => 2.0,
        None => NA,
    };
    Ok(Value::Num(
        texts(args)?
            .into_iter()
            .map(|t| match t {
                None => na,
                Some(s) if ty == "bytes" => s.len() as f64,
                Some(s) => s.chars().count() as f64,
            })
            .collect(),
    ))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::List { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(args.error(
            "x",
            format!(
                "{}() needs a character vector, not {}",
                args.func,
                x.describe()
            ),
        ));
    }
    let len = x.len();
    Ok(if args.func == "nchar" {
        Type::Num { len, value: None }
    } else {
        Type::Str { len, value: None }
    })
}

/// R's `as.character(x)` as the string functions apply it to their
/// argument: numbers with 15 significant digits (NaN as "NaN"), logicals,
/// a factor's labels, a list of single values; `None` for NA. `None`
/// overall for what `as.character` would not read.
pub(super) fn as_character(x: &Value) -> Option<Vec<Option<String>>> {
    match x {
        Value::Num(_) | Value::Mat(_) => Some(
            x.as_f64_slice()?
                .iter()
                .map(|&v| (!is_na(v)).then(|| r_num_to_string(v)))
                .collect(),
        ),
        Value::List(l) => l
            .items
            .iter()
            .map(|item| match as_character(item) {
                Some(mut v) if v.len() == 1 => Some(v.remove(0)),
                _ => None,
            })
            .collect(),
        _ => as_text(x),
    }
}

/// `startsWith(x, prefix)` and `endsWith(x, suffix)`, as R's
/// `do_startsWith`: both must be text, recycled to the longer; NA in
/// either gives NA.
pub(super) fn affix_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (second, starts) = match args.func {
        "startsWith" => ("prefix", true),
        _ => ("suffix", false),
    };
    let strings = |name: &str| match args.get(name) {
        Some(Value::Str(s)) => Ok(s),
        _ => Err(KernelError::new("non-character object(s)")),
    };
    let (x, fix) = (strings("x")?, strings(second)?);
    if x.is_empty() || fix.is_empty() {
        return Ok(Value::Bool(Vec::new()));
    }
    let n = x.len().max(fix.len());
    Ok(Value::Bool(
        (0..n)
            .map(|i| {
                let (s, f) = (&x[i % x.len()], &fix[i % fix.len()]);
                if text_is_na(s) || text_is_na(f) {
                    None
                } else if starts {
                    Some(s.starts_with(f.as_str()))
                } else {
                    Some(s.ends_with(f.as_str()))
                }
            })
            .collect(),
    ))
}

pub(super) fn affix_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let second = if args.func == "startsWith" {
        "prefix"
    } else {
        "suffix"
    };
    let mut lens = [None; 2];
    for (k, name) in ["x", second].into_iter().enumerate() {
        match args.ty(name) {
            Some(t @ (Type::Str { .. } | Type::Any)) => lens[k] = t.len(),
            _ => return Err(args.error(name, "non-character object(s)")),
        }
    }
    let len = match lens {
        [Some(0), _] | [_, Some(0)] => Some(0),
        [Some(a), Some(b)] => Some(a.max(b)),
        _ => None,
    };
    Ok(Type::logical(len))
}

/// The characters of a `chartr` specification, as R's `wtr_build_spec`
/// reads it: `a-c` is a range, except in the last two characters.
fn tr_spec(s: &str) -> Result<Vec<char>, KernelError> {
    let c: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < c.len() {
        if c[i + 1] == '-' {
            if c[i] > c[i + 2] {
                return Err(KernelError::new(format!(
                    "decreasing range specification ('{}-{}')",
                    c[i],
                    c[i + 2]
                )));
            }
            out.extend(c[i]..=c[i + 2]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out.extend(&c[i..]);
    Ok(out)
}

/// `chartr(old, new, x)`, as R's `do_chartr`: each character of `old`
/// becomes the one at its place in `new` (a later repeat in `old` wins).
pub(super) fn chartr_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let mut spec = |name: &str| -> Result<Vec<char>, KernelError> {
        match args.get(name) {
            Some(Value::Str(s)) if !s.is_empty() && !text_is_na(&s[0]) => {
                if s.len() > 1 {
                    ctx.warn(format!(
                        "argument '{name}' has length > 1 and only the first element will be used"
                    ));
                }
                tr_spec(&s[0])
            }
            _ => Err(KernelError::new(format!("invalid '{name}' argument"))),
        }
    };
    let old = spec("old")?;
    let new = spec("new")?;
    if old.len() > new.len() {
        return Err(KernelError::new("'old' is longer than 'new'"));
    }
    let table: std::collections::HashMap<char, char> = old.into_iter().zip(new).collect();
    let x = as_character(super::arg_or_null(args, "x"))
        .ok_or_else(|| KernelError::new("invalid 'x' argument"))?;
    Ok(Value::Str(
        x.into_iter()
            .map(|s| match s {
                None => "NA".to_string(),
                Some(s) => s.chars().map(|c| *table.get(&c).unwrap_or(&c)).collect(),
            })
            .collect(),
    ))
}

pub(super) fn chartr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["old", "new"] {
        if !matches!(args.ty(name), Some(Type::Str { .. } | Type::Any)) {
            return Err(args.error(name, format!("invalid '{name}' argument")));
        }
    }
    Ok(Type::Str {
        len: args.ty("x").and_then(Type::len),
        value: None,
    })
}

pub(super) fn casefold_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let upper = match args.get("upper") {
        Some(v) => crate::kernels::logical::if_condition(v)?,
        None => false,
    };
    let k = registry()
        .get(if upper { "toupper" } else { "tolower" })
        .expect("toupper and tolower are registered");
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let matched = Args::match_call(k.name, k.params, vec![(None, x)])
        .map_err(|e| KernelError::new(e.message))?;
    k.call(&matched, ctx)
}

pub(super) fn casefold_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let k = registry().get("toupper").expect("toupper is registered");
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    let matched = Args::match_call(k.name, k.params, vec![(None, x)])?;
    (k.shape)(&matched, ctx).map_err(|e| ArgError {
        arg: args.position("x"),
        message: e.message,
    })
}

/// C's `strtol(s, &end, base)` as glibc parses in the C locale: `None`
/// when no digit was read, the value may not fit, or text follows it.
fn strtol(s: &str, base: u32) -> Option<i64> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let negative = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digit = |c: u8, base: u32| (c as char).to_digit(36).filter(|&d| d < base);
    let mut base = base;
    let hex_prefix = b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(|&c| digit(c, 16).is_some());
    if (base == 0 || base == 16) && hex_prefix {
        i += 2;
        base = 16;
    } else if base == 0 {
        base = if b.get(i) == Some(&b'0') { 8 } else { 10 };
    }
    let start = i;
    let mut value: i64 = 0;
    let mut overflow = false;
    while let Some(d) = b.get(i).and_then(|&c| digit(c, base)) {
        match value
            .checked_mul(i64::from(base))
            .and_then(|v| v.checked_add(i64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start || i != b.len() || overflow {
        return None;
    }
    Some(if negative { -value } else { value })
}

pub(super) fn strtoi_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let invalid = || KernelError::new("invalid 'base' argument");
    // R 4.2.2's default is 0L (prefixes choose the base), not the 10L
    // its help page shows.
    let base = match args.get("base") {
        None => 0.0,
        Some(v) => *crate::kernels::complex::reals(Some(v))?
            .first()
            .ok_or_else(invalid)?,
    };
    let base = base.trunc();
    if base.is_nan() || (base != 0.0 && !(2.0..=36.0).contains(&base)) {
        return Err(invalid());
    }
    let base = base as u32;
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    // as.character(x): numbers as R writes them.
    let text = crate::kernels::factor::as_text(bare(x))
        .ok_or_else(|| KernelError::new("flowcast's strtoi() needs text"))?;
    Ok(Value::Num(
        text.iter()
            .map(|t| match t.as_deref() {
                None | Some("") => NA,
                Some(s) => match strtol(s, base) {
                    // INT_MIN is NA_integer_.
                    Some(v) if v > i64::from(i32::MIN) && v <= i64::from(i32::MAX) => v as f64,
                    _ => NA,
                },
            })
            .collect(),
    ))
}

pub(super) fn strtoi_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(b) = args.ty("base").and_then(Type::const_scalar) {
        if b.is_nan() || (b.trunc() != 0.0 && !(2.0..=36.0).contains(&b.trunc())) {
            return Err(args.error("base", "invalid 'base' argument"));
        }
    }
    Ok(Type::Num {
        len: args.ty("x").and_then(Type::len),
        value: None,
    })
}

/// `strrep(x, times)`, as R's do_strrep: each string of `as.character(x)`
/// repeated `as.integer(times)` times, both recycled to the longer; NA in
/// either gives NA, a negative count is an error.
pub(super) fn strrep_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = as_character(bare(super::arg_or_null(args, "x")))
        .ok_or_else(|| KernelError::new("invalid 'x' argument"))?;
    let times = match args.get("times") {
        Some(v) => crate::kernels::complex::reals(Some(v))?,
        None => {
            return Err(KernelError::new(
                "argument \"times\" is missing, with no default",
            ))
        }
    };
    if x.is_empty() || times.is_empty() {
        return Ok(Value::Str(Vec::new()));
    }
    let n = x.len().max(times.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        // as.integer: truncated, NA past the integers.
        let t = times[i % times.len()].trunc();
        let (Some(s), false) = (&x[i % x.len()], is_na(t) || t.abs() > f64::from(i32::MAX)) else {
            out.push("NA".to_string());
            continue;
        };
        if t < 0.0 {
            return Err(KernelError::new("invalid 'times' value"));
        }
        if s.len() as f64 * t > f64::from(i32::MAX) {
            return Err(KernelError::new(
                "R character strings are limited to 2^31-1 bytes",
            ));
        }
        // Each string may be 2 GB, and a few of them more than fits.
        crate::kernels::alloc::ensure_room(s.len() as f64 * t)?;
        out.push(s.repeat(t as usize));
    }
    Ok(Value::Str(out))
}

pub(super) fn strrep_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = match (
        args.ty("x").and_then(Type::len),
        args.ty("times").and_then(Type::len),
    ) {
        (Some(0), _) | (_, Some(0)) => Some(0),
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    };
    Ok(Type::Str { len, value: None })
}

/// R's do_nzchar: whether each string of `as.character(x)` is non-empty.
/// NA counts as non-empty (its two printed characters) unless keepNA is
/// TRUE; an NA keepNA is FALSE.
pub(super) fn nzchar_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let refused = || KernelError::new("'nzchar()' requires a character vector");
    let x = bare(super::arg_or_null(args, "x"));
    if matches!(x, Value::Factor(_)) {
        return Err(refused());
    }
    let keep_na = match args.get("keepNA").map(bare) {
        None => false,
        Some(Value::Bool(b)) => b.first().copied().flatten().unwrap_or(false),
        Some(v @ (Value::Num(_) | Value::Mat(_))) => v
            .as_f64_slice()
            .and_then(|d| d.first().copied())
            .is_some_and(|k| !k.is_nan() && k != 0.0),
        Some(Value::Str(s)) => matches!(
            s.first().map(String::as_str),
            Some("TRUE" | "true" | "T" | "True")
        ),
        Some(_) => false,
    };
    let texts = match x {
        Value::Null => Vec::new(),
        _ => super::text::as_character(x).ok_or_else(refused)?,
    };
    Ok(Value::Bool(
        texts
            .into_iter()
            .map(|t| match t {
                None if keep_na => None,
                None => Some(true),
                Some(s) => Some(!s.is_empty()),
            })
            .collect(),
    ))
}

pub(super) fn nzchar_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::Factor { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(args.error("x", "'nzchar()' requires a character vector"));
    }
    Ok(Type::logical(x.len()))
}
