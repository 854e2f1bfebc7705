//! `princomp(x, cor, scores)`: R 4.2.2's princomp.default: the
//! covariances of cov.wt with divisor n (its unbiased ones times
//! `1 - 1/n`), their symmetric eigen decomposition, loadings with each
//! column's first entry made non-negative (fix_sign), and the scores of
//! the centred (and, with `cor`, scaled) data. R's `call` field, a
//! language object, has no place in flowcast's values and is left out.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::logical::if_condition;
use super::names::{bare, dimnamed, dimnames, named};
use super::summary::sum;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "princomp",
    params: &[req("x"), opt("cor"), opt("scores"), DOTS],
    random: false,
    shape,
    eval,
}];

/// `x` as R's as.matrix reads a numeric matrix or data frame, with its
/// column names.
pub(crate) fn data_matrix(
    x: &Value,
    func: &str,
) -> Result<(DMatrix<f64>, Option<Vec<String>>), KernelError> {
    match bare(x) {
        Value::Mat(m) => Ok((m.clone(), dimnames(x).1.map(<[String]>::to_vec))),
        v @ (Value::Num(_) | Value::Bool(_)) => {
            let d = v.as_f64_slice().unwrap_or_default();
            Ok((DMatrix::from_column_slice(d.len(), 1, &d), None))
        }
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Ok((super::frame::numeric_matrix(l, func)?, l.names.clone()))
        }
        _ => Err(KernelError::new(format!(
            "{func}() takes a numeric matrix or data frame"
        ))),
    }
}

fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    args.get(name).map_or(Ok(default), if_condition)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if matches!(bare(x), Value::Formula(_)) {
        return Err(KernelError::new(
            "princomp's formula method is not supported; give the variables as a matrix or data frame",
        ));
    }
    let (z, colnames) = data_matrix(x, "princomp")?;
    let cor = flag(args, "cor", false)?;
    let scores = flag(args, "scores", true)?;
    let (n, p) = z.shape();
    if n < p {
        return Err(KernelError::new(
            "'princomp' can only be used with more units than variables",
        ));
    }
    if z.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("'x' must contain finite values only"));
    }
    // cov.wt: wt = 1/n each, center = colSums(wt * x).
    let wt = 1.0 / n as f64;
    let center: Vec<f64> = (0..p)
        .map(|j| {
            sum(
                &z.column(j).iter().map(|v| wt * v).collect::<Vec<_>>(),
                false,
            )
        })
        .collect();
    let xs = DMatrix::from_fn(n, p, |i, j| wt.sqrt() * (z[(i, j)] - center[j]));
    let denom = 1.0 - sum(&vec![wt * wt; n], false);
    let mut cv = (xs.transpose() * &xs).map(|v| v / denom);
    // crossprod's result is symmetric by construction in R (dsyrk).
    for j in 0..p {
        for i in j + 1..p {
            cv[(i, j)] = cv[(j, i)];
        }
    }
    let cv = cv.map(|v| v * (1.0 - 1.0 / n as f64));
    let sds: Vec<f64> = (0..p).map(|j| cv[(j, j)].sqrt()).collect();
    let cv = if cor {
        if sds.contains(&0.0) {
            return Err(KernelError::new(
                "cannot use 'cor = TRUE' with a constant variable",
            ));
        }
        DMatrix::from_fn(p, p, |i, j| cv[(i, j)] / (sds[i] * sds[j]))
    } else {
        cv
    };
    let e = super::linalg::eigen(&cv, Some(true), false, ctx.cancel)?;
    let Value::List(e) = e else {
        return Err(KernelError::new("eigen failed"));
    };
    let mut ev: Vec<f64> = e
        .field("values")
        .and_then(Value::as_f64_slice)
        .map(|v| v.into_owned())
        .unwrap_or_default();
    let Some(Value::Mat(vectors)) = e.field("vectors").map(bare) else {
        return Err(KernelError::new("eigen failed"));
    };
    let first = ev.first().copied().unwrap_or(0.0);
    if ev.iter().any(|&v| v < -9.0 * f64::EPSILON * first) {
        return Err(KernelError::new(
            "covariance matrix is not non-negative definite",
        ));
    }
    ev.iter_mut().filter(|v| **v < 0.0).for_each(|v| *v = 0.0);
    let mut load = vectors.clone();
    for j in 0..p {
        if load[(0, j)] < 0.0 {
            load.column_mut(j).iter_mut().for_each(|v| *v = -*v);
        }
    }
    let comps: Vec<String> = (1..=p).map(|i| format!("Comp.{i}")).collect();
    let sdev: Vec<f64> = ev.iter().map(|v| v.sqrt()).collect();
    let sc: Vec<f64> = if cor { sds } else { vec![1.0; p] };
    let scr = scores.then(|| {
        let centred = DMatrix::from_fn(n, p, |i, j| (z[(i, j)] - center[j]) / sc[j]);
        centred * &load
    });
    let named_vec = |v: Vec<f64>, names: Option<Vec<String>>| match names {
        Some(n) => named(Value::Num(v), n),
        None => Value::Num(v),
    };
    let fields = vec![
        ("sdev", named(Value::Num(sdev), comps.clone())),
        (
            "loadings",
            dimnamed(Value::Mat(load), colnames.clone(), Some(comps.clone())),
        ),
        ("center", named_vec(center, colnames.clone())),
        ("scale", named_vec(sc, colnames)),
        ("n.obs", Value::scalar(n as f64)),
        (
            "scores",
            scr.map_or(Value::Null, |s| dimnamed(Value::Mat(s), None, Some(comps))),
        ),
    ];
    Ok(Value::List(List::record("princomp", fields)))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = match args.ty("x") {
        Some(Type::Mat { rows, cols }) => (*rows, *cols),
        Some(t) => super::frame::type_dims(t).unwrap_or((None, None)),
        None => (None, None),
    };
    let vec = |len| Type::Num { len, value: None };
    Ok(Type::record(
        "princomp",
        vec![
            ("sdev", vec(p)),
            ("loadings", Type::Mat { rows: p, cols: p }),
            ("center", vec(p)),
            ("scale", vec(p)),
            ("n.obs", Type::num(1)),
            ("scores", Type::Mat { rows: n, cols: p }),
        ],
    ))
}
