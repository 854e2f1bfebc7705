//! `prettyNum`, as R 4.2.2's (format.R): what is not text is first
//! formatted element by element with `format` (the marks passed on), then
//! the marks go into the text before and after `input.d.mark` with R's
//! regular expressions, and the widths are evened as `preserve.width`
//! asks.

use regex::Regex;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::factor::as_text;
use crate::kernels::names::bare;
use crate::kernels::{registry, Ctx, KernelError, ShapeCtx, Type, Value};

use super::grep::match_arg;

/// A one-string argument (R reads the first; an empty one is refused as
/// R's `==` on it would be).
fn mark(args: &Args<&Value>, name: &str, default: &str) -> Result<String, KernelError> {
    match args.get(name).map(bare) {
        None => Ok(default.to_string()),
        Some(Value::Str(s)) if !s.is_empty() => Ok(s[0].clone()),
        Some(Value::Str(_)) => Err(KernelError::new("argument is of length zero")),
        Some(v) => Err(KernelError::new(format!(
            "invalid '{name}' argument: {}",
            v.type_name()
        ))),
    }
}

/// `big.interval` or `small.interval`: the count R pastes into `{n}`.
fn interval(args: &Args<&Value>, name: &str, default: usize) -> Result<usize, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => match v.as_scalar() {
            Some(x) if (1.0..1e6).contains(&x) => Ok(x as usize),
            _ => Err(KernelError::new(format!("invalid '{name}' argument"))),
        },
    }
}

fn reversed(s: &str) -> String {
    s.chars().rev().collect()
}

fn regex(pattern: &str) -> Result<Regex, KernelError> {
    Regex::new(pattern).map_err(|e| KernelError::new(e.to_string()))
}

/// R's `strsplit(x, d, fixed = TRUE)` of one string: the pieces, a
/// trailing empty one dropped, none for the empty string.
fn split_fixed(s: &str, d: &str) -> Vec<String> {
    let mut parts: Vec<String> = s.split(d).map(str::to_string).collect();
    if parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}

