//! `factanal`, `varimax` and `promax`: R 4.2.2's maximum-likelihood factor
//! analysis (stats' factanal.R: factanal, factanal.fit.mle with its FAfn,
//! FAgr and FAout, and sortLoadings) and its two rotations, step by step
//! as the R code goes. The uniquenesses are found by optim's own L-BFGS-B
//! port (`optim::optim_native_gr`) with FAgr as `gr`, `parscale` 0.01 and
//! bounds `lower` and 1; products are flowcast's `%*%` (R's dgemm order),
//! sums R's long-double ones, the symmetric eigen decompositions and SVDs
//! flowcast's `eigen` and `svd`, lm.fit's LINPACK dqrls and solve's dgesv.
//!
//! Supported: `x` a numeric matrix or data frame, or `covmat` a covariance
//! matrix or a list of `cov` and `n.obs`; `scores` "none", "regression"
//! or "Bartlett"; `rotation` "varimax", "promax" or "none"; `start`, and
//! `control`'s (or `...`'s) `lower`, with `nstart = 1` and `trace =
//! FALSE`. Refused with a message: a formula `x`, `subset`, `na.action`,
//! other rotations, random starts (`nstart > 1`), `trace = TRUE`, and
//! `opt` or `rotate` controls.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::arith::{matmul, r_pow};
use super::linalg::linpack::dqrls;
use super::names::{bare, dimnamed, dimnames, named};
use super::summary::sum as rsum;
use super::value::List;
use super::{opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "factanal",
        params: &[
            opt("x"),
            opt("factors"),
            opt("data"),
            opt("covmat"),
            opt("n.obs"),
            opt("subset"),
            opt("na.action"),
            opt("start"),
            opt("scores"),
            opt("rotation"),
            opt("control"),
            DOTS,
        ],
        random: false,
        shape: factanal_shape,
        eval: factanal_eval,
    },
    Kernel {
        name: "varimax",
        params: &[req("x"), opt("normalize"), opt("eps")],
        random: false,
        shape: rotation_shape,
        eval: varimax_eval,
    },
    Kernel {
        name: "promax",
        params: &[req("x"), opt("m")],
        random: false,
        shape: rotation_shape,
        eval: promax_eval,
    },
];

type Mat = DMatrix<f64>;

/// R's `%*%`.
fn mm(a: &Mat, b: &Mat) -> Mat {
    matmul(a.as_slice(), a.nrows(), a.ncols(), b.as_slice(), b.ncols())
}

/// R's `diag(v)` (`diag(v, length(v))`).
fn diag(v: &[f64]) -> Mat {
    Mat::from_fn(v.len(), v.len(), |i, j| if i == j { v[i] } else { 0.0 })
}

fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    match bare(v) {
        Value::List(l) => l.field(name),
        _ => None,
    }
}

fn matrix_of(v: &Value) -> Option<Mat> {
    match bare(v) {
        Value::Mat(m) => Some(m.clone()),
        Value::BoolMat(b) => Some(b.map(super::value::logical_f64)),
        _ => None,
    }
}

/// `eigen(m, symmetric = TRUE, only.values)`: values (decreasing) and
/// vectors.
fn sym_eigen(m: &Mat, only_values: bool) -> Result<(Vec<f64>, Option<Mat>), KernelError> {
    // A p x p matrix for p variables: each decomposition is short, so this
    // flag is never set and none waits on it.
    let never = std::sync::atomic::AtomicBool::new(false);
    let e = super::linalg::eigen(m, Some(true), only_values, &never)?;
    let values = field(&e, "values")
        .and_then(|v| v.as_f64_slice())
        .map(|v| v.into_owned())
        .unwrap_or_default();
    let vectors = field(&e, "vectors").and_then(matrix_of);
    Ok((values, vectors))
}

/// `sc %*% S %*% sc` for `sc <- diag(1/sqrt(Psi))`: FAfn's, FAgr's and
/// FAout's `Sstar`.
fn sstar(psi: &[f64], s: &Mat) -> Mat {
    let sc = diag(&psi.iter().map(|p| 1.0 / p.sqrt()).collect::<Vec<_>>());
    mm(&mm(&sc, s), &sc)
}

