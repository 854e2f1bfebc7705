//! `format(x, trim, digits, nsmall, justify, width, ...)` for numbers,
//! logicals, text, factors and lists, as R's `format.default`: numbers
//! by `formatReal` (format.c), one layout for the whole vector (fixed or
//! scientific, the digits needed to show each number to `digits`
//! significant digits, at least `nsmall` decimals in fixed notation, a
//! common width), written by `encodeReal0` (printutils.c); then
//! `prettyNum`'s marks (`big.mark`, `small.mark`, `drop0trailing`).
//! Text is padded to the widest element (`do_format`, paste.c).
//! `formatC(x, digits, width, format, flag, ...)` follows R's `formatC`
//! and its C `str_signif` (util.c), one C conversion per number.
//!
//! flowcast's integers are doubles: the evaluator hands `format` an
//! integer `x` (one written as an integer, `100000L`, `1:n`) with
//! `scientific = FALSE`, which writes whole numbers as R's `formatInteger`
//! does ("100000", not "1e+05"). A matrix gives a character matrix of
//! its dims, as R's keep the attributes.

use super::grep::{substitute, Pattern};
use super::sprintf::Spec;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::arith::fround;
use crate::kernels::summary::ldouble::LongDouble;
use crate::kernels::value::is_na;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// R's `R_print.digits` bounds (`R_MIN_DIGITS_OPT`, `R_MAX_DIGITS_OPT`).
const MIN_DIGITS: i64 = 1;
const MAX_DIGITS: i64 = 22;
/// `DBL_DIG`.
const DBL_DIG: i32 = 15;
/// `KP_MAX`: the powers of ten a long double holds exactly.
const KP_MAX: i32 = 27;
/// printutils.c's `NB`: the buffer a number is written into.
const NB: usize = 1000;
/// The widest padded text written, and the most padded text in all.
const MAX_TEXT_WIDTH: usize = 10_000_000;
const MAX_TOTAL_WIDTH: usize = 1 << 31;

/// `tbl[k]`, 10^k in long double (exact for k <= 27).
fn tbl(k: i32) -> LongDouble {
    if k <= 22 {
        LongDouble::from_f64(10f64.powi(k))
    } else {
        LongDouble::from_f64(1e22).mul(LongDouble::from_f64(10f64.powi(k - 22)))
    }
}

/// `a < b` for long doubles.
fn less(a: LongDouble, b: LongDouble) -> bool {
    a.sub(b).to_f64() < 0.0
}

/// `nearbyintl(v)` for `0 <= v < 2^50`: v is a double `t` plus an exact
/// remainder `d` far below t's last bit, which decides only when t is a
/// half-integer; ties go to even.
fn nearbyintl(v: LongDouble) -> f64 {
    let t = v.to_f64();
    let d = v.sub(LongDouble::from_f64(t)).to_f64();
    let floor = t.floor();
    let a = t - floor - 0.5;
    let up = if a != 0.0 {
        a > 0.0
    } else if d != 0.0 {
        d > 0.0
    } else {
        floor % 2.0 != 0.0
    };
    if up {
        floor + 1.0
    } else {
        floor
    }
}

/// What `scientific` finds for one finite number.
struct Sci {
    neg: bool,
    /// The exponent of ten of the number rounded to `digits` digits.
    kpower: i32,
    /// Its significant digits, at most `digits`.
    nsig: i32,
    /// Rounding to `digits` digits adds a digit left of the point that
    /// fixed notation would not show (9996 with 3 digits).
    roundingwidens: bool,
}

/// R's `scientific` (format.c), its long double path: `|x|` scaled by a
/// power of ten to `digits` digits before the point and rounded. Where
/// R scales by `powl(10, kp)` (beyond 10^±27) the exact decimal rounding
/// stands in; no double lies close enough to a tie there for the two to
/// differ.
fn scientific(x: f64, digits: i32) -> Sci {
    if x == 0.0 {
        return Sci {
            neg: false,
            kpower: 0,
            nsig: 1,
            roundingwidens: false,
        };
    }
    let neg = x < 0.0;
    let r = x.abs();
    let exact = |r: f64, d: i32| {
        // `format_via_sprintf`: "%#.*e" and its trailing zeros.
        let s = format!("{:.*e}", (d - 1) as usize, r);
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let kpower: i32 = exp.parse().unwrap_or(0);
        let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
        let nsig = digits.iter().rposition(|&c| c != b'0').map_or(1, |i| i + 1) as i32;
        (kpower, nsig)
    };
    if digits > DBL_DIG {
        let (kpower, nsig) = exact(r, digits);
        return Sci {
            neg,
            kpower,
            nsig,
            roundingwidens: false,
        };
    }
    let mut kp = r.log10().floor() as i32 - digits + 1;
    if kp.abs() > KP_MAX {
        let (kpower, nsig) = exact(r, digits);
        return Sci {
            neg,
            kpower,
            nsig,
            roundingwidens: false,
        };
    }
    let mut r_prec = LongDouble::from_f64(r);
    if kp > 0 {
        r_prec = r_prec.div(tbl(kp));
    } else if kp < 0 {
        r_prec = r_prec.mul(tbl(-kp));
    }
    if less(r_prec, tbl(digits - 1)) {
        r_prec = r_prec.mul(LongDouble::from_f64(10.0));
        kp -= 1;
    }
    let mut alpha = nearbyintl(r_prec);
    let mut nsig = digits;
    for _ in 1..=digits {
        alpha /= 10.0;
        if alpha == alpha.floor() {
            nsig -= 1;
        } else {
            break;
        }
    }
    if nsig == 0 && digits > 0 {
        nsig = 1;
        kp += 1;
    }
    let kpower = kp + digits - 1;
    let rgt = (digits - kpower).clamp(0, KP_MAX);
    let fuzz = 0.5 / tbl(rgt).to_f64();
    let roundingwidens = kpower > 0
        && kpower <= KP_MAX
        && less(
            LongDouble::from_f64(r),
            tbl(kpower).sub(LongDouble::from_f64(fuzz)),
        );
    Sci {
        neg,
        kpower,
        nsig,
        roundingwidens,
    }
}

