//! `smooth.spline(x, y, w, df, spar, lambda, cv, all.knots, nknots,
//! keep.data, df.offset, penalty, control.spar, tol, keep.stuff)`:
//! stats::smooth.spline of R 4.2.2, the cubic smoothing spline, and
//! `predict` of its value. The R function (src/library/stats/R/smspline.R,
//! with `.nknots.smspl`) is followed step by step, and below it the C and
//! Fortran it calls: sbart.c's `sbart` (through qsbart.f's `rbart`), with
//! sgram.f, stxwx.f, sslvrg.f, sinerp.f, bsplvd.f (`bsplvb`, `bsplvd`),
//! bvalue.f (`bvalue`, and `bvalus` for predict), appl/interv.c and
//! LINPACK's banded Cholesky `dpbfa`/`dpbsl`. The loops keep the Fortran's
//! order of operations (reference BLAS `ddot`/`daxpy` sum left to right),
//! so the fit agrees with R's to the last bits or nearly.
//!
//! The Fortran is 1-based; the ports index their arrays through small
//! closures or 1-based local arrays so that each line reads as the
//! original. `abd` and the other `(ld4, nk)` arrays are column-major.

// The Fortran's loops, as written.
#![allow(clippy::needless_range_loop)]

use super::args::{ArgError, Args};
use super::linalg::blas::ddot;
use super::names::bare;
use super::rowwise::find_interval2;
use super::summary::{self, ldouble, quantile};
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "smooth.spline",
    params: &[
        req("x"),
        opt("y"),
        opt("w"),
        opt("df"),
        opt("spar"),
        opt("lambda"),
        opt("cv"),
        opt("all.knots"),
        opt("nknots"),
        opt("keep.data"),
        opt("df.offset"),
        opt("penalty"),
        opt("control.spar"),
        opt("tol"),
        opt("keep.stuff"),
    ],
    random: false,
    shape,
    eval,
}];

/// R's class of the value, and of its `fit`.
pub(crate) const CLASS: &str = "smooth.spline";
const FIT_CLASS: &str = "smooth.spline.fit";

// ---------------------------------------------------------------------
// B-splines: bsplvd.f, bvalue.f, appl/interv.c
// ---------------------------------------------------------------------

/// appl/interv.c's `interv` (findInterval2 with rightmost_closed,
/// all_inside and left_open false) over `xt[1..=n]`: the interval `left`
/// and `mflag` (-1 left of xt[1], 1 at or right of xt[n], else 0).
fn interv(xt: &[f64], n: usize, x: f64, ilo: usize) -> (usize, i32) {
    let n = n.min(xt.len());
    let left = find_interval2(&xt[..n], x, false, false, false, ilo as i64) as usize;
    // findInterval2 returns 0 only at its left boundary and n only at its
    // right one (neither flag is set), which is where it sets mflag.
    let mflag = if n > 0 && left == 0 {
        -1
    } else if n > 0 && left == n {
        1
    } else {
        0
    };
    (left, mflag)
}

/// bsplvd.f's `bsplvb`, with its SAVEd `j`, `deltal` and `deltar`: the
/// values of the `jhigh` B-splines of order jhigh nonzero at `x`
/// (`index` 1 starts afresh, 2 raises the order of the last call's).
struct Bsplvb {
    j: usize,
    deltal: [f64; 21],
    deltar: [f64; 21],
}

impl Bsplvb {
    fn new() -> Bsplvb {
        Bsplvb {
            j: 1,
            deltal: [0.0; 21],
            deltar: [0.0; 21],
        }
    }

    fn call(
        &mut self,
        t: &[f64],
        jhigh: usize,
        index: i32,
        x: f64,
        left: usize,
        biatx: &mut [f64],
    ) {
        let tt = |i: usize| t.get(i.wrapping_sub(1)).copied().unwrap_or(f64::NAN);
        if index != 2 {
            self.j = 1;
            biatx[0] = 1.0;
            if self.j >= jhigh {
                return;
            }
        }
        // label 20: at least one step, as the Fortran's GO TO loop.
        loop {
            let j = self.j;
            if j >= 20 {
                return;
            }
            let jp1 = j + 1;
            self.deltar[j] = tt(left + j) - x;
            self.deltal[j] = x - tt((left + 1).wrapping_sub(j));
            let mut saved = 0.0;
            for i in 1..=j {
                let term = biatx[i - 1] / (self.deltar[i] + self.deltal[jp1 - i]);
                biatx[i - 1] = saved + self.deltar[i] * term;
                saved = self.deltal[jp1 - i] * term;
            }
            biatx[jp1 - 1] = saved;
            self.j = jp1;
            if self.j >= jhigh {
                return;
            }
        }
    }
}

/// bsplvd.f's `bsplvd`: the values and derivatives up to `nderiv - 1` of
/// the `k` B-splines of order k nonzero at `x`, in `dbiatx(k, nderiv)`
/// (column-major); `a(k, k)` is its work array.
#[allow(clippy::too_many_arguments)]
fn bsplvd(
    t: &[f64],
    k: usize,
    x: f64,
    left: usize,
    a: &mut [f64],
    dbiatx: &mut [f64],
    nderiv: usize,
) {
    let tt = |i: usize| t.get(i.wrapping_sub(1)).copied().unwrap_or(f64::NAN);
    let ai = |j: usize, i: usize| (i - 1) * k + (j - 1);
    let di = |i: usize, m: usize| (m - 1) * k + (i - 1);
    let mhigh = nderiv.min(k).max(1);
    let kp1 = k + 1;
    let mut bv = Bsplvb::new();
    bv.call(t, kp1 - mhigh, 1, x, left, dbiatx);
    if mhigh == 1 {
        return;
    }
    let mut ideriv = mhigh;
    for _m in 2..=mhigh {
        for (jp1mid, j) in (1..).zip(ideriv..=k) {
            dbiatx[di(j, ideriv)] = dbiatx[di(jp1mid, 1)];
        }
        ideriv -= 1;
        bv.call(t, kp1 - ideriv, 2, x, left, dbiatx);
    }
    let mut jlow = 1;
    for i in 1..=k {
        for j in jlow..=k {
            a[ai(j, i)] = 0.0;
        }
        jlow = i;
        a[ai(i, i)] = 1.0;
    }
    for m in 2..=mhigh {
        let kp1mm = kp1 - m;
        let fkp1mm = kp1mm as f64;
        let mut il = left;
        let mut i = k;
        for _ldummy in 1..=kp1mm {
            let factor = fkp1mm / (tt(il + kp1mm) - tt(il));
            for j in 1..=i {
                a[ai(i, j)] = (a[ai(i, j)] - a[ai(i - 1, j)]) * factor;
            }
            il = il.wrapping_sub(1);
            i -= 1;
        }
        for i in 1..=k {
            let mut sum = 0.0;
            let jlow = i.max(m);
            for j in jlow..=k {
                // The Fortran's `a*d + sum`: the same sum either way round.
                sum += a[ai(j, i)] * dbiatx[di(j, m)];
            }
            dbiatx[di(i, m)] = sum;
        }
    }
}

