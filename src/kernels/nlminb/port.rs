//! David Gay's PORT routines as R's stats/src/portsrc.f has them, with the
//! C replacements of stats/src/port.c (`Rf_divset`, `dd7tpr`, `dv2nrm`,
//! `dv7cpy`, …), each function named after the routine it follows and
//! written as the Fortran runs: reverse communication through `iv(1)`,
//! the GO TOs as a label machine, the same loops and the same order of
//! operations, so that the points evaluated and the counts are R's.
//!
//! Fortran hands routines array elements (`V(G1)`) that alias the work
//! vector and each other. Here all real arrays live in one memory `m`,
//! 1-based, with `V(k)` at `m[k]` and the caller's D, X, G and B after
//! `V`; an array argument is the index in `m` of its first element, as
//! the Fortran's address is. `iv` is 1-based the same way.

// The routines index as the Fortran does, so they can be read against it.
// A negated comparison is the Fortran's own test, whose NaN outcome is R's.
#![allow(
    clippy::needless_range_loop,
    clippy::too_many_arguments,
    clippy::cognitive_complexity,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::explicit_counter_loop
)]

use crate::kernels::linalg::blas::{ddot, dnrm2};

/// `DR7MDC(K)`: machine constants, from R's `d1mach` (1: the smallest
/// normal number, 3: the machine epsilon DBL_EPSILON as d1mach(4) gives
/// it, 6: the largest finite number).
pub(super) fn dr7mdc(k: i32) -> f64 {
    let big = f64::MAX;
    let eta = f64::MIN_POSITIVE;
    let machep = f64::EPSILON;
    match k {
        1 => eta,
        2 => (256.0 * eta).sqrt() / 16.0,
        3 => machep,
        4 => machep.sqrt(),
        5 => (big / 256.0).sqrt() * 16.0,
        _ => big,
    }
}

/// port.c's `dd7tpr`: BLAS ddot of n elements.
pub(super) fn dd7tpr(m: &[f64], n: usize, x: usize, y: usize) -> f64 {
    ddot(&m[x..x + n], &m[y..y + n])
}

/// port.c's `dv2nrm`: BLAS dnrm2.
pub(super) fn dv2nrm(m: &[f64], n: usize, x: usize) -> f64 {
    dnrm2(&m[x..x + n])
}

/// port.c's `dv7cpy` (a memmove).
pub(super) fn dv7cpy(m: &mut [f64], n: usize, dest: usize, src: usize) {
    m.copy_within(src..src + n, dest);
}

/// port.c's `dv7scp`.
pub(super) fn dv7scp(m: &mut [f64], n: usize, dest: usize, c: f64) {
    m[dest..dest + n].fill(c);
}

/// port.c's `dv2axy`: w = a x + y, element by element.
pub(super) fn dv2axy(m: &mut [f64], n: usize, w: usize, a: f64, x: usize, y: usize) {
    for i in 0..n {
        m[w + i] = a * m[x + i] + m[y + i];
    }
}

/// `DV7VMP`: x = y * z (k >= 0) or y / z (k < 0).
pub(super) fn dv7vmp(m: &mut [f64], n: usize, x: usize, y: usize, z: usize, k: i32) {
    if k >= 0 {
        for i in 0..n {
            m[x + i] = m[y + i] * m[z + i];
        }
    } else {
        for i in 0..n {
            m[x + i] = m[y + i] / m[z + i];
        }
    }
}

/// `DRLDST`: the relative difference between x and x0 for DRMNG's
/// X-convergence test.
pub(super) fn drldst(m: &[f64], p: usize, d: usize, x: usize, x0: usize) -> f64 {
    let mut emax = 0.0;
    let mut xmax = 0.0;
    for i in 0..p {
        let t = (m[d + i] * (m[x + i] - m[x0 + i])).abs();
        if emax < t {
            emax = t;
        }
        let t = m[d + i] * (m[x + i].abs() + m[x0 + i].abs());
        if xmax < t {
            xmax = t;
        }
    }
    if xmax > 0.0 {
        emax / xmax
    } else {
        0.0
    }
}

/// `DL7ITV`: solve L' x = y, L lower triangular stored by rows.
pub(super) fn dl7itv(m: &mut [f64], n: usize, x: usize, l: usize, y: usize) {
    for i in 0..n {
        m[x + i] = m[y + i];
    }
    let mut i0 = n * (n + 1) / 2;
    for ii in 1..=n {
        let i = n + 1 - ii;
        let xi = m[x + i - 1] / m[l + i0 - 1];
        m[x + i - 1] = xi;
        if i <= 1 {
            return;
        }
        i0 -= i;
        if xi == 0.0 {
            continue;
        }
        for j in 1..i {
            let ij = i0 + j;
            m[x + j - 1] -= xi * m[l + ij - 1];
        }
    }
}

/// `DL7IVM`: solve L x = y.
pub(super) fn dl7ivm(m: &mut [f64], n: usize, x: usize, l: usize, y: usize) {
    let mut k = 1;
    while k <= n {
        if m[y + k - 1] != 0.0 {
            break;
        }
        m[x + k - 1] = 0.0;
        k += 1;
    }
    if k > n {
        return;
    }
    let mut j = k * (k + 1) / 2;
    m[x + k - 1] = m[y + k - 1] / m[l + j - 1];
    if k >= n {
        return;
    }
    for i in k + 1..=n {
        let t = dd7tpr(m, i - 1, l + j, x);
        j += i;
        m[x + i - 1] = (m[y + i - 1] - t) / m[l + j - 1];
    }
}

/// `DL7TVM`: x = L' y.
///
/// R's compiled routine (gfortran, which may assume x and y do not
/// alias) stores x(i) = 0 before it loads y(i). DRMNGB calls it with x
/// and y the same array, where that order makes every y(i) read as 0 and
/// the product zero; the order is kept so that R's iterates are.
pub(super) fn dl7tvm(m: &mut [f64], n: usize, x: usize, l: usize, y: usize) {
    let mut i0 = 0;
    for i in 1..=n {
        m[x + i - 1] = 0.0;
        let yi = m[y + i - 1];
        for j in 1..=i {
            let ij = i0 + j;
            m[x + j - 1] += yi * m[l + ij - 1];
        }
        i0 += i;
    }
}

/// `DL7VML`: x = L y.
pub(super) fn dl7vml(m: &mut [f64], n: usize, x: usize, l: usize, y: usize) {
    let mut i0 = n * (n + 1) / 2;
    for ii in 1..=n {
        let i = n + 1 - ii;
        i0 -= i;
        let mut t = 0.0;
        for j in 1..=i {
            let ij = i0 + j;
            t += m[l + ij - 1] * m[y + j - 1];
        }
        m[x + i - 1] = t;
    }
}

/// `DL7UPD`: the Cholesky factor LPLUS of L (I + z w') (I + w z') L'
/// (Goldfarb's recurrence 3).
pub(super) fn dl7upd(
    m: &mut [f64],
    beta: usize,
    gamma: usize,
    l: usize,
    lambda: usize,
    lplus: usize,
    n: usize,
    w: usize,
    z: usize,
) {
    let at = |p: usize, i: usize| p + i - 1;
    let mut nu = 1.0;
    let mut eta = 0.0;
    if n > 1 {
        let nm1 = n - 1;
        let mut s = 0.0;
        for i in 1..=nm1 {
            let j = n - i;
            let wj1 = m[at(w, j + 1)];
            s += wj1 * wj1;
            m[at(lambda, j)] = s;
        }
        for j in 1..=nm1 {
            let wj = m[at(w, j)];
            let a = nu * m[at(z, j)] - eta * wj;
            let theta = 1.0 + a * wj;
            let s = a * m[at(lambda, j)];
            let mut lj = (theta * theta + a * s).sqrt();
            if theta > 0.0 {
                lj = -lj;
            }
            m[at(lambda, j)] = lj;
            let b = theta * wj + s;
            m[at(gamma, j)] = b * nu / lj;
            m[at(beta, j)] = (a - b * eta) / lj;
            nu = -nu / lj;
            eta = -(eta + (a * a) / (theta - lj)) / lj;
        }
    }
    m[at(lambda, n)] = 1.0 + (nu * m[at(z, n)] - eta * m[at(w, n)]) * m[at(w, n)];
    let mut jj = n * (n + 1) / 2;
    for k in 1..=n {
        let j = n + 1 - k;
        let lj = m[at(lambda, j)];
        let ljj = m[at(l, jj)];
        m[at(lplus, jj)] = lj * ljj;
        let wj = m[at(w, j)];
        m[at(w, j)] = ljj * wj;
        let zj = m[at(z, j)];
        m[at(z, j)] = ljj * zj;
        if k != 1 {
            let bj = m[at(beta, j)];
            let gj = m[at(gamma, j)];
            let mut ij = jj + j;
            for i in j + 1..=n {
                let lij = m[at(l, ij)];
                m[at(lplus, ij)] = lj * lij + bj * m[at(w, i)] + gj * m[at(z, i)];
                m[at(w, i)] += lij * wj;
                m[at(z, i)] += lij * zj;
                ij += i;
            }
        }
        jj -= j;
    }
}

/// `DW7ZBF`: the w and z of DL7UPD for the BFGS update of L L' by the
/// step s and gradient change y (Powell's damping when y's s is small).
pub(super) fn dw7zbf(m: &mut [f64], l: usize, n: usize, s: usize, w: usize, y: usize, z: usize) {
    const EPS: f64 = 0.1;
    dl7tvm(m, n, w, l, s);
    let shs = dd7tpr(m, n, w, w);
    let ys = dd7tpr(m, n, y, s);
    let (cy, cs);
    if ys >= EPS * shs {
        cy = 1.0 / (ys.sqrt() * shs.sqrt());
        cs = 1.0 / shs;
    } else {
        let theta = (1.0 - EPS) * shs / (shs - ys);
        let epsrt = EPS.sqrt();
        cy = theta / (shs * epsrt);
        cs = (1.0 + (theta - 1.0) / epsrt) / shs;
    }
    dl7ivm(m, n, z, l, y);
    for i in 0..n {
        m[z + i] = cy * m[z + i] - cs * m[w + i];
    }
}

