//! Decompositions with R's results: `solve`, `eigen`, `svd`, `qr` (with
//! `qr.Q`, `qr.R`) and `prcomp`.
//!
//! nalgebra's `DMatrix` is the matrix type at every boundary; the heavy
//! lifting is faer's (viewed without copying, both are column-major), except
//! where R's answer depends on the exact algorithm: `qr` is a port of R's
//! LINPACK `dqrdc2` and small `solve` systems a port of LAPACK `dgetrf2`.
//! faer is built without rayon, so every faer call runs sequentially
//! (`Par::Seq`), as heavy kernels must.

mod backsolve;
mod balance;
mod bdsqr;
mod bidiag;
mod bidiag_dc;
pub(crate) mod blas;
mod chol;
mod chol2inv;
mod cmdscale;
mod det;
mod eigen;
mod gemv;
mod givens;
mod kappa;
mod kronecker;
pub(crate) mod linpack;
mod norm;
mod qr;
mod qr_apply;
mod qr_solve;
mod rcond;
mod rwishart;
mod schur;
mod solve;
mod sterf;
pub(crate) mod svd;
mod svd_dc;
#[cfg(test)]
mod test_rng;
mod tridiag;
mod tridiag_dc;
mod wy;

use nalgebra::DMatrix;

pub(crate) use chol2inv::la_chol2inv;
pub(crate) use eigen::eigen;
pub(super) use eigen::is_symmetric;
pub(crate) use qr::qr_value;
pub(crate) use solve::log_determinant;
pub(crate) use solve::solve;
pub(crate) use svd::svd;