/// bvalue.f's `bvalue`: the `jderiv`-th derivative at `x` of the spline
/// of order `k` with knots `t` and coefficients `bcoef(1..=n)`. `i` is the
/// Fortran's SAVEd interval, a starting guess only.
fn bvalue(
    t: &[f64],
    bcoef: &[f64],
    n: usize,
    k: usize,
    x: f64,
    jderiv: usize,
    i: &mut usize,
) -> f64 {
    const KMAX: usize = 20;
    let tt = |j: usize| t.get(j.wrapping_sub(1)).copied().unwrap_or(f64::NAN);
    let bc = |j: usize| bcoef.get(j.wrapping_sub(1)).copied().unwrap_or(f64::NAN);
    if jderiv >= k || k > KMAX || n == 0 {
        return 0.0;
    }
    if x != tt(n + 1) || tt(n + 1) != tt(n + k) {
        let (left, mflag) = interv(t, n + k, x, *i);
        *i = left;
        if mflag != 0 {
            // R warns "bvalue()  mflag != 0: should never happen!": x is
            // always inside the knots here.
            return 0.0;
        }
    } else {
        *i = n;
    }
    let i = *i;
    let km1 = k - 1;
    if km1 == 0 {
        return bc(i);
    }
    // 1-based local arrays, as the Fortran's.
    let mut aj = [0.0; KMAX + 1];
    let mut dm = [0.0; KMAX + 1];
    let mut dp = [0.0; KMAX + 1];
    let mut jcmin = 1;
    let imk = i as i64 - k as i64;
    if imk >= 0 {
        for j in 1..=km1 {
            dm[j] = x - tt(i + 1 - j);
        }
    } else {
        jcmin = (1 - imk) as usize;
        for j in 1..=i {
            dm[j] = x - tt(i + 1 - j);
        }
        for j in i..=km1 {
            aj[k - j] = 0.0;
            dm[j] = dm[i];
        }
    }
    let mut jcmax = k;
    let nmi = n as i64 - i as i64;
    if nmi >= 0 {
        for j in 1..=km1 {
            dp[j] = tt(i + j) - x;
        }
    } else {
        jcmax = (k as i64 + nmi).max(0) as usize;
        for j in 1..=jcmax {
            dp[j] = tt(i + j) - x;
        }
        for j in jcmax..=km1 {
            aj[j + 1] = 0.0;
            dp[j] = dp[jcmax];
        }
    }
    for jc in jcmin..=jcmax {
        aj[jc] = bc((imk + jc as i64) as usize);
    }
    for j in 1..=jderiv {
        let kmj = k - j;
        let fkmj = kmj as f64;
        let mut ilo = kmj;
        for jj in 1..=kmj {
            aj[jj] = ((aj[jj + 1] - aj[jj]) / (dm[ilo] + dp[jj])) * fkmj;
            ilo -= 1;
        }
    }
    if jderiv != km1 {
        for j in jderiv + 1..=km1 {
            let kmj = k - j;
            let mut ilo = kmj;
            for jj in 1..=kmj {
                aj[jj] = (aj[jj + 1] * dm[ilo] + aj[jj] * dp[jj]) / (dm[ilo] + dp[jj]);
                ilo -= 1;
            }
        }
    }
    aj[1]
}

// ---------------------------------------------------------------------
// LINPACK's banded Cholesky: dpbfa.f, dpbsl.f (R's src/appl)
// ---------------------------------------------------------------------

/// LINPACK `dpbfa`: the Cholesky factor R (R'R = abd) of the symmetric
/// band matrix in `abd(lda, n)` with `m` superdiagonals, in place; `info`
/// is 0, or the order of the leading minor that is not positive definite.
fn dpbfa(abd: &mut [f64], lda: usize, n: usize, m: usize) -> usize {
    let at = |k: usize, j: usize| (j - 1) * lda + (k - 1);
    for j in 1..=n {
        let mut s = 0.0;
        let mut ik = m + 1;
        let mut jk = if j > m { j - m } else { 1 };
        let mu = if m + 2 > j { m + 2 - j } else { 1 };
        if m >= mu {
            for k in mu..=m {
                let len = k - mu;
                let (x0, y0) = (at(ik, jk), at(mu, j));
                let dot = ddot(&abd[x0..x0 + len], &abd[y0..y0 + len]);
                let mut t = abd[at(k, j)] - dot;
                t /= abd[at(m + 1, jk)];
                abd[at(k, j)] = t;
                s += t * t;
                ik -= 1;
                jk += 1;
            }
        }
        s = abd[at(m + 1, j)] - s;
        if s <= 0.0 {
            return j;
        }
        abd[at(m + 1, j)] = s.sqrt();
    }
    0
}

/// LINPACK `dpbsl`: solves abd x = b from `dpbfa`'s factor, in place.
fn dpbsl(abd: &[f64], lda: usize, n: usize, m: usize, b: &mut [f64]) {
    let at = |k: usize, j: usize| (j - 1) * lda + (k - 1);
    for k in 1..=n {
        let lm = (k - 1).min(m);
        let la = m + 1 - lm;
        let lb = k - lm;
        let a0 = at(la, k);
        let t = ddot(&abd[a0..a0 + lm], &b[lb - 1..lb - 1 + lm]);
        b[k - 1] = (b[k - 1] - t) / abd[at(m + 1, k)];
    }
    for kb in 1..=n {
        let k = n + 1 - kb;
        let lm = (k - 1).min(m);
        let la = m + 1 - lm;
        let lb = k - lm;
        b[k - 1] /= abd[at(m + 1, k)];
        let t = -b[k - 1];
        // daxpy returns at once when its multiplier is zero.
        if t != 0.0 {
            let a0 = at(la, k);
            for i in 0..lm {
                b[lb - 1 + i] += t * abd[a0 + i];
            }
        }
    }
}

// ---------------------------------------------------------------------
// The smoother: sgram.f, stxwx.f, sinerp.f, sslvrg.f, sbart.c
// ---------------------------------------------------------------------

/// sbart's work arrays: X'Wy, the four diagonals of X'WX and of SIGMA,
/// the banded factor and sinerp's inner products.
struct Work {
    xwy: Vec<f64>,
    hs: [Vec<f64>; 4],
    sg: [Vec<f64>; 4],
    abd: Vec<f64>,
    p1ip: Vec<f64>,
}

/// sgram.f: the banded Gram matrix SIGMA of the B-splines' second
/// derivatives, `sg0..sg3` its four upper diagonals.
fn sgram(sg: &mut [Vec<f64>; 4], tb: &[f64], nb: usize) {
    let tbv = |i: usize| tb.get(i.wrapping_sub(1)).copied().unwrap_or(f64::NAN);
    for s in sg.iter_mut() {
        s.iter_mut().for_each(|v| *v = 0.0);
    }
    let lentb = nb + 4;
    let mut vnikx = [0.0; 12];
    let mut work = [0.0; 16];
    let mut yw1 = [0.0; 5];
    let mut yw2 = [0.0; 5];
    let mut ileft = 1;
    for i in 1..=nb {
        let (l, _mflag) = interv(tb, nb + 1, tbv(i), ileft);
        ileft = l;
        // Left end second derivatives.
        bsplvd(
            &tb[..lentb.min(tb.len())],
            4,
            tbv(i),
            ileft,
            &mut work,
            &mut vnikx,
            3,
        );
        for ii in 1..=4 {
            yw1[ii] = vnikx[8 + ii - 1];
        }
        // Right end second derivatives.
        bsplvd(
            &tb[..lentb.min(tb.len())],
            4,
            tbv(i + 1),
            ileft,
            &mut work,
            &mut vnikx,
            3,
        );
        // Slope * (length of interval) in the linear approximation to B''.
        for ii in 1..=4 {
            yw2[ii] = vnikx[8 + ii - 1] - yw1[ii];
        }
        let wpt = tbv(i + 1) - tbv(i);
        let term = |ii: usize, jj: usize| {
            wpt * (yw1[ii] * yw1[jj]
                + (yw2[ii] * yw1[jj] + yw2[jj] * yw1[ii]) * 0.5
                + yw2[ii] * yw2[jj] * 0.3330)
        };
        // The four branches of the Fortran (ileft >= 4, 3, 2, 1) differ
        // only in how many B-splines are nonzero: `m` of them.
        let m = ileft.min(4);
        if m == 0 {
            continue;
        }
        for ii in 1..=m {
            let base = ileft + ii - m; // 1-based index of sg*(.)
            for (d, s) in sg.iter_mut().enumerate() {
                let jj = ii + d;
                if jj <= m {
                    if let Some(v) = s.get_mut(base - 1) {
                        *v += term(ii, jj);
                    }
                }
            }
        }
    }
}

