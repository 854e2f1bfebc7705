//! Roots of the secular equation `1/rho + sum_j z_j^2 / (d_j - lambda) = 0`
//! (LAPACK `dlaed4`): every step fits a rational model with two poles — the
//! fixed-weight scheme of Gragg, switching to Li's "middle way" when a step
//! gains too little — and is kept inside a shrinking bracket, so it cannot
//! leave the root's interval whatever rounding does. `dlaed4`'s three-pole
//! step (`dlaed6`, for roots far from both neighbouring poles) is not used:
//! at n = 1000 the roots take about three steps each without it.
//!
//! The root is carried as `tau`, its offset from the nearer pole `d[org]`,
//! and `delta[j] = (d[j] - d[org]) - tau` is kept alongside: these
//! differences, not `d[j] - lambda` formed afterwards, are what the Löwner
//! formula needs to give orthogonal eigenvectors.

const MAX_ITER: usize = 30;

/// Value of the secular function at the current `delta`, with its
/// derivative and the bound on its rounding error (`dlaed4`'s `w`, `dw`,
/// `erretm`).
struct Eval {
    w: f64,
    dw: f64,
    /// Derivative of the terms below the origin pole (with it when `swtch`
    /// asks for it) and above it.
    dpsi: f64,
    dphi: f64,
    err: f64,
}

impl Eval {
    /// Whether `tau` is a root to within the rounding error; if not, `tau`
    /// narrows the bracket `[lo, hi]` on the side the sign says.
    fn converged_or_narrow(&self, tau: f64, lo: &mut f64, hi: &mut f64) -> bool {
        if self.w.abs() <= f64::EPSILON / 2.0 * self.err {
            return true;
        }
        if self.w <= 0.0 {
            *lo = lo.max(tau);
        } else {
            *hi = hi.min(tau);
        }
        false
    }
}

/// Shifts `delta` by `-eta` and evaluates there. `psi` sums the poles
/// below `org`, `phi` those above, and the origin pole's own term is added
/// last, as `dlaed4` does. `dlaed4`'s error term adds up the running sums of
/// `psi` and `phi`, which is each term weighted by its distance from `org`;
/// written so, with four independent lanes, the loops vectorise.
#[inline(always)]
fn evaluate(z: &[f64], delta: &mut [f64], org: usize, rhoinv: f64, tau: f64, eta: f64) -> Eval {
    let (z_lo, z_hi) = z.split_at(org);
    let (d_lo, d_hi) = delta.split_at_mut(org);
    let lo = weighted_sums(z_lo, d_lo, eta, org as f64, -1.0);
    let (z_org, z_hi) = z_hi.split_first().expect("org < k");
    let (d_org, d_hi) = d_hi.split_first_mut().expect("org < k");
    *d_org -= eta;
    let hi = weighted_sums(z_hi, d_hi, eta, 1.0, 1.0);
    let (psi, dpsi, err_lo) = lo;
    let (phi, dphi, err_hi) = hi;
    let t = z_org / *d_org;
    let dw = dpsi + dphi + t * t;
    let own = z_org * t;
    Eval {
        w: rhoinv + phi + psi + own,
        dw,
        dpsi,
        dphi,
        err: 8.0 * (phi - psi)
            + err_lo.abs()
            + err_hi
            + 2.0 * rhoinv
            + 3.0 * own.abs()
            + tau.abs() * dw,
    }
}

/// `delta[j] -= eta`, then `(sum z_j^2 / delta_j, sum (z_j / delta_j)^2,
/// sum weight_j z_j^2 / delta_j)` with weights `first + j * step`.
#[inline(always)]
fn weighted_sums(z: &[f64], delta: &mut [f64], eta: f64, first: f64, step: f64) -> (f64, f64, f64) {
    const L: usize = 4;
    let (mut s, mut ds, mut err) = ([0.0; L], [0.0; L], [0.0; L]);
    let mut wgt = [0.0; L];
    for (l, w) in wgt.iter_mut().enumerate() {
        *w = first + step * l as f64;
    }
    let zc = z.chunks_exact(L);
    let z_rest = zc.remainder();
    let mut dc = delta.chunks_exact_mut(L);
    for (zs, ds_) in zc.zip(&mut dc) {
        for l in 0..L {
            let dj = ds_[l] - eta;
            ds_[l] = dj;
            let t = zs[l] / dj;
            let term = zs[l] * t;
            s[l] += term;
            ds[l] += t * t;
            err[l] += term * wgt[l];
            wgt[l] += step * L as f64;
        }
    }
    for (l, (zj, dj)) in z_rest.iter().zip(dc.into_remainder()).enumerate() {
        *dj -= eta;
        let t = zj / *dj;
        let term = zj * t;
        s[l] += term;
        ds[l] += t * t;
        err[l] += term * wgt[l];
    }
    (s.iter().sum(), ds.iter().sum(), err.iter().sum())
}

