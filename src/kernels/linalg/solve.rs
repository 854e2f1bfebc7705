//! `solve(a, b)`: LU with partial pivoting and R's two failure messages.
//!
//! R calls LAPACK `dgesv` then `dgecon`. Up to 64 columns reference
//! `dgetrf` is the recursive `dgetrf2`, ported here operation for operation
//! so that exact singularity (`U[i,i] == 0`) is detected where R detects it;
//! larger systems use faer's LU (same pivoting rule, blocked arithmetic).

use faer::linalg::solvers::{PartialPivLu, Solve};
use nalgebra::DMatrix;

use super::KernelError;

/// `dgetrf`'s block size: at or below it reference LAPACK runs `dgetrf2`.
const UNBLOCKED_MAX: usize = 64;

/// An LU factorisation in LAPACK's packed form.
struct Lu {
    /// `n x n`, column-major: unit L below the diagonal, U on and above.
    a: Vec<f64>,
    n: usize,
    /// 0-based row interchanges, LAPACK's `ipiv` (row i swapped with ipiv[i]).
    ipiv: Vec<usize>,
    /// 1-based index of the first zero pivot (LAPACK's `info`), 0 if none.
    info: usize,
}

fn idamax(x: &[f64]) -> usize {
    let mut best = 0;
    let mut max = -1.0;
    for (i, v) in x.iter().enumerate() {
        // NaN never compares greater, as in the Fortran.
        if v.abs() > max {
            max = v.abs();
            best = i;
        }
    }
    best
}

/// Reference `dgetrf2` on the `m x n` block at (r0, c0) of `a` (leading
/// dimension `lda`); `ipiv` is relative to the block. Returns `info`.
fn dgetrf2(
    a: &mut [f64],
    lda: usize,
    r0: usize,
    c0: usize,
    m: usize,
    n: usize,
    ipiv: &mut [usize],
) -> usize {
    let at = |i: usize, j: usize| (c0 + j) * lda + r0 + i;
    if m == 0 || n == 0 {
        return 0;
    }
    if m == 1 {
        ipiv[0] = 0;
        return usize::from(a[at(0, 0)] == 0.0);
    }
    if n == 1 {
        let col = &mut a[at(0, 0)..at(0, 0) + m];
        let i = idamax(col);
        ipiv[0] = i;
        if col[i] == 0.0 {
            return 1;
        }
        col.swap(0, i);
        let p = col[0];
        if p.abs() >= f64::MIN_POSITIVE {
            let s = 1.0 / p;
            for v in &mut col[1..] {
                *v *= s;
            }
        } else {
            for v in &mut col[1..] {
                *v /= p;
            }
        }
        return 0;
    }
    let n1 = m.min(n) / 2;
    let n2 = n - n1;
    let mut info = dgetrf2(a, lda, r0, c0, m, n1, &mut ipiv[..n1]);
    // Apply the left half's interchanges to the right half.
    for (i, &p) in ipiv[..n1].iter().enumerate() {
        if p != i {
            for j in n1..n {
                a.swap(at(i, j), at(p, j));
            }
        }
    }
    // A12 <- L11^-1 A12 (dtrsm L, L, N, U).
    for j in n1..n {
        for k in 0..n1 {
            let bkj = a[at(k, j)];
            if bkj != 0.0 {
                for i in k + 1..n1 {
                    a[at(i, j)] -= bkj * a[at(i, k)];
                }
            }
        }
    }
    // A22 <- A22 - A21 A12 (dgemm N, N with alpha -1, beta 1).
    for j in n1..n {
        for l in 0..n1 {
            let temp = -a[at(l, j)];
            for i in n1..m {
                a[at(i, j)] += temp * a[at(i, l)];
            }
        }
    }
    let iinfo = dgetrf2(
        a,
        lda,
        r0 + n1,
        c0 + n1,
        m - n1,
        n2,
        &mut ipiv[n1..m.min(n)],
    );
    if info == 0 && iinfo > 0 {
        info = iinfo + n1;
    }
    for p in &mut ipiv[n1..m.min(n)] {
        *p += n1;
    }
    for (i, &p) in ipiv.iter().enumerate().take(m.min(n)).skip(n1) {
        if p != i {
            for j in 0..n1 {
                a.swap(at(i, j), at(p, j));
            }
        }
    }
    info
}

