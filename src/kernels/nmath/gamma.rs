//! R's gamma-function helpers: `gammafn`, `lgammafn`, `lgammacor`,
//! `stirlerr`, `bd0`, `dpois_raw`, `lbeta`, `lgamma1p`, `log1pmx`.

use super::{d0, d1, M_LN_SQRT_2PI};

const M_LN_SQRT_PID2: f64 = 0.225_791_352_644_727_432_363_097_614_947;

/// Chebyshev series evaluation (R's `chebyshev_eval`).
fn chebyshev_eval(x: f64, a: &[f64]) -> f64 {
    if !(-1.1..=1.1).contains(&x) {
        return f64::NAN;
    }
    let twox = x * 2.0;
    let (mut b0, mut b1, mut b2) = (0.0, 0.0, 0.0);
    for &ai in a.iter().rev() {
        b2 = b1;
        b1 = b0;
        b0 = twox * b1 - b2 + ai;
    }
    (b0 - b2) * 0.5
}

/// The 22 terms of R's `gamcs` that `chebyshev_init(gamcs, 42, eps/20)` keeps.
const GAMCS: [f64; 22] = [
    0.8571195590989331421920062399942e-2,
    0.4415381324841006757191315771652e-2,
    0.5685043681599363378632664588789e-1,
    -0.4219835396418560501012500186624e-2,
    0.1326808181212460220584006796352e-2,
    -0.1893024529798880432523947023886e-3,
    0.3606925327441245256578082217225e-4,
    -0.6056761904460864218485548290365e-5,
    0.1055829546302283344731823509093e-5,
    -0.1811967365542384048291855891166e-6,
    0.3117724964715322277790254593169e-7,
    -0.5354219639019687140874081024347e-8,
    0.9193275519859588946887786825940e-9,
    -0.1577941280288339761767423273953e-9,
    0.2707980622934954543266540433089e-10,
    -0.4646818653825730144081661058933e-11,
    0.7973350192007419656460767175359e-12,
    -0.1368078209830916025799499172309e-12,
    0.2347319486563800657233471771688e-13,
    -0.4027432614949066932766570534699e-14,
    0.6910051747372100912138336975257e-15,
    -0.1185584500221992907052387126192e-15,
];

/// The 5 terms of R's `algmcs` used by `lgammacor`.
const ALGMCS: [f64; 5] = [
    0.1666389480451863247205729650822e+0,
    -0.1384948176067563840732986059135e-4,
    0.9810825646924729426157171547487e-8,
    -0.1809129475572494194263306266719e-10,
    0.6221098041892605227126015543416e-13,
];

/// R's `lgammacor(x)`, x >= 10: log(gamma(x)) - Stirling's approximation.
pub fn lgammacor(x: f64) -> f64 {
    const XBIG: f64 = 94906265.62425156;
    const XMAX: f64 = 3.745194030963158e306;
    if x < 10.0 {
        f64::NAN
    } else if x >= XMAX {
        0.0
    } else if x < XBIG {
        let tmp = 10.0 / x;
        chebyshev_eval(tmp * tmp * 2.0 - 1.0, &ALGMCS) / x
    } else {
        1.0 / (x * 12.0)
    }
}

/// sin(pi * x), exact at multiples of 1/2 (R's `sinpi`).
fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let mut x = x % 2.0;
    if x <= -1.0 {
        x += 2.0;
    } else if x > 1.0 {
        x -= 2.0;
    }
    if x == 0.0 || x == 1.0 {
        return 0.0;
    }
    if x == 0.5 {
        return 1.0;
    }
    if x == -0.5 {
        return -1.0;
    }
    (std::f64::consts::PI * x).sin()
}