/// Replaces a step that left the bracket (or is not a number) by
/// bisection, and a step of the wrong sign by Newton's.
#[inline(always)]
fn safeguard(eta: f64, w: f64, dw: f64, tau: f64, lo: f64, hi: f64) -> f64 {
    let mut eta = eta;
    if !eta.is_finite() || w * eta >= 0.0 {
        eta = -w / dw;
    }
    let t = tau + eta;
    // Strict: an endpoint may be a pole.
    if !(t > lo && t < hi) {
        eta = if w < 0.0 {
            (hi - tau) / 2.0
        } else {
            (lo - tau) / 2.0
        };
    }
    eta
}

/// The `i`-th smallest root for strictly increasing `d`, nonzero `z` and
/// `rho > 0`. Writes `delta[j] = d[j] - lambda` and returns `lambda`.
#[inline(always)]
pub(super) fn secular_root(d: &[f64], z: &[f64], rho: f64, i: usize, delta: &mut [f64]) -> f64 {
    let k = d.len();
    if k == 1 {
        delta[0] = -rho * z[0] * z[0];
        return d[0] + rho * z[0] * z[0];
    }
    if i + 1 == k {
        last_root(d, z, rho, delta)
    } else {
        inner_root(d, z, rho, i, delta)
    }
}

/// The largest root lies in `(d[k-1], d[k-1] + rho * |z|^2]`; the origin
/// is `d[k-1]` and the model's poles are the last two.
#[inline(always)]
fn last_root(d: &[f64], z: &[f64], rho: f64, delta: &mut [f64]) -> f64 {
    let k = d.len();
    let n1 = k - 1;
    let n2 = k - 2;
    let rhoinv = 1.0 / rho;
    let zz: f64 = z.iter().map(|v| v * v).sum();
    let mut hi = rho * zz;
    let mut lo = 0.0;
    let midpt = hi / 2.0;

    // Initial guess from the two-pole model at the midpoint of the bracket.
    for j in 0..k {
        delta[j] = (d[j] - d[n1]) - midpt;
    }
    let psi = weighted_sums(&z[..n2], &mut delta[..n2], 0.0, 0.0, 0.0).0;
    let c = rhoinv + psi;
    let w = c + z[n2] * z[n2] / delta[n2] + z[n1] * z[n1] / delta[n1];
    let del = d[n1] - d[n2];
    let quad = || {
        let a = -c * del + z[n2] * z[n2] + z[n1] * z[n1];
        let b = z[n1] * z[n1] * del;
        let disc = (a * a + 4.0 * b * c).abs().sqrt();
        if a < 0.0 {
            2.0 * b / (disc - a)
        } else {
            (a + disc) / (2.0 * c)
        }
    };
    let mut tau = if w <= 0.0 {
        lo = midpt;
        let t = z[n2] * z[n2] / (del + hi) + z[n1] * z[n1] / hi;
        if c <= t {
            hi
        } else {
            quad()
        }
    } else {
        hi = midpt;
        quad()
    };
    if !(tau > lo && tau < hi) {
        tau = (lo + hi) / 2.0;
    }
    for j in 0..k {
        delta[j] = (d[j] - d[n1]) - tau;
    }

    let mut ev = evaluate(z, delta, n1, rhoinv, tau, 0.0);
    for _ in 0..MAX_ITER {
        if ev.converged_or_narrow(tau, &mut lo, &mut hi) {
            break;
        }
        let (dpsi, dphi) = (ev.dpsi, ev.dw - ev.dpsi);
        let c = (ev.w - delta[n2] * dpsi - delta[n1] * dphi).abs();
        let a = (delta[n2] + delta[n1]) * ev.w - delta[n2] * delta[n1] * (dpsi + dphi);
        let b = delta[n2] * delta[n1] * ev.w;
        let disc = (a * a - 4.0 * b * c).abs().sqrt();
        let eta = if c == 0.0 {
            hi - tau
        } else if a >= 0.0 {
            (a + disc) / (2.0 * c)
        } else {
            2.0 * b / (a - disc)
        };
        let eta = safeguard(eta, ev.w, ev.dw, tau, lo, hi);
        if eta == 0.0 {
            break;
        }
        tau += eta;
        ev = evaluate(z, delta, n1, rhoinv, tau, eta);
    }
    d[n1] + tau
}

