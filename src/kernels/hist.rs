//! `hist(x, breaks, ...)`, `pretty(x, n, ...)` and the class counts
//! `nclass.Sturges`, `nclass.scott` and `nclass.FD`, as R 4.2.2 computes
//! them: graphics/R/hist.R's `hist.default` over stem.c's `C_bincount`,
//! base's `pretty.default` over appl/pretty.c's `R_pretty` (with
//! util.c's `do_pretty` checks), and grDevices/R/calc.R's `nclass.*`.
//!
//! flowcast has no graphics device, so `hist` draws nothing: whatever
//! `plot` says, the value is the "histogram" list R returns (invisibly,
//! when it plots), as acf and spectrum give their values. R's `xname`
//! is added by the evaluator from the call's text.

use super::args::{ArgError, Args};
use super::names::bare;
use super::summary::{mean, quantile, var};
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};
use crate::kernels::arith::math::fprec;
use crate::kernels::arith::ops::r_pow;
use crate::kernels::vector::format_g;

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "hist",
        params: &[
            req("x"),
            opt("breaks"),
            opt("freq"),
            opt("probability"),
            opt("include.lowest"),
            opt("right"),
            opt("fuzz"),
            opt("density"),
            opt("angle"),
            opt("col"),
            opt("border"),
            opt("main"),
            opt("xlim"),
            opt("ylim"),
            opt("xlab"),
            opt("ylab"),
            opt("axes"),
            opt("plot"),
            opt("labels"),
            opt("nclass"),
            opt("warn.unused"),
            DOTS,
        ],
        random: false,
        shape: hist_shape,
        eval: hist_eval,
    },
    Kernel {
        name: "pretty",
        params: &[
            req("x"),
            opt("n"),
            opt("min.n"),
            opt("shrink.sml"),
            opt("high.u.bias"),
            opt("u5.bias"),
            opt("eps.correct"),
            opt("f.min"),
            DOTS,
        ],
        random: false,
        shape: pretty_shape,
        eval: pretty_eval,
    },
    Kernel {
        name: "nclass.Sturges",
        params: &[req("x")],
        random: false,
        shape: nclass_shape,
        eval: nclass_eval,
    },
    Kernel {
        name: "nclass.scott",
        params: &[req("x")],
        random: false,
        shape: nclass_shape,
        eval: nclass_eval,
    },
    Kernel {
        name: "nclass.FD",
        params: &[req("x"), opt("digits")],
        random: false,
        shape: nclass_shape,
        eval: nclass_eval,
    },
];

const NOT_NUMERIC: &str = "'x' must be numeric";

/// R's `asInteger` of a double: NA (`None`) for NaN and past int's range.
fn as_integer(x: f64) -> Option<i32> {
    if x.is_nan() || x >= f64::from(i32::MAX) + 1.0 || x <= f64::from(i32::MIN) {
        None
    } else {
        Some(x as i32)
    }
}

/// R's `%/%` of doubles (arithmetic.c's `myfloor`).
fn int_div(x1: f64, x2: f64) -> f64 {
    let q = x1 / x2;
    if x2 == 0.0 || q.abs() * f64::EPSILON > 1.0 || !q.is_finite() {
        return q;
    }
    let tmp = x1 - q.floor() * x2;
    q.floor() + (tmp / x2).floor()
}

/// The first number of an argument, as R's `asReal` reads it (NA for a
/// zero-length or non-numeric value).
fn first_number(v: &Value) -> f64 {
    match bare(v) {
        Value::Str(s) => s.first().and_then(|t| t.trim().parse().ok()).unwrap_or(NA),
        v => v
            .as_f64_slice()
            .and_then(|s| s.first().copied())
            .unwrap_or(NA),
    }
}

