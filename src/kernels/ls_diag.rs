//! `ls.diag(ls.out)`: R 4.2.2's stats/R/lsfit.R `ls.diag` for flowcast's
//! one-response `lsfit` result, in its shape: the hat values from
//! `qr.qy` (LINPACK dqrsl per column of `rbind(diag(p), 0)`), the
//! residual statistics, and the covariances from `solve` of R's
//! triangle (LAPACK dgesv, as det's and solve's port) and `tcrossprod`
//! (BLAS dsyrk's order). `rowSums` and `colSums` add in long double as R's
//! do_colsum does.

use nalgebra::DMatrix;

use super::linalg::linpack::{dqrsl, Job, Qr};
use super::names::{bare, dimnamed};
use super::summary::ldouble;
use super::value::{List, NA};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "ls.diag",
    params: &[req("ls.out")],
    random: false,
    shape,
    eval,
}];

fn not_lsfit() -> KernelError {
    KernelError::new("flowcast's ls.diag takes an lsfit() result as 'ls.out'")
}

/// `ls.out$qr` as LINPACK's factorisation, and its column names.
fn the_qr(l: &List) -> Result<(Qr, Vec<String>), KernelError> {
    let Some(Value::List(q)) = l.field("qr").map(bare) else {
        return Err(not_lsfit());
    };
    let m = match q.field("qr") {
        Some(Value::Named(n)) => match &n.value {
            Value::Mat(m) => (m, n.colnames.clone()),
            _ => return Err(not_lsfit()),
        },
        Some(Value::Mat(m)) => (m, None),
        _ => return Err(not_lsfit()),
    };
    let (n, p) = m.0.shape();
    let rank = q.field("rank").and_then(Value::as_scalar);
    let qraux = q.field("qraux").and_then(Value::as_f64_slice);
    let pivot = q.field("pivot").and_then(Value::as_f64_slice);
    let (Some(rank), Some(qraux), Some(pivot)) = (rank, qraux, pivot) else {
        return Err(not_lsfit());
    };
    if qraux.len() != p
        || pivot.len() != p
        || !(0.0..=n.min(p) as f64).contains(&rank)
        || rank.fract() != 0.0
    {
        return Err(not_lsfit());
    }
    let names = m.1.unwrap_or_default();
    Ok((
        Qr {
            qr: m.0.as_slice().to_vec(),
            n,
            p,
            rank: rank as usize,
            qraux: qraux.into_owned(),
            pivot: pivot.iter().map(|&v| v as usize).collect(),
        },
        names,
    ))
}

