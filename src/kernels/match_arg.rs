//! `match.arg(arg, choices, several.ok)`: R's base::match.arg, which picks
//! an argument's value among its choices by partial matching.
//!
//! Called as `match.arg(type)` inside `function(type = c("a", "b"))`, R
//! reads the choices from the function's formals; the parser writes them
//! in as `choices` at such a call (`parser::match_arg`), so this kernel
//! always has them when R would.

use super::args::{ArgError, Args};
use super::names::bare;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "match.arg",
    params: &[req("arg"), opt("choices"), opt("several.ok")],
    random: false,
    shape,
    eval,
}];

const NOT_CHARACTER: &str = "'arg' must be NULL or a character vector";

/// The strings pmatch compares: as.character of the choices.
fn texts(v: &Value) -> Vec<String> {
    super::factor::as_text(bare(v))
        .unwrap_or_default()
        .into_iter()
        .map(|t| t.unwrap_or_else(|| "NA".to_string()))
        .collect()
}

/// R's pmatch of one string with `duplicates.ok = TRUE`: an exact match,
/// else the one choice it is a prefix of (none when several are, or when
/// it is empty).
pub(super) fn pmatch(s: &str, table: &[String]) -> Option<usize> {
    if s.is_empty() {
        return None;
    }
    if let Some(i) = table.iter().position(|t| t == s) {
        return Some(i);
    }
    let mut hits = table.iter().enumerate().filter(|(_, t)| t.starts_with(s));
    match (hits.next(), hits.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// R's `dQuote` in a UTF-8 locale.
fn quoted(s: &str) -> String {
    format!("\u{201c}{s}\u{201d}")
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let arg = args
        .get("arg")
        .map(bare)
        .ok_or_else(|| KernelError::new("argument \"arg\" is missing, with no default"))?;
    let choices = args.get("choices").map_or(Value::Null, |c| bare(c).clone());
    let several = args.bool_or("several.ok", false)?;
    let first = || super::index::index(&choices, &[Some(Value::scalar(1.0))]);
    let arg = match arg {
        Value::Null => return first(),
        Value::Str(s) => s,
        _ => return Err(KernelError::new(NOT_CHARACTER)),
    };
    let table = texts(&choices);
    if !several {
        if matches!(&choices, Value::Str(c) if c == arg) {
            // `arg[1L]`: NA when both are empty.
            return first();
        }
        if arg.len() > 1 {
            return Err(KernelError::new("'arg' must be of length 1"));
        }
    } else if arg.is_empty() {
        return Err(KernelError::new("'arg' must be of length >= 1"));
    }
    let hits: Vec<usize> = arg.iter().filter_map(|a| pmatch(a, &table)).collect();
    if hits.is_empty() {
        let mut shown: Vec<&String> = Vec::new();
        for c in table.iter().filter(|c| !c.is_empty()) {
            if !shown.contains(&c) {
                shown.push(c);
            }
        }
        let list: Vec<String> = shown.iter().map(|c| quoted(c)).collect();
        let should = if shown.len() == 1 {
            "should be"
        } else {
            "should be one of"
        };
        return Err(KernelError::new(format!(
            "'arg' {should} {}",
            list.join(", ")
        )));
    }
    let at = Value::Num(hits.iter().map(|&i| (i + 1) as f64).collect());
    super::index::index(&choices, &[Some(at)])
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("arg") {
        None | Some(Type::Null | Type::Str { .. } | Type::Any) => {}
        Some(_) => return Err(args.error("arg", NOT_CHARACTER)),
    }
    let several = match args.ty("several.ok").map(Type::const_scalar) {
        None => false,
        Some(Some(x)) => x != 0.0,
        Some(None) => true,
    };
    Ok(match args.ty("choices") {
        Some(Type::Str { .. }) | None => Type::Str {
            len: (!several).then_some(1),
            value: None,
        },
        _ => Type::Any,
    })
}
