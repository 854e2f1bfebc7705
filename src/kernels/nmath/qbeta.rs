//! The beta quantile, ported from R 4.2's nmath `qbeta.c` in its own
//! shape: AS 109 (Cran, Martin & Thomas 1977, with remarks AS R19 and
//! R83) for the starting value, Maechler's additions (the one-step
//! correction in the extreme left tail, swapping the tails, the boundary
//! checks at the smallest double, PR#15755, PR#17178, PR#18302) and the
//! modified Newton-Raphson iteration on `pbeta_raw`, on the x scale or on
//! the u = log(x) scale, with one last step on the x scale after the
//! latter. R's answer is where these iterations stop, not the exact
//! inverse of pbeta, so only the port gives R's bits.
//!
//! `qbeta_raw` returns both qbeta() and its mirror 1 - qbeta() as qb[0]
//! and qb[1], as in C. The debugging output (`R_ifDEBUG_printf`) and the
//! warnings (`ML_WARNING`, `MATHLIB_WARNING`) are dropped; the branches
//! that only warn are kept as comments.

use std::f64::consts::LN_2 as M_LN2;

use super::dpq::{d_half, dt_civ, dt_clog, dt_log, dt_qiv, log1_exp};
use super::gamma::lbeta;
use super::ks::pow_di;
use super::pbeta::pbeta_raw;
use super::{dt0, dt1, fmax2, fmin2};

// qbeta.c's #defines.
const USE_LOG_X_CUTOFF: f64 = -5.0; // based on some testing; had = -10
const N_NEWTON_FREE: i32 = 4; // based on some testing; had = 10
/// `MLOGICAL_NA`: qbeta_raw's `swap_01` is TRUE, NA or FALSE; NA lets the
/// algorithm decide `swap_tail`.
const MLOGICAL_NA: Option<bool> = None;

/// R's `qbeta(alpha, p, q, lower_tail, log_p)`: the quantile of
/// Beta(shape1 = p, shape2 = q).
pub fn qbeta(alpha: f64, p: f64, q: f64, lower_tail: bool, log_p: bool) -> f64 {
    // test for admissibility of parameters
    if p.is_nan() || q.is_nan() || alpha.is_nan() {
        return p + q + alpha;
    }
    if p < 0.0 || q < 0.0 {
        return f64::NAN; // ML_WARN_return_NAN
    }
    // allowing p==0 and q==0  <==> treat as one- or two-point mass

    let mut qbet = [0.0; 2]; // = { qbeta(), 1 - qbeta() }
    qbeta_raw(
        alpha,
        p,
        q,
        lower_tail,
        log_p,
        MLOGICAL_NA,
        USE_LOG_X_CUTOFF,
        N_NEWTON_FREE,
        &mut qbet,
    );
    qbet[0]
}

// CARE: assumes subnormal numbers, i.e., no underflow at DBL_MIN:
const DBL_VERY_MIN: f64 = f64::MIN_POSITIVE / 4.0;
const DBL_LOG_V_MIN: f64 = M_LN2 * (f64::MIN_EXP - 2) as f64;
// Too extreme (2^-1050, 2^-1074): inaccuracy in pbeta(), see qbeta.c.
// (DBL_1__eps = 0x1.fffffffffffffp-1 = 1 - 2^-53 is used only by a
// warning, dropped below.)

// set the exponent of acu to -2r-2 for r digits of accuracy
const FPU: f64 = 3e-308;
// acu_min: Minimal value for accuracy 'acu' which will depend on (a,p);
// acu_min >= fpu !
const ACU_MIN: f64 = 1e-300;
const P_LO: f64 = FPU;
const P_HI: f64 = 1.0 - 2.22e-16;

const CONST1: f64 = 2.30753;
const CONST2: f64 = 0.27061;
const CONST3: f64 = 0.99229;
const CONST4: f64 = 0.04481;

