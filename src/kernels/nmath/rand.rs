//! nmath's random variate generators, R 4.2.2 bit for bit: `exp_rand`
//! (sexp.c, Ahrens & Dieter 1972), `rgamma` (GD for a >= 1, GS below,
//! Ahrens & Dieter 1974/82), `rbeta` (Cheng's BB and BC), `rpois`
//! (Ahrens & Dieter 1982), `rbinom` (Kachitvichyanukul & Schmeiser's
//! BTPE, inversion for np < 30), and the ones built on them (`rchisq`,
//! `rt`, `rf`, `rgeom`, `rnbinom`) or on one uniform (`rweibull`,
//! `rcauchy`, `rlogis`). nmath caches set-up values between calls; they
//! depend only on the parameters, so recomputing them draws the same.

use crate::kernels::rng::Rng;

const ONE_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// `exp_rand()`: a standard exponential.
pub fn exp_rand(rng: &mut Rng) -> f64 {
    const Q: [f64; 16] = [
        std::f64::consts::LN_2,
        0.933_373_687_519_045_9,
        0.988_877_796_183_867_5,
        0.998_495_925_291_496,
        0.999_829_281_106_138_9,
        0.999_983_316_410_072_7,
        0.999_998_569_143_876_7,
        0.999_999_890_692_555_8,
        0.999_999_992_473_415_9,
        0.999_999_999_528_327_5,
        0.999_999_999_972_881_4,
        0.999_999_999_998_559_8,
        0.999_999_999_999_928_9,
        0.999_999_999_999_996_8,
        0.999_999_999_999_999_9,
        1.0,
    ];
    let mut a = 0.0;
    let mut u = rng.unif_rand();
    while u <= 0.0 || u >= 1.0 {
        u = rng.unif_rand();
    }
    loop {
        u += u;
        if u > 1.0 {
            break;
        }
        a += Q[0];
    }
    u -= 1.0;
    if u <= Q[0] {
        return a + u;
    }
    let mut i = 0;
    let mut ustar = rng.unif_rand();
    let mut umin = ustar;
    loop {
        ustar = rng.unif_rand();
        if umin > ustar {
            umin = ustar;
        }
        i += 1;
        if u <= Q[i] {
            break;
        }
    }
    a + umin * Q[0]
}

pub fn rexp(scale: f64, rng: &mut Rng) -> f64 {
    if !scale.is_finite() || scale <= 0.0 {
        return if scale == 0.0 { 0.0 } else { f64::NAN };
    }
    scale * exp_rand(rng)
}

