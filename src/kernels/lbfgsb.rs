//! L-BFGS-B (version 2.3, as R ships it in src/appl/lbfgsb.c) and the
//! driver `lbfgsb` of src/appl/optim.c. The reverse communication of
//! `setulb` (the "FG" and "NEW_X" tasks handed back to the driver) is
//! turned into calls of the driver's objective, at the same points and
//! in the same order; the routines keep the C's 1-based indexing (index 0
//! of each vector unused, matrices column-major with an `at` helper) and
//! its arithmetic order, with the reference BLAS (`linalg::blas`) and
//! LINPACK's `dpofa` and `dtrsl` written out as the Fortran computes them.

// The routines index as the C does, so they can be read against it.
#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

use super::linalg::blas::{daxpy, ddot, dscal};

/// The C's `max(a, b)` macro: `(a < b) ? b : a`.
fn cmax(a: f64, b: f64) -> f64 {
    if a < b {
        b
    } else {
        a
    }
}

/// The C's `min(a, b)` macro: `(a > b) ? b : a`.
fn cmin(a: f64, b: f64) -> f64 {
    if a > b {
        b
    } else {
        a
    }
}

/// A column-major matrix with leading dimension `ld`, indexed from 1 and
/// starting at offset `off` of its storage (the C passes sub-matrices as
/// pointers into a larger one).
#[derive(Clone, Copy)]
struct Mat {
    off: usize,
    ld: usize,
}

impl Mat {
    fn at(self, i: usize, j: usize) -> usize {
        self.off + (i - 1) + (j - 1) * self.ld
    }
}

/// LINPACK `dpofa`: the Cholesky factor of the `n` x `n` matrix `a`,
/// in its upper triangle. Returns `info` (0, or the order of the leading
/// minor that is not positive definite).
fn dpofa(s: &mut [f64], a: Mat, n: usize) -> usize {
    for j in 1..=n {
        let mut sum = 0.0;
        for k in 1..j {
            let mut d = 0.0;
            for i in 1..k {
                d += s[a.at(i, k)] * s[a.at(i, j)];
            }
            let mut t = s[a.at(k, j)] - d;
            t /= s[a.at(k, k)];
            s[a.at(k, j)] = t;
            sum += t * t;
        }
        let v = s[a.at(j, j)] - sum;
        if v <= 0.0 {
            return j;
        }
        s[a.at(j, j)] = v.sqrt();
    }
    0
}

/// LINPACK `dtrsl` for an upper triangular `t` (`job` 01: t x = b; `job`
/// 11: t' x = b), `b` indexed from 1. Returns `info` (0, or the index of
/// a zero diagonal element).
fn dtrsl(s: &[f64], t: Mat, n: usize, b: &mut [f64], job: u32) -> usize {
    for info in 1..=n {
        if s[t.at(info, info)] == 0.0 {
            return info;
        }
    }
    if n == 0 {
        return 0;
    }
    if job == 1 {
        // t x = b, t upper triangular.
        b[n] /= s[t.at(n, n)];
        for jj in 2..=n {
            let j = n - jj + 1;
            let temp = -b[j + 1];
            if temp != 0.0 {
                for i in 1..=j {
                    b[i] += temp * s[t.at(i, j + 1)];
                }
            }
            b[j] /= s[t.at(j, j)];
        }
    } else {
        // t' x = b, t upper triangular.
        b[1] /= s[t.at(1, 1)];
        for j in 2..=n {
            let mut d = 0.0;
            for i in 1..j {
                d += s[t.at(i, j)] * b[i];
            }
            b[j] -= d;
            b[j] /= s[t.at(j, j)];
        }
    }
    0
}

/// What the driver hands back to optim.c.
pub(super) struct Outcome {
    pub value: f64,
    pub fail: i64,
    pub count: i64,
    pub message: String,
}

/// The objective as the driver evaluates it at "FG": fn's value (fminfn)
/// and its gradient (fmingr) at `x`.
pub(super) type Fg<'a, E> = dyn FnMut(&[f64], &mut [f64]) -> Result<f64, E> + 'a;

/// `dcsrch`'s saved state (its statics).
#[derive(Default)]
struct Search {
    stage: i32,
    brackt: bool,
    ginit: f64,
    gtest: f64,
    gx: f64,
    gy: f64,
    finit: f64,
    fx: f64,
    fy: f64,
    stx: f64,
    sty: f64,
    stmin: f64,
    stmax: f64,
    width: f64,
    width1: f64,
}

/// optim.c's `lbfgsb` driver over `setulb`/`mainlb`: minimises from `x`
/// (overwritten with the minimum) within `l`, `u` by `nbd` (0 unbounded,
/// 1 lower, 2 both, 3 upper), memory `m`. `fg` is the driver's "FG"
/// step: fminfn, R's "L-BFGS-B needs finite values of 'fn'" when its value
/// is not finite, then fmingr into the gradient; it errs as R does.
pub(super) fn lbfgsb<E>(
    m: i64,
    x: &mut [f64],
    l: &[f64],
    u: &[f64],
    nbd: &[i32],
    fg: &mut Fg<'_, E>,
    factr: f64,
    pgtol: f64,
    maxit: i64,
) -> Result<Outcome, E> {
    let n = x.len();
    // 1-based copies, as mainlb sees them after its `--x` and the like.
    let mut xv = vec![0.0; n + 1];
    xv[1..].copy_from_slice(x);
    let mut lv = vec![0.0; n + 1];
    let mut uv = vec![0.0; n + 1];
    let mut nb = vec![0i32; n + 1];
    for i in 0..n {
        lv[i + 1] = l.get(i).copied().unwrap_or(f64::NEG_INFINITY);
        uv[i + 1] = u.get(i).copied().unwrap_or(f64::INFINITY);
        nb[i + 1] = nbd.get(i).copied().unwrap_or(0);
    }
    let mut driver_iter = 0i64;
    let mut eval = |xv: &[f64], g: &mut [f64]| -> Result<f64, E> { fg(&xv[1..], &mut g[1..]) };
    let mut new_x = || {
        driver_iter += 1;
        driver_iter > maxit
    };
    let out = mainlb(
        n, m, &mut xv, &lv, &uv, &nb, factr, pgtol, &mut eval, &mut new_x,
    )?;
    x.copy_from_slice(&xv[1..]);
    Ok(out)
}

/// How mainlb ends: the task (R's `message`), fail code, f and nfgv.
fn finish(task: &str, fail: i64, f: f64, nfgv: i64) -> Outcome {
    Outcome {
        value: f,
        fail,
        count: nfgv,
        message: task.to_string(),
    }
}

