//! `wilcox.test(conf.int = TRUE)`: the confidence interval and estimate of
//! R 4.2's wilcox.test.default — exact from the Walsh averages or the
//! pairwise differences (qsignrank / qwilcox), or by inverting the
//! normal approximation with `uniroot`.

use super::super::nmath::qnorm::qnorm;
use super::super::nmath::signrank::{psignrank1 as psignrank, qsignrank1 as qsignrank};
use super::super::nmath::wilcox::{pwilcox1 as pwilcox, qwilcox1 as qwilcox};
use super::uniroot::uniroot;
use super::{rank, tie_counts, Alternative};
use crate::kernels::KernelError;

/// What `conf.int = TRUE` adds to the result.
pub(super) struct Interval {
    pub conf_int: [f64; 2],
    pub estimate: f64,
}

/// R's `median()` of numbers without NA.
fn median(x: &[f64]) -> f64 {
    crate::kernels::summary::median_of(x.to_vec())
}

/// R's `sign(z) * 0.5`, or the one-sided continuity correction.
fn correction(alt: Alternative, z: f64, correct: bool) -> f64 {
    if !correct {
        return 0.0;
    }
    match alt {
        Alternative::TwoSided => {
            if z > 0.0 {
                0.5
            } else if z < 0.0 {
                -0.5
            } else {
                0.0
            }
        }
        Alternative::Greater => 0.5,
        Alternative::Less => -0.5,
    }
}

/// The signed rank test's exact interval from the Walsh averages.
/// `x`: the data without zeroes, `mu` added back.
pub(super) fn signed_rank_exact(
    x: &[f64],
    alt: Alternative,
    conf_level: f64,
    warn: &mut Vec<String>,
) -> Interval {
    let n = x.len() as f64;
    let alpha = 1.0 - conf_level;
    // diffs[!lower.tri(diffs)]: column by column, rows up to the diagonal.
    let mut diffs: Vec<f64> = Vec::with_capacity(x.len() * (x.len() + 1) / 2);
    for j in 0..x.len() {
        for i in 0..=j {
            diffs.push(x[i] + x[j]);
        }
    }
    diffs.sort_by(f64::total_cmp);
    for d in &mut diffs {
        *d /= 2.0;
    }
    let at = |k: f64| diffs[(k as usize).saturating_sub(1).min(diffs.len() - 1)];
    let (conf_int, achieved) = match alt {
        Alternative::TwoSided => {
            let mut qu = qsignrank(alpha / 2.0, n);
            if qu == 0.0 {
                qu = 1.0;
            }
            let ql = n * (n + 1.0) / 2.0 - qu;
            let achieved = 2.0 * psignrank(qu.trunc() - 1.0, n, true, false);
            ([at(qu), at(ql + 1.0)], achieved)
        }
        Alternative::Greater => {
            let mut qu = qsignrank(alpha, n);
            if qu == 0.0 {
                qu = 1.0;
            }
            let achieved = psignrank(qu.trunc() - 1.0, n, true, false);
            ([at(qu), f64::INFINITY], achieved)
        }
        Alternative::Less => {
            let mut qu = qsignrank(alpha, n);
            if qu == 0.0 {
                qu = 1.0;
            }
            let ql = n * (n + 1.0) / 2.0 - qu;
            let achieved = psignrank(qu.trunc() - 1.0, n, true, false);
            ([f64::NEG_INFINITY, at(ql + 1.0)], achieved)
        }
    };
    if achieved - alpha > alpha / 2.0 {
        warn.push("requested conf.level not achievable".into());
    }
    Interval {
        conf_int,
        estimate: median(&diffs),
    }
}

