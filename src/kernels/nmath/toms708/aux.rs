//! TOMS 708's ancillary functions, as in R's toms708.c. R keeps these
//! instead of its own gamma functions: the error analysis depends on them.

/// exparg(false): largest w with exp(w) finite; exparg(true): most negative
/// w with exp(w) nonzero (both with 0.99999 fuzz).
pub(super) fn exparg(l: bool) -> f64 {
    const LNB: f64 = 0.69314718055995;
    let m: i32 = if !l { 1024 } else { -1021 - 1 };
    m as f64 * LNB * 0.99999
}

/// exp(mu + x).
pub(super) fn esum(mu: i32, x: f64, give_log: bool) -> f64 {
    if give_log {
        return x + mu as f64;
    }
    let w;
    if x > 0.0 {
        if mu > 0 {
            return (mu as f64).exp() * x.exp();
        }
        w = mu as f64 + x;
        if w < 0.0 {
            return (mu as f64).exp() * x.exp();
        }
    } else {
        if mu < 0 {
            return (mu as f64).exp() * x.exp();
        }
        w = mu as f64 + x;
        if w > 0.0 {
            return (mu as f64).exp() * x.exp();
        }
    }
    w.exp()
}

/// exp(x) - 1.
pub(super) fn rexpm1(x: f64) -> f64 {
    const P1: f64 = 9.14041914819518e-10;
    const P2: f64 = 0.0238082361044469;
    const Q1: f64 = -0.499999999085958;
    const Q2: f64 = 0.107141568980644;
    const Q3: f64 = -0.0119041179760821;
    const Q4: f64 = 5.95130811860248e-4;
    if x.abs() <= 0.15 {
        x * (((P2 * x + P1) * x + 1.0) / ((((Q4 * x + Q3) * x + Q2) * x + Q1) * x + 1.0))
    } else {
        let w = x.exp();
        if x > 0.0 {
            w * (0.5 - 1.0 / w + 0.5)
        } else {
            w - 0.5 - 0.5
        }
    }
}

/// ln(1 + a).
pub(super) fn alnrel(a: f64) -> f64 {
    if a.abs() > 0.375 {
        return (1.0 + a).ln();
    }
    const P1: f64 = -1.29418923021993;
    const P2: f64 = 0.405303492862024;
    const P3: f64 = -0.0178874546012214;
    const Q1: f64 = -1.62752256355323;
    const Q2: f64 = 0.747811014037616;
    const Q3: f64 = -0.0845104217945565;
    let t = a / (a + 2.0);
    let t2 = t * t;
    let w = (((P3 * t2 + P2) * t2 + P1) * t2 + 1.0) / (((Q3 * t2 + Q2) * t2 + Q1) * t2 + 1.0);
    t * 2.0 * w
}

/// x - ln(1 + x).
pub(super) fn rlog1(x: f64) -> f64 {
    const A: f64 = 0.0566749439387324;
    const B: f64 = 0.0456512608815524;
    const P0: f64 = 0.333333333333333;
    const P1: f64 = -0.224696413112536;
    const P2: f64 = 0.00620886815375787;
    const Q1: f64 = -1.27408923933623;
    const Q2: f64 = 0.354508718369557;
    if !(-0.39..=0.57).contains(&x) {
        let w = x + 0.5 + 0.5;
        return x - w.ln();
    }
    let (h, w1);
    if x < -0.18 {
        let hh = (x + 0.3) / 0.7;
        h = hh;
        w1 = A - hh * 0.3;
    } else if x > 0.18 {
        h = x * 0.75 - 0.25;
        w1 = B + h / 3.0;
    } else {
        h = x;
        w1 = 0.0;
    }
    let r = h / (h + 2.0);
    let t = r * r;
    let w = ((P2 * t + P1) * t + P0) / ((Q2 * t + Q1) * t + 1.0);
    t * 2.0 * (1.0 / (1.0 - r) - r * w) + w1
}

