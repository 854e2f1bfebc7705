//! Kernel density bandwidths: `bw.nrd0(x)` (Silverman's rule of thumb,
//! density's default) and `bw.nrd(x)` (Scott's variation), as
//! stats/R/bandwidths.R computes them from `sd`, `var` and `quantile`;
//! and the cross-validated and plug-in rules `bw.ucv`, `bw.bcv` and
//! `bw.SJ`, bandwidths.R over stats/src/bandwidths.c (`bw_den`,
//! `bw_den_binned`, `bw_ucv`, `bw_bcv`, `bw_phi4`, `bw_phi6`), with R's
//! `optimize` (Brent_fmin) and `uniroot` (R_zeroin2).

use super::args::{ArgError, Args};
use super::arith::ops::r_pow;
use super::names::bare;
use super::summary::{quantile, var};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "bw.nrd0",
        params: &[req("x")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "bw.nrd",
        params: &[req("x")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "bw.SJ",
        params: &[
            req("x"),
            opt("nb"),
            opt("lower"),
            opt("upper"),
            opt("method"),
            opt("tol"),
        ],
        random: false,
        shape,
        eval: eval_selector,
    },
    Kernel {
        name: "bw.ucv",
        params: CV,
        random: false,
        shape,
        eval: eval_selector,
    },
    Kernel {
        name: "bw.bcv",
        params: CV,
        random: false,
        shape,
        eval: eval_selector,
    },
];

const CV: &[super::Param] = &[req("x"), opt("nb"), opt("lower"), opt("upper"), opt("tol")];

/// R's `min(a, b)` of two numbers: NA or NaN wins.
fn r_min(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else {
        a.min(b)
    }
}

/// `quantile(x, c(0.25, 0.75))`, refusing NA as R does.
fn quartiles(x: &[f64]) -> Result<(f64, f64), KernelError> {
    if x.iter().any(|v| v.is_nan()) {
        return Err(KernelError::new(
            "missing values and NaN's not allowed if 'na.rm' is FALSE",
        ));
    }
    let q = quantile(x, &[0.25, 0.75], 7).unwrap_or_default();
    Ok((q[0], q[1]))
}

/// R's `bw.nrd0`: `0.9 * min(sd, IQR / 1.34) * n^-0.2`, falling back to
/// the sd, then `|x[1]|`, then 1 when the spread is zero.
pub(crate) fn bw_nrd0(x: &[f64]) -> Result<f64, KernelError> {
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let hi = var(x).sqrt();
    let (q1, q3) = quartiles(x)?;
    let mut lo = r_min(hi, (q3 - q1) / 1.34);
    if lo.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if lo == 0.0 {
        lo = hi;
        if lo == 0.0 {
            lo = x[0].abs();
            if lo == 0.0 {
                lo = 1.0;
            }
        }
    }
    Ok(0.9 * lo * (x.len() as f64).powf(-0.2))
}

/// R's `bw.nrd`: `1.06 * min(sqrt(var(x)), IQR / 1.34) * n^-0.2`.
pub(crate) fn bw_nrd(x: &[f64]) -> Result<f64, KernelError> {
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let (q1, q3) = quartiles(x)?;
    let h = (q3 - q1) / 1.34;
    Ok(1.06 * r_min(var(x).sqrt(), h) * (x.len() as f64).powf(-1.0 / 5.0))
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .and_then(Value::as_f64_slice)
        .ok_or_else(|| KernelError::new("need at least 2 data points"))?;
    let bw = if args.func == "bw.nrd" {
        bw_nrd(&x)?
    } else {
        bw_nrd0(&x)?
    };
    Ok(Value::scalar(bw))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t) if t.len().is_some_and(|n| n < 2) => {
            Err(args.error("x", "need at least 2 data points"))
        }
        // The selectors' own check, after the length's.
        Some(t) if !t.is_numeric() && matches!(args.func, "bw.SJ" | "bw.ucv" | "bw.bcv") => {
            Err(args.error("x", "invalid 'x'"))
        }
        Some(t) if !t.is_numeric() => Err(args.error(
            "x",
            format!("{}() needs numbers, not {}", args.func, t.describe()),
        )),
        _ => Ok(Type::num(1)),
    }
}

/// bandwidths.c's DELMAX: pairs further apart than sqrt(DELMAX) standard
/// deviations are cut off, avoiding slow underflows.
const DELMAX: f64 = 1000.0;
const M_SQRT_PI: f64 = 1.772_453_850_905_516_027_298_167_483_341;
const M_1_SQRT_2PI: f64 = 0.398_942_280_401_432_677_939_946_059_934;