/// The rank sum test's exact interval from the pairwise differences.
pub(super) fn rank_sum_exact(
    x: &[f64],
    y: &[f64],
    alt: Alternative,
    conf_level: f64,
    warn: &mut Vec<String>,
) -> Interval {
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    let alpha = 1.0 - conf_level;
    // outer(x, y, "-"), column-major, then sorted.
    let mut diffs: Vec<f64> = y
        .iter()
        .flat_map(|&b| x.iter().map(move |&a| a - b))
        .collect();
    diffs.sort_by(f64::total_cmp);
    let at = |k: f64| diffs[(k as usize).saturating_sub(1).min(diffs.len() - 1)];
    let (conf_int, achieved) = match alt {
        Alternative::TwoSided => {
            let mut qu = qwilcox(alpha / 2.0, nx, ny);
            if qu == 0.0 {
                qu = 1.0;
            }
            let ql = nx * ny - qu;
            let achieved = 2.0 * pwilcox(qu.trunc() - 1.0, nx, ny, true, false);
            ([at(qu), at(ql + 1.0)], achieved)
        }
        Alternative::Greater => {
            let mut qu = qwilcox(alpha, nx, ny);
            if qu == 0.0 {
                qu = 1.0;
            }
            let achieved = pwilcox(qu.trunc() - 1.0, nx, ny, true, false);
            ([at(qu), f64::INFINITY], achieved)
        }
        Alternative::Less => {
            let mut qu = qwilcox(alpha, nx, ny);
            if qu == 0.0 {
                qu = 1.0;
            }
            let ql = nx * ny - qu;
            let achieved = pwilcox(qu.trunc() - 1.0, nx, ny, true, false);
            ([f64::NEG_INFINITY, at(ql + 1.0)], achieved)
        }
    };
    if achieved - alpha > alpha / 2.0 {
        warn.push("Requested conf.level not achievable".into());
    }
    Interval {
        conf_int,
        estimate: median(&diffs),
    }
}

fn qnorm_upper(p: f64) -> f64 {
    qnorm(p, 0.0, 1.0, false, false)
}

fn qnorm_lower(p: f64) -> f64 {
    qnorm(p, 0.0, 1.0, true, false)
}

/// The signed rank test's interval by inverting the normal approximation.
/// `x`: the data without zeroes, `mu` added back.
pub(super) fn signed_rank_normal(
    x: &[f64],
    alt: Alternative,
    conf_level: f64,
    correct: bool,
    tol: f64,
    warn: &mut Vec<String>,
) -> Result<Interval, KernelError> {
    let n = x.len();
    let mut alpha = 1.0 - conf_level;
    // W(d) reads `correct` from its closure; R sets it FALSE before the
    // estimate.
    let w = |d: f64, correct: bool, warn: &mut Vec<String>| -> f64 {
        let xd: Vec<f64> = x.iter().map(|v| v - d).filter(|&v| v != 0.0).collect();
        let nx = xd.len() as f64;
        let abs: Vec<f64> = xd.iter().map(|v| v.abs()).collect();
        let dr = rank(&abs);
        let zd = dr
            .iter()
            .zip(&xd)
            .filter(|(_, &v)| v > 0.0)
            .map(|(r, _)| r)
            .sum::<f64>()
            - nx * (nx + 1.0) / 4.0;
        let tsum: f64 = tie_counts(&dr).iter().map(|t| t * t * t - t).sum();
        let sigma = (nx * (nx + 1.0) * (2.0 * nx + 1.0) / 24.0 - tsum / 48.0).sqrt();
        if sigma == 0.0 {
            warn.push(
                "cannot compute confidence interval when all observations are zero or tied".into(),
            );
        }
        (zd - correction(alt, zd, correct)) / sigma
    };
    if n == 0 {
        return Ok(Interval {
            conf_int: nan_interval(alt),
            estimate: f64::NAN,
        });
    }
    let mumin = x.iter().copied().fold(f64::INFINITY, f64::min);
    let mumax = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w_min = w(mumin, correct, warn);
    let w_max = if w_min.is_finite() {
        w(mumax, correct, warn)
    } else {
        f64::NAN
    };
    if !w_max.is_finite() {
        return Ok(Interval {
            conf_int: nan_interval(alt),
            estimate: (mumin + mumax) / 2.0,
        });
    }
    let root = |zq: f64, warn: &mut Vec<String>| -> Result<f64, KernelError> {
        let mut f = |d: f64| w(d, correct, warn) - zq;
        uniroot(&mut f, mumin, mumax, w_min - zq, w_max - zq, tol)
    };
    let not_achievable = |alpha: f64, warn: &mut Vec<String>| {
        if alpha >= 1.0 || 1.0 - conf_level < alpha * 0.75 {
            warn.push("requested conf.level not achievable".into());
        }
    };
    let conf_int = match alt {
        Alternative::TwoSided => {
            loop {
                let mindiff = w_min - qnorm_upper(alpha / 2.0);
                let maxdiff = w_max - qnorm_lower(alpha / 2.0);
                if mindiff < 0.0 || maxdiff > 0.0 {
                    alpha *= 2.0;
                } else {
                    break;
                }
            }
            not_achievable(alpha, warn);
            if alpha < 1.0 {
                let l = root(qnorm_upper(alpha / 2.0), warn)?;
                let u = root(qnorm_lower(alpha / 2.0), warn)?;
                [l, u]
            } else {
                [median(x), median(x)]
            }
        }
        Alternative::Greater => {
            while w_min - qnorm_upper(alpha) < 0.0 {
                alpha *= 2.0;
            }
            not_achievable(alpha, warn);
            let l = if alpha < 1.0 {
                root(qnorm_upper(alpha), warn)?
            } else {
                median(x)
            };
            [l, f64::INFINITY]
        }
        Alternative::Less => {
            while w_max - qnorm_lower(alpha / 2.0) > 0.0 {
                alpha *= 2.0;
            }
            not_achievable(alpha, warn);
            let u = if alpha < 1.0 {
                root(qnorm_lower(alpha), warn)?
            } else {
                median(x)
            };
            [f64::NEG_INFINITY, u]
        }
    };
    let fl = w(mumin, false, warn);
    let fu = w(mumax, false, warn);
    let mut f = |d: f64| w(d, false, warn);
    let estimate = uniroot(&mut f, mumin, mumax, fl, fu, tol)?;
    Ok(Interval { conf_int, estimate })
}