/// R's `mainlb` (with `setulb`'s partition of the work arrays), the
/// driver's task loop folded in: "FG" evaluates through `eval`, "NEW_X"
/// asks `new_x` whether maxit is passed (fail 1, message "NEW_X").
fn mainlb<E>(
    n: usize,
    m: i64,
    x: &mut [f64],
    l: &[f64],
    u: &[f64],
    nbd: &[i32],
    factr: f64,
    pgtol: f64,
    eval: &mut Fg<'_, E>,
    new_x: &mut dyn FnMut() -> bool,
) -> Result<Outcome, E> {
    // errclb, on what it can see before any allocation.
    let mut task = String::new();
    if n == 0 {
        task = "ERROR: N .LE. 0".into();
    }
    if m <= 0 {
        task = "ERROR: M .LE. 0".into();
    }
    if factr < 0.0 {
        task = "ERROR: FACTR .LT. 0".into();
    }
    for i in 1..=n {
        if nbd[i] < 0 || nbd[i] > 3 {
            task = "ERROR: INVALID NBD".into();
        }
        if nbd[i] == 2 && l[i] > u[i] {
            task = "ERROR: NO FEASIBLE SOLUTION".into();
        }
    }
    if task.starts_with("ERROR") {
        // f is never set (R hands back whatever its memory held) and
        // the counts stay 0.
        return Ok(finish(&task, 52, f64::NAN, 0));
    }
    let m = m as usize;
    let mut ws = vec![0.0; m * n];
    let mut wy = vec![0.0; m * n];
    let mut sy = vec![0.0; m * m];
    let mut ss = vec![0.0; m * m];
    let mut wt = vec![0.0; m * m];
    let mut wn = vec![0.0; 4 * m * m];
    let mut snd = vec![0.0; 4 * m * m];
    let mut z = vec![0.0; n + 1];
    let mut r = vec![0.0; n + 1];
    let mut d = vec![0.0; n + 1];
    let mut t = vec![0.0; n + 1];
    let mut wa = vec![0.0; 8 * m + 1];
    let mut g = vec![0.0; n + 1];
    let mut indx = vec![0usize; n + 1];
    let mut iwhere = vec![0i32; n + 1];
    let mut indx2 = vec![0usize; n + 1];

    let epsmch = f64::EPSILON;
    let mut fold;
    let mut dnorm;
    let mut gd;
    let mut sbgnrm;
    let mut stp;
    let mut stpmx;
    let mut gdold = 0.0;
    let mut dtd;
    let mut col = 0usize;
    let mut head = 1usize;
    let mut theta = 1.0;
    let mut iupdat = 0usize;
    let mut updatd = false;
    let mut iback;
    let mut itail = 0usize;
    let mut ifun;
    let mut nenter = 0usize;
    let mut ileave = 0usize;
    let mut iter = 0i64;
    let mut nfgv;
    let mut nint = 0i64;
    let mut nfree = n;
    let mut wrk;
    let tol = factr * epsmch;
    let mut info: i32;
    let mut search = Search::default();

    let (_prjctd, cnstnd, boxed) = active(n, l, u, nbd, x, &mut iwhere);
    // FG_START
    let mut f = eval(x, &mut g)?;
    nfgv = 1;
    sbgnrm = projgr(n, l, u, nbd, x, &g);
    if sbgnrm <= pgtol {
        return Ok(finish(
            "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL",
            0,
            f,
            nfgv,
        ));
    }
    'l222: loop {
        let reset = |col: &mut usize,
                     head: &mut usize,
                     theta: &mut f64,
                     iupdat: &mut usize,
                     updatd: &mut bool| {
            *col = 0;
            *head = 1;
            *theta = 1.0;
            *iupdat = 0;
            *updatd = false;
        };
        let skip_to_333 = !cnstnd && col > 0;
        if skip_to_333 {
            z[1..=n].copy_from_slice(&x[1..=n]);
            wrk = updatd;
            nint = 0;
        } else {
            let (p, rest) = wa.split_at_mut(2 * m + 1);
            let (c, rest) = rest.split_at_mut(2 * m);
            let (wbp, v) = rest.split_at_mut(2 * m);
            // p, c, wbp, v as 1-based views: index 0 of each is a dummy.
            let mut pv = vec![0.0; 2 * m + 1];
            let mut cv = vec![0.0; 2 * m + 1];
            let mut wbpv = vec![0.0; 2 * m + 1];
            let mut vv = vec![0.0; 2 * m + 1];
            pv[1..].copy_from_slice(&p[1..]);
            cv[1..].copy_from_slice(c);
            wbpv[1..].copy_from_slice(wbp);
            vv[1..].copy_from_slice(v);
            info = cauchy(
                n,
                x,
                l,
                u,
                nbd,
                &g,
                &mut indx2,
                &mut iwhere,
                &mut t,
                &mut d,
                &mut z,
                m,
                &wy,
                &ws,
                &sy,
                &wt,
                theta,
                col,
                head,
                &mut pv,
                &mut cv,
                &mut wbpv,
                &mut vv,
                &mut nint,
                sbgnrm,
                epsmch,
            );
            p[1..].copy_from_slice(&pv[1..]);
            c.copy_from_slice(&cv[1..]);
            wbp.copy_from_slice(&wbpv[1..]);
            v.copy_from_slice(&vv[1..]);
            if info != 0 {
                reset(&mut col, &mut head, &mut theta, &mut iupdat, &mut updatd);
                continue 'l222;
            }
            wrk = freev(
                n,
                &mut nfree,
                &mut indx,
                &mut nenter,
                &mut ileave,
                &mut indx2,
                &iwhere,
                updatd,
                cnstnd,
                iter,
            );
        }
        // L333
        if !(nfree == 0 || col == 0) {
            if wrk {
                info = formk(
                    n, nfree, &indx, nenter, ileave, &indx2, iupdat, updatd, &mut wn, &mut snd, m,
                    &ws, &wy, &sy, theta, col, head,
                );
                if info != 0 {
                    reset(&mut col, &mut head, &mut theta, &mut iupdat, &mut updatd);
                    continue 'l222;
                }
            }
            info = cmprlb(
                n, m, x, &g, &ws, &wy, &sy, &wt, &z, &mut r, &mut wa, &indx, theta, col, head,
                nfree, cnstnd,
            );
            if info == 0 {
                info = subsm(
                    n, m, nfree, &indx, l, u, nbd, &mut z, &mut r, &ws, &wy, theta, col, head,
                    &mut wa, &wn,
                );
            }
            if info != 0 {
                reset(&mut col, &mut head, &mut theta, &mut iupdat, &mut updatd);
                continue 'l222;
            }
        }
        // L555
        for i in 1..=n {
            d[i] = z[i] - x[i];
        }
        // L666: lnsrlb, its first entry.
        dtd = ddot(&d[1..=n], &d[1..=n]);
        dnorm = dtd.sqrt();
        stpmx = 1e10;
        if cnstnd {
            if iter == 0 {
                stpmx = 1.0;
            } else {
                for i in 1..=n {
                    let a1 = d[i];
                    if nbd[i] != 0 {
                        if a1 < 0.0 && nbd[i] <= 2 {
                            let a2 = l[i] - x[i];
                            if a2 >= 0.0 {
                                stpmx = 0.0;
                            } else if a1 * stpmx < a2 {
                                stpmx = a2 / a1;
                            }
                        } else if a1 > 0.0 && nbd[i] >= 2 {
                            let a2 = u[i] - x[i];
                            if a2 <= 0.0 {
                                stpmx = 0.0;
                            } else if a1 * stpmx > a2 {
                                stpmx = a2 / a1;
                            }
                        }
                    }
                }
            }
        }
        if iter == 0 && !boxed {
            stp = cmin(1.0 / dnorm, stpmx);
        } else {
            stp = 1.0;
        }
        t[1..=n].copy_from_slice(&x[1..=n]);
        r[1..=n].copy_from_slice(&g[1..=n]);
        fold = f;
        ifun = 0i64;
        iback = 0i64;
        let mut csave = String::from("START");
        info = 0;
        // L556, entered again after each "FG_LNSRCH" evaluation.
        loop {
            gd = ddot(&g[1..=n], &d[1..=n]);
            if ifun == 0 {
                gdold = gd;
                if gd >= 0.0 {
                    info = -4;
                    break;
                }
            }
            dcsrch(
                &mut search,
                f,
                gd,
                &mut stp,
                0.001,
                0.9,
                0.1,
                0.0,
                stpmx,
                &mut csave,
            );
            if csave.starts_with("CONV") || csave.starts_with("WARN") {
                break;
            }
            ifun += 1;
            nfgv += 1;
            iback = ifun - 1;
            if stp == 1.0 {
                x[1..=n].copy_from_slice(&z[1..=n]);
            } else {
                for i in 1..=n {
                    x[i] = stp * d[i] + t[i];
                }
            }
            if iback >= 20 {
                break;
            }
            // "FG_LNSRCH": the driver evaluates, mainlb goes on at L666.
            f = eval(x, &mut g)?;
        }
        if info != 0 || iback >= 20 {
            x[1..=n].copy_from_slice(&t[1..=n]);
            g[1..=n].copy_from_slice(&r[1..=n]);
            f = fold;
            if col == 0 {
                if info == 0 {
                    nfgv -= 1;
                }
                return Ok(finish("ERROR: ABNORMAL_TERMINATION_IN_LNSRCH", 52, f, nfgv));
            }
            if info == 0 {
                nfgv -= 1;
            }
            reset(&mut col, &mut head, &mut theta, &mut iupdat, &mut updatd);
            continue 'l222;
        }
        // "NEW_X"
        iter += 1;
        sbgnrm = projgr(n, l, u, nbd, x, &g);
        if new_x() {
            return Ok(finish("NEW_X", 1, f, nfgv));
        }
        // L777
        if sbgnrm <= pgtol {
            return Ok(finish(
                "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL",
                0,
                f,
                nfgv,
            ));
        }
        let ddum = cmax(cmax(fold.abs(), f.abs()), 1.0);
        if fold - f <= tol * ddum {
            return Ok(finish(
                "CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH",
                0,
                f,
                nfgv,
            ));
        }
        for i in 1..=n {
            r[i] = g[i] - r[i];
        }
        let rr = ddot(&r[1..=n], &r[1..=n]);
        let dr;
        let ddum;
        if stp == 1.0 {
            dr = gd - gdold;
            ddum = -gdold;
        } else {
            dr = (gd - gdold) * stp;
            dscal(stp, &mut d[1..=n]);
            ddum = -gdold * stp;
        }
        if dr <= epsmch * ddum {
            updatd = false;
            continue 'l222;
        }
        updatd = true;
        iupdat += 1;
        matupd(
            n, m, &mut ws, &mut wy, &mut sy, &mut ss, &d, &r, &mut itail, iupdat, &mut col,
            &mut head, &mut theta, rr, dr, stp, dtd,
        );
        if formt(m, &mut wt, &sy, &ss, col, theta) != 0 {
            reset(&mut col, &mut head, &mut theta, &mut iupdat, &mut updatd);
        }
    }
}

