use super::super::test_rng::uniform;
use super::*;

/// The eigenvalues of the tridiagonal (d, e) by faer's dense solver.
fn dense_values(d: &[f64], e: &[f64]) -> Vec<f64> {
    let n = d.len();
    let t = faer::Mat::from_fn(n, n, |i, j| {
        if i == j {
            d[i]
        } else if i == j + 1 {
            e[j]
        } else if j == i + 1 {
            e[i]
        } else {
            0.0
        }
    });
    let mut v = t.self_adjoint_eigenvalues(faer::Side::Lower).unwrap();
    v.sort_by(f64::total_cmp);
    v
}

fn sterf_values(d: &[f64], e: &[f64]) -> Vec<f64> {
    let (mut d, mut e) = (d.to_vec(), e.to_vec());
    sterf(&mut d, &mut e).expect("converges");
    d
}

#[test]
fn random_tridiagonals_match_a_dense_solver() {
    let mut next = uniform(3);
    for n in [1usize, 2, 3, 5, 17, 64, 200] {
        let d: Vec<f64> = (0..n).map(|_| next()).collect();
        let e: Vec<f64> = (0..n.saturating_sub(1)).map(|_| next()).collect();
        let ours = sterf_values(&d, &e);
        let want = dense_values(&d, &e);
        assert!(
            ours.windows(2).all(|w| w[0] <= w[1]),
            "not increasing at n = {n}"
        );
        for (a, b) in ours.iter().zip(&want) {
            assert!((a - b).abs() <= 1e-14 * n as f64, "n = {n}: {a} vs {b}");
        }
    }
}

/// The second-difference matrix (2 on the diagonal, -1 beside it) has
/// eigenvalues 2 - 2 cos(k pi / (n + 1)).
#[test]
fn second_difference_matrix() {
    let n = 100;
    let ours = sterf_values(&vec![2.0; n], &vec![-1.0; n - 1]);
    for (k, v) in ours.iter().enumerate() {
        let want = 2.0 - 2.0 * ((k + 1) as f64 * std::f64::consts::PI / (n + 1) as f64).cos();
        assert!((v - want).abs() < 1e-13, "k = {k}: {v} vs {want}");
    }
}

/// Blocks split by zero couplings, and blocks so large or small that
/// their squares would overflow or underflow (the scaled paths): the
/// values are those of the unscaled matrix, scaled.
#[test]
fn split_and_badly_scaled_blocks() {
    let mut next = uniform(9);
    let n = 40;
    let d: Vec<f64> = (0..n).map(|_| next()).collect();
    let mut e: Vec<f64> = (0..n - 1).map(|_| next()).collect();
    e[10] = 0.0;
    e[25] = 0.0;
    let base = sterf_values(&d, &e);
    for (a, b) in base.iter().zip(&dense_values(&d, &e)) {
        assert!((a - b).abs() <= 1e-14, "split: {a} vs {b}");
    }
    for scale in [1e-200, 1e200, 1e300] {
        let ds: Vec<f64> = d.iter().map(|v| v * scale).collect();
        let es: Vec<f64> = e.iter().map(|v| v * scale).collect();
        let ours = sterf_values(&ds, &es);
        for (a, b) in ours.iter().zip(&base) {
            assert!((a / scale - b).abs() <= 1e-13, "scale {scale}: {a} vs {b}");
        }
    }
}

#[test]
fn dlae2_gives_the_larger_root_first() {
    let (a, b) = dlae2(1.0, 2.0, -3.0);
    // Roots of x^2 + 2x - 7: -1 ± 2 sqrt(2).
    let s = 2.0 * 2.0f64.sqrt();
    assert!((a - (-1.0 - s)).abs() < 1e-15 && (b - (-1.0 + s)).abs() < 1e-15);
}

/// R's values for tridiagonal matrices (`tests/fixtures/r/sterf.R`) are
/// LAPACK's `dsterf` ones; the port gives the same bits.
#[test]
fn same_bits_as_r() {
    let text = include_str!("../../../../tests/fixtures/r/sterf.txt");
    let rows: Vec<Vec<f64>> = text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 18);
    for case in rows.chunks(3) {
        let (d, e, want) = (&case[0], &case[1], &case[2]);
        let mut ours = sterf_values(d, e);
        ours.reverse();
        assert_eq!(&ours, want, "n = {}", d.len());
    }
}
