//! Element-wise maths (`sqrt`, `exp`, `log`, `abs`, the inverse
//! trigonometric and the hyperbolic functions, `cospi`, `digamma`) and
//! `min`/`max`.

use nalgebra::DMatrix;

use crate::kernels::args::{ArgError, Args};
use crate::kernels::nmath::{hyperbolic, polygamma};
use crate::kernels::value::NA;
use crate::kernels::{opt, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value, DOTS};

const X_PARAM: &[Param] = &[req("x")];

const fn unary_math(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: X_PARAM,
        random: false,
        shape: math_shape,
        eval: math_eval,
    }
}

pub(super) const SQRT: Kernel = unary_math("sqrt");
pub(super) const EXP: Kernel = unary_math("exp");
pub(super) const ABS: Kernel = unary_math("abs");
pub(super) const LOG2: Kernel = unary_math("log2");
pub(super) const LOG10: Kernel = unary_math("log10");
pub(super) const LOG1P: Kernel = unary_math("log1p");
pub(super) const EXPM1: Kernel = unary_math("expm1");
pub(super) const FLOOR: Kernel = unary_math("floor");
pub(super) const CEILING: Kernel = unary_math("ceiling");
pub(super) const SIGN: Kernel = unary_math("sign");
pub(super) const ASIN: Kernel = unary_math("asin");
pub(super) const ACOS: Kernel = unary_math("acos");
pub(super) const SINH: Kernel = unary_math("sinh");
pub(super) const COSH: Kernel = unary_math("cosh");
pub(super) const TANH: Kernel = unary_math("tanh");
pub(super) const ASINH: Kernel = unary_math("asinh");
pub(super) const ACOSH: Kernel = unary_math("acosh");
pub(super) const ATANH: Kernel = unary_math("atanh");
pub(super) const COSPI: Kernel = unary_math("cospi");
pub(super) const SINPI: Kernel = unary_math("sinpi");
pub(super) const TANPI: Kernel = unary_math("tanpi");
pub(super) const DIGAMMA: Kernel = unary_math("digamma");
pub(super) const TRIGAMMA: Kernel = unary_math("trigamma");
pub(super) const TRUNC: Kernel = Kernel {
    name: "trunc",
    params: &[req("x"), DOTS],
    random: false,
    shape: math_shape,
    eval: math_eval,
};
pub(super) const SIGNIF: Kernel = Kernel {
    name: "signif",
    params: &[req("x"), opt("digits")],
    random: false,
    shape: math_shape,
    eval: math_eval,
};
pub(super) const LOG: Kernel = Kernel {
    name: "log",
    params: &[req("x"), opt("base")],
    random: false,
    shape: math_shape,
    eval: math_eval,
};
/// base R's `logb(x, base)`: `log(x, base)` under an S-compatible name.
pub(super) const LOGB: Kernel = Kernel {
    name: "logb",
    params: &[req("x"), opt("base")],
    random: false,
    shape: |args, ctx| {
        let mut log = args.clone();
        log.func = "log";
        math_shape(&log, ctx)
    },
    eval: |args, ctx| {
        let mut log = args.clone();
        log.func = "log";
        math_eval(&log, ctx)
    },
};
pub(super) const ROUND: Kernel = Kernel {
    name: "round",
    params: &[req("x"), opt("digits")],
    random: false,
    shape: math_shape,
    eval: math_eval,
};
pub(super) const ZAPSMALL: Kernel = Kernel {
    name: "zapsmall",
    params: &[req("x"), opt("digits")],
    random: false,
    shape: zapsmall_shape,
    eval: zapsmall_eval,
};
pub(super) const MIN: Kernel = Kernel {
    name: "min",
    params: &[DOTS, opt("na.rm")],
    random: false,
    shape: extreme_shape,
    eval: extreme_eval,
};
pub(super) const MAX: Kernel = Kernel {
    name: "max",
    params: &[DOTS, opt("na.rm")],
    random: false,
    shape: extreme_shape,
    eval: extreme_eval,
};