/// R's `active`: projects x onto the box, sets iwhere; returns
/// (prjctd, cnstnd, boxed).
fn active(
    n: usize,
    l: &[f64],
    u: &[f64],
    nbd: &[i32],
    x: &mut [f64],
    iwhere: &mut [i32],
) -> (bool, bool, bool) {
    let mut prjctd = false;
    let mut cnstnd = false;
    let mut boxed = true;
    for i in 1..=n {
        if nbd[i] > 0 {
            if nbd[i] <= 2 && x[i] <= l[i] {
                if x[i] < l[i] {
                    prjctd = true;
                    x[i] = l[i];
                }
            } else if nbd[i] >= 2 && x[i] >= u[i] && x[i] > u[i] {
                prjctd = true;
                x[i] = u[i];
            }
        }
    }
    for i in 1..=n {
        if nbd[i] != 2 {
            boxed = false;
        }
        if nbd[i] == 0 {
            iwhere[i] = -1;
        } else {
            cnstnd = true;
            if nbd[i] == 2 && u[i] - l[i] <= 0.0 {
                iwhere[i] = 3;
            } else {
                iwhere[i] = 0;
            }
        }
    }
    (prjctd, cnstnd, boxed)
}

/// R's `bmv`: the product of the 2m x 2m middle matrix with `v` into `p`
/// (both 1-based). Returns dtrsl's info.
fn bmv(m: usize, sy: &[f64], wt: &[f64], col: usize, v: &[f64], p: &mut [f64]) -> i32 {
    if col == 0 {
        return 0;
    }
    let sym = Mat { off: 0, ld: m };
    p[col + 1] = v[col + 1];
    for i in 2..=col {
        let i2 = col + i;
        let mut sum = 0.0;
        for k in 1..i {
            sum += sy[sym.at(i, k)] * v[k] / sy[sym.at(k, k)];
        }
        p[i2] = v[i2] + sum;
    }
    let wtm = Mat { off: 0, ld: m };
    if dtrsl(wt, wtm, col, &mut p[col..], 11) != 0 {
        return 1;
    }
    for i in 1..=col {
        p[i] = v[i] / sy[sym.at(i, i)].sqrt();
    }
    if dtrsl(wt, wtm, col, &mut p[col..], 1) != 0 {
        return 1;
    }
    for i in 1..=col {
        p[i] = -p[i] / sy[sym.at(i, i)].sqrt();
    }
    for i in 1..=col {
        let mut sum = 0.0;
        for k in i + 1..=col {
            sum += sy[sym.at(k, i)] * p[col + k] / sy[sym.at(i, i)];
        }
        p[i] += sum;
    }
    0
}

