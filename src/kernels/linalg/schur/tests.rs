use faer::dyn_stack::{MemBuffer, MemStack};
use faer::{ColMut, Mat, MatRef};

use super::super::test_rng::uniform;
use super::*;

fn hessenberg(n: usize, seed: u64) -> Mat<f64> {
    let mut next = uniform(seed);
    Mat::from_fn(n, n, |i, j| if i <= j + 1 { next() } else { 0.0 })
}

struct Schur {
    t: Mat<f64>,
    z: Mat<f64>,
    re: Vec<f64>,
    im: Vec<f64>,
}

fn schur(h: MatRef<'_, f64>) -> Schur {
    let n = h.nrows();
    let mut t = h.to_owned();
    let mut z = Mat::<f64>::identity(n, n);
    let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
    let mut mem = MemBuffer::new(multishift_qr_scratch(n));
    let info = multishift_qr(
        true,
        t.as_mut(),
        Some(z.as_mut()),
        ColMut::from_slice_mut(&mut re),
        ColMut::from_slice_mut(&mut im),
        0,
        n,
        MemStack::new(&mut mem),
    );
    assert_eq!(info, 0, "no convergence at n = {n}");
    // Below the subdiagonal is workspace, as in LAPACK.
    for j in 0..n {
        for i in j + 2..n {
            t[(i, j)] = 0.0;
        }
    }
    Schur { t, z, re, im }
}

fn max_abs(m: MatRef<'_, f64>) -> f64 {
    let mut worst = 0.0f64;
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            worst = worst.max(m[(i, j)].abs());
        }
    }
    worst
}

/// Z is orthogonal, Z T Zᵀ is H, and T is in LAPACK's standard form: each
/// 2-by-2 block has equal diagonal entries and off-diagonal ones of
/// opposite signs, and holds the pair listed in (re, im).
fn check_schur(h: MatRef<'_, f64>, s: &Schur) {
    let n = h.nrows();
    let tol = 1e-13 * n as f64;
    let back = &s.z * &s.t * s.z.transpose();
    let scale = max_abs(h).max(1.0);
    assert!(
        max_abs((&back - h).as_ref()) <= tol * scale,
        "Z T Zᵀ != H at n = {n}"
    );
    let gram = s.z.transpose() * &s.z - Mat::<f64>::identity(n, n);
    assert!(max_abs(gram.as_ref()) <= tol, "Z not orthogonal at n = {n}");
    let mut k = 0;
    while k < n {
        if k + 1 < n && s.t[(k + 1, k)] != 0.0 {
            let (a, b, c, d) = (
                s.t[(k, k)],
                s.t[(k, k + 1)],
                s.t[(k + 1, k)],
                s.t[(k + 1, k + 1)],
            );
            assert_eq!(a, d, "block at {k} not standardised");
            assert!(b * c < 0.0, "block at {k} has real eigenvalues");
            assert!(
                k + 2 >= n || s.t[(k + 2, k + 1)] == 0.0,
                "adjacent blocks at {k}"
            );
            assert!((s.re[k] - a).abs() <= 1e-14 * scale);
            assert!((s.im[k] - (b.abs().sqrt() * c.abs().sqrt())).abs() <= 1e-14 * scale);
            assert_eq!((s.re[k + 1], s.im[k + 1]), (s.re[k], -s.im[k]));
            k += 2;
        } else {
            assert_eq!((s.re[k], s.im[k]), (s.t[(k, k)], 0.0), "eigenvalue {k}");
            k += 1;
        }
    }
}

#[test]
fn schur_form_of_random_hessenberg_matrices() {
    // Across the double-shift limit (75) and, at 700, a deflation window
    // big enough to go through the multishift code itself.
    assert!(deflation_window(700) >= NMIN);
    for (n, seed) in [
        (1, 1),
        (2, 2),
        (5, 3),
        (30, 4),
        (74, 5),
        (75, 6),
        (76, 7),
        (150, 8),
        (300, 9),
        (700, 10),
    ] {
        let h = hessenberg(n, seed);
        check_schur(h.as_ref(), &schur(h.as_ref()));
    }
}

/// The trace and the determinant's sign survive; for a matrix with known
/// eigenvalues (a rotation-scaled block diagonal, conjugated by a random
/// orthogonal matrix and reduced), the computed ones are the known ones.
#[test]
fn known_eigenvalues_are_found() {
    let n = 120;
    let mut next = uniform(77);
    let mut a = Mat::<f64>::zeros(n, n);
    let mut known = Vec::new();
    let mut k = 0;
    while k < n {
        let (re, im) = (
            k as f64 / 10.0 - 3.0,
            if k % 4 == 0 {
                0.5 + k as f64 / 100.0
            } else {
                0.0
            },
        );
        if im != 0.0 {
            a[(k, k)] = re;
            a[(k + 1, k + 1)] = re;
            a[(k, k + 1)] = im;
            a[(k + 1, k)] = -im;
            known.push((re, im));
            known.push((re, -im));
            k += 2;
        } else {
            a[(k, k)] = re;
            known.push((re, 0.0));
            k += 1;
        }
    }
    for j in 0..n {
        for i in 0..j {
            if a[(i, j)] == 0.0 {
                a[(i, j)] = 0.1 * next();
            }
        }
    }
    // A random orthogonal similarity, then back to Hessenberg form.
    let q = Mat::from_fn(n, n, |_, _| next()).qr().compute_Q();
    let dense = &q * &a * q.transpose();
    let mut h = dense.clone();
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n - 1, n - 1);
    let mut house = Mat::<f64>::zeros(bs, n - 1);
    let mut mem = MemBuffer::new(
        faer::linalg::evd::hessenberg::hessenberg_in_place_scratch::<f64>(
            n,
            bs,
            faer::Par::Seq,
            Default::default(),
        ),
    );
    faer::linalg::evd::hessenberg::hessenberg_in_place(
        h.as_mut(),
        house.as_mut(),
        faer::Par::Seq,
        MemStack::new(&mut mem),
        Default::default(),
    );
    for j in 0..n {
        for i in j + 2..n {
            h[(i, j)] = 0.0;
        }
    }
    let s = schur(h.as_ref());
    check_schur(h.as_ref(), &s);
    let mut found: Vec<(f64, f64)> = s.re.iter().copied().zip(s.im.iter().copied()).collect();
    let key = |v: &(f64, f64)| (v.0 * 1e6).round() as i64 * 10_000_000 + (v.1 * 1e6).round() as i64;
    found.sort_by_key(key);
    known.sort_by_key(key);
    for (f, k) in found.iter().zip(&known) {
        assert!(
            (f.0 - k.0).abs() < 1e-9 && (f.1 - k.1).abs() < 1e-9,
            "{f:?} vs {k:?}"
        );
    }
}

