//! One multishift QR sweep (LAPACK's `dlaqr5`): a chain of 3-by-3 bulges is
//! introduced at the top of the active block, chased down
//! (`bulges.rs`) and removed at the bottom. Each chase is confined to a
//! window whose transformations are gathered in U and then applied to the
//! rest of the matrix by matrix products (`apply_chase`).

use super::bulges::{move_bulges_down, remove_bulges};
use super::lahqr::lahqr_shiftcolumn;
use super::reflector::make_householder_in_place;
use faer::linalg::householder::HouseholderInfo;
use faer::linalg::matmul::matmul;
use faer::prelude::*;
use faer::{Accum, ColMut, ColRef, Mat, MatMut};

pub(super) fn move_bulge(
    mut h: MatMut<'_, f64>,
    mut v: ColMut<'_, f64>,
    s1: (f64, f64),
    s2: (f64, f64),
) {
    let epsilon = f64::EPSILON;
    let v0 = v[0];
    let v1 = v[1];
    let v2 = v[2];
    let refsum = (v2 * v0) * h[(3, 2)];
    h[(3, 0)] = -refsum;
    h[(3, 1)] = -refsum * v1;
    h[(3, 2)] -= refsum * v2;
    v[0] = h[(1, 0)];
    v[1] = h[(2, 0)];
    v[2] = h[(3, 0)];
    let mut beta = v[0];
    let tail = v.rb_mut().subrows_mut(1, 2);
    let HouseholderInfo { tau, .. } = make_householder_in_place(&mut beta, tail);
    v[0] = tau.recip();
    if h[(3, 0)] != 0.0 || h[(3, 1)] != 0.0 || h[(3, 2)] != 0.0 {
        h[(1, 0)] = beta;
        h[(2, 0)] = 0.0;
        h[(3, 0)] = 0.0;
    } else {
        let mut vt_buf = [0.0f64; 3];
        let mut vt = MatMut::from_column_major_slice_mut(&mut vt_buf, 3, 1);
        let mut vt = vt.rb_mut().col_mut(0);
        let h2 = h.rb().submatrix(1, 1, 3, 3);
        lahqr_shiftcolumn(h2, vt.rb_mut(), s1, s2);
        let mut beta_unused = vt[0];
        let tail = vt.rb_mut().subrows_mut(1, 2);
        let HouseholderInfo { tau, .. } = make_householder_in_place(&mut beta_unused, tail);
        vt[0] = tau.recip();
        let vt0 = vt[0];
        let vt1 = vt[1];
        let vt2 = vt[2];
        let refsum = vt0 * h[(1, 0)] + vt1 * h[(2, 0)];
        if (h[(2, 0)] - refsum * vt1).abs() + (refsum * vt2).abs()
            > epsilon * (h[(0, 0)].abs() + h[(1, 1)].abs() + h[(2, 2)].abs())
        {
            h[(1, 0)] = beta;
            h[(2, 0)] = 0.0;
            h[(3, 0)] = 0.0;
        } else {
            h[(1, 0)] -= refsum;
            h[(2, 0)] = 0.0;
            h[(3, 0)] = 0.0;
            v[0] = vt[0];
            v[1] = vt[1];
            v[2] = vt[2];
        }
    }
}
pub(super) fn multishift_qr_sweep(
    want_t: bool,
    a: MatMut<f64>,
    mut z: Option<MatMut<f64>>,
    s_re: ColMut<f64>,
    s_im: ColMut<f64>,
    ilo: usize,
    ihi: usize,
) {
    let n = a.nrows();
    assert!(n >= 12);
    let mut v = Mat::<f64>::zeros(3, s_re.nrows() / 2);
    let mut v = v.as_mut();
    let n_block_max = (n - 3) / 3;
    let n_shifts_max = Ord::min(ihi - ilo - 1, Ord::max(2, 3 * (n_block_max / 4)));
    let mut n_shifts = Ord::min(s_re.nrows(), n_shifts_max);
    if n_shifts % 2 == 1 {
        n_shifts -= 1;
    }
    let n_bulges = n_shifts / 2;
    let n_block_desired = Ord::min(2 * n_shifts, n_block_max);
    // dlaqr5 keeps these in the matrix's lower left; their shapes, which
    // set how the off-diagonal updates are split, are kept.
    let mut u = Mat::<f64>::zeros(n_block_desired, n_block_desired);
    let mut u = u.as_mut();
    let mut wh = Mat::<f64>::zeros(n_block_desired, n - 2 * n_block_desired - 3);
    let mut wh = wh.as_mut();
    let mut wv = Mat::<f64>::zeros(n - 2 * n_block_desired - 3, n_block_desired);
    let mut wv = wv.as_mut();
    let mut a = a;
    let mut i_pos_block = 0;
    introduce_bulges(
        ilo,
        ihi,
        n_block_desired,
        n_bulges,
        n_shifts,
        want_t,
        a.rb_mut(),
        z.rb_mut(),
        u.rb_mut(),
        v.rb_mut(),
        wh.rb_mut(),
        wv.rb_mut(),
        s_re.rb(),
        s_im.rb(),
        &mut i_pos_block,
    );
    move_bulges_down(
        ilo,
        ihi,
        n_block_desired,
        n_bulges,
        n_shifts,
        want_t,
        a.rb_mut(),
        z.rb_mut(),
        u.rb_mut(),
        v.rb_mut(),
        wh.rb_mut(),
        wv.rb_mut(),
        s_re.rb(),
        s_im.rb(),
        &mut i_pos_block,
    );
    remove_bulges(
        ilo,
        ihi,
        n_bulges,
        n_shifts,
        want_t,
        a.rb_mut(),
        z.rb_mut(),
        u.rb_mut(),
        v.rb_mut(),
        wh.rb_mut(),
        wv.rb_mut(),
        s_re.rb(),
        s_im.rb(),
        &mut i_pos_block,
    );
}
// The three phases of dlaqr5 share its whole state.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn introduce_bulges(
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
    let n_block = Ord::min(n_block_desired, ihi - ilo);
    let mut istart_m = ilo;
    let mut istop_m = ilo + n_block;
    let mut u2 = u.rb_mut().submatrix_mut(0, 0, n_block, n_block);
    u2.fill(0.0);
    u2.rb_mut().diagonal_mut().fill(1.0);
    for i_pos_last in ilo..ilo + n_block - 2 {
        let n_active_bulges = Ord::min(n_bulges, ((i_pos_last - ilo) / 2) + 1);
        for i_bulge in 0..n_active_bulges {
            let i_pos = i_pos_last - 2 * i_bulge;
            let mut v = v.rb_mut().col_mut(i_bulge);
            if i_pos == ilo {
                let h = a.rb().submatrix(ilo, ilo, 3, 3);
                let s1_re = s_re[s_re.nrows() - 1 - 2 * i_bulge];
                let s1_im = s_im[s_im.nrows() - 1 - 2 * i_bulge];
                let s2_re = s_re[s_re.nrows() - 1 - 2 * i_bulge - 1];
                let s2_im = s_im[s_im.nrows() - 1 - 2 * i_bulge - 1];
                lahqr_shiftcolumn(h, v.rb_mut(), (s1_re, s1_im), (s2_re, s2_im));
                debug_assert!(v.nrows() == 3);
                let mut head = v[0];
                let tail = v.rb_mut().subrows_mut(1, 2);
                let HouseholderInfo { tau, .. } = make_householder_in_place(&mut head, tail);
                v[0] = tau.recip();
            } else {
                let mut h = a.rb_mut().submatrix_mut(i_pos - 1, i_pos - 1, 4, 4);
                let s1_re = s_re[s_re.nrows() - 1 - 2 * i_bulge];
                let s1_im = s_im[s_im.nrows() - 1 - 2 * i_bulge];
                let s2_re = s_re[s_re.nrows() - 1 - 2 * i_bulge - 1];
                let s2_im = s_im[s_im.nrows() - 1 - 2 * i_bulge - 1];
                move_bulge(h.rb_mut(), v.rb_mut(), (s1_re, s1_im), (s2_re, s2_im));
            }
            let v0 = v[0];
            let v1 = v[1];
            let v2 = v[2];
            for j in istart_m..i_pos + 3 {
                let sum = a[(j, i_pos)] + v1 * a[(j, i_pos + 1)] + v2 * a[(j, i_pos + 2)];
                a[(j, i_pos)] -= sum * v0;
                a[(j, i_pos + 1)] -= (sum * v0) * v1;
                a[(j, i_pos + 2)] -= (sum * v0) * v2;
            }
            let sum = a[(i_pos, i_pos)] + v1 * a[(i_pos + 1, i_pos)] + v2 * a[(i_pos + 2, i_pos)];
            a[(i_pos, i_pos)] -= sum * v0;
            a[(i_pos + 1, i_pos)] -= (sum * v0) * v1;
            a[(i_pos + 2, i_pos)] -= (sum * v0) * v2;
            if i_pos > ilo && (a[(i_pos, i_pos - 1)] != 0.0) {
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
        for i_bulge in 0..n_active_bulges {
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
        for i_bulge in 0..n_active_bulges {
            let i_pos = i_pos_last - 2 * i_bulge;
            let v = v.rb_mut().col_mut(i_bulge);
            let v0 = v[0];
            let v1 = v[1];
            let v2 = v[2];
            let i1 = 0;
            let i2 = Ord::min(u2.nrows(), (i_pos_last - ilo) + (i_pos_last - ilo) + 3);
            for j in i1..i2 {
                let sum = u2[(j, i_pos - ilo)]
                    + v1 * u2[(j, i_pos - ilo + 1)]
                    + v2 * u2[(j, i_pos - ilo + 2)];
                u2[(j, i_pos - ilo)] -= sum * v0;
                u2[(j, i_pos - ilo + 1)] -= (sum * v0) * v1;
                u2[(j, i_pos - ilo + 2)] -= (sum * v0) * v2;
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
        ilo,
        (istart_m, istop_m),
        wh.rb_mut(),
        wv.rb_mut(),
    );
    *i_pos_block = ilo + n_block - n_shifts;
}

/// After a chase confined to rows and columns `k..k + nb` (`nb` = `u`'s
/// order), applies the chase's accumulated orthogonal `u` to the rest, as
/// `dlaqr5` does: `u`ᵀ to A's rows `k..k + nb` right of the window up to
/// column `istop_m`, `u` to A's columns above it from row `istart_m`, and
/// `u` to Z, each a chunk of the work matrices' size at a time.
#[allow(clippy::too_many_arguments)]
pub(super) fn apply_chase(
    mut a: MatMut<'_, f64>,
    mut z: Option<MatMut<'_, f64>>,
    u: MatRef<'_, f64>,
    k: usize,
    (istart_m, istop_m): (usize, usize),
    mut wh: MatMut<'_, f64>,
    mut wv: MatMut<'_, f64>,
) {
    let nb = u.nrows();
    let mut i = k + nb;
    while i < istop_m {
        let iblock = Ord::min(istop_m - i, wh.ncols());
        let mut a_slice = a.rb_mut().submatrix_mut(k, i, nb, iblock);
        let mut wh_slice = wh.rb_mut().submatrix_mut(0, 0, nb, iblock);
        matmul(
            wh_slice.rb_mut(),
            Accum::Replace,
            u.transpose(),
            a_slice.rb(),
            1.0,
            crate::kernels::width::par(),
        );
        a_slice.copy_from(wh_slice.rb());
        i += iblock;
    }
    let mut i = istart_m;
    while i < k {
        let iblock = Ord::min(k - i, wv.nrows());
        let mut a_slice = a.rb_mut().submatrix_mut(i, k, iblock, nb);
        let mut wv_slice = wv.rb_mut().submatrix_mut(0, 0, iblock, nb);
        matmul(
            wv_slice.rb_mut(),
            Accum::Replace,
            a_slice.rb(),
            u,
            1.0,
            crate::kernels::width::par(),
        );
        a_slice.copy_from(wv_slice.rb());
        i += iblock;
    }
    if let Some(mut z) = z.rb_mut() {
        let n = z.nrows();
        let mut i = 0;
        while i < n {
            let iblock = Ord::min(n - i, wv.nrows());
            let mut z_slice = z.rb_mut().submatrix_mut(i, k, iblock, nb);
            let mut wv_slice = wv.rb_mut().submatrix_mut(0, 0, iblock, nb);
            matmul(
                wv_slice.rb_mut(),
                Accum::Replace,
                z_slice.rb(),
                u,
                1.0,
                crate::kernels::width::par(),
            );
            z_slice.copy_from(wv_slice.rb());
            i += iblock;
        }
    }
}
