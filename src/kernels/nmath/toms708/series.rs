//! The expansions `bratio` chooses between (R's toms708.c).

use super::aux::{algdiv, alnrel, bcorr, betaln, esum, exparg, gam1, gamln1, psi, rlog1};

const M_LN_SQRT_2PI: f64 = 0.918938533204672741780329736406;

fn d0(log_p: bool) -> f64 {
    if log_p {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

/// I_x(a,b) for b < min(eps, eps*a) and x <= 0.5.
// The do-while loops end when their condition fails, a NaN included, as in
// C: hence `!(x > tol)`.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(super) fn fpser(a: f64, b: f64, x: f64, eps: f64, log_p: bool) -> f64 {
    let mut ans;
    if log_p {
        ans = a * x.ln();
    } else if a > eps * 0.001 {
        let t = a * x.ln();
        if t < exparg(true) {
            return 0.0;
        }
        ans = t.exp();
    } else {
        ans = 1.0;
    }
    if log_p {
        ans += b.ln() - a.ln();
    } else {
        ans *= b / a;
    }
    let tol = eps / a;
    let mut an = a + 1.0;
    let mut t = x;
    let mut s = t / an;
    loop {
        an += 1.0;
        t *= x;
        let c = t / an;
        s += c;
        // do .. while (fabs(c) > tol): a NaN ends it, as in C
        if !(c.abs() > tol) {
            break;
        }
    }
    if log_p {
        ans += (a * s).ln_1p();
    } else {
        ans *= a * s + 1.0;
    }
    ans
}

/// I_{1-x}(b,a) for a <= min(eps, eps*b), b*x <= 1, x <= 0.5.
// The do-while loops end when their condition fails, a NaN included, as in
// C: hence `!(x > tol)`.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(super) fn apser(a: f64, b: f64, x: f64, eps: f64) -> f64 {
    const G: f64 = 0.577215664901533;
    let bx = b * x;
    let mut t = x - bx;
    let c = if b * eps <= 0.02 {
        x.ln() + psi(b) + G + t
    } else {
        bx.ln() + G + t
    };
    let tol = eps * 5.0 * c.abs();
    let mut j = 1.0;
    let mut s = 0.0;
    loop {
        j += 1.0;
        t *= x - bx / j;
        let aj = t / j;
        s += aj;
        // do .. while (fabs(aj) > tol): a NaN ends it, as in C
        if !(aj.abs() > tol) {
            break;
        }
    }
    -a * (c + s)
}

/// Power series for I_x(a,b) when b <= 1 or b*x <= 0.7.
pub(super) fn bpser(a: f64, b: f64, x: f64, eps: f64, log_p: bool) -> f64 {
    if x == 0.0 {
        return d0(log_p);
    }
    let mut ans;
    let a0 = a.min(b);
    if a0 >= 1.0 {
        let z = a * x.ln() - betaln(a, b);
        ans = if log_p { z - a.ln() } else { z.exp() / a };
    } else {
        let mut b0 = a.max(b);
        if b0 < 8.0 {
            if b0 <= 1.0 {
                if log_p {
                    ans = a * x.ln();
                } else {
                    ans = x.powf(a);
                    if ans == 0.0 {
                        return ans;
                    }
                }
                let apb = a + b;
                let z = if apb > 1.0 {
                    let u = a + b - 1.0;
                    (gam1(u) + 1.0) / apb
                } else {
                    gam1(apb) + 1.0
                };
                let c = (gam1(a) + 1.0) * (gam1(b) + 1.0) / z;
                if log_p {
                    ans += (c * (b / apb)).ln();
                } else {
                    ans *= c * (b / apb);
                }
            } else {
                let mut u = gamln1(a0);
                let m = (b0 - 1.0) as i32;
                if m >= 1 {
                    let mut c = 1.0;
                    for _ in 1..=m {
                        b0 -= 1.0;
                        c *= b0 / (a0 + b0);
                    }
                    u += c.ln();
                }
                let z = a * x.ln() - u;
                b0 -= 1.0;
                let apb = a0 + b0;
                let t = if apb > 1.0 {
                    let u = a0 + b0 - 1.0;
                    (gam1(u) + 1.0) / apb
                } else {
                    gam1(apb) + 1.0
                };
                ans = if log_p {
                    z + (a0 / a).ln() + gam1(b0).ln_1p() - t.ln()
                } else {
                    z.exp() * (a0 / a) * (gam1(b0) + 1.0) / t
                };
            }
        } else {
            let u = gamln1(a0) + algdiv(a0, b0);
            let z = a * x.ln() - u;
            ans = if log_p {
                z + (a0 / a).ln()
            } else {
                a0 / a * z.exp()
            };
        }
    }
    if ans == d0(log_p) || (!log_p && a <= eps * 0.1) {
        return ans;
    }
    let tol = eps / a;
    let mut n = 0.0;
    let mut sum = 0.0;
    let mut c = 1.0;
    loop {
        n += 1.0;
        c *= (0.5 - b / n + 0.5) * x;
        let w = c / (a + n);
        sum += w;
        if !(n < 1e7 && w.abs() > tol) {
            break;
        }
    }
    if log_p {
        if a * sum > -1.0 {
            ans += (a * sum).ln_1p();
        } else {
            ans = f64::NEG_INFINITY;
        }
    } else if a * sum > -1.0 {
        ans *= a * sum + 1.0;
    } else {
        ans = 0.0;
    }
    ans
}