/// `DV7DFL`: default values of V, written from `v` on (V(1) at `m[v]`).
pub(super) fn dv7dfl(alg: i32, m: &mut [f64], v: usize) {
    const AFCTOL: usize = 31;
    const BIAS: usize = 43;
    const COSMIN: usize = 47;
    const DECFAC: usize = 22;
    const DELTA0: usize = 44;
    const DFAC: usize = 41;
    const DINIT: usize = 38;
    const DLTFDC: usize = 42;
    const DLTFDJ: usize = 43;
    const DTINIT: usize = 39;
    const D0INIT: usize = 40;
    const EPSLON: usize = 19;
    const ETA0: usize = 42;
    const FUZZ: usize = 45;
    const INCFAC: usize = 23;
    const LMAX0: usize = 35;
    const LMAXS: usize = 36;
    const PHMNFC: usize = 20;
    const PHMXFC: usize = 21;
    const RDFCMN: usize = 24;
    const RDFCMX: usize = 25;
    const RFCTOL: usize = 32;
    const RLIMIT: usize = 46;
    const RSPTOL: usize = 49;
    const SCTOL: usize = 37;
    const SIGMIN: usize = 50;
    const TUNER1: usize = 26;
    const TUNER2: usize = 27;
    const TUNER3: usize = 28;
    const TUNER4: usize = 29;
    const TUNER5: usize = 30;
    const XCTOL: usize = 33;
    const XFTOL: usize = 34;
    let at = |k: usize| v + k - 1;
    let machep = dr7mdc(3);
    m[at(AFCTOL)] = if machep > 1e-10 {
        machep * machep
    } else {
        1e-20
    };
    m[at(DECFAC)] = 0.5;
    let sqteps = dr7mdc(4);
    m[at(DFAC)] = 0.6;
    m[at(DTINIT)] = 1e-6;
    let mepcrt = machep.powf(1.0 / 3.0);
    m[at(D0INIT)] = 1.0;
    m[at(EPSLON)] = 0.1;
    m[at(INCFAC)] = 2.0;
    m[at(LMAX0)] = 1.0;
    m[at(LMAXS)] = 1.0;
    m[at(PHMNFC)] = -0.1;
    m[at(PHMXFC)] = 0.1;
    m[at(RDFCMN)] = 0.1;
    m[at(RDFCMX)] = 4.0;
    m[at(RFCTOL)] = f64::max(1e-10, mepcrt * mepcrt);
    m[at(SCTOL)] = m[at(RFCTOL)];
    m[at(TUNER1)] = 0.1;
    m[at(TUNER2)] = 1e-4;
    m[at(TUNER3)] = 0.75;
    m[at(TUNER4)] = 0.5;
    m[at(TUNER5)] = 0.75;
    m[at(XCTOL)] = sqteps;
    m[at(XFTOL)] = 1e2 * machep;
    if alg == 1 {
        m[at(COSMIN)] = f64::max(1e-6, 1e2 * machep);
        m[at(DINIT)] = 0.0;
        m[at(DELTA0)] = sqteps;
        m[at(DLTFDC)] = mepcrt;
        m[at(DLTFDJ)] = sqteps;
        m[at(FUZZ)] = 1.5;
        m[at(RLIMIT)] = dr7mdc(5);
        m[at(RSPTOL)] = 1e-3;
        m[at(SIGMIN)] = 1e-4;
    } else {
        m[at(BIAS)] = 0.8;
        m[at(DINIT)] = -1.0;
        m[at(ETA0)] = 1e3 * machep;
    }
}

/// port.c's `Rf_divset`: default values of IV and V for `alg` (2:
/// general optimisation, what nlminb asks for).
pub(super) fn divset(alg: i32, iv: &mut [i32], liv: usize, lv: usize, m: &mut [f64]) {
    const MINIV: [usize; 5] = [0, 82, 59, 103, 103];
    const MINV: [usize; 5] = [0, 98, 71, 101, 85];
    if PRUNIT <= liv {
        iv[PRUNIT] = 0;
    }
    if ALGSAV <= liv {
        iv[ALGSAV] = alg;
    }
    let miv = MINIV[alg as usize];
    if liv < miv {
        iv[1] = 15;
        return;
    }
    let mv = MINV[alg as usize];
    if lv < mv {
        iv[1] = 16;
        return;
    }
    let alg1 = (alg - 1) % 2 + 1;
    dv7dfl(alg1, m, 1);
    iv[1] = 12;
    iv[IVNEED] = 0;
    iv[LASTIV] = miv as i32;
    iv[LASTV] = mv as i32;
    iv[LMAT] = mv as i32 + 1;
    iv[MXFCAL] = 200;
    iv[MXITER] = 150;
    iv[OUTLEV] = 0;
    iv[PARPRT] = 1;
    iv[PERM] = miv as i32 + 1;
    iv[SOLPRT] = 0;
    iv[STATPR] = 0;
    iv[VNEED] = 0;
    iv[X0PRT] = 1;
    // nlminb's alg is 2: the general-optimisation values (nls's
    // regression values are not reached).
    iv[DTYPE] = 0;
    iv[INITS] = 1;
    iv[NFCOV] = 0;
    iv[NGCOV] = 0;
    iv[NVDFLT] = 25;
    iv[PARSAV] = if alg > 2 { 61 } else { 47 };
    // Since R 2.12.0 the |f(x)| < abs.tol test is off unless asked for.
    m[AFCTOL] = 0.0;
}

// port.c's names of 1-based indices into iv and v, for Rf_divset.
const AFCTOL: usize = 31;
const ALGSAV: usize = 51;
const DTYPE: usize = 16;
const INITS: usize = 25;
const IVNEED: usize = 3;
const LASTIV: usize = 44;
const LASTV: usize = 45;
const LMAT: usize = 42;
const MXFCAL: usize = 17;
const MXITER: usize = 18;
const NFCOV: usize = 52;
const NGCOV: usize = 53;
const NVDFLT: usize = 50;
const OUTLEV: usize = 19;
const PARPRT: usize = 20;
const PARSAV: usize = 49;
const PERM: usize = 58;
const PRUNIT: usize = 21;
const SOLPRT: usize = 22;
const STATPR: usize = 23;
const VNEED: usize = 4;
const X0PRT: usize = 24;

/// `DPARCK`'s bounds on V(19..43) (VM, VX), as its first call completes
/// them with machine constants.
fn dparck_bounds() -> ([f64; 35], [f64; 35]) {
    let tiny = dr7mdc(1);
    let machep = dr7mdc(3);
    let big = dr7mdc(6);
    let mut vm = [0.0; 35];
    let mut vx = [0.0; 35];
    let vm_data: [(usize, f64); 25] = [
        (1, 1.0e-3),
        (2, -0.99),
        (3, 1.0e-3),
        (4, 1.0e-2),
        (5, 1.2),
        (6, 1.0e-2),
        (7, 1.2),
        (8, 0.0),
        (9, 0.0),
        (10, 1.0e-3),
        (11, -1.0),
        (13, 0.0),
        (15, 0.0),
        (16, 0.0),
        (19, 0.0),
        (20, -10.0),
        (21, 0.0),
        (22, 0.0),
        (23, 0.0),
        (27, 1.01),
        (28, 1.0e10),
        (30, 0.0),
        (31, 0.0),
        (32, 0.0),
        (34, 0.0),
    ];
    let vx_data: [(usize, f64); 25] = [
        (1, 0.9),
        (2, -1.0e-3),
        (3, 1.0e1),
        (4, 0.8),
        (5, 1.0e2),
        (6, 0.8),
        (7, 1.0e2),
        (8, 0.5),
        (9, 0.5),
        (10, 1.0),
        (11, 1.0),
        (14, 0.1),
        (15, 1.0),
        (16, 1.0),
        (19, 1.0),
        (23, 1.0),
        (24, 1.0),
        (25, 1.0),
        (26, 1.0),
        (27, 1.0e10),
        (29, 1.0),
        (31, 1.0),
        (32, 1.0),
        (33, 1.0),
        (34, 1.0),
    ];
    for (i, x) in vm_data {
        vm[i] = x;
    }
    for (i, x) in vx_data {
        vx[i] = x;
    }
    vm[12] = machep;
    vx[12] = big;
    vx[13] = big;
    vm[14] = machep;
    vm[17] = tiny;
    vx[17] = big;
    vm[18] = tiny;
    vx[18] = big;
    vx[20] = big;
    vx[21] = big;
    vx[22] = big;
    vm[24] = machep;
    vm[25] = machep;
    vm[26] = machep;
    vx[28] = dr7mdc(5);
    vm[29] = machep;
    vx[30] = big;
    vm[33] = machep;
    (vm, vx)
}

/// `DPARCK`: check IV and V (input values, storage) and the scale D; a
/// value out of range puts its V subscript in iv(1). R prints nothing
/// (`iv(PRUNIT)` is 0), so the printing branches end as they would.
pub(super) fn dparck(
    alg: i32,
    d: usize,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    n: usize,
    m: &mut [f64],
) {
    const DINIT: usize = 38;
    const DTYPE0: usize = 54;
    const EPSLON: usize = 19;
    const NEXTIV: usize = 46;
    const NEXTV: usize = 47;
    const OLDN: usize = 38;
    const IJMP: usize = 33;
    const JLIM: [usize; 5] = [0, 0, 24, 0, 24];
    const NDFLT: [usize; 5] = [0, 32, 25, 32, 25];
    const MINIV: [i32; 5] = [0, 82, 59, 103, 103];
    let pu = if PRUNIT <= liv { iv[PRUNIT] } else { 0 };
    if ALGSAV <= liv && alg != iv[ALGSAV] {
        iv[1] = 67;
        return;
    }
    if !(1..=4).contains(&alg) {
        iv[1] = 67;
        return;
    }
    let mut miv1 = MINIV[alg as usize];
    if iv[1] == 15 {
        if LASTIV <= liv {
            iv[LASTIV] = miv1;
        }
        if LASTV <= liv {
            iv[LASTV] = 0;
        }
        return;
    }
    let alg1 = (alg - 1) % 2 + 1;
    if iv[1] == 0 {
        divset(alg, iv, liv, lv, m);
    }
    let mut iv1 = iv[1];
    if iv1 == 13 || iv1 == 12 {
        if PERM <= liv {
            miv1 = miv1.max(iv[PERM] - 1);
        }
        let mut miv2 = 0;
        if IVNEED <= liv {
            miv2 = miv1 + iv[IVNEED].max(0);
        }
        if LASTIV <= liv {
            iv[LASTIV] = miv2;
        }
        if (liv as i32) < miv1 {
            dparck_300(iv, liv, lv, miv1, pu);
            return;
        }
        iv[IVNEED] = 0;
        iv[LASTV] = iv[VNEED].max(0) + iv[LMAT] - 1;
        iv[VNEED] = 0;
        if (liv as i32) < miv2 {
            dparck_300(iv, liv, lv, miv1, pu);
            return;
        }
        if (lv as i32) < iv[LASTV] {
            iv[1] = 16;
            return;
        }
    }
    if (12..=14).contains(&iv1) {
        if n < 1 {
            iv[1] = 81;
            return;
        }
        if iv1 != 14 {
            iv[NEXTIV] = iv[PERM];
            iv[NEXTV] = iv[LMAT];
        }
        if iv1 == 13 {
            return;
        }
        let k = iv[PARSAV] as usize - EPSLON;
        dv7dfl(alg1, m, k + 1);
        iv[DTYPE0] = 2 - alg1;
        iv[OLDN] = n as i32;
    } else {
        if n as i32 != iv[OLDN] {
            iv[1] = 17;
            return;
        }
        if !(1..=11).contains(&iv1) {
            iv[1] = 80;
            return;
        }
    }
    if iv1 == 14 {
        iv1 = 12;
    }
    let (vm, vx) = dparck_bounds();
    let mut mm = 0usize;
    let mut i = 1;
    let j = JLIM[alg1 as usize];
    let mut k = EPSLON;
    let ndfalt = NDFLT[alg1 as usize];
    for _ in 0..ndfalt {
        let vk = m[k];
        if !(vk >= vm[i] && vk <= vx[i]) {
            mm = k;
        }
        k += 1;
        i += 1;
        if i == j {
            i = IJMP;
        }
    }
    if iv[NVDFLT] as usize != ndfalt {
        iv[1] = 51;
        return;
    }
    if !((iv[DTYPE] > 0 || m[DINIT] > 0.0) && iv1 == 12) {
        for i in 0..n {
            if !(m[d + i] > 0.0) {
                mm = 18;
            }
        }
    }
    if mm != 0 {
        iv[1] = mm as i32;
        return;
    }
    // 210: R's iv(PRUNIT) is 0, so nothing is printed or saved.
    let _ = pu;
}

/// DPARCK's label 300: too little IV (or V) storage.
fn dparck_300(iv: &mut [i32], _liv: usize, lv: usize, _miv1: i32, pu: i32) {
    iv[1] = 15;
    if pu == 0 {
        return;
    }
    if (lv as i32) < iv[LASTV] {
        iv[1] = 16;
    }
}

