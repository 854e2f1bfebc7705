//! The non-central chi-squared density, ported from R's nmath/dnchisq.c:
//! the Poisson mixture summed outward from its largest term, in
//! `long double` as R's C does.

use super::super::summary::ldouble::LongDouble;
use super::dfun::dgamma;
use super::gamma::dpois_raw;

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// `a > b` for long doubles, exactly: the sign of the rounded difference.
fn gt(a: LongDouble, b: LongDouble) -> bool {
    a.sub(b).to_f64() > 0.0
}

/// R's `dchisq`.
pub(crate) fn dchisq(x: f64, df: f64, give_log: bool) -> f64 {
    dgamma(x, df / 2.0, 2.0, give_log)
}

/// dnchisq.c's `dnchisq(x, df, ncp, give_log)`.
pub fn dnchisq(x: f64, df: f64, ncp: f64, give_log: bool) -> f64 {
    const EPS: f64 = 5e-15;
    if x.is_nan() || df.is_nan() || ncp.is_nan() {
        return x + df + ncp;
    }
    if !df.is_finite() || !ncp.is_finite() || ncp < 0.0 || df < 0.0 {
        return f64::NAN;
    }
    if x < 0.0 {
        return super::d0(give_log);
    }
    if x == 0.0 && df < 2.0 {
        return f64::INFINITY;
    }
    if ncp == 0.0 {
        return if df > 0.0 {
            dchisq(x, df, give_log)
        } else {
            super::d0(give_log)
        };
    }
    if x == f64::INFINITY {
        return super::d0(give_log);
    }
    let ncp2 = 0.5 * ncp;
    // The largest term of the sum.
    let mut imax = ((-(2.0 + df) + ((2.0 - df) * (2.0 - df) + 4.0 * ncp * x).sqrt()) / 4.0).ceil();
    if imax < 0.0 {
        imax = 0.0;
    }
    let (dfmid, mid) = if imax.is_finite() {
        let dfmid = df + 2.0 * imax;
        (
            dfmid,
            dpois_raw(imax, ncp2, false) * dchisq(x, dfmid, false),
        )
    } else {
        (df, 0.0)
    };
    if mid == 0.0 {
        // Underflow: the central approximation (Abramowitz & Stegun) where
        // it serves.
        if give_log || ncp > 1000.0 {
            let nl = df + ncp;
            let ic = nl / (nl + ncp);
            return dchisq(x * ic, nl * ic, give_log);
        }
        return super::d0(give_log);
    }
    let mut sum = ld(mid);
    // upper tail
    let mut term = ld(mid);
    let mut d = dfmid;
    let mut i = imax;
    let x2 = x * ncp2;
    // R's loop has no cap; its terms shrink geometrically once q < 1, and
    // the cap here is far beyond where that ends it.
    let mut guard = 0u64;
    loop {
        i += 1.0;
        let q = x2 / i / d;
        d += 2.0;
        term = term.mul(ld(q));
        sum = sum.add(term);
        guard += 1;
        let more =
            q >= 1.0 || gt(term.mul(ld(q)), ld((1.0 - q) * EPS)) || gt(term, ld(1e-10).mul(sum));
        if !more || guard > 100_000_000 {
            break;
        }
    }
    // lower tail
    term = ld(mid);
    d = dfmid;
    i = imax;
    while i != 0.0 {
        d -= 2.0;
        let q = i * d / x2;
        i -= 1.0;
        term = term.mul(ld(q));
        sum = sum.add(term);
        if q < 1.0 && !gt(term.mul(ld(q)), ld((1.0 - q) * EPS)) {
            break;
        }
    }
    let s = sum.to_f64();
    if give_log {
        s.ln()
    } else {
        s
    }
}