/// `formatReal`'s layout: width `w`, `d` digits after the point, `e`
/// nonzero for scientific notation (2 for three-digit exponents).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    w: usize,
    d: usize,
    e: usize,
}

/// R's `formatReal`: fixed notation whenever it is no wider than
/// scientific (plus `scipen`), as if `nsmall` were 0.
fn format_real(x: &[f64], digits: i32, nsmall: usize, scipen: i64) -> Layout {
    let (mut naflag, mut nanflag, mut posinf, mut neginf) = (false, false, false, false);
    let mut neg = false;
    let (mut mnl, mut mxl, mut rgt, mut mxsl, mut mxns) =
        (i32::MAX, i32::MIN, i32::MIN, i32::MIN, i32::MIN);
    for &v in x {
        if !v.is_finite() {
            if is_na(v) {
                naflag = true;
            } else if v.is_nan() {
                nanflag = true;
            } else if v > 0.0 {
                posinf = true;
            } else {
                neginf = true;
            }
            continue;
        }
        let s = scientific(v, digits);
        let mut left = s.kpower + 1;
        if s.roundingwidens {
            left -= 1;
        }
        let sleft = i32::from(s.neg) + if left <= 0 { 1 } else { left };
        let right = s.nsig - left;
        if s.neg {
            neg = true;
        }
        rgt = rgt.max(right);
        mxl = mxl.max(left);
        mnl = mnl.min(left);
        mxsl = mxsl.max(sleft);
        mxns = mxns.max(s.nsig);
    }
    let neg = i32::from(neg);
    if mxl < 0 {
        mxsl = 1 + neg;
    }
    rgt = rgt.max(0);
    let mut wf = mxsl + rgt + i32::from(rgt != 0);
    let mut e = if mxl > 100 || mnl <= -99 { 2 } else { 1 };
    let (mut w, mut d);
    if mxns != i32::MIN {
        d = mxns - 1;
        w = neg + i32::from(d > 0) + d + 4 + e;
        if i64::from(wf) <= i64::from(w) + scipen {
            e = 0;
            if nsmall as i32 > rgt {
                rgt = nsmall as i32;
                wf = mxsl + rgt + i32::from(rgt != 0);
            }
            d = rgt;
            w = wf;
        }
    } else {
        w = 0;
        d = 0;
        e = 0;
    }
    if naflag {
        w = w.max(2);
    }
    if nanflag || posinf {
        w = w.max(3);
    }
    if neginf {
        w = w.max(4);
    }
    Layout {
        w: w as usize,
        d: d as usize,
        e: e as usize,
    }
}

/// R's `format(x, digits = digits)` of one number, as all.equal writes
/// its mean difference.
pub(crate) fn format_number(x: f64, digits: i32) -> String {
    encode_real(x, format_real(&[x], digits, 0, 0), ".")
}

/// R's `print` of numbers at `digits` significant digits: one layout for
/// them all (`formatReal`), each without the padding that aligns them in
/// columns.
pub(crate) fn format_common(x: &[f64], digits: i32) -> Vec<String> {
    let l = format_real(x, digits, 0, 0);
    x.iter()
        .map(|&v| encode_real(v, l, ".").trim_start().to_string())
        .collect()
}

/// R's `format(x, digits = digits)` of numbers: one layout for them all,
/// each padded to its common width.
pub(crate) fn format_padded(x: &[f64], digits: i32) -> Vec<String> {
    let l = format_real(x, digits, 0, 0);
    x.iter().map(|&v| encode_real(v, l, ".")).collect()
}

