//! `ansari.test(x, y)`: the Ansari-Bradley two-sample test of scale, as
//! R 4.2's ansari.test.default (stats/R/ansari.test.R): the exact
//! distribution (nmath's port of ansari.c) for samples under 50 without
//! ties, else the normal approximation with R's tie correction; with
//! `conf.int = TRUE` the interval and estimate of the ratio of scales,
//! from the exact quantiles over the ratios x/y or by `uniroot` on the
//! normal approximation.

use super::super::nmath::ansari::{table_fits, Ansari};
use super::super::nmath::pnorm;
use super::super::nmath::qnorm::qnorm;
use super::super::summary::{ldouble, mean};
use super::super::value::NA;
use super::ttest::conf_level;
use super::uniroot::zeroin2;
use super::{alternative, check_alternative, check_numeric, exact_arg, rank, Alternative};
use crate::kernels::value::List;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_numeric(args, "x", "'x' must be numeric")?;
    check_numeric(args, "y", "'y' must be numeric")?;
    check_alternative(args)?;
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    let mut fields = vec![
        ("statistic", Type::num(1)),
        ("p.value", Type::num(1)),
        ("null.value", Type::num(1)),
        ("alternative", s()),
        ("method", s()),
    ];
    match args.ty("conf.int") {
        None => {}
        Some(Type::Bool { value: Some(v), .. }) if v.first() == Some(&Some(false)) => {}
        Some(Type::Bool { value: Some(v), .. }) if v.first() == Some(&Some(true)) => {
            fields.push(("conf.int", Type::num(2)));
            fields.push(("estimate", Type::num(1)));
        }
        // Known only when the test runs: the interval's fields may be
        // there or not.
        Some(_) => return Ok(Type::Any),
    }
    Ok(Type::record("htest", fields))
}

/// The data of `name` without NA (R's `x[complete.cases(x)]`).
fn sample(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_))) => Ok(v
            .as_f64_slice()
            .map(|s| s.iter().copied().filter(|v| !v.is_nan()).collect())
            .unwrap_or_default()),
        None => Err(KernelError::new(format!(
            "argument \"{name}\" is missing, with no default"
        ))),
        Some(v) => Err(KernelError::new(format!(
            "flowcast's ansari.test takes numeric samples, not {}",
            v.type_name()
        ))),
    }
}

/// `sum(pmin(r, N - r + 1)[seq_along(x)])` of ranks `r`: NA when a rank
/// is (R's rank keeps NA for a NaN ratio).
fn ab_sum(r: &[f64], m: usize, big_n: f64) -> f64 {
    let terms: Vec<f64> = r[..m].iter().map(|&ri| ri.min(big_n - ri + 1.0)).collect();
    ldouble::sum(&terms).to_f64()
}

/// R's `rank(x)` (na.last = TRUE): the numbers ranked with ties
/// averaged, then each NaN ranked after them in turn.
fn rank_na_last(z: &[f64]) -> Vec<f64> {
    let kept: Vec<f64> = z.iter().copied().filter(|v| !v.is_nan()).collect();
    let mut ranked = rank(&kept).into_iter();
    let mut next = kept.len() as f64;
    z.iter()
        .map(|v| {
            if v.is_nan() {
                next += 1.0;
                next
            } else {
                ranked.next().unwrap_or(f64::NAN)
            }
        })
        .collect()
}

/// `rank(c(x / sig, y))`: a NaN ratio (0 / 0) ranks last, as in R.
fn ranks_scaled(x: &[f64], y: &[f64], sig: f64) -> Vec<f64> {
    let z: Vec<f64> = x.iter().map(|v| v / sig).chain(y.iter().copied()).collect();
    rank_na_last(&z)
}

