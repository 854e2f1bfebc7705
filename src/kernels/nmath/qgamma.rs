//! The gamma (and chi-squared) quantile, ported from R's nmath `qgamma.c`
//! in its own shape: AS 91's starting approximation (`qchisq_appr`), its
//! seven-term Taylor iteration on `pgamma_raw`, then R's final Newton
//! steps on the log scale. R's answer is where this algorithm stops, not
//! the exact inverse of pgamma, so only the port gives R's bits.

use std::f64::consts::LN_2;

use super::dfun::dgamma;
use super::dpq::{dt_clog, dt_log, dt_qiv};
use super::gamma::{lgamma1p, lgammafn};
use super::pgamma::{pgamma, pgamma_raw};
use super::qnorm::qnorm;

/// qgamma.c's `qchisq_appr`: AS 91's starting value for the chi-squared
/// quantile with `nu` degrees of freedom, `g = lgamma(nu / 2)`.
pub fn qchisq_appr(p: f64, nu: f64, g: f64, lower: bool, log_p: bool, tol: f64) -> f64 {
    const C7: f64 = 4.67;
    const C8: f64 = 6.66;
    const C9: f64 = 6.73;
    const C10: f64 = 13.32;
    if p.is_nan() || nu.is_nan() {
        return p + nu;
    }
    // R_Q_P01_check
    if (log_p && p > 0.0) || (!log_p && !(0.0..=1.0).contains(&p)) {
        return f64::NAN;
    }
    if nu <= 0.0 {
        return f64::NAN;
    }
    let alpha = 0.5 * nu;
    let c = alpha - 1.0;
    let p1 = dt_log(p, lower, log_p);
    if nu < -1.24 * p1 {
        // For small chi-squared: lgamma(alpha + 1) would cancel when
        // alpha << 1.
        let lgam1pa = if alpha < 0.5 {
            lgamma1p(alpha)
        } else {
            alpha.ln() + g
        };
        (((lgam1pa + p1) / alpha) + LN_2).exp()
    } else if nu > 0.32 {
        // Wilson and Hilferty.
        let x = qnorm(p, 0.0, 1.0, lower, log_p);
        let p1 = 2.0 / (9.0 * nu);
        let mut ch = nu * (x * p1.sqrt() + 1.0 - p1).powf(3.0);
        // For p tending to 1.
        if ch > 2.2 * nu + 6.0 {
            ch = -2.0 * (dt_clog(p, lower, log_p) - c * (0.5 * ch).ln() + g);
        }
        ch
    } else {
        // "Small nu": 1.24 * (-log(p)) <= nu <= 0.32.
        let mut ch: f64 = 0.4;
        let a = dt_clog(p, lower, log_p) + g + c * LN_2;
        loop {
            let q = ch;
            let p1 = 1.0 / (1.0 + ch * (C7 + ch));
            let p2 = ch * (C9 + ch * (C8 + ch));
            let t = -0.5 + (C7 + 2.0 * ch) * p1 - (C9 + ch * (C10 + 3.0 * ch)) / p2;
            ch -= (1.0 - (a + 0.5 * ch).exp() * p2 * p1) / t;
            if (q - ch).abs() <= tol * ch.abs() {
                break;
            }
        }
        ch
    }
}