/// R's `logbase`.
fn log_base(x: f64, base: Option<f64>) -> f64 {
    let Some(b) = base else { return x.ln() };
    if b == 10.0 {
        x.log10()
    } else if b == 2.0 {
        x.log2()
    } else {
        x.ln() / b.ln()
    }
}

/// `x.round_ties_even()` without a libm call (`rint` is not inlined on
/// baseline x86-64): adding and subtracting 2^52 rounds to an integer in
/// the default ties-to-even mode; beyond 2^52 every double is one.
fn round_ties_even(x: f64) -> f64 {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    let a = x.abs();
    if a < TWO_52 {
        ((a + TWO_52) - TWO_52).copysign(x)
    } else {
        x
    }
}

/// What R's `x + digits` gives when either is NaN: on the hardware, the
/// first NaN's payload (NA stays NA). Said outright, because release builds
/// constant-fold `NaN + d` and lose the payload.
fn first_nan(x: f64, digits: f64) -> Option<f64> {
    if x.is_nan() {
        Some(x)
    } else if digits.is_nan() {
        Some(digits)
    } else {
        None
    }
}

/// R (>= 4.0.0)'s `fround`: the shorter of the two decimal candidates
/// around x, ties to the even last digit.
pub fn fround(x: f64, digits: f64) -> f64 {
    const MAX_DIGITS: f64 = 308.0;
    if let Some(nan) = first_nan(x, digits) {
        return nan;
    }
    if !x.is_finite() || digits > MAX_DIGITS + 15.0 || x == 0.0 {
        return x;
    }
    if digits < -MAX_DIGITS {
        return 0.0;
    }
    if digits == 0.0 {
        return round_ties_even(x);
    }
    let dig = (digits + 0.5).floor() as i32;
    let (sgn, x) = if x < 0.0 { (-1.0, -x) } else { (1.0, x) };
    let logb = f64::from(x.log2().floor() as i32);
    if std::f64::consts::LOG10_2 * (0.5 + logb) + f64::from(dig) > 15.0 {
        return sgn * x;
    }
    let (x10, xd, xu);
    if dig > 308 {
        // fround.c's |x| << 1 case: 10^dig would overflow, so x is scaled
        // by 10^308 and then by the rest.
        let p10 = pow_di(10.0, dig - 308);
        let pow10 = pow_di(10.0, 308);
        x10 = (x * pow10) * p10;
        xd = x10.floor() / pow10 / p10;
        xu = x10.ceil() / pow10 / p10;
    } else if dig > 0 {
        let p10 = 10f64.powi(dig);
        x10 = p10 * x;
        xd = x10.floor() / p10;
        xu = x10.ceil() / p10;
    } else {
        let p10 = 10f64.powi(-dig);
        x10 = x / p10;
        xd = x10.floor() * p10;
        xu = x10.ceil() * p10;
    }
    let (du, dd) = (xu - x, x - xd);
    let odd = x10.floor() % 2.0 == 1.0;
    sgn * if du < dd || (du == dd && odd) { xu } else { xd }
}

/// R's `R_pow_di`: x to a whole power by repeated squaring.
fn pow_di(mut x: f64, n: i32) -> f64 {
    let mut pow = 1.0;
    if x.is_nan() {
        return x;
    }
    if n != 0 {
        if !x.is_finite() {
            return super::ops::r_pow(x, f64::from(n));
        }
        let negative = n < 0;
        let mut n = n.unsigned_abs();
        loop {
            if n & 1 != 0 {
                pow *= x;
            }
            n >>= 1;
            if n == 0 {
                break;
            }
            x *= x;
        }
        if negative {
            pow = 1.0 / pow;
        }
    }
    pow
}