/// R's `gammafn(x)`.
pub fn gammafn(x: f64) -> f64 {
    const XMIN: f64 = -170.5674972726612;
    const XMAX: f64 = 171.61447887182298;
    const XSML: f64 = 2.2474362225598545e-308;
    if x.is_nan() {
        return x;
    }
    if x == 0.0 || (x < 0.0 && x == x.round()) {
        return f64::NAN;
    }
    let mut y = x.abs();
    if y <= 10.0 {
        let mut n = x as i64;
        if x < 0.0 {
            n -= 1;
        }
        y = x - n as f64;
        n -= 1;
        let mut value = chebyshev_eval(y * 2.0 - 1.0, &GAMCS) + 0.9375;
        if n == 0 {
            return value;
        }
        if n < 0 {
            if y < XSML {
                return if x > 0.0 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                };
            }
            let n = -n;
            for i in 0..n {
                value /= x + i as f64;
            }
            value
        } else {
            for i in 1..=n {
                value *= y + i as f64;
            }
            value
        }
    } else {
        if x > XMAX {
            return f64::INFINITY;
        }
        if x < XMIN {
            return 0.0;
        }
        let value = if y <= 50.0 && y == y.trunc() {
            let mut v = 1.0;
            let mut i = 2.0;
            while i < y {
                v *= i;
                i += 1.0;
            }
            v
        } else {
            // gamma.c's `(2*y == (int)2*y) ? stirlerr(y) : lgammacor(y)`
            // casts 2, not 2*y: the test is always true, so R 4.2 always
            // takes stirlerr(y).
            let corr = stirlerr(y);
            ((y - 0.5) * y.ln() - y + M_LN_SQRT_2PI + corr).exp()
        };
        if x > 0.0 {
            return value;
        }
        let sinpiy = sinpi(y);
        if sinpiy == 0.0 {
            return f64::INFINITY;
        }
        -std::f64::consts::PI / (y * sinpiy * value)
    }
}

/// R's `lgammafn(x)`: log|gamma(x)|.
pub fn lgammafn(x: f64) -> f64 {
    const XMAX: f64 = 2.5327372760800758e+305;
    if x.is_nan() {
        return x;
    }
    if x <= 0.0 && x == x.trunc() {
        return f64::INFINITY;
    }
    let y = x.abs();
    if y < 1e-306 {
        return -y.ln();
    }
    if y <= 10.0 {
        return gammafn(x).abs().ln();
    }
    if y > XMAX {
        return f64::INFINITY;
    }
    if x > 0.0 {
        if x > 1e17 {
            return x * (x.ln() - 1.0);
        } else if x > 4934720.0 {
            return M_LN_SQRT_2PI + (x - 0.5) * x.ln() - x;
        } else {
            return M_LN_SQRT_2PI + (x - 0.5) * x.ln() - x + lgammacor(x);
        }
    }
    let sinpiy = sinpi(y).abs();
    M_LN_SQRT_PID2 + (x - 0.5) * y.ln() - x - sinpiy.ln() - lgammacor(y)
}

/// R's `lbeta(a, b)`.
pub fn lbeta(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return a + b;
    }
    let p = a.min(b);
    let q = a.max(b);
    if p < 0.0 {
        return f64::NAN;
    } else if p == 0.0 {
        return f64::INFINITY;
    } else if !q.is_finite() {
        return f64::NEG_INFINITY;
    }
    if p >= 10.0 {
        let corr = lgammacor(p) + lgammacor(q) - lgammacor(p + q);
        q.ln() * -0.5
            + M_LN_SQRT_2PI
            + corr
            + (p - 0.5) * (p / (p + q)).ln()
            + q * (-p / (p + q)).ln_1p()
    } else if q >= 10.0 {
        let corr = lgammacor(q) - lgammacor(p + q);
        lgammafn(p) + corr + p - p * (p + q).ln() + (q - 0.5) * (-p / (p + q)).ln_1p()
    } else if p < 1e-306 {
        // p and q are small: p <= q < 10. R change for very small args:
        // lbeta.c calls the C library's lgamma here; R's lgammafn stands in.
        lgammafn(p) + (lgammafn(q) - lgammafn(p + q))
    } else {
        (gammafn(p) * (gammafn(q) / gammafn(p + q))).ln()
    }
}

const SFERR_HALVES: [f64; 31] = [
    0.0,
    0.1534264097200273452913848,
    0.0810614667953272582196702,
    0.0548141210519176538961390,
    0.0413406959554092940938221,
    0.03316287351993628748511048,
    0.02767792568499833914878929,
    0.02374616365629749597132920,
    0.02079067210376509311152277,
    0.01848845053267318523077934,
    0.01664469118982119216319487,
    0.01513497322191737887351255,
    0.01387612882307074799874573,
    0.01281046524292022692424986,
    0.01189670994589177009505572,
    0.01110455975820691732662991,
    0.010411265261972096497478567,
    0.009799416126158803298389475,
    0.009255462182712732917728637,
    0.008768700134139385462952823,
    0.008330563433362871256469318,
    0.007934114564314020547248100,
    0.007573675487951840794972024,
    0.007244554301320383179543912,
    0.006942840107209529865664152,
    0.006665247032707682442354394,
    0.006408994188004207068439631,
    0.006171712263039457647532867,
    0.005951370112758847735624416,
    0.005746216513010115682023589,
    0.005554733551962801371038690,
];

