//! LAPACK's `dsterf`: all eigenvalues of a symmetric tridiagonal matrix by
//! the root-free (Pal–Walker–Kahan) QL/QR iteration. R's
//! `eigen(symmetric = TRUE, only.values = TRUE)` gets its values here, via
//! `dsyevr` after the tridiagonal reduction; no vectors means no rotations
//! to accumulate, so this is far cheaper than the divide and conquer.
//!
//! A line-by-line port of LAPACK 3.10, so the iteration (shifts, splits,
//! the QL-or-QR choice) and its rounding are LAPACK's.

/// Iterations allowed per eigenvalue on average (LAPACK's `MAXIT`).
const MAXIT: usize = 30;

/// Overwrites `d` (diagonal, length n) with the eigenvalues in increasing
/// order, using `e` (off-diagonal, length n - 1) as workspace. Fails with
/// LAPACK's `info` (how many off-diagonal entries did not converge to
/// zero) when the iteration limit is hit.
pub(super) fn sterf(d: &mut [f64], e: &mut [f64]) -> Result<(), usize> {
    let n = d.len();
    if n <= 1 {
        return Ok(());
    }
    debug_assert_eq!(e.len(), n - 1);
    let eps = f64::EPSILON / 2.0; // dlamch('E'): relative machine precision
    let eps2 = eps * eps;
    let safmin = f64::MIN_POSITIVE;
    let safmax = 1.0 / safmin;
    let ssfmax = safmax.sqrt() / 3.0;
    let ssfmin = safmin.sqrt() / eps2;
    let nmaxit = n * MAXIT;
    let mut jtot = 0;
    // 0-based: l1, m, l, lend index d; e[i] couples d[i] and d[i + 1].
    let mut l1 = 0;
    while l1 < n {
        if l1 > 0 {
            e[l1 - 1] = 0.0;
        }
        let mut m = l1;
        while m < n - 1 {
            if e[m].abs() <= (d[m].abs().sqrt() * d[m + 1].abs().sqrt()) * eps {
                e[m] = 0.0;
                break;
            }
            m += 1;
        }
        let (mut l, lsv) = (l1, l1);
        let (mut lend, lendsv) = (m, m);
        l1 = m + 1;
        if lend == l {
            continue;
        }
        // Scale the block l..=lend into range.
        let anorm = block_max_abs(&d[l..=lend], &e[l..lend]);
        if anorm == 0.0 {
            continue;
        }
        let iscale = if anorm > ssfmax {
            scale(&mut d[l..=lend], anorm, ssfmax);
            scale(&mut e[l..lend], anorm, ssfmax);
            Some(ssfmax)
        } else if anorm < ssfmin {
            scale(&mut d[l..=lend], anorm, ssfmin);
            scale(&mut e[l..lend], anorm, ssfmin);
            Some(ssfmin)
        } else {
            None
        };
        for v in &mut e[l..lend] {
            *v *= *v;
        }
        // QL when the block's bottom end is larger, else QR.
        if d[lend].abs() < d[l].abs() {
            lend = lsv;
            l = lendsv;
        }
        if lend >= l {
            // QL iteration: look for a small subdiagonal entry.
            'ql: loop {
                let mut m = l;
                while m < lend {
                    if e[m].abs() <= eps2 * (d[m] * d[m + 1]).abs() {
                        break;
                    }
                    m += 1;
                }
                if m < lend {
                    e[m] = 0.0;
                }
                let p = d[l];
                if m == l {
                    // An eigenvalue has converged.
                    d[l] = p;
                    l += 1;
                    if l <= lend {
                        continue 'ql;
                    }
                    break 'ql;
                }
                if m == l + 1 {
                    let rte = e[l].sqrt();
                    let (rt1, rt2) = dlae2(d[l], rte, d[l + 1]);
                    d[l] = rt1;
                    d[l + 1] = rt2;
                    e[l] = 0.0;
                    l += 2;
                    if l <= lend {
                        continue 'ql;
                    }
                    break 'ql;
                }
                if jtot == nmaxit {
                    break 'ql;
                }
                jtot += 1;
                // The shift.
                let rte = e[l].sqrt();
                let mut sigma = (d[l + 1] - p) / (2.0 * rte);
                let r = dlapy2(sigma, 1.0);
                sigma = p - (rte / (sigma + r.copysign(sigma)));
                let (mut c, mut s) = (1.0, 0.0);
                let mut gamma = d[m] - sigma;
                let mut p = gamma * gamma;
                for i in (l..m).rev() {
                    let bb = e[i];
                    let r = p + bb;
                    if i != m - 1 {
                        e[i + 1] = s * r;
                    }
                    let oldc = c;
                    c = p / r;
                    s = bb / r;
                    let oldgam = gamma;
                    let alpha = d[i];
                    gamma = c * (alpha - sigma) - s * oldgam;
                    d[i + 1] = oldgam + (alpha - gamma);
                    p = if c != 0.0 {
                        (gamma * gamma) / c
                    } else {
                        oldc * bb
                    };
                }
                e[l] = s * p;
                d[l] = sigma + gamma;
            }
        } else {
            // QR iteration: look for a small superdiagonal entry.
            'qr: loop {
                let mut m = l;
                while m > lend {
                    if e[m - 1].abs() <= eps2 * (d[m] * d[m - 1]).abs() {
                        break;
                    }
                    m -= 1;
                }
                if m > lend {
                    e[m - 1] = 0.0;
                }
                let p = d[l];
                if m == l {
                    d[l] = p;
                    if l == 0 || l - 1 < lend {
                        break 'qr;
                    }
                    l -= 1;
                    continue 'qr;
                }
                if m + 1 == l {
                    let rte = e[l - 1].sqrt();
                    let (rt1, rt2) = dlae2(d[l], rte, d[l - 1]);
                    d[l] = rt1;
                    d[l - 1] = rt2;
                    e[l - 1] = 0.0;
                    if l < 2 || l - 2 < lend {
                        break 'qr;
                    }
                    l -= 2;
                    continue 'qr;
                }
                if jtot == nmaxit {
                    break 'qr;
                }
                jtot += 1;
                let rte = e[l - 1].sqrt();
                let mut sigma = (d[l - 1] - p) / (2.0 * rte);
                let r = dlapy2(sigma, 1.0);
                sigma = p - (rte / (sigma + r.copysign(sigma)));
                let (mut c, mut s) = (1.0, 0.0);
                let mut gamma = d[m] - sigma;
                let mut p = gamma * gamma;
                for i in m..l {
                    let bb = e[i];
                    let r = p + bb;
                    if i != m {
                        e[i - 1] = s * r;
                    }
                    let oldc = c;
                    c = p / r;
                    s = bb / r;
                    let oldgam = gamma;
                    let alpha = d[i + 1];
                    gamma = c * (alpha - sigma) - s * oldgam;
                    d[i] = oldgam + (alpha - gamma);
                    p = if c != 0.0 {
                        (gamma * gamma) / c
                    } else {
                        oldc * bb
                    };
                }
                e[l - 1] = s * p;
                d[l] = sigma + gamma;
            }
        }
        if let Some(to) = iscale {
            scale(&mut d[lsv..=lendsv], to, anorm);
        }
        if jtot >= nmaxit {
            let unconverged = e.iter().filter(|&&v| v != 0.0).count();
            return Err(unconverged);
        }
    }
    d.sort_by(f64::total_cmp);
    Ok(())
}

