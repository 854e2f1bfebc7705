//! The studentized range distribution, ported from R's nmath `ptukey.c`
//! (with its `wprob`) and `qtukey.c` (with its `qinv`) in their own shape:
//! Copenhaver & Holland's (1988) Gauss-Legendre quadrature for the
//! probability, and the secant search started from Odeh & Evans's AS 70
//! estimate for the quantile. R's quantile is where that search stops
//! (successive iterates within 1e-4), not the exact inverse of `ptukey`,
//! so only the same iteration gives R's numbers.
//!
//! `wprob` sums in C's `long double`; here the sums are `f64`, which
//! moves the result by a few units in the last place at most.

use super::dpq::dt_qiv;
use super::{dt0, dt1, fmax2, lgammafn, pnorm, M_1_SQRT_2PI, M_LN2};

/// R's `R_DT_val(x)`: a lower-tail probability on the requested tail and
/// scale.
fn dt_val(x: f64, lower_tail: bool, log_p: bool) -> f64 {
    match (lower_tail, log_p) {
        (true, false) => x,
        (true, true) => x.ln(),
        (false, false) => 0.5 - x + 0.5,
        (false, true) => (-x).ln_1p(),
    }
}

/// `wprob(w, rr, cc)`: the probability that the largest of `rr` ranges of
/// `cc` standard normals is below `w` (Hartley's form of the range).
fn wprob(w: f64, rr: f64, cc: f64) -> f64 {
    const NLEG: usize = 12;
    const IHALF: usize = 6;
    const C1: f64 = -30.0;
    const C2: f64 = -50.0;
    const C3: f64 = 60.0;
    const BB: f64 = 8.0;
    const WLAR: f64 = 3.0;
    const WINCR1: f64 = 2.0;
    const WINCR2: f64 = 3.0;
    const XLEG: [f64; IHALF] = [
        0.981560634246719250690549090149,
        0.904117256370474856678465866119,
        0.769902674194304687036893833213,
        0.587317954286617447296702418941,
        0.367831498998180193752691536644,
        0.125233408511468915472441369464,
    ];
    const ALEG: [f64; IHALF] = [
        0.047175336386511827194615961485,
        0.106939325995318430960254718194,
        0.160078328543346226334652529543,
        0.203167426723065921749064455810,
        0.233492536538354808760849898925,
        0.249147045813402785000562436043,
    ];

    let qsqz = w * 0.5;
    // For w >= 16 the integral's lower bound (reached for cc = 20) is
    // 0.99999999999995.
    if qsqz >= BB {
        return 1.0;
    }
    // (2 Phi(w/2) - 1)^cc, the first term of Hartley's form, dropped
    // below 2e-22.
    let mut pr_w = 2.0 * pnorm(qsqz, 0.0, 1.0, true, false) - 1.0;
    if pr_w >= (C2 / cc).exp() {
        pr_w = pr_w.powf(cc);
    } else {
        pr_w = 0.0;
    }
    // A large w leaves a small second term: fewer intervals suffice.
    let wincr = if w > WLAR { WINCR1 } else { WINCR2 };
    let mut blb = qsqz;
    let binc = (BB - qsqz) / wincr;
    let mut bub = blb + binc;
    let mut einsum = 0.0;
    let cc1 = cc - 1.0;
    let mut wi = 1.0;
    while wi <= wincr {
        let mut elsum = 0.0;
        let a = 0.5 * (bub + blb);
        let b = 0.5 * (bub - blb);
        for jj in 1..=NLEG {
            let (j, xx) = if IHALF < jj {
                let j = (NLEG - jj) + 1;
                (j, XLEG[j - 1])
            } else {
                (jj, -XLEG[jj - 1])
            };
            let c = b * xx;
            let ac = a + c;
            // exp(-qexpo/2) < 9e-14 adds nothing, nor does anything after.
            let qexpo = ac * ac;
            if qexpo > C3 {
                break;
            }
            let pplus = 2.0 * pnorm(ac, 0.0, 1.0, true, false);
            let pminus = 2.0 * pnorm(ac, w, 1.0, true, false);
            let mut rinsum = (pplus * 0.5) - (pminus * 0.5);
            // rinsum^(cc-1) < 9e-14 adds nothing.
            if rinsum >= (C1 / cc1).exp() {
                rinsum = (ALEG[j - 1] * (-(0.5 * qexpo)).exp()) * rinsum.powf(cc1);
                elsum += rinsum;
            }
        }
        elsum *= ((2.0 * b) * cc) * M_1_SQRT_2PI;
        einsum += elsum;
        blb = bub;
        bub += binc;
        wi += 1.0;
    }
    pr_w += einsum;
    if pr_w <= (C1 / rr).exp() {
        return 0.0;
    }
    pr_w = pr_w.powf(rr);
    if pr_w >= 1.0 {
        return 1.0;
    }
    pr_w
}

