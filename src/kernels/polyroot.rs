//! `polyroot(z)`: the zeros of the polynomial `z[1] + z[2] x + ... +
//! z[n] x^(n-1)`, by Jenkins and Traub's three-stage algorithm as R runs
//! it: a port of `do_polyroot` and `R_cpolyroot` (formerly
//! src/appl/cpoly.c, now in R's src/main/complex.c), its global state
//! gathered into one struct.

use num_complex::Complex64;

use super::args::{ArgError, Args};
use super::names::bare;
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "polyroot",
    params: &[req("z")],
    random: false,
    shape,
    eval,
}];

const ETA: f64 = f64::EPSILON;
const ARE: f64 = f64::EPSILON;
const MRE: f64 = 2.0 * std::f64::consts::SQRT_2 * f64::EPSILON;
const INFIN: f64 = f64::MAX;

/// cpoly's globals. `relstp` is a static in R's `vrshft` that a call can
/// read before it sets it; R starts it at 0, as here, and a polyroot in a
/// fresh R session sees that.
#[derive(Default)]
struct Cpoly {
    nn: usize,
    pr: Vec<f64>,
    pi: Vec<f64>,
    hr: Vec<f64>,
    hi: Vec<f64>,
    qpr: Vec<f64>,
    qpi: Vec<f64>,
    qhr: Vec<f64>,
    qhi: Vec<f64>,
    shr: Vec<f64>,
    shi: Vec<f64>,
    sr: f64,
    si: f64,
    tr: f64,
    ti: f64,
    pvr: f64,
    pvi: f64,
    relstp: f64,
    omp: f64,
}

/// `cdivid`: `a / b` avoiding overflow, infinite for `b = 0`.
fn cdivid(ar: f64, ai: f64, br: f64, bi: f64) -> (f64, f64) {
    if br == 0.0 && bi == 0.0 {
        (f64::INFINITY, f64::INFINITY)
    } else if br.abs() >= bi.abs() {
        let r = bi / br;
        let d = br + r * bi;
        ((ar + ai * r) / d, (ai - ar * r) / d)
    } else {
        let r = br / bi;
        let d = bi + r * br;
        ((ar * r + ai) / d, (ai * r - ar) / d)
    }
}

/// `polyev`: `p(s)` by Horner, the partial sums left in `q`.
#[allow(clippy::too_many_arguments)]
fn polyev(
    n: usize,
    s_r: f64,
    s_i: f64,
    p_r: &[f64],
    p_i: &[f64],
    q_r: &mut [f64],
    q_i: &mut [f64],
) -> (f64, f64) {
    q_r[0] = p_r[0];
    q_i[0] = p_i[0];
    let mut v_r = q_r[0];
    let mut v_i = q_i[0];
    for i in 1..n {
        let t = v_r * s_r - v_i * s_i + p_r[i];
        v_i = v_r * s_i + v_i * s_r + p_i[i];
        q_i[i] = v_i;
        v_r = t;
        q_r[i] = v_r;
    }
    (v_r, v_i)
}

/// `errev`: a bound on the rounding error of Horner's recurrence.
fn errev(n: usize, qr: &[f64], qi: &[f64], ms: f64, mp: f64, a_re: f64, m_re: f64) -> f64 {
    let mut e = qr[0].hypot(qi[0]) * m_re / (a_re + m_re);
    for i in 0..n {
        e = e * ms + qr[i].hypot(qi[i]);
    }
    e * (a_re + m_re) - mp * m_re
}

/// `cpoly_cauchy`: a lower bound on the moduli of the zeros, from the
/// moduli `pot` of the coefficients (its last entry is negated in place).
fn cpoly_cauchy(n: usize, pot: &mut [f64], q: &mut [f64]) -> f64 {
    let n1 = n - 1;
    pot[n1] = -pot[n1];
    let mut x = ((-pot[n1]).ln() - pot[0].ln()) / n1 as f64;
    x = x.exp();
    if pot[n1 - 1] != 0.0 {
        let xm = -pot[n1] / pot[n1 - 1];
        if xm < x {
            x = xm;
        }
    }
    loop {
        let xm = x * 0.1;
        let mut f = pot[0];
        for &p in &pot[1..n] {
            f = f * xm + p;
        }
        if f <= 0.0 {
            break;
        }
        x = xm;
    }
    let mut dx = x;
    // Newton to two decimal places; a NaN ends it as it ends R's loop.
    while (dx / x).abs() > 0.005 {
        q[0] = pot[0];
        for i in 1..n {
            q[i] = q[i - 1] * x + pot[i];
        }
        let f = q[n1];
        let mut delf = q[0];
        for &qi in &q[1..n1] {
            delf = delf * x + qi;
        }
        dx = f / delf;
        x -= dx;
    }
    x
}