/// `DA7SST`: assess a candidate step, decide how to change the trust
/// radius and test for convergence; the outcome is iv(IRC).
pub(super) fn da7sst(iv: &mut [i32], m: &mut [f64]) {
    const IRC: usize = 29;
    const MLSTGD: usize = 32;
    const MODEL: usize = 5;
    const NFCALL: usize = 6;
    const NFGCAL: usize = 7;
    const RADINC: usize = 8;
    const RESTOR: usize = 9;
    const STAGE: usize = 10;
    const STGLIM: usize = 11;
    const SWITCH: usize = 12;
    const TOOBIG: usize = 2;
    const XIRC: usize = 13;
    const AFCTOL: usize = 31;
    const DECFAC: usize = 22;
    const DSTNRM: usize = 2;
    const DST0: usize = 3;
    const DSTSAV: usize = 18;
    const F: usize = 10;
    const FDIF: usize = 11;
    const FLSTGD: usize = 12;
    const F0: usize = 13;
    const GTSLST: usize = 14;
    const GTSTEP: usize = 4;
    const INCFAC: usize = 23;
    const LMAXS: usize = 36;
    const NREDUC: usize = 6;
    const PLSTGD: usize = 15;
    const PREDUC: usize = 7;
    const RADFAC: usize = 16;
    const RDFCMN: usize = 24;
    const RDFCMX: usize = 25;
    const RELDX: usize = 17;
    const RFCTOL: usize = 32;
    const SCTOL: usize = 37;
    const STPPAR: usize = 5;
    const TUNER1: usize = 26;
    const TUNER2: usize = 27;
    const TUNER3: usize = 28;
    const XCTOL: usize = 33;
    const XFTOL: usize = 34;
    const HALF: f64 = 0.5;
    const ONE: f64 = 1.0;
    const ONEP2: f64 = 1.2;
    const TWO: f64 = 2.0;
    const ZERO: f64 = 0.0;

    let mut nfc = iv[NFCALL];
    iv[SWITCH] = 0;
    iv[RESTOR] = 0;
    let mut rfac1 = ONE;
    let mut goodx = true;
    let mut i = iv[IRC];
    let mut emax;
    let mut emaxs;
    let mut lbl: u16 = match i {
        1 => 20,
        2 => 30,
        3 | 4 => 10,
        5 => 40,
        6 => 280,
        7..=11 => 220,
        12 => 170,
        _ => {
            iv[IRC] = 13;
            return;
        }
    };
    loop {
        match lbl {
            10 => {
                iv[STAGE] = 1;
                iv[RADINC] = 0;
                m[FLSTGD] = m[F0];
                if iv[TOOBIG] == 0 {
                    lbl = 110;
                    continue;
                }
                iv[STAGE] = -1;
                iv[XIRC] = i;
                lbl = 60;
            }
            20 => {
                if iv[MODEL] != iv[MLSTGD] {
                    lbl = 30;
                    continue;
                }
                iv[STAGE] = iv[STGLIM];
                iv[RADINC] = -1;
                lbl = 110;
            }
            30 => {
                iv[STAGE] += 1;
                lbl = 40;
            }
            40 => {
                if iv[STAGE] > 0 {
                    lbl = 50;
                    continue;
                }
                if iv[TOOBIG] != 0 {
                    lbl = 60;
                    continue;
                }
                iv[STAGE] = -iv[STAGE];
                i = iv[XIRC];
                lbl = match i {
                    1 => 20,
                    2 => 30,
                    3 | 4 => 110,
                    5 => 70,
                    _ => 50,
                };
            }
            50 => {
                if iv[TOOBIG] == 0 {
                    lbl = 70;
                    continue;
                }
                iv[TOOBIG] = 0;
                if iv[RADINC] > 0 {
                    lbl = 80;
                    continue;
                }
                iv[STAGE] = -iv[STAGE];
                iv[XIRC] = iv[IRC];
                lbl = 60;
            }
            60 => {
                iv[TOOBIG] = 0;
                m[RADFAC] = m[DECFAC];
                iv[RADINC] -= 1;
                iv[IRC] = 5;
                iv[RESTOR] = 1;
                m[F] = m[FLSTGD];
                return;
            }
            70 => {
                if m[F] < m[FLSTGD] {
                    lbl = 110;
                    continue;
                }
                if iv[MODEL] != iv[MLSTGD] {
                    iv[MODEL] = iv[MLSTGD];
                    iv[SWITCH] = 1;
                }
                lbl = 80;
            }
            80 => {
                if m[FLSTGD] >= m[F0] {
                    lbl = 110;
                    continue;
                }
                if iv[STAGE] < iv[STGLIM] || nfc < iv[NFGCAL] + iv[STGLIM] + 2 || iv[SWITCH] != 0 {
                    goodx = false;
                }
                iv[RESTOR] = 3;
                m[F] = m[FLSTGD];
                m[PREDUC] = m[PLSTGD];
                m[GTSTEP] = m[GTSLST];
                if iv[SWITCH] == 0 {
                    rfac1 = m[DSTNRM] / m[DSTSAV];
                }
                m[DSTNRM] = m[DSTSAV];
                if goodx {
                    m[FDIF] = m[F0] - m[F];
                    iv[IRC] = 4;
                    m[RADFAC] = rfac1;
                    return;
                }
                nfc = iv[NFGCAL];
                lbl = 110;
            }
            110 => {
                m[FDIF] = m[F0] - m[F];
                if m[FDIF] > m[TUNER2] * m[PREDUC] || iv[RADINC] > 0 {
                    lbl = 140;
                    continue;
                }
                if m[F] < m[F0] {
                    iv[NFGCAL] = nfc;
                } else {
                    iv[MLSTGD] = iv[MODEL];
                    m[FLSTGD] = m[F];
                    m[F] = m[F0];
                    iv[RESTOR] = 1;
                }
                iv[IRC] = 1;
                if iv[STAGE] >= iv[STGLIM] {
                    iv[IRC] = 5;
                    iv[RADINC] -= 1;
                }
                lbl = 160;
            }
            140 => {
                iv[NFGCAL] = nfc;
                rfac1 = ONE;
                m[DSTSAV] = m[DSTNRM];
                if m[FDIF] > m[PREDUC] * m[TUNER1] {
                    lbl = 190;
                    continue;
                }
                iv[IRC] = if iv[STAGE] >= iv[STGLIM] { 4 } else { 2 };
                lbl = 160;
            }
            160 => {
                iv[XIRC] = iv[IRC];
                emax = m[GTSTEP] + m[FDIF];
                m[RADFAC] = HALF * rfac1;
                if emax < m[GTSTEP] {
                    m[RADFAC] = rfac1 * f64::max(m[RDFCMN], HALF * m[GTSTEP] / emax);
                }
                lbl = 170;
            }
            170 => {
                if m[RELDX] <= m[XFTOL] {
                    iv[IRC] = 12;
                    lbl = 240;
                    continue;
                }
                iv[IRC] = iv[XIRC];
                lbl = if m[F] < m[F0] { 200 } else { 230 };
            }
            190 => {
                if m[FDIF] < -m[TUNER3] * m[GTSTEP]
                    || iv[RADINC] < 0
                    || iv[RESTOR] == 1
                    || iv[RESTOR] == 3
                {
                    lbl = 210;
                    continue;
                }
                m[RADFAC] = m[RDFCMX];
                let gts = m[GTSTEP];
                if m[FDIF] < (HALF / m[RADFAC] - ONE) * gts {
                    m[RADFAC] = f64::max(m[INCFAC], HALF * gts / (gts + m[FDIF]));
                }
                iv[IRC] = 4;
                if m[STPPAR] == ZERO {
                    lbl = 230;
                    continue;
                }
                if m[DST0] >= ZERO && (m[DST0] < TWO * m[DSTNRM] || m[NREDUC] < ONEP2 * m[FDIF]) {
                    lbl = 230;
                    continue;
                }
                iv[IRC] = 5;
                iv[RADINC] += 1;
                lbl = 200;
            }
            200 => {
                m[FLSTGD] = m[F];
                iv[MLSTGD] = iv[MODEL];
                if iv[RESTOR] == 0 {
                    iv[RESTOR] = 2;
                }
                m[DSTSAV] = m[DSTNRM];
                iv[NFGCAL] = nfc;
                m[PLSTGD] = m[PREDUC];
                m[GTSLST] = m[GTSTEP];
                lbl = 230;
            }
            210 => {
                m[RADFAC] = ONE;
                iv[IRC] = 3;
                lbl = 230;
            }
            220 => {
                iv[IRC] = iv[XIRC];
                if !(m[DSTSAV] >= ZERO) {
                    iv[IRC] = 12;
                }
                lbl = 240;
            }
            230 => {
                iv[XIRC] = iv[IRC];
                lbl = 240;
            }
            240 => {
                if iv[RESTOR] == 1 && m[FLSTGD] < m[F0] {
                    iv[RESTOR] = 3;
                }
                if m[F].abs() < m[AFCTOL] {
                    iv[IRC] = 10;
                }
                if HALF * m[FDIF] > m[PREDUC] {
                    return;
                }
                emax = m[RFCTOL] * m[F0].abs();
                emaxs = m[SCTOL] * m[F0].abs();
                if m[PREDUC] <= emaxs && (m[DSTNRM] > m[LMAXS] || m[STPPAR] == ZERO) {
                    iv[IRC] = 11;
                }
                if !(m[DST0] < ZERO) {
                    let mut i = 0;
                    if (m[NREDUC] > ZERO && m[NREDUC] <= emax)
                        || (m[NREDUC] == ZERO && m[PREDUC] == ZERO)
                    {
                        i = 2;
                    }
                    if m[STPPAR] == ZERO && m[RELDX] <= m[XCTOL] && goodx {
                        i += 1;
                    }
                    if i > 0 {
                        iv[IRC] = i + 6;
                    }
                }
                // 250
                if iv[IRC] > 5 && iv[IRC] != 12 {
                    return;
                }
                if m[STPPAR] == ZERO {
                    return;
                }
                if m[DSTNRM] > m[LMAXS] {
                    // 260
                    if HALF * m[DSTNRM] <= m[LMAXS] {
                        return;
                    }
                    let xmax = m[LMAXS] / m[DSTNRM];
                    if xmax * (TWO - xmax) * m[PREDUC] >= emaxs {
                        return;
                    }
                } else {
                    if m[PREDUC] >= emaxs {
                        return;
                    }
                    if m[DST0] > ZERO && HALF * m[DST0] <= m[LMAXS] {
                        return;
                    }
                }
                lbl = 270;
            }
            270 => {
                if m[NREDUC] < ZERO {
                    lbl = 290;
                    continue;
                }
                m[GTSLST] = m[GTSTEP];
                m[DSTSAV] = m[DSTNRM];
                if iv[IRC] == 12 {
                    m[DSTSAV] = -m[DSTSAV];
                }
                m[PLSTGD] = m[PREDUC];
                let i = iv[RESTOR];
                iv[RESTOR] = 2;
                if i == 3 {
                    iv[RESTOR] = 0;
                }
                iv[IRC] = 6;
                return;
            }
            280 => {
                m[GTSTEP] = m[GTSLST];
                m[DSTNRM] = m[DSTSAV].abs();
                iv[IRC] = iv[XIRC];
                if m[DSTSAV] <= ZERO {
                    iv[IRC] = 12;
                }
                m[NREDUC] = -m[PREDUC];
                m[PREDUC] = m[PLSTGD];
                iv[RESTOR] = 3;
                lbl = 290;
            }
            290 => {
                if -m[NREDUC] <= m[SCTOL] * m[F0].abs() {
                    iv[IRC] = 11;
                }
                return;
            }
            _ => unreachable!("DA7SST has no label {lbl}"),
        }
    }
}