/// R's C `ptukey(q, rr, cc, df, lower_tail, log_p)`: `rr` ranges
/// (`nranges`), `cc` means (`nmeans`). The boolean is true when the
/// quadrature did not converge (R warns "full precision may not have been
/// achieved in 'ptukey'").
pub fn ptukey_conv(
    q: f64,
    rr: f64,
    cc: f64,
    df: f64,
    lower_tail: bool,
    log_p: bool,
) -> (f64, bool) {
    const NLEGQ: usize = 16;
    const IHALFQ: usize = 8;
    const EPS1: f64 = -30.0;
    const EPS2: f64 = 1.0e-14;
    const DHAF: f64 = 100.0;
    const DQUAR: f64 = 800.0;
    const DEIGH: f64 = 5000.0;
    const DLARG: f64 = 25000.0;
    const ULEN1: f64 = 1.0;
    const ULEN2: f64 = 0.5;
    const ULEN3: f64 = 0.25;
    const ULEN4: f64 = 0.125;
    const XLEGQ: [f64; IHALFQ] = [
        0.989400934991649932596154173450,
        0.944575023073232576077988415535,
        0.865631202387831743880467897712,
        0.755404408355003033895101194847,
        0.617876244402643748446671764049,
        0.458016777657227386342419442984,
        0.281603550779258913230460501460,
        0.950125098376374401853193354250e-1,
    ];
    const ALEGQ: [f64; IHALFQ] = [
        0.271524594117540948517805724560e-1,
        0.622535239386478928628438369944e-1,
        0.951585116824927848099251076022e-1,
        0.124628971255533872052476282192,
        0.149595988816576732081501730547,
        0.169156519395002538189312079030,
        0.182603415044923588866763667969,
        0.189450610455068496285396723208,
    ];

    if q.is_nan() || rr.is_nan() || cc.is_nan() || df.is_nan() {
        return (f64::NAN, false);
    }
    if q <= 0.0 {
        return (dt0(lower_tail, log_p), false);
    }
    // At least two means and two degrees of freedom.
    if df < 2.0 || rr < 1.0 || cc < 2.0 {
        return (f64::NAN, false);
    }
    if !q.is_finite() {
        return (dt1(lower_tail, log_p), false);
    }
    // Beyond 25000 df the range's own distribution is close enough.
    if df > DLARG {
        return (dt_val(wprob(q, rr, cc), lower_tail, log_p), false);
    }
    let f2 = df * 0.5;
    let mut f2lf = ((f2 * df.ln()) - (df * M_LN2)) - lgammafn(f2);
    let f21 = f2 - 1.0;
    // Unit, half-, quarter- or eighth-unit intervals as df grows.
    let ff4 = df * 0.25;
    let ulen = if df <= DHAF {
        ULEN1
    } else if df <= DQUAR {
        ULEN2
    } else if df <= DEIGH {
        ULEN3
    } else {
        ULEN4
    };
    f2lf += ulen.ln();
    let mut ans = 0.0;
    let mut otsum = 0.0;
    for i in 1..=50 {
        otsum = 0.0;
        let twa1 = f64::from(2 * i - 1) * ulen;
        for jj in 1..=NLEGQ {
            // The nodes right of the interval's midpoint, then left of it.
            let (j, node) = if IHALFQ < jj {
                let j = jj - IHALFQ - 1;
                (j, XLEGQ[j] * ulen)
            } else {
                let j = jj - 1;
                (j, -(XLEGQ[j] * ulen))
            };
            let t1 = (f2lf + (f21 * (twa1 + node).ln())) - ((node + twa1) * ff4);
            // exp(t1) < 9e-14 adds nothing.
            if t1 >= EPS1 {
                let qsqz = q * ((node + twa1) * 0.5).sqrt();
                let wprb = wprob(qsqz, rr, cc);
                otsum += (wprb * ALEGQ[j]) * t1.exp();
            }
        }
        // Stop once an interval adds under 1e-14, but integrate at least
        // one unit so a small left tail is not missed.
        if f64::from(i) * ulen >= 1.0 && otsum <= EPS2 {
            break;
        }
        ans += otsum;
    }
    let unconverged = otsum > EPS2;
    if ans > 1.0 {
        ans = 1.0;
    }
    (dt_val(ans, lower_tail, log_p), unconverged)
}

