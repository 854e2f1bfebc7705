//! `arima(x, order, seasonal, xreg, include.mean, transform.pars, fixed,
//! init, method, n.cond, SSinit, optim.method, optim.control, kappa)`:
//! R's ARIMA fit by exact maximum likelihood through a Kalman filter,
//! conditional sum of squares, or both. A port of R's `arima` function
//! (src/library/stats/R/arima.R, unchanged from R 4.2.2 to 4.4) and of the
//! C it calls in src/library/stats/src/arima.c, kept in the original's
//! shape; the optimiser is optim's own (`optim::optim_native`: vmmin for
//! BFGS, fmingr's central differences, optimhess), so the likelihood is
//! evaluated at R's points and the answer is R's.
//!
//! A seasonal period not given is `frequency(x)`: a series' (made by
//! `ts`) own, 1 for a plain vector, which R's `as.ts` makes a series of
//! frequency 1. The value is R's "Arima" list without
//! `call` and `series`; `residuals` is a series with `x`'s tsp (1 to n
//! for a plain vector, as `as.ts` makes it), and `model` is the
//! state-space model after the data, which `predict` forecasts from.

// The C indexes as written; it reads better against the original.
#![allow(clippy::needless_range_loop)]

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::alloc;
use super::args::{ArgError, Args};
use super::names;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "arima",
    params: &[
        req("x"),
        opt("order"),
        opt("seasonal"),
        opt("xreg"),
        opt("include.mean"),
        opt("transform.pars"),
        opt("fixed"),
        opt("init"),
        opt("method"),
        opt("n.cond"),
        opt("SSinit"),
        opt("optim.method"),
        opt("optim.control"),
        opt("kappa"),
    ],
    random: false,
    shape,
    eval,
}];

/// `arma`: p, q, P, Q, period, d, D, as arima.R packs them.
type Arma = [usize; 7];

/// getQ0's limit, which R reaches through makeARIMA before (ML) or after
/// (CSS) optimising.
const MAX_LAG: usize = 350;

/// getQ0 works in `np(np - 1)/2` doubles for `np = r(r + 1)/2`: r = 128
/// already needs 0.5 GiB, which flowcast refuses to allocate per
/// likelihood evaluation.
const MAX_Q0_R: usize = 128;

/// The state vector's length `r + d` above which the Kalman filter's
/// `(r + d)^2` covariances per observation are refused.
const MAX_STATE: usize = 1000;

fn err(message: impl Into<String>) -> KernelError {
    KernelError::new(message)
}

/// arima.c's `partrans`: maps unconstrained values to the coefficients of
/// a stationary AR polynomial (tanh to the partial autocorrelations, then
/// the Durbin-Levinson recursions).
fn partrans(p: usize, raw: &[f64], new: &mut [f64]) -> Result<(), KernelError> {
    if p > 100 {
        return Err(err("can only transform 100 pars in arima0"));
    }
    let mut work = vec![0.0; p];
    for j in 0..p {
        new[j] = raw[j].tanh();
        work[j] = new[j];
    }
    for j in 1..p {
        let a = new[j];
        for k in 0..j {
            work[k] -= a * new[j - k - 1];
        }
        new[..j].copy_from_slice(&work[..j]);
    }
    Ok(())
}

/// `partrans` or `invpartrans`: `p` coefficients of `raw` into `new`.
type Transform = fn(usize, &[f64], &mut [f64]) -> Result<(), KernelError>;

/// `transform` (`partrans` or `invpartrans`) applied to the non-seasonal
/// and the seasonal AR coefficients of `input`, the rest copied: the
/// shape arima.c's `ARIMA_undoPars`, `ARIMA_Invtrans` and the first half
/// of `ARIMA_transPars` share.
fn transform_ar(input: &[f64], arma: &Arma, transform: Transform) -> Result<Vec<f64>, KernelError> {
    let (mp, mq, msp) = (arma[0], arma[1], arma[2]);
    let mut params = input.to_vec();
    if mp > 0 {
        transform(mp, input, &mut params)?;
    }
    let v = mp + mq;
    if msp > 0 {
        transform(msp, &input[v..], &mut params[v..])?;
    }
    Ok(params)
}

/// arima.c's `ARIMA_undoPars`.
fn undo_pars(input: &[f64], arma: &Arma) -> Result<Vec<f64>, KernelError> {
    transform_ar(input, arma, partrans)
}

/// arima.c's `ARIMA_transPars`: the expanded `phi` and `theta` of the
/// product of the non-seasonal and seasonal polynomials.
fn trans_pars(
    input: &[f64],
    arma: &Arma,
    trans: bool,
) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let (mp, mq, msp, msq, ns) = (arma[0], arma[1], arma[2], arma[3], arma[4]);
    let p = mp + ns * msp;
    let q = mq + ns * msq;
    let mut phi = vec![0.0; p];
    let mut theta = vec![0.0; q];
    let params = if trans {
        undo_pars(input, arma)?
    } else {
        input.to_vec()
    };
    if ns > 0 {
        // Expand out seasonal ARMA models.
        phi[..mp].copy_from_slice(&params[..mp]);
        theta[..mq].copy_from_slice(&params[mp..mp + mq]);
        for j in 0..msp {
            phi[(j + 1) * ns - 1] += params[j + mp + mq];
            for i in 0..mp {
                phi[(j + 1) * ns + i] -= params[i] * params[j + mp + mq];
            }
        }
        for j in 0..msq {
            theta[(j + 1) * ns - 1] += params[j + mp + mq + msp];
            for i in 0..mq {
                theta[(j + 1) * ns + i] += params[i + mp] * params[j + mp + mq + msp];
            }
        }
    } else {
        phi[..mp].copy_from_slice(&params[..mp]);
        theta[..mq].copy_from_slice(&params[mp..mp + mq]);
    }
    Ok((phi, theta))
}

/// arima.c's `invpartrans`: `partrans` backwards.
fn invpartrans(p: usize, phi: &[f64], new: &mut [f64]) -> Result<(), KernelError> {
    if p > 100 {
        return Err(err("can only transform 100 pars in arima0"));
    }
    let mut work = vec![0.0; p];
    new[..p].copy_from_slice(&phi[..p]);
    work.copy_from_slice(&new[..p]);
    // Run the Durbin-Levinson recursions backwards to find the PACF
    // phi_{j.} from the autoregression coefficients.
    for j in (1..p).rev() {
        let a = new[j];
        for k in 0..j {
            work[k] = (new[k] + a * new[j - k - 1]) / (1.0 - a * a);
        }
        new[..j].copy_from_slice(&work[..j]);
    }
    for j in 0..p {
        new[j] = new[j].atanh();
    }
    Ok(())
}

/// arima.c's `ARIMA_Invtrans`.
fn invtrans(raw: &[f64], arma: &Arma) -> Result<Vec<f64>, KernelError> {
    transform_ar(raw, arma, invpartrans)
}

/// arima.c's `ARIMA_Gradtrans`: the Jacobian of `partrans` by forward
/// differences of 1e-3, an `n x n` matrix (identity off the AR blocks).
fn gradtrans(raw: &[f64], arma: &Arma) -> Result<DMatrix<f64>, KernelError> {
    const EPS: f64 = 1e-3;
    let (mp, mq, msp) = (arma[0], arma[1], arma[2]);
    let n = raw.len();
    let mut a = DMatrix::<f64>::identity(n, n);
    let mut w1 = [0.0; 100];
    let mut w2 = [0.0; 100];
    let mut w3 = [0.0; 100];
    if mp > 0 {
        if mp > 100 {
            return Err(err("can only transform 100 pars in arima0"));
        }
        w1[..mp].copy_from_slice(&raw[..mp]);
        partrans(mp, &w1, &mut w2)?;
        for i in 0..mp {
            w1[i] += EPS;
            partrans(mp, &w1, &mut w3)?;
            for j in 0..mp {
                a[(i, j)] = (w3[j] - w2[j]) / EPS;
            }
            w1[i] -= EPS;
        }
    }
    if msp > 0 {
        if msp > 100 {
            return Err(err("can only transform 100 pars in arima0"));
        }
        let v = mp + mq;
        w1[..msp].copy_from_slice(&raw[v..v + msp]);
        partrans(msp, &w1, &mut w2)?;
        for i in 0..msp {
            w1[i] += EPS;
            partrans(msp, &w1, &mut w3)?;
            for j in 0..msp {
                a[(i + v, j + v)] = (w3[j] - w2[j]) / EPS;
            }
            w1[i] -= EPS;
        }
    }
    Ok(a)
}

/// The parts of makeARIMA's model that ARIMA_Like reads and writes: `a`,
/// `P` and `Pn` (column-major `rd x rd`) it updates in place, as the C
/// does.
#[derive(Clone)]
struct Model {
    phi: Vec<f64>,
    theta: Vec<f64>,
    delta: Vec<f64>,
    a: Vec<f64>,
    p: Vec<f64>,
    pn: Vec<f64>,
}

