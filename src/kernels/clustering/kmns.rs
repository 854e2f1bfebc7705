//! The three k-means algorithms as R runs them: Hartigan–Wong (AS 136,
//! R's double-precision `kmns.f` with its Quick-TRANsfer step limit),
//! Lloyd/Forgy and MacQueen (R's `kmeans.c`).
//!
//! Hartigan–Wong keeps the Fortran's 1-based point and cluster numbers:
//! `LIVE` and `NCP` hold step numbers compared against them. Its points and
//! centres are held row by row (one point's coordinates together), where
//! the Fortran strides through columns: the distances, nearly all of its
//! time, then read two short contiguous runs. Every sum is still taken in
//! the Fortran's order.

use super::by_rows;

/// What one run leaves behind (`.Fortran`/`.C`'s outputs).
pub(super) struct Fit {
    /// 1-based cluster of each point.
    pub cluster: Vec<usize>,
    /// k x p, column-major.
    pub centers: Vec<f64>,
    pub size: Vec<usize>,
    pub wss: Vec<f64>,
    pub iter: usize,
    /// Fortran IFAULT (Hartigan–Wong only): 0 ok, 1 empty cluster, 2 not
    /// converged, 3 bad k, 4 Quick-TRANsfer steps exceeded.
    pub ifault: i32,
}

/// `DATA BIG /1.E30/`: a single-precision constant widened to double.
const BIG: f64 = 1e30f32 as f64;

struct Hw {
    /// The points, m x n, row-major.
    a: Vec<f64>,
    m: usize,
    n: usize,
    k: usize,
    /// The centres, k x n, row-major.
    c: Vec<f64>,
    ic1: Vec<usize>,
    ic2: Vec<usize>,
    nc: Vec<i64>,
    an1: Vec<f64>,
    an2: Vec<f64>,
    ncp: Vec<i64>,
    d: Vec<f64>,
    itran: Vec<i64>,
    live: Vec<i64>,
    indx: i64,
}

/// A row-major r x c matrix column by column.
fn by_cols(x: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..r * c).map(|t| x[(t % r) * c + t / r]).collect()
}

impl Hw {
    /// A(I,J), 1-based.
    fn a(&self, i: usize, j: usize) -> f64 {
        self.a[(i - 1) * self.n + (j - 1)]
    }

    /// Index of C(L,J), 1-based.
    fn ci(&self, l: usize, j: usize) -> usize {
        (l - 1) * self.n + (j - 1)
    }

    /// Point i and centre l, 1-based.
    fn pair(&self, i: usize, l: usize) -> (&[f64], &[f64]) {
        let n = self.n;
        (&self.a[(i - 1) * n..i * n], &self.c[(l - 1) * n..l * n])
    }

    fn sqdist(&self, i: usize, l: usize) -> f64 {
        let (a, c) = self.pair(i, l);
        a.iter().zip(c).fold(0.0, |s, (a, c)| {
            let t = a - c;
            s + t * t
        })
    }

    /// Squared distance from point i to centre l, or `None` as soon as the
    /// partial sum reaches `bound`.
    fn sqdist_below(&self, i: usize, l: usize, bound: f64) -> Option<f64> {
        let (a, c) = self.pair(i, l);
        let mut s = 0.0;
        for (a, c) in a.iter().zip(c) {
            let t = a - c;
            s += t * t;
            if s >= bound {
                return None;
            }
        }
        Some(s)
    }

    /// Moves point i from cluster l1 to l2, updating both centres.
    fn transfer(&mut self, i: usize, l1: usize, l2: usize) {
        let al1 = self.nc[l1] as f64;
        let alw = al1 - 1.0;
        let al2 = self.nc[l2] as f64;
        let alt = al2 + 1.0;
        for j in 1..=self.n {
            let (c1, c2) = (self.ci(l1, j), self.ci(l2, j));
            let x = self.a(i, j);
            self.c[c1] = (self.c[c1] * al1 - x) / alw;
            self.c[c2] = (self.c[c2] * al2 + x) / alt;
        }
        self.nc[l1] -= 1;
        self.nc[l2] += 1;
        self.an2[l1] = alw / al1;
        self.an1[l1] = BIG;
        if alw > 1.0 {
            self.an1[l1] = alw / (alw - 1.0);
        }
        self.an1[l2] = alt / al2;
        self.an2[l2] = alt / (alt + 1.0);
        self.ic1[i] = l2;
        self.ic2[i] = l1;
    }