/// stxwx.f: X'W^2 X (its four diagonals `hs`) and X'W^2 z (`y`) for the
/// B-spline basis on `xknot` (the weights `w` are sqrt of R's).
fn stxwx(
    x: &[f64],
    z: &[f64],
    w: &[f64],
    xknot: &[f64],
    n: usize,
    y: &mut [f64],
    hs: &mut [Vec<f64>; 4],
) {
    y.iter_mut().for_each(|v| *v = 0.0);
    for h in hs.iter_mut() {
        h.iter_mut().for_each(|v| *v = 0.0);
    }
    let lenxk = (n + 4).min(xknot.len());
    let mut vnikx = [0.0; 4];
    let mut work = [0.0; 16];
    let mut ileft = 1;
    let eps = 0.1e-9;
    for i in 0..x.len() {
        let (l, mflag) = interv(xknot, n + 1, x[i], ileft);
        ileft = l;
        if mflag == 1 {
            if x[i] <= xknot[ileft - 1] + eps {
                ileft -= 1;
            } else {
                return;
            }
        }
        if ileft < 4 {
            // x left of the knots: the Fortran would index outside its
            // arrays; the knots here always cover the data.
            return;
        }
        bsplvd(&xknot[..lenxk], 4, x[i], ileft, &mut work, &mut vnikx, 1);
        let ww = w[i] * w[i];
        let j = ileft - 4;
        y[j] += ww * z[i] * vnikx[0];
        hs[0][j] += ww * (vnikx[0] * vnikx[0]);
        hs[1][j] += ww * vnikx[0] * vnikx[1];
        hs[2][j] += ww * vnikx[0] * vnikx[2];
        hs[3][j] += ww * vnikx[0] * vnikx[3];
        let j = ileft - 4 + 1;
        y[j] += ww * z[i] * vnikx[1];
        hs[0][j] += ww * (vnikx[1] * vnikx[1]);
        hs[1][j] += ww * vnikx[1] * vnikx[2];
        hs[2][j] += ww * vnikx[1] * vnikx[3];
        let j = ileft - 4 + 2;
        y[j] += ww * z[i] * vnikx[2];
        hs[0][j] += ww * (vnikx[2] * vnikx[2]);
        hs[1][j] += ww * vnikx[2] * vnikx[3];
        let j = ileft - 4 + 3;
        y[j] += ww * z[i] * vnikx[3];
        hs[0][j] += ww * (vnikx[3] * vnikx[3]);
    }
}

/// sinerp.f with `flag` 0 (all sslvrg asks): the inner products of the
/// columns of R^-1 within the band, `p1ip(4, nk)`, from the factor `abd`.
fn sinerp(abd: &[f64], nk: usize, p1ip: &mut [f64]) {
    let a = |k: usize, j: usize| abd[(j - 1) * 4 + (k - 1)];
    let p = |k: usize, j: usize| (j - 1) * 4 + (k - 1);
    let (mut c1, mut c2, mut c3);
    let mut wjm3 = [0.0; 4];
    let mut wjm2 = [0.0; 3];
    let mut wjm1 = [0.0; 2];
    for i in 1..=nk {
        let j = nk - i + 1;
        let c0 = 1.0 / a(4, j);
        if j + 3 <= nk {
            c1 = a(1, j + 3) * c0;
            c2 = a(2, j + 2) * c0;
            c3 = a(3, j + 1) * c0;
        } else if j + 2 == nk {
            c1 = 0.0;
            c2 = a(2, j + 2) * c0;
            c3 = a(3, j + 1) * c0;
        } else if j + 1 == nk {
            c1 = 0.0;
            c2 = 0.0;
            c3 = a(3, j + 1) * c0;
        } else {
            c1 = 0.0;
            c2 = 0.0;
            c3 = 0.0;
        }
        p1ip[p(1, j)] = 0.0 - (c1 * wjm3[1] + c2 * wjm3[2] + c3 * wjm3[3]);
        p1ip[p(2, j)] = 0.0 - (c1 * wjm3[2] + c2 * wjm2[1] + c3 * wjm2[2]);
        p1ip[p(3, j)] = 0.0 - (c1 * wjm3[3] + c2 * wjm2[2] + c3 * wjm1[1]);
        p1ip[p(4, j)] = c0 * c0
            + c1 * c1 * wjm3[1]
            + 2.0 * c1 * c2 * wjm3[2]
            + 2.0 * c1 * c3 * wjm3[3]
            + c2 * c2 * wjm2[1]
            + 2.0 * c2 * c3 * wjm2[2]
            + c3 * c3 * wjm1[1];
        wjm3[1] = wjm2[1];
        wjm3[2] = wjm2[2];
        wjm3[3] = p1ip[p(2, j)];
        wjm2[1] = wjm1[1];
        wjm2[2] = p1ip[p(3, j)];
        wjm1[1] = p1ip[p(4, j)];
    }
}

/// The data and settings sslvrg reads (sbart's arguments).
struct Problem<'a> {
    penalt: f64,
    dofoff: f64,
    x: &'a [f64],
    y: &'a [f64],
    /// sqrt of R's weights (sbart takes the root in place).
    w: Vec<f64>,
    ssw: f64,
    knot: &'a [f64],
    nk: usize,
    icrit: i32,
}

/// sslvrg's and sbart's outputs.
struct Out {
    coef: Vec<f64>,
    sz: Vec<f64>,
    lev: Vec<f64>,
    crit: f64,
    ier: usize,
}

/// sslvrg.f: the smoothing spline for `lambda` (coef, the fit `sz`), the
/// leverages and the criterion `icrit` asks for (1 GCV, 2 CV, 3 df
/// matching); `ier` is dpbfa's info, and on failure the rest is left as
/// it was, as in the Fortran.
fn sslvrg(p: &Problem, lambda: f64, work: &mut Work, out: &mut Out) {
    let nk = p.nk;
    let n = p.x.len();
    let knot = p.knot;
    let lenkno = (nk + 4).min(knot.len());
    let eps = 1e-11;
    let ab = |k: usize, j: usize| (j - 1) * 4 + (k - 1);
    for i in 1..=nk {
        out.coef[i - 1] = work.xwy[i - 1];
        work.abd[ab(4, i)] = work.hs[0][i - 1] + lambda * work.sg[0][i - 1];
    }
    for i in 1..nk {
        work.abd[ab(3, i + 1)] = work.hs[1][i - 1] + lambda * work.sg[1][i - 1];
    }
    for i in 1..nk.saturating_sub(1) {
        work.abd[ab(2, i + 2)] = work.hs[2][i - 1] + lambda * work.sg[2][i - 1];
    }
    for i in 1..nk.saturating_sub(2) {
        work.abd[ab(1, i + 3)] = work.hs[3][i - 1] + lambda * work.sg[3][i - 1];
    }
    out.ier = dpbfa(&mut work.abd, 4, nk, 3);
    if out.ier != 0 {
        return;
    }
    dpbsl(&work.abd, 4, nk, 3, &mut out.coef);
    let mut ib = 1;
    for i in 0..n {
        out.sz[i] = bvalue(knot, &out.coef, nk, 4, p.x[i], 0, &mut ib);
    }
    if p.icrit < 1 {
        return;
    }
    // Leverages first.
    sinerp(&work.abd, nk, &mut work.p1ip);
    let pp = |k: usize, j: usize| work.p1ip[(j - 1) * 4 + (k - 1)];
    let mut vnikx = [0.0; 4];
    let mut wk = [0.0; 16];
    let mut ileft = 1;
    for i in 0..n {
        let mut xv = p.x[i];
        let (l, mflag) = interv(knot, nk + 1, xv, ileft);
        ileft = l;
        if mflag == -1 {
            ileft = 4;
            xv = knot[3] + eps;
        } else if mflag == 1 {
            ileft = nk;
            xv = knot[nk] - eps;
        }
        if ileft < 4 {
            continue;
        }
        let j = ileft - 3;
        bsplvd(&knot[..lenkno], 4, xv, ileft, &mut wk, &mut vnikx, 1);
        let (b0, b1, b2, b3) = (vnikx[0], vnikx[1], vnikx[2], vnikx[3]);
        out.lev[i] = (pp(4, j) * (b0 * b0)
            + 2.0 * pp(3, j) * b0 * b1
            + 2.0 * pp(2, j) * b0 * b2
            + 2.0 * pp(1, j) * b0 * b3
            + pp(4, j + 1) * (b1 * b1)
            + 2.0 * pp(3, j + 1) * b1 * b2
            + 2.0 * pp(2, j + 1) * b1 * b3
            + pp(4, j + 2) * (b2 * b2)
            + 2.0 * pp(3, j + 2) * b2 * b3
            + pp(4, j + 3) * (b3 * b3))
            * (p.w[i] * p.w[i]);
    }
    let mut df = 0.0;
    if p.icrit == 1 {
        // Generalized CV; w(i)^2 are R's weights, scaled so that sumw is
        // the number of observations with positive weight.
        let mut rss = p.ssw;
        let mut sumw = 0.0;
        for i in 0..n {
            let r = (p.y[i] - out.sz[i]) * p.w[i];
            rss += r * r;
            df += out.lev[i];
            sumw += p.w[i] * p.w[i];
        }
        let d = 1.0 - (p.dofoff + p.penalt * df) / sumw;
        out.crit = (rss / sumw) / (d * d);
    } else if p.icrit == 2 {
        // Ordinary (leave-one-out) CV.
        out.crit = 0.0;
        for i in 0..n {
            let r = ((p.y[i] - out.sz[i]) * p.w[i]) / (1.0 - out.lev[i]);
            out.crit += r * r;
        }
        out.crit /= n as f64;
    } else {
        for i in 0..n {
            df += out.lev[i];
        }
        if p.icrit == 3 {
            let d = p.dofoff - df;
            out.crit = 3.0 + d * d;
        } else {
            out.crit = df - p.dofoff;
        }
    }
}