/// arima.R's `makeARIMA` (its `T`, `V`, `Z` and `h` are for KalmanForecast
/// and left out): the initial state covariance `Pn` is getQ0's (or
/// getQ0bis's) for the ARMA part and `kappa` for the differences.
fn make_arima(
    phi: Vec<f64>,
    theta: Vec<f64>,
    delta: &[f64],
    kappa: f64,
    ss_g: bool,
    ctx: &mut Ctx,
) -> Result<Model, KernelError> {
    make_arima_tol(phi, theta, delta, kappa, ss_g, f64::EPSILON, ctx)
}

/// makeARIMA with its `tol` for getQ0bis (arima calls it with the default,
/// `.Machine$double.eps`).
fn make_arima_tol(
    phi: Vec<f64>,
    mut theta: Vec<f64>,
    delta: &[f64],
    kappa: f64,
    ss_g: bool,
    tol: f64,
    ctx: &mut Ctx,
) -> Result<Model, KernelError> {
    if phi.iter().any(|v| v.is_nan()) {
        ctx.warn("NAs in 'phi'");
    }
    if theta.iter().any(|v| v.is_nan()) {
        ctx.warn("NAs in 'theta'");
    }
    let p = phi.len();
    let q = theta.len();
    let r = p.max(q + 1);
    let d = delta.len();
    let rd = r + d;
    let mut pn = vec![0.0; rd * rd];
    if r > 1 {
        let q0 = if ss_g {
            get_q0(&phi, &theta)?
        } else {
            get_q0bis(&phi, &theta, tol)?
        };
        for j in 0..r {
            for i in 0..r {
                pn[i + j * rd] = q0[i + j * r];
            }
        }
    } else {
        pn[0] = if p > 0 {
            1.0 / (1.0 - phi[0] * phi[0])
        } else {
            1.0
        };
    }
    for i in 0..d {
        pn[(r + i) + (r + i) * rd] = kappa;
    }
    if q + 1 < r {
        theta.resize(r - 1, 0.0);
    }
    Ok(Model {
        phi,
        theta,
        delta: delta.to_vec(),
        a: vec![0.0; rd],
        p: vec![0.0; rd * rd],
        pn,
    })
}

/// arima.R's `upARIMA`: `mod` with new coefficients, `Pn`'s ARMA block
/// recomputed and the state zeroed. `P` is left as it is, as R leaves it:
/// ARIMA_Like writes it before it reads it.
fn up_arima(
    model: &Model,
    phi: Vec<f64>,
    theta: Vec<f64>,
    ss_g: bool,
) -> Result<Model, KernelError> {
    let p = phi.len();
    let q = theta.len();
    let r = p.max(q + 1);
    let rd = model.a.len();
    let mut m = model.clone();
    if r > 1 {
        let q0 = if ss_g {
            get_q0(&phi, &theta)?
        } else {
            // tol = 0: less checking.
            get_q0bis(&phi, &theta, 0.0)?
        };
        for j in 0..r {
            for i in 0..r {
                m.pn[i + j * rd] = q0[i + j * r];
            }
        }
    } else {
        m.pn[0] = if p > 0 {
            1.0 / (1.0 - phi[0] * phi[0])
        } else {
            1.0
        };
    }
    m.a.fill(0.0);
    m.phi = phi;
    m.theta = theta;
    Ok(m)
}

/// arima.c's `ARIMA_Like`: the Kalman filter's sum of squares, sum of log
/// gains and count of observations used, and the standardized residuals
/// when asked for. `up` is `sUP`: covariances are predicted after it.
fn arima_like(y: &[f64], m: &mut Model, up: usize, give_resid: bool) -> ([f64; 3], Vec<f64>) {
    let n = y.len();
    let rd = m.a.len();
    let p = m.phi.len();
    let q = m.theta.len();
    let d = m.delta.len();
    let r = rd - d;
    let (phi, theta, delta) = (&m.phi, &m.theta, &m.delta);
    let (a, pp, pnew) = (&mut m.a, &mut m.p, &mut m.pn);
    let mut sumlog = 0.0;
    let mut ssq = 0.0;
    let mut nu = 0usize;
    let mut anew = vec![0.0; rd];
    let mut mv = vec![0.0; rd];
    let mut mm = if d > 0 {
        vec![0.0; rd * rd]
    } else {
        Vec::new()
    };
    let mut rs_resid = if give_resid { vec![0.0; n] } else { Vec::new() };

    for l in 0..n {
        for i in 0..r {
            let mut tmp = if i < r - 1 { a[i + 1] } else { 0.0 };
            if i < p {
                tmp += phi[i] * a[0];
            }
            anew[i] = tmp;
        }
        if d > 0 {
            anew[r + 1..rd].copy_from_slice(&a[r..rd - 1]);
            let mut tmp = a[0];
            for i in 0..d {
                tmp += delta[i] * a[r + i];
            }
            anew[r] = tmp;
        }
        if l > up {
            if d == 0 {
                for i in 0..r {
                    let vi = if i == 0 {
                        1.0
                    } else if i - 1 < q {
                        theta[i - 1]
                    } else {
                        0.0
                    };
                    for j in 0..r {
                        let mut tmp = if j == 0 {
                            vi
                        } else if j - 1 < q {
                            vi * theta[j - 1]
                        } else {
                            0.0
                        };
                        if i < p && j < p {
                            tmp += phi[i] * phi[j] * pp[0];
                        }
                        if i < r - 1 && j < r - 1 {
                            tmp += pp[i + 1 + r * (j + 1)];
                        }
                        if i < p && j < r - 1 {
                            tmp += phi[i] * pp[j + 1];
                        }
                        if j < p && i < r - 1 {
                            tmp += phi[j] * pp[i + 1];
                        }
                        pnew[i + r * j] = tmp;
                    }
                }
            } else {
                // mm = TP
                for i in 0..r {
                    for j in 0..rd {
                        let mut tmp = 0.0;
                        if i < p {
                            tmp += phi[i] * pp[rd * j];
                        }
                        if i < r - 1 {
                            tmp += pp[i + 1 + rd * j];
                        }
                        mm[i + rd * j] = tmp;
                    }
                }
                for j in 0..rd {
                    let mut tmp = pp[rd * j];
                    for k in 0..d {
                        tmp += delta[k] * pp[r + k + rd * j];
                    }
                    mm[r + rd * j] = tmp;
                }
                for i in 1..d {
                    for j in 0..rd {
                        mm[r + i + rd * j] = pp[r + i - 1 + rd * j];
                    }
                }
                // Pnew = mmT'
                for i in 0..r {
                    for j in 0..rd {
                        let mut tmp = 0.0;
                        if i < p {
                            tmp += phi[i] * mm[j];
                        }
                        if i < r - 1 {
                            tmp += mm[rd * (i + 1) + j];
                        }
                        pnew[j + rd * i] = tmp;
                    }
                }
                for j in 0..rd {
                    let mut tmp = mm[j];
                    for k in 0..d {
                        tmp += delta[k] * mm[rd * (r + k) + j];
                    }
                    pnew[rd * r + j] = tmp;
                }
                for i in 1..d {
                    for j in 0..rd {
                        pnew[rd * (r + i) + j] = mm[rd * (r + i - 1) + j];
                    }
                }
                // Pnew <- Pnew + (1 theta) %o% (1 theta)
                for i in 0..=q {
                    let vi = if i == 0 { 1.0 } else { theta[i - 1] };
                    for j in 0..=q {
                        pnew[i + rd * j] += vi * if j == 0 { 1.0 } else { theta[j - 1] };
                    }
                }
            }
        }
        if !y[l].is_nan() {
            let mut resid = y[l] - anew[0];
            for i in 0..d {
                resid -= delta[i] * anew[r + i];
            }
            for i in 0..rd {
                let mut tmp = pnew[i];
                for j in 0..d {
                    tmp += pnew[i + (r + j) * rd] * delta[j];
                }
                mv[i] = tmp;
            }
            let mut gain = mv[0];
            for j in 0..d {
                gain += delta[j] * mv[r + j];
            }
            if gain < 1e4 {
                nu += 1;
                ssq += resid * resid / gain;
                sumlog += gain.ln();
            }
            if give_resid {
                rs_resid[l] = resid / gain.sqrt();
            }
            for i in 0..rd {
                a[i] = anew[i] + mv[i] * resid / gain;
            }
            for i in 0..rd {
                for j in 0..rd {
                    pp[i + j * rd] = pnew[i + j * rd] - mv[i] * mv[j] / gain;
                }
            }
        } else {
            a.copy_from_slice(&anew);
            pp.copy_from_slice(pnew);
            if give_resid {
                rs_resid[l] = NA;
            }
        }
    }
    ([ssq, sumlog, nu as f64], rs_resid)
}