pub fn rgamma(a: f64, scale: f64, rng: &mut Rng) -> f64 {
    const SQRT32: f64 = 5.656854;
    const EXP_M1: f64 = 0.367_879_441_171_442_33;
    const Q1: f64 = 0.04166669;
    const Q2: f64 = 0.02083148;
    const Q3: f64 = 0.00801191;
    const Q4: f64 = 0.00144121;
    const Q5: f64 = -7.388e-5;
    const Q6: f64 = 2.4511e-4;
    const Q7: f64 = 2.424e-4;
    const A1: f64 = 0.3333333;
    const A2: f64 = -0.250003;
    const A3: f64 = 0.2000062;
    const A4: f64 = -0.1662921;
    const A5: f64 = 0.1423657;
    const A6: f64 = -0.1367177;
    const A7: f64 = 0.1233795;
    if a.is_nan() || scale.is_nan() {
        return f64::NAN;
    }
    if a <= 0.0 || scale <= 0.0 {
        if scale == 0.0 || a == 0.0 {
            return 0.0;
        }
        return f64::NAN;
    }
    if !a.is_finite() || !scale.is_finite() {
        return f64::INFINITY;
    }
    if a < 1.0 {
        let e = 1.0 + EXP_M1 * a;
        let x;
        loop {
            let p = e * rng.unif_rand();
            if p >= 1.0 {
                let xx = -((e - p) / a).ln();
                if exp_rand(rng) >= (1.0 - a) * xx.ln() {
                    x = xx;
                    break;
                }
            } else {
                let xx = (p.ln() / a).exp();
                if exp_rand(rng) >= xx {
                    x = xx;
                    break;
                }
            }
        }
        return scale * x;
    }
    let s2 = a - 0.5;
    let s = s2.sqrt();
    let d = SQRT32 - s * 12.0;
    let mut t = rng.norm_rand();
    let mut x = s + 0.5 * t;
    let ret_val = x * x;
    if t >= 0.0 {
        return scale * ret_val;
    }
    let mut u = rng.unif_rand();
    if d * u <= t * t * t {
        return scale * ret_val;
    }
    let r = 1.0 / a;
    let q0 = ((((((Q7 * r + Q6) * r + Q5) * r + Q4) * r + Q3) * r + Q2) * r + Q1) * r;
    let (b, si, c) = if a <= 3.686 {
        (0.463 + s + 0.178 * s2, 1.235, 0.195 / s - 0.079 + 0.16 * s)
    } else if a <= 13.022 {
        (1.654 + 0.0076 * s2, 1.68 / s + 0.275, 0.062 / s + 0.024)
    } else {
        (1.77, 0.75, 0.1515 / s)
    };
    let quotient = |t: f64| {
        let v = t / (s + s);
        if v.abs() <= 0.25 {
            q0 + 0.5
                * t
                * t
                * ((((((A7 * v + A6) * v + A5) * v + A4) * v + A3) * v + A2) * v + A1)
                * v
        } else {
            q0 - s * t + 0.25 * t * t + (s2 + s2) * (1.0 + v).ln()
        }
    };
    if x > 0.0 {
        let q = quotient(t);
        if (1.0 - u).ln() <= q {
            return scale * ret_val;
        }
    }
    loop {
        let e = exp_rand(rng);
        u = rng.unif_rand();
        u = u + u - 1.0;
        t = if u < 0.0 { b - si * e } else { b + si * e };
        if t >= -0.718_744_837_717_19 {
            let q = quotient(t);
            if q > 0.0 {
                let w = q.exp_m1();
                if c * u.abs() <= w * (e - 0.5 * t * t).exp() {
                    break;
                }
            }
        }
    }
    x = s + 0.5 * t;
    scale * x * x
}

pub fn rbeta(aa: f64, bb: f64, rng: &mut Rng) -> f64 {
    const EXPMAX: f64 = f64::MAX_EXP as f64 * std::f64::consts::LN_2;
    if aa.is_nan() || bb.is_nan() || aa < 0.0 || bb < 0.0 {
        return f64::NAN;
    }
    if !aa.is_finite() && !bb.is_finite() {
        return 0.5;
    }
    if aa == 0.0 && bb == 0.0 {
        return if rng.unif_rand() < 0.5 { 0.0 } else { 1.0 };
    }
    if !aa.is_finite() || bb == 0.0 {
        return 1.0;
    }
    if !bb.is_finite() || aa == 0.0 {
        return 0.0;
    }
    let a = aa.min(bb);
    let b = aa.max(bb);
    let alpha = a + b;
    let v_w = |u1: f64, beta: f64, aa: f64| -> (f64, f64) {
        let v = beta * (u1 / (1.0 - u1)).ln();
        let w = if v <= EXPMAX {
            let w = aa * v.exp();
            if w.is_finite() {
                w
            } else {
                f64::MAX
            }
        } else {
            f64::MAX
        };
        (v, w)
    };
    if a <= 1.0 {
        let beta = 1.0 / a;
        let delta = 1.0 + b - a;
        let k1 = delta * (0.0138889 + 0.0416667 * a) / (b * beta - 0.777778);
        let k2 = 0.25 + (0.5 + 0.25 / delta) * a;
        let w;
        loop {
            let u1 = rng.unif_rand();
            let u2 = rng.unif_rand();
            let z;
            if u1 < 0.5 {
                let y = u1 * u2;
                z = u1 * y;
                if 0.25 * u2 + z - y >= k1 {
                    continue;
                }
            } else {
                z = u1 * u1 * u2;
                if z <= 0.25 {
                    w = v_w(u1, beta, b).1;
                    break;
                }
                if z >= k2 {
                    continue;
                }
            }
            let (v, ww) = v_w(u1, beta, b);
            if alpha * ((alpha / (a + ww)).ln() + v) - 1.3862944 >= z.ln() {
                w = ww;
                break;
            }
        }
        if aa == a {
            a / (a + w)
        } else {
            w / (a + w)
        }
    } else {
        let beta = ((alpha - 2.0) / (2.0 * a * b - alpha)).sqrt();
        let gamma = a + 1.0 / beta;
        let mut w;
        loop {
            let u1 = rng.unif_rand();
            let u2 = rng.unif_rand();
            let (v, ww) = v_w(u1, beta, a);
            w = ww;
            let z = u1 * u1 * u2;
            let r = gamma * v - 1.3862944;
            let s = a + r - w;
            if s + 2.609438 >= 5.0 * z {
                break;
            }
            let t = z.ln();
            if s > t {
                break;
            }
            // R's `while (r + … < t)`: a NaN test ends the loop there, as
            // it does when a huge shape makes `gamma` infinite and `r`
            // NaN (`rbeta(1, 1e308, 2)` is 1 in R; `>= t` spun for ever).
            let again = r + alpha * (alpha / (b + w)).ln() < t;
            if !again {
                break;
            }
        }
        if aa != a {
            b / (b + w)
        } else {
            w / (b + w)
        }
    }
}

