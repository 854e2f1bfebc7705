//! The non-central beta and F quantiles, ported from R's nmath/qnbeta.c
//! (a bracket, then bisection on `pnbeta`) and qnf.c.

use super::dpq::dt_qiv;
use super::fmin2;
use super::pnbeta::pnbeta;
use super::qnchisq::qnchisq;
use super::qt::boundaries;

/// qnbeta.c's `qnbeta(p, a, b, ncp, lower_tail, log_p)`.
pub fn qnbeta(p: f64, a: f64, b: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    const ACCU: f64 = 1e-15;
    const EPS: f64 = 1e-14;
    if p.is_nan() || a.is_nan() || b.is_nan() || ncp.is_nan() {
        return p + a + b + ncp;
    }
    if !a.is_finite() {
        return f64::NAN;
    }
    if ncp < 0.0 || a <= 0.0 || b <= 0.0 {
        return f64::NAN;
    }
    if let Some(v) = boundaries(p, lower_tail, log_p, 0.0, 1.0) {
        return v;
    }
    let p = dt_qiv(p, lower_tail, log_p);
    if p > 1.0 - f64::EPSILON {
        return 1.0;
    }
    let mut pp = fmin2(1.0 - f64::EPSILON, p * (1.0 + EPS));
    let mut ux = 0.5;
    while ux < 1.0 - f64::EPSILON && pnbeta(ux, a, b, ncp, true, false) < pp {
        ux = 0.5 * (1.0 + ux);
    }
    pp = p * (1.0 - EPS);
    let mut lx = 0.5;
    while lx > f64::MIN_POSITIVE && pnbeta(lx, a, b, ncp, true, false) > pp {
        lx *= 0.5;
    }
    // R's loop has no cap; each step halves the interval.
    let mut guard = 0;
    loop {
        let nx = 0.5 * (lx + ux);
        if pnbeta(nx, a, b, ncp, true, false) > p {
            ux = nx;
        } else {
            lx = nx;
        }
        guard += 1;
        let more = (ux - lx) / nx > ACCU;
        if !more || guard > 10_000 {
            break;
        }
    }
    0.5 * (ux + lx)
}

/// qnf.c's `qnf(p, df1, df2, ncp, lower_tail, log_p)`.
pub fn qnf(p: f64, df1: f64, df2: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    if p.is_nan() || df1.is_nan() || df2.is_nan() || ncp.is_nan() {
        return p + df1 + df2 + ncp;
    }
    if df1 <= 0.0 || df2 <= 0.0 || ncp < 0.0 {
        return f64::NAN;
    }
    if !ncp.is_finite() {
        return f64::NAN;
    }
    if !df1.is_finite() && !df2.is_finite() {
        return f64::NAN;
    }
    if let Some(v) = boundaries(p, lower_tail, log_p, 0.0, f64::INFINITY) {
        return v;
    }
    if df2 > 1e8 {
        // Avoids df2 = Inf and the accuracy lost near it.
        return qnchisq(p, df1, ncp, lower_tail, log_p) / df1;
    }
    let y = qnbeta(p, df1 / 2.0, df2 / 2.0, ncp, lower_tail, log_p);
    y / (1.0 - y) * (df2 / df1)
}
