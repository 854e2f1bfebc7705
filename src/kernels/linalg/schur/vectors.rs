//! Right eigenvectors of a real quasi-triangular Schur form T (the job of
//! LAPACK's `dtrevc3`), by back substitution against each eigenvalue.
//!
//! Adapted from faer 0.24.4 (`linalg/evd/mod.rs`, MIT licence), which does
//! not export it; sequential path only, specialised to `f64`.

use faer::MatRef;

use super::super::gemv::dot;

/// Writes into `x` (`n`-by-`n`, column-major, zeroed) the eigenvectors of
/// the upper quasi-triangular `t`: column k for a real eigenvalue, columns
/// (k, k + 1) for the real and imaginary parts of a complex pair, the one
/// with the positive imaginary part. `x` stays upper triangular, so `Z x`
/// is a triangular product giving the eigenvectors of the original matrix.
pub(in crate::kernels::linalg) fn schur_eigenvectors(t: MatRef<'_, f64>, x: &mut [f64]) {
    let n = t.nrows();
    // The substitutions run along T's rows: transposed, they are contiguous.
    let mut rows = vec![0.0; n * n];
    for (j, col) in rows.chunks_exact_mut(n).enumerate() {
        for (i, r) in col.iter_mut().enumerate() {
            *r = t[(j, i)];
        }
    }
    let tt = Rows { rows: &rows, n };
    // The norm only floors near-zero pivots, as faer does.
    let mut norm = 0.0;
    for j in 0..n {
        for i in 0..Ord::min(j + 2, n) {
            norm += t[(i, j)].abs();
        }
    }
    let floor = f64::EPSILON * norm;
    let mut k = n;
    while k > 0 {
        k -= 1;
        if k == 0 || t[(k, k - 1)] == 0.0 {
            let xk = &mut x[k * n..(k + 1) * n];
            xk[k] = 1.0;
            for (i, v) in xk[..k].iter_mut().enumerate() {
                *v = -t[(i, k)];
            }
            solve_real(&tt, k, t[(k, k)], &mut xk[..k], floor);
        } else {
            // The pair (p ± iq) from the 2-by-2 block at k - 1.
            let p = t[(k, k)];
            let q = t[(k, k - 1)].abs().sqrt() * t[(k - 1, k)].abs().sqrt();
            let (before, after) = x.split_at_mut(k * n);
            let (xr, xi) = (&mut before[(k - 1) * n..], &mut after[..n]);
            if t[(k - 1, k)].abs() >= t[(k, k - 1)].abs() {
                xr[k - 1] = 1.0;
                xi[k] = q / t[(k - 1, k)];
            } else {
                xr[k - 1] = -q / t[(k, k - 1)];
                xi[k] = 1.0;
            }
            let (r, s) = (xr[k - 1], xi[k]);
            for i in 0..k - 1 {
                xr[i] = -r * t[(i, k - 1)];
                xi[i] = -s * t[(i, k)];
            }
            solve_complex(
                &tt,
                k - 1,
                (p, q),
                (&mut xr[..k - 1], &mut xi[..k - 1]),
                floor,
            );
            k -= 1;
        }
    }
}

/// Tᵀ, so `row(i, a..b)` is T's row i over columns a..b, contiguous.
struct Rows<'a> {
    rows: &'a [f64],
    n: usize,
}

impl Rows<'_> {
    fn row(&self, i: usize, from: usize, to: usize) -> &[f64] {
        &self.rows[i * self.n + from..i * self.n + to]
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.rows[i * self.n + j]
    }
}

/// Solves (T - p) x = rhs in place on T's leading `m` rows and columns.
fn solve_real(t: &Rows<'_>, m: usize, p: f64, x: &mut [f64], floor: f64) {
    let mut i = m;
    while i > 0 {
        i -= 1;
        if i == 0 || t.at(i, i - 1) == 0.0 {
            x[i] -= dot(t.row(i, i + 1, m), &x[i + 1..m]);
            let mut z = t.at(i, i) - p;
            if z.abs() < floor {
                z = floor;
            }
            if x[i] != 0.0 {
                x[i] /= z;
            }
        } else {
            x[i - 1] -= dot(t.row(i - 1, i + 1, m), &x[i + 1..m]);
            x[i] -= dot(t.row(i, i + 1, m), &x[i + 1..m]);
            let a = t.at(i, i) - p;
            let b = t.at(i - 1, i);
            let c = t.at(i, i - 1);
            let (r0, r1) = (x[i - 1], x[i]);
            let inv_det = (a * a - b * c).recip();
            x[i - 1] = (a * r0 - b * r1) * inv_det;
            x[i] = (a * r1 - c * r0) * inv_det;
            i -= 1;
        }
    }
}

/// Solves (T - (p + iq)) x = rhs in place on T's leading `m` rows and
/// columns, x given as its real and imaginary parts.
fn solve_complex(
    t: &Rows<'_>,
    m: usize,
    (p, q): (f64, f64),
    (xr, xi): (&mut [f64], &mut [f64]),
    floor: f64,
) {
    // 1 / z as (re, im), with |z| floored like the real case.
    let inverse = |z_re: f64, z_im: f64| {
        let z = z_re.hypot(z_im);
        if z < floor {
            (1.0 / floor, 0.0)
        } else {
            ((z_re / z) / z, (-z_im / z) / z)
        }
    };
    let mut i = m;
    while i > 0 {
        i -= 1;
        if i == 0 || t.at(i, i - 1) == 0.0 {
            let row = t.row(i, i + 1, m);
            xr[i] -= dot(row, &xr[i + 1..m]);
            xi[i] -= dot(row, &xi[i + 1..m]);
            let (z_re, z_im) = inverse(t.at(i, i) - p, -q);
            let (x_re, x_im) = (xr[i], xi[i]);
            xr[i] = x_re * z_re - x_im * z_im;
            xi[i] = x_re * z_im + x_im * z_re;
        } else {
            for r in [i - 1, i] {
                let row = t.row(r, i + 1, m);
                xr[r] -= dot(row, &xr[i + 1..m]);
                xi[r] -= dot(row, &xi[i + 1..m]);
            }
            let (a_re, a_im) = (t.at(i, i) - p, -q);
            let b = t.at(i - 1, i);
            let c = t.at(i, i - 1);
            let (r0_re, r0_im) = (xr[i - 1], xi[i - 1]);
            let (r1_re, r1_im) = (xr[i], xi[i]);
            let (z_re, z_im) = inverse(a_re * a_re - a_im * a_im - b * c, 2.0 * (a_re * a_im));
            let x0_re = (a_re * r0_re - a_im * r0_im) - b * r1_re;
            let x0_im = (a_re * r0_im + a_im * r0_re) - b * r1_im;
            let x1_re = (a_re * r1_re - a_im * r1_im) - c * r0_re;
            let x1_im = (a_re * r1_im + a_im * r1_re) - c * r0_im;
            xr[i - 1] = x0_re * z_re - x0_im * z_im;
            xi[i - 1] = x0_re * z_im + x0_im * z_re;
            xr[i] = x1_re * z_re - x1_im * z_im;
            xi[i] = x1_re * z_im + x1_im * z_re;
            i -= 1;
        }
    }
}
