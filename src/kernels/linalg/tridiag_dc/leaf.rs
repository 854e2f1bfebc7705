//! Small blocks at the bottom of the recursion: implicit QL with Wilkinson
//! shifts (EISPACK `tql2`, the algorithm of LAPACK `dsteqr`), accumulating
//! the rotations into a dense block, then sorted increasing.

use faer::MatMut;

const MAX_SWEEPS_PER_VALUE: usize = 60;

/// Eigenvalues of the tridiagonal `(d, e)` into `d` (increasing) and its
/// eigenvectors into `q` (`n x n`, every entry written). Returns false if QL
/// did not converge, leaving `d` and `q` unspecified.
pub(super) fn leaf_eigen(d: &mut [f64], e: &[f64], q: MatMut<'_, f64>, work: &mut [f64]) -> bool {
    // Compiled for the best instruction set found at run time: the column
    // rotations are the work.
    pulp::Arch::new().dispatch(
        #[inline(always)]
        || ql(d, e, q, work),
    )
}

#[inline(always)]
fn ql(d: &mut [f64], e: &[f64], mut q: MatMut<'_, f64>, work: &mut [f64]) -> bool {
    let n = d.len();
    let (z, rest) = work.split_at_mut(n * n);
    let off = &mut rest[..n];
    z.fill(0.0);
    for i in 0..n {
        z[i * n + i] = 1.0;
    }
    off[..n - 1].copy_from_slice(&e[..n - 1]);
    off[n - 1] = 0.0;

    for l in 0..n {
        let mut sweeps = 0;
        loop {
            let mut m = l;
            while m + 1 < n {
                let dd = d[m].abs() + d[m + 1].abs();
                if off[m].abs() <= f64::EPSILON * dd || off[m].abs() < f64::MIN_POSITIVE {
                    break;
                }
                m += 1;
            }
            if m == l {
                break;
            }
            sweeps += 1;
            if sweeps > MAX_SWEEPS_PER_VALUE {
                return false;
            }
            let mut g = (d[l + 1] - d[l]) / (2.0 * off[l]);
            let mut r = g.hypot(1.0);
            g = d[m] - d[l] + off[l] / (g + r.copysign(g));
            let (mut s, mut c, mut p) = (1.0, 1.0, 0.0);
            let mut underflow = false;
            for i in (l..m).rev() {
                let f = s * off[i];
                let b = c * off[i];
                r = f.hypot(g);
                off[i + 1] = r;
                if r == 0.0 {
                    // The rotation would divide by zero: the block has split.
                    d[i + 1] -= p;
                    off[m] = 0.0;
                    underflow = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2.0 * c * b;
                p = s * r;
                d[i + 1] = g + p;
                g = c * r - b;
                let (left, right) = z.split_at_mut((i + 1) * n);
                let zi = &mut left[i * n..];
                let zi1 = &mut right[..n];
                for (a, b) in zi.iter_mut().zip(zi1.iter_mut()) {
                    let f = *b;
                    *b = s * *a + c * f;
                    *a = c * *a - s * f;
                }
            }
            if underflow {
                continue;
            }
            d[l] -= p;
            off[l] = g;
            off[m] = 0.0;
        }
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| d[a].total_cmp(&d[b]));
    let sorted: Vec<f64> = order.iter().map(|&i| d[i]).collect();
    d.copy_from_slice(&sorted);
    for (j, &src) in order.iter().enumerate() {
        for i in 0..n {
            q[(i, j)] = z[src * n + i];
        }
    }
    true
}
