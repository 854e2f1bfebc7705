//! The secular equation of a merge: the `i`-th root `sigma` of
//! `1/rho + sum_j z_j^2 / ((d_j - sigma)(d_j + sigma)) = 0`, with
//! `0 = d_0 < d_1 < ... < d_{n-1}` and `|z| = 1`, port of LAPACK `dlasd4`
//! (Ren-Cang Li's middle way, switching to a three-pole interpolation by
//! `dlaed6`, in `three_poles.rs`, when that converges faster), `dlasd5` for
//! two poles.
//!
//! The root is returned together with `delta_j = d_j - sigma` and
//! `work_j = d_j + sigma`, both computed from the nearest pole so that
//! the singular vectors built from them are orthogonal to working precision.

use super::three_poles::three_poles;

/// The root finder did not converge (LAPACK's `info > 0`).
#[derive(Debug)]
pub(crate) struct NoConvergence;

const MAXIT: usize = 64;

/// `sigma`, writing `delta` and `work` (each of length `n`).
pub(super) fn root(
    i: usize,
    d: &[f64],
    z: &[f64],
    delta: &mut [f64],
    work: &mut [f64],
    rho: f64,
) -> Result<f64, NoConvergence> {
    let n = d.len();
    if n == 1 {
        delta[0] = 1.0;
        work[0] = 1.0;
        return Ok((d[0] * d[0] + rho * z[0] * z[0]).sqrt());
    }
    if n == 2 {
        return Ok(two_poles(i, d, z, delta, work, rho));
    }
    if i == n - 1 {
        last_root(d, z, delta, work, rho)
    } else {
        inner_root(i, d, z, delta, work, rho)
    }
}

/// `psi`, `dpsi` and the running error sum over poles `0..end`.
fn psi_terms(z: &[f64], delta: &[f64], work: &[f64], end: usize) -> (f64, f64, f64) {
    let (mut psi, mut dpsi, mut err) = (0.0, 0.0, 0.0);
    for j in 0..end {
        let t = z[j] / (work[j] * delta[j]);
        psi += z[j] * t;
        dpsi += t * t;
        err += psi;
    }
    (psi, dpsi, err.abs())
}

/// `phi`, `dphi` and the running error sum over poles `start..n`, summed
/// from the last pole down as LAPACK does.
fn phi_terms(z: &[f64], delta: &[f64], work: &[f64], start: usize) -> (f64, f64, f64) {
    let (mut phi, mut dphi, mut err) = (0.0, 0.0, 0.0);
    for j in (start..z.len()).rev() {
        let t = z[j] / (work[j] * delta[j]);
        phi += z[j] * t;
        dphi += t * t;
        err += phi;
    }
    (phi, dphi, err)
}

/// Move the root by `eta` (already in `sigma` units).
fn shift(delta: &mut [f64], work: &mut [f64], eta: f64) {
    for (dl, w) in delta.iter_mut().zip(work.iter_mut()) {
        *dl -= eta;
        *w += eta;
    }
}