    /// OPTRA: the optimal-transfer stage, one pass through the data.
    fn optra(&mut self) {
        let m = self.m as i64;
        for l in 1..=self.k {
            if self.itran[l] == 1 {
                self.live[l] = m + 1;
            }
        }
        for i in 1..=self.m {
            let ii = i as i64;
            self.indx += 1;
            let l1 = self.ic1[i];
            let mut l2 = self.ic2[i];
            let ll = l2;
            if self.nc[l1] != 1 {
                if self.ncp[l1] != 0 {
                    self.d[i] = self.sqdist(i, l1) * self.an1[l1];
                }
                let mut r2 = self.sqdist(i, l2) * self.an2[l2];
                for l in 1..=self.k {
                    if (ii >= self.live[l1] && ii >= self.live[l]) || l == l1 || l == ll {
                        continue;
                    }
                    let rr = r2 / self.an2[l];
                    if let Some(dc) = self.sqdist_below(i, l, rr) {
                        r2 = dc * self.an2[l];
                        l2 = l;
                    }
                }
                if r2 >= self.d[i] {
                    self.ic2[i] = l2;
                } else {
                    self.indx = 0;
                    self.live[l1] = m + ii;
                    self.live[l2] = m + ii;
                    self.ncp[l1] = ii;
                    self.ncp[l2] = ii;
                    self.transfer(i, l1, l2);
                }
            }
            if self.indx == m {
                return;
            }
        }
        for l in 1..=self.k {
            self.itran[l] = 0;
            self.live[l] -= m;
        }
    }

    /// QTRAN: the quick-transfer stage. Returns false when the step limit
    /// `max_steps` was reached.
    fn qtran(&mut self, max_steps: i64) -> bool {
        let m = self.m as i64;
        let mut icoun: i64 = 0;
        let mut istep: i64 = 0;
        loop {
            for i in 1..=self.m {
                icoun += 1;
                istep += 1;
                if istep >= max_steps {
                    return false;
                }
                let l1 = self.ic1[i];
                let l2 = self.ic2[i];
                if self.nc[l1] != 1 {
                    if istep <= self.ncp[l1] {
                        self.d[i] = self.sqdist(i, l1) * self.an1[l1];
                    }
                    if istep < self.ncp[l1] || istep < self.ncp[l2] {
                        let r2 = self.d[i] / self.an2[l2];
                        if self.sqdist_below(i, l2, r2).is_some() {
                            icoun = 0;
                            self.indx = 0;
                            self.itran[l1] = 1;
                            self.itran[l2] = 1;
                            self.ncp[l1] = istep + m;
                            self.ncp[l2] = istep + m;
                            self.transfer(i, l1, l2);
                        }
                    }
                }
                if icoun == m {
                    return true;
                }
            }
        }
    }
}

