//! The SVD of a small upper bidiagonal matrix by implicit QR iteration, as
//! LAPACK's `dbdsqr` computes it with vectors (`dlasdq` calls it, and
//! `dbdsdc`, R's route through `dgesdd`, calls `dlasdq` for 25 rows or
//! fewer), with `dlas2` and `dlasv2` for the 2 x 2 blocks. Ported in
//! `dbdsqr`'s shape (1-based indices, its labels as comments) so that the
//! vectors come out with LAPACK's signs, which no rule recovers afterwards.
//! Differences: `V` is kept as columns (LAPACK updates the rows of
//! `VT`), there is no `C`, and the vectors are always wanted.

use faer::reborrow::ReborrowMut;
use faer::MatMut;

use super::bidiag_dc::NoConvergence;
use super::givens::{dlartg, rotate_columns, Direct};

/// LAPACK's `dlamch('Epsilon')`: half a unit in the last place.
const EPS: f64 = f64::EPSILON / 2.0;
const MAXITR: usize = 6;

/// `B = U diag(d) V^T` for the upper bidiagonal `B` (diagonal `d`,
/// superdiagonal `e[..n - 1]`): `d` becomes the singular values,
/// decreasing; `u` (when given) and `v` come in holding the matrices the
/// rotations multiply (the identity, for B's own vectors).
pub(super) fn dbdsqr(
    d: &mut [f64],
    e: &mut [f64],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
) -> Result<(), NoConvergence> {
    let n = d.len();
    if n == 0 {
        return Ok(());
    }
    if n > 1 {
        iterate(d, e, u.as_mut().map(|u| u.rb_mut()), v.rb_mut())?;
    }
    // 160: all singular values converged, so make them positive.
    for (i, di) in d.iter_mut().enumerate() {
        if *di == 0.0 {
            *di = 0.0;
        }
        if *di < 0.0 {
            *di = -*di;
            v.rb_mut().col_mut(i).iter_mut().for_each(|x| *x = -*x);
        }
    }
    // Insertion sort into decreasing order, one transposition per vector.
    for i in 1..n {
        let last = n - i; // 0-based N+1-I
        let (mut isub, mut smin) = (0, d[0]);
        for (j, &dj) in d.iter().enumerate().take(last + 1).skip(1) {
            if dj <= smin {
                isub = j;
                smin = dj;
            }
        }
        if isub != last {
            d[isub] = d[last];
            d[last] = smin;
            swap_columns(v.rb_mut(), isub, last);
            if let Some(u) = u.as_mut() {
                swap_columns(u.rb_mut(), isub, last);
            }
        }
    }
    Ok(())
}

fn swap_columns(mut m: MatMut<'_, f64>, a: usize, b: usize) {
    for i in 0..m.nrows() {
        let t = m[(i, a)];
        m[(i, a)] = m[(i, b)];
        m[(i, b)] = t;
    }
}

/// `drot` on columns `a` and `b`.
fn rotate_pair(mut m: MatMut<'_, f64>, a: usize, b: usize, c: f64, s: f64) {
    for i in 0..m.nrows() {
        let (x, y) = (m[(i, a)], m[(i, b)]);
        m[(i, a)] = c * x + s * y;
        m[(i, b)] = c * y - s * x;
    }
}

