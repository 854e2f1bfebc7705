//! `sprintf(fmt, ...)`, following R's `do_sprintf` (sprintf.c): the
//! format and the arguments recycled to the longest, each row's format
//! cut into literal text and `%` conversions, an argument coerced once,
//! at the first row, to what its first conversion asks for (`%d` makes a
//! double of whole numbers an integer, `%f` makes a logical a double, `%s`
//! writes anything as `as.character` does), and NA, NaN and the infinities
//! written as `%s` would write the text.
//!
//! R hands each conversion to C's `snprintf`; [`Spec`] and its `format_*`
//! functions write what glibc writes, flag for flag. Rust's float
//! formatting is exact and rounds ties to even, as glibc does, so `%.2f`
//! of 0.125 is "0.12" in both.

use crate::kernels::args::{ArgError, Args};
use crate::kernels::data::r_num_to_string;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// R's `MAXLINE` (`MAXELTSIZE`): the longest format, and the longest text
/// one conversion other than a plain `%s` may write.
pub(crate) const MAXLINE: usize = 8192;
/// R's `MAXNARGS`.
const MAXNARGS: usize = 100;

/// One C conversion specification, `%[flags][width][.precision]conv`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Spec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
    pub conv: u8,
}

/// A number written in a format, saturating far above any width that
/// can be written (the length check refuses it).
fn digits_at(b: &[u8], i: &mut usize) -> usize {
    let mut n: usize = 0;
    while let Some(c) = b.get(*i).filter(|c| c.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add(usize::from(c - b'0'));
        *i += 1;
    }
    n
}