/// arima.c's `ARIMA_CSS`: the conditional sum of squares over the
/// differenced series from `ncond` on, divided by the count used, and the
/// residuals (zero before `ncond`).
fn arima_css(y: &[f64], arma: &Arma, phi: &[f64], theta: &[f64], ncond: usize) -> (f64, Vec<f64>) {
    let n = y.len();
    let p = phi.len();
    let q = theta.len();
    let mut ssq = 0.0;
    let mut nu = 0usize;
    let mut w = y.to_vec();
    for _ in 0..arma[5] {
        for l in (1..n).rev() {
            w[l] -= w[l - 1];
        }
    }
    let ns = arma[4];
    for _ in 0..arma[6] {
        for l in (ns..n).rev() {
            w[l] -= w[l - ns];
        }
    }
    let mut resid = vec![0.0; n];
    for l in ncond..n {
        let mut tmp = w[l];
        for j in 0..p {
            tmp -= phi[j] * w[l - j - 1];
        }
        for j in 0..(l - ncond).min(q) {
            tmp -= theta[j] * resid[l - j - 1];
        }
        resid[l] = tmp;
        if !tmp.is_nan() {
            nu += 1;
            ssq += tmp * tmp;
        }
    }
    (ssq / nu as f64, resid)
}

/// arima.c's `TSconv`: the product of two polynomials.
fn ts_conv(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut ab = vec![0.0; a.len() + b.len() - 1];
    for i in 0..a.len() {
        for j in 0..b.len() {
            ab[i + j] += a[i] * b[j];
        }
    }
    ab
}

/// arima.c's `inclu2` (from AS 154): updates `d`, `rbar`, `thetab` by the
/// inclusion of `xnext` and `ynext`.
fn inclu2(
    np: usize,
    xnext: &[f64],
    xrow: &mut [f64],
    mut ynext: f64,
    d: &mut [f64],
    rbar: &mut [f64],
    thetab: &mut [f64],
) {
    xrow[..np].copy_from_slice(&xnext[..np]);
    let mut ithisr = 0;
    for i in 0..np {
        if xrow[i] != 0.0 {
            let xi = xrow[i];
            let di = d[i];
            let dpi = di + xi * xi;
            d[i] = dpi;
            let cbar = di / dpi;
            let sbar = xi / dpi;
            for k in i + 1..np {
                let xk = xrow[k];
                let rbthis = rbar[ithisr];
                xrow[k] = xk - xi * rbthis;
                rbar[ithisr] = cbar * rbthis + sbar * xk;
                ithisr += 1;
            }
            let xk = ynext;
            ynext = xk - xi * thetab[i];
            thetab[i] = cbar * thetab[i] + sbar * xk;
            if di == 0.0 {
                return;
            }
        } else {
            ithisr = ithisr + np - i - 1;
        }
    }
}

/// arima.c's `getQ0` (Gardner, Harvey & Phillips 1980, AS 154): the
/// covariance of the initial state of the ARMA part, `r x r`
/// column-major.
fn get_q0(phi: &[f64], theta: &[f64]) -> Result<Vec<f64>, KernelError> {
    let p = phi.len();
    let q = theta.len();
    let r = p.max(q + 1);
    if r > MAX_LAG {
        return Err(err("maximum supported lag is 350"));
    }
    if r > MAX_Q0_R {
        return Err(err(format!(
            "flowcast refuses an ARMA part of lag {r} with SSinit = \"Gardner1980\": \
             getQ0 would need {:.1} GiB of workspace (at most lag {MAX_Q0_R})",
            (r * (r + 1) / 2) as f64 * ((r * (r + 1) / 2) as f64 - 1.0) / 2.0 * 8.0 / 1073741824.0
        )));
    }
    let np = r * (r + 1) / 2;
    let nrbar = np * (np - 1) / 2;
    let mut v = vec![0.0; np];
    let mut ind = 0;
    for j in 0..r {
        let vj = if j == 0 {
            1.0
        } else if j - 1 < q {
            theta[j - 1]
        } else {
            0.0
        };
        for i in j..r {
            let vi = if i == 0 {
                1.0
            } else if i - 1 < q {
                theta[i - 1]
            } else {
                0.0
            };
            v[ind] = vi * vj;
            ind += 1;
        }
    }
    let mut res = vec![0.0; r * r];
    if r == 1 {
        res[0] = if p == 0 {
            1.0 // PR#16419
        } else {
            1.0 / (1.0 - phi[0] * phi[0])
        };
        return Ok(res);
    }
    // P holds the packed solution in its first np entries.
    let pm = &mut res;
    if p > 0 {
        // The set of equations s * vec(P0) = vec(v) is solved for vec(P0);
        // s is generated row by row in xnext. The order of elements in P
        // is changed, so as to bring more leading zeros into the rows of s.
        let mut rbar = vec![0.0; nrbar];
        let mut thetab = vec![0.0; np];
        let mut xnext = vec![0.0; np];
        let mut xrow = vec![0.0; np];
        for i in 0..np {
            pm[i] = 0.0;
        }
        let mut ind = 0;
        // ind1 starts at -1 (a size_t wrapping in the C).
        let mut ind1: usize = usize::MAX;
        let npr = np - r;
        let npr1 = npr + 1;
        let mut indj = npr;
        let mut ind2 = npr.wrapping_sub(1);
        for j in 0..r {
            let phij = if j < p { phi[j] } else { 0.0 };
            xnext[indj] = 0.0;
            indj += 1;
            let mut indi = npr1 + j;
            for i in j..r {
                let ynext = v[ind];
                ind += 1;
                let phii = if i < p { phi[i] } else { 0.0 };
                if j != r - 1 {
                    xnext[indj] = -phii;
                    if i != r - 1 {
                        xnext[indi] -= phij;
                        ind1 = ind1.wrapping_add(1);
                        xnext[ind1] = -1.0;
                    }
                }
                xnext[npr] = -phii * phij;
                ind2 = ind2.wrapping_add(1);
                if ind2 >= np {
                    ind2 = 0;
                }
                xnext[ind2] += 1.0;
                inclu2(np, &xnext, &mut xrow, ynext, pm, &mut rbar, &mut thetab);
                xnext[ind2] = 0.0;
                if i != r - 1 {
                    xnext[indi] = 0.0;
                    indi += 1;
                    xnext[ind1] = 0.0;
                }
            }
        }
        let mut ithisr = nrbar as isize - 1;
        let mut im = np as isize - 1;
        for i in 0..np {
            let mut bi = thetab[im as usize];
            let mut jm = np as isize - 1;
            for _ in 0..i {
                bi -= rbar[ithisr as usize] * pm[jm as usize];
                ithisr -= 1;
                jm -= 1;
            }
            pm[im as usize] = bi;
            im -= 1;
        }
        // Now re-order p.
        xnext[..r].copy_from_slice(&pm[npr..npr + r]);
        let mut ind = np as isize - 1;
        let mut ind1 = npr as isize - 1;
        for _ in 0..npr {
            pm[ind as usize] = pm[ind1 as usize];
            ind -= 1;
            ind1 -= 1;
        }
        pm[..r].copy_from_slice(&xnext[..r]);
    } else {
        // P0 is obtained by backsubstitution for a moving average process.
        let mut indn = np;
        let mut ind = np;
        for i in 0..r {
            for j in 0..=i {
                ind -= 1;
                pm[ind] = v[ind];
                if j != 0 {
                    indn -= 1;
                    pm[ind] += pm[indn];
                }
            }
        }
    }
    // Now unpack to a full matrix.
    let mut ind = np;
    for i in (1..r).rev() {
        for j in (i..r).rev() {
            ind -= 1;
            pm[r * i + j] = pm[ind];
        }
    }
    for i in 0..r - 1 {
        for j in i + 1..r {
            pm[i + r * j] = pm[j + r * i];
        }
    }
    Ok(res)
}

/// arima.c's `getQ0bis` (Rossignol 2011, as Matwey Kornilov implemented
/// it): the same covariance from the autocovariances of the AR part,
/// which `solve.default(Gam, g, tol)` finds.
fn get_q0bis(phi: &[f64], theta: &[f64], tol: f64) -> Result<Vec<f64>, KernelError> {
    let p = phi.len();
    let q = theta.len();
    let r = p.max(q + 1);
    let mut pm = vec![0.0; r * r];
    // ttheta = c(1, theta)
    let mut ttheta = vec![1.0; q + 1];
    ttheta[1..].copy_from_slice(theta);
    if p > 0 {
        let r2 = (p + q).max(p + 1);
        let mut tphi = vec![1.0; p + 1];
        for i in 1..=p {
            tphi[i] = -phi[i - 1];
        }
        // Gam := C1 + C2
        let mut gam = DMatrix::<f64>::zeros(r2, r2);
        for j in 0..r2 {
            let mut i = j;
            while i < r2 && i - j < p + 1 {
                gam[(i, j)] += tphi[i - j];
                i += 1;
            }
        }
        for i in 0..r2 {
            let mut j = 1;
            while j < r2 && i + j < p + 1 {
                gam[(i, j)] += tphi[i + j];
                j += 1;
            }
        }
        let mut g = DMatrix::<f64>::zeros(r2, 1);
        g[0] = 1.0;
        let u = super::linalg::solve(&gam, Some(&g), tol)?;
        let u = u.as_slice();
        // Q0 += A1 SX A1^T
        for i in 0..r {
            for j in i..r {
                let mut k = 0;
                while i + k < p {
                    let mut l = k;
                    while l - k < q + 1 {
                        let mut m = 0;
                        while j + m < p {
                            let mut n = m;
                            while n - m < q + 1 {
                                pm[r * i + j] += phi[i + k]
                                    * phi[j + m]
                                    * ttheta[l - k]
                                    * ttheta[n - m]
                                    * u[l.abs_diff(n)];
                                n += 1;
                            }
                            m += 1;
                        }
                        l += 1;
                    }
                    k += 1;
                }
            }
        }
        // The correlation between X and Z: forwardsolve(C1, g).
        let mut rrz = vec![0.0; q];
        for i in 0..q {
            rrz[i] = ttheta[i];
            for j in i.saturating_sub(p)..i {
                rrz[i] -= rrz[j] * tphi[i - j];
            }
        }
        // Q0 += A1 SXZ A2^T + (A1 SXZ A2^T)^T
        for i in 0..r {
            for j in i..r {
                let mut k = 0;
                while i + k < p {
                    let mut l = k + 1;
                    while j + l < q + 1 {
                        pm[r * i + j] += phi[i + k] * ttheta[j + l] * rrz[l - k - 1];
                        l += 1;
                    }
                    k += 1;
                }
                let mut k = 0;
                while j + k < p {
                    let mut l = k + 1;
                    while i + l < q + 1 {
                        pm[r * i + j] += phi[j + k] * ttheta[i + l] * rrz[l - k - 1];
                        l += 1;
                    }
                    k += 1;
                }
            }
        }
    }
    // Q0 += A2 A2^T
    for i in 0..r {
        for j in i..r {
            let mut k = 0;
            while j + k < q + 1 {
                pm[r * i + j] += ttheta[i + k] * ttheta[j + k];
                k += 1;
            }
        }
    }
    for i in 0..r {
        for j in i + 1..r {
            pm[r * j + i] = pm[r * i + j];
        }
    }
    Ok(pm)
}