/// R's `encodeReal0`: one number in the layout, right-aligned in `w`
/// (at most `NB - 1` wide, as R's buffer is).
fn encode_real(x: f64, l: Layout, dec: &str) -> String {
    let w = l.w.min(NB - 1);
    let x = if x == 0.0 { 0.0 } else { x };
    let text = if !x.is_finite() {
        let s = if is_na(x) {
            "NA"
        } else if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Inf"
        } else {
            "-Inf"
        };
        format!("{s:>w$}")
    } else {
        let spec = Spec {
            width: w,
            precision: Some(l.d),
            alt: l.e != 0 && l.d != 0,
            conv: if l.e != 0 { b'e' } else { b'f' },
            ..Spec::default()
        };
        // A precision is at most 20 (nsmall) or 22 (digits) and a fixed
        // number at most 310 digits: always under MAXLINE.
        spec.format_double(x).unwrap_or_default()
    };
    let mut text = text;
    if text.len() > NB - 1 {
        let mut end = NB - 1;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    if dec != "." {
        text = text.replace('.', dec);
    }
    text
}

/// Display width as R's `Rstrwid` counts it: combining marks and
/// zero-width characters take none, East Asian wide ones two.
fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| match c as u32 {
            0x0300..=0x036F
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x200B..=0x200F
            | 0x20D0..=0x20FF
            | 0xFE00..=0xFE0F
            | 0xFE20..=0xFE2F => 0,
            0x1100..=0x115F
            | 0x2E80..=0x303E
            | 0x3041..=0x33FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xA000..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6
            | 0x1F300..=0x1F64F
            | 0x1F900..=0x1F9FF
            | 0x20000..=0x2FFFD
            | 0x30000..=0x3FFFD => 2,
            _ => 1,
        })
        .sum()
}

#[derive(Clone, Copy, PartialEq)]
enum Justify {
    Left,
    Right,
    Centre,
    None,
}

/// Refuses `n` texts `width` wide beyond what flowcast writes: R's own
/// limit is its memory (or, for `format` of text, its C stack).
fn too_wide(width: usize, n: usize) -> Result<(), KernelError> {
    if width > MAX_TEXT_WIDTH || width.saturating_mul(n) > MAX_TOTAL_WIDTH {
        return Err(KernelError::new(format!(
            "a width of {width} for {n} elements is more than flowcast pads text to"
        )));
    }
    Ok(())
}

/// `do_format` for text: padded to the widest (or `width`), NA written
/// "NA" (flowcast's text NA is the text "NA" either way).
fn format_text(x: &[String], width: usize, justify: Justify) -> Result<Vec<String>, KernelError> {
    let w = if justify == Justify::None {
        0
    } else {
        x.iter().map(|s| display_width(s)).fold(width, usize::max)
    };
    too_wide(w, x.len())?;
    Ok(x.iter()
        .map(|s| {
            let b = w.saturating_sub(display_width(s));
            let before = match justify {
                Justify::Right => b,
                Justify::Centre => b / 2,
                _ => 0,
            };
            let after = if justify == Justify::Right {
                0
            } else {
                b - before
            };
            format!("{}{s}{}", " ".repeat(before), " ".repeat(after))
        })
        .collect())
}

/// R's `formatLogical` and `EncodeLogical`.
fn format_logical(x: &[Option<bool>], trim: bool, width: usize) -> Vec<String> {
    let mut w = 1;
    if !trim {
        for b in x {
            w = w.max(match b {
                None => 2,
                Some(true) => 4,
                Some(false) => 5,
            });
        }
    } else {
        w = 0;
    }
    let w = w.max(width).min(NB - 1);
    x.iter()
        .map(|b| {
            let s = match b {
                None => "NA",
                Some(true) => "TRUE",
                Some(false) => "FALSE",
            };
            format!("{s:>w$}")
        })
        .collect()
}

/// `prettyNum`'s `preserve.width`.
#[derive(Clone, Copy, PartialEq)]
enum Preserve {
    Common,
    Individual,
    None,
}

/// The marks `prettyNum` adds.
#[derive(Clone, Copy)]
struct Marks<'a> {
    big: &'a str,
    big_interval: usize,
    small: &'a str,
    small_interval: usize,
    decimal: &'a str,
    /// The decimal mark in the text given (`format` has already written
    /// `decimal`, `formatC` writes ".").
    input_decimal: &'a str,
    drop0trailing: bool,
    preserve: Preserve,
}

impl Default for Marks<'_> {
    fn default() -> Self {
        Marks {
            big: "",
            big_interval: 3,
            small: "",
            small_interval: 5,
            decimal: ".",
            input_decimal: ".",
            drop0trailing: false,
            preserve: Preserve::Common,
        }
    }
}

fn reversed(s: &str) -> String {
    s.chars().rev().collect()
}

fn regex(p: &str) -> Pattern {
    // Patterns built here from numbers: always valid.
    Pattern::new(p, false, false, false).unwrap_or(Pattern::Fixed(p.to_string()))
}