impl Spec {
    /// Reads a whole specification such as `%-08.3f`; `None` when the text
    /// is not one C would read.
    pub(crate) fn parse(fmt: &str) -> Option<Spec> {
        let b = fmt.as_bytes();
        if b.first() != Some(&b'%') {
            return None;
        }
        let mut s = Spec::default();
        let mut i = 1;
        while let Some(&c) = b.get(i) {
            match c {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        s.width = digits_at(b, &mut i);
        if b.get(i) == Some(&b'.') {
            i += 1;
            s.precision = Some(digits_at(b, &mut i));
        }
        s.conv = *b.get(i)?;
        (i + 1 == b.len() && b"diouxXfFeEgGaAs".contains(&s.conv)).then_some(s)
    }

    /// The sign a signed conversion writes before a number.
    fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    /// Pads `sign`, `prefix` and `body` (and `zeros` more zeros at the
    /// end of the digits, counted but not yet written) to the width:
    /// zeros after the sign with the `0` flag, else spaces. `Err` holds
    /// the length when it is over [`MAXLINE`], as R refuses it.
    fn pad(&self, sign: &str, prefix: &str, body: &str, zero_pad: bool) -> Result<String, usize> {
        let len = sign.len() + prefix.len() + body.len();
        let total = len.max(self.width);
        if total > MAXLINE {
            return Err(total);
        }
        let fill = total - len;
        let mut out = String::with_capacity(total);
        if self.left {
            out.push_str(sign);
            out.push_str(prefix);
            out.push_str(body);
            out.extend(std::iter::repeat_n(' ', fill));
        } else if zero_pad && self.zero {
            out.push_str(sign);
            out.push_str(prefix);
            out.extend(std::iter::repeat_n('0', fill));
            out.push_str(body);
        } else {
            out.extend(std::iter::repeat_n(' ', fill));
            out.push_str(sign);
            out.push_str(prefix);
            out.push_str(body);
        }
        Ok(out)
    }

    /// `%d %i %o %x %X` of a C `int`.
    pub(crate) fn format_int(&self, x: i32) -> Result<String, usize> {
        let signed = matches!(self.conv, b'd' | b'i');
        // The unsigned conversions read the int's bits.
        let magnitude = if signed {
            u64::from(x.unsigned_abs())
        } else {
            u64::from(x as u32)
        };
        let mut digits = match self.conv {
            b'o' => format!("{magnitude:o}"),
            b'x' => format!("{magnitude:x}"),
            b'X' => format!("{magnitude:X}"),
            _ => magnitude.to_string(),
        };
        if let Some(p) = self.precision {
            if p == 0 && magnitude == 0 {
                digits.clear();
            } else if p > digits.len() {
                if p > MAXLINE {
                    return Err(p.max(self.width) + usize::from(signed && x < 0));
                }
                digits.insert_str(0, &"0".repeat(p - digits.len()));
            }
        }
        if self.alt && self.conv == b'o' && !digits.starts_with('0') {
            digits.insert(0, '0');
        }
        let prefix = match self.conv {
            b'x' if self.alt && magnitude != 0 => "0x",
            b'X' if self.alt && magnitude != 0 => "0X",
            _ => "",
        };
        let sign = if signed { self.sign(x < 0) } else { "" };
        self.pad(sign, prefix, &digits, self.precision.is_none())
    }

    /// `%f %e %g %a` (and upper case) of a finite double.
    pub(crate) fn format_double(&self, x: f64) -> Result<String, usize> {
        let sign = self.sign(x.is_sign_negative());
        let a = x.abs();
        let upper = self.conv.is_ascii_uppercase();
        // Digits past these are zeros in every double's exact expansion
        // (1074 fraction digits at most, 767 significant), so a larger
        // precision only adds zeros: count them, write them only when
        // the result is short enough to be written.
        let (cap, body) = match self.conv.to_ascii_lowercase() {
            b'f' => {
                let p = self.precision.unwrap_or(6);
                let q = p.min(1100);
                (p - q, fixed(a, q, self.alt))
            }
            b'e' => {
                let p = self.precision.unwrap_or(6);
                let q = p.min(800);
                (p - q, sci(a, q, self.alt, upper))
            }
            b'g' => {
                let p = self.precision.unwrap_or(6).max(1);
                let q = p.min(800);
                let extra = if self.alt { p - q } else { 0 };
                (extra, general(a, q, self.alt, upper))
            }
            _ => {
                let q = self.precision.map(|p| p.min(13));
                let extra = self.precision.map_or(0, |p| p - p.min(13));
                (extra, hex(a, q, self.alt, upper))
            }
        };
        // `%a`'s zeros go after its "0x".
        let (prefix, body) = match body.get(..2) {
            Some(p @ ("0x" | "0X")) => (p, body[2..].to_string()),
            _ => ("", body),
        };
        if cap > 0 {
            let len = sign.len() + prefix.len() + body.len() + cap;
            if len.max(self.width) > MAXLINE {
                return Err(len.max(self.width));
            }
            // Short enough after all: write the zeros where they go,
            // before an exponent.
            let at = body.find(['e', 'E', 'p', 'P']).unwrap_or(body.len());
            let mut b = body;
            b.insert_str(at, &"0".repeat(cap));
            return self.pad(sign, prefix, &b, true);
        }
        self.pad(sign, prefix, &body, true)
    }

    /// `%s`: precision and width count bytes, as in C. A precision that
    /// would cut a character in two stops before it (C would write half
    /// of it).
    pub(crate) fn format_str(&self, s: &str) -> Result<String, usize> {
        let mut end = self.precision.map_or(s.len(), |p| p.min(s.len()));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.pad("", "", &s[..end], false)
    }
}

/// `%.{p}f` of `a >= 0`; `alt` keeps the point when `p` is 0.
fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// `%.{p}e` of `a >= 0`, with C's signed exponent of at least two digits.
fn sci(a: f64, p: usize, alt: bool, upper: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut out = mantissa.to_string();
    if alt && p == 0 {
        out.push('.');
    }
    out.push(if upper { 'E' } else { 'e' });
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}", exp.unsigned_abs()));
    out
}

/// The exponent of ten of `|a|`'s exact value, before any rounding (40
/// digits never round up to the next power: no double is that close).
fn exponent(a: f64, digits: usize) -> i64 {
    format!("{a:.prec$e}", prec = digits)
        .split_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0)
}

