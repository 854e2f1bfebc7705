//! R's `digamma` and `trigamma` (nmath/polygamma.c): Amos' `dpsifn`
//! (ACM TOMS 610), which sums the asymptotic series of the scaled
//! derivatives of psi after recurring x up past `xmin`, and reflects
//! arguments at or below zero. The port keeps the C routine's shape,
//! labels included, so every operation happens in R's order.

use std::f64::consts::PI;

/// `n_max`: the largest derivative and the longest backward recursion.
const N_MAX: usize = 100;

/// Bernoulli numbers, as polygamma.c lists them.
const BVALUES: [f64; 22] = [
    1.00000000000000000e+00,
    -5.00000000000000000e-01,
    1.66666666666666667e-01,
    -3.33333333333333333e-02,
    2.38095238095238095e-02,
    -3.33333333333333333e-02,
    7.57575757575757576e-02,
    -2.53113553113553114e-01,
    1.16666666666666667e+00,
    -7.09215686274509804e+00,
    5.49711779448621554e+01,
    -5.29124242424242424e+02,
    6.19212318840579710e+03,
    -8.65802531135531136e+04,
    1.42551716666666667e+06,
    -2.72982310678160920e+07,
    6.01580873900642368e+08,
    -1.51163157670921569e+10,
    4.29614643061166667e+11,
    -1.37116552050883328e+13,
    4.88332318973593167e+14,
    -1.92965793419400681e+16,
];

/// R's `R_pow_di` for a finite x: x to a whole power by repeated squaring.
fn pow_di(mut x: f64, mut n: i32) -> f64 {
    let mut xn = 1.0;
    if x.is_nan() {
        return x;
    }
    if n != 0 {
        if !x.is_finite() {
            return x.powf(f64::from(n));
        }
        let negative = n < 0;
        if negative {
            n = -n;
        }
        loop {
            if n & 1 != 0 {
                xn *= x;
            }
            n >>= 1;
            if n == 0 {
                break;
            }
            x *= x;
        }
        if negative {
            xn = 1.0 / xn;
        }
    }
    xn
}

/// R's `d_n_cot`: the n-th derivative of cot(x), for n in 0..=5.
fn d_n_cot(x: f64, n: i32) -> f64 {
    match n {
        0 => x.cos() / x.sin(),
        1 => -1.0 / pow_di(x.sin(), 2),
        2 => 2.0 * x.cos() / pow_di(x.sin(), 3),
        3 => {
            let sin2 = pow_di(x.sin(), 2);
            -2.0 * (3.0 - 2.0 * sin2) / pow_di(sin2, 2)
        }
        4 => {
            let co = x.cos();
            8.0 * co * (pow_di(co, 2) + 2.0) / pow_di(x.sin(), 5)
        }
        5 => {
            let co2 = pow_di(x.cos(), 2);
            -8.0 * (2.0 * pow_di(co2, 2) + 11.0 * co2 + 2.0) / pow_di(x.sin(), 6)
        }
        _ => f64::NAN,
    }
}

/// Where `dpsifn`'s C jumps after the asymptotic series.
enum Tail {
    /// `L20`: the backward recursion summed term by term.
    L20,
    /// `L30`: psi from the sum.
    L30,
    Done,
}