/// R's `normalize(s, r, TIES, m, n)`: the statistic standardised, with
/// the tie correction from the scores' run lengths.
fn normalize(s: f64, r: &[f64], ties: bool, m: f64, n: f64, big_n: f64) -> f64 {
    let even = (big_n as i64) % 2 == 0;
    let z = if even {
        s - m * (big_n + 2.0) / 4.0
    } else {
        s - m * (big_n + 1.0).powi(2) / (4.0 * big_n)
    };
    let sigma = if !ties {
        if even {
            ((m * n * (big_n + 2.0) * (big_n - 2.0)) / (48.0 * (big_n - 1.0))).sqrt()
        } else {
            ((m * n * (big_n + 1.0) * (3.0 + big_n * big_n)) / (48.0 * big_n * big_n)).sqrt()
        }
    } else {
        // sum(r$lengths * r$values^2) over rle(sort(pmin(r, N - r + 1))):
        // each run's length times its value squared.
        let mut v: Vec<f64> = r.iter().map(|&ri| ri.min(big_n - ri + 1.0)).collect();
        v.sort_by(f64::total_cmp);
        let mut terms = Vec::new();
        let mut i = 0;
        while i < v.len() {
            let mut j = i;
            while j + 1 < v.len() && v[j + 1] == v[i] {
                j += 1;
            }
            terms.push((j - i + 1) as f64 * (v[i] * v[i]));
            i = j + 1;
        }
        let sq = ldouble::sum(&terms).to_f64();
        if even {
            (m * n * (16.0 * sq - big_n * (big_n + 2.0).powi(2)) / (16.0 * big_n * (big_n - 1.0)))
                .sqrt()
        } else {
            (m * n * (16.0 * big_n * sq - (big_n + 1.0).powi(4))
                / (16.0 * big_n * big_n * (big_n - 1.0)))
                .sqrt()
        }
    };
    z / sigma
}

fn has_ties(r: &[f64]) -> bool {
    let mut s = r.to_vec();
    s.sort_by(f64::total_cmp);
    s.windows(2).any(|w| w[0] == w[1])
}

/// R's `if (cond)` on a comparison that may be NA.
fn truth(v: Option<bool>) -> Result<bool, KernelError> {
    v.ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))
}

/// R's `if (a || b)`: `NA || TRUE` is TRUE, `NA || FALSE` an error.
fn either(a: Option<bool>, b: Option<bool>) -> Result<bool, KernelError> {
    if a == Some(true) || b == Some(true) {
        return Ok(true);
    }
    truth(a.zip(b).map(|_| false))
}

fn gt(a: f64, b: f64) -> Option<bool> {
    (!a.is_nan() && !b.is_nan()).then_some(a > b)
}

/// R's `min(v, na.rm = TRUE)` (Inf, with R's warning, when all are NA).
fn min_na_rm(v: &[f64], warn: &mut Vec<String>) -> f64 {
    let kept: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    if kept.is_empty() {
        warn.push("no non-missing arguments to min; returning Inf".into());
        return f64::INFINITY;
    }
    kept.into_iter().fold(f64::INFINITY, f64::min)
}