fn lu_reference(a: &DMatrix<f64>) -> Lu {
    let n = a.nrows();
    let mut packed = a.as_slice().to_vec();
    let mut ipiv = vec![0; n];
    let info = dgetrf2(&mut packed, n, 0, 0, n, n, &mut ipiv);
    Lu {
        a: packed,
        n,
        ipiv,
        info,
    }
}

/// faer's factorisation, kept for the solve, and its packed copy for the
/// singularity checks.
fn lu_faer(a: &DMatrix<f64>) -> (Lu, PartialPivLu<f64>) {
    let n = a.nrows();
    let view = faer::MatRef::from_column_major_slice(a.as_slice(), n, n);
    let lu = view.partial_piv_lu();
    let (l, u) = (lu.L(), lu.U());
    let mut packed = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            packed[j * n + i] = if i > j { l[(i, j)] } else { u[(i, j)] };
        }
    }
    // faer gives the permutation as a whole; express it as LAPACK's
    // successive interchanges so one code path serves both.
    let fwd = lu.P().arrays().0.to_vec();
    let mut ipiv = vec![0; n];
    let mut cur: Vec<usize> = (0..n).collect();
    let mut pos: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let want = fwd[i];
        let p = pos[want];
        ipiv[i] = p;
        let displaced = cur[i];
        cur.swap(i, p);
        pos[want] = i;
        pos[displaced] = p;
    }
    let info = (0..n)
        .find(|&i| packed[i * n + i] == 0.0)
        .map_or(0, |i| i + 1);
    (
        Lu {
            a: packed,
            n,
            ipiv,
            info,
        },
        lu,
    )
}

impl Lu {
    /// `dgetrs('N')` on one right-hand side.
    fn solve_in_place(&self, b: &mut [f64]) {
        let (n, a) = (self.n, &self.a);
        for (i, &p) in self.ipiv.iter().enumerate() {
            b.swap(i, p);
        }
        for k in 0..n {
            let bk = b[k];
            if bk != 0.0 {
                for i in k + 1..n {
                    b[i] -= bk * a[k * n + i];
                }
            }
        }
        for k in (0..n).rev() {
            if b[k] != 0.0 {
                b[k] /= a[k * n + k];
                let bk = b[k];
                for i in 0..k {
                    b[i] -= bk * a[k * n + i];
                }
            }
        }
    }

    /// `x <- inv(L) x` then `inv(U) x`, or the transposed pair.
    fn apply_inverse(&self, x: &mut [f64], transpose: bool) {
        let (n, a) = (self.n, &self.a);
        if !transpose {
            for j in 0..n {
                let xj = x[j];
                if xj != 0.0 {
                    for i in j + 1..n {
                        x[i] -= xj * a[j * n + i];
                    }
                }
            }
            for j in (0..n).rev() {
                if x[j] != 0.0 {
                    x[j] /= a[j * n + j];
                    let xj = x[j];
                    for i in 0..j {
                        x[i] -= xj * a[j * n + i];
                    }
                }
            }
        } else {
            for j in 0..n {
                let mut t = x[j];
                for i in 0..j {
                    t -= a[j * n + i] * x[i];
                }
                x[j] = t / a[j * n + j];
            }
            // Reference dtrsv runs this sum from the bottom row up.
            for j in (0..n).rev() {
                let mut t = x[j];
                for i in (j + 1..n).rev() {
                    t -= a[j * n + i] * x[i];
                }
                x[j] = t;
            }
        }
    }

    /// LAPACK `dgecon('1')`: reciprocal condition number estimate, with
    /// `dlacn2`'s iteration (Hager/Higham).
    fn rcond(&self, anorm: f64) -> f64 {
        let n = self.n;
        if n == 0 {
            return 1.0;
        }
        if anorm == 0.0 || anorm.is_nan() {
            return if anorm.is_nan() { anorm } else { 0.0 };
        }
        let asum = |x: &[f64]| x.iter().map(|v| v.abs()).sum::<f64>();
        let sign = |v: f64| if v >= 0.0 { 1.0 } else { -1.0 };
        let mut x = vec![1.0 / n as f64; n];
        self.apply_inverse(&mut x, false);
        let mut est;
        if n == 1 {
            est = x[0].abs();
        } else {
            est = asum(&x);
            let mut isgn: Vec<f64> = x.iter().map(|&v| sign(v)).collect();
            x.copy_from_slice(&isgn);
            self.apply_inverse(&mut x, true);
            let mut j = idamax(&x);
            let mut iter = 2;
            loop {
                x.fill(0.0);
                x[j] = 1.0;
                self.apply_inverse(&mut x, false);
                let estold = est;
                est = asum(&x);
                let same = x.iter().zip(&isgn).all(|(&v, &s)| sign(v) == s);
                if same || est <= estold {
                    break;
                }
                isgn = x.iter().map(|&v| sign(v)).collect();
                x.copy_from_slice(&isgn);
                self.apply_inverse(&mut x, true);
                let jlast = j;
                j = idamax(&x);
                if x[jlast] != x[j].abs() && iter < 5 {
                    iter += 1;
                    continue;
                }
                break;
            }
            // Higham's alternating-sign test vector guards against
            // underestimates.
            let mut alt = 1.0;
            for (i, v) in x.iter_mut().enumerate() {
                *v = alt * (1.0 + i as f64 / (n - 1) as f64);
                alt = -alt;
            }
            self.apply_inverse(&mut x, false);
            let temp = 2.0 * (asum(&x) / (3 * n) as f64);
            if temp > est {
                est = temp;
            }
        }
        if est == 0.0 {
            return 0.0;
        }
        (1.0 / est) / anorm
    }
}

