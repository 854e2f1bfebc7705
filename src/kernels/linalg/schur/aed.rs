//! Aggressive early deflation (LAPACK's `dlaqr3`): reduce a trailing
//! window of the Hessenberg matrix to Schur form, deflate the eigenvalues
//! whose spike entries are negligible, and hand the rest back as shifts.

use faer::dyn_stack::MemStack;
use faer::linalg::evd::hessenberg::hessenberg_in_place;
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_right_in_place_with_conj,
    apply_block_householder_sequence_transpose_on_the_left_in_place_with_conj,
    make_householder_in_place, HouseholderInfo,
};
use faer::linalg::matmul::matmul;
use faer::prelude::{Reborrow, ReborrowMut};
use faer::{Accum, Col, ColMut, Conj, Mat, MatMut};

use super::lahqr::lahqr_eig22;
use super::multishift_qr;
use super::swap::{schur_move, schur_swap};

/// Deflates within the window of (at most) `nw` rows ending at `ihi`.
/// Returns how many unconverged eigenvalues of the window are left as
/// shifts (in `s_re`/`s_im` just above the deflated ones) and how many
/// deflated.
#[allow(clippy::too_many_arguments)]
pub(super) fn aggressive_early_deflation(
    want_t: bool,
    mut a: MatMut<'_, f64>,
    mut z: Option<MatMut<'_, f64>>,
    mut s_re: ColMut<'_, f64>,
    mut s_im: ColMut<'_, f64>,
    ilo: usize,
    ihi: usize,
    nw: usize,
    stack: &mut MemStack,
) -> (usize, usize) {
    let n = a.nrows();
    let eps = f64::EPSILON;
    let small_num = f64::MIN_POSITIVE / eps * (n as f64);
    // LAPACK keeps its work arrays in the matrix's lower left, which caps
    // the window at a third of n; the cap stays so the iteration is LAPACK's.
    let nw_max = (n - 3) / 3;
    let jw = Ord::min(Ord::min(nw, ihi - ilo), nw_max);
    let kwtop = ihi - jw;
    let mut s_spike = if kwtop == ilo {
        0.0
    } else {
        a[(kwtop, kwtop - 1)]
    };
    if kwtop + 1 == ihi {
        s_re[kwtop] = a[(kwtop, kwtop)];
        s_im[kwtop] = 0.0;
        if s_spike.abs() <= (eps * a[(kwtop, kwtop)].abs()).max(small_num) {
            if kwtop > ilo {
                a[(kwtop, kwtop - 1)] = 0.0;
            }
            return (0, 1);
        }
        return (1, 0);
    }
    // The window's Hessenberg part, and the orthogonal V that will take it
    // to Schur form.
    let mut tw = Mat::<f64>::zeros(jw, jw);
    for j in 0..jw {
        for i in 0..Ord::min(j + 2, jw) {
            tw[(i, j)] = a[(kwtop + i, kwtop + j)];
        }
    }
    let mut v = Mat::<f64>::identity(jw, jw);
    let infqr = {
        let s_re_window = s_re.rb_mut().subrows_mut(kwtop, jw);
        let s_im_window = s_im.rb_mut().subrows_mut(kwtop, jw);
        // dlaqr3 hands big windows to the multishift code (dlaqr4) rather
        // than the double-shift one, which multishift_qr itself picks below
        // NMIN: at n = 1000 that is a tenth of the whole eigen solve.
        let info = multishift_qr(
            true,
            tw.as_mut(),
            Some(v.as_mut()),
            s_re_window,
            s_im_window,
            0,
            jw,
            stack,
        );
        for j in 0..jw {
            for i in j + 2..jw {
                tw[(i, j)] = 0.0;
            }
        }
        info
    };

    let mut ns = jw;
    let nd;
    let mut ilst = infqr;
    while ilst < ns {
        let s_spike = &s_spike;
        let mut bulge = false;
        if ns > 1 && (tw[(ns - 1, ns - 2)] != 0.0) {
            bulge = true;
        }
        if !bulge {
            let mut __tmp = tw[(ns - 1, ns - 1)].abs();
            if __tmp == 0.0 {
                __tmp = s_spike.abs();
            }
            if s_spike.abs() * v[(0, ns - 1)].abs() <= (eps * __tmp).max(small_num) {
                ns -= 1;
            } else {
                let ifst = ns - 1;
                schur_move(tw.as_mut(), Some(v.as_mut()), ifst, &mut ilst);
                ilst += 1;
            }
        } else {
            let mut __tmp = tw[(ns - 1, ns - 1)].abs()
                + tw[(ns - 1, ns - 2)].abs().sqrt() * tw[(ns - 2, ns - 1)].abs().sqrt();
            if __tmp == 0.0 {
                __tmp = s_spike.abs();
            }
            if (s_spike * v[(0, ns - 1)])
                .abs()
                .max((s_spike * v[(0, ns - 2)]).abs())
                <= (eps * __tmp).max(small_num)
            {
                ns -= 2;
            } else {
                let ifst = ns - 2;
                schur_move(tw.as_mut(), Some(v.as_mut()), ifst, &mut ilst);
                ilst += 2;
            }
        }
    }
    if ns == 0 {
        s_spike = 0.0;
    }
    if ns == jw {
        nd = jw - ns;
        ns -= infqr;
        return (ns, nd);
    }
    let mut sorted = false;
    let mut sorting_window_size = jw as isize;
    while !sorted {
        sorted = true;
        let mut ilst = 0isize;
        let mut i1 = ns;
        while i1 as isize + 1 < sorting_window_size {
            let mut n1 = 1;
            if tw[(i1 + 1, i1)] != 0.0 {
                n1 = 2;
            }
            if i1 + n1 == jw {
                ilst -= n1 as isize;
                break;
            }
            let i2 = i1 + n1;
            let mut n2 = 1;
            if i2 + 1 < jw && (tw[(i2 + 1, i2)] != 0.0) {
                n2 = 2;
            }
            let (ev1, ev2);
            if n1 == 1 {
                ev1 = tw[(i1, i1)].abs();
            } else {
                ev1 = tw[(i1, i1)].abs()
                    + tw[(i1 + 1, i1)].abs().sqrt() * tw[(i1, i1 + 1)].abs().sqrt();
            }
            if n2 == 1 {
                ev2 = tw[(i2, i2)].abs();
            } else {
                ev2 = tw[(i2, i2)].abs()
                    + tw[(i2 + 1, i2)].abs().sqrt() * tw[(i2, i2 + 1)].abs().sqrt();
            }
            if ev1 >= ev2 {
                i1 = i2;
            } else {
                sorted = false;
                let ierr = schur_swap(tw.as_mut(), Some(v.as_mut()), i1, n1, n2);
                if ierr == 0 {
                    i1 += n2;
                } else {
                    i1 = i2;
                }
                ilst = i1 as isize;
            }
        }
        sorting_window_size = ilst;
    }
    let mut i = 0;
    while i < jw {
        let mut n1 = 1;
        if i + 1 < jw && (tw[(i + 1, i)] != 0.0) {
            n1 = 2;
        }
        if n1 == 1 {
            s_re[kwtop + i] = tw[(i, i)];
            s_im[kwtop + i] = 0.0;
        } else {
            let ((s1_re, s1_im), (s2_re, s2_im)) = lahqr_eig22(
                tw[(i, i)],
                tw[(i, i + 1)],
                tw[(i + 1, i)],
                tw[(i + 1, i + 1)],
            );
            s_re[kwtop + i] = s1_re;
            s_im[kwtop + i] = s1_im;
            s_re[kwtop + i + 1] = s2_re;
            s_im[kwtop + i + 1] = s2_im;
        }
        i += n1;
    }
    if s_spike != 0.0 && ns > 0 {
        restore_hessenberg(tw.as_mut(), v.as_mut(), ns, stack);
    }
    if kwtop > 0 {
        a[(kwtop, kwtop - 1)] = s_spike * v[(0, 0)];
    }
    for j in 0..jw {
        for i in 0..Ord::min(j + 2, jw) {
            a[(kwtop + i, kwtop + j)] = tw[(i, j)];
        }
    }
    nd = jw - ns;
    ns -= infqr;
    // Apply V to the rest of the matrix and to Z.
    let (istart_m, istop_m) = if want_t { (0, n) } else { (ilo, ihi) };
    if ihi < istop_m {
        let mut right = a.rb_mut().submatrix_mut(kwtop, ihi, jw, istop_m - ihi);
        let mut wh = Mat::<f64>::zeros(jw, istop_m - ihi);
        matmul(
            wh.as_mut(),
            Accum::Replace,
            v.transpose(),
            right.rb(),
            1.0,
            crate::kernels::width::par(),
        );
        right.copy_from(&wh);
    }
    if istart_m < kwtop {
        let mut above = a
            .rb_mut()
            .submatrix_mut(istart_m, kwtop, kwtop - istart_m, jw);
        let mut wv = Mat::<f64>::zeros(kwtop - istart_m, jw);
        matmul(
            wv.as_mut(),
            Accum::Replace,
            above.rb(),
            v.as_ref(),
            1.0,
            crate::kernels::width::par(),
        );
        above.copy_from(&wv);
    }
    if let Some(mut z) = z.rb_mut() {
        let mut cols = z.rb_mut().submatrix_mut(0, kwtop, n, jw);
        let mut wz = Mat::<f64>::zeros(n, jw);
        matmul(
            wz.as_mut(),
            Accum::Replace,
            cols.rb(),
            v.as_ref(),
            1.0,
            crate::kernels::width::par(),
        );
        cols.copy_from(&wz);
    }
    (ns, nd)
}

