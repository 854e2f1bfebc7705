//! `qr.solve(a, b, tol)`: R's least-squares solve through LINPACK's QR,
//! `qr.coef(qr(a, tol), b)` (dqrcf: dqrsl per column of b) with the
//! coefficients of aliased columns set to 0, and `a`'s inverse when `b`
//! is missing.

use nalgebra::DMatrix;

use super::linpack::{dqrdc2, dqrsl, Job, Qr};
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::names::{bare, dimnamed, dimnames, named};
use crate::kernels::Ctx;

/// A numeric argument as R's `as.matrix` sees it (a vector is a column),
/// with its column names.
fn matrix_of(v: &Value) -> Option<(DMatrix<f64>, Option<Vec<String>>, bool)> {
    let cols = dimnames(v).1.map(<[String]>::to_vec);
    match bare(v) {
        Value::Mat(m) => Some((m.clone(), cols, true)),
        Value::BoolMat(m) => Some((m.map(crate::kernels::value::logical_f64), cols, true)),
        x @ (Value::Num(_) | Value::Bool(_)) => {
            let d = x.as_f64_slice()?;
            Some((DMatrix::from_column_slice(d.len(), 1, &d), None, false))
        }
        _ => None,
    }
}

/// A `qr` object given as `a`: its fields as [`Qr`].
pub(super) fn qr_of(v: &Value) -> Option<Qr> {
    let Value::List(l) = v else { return None };
    if l.class.as_deref() != Some("qr") {
        return None;
    }
    let Some(Value::Mat(m)) = l.field("qr").map(bare) else {
        return None;
    };
    let (n, p) = m.shape();
    let rank = l.field("rank")?.as_scalar()?;
    let qraux = l.field("qraux")?.as_f64_slice()?.to_vec();
    let pivot = l.field("pivot")?.as_f64_slice()?;
    let ok = qraux.len() == p
        && pivot.len() == p
        && (0.0..=n.min(p) as f64).contains(&rank)
        && pivot.iter().all(|&v| v >= 1.0 && v <= p as f64);
    ok.then(|| Qr {
        qr: m.as_slice().to_vec(),
        n,
        p,
        rank: rank as usize,
        qraux,
        pivot: pivot.iter().map(|&v| v as usize).collect(),
    })
}

pub(super) fn qr_solve_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let a = args
        .get("a")
        .ok_or_else(|| KernelError::new("argument \"a\" is missing, with no default"))?;
    let tol = match args.get("tol").map(bare) {
        None => 1e-7,
        Some(v) => v
            .as_scalar()
            .filter(|t| !t.is_nan())
            .ok_or_else(|| KernelError::new("invalid 'tol' value"))?,
    };
    let (q, names) = match qr_of(a) {
        Some(q) => (q, None),
        None => {
            let Some((m, cols, _)) = matrix_of(a) else {
                return Err(KernelError::new(
                    "NA/NaN/Inf in foreign function call (arg 1)",
                ));
            };
            if m.iter().any(|v| !v.is_finite()) {
                return Err(KernelError::new(
                    "NA/NaN/Inf in foreign function call (arg 1)",
                ));
            }
            let (n, p) = m.shape();
            (dqrdc2(m.as_slice().to_vec(), n, p, tol), cols)
        }
    };
    let (n, p) = (q.n, q.p);
    if q.rank != n.min(p) {
        return Err(KernelError::new("singular matrix 'a' in solve"));
    }
    let (y, ycols, im) = match args.get("b") {
        None => {
            if n != p {
                return Err(KernelError::new("only square matrices can be inverted"));
            }
            (DMatrix::identity(p, p), None, true)
        }
        Some(b) => matrix_of(b)
            .ok_or_else(|| KernelError::new("'qr' and 'y' must have the same number of rows"))?,
    };
    let ny = y.ncols();
    if p == 0 {
        return Ok(if im {
            Value::Mat(DMatrix::zeros(0, ny))
        } else {
            Value::Num(Vec::new())
        });
    }
    let k = q.rank;
    let mut coef = DMatrix::from_element(p, ny, 0.0);
    if k > 0 {
        if y.nrows() != n {
            return Err(KernelError::new(
                "'qr' and 'y' must have the same number of rows",
            ));
        }
        for j in 0..ny {
            let col: Vec<f64> = y.column(j).iter().copied().collect();
            let r = dqrsl(
                &q,
                k,
                &col,
                Job {
                    b: true,
                    ..Job::default()
                },
            );
            if r.info != 0 {
                return Err(KernelError::new("exact singularity in 'qr.coef'"));
            }
            // `coef[pivot[1:k], ] <- z$coef`; the rest are NA, then 0.
            for (i, &b) in r.b.iter().enumerate() {
                coef[(q.pivot[i] - 1, j)] = if b.is_nan() { 0.0 } else { b };
            }
        }
    }
    // rownames(coef) <- colnames(qr$qr), pivoted when k < p.
    let rownames = names.filter(|n| n.len() == p);
    Ok(if im {
        dimnamed(Value::Mat(coef), rownames, ycols)
    } else {
        let v = Value::Num(coef.column(0).iter().copied().collect());
        match rownames {
            Some(r) => named(v, r),
            None => v,
        }
    })
}

pub(super) fn qr_solve_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let p = match args.ty("a") {
        Some(Type::Mat { cols, .. } | Type::BoolMat { cols, .. }) => *cols,
        Some(Type::Num { .. } | Type::Bool { .. }) => Some(1),
        _ => None,
    };
    Ok(match args.ty("b") {
        None => Type::Mat { rows: p, cols: p },
        Some(Type::Mat { cols, .. } | Type::BoolMat { cols, .. }) => Type::Mat {
            rows: p,
            cols: *cols,
        },
        Some(Type::Num { .. } | Type::Bool { .. }) => Type::Num {
            len: p,
            value: None,
        },
        Some(_) => Type::Any,
    })
}