pub fn rchisq(df: f64, rng: &mut Rng) -> f64 {
    if !df.is_finite() || df < 0.0 {
        return f64::NAN;
    }
    rgamma(df / 2.0, 2.0, rng)
}

/// rnchisq.c's `rnchisq(df, lambda)`: a Poisson mixture of central
/// chi-squares, drawn Poisson first.
pub fn rnchisq(df: f64, lambda: f64, rng: &mut Rng) -> f64 {
    if df.is_nan() || !lambda.is_finite() || df < 0.0 || lambda < 0.0 {
        return f64::NAN;
    }
    if lambda == 0.0 {
        return if df == 0.0 {
            0.0
        } else {
            rgamma(df / 2.0, 2.0, rng)
        };
    }
    let mut r = rpois(lambda / 2.0, rng);
    if r > 0.0 {
        r = rchisq(2.0 * r, rng);
    }
    if df > 0.0 {
        r += rgamma(df / 2.0, 2.0, rng);
    }
    r
}

pub fn rt(df: f64, rng: &mut Rng) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if !df.is_finite() {
        return rng.norm_rand();
    }
    let num = rng.norm_rand();
    num / (rchisq(df, rng) / df).sqrt()
}

pub fn rf(n1: f64, n2: f64, rng: &mut Rng) -> f64 {
    if n1.is_nan() || n2.is_nan() || n1 <= 0.0 || n2 <= 0.0 {
        return f64::NAN;
    }
    let v1 = if n1.is_finite() {
        rchisq(n1, rng) / n1
    } else {
        1.0
    };
    let v2 = if n2.is_finite() {
        rchisq(n2, rng) / n2
    } else {
        1.0
    };
    v1 / v2
}

/// rpois.c's state for mu < 10, kept between calls as R keeps it in
/// statics: the cumulative probabilities `pp[1..=l]` built so far for
/// `muprev`. It only saves work: every entry is a function of mu alone, so
/// a draw is the same whatever was drawn before.
struct PoisTable {
    muprev: f64,
    m: usize,
    l: usize,
    p0: f64,
    p: f64,
    q: f64,
    pp: [f64; 36],
}

thread_local! {
    static POIS_TABLE: std::cell::RefCell<PoisTable> = const {
        std::cell::RefCell::new(PoisTable {
            muprev: f64::NAN,
            m: 0,
            l: 0,
            p0: 0.0,
            p: 0.0,
            q: 0.0,
            pp: [0.0; 36],
        })
    };
}

