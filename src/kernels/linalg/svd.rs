//! `svd(x, nu, nv)` and `prcomp(x, ...)`, which is the SVD of the centred
//! (optionally scaled) data, as R's `prcomp.default` computes it.

use crate::kernels::names;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::svd::ComputeSvdVectors;
use nalgebra::DMatrix;

use super::{
    all_finite, faer_view, faer_view_mut, matrix_dims, range_scale, ArgError, Args, KernelError,
    ShapeCtx, Type, Value,
};
use crate::kernels::value::List;
use crate::kernels::Ctx;

/// A singular value decomposition: `d` decreasing, `u` with `nu` columns and
/// `v` with `nv` (absent when 0).
pub(crate) struct Svd {
    pub d: Vec<f64>,
    pub u: Option<DMatrix<f64>>,
    pub v: Option<DMatrix<f64>>,
}

/// R's `svd`, along LAPACK `dgesdd`'s paths (bidiagonal QR iteration up to
/// 25 columns, divide and conquer above), whose vectors' signs R shows.
pub(crate) fn svd(x: &DMatrix<f64>, nu: usize, nv: usize) -> Result<Svd, KernelError> {
    let (n, p) = x.shape();
    if !all_finite(x) {
        return Err(KernelError::new("infinite or missing values in 'x'"));
    }
    if n == 0 || p == 0 {
        return Err(KernelError::new("a dimension is zero"));
    }
    // Like dgesdd (faer's svd gave svd(a * 1e-300)$d wrong in the first
    // digit without it).
    if let Some(f) = range_scale(x) {
        let mut s = svd(&(x * f), nu, nv)?;
        s.d.iter_mut().for_each(|d| *d /= f);
        return Ok(s);
    }
    let np = n.min(p);
    let view = faer_view(x);
    let fail = |e: faer::linalg::svd::SvdError| {
        KernelError::new(format!("error code {e:?} from Lapack routine 'dgesdd'"))
    };
    // LAPACK's route, so that the vectors have R's signs. The QR
    // iteration and the secular equation's root finder can, in principle,
    // fail to converge; faer's SVD below is then the fallback. Values
    // alone take faer's route, on the call's workers.
    if nu > 0 || nv > 0 {
        if let Some(s) = svd_by_dc(view, nu, nv) {
            return Ok(s);
        }
    }
    // Only the vectors asked for, written straight into the result's
    // storage: prcomp needs no U, and U or V is a large share of the work.
    let which = |k: usize| match k {
        0 => ComputeSvdVectors::No,
        k if k <= np => ComputeSvdVectors::Thin,
        _ => ComputeSvdVectors::Full,
    };
    let (cu, cv) = (which(nu), which(nv));
    let alloc = |c: ComputeSvdVectors, rows: usize| match c {
        ComputeSvdVectors::No => None,
        ComputeSvdVectors::Thin => Some(DMatrix::<f64>::zeros(rows, np)),
        ComputeSvdVectors::Full => Some(DMatrix::<f64>::zeros(rows, rows)),
    };
    let (mut u, mut v) = (alloc(cu, n), alloc(cv, p));
    let mut sd = faer::diag::Diag::<f64>::zeros(np);
    let par = crate::kernels::width::par();
    let scratch = faer::linalg::svd::svd_scratch::<f64>(n, p, cu, cv, par, Default::default());
    faer::linalg::svd::svd(
        view,
        sd.as_mut(),
        u.as_mut().map(faer_view_mut),
        v.as_mut().map(faer_view_mut),
        par,
        MemStack::new(&mut MemBuffer::new(scratch)),
        Default::default(),
    )
    .map_err(fail)?;
    let d = (0..np).map(|i| sd[i]).collect();
    let take = |m: DMatrix<f64>, k: usize| {
        if k >= m.ncols() {
            m
        } else {
            m.columns(0, k).into_owned()
        }
    };
    Ok(Svd {
        d,
        u: u.map(|m| take(m, nu)),
        v: v.map(|m| take(m, nv)),
    })
}