/// pretty.c's `R_pretty` with `return_bounds = TRUE`: updates `lo`, `up`
/// and `ndiv` in place (the unit it also returns is not needed then).
#[allow(clippy::too_many_arguments)]
fn r_pretty(
    lo: &mut f64,
    up: &mut f64,
    ndiv: &mut i32,
    min_n: i32,
    shrink_sml: f64,
    high_u_fact: [f64; 3],
    eps_correction: i32,
    ctx: &mut Ctx,
) {
    const ROUNDING_EPS: f64 = 1e-10;
    const MAX_F: f64 = 1.25;
    let [h, h5, f_min] = high_u_fact;
    let lo_ = *lo;
    let up_ = *up;
    let dx = up_ - lo_;
    let mut cell;
    let i_small;
    if dx == 0.0 && up_ == 0.0 {
        cell = 1.0;
        i_small = true;
    } else {
        cell = lo_.abs().max(up_.abs());
        let mut u = 1.0
            + if h5 >= 1.5 * h + 0.5 {
                1.0 / (1.0 + h)
            } else {
                1.5 / (1.0 + h5)
            };
        u *= f64::from((*ndiv).max(1)) * f64::EPSILON;
        i_small = dx < cell * u * 3.0;
    }
    if i_small {
        if cell > 10.0 {
            cell = 9.0 + cell / 10.0;
        }
        cell *= shrink_sml;
        if min_n > 1 {
            cell /= f64::from(min_n);
        }
    } else {
        cell = dx;
        if dx.is_finite() {
            if *ndiv > 1 {
                cell /= f64::from(*ndiv);
            }
        } else if *ndiv < 2 {
            ctx.warn(format!(
                "R_pretty(): infinite range; *ndiv={}, should have ndiv >= 2",
                *ndiv
            ));
        } else {
            cell = up_ / f64::from(*ndiv) - lo_ / f64::from(*ndiv);
        }
    }
    let mut subsmall = f_min * f64::MIN_POSITIVE;
    if subsmall == 0.0 {
        subsmall = f64::MIN_POSITIVE;
    }
    if cell < subsmall {
        ctx.warn(format!(
            "R_pretty(): very small range 'cell'={}, corrected to {}",
            format_g(cell),
            format_g(subsmall)
        ));
        cell = subsmall;
    } else if cell > f64::MAX / MAX_F {
        ctx.warn(format!(
            "R_pretty(): very large range 'cell'={}, corrected to {}",
            format_g(cell),
            format_g(f64::MAX / MAX_F)
        ));
        cell = f64::MAX / MAX_F;
    }
    // C's pow, exact for negative powers of ten where exp10 is not.
    let base = 10f64.powf(cell.log10().floor());
    let mut unit = base;
    let mut u = 2.0 * base;
    if u - cell < h * (cell - unit) {
        unit = u;
        u = 5.0 * base;
        if u - cell < h5 * (cell - unit) {
            unit = u;
            u = 10.0 * base;
            if u - cell < h * (cell - unit) {
                unit = u;
            }
        }
    }
    let mut ns = (lo_ / unit + ROUNDING_EPS).floor();
    let mut nu = (up_ / unit - ROUNDING_EPS).ceil();
    if eps_correction != 0 && (eps_correction > 1 || !i_small) {
        *lo = if lo_ != 0.0 {
            *lo * (1.0 - f64::EPSILON)
        } else {
            -f64::MIN_POSITIVE
        };
        *up = if up_ != 0.0 {
            *up * (1.0 + f64::EPSILON)
        } else {
            f64::MIN_POSITIVE
        };
    }
    while ns * unit > *lo + ROUNDING_EPS * unit {
        ns -= 1.0;
    }
    while !(ns * unit).is_finite() {
        ns += 1.0;
    }
    while nu * unit < *up - ROUNDING_EPS * unit {
        nu += 1.0;
    }
    while !(nu * unit).is_finite() {
        nu -= 1.0;
    }
    let mut k = (0.5 + nu - ns) as i32;
    if k < min_n {
        k = min_n - k;
        if lo_ == 0.0 && ns == 0.0 && up_ != 0.0 {
            nu += f64::from(k);
        } else if up_ == 0.0 && nu == 0.0 && lo_ != 0.0 {
            ns -= f64::from(k);
        } else if ns >= 0.0 {
            nu += f64::from(k / 2);
            ns -= f64::from(k / 2 + k % 2);
        } else {
            ns -= f64::from(k / 2);
            nu += f64::from(k / 2 + k % 2);
        }
        *ndiv = min_n;
    } else {
        *ndiv = k;
    }
    if ns * unit < *lo {
        *lo = ns * unit;
    }
    if nu * unit > *up {
        *up = nu * unit;
    }
}

