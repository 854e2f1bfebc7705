//! The contrast matrices of stats/R/contrast.R: `contr.treatment`,
//! `contr.SAS`, `contr.sum`, `contr.helmert` and `contr.poly` (its
//! `make.poly`: the centred scores' powers through LINPACK dqrdc2,
//! `qr.qy` of R's diagonal, columns scaled to unit length), with R's
//! dimnames.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::arith::ops::r_pow;
use super::data::r_num_to_string;
use super::linalg::linpack::{dqrdc2, dqrsl, Job};
use super::names::{bare, dimnamed};
use super::summary::{mean, sum};
use super::{opt, req, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "contr.treatment",
        params: &[req("n"), opt("base"), opt("contrasts"), opt("sparse")],
        random: false,
        shape: mat_shape,
        eval: |a, _| treatment(a),
    },
    Kernel {
        name: "contr.SAS",
        params: &[req("n"), opt("contrasts"), opt("sparse")],
        random: false,
        shape: mat_shape,
        eval: |a, _| treatment(a),
    },
    Kernel {
        name: "contr.sum",
        params: &[req("n"), opt("contrasts"), opt("sparse")],
        random: false,
        shape: mat_shape,
        eval: |a, _| sum_helmert(a),
    },
    Kernel {
        name: "contr.helmert",
        params: &[req("n"), opt("contrasts"), opt("sparse")],
        random: false,
        shape: mat_shape,
        eval: |a, _| sum_helmert(a),
    },
    Kernel {
        name: "contr.poly",
        params: &[req("n"), opt("scores"), opt("contrasts"), opt("sparse")],
        random: false,
        shape: mat_shape,
        eval: |a, _| poly(a),
    },
];

/// A factor's contrasts as `model.matrix` codes it (`contrasts<-` of a
/// `contrasts.arg` entry): the contrast matrix's columns, each a value per
/// level, and their names (`None`: R numbers the columns, `g1`, `g2`).
pub struct FactorContrasts {
    pub columns: Vec<Vec<f64>>,
    pub names: Option<Vec<String>>,
}

/// The contrasts `spec` gives a factor of these levels: the name of one of
/// R's contrast functions (`"contr.sum"`), called on the levels, or a
/// contrast matrix of a row per level.
pub(crate) fn for_factor(spec: &Value, levels: &[String]) -> Result<FactorContrasts, KernelError> {
    let m = match bare(spec) {
        Value::Str(s) if s.len() == 1 => {
            let Some(kernel) = KERNELS.iter().find(|k| k.name == s[0]) else {
                return Err(KernelError::new(format!(
                    "flowcast's contrasts take contr.treatment, contr.SAS, contr.sum, \
                     contr.helmert, contr.poly or a matrix, not \"{}\"",
                    s[0]
                )));
            };
            let n = Value::Str(levels.to_vec());
            let args = Args::match_call(kernel.name, kernel.params, vec![(None, &n)])
                .map_err(|e| KernelError::new(e.message))?;
            match kernel.name {
                "contr.treatment" | "contr.SAS" => treatment(&args)?,
                "contr.poly" => poly(&args)?,
                _ => sum_helmert(&args)?,
            }
        }
        Value::Mat(_) => spec.clone(),
        other => {
            return Err(KernelError::new(format!(
                "flowcast's contrasts take a contrast function's name or a matrix, not {}",
                other.type_name()
            )))
        }
    };
    let names = super::names::dimnames(&m).1.map(<[String]>::to_vec);
    let Value::Mat(x) = bare(&m) else {
        return Err(KernelError::new("a contrast matrix must be numeric"));
    };
    // `contrasts<-`: "wrong number of contrast matrix rows".
    if x.nrows() != levels.len() {
        return Err(KernelError::new("wrong number of contrast matrix rows"));
    }
    Ok(FactorContrasts {
        columns: x
            .column_iter()
            .map(|c| c.iter().copied().collect())
            .collect(),
        names,
    })
}

fn mat_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Mat {
        rows: None,
        cols: None,
    })
}

/// `n` as contrast.R reads it: a single number is a count (`Some`), any
/// other vector the levels themselves.
enum Levels {
    Count(f64),
    Given(Vec<String>),
}