/// `DD7DOG`: the double-dogleg step within the trust radius, between
/// the Cauchy step along `dig` and the Newton step `nwtstp`.
pub(super) fn dd7dog(m: &mut [f64], dig: usize, n: usize, nwtstp: usize, step: usize) {
    const BIAS: usize = 43;
    const DGNORM: usize = 1;
    const DSTNRM: usize = 2;
    const DST0: usize = 3;
    const GRDFAC: usize = 45;
    const GTHG: usize = 44;
    const GTSTEP: usize = 4;
    const NREDUC: usize = 6;
    const NWTFAC: usize = 46;
    const PREDUC: usize = 7;
    const RADIUS: usize = 8;
    const STPPAR: usize = 5;
    const HALF: f64 = 0.5;
    const ONE: f64 = 1.0;
    const TWO: f64 = 2.0;
    let nwtnrm = m[DST0];
    let mut rlambd = ONE;
    if nwtnrm > 0.0 {
        rlambd = m[RADIUS] / nwtnrm;
    }
    let gnorm = m[DGNORM];
    let ghinvg = TWO * m[NREDUC];
    m[GRDFAC] = 0.0;
    m[NWTFAC] = 0.0;
    if !(rlambd < ONE) {
        m[STPPAR] = 0.0;
        m[DSTNRM] = nwtnrm;
        m[GTSTEP] = -ghinvg;
        m[PREDUC] = m[NREDUC];
        m[NWTFAC] = -ONE;
        for i in 0..n {
            m[step + i] = -m[nwtstp + i];
        }
        return;
    }
    m[DSTNRM] = m[RADIUS];
    let cfact = (gnorm / m[GTHG]) * (gnorm / m[GTHG]);
    let cnorm = gnorm * cfact;
    let relax = ONE - m[BIAS] * (ONE - gnorm * cnorm / ghinvg);
    if !(rlambd < relax) {
        m[STPPAR] = ONE - (rlambd - relax) / (ONE - relax);
        let t = -rlambd;
        m[GTSTEP] = t * ghinvg;
        m[PREDUC] = rlambd * (ONE - HALF * rlambd) * ghinvg;
        m[NWTFAC] = t;
        for i in 0..n {
            m[step + i] = t * m[nwtstp + i];
        }
        return;
    }
    if !(cnorm < m[RADIUS]) {
        let t = -m[RADIUS] / gnorm;
        m[GRDFAC] = t;
        m[STPPAR] = ONE + cnorm / m[RADIUS];
        m[GTSTEP] = -m[RADIUS] * gnorm;
        let q = m[GTHG] / gnorm;
        m[PREDUC] = m[RADIUS] * (gnorm - HALF * m[RADIUS] * (q * q));
        for i in 0..n {
            m[step + i] = t * m[dig + i];
        }
        return;
    }
    let ctrnwt = cfact * relax * ghinvg / gnorm;
    let mut t1 = ctrnwt - gnorm * (cfact * cfact);
    let mut t2 = m[RADIUS] * (m[RADIUS] / gnorm) - gnorm * (cfact * cfact);
    let mut t = relax * nwtnrm;
    let femnsq = (t / gnorm) * t - ctrnwt - t1;
    t = t2 / (t1 + (t1 * t1 + femnsq * t2).sqrt());
    t1 = (t - ONE) * cfact;
    m[GRDFAC] = t1;
    t2 = -t * relax;
    m[NWTFAC] = t2;
    m[STPPAR] = TWO - t;
    m[GTSTEP] = t1 * (gnorm * gnorm) + t2 * ghinvg;
    let q = m[GTHG] * t1;
    m[PREDUC] =
        -t1 * gnorm * ((t2 + ONE) * gnorm) - t2 * (ONE + HALF * t2) * ghinvg - HALF * (q * q);
    for i in 0..n {
        m[step + i] = t1 * m[dig + i] + t2 * m[nwtstp + i];
    }
}

/// `DS7GRD`: the finite-difference gradient of Stewart's scheme, one
/// component per call (reverse communication through `irc`; `w` holds
/// its six saved values, `alpha` the Hessian's diagonal).
pub(super) fn ds7grd(
    m: &mut [f64],
    alpha: usize,
    d: usize,
    eta0: f64,
    fx: &mut f64,
    g: usize,
    irc: &mut i32,
    n: usize,
    w: usize,
    x: usize,
) {
    const C2000: f64 = 2.0e3;
    const FOUR: f64 = 4.0;
    const HMAX0: f64 = 0.02;
    const HMIN0: f64 = 5.0e1;
    const ONE: f64 = 1.0;
    const P002: f64 = 0.002;
    const THREE: f64 = 3.0;
    const TWO: f64 = 2.0;
    const ZERO: f64 = 0.0;
    const FH: usize = 3;
    const FX0: usize = 4;
    const HSAVE: usize = 5;
    const XISAVE: usize = 6;
    let wk = |k: usize| w + k - 1;
    let h: f64;
    let mut i: usize;
    if *irc < 0 {
        // 140
        let hs = -m[wk(HSAVE)];
        i = irc.unsigned_abs() as usize;
        if hs > ZERO {
            // 150
            m[g + i - 1] = (m[wk(FH)] - *fx) / (TWO * hs);
            m[x + i - 1] = m[wk(XISAVE)];
        } else {
            m[wk(FH)] = *fx;
            m[x + i - 1] = m[wk(XISAVE)] + hs;
            m[wk(HSAVE)] = hs;
            return;
        }
    } else if *irc > 0 {
        // 210
        let ic = *irc as usize;
        m[g + ic - 1] = (*fx - m[wk(FX0)]) / m[wk(HSAVE)];
        m[x + ic - 1] = m[wk(XISAVE)];
    } else {
        m[wk(1)] = dr7mdc(3);
        m[wk(2)] = m[wk(1)].sqrt();
        m[wk(FX0)] = *fx;
    }
    // 110
    i = irc.unsigned_abs() as usize + 1;
    if i > n {
        // 300
        *fx = m[wk(FX0)];
        *irc = 0;
        return;
    }
    *irc = i as i32;
    let afx = m[wk(FX0)].abs();
    let machep = m[wk(1)];
    let h0 = m[wk(2)];
    let hmin = HMIN0 * machep;
    m[wk(XISAVE)] = m[x + i - 1];
    let axi = m[x + i - 1].abs();
    let axibar = f64::max(axi, ONE / m[d + i - 1]);
    let gi = m[g + i - 1];
    let agi = gi.abs();
    let mut eta = eta0.abs();
    if afx > ZERO {
        eta = f64::max(eta, agi * axi * machep / afx);
    }
    let alphai = m[alpha + i - 1];
    if alphai == ZERO {
        // 170
        h = axibar;
    } else if gi == ZERO || *fx == ZERO {
        // 180
        h = h0 * axibar;
    } else {
        let afxeta = afx * eta;
        let aai = alphai.abs();
        let mut hh;
        if gi * gi <= afxeta * aai {
            // 120
            hh = TWO * (afxeta * agi).powf(ONE / THREE) * aai.powf(-TWO / THREE);
            hh *= ONE - TWO * agi / (THREE * aai * hh + FOUR * agi);
        } else {
            hh = TWO * (afxeta / aai).sqrt();
            hh *= ONE - aai * hh / (THREE * aai * hh + FOUR * agi);
        }
        // 130
        hh = f64::max(hh, hmin * axibar);
        if aai * hh <= P002 * agi {
            // 160
            if hh >= HMAX0 * axibar {
                hh = h0 * axibar;
            }
            if alphai * gi < ZERO {
                hh = -hh;
            }
        } else {
            let discon = C2000 * afxeta;
            hh = discon / (agi + (gi * gi + aai * discon).sqrt());
            hh = f64::max(hh, hmin * axibar);
            if hh >= HMAX0 * axibar {
                hh = axibar * h0.powf(TWO / THREE);
            }
            *irc = -(i as i32);
        }
        h = hh;
    }
    // 200
    m[x + i - 1] = m[wk(XISAVE)] + h;
    m[wk(HSAVE)] = h;
}

// Subscripts of IV and V shared by DRMNG and DRMNF (and the bounded
// drivers), as their PARAMETER statements name them.
const CNVCOD: usize = 55;
const DG: usize = 37;
const G0: usize = 48;
const INITH: usize = 25;
const IRC: usize = 29;
const KAGQT: usize = 33;
const MODE: usize = 35;
const MODEL: usize = 5;
const NFCALL: usize = 6;
const NFGCAL: usize = 7;
pub(super) const NGCALL: usize = 30;
pub(super) const NITER: usize = 31;
const NWTSTP: usize = 34;
const RADINC: usize = 8;
const RESTOR: usize = 9;
const STEP: usize = 40;
const STGLIM: usize = 11;
const STLSTG: usize = 41;
const TOOBIG: usize = 2;
const XIRC: usize = 13;
const X0: usize = 43;
const DGNORM: usize = 1;
const DINIT: usize = 38;
const DSTNRM: usize = 2;
const DST0: usize = 3;
pub(super) const F: usize = 10;
const F0: usize = 13;
const FDIF: usize = 11;
const GTHG: usize = 44;
const GTSTEP: usize = 4;
const INCFAC: usize = 23;
const LMAX0: usize = 35;
const LMAXS: usize = 36;
const NEXTV: usize = 47;
const NREDUC: usize = 6;
const PREDUC: usize = 7;
const RADFAC: usize = 16;
const RADIUS: usize = 8;
const RAD0: usize = 9;
const RELDX: usize = 17;
const TUNER4: usize = 29;
const TUNER5: usize = 30;