/// seq.c's `seq.int(from, to, length.out = lout)` for finite ends.
fn seq_length(from: f64, to: f64, lout: usize) -> Vec<f64> {
    let mut out = vec![0.0; lout];
    if lout > 0 {
        out[0] = from;
    }
    if lout > 1 {
        out[lout - 1] = to;
    }
    if lout > 2 {
        let nint = (lout - 1) as f64;
        let del = to - from;
        if del.is_finite() {
            let by = del / nint;
            for (i, o) in out.iter_mut().enumerate().take(lout - 1).skip(1) {
                *o = from + i as f64 * by;
            }
        } else {
            let by = (to / nint - from / nint) / 4.0;
            let from = from / 4.0;
            for (i, o) in out.iter_mut().enumerate().take(lout - 1).skip(1) {
                *o = (from + i as f64 * by) * 4.0;
            }
        }
    }
    out
}

/// pretty.default's arguments past `x`, as do_pretty checks them.
struct PrettyArgs {
    n: f64,
    min_n: Option<f64>,
    shrink: f64,
    high_u: f64,
    u5: Option<f64>,
    eps: f64,
    f_min: f64,
}

impl Default for PrettyArgs {
    fn default() -> PrettyArgs {
        PrettyArgs {
            n: 5.0,
            min_n: None,
            shrink: 0.75,
            high_u: 1.5,
            u5: None,
            eps: 0.0,
            f_min: 2f64.powi(-20),
        }
    }
}

/// `pretty.default(x, ...)` of numbers.
fn pretty(x: &[f64], a: &PrettyArgs, ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
    let x: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    if x.is_empty() {
        return Ok(x);
    }
    let invalid = |name: &str| KernelError::new(format!("invalid '{name}' argument"));
    let mut l = x.iter().copied().fold(f64::INFINITY, f64::min);
    let mut u = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut n = as_integer(a.n)
        .filter(|&n| n >= 0)
        .ok_or_else(|| invalid("n"))?;
    let min_n = a.min_n.unwrap_or_else(|| int_div(a.n, 3.0));
    let min_n = as_integer(min_n)
        .filter(|m| (0..=n).contains(m))
        .ok_or_else(|| invalid("min.n"))?;
    if !a.shrink.is_finite() || a.shrink <= 0.0 {
        return Err(invalid("shrink.sml"));
    }
    let u5 = a.u5.unwrap_or(0.5 + 1.5 * a.high_u);
    if !a.high_u.is_finite() || a.high_u < 0.0 {
        return Err(invalid("high.u.bias"));
    }
    if !u5.is_finite() || u5 < 0.0 {
        return Err(invalid("u5.bias"));
    }
    if !a.f_min.is_finite() || a.f_min <= 0.0 {
        return Err(invalid("f.min"));
    }
    let eps = as_integer(a.eps)
        .filter(|e| (0..=2).contains(e))
        .ok_or_else(|| KernelError::new("'eps.correct' must be 0, 1, or 2"))?;
    r_pretty(
        &mut l,
        &mut u,
        &mut n,
        min_n,
        a.shrink,
        [a.high_u, u5, a.f_min],
        eps,
        ctx,
    );
    super::alloc::ensure_room((n as f64 + 1.0) * 8.0)?;
    let mut s = seq_length(l, u, n as usize + 1);
    // R's `!eps.correct && n` reads the argument, not do_pretty's integer.
    if a.eps == 0.0 && n != 0 {
        let delta = u / f64::from(n) - l / f64::from(n);
        for v in &mut s {
            if v.abs() < 1e-14 * delta {
                *v = 0.0;
            }
        }
    }
    Ok(s)
}

fn pretty_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let x = match bare(xv) {
        Value::Null => Vec::new(),
        v => v
            .as_f64_slice()
            .map(|s| s.into_owned())
            .ok_or_else(|| KernelError::new("flowcast's pretty() needs numbers for 'x'"))?,
    };
    let num = |name: &str| args.get(name).map(first_number);
    let mut a = PrettyArgs::default();
    if let Some(n) = num("n") {
        a.n = n;
    }
    a.min_n = num("min.n");
    if let Some(v) = num("shrink.sml") {
        a.shrink = v;
    }
    if let Some(v) = num("high.u.bias") {
        a.high_u = v;
    }
    a.u5 = num("u5.bias");
    if let Some(v) = num("eps.correct") {
        a.eps = v;
    }
    if let Some(v) = num("f.min") {
        a.f_min = v;
    }
    Ok(Value::Num(pretty(&x, &a, ctx)?))
}

fn pretty_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !t.is_numeric() && !matches!(t, Type::Null | Type::Any) {
            return Err(args.error(
                "x",
                format!(
                    "flowcast's pretty() needs numbers for 'x', not {}",
                    t.describe()
                ),
            ));
        }
    }
    Ok(Type::num_unknown())
}