/// KMNS. `x` is m x p column-major, `centers` k x p.
pub(super) fn hartigan_wong(
    x: &[f64],
    m: usize,
    p: usize,
    centers: &[f64],
    k: usize,
    iter_max: usize,
    max_qtran: i64,
) -> Fit {
    let mut hw = Hw {
        a: by_rows(x, m, p),
        m,
        n: p,
        k,
        c: by_rows(centers, k, p),
        ic1: vec![0; m + 1],
        ic2: vec![0; m + 1],
        nc: vec![0; k + 1],
        an1: vec![0.0; k + 1],
        an2: vec![0.0; k + 1],
        ncp: vec![0; k + 1],
        d: vec![0.0; m + 1],
        itran: vec![0; k + 1],
        live: vec![0; k + 1],
        indx: 0,
    };
    let fault = |hw: Hw, ifault| Fit {
        cluster: hw.ic1[1..].to_vec(),
        centers: by_cols(&hw.c, k, p),
        size: hw.nc[1..].iter().map(|&v| v.max(0) as usize).collect(),
        wss: vec![0.0; k],
        iter: iter_max,
        ifault,
    };
    if k <= 1 || k >= m {
        return fault(hw, 3);
    }
    // The two closest centres of each point.
    for i in 1..=m {
        hw.ic1[i] = 1;
        hw.ic2[i] = 2;
        let mut dt = [hw.sqdist(i, 1), hw.sqdist(i, 2)];
        if dt[0] > dt[1] {
            hw.ic1[i] = 2;
            hw.ic2[i] = 1;
            dt.swap(0, 1);
        }
        for l in 3..=k {
            let Some(db) = hw.sqdist_below(i, l, dt[1]) else {
                continue;
            };
            if db >= dt[0] {
                dt[1] = db;
                hw.ic2[i] = l;
            } else {
                dt[1] = dt[0];
                hw.ic2[i] = hw.ic1[i];
                dt[0] = db;
                hw.ic1[i] = l;
            }
        }
    }
    // Centres as the means of their points.
    hw.c.iter_mut().for_each(|v| *v = 0.0);
    for i in 1..=m {
        let l = hw.ic1[i];
        hw.nc[l] += 1;
        for j in 1..=p {
            let ci = hw.ci(l, j);
            hw.c[ci] += hw.a(i, j);
        }
    }
    for l in 1..=k {
        if hw.nc[l] == 0 {
            return fault(hw, 1);
        }
        let aa = hw.nc[l] as f64;
        for j in 1..=p {
            let ci = hw.ci(l, j);
            hw.c[ci] /= aa;
        }
        hw.an2[l] = aa / (aa + 1.0);
        hw.an1[l] = if aa > 1.0 { aa / (aa - 1.0) } else { BIG };
        hw.itran[l] = 1;
        hw.ncp[l] = -1;
    }

    let mut ifault = 2;
    let mut iter = iter_max + 1;
    for ij in 1..=iter_max {
        hw.optra();
        if hw.indx == m as i64 {
            ifault = 0;
            iter = ij;
            break;
        }
        if !hw.qtran(max_qtran) {
            ifault = 4;
            iter = ij;
            break;
        }
        if k == 2 {
            ifault = 0;
            iter = ij;
            break;
        }
        for l in 1..=k {
            hw.ncp[l] = 0;
        }
    }

    // Final centres and within-cluster sums of squares.
    let mut wss = vec![0.0; k + 1];
    hw.c.iter_mut().for_each(|v| *v = 0.0);
    for i in 1..=m {
        let l = hw.ic1[i];
        for j in 1..=p {
            let ci = hw.ci(l, j);
            hw.c[ci] += hw.a(i, j);
        }
    }
    for j in 1..=p {
        for l in 1..=k {
            let ci = hw.ci(l, j);
            hw.c[ci] /= hw.nc[l] as f64;
        }
        for i in 1..=m {
            let l = hw.ic1[i];
            let t = hw.a(i, j) - hw.c[hw.ci(l, j)];
            wss[l] += t * t;
        }
    }
    Fit {
        cluster: hw.ic1[1..].to_vec(),
        size: hw.nc[1..].iter().map(|&v| v as usize).collect(),
        centers: by_cols(&hw.c, k, p),
        wss: wss[1..].to_vec(),
        iter,
        ifault,
    }
}

/// Nearest centre of point i (0-based), first on ties; `prev` when every
/// distance is NaN (C's `inew` keeps its last value).
fn nearest(x: &[f64], m: usize, p: usize, cen: &[f64], k: usize, i: usize, prev: usize) -> usize {
    let mut best = f64::INFINITY;
    let mut inew = prev;
    for j in 0..k {
        let mut dd = 0.0;
        for c in 0..p {
            let t = x[i + m * c] - cen[j + k * c];
            dd += t * t;
        }
        if dd < best {
            best = dd;
            inew = j;
        }
    }
    inew
}