/// sbart.c's settings: `ispar` 1 when spar (or lambda) is given, the
/// search interval, its tolerances and the iteration limit.
struct Search {
    ispar: i32,
    spar: f64,
    spar_is_lambda: bool,
    lspar: f64,
    uspar: f64,
    tol: f64,
    eps: f64,
    maxit: i64,
}

/// sbart's results beside [`Out`]: spar, lambda (`lspar`), the ratio
/// tr(X'WX) / tr(SIGMA) and the iterations of the search.
struct Found {
    spar: f64,
    lambda: f64,
    ratio: f64,
    iter: i64,
}

/// sbart.c's `sbart`: the fit for the given spar or lambda, or Brent's
/// golden-section and parabolic search (Forsythe, Malcolm and Moler's
/// fmin) for the spar minimising the criterion. As in R, coef, sz and lev
/// are those of the last evaluation, and lambda the last one tried.
fn sbart(p: &mut Problem, s: &Search, work: &mut Work, out: &mut Out) -> Found {
    // c_Gold, the squared inverse of the golden ratio.
    const C_GOLD: f64 = 0.381966011250105151795413165634;
    const BIG_F: f64 = 1e100;
    let mut ratio = 1.0;
    // "trevor fixed this 4/19/88": the routines square the weights.
    for w in p.w.iter_mut() {
        if *w > 0.0 {
            *w = w.sqrt();
        }
    }
    sgram(&mut work.sg, p.knot, p.nk);
    stxwx(p.x, p.y, &p.w, p.knot, p.nk, &mut work.xwy, &mut work.hs);
    if !s.spar_is_lambda {
        // ratio := tr(X'WX) / tr(SIGMA) over the interior.
        let (mut t1, mut t2) = (0.0, 0.0);
        for i in 2..p.nk.saturating_sub(3) {
            t1 += work.hs[0][i];
            t2 += work.sg[0][i];
        }
        ratio = t1 / t2;
    }
    let mut lspar = s.lspar;
    let sspline = |sp: f64, work: &mut Work, out: &mut Out, lspar: &mut f64| {
        *lspar = if s.spar_is_lambda {
            sp
        } else {
            ratio * r_pow(16.0, sp * 6.0 - 2.0)
        };
        sslvrg(p, *lspar, work, out);
    };
    if s.ispar == 1 {
        sspline(s.spar, work, out, &mut lspar);
        return Found {
            spar: s.spar,
            lambda: lspar,
            ratio,
            iter: s.maxit,
        };
    }
    let ax = s.lspar;
    let bx = s.uspar;
    let maxit = s.maxit;
    let mut iter = 0;
    let mut a = ax;
    let mut b = bx;
    let mut v = a + C_GOLD * (b - a);
    let mut w = v;
    let mut x = v;
    let mut e: f64 = 0.0;
    let mut d = 0.0;
    sspline(x, work, out, &mut lspar);
    let mut fx = out.crit;
    let mut fv = fx;
    let mut fw = fx;
    while out.ier == 0 {
        let xm = (a + b) * 0.5;
        let tol1 = s.eps * x.abs() + s.tol / 3.0;
        let tol2 = tol1 * 2.0;
        iter += 1;
        // The (somewhat peculiar) stopping rule: the right side is
        // negative as long as [a, b] is not small.
        if (x - xm).abs() <= tol2 - (b - a) * 0.5 || iter > maxit {
            break;
        }
        let mut golden = true;
        if !(e.abs() <= tol1 || fx >= BIG_F || fv >= BIG_F || fw >= BIG_F) {
            // Fit a parabola.
            let mut r = (x - w) * (fx - fv);
            let mut q = (x - v) * (fx - fw);
            let mut pp = (x - v) * q - (x - w) * r;
            q = (q - r) * 2.0;
            if q > 0.0 {
                pp = -pp;
            }
            q = q.abs();
            r = e;
            e = d;
            if !(pp.abs() >= (0.5 * q * r).abs()
                || q == 0.0
                || pp <= q * (a - x)
                || pp >= q * (b - x))
            {
                // A parabolic interpolation step; f must not be evaluated
                // too close to ax or bx.
                d = pp / q;
                let u = x + d;
                if u - a < tol2 || b - u < tol2 {
                    d = fsign(tol1, xm - x);
                }
                golden = false;
            }
        }
        if golden {
            e = if x >= xm { a - x } else { b - x };
            d = C_GOLD * e;
        }
        // f must not be evaluated too close to x.
        let u = x + if d.abs() >= tol1 { d } else { fsign(tol1, d) };
        sspline(u, work, out, &mut lspar);
        let mut fu = out.crit;
        if !fu.is_finite() {
            // R prints "spar-finding: non-finite value ..." to stderr.
            fu = 2.0 * BIG_F;
        }
        if fu <= fx {
            if u >= x {
                a = x;
            } else {
                b = x;
            }
            v = w;
            fv = fw;
            w = x;
            fw = fx;
            x = u;
            fx = fu;
        } else {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w == x {
                v = w;
                fv = fw;
                w = u;
                fw = fu;
            } else if fu <= fv || v == x || v == w {
                v = u;
                fv = fu;
            }
        }
    }
    out.crit = fx;
    Found {
        spar: x,
        lambda: lspar,
        ratio,
        iter,
    }
}

/// R's `fsign`: |x| with the sign of y.
fn fsign(x: f64, y: f64) -> f64 {
    if y >= 0.0 {
        x.abs()
    } else {
        -x.abs()
    }
}

/// R's `R_pow` for finite arguments, as sbart calls it.
fn r_pow(x: f64, y: f64) -> f64 {
    if x == 1.0 || y == 0.0 {
        1.0
    } else if y == 2.0 {
        x * x
    } else {
        x.powf(y)
    }
}

// ---------------------------------------------------------------------
// The R function smooth.spline (smspline.R)
// ---------------------------------------------------------------------

/// `.nknots.smspl(n)`: the number of inner knots for n unique x.
fn nknots_smspl(n: usize) -> f64 {
    let n = n as f64;
    if n < 50.0 {
        return n;
    }
    let a1 = 50f64.log2();
    let a2 = 100f64.log2();
    let a3 = 140f64.log2();
    let a4 = 200f64.log2();
    let v = if n < 200.0 {
        2f64.powf(a1 + (a2 - a1) * (n - 50.0) / 150.0)
    } else if n < 800.0 {
        2f64.powf(a2 + (a3 - a2) * (n - 200.0) / 600.0)
    } else if n < 3200.0 {
        2f64.powf(a3 + (a4 - a3) * (n - 800.0) / 2400.0)
    } else {
        200.0 + (n - 3200.0).powf(0.2)
    };
    v.trunc()
}