/// R's `range(x)` as min and max, with R's warnings when x is empty.
fn range(x: &[f64], ctx: &mut Ctx) -> (f64, f64) {
    if x.is_empty() {
        ctx.warn("no non-missing arguments to min; returning Inf");
        ctx.warn("no non-missing arguments to max; returning -Inf");
        return (f64::INFINITY, f64::NEG_INFINITY);
    }
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for &v in x {
        if v.is_nan() {
            return (v, v);
        }
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo, hi)
}

/// `nclass.Sturges(x)`: `ceiling(log2(length(x)) + 1)`.
fn sturges(n: usize) -> f64 {
    ((n as f64).log2() + 1.0).ceil()
}

/// `nclass.scott(x)` of numbers.
fn scott(x: &[f64], ctx: &mut Ctx) -> Result<f64, KernelError> {
    let h = 3.5 * var(x).sqrt() * r_pow(x.len() as f64, -1.0 / 3.0);
    if h.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    Ok(if h > 0.0 {
        let (lo, hi) = range(x, ctx);
        1f64.max(((hi - lo) / h).ceil())
    } else {
        1.0
    })
}

/// `stats::quantile(x, probs, names = FALSE)` of numbers, refusing NA
/// as R does without `na.rm`.
fn quantiles(x: &[f64], probs: &[f64]) -> Result<Vec<f64>, KernelError> {
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new(
            "missing values and NaN's not allowed if 'na.rm' is FALSE",
        ));
    }
    Ok(quantile(x, probs, 7).unwrap_or_else(|| vec![NA; probs.len()]))
}

/// `nclass.FD(x, digits)` of numbers.
fn freedman_diaconis(x: &[f64], digits: f64, ctx: &mut Ctx) -> Result<f64, KernelError> {
    let rounded: Vec<f64> = x.iter().map(|&v| fprec(v, digits)).collect();
    let q = quantiles(&rounded, &[0.25, 0.75])?;
    let mut h = 2.0 * (q[1] - q[0]);
    let undecided = || KernelError::new("missing value where TRUE/FALSE needed");
    if h.is_nan() {
        return Err(undecided());
    }
    if h == 0.0 {
        let mut al = 1.0 / 4.0;
        let al_min = 1.0 / 512.0;
        // R sorts x. first; quantile's order statistics do not depend on it.
        while h == 0.0 {
            al /= 2.0;
            if al < al_min {
                break;
            }
            let q = quantiles(&rounded, &[al, 1.0 - al])?;
            h = (q[1] - q[0]) / (1.0 - 2.0 * al);
            if h.is_nan() {
                return Err(undecided());
            }
        }
    }
    if h == 0.0 {
        h = 3.5 * var(x).sqrt();
    }
    if h.is_nan() {
        return Err(undecided());
    }
    Ok(if h > 0.0 {
        let (lo, hi) = range(x, ctx);
        ((hi - lo) / h * r_pow(x.len() as f64, 1.0 / 3.0)).ceil()
    } else {
        1.0
    })
}

fn nclass_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if args.func == "nclass.Sturges" {
        return Ok(Value::scalar(sturges(bare(xv).len())));
    }
    let x = match bare(xv) {
        Value::Null => Vec::new(),
        v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => {
            v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default()
        }
        _ => return Err(KernelError::new("is.atomic(x) is not TRUE")),
    };
    let n = if args.func == "nclass.scott" {
        scott(&x, ctx)?
    } else {
        let digits = args.get("digits").map_or(5.0, first_number);
        freedman_diaconis(&x, digits, ctx)?
    };
    Ok(Value::scalar(n))
}

fn nclass_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.func != "nclass.Sturges" {
        if let Some(t) = args.ty("x") {
            if !t.is_numeric() && !matches!(t, Type::Null | Type::Any | Type::Bool { .. }) {
                return Err(args.error(
                    "x",
                    format!("{}() needs numbers, not {}", args.func, t.describe()),
                ));
            }
        }
    }
    Ok(Type::num(1))
}