/// The main loop of `dbdsqr` (labels 60 to 150), for n >= 2. Indices are
/// 1-based as in LAPACK: `d!(i)` is D(I).
fn iterate(
    d: &mut [f64],
    e: &mut [f64],
    mut u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
) -> Result<(), NoConvergence> {
    macro_rules! d {
        ($i:expr) => {
            d[$i - 1]
        };
    }
    macro_rules! e {
        ($i:expr) => {
            e[$i - 1]
        };
    }
    let n = d.len();
    let nf = n as f64;
    let unfl = f64::MIN_POSITIVE;
    // Rotations of one sweep: (cs, sn) and (oldcs, oldsn), WORK's four parts.
    let mut w1 = vec![0.0; n];
    let mut w2 = vec![0.0; n];
    let mut w3 = vec![0.0; n];
    let mut w4 = vec![0.0; n];
    let tolmul = 10f64.max(100f64.min(EPS.powf(-0.125)));
    let tol = tolmul * EPS;
    // Relative accuracy: a lower bound on the smallest singular value.
    let mut sminoa = d!(1).abs();
    if sminoa != 0.0 {
        let mut mu = sminoa;
        for i in 2..=n {
            mu = d!(i).abs() * (mu / (mu + e!(i - 1).abs()));
            sminoa = sminoa.min(mu);
            if sminoa == 0.0 {
                break;
            }
        }
    }
    sminoa /= nf.sqrt();
    let thresh = (tol * sminoa).max(MAXITR as f64 * (nf * (nf * unfl)));
    let maxitdivn = MAXITR * n;
    let mut iterdivn = 0;
    let mut iter: isize = -1;
    let (mut oldll, mut oldm): (isize, isize) = (-1, -1);
    let mut idir = 0;
    let mut m = n;
    // 60
    'top: loop {
        if m <= 1 {
            return Ok(());
        }
        if iter >= n as isize {
            iter -= n as isize;
            iterdivn += 1;
            if iterdivn >= maxitdivn {
                return Err(NoConvergence);
            }
        }
        // Find the diagonal block to work on.
        let mut smax = d!(m).abs();
        let mut split = None;
        for lll in 1..m {
            let ll = m - lll;
            let abss = d!(ll).abs();
            let abse = e!(ll).abs();
            if abse <= thresh || abse == 0.0 {
                split = Some(ll);
                break;
            }
            smax = smax.max(abss).max(abse);
        }
        let mut ll = match split {
            Some(ll) => {
                // 80
                e!(ll) = 0.0;
                if ll == m - 1 {
                    m -= 1;
                    continue 'top;
                }
                ll
            }
            None => 0,
        };
        // 90
        ll += 1;
        if ll == m - 1 {
            // A 2 x 2 block.
            let (sigmn, sigmx, sinr, cosr, sinl, cosl) = dlasv2(d!(m - 1), e!(m - 1), d!(m));
            d!(m - 1) = sigmx;
            e!(m - 1) = 0.0;
            d!(m) = sigmn;
            rotate_pair(v.rb_mut(), m - 2, m - 1, cosr, sinr);
            if let Some(u) = u.as_mut() {
                rotate_pair(u.rb_mut(), m - 2, m - 1, cosl, sinl);
            }
            m -= 2;
            continue 'top;
        }
        // A new submatrix: chase the bulge from its larger end.
        if ll as isize > oldm || (m as isize) < oldll {
            idir = if d!(ll).abs() >= d!(m).abs() { 1 } else { 2 };
        }
        // Convergence tests.
        let mut smin;
        if idir == 1 {
            if e!(m - 1).abs() <= tol.abs() * d!(m).abs() {
                e!(m - 1) = 0.0;
                continue 'top;
            }
            let mut mu = d!(ll).abs();
            smin = mu;
            for lll in ll..m {
                if e!(lll).abs() <= tol * mu {
                    e!(lll) = 0.0;
                    continue 'top;
                }
                mu = d!(lll + 1).abs() * (mu / (mu + e!(lll).abs()));
                smin = smin.min(mu);
            }
        } else {
            if e!(ll).abs() <= tol.abs() * d!(ll).abs() {
                e!(ll) = 0.0;
                continue 'top;
            }
            let mut mu = d!(m).abs();
            smin = mu;
            for lll in (ll..m).rev() {
                if e!(lll).abs() <= tol * mu {
                    e!(lll) = 0.0;
                    continue 'top;
                }
                mu = d!(lll).abs() * (mu / (mu + e!(lll).abs()));
                smin = smin.min(mu);
            }
        }
        oldll = ll as isize;
        oldm = m as isize;
        // The shift: zero where shifting would ruin relative accuracy.
        let mut shift;
        if nf * tol * (smin / smax) <= EPS.max(0.01 * tol) {
            shift = 0.0;
        } else {
            let sll;
            if idir == 1 {
                sll = d!(ll).abs();
                shift = dlas2(d!(m - 1), e!(m - 1), d!(m)).0;
            } else {
                sll = d!(m).abs();
                shift = dlas2(d!(ll), e!(ll), d!(ll + 1)).0;
            }
            if sll > 0.0 && (shift / sll).powi(2) < EPS {
                shift = 0.0;
            }
        }
        iter += (m - ll) as isize;
        let planes = m - ll;
        let block = ll - 1..m; // 0-based columns LL..M
        if shift == 0.0 {
            if idir == 1 {
                // 120: chase the bulge from top to bottom, zero shift.
                let (mut cs, mut oldcs, mut oldsn) = (1.0, 1.0, 0.0);
                for i in ll..m {
                    let (c, sn, r) = dlartg(d!(i) * cs, e!(i));
                    cs = c;
                    if i > ll {
                        e!(i - 1) = oldsn * r;
                    }
                    let (oc, os, di) = dlartg(oldcs * r, d!(i + 1) * sn);
                    (oldcs, oldsn, d!(i)) = (oc, os, di);
                    let k = i - ll;
                    (w1[k], w2[k], w3[k], w4[k]) = (cs, sn, oldcs, oldsn);
                }
                let h = d!(m) * cs;
                d!(m) = h * oldcs;
                e!(m - 1) = h * oldsn;
                sweep(
                    v.rb_mut(),
                    u.as_mut(),
                    block.clone(),
                    (&w1[..planes], &w2[..planes]),
                    (&w3[..planes], &w4[..planes]),
                    Direct::Forward,
                );
                if e!(m - 1).abs() <= thresh {
                    e!(m - 1) = 0.0;
                }
            } else {
                // 130: from bottom to top, zero shift.
                let (mut cs, mut oldcs, mut oldsn) = (1.0, 1.0, 0.0);
                for i in (ll + 1..=m).rev() {
                    let (c, sn, r) = dlartg(d!(i) * cs, e!(i - 1));
                    cs = c;
                    if i < m {
                        e!(i) = oldsn * r;
                    }
                    let (oc, os, di) = dlartg(oldcs * r, d!(i - 1) * sn);
                    (oldcs, oldsn, d!(i)) = (oc, os, di);
                    let k = i - ll - 1;
                    (w1[k], w2[k], w3[k], w4[k]) = (cs, -sn, oldcs, -oldsn);
                }
                let h = d!(ll) * cs;
                d!(ll) = h * oldcs;
                e!(ll) = h * oldsn;
                sweep(
                    v.rb_mut(),
                    u.as_mut(),
                    block.clone(),
                    (&w3[..planes], &w4[..planes]),
                    (&w1[..planes], &w2[..planes]),
                    Direct::Backward,
                );
                if e!(ll).abs() <= thresh {
                    e!(ll) = 0.0;
                }
            }
        } else if idir == 1 {
            // 140: from top to bottom, with the shift.
            let mut f = (d!(ll).abs() - shift) * (1f64.copysign(d!(ll)) + shift / d!(ll));
            let mut g = e!(ll);
            for i in ll..m {
                let (cosr, sinr, r) = dlartg(f, g);
                if i > ll {
                    e!(i - 1) = r;
                }
                f = cosr * d!(i) + sinr * e!(i);
                e!(i) = cosr * e!(i) - sinr * d!(i);
                g = sinr * d!(i + 1);
                d!(i + 1) *= cosr;
                let (cosl, sinl, r) = dlartg(f, g);
                d!(i) = r;
                f = cosl * e!(i) + sinl * d!(i + 1);
                d!(i + 1) = cosl * d!(i + 1) - sinl * e!(i);
                if i < m - 1 {
                    g = sinl * e!(i + 1);
                    e!(i + 1) *= cosl;
                }
                let k = i - ll;
                (w1[k], w2[k], w3[k], w4[k]) = (cosr, sinr, cosl, sinl);
            }
            e!(m - 1) = f;
            sweep(
                v.rb_mut(),
                u.as_mut(),
                block.clone(),
                (&w1[..planes], &w2[..planes]),
                (&w3[..planes], &w4[..planes]),
                Direct::Forward,
            );
            if e!(m - 1).abs() <= thresh {
                e!(m - 1) = 0.0;
            }
        } else {
            // 150: from bottom to top, with the shift.
            let mut f = (d!(m).abs() - shift) * (1f64.copysign(d!(m)) + shift / d!(m));
            let mut g = e!(m - 1);
            for i in (ll + 1..=m).rev() {
                let (cosr, sinr, r) = dlartg(f, g);
                if i < m {
                    e!(i) = r;
                }
                f = cosr * d!(i) + sinr * e!(i - 1);
                e!(i - 1) = cosr * e!(i - 1) - sinr * d!(i);
                g = sinr * d!(i - 1);
                d!(i - 1) *= cosr;
                let (cosl, sinl, r) = dlartg(f, g);
                d!(i) = r;
                f = cosl * e!(i - 1) + sinl * d!(i - 1);
                d!(i - 1) = cosl * d!(i - 1) - sinl * e!(i - 1);
                if i > ll + 1 {
                    g = sinl * e!(i - 2);
                    e!(i - 2) *= cosl;
                }
                let k = i - ll - 1;
                (w1[k], w2[k], w3[k], w4[k]) = (cosr, -sinr, cosl, -sinl);
            }
            e!(ll) = f;
            if e!(ll).abs() <= thresh {
                e!(ll) = 0.0;
            }
            sweep(
                v.rb_mut(),
                u.as_mut(),
                block.clone(),
                (&w3[..planes], &w4[..planes]),
                (&w1[..planes], &w2[..planes]),
                Direct::Backward,
            );
        }
    }
}