/// I_x(a,b) - I_x(a+n,b), n a positive integer.
#[allow(clippy::too_many_arguments)]
pub(super) fn bup(a: f64, b: f64, x: f64, y: f64, n: i32, eps: f64, give_log: bool) -> f64 {
    let apb = a + b;
    let ap1 = a + 1.0;
    let mu;
    let mut d;
    if n > 1 && a >= 1.0 && apb >= ap1 * 1.1 {
        let mut m = exparg(true).abs() as i32;
        let k = exparg(false) as i32;
        if m > k {
            m = k;
        }
        mu = m;
        d = (-(mu as f64)).exp();
    } else {
        mu = 0;
        d = 1.0;
    }
    let mut ret_val = if give_log {
        brcmp1(mu, a, b, x, y, true) - a.ln()
    } else {
        brcmp1(mu, a, b, x, y, false) / a
    };
    if n == 1 || (give_log && ret_val == f64::NEG_INFINITY) || (!give_log && ret_val == 0.0) {
        return ret_val;
    }
    let nm1 = n - 1;
    let mut w = d;
    let mut k = 0;
    if b > 1.0 {
        if y > 1e-4 {
            let r = (b - 1.0) * x / y - a;
            if r >= 1.0 {
                k = if r < nm1 as f64 { r as i32 } else { nm1 };
            }
        } else {
            k = nm1;
        }
        for i in 0..k {
            let l = i as f64;
            d *= (apb + l) / (ap1 + l) * x;
            w += d;
        }
    }
    for i in k..nm1 {
        let l = i as f64;
        d *= (apb + l) / (ap1 + l) * x;
        w += d;
        if d <= eps * w {
            break;
        }
    }
    if give_log {
        ret_val += w.ln();
    } else {
        ret_val *= w;
    }
    ret_val
}