const ERF_C: f64 = 0.564189583547756;
const ERF_A: [f64; 5] = [
    7.7105849500132e-5,
    -0.00133733772997339,
    0.0323076579225834,
    0.0479137145607681,
    0.128379167095513,
];
const ERF_B: [f64; 3] = [0.00301048631703895, 0.0538971687740286, 0.375795757275549];
const ERF_P: [f64; 8] = [
    -1.36864857382717e-7,
    0.564195517478974,
    7.21175825088309,
    43.1622272220567,
    152.98928504694,
    339.320816734344,
    451.918953711873,
    300.459261020162,
];
const ERF_Q: [f64; 8] = [
    1.,
    12.7827273196294,
    77.0001529352295,
    277.585444743988,
    638.980264465631,
    931.35409485061,
    790.950925327898,
    300.459260956983,
];
const ERF_R: [f64; 5] = [
    2.10144126479064,
    26.2370141675169,
    21.3688200555087,
    4.6580782871847,
    0.282094791773523,
];
const ERF_S: [f64; 4] = [
    94.153775055546,
    187.11481179959,
    99.0191814623914,
    18.0124575948747,
];

fn poly_pq(ax: f64) -> f64 {
    let p = &ERF_P;
    let q = &ERF_Q;
    let top = ((((((p[0] * ax + p[1]) * ax + p[2]) * ax + p[3]) * ax + p[4]) * ax + p[5]) * ax
        + p[6])
        * ax
        + p[7];
    let bot = ((((((q[0] * ax + q[1]) * ax + q[2]) * ax + q[3]) * ax + q[4]) * ax + q[5]) * ax
        + q[6])
        * ax
        + q[7];
    top / bot
}

