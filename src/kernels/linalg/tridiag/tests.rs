use super::*;
use faer::dyn_stack::StackReq;
use faer::{Mat, Par};

/// A reproducible symmetric matrix (xorshift entries in [-0.5, 0.5)).
fn random_symmetric(n: usize, seed: u64) -> Mat<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut a = Mat::<f64>::zeros(n, n);
    for j in 0..n {
        for i in j..n {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let v =
                (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            a[(i, j)] = v;
            a[(j, i)] = v;
        }
    }
    a
}

/// Ours on the lower triangle of `a` (the upper one is filled with NaN to
/// prove it is not read): the packed result and the factor.
fn reduce(a: &Mat<f64>, b: usize) -> (Vec<f64>, Mat<f64>) {
    let n = a.nrows();
    let mut buf = vec![f64::NAN; n * n];
    for j in 0..n {
        for i in j..n {
            buf[j * n + i] = a[(i, j)];
        }
    }
    let mut house = Mat::<f64>::zeros(b, n.saturating_sub(1));
    tridiag_in_place(&mut buf, n, house.as_mut(), &AtomicBool::new(false)).unwrap();
    (buf, house)
}

/// faer's reduction of the same matrix: (diagonal, subdiagonal).
fn faer_reduce(a: &Mat<f64>, b: usize) -> (Vec<f64>, Vec<f64>) {
    let n = a.nrows();
    let mut t = a.clone();
    let mut house = Mat::<f64>::zeros(b, n - 1);
    let mut mem = MemBuffer::new(faer::linalg::evd::tridiag::tridiag_in_place_scratch::<f64>(
        n,
        Par::Seq,
        Default::default(),
    ));
    faer::linalg::evd::tridiag::tridiag_in_place(
        t.as_mut(),
        house.as_mut(),
        Par::Seq,
        MemStack::new(&mut mem),
        Default::default(),
    );
    (
        (0..n).map(|i| t[(i, i)]).collect(),
        (1..n).map(|i| t[(i, i - 1)]).collect(),
    )
}

/// Q from the stored reflectors by faer's back-transform of the identity.
fn q_of(buf: &[f64], n: usize, house: &Mat<f64>) -> Mat<f64> {
    let mut q = Mat::<f64>::identity(n, n);
    if n < 2 {
        return q;
    }
    let b = house.nrows();
    let v = MatRef::from_column_major_slice(buf, n, n).submatrix(1, 0, n - 1, n - 1);
    let mut mem = MemBuffer::new(StackReq::any_of(&[
        householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
            n - 1,
            b,
            n,
        ),
    ]));
    householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
        v,
        house.as_ref(),
        faer::Conj::No,
        q.as_mut().subrows_mut(1, n - 1),
        Par::Seq,
        MemStack::new(&mut mem),
    );
    q
}

fn max_abs(m: MatRef<'_, f64>) -> f64 {
    let mut x: f64 = 0.0;
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            x = x.max(m[(i, j)].abs());
        }
    }
    x
}

/// Checks A = Q T Qᵀ and QᵀQ = I to 10 n eps (relative to ‖A‖), every
/// output finite, and d, e equal to faer's up to the signs of e.
fn check(a: &Mat<f64>, label: &str) {
    let n = a.nrows();
    let b = 8.min(n.max(1));
    let (buf, house) = reduce(a, b);
    assert!(
        buf.iter()
            .enumerate()
            .all(|(p, x)| p % n < p / n || x.is_finite()),
        "{label}: non-finite output"
    );
    assert!(
        house
            .as_ref()
            .col_iter()
            .all(|c| c.iter().all(|x| !x.is_nan())),
        "{label}: NaN factor"
    );
    let d: Vec<f64> = (0..n).map(|i| buf[i * n + i]).collect();
    let e: Vec<f64> = (1..n).map(|i| buf[(i - 1) * n + i]).collect();
    let mut t = Mat::<f64>::zeros(n, n);
    for i in 0..n {
        t[(i, i)] = d[i];
        if i + 1 < n {
            t[(i + 1, i)] = e[i];
            t[(i, i + 1)] = e[i];
        }
    }
    let q = q_of(&buf, n, &house);
    let norm = max_abs(a.as_ref()) * n as f64;
    let tol = 10.0 * n.max(1) as f64 * f64::EPSILON;
    let qtq = q.transpose() * &q - Mat::<f64>::identity(n, n);
    assert!(
        max_abs(qtq.as_ref()) <= tol,
        "{label}: Q not orthogonal ({:e})",
        max_abs(qtq.as_ref())
    );
    let back = &q * &t * q.transpose() - a;
    let err = max_abs(back.as_ref());
    assert!(
        err <= tol * norm.max(f64::MIN_POSITIVE),
        "{label}: |QTQ' - A| = {err:e}, |A| = {norm:e}"
    );
    if n >= 2 {
        let (fd, fe) = faer_reduce(a, 1);
        let scale = norm.max(f64::MIN_POSITIVE);
        for i in 0..n {
            assert!(
                (d[i] - fd[i]).abs() <= tol * scale,
                "{label}: d[{i}] {} vs faer {}",
                d[i],
                fd[i]
            );
        }
        for i in 0..n - 1 {
            assert!(
                (e[i].abs() - fe[i].abs()).abs() <= tol * scale,
                "{label}: e[{i}] {} vs faer {}",
                e[i],
                fe[i]
            );
        }
    }
}