/// R's `fprec` (nmath/fprec.c): `signif(x, digits)`.
pub fn fprec(x: f64, digits: f64) -> f64 {
    const MAX_DIGITS: i32 = 22;
    const MAX10E: i32 = f64::MAX_10_EXP;
    if let Some(nan) = first_nan(x, digits) {
        return nan;
    }
    if !x.is_finite() {
        return x;
    }
    let digits = if digits.is_finite() {
        digits
    } else if digits > 0.0 {
        return x;
    } else {
        1.0
    };
    if x == 0.0 {
        return x;
    }
    let mut dig = digits.round() as i32;
    if dig > MAX_DIGITS {
        return x;
    } else if dig < 1 {
        dig = 1;
    }
    let (sgn, x) = if x < 0.0 { (-1.0, -x) } else { (1.0, x) };
    let l10 = x.log10();
    let mut e10 = dig - 1 - l10.floor() as i32;
    if l10.abs() < f64::from(MAX10E - 2) {
        let mut p10 = 1.0;
        if e10 > MAX10E {
            p10 = pow_di(10.0, e10 - MAX10E);
            e10 = MAX10E;
        }
        if e10 > 0 {
            let pow10 = pow_di(10.0, e10);
            sgn * ((x * pow10 * p10).round_ties_even() / pow10) / p10
        } else {
            let pow10 = pow_di(10.0, -e10);
            sgn * ((x / pow10).round_ties_even() * pow10)
        }
    } else {
        let do_round = f64::from(MAX10E) - l10 >= pow_di(10.0, -dig);
        let e2 = dig + if e10 > 0 { MAX_DIGITS } else { -MAX_DIGITS };
        let p10 = pow_di(10.0, e2);
        let mut x = x * p10;
        let big_p10 = pow_di(10.0, e10 - e2);
        x *= big_p10;
        if do_round {
            x += 0.5;
        }
        x = x.floor() / p10;
        sgn * x / big_p10
    }
}

/// R's `sign`: -1, 0 or 1, NaN kept.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x * 0.0
    }
}

fn apply(name: &str, x: &[f64], base: Option<f64>) -> Vec<f64> {
    if name == "round" {
        let digits = base.unwrap_or(0.0);
        if digits == 0.0 {
            // fround's own digits = 0 case, without its checks per element:
            // NA, NaN, infinities and zeros come through unchanged.
            return x.iter().map(|&v| round_ties_even(v)).collect();
        }
        return x.iter().map(|&v| fround(v, digits)).collect();
    }
    if name == "signif" {
        let digits = base.unwrap_or(6.0);
        return x.iter().map(|&v| fprec(v, digits)).collect();
    }
    let f: fn(f64) -> f64 = match name {
        "sqrt" => f64::sqrt,
        "exp" => f64::exp,
        "abs" => f64::abs,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "expm1" => f64::exp_m1,
        "floor" => f64::floor,
        "ceiling" => f64::ceil,
        "trunc" => f64::trunc,
        "sign" => sign,
        // std's call the C library, as R does; asinh, acosh and atanh
        // are glibc's ported (std's own differ in the last bit).
        "asin" => f64::asin,
        "acos" => f64::acos,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => hyperbolic::asinh,
        "acosh" => hyperbolic::acosh,
        "atanh" => hyperbolic::atanh,
        "cospi" => hyperbolic::cospi,
        "sinpi" => hyperbolic::sinpi,
        "tanpi" => hyperbolic::tanpi,
        "digamma" => polygamma::digamma,
        "trigamma" => polygamma::trigamma,
        _ => return x.iter().map(|&v| log_base(v, base)).collect(),
    };
    // NA must stay NA (not become a plain NaN) through the libm call.
    x.iter()
        .map(|&v| if v.is_nan() { v + 0.0 } else { f(v) })
        .collect()
}

/// R's `round(x, digits)` with a vector of digits: both recycled to the
/// longer (arithmetic.c, `math2`), the result shaped as the longer.
fn round_recycled(func: &str, x: &Value, data: &[f64], digits: &[f64]) -> Value {
    let f = if func == "signif" { fprec } else { fround };
    let n = if data.is_empty() || digits.is_empty() {
        0
    } else {
        data.len().max(digits.len())
    };
    let out: Vec<f64> = (0..n)
        .map(|i| f(data[i % data.len()], digits[i % digits.len()]))
        .collect();
    match x {
        Value::Mat(m) if m.len() == n => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    }
}