/// `DRMNG`: minimise a general unconstrained objective with an analytic
/// gradient by the double-dogleg trust region of a BFGS secant Hessian;
/// reverse communication: iv(1) = 1 asks for f at x, 2 for the gradient.
pub(super) fn drmng(
    d: usize,
    fx: f64,
    g: usize,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    n: usize,
    m: &mut [f64],
    x: usize,
) {
    let nn = n as i32;
    let mut i = iv[1];
    let mut lbl: u16;
    let (mut k, mut l);
    // Set at label 150 for 160 after it; the rest are local to a label.
    let (mut step1, mut dg1, mut nwtst1) = (0, 0, 0);
    let mut rstrst = 0;
    if i == 1 {
        lbl = 50;
    } else if i == 2 {
        lbl = 60;
    } else {
        if iv[1] == 0 {
            divset(2, iv, liv, lv, m);
        }
        if iv[1] == 12 || iv[1] == 13 {
            iv[VNEED] += nn * (nn + 13) / 2;
        }
        dparck(2, d, iv, liv, lv, n, m);
        i = iv[1] - 2;
        if i > 12 {
            return;
        }
        lbl = match i {
            1..=6 => 190,
            7 | 9 => 120,
            8 => 90,
            12 => 20,
            _ => 10,
        };
    }
    k = iv[NITER];
    loop {
        match lbl {
            10 => {
                l = iv[LMAT];
                iv[X0] = l + nn * (nn + 1) / 2;
                iv[STEP] = iv[X0] + nn;
                iv[STLSTG] = iv[STEP] + nn;
                iv[G0] = iv[STLSTG] + nn;
                iv[NWTSTP] = iv[G0] + nn;
                iv[DG] = iv[NWTSTP] + nn;
                iv[NEXTV] = iv[DG] + nn;
                if iv[1] != 13 {
                    lbl = 20;
                    continue;
                }
                iv[1] = 14;
                return;
            }
            20 => {
                iv[NITER] = 0;
                iv[NFCALL] = 1;
                iv[NGCALL] = 1;
                iv[NFGCAL] = 1;
                iv[MODE] = -1;
                iv[MODEL] = 1;
                iv[STGLIM] = 1;
                iv[TOOBIG] = 0;
                iv[CNVCOD] = 0;
                iv[RADINC] = 0;
                m[RAD0] = 0.0;
                if m[DINIT] >= 0.0 {
                    let c = m[DINIT];
                    dv7scp(m, n, d, c);
                }
                if iv[INITH] == 1 {
                    let l = iv[LMAT] as usize;
                    dv7scp(m, n * (n + 1) / 2, l, 0.0);
                    let mut k = l - 1;
                    for i in 1..=n {
                        k += i;
                        let mut t = m[d + i - 1];
                        if t <= 0.0 {
                            t = 1.0;
                        }
                        m[k] = t;
                    }
                }
                iv[1] = 1;
                return;
            }
            50 => {
                m[F] = fx;
                if iv[MODE] >= 0 {
                    lbl = 190;
                    continue;
                }
                m[F0] = fx;
                iv[1] = 2;
                if iv[TOOBIG] == 0 {
                    return;
                }
                iv[1] = 63;
                lbl = 350;
            }
            60 => {
                if iv[TOOBIG] != 0 {
                    iv[1] = 65;
                    lbl = 350;
                    continue;
                }
                lbl = 70;
            }
            70 => {
                dg1 = iv[DG] as usize;
                dv7vmp(m, n, dg1, g, d, -1);
                m[DGNORM] = dv2nrm(m, n, dg1);
                if iv[CNVCOD] != 0 {
                    lbl = 340;
                    continue;
                }
                if iv[MODE] == 0 {
                    lbl = 300;
                    continue;
                }
                m[RADIUS] = m[LMAX0];
                iv[MODE] = 0;
                lbl = 80;
            }
            80 => {
                // DITSUM prints only.
                lbl = 90;
            }
            90 => {
                k = iv[NITER];
                if k < iv[MXITER] {
                    lbl = 100;
                    continue;
                }
                iv[1] = 10;
                lbl = 350;
            }
            100 => {
                iv[NITER] = k + 1;
                if k > 0 {
                    m[RADIUS] = m[RADFAC] * m[DSTNRM];
                }
                let g01 = iv[G0] as usize;
                let x01 = iv[X0] as usize;
                m[F0] = m[F];
                iv[IRC] = 4;
                iv[KAGQT] = -1;
                dv7cpy(m, n, x01, x);
                dv7cpy(m, n, g01, g);
                lbl = 110;
            }
            110 => {
                // STOPX is R's dummy, never true: interrupts are R's.
                lbl = 130;
            }
            120 => {
                if m[F] >= m[F0] {
                    lbl = 130;
                    continue;
                }
                m[RADFAC] = 1.0;
                k = iv[NITER];
                lbl = 100;
            }
            130 => {
                if iv[NFCALL] < iv[MXFCAL] {
                    lbl = 150;
                    continue;
                }
                iv[1] = 9;
                lbl = 140;
            }
            140 => {
                if m[F] >= m[F0] {
                    lbl = 350;
                    continue;
                }
                iv[CNVCOD] = iv[1];
                lbl = 290;
            }
            150 => {
                step1 = iv[STEP] as usize;
                dg1 = iv[DG] as usize;
                nwtst1 = iv[NWTSTP] as usize;
                if iv[KAGQT] < 0 {
                    let l = iv[LMAT] as usize;
                    dl7ivm(m, n, nwtst1, l, g);
                    m[NREDUC] = 0.5 * dd7tpr(m, n, nwtst1, nwtst1);
                    dl7itv(m, n, nwtst1, l, nwtst1);
                    dv7vmp(m, n, step1, nwtst1, d, 1);
                    m[DST0] = dv2nrm(m, n, step1);
                    dv7vmp(m, n, dg1, dg1, d, -1);
                    dl7tvm(m, n, step1, l, dg1);
                    m[GTHG] = dv2nrm(m, n, step1);
                    iv[KAGQT] = 0;
                }
                lbl = 160;
            }
            160 => {
                dd7dog(m, dg1, n, nwtst1, step1);
                if iv[IRC] != 6 {
                    lbl = 170;
                    continue;
                }
                if iv[RESTOR] != 2 {
                    lbl = 190;
                    continue;
                }
                rstrst = 2;
                lbl = 200;
            }
            170 => {
                iv[TOOBIG] = 0;
                if m[DSTNRM] <= 0.0 {
                    lbl = 190;
                    continue;
                }
                if iv[IRC] != 5 || m[RADFAC] <= 1.0 || m[PREDUC] > 1.2 * m[FDIF] {
                    lbl = 180;
                    continue;
                }
                if iv[RESTOR] != 2 {
                    lbl = 190;
                    continue;
                }
                rstrst = 0;
                lbl = 200;
            }
            180 => {
                let x01 = iv[X0] as usize;
                step1 = iv[STEP] as usize;
                dv2axy(m, n, x, 1.0, step1, x01);
                iv[NFCALL] += 1;
                iv[1] = 1;
                return;
            }
            190 => {
                rstrst = 3;
                lbl = 200;
            }
            200 => {
                let x01 = iv[X0] as usize;
                m[RELDX] = drldst(m, n, d, x, x01);
                da7sst(iv, m);
                step1 = iv[STEP] as usize;
                let lstgst = iv[STLSTG] as usize;
                i = iv[RESTOR] + 1;
                match i {
                    1 => {}
                    3 => dv7cpy(m, n, lstgst, step1),
                    4 => {
                        dv7cpy(m, n, step1, lstgst);
                        dv2axy(m, n, x, 1.0, step1, x01);
                        m[RELDX] = drldst(m, n, d, x, x01);
                        iv[RESTOR] = rstrst;
                    }
                    // 2, and a computed GO TO out of range falls through
                    // to 210.
                    _ => dv7cpy(m, n, x, x01),
                }
                // 240
                k = iv[IRC];
                lbl = match k {
                    2..=4 => 280,
                    6 => 260,
                    7..=12 => 270,
                    13 => 330,
                    14 => 300,
                    _ => 250,
                };
            }
            250 => {
                m[RADIUS] = m[RADFAC] * m[DSTNRM];
                lbl = 110;
            }
            260 => {
                m[RADIUS] = m[LMAXS];
                lbl = 150;
            }
            270 => {
                iv[CNVCOD] = k - 4;
                if m[F] >= m[F0] || iv[XIRC] == 14 {
                    lbl = 340;
                    continue;
                }
                iv[XIRC] = 14;
                lbl = 280;
            }
            280 => {
                if iv[IRC] == 3 {
                    step1 = iv[STEP] as usize;
                    let temp1 = iv[STLSTG] as usize;
                    let l = iv[LMAT] as usize;
                    dl7tvm(m, n, temp1, l, step1);
                    dl7vml(m, n, temp1, l, temp1);
                }
                lbl = 290;
            }
            290 => {
                iv[NGCALL] += 1;
                iv[1] = 2;
                return;
            }
            300 => {
                let g01 = iv[G0] as usize;
                dv2axy(m, n, g01, -1.0, g01, g);
                step1 = iv[STEP] as usize;
                let temp1 = iv[STLSTG] as usize;
                if iv[IRC] == 3 {
                    dv2axy(m, n, temp1, -1.0, g01, temp1);
                    dv7vmp(m, n, temp1, temp1, d, -1);
                    if dv2nrm(m, n, temp1) <= m[DGNORM] * m[TUNER4]
                        || !(dd7tpr(m, n, g, step1) >= m[GTSTEP] * m[TUNER5])
                    {
                        m[RADFAC] = m[INCFAC];
                    }
                }
                // 320
                let w = iv[NWTSTP] as usize;
                let z = iv[X0] as usize;
                let l = iv[LMAT] as usize;
                dw7zbf(m, l, n, step1, w, g01, z);
                dl7upd(m, temp1, step1, l, g01, l, n, w, z);
                iv[1] = 2;
                lbl = 80;
            }
            330 => {
                iv[1] = 64;
                lbl = 350;
            }
            340 => {
                iv[1] = iv[CNVCOD];
                iv[CNVCOD] = 0;
                lbl = 350;
            }
            350 => {
                // DITSUM prints only.
                return;
            }
            _ => unreachable!("DRMNG has no label {lbl}"),
        }
    }
}

/// `DRMNF`: DRMNG with the gradient by DS7GRD's finite differences;
/// iv(1) = 1 or 2 both ask for f at x.
pub(super) fn drmnf(
    d: usize,
    fx_in: f64,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    n: usize,
    m: &mut [f64],
    x: usize,
) {
    const ETA0: usize = 42;
    const G: usize = 28;
    const SGIRC: usize = 57;
    let nn = n as i32;
    let mut fx = fx_in;
    let mut iv1 = iv[1];
    let mut g1: usize = 0;
    let mut lbl: u16 = if iv1 == 1 {
        10
    } else if iv1 == 2 {
        50
    } else {
        if iv[1] == 0 {
            divset(2, iv, liv, lv, m);
        }
        iv1 = iv[1];
        if iv1 == 12 || iv1 == 13 {
            iv[VNEED] += 2 * nn + 6;
        }
        if iv1 == 14 || (iv1 > 2 && iv1 < 12) {
            10
        } else {
            g1 = 1;
            if iv1 == 12 {
                iv[1] = 13;
            }
            20
        }
    };
    loop {
        match lbl {
            10 => {
                g1 = iv[G] as usize;
                lbl = 20;
            }
            20 => {
                drmng(d, fx, g1, iv, liv, lv, n, m, x);
                if iv[1] < 2 {
                    return;
                }
                if iv[1] > 2 {
                    lbl = 70;
                    continue;
                }
                // Compute the gradient: the Hessian's diagonal first,
                // for DS7GRD's step sizes.
                if iv[NITER] == 0 {
                    dv7scp(m, n, g1, 0.0);
                }
                let mut j = iv[LMAT] as usize;
                let mut k = g1 - n;
                for i in 1..=n {
                    m[k] = dd7tpr(m, i, j, j);
                    k += 1;
                    j += i;
                }
                // Undo DRMNG's increment of iv(NGCALL).
                iv[NGCALL] -= 1;
                iv[SGIRC] = 0;
                // x may have been restored, so fx is V(F)'s.
                fx = m[F];
                lbl = 60;
            }
            50 => {
                lbl = if iv[TOOBIG] != 0 { 10 } else { 60 };
            }
            60 => {
                g1 = iv[G] as usize;
                let alpha = g1 - n;
                let w = alpha - 6;
                let eta0 = m[ETA0];
                let mut irc = iv[SGIRC];
                ds7grd(m, alpha, d, eta0, &mut fx, g1, &mut irc, n, w, x);
                iv[SGIRC] = irc;
                if iv[SGIRC] == 0 {
                    lbl = 10;
                    continue;
                }
                iv[NGCALL] += 1;
                return;
            }
            70 => {
                if iv[1] != 14 {
                    return;
                }
                iv[G] = iv[NEXTV] + nn + 6;
                iv[NEXTV] = iv[G] + nn;
                if iv1 != 13 {
                    lbl = 10;
                    continue;
                }
                return;
            }
            _ => unreachable!("DRMNF has no label {lbl}"),
        }
    }
}

/// port.c's `dv7ipr`: x(i) = x(ip(i)), the permutation `ip` in iv.
pub(super) fn dv7ipr(n: usize, iv: &[i32], ip: usize, m: &mut [f64], x: usize) {
    let xcp: Vec<f64> = (0..n).map(|i| m[x + iv[ip + i] as usize - 1]).collect();
    m[x..x + n].copy_from_slice(&xcp);
}

/// `I7SHFT`: shift x(k..n) one place left, x(k) to the end (k > 0), or
/// x(-k..n) right, x(n) to -k (k < 0).
pub(super) fn i7shft(n: usize, k: i32, iv: &mut [i32], x: usize) {
    let n = n as i32;
    let at = |i: i32| x + i as usize - 1;
    if k >= 0 {
        if k >= n {
            return;
        }
        let t = iv[at(k)];
        for i in k..n {
            iv[at(i)] = iv[at(i + 1)];
        }
        iv[at(n)] = t;
    } else {
        let k1 = -k;
        if k1 >= n {
            return;
        }
        let t = iv[at(n)];
        for ii in 1..=n - k1 {
            let i = n - ii;
            iv[at(i + 1)] = iv[at(i)];
        }
        iv[at(k1)] = t;
    }
}

