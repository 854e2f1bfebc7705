//! `cancor(x, y, xcenter, ycenter)`: R 4.2.2's canonical correlations
//! (stats' cancor): both sides centred, LINPACK QRs of each, the SVD of
//! `Qx' Qy`, and the coefficients by back-substitution in each R.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::linalg::linpack::{dqrdc2, dqrsl, Job, Qr};
use super::names::{bare, dimnamed, named};
use super::princomp::data_matrix;
use super::summary::mean;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "cancor",
    params: &[req("x"), req("y"), opt("xcenter"), opt("ycenter")],
    random: false,
    shape,
    eval,
}];

/// One side centred as cancor does: by its column means (TRUE), not at
/// all (FALSE), or by the values given, recycled over the columns.
fn centre(m: &mut DMatrix<f64>, given: Option<&Value>) -> Result<Vec<f64>, KernelError> {
    let (nr, nc) = m.shape();
    let c: Vec<f64> = match given.map(bare) {
        None => (0..nc).map(|j| mean(m.column(j).as_slice())).collect(),
        Some(Value::Bool(b)) if b.len() == 1 => match b[0] {
            Some(true) => (0..nc).map(|j| mean(m.column(j).as_slice())).collect(),
            Some(false) => return Ok(vec![0.0; nc]),
            None => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
        Some(v) => {
            let v = v
                .as_f64_slice()
                .filter(|v| !v.is_empty())
                .ok_or_else(|| KernelError::new("non-numeric argument to binary operator"))?;
            (0..nc).map(|j| v[j % v.len()]).collect()
        }
    };
    for j in 0..nc {
        for i in 0..nr {
            m[(i, j)] -= c[j];
        }
    }
    Ok(c)
}

/// `qr.qy` or `qr.qty` of each column of `y`.
fn apply_q(q: &Qr, y: &DMatrix<f64>, transpose: bool) -> DMatrix<f64> {
    let mut out = y.clone();
    for j in 0..y.ncols() {
        let col: Vec<f64> = y.column(j).iter().copied().collect();
        let job = Job {
            qy: !transpose,
            qty: transpose,
            ..Job::default()
        };
        let r = dqrsl(q, q.rank, &col, job);
        let v = if transpose { r.qty } else { r.qy };
        out.column_mut(j).copy_from_slice(&v);
    }
    out
}

/// `backsolve(r[1:k, 1:k], b)`: reference BLAS dtrsm's column order.
fn backsolve(q: &Qr, k: usize, b: &DMatrix<f64>) -> DMatrix<f64> {
    let n = q.n;
    let mut x = b.rows(0, k).into_owned();
    for c in 0..x.ncols() {
        for j in (0..k).rev() {
            if x[(j, c)] != 0.0 {
                x[(j, c)] /= q.qr[j * n + j];
                let t = x[(j, c)];
                for i in 0..j {
                    x[(i, c)] -= t * q.qr[j * n + i];
                }
            }
        }
    }
    x
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let (mut x, xnames) = data_matrix(args.get("x").ok_or_else(|| missing("x"))?, "cancor")?;
    let (mut y, ynames) = data_matrix(args.get("y").ok_or_else(|| missing("y"))?, "cancor")?;
    let nr = x.nrows();
    if nr != y.nrows() {
        return Err(KernelError::new("unequal number of rows in 'cancor'"));
    }
    if nr == 0 || x.ncols() == 0 || y.ncols() == 0 {
        return Err(KernelError::new("dimension 0 in 'x' or 'y'"));
    }
    let xcenter = centre(&mut x, args.get("xcenter"))?;
    let ycenter = centre(&mut y, args.get("ycenter"))?;
    if x.iter().chain(y.iter()).any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    let qx = dqrdc2(x.as_slice().to_vec(), nr, x.ncols(), 1e-7);
    let qy = dqrdc2(y.as_slice().to_vec(), nr, y.ncols(), 1e-7);
    let (dx, dy) = (qx.rank, qy.rank);
    if dx == 0 {
        return Err(KernelError::new("'x' has rank 0"));
    }
    if dy == 0 {
        return Err(KernelError::new("'y' has rank 0"));
    }
    let eye = DMatrix::from_fn(nr, dy, |i, j| if i == j { 1.0 } else { 0.0 });
    let a = apply_q(&qx, &apply_q(&qy, &eye, false), true)
        .rows(0, dx)
        .into_owned();
    let z = super::linalg::svd(&a, dx, dy)?;
    let (Some(u), Some(v)) = (z.u, z.v) else {
        return Err(KernelError::new("svd failed"));
    };
    let pick = |names: &Option<Vec<String>>, q: &Qr, k: usize| {
        names
            .as_ref()
            .map(|n| q.pivot[..k].iter().map(|&i| n[i - 1].clone()).collect())
    };
    let xcoef = backsolve(&qx, dx, &u);
    let ycoef = backsolve(&qy, dy, &v);
    let centre_value = |c: Vec<f64>, names: Option<Vec<String>>| match names {
        Some(n) => named(Value::Num(c), n),
        None => Value::Num(c),
    };
    let fields = vec![
        ("cor", Value::Num(z.d)),
        (
            "xcoef",
            dimnamed(Value::Mat(xcoef), pick(&xnames, &qx, dx), None),
        ),
        (
            "ycoef",
            dimnamed(Value::Mat(ycoef), pick(&ynames, &qy, dy), None),
        ),
        ("xcenter", centre_value(xcenter, xnames)),
        ("ycenter", centre_value(ycenter, ynames)),
    ];
    Ok(Value::List(List::named(fields)))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let cols = |name: &str| match args.ty(name) {
        Some(Type::Mat { cols, .. }) => *cols,
        Some(Type::Num { .. } | Type::Bool { .. }) => Some(1),
        Some(t) => super::frame::type_dims(t).and_then(|d| d.1),
        None => None,
    };
    let (px, py) = (cols("x"), cols("y"));
    let vec = |len| Type::Num { len, value: None };
    Ok(Type::Record {
        class: "list".into(),
        fields: vec![
            ("cor".into(), vec(px.zip(py).map(|(a, b)| a.min(b)))),
            ("xcoef".into(), Type::Mat { rows: px, cols: px }),
            ("ycoef".into(), Type::Mat { rows: py, cols: py }),
            ("xcenter".into(), vec(px)),
            ("ycenter".into(), vec(py)),
        ],
    })
}
