//! The non-central chi-squared distribution function, ported from R's
//! nmath/pnchisq.c: a Poisson mixture of central chi-squares for
//! ncp < 80, Ding's series beyond. pnchisq.c sums in `long double`, so
//! this does too (`LongDouble`), with glibc's `expl`/`logl` on it.

use super::super::summary::ldouble::LongDouble;
use super::gamma::lgammafn;
use super::pgamma::pchisq;
use super::{dt0, dt1, fmin2, log1_exp, M_LN2, M_LN_SQRT_2PI};

/// pnchisq.c's `_dbl_min_exp`: M_LN2 * DBL_MIN_EXP.
const DBL_MIN_EXP_LN: f64 = M_LN2 * -1021.0;

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// pgamma.c's `logspace_add`.
fn logspace_add(logx: f64, logy: f64) -> f64 {
    super::fmax2(logx, logy) + (-(logx - logy).abs()).exp().ln_1p()
}

/// R's `R_DT_val(x)`.
fn dt_val(x: f64, lower_tail: bool, log_p: bool) -> f64 {
    match (lower_tail, log_p) {
        (true, false) => x,
        (true, true) => x.ln(),
        (false, false) => 0.5 - x + 0.5,
        (false, true) => (-x).ln_1p(),
    }
}

/// pnchisq.c's `pnchisq(x, df, ncp, lower_tail, log_p)`. Its precision
/// warning is not raised (a NaN still is, by the caller).
pub fn pnchisq(x: f64, df: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || df.is_nan() || ncp.is_nan() {
        return x + df + ncp;
    }
    if !df.is_finite() || !ncp.is_finite() {
        return f64::NAN;
    }
    if df < 0.0 || ncp < 0.0 {
        return f64::NAN;
    }
    let mut ans = pnchisq_raw(
        x,
        df,
        ncp,
        1e-12,
        8.0 * f64::EPSILON,
        1_000_000,
        lower_tail,
        log_p,
    );
    if x <= 0.0 || x == f64::INFINITY {
        return ans;
    }
    if ncp >= 80.0 {
        if lower_tail {
            ans = fmin2(ans, super::d1(log_p));
        } else if !log_p && ans < 0.0 {
            // PR#7099: the other tail was computed, and cancelled.
            ans = 0.0;
        }
    }
    if !log_p || ans < -1e-8 {
        ans
    } else {
        // A probability this near one is better as 1 - the other tail.
        let a = pnchisq_raw(
            x,
            df,
            ncp,
            1e-12,
            8.0 * f64::EPSILON,
            1_000_000,
            !lower_tail,
            false,
        );
        (-a).ln_1p()
    }
}

