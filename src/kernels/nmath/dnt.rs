//! The non-central t density, ported from R's nmath/dnt.c: a difference
//! of two `pnt`s (or the value at 0 near it), the normal for huge df.

use super::dfun::dt;
use super::gamma::lgammafn;
use super::pnorm::dnorm;
use super::pnt::pnt;

const M_LN_SQRT_PI: f64 = 0.572_364_942_924_700_087_071_713_675_677;

/// dnt.c's `dnt(x, df, ncp, give_log)`.
pub fn dnt(x: f64, df: f64, ncp: f64, give_log: bool) -> f64 {
    if x.is_nan() || df.is_nan() {
        return x + df;
    }
    if df <= 0.0 {
        return f64::NAN;
    }
    if ncp == 0.0 {
        return dt(x, df, give_log);
    }
    if !x.is_finite() {
        return super::d0(give_log);
    }
    // The formula loses accuracy near df = 1e9; the limit is N(ncp, 1).
    if !df.is_finite() || df > 1e8 {
        return dnorm(x, ncp, 1.0, give_log);
    }
    let u = if x.abs() > (df * f64::EPSILON).sqrt() {
        df.ln() - x.abs().ln()
            + (pnt(x * ((df + 2.0) / df).sqrt(), df + 2.0, ncp, true, false)
                - pnt(x, df, ncp, true, false))
            .abs()
            .ln()
    } else {
        // x near 0: the value at 0.
        lgammafn((df + 1.0) / 2.0)
            - lgammafn(df / 2.0)
            - (M_LN_SQRT_PI + 0.5 * (df.ln() + ncp * ncp))
    };
    if give_log {
        u
    } else {
        u.exp()
    }
}