/// R's `min(v)` / `max(v)` of values without NA; Inf or -Inf, with R's
/// warning, when there are none.
fn extreme(v: &[f64], max: bool, warn: &mut Vec<String>) -> f64 {
    if v.is_empty() {
        warn.push(if max {
            "no non-missing arguments to max; returning -Inf".into()
        } else {
            "no non-missing arguments to min; returning Inf".into()
        });
        return if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if max {
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    } else {
        v.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// The exact interval's pieces: the sorted non-negative ratios x/y and the
/// statistic just above each.
struct Exact<'a> {
    sigma: Vec<f64>,
    absigma: Vec<f64>,
    table: &'a mut Ansari,
    m: i64,
    n: i64,
}

impl Exact<'_> {
    fn q(&mut self, p: f64) -> Result<f64, KernelError> {
        self.table
            .qansari(p, self.m, self.n)
            .map_err(KernelError::new)
    }

    /// `min(sigma[which(u == min(u, na.rm = TRUE))])` after `u[u < 0] <-
    /// NA` (`strict`: `u[u <= 0] <- NA`, and the max of those sigma).
    fn pick(&self, q: f64, strict: bool, warn: &mut Vec<String>) -> f64 {
        let u: Vec<f64> = self
            .absigma
            .iter()
            .map(|a| a - q)
            .map(|v| {
                if v < 0.0 || (strict && v <= 0.0) {
                    NA
                } else {
                    v
                }
            })
            .collect();
        let lo = min_na_rm(&u, warn);
        let at: Vec<f64> = u
            .iter()
            .zip(&self.sigma)
            .filter(|(v, _)| **v == lo)
            .map(|(_, s)| *s)
            .collect();
        extreme(&at, strict, warn)
    }

    /// R's `cci(alpha)`.
    fn cci(&mut self, alpha: f64, warn: &mut Vec<String>) -> Result<[f64; 2], KernelError> {
        let (qu, ql) = (self.q(alpha / 2.0)?, self.q(1.0 - alpha / 2.0)?);
        // length(u[u >= 0]): NA's count too.
        let any_u = self.absigma.iter().any(|a| a - qu >= 0.0 || a.is_nan());
        let any_l = self.absigma.iter().any(|a| a - ql > 0.0 || a.is_nan());
        if !any_u || !any_l {
            warn.push(
                "samples differ in location: cannot compute confidence set, returning NA".into(),
            );
            return Ok([NA, NA]);
        }
        let mut uci = self.pick(qu, false, warn);
        let mut lci = self.pick(ql, true, warn);
        // The statistic need not be monotone in sigma: R swaps the
        // quantiles' roles.
        if truth(gt(uci, lci))? {
            uci = self.pick(ql, false, warn);
            lci = self.pick(qu, true, warn);
        }
        Ok([uci, lci])
    }
}

/// R's `uniroot(f, interval, tol = 1e-4)$root` with its checks, for the
/// normal approximation's interval and estimate.
fn uniroot_ab(f: &mut dyn FnMut(f64) -> f64, a: f64, b: f64) -> Result<f64, KernelError> {
    let (lower, upper) = (a.min(b), a.max(b));
    if lower.is_nan() || upper.is_nan() || lower >= upper {
        return Err(KernelError::new("lower < upper  is not fulfilled"));
    }
    let (fl, fu) = (f(lower), f(upper));
    if fl.is_nan() {
        return Err(KernelError::new("f.lower = f(lower) is NA"));
    }
    if fu.is_nan() {
        return Err(KernelError::new("f.upper = f(upper) is NA"));
    }
    if fl.signum() * fu.signum() > 0.0 && fl != 0.0 && fu != 0.0 {
        return Err(KernelError::new(
            "f() values at end points not of opposite sign",
        ));
    }
    if !lower.is_finite() {
        return Err(KernelError::new("invalid 'xmin' value"));
    }
    if !upper.is_finite() {
        return Err(KernelError::new("invalid 'xmax' value"));
    }
    Ok(zeroin2(lower, upper, fl, fu, f, 1e-4, 1000).root)
}

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let alt = alternative(args)?;
    let mut conf_int = args.bool_or("conf.int", false)?;
    let conf = if conf_int {
        conf_level(args, true)?
    } else {
        0.95
    };
    let x = sample(args, "x")?;
    let y = sample(args, "y")?;
    let (m, n) = (x.len(), y.len());
    if m < 1 {
        return Err(KernelError::new("not enough 'x' observations"));
    }
    if n < 1 {
        return Err(KernelError::new("not enough 'y' observations"));
    }
    let (mf, nf) = (m as f64, n as f64);
    let big_n = mf + nf;
    let z: Vec<f64> = x.iter().chain(&y).copied().collect();
    let r = rank(&z);
    let statistic = ab_sum(&r, m, big_n);
    let ties = has_ties(&r);
    let exact = exact_arg(args)?.unwrap_or(m < 50 && n < 50);
    let mut warn: Vec<String> = Vec::new();
    let pval;
    let mut interval = None;
    if exact && !ties {
        if !table_fits(mf, nf) {
            return Err(super::super::alloc::cannot_allocate(
                8.0 * (mf + 1.0) * (nf + 1.0) * (mf * nf / 2.0 + 1.0),
            ));
        }
        let mut table = Ansari::default();
        let (mi, ni) = (m as i64, n as i64);
        let mut pansari = |q: f64| table.pansari(q, mi, ni).map_err(KernelError::new);
        pval = match alt {
            Alternative::TwoSided => {
                // (m + 1)^2 %/% 4 + ((m * n) %/% 2) / 2
                let mid = ((mi + 1) * (mi + 1) / 4) as f64 + ((mi * ni) / 2) as f64 / 2.0;
                let p = if statistic > mid {
                    1.0 - pansari(statistic - 1.0)?
                } else {
                    pansari(statistic)?
                };
                (2.0 * p).min(1.0)
            }
            Alternative::Less => 1.0 - pansari(statistic - 1.0)?,
            Alternative::Greater => pansari(statistic)?,
        };
        if conf_int {
            interval = Some(exact_interval(&x, &y, alt, conf, &mut table, &mut warn)?);
        }
    } else {
        let p = pnorm(
            normalize(statistic, &r, ties, mf, nf, big_n),
            0.0,
            1.0,
            true,
            false,
        );
        pval = match alt {
            Alternative::TwoSided => 2.0 * p.min(1.0 - p),
            Alternative::Less => 1.0 - p,
            Alternative::Greater => p,
        };
        if conf_int && !exact {
            match normal_interval(&x, &y, alt, conf, &mut warn)? {
                Some(i) => interval = Some(i),
                None => conf_int = false,
            }
        }
        if exact && ties {
            warn.push("cannot compute exact p-value with ties".into());
            if conf_int {
                warn.push("cannot compute exact confidence intervals with ties".into());
            }
        }
    }
    for w in warn {
        ctx.warn(w);
    }
    let mut fields = vec![
        ("statistic", super::nm(statistic, "AB")),
        ("p.value", Value::scalar(pval)),
        ("null.value", super::nm(1.0, "ratio of scales")),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string("Ansari-Bradley test")),
    ];
    if conf_int {
        // R's RVAL reads `cint`, which the exact branch with ties never
        // set.
        let (cint, estimate) =
            interval.ok_or_else(|| KernelError::new("object 'cint' not found"))?;
        fields.push(("conf.int", Value::Num(cint.to_vec())));
        fields.push(("estimate", super::nm(estimate, "ratio of scales")));
    }
    Ok(Value::List(List::record("htest", fields)))
}

