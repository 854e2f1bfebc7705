use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::householder::{
    apply_block_householder_sequence_on_the_left_in_place_scratch as apply_scratch,
    apply_block_householder_sequence_on_the_left_in_place_with_conj as apply,
};
use faer::linalg::qr::no_pivoting::factor::recommended_block_size;
use faer::linalg::svd::bidiag::{bidiag_in_place as faer_bidiag, bidiag_in_place_scratch};
use faer::{Conj, Mat, Par};

use super::{reduce, BLOCK, CROSSOVER};

/// Deterministic pseudo-random numbers in (-1, 1).
pub(super) fn noise(seed: u64, m: usize, n: usize) -> Mat<f64> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    Mat::from_fn(m, n, |_, _| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    })
}

/// The reduced matrix with its left and right coefficients, block sizes as
/// `square_svd` uses them.
pub(super) struct Reduced {
    bid: Mat<f64>,
    hl: Mat<f64>,
    hr: Mat<f64>,
}

impl Reduced {
    /// `a` itself, with room for the coefficients.
    fn unreduced(a: &Mat<f64>) -> Reduced {
        let (m, n) = a.shape();
        let bs = recommended_block_size::<f64>(m, n);
        Reduced {
            bid: a.clone(),
            hl: Mat::zeros(bs, n),
            hr: Mat::zeros(bs, n - 1),
        }
    }
}

pub(super) fn ours(a: &Mat<f64>, block: usize, crossover: usize) -> Reduced {
    let mut r = Reduced::unreduced(a);
    reduce(
        r.bid.as_mut(),
        r.hl.as_mut(),
        r.hr.as_mut(),
        block,
        crossover,
    );
    r
}

pub(super) fn faers(a: &Mat<f64>) -> Reduced {
    let (m, n) = a.shape();
    let mut r = Reduced::unreduced(a);
    let mut mem = MemBuffer::new(bidiag_in_place_scratch::<f64>(
        m,
        n,
        Par::Seq,
        Default::default(),
    ));
    faer_bidiag(
        r.bid.as_mut(),
        r.hl.as_mut(),
        r.hr.as_mut(),
        Par::Seq,
        MemStack::new(&mut mem),
        Default::default(),
    );
    r
}

/// `Ql` (`m × m`) and `Qr` (`n × n`) as `square_svd` applies them.
fn factors(r: &Reduced) -> (Mat<f64>, Mat<f64>) {
    let (m, n) = r.bid.shape();
    let bs = r.hl.nrows();
    let mut mem = MemBuffer::new(StackReq::any_of(&[
        apply_scratch::<f64>(m, bs, m),
        apply_scratch::<f64>(n, bs, n),
    ]));
    let stack = MemStack::new(&mut mem);
    let mut ql = Mat::<f64>::identity(m, m);
    apply(
        r.bid.as_ref(),
        r.hl.as_ref(),
        Conj::No,
        ql.as_mut(),
        Par::Seq,
        stack,
    );
    let mut qr = Mat::<f64>::identity(n, n);
    if n > 1 {
        let mut mirror = r.bid.clone();
        for j in 1..n {
            for i in 0..j {
                mirror[(j, i)] = mirror[(i, j)];
            }
        }
        apply(
            mirror.as_ref().submatrix(1, 0, n - 1, n - 1),
            r.hr.as_ref(),
            Conj::Yes,
            qr.as_mut().subrows_mut(1, n - 1),
            Par::Seq,
            stack,
        );
    }
    (ql, qr)
}

fn max_abs(a: &Mat<f64>) -> f64 {
    let mut worst = 0.0f64;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            worst = worst.max(a[(i, j)].abs());
        }
    }
    worst
}

fn off_identity(q: &Mat<f64>) -> f64 {
    let g = q.transpose() * q;
    max_abs(&(g - Mat::<f64>::identity(q.ncols(), q.ncols())))
}

/// Checks `A = Ql B Qr^T` and the orthogonality of `Ql`, `Qr`, within
/// `10 max(m, n) eps` (relative to max |A|).
fn check(a: &Mat<f64>, r: &Reduced, what: &str) {
    let (m, n) = a.shape();
    let (ql, qr) = factors(r);
    let mut b = Mat::<f64>::zeros(m, n);
    for i in 0..n {
        b[(i, i)] = r.bid[(i, i)];
        if i + 1 < n {
            b[(i, i + 1)] = r.bid[(i, i + 1)];
        }
    }
    let tol = 10.0 * m.max(n) as f64 * f64::EPSILON;
    let back = &ql * &b * qr.transpose();
    let err = max_abs(&(back - a)) / max_abs(a).max(f64::MIN_POSITIVE);
    assert!(
        err <= tol,
        "{what}: |Ql B Qr^T - A| / |A| = {err:e} > {tol:e}"
    );
    let (el, er) = (off_identity(&ql), off_identity(&qr));
    assert!(
        el <= tol && er <= tol,
        "{what}: Ql off identity by {el:e}, Qr by {er:e}"
    );
}

/// Our diagonal and superdiagonal against faer's, up to signs.
fn same_bidiagonal(a: &Mat<f64>, r: &Reduced, what: &str) {
    let f = faers(a);
    let n = a.ncols();
    let scale = max_abs(a);
    for i in 0..n {
        let mut pairs = vec![(r.bid[(i, i)], f.bid[(i, i)])];
        if i + 1 < n {
            pairs.push((r.bid[(i, i + 1)], f.bid[(i, i + 1)]));
        }
        for (x, y) in pairs {
            assert!(
                (x.abs() - y.abs()).abs() <= 1e-10 * scale,
                "{what}: bidiagonal at {i}: ours {x}, faer's {y}"
            );
        }
    }
}

