//! R's toms708.c: the incomplete beta ratio I_x(a, b) (`bratio`), ACM TOMS
//! 708 by Didonato & Morris with R Core's log-scale additions.

// TOMS 708's truncated constants (e.g. ln 2 = .69314718055995) are part
// of its error analysis: kept as published, not replaced by exact ones.
#![allow(clippy::approx_constant)]

mod asymptotic;
mod aux;
mod series;

use self::asymptotic::{basym, bgrat};
use self::aux::rexpm1;
use self::series::{apser, bfrac, bpser, bup, fpser};

/// R_Log1_Exp as toms708.c redefines it (through `rexpm1`).
fn log1_exp(x: f64) -> f64 {
    if x > -std::f64::consts::LN_2 {
        (-rexpm1(x)).ln()
    } else {
        (-x.exp()).ln_1p()
    }
}

/// Returns (w, w1, ierr): w = I_x(a,b), w1 = 1 - w (log scale if `log_p`).
pub fn bratio(a: f64, b: f64, x: f64, y: f64, log_p: bool) -> (f64, f64, i32) {
    let d0 = if log_p { f64::NEG_INFINITY } else { 0.0 };
    let d1 = if log_p { 0.0 } else { 1.0 };
    let mut eps = f64::EPSILON;
    if x.is_nan() || y.is_nan() || a.is_nan() || b.is_nan() {
        return (d0, d0, 9);
    }
    if a < 0.0 || b < 0.0 {
        return (d0, d0, 1);
    }
    if a == 0.0 && b == 0.0 {
        return (d0, d0, 2);
    }
    if !(0.0..=1.0).contains(&x) {
        return (d0, d0, 3);
    }
    if !(0.0..=1.0).contains(&y) {
        return (d0, d0, 4);
    }
    let z = x + y - 0.5 - 0.5;
    if z.abs() > eps * 3.0 {
        return (d0, d0, 5);
    }
    if x == 0.0 {
        if a == 0.0 {
            return (d0, d0, 6);
        }
        return (d0, d1, 0);
    }
    if y == 0.0 {
        if b == 0.0 {
            return (d0, d0, 7);
        }
        return (d1, d0, 0);
    }
    if a == 0.0 {
        return (d1, d0, 0);
    }
    if b == 0.0 {
        return (d0, d1, 0);
    }

    eps = eps.max(1e-15);
    let a_lt_b = a < b;
    if (if a_lt_b { b } else { a }) < eps * 0.001 {
        return if log_p {
            if a_lt_b {
                ((-a / (a + b)).ln_1p(), (a / (a + b)).ln(), 0)
            } else {
                ((b / (a + b)).ln(), (-b / (a + b)).ln_1p(), 0)
            }
        } else {
            (b / (a + b), a / (a + b), 0)
        };
    }

    let mut ierr = 0;
    let (mut a0, mut b0, x0, y0);
    let do_swap;
    let mut w;
    let mut w1;

    // Which evaluation the Fortran's gotos lead to.
    enum End {
        FromW,
        FromW1,
        FromW1Log,
    }
    let end: End;

    if a.min(b) <= 1.0 {
        do_swap = x > 0.5;
        if do_swap {
            a0 = b;
            x0 = y;
            b0 = a;
            y0 = x;
        } else {
            a0 = a;
            x0 = x;
            b0 = b;
            y0 = y;
        }
        if b0 < eps.min(eps * a0) {
            w = fpser(a0, b0, x0, eps, log_p);
            w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
            return finish(w, w1, do_swap, ierr);
        }
        if a0 < eps.min(eps * b0) && b0 * x0 <= 1.0 {
            w1 = apser(a0, b0, x0, eps);
            let (w, w1) = end_from_w1(w1, log_p);
            return finish(w, w1, do_swap, ierr);
        }
        #[derive(PartialEq)]
        enum Next {
            WBpser,
            W1Bpser,
            Bup,
            L131,
        }
        let next = if a0.max(b0) > 1.0 {
            if b0 <= 1.0 {
                Next::WBpser
            } else if x0 >= 0.29 {
                Next::W1Bpser
            } else if x0 < 0.1 && (x0 * b0).powf(a0) <= 0.7 {
                Next::WBpser
            } else if b0 > 15.0 {
                Next::L131
            } else {
                Next::Bup
            }
        } else if a0 >= 0.2_f64.min(b0) || x0.powf(a0) <= 0.9 {
            Next::WBpser
        } else if x0 >= 0.3 {
            Next::W1Bpser
        } else {
            Next::Bup
        };
        match next {
            Next::WBpser => {
                w = bpser(a0, b0, x0, eps, log_p);
                w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
                return finish(w, w1, do_swap, ierr);
            }
            Next::W1Bpser => {
                w1 = bpser(b0, a0, y0, eps, log_p);
                w = if log_p { log1_exp(w1) } else { 0.5 - w1 + 0.5 };
                return finish(w, w1, do_swap, ierr);
            }
            Next::Bup | Next::L131 => {}
        }
        let n = 20;
        let did_bup = next == Next::Bup;
        if did_bup {
            w1 = bup(b0, a0, y0, x0, n, eps, false);
            b0 += n as f64;
        } else {
            w1 = 0.0;
        }
        let mut ierr1 = 0;
        bgrat(b0, a0, y0, x0, &mut w1, 15.0 * eps, &mut ierr1, false);
        if w1 == 0.0 || (0.0 < w1 && w1 < f64::MIN_POSITIVE) {
            if did_bup {
                w1 = bup(b0 - n as f64, a0, y0, x0, n, eps, true);
            } else {
                w1 = f64::NEG_INFINITY;
            }
            bgrat(b0, a0, y0, x0, &mut w1, 15.0 * eps, &mut ierr1, true);
            if ierr1 != 0 {
                ierr = 10 + ierr1;
            }
            end = End::FromW1Log;
            w = 0.0;
        } else {
            if ierr1 != 0 {
                ierr = 10 + ierr1;
            }
            end = End::FromW1;
            w = 0.0;
        }
    } else {
        let mut lambda = if a > b {
            (a + b) * y - b
        } else {
            a - (a + b) * x
        };
        do_swap = lambda < 0.0;
        if do_swap {
            lambda = -lambda;
            a0 = b;
            x0 = y;
            b0 = a;
            y0 = x;
        } else {
            a0 = a;
            x0 = x;
            b0 = b;
            y0 = y;
        }
        enum Next {
            WBpser,
            L140,
            Bfrac,
            Basym,
        }
        let next = if b0 < 40.0 {
            if b0 * x0 <= 0.7 || (log_p && lambda > 650.0) {
                Next::WBpser
            } else {
                Next::L140
            }
        } else if a0 > b0 {
            if b0 <= 100.0 || lambda > b0 * 0.03 {
                Next::Bfrac
            } else {
                Next::Basym
            }
        } else if a0 <= 100.0 || lambda > a0 * 0.03 {
            Next::Bfrac
        } else {
            Next::Basym
        };
        match next {
            Next::Basym => {
                w = basym(a0, b0, lambda, eps * 100.0, log_p);
                w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
                return finish(w, w1, do_swap, ierr);
            }
            Next::Bfrac => {
                w = bfrac(a0, b0, x0, y0, lambda, eps * 15.0, log_p);
                w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
                return finish(w, w1, do_swap, ierr);
            }
            Next::WBpser => {
                w = bpser(a0, b0, x0, eps, log_p);
                w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
                return finish(w, w1, do_swap, ierr);
            }
            Next::L140 => {}
        }
        // L140: b0 := fractional part of b0, in (0, 1]
        let mut n = b0 as i32;
        b0 -= n as f64;
        if b0 == 0.0 {
            n -= 1;
            b0 = 1.0;
        }
        w = bup(b0, a0, y0, x0, n, eps, false);
        if w < f64::MIN_POSITIVE && log_p {
            b0 += n as f64;
            w = bpser(a0, b0, x0, eps, log_p);
            w1 = if log_p { log1_exp(w) } else { 0.5 - w + 0.5 };
            return finish(w, w1, do_swap, ierr);
        }
        if x0 <= 0.7 {
            w += bpser(a0, b0, x0, eps, false);
        } else {
            if a0 <= 15.0 {
                let n = 20;
                w += bup(a0, b0, x0, y0, n, eps, false);
                a0 += n as f64;
            }
            let mut ierr1 = 0;
            bgrat(a0, b0, x0, y0, &mut w, 15.0 * eps, &mut ierr1, false);
            if ierr1 != 0 {
                ierr = 10 + ierr1;
            }
        }
        end = End::FromW;
        w1 = 0.0;
    }

    match end {
        End::FromW => {
            if log_p {
                w1 = (-w).ln_1p();
                w = w.ln();
            } else {
                w1 = 0.5 - w + 0.5;
            }
        }
        End::FromW1 => {
            let r = end_from_w1(w1, log_p);
            w = r.0;
            w1 = r.1;
        }
        End::FromW1Log => {
            if log_p {
                w = log1_exp(w1);
            } else {
                w = -w1.exp_m1();
                w1 = w1.exp();
            }
        }
    }
    finish(w, w1, do_swap, ierr)
}

fn end_from_w1(w1: f64, log_p: bool) -> (f64, f64) {
    if log_p {
        ((-w1).ln_1p(), w1.ln())
    } else {
        (0.5 - w1 + 0.5, w1)
    }
}

fn finish(w: f64, w1: f64, do_swap: bool, ierr: i32) -> (f64, f64, i32) {
    if do_swap {
        (w1, w, ierr)
    } else {
        (w, w1, ierr)
    }
}
