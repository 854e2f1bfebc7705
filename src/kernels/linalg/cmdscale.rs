//! `cmdscale(d, k = 2, eig = FALSE)`: classical multidimensional scaling as
//! R's `cmdscale` computes it: squared distances, double centred (R's C
//! `DoubleCentre`: row means, then column means), the symmetric eigen of
//! `-x / 2`, and the first `k` vectors scaled by the square roots of their
//! values.

use nalgebra::DMatrix;

use super::eigen::eigen;
use super::{ArgError, Args, KernelError, ShapeCtx, Type, Value};
use crate::kernels::summary::sum;
use crate::kernels::value::List;
use crate::kernels::Ctx;

pub(super) fn cmdscale_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match args.ty("d") {
        Some(t @ Type::Record { class, .. }) if class == "dist" => t
            .field("size")
            .and_then(Type::const_scalar)
            .map(|s| s as usize),
        Some(Type::Mat { rows, cols }) => {
            if let (Some(r), Some(c)) = (rows, cols) {
                if r != c {
                    return Err(
                        args.error("d", "distances must be result of 'dist' or a square matrix")
                    );
                }
            }
            *rows
        }
        None | Some(Type::Any) => None,
        Some(t) => {
            return Err(args.error(
                "d",
                format!(
                    "distances must be result of 'dist' or a square matrix, not {}",
                    t.describe()
                ),
            ))
        }
    };
    let k = args.const_scalar_or("k", Some(2.0))?;
    if let (Some(k), Some(n)) = (k, n) {
        if k < 1.0 || k > n as f64 - 1.0 {
            return Err(args.error("k", "'k' must be in {1, 2, ..  n - 1}"));
        }
    }
    for flag in ["add", "x.ret"] {
        if args.ty(flag).and_then(Type::const_scalar) == Some(1.0) {
            return Err(args.error(flag, unsupported(flag)));
        }
    }
    let k = k.map(|k| k as usize);
    let points = Type::Mat { rows: n, cols: k };
    let list = args
        .ty("eig")
        .or(args.ty("list."))
        .and_then(Type::const_scalar)
        == Some(1.0);
    Ok(if list {
        Type::record(
            "cmdscale",
            vec![
                ("points", points),
                (
                    "eig",
                    Type::Num {
                        len: n,
                        value: None,
                    },
                ),
                ("x", Type::Null),
                ("ac", Type::num(1)),
                ("GOF", Type::num(2)),
            ],
        )
    } else {
        points
    })
}

fn unsupported(flag: &str) -> String {
    format!("cmdscale({flag} = TRUE) is not supported by flowcast yet")
}

pub(super) fn cmdscale_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    for flag in ["add", "x.ret"] {
        if args.bool_or(flag, false)? {
            return Err(KernelError::new(unsupported(flag)));
        }
    }
    let square = |v: f64| v * v;
    let mut x = match args.get("d") {
        Some(d @ Value::List(l)) if l.class.as_deref() == Some("dist") => {
            let values = d.dist_values().unwrap_or_default();
            let n = match l.field("size").and_then(Value::as_scalar) {
                Some(s) if s >= 0.0 && s.fract() == 0.0 => s as usize,
                _ => return Err(KernelError::new("invalid 'dist' object")),
            };
            if n.checked_mul(n.saturating_sub(1)).map(|m| m / 2) != Some(values.len()) {
                return Err(KernelError::new("invalid 'dist' object"));
            }
            if values.iter().any(|v| v.is_nan()) {
                return Err(KernelError::new("NA values not allowed in 'd'"));
            }
            let mut x = DMatrix::<f64>::zeros(n, n);
            let mut at = 0;
            for j in 0..n {
                for i in j + 1..n {
                    let v = square(values[at]);
                    x[(i, j)] = v;
                    x[(j, i)] = v;
                    at += 1;
                }
            }
            x
        }
        Some(Value::Mat(m)) => {
            if m.iter().any(|v| v.is_nan()) {
                return Err(KernelError::new("NA values not allowed in 'd'"));
            }
            if m.nrows() != m.ncols() {
                return Err(KernelError::new(
                    "distances must be result of 'dist' or a square matrix",
                ));
            }
            m.map(square)
        }
        Some(Value::Num(v)) if v.iter().any(|v| v.is_nan()) => {
            return Err(KernelError::new("NA values not allowed in 'd'"))
        }
        _ => {
            return Err(KernelError::new(
                "distances must be result of 'dist' or a square matrix",
            ))
        }
    };
    let n = x.nrows();
    let k = args.scalar_or("k", 2.0)?;
    if k.is_nan() || k.trunc() > n as f64 - 1.0 || k.trunc() < 1.0 {
        return Err(KernelError::new("'k' must be in {1, 2, ..  n - 1}"));
    }
    let k = k.trunc() as usize;
    double_centre(&mut x);
    let half = x.map(|v| -v / 2.0);
    let e = eigen(&half, Some(true), false, ctx.cancel)?;
    let (values, vectors) = match &e {
        Value::List(l) => match (l.field("values"), l.field("vectors")) {
            (Some(Value::Num(v)), Some(Value::Mat(m))) => (v.clone(), m.clone()),
            _ => return Err(KernelError::new("eigen decomposition failed")),
        },
        _ => return Err(KernelError::new("eigen decomposition failed")),
    };
    let ev: Vec<f64> = values[..k].to_vec();
    let positive: Vec<usize> = (0..k).filter(|&i| ev[i] > 0.0).collect();
    if positive.len() < k {
        ctx.warn(format!(
            "only {} of the first {k} eigenvalues are > 0",
            positive.len()
        ));
    }
    let mut points = DMatrix::<f64>::zeros(n, positive.len());
    for (c, &i) in positive.iter().enumerate() {
        let s = ev[i].sqrt();
        for r in 0..n {
            points[(r, c)] = vectors[(r, i)] * s;
        }
    }
    let list = args.bool_or("eig", false)? || args.bool_or("list.", false)?;
    if !list {
        return Ok(Value::Mat(points));
    }
    let kept: Vec<f64> = positive.iter().map(|&i| ev[i]).collect();
    let sum_ev = sum(&kept, false);
    let abs = sum(&values.iter().map(|v| v.abs()).collect::<Vec<_>>(), false);
    let pos = sum(
        &values.iter().map(|v| v.max(0.0)).collect::<Vec<_>>(),
        false,
    );
    let eig = if args.bool_or("eig", false)? {
        Value::Num(values)
    } else {
        Value::Null
    };
    Ok(Value::List(List::record(
        "cmdscale",
        vec![
            ("points", Value::Mat(points)),
            ("eig", eig),
            ("x", Value::Null),
            ("ac", Value::scalar(0.0)),
            ("GOF", Value::Num(vec![sum_ev / abs, sum_ev / pos])),
        ],
    )))
}

/// R's C `DoubleCentre`: subtract each row's mean, then each column's.
fn double_centre(a: &mut DMatrix<f64>) {
    let n = a.nrows();
    for i in 0..n {
        let mut xx = 0.0;
        for j in 0..n {
            xx += a[(i, j)];
        }
        xx /= n as f64;
        for j in 0..n {
            a[(i, j)] -= xx;
        }
    }
    for j in 0..n {
        let mut xx = 0.0;
        for i in 0..n {
            xx += a[(i, j)];
        }
        xx /= n as f64;
        for i in 0..n {
            a[(i, j)] -= xx;
        }
    }
}