impl PoisTable {
    /// rpois.c's case `mu < M_cutoff`: inversion by the table (Steps U,
    /// T and C).
    fn draw(&mut self, mu: f64, rng: &mut Rng) -> f64 {
        if mu != self.muprev {
            self.muprev = mu;
            self.m = 1usize.max(mu as usize);
            self.l = 0;
            self.p0 = (-mu).exp();
            self.p = self.p0;
            self.q = self.p0;
        }
        loop {
            // Step U.
            let u = rng.unif_rand();
            if u <= self.p0 {
                return 0.0;
            }
            // Step T: the table so far.
            if self.l > 0 {
                let j = if u > 0.458 { self.l.min(self.m) } else { 1 };
                for k in j..=self.l {
                    if u <= self.pp[k] {
                        return k as f64;
                    }
                }
                if self.l == 35 {
                    continue;
                }
            }
            // Step C: new probabilities and their cumulatives.
            self.l += 1;
            for k in self.l..=35 {
                self.p *= mu / k as f64;
                self.q += self.p;
                self.pp[k] = self.q;
                if u <= self.q {
                    self.l = k;
                    return k as f64;
                }
            }
            self.l = 35;
        }
    }
}

/// `n` draws of [`rpois`] with one `mu`, in order: the table (for
/// `mu < 10`) is taken once for them all rather than once per draw.
pub fn rpois_n(mu: f64, n: usize, rng: &mut Rng) -> Vec<f64> {
    if mu.is_finite() && mu > 0.0 && mu < 10.0 {
        POIS_TABLE.with(|t| {
            let mut t = t.borrow_mut();
            (0..n).map(|_| t.draw(mu, rng)).collect()
        })
    } else {
        (0..n).map(|_| rpois(mu, rng)).collect()
    }
}

pub fn rpois(mu: f64, rng: &mut Rng) -> f64 {
    const A0: f64 = -0.5;
    const A1: f64 = 0.3333333;
    const A2: f64 = -0.2500068;
    const A3: f64 = 0.2000118;
    const A4: f64 = -0.1661269;
    const A5: f64 = 0.1421878;
    const A6: f64 = -0.1384794;
    const A7: f64 = 0.1250060;
    const ONE_7: f64 = 0.142_857_142_857_142_85;
    const ONE_12: f64 = 0.083_333_333_333_333_33;
    const ONE_24: f64 = 0.041_666_666_666_666_67;
    const FACT: [f64; 10] = [1., 1., 2., 6., 24., 120., 720., 5040., 40320., 362880.];
    if !mu.is_finite() || mu < 0.0 {
        return f64::NAN;
    }
    if mu <= 0.0 {
        return 0.0;
    }
    if mu < 10.0 {
        return POIS_TABLE.with(|t| t.borrow_mut().draw(mu, rng));
    }
    let s = mu.sqrt();
    let d = 6.0 * mu * mu;
    let big_l = (mu - 1.1484).floor();
    let mut pois = -1.0;
    let mut difmuk = 0.0;
    let mut fk = 0.0;
    let mut u = 0.0;
    let g = mu + s * rng.norm_rand();
    if g >= 0.0 {
        pois = g.floor();
        if pois >= big_l {
            return pois;
        }
        fk = pois;
        difmuk = mu - fk;
        u = rng.unif_rand();
        if d * u >= difmuk * difmuk * difmuk {
            return pois;
        }
    }
    let omega = ONE_SQRT_2PI / s;
    let b1 = ONE_24 / mu;
    let b2 = 0.3 * b1 * b1;
    let c3 = ONE_7 * b1 * b2;
    let c2 = b2 - 15. * c3;
    let c1 = b1 - 6. * b2 + 45. * c3;
    let c0 = 1. - b1 + 3. * b2 - 15. * c3;
    let c = 0.1069 / mu;
    // Step F: px, py, fx, fy of the current candidate.
    let step_f = |pois: f64, fk: f64, difmuk: f64| -> (f64, f64, f64, f64) {
        let (px, py) = if pois < 10.0 {
            (-mu, mu.powf(pois) / FACT[pois as usize])
        } else {
            let mut del = ONE_12 / fk;
            del *= 1. - 4.8 * del * del;
            let v = difmuk / fk;
            let px = if v.abs() <= 0.25 {
                fk * v
                    * v
                    * (((((((A7 * v + A6) * v + A5) * v + A4) * v + A3) * v + A2) * v + A1) * v
                        + A0)
                    - del
            } else {
                fk * (1. + v).ln() - difmuk - del
            };
            (px, ONE_SQRT_2PI / fk.sqrt())
        };
        let mut x = (0.5 - difmuk) / s;
        x *= x;
        let fx = -0.5 * x;
        let fy = omega * (((c3 * x + c2) * x + c1) * x + c0);
        (px, py, fx, fy)
    };
    if g >= 0.0 {
        let (px, py, fx, fy) = step_f(pois, fk, difmuk);
        if fy - u * fy <= py * (px - fx).exp() {
            return pois;
        }
    }
    loop {
        let e = exp_rand(rng);
        u = 2.0 * rng.unif_rand() - 1.0;
        let t = 1.8 + if u < 0.0 { -e } else { e };
        if t > -0.6744 {
            pois = (mu + s * t).floor();
            fk = pois;
            difmuk = mu - fk;
            let (px, py, fx, fy) = step_f(pois, fk, difmuk);
            if c * u.abs() <= py * (px + e).exp() - fy * (fx + e).exp() {
                break;
            }
        }
    }
    pois
}