/// C's `printf("%g")`: 6 significant digits, trailing zeros removed.
pub(crate) fn format_g(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{x:.5e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..6).contains(&exp) {
        let decimals = (5 - exp).max(0) as usize;
        trim(&format!("{x:.decimals$}"))
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mant), exp.abs())
    }
}

/// `solve(a, b)`; `b == None` inverts `a`. `b` is a matrix or, when
/// `b_is_vector`, one column whose solution is returned as a vector.
pub(crate) fn solve(
    a: &DMatrix<f64>,
    b: Option<&DMatrix<f64>>,
    tol: f64,
) -> Result<DMatrix<f64>, KernelError> {
    let n = a.nrows();
    if a.ncols() != n {
        return Err(KernelError::new(format!(
            "'a' ({} x {}) must be square",
            n,
            a.ncols()
        )));
    }
    if n == 0 {
        return Err(KernelError::new("'a' is 0-diml"));
    }
    if let Some(b) = b {
        if b.nrows() != n {
            return Err(KernelError::new(format!(
                "'b' ({} x {}) must be compatible with 'a' ({n} x {n})",
                b.nrows(),
                b.ncols()
            )));
        }
    }
    // LAPACK's condition estimate comes out as 0 for NA and Inf entries.
    if a.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "system is computationally singular: reciprocal condition number = 0",
        ));
    }
    let (lu, fast) = if n <= UNBLOCKED_MAX {
        (lu_reference(a), None)
    } else {
        let (lu, f) = lu_faer(a);
        (lu, Some(f))
    };
    if lu.info > 0 {
        return Err(KernelError::new(format!(
            "Lapack routine dgesv: system is exactly singular: U[{0},{0}] = 0",
            lu.info
        )));
    }
    let anorm = (0..n)
        .map(|j| a.column(j).iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let rcond = lu.rcond(anorm);
    if tol > 0.0 && rcond < tol {
        return Err(KernelError::new(format!(
            "system is computationally singular: reciprocal condition number = {}",
            format_g(rcond)
        )));
    }
    if let Some(f) = fast {
        let rhs = match b {
            Some(b) => faer::Mat::from_fn(n, b.ncols(), |i, j| b[(i, j)]),
            None => faer::Mat::identity(n, n),
        };
        let x = f.solve(&rhs);
        return Ok(DMatrix::from_fn(n, x.ncols(), |i, j| x[(i, j)]));
    }
    let mut x = match b {
        Some(b) => b.clone(),
        None => DMatrix::identity(n, n),
    };
    for j in 0..x.ncols() {
        let mut col: Vec<f64> = x.column(j).iter().copied().collect();
        lu.solve_in_place(&mut col);
        x.column_mut(j).copy_from_slice(&col);
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_g_is_printf() {
        assert_eq!(format_g(1.2345678e-17), "1.23457e-17");
        assert_eq!(format_g(0.5), "0.5");
        assert_eq!(format_g(1e-5), "1e-05");
        assert_eq!(format_g(123456.0), "123456");
        assert_eq!(format_g(1234567.0), "1.23457e+06");
        assert_eq!(format_g(0.0001234), "0.0001234");
    }

    #[test]
    fn exactly_singular_reports_the_pivot() {
        let a = DMatrix::from_column_slice(3, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        let e = solve(&a, None, f64::EPSILON).unwrap_err();
        assert!(e.0.contains("system is"), "{}", e.0);
    }
}
