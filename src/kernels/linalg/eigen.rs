//! `eigen(x, symmetric, only.values)` with R's conventions: symmetric
//! matrices give real values in decreasing order; general ones are ordered by
//! decreasing modulus, complex only when some value is, and each vector has
//! unit length with its largest component real, as LAPACK `dgeev` leaves it.

use faer::reborrow::ReborrowMut;
use nalgebra::DMatrix;
use num_complex::Complex64;

use super::{
    all_finite, faer_view, from_faer, matrix_dims, range_scale, ArgError, Args, KernelError,
    ShapeCtx, Type, Value,
};
use crate::kernels::value::List;
use crate::kernels::Ctx;

/// R's `isSymmetric.matrix`: `all.equal(x, t(x), tolerance = 100 * eps)`,
/// i.e. the mean absolute difference over the entries that differ, relative
/// to their mean absolute value.
pub(crate) fn is_symmetric(x: &DMatrix<f64>) -> bool {
    let n = x.nrows();
    if n != x.ncols() {
        return false;
    }
    let tol = 100.0 * f64::EPSILON;
    let (mut diff, mut size, mut count) = (0.0, 0.0, 0usize);
    for j in 0..n {
        for i in 0..n {
            let (a, b) = (x[(i, j)], x[(j, i)]);
            if a.is_nan() || a == b {
                continue;
            }
            diff += (a - b).abs();
            size += a.abs();
            count += 1;
        }
    }
    if count == 0 {
        return true;
    }
    let mut xy = diff / count as f64;
    let xn = size / count as f64;
    if xn.is_finite() && xn > tol {
        xy /= xn;
    }
    xy <= tol
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let (r, c) = matrix_dims(args, "x")?;
    if let (Some(r), Some(c)) = (r, c) {
        if r != c {
            return Err(args.error("x", format!("non-square matrix in 'eigen' ({r} x {c})")));
        }
    }
    let n = r.or(c);
    let symmetric = args.ty("symmetric").and_then(Type::const_scalar) == Some(1.0);
    let only_values = args.ty("only.values").and_then(Type::const_scalar) == Some(1.0);
    let (values, vectors) = if symmetric {
        (
            Type::Num {
                len: n,
                value: None,
            },
            Type::Mat { rows: n, cols: n },
        )
    } else {
        // Real or complex depends on the data.
        (Type::Any, Type::Any)
    };
    Ok(Type::record(
        "eigen",
        vec![
            ("values", values),
            ("vectors", if only_values { Type::Null } else { vectors }),
        ],
    ))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    // A matrix argument is borrowed: the decomposition copies it anyway.
    let owned;
    let x = match args.get("x") {
        Some(Value::Mat(m)) => m,
        _ => {
            owned = super::as_matrix(args, "x")?;
            &owned
        }
    };
    let symmetric = if args.has("symmetric") {
        Some(args.bool_or("symmetric", false)?)
    } else {
        None
    };
    let only_values = args.bool_or("only.values", false)?;
    eigen(x, symmetric, only_values)
}

pub(crate) fn eigen(
    x: &DMatrix<f64>,
    symmetric: Option<bool>,
    only_values: bool,
) -> Result<Value, KernelError> {
    let n = x.nrows();
    if n == 0 {
        return Err(KernelError::new("0 x 0 matrix"));
    }
    if n != x.ncols() {
        return Err(KernelError::new("non-square matrix in 'eigen'"));
    }
    if !all_finite(x) {
        return Err(KernelError::new("infinite or missing values in 'x'"));
    }
    let symmetric = symmetric.unwrap_or_else(|| is_symmetric(x));
    let decompose = |x: &DMatrix<f64>| {
        if symmetric {
            symmetric_eigen(x, only_values)
        } else {
            general_eigen(x, only_values)
        }
    };
    // Like dgeev and dsyevr (a general eigen of a * 1e-300 was wrong in
    // the first digit without it).
    let (values, vectors) = if let Some(f) = range_scale(x) {
        let (mut values, vectors) = decompose(&(x * f))?;
        match &mut values {
            Value::Num(v) => v.iter_mut().for_each(|v| *v /= f),
            Value::Complex(v) => v.iter_mut().for_each(|v| *v /= f),
            _ => {}
        }
        (values, vectors)
    } else {
        decompose(x)?
    };
    Ok(Value::List(List::record(
        "eigen",
        vec![("values", values), ("vectors", vectors)],
    )))
}

fn evd_error(e: faer::linalg::evd::EvdError) -> KernelError {
    KernelError::new(format!("error code {e:?} from Lapack routine"))
}

/// LAPACK `dsyevr` reads the lower triangle, as faer does with `Side::Lower`.
fn symmetric_eigen(x: &DMatrix<f64>, only_values: bool) -> Result<(Value, Value), KernelError> {
    let view = faer_view(x);
    if only_values {
        let mut v = view
            .self_adjoint_eigenvalues(faer::Side::Lower)
            .map_err(evd_error)?;
        v.reverse();
        return Ok((Value::Num(v), Value::Null));
    }
    let n = x.nrows();
    if n < SMALL {
        let evd = view
            .self_adjoint_eigen(faer::Side::Lower)
            .map_err(evd_error)?;
        let s = evd.S();
        let values: Vec<f64> = (0..n).rev().map(|i| s[i]).collect();
        let u = from_faer(evd.U());
        let vectors = DMatrix::from_fn(n, n, |i, j| u[(i, n - 1 - j)]);
        return Ok((Value::Num(values), Value::Mat(vectors)));
    }
    let (mut values, vectors) = symmetric_eigen_dc(view);
    values.reverse();
    Ok((Value::Num(values), Value::Mat(vectors)))
}