pub fn rbinom(nin: f64, pp: f64, rng: &mut Rng) -> f64 {
    if !nin.is_finite() {
        return f64::NAN;
    }
    let r = nin.round_ties_even();
    if r != nin {
        return f64::NAN;
    }
    if !pp.is_finite() || r < 0.0 || !(0.0..=1.0).contains(&pp) {
        return f64::NAN;
    }
    if r == 0.0 || pp == 0.0 {
        return 0.0;
    }
    if pp == 1.0 {
        return r;
    }
    if r >= i32::MAX as f64 {
        let u = rng.unif_rand();
        return super::qfun::qbinom(u, r, pp, false, false);
    }
    let n = r as i64;
    let p = pp.min(1.0 - pp);
    let q = 1.0 - p;
    let np = n as f64 * p;
    let r = p / q;
    let g = r * (n as f64 + 1.0);
    let mut ix: i64;
    if np < 30.0 {
        let qn = pow_di(q, n);
        'outer: loop {
            ix = 0;
            let mut f = qn;
            let mut u = rng.unif_rand();
            loop {
                if u < f {
                    break 'outer;
                }
                if ix > 110 {
                    break;
                }
                u -= f;
                ix += 1;
                f *= g / ix as f64 - r;
            }
        }
    } else {
        let ffm = np + p;
        let m = ffm as i64;
        let fm = m as f64;
        let npq = np * q;
        let p1 = ((2.195 * npq.sqrt() - 4.6 * q) as i64) as f64 + 0.5;
        let xm = fm + 0.5;
        let xl = xm - p1;
        let xr = xm + p1;
        let c = 0.134 + 20.5 / (15.3 + fm);
        let mut al = (ffm - xl) / (ffm - xl * p);
        let xll = al * (1.0 + 0.5 * al);
        al = (xr - ffm) / (xr * q);
        let xlr = al * (1.0 + 0.5 * al);
        let p2 = p1 * (1.0 + c + c);
        let p3 = p2 + c / xll;
        let p4 = p3 + c / xlr;
        let nf = n as f64;
        loop {
            let u = rng.unif_rand() * p4;
            let mut v = rng.unif_rand();
            if u <= p1 {
                ix = (xm - p1 * v + u) as i64;
                break;
            }
            if u <= p2 {
                let x = xl + (u - p1) / c;
                v = v * c + 1.0 - (xm - x).abs() / p1;
                if v > 1.0 || v <= 0.0 {
                    continue;
                }
                ix = x as i64;
            } else if u > p3 {
                ix = (xr - v.ln() / xlr) as i64;
                if ix > n {
                    continue;
                }
                v *= (u - p3) * xlr;
            } else {
                ix = (xl + v.ln() / xll) as i64;
                if ix < 0 {
                    continue;
                }
                v *= (u - p2) * xll;
            }
            let k = (ix - m).abs();
            let kf = k as f64;
            if kf <= 20.0 || kf >= npq / 2.0 - 1.0 {
                let mut f = 1.0;
                if m < ix {
                    for i in m + 1..=ix {
                        f *= g / i as f64 - r;
                    }
                } else if m != ix {
                    for i in ix + 1..=m {
                        f /= g / i as f64 - r;
                    }
                }
                if v <= f {
                    break;
                }
            } else {
                let amaxp = (kf / npq) * ((kf * (kf / 3. + 0.625) + 0.1666666666666) / npq + 0.5);
                let ynorm = -(k * k) as f64 / (2.0 * npq);
                let alv = v.ln();
                if alv < ynorm - amaxp {
                    break;
                }
                if alv <= ynorm + amaxp {
                    let x1 = ix as f64 + 1.0;
                    let f1 = fm + 1.0;
                    let z = nf + 1.0 - fm;
                    let w = nf - ix as f64 + 1.0;
                    let (z2, x2, f2, w2) = (z * z, x1 * x1, f1 * f1, w * w);
                    let corr = |a: f64, a2: f64| {
                        (13860.0 - (462.0 - (132.0 - (99.0 - 140.0 / a2) / a2) / a2) / a2)
                            / a
                            / 166320.0
                    };
                    if alv
                        <= xm * (f1 / x1).ln()
                            + (nf - m as f64 + 0.5) * (z / w).ln()
                            + (ix - m) as f64 * (w * p / (x1 * q)).ln()
                            + corr(f1, f2)
                            + corr(z, z2)
                            + corr(x1, x2)
                            + corr(w, w2)
                    {
                        break;
                    }
                }
            }
        }
    }
    if pp > 0.5 {
        ix = n - ix;
    }
    ix as f64
}