/// R's `prettyNum` for text written by `format`: `big.mark` every
/// `big.interval` digits before the decimal mark (on the reversed text,
/// as R does it), `small.mark` after it, trailing zeros dropped, then
/// the widths made common again.
fn pretty_num(x: Vec<String>, m: &Marks) -> Result<Vec<String>, KernelError> {
    if m.big.is_empty() && m.small.is_empty() && m.decimal == m.input_decimal && !m.drop0trailing {
        return Ok(x);
    }
    if m.input_decimal.is_empty() {
        return Err(KernelError::new("'input.d.mark' has no characters"));
    }
    let mut before = Vec::with_capacity(x.len());
    let mut after = Vec::with_capacity(x.len());
    let mut no_after = Vec::with_capacity(x.len());
    for s in &x {
        let mut parts: Vec<&str> = s.split(m.input_decimal).collect();
        // strsplit drops a trailing empty piece.
        if parts.last() == Some(&"") {
            parts.pop();
        }
        let (b, a) = match parts.len() {
            0 => (String::new(), None),
            1 => (parts[0].to_string(), None),
            n => (
                parts[..n - 1].join(m.input_decimal),
                Some(parts[n - 1].to_string()),
            ),
        };
        before.push(b);
        no_after.push(a.is_none());
        after.push(a.unwrap_or_default());
    }
    if !m.big.is_empty() {
        let wide = regex(&format!("[0-9]{{{},}}", m.big_interval + 1));
        let group = regex(&format!("([0-9]{{{}}})\\B", m.big_interval));
        let rep = format!("\\1{}", reversed(m.big).replace('\\', "\\\\"));
        for b in before.iter_mut().filter(|b| wide.is_match(b)) {
            let r = reversed(b);
            *b = reversed(&substitute(&group, &rep, &r, true, false).unwrap_or(r));
        }
    }
    if !m.small.is_empty() {
        let wide = regex(&format!("[0-9]{{{},}}", m.small_interval + 1));
        let group = regex(&format!("([0-9]{{{}}}\\B)", m.small_interval));
        let rep = format!("\\1{}", m.small.replace('\\', "\\\\"));
        for a in after.iter_mut().filter(|a| wide.is_match(a)) {
            *a = substitute(&group, &rep, a, true, false).unwrap_or_else(|| a.clone());
        }
    }
    if m.drop0trailing {
        // An exponent of zero goes, else trailing zeros.
        let exp0 = regex("e[+-]0+$");
        let zeros = regex("0+$");
        for (a, n) in after.iter_mut().zip(no_after.iter_mut()) {
            if *n {
                continue;
            }
            let p = if a.contains('e') { &exp0 } else { &zeros };
            if let Some(t) = substitute(p, "", a, false, false) {
                *a = t;
            }
            *n = a.is_empty();
        }
    }
    let mut out: Vec<String> = before
        .into_iter()
        .zip(after)
        .zip(&no_after)
        .map(|((b, a), n)| {
            if *n {
                format!("{b}{a}")
            } else {
                format!("{b}{}{a}", m.decimal)
            }
        })
        .collect();
    let grown: Vec<usize> = out
        .iter()
        .zip(&x)
        .map(|(new, old)| new.chars().count().saturating_sub(old.chars().count()))
        .collect();
    if m.preserve != Preserve::None && grown.iter().any(|&g| g > 0) {
        if m.preserve == Preserve::Individual {
            for (s, &g) in out.iter_mut().zip(&grown) {
                if g > 0 {
                    let blanks = s.len() - s.trim_start_matches(' ').len();
                    s.drain(..blanks.min(g));
                }
            }
        } else {
            out = format_text(&out, 0, Justify::Right)?;
        }
    }
    Ok(out)
}

/// The arguments `do_format` checks, read once.
#[derive(Clone, Copy)]
struct Options<'a> {
    trim: bool,
    digits: i32,
    nsmall: usize,
    width: usize,
    justify: Justify,
    scipen: i64,
    marks: Marks<'a>,
}

fn logical_arg(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => match v.as_logicals() {
            Some(l) if !l.is_empty() && l[0].is_some() => Ok(l[0] == Some(true)),
            _ => Err(KernelError::new(format!("invalid '{name}' argument"))),
        },
    }
}

/// R's `asInteger`: `None` for NA (and what is no number).
fn as_integer(v: &Value) -> Option<i64> {
    match v {
        Value::Str(s) => s.first()?.trim().parse::<f64>().ok(),
        v => v.as_f64_slice()?.first().copied(),
    }
    .filter(|x| !x.is_nan() && x.abs() < 2_147_483_648.0)
    .map(|x| x.trunc() as i64)
}

fn string_arg<'a>(
    args: &'a Args<&Value>,
    name: &str,
    default: &'a str,
) -> Result<&'a str, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(Value::Str(s)) if s.len() == 1 => Ok(&s[0]),
        Some(_) => Err(KernelError::new(format!("invalid '{name}' argument"))),
    }
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            trim: false,
            digits: 7,
            nsmall: 0,
            width: 0,
            justify: Justify::Left,
            scipen: 0,
            marks: Marks::default(),
        }
    }
}