/// The exact branch's interval and estimate.
fn exact_interval(
    x: &[f64],
    y: &[f64],
    alt: Alternative,
    conf: f64,
    table: &mut Ansari,
    warn: &mut Vec<String>,
) -> Result<([f64; 2], f64), KernelError> {
    let (m, n) = (x.len(), y.len());
    let big_n = (m + n) as f64;
    let alpha = 1.0 - conf;
    let mut xs = x.to_vec();
    xs.sort_by(f64::total_cmp);
    let mut ys = y.to_vec();
    ys.sort_by(f64::total_cmp);
    // outer(x, y, `/`)[ratio >= 0], sorted: a NaN ratio is an NA that
    // sort() drops.
    let mut sigma = Vec::with_capacity(m * n);
    for b in &ys {
        for a in &xs {
            let q = a / b;
            if q >= 0.0 {
                sigma.push(q);
            }
        }
    }
    sigma.sort_by(f64::total_cmp);
    if sigma.is_empty() {
        // R warns, then reads `absigma`, which it never set.
        warn.push("cannot compute confidence set, returning NA".into());
        return Err(KernelError::new("object 'absigma' not found"));
    }
    let k = sigma.len();
    let absigma: Vec<f64> = (0..k)
        .map(|i| {
            let at = if i + 1 < k {
                sigma[i] + (sigma[i + 1] - sigma[i]) / 2.0
            } else {
                sigma[i] + sigma[i] * 1.01
            };
            ab_sum(&ranks_scaled(&xs, &ys, at), m, big_n)
        })
        .collect();
    let mut e = Exact {
        sigma,
        absigma,
        table,
        m: m as i64,
        n: n as i64,
    };
    let cint = match alt {
        Alternative::TwoSided => e.cci(alpha, warn)?,
        Alternative::Greater => [e.cci(alpha * 2.0, warn)?[0], f64::INFINITY],
        Alternative::Less => [0.0, e.cci(alpha * 2.0, warn)?[1]],
    };
    let q = e.q(0.5)?;
    // sigma[u <= 0] and sigma[u > 0]: an NA u selects an NA.
    let (mut le, mut gtv) = (Vec::new(), Vec::new());
    for (a, s) in e.absigma.iter().zip(&e.sigma) {
        let u = a - q;
        if u.is_nan() {
            le.push(NA);
            gtv.push(NA);
        } else if u <= 0.0 {
            le.push(*s);
        } else {
            gtv.push(*s);
        }
    }
    let pick = |v: &[f64], max: bool| {
        if v.is_empty() || v.iter().any(|x| x.is_nan()) {
            NA
        } else if max {
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        } else {
            v.iter().copied().fold(f64::INFINITY, f64::min)
        }
    };
    let sgr = pick(&le, true);
    let sle = pick(&gtv, false);
    let estimate = if sgr.is_nan() || sle.is_nan() {
        NA
    } else {
        mean(&[sle, sgr])
    };
    Ok((cint, estimate))
}