/// The undeflated part of the window is quasi-triangular but its spike is
/// full: a reflector folds the spike into its first entry, and a Hessenberg
/// reduction of the leading `ns` rows restores the form.
fn restore_hessenberg(
    mut tw: MatMut<'_, f64>,
    mut v: MatMut<'_, f64>,
    ns: usize,
    stack: &mut MemStack,
) {
    let jw = tw.nrows();
    let mut vv = Col::<f64>::zeros(ns);
    for i in 0..ns {
        vv[i] = v[(0, i)];
    }
    let mut head = vv[0];
    // head becomes beta, which dlaqr3 does not need: the reflector is
    // applied to the whole window below.
    let HouseholderInfo { tau, .. } =
        make_householder_in_place(&mut head, vv.as_mut().subrows_mut(1, ns - 1));
    vv[0] = 1.0;
    let tau = tau.recip();
    // H tw H and V H, with H = I - tau vv vvᵀ on the leading ns rows/columns.
    let mut tmp = Mat::<f64>::zeros(1, jw);
    let mut rows = tw.rb_mut().submatrix_mut(0, 0, ns, jw);
    matmul(
        tmp.as_mut(),
        Accum::Replace,
        vv.as_mat().transpose(),
        rows.rb(),
        1.0,
        crate::kernels::width::par(),
    );
    matmul(
        rows.rb_mut(),
        Accum::Add,
        vv.as_mat(),
        tmp.as_ref(),
        -tau,
        crate::kernels::width::par(),
    );
    let mut tmp = Mat::<f64>::zeros(jw, 1);
    for mut cols in [
        tw.rb_mut().submatrix_mut(0, 0, jw, ns),
        v.rb_mut().submatrix_mut(0, 0, jw, ns),
    ] {
        matmul(
            tmp.as_mut(),
            Accum::Replace,
            cols.rb(),
            vv.as_mat(),
            1.0,
            crate::kernels::width::par(),
        );
        matmul(
            cols.rb_mut(),
            Accum::Add,
            tmp.as_ref(),
            vv.as_mat().transpose(),
            -tau,
            crate::kernels::width::par(),
        );
    }
    // The Hessenberg reduction's reflectors, with block size 1.
    let mut house = Mat::<f64>::zeros(1, ns - 1);
    hessenberg_in_place(
        tw.rb_mut().submatrix_mut(0, 0, ns, ns),
        house.as_mut(),
        crate::kernels::width::par(),
        stack,
        Default::default(),
    );
    let (left, right) = tw.rb_mut().split_at_col_mut(ns);
    apply_block_householder_sequence_transpose_on_the_left_in_place_with_conj(
        left.rb().submatrix(1, 0, ns - 1, ns - 1),
        house.as_ref(),
        Conj::Yes,
        right.subrows_mut(1, ns - 1),
        crate::kernels::width::par(),
        stack,
    );
    apply_block_householder_sequence_on_the_right_in_place_with_conj(
        left.rb().submatrix(1, 0, ns - 1, ns - 1),
        house.as_ref(),
        Conj::No,
        v.submatrix_mut(0, 1, jw, ns - 1),
        crate::kernels::width::par(),
        stack,
    );
}
