//! `solve(a, b)`: LU with partial pivoting and R's two failure messages.
//!
//! R calls LAPACK `dgesv` then `dgecon`. Up to 64 columns the factorisation
//! is reference `dgetrf2` ported operation for operation, so that exact
//! singularity (`U[i,i] == 0`) and the condition estimate in the message come
//! out as in R to the bit. Above 64 columns (where `dgetrf` blocks, and
//! OpenBLAS's kernels round differently again) the LU, the triangular solves
//! and the inverse are faer's, with the same pivoting; `solve(a)` forms the
//! inverse from the factors as LAPACK's `dgetri` does.

use faer::linalg::triangular_inverse::invert_upper_triangular;
use faer::linalg::triangular_solve::{
    solve_unit_lower_triangular_in_place, solve_unit_upper_triangular_in_place,
    solve_upper_triangular_in_place,
};
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
    for j in n1..n {
        for (i, &p) in ipiv[..n1].iter().enumerate() {
            if p != i {
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
    for j in 0..n1 {
        for (i, &p) in ipiv.iter().enumerate().take(m.min(n)).skip(n1) {
            if p != i {
                a.swap(at(i, j), at(p, j));
            }
        }
    }
    info
}

/// faer's recursive blocked LU: the same partial pivoting (the first entry
/// of largest modulus) as `dgetrf`, with faster kernels, so factors agree
/// with R's to rounding, not bits.
fn lu_blocked(a: &DMatrix<f64>) -> Lu {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::lu::partial_pivoting::factor;
    let n = a.nrows();
    let mut packed = a.as_slice().to_vec();
    let mut perm = vec![0usize; n];
    let mut perm_inv = vec![0usize; n];
    let scratch = factor::lu_in_place_scratch::<usize, f64>(
        n,
        n,
        crate::kernels::width::par(),
        Default::default(),
    );
    factor::lu_in_place(
        faer::MatMut::from_column_major_slice_mut(&mut packed, n, n),
        &mut perm,
        &mut perm_inv,
        crate::kernels::width::par(),
        MemStack::new(&mut MemBuffer::new(scratch)),
        Default::default(),
    );
    // faer divides by a zero pivot (LAPACK skips it), so what follows one
    // is NaN: the first zero is still LAPACK's `info`.
    let info = (0..n)
        .find(|&i| {
            let d = packed[i * n + i];
            d == 0.0 || d.is_nan()
        })
        .map_or(0, |i| i + 1);
    Lu {
        a: packed,
        n,
        ipiv: interchanges(&perm),
        info,
    }
}

/// LAPACK's `ipiv` (swap row i with ipiv[i], in order) for the permutation
/// `perm` (row i of PA is row perm[i] of A).
fn interchanges(perm: &[usize]) -> Vec<usize> {
    let n = perm.len();
    let mut at: Vec<usize> = (0..n).collect();
    let mut row_at: Vec<usize> = (0..n).collect();
    let mut ipiv = vec![0; n];
    for i in 0..n {
        let j = at[perm[i]];
        ipiv[i] = j;
        let (ri, rj) = (row_at[i], row_at[j]);
        row_at.swap(i, j);
        at[ri] = j;
        at[rj] = i;
    }
    ipiv
}

fn dgetrf_blocked(a: &mut [f64], n: usize, ipiv: &mut [usize]) -> usize {
    let nb = UNBLOCKED_MAX;
    let at = |i: usize, j: usize| j * n + i;
    let mut info = 0;
    let mut j = 0;
    while j < n {
        let jb = nb.min(n - j);
        let iinfo = dgetrf2(a, n, j, j, n - j, jb, &mut ipiv[j..j + jb]);
        if info == 0 && iinfo > 0 {
            info = iinfo + j;
        }
        for p in &mut ipiv[j..j + jb] {
            *p += j;
        }
        // Interchanges on the columns left and right of the panel, column
        // by column (the same swaps in the same order within each column,
        // but one pass over memory instead of a strided walk per swap).
        for c in (0..j).chain(j + jb..n) {
            let col = &mut a[c * n..(c + 1) * n];
            for (i, &p) in ipiv.iter().enumerate().take(j + jb).skip(j) {
                if p != i {
                    col.swap(i, p);
                }
            }
        }
        if j + jb < n {
            for c in j + jb..n {
                for k in j..j + jb {
                    let bkc = a[at(k, c)];
                    if bkc != 0.0 {
                        for i in k + 1..j + jb {
                            a[at(i, c)] -= bkc * a[at(i, k)];
                        }
                    }
                }
            }
            // The Schur update A22 -= A21 * A12 is nearly all of the flops:
            // faer's matmul (SIMD, blocked) instead of dgemm's loops. Its
            // summation order differs, so entries move in the last bits.
            let (j2, m) = (j + jb, n - j - jb);
            let mut a12 = faer::Mat::<f64>::zeros(jb, m);
            for c in 0..m {
                for r in 0..jb {
                    a12[(r, c)] = a[at(j + r, j2 + c)];
                }
            }
            let (head, tail) = a.split_at_mut(j2 * n);
            let a21 =
                faer::MatRef::from_column_major_slice_with_stride(&head[j * n + j2..], m, jb, n);
            let a22 =
                faer::MatMut::from_column_major_slice_with_stride_mut(&mut tail[j2..], m, m, n);
            faer::linalg::matmul::matmul(
                a22,
                faer::Accum::Add,
                a21,
                a12.as_ref(),
                -1.0,
                crate::kernels::width::par(),
            );
        }
        j += jb;
    }
    info
}

/// Reference `dgetrf`: `dgetrf2` up to the block size, else right-looking
/// blocks of 64 columns (panel by `dgetrf2`, then `dlaswp`, `dtrsm` in
/// reference BLAS's loop order, `dgemm` by faer). Slower than faer's LU,
/// but its near-zero pivots, and so the condition number R prints for a
/// singular system, are R's.
fn lu_reference(a: &DMatrix<f64>) -> Lu {
    let n = a.nrows();
    let mut packed = a.as_slice().to_vec();
    let mut ipiv = vec![0; n];
    let info = if n <= UNBLOCKED_MAX {
        dgetrf2(&mut packed, n, 0, 0, n, n, &mut ipiv)
    } else {
        dgetrf_blocked(&mut packed, n, &mut ipiv)
    };
    Lu {
        a: packed,
        n,
        ipiv,
        info,
    }
}

/// `La_det`'s log modulus and sign of a square matrix: `-Inf` for an
/// exactly singular one.
pub(crate) fn log_determinant(a: &DMatrix<f64>) -> (f64, f64) {
    let lu = lu_fast(a);
    if lu.info > 0 {
        return (f64::NEG_INFINITY, 1.0);
    }
    let n = lu.n;
    let mut sign = 1.0;
    for (i, &p) in lu.ipiv.iter().enumerate() {
        if p != i {
            sign = -sign;
        }
    }
    let mut modulus = 0.0;
    for i in 0..n {
        let dii = lu.a[i * (n + 1)];
        modulus += dii.abs().ln();
        if dii < 0.0 {
            sign = -sign;
        }
    }
    (modulus, sign)
}

/// R's `La_det_ge_real(A, logarithm)` (Lapack.c): `(modulus, sign)` from
/// the same factorisation as [`log_determinant`]; with `logarithm` false
/// the modulus is U's diagonal multiplied out, its sign moved to `sign`.
pub(super) fn determinant(a: &DMatrix<f64>, logarithm: bool) -> (f64, f64) {
    if logarithm {
        return log_determinant(a);
    }
    let lu = lu_fast(a);
    if lu.info > 0 {
        return (0.0, 1.0);
    }
    let n = lu.n;
    let mut sign = 1.0;
    for (i, &p) in lu.ipiv.iter().enumerate() {
        if p != i {
            sign = -sign;
        }
    }
    let mut modulus = 1.0;
    for i in 0..n {
        modulus *= lu.a[i * (n + 1)];
    }
    if modulus < 0.0 {
        modulus = -modulus;
        sign = -sign;
    }
    (modulus, sign)
}

/// The factorisation a solve starts with: the reference one where it is
/// cheap, faer's above the block size.
fn lu_fast(a: &DMatrix<f64>) -> Lu {
    if a.nrows() > UNBLOCKED_MAX {
        lu_blocked(a)
    } else {
        lu_reference(a)
    }
}

impl Lu {
    /// `inv(A) = inv(U) inv(L) P`, as LAPACK's `dgetri` forms it: invert
    /// U, then solve `X L = inv(U)`, where solving against the identity as
    /// R's `dgesv` does takes 2n³ flops. The same inverse up to rounding.
    fn inverse(&self) -> DMatrix<f64> {
        let n = self.n;
        let factors = faer::MatRef::from_column_major_slice(&self.a, n, n);
        let mut x = DMatrix::<f64>::zeros(n, n);
        let mut xm = faer::MatMut::from_column_major_slice_mut(x.as_mut_slice(), n, n);
        invert_upper_triangular(xm.as_mut(), factors, crate::kernels::width::par());
        // X L = inv(U) is Lᵀ Xᵀ = inv(U)ᵀ.
        solve_unit_upper_triangular_in_place(
            factors.transpose(),
            xm.transpose_mut(),
            crate::kernels::width::par(),
        );
        // `P` on the right: the row interchanges, undone as column swaps in
        // reverse order.
        for (i, &p) in self.ipiv.iter().enumerate().rev() {
            if p != i {
                x.swap_columns(i, p);
            }
        }
        x
    }

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

    /// LAPACK `dgecon`: reciprocal condition number estimate, with
    /// `dlacn2`'s iteration (Hager/Higham). `inf` is the infinity norm's
    /// estimate, where dgecon's `kase1` is 2: dlacn2's two kinds of
    /// product swap.
    fn rcond(&self, anorm: f64, inf: bool) -> f64 {
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
        self.apply_inverse(&mut x, inf);
        let mut est;
        if n == 1 {
            est = x[0].abs();
        } else {
            est = asum(&x);
            let mut isgn: Vec<f64> = x.iter().map(|&v| sign(v)).collect();
            x.copy_from_slice(&isgn);
            self.apply_inverse(&mut x, !inf);
            let mut j = idamax(&x);
            let mut iter = 2;
            loop {
                x.fill(0.0);
                x[j] = 1.0;
                self.apply_inverse(&mut x, inf);
                let estold = est;
                est = asum(&x);
                let same = x.iter().zip(&isgn).all(|(&v, &s)| sign(v) == s);
                if same || est <= estold {
                    break;
                }
                isgn = x.iter().map(|&v| sign(v)).collect();
                x.copy_from_slice(&isgn);
                self.apply_inverse(&mut x, !inf);
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
            self.apply_inverse(&mut x, inf);
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

/// R's `La_dgecon(a, norm)` for a square matrix: LAPACK `dgetrf` then
/// `dgecon` with the one norm (or the infinity norm when `inf`) of `a`
/// from `dlange`; 0 for an exactly singular matrix, as R returns it.
pub(crate) fn la_dgecon(a: &DMatrix<f64>, inf: bool) -> Result<f64, KernelError> {
    let n = a.nrows();
    if n == 0 {
        return Err(KernelError::new(
            "BLAS/LAPACK routine 'DGETRF' gave error code -4",
        ));
    }
    let anorm = super::norm::dlange(if inf { 'I' } else { 'O' }, a);
    // dgetrf meets NaN pivots (and dgecon an infinite norm) for NA, NaN
    // and Inf entries; R's LAPACK comes out with 0 there.
    if a.iter().any(|v| !v.is_finite()) {
        return Ok(0.0);
    }
    let lu = lu_reference(a);
    if lu.info > 0 {
        return Ok(0.0);
    }
    Ok(lu.rcond(anorm, inf))
}

/// R's `La_dtrcon(a, norm)`: LAPACK `dtrcon('U', 'N')` on the upper
/// triangle of the square `a`. dtrcon's solves are dgecon's with a unit
/// L, so the estimate runs on the triangle with identity factors below.
pub(crate) fn la_dtrcon(a: &DMatrix<f64>, inf: bool) -> f64 {
    let n = a.nrows();
    let upper = DMatrix::from_fn(n, n, |i, j| if i <= j { a[(i, j)] } else { 0.0 });
    // dlantr reads the triangle only: dlange of the zeroed copy.
    let anorm = super::norm::dlange(if inf { 'I' } else { 'O' }, &upper);
    // A zero or NaN norm: dtrcon leaves its estimate at 0.
    if anorm.is_nan() || anorm <= 0.0 {
        return 0.0;
    }
    let lu = Lu {
        a: upper.as_slice().to_vec(),
        n,
        ipiv: (0..n).collect(),
        info: 0,
    };
    lu.rcond(anorm, inf)
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
    let anorm = (0..n)
        .map(|j| a.column(j).iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let singular = |lu: &Lu| {
        if lu.info > 0 {
            return Some(format!(
                "Lapack routine dgesv: system is exactly singular: U[{0},{0}] = 0",
                lu.info
            ));
        }
        let rcond = lu.rcond(anorm, false);
        (tol > 0.0 && rcond < tol).then(|| {
            format!(
                "system is computationally singular: reciprocal condition number = {}",
                format_g(rcond)
            )
        })
    };
    let mut lu = lu_fast(a);
    let mut problem = singular(&lu);
    if problem.is_some() && n > UNBLOCKED_MAX {
        // What R says of a (nearly) singular system hangs on rounding, so
        // ask the reference factorisation, which rounds as R does.
        lu = lu_reference(a);
        problem = singular(&lu);
    }
    if let Some(message) = problem {
        return Err(KernelError::new(message));
    }
    if b.is_none() && n > UNBLOCKED_MAX {
        return Ok(lu.inverse());
    }
    let mut x = match b {
        Some(b) => b.clone(),
        None => DMatrix::identity(n, n),
    };
    if n <= UNBLOCKED_MAX {
        for j in 0..x.ncols() {
            let mut col: Vec<f64> = x.column(j).iter().copied().collect();
            lu.solve_in_place(&mut col);
            x.column_mut(j).copy_from_slice(&col);
        }
    } else {
        // The factors are LAPACK's; the triangular solves (results to
        // rounding, not bits) are faer's, many times faster than loops.
        for (i, &p) in lu.ipiv.iter().enumerate() {
            if p != i {
                x.swap_rows(i, p);
            }
        }
        let k = x.ncols();
        let factors = faer::MatRef::from_column_major_slice(&lu.a, n, n);
        let mut rhs = faer::MatMut::from_column_major_slice_mut(x.as_mut_slice(), n, k);
        solve_unit_lower_triangular_in_place(factors, rhs.as_mut(), crate::kernels::width::par());
        solve_upper_triangular_in_place(factors, rhs, crate::kernels::width::par());
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

    #[test]
    fn interchanges_replay_the_permutation() {
        for perm in [
            vec![0, 1, 2, 3],
            vec![3, 2, 1, 0],
            vec![2, 0, 3, 1],
            vec![1, 3, 0, 2, 4],
        ] {
            let ipiv = interchanges(&perm);
            let mut rows: Vec<usize> = (0..perm.len()).collect();
            for (i, &p) in ipiv.iter().enumerate() {
                assert!(p >= i, "LAPACK swaps only with rows below");
                rows.swap(i, p);
            }
            assert_eq!(rows, perm);
        }
    }

    #[test]
    fn blocked_inverse_and_solve_agree_with_the_identity() {
        let n = 150;
        let mut s = 7u64;
        let a = DMatrix::from_fn(n, n, |_, _| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        });
        let inv = solve(&a, None, f64::EPSILON).unwrap();
        let err = (&a * &inv - DMatrix::identity(n, n)).abs().max();
        assert!(err < 1e-10, "{err}");
        let b = DMatrix::from_fn(n, 2, |i, j| (i + j) as f64);
        let x = solve(&a, Some(&b), f64::EPSILON).unwrap();
        assert!((&a * &x - &b).abs().max() < 1e-9);
    }
}