/// R's `log(x, base)` with a vector of bases, recycled as
/// [`round_recycled`]'s digits are.
fn log_recycled(x: &Value, data: &[f64], base: &[f64]) -> Value {
    let n = if data.is_empty() || base.is_empty() {
        0
    } else {
        data.len().max(base.len())
    };
    let out: Vec<f64> = (0..n)
        .map(|i| log_base(data[i % data.len()], Some(base[i % base.len()])))
        .collect();
    match x {
        Value::Mat(m) if m.len() == n => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    }
}

/// The functions that can make a NaN of a number: R's math1 warns for
/// each (the others never make one).
fn warns_nan(func: &str) -> bool {
    matches!(
        func,
        "sqrt"
            | "log"
            | "log2"
            | "log10"
            | "log1p"
            | "asin"
            | "acos"
            | "acosh"
            | "atanh"
            | "cospi"
            | "sinpi"
            | "tanpi"
            | "digamma"
            | "trigamma"
    )
}

fn math_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(r) = super::frame_ops::math(args, ctx, math_eval) {
        return r;
    }
    let x = args.get("x").unwrap_or(&Value::Null);
    if matches!(x, Value::Factor(_)) {
        // Math.factor.
        return Err(KernelError::new(format!(
            "\u{2018}{}\u{2019} not meaningful for factors",
            args.func
        )));
    }
    if let Some(r) = super::complex_ops::math(args.func, x, args.get_if_formal("base")) {
        return r;
    }
    let data = x.as_f64_slice().ok_or_else(|| {
        KernelError::new(format!(
            "non-numeric argument to mathematical function {}()",
            args.func
        ))
    })?;
    // math2: x and digits recycled against each other.
    if matches!(args.func, "round" | "signif") && args.has("digits") {
        let digits = args.nums("digits")?;
        if digits.len() != 1 {
            return Ok(round_recycled(args.func, x, &data, &digits));
        }
    }
    // do_log: x and base recycled against each other too.
    if args.func == "log" && args.has("base") {
        let base = args.nums("base")?;
        if base.len() != 1 {
            let out = log_recycled(x, &data, &base);
            let made_nan = out.as_f64_slice().is_some_and(|o| {
                o.iter().enumerate().any(|(i, y)| {
                    y.is_nan() && !data[i % data.len()].is_nan() && !base[i % base.len()].is_nan()
                })
            });
            if made_nan {
                ctx.warn("NaNs produced");
            }
            return Ok(out);
        }
    }
    let base = match args.func {
        "log" if args.has("base") => Some(args.scalar("base")?),
        "round" | "signif" if args.has("digits") => Some(args.scalar("digits")?),
        _ => None,
    };
    let out = apply(args.func, &data, base);
    // R's math1: a NaN made from a number that was not one.
    if warns_nan(args.func)
        && out
            .iter()
            .zip(data.iter())
            .any(|(y, x)| y.is_nan() && !x.is_nan())
    {
        ctx.warn("NaNs produced");
    }
    Ok(match x {
        Value::Mat(m) => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    })
}