pub fn rgeom(p: f64, rng: &mut Rng) -> f64 {
    if !p.is_finite() || p <= 0.0 || p > 1.0 {
        return f64::NAN;
    }
    let mu = exp_rand(rng) * ((1.0 - p) / p);
    rpois(mu, rng)
}

pub fn rnbinom(size: f64, prob: f64, rng: &mut Rng) -> f64 {
    if !prob.is_finite() || size.is_nan() || size <= 0.0 || prob <= 0.0 || prob > 1.0 {
        return f64::NAN;
    }
    let size = if size.is_finite() {
        size
    } else {
        f64::MAX / 2.0
    };
    if prob == 1.0 {
        0.0
    } else {
        let mu = rgamma(size, (1.0 - prob) / prob, rng);
        rpois(mu, rng)
    }
}

pub fn rnbinom_mu(size: f64, mu: f64, rng: &mut Rng) -> f64 {
    if !mu.is_finite() || size.is_nan() || size <= 0.0 || mu < 0.0 {
        return f64::NAN;
    }
    let size = if size.is_finite() {
        size
    } else {
        f64::MAX / 2.0
    };
    if mu == 0.0 {
        0.0
    } else {
        let lambda = rgamma(size, mu / size, rng);
        rpois(lambda, rng)
    }
}

pub fn rweibull(shape: f64, scale: f64, rng: &mut Rng) -> f64 {
    if !shape.is_finite() || !scale.is_finite() || shape <= 0.0 || scale <= 0.0 {
        return if scale == 0.0 { 0.0 } else { f64::NAN };
    }
    scale * (-rng.unif_rand().ln()).powf(1.0 / shape)
}

pub fn rcauchy(location: f64, scale: f64, rng: &mut Rng) -> f64 {
    if location.is_nan() || !scale.is_finite() || scale < 0.0 {
        return f64::NAN;
    }
    if scale == 0.0 || !location.is_finite() {
        return location;
    }
    location + scale * (std::f64::consts::PI * rng.unif_rand()).tan()
}

pub fn rlogis(location: f64, scale: f64, rng: &mut Rng) -> f64 {
    if location.is_nan() || !scale.is_finite() {
        return f64::NAN;
    }
    if scale == 0.0 || !location.is_finite() {
        return location;
    }
    let u = rng.unif_rand();
    location + scale * (u / (1.0 - u)).ln()
}

pub fn rlnorm(meanlog: f64, sdlog: f64, rng: &mut Rng) -> f64 {
    if meanlog.is_nan() || !sdlog.is_finite() || sdlog < 0.0 {
        return f64::NAN;
    }
    crate::kernels::data::rnorm1(meanlog, sdlog, rng).exp()
}

/// R's `R_pow_di(x, n)` for n >= 0: repeated squaring.
fn pow_di(mut x: f64, mut n: i64) -> f64 {
    let mut pow = 1.0;
    if x.is_nan() {
        return x;
    }
    if n != 0 {
        if !x.is_finite() {
            return x.powf(n as f64);
        }
        loop {
            if n & 1 == 1 {
                pow *= x;
            }
            n >>= 1;
            if n != 0 {
                x *= x;
            } else {
                break;
            }
        }
    }
    pow
}