/// `DV7SHF`: shift x(k..n) one place left, x(k) to the end.
pub(super) fn dv7shf(m: &mut [f64], n: usize, k: usize, x: usize) {
    if k >= n {
        return;
    }
    let t = m[x + k - 1];
    for i in k..n {
        m[x + i - 1] = m[x + i];
    }
    m[x + n - 1] = t;
}

/// `DH2RFG`: the 2x2 Householder reflection (x, y, z) taking (a, b) to
/// (value, 0).
fn dh2rfg(a: f64, b: f64, x: &mut f64, y: &mut f64, z: &mut f64) -> f64 {
    if b == 0.0 {
        *x = 0.0;
        *y = 0.0;
        *z = 0.0;
        return a;
    }
    let t = a.abs() + b.abs();
    let mut a1 = a / t;
    let b1 = b / t;
    let mut c = (a1 * a1 + b1 * b1).sqrt();
    if a1 > 0.0 {
        c = -c;
    }
    a1 -= c;
    *z = b1 / a1;
    *x = a1 / c;
    *y = b1 / c;
    t * c
}

/// `DH2RFA` for one pair: apply DH2RFG's reflection to (a, b).
fn dh2rfa1(m: &mut [f64], a: usize, b: usize, x: f64, y: f64, z: f64) {
    let t = m[a] * x + m[b] * y;
    m[a] += t;
    m[b] += t * z;
}

/// `DQ7RSH`: permute column k of the packed upper triangle R to the end
/// and restore triangularity by Householder reflections (QTR untouched:
/// the bounded drivers pass HAVQTR false).
pub(super) fn dq7rsh(m: &mut [f64], k: usize, p: usize, r: usize, w: usize) {
    if k >= p {
        return;
    }
    let rr = |i: usize| r + i - 1;
    let km1 = k - 1;
    let mut k1 = k * km1 / 2;
    dv7cpy(m, k, w, rr(k1 + 1));
    let mut wj = m[w + k - 1];
    let pm1 = p - 1;
    let mut j1 = k1 + km1;
    for j in k..=pm1 {
        let jm1 = j - 1;
        let jp1 = j + 1;
        if jm1 > 0 {
            dv7cpy(m, jm1, rr(k1 + 1), rr(j1 + 2));
        }
        j1 += jp1;
        k1 += j;
        let a = m[rr(j1)];
        let b = m[rr(j1 + 1)];
        let (mut x, mut y, mut z) = (0.0, 0.0, 0.0);
        if b == 0.0 {
            m[rr(k1)] = a;
        } else {
            m[rr(k1)] = dh2rfg(a, b, &mut x, &mut y, &mut z);
            if j != pm1 {
                let mut i1 = j1;
                for i in jp1..=pm1 {
                    i1 += i;
                    dh2rfa1(m, rr(i1), rr(i1 + 1), x, y, z);
                }
            }
        }
        let t = x * wj;
        m[w + j - 1] = wj + t;
        wj = t * z;
    }
    m[w + p - 1] = wj;
    dv7cpy(m, p, rr(k1 + 1), w);
}

/// `DD7DGB`: the double-dogleg step within the bounds: dogleg steps on
/// the free variables, each cut at the first bound it meets, which is
/// then fixed (DQ7RSH moves it out of L) and the step retried.
pub(super) fn dd7dgb(
    m: &mut [f64],
    b: usize,
    d: usize,
    dig: usize,
    dst: usize,
    g: usize,
    iv: &mut [i32],
    ipiv: usize,
    ka: &mut i32,
    l: usize,
    p: usize,
    pc: usize,
    nwtst: usize,
    step: usize,
    td: usize,
    tg: usize,
    w: usize,
    x0: usize,
) {
    const DGNORM: usize = 1;
    const DST0: usize = 3;
    const DSTNRM: usize = 2;
    const GRDFAC: usize = 45;
    const GTHG: usize = 44;
    const GTSTEP: usize = 4;
    const NREDUC: usize = 6;
    const NWTFAC: usize = 46;
    const PREDUC: usize = 7;
    const RADIUS: usize = 8;
    const STPPAR: usize = 5;
    const HALF: f64 = 0.5;
    const ONE: f64 = 1.0;
    let meps2 = 2.0 * dr7mdc(3);
    let b1 = |j: usize| b + 2 * (j - 1);
    let b2 = |j: usize| b + 2 * (j - 1) + 1;
    let gnorm0 = m[DGNORM];
    m[DSTNRM] = 0.0;
    // Unset in the Fortran when no step is computed with ka < 0; zero
    // stands for the garbage.
    let mut dnwtst = 0.0;
    let mut nred = 0.0;
    if *ka >= 0 {
        dnwtst = m[DST0];
        nred = m[NREDUC];
    }
    let mut pred = 0.0;
    m[STPPAR] = 0.0;
    let rad = m[RADIUS];
    let mut p1 = pc;
    if pc == 0 {
        dnwtst = 0.0;
        dv7scp(m, p, step, 0.0);
    } else {
        dv7cpy(m, p, td, d);
        dv7ipr(p, iv, ipiv, m, td);
        dv7scp(m, pc, dst, 0.0);
        dv7cpy(m, p, tg, g);
        dv7ipr(p, iv, ipiv, m, tg);
        loop {
            // 30
            dl7ivm(m, p1, nwtst, l, tg);
            let ghinvg = dd7tpr(m, p1, nwtst, nwtst);
            m[NREDUC] = HALF * ghinvg;
            dl7itv(m, p1, nwtst, l, nwtst);
            dv7vmp(m, p1, step, nwtst, td, 1);
            m[DST0] = dv2nrm(m, pc, step);
            if *ka < 0 {
                *ka = 0;
                dnwtst = m[DST0];
                nred = m[NREDUC];
            }
            // 40
            m[RADIUS] = rad - m[DSTNRM];
            if m[RADIUS] <= 0.0 {
                break;
            }
            dv7vmp(m, p1, dig, tg, td, -1);
            let gnorm = dv2nrm(m, p1, dig);
            if gnorm <= 0.0 {
                break;
            }
            m[DGNORM] = gnorm;
            dv7vmp(m, p1, dig, dig, td, -1);
            dl7tvm(m, p1, w, l, dig);
            m[GTHG] = dv2nrm(m, p1, w);
            *ka += 1;
            dd7dog(m, dig, p1, nwtst, step);
            let mut t = ONE;
            let mut k: i64 = 0;
            for i in 1..=p1 {
                let j = iv[ipiv + i - 1] as usize;
                let x0i = m[x0 + j - 1] + m[dst + i - 1] / m[td + i - 1];
                let xi = x0i + m[step + i - 1];
                let (ti, jj): (f64, i64);
                if xi < m[b1(j)] {
                    // 50
                    ti = (m[b1(j)] - x0i) / m[step + i - 1];
                    jj = -(i as i64);
                } else if xi <= m[b2(j)] {
                    continue;
                } else {
                    ti = (m[b2(j)] - x0i) / m[step + i - 1];
                    jj = i as i64;
                }
                // 60
                if t <= ti {
                    continue;
                }
                k = jj;
                t = ti;
            }
            dv7vmp(m, p1, step, step, td, 1);
            dv2axy(m, p1, dst, t, step, dst);
            m[DSTNRM] = dv2nrm(m, pc, dst);
            let t1 = t * m[GRDFAC];
            let mut t2 = t * m[NWTFAC];
            let q = m[GTHG] * t1;
            pred = pred
                - t1 * gnorm * ((t2 + ONE) * gnorm)
                - t2 * (ONE + HALF * t2) * ghinvg
                - HALF * (q * q);
            if k == 0 {
                break;
            }
            dl7vml(m, p1, w, l, w);
            t2 = ONE - t2;
            for i in 0..p1 {
                m[tg + i] = t2 * m[tg + i] - t1 * m[w + i];
            }
            let p1m1 = p1 - 1;
            let j = k.unsigned_abs() as usize;
            if j != p1 {
                dq7rsh(m, j, p1, l, w);
                i7shft(p1, j as i32, iv, ipiv);
                dv7shf(m, p1, j, tg);
                dv7shf(m, p1, j, td);
                dv7shf(m, p1, j, dst);
            }
            // 90
            if k < 0 {
                iv[ipiv + p1 - 1] = -iv[ipiv + p1 - 1];
            }
            p1 = p1m1;
            if p1 == 0 {
                break;
            }
        }
        // 100
        dv7scp(m, p, step, 0.0);
        for i in 1..=pc {
            let j = iv[ipiv + i - 1].unsigned_abs() as usize;
            m[step + j - 1] = m[dst + i - 1] / m[td + i - 1];
        }
        if p1 < pc {
            dv2axy(m, p, td, ONE, step, x0);
            for i in p1 + 1..=pc {
                let mut j = iv[ipiv + i - 1];
                let mut t = meps2;
                if j <= 0 {
                    t = -t;
                    j = -j;
                    iv[ipiv + i - 1] = j;
                }
                let j = j as usize;
                t *= f64::max(m[td + j - 1].abs(), m[x0 + j - 1].abs());
                m[step + j - 1] += t;
            }
        }
    }
    // 140
    m[DGNORM] = gnorm0;
    m[NREDUC] = nred;
    m[PREDUC] = pred;
    m[RADIUS] = rad;
    m[DST0] = dnwtst;
    m[GTSTEP] = dd7tpr(m, p, step, g);
}

