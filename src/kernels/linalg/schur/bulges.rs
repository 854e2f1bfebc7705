//! The middle and the end of a `dlaqr5` sweep: moving the chain of bulges
//! down the active block window by window, and chasing it off the bottom.

use super::reflector::make_householder_in_place;
use super::sweep::{apply_chase, move_bulge};
use faer::linalg::householder::HouseholderInfo;
use faer::prelude::*;
use faer::{ColRef, MatMut};

// The three phases of dlaqr5 share its whole state.
#[allow(clippy::too_many_arguments)]
pub(super) fn move_bulges_down(
    ilo: usize,
    ihi: usize,
    n_block_desired: usize,
    n_bulges: usize,
    n_shifts: usize,
    want_t: bool,
    mut a: MatMut<'_, f64>,
    mut z: Option<MatMut<'_, f64>>,
    mut u: MatMut<'_, f64>,
    mut v: MatMut<'_, f64>,
    mut wh: MatMut<'_, f64>,
    mut wv: MatMut<'_, f64>,
    s_re: ColRef<'_, f64>,
    s_im: ColRef<'_, f64>,
    i_pos_block: &mut usize,
) {
    let n = a.nrows();
    let eps = f64::EPSILON;
    let small_num = f64::MIN_POSITIVE / eps * (n as f64);
    while *i_pos_block + n_block_desired < ihi {
        let n_pos = Ord::min(
            n_block_desired - n_shifts,
            ihi - n_shifts - 1 - *i_pos_block,
        );
        let n_block = n_shifts + n_pos;
        let mut u2 = u.rb_mut().submatrix_mut(0, 0, n_block, n_block);
        u2.fill(0.0);
        u2.rb_mut().diagonal_mut().fill(1.0);
        let mut istart_m = *i_pos_block;
        let mut istop_m = *i_pos_block + n_block;
        for i_pos_last in *i_pos_block + n_shifts - 2..*i_pos_block + n_shifts - 2 + n_pos {
            for i_bulge in 0..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                let mut v = v.rb_mut().col_mut(i_bulge);
                let mut h = a.rb_mut().submatrix_mut(i_pos - 1, i_pos - 1, 4, 4);
                let s1_re = s_re[s_re.nrows() - 1 - 2 * i_bulge];
                let s1_im = s_im[s_im.nrows() - 1 - 2 * i_bulge];
                let s2_re = s_re[s_re.nrows() - 1 - 2 * i_bulge - 1];
                let s2_im = s_im[s_im.nrows() - 1 - 2 * i_bulge - 1];
                move_bulge(h.rb_mut(), v.rb_mut(), (s1_re, s1_im), (s2_re, s2_im));
                let v0 = v[0];
                let v1 = v[1];
                let v2 = v[2];
                for j in istart_m..i_pos + 3 {
                    let sum = a[(j, i_pos)] + v1 * a[(j, i_pos + 1)] + v2 * a[(j, i_pos + 2)];
                    a[(j, i_pos)] -= sum * v0;
                    a[(j, i_pos + 1)] -= (sum * v0) * v1;
                    a[(j, i_pos + 2)] -= (sum * v0) * v2;
                }
                let sum =
                    a[(i_pos, i_pos)] + v1 * a[(i_pos + 1, i_pos)] + v2 * a[(i_pos + 2, i_pos)];
                a[(i_pos, i_pos)] -= sum * v0;
                a[(i_pos + 1, i_pos)] -= (sum * v0) * v1;
                a[(i_pos + 2, i_pos)] -= (sum * v0) * v2;
                zero_negligible_subdiagonal(a.rb_mut(), i_pos, (ilo, ihi), (eps, small_num));
            }
            for i_bulge in 0..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                let v = v.rb_mut().col_mut(i_bulge);
                let v0 = v[0];
                let v1 = v[1];
                let v2 = v[2];
                for j in i_pos + 1..istop_m {
                    let sum = a[(i_pos, j)] + v1 * a[(i_pos + 1, j)] + v2 * a[(i_pos + 2, j)];
                    a[(i_pos, j)] -= sum * v0;
                    a[(i_pos + 1, j)] -= (sum * v0) * v1;
                    a[(i_pos + 2, j)] -= (sum * v0) * v2;
                }
            }
            for i_bulge in 0..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                let v = v.rb_mut().col_mut(i_bulge);
                let v0 = v[0];
                let v1 = v[1];
                let v2 = v[2];
                let i1 = (i_pos - *i_pos_block) - (i_pos_last + 2 - *i_pos_block - n_shifts);
                let i2 = Ord::min(
                    u2.nrows(),
                    (i_pos_last - *i_pos_block) + (i_pos_last + 2 - *i_pos_block - n_shifts) + 3,
                );
                for j in i1..i2 {
                    let sum = u2[(j, i_pos - *i_pos_block)]
                        + v1 * u2[(j, i_pos - *i_pos_block + 1)]
                        + v2 * u2[(j, i_pos - *i_pos_block + 2)];
                    u2[(j, i_pos - *i_pos_block)] -= sum * v0;
                    u2[(j, i_pos - *i_pos_block + 1)] -= (sum * v0) * v1;
                    u2[(j, i_pos - *i_pos_block + 2)] -= (sum * v0) * v2;
                }
            }
        }
        if want_t {
            istart_m = 0;
            istop_m = n;
        } else {
            istart_m = ilo;
            istop_m = ihi;
        }
        apply_chase(
            a.rb_mut(),
            z.rb_mut(),
            u2.rb(),
            *i_pos_block,
            (istart_m, istop_m),
            wh.rb_mut(),
            wv.rb_mut(),
        );
        *i_pos_block += n_pos;
    }
}
#[inline(never)]
// The three phases of dlaqr5 share its whole state.
#[allow(clippy::too_many_arguments)]
pub(super) fn remove_bulges(
    ilo: usize,
    ihi: usize,
    n_bulges: usize,
    n_shifts: usize,
    want_t: bool,
    mut a: MatMut<'_, f64>,
    mut z: Option<MatMut<'_, f64>>,
    mut u: MatMut<'_, f64>,
    mut v: MatMut<'_, f64>,
    mut wh: MatMut<'_, f64>,
    mut wv: MatMut<'_, f64>,
    s_re: ColRef<'_, f64>,
    s_im: ColRef<'_, f64>,
    i_pos_block: &mut usize,
) {
    let n = a.nrows();
    let eps = f64::EPSILON;
    let small_num = f64::MIN_POSITIVE / eps * (n as f64);
    {
        let n_block = ihi - *i_pos_block;
        let mut u2 = u.rb_mut().submatrix_mut(0, 0, n_block, n_block);
        u2.fill(0.0);
        u2.rb_mut().diagonal_mut().fill(1.0);
        let mut istart_m = *i_pos_block;
        let mut istop_m = ihi;
        for i_pos_last in *i_pos_block + n_shifts - 2..ihi + n_shifts - 1 {
            let mut i_bulge_start = if i_pos_last + 3 > ihi {
                (i_pos_last + 3 - ihi) / 2
            } else {
                0
            };
            for i_bulge in i_bulge_start..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                if i_pos == ihi - 2 {
                    let mut v = v.rb_mut().subrows_mut(0, 2).col_mut(i_bulge);
                    let mut h = a.rb_mut().subrows_mut(i_pos, 2).col_mut(i_pos - 1);
                    let mut beta = h[0];
                    let tail = h.rb_mut().subrows_mut(1, 1);
                    let HouseholderInfo { tau, .. } = make_householder_in_place(&mut beta, tail);
                    v[0] = tau.recip();
                    v[1] = h[1];
                    h[0] = beta;
                    h[1] = 0.0;
                    let t0 = v[0];
                    let v1 = v[1];
                    let t1 = t0 * v1;
                    for j in istart_m..i_pos + 2 {
                        let sum = a[(j, i_pos)] + v1 * a[(j, i_pos + 1)];
                        a[(j, i_pos)] -= sum * t0;
                        a[(j, i_pos + 1)] -= sum * t1;
                    }
                    for j in i_pos..istop_m {
                        let sum = a[(i_pos, j)] + v1 * a[(i_pos + 1, j)];
                        a[(i_pos, j)] -= sum * t0;
                        a[(i_pos + 1, j)] -= sum * t1;
                    }
                    for j in 0..u2.nrows() {
                        let sum =
                            u2[(j, i_pos - *i_pos_block)] + v1 * u2[(j, i_pos - *i_pos_block + 1)];
                        u2[(j, i_pos - *i_pos_block)] -= sum * t0;
                        u2[(j, i_pos - *i_pos_block + 1)] -= sum * t1;
                    }
                } else {
                    let mut v = v.rb_mut().col_mut(i_bulge);
                    let mut h = a.rb_mut().submatrix_mut(i_pos - 1, i_pos - 1, 4, 4);
                    let s1_re = s_re[s_re.nrows() - 1 - 2 * i_bulge];
                    let s1_im = s_im[s_im.nrows() - 1 - 2 * i_bulge];
                    let s2_re = s_re[s_re.nrows() - 1 - 2 * i_bulge - 1];
                    let s2_im = s_im[s_im.nrows() - 1 - 2 * i_bulge - 1];
                    move_bulge(h.rb_mut(), v.rb_mut(), (s1_re, s1_im), (s2_re, s2_im));
                    {
                        let t0 = v[0];
                        let v1 = v[1];
                        let t1 = t0 * v1;
                        let v2 = v[2];
                        let t2 = t0 * v2;
                        for j in istart_m..i_pos + 3 {
                            let sum =
                                a[(j, i_pos)] + v1 * a[(j, i_pos + 1)] + v2 * a[(j, i_pos + 2)];
                            a[(j, i_pos)] -= sum * t0;
                            a[(j, i_pos + 1)] -= sum * t1;
                            a[(j, i_pos + 2)] -= sum * t2;
                        }
                    }
                    let v0 = v[0];
                    let v1 = v[1];
                    let v2 = v[2];
                    let sum =
                        a[(i_pos, i_pos)] + v1 * a[(i_pos + 1, i_pos)] + v2 * a[(i_pos + 2, i_pos)];
                    a[(i_pos, i_pos)] -= sum * v0;
                    a[(i_pos + 1, i_pos)] -= (sum * v0) * v1;
                    a[(i_pos + 2, i_pos)] -= (sum * v0) * v2;
                    zero_negligible_subdiagonal(a.rb_mut(), i_pos, (ilo, ihi), (eps, small_num));
                }
            }
            i_bulge_start = if i_pos_last + 4 > ihi {
                (i_pos_last + 4 - ihi) / 2
            } else {
                0
            };
            for i_bulge in i_bulge_start..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                let v = v.rb_mut().col_mut(i_bulge);
                let v0 = v[0];
                let v1 = v[1];
                let v2 = v[2];
                for j in i_pos + 1..istop_m {
                    let sum = a[(i_pos, j)] + v1 * a[(i_pos + 1, j)] + v2 * a[(i_pos + 2, j)];
                    a[(i_pos, j)] -= sum * v0;
                    a[(i_pos + 1, j)] -= (sum * v0) * v1;
                    a[(i_pos + 2, j)] -= (sum * v0) * v2;
                }
            }
            for i_bulge in i_bulge_start..n_bulges {
                let i_pos = i_pos_last - 2 * i_bulge;
                let v = v.rb_mut().col_mut(i_bulge);
                let v0 = v[0];
                let v1 = v[1];
                let v2 = v[2];
                let i1 = (i_pos - *i_pos_block) - (i_pos_last + 2 - *i_pos_block - n_shifts);
                let i2 = Ord::min(
                    u2.nrows(),
                    (i_pos_last - *i_pos_block) + (i_pos_last + 2 - *i_pos_block - n_shifts) + 3,
                );
                for j in i1..i2 {
                    let sum = u2[(j, i_pos - *i_pos_block)]
                        + v1 * u2[(j, i_pos - *i_pos_block + 1)]
                        + v2 * u2[(j, i_pos - *i_pos_block + 2)];
                    u2[(j, i_pos - *i_pos_block)] -= sum * v0;
                    u2[(j, i_pos - *i_pos_block + 1)] -= (sum * v0) * v1;
                    u2[(j, i_pos - *i_pos_block + 2)] -= (sum * v0) * v2;
                }
            }
        }
        if want_t {
            istart_m = 0;
            istop_m = n;
        } else {
            istart_m = ilo;
            istop_m = ihi;
        }
        debug_assert!(*i_pos_block + n_block == ihi);
        apply_chase(
            a.rb_mut(),
            z.rb_mut(),
            u2.rb(),
            *i_pos_block,
            (istart_m, istop_m),
            wh.rb_mut(),
            wv.rb_mut(),
        );
    }
}

