use std::sync::atomic::AtomicBool;

use faer::Mat;

use super::tridiagonal_eigen;
use crate::cost::model::SplitMix;

/// Largest of ‖U'U − I‖ and ‖TU − UΛ‖ / ‖T‖ (max-norms), in units of
/// `n * eps`.
fn errors(d0: &[f64], e0: &[f64]) -> (f64, f64, Vec<f64>) {
    let n = d0.len();
    let mut d = d0.to_vec();
    let mut u = Mat::<f64>::zeros(n, n);
    tridiagonal_eigen(&mut d, e0, u.as_mut(), &AtomicBool::new(false)).unwrap();
    for w in d.windows(2) {
        assert!(w[0] <= w[1], "eigenvalues not increasing: {w:?}");
    }
    let unit = n as f64 * f64::EPSILON;
    let utu = u.transpose() * &u;
    let mut orth = 0.0f64;
    for i in 0..n {
        for j in 0..n {
            let want = if i == j { 1.0 } else { 0.0 };
            orth = orth.max((utu[(i, j)] - want).abs());
        }
    }
    let tnorm = d0
        .iter()
        .chain(e0)
        .fold(f64::MIN_POSITIVE, |a, v| a.max(v.abs()));
    let mut res = 0.0f64;
    for j in 0..n {
        for i in 0..n {
            let mut tu = d0[i] * u[(i, j)];
            if i > 0 {
                tu += e0[i - 1] * u[(i - 1, j)];
            }
            if i + 1 < n {
                tu += e0[i] * u[(i + 1, j)];
            }
            res = res.max((tu - d[j] * u[(i, j)]).abs() / tnorm);
        }
    }
    (orth / unit, res / unit, d)
}

fn check(name: &str, d: &[f64], e: &[f64]) -> Vec<f64> {
    let (orth, res, vals) = errors(d, e);
    assert!(
        orth < 10.0,
        "{name} n={}: orthogonality {orth} n*eps",
        d.len()
    );
    assert!(res < 10.0, "{name} n={}: residual {res} n*eps", d.len());
    vals
}

fn random(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = SplitMix(seed);
    let d = (0..n).map(|_| rng.uniform() - 0.5).collect();
    let e = (0..n.saturating_sub(1))
        .map(|_| rng.uniform() - 0.5)
        .collect();
    (d, e)
}

#[test]
fn random_matrices_across_leaf_and_merge_sizes() {
    for n in [1, 2, 3, 25, 26, 32, 33, 64, 65, 100, 333, 1000] {
        let (d, e) = random(n, n as u64);
        check("random", &d, &e);
    }
}

#[test]
fn eigenvalues_are_the_known_ones_of_the_second_difference_matrix() {
    // T = tridiag(-1, 2, -1): lambda_j = 2 - 2 cos(j pi / (n + 1)).
    let n = 200;
    let vals = check("laplacian", &vec![2.0; n], &vec![-1.0; n - 1]);
    for (j, v) in vals.iter().enumerate() {
        let want = 2.0 - 2.0 * ((j + 1) as f64 * std::f64::consts::PI / (n + 1) as f64).cos();
        assert!((v - want).abs() < 1e-13, "lambda_{j} = {v}, want {want}");
    }
}

#[test]
fn heavy_deflation() {
    let n = 150;
    // Identity and zero off-diagonals: everything deflates.
    let vals = check("identity", &vec![1.0; n], &vec![0.0; n - 1]);
    assert!(vals.iter().all(|&v| v == 1.0));
    check("zero", &vec![0.0; n], &vec![0.0; n - 1]);
    // Repeated values with small couplings.
    let d: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
    let e: Vec<f64> = (0..n - 1)
        .map(|i| if i % 7 == 0 { 1e-9 } else { 0.0 })
        .collect();
    check("repeated", &d, &e);
    // Tiny off-diagonals between ordinary blocks.
    let (d, mut e) = random(n, 7);
    for (i, v) in e.iter_mut().enumerate() {
        if i % 5 == 0 {
            *v = 1e-17;
        }
    }
    check("tiny couplings", &d, &e);
    // All diagonal entries equal, ones off the diagonal.
    check("constant", &vec![3.0; n], &vec![1.0; n - 1]);
}

#[test]
fn glued_wilkinson_matrices() {
    // W21+ glued by 1e-10: many pairs of eigenvalues agree to ~1e-14.
    let block: Vec<f64> = (0..21).map(|i| (10.0f64 - i as f64).abs()).collect();
    let copies = 12;
    let mut d = Vec::new();
    let mut e = Vec::new();
    for c in 0..copies {
        d.extend_from_slice(&block);
        e.extend(std::iter::repeat_n(1.0, 20));
        if c + 1 < copies {
            e.push(1e-10);
        }
    }
    check("glued wilkinson", &d, &e);
}

#[test]
fn extreme_scales_give_scaled_results() {
    let (d, e) = random(120, 3);
    let base = check("unit", &d, &e);
    for scale in [1e-300, 1e300] {
        let ds: Vec<f64> = d.iter().map(|v| v * scale).collect();
        let es: Vec<f64> = e.iter().map(|v| v * scale).collect();
        let vals = check("scaled", &ds, &es);
        for (v, b) in vals.iter().zip(&base) {
            assert!((v / scale - b).abs() < 1e-12, "scale {scale}: {v} vs {b}");
        }
    }
}