/// `DS3GRD`: DS7GRD within bounds: a difference that would leave the box
/// is taken the other way, or one-sided of second order; a fixed
/// variable (lower = upper) gets a zero gradient. irc > p on return
/// means no difference fits.
pub(super) fn ds3grd(
    m: &mut [f64],
    alpha: usize,
    b: usize,
    d: usize,
    eta0: f64,
    fx: &mut f64,
    g: usize,
    irc: &mut i32,
    p: usize,
    w: usize,
    x: usize,
) {
    const C2000: f64 = 2.0e3;
    const FOUR: f64 = 4.0;
    const HMAX0: f64 = 0.02;
    const HMIN0: f64 = 5.0e1;
    const ONE: f64 = 1.0;
    const P002: f64 = 0.002;
    const THREE: f64 = 3.0;
    const TWO: f64 = 2.0;
    const ZERO: f64 = 0.0;
    const FH: usize = 3;
    const FX0: usize = 4;
    const HSAVE: usize = 5;
    const XISAVE: usize = 6;
    let wk = |k: usize| w + k - 1;
    let b1 = |j: usize| b + 2 * (j - 1);
    let b2 = |j: usize| b + 2 * (j - 1) + 1;
    let pp = p as i32;
    let mut lbl: u16;
    let mut i: usize = 0;
    let (mut h, mut xih, mut xi) = (0.0, 0.0, 0.0);
    if *irc < 0 {
        lbl = 80;
    } else if *irc > 0 {
        lbl = 210;
    } else {
        m[wk(1)] = dr7mdc(3);
        m[wk(2)] = m[wk(1)].sqrt();
        m[wk(FX0)] = *fx;
        lbl = 20;
    }
    loop {
        match lbl {
            20 => {
                i = irc.unsigned_abs() as usize + 1;
                if i > p {
                    *irc = 0;
                    lbl = 230;
                    continue;
                }
                *irc = i as i32;
                if !(m[b1(i)] < m[b2(i)]) {
                    m[g + i - 1] = ZERO;
                    continue;
                }
                let afx = m[wk(FX0)].abs();
                let machep = m[wk(1)];
                let h0 = m[wk(2)];
                let hmin = HMIN0 * machep;
                xi = m[x + i - 1];
                m[wk(XISAVE)] = xi;
                let axi = xi.abs();
                let axibar = f64::max(axi, ONE / m[d + i - 1]);
                let gi = m[g + i - 1];
                let agi = gi.abs();
                let mut eta = eta0.abs();
                if afx > ZERO {
                    eta = f64::max(eta, agi * axi * machep / afx);
                }
                let alphai = m[alpha + i - 1];
                if alphai == ZERO {
                    h = axibar;
                    lbl = 150;
                    continue;
                }
                if gi == ZERO || *fx == ZERO {
                    h = h0 * axibar;
                    lbl = 150;
                    continue;
                }
                let afxeta = afx * eta;
                let aai = alphai.abs();
                if gi * gi <= afxeta * aai {
                    h = TWO * (afxeta * agi).powf(ONE / THREE) * aai.powf(-TWO / THREE);
                    h *= ONE - TWO * agi / (THREE * aai * h + FOUR * agi);
                } else {
                    h = TWO * (afxeta / aai).sqrt();
                    h *= ONE - aai * h / (THREE * aai * h + FOUR * agi);
                }
                // 50
                h = f64::max(h, hmin * axibar);
                if aai * h <= P002 * agi {
                    // 120
                    if h >= HMAX0 * axibar {
                        h = h0 * axibar;
                    }
                    if alphai * gi < ZERO {
                        h = -h;
                    }
                    lbl = 150;
                    continue;
                }
                let discon = C2000 * afxeta;
                h = discon / (agi + (gi * gi + aai * discon).sqrt());
                h = f64::max(h, hmin * axibar);
                if h >= HMAX0 * axibar {
                    h = axibar * h0.powf(TWO / THREE);
                }
                xih = xi + h;
                if xi - h < m[b1(i)] {
                    // 60
                    if xi + TWO * h > m[b2(i)] {
                        lbl = 190;
                        continue;
                    }
                    lbl = 70;
                    continue;
                }
                *irc = -(i as i32);
                if xih <= m[b2(i)] {
                    lbl = 200;
                    continue;
                }
                h = -h;
                xih = xi + h;
                if xi + TWO * h < m[b1(i)] {
                    lbl = 190;
                    continue;
                }
                lbl = 70;
            }
            70 => {
                *irc = -(i as i32 + pp);
                lbl = 200;
            }
            80 => {
                let mut ii = -*irc;
                if ii <= pp {
                    // 100
                    i = ii as usize;
                    h = -m[wk(HSAVE)];
                    if h > ZERO {
                        // 110
                        m[g + i - 1] = (m[wk(FH)] - *fx) / (TWO * h);
                        m[x + i - 1] = m[wk(XISAVE)];
                        lbl = 20;
                        continue;
                    }
                    m[wk(FH)] = *fx;
                    xih = m[wk(XISAVE)] + h;
                    lbl = 200;
                    continue;
                }
                ii -= pp;
                if ii > pp {
                    // 90
                    ii -= pp;
                    i = ii as usize;
                    m[g + i - 1] = (FOUR * m[wk(FH)] - *fx - THREE * m[wk(FX0)]) / m[wk(HSAVE)];
                    *irc = ii;
                    m[x + i - 1] = m[wk(XISAVE)];
                    lbl = 20;
                    continue;
                }
                i = ii as usize;
                m[wk(FH)] = *fx;
                h = TWO * m[wk(HSAVE)];
                xih = m[wk(XISAVE)] + h;
                *irc -= pp;
                lbl = 200;
            }
            150 => {
                let mut hit = false;
                loop {
                    // 160
                    xih = xi + h;
                    let inside = if h > ZERO {
                        xih <= m[b2(i)]
                    } else {
                        xih >= m[b1(i)]
                    };
                    if inside {
                        lbl = 200;
                        break;
                    }
                    // 180
                    if hit {
                        lbl = 190;
                        break;
                    }
                    hit = true;
                    h = -h;
                }
            }
            190 => {
                *irc = i as i32 + pp;
                lbl = 230;
            }
            200 => {
                m[x + i - 1] = xih;
                m[wk(HSAVE)] = h;
                return;
            }
            210 => {
                let ic = *irc as usize;
                m[g + ic - 1] = (*fx - m[wk(FX0)]) / m[wk(HSAVE)];
                m[x + ic - 1] = m[wk(XISAVE)];
                lbl = 20;
            }
            230 => {
                *fx = m[wk(FX0)];
                return;
            }
            _ => unreachable!("DS3GRD has no label {lbl}"),
        }
    }
}

/// `DRMNGB`: DRMNG within simple bounds b(1, i) <= x(i) <= b(2, i): the
/// variables at a bound whose gradient points out are fixed (moved to the
/// end of the permutation iv(PERM..), their rows out of L by DQ7RSH), and
/// the step is DD7DGB's.
pub(super) fn drmngb(
    b: usize,
    d: usize,
    fx: f64,
    g: usize,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    n: usize,
    m: &mut [f64],
    x: usize,
) {
    const NC: usize = 48;
    const NEXTIV: usize = 46;
    let nn = n as i32;
    let b1 = |j: usize| b + 2 * (j - 1);
    let b2 = |j: usize| b + 2 * (j - 1) + 1;
    let mut i = iv[1];
    let mut k = 0;
    let mut rstrst = 0;
    // Set at label 220 for 240 after it.
    let (mut step1, mut x01) = (0, 0);
    let mut lbl: u16 = if i == 1 {
        70
    } else if i == 2 {
        80
    } else {
        if iv[1] == 0 {
            divset(2, iv, liv, lv, m);
        }
        if (12..=13).contains(&iv[1]) {
            iv[VNEED] += nn * (nn + 19) / 2;
            iv[IVNEED] += nn;
        }
        dparck(2, d, iv, liv, lv, n, m);
        i = iv[1] - 2;
        if i > 12 {
            return;
        }
        match i {
            1..=6 => 250,
            7 | 9 => 190,
            8 => 150,
            12 => 30,
            _ => 20,
        }
    };
    loop {
        match lbl {
            20 => {
                let l = iv[LMAT];
                iv[X0] = l + nn * (nn + 1) / 2;
                iv[STEP] = iv[X0] + 2 * nn;
                iv[STLSTG] = iv[STEP] + 2 * nn;
                iv[NWTSTP] = iv[STLSTG] + nn;
                iv[DG] = iv[NWTSTP] + 2 * nn;
                iv[NEXTV] = iv[DG] + 2 * nn;
                iv[NEXTIV] = iv[PERM] + nn;
                if iv[1] != 13 {
                    lbl = 30;
                    continue;
                }
                iv[1] = 14;
                return;
            }
            30 => {
                iv[NITER] = 0;
                iv[NFCALL] = 1;
                iv[NGCALL] = 1;
                iv[NFGCAL] = 1;
                iv[MODE] = -1;
                iv[MODEL] = 1;
                iv[STGLIM] = 1;
                iv[TOOBIG] = 0;
                iv[CNVCOD] = 0;
                iv[RADINC] = 0;
                iv[NC] = nn;
                m[RAD0] = 0.0;
                let mut ipi = iv[PERM] as usize;
                let mut crossed = false;
                for i in 1..=n {
                    iv[ipi] = i as i32;
                    ipi += 1;
                    if m[b1(i)] > m[b2(i)] {
                        crossed = true;
                        break;
                    }
                }
                if crossed {
                    lbl = 410;
                    continue;
                }
                if m[DINIT] >= 0.0 {
                    let c = m[DINIT];
                    dv7scp(m, n, d, c);
                }
                if iv[INITH] == 1 {
                    let l = iv[LMAT] as usize;
                    dv7scp(m, n * (n + 1) / 2, l, 0.0);
                    let mut k = l - 1;
                    for i in 1..=n {
                        k += i;
                        let mut t = m[d + i - 1];
                        if t <= 0.0 {
                            t = 1.0;
                        }
                        m[k] = t;
                    }
                }
                iv[1] = 1;
                lbl = 440;
            }
            70 => {
                m[F] = fx;
                if iv[MODE] >= 0 {
                    lbl = 250;
                    continue;
                }
                m[F0] = fx;
                iv[1] = 2;
                if iv[TOOBIG] == 0 {
                    return;
                }
                iv[1] = 63;
                lbl = 430;
            }
            80 => {
                if iv[TOOBIG] != 0 {
                    iv[1] = 65;
                    lbl = 430;
                    continue;
                }
                // 90: fix the variables at a bound the gradient pushes
                // against.
                let ipi = iv[PERM] as usize;
                let mut ipn = ipi + n;
                let mut n1 = n;
                let np1 = n + 1;
                let l = iv[LMAT] as usize;
                let w1 = iv[NWTSTP] as usize + n;
                let k = nn - iv[NC];
                for i in 1..=n {
                    ipn -= 1;
                    let j = iv[ipn] as usize;
                    let fixed = if m[b1(j)] >= m[b2(j)] {
                        true
                    } else {
                        let xi = m[x + j - 1];
                        let gi = m[g + j - 1];
                        (xi <= m[b1(j)] && gi > 0.0) || (xi >= m[b2(j)] && gi < 0.0)
                    };
                    if !fixed {
                        if i as i32 <= k {
                            iv[CNVCOD] = 0;
                        }
                        continue;
                    }
                    // 100
                    let i1 = np1 - i;
                    if i1 < n1 {
                        i7shft(n1, i1 as i32, iv, ipi);
                        dq7rsh(m, i1, n1, l, w1);
                    }
                    n1 -= 1;
                }
                iv[NC] = n1 as i32;
                m[DGNORM] = 0.0;
                if n1 > 0 {
                    let dg1 = iv[DG] as usize;
                    dv7vmp(m, n, dg1, g, d, -1);
                    dv7ipr(n, iv, ipi, m, dg1);
                    m[DGNORM] = dv2nrm(m, n1, dg1);
                }
                // 130
                if iv[CNVCOD] != 0 {
                    lbl = 420;
                    continue;
                }
                if iv[MODE] == 0 {
                    lbl = 370;
                    continue;
                }
                m[RADIUS] = m[LMAX0];
                iv[MODE] = 0;
                lbl = 140;
            }
            140 => {
                // DITSUM prints only.
                lbl = 150;
            }
            150 => {
                k = iv[NITER];
                if k < iv[MXITER] {
                    lbl = 160;
                    continue;
                }
                iv[1] = 10;
                lbl = 430;
            }
            160 => {
                iv[NITER] = k + 1;
                if k != 0 {
                    let t = m[RADFAC] * m[DSTNRM];
                    if m[RADFAC] < 1.0 || t > m[RADIUS] {
                        m[RADIUS] = t;
                    }
                }
                // 170
                let x01 = iv[X0] as usize;
                m[F0] = m[F];
                iv[IRC] = 4;
                iv[KAGQT] = -1;
                dv7cpy(m, n, x01, x);
                lbl = 180;
            }
            180 => {
                // STOPX is R's dummy, never true.
                lbl = 200;
            }
            190 => {
                if m[F] >= m[F0] {
                    lbl = 200;
                    continue;
                }
                m[RADFAC] = 1.0;
                k = iv[NITER];
                lbl = 160;
            }
            200 => {
                if iv[NFCALL] < iv[MXFCAL] {
                    lbl = 220;
                    continue;
                }
                iv[1] = 9;
                lbl = 210;
            }
            210 => {
                if m[F] >= m[F0] {
                    lbl = 430;
                    continue;
                }
                iv[CNVCOD] = iv[1];
                lbl = 360;
            }
            220 => {
                step1 = iv[STEP] as usize;
                let dg1 = iv[DG] as usize;
                let nwtst1 = iv[NWTSTP] as usize;
                let w1 = nwtst1 + n;
                let dstep1 = step1 + n;
                let ipi = iv[PERM] as usize;
                let l = iv[LMAT] as usize;
                let tg1 = dg1 + n;
                x01 = iv[X0] as usize;
                let td1 = x01 + n;
                let mut ka = iv[KAGQT];
                let pc = iv[NC] as usize;
                dd7dgb(
                    m, b, d, dg1, dstep1, g, iv, ipi, &mut ka, l, n, pc, nwtst1, step1, td1, tg1,
                    w1, x01,
                );
                iv[KAGQT] = ka;
                if iv[IRC] != 6 {
                    lbl = 230;
                    continue;
                }
                if iv[RESTOR] != 2 {
                    lbl = 250;
                    continue;
                }
                rstrst = 2;
                lbl = 260;
            }
            230 => {
                iv[TOOBIG] = 0;
                if m[DSTNRM] <= 0.0 {
                    lbl = 250;
                    continue;
                }
                if iv[IRC] != 5 || m[RADFAC] <= 1.0 || m[PREDUC] > 1.2 * m[FDIF] {
                    // 240
                    dv2axy(m, n, x, 1.0, step1, x01);
                    iv[NFCALL] += 1;
                    iv[1] = 1;
                    lbl = 440;
                    continue;
                }
                if iv[RESTOR] != 2 {
                    lbl = 250;
                    continue;
                }
                rstrst = 0;
                lbl = 260;
            }
            250 => {
                rstrst = 3;
                lbl = 260;
            }
            260 => {
                let x01 = iv[X0] as usize;
                m[RELDX] = drldst(m, n, d, x, x01);
                da7sst(iv, m);
                let step1 = iv[STEP] as usize;
                let lstgst = iv[STLSTG] as usize;
                i = iv[RESTOR] + 1;
                match i {
                    1 => {}
                    3 => dv7cpy(m, n, lstgst, x),
                    4 => {
                        dv7cpy(m, n, x, lstgst);
                        dv2axy(m, n, step1, -1.0, x01, x);
                        m[RELDX] = drldst(m, n, d, x, x01);
                        iv[RESTOR] = rstrst;
                    }
                    // 2, and a computed GO TO out of range falls through
                    // to 270.
                    _ => dv7cpy(m, n, x, x01),
                }
                // 300
                k = iv[IRC];
                lbl = match k {
                    2..=4 => 340,
                    6 => 320,
                    7..=12 => 330,
                    13 => 400,
                    14 => 370,
                    _ => 310,
                };
            }
            310 => {
                m[RADIUS] = m[RADFAC] * m[DSTNRM];
                lbl = 180;
            }
            320 => {
                m[RADIUS] = m[LMAXS];
                lbl = 220;
            }
            330 => {
                iv[CNVCOD] = k - 4;
                if m[F] >= m[F0] || iv[XIRC] == 14 {
                    lbl = 420;
                    continue;
                }
                iv[XIRC] = 14;
                lbl = 340;
            }
            340 => {
                let mut x01 = iv[X0] as usize;
                let step1 = iv[STEP] as usize;
                dv2axy(m, n, step1, -1.0, x01, x);
                if iv[IRC] == 3 {
                    let mut ipi = iv[PERM] as usize;
                    dv7cpy(m, n, x01, step1);
                    dv7ipr(n, iv, ipi, m, x01);
                    let l = iv[LMAT] as usize;
                    dl7tvm(m, n, x01, l, x01);
                    dl7vml(m, n, x01, l, x01);
                    let temp1 = iv[STLSTG] as usize;
                    let temp0 = temp1 - 1;
                    for _ in 1..=n {
                        let j = iv[ipi] as usize;
                        ipi += 1;
                        let k = temp0 + j;
                        m[k] = m[x01];
                        x01 += 1;
                    }
                }
                lbl = 360;
            }
            360 => {
                let g01 = iv[NWTSTP] as usize + n;
                dv7cpy(m, n, g01, g);
                iv[NGCALL] += 1;
                iv[TOOBIG] = 0;
                iv[1] = 2;
                return;
            }
            370 => {
                let g01 = iv[NWTSTP] as usize + n;
                dv2axy(m, n, g01, -1.0, g01, g);
                let step1 = iv[STEP] as usize;
                let temp1 = iv[STLSTG] as usize;
                if iv[IRC] == 3 {
                    dv2axy(m, n, temp1, -1.0, g01, temp1);
                    dv7vmp(m, n, temp1, temp1, d, -1);
                    if dv2nrm(m, n, temp1) <= m[DGNORM] * m[TUNER4]
                        || !(dd7tpr(m, n, g, step1) >= m[GTSTEP] * m[TUNER5])
                    {
                        m[RADFAC] = m[INCFAC];
                    }
                }
                // 390
                let w1 = iv[NWTSTP] as usize;
                let z = iv[X0] as usize;
                let l = iv[LMAT] as usize;
                let ipi = iv[PERM] as usize;
                dv7ipr(n, iv, ipi, m, step1);
                dv7ipr(n, iv, ipi, m, g01);
                dw7zbf(m, l, n, step1, w1, g01, z);
                dl7upd(m, temp1, step1, l, g01, l, n, w1, z);
                iv[1] = 2;
                lbl = 140;
            }
            400 => {
                iv[1] = 64;
                lbl = 430;
            }
            410 => {
                iv[1] = 82;
                lbl = 430;
            }
            420 => {
                iv[1] = iv[CNVCOD];
                iv[CNVCOD] = 0;
                lbl = 430;
            }
            430 => {
                // DITSUM prints only.
                return;
            }
            440 => {
                for i in 1..=n {
                    if m[x + i - 1] < m[b1(i)] {
                        m[x + i - 1] = m[b1(i)];
                    }
                    if m[x + i - 1] > m[b2(i)] {
                        m[x + i - 1] = m[b2(i)];
                    }
                }
                return;
            }
            _ => unreachable!("DRMNGB has no label {lbl}"),
        }
    }
}