fn levels_arg(args: &Args<&Value>) -> Result<Levels, KernelError> {
    let v = args
        .get("n")
        .ok_or_else(|| KernelError::new("argument \"n\" is missing, with no default"))?;
    let v = bare(v);
    let given = match v {
        Value::Num(x) if x.len() == 1 => {
            let n = x[0];
            if !n.is_nan() && n.fract() != 0.0 {
                return Err(KernelError::new(format!(
                    "flowcast's {}() takes a whole number of levels 'n'",
                    args.func
                )));
            }
            return Ok(Levels::Count(n));
        }
        Value::Num(x) => x.iter().map(|&x| r_num_to_string(x)).collect(),
        Value::Str(s) => s.clone(),
        Value::Factor(f) => f.labels(),
        Value::Bool(b) => b
            .iter()
            .map(|b| match b {
                None => "NA".to_string(),
                Some(true) => "TRUE".to_string(),
                Some(false) => "FALSE".to_string(),
            })
            .collect(),
        Value::Null => Vec::new(),
        other => {
            return Err(KernelError::new(format!(
                "flowcast's {}() takes a number of levels or the levels, not {}",
                args.func,
                other.type_name()
            )))
        }
    };
    Ok(Levels::Given(given))
}

fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    super::logical::if_given(args.get_if_formal(name), default)
}

fn no_sparse(args: &Args<&Value>) -> Result<(), KernelError> {
    if flag(args, "sparse", false)? {
        return Err(KernelError::new(format!(
            "flowcast's {}() makes no sparse (Matrix package) matrices: sparse = TRUE is refused",
            args.func
        )));
    }
    Ok(())
}

fn na_condition() -> KernelError {
    KernelError::new("missing value where TRUE/FALSE needed")
}

/// `.Diag(levels)`: the identity with the levels as both dimnames.
fn diag(levels: &[String]) -> (DMatrix<f64>, Vec<String>, Vec<String>) {
    let n = levels.len();
    (DMatrix::identity(n, n), levels.to_vec(), levels.to_vec())
}

/// R's refusals of `n` levels, whose `.Diag` is an `n` by `n` matrix:
/// `seq_len(n)` past 2^52, `array(0, c(n, n))` past R's integers, else
/// the matrix itself where it does not fit (`contr.sum(70000)`, 36.5 Gb).
fn room_for_levels(n: f64) -> Result<(), KernelError> {
    if n > 4_503_599_627_370_496.0 {
        return Err(KernelError::new("result would be too long a vector"));
    }
    if n > 2_147_483_647.0 {
        return Err(KernelError::new("vector size cannot be NA"));
    }
    // The diagonal and the contrasts made of it are held together.
    let bytes = n * n * 8.0;
    super::alloc::ensure_room(2.0 * bytes).map_err(|_| super::alloc::cannot_allocate(bytes))
}

fn counted(n: usize) -> Vec<String> {
    (1..=n).map(|i| i.to_string()).collect()
}

/// `contr.treatment(n, base, contrasts)` and `contr.SAS(n, contrasts)`
/// (contr.treatment with the last level as base).
fn treatment(args: &Args<&Value>) -> Result<Value, KernelError> {
    let (levels, n) = match levels_arg(args)? {
        Levels::Count(n) if n.is_nan() => return Err(na_condition()),
        Levels::Count(n) if n > 1.0 => {
            room_for_levels(n)?;
            (counted(n as usize), n)
        }
        Levels::Count(_) => {
            return Err(KernelError::new(
                "not enough degrees of freedom to define contrasts",
            ))
        }
        Levels::Given(l) => {
            let n = l.len() as f64;
            (l, n)
        }
    };
    let base = if args.func == "contr.SAS" {
        n
    } else {
        match args.get_if_formal("base") {
            None => 1.0,
            Some(v) => bare(v).as_scalar().ok_or_else(|| {
                KernelError::new(format!(
                    "flowcast's contr.treatment() takes one number 'base', not {}",
                    v.type_name()
                ))
            })?,
        }
    };
    let contrasts = flag(args, "contrasts", true)?;
    no_sparse(args)?;
    if levels.is_empty() {
        // .Diag's rep.int(c(1, numeric(n)), n - 1L) of no levels.
        return Err(KernelError::new("invalid 'times' value"));
    }
    let (m, rows, cols) = diag(&levels);
    if !contrasts {
        return Ok(dimnamed(Value::Mat(m), Some(rows), Some(cols)));
    }
    if n < 2.0 {
        return Err(KernelError::new(format!(
            "contrasts not defined for {} degrees of freedom",
            n as i64 - 1
        )));
    }
    if base.is_nan() {
        return Err(na_condition());
    }
    if base < 1.0 || base > n {
        return Err(KernelError::new("baseline group number out of range"));
    }
    if base.fract() != 0.0 {
        return Err(KernelError::new(
            "flowcast's contr.treatment() takes a whole 'base'",
        ));
    }
    let b = base as usize - 1;
    let keep: Vec<usize> = (0..levels.len()).filter(|&j| j != b).collect();
    let out = DMatrix::from_fn(levels.len(), keep.len(), |i, j| m[(i, keep[j])]);
    let cols = keep.iter().map(|&j| cols[j].clone()).collect();
    Ok(dimnamed(Value::Mat(out), Some(rows), Some(cols)))
}

