//! The non-central beta and F distribution functions, ported from R's
//! nmath/pnbeta.c (AS 226 with Frick's AS R84 changes) and pnf.c. The
//! series is summed in `long double`, as R's C does.

use super::super::summary::ldouble::LongDouble;
use super::gamma::{lbeta, lgammafn};
use super::pnchisq::pnchisq;
use super::toms708::bratio;
use super::{dt0, dt1, fmax2};

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// pnbeta.c's `pnbeta_raw`: the lower tail, unrounded. Its precision
/// and convergence warnings are not raised.
pub(crate) fn pnbeta_raw(x: f64, o_x: f64, a: f64, b: f64, ncp: f64) -> LongDouble {
    const ERRMAX: f64 = 1.0e-9;
    // 100 is not enough for pf(ncp = 200): PR#11277.
    const ITRMAX: f64 = 10000.0;
    if ncp < 0.0 || a <= 0.0 || b <= 0.0 {
        return ld(f64::NAN);
    }
    if x < 0.0 || o_x > 1.0 || (x == 0.0 && o_x == 1.0) {
        return ld(0.0);
    }
    if x > 1.0 || o_x < 0.0 || (x == 1.0 && o_x == 0.0) {
        return ld(1.0);
    }
    let c = ncp / 2.0;
    let x0 = fmax2(c - 7.0 * c.sqrt(), 0.0).floor();
    let a0 = a + x0;
    let l_beta = lbeta(a0, b);
    let (mut temp, _, _) = bratio(a0, b, x, o_x, false);
    let mut gx = ld(
        (a0 * x.ln() + b * (if x < 0.5 { (-x).ln_1p() } else { o_x.ln() }) - l_beta - a0.ln())
            .exp(),
    );
    let mut q = if a0 > a {
        ld((-c + x0 * c.ln() - lgammafn(x0 + 1.0)).exp())
    } else {
        ld((-c).exp())
    };
    let mut sumq = ld(1.0).sub(q);
    let mut ans = q.mul(ld(temp));
    let mut j = x0.floor();
    loop {
        j += 1.0;
        temp -= gx.to_f64();
        gx = gx.mul(ld(x * (a + b + j - 1.0) / (a + j)));
        q = q.mul(ld(c / j));
        sumq = sumq.sub(q);
        let ax = ld(temp).mul(q);
        ans = ans.add(ax);
        let errbd = ld(temp).sub(gx).mul(sumq).to_f64();
        // A NaN bound ends the loop, as it does R's.
        let more = errbd > ERRMAX && j < ITRMAX + x0;
        if !more {
            break;
        }
    }
    ans
}

/// pnbeta.c's `pnbeta2`: the tail and scale asked for.
pub(crate) fn pnbeta2(
    x: f64,
    o_x: f64,
    a: f64,
    b: f64,
    ncp: f64,
    lower_tail: bool,
    log_p: bool,
) -> f64 {
    let mut ans = pnbeta_raw(x, o_x, a, b, ncp);
    if lower_tail {
        if log_p {
            ans.ln().to_f64()
        } else {
            ans.to_f64()
        }
    } else {
        if ans.sub(ld(1.0)).to_f64() > 0.0 {
            ans = ld(1.0);
        }
        if log_p {
            log1pl_neg(ans)
        } else {
            ld(1.0).sub(ans).to_f64()
        }
    }
}

/// `(double) log1pl(-ans)`.
fn log1pl_neg(ans: LongDouble) -> f64 {
    ans.neg().ln_1p().to_f64()
}

/// pnbeta.c's `pnbeta(x, a, b, ncp, lower_tail, log_p)`.
pub fn pnbeta(x: f64, a: f64, b: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || a.is_nan() || b.is_nan() || ncp.is_nan() {
        return x + a + b + ncp;
    }
    if x <= 0.0 {
        return dt0(lower_tail, log_p);
    }
    if x >= 1.0 {
        return dt1(lower_tail, log_p);
    }
    pnbeta2(x, 1.0 - x, a, b, ncp, lower_tail, log_p)
}

/// pnf.c's `pnf(x, df1, df2, ncp, lower_tail, log_p)`.
pub fn pnf(x: f64, df1: f64, df2: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || df1.is_nan() || df2.is_nan() || ncp.is_nan() {
        return x + df2 + df1 + ncp;
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
    if x <= 0.0 {
        return dt0(lower_tail, log_p);
    }
    if x >= f64::INFINITY {
        return dt1(lower_tail, log_p);
    }
    if df2 > 1e8 {
        // Avoids df2 = Inf and the accuracy lost near it.
        return pnchisq(x * df1, df1, ncp, lower_tail, log_p);
    }
    let y = (df1 / df2) * x;
    pnbeta2(
        y / (1.0 + y),
        1.0 / (1.0 + y),
        df1 / 2.0,
        df2 / 2.0,
        ncp,
        lower_tail,
        log_p,
    )
}
