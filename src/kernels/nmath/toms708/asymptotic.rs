//! TOMS 708's asymptotic expansions: `bgrat` (large a, small b, with its
//! incomplete-gamma helper `grat_r`) and `basym` (large a and b).

use super::aux::{algdiv, alnrel, bcorr, erf, erfc1, gam1, rexpm1, rlog1};

const M_SQRT_PI: f64 = 1.772453850905516027298167483341;

fn logspace_add(logx: f64, logy: f64) -> f64 {
    logx.max(logy) + (-(logx - logy).abs()).exp().ln_1p()
}

/// w := w + I_x(a,b) by the asymptotic expansion for a >= 15, b <= 1
/// (w on the log scale when `log_w`).
#[allow(clippy::too_many_arguments)]
pub(super) fn bgrat(
    a: f64,
    b: f64,
    x: f64,
    y: f64,
    w: &mut f64,
    eps: f64,
    ierr: &mut i32,
    log_w: bool,
) {
    const N_TERMS: usize = 30;
    let mut c = [0.0; N_TERMS];
    let mut d = [0.0; N_TERMS];
    let bm1 = b - 0.5 - 0.5;
    let nu = a + bm1 * 0.5;
    let lnx = if y > 0.375 { x.ln() } else { alnrel(-y) };
    let z = -nu * lnx;
    if b * z == 0.0 {
        *ierr = 1;
        return;
    }
    let log_r = b.ln() + gam1(b).ln_1p() + b * z.ln() + nu * lnx;
    let log_u = log_r - (algdiv(b, a) + b * nu.ln());
    let u = log_u.exp();
    if log_u == f64::NEG_INFINITY {
        *ierr = 2;
        return;
    }
    let u_0 = u == 0.0;
    let l = if log_w {
        if *w == f64::NEG_INFINITY {
            0.0
        } else {
            (*w - log_u).exp()
        }
    } else if *w == 0.0 {
        0.0
    } else {
        (w.ln() - log_u).exp()
    };
    let q_r = grat_r(b, z, log_r, eps);
    let v = 0.25 / (nu * nu);
    let t2 = lnx * 0.25 * lnx;
    let mut j = q_r;
    let mut sum = j;
    let mut t = 1.0;
    let mut cn = 1.0;
    let mut n2 = 0.0;
    for n in 1..=N_TERMS {
        let bp2n = b + n2;
        j = (bp2n * (bp2n + 1.0) * j + (z + bp2n + 1.0) * t) * v;
        n2 += 2.0;
        t *= t2;
        cn /= n2 * (n2 + 1.0);
        let nm1 = n - 1;
        c[nm1] = cn;
        let mut s = 0.0;
        if n > 1 {
            let mut coef = b - n as f64;
            for i in 1..=nm1 {
                s += coef * c[i - 1] * d[nm1 - i];
                coef += b;
            }
        }
        d[nm1] = bm1 * cn + s / n as f64;
        let dj = d[nm1] * j;
        sum += dj;
        if sum <= 0.0 {
            *ierr = 3;
            return;
        }
        if dj.abs() <= eps * (sum + l) {
            *ierr = 0;
            break;
        } else if n == N_TERMS {
            *ierr = 4;
        }
    }
    if log_w {
        *w = logspace_add(*w, log_u + sum.ln());
    } else {
        *w += if u_0 {
            (log_u + sum.ln()).exp()
        } else {
            u * sum
        };
    }
}

/// Q(a,x) / r with r = e^-x x^a / Gamma(a) = exp(log_r); a <= 1.
// The do-while loops end when their condition fails, a NaN included, as in
// C: hence `!(x > tol)`.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn grat_r(a: f64, x: f64, log_r: f64, eps: f64) -> f64 {
    if a * x == 0.0 {
        if x <= a {
            (-log_r).exp()
        } else {
            0.0
        }
    } else if a == 0.5 {
        if x < 0.25 {
            let p = erf(x.sqrt());
            (0.5 - p + 0.5) * (-log_r).exp()
        } else {
            let sx = x.sqrt();
            erfc1(true, sx) / sx * M_SQRT_PI
        }
    } else if x < 1.1 {
        let mut an = 3.0;
        let mut c = x;
        let mut sum = x / (a + 3.0);
        let tol = eps * 0.1 / (a + 1.0);
        loop {
            an += 1.0;
            c *= -(x / an);
            let t = c / (a + an);
            sum += t;
            // do .. while (fabs(t) > tol): a NaN ends it, as in C
            if !(t.abs() > tol) {
                break;
            }
        }
        let j = a * x * ((sum / 6.0 - 0.5 / (a + 2.0)) * x + 1.0 / (a + 1.0));
        let z = a * x.ln();
        let h = gam1(a);
        let g = h + 1.0;
        if (x >= 0.25 && (a < x / 2.59)) || (z > -0.13394) {
            let l = rexpm1(z);
            let q = ((l + 0.5 + 0.5) * j - l) * g - h;
            if q <= 0.0 {
                0.0
            } else {
                q * (-log_r).exp()
            }
        } else {
            let p = z.exp() * g * (0.5 - j + 0.5);
            (0.5 - p + 0.5) * (-log_r).exp()
        }
    } else {
        let mut a2n_1 = 1.0;
        let mut a2n = 1.0;
        let mut b2n_1 = x;
        let mut b2n = x + (1.0 - a);
        let mut c = 1.0;
        loop {
            a2n_1 = x * a2n + c * a2n_1;
            b2n_1 = x * b2n + c * b2n_1;
            let am0 = a2n_1 / b2n_1;
            c += 1.0;
            let c_a = c - a;
            a2n = a2n_1 + c_a * a2n;
            b2n = b2n_1 + c_a * b2n;
            let an0 = a2n / b2n;
            // do .. while (fabs(an0 - am0) >= eps * an0): a NaN ends it, as
            // in C
            if !((an0 - am0).abs() >= eps * an0) {
                return an0;
            }
        }
    }
}

