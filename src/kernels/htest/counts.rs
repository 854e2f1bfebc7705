//! Tests on counts: `chisq.test` (contingency tables with Yates'
//! correction for 2x2, and goodness of fit), `binom.test` and
//! `prop.test`, following R 4.2's R code line by line.

use nalgebra::DMatrix;

use super::ttest::conf_level;
use super::{alternative, check_alternative, record, Alternative};
use crate::kernels::names::named;
use crate::kernels::nmath::dfun::{dbinom, pbinom};
use crate::kernels::nmath::qfun::{qbeta, qnorm_std};
use crate::kernels::nmath::{pchisq, pnorm, rsum};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// R's refusal of a negative `B` where `C_chisq_sim` allocates its results.
const NEGATIVE_LENGTH: &str = "negative length vectors are not allowed";

fn str1() -> Type {
    Type::Str {
        len: Some(1),
        value: None,
    }
}

pub(super) fn chisq_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let simulate = args.bool_or("simulate.p.value", false)?;
    // chisq.test's `almost.1`: simulated statistics this close below the
    // observed one count as reaching it.
    let almost_1 = 1.0 - 64.0 * f64::EPSILON;
    let simulated_p = |sims: &[f64], stat: f64, b: f64| {
        let reached = sims.iter().filter(|&&s| s >= almost_1 * stat).count();
        (1.0 + reached as f64) / (b + 1.0)
    };
    let correct = args.bool_or("correct", true)?;
    let mut xv = args.get("x").unwrap_or(&Value::Null);
    let crossed;
    let table = matches!(xv, Value::Mat(m) if m.nrows().min(m.ncols()) > 1);
    if let Some(y) = args
        .get("y")
        .filter(|y| !matches!(y, Value::Null) && !table)
    {
        crossed = Value::Mat(super::cross_counts(xv, y, true)?);
        xv = &crossed;
    }
    let (data, dims) = match xv {
        Value::Mat(m) if m.nrows().min(m.ncols()) > 1 => {
            (m.as_slice().to_vec(), Some((m.nrows(), m.ncols())))
        }
        v => (
            v.as_f64_slice().map(|s| s.into_owned()).ok_or_else(|| {
                KernelError::new("all entries of 'x' must be nonnegative and finite")
            })?,
            None,
        ),
    };
    if data.iter().any(|v| v.is_nan() || *v < 0.0) {
        return Err(KernelError::new(
            "all entries of 'x' must be nonnegative and finite",
        ));
    }
    let n = rsum(&data);
    if n == 0.0 {
        return Err(KernelError::new(
            "at least one entry of 'x' must be positive",
        ));
    }
    let (stat, df, pval, method, e, v): (f64, f64, f64, String, Vec<f64>, Vec<f64>);
    if let Some((nr, nc)) = dims {
        let sr: Vec<f64> = (0..nr)
            .map(|i| rsum(&(0..nc).map(|j| data[i + j * nr]).collect::<Vec<f64>>()))
            .collect();
        let sc: Vec<f64> = (0..nc).map(|j| rsum(&data[j * nr..(j + 1) * nr])).collect();
        let mut ee = vec![0.0; nr * nc];
        let mut vv = vec![0.0; nr * nc];
        for j in 0..nc {
            for i in 0..nr {
                ee[i + j * nr] = sr[i] * sc[j] / n;
                let (r, c) = (sr[i], sc[j]);
                vv[i + j * nr] = c * r * (n - r) * (n - c) / n.powi(3);
            }
        }
        let mut m = String::from("Pearson's Chi-squared test");
        if simulate && sr.iter().chain(&sc).all(|&s| s > 0.0) {
            let (b, bi) = super::simulate::replicates(args, NEGATIVE_LENGTH)?;
            let sims = super::simulate::chisq_sim(&sr, &sc, bi, &ee, ctx)?;
            // sum(sort((x - E)^2/E, decreasing = TRUE)): largest first.
            let mut terms: Vec<f64> = data
                .iter()
                .zip(&ee)
                .map(|(x, e)| (x - e).powi(2) / e)
                .collect();
            terms.sort_by(|a, b| b.total_cmp(a));
            stat = rsum(&terms);
            df = crate::kernels::value::NA;
            pval = simulated_p(&sims, stat, b);
            method = super::simulate::method_suffix(&m, b);
            e = ee;
            v = vv;
            return Ok(chisq_result(dims, data, stat, df, pval, &method, e, v));
        }
        if simulate {
            ctx.warn("cannot compute simulated p-value with zero marginals");
        }
        let yates = if correct && nr == 2 && nc == 2 {
            let y = data
                .iter()
                .zip(&ee)
                .map(|(x, e)| (x - e).abs())
                .fold(0.5f64, f64::min);
            if y > 0.0 {
                m.push_str(" with Yates' continuity correction");
            }
            y
        } else {
            0.0
        };
        let terms: Vec<f64> = data
            .iter()
            .zip(&ee)
            .map(|(x, e)| ((x - e).abs() - yates).powi(2) / e)
            .collect();
        stat = rsum(&terms);
        df = ((nr - 1) * (nc - 1)) as f64;
        pval = pchisq(stat, df, false, false);
        method = m;
        e = ee;
        v = vv;
    } else {
        if data.len() == 1 {
            return Err(KernelError::new("'x' must at least have 2 elements"));
        }
        let k = data.len();
        let mut p = match args.get("p") {
            None => vec![1.0 / k as f64; k],
            Some(pv) => pv
                .as_f64_slice()
                .map(|s| s.into_owned())
                .ok_or_else(|| KernelError::new("probabilities must be non-negative."))?,
        };
        if p.len() != k {
            return Err(KernelError::new(
                "'x' and 'p' must have the same number of elements",
            ));
        }
        if p.iter().any(|v| *v < 0.0) {
            return Err(KernelError::new("probabilities must be non-negative."));
        }
        let sp = rsum(&p);
        if (sp - 1.0).abs() > f64::EPSILON.sqrt() || sp.is_nan() {
            if args.bool_or("rescale.p", false)? {
                p.iter_mut().for_each(|v| *v /= sp);
            } else {
                return Err(KernelError::new("probabilities must sum to 1."));
            }
        }
        e = p.iter().map(|pi| n * pi).collect();
        v = p.iter().map(|pi| n * pi * (1.0 - pi)).collect();
        let terms: Vec<f64> = data
            .iter()
            .zip(&e)
            .map(|(x, e)| (x - e).powi(2) / e)
            .collect();
        stat = rsum(&terms);
        let m = "Chi-squared test for given probabilities";
        if simulate {
            if n.fract() != 0.0 {
                return Err(KernelError::new(
                    "flowcast simulates goodness of fit for whole counts only: sum(x) is not a whole number",
                ));
            }
            let (b, bi) = super::simulate::replicates(args, "invalid 'size' argument")?;
            let sims = super::simulate::gof_sim(n, &p, &e, bi, ctx)?;
            pval = simulated_p(&sims, stat, b);
            return Ok(chisq_result(
                dims,
                data,
                stat,
                crate::kernels::value::NA,
                pval,
                &super::simulate::method_suffix(m, b),
                e,
                v,
            ));
        }
        df = (k - 1) as f64;
        pval = pchisq(stat, df, false, false);
        method = m.to_string();
    }
    if e.iter().any(|v| *v < 5.0) {
        ctx.warn("Chi-squared approximation may be incorrect");
    }
    Ok(chisq_result(dims, data, stat, df, pval, &method, e, v))
}

