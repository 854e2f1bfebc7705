//! `lm.fit(x, y, offset, method, tol, singular.ok)`: R 4.2.2's lm.fit,
//! the least-squares fit of `y` on the model matrix `x` through `Cdqrls`
//! (LINPACK `dqrdc2` once, `dqrsl` per response column): coefficients in
//! the columns' order with NA for aliased ones, residuals, effects, rank,
//! fitted values, assign, the `qr` object and the residual degrees of
//! freedom, as a plain list.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::names::{bare, dimnamed, dimnames, named};
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "lm.fit",
    params: &[
        req("x"),
        req("y"),
        opt("offset"),
        opt("method"),
        opt("tol"),
        opt("singular.ok"),
        DOTS,
    ],
    random: false,
    shape,
    eval,
}];

fn numbers(v: &Value) -> Option<Vec<f64>> {
    match bare(v) {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
            Some(bare(v).as_f64_slice()?.into_owned())
        }
        _ => None,
    }
}

/// A vector, or a matrix when the response was one with several columns.
fn shaped(data: Vec<f64>, n: usize, ny: usize, matrix: bool) -> Value {
    if matrix {
        Value::Mat(DMatrix::from_vec(n, ny, data))
    } else {
        Value::Num(data)
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let xv = args.get("x").ok_or_else(|| missing("x"))?;
    let yv = args.get("y").ok_or_else(|| missing("y"))?;
    let Some((n, p)) = xv.dims() else {
        return Err(KernelError::new("'x' must be a matrix"));
    };
    if n == 0 {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    let x = numbers(xv).ok_or_else(|| KernelError::new("NA/NaN/Inf in 'x'"))?;
    let y_dims = yv.dims();
    let ny = y_dims.map_or(1, |(_, c)| c);
    // A one-column matrix response is treated as a vector.
    let matrix = ny != 1 && y_dims.is_some();
    let mut y = numbers(yv).ok_or_else(|| KernelError::new("NA/NaN/Inf in 'y'"))?;
    if p == 0 {
        return Ok(Value::List(List {
            class: None,
            names: Some(
                [
                    "coefficients",
                    "residuals",
                    "fitted.values",
                    "rank",
                    "df.residual",
                ]
                .map(String::from)
                .to_vec(),
            ),
            items: vec![
                Value::Num(Vec::new()),
                yv.clone(),
                shaped(
                    y.iter().map(|v| 0.0 * v).collect(),
                    y.len() / ny.max(1),
                    ny,
                    matrix,
                ),
                Value::scalar(0.0),
                Value::scalar(y.len() as f64),
            ],
            row_names: None,
        }));
    }
    let offset = match args.get("offset").map(bare) {
        None | Some(Value::Null) => None,
        Some(o) => Some(
            numbers(o)
                .ok_or_else(|| KernelError::new("non-numeric argument to binary operator"))?,
        ),
    };
    if let Some(o) = &offset {
        if o.is_empty() {
            return Err(KernelError::new("incompatible dimensions"));
        }
        for (i, v) in y.iter_mut().enumerate() {
            *v -= o[i % o.len()];
        }
    }
    let nrow_y = y_dims.map_or(y.len(), |(r, _)| r);
    if nrow_y != n {
        return Err(KernelError::new("incompatible dimensions"));
    }
    let tol = match args.get("tol").map(bare) {
        None => 1e-7,
        Some(t) => t.as_scalar().unwrap_or(NA),
    };
    if let Some(Value::Str(m)) = args.get("method").map(bare) {
        if m.first().is_some_and(|m| m != "qr") {
            ctx.warn(format!("method = '{}' is not supported. Using 'qr'", m[0]));
        }
    }
    if x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    if y.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'y'"));
    }
    let q = dqrdc2(x, n, p, tol);
    let k = q.rank;
    let singular_ok = match args.get("singular.ok") {
        Some(s) => super::triangle::if_condition(s)?,
        None => true,
    };
    if !singular_ok && k < p {
        return Err(KernelError::new("singular fit encountered"));
    }
    let mut coef = vec![NA; p * ny];
    let mut residuals = Vec::with_capacity(n * ny);
    let mut effects = Vec::with_capacity(n * ny);
    for j in 0..ny {
        let col = &y[j * n..(j + 1) * n];
        let r = dqrsl(
            &q,
            k,
            col,
            Job {
                qty: true,
                b: true,
                rsd: true,
                ..Job::default()
            },
        );
        // `coef[r2] <- NA; coef[pivot] <- coef`.
        for (i, &b) in r.b.iter().take(k).enumerate() {
            coef[j * p + q.pivot[i] - 1] = b;
        }
        if k == 0 {
            residuals.extend_from_slice(col);
            effects.extend_from_slice(col);
        } else {
            residuals.extend(r.rsd);
            effects.extend(r.qty);
        }
    }
    let mut fitted: Vec<f64> = y.iter().zip(&residuals).map(|(y, r)| y - r).collect();
    if let Some(o) = &offset {
        for (i, v) in fitted.iter_mut().enumerate() {
            *v += o[i % o.len()];
        }
    }
    // Names as lm.fit gives them: x's column names (else x1, x2, ...),
    // the effects by the pivoted columns then "".
    let cols = dimnames(xv).1.map(<[String]>::to_vec);
    let dn: Vec<String> = cols
        .clone()
        .unwrap_or_else(|| (1..=p).map(|i| format!("x{i}")).collect());
    let mut nmeffects: Vec<String> = q.pivot[..k].iter().map(|&i| dn[i - 1].clone()).collect();
    nmeffects.resize(n, String::new());
    let ycols = dimnames(yv).1.map(<[String]>::to_vec);
    let (coef, effects) = if matrix {
        (
            dimnamed(
                Value::Mat(DMatrix::from_vec(p, ny, coef)),
                Some(dn),
                ycols.clone(),
            ),
            dimnamed(
                Value::Mat(DMatrix::from_vec(n, ny, effects)),
                Some(nmeffects),
                ycols,
            ),
        )
    } else {
        (
            named(Value::Num(coef), dn),
            named(Value::Num(effects), nmeffects),
        )
    };
    let pivoted = q.pivot.iter().enumerate().any(|(i, &v)| v != i + 1);
    let qr_cols = cols
        .filter(|_| pivoted)
        .map(|c| q.pivot.iter().map(|&i| c[i - 1].clone()).collect());
    let qr_cols = qr_cols.or_else(|| dimnames(xv).1.map(<[String]>::to_vec));
    let qr_mat = dimnamed(
        Value::Mat(DMatrix::from_vec(n, p, q.qr.clone())),
        dimnames(xv).0.map(<[String]>::to_vec),
        qr_cols,
    );
    let qr = List::record(
        "qr",
        vec![
            ("qr", qr_mat),
            ("qraux", Value::Num(q.qraux.clone())),
            (
                "pivot",
                Value::Num(q.pivot.iter().map(|&i| i as f64).collect()),
            ),
            ("tol", Value::scalar(tol)),
            ("rank", Value::scalar(k as f64)),
        ],
    );
    let fields: Vec<(&str, Value)> = vec![
        ("coefficients", coef),
        ("residuals", shaped(residuals, n, ny, matrix)),
        ("effects", effects),
        ("rank", Value::scalar(k as f64)),
        ("fitted.values", shaped(fitted, n, ny, matrix)),
        ("assign", Value::Null),
        ("qr", Value::List(qr)),
        ("df.residual", Value::scalar((n - k) as f64)),
    ];
    Ok(Value::List(List::named(fields)))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = match args.ty("x") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => (*rows, *cols),
        _ => (None, None),
    };
    let vec = |len| Type::Num { len, value: None };
    Ok(Type::Record {
        class: "list".into(),
        fields: vec![
            ("coefficients".into(), vec(p)),
            ("residuals".into(), vec(n)),
            ("effects".into(), vec(n)),
            ("rank".into(), Type::num(1)),
            ("fitted.values".into(), vec(n)),
            ("assign".into(), Type::Null),
            (
                "qr".into(),
                Type::record(
                    "qr",
                    vec![
                        ("qr", Type::Mat { rows: n, cols: p }),
                        ("qraux", vec(p)),
                        ("pivot", vec(p)),
                        ("tol", Type::num(1)),
                        ("rank", Type::num(1)),
                    ],
                ),
            ),
            ("df.residual".into(), Type::num(1)),
        ],
    })
}
