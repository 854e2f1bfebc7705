//! Deflation of a rank-one merge (LAPACK `dlaed2`): components of `z` that
//! are negligible, and pairs of nearly equal diagonal entries (after a Givens
//! rotation that zeroes one of their `z`s), are taken out of the secular
//! equation; their eigenpairs are already known.

use faer::MatMut;

/// Where a column's nonzeros are: the top block only, both (mixed by a
/// deflating rotation), the bottom block only. Deflated columns are dense.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    Top,
    Both,
    Bottom,
}

pub(super) struct Deflation {
    /// Non-deflated columns in increasing order of `d`, and the part of each.
    pub kept: Vec<(usize, Part)>,
    /// Deflated columns in increasing order of `d`.
    pub deflated: Vec<usize>,
}

/// `order` lists the `n` columns by increasing `d`; columns `< m` belong to
/// the top block. `d`, `z` and the columns of `q` may be rotated in place.
pub(super) fn deflate(
    d: &mut [f64],
    z: &mut [f64],
    rho: f64,
    m: usize,
    order: &[usize],
    mut q: MatMut<'_, f64>,
) -> Deflation {
    let n = d.len();
    let part = |i: usize| if i < m { Part::Top } else { Part::Bottom };
    let dmax = d.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let zmax = z.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    // LAPACK's eps (dlamch("E")) is half the gap from 1 to the next double.
    let tol = 8.0 * (f64::EPSILON / 2.0) * dmax.max(zmax);

    let mut kept: Vec<(usize, Part)> = Vec::with_capacity(n);
    let mut deflated: Vec<usize> = Vec::with_capacity(n);
    if rho * zmax <= tol {
        deflated.extend_from_slice(order);
        return Deflation { kept, deflated };
    }
    // The last kept candidate, still open to being deflated against the next.
    let mut prev: Option<(usize, Part)> = None;
    for &nj in order {
        if rho * z[nj].abs() <= tol {
            deflated.push(nj);
            continue;
        }
        let Some((pj, ppart)) = prev else {
            prev = Some((nj, part(nj)));
            continue;
        };
        let (s, c) = (z[pj], z[nj]);
        let tau = c.hypot(s);
        let t = d[nj] - d[pj];
        let (c, s) = (c / tau, -s / tau);
        if (t * c * s).abs() <= tol {
            // Rotate so that z[pj] = 0: its eigenpair is (d[pj], column pj).
            z[nj] = tau;
            z[pj] = 0.0;
            for r in 0..n {
                let (x, y) = (q[(r, pj)], q[(r, nj)]);
                q[(r, pj)] = c * x + s * y;
                q[(r, nj)] = c * y - s * x;
            }
            let (c2, s2) = (c * c, s * s);
            let t = d[pj] * c2 + d[nj] * s2;
            d[nj] = d[pj] * s2 + d[nj] * c2;
            d[pj] = t;
            deflated.push(pj);
            let npart = if ppart == part(nj) { ppart } else { Part::Both };
            prev = Some((nj, npart));
        } else {
            kept.push((pj, ppart));
            prev = Some((nj, part(nj)));
        }
    }
    if let Some(p) = prev {
        kept.push(p);
    }
    // Rotations move deflated values slightly; restore their order.
    deflated.sort_by(|&a, &b| d[a].total_cmp(&d[b]));
    Deflation { kept, deflated }
}