/// `contr.sum(n, contrasts)` and `contr.helmert(n, contrasts)`.
fn sum_helmert(args: &Args<&Value>) -> Result<Value, KernelError> {
    let levels = match levels_arg(args)? {
        Levels::Count(n) if n.is_nan() => return Err(na_condition()),
        Levels::Count(n) if n > 1.0 => {
            room_for_levels(n)?;
            counted(n as usize)
        }
        Levels::Given(l) if l.len() > 1 => l,
        _ => {
            return Err(KernelError::new(
                "not enough degrees of freedom to define contrasts",
            ))
        }
    };
    let contrasts = flag(args, "contrasts", true)?;
    no_sparse(args)?;
    let n = levels.len();
    if !contrasts {
        let (m, rows, cols) = diag(&levels);
        return Ok(dimnamed(Value::Mat(m), Some(rows), Some(cols)));
    }
    let m = if args.func == "contr.sum" {
        DMatrix::from_fn(n, n - 1, |i, j| {
            if i == n - 1 {
                -1.0
            } else if i == j {
                1.0
            } else {
                0.0
            }
        })
    } else {
        DMatrix::from_fn(n, n - 1, |i, j| {
            if i <= j {
                -1.0
            } else if i == j + 1 {
                (j + 1) as f64
            } else {
                0.0
            }
        })
    };
    Ok(dimnamed(Value::Mat(m), Some(levels), None))
}

/// contr.poly's `make.poly(n, scores)`.
fn make_poly(n: usize, scores: &[f64]) -> DMatrix<f64> {
    let mu = mean(scores);
    let y: Vec<f64> = scores.iter().map(|s| s - mu).collect();
    let mut x = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            x[i + j * n] = r_pow(y[i], j as f64);
        }
    }
    let qr = dqrdc2(x, n, n, 1e-7);
    let mut z = DMatrix::<f64>::zeros(n, n);
    for j in 0..n {
        let mut col = vec![0.0; n];
        col[j] = qr.qr[j + j * n];
        let qy = dqrsl(
            &qr,
            qr.rank,
            &col,
            Job {
                qy: true,
                ..Job::default()
            },
        )
        .qy;
        let sq: Vec<f64> = qy.iter().map(|v| v * v).collect();
        let norm = sum(&sq, false).sqrt();
        for i in 0..n {
            z[(i, j)] = qy[i] / norm;
        }
    }
    z
}

/// `contr.poly(n, scores, contrasts)`.
fn poly(args: &Args<&Value>) -> Result<Value, KernelError> {
    let n = match levels_arg(args)? {
        Levels::Count(n) => n,
        Levels::Given(l) => l.len() as f64,
    };
    if n.is_nan() {
        return Err(na_condition());
    }
    if n < 2.0 {
        return Err(KernelError::new(format!(
            "contrasts not defined for {} degrees of freedom",
            n as i64 - 1
        )));
    }
    if n > 95.0 {
        return Err(KernelError::new(format!(
            "orthogonal polynomials cannot be represented accurately enough for {} degrees of freedom",
            n as i64 - 1
        )));
    }
    let n = n as usize;
    let scores: Vec<f64> = match args.get_if_formal("scores").map(bare) {
        None => (1..=n).map(|i| i as f64).collect(),
        Some(v) => {
            let len = v.len();
            if len != n {
                return Err(KernelError::new("'scores' argument is of the wrong length"));
            }
            match v {
                Value::Num(s) => s.clone(),
                _ => return Err(KernelError::new("'scores' must all be different numbers")),
            }
        }
    };
    let mut seen = scores.clone();
    seen.sort_by(f64::total_cmp);
    // anyDuplicated: NA matches NA, and NaN NaN.
    if seen
        .windows(2)
        .any(|w| w[0] == w[1] || (w[0].is_nan() && w[1].is_nan()))
    {
        return Err(KernelError::new("'scores' must all be different numbers"));
    }
    let contrasts = flag(args, "contrasts", true)?;
    no_sparse(args)?;
    let mut z = make_poly(n, &scores);
    let mut names: Vec<String> = (0..n).map(|i| format!("^{i}")).collect();
    if !contrasts {
        for i in 0..n {
            z[(i, 0)] = 1.0;
        }
        return Ok(dimnamed(Value::Mat(z), None, Some(names)));
    }
    for (k, s) in [".L", ".Q", ".C"].iter().enumerate().take((n - 1).min(3)) {
        names[k + 1] = s.to_string();
    }
    let out = z.columns(1, n - 1).into_owned();
    Ok(dimnamed(Value::Mat(out), None, Some(names[1..].to_vec())))
}