/// `%.{p}g` of `a >= 0`: `%e` when the exponent is below -4 or not below
/// the precision, else `%f`; trailing zeros dropped unless `alt`.
///
/// glibc decides on the exponent before rounding: when rounding then
/// carries into one more digit than the precision allows (9999.5 with
/// `%#.4g`), it switches to `%e` but keeps the `%f` decision's fraction
/// digits, none, and writes "1.e+04" where C asks for "1.000e+04". Only
/// `#` shows this; without it the zeros go either way.
fn general(a: f64, p: usize, alt: bool, upper: bool) -> String {
    let x = exponent(a, p - 1);
    if alt && x >= p as i64 && a != 0.0 && exponent(a, 40) == p as i64 - 1 {
        return sci(a, 0, true, upper);
    }
    let mut s = if x < -4 || x >= p as i64 {
        sci(a, p - 1, alt, upper)
    } else {
        fixed(a, (p as i64 - 1 - x) as usize, alt)
    };
    if !alt {
        let at = s.find(['e', 'E']).unwrap_or(s.len());
        let (mantissa, exp) = s.split_at(at);
        if mantissa.contains('.') {
            let m = mantissa.trim_end_matches('0').trim_end_matches('.');
            s = format!("{m}{exp}");
        }
    }
    s
}

/// `%a` of `a >= 0` as glibc writes it: `0x1.<hex>p<exp>` for normal
/// numbers, `0x0.<hex>p-1022` for subnormal ones; without a precision
/// the shortest exact digits, with one rounded to even.
fn hex(a: f64, precision: Option<usize>, alt: bool, upper: bool) -> String {
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = match (raw_exp, mant) {
        (0, 0) => (0u64, 0i64),
        (0, _) => (0, -1022),
        _ => (1, raw_exp - 1023),
    };
    let ndig = match precision {
        Some(p) => {
            if p < 13 {
                let drop = 4 * (13 - p) as u32;
                let half = 1u64 << (drop - 1);
                let rest = mant & ((1u64 << drop) - 1);
                mant >>= drop;
                // Ties go to the even last digit, the leading one when
                // no other is written.
                let odd = if p == 0 { lead & 1 } else { mant & 1 };
                if rest > half || (rest == half && odd == 1) {
                    mant += 1;
                    if mant >> (4 * p) != 0 {
                        mant &= (1u64 << (4 * p)) - 1;
                        lead += 1;
                    }
                }
            }
            p
        }
        None => {
            let mut n = 13;
            while n > 0 && mant & 0xf == 0 {
                mant >>= 4;
                n -= 1;
            }
            n
        }
    };
    let mut out = format!("0x{lead}");
    if ndig > 0 || alt {
        out.push('.');
    }
    if ndig > 0 {
        let shown = ndig.min(13);
        out.push_str(&format!("{mant:0shown$x}"));
    }
    out.push('p');
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&exp.unsigned_abs().to_string());
    if upper {
        out = out.to_ascii_uppercase();
    }
    out
}

/// An argument as `do_sprintf` holds it, by R type; a factor is an
/// integer vector that `as.character` writes by its labels.
enum Arg {
    Lgl(Vec<Option<bool>>),
    Int(Vec<Option<i32>>),
    Real(Vec<f64>),
    Str(Vec<String>),
    Factor(Vec<Option<i32>>, Vec<String>),
    List(Vec<Value>),
    Other(usize),
}

impl Arg {
    fn of(v: &Value) -> Arg {
        match v {
            Value::Num(_) | Value::Mat(_) => Arg::Real(v.as_f64_slice().unwrap_or_default().into()),
            Value::Bool(_) | Value::BoolMat(_) => {
                Arg::Lgl(v.as_logicals().unwrap_or_default().into())
            }
            Value::Str(s) => Arg::Str(s.clone()),
            Value::Factor(f) => Arg::Factor(
                f.codes
                    .iter()
                    .map(|c| c.and_then(|c| i32::try_from(c + 1).ok()))
                    .collect(),
                f.labels(),
            ),
            Value::List(l) => Arg::List(l.items.clone()),
            other => Arg::Other(other.len()),
        }
    }