use super::{opt, req, ArgError, Args, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "norm",
        params: &[req("x"), opt("type")],
        random: false,
        shape: norm::norm_shape,
        eval: norm::norm_eval,
    },
    Kernel {
        name: "rcond",
        params: &[req("x"), opt("norm"), opt("triangular"), DOTS],
        random: false,
        shape: rcond::rcond_shape,
        eval: rcond::rcond_eval,
    },
    Kernel {
        name: "kappa",
        params: &[req("z"), opt("exact"), opt("norm"), opt("method"), DOTS],
        random: false,
        shape: kappa::kappa_shape,
        eval: kappa::kappa_eval,
    },
    Kernel {
        name: "qr.solve",
        params: &[req("a"), opt("b"), opt("tol")],
        random: false,
        shape: qr_solve::qr_solve_shape,
        eval: qr_solve::qr_solve_eval,
    },
    Kernel {
        name: "solve",
        params: &[req("a"), opt("b"), opt("tol")],
        random: false,
        shape: solve_shape,
        eval: solve_eval,
    },
    Kernel {
        name: "eigen",
        params: &[
            req("x"),
            opt("symmetric"),
            opt("only.values"),
            opt("EISPACK"),
        ],
        random: false,
        shape: eigen::shape,
        eval: eigen::eval,
    },
    Kernel {
        name: "svd",
        params: &[req("x"), opt("nu"), opt("nv"), opt("LINPACK")],
        random: false,
        shape: svd::svd_shape,
        eval: svd::svd_eval,
    },
    Kernel {
        name: "La.svd",
        params: &[req("x"), opt("nu"), opt("nv")],
        random: false,
        shape: svd::la_svd_shape,
        eval: svd::la_svd_eval,
    },
    Kernel {
        name: "prcomp",
        params: &[
            req("x"),
            opt("retx"),
            opt("center"),
            opt("scale."),
            opt("tol"),
            opt("rank."),
        ],
        random: false,
        shape: svd::prcomp_shape,
        eval: svd::prcomp_eval,
    },
    Kernel {
        name: "qr",
        params: &[req("x"), opt("tol"), opt("LAPACK")],
        random: false,
        shape: qr::qr_shape,
        eval: qr_eval,
    },
    Kernel {
        name: "qr.Q",
        params: &[req("qr"), opt("complete"), opt("Dvec")],
        random: false,
        shape: qr::q_shape,
        eval: qr::q_eval,
    },
    Kernel {
        name: "qr.R",
        params: &[req("qr"), opt("complete")],
        random: false,
        shape: qr::r_shape,
        eval: qr::r_eval,
    },
    Kernel {
        name: "qr.coef",
        params: &[req("qr"), req("y")],
        random: false,
        shape: qr_apply::coef_shape,
        eval: qr_apply::coef_eval,
    },
    Kernel {
        name: "qr.resid",
        params: &[req("qr"), req("y")],
        random: false,
        shape: qr_apply::apply_shape,
        eval: qr_apply::apply_eval,
    },
    Kernel {
        name: "qr.fitted",
        params: &[req("qr"), req("y"), opt("k")],
        random: false,
        shape: qr_apply::apply_shape,
        eval: qr_apply::apply_eval,
    },
    Kernel {
        name: "qr.qy",
        params: &[req("qr"), req("y")],
        random: false,
        shape: qr_apply::apply_shape,
        eval: qr_apply::apply_eval,
    },
    Kernel {
        name: "qr.qty",
        params: &[req("qr"), req("y")],
        random: false,
        shape: qr_apply::apply_shape,
        eval: qr_apply::apply_eval,
    },
    Kernel {
        name: "chol",
        params: &[req("x"), opt("pivot"), opt("LINPACK"), opt("tol"), DOTS],
        random: false,
        shape: chol::chol_shape,
        eval: chol::chol_eval,
    },
    Kernel {
        name: "rWishart",
        params: &[req("n"), req("df"), req("Sigma")],
        random: true,
        shape: rwishart::rwishart_shape,
        eval: rwishart::rwishart_eval,
    },
    Kernel {
        name: "chol2inv",
        params: &[req("x"), opt("size"), opt("LINPACK")],
        random: false,
        shape: chol2inv::chol2inv_shape,
        eval: chol2inv::chol2inv_eval,
    },
    Kernel {
        name: "mahalanobis",
        params: &[req("x"), req("center"), req("cov"), opt("inverted"), DOTS],
        random: false,
        shape: chol2inv::mahalanobis_shape,
        eval: chol2inv::mahalanobis_eval,
    },
    Kernel {
        name: "det",
        params: &[req("x"), DOTS],
        random: false,
        shape: det::det_shape,
        eval: det::det_eval,
    },
    Kernel {
        name: "determinant",
        params: &[req("x"), opt("logarithm"), DOTS],
        random: false,
        shape: det::determinant_shape,
        eval: det::determinant_eval,
    },
    Kernel {
        name: "backsolve",
        params: &[
            req("r"),
            req("x"),
            opt("k"),
            opt("upper.tri"),
            opt("transpose"),
        ],
        random: false,
        shape: backsolve::backsolve_shape,
        eval: backsolve::backsolve_eval,
    },
    Kernel {
        name: "forwardsolve",
        params: &[
            req("l"),
            req("x"),
            opt("k"),
            opt("upper.tri"),
            opt("transpose"),
        ],
        random: false,
        shape: backsolve::backsolve_shape,
        eval: backsolve::backsolve_eval,
    },
    Kernel {
        name: "kronecker",
        params: &[req("X"), req("Y"), opt("FUN"), opt("make.dimnames"), DOTS],
        random: false,
        shape: kronecker::kronecker_shape,
        eval: kronecker::kronecker_eval,
    },
    Kernel {
        name: "cmdscale",
        params: &[
            req("d"),
            opt("k"),
            opt("eig"),
            opt("add"),
            opt("x.ret"),
            opt("list."),
        ],
        random: false,
        shape: cmdscale::cmdscale_shape,
        eval: cmdscale::cmdscale_eval,
    },
];

/// R's `as.matrix(x)` for numbers: a vector becomes one column.
pub(crate) fn as_matrix(args: &Args<&Value>, name: &str) -> Result<DMatrix<f64>, KernelError> {
    match args.get(name) {
        Some(Value::Mat(m)) => Ok(m.clone()),
        Some(_) => {
            let v = args.nums(name)?;
            Ok(DMatrix::from_column_slice(v.len(), 1, &v))
        }
        None => Err(KernelError::new(format!(
            "argument \"{name}\" is missing, with no default"
        ))),
    }
}

