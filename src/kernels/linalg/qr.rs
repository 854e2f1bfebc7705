//! `qr(x)` (R's default LINPACK `dqrdc2`), `qr.Q` and `qr.R`.

use nalgebra::DMatrix;

use super::linpack::{dqrdc2, dqrsl, Job, Qr};
use super::{matrix_dims, ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::value::List;
use crate::kernels::Ctx;

pub(super) fn qr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = matrix_dims(args, "x")?;
    if args.ty("LAPACK").and_then(Type::const_scalar) == Some(1.0) {
        return Err(args.error(
            "LAPACK",
            "qr(LAPACK = TRUE) is not supported; use the default",
        ));
    }
    Ok(Type::record(
        "qr",
        vec![
            ("qr", Type::Mat { rows: n, cols: p }),
            ("rank", Type::num(1)),
            (
                "qraux",
                Type::Num {
                    len: p,
                    value: None,
                },
            ),
            (
                "pivot",
                Type::Num {
                    len: p,
                    value: None,
                },
            ),
        ],
    ))
}

pub(super) fn qr_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::as_matrix(args, "x")?;
    let tol = args.scalar_or("tol", 1e-7)?;
    if args.bool_or("LAPACK", false)? {
        return Err(KernelError::new(
            "qr(LAPACK = TRUE) is not supported; use the default",
        ));
    }
    let (n, p) = x.shape();
    let q = dqrdc2(x.data.into(), n, p, tol);
    Ok(qr_value(q))
}

pub(crate) fn qr_value(q: Qr) -> Value {
    Value::List(List::record(
        "qr",
        vec![
            ("qr", Value::Mat(DMatrix::from_vec(q.n, q.p, q.qr))),
            ("rank", Value::scalar(q.rank as f64)),
            ("qraux", Value::Num(q.qraux)),
            (
                "pivot",
                Value::Num(q.pivot.iter().map(|&i| i as f64).collect()),
            ),
        ],
    ))
}

/// Reads back a `qr` result (from `qr()`, or `lm`'s `qr` field).
fn qr_from_value(args: &Args<&Value>) -> Result<Qr, KernelError> {
    let bad = || KernelError::new("argument is not a QR decomposition");
    let Some(Value::List(l)) = args.get("qr") else {
        return Err(bad());
    };
    let Some(Value::Mat(m)) = l.field("qr") else {
        return Err(bad());
    };
    let (n, p) = m.shape();
    let rank = l.field("rank").and_then(Value::as_scalar).ok_or_else(bad)?;
    let qraux = l
        .field("qraux")
        .and_then(Value::as_f64_slice)
        .ok_or_else(bad)?
        .to_vec();
    let pivot = l
        .field("pivot")
        .and_then(Value::as_f64_slice)
        .ok_or_else(bad)?;
    if qraux.len() != p || pivot.len() != p || !(0.0..=p.min(n) as f64).contains(&rank) {
        return Err(bad());
    }
    Ok(Qr {
        qr: m.as_slice().to_vec(),
        n,
        p,
        rank: rank as usize,
        qraux,
        pivot: pivot.iter().map(|&v| v as usize).collect(),
    })
}

fn qr_arg_dims(args: &Args<Type>) -> Result<(Option<usize>, Option<usize>), ArgError> {
    match args.ty("qr") {
        Some(t @ Type::Record { class, .. })
            if class == "qr" || class == "lm" || class == "aov" =>
        {
            let q = if class != "qr" {
                t.field("qr")
            } else {
                Some(t)
            };
            Ok(q.and_then(|q| q.field("qr"))
                .and_then(Type::dims)
                .unwrap_or((None, None)))
        }
        None | Some(Type::Any) => Ok((None, None)),
        Some(t) => Err(args.error(
            "qr",
            format!("argument is not a QR decomposition ({})", t.describe()),
        )),
    }
}

pub(super) fn q_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = qr_arg_dims(args)?;
    let complete = args.ty("complete").and_then(Type::const_scalar) == Some(1.0);
    let cols = if complete {
        n
    } else {
        n.zip(p).map(|(n, p)| n.min(p))
    };
    Ok(Type::Mat { rows: n, cols })
}

/// `qr.Q`: `qr.qy(qr, D)` with `D` the first columns of the identity;
/// LINPACK applies only the first `rank` reflections.
pub(super) fn q_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let q = qr_from_value(args)?;
    let complete = args.bool_or("complete", false)?;
    let k = if complete { q.n } else { q.n.min(q.p) };
    let dvec = if args.has("Dvec") {
        let d = args.nums("Dvec")?.to_vec();
        if d.len() != k {
            return Err(KernelError::new(format!("'Dvec' must have length {k}")));
        }
        d
    } else {
        vec![1.0; k]
    };
    let mut out = DMatrix::zeros(q.n, k);
    for (j, &dj) in dvec.iter().enumerate() {
        let mut y = vec![0.0; q.n];
        y[j] = dj;
        let r = dqrsl(
            &q,
            q.rank,
            &y,
            Job {
                qy: true,
                ..Job::default()
            },
        );
        out.column_mut(j).copy_from_slice(&r.qy);
    }
    Ok(Value::Mat(out))
}

pub(super) fn r_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = qr_arg_dims(args)?;
    let complete = args.ty("complete").and_then(Type::const_scalar) == Some(1.0);
    let rows = if complete {
        n
    } else {
        n.zip(p).map(|(n, p)| n.min(p))
    };
    Ok(Type::Mat { rows, cols: p })
}

pub(super) fn r_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let q = qr_from_value(args)?;
    let complete = args.bool_or("complete", false)?;
    let rows = if complete { q.n } else { q.n.min(q.p) };
    let r = DMatrix::from_fn(
        rows,
        q.p,
        |i, j| if i <= j { q.qr[j * q.n + i] } else { 0.0 },
    );
    Ok(Value::Mat(r))
}
