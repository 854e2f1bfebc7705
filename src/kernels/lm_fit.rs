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

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
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
    },
    Kernel {
        name: "lm.wfit",
        params: &[
            req("x"),
            req("y"),
            req("w"),
            opt("offset"),
            opt("method"),
            opt("tol"),
            opt("singular.ok"),
            DOTS,
        ],
        random: false,
        shape: wfit_shape,
        eval: wfit_eval,
    },
];

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

/// lm.fit's and lm.wfit's `x` and `y`, checked as both check them.
struct Inputs<'a> {
    xv: &'a Value,
    yv: &'a Value,
    x: Vec<f64>,
    y: Vec<f64>,
    /// Rows and columns of `x`.
    n: usize,
    p: usize,
    /// Columns of `y`, and whether it stays a matrix.
    ny: usize,
    matrix: bool,
}

fn inputs<'a>(args: &'a Args<&'a Value>) -> Result<Inputs<'a>, KernelError> {
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
    let y = numbers(yv).ok_or_else(|| KernelError::new("NA/NaN/Inf in 'y'"))?;
    Ok(Inputs {
        xv,
        yv,
        x,
        y,
        n,
        p,
        ny,
        matrix,
    })
}

/// `tol`, after R's warning for a `method` other than "qr", which both
/// fits give before they call Cdqrls.
fn tolerance(args: &Args<&Value>, ctx: &mut Ctx) -> f64 {
    if let Some(Value::Str(m)) = args.get("method").map(bare) {
        if m.first().is_some_and(|m| m != "qr") {
            ctx.warn(format!("method = '{}' is not supported. Using 'qr'", m[0]));
        }
    }
    match args.get("tol").map(bare) {
        None => 1e-7,
        Some(t) => t.as_scalar().unwrap_or(NA),
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Inputs {
        xv,
        yv,
        x,
        mut y,
        n,
        p,
        ny,
        matrix,
    } = inputs(args)?;
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
    let nrow_y = yv.dims().map_or(y.len(), |(r, _)| r);
    if nrow_y != n {
        return Err(KernelError::new("incompatible dimensions"));
    }
    let tol = tolerance(args, ctx);
    let z = cdqrls(x, n, p, &y, ny, tol, args.get("singular.ok"))?;
    let mut fitted: Vec<f64> = y.iter().zip(&z.residuals).map(|(y, r)| y - r).collect();
    if let Some(o) = &offset {
        for (i, v) in fitted.iter_mut().enumerate() {
            *v += o[i % o.len()];
        }
    }
    let rownames = dimnames(xv).0.map(<[String]>::to_vec);
    let parts = z.named(xv, rownames, yv, matrix);
    let fields: Vec<(&str, Value)> = vec![
        ("coefficients", parts.coef),
        ("residuals", shaped(z.residuals, n, ny, matrix)),
        ("effects", parts.effects),
        ("rank", Value::scalar(z.q.rank as f64)),
        ("fitted.values", shaped(fitted, n, ny, matrix)),
        ("assign", Value::Null),
        ("qr", parts.qr),
        ("df.residual", Value::scalar((n - z.q.rank) as f64)),
    ];
    Ok(Value::List(List::named(fields)))
}

/// What `.Call(C_Cdqrls, x, y, tol)` gives lm.fit and lm.wfit: the QR of
/// `x` (n x p), and per column of `y` the coefficients (in x's column
/// order, NA for the aliased ones, as both put them back with
/// `coef[pivot] <- coef`), residuals and effects.
struct Cdqrls {
    q: super::linalg::linpack::Qr,
    coef: Vec<f64>,
    residuals: Vec<f64>,
    effects: Vec<f64>,
    n: usize,
    p: usize,
    ny: usize,
    tol: f64,
}

/// The named parts of a [`Cdqrls`].
struct Named {
    coef: Value,
    effects: Value,
    qr: Value,
}

fn cdqrls(
    x: Vec<f64>,
    n: usize,
    p: usize,
    y: &[f64],
    ny: usize,
    tol: f64,
    singular_ok: Option<&Value>,
) -> Result<Cdqrls, KernelError> {
    if x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    if y.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'y'"));
    }
    let q = dqrdc2(x, n, p, tol);
    let k = q.rank;
    let singular_ok = match singular_ok {
        Some(s) => super::logical::if_condition(s)?,
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
    Ok(Cdqrls {
        q,
        coef,
        residuals,
        effects,
        n,
        p,
        ny,
        tol,
    })
}

impl Cdqrls {
    /// Names as lm.fit and lm.wfit give them: x's column names (else x1,
    /// x2, ...) on the coefficients, the effects by the pivoted columns
    /// then "", and the `qr` object whose rows are `rownames`.
    fn named(&self, xv: &Value, rownames: Option<Vec<String>>, yv: &Value, matrix: bool) -> Named {
        let (n, p, ny, k) = (self.n, self.p, self.ny, self.q.rank);
        let q = &self.q;
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
                    Value::Mat(DMatrix::from_vec(p, ny, self.coef.clone())),
                    Some(dn),
                    ycols.clone(),
                ),
                dimnamed(
                    Value::Mat(DMatrix::from_vec(n, ny, self.effects.clone())),
                    Some(nmeffects),
                    ycols,
                ),
            )
        } else {
            (
                named(Value::Num(self.coef.clone()), dn),
                named(Value::Num(self.effects.clone()), nmeffects),
            )
        };
        let pivoted = q.pivot.iter().enumerate().any(|(i, &v)| v != i + 1);
        let qr_cols = cols
            .clone()
            .filter(|_| pivoted)
            .map(|c| q.pivot.iter().map(|&i| c[i - 1].clone()).collect());
        let qr_cols = qr_cols.or(cols);
        let qr_mat = dimnamed(
            Value::Mat(DMatrix::from_vec(n, p, q.qr.clone())),
            rownames,
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
                ("tol", Value::scalar(self.tol)),
                ("rank", Value::scalar(k as f64)),
            ],
        );
        Named {
            coef,
            effects,
            qr: Value::List(qr),
        }
    }
}