/// factanal.fit.mle's `FAout` (and the loadings FAgr forms the same way):
/// `diag(sqrt(Psi)) %*% L %*% diag(sqrt(pmax(E$values[1:q] - 1, 0)), q)`.
fn fa_out(psi: &[f64], s: &Mat, q: usize) -> Result<Mat, KernelError> {
    let (values, vectors) = sym_eigen(&sstar(psi, s), false)?;
    let vectors = vectors.ok_or_else(|| KernelError::new("eigen gave no vectors"))?;
    let l = vectors.columns(0, q).into_owned();
    let d: Vec<f64> = values[..q]
        .iter()
        .map(|v| (v - 1.0).max(0.0).sqrt())
        .collect();
    // pmax(x, 0) keeps NaN: max() here would not.
    let d: Vec<f64> = values[..q]
        .iter()
        .zip(d)
        .map(|(v, d)| if (v - 1.0).is_nan() { f64::NAN } else { d })
        .collect();
    let load = mm(&l, &diag(&d));
    let sq = diag(&psi.iter().map(|p| p.sqrt()).collect::<Vec<_>>());
    Ok(mm(&sq, &load))
}

/// factanal.fit.mle's `FAfn`: minus the profile log-likelihood.
fn fa_fn(psi: &[f64], s: &Mat, q: usize) -> Result<f64, KernelError> {
    let (values, _) = sym_eigen(&sstar(psi, s), true)?;
    let e: Vec<f64> = values[q..].iter().map(|e| e.ln() - e).collect();
    let e = rsum(&e, false) - q as f64 + s.nrows() as f64;
    Ok(-e)
}

/// factanal.fit.mle's `FAgr`: its gradient in the uniquenesses.
fn fa_gr(psi: &[f64], s: &Mat, q: usize) -> Result<Vec<f64>, KernelError> {
    let load = fa_out(psi, s, q)?;
    let g = mm(&load, &load.transpose()) + diag(psi) - s;
    Ok((0..psi.len())
        .map(|i| g[(i, i)] / (psi[i] * psi[i]))
        .collect())
}

/// What factanal.fit.mle hands back (before factanal's rotation).
struct Fit {
    converged: bool,
    loadings: Mat,
    uniquenesses: Vec<f64>,
    objective: f64,
    counts: (i64, Option<i64>),
}

/// R's `factanal.fit.mle(cmat, factors, start, lower, control = NULL)`.
fn fit_mle(
    cmat: &Mat,
    q: usize,
    start: &[f64],
    lower: f64,
    ctx: &mut Ctx,
) -> Result<Fit, KernelError> {
    let p = cmat.ncols();
    let f = |psi: &[f64], _: &mut Ctx| fa_fn(psi, cmat, q);
    let g = |psi: &[f64], _: &mut Ctx| fa_gr(psi, cmat, q);
    let method = Value::string("L-BFGS-B");
    let control = Value::List(List::named(vec![
        ("fnscale", Value::scalar(1.0)),
        ("parscale", Value::Num(vec![0.01; p])),
    ]));
    let res = super::optim::optim_native_gr(
        start,
        &f,
        Some(&g),
        Some(&method),
        Some((&[lower], &[1.0])),
        Some(&control),
        false,
        ctx,
    )?;
    let loadings = fa_out(&res.par, cmat, q)?;
    Ok(Fit {
        converged: res.convergence == 0,
        loadings,
        uniquenesses: res.par,
        objective: res.value,
        counts: res.counts,
    })
}