/// The error function.
pub(super) fn erf(x: f64) -> f64 {
    let (a, b, r, s) = (&ERF_A, &ERF_B, &ERF_R, &ERF_S);
    let ax = x.abs();
    if ax <= 0.5 {
        let t = x * x;
        let top = (((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4] + 1.0;
        let bot = ((b[0] * t + b[1]) * t + b[2]) * t + 1.0;
        return x * (top / bot);
    }
    if ax <= 4.0 {
        let rr = 0.5 - (-x * x).exp() * poly_pq(ax) + 0.5;
        return if x < 0.0 { -rr } else { rr };
    }
    if ax >= 5.8 {
        return if x > 0.0 { 1.0 } else { -1.0 };
    }
    let x2 = x * x;
    let t = 1.0 / x2;
    let top = (((r[0] * t + r[1]) * t + r[2]) * t + r[3]) * t + r[4];
    let bot = (((s[0] * t + s[1]) * t + s[2]) * t + s[3]) * t + 1.0;
    let t = (ERF_C - top / (x2 * bot)) / ax;
    let rr = 0.5 - (-x2).exp() * t + 0.5;
    if x < 0.0 {
        -rr
    } else {
        rr
    }
}

/// erfc(x) if !scaled, exp(x^2) erfc(x) otherwise.
// `ret = a * b * ret` keeps the C's order of rounding, which `*=` would change
#[allow(clippy::assign_op_pattern)]
pub(super) fn erfc1(scaled: bool, x: f64) -> f64 {
    let (a, b, r, s) = (&ERF_A, &ERF_B, &ERF_R, &ERF_S);
    let ax = x.abs();
    if ax <= 0.5 {
        let t = x * x;
        let top = (((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4] + 1.0;
        let bot = ((b[0] * t + b[1]) * t + b[2]) * t + 1.0;
        let mut ret = 0.5 - x * (top / bot) + 0.5;
        if scaled {
            ret *= t.exp();
        }
        return ret;
    }
    let mut ret;
    if ax <= 4.0 {
        ret = poly_pq(ax);
    } else {
        if x <= -5.6 {
            return if scaled { (x * x).exp() * 2.0 } else { 2.0 };
        }
        if !scaled && (x > 100.0 || x * x > -exparg(true)) {
            return 0.0;
        }
        let t = 1.0 / (x * x);
        let top = (((r[0] * t + r[1]) * t + r[2]) * t + r[3]) * t + r[4];
        let bot = (((s[0] * t + s[1]) * t + s[2]) * t + s[3]) * t + 1.0;
        ret = (ERF_C - t * top / bot) / ax;
    }
    if scaled {
        if x < 0.0 {
            ret = (x * x).exp() * 2.0 - ret;
        }
    } else {
        let w = x * x;
        let t = w;
        let e = w - t;
        ret = (0.5 - e + 0.5) * (-t).exp() * ret;
        if x < 0.0 {
            ret = 2.0 - ret;
        }
    }
    ret
}

/// 1/gamma(a+1) - 1 for -0.5 <= a <= 1.5.
pub(super) fn gam1(a: f64) -> f64 {
    let mut t = a;
    let d = a - 0.5;
    if d > 0.0 {
        t = d - 0.5;
    }
    if t < 0.0 {
        const R: [f64; 9] = [
            -0.422784335098468,
            -0.771330383816272,
            -0.244757765222226,
            0.118378989872749,
            9.30357293360349e-4,
            -0.0118290993445146,
            0.00223047661158249,
            2.66505979058923e-4,
            -1.32674909766242e-4,
        ];
        const S1: f64 = 0.273076135303957;
        const S2: f64 = 0.0559398236957378;
        let top = (((((((R[8] * t + R[7]) * t + R[6]) * t + R[5]) * t + R[4]) * t + R[3]) * t
            + R[2])
            * t
            + R[1])
            * t
            + R[0];
        let bot = (S2 * t + S1) * t + 1.0;
        let w = top / bot;
        if d > 0.0 {
            t * w / a
        } else {
            a * (w + 0.5 + 0.5)
        }
    } else if t == 0.0 {
        0.0
    } else {
        const P: [f64; 7] = [
            0.577215664901533,
            -0.409078193005776,
            -0.230975380857675,
            0.0597275330452234,
            0.0076696818164949,
            -0.00514889771323592,
            5.89597428611429e-4,
        ];
        const Q: [f64; 5] = [
            1.,
            0.427569613095214,
            0.158451672430138,
            0.0261132021441447,
            0.00423244297896961,
        ];
        let top = (((((P[6] * t + P[5]) * t + P[4]) * t + P[3]) * t + P[2]) * t + P[1]) * t + P[0];
        let bot = (((Q[4] * t + Q[3]) * t + Q[2]) * t + Q[1]) * t + 1.0;
        let w = top / bot;
        if d > 0.0 {
            t / a * (w - 0.5 - 0.5)
        } else {
            a * w
        }
    }
}

/// ln(gamma(1 + a)) for -0.2 <= a <= 1.25.
pub(super) fn gamln1(a: f64) -> f64 {
    if a < 0.6 {
        const P0: f64 = 0.577215664901533;
        const P1: f64 = 0.844203922187225;
        const P2: f64 = -0.168860593646662;
        const P3: f64 = -0.780427615533591;
        const P4: f64 = -0.402055799310489;
        const P5: f64 = -0.0673562214325671;
        const P6: f64 = -0.00271935708322958;
        const Q1: f64 = 2.88743195473681;
        const Q2: f64 = 3.12755088914843;
        const Q3: f64 = 1.56875193295039;
        const Q4: f64 = 0.361951990101499;
        const Q5: f64 = 0.0325038868253937;
        const Q6: f64 = 6.67465618796164e-4;
        let w = ((((((P6 * a + P5) * a + P4) * a + P3) * a + P2) * a + P1) * a + P0)
            / ((((((Q6 * a + Q5) * a + Q4) * a + Q3) * a + Q2) * a + Q1) * a + 1.0);
        -a * w
    } else {
        const R0: f64 = 0.422784335098467;
        const R1: f64 = 0.848044614534529;
        const R2: f64 = 0.565221050691933;
        const R3: f64 = 0.156513060486551;
        const R4: f64 = 0.017050248402265;
        const R5: f64 = 4.97958207639485e-4;
        const S1: f64 = 1.24313399877507;
        const S2: f64 = 0.548042109832463;
        const S3: f64 = 0.10155218743983;
        const S4: f64 = 0.00713309612391;
        const S5: f64 = 1.16165475989616e-4;
        let x = a - 0.5 - 0.5;
        let w = (((((R5 * x + R4) * x + R3) * x + R2) * x + R1) * x + R0)
            / (((((S5 * x + S4) * x + S3) * x + S2) * x + S1) * x + 1.0);
        x * w
    }
}

/// The digamma function (Cody, Strecok and Thacher); 0 where undefined.
pub(super) fn psi(mut x: f64) -> f64 {
    const PIOV4: f64 = 0.785398163397448;
    const DX0: f64 = 1.461632144968362341262659542325721325;
    const P1: [f64; 7] = [
        0.0089538502298197,
        4.77762828042627,
        142.441585084029,
        1186.45200713425,
        3633.51846806499,
        4138.10161269013,
        1305.60269827897,
    ];
    const Q1: [f64; 6] = [
        44.8452573429826,
        520.752771467162,
        2210.0079924783,
        3641.27349079381,
        1908.310765963,
        6.91091682714533e-6,
    ];
    const P2: [f64; 4] = [
        -2.12940445131011,
        -7.01677227766759,
        -4.48616543918019,
        -0.648157123766197,
    ];
    const Q2: [f64; 4] = [
        32.2703493791143,
        89.2920700481861,
        54.6117738103215,
        7.77788548522962,
    ];
    let xmax1 = (i32::MAX as f64).min(1.0 / f64::EPSILON);
    let xsmall = 1e-9;
    let mut aug = 0.0;
    if x < 0.5 {
        if x.abs() <= xsmall {
            if x == 0.0 {
                return 0.0;
            }
            aug = -1.0 / x;
        } else {
            let mut w = -x;
            let mut sgn = PIOV4;
            if w <= 0.0 {
                w = -w;
                sgn = -sgn;
            }
            if w >= xmax1 {
                return 0.0;
            }
            let mut nq = w as i64;
            w -= nq as f64;
            nq = (w * 4.0) as i64;
            w = (w - nq as f64 * 0.25) * 4.0;
            let mut n = nq / 2;
            if n + n != nq {
                w = 1.0 - w;
            }
            let z = PIOV4 * w;
            let mut m = n / 2;
            if m + m != n {
                sgn = -sgn;
            }
            n = (nq + 1) / 2;
            m = n / 2;
            m += m;
            if m == n {
                if z == 0.0 {
                    return 0.0;
                }
                aug = sgn * (z.cos() / z.sin() * 4.0);
            } else {
                aug = sgn * (z.sin() / z.cos() * 4.0);
            }
        }
        x = 1.0 - x;
    }
    if x <= 3.0 {
        let mut den = x;
        let mut upper = P1[0] * x;
        for i in 1..=5 {
            den = (den + Q1[i - 1]) * x;
            upper = (upper + P1[i]) * x;
        }
        den = (upper + P1[6]) / (den + Q1[5]);
        let xmx0 = x - DX0;
        return den * xmx0 + aug;
    }
    if x < xmax1 {
        let w = 1.0 / (x * x);
        let mut den = w;
        let mut upper = P2[0] * w;
        for i in 1..=3 {
            den = (den + Q2[i - 1]) * w;
            upper = (upper + P2[i]) * w;
        }
        aug += upper / (den + Q2[3]) - 0.5 / x;
    }
    aug + x.ln()
}

/// ln(beta(a0, b0)).
pub(super) fn betaln(a0: f64, b0: f64) -> f64 {
    const E: f64 = 0.918938533204673;
    let mut a = a0.min(b0);
    let mut b = a0.max(b0);
    if a >= 8.0 {
        let w = bcorr(a, b);
        let h = a / b;
        let u = -(a - 0.5) * (h / (h + 1.0)).ln();
        let v = b * alnrel(h);
        return if u > v {
            b.ln() * -0.5 + E + w - v - u
        } else {
            b.ln() * -0.5 + E + w - u - v
        };
    }
    if a < 1.0 {
        return if b < 8.0 {
            gamln(a) + (gamln(b) - gamln(a + b))
        } else {
            gamln(a) + algdiv(a, b)
        };
    }
    // 1 <= a < 8
    let w;
    if a < 2.0 {
        if b <= 2.0 {
            return gamln(a) + gamln(b) - gsumln(a, b);
        }
        if b >= 8.0 {
            return gamln(a) + algdiv(a, b);
        }
        w = 0.0;
    } else if b <= 1e3 {
        let n = (a - 1.0) as i32;
        let mut ww = 1.0;
        for _ in 1..=n {
            a -= 1.0;
            let h = a / b;
            ww *= h / (h + 1.0);
        }
        w = ww.ln();
        if b >= 8.0 {
            return w + gamln(a) + algdiv(a, b);
        }
    } else {
        let n = (a - 1.0) as i32;
        let mut ww = 1.0;
        for _ in 1..=n {
            a -= 1.0;
            ww *= a / (a / b + 1.0);
        }
        return ww.ln() - n as f64 * b.ln() + (gamln(a) + algdiv(a, b));
    }
    // L40: 1 < a <= b < 8: reduction of b
    let n = (b - 1.0) as i32;
    let mut z = 1.0;
    for _ in 1..=n {
        b -= 1.0;
        z *= b / (a + b);
    }
    w + z.ln() + (gamln(a) + (gamln(b) - gsumln(a, b)))
}

/// ln(gamma(a + b)) for 1 <= a, b <= 2.
fn gsumln(a: f64, b: f64) -> f64 {
    let x = a + b - 2.0;
    if x <= 0.25 {
        return gamln1(x + 1.0);
    }
    if x <= 1.25 {
        return gamln1(x) + alnrel(x);
    }
    gamln1(x - 1.0) + (x * (x + 1.0)).ln()
}

const C0: f64 = 0.0833333333333333;
const C1: f64 = -0.00277777777760991;
const C2: f64 = 7.9365066682539e-4;
const C3: f64 = -5.9520293135187e-4;
const C4: f64 = 8.37308034031215e-4;
const C5: f64 = -0.00165322962780713;

/// del(a0) + del(b0) - del(a0 + b0), a0, b0 >= 8.
pub(super) fn bcorr(a0: f64, b0: f64) -> f64 {
    let a = a0.min(b0);
    let b = a0.max(b0);
    let h = a / b;
    let c = h / (h + 1.0);
    let x = 1.0 / (h + 1.0);
    let x2 = x * x;
    let s3 = x + x2 + 1.0;
    let s5 = x + x2 * s3 + 1.0;
    let s7 = x + x2 * s5 + 1.0;
    let s9 = x + x2 * s7 + 1.0;
    let s11 = x + x2 * s9 + 1.0;
    let r1 = 1.0 / b;
    let t = r1 * r1;
    let mut w = ((((C5 * s11 * t + C4 * s9) * t + C3 * s7) * t + C2 * s5) * t + C1 * s3) * t + C0;
    w *= c / b;
    let r1 = 1.0 / a;
    let t = r1 * r1;
    (((((C5 * t + C4) * t + C3) * t + C2) * t + C1) * t + C0) / a + w
}

/// ln(gamma(b)/gamma(a+b)) when b >= 8.
pub(super) fn algdiv(a: f64, b: f64) -> f64 {
    let (h, c, x, d);
    if a > b {
        h = b / a;
        c = 1.0 / (h + 1.0);
        x = h / (h + 1.0);
        d = a + (b - 0.5);
    } else {
        h = a / b;
        c = h / (h + 1.0);
        x = 1.0 / (h + 1.0);
        d = b + (a - 0.5);
    }
    let x2 = x * x;
    let s3 = x + x2 + 1.0;
    let s5 = x + x2 * s3 + 1.0;
    let s7 = x + x2 * s5 + 1.0;
    let s9 = x + x2 * s7 + 1.0;
    let s11 = x + x2 * s9 + 1.0;
    let t = 1.0 / (b * b);
    let mut w = ((((C5 * s11 * t + C4 * s9) * t + C3 * s7) * t + C2 * s5) * t + C1 * s3) * t + C0;
    w *= c / b;
    let u = d * alnrel(a / b);
    let v = a * (b.ln() - 1.0);
    if u > v {
        w - v - u
    } else {
        w - u - v
    }
}

/// ln(gamma(a)) for a > 0.
pub(super) fn gamln(a: f64) -> f64 {
    const D: f64 = 0.418938533204673;
    if a <= 0.8 {
        gamln1(a) - a.ln()
    } else if a <= 2.25 {
        gamln1(a - 0.5 - 0.5)
    } else if a < 10.0 {
        let n = (a - 1.25) as i32;
        let mut t = a;
        let mut w = 1.0;
        for _ in 1..=n {
            t -= 1.0;
            w *= t;
        }
        gamln1(t - 1.0) + w.ln()
    } else {
        let t = 1.0 / (a * a);
        let w = (((((C5 * t + C4) * t + C3) * t + C2) * t + C1) * t + C0) / a;
        D + w + (a - 0.5) * (a.ln() - 1.0)
    }
}