/// `svd` through `svd_dc::tall_svd`, transposing a wide matrix.
fn svd_by_dc(x: faer::MatRef<'_, f64>, nu: usize, nv: usize) -> Option<Svd> {
    let wide = x.nrows() < x.ncols();
    let (a, ku, kv) = if wide {
        (x.transpose(), nv, nu)
    } else {
        (x, nu, nv)
    };
    let (m, np) = a.shape();
    // A's U holds the tall side's vectors: thin or full as asked.
    let mut ua = (ku > 0).then(|| DMatrix::<f64>::zeros(m, if ku <= np { np } else { m }));
    let mut va = (kv > 0).then(|| DMatrix::<f64>::zeros(np, np));
    let mut d = vec![0.0; np];
    super::svd_dc::tall_svd(
        a,
        &mut d,
        ua.as_mut().map(faer_view_mut),
        va.as_mut().map(faer_view_mut),
        wide,
    )
    .ok()?;
    let (u, v) = if wide { (va, ua) } else { (ua, va) };
    let take = |m: DMatrix<f64>, k: usize| {
        if k >= m.ncols() {
            m
        } else {
            m.columns(0, k).into_owned()
        }
    };
    Some(Svd {
        d,
        u: u.map(|m| take(m, nu)),
        v: v.map(|m| take(m, nv)),
    })
}

fn count_arg(args: &Args<&Value>, name: &str, default: usize) -> Result<usize, KernelError> {
    let v = args.scalar_or(name, default as f64)?;
    if v.is_nan() || v < 0.0 || v.is_infinite() {
        return Err(KernelError::new(format!("invalid '{name}' argument")));
    }
    Ok(v as usize)
}

pub(super) fn svd_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (n, p) = matrix_dims(args, "x")?;
    let np = n.zip(p).map(|(n, p)| n.min(p));
    let nu = args.const_scalar_or("nu", None)?.map(|v| v as usize);
    let nv = args.const_scalar_or("nv", None)?.map(|v| v as usize);
    let nu = if args.has("nu") { nu } else { np };
    let nv = if args.has("nv") { nv } else { np };
    let part = |rows: Option<usize>, k: Option<usize>| match k {
        Some(0) => Type::Null,
        k => Type::Mat {
            rows,
            cols: k.zip(rows).map(|(k, r)| k.min(r)),
        },
    };
    Ok(Type::record(
        "svd",
        vec![
            (
                "d",
                Type::Num {
                    len: np,
                    value: None,
                },
            ),
            ("u", part(n, nu)),
            ("v", part(p, nv)),
        ],
    ))
}

pub(super) fn svd_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::as_matrix(args, "x")?;
    let np = x.nrows().min(x.ncols());
    let nu = count_arg(args, "nu", np)?;
    let nv = count_arg(args, "nv", np)?;
    let s = svd(&x, nu, nv)?;
    Ok(Value::List(List::record(
        "svd",
        vec![
            ("d", Value::Num(s.d)),
            ("u", s.u.map_or(Value::Null, Value::Mat)),
            ("v", s.v.map_or(Value::Null, Value::Mat)),
        ],
    )))
}

/// `La.svd(x, nu, nv)`: R's La.svd, on which R's svd itself is built,
/// so the same decomposition: `d`, `u` with `min(n, nu)` columns and
/// `vt`, `t(v)` with `min(p, nv)` rows, the vectors left out where R's
/// `res[c("d", if(nu) "u", if(nv) "vt")]` leaves them out. A plain list.
pub(super) fn la_svd_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let numeric = match args.get("x").map(names::bare) {
        Some(Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_)) => true,
        Some(Value::Complex(_) | Value::ComplexMat(_)) => {
            return Err(KernelError::new(
                "flowcast's La.svd takes a numeric 'x': complex matrices are not supported",
            ))
        }
        Some(_) => false,
        None => {
            return Err(KernelError::new(
                "argument \"x\" is missing, with no default",
            ))
        }
    };
    if !numeric {
        return Err(KernelError::new(
            "argument to 'La.svd' must be numeric or complex",
        ));
    }
    let x = super::as_matrix(args, "x")?;
    let np = x.nrows().min(x.ncols());
    let nu = count_arg(args, "nu", np)?;
    let nv = count_arg(args, "nv", np)?;
    let s = svd(&x, nu, nv)?;
    let mut fields = vec![("d", Value::Num(s.d))];
    if let Some(u) = s.u {
        fields.push(("u", Value::Mat(u)));
    }
    if let Some(v) = s.v {
        fields.push(("vt", Value::Mat(v.transpose())));
    }
    Ok(Value::List(List::named(fields)))
}

