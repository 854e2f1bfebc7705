//! R's `pnorm` (Cody's algorithm, `pnorm_both`) and `dnorm`.

use super::{d0, dt0, dt1, M_1_SQRT_2PI, M_LN_SQRT_2PI};

const A: [f64; 5] = [
    2.2352520354606839287,
    161.02823106855587881,
    1067.6894854603709582,
    18154.981253343561249,
    0.065682337918207449113,
];
const B: [f64; 4] = [
    47.20258190468824187,
    976.09855173777669322,
    10260.932208618978205,
    45507.789335026729956,
];
const C: [f64; 9] = [
    0.39894151208813466764,
    8.8831497943883759412,
    93.506656132177855979,
    597.27027639480026226,
    2494.5375852903726711,
    6848.1904505362823326,
    11602.651437647350124,
    9842.7148383839780218,
    1.0765576773720192317e-8,
];
const D: [f64; 8] = [
    22.266688044328115691,
    235.38790178262499861,
    1519.377599407554805,
    6485.558298266760755,
    18615.571640885098091,
    34900.952721145977266,
    38912.003286093271411,
    19685.429676859990727,
];
const P: [f64; 6] = [
    0.21589853405795699,
    0.1274011611602473639,
    0.022235277870649807,
    0.001421619193227893466,
    2.9112874951168792e-5,
    0.02307344176494017303,
];
const Q: [f64; 5] = [
    1.28426009614491121,
    0.468238212480865118,
    0.0659881378689285515,
    0.00378239633202758244,
    7.29751555083966205e-5,
];

const M_SQRT_32: f64 = 5.656854249492380195206754896838;
const SIXTEN: f64 = 16.0;

/// R's `pnorm(x, mean, sd, lower.tail, log.p)`.
pub fn pnorm(x: f64, mu: f64, sigma: f64, lower_tail: bool, log_p: bool) -> f64 {
    if x.is_nan() || mu.is_nan() || sigma.is_nan() {
        return x + mu + sigma;
    }
    if !x.is_finite() && mu == x {
        return f64::NAN;
    }
    if sigma <= 0.0 {
        if sigma < 0.0 {
            return f64::NAN;
        }
        return if x < mu {
            dt0(lower_tail, log_p)
        } else {
            dt1(lower_tail, log_p)
        };
    }
    let p = (x - mu) / sigma;
    if !p.is_finite() {
        return if x < mu {
            dt0(lower_tail, log_p)
        } else {
            dt1(lower_tail, log_p)
        };
    }
    let (cum, ccum) = pnorm_both(p, if lower_tail { 0 } else { 1 }, log_p);
    if lower_tail {
        cum
    } else {
        ccum
    }
}

/// R's `pnorm_both`: `i_tail` 0 = lower, 1 = upper, 2 = both. Returns
/// (cum, ccum); the tail not asked for may be left unset (NaN).
pub fn pnorm_both(x: f64, i_tail: i32, log_p: bool) -> (f64, f64) {
    let mut cum = f64::NAN;
    let mut ccum = f64::NAN;
    if x.is_nan() {
        return (x, x);
    }
    let eps = f64::EPSILON * 0.5;
    let lower = i_tail != 1;
    let upper = i_tail != 0;

    let y = x.abs();
    if y <= 0.67448975 {
        let (xnum, xden) = if y > eps {
            let xsq = x * x;
            let mut xnum = A[4] * xsq;
            let mut xden = xsq;
            for i in 0..3 {
                xnum = (xnum + A[i]) * xsq;
                xden = (xden + B[i]) * xsq;
            }
            (xnum, xden)
        } else {
            (0.0, 0.0)
        };
        let temp = x * (xnum + A[3]) / (xden + B[3]);
        if lower {
            cum = 0.5 + temp;
        }
        if upper {
            ccum = 0.5 - temp;
        }
        if log_p {
            if lower {
                cum = cum.ln();
            }
            if upper {
                ccum = ccum.ln();
            }
        }
        return (cum, ccum);
    }

    // do_del + swap_tail of R's C source
    let finish = |xx: f64, temp: f64| -> (f64, f64) {
        let xsq = (xx * SIXTEN).trunc() / SIXTEN;
        let del = (xx - xsq) * (xx + xsq);
        let (mut c, mut cc);
        if log_p {
            c = (-xsq * (xsq * 0.5)) - del * 0.5 + temp.ln();
            cc = f64::NAN;
            if (lower && x > 0.0) || (upper && x <= 0.0) {
                cc = (-(-xsq * (xsq * 0.5)).exp() * (-del * 0.5).exp() * temp).ln_1p();
            }
        } else {
            c = (-xsq * (xsq * 0.5)).exp() * (-del * 0.5).exp() * temp;
            cc = 1.0 - c;
        }
        if x > 0.0 {
            let t = c;
            if lower {
                c = cc;
            }
            cc = t;
        }
        (c, cc)
    };

    if y <= M_SQRT_32 {
        let mut xnum = C[8] * y;
        let mut xden = y;
        for i in 0..7 {
            xnum = (xnum + C[i]) * y;
            xden = (xden + D[i]) * y;
        }
        let temp = (xnum + C[7]) / (xden + D[7]);
        return finish(y, temp);
    }
    if (log_p && y < 1e170)
        || (lower && -37.5193 < x && x < 8.2924)
        || (upper && -8.2924 < x && x < 37.5193)
    {
        let xsq = 1.0 / (x * x);
        let mut xnum = P[5] * xsq;
        let mut xden = xsq;
        for i in 0..4 {
            xnum = (xnum + P[i]) * xsq;
            xden = (xden + Q[i]) * xsq;
        }
        let mut temp = xsq * (xnum + P[4]) / (xden + Q[4]);
        temp = (M_1_SQRT_2PI - temp) / y;
        return finish(x, temp);
    }
    if x > 0.0 {
        (super::d1(log_p), d0(log_p))
    } else {
        (d0(log_p), super::d1(log_p))
    }
}

/// R's `dnorm(x, mean, sd, log)`.
pub fn dnorm(x: f64, mu: f64, sigma: f64, give_log: bool) -> f64 {
    if x.is_nan() || mu.is_nan() || sigma.is_nan() {
        return x + mu + sigma;
    }
    if sigma < 0.0 {
        return f64::NAN;
    }
    if !sigma.is_finite() {
        return d0(give_log);
    }
    if !x.is_finite() && mu == x {
        return f64::NAN;
    }
    if sigma == 0.0 {
        return if x == mu { f64::INFINITY } else { d0(give_log) };
    }
    let x = ((x - mu) / sigma).abs();
    if !x.is_finite() {
        return d0(give_log);
    }
    if x >= 2.0 * f64::MAX.sqrt() {
        return d0(give_log);
    }
    if give_log {
        return -(M_LN_SQRT_2PI + 0.5 * x * x + sigma.ln());
    }
    if x < 5.0 {
        return M_1_SQRT_2PI * (-0.5 * x * x).exp() / sigma;
    }
    // ~ 38.57: beyond it exp() underflows to 0
    if x > (-2.0 * super::M_LN2 * (f64::MIN_EXP as f64 + 1.0 - f64::MANTISSA_DIGITS as f64)).sqrt()
    {
        return 0.0;
    }
    let x1 = (x * 65536.0).round_ties_even() / 65536.0;
    let x2 = x - x1;
    M_1_SQRT_2PI / sigma * ((-0.5 * x1 * x1).exp() * ((-0.5 * x2 - x1) * x2).exp())
}