/// `cpoly_scale`: a power of two bringing the coefficients' moduli into
/// range, or 1.
fn cpoly_scale(pot: &[f64], eps: f64, big: f64, small: f64, base: f64) -> f64 {
    let high = big.sqrt();
    let lo = small / eps;
    let mut max = 0.0;
    let mut min = big;
    for &x in pot {
        if x > max {
            max = x;
        }
        if x != 0.0 && x < min {
            min = x;
        }
    }
    if min < lo || max > high {
        let x = lo / min;
        let sc = if x <= 1.0 {
            1.0 / (max.sqrt() * min.sqrt())
        } else if big / x > max {
            1.0
        } else {
            x
        };
        let ell = (sc.ln() / base.ln() + 0.5) as i32;
        base.powi(ell)
    } else {
        1.0
    }
}

impl Cpoly {
    /// `noshft`: `l1` unshifted H polynomials from the derivative.
    fn noshft(&mut self, l1: usize) {
        let nn = self.nn;
        let n = nn - 1;
        let nm1 = n - 1;
        for i in 0..n {
            let xni = (nn - i - 1) as f64;
            self.hr[i] = xni * self.pr[i] / n as f64;
            self.hi[i] = xni * self.pi[i] / n as f64;
        }
        for _ in 1..=l1 {
            if self.hr[n - 1].hypot(self.hi[n - 1])
                <= ETA * 10.0 * self.pr[n - 1].hypot(self.pi[n - 1])
            {
                for i in 1..=nm1 {
                    let j = nn - i;
                    self.hr[j - 1] = self.hr[j - 2];
                    self.hi[j - 1] = self.hi[j - 2];
                }
                self.hr[0] = 0.0;
                self.hi[0] = 0.0;
            } else {
                let (tr, ti) = cdivid(
                    -self.pr[nn - 1],
                    -self.pi[nn - 1],
                    self.hr[n - 1],
                    self.hi[n - 1],
                );
                self.tr = tr;
                self.ti = ti;
                for i in 1..=nm1 {
                    let j = nn - i;
                    let t1 = self.hr[j - 2];
                    let t2 = self.hi[j - 2];
                    self.hr[j - 1] = tr * t1 - ti * t2 + self.pr[j - 1];
                    self.hi[j - 1] = tr * t2 + ti * t1 + self.pi[j - 1];
                }
                self.hr[0] = self.pr[0];
                self.hi[0] = self.pi[0];
            }
        }
    }

    fn eval_p(&mut self) {
        let (vr, vi) = polyev(
            self.nn,
            self.sr,
            self.si,
            &self.pr,
            &self.pi,
            &mut self.qpr,
            &mut self.qpi,
        );
        self.pvr = vr;
        self.pvi = vi;
    }

    /// `calct`: `t = -p(s) / h(s)`; true when `h(s)` is essentially zero.
    fn calct(&mut self) -> bool {
        let n = self.nn - 1;
        let (hvr, hvi) = polyev(
            n,
            self.sr,
            self.si,
            &self.hr,
            &self.hi,
            &mut self.qhr,
            &mut self.qhi,
        );
        let h_s_0 = hvr.hypot(hvi) <= ARE * 10.0 * self.hr[n - 1].hypot(self.hi[n - 1]);
        if !h_s_0 {
            let (tr, ti) = cdivid(-self.pvr, -self.pvi, hvr, hvi);
            self.tr = tr;
            self.ti = ti;
        } else {
            self.tr = 0.0;
            self.ti = 0.0;
        }
        h_s_0
    }

    /// `nexth`: the next shifted H polynomial.
    fn nexth(&mut self, h_s_0: bool) {
        let n = self.nn - 1;
        if !h_s_0 {
            for j in 1..n {
                let t1 = self.qhr[j - 1];
                let t2 = self.qhi[j - 1];
                self.hr[j] = self.tr * t1 - self.ti * t2 + self.qpr[j];
                self.hi[j] = self.tr * t2 + self.ti * t1 + self.qpi[j];
            }
            self.hr[0] = self.qpr[0];
            self.hi[0] = self.qpi[0];
        } else {
            for j in 1..n {
                self.hr[j] = self.qhr[j - 1];
                self.hi[j] = self.qhi[j - 1];
            }
            self.hr[0] = 0.0;
            self.hi[0] = 0.0;
        }
    }

