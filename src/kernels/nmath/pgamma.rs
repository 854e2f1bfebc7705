//! R's `pgamma` (Morten Welinder's algorithm, R's pgamma.c) and `pchisq`.

use super::gamma::{dpois_raw, lgamma1p, lgammafn, log1pmx};
use super::pnorm::{dnorm, pnorm};
use super::{d0, d1, d_exp, dt0, dt1, log1_exp};

const EPS: f64 = f64::EPSILON;
/// log(DBL_MAX) / DBL_EPSILON, R's `M_cutoff`.
const M_CUTOFF: f64 = std::f64::consts::LN_2 * f64::MAX_EXP as f64 / f64::EPSILON;
const SCALEFACTOR: f64 = 1.157920892373162e77; // 2^256

/// R's `pchisq(q, df, lower.tail, log.p)`.
pub fn pchisq(x: f64, df: f64, lower_tail: bool, log_p: bool) -> f64 {
    pgamma(x, df / 2.0, 2.0, lower_tail, log_p)
}

/// R's `pgamma(q, shape, scale, lower.tail, log.p)`.
pub fn pgamma(x: f64, alph: f64, scale: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || alph.is_nan() || scale.is_nan() {
        return x + alph + scale;
    }
    if alph < 0.0 || scale <= 0.0 {
        return f64::NAN;
    }
    let x = x / scale;
    if x.is_nan() {
        return x;
    }
    if alph == 0.0 {
        return if x <= 0.0 {
            dt0(lower_tail, log_p)
        } else {
            dt1(lower_tail, log_p)
        };
    }
    pgamma_raw(x, alph, lower_tail, log_p)
}

fn dpois_wrap(x_plus_1: f64, lambda: f64, give_log: bool) -> f64 {
    if !lambda.is_finite() {
        return d0(give_log);
    }
    if x_plus_1 > 1.0 {
        return dpois_raw(x_plus_1 - 1.0, lambda, give_log);
    }
    if lambda > (x_plus_1 - 1.0).abs() * M_CUTOFF {
        d_exp(-lambda - lgammafn(x_plus_1), give_log)
    } else {
        let d = dpois_raw(x_plus_1, lambda, give_log);
        if give_log {
            d + (x_plus_1 / lambda).ln()
        } else {
            d * (x_plus_1 / lambda)
        }
    }
}

fn pgamma_smallx(x: f64, alph: f64, lower_tail: bool, log_p: bool) -> f64 {
    let mut sum = 0.0;
    let mut c = alph;
    let mut n = 0.0;
    // R's do-while: a NaN term (an infinite shape) ends the loop.
    let mut more = true;
    while more {
        n += 1.0;
        c *= -x / n;
        let term = c / (alph + n);
        sum += term;
        more = term.abs() > EPS * sum.abs();
    }
    if lower_tail {
        let f1 = if log_p { sum.ln_1p() } else { 1.0 + sum };
        let f2 = if alph > 1.0 {
            let f2 = dpois_raw(alph, x, log_p);
            if log_p {
                f2 + x
            } else {
                f2 * x.exp()
            }
        } else if log_p {
            alph * x.ln() - lgamma1p(alph)
        } else {
            x.powf(alph) / lgamma1p(alph).exp()
        };
        if log_p {
            f1 + f2
        } else {
            f1 * f2
        }
    } else {
        let lf2 = alph * x.ln() - lgamma1p(alph);
        if log_p {
            log1_exp(sum.ln_1p() + lf2)
        } else {
            let f1m1 = sum;
            let f2m1 = lf2.exp_m1();
            -(f1m1 + f2m1 + f1m1 * f2m1)
        }
    }
}

fn pd_upper_series(x: f64, mut y: f64, log_p: bool) -> f64 {
    let mut term = x / y;
    let mut sum = term;
    let mut more = true;
    while more {
        y += 1.0;
        term *= x / y;
        sum += term;
        more = term > sum * EPS;
    }
    if log_p {
        sum.ln()
    } else {
        sum
    }
}

fn pd_lower_cf(y: f64, d: f64) -> f64 {
    const MAX_IT: f64 = 200000.0;
    let mut f = 0.0;
    if y == 0.0 {
        return 0.0;
    }
    let mut f0 = y / d;
    if (y - 1.0).abs() < d.abs() * EPS {
        return f0;
    }
    if f0 > 1.0 {
        f0 = 1.0;
    }
    let mut c2 = y;
    let mut c4 = d;
    let mut a1 = 0.0;
    let mut b1 = 1.0;
    let mut a2 = y;
    let mut b2 = d;
    while b2 > SCALEFACTOR {
        a1 /= SCALEFACTOR;
        b1 /= SCALEFACTOR;
        a2 /= SCALEFACTOR;
        b2 /= SCALEFACTOR;
    }
    let mut i = 0.0;
    let mut of = -1.0;
    while i < MAX_IT {
        i += 1.0;
        c2 -= 1.0;
        let c3 = i * c2;
        c4 += 2.0;
        a1 = c4 * a2 + c3 * a1;
        b1 = c4 * b2 + c3 * b1;

        i += 1.0;
        c2 -= 1.0;
        let c3 = i * c2;
        c4 += 2.0;
        a2 = c4 * a1 + c3 * a2;
        b2 = c4 * b1 + c3 * b2;

        if b2 > SCALEFACTOR {
            a1 /= SCALEFACTOR;
            b1 /= SCALEFACTOR;
            a2 /= SCALEFACTOR;
            b2 /= SCALEFACTOR;
        }
        if b2 != 0.0 {
            f = a2 / b2;
            if (f - of).abs() <= EPS * f0.max(f.abs()) {
                return f;
            }
            of = f;
        }
    }
    f
}