fn math_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x").and_then(super::frame_ops::math_shape) {
        return t.map_err(|m| args.error("x", m));
    }
    if let Some(t) = args
        .ty("x")
        .and_then(|t| super::complex_ops::math_shape(args.func, t))
    {
        return t.map_err(|m| args.error("x", m));
    }
    if let Some(Type::Factor { .. }) = args.ty("x") {
        // Math.factor.
        return Err(args.error(
            "x",
            format!("\u{2018}{}\u{2019} not meaningful for factors", args.func),
        ));
    }
    let extra = match args.func {
        "log" => "base",
        "round" | "signif" => "digits",
        _ => "",
    };
    if matches!(args.func, "round" | "signif" | "log") {
        if let Some(d) = args.ty(extra).filter(|d| d.len() != Some(1)) {
            if !d.is_numeric() && !matches!(d, Type::Any) {
                return Err(args.error(
                    extra,
                    format!(
                        "non-numeric argument to mathematical function: {}",
                        d.describe()
                    ),
                ));
            }
            let x = args.ty("x").cloned().unwrap_or(Type::Any);
            return Ok(match (x.len(), d.len()) {
                (Some(a), Some(b)) if a >= b && matches!(x, Type::Mat { .. }) => x,
                (Some(0), _) | (_, Some(0)) => Type::num(0),
                (Some(a), Some(b)) => Type::num(a.max(b)),
                _ => Type::num_unknown(),
            });
        }
    }
    // round(x, "mins"): the units of round.POSIXt, known only at the run
    // to be a date-time's.
    if args.func == "round" && matches!(args.ty("digits"), Some(Type::Str { len: Some(1), .. })) {
        return Ok(Type::Num {
            len: args.ty("x").and_then(Type::len),
            value: None,
        });
    }
    if let Some(t) = Some(extra)
        .filter(|e| !e.is_empty())
        .and_then(|e| args.ty(e))
        .filter(|t| !t.is_numeric() && !matches!(t, Type::Any | Type::Null))
    {
        return Err(args.error(
            extra,
            format!(
                "non-numeric argument to mathematical function: {}",
                t.describe()
            ),
        ));
    }
    let base = if !extra.is_empty() && args.has(extra) {
        args.const_scalar_or(extra, None)?
    } else {
        None
    };
    match args.ty("x") {
        Some(t @ Type::Mat { .. }) => Ok(t.clone()),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok(match t.const_nums() {
            Some(v) if extra.is_empty() || !args.has(extra) || base.is_some() => {
                Type::num_const(apply(args.func, &v, base))
            }
            _ => Type::Num {
                len: t.len(),
                value: None,
            },
        }),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) => Err(args.error(
            "x",
            format!(
                "non-numeric argument to mathematical function {}(): {}",
                args.func,
                t.describe()
            ),
        )),
    }
}

/// R's `min`/`max` over all arguments: NA wins over NaN, and an empty set
/// gives +-Inf (R also warns).
fn extreme(is_max: bool, parts: &[&[f64]], na_rm: bool) -> f64 {
    let mut best = if is_max {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let mut nan = false;
    for &v in parts.iter().flat_map(|p| p.iter()) {
        if v.is_nan() {
            if na_rm {
                continue;
            }
            if crate::kernels::value::is_na(v) {
                return NA;
            }
            nan = true;
        } else if (is_max && v > best) || (!is_max && v < best) {
            best = v;
        }
    }
    if nan {
        f64::NAN
    } else {
        best
    }
}

/// One argument of `max` or `min` when text is among them: do_summary
/// reduces each argument in its own type, and only then compares as text.
enum Part<'a> {
    Num(std::borrow::Cow<'a, [f64]>),
    Text(Vec<Option<String>>),
}

/// The dots as parts when one of them is text (`None` when none is, and
/// the numeric path applies), after R's refusals: a factor first
/// (Summary.factor) and what is not a vector.
fn text_parts<'a>(args: &'a Args<&Value>) -> Result<Option<Vec<Part<'a>>>, KernelError> {
    if !args.dots().any(|(_, v)| matches!(v, Value::Str(_))) {
        return Ok(None);
    }
    let mut parts = Vec::new();
    for (k, (_, v)) in args.dots().enumerate() {
        match v {
            Value::Null => {}
            Value::Factor(_) if k == 0 => {
                return Err(KernelError::new(format!(
                    "\u{2018}{}\u{2019} not meaningful for factors",
                    args.func
                )))
            }
            Value::Str(t) => parts.push(Part::Text(
                t.iter()
                    .map(|s| (!crate::kernels::factor::text_is_na(s)).then(|| s.clone()))
                    .collect(),
            )),
            v => parts.push(Part::Num(v.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
            })?)),
        }
    }
    Ok(Some(parts))
}