    /// `fxshft`: `l2` fixed-shift steps, then the variable-shift
    /// iteration; the zero when it converges.
    fn fxshft(&mut self, l2: usize) -> Option<(f64, f64)> {
        let n = self.nn - 1;
        self.eval_p();
        let mut test = true;
        let mut pasd = false;
        let mut h_s_0 = self.calct();
        let (mut zr, mut zi) = (0.0, 0.0);
        for j in 1..=l2 {
            let otr = self.tr;
            let oti = self.ti;
            self.nexth(h_s_0);
            h_s_0 = self.calct();
            zr = self.sr + self.tr;
            zi = self.si + self.ti;
            if !h_s_0 && test && j != l2 {
                if (self.tr - otr).hypot(self.ti - oti) >= zr.hypot(zi) * 0.5 {
                    pasd = false;
                } else if !pasd {
                    pasd = true;
                } else {
                    // Weak convergence twice: try stage three, keeping H
                    // and the shift to come back to.
                    self.shr[..n].copy_from_slice(&self.hr[..n]);
                    self.shi[..n].copy_from_slice(&self.hi[..n]);
                    let (svsr, svsi) = (self.sr, self.si);
                    if let Some(z) = self.vrshft(10, zr, zi) {
                        return Some(z);
                    }
                    test = false;
                    self.hr[..n].copy_from_slice(&self.shr[..n]);
                    self.hi[..n].copy_from_slice(&self.shi[..n]);
                    self.sr = svsr;
                    self.si = svsi;
                    self.eval_p();
                    h_s_0 = self.calct();
                }
            }
        }
        self.vrshft(10, zr, zi)
    }

    /// `vrshft`: the third-stage iteration from `(zr, zi)`.
    fn vrshft(&mut self, l3: usize, zr: f64, zi: f64) -> Option<(f64, f64)> {
        let mut b = false;
        self.sr = zr;
        self.si = zi;
        for i in 1..=l3 {
            self.eval_p();
            let mp = self.pvr.hypot(self.pvi);
            let ms = self.sr.hypot(self.si);
            if mp <= 20.0 * errev(self.nn, &self.qpr, &self.qpi, ms, mp, ETA, MRE) {
                return Some((self.sr, self.si));
            }
            let mut stalled = false;
            if i != 1 {
                if !b && mp >= self.omp && self.relstp < 0.05 {
                    // Stalled, probably at a cluster of zeros: five fixed
                    // shifts into it make one dominate.
                    let tp = if self.relstp < ETA { ETA } else { self.relstp };
                    b = true;
                    let r1 = tp.sqrt();
                    let r2 = self.sr * (r1 + 1.0) - self.si * r1;
                    self.si = self.sr * r1 + self.si * (r1 + 1.0);
                    self.sr = r2;
                    self.eval_p();
                    for _ in 1..=5 {
                        let h = self.calct();
                        self.nexth(h);
                    }
                    self.omp = INFIN;
                    stalled = true;
                } else if mp * 0.1 > self.omp {
                    return None;
                }
            }
            if !stalled {
                self.omp = mp;
            }
            let h = self.calct();
            self.nexth(h);
            let h = self.calct();
            if !h {
                self.relstp = self.tr.hypot(self.ti) / self.sr.hypot(self.si);
                self.sr += self.tr;
                self.si += self.ti;
            }
        }
        None
    }
}