fn numbers(v: Option<&Value>) -> Result<Option<Vec<f64>>, KernelError> {
    match v.map(bare) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ (Value::Num(_) | Value::Bool(_))) => {
            Ok(Some(v.as_f64_slice().unwrap_or_default().into_owned()))
        }
        Some(_) => Err(not_lsfit()),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let l = match args.get("ls.out").map(bare) {
        None => {
            return Err(KernelError::new(
                "argument \"ls.out\" is missing, with no default",
            ))
        }
        Some(Value::List(l)) => l,
        Some(Value::Null) => {
            return Err(KernelError::new(
                "argument \"ls.out\" is not an lsfit() result: it is NULL",
            ))
        }
        Some(_) => return Err(KernelError::new("$ operator is invalid for atomic vectors")),
    };
    let residuals = numbers(l.field("residuals"))?.ok_or_else(not_lsfit)?;
    let wt = numbers(l.field("wt"))?;
    let (qr, xnames) = the_qr(l)?;
    let n0 = residuals.len();
    if wt.as_ref().is_some_and(|w| w.len() != n0) {
        return Err(KernelError::new("not all arguments have the same length"));
    }
    // complete.cases(resids, ls.out$wt)
    let good: Vec<bool> = (0..n0)
        .map(|i| !residuals[i].is_nan() && wt.as_ref().is_none_or(|w| !w[i].is_nan()))
        .collect();
    let rows: Vec<usize> = (0..n0).filter(|&i| good[i]).collect();
    if rows.len() < n0 {
        ctx.warn("missing observations deleted");
    }
    let mut resids: Vec<f64> = rows.iter().map(|&i| residuals[i]).collect();
    if let Some(w) = &wt {
        if rows.iter().any(|&i| w[i] == 0.0) {
            ctx.warn("observations with 0 weight not used in calculating standard deviation");
        }
        for (r, &i) in resids.iter_mut().zip(&rows) {
            *r *= w[i].sqrt();
        }
    }
    let p = qr.rank;
    let n = resids.len();
    if p == 0 {
        return Err(KernelError::new(
            "flowcast's ls.diag takes a fit of rank 1 or more",
        ));
    }
    if n != qr.n {
        return Err(KernelError::new(
            "'qr' and 'y' must have the same number of rows",
        ));
    }
    // q <- qr.qy(ls.out$qr, rbind(diag(p), matrix(0, n - p, p)))
    let q: Vec<Vec<f64>> = (0..p)
        .map(|j| {
            let mut e = vec![0.0; n];
            e[j] = 1.0;
            dqrsl(
                &qr,
                p,
                &e,
                Job {
                    qy: true,
                    ..Job::default()
                },
            )
            .qy
        })
        .collect();
    let mut hatdiag = vec![NA; n0];
    let h: Vec<f64> = (0..n)
        .map(|i| {
            let squares: Vec<f64> = q.iter().map(|c| c[i] * c[i]).collect();
            ldouble::sum(&squares).to_f64()
        })
        .collect();
    for (k, &i) in rows.iter().enumerate() {
        hatdiag[i] = h[k];
    }
    let squares: Vec<f64> = resids.iter().map(|r| r * r).collect();
    let df = n as f64 - p as f64;
    let stddev = (ldouble::sum(&squares).to_f64() / df).sqrt();
    let mut stdres = vec![NA; n0];
    let mut studres = vec![NA; n0];
    let mut dfits = vec![NA; n0];
    let mut cooks = vec![NA; n0];
    let mut nan = false;
    for (k, &i) in rows.iter().enumerate() {
        let (r, h) = (resids[k], h[k]);
        let sr = r / ((1.0 - h).sqrt() * stddev);
        let under = (df * (stddev * stddev) - (r * r) / (1.0 - h)) / (df - 1.0);
        nan |= under < 0.0;
        let st = (sr * stddev) / under.sqrt();
        stdres[i] = sr;
        studres[i] = st;
        dfits[i] = (h / (1.0 - h)).sqrt() * st;
        cooks[i] = ((sr * sr * h) / p as f64) / (1.0 - h);
    }
    if nan {
        ctx.warn("NaNs produced");
    }
    // qr <- as.matrix(ls.out$qr$qr[1L:p, 1L:p]), its lower part zeroed.
    let r = DMatrix::from_fn(p, p, |i, j| if i > j { 0.0 } else { qr.qr[i + j * n] });
    if !xnames.is_empty() && xnames.len() != p {
        return Err(KernelError::new(
            "length of 'dimnames' [1] not equal to array extent",
        ));
    }
    let inv = super::linalg::solve(&r, None, f64::EPSILON)?;
    // tcrossprod(inv): dsyrk's upper triangle, sums over the columns in
    // order, skipping zero multipliers; R mirrors it to the lower.
    let mut unscaled = DMatrix::<f64>::zeros(p, p);
    for j in 0..p {
        for l in 0..p {
            let t = inv[(j, l)];
            if t != 0.0 {
                for i in 0..=j {
                    unscaled[(i, j)] += t * inv[(i, l)];
                }
            }
        }
    }
    for j in 0..p {
        for i in j + 1..p {
            unscaled[(i, j)] = unscaled[(j, i)];
        }
    }
    // sum(stddev^2) of the one response.
    let s2 = stddev * stddev;
    let scaled = unscaled.map(|v| s2 * v);
    let correlation = DMatrix::from_fn(p, p, |i, j| {
        scaled[(i, j)] / (scaled[(i, i)] * scaled[(j, j)]).sqrt()
    });
    let stderr = DMatrix::from_fn(p, 1, |i, _| unscaled[(i, i)].sqrt() * stddev);
    let names = (!xnames.is_empty()).then_some(xnames);
    let square = |m: DMatrix<f64>| dimnamed(Value::Mat(m), names.clone(), names.clone());
    Ok(Value::List(List::named(vec![
        ("std.dev", Value::scalar(stddev)),
        ("hat", Value::Num(hatdiag)),
        ("std.res", Value::Num(stdres)),
        ("stud.res", Value::Num(studres)),
        ("cooks", Value::Num(cooks)),
        ("dfits", Value::Num(dfits)),
        ("correlation", square(correlation)),
        ("std.err", dimnamed(Value::Mat(stderr), names.clone(), None)),
        ("cov.scaled", square(scaled)),
        ("cov.unscaled", square(unscaled)),
    ])))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("ls.out") {
        Some(Type::Record { .. } | Type::List { .. } | Type::Any) | None => {}
        Some(
            Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::Str { .. }
            | Type::Complex { .. }
            | Type::ComplexMat { .. },
        ) => return Err(args.error("ls.out", "$ operator is invalid for atomic vectors")),
        Some(t) => {
            return Err(args.error(
                "ls.out",
                format!(
                    "flowcast's ls.diag takes an lsfit() result, not {}",
                    t.describe()
                ),
            ))
        }
    }
    let vec = || Type::num_unknown();
    let mat = || Type::Mat {
        rows: None,
        cols: None,
    };
    Ok(Type::Record {
        class: "list".into(),
        fields: vec![
            ("std.dev".into(), Type::num(1)),
            ("hat".into(), vec()),
            ("std.res".into(), vec()),
            ("stud.res".into(), vec()),
            ("cooks".into(), vec()),
            ("dfits".into(), vec()),
            ("correlation".into(), mat()),
            ("std.err".into(), mat()),
            ("cov.scaled".into(), mat()),
            ("cov.unscaled".into(), mat()),
        ],
    })
}