/// chisq.test's htest object.
#[allow(clippy::too_many_arguments)]
fn chisq_result(
    dims: Option<(usize, usize)>,
    data: Vec<f64>,
    stat: f64,
    df: f64,
    pval: f64,
    method: &str,
    e: Vec<f64>,
    v: Vec<f64>,
) -> Value {
    let shaped = |v: Vec<f64>| match dims {
        Some((r, c)) => Value::Mat(DMatrix::from_vec(r, c, v)),
        None => Value::Num(v),
    };
    let resid: Vec<f64> = data
        .iter()
        .zip(&e)
        .map(|(x, e)| (x - e) / e.sqrt())
        .collect();
    let stdres: Vec<f64> = data
        .iter()
        .zip(&e)
        .zip(&v)
        .map(|((x, e), v)| (x - e) / v.sqrt())
        .collect();
    Value::List(crate::kernels::value::List::record(
        "htest",
        vec![
            ("statistic", super::nm(stat, "X-squared")),
            ("parameter", super::nm(df, "df")),
            ("p.value", Value::scalar(pval)),
            ("method", Value::string(method)),
            ("observed", shaped(data)),
            ("expected", shaped(e)),
            ("residuals", shaped(resid)),
            ("stdres", shaped(stdres)),
        ],
    ))
}