/// arima.R's `arCheck`: whether the AR polynomial's roots lie outside the
/// unit circle.
fn ar_check(ar: &[f64]) -> Result<bool, KernelError> {
    let mut c = vec![1.0];
    c.extend(ar.iter().map(|a| -a));
    let Some(p) = c.iter().rposition(|&v| v != 0.0 && !v.is_nan()) else {
        return Ok(true);
    };
    if p == 0 {
        return Ok(true);
    }
    let coef: Vec<Complex64> = c[..=p].iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let roots = super::polyroot::roots(&coef)?;
    Ok(roots.iter().all(|z| z.re.hypot(z.im) > 1.0))
}

/// arima.R's `maInvert`: the MA polynomial with its roots inside the unit
/// circle reflected outside.
fn ma_invert(ma: &[f64]) -> Result<Vec<f64>, KernelError> {
    use super::arith::complex_ops::div;
    let q = ma.len();
    let mut c = vec![1.0];
    c.extend_from_slice(ma);
    let q0 = c
        .iter()
        .rposition(|&v| v != 0.0 && !v.is_nan())
        .unwrap_or(0);
    if q0 == 0 {
        return Ok(ma.to_vec());
    }
    let coef: Vec<Complex64> = c[..=q0].iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let mut roots = super::polyroot::roots(&coef)?;
    let ind: Vec<bool> = roots.iter().map(|z| z.re.hypot(z.im) < 1.0).collect();
    if ind.iter().all(|i| !i) {
        return Ok(ma.to_vec());
    }
    if q0 == 1 {
        let mut out = vec![1.0 / ma[0]];
        out.resize(q, 0.0);
        return Ok(out);
    }
    let one = Complex64::new(1.0, 0.0);
    for (z, inside) in roots.iter_mut().zip(&ind) {
        if *inside {
            *z = div(one, *z);
        }
    }
    let mut x = vec![one];
    for r in &roots {
        // x <- c(x, 0) - c(0, x)/r
        let mut next = x.clone();
        next.push(Complex64::new(0.0, 0.0));
        for i in 0..x.len() {
            next[i + 1] -= div(x[i], *r);
        }
        x = next;
    }
    let mut out: Vec<f64> = x[1..].iter().map(|z| z.re).collect();
    out.resize(q, 0.0);
    Ok(out)
}

/// R's `%*%` of an `n x k` matrix (column-major) and a `k x m` one: the
/// reference BLAS R runs sums each entry in column order from zero.
fn matprod(a: &[f64], n: usize, k: usize, b: &[f64], m: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * m];
    for j in 0..m {
        for l in 0..k {
            let t = b[l + j * k];
            for i in 0..n {
                c[i + j * n] += t * a[i + l * n];
            }
        }
    }
    c
}

/// `x - xreg %*% beta`.
fn regress_out(x: &[f64], xreg: &[f64], ncxreg: usize, beta: &[f64]) -> Vec<f64> {
    let n = x.len();
    let fit = matprod(xreg, n, ncxreg, beta, 1);
    x.iter().zip(&fit).map(|(x, f)| x - f).collect()
}

/// R's `diff(x, lag, differences)` of each column of an `n x k` matrix.
fn diff_cols(x: &[f64], n: usize, k: usize, lag: usize, times: usize) -> (Vec<f64>, usize) {
    let mut cols: Vec<Vec<f64>> = (0..k).map(|j| x[j * n..(j + 1) * n].to_vec()).collect();
    let mut len = n;
    for _ in 0..times {
        if lag >= len {
            len = 0;
            cols.iter_mut().for_each(Vec::clear);
            break;
        }
        for c in &mut cols {
            *c = (lag..len).map(|i| c[i] - c[i - lag]).collect();
        }
        len -= lag;
    }
    (cols.concat(), len)
}

/// A regression's coefficients and their standard errors.
type Start = (Vec<f64>, Vec<f64>);

/// `lm(y ~ X - 1, na.action = na.omit)`'s coefficients and
/// `summary(fit)$coefficients[, 2]`, as arima reads them: `None` for a
/// fit of rank 0. Rank-deficient designs are refused (R goes on with NA
/// starting values, which optim then refuses).
fn lm_start(y: &[f64], x: &[f64], n: usize, k: usize) -> Result<Option<Start>, KernelError> {
    let keep: Vec<usize> = (0..n)
        .filter(|&i| !y[i].is_nan() && (0..k).all(|j| !x[i + j * n].is_nan()))
        .collect();
    let m = keep.len();
    if m == 0 {
        return Err(err("0 (non-NA) cases"));
    }
    let yy: Vec<f64> = keep.iter().map(|&i| y[i]).collect();
    let mut xx = Vec::with_capacity(m * k);
    for j in 0..k {
        xx.extend(keep.iter().map(|&i| x[i + j * n]));
    }
    if xx.iter().chain(&yy).any(|v| !v.is_finite()) {
        return Err(err("NA/NaN/Inf in 'x'"));
    }
    let fit = super::linalg::linpack::dqrls(xx, m, k, &yy, 1e-7);
    let rank = fit.qr.rank;
    if rank == 0 {
        return Ok(None);
    }
    if rank < k {
        return Err(err(
            "flowcast refuses a rank-deficient 'xreg' (R's regression for the starting \
             values gives NA coefficients, and its optimiser then fails)",
        ));
    }
    // summary.lm: sqrt(diag(chol2inv(R)) * rss / rdf).
    let rss = super::nmath::rsum(&fit.residuals.iter().map(|r| r * r).collect::<Vec<_>>());
    let rdf = (m - k) as f64;
    let resvar = rss / rdf;
    let cov = super::linalg::la_chol2inv(&fit.qr.qr, fit.qr.n, k)?;
    let ses = (0..k).map(|i| (cov[i + i * k] * resvar).sqrt()).collect();
    Ok(Some((fit.coef, ses)))
}

/// A numeric argument's numbers (`None` for any other type).
fn numbers(v: &Value) -> Option<Vec<f64>> {
    match names::bare(v) {
        Value::Num(x) => Some(x.clone()),
        Value::Mat(m) => Some(m.as_slice().to_vec()),
        _ => None,
    }
}

/// R's `as.integer` of an order: truncation, refused where R's would be
/// NA (it then fails in `rep`).
fn order_int(v: f64) -> Result<usize, KernelError> {
    if v.is_nan() || v >= 2147483648.0 {
        return Err(err(
            "flowcast refuses an order or period of 2^31 or more (R's as.integer gives NA and \
             arima then fails)",
        ));
    }
    Ok(v.trunc() as usize)
}

/// `list(...)` of named values, for optim's control.
fn control_list(fields: Vec<(String, Value)>) -> Value {
    let (names, items) = fields.into_iter().unzip();
    Value::List(List {
        class: None,
        names: Some(names),
        items,
        row_names: None,
    })
}