pub(super) fn la_svd_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t @ (Type::Str { .. } | Type::List { .. } | Type::Record { .. })) = args.ty("x") {
        return Err(args.error(
            "x",
            format!(
                "argument to 'La.svd' must be numeric or complex: {}",
                t.describe()
            ),
        ));
    }
    let Type::Record { fields, .. } = svd_shape(args, ctx)? else {
        return Ok(Type::Any);
    };
    let fields = fields
        .into_iter()
        .filter(|(_, t)| !matches!(t, Type::Null))
        .map(|(n, t)| match (n.as_str(), t) {
            ("v", Type::Mat { rows, cols }) => (
                "vt".to_string(),
                Type::Mat {
                    rows: cols,
                    cols: rows,
                },
            ),
            (_, t) => (n, t),
        })
        .collect();
    Ok(Type::Record {
        class: "list".to_string(),
        fields,
    })
}

/// `a %*% b` by faer's matmul (sequential), on views of both.
fn product(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    let mut out = DMatrix::<f64>::zeros(a.nrows(), b.ncols());
    faer::linalg::matmul::matmul(
        faer_view_mut(&mut out),
        faer::Accum::Replace,
        faer_view(a),
        faer_view(b),
        1.0,
        crate::kernels::width::par(),
    );
    out
}

/// `center`/`scale.` as given: a flag or one number per column.
enum Adjust {
    Flag(bool),
    Values(Vec<f64>),
}

fn adjust_arg(
    args: &Args<&Value>,
    name: &str,
    default: bool,
    p: usize,
) -> Result<Adjust, KernelError> {
    match args.get(name) {
        None => Ok(Adjust::Flag(default)),
        Some(Value::Bool(b)) if b.len() == 1 && b[0].is_some() => {
            Ok(Adjust::Flag(b[0] == Some(true)))
        }
        Some(Value::Num(v)) if v.len() == p => Ok(Adjust::Values(v.clone())),
        Some(v) if v.len() == 1 => Ok(Adjust::Flag(args.bool_or(name, default)?)),
        Some(v) => Err(KernelError::new(format!(
            "length of '{name}' must equal the number of columns of 'x' ({} != {p})",
            v.len()
        ))),
    }
}

/// Column sums accumulated with compensation, standing in for R's long
/// double accumulation in `colMeans`.
fn accurate_mean(col: &[f64]) -> f64 {
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for &v in col {
        let t = s + v;
        c += if s.abs() >= v.abs() {
            (s - t) + v
        } else {
            (v - t) + s
        };
        s = t;
    }
    (s + c) / col.len() as f64
}

pub(super) fn prcomp_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    // R's message, from svd() of the matrix that prcomp.default makes.
    let (n, p) = matrix_dims(args, "x").map_err(|_| {
        let t = args.ty("x").map_or_else(String::new, Type::describe);
        args.error("x", format!("'x' must be numeric, not {t}"))
    })?;
    let np = n.zip(p).map(|(n, p)| n.min(p));
    let rank = args.const_scalar_or("rank.", None)?.map(|r| r as usize);
    let k = match (np, rank) {
        (Some(np), Some(r)) => Some(np.min(r)),
        (np, None) if !args.has("rank.") => np,
        _ => None,
    };
    let k = if args.has("tol") { None } else { k };
    let scaled = args
        .ty("scale.")
        .and_then(Type::const_scalar)
        .is_some_and(|v| v != 0.0);
    let retx = args.ty("retx").and_then(Type::const_scalar) != Some(0.0);
    let mut fields = vec![
        (
            "sdev",
            Type::Num {
                len: np,
                value: None,
            },
        ),
        ("rotation", Type::Mat { rows: p, cols: k }),
        ("center", Type::Any),
        (
            "scale",
            if args.has("scale.") {
                if scaled {
                    Type::Num {
                        len: p,
                        value: None,
                    }
                } else {
                    Type::Any
                }
            } else {
                Type::Bool {
                    len: Some(1),
                    value: Some(vec![Some(false)]),
                }
            },
        ),
    ];
    if retx {
        fields.push(("x", Type::Mat { rows: n, cols: k }));
    }
    Ok(Type::record("prcomp", fields))
}