/// R's `varimax(x, normalize, eps)` for two or more columns: the rotated
/// loadings and the rotation.
fn varimax(x: &Mat, normalize: bool, eps: f64) -> Result<(Mat, Mat), KernelError> {
    let (p, nc) = x.shape();
    let mut x = x.clone();
    let mut sc = Vec::new();
    if normalize {
        sc = (0..p)
            .map(|i| {
                let sq: Vec<f64> = x.row(i).iter().map(|v| v * v).collect();
                rsum(&sq, false).sqrt()
            })
            .collect();
        for mut col in x.column_iter_mut() {
            col.iter_mut().zip(&sc).for_each(|(v, s)| *v /= s);
        }
    }
    let mut tt = diag(&vec![1.0; nc]);
    let mut d = 0.0;
    let xt = x.transpose();
    let ones = Mat::from_element(1, p, 1.0);
    for _ in 0..1000 {
        let z = mm(&x, &tt);
        let z2 = z.map(|v| v * v);
        let cs = mm(&ones, &z2);
        let zd = mm(&z, &diag(cs.as_slice()));
        let w = Mat::from_fn(p, nc, |i, j| r_pow(z[(i, j)], 3.0) - zd[(i, j)] / p as f64);
        let b = mm(&xt, &w);
        let s = super::linalg::svd(&b, nc, nc)?;
        let (Some(u), Some(v)) = (s.u, s.v) else {
            return Err(KernelError::new("svd failed"));
        };
        tt = mm(&u, &v.transpose());
        let dpast = d;
        d = rsum(&s.d, false);
        if d < dpast * (1.0 + eps) {
            break;
        }
    }
    let mut z = mm(&x, &tt);
    if normalize {
        for mut col in z.column_iter_mut() {
            col.iter_mut().zip(&sc).for_each(|(v, s)| *v *= s);
        }
    }
    Ok((z, tt))
}

/// R's `promax(x, m)` for two or more columns.
fn promax(x: &Mat, m: f64) -> Result<(Mat, Mat), KernelError> {
    let (p, nc) = x.shape();
    let (x, rotmat) = varimax(x, true, 1e-5)?;
    let q = x.map(|v| v * r_pow(v.abs(), m - 1.0));
    // lm.fit(x, Q)$coefficients: dqrls on each column of Q.
    let mut u = Mat::zeros(nc, nc);
    for j in 0..nc {
        let col: Vec<f64> = q.column(j).iter().copied().collect();
        if col.iter().chain(x.iter()).any(|v| !v.is_finite()) {
            return Err(KernelError::new("NA/NaN/Inf in 'y'"));
        }
        let f = dqrls(x.as_slice().to_vec(), p, nc, &col, 1e-7);
        if f.qr.rank < nc {
            return Err(KernelError::new(
                "promax's loadings are rank-deficient: lm.fit's NA coefficients are refused",
            ));
        }
        u.column_mut(j).copy_from_slice(&f.coef);
    }
    let utu = mm(&u.transpose(), &u);
    let inv = super::linalg::solve(&utu, None, f64::EPSILON)?;
    let d: Vec<f64> = (0..nc).map(|i| inv[(i, i)].sqrt()).collect();
    let u = mm(&u, &diag(&d));
    let z = mm(&x, &u);
    Ok((z, mm(&rotmat, &u)))
}

/// A loadings matrix from `x`, with its dimnames.
type Loadings = (Mat, Option<Vec<String>>, Option<Vec<String>>);

fn loadings_arg(x: &Value, func: &str) -> Result<Loadings, KernelError> {
    let m = match bare(x) {
        Value::Mat(m) => m.clone(),
        Value::BoolMat(b) => b.map(super::value::logical_f64),
        v @ (Value::Num(_) | Value::Bool(_)) => {
            let d = v.as_f64_slice().unwrap_or_default();
            Mat::from_column_slice(d.len(), 1, &d)
        }
        v => {
            return Err(KernelError::new(format!(
                "{func}() takes a numeric matrix of loadings, not {}",
                v.type_name()
            )))
        }
    };
    let (r, c) = dimnames(x);
    Ok((m, r.map(<[String]>::to_vec), c.map(<[String]>::to_vec)))
}

fn not_finite(m: &Mat) -> bool {
    m.iter().any(|v| !v.is_finite())
}

fn rotation_value(
    z: Mat,
    rotmat: Mat,
    rows: Option<Vec<String>>,
    cols: Option<Vec<String>>,
) -> Value {
    Value::List(List::named(vec![
        ("loadings", dimnamed(Value::Mat(z), rows, cols)),
        ("rotmat", Value::Mat(rotmat)),
    ]))
}

