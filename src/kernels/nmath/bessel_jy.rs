//! The Bessel functions of the first and second kind of R 4.2.2's nmath:
//! `bessel_j_ex` and `J_bessel` (bessel_j.c, Cody's RJBESL after Sookne),
//! `bessel_y_ex` and `Y_bessel` (bessel_y.c, Cody's RYBESL after Temme
//! and Campbell), kept in the shape of the C (its gotos as loops and
//! flags, its 1-based `b[]` as a slice with a spare slot 0) so each
//! operation is R's and the results are R's to the bit.

use super::bessel::{gamma_cody, Bessel};
use super::hyperbolic::{cospi, sinpi};

// bessel.h, for IEEE double precision.
const ENSIG_BESS: f64 = 1e16;
const RTNSIG_BESS: f64 = 1e-4;
const ENMTEN_BESS: f64 = 8.9e-308;
const ENTEN_BESS: f64 = 1e308;
const XLRG_BESS_IJ: f64 = 1e5;
const XLRG_BESS_Y: f64 = 1e8;
const THRESH_BESS_Y: f64 = 16.;
const M_EPS_SINC: f64 = 2.149e-8;
/// R's `M_SQRT_2dPI`: sqrt(2/pi).
const M_SQRT_2D_PI: f64 = 0.797_884_560_802_865_355_879_892_119_869;

/// C's `%g` for the warnings' numbers.
fn g(x: f64) -> String {
    crate::kernels::vector::format_g(x)
}

fn plain(value: f64) -> Bessel {
    Bessel {
        value,
        warning: None,
    }
}

/// The order's integer part as R's `(int)` cast takes it: orders past
/// 1e7 were refused before, so it fits.
fn order_count(na: f64) -> i32 {
    1 + na as i32
}

/// bessel_j.c's `bessel_j_ex(x, alpha, bj)`: the work array is this
/// call's own.
pub fn bessel_j(x: f64, alpha: f64) -> Bessel {
    if x.is_nan() || alpha.is_nan() {
        return plain(x + alpha);
    }
    if x < 0.0 {
        return Bessel {
            value: f64::NAN,
            warning: Some("value out of range in 'bessel_j'".into()),
        };
    }
    let na = alpha.floor();
    if alpha < 0.0 {
        // Abramowitz & Stegun 9.1.2.
        let (j, y) = (
            (alpha - na != 0.5).then(|| bessel_j(x, -alpha)),
            (alpha != na).then(|| bessel_y(x, -alpha)),
        );
        let value = j.as_ref().map_or(0.0, |j| j.value * cospi(alpha))
            + y.as_ref().map_or(0.0, |y| y.value * sinpi(alpha));
        let warning = j.and_then(|j| j.warning).or(y.and_then(|y| y.warning));
        return Bessel { value, warning };
    } else if alpha > 1e7 {
        return Bessel {
            value: f64::NAN,
            warning: Some(format!(
                "besselJ(x, nu): nu={} too large for bessel_j() algorithm",
                g(alpha)
            )),
        };
    }
    let nb = order_count(na);
    let alpha = alpha - f64::from(nb - 1);
    let mut b = vec![0.0; nb as usize + 3];
    let ncalc = j_bessel(x, alpha, nb, &mut b);
    // J_bessel's ML_WARNING(ME_RANGE, "J_bessel").
    let mut warning = (x > XLRG_BESS_IJ).then(|| "value out of range in 'J_bessel'".to_string());
    if ncalc != nb {
        warning = Some(if ncalc < 0 {
            format!(
                "bessel_j({}): ncalc (={ncalc}) != nb (={nb}); alpha={}. Arg. out of range?",
                g(x),
                g(alpha)
            )
        } else {
            format!(
                "bessel_j({},nu={}): precision lost in result",
                g(x),
                g(alpha + f64::from(nb) - 1.0)
            )
        });
    }
    Bessel {
        value: b[nb as usize],
        warning,
    }
}