/// The `prettyNum` arguments `format` and `formatC` share.
fn marks<'a>(args: &'a Args<&Value>) -> Result<Marks<'a>, KernelError> {
    if args
        .get("zero.print")
        .is_some_and(|v| !matches!(v, Value::Null))
    {
        return Err(KernelError::new(format!(
            "{}(zero.print = ) is not supported by flowcast",
            args.func
        )));
    }
    let interval = |name: &str, default: usize| -> Result<usize, KernelError> {
        match args.get(name) {
            None => Ok(default),
            Some(v) => as_integer(v)
                .filter(|&n| n >= 0)
                .map(|n| n as usize)
                .ok_or_else(|| KernelError::new(format!("invalid '{name}' argument"))),
        }
    };
    let decimal = string_arg(args, "decimal.mark", ".")?;
    Ok(Marks {
        big: string_arg(args, "big.mark", "")?,
        big_interval: interval("big.interval", 3)?,
        small: string_arg(args, "small.mark", "")?,
        small_interval: interval("small.interval", 5)?,
        decimal,
        input_decimal: decimal,
        drop0trailing: logical_arg(args, "drop0trailing", false)?,
        preserve: Preserve::Common,
    })
}

fn options<'a>(args: &'a Args<&Value>) -> Result<Options<'a>, KernelError> {
    let justify = match super::grep::choice(args, "justify", &["left", "right", "centre", "none"])?
    {
        "left" => Justify::Left,
        "right" => Justify::Right,
        "centre" => Justify::Centre,
        _ => Justify::None,
    };
    let trim = logical_arg(args, "trim", false)?;
    let digits = match args.get("digits") {
        None | Some(Value::Null) => 7,
        Some(v) => {
            let d = as_integer(v).unwrap_or(i64::from(i32::MIN));
            if !(MIN_DIGITS..=MAX_DIGITS).contains(&d) {
                return Err(KernelError::new(format!(
                    "invalid value {d} for 'digits' argument"
                )));
            }
            d as i32
        }
    };
    let nsmall = match args.get("nsmall") {
        None => 0,
        Some(v) => match as_integer(v) {
            Some(n @ 0..=20) => n as usize,
            _ => return Err(KernelError::new("invalid 'nsmall' argument")),
        },
    };
    let width = match args.get("width") {
        None | Some(Value::Null) => 0,
        Some(v) => as_integer(v)
            .ok_or_else(|| KernelError::new("invalid 'width' argument"))?
            .max(0) as usize,
    };
    logical_arg(args, "na.encode", true)?;
    let scipen = match args.get("scientific") {
        None => 0,
        Some(Value::Bool(b)) if b.len() == 1 => match b[0] {
            None => 0,
            Some(true) => -99,
            Some(false) => 310,
        },
        Some(v @ Value::Num(n)) if n.len() == 1 => {
            as_integer(v).ok_or_else(|| KernelError::new("invalid 'scientific' argument"))?
        }
        Some(_) => return Err(KernelError::new("invalid 'scientific' argument")),
    };
    Ok(Options {
        trim,
        digits,
        nsmall,
        width,
        justify,
        scipen,
        marks: Marks {
            preserve: if trim {
                Preserve::Individual
            } else {
                Preserve::Common
            },
            ..marks(args)?
        },
    })
}

/// `format.default` of one value.
fn format_value(x: &Value, o: &Options) -> Result<Vec<String>, KernelError> {
    Ok(match x {
        Value::Null => vec!["NULL".into()],
        Value::Num(_) | Value::Mat(_) => {
            let v = x.as_f64_slice().unwrap_or_default();
            if v.is_empty() {
                return Ok(Vec::new());
            }
            let mut l = format_real(&v, o.digits, o.nsmall, o.scipen);
            if o.trim {
                l.w = 0;
            }
            l.w = l.w.max(o.width);
            let r = v
                .iter()
                .map(|&x| encode_real(x, l, o.marks.decimal))
                .collect();
            pretty_num(r, &o.marks)?
        }
        Value::Bool(_) | Value::BoolMat(_) => {
            let l = x.as_logicals().unwrap_or_default();
            format_logical(&l, o.trim, o.width)
        }
        Value::Str(s) => format_text(s, o.width, o.justify)?,
        Value::Factor(f) => format_text(&f.labels(), o.width, o.justify)?,
        Value::List(l) => {
            // format.default's list branch: each element formatted alone,
            // then pasted.
            l.items
                .iter()
                .map(|item| format_value(item, o).map(|v| v.join(", ")))
                .collect::<Result<_, _>>()?
        }
        other => {
            return Err(KernelError::new(format!(
                "format() of {} is not supported by flowcast",
                other.type_name()
            )))
        }
    })
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut o = options(args)?;
    let x = super::arg_or_null(args, "x");
    // A list's elements are trimmed and unjustified unless asked.
    if let Value::List(_) = x {
        if !args.has("trim") {
            o.trim = true;
            o.marks.preserve = Preserve::Individual;
        }
        if !args.has("justify") {
            o.justify = Justify::None;
        }
    }
    format_value(x, &o).map(|v| Value::strs_shaped(v, x.dims()))
}

/// `format.default(x, width = width, justify = ...)`: what `formatC`'s
/// `format.char` calls for text and for the special values.
fn format_char(x: &Value, width: Option<i64>, flag: &str) -> Result<Vec<String>, KernelError> {
    let (width, left) = match width {
        None => (0, flag == "-"),
        Some(w) if w < 0 => (w.unsigned_abs() as usize, true),
        Some(w) => (w as usize, flag == "-"),
    };
    let o = Options {
        width,
        justify: if left { Justify::Left } else { Justify::Right },
        ..Options::default()
    };
    format_value(x, &o)
}

