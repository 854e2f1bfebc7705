//! LAPACK's balancing of a general matrix before its eigen decomposition
//! (`dgebal` with job "B", as `dgeev` calls it) and the matching
//! back-transformation of the right eigenvectors (`dgebak`).
//!
//! R's `eigen(symmetric = FALSE)` gets it from `dgeev`. Without it, a matrix
//! whose rows and columns differ in scale by many orders (`D A D⁻¹`) loses
//! its small eigenvalues entirely: one with entries from 1e-12 to 1e12 came
//! out with values near ±100 where R gives 2.7 ± 1.7i.

use nalgebra::DMatrix;

/// How `balance` changed the matrix: rows and columns outside `lo..=hi`
/// were swapped to isolate eigenvalues (`swap[i]` is the row `i` was
/// exchanged with), those inside were scaled by `scale[i]`.
pub(super) struct Balancing {
    lo: usize,
    hi: usize,
    swap: Vec<usize>,
    scale: Vec<f64>,
}

/// Powers of two, so scaling is exact.
const RADIX: f64 = 2.0;
/// A scaling step is kept only if it shrinks a row plus column norm below
/// this fraction of what it was.
const FACTOR: f64 = 0.95;

/// Permutes `a` to isolate eigenvalues, then scales rows and columns of the
/// rest so each row and its column have similar norms: `a` becomes
/// `D⁻¹ Pᵀ a P D` with the same eigenvalues.
pub(super) fn balance(a: &mut DMatrix<f64>) -> Balancing {
    let n = a.nrows();
    let mut swap: Vec<usize> = (0..n).collect();
    let mut scale = vec![1.0; n];
    let (lo, hi) = match isolate(a, &mut swap) {
        Some((k, l)) => {
            scale_rest(a, k, l, &mut scale);
            (k, l)
        }
        None => (0, 0),
    };
    Balancing {
        lo,
        hi,
        swap,
        scale,
    }
}

/// Rows with no off-diagonal entry in the leading part go to the bottom,
/// columns with none in the trailing part to the left; `swap` records the
/// exchanges. The rows and columns `k..=l` left in the middle, or `None`
/// when every eigenvalue was isolated (or there are none).
fn isolate(a: &mut DMatrix<f64>, swap: &mut [usize]) -> Option<(usize, usize)> {
    let n = a.nrows();
    let exchange = |a: &mut DMatrix<f64>, i: usize, m: usize, k: usize, l: usize| {
        if i != m {
            a.view_mut((0, 0), (l + 1, n)).swap_columns(i, m);
            a.view_mut((0, k), (n, n - k)).swap_rows(i, m);
        }
    };
    // LAPACK up to 3.11 (R 4.2 links 3.10 or 3.11) restarts each search
    // after an exchange, which decides the order isolated eigenvalues come
    // out in.
    let (mut k, mut l) = (0usize, n.checked_sub(1)?);
    while let Some(i) = (0..=l)
        .rev()
        .find(|&i| (0..=l).all(|j| j == i || a[(i, j)] == 0.0))
    {
        swap[l] = i;
        exchange(a, i, l, k, l);
        if l == 0 {
            return None;
        }
        l -= 1;
    }
    while let Some(j) = (k..=l).find(|&j| (k..=l).all(|i| i == j || a[(i, j)] == 0.0)) {
        swap[k] = j;
        exchange(a, j, k, k, l);
        k += 1;
    }
    Some((k, l))
}

/// Scales rows and columns `k..=l` by powers of two until each row's norm
/// and its column's are within a factor of two where that pays
/// (`scale[i]` collects row `i`'s factor).
fn scale_rest(a: &mut DMatrix<f64>, k: usize, l: usize, scale: &mut [f64]) {
    let n = a.nrows();
    let safe_min = f64::MIN_POSITIVE / f64::EPSILON;
    let safe_max = 1.0 / safe_min;
    let (min2, max2) = (safe_min * RADIX, 1.0 / (safe_min * RADIX));
    let mut changed = true;
    while changed {
        changed = false;
        // Row norms read the matrix across its columns: one pass down the
        // columns gives them all, the same sums in the same order, and holds
        // until the first row or column of this sweep is scaled.
        let (row_sq, row_max) = row_stats(a, k, l);
        for i in k..=l {
            let mut c = norm((k..=l).map(|r| a[(r, i)]));
            let mut ca = abs_max((0..=l).map(|row| a[(row, i)]));
            let (mut r, mut ra) = if changed {
                (
                    norm((k..=l).map(|col| a[(i, col)])),
                    abs_max((k..n).map(|col| a[(i, col)])),
                )
            } else {
                (row_sq[i - k].sqrt(), row_max[i - k])
            };
            if c == 0.0 || r == 0.0 {
                continue;
            }
            // LAPACK stops on a NaN here; eigen only balances finite
            // matrices in range (`range_scale`), whose norms are finite.
            let mut g = r / RADIX;
            let mut f = 1.0f64;
            let s = c + r;
            while c < g && f.max(c).max(ca) < max2 && r.min(g).min(ra) > min2 {
                f *= RADIX;
                c *= RADIX;
                ca *= RADIX;
                r /= RADIX;
                g /= RADIX;
                ra /= RADIX;
            }
            g = c / RADIX;
            while g >= r && r.max(ra) < max2 && f.min(c).min(g).min(ca) > min2 {
                f /= RADIX;
                c /= RADIX;
                g /= RADIX;
                ca /= RADIX;
                r *= RADIX;
                ra *= RADIX;
            }
            if c + r >= FACTOR * s
                || (f < 1.0 && scale[i] < 1.0 && f * scale[i] <= safe_min)
                || (f > 1.0 && scale[i] > 1.0 && scale[i] >= safe_max / f)
            {
                continue;
            }
            scale[i] *= f;
            changed = true;
            for col in k..n {
                a[(i, col)] /= f;
            }
            for row in 0..=l {
                a[(row, i)] *= f;
            }
        }
    }
}