/// bessel_j.c's `J_bessel`: J of orders alpha .. alpha + nb - 1 into
/// `b[1..=nb]`; returns ncalc.
// The C's loops over b[i] are kept as they are.
#[allow(clippy::needless_range_loop)]
fn j_bessel(x: f64, alpha: f64, nb: i32, b: &mut [f64]) -> i32 {
    // C's .636619772367581343075535, 2/pi.
    const PI2: f64 = std::f64::consts::FRAC_2_PI;
    const TWOPI1: f64 = 6.28125;
    const TWOPI2: f64 = 0.001_935_307_179_586_476_925_286_767;
    const FACT: [f64; 25] = [
        1.,
        1.,
        2.,
        6.,
        24.,
        120.,
        720.,
        5040.,
        40320.,
        362880.,
        3628800.,
        39916800.,
        479001600.,
        6227020800.,
        87178291200.,
        1.307674368e12,
        2.0922789888e13,
        3.55687428096e14,
        6.402373705728e15,
        1.21645100408832e17,
        2.43290200817664e18,
        5.109094217170944e19,
        1.12400072777760768e21,
        2.585201673888497664e22,
        6.2044840173323943936e23,
    ];
    let nu = alpha;
    let twonu = nu + nu;
    let nbu = nb as usize;
    if !(nb > 0 && x >= 0. && (0. ..1.).contains(&nu)) {
        b[1] = 0.;
        return nb.min(0) - 1;
    }
    let mut ncalc = nb;
    if x > XLRG_BESS_IJ {
        // The limit is 0, but R's cutoff comes early (bessel_j warns).
        for v in b.iter_mut().take(nbu + 1).skip(1) {
            *v = 0.;
        }
        return ncalc;
    }
    let intx = x as i32;
    for v in b.iter_mut().take(nbu + 1).skip(1) {
        *v = 0.;
    }
    if x < RTNSIG_BESS {
        // Two-term ascending series for small x.
        let mut alpem = 1. + nu;
        let halfx = if x > ENMTEN_BESS { 0.5 * x } else { 0. };
        let mut aa = if nu != 0. {
            halfx.powf(nu) / (nu * gamma_cody(nu))
        } else {
            1.
        };
        let bb = if x + 1. > 1. { -halfx * halfx } else { 0. };
        b[1] = aa + aa * bb / alpem;
        if x != 0. && b[1] == 0. {
            ncalc = 0;
        }
        if nb != 1 {
            if x <= 0. {
                for v in b.iter_mut().take(nbu + 1).skip(2) {
                    *v = 0.;
                }
            } else {
                let tover = if bb == 0. {
                    (ENMTEN_BESS + ENMTEN_BESS) / x
                } else {
                    ENMTEN_BESS / bb
                };
                let cc = halfx;
                for n in 2..=nb {
                    aa /= alpem;
                    alpem += 1.;
                    aa *= cc;
                    if aa <= tover * alpem {
                        aa = 0.;
                    }
                    b[n as usize] = aa + aa * bb / alpem;
                    if b[n as usize] == 0. && ncalc > n {
                        ncalc = n - 1;
                    }
                }
            }
        }
        return ncalc;
    }
    if x > 25. && nb <= intx + 1 {
        // Asymptotic series for x > 25 (and not too large nb).
        let xc = (PI2 / x).sqrt();
        let xin = 1. / (64. * x * x);
        let m: usize = if x >= 130. {
            4
        } else if x >= 35. {
            8
        } else {
            11
        };
        let xm = 4. * m as f64;
        // Argument reduction for sin and cos.
        let t = (x / (TWOPI1 + TWOPI2) + 0.5).trunc();
        let z = (x - t * TWOPI1) - t * TWOPI2 - (nu + 0.5) / PI2;
        let mut vsin = z.sin();
        let mut vcos = z.cos();
        let mut gnu = twonu;
        for i in 1..=2 {
            let mut s = (xm - 1. - gnu) * (xm - 1. + gnu) * xin * 0.5;
            let mut t = (gnu - (xm - 3.)) * (gnu + (xm - 3.));
            let mut t1 = (gnu - (xm + 1.)) * (gnu + (xm + 1.));
            let mut k = m + m;
            let mut capp = s * t / FACT[k];
            let mut capq = s * t1 / FACT[k + 1];
            let mut xk = xm;
            while k >= 4 {
                xk -= 4.;
                s = (xk - 1. - gnu) * (xk - 1. + gnu);
                t1 = t;
                t = (gnu - (xk - 3.)) * (gnu + (xk - 3.));
                capp = (capp + 1. / FACT[k - 2]) * s * t * xin;
                capq = (capq + 1. / FACT[k - 1]) * s * t1 * xin;
                k -= 2;
            }
            capp += 1.;
            capq = (capq + 1.) * (gnu * gnu - 1.) * (0.125 / x);
            b[i] = xc * (capp * vcos - capq * vsin);
            if nb == 1 {
                return ncalc;
            }
            let t = vsin;
            vsin = -vcos;
            vcos = t;
            gnu += 2.;
        }
        if nb > 2 {
            let mut gnu = twonu + 2.;
            for j in 3..=nbu {
                b[j] = gnu * b[j - 1] / x - b[j - 2];
                gnu += 2.;
            }
        }
        return ncalc;
    }
    // rtnsig_BESS <= x && (x <= 25 || intx + 1 < nb): recurrence. First
    // initialize the calculation of P*S.
    let nbmx = nb - intx;
    let mut n = intx + 1;
    let mut en = f64::from(n + n) + twonu;
    let mut plast = 1.;
    let mut p = en / x;
    let mut pold;
    // General significance test.
    let mut test = ENSIG_BESS + ENSIG_BESS;
    // Whether the overflow branch found ncalc (C's `goto L190`).
    let mut to_l190 = false;
    if nbmx >= 3 {
        // Calculate P*S until n = nb - 1, checking for overflow.
        let mut tover = ENTEN_BESS / ENSIG_BESS;
        let mut nstart = intx + 2;
        let mut nend = nb - 1;
        en = f64::from(nstart + nstart) - 2. + twonu;
        let mut k = nstart;
        while k <= nend {
            n = k;
            en += 2.;
            pold = plast;
            plast = p;
            p = en * plast / x - pold;
            if p > tover {
                // To avoid overflow, divide P*S by tover; calculate P*S
                // until |p| > 1.
                tover = ENTEN_BESS;
                p /= tover;
                plast /= tover;
                let mut psave = p;
                let mut psavel = plast;
                nstart = n + 1;
                loop {
                    n += 1;
                    en += 2.;
                    pold = plast;
                    plast = p;
                    p = en * plast / x - pold;
                    if p > 1. || p.is_nan() {
                        break;
                    }
                }
                let bb = en / x;
                // Backward test: ncalc, the highest n that passes it.
                test = pold * plast * (0.5 - 0.5 / (bb * bb));
                test /= ENSIG_BESS;
                p = plast * tover;
                n -= 1;
                en -= 2.;
                nend = nb.min(n);
                ncalc = nend;
                for l in nstart..=nend {
                    pold = psavel;
                    psavel = psave;
                    psave = en * psavel / x - pold;
                    if psave * psavel > test {
                        ncalc = l - 1;
                        break;
                    }
                }
                to_l190 = true;
                break;
            }
            k += 1;
        }
        if !to_l190 {
            n = nend;
            en = f64::from(n + n) + twonu;
            // Special significance test for nbmx > 2.
            test = test.max((plast * ENSIG_BESS).sqrt() * (p + p).sqrt());
        }
    }
    if !to_l190 {
        // Calculate P*S until the significance test passes.
        loop {
            n += 1;
            en += 2.;
            pold = plast;
            plast = p;
            p = en * plast / x - pold;
            if p >= test || p.is_nan() || test.is_nan() {
                break;
            }
        }
    }
    // L190: initialize the backward recursion and the normalization sum.
    n += 1;
    en += 2.;
    let mut bb = 0.;
    let mut aa = 1. / p;
    let mut m = n / 2;
    let mut em = f64::from(m);
    m = (n << 1) - (m << 2);
    let mut alpem;
    let mut alp2em;
    let mut sum = if m == 0 {
        0.
    } else {
        alpem = em - 1. + nu;
        alp2em = em + em + nu;
        aa * alpem * alp2em / em
    };
    let nend = n - nb;
    // Recur backward via the difference equation, calculating (not
    // storing) b[n], until n = nb.
    for _ in 1..=nend {
        n -= 1;
        en -= 2.;
        let cc = bb;
        bb = aa;
        aa = en * bb / x - cc;
        m = if m != 0 { 0 } else { 2 };
        if m != 0 {
            em -= 1.;
            alp2em = em + em + nu;
            if n == 1 {
                break;
            }
            alpem = em - 1. + nu;
            if alpem == 0. {
                alpem = 1.;
            }
            sum = (sum + aa * alp2em) * alpem / em;
        }
    }
    // Store b[nb]. The labels L240 and L250 of the C become these flags.
    b[n as usize] = aa;
    let mut to_l240 = false;
    let mut to_l250 = false;
    if nend >= 0 {
        if nb <= 1 {
            alp2em = if nu + 1. == 1. { 1. } else { nu };
            sum += b[1] * alp2em;
            to_l250 = true;
        } else {
            // nb >= 2: calculate and store b[nb - 1].
            n -= 1;
            en -= 2.;
            b[n as usize] = en * aa / x - bb;
            if n == 1 {
                to_l240 = true;
            } else {
                m = if m != 0 { 0 } else { 2 };
                if m != 0 {
                    em -= 1.;
                    alp2em = em + em + nu;
                    alpem = em - 1. + nu;
                    if alpem == 0. {
                        alpem = 1.;
                    }
                    sum = (sum + b[n as usize] * alp2em) * alpem / em;
                }
            }
        }
    }
    if !to_l240 && !to_l250 {
        // Calculate via the difference equation and store b[n], until
        // n = 2.
        n -= 1;
        while n >= 2 {
            let nu_ = n as usize;
            en -= 2.;
            b[nu_] = en * b[nu_ + 1] / x - b[nu_ + 2];
            m = if m != 0 { 0 } else { 2 };
            if m != 0 {
                em -= 1.;
                alp2em = em + em + nu;
                alpem = em - 1. + nu;
                if alpem == 0. {
                    alpem = 1.;
                }
                sum = (sum + b[nu_] * alp2em) * alpem / em;
            }
            n -= 1;
        }
        // Calculate b[1].
        b[1] = 2. * (nu + 1.) * b[2] / x - b[3];
        to_l240 = true;
    }
    if to_l240 {
        em -= 1.;
        alp2em = em + em + nu;
        if alp2em == 0. {
            alp2em = 1.;
        }
        sum += b[1] * alp2em;
    }
    // L250: normalize, dividing every b[n] by sum.
    if nu.abs() > 1e-15 {
        sum *= gamma_cody(nu) * (0.5 * x).powf(-nu);
    }
    let mut aa = ENMTEN_BESS;
    if sum > 1. {
        aa *= sum;
    }
    for v in b.iter_mut().take(nbu + 1).skip(1) {
        if v.abs() < aa {
            *v = 0.;
        } else {
            *v /= sum;
        }
    }
    ncalc
}