/// The C conversion `%{flag}.{precision}{conv}` as `str_signif` builds
/// it, its width left to [`c_pad`]; the flags C reads in a locale (`'`,
/// `I`) change nothing in R's numeric C locale.
fn c_spec(flag: &str, precision: Option<usize>, conv: u8) -> Spec {
    Spec {
        plus: flag.contains('+'),
        space: flag.contains(' '),
        alt: flag.contains('#'),
        precision,
        conv,
        ..Spec::default()
    }
}

/// C's padding of a converted number to `|width|` (`str_signif` passes
/// the width by `*`): on the right for a negative width or `-`, with
/// zeros after the sign for `0`, else spaces on the left. Inside R,
/// glibc keeps the `0` flag when a negative width (not a `-` flag)
/// left-justifies a floating-point number, and pads it on the right with
/// zeros.
fn c_pad(s: String, width: i64, flag: &str, float: bool) -> String {
    let w = width.unsigned_abs() as usize;
    if s.len() >= w {
        return s;
    }
    let fill = w - s.len();
    let (minus, zero) = (flag.contains('-'), flag.contains('0'));
    if minus || width < 0 {
        let c = if float && zero && !minus { "0" } else { " " };
        s + &c.repeat(fill)
    } else if zero {
        let sign = usize::from(s.starts_with(['+', '-', ' ']));
        format!("{}{}{}", &s[..sign], "0".repeat(fill), &s[sign..])
    } else {
        " ".repeat(fill) + &s
    }
}

/// A number of `formatC`'s C buffer: at most `cap` bytes.
fn capped(mut s: String, cap: usize) -> String {
    if s.len() > cap {
        let mut end = cap;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

/// R's `str_signif` (util.c) for one double: `%*.*<format>`, or for
/// "fg" `digits` significant digits in fixed notation (`%.*f` below
/// 1e-4, trailing zeros dropped unless `#`, else `%*.*g`).
fn str_signif(x: f64, width: i64, digits: i64, format: &str, flag: &str) -> String {
    let dig = digits.unsigned_abs() as usize;
    let rm_trailing_0 = digits >= 0;
    let write = |s: &Spec, x: f64| s.format_double(x).unwrap_or_default();
    if format != "fg" {
        let conv = format.as_bytes().first().copied().unwrap_or(b'g');
        return c_pad(write(&c_spec(flag, Some(dig), conv), x), width, flag, true);
    }
    if x == 0.0 {
        return "0".into();
    }
    let mut xx = x;
    let xxx = x.abs();
    let mut iex = (xxx.log10() + 1e-12).floor() as i64;
    let big = fround(xxx / 10f64.powf(iex as f64) + 1e-12, dig as f64 - 1.0);
    if iex > 0 && big >= 10.0 {
        xx = big * 10f64.powf(iex as f64);
        iex += 1;
    }
    if iex == -4 && xx.abs() < 1e-4 {
        iex = -5;
    }
    if iex < -4 {
        let p = (dig as i64 - 1 - iex).max(0) as usize;
        let mut s = write(&c_spec(flag, Some(p), b'f'), xx);
        if rm_trailing_0 {
            let kept = s.trim_end_matches('0').len();
            s.truncate(kept);
        }
        s
    } else {
        let p = if iex >= dig as i64 {
            iex as usize + 1
        } else {
            dig
        };
        c_pad(write(&c_spec(flag, Some(p), b'g'), xx), width, flag, true)
    }
}

/// R's `storage.mode` of what formatC may be given.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Double,
    Integer,
    Logical,
    Character,
}

/// `formatC(x, digits, width, format, flag, mode, big.mark, ...)`, as R's
/// `formatC` and its C `str_signif`. flowcast's numbers are doubles, so
/// the default format is "g" where R gives an integer vector "d".
pub(super) fn formatc_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let dims = super::arg_or_null(args, "x").dims();
    Ok(match formatc_flat(args, ctx)? {
        Value::Str(v) => Value::strs_shaped(v, dims),
        other => other,
    })
}