/// Continued fraction for I_x(a,b) when a, b > 1; lambda = (a+b)y - b.
pub(super) fn bfrac(a: f64, b: f64, x: f64, y: f64, lambda: f64, eps: f64, log_p: bool) -> f64 {
    let brc = brcomp(a, b, x, y, log_p);
    if brc.is_nan() {
        return f64::NAN;
    }
    if !log_p && brc == 0.0 {
        return 0.0;
    }
    let c = lambda + 1.0;
    let c0 = b / a;
    let c1 = 1.0 / a + 1.0;
    let yp1 = y + 1.0;
    let mut n = 0.0;
    let mut p = 1.0;
    let mut s = a + 1.0;
    let mut an = 0.0;
    let mut bn = 1.0;
    let mut anp1 = 1.0;
    let mut bnp1 = c / c1;
    let mut r = c1 / c;
    loop {
        n += 1.0;
        let t = n / a;
        let w = n * (b - n) * x;
        let mut e = a / s;
        let alpha = p * (p + c0) * e * e * (w * x);
        e = (t + 1.0) / (c1 + t + t);
        let beta = n + w / s + e * (c + n * yp1);
        p = t + 1.0;
        s += 2.0;

        let t = alpha * an + beta * anp1;
        an = anp1;
        anp1 = t;
        let t = alpha * bn + beta * bnp1;
        bn = bnp1;
        bnp1 = t;

        let r0 = r;
        r = anp1 / bnp1;
        if (r - r0).abs() <= eps * r {
            break;
        }
        an /= bnp1;
        bn /= bnp1;
        anp1 = r;
        bnp1 = 1.0;
        if n >= 10000.0 {
            // R stops at n_terms = 10000 as well (with a warning)
            break;
        }
    }
    if log_p {
        brc + r.ln()
    } else {
        brc * r
    }
}

fn lnx_lny(x: f64, y: f64) -> (f64, f64) {
    if x <= 0.375 {
        (x.ln(), alnrel(-x))
    } else if y > 0.375 {
        (x.ln(), y.ln())
    } else {
        (alnrel(-y), y.ln())
    }
}

/// x^a y^b / Beta(a,b).
pub(super) fn brcomp(a: f64, b: f64, x: f64, y: f64, log_p: bool) -> f64 {
    const CONST: f64 = 0.398942280401433;
    if x == 0.0 || y == 0.0 {
        return d0(log_p);
    }
    let a0 = a.min(b);
    if a0 < 8.0 {
        let (lnx, lny) = lnx_lny(x, y);
        let mut z = a * lnx + b * lny;
        if a0 >= 1.0 {
            z -= betaln(a, b);
            return if log_p { z } else { z.exp() };
        }
        let mut b0 = a.max(b);
        if b0 >= 8.0 {
            let u = gamln1(a0) + algdiv(a0, b0);
            return if log_p {
                a0.ln() + (z - u)
            } else {
                a0 * (z - u).exp()
            };
        }
        if b0 <= 1.0 {
            let e_z = if log_p { z } else { z.exp() };
            if !log_p && e_z == 0.0 {
                return 0.0;
            }
            let apb = a + b;
            let zz = if apb > 1.0 {
                let u = a + b - 1.0;
                (gam1(u) + 1.0) / apb
            } else {
                gam1(apb) + 1.0
            };
            let c = (gam1(a) + 1.0) * (gam1(b) + 1.0) / zz;
            return if log_p {
                e_z + (a0 * c).ln() - (a0 / b0).ln_1p()
            } else {
                e_z * (a0 * c) / (a0 / b0 + 1.0)
            };
        }
        let mut u = gamln1(a0);
        let n = (b0 - 1.0) as i32;
        if n >= 1 {
            let mut c = 1.0;
            for _ in 1..=n {
                b0 -= 1.0;
                c *= b0 / (a0 + b0);
            }
            u += c.ln();
        }
        z -= u;
        b0 -= 1.0;
        let apb = a0 + b0;
        let t = if apb > 1.0 {
            let u = a0 + b0 - 1.0;
            (gam1(u) + 1.0) / apb
        } else {
            gam1(apb) + 1.0
        };
        if log_p {
            a0.ln() + z + gam1(b0).ln_1p() - t.ln()
        } else {
            a0 * z.exp() * (gam1(b0) + 1.0) / t
        }
    } else {
        let (h, x0, y0, lambda);
        if a <= b {
            h = a / b;
            x0 = h / (h + 1.0);
            y0 = 1.0 / (h + 1.0);
            lambda = a - (a + b) * x;
        } else {
            h = b / a;
            x0 = 1.0 / (h + 1.0);
            y0 = h / (h + 1.0);
            lambda = (a + b) * y - b;
        }
        let mut e = -lambda / a;
        let u = if e.abs() > 0.6 {
            e - (x / x0).ln()
        } else {
            rlog1(e)
        };
        e = lambda / b;
        let v = if e.abs() <= 0.6 {
            rlog1(e)
        } else {
            e - (y / y0).ln()
        };
        let z = if log_p {
            -(a * u + b * v)
        } else {
            (-(a * u + b * v)).exp()
        };
        if log_p {
            -M_LN_SQRT_2PI + 0.5 * (b * x0).ln() + z - bcorr(a, b)
        } else {
            CONST * (b * x0).sqrt() * z * (-bcorr(a, b)).exp()
        }
    }
}