/// R's `stirlerr(n)` = log(n!) - log(sqrt(2 pi n) (n/e)^n).
pub fn stirlerr(n: f64) -> f64 {
    const S0: f64 = 0.083333333333333333333;
    const S1: f64 = 0.00277777777777777777778;
    const S2: f64 = 0.00079365079365079365079365;
    const S3: f64 = 0.000595238095238095238095238;
    const S4: f64 = 0.0008417508417508417508417508;
    if n <= 15.0 {
        let nn = n + n;
        if nn == (nn as i64) as f64 {
            return SFERR_HALVES[nn as usize];
        }
        return lgammafn(n + 1.0) - (n + 0.5) * n.ln() + n - M_LN_SQRT_2PI;
    }
    let nn = n * n;
    if n > 500.0 {
        return (S0 - S1 / nn) / n;
    }
    if n > 80.0 {
        return (S0 - (S1 - S2 / nn) / nn) / n;
    }
    if n > 35.0 {
        return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
    }
    (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n
}

/// R's `bd0(x, np)` = x log(x/np) + np - x, computed stably.
pub fn bd0(x: f64, np: f64) -> f64 {
    if !x.is_finite() || !np.is_finite() || np == 0.0 {
        return f64::NAN;
    }
    if (x - np).abs() < 0.1 * (x + np) {
        let mut v = (x - np) / (x + np);
        let mut s = (x - np) * v;
        if s.abs() < f64::MIN_POSITIVE {
            return s;
        }
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000 {
            ej *= v;
            let s_ = s;
            s += ej / ((j << 1) + 1) as f64;
            if s == s_ {
                return s;
            }
        }
    }
    x * (x / np).ln() + np - x
}

/// R's `dpois_raw(x, lambda, log)` (x need not be an integer).
pub fn dpois_raw(x: f64, lambda: f64, give_log: bool) -> f64 {
    if lambda == 0.0 {
        return if x == 0.0 { d1(give_log) } else { d0(give_log) };
    }
    if !lambda.is_finite() {
        return d0(give_log);
    }
    if x < 0.0 {
        return d0(give_log);
    }
    if x <= lambda * f64::MIN_POSITIVE {
        return super::d_exp(-lambda, give_log);
    }
    if lambda < x * f64::MIN_POSITIVE {
        if !x.is_finite() {
            return d0(give_log);
        }
        return super::d_exp(-lambda + x * lambda.ln() - lgammafn(x + 1.0), give_log);
    }
    // R >= 4.1: ebd0 instead of bd0
    const X_LRG: f64 = 2.86111748575702815380240589208115399625e+307;
    const M_SQRT_2PI: f64 = 2.50662827463100050241576528481104525301;
    let (yh, mut yl) = super::ebd0::ebd0(x, lambda);
    yl += stirlerr(x);
    let lrg_x = x >= X_LRG;
    let r = if lrg_x {
        M_SQRT_2PI * x.sqrt()
    } else {
        2.0 * std::f64::consts::PI * x
    };
    if give_log {
        -yl - yh - if lrg_x { r.ln() } else { 0.5 * r.ln() }
    } else {
        (-yl).exp() * (-yh).exp() / if lrg_x { r } else { r.sqrt() }
    }
}

const SCALEFACTOR: f64 = 1.157920892373162e77; // 2^256

/// Continued fraction for sum_k x^k/(i+k*d) (R's `logcf`).
fn logcf(x: f64, i: f64, d: f64, eps: f64) -> f64 {
    let mut c1 = 2.0 * d;
    let mut c2 = i + d;
    let mut c4 = c2 + d;
    let mut a1 = c2;
    let mut b1 = i * (c2 - i * x);
    let mut b2 = d * d * x;
    let mut a2 = c4 * c2 - b2;
    b2 = c4 * b1 - i * b2;
    while (a2 * b1 - a1 * b2).abs() > (eps * b1 * b2).abs() {
        let mut c3 = c2 * c2 * x;
        c2 += d;
        c4 += d;
        a1 = c4 * a2 - c3 * a1;
        b1 = c4 * b2 - c3 * b1;

        c3 = c1 * c1 * x;
        c1 += d;
        c4 += d;
        a2 = c4 * a1 - c3 * a2;
        b2 = c4 * b1 - c3 * b2;

        if b2.abs() > SCALEFACTOR {
            a1 /= SCALEFACTOR;
            b1 /= SCALEFACTOR;
            a2 /= SCALEFACTOR;
            b2 /= SCALEFACTOR;
        } else if b2.abs() < 1.0 / SCALEFACTOR {
            a1 *= SCALEFACTOR;
            b1 *= SCALEFACTOR;
            a2 *= SCALEFACTOR;
            b2 *= SCALEFACTOR;
        }
    }
    a2 / b2
}

/// R's `log1pmx(x)` = log(1+x) - x, accurate for small x.
pub fn log1pmx(x: f64) -> f64 {
    const MIN_LOG1_VALUE: f64 = -0.79149064;
    if !(MIN_LOG1_VALUE..=1.0).contains(&x) {
        return x.ln_1p() - x;
    }
    let r = x / (2.0 + x);
    let y = r * r;
    if x.abs() < 1e-2 {
        let two = 2.0;
        r * ((((two / 9.0 * y + two / 7.0) * y + two / 5.0) * y + two / 3.0) * y - x)
    } else {
        r * (2.0 * y * logcf(y, 3.0, 2.0, 1e-14) - x)
    }
}

const LGAMMA1P_COEFFS: [f64; 40] = [
    0.3224670334241132182362075833230126e-0,
    0.6735230105319809513324605383715000e-1,
    0.2058080842778454787900092413529198e-1,
    0.7385551028673985266273097291406834e-2,
    0.2890510330741523285752988298486755e-2,
    0.1192753911703260977113935692828109e-2,
    0.5096695247430424223356548135815582e-3,
    0.2231547584535793797614188036013401e-3,
    0.9945751278180853371459589003190170e-4,
    0.4492623673813314170020750240635786e-4,
    0.2050721277567069155316650397830591e-4,
    0.9439488275268395903987425104415055e-5,
    0.4374866789907487804181793223952411e-5,
    0.2039215753801366236781900709670839e-5,
    0.9551412130407419832857179772951265e-6,
    0.4492469198764566043294290331193655e-6,
    0.2120718480555466586923135901077628e-6,
    0.1004322482396809960872083050053344e-6,
    0.4769810169363980565760193417246730e-7,
    0.2271109460894316491031998116062124e-7,
    0.1083865921489695409107491757968159e-7,
    0.5183475041970046655121248647057669e-8,
    0.2483674543802478317185008663991718e-8,
    0.1192140140586091207442548202774640e-8,
    0.5731367241678862013330194857961011e-9,
    0.2759522885124233145178149692816341e-9,
    0.1330476437424448948149715720858008e-9,
    0.6422964563838100022082448087644648e-10,
    0.3104424774732227276239215783404066e-10,
    0.1502138408075414217093301048780668e-10,
    0.7275974480239079662504549924814047e-11,
    0.3527742476575915083615072228655483e-11,
    0.1711991790559617908601084114443031e-11,
    0.8315385841420284819798357793954418e-12,
    0.4042200525289440065536008957032895e-12,
    0.1966475631096616490411045679010286e-12,
    0.9573630387838555763782200936508615e-13,
    0.4664076026428374224576492565974577e-13,
    0.2273736960065972320633279596737272e-13,
    0.1109139947083452201658320007192334e-13,
];

/// R's `lgamma1p(a)` = log(gamma(a+1)), accurate for small a.
pub fn lgamma1p(a: f64) -> f64 {
    const EULERS_CONST: f64 = 0.5772156649015328606065120900824024;
    const C: f64 = 0.2273736845824652515226821577978691e-12;
    const N: usize = 40;
    if a.abs() >= 0.5 {
        return lgammafn(a + 1.0);
    }
    let mut lgam = C * logcf(-a / 2.0, (N + 2) as f64, 1.0, 1e-14);
    for i in (0..N).rev() {
        lgam = LGAMMA1P_COEFFS[i] - a * lgam;
    }
    (a * lgam - EULERS_CONST) * a - log1pmx(a)
}