/// do_summary's `max`/`min` with text among the arguments (summary.c): a
/// number argument is reduced as numbers (so `max(c(9, 10), "1")` compares
/// "10", not "9"), then made text; NA trumps all unless `na_rm`. `None`:
/// nothing was left, where R warns and gives NA.
fn summary_text(is_max: bool, parts: &[Part<'_>], na_rm: bool) -> Option<Option<String>> {
    let mut cum: Option<Option<String>> = None;
    for part in parts {
        let tmp: Option<Option<String>> = match part {
            Part::Num(xs) => {
                let nums: [&[f64]; 1] = [xs];
                let any = xs.iter().any(|x| !(na_rm && x.is_nan()));
                any.then(|| {
                    let x = extreme(is_max, &nums, na_rm);
                    (!crate::kernels::value::is_na(x)).then(|| {
                        if x.is_nan() {
                            "NaN".to_string()
                        } else {
                            crate::kernels::data::r_num_to_string(x)
                        }
                    })
                })
            }
            Part::Text(ts) => text_extreme(is_max, ts, na_rm),
        };
        let Some(tmp) = tmp else { continue };
        cum = Some(match (cum, tmp) {
            (None, t) => t,
            (Some(None), _) | (Some(_), None) => None,
            (Some(Some(c)), Some(t)) => {
                let o = crate::kernels::collate::compare(&t, &c);
                Some(if (is_max && o.is_gt()) || (!is_max && o.is_lt()) {
                    t
                } else {
                    c
                })
            }
        });
    }
    cum
}

/// `max` or `min` of one text vector in R's collation (summary.c's smax
/// and smin): `Some(None)` (NA) at the first NA unless `na_rm`, and `None`
/// when nothing is left.
pub(crate) fn text_extreme(
    is_max: bool,
    texts: &[Option<String>],
    na_rm: bool,
) -> Option<Option<String>> {
    let mut best: Option<&String> = None;
    for t in texts {
        let Some(t) = t else {
            if na_rm {
                continue;
            }
            return Some(None);
        };
        let better = best.is_none_or(|b| {
            let o = crate::kernels::collate::compare(t, b);
            (is_max && o.is_gt()) || (!is_max && o.is_lt())
        });
        if better {
            best = Some(t);
        }
    }
    best.map(|b| Some(b.clone()))
}

/// A text result as flowcast holds it (NA as "NA"), with R's warning when
/// nothing was left.
pub(crate) fn text_or_warn(best: Option<Option<String>>, ctx: &mut Ctx) -> String {
    match best {
        Some(t) => t.unwrap_or_else(|| "NA".into()),
        None => {
            ctx.warn("no non-missing arguments, returning NA");
            "NA".into()
        }
    }
}

fn extreme_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let na_rm = args.bool_or("na.rm", false)?;
    if let Some(r) = crate::kernels::factor::summary_ordered(args.func, args, na_rm, ctx) {
        return r;
    }
    if let Some(parts) = text_parts(args)? {
        let best = summary_text(args.func == "max", &parts, na_rm);
        return Ok(Value::Str(vec![text_or_warn(best, ctx)]));
    }
    let mut parts = Vec::new();
    for (_, v) in args.dots() {
        if matches!(v, Value::Null) {
            continue;
        }
        let dist = v.dist_values().map(std::borrow::Cow::Borrowed);
        parts.push(dist.or_else(|| v.as_f64_slice()).ok_or_else(|| {
            KernelError::new(format!("invalid 'type' ({}) of argument", v.type_name()))
        })?);
    }
    let refs: Vec<&[f64]> = parts.iter().map(|p| p.as_ref()).collect();
    let is_max = args.func == "max";
    let best = extreme(is_max, &refs, na_rm);
    if best.is_infinite()
        && !refs
            .iter()
            .flat_map(|p| p.iter())
            .any(|v| !v.is_nan() || !na_rm)
    {
        ctx.warn(format!(
            "no non-missing arguments to {}; returning {}",
            args.func,
            if is_max { "-Inf" } else { "Inf" }
        ));
    }
    Ok(Value::scalar(best))
}