/// R's `dpsifn(x, n, kode, m, ans, nz, ierr)`: `ans[j]` is
/// `(-1)^(k+1) / gamma(k+1) * psi(k, x)` for k = n + j, j < m; `ierr`
/// non-zero when it could not be computed.
#[allow(clippy::too_many_arguments)]
pub fn dpsifn(x: f64, n: i32, kode: i32, m: usize, ans: &mut [f64], nz: &mut i32, ierr: &mut i32) {
    let mut x = x;
    *ierr = 0;
    *nz = 0;
    if n < 0 || !(1..=2).contains(&kode) || m < 1 || ans.len() < m {
        *ierr = 1;
        return;
    }
    if x <= 0.0 {
        // Abramowitz & Stegun 6.4.7, the reflection formula:
        // psi(n, x) = (-1)^n psi(n, 1-x) - pi^{n+1} d_n(pi*x).
        if x == x.round() {
            // A non-positive integer: +Inf or NaN as n is odd or even.
            for (j, a) in ans.iter_mut().enumerate().take(m) {
                *a = if (j as i32 + n) % 2 != 0 {
                    f64::INFINITY
                } else {
                    f64::NAN
                };
            }
            return;
        }
        dpsifn(1.0 - x, n, 1, m, ans, nz, ierr);
        if n > 5 {
            // Not implemented for x < 0 and n >= 6.
            *ierr = 4;
            return;
        }
        x *= PI;
        let (mut t1, mut t2, mut s) = (1.0, 1.0, 1.0);
        let mut k: i32 = 0;
        let mut j: i32 = k - n;
        while j < m as i32 {
            // k == n + j, s == (-1)^k
            t1 *= PI;
            if k >= 2 {
                t2 *= f64::from(k);
            }
            if j >= 0 {
                let a = &mut ans[j as usize];
                *a = s * (*a + t1 / t2 * d_n_cot(x, k));
            }
            k += 1;
            j += 1;
            s = -s;
        }
        return;
    }
    let xln = x.ln();
    if kode == 1 && m == 1 {
        // R's case, for very large x.
        let lrg = 1.0 / (2.0 * f64::EPSILON);
        if n == 0 && x * xln > lrg {
            ans[0] = -xln;
            return;
        } else if n >= 1 && x > f64::from(n) * lrg {
            ans[0] = (-f64::from(n) * xln).exp() / f64::from(n);
            return;
        }
    }
    // imin2(-i1mach(15), i1mach(16)): the smaller of -DBL_MIN_EXP (1021)
    // and DBL_MAX_EXP (1024).
    let mut nx: i32 = 1021;
    let r1m5 = std::f64::consts::LOG10_2;
    let r1m4 = f64::EPSILON * 0.5;
    let wdtol = r1m4.max(0.5e-18);
    // The approximate exponential over- and underflow limit.
    let elim = 2.302 * (f64::from(nx) * r1m5 - 3.0);
    let rln = (r1m5 * 53.0).min(18.06);
    let mut fln = rln.max(3.0) - 3.0;
    let yint = 3.50 + 0.40 * fln;
    let slope = 0.21 + fln * (0.0006038 * fln + 0.008677);

    let mut trm = [0.0f64; 23];
    let mut trmr = [0.0f64; N_MAX + 1];
    let mut mm = m;
    let (mut nn, mut fn_): (i32, i32);
    let mut t: f64;
    let (mut xdmy, mut xdmln, mut xinc) = (x, xln, 0.0);
    // The loop ends by `break` into the series for large x, or into
    // `L10`, the asymptotic expansion.
    let l10 = loop {
        nn = n + mm as i32 - 1;
        fn_ = nn;
        t = f64::from(fn_ + 1) * xln;
        // Overflow and underflow test for small and large x.
        if t.abs() > elim {
            if t <= 0.0 {
                *ierr = 2;
                return;
            }
        } else {
            if x < wdtol {
                ans[0] = pow_di(x, -n - 1);
                for k in 1..mm {
                    ans[k] = ans[k - 1] / x;
                }
                if n == 0 && kode == 2 {
                    ans[0] += xln;
                }
                return;
            }
            // xmin and the number of terms of the series, fln + 1.
            let mut xm = yint + slope * f64::from(fn_);
            let mx = xm as i32 + 1;
            let xmin = f64::from(mx);
            if n != 0 {
                xm = -2.302 * rln - 0.0f64.min(xln);
                let arg = 0.0f64.min(xm / f64::from(n));
                let eps = arg.exp();
                xm = if arg.abs() < 1.0e-3 { -arg } else { 1.0 - eps };
                fln = x * xm / eps;
                xm = xmin - x;
                if xm > 7.0 && fln < 15.0 {
                    break false;
                }
            }
            xdmy = x;
            xdmln = xln;
            xinc = 0.0;
            if x < xmin {
                nx = x as i32;
                xinc = xmin - f64::from(nx);
                xdmy = x + xinc;
                xdmln = xdmy.ln();
            }
            // w(n+mm-1, x) by the asymptotic expansion.
            t = f64::from(fn_) * xdmln;
            let t1 = xdmln + xdmln;
            let t2 = t + xdmln;
            let tk = t.abs().max(t1.abs().max(t2.abs()));
            if tk <= elim {
                // For all but large x.
                break true;
            }
        }
        // nz counts the underflows.
        *nz += 1;
        mm -= 1;
        ans[mm] = 0.0;
        if mm == 0 {
            return;
        }
    };
    if !l10 {
        nn = fln as i32 + 1;
        let np = n + 1;
        let t1 = f64::from(n + 1) * xln;
        let mut t = (-t1).exp();
        let mut s = t;
        let mut den = x;
        for tr in trm.iter_mut().take(nn.max(0) as usize + 1).skip(1) {
            den += 1.0;
            *tr = den.powf(f64::from(-np));
            s += *tr;
        }
        ans[0] = s;
        if n == 0 && kode == 2 {
            ans[0] = s + xln;
        }
        if mm != 1 {
            // Higher derivatives, j > n.
            let tol = wdtol / 5.0;
            for a in ans.iter_mut().take(mm).skip(1) {
                t /= x;
                s = t;
                let tols = t * tol;
                den = x;
                for tr in trm.iter_mut().take(nn.max(0) as usize + 1).skip(1) {
                    den += 1.0;
                    *tr /= den;
                    s += *tr;
                    if *tr < tols {
                        break;
                    }
                }
                *a = s;
            }
        }
        return;
    }
    // L10:
    let mut tss = (-t).exp();
    let tt = 0.5 / xdmy;
    let mut t1 = tt;
    let tst = wdtol * tt;
    if nn != 0 {
        t1 = tt + 1.0 / f64::from(fn_);
    }
    let rxsq = 1.0 / (xdmy * xdmy);
    let ta = 0.5 * rxsq;
    t = f64::from(fn_ + 1) * ta;
    let mut s = t * BVALUES[2];
    if s.abs() >= tst {
        let mut tk = 2.0;
        for k in 4..=22 {
            t = t
                * ((tk + f64::from(fn_) + 1.0) / (tk + 1.0))
                * ((tk + f64::from(fn_)) / (tk + 2.0))
                * rxsq;
            trm[k] = t * BVALUES[k - 1];
            if trm[k].abs() < tst {
                break;
            }
            s += trm[k];
            tk += 2.0;
        }
    }
    s = (s + t1) * tss;
    let tail = 'l10: {
        if xinc != 0.0 {
            // Backward recurrence from xdmy to x.
            nx = xinc as i32;
            let np = nn + 1;
            if nx as usize > N_MAX {
                *ierr = 3;
                return;
            }
            if nn == 0 {
                break 'l10 Tail::L20;
            }
            let mut xm = xinc - 1.0;
            let mut fx = x + xm;
            // This loop should not be changed: fx is accurate when x is small.
            for tr in trmr.iter_mut().take(nx as usize + 1).skip(1) {
                *tr = fx.powf(f64::from(-np));
                s += *tr;
                xm -= 1.0;
                fx = x + xm;
            }
        }
        ans[mm - 1] = s;
        if fn_ == 0 {
            break 'l10 Tail::L30;
        }
        // Lower derivatives, j < n + mm - 1.
        for j in 2..=mm {
            fn_ -= 1;
            tss *= xdmy;
            t1 = tt;
            if fn_ != 0 {
                t1 = tt + 1.0 / f64::from(fn_);
            }
            t = f64::from(fn_ + 1) * ta;
            s = t * BVALUES[2];
            if s.abs() >= tst {
                let mut tk = f64::from(4 + fn_);
                for tr in trm.iter_mut().take(23).skip(4) {
                    *tr = *tr * f64::from(fn_ + 1) / tk;
                    if tr.abs() < tst {
                        break;
                    }
                    s += *tr;
                    tk += 2.0;
                }
            }
            s = (s + t1) * tss;
            if xinc != 0.0 {
                if fn_ == 0 {
                    break 'l10 Tail::L20;
                }
                let mut xm = xinc - 1.0;
                let mut fx = x + xm;
                for tr in trmr.iter_mut().take(nx as usize + 1).skip(1) {
                    *tr *= fx;
                    s += *tr;
                    xm -= 1.0;
                    fx = x + xm;
                }
            }
            ans[mm - j] = s;
            if fn_ == 0 {
                break 'l10 Tail::L30;
            }
        }
        Tail::Done
    };
    match tail {
        Tail::Done => return,
        Tail::L20 => {
            // Avoids disastrous cancellation, PR#13714.
            for i in 1..=nx {
                s += 1.0 / (x + f64::from(nx - i));
            }
        }
        Tail::L30 => {}
    }
    // L30:
    if kode != 2 {
        ans[0] = s - xdmln;
    } else if xdmy != x {
        let xq = xdmy / x;
        ans[0] = s - xq.ln();
    }
}

/// R's `digamma`: psi(x), the derivative of log gamma.
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let mut ans = [0.0];
    let (mut nz, mut ierr) = (0, 0);
    dpsifn(x, 0, 1, 1, &mut ans, &mut nz, &mut ierr);
    if ierr != 0 {
        return f64::NAN;
    }
    -ans[0]
}

/// R's `trigamma`: psi'(x).
pub fn trigamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let mut ans = [0.0];
    let (mut nz, mut ierr) = (0, 0);
    dpsifn(x, 1, 1, 1, &mut ans, &mut nz, &mut ierr);
    if ierr != 0 {
        return f64::NAN;
    }
    ans[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // -Euler's constant, and pi^2/6.
        assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-15);
        assert!((trigamma(1.0) - PI * PI / 6.0).abs() < 1e-15);
        assert!(digamma(0.0).is_nan());
        assert_eq!(trigamma(-2.0), f64::INFINITY);
        assert_eq!(digamma(f64::INFINITY), f64::INFINITY);
        assert_eq!(trigamma(f64::INFINITY), 0.0);
    }
}
