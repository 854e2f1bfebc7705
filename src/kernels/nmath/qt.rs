//! Student's t quantile, ported from R's nmath `qt.c` in its own shape:
//! Hill's Algorithm 396 (1970) with the expm1 remark (Lozy 1979), Hill's
//! 1981 two-term Taylor refinement, the closed forms at df = 1 and 2, and
//! bisection on `pt` for 0 < df < 1. R's answer is where these steps stop,
//! not the exact inverse of pt, so only the port gives R's bits.

use std::f64::consts::{FRAC_1_PI, FRAC_PI_2, LN_2, PI, SQRT_2};

use super::dfun::dt;
use super::dpq::{d_cval, d_lexp, d_log, d_lval, d_qiv, dt_qiv};
use super::pt;
use super::qnorm::qnorm;

/// `R_Q_P01_boundaries(p, left, right)`: the quantile at p = 0 or 1 (on
/// either scale), NaN for p outside [0, 1], `None` inside.
pub(crate) fn boundaries(p: f64, lower: bool, log_p: bool, left: f64, right: f64) -> Option<f64> {
    if log_p {
        if p > 0.0 {
            return Some(f64::NAN);
        }
        if p == 0.0 {
            return Some(if lower { right } else { left });
        }
        if p == f64::NEG_INFINITY {
            return Some(if lower { left } else { right });
        }
    } else {
        if !(0.0..=1.0).contains(&p) {
            return Some(f64::NAN);
        }
        if p == 0.0 {
            return Some(if lower { left } else { right });
        }
        if p == 1.0 {
            return Some(if lower { right } else { left });
        }
    }
    None
}

/// nmath's `tanpi(x)`: tan(πx), exact at the quarter turns.
pub(crate) fn tanpi(x: f64) -> f64 {
    let mut x = x % 1.0;
    if x <= -0.5 {
        x += 1.0;
    } else if x > 0.5 {
        x -= 1.0;
    }
    if x == 0.0 {
        0.0
    } else if x == 0.5 {
        f64::NAN
    } else if x == 0.25 {
        1.0
    } else if x == -0.25 {
        -1.0
    } else {
        (PI * x).tan()
    }
}

