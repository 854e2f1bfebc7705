//! The non-central beta and F densities, ported from R's nmath/dnbeta.c
//! (the Poisson mixture summed outward from its largest term, in
//! `long double`) and dnf.c.

use super::super::summary::ldouble::LongDouble;
use super::c_int;
use super::dfun::{dbeta, dgamma};
use super::dnchisq::dnchisq;
use super::gamma::dpois_raw;

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// `a > b` for long doubles, exactly: the sign of the rounded difference.
fn gt(a: LongDouble, b: LongDouble) -> bool {
    a.sub(b).to_f64() > 0.0
}

/// R's `R_D_exp(x)`.
fn d_exp(x: f64, give_log: bool) -> f64 {
    if give_log {
        x
    } else {
        x.exp()
    }
}

/// dnbeta.c's `dnbeta(x, a, b, ncp, give_log)`.
pub fn dnbeta(x: f64, a: f64, b: f64, ncp: f64, give_log: bool) -> f64 {
    const EPS: f64 = 1.0e-15;
    // R's loops have no cap; their terms shrink geometrically past the
    // mode, long before this many.
    const GUARD: u64 = 100_000_000;
    if x.is_nan() || a.is_nan() || b.is_nan() || ncp.is_nan() {
        return x + a + b + ncp;
    }
    if ncp < 0.0 || a <= 0.0 || b <= 0.0 {
        return f64::NAN;
    }
    if !a.is_finite() || !b.is_finite() || !ncp.is_finite() {
        return f64::NAN;
    }
    if !(0.0..=1.0).contains(&x) {
        return super::d0(give_log);
    }
    if ncp == 0.0 {
        return dbeta(x, a, b, give_log);
    }
    let ncp2 = 0.5 * ncp;
    let dx2 = ncp2 * x;
    let d = (dx2 - a - 1.0) / 2.0;
    let mut dd = d * d + dx2 * (a + b) - a;
    let k_max = if dd <= 0.0 {
        0
    } else {
        dd = (d + dd.sqrt()).ceil();
        if dd > 0.0 {
            c_int(dd)
        } else {
            0
        }
    };
    let k_max = f64::from(k_max);
    let mut term = ld(dbeta(x, a + k_max, b, true));
    let mut p_k = ld(dpois_raw(k_max, ncp2, true));
    if x == 0.0 || !term.to_f64().is_finite() || !p_k.to_f64().is_finite() {
        return d_exp(p_k.add(term).to_f64(), give_log);
    }
    // log(p_k) + log(t_k): rescales the sum at the end.
    p_k = p_k.add(term);
    term = ld(1.0);
    let mut sum = ld(1.0);
    let mut k = k_max;
    let mut guard = 0;
    while k > 0.0 && gt(term, sum.mul(ld(EPS))) && guard < GUARD {
        k -= 1.0;
        let q = (k + 1.0) * (k + a) / (k + a + b) / dx2;
        term = term.mul(ld(q));
        sum = sum.add(term);
        guard += 1;
    }
    term = ld(1.0);
    k = k_max;
    guard = 0;
    loop {
        let q = dx2 * (k + a + b) / (k + a) / (k + 1.0);
        k += 1.0;
        term = term.mul(ld(q));
        sum = sum.add(term);
        guard += 1;
        if !gt(term, sum.mul(ld(EPS))) || guard >= GUARD {
            break;
        }
    }
    d_exp(p_k.add(sum.ln()).to_f64(), give_log)
}

/// dnf.c's `dnf(x, df1, df2, ncp, give_log)`.
pub fn dnf(x: f64, df1: f64, df2: f64, ncp: f64, give_log: bool) -> f64 {
    if x.is_nan() || df1.is_nan() || df2.is_nan() || ncp.is_nan() {
        return x + df2 + df1 + ncp;
    }
    if df1 <= 0.0 || df2 <= 0.0 || ncp < 0.0 {
        return f64::NAN;
    }
    if x < 0.0 {
        return super::d0(give_log);
    }
    if !ncp.is_finite() {
        return f64::NAN;
    }
    if !df1.is_finite() && !df2.is_finite() {
        return if x == 1.0 {
            f64::INFINITY
        } else {
            super::d0(give_log)
        };
    }
    if !df2.is_finite() {
        return df1 * dnchisq(x * df1, df1, ncp, give_log);
    }
    if df1 > 1e14 && ncp < 1e7 {
        // Assumes ncp << df1.
        let f = 1.0 + ncp / df1;
        let z = dgamma(1.0 / x / f, df2 / 2.0, 2.0 / df2, give_log);
        return if give_log {
            z - 2.0 * x.ln() - f.ln()
        } else {
            z / (x * x) / f
        };
    }
    let y = (df1 / df2) * x;
    let z = dnbeta(y / (1.0 + y), df1 / 2.0, df2 / 2.0, ncp, give_log);
    if give_log {
        z + df1.ln() - df2.ln() - 2.0 * y.ln_1p()
    } else {
        z * (df1 / df2) / (1.0 + y) / (1.0 + y)
    }
}
