//! The recursion's leaves: a bidiagonal block of at most `LEAF` rows
//! (plus one column when `sqre`), solved by faer's dense SVD, which on so
//! small a block costs microseconds (LAPACK uses `dlasdq` here).

use faer::{Mat, MatMut};

use super::secular::NoConvergence;

/// Largest leaf, LAPACK's `smlsiz`.
pub(super) const LEAF: usize = 25;

/// Solve the `n × (n + sqre)` upper bidiagonal block (`d[..n]` diagonal,
/// `e[..n - 1 + sqre]` superdiagonal): values in `d` descending, vectors
/// into the `n × n` block `u` and the `m × m` block `v`, `idxq` the
/// ascending order.
pub(super) fn solve(
    d: &mut [f64],
    e: &[f64],
    sqre: usize,
    u: Option<MatMut<'_, f64>>,
    mut v: MatMut<'_, f64>,
    idxq: &mut [usize],
) -> Result<(), NoConvergence> {
    let n = d.len();
    let m = n + sqre;
    let mut b = Mat::<f64>::zeros(n, m);
    for i in 0..n {
        b[(i, i)] = d[i];
        if i + 1 < m {
            b[(i, i + 1)] = e[i];
        }
    }
    let svd = b.svd().map_err(|_| NoConvergence)?;
    let s = svd.S().column_vector();
    for i in 0..n {
        d[i] = s[i];
        idxq[i] = n - 1 - i;
    }
    if let Some(mut u) = u {
        u.copy_from(svd.U());
    }
    v.copy_from(svd.V());
    Ok(())
}