pub(super) fn chisq_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let table = matches!(args.ty("x"), Some(Type::Mat { rows, cols }) if rows.zip(*cols).is_none_or(|(r, c)| r.min(c) > 1));
    let crossed = !table && args.ty("y").is_some_and(|y| !matches!(y, Type::Null));
    let data = match args.ty("x") {
        // table(x, y) of two vectors.
        _ if crossed => Type::Mat {
            rows: None,
            cols: None,
        },
        Some(t @ Type::Mat { rows, cols }) => {
            if rows.zip(*cols).is_some_and(|(r, c)| r.min(c) == 1) {
                Type::Num {
                    len: t.len(),
                    value: None,
                }
            } else {
                t.clone()
            }
        }
        Some(t) if t.is_numeric() => Type::Num {
            len: t.len(),
            value: None,
        },
        None | Some(Type::Any) => Type::Any,
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "all entries of 'x' must be nonnegative and finite, not {}",
                    t.describe()
                ),
            ))
        }
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            ("method", str1()),
            ("observed", data.clone()),
            ("expected", data.clone()),
            ("residuals", data.clone()),
            ("stdres", data),
        ],
    ))
}

/// binom.test's p-value and interval for `x` successes in `n` trials
/// (poisson.test's two-sample test is one).
/// binom.test's p-value and interval. R's two-sided p-value sums
/// `dbinom(ceiling(m):n, n, p)` (or `0:floor(m)`), a vector it fails to
/// allocate when `n` is huge; counting those terms one by one instead
/// would run for days, so the same sizes fail here as in R.
pub(super) fn binom_core(
    x: f64,
    n: f64,
    p: f64,
    alt: Alternative,
    conf: f64,
) -> Result<(f64, Vec<f64>), KernelError> {
    let pval = match alt {
        Alternative::Less => pbinom(x, n, p, true, false),
        Alternative::Greater => pbinom(x - 1.0, n, p, false, false),
        Alternative::TwoSided => {
            if p == 0.0 {
                f64::from(u8::from(x == 0.0))
            } else if p == 1.0 {
                f64::from(u8::from(x == n))
            } else {
                let rel_err = 1.0 + 1e-7;
                let d = dbinom(x, n, p, false);
                let m = n * p;
                if x == m {
                    1.0
                } else if x < m {
                    crate::kernels::alloc::ensure_room((n - m.ceil() + 1.0) * 8.0)?;
                    let mut y = 0.0;
                    let mut i = m.ceil();
                    while i <= n {
                        if dbinom(i, n, p, false) <= d * rel_err {
                            y += 1.0;
                        }
                        i += 1.0;
                    }
                    pbinom(x, n, p, true, false) + pbinom(n - y, n, p, false, false)
                } else {
                    crate::kernels::alloc::ensure_room((m.floor() + 1.0) * 8.0)?;
                    let mut y = 0.0;
                    let mut i = 0.0;
                    while i <= m.floor() {
                        if dbinom(i, n, p, false) <= d * rel_err {
                            y += 1.0;
                        }
                        i += 1.0;
                    }
                    pbinom(y - 1.0, n, p, true, false) + pbinom(x - 1.0, n, p, false, false)
                }
            }
        }
    };
    let p_l = |alpha: f64| {
        if x == 0.0 {
            0.0
        } else {
            qbeta(alpha, x, n - x + 1.0, true, false)
        }
    };
    let p_u = |alpha: f64| {
        if x == n {
            1.0
        } else {
            qbeta(1.0 - alpha, x + 1.0, n - x, true, false)
        }
    };
    let cint = match alt {
        Alternative::Less => vec![0.0, p_u(1.0 - conf)],
        Alternative::Greater => vec![p_l(1.0 - conf), 1.0],
        Alternative::TwoSided => {
            let alpha = (1.0 - conf) / 2.0;
            vec![p_l(alpha), p_u(alpha)]
        }
    };
    Ok((pval, cint))
}