/// R's `cauchy`: the generalized Cauchy point into `xcp`. Returns info.
fn cauchy(
    n: usize,
    x: &[f64],
    l: &[f64],
    u: &[f64],
    nbd: &[i32],
    g: &[f64],
    iorder: &mut [usize],
    iwhere: &mut [i32],
    t: &mut [f64],
    d: &mut [f64],
    xcp: &mut [f64],
    m: usize,
    wy: &[f64],
    ws: &[f64],
    sy: &[f64],
    wt: &[f64],
    theta: f64,
    col: usize,
    head: usize,
    p: &mut [f64],
    c: &mut [f64],
    wbp: &mut [f64],
    v: &mut [f64],
    nint: &mut i64,
    sbgnrm: f64,
    epsmch: f64,
) -> i32 {
    let wm = Mat { off: 0, ld: n };
    if sbgnrm <= 0.0 {
        xcp[1..=n].copy_from_slice(&x[1..=n]);
        return 0;
    }
    let mut bnded = true;
    let mut nfree = n + 1;
    let mut nbreak = 0usize;
    let mut ibkmin = 0usize;
    let mut bkmin = 0.0;
    let col2 = col * 2;
    let mut f1 = 0.0;
    let (mut tl, mut tu) = (0.0, 0.0);
    for i in 1..=col2 {
        p[i] = 0.0;
    }
    for i in 1..=n {
        let neggi = -g[i];
        if iwhere[i] != 3 && iwhere[i] != -1 {
            if nbd[i] <= 2 {
                tl = x[i] - l[i];
            }
            if nbd[i] >= 2 {
                tu = u[i] - x[i];
            }
            let xlower = nbd[i] <= 2 && tl <= 0.0;
            let xupper = nbd[i] >= 2 && tu <= 0.0;
            iwhere[i] = 0;
            if xlower {
                if neggi <= 0.0 {
                    iwhere[i] = 1;
                }
            } else if xupper {
                if neggi >= 0.0 {
                    iwhere[i] = 2;
                }
            } else if neggi.abs() <= 0.0 {
                iwhere[i] = -3;
            }
        }
        let mut pointr = head;
        if iwhere[i] != 0 && iwhere[i] != -1 {
            d[i] = 0.0;
        } else {
            d[i] = neggi;
            f1 -= neggi * neggi;
            for j in 1..=col {
                p[j] += wy[wm.at(i, pointr)] * neggi;
                p[col + j] += ws[wm.at(i, pointr)] * neggi;
                pointr = pointr % m + 1;
            }
            if nbd[i] <= 2 && nbd[i] != 0 && neggi < 0.0 {
                nbreak += 1;
                iorder[nbreak] = i;
                t[nbreak] = tl / (-neggi);
                if nbreak == 1 || t[nbreak] < bkmin {
                    bkmin = t[nbreak];
                    ibkmin = nbreak;
                }
            } else if nbd[i] >= 2 && neggi > 0.0 {
                nbreak += 1;
                iorder[nbreak] = i;
                t[nbreak] = tu / neggi;
                if nbreak == 1 || t[nbreak] < bkmin {
                    bkmin = t[nbreak];
                    ibkmin = nbreak;
                }
            } else {
                nfree -= 1;
                iorder[nfree] = i;
                if neggi.abs() > 0.0 {
                    bnded = false;
                }
            }
        }
    }
    if theta != 1.0 {
        dscal(theta, &mut p[col + 1..=2 * col]);
    }
    xcp[1..=n].copy_from_slice(&x[1..=n]);
    if nbreak == 0 && nfree == n + 1 {
        return 0;
    }
    for j in 1..=col2 {
        c[j] = 0.0;
    }
    let mut f2 = -theta * f1;
    let f2_org = f2;
    if col > 0 {
        if bmv(m, sy, wt, col, p, v) != 0 {
            return 1;
        }
        f2 -= ddot(&v[1..=col2], &p[1..=col2]);
    }
    let mut dtm = -f1 / f2;
    let mut tsum = 0.0;
    *nint = 1;
    let mut at_999 = false;
    if nbreak > 0 {
        let mut nleft = nbreak;
        let mut iter = 1usize;
        let mut tj = 0.0;
        // L777
        loop {
            let tj0 = tj;
            let ibp;
            if iter == 1 {
                tj = bkmin;
                ibp = iorder[ibkmin];
            } else {
                if iter == 2 && ibkmin != nbreak {
                    t[ibkmin] = t[nbreak];
                    iorder[ibkmin] = iorder[nbreak];
                }
                hpsolb(nleft, t, iorder, iter - 2);
                tj = t[nleft];
                ibp = iorder[nleft];
            }
            let dt = tj - tj0;
            if dtm < dt {
                break;
            }
            tsum += dt;
            nleft -= 1;
            iter += 1;
            let dibp = d[ibp];
            d[ibp] = 0.0;
            let zibp;
            if dibp > 0.0 {
                zibp = u[ibp] - x[ibp];
                xcp[ibp] = u[ibp];
                iwhere[ibp] = 2;
            } else {
                zibp = l[ibp] - x[ibp];
                xcp[ibp] = l[ibp];
                iwhere[ibp] = 1;
            }
            if nleft == 0 && nbreak == n {
                dtm = dt;
                at_999 = true;
                break;
            }
            *nint += 1;
            let dibp2 = dibp * dibp;
            f1 += dt * f2 + dibp2 - theta * dibp * zibp;
            f2 -= theta * dibp2;
            if col > 0 {
                daxpy(dt, &p[1..=col2], &mut c[1..=col2]);
                let mut pointr = head;
                for j in 1..=col {
                    wbp[j] = wy[wm.at(ibp, pointr)];
                    wbp[col + j] = theta * ws[wm.at(ibp, pointr)];
                    pointr = pointr % m + 1;
                }
                if bmv(m, sy, wt, col, wbp, v) != 0 {
                    return 1;
                }
                let wmc = ddot(&c[1..=col2], &v[1..=col2]);
                let wmp = ddot(&p[1..=col2], &v[1..=col2]);
                let wmw = ddot(&wbp[1..=col2], &v[1..=col2]);
                daxpy(-dibp, &wbp[1..=col2], &mut p[1..=col2]);
                f1 += dibp * wmc;
                f2 += 2.0 * dibp * wmp - dibp2 * wmw;
            }
            let d1 = epsmch * f2_org;
            if f2 < d1 {
                f2 = d1;
            }
            if nleft > 0 {
                dtm = -f1 / f2;
                continue;
            } else if bnded {
                f1 = 0.0;
                f2 = 0.0;
                dtm = 0.0;
            } else {
                dtm = -f1 / f2;
            }
            let _ = (f1, f2);
            break;
        }
    }
    if !at_999 {
        // L888
        if dtm <= 0.0 {
            dtm = 0.0;
        }
        tsum += dtm;
        daxpy(tsum, &d[1..=n], &mut xcp[1..=n]);
    }
    // L999
    if col > 0 {
        daxpy(dtm, &p[1..=col2], &mut c[1..=col2]);
    }
    0
}