/// exp(mu) x^a y^b / Beta(a,b).
fn brcmp1(mu: i32, a: f64, b: f64, x: f64, y: f64, give_log: bool) -> f64 {
    const CONST: f64 = 0.398942280401433;
    let a0 = a.min(b);
    if a0 < 8.0 {
        let (lnx, lny) = lnx_lny(x, y);
        let mut z = a * lnx + b * lny;
        if a0 >= 1.0 {
            z -= betaln(a, b);
            return esum(mu, z, give_log);
        }
        let mut b0 = a.max(b);
        if b0 >= 8.0 {
            let u = gamln1(a0) + algdiv(a0, b0);
            return if give_log {
                a0.ln() + esum(mu, z - u, true)
            } else {
                a0 * esum(mu, z - u, false)
            };
        } else if b0 <= 1.0 {
            let ans = esum(mu, z, give_log);
            if ans == (if give_log { f64::NEG_INFINITY } else { 0.0 }) {
                return ans;
            }
            let apb = a + b;
            let zz = if apb > 1.0 {
                let u = a + b - 1.0;
                (gam1(u) + 1.0) / apb
            } else {
                gam1(apb) + 1.0
            };
            let c = if give_log {
                gam1(a).ln_1p() + gam1(b).ln_1p() - zz.ln()
            } else {
                (gam1(a) + 1.0) * (gam1(b) + 1.0) / zz
            };
            return if give_log {
                ans + a0.ln() + c - (a0 / b0).ln_1p()
            } else {
                ans * (a0 * c) / (a0 / b0 + 1.0)
            };
        }
        let mut u = gamln1(a0);
        let n = (b0 - 1.0) as i32;
        if n >= 1 {
            let mut c = 1.0;
            for _ in 1..=n {
                b0 -= 1.0;
                c *= b0 / (a0 + b0);
            }
            u += c.ln();
        }
        z -= u;
        b0 -= 1.0;
        let apb = a0 + b0;
        let t = if apb > 1.0 {
            (gam1(apb - 1.0) + 1.0) / apb
        } else {
            gam1(apb) + 1.0
        };
        if give_log {
            a0.ln() + esum(mu, z, true) + gam1(b0).ln_1p() - t.ln()
        } else {
            a0 * esum(mu, z, false) * (gam1(b0) + 1.0) / t
        }
    } else {
        let (h, x0, y0, lambda);
        if a > b {
            h = b / a;
            x0 = 1.0 / (h + 1.0);
            y0 = h / (h + 1.0);
            lambda = (a + b) * y - b;
        } else {
            h = a / b;
            x0 = h / (h + 1.0);
            y0 = 1.0 / (h + 1.0);
            lambda = a - (a + b) * x;
        }
        let lx0 = -(b / a).ln_1p();
        let mut e = -lambda / a;
        let u = if e.abs() > 0.6 {
            e - (x / x0).ln()
        } else {
            rlog1(e)
        };
        e = lambda / b;
        let v = if e.abs() > 0.6 {
            e - (y / y0).ln()
        } else {
            rlog1(e)
        };
        let z = esum(mu, -(a * u + b * v), give_log);
        if give_log {
            CONST.ln() + (b.ln() + lx0) / 2.0 + z - bcorr(a, b)
        } else {
            CONST * (b * x0).sqrt() * z * (-bcorr(a, b)).exp()
        }
    }
}
