use faer::Mat;

use super::bidiag_svd;

/// Deterministic pseudo-random numbers in (-1, 1).
fn noise(seed: u64, n: usize) -> Vec<f64> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

/// max |U^T U - I|, max |V^T V - I| and max |B - U S V^T| / max|B|, all
/// divided by n eps.
fn check(d: &[f64], e: &[f64], with_u: bool) -> (f64, f64, f64, Vec<f64>) {
    let n = d.len();
    let mut s = d.to_vec();
    let mut u = Mat::<f64>::zeros(n, n);
    let mut v = Mat::<f64>::zeros(n, n);
    bidiag_svd(&mut s, e, with_u.then(|| u.as_mut()), v.as_mut(), false).expect("converges");
    for w in s.windows(2) {
        assert!(w[0] >= w[1], "not decreasing: {w:?}");
    }
    assert!(s.iter().all(|x| *x >= 0.0));
    let unit = n.max(1) as f64 * f64::EPSILON;
    let orth = |m: &Mat<f64>| {
        let g = m.transpose() * m;
        let mut worst = 0.0f64;
        for i in 0..n {
            for j in 0..n {
                let t = if i == j { 1.0 } else { 0.0 };
                worst = worst.max((g[(i, j)] - t).abs());
            }
        }
        worst / unit
    };
    let ov = orth(&v);
    let (ou, res) = if with_u {
        let mut b = Mat::<f64>::zeros(n, n);
        for i in 0..n {
            b[(i, i)] = d[i];
            if i + 1 < n {
                b[(i, i + 1)] = e[i];
            }
        }
        let bmax = d.iter().chain(e).fold(0.0f64, |m, x| m.max(x.abs()));
        let mut us = u.clone();
        for j in 0..n {
            for i in 0..n {
                us[(i, j)] *= s[j];
            }
        }
        let r = &us * v.transpose() - &b;
        let mut worst = 0.0f64;
        for j in 0..n {
            for i in 0..n {
                worst = worst.max(r[(i, j)].abs());
            }
        }
        (
            orth(&u),
            if bmax > 0.0 {
                worst / bmax / unit
            } else {
                worst
            },
        )
    } else {
        (0.0, 0.0)
    };
    (ou, ov, res, s)
}

fn assert_good(d: &[f64], e: &[f64], what: &str) -> Vec<f64> {
    let (ou, ov, res, s) = check(d, e, true);
    assert!(
        ou < 10.0 && ov < 10.0 && res < 10.0,
        "{what} n={}: orth U {ou}, orth V {ov}, residual {res}",
        d.len()
    );
    s
}

#[test]
fn random_sizes_across_leaf_and_merge_boundaries() {
    for (seed, n) in [1usize, 2, 3, 25, 26, 27, 51, 100, 333, 1000]
        .into_iter()
        .enumerate()
    {
        let d = noise(seed as u64, n);
        let e = noise(seed as u64 + 100, n.saturating_sub(1));
        assert_good(&d, &e, "random");
    }
}

#[test]
fn values_without_u_match_values_with_u() {
    let n = 200;
    let (d, e) = (noise(7, n), noise(8, n - 1));
    let (_, ov, _, s1) = check(&d, &e, false);
    let (_, _, _, s2) = check(&d, &e, true);
    assert!(ov < 10.0);
    for (a, b) in s1.iter().zip(&s2) {
        assert!((a - b).abs() <= 1e-14 * s2[0], "{a} vs {b}");
    }
}

#[test]
fn heavy_deflation() {
    let n = 300;
    // Identity: every z deflates.
    let s = assert_good(&vec![1.0; n], &vec![0.0; n - 1], "identity");
    assert!(s.iter().all(|x| (x - 1.0).abs() < 1e-15));
    // Repeated values with coupling.
    let d: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
    assert_good(&d, &vec![1e-3; n - 1], "repeated");
    // Zero diagonal and zero off-diagonal entries.
    let mut d = noise(3, n);
    let mut e = noise(4, n - 1);
    for i in (0..n).step_by(7) {
        d[i] = 0.0;
    }
    for i in (0..n - 1).step_by(5) {
        e[i] = 0.0;
    }
    assert_good(&d, &e, "zeros");
    assert_good(&vec![0.0; n], &noise(5, n - 1), "zero diagonal");
    assert_good(&noise(6, n), &vec![0.0; n - 1], "diagonal");
    // Graded.
    let d: Vec<f64> = (0..n).map(|i| 0.9f64.powi(i as i32)).collect();
    let e: Vec<f64> = (0..n - 1).map(|i| 0.5 * 0.9f64.powi(i as i32)).collect();
    assert_good(&d, &e, "graded");
    // Extreme scales.
    for scale in [1e-300, 1e300] {
        let d: Vec<f64> = noise(9, n).iter().map(|x| x * scale).collect();
        let e: Vec<f64> = noise(10, n - 1).iter().map(|x| x * scale).collect();
        assert_good(&d, &e, "scaled");
    }
    // All zero.
    let s = assert_good(&vec![0.0; n], &vec![0.0; n - 1], "zero");
    assert!(s.iter().all(|x| *x == 0.0));
}

#[test]
fn values_match_dense_svd() {
    let n = 150;
    let (d, e) = (noise(11, n), noise(12, n - 1));
    let s = assert_good(&d, &e, "dense");
    let mut b = Mat::<f64>::zeros(n, n);
    for i in 0..n {
        b[(i, i)] = d[i];
        if i + 1 < n {
            b[(i, i + 1)] = e[i];
        }
    }
    let want = b.singular_values().expect("faer svd");
    for (a, w) in s.iter().zip(&want) {
        assert!((a - w).abs() <= 1e-13 * want[0], "{a} vs {w}");
    }
}
