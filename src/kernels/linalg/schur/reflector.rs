//! The Householder reflectors of the bulge chase and the block swaps act on
//! two or three entries; faer's general `make_householder_in_place` spends
//! more on its vectorised norm than on the arithmetic there.

use faer::linalg::householder::HouseholderInfo;
use faer::ColMut;

/// faer's `make_householder_in_place`, same results and conventions, for
/// a short tail: `head` becomes beta, `tail` the reflector's essential
/// part, and `tau` (faer's, the reciprocal of LAPACK's) is returned.
pub(super) fn make_householder_in_place(
    head: &mut f64,
    mut tail: ColMut<'_, f64>,
) -> HouseholderInfo<f64> {
    let tail_norm = norm2((0..tail.nrows()).map(|i| tail[i]));
    let mut head_norm = head.abs();
    if head_norm < f64::MIN_POSITIVE {
        *head = 0.0;
        head_norm = 0.0;
    }
    if tail_norm < f64::MIN_POSITIVE {
        return HouseholderInfo {
            tau: f64::INFINITY,
            head_with_beta_inv: f64::INFINITY,
            norm: head_norm,
        };
    }
    let norm = norm2([head_norm, tail_norm].into_iter());
    let sign = if head_norm != 0.0 {
        *head / head_norm
    } else {
        1.0
    };
    let signed_norm = sign * norm;
    let head_with_beta_inv = (*head + signed_norm).recip();
    for i in 0..tail.nrows() {
        tail[i] *= head_with_beta_inv;
    }
    *head = -signed_norm;
    let tau = 0.5 * (1.0 + (tail_norm * head_with_beta_inv.abs()).powi(2));
    HouseholderInfo {
        tau,
        head_with_beta_inv,
        norm,
    }
}

/// The Euclidean norm of a few numbers: squares summed directly when that
/// can neither overflow nor underflow, `hypot` (slow, but scaled) otherwise.
fn norm2(x: impl Iterator<Item = f64> + Clone) -> f64 {
    let big = x.clone().fold(0.0f64, |m, v| m.max(v.abs()));
    if (1e-150..1e150).contains(&big) {
        x.map(|v| v * v).sum::<f64>().sqrt()
    } else {
        x.fold(0.0f64, |acc, v| acc.hypot(v))
    }
}
