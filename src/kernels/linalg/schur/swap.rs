//! Reordering the Schur form (LAPACK's `dlaexc` and `dtrexc`): swapping
//! adjacent 1-by-1 and 2-by-2 blocks by orthogonal similarity, with the
//! small Sylvester solver (`dlasy2`) the 2-by-2 swaps need. Early deflation
//! uses it to move undeflatable eigenvalues up and to sort the shifts.

use super::lahqr::lahqr_schur22;
use super::reflector::make_householder_in_place;
use faer::linalg::householder::HouseholderInfo;
use faer::linalg::jacobi::JacobiRotation;
use faer::prelude::*;
use faer::{MatMut, MatRef};

fn lasy2(tl: MatRef<'_, f64>, tr: MatRef<'_, f64>, b: MatRef<'_, f64>, x: MatMut<'_, f64>) -> f64 {
    let mut x = x;
    let mut info = 0;
    debug_assert!(tl.nrows() == 2 && tr.nrows() == 2 && tl.ncols() == 2 && tr.ncols() == 2);
    let eps = f64::EPSILON;
    let smlnum = f64::MIN_POSITIVE / eps;
    let mut btmp_buf = [0.0f64; 4];
    let mut btmp = MatMut::from_column_major_slice_mut(&mut btmp_buf, 4, 1);
    let mut tmp_buf = [0.0f64; 4];
    let mut tmp = MatMut::from_column_major_slice_mut(&mut tmp_buf, 4, 1);
    let mut t16_buf = [0.0f64; 4 * 4];
    let mut t16 = MatMut::from_column_major_slice_mut(&mut t16_buf, 4, 4);
    let mut jpiv = [0usize; 4];
    let smin = tr[(0, 0)]
        .abs()
        .max(tr[(0, 1)].abs())
        .max(tr[(1, 0)].abs())
        .max(tr[(1, 1)].abs())
        .max(tl[(0, 0)].abs())
        .max(tl[(0, 1)].abs())
        .max(tl[(1, 0)].abs())
        .max(tl[(1, 1)].abs());
    let smin = (eps * smin).max(smlnum);
    t16[(0, 0)] = tl[(0, 0)] - tr[(0, 0)];
    t16[(1, 1)] = tl[(1, 1)] - tr[(0, 0)];
    t16[(2, 2)] = tl[(0, 0)] - tr[(1, 1)];
    t16[(3, 3)] = tl[(1, 1)] - tr[(1, 1)];
    t16[(0, 1)] = tl[(0, 1)];
    t16[(1, 0)] = tl[(1, 0)];
    t16[(2, 3)] = tl[(0, 1)];
    t16[(3, 2)] = tl[(1, 0)];
    t16[(0, 2)] = -&tr[(1, 0)];
    t16[(1, 3)] = -&tr[(1, 0)];
    t16[(2, 0)] = -&tr[(0, 1)];
    t16[(3, 1)] = -&tr[(0, 1)];
    btmp[(0, 0)] = b[(0, 0)];
    btmp[(1, 0)] = b[(1, 0)];
    btmp[(2, 0)] = b[(0, 1)];
    btmp[(3, 0)] = b[(1, 1)];
    let (mut ipsv, mut jpsv);
    #[allow(clippy::needless_range_loop)]
    for i in 0..3usize {
        ipsv = i;
        jpsv = i;
        let mut xmax = 0.0;
        for ip in i..4 {
            for jp in i..4 {
                if t16[(ip, jp)].abs() >= xmax {
                    xmax = t16[(ip, jp)].abs();
                    ipsv = ip;
                    jpsv = jp;
                }
            }
        }
        if ipsv != i {
            for k in 0..4 {
                let t = t16[(ipsv, k)];
                t16[(ipsv, k)] = t16[(i, k)];
                t16[(i, k)] = t;
            }
            let temp = btmp[(i, 0)];
            btmp[(i, 0)] = btmp[(ipsv, 0)];
            btmp[(ipsv, 0)] = temp;
        }
        if jpsv != i {
            for k in 0..4 {
                let t = t16[(k, jpsv)];
                t16[(k, jpsv)] = t16[(k, i)];
                t16[(k, i)] = t;
            }
        }
        jpiv[i] = jpsv;
        if t16[(i, i)].abs() < smin {
            info = 1;
            t16[(i, i)] = smin;
        }
        for j in i + 1..4 {
            t16[(j, i)] /= t16[(i, i)];
            btmp[(j, 0)] -= t16[(j, i)] * btmp[(i, 0)];
            for k in i + 1..4 {
                t16[(j, k)] -= t16[(j, i)] * t16[(i, k)];
            }
        }
    }
    if t16[(3, 3)].abs() < smin {
        info = 1;
        t16[(3, 3)] = smin;
    }
    let mut scale = 1.0;
    let eight = 8.0;
    if (eight * smlnum) * btmp[(0, 0)].abs() > t16[(0, 0)].abs()
        || (eight * smlnum) * btmp[(1, 0)].abs() > t16[(1, 1)].abs()
        || (eight * smlnum) * btmp[(2, 0)].abs() > t16[(2, 2)].abs()
        || (eight * smlnum) * btmp[(3, 0)].abs() > t16[(3, 3)].abs()
    {
        scale = (0.125)
            / btmp[(0, 0)]
                .abs()
                .max(btmp[(1, 0)].abs())
                .max(btmp[(2, 0)].abs())
                .max(btmp[(3, 0)].abs());
        btmp[(0, 0)] *= &scale;
        btmp[(1, 0)] *= &scale;
        btmp[(2, 0)] *= &scale;
        btmp[(3, 0)] *= &scale;
    }
    for i in 0..4usize {
        let k = 3 - i;
        let temp = t16[(k, k)].recip();
        tmp[(k, 0)] = btmp[(k, 0)] * temp;
        for j in k + 1..4 {
            tmp[(k, 0)] -= temp * t16[(k, j)] * tmp[(j, 0)];
        }
    }
    for i in 0..3usize {
        if jpiv[2 - i] != 2 - i {
            let temp = tmp[(2 - i, 0)];
            tmp[(2 - i, 0)] = tmp[(jpiv[2 - i], 0)];
            tmp[(jpiv[2 - i], 0)] = temp;
        }
    }
    x[(0, 0)] = tmp[(0, 0)];
    x[(1, 0)] = tmp[(1, 0)];
    x[(0, 1)] = tmp[(2, 0)];
    x[(1, 1)] = tmp[(3, 0)];
    let _ = info;
    scale
}
#[inline(never)]
pub(super) fn schur_move(
    mut a: MatMut<f64>,
    mut q: Option<MatMut<f64>>,
    mut ifst: usize,
    ilst: &mut usize,
) -> isize {
    let n = a.nrows();
    if n == 0 {
        return 0;
    }
    if ifst > 0 && (a[(ifst, ifst - 1)] != 0.0) {
        ifst -= 1;
    }
    let mut nbf = 1;
    if ifst < n - 1 && (a[(ifst + 1, ifst)] != 0.0) {
        nbf = 2;
    }
    if *ilst > 0 && (a[(*ilst, *ilst - 1)] != 0.0) {
        *ilst -= 1;
    }
    let mut nbl = 1;
    if (*ilst < n - 1) && (a[(*ilst + 1, *ilst)] != 0.0) {
        nbl = 2;
    }
    let mut here = ifst;
    if ifst < *ilst {
        if nbf == 2 && nbl == 1 {
            *ilst -= 1;
        }
        if nbf == 1 && nbl == 2 {
            *ilst += 1;
        }
        while here != *ilst {
            let mut nbnext = 1;
            if (here + nbf + 1 < n) && (a[(here + nbf + 1, here + nbf)] != 0.0) {
                nbnext = 2;
            }
            let ierr = schur_swap(a.rb_mut(), q.rb_mut(), here, nbf, nbnext);
            if ierr != 0 {
                *ilst = here;
                return 1;
            }
            here += nbnext;
        }
    } else {
        while here != *ilst {
            let mut nbnext = 1;
            if here > 1 && (a[(here - 1, here - 2)] != 0.0) {
                nbnext = 2;
            }
            let ierr = schur_swap(a.rb_mut(), q.rb_mut(), here - nbnext, nbnext, nbf);
            if ierr != 0 {
                *ilst = here;
                return 1;
            }
            here -= nbnext;
        }
    }
    0
}
fn schur_swap_11(mut a: MatMut<f64>, mut q: Option<MatMut<f64>>, j0: usize) -> isize {
    let n = a.nrows();
    let j1 = j0 + 1;
    let j2 = j0 + 2;
    let t00 = a[(j0, j0)];
    let t11 = a[(j1, j1)];
    let temp = a[(j0, j1)];
    let temp2 = t11 - t00;
    let (rot, _) = JacobiRotation::rotg(temp, temp2);
    a[(j1, j1)] = t00;
    a[(j0, j0)] = t11;
    if j2 < n {
        rot.adjoint().apply_on_the_right_in_place(
            a.rb_mut()
                .transpose_mut()
                .get_mut(j2.., ..)
                .two_cols_mut(j0, j1),
        );
    }
    if j0 > 0 {
        rot.adjoint()
            .apply_on_the_right_in_place(a.rb_mut().get_mut(..j0, ..).two_cols_mut(j0, j1));
    }
    if let Some(q) = q.rb_mut() {
        rot.adjoint()
            .apply_on_the_right_in_place(q.two_cols_mut(j0, j1));
    }
    0
}
fn schur_swap_12(mut a: MatMut<f64>, mut q: Option<MatMut<f64>>, j0: usize) -> isize {
    let n = a.nrows();
    let j1 = j0 + 1;
    let j2 = j0 + 2;
    let j3 = j0 + 3;
    let mut b_buf = [0.0f64; 3 * 2];
    let mut b = MatMut::from_column_major_slice_mut(&mut b_buf, 3, 2);
    b[(0, 0)] = a[(j0, j1)];
    b[(1, 0)] = a[(j1, j1)] - a[(j0, j0)];
    b[(2, 0)] = a[(j2, j1)];
    b[(0, 1)] = a[(j0, j2)];
    b[(1, 1)] = a[(j1, j2)];
    b[(2, 1)] = a[(j2, j2)] - a[(j0, j0)];
    let mut v1 = b.rb_mut().col_mut(0);
    let (head, tail) = v1.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau1, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau1 = tau1.recip();
    let v11 = b[(1, 0)];
    let v12 = b[(2, 0)];
    let sum = b[(0, 1)] + v11 * b[(1, 1)] + v12 * b[(2, 1)];
    b[(0, 1)] -= sum * tau1;
    b[(1, 1)] -= sum * tau1 * v11;
    b[(2, 1)] -= sum * tau1 * v12;
    let mut v2 = b.rb_mut().col_mut(1).subrows_mut(1, 2);
    let (head, tail) = v2.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau2, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau2 = tau2.recip();
    let v21 = v2[1];
    for j in j0..n {
        let sum = a[(j0, j)] + v11 * a[(j1, j)] + v12 * a[(j2, j)];
        a[(j0, j)] -= sum * tau1;
        a[(j1, j)] -= sum * tau1 * v11;
        a[(j2, j)] -= sum * tau1 * v12;
        let sum = a[(j1, j)] + v21 * a[(j2, j)];
        a[(j1, j)] -= sum * tau2;
        a[(j2, j)] -= sum * tau2 * v21;
    }
    for j in 0..j3 {
        let sum = a[(j, j0)] + v11 * a[(j, j1)] + v12 * a[(j, j2)];
        a[(j, j0)] -= sum * tau1;
        a[(j, j1)] -= sum * tau1 * v11;
        a[(j, j2)] -= sum * tau1 * v12;
        let sum = a[(j, j1)] + v21 * a[(j, j2)];
        a[(j, j1)] -= sum * tau2;
        a[(j, j2)] -= sum * tau2 * v21;
    }
    if let Some(mut q) = q.rb_mut() {
        for j in 0..n {
            let sum = q[(j, j0)] + v11 * q[(j, j1)] + v12 * q[(j, j2)];
            q[(j, j0)] -= sum * tau1;
            q[(j, j1)] -= sum * tau1 * v11;
            q[(j, j2)] -= sum * tau1 * v12;
            let sum = q[(j, j1)] + v21 * q[(j, j2)];
            q[(j, j1)] -= sum * tau2;
            q[(j, j2)] -= sum * tau2 * v21;
        }
    }
    a[(j2, j0)] = 0.0;
    a[(j2, j1)] = 0.0;
    0
}
fn schur_swap_21(mut a: MatMut<f64>, mut q: Option<MatMut<f64>>, j0: usize) -> isize {
    let n = a.nrows();
    let j1 = j0 + 1;
    let j2 = j0 + 2;
    let j3 = j0 + 3;
    let mut b_buf = [0.0f64; 3 * 2];
    let mut b = MatMut::from_column_major_slice_mut(&mut b_buf, 3, 2);
    b[(0, 0)] = a[(j1, j2)];
    b[(1, 0)] = a[(j1, j1)] - a[(j2, j2)];
    b[(2, 0)] = a[(j1, j0)];
    b[(0, 1)] = a[(j0, j2)];
    b[(1, 1)] = a[(j0, j1)];
    b[(2, 1)] = a[(j0, j0)] - a[(j2, j2)];
    let mut v1 = b.rb_mut().col_mut(0);
    let (head, tail) = v1.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau1, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau1 = tau1.recip();
    let v11 = v1[1];
    let v12 = v1[2];
    let sum = b[(0, 1)] + v11 * b[(1, 1)] + v12 * b[(2, 1)];
    b[(0, 1)] -= sum * tau1;
    b[(1, 1)] -= sum * tau1 * v11;
    b[(2, 1)] -= sum * tau1 * v12;
    let mut v2 = b.rb_mut().col_mut(1).subrows_mut(1, 2);
    let (head, tail) = v2.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau2, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau2 = tau2.recip();
    let v21 = v2[1];
    for j in j0..n {
        let sum = a[(j2, j)] + v11 * a[(j1, j)] + v12 * a[(j0, j)];
        a[(j2, j)] -= sum * tau1;
        a[(j1, j)] -= sum * tau1 * v11;
        a[(j0, j)] -= sum * tau1 * v12;
        let sum = a[(j1, j)] + v21 * a[(j0, j)];
        a[(j1, j)] -= sum * tau2;
        a[(j0, j)] -= sum * tau2 * v21;
    }
    for j in 0..j3 {
        let sum = a[(j, j2)] + v11 * a[(j, j1)] + v12 * a[(j, j0)];
        a[(j, j2)] -= sum * tau1;
        a[(j, j1)] -= sum * tau1 * v11;
        a[(j, j0)] -= sum * tau1 * v12;
        let sum = a[(j, j1)] + v21 * a[(j, j0)];
        a[(j, j1)] -= sum * tau2;
        a[(j, j0)] -= sum * tau2 * v21;
    }
    if let Some(mut q) = q.rb_mut() {
        for j in 0..n {
            let sum = q[(j, j2)] + v11 * q[(j, j1)] + v12 * q[(j, j0)];
            q[(j, j2)] -= sum * tau1;
            q[(j, j1)] -= sum * tau1 * v11;
            q[(j, j0)] -= sum * tau1 * v12;
            let sum = q[(j, j1)] + v21 * q[(j, j0)];
            q[(j, j1)] -= sum * tau2;
            q[(j, j0)] -= sum * tau2 * v21;
        }
    }
    a[(j1, j0)] = 0.0;
    a[(j2, j0)] = 0.0;
    0
}
fn schur_swap_22(mut a: MatMut<f64>, mut q: Option<MatMut<f64>>, j0: usize) -> isize {
    let n = a.nrows();
    let epsilon = f64::EPSILON;
    let zero_threshold = f64::MIN_POSITIVE;
    let j1 = j0 + 1;
    let j2 = j0 + 2;
    let j3 = j0 + 3;
    let mut d_buf = [0.0f64; 4 * 4];
    let mut d = MatMut::from_column_major_slice_mut(&mut d_buf, 4, 4);
    let ad_slice = a.rb().submatrix(j0, j0, 4, 4);
    d.copy_from(ad_slice);
    let mut dnorm = 0.0;
    for j in 0..4 {
        for i in 0..4 {
            dnorm = f64::max(dnorm, d[(i, j)].abs());
        }
    }
    let eps = epsilon;
    let small_num = zero_threshold / eps;
    let thresh = ((10.0) * eps * dnorm).max(small_num);
    let mut v_buf = [0.0f64; 4 * 2];
    let mut v = MatMut::from_column_major_slice_mut(&mut v_buf, 4, 2);
    let mut x = v.rb_mut().submatrix_mut(0, 0, 2, 2);
    let (tl, b, _, tr) = d.rb().split_at(2, 2);
    let scale = lasy2(tl, tr, b, x.rb_mut());
    v[(2, 0)] = -scale;
    v[(2, 1)] = 0.0;
    v[(3, 0)] = 0.0;
    v[(3, 1)] = -scale;
    let mut v1 = v.rb_mut().col_mut(0);
    let (head, tail) = v1.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau1, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau1 = tau1.recip();
    let v11 = v1[1];
    let v12 = v1[2];
    let v13 = v1[3];
    let sum = v[(0, 1)] + v11 * v[(1, 1)] + v12 * v[(2, 1)] + v13 * v[(3, 1)];
    v[(0, 1)] -= sum * tau1;
    v[(1, 1)] -= sum * tau1 * v11;
    v[(2, 1)] -= sum * tau1 * v12;
    v[(3, 1)] -= sum * tau1 * v13;
    let mut v2 = v.rb_mut().col_mut(1).subrows_mut(1, 3);
    let (head, tail) = v2.rb_mut().split_at_row_mut(1);
    let HouseholderInfo { tau: tau2, .. } = make_householder_in_place(head.get_mut(0), tail);
    let tau2 = tau2.recip();
    let v21 = v2[1];
    let v22 = v2[2];
    for j in 0..4 {
        let sum = d[(0, j)] + v11 * d[(1, j)] + v12 * d[(2, j)] + v13 * d[(3, j)];
        d[(0, j)] -= sum * tau1;
        d[(1, j)] -= sum * tau1 * v11;
        d[(2, j)] -= sum * tau1 * v12;
        d[(3, j)] -= sum * tau1 * v13;
        let sum = d[(1, j)] + v21 * d[(2, j)] + v22 * d[(3, j)];
        d[(1, j)] -= sum * tau2;
        d[(2, j)] -= sum * tau2 * v21;
        d[(3, j)] -= sum * tau2 * v22;
    }
    for j in 0..4 {
        let sum = d[(j, 0)] + v11 * d[(j, 1)] + v12 * d[(j, 2)] + v13 * d[(j, 3)];
        d[(j, 0)] -= sum * tau1;
        d[(j, 1)] -= sum * tau1 * v11;
        d[(j, 2)] -= sum * tau1 * v12;
        d[(j, 3)] -= sum * tau1 * v13;
        let sum = d[(j, 1)] + v21 * d[(j, 2)] + v22 * d[(j, 3)];
        d[(j, 1)] -= sum * tau2;
        d[(j, 2)] -= sum * tau2 * v21;
        d[(j, 3)] -= sum * tau2 * v22;
    }
    if d[(2, 0)]
        .abs()
        .max(d[(2, 1)].abs())
        .max(d[(3, 0)].abs())
        .max(d[(3, 1)].abs())
        > thresh
    {
        return 1;
    }
    for j in j0..n {
        let sum = a[(j0, j)] + v11 * a[(j1, j)] + v12 * a[(j2, j)] + v13 * a[(j3, j)];
        a[(j0, j)] -= sum * tau1;
        a[(j1, j)] -= sum * tau1 * v11;
        a[(j2, j)] -= sum * tau1 * v12;
        a[(j3, j)] -= sum * tau1 * v13;
        let sum = a[(j1, j)] + v21 * a[(j2, j)] + v22 * a[(j3, j)];
        a[(j1, j)] -= sum * tau2;
        a[(j2, j)] -= sum * tau2 * v21;
        a[(j3, j)] -= sum * tau2 * v22;
    }
    for j in 0..j0 + 4 {
        let sum = a[(j, j0)] + v11 * a[(j, j1)] + v12 * a[(j, j2)] + v13 * a[(j, j3)];
        a[(j, j0)] -= sum * tau1;
        a[(j, j1)] -= sum * tau1 * v11;
        a[(j, j2)] -= sum * tau1 * v12;
        a[(j, j3)] -= sum * tau1 * v13;
        let sum = a[(j, j1)] + v21 * a[(j, j2)] + v22 * a[(j, j3)];
        a[(j, j1)] -= sum * tau2;
        a[(j, j2)] -= sum * tau2 * v21;
        a[(j, j3)] -= sum * tau2 * v22;
    }
    if let Some(mut q) = q.rb_mut() {
        for j in 0..n {
            let sum = q[(j, j0)] + v11 * q[(j, j1)] + v12 * q[(j, j2)] + v13 * q[(j, j3)];
            q[(j, j0)] -= sum * tau1;
            q[(j, j1)] -= sum * tau1 * v11;
            q[(j, j2)] -= sum * tau1 * v12;
            q[(j, j3)] -= sum * tau1 * v13;
            let sum = q[(j, j1)] + v21 * q[(j, j2)] + v22 * q[(j, j3)];
            q[(j, j1)] -= sum * tau2;
            q[(j, j2)] -= sum * tau2 * v21;
            q[(j, j3)] -= sum * tau2 * v22;
        }
    }
    a[(j2, j0)] = 0.0;
    a[(j2, j1)] = 0.0;
    a[(j3, j0)] = 0.0;
    a[(j3, j1)] = 0.0;
    0
}
pub(super) fn schur_swap(
    mut a: MatMut<f64>,
    mut q: Option<MatMut<f64>>,
    j0: usize,
    n1: usize,
    n2: usize,
) -> isize {
    let n = a.nrows();
    let j1 = j0 + 1;
    let j2 = j0 + 2;
    if n1 == 2 && (a[(j1, j0)] == 0.0) {
        schur_swap(a.rb_mut(), q.rb_mut(), j1, 1, n2);
        schur_swap(a.rb_mut(), q.rb_mut(), j0, 1, n2);
        return 0;
    }
    if n2 == 2 && (a[(j0 + n1 + 1, j0 + n1)] == 0.0) {
        schur_swap(a.rb_mut(), q.rb_mut(), j0, n1, 1);
        schur_swap(a.rb_mut(), q.rb_mut(), j1, n1, 1);
        return 0;
    }
    let schur_swap_impl = match (n1, n2) {
        (1, 1) => schur_swap_11,
        (2, 1) => schur_swap_21,
        (1, 2) => schur_swap_12,
        (2, 2) => schur_swap_22,
        _ => panic!(),
    };
    schur_swap_impl(a.rb_mut(), q.rb_mut(), j0);
    if n2 == 2 {
        let ((a00, a01, a10, a11), _, _, (cs, sn)) =
            lahqr_schur22(a[(j0, j0)], a[(j0, j1)], a[(j1, j0)], a[(j1, j1)]);
        let rot = JacobiRotation { c: cs, s: sn };
        a[(j0, j0)] = a00;
        a[(j0, j1)] = a01;
        a[(j1, j0)] = a10;
        a[(j1, j1)] = a11;
        if j2 < n {
            rot.apply_on_the_right_in_place(
                a.rb_mut()
                    .transpose_mut()
                    .get_mut(j2.., ..)
                    .two_cols_mut(j0, j1),
            );
        }
        if j0 > 0 {
            rot.apply_on_the_right_in_place(a.rb_mut().get_mut(..j0, ..).two_cols_mut(j0, j1));
        }
        if let Some(q) = q.rb_mut() {
            rot.apply_on_the_right_in_place(q.two_cols_mut(j0, j1));
        }
    }
    if n1 == 2 {
        let j0 = j0 + n2;
        let j1 = j1 + n2;
        let j2 = j2 + n2;
        let ((a00, a01, a10, a11), _, _, (cs, sn)) =
            lahqr_schur22(a[(j0, j0)], a[(j0, j1)], a[(j1, j0)], a[(j1, j1)]);
        let rot = JacobiRotation { c: cs, s: sn };
        a[(j0, j0)] = a00;
        a[(j0, j1)] = a01;
        a[(j1, j0)] = a10;
        a[(j1, j1)] = a11;
        if j2 < n {
            rot.apply_on_the_right_in_place(
                a.rb_mut()
                    .transpose_mut()
                    .get_mut(j2.., ..)
                    .two_cols_mut(j0, j1),
            );
        }
        if j0 > 0 {
            rot.apply_on_the_right_in_place(a.rb_mut().get_mut(..j0, ..).two_cols_mut(j0, j1));
        }
        if let Some(q) = q.rb_mut() {
            rot.apply_on_the_right_in_place(q.two_cols_mut(j0, j1));
        }
    }
    0
}