fn pd_lower_series(lambda: f64, mut y: f64) -> f64 {
    let mut term = 1.0;
    let mut sum = 0.0;
    while y >= 1.0 && term > sum * EPS {
        term *= y / lambda;
        sum += term;
        y -= 1.0;
    }
    if y != y.floor() {
        let f = pd_lower_cf(y, lambda + 1.0 - y);
        sum += term * f;
    }
    sum
}

fn dpnorm(mut x: f64, mut lower_tail: bool, lp: f64) -> f64 {
    if x < 0.0 {
        x = -x;
        lower_tail = !lower_tail;
    }
    if x > 10.0 && !lower_tail {
        let mut term = 1.0 / x;
        let mut sum = term;
        let x2 = x * x;
        let mut i = 1.0;
        let mut more = true;
        while more {
            term *= -i / x2;
            sum += term;
            i += 2.0;
            more = term.abs() > EPS * sum;
        }
        1.0 / sum
    } else {
        let d = dnorm(x, 0.0, 1.0, false);
        d / lp.exp()
    }
}

fn ppois_asymp(x: f64, lambda: f64, lower_tail: bool, log_p: bool) -> f64 {
    const COEFS_A: [f64; 8] = [
        -1e99,
        2.0 / 3.0,
        -4.0 / 135.0,
        8.0 / 2835.0,
        16.0 / 8505.0,
        -8992.0 / 12629925.0,
        -334144.0 / 492567075.0,
        698752.0 / 1477701225.0,
    ];
    const COEFS_B: [f64; 8] = [
        -1e99,
        1.0 / 12.0,
        1.0 / 288.0,
        -139.0 / 51840.0,
        -571.0 / 2488320.0,
        163879.0 / 209018880.0,
        5246819.0 / 75246796800.0,
        -534703531.0 / 902961561600.0,
    ];
    let dfm = lambda - x;
    let pt_ = -log1pmx(dfm / x);
    let mut s2pt = (2.0 * x * pt_).sqrt();
    if dfm < 0.0 {
        s2pt = -s2pt;
    }
    let mut res12 = 0.0;
    let mut res1_term = x.sqrt();
    let mut res1_ig = res1_term;
    let mut res2_term = s2pt;
    let mut res2_ig = s2pt;
    for i in 1..8 {
        res12 += res1_ig * COEFS_A[i];
        res12 += res2_ig * COEFS_B[i];
        res1_term *= pt_ / i as f64;
        res2_term *= 2.0 * pt_ / (2 * i + 1) as f64;
        res1_ig = res1_ig / x + res1_term;
        res2_ig = res2_ig / x + res2_term;
    }
    let mut elfb = x;
    let mut elfb_term = 1.0;
    for coef in COEFS_B.iter().skip(1) {
        elfb += elfb_term * coef;
        elfb_term /= x;
    }
    if !lower_tail {
        elfb = -elfb;
    }
    let f = res12 / elfb;
    let np = pnorm(s2pt, 0.0, 1.0, !lower_tail, log_p);
    if log_p {
        let n_d_over_p = dpnorm(s2pt, !lower_tail, np);
        np + (f * n_d_over_p).ln_1p()
    } else {
        let nd = dnorm(s2pt, 0.0, 1.0, log_p);
        np + f * nd
    }
}

/// R's `pgamma_raw`: x on the unit scale, alph > 0.
pub fn pgamma_raw(x: f64, alph: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x <= 0.0 {
        return dt0(lower_tail, log_p);
    }
    if x >= f64::INFINITY {
        return dt1(lower_tail, log_p);
    }
    let res;
    if x < 1.0 {
        res = pgamma_smallx(x, alph, lower_tail, log_p);
    } else if x <= alph - 1.0 && x < 0.8 * (alph + 50.0) {
        let sum = pd_upper_series(x, alph, log_p);
        let d = dpois_wrap(alph, x, log_p);
        res = if !lower_tail {
            if log_p {
                log1_exp(d + sum)
            } else {
                1.0 - d * sum
            }
        } else if log_p {
            sum + d
        } else {
            sum * d
        };
    } else if alph - 1.0 < x && alph < 0.8 * (x + 50.0) {
        let d = dpois_wrap(alph, x, log_p);
        let sum = if alph < 1.0 {
            if x * EPS > 1.0 - alph {
                d1(log_p)
            } else {
                let f = pd_lower_cf(alph, x - (alph - 1.0)) * x / alph;
                if log_p {
                    f.ln()
                } else {
                    f
                }
            }
        } else {
            let s = pd_lower_series(x, alph - 1.0);
            if log_p {
                s.ln_1p()
            } else {
                1.0 + s
            }
        };
        res = if !lower_tail {
            if log_p {
                sum + d
            } else {
                sum * d
            }
        } else if log_p {
            log1_exp(d + sum)
        } else {
            1.0 - d * sum
        };
    } else {
        res = ppois_asymp(alph - 1.0, x, !lower_tail, log_p);
    }
    if !log_p && res < f64::MIN_POSITIVE / EPS {
        pgamma_raw(x, alph, lower_tail, true).exp()
    } else {
        res
    }
}
