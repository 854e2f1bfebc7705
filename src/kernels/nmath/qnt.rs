//! The non-central t quantile, ported from R's nmath/qnt.c: a bracket
//! doubling out from max(1, ncp), then bisection on `pnt`.

use super::dpq::dt_qiv;
use super::pnt::pnt;
use super::qnorm::qnorm;
use super::qt::{boundaries, qt};
use super::{fmax2, fmin2};

/// qnt.c's `qnt(p, df, ncp, lower_tail, log_p)`.
pub fn qnt(p: f64, df: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    const ACCU: f64 = 1e-13;
    const EPS: f64 = 1e-11;
    if p.is_nan() || df.is_nan() || ncp.is_nan() {
        return p + df + ncp;
    }
    if df <= 0.0 {
        return f64::NAN;
    }
    if ncp == 0.0 && df >= 1.0 {
        return qt(p, df, lower_tail, log_p);
    }
    if let Some(v) = boundaries(p, lower_tail, log_p, f64::NEG_INFINITY, f64::INFINITY) {
        return v;
    }
    if !df.is_finite() {
        // The limit N(ncp, 1).
        return qnorm(p, ncp, 1.0, lower_tail, log_p);
    }
    let p = dt_qiv(p, lower_tail, log_p);
    if p > 1.0 - f64::EPSILON {
        return f64::INFINITY;
    }
    let mut pp = fmin2(1.0 - f64::EPSILON, p * (1.0 + EPS));
    let mut ux = fmax2(1.0, ncp);
    while ux < f64::MAX && pnt(ux, df, ncp, true, false) < pp {
        ux *= 2.0;
    }
    pp = p * (1.0 - EPS);
    let mut lx = fmin2(-1.0, -ncp);
    while lx > -f64::MAX && pnt(lx, df, ncp, true, false) > pp {
        lx *= 2.0;
    }
    // R's loop has no cap; each step halves the interval.
    let mut guard = 0;
    loop {
        let nx = 0.5 * (lx + ux);
        if pnt(nx, df, ncp, true, false) > p {
            ux = nx;
        } else {
            lx = nx;
        }
        guard += 1;
        let more = (ux - lx) > ACCU * fmax2(lx.abs(), ux.abs());
        if !more || guard > 10_000 {
            break;
        }
    }
    0.5 * (lx + ux)
}