/// The normal approximation's interval and estimate by `uniroot`; `None`
/// when R gives up on them (an infinite ratio range).
fn normal_interval(
    x: &[f64],
    y: &[f64],
    alt: Alternative,
    conf: f64,
    warn: &mut Vec<String>,
) -> Result<Option<([f64; 2], f64)>, KernelError> {
    let (m, n) = (x.len(), y.len());
    let (mf, nf) = (m as f64, n as f64);
    let big_n = mf + nf;
    let alpha = 1.0 - conf;
    let ab2 = |sig: f64, zq: f64| -> f64 {
        let r = ranks_scaled(x, y, sig);
        let s = ab_sum(&r, m, big_n);
        normalize(s, &r, has_ties(&r), mf, nf, big_n) - zq
    };
    let pick = |v: &[f64], keep: &dyn Fn(f64) -> bool| -> Vec<f64> {
        v.iter().copied().filter(|&a| keep(a)).collect()
    };
    let (xp, yp) = (pick(x, &|a| a > 0.0), pick(y, &|a| a > 0.0));
    let (xn, yn) = (pick(x, &|a| a <= 0.0), pick(y, &|a| a < 0.0));
    let lo = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut ends = Vec::new();
    if !xp.is_empty() && !yp.is_empty() {
        ends.push(lo(&xp) / hi(&yp));
        ends.push(hi(&xp) / lo(&yp));
    }
    if !xn.is_empty() && !yn.is_empty() {
        ends.push(lo(&xn) / hi(&yn));
        ends.push(hi(&xn) / lo(&yn));
    }
    if ends.iter().any(|e| e.is_infinite()) {
        warn.push("cannot compute asymptotic confidence set or estimator".into());
        return Ok(None);
    }
    // range(c(srangepos, srangeneg)), NA-propagating as R's range.
    let srange = if ends.iter().any(|e| e.is_nan()) {
        [NA, NA]
    } else {
        [extreme(&ends, false, warn), extreme(&ends, true, warn)]
    };
    let ccia = |alpha: f64, warn: &mut Vec<String>| -> Result<[f64; 2], KernelError> {
        let (zl, zu) = (
            qnorm(alpha / 2.0, 0.0, 1.0, true, false),
            qnorm(alpha / 2.0, 0.0, 1.0, false, false),
        );
        let statu = ab2(srange[0], zl);
        let statl = ab2(srange[1], zu);
        if either(gt(statu, 0.0), gt(0.0, statl))? {
            warn.push(
                "samples differ in location: cannot compute confidence set, returning NA".into(),
            );
            return Ok([NA, NA]);
        }
        let u = uniroot_ab(&mut |s| ab2(s, zl), srange[0], srange[1])?;
        let l = uniroot_ab(&mut |s| ab2(s, zu), srange[0], srange[1])?;
        Ok([u.min(l), u.max(l)])
    };
    let cint = match alt {
        Alternative::TwoSided => ccia(alpha, warn)?,
        Alternative::Greater => [ccia(alpha * 2.0, warn)?[0], f64::INFINITY],
        Alternative::Less => [0.0, ccia(alpha * 2.0, warn)?[1]],
    };
    let statu = ab2(srange[0], 0.0);
    let statl = ab2(srange[1], 0.0);
    let estimate = if either(gt(statu, 0.0), gt(0.0, statl))? {
        warn.push("cannot compute estimate, returning NA".into());
        NA
    } else {
        uniroot_ab(&mut |s| ab2(s, 0.0), srange[0], srange[1])?
    };
    Ok(Some((cint, estimate)))
}