/// R's C `ptukey`, its precision warning dropped.
pub fn ptukey(q: f64, rr: f64, cc: f64, df: f64, lower_tail: bool, log_p: bool) -> f64 {
    ptukey_conv(q, rr, cc, df, lower_tail, log_p).0
}

/// `qinv(p, c, v)`: AS 70's percentage point, the secant search's start.
fn qinv(p: f64, c: f64, v: f64) -> f64 {
    const P0: f64 = 0.322232421088;
    const Q0: f64 = 0.993484626060e-01;
    const P1: f64 = -1.0;
    const Q1: f64 = 0.588581570495;
    const P2: f64 = -0.342242088547;
    const Q2: f64 = 0.531103462366;
    const P3: f64 = -0.204231210125;
    const Q3: f64 = 0.103537752850;
    const P4: f64 = -0.453642210148e-04;
    const Q4: f64 = 0.38560700634e-02;
    const C1: f64 = 0.8832;
    const C2: f64 = 0.2368;
    const C3: f64 = 1.214;
    const C4: f64 = 1.208;
    // AS 70's four-digit constant, not sqrt(2): R's start point uses it.
    #[allow(clippy::approx_constant)]
    const C5: f64 = 1.4142;
    // Above 120 df the estimate treats df as infinite.
    const VMAX: f64 = 120.0;

    let ps = 0.5 - 0.5 * p;
    let yi = (1.0 / (ps * ps)).ln().sqrt();
    let mut t = yi
        + ((((yi * P4 + P3) * yi + P2) * yi + P1) * yi + P0)
            / ((((yi * Q4 + Q3) * yi + Q2) * yi + Q1) * yi + Q0);
    if v < VMAX {
        t += (t * t * t + t) / v / 4.0;
    }
    let mut q = C1 - C2 * t;
    if v < VMAX {
        q += -C3 / v + C4 * t / v;
    }
    t * (q * (c - 1.0).ln() + C5)
}