/// R's `qgamma(p, shape = alpha, scale)`.
pub fn qgamma(p: f64, alpha: f64, scale: f64, lower: bool, log_p: bool) -> f64 {
    const EPS1: f64 = 1e-2;
    const EPS2: f64 = 5e-7; // final precision of AS 91
    const EPS_N: f64 = 1e-15; // precision of the Newton steps
    const MAXIT: usize = 1000;
    const P_MIN: f64 = 1e-100;
    const P_MAX: f64 = 1.0 - 1e-14;
    const I420: f64 = 1.0 / 420.0;
    const I2520: f64 = 1.0 / 2520.0;
    const I5040: f64 = 1.0 / 5040.0;

    if p.is_nan() || alpha.is_nan() || scale.is_nan() {
        return p + alpha + scale;
    }
    // R_Q_P01_boundaries(p, 0, Inf)
    if log_p {
        if p > 0.0 {
            return f64::NAN;
        }
        if p == 0.0 {
            return if lower { f64::INFINITY } else { 0.0 };
        }
        if p == f64::NEG_INFINITY {
            return if lower { 0.0 } else { f64::INFINITY };
        }
    } else {
        if !(0.0..=1.0).contains(&p) {
            return f64::NAN;
        }
        if p == 0.0 {
            return if lower { 0.0 } else { f64::INFINITY };
        }
        if p == 1.0 {
            return if lower { f64::INFINITY } else { 0.0 };
        }
    }
    if alpha < 0.0 || scale <= 0.0 {
        return f64::NAN;
    }
    if alpha == 0.0 {
        return 0.0;
    }
    let mut max_it_newton = if alpha < 1e-10 { 7 } else { 1 };
    let mut p_ = dt_qiv(p, lower, log_p);
    let mut g = lgammafn(alpha);

    // Phase I: the starting approximation.
    let mut ch = qchisq_appr(p, 2.0 * alpha, g, lower, log_p, EPS1);
    'phase2: {
        if !ch.is_finite() {
            max_it_newton = 0;
            break 'phase2;
        }
        if ch < EPS2 || !(P_MIN..=P_MAX).contains(&p_) {
            max_it_newton = 20;
            break 'phase2;
        }
        // Phase II: pgamma and a seven-term Taylor series.
        let c = alpha - 1.0;
        let s6 = (120.0 + c * (346.0 + 127.0 * c)) * I5040;
        let ch0 = ch;
        for _ in 1..=MAXIT {
            let q = ch;
            let p1 = 0.5 * ch;
            let p2 = p_ - pgamma_raw(p1, alpha, true, false);
            if !p2.is_finite() || ch <= 0.0 {
                ch = ch0;
                max_it_newton = 27;
                break 'phase2;
            }
            let t = p2 * (alpha * LN_2 + g + p1 - c * ch.ln()).exp();
            let b = t / ch;
            let a = 0.5 * t - b * c;
            let s1 =
                (210.0 + a * (140.0 + a * (105.0 + a * (84.0 + a * (70.0 + 60.0 * a))))) * I420;
            let s2 = (420.0 + a * (735.0 + a * (966.0 + a * (1141.0 + 1278.0 * a)))) * I2520;
            let s3 = (210.0 + a * (462.0 + a * (707.0 + 932.0 * a))) * I2520;
            let s4 =
                (252.0 + a * (672.0 + 1182.0 * a) + c * (294.0 + a * (889.0 + 1740.0 * a))) * I5040;
            let s5 = (84.0 + 2264.0 * a + c * (1175.0 + 606.0 * a)) * I2520;
            ch += t
                * (1.0 + 0.5 * t * s1
                    - b * c * (s1 - b * (s2 - b * (s3 - b * (s4 - b * (s5 - b * s6))))));
            if (q - ch).abs() < EPS2 * ch {
                break 'phase2;
            }
            if (q - ch).abs() > 0.1 * ch {
                // Diverging? Also forces ch > 0.
                ch = if ch < q { 0.9 * q } else { 1.1 * q };
            }
        }
        // No convergence in MAXIT iterations: the Newton steps follow.
    }

    // END: final Newton steps on the log scale (PR#2214).
    let mut x = 0.5 * scale * ch;
    if max_it_newton > 0 {
        let (p, log_p) = if log_p { (p, true) } else { (p.ln(), true) };
        if x == 0.0 {
            let one_p = 1.0 + 1e-7;
            let one_m = 1.0 - 1e-7;
            x = f64::MIN_POSITIVE;
            p_ = pgamma(x, alpha, scale, lower, log_p);
            if (lower && p_ > p * one_p) || (!lower && p_ < p * one_m) {
                return 0.0;
            }
        } else {
            p_ = pgamma(x, alpha, scale, lower, log_p);
        }
        if p_ == f64::NEG_INFINITY {
            return 0.0; // PR#14710
        }
        for i in 1..=max_it_newton {
            let p1 = p_ - p;
            if p1.abs() < (EPS_N * p).abs() {
                break;
            }
            g = dgamma(x, alpha, scale, log_p);
            if g == f64::NEG_INFINITY {
                // R_D__0 on the log scale: no step.
                break;
            }
            let t = if log_p { p1 * (p_ - g).exp() } else { p1 / g };
            let t = if lower { x - t } else { x + t };
            p_ = pgamma(t, alpha, scale, lower, log_p);
            if (p_ - p).abs() > p1.abs() || (i > 1 && (p_ - p).abs() == p1.abs()) {
                // No improvement (or a flip-flop).
                break;
            }
            x = t;
        }
    }
    x
}
