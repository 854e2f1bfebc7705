//! `type.convert(x, na.strings, as.is, dec, numerals)`: utils'
//! `typeconvert` (io.c, R 4.2.2). Text becomes the first of logical,
//! integer, double and complex that every element reads as (an NA string
//! or a blank one reads as anything), else stays text or, with `as.is =
//! FALSE`, becomes a factor. A list or data frame has each element
//! converted, as the list and data.frame methods do.

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::collate::factorise;
use super::names::bare;
use super::registry;
use super::value::{Factor, List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "type.convert",
    params: &[
        req("x"),
        opt("na.strings"),
        opt("as.is"),
        opt("dec"),
        opt("numerals"),
    ],
    random: false,
    shape,
    eval,
}];

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

struct Opts {
    na: Vec<String>,
    as_is: bool,
    dec: char,
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let na = match args.get("na.strings").map(bare) {
        None => vec!["NA".to_string()],
        Some(Value::Str(s)) => s.clone(),
        Some(_) => return Err(KernelError::new("invalid 'na.strings' argument")),
    };
    let as_is = if args.get("as.is").is_some() {
        args.bool_or("as.is", true)?
    } else {
        ctx.warn("'as.is' should be specified by the caller; using TRUE");
        true
    };
    let dec = match args.get("dec").map(bare) {
        None => '.',
        Some(Value::Str(s)) if s.len() == 1 && s[0].chars().count() == 1 => {
            s[0].chars().next().unwrap_or('.')
        }
        Some(_) => return Err(KernelError::new("invalid decimal separator")),
    };
    if let Some(v) = args.get("numerals").map(bare) {
        let ok = matches!(v, Value::Str(s) if s.len() == 1 && s[0] == "allow.loss" || s.len() == 3);
        if !ok {
            return Err(KernelError::new(
                "flowcast's type.convert() takes numerals = \"allow.loss\" only",
            ));
        }
    }
    convert(x, &Opts { na, as_is, dec }, ctx)
}

fn convert(x: &Value, o: &Opts, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Value::List(l) = x {
        let items = l
            .items
            .iter()
            .map(|v| convert(v, o, ctx))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Value::List(List { items, ..l.clone() }));
    }
    let text: Vec<String> = match bare(x) {
        Value::Str(s) => s.clone(),
        Value::Null => Vec::new(),
        Value::Factor(f) => f.labels(),
        Value::Mat(_) | Value::BoolMat(_) | Value::ComplexMat(_) => {
            return Err(KernelError::new(
                "flowcast's type.convert() takes a vector, list or data frame, not a matrix",
            ))
        }
        other => match registry().call("as.character", vec![(None, other)], ctx)? {
            Value::Str(s) => s,
            _ => return Err(KernelError::new("cannot coerce to character")),
        },
    };
    Ok(typeconvert(&text, o))
}

fn is_blank(s: &str) -> bool {
    s.chars().all(char::is_whitespace)
}

/// io.c's `typeconvert` of one character vector.
fn typeconvert(x: &[String], o: &Opts) -> Value {
    let is_na = |s: &str| s == "NA" || o.na.iter().any(|n| n == s);
    let (mut logical, mut integer, mut real, mut complex) = (true, true, true, true);
    for s in x.iter().filter(|s| !is_na(s) && !is_blank(s)) {
        // ruleout_types
        if integer && strtoi(s).is_none() {
            integer = false;
        }
        if real && strtod_all(s, o.dec).is_none() {
            real = false;
        }
        if complex && strtoc(s, o.dec).is_none() {
            complex = false;
        }
        if logical {
            if string_true(s) || string_false(s) {
                integer = false;
                real = false;
                complex = false;
            } else {
                logical = false;
            }
        }
    }
    let missing = |s: &str| is_na(s) || is_blank(s);
    if logical {
        return Value::Bool(
            x.iter()
                .map(|s| (!missing(s)).then(|| string_true(s)))
                .collect(),
        );
    }
    if integer {
        return Value::Num(
            x.iter()
                .map(|s| {
                    if missing(s) {
                        NA
                    } else {
                        strtoi(s).unwrap_or(NA)
                    }
                })
                .collect(),
        );
    }
    if real {
        return Value::Num(
            x.iter()
                .map(|s| {
                    if missing(s) {
                        NA
                    } else {
                        strtod_all(s, o.dec).unwrap_or(NA)
                    }
                })
                .collect(),
        );
    }
    if complex {
        let na = Complex64::new(NA, NA);
        return Value::Complex(
            x.iter()
                .map(|s| {
                    if missing(s) {
                        na
                    } else {
                        strtoc(s, o.dec).unwrap_or(na)
                    }
                })
                .collect(),
        );
    }
    if o.as_is {
        return Value::Str(
            x.iter()
                .map(|s| if is_na(s) { "NA".into() } else { s.clone() })
                .collect(),
        );
    }
    let (levels, codes) = factorise(x.iter().map(|s| (!is_na(s)).then_some(s.as_str())));
    Value::Factor(Factor {
        codes,
        levels: levels.into_iter().map(str::to_string).collect(),
        ordered: false,
    })
}