/// T X = X Λ column by column, for real and complex eigenvalues.
#[test]
fn schur_vectors_are_eigenvectors_of_t() {
    for (n, seed) in [(1, 20), (4, 21), (40, 22), (200, 23)] {
        let s = schur(hessenberg(n, seed).as_ref());
        let mut x = vec![0.0; n * n];
        schur_eigenvectors(s.t.as_ref(), &mut x);
        let x = MatRef::from_column_major_slice(&x, n, n);
        let tx = &s.t * x;
        let mut k = 0;
        while k < n {
            let width = if s.im[k] == 0.0 { 1 } else { 2 };
            let tol = 1e-13 * n as f64 * max_abs(s.t.as_ref()) * max_abs(x.subcols(k, width));
            for i in 0..n {
                assert!(i <= k + 1 || x[(i, k)] == 0.0, "x not upper triangular");
            }
            if s.im[k] == 0.0 {
                for i in 0..n {
                    assert!(
                        (tx[(i, k)] - s.re[k] * x[(i, k)]).abs() <= tol,
                        "real vector {k} at n = {n}"
                    );
                }
                k += 1;
            } else {
                let (wr, wi) = (s.re[k], s.im[k]);
                for i in 0..n {
                    let (xr, xi) = (x[(i, k)], x[(i, k + 1)]);
                    assert!(
                        (tx[(i, k)] - (wr * xr - wi * xi)).abs() <= tol,
                        "pair {k} at n = {n}"
                    );
                    assert!(
                        (tx[(i, k + 1)] - (wr * xi + wi * xr)).abs() <= tol,
                        "pair {k} at n = {n}"
                    );
                }
                k += 2;
            }
        }
    }
}

/// A 2-by-2 block right where a block of rows would start (row n - 64)
/// must stay whole: solved apart, its vector would be wrong.
#[test]
fn eigenvectors_with_a_pair_on_a_block_boundary() {
    let n = 140;
    let mut next = uniform(31);
    let mut t = Mat::from_fn(n, n, |i, j| if i <= j { next() } else { 0.0 });
    let mut pairs = Vec::new();
    for k in [n - 64 - 1, 10, 40] {
        let (a, b, c) = (t[(k, k)], 0.3 + next().abs(), -0.2 - next().abs());
        t[(k + 1, k + 1)] = a;
        t[(k, k + 1)] = b;
        t[(k + 1, k)] = c;
        pairs.push(k);
    }
    let mut x = vec![0.0; n * n];
    schur_eigenvectors(t.as_ref(), &mut x);
    let x = MatRef::from_column_major_slice(&x, n, n);
    let tx = &t * x;
    for k in pairs {
        let (wr, wi) = (t[(k, k)], (t[(k, k + 1)] * t[(k + 1, k)]).abs().sqrt());
        let tol = 1e-12 * max_abs(x.subcols(k, 2)).max(1.0);
        for i in 0..n {
            let (xr, xi) = (x[(i, k)], x[(i, k + 1)]);
            assert!(
                (tx[(i, k)] - (wr * xr - wi * xi)).abs() <= tol,
                "pair {k}, row {i}"
            );
            assert!(
                (tx[(i, k + 1)] - (wr * xi + wi * xr)).abs() <= tol,
                "pair {k}, row {i}"
            );
        }
    }
}

/// The short reflector agrees with faer's general one, at ordinary scales
/// and at scales where squaring would overflow or underflow.
#[test]
fn short_reflectors_match_faers() {
    let mut next = uniform(5);
    for scale in [1.0, 1e-170, 1e170, 1e-310] {
        for len in [1, 2] {
            let x: Vec<f64> = (0..=len).map(|_| next() * scale).collect();
            let (mut h1, mut t1) = (x[0], x[1..].to_vec());
            let ours = super::reflector::make_householder_in_place(
                &mut h1,
                ColMut::from_slice_mut(&mut t1),
            );
            let (mut h2, mut t2) = (x[0], x[1..].to_vec());
            let faers = faer::linalg::householder::make_householder_in_place(
                &mut h2,
                ColMut::from_slice_mut(&mut t2),
            );
            let close = |a: f64, b: f64| {
                a == b || (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(b.abs())
            };
            assert!(close(h1, h2), "beta at scale {scale}: {h1} vs {h2}");
            assert!(close(ours.tau, faers.tau), "tau at scale {scale}");
            for (a, b) in t1.iter().zip(&t2) {
                assert!(close(*a, *b), "essential part at scale {scale}");
            }
        }
    }
}