/// rhyper.c's `afc(i)`: log(i!), from a table up to 7, else Stirling.
fn afc(i: i64) -> f64 {
    const AL: [f64; 8] = [
        0.0,
        0.0,
        std::f64::consts::LN_2,
        1.791_759_469_228_055,
        3.178_053_830_347_945_6,
        4.787_491_742_782_046,
        6.579_251_212_010_101,
        8.525_161_361_065_415,
    ];
    if i < 0 {
        return -1.0;
    }
    if i <= 7 {
        return AL[i as usize];
    }
    let di = i as f64;
    let i2 = di * di;
    (di + 0.5) * di.ln() - di
        + 0.918_938_533_204_672_8
        + (0.0833333333333333 - 0.00277777777777778 / i2) / di
}

/// `rhyper(m, n, k)`: Kachitvichyanukul & Schmeiser's HIN (inversion)
/// and H2PE (rejection) as in R 4.2's rhyper.c.
pub fn rhyper(nn1in: f64, nn2in: f64, kkin: f64, rng: &mut Rng) -> f64 {
    if !nn1in.is_finite() || !nn2in.is_finite() || !kkin.is_finite() {
        return f64::NAN;
    }
    let (nn1in, nn2in, kkin) = (
        nn1in.round_ties_even(),
        nn2in.round_ties_even(),
        kkin.round_ties_even(),
    );
    if nn1in < 0.0 || nn2in < 0.0 || kkin < 0.0 || kkin > nn1in + nn2in {
        return f64::NAN;
    }
    let int_max = i32::MAX as f64;
    if nn1in >= int_max || nn2in >= int_max || kkin >= int_max {
        if kkin == 1.0 {
            return rbinom(kkin, nn1in / (nn1in + nn2in), rng);
        }
        let u = rng.unif_rand();
        return super::qfun::qhyper(u, nn1in, nn2in, kkin, false, false);
    }
    let (nn1, nn2, kk) = (nn1in as i64, nn2in as i64, kkin as i64);
    let big_n = nn1 as f64 + nn2 as f64;
    let (n1, n2) = if nn1 <= nn2 { (nn1, nn2) } else { (nn2, nn1) };
    let k = if kk as f64 + kk as f64 >= big_n {
        (big_n - kk as f64) as i64
    } else {
        kk
    };
    let m = ((k as f64 + 1.0) * (n1 as f64 + 1.0) / (big_n + 2.0)) as i64;
    let minjx = 0.max(k - n2);
    let maxjx = n1.min(k);
    let (n1f, n2f, kf) = (n1 as f64, n2 as f64, k as f64);
    let mut ix: i64;
    if minjx == maxjx {
        ix = maxjx;
    } else if m - minjx < 10 {
        const SCALE: f64 = 1e25;
        const CON: f64 = 57.564_627_324_851_14;
        let lw = if k < n2 {
            afc(n2) + afc(n1 + n2 - k) - afc(n2 - k) - afc(n1 + n2)
        } else {
            afc(n1) + afc(k) - afc(k - n2) - afc(n1 + n2)
        };
        let w = (lw + CON).exp();
        'l10: loop {
            let mut p = w;
            ix = minjx;
            let mut u = rng.unif_rand() * SCALE;
            while u > p {
                u -= p;
                p *= (n1f - ix as f64) * (k - ix) as f64;
                ix += 1;
                p = p / ix as f64 / (n2 - k + ix) as f64;
                if ix > maxjx {
                    continue 'l10;
                }
            }
            break;
        }
    } else {
        let s = ((big_n - kf) * kf * n1f * n2f / (big_n - 1.0) / big_n / big_n).sqrt();
        let d = ((1.5 * s) as i64) as f64 + 0.5;
        let mf = m as f64;
        let xl = mf - d + 0.5;
        let xr = mf + d + 0.5;
        let a = afc(m) + afc(n1 - m) + afc(k - m) + afc(n2 - k + m);
        let kl = (a
            - afc(xl as i64)
            - afc((n1f - xl) as i64)
            - afc((kf - xl) as i64)
            - afc((n2f - kf + xl) as i64))
        .exp();
        let kr = (a
            - afc((xr - 1.0) as i64)
            - afc((n1f - xr + 1.0) as i64)
            - afc((kf - xr + 1.0) as i64)
            - afc((n2f - kf + xr - 1.0) as i64))
        .exp();
        let lamdl = -(xl * (n2f - kf + xl) / (n1f - xl + 1.0) / (kf - xl + 1.0)).ln();
        let lamdr = -((n1f - xr + 1.0) * (kf - xr + 1.0) / xr / (n2f - kf + xr)).ln();
        let p1 = d + d;
        let p2 = p1 + kl / lamdl;
        let p3 = p2 + kr / lamdr;
        let mut n_uv = 0;
        loop {
            let u = rng.unif_rand() * p3;
            let mut v = rng.unif_rand();
            n_uv += 1;
            if n_uv >= 10000 {
                return f64::NAN;
            }
            if u < p1 {
                ix = (xl + u) as i64;
            } else if u <= p2 {
                ix = (xl + v.ln() / lamdl) as i64;
                if ix < minjx {
                    continue;
                }
                v = v * (u - p1) * lamdl;
            } else {
                ix = (xr - v.ln() / lamdr) as i64;
                if ix > maxjx {
                    continue;
                }
                v = v * (u - p2) * lamdr;
            }
            let reject;
            if m < 100 || ix <= 50 {
                let mut f = 1.0;
                if m < ix {
                    for i in m + 1..=ix {
                        f = f * (n1 - i + 1) as f64 * (k - i + 1) as f64
                            / (n2 - k + i) as f64
                            / i as f64;
                    }
                } else if m > ix {
                    for i in ix + 1..=m {
                        f = f * i as f64 * (n2 - k + i) as f64
                            / (n1 - i + 1) as f64
                            / (k - i + 1) as f64;
                    }
                }
                reject = v > f;
            } else {
                const DELTAL: f64 = 0.0078;
                const DELTAU: f64 = 0.0034;
                let y = ix as f64;
                let y1 = y + 1.0;
                let ym = y - mf;
                let yn = n1f - y + 1.0;
                let yk = kf - y + 1.0;
                let nk = n2f - kf + y1;
                let r = -ym / y1;
                let s = ym / yn;
                let t = ym / yk;
                let e = -ym / nk;
                let g = yn * yk / (y1 * nk) - 1.0;
                let dg = if g < 0.0 { 1.0 + g } else { 1.0 };
                let gu = g * (1.0 + g * (-0.5 + g / 3.0));
                let gl = gu - 0.25 * (g * g * g * g) / dg;
                let xm = mf + 0.5;
                let xn = n1f - mf + 0.5;
                let xk = kf - mf + 0.5;
                let nm = n2f - kf + xm;
                let ub = y * gu - mf * gl
                    + DELTAU
                    + xm * r * (1. + r * (-0.5 + r / 3.0))
                    + xn * s * (1. + s * (-0.5 + s / 3.0))
                    + xk * t * (1. + t * (-0.5 + t / 3.0))
                    + nm * e * (1. + e * (-0.5 + e / 3.0));
                let alv = v.ln();
                if alv > ub {
                    reject = true;
                } else {
                    let quart = |z: f64, w: f64| {
                        let q = w * (z * z * z * z);
                        if z < 0.0 {
                            q / (1.0 + z)
                        } else {
                            q
                        }
                    };
                    let dr = quart(r, xm);
                    let ds = quart(s, xn);
                    let dt = quart(t, xk);
                    let de = quart(e, nm);
                    if alv < ub - 0.25 * (dr + ds + dt + de) + (y + mf) * (gl - gu) - DELTAL {
                        reject = false;
                    } else {
                        reject =
                            alv > (a - afc(ix) - afc(n1 - ix) - afc(k - ix) - afc(n2 - k + ix));
                    }
                }
            }
            if !reject {
                break;
            }
        }
    }
    if kk as f64 + kk as f64 >= big_n {
        if nn1 > nn2 {
            ix += kk - nn2;
        } else {
            ix = nn1 - ix;
        }
    } else if nn1 > nn2 {
        ix = kk - ix;
    }
    ix as f64
}