/// `varimax(x, normalize = TRUE, eps = 1e-5)`.
fn varimax_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (m, rows, cols) = loadings_arg(x, "varimax")?;
    if m.ncols() < 2 {
        return Ok(x.clone());
    }
    let normalize = args.bool_or("normalize", true)?;
    let eps = args.scalar_or("eps", 1e-5)?;
    if not_finite(&m) {
        return Err(KernelError::new("infinite or missing values in 'x'"));
    }
    let (z, tt) = varimax(&m, normalize, eps)?;
    Ok(rotation_value(z, tt, rows, cols))
}

/// `promax(x, m = 4)`.
fn promax_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let (mat, rows, cols) = loadings_arg(x, "promax")?;
    if mat.ncols() < 2 {
        return Ok(x.clone());
    }
    let m = args.scalar_or("m", 4.0)?;
    if not_finite(&mat) {
        return Err(KernelError::new("infinite or missing values in 'x'"));
    }
    let (z, u) = promax(&mat, m)?;
    Ok(rotation_value(z, u, rows, cols))
}

fn rotation_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Mat {
            rows,
            cols: Some(c),
        }) if *c >= 2 => Ok(Type::Record {
            class: "list".into(),
            fields: vec![
                (
                    "loadings".into(),
                    Type::Mat {
                        rows: *rows,
                        cols: Some(*c),
                    },
                ),
                ("rotmat".into(), Type::mat(*c, *c)),
            ],
        }),
        _ => Ok(Type::Any),
    }
}

/// factanal's `sortLoadings`: columns by decreasing sum of squares
/// (their names kept in place), each made to sum to a positive number.
fn sort_loadings(l: &Mat) -> Mat {
    let nc = l.ncols();
    let ssq: Vec<f64> = (0..nc)
        .map(|j| {
            let sq: Vec<f64> = l.column(j).iter().map(|v| v * v).collect();
            -rsum(&sq, false)
        })
        .collect();
    let mut order: Vec<usize> = (0..nc).collect();
    // order(): stable, NaN last.
    order.sort_by(|&a, &b| match (ssq[a].is_nan(), ssq[b].is_nan()) {
        (false, false) => ssq[a].partial_cmp(&ssq[b]).unwrap(),
        (x, y) => x.cmp(&y),
    });
    let mut out = Mat::from_fn(l.nrows(), nc, |i, j| l[(i, order[j])]);
    for j in 0..nc {
        let s: Vec<f64> = out.column(j).iter().copied().collect();
        if rsum(&s, false) < 0.0 {
            out.column_mut(j).iter_mut().for_each(|v| *v = -*v);
        }
    }
    out
}

fn refuse(what: &str) -> KernelError {
    KernelError::new(format!("factanal: {what}"))
}

/// A whole number of factors, as R's sprintf("%d") needs it.
fn factors_arg(args: &Args<&Value>) -> Result<f64, KernelError> {
    let v = args
        .get("factors")
        .ok_or_else(|| KernelError::new("argument \"factors\" is missing, with no default"))?;
    match bare(v).as_scalar() {
        Some(f) if f.is_finite() && f == f.round() && f >= 1.0 => Ok(f),
        Some(f) if f.is_finite() && f == f.round() => Err(refuse(
            "'factors' must be at least 1 (R fails on fewer with a message about non-conformable arguments)",
        )),
        _ => Err(refuse("'factors' must be a single whole number")),
    }
}