fn formatc_flat(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let flag = match args.get("flag") {
        None => "",
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(_) => {
            return Err(KernelError::new(
                "'flag' must be a string, i.e., of length 1",
            ))
        }
    };
    if !flag.chars().all(|c| "0+- #'I".contains(c)) {
        return Err(KernelError::new(
            "'flag' should contain only characters from [0+- #'I]",
        ));
    }
    let int_arg = |name: &str| -> Result<Option<i64>, KernelError> {
        match args.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => as_integer(v)
                .map(Some)
                .ok_or_else(|| KernelError::new(format!("invalid '{name}' argument"))),
        }
    };
    let width = int_arg("width")?;
    let digits = int_arg("digits")?;
    if x.is_empty() {
        return Ok(Value::Str(Vec::new()));
    }
    let mut mode = match x {
        Value::Str(_) => Mode::Character,
        Value::Bool(_) | Value::BoolMat(_) => Mode::Logical,
        Value::Factor(_) => Mode::Integer,
        Value::Num(_) | Value::Mat(_) => Mode::Double,
        other => {
            return Err(KernelError::new(format!(
                "formatC() of {} is not supported by flowcast",
                other.type_name()
            )))
        }
    };
    let mut values: Vec<f64> = match x {
        Value::Factor(f) => f.integer_codes(),
        Value::Str(_) => Vec::new(),
        v => v.as_f64_slice().unwrap_or_default().into_owned(),
    };
    let mut warned = false;
    let mut to_integer = |v: &mut Vec<f64>| {
        for x in v.iter_mut() {
            if !x.is_nan() && (*x >= 2_147_483_648.0 || *x <= -2_147_483_648.0) {
                *x = crate::kernels::value::NA;
                warned = true;
            } else {
                *x = x.trunc();
            }
        }
    };
    match args.get("mode") {
        None | Some(Value::Null) => {}
        Some(Value::Str(s)) if s.len() == 1 && matches!(s[0].as_str(), "double" | "real") => {
            if mode == Mode::Character {
                return Err(KernelError::new(
                    "formatC() of text as numbers is not supported by flowcast",
                ));
            }
            mode = Mode::Double;
        }
        Some(Value::Str(s)) if s.len() == 1 && s[0] == "integer" => {
            if mode == Mode::Character {
                return Err(KernelError::new(
                    "formatC() of text as numbers is not supported by flowcast",
                ));
            }
            to_integer(&mut values);
            mode = Mode::Integer;
        }
        Some(Value::Str(s)) if s.len() == 1 && s[0] == "character" => mode = Mode::Character,
        Some(_) => {
            return Err(KernelError::new(
                "'mode' must be \"double\" (\"real\"), \"integer\" or \"character\"",
            ))
        }
    }
    let format = match args.get("format") {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].as_str()),
        Some(_) => {
            return Err(KernelError::new(
                "'format' must be one of {\"f\",\"e\",\"E\",\"g\",\"G\", \"fg\", \"s\"}",
            ))
        }
    };
    if mode == Mode::Character || format == Some("s") {
        if mode != Mode::Character {
            ctx.warn("coercing argument to \"character\" for format=\"s\"");
            let text = super::text::as_character(x)
                .ok_or_else(|| KernelError::new("cannot coerce to character"))?;
            let text = Value::Str(
                text.into_iter()
                    .map(|s| s.unwrap_or_else(|| "NA".into()))
                    .collect(),
            );
            return format_char(&text, width, flag).map(Value::Str);
        }
        return format_char(x, width, flag).map(Value::Str);
    }
    let format = match format {
        None if mode == Mode::Integer => "d",
        None => "g",
        Some(f @ ("f" | "e" | "E" | "g" | "G" | "fg")) => {
            if mode == Mode::Integer {
                mode = Mode::Double;
            }
            f
        }
        Some("d") => {
            if mode != Mode::Integer {
                to_integer(&mut values);
                mode = Mode::Integer;
            }
            "d"
        }
        Some(_) => {
            return Err(KernelError::new(
                "'format' must be one of {\"f\",\"e\",\"E\",\"g\",\"G\", \"fg\", \"s\"}",
            ))
        }
    };
    if warned {
        ctx.warn("NAs introduced by coercion to integer range");
    }
    if mode == Mode::Logical {
        return Err(KernelError::new("unsupported type "));
    }
    let ok: Vec<bool> = values.iter().map(|v| v.is_finite()).collect();
    let special: Vec<String> = values
        .iter()
        .filter(|v| !v.is_finite())
        .map(|&v| crate::kernels::data::r_num_to_string(v))
        .collect();
    for v in values.iter_mut().filter(|v| !v.is_finite()) {
        *v = 0.0;
    }
    let (mut width, mut digits) = (width, digits);
    if width.is_none() && digits.is_none() {
        width = Some(1);
    }
    let mut digits = match digits.take() {
        None => {
            if mode == Mode::Integer {
                2
            } else {
                4
            }
        }
        Some(d) if d < 0 => 6,
        Some(d) => {
            let max = if format == "f" { 324 } else { 50 };
            if d > max {
                ctx.warn(format!("'digits' reduced to {max}"));
                max
            } else {
                d
            }
        }
    };
    let width = match width {
        None => digits + 1,
        Some(0) => digits,
        Some(w) => w,
    };
    let nf = flag.chars().count() as i64;
    let strlen: Vec<usize> = values
        .iter()
        .map(|&v| {
            let body = if format == "f" || format == "fg" {
                let x_ex = (v + f64::from(u8::from(v == 0.0))).abs().log10().floor() as i64;
                let lead = i64::from(v < 0.0 || !flag.is_empty()) + digits;
                if format == "f" {
                    lead + 2 + x_ex.max(0)
                } else {
                    lead + 1 + x_ex.max(digits).max(digits - x_ex + 1) + nf
                }
            } else {
                digits + 8
            };
            body.max(width.abs()) as usize + 2
        })
        .collect();
    if digits > 0 && flag.contains('#') {
        digits = -digits;
    }
    if width == 0 {
        return Err(KernelError::new("width cannot be zero"));
    }
    too_wide(width.unsigned_abs() as usize, values.len())?;
    let mut r: Vec<String> = values
        .iter()
        .zip(&strlen)
        .map(|(&v, &cap)| {
            let s = if format == "d" {
                let s = c_spec(flag, None, b'd')
                    .format_int(v as i32)
                    .unwrap_or_default();
                c_pad(s, width, flag, false)
            } else {
                str_signif(v, width, digits, format, flag)
            };
            capped(s, cap)
        })
        .collect();
    if !special.is_empty() {
        let text = format_char(&Value::Str(special), Some(width), flag)?;
        let mut text = text.into_iter();
        for (s, _) in r.iter_mut().zip(&ok).filter(|(_, ok)| !**ok) {
            *s = text.next().unwrap_or_default();
        }
    }
    let preserve = super::grep::choice(args, "preserve.width", &["individual", "common", "none"])?;
    let marks = Marks {
        input_decimal: ".",
        preserve: match preserve {
            "individual" => Preserve::Individual,
            "common" => Preserve::Common,
            _ => Preserve::None,
        },
        ..marks(args)?
    };
    pretty_num(r, &marks).map(Value::Str)
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let len = match &x {
        Type::Null => Some(1),
        Type::Record { .. }
        | Type::Formula { .. }
        | Type::Complex { .. }
        | Type::ComplexMat { .. } => {
            return Err(args.error(
                "x",
                format!("format() of {} is not supported by flowcast", x.describe()),
            ))
        }
        Type::Mat { rows, cols } | Type::BoolMat { rows, cols } | Type::StrMat { rows, cols } => {
            return Ok(Type::str_mat(*rows, *cols));
        }
        t => t.len(),
    };
    Ok(Type::Str { len, value: None })
}