/// R's `cmprlb`: r = -Z'(B(xcp - xk) + g). `wa` is mainlb's (1-based).
/// Returns info.
fn cmprlb(
    n: usize,
    m: usize,
    x: &[f64],
    g: &[f64],
    ws: &[f64],
    wy: &[f64],
    sy: &[f64],
    wt: &[f64],
    z: &[f64],
    r: &mut [f64],
    wa: &mut [f64],
    indx: &[usize],
    theta: f64,
    col: usize,
    head: usize,
    nfree: usize,
    cnstnd: bool,
) -> i32 {
    let wm = Mat { off: 0, ld: n };
    if !cnstnd && col > 0 {
        for i in 1..=n {
            r[i] = -g[i];
        }
        return 0;
    }
    for i in 1..=nfree {
        let k = indx[i];
        r[i] = -theta * (z[k] - x[k]) - g[k];
    }
    // bmv(&wa[2m + 1], &wa[1]): c in, p out.
    let (p, c) = wa.split_at_mut(2 * m + 1);
    let mut cv = vec![0.0; 2 * m + 1];
    cv[1..].copy_from_slice(&c[..2 * m]);
    if bmv(m, sy, wt, col, &cv, p) != 0 {
        return -8;
    }
    let mut pointr = head;
    for j in 1..=col {
        let a1 = wa[j];
        let a2 = theta * wa[col + j];
        for i in 1..=nfree {
            let k = indx[i];
            r[i] += wy[wm.at(k, pointr)] * a1 + ws[wm.at(k, pointr)] * a2;
        }
        pointr = pointr % m + 1;
    }
    0
}