/// The control settings factanal reads: `lower`, after refusing what is
/// not supported.
fn control_lower(args: &Args<&Value>) -> Result<f64, KernelError> {
    let mut lower = 0.005;
    let mut settings: Vec<(String, Value)> = Vec::new();
    if let Some(c) = args.get("control") {
        match bare(c) {
            Value::Null => {}
            Value::List(l) => {
                let names = l.names.clone().unwrap_or_default();
                for (i, v) in l.items.iter().enumerate() {
                    let n = names.get(i).cloned().unwrap_or_default();
                    settings.push((n, v.clone()));
                }
            }
            _ => return Err(refuse("'control' must be a named list")),
        }
    }
    let known = |n: &&str| matches!(*n, "nstart" | "trace" | "lower" | "opt" | "rotate");
    for (n, v) in args.dots() {
        if let Some(n) = n.filter(known) {
            settings.push((n.to_string(), v.clone()));
        }
    }
    for (n, v) in settings {
        match n.as_str() {
            "lower" => {
                lower = bare(&v)
                    .as_scalar()
                    .filter(|x| !x.is_nan())
                    .ok_or_else(|| refuse("control 'lower' must be a single number"))?;
            }
            "nstart" if bare(&v).as_scalar() != Some(1.0) => {
                return Err(refuse(
                    "nstart > 1 draws random starts and is refused; give 'start' instead",
                ));
            }
            "trace" if bare(&v).as_flag() != Some(false) => {
                return Err(refuse("trace = TRUE is refused"));
            }
            "opt" | "rotate" => {
                return Err(refuse(&format!("the '{n}' control is refused")));
            }
            _ => {}
        }
    }
    Ok(lower.max(0.0))
}

