//! `utf8ToInt(x)` and `intToUtf8(x, multiple, allow_surrogate_pairs)`:
//! text to Unicode code points and back, as R 4.2.2's do_utf8ToInt and
//! do_intToUtf8 (util.c).

use super::args::{ArgError, Args};
use super::factor::text_is_na;
use super::names::bare;
use super::value::NA;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "utf8ToInt",
        params: &[req("x")],
        random: false,
        shape: to_int_shape,
        eval: to_int_eval,
    },
    Kernel {
        name: "intToUtf8",
        params: &[req("x"), opt("multiple"), opt("allow_surrogate_pairs")],
        random: false,
        shape: to_utf8_shape,
        eval: to_utf8_eval,
    },
];

const ONE_STRING: &str = "argument must be a character vector of length 1";

fn to_int_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Str { len, .. }) if *len != Some(0) => Ok(Type::num_unknown()),
        Some(Type::Any) => Ok(Type::num_unknown()),
        _ => Err(args.error("x", ONE_STRING)),
    }
}

/// do_utf8ToInt: the code points of the first string; NA for NA. Rust's
/// text is valid UTF-8, so R's "invalid UTF-8" cases cannot arise.
fn to_int_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Str(s)) = args.get("x").map(bare) else {
        return Err(KernelError::new(ONE_STRING));
    };
    let Some(first) = s.first() else {
        return Err(KernelError::new(ONE_STRING));
    };
    if s.len() > 1 {
        ctx.warn(
            "argument should be a character vector of length 1\n\
             all but the first element will be ignored",
        );
    }
    if text_is_na(first) {
        return Ok(Value::Num(vec![NA]));
    }
    Ok(Value::Num(
        first.chars().map(|c| f64::from(u32::from(c))).collect(),
    ))
}

fn to_utf8_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = match args.ty("x") {
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Mat { .. })) => t.len(),
        Some(Type::Null) => Some(0),
        Some(Type::Any | Type::Str { .. }) => None,
        _ => return Err(args.error("x", "argument 'x' must be an integer vector")),
    };
    let len = match args.ty("multiple").map(Type::const_scalar) {
        None => Some(1),
        Some(Some(m)) if m != 0.0 => len,
        Some(Some(_)) => Some(1),
        Some(None) => None,
    };
    Ok(Type::Str { len, value: None })
}

/// A flag as R's `asLogical`, NA (or anything else) refused with R's words.
fn flag(args: &Args<&Value>, name: &str) -> Result<bool, KernelError> {
    let word = if name == "multiple" {
        "multiple"
    } else {
        "allow_surrogate_pairs"
    };
    let refuse = || KernelError::new(format!("argument '{word}' must be TRUE or FALSE"));
    match args.get(name).map(bare) {
        None => Ok(false),
        Some(v) => match v.as_logicals() {
            Some(b) if !b.is_empty() => b[0].ok_or_else(refuse),
            _ => Err(refuse()),
        },
    }
}

/// `coerceVector(x, INTSXP)`: numbers truncated, NA outside the integer
/// range, text read as numbers.
fn code_points(x: &Value) -> Result<Vec<Option<i64>>, KernelError> {
    let nums: Vec<f64> = match x {
        Value::Str(s) => s
            .iter()
            .map(|t| t.trim().parse::<f64>().unwrap_or(NA))
            .collect(),
        Value::Null => Vec::new(),
        v => v
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("argument 'x' must be an integer vector"))?
            .into_owned(),
    };
    Ok(nums
        .iter()
        .map(|&v| (!v.is_nan() && v.abs() < 2_147_483_648.0).then(|| v.trunc() as i64))
        .collect())
}

/// One code point's character: `None` where R gives NA (surrogates and
/// beyond U+10FFFF). Zero is the empty string, as inttomb writes it.
fn character(c: i64) -> Option<String> {
    if c == 0 {
        return Some(String::new());
    }
    u32::try_from(c)
        .ok()
        .and_then(char::from_u32)
        .map(String::from)
}

/// do_intToUtf8: each code point its own string (`multiple`), or all in
/// one, which any invalid one makes NA; a high surrogate followed by a
/// low one is one character when `allow_surrogate_pairs`.
fn to_utf8_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = code_points(args.get("x").map_or(&Value::Null, bare))?;
    let multiple = flag(args, "multiple")?;
    let pairs = flag(args, "allow_surrogate_pairs")?;
    if multiple {
        if pairs {
            ctx.warn(
                "allow_surrogate_pairs = TRUE is incompatible with multiple = TRUE and will be ignored",
            );
        }
        // R reads each as unsigned: a negative one is NA.
        return Ok(Value::Str(
            x.iter()
                .map(|c| c.and_then(character).unwrap_or_else(|| "NA".into()))
                .collect(),
        ));
    }
    let mut out = String::new();
    let mut i = 0;
    while i < x.len() {
        let Some(c) = x[i] else {
            return Ok(Value::Str(vec!["NA".into()]));
        };
        if c < 0 {
            // R writes such a number as bytes that are no UTF-8 at all.
            return Err(KernelError::new(format!(
                "intToUtf8({c}): a negative code point makes invalid UTF-8"
            )));
        }
        let mut code = c;
        if (0xD800..=0xDBFF).contains(&c) {
            match x.get(i + 1).copied().flatten() {
                Some(low) if pairs && (0xDC00..=0xDFFF).contains(&low) => {
                    code = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                    i += 1;
                }
                _ => return Ok(Value::Str(vec!["NA".into()])),
            }
        }
        match character(code) {
            Some(s) => out.push_str(&s),
            None => return Ok(Value::Str(vec!["NA".into()])),
        }
        i += 1;
    }
    Ok(Value::Str(vec![out]))
}
