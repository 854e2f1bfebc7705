//! The SVD of a tall or square matrix as LAPACK's `dgesdd` computes it:
//! blocked Householder bidiagonalization (ours, `bidiag`), our bidiagonal
//! divide and conquer (`bidiag_dc`), then the block-Householder
//! back-transforms (faer's), with a QR factorization first when the matrix
//! is much taller than wide. The composition follows faer's own `svd_imp`,
//! whose bidiagonal steps (reduction and SVD) are slower than ours.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch as apply_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj as apply,
};
use faer::linalg::qr::no_pivoting::factor::{
    qr_in_place, qr_in_place_scratch, recommended_block_size,
};
use faer::reborrow::ReborrowMut;
use faer::{Conj, Mat, MatMut, MatRef};

use super::bidiag::bidiag_in_place;
use super::bidiag_dc::{bidiag_svd, NoConvergence};

/// `a = U diag(s) V^T` for `a` with at least as many rows as columns
/// (and at least one column): `s` decreasing; `u` (`m × n` or `m × m`) and
/// `v` (`n × n`) when asked for. `wide`: `a` is the transpose of the
/// matrix R asked about, whose vectors then follow `dgesdd`'s paths for a
/// wide matrix (an LQ factorization, or a lower bidiagonal form).
pub(super) fn tall_svd(
    a: MatRef<'_, f64>,
    s: &mut [f64],
    u: Option<MatMut<'_, f64>>,
    v: Option<MatMut<'_, f64>>,
    wide: bool,
) -> Result<(), NoConvergence> {
    let (m, n) = a.shape();
    // dgesdd's crossover: a QR (or LQ) factorization first from
    // m >= int(n * 11 / 6).
    if m < n * 11 / 6 {
        return square_svd(a, s, u, v, wide);
    }
    let bs = recommended_block_size::<f64>(m, n);
    let mut qr = a.to_owned();
    let mut h = Mat::<f64>::zeros(bs, n);
    let ucols = u.as_ref().map_or(0, |u| u.ncols());
    let mut mem = MemBuffer::new(StackReq::any_of(&[
        qr_in_place_scratch::<f64>(m, n, bs, crate::kernels::width::par(), Default::default()),
        apply_scratch::<f64>(m, bs, ucols),
    ]));
    let stack = MemStack::new(&mut mem);
    qr_in_place(
        qr.as_mut(),
        h.as_mut(),
        crate::kernels::width::par(),
        stack,
        Default::default(),
    );
    let mut r = Mat::<f64>::zeros(n, n);
    for j in 0..n {
        for i in 0..=j {
            r[(i, j)] = qr[(i, j)];
        }
    }
    let mut u = u;
    if wide {
        // dgesdd reduces L of the LQ factorization A = L Q^T, and L = R^T:
        // L = U_L S V_L^T makes this matrix's U = Q V_L and its V = U_L.
        let l = r.transpose().to_owned();
        square_svd(
            l.as_ref(),
            s,
            v,
            u.as_mut().map(|u| u.rb_mut().submatrix_mut(0, 0, n, n)),
            false,
        )?;
    } else {
        square_svd(
            r.as_ref(),
            s,
            u.as_mut().map(|u| u.rb_mut().submatrix_mut(0, 0, n, n)),
            v,
            false,
        )?;
    }
    if let Some(mut u) = u {
        u.rb_mut().subrows_mut(n, m - n).fill(0.0);
        u.rb_mut().submatrix_mut(0, n, n, ucols - n).fill(0.0);
        if ucols == m {
            u.rb_mut()
                .submatrix_mut(n, n, m - n, m - n)
                .diagonal_mut()
                .fill(1.0);
        }
        apply(
            qr.as_ref(),
            h.as_ref(),
            Conj::No,
            u,
            crate::kernels::width::par(),
            stack,
        );
    }
    Ok(())
}

/// `tall_svd` without the QR step.
fn square_svd(
    a: MatRef<'_, f64>,
    s: &mut [f64],
    u: Option<MatMut<'_, f64>>,
    v: Option<MatMut<'_, f64>>,
    wide: bool,
) -> Result<(), NoConvergence> {
    let (m, n) = a.shape();
    let bs = recommended_block_size::<f64>(m, n);
    let mut bid = a.to_owned();
    let mut hl = Mat::<f64>::zeros(bs, n);
    let mut hr = Mat::<f64>::zeros(bs, n - 1);
    let ucols = u.as_ref().map_or(0, |u| u.ncols());
    let mut mem = MemBuffer::new(StackReq::any_of(&[
        apply_scratch::<f64>(m, bs, ucols),
        apply_scratch::<f64>(n.saturating_sub(1), bs, n),
    ]));
    let stack = MemStack::new(&mut mem);
    bidiag_in_place(bid.as_mut(), hl.as_mut(), hr.as_mut());
    // A = Ql B Qr^T with B upper bidiagonal.
    for (i, x) in s.iter_mut().enumerate() {
        *x = bid[(i, i)];
    }
    let e: Vec<f64> = (0..n - 1).map(|i| bid[(i, i + 1)]).collect();
    let mut own_v = None;
    let mut v = v;
    let vb = match v.as_mut() {
        Some(v) => v.rb_mut(),
        None => own_v.insert(Mat::<f64>::zeros(n, n)).as_mut(),
    };
    let mut u = u;
    bidiag_svd(
        s,
        &e,
        u.as_mut().map(|u| u.rb_mut().submatrix_mut(0, 0, n, n)),
        vb,
        wide,
    )?;
    if let Some(mut u) = u {
        u.rb_mut().subrows_mut(n, m - n).fill(0.0);
        u.rb_mut().submatrix_mut(0, n, n, ucols - n).fill(0.0);
        if ucols > n {
            u.rb_mut()
                .submatrix_mut(n, n, ucols - n, ucols - n)
                .diagonal_mut()
                .fill(1.0);
        }
        apply(
            bid.as_ref(),
            hl.as_ref(),
            Conj::No,
            u,
            crate::kernels::width::par(),
            stack,
        );
    }
    if let Some(v) = v {
        // The right reflectors are stored in the rows above the diagonal;
        // mirror them into columns for the left-applied sequence.
        for j in 1..n {
            for i in 0..j {
                bid[(j, i)] = bid[(i, j)];
            }
        }
        if n > 1 {
            apply(
                bid.as_ref().submatrix(1, 0, n - 1, n - 1),
                hr.as_ref(),
                Conj::Yes,
                v.subrows_mut(1, n - 1),
                crate::kernels::width::par(),
                stack,
            );
        }
    }
    Ok(())
}