/// Asymptotic expansion of I_x(a,b) for large a and b.
pub(super) fn basym(a: f64, b: f64, lambda: f64, eps: f64, log_p: bool) -> f64 {
    const NUM_IT: usize = 20;
    const E0: f64 = 1.12837916709551;
    const E1: f64 = 0.353553390593274;
    const LN_E0: f64 = 0.120782237635245;
    let mut a0 = [0.0; NUM_IT + 1];
    let mut b0 = [0.0; NUM_IT + 1];
    let mut c = [0.0; NUM_IT + 1];
    let mut d = [0.0; NUM_IT + 1];
    let f = a * rlog1(-lambda / a) + b * rlog1(lambda / b);
    let t;
    if log_p {
        t = -f;
    } else {
        t = (-f).exp();
        if t == 0.0 {
            return 0.0;
        }
    }
    let z0 = f.sqrt();
    let z = z0 / E1 * 0.5;
    let z2 = f + f;
    let (h, r0, r1, w0);
    if a < b {
        h = a / b;
        r0 = 1.0 / (h + 1.0);
        r1 = (b - a) / b;
        w0 = 1.0 / (a * (h + 1.0)).sqrt();
    } else {
        h = b / a;
        r0 = 1.0 / (h + 1.0);
        r1 = (b - a) / a;
        w0 = 1.0 / (b * (h + 1.0)).sqrt();
    }
    a0[0] = r1 * 0.66666666666666663;
    c[0] = a0[0] * -0.5;
    d[0] = -c[0];
    let mut j0 = 0.5 / E0 * erfc1(true, z0);
    let mut j1 = E1;
    let mut sum = j0 + d[0] * w0 * j1;
    let mut s = 1.0;
    let h2 = h * h;
    let mut hn = 1.0;
    let mut w = w0;
    let mut znm1 = z;
    let mut zn = z2;
    let mut n = 2;
    while n <= NUM_IT {
        hn *= h2;
        a0[n - 1] = r0 * 2.0 * (h * hn + 1.0) / (n as f64 + 2.0);
        let np1 = n + 1;
        s += hn;
        a0[np1 - 1] = r1 * 2.0 * s / (n as f64 + 3.0);
        for i in n..=np1 {
            let r = (i as f64 + 1.0) * -0.5;
            b0[0] = r * a0[0];
            for m in 2..=i {
                let mut bsum = 0.0;
                for jj in 1..m {
                    let mmj = m - jj;
                    bsum += (jj as f64 * r - mmj as f64) * a0[jj - 1] * b0[mmj - 1];
                }
                b0[m - 1] = r * a0[m - 1] + bsum / m as f64;
            }
            c[i - 1] = b0[i - 1] / (i as f64 + 1.0);
            let mut dsum = 0.0;
            for jj in 1..i {
                dsum += d[i - jj - 1] * c[jj - 1];
            }
            d[i - 1] = -(dsum + c[i - 1]);
        }
        j0 = E1 * znm1 + (n as f64 - 1.0) * j0;
        j1 = E1 * zn + n as f64 * j1;
        znm1 *= z2;
        zn *= z2;
        w *= w0;
        let t0 = d[n - 1] * w * j0;
        w *= w0;
        let t1 = d[np1 - 1] * w * j1;
        sum += t0 + t1;
        if t0.abs() + t1.abs() <= eps * sum {
            break;
        }
        n += 2;
    }
    if log_p {
        LN_E0 + t - bcorr(a, b) + sum.ln()
    } else {
        let u = (-bcorr(a, b)).exp();
        E0 * t * u * sum
    }
}