/// The binned pair counts bandwidths.R's `bw_pair_cnts` gives: the bin
/// width and the count of pairs of x at each distance in bins.
struct PairCounts {
    d: f64,
    cnt: Vec<f64>,
}

/// `bw_pair_cnts(x, nb, binned)`: bandwidths.c's `bw_den` over every
/// pair, or (binned, when n > nb/2) R's own binning and `bw_den_binned`.
fn pair_counts(x: &[f64], nb: usize, binned: bool) -> Result<PairCounts, KernelError> {
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(KernelError::new(format!(
            "non-finite x[{}] in bandwidth calculation",
            i + 1
        )));
    }
    super::alloc::ensure_room(nb as f64 * 8.0)?;
    let xmin = x.iter().copied().fold(f64::INFINITY, f64::min);
    let xmax = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut cnt = vec![0.0; nb];
    if binned {
        // R: d <- diff(r) * 1.01/nb; xx <- trunc(abs(x)/d) * sign(x);
        // xx <- xx - min(xx) + 1; tabulate(xx, nb), which drops bins
        // past nb.
        let d = (xmax - xmin) * 1.01 / nb as f64;
        let xx: Vec<f64> = x
            .iter()
            .map(|&v| {
                (v.abs() / d).trunc()
                    * if v > 0.0 {
                        1.0
                    } else if v < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
            })
            .collect();
        let lo = xx.iter().copied().fold(f64::INFINITY, f64::min);
        let mut counts = vec![0.0f64; nb];
        for v in xx {
            let bin = v - lo + 1.0;
            if (1.0..=nb as f64).contains(&bin) {
                counts[bin as usize - 1] += 1.0;
            }
        }
        // bw_den_binned.
        for ii in 0..nb {
            let w = counts[ii];
            cnt[0] += w * (w - 1.0);
            for jj in 0..ii {
                cnt[ii - jj] += w * counts[jj];
            }
        }
        cnt[0] *= 0.5;
        return Ok(PairCounts { d, cnt });
    }
    // bw_den.
    let rang = (xmax - xmin) * 1.01;
    let dd = rang / nb as f64;
    for i in 1..x.len() {
        let ii = (x[i] / dd) as i32;
        for &xj in &x[..i] {
            let jj = (xj / dd) as i32;
            let k = (i64::from(ii) - i64::from(jj)).unsigned_abs() as usize;
            // R's C writes past its nb counts here (a small nb, data on
            // both sides of 0); flowcast refuses instead.
            let Some(c) = cnt.get_mut(k) else {
                return Err(KernelError::new(format!(
                    "'nb' = {nb} is too small for these data: R's bw_den would write past its counts"
                )));
            };
            *c += 1.0;
        }
    }
    Ok(PairCounts { d: dd, cnt })
}

/// The sums of bandwidths.c's `bw_ucv`, `bw_bcv`, `bw_phi4`, `bw_phi6`
/// over the binned distances, cut off at DELMAX.
fn binned_sum(z: &PairCounts, h: f64, term: impl Fn(f64) -> f64) -> f64 {
    let mut sum = 0.0;
    for (i, &c) in z.cnt.iter().enumerate() {
        let mut delta = i as f64 * z.d / h;
        delta *= delta;
        if delta >= DELMAX {
            break;
        }
        sum += term(delta) * c;
    }
    sum
}

fn bw_ucv(n: f64, z: &PairCounts, h: f64) -> f64 {
    let sum = binned_sum(z, h, |delta| {
        (-delta / 4.).exp() - 8f64.sqrt() * (-delta / 2.).exp()
    });
    (0.5 + sum / n) / (n * h * M_SQRT_PI)
}

fn bw_bcv(n: f64, z: &PairCounts, h: f64) -> f64 {
    let sum = binned_sum(z, h, |delta| {
        (-delta / 4.).exp() * (delta * delta - 12. * delta + 12.)
    });
    (1. + sum / (32.0 * n)) / (2.0 * n * h * M_SQRT_PI)
}

fn bw_phi4(n: f64, z: &PairCounts, h: f64) -> f64 {
    let sum = binned_sum(z, h, |delta| {
        (-delta / 2.).exp() * (delta * delta - 6. * delta + 3.)
    });
    let sum = 2. * sum + n * 3.;
    sum / (n * (n - 1.) * h.powf(5.0)) * M_1_SQRT_2PI
}

fn bw_phi6(n: f64, z: &PairCounts, h: f64) -> f64 {
    let sum = binned_sum(z, h, |delta| {
        (-delta / 2.).exp() * (delta * delta * delta - 15. * delta * delta + 45. * delta - 15.)
    });
    let sum = 2. * sum - 15. * n;
    sum / (n * (n - 1.) * h.powf(7.0)) * M_1_SQRT_2PI
}