/// One sweep's rotations applied to the vectors: `dlasr` on the rows
/// `ll..m` of `VT` (here V's columns) and on U's columns.
fn sweep(
    v: MatMut<'_, f64>,
    u: Option<&mut MatMut<'_, f64>>,
    block: std::ops::Range<usize>,
    (vc, vs): (&[f64], &[f64]),
    (uc, us): (&[f64], &[f64]),
    direct: Direct,
) {
    rotate_columns(v.subcols_mut(block.start, block.len()), vc, vs, direct);
    if let Some(u) = u {
        rotate_columns(
            u.rb_mut().subcols_mut(block.start, block.len()),
            uc,
            us,
            direct,
        );
    }
}

/// `dlas2`: the singular values (smaller, larger) of [[f, g], [0, h]].
fn dlas2(f: f64, g: f64, h: f64) -> (f64, f64) {
    let (fa, ga, ha) = (f.abs(), g.abs(), h.abs());
    let fhmn = fa.min(ha);
    let fhmx = fa.max(ha);
    if fhmn == 0.0 {
        let ssmax = if fhmx == 0.0 {
            ga
        } else {
            fhmx.max(ga) * (1.0 + (fhmx.min(ga) / fhmx.max(ga)).powi(2)).sqrt()
        };
        return (0.0, ssmax);
    }
    if ga < fhmx {
        let as_ = 1.0 + fhmn / fhmx;
        let at = (fhmx - fhmn) / fhmx;
        let au = (ga / fhmx).powi(2);
        let c = 2.0 / ((as_ * as_ + au).sqrt() + (at * at + au).sqrt());
        (fhmn * c, fhmx / c)
    } else {
        let au = fhmx / ga;
        if au == 0.0 {
            ((fhmn * fhmx) / ga, ga)
        } else {
            let as_ = 1.0 + fhmn / fhmx;
            let at = (fhmx - fhmn) / fhmx;
            let c = 1.0 / ((1.0 + (as_ * au).powi(2)).sqrt() + (1.0 + (at * au).powi(2)).sqrt());
            let ssmin = (fhmn * c) * au;
            (ssmin + ssmin, ga / (c + c))
        }
    }
}

