//! `ARMAacf(ar, ma, lag.max, pacf)` and `ARMAtoMA(ar, ma, lag.max)`:
//! stats/R/ARMAtheory.R's theoretical autocorrelations of an ARMA
//! process (the linear system of its first p + 1 autocovariances, solved
//! as `solve` does by LAPACK dgesv, then continued by filter.c's
//! `rfilter`; an MA alone through `cfilter`), the partial ones by
//! pacf.c's `uni_pacf`, and arima.c's `ARMAtoMA` psi weights.

use nalgebra::DMatrix;

use super::acf::uni_pacf;
use super::args::{ArgError, Args};
use super::filter::{cfilter, rfilter};
use super::linalg::solve;
use super::names::{bare, named};
use super::summary::sum;
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ARMAacf",
        params: &[opt("ar"), opt("ma"), opt("lag.max"), opt("pacf")],
        random: false,
        shape: num_shape,
        eval: arma_acf_eval,
    },
    Kernel {
        name: "ARMAtoMA",
        params: &[opt("ar"), opt("ma"), super::req("lag.max")],
        random: false,
        shape: num_shape,
        eval: arma_to_ma_eval,
    },
];

fn num_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num_unknown())
}

/// A coefficient vector (`numeric()` when not given).
fn coefs(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get_if_formal(name).map(bare) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(v @ (Value::Num(_) | Value::Bool(_) | Value::Mat(_))) => Ok(v
            .as_f64_slice()
            .map(std::borrow::Cow::into_owned)
            .unwrap_or_default()),
        Some(v) => Err(KernelError::new(format!(
            "flowcast's {}() takes numeric '{name}', not {}",
            args.func,
            v.type_name()
        ))),
    }
}

/// arima.c's `ARMAtoMA`: the first `m` psi weights of the MA(infinity)
/// form.
fn arma_to_ma(phi: &[f64], theta: &[f64], m: usize) -> Result<Vec<f64>, KernelError> {
    let (p, q) = (phi.len(), theta.len());
    // `lag.max` up to .Machine$integer.max: 16 GB, refused like R.
    let mut psi = super::alloc::filled(m, 0.0)?;
    for i in 0..m {
        let mut tmp = if i < q { theta[i] } else { 0.0 };
        for j in 0..(i + 1).min(p) {
            tmp += phi[j] * if i > j { psi[i - j - 1] } else { 1.0 };
        }
        psi[i] = tmp;
    }
    Ok(psi)
}

fn arma_to_ma_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ar = coefs(args, "ar")?;
    let ma = coefs(args, "ma")?;
    // asInteger: truncation toward zero, NA for what an int cannot hold.
    let m = args
        .get("lag.max")
        .map(bare)
        .and_then(Value::as_scalar)
        .filter(|m| m.is_finite() && m.abs() < 2147483648.0)
        .map(f64::trunc);
    match m {
        Some(m) if m > 0.0 => Ok(Value::Num(arma_to_ma(&ar, &ma, m as usize)?)),
        _ => Err(KernelError::new("invalid value of lag.max")),
    }
}