/// The arguments past `x` the three selectors share; `None`: R's default.
#[derive(Default)]
pub(crate) struct Selector {
    pub nb: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub tol: Option<f64>,
    /// bw.SJ's method: "dpi" (else "ste").
    pub dpi: bool,
}

/// The checks bandwidths.R's selectors start with; nb as an integer.
fn checked_nb(x: &[f64], nb: Option<f64>) -> Result<usize, KernelError> {
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let nb = nb.unwrap_or(1000.0);
    // as.integer: NA past int's range.
    if nb.is_nan() || nb <= 0.0 || nb >= 2147483648.0 || (nb as i32) <= 0 {
        return Err(KernelError::new("invalid 'nb'"));
    }
    Ok(nb as i32 as usize)
}

/// `sd(x)`, `IQR(x)` for the scale of bw.SJ (x finite here).
fn sj_scale(x: &[f64]) -> f64 {
    let sd = var(x).sqrt();
    let q = quantile(x, &[0.25, 0.75], 7).unwrap_or_default();
    let iqr = q[1] - q[0];
    r_min(sd, iqr / 1.349)
}

/// R's `optimize(f, c(lower, upper), tol = tol)$minimum`: do_fmin's
/// checks, then Brent_fmin, with non-finite values of f replaced by the
/// largest double as fcn1 does.
fn optimize_min(
    lower: f64,
    upper: f64,
    tol: f64,
    f: impl Fn(f64) -> f64,
    ctx: &mut Ctx,
) -> Result<f64, KernelError> {
    // optimize's lower = min(interval), upper = max(interval).
    let (lower, upper) = if lower.is_nan() || upper.is_nan() {
        (f64::NAN, f64::NAN)
    } else {
        (lower.min(upper), lower.max(upper))
    };
    if !lower.is_finite() {
        return Err(KernelError::new("invalid 'xmin' value"));
    }
    if !upper.is_finite() {
        return Err(KernelError::new("invalid 'xmax' value"));
    }
    if lower >= upper {
        return Err(KernelError::new("'xmin' not less than 'xmax'"));
    }
    if !tol.is_finite() || tol <= 0.0 {
        return Err(KernelError::new("invalid 'tol' value"));
    }
    // R's Brent_fmin never ends on an interval reaching near the largest
    // double (bw.ucv(x, lower = 1e308) hangs R 4.2.2).
    if lower.abs().max(upper.abs()) > 1e300 {
        return Err(KernelError::new(
            "flowcast refuses a search interval reaching past 1e300: R's optimize never ends on it",
        ));
    }
    let mut replaced = 0usize;
    let mut g = |h: f64| -> Result<f64, KernelError> {
        let v = f(h);
        Ok(if v.is_finite() {
            v
        } else {
            replaced += 1;
            f64::MAX
        })
    };
    let m = super::optimize::brent_fmin(lower, upper, &mut g, tol)?;
    for _ in 0..replaced {
        ctx.warn("NA/Inf replaced by maximum positive value");
    }
    Ok(m)
}

/// `bw.ucv(x, nb, lower, upper, tol)` or `bw.bcv(...)` (`biased`).
pub(crate) fn bw_cv(
    x: &[f64],
    s: &Selector,
    biased: bool,
    ctx: &mut Ctx,
) -> Result<f64, KernelError> {
    let nb = checked_nb(x, s.nb)?;
    let n = x.len() as f64;
    let hmax = 1.144 * var(x).sqrt() * r_pow(n, -1.0 / 5.0);
    let z = pair_counts(x, nb, n > nb as f64 / 2.0)?;
    let lower = s.lower.unwrap_or(0.1 * hmax);
    let upper = s.upper.unwrap_or(hmax);
    let tol = s.tol.unwrap_or(0.1 * lower);
    let f = |h: f64| {
        if biased {
            bw_bcv(n, &z, h)
        } else {
            bw_ucv(n, &z, h)
        }
    };
    let h = optimize_min(lower, upper, tol, f, ctx)?;
    if h < lower + tol || h > upper - tol {
        ctx.warn("minimum occurred at one end of the range");
    }
    Ok(h)
}

