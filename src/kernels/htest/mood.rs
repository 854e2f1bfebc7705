//! `mood.test(x, y)`: Mood's two-sample test of scale, with R's (>= 3.5)
//! Mielke tie adjustment.

use super::super::nmath::{pnorm, rsum};
use super::wilcox::r_min;
use super::{
    alternative, check_alternative, check_numeric, data, rank, rcumsum, record, Alternative,
};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    check_numeric(args, "x", "'x' must be numeric")?;
    check_numeric(args, "y", "'y' must be numeric")?;
    check_alternative(args)?;
    if let (Some(nx), Some(ny)) = (
        args.ty("x").and_then(Type::len),
        args.ty("y").and_then(Type::len),
    ) {
        if nx + ny < 3 {
            return Err(args.error("y", "not enough observations"));
        }
    }
    Ok(super::htest_type(false, false))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if !args.has("y") {
        return Err(KernelError::new(
            "argument \"y\" is missing, with no default",
        ));
    }
    let alt = alternative(args)?;
    let x: Vec<f64> = data(args, "x", "'x' must be numeric")?
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let y: Vec<f64> = data(args, "y", "'y' must be numeric")?
        .into_iter()
        .filter(|v| v.is_finite())
        .collect();
    let m = x.len() as f64;
    let n = y.len() as f64;
    let big_n = m + n;
    if x.len() + y.len() < 3 {
        return Err(KernelError::new("not enough observations"));
    }
    let e = m * (big_n * big_n - 1.0) / 12.0;
    let mut v = (1.0 / 180.0) * m * n * (big_n + 1.0) * (big_n + 2.0) * (big_n - 2.0);
    let z: Vec<f64> = x.iter().chain(&y).copied().collect();
    let mid = (big_n + 1.0) / 2.0;
    let mut u = z.clone();
    u.sort_by(|a, b| a.total_cmp(b));
    u.dedup();
    let t_stat;
    if u.len() == z.len() {
        let r = rank(&z);
        let sq: Vec<f64> = r[..x.len()]
            .iter()
            .map(|ri| (ri - mid) * (ri - mid))
            .collect();
        t_stat = rsum(&sq);
    } else {
        let pos = |val: f64| u.partition_point(|&w| w < val);
        let mut a = vec![0.0; u.len()];
        let mut t = vec![0.0; u.len()];
        for &xi in &x {
            a[pos(xi)] += 1.0;
        }
        for &zi in &z {
            t[pos(zi)] += 1.0;
        }
        let sq: Vec<f64> = (1..=z.len())
            .map(|i| {
                let d = i as f64 - mid;
                d * d
            })
            .collect();
        let p = rcumsum(&sq);
        let adj: Vec<f64> = t
            .iter()
            .map(|&ti| {
                let nt = big_n - ti;
                ti * (ti * ti - 1.0) * (ti * ti - 4.0 + 15.0 * (nt * nt))
            })
            .collect();
        v -= (m * n) / (180.0 * big_n * (big_n - 1.0)) * rsum(&adj);
        // p at the last index of each tie group, differenced
        let mut prev = 0.0;
        let mut cum = 0usize;
        let mut terms = Vec::with_capacity(u.len());
        for i in 0..u.len() {
            cum += t[i] as usize;
            let pc = p[cum - 1];
            terms.push(a[i] * (pc - prev) / t[i]);
            prev = pc;
        }
        t_stat = rsum(&terms);
    }
    let zstat = (t_stat - e) / v.sqrt();
    let p = pnorm(zstat, 0.0, 1.0, true, false);
    let pval = match alt {
        Alternative::Less => p,
        Alternative::Greater => 1.0 - p,
        Alternative::TwoSided => 2.0 * r_min(p, 1.0 - p),
    };
    Ok(record(vec![
        ("statistic", super::nm(zstat, "Z")),
        ("p.value", Value::scalar(pval)),
        ("alternative", Value::string(alt.r_name())),
        ("method", Value::string("Mood two-sample test of scale")),
    ]))
}