pub(super) fn prcomp_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut x = super::as_matrix(args, "x")?;
    let (n, p) = x.shape();
    let center = adjust_arg(args, "center", true, p)?;
    let scale = adjust_arg(args, "scale.", false, p)?;
    let retx = args.bool_or("retx", true)?;
    let tol = if args.has("tol") {
        Some(args.scalar("tol")?)
    } else {
        None
    };
    let cen = match center {
        Adjust::Flag(false) => None,
        Adjust::Flag(true) => Some(
            (0..p)
                .map(|j| accurate_mean(x.column(j).as_slice()))
                .collect::<Vec<_>>(),
        ),
        Adjust::Values(v) => Some(v),
    };
    if let Some(c) = &cen {
        for (j, cj) in c.iter().enumerate() {
            x.column_mut(j).iter_mut().for_each(|v| *v -= cj);
        }
    }
    let sc = match scale {
        Adjust::Flag(false) => None,
        Adjust::Flag(true) => Some(
            (0..p)
                .map(|j| {
                    let ss: f64 = x.column(j).iter().map(|v| v * v).sum();
                    (ss / (n.max(2) - 1) as f64).sqrt()
                })
                .collect::<Vec<_>>(),
        ),
        Adjust::Values(v) => Some(v),
    };
    if let Some(s) = &sc {
        if s.contains(&0.0) {
            return Err(KernelError::new(
                "cannot rescale a constant/zero column to unit variance",
            ));
        }
        for (j, sj) in s.iter().enumerate() {
            x.column_mut(j).iter_mut().for_each(|v| *v /= sj);
        }
    }
    let np = n.min(p);
    let mut k = np;
    if args.has("rank.") {
        let r = args.scalar("rank.")?;
        if r.is_nan() || r < 1.0 {
            return Err(KernelError::new("'rank.' must be a positive number"));
        }
        k = k.min(r as usize);
    }
    let s = svd(&x, 0, k)?;
    let denom = ((n.max(2) - 1) as f64).sqrt();
    let sdev: Vec<f64> = s.d.iter().map(|d| d / denom).collect();
    let mut rotation = s.v.unwrap_or_else(|| DMatrix::zeros(p, 0));
    if let Some(tol) = tol {
        let first = sdev.first().copied().unwrap_or(0.0);
        let rank = sdev.iter().filter(|&&d| d > first * tol).count();
        if rank < rotation.ncols() {
            rotation = rotation.columns(0, rank).into_owned();
        }
    }
    let flag_or = |v: Option<Vec<f64>>| v.map_or(Value::flag(false), Value::Num);
    // R names the components PC1, PC2, … in the rotation and the scores.
    let components = |k: usize| Some((1..=k).map(|j| format!("PC{j}")).collect());
    let mut fields = vec![
        ("sdev", Value::Num(sdev)),
        (
            "rotation",
            names::dimnamed(
                Value::Mat(rotation.clone()),
                None,
                components(rotation.ncols()),
            ),
        ),
        ("center", flag_or(cen)),
        ("scale", flag_or(sc)),
    ];
    if retx {
        fields.push((
            "x",
            names::dimnamed(
                Value::Mat(product(&x, &rotation)),
                None,
                components(rotation.ncols()),
            ),
        ));
    }
    Ok(Value::List(List::record("prcomp", fields)))
}