pub(super) fn formatc_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::Record { .. } | Type::Formula { .. } | Type::List { .. } | Type::Complex { .. }
    ) {
        return Err(args.error(
            "x",
            format!("formatC() of {} is not supported by flowcast", x.describe()),
        ));
    }
    Ok(match x.dims() {
        Some((rows, cols)) => Type::str_mat(rows, cols),
        None => Type::Str {
            len: x.len(),
            value: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(x: &[f64], digits: i32, nsmall: usize) -> Vec<String> {
        let l = format_real(x, digits, nsmall, 0);
        x.iter().map(|&v| encode_real(v, l, ".")).collect()
    }

    #[test]
    fn one_layout_for_the_whole_vector() {
        assert_eq!(fmt(&[1.0, 10.0, 100.0], 7, 0), ["  1", " 10", "100"]);
        assert_eq!(fmt(&[1.5, is_na_value(), 3.0], 7, 0), ["1.5", " NA", "3.0"]);
        assert_eq!(
            fmt(&[123456789.0, 0.1], 7, 0),
            ["123456789.0", "        0.1"]
        );
        assert_eq!(
            fmt(&[1.123456789, 1e6], 7, 0),
            ["1.123457e+00", "1.000000e+06"]
        );
        assert_eq!(fmt(&[1e5], 7, 0), ["1e+05"]);
        assert_eq!(fmt(&[1234567.891], 7, 0), ["1234568"]);
        assert_eq!(fmt(&[9999.95], 4, 0), ["10000"]);
        assert_eq!(fmt(&[0.15], 1, 0), ["0.1"]);
        assert_eq!(fmt(&[0.0015, 0.0025], 1, 0), ["0.002", "0.003"]);
        assert_eq!(fmt(&[2.5], 1, 0), ["2"]);
        assert_eq!(fmt(&[5e-324], 7, 0), ["4.940656e-324"]);
        assert_eq!(fmt(&[0.1], 22, 0), ["0.1000000000000000055511"]);
        assert_eq!(fmt(&[c_neg_zero()], 7, 0), ["0"]);
        assert_eq!(fmt(&[2.0], 7, 2), ["2.00"]);
    }

    fn is_na_value() -> f64 {
        crate::kernels::value::NA
    }

    fn c_neg_zero() -> f64 {
        -0.0
    }

    #[test]
    fn nearbyintl_rounds_ties_to_even() {
        for (v, r) in [
            (0.5, 0.0),
            (1.5, 2.0),
            (2.5, 2.0),
            (12.5, 12.0),
            (7.25, 7.0),
        ] {
            assert_eq!(nearbyintl(LongDouble::from_f64(v)), r);
        }
        // Just above a tie, by less than a double's last bit.
        let v = LongDouble::from_f64(12.5).add(LongDouble::from_f64(1e-17));
        assert_eq!(nearbyintl(v), 13.0);
        let v = LongDouble::from_f64(12.5).sub(LongDouble::from_f64(1e-17));
        assert_eq!(nearbyintl(v), 12.0);
    }
}