/// R's `formk`: the LEL^T factorization of the indefinite matrix K into
/// `wn`, `wn1` holding the inner products between calls. Returns info.
fn formk(
    n: usize,
    nsub: usize,
    ind: &[usize],
    nenter: usize,
    ileave: usize,
    indx2: &[usize],
    iupdat: usize,
    updatd: bool,
    wn: &mut [f64],
    wn1: &mut [f64],
    m: usize,
    ws: &[f64],
    wy: &[f64],
    sy: &[f64],
    theta: f64,
    col: usize,
    head: usize,
) -> i32 {
    let wm = Mat { off: 0, ld: n };
    let sym = Mat { off: 0, ld: m };
    let w1 = Mat { off: 0, ld: 2 * m };
    let w = Mat { off: 0, ld: 2 * m };
    let upcl;
    if updatd {
        if iupdat > m {
            for jy in 1..m {
                let js = m + jy;
                for k in 0..m - jy {
                    wn1[w1.at(jy + k, jy)] = wn1[w1.at(jy + 1 + k, jy + 1)];
                }
                for k in 0..m - jy {
                    wn1[w1.at(js + k, js)] = wn1[w1.at(js + 1 + k, js + 1)];
                }
                for k in 0..m - 1 {
                    wn1[w1.at(m + 1 + k, jy)] = wn1[w1.at(m + 2 + k, jy + 1)];
                }
            }
        }
        let (pbegin, pend) = (1, nsub);
        let (dbegin, dend) = (nsub + 1, n);
        let iy = col;
        let is = m + col;
        let mut ipntr = head + col - 1;
        if ipntr > m {
            ipntr -= m;
        }
        let mut jpntr = head;
        for jy in 1..=col {
            let js = m + jy;
            let (mut temp1, mut temp2, mut temp3) = (0.0, 0.0, 0.0);
            for k in pbegin..=pend {
                let k1 = ind[k];
                temp1 += wy[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
            }
            for k in dbegin..=dend {
                let k1 = ind[k];
                temp2 += ws[wm.at(k1, ipntr)] * ws[wm.at(k1, jpntr)];
                temp3 += ws[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
            }
            wn1[w1.at(iy, jy)] = temp1;
            wn1[w1.at(is, js)] = temp2;
            wn1[w1.at(is, jy)] = temp3;
            jpntr = jpntr % m + 1;
        }
        let jy = col;
        let mut jpntr = head + col - 1;
        if jpntr > m {
            jpntr -= m;
        }
        let mut ipntr = head;
        for i in 1..=col {
            let is = m + i;
            let mut temp3 = 0.0;
            for k in pbegin..=pend {
                let k1 = ind[k];
                temp3 += ws[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
            }
            ipntr = ipntr % m + 1;
            wn1[w1.at(is, jy)] = temp3;
        }
        upcl = col - 1;
    } else {
        upcl = col;
    }
    let mut ipntr = head;
    for iy in 1..=upcl {
        let is = m + iy;
        let mut jpntr = head;
        for jy in 1..=iy {
            let js = m + jy;
            let (mut temp1, mut temp2, mut temp3, mut temp4) = (0.0, 0.0, 0.0, 0.0);
            for k in 1..=nenter {
                let k1 = indx2[k];
                temp1 += wy[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
                temp2 += ws[wm.at(k1, ipntr)] * ws[wm.at(k1, jpntr)];
            }
            for k in ileave..=n {
                let k1 = indx2[k];
                temp3 += wy[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
                temp4 += ws[wm.at(k1, ipntr)] * ws[wm.at(k1, jpntr)];
            }
            wn1[w1.at(iy, jy)] = wn1[w1.at(iy, jy)] + temp1 - temp3;
            wn1[w1.at(is, js)] = wn1[w1.at(is, js)] - temp2 + temp4;
            jpntr = jpntr % m + 1;
        }
        ipntr = ipntr % m + 1;
    }
    let mut ipntr = head;
    for is in m + 1..=m + upcl {
        let mut jpntr = head;
        for jy in 1..=upcl {
            let (mut temp1, mut temp3) = (0.0, 0.0);
            for k in 1..=nenter {
                let k1 = indx2[k];
                temp1 += ws[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
            }
            for k in ileave..=n {
                let k1 = indx2[k];
                temp3 += ws[wm.at(k1, ipntr)] * wy[wm.at(k1, jpntr)];
            }
            if is <= jy + m {
                wn1[w1.at(is, jy)] += temp1 - temp3;
            } else {
                wn1[w1.at(is, jy)] += -temp1 + temp3;
            }
            jpntr = jpntr % m + 1;
        }
        ipntr = ipntr % m + 1;
    }
    for iy in 1..=col {
        let is = col + iy;
        let is1 = m + iy;
        for jy in 1..=iy {
            let js = col + jy;
            let js1 = m + jy;
            wn[w.at(jy, iy)] = wn1[w1.at(iy, jy)] / theta;
            wn[w.at(js, is)] = wn1[w1.at(is1, js1)] * theta;
        }
        for jy in 1..iy {
            wn[w.at(jy, is)] = -wn1[w1.at(is1, jy)];
        }
        for jy in iy..=col {
            wn[w.at(jy, is)] = wn1[w1.at(is1, jy)];
        }
        wn[w.at(iy, iy)] += sy[sym.at(iy, iy)];
    }
    if dpofa(wn, w, col) != 0 {
        return -1;
    }
    let col2 = col * 2;
    for js in col + 1..=col2 {
        let mut b = vec![0.0; col + 1];
        for i in 1..=col {
            b[i] = wn[w.at(i, js)];
        }
        dtrsl(wn, w, col, &mut b, 11);
        for i in 1..=col {
            wn[w.at(i, js)] = b[i];
        }
    }
    for is in col + 1..=col2 {
        for js in is..=col2 {
            let mut s = 0.0;
            for i in 1..=col {
                s += wn[w.at(i, is)] * wn[w.at(i, js)];
            }
            wn[w.at(is, js)] += s;
        }
    }
    let sub = Mat {
        off: w.at(col + 1, col + 1),
        ld: 2 * m,
    };
    if dpofa(wn, sub, col) != 0 {
        return -2;
    }
    0
}

/// R's `formt`: the upper half of T = theta*SS + L*D^(-1)*L', Cholesky
/// factorized into `wt`. Returns info.
fn formt(m: usize, wt: &mut [f64], sy: &[f64], ss: &[f64], col: usize, theta: f64) -> i32 {
    let a = Mat { off: 0, ld: m };
    for j in 1..=col {
        wt[a.at(1, j)] = theta * ss[a.at(1, j)];
    }
    for i in 2..=col {
        for j in i..=col {
            let k1 = i.min(j) - 1;
            let mut ddum = 0.0;
            for k in 1..=k1 {
                ddum += sy[a.at(i, k)] * sy[a.at(j, k)] / sy[a.at(k, k)];
            }
            wt[a.at(i, j)] = ddum + theta * ss[a.at(i, j)];
        }
    }
    if dpofa(wt, a, col) != 0 {
        return -3;
    }
    0
}

/// R's `freev`: the free variables at the Cauchy point into `indx`, the
/// entering and leaving ones into `indx2`. Returns `wrk`.
fn freev(
    n: usize,
    nfree: &mut usize,
    indx: &mut [usize],
    nenter: &mut usize,
    ileave: &mut usize,
    indx2: &mut [usize],
    iwhere: &[i32],
    updatd: bool,
    cnstnd: bool,
    iter: i64,
) -> bool {
    *nenter = 0;
    *ileave = n + 1;
    if iter > 0 && cnstnd {
        for i in 1..=*nfree {
            let k = indx[i];
            if iwhere[k] > 0 {
                *ileave -= 1;
                indx2[*ileave] = k;
            }
        }
        for i in *nfree + 1..=n {
            let k = indx[i];
            if iwhere[k] <= 0 {
                *nenter += 1;
                indx2[*nenter] = k;
            }
        }
    }
    let wrk = *ileave < n + 1 || *nenter > 0 || updatd;
    *nfree = 0;
    let mut iact = n + 1;
    for i in 1..=n {
        if iwhere[i] <= 0 {
            *nfree += 1;
            indx[*nfree] = i;
        } else {
            iact -= 1;
            indx[iact] = i;
        }
    }
    wrk
}

/// R's `hpsolb`: heap sort step on the break points `t` (1-based).
fn hpsolb(n: usize, t: &mut [f64], iorder: &mut [usize], iheap: usize) {
    if iheap == 0 {
        for k in 2..=n {
            let ddum = t[k];
            let indxin = iorder[k];
            let mut i = k;
            while i > 1 {
                let j = i / 2;
                if ddum < t[j] {
                    t[i] = t[j];
                    iorder[i] = iorder[j];
                    i = j;
                } else {
                    break;
                }
            }
            t[i] = ddum;
            iorder[i] = indxin;
        }
    }
    if n > 1 {
        let mut i = 1;
        let out = t[1];
        let indxou = iorder[1];
        let ddum = t[n];
        let indxin = iorder[n];
        loop {
            let mut j = i + i;
            if j < n {
                if t[j + 1] < t[j] {
                    j += 1;
                }
                if t[j] < ddum {
                    t[i] = t[j];
                    iorder[i] = iorder[j];
                    i = j;
                    continue;
                }
            }
            break;
        }
        t[i] = ddum;
        iorder[i] = indxin;
        t[n] = out;
        iorder[n] = indxou;
    }
}

/// R's `matupd`: the limited-memory matrices WS, WY, SY and SS updated
/// with the new pair (d, r).
fn matupd(
    n: usize,
    m: usize,
    ws: &mut [f64],
    wy: &mut [f64],
    sy: &mut [f64],
    ss: &mut [f64],
    d: &[f64],
    r: &[f64],
    itail: &mut usize,
    iupdat: usize,
    col: &mut usize,
    head: &mut usize,
    theta: &mut f64,
    rr: f64,
    dr: f64,
    stp: f64,
    dtd: f64,
) {
    let wm = Mat { off: 0, ld: n };
    let a = Mat { off: 0, ld: m };
    if iupdat <= m {
        *col = iupdat;
        *itail = (*head + iupdat - 2) % m + 1;
    } else {
        *itail = *itail % m + 1;
        *head = *head % m + 1;
    }
    for i in 1..=n {
        ws[wm.at(i, *itail)] = d[i];
        wy[wm.at(i, *itail)] = r[i];
    }
    *theta = rr / dr;
    if iupdat > m {
        for j in 1..*col {
            for k in 0..j {
                ss[a.at(1 + k, j)] = ss[a.at(2 + k, j + 1)];
            }
            for k in 0..*col - j {
                sy[a.at(j + k, j)] = sy[a.at(j + 1 + k, j + 1)];
            }
        }
    }
    let mut pointr = *head;
    for j in 1..*col {
        let mut s = 0.0;
        for i in 1..=n {
            s += d[i] * wy[wm.at(i, pointr)];
        }
        sy[a.at(*col, j)] = s;
        let mut s = 0.0;
        for i in 1..=n {
            s += ws[wm.at(i, pointr)] * d[i];
        }
        ss[a.at(j, *col)] = s;
        pointr = pointr % m + 1;
    }
    if stp == 1.0 {
        ss[a.at(*col, *col)] = dtd;
    } else {
        ss[a.at(*col, *col)] = stp * stp * dtd;
    }
    sy[a.at(*col, *col)] = dr;
}

/// R's `projgr`: the infinity norm of the projected gradient.
fn projgr(n: usize, l: &[f64], u: &[f64], nbd: &[i32], x: &[f64], g: &[f64]) -> f64 {
    let mut sbgnrm = 0.0;
    for i in 1..=n {
        let mut gi = g[i];
        if nbd[i] != 0 {
            if gi < 0.0 {
                if nbd[i] >= 2 {
                    let d = x[i] - u[i];
                    if gi < d {
                        gi = d;
                    }
                }
            } else if nbd[i] <= 2 {
                let d = x[i] - l[i];
                if gi > d {
                    gi = d;
                }
            }
        }
        let a = gi.abs();
        if sbgnrm < a {
            sbgnrm = a;
        }
    }
    sbgnrm
}

/// R's `subsm` (v2.3): the subspace minimization over the free
/// variables, `x` the Cauchy point on entry, `d` the reduced gradient.
/// `wv` is mainlb's `wa` (1-based). Returns info.
fn subsm(
    n: usize,
    m: usize,
    nsub: usize,
    ind: &[usize],
    l: &[f64],
    u: &[f64],
    nbd: &[i32],
    x: &mut [f64],
    d: &mut [f64],
    ws: &[f64],
    wy: &[f64],
    theta: f64,
    col: usize,
    head: usize,
    wv: &mut [f64],
    wn: &[f64],
) -> i32 {
    let wm = Mat { off: 0, ld: n };
    let w = Mat { off: 0, ld: 2 * m };
    let ns = nsub;
    if ns == 0 {
        return 0;
    }
    let mut pointr = head;
    for i in 1..=col {
        let (mut temp1, mut temp2) = (0.0, 0.0);
        for j in 1..=ns {
            let k = ind[j];
            temp1 += wy[wm.at(k, pointr)] * d[j];
            temp2 += ws[wm.at(k, pointr)] * d[j];
        }
        wv[i] = temp1;
        wv[col + i] = theta * temp2;
        pointr = pointr % m + 1;
    }
    let col2 = col * 2;
    if dtrsl(wn, w, col2, wv, 11) != 0 {
        return 1;
    }
    for i in 1..=col {
        wv[i] = -wv[i];
    }
    if dtrsl(wn, w, col2, wv, 1) != 0 {
        return 1;
    }
    let mut pointr = head;
    for jy in 1..=col {
        let js = col + jy;
        for i in 1..=ns {
            let k = ind[i];
            d[i] += wy[wm.at(k, pointr)] * wv[jy] / theta + ws[wm.at(k, pointr)] * wv[js];
        }
        pointr = pointr % m + 1;
    }
    for i in 1..=ns {
        d[i] /= theta;
    }
    let mut alpha = 1.0;
    let mut temp1 = alpha;
    let mut ibd = 0;
    for i in 1..=ns {
        let k = ind[i];
        let dk = d[i];
        if nbd[k] != 0 {
            if dk < 0.0 && nbd[k] <= 2 {
                let temp2 = l[k] - x[k];
                if temp2 >= 0.0 {
                    temp1 = 0.0;
                } else if dk * alpha < temp2 {
                    temp1 = temp2 / dk;
                }
            } else if dk > 0.0 && nbd[k] >= 2 {
                let temp2 = u[k] - x[k];
                if temp2 <= 0.0 {
                    temp1 = 0.0;
                } else if dk * alpha > temp2 {
                    temp1 = temp2 / dk;
                }
            }
            if temp1 < alpha {
                alpha = temp1;
                ibd = i;
            }
        }
    }
    if alpha < 1.0 {
        let dk = d[ibd];
        let k = ind[ibd];
        if dk > 0.0 {
            x[k] = u[k];
            d[ibd] = 0.0;
        } else if dk < 0.0 {
            x[k] = l[k];
            d[ibd] = 0.0;
        }
    }
    for i in 1..=ns {
        x[ind[i]] += alpha * d[i];
    }
    0
}

/// R's `dcsrch` (Moré and Thuente's line search, MINPACK-2), its statics
/// in `s`, its task in `task`.
#[allow(clippy::nonminimal_bool)] // the C's tests, as written
fn dcsrch(
    s: &mut Search,
    f: f64,
    g: f64,
    stp: &mut f64,
    ftol: f64,
    gtol: f64,
    xtol: f64,
    stpmin: f64,
    stpmax: f64,
    task: &mut String,
) {
    if task.starts_with("START") {
        if *stp < stpmin {
            *task = "ERROR: STP .LT. STPMIN".into();
        }
        if *stp > stpmax {
            *task = "ERROR: STP .GT. STPMAX".into();
        }
        if g >= 0.0 {
            *task = "ERROR: INITIAL G .GE. ZERO".into();
        }
        if ftol < 0.0 {
            *task = "ERROR: FTOL .LT. ZERO".into();
        }
        if gtol < 0.0 {
            *task = "ERROR: GTOL .LT. ZERO".into();
        }
        if xtol < 0.0 {
            *task = "ERROR: XTOL .LT. ZERO".into();
        }
        if stpmin < 0.0 {
            *task = "ERROR: STPMIN .LT. ZERO".into();
        }
        if stpmax < stpmin {
            *task = "ERROR: STPMAX .LT. STPMIN".into();
        }
        if task.starts_with("ERROR") {
            return;
        }
        s.brackt = false;
        s.stage = 1;
        s.finit = f;
        s.ginit = g;
        s.gtest = ftol * s.ginit;
        s.width = stpmax - stpmin;
        s.width1 = s.width / 0.5;
        s.stx = 0.0;
        s.fx = s.finit;
        s.gx = s.ginit;
        s.sty = 0.0;
        s.fy = s.finit;
        s.gy = s.ginit;
        s.stmin = 0.0;
        s.stmax = *stp + *stp * 4.0;
        *task = "FG".into();
        return;
    }
    let ftest = s.finit + *stp * s.gtest;
    if s.stage == 1 && f <= ftest && g >= 0.0 {
        s.stage = 2;
    }
    if s.brackt && (*stp <= s.stmin || *stp >= s.stmax) {
        *task = "WARNING: ROUNDING ERRORS PREVENT PROGRESS".into();
    }
    if s.brackt && s.stmax - s.stmin <= xtol * s.stmax {
        *task = "WARNING: XTOL TEST SATISFIED".into();
    }
    if *stp == stpmax && f <= ftest && g <= s.gtest {
        *task = "WARNING: STP = STPMAX".into();
    }
    if *stp == stpmin && (f > ftest || g >= s.gtest) {
        *task = "WARNING: STP = STPMIN".into();
    }
    if f <= ftest && g.abs() <= gtol * (-s.ginit) {
        *task = "CONVERGENCE".into();
    }
    if task.starts_with("WARN") || task.starts_with("CONV") {
        return;
    }
    if s.stage == 1 && f <= s.fx && f > ftest {
        let mut fm = f - *stp * s.gtest;
        let mut fxm = s.fx - s.stx * s.gtest;
        let mut fym = s.fy - s.sty * s.gtest;
        let mut gm = g - s.gtest;
        let mut gxm = s.gx - s.gtest;
        let mut gym = s.gy - s.gtest;
        dcstep(
            &mut s.stx,
            &mut fxm,
            &mut gxm,
            &mut s.sty,
            &mut fym,
            &mut gym,
            stp,
            &mut fm,
            &mut gm,
            &mut s.brackt,
            s.stmin,
            s.stmax,
        );
        s.fx = fxm + s.stx * s.gtest;
        s.fy = fym + s.sty * s.gtest;
        s.gx = gxm + s.gtest;
        s.gy = gym + s.gtest;
    } else {
        let (mut fv, mut gv) = (f, g);
        dcstep(
            &mut s.stx,
            &mut s.fx,
            &mut s.gx,
            &mut s.sty,
            &mut s.fy,
            &mut s.gy,
            stp,
            &mut fv,
            &mut gv,
            &mut s.brackt,
            s.stmin,
            s.stmax,
        );
    }
    if s.brackt {
        if (s.sty - s.stx).abs() >= s.width1 * 0.66 {
            *stp = s.stx + (s.sty - s.stx) * 0.5;
        }
        s.width1 = s.width;
        s.width = (s.sty - s.stx).abs();
    }
    if s.brackt {
        s.stmin = cmin(s.stx, s.sty);
        s.stmax = cmax(s.stx, s.sty);
    } else {
        s.stmin = *stp + (*stp - s.stx) * 1.1;
        s.stmax = *stp + (*stp - s.stx) * 4.0;
    }
    if *stp < stpmin {
        *stp = stpmin;
    }
    if *stp > stpmax {
        *stp = stpmax;
    }
    if (s.brackt && (*stp <= s.stmin || *stp >= s.stmax))
        || (s.brackt && (s.stmax - s.stmin <= xtol * s.stmax))
    {
        *stp = s.stx;
    }
    *task = "FG".into();
}

/// R's `dcstep`: the safeguarded step of the line search.
fn dcstep(
    stx: &mut f64,
    fx: &mut f64,
    dx: &mut f64,
    sty: &mut f64,
    fy: &mut f64,
    dy: &mut f64,
    stp: &mut f64,
    fp: &mut f64,
    dp: &mut f64,
    brackt: &mut bool,
    stpmin: f64,
    stpmax: f64,
) {
    let sgnd = *dp * (*dx / dx.abs());
    let stpf;
    if *fp > *fx {
        let theta = (*fx - *fp) * 3.0 / (*stp - *stx) + *dx + *dp;
        let s = cmax(cmax(theta.abs(), dx.abs()), dp.abs());
        let d1 = theta / s;
        let mut gamm = s * (d1 * d1 - *dx / s * (*dp / s)).sqrt();
        if *stp < *stx {
            gamm = -gamm;
        }
        let p = gamm - *dx + theta;
        let q = gamm - *dx + gamm + *dp;
        let r = p / q;
        let stpc = *stx + r * (*stp - *stx);
        let stpq = *stx + *dx / ((*fx - *fp) / (*stp - *stx) + *dx) / 2.0 * (*stp - *stx);
        if (stpc - *stx).abs() < (stpq - *stx).abs() {
            stpf = stpc;
        } else {
            stpf = stpc + (stpq - stpc) / 2.0;
        }
        *brackt = true;
    } else if sgnd < 0.0 {
        let theta = (*fx - *fp) * 3.0 / (*stp - *stx) + *dx + *dp;
        let s = cmax(cmax(theta.abs(), dx.abs()), dp.abs());
        let d1 = theta / s;
        let mut gamm = s * (d1 * d1 - *dx / s * (*dp / s)).sqrt();
        if *stp > *stx {
            gamm = -gamm;
        }
        let p = gamm - *dp + theta;
        let q = gamm - *dp + gamm + *dx;
        let r = p / q;
        let stpc = *stp + r * (*stx - *stp);
        let stpq = *stp + *dp / (*dp - *dx) * (*stx - *stp);
        if (stpc - *stp).abs() > (stpq - *stp).abs() {
            stpf = stpc;
        } else {
            stpf = stpq;
        }
        *brackt = true;
    } else if dp.abs() < dx.abs() {
        let theta = (*fx - *fp) * 3.0 / (*stp - *stx) + *dx + *dp;
        let s = cmax(cmax(theta.abs(), dx.abs()), dp.abs());
        let d1 = theta / s;
        let d1 = d1 * d1 - *dx / s * (*dp / s);
        let mut gamm = if d1 < 0.0 { 0.0 } else { s * d1.sqrt() };
        if *stp > *stx {
            gamm = -gamm;
        }
        let p = gamm - *dp + theta;
        let q = gamm + (*dx - *dp) + gamm;
        let r = p / q;
        let stpc = if r < 0.0 && gamm != 0.0 {
            *stp + r * (*stx - *stp)
        } else if *stp > *stx {
            stpmax
        } else {
            stpmin
        };
        let stpq = *stp + *dp / (*dp - *dx) * (*stx - *stp);
        if *brackt {
            let mut sf = if (stpc - *stp).abs() < (stpq - *stp).abs() {
                stpc
            } else {
                stpq
            };
            let d1 = *stp + (*sty - *stp) * 0.66;
            sf = if *stp > *stx {
                cmin(d1, sf)
            } else {
                cmax(d1, sf)
            };
            stpf = sf;
        } else {
            let mut sf = if (stpc - *stp).abs() > (stpq - *stp).abs() {
                stpc
            } else {
                stpq
            };
            sf = cmin(stpmax, sf);
            sf = cmax(stpmin, sf);
            stpf = sf;
        }
    } else if *brackt {
        let theta = (*fp - *fy) * 3.0 / (*sty - *stp) + *dy + *dp;
        let s = cmax(cmax(theta.abs(), dy.abs()), dp.abs());
        let d1 = theta / s;
        let mut gamm = s * (d1 * d1 - *dy / s * (*dp / s)).sqrt();
        if *stp > *sty {
            gamm = -gamm;
        }
        let p = gamm - *dp + theta;
        let q = gamm - *dp + gamm + *dy;
        let r = p / q;
        stpf = *stp + r * (*sty - *stp);
    } else if *stp > *stx {
        stpf = stpmax;
    } else {
        stpf = stpmin;
    }
    if *fp > *fx {
        *sty = *stp;
        *fy = *fp;
        *dy = *dp;
    } else {
        if sgnd < 0.0 {
            *sty = *stx;
            *fy = *fx;
            *dy = *dx;
        }
        *stx = *stp;
        *fx = *fp;
        *dx = *dp;
    }
    *stp = stpf;
}