/// qbeta.c's `qbeta_raw`: returns both qbeta() and its "mirror"
/// 1 - qbeta() in `qb` (useful notably when qbeta() ~= 1).
///
/// `swap_01`: Some(TRUE), NA (`MLOGICAL_NA`: the algorithm decides
/// swap_tail) or Some(FALSE). `log_q_cut`: if Inf, return
/// log(qbeta(..)); otherwise the bound for switching to the log(x) scale
/// (see use_log_x). `n_n` (C's `n_N`): the number of "unconstrained"
/// Newton steps before switching to constrained ones.
// Comparisons are kept in C's form, as are its eight arguments.
#[allow(clippy::too_many_arguments, clippy::manual_range_contains)]
pub(crate) fn qbeta_raw(
    alpha: f64,
    p: f64,
    q: f64,
    lower_tail: bool,
    log_p: bool,
    swap_01: Option<bool>,
    log_q_cut: f64,
    n_n: i32,
    qb: &mut [f64; 2],
) {
    let swap_choose = swap_01 == MLOGICAL_NA;
    let give_log_q = log_q_cut == f64::INFINITY;
    let mut use_log_x = give_log_q; // or u < log_q_cut  below
    let mut warned = false;
    let mut add_n_step = true;
    let mut a;
    let mut la;
    let mut pp;
    let mut qq;
    let mut r;
    let mut t;
    let mut w;
    let mut y = -1.0;
    // C's `volatile double u, xinbta;`
    let mut u;
    let mut xinbta;

    // Assuming p >= 0, q >= 0  here ...

    macro_rules! return_q_0 {
        () => {{
            if give_log_q {
                qb[0] = f64::NEG_INFINITY;
                qb[1] = 0.0;
            } else {
                qb[0] = 0.0;
                qb[1] = 1.0;
            }
            return;
        }};
    }
    macro_rules! return_q_1 {
        () => {{
            if give_log_q {
                qb[0] = 0.0;
                qb[1] = f64::NEG_INFINITY;
            } else {
                qb[0] = 1.0;
                qb[1] = 0.0;
            }
            return;
        }};
    }
    macro_rules! return_q_half {
        () => {{
            if give_log_q {
                qb[0] = -M_LN2;
                qb[1] = -M_LN2;
            } else {
                qb[0] = 0.5;
                qb[1] = 0.5;
            }
            return;
        }};
    }

    // Deal with boundary cases here:
    if alpha == dt0(lower_tail, log_p) {
        return_q_0!();
    }
    if alpha == dt1(lower_tail, log_p) {
        return_q_1!();
    }

    // check alpha {*before* transformation which may lose all accuracy}:
    if (log_p && alpha > 0.0) || (!log_p && (alpha < 0.0 || alpha > 1.0)) {
        // alpha is outside: ML_WARN_return_NAN
        qb[0] = f64::NAN;
        qb[1] = f64::NAN;
        return;
    }

    //  p==0, q==0, p = Inf, q = Inf  <==> treat as one- or two-point mass
    if p == 0.0 || q == 0.0 || !p.is_finite() || !q.is_finite() {
        // We know 0 < T(alpha) < 1 : pbeta() is constant and trivial in {0, 1/2, 1}
        if p == 0.0 && q == 0.0 {
            // point mass 1/2 at each of {0,1} :
            if alpha < d_half(log_p) {
                return_q_0!();
            }
            if alpha > d_half(log_p) {
                return_q_1!();
            }
            // else:  alpha == "1/2"
            return_q_half!();
        } else if p == 0.0 || p / q == 0.0 {
            // point mass 1 at 0 - "flipped around"
            return_q_0!();
        } else if q == 0.0 || q / p == 0.0 {
            // point mass 1 at 0 - "flipped around"
            return_q_1!();
        }
        // else:  p = q = Inf : point mass 1 at 1/2
        return_q_half!();
    }

    // initialize
    let p_ = dt_qiv(alpha, lower_tail, log_p); // lower_tail prob (in any case)
                                               // Conceptually, 0 < p_ < 1 (but can be 0 or 1 because of cancellation!)
    let logbeta = lbeta(p, q);

    let mut swap_tail = if swap_choose {
        p_ > 0.5
    } else {
        swap_01 == Some(true)
    };

    // Where the iteration ends (C's labels after the Newton loops):
    // `l_return` for the early `goto L_return` at the left border.
    let mut l_return = false;
    let mut tx;
    let mut u_n;
    let mut n_maybe_swaps = 0;
    'maybe_swap: loop {
        // change tail; default (swap_01 = NA): afterwards 0 < a <= 1/2
        if swap_tail {
            // change tail, swap copies of {p,q}:  p <-> q :
            a = dt_civ(alpha, lower_tail, log_p); // = 1 - p_ , is < 1/2 if(swap_choose)
                                                  // la := log(a), but without numerical cancellation:
            la = dt_clog(alpha, lower_tail, log_p);
            pp = q;
            qq = p;
        } else {
            a = p_;
            la = dt_log(alpha, lower_tail, log_p);
            pp = p;
            qq = q;
        }
        n_maybe_swaps += 1;

        // calculate the initial approximation

        // Desired accuracy for Newton iterations (below) should depend on
        // (a,p); this is from Remark .. on AS 109, adapted. NEW: 'acu'
        // accuracy NOT for squared adjustment, but simple, i.e.,
        // "new acu" = sqrt(old acu).
        let acu = fmax2(ACU_MIN, 10f64.powf(-13. - 2.5 / (pp * pp) - 0.5 / (a * a)));
        // try to catch  "extreme left tail" early
        let u0 = (la + pp.ln() + logbeta) / pp; // = log(x_0)
        let mut rp = pp * (1. - qq) / (pp + 1.);
        const LOG_EPS_C: f64 = M_LN2 * (1. - f64::MANTISSA_DIGITS as f64); // = log(DBL_EPSILON) = -36.04..

        t = 0.2;
        // FIXME: Factor 0.2 is a bit arbitrary;  '1' is clearly much too much.
        let u0_maybe = M_LN2 * (f64::MIN_EXP as f64) < u0 && u0 < -0.01;
        // 1. cannot allow exp(u0) = 0 ==> exp(u1) = exp(u0) = 0
        // 2. must: u0 < 0, but too close to 0 <==> x = exp(u0) = 0.99..

        u_n = 1.; // to be  log(xinbta) <==> xinbta = exp(u_n).  1 is impossible

        // The block ends at C's `L_Newton:`; `break 'l_newton` is its goto.
        'l_newton: {
            if u0_maybe
                // qq <= 2 && // <--- "arbitrary"
                // u0 <  t*log_eps_c - log(fabs(rp)) &&
                && u0
                    < (t * LOG_EPS_C
                        - (pp * (1. - qq) * (2. - qq) / (2. * (pp + 2.))).abs().ln())
                        / 2.
            {
                // L_tail_u:
                // MM's one-step correction (cheaper than 1 Newton!)
                rp *= u0.exp(); // = rp*x0
                if rp > -1. {
                    u = u0 - rp.ln_1p() / pp;
                } else {
                    u = u0;
                }
                xinbta = u.exp();
                tx = xinbta;
                use_log_x = true; // or (u < log_q_cut)  ??
                break 'l_newton;
            }

            // y := y_\alpha in AS 64 := Hastings(1955) approximation of qnorm(1 - a) :
            r = (-2. * la).sqrt();
            y = r - (CONST1 + CONST2 * r) / (1. + (CONST3 + CONST4 * r) * r);
            if pp > 1. && qq > 1. {
                // use  Carter(1947), see AS 109, remark '5.'
                r = (y * y - 3.) / 6.;
                let s = 1. / (pp + pp - 1.);
                t = 1. / (qq + qq - 1.);
                let h = 2. / (s + t);
                w = y * (h + r).sqrt() / h - (t - s) * (r + 5. / 6. - 2. / (3. * h));
                if w > 300. {
                    // exp(w+w) is huge or overflows
                    t = w + w + qq.ln() - pp.ln(); // = argument of log1pexp(.)
                    u = // log(xinbta) = - log1p(qq/pp * exp(w+w)) = -log(1 + exp(t))
                        if t <= 18. { -t.exp().ln_1p() } else { -t - (-t).exp() };
                    xinbta = u.exp();
                } else {
                    xinbta = pp / (pp + qq * (w + w).exp());
                    u = // log(xinbta)
                        -(qq / pp * (w + w).exp()).ln_1p();
                }
            } else {
                // use the original AS 64 proposal, Scheffé-Tukey (1944) and Wilson-Hilferty
                r = qq + qq;
                // A slightly more stable version of  t := \chi^2_{alpha} of AS 64
                // t = 1. / (9. * qq); t = r * R_pow_di(1. - t + y * sqrt(t), 3);
                t = 1. / (3. * qq.sqrt()); // = sqrt(t) of formula above
                t = r * pow_di(1. + t * (-t + y), 3); // = \chi^2_{alpha} of AS 64
                let s = 4. * pp + r - 2.; // 4p + 2q - 2 = numerator of new t' = s / t = s / chi^2
                if t == 0. || (t < 0. && s >= t) {
                    // cannot use chisq approx
                    // x0 = 1 - { (1-a)*q*B(p,q) } ^{1/q}    {AS 65}
                    // xinbta = 1. - exp((log(1-a)+ log(qq) + logbeta) / qq);
                    let l1ma = // := log(1-a), directly from alpha (as 'la' above)
                        if swap_tail {
                            dt_log(alpha, lower_tail, log_p)
                        } else {
                            dt_clog(alpha, lower_tail, log_p)
                        };
                    let xx = (l1ma + qq.ln() + logbeta) / qq;
                    if xx <= 0. {
                        xinbta = -xx.exp_m1();
                        u = log1_exp(xx); // =  log(xinbta) = log(1 - exp(...A...))
                    } else {
                        // xx > 0 ==> 1 - e^xx < 0 .. is nonsense
                        // Try MM's one-step correction (or else u0)
                        let r_ = rp * u0.exp();
                        if r_ > -1. {
                            u = u0 - r_.ln_1p() / pp;
                        } else {
                            u = u0;
                        }
                        xinbta = u.exp();
                    }
                } else {
                    t = s / t;
                    if t <= 1. {
                        // cannot use chisq, either
                        u = u0;
                        xinbta = u.exp();
                    } else {
                        // (1+x0)/(1-x0) = t,  solved for x0 :
                        xinbta = 1. - 2. / (t + 1.);
                        u = (-2. / (t + 1.)).ln_1p();
                    }
                }
            }

            // Problem: If initial u is completely wrong, we make a wrong decision here
            if swap_choose
                && ((swap_tail && u >= -log_q_cut.exp()) // ==> "swap back"
                    || (!swap_tail && u >= -(4. * log_q_cut).exp() && pp / qq < 1000.))
            // ==> "swap now"
            {
                // reverse swap (and typically use_log_x)
                swap_tail = !swap_tail;

                if swap_tail {
                    // "swap now" (much less easily)
                    a = dt_civ(alpha, lower_tail, log_p); // needed ?
                    la = dt_clog(alpha, lower_tail, log_p);
                    pp = q;
                    qq = p;
                } else {
                    // "swap back" :
                    a = p_;
                    la = dt_log(alpha, lower_tail, log_p);
                    pp = p;
                    qq = q;
                }
                // we could redo computations above, but this should be stable
                u = log1_exp(u);
                xinbta = u.exp();

                // Careful: "swap now"  should not fail if
                // 1) the above initial xinbta is "completely wrong"
                // 2) The correction step can go outside (u_n > 0 ==>  e^u > 1 is illegal)
                // e.g., for  qbeta(0.2066, 0.143891, 0.05)
            }

            if !use_log_x {
                use_log_x = u < log_q_cut; // <==> xinbta = e^u < exp(log_q_cut)
            }
            let bad_u = !u.is_finite();
            let bad_init = bad_u || xinbta > P_HI;

            tx = xinbta; // keeping "original initial x" (for now)

            if bad_u || u < log_q_cut {
                // e.g. qbeta(0.21, .001, 0.05)
                // try "left border" quickly, i.e.,
                // try at smallest positive number:
                w = pbeta_raw(DBL_VERY_MIN, pp, qq, true, log_p);
                if w > (if log_p { la } else { a }) {
                    // quantile is left of DBL_very_MIN: boundary "convergence"
                    if log_p || (w - a).abs() < (0. - a).abs() {
                        // DBL_very_MIN is better than 0
                        tx = DBL_VERY_MIN;
                        u_n = DBL_LOG_V_MIN; // = log(DBL_very_MIN)
                    } else {
                        tx = 0.;
                        u_n = f64::NEG_INFINITY;
                    }
                    use_log_x = log_p;
                    add_n_step = false;
                    // goto L_return;
                    l_return = true;
                    break 'maybe_swap;
                } else if u < DBL_LOG_V_MIN {
                    u = DBL_LOG_V_MIN; // = log(DBL_very_MIN)
                    xinbta = DBL_VERY_MIN;
                }
            }

            // Sometimes the approximation is negative (and == 0 is also not "ok")
            if bad_init && !(use_log_x && tx > 0.) {
                if u == f64::NEG_INFINITY {
                    u = M_LN2 * f64::MIN_EXP as f64;
                    xinbta = f64::MIN_POSITIVE;
                } else {
                    xinbta = if xinbta > 1.1 {
                        // i.e. "way off"
                        0.5
                    } else if xinbta < P_LO {
                        // otherwise, keep the respective boundary:
                        u.exp()
                    } else {
                        P_HI
                    };
                    if bad_u {
                        u = xinbta.ln();
                    }
                    // otherwise: not changing "potentially better" u than the above
                }
            }
        }

        // L_Newton:
        // ----------------------------------------------------------------
        // Solve for x by a modified Newton-Raphson method, using pbeta_raw()
        r = 1. - pp;
        t = 1. - qq;
        let mut wprev: f64 = 0.;
        let mut prev: f64 = 1.;
        let mut adj: f64 = 1.;

        // The block ends at C's `L_converged:`; `break 'l_converged` is its
        // goto, falling out of the block is "NOT converged".
        'l_converged: {
            if use_log_x {
                // find  log(xinbta) -- work in  u := log(x) scale
                // if(bad_init && tx > 0) xinbta = tx;// may have been better

                for i_pb in 0..1000 {
                    // using log_p == TRUE  unconditionally here
                    // FIXME: if exp(u) = xinbta underflows to 0,
                    //  want different formula pbeta_log(u, ..)
                    y = pbeta_raw(xinbta, pp, qq, /*lower_tail = */ true, true);

                    // w := Newton step size for   L(u) = log F(e^u)  =!= 0;   u := log(x)
                    //   =  (L(.) - la) / L'(.);  L'(u)= (F'(e^u) * e^u ) / F(e^u)
                    //   =  (L(.) - la)*F(.) / {F'(e^u) * e^u } =
                    //   =  (L(.) - la) * e^L(.) * e^{-log F'(e^u) - u}
                    //   =  ( y   - la) * e^{ y - u -log F'(e^u)}
                    // and  -log F'(x)= -log f(x) = - -logbeta + (1-p) log(x) + (1-q) log(1-x)
                    //                            = logbeta + (1-p) u + (1-q) log(1-e^u)
                    w = if y == f64::NEG_INFINITY {
                        // y = -Inf  well possible: we are on log scale!
                        0.
                    } else {
                        (y - la) * (y - u + logbeta + r * u + t * log1_exp(u)).exp()
                    };
                    if !w.is_finite() {
                        // what we should do is ==> go back, get better starting value
                        if n_maybe_swaps <= 1 {
                            continue 'maybe_swap;
                        }
                        // else  was 'break;' ...
                        // but rather give up returning NaN directly as in "normal scale" Newton
                        qb[0] = f64::NAN;
                        qb[1] = f64::NAN;
                        return;
                    }
                    if i_pb >= n_n && w * wprev <= 0. {
                        prev = fmax2(adj.abs(), FPU);
                    }
                    let mut g = 1.;
                    for _i_inn in 0..1000 {
                        adj = g * w;
                        // safe guard (here, from the very beginning)
                        if adj.abs() < prev {
                            u_n = u - adj; // u_{n+1} = u_n - g*w
                            if u_n <= 0. {
                                // <==> 0 <  xinbta := e^u  <= 1
                                if prev <= acu || w.abs() <= acu {
                                    break 'l_converged;
                                }
                                // if (u_n != ML_NEGINF && u_n != 1)
                                break;
                            }
                        }
                        g /= 3.;
                    }
                    // (cancellation in (u_n -u) => may differ from adj:
                    let d = fmin2(adj.abs(), (u_n - u).abs());
                    if d <= 4e-16 * (u_n + u).abs() {
                        break 'l_converged;
                    }
                    u = u_n;
                    xinbta = u.exp();
                    wprev = w;
                } // for(i )
            } else {
                // "normal scale" Newton

                for i_pb in 0..1000 {
                    y = pbeta_raw(xinbta, pp, qq, /*lower_tail = */ true, log_p);
                    // delta{y} :   d_y = y - (log_p ? la : a);

                    // w := Newton step size  (F(.) - a) / F'(.)  or,
                    // --   log: (lF - la) / (F' / F) = exp(lF) * (lF - la) / F'
                    w = if log_p {
                        (y - la) * (y + logbeta + r * xinbta.ln() + t * (-xinbta).ln_1p()).exp()
                    } else {
                        (y - a) * (logbeta + r * xinbta.ln() + t * (-xinbta).ln_1p()).exp()
                    };
                    if !w.is_finite() {
                        // what we should do is ==> go back, get better starting value
                        if n_maybe_swaps <= 2 {
                            if !log_p && n_maybe_swaps == 2 {
                                use_log_x = true; // try now
                            }
                            if !log_p || n_maybe_swaps <= 1 {
                                continue 'maybe_swap;
                            }
                        }
                        // else  was 'break;' ...
                        // but rather give up returning NaN directly as in "normal scale" Newton
                        qb[0] = f64::NAN;
                        qb[1] = f64::NAN;
                        return;
                    }
                    if i_pb >= n_n && w * wprev <= 0. {
                        prev = fmax2(adj.abs(), FPU);
                    }
                    let mut g = 1.;
                    for _i_inn in 0..1000 {
                        adj = g * w;
                        // take full Newton steps at the beginning; only then safe guard:
                        if i_pb < n_n || adj.abs() < prev {
                            tx = xinbta - adj; // x_{n+1} = x_n - g*w
                            if 0. <= tx && tx <= 1. {
                                if prev <= acu || w.abs() <= acu {
                                    break 'l_converged;
                                }
                                if tx != 0. && tx != 1. {
                                    break;
                                }
                            }
                        }
                        g /= 3.;
                    }
                    if (tx - xinbta).abs() <= 4e-16 * (tx + xinbta) {
                        // "<=" : (.) == 0
                        break 'l_converged;
                    }
                    xinbta = tx;
                    if tx == 0. {
                        // "we have lost"
                        break;
                    }
                    wprev = w;
                } // for( i_pb ..)
            } // end{else : normal scale Newton}

            //-- NOT converged: Iteration count --
            warned = true;
            // ML_WARNING(ME_PRECISION, "qbeta");
        }
        break 'maybe_swap;
    }

    if !l_return {
        // L_converged:
        let log_ = log_p || use_log_x;
        if (log_ && y == f64::NEG_INFINITY) || (!log_ && y == 0.) {
            // stuck at left, try if smallest positive number is "better"
            w = pbeta_raw(DBL_VERY_MIN, pp, qq, true, log_);
            if log_ || (w - a).abs() <= (y - a).abs() {
                tx = DBL_VERY_MIN;
                u_n = DBL_LOG_V_MIN; // = log(DBL_very_MIN)
            }
            add_n_step = false; // not trying to do better anymore
        } else if !warned
            && (if log_ {
                (y - la).abs() > 3.
            } else {
                (y - a).abs() > 1e-4
            })
        {
            // MATHLIB_WARNING2("qbeta(a, *) =: x0 with |pbeta(x0,*%s) - alpha|
            // = %.5g is not accurate") unless (log_ && y == ML_NEGINF &&
            // pbeta_raw(DBL_1__eps, pp, qq, TRUE, TRUE) > la + 2): a warning
            // only, dropped.
        }
    }

    // L_return:
    // use  if (use_log_x) u_n else tx   {and u_n is on log scale}
    if give_log_q {
        // {currently not used from R's qbeta()} ==> use_log_x , too
        // if(!use_log_x): MATHLIB_WARNING("... please report!") -- dropped
        let r = log1_exp(u_n);
        if swap_tail {
            qb[0] = r;
            qb[1] = u_n;
        } else {
            qb[0] = u_n;
            qb[1] = r;
        }
    } else {
        if use_log_x {
            if add_n_step {
                // add one last Newton step on original x scale, e.g., for
                // qbeta(2^-98, 0.125, 2^-96)
                if u_n != 1. {
                    // u_n has been computed above
                    xinbta = u_n.exp();
                }
                y = pbeta_raw(xinbta, pp, qq, /*lower_tail = */ true, log_p);
                w = if log_p {
                    (y - la) * (y + logbeta + r * xinbta.ln() + t * (-xinbta).ln_1p()).exp()
                } else {
                    (y - a) * (logbeta + r * xinbta.ln() + t * (-xinbta).ln_1p()).exp()
                };
                if w.is_finite() {
                    tx = xinbta - w;
                } else {
                    // Newton step w  cannot be used
                    tx = xinbta;
                }
            } else {
                if swap_tail {
                    qb[0] = -u_n.exp_m1();
                    qb[1] = u_n.exp();
                } else {
                    qb[0] = u_n.exp();
                    qb[1] = -u_n.exp_m1();
                }
                return;
            }
        }
        if swap_tail {
            qb[0] = 1. - tx;
            qb[1] = tx;
        } else {
            qb[0] = tx;
            qb[1] = 1. - tx;
        }
    }
}