/// `dlasv2`: the SVD of [[f, g], [0, h]]: (ssmin, ssmax, snr, csr, snl,
/// csl), with [csl snl; -snl csl] B [csr -snr; snr csr] = diag(ssmax,
/// ssmin).
fn dlasv2(f: f64, g: f64, h: f64) -> (f64, f64, f64, f64, f64, f64) {
    let sign = |a: f64, b: f64| a.abs().copysign(b);
    let (mut ft, mut fa, mut ht, mut ha) = (f, f.abs(), h, h.abs());
    // pmax: 1, 2 or 3 as f, g or h is the largest in magnitude.
    let mut pmax = 1;
    let swap = ha > fa;
    if swap {
        pmax = 3;
        std::mem::swap(&mut ft, &mut ht);
        std::mem::swap(&mut fa, &mut ha);
    }
    let gt = g;
    let ga = gt.abs();
    let (mut ssmin, mut ssmax, mut clt, mut crt, mut slt, mut srt);
    if ga == 0.0 {
        // Diagonal.
        (ssmin, ssmax, clt, crt, slt, srt) = (ha, fa, 1.0, 1.0, 0.0, 0.0);
    } else {
        let mut gasmal = true;
        (ssmin, ssmax, clt, crt, slt, srt) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        if ga > fa {
            pmax = 2;
            if fa / ga < EPS {
                // A very large g.
                gasmal = false;
                ssmax = ga;
                ssmin = if ha > 1.0 {
                    fa / (ga / ha)
                } else {
                    (fa / ga) * ha
                };
                clt = 1.0;
                slt = ht / gt;
                srt = 1.0;
                crt = ft / gt;
            }
        }
        if gasmal {
            let d = fa - ha;
            let mut l = if d == fa { 1.0 } else { d / fa };
            let m = gt / ft;
            let mut t = 2.0 - l;
            let mm = m * m;
            let tt = t * t;
            let s = (tt + mm).sqrt();
            let r = if l == 0.0 {
                m.abs()
            } else {
                (l * l + mm).sqrt()
            };
            let a = 0.5 * (s + r);
            ssmin = ha / a;
            ssmax = fa * a;
            if mm == 0.0 {
                t = if l == 0.0 {
                    sign(2.0, ft) * sign(1.0, gt)
                } else {
                    gt / sign(d, ft) + m / t
                };
            } else {
                t = (m / (s + t) + m / (r + l)) * (1.0 + a);
            }
            l = (t * t + 4.0).sqrt();
            crt = 2.0 / l;
            srt = t / l;
            clt = (crt + srt * m) / a;
            slt = (ht / ft) * srt / a;
        }
    }
    let (csl, snl, csr, snr) = if swap {
        (srt, crt, slt, clt)
    } else {
        (clt, slt, crt, srt)
    };
    let tsign = match pmax {
        1 => sign(1.0, csr) * sign(1.0, csl) * sign(1.0, f),
        2 => sign(1.0, snr) * sign(1.0, csl) * sign(1.0, g),
        _ => sign(1.0, snr) * sign(1.0, snl) * sign(1.0, h),
    };
    ssmax = sign(ssmax, tsign);
    ssmin = sign(ssmin, tsign * sign(1.0, f) * sign(1.0, h));
    (ssmin, ssmax, snr, csr, snl, csl)
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;

    fn bidiagonal(d: &[f64], e: &[f64]) -> Mat<f64> {
        let n = d.len();
        Mat::from_fn(n, n, |i, j| {
            if i == j {
                d[i]
            } else if j == i + 1 {
                e[i]
            } else {
                0.0
            }
        })
    }

    /// U diag(d) V^T gives B back, U and V are orthogonal, d decreases.
    #[test]
    fn dbdsqr_decomposes_bidiagonal_matrices() {
        let cases: [(&[f64], &[f64]); 5] = [
            (&[3.0, -2.0], &[1.0]),
            (&[1.0, 2.0, 3.0, 4.0], &[0.5, -0.25, 2.0]),
            (&[1e-8, 1.0, -1e8, 5.0, 0.0], &[1.0, 1e-9, 3.0, -2.0]),
            (&[2.0; 7], &[1.0; 6]),
            (&[-1.0, 0.5, 0.25, 4.0, -3.0, 2.0, 1.0, 0.1, 7.0], &[0.3; 8]),
        ];
        for (d0, e0) in cases {
            let n = d0.len();
            let b = bidiagonal(d0, e0);
            let (mut d, mut e) = (d0.to_vec(), e0.to_vec());
            let mut u = Mat::<f64>::identity(n, n);
            let mut v = Mat::<f64>::identity(n, n);
            dbdsqr(&mut d, &mut e, Some(u.as_mut()), v.as_mut()).unwrap();
            assert!(d.windows(2).all(|w| w[0] >= w[1]), "{d:?}");
            assert!(d.iter().all(|&x| x >= 0.0), "{d:?}");
            let s = Mat::from_fn(n, n, |i, j| if i == j { d[i] } else { 0.0 });
            let back = &u * &s * v.transpose();
            let scale = d[0];
            for i in 0..n {
                for j in 0..n {
                    assert!((back[(i, j)] - b[(i, j)]).abs() <= 1e-14 * scale, "{d0:?}");
                }
            }
            let uu = u.transpose() * &u;
            let vv = v.transpose() * &v;
            for i in 0..n {
                for j in 0..n {
                    let id = if i == j { 1.0 } else { 0.0 };
                    assert!((uu[(i, j)] - id).abs() < 1e-14 && (vv[(i, j)] - id).abs() < 1e-14);
                }
            }
        }
    }

    #[test]
    fn dlasv2_diagonalises_two_by_two() {
        for (f, g, h) in [
            (3.0, 1.0, -2.0),
            (1e-3, 5.0, 2.0),
            (-4.0, 0.0, 1.0),
            (1.0, 1e20, 1.0),
        ] {
            let (smin, smax, snr, csr, snl, csl) = dlasv2(f, g, h);
            // [csl snl; -snl csl] [f g; 0 h] [csr -snr; snr csr]
            let a = [[csl * f, csl * g + snl * h], [-snl * f, -snl * g + csl * h]];
            let b11 = a[0][0] * csr + a[0][1] * snr;
            let b12 = -a[0][0] * snr + a[0][1] * csr;
            let b21 = a[1][0] * csr + a[1][1] * snr;
            let b22 = -a[1][0] * snr + a[1][1] * csr;
            let tol = 1e-14 * smax.abs();
            assert!(
                (b11 - smax).abs() <= tol && (b22 - smin).abs() <= tol,
                "{f} {g} {h}"
            );
            assert!(b12.abs() <= tol && b21.abs() <= tol, "{f} {g} {h}");
        }
    }
}