pub(super) fn binom_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let xs = args.nums("x")?.into_owned();
    let bad_x = || KernelError::new("'x' must be nonnegative and integer");
    if xs.iter().any(|v| v.is_nan() || *v < 0.0) {
        return Err(bad_x());
    }
    let xr: Vec<f64> = xs.iter().map(|v| v.round()).collect();
    if xs.iter().zip(&xr).any(|(a, b)| (a - b).abs() > 1e-7) {
        return Err(bad_x());
    }
    let (x, n) = match xr.len() {
        2 => (xr[0], xr[0] + xr[1]),
        1 => {
            let n = match args.get("n").and_then(Value::as_scalar) {
                Some(n) => n,
                // R's `round(n)` of a missing `n` names round's own formal.
                None if !args.has("n") => {
                    return Err(KernelError::new(
                        "argument \"x\" is missing, with no default",
                    ))
                }
                None => return Err(KernelError::new("'n' must be a positive integer >= 'x'")),
            };
            let nr = n.round();
            if n.is_nan() || n < 1.0 || (n - nr).abs() > 1e-7 || xr[0] > nr {
                return Err(KernelError::new("'n' must be a positive integer >= 'x'"));
            }
            (xr[0], nr)
        }
        _ => return Err(KernelError::new("incorrect length of 'x'")),
    };
    let p = match args.get("p") {
        None => 0.5,
        Some(v) => match v.as_scalar() {
            Some(p) if (0.0..=1.0).contains(&p) => p,
            _ => {
                return Err(KernelError::new(
                    "'p' must be a single number between 0 and 1",
                ))
            }
        },
    };
    let alt = alternative(args)?;
    let conf = conf_level(args, true)?;
    let (pval, cint) = binom_core(x, n, p, alt, conf)?;
    Ok(record(vec![
        ("statistic", super::nm(x, "number of successes")),
        ("parameter", super::nm(n, "number of trials")),
        (
            "p.value",
            // binom.test's two-sided `if (p == 0) (x == 0)`: a logical.
            if alt == Alternative::TwoSided && (p == 0.0 || p == 1.0) {
                Value::flag(pval == 1.0)
            } else {
                Value::scalar(pval)
            },
        ),
        ("conf.int", Value::Num(cint)),
        ("estimate", super::nm(x / n, "probability of success")),
        ("null.value", super::nm(p, "probability of success")),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string("Exact binomial test")),
    ]))
}

pub(super) fn binom_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_alternative(args)?;
    if let Some(t) = args.ty("x") {
        if !matches!(t, Type::Any) && !t.is_numeric() {
            return Err(args.error("x", "'x' must be nonnegative and integer"));
        }
        if t.len().is_some_and(|n| n != 1 && n != 2) {
            return Err(args.error("x", "incorrect length of 'x'"));
        }
    }
    // A two-sided test of p = 0 or 1 has a logical p-value (see binom_eval).
    let p_value = match args.ty("p").and_then(Type::const_scalar) {
        Some(p) if p == 0.0 || p == 1.0 => Type::Any,
        _ => Type::num(1),
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", p_value),
            ("conf.int", Type::num(2)),
            ("estimate", Type::num(1)),
            ("null.value", Type::num(1)),
            ("alternative", str1()),
            ("method", str1()),
        ],
    ))
}