fn err(m: impl Into<String>) -> KernelError {
    KernelError::new(m)
}

const NOT_LOGICAL: &str = "missing value where TRUE/FALSE needed";

/// A number vector from an argument (logicals as 0/1, NA as NA).
fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        Value::Factor(f) => Ok(f.integer_codes()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            err(format!(
                "flowcast's smooth.spline() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

/// One number from an argument; `None` when absent.
fn scalar(args: &Args<&Value>, name: &str) -> Result<Option<f64>, KernelError> {
    match args.get(name) {
        None => Ok(None),
        Some(v) => {
            let x = numbers(v, name)?;
            Ok(Some(x.first().copied().unwrap_or(NA)))
        }
    }
}

/// `if (v)` of a logical argument: R's error for NA or an empty one.
fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    match args.get(name).map(bare) {
        None => Ok(default),
        Some(Value::Bool(b)) => match b.first() {
            Some(Some(v)) => Ok(*v),
            Some(None) => Err(err(NOT_LOGICAL)),
            None => Err(err("argument is of length zero")),
        },
        Some(v) => {
            let x = numbers(v, name)?;
            match x.first() {
                None => Err(err("argument is of length zero")),
                Some(v) if v.is_nan() => Err(err(NOT_LOGICAL)),
                Some(v) => Ok(*v != 0.0),
            }
        }
    }
}

/// xy.coords(x, y): a matrix's first two columns, a list's x and y, a
/// vector against its index, or x and y.
fn xy_coords(args: &Args<&Value>) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let xv = args
        .get("x")
        .ok_or_else(|| err("argument \"x\" is missing, with no default"))?;
    let (x, y) = match args.get("y").map(bare) {
        None | Some(Value::Null) => match bare(xv) {
            Value::Mat(m) if m.ncols() >= 2 => (
                m.column(0).iter().copied().collect(),
                m.column(1).iter().copied().collect(),
            ),
            Value::List(l) if l.field("x").is_some() && l.field("y").is_some() => (
                numbers(l.field("x").unwrap_or(&Value::Null), "x")?,
                numbers(l.field("y").unwrap_or(&Value::Null), "y")?,
            ),
            Value::List(_) => {
                return Err(err(
                    "'x' is a list, but does not have components 'x' and 'y'",
                ))
            }
            _ => {
                let y = numbers(xv, "x")?;
                ((1..=y.len()).map(|i| i as f64).collect(), y)
            }
        },
        Some(yv) => (numbers(xv, "x")?, numbers(yv, "y")?),
    };
    if x.len() != y.len() {
        return Err(err("'x' and 'y' lengths differ"));
    }
    Ok((x, y))
}

/// R's `sum()` of doubles (in long double).
fn rsum(x: &[f64]) -> f64 {
    ldouble::sum(x).to_f64()
}

/// control.spar: low, high, tol, eps, maxit (trace = TRUE is refused:
/// it prints the search, which a step cannot show).
fn control_spar(v: Option<&Value>) -> Result<(f64, f64, f64, f64, f64), KernelError> {
    let (mut low, mut high, mut tol, mut eps, mut maxit) = (-1.5, 1.5, 1e-4, 2e-8, 500.0);
    let mut numeric = true;
    if let Some(v) = v.map(bare) {
        let l = match v {
            Value::Null => None,
            Value::List(l) => Some(l),
            _ => {
                return Err(err(
                    "flowcast's smooth.spline() needs a list for 'control.spar'",
                ))
            }
        };
        for (i, item) in l.iter().flat_map(|l| l.items.iter().enumerate()) {
            let name = l
                .and_then(|l| l.names.as_ref())
                .and_then(|n| n.get(i))
                .map(String::as_str)
                .unwrap_or("");
            let num = match bare(item) {
                Value::Num(x) => Some(x.first().copied().unwrap_or(NA)),
                Value::Bool(b) if name == "trace" || name == "maxit" => Some(match b.first() {
                    Some(Some(true)) => 1.0,
                    Some(Some(false)) => 0.0,
                    _ => NA,
                }),
                _ => None,
            };
            match name {
                "low" | "high" | "tol" | "eps" => match num {
                    Some(x) => match name {
                        "low" => low = x,
                        "high" => high = x,
                        "tol" => tol = x,
                        _ => eps = x,
                    },
                    None => numeric = false,
                },
                "maxit" => maxit = num.unwrap_or(NA),
                "trace" => {
                    if num.is_some_and(|t| t != 0.0) {
                        return Err(err(
                            "flowcast's smooth.spline() cannot print the spar search: give control.spar = list(trace = FALSE)",
                        ));
                    }
                }
                other => {
                    return Err(err(format!(
                        "flowcast's smooth.spline() knows no control.spar entry '{other}' (R's are low, high, tol, eps, maxit and trace)"
                    )))
                }
            }
        }
    }
    if !numeric {
        return Err(err("invalid 'control.spar'"));
    }
    if tol.is_nan() || eps.is_nan() || maxit.is_nan() {
        return Err(err(NOT_LOGICAL));
    }
    if tol < 0.0 || eps <= 0.0 || maxit <= 0.0 {
        return Err(err("invalid 'control.spar'"));
    }
    Ok((low, high, tol, eps, maxit))
}

fn num(v: f64) -> Value {
    Value::Num(vec![v])
}

fn record(class: Option<&str>, fields: Vec<(&str, Value)>) -> Value {
    Value::List(match class {
        Some(class) => List::record(class, fields),
        None => List::named(fields),
    })
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (low, high, ctol, ceps, cmaxit) = control_spar(args.get("control.spar"))?;
    let (x, y) = xy_coords(args)?;
    if x.iter().chain(&y).any(|v| !v.is_finite()) {
        return Err(err("missing or infinite values in inputs are not allowed"));
    }
    let n = x.len();
    let no_wgts = matches!(args.get("w").map(bare), None | Some(Value::Null));
    // w: 1 (recycled) without weights, else scaled so that sum(w) is the
    // number of positive weights.
    let w: Vec<f64> = if no_wgts {
        vec![1.0]
    } else {
        let w = numbers(args.get("w").unwrap_or(&Value::Null), "w")?;
        if n != w.len() {
            return Err(err("lengths of 'x' and 'w' must match"));
        }
        if w.iter().any(|v| v.is_nan()) {
            return Err(err(NOT_LOGICAL));
        }
        if w.iter().any(|&v| v < 0.0) {
            return Err(err("all weights should be non-negative"));
        }
        if w.iter().all(|&v| v == 0.0) {
            return Err(err("some weights should be positive"));
        }
        let pos = w.iter().filter(|&&v| v > 0.0).count() as f64;
        let sw = rsum(&w);
        w.iter().map(|&v| (v * pos) / sw).collect()
    };
    let wi = |i: usize| if no_wgts { 1.0 } else { w[i] };
    // tol = 1e-6 * IQR(x), forced only here (after x is xy$x).
    let tol = match scalar(args, "tol")? {
        Some(t) => t,
        None if n == 0 => NA,
        None => {
            let q = quantile::quantile(&x, &[0.25, 0.75], 7).unwrap_or(vec![NA, NA]);
            1e-6 * (q[1] - q[0])
        }
    };
    if !tol.is_finite() || tol <= 0.0 {
        return Err(err("'tol' must be strictly positive and finite"));
    }
    let keep_stuff = flag(args, "keep.stuff", false)?;
    let keep_data = flag(args, "keep.data", true)?;
    // Replace y[], w[] for the same x[] (to a precision of tol) by their
    // mean; x de-meaned against overflow.
    let mx = summary::mean(&x);
    let xx: Vec<f64> = x
        .iter()
        .map(|&v| ((v - mx) / tol).round_ties_even())
        .collect();
    let uns_x = x.windows(2).any(|p| p[0] > p[1]);
    let mut iox: Vec<usize> = (0..n).collect();
    if uns_x {
        iox.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    }
    let xxs: Vec<f64> = iox.iter().map(|&i| xx[i]).collect();
    let nd: Vec<bool> = (0..n).map(|i| i == 0 || xxs[i - 1] < xxs[i]).collect();
    let ux: Vec<f64> = (0..n).filter(|&i| nd[i]).map(|i| x[iox[i]]).collect();
    let nx = ux.len();
    if nx <= 3 {
        return Err(err("need at least four unique 'x' values"));
    }
    // ox: the group (0-based) of each original observation.
    let mut ox = vec![0usize; n];
    let mut g = 0;
    for i in 0..n {
        if i > 0 && nd[i] {
            g += 1;
        }
        ox[iox[i]] = g;
    }
    let (mut wbar, mut ysum, mut y2sum) = (vec![0.0; nx], vec![0.0; nx], vec![0.0; nx]);
    if nx == n {
        for (k, &i) in iox.iter().enumerate() {
            let wv = wi(i);
            wbar[k] = wv;
            ysum[k] = wv * y[i];
            y2sum[k] = wv * (y[i] * y[i]);
        }
    } else {
        // tapply over the groups: sums in each group's original order.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); nx];
        for i in 0..n {
            members[ox[i]].push(i);
        }
        for (k, m) in members.iter().enumerate() {
            if no_wgts {
                wbar[k] = m.len() as f64;
                ysum[k] = rsum(&m.iter().map(|&i| y[i]).collect::<Vec<_>>());
                y2sum[k] = rsum(&m.iter().map(|&i| y[i] * y[i]).collect::<Vec<_>>());
            } else {
                wbar[k] = rsum(&m.iter().map(|&i| w[i]).collect::<Vec<_>>());
                ysum[k] = rsum(&m.iter().map(|&i| w[i] * y[i]).collect::<Vec<_>>());
                y2sum[k] = rsum(&m.iter().map(|&i| w[i] * (y[i] * y[i])).collect::<Vec<_>>());
            }
        }
    }
    let ybar: Vec<f64> = (0..nx)
        .map(|k| ysum[k] / if wbar[k] > 0.0 { wbar[k] } else { 1.0 })
        .collect();
    let yssw = rsum(
        &(0..nx)
            .map(|k| y2sum[k] - wbar[k] * (ybar[k] * ybar[k]))
            .collect::<Vec<_>>(),
    );
    // cv in {NA, FALSE, TRUE}.
    let cv: Option<bool> = match args.get("cv").map(bare) {
        None => Some(false),
        Some(Value::Bool(b)) => b.first().copied().flatten(),
        Some(v) => numbers(v, "cv")?
            .first()
            .and_then(|c| (!c.is_nan()).then_some(*c != 0.0)),
    };
    let df_given = scalar(args, "df")?;
    if cv.is_none() && df_given.is_some() {
        return Err(err("'cv' must not be NA when 'df' is specified"));
    }
    let cv_flag = cv == Some(true);
    if cv_flag && nx < n {
        ctx.warn("cross-validation with non-unique 'x' values seems doubtful");
    }
    let r_ux = ux[nx - 1] - ux[0];
    let xbar: Vec<f64> = ux.iter().map(|&u| (u - ux[0]) / r_ux).collect();
    let nknots_given = matches!(args.get("nknots").map(bare), Some(v) if !matches!(v, Value::Null));
    let (knot, nknots) = match args.get("all.knots").map(bare) {
        Some(Value::Num(ak)) => {
            if ak.iter().any(|v| v.is_nan()) || ak.windows(2).any(|p| p[0] >= p[1]) {
                return Err(err("Numeric 'all.knots' must be strictly increasing"));
            }
            if nknots_given {
                ctx.warn("'all.knots' is vector of knots; 'nknots' specification is disregarded");
            }
            let nk = ak.len();
            if nk == 0 {
                return Err(err("argument is of length zero"));
            }
            if 0.0 < ak[0] || ak[nk - 1] < 1.0 {
                return Err(err(
                    "numeric 'all.knots' must cover [0,1] (= the transformed data-range)",
                ));
            }
            let mut knot = vec![ak[0]; 3];
            knot.extend_from_slice(ak);
            knot.extend([ak[nk - 1]; 3]);
            (knot, nk as f64)
        }
        _ => {
            let all_knots = flag(args, "all.knots", false)?;
            let nknots = if all_knots {
                if nknots_given {
                    ctx.warn("'all.knots' is TRUE; 'nknots' specification is disregarded");
                }
                nx as f64
            } else if !nknots_given {
                nknots_smspl(nx)
            } else {
                let v = args.get("nknots").map(bare).unwrap_or(&Value::Null);
                let k = match v {
                    Value::Num(k) => k.first().copied().unwrap_or(NA),
                    _ => return Err(err("'nknots' must be numeric (in {1,..,n})")),
                };
                if k.is_nan() {
                    return Err(err(NOT_LOGICAL));
                }
                if k < 1.0 {
                    return Err(err("'nknots' must be at least 1"));
                }
                if k > nx as f64 {
                    return Err(err("cannot use more inner knots than unique 'x' values"));
                }
                k
            };
            let mut knot = vec![xbar[0]; 3];
            if all_knots {
                knot.extend_from_slice(&xbar);
            } else {
                // xbar[seq.int(1, nx, length.out = nknots)], the indices
                // truncated as R's subscripting does.
                let lout = nknots.ceil() as usize;
                let to = nx as f64;
                let by = if lout > 2 {
                    (to - 1.0) / (lout - 1) as f64
                } else {
                    0.0
                };
                for i in 0..lout {
                    let at = if i == 0 {
                        1.0
                    } else if i == lout - 1 {
                        to
                    } else {
                        1.0 + i as f64 * by
                    };
                    knot.push(xbar[(at as usize).clamp(1, nx) - 1]);
                }
            }
            knot.extend([xbar[nx - 1]; 3]);
            (knot, nknots)
        }
    };
    // nk <- nknots + 2L, as.integer()'d for the Fortran.
    let nk = (nknots + 2.0) as usize;
    let spar_is_lambda = args.has("lambda");
    let spar_arg = args.get("spar").map(bare);
    let (ispar, spar_v) = if spar_is_lambda {
        if spar_arg.is_some() {
            return Err(err("must not specify both 'spar' and 'lambda'"));
        }
        (
            1,
            numbers(args.get("lambda").unwrap_or(&Value::Null), "lambda")?,
        )
    } else if matches!(spar_arg, None | Some(Value::Null)) {
        (0, vec![0.0])
    } else {
        (1, numbers(spar_arg.unwrap_or(&Value::Null), "spar")?)
    };
    if spar_v.len() != 1 {
        return Err(err("'spar' must be of length 1"));
    }
    // icrit: 0 no criterion, 1 GCV, 2 ordinary CV, 3 df matching.
    let mut icrit = match cv {
        None => 0,
        Some(true) => 2,
        Some(false) => 1,
    };
    let df_offset = scalar(args, "df.offset")?.unwrap_or(0.0);
    let penalty = scalar(args, "penalty")?.unwrap_or(1.0);
    let mut dofoff = df_offset;
    if let Some(df) = df_given {
        if df.is_nan() {
            return Err(err(NOT_LOGICAL));
        }
        if df > 1.0 && df <= nx as f64 {
            icrit = 3;
            dofoff = df;
        } else {
            ctx.warn(format!(
                "not using invalid df; must have 1 < df <= n := #{{unique x}} = {nx}"
            ));
        }
    }
    // Work arrays as rbart lays out its scratch (nk >= 3 here: nknots >= 1).
    let mut work = Work {
        xwy: vec![0.0; nk],
        hs: std::array::from_fn(|_| vec![0.0; nk]),
        sg: std::array::from_fn(|_| vec![0.0; nk]),
        abd: vec![0.0; 4 * nk],
        p1ip: vec![0.0; 4 * nk],
    };
    let mut out = Out {
        coef: vec![0.0; nk],
        sz: vec![0.0; nx],
        // R passes a single leverage when cv is NA (sslvrg writes none).
        lev: vec![0.0; nx],
        crit: 0.0,
        ier: 0,
    };
    let mut problem = Problem {
        penalt: penalty,
        dofoff,
        x: &xbar,
        y: &ybar,
        w: wbar.clone(),
        ssw: yssw,
        knot: &knot,
        nk,
        icrit,
    };
    let search = Search {
        ispar,
        spar: spar_v[0],
        spar_is_lambda,
        lspar: low,
        uspar: high,
        tol: ctol,
        eps: ceps,
        maxit: cmaxit as i64,
    };
    let found = sbart(&mut problem, &search, &mut work, &mut out);

    let (lev, mut df) = if cv.is_none() {
        (vec![NA], NA)
    } else {
        let df = rsum(&out.lev);
        if df.is_nan() {
            return Err(err(
                "NA lev[]; probably smoothing parameter 'spar' way too large!",
            ));
        }
        (out.lev.clone(), df)
    };
    let mut ty = out.sz.clone();
    if out.ier > 0 {
        let small = found.spar < 0.5;
        let kind = if spar_is_lambda {
            "extreme"
        } else if small {
            "small"
        } else {
            "large"
        };
        let wtxt = format!("smoothing parameter value too {kind}");
        if spar_is_lambda || small {
            return Err(err(wtxt));
        }
        ty = vec![summary::mean(&y); nx];
        df = 1.0;
        ctx.warn(format!("{wtxt}\nsetting df = 1  __use with care!__"));
    }
    let cv_crit = match cv {
        None => NA,
        Some(cvt) => {
            let mut r: Vec<f64> = (0..n).map(|i| y[i] - ty[ox[i]]).collect();
            if cvt {
                let ww: Vec<f64> = wbar
                    .iter()
                    .map(|&v| if v == 0.0 { 1.0 } else { v })
                    .collect();
                for i in 0..n {
                    r[i] /= 1.0 - (lev[ox[i]] * wi(i)) / ww[ox[i]];
                }
            }
            let r2: Vec<f64> = r.iter().map(|v| v * v).collect();
            let m = if no_wgts {
                summary::mean(&r2)
            } else {
                let xw: Vec<f64> = (0..n)
                    .filter(|&i| w[i] != 0.0)
                    .map(|i| r2[i] * w[i])
                    .collect();
                rsum(&xw) / rsum(&w)
            };
            if cvt {
                m
            } else {
                let d = 1.0 - (df_offset + penalty * df) / n as f64;
                m / (d * d)
            }
        }
    };
    let pen_crit = rsum(
        &(0..nx)
            .map(|k| {
                let d = ybar[k] - ty[k];
                wbar[k] * (d * d)
            })
            .collect::<Vec<_>>(),
    );
    let data = if keep_data {
        record(
            None,
            vec![
                ("x", Value::Num(x.clone())),
                ("y", Value::Num(y.clone())),
                ("w", Value::Num(w.clone())),
            ],
        )
    } else {
        Value::Null
    };
    let spar_is_l = if spar_is_lambda { 1.0 } else { 0.0 };
    let error_i = if out.ier > 0 { out.ier as f64 } else { NA };
    let iparms = super::names::named(
        Value::Num(vec![
            icrit as f64,
            ispar as f64,
            found.iter as f64,
            spar_is_l,
            error_i,
        ]),
        ["icrit", "ispar", "iter", "", "errorI"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    let aux_m = if keep_stuff {
        let cat = |v: &[Vec<f64>]| Value::Num(v.concat());
        record(
            None,
            vec![
                ("XWy", Value::Num(work.xwy.clone())),
                ("XWX", cat(&work.hs)),
                ("Sigma", cat(&work.sg)),
                ("R", Value::Num(work.abd.clone())),
            ],
        )
    } else {
        Value::Null
    };
    let fit = record(
        Some(FIT_CLASS),
        vec![
            ("knot", Value::Num(knot.clone())),
            ("nk", num(nk as f64)),
            ("min", num(ux[0])),
            ("range", num(r_ux)),
            ("coef", Value::Num(out.coef.clone())),
        ],
    );
    Ok(record(
        Some(CLASS),
        vec![
            ("x", Value::Num(ux)),
            ("y", Value::Num(ty)),
            ("w", Value::Num(wbar)),
            ("yin", Value::Num(ybar)),
            ("tol", num(tol)),
            ("data", data),
            ("no.weights", Value::Bool(vec![Some(no_wgts)])),
            ("n", num(n as f64)),
            ("lev", Value::Num(lev)),
            ("cv", Value::Bool(vec![cv])),
            ("cv.crit", num(cv_crit)),
            ("pen.crit", num(pen_crit)),
            ("crit", num(out.crit)),
            ("df", num(df)),
            ("spar", num(if spar_is_lambda { NA } else { found.spar })),
            ("ratio", num(if spar_is_lambda { NA } else { found.ratio })),
            ("lambda", num(found.lambda)),
            ("iparms", iparms),
            ("auxM", aux_m),
            ("fit", fit),
        ],
    ))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "w"] {
        if let Some(t @ (Type::Str { .. } | Type::Formula { .. })) = args.ty(name) {
            return Err(args.error(
                name,
                format!(
                    "flowcast's smooth.spline() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let v = Type::num_unknown;
    let keep_stuff =
        matches!(args.ty("keep.stuff").map(Type::const_scalar), Some(Some(k)) if k != 0.0);
    let aux = if keep_stuff {
        Type::Record {
            class: "list".into(),
            fields: ["XWy", "XWX", "Sigma", "R"]
                .iter()
                .map(|n| (n.to_string(), v()))
                .collect(),
        }
    } else {
        Type::Null
    };
    let fit = Type::Record {
        class: FIT_CLASS.into(),
        fields: vec![
            ("knot".into(), v()),
            ("nk".into(), Type::num(1)),
            ("min".into(), Type::num(1)),
            ("range".into(), Type::num(1)),
            ("coef".into(), v()),
        ],
    };
    let one = || Type::num(1);
    let b = || Type::Bool {
        len: Some(1),
        value: None,
    };
    let fields: Vec<(&str, Type)> = vec![
        ("x", v()),
        ("y", v()),
        ("w", v()),
        ("yin", v()),
        ("tol", one()),
        // data is NULL when keep.data is FALSE.
        ("data", Type::Any),
        ("no.weights", b()),
        ("n", one()),
        ("lev", v()),
        ("cv", b()),
        ("cv.crit", one()),
        ("pen.crit", one()),
        ("crit", one()),
        ("df", one()),
        ("spar", one()),
        ("ratio", one()),
        ("lambda", one()),
        ("iparms", Type::num(5)),
        ("auxM", aux),
        ("fit", fit),
    ];
    Ok(Type::Record {
        class: CLASS.into(),
        fields: fields
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect(),
    })
}

// ---------------------------------------------------------------------
// predict.smooth.spline and predict.smooth.spline.fit
// ---------------------------------------------------------------------

/// The `fit` of a smooth.spline value, read back.
struct SplineFit<'a> {
    knot: &'a [f64],
    nk: usize,
    min: f64,
    range: f64,
    coef: &'a [f64],
}

fn field<'a>(l: &'a List, name: &str) -> Option<&'a Value> {
    let names = l.names.as_ref()?;
    let i = names.iter().position(|n| n == name)?;
    l.items.get(i).map(bare)
}

fn field_nums<'a>(l: &'a List, name: &str) -> Result<&'a [f64], KernelError> {
    match field(l, name) {
        Some(Value::Num(v)) => Ok(v),
        _ => Err(err("not a valid \"smooth.spline\" object")),
    }
}

/// Whether `v` is a smooth.spline value (predict dispatches on it).
pub(crate) fn is_smooth_spline(v: Option<&Value>) -> bool {
    matches!(v.map(bare), Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

/// fitted.smooth.spline: `object$y[match(dat$x, object$x)]`, the fit at
/// each of the data's x (which the fit kept unless `keep.data = FALSE`).
pub(crate) fn fitted(object: &Value) -> Result<Value, KernelError> {
    let Value::List(l) = bare(object) else {
        return Err(KernelError::new("not a valid \"smooth.spline\" object"));
    };
    let nums = |v: Option<&Value>| match v.map(bare) {
        Some(Value::Num(v)) => Some(v.clone()),
        _ => None,
    };
    let Some(Value::List(dat)) = l.field("data").map(bare) else {
        return Err(KernelError::new(
            "need result of smooth.spline(keep.data = TRUE)",
        ));
    };
    let (Some(dx), Some(ux), Some(uy)) =
        (nums(dat.field("x")), nums(l.field("x")), nums(l.field("y")))
    else {
        return Err(KernelError::new("not a valid \"smooth.spline\" object"));
    };
    Ok(Value::Num(
        dx.iter()
            .map(|x| {
                ux.iter()
                    .position(|u| u == x)
                    .and_then(|i| uy.get(i).copied())
                    .unwrap_or(super::value::NA)
            })
            .collect(),
    ))
}

/// `predict.smooth.spline(object, x, deriv)`: `x` (`newdata`, or a
/// named `x` among the dots), `deriv` a named one or the third argument.
pub(crate) fn predict(
    object: &Value,
    x: Option<&Value>,
    deriv: Option<&Value>,
) -> Result<Value, KernelError> {
    let Value::List(obj) = bare(object) else {
        return Err(err("not a valid \"smooth.spline\" object"));
    };
    let deriv = match deriv.map(bare) {
        None => 0.0,
        Some(v) => numbers(v, "deriv")?.first().copied().unwrap_or(NA),
    };
    if deriv.is_nan() {
        return Err(err(NOT_LOGICAL));
    }
    if deriv < 0.0 {
        return Err(err(
            "flowcast's predict() of a smooth.spline needs 'deriv' >= 0 (R's Fortran reads outside its arrays)",
        ));
    }
    let x = match x.map(bare) {
        None | Some(Value::Null) if x.is_none() => {
            if deriv == 0.0 {
                return Ok(record(
                    None,
                    vec![
                        ("x", field(obj, "x").cloned().unwrap_or(Value::Null)),
                        ("y", field(obj, "y").cloned().unwrap_or(Value::Null)),
                    ],
                ));
            }
            field_nums(obj, "x")?.to_vec()
        }
        Some(v) => numbers(v, "x")?,
        None => Vec::new(),
    };
    let Some(Value::List(fit)) = field(obj, "fit") else {
        return Err(err("not a valid \"smooth.spline\" object"));
    };
    let nk = field_nums(fit, "nk")?.first().copied().unwrap_or(NA);
    let one = |name: &str| -> Result<f64, KernelError> {
        Ok(field_nums(fit, name)?.first().copied().unwrap_or(NA))
    };
    let f = SplineFit {
        knot: field_nums(fit, "knot")?,
        nk: if nk.is_finite() && nk >= 0.0 {
            nk as usize
        } else {
            0
        },
        min: one("min")?,
        range: one("range")?,
        coef: field_nums(fit, "coef")?,
    };
    if f.nk == 0 || f.knot.len() < f.nk + 4 || f.coef.len() < f.nk {
        return Err(err("not a valid \"smooth.spline\" object"));
    }
    let y = predict_fit(&f, &x, deriv, 0)?;
    Ok(record(
        None,
        vec![("x", Value::Num(x)), ("y", Value::Num(y))],
    ))
}

/// `predict.smooth.spline.fit`: bvalus inside the data's range, and the
/// linear (deriv 0), constant (1) or zero extrapolation outside it, the
/// end values from `Recall` at the range's ends.
fn predict_fit(
    f: &SplineFit,
    x: &[f64],
    deriv: f64,
    depth: usize,
) -> Result<Vec<f64>, KernelError> {
    if depth > 2 {
        // The range's own ends fall outside it after rounding: R's Recall
        // would call itself until its stack is exhausted.
        return Err(err(
            "evaluation nested too deeply: infinite recursion / options(expressions=)?",
        ));
    }
    let xs: Vec<f64> = x.iter().map(|&v| (v - f.min) / f.range).collect();
    if xs.iter().any(|v| v.is_nan()) {
        // R counts the points inside the range with sum(), NA here, and
        // fails allocating that many.
        return Err(err("vector size cannot be NA"));
    }
    let left: Vec<bool> = xs.iter().map(|&v| v < 0.0).collect();
    let right: Vec<bool> = xs.iter().map(|&v| v > 1.0).collect();
    let mut y = xs.clone();
    let order = deriv.trunc() as usize;
    let mut ib = 1;
    for i in 0..xs.len() {
        if !(left[i] || right[i]) {
            y[i] = bvalue(f.knot, f.coef, f.nk, 4, xs[i], order, &mut ib);
        }
    }
    if left.iter().chain(&right).any(|&e| e) {
        let xrange = [f.min, f.min + f.range];
        if deriv == 0.0 {
            let end_object = predict_fit(f, &xrange, 0.0, depth + 1)?;
            let end_slopes: Vec<f64> = predict_fit(f, &xrange, 1.0, depth + 1)?
                .iter()
                .map(|s| s * f.range)
                .collect();
            for i in 0..xs.len() {
                if left[i] {
                    y[i] = end_object[0] + end_slopes[0] * (xs[i] - 0.0);
                } else if right[i] {
                    y[i] = end_object[1] + end_slopes[1] * (xs[i] - 1.0);
                }
            }
        } else if deriv == 1.0 {
            let end_slopes: Vec<f64> = predict_fit(f, &xrange, 1.0, depth + 1)?
                .iter()
                .map(|s| s * f.range)
                .collect();
            for i in 0..xs.len() {
                if left[i] {
                    y[i] = end_slopes[0];
                } else if right[i] {
                    y[i] = end_slopes[1];
                }
            }
        } else {
            for i in 0..xs.len() {
                if left[i] || right[i] {
                    y[i] = 0.0;
                }
            }
        }
    }
    if deriv > 0.0 {
        let d = f.range.powf(deriv);
        let d = if deriv == 2.0 { f.range * f.range } else { d };
        for v in &mut y {
            *v /= d;
        }
    }
    Ok(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bsplvd's values of the four cubic B-splines sum to one, and their
    /// derivatives to zero.
    #[test]
    fn smooth_spline_bsplvd_partition_of_unity() {
        let t = [0.0, 0.0, 0.0, 0.0, 0.3, 0.6, 1.0, 1.0, 1.0, 1.0];
        let mut a = [0.0; 16];
        let mut d = [0.0; 12];
        bsplvd(&t, 4, 0.45, 5, &mut a, &mut d, 3);
        let s0: f64 = d[0..4].iter().sum();
        let s1: f64 = d[4..8].iter().sum();
        assert!((s0 - 1.0).abs() < 1e-15, "{s0}");
        assert!(s1.abs() < 1e-12, "{s1}");
    }

    /// dpbfa and dpbsl solve a banded positive definite system.
    #[test]
    fn smooth_spline_banded_cholesky_solves() {
        // Tridiagonal 2, -1 in a band of width m = 3 (abd(4, n)).
        let n = 5;
        let mut abd = vec![0.0; 4 * n];
        for j in 0..n {
            abd[j * 4 + 3] = 2.0;
            if j > 0 {
                abd[j * 4 + 2] = -1.0;
            }
        }
        assert_eq!(dpbfa(&mut abd, 4, n, 3), 0);
        let mut b = vec![1.0, 0.0, 0.0, 0.0, 1.0];
        dpbsl(&abd, 4, n, 3, &mut b);
        for v in b {
            assert!((v - 1.0).abs() < 1e-14, "{v}");
        }
        let mut bad = vec![0.0; 4];
        bad[3] = -1.0;
        assert_eq!(dpbfa(&mut bad, 4, 1, 3), 1);
    }

    /// `.nknots.smspl` as R gives it.
    #[test]
    fn smooth_spline_nknots() {
        assert_eq!(nknots_smspl(10), 10.0);
        assert_eq!(nknots_smspl(100), 62.0);
        assert_eq!(nknots_smspl(1000), 144.0);
        assert_eq!(nknots_smspl(5000), 204.0);
    }
}
