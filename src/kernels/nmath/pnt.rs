//! The non-central t distribution function, ported from R's nmath/pnt.c
//! (Lenth's AS 243 with Guenther's twin series), which `pt(q, df, ncp)`
//! and so `power.t.test` read. pnt.c sums its series in `long double`:
//! the x87 extended type here too, so the sums round as R's do.

use super::super::summary::ldouble::LongDouble;
use super::pbeta::{pbeta, pt};
use super::pnorm::pnorm;
use super::{gamma::lgammafn, M_LN2};

const M_SQRT_2D_PI: f64 = 0.797_884_560_802_865_355_879_892_119_869;
const M_LN_SQRT_PI: f64 = 0.572_364_942_924_700_087_071_713_675_677;
/// C's DBL_MIN_EXP.
const DBL_MIN_EXP: f64 = -1021.0;

fn ld(x: f64) -> LongDouble {
    LongDouble::from_f64(x)
}

/// R's `R_DT_val(x)`.
fn dt_val(x: f64, lower_tail: bool, log_p: bool) -> f64 {
    match (lower_tail, log_p) {
        (true, false) => x,
        (true, true) => x.ln(),
        (false, false) => 0.5 - x + 0.5,
        (false, true) => (-x).ln_1p(),
    }
}

/// pnt.c's `pnt(t, df, ncp, lower_tail, log_p)`. Its warnings (precision
/// or convergence not reached) are not raised.
pub fn pnt(t: f64, df: f64, ncp: f64, lower_tail: bool, log_p: bool) -> f64 {
    const ITRMAX: i32 = 1000;
    const ERRMAX: f64 = 1.0e-12;
    if df <= 0.0 {
        return f64::NAN;
    }
    if ncp == 0.0 {
        return pt(t, df, lower_tail, log_p);
    }
    if !t.is_finite() {
        return if t < 0.0 {
            super::dt0(lower_tail, log_p)
        } else {
            super::dt1(lower_tail, log_p)
        };
    }
    let (negdel, tt, del) = if t >= 0.0 {
        (false, t, ncp)
    } else {
        // pt(q, df, ncp) <= pt(0, df, ncp) = Phi(-ncp): tiny when ncp > 40.
        if ncp > 40.0 && (!log_p || !lower_tail) {
            return super::dt0(lower_tail, log_p);
        }
        (true, -t, -ncp)
    };
    if df > 4e5 || del * del > 2.0 * M_LN2 * (-DBL_MIN_EXP) {
        // Abramowitz & Stegun 26.7.10.
        let s = ld(1.0 / (4.0 * df));
        let mean = ld(tt).mul(ld(1.0).sub(s)).to_f64();
        let sd = ld(1.0).add(ld(tt * tt * 2.0).mul(s)).to_f64().sqrt();
        return pnorm(mean, del, sd, lower_tail != negdel, log_p);
    }
    let mut x = t * t;
    let mut rxb = df / (x + df);
    x /= x + df;
    let mut tnc;
    if x > 0.0 {
        let lambda = del * del;
        let mut p = ld(0.5 * (-0.5 * lambda).exp());
        if p.to_f64() == 0.0 {
            // Underflow: R warns and gives up.
            return super::dt0(lower_tail, log_p);
        }
        let mut q = ld(M_SQRT_2D_PI).mul(p).mul(ld(del));
        let mut s = ld(0.5).sub(p);
        if s.to_f64() < 1e-7 {
            s = ld(-0.5 * (-0.5 * lambda).exp_m1());
        }
        let mut a = 0.5;
        let b = 0.5 * df;
        rxb = rxb.powf(b);
        let albeta = M_LN_SQRT_PI + lgammafn(b) - lgammafn(0.5 + b);
        let mut xodd = ld(pbeta(x, a, b, true, false));
        let mut godd = ld(2.0 * rxb * (a * x.ln() - albeta).exp());
        tnc = ld(b * x);
        let mut xeven = if tnc.to_f64() < f64::EPSILON {
            tnc
        } else {
            ld(1.0 - rxb)
        };
        let mut geven = tnc.mul(ld(rxb));
        tnc = p.mul(xodd).add(q.mul(xeven));
        for it in 1..=ITRMAX {
            a += 1.0;
            xodd = xodd.sub(godd);
            xeven = xeven.sub(geven);
            godd = godd.mul(ld(x * (a + b - 1.0) / a));
            geven = geven.mul(ld(x * (a + b - 0.5) / (a + 0.5)));
            p = p.mul(ld(lambda / f64::from(2 * it)));
            q = q.mul(ld(lambda / f64::from(2 * it + 1)));
            tnc = tnc.add(p.mul(xodd).add(q.mul(xeven)));
            s = s.sub(p);
            if s.to_f64() < -1.0e-10 {
                break;
            }
            if s.to_f64() <= 0.0 && it > 1 {
                break;
            }
            let errbd = ld(2.0).mul(s).mul(xodd.sub(godd)).to_f64();
            if errbd.abs() < ERRMAX {
                break;
            }
        }
    } else {
        tnc = ld(0.0);
    }
    tnc = tnc.add(ld(pnorm(-del, 0.0, 1.0, true, false)));
    let lower = lower_tail != negdel;
    let v = tnc.to_f64();
    // fmin2, which keeps a NaN.
    dt_val(if v.is_nan() { v } else { v.min(1.0) }, lower, log_p)
}
