//! The double-shift QR for small Hessenberg matrices and windows (LAPACK's
//! `dlahqr`), with its 2-by-2 helpers: eigenvalues (`dlanv2`'s part),
//! the standardised Schur block (`dlanv2`) and the first column of the
//! double-shift polynomial.

use super::reflector::make_householder_in_place;
use faer::linalg::householder::HouseholderInfo;
use faer::linalg::jacobi::JacobiRotation;
use faer::prelude::*;
use faer::{ColMut, MatMut, MatRef};

pub(super) fn lahqr_eig22(a00: f64, a01: f64, a10: f64, a11: f64) -> ((f64, f64), (f64, f64)) {
    let half = 0.5;
    let s = a00.abs() + a01.abs() + a10.abs() + a11.abs();
    if s == 0.0 {
        return ((0.0, 0.0), (0.0, 0.0));
    }
    let a00 = a00 / s;
    let a01 = a01 / s;
    let a10 = a10 / s;
    let a11 = a11 / s;
    let tr = (a00 + a11) * half;
    let det = (a00 - tr).powi(2) + a01 * a10;
    if det >= 0.0 {
        let rtdisc = det.sqrt();
        ((s * (tr + rtdisc), 0.0), (s * (tr - rtdisc), 0.0))
    } else {
        let rtdisc = (-det).sqrt();
        let re = s * tr;
        let im = s * rtdisc;
        ((re, im), (re, -im))
    }
}
/// `dlanv2`'s result: the standardised block (a, b, c, d), its two
/// eigenvalues as (re, im), and the rotation (cs, sn) that made it.
pub(super) type Standard22 = ((f64, f64, f64, f64), (f64, f64), (f64, f64), (f64, f64));