/// bessel_y.c's `bessel_y_ex(x, alpha, by)`: the work array is this
/// call's own.
pub fn bessel_y(x: f64, alpha: f64) -> Bessel {
    if x.is_nan() || alpha.is_nan() {
        return plain(x + alpha);
    }
    if x < 0.0 {
        return Bessel {
            value: f64::NAN,
            warning: Some("value out of range in 'bessel_y'".into()),
        };
    }
    let na = alpha.floor();
    if alpha < 0.0 {
        // Abramowitz & Stegun 9.1.2.
        let (y, j) = (
            (alpha - na != 0.5).then(|| bessel_y(x, -alpha)),
            (alpha != na).then(|| bessel_j(x, -alpha)),
        );
        let value = y.as_ref().map_or(0.0, |y| y.value * cospi(alpha))
            - j.as_ref().map_or(0.0, |j| j.value * sinpi(alpha));
        let warning = y.and_then(|y| y.warning).or(j.and_then(|j| j.warning));
        return Bessel { value, warning };
    } else if alpha > 1e7 {
        return Bessel {
            value: f64::NAN,
            warning: Some(format!(
                "besselY(x, nu): nu={} too large for bessel_y() algorithm",
                g(alpha)
            )),
        };
    }
    let nb = order_count(na);
    let alpha = alpha - f64::from(nb - 1);
    let mut by = vec![0.0; nb as usize];
    let ncalc = y_bessel(x, alpha, nb, &mut by);
    let mut warning = None;
    if ncalc != nb {
        if ncalc == -1 {
            return plain(f64::INFINITY);
        }
        warning = Some(if ncalc < -1 {
            format!(
                "bessel_y({}): ncalc (={ncalc}) != nb (={nb}); alpha={}. Arg. out of range?",
                g(x),
                g(alpha)
            )
        } else {
            format!(
                "bessel_y({},nu={}): precision lost in result",
                g(x),
                g(alpha + f64::from(nb) - 1.0)
            )
        });
    }
    Bessel {
        value: by[nb as usize - 1],
        warning,
    }
}