/// `dlanst('M')`: the largest absolute entry of the block.
fn block_max_abs(d: &[f64], e: &[f64]) -> f64 {
    d.iter().chain(e).fold(
        0.0f64,
        |m, v| if v.is_nan() { v.abs() } else { m.max(v.abs()) },
    )
}

/// `dlascl`: multiplies by `to / from` without overflow or underflow on
/// the way, in steps of at most the safe range.
fn scale(x: &mut [f64], from: f64, to: f64) {
    let smlnum = f64::MIN_POSITIVE;
    let bignum = 1.0 / smlnum;
    let (mut cfrom, mut cto) = (from, to);
    loop {
        let cfrom1 = cfrom * smlnum;
        let mul;
        let done;
        if cfrom1 == cfrom {
            // cfrom is infinite: the quotient is a signed zero or NaN.
            mul = cto / cfrom;
            done = true;
        } else {
            let cto1 = cto / bignum;
            if cto1 == cto {
                // cto is 0 or infinite.
                mul = cto;
                done = true;
                cfrom = 1.0;
            } else if cfrom1.abs() > cto.abs() && cto != 0.0 {
                mul = smlnum;
                done = false;
                cfrom = cfrom1;
            } else if cto1.abs() > cfrom.abs() {
                mul = bignum;
                done = false;
                cto = cto1;
            } else {
                mul = cto / cfrom;
                done = true;
            }
        }
        x.iter_mut().for_each(|v| *v *= mul);
        if done {
            return;
        }
    }
}