/// LAPACK's `dlanv2`: the Schur factorisation of a real 2-by-2 block.
pub(super) fn lahqr_schur22(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> Standard22 {
    let half = 0.5;
    let one = 1.0;
    let multpl = 4.0;
    let eps = f64::EPSILON;
    let safmin = f64::MIN_POSITIVE;
    let safmn2 = (safmin / eps).sqrt();
    let safmx2 = safmn2.recip();
    let mut cs;
    let mut sn;
    if c == 0.0 {
        cs = one;
        sn = 0.0;
    } else if b == 0.0 {
        cs = 0.0;
        sn = one;
        core::mem::swap(&mut d, &mut a);
        b = -&c;
        c = 0.0;
    } else if a == d && (b > 0.0) != (c > 0.0) {
        cs = one;
        sn = 0.0;
    } else {
        let mut temp = a - d;
        let mut p = temp * half;
        let bcmax = b.abs().max(c.abs());
        let mut bcmin = b.abs().min(c.abs());
        if (b > 0.0) != (c > 0.0) {
            bcmin = -bcmin;
        }
        let bcmin = bcmin;
        let mut scale = p.abs().max(bcmax);
        let mut z = (p / scale) * p + (bcmax / scale) * bcmin;
        if z >= multpl * eps {
            let mut __tmp = scale.sqrt() * z.sqrt();
            if p < 0.0 {
                __tmp = -__tmp;
            }
            z = p + __tmp;
            a = d + z;
            d -= (bcmax / z) * bcmin;
            let tau = (c.powi(2) + z.powi(2)).sqrt();
            cs = z / tau;
            sn = c / tau;
            b -= c;
            c = 0.0;
        } else {
            let mut sigma = b + c;
            for _ in 0..20 {
                scale = temp.abs().max(sigma.abs());
                if scale >= safmx2 {
                    sigma *= safmn2;
                    temp *= safmn2;
                    continue;
                }
                if scale <= safmn2 {
                    sigma *= safmx2;
                    temp *= safmx2;
                    continue;
                }
                break;
            }
            p = temp * half;
            let mut tau = (sigma.powi(2) + temp.powi(2)).sqrt();
            cs = ((one + sigma.abs() / tau) * half).sqrt();
            sn = -p / (tau * cs);
            if sigma < 0.0 {
                sn = -sn;
            }
            let aa = a * cs + b * sn;
            let bb = -&a * sn + b * cs;
            let cc = c * cs + d * sn;
            let dd = -&c * sn + d * cs;
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            temp = (a + d) * half;
            a = temp;
            d = temp;
            if c != 0.0 && b != 0.0 && (b > 0.0) == (c > 0.0) {
                let sab = b.abs().sqrt();
                let sac = c.abs().sqrt();
                p = if c > 0.0 { sab * sac } else { -sab * sac };
                tau = (b + c).abs().sqrt().recip();
                a = temp + p;
                d = temp - p;
                b -= &c;
                c = 0.0;
                let cs1 = sab * tau;
                let sn1 = sac * tau;
                temp = cs * cs1 - sn * sn1;
                sn = cs * sn1 + sn * cs1;
                cs = temp;
            }
        }
    }
    let (s1, s2) = if c != 0.0 {
        let temp = b.abs().sqrt() * c.abs().sqrt();
        ((a, temp), (d, -temp))
    } else {
        ((a, 0.0), (d, 0.0))
    };
    ((a, b, c, d), s1, s2, (cs, sn))
}
pub(super) fn lahqr_shiftcolumn(
    h: MatRef<'_, f64>,
    mut v: ColMut<'_, f64>,
    s1: (f64, f64),
    s2: (f64, f64),
) {
    debug_assert!(h.nrows() == h.ncols());
    let n = h.nrows();
    debug_assert!(v.nrows() == n);
    if n == 2 {
        let s = (h[(0, 0)] - s2.0).abs() + s2.1.abs() + h[(1, 0)].abs();
        if s == 0.0 {
            v[0] = 0.0;
            v[1] = 0.0;
        } else {
            let h10s = h[(1, 0)] / s;
            let v0 = h10s * h[(0, 1)] + (h[(0, 0)] - s1.0) * ((h[(0, 0)] - s2.0) / s)
                - s1.1 * (s2.1 / s);
            let v1 = h10s * (h[(0, 0)] + h[(1, 1)] - s1.0 - s2.0);
            v[0] = v0;
            v[1] = v1;
        }
    } else {
        let s = (h[(0, 0)] - s2.0).abs() + s2.1.abs() + h[(1, 0)].abs() + h[(2, 0)].abs();
        if s == 0.0 {
            v[0] = 0.0;
            v[1] = 0.0;
            v[2] = 0.0;
        } else {
            let h10s = h[(1, 0)] / s;
            let h20s = h[(2, 0)] / s;
            let v0 = (h[(0, 0)] - s1.0) * ((h[(0, 0)] - s2.0) / s) - s1.1 * (s2.1 / s)
                + h[(0, 1)] * h10s
                + h[(0, 2)] * h20s;
            let v1 = h10s * (h[(0, 0)] + h[(1, 1)] - s1.0 - s2.0) + h[(1, 2)] * h20s;
            let v2 = h20s * (h[(0, 0)] + h[(2, 2)] - s1.0 - s2.0) + h[(2, 1)] * h10s;
            v[0] = v0;
            v[1] = v1;
            v[2] = v2;
        }
    }
}
pub(super) fn lahqr(
    want_t: bool,
    a: MatMut<'_, f64>,
    z: Option<MatMut<'_, f64>>,
    w_re: ColMut<'_, f64>,
    w_im: ColMut<'_, f64>,
    ilo: usize,
    ihi: usize,
) -> usize {
    let epsilon = f64::EPSILON;
    let zero_threshold = f64::MIN_POSITIVE;
    assert!(a.nrows() == a.ncols());
    assert!(ilo <= ihi);
    let n = a.nrows();
    let nh = ihi - ilo;
    assert!(w_re.nrows() == n);
    assert!(w_im.nrows() == n);
    assert!(w_re.ncols() == 1);
    assert!(w_im.ncols() == 1);
    if let Some(z) = z.rb() {
        assert!(z.nrows() == n);
        assert!(z.ncols() == n);
    }
    let mut a = a;
    let mut z = z;
    let mut w_re = w_re;
    let mut w_im = w_im;
    let one = 1.0;
    let eps = epsilon;
    let small_num = zero_threshold / eps;
    let non_convergence_limit = 10;
    let dat1 = 0.75;
    let dat2 = -0.4375;
    if nh == 0 {
        return 0;
    }
    if nh == 1 {
        w_re[ilo] = a[(ilo, ilo)];
        w_im[ilo] = 0.0;
    }
    let itmax = 30 * Ord::max(10, nh);
    let mut k_defl = 0usize;
    let mut istop = ihi;
    let mut istart = ilo;
    let mut v_buf = [0.0f64; 3];
    let mut v = MatMut::from_column_major_slice_mut(&mut v_buf, 3, 1);
    let mut v = v.rb_mut().col_mut(0);
    for iter in 0..itmax + 1 {
        if iter == itmax {
            return istop;
        }
        if istart + 1 >= istop {
            if istart + 1 == istop {
                w_re[istart] = a[(istart, istart)];
                w_im[istart] = 0.0;
            }
            break;
        }
        let istart_m;
        let istop_m;
        if !want_t {
            istart_m = istart;
            istop_m = istop;
        } else {
            istart_m = 0;
            istop_m = n;
        }
        for i in (istart + 1..istop).rev() {
            if a[(i, i - 1)].abs() < small_num {
                a[(i, i - 1)] = 0.0;
                istart = i;
                break;
            }
            let mut tst = a[(i - 1, i - 1)].abs() + a[(i, i)].abs();
            if tst == 0.0 {
                if i >= ilo + 2 {
                    tst += a[(i - 1, i - 2)].abs();
                }
                if i + 1 < ihi {
                    tst += a[(i + 1, i)].abs();
                }
            }
            if a[(i, i - 1)].abs() <= (eps * tst) {
                let ab = a[(i, i - 1)].abs().max(a[(i - 1, i)].abs());
                let ba = a[(i, i - 1)].abs().min(a[(i - 1, i)].abs());
                let aa = a[(i, i)].abs().max((a[(i, i)] - a[(i - 1, i - 1)]).abs());
                let bb = a[(i, i)].abs().min((a[(i, i)] - a[(i - 1, i - 1)]).abs());
                let s = aa + ab;
                if ba * (ab / s) <= (eps * (bb * (aa / s))).max(small_num) {
                    a[(i, i - 1)] = 0.0;
                    istart = i;
                    break;
                }
            }
        }
        if istart + 2 >= istop {
            if istart + 1 == istop {
                k_defl = 0;
                w_re[istart] = a[(istart, istart)];
                w_im[istart] = 0.0;
                istop = istart;
                istart = ilo;
                continue;
            }
            if istart + 2 == istop {
                let ((a00, a01, a10, a11), (s1_re, s1_im), (s2_re, s2_im), (cs, sn)) =
                    lahqr_schur22(
                        a[(istart, istart)],
                        a[(istart, istart + 1)],
                        a[(istart + 1, istart)],
                        a[(istart + 1, istart + 1)],
                    );
                let rot = JacobiRotation { c: cs, s: sn };
                a[(istart, istart)] = a00;
                a[(istart, istart + 1)] = a01;
                a[(istart + 1, istart)] = a10;
                a[(istart + 1, istart + 1)] = a11;
                w_re[istart] = s1_re;
                w_im[istart] = s1_im;
                w_re[istart + 1] = s2_re;
                w_im[istart + 1] = s2_im;
                if want_t {
                    if istart + 2 < istop_m {
                        rot.apply_on_the_right_in_place(
                            a.rb_mut()
                                .transpose_mut()
                                .get_mut(istart + 2..istop_m, ..)
                                .two_cols_mut(istart, istart + 1),
                        );
                    }
                    rot.apply_on_the_right_in_place(
                        a.rb_mut()
                            .get_mut(istart_m..istart, ..)
                            .two_cols_mut(istart, istart + 1),
                    );
                }
                if let Some(z) = z.rb_mut() {
                    rot.apply_on_the_right_in_place(z.two_cols_mut(istart, istart + 1));
                }
                k_defl = 0;
                istop = istart;
                istart = ilo;
                continue;
            }
        }
        let (a00, a01, a10, a11);
        k_defl += 1;
        if k_defl % non_convergence_limit == 0 {
            let mut s = a[(istop - 1, istop - 2)].abs();
            if istop > ilo + 2 {
                s += a[(istop - 2, istop - 3)].abs();
            }
            a00 = dat1 * s + a[(istop - 1, istop - 1)];
            a01 = dat2 * s;
            a10 = s;
            a11 = a00;
        } else {
            a00 = a[(istop - 2, istop - 2)];
            a10 = a[(istop - 1, istop - 2)];
            a01 = a[(istop - 2, istop - 1)];
            a11 = a[(istop - 1, istop - 1)];
        }
        let (mut s1, mut s2) = lahqr_eig22(a00, a01, a10, a11);
        if s1.1 == 0.0 && s2.1 == 0.0 {
            if (s1.0 - a[(istop - 1, istop - 1)]).abs() <= (s2.0 - a[(istop - 1, istop - 1)]).abs()
            {
                s2 = ((s1.0), (s1.1));
            } else {
                s1 = ((s2.0), (s2.1));
            }
        }
        let mut istart2 = istart;
        if istart + 3 < istop {
            for i in (istart + 1..istop - 2).rev() {
                let h = a.rb().submatrix(i, i, 3, 3);
                lahqr_shiftcolumn(h, v.rb_mut(), ((s1.0), (s1.1)), ((s2.0), (s2.1)));
                let mut head = v[0];
                let HouseholderInfo { tau, .. } =
                    make_householder_in_place(&mut head, v.rb_mut().subrows_mut(1, 2));
                let tau = tau.recip();
                let v0 = tau;
                let v1 = v[1];
                let v2 = v[2];
                let refsum = v0 * a[(i, i - 1)] + v1 * a[(i + 1, i - 1)];
                if (a[(i + 1, i - 1)] - refsum * v1).abs() + (refsum * v2).abs()
                    <= eps * ((a[(i, i - 1)].abs() + a[(i, i + 1)].abs()) + a[(i + 1, i + 2)].abs())
                {
                    istart2 = i;
                    break;
                }
            }
        }
        for i in istart2..istop - 1 {
            let nr = Ord::min(3, istop - i);
            let mut t1;
            if i == istart2 {
                let h = a.rb().submatrix(i, i, nr, nr);
                let mut x = v.rb_mut().subrows_mut(0, nr);
                lahqr_shiftcolumn(h, x.rb_mut(), ((s1.0), (s1.1)), ((s2.0), (s2.1)));
                let mut beta = x[0];
                let tail = x.rb_mut().subrows_mut(1, nr - 1);
                HouseholderInfo { tau: t1, .. } = make_householder_in_place(&mut beta, tail);
                v[0] = beta;
                t1 = t1.recip();
                if i > istart {
                    a[(i, i - 1)] *= one - t1;
                }
            } else {
                v[0] = a[(i, i - 1)];
                v[1] = a[(i + 1, i - 1)];
                if nr == 3 {
                    v[2] = a[(i + 2, i - 1)];
                }
                let mut beta = v[0];
                let tail = v.rb_mut().subrows_mut(1, nr - 1);
                HouseholderInfo { tau: t1, .. } = make_householder_in_place(&mut beta, tail);
                t1 = t1.recip();
                v[0] = beta;
                a[(i, i - 1)] = beta;
                a[(i + 1, i - 1)] = 0.0;
                if nr == 3 {
                    a[(i + 2, i - 1)] = 0.0;
                }
            }
            let t1 = t1;
            let v2 = v[1];
            let t2 = t1 * v2;
            if nr == 3 {
                let v3 = v[2];
                let t3 = t1 * v3;
                for j in i..istop_m {
                    let sum = a[(i, j)] + v2 * a[(i + 1, j)] + v3 * a[(i + 2, j)];
                    a[(i, j)] -= sum * t1;
                    a[(i + 1, j)] -= sum * t2;
                    a[(i + 2, j)] -= sum * t3;
                }
                for j in istart_m..Ord::min(i + 4, istop) {
                    let sum = a[(j, i)] + v2 * a[(j, i + 1)] + v3 * a[(j, i + 2)];
                    a[(j, i)] -= sum * t1;
                    a[(j, i + 1)] -= sum * t2;
                    a[(j, i + 2)] -= sum * t3;
                }
                if let Some(mut z) = z.rb_mut() {
                    for j in 0..n {
                        let sum = z[(j, i)] + v2 * z[(j, i + 1)] + v3 * z[(j, i + 2)];
                        z[(j, i)] -= sum * t1;
                        z[(j, i + 1)] -= sum * t2;
                        z[(j, i + 2)] -= sum * t3;
                    }
                }
            } else {
                for j in i..istop_m {
                    let sum = a[(i, j)] + v2 * a[(i + 1, j)];
                    a[(i, j)] -= sum * t1;
                    a[(i + 1, j)] -= sum * t2;
                }
                for j in istart_m..Ord::min(i + 3, istop) {
                    let sum = a[(j, i)] + v2 * a[(j, i + 1)];
                    a[(j, i)] -= sum * t1;
                    a[(j, i + 1)] -= sum * t2;
                }
                if let Some(mut z) = z.rb_mut() {
                    for j in 0..n {
                        let sum = z[(j, i)] + v2 * z[(j, i + 1)];
                        z[(j, i)] -= sum * t1;
                        z[(j, i + 1)] -= sum * t2;
                    }
                }
            }
        }
    }
    0
}