fn extreme_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = crate::kernels::factor::summary_ordered_type(args, 1) {
        return Ok(t);
    }
    if let Some(t) = args.text_dots(1)? {
        return Ok(t);
    }
    let consts = args.numeric_dots()?;
    let na_rm = args
        .get("na.rm")
        .and_then(Type::const_scalar)
        .is_some_and(|v| v != 0.0);
    Ok(match consts {
        Some(c) => {
            let refs: Vec<&[f64]> = c.iter().map(Vec::as_slice).collect();
            Type::scalar_const(extreme(args.func == "max", &refs, na_rm))
        }
        None => Type::num(1),
    })
}

/// R's `zapsmall(x, digits = getOption("digits"))`: `round(x, digits)`
/// less the digits the largest magnitude takes before the point, so
/// values that small beside it become 0. All NA is returned as it is.
fn zapsmall_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let digits = match args.get("digits") {
        None => 7.0,
        Some(d) => match d.as_f64_slice() {
            Some(v) if !v.is_empty() => v[0],
            _ => return Err(KernelError::new("invalid 'digits'")),
        },
    };
    let data = x
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("non-numeric argument to mathematical function"))?;
    let present: Vec<f64> = data.iter().copied().filter(|v| !v.is_nan()).collect();
    if present.is_empty() {
        return Ok(x.clone());
    }
    let mx = present
        .iter()
        .fold(f64::NEG_INFINITY, |m, v| m.max(v.abs()));
    let digits = if mx > 0.0 {
        (digits - mx.log10().ceil()).max(0.0)
    } else {
        digits
    };
    let out: Vec<f64> = data.iter().map(|&v| fround(v, digits)).collect();
    Ok(match x {
        Value::Mat(m) => Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), out)),
        _ => Value::Num(out),
    })
}

fn zapsmall_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t @ Type::Mat { .. }) => Ok(t.clone()),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok(Type::Num {
            len: t.len(),
            value: None,
        }),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) => Err(args.error(
            "x",
            format!(
                "non-numeric argument to mathematical function: {}",
                t.describe()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2^52 trick rounds exactly as the library does, halves to even,
    /// signs and zeros included, and as fround does with 0 digits (NA kept).
    #[test]
    fn round_ties_even_agrees_with_the_library() {
        let mut xs = vec![
            0.5,
            1.5,
            2.5,
            -0.5,
            -2.5,
            -0.4,
            0.49999999999999994,
            4503599627370495.5,
            4503599627370497.0,
            9.1e15,
            -1e300,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let scale = 10f64.powi((state % 20) as i32 - 4);
            xs.push(((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * scale);
            xs.push((state % 2000) as f64 / 2.0 - 500.0);
        }
        xs.extend([0.0, -0.0, f64::NAN, crate::kernels::value::NA]);
        for x in xs {
            let (a, b) = (round_ties_even(x), fround(x, 0.0));
            assert!(a.to_bits() == b.to_bits(), "{x}: {a} against {b}");
            if !x.is_nan() {
                assert!(a.to_bits() == x.round_ties_even().to_bits(), "{x}");
            }
        }
    }

    /// `signif(NA, d)` and `round(NA, d)` are NA, not NaN, and a NaN digits
    /// count passes its own payload through, in release builds as well.
    #[test]
    fn nan_payloads_pass_through_round_and_signif() {
        let na = crate::kernels::value::NA;
        for d in [-2.0, 0.0, 3.0, 400.0] {
            assert_eq!(fprec(na, d).to_bits(), na.to_bits(), "signif(NA, {d})");
            assert_eq!(fround(na, d).to_bits(), na.to_bits(), "round(NA, {d})");
            assert_eq!(fprec(2.5, na).to_bits(), na.to_bits(), "signif(2.5, NA)");
            assert_eq!(fround(2.5, na).to_bits(), na.to_bits(), "round(2.5, NA)");
        }
    }
}