/// LAPACK's `dlapy2`, sqrt(x² + y²) rounded as LAPACK rounds it (libm's
/// `hypot` differs in the last bit).
fn dlapy2(x: f64, y: f64) -> f64 {
    let (xa, ya) = (x.abs(), y.abs());
    let w = xa.max(ya);
    let z = xa.min(ya);
    if z == 0.0 || w > f64::MAX {
        w
    } else {
        w * (1.0 + (z / w).powi(2)).sqrt()
    }
}

/// LAPACK's `dlae2`: the eigenvalues of [[a, b], [b, c]], the larger in
/// absolute value first. `dlaev2` computes them the same way.
fn dlae2(a: f64, b: f64, c: f64) -> (f64, f64) {
    let (rt1, rt2, _, _) = dlaev2(a, b, c);
    (rt1, rt2)
}

/// LAPACK's `dlaev2`: the eigenvalues of [[a, b], [b, c]], the larger in
/// absolute value first and the smaller computed from the determinant, and
/// (cs1, sn1), the unit eigenvector of the first.
pub(super) fn dlaev2(a: f64, b: f64, c: f64) -> (f64, f64, f64, f64) {
    let sm = a + c;
    let df = a - c;
    let adf = df.abs();
    let tb = b + b;
    let ab = tb.abs();
    let (acmx, acmn) = if a.abs() > c.abs() { (a, c) } else { (c, a) };
    let rt = if adf > ab {
        adf * (1.0 + (ab / adf).powi(2)).sqrt()
    } else if adf < ab {
        ab * (1.0 + (adf / ab).powi(2)).sqrt()
    } else {
        ab * 2.0f64.sqrt()
    };
    let (rt1, rt2, sgn1) = if sm < 0.0 {
        let rt1 = 0.5 * (sm - rt);
        (rt1, (acmx / rt1) * acmn - (b / rt1) * b, -1.0)
    } else if sm > 0.0 {
        let rt1 = 0.5 * (sm + rt);
        (rt1, (acmx / rt1) * acmn - (b / rt1) * b, 1.0)
    } else {
        (0.5 * rt, -0.5 * rt, 1.0)
    };
    let (cs, sgn2) = if df >= 0.0 {
        (df + rt, 1.0)
    } else {
        (df - rt, -1.0)
    };
    let acs = cs.abs();
    let (mut cs1, mut sn1) = if acs > ab {
        let ct = -tb / cs;
        let sn1 = 1.0 / (1.0 + ct * ct).sqrt();
        (ct * sn1, sn1)
    } else if ab == 0.0 {
        (1.0, 0.0)
    } else {
        let tn = -cs / tb;
        let cs1 = 1.0 / (1.0 + tn * tn).sqrt();
        (cs1, tn * cs1)
    };
    if sgn1 == sgn2 {
        let tn = cs1;
        cs1 = -sn1;
        sn1 = tn;
    }
    (rt1, rt2, cs1, sn1)
}

#[cfg(test)]
mod tests;
