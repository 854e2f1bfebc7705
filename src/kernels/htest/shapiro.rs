//! `shapiro.test(x)`: R's `swilk.c` (Royston's AS R94).

use super::record;
use crate::kernels::nmath::pnorm;
use crate::kernels::nmath::qfun::qnorm_std;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// AS 181.2's polynomial: cc[0] + cc[1] x + ...
fn poly(cc: &[f64], x: f64) -> f64 {
    let nord = cc.len();
    let mut ret = cc[0];
    if nord > 1 {
        let mut p = x * cc[nord - 1];
        for j in (1..nord - 1).rev() {
            p = (p + cc[j]) * x;
        }
        ret += p;
    }
    ret
}

fn sign(x: i64) -> f64 {
    match x.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
    }
}

/// `swilk(x, n)` on sorted x: (W, p-value). swilk.c's constants are
/// truncated approximations of sqrt(1/2) and pi/3; R's numbers use them.
#[allow(clippy::approx_constant)]
fn swilk(x: &[f64]) -> (f64, f64) {
    let n = x.len();
    let nn2 = n / 2;
    let mut a = vec![0.0; nn2 + 1];
    let small = 1e-19;
    let g = [-2.273, 0.459];
    let c1 = [0.0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056];
    let c2 = [0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633];
    let c3 = [0.544, -0.39978, 0.025054, -6.714e-4];
    let c4 = [1.3822, -0.77857, 0.062767, -0.0020322];
    let c5 = [-1.5861, -0.31082, -0.083751, 0.0038915];
    let c6 = [-0.4803, -0.082676, 0.0030302];
    let an = n as f64;
    if n == 3 {
        a[1] = 0.70710678;
    } else {
        let an25 = an + 0.25;
        let mut summ2 = 0.0;
        for (i, ai) in a.iter_mut().enumerate().skip(1) {
            *ai = qnorm_std((i as f64 - 0.375) / an25);
            summ2 += *ai * *ai;
        }
        summ2 *= 2.0;
        let ssumm2 = summ2.sqrt();
        let rsn = 1.0 / an.sqrt();
        let a1 = poly(&c1, rsn) - a[1] / ssumm2;
        let (i1, fac);
        if n > 5 {
            i1 = 3;
            let a2 = -a[2] / ssumm2 + poly(&c2, rsn);
            fac = ((summ2 - 2.0 * (a[1] * a[1]) - 2.0 * (a[2] * a[2]))
                / (1.0 - 2.0 * (a1 * a1) - 2.0 * (a2 * a2)))
                .sqrt();
            a[2] = a2;
        } else {
            i1 = 2;
            fac = ((summ2 - 2.0 * (a[1] * a[1])) / (1.0 - 2.0 * (a1 * a1))).sqrt();
        }
        a[1] = a1;
        for ai in a.iter_mut().skip(i1) {
            *ai /= -fac;
        }
    }
    let range = x[n - 1] - x[0];
    if range < small {
        return (1.0, 1.0);
    }
    let mut xx = x[0] / range;
    let mut sx = xx;
    let mut sa = -a[1];
    let mut i = 1usize;
    let mut j = n as i64 - 1;
    while i < n {
        let xi = x[i] / range;
        sx += xi;
        i += 1;
        if i as i64 != j {
            sa += sign(i as i64 - j) * a[(i as i64).min(j) as usize];
        }
        xx = xi;
        j -= 1;
    }
    let _ = xx;
    sa /= an;
    sx /= an;
    let (mut ssa, mut ssx, mut sax) = (0.0, 0.0, 0.0);
    let mut j = n as i64 - 1;
    for (i, xv) in x.iter().enumerate() {
        let i = i as i64;
        let asa = if i != j {
            sign(i - j) * a[1 + i.min(j) as usize] - sa
        } else {
            -sa
        };
        let xsx = xv / range - sx;
        ssa += asa * asa;
        ssx += xsx * xsx;
        sax += asa * xsx;
        j -= 1;
    }
    let ssassx = (ssa * ssx).sqrt();
    let w1 = (ssassx - sax) * (ssassx + sax) / (ssa * ssx);
    let w = 1.0 - w1;
    if n == 3 {
        let pi6 = 1.909_859_317_102_74;
        let stqr = 1.047_197_551_196_6;
        let pw = pi6 * (w.sqrt().asin() - stqr);
        return (w, pw.max(0.0));
    }
    let mut y = w1.ln();
    let xx = an.ln();
    let (m, s);
    if n <= 11 {
        let gamma = poly(&g, an);
        if y >= gamma {
            return (w, 1e-99);
        }
        y = -(gamma - y).ln();
        m = poly(&c3, an);
        s = poly(&c4, an).exp();
    } else {
        m = poly(&c5, xx);
        s = poly(&c6, xx).exp();
    }
    (w, pnorm(y, m, s, false, false))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = match args.get("x") {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default()
        }
        _ => return Err(KernelError::new("is.numeric(x) is not TRUE")),
    };
    let mut x: Vec<f64> = x.into_iter().filter(|v| !v.is_nan()).collect();
    x.sort_by(f64::total_cmp);
    let n = x.len();
    if !(3..=5000).contains(&n) {
        return Err(KernelError::new("sample size must be between 3 and 5000"));
    }
    let rng = x[n - 1] - x[0];
    // shapiro.test's `if (rng == 0)`: NA when both ends are one infinity.
    if rng.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if rng == 0.0 {
        return Err(KernelError::new("all 'x' values are identical"));
    }
    if rng < 1e-10 {
        x.iter_mut().for_each(|v| *v /= rng);
    }
    // An infinite range: C_SWilk (a .Call, so no NA/Inf check) scales by
    // it, an infinite end becomes NaN, and so do W and its p-value.
    let (w, pw) = if rng.is_infinite() {
        (f64::NAN, f64::NAN)
    } else {
        swilk(&x)
    };
    Ok(record(vec![
        ("statistic", super::nm(w, "W")),
        ("p.value", Value::scalar(pw)),
        ("method", Value::string("Shapiro-Wilk normality test")),
    ]))
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("x") {
        if !matches!(t, Type::Any) && !t.is_numeric() {
            return Err(args.error("x", "is.numeric(x) is not TRUE"));
        }
        if let Some(n) = t.len() {
            if n < 3 {
                return Err(args.error("x", "sample size must be between 3 and 5000"));
            }
        }
    }
    Ok(Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("p.value", Type::num(1)),
            (
                "method",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    ))
}