/// bessel_y.c's `Y_bessel`: Y of orders alpha .. alpha + nb - 1 into
/// `by[0..nb]`; returns ncalc.
fn y_bessel(x: f64, alpha: f64, nb: i32, by: &mut [f64]) -> i32 {
    use std::f64::consts::{FRAC_1_PI, FRAC_PI_2, PI};
    const FIVPI: f64 = 15.707_963_267_948_966_192;
    const PIM5: f64 = 0.707_963_267_948_966_192_31;
    // Chebyshev coefficients of 1/gamma(1-x), |x| <= .5.
    const CH: [f64; 21] = [
        -6.7735241822398840964e-24,
        -6.1455180116049879894e-23,
        2.9017595056104745456e-21,
        1.3639417919073099464e-19,
        2.3826220476859635824e-18,
        -9.0642907957550702534e-18,
        -1.4943667065169001769e-15,
        -3.3919078305362211264e-14,
        -1.7023776642512729175e-13,
        9.1609750938768647911e-12,
        2.4230957900482704055e-10,
        1.7451364971382984243e-9,
        -3.3126119768180852711e-8,
        -8.6592079961391259661e-7,
        -4.9717367041957398581e-6,
        7.6309597585908126618e-5,
        0.0012719271366545622927,
        0.0017063050710955562222,
        -0.07685284084478667369,
        -0.28387654227602353814,
        0.92187029365045265648,
    ];
    let nbu = nb as usize;
    let ex = x;
    let mut nu = alpha;
    if !(nb > 0 && (0. ..1.).contains(&nu)) {
        by[0] = 0.;
        return nb.min(0) - 1;
    }
    if !(f64::MIN_POSITIVE..=XLRG_BESS_Y).contains(&ex) {
        let v = if ex > XLRG_BESS_Y {
            0.
        } else {
            f64::NEG_INFINITY
        };
        for b in by.iter_mut().take(nbu) {
            *b = v;
        }
        return nb;
    }
    let xna = (nu + 0.5).trunc();
    let mut na = xna as i32;
    if na == 1 {
        nu -= xna;
    }
    let mut ya;
    let mut ya1;
    if nu == -0.5 {
        let p = M_SQRT_2D_PI / ex.sqrt();
        ya = p * ex.sin();
        ya1 = -p * ex.cos();
    } else if ex < 3. {
        // Temme's scheme for small x.
        let b = ex * 0.5;
        let d = -b.ln();
        let mut f = nu * d;
        let mut e = b.powf(-nu);
        let mut c = if nu.abs() < M_EPS_SINC {
            FRAC_1_PI
        } else {
            nu / sinpi(nu)
        };
        // sinh(f)/f.
        let s = if f.abs() < 1. {
            let x2 = f * f;
            let mut en = 19.;
            let mut s = 1.;
            for _ in 1..=9 {
                s = s * x2 / en / (en - 1.) + 1.;
                en -= 2.;
            }
            s
        } else {
            (e - 1. / e) * 0.5 / f
        };
        // 1/gamma(1-a) by the Chebyshev polynomials.
        let x2 = nu * nu * 8.;
        let mut aye = CH[0];
        let mut even = 0.;
        let mut alfa = CH[1];
        let mut odd = 0.;
        let mut i = 3;
        while i <= 19 {
            even = -(aye + aye + even);
            aye = -even * x2 - aye + CH[i - 1];
            odd = -(alfa + alfa + odd);
            alfa = -odd * x2 - alfa + CH[i];
            i += 2;
        }
        even = (even * 0.5 + aye) * x2 - aye + CH[20];
        odd = (odd + alfa) * 2.;
        let gamma = odd * nu + even;
        let mut g = e * gamma;
        e = (e + 1. / e) * 0.5;
        f = 2. * c * (odd * e + even * s * d);
        e = nu * nu;
        let mut p = g * c;
        let mut q = FRAC_1_PI / g;
        c = nu * FRAC_PI_2;
        let mut r = if c.abs() < M_EPS_SINC {
            1.
        } else {
            sinpi(nu / 2.) / c
        };
        r = PI * c * r * r;
        c = 1.;
        let d = -b * b;
        let mut h = 0.;
        ya = f + r * q;
        ya1 = p;
        let mut en = 1.;
        while (g / (1. + ya.abs())).abs() + (h / (1. + ya1.abs())).abs() > f64::EPSILON {
            f = (f * en + p + q) / (en * en - e);
            c *= d / en;
            p /= en - nu;
            q /= en + nu;
            g = c * (f + r * q);
            h = c * p - en * g;
            ya += g;
            ya1 += h;
            en += 1.;
        }
        ya = -ya;
        ya1 = -ya1 / b;
    } else if ex < THRESH_BESS_Y {
        // Temme's scheme for moderate x: 3 <= x < 16.
        let c = (0.5 - nu) * (0.5 + nu);
        let b = ex + ex;
        let mut e = ex * FRAC_1_PI * cospi(nu) / f64::EPSILON;
        e *= e;
        let mut p = 1.;
        let mut q = -ex;
        let mut r = 1. + ex * ex;
        let mut s = r;
        let mut en = 2.;
        let mut en1 = 0.;
        while r * en * en < e {
            en1 = en + 1.;
            let d = (en - 1. + c / en) / s;
            p = (en + en - p * d) / en1;
            q = (-b + q * d) / en1;
            s = p * p + q * q;
            r *= s;
            en = en1;
        }
        let mut f = p / s;
        p = f;
        let mut g = -q / s;
        q = g;
        // L220.
        loop {
            en -= 1.;
            if en <= 0. || en.is_nan() {
                break;
            }
            r = en1 * (2. - p) - 2.;
            s = b + en1 * q;
            let d = (en - 1. + c / en) / (r * r + s * s);
            p = d * r;
            q = d * s;
            e = f + 1.;
            f = p * e - g * q;
            g = q * e + p * g;
            en1 = en;
        }
        f += 1.;
        let d = f * f + g * g;
        let pa = f / d;
        let qa = -g / d;
        let d = nu + 0.5 - p;
        q += ex;
        let pa1 = (pa * q - qa * d) / ex;
        let qa1 = (qa * q + pa * d) / ex;
        let b = ex - FRAC_PI_2 * (nu + 0.5);
        let c = b.cos();
        let s = b.sin();
        let d = M_SQRT_2D_PI / ex.sqrt();
        ya = d * (pa * s + qa * c);
        ya1 = d * (qa1 * s - pa1 * c);
    } else {
        // Campbell's asymptotic scheme.
        na = 0;
        let d1 = (ex / FIVPI).trunc();
        let i = d1 as i32;
        let dmu = ex - 15. * d1 - d1 * PIM5 - (alpha + 0.5) * FRAC_PI_2;
        let (mut cosmu, mut sinmu) = if i - ((i / 2) << 1) == 0 {
            (dmu.cos(), dmu.sin())
        } else {
            (-dmu.cos(), -dmu.sin())
        };
        let ddiv = 8. * ex;
        let mut dmu = alpha;
        let den = ex.sqrt();
        ya = 0.;
        ya1 = 0.;
        for k in 1..=2 {
            let p = cosmu;
            cosmu = sinmu;
            sinmu = -p;
            let mut d1 = (2. * dmu - 1.) * (2. * dmu + 1.);
            let mut d2 = 0.;
            let mut div = ddiv;
            let mut p = 0.;
            let mut q = 0.;
            let q0 = d1 / div;
            let mut term = q0;
            for _ in 2..=20 {
                d2 += 8.;
                d1 -= d2;
                div += ddiv;
                term = -term * d1 / div;
                p += term;
                d2 += 8.;
                d1 -= d2;
                div += ddiv;
                term *= d1 / div;
                q += term;
                if term.abs() <= f64::EPSILON {
                    break;
                }
            }
            p += 1.;
            q += q0;
            if k == 1 {
                ya = M_SQRT_2D_PI * (p * cosmu - q * sinmu) / den;
            } else {
                ya1 = M_SQRT_2D_PI * (p * cosmu - q * sinmu) / den;
            }
            dmu += 1.;
        }
    }
    if na == 1 {
        let mut h = 2. * (nu + 1.) / ex;
        if h > 1. && ya1.abs() > f64::MAX / h {
            h = 0.;
            ya = 0.;
        }
        h = h * ya1 - ya;
        ya = ya1;
        ya1 = h;
    }
    // Now we have the first one or two Y's.
    by[0] = ya;
    let mut ncalc = 1;
    if nb > 1 {
        by[1] = ya1;
        if ya1 != 0. {
            let mut aye = 1. + alpha;
            let twobyx = 2. / ex;
            ncalc = 2;
            for i in 2..nbu {
                let overflows = if twobyx < 1. {
                    by[i - 1].abs() * twobyx >= f64::MAX / aye
                } else {
                    by[i - 1].abs() >= f64::MAX / aye / twobyx
                };
                if overflows {
                    break;
                }
                by[i] = twobyx * aye * by[i - 1] - by[i - 2];
                aye += 1.;
                ncalc += 1;
            }
        }
    }
    // L450.
    for b in by.iter_mut().take(nbu).skip(ncalc as usize) {
        *b = f64::NEG_INFINITY;
    }
    ncalc
}