/// stem.c's `C_bincount`: x in (breaks[i], breaks[i+1]] (right) or
/// [breaks[i], breaks[i+1]), the lowest (highest) border included when
/// `include_border`, found by bisection.
fn bincount(x: &[f64], breaks: &[f64], right: bool, include_border: bool) -> Vec<f64> {
    let nb1 = breaks.len() - 1;
    let mut count = vec![0.0; nb1];
    for &xi in x {
        if !xi.is_finite() {
            continue;
        }
        let mut lo = 0;
        let mut hi = nb1;
        if breaks[lo] <= xi && (xi < breaks[hi] || (xi == breaks[hi] && include_border)) {
            while hi - lo >= 2 {
                let new = (hi + lo) / 2;
                if xi > breaks[new] || (!right && xi == breaks[new]) {
                    lo = new;
                } else {
                    hi = new;
                }
            }
            count[lo] += 1.0;
        }
    }
    count
}

/// `if (arg)` of a logical argument with R's default.
fn condition(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    super::logical::if_given(args.get(name), default)
}

/// The formals hist.default's `warn.unused` names when they are given
/// with `plot = FALSE`, in R's order.
const UNUSED: &[&str] = &[
    "freq",
    "probability",
    "density",
    "angle",
    "col",
    "border",
    "main",
    "xlim",
    "ylim",
    "xlab",
    "ylab",
    "axes",
    "labels",
    "warn.unused",
];