fn arma_acf_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut ar = coefs(args, "ar")?;
    let ma = coefs(args, "ma")?;
    let mut p = ar.len();
    let q = ma.len();
    if p == 0 && q == 0 {
        return Err(KernelError::new("empty model supplied"));
    }
    let r = p.max(q + 1);
    let lag_max = match args.get_if_formal("lag.max").map(bare) {
        None => r as f64,
        Some(v) => match v.as_scalar() {
            Some(x) => x,
            None => {
                return Err(KernelError::new(format!(
                    "flowcast's ARMAacf() takes 'lag.max' of one number, not {}",
                    v.type_name()
                )))
            }
        },
    };
    if lag_max.is_nan() {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if lag_max.fract() != 0.0 || lag_max.abs() > 1e9 {
        return Err(KernelError::new(
            "flowcast's ARMAacf() takes a whole 'lag.max'",
        ));
    }
    let pacf = match args.get_if_formal("pacf") {
        None => false,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))?,
    };
    if pacf && lag_max < 1.0 {
        // R 4.2.2's pacf1 writes past its zero-length answer and crashes.
        return Err(KernelError::new(
            "flowcast's ARMAacf() takes lag.max >= 1 with pacf = TRUE",
        ));
    }
    let missing_filter = || KernelError::new("missing values in 'filter'");
    let acf = if p > 0 {
        let mut acf = if r > 1 {
            if r > p {
                ar.resize(r, 0.0);
                p = r;
            }
            let p1 = p + 1;
            let p21 = p + p1;
            // A[a, a + b - 1] = c(1, -ar)[b], then the columns past p + 1
            // folded back onto the first p.
            let mut a = DMatrix::<f64>::zeros(p1, p21);
            for row in 0..p1 {
                for b in 0..p1 {
                    a[(row, row + b)] = if b == 0 { 1.0 } else { -ar[b - 1] };
                }
            }
            for j in 0..p {
                for row in 0..p1 {
                    a[(row, j)] += a[(row, p21 - 1 - j)];
                }
            }
            let mut rhs = vec![0.0; p1];
            rhs[0] = 1.0;
            if q > 0 {
                let mut psi = vec![1.0];
                psi.extend(arma_to_ma(&ar, &ma, q)?);
                let mut theta = vec![1.0];
                theta.extend(&ma);
                theta.resize(theta.len() + q + 1, 0.0);
                for (k, rk) in rhs.iter_mut().enumerate().take(q + 1) {
                    let prod: Vec<f64> = (0..=q).map(|i| psi[i] * theta[k + i]).collect();
                    *rk = sum(&prod, false);
                }
            }
            // solve(A[p1:1, p1:1], rhs).
            let rev = DMatrix::from_fn(p1, p1, |i, j| a[(p1 - 1 - i, p1 - 1 - j)]);
            let rhs = DMatrix::from_vec(p1, 1, rhs);
            let x = solve(&rev, Some(&rhs), f64::EPSILON)?;
            let x: Vec<f64> = x.iter().copied().collect();
            x[1..].iter().map(|v| v / x[0]).collect::<Vec<f64>>()
        } else {
            ar.clone()
        };
        if lag_max > p as f64 {
            if ar.iter().any(|v| v.is_nan()) {
                return Err(missing_filter());
            }
            let xx = vec![0.0; lag_max as usize - p];
            // filter(xx, ar, "recursive", init = rev(Acf)): rfilter over
            // c(rev(init), double(n)).
            let mut rr = acf.clone();
            rr.resize(p + xx.len(), 0.0);
            rfilter(&xx, &ar, &mut rr);
            acf.extend_from_slice(&rr[p..]);
        }
        if lag_max < 0.0 {
            return Err(KernelError::new(
                "only 0's may be mixed with negative subscripts",
            ));
        }
        // c(1, Acf[1:lag.max]); 1:0 is c(1, 0), which keeps Acf[1].
        let keep = (lag_max as usize).max(1);
        let mut out = vec![1.0];
        out.extend((0..keep).map(|i| acf.get(i).copied().unwrap_or(f64::NAN)));
        out
    } else {
        if ma.iter().any(|v| v.is_nan()) {
            return Err(missing_filter());
        }
        let mut x = vec![1.0];
        x.extend(&ma);
        let rev: Vec<f64> = x.iter().rev().copied().collect();
        let mut series = x.clone();
        series.resize(x.len() + q, 0.0);
        let mut acf: Vec<f64> = cfilter(&series, &rev, 1, false)[q..].to_vec();
        if lag_max < 0.0 {
            return Err(KernelError::new("flowcast's ARMAacf() takes lag.max >= 0"));
        }
        if lag_max > q as f64 {
            acf.resize(lag_max as usize + 1, 0.0);
        }
        let a0 = acf[0];
        acf.iter().map(|v| v / a0).collect()
    };
    if pacf {
        return Ok(Value::Num(uni_pacf(&acf, lag_max as usize)));
    }
    // names(Acf) <- 0:lag.max: R pads names that are too few with NA.
    let names = (0..acf.len())
        .map(|i| {
            if i as f64 <= lag_max {
                i.to_string()
            } else {
                "NA".to_string()
            }
        })
        .collect();
    Ok(named(Value::Num(acf), names))
}