/// The largest root, outside all poles (`dlasd4`'s `I = N` branch).
fn last_root(
    d: &[f64],
    z: &[f64],
    delta: &mut [f64],
    work: &mut [f64],
    rho: f64,
) -> Result<f64, NoConvergence> {
    let n = d.len();
    let ii = n - 2;
    let eps = f64::EPSILON;
    let rhoinv = 1.0 / rho;
    let dn = d[n - 1];
    let half = rho / 2.0;
    let t1 = half / (dn + (dn * dn + half).sqrt());
    for j in 0..n {
        work[j] = d[j] + dn + t1;
        delta[j] = (d[j] - dn) - t1;
    }
    let mut psi = 0.0;
    for j in 0..n - 2 {
        psi += z[j] * z[j] / (delta[j] * work[j]);
    }
    let c = rhoinv + psi;
    let w = c
        + z[ii] * z[ii] / (delta[ii] * work[ii])
        + z[n - 1] * z[n - 1] / (delta[n - 1] * work[n - 1]);
    let delsq = (dn - d[n - 2]) * (dn + d[n - 2]);
    let quad = |c: f64| {
        let a = -c * delsq + z[n - 2] * z[n - 2] + z[n - 1] * z[n - 1];
        let b = z[n - 1] * z[n - 1] * delsq;
        if a < 0.0 {
            2.0 * b / ((a * a + 4.0 * b * c).sqrt() - a)
        } else {
            (a + (a * a + 4.0 * b * c).sqrt()) / (2.0 * c)
        }
    };
    let mut tau = if w <= 0.0 {
        let t1 = (dn * dn + rho).sqrt();
        let temp = z[n - 2] * z[n - 2] / ((d[n - 2] + t1) * (dn - d[n - 2] + rho / (dn + t1)))
            + z[n - 1] * z[n - 1] / rho;
        if c <= temp {
            rho
        } else {
            quad(c)
        }
    } else {
        quad(c)
    };
    let mut eta = tau / (dn + (dn * dn + tau).sqrt());
    let mut sigma = dn + eta;
    for j in 0..n {
        delta[j] = (d[j] - dn) - eta;
        work[j] = d[j] + dn + eta;
    }
    let evaluate = |delta: &[f64], work: &[f64], tau: f64| {
        let (psi, dpsi, err) = psi_terms(z, delta, work, ii + 1);
        let t = z[n - 1] / (delta[n - 1] * work[n - 1]);
        let phi = z[n - 1] * t;
        let dphi = t * t;
        let erretm = 8.0 * (-phi - psi) + err - phi + rhoinv + tau.abs() * (dpsi + dphi);
        (rhoinv + phi + psi, dpsi, dphi, erretm)
    };
    let (mut w, mut dpsi, mut dphi, mut erretm) = evaluate(delta, work, tau);
    for iter in 1..=MAXIT {
        if w.abs() <= eps * erretm {
            return Ok(sigma);
        }
        let dtnsq1 = work[n - 2] * delta[n - 2];
        let dtnsq = work[n - 1] * delta[n - 1];
        let mut c = w - dtnsq1 * dpsi - dtnsq * dphi;
        let a = (dtnsq + dtnsq1) * w - dtnsq * dtnsq1 * (dpsi + dphi);
        let b = dtnsq * dtnsq1 * w;
        if iter == 1 && c < 0.0 {
            c = c.abs();
        }
        eta = if iter == 1 && c == 0.0 {
            rho - sigma * sigma
        } else if a >= 0.0 {
            (a + (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        } else {
            2.0 * b / (a - (a * a - 4.0 * b * c).abs().sqrt())
        };
        // Roundoff can point eta the wrong way; a Newton step cannot.
        if w * eta > 0.0 {
            eta = -w / (dpsi + dphi);
        }
        let temp = eta - dtnsq;
        if iter == 1 {
            if temp > rho {
                eta = rho + dtnsq;
            }
        } else if temp <= 0.0 {
            eta /= 2.0;
        }
        tau += eta;
        eta /= sigma + (eta + sigma * sigma).sqrt();
        shift(delta, work, eta);
        sigma += eta;
        (w, dpsi, dphi, erretm) = evaluate(delta, work, tau);
    }
    Err(NoConvergence)
}

/// A root strictly between poles `i` and `i + 1`.
fn inner_root(
    i: usize,
    d: &[f64],
    z: &[f64],
    delta: &mut [f64],
    work: &mut [f64],
    rho: f64,
) -> Result<f64, NoConvergence> {
    let n = d.len();
    let eps = f64::EPSILON;
    let rhoinv = 1.0 / rho;
    let ip1 = i + 1;
    let delsq = (d[ip1] - d[i]) * (d[ip1] + d[i]);
    let delsq2 = delsq / 2.0;
    let t = delsq2 / (d[i] + (d[i] * d[i] + delsq2).sqrt());
    for j in 0..n {
        work[j] = d[j] + d[i] + t;
        delta[j] = (d[j] - d[i]) - t;
    }
    let mut psi = 0.0;
    for j in 0..i {
        psi += z[j] * z[j] / (work[j] * delta[j]);
    }
    let mut phi = 0.0;
    for j in (i + 2..n).rev() {
        phi += z[j] * z[j] / (work[j] * delta[j]);
    }
    let c = rhoinv + psi + phi;
    let w = c + z[i] * z[i] / (work[i] * delta[i]) + z[ip1] * z[ip1] / (work[ip1] * delta[ip1]);
    // The root lies in the half interval nearer the origin pole, from which
    // all differences are then measured.
    let orgati = w > 0.0;
    let (mut sg2lb, mut sg2ub, mut tau, eta);
    if orgati {
        sg2lb = 0.0;
        sg2ub = delsq2;
        let a = c * delsq + z[i] * z[i] + z[ip1] * z[ip1];
        let b = z[i] * z[i] * delsq;
        tau = if a > 0.0 {
            2.0 * b / (a + (a * a - 4.0 * b * c).abs().sqrt())
        } else {
            (a - (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        };
        eta = tau / (d[i] + (d[i] * d[i] + tau).sqrt());
    } else {
        sg2lb = -delsq2;
        sg2ub = 0.0;
        let a = c * delsq - z[i] * z[i] - z[ip1] * z[ip1];
        let b = z[ip1] * z[ip1] * delsq;
        tau = if a < 0.0 {
            2.0 * b / (a - (a * a + 4.0 * b * c).abs().sqrt())
        } else {
            -(a + (a * a + 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        };
        eta = tau / (d[ip1] + (d[ip1] * d[ip1] + tau).abs().sqrt());
    }
    let ii = if orgati { i } else { ip1 };
    let mut sigma = d[ii] + eta;
    for j in 0..n {
        work[j] = d[j] + d[ii] + eta;
        delta[j] = (d[j] - d[ii]) - eta;
    }
    let evaluate = |delta: &[f64], work: &[f64], tau: f64| {
        let (psi, dpsi, e1) = psi_terms(z, delta, work, ii);
        let (phi, dphi, e2) = phi_terms(z, delta, work, ii + 1);
        let t = z[ii] / (work[ii] * delta[ii]);
        let dw = dpsi + dphi + t * t;
        let t = z[ii] * t;
        let w = rhoinv + phi + psi + t;
        let erretm = 8.0 * (phi - psi) + e1 + e2 + 2.0 * rhoinv + 3.0 * t.abs() + tau.abs() * dw;
        Eval {
            psi,
            dpsi,
            phi,
            dphi,
            dw,
            w,
            erretm,
        }
    };
    let mut ev = evaluate(delta, work, tau);
    // Three poles help only when the root is pulled towards the far pole
    // and there is a pole beyond it.
    let swtch3 = ii != 0
        && ii != n - 1
        && (if orgati {
            ev.w - (ev.w - ev.psi - ev.phi - rhoinv) < 0.0
        } else {
            ev.w - (ev.w - ev.psi - ev.phi - rhoinv) > 0.0
        });
    let mut swtch = false;
    let mut prew = ev.w;
    for iter in 1..=MAXIT {
        if ev.w.abs() <= eps * ev.erretm {
            return Ok(sigma);
        }
        if ev.w <= 0.0 {
            sg2lb = sg2lb.max(tau);
        } else {
            sg2ub = sg2ub.min(tau);
        }
        if iter == 2 {
            swtch = if orgati {
                -ev.w > prew.abs() / 10.0
            } else {
                ev.w > prew.abs() / 10.0
            };
        } else if iter > 2 && ev.w * prew > 0.0 && ev.w.abs() > prew.abs() / 10.0 {
            swtch = !swtch;
        }
        let mut eta = if !swtch3 {
            let dtipsq = work[ip1] * delta[ip1];
            let dtisq = work[i] * delta[i];
            let (mut dpsi, mut dphi) = (ev.dpsi, ev.dphi);
            let c = if !swtch {
                if orgati {
                    ev.w - dtipsq * ev.dw + delsq * (z[i] / dtisq).powi(2)
                } else {
                    ev.w - dtisq * ev.dw - delsq * (z[ip1] / dtipsq).powi(2)
                }
            } else {
                let t = z[ii] / (work[ii] * delta[ii]);
                if orgati {
                    dpsi += t * t;
                } else {
                    dphi += t * t;
                }
                ev.w - dtisq * dpsi - dtipsq * dphi
            };
            let mut a = (dtipsq + dtisq) * ev.w - dtipsq * dtisq * ev.dw;
            let b = dtipsq * dtisq * ev.w;
            if c == 0.0 {
                if a == 0.0 {
                    a = if swtch {
                        dtisq * dtisq * dpsi + dtipsq * dtipsq * dphi
                    } else if orgati {
                        z[i] * z[i] + dtipsq * dtipsq * (dpsi + dphi)
                    } else {
                        z[ip1] * z[ip1] + dtisq * dtisq * (dpsi + dphi)
                    };
                }
                b / a
            } else if a <= 0.0 {
                (a - (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
            } else {
                2.0 * b / (a + (a * a - 4.0 * b * c).abs().sqrt())
            }
        } else {
            let iim1 = ii - 1;
            let iip1 = ii + 1;
            let dtiim = work[iim1] * delta[iim1];
            let dtiip = work[iip1] * delta[iip1];
            let temp = rhoinv + ev.psi + ev.phi;
            let (c, zz0, zz2);
            if swtch {
                c = temp - dtiim * ev.dpsi - dtiip * ev.dphi;
                zz0 = dtiim * dtiim * ev.dpsi;
                zz2 = dtiip * dtiip * ev.dphi;
            } else if orgati {
                let t1 = (z[iim1] / dtiim).powi(2);
                c = temp
                    - dtiip * (ev.dpsi + ev.dphi)
                    - (d[iim1] - d[iip1]) * (d[iim1] + d[iip1]) * t1;
                zz0 = z[iim1] * z[iim1];
                zz2 = if ev.dpsi < t1 {
                    dtiip * dtiip * ev.dphi
                } else {
                    dtiip * dtiip * ((ev.dpsi - t1) + ev.dphi)
                };
            } else {
                let t1 = (z[iip1] / dtiip).powi(2);
                c = temp
                    - dtiim * (ev.dpsi + ev.dphi)
                    - (d[iip1] - d[iim1]) * (d[iim1] + d[iip1]) * t1;
                zz0 = if ev.dphi < t1 {
                    dtiim * dtiim * ev.dpsi
                } else {
                    dtiim * dtiim * (ev.dpsi + (ev.dphi - t1))
                };
                zz2 = z[iip1] * z[iip1];
            }
            let dd = [dtiim, delta[ii] * work[ii], dtiip];
            let zz = [zz0, z[ii] * z[ii], zz2];
            match three_poles(iter == 1, orgati, c, &dd, &zz, ev.w) {
                Some(eta) => eta,
                // LAPACK gives up here; the sign check below still yields a
                // safe Newton step, which keeps us going.
                None => -ev.w / ev.dw,
            }
        };
        if ev.w * eta >= 0.0 {
            eta = -ev.w / ev.dw;
        }
        let temp1 = if orgati {
            work[i] * delta[i]
        } else {
            work[ip1] * delta[ip1]
        };
        let temp = eta - temp1;
        if temp > sg2ub || temp < sg2lb {
            eta = if ev.w < 0.0 {
                (sg2ub - tau) / 2.0
            } else {
                (sg2lb - tau) / 2.0
            };
        }
        tau += eta;
        eta /= sigma + (sigma * sigma + eta).sqrt();
        prew = ev.w;
        sigma += eta;
        shift(delta, work, eta);
        ev = evaluate(delta, work, tau);
    }
    Err(NoConvergence)
}

struct Eval {
    psi: f64,
    dpsi: f64,
    phi: f64,
    dphi: f64,
    dw: f64,
    w: f64,
    erretm: f64,
}

/// LAPACK `dlasd5`: both roots of the 2×2 problem in closed form.
fn two_poles(i: usize, d: &[f64], z: &[f64], delta: &mut [f64], work: &mut [f64], rho: f64) -> f64 {
    let del = d[1] - d[0];
    let delsq = del * (d[1] + d[0]);
    let zsq = z[0] * z[0] + z[1] * z[1];
    let upper = |delta: &mut [f64], work: &mut [f64], tau: f64| {
        let tau = tau / (d[1] + (d[1] * d[1] + tau).abs().sqrt());
        delta[0] = -(del + tau);
        delta[1] = -tau;
        work[0] = d[0] + tau + d[1];
        work[1] = 2.0 * d[1] + tau;
        d[1] + tau
    };
    if i == 0 {
        let w = 1.0
            + 4.0 * rho * (z[1] * z[1] / (d[0] + 3.0 * d[1]) - z[0] * z[0] / (3.0 * d[0] + d[1]))
                / del;
        if w > 0.0 {
            let b = delsq + rho * zsq;
            let c = rho * z[0] * z[0] * delsq;
            let tau = 2.0 * c / (b + (b * b - 4.0 * c).abs().sqrt());
            let tau = tau / (d[0] + (d[0] * d[0] + tau).sqrt());
            delta[0] = -tau;
            delta[1] = del - tau;
            work[0] = 2.0 * d[0] + tau;
            work[1] = (d[0] + tau) + d[1];
            d[0] + tau
        } else {
            let b = -delsq + rho * zsq;
            let c = rho * z[1] * z[1] * delsq;
            let tau = if b > 0.0 {
                -2.0 * c / (b + (b * b + 4.0 * c).sqrt())
            } else {
                (b - (b * b + 4.0 * c).sqrt()) / 2.0
            };
            upper(delta, work, tau)
        }
    } else {
        let b = -delsq + rho * zsq;
        let c = rho * z[1] * z[1] * delsq;
        let tau = if b > 0.0 {
            (b + (b * b + 4.0 * c).sqrt()) / 2.0
        } else {
            2.0 * c / (-b + (b * b + 4.0 * c).sqrt())
        };
        upper(delta, work, tau)
    }
}