/// Centres as the means of their points (0/0 = NaN for an empty one, as in C).
fn centroids(
    x: &[f64],
    m: usize,
    p: usize,
    cl: &[usize],
    k: usize,
    cen: &mut [f64],
    nc: &mut [i64],
) {
    cen.iter_mut().for_each(|v| *v = 0.0);
    nc.iter_mut().for_each(|v| *v = 0);
    for i in 0..m {
        let it = cl[i];
        nc[it] += 1;
        for c in 0..p {
            cen[it + c * k] += x[i + c * m];
        }
    }
    for (j, v) in cen.iter_mut().enumerate() {
        *v /= nc[j % k] as f64;
    }
}

fn within_ss(x: &[f64], m: usize, p: usize, cl: &[usize], k: usize, cen: &[f64]) -> Vec<f64> {
    let mut wss = vec![0.0; k];
    for i in 0..m {
        let it = cl[i];
        for c in 0..p {
            let t = x[i + m * c] - cen[it + k * c];
            wss[it] += t * t;
        }
    }
    wss
}

fn finish(cl: Vec<usize>, cen: Vec<f64>, nc: Vec<i64>, wss: Vec<f64>, iter: usize) -> Fit {
    Fit {
        cluster: cl.iter().map(|&c| c + 1).collect(),
        centers: cen,
        size: nc.iter().map(|&v| v.max(0) as usize).collect(),
        wss,
        iter,
        ifault: 0,
    }
}

/// `kmeans_Lloyd`.
pub(super) fn lloyd(
    x: &[f64],
    m: usize,
    p: usize,
    centers: &[f64],
    k: usize,
    iter_max: usize,
) -> Fit {
    let mut cen = centers.to_vec();
    // None plays C's -1: "not yet assigned".
    let mut cl: Vec<Option<usize>> = vec![None; m];
    let mut nc = vec![0i64; k];
    let mut inew = 0;
    let mut iter = 0;
    while iter < iter_max {
        let mut updated = false;
        for (i, c) in cl.iter_mut().enumerate() {
            inew = nearest(x, m, p, &cen, k, i, inew);
            if *c != Some(inew) {
                updated = true;
                *c = Some(inew);
            }
        }
        if !updated {
            break;
        }
        let assigned: Vec<usize> = cl.iter().map(|c| c.unwrap_or(0)).collect();
        centroids(x, m, p, &assigned, k, &mut cen, &mut nc);
        iter += 1;
    }
    let cl: Vec<usize> = cl.iter().map(|c| c.unwrap_or(0)).collect();
    let wss = within_ss(x, m, p, &cl, k, &cen);
    finish(cl, cen, nc, wss, iter + 1)
}

/// `kmeans_MacQueen`: centres move after every reassignment.
pub(super) fn macqueen(
    x: &[f64],
    m: usize,
    p: usize,
    centers: &[f64],
    k: usize,
    iter_max: usize,
) -> Fit {
    let mut cen = centers.to_vec();
    let mut nc = vec![0i64; k];
    let mut inew = 0;
    let mut cl = vec![0usize; m];
    for (i, c) in cl.iter_mut().enumerate() {
        inew = nearest(x, m, p, &cen, k, i, inew);
        *c = inew;
    }
    centroids(x, m, p, &cl, k, &mut cen, &mut nc);
    let mut iter = 0;
    while iter < iter_max {
        let mut updated = false;
        for i in 0..m {
            inew = nearest(x, m, p, &cen, k, i, inew);
            let iold = cl[i];
            if iold != inew {
                updated = true;
                cl[i] = inew;
                nc[iold] -= 1;
                nc[inew] += 1;
                for c in 0..p {
                    let xi = x[i + m * c];
                    cen[iold + k * c] += (cen[iold + k * c] - xi) / nc[iold] as f64;
                    cen[inew + k * c] += (xi - cen[inew + k * c]) / nc[inew] as f64;
                }
            }
        }
        if !updated {
            break;
        }
        iter += 1;
    }
    let wss = within_ss(x, m, p, &cl, k, &cen);
    finish(cl, cen, nc, wss, iter + 1)
}