    fn len(&self) -> usize {
        match self {
            Arg::Lgl(v) => v.len(),
            Arg::Int(v) | Arg::Factor(v, _) => v.len(),
            Arg::Real(v) => v.len(),
            Arg::Str(v) => v.len(),
            Arg::List(v) => v.len(),
            Arg::Other(n) => *n,
        }
    }

    /// R's `as.character`.
    fn as_character(&self) -> Result<Arg, KernelError> {
        Ok(Arg::Str(match self {
            Arg::Lgl(v) => v
                .iter()
                .map(|b| match b {
                    Some(true) => "TRUE".into(),
                    Some(false) => "FALSE".into(),
                    None => "NA".into(),
                })
                .collect(),
            Arg::Int(v) => v
                .iter()
                .map(|x| x.map_or_else(|| "NA".into(), |x| x.to_string()))
                .collect(),
            Arg::Real(v) => v.iter().map(|&x| r_num_to_string(x)).collect(),
            Arg::Str(v) => v.clone(),
            Arg::Factor(_, labels) => labels.clone(),
            // A list of single values, as `as.character(list(...))` writes
            // them; anything longer R deparses, which flowcast does not.
            Arg::List(items) => items
                .iter()
                .map(|item| match Arg::of(item) {
                    a @ (Arg::Lgl(_) | Arg::Real(_) | Arg::Str(_) | Arg::Factor(..))
                        if a.len() == 1 =>
                    {
                        match a.as_character()? {
                            Arg::Str(mut s) => Ok(s.remove(0)),
                            _ => Err(unsupported()),
                        }
                    }
                    _ => Err(unsupported()),
                })
                .collect::<Result<_, _>>()?,
            Arg::Other(..) => return Err(unsupported()),
        }))
    }

    /// R's `as.double`.
    fn as_double(&self) -> Result<Arg, KernelError> {
        let int = |x: &Option<i32>| x.map_or(crate::kernels::value::NA, f64::from);
        Ok(Arg::Real(match self {
            Arg::Lgl(v) => v
                .iter()
                .map(|&b| crate::kernels::value::logical_f64(b))
                .collect(),
            Arg::Int(v) | Arg::Factor(v, _) => v.iter().map(int).collect(),
            Arg::Real(v) => v.clone(),
            _ => return Err(unsupported()),
        }))
    }
}

fn unsupported() -> KernelError {
    KernelError::new("unsupported type")
}