/// dlaqr5's deflation check behind a bulge: the subdiagonal entry at
/// `i_pos` is set to zero when it is negligible by Ahues and Tisseur's
/// criterion (LAPACK's `dlahqr` test).
fn zero_negligible_subdiagonal(
    mut a: MatMut<'_, f64>,
    i_pos: usize,
    (ilo, ihi): (usize, usize),
    (eps, small_num): (f64, f64),
) {
    if i_pos > ilo && a[(i_pos, i_pos - 1)] != 0.0 {
        let mut tst1 = a[(i_pos - 1, i_pos - 1)].abs() + a[(i_pos, i_pos)].abs();
        if tst1 == 0.0 {
            if i_pos > ilo + 1 {
                tst1 += a[(i_pos - 1, i_pos - 2)].abs();
            }
            if i_pos > ilo + 2 {
                tst1 += a[(i_pos - 1, i_pos - 3)].abs();
            }
            if i_pos > ilo + 3 {
                tst1 += a[(i_pos - 1, i_pos - 4)].abs();
            }
            if i_pos < ihi - 1 {
                tst1 += a[(i_pos + 1, i_pos)].abs();
            }
            if i_pos < ihi - 2 {
                tst1 += a[(i_pos + 2, i_pos)].abs();
            }
            if i_pos < ihi - 3 {
                tst1 += a[(i_pos + 3, i_pos)].abs();
            }
        }
        if a[(i_pos, i_pos - 1)].abs() < (eps * tst1).max(small_num) {
            let ab = a[(i_pos, i_pos - 1)].abs().max(a[(i_pos - 1, i_pos)].abs());
            let ba = a[(i_pos, i_pos - 1)].abs().min(a[(i_pos - 1, i_pos)].abs());
            let aa = a[(i_pos, i_pos)]
                .abs()
                .max((a[(i_pos, i_pos)] - a[(i_pos - 1, i_pos - 1)]).abs());
            let bb = a[(i_pos, i_pos)]
                .abs()
                .min((a[(i_pos, i_pos)] - a[(i_pos - 1, i_pos - 1)]).abs());
            let s = aa + ab;
            if (ba * (ab / s)) <= (eps * (bb * (aa / s))).max(small_num) {
                a[(i_pos, i_pos - 1)] = 0.0;
            }
        }
    }
}