fn norm(v: impl Iterator<Item = f64>) -> f64 {
    v.map(|x| x * x).sum::<f64>().sqrt()
}

fn abs_max(v: impl Iterator<Item = f64>) -> f64 {
    v.fold(0.0, |m: f64, x| m.max(x.abs()))
}

/// For rows `k..=l`: the sum of squares over columns `k..=l` and the
/// largest magnitude over columns `k..`, accumulated in column order.
fn row_stats(a: &DMatrix<f64>, k: usize, l: usize) -> (Vec<f64>, Vec<f64>) {
    let mut sq = vec![0.0; l + 1 - k];
    let mut max = vec![0.0f64; l + 1 - k];
    for col in k..a.ncols() {
        let start = col * a.nrows();
        let column = &a.as_slice()[start + k..=start + l];
        if col <= l {
            for (s, x) in sq.iter_mut().zip(column) {
                *s += x * x;
            }
        }
        for (m, x) in max.iter_mut().zip(column) {
            *m = m.max(x.abs());
        }
    }
    (sq, max)
}

impl Balancing {
    /// Right eigenvectors of the balanced matrix into those of the original
    /// (`dgebak` "B", "R"): undo the scaling, then the exchanges in
    /// LAPACK's order.
    pub(super) fn back_transform(&self, v: &mut DMatrix<f64>) {
        let n = v.nrows();
        if self.lo != self.hi {
            for i in self.lo..=self.hi {
                if self.scale[i] != 1.0 {
                    v.row_mut(i).scale_mut(self.scale[i]);
                }
            }
        }
        for ii in 0..n {
            if (self.lo..=self.hi).contains(&ii) {
                continue;
            }
            let i = if ii < self.lo { self.lo - 1 - ii } else { ii };
            let k = self.swap[i];
            if k != i {
                v.swap_rows(i, k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `P D` built from the record, applied to `b`, gives back `a`'s
    /// similarity: `a P D = P D b`.
    fn check_similarity(a: &DMatrix<f64>) -> DMatrix<f64> {
        let mut b = a.clone();
        let bal = balance(&mut b);
        let mut pd = DMatrix::<f64>::identity(a.nrows(), a.nrows());
        bal.back_transform(&mut pd);
        let left = a * &pd;
        let right = &pd * &b;
        let scale = a.abs().max().max(1.0);
        assert!(
            (&left - &right).abs().max() <= 1e-12 * scale * pd.abs().max(),
            "a P D != P D b\n{a}{b}"
        );
        b
    }

    #[test]
    fn evens_out_rows_and_columns_of_a_badly_scaled_matrix() {
        let n = 6;
        let d: Vec<f64> = (0..n).map(|i| 10f64.powi(2 * i as i32 - 5)).collect();
        let g = DMatrix::from_fn(n, n, |i, j| ((i * 7 + j * 3) % 5) as f64 - 1.7);
        let a = DMatrix::from_fn(n, n, |i, j| d[i] / d[j] * g[(i, j)]);
        let b = check_similarity(&a);
        // Balanced, no entry is more than a few orders off the others.
        let big = b.abs().max();
        let small = b
            .iter()
            .filter(|x| **x != 0.0)
            .fold(f64::MAX, |m, x| m.min(x.abs()));
        assert!(big / small < 1e3, "{b}");
        assert!(a.abs().max() / a.abs().min() > 1e15);
    }

    #[test]
    fn isolates_the_eigenvalues_of_a_triangular_part() {
        // Row 2 has no off-diagonal entries and column 0 none either, so
        // both are permuted out: lo..=hi covers the middle only.
        let a = DMatrix::from_row_slice(
            4,
            4,
            &[
                5.0, 1.0, 2.0, 3.0, //
                0.0, 1.0, 0.0, 4.0, //
                0.0, 0.0, 7.0, 0.0, //
                0.0, 2.0, 6.0, 3.0,
            ],
        );
        let mut b = a.clone();
        let bal = balance(&mut b);
        assert_eq!((bal.lo, bal.hi), (1, 2));
        assert_eq!(bal.swap[3], 2);
        check_similarity(&a);
    }

    #[test]
    fn a_diagonal_matrix_is_all_isolated() {
        let a = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![3.0, 1.0, 2.0]));
        let mut b = a.clone();
        let bal = balance(&mut b);
        assert_eq!((bal.lo, bal.hi), (0, 0));
        assert_eq!(b, a);
    }
}