/// The dimensions `as.matrix` would give an argument of this type;
/// `Err` for types that are not numeric.
pub(crate) fn matrix_dims(
    args: &Args<Type>,
    name: &str,
) -> Result<(Option<usize>, Option<usize>), ArgError> {
    match args.ty(name) {
        None | Some(Type::Any) => Ok((None, None)),
        Some(Type::Mat { rows, cols }) => Ok((*rows, *cols)),
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => Ok((t.len(), Some(1))),
        Some(t) => Err(args.error(
            name,
            format!(
                "`{name}` of {}() must be a numeric matrix, not {}",
                args.func,
                t.describe()
            ),
        )),
    }
}

/// `qr(x)`: R's `dqrdc2` is called with NAOK = FALSE, so NA, NaN and Inf
/// are refused before the decomposition, with R's message.
fn qr_eval(args: &Args<&Value>, ctx: &mut super::Ctx) -> Result<Value, KernelError> {
    if !all_finite(&as_matrix(args, "x")?) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 1)",
        ));
    }
    qr::qr_eval(args, ctx)
}

fn all_finite(m: &DMatrix<f64>) -> bool {
    m.iter().all(|v| v.is_finite())
}

/// The power of two that brings a matrix with entries near 1e-300 or 1e300
/// into range, as LAPACK's drivers scale first (Householder norms of tiny
/// columns underflow, of huge ones overflow); `None` when in range. A power
/// of two, so the scaling is exact and vectors are unchanged.
fn range_scale(x: &DMatrix<f64>) -> Option<f64> {
    let anrm = x.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
    let small = f64::MIN_POSITIVE.sqrt() / f64::EPSILON;
    // Denormals need more than 2^1023 to reach 1, which is infinite; 2^1000
    // brings even the smallest well inside the range.
    (anrm > 0.0 && (anrm < small || anrm > 1.0 / small))
        .then(|| 2f64.powi((-anrm.log2().round()).clamp(-1000.0, 1000.0) as i32))
}

fn faer_view(m: &DMatrix<f64>) -> faer::MatRef<'_, f64> {
    faer::MatRef::from_column_major_slice(m.as_slice(), m.nrows(), m.ncols())
}

fn faer_view_mut(m: &mut DMatrix<f64>) -> faer::MatMut<'_, f64> {
    let (r, c) = m.shape();
    faer::MatMut::from_column_major_slice_mut(m.as_mut_slice(), r, c)
}

fn mat_type(rows: Option<usize>, cols: Option<usize>) -> Type {
    Type::Mat { rows, cols }
}

fn solve_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (r, c) = matrix_dims(args, "a")?;
    if let (Some(r), Some(c)) = (r, c) {
        if r != c {
            return Err(args.error("a", format!("'a' ({r} x {c}) must be square")));
        }
    }
    let n = r.or(c);
    match args.ty("b") {
        None => Ok(mat_type(n, n)),
        Some(Type::Any) => Ok(Type::Any),
        Some(t) => {
            let (br, bc) = matrix_dims(args, "b")?;
            if let (Some(n), Some(br)) = (n, br) {
                if n != br {
                    return Err(args.error(
                        "b",
                        format!(
                            "'b' ({br} x {}) must be compatible with 'a' ({n} x {n})",
                            bc.map_or("?".to_string(), |c| c.to_string())
                        ),
                    ));
                }
            }
            Ok(match t {
                Type::Mat { .. } => mat_type(n.or(br), bc),
                _ => Type::Num {
                    len: n.or(br),
                    value: None,
                },
            })
        }
    }
}

fn solve_eval(args: &Args<&Value>, _: &mut super::Ctx) -> Result<Value, KernelError> {
    let a = as_matrix(args, "a")?;
    let tol = args.scalar_or("tol", f64::EPSILON)?;
    let b_vector = matches!(args.get("b"), Some(v) if !matches!(v, Value::Mat(_)));
    let b = if args.has("b") {
        Some(as_matrix(args, "b")?)
    } else {
        None
    };
    let x = solve::solve(&a, b.as_ref(), tol)?;
    if b_vector {
        Ok(Value::Num(x.as_slice().to_vec()))
    } else {
        Ok(Value::Mat(x))
    }
}
