//! The non-central chi-squared quantile, ported from R's nmath/qnchisq.c:
//! Pearson's approximation for a bracket, then bisection on
//! `pnchisq_raw` with qnchisq.c's tolerances.

use super::dpq::d_qiv;
use super::fmin2;
use super::pnchisq::pnchisq_raw;
use super::qfun::qchisq;
use super::qt::boundaries;

/// qnchisq.c's `qnchisq(p, df, ncp, lower_tail, log_p)`.
pub fn qnchisq(p: f64, df: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    const ACCU: f64 = 1e-13;
    const RACC: f64 = 4.0 * f64::EPSILON;
    const EPS: f64 = 1e-11;
    const R_EPS: f64 = 1e-10;
    if p.is_nan() || df.is_nan() || ncp.is_nan() {
        return p + df + ncp;
    }
    if !df.is_finite() {
        return f64::NAN;
    }
    if df < 0.0 || ncp < 0.0 {
        return f64::NAN;
    }
    if let Some(v) = boundaries(p, lower_tail, log_p, 0.0, f64::INFINITY) {
        return v;
    }
    let mut pp = d_qiv(p, log_p);
    if pp > 1.0 - f64::EPSILON {
        return if lower_tail { f64::INFINITY } else { 0.0 };
    }
    let mut ux;
    {
        // Pearson's (1959) approximation.
        let b = (ncp * ncp) / (df + 3.0 * ncp);
        let c = (df + 3.0 * ncp) / (df + 2.0 * ncp);
        let ff = (df + 2.0 * ncp) / (c * c);
        ux = b + c * qchisq(p, ff, lower_tail, log_p);
        if ux <= 0.0 {
            ux = 1.0;
        }
    }
    let ux0 = ux;
    let mut lower_tail = lower_tail;
    let p = if !lower_tail && ncp >= 80.0 {
        // pnchisq works through the lower tail here.
        lower_tail = true;
        if log_p {
            -p.exp_m1()
        } else {
            0.5 - p + 0.5
        }
    } else {
        pp
    };
    pp = fmin2(1.0 - f64::EPSILON, p * (1.0 + EPS));
    let mut lx;
    if lower_tail {
        while ux < f64::MAX && pnchisq_raw(ux, df, ncp, EPS, R_EPS, 10000, true, false) < pp {
            ux *= 2.0;
        }
        pp = p * (1.0 - EPS);
        lx = fmin2(ux0, f64::MAX);
        while lx > f64::MIN_POSITIVE
            && pnchisq_raw(lx, df, ncp, EPS, R_EPS, 10000, true, false) > pp
        {
            lx *= 0.5;
        }
    } else {
        while ux < f64::MAX && pnchisq_raw(ux, df, ncp, EPS, R_EPS, 10000, false, false) > pp {
            ux *= 2.0;
        }
        pp = p * (1.0 - EPS);
        lx = fmin2(ux0, f64::MAX);
        while lx > f64::MIN_POSITIVE
            && pnchisq_raw(lx, df, ncp, EPS, R_EPS, 10000, false, false) < pp
        {
            lx *= 0.5;
        }
    }
    // Halving the interval; a NaN bound ends it (R's loop would not).
    let mut guard = 0;
    loop {
        let nx = 0.5 * (lx + ux);
        let pv = pnchisq_raw(nx, df, ncp, ACCU, RACC, 100_000, lower_tail, false);
        if (lower_tail && pv > p) || (!lower_tail && pv < p) {
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