/// The text R formats each element of a non-text `x` to:
/// `vapply(x, format, "", big.mark = ..., ...)`.
fn formatted(
    x: &Value,
    args: &Args<&Value>,
    ctx: &mut Ctx,
) -> Result<Vec<Option<String>>, KernelError> {
    let k = registry().get("format").expect("format is registered");
    let passed = [
        "big.mark",
        "big.interval",
        "small.mark",
        "small.interval",
        "decimal.mark",
        "drop0trailing",
    ];
    let n = x.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let one = super::pick(x, &[i]);
        let mut given: Vec<(Option<String>, &Value)> = vec![(None, &one)];
        for p in passed {
            if let Some(v) = args.get(p) {
                given.push((Some(p.to_string()), v));
            }
        }
        for (name, v) in args.dots() {
            given.push((name.map(str::to_string), v));
        }
        let matched =
            Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
        let s = k.call(&matched, ctx)?;
        match bare(&s) {
            Value::Str(v) if v.len() == 1 => out.push(Some(v[0].clone())),
            _ => return Err(KernelError::new("values must be length 1")),
        }
    }
    Ok(out)
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = bare(
        args.get("x")
            .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?,
    );
    if args
        .get("zero.print")
        .is_some_and(|z| !matches!(z, Value::Null))
    {
        return Err(KernelError::new(
            "prettyNum(): flowcast does not support zero.print",
        ));
    }
    let big = mark(args, "big.mark", "")?;
    let small = mark(args, "small.mark", "")?;
    let decimal = mark(args, "decimal.mark", ".")?;
    let input = mark(args, "input.d.mark", &decimal)?;
    let big_interval = interval(args, "big.interval", 3)?;
    let small_interval = interval(args, "small.interval", 5)?;
    let drop0 = args.bool_or("drop0trailing", false)?;
    let not_char = !matches!(x, Value::Str(_));
    if matches!(x, Value::Complex(_) | Value::ComplexMat(_)) {
        return Err(KernelError::new(
            "prettyNum(): flowcast does not format complex numbers here",
        ));
    }
    let texts: Vec<Option<String>> = if not_char {
        match x {
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) | Value::Null => {
                formatted(x, args, ctx)?
            }
            Value::Factor(_) => as_text(x).unwrap_or_default(),
            _ => {
                return Err(KernelError::new(format!(
                    "prettyNum(): cannot format {}",
                    x.type_name()
                )))
            }
        }
    } else {
        as_text(x).unwrap_or_default()
    };
    let as_value = |t: Vec<Option<String>>| {
        Value::Str(
            t.into_iter()
                .map(|s| s.unwrap_or_else(|| "NA".to_string()))
                .collect(),
        )
    };
    let n_mark = big.is_empty() && small.is_empty() && (not_char || decimal == input);
    if big == decimal {
        ctx.warn(format!(
            "'big.mark' and 'decimal.mark' are both '{big}', which could be confusing"
        ));
    }
    if n_mark && !drop0 {
        // A character x comes back as it was (with its shape).
        return Ok(if not_char { as_value(texts) } else { x.clone() });
    }
    let preserve = match args.get("preserve.width").map(bare) {
        None => "common",
        Some(Value::Str(s)) if s.len() == 1 => match_arg(&s[0], &["common", "individual", "none"])?,
        Some(Value::Str(s)) if s == &["common", "individual", "none"] => "common",
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    // is.cmplx: a formatted complex number ("1+2i") takes R's other route.
    let cmplx = regex("[0-9].*[-+][0-9].*i$")?;
    if texts
        .iter()
        .flatten()
        .any(|s| s != "NA" && cmplx.is_match(s))
    {
        return Err(KernelError::new(
            "prettyNum(): flowcast does not format complex numbers here",
        ));
    }
    if input.is_empty() {
        return Err(KernelError::new("'input.d.mark' has no characters"));
    }
    let big_re = regex(&format!("[0-9]{{{},}}", big_interval + 1))?;
    let big_sub = regex(&format!(r"([0-9]{{{big_interval}}})\B"))?;
    let small_re = regex(&format!("[0-9]{{{},}}", small_interval + 1))?;
    let small_sub = regex(&format!(r"([0-9]{{{small_interval}}}\B)"))?;
    let e_zeros = regex("e[+-]0+$")?;
    let zeros = regex("0+$")?;
    let mut out = Vec::with_capacity(texts.len());
    let mut grew = Vec::with_capacity(texts.len());
    for t in &texts {
        // strsplit of NA is NA: B. is NA, A. empty.
        let parts = match t {
            None => Vec::new(),
            Some(s) => {
                let mut p = split_fixed(s, &input);
                if p.len() > 2 {
                    let last = p.pop().unwrap_or_default();
                    p = vec![p.join(&input), last];
                }
                p
            }
        };
        let mut b = parts.first().cloned().unwrap_or_else(|| "NA".to_string());
        let a_missing = parts.len() < 2;
        let mut a = parts.get(1).cloned().unwrap_or_default();
        if !big.is_empty() && big_re.is_match(&b) {
            let rev = reversed(&b);
            let with = big_sub.replace_all(&rev, |c: &regex::Captures| {
                format!("{}{}", &c[1], reversed(&big))
            });
            b = reversed(&with);
        }
        if !small.is_empty() && small_re.is_match(&a) {
            a = small_sub
                .replace_all(&a, |c: &regex::Captures| format!("{}{}", &c[1], small))
                .into_owned();
        }
        let mut empty = a_missing;
        if drop0 && !a_missing {
            a = if a.contains('e') {
                e_zeros.replace(&a, "").into_owned()
            } else {
                zeros.replace(&a, "").into_owned()
            };
        }
        if drop0 {
            empty = a.is_empty();
        }
        let s = if empty {
            format!("{b}{a}")
        } else {
            format!("{b}{decimal}{a}")
        };
        let before = t.as_deref().unwrap_or("NA").chars().count();
        grew.push(s.chars().count().saturating_sub(before));
        out.push(s);
    }
    if grew.iter().any(|&g| g > 0) {
        match preserve {
            "individual" => {
                for (s, &g) in out.iter_mut().zip(&grew) {
                    if g > 0 {
                        let blanks = s.chars().take_while(|&c| c == ' ').count().min(g);
                        *s = s.chars().skip(blanks).collect();
                    }
                }
            }
            "common" => {
                let w = out.iter().map(|s| s.chars().count()).max().unwrap_or(0);
                for s in &mut out {
                    let pad = w - s.chars().count();
                    *s = format!("{}{s}", " ".repeat(pad));
                }
            }
            _ => {}
        }
    }
    Ok(Value::Str(out))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    match x {
        Type::Record { .. } | Type::Formula { .. } | Type::List { .. } => {
            Err(args.error("x", format!("prettyNum(): cannot format {}", x.describe())))
        }
        _ => Ok(Type::Str {
            len: x.len(),
            value: None,
        }),
    }
}