/// `bw.SJ(x, nb, lower, upper, method, tol)`.
pub(crate) fn bw_sj(x: &[f64], s: &Selector) -> Result<f64, KernelError> {
    let nb = checked_nb(x, s.nb)?;
    let n = x.len() as f64;
    let z = pair_counts(x, nb, n > nb as f64 / 2.0)?;
    let sd_h = |h: f64| bw_phi4(n, &z, h);
    let td_h = |h: f64| bw_phi6(n, &z, h);
    let scale = sj_scale(x);
    let a = 1.24 * scale * r_pow(n, -1.0 / 7.0);
    let b = 1.23 * scale * r_pow(n, -1.0 / 9.0);
    let c1 = 1.0 / (2.0 * std::f64::consts::PI.sqrt() * n);
    let td = -td_h(b);
    if !td.is_finite() || td <= 0.0 {
        return Err(KernelError::new("sample is too sparse to find TD"));
    }
    if s.dpi {
        return Ok(r_pow(
            c1 / sd_h(r_pow(2.394 / (n * td), 1.0 / 7.0)),
            1.0 / 5.0,
        ));
    }
    let bnd_miss = s.lower.is_none() || s.upper.is_none();
    let hmax = 1.144 * scale * r_pow(n, -1.0 / 5.0);
    let mut lower = s.lower.unwrap_or(0.1 * hmax);
    let mut upper = s.upper.unwrap_or(hmax);
    let alph2 = 1.357 * r_pow(sd_h(a) / td, 1.0 / 7.0);
    if !alph2.is_finite() {
        return Err(KernelError::new("sample is too sparse to find alph2"));
    }
    let f_sd = |h: f64| r_pow(c1 / sd_h(alph2 * r_pow(h, 5.0 / 7.0)), 1.0 / 5.0) - h;
    let mut itry = 1;
    loop {
        let p = f_sd(lower) * f_sd(upper);
        if p.is_nan() {
            return Err(KernelError::new("missing value where TRUE/FALSE needed"));
        }
        if p <= 0.0 {
            break;
        }
        if itry > 99 || !bnd_miss {
            return Err(KernelError::new(
                "no solution in the specified range of bandwidths",
            ));
        }
        if itry % 2 == 1 {
            upper *= 1.2;
        } else {
            lower /= 1.2;
        }
        itry += 1;
    }
    // tol's default, 0.1 * lower, is a promise R forces only here, after
    // the search may have lowered `lower`.
    let tol = s.tol.unwrap_or(0.1 * lower);
    // uniroot's lower = min(interval), upper = max(interval), its checks,
    // then R_zeroin2.
    if lower.is_nan() || upper.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let (lower, upper) = (lower.min(upper), lower.max(upper));
    if lower >= upper {
        return Err(KernelError::new("lower < upper  is not fulfilled"));
    }
    let (fl, fu) = (f_sd(lower), f_sd(upper));
    if fl.is_nan() {
        return Err(KernelError::new("f.lower = f(lower) is NA"));
    }
    if fu.is_nan() {
        return Err(KernelError::new("f.upper = f(upper) is NA"));
    }
    if !lower.is_finite() {
        return Err(KernelError::new("invalid 'xmin' value"));
    }
    if !upper.is_finite() {
        return Err(KernelError::new("invalid 'xmax' value"));
    }
    if !tol.is_finite() || tol <= 0.0 {
        return Err(KernelError::new("invalid 'tol' value"));
    }
    let mut g = f_sd;
    let zero = super::htest::uniroot::zeroin2(lower, upper, fl, fu, &mut g, tol, 1000);
    Ok(zero.root)
}

/// One number of an optional argument, as the selectors' arithmetic
/// reads its first element.
fn number_arg(args: &Args<&Value>, name: &str) -> Result<Option<f64>, KernelError> {
    match args.get_if_formal(name).map(bare) {
        None => Ok(None),
        Some(v) => match v.as_f64_slice() {
            Some(s) if !s.is_empty() => Ok(Some(s[0])),
            _ => Err(KernelError::new(format!("invalid '{name}' argument"))),
        },
    }
}

fn eval_selector(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let x = bare(xv);
    if x.len() < 2 {
        return Err(KernelError::new("need at least 2 data points"));
    }
    let x = match x {
        Value::Num(_) | Value::Mat(_) => x.as_f64_slice().unwrap_or_default().into_owned(),
        _ => return Err(KernelError::new("invalid 'x'")),
    };
    let dpi = match args.get_if_formal("method") {
        None => false,
        Some(m) => super::acf::match_arg(Some(bare(m)), &["ste", "dpi"])? == "dpi",
    };
    let s = Selector {
        nb: number_arg(args, "nb")?,
        lower: number_arg(args, "lower")?,
        upper: number_arg(args, "upper")?,
        tol: number_arg(args, "tol")?,
        dpi,
    };
    let h = match args.func {
        "bw.SJ" => bw_sj(&x, &s)?,
        "bw.ucv" => bw_cv(&x, &s, false, ctx)?,
        _ => bw_cv(&x, &s, true, ctx)?,
    };
    Ok(Value::scalar(h))
}
