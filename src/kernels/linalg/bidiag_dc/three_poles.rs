//! One step of the secular solver through the three poles nearest the
//! root, port of LAPACK `dlaed6` (see `secular.rs`).

/// LAPACK `dlaed6`: the root nearest the origin of
/// `finit + sum_k z_k (1/(d_k - tau) - 1/d_k)` by Gragg-Thornton-Warner's
/// cubically convergent scheme; `None` when it does not converge.
pub(super) fn three_poles(
    first: bool,
    orgati: bool,
    rho: f64,
    d: &[f64; 3],
    z: &[f64; 3],
    finit: f64,
) -> Option<f64> {
    let (mut lbd, mut ubd) = if orgati { (d[1], d[2]) } else { (d[0], d[1]) };
    if finit < 0.0 {
        lbd = 0.0;
    } else {
        ubd = 0.0;
    }
    let mut tau = 0.0;
    let solve = |a: f64, b: f64, c: f64| {
        let s = a.abs().max(b.abs()).max(c.abs());
        let (a, b, c) = (a / s, b / s, c / s);
        if c == 0.0 {
            b / a
        } else if a <= 0.0 {
            (a - (a * a - 4.0 * b * c).abs().sqrt()) / (2.0 * c)
        } else {
            2.0 * b / (a + (a * a - 4.0 * b * c).abs().sqrt())
        }
    };
    if first {
        let (a, b, c) = if orgati {
            let t = (d[2] - d[1]) / 2.0;
            let c = rho + z[0] / ((d[0] - d[1]) - t);
            (
                c * (d[1] + d[2]) + z[1] + z[2],
                c * d[1] * d[2] + z[1] * d[2] + z[2] * d[1],
                c,
            )
        } else {
            let t = (d[0] - d[1]) / 2.0;
            let c = rho + z[2] / ((d[2] - d[1]) - t);
            (
                c * (d[0] + d[1]) + z[0] + z[1],
                c * d[0] * d[1] + z[0] * d[1] + z[1] * d[0],
                c,
            )
        };
        tau = solve(a, b, c);
        if tau < lbd || tau > ubd {
            tau = (lbd + ubd) / 2.0;
        }
        if d.contains(&tau) {
            tau = 0.0;
        } else {
            let temp = finit
                + tau * z[0] / (d[0] * (d[0] - tau))
                + tau * z[1] / (d[1] * (d[1] - tau))
                + tau * z[2] / (d[2] * (d[2] - tau));
            if temp <= 0.0 {
                lbd = tau;
            } else {
                ubd = tau;
            }
            if finit.abs() <= temp.abs() {
                tau = 0.0;
            }
        }
    }
    // Scale up when a pole is so close that 1/temp^3 would overflow.
    let small1 = 2f64.powi((f64::MIN_POSITIVE.log2() / 3.0) as i32);
    let sminv1 = 1.0 / small1;
    let (small2, sminv2) = (small1 * small1, sminv1 * sminv1);
    let near = if orgati {
        (d[1] - tau).abs().min((d[2] - tau).abs())
    } else {
        (d[0] - tau).abs().min((d[1] - tau).abs())
    };
    let (mut ds, mut zs) = (*d, *z);
    let mut sclinv = 1.0;
    if near <= small1 {
        let (f, inv) = if near <= small2 {
            (sminv2, small2)
        } else {
            (sminv1, small1)
        };
        for k in 0..3 {
            ds[k] *= f;
            zs[k] *= f;
        }
        tau *= f;
        lbd *= f;
        ubd *= f;
        sclinv = inv;
    }
    let sums = |tau: f64| {
        let (mut fc, mut df, mut ddf, mut err) = (0.0, 0.0, 0.0, 0.0);
        for k in 0..3 {
            let t = 1.0 / (ds[k] - tau);
            let t1 = zs[k] * t;
            let t2 = t1 * t;
            let t4 = t1 / ds[k];
            fc += t4;
            err += t4.abs();
            df += t2;
            ddf += t2 * t;
        }
        (fc, df, ddf, err)
    };
    let (fc, mut df, mut ddf, _) = sums(tau);
    let mut f = finit + tau * fc;
    if f.abs() <= 0.0 {
        return Some(tau * sclinv);
    }
    if f <= 0.0 {
        lbd = tau;
    } else {
        ubd = tau;
    }
    for _ in 2..=40 {
        let (t1, t2) = if orgati {
            (ds[1] - tau, ds[2] - tau)
        } else {
            (ds[0] - tau, ds[1] - tau)
        };
        let a = (t1 + t2) * f - t1 * t2 * df;
        let b = t1 * t2 * f;
        let c = f - (t1 + t2) * df + t1 * t2 * ddf;
        let mut eta = solve(a, b, c);
        if f * eta >= 0.0 {
            eta = -f / df;
        }
        tau += eta;
        if tau < lbd || tau > ubd {
            tau = (lbd + ubd) / 2.0;
        }
        let (fc, df2, ddf2, err) = sums(tau);
        df = df2;
        ddf = ddf2;
        f = finit + tau * fc;
        let erretm = 8.0 * (finit.abs() + tau.abs() * err) + tau.abs() * df;
        if f.abs() <= f64::EPSILON * erretm {
            return Some(tau * sclinv);
        }
        if f <= 0.0 {
            lbd = tau;
        } else {
            ubd = tau;
        }
    }
    None
}