#[test]
fn reconstructs_across_panel_boundaries() {
    // Small panels and crossover so that 1..=3 full panels and a remainder
    // of every size are reached.
    let (nb, nx) = (4, 6);
    let mut shapes = vec![(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (5, 1)];
    for n in [
        nb - 1,
        nb,
        nb + 1,
        2 * nb + 1,
        nx - 1,
        nx,
        nx + 1,
        3 * nb + 2,
        17,
    ] {
        shapes.extend([(n, n), (n + 3, n), (2 * n + 1, n)]);
    }
    for (seed, &(m, n)) in shapes.iter().enumerate() {
        let a = noise(seed as u64, m, n);
        let r = ours(&a, nb, nx);
        let what = format!("{m}x{n} nb={nb} nx={nx}");
        check(&a, &r, &what);
        same_bidiagonal(&a, &r, &what);
    }
}

#[test]
fn reconstructs_at_the_real_block_sizes() {
    let shapes = [
        (BLOCK - 1, BLOCK - 1),
        (BLOCK + 1, BLOCK),
        (CROSSOVER - 1, CROSSOVER - 1),
        (CROSSOVER, CROSSOVER),
        (CROSSOVER + 1, CROSSOVER + 1),
        (CROSSOVER + BLOCK + 1, CROSSOVER + BLOCK + 1),
        (300, 300),
        (400, 250),
    ];
    for (seed, &(m, n)) in shapes.iter().enumerate() {
        let a = noise(100 + seed as u64, m, n);
        let r = ours(&a, BLOCK, CROSSOVER);
        check(&a, &r, &format!("{m}x{n}"));
        same_bidiagonal(&a, &r, &format!("{m}x{n}"));
    }
}

#[test]
fn zero_columns_rows_and_rank_one() {
    // Zero columns and rows give reflectors with nothing to annihilate
    // (faer's infinite coefficient, LAPACK's tau = 0), in and across panels.
    let (m, n) = (23, 19);
    let mut cases = Vec::new();
    cases.push(("zero", Mat::<f64>::zeros(m, n)));
    let mut a = noise(7, m, n);
    for j in [0, 5, 9, 18] {
        a.as_mut().col_mut(j).fill(0.0);
    }
    cases.push(("zero columns", a));
    let mut a = noise(8, m, n);
    for i in [0, 1, 4, 11, 22] {
        a.as_mut().row_mut(i).fill(0.0);
    }
    cases.push(("zero rows", a));
    let x = noise(9, m, 1);
    let y = noise(10, n, 1);
    cases.push(("rank one", &x * y.transpose()));
    let mut a = Mat::<f64>::zeros(m, n);
    a[(3, 2)] = 1.5;
    cases.push(("one entry", a));
    for (what, a) in &cases {
        for (nb, nx) in [(4, 6), (BLOCK, CROSSOVER)] {
            let r = ours(a, nb, nx);
            check(a, &r, what);
            same_bidiagonal(a, &r, what);
        }
    }
}

#[test]
fn products_match_plain_loops() {
    use super::super::gemv::{dots_then_combine, gemv_n_add, gemv_t};
    // Rows and columns around the vector width and the four-column groups.
    for (m, n) in [(1, 1), (3, 5), (4, 4), (7, 9), (8, 3), (13, 12), (33, 17)] {
        let a = noise((m * 100 + n) as u64, m, n);
        let u: Vec<f64> = noise(1, m, 1).col(0).iter().copied().collect();
        let c: Vec<f64> = noise(2, n, 1).col(0).iter().copied().collect();
        let dot = |j: usize| (0..m).map(|i| a[(i, j)] * u[i]).sum::<f64>();
        let tol = 1e-14 * m as f64;

        let mut out = vec![0.0; n];
        gemv_t(a.as_ref(), &u, &mut out);
        for (j, o) in out.iter().enumerate() {
            assert!((o - dot(j)).abs() <= tol, "gemv_t {m}x{n} at {j}");
        }

        let mut out = vec![1.0; m];
        gemv_n_add(a.as_ref(), &c, &mut out);
        for (i, o) in out.iter().enumerate() {
            let want = 1.0 + (0..n).map(|j| a[(i, j)] * c[j]).sum::<f64>();
            assert!((o - want).abs() <= tol * n as f64, "gemv_n {m}x{n} at {i}");
        }

        // z += a(:, j) (c_j + d_j), each coefficient from its column's dot.
        let mut z = vec![0.5; m];
        let mut seen = vec![f64::NAN; n];
        dots_then_combine(
            a.as_ref(),
            &u,
            |j, d| {
                seen[j] = d;
                c[j] + d
            },
            &mut z,
        );
        for (j, s) in seen.iter().enumerate() {
            assert!((s - dot(j)).abs() <= tol, "dots {m}x{n} at {j}");
        }
        for (i, o) in z.iter().enumerate() {
            let want = 0.5 + (0..n).map(|j| a[(i, j)] * (c[j] + dot(j))).sum::<f64>();
            assert!(
                (o - want).abs() <= tol * n as f64 * 4.0,
                "combine {m}x{n} at {i}"
            );
        }
    }
}