fn hist_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let x: Vec<f64> = match bare(xv) {
        v @ (Value::Num(_) | Value::Mat(_)) => v
            .as_f64_slice()
            .map(|s| s.iter().copied().filter(|v| v.is_finite()).collect())
            .unwrap_or_default(),
        _ => return Err(KernelError::new(NOT_NUMERIC)),
    };
    let n = x.len();
    let mut include_lowest = condition(args, "include.lowest", true)?;
    let mut breaks: Value = match args.get("breaks") {
        Some(b) => {
            if args.get("nclass").is_some() {
                ctx.warn("'nclass' not used when 'breaks' is specified");
            }
            bare(b).clone()
        }
        None => match args.get("nclass").map(bare) {
            Some(c) if c.len() == 1 => c.clone(),
            _ => Value::Str(vec!["Sturges".into()]),
        },
    };
    let use_br = args.get("breaks").is_some() && breaks.len() > 1;
    let mut nb = breaks.len();
    let breaks: Vec<f64> = if use_br {
        let mut b = match &breaks {
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) => {
                breaks.as_f64_slice().unwrap_or_default().into_owned()
            }
            _ => return Err(KernelError::new("non-numeric argument to binary operator")),
        };
        if b.iter().any(|v| v.is_nan()) {
            return Err(KernelError::new(
                "flowcast's hist() does not take NA among the 'breaks'",
            ));
        }
        b.sort_by(f64::total_cmp);
        b
    } else {
        if !include_lowest {
            include_lowest = true;
            ctx.warn("'include.lowest' ignored as 'breaks' is not a vector");
        }
        if let Value::Str(s) = &breaks {
            let lower: Vec<String> = s.iter().map(|t| t.to_lowercase()).collect();
            let rule = super::acf::match_arg(
                Some(&Value::Str(lower)),
                &["sturges", "fd", "freedman-diaconis", "scott"],
            )?;
            let classes = match rule {
                "sturges" => sturges(n),
                "scott" => scott(&x, ctx)?,
                _ => freedman_diaconis(&x, 5.0, ctx)?,
            };
            breaks = Value::scalar(classes);
        }
        if breaks.len() == 1 {
            let count = match &breaks {
                Value::Num(v) => v[0],
                Value::Mat(m) => m[0],
                _ => NA,
            };
            if !count.is_finite() || count < 1.0 {
                return Err(KernelError::new("invalid number of 'breaks'"));
            }
            let count = if count > 1e6 {
                ctx.warn(format!(
                    "'breaks = {}' is too large and set to 1e6",
                    format_g(count)
                ));
                1e6
            } else {
                count
            };
            let (lo, hi) = range(&x, ctx);
            let a = PrettyArgs {
                n: count,
                min_n: Some(1.0),
                ..PrettyArgs::default()
            };
            let b = pretty(&[lo, hi], &a, ctx)?;
            nb = b.len();
            if nb <= 1 {
                return Err(KernelError::new(format!(
                    "hist.default: pretty() error, breaks={}",
                    b.first().map(|&v| format_g(v)).unwrap_or_default()
                )));
            }
            b
        } else {
            return Err(KernelError::new(
                "Invalid breakpoints produced by 'breaks(x)': ",
            ));
        }
    };
    let h: Vec<f64> = breaks.windows(2).map(|w| w[1] - w[0]).collect();
    let equidist: Option<bool> = if !use_br {
        Some(true)
    } else {
        let spread = if h.iter().any(|v| v.is_nan()) {
            NA
        } else {
            let (lo, hi) = range(&h, ctx);
            hi - lo
        };
        let m = mean(&h);
        (!spread.is_nan() && !m.is_nan()).then_some(spread < 1e-7 * m)
    };
    if !use_br && h.iter().any(|&v| v <= 0.0) {
        return Err(KernelError::new("'breaks' are not strictly increasing"));
    }
    if let (Some(f), Some(p)) = (args.get("freq"), args.get("probability")) {
        if !matches!(bare(f), Value::Null) {
            let (f, p) = (bare(f).as_logicals(), bare(p).as_logicals());
            let clash = match (f, p) {
                (Some(f), Some(p)) if !f.is_empty() && !p.is_empty() => {
                    let k = f.len().max(p.len());
                    (0..k).any(|i| f[i % f.len()].is_some() && f[i % f.len()] == p[i % p.len()])
                }
                _ => false,
            };
            if clash {
                return Err(KernelError::new(
                    "'probability' is an alias for '!freq', however they differ.",
                ));
            }
        }
    }
    let fuzz = match args.get("fuzz") {
        None => 1e-7,
        Some(v) => first_number(v),
    };
    if fuzz.is_nan() || fuzz < 0.0 {
        return Err(KernelError::new("fuzz must be non-negative"));
    }
    let diddle = fuzz
        * if nb > 5 {
            super::summary::quantile::median(h.clone(), false)
        } else if nb <= 3 {
            let (lo, hi) = range(&x, ctx);
            hi - lo
        } else {
            let positive: Vec<f64> = h.iter().copied().filter(|&v| v > 0.0).collect();
            if positive.is_empty() {
                ctx.warn("no non-missing arguments to min; returning Inf");
            }
            positive.iter().copied().fold(f64::INFINITY, f64::min)
        };
    let right = condition(args, "right", true)?;
    let fuzzy: Vec<f64> = breaks
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let f = if right {
                if i == 0 && include_lowest {
                    -diddle
                } else {
                    diddle
                }
            } else if i == nb - 1 && !include_lowest {
                -diddle
            } else if i == nb - 1 {
                diddle
            } else {
                -diddle
            };
            b + f
        })
        .collect();
    let counts = bincount(&x, &fuzzy, right, include_lowest);
    let total: f64 = counts.iter().sum();
    if total < n as f64 {
        return Err(KernelError::new(
            "some 'x' not counted; maybe 'breaks' do not span range of 'x'",
        ));
    }
    let density: Vec<f64> = counts
        .iter()
        .zip(&h)
        .map(|(&c, &w)| c / (n as f64 * w))
        .collect();
    let mids: Vec<f64> = breaks.windows(2).map(|w| 0.5 * (w[1] + w[0])).collect();
    if !condition(args, "plot", true)? && condition(args, "warn.unused", true)? {
        let unused: Vec<String> = UNUSED
            .iter()
            .filter(|name| args.get(name).is_some())
            .map(|name| format!("\u{2018}{name}\u{2019}"))
            .chain(
                args.dots()
                    .next()
                    .map(|_| "\u{2018}...\u{2019}".to_string()),
            )
            .collect();
        match unused.len() {
            0 => {}
            1 => ctx.warn(format!("argument {} is not made use of", unused[0])),
            _ => ctx.warn(format!(
                "arguments {} are not made use of",
                unused.join(", ")
            )),
        }
    }
    Ok(Value::List(List::record(
        "histogram",
        vec![
            ("breaks", Value::Num(breaks)),
            ("counts", Value::Num(counts)),
            ("density", Value::Num(density)),
            ("mids", Value::Num(mids)),
            ("equidist", Value::Bool(vec![equidist])),
        ],
    )))
}

fn hist_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !matches!(t, Type::Num { .. } | Type::Mat { .. } | Type::Any) {
            return Err(args.error("x", NOT_NUMERIC));
        }
    }
    Ok(Type::record(
        "histogram",
        vec![
            ("breaks", Type::num_unknown()),
            ("counts", Type::num_unknown()),
            ("density", Type::num_unknown()),
            ("mids", Type::num_unknown()),
            (
                "xname",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("equidist", Type::logical(Some(1))),
        ],
    ))
}