/// R's C `qtukey(p, rr, cc, df, lower_tail, log_p)`. The boolean is true
/// when the secant search used all 50 iterations (R warns "convergence
/// failed in 'qtukey'").
pub fn qtukey_conv(
    p: f64,
    rr: f64,
    cc: f64,
    df: f64,
    lower_tail: bool,
    log_p: bool,
) -> (f64, bool) {
    const EPS: f64 = 0.0001;
    const MAXITER: i32 = 50;

    if p.is_nan() || rr.is_nan() || cc.is_nan() || df.is_nan() {
        return (p + rr + cc + df, false);
    }
    if df < 2.0 || rr < 1.0 || cc < 2.0 {
        return (f64::NAN, false);
    }
    // R_Q_P01_boundaries(p, 0, ML_POSINF)
    if log_p {
        if p > 0.0 {
            return (f64::NAN, false);
        }
        if p == 0.0 {
            return (if lower_tail { f64::INFINITY } else { 0.0 }, false);
        }
        if p == f64::NEG_INFINITY {
            return (if lower_tail { 0.0 } else { f64::INFINITY }, false);
        }
    } else {
        if !(0.0..=1.0).contains(&p) {
            return (f64::NAN, false);
        }
        if p == 0.0 {
            return (if lower_tail { 0.0 } else { f64::INFINITY }, false);
        }
        if p == 1.0 {
            return (if lower_tail { f64::INFINITY } else { 0.0 }, false);
        }
    }
    let p = dt_qiv(p, lower_tail, log_p);
    let mut x0 = qinv(p, cc, df);
    let mut valx0 = ptukey(x0, rr, cc, df, true, false) - p;
    // The second iterate is one below the first when the first's
    // probability is above p, else one above.
    let mut x1 = if valx0 > 0.0 {
        fmax2(0.0, x0 - 1.0)
    } else {
        x0 + 1.0
    };
    let mut valx1 = ptukey(x1, rr, cc, df, true, false) - p;
    let mut ans = 0.0;
    for _ in 1..MAXITER {
        ans = x1 - ((valx1 * (x1 - x0)) / (valx1 - valx0));
        valx0 = valx1;
        x0 = x1;
        // Iterates stay >= 0.
        if ans < 0.0 {
            ans = 0.0;
        }
        valx1 = ptukey(ans, rr, cc, df, true, false) - p;
        x1 = ans;
        if (x1 - x0).abs() < EPS {
            return (ans, false);
        }
    }
    (ans, true)
}

/// R's C `qtukey`, its convergence warning dropped.
pub fn qtukey(p: f64, rr: f64, cc: f64, df: f64, lower_tail: bool, log_p: bool) -> f64 {
    qtukey_conv(p, rr, cc, df, lower_tail, log_p).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol * b.abs(), "{a:e} vs R {b:e}");
    }

    /// Values R 4.2.2 prints with `sprintf("%.17g", ...)`.
    #[test]
    fn known_values_match_r() {
        for (got, r, tol) in [
            (
                ptukey(3.5, 1.0, 3.0, 12.0, true, false),
                0.93000451472455126,
                1e-13,
            ),
            (
                ptukey(2.0, 1.0, 2.0, 5.0, true, false),
                0.78356277073022873,
                1e-13,
            ),
            (
                ptukey(4.0, 2.0, 5.0, 30.0, false, false),
                0.11083867767163214,
                1e-12,
            ),
            (
                qtukey(0.95, 1.0, 3.0, 12.0, true, false),
                3.7729289594083459,
                1e-13,
            ),
            (
                qtukey(0.99, 1.0, 10.0, 1e5, true, false),
                5.1566352531376722,
                1e-13,
            ),
        ] {
            near(got, r, tol);
        }
    }

    #[test]
    fn edges_follow_r() {
        assert_eq!(ptukey(0.0, 1.0, 3.0, 10.0, true, false), 0.0);
        assert_eq!(ptukey(-1.0, 1.0, 3.0, 10.0, false, true), 0.0);
        assert_eq!(ptukey(f64::INFINITY, 1.0, 3.0, 10.0, true, false), 1.0);
        assert!(ptukey(1.0, 1.0, 1.0, 10.0, true, false).is_nan());
        assert!(ptukey(1.0, 1.0, 3.0, 1.0, true, false).is_nan());
        assert_eq!(qtukey(1.0, 1.0, 3.0, 10.0, true, false), f64::INFINITY);
        assert_eq!(qtukey(0.0, 1.0, 3.0, 10.0, true, false), 0.0);
        assert!(qtukey(1.5, 1.0, 3.0, 10.0, true, false).is_nan());
    }
}