/// `lm.wfit(x, y, w, offset, method, tol, singular.ok)`: R 4.2.2's
/// lm.wfit. Rows of zero weight are set aside, the others scaled by
/// √w and fitted by Cdqrls as lm.fit fits; the set-aside rows get
/// `x0 %*% coef` (aliased coefficients as 0) as fitted values, and the
/// list is lm.fit's with the `weights`, in lm.wfit's order.
fn wfit_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Inputs {
        xv,
        yv,
        x,
        mut y,
        n: n_all,
        p,
        ny,
        matrix,
    } = inputs(args)?;
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
    let wv = args
        .get("w")
        .ok_or_else(|| KernelError::new("argument \"w\" is missing, with no default"))?;
    let nrow_y = yv.dims().map_or(y.len(), |(r, _)| r);
    if nrow_y != n_all || wv.len() != n_all {
        return Err(KernelError::new("incompatible dimensions"));
    }
    let w =
        numbers(wv).ok_or_else(|| KernelError::new("missing or negative weights not allowed"))?;
    if w.iter().any(|&w| w.is_nan() || w < 0.0) {
        return Err(KernelError::new("missing or negative weights not allowed"));
    }
    let tol = tolerance(args, ctx);
    let ok: Vec<usize> = (0..n_all).filter(|&i| w[i] != 0.0).collect();
    let nok: Vec<usize> = (0..n_all).filter(|&i| w[i] == 0.0).collect();
    let n = ok.len();
    let rows_of = |v: &[f64], width: usize, rows: &[usize]| -> Vec<f64> {
        (0..width)
            .flat_map(|j| rows.iter().map(move |&i| v[j * n_all + i]))
            .collect()
    };
    let ys = rows_of(&y, ny, &ok);
    let ws: Vec<f64> = ok.iter().map(|&i| w[i]).collect();
    if p == 0 || n == 0 {
        // The null model, or every case of weight zero: R's short lists,
        // of the rows of nonzero weight.
        let coef = Value::Num(vec![NA; if n == 0 { p } else { 0 }]);
        let zeros: Vec<f64> = ys.iter().map(|v| 0.0 * v).collect();
        return Ok(Value::List(List::named(vec![
            ("coefficients", coef),
            ("residuals", shaped(ys.clone(), n, ny, matrix)),
            ("fitted.values", shaped(zeros, n, ny, matrix)),
            ("weights", Value::Num(ws)),
            ("rank", Value::scalar(0.0)),
            (
                "df.residual",
                Value::scalar(if n == 0 { 0.0 } else { ys.len() as f64 }),
            ),
        ])));
    }
    let wts: Vec<f64> = ws.iter().map(|w| w.sqrt()).collect();
    let mut xw = rows_of(&x, p, &ok);
    for j in 0..p {
        for i in 0..n {
            xw[j * n + i] *= wts[i];
        }
    }
    let mut yw = ys.clone();
    for j in 0..ny {
        for i in 0..n {
            yw[j * n + i] *= wts[i];
        }
    }
    let z = cdqrls(xw, n, p, &yw, ny, tol, args.get("singular.ok"))?;
    let resid: Vec<f64> = z
        .residuals
        .iter()
        .enumerate()
        .map(|(i, r)| r / wts[i % n])
        .collect();
    let fit: Vec<f64> = ys.iter().zip(&resid).map(|(y, r)| y - r).collect();
    let (residuals, mut fitted, n_out) = if nok.is_empty() {
        (resid, fit, n)
    } else {
        // f0 <- x0 %*% coef, the aliased coefficients taken as 0.
        let mut save_r = y.clone();
        let mut save_f = y.clone();
        for j in 0..ny {
            for (k, &i) in ok.iter().enumerate() {
                save_r[j * n_all + i] = resid[j * n + k];
                save_f[j * n_all + i] = fit[j * n + k];
            }
            for &i in &nok {
                let mut f0 = 0.0;
                for l in 0..p {
                    let b = z.coef[j * p + l];
                    f0 += x[l * n_all + i] * if b.is_nan() { 0.0 } else { b };
                }
                save_r[j * n_all + i] = y[j * n_all + i] - f0;
                save_f[j * n_all + i] = f0;
            }
        }
        (save_r, save_f, n_all)
    };
    if let Some(o) = &offset {
        for (i, v) in fitted.iter_mut().enumerate() {
            *v += o[i % o.len()];
        }
    }
    let rownames = dimnames(xv)
        .0
        .map(|r| ok.iter().map(|&i| r[i].clone()).collect());
    let parts = z.named(xv, rownames, yv, matrix);
    let fields: Vec<(&str, Value)> = vec![
        ("coefficients", parts.coef),
        ("residuals", shaped(residuals, n_out, ny, matrix)),
        ("fitted.values", shaped(fitted, n_out, ny, matrix)),
        ("effects", parts.effects),
        ("weights", Value::Num(w)),
        ("rank", Value::scalar(z.q.rank as f64)),
        ("assign", Value::Null),
        ("qr", parts.qr),
        ("df.residual", Value::scalar((n - z.q.rank) as f64)),
    ];
    Ok(Value::List(List::named(fields)))
}