/// typeconvert reads only these as logical ("true" and "True" stay text,
/// unlike as.logical).
fn string_true(s: &str) -> bool {
    matches!(s, "T" | "TRUE")
}

fn string_false(s: &str) -> bool {
    matches!(s, "F" | "FALSE")
}

/// io.c's `Strtoi(s, 10)`: strtol, the whole text read, within int
/// range and not R's NA_integer_.
fn strtoi(s: &str) -> Option<f64> {
    let t = s.trim_start();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Too long for an i64 is past int range too.
    let v: i64 = t.parse().ok()?;
    (v > i32::MIN as i64 && v <= i32::MAX as i64).then_some(v as f64)
}

/// R_strtod on `s` with the rest only blanks.
fn strtod_all(s: &str, dec: char) -> Option<f64> {
    let (v, rest) = strtod(s, dec)?;
    is_blank(rest).then_some(v)
}

/// arithmetic.c's `R_strtod`: leading space, sign, NaN / Inf /
/// infinity, hexadecimal, or decimal digits with `dec` and an exponent
/// (an `e` with no digits after it read as exponent 0). The value and
/// what is left; `None` where no number starts.
fn strtod(s: &str, dec: char) -> Option<(f64, &str)> {
    let t = s.trim_start();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("nan") {
        return Some((f64::NAN, &t[3..]));
    }
    if lower.starts_with("infinity") {
        return Some((sign * f64::INFINITY, &t[8..]));
    }
    if lower.starts_with("inf") {
        return Some((sign * f64::INFINITY, &t[3..]));
    }
    if lower.starts_with("0x") {
        let h = &t[2..];
        let n = h.bytes().take_while(u8::is_ascii_hexdigit).count();
        if n == 0 {
            return None;
        }
        let v = h[..n]
            .chars()
            .fold(0.0f64, |a, c| a * 16.0 + c.to_digit(16).unwrap_or(0) as f64);
        return Some((sign * v, &h[n..]));
    }
    let mut text = String::new();
    let mut i = 0;
    let b: Vec<char> = t.chars().collect();
    let mut ndigits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        text.push(b[i]);
        i += 1;
        ndigits += 1;
    }
    if i < b.len() && b[i] == dec {
        text.push('.');
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            text.push(b[i]);
            i += 1;
            ndigits += 1;
        }
    }
    if ndigits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == 'e' || b[i] == 'E') {
        i += 1;
        let mut exp = String::new();
        if i < b.len() && (b[i] == '+' || b[i] == '-') {
            exp.push(b[i]);
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            exp.push(b[i]);
            i += 1;
        }
        if exp.chars().any(|c| c.is_ascii_digit()) {
            text.push('e');
            text.push_str(&exp);
        }
    }
    let v: f64 = text.parse().ok()?;
    let used: usize = b[..i].iter().map(|c| c.len_utf8()).sum();
    Some((sign * v, &t[used..]))
}

/// io.c's `strtoc`: a real, a pure imaginary `yi`, or `x+yi`.
fn strtoc(s: &str, dec: char) -> Option<Complex64> {
    let (x, rest) = strtod(s, dec)?;
    if is_blank(rest) {
        return Some(Complex64::new(x, 0.0));
    }
    if let Some(after) = rest.strip_prefix('i') {
        return after.is_empty().then(|| Complex64::new(0.0, x));
    }
    let (y, rest) = strtod(rest, dec)?;
    let after = rest.strip_prefix('i')?;
    is_blank(after).then(|| Complex64::new(x, y))
}