pub(super) fn prop_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (x, n) = match args.get("x") {
        Some(Value::Mat(m)) => {
            if m.ncols() != 2 {
                return Err(KernelError::new("'x' must have 2 columns"));
            }
            let x: Vec<f64> = m.column(0).iter().copied().collect();
            let n: Vec<f64> = (0..m.nrows())
                .map(|i| rsum(&[m[(i, 0)], m[(i, 1)]]))
                .collect();
            (x, n)
        }
        _ => {
            let x = args.nums("x")?.into_owned();
            let n = args.nums("n")?.into_owned();
            if x.len() != n.len() {
                return Err(KernelError::new("'x' and 'n' must have the same length"));
            }
            (x, n)
        }
    };
    let l = x.len();
    let ok: Vec<bool> = x
        .iter()
        .zip(&n)
        .map(|(a, b)| !a.is_nan() && !b.is_nan())
        .collect();
    let pick = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .zip(&ok)
            .filter(|(_, &k)| k)
            .map(|(&a, _)| a)
            .collect()
    };
    let (x, n) = (pick(&x), pick(&n));
    let k = x.len();
    // prop.test's `paste("prop", 1L:l)[OK]`: a group keeps its place's
    // number when an NA before it is dropped.
    let est_names: Vec<String> = if k == 1 {
        vec!["p".to_string()]
    } else {
        (1..=l)
            .filter(|i| ok[i - 1])
            .map(|i| format!("prop {i}"))
            .collect()
    };
    if k < 1 {
        return Err(KernelError::new("not enough data"));
    }
    if n.iter().any(|v| *v <= 0.0) {
        return Err(KernelError::new("elements of 'n' must be positive"));
    }
    if x.iter().any(|v| *v < 0.0) {
        return Err(KernelError::new("elements of 'x' must be nonnegative"));
    }
    if x.iter().zip(&n).any(|(a, b)| a > b) {
        return Err(KernelError::new(
            "elements of 'x' must not be greater than those of 'n'",
        ));
    }
    let mut p: Option<Vec<f64>> = match args.get("p") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_f64_slice()
                .map(|s| s.into_owned())
                .ok_or_else(|| KernelError::new("elements of 'p' must be in (0,1)"))?,
        ),
    };
    if p.is_none() && k == 1 {
        p = Some(vec![0.5]);
    }
    if let Some(pv) = &p {
        if pv.len() != l {
            return Err(KernelError::new(
                "'p' must have the same length as 'x' and 'n'",
            ));
        }
        let pv = pick(pv);
        // prop.test's `if (any((p <= 0) | (p >= 1)))`: an NA only matters
        // when no other element is out of range, and then `if` refuses it.
        if pv.iter().any(|v| *v <= 0.0 || *v >= 1.0) {
            return Err(KernelError::new("elements of 'p' must be in (0,1)"));
        }
        if pv.iter().any(|v| v.is_nan()) {
            return Err(KernelError::new("missing value where TRUE/FALSE needed"));
        }
        p = Some(pv);
    }
    let mut alt = alternative(args)?;
    if k > 2 || (k == 2 && p.is_some()) {
        alt = Alternative::TwoSided;
    }
    let conf = match args.get("conf.level") {
        None => 0.95,
        Some(v) => match v.as_scalar() {
            Some(c) if c > 0.0 && c < 1.0 => c,
            _ => {
                return Err(KernelError::new(
                    "'conf.level' must be a single number between 0 and 1",
                ))
            }
        },
    };
    let correct = args.bool_or("correct", true)?;
    let est: Vec<f64> = x.iter().zip(&n).map(|(a, b)| a / b).collect();
    let mut yates: f64 = if correct && k <= 2 { 0.5 } else { 0.0 };
    let mut cint = None;
    let mut delta = 0.0;
    if k == 1 {
        let p0 = p.as_ref().map_or(0.5, |v| v[0]);
        let (x1, n1) = (x[0], n[0]);
        let z = qnorm_std(if alt == Alternative::TwoSided {
            (1.0 + conf) / 2.0
        } else {
            conf
        });
        yates = yates.min((x1 - n1 * p0).abs());
        let z22n = z * z / (2.0 * n1);
        let pc = est[0] + yates / n1;
        let pu = if pc >= 1.0 {
            1.0
        } else {
            (pc + z22n + z * (pc * (1.0 - pc) / n1 + z22n / (2.0 * n1)).sqrt()) / (1.0 + 2.0 * z22n)
        };
        let pc = est[0] - yates / n1;
        let pl = if pc <= 0.0 {
            0.0
        } else {
            (pc + z22n - z * (pc * (1.0 - pc) / n1 + z22n / (2.0 * n1)).sqrt()) / (1.0 + 2.0 * z22n)
        };
        cint = Some(match alt {
            Alternative::TwoSided => vec![pl.max(0.0), pu.min(1.0)],
            Alternative::Greater => vec![pl.max(0.0), 1.0],
            Alternative::Less => vec![0.0, pu.min(1.0)],
        });
    } else if k == 2 && p.is_none() {
        delta = est[0] - est[1];
        let inv: Vec<f64> = n.iter().map(|v| 1.0 / v).collect();
        let sinv = rsum(&inv);
        yates = yates.min(delta.abs() / sinv);
        let q = match alt {
            Alternative::TwoSided => qnorm_std((1.0 + conf) / 2.0),
            _ => qnorm_std(conf),
        };
        let vt: Vec<f64> = est.iter().zip(&n).map(|(e, n)| e * (1.0 - e) / n).collect();
        let width = q * rsum(&vt).sqrt() + yates * sinv;
        cint = Some(match alt {
            Alternative::TwoSided => vec![(delta - width).max(-1.0), (delta + width).min(1.0)],
            Alternative::Greater => vec![(delta - width).max(-1.0), 1.0],
            Alternative::Less => vec![-1.0, (delta + width).min(1.0)],
        });
    }
    let method = format!(
        "{} {} continuity correction",
        if k == 1 {
            "1-sample proportions test".to_string()
        } else {
            format!(
                "{k}-sample test for {} proportions",
                if p.is_none() { "equality of" } else { "given" }
            )
        },
        if yates != 0.0 { "with" } else { "without" }
    );
    let nval = p.clone();
    let (pp, param): (Vec<f64>, f64) = match &p {
        None => {
            let pooled = rsum(&x) / rsum(&n);
            (vec![pooled; k], (k - 1) as f64)
        }
        Some(v) => (v.clone(), k as f64),
    };
    // x <- cbind(x, n - x); E <- cbind(n * p, n * (1 - p)), column-major.
    let obs: Vec<f64> = x
        .iter()
        .copied()
        .chain(x.iter().zip(&n).map(|(a, b)| b - a))
        .collect();
    let e: Vec<f64> = n
        .iter()
        .zip(&pp)
        .map(|(n, p)| n * p)
        .chain(n.iter().zip(&pp).map(|(n, p)| n * (1.0 - p)))
        .collect();
    if e.iter().any(|v| *v < 5.0) {
        ctx.warn("Chi-squared approximation may be incorrect");
    }
    let terms: Vec<f64> = obs
        .iter()
        .zip(&e)
        .map(|(o, e)| ((o - e).abs() - yates).powi(2) / e)
        .collect();
    let stat = rsum(&terms);
    let pval = if alt == Alternative::TwoSided {
        pchisq(stat, param, false, false)
    } else {
        let s = if k == 1 { est[0] - pp[0] } else { delta };
        let sign = if s > 0.0 {
            1.0
        } else if s < 0.0 {
            -1.0
        } else {
            0.0
        };
        let z = sign * stat.sqrt();
        pnorm(z, 0.0, 1.0, alt == Alternative::Less, false)
    };
    let mut fields = vec![
        ("statistic", super::nm(stat, "X-squared")),
        ("parameter", super::nm(param, "df")),
        ("p.value", Value::scalar(pval)),
        ("estimate", named(Value::Num(est), est_names.clone())),
        (
            "null.value",
            nval.map_or(Value::Null, |v| named(Value::Num(v), est_names)),
        ),
    ];
    fields.push(("conf.int", cint.map_or(Value::Null, Value::Num)));
    fields.push(("alternative", Value::string(alt.r_name())));
    fields.push(("method", Value::string(&method)));
    Ok(Value::List(crate::kernels::value::List::record(
        "htest", fields,
    )))
}

pub(super) fn prop_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_alternative(args)?;
    let k = match args.ty("x") {
        Some(Type::Mat { rows, .. }) => *rows,
        Some(t) if t.is_numeric() => t.len(),
        None | Some(Type::Any) => None,
        Some(t) => {
            return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())))
        }
    };
    let est = match k {
        Some(k) => Type::num(k),
        None => Type::num_unknown(),
    };
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            ("estimate", est),
            ("null.value", Type::Any),
            ("conf.int", Type::Any),
            ("alternative", str1()),
            ("method", str1()),
        ],
    ))
}