/// A root between `d[i]` and `d[i+1]`; the origin is whichever of the two
/// is nearer, decided by the sign of the function at the midpoint.
#[inline(always)]
fn inner_root(d: &[f64], z: &[f64], rho: f64, i: usize, delta: &mut [f64]) -> f64 {
    let k = d.len();
    let ip1 = i + 1;
    let rhoinv = 1.0 / rho;
    let del = d[ip1] - d[i];
    let midpt = del / 2.0;
    for j in 0..k {
        delta[j] = (d[j] - d[i]) - midpt;
    }
    let psi = weighted_sums(&z[..i], &mut delta[..i], 0.0, 0.0, 0.0).0;
    let phi = weighted_sums(&z[i + 2..], &mut delta[i + 2..], 0.0, 0.0, 0.0).0;
    let c = rhoinv + psi + phi;
    let w = c + z[i] * z[i] / delta[i] + z[ip1] * z[ip1] / delta[ip1];
    let (zi2, zp2) = (z[i] * z[i], z[ip1] * z[ip1]);
    let orgati = w > 0.0;
    let (mut tau, mut lo, mut hi) = if orgati {
        let a = c * del + zi2 + zp2;
        let b = zi2 * del;
        let disc = (a * a - 4.0 * b * c).abs().sqrt();
        let t = if a > 0.0 {
            2.0 * b / (a + disc)
        } else {
            (a - disc) / (2.0 * c)
        };
        (t, 0.0, midpt)
    } else {
        let a = c * del - zi2 - zp2;
        let b = zp2 * del;
        let disc = (a * a + 4.0 * b * c).abs().sqrt();
        let t = if a < 0.0 {
            2.0 * b / (a - disc)
        } else {
            -(a + disc) / (2.0 * c)
        };
        (t, -midpt, 0.0)
    };
    if !(tau > lo && tau < hi) {
        tau = (lo + hi) / 2.0;
    }
    let org = if orgati { i } else { ip1 };
    for j in 0..k {
        delta[j] = (d[j] - d[org]) - tau;
    }

    let mut ev = evaluate(z, delta, org, rhoinv, tau, 0.0);
    let mut swtch = false;
    for iter in 0..MAX_ITER {
        if ev.converged_or_narrow(tau, &mut lo, &mut hi) {
            break;
        }
        let w = ev.w;
        let (di, dp) = (delta[i], delta[ip1]);
        let (mut a, c) = if !swtch {
            let c = if orgati {
                w - dp * ev.dw - (d[i] - d[ip1]) * (z[i] / di).powi(2)
            } else {
                w - di * ev.dw - (d[ip1] - d[i]) * (z[ip1] / dp).powi(2)
            };
            ((di + dp) * w - di * dp * ev.dw, c)
        } else {
            // Middle way: the origin pole's weight joins its own side.
            let t = (z[org] / delta[org]).powi(2);
            let (dpsi, dphi) = if orgati {
                (ev.dpsi + t, ev.dphi)
            } else {
                (ev.dpsi, ev.dphi + t)
            };
            let c = w - di * dpsi - dp * dphi;
            let mut a = (di + dp) * w - di * dp * ev.dw;
            if c == 0.0 && a == 0.0 {
                a = di * di * dpsi + dp * dp * dphi;
            }
            (a, c)
        };
        let b = di * dp * w;
        let eta = if c == 0.0 {
            if a == 0.0 {
                a = if orgati {
                    zi2 + dp * dp * ev.dw
                } else {
                    zp2 + di * di * ev.dw
                };
            }
            b / a
        } else if a <= 0.0 {
            (a - (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        } else {
            2.0 * b / (a + (a * a - 4.0 * b * c).abs().sqrt())
        };
        let eta = safeguard(eta, w, ev.dw, tau, lo, hi);
        if eta == 0.0 {
            break;
        }
        tau += eta;
        let prew = w;
        ev = evaluate(z, delta, org, rhoinv, tau, eta);
        if iter == 0 {
            swtch = if orgati {
                -ev.w > prew.abs() / 10.0
            } else {
                ev.w > prew.abs() / 10.0
            };
        } else if ev.w * prew > 0.0 && ev.w.abs() > prew.abs() / 10.0 {
            swtch = !swtch;
        }
    }
    d[org] + tau
}