#[test]
fn reduction_is_an_orthogonal_similarity_across_block_boundaries() {
    // The blocked path starts above CROSSOVER columns; panel and crossover
    // edges on both sides.
    let sizes = [
        1,
        2,
        3,
        PANEL - 1,
        PANEL,
        PANEL + 1,
        2 * PANEL + 1,
        CROSSOVER - 1,
        CROSSOVER,
        CROSSOVER + 1,
        CROSSOVER + 2,
        CROSSOVER + PANEL + 1,
        300,
    ];
    for (s, &n) in sizes.iter().enumerate() {
        check(&random_symmetric(n, s as u64 + 1), &format!("n = {n}"));
    }
}

#[test]
fn diagonal_and_zero_subcolumns_give_identity_reflectors() {
    let n = CROSSOVER + PANEL + 5;
    let diag = Mat::<f64>::from_fn(n, n, |i, j| if i == j { i as f64 - 7.0 } else { 0.0 });
    check(&diag, "diagonal");
    let (buf, house) = reduce(&diag, 4);
    assert!((0..n * n).all(|p| p % n < p / n || buf[p] == diag[(p % n, p / n)]));
    // Each block's factor keeps its reflectors' τs on its diagonal.
    assert!(
        (0..n - 1).all(|k| house[(k % 4, k)].is_infinite()),
        "identity reflectors have τ = ∞"
    );
    // Some columns already reduced (zero below the subdiagonal), inside
    // the panels and in the unblocked rest.
    let mut a = random_symmetric(n, 42);
    for j in [0, 3, PANEL - 1, PANEL, 2 * PANEL + 2, n - 10] {
        for i in j + 2..n {
            a[(i, j)] = 0.0;
            a[(j, i)] = 0.0;
        }
    }
    check(&a, "zero sub-columns");
    // A block of zeros: every reflector of the first panel is the identity.
    let block = Mat::<f64>::from_fn(n, n, |i, j| {
        if i < PANEL + 3 || j < PANEL + 3 {
            if i == j {
                1.5
            } else {
                0.0
            }
        } else {
            random_symmetric(1, (i * n + j).min(j * n + i) as u64)[(0, 0)]
        }
    });
    check(&block, "zero leading block");
}

#[test]
fn extreme_scales_stay_finite() {
    let a = random_symmetric(CROSSOVER + 2 * PANEL + 3, 7);
    check(&(&a * faer::Scale(1e-300)), "1e-300");
    check(&(&a * faer::Scale(1e300)), "1e300");
}

/// Interleaves faer's reduction and ours on the same matrices, reporting
/// the min and median thread CPU time of each (`cargo test --release --lib
/// tridiag::tests::timing -- --ignored --nocapture`).
#[test]
#[ignore]
fn timing() {
    let cpu = || {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    };
    for (n, reps) in [(250, 41), (500, 21), (1000, 15), (2000, 5)] {
        let a = random_symmetric(n, 1);
        let (mut ours, mut theirs) = (vec![], vec![]);
        for _ in 0..reps {
            let t0 = cpu();
            let _ = faer_reduce(&a, 32);
            let t1 = cpu();
            let _ = reduce(&a, 32);
            let t2 = cpu();
            theirs.push(t1 - t0);
            ours.push(t2 - t1);
        }
        let stats = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (v[0] * 1e3, v[v.len() / 2] * 1e3)
        };
        let (om, omed) = stats(&mut ours);
        let (fm, fmed) = stats(&mut theirs);
        println!("n={n}: ours min {om:.2} med {omed:.2} ms; faer min {fm:.2} med {fmed:.2} ms; ours/faer {:.3}", om / fm);
    }
}