/// `R_cpolyroot`: the zeros of the polynomial with coefficients `opr +
/// i opi`, highest degree first; `None` when the algorithm fails.
fn cpolyroot(opr: &[f64], opi: &[f64], degree: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    const COSR: f64 = -0.069_756_473_744_125_3;
    const SINR: f64 = 0.997_564_050_259_824_2;
    let mut zeror = vec![0.0; degree];
    let mut zeroi = vec![0.0; degree];
    let mut xx = std::f64::consts::FRAC_1_SQRT_2;
    let mut yy = -xx;
    let mut nn = degree;
    let d1 = nn as i64 - 1;
    if opr[0] == 0.0 && opi[0] == 0.0 {
        return None;
    }
    while opr[nn] == 0.0 && opi[nn] == 0.0 {
        let d_n = (d1 - nn as i64 + 1) as usize;
        zeror[d_n] = 0.0;
        zeroi[d_n] = 0.0;
        nn -= 1;
    }
    nn += 1;
    if nn == 1 {
        return Some((zeror, zeroi));
    }
    let v = || vec![0.0; nn];
    let mut c = Cpoly {
        nn,
        pr: opr[..nn].to_vec(),
        pi: opi[..nn].to_vec(),
        hr: v(),
        hi: v(),
        qpr: v(),
        qpi: v(),
        qhr: v(),
        qhi: v(),
        shr: v(),
        shi: v(),
        ..Cpoly::default()
    };
    for i in 0..nn {
        c.shr[i] = c.pr[i].hypot(c.pi[i]);
    }
    let bnd = cpoly_scale(&c.shr[..nn], ETA, INFIN, f64::MIN_POSITIVE, 2.0);
    if bnd != 1.0 {
        for i in 0..nn {
            c.pr[i] *= bnd;
            c.pi[i] *= bnd;
        }
    }
    while c.nn > 2 {
        let nn = c.nn;
        for i in 0..nn {
            c.shr[i] = c.pr[i].hypot(c.pi[i]);
        }
        let bnd = cpoly_cauchy(nn, &mut c.shr, &mut c.shi);
        let mut found = None;
        'passes: for _ in 1..=2 {
            c.noshft(5);
            for i2 in 1..=9 {
                let xxx = COSR * xx - SINR * yy;
                yy = SINR * xx + COSR * yy;
                xx = xxx;
                c.sr = bnd * xx;
                c.si = bnd * yy;
                if let Some(z) = c.fxshft(i2 * 10) {
                    found = Some(z);
                    break 'passes;
                }
            }
        }
        let (zr, zi) = found?;
        let d_n = (d1 + 2 - nn as i64) as usize;
        zeror[d_n] = zr;
        zeroi[d_n] = zi;
        c.nn -= 1;
        for i in 0..c.nn {
            c.pr[i] = c.qpr[i];
            c.pi[i] = c.qpi[i];
        }
    }
    let (r, i) = cdivid(-c.pr[1], -c.pi[1], c.pr[0], c.pi[0]);
    zeror[d1 as usize] = r;
    zeroi[d1 as usize] = i;
    Some((zeror, zeroi))
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let z = bare(
        args.get("z")
            .ok_or_else(|| KernelError::new("argument \"z\" is missing, with no default"))?,
    );
    let coef: Vec<Complex64> = match z {
        Value::Complex(c) => c.clone(),
        Value::ComplexMat(m) => m.as_slice().to_vec(),
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => z
            .as_f64_slice()
            .unwrap_or_default()
            .iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect(),
        Value::Null => Vec::new(),
        Value::Factor(f) => f
            .integer_codes()
            .into_iter()
            .map(|r| Complex64::new(r, 0.0))
            .collect(),
        other => {
            return Err(KernelError::new(format!(
                "unimplemented type '{}' in 'polyroot'\n",
                r_type(other)
            )))
        }
    };
    Ok(Value::Complex(roots(&coef)?))
}

/// `polyroot(z)`'s zeros of the polynomial with coefficients `coef`,
/// lowest degree first (arima's stationarity and invertibility checks
/// call it too).
pub(super) fn roots(coef: &[Complex64]) -> Result<Vec<Complex64>, KernelError> {
    // Trailing zero coefficients do not raise the degree.
    let degree = coef
        .iter()
        .rposition(|c| c.re != 0.0 || c.im != 0.0)
        .unwrap_or(0);
    if degree < 1 {
        return Ok(Vec::new());
    }
    let n = degree + 1;
    let mut zr = vec![0.0; n];
    let mut zi = vec![0.0; n];
    for (i, c) in coef[..n].iter().enumerate() {
        if !c.re.is_finite() || !c.im.is_finite() {
            return Err(KernelError::new("invalid polynomial coefficient"));
        }
        zr[degree - i] = c.re;
        zi[degree - i] = c.im;
    }
    let (rr, ri) =
        cpolyroot(&zr, &zi, degree).ok_or_else(|| KernelError::new("root finding code failed"))?;
    Ok(rr
        .into_iter()
        .zip(ri)
        .map(|(r, i)| Complex64::new(r, i))
        .collect())
}

/// R's `typeof`, for UNIMPLEMENTED_TYPE's message.
fn r_type(v: &Value) -> &'static str {
    match v {
        Value::Str(_) | Value::StrMat(_) => "character",
        Value::Formula(_) => "language",
        Value::Lang(_) => v.type_name(),
        _ => "list",
    }
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let kind = match args.ty("z") {
        Some(Type::Str { .. }) => "character",
        Some(Type::Record { .. } | Type::List { .. }) => "list",
        _ => return Ok(Type::Complex { len: None }),
    };
    Err(args.error("z", format!("unimplemented type '{kind}' in 'polyroot'\n")))
}