/// `DRMNFB`: DRMNGB with the gradient by DS3GRD's finite differences
/// within the bounds.
pub(super) fn drmnfb(
    b: usize,
    d: usize,
    fx_in: f64,
    iv: &mut [i32],
    liv: usize,
    lv: usize,
    p: usize,
    m: &mut [f64],
    x: usize,
) {
    const ETA0: usize = 42;
    const G: usize = 28;
    const SGIRC: usize = 57;
    let pp = p as i32;
    let mut fx = fx_in;
    let mut iv1 = iv[1];
    let mut g1: usize = 0;
    let mut lbl: u16 = if iv1 == 1 {
        10
    } else if iv1 == 2 {
        50
    } else {
        if iv[1] == 0 {
            divset(2, iv, liv, lv, m);
        }
        iv1 = iv[1];
        if iv1 == 12 || iv1 == 13 {
            iv[VNEED] += 2 * pp + 6;
        }
        if iv1 == 14 || (iv1 > 2 && iv1 < 12) {
            10
        } else {
            g1 = 1;
            if iv1 == 12 {
                iv[1] = 13;
            }
            20
        }
    };
    loop {
        match lbl {
            10 => {
                g1 = iv[G] as usize;
                lbl = 20;
            }
            20 => {
                drmngb(b, d, fx, g1, iv, liv, lv, p, m, x);
                if iv[1] < 2 {
                    return;
                }
                if iv[1] > 2 {
                    lbl = 80;
                    continue;
                }
                // The Hessian's diagonal, in the original order, for
                // DS3GRD's step sizes.
                if iv[NITER] == 0 {
                    dv7scp(m, p, g1, 0.0);
                }
                let mut j = iv[LMAT] as usize;
                let alpha0 = g1 - p - 1;
                let mut ipi = iv[PERM] as usize;
                for i in 1..=p {
                    let k = alpha0 + iv[ipi] as usize;
                    m[k] = dd7tpr(m, i, j, j);
                    ipi += 1;
                    j += i;
                }
                iv[NGCALL] -= 1;
                iv[SGIRC] = 0;
                fx = m[F];
                lbl = 60;
            }
            50 => {
                lbl = if iv[TOOBIG] != 0 { 10 } else { 60 };
            }
            60 => {
                g1 = iv[G] as usize;
                let alpha = g1 - p;
                let w = alpha - 6;
                let eta0 = m[ETA0];
                let mut irc = iv[SGIRC];
                ds3grd(m, alpha, b, d, eta0, &mut fx, g1, &mut irc, p, w, x);
                iv[SGIRC] = irc;
                let i = iv[SGIRC];
                if i == 0 {
                    lbl = 10;
                    continue;
                }
                if i <= pp {
                    iv[NGCALL] += 1;
                    return;
                }
                iv[TOOBIG] = 1;
                lbl = 10;
            }
            80 => {
                if iv[1] != 14 {
                    return;
                }
                iv[G] = iv[NEXTV] + pp + 6;
                iv[NEXTV] = iv[G] + pp;
                if iv1 != 13 {
                    lbl = 10;
                    continue;
                }
                return;
            }
            _ => unreachable!("DRMNFB has no label {lbl}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DL7TVM of separate arrays is L' y; of one array, as R's compiled
    /// routine runs it, zero.
    #[test]
    fn dl7tvm_is_l_transpose_y_and_zero_in_place() {
        // L = [2 0; 1 3] by rows at m[1..4], y at m[4..6], x at m[6..8].
        let mut m = vec![0.0, 2.0, 1.0, 3.0, 1.0, 2.0, 0.0, 0.0];
        dl7tvm(&mut m, 2, 6, 1, 4);
        assert_eq!(&m[6..8], &[4.0, 6.0]);
        dl7tvm(&mut m, 2, 4, 1, 4);
        assert_eq!(&m[4..6], &[0.0, 0.0]);
    }

    /// DL7IVM and DL7ITV undo DL7VML and DL7TVM.
    #[test]
    fn triangular_solves_invert_the_products() {
        let mut m = vec![0.0, 2.0, 1.0, 3.0, 1.0, -2.0, 0.0, 0.0, 0.0, 0.0];
        dl7vml(&mut m, 2, 6, 1, 4);
        dl7ivm(&mut m, 2, 8, 1, 6);
        assert_eq!(&m[8..10], &[1.0, -2.0]);
        dl7tvm(&mut m, 2, 6, 1, 4);
        dl7itv(&mut m, 2, 8, 1, 6);
        assert_eq!(&m[8..10], &[1.0, -2.0]);
    }

    /// I7SHFT moves x(k) to the end (k > 0) and back (k < 0).
    #[test]
    fn i7shft_rotates() {
        let mut iv = vec![0, 1, 2, 3, 4];
        i7shft(4, 2, &mut iv, 1);
        assert_eq!(iv, [0, 1, 3, 4, 2]);
        i7shft(4, -2, &mut iv, 1);
        assert_eq!(iv, [0, 1, 2, 3, 4]);
    }

    /// Rf_divset's defaults, and DPARCK's refusal of a negative rel.tol
    /// naming V(32).
    #[test]
    fn divset_and_dparck() {
        let (liv, lv, n) = (84, 157, 2);
        let mut iv = vec![0; liv + 1];
        let mut m = vec![0.0; lv + 1 + n];
        divset(2, &mut iv, liv, lv, &mut m);
        assert_eq!((iv[1], iv[MXFCAL], iv[MXITER]), (12, 200, 150));
        assert_eq!(m[32], 1e-10);
        m[32] = -1.0;
        m[lv + 1..].fill(1.0);
        iv[1] = 12;
        dparck(2, lv + 1, &mut iv, liv, lv, n, &mut m);
        assert_eq!(iv[1], 32);
    }
}