fn wfit_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Type::Record { fields, .. } = shape(args, ctx)? else {
        return Ok(Type::Any);
    };
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or(Type::Any, |(_, t)| t.clone())
    };
    let order = [
        "coefficients",
        "residuals",
        "fitted.values",
        "effects",
        "weights",
        "rank",
        "assign",
        "qr",
        "df.residual",
    ];
    Ok(Type::Record {
        class: "list".into(),
        fields: order
            .iter()
            .map(|&name| {
                let t = if name == "weights" {
                    Type::num_unknown()
                } else {
                    field(name)
                };
                (name.to_string(), t)
            })
            .collect(),
    })
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

pub(super) static LSFIT: &[Kernel] = &[Kernel {
    name: "lsfit",
    params: &[
        req("x"),
        req("y"),
        opt("wt"),
        opt("intercept"),
        opt("tolerance"),
        opt("yname"),
    ],
    random: false,
    shape: lsfit_shape,
    eval: lsfit_eval,
}];

/// R's `lsfit(x, y, wt, intercept, tolerance)` (stats/R/lsfit.R) for one
/// response: rows with NA dropped (with R's warning), the weighted rows
/// scaled by √wt, `Cdqrls` as lm.fit calls it, and R's list with the
/// coefficients in Cdqrls's (pivoted) order named by the columns,
/// residuals with NA at the dropped rows, and the `qr` object.
fn lsfit_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").unwrap_or(&Value::Null);
    let yv = args.get("y").unwrap_or(&Value::Null);
    if yv.dims().is_some_and(|(_, c)| c != 1) {
        return Err(KernelError::new(
            "flowcast's lsfit takes one response (a vector 'y')",
        ));
    }
    if args.get("yname").is_some_and(|v| !matches!(v, Value::Null)) {
        return Err(KernelError::new("flowcast's lsfit takes no 'yname'"));
    }
    let not_numeric = || KernelError::new("flowcast's lsfit takes numeric 'x', 'y' and 'wt'");
    let x = numbers(xv).ok_or_else(not_numeric)?;
    let y = numbers(yv).ok_or_else(not_numeric)?;
    let (nrx, p0) = xv.dims().unwrap_or((x.len(), 1));
    let wt = match args.get("wt").map(bare) {
        None | Some(Value::Null) => None,
        Some(w) => Some(numbers(w).ok_or_else(not_numeric)?),
    };
    let intercept = match args.get("intercept") {
        None => true,
        Some(v) => super::logical::if_condition(bare(v))?,
    };
    let tol = match args.get("tolerance").map(bare) {
        None => 1e-7,
        Some(t) => t.as_scalar().unwrap_or(NA),
    };
    let mut xnames: Vec<String> = match dimnames(xv).1 {
        Some(c) => c.to_vec(),
        None if p0 == 1 => vec!["X".to_string()],
        None => (1..=p0).map(|i| format!("X{i}")).collect(),
    };
    let mut cols: Vec<Vec<f64>> = (0..p0)
        .map(|j| x[j * nrx..(j + 1) * nrx].to_vec())
        .collect();
    if intercept {
        cols.insert(0, vec![1.0; nrx]);
        xnames.insert(0, "Intercept".to_string());
    }
    let ncx = cols.len();
    // complete.cases(x, y, wt)
    if y.len() != nrx || wt.as_ref().is_some_and(|w| w.len() != nrx) {
        return Err(KernelError::new("not all arguments have the same length"));
    }
    let good: Vec<bool> = (0..nrx)
        .map(|i| {
            cols.iter().all(|c| !c[i].is_nan())
                && !y[i].is_nan()
                && wt.as_ref().is_none_or(|w| !w[i].is_nan())
        })
        .collect();
    let dropped = good.iter().filter(|g| !**g).count();
    if dropped > 0 {
        ctx.warn(if dropped == 1 {
            "1 missing value deleted".to_string()
        } else {
            format!("{dropped} missing values deleted")
        });
    }
    let rows: Vec<usize> = (0..nrx).filter(|&i| good[i]).collect();
    let n = rows.len();
    let mut xm: Vec<f64> = cols
        .iter()
        .flat_map(|c| rows.iter().map(|&i| c[i]).collect::<Vec<_>>())
        .collect();
    let mut ym: Vec<f64> = rows.iter().map(|&i| y[i]).collect();
    let wg: Option<Vec<f64>> = wt.as_ref().map(|w| rows.iter().map(|&i| w[i]).collect());
    if n < ncx {
        let cases = if n == 1 { "case" } else { "cases" };
        let vars = if ncx == 1 { "variable" } else { "variables" };
        return Err(KernelError::new(format!(
            "only {n} {cases}, but {ncx} {vars}"
        )));
    }
    let x_unweighted = xm.clone();
    let y_unweighted = ym.clone();
    if let Some(w) = &wg {
        if w.iter().any(|&w| w < 0.0) {
            return Err(KernelError::new("negative weights not allowed"));
        }
        for j in 0..ncx {
            for i in 0..n {
                xm[j * n + i] *= w[i].sqrt();
            }
        }
        for i in 0..n {
            ym[i] *= w[i].sqrt();
        }
    }
    let z = super::linalg::linpack::dqrls(xm, n, ncx, &ym, tol);
    let mut resid = z.residuals.clone();
    if let Some(w) = &wg {
        for i in 0..n {
            if w[i] == 0.0 {
                let fitted: f64 = if ncx == 1 {
                    x_unweighted[i] * z.coef[0]
                } else {
                    let mut s = 0.0;
                    for j in 0..ncx {
                        s += x_unweighted[j * n + i] * z.coef[j];
                    }
                    s
                };
                resid[i] = y_unweighted[i] - fitted;
            }
        }
        for i in 0..n {
            let inv = 1.0 / if w[i] == 0.0 { 1.0 } else { w[i].sqrt() };
            resid[i] *= inv;
        }
    }
    let mut residuals = vec![NA; nrx];
    for (k, &i) in rows.iter().enumerate() {
        residuals[i] = resid[k];
    }
    let coef = named(Value::Num(z.coef.clone()), xnames.clone());
    let rank = z.qr.rank;
    let qr_names = if rank != ncx {
        ctx.warn("'X' matrix was collinear");
        z.qr.pivot.iter().map(|&i| xnames[i - 1].clone()).collect()
    } else {
        xnames
    };
    let mut fields: Vec<(&str, Value)> =
        vec![("coefficients", coef), ("residuals", Value::Num(residuals))];
    if let Some(w) = &wt {
        let mut weights = vec![NA; nrx];
        for &i in &rows {
            weights[i] = w[i];
        }
        fields.push(("wt", Value::Num(weights)));
    }
    let qr = List::record(
        "qr",
        vec![
            ("qt", Value::Num(z.effects.clone())),
            (
                "qr",
                dimnamed(
                    Value::Mat(DMatrix::from_vec(n, ncx, z.qr.qr.clone())),
                    None,
                    Some(qr_names),
                ),
            ),
            ("qraux", Value::Num(z.qr.qraux.clone())),
            ("rank", Value::scalar(rank as f64)),
            (
                "pivot",
                Value::Num(z.qr.pivot.iter().map(|&i| i as f64).collect()),
            ),
            ("tol", Value::scalar(tol)),
        ],
    );
    fields.push(("intercept", Value::Bool(vec![Some(intercept)])));
    fields.push(("qr", Value::List(qr)));
    Ok(Value::List(List::named(fields)))
}

fn lsfit_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "wt"] {
        if let Some(t @ (Type::Str { .. } | Type::List { .. })) = args.ty(name) {
            return Err(args.error(
                name,
                format!(
                    "flowcast's lsfit takes numeric 'x', 'y' and 'wt', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let vec = || Type::Num {
        len: None,
        value: None,
    };
    let mut fields = vec![("coefficients".into(), vec()), ("residuals".into(), vec())];
    if args.ty("wt").is_some_and(|t| !matches!(t, Type::Null)) {
        fields.push(("wt".into(), vec()));
    }
    fields.push((
        "intercept".into(),
        Type::Bool {
            len: Some(1),
            value: None,
        },
    ));
    fields.push((
        "qr".into(),
        Type::record(
            "qr",
            vec![
                ("qt", vec()),
                (
                    "qr",
                    Type::Mat {
                        rows: None,
                        cols: None,
                    },
                ),
                ("qraux", vec()),
                ("rank", Type::num(1)),
                ("pivot", vec()),
                ("tol", Type::num(1)),
            ],
        ),
    ));
    Ok(Type::Record {
        class: "list".into(),
        fields,
    })
}