/// pnchisq.c's `pnchisq_raw`, which qnchisq calls with its own
/// tolerances and iteration cap.
#[allow(clippy::too_many_arguments)]
pub fn pnchisq_raw(
    x: f64,
    f: f64,
    theta: f64,
    errmax: f64,
    reltol: f64,
    itrmax: i32,
    lower_tail: bool,
    log_p: bool,
) -> f64 {
    if x <= 0.0 {
        if x == 0.0 && f == 0.0 {
            // chi^2_0 has a point mass at zero.
            let l = -0.5 * theta;
            return if lower_tail {
                super::d_exp(l, log_p)
            } else if log_p {
                log1_exp(l)
            } else {
                -l.exp_m1()
            };
        }
        return dt0(lower_tail, log_p);
    }
    if !x.is_finite() {
        return dt1(lower_tail, log_p);
    }
    if theta < 80.0 {
        if lower_tail
            && f > 0.0
            && x.ln() < M_LN2 + 2.0 / f * (lgammafn(f / 2.0 + 1.0) + DBL_MIN_EXP_LN)
        {
            // Every pchisq(x, f + 2i) would underflow: sum on the log scale.
            let lambda = 0.5 * theta;
            let log_lam = lambda.ln();
            let mut pr = -lambda;
            let mut sum = f64::NEG_INFINITY;
            let mut sum2 = f64::NEG_INFINITY;
            let mut i = 0;
            while i < 110 {
                sum2 = logspace_add(sum2, pr);
                sum = logspace_add(
                    sum,
                    pr + pchisq(x, f + 2.0 * f64::from(i), lower_tail, true),
                );
                if sum2 >= -1e-15 {
                    break;
                }
                i += 1;
                pr += log_lam - f64::from(i).ln();
            }
            let ans = ld(sum).sub(ld(sum2));
            return if log_p {
                ans.to_f64()
            } else {
                ans.exp().to_f64()
            };
        }
        let lambda = ld(0.5 * theta);
        let mut sum = ld(0.0);
        let mut sum2 = ld(0.0);
        let mut pr = lambda.neg().exp();
        let mut i = 0;
        while i < 110 {
            sum2 = sum2.add(pr);
            sum = sum.add(pr.mul(ld(pchisq(x, f + 2.0 * f64::from(i), lower_tail, false))));
            if sum2.sub(ld(1.0 - 1e-15)).to_f64() >= 0.0 {
                break;
            }
            i += 1;
            pr = pr.mul(lambda.div(ld(f64::from(i))));
        }
        let ans = sum.div(sum2);
        return if log_p {
            ans.ln().to_f64()
        } else {
            ans.to_f64()
        };
    }

    // ncp >= 80: the series expansion.
    let lam = 0.5 * theta;
    let mut lam_sml = -lam < DBL_MIN_EXP_LN;
    let mut lu = -1.0;
    let mut l_lam = -1.0;
    let mut u = if lam_sml {
        lu = -lam;
        l_lam = lam.ln();
        ld(0.0)
    } else {
        ld((-lam).exp())
    };
    let mut v = u;
    let x2 = 0.5 * x;
    let f2 = 0.5 * f;
    let mut f_x_2n = f - x;
    let mut t = ld(x2 - f2);
    let mut lt = if f2 * f64::EPSILON > 0.125 && t.to_f64().abs() < f64::EPSILON.sqrt() * f2 {
        // Very large f with x near it: evade the cancellation.
        let tt = t.to_f64();
        ld((1.0 - tt) * (2.0 - tt / (f2 + 1.0)) - M_LN_SQRT_2PI - 0.5 * (f2 + 1.0).ln())
    } else {
        ld(f2 * x2.ln() - x2 - lgammafn(f2 + 1.0))
    };
    let mut t_sml = lt.to_f64() < DBL_MIN_EXP_LN;
    let mut l_x = -1.0;
    let mut ans;
    let mut term;
    if t_sml {
        if x > f + theta + 5.0 * (2.0 * (f + 2.0 * theta)).sqrt() {
            return dt1(lower_tail, log_p);
        }
        l_x = x.ln();
        ans = ld(0.0);
        term = 0.0;
        t = ld(0.0);
    } else {
        t = lt.exp();
        term = v.mul(t).to_f64();
        ans = ld(term);
    }
    let mut n = 1;
    let mut f_2n = f + 2.0;
    f_x_2n += 2.0;
    while n <= itrmax {
        if f_x_2n > 0.0 {
            let bound = t.mul(ld(x)).div(ld(f_x_2n)).to_f64();
            if bound <= errmax && ld(term).sub(ld(reltol).mul(ans)).to_f64() <= 0.0 {
                break;
            }
        }
        if lam_sml {
            lu += l_lam - f64::from(n).ln();
            if lu >= DBL_MIN_EXP_LN {
                u = ld(lu).exp();
                v = u;
                lam_sml = false;
            }
        } else {
            u = u.mul(ld(lam / f64::from(n)));
            v = v.add(u);
        }
        if t_sml {
            lt = lt.add(ld(l_x - f_2n.ln()));
            if lt.to_f64() >= DBL_MIN_EXP_LN {
                t = lt.exp();
                t_sml = false;
            }
        } else {
            t = t.mul(ld(x / f_2n));
        }
        if !lam_sml && !t_sml {
            term = v.mul(t).to_f64();
            ans = ans.add(ld(term));
        }
        n += 1;
        f_2n += 2.0;
        f_x_2n += 2.0;
    }
    dt_val(ans.to_f64(), lower_tail, log_p)
}