/// The elements of a list value, with their names.
fn list_fields(v: &Value) -> Vec<(String, Value)> {
    match names::bare(v) {
        Value::List(l) => {
            let names = l
                .names
                .clone()
                .unwrap_or_else(|| vec![String::new(); l.items.len()]);
            names.into_iter().zip(l.items.iter().cloned()).collect()
        }
        _ => Vec::new(),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let ss_g = super::acf::match_arg(
        args.get("SSinit").map(names::bare),
        &["Gardner1980", "Rossignol2011"],
    )? == "Gardner1980";
    let xv = args
        .get("x")
        .ok_or_else(|| err("argument \"x\" is missing, with no default"))?;
    // frequency(x): a series' own, 1 for a plain vector (as.ts).
    let frequency = super::ts::frequency_of(xv);
    let x_tsp = super::ts::has_tsp(xv);
    let xv = names::bare(xv);
    if xv.dims().is_some_and(|(_, c)| c > 1) {
        return Err(err("only implemented for univariate time series"));
    }
    let method = super::acf::match_arg(
        args.get("method").map(names::bare),
        &["CSS-ML", "ML", "CSS"],
    )?;
    // as.ts(x)
    if matches!(xv, Value::Null) || xv.is_empty() {
        return Err(err("'ts' object must have one or more observations"));
    }
    let x: Vec<f64> = match xv {
        Value::Num(v) => v.clone(),
        Value::Mat(m) => m.as_slice().to_vec(),
        Value::List(_) => {
            return Err(err(
                "flowcast refuses a list or data frame as 'x': arima fits one numeric series",
            ))
        }
        _ => return Err(err("'x' must be numeric")),
    };
    let n = x.len();

    let order: Vec<f64> = match args.get("order") {
        None => vec![0.0; 3],
        Some(v) => match numbers(v) {
            Some(o) if o.len() == 3 => {
                if o.iter().any(|v| v.is_nan()) {
                    return Err(err("missing value where TRUE/FALSE needed"));
                }
                if o.iter().any(|&v| v < 0.0) {
                    return Err(err(
                        "'order' must be a non-negative numeric vector of length 3",
                    ));
                }
                o
            }
            _ => {
                return Err(err(
                    "'order' must be a non-negative numeric vector of length 3",
                ))
            }
        },
    };
    let seasonal_bad = || err("'seasonal$order' must be a non-negative numeric vector of length 3");
    let (sorder, speriod): (Vec<f64>, Option<f64>) = match args.get("seasonal").map(names::bare) {
        None => (vec![0.0; 3], None),
        Some(Value::List(l)) => {
            let o = l
                .field("order")
                .ok_or_else(|| err("'seasonal' must be a list with component 'order'"))?;
            let o = numbers(o)
                .filter(|o| o.len() == 3)
                .ok_or_else(seasonal_bad)?;
            if o.iter().any(|v| v.is_nan()) {
                return Err(err("missing value where TRUE/FALSE needed"));
            }
            if o.iter().any(|&v| v < 0.0) {
                return Err(seasonal_bad());
            }
            let period = match l.field("period").map(names::bare) {
                None | Some(Value::Null) => None,
                Some(v) => match v.as_f64_slice() {
                    Some(p) if !p.is_empty() => Some(p[0]),
                    _ => return Err(err("argument is of length zero")),
                },
            };
            (o, period)
        }
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            // R makes list(order = seasonal) without checking it; a
            // malformed order then fails later in R's own way.
            let o = numbers(v)
                .filter(|o| o.len() == 3)
                .ok_or_else(seasonal_bad)?;
            if o.iter().any(|v| v.is_nan() || *v < 0.0) {
                return Err(seasonal_bad());
            }
            (o, None)
        }
        Some(_) => return Err(err("'seasonal' must be a list with component 'order'")),
    };
    // A period not given (or NA, or 0) is frequency(x).
    let period = match speriod {
        Some(p) if !p.is_nan() && p != 0.0 => p,
        _ => frequency,
    };
    if period < 0.0 {
        return Err(err(
            "flowcast refuses a negative seasonal period (R goes on to fail in its C code)",
        ));
    }
    let arma: Arma = [
        order_int(order[0])?,
        order_int(order[2])?,
        order_int(sorder[0])?,
        order_int(sorder[2])?,
        order_int(period)?,
        order_int(order[1])?,
        order_int(sorder[1])?,
    ];
    let ns = arma[4];
    let narma = arma[0] + arma[1] + arma[2] + arma[3];
    let nd = arma[5] + arma[6];
    // The lengths of phi and theta, and of Delta.
    let pfull = arma[0].saturating_add(ns.saturating_mul(arma[2]));
    let qfull = arma[1].saturating_add(ns.saturating_mul(arma[3]));
    let ndelta = arma[6]
        .checked_mul(ns)
        .and_then(|v| v.checked_add(arma[5]))
        .unwrap_or(usize::MAX);
    let non_na = x.iter().filter(|v| !v.is_nan()).count();

    // Delta, built only when it leaves observations (otherwise R stops at
    // n.used below, after a build as long as the differences).
    let delta: Vec<f64> = if ndelta < non_na {
        let mut d = vec![1.0];
        for _ in 0..arma[5] {
            d = ts_conv(&d, &[1.0, -1.0]);
        }
        if arma[6] > 0 && period < 1.0 {
            return Err(err("invalid 'times' argument"));
        }
        // c(1, rep.int(0, period - 1), -1)
        let mut seas = vec![0.0; ns + 1];
        seas[0] = 1.0;
        seas[ns] = -1.0;
        for _ in 0..arma[6] {
            d = ts_conv(&d, &seas);
        }
        d[1..].iter().map(|v| -v).collect()
    } else {
        Vec::new()
    };
    let mut n_used = non_na as f64 - ndelta as f64;

    // xreg
    let xreg_given = args.get("xreg").map(|v| (names::bare(v), v));
    let (mut xreg, mut ncxreg, mut cn): (Vec<f64>, usize, Vec<String>) = match xreg_given {
        None | Some((Value::Null, _)) => (Vec::new(), 0, Vec::new()),
        Some((Value::List(_), _)) => {
            return Err(err(
                "flowcast refuses a data frame or list as 'xreg': give a numeric vector or matrix",
            ))
        }
        Some((v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)), named)) => {
            let (rows, cols) = v.dims().unwrap_or((v.len(), 1));
            if rows != n {
                return Err(err("lengths of 'x' and 'xreg' do not match"));
            }
            let data = v.as_f64_slice().map(|d| d.into_owned()).unwrap_or_default();
            // deparse1(substitute(xreg)) names unnamed columns; the
            // evaluator puts the call's text in (see `name_xreg`).
            let names = match names::dimnames(named).1 {
                Some(c) => c.to_vec(),
                None if cols == 1 => vec!["xreg".to_string()],
                None => (1..=cols).map(|i| format!("xreg{i}")).collect(),
            };
            (data, cols, names)
        }
        Some(_) => {
            return Err(err(
                "flowcast refuses a non-numeric 'xreg' (R's regression on it fails)",
            ))
        }
    };
    let include_mean = args.bool_or("include.mean", true)?;
    if include_mean && nd == 0 {
        let mut with = vec![1.0; n];
        with.extend_from_slice(&xreg);
        xreg = with;
        cn.insert(0, "intercept".to_string());
        ncxreg += 1;
    }
    let mut method = method;
    if method == "CSS-ML" {
        let anyna = x.iter().any(|v| v.is_nan()) || xreg.iter().any(|v| v.is_nan());
        if anyna {
            method = "ML";
        }
    }
    let mut ncond = 0usize;
    if method == "CSS" || method == "CSS-ML" {
        let base = arma[5] + arma[6] * ns;
        let ncond1 = arma[0] + ns * arma[2];
        let extra = match args.get("n.cond") {
            None => ncond1,
            Some(v) => {
                let given = numbers(v)
                    .and_then(|v| v.first().copied())
                    .ok_or_else(|| err("invalid 'type' (character) of argument"))?;
                if given.is_nan() || given > 1e9 {
                    return Err(err(
                        "flowcast refuses an 'n.cond' that is NA or beyond the series",
                    ));
                }
                // max(n.cond, ncond1), then as.integer.
                given.max(ncond1 as f64).max(0.0).trunc() as usize
            }
        };
        ncond = base + extra;
    }

    let npar = narma + ncxreg;
    // optim(hessian = TRUE) needs an npar x npar matrix, so an order of 1e9
    // ends in R's "cannot allocate"; checked before the parameter vectors
    // so that flowcast fails at once instead of filling the machine's
    // memory with them first.
    alloc::ensure_room((npar as f64).powi(2) * 8.0)?;
    let fixed: Vec<f64> = match args.get("fixed").map(names::bare) {
        None | Some(Value::Null) => vec![NA; npar],
        Some(v) => {
            let f: Vec<f64> = match v {
                Value::Bool(b) => b
                    .iter()
                    .map(|b| b.map_or(NA, |b| f64::from(u8::from(b))))
                    .collect(),
                v => numbers(v).ok_or_else(|| err("wrong length for 'fixed'"))?,
            };
            if f.len() != npar {
                return Err(err("wrong length for 'fixed'"));
            }
            f
        }
    };
    let mask: Vec<bool> = fixed.iter().map(|v| v.is_nan()).collect();
    let no_optim = !mask.iter().any(|&m| m);
    let mut transform_pars = args.bool_or("transform.pars", true)?;
    if no_optim {
        transform_pars = false;
    }
    if transform_pars {
        let ar_fixed =
            (0..arma[0]).any(|i| !mask[i]) || (0..arma[2]).any(|i| !mask[arma[0] + arma[1] + i]);
        if ar_fixed {
            ctx.warn("some AR parameters were fixed: setting transform.pars = FALSE");
            transform_pars = false;
        }
    }
    let mut init0 = vec![0.0; narma];
    let mut parscale = vec![1.0; narma];
    let mut sv: Option<DMatrix<f64>> = None;
    if ncxreg > 0 {
        let orig_xreg = ncxreg == 1 || (0..ncxreg).any(|i| !mask[narma + i]);
        if !orig_xreg {
            let complete: Vec<usize> = (0..n)
                .filter(|&i| (0..ncxreg).all(|j| !xreg[i + j * n].is_nan()))
                .collect();
            if complete.len() < ncxreg {
                return Err(err(
                    "flowcast refuses an 'xreg' with fewer complete rows than columns \
                     (R's rotation of it by svd() then fails)",
                ));
            }
            let rows = DMatrix::from_fn(complete.len(), ncxreg, |i, j| xreg[complete[i] + j * n]);
            let s = super::linalg::svd(&rows, ncxreg, ncxreg)?;
            let v =
                s.v.ok_or_else(|| err("svd gave no right singular vectors"))?;
            xreg = matprod(&xreg, n, ncxreg, v.as_slice(), ncxreg);
            sv = Some(v);
        }
        let (mut dx, mut dxreg) = (x.clone(), xreg.clone());
        let mut len = n;
        if arma[5] > 0 {
            (dx, _) = diff_cols(&dx, len, 1, 1, arma[5]);
            (dxreg, len) = diff_cols(&dxreg, len, ncxreg, 1, arma[5]);
        }
        if ns > 1 && arma[6] > 0 {
            (dx, _) = diff_cols(&dx, len, 1, ns, arma[6]);
            (dxreg, len) = diff_cols(&dxreg, len, ncxreg, ns, arma[6]);
        }
        let mut fit = if len > ncxreg {
            lm_start(&dx, &dxreg, len, ncxreg)?
        } else {
            None
        };
        if fit.is_none() {
            // Degenerate model: R proceeds anyway so as not to break old
            // code.
            fit = lm_start(&x, &xreg, n, ncxreg)?;
        }
        let (coef, ses) = fit.ok_or_else(|| {
            err("flowcast refuses an 'xreg' of rank 0 (R's starting values are then NA)")
        })?;
        let isna = |i: usize| x[i].is_nan() || (0..ncxreg).any(|j| xreg[i + j * n].is_nan());
        n_used = (0..n).filter(|&i| !isna(i)).count() as f64 - ndelta as f64;
        init0.extend(coef);
        parscale.extend(ses.iter().map(|s| 10.0 * s));
    }
    if n_used <= 0.0 {
        return Err(err("too few non-missing observations"));
    }
    let r = pfull.max(qfull.saturating_add(1));
    if r > MAX_LAG {
        return Err(err("maximum supported lag is 350"));
    }
    if r + delta.len() > MAX_STATE {
        return Err(err(format!(
            "flowcast refuses a state vector of length {} (at most {MAX_STATE}): the Kalman \
             filter updates its square covariance at every observation",
            r + delta.len()
        )));
    }

    let mut init: Vec<f64> = match args.get("init").map(names::bare) {
        None | Some(Value::Null) => init0.clone(),
        Some(v) => {
            let mut init: Vec<f64> = match v {
                Value::Bool(b) if b.iter().all(Option::is_none) => vec![NA; b.len()],
                v => numbers(v).ok_or_else(|| err("'init' is of the wrong length"))?,
            };
            if init.len() != init0.len() {
                return Err(err("'init' is of the wrong length"));
            }
            for (i, v) in init.iter_mut().enumerate() {
                if v.is_nan() {
                    *v = init0[i];
                }
            }
            if method == "ML" {
                // Check stationarity.
                if arma[0] > 0 && !ar_check(&init[..arma[0]])? {
                    return Err(err("non-stationary AR part"));
                }
                let s = arma[0] + arma[1];
                if arma[2] > 0 && !ar_check(&init[s..s + arma[2]])? {
                    return Err(err("non-stationary seasonal AR part"));
                }
                if transform_pars {
                    init = invtrans(&init, &arma)?;
                }
            }
            init
        }
    };

    let mut coef = fixed.clone();
    let mut control = list_fields(args.get("optim.control").unwrap_or(&Value::Null));
    let masked = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .zip(&mask)
            .filter(|(_, &m)| m)
            .map(|(v, _)| *v)
            .collect()
    };
    if !control.iter().any(|(n, _)| n == "parscale") {
        control.push(("parscale".to_string(), Value::Num(masked(&parscale))));
    }
    let control_parscale = control
        .iter()
        .find(|(n, _)| n == "parscale")
        .map(|(_, v)| v.clone())
        .unwrap_or(Value::Null);
    let control = control_list(control);
    // optim.method = "BFGS" (optim's own default is Nelder-Mead).
    let bfgs = Value::string("BFGS");
    let optim_method = Some(args.get("optim.method").map_or(&bfgs, names::bare));
    let kappa = match args.get("kappa") {
        None => 1e6,
        Some(v) => numbers(v)
            .and_then(|v| v.first().copied())
            .ok_or_else(|| err("non-numeric argument to binary operator"))?,
    };

    // arima.R's armaCSS.
    let arma_css = |p: &[f64]| -> f64 {
        let mut par = fixed.clone();
        let mut k = 0;
        for (i, m) in mask.iter().enumerate() {
            if *m {
                par[i] = p[k];
                k += 1;
            }
        }
        let Ok((phi, theta)) = trans_pars(&par, &arma, false) else {
            return f64::NAN;
        };
        let xx = if ncxreg > 0 {
            regress_out(&x, &xreg, ncxreg, &par[narma..narma + ncxreg])
        } else {
            x.clone()
        };
        let (res, _) = arima_css(&xx, &arma, &phi, &theta, ncond);
        0.5 * res.ln()
    };
    let warn_code = |code: i64, ctx: &mut Ctx| {
        if code > 0 {
            ctx.warn(format!(
                "possible convergence problem: optim gave code = {code}"
            ));
        }
    };

    let res_value;
    let res_code;
    let sigma2;
    let resid;
    let final_model;
    let mut var: Option<DMatrix<f64>> = None;
    if method == "CSS" {
        let (value, code, hessian) = if no_optim {
            (arma_css(&[]), 0, None)
        } else {
            let o = super::optim::optim_native(
                &masked(&init),
                &arma_css,
                optim_method,
                None,
                Some(&control),
                true,
                ctx,
            )?;
            let mut k = 0;
            for (i, m) in mask.iter().enumerate() {
                if *m {
                    coef[i] = o.par[k];
                    k += 1;
                }
            }
            (o.value, o.convergence, o.hessian)
        };
        warn_code(code, ctx);
        res_value = value;
        res_code = code;
        let (phi, theta) = trans_pars(&coef, &arma, false)?;
        // arimaSS: the state after the series, for predict.
        let mut model = make_arima(phi.clone(), theta.clone(), &delta, kappa, ss_g, ctx)?;
        let xx = if ncxreg > 0 {
            regress_out(&x, &xreg, ncxreg, &coef[narma..narma + ncxreg])
        } else {
            x.clone()
        };
        arima_like(&xx, &mut model, 0, true);
        final_model = Some(model);
        let (s2, rs) = arima_css(&xx, &arma, &phi, &theta, ncond);
        sigma2 = s2;
        resid = rs;
        if let Some(h) = hessian {
            var = Some(super::linalg::solve(&(h * n_used), None, f64::EPSILON)?);
        }
    } else {
        if method == "CSS-ML" {
            let (code, par) = if no_optim {
                (0, Vec::new())
            } else {
                let o = super::optim::optim_native(
                    &masked(&init),
                    &arma_css,
                    optim_method,
                    None,
                    Some(&control),
                    false,
                    ctx,
                )?;
                (o.convergence, o.par)
            };
            if code == 0 {
                let mut k = 0;
                for (i, m) in mask.iter().enumerate() {
                    if *m {
                        init[i] = par[k];
                        k += 1;
                    }
                }
            }
            // Check stationarity.
            if arma[0] > 0 && !ar_check(&init[..arma[0]])? {
                return Err(err("non-stationary AR part from CSS"));
            }
            let s = arma[0] + arma[1];
            if arma[2] > 0 && !ar_check(&init[s..s + arma[2]])? {
                return Err(err("non-stationary seasonal AR part from CSS"));
            }
            ncond = 0;
        }
        if transform_pars {
            init = invtrans(&init, &arma)?;
            // Enforce invertibility.
            if arma[1] > 0 {
                let ind = arma[0]..arma[0] + arma[1];
                let inv = ma_invert(&init[ind.clone()])?;
                init[ind].copy_from_slice(&inv);
            }
            if arma[3] > 0 {
                let s = arma[0] + arma[1] + arma[2];
                let ind = s..s + arma[3];
                let inv = ma_invert(&init[ind.clone()])?;
                init[ind].copy_from_slice(&inv);
            }
        }
        let (phi, theta) = trans_pars(&init, &arma, transform_pars)?;
        let model = make_arima(phi, theta, &delta, kappa, ss_g, ctx)?;
        // arima.R's armafn; partrans's error (over 100 AR parameters)
        // escapes R's tryCatch, which only guards upARIMA.
        let trans_error = std::cell::RefCell::new(None);
        // coef is still as.double(fixed) wherever armafn reads it.
        let armafn = |p: &[f64], trans: bool| -> f64 {
            let mut par = fixed.clone();
            let mut k = 0;
            for (i, m) in mask.iter().enumerate() {
                if *m {
                    par[i] = p[k];
                    k += 1;
                }
            }
            let (phi, theta) = match trans_pars(&par, &arma, trans) {
                Ok(t) => t,
                Err(e) => {
                    trans_error.borrow_mut().get_or_insert(e);
                    return f64::NAN;
                }
            };
            let Ok(mut z) = up_arima(&model, phi, theta, ss_g) else {
                // Bad parameters giving an error, e.g. in solve(.).
                return f64::MAX;
            };
            let xx = if ncxreg > 0 {
                regress_out(&x, &xreg, ncxreg, &par[narma..narma + ncxreg])
            } else {
                x.clone()
            };
            let (res, _) = arima_like(&xx, &mut z, 0, false);
            let s2 = res[0] / res[2];
            0.5 * (s2.ln() + res[1] / res[2])
        };
        let take_error = || trans_error.borrow_mut().take();
        let fn_trans = |p: &[f64]| armafn(p, transform_pars);
        let (mut value, mut code, mut par, mut hessian) = if no_optim {
            (armafn(&[], transform_pars), 0, Vec::new(), None)
        } else {
            let o = super::optim::optim_native(
                &masked(&init),
                &fn_trans,
                optim_method,
                None,
                Some(&control),
                true,
                ctx,
            );
            if let Some(e) = take_error() {
                return Err(e);
            }
            let o = o?;
            (o.value, o.convergence, o.par, o.hessian)
        };
        warn_code(code, ctx);
        let mut k = 0;
        for (i, m) in mask.iter().enumerate() {
            if *m {
                coef[i] = par[k];
                k += 1;
            }
        }
        if transform_pars {
            // Enforce invertibility.
            if arma[1] > 0 {
                let ind = arma[0]..arma[0] + arma[1];
                if mask[ind.clone()].iter().all(|&m| m) {
                    let inv = ma_invert(&coef[ind.clone()])?;
                    coef[ind].copy_from_slice(&inv);
                }
            }
            if arma[3] > 0 {
                let s = arma[0] + arma[1] + arma[2];
                let ind = s..s + arma[3];
                if mask[ind.clone()].iter().all(|&m| m) {
                    let inv = ma_invert(&coef[ind.clone()])?;
                    coef[ind].copy_from_slice(&inv);
                }
            }
            if masked(&coef).iter().zip(&par).any(|(a, b)| a != b) {
                // Need to re-fit: the Hessian at the inverted MA part.
                let oldcode = code;
                let refit = control_list(vec![
                    ("maxit".to_string(), Value::scalar(0.0)),
                    ("parscale".to_string(), control_parscale.clone()),
                ]);
                let fn_true = |p: &[f64]| armafn(p, true);
                let o = super::optim::optim_native(
                    &masked(&coef),
                    &fn_true,
                    optim_method,
                    None,
                    Some(&refit),
                    true,
                    ctx,
                );
                if let Some(e) = take_error() {
                    return Err(e);
                }
                let o = o?;
                (value, par, hessian) = (o.value, o.par, o.hessian);
                code = oldcode;
                let mut k = 0;
                for (i, m) in mask.iter().enumerate() {
                    if *m {
                        coef[i] = par[k];
                        k += 1;
                    }
                }
            }
            // Done this way to ensure the Hessian was computed inside the
            // stationarity region.
            let a = gradtrans(&coef, &arma)?;
            let idx: Vec<usize> = (0..npar).filter(|&i| mask[i]).collect();
            let a = DMatrix::from_fn(idx.len(), idx.len(), |i, j| a[(idx[i], idx[j])]);
            let h = hessian.ok_or_else(|| err("optim gave no Hessian"))?;
            let s = super::linalg::solve(&(h * n_used), Some(&a), f64::EPSILON)?;
            // crossprod(A, s)
            let k = idx.len();
            let at: Vec<f64> = a.transpose().as_slice().to_vec();
            var = Some(DMatrix::from_vec(k, k, matprod(&at, k, k, s.as_slice(), k)));
            coef = undo_pars(&coef, &arma)?;
        } else if let Some(h) = hessian {
            var = Some(super::linalg::solve(&(h * n_used), None, f64::EPSILON)?);
        }
        res_value = value;
        res_code = code;
        let (phi, theta) = trans_pars(&coef, &arma, false)?;
        let mut model = make_arima(phi, theta, &delta, kappa, ss_g, ctx)?;
        let xx = if ncxreg > 0 {
            regress_out(&x, &xreg, ncxreg, &coef[narma..narma + ncxreg])
        } else {
            x.clone()
        };
        let (val, rs) = arima_like(&xx, &mut model, 0, true);
        sigma2 = val[0] / n_used;
        resid = rs;
        final_model = Some(model);
    }
    let value = 2.0 * n_used * res_value + n_used + n_used * (2.0 * std::f64::consts::PI).ln();
    let nmask = mask.iter().filter(|&&m| m).count() as f64;
    let aic = if method != "CSS" {
        value + 2.0 * nmask + 2.0
    } else {
        NA
    };
    let mut nm: Vec<String> = Vec::new();
    nm.extend((1..=arma[0]).map(|i| format!("ar{i}")));
    nm.extend((1..=arma[1]).map(|i| format!("ma{i}")));
    nm.extend((1..=arma[2]).map(|i| format!("sar{i}")));
    nm.extend((1..=arma[3]).map(|i| format!("sma{i}")));
    if ncxreg > 0 {
        nm.extend(cn);
        if let Some(v) = &sv {
            let rotated = matprod(
                v.as_slice(),
                ncxreg,
                ncxreg,
                &coef[narma..narma + ncxreg],
                1,
            );
            coef[narma..narma + ncxreg].copy_from_slice(&rotated);
            let mut a = DMatrix::<f64>::identity(npar, npar);
            for i in 0..ncxreg {
                for j in 0..ncxreg {
                    a[(narma + i, narma + j)] = v[(i, j)];
                }
            }
            let idx: Vec<usize> = (0..npar).filter(|&i| mask[i]).collect();
            let k = idx.len();
            let a = DMatrix::from_fn(k, k, |i, j| a[(idx[i], idx[j])]);
            if let Some(vc) = &var {
                let av = matprod(a.as_slice(), k, k, vc.as_slice(), k);
                let at = a.transpose();
                var = Some(DMatrix::from_vec(
                    k,
                    k,
                    matprod(&av, k, k, at.as_slice(), k),
                ));
            }
        }
    }
    let var_coef = match var {
        Some(v) if !no_optim => {
            let kept: Vec<String> = nm
                .iter()
                .zip(&mask)
                .filter(|(_, &m)| m)
                .map(|(n, _)| n.clone())
                .collect();
            names::dimnamed(Value::Mat(v), Some(kept.clone()), Some(kept))
        }
        _ => Value::Num(Vec::new()),
    };
    let arma_out: Vec<f64> = arma.iter().map(|&v| v as f64).collect();
    Ok(Value::List(List::record(
        "Arima",
        vec![
            ("coef", names::named(Value::Num(coef), nm)),
            ("sigma2", Value::scalar(sigma2)),
            ("var.coef", var_coef),
            ("mask", Value::Bool(mask.iter().map(|&m| Some(m)).collect())),
            ("loglik", Value::scalar(-0.5 * value)),
            ("aic", Value::scalar(aic)),
            ("arma", Value::Num(arma_out)),
            ("residuals", super::ts::with_tsp(Value::Num(resid), x_tsp)),
            ("code", Value::scalar(res_code as f64)),
            ("n.cond", Value::scalar(ncond as f64)),
            ("nobs", Value::scalar(n_used)),
            ("model", final_model.map_or(Value::Null, model_value)),
        ],
    )))
}

