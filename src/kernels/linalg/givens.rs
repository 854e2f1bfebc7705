//! Plane rotations as LAPACK makes and applies them: `dlartg` (3.10 and
//! later, Anderson's safe-scaling version, which R 4.2 links) and `dlasr`
//! with variable pivots.

use faer::MatMut;

/// `dlartg`: the rotation (c, s) with `c >= 0` and [c s; -s c] (f, g) =
/// (r, 0), `r` of `f`'s sign.
pub(super) fn dlartg(f: f64, g: f64) -> (f64, f64, f64) {
    let safmin = f64::MIN_POSITIVE;
    let safmax = 1.0 / safmin;
    let rtmin = safmin.sqrt();
    let rtmax = (safmax / 2.0).sqrt();
    let (f1, g1) = (f.abs(), g.abs());
    if g == 0.0 {
        (1.0, 0.0, f)
    } else if f == 0.0 {
        (0.0, 1.0f64.copysign(g), g1)
    } else if f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax {
        let d = (f * f + g * g).sqrt();
        let r = d.copysign(f);
        (f1 / d, g / r, r)
    } else {
        let u = safmax.min(safmin.max(f1).max(g1));
        let (fs, gs) = (f / u, g / u);
        let d = (fs * fs + gs * gs).sqrt();
        let r = d.copysign(f);
        (fs.abs() / d, gs / r, r * u)
    }
}

/// Which way a sequence of rotations runs through the planes.
#[derive(Clone, Copy)]
pub(super) enum Direct {
    /// Plane (1, 2) first.
    Forward,
    /// The last plane first.
    Backward,
}

/// `dlasr('R', 'V', direct, ...)`: `a := a P^T` for `P = P(z-1) ... P(1)`
/// (forward), rotation `j` acting on columns `j` and `j + 1` with
/// (`c[j]`, `s[j]`). `dlasr('L', 'V', ...)` on `VT` is this on `V`.
pub(super) fn rotate_columns(mut a: MatMut<'_, f64>, c: &[f64], s: &[f64], direct: Direct) {
    let planes = a.ncols().saturating_sub(1);
    let mut one = |j: usize| {
        let (ct, st) = (c[j], s[j]);
        if ct != 1.0 || st != 0.0 {
            for i in 0..a.nrows() {
                let temp = a[(i, j + 1)];
                a[(i, j + 1)] = ct * temp - st * a[(i, j)];
                a[(i, j)] = st * temp + ct * a[(i, j)];
            }
        }
    };
    match direct {
        Direct::Forward => (0..planes).for_each(&mut one),
        Direct::Backward => (0..planes).rev().for_each(&mut one),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dlartg_keeps_the_sign_of_f() {
        let (c, s, r) = dlartg(-3.0, 4.0);
        assert!((c - 0.6).abs() < 1e-15 && (s + 0.8).abs() < 1e-15 && r == -5.0);
        assert!((c * -3.0 + s * 4.0 - r).abs() < 1e-15);
        assert_eq!(dlartg(2.0, 0.0), (1.0, 0.0, 2.0));
        assert_eq!(dlartg(0.0, -2.0), (0.0, -1.0, 2.0));
        // Beyond the safe range the scaled branch gives the same rotation.
        let (c, s, r) = dlartg(-3e300, 4e300);
        assert!((c - 0.6).abs() < 1e-15 && (s + 0.8).abs() < 1e-15);
        assert!((r / -5e300 - 1.0).abs() < 1e-15);
    }

    #[test]
    fn rotations_run_in_the_direction_asked() {
        let (c, s) = ([0.0, 0.0], [1.0, 1.0]);
        let mut a = faer::Mat::<f64>::from_fn(1, 3, |_, j| j as f64 + 1.0);
        // Each rotation by 90 degrees: (x, y) -> (y, -x) on its plane.
        rotate_columns(a.as_mut(), &c, &s, Direct::Forward);
        assert_eq!([a[(0, 0)], a[(0, 1)], a[(0, 2)]], [2.0, 3.0, 1.0]);
        let mut b = faer::Mat::<f64>::from_fn(1, 3, |_, j| j as f64 + 1.0);
        rotate_columns(b.as_mut(), &c, &s, Direct::Backward);
        assert_eq!([b[(0, 0)], b[(0, 1)], b[(0, 2)]], [3.0, -1.0, -2.0]);
    }
}