// Kept in qt.c's shape, `c = ... + b + c` included.
#[allow(clippy::assign_op_pattern)]
pub fn qt(p: f64, ndf: f64, lower_tail: bool, log_p: bool) -> f64 {
    const EPS: f64 = 1.0e-12;

    if p.is_nan() || ndf.is_nan() {
        return p + ndf;
    }
    if let Some(q) = boundaries(p, lower_tail, log_p, f64::NEG_INFINITY, f64::INFINITY) {
        return q;
    }
    if ndf <= 0.0 {
        return f64::NAN;
    }

    if ndf < 1.0 {
        // Based on qnt: invert pt(.) by bisection.
        const ACCU: f64 = 1e-13;
        const EPS_BRACKET: f64 = 1e-11; // must be > ACCU

        let p = dt_qiv(p, lower_tail, log_p);

        // 1. finding an upper and lower bound
        if p > 1.0 - f64::EPSILON {
            return f64::INFINITY;
        }
        let mut pp = (1.0 - f64::EPSILON).min(p * (1.0 + EPS_BRACKET));
        let mut ux = 1.0;
        while ux < f64::MAX && pt(ux, ndf, true, false) < pp {
            ux *= 2.0;
        }
        pp = p * (1.0 - EPS_BRACKET);
        let mut lx = -1.0;
        while lx > -f64::MAX && pt(lx, ndf, true, false) > pp {
            lx *= 2.0;
        }

        // 2. interval (lx, ux) halving; regula falsi failed on qt(0.1, 0.1)
        let mut iter = 0;
        loop {
            let nx = 0.5 * (lx + ux);
            if pt(nx, ndf, true, false) > p {
                ux = nx;
            } else {
                lx = nx;
            }
            iter += 1;
            if !((ux - lx) / nx.abs() > ACCU && iter < 1000) {
                break;
            }
        }
        return 0.5 * (lx + ux);
    }

    if ndf > 1e20 {
        return qnorm(p, 0.0, 1.0, lower_tail, log_p);
    }

    let mut big_p = d_qiv(p, log_p); // if exp(p) underflows, we fix below

    let neg = (!lower_tail || big_p < 0.5) && (lower_tail || big_p > 0.5);
    let is_neg_lower = lower_tail == neg; // both true or false == !xor
    big_p = if neg {
        2.0 * if log_p {
            if lower_tail {
                big_p
            } else {
                -p.exp_m1()
            }
        } else {
            d_lval(p, lower_tail)
        }
    } else {
        2.0 * if log_p {
            if lower_tail {
                -p.exp_m1()
            } else {
                big_p
            }
        } else {
            d_cval(p, lower_tail)
        }
    };
    // 0 <= P <= 1 ; P = 2*min(P', 1 - P') in all cases

    let mut q;
    if (ndf - 2.0).abs() < EPS {
        // df ~= 2
        if big_p > f64::MIN_POSITIVE {
            if 3.0 * big_p < f64::EPSILON {
                // P ~= 0
                q = 1.0 / big_p.sqrt();
            } else if big_p > 0.9 {
                // P ~= 1
                q = (1.0 - big_p) * (2.0 / (big_p * (2.0 - big_p))).sqrt();
            } else {
                // eps/3 <= P <= 0.9
                q = (2.0 / (big_p * (2.0 - big_p)) - 2.0).sqrt();
            }
        } else if log_p {
            // P << 1, q = 1/sqrt(P) = ...
            q = if is_neg_lower {
                (-p / 2.0).exp() / SQRT_2
            } else {
                1.0 / (-p.exp_m1()).sqrt()
            };
        } else {
            q = f64::INFINITY;
        }
    } else if ndf < 1.0 + EPS {
        // df ~= 1 (df < 1 excluded above): Cauchy
        if big_p == 1.0 {
            q = 0.0; // some versions of tanpi give Inf, some NaN
        } else if big_p > 0.0 {
            q = 1.0 / tanpi(big_p / 2.0); // == - tan((P+1) * M_PI_2) -- suffers for P ~= 0
        } else if log_p {
            // P = 0, but maybe = 2*exp(p)! 1/tan(e) ~ 1/e
            q = if is_neg_lower {
                FRAC_1_PI * (-p).exp()
            } else {
                -1.0 / (PI * p.exp_m1())
            };
        } else {
            q = f64::INFINITY;
        }
    } else {
        // usual case; including, e.g., df = 1.1
        let mut x = 0.0;
        let mut y;
        let mut log_p2 = 0.0;
        let a = 1.0 / (ndf - 0.5);
        let b = 48.0 / (a * a);
        let mut c = ((20700.0 * a / b - 98.0) * a - 16.0) * a + 96.36;
        let d = ((94.5 / (b + c) - 3.0) / b + 1.0) * (a * FRAC_PI_2).sqrt() * ndf;

        let p_ok1 = big_p > f64::MIN_POSITIVE || !log_p;
        let mut p_ok = p_ok1; // when true (after check below), use "normal scale": log_p = FALSE
        y = 0.0;
        if p_ok1 {
            y = (d * big_p).powf(2.0 / ndf);
            p_ok = y >= f64::EPSILON;
        }
        if !p_ok {
            // log.p && P very.small || (d*P)^(2/df) =: y < eps_c
            log_p2 = if is_neg_lower {
                d_log(p, log_p)
            } else {
                d_lexp(p, log_p)
            }; // == log(P / 2)
            x = (d.ln() + LN_2 + log_p2) / ndf;
            y = (2.0 * x).exp();
        }

        if (ndf < 2.1 && big_p > 0.5) || y > 0.05 + a {
            // P > P0(df): asymptotic inverse expansion about normal
            x = if p_ok {
                qnorm(0.5 * big_p, 0.0, 1.0, true, false)
            } else {
                // log_p && P underflowed
                qnorm(log_p2, 0.0, 1.0, lower_tail, true)
            };

            y = x * x;
            if ndf < 5.0 {
                c += 0.3 * (ndf - 4.5) * (x + 0.6);
            }
            c = (((0.05 * d * x - 5.0) * x - 7.0) * x - 2.0) * x + b + c;
            y = (((((0.4 * y + 6.3) * y + 36.0) * y + 94.5) / c - y - 3.0) / b + 1.0) * x;
            y = (a * y * y).exp_m1();
            q = (ndf * y).sqrt();
        } else if !p_ok && x < -LN_2 * f64::MANTISSA_DIGITS as f64 {
            // 0.5 * log(DBL_EPSILON): y above might have underflown
            q = ndf.sqrt() * (-x).exp();
        } else {
            // re-use 'y' from above
            y = ((1.0 / (((ndf + 6.0) / (ndf * y) - 0.089 * d - 0.822) * (ndf + 2.0) * 3.0)
                + 0.5 / (ndf + 4.0))
                * y
                - 1.0)
                * (ndf + 1.0)
                / (ndf + 2.0)
                + 1.0 / y;
            q = (ndf * y).sqrt();
        }

        // Now apply 2-term Taylor expansion improvement (1-term = Newton):
        // as by Hill (1981) [ref.above]
        if p_ok1 {
            let m = ((f64::MAX / 2.0).sqrt() - ndf).abs();
            let mut it = 0;
            loop {
                if it >= 10 {
                    break;
                }
                it += 1;
                y = dt(q, ndf, false);
                if y <= 0.0 {
                    break;
                }
                x = (pt(q, ndf, false, false) - big_p / 2.0) / y;
                if !(x.is_finite() && x.abs() > 1e-14 * q.abs()) {
                    break;
                }
                // Newton (=Taylor 1 term): q += x; Taylor 2-term:
                let f = if q.abs() < m {
                    q * (ndf + 1.0) / (2.0 * (q * q + ndf))
                } else {
                    (ndf + 1.0) / (2.0 * (q + ndf / q))
                };
                let del_q = x * (1.0 + x * f);
                if del_q.is_finite() && (q + del_q).is_finite() {
                    q += del_q;
                } else if x.is_finite() && (q + x).is_finite() {
                    q += x;
                } else {
                    break; // cannot improve q with a Newton/Taylor step
                }
            }
        }
    }
    if neg {
        -q
    } else {
        q
    }
}