fn nan_interval(alt: Alternative) -> [f64; 2] {
    [
        if alt == Alternative::Less {
            f64::NEG_INFINITY
        } else {
            f64::NAN
        },
        if alt == Alternative::Greater {
            f64::INFINITY
        } else {
            f64::NAN
        },
    ]
}

/// The rank sum test's interval by inverting the normal approximation.
pub(super) fn rank_sum_normal(
    x: &[f64],
    y: &[f64],
    alt: Alternative,
    conf_level: f64,
    correct: bool,
    tol: f64,
    warn: &mut Vec<String>,
) -> Result<Interval, KernelError> {
    let (nx, ny) = (x.len() as f64, y.len() as f64);
    let alpha = 1.0 - conf_level;
    let w = |d: f64, correct: bool, warn: &mut Vec<String>| -> f64 {
        let pooled: Vec<f64> = x.iter().map(|v| v - d).chain(y.iter().copied()).collect();
        let dr = rank(&pooled);
        let tsum: f64 = tie_counts(&dr).iter().map(|t| t * t * t - t).sum();
        let dz = dr[..x.len()].iter().sum::<f64>() - nx * (nx + 1.0) / 2.0 - nx * ny / 2.0;
        let sigma =
            ((nx * ny / 12.0) * ((nx + ny + 1.0) - tsum / ((nx + ny) * (nx + ny - 1.0)))).sqrt();
        if sigma == 0.0 {
            warn.push("cannot compute confidence interval when all observations are tied".into());
        }
        (dz - correction(alt, dz, correct)) / sigma
    };
    let fold = |v: &[f64], max: bool| {
        v.iter().copied().fold(
            if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            if max { f64::max } else { f64::min },
        )
    };
    let mumin = fold(x, false) - fold(y, true);
    let mumax = fold(x, true) - fold(y, false);
    let w_min = w(mumin, correct, warn);
    let w_max = w(mumax, correct, warn);
    let root = |zq: f64, warn: &mut Vec<String>| -> Result<f64, KernelError> {
        let f_lower = w_min - zq;
        if f_lower <= 0.0 {
            return Ok(mumin);
        }
        let f_upper = w_max - zq;
        if f_upper >= 0.0 {
            return Ok(mumax);
        }
        let mut f = |d: f64| w(d, correct, warn) - zq;
        uniroot(&mut f, mumin, mumax, f_lower, f_upper, tol)
    };
    let conf_int = match alt {
        Alternative::TwoSided => {
            let l = root(qnorm_upper(alpha / 2.0), warn)?;
            let u = root(qnorm_lower(alpha / 2.0), warn)?;
            [l, u]
        }
        Alternative::Greater => [root(qnorm_upper(alpha), warn)?, f64::INFINITY],
        Alternative::Less => [f64::NEG_INFINITY, root(qnorm_lower(alpha), warn)?],
    };
    let fl = w(mumin, false, warn);
    let fu = w(mumax, false, warn);
    let mut f = |d: f64| w(d, false, warn);
    let estimate = uniroot(&mut f, mumin, mumax, fl, fu, tol)?;
    Ok(Interval { conf_int, estimate })
}
