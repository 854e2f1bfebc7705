//! The real Schur form of a Hessenberg matrix by the small-bulge
//! multishift QR algorithm with aggressive early deflation (LAPACK's
//! `dhseqr`/`dlaqr0`), as `dgeev` computes it before its eigenvectors.
//!
//! Adapted from faer 0.24.4 (`linalg/evd/schur/real_schur.rs`, MIT
//! licence, by sarah quiñones), which itself follows LAPACK. faer does not
//! export it; flowcast needs it for two changes:
//! - big deflation windows go to the multishift code recursively, as
//!   `dlaqr3` sends them to `dlaqr4` (faer always used the double-shift
//!   code there);
//! - the work arrays are separate matrices rather than parts of the input
//!   matrix, so no aliased views are needed.
//!
//! Specialised to `f64`.

use faer::dyn_stack::{MemStack, StackReq};
use faer::prelude::{Reborrow, ReborrowMut};
use faer::{ColMut, MatMut};

mod aed;
mod bulges;
mod lahqr;
mod reflector;
mod swap;
mod sweep;
mod vectors;

#[cfg(test)]
mod tests;

use aed::aggressive_early_deflation;
use lahqr::{lahqr, lahqr_eig22};
use sweep::multishift_qr_sweep;
pub(super) use vectors::schur_eigenvectors;

/// Below this size the double-shift code (`dlahqr`) is faster than the
/// multishift one: LAPACK's `NMIN`.
const NMIN: usize = 75;
/// Skip a QR sweep when an early deflation deflated more than this percent
/// of its window (LAPACK's `NIBBLE` is 14; faer's 50 measured faster here).
const NIBBLE: usize = 50;

/// The number of simultaneous shifts for a matrix of size `n` (LAPACK's
/// `iparmq`).
fn shift_count(n: usize) -> usize {
    match n {
        0..30 => 2,
        30..60 => 4,
        60..150 => 12,
        150..590 => 32,
        590..3000 => 64,
        3000..6000 => 128,
        _ => 256,
    }
}

/// The early-deflation window for a matrix of size `n`.
fn deflation_window(n: usize) -> usize {
    match n {
        0..30 => 2,
        30..60 => 4,
        60..150 => 10,
        150..590 => (n as f64 / (n as f64).log2()) as usize,
        590..3000 => 96,
        3000..6000 => 192,
        _ => 384,
    }
}

/// Scratch for [`multishift_qr`] on an `n`-by-`n` matrix.
pub(super) fn multishift_qr_scratch(n: usize) -> StackReq {
    use faer::linalg::evd::hessenberg::hessenberg_in_place_scratch;
    use faer::linalg::householder as hh;
    if n <= 3 {
        return StackReq::EMPTY;
    }
    let nw_max = (n - 3) / 3;
    StackReq::any_of(&[
        hessenberg_in_place_scratch::<f64>(
            nw_max,
            1,
            crate::kernels::width::par(),
            Default::default(),
        ),
        hh::apply_block_householder_sequence_transpose_on_the_left_in_place_scratch::<f64>(
            nw_max, nw_max, nw_max,
        ),
        hh::apply_block_householder_sequence_on_the_right_in_place_scratch::<f64>(
            nw_max, nw_max, nw_max,
        ),
    ])
}