/// Below this order faer's own solver is used.
const SMALL: usize = 3;

/// faer's `self_adjoint_evd` with our blocked tridiagonalisation (same
/// reflector storage, so faer's back-transformation applies) and our divide
/// and conquer for the tridiagonal problem. Values come out increasing, vector columns decreasing (R's order).
fn symmetric_eigen_dc(a: faer::MatRef<'_, f64>) -> (Vec<f64>, DMatrix<f64>) {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::{householder, qr};
    use faer::Par;

    let n = a.nrows();
    let bs = qr::no_pivoting::factor::recommended_block_size::<f64>(n, n);
    // Like R (LAPACK with uplo "L"), the reduction reads only the lower
    // triangle, so a plain contiguous copy will do.
    let mut buf = vec![0.0; n * n];
    for (j, col) in buf.chunks_exact_mut(n).enumerate() {
        col.iter_mut()
            .zip(a.col(j).iter())
            .for_each(|(d, &s)| *d = s);
    }
    let mut house = faer::Mat::<f64>::zeros(bs, n - 1);
    super::tridiag::tridiag_in_place(&mut buf, n, house.as_mut());
    let trid = faer::MatRef::from_column_major_slice(&buf, n, n);
    let mut mem = MemBuffer::new(
        householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
            n - 1,
            bs,
            n,
        ),
    );
    let stack = MemStack::new(&mut mem);
    let mut d: Vec<f64> = (0..n).map(|i| trid[(i, i)]).collect();
    let e: Vec<f64> = (0..n - 1).map(|i| trid[(i + 1, i)]).collect();
    let mut vectors = DMatrix::<f64>::zeros(n, n);
    let mut u = super::faer_view_mut(&mut vectors).reverse_cols_mut();
    super::tridiag_dc::tridiagonal_eigen(&mut d, &e, u.rb_mut());
    householder::apply_block_householder_sequence_on_the_left_in_place_with_conj(
        trid.submatrix(1, 0, n - 1, n - 1),
        house.as_ref(),
        faer::Conj::No,
        u.subrows_mut(1, n - 1),
        Par::Seq,
        stack,
    );
    (d, vectors)
}

fn general_eigen(x: &DMatrix<f64>, only_values: bool) -> Result<(Value, Value), KernelError> {
    let n = x.nrows();
    let view = faer_view(x);
    let (vals, vecs): (Vec<Complex64>, Option<DMatrix<Complex64>>) = if only_values {
        let v = view.eigenvalues().map_err(evd_error)?;
        (
            v.into_iter().map(|c| Complex64::new(c.re, c.im)).collect(),
            None,
        )
    } else {
        let evd = view.eigen().map_err(evd_error)?;
        let s = evd.S();
        let u = evd.U();
        let vals = (0..n).map(|i| Complex64::new(s[i].re, s[i].im)).collect();
        let vecs = DMatrix::from_fn(n, n, |i, j| Complex64::new(u[(i, j)].re, u[(i, j)].im));
        (vals, Some(vecs))
    };
    // LAPACK lists a conjugate pair with the positive imaginary part first;
    // R's stable sort by modulus keeps that order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (vals[a], vals[b]);
        vb.norm().total_cmp(&va.norm()).then_with(|| {
            if va.re == vb.re && va.im == -vb.im {
                vb.im.total_cmp(&va.im)
            } else {
                std::cmp::Ordering::Equal
            }
        })
    });
    // R's La_rg: complex output only when some imaginary part is not
    // negligible against its real part.
    let complex = vals
        .iter()
        .any(|v| v.im.abs() > 10.0 * f64::EPSILON * v.re.abs());
    let values = if complex {
        Value::Complex(order.iter().map(|&i| vals[i]).collect())
    } else {
        Value::Num(order.iter().map(|&i| vals[i].re).collect())
    };
    let Some(vecs) = vecs else {
        return Ok((values, Value::Null));
    };
    let mut out = DMatrix::from_fn(n, n, |i, j| vecs[(i, order[j])]);
    for mut col in out.column_iter_mut() {
        let norm = col.iter().map(|c| c.norm_sqr()).sum::<f64>().sqrt();
        if norm > 0.0 {
            col.iter_mut().for_each(|c| *c /= norm);
        }
        let is_real = col.iter().all(|c| c.im == 0.0);
        if !is_real {
            // dgeev rotates so the largest component is real.
            let mut k = 0;
            let mut best = -1.0;
            for (i, c) in col.iter().enumerate() {
                if c.norm_sqr() > best {
                    best = c.norm_sqr();
                    k = i;
                }
            }
            let ck = col[k];
            if ck.norm() > 0.0 {
                let phase = ck.conj() / ck.norm();
                col.iter_mut().for_each(|c| *c *= phase);
                col[k].im = 0.0;
            }
        }
    }
    if complex {
        Ok((values, Value::ComplexMat(out)))
    } else {
        Ok((values, Value::Mat(out.map(|c| c.re))))
    }
}
