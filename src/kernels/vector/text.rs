//! Text: `toupper`, `tolower` and `nchar` (type "chars"), element by
//! element, NA kept NA; `startsWith`, `endsWith` and `chartr`. Numbers
//! are read as `as.character` writes them.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::r_num_to_string;
use crate::kernels::factor::{as_text, text_is_na};
use crate::kernels::value::{is_na, NA};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

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
    Ok(Value::Num(
        texts(args)?
            .into_iter()
            .map(|t| t.map_or(NA, |s| s.chars().count() as f64))
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