/// The class of `arima`'s value.
pub(crate) const CLASS: &str = "Arima";

pub(crate) fn is_arima(v: Option<&Value>) -> bool {
    matches!(v.map(names::bare), Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

/// makeARIMA's list, with the state `a`, `P` and `Pn` as the last
/// ARIMA_Like left them: `T`, `V`, `Z` and `h` rebuilt as makeARIMA
/// builds them, for KalmanForecast.
fn model_value(m: Model) -> Value {
    let rd = m.a.len();
    let (t, v, z) = state_space(&m.phi, &m.theta, &m.delta);
    let mat = |x: Vec<f64>| Value::Mat(DMatrix::from_vec(rd, rd, x));
    Value::List(List::named(vec![
        ("phi", Value::Num(m.phi)),
        ("theta", Value::Num(m.theta)),
        ("Delta", Value::Num(m.delta)),
        ("Z", Value::Num(z)),
        ("a", Value::Num(m.a)),
        ("P", mat(m.p)),
        ("T", mat(t)),
        ("V", mat(v)),
        ("h", Value::scalar(0.0)),
        ("Pn", mat(m.pn)),
    ]))
}

/// `makeARIMA(phi, theta, Delta, kappa, SSinit, tol)`'s list, for the
/// makeARIMA function itself.
pub(crate) fn make_arima_value(
    phi: Vec<f64>,
    theta: Vec<f64>,
    delta: &[f64],
    kappa: f64,
    ss_g: bool,
    tol: f64,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let r = phi.len().max(theta.len() + 1);
    if r + delta.len() > MAX_STATE {
        return Err(err(format!(
            "flowcast's makeARIMA takes a state of at most {MAX_STATE} elements, not {}",
            r + delta.len()
        )));
    }
    Ok(model_value(make_arima_tol(
        phi, theta, delta, kappa, ss_g, tol, ctx,
    )?))
}

/// makeARIMA's `T`, `V` (column-major `rd x rd`) and `Z`; `theta` is
/// already padded to `r - 1`.
fn state_space(phi: &[f64], theta: &[f64], delta: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let p = phi.len();
    let r = p.max(theta.len() + 1);
    let d = delta.len();
    let rd = r + d;
    let mut z = vec![0.0; rd];
    z[0] = 1.0;
    z[r..].copy_from_slice(delta);
    let mut t = vec![0.0; rd * rd];
    t[..p].copy_from_slice(phi);
    for i in 1..r {
        t[(i - 1) + i * rd] = 1.0;
    }
    if d > 0 {
        for j in 0..rd {
            t[r + j * rd] = z[j];
        }
        for i in r + 1..rd {
            t[i + (i - 1) * rd] = 1.0;
        }
    }
    let mut rv = vec![0.0; rd];
    rv[0] = 1.0;
    rv[1..r].copy_from_slice(&theta[..r - 1]);
    let mut v = vec![0.0; rd * rd];
    for j in 0..rd {
        for i in 0..rd {
            v[i + j * rd] = rv[i] * rv[j];
        }
    }
    (t, v, z)
}

/// The numbers of a field of an Arima fit.
fn fit_nums(l: &List, name: &str) -> Result<Vec<f64>, KernelError> {
    l.field(name)
        .map(names::bare)
        .and_then(Value::as_f64_slice)
        .map(|v| v.into_owned())
        .ok_or_else(|| err(format!("an Arima fit without its '{name}'")))
}

/// logLik.Arima: the log-likelihood (NA when the fit has no AIC, as
/// for method "CSS"), its `df` (the estimated coefficients and sigma2)
/// and `nobs`.
pub(crate) fn log_lik(object: &Value) -> Result<(f64, f64, f64), KernelError> {
    let Value::List(l) = names::bare(object) else {
        return Err(err("not an Arima fit"));
    };
    let aic = fit_nums(l, "aic")?.first().copied().unwrap_or(NA);
    let loglik = fit_nums(l, "loglik")?.first().copied().unwrap_or(NA);
    let df = match l.field("mask").map(names::bare) {
        Some(Value::Bool(m)) => m.iter().filter(|m| **m == Some(true)).count() as f64 + 1.0,
        _ => return Err(err("an Arima fit without its 'mask'")),
    };
    let nobs = fit_nums(l, "nobs")?.first().copied().unwrap_or(NA);
    Ok((if aic.is_nan() { NA } else { loglik }, df, nobs))
}

/// arima.R's `predict.Arima` with arima.c's `KalmanFore` (kalman.rs): the
/// forecasts `n.ahead` steps past the series from the fit's final state,
/// plus its mean, and their standard errors, as series starting one step
/// after the data.
pub(crate) fn predict(
    object: &Value,
    n_ahead: Option<&Value>,
    newxreg: Option<&Value>,
    se_fit: Option<&Value>,
) -> Result<Value, KernelError> {
    let Value::List(l) = names::bare(object) else {
        return Err(err("not an Arima fit"));
    };
    let newxreg = newxreg.is_some_and(|v| !matches!(names::bare(v), Value::Null));
    let se_fit = super::logical::if_given(se_fit, true)?;
    let n = match n_ahead.map(names::bare) {
        None => 1.0,
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| err("flowcast takes one number as 'n.ahead'"))?,
    };
    let n = n.trunc();
    if n.is_nan() || n < 0.0 {
        return Err(err("invalid 'n.ahead'"));
    }
    if n > 1e7 {
        return Err(err(
            "flowcast's predict of an arima fit takes an 'n.ahead' up to 1e7",
        ));
    }
    let n = n as usize;
    let rsd = l
        .field("residuals")
        .ok_or_else(|| err("an Arima fit without its 'residuals'"))?;
    let xtsp = super::ts::has_tsp(rsd);
    let arma = fit_nums(l, "arma")?;
    let coef_value = l
        .field("coef")
        .ok_or_else(|| err("an Arima fit without its 'coef'"))?;
    let coefs = names::bare(coef_value)
        .as_f64_slice()
        .ok_or_else(|| err("an Arima fit without its 'coef'"))?;
    let narma = arma.iter().take(4).sum::<f64>() as usize;
    let coef_names = names::names(coef_value).unwrap_or_default();
    let intercept = coef_names.get(narma).map(String::as_str) == Some("intercept");
    let ncxreg = coefs.len().saturating_sub(narma + usize::from(intercept));
    if ncxreg > 0 {
        return Err(err(
            "flowcast's predict of an arima fit takes no 'newxreg': it forecasts fits without 'xreg'",
        ));
    }
    if newxreg {
        return Err(err(
            "'xreg' and 'newxreg' have different numbers of columns",
        ));
    }
    let xm = if intercept { coefs[narma] } else { 0.0 };
    if n == 0 {
        // R's cbind(intercept = rep(1, 0)) %*% coef, else ts(numeric(0)).
        return Err(err(if intercept {
            "non-conformable arguments"
        } else {
            "'ts' object must have one or more observations"
        }));
    }
    let Some(Value::List(model)) = l.field("model").map(names::bare) else {
        return Err(err("an Arima fit without its 'model'"));
    };
    let mnum = |name: &str| fit_nums(model, name);
    let (a, pp, t, v, z) = (mnum("a")?, mnum("P")?, mnum("T")?, mnum("V")?, mnum("Z")?);
    let h = mnum("h")?.first().copied().unwrap_or(0.0);
    let p = a.len();
    if pp.len() != p * p || t.len() != p * p || v.len() != p * p || z.len() != p {
        return Err(err("an Arima fit whose 'model' is not a state-space model"));
    }
    let mut model = super::kalman::StateSpace {
        z,
        a,
        p: pp,
        t,
        v,
        h,
        pn: Vec::new(),
    };
    let (forecasts, se) = super::kalman::kalman_fore(n, &mut model);
    let f = xtsp[2];
    let start = xtsp[1] + 1.0 / f;
    let tsp = [start, start + (n as f64 - 1.0) / f, f];
    let pred = super::ts::with_tsp(Value::Num(forecasts.iter().map(|v| v + xm).collect()), tsp);
    if !se_fit {
        return Ok(pred);
    }
    let sigma2 = fit_nums(l, "sigma2")?.first().copied().unwrap_or(NA);
    let se = super::ts::with_tsp(
        Value::Num(se.iter().map(|v| (v * sigma2).sqrt()).collect()),
        tsp,
    );
    Ok(Value::List(List::named(vec![("pred", pred), ("se", se)])))
}

/// `deparse1(substitute(xreg))` names the coefficients of an `xreg`
/// without column names; the kernel, which never sees the call, names
/// them "xreg" (or "xreg1", "xreg2", ...) and the evaluator calls this
/// with the argument's text, for `coef` and `var.coef`'s dimnames.
pub(crate) fn name_xreg(value: &mut Value, text: &str, ncol: usize) {
    let Value::List(l) = value else { return };
    let new_name = |old: &str| -> Option<String> {
        if ncol == 1 {
            return (old == "xreg").then(|| text.to_string());
        }
        let i: usize = old.strip_prefix("xreg")?.parse().ok()?;
        (1..=ncol).contains(&i).then(|| format!("{text}{i}"))
    };
    let rename = |names: &mut Vec<String>| {
        for n in names.iter_mut() {
            if let Some(new) = new_name(n) {
                *n = new;
            }
        }
    };
    let fields = l.names.clone().unwrap_or_default();
    for (field, item) in fields.iter().zip(l.items.iter_mut()) {
        if let ("coef" | "var.coef", Value::Named(n)) = (field.as_str(), item) {
            n.names.as_mut().map(rename);
            n.rownames.as_mut().map(rename);
            n.colnames.as_mut().map(rename);
        }
    }
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::Bool { .. })) = args.ty("x") {
        return Err(args.error("x", format!("'x' must be numeric, not {}", t.describe())));
    }
    let n = args.ty("x").and_then(Type::len);
    let v = Type::num_unknown;
    Ok(Type::record(
        "Arima",
        vec![
            ("coef", v()),
            ("sigma2", Type::num(1)),
            ("var.coef", Type::Any),
            ("mask", Type::logical(None)),
            ("loglik", Type::num(1)),
            ("aic", Type::num(1)),
            ("arma", Type::num(7)),
            ("residuals", n.map_or_else(v, Type::num)),
            ("code", Type::num(1)),
            ("n.cond", Type::num(1)),
            ("nobs", Type::num(1)),
            ("model", Type::Any),
        ],
    ))
}
