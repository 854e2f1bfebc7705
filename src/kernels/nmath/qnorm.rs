//! R's `qnorm` (Wichura's AS 241), which `rnorm` uses by inversion.
//!
//! A line-for-line port of R 4.2.2's `src/nmath/qnorm.c`, including its
//! `r >= 816` asymptote (checked against the constants and branches in the
//! installed `libR.so`). R 4.3 later added an asymptotic expansion for
//! r > 27 and a Newton step for `log_p`; those are deliberately absent,
//! because flowcast reproduces R 4.2.2 and `rnorm` must match it bit for bit.
// The coefficients are written exactly as in R's source (and AS 241).
#![allow(clippy::excessive_precision)]

use super::dpq::{dt_civ, dt_qiv};

/// `qnorm(p, mean = mu, sd = sigma, lower.tail, log.p)` as R 4.2 computes it.
/// Out-of-range `p` or `sigma < 0` give NaN (R warns and returns NaN).
pub fn qnorm(p: f64, mu: f64, sigma: f64, lower_tail: bool, log_p: bool) -> f64 {
    if p.is_nan() || mu.is_nan() || sigma.is_nan() {
        return p + mu + sigma;
    }
    // R_Q_P01_boundaries(p, -Inf, Inf)
    if log_p {
        if p > 0.0 {
            return f64::NAN;
        }
        if p == 0.0 {
            return if lower_tail {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
        }
        if p == f64::NEG_INFINITY {
            return if lower_tail {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
    } else {
        if !(0.0..=1.0).contains(&p) {
            return f64::NAN;
        }
        if p == 0.0 {
            return if lower_tail {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        if p == 1.0 {
            return if lower_tail {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
        }
    }
    if sigma < 0.0 {
        return f64::NAN;
    }
    if sigma == 0.0 {
        return mu;
    }

    let p_ = dt_qiv(p, lower_tail, log_p);
    let q = p_ - 0.5;
    let val;
    if q.abs() <= 0.425 {
        // 0.075 <= p <= 0.925
        let r = 0.180625 - q * q;
        val = q
            * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r
                + 67265.770927008700853)
                * r
                + 45921.953931549871457)
                * r
                + 13731.693765509461125)
                * r
                + 1971.5909503065514427)
                * r
                + 133.14166789178437745)
                * r
                + 3.387132872796366608)
            / (((((((r * 5226.4952788528545610 + 28729.085735721942674) * r
                + 39307.89580009271061)
                * r
                + 21213.794301586595867)
                * r
                + 5394.1960214247511077)
                * r
                + 687.1870074920579083)
                * r
                + 42.313330701600911252)
                * r
                + 1.0);
    } else {
        // closer than 0.075 to {0, 1}: r = min(p, 1 - p)
        let mut r = if q > 0.0 {
            dt_civ(p, lower_tail, log_p)
        } else {
            p_
        };
        let use_p = log_p && ((lower_tail && q <= 0.0) || (!lower_tail && q > 0.0));
        r = (-(if use_p { p } else { r.ln() })).sqrt();
        let mut v;
        if r <= 5.0 {
            r += -1.6;
            v = (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r
                + 0.24178072517745061177)
                * r
                + 1.27045825245236838258)
                * r
                + 3.64784832476320460504)
                * r
                + 5.7694972214606914055)
                * r
                + 4.6303378461565452959)
                * r
                + 1.42343711074968357734)
                / (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r
                    + 0.0151986665636164571966)
                    * r
                    + 0.14810397642748007459)
                    * r
                    + 0.68976733498510000455)
                    * r
                    + 1.6763848301838038494)
                    * r
                    + 2.05319162663775882187)
                    * r
                    + 1.0);
        } else if r >= 816.0 {
            // p extremely close to 0 or 1 (only reachable with log_p): R
            // (since 4.1) uses the asymptote sqrt(2) * r.
            v = r * std::f64::consts::SQRT_2;
        } else {
            r += -5.0;
            v = (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r
                + 0.0012426609473880784386)
                * r
                + 0.026532189526576123093)
                * r
                + 0.29656057182850489123)
                * r
                + 1.7848265399172913358)
                * r
                + 5.4637849111641143699)
                * r
                + 6.6579046435011037772)
                / (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r
                    + 1.8463183175100546818e-5)
                    * r
                    + 7.868691311456132591e-4)
                    * r
                    + 0.0148753612908506148525)
                    * r
                    + 0.13692988092273580531)
                    * r
                    + 0.59983220655588793769)
                    * r
                    + 1.0);
        }
        if q < 0.0 {
            v = -v;
        }
        val = v;
    }
    mu + sigma * val
}

#[cfg(test)]
mod tests {
    use super::qnorm;

    #[test]
    fn boundaries_follow_r() {
        assert_eq!(qnorm(0.0, 0.0, 1.0, true, false), f64::NEG_INFINITY);
        assert_eq!(qnorm(1.0, 0.0, 1.0, true, false), f64::INFINITY);
        assert!(qnorm(1.5, 0.0, 1.0, true, false).is_nan());
        assert!(qnorm(0.5, 0.0, -1.0, true, false).is_nan());
        assert_eq!(qnorm(0.3, 2.0, 0.0, true, false), 2.0);
        assert_eq!(qnorm(0.5, 0.0, 1.0, true, false), 0.0);
    }
}
