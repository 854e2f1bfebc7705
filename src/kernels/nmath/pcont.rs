//! Closed-form distribution functions: R's `plnorm.c`, `pweibull.c`,
//! `pcauchy.c`, `plogis.c`, `punif.c` and `pexp.c`.

use super::{d_exp, dt0, dt1, log1_exp, pnorm};

/// R's `R_D_val(x)`.
fn d_val(x: f64, log_p: bool) -> f64 {
    if log_p {
        x.ln()
    } else {
        x
    }
}

/// R's `R_D_Clog(p)`: 1 - p on the requested scale.
fn d_clog(p: f64, log_p: bool) -> f64 {
    if log_p {
        (-p).ln_1p()
    } else {
        0.5 - p + 0.5
    }
}

/// R's `plnorm`.
pub fn plnorm(x: f64, meanlog: f64, sdlog: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || meanlog.is_nan() || sdlog.is_nan() {
        return x + meanlog + sdlog;
    }
    if sdlog < 0.0 {
        return f64::NAN;
    }
    if x > 0.0 {
        return pnorm(x.ln(), meanlog, sdlog, lower_tail, log_p);
    }
    dt0(lower_tail, log_p)
}

/// R's `pweibull`.
pub fn pweibull(x: f64, shape: f64, scale: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || shape.is_nan() || scale.is_nan() {
        return x + shape + scale;
    }
    if shape <= 0.0 || scale <= 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return dt0(lower_tail, log_p);
    }
    let x = -(x / scale).powf(shape);
    if lower_tail {
        if log_p {
            log1_exp(x)
        } else {
            -x.exp_m1()
        }
    } else {
        d_exp(x, log_p)
    }
}

/// R's `pcauchy`.
pub fn pcauchy(x: f64, location: f64, scale: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || location.is_nan() || scale.is_nan() {
        return x + location + scale;
    }
    if scale <= 0.0 {
        return f64::NAN;
    }
    let mut x = (x - location) / scale;
    if x.is_nan() {
        return f64::NAN;
    }
    if !x.is_finite() {
        return if x < 0.0 {
            dt0(lower_tail, log_p)
        } else {
            dt1(lower_tail, log_p)
        };
    }
    if !lower_tail {
        x = -x;
    }
    // Welinder's atan(1/x) for large x, where the direct form cancels.
    if x.abs() > 1.0 {
        let y = (1.0 / x).atan() / std::f64::consts::PI;
        if x > 0.0 {
            d_clog(y, log_p)
        } else {
            d_val(-y, log_p)
        }
    } else {
        d_val(0.5 + x.atan() / std::f64::consts::PI, log_p)
    }
}

/// R's `log1pexp`: log(1 + exp(x)) without overflow.
fn log1pexp(x: f64) -> f64 {
    if x <= 18.0 {
        x.exp().ln_1p()
    } else if x > 33.3 {
        x
    } else {
        x + (-x).exp()
    }
}

/// R's `plogis`.
pub fn plogis(x: f64, location: f64, scale: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || location.is_nan() || scale.is_nan() {
        return x + location + scale;
    }
    if scale <= 0.0 {
        return f64::NAN;
    }
    let x = (x - location) / scale;
    if x.is_nan() {
        return f64::NAN;
    }
    // R_P_bounds_Inf_01
    if !x.is_finite() {
        return if x > 0.0 {
            dt1(lower_tail, log_p)
        } else {
            dt0(lower_tail, log_p)
        };
    }
    let e = if lower_tail { -x } else { x };
    if log_p {
        -log1pexp(e)
    } else {
        1.0 / (1.0 + e.exp())
    }
}

/// R's `punif`.
pub fn punif(x: f64, a: f64, b: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || a.is_nan() || b.is_nan() {
        return x + a + b;
    }
    if b < a || !a.is_finite() || !b.is_finite() {
        return f64::NAN;
    }
    if x >= b {
        return dt1(lower_tail, log_p);
    }
    if x <= a {
        return dt0(lower_tail, log_p);
    }
    if lower_tail {
        d_val((x - a) / (b - a), log_p)
    } else {
        d_val((b - x) / (b - a), log_p)
    }
}

/// R's `pexp` (with R's `scale = 1 / rate`).
pub fn pexp(x: f64, scale: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || scale.is_nan() {
        return x + scale;
    }
    if scale < 0.0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return dt0(lower_tail, log_p);
    }
    let x = -(x / scale);
    if lower_tail {
        if log_p {
            log1_exp(x)
        } else {
            -x.exp_m1()
        }
    } else {
        d_exp(x, log_p)
    }
}