/// `factanal(x, factors, data, covmat, n.obs, subset, na.action, start,
/// scores, rotation, control, ...)`: stats' factanal.
fn factanal_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if args.has("subset") {
        return Err(refuse("'subset' is refused; subset the data first"));
    }
    if args.has("na.action") {
        return Err(refuse(
            "'na.action' is refused (it applies to the formula method, which is not supported)",
        ));
    }
    let mut n_obs = match args.get("n.obs") {
        None => f64::NAN,
        Some(v) => match bare(v) {
            Value::Bool(b) if b.len() == 1 && b[0].is_none() => f64::NAN,
            v => v
                .as_scalar()
                .ok_or_else(|| refuse("'n.obs' must be a single number"))?,
        },
    };
    let covmat = args
        .get("covmat")
        .filter(|v| !matches!(bare(v), Value::Null));
    // The data (have.x) and the covariance matrix with its dimnames.
    let mut z: Option<(Mat, Option<Vec<String>>)> = None;
    let (cv, cv_names) = match covmat {
        Some(c) if matches!(bare(c), Value::List(_)) => {
            let (Some(cov), Some(n)) = (field(c, "cov"), field(c, "n.obs")) else {
                return Err(KernelError::new("'covmat' is not a valid covariance list"));
            };
            n_obs = bare(n).as_scalar().unwrap_or(f64::NAN);
            let m =
                matrix_of(cov).ok_or_else(|| refuse("'covmat$cov' must be a numeric matrix"))?;
            (m, dimnames(cov).0.map(<[String]>::to_vec))
        }
        Some(c) => match matrix_of(c) {
            Some(m) => (m, dimnames(c).0.map(<[String]>::to_vec)),
            None => return Err(KernelError::new("'covmat' is of unknown type")),
        },
        None => {
            let x = args
                .get("x")
                .ok_or_else(|| KernelError::new("neither 'x' nor 'covmat' supplied"))?;
            if matches!(bare(x), Value::Formula(_)) {
                return Err(refuse(
                    "the formula method is refused; give the variables as a numeric matrix or data frame",
                ));
            }
            // as.matrix of a data frame with a text or factor column is a
            // character matrix.
            if let Some(l) = super::frame::as_frame(bare(x)) {
                if l.items.iter().any(|c| bare(c).as_f64_slice().is_none()) {
                    return Err(KernelError::new(
                        "factor analysis applies only to numerical variables",
                    ));
                }
            }
            let (m, colnames) = match bare(x) {
                Value::Mat(_) | Value::BoolMat(_) | Value::List(_) => {
                    super::princomp::data_matrix(x, "factanal")?
                }
                Value::Num(_) => super::princomp::data_matrix(x, "factanal")?,
                _ => {
                    return Err(KernelError::new(
                        "factor analysis applies only to numerical variables",
                    ))
                }
            };
            let rownames = dimnames(x).0.map(<[String]>::to_vec);
            let xv = dimnamed(Value::Mat(m.clone()), None, colnames.clone());
            let cw = registry().call("cov.wt", vec![(None, &xv)], ctx)?;
            let cov = field(&cw, "cov")
                .and_then(matrix_of)
                .ok_or_else(|| KernelError::new("cov.wt gave no covariance"))?;
            n_obs = m.nrows() as f64;
            z = Some((m, rownames));
            (cov, colnames)
        }
    };
    let scores = match args.get("scores").map(bare) {
        None => "none",
        Some(Value::Str(s)) if s.len() == 1 => {
            super::vector::match_arg(&s[0], &["none", "regression", "Bartlett"])?
        }
        Some(Value::Str(s)) if s.len() == 3 && s[0] == "none" => "none",
        Some(Value::Str(_)) => return Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if scores != "none" && z.is_none() {
        return Err(KernelError::new("requested scores without an 'x' matrix"));
    }
    let p = cv.ncols();
    if p < 3 {
        return Err(KernelError::new(
            "factor analysis requires at least three variables",
        ));
    }
    if cv.nrows() != p {
        return Err(refuse("'covmat' must be a square matrix"));
    }
    let factors = factors_arg(args)?;
    let dof = 0.5 * ((p as f64 - factors).powi(2) - p as f64 - factors);
    if dof < 0.0 {
        return Err(KernelError::new(if factors == 1.0 {
            format!("{factors} factor is too many for {p} variables")
        } else {
            format!("{factors} factors are too many for {p} variables")
        }));
    }
    let q = factors as usize;
    let rotation = match args.get("rotation").map(bare) {
        None => "varimax",
        Some(Value::Str(s)) if s.len() == 1 => match s[0].as_str() {
            r @ ("varimax" | "promax" | "none") => r,
            r => {
                return Err(refuse(&format!(
                    "rotation \"{r}\" is refused: only \"varimax\", \"promax\" and \"none\" are supported"
                )))
            }
        },
        Some(_) => return Err(refuse("'rotation' must be a single string")),
    };
    let lower = control_lower(args)?;
    let sds: Vec<f64> = (0..p).map(|i| cv[(i, i)].sqrt()).collect();
    let cv = Mat::from_fn(p, p, |i, j| cv[(i, j)] / (sds[i] * sds[j]));
    if not_finite(&cv) {
        return Err(refuse(
            "the correlations are not all finite (NA data, or a variable with no variance)",
        ));
    }
    let start: Mat = match args
        .get("start")
        .filter(|v| !matches!(bare(v), Value::Null))
    {
        None => {
            let inv = super::linalg::solve(&cv, None, f64::EPSILON)?;
            let k = 1.0 - 0.5 * factors / p as f64;
            Mat::from_fn(p, 1, |i, _| k / inv[(i, i)])
        }
        Some(s) => match bare(s) {
            Value::Mat(m) => m.clone(),
            v => {
                let d = v
                    .as_f64_slice()
                    .ok_or_else(|| refuse("'start' must be numeric"))?;
                Mat::from_column_slice(d.len(), 1, &d)
            }
        },
    };
    if start.nrows() != p {
        return Err(KernelError::new(format!("'start' must have {p} rows")));
    }
    if start.ncols() < 1 {
        return Err(KernelError::new("no starting values supplied"));
    }
    let mut best = f64::INFINITY;
    let mut fit: Option<Fit> = None;
    for i in 0..start.ncols() {
        let s: Vec<f64> = start.column(i).iter().copied().collect();
        let nfit = fit_mle(&cv, q, &s, lower, ctx)?;
        if nfit.converged && nfit.objective < best {
            best = nfit.objective;
            fit = Some(nfit);
        }
    }
    let Some(fit) = fit else {
        return Err(KernelError::new(if start.ncols() == 1 {
            "unable to optimize from this starting value"
        } else {
            "unable to optimize from these starting values"
        }));
    };
    let mut load = fit.loadings.clone();
    let mut rotmat = None;
    if rotation != "none" && q >= 2 {
        let (l, r) = if rotation == "varimax" {
            varimax(&load, true, 1e-5)?
        } else {
            promax(&load, 4.0)?
        };
        load = l;
        rotmat = Some(r);
    }
    let load = sort_loadings(&load);
    let factor_names: Vec<String> = (1..=q).map(|i| format!("Factor{i}")).collect();
    let mut fields: Vec<(&str, Value)> = vec![
        ("converged", Value::flag(fit.converged)),
        (
            "loadings",
            dimnamed(
                Value::Mat(load.clone()),
                cv_names.clone(),
                Some(factor_names.clone()),
            ),
        ),
        (
            "uniquenesses",
            match &cv_names {
                Some(n) => named(Value::Num(fit.uniquenesses.clone()), n.clone()),
                None => Value::Num(fit.uniquenesses.clone()),
            },
        ),
        (
            "correlation",
            dimnamed(Value::Mat(cv.clone()), cv_names.clone(), cv_names.clone()),
        ),
        (
            "criteria",
            named(
                Value::Num(vec![
                    fit.objective,
                    fit.counts.0 as f64,
                    fit.counts.1.map_or(f64::NAN, |c| c as f64),
                ]),
                vec![
                    "objective".into(),
                    "counts.function".into(),
                    "counts.gradient".into(),
                ],
            ),
        ),
        ("factors", Value::scalar(factors)),
        ("dof", Value::scalar(dof)),
        ("method", Value::string("mle")),
    ];
    if let Some(r) = rotmat {
        fields.push(("rotmat", Value::Mat(r)));
    }
    if let (Some((zm, rownames)), true) = (&z, scores != "none") {
        let zz = registry().call("scale", vec![(None, &Value::Mat(zm.clone()))], ctx)?;
        let zz = matrix_of(&zz).ok_or_else(|| KernelError::new("scale gave no matrix"))?;
        let sc = if scores == "regression" {
            mm(&zz, &super::linalg::solve(&cv, Some(&load), f64::EPSILON)?)
        } else {
            let tmp = Mat::from_fn(q, p, |j, i| load[(i, j)] * (1.0 / fit.uniquenesses[i]));
            let a = mm(&tmp, &load);
            let b = mm(&tmp, &zz.transpose());
            super::linalg::solve(&a, Some(&b), f64::EPSILON)?.transpose()
        };
        fields.push((
            "scores",
            dimnamed(Value::Mat(sc), rownames.clone(), Some(factor_names)),
        ));
    }
    if !n_obs.is_nan() && dof > 0.0 {
        let stat =
            (n_obs - 1.0 - (2.0 * p as f64 + 5.0) / 6.0 - (2.0 * factors) / 3.0) * fit.objective;
        let pval = super::nmath::pgamma::pchisq(stat, dof, false, false);
        fields.push((
            "STATISTIC",
            named(Value::Num(vec![stat]), vec!["objective".into()]),
        ));
        fields.push((
            "PVAL",
            named(Value::Num(vec![pval]), vec!["objective".into()]),
        ));
    }
    fields.push((
        "n.obs",
        Value::scalar(if n_obs.is_nan() {
            super::value::NA
        } else {
            n_obs
        }),
    ));
    Ok(Value::List(List::record("factanal", fields)))
}

fn factanal_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let factors = args.ty("factors").and_then(Type::const_scalar);
    let q = factors
        .filter(|f| *f >= 1.0 && f.fract() == 0.0)
        .map(|f| f as usize);
    let mut fields = vec![
        (
            "converged".to_string(),
            Type::Bool {
                len: Some(1),
                value: None,
            },
        ),
        (
            "loadings".to_string(),
            Type::Mat {
                rows: None,
                cols: q,
            },
        ),
        ("uniquenesses".to_string(), Type::num_unknown()),
        (
            "correlation".to_string(),
            Type::Mat {
                rows: None,
                cols: None,
            },
        ),
        ("criteria".to_string(), Type::num(3)),
        ("factors".to_string(), Type::num(1)),
        ("dof".to_string(), Type::num(1)),
        (
            "method".to_string(),
            Type::Str {
                len: Some(1),
                value: None,
            },
        ),
    ];
    for f in ["rotmat", "scores"] {
        fields.push((f.to_string(), Type::Any));
    }
    for f in ["STATISTIC", "PVAL", "n.obs"] {
        fields.push((f.to_string(), Type::Any));
    }
    Ok(Type::Record {
        class: "factanal".into(),
        fields,
    })
}