/// R's `coerceVector` of a double to integer: NA out of range, with its
/// warning; the fraction dropped.
fn to_integer(v: &[f64], ctx: &mut Ctx) -> Vec<Option<i32>> {
    let mut warned = false;
    let out = v
        .iter()
        .map(|&x| {
            if x.is_nan() {
                None
            } else if x >= 2_147_483_648.0 || x <= -2_147_483_648.0 {
                warned = true;
                None
            } else {
                Some(x.trunc() as i32)
            }
        })
        .collect();
    if warned {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    out
}

/// R's `findspec`: the character after the flags, width and precision.
fn findspec(fmt: &str) -> u8 {
    fmt.bytes()
        .skip(1)
        .find(|c| !matches!(c, b'-' | b'+' | b' ' | b'#' | b'.' | b'*' | b'0'..=b'9'))
        .unwrap_or(0)
}

/// R's `checkfmt`: whether the conversion is one of `pattern`'s.
fn fmt_ok(fmt: &str, pattern: &[u8]) -> bool {
    pattern.contains(&findspec(fmt))
}

fn invalid(fmt: &str, hint: &str) -> KernelError {
    KernelError::new(format!("invalid format '{fmt}'; {hint}"))
}

fn too_long(nc: usize) -> KernelError {
    KernelError::new(format!(
        "required resulting string length {nc} is greater than maximal {MAXLINE}"
    ))
}

/// R's `_my_sprintf`: `fmt` applied to one value by C's rules.
fn my_sprintf(
    fmt: &str,
    hint: &str,
    f: impl FnOnce(&Spec) -> Result<String, usize>,
) -> Result<String, KernelError> {
    let spec = Spec::parse(fmt).ok_or_else(|| invalid(fmt, hint))?;
    f(&spec).map_err(too_long)
}

/// `%1$` .. `%99$` at `at` in `fmt` (just after the `%` or `*`): the
/// argument it names, removed from `fmt`.
fn take_position(fmt: &mut String, at: usize, nargs: usize) -> Result<Option<usize>, KernelError> {
    let b = fmt.as_bytes();
    if b.len() <= at + 2 || !(b'1'..=b'9').contains(&b[at]) {
        return Ok(None);
    }
    let (v, used) = if b[at + 1] == b'$' {
        (usize::from(b[at] - b'0'), 2)
    } else if b[at + 1].is_ascii_digit() && b.get(at + 2) == Some(&b'$') {
        (
            usize::from(b[at] - b'0') * 10 + usize::from(b[at + 1] - b'0'),
            3,
        )
    } else {
        return Ok(None);
    };
    if v > nargs {
        return Err(KernelError::new(format!(
            "reference to non-existent argument {v}"
        )));
    }
    fmt.replace_range(at..at + used, "");
    Ok(Some(v - 1))
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let format = match args.get("fmt") {
        Some(Value::Str(s)) => s,
        _ => return Err(KernelError::new("'fmt' is not a character vector")),
    };
    let nfmt = format.len();
    if nfmt == 0 {
        return Ok(Value::Str(Vec::new()));
    }
    let given: Vec<&Value> = args.dots().map(|(_, v)| v).collect();
    let nargs = given.len();
    if nargs >= MAXNARGS {
        return Err(KernelError::new(format!(
            "only {MAXNARGS} arguments are allowed"
        )));
    }
    let mut a: Vec<Arg> = given.iter().map(|v| Arg::of(v)).collect();
    let lens: Vec<usize> = a.iter().map(Arg::len).collect();
    if lens.contains(&0) {
        return Ok(Value::Str(Vec::new()));
    }
    let maxlen = lens.iter().copied().fold(nfmt, usize::max);
    if maxlen % nfmt != 0 || lens.iter().any(|&l| maxlen % l != 0) {
        return Err(KernelError::new(
            "arguments cannot be recycled to the same length",
        ));
    }
    let mut used = vec![false; nargs];
    let mut ans = Vec::with_capacity(maxlen);
    for ns in 0..maxlen {
        let format_string = format[ns % nfmt].as_str();
        let n = format_string.len();
        if n > MAXLINE {
            return Err(KernelError::new(format!(
                "'fmt' length exceeds maximal format length {MAXLINE}"
            )));
        }
        let bytes = format_string.as_bytes();
        let mut out = String::new();
        let mut cur = 0;
        let mut cnt = 0;
        while cur < n {
            if bytes[cur] != b'%' {
                let chunk = format_string[cur..].find('%').unwrap_or(n - cur);
                out.push_str(&format_string[cur..cur + chunk]);
                cur += chunk;
                continue;
            }
            if cur + 1 < n && bytes[cur + 1] == b'%' {
                out.push('%');
                cur += 2;
                continue;
            }
            let chunk = bytes[cur + 1..]
                .iter()
                .position(|c| b"diosfeEgGxXaA".contains(c))
                .map(|k| k + 2)
                .filter(|&k| cur + k <= n)
                .ok_or_else(|| {
                    KernelError::new(format!(
                        "unrecognised format specification '{}'",
                        &format_string[cur..]
                    ))
                })?;
            let mut fmt = format_string[cur..cur + chunk].to_string();
            cur += chunk;
            let nthis = if fmt.len() > 3 {
                take_position(&mut fmt, 1, nargs)?
            } else {
                None
            };
            let star_arg = match fmt.find('*') {
                None => None,
                Some(at) => {
                    let nstar = match take_position(&mut fmt, at + 1, nargs)? {
                        Some(k) => k,
                        None => {
                            if cnt >= nargs {
                                return Err(KernelError::new("too few arguments"));
                            }
                            cnt += 1;
                            cnt - 1
                        }
                    };
                    if fmt[at + 1..].contains('*') {
                        return Err(KernelError::new(
                            "at most one asterisk '*' is supported in each conversion specification",
                        ));
                    }
                    used[nstar] = true;
                    if ns == 0 {
                        if let Arg::Real(v) = &a[nstar] {
                            a[nstar] = Arg::Int(to_integer(v, ctx));
                        }
                    }
                    let star = match &a[nstar] {
                        Arg::Int(v) | Arg::Factor(v, _) => v[ns % v.len()],
                        _ => None,
                    };
                    Some(star.ok_or_else(|| {
                        KernelError::new(
                            "argument for '*' conversion specification must be a number",
                        )
                    })?)
                }
            };
            let k = match nthis {
                Some(k) => k,
                None => {
                    if cnt >= nargs {
                        return Err(KernelError::new("too few arguments"));
                    }
                    cnt += 1;
                    cnt - 1
                }
            };
            used[k] = true;
            let mut fmtp = match star_arg {
                Some(star) => {
                    let f = fmt.replace('*', &star.to_string());
                    if f.len() > MAXLINE {
                        return Err(KernelError::new(format!(
                            "'fmt' length exceeds maximal format length {MAXLINE}"
                        )));
                    }
                    f
                }
                None => fmt,
            };
            // The coercion R does once, at the first row.
            if ns == 0 {
                match findspec(&fmtp) {
                    b'd' | b'i' | b'o' | b'x' | b'X' => {
                        if let Arg::Real(v) = &a[k] {
                            let whole = v.iter().all(|&r| {
                                crate::kernels::value::is_na(r)
                                    || (r.is_finite()
                                        && r == r.trunc()
                                        && (-2_147_483_648.0..=2_147_483_647.0).contains(&r))
                            });
                            if whole {
                                a[k] = Arg::Int(to_integer(v, ctx));
                            }
                        }
                    }
                    b'a' | b'A' | b'e' | b'f' | b'g' | b'E' | b'G'
                        if !matches!(a[k], Arg::Real(_) | Arg::Str(_)) =>
                    {
                        a[k] = a[k].as_double()?;
                    }
                    b's' if !matches!(a[k], Arg::Str(_)) => {
                        a[k] = a[k].as_character()?;
                    }
                    _ => {}
                }
            }
            let na_as_s = |fmtp: &mut String| {
                fmtp.pop();
                fmtp.push('s');
            };
            let piece = match &a[k] {
                Arg::Lgl(v) => {
                    const HINT: &str = "use format %d or %i for logical objects";
                    if !fmt_ok(&fmtp, b"di") {
                        return Err(invalid(&fmtp, HINT));
                    }
                    match v[ns % v.len()] {
                        None => {
                            na_as_s(&mut fmtp);
                            my_sprintf(&fmtp, HINT, |s| s.format_str("NA"))?
                        }
                        Some(b) => my_sprintf(&fmtp, HINT, |s| s.format_int(i32::from(b)))?,
                    }
                }
                Arg::Int(v) | Arg::Factor(v, _) => {
                    const HINT: &str = "use format %d, %i, %o, %x or %X for integer objects";
                    if !fmt_ok(&fmtp, b"dioxX") {
                        return Err(invalid(&fmtp, HINT));
                    }
                    match v[ns % v.len()] {
                        None => {
                            na_as_s(&mut fmtp);
                            my_sprintf(&fmtp, HINT, |s| s.format_str("NA"))?
                        }
                        Some(x) => my_sprintf(&fmtp, HINT, |s| s.format_int(x))?,
                    }
                }
                Arg::Real(v) => {
                    const HINT: &str = "use format %f, %e, %g or %a for numeric objects";
                    if !fmt_ok(&fmtp, b"aAfeEgG") {
                        return Err(invalid(&fmtp, HINT));
                    }
                    let x = v[ns % v.len()];
                    if x.is_finite() {
                        my_sprintf(&fmtp, HINT, |s| s.format_double(x))?
                    } else {
                        // The precision goes with the conversion: `%5.2f`
                        // writes NA as `%5s`.
                        match fmtp.find('.') {
                            Some(dot) => {
                                fmtp.truncate(dot);
                                fmtp.push('s');
                            }
                            None => na_as_s(&mut fmtp),
                        }
                        let space = fmtp.contains(' ');
                        let text = if crate::kernels::value::is_na(x) {
                            if space {
                                " NA"
                            } else {
                                "NA"
                            }
                        } else if x.is_nan() {
                            if space {
                                " NaN"
                            } else {
                                "NaN"
                            }
                        } else if x > 0.0 {
                            if fmtp.contains('+') {
                                "+Inf"
                            } else if space {
                                " Inf"
                            } else {
                                "Inf"
                            }
                        } else {
                            "-Inf"
                        };
                        my_sprintf(&fmtp, HINT, |s| s.format_str(text))?
                    }
                }
                Arg::Str(v) => {
                    const HINT: &str = "use format %s for character objects";
                    if !fmt_ok(&fmtp, b"s") {
                        return Err(invalid(&fmtp, HINT));
                    }
                    let ss = &v[ns % v.len()];
                    if fmtp.as_bytes().get(1) != Some(&b's') {
                        my_sprintf(&fmtp, HINT, |s| s.format_str(ss))?
                    } else {
                        ss.clone()
                    }
                }
                Arg::List(_) | Arg::Other(..) => return Err(unsupported()),
            };
            out.push_str(&piece);
        }
        ans.push(out);
    }
    let nunused = used.iter().filter(|u| !**u).count();
    if nunused > 0 {
        let what = if nunused == 1 {
            "one argument".to_string()
        } else {
            format!("{nunused} arguments")
        };
        ctx.warn(if nfmt == 1 {
            format!("{what} not used by format '{}'", format[0])
        } else {
            format!("{what} not used by format")
        });
    }
    Ok(Value::Str(ans))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("fmt") {
        Some(Type::Str { .. } | Type::Any) => {}
        _ => return Err(args.error("fmt", "'fmt' is not a character vector")),
    }
    let mut lens = vec![args.ty("fmt").and_then(Type::len)];
    for (k, (_, t)) in args.dots().enumerate() {
        if matches!(t, Type::Record { .. } | Type::Formula { .. }) {
            return Err(args.dots_error(k, "unsupported type"));
        }
        lens.push(t.len());
    }
    let len = if lens.contains(&Some(0)) {
        Some(0)
    } else {
        lens.into_iter().try_fold(0, |m, l| l.map(|l| m.max(l)))
    };
    Ok(Type::Str { len, value: None })
}

/// C's `printf("%g", x)`, for messages R writes with it.
pub(crate) fn format_g(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    format!("{sign}{}", general(x.abs(), 6, false, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, x: f64) -> String {
        Spec::parse(fmt).unwrap().format_double(x).unwrap()
    }

    fn d(fmt: &str, x: i32) -> String {
        Spec::parse(fmt).unwrap().format_int(x).unwrap()
    }

    #[test]
    fn doubles_as_glibc_writes_them() {
        assert_eq!(f("%f", 3.0), "3.000000");
        assert_eq!(f("%.2f", 0.125), "0.12");
        assert_eq!(f("%08.3f", -1.23456), "-001.235");
        assert_eq!(f("%-+8.2f", 1.23456), "+1.23   ");
        assert_eq!(f("%#.0f", 12.0), "12.");
        assert_eq!(f("%f", -0.0), "-0.000000");
        assert_eq!(f("%e", 12345.6789), "1.234568e+04");
        assert_eq!(f("%.0e", 12345.0), "1e+04");
        assert_eq!(f("%#.0e", 12345.0), "1.e+04");
        assert_eq!(f("%+.3e", 1e-300), "+1.000e-300");
        assert_eq!(f("%E", 12.5), "1.250000E+01");
        assert_eq!(f("%g", 123456789.0), "1.23457e+08");
        assert_eq!(f("%g", 0.0001234), "0.0001234");
        assert_eq!(f("%g", 1e-5), "1e-05");
        assert_eq!(f("%#g", 1.0), "1.00000");
        assert_eq!(f("%#.3g", 1.0), "1.00");
        assert_eq!(f("%#.4g", 9999.5), "1.e+04");
        assert_eq!(f("%#.2g", 99.5), "1.e+02");
        assert_eq!(f("%#.4g", 99.995), "100.0");
        assert_eq!(f("%#.2g", 9.995e10), "1.0e+11");
        assert_eq!(f("%#.2g", 0.0099995), "0.010");
        assert_eq!(f("%.10g", std::f64::consts::PI), "3.141592654");
        assert_eq!(f("%G", 1e-20), "1E-20");
        assert_eq!(f("%a", 1.0), "0x1p+0");
        assert_eq!(f("%a", 0.1), "0x1.999999999999ap-4");
        assert_eq!(f("%.2a", 1.999), "0x2.00p+0");
        assert_eq!(f("%A", -3.5), "-0X1.CP+1");
        assert_eq!(f("%.0a", 1.5), "0x2p+0");
        assert_eq!(f("%a", 5e-324), "0x0.0000000000001p-1022");
        assert_eq!(f("%a", 0.0), "0x0p+0");
        assert_eq!(f("%010a", 1.0), "0x00001p+0");
        assert_eq!(f("%+012A", 0.5), "+0X000001P-1");
    }

    #[test]
    fn integers_as_glibc_writes_them() {
        assert_eq!(d("%05d", -3), "-0003");
        assert_eq!(d("%x", -1), "ffffffff");
        assert_eq!(d("%o", -8), "37777777770");
        assert_eq!(d("%#x", 255), "0xff");
        assert_eq!(d("%#x", 0), "0");
        assert_eq!(d("%#o", 8), "010");
        assert_eq!(d("%#o", 0), "0");
        assert_eq!(d("%08.3d", 42), "     042");
        assert_eq!(d("%-08d", 42), "42      ");
        assert_eq!(d("%.0d", 0), "");
        assert_eq!(d("% d", 5), " 5");
        assert_eq!(d("%+d", 5), "+5");
    }

    #[test]
    fn lengths_over_the_limit_are_refused_without_writing_them() {
        let s = Spec::parse("%1000000000d").unwrap();
        assert_eq!(s.format_int(1), Err(1_000_000_000));
        let s = Spec::parse("%.10000f").unwrap();
        assert_eq!(s.format_double(1.0), Err(10002));
        let s = Spec::parse("%.100000000e").unwrap();
        assert_eq!(s.format_double(1.0), Err(100_000_006));
        let s = Spec::parse("%.5000f").unwrap();
        assert_eq!(s.format_double(1.0).unwrap().len(), 5002);
        let s = Spec::parse("%8192s").unwrap();
        assert_eq!(s.format_str("a").unwrap().len(), 8192);
    }

    #[test]
    fn a_precision_never_cuts_a_character() {
        let s = Spec::parse("%.1s").unwrap();
        assert_eq!(s.format_str("é").unwrap(), "");
        let s = Spec::parse("%.2s").unwrap();
        assert_eq!(s.format_str("éa").unwrap(), "é");
        let s = Spec::parse("%5s").unwrap();
        assert_eq!(s.format_str("é").unwrap(), "   é");
    }
}