/// Reduces the Hessenberg matrix `a` (rows and columns `ilo..ihi` active)
/// to real Schur form, accumulating the transformations into `z` and
/// storing the eigenvalues in `w_re`/`w_im`, complex pairs with the
/// positive imaginary part first. With `want_t` false only the eigenvalues
/// are computed. Returns 0, or like LAPACK's `info` the index above which
/// the eigenvalues converged when the iteration limit was hit.
#[allow(clippy::too_many_arguments)]
pub(super) fn multishift_qr(
    want_t: bool,
    a: MatMut<'_, f64>,
    z: Option<MatMut<'_, f64>>,
    w_re: ColMut<'_, f64>,
    w_im: ColMut<'_, f64>,
    ilo: usize,
    ihi: usize,
    stack: &mut MemStack,
) -> usize {
    assert!(a.nrows() == a.ncols());
    assert!(ilo <= ihi);
    let n = a.nrows();
    let nh = ihi - ilo;
    assert!(w_re.nrows() == n);
    assert!(w_im.nrows() == n);
    if let Some(z) = z.rb() {
        assert!(z.nrows() == n);
        assert!(z.ncols() == n);
    }
    let mut a = a;
    let mut z = z;
    let mut w_re = w_re;
    let mut w_im = w_im;
    let mut stack = stack;
    let non_convergence_limit_window = 5;
    let non_convergence_limit_shift = 6;
    let dat1 = 0.75;
    let dat2 = -0.4375;
    let nmin = NMIN;
    let nibble = NIBBLE;
    let nsr = shift_count(n);
    let nsr = Ord::min(Ord::min(nsr, n.saturating_sub(3) / 6), ihi - ilo - 1);
    let nsr = Ord::max(nsr / 2 * 2, 2);
    let nwr = deflation_window(n);
    let nwr = Ord::max(nwr, 2);
    let nwr = Ord::min(Ord::min(nwr, n.saturating_sub(1) / 3), ihi - ilo);
    if n < nmin {
        return lahqr(want_t, a, z, w_re, w_im, ilo, ihi);
    }
    if nh == 0 {
        return 0;
    }
    let nw_max = (n - 3) / 3;
    let itmax = 30 * Ord::max(10, nh);
    let mut k_defl = 0;
    let mut istop = ihi;
    let mut info = 0;
    let mut nw = 0;
    for iter in 0..itmax + 1 {
        if iter == itmax {
            info = istop;
            break;
        }
        if ilo + 1 >= istop {
            if ilo + 1 == istop {
                w_re[ilo] = a[(ilo, ilo)];
                w_im[ilo] = 0.0;
            }
            break;
        }
        let mut istart = ilo;
        for i in (ilo + 1..istop).rev() {
            if a[(i, i - 1)] == 0.0 {
                istart = i;
                break;
            }
        }
        let nh = istop - istart;
        let nwupbd = Ord::min(nh, nw_max);
        if k_defl < non_convergence_limit_window {
            nw = Ord::min(nwupbd, nwr);
        } else {
            nw = Ord::min(nwupbd, 2 * nw);
        }
        if nh <= 4 {
            nw = nh;
        }
        if nw < nw_max {
            if nw + 1 >= nh {
                nw = nh;
            }
            let kwtop = istop - nw;
            if kwtop > istart + 2 && a[(kwtop, kwtop - 1)].abs() > a[(kwtop - 1, kwtop - 2)].abs() {
                nw += 1;
            }
        }
        let (ls, ld) = aggressive_early_deflation(
            want_t,
            a.rb_mut(),
            z.rb_mut(),
            w_re.rb_mut(),
            w_im.rb_mut(),
            istart,
            istop,
            nw,
            stack.rb_mut(),
        );
        istop -= ld;
        if ld > 0 {
            k_defl = 0;
        }
        if ld > 0 && (100 * ld > nwr * nibble || (istop - istart) <= Ord::min(nmin, nw_max)) {
            continue;
        }
        k_defl += 1;
        let mut ns = Ord::min(nh - 1, Ord::min(Ord::max(2, ls), nsr));
        ns = ns / 2 * 2;
        let mut i_shifts = istop - ls;
        if k_defl % non_convergence_limit_shift == 0 {
            for i in (i_shifts + 1..istop).rev().step_by(2) {
                if i >= ilo + 2 {
                    let ss = a[(i, i - 1)].abs() + a[(i - 1, i - 2)].abs();
                    let aa = dat1 * ss + a[(i, i)];
                    let bb = ss;
                    let cc = dat2 * ss;
                    let dd = aa;
                    let (s1, s2) = lahqr_eig22(aa, bb, cc, dd);
                    w_re[i - 1] = s1.0;
                    w_im[i - 1] = s1.1;
                    w_re[i] = s2.0;
                    w_im[i] = s2.1;
                } else {
                    w_re[i] = a[(i, i)];
                    w_re[i - 1] = a[(i, i)];
                    w_im[i] = 0.0;
                    w_im[i - 1] = 0.0;
                }
            }
        } else {
            if ls <= ns / 2 {
                // dlaqr0: the shifts are the eigenvalues of the trailing
                // ns-by-ns submatrix, reduced on a copy.
                let mut temp = a.rb().submatrix(istop - ns, istop - ns, ns, ns).to_owned();
                let ierr = multishift_qr(
                    false,
                    temp.as_mut(),
                    None,
                    w_re.rb_mut().subrows_mut(istop - ns, ns),
                    w_im.rb_mut().subrows_mut(istop - ns, ns),
                    0,
                    ns,
                    stack.rb_mut(),
                );
                ns -= ierr;
                if ns < 2 {
                    let aa = a[(istop - 2, istop - 2)];
                    let bb = a[(istop - 2, istop - 1)];
                    let cc = a[(istop - 1, istop - 2)];
                    let dd = a[(istop - 1, istop - 1)];
                    let (s1, s2) = lahqr_eig22(aa, bb, cc, dd);
                    w_re[istop - 2] = s1.0;
                    w_im[istop - 2] = s1.1;
                    w_re[istop - 1] = s2.0;
                    w_im[istop - 1] = s2.1;
                    ns = 2;
                }
                i_shifts = istop - ns;
            }
            let mut sorted = false;
            let mut k = istop;
            while !sorted && k > i_shifts {
                sorted = true;
                for i in i_shifts..k - 1 {
                    if (w_re[i].abs() + w_im[i].abs()) < (w_re[i + 1].abs() + w_im[i + 1].abs()) {
                        sorted = false;
                        let wi = (w_re[i], w_im[i]);
                        let wip1 = (w_re[i + 1], w_im[i + 1]);
                        w_re[i] = wip1.0;
                        w_im[i] = wip1.1;
                        w_re[i + 1] = wi.0;
                        w_im[i + 1] = wi.1;
                    }
                }
                k -= 1;
            }
            for i in (i_shifts + 2..istop).rev().step_by(2) {
                if w_im[i] != -&w_im[i - 1] {
                    let tmp = (w_re[i], w_im[i]);
                    w_re[i] = w_re[i - 1];
                    w_im[i] = w_im[i - 1];
                    w_re[i - 1] = w_re[i - 2];
                    w_im[i - 1] = w_im[i - 2];
                    w_re[i - 2] = tmp.0;
                    w_im[i - 2] = tmp.1;
                }
            }
            if ns > 1 && ns % 2 == 1 {
                ns -= 1;
            }
            i_shifts = istop - ns;
        }
        if ns == 2 && (w_im[i_shifts] == 0.0) {
            if (w_re[i_shifts] - a[(istop - 1, istop - 1)]).abs()
                < (w_re[i_shifts + 1] - a[(istop - 1, istop - 1)]).abs()
            {
                w_re[i_shifts + 1] = w_re[i_shifts];
                w_im[i_shifts + 1] = w_im[i_shifts];
            } else {
                w_re[i_shifts] = w_re[i_shifts + 1];
                w_im[i_shifts] = w_im[i_shifts + 1];
            }
        }
        let mut shifts_re = w_re.rb_mut().subrows_mut(i_shifts, ns);
        let mut shifts_im = w_im.rb_mut().subrows_mut(i_shifts, ns);
        multishift_qr_sweep(
            want_t,
            a.rb_mut(),
            z.rb_mut(),
            shifts_re.rb_mut(),
            shifts_im.rb_mut(),
            istart,
            istop,
        );
    }
    info
}
