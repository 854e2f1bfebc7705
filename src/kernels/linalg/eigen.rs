//! `eigen(x, symmetric, only.values)` with R's conventions: symmetric
//! matrices give real values in decreasing order; general ones are ordered by
//! decreasing modulus, complex only when some value is, and each vector has
//! unit length with its largest component real, as LAPACK `dgeev` leaves it.

use std::sync::atomic::AtomicBool;

use faer::reborrow::{Reborrow, ReborrowMut};
use nalgebra::DMatrix;
use num_complex::Complex64;

use super::{
    all_finite, faer_view, faer_view_mut, matrix_dims, range_scale, ArgError, Args, KernelError,
    ShapeCtx, Type, Value,
};
use crate::kernels::value::List;
use crate::kernels::{check_cancel, Ctx};

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

pub(super) fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
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
    eigen(x, symmetric, only_values, ctx.cancel)
}

pub(crate) fn eigen(
    x: &DMatrix<f64>,
    symmetric: Option<bool>,
    only_values: bool,
    cancel: &AtomicBool,
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
            symmetric_eigen(x, only_values, cancel)
        } else {
            // faer's parallel Hessenberg and multishift paths sum in another
            // order (an eigenvector's sign flipped at width 2): a general
            // eigen runs on one worker, so its values never depend on the
            // plan.
            crate::kernels::width::narrow(|| general_eigen(x, only_values, cancel))
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

/// LAPACK `dsyevr` reads the lower triangle, and so does the reduction here.
fn symmetric_eigen(
    x: &DMatrix<f64>,
    only_values: bool,
    cancel: &AtomicBool,
) -> Result<(Value, Value), KernelError> {
    let view = faer_view(x);
    let n = x.nrows();
    if only_values {
        let mut v = symmetric_values(view, cancel)?;
        v.reverse();
        return Ok((Value::Num(v), Value::Null));
    }
    if n < 3 {
        return Ok(symmetric_eigen_small(x));
    }
    let (mut values, vectors) = symmetric_eigen_dc(view, cancel)?;
    values.reverse();
    Ok((Value::Num(values), Value::Mat(vectors)))
}

/// Orders 1 and 2 as `dstemr` solves them: a 2 x 2 matrix needs no
/// reduction, and `dlaev2` gives its vectors, (cs, sn) for the value larger
/// in magnitude and (-sn, cs) for the other.
fn symmetric_eigen_small(x: &DMatrix<f64>) -> (Value, Value) {
    if x.nrows() == 1 {
        return (
            Value::Num(vec![x[(0, 0)]]),
            Value::Mat(DMatrix::from_element(1, 1, 1.0)),
        );
    }
    let (rt1, rt2, cs, sn) = super::sterf::dlaev2(x[(0, 0)], x[(1, 0)], x[(1, 1)]);
    let (first, second) = ([cs, sn], [-sn, cs]);
    // dstemr sorts increasing, swapping only on a strict decrease, and R
    // reverses; so rt1's vector comes first unless rt2 is the larger.
    let (values, columns) = if rt2 > rt1 {
        ([rt2, rt1], [second, first])
    } else {
        ([rt1, rt2], [first, second])
    };
    let vectors = DMatrix::from_fn(2, 2, |i, j| columns[j][i]);
    (Value::Num(values.to_vec()), Value::Mat(vectors))
}

/// faer's `self_adjoint_evd` with our blocked tridiagonalisation (same
/// reflector storage, so faer's back-transformation applies) and our divide
/// and conquer for the tridiagonal problem. Values come out increasing, vector columns decreasing (R's order).
fn symmetric_eigen_dc(
    a: faer::MatRef<'_, f64>,
    cancel: &AtomicBool,
) -> Result<(Vec<f64>, DMatrix<f64>), KernelError> {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::householder;

    let n = a.nrows();
    let (buf, house) = tridiagonal(a, cancel)?;
    let trid = faer::MatRef::from_column_major_slice(&buf, n, n);
    let mut mem = MemBuffer::new(
        householder::apply_block_householder_sequence_on_the_left_in_place_scratch::<f64>(
            n - 1,
            house.nrows(),
            n,
        ),
    );
    let stack = MemStack::new(&mut mem);
    let (mut d, e) = diagonals(&buf, n);
    let mut vectors = DMatrix::<f64>::zeros(n, n);
    let mut u = super::faer_view_mut(&mut vectors).reverse_cols_mut();
    super::tridiag_dc::tridiagonal_eigen(&mut d, &e, u.rb_mut(), cancel)?;
    positive_twist(u.rb_mut());
    // faer's `apply_block_householder_sequence_on_the_left_in_place_with_conj`
    // block by block, as it loops (last block first, the first one the
    // remainder), so a cancel is seen between blocks and not only after
    // all 2 n³ flops.
    let (basis, factor) = (trid.submatrix(1, 0, n - 1, n - 1), house.as_ref());
    let mut u = u.subrows_mut(1, n - 1);
    let (size, b) = (factor.ncols(), factor.nrows());
    let mut j = size;
    let mut block = match size % b {
        0 => b,
        r => r,
    };
    while j > 0 {
        check_cancel(cancel)?;
        let prev = j - block;
        block = b;
        householder::apply_block_householder_on_the_left_in_place_with_conj(
            basis.get(prev.., prev..j),
            factor.get(.., prev..j).subrows(0, j - prev),
            faer::Conj::No,
            u.rb_mut().get_mut(prev.., ..),
            crate::kernels::width::par(),
            stack,
        );
        j = prev;
    }
    Ok((d, vectors))
}

/// R's `dsyevr` finds each vector of T by MRRR (`dlar1v`): a twisted
/// factorization sets the vector to 1 at the twist index, the index where
/// the vector is largest in magnitude, and then scales it by a positive
/// norm. So R's vectors of T are positive where they are largest; divide and
/// conquer fixes no sign, and without this half of R's columns came out
/// negated. Exact ties in magnitude take the first index, as `dlar1v`'s scan
/// for the smallest twist does.
fn positive_twist(mut u: faer::MatMut<'_, f64>) {
    for j in 0..u.ncols() {
        let mut twist = 0;
        for i in 1..u.nrows() {
            if u[(i, j)].abs() > u[(twist, j)].abs() {
                twist = i;
            }
        }
        if u[(twist, j)] < 0.0 {
            for i in 0..u.nrows() {
                u[(i, j)] = -u[(i, j)];
            }
        }
    }
}

/// `dsyevr` without vectors: the reduction, then `dsterf`. Values come out
/// increasing.
fn symmetric_values(
    a: faer::MatRef<'_, f64>,
    cancel: &AtomicBool,
) -> Result<Vec<f64>, KernelError> {
    let n = a.nrows();
    let (buf, _) = tridiagonal(a, cancel)?;
    let (mut d, mut e) = diagonals(&buf, n);
    super::sterf::sterf(&mut d, &mut e).map_err(|info| {
        KernelError::new(format!("error code {info} from Lapack routine 'dsyevr'"))
    })?;
    Ok(d)
}

/// The blocked tridiagonal reduction of `a`'s lower triangle, as a
/// column-major buffer holding T and the reflectors, and their block
/// factors.
fn tridiagonal(
    a: faer::MatRef<'_, f64>,
    cancel: &AtomicBool,
) -> Result<(Vec<f64>, faer::Mat<f64>), KernelError> {
    let n = a.nrows();
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n, n);
    // Like R (LAPACK with uplo "L"), the reduction reads only the lower
    // triangle, so a plain contiguous copy will do.
    let mut buf = vec![0.0; n * n];
    for (j, col) in buf.chunks_exact_mut(n).enumerate() {
        col.iter_mut()
            .zip(a.col(j).iter())
            .for_each(|(d, &s)| *d = s);
    }
    let mut house = faer::Mat::<f64>::zeros(bs, n - 1);
    super::tridiag::tridiag_in_place(&mut buf, n, house.as_mut(), cancel)?;
    Ok((buf, house))
}

/// T's diagonal and subdiagonal from the reduction's buffer.
fn diagonals(buf: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let d = (0..n).map(|i| buf[i * n + i]).collect();
    let e = (0..n - 1).map(|i| buf[i * n + i + 1]).collect();
    (d, e)
}

fn general_eigen(
    x: &DMatrix<f64>,
    only_values: bool,
    cancel: &AtomicBool,
) -> Result<(Value, Value), KernelError> {
    let n = x.nrows();
    // dgeev balances first; so must we, or badly scaled matrices lose
    // their small eigenvalues.
    let mut h = x.clone();
    let balancing = super::balance::balance(&mut h);
    let (re, im, vr) = real_eigen(&mut h, !only_values, cancel)?;
    let vals: Vec<Complex64> = (0..n).map(|i| Complex64::new(re[i], im[i])).collect();
    // R sorts by decreasing modulus with a stable sort; LAPACK lists a
    // conjugate pair with the positive imaginary part first, so it stays so.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| vals[b].norm().total_cmp(&vals[a].norm()));
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
    let Some(mut vr) = vr else {
        return Ok((values, Value::Null));
    };
    balancing.back_transform(&mut vr);
    normalize_like_dgeev(&mut vr, &im);
    if !complex {
        // La_rg hands back dgeev's real array as it is, even when a pair
        // with a negligible imaginary part sits in it.
        let out = DMatrix::from_fn(n, n, |i, j| vr[(i, order[j])]);
        return Ok((values, Value::Mat(out)));
    }
    // R's unscramble: a pair's columns (re, im) become re + i im, re - i im.
    let out = DMatrix::from_fn(n, n, |i, j| {
        let k = order[j];
        if im[k] > 0.0 {
            Complex64::new(vr[(i, k)], vr[(i, k + 1)])
        } else if im[k] < 0.0 {
            Complex64::new(vr[(i, k - 1)], -vr[(i, k)])
        } else {
            Complex64::new(vr[(i, k)], 0.0)
        }
    });
    Ok((values, Value::ComplexMat(out)))
}

/// Eigenvalues as real and imaginary parts, and maybe vectors.
type RealEigen = (Vec<f64>, Vec<f64>, Option<DMatrix<f64>>);

/// `dgeev`'s core on an already balanced matrix, overwritten: Hessenberg
/// reduction, the real Schur form T = Zᵀ H Z by multishift QR, and with
/// `vectors` the eigenvectors Z X of T's (X upper triangular). Returns the
/// real and imaginary parts of the eigenvalues in LAPACK's order, and the
/// vectors in `dgeev`'s real layout (a complex pair as columns re, im).
fn real_eigen(
    h: &mut DMatrix<f64>,
    vectors: bool,
    cancel: &AtomicBool,
) -> Result<RealEigen, KernelError> {
    use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
    use faer::linalg::evd::hessenberg;
    use faer::linalg::householder;
    use faer::linalg::matmul::triangular::{matmul, BlockStructure};

    // n >= 1: `eigen` rejects a 0 x 0 matrix before.
    let n = h.nrows();
    let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
    let bs = faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n - 1, n - 1);
    let mut mem = MemBuffer::new(StackReq::any_of(&[
        hessenberg::hessenberg_in_place_scratch::<f64>(
            n,
            bs,
            crate::kernels::width::par(),
            Default::default(),
        ),
        householder::apply_block_householder_on_the_left_in_place_scratch::<f64>(n - 1, bs, n),
        super::schur::multishift_qr_scratch(n),
    ]));
    let stack = MemStack::new(&mut mem);
    let mut house = faer::Mat::<f64>::zeros(bs, n - 1);
    let mut hv = faer_view_mut(h);
    hessenberg::hessenberg_in_place(
        hv.rb_mut(),
        house.as_mut(),
        crate::kernels::width::par(),
        stack,
        Default::default(),
    );
    check_cancel(cancel)?;
    let mut z = vectors.then(|| {
        let mut z = faer::Mat::<f64>::identity(n, n);
        hessenberg_q(
            hv.rb().submatrix(1, 0, n - 1, n - 1),
            house.as_ref(),
            z.as_mut().submatrix_mut(1, 1, n - 1, n - 1),
            stack,
        );
        z
    });
    for j in 0..n {
        for i in j + 2..n {
            hv[(i, j)] = 0.0;
        }
    }
    check_cancel(cancel)?;
    let info = super::schur::multishift_qr(
        vectors,
        hv.rb_mut(),
        z.as_mut().map(|z| z.as_mut()),
        faer::ColMut::from_slice_mut(&mut re),
        faer::ColMut::from_slice_mut(&mut im),
        0,
        n,
        stack,
    );
    if info > 0 {
        return Err(KernelError::new(format!(
            "error code {info} from Lapack routine 'dgeev'"
        )));
    }
    let Some(z) = z else {
        return Ok((re, im, None));
    };
    check_cancel(cancel)?;
    let mut x = vec![0.0; n * n];
    super::schur::schur_eigenvectors(hv.rb(), &mut x);
    check_cancel(cancel)?;
    let mut vr = DMatrix::<f64>::zeros(n, n);
    matmul(
        faer_view_mut(&mut vr),
        BlockStructure::Rectangular,
        faer::Accum::Replace,
        z.as_ref(),
        BlockStructure::Rectangular,
        faer::MatRef::from_column_major_slice(&x, n, n),
        BlockStructure::TriangularUpper,
        1.0,
        crate::kernels::width::par(),
    );
    Ok((re, im, Some(vr)))
}

/// LAPACK's `dorghr`: the orthogonal Q of the Hessenberg reduction, from
/// its blocked reflectors, into `q` (which comes as the identity). The
/// blocks are applied last first, each only to the columns it can change:
/// the columns left of a block are still unit vectors there. That is 2/3
/// of the flops of applying all reflectors to all of the identity.
fn hessenberg_q(
    basis: faer::MatRef<'_, f64>,
    factor: faer::MatRef<'_, f64>,
    mut q: faer::MatMut<'_, f64>,
    stack: &mut faer::dyn_stack::MemStack,
) {
    use faer::linalg::householder::apply_block_householder_on_the_left_in_place_with_conj;
    let (size, bs, m) = (factor.ncols(), factor.nrows(), q.nrows());
    // faer's blocks run from the first column, the remainder last.
    let mut end = size;
    let mut block = match size % bs {
        0 => bs,
        r => r,
    };
    while end > 0 {
        let start = end - block;
        apply_block_householder_on_the_left_in_place_with_conj(
            basis.submatrix(start, start, m - start, end - start),
            factor.submatrix(0, start, end - start, end - start),
            faer::Conj::No,
            q.rb_mut().submatrix_mut(start, start, m - start, m - start),
            crate::kernels::width::par(),
            stack,
        );
        end = start;
        block = bs;
    }
}

/// dgeev's last step on its right eigenvectors: each has unit length, and
/// each complex one (columns `re`, `im` of a pair) is turned by `dlartg`'s
/// rotation so its largest component is real — with that component's sign,
/// which R shows.
fn normalize_like_dgeev(vr: &mut DMatrix<f64>, im: &[f64]) {
    let n = vr.nrows();
    let mut j = 0;
    while j < n {
        if im[j] == 0.0 {
            let norm = vr.column(j).norm();
            if norm > 0.0 {
                vr.column_mut(j).unscale_mut(norm);
            }
            j += 1;
            continue;
        }
        let norm = vr.column(j).norm().hypot(vr.column(j + 1).norm());
        if norm > 0.0 {
            vr.column_mut(j).unscale_mut(norm);
            vr.column_mut(j + 1).unscale_mut(norm);
        }
        // idamax: the first largest modulus.
        let mut k = 0;
        let mut best = -1.0;
        for i in 0..n {
            let m = vr[(i, j)].powi(2) + vr[(i, j + 1)].powi(2);
            if m > best {
                best = m;
                k = i;
            }
        }
        let (c, s, _) = super::givens::dlartg(vr[(k, j)], vr[(k, j + 1)]);
        for i in 0..n {
            let (x, y) = (vr[(i, j)], vr[(i, j + 1)]);
            vr[(i, j)] = c * x + s * y;
            vr[(i, j + 1)] = c * y - s * x;
        }
        vr[(k, j + 1)] = 0.0;
        j += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Q from `hessenberg_q` is orthogonal and Qᵀ A Q is the Hessenberg
    /// matrix, at sizes where the reflectors fill whole blocks and where
    /// the last block is partial.
    #[test]
    fn hessenberg_q_gives_the_reduction() {
        use faer::dyn_stack::{MemBuffer, MemStack};
        use faer::linalg::evd::hessenberg;
        let mut s = 7u64;
        let mut next = move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [2, 3, 17, 49, 97, 98, 130] {
            let a = faer::Mat::from_fn(n, n, |_, _| next());
            let bs =
                faer::linalg::qr::no_pivoting::factor::recommended_block_size::<f64>(n - 1, n - 1);
            let mut h = a.clone();
            let mut house = faer::Mat::<f64>::zeros(bs, n - 1);
            let mut mem = MemBuffer::new(faer::dyn_stack::StackReq::any_of(&[
                hessenberg::hessenberg_in_place_scratch::<f64>(
                    n,
                    bs,
                    crate::kernels::width::par(),
                    Default::default(),
                ),
                faer::linalg::householder::apply_block_householder_on_the_left_in_place_scratch::<
                    f64,
                >(n - 1, bs, n),
            ]));
            let stack = MemStack::new(&mut mem);
            hessenberg::hessenberg_in_place(
                h.as_mut(),
                house.as_mut(),
                crate::kernels::width::par(),
                stack,
                Default::default(),
            );
            let mut q = faer::Mat::<f64>::identity(n, n);
            hessenberg_q(
                h.as_ref().submatrix(1, 0, n - 1, n - 1),
                house.as_ref(),
                q.as_mut().submatrix_mut(1, 1, n - 1, n - 1),
                stack,
            );
            let reduced = q.transpose() * &a * &q;
            let gram = q.transpose() * &q;
            for j in 0..n {
                for i in 0..n {
                    let want = if i > j + 1 { 0.0 } else { h[(i, j)] };
                    assert!(
                        (reduced[(i, j)] - want).abs() < 1e-13 * n as f64,
                        "n = {n} ({i}, {j})"
                    );
                    let id = if i == j { 1.0 } else { 0.0 };
                    assert!((gram[(i, j)] - id).abs() < 1e-14 * n as f64, "n = {n}");
                }
            }
        }
    }

    /// The smallest and most degenerate general inputs go through the whole
    /// Schur pipeline: a 1×1, a rotation (values ±i), a zero matrix.
    #[test]
    fn tiny_and_degenerate_general_matrices() {
        let (v, vec) = general_eigen(
            &DMatrix::from_row_slice(1, 1, &[5.0]),
            false,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(matches!(v, Value::Num(ref v) if v == &[5.0]));
        assert!(matches!(vec, Value::Mat(ref m) if m[(0, 0)] == 1.0));
        let rot = DMatrix::from_row_slice(2, 2, &[0.0, -1.0, 1.0, 0.0]);
        let (v, vec) = general_eigen(&rot, false, &AtomicBool::new(false)).unwrap();
        let Value::Complex(v) = v else {
            panic!("complex values expected")
        };
        assert_eq!(
            (v[0], v[1]),
            (Complex64::new(0.0, 1.0), Complex64::new(0.0, -1.0))
        );
        let Value::ComplexMat(m) = vec else {
            panic!("complex vectors expected")
        };
        for j in 0..2 {
            // rot x = lambda x, column by column.
            for i in 0..2 {
                let lhs: Complex64 = (0..2).map(|k| m[(k, j)] * rot[(i, k)]).sum();
                assert!((lhs - v[j] * m[(i, j)]).norm() < 1e-15);
            }
        }
        let (v, vec) =
            general_eigen(&DMatrix::zeros(3, 3), false, &AtomicBool::new(false)).unwrap();
        assert!(matches!(v, Value::Num(ref v) if v == &[0.0; 3]));
        assert!(matches!(vec, Value::Mat(ref m) if *m == DMatrix::identity(3, 3)));
        let (v, vec) = general_eigen(&rot, true, &AtomicBool::new(false)).unwrap();
        assert!(matches!(v, Value::Complex(_)) && matches!(vec, Value::Null));
    }

    /// Symmetric values of the smallest orders also go through the
    /// reduction and `dsterf`.
    #[test]
    fn smallest_symmetric_values() {
        let one = symmetric_eigen(
            &DMatrix::from_row_slice(1, 1, &[2.5]),
            true,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(matches!(one.0, Value::Num(ref v) if v == &[2.5]));
        let two = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let (Value::Num(v), Value::Null) =
            symmetric_eigen(&two, true, &AtomicBool::new(false)).unwrap()
        else {
            panic!("values only expected")
        };
        assert!(
            (v[0] - 3.0).abs() < 1e-15 && (v[1] - 1.0).abs() < 1e-15,
            "{v:?}"
        );
    }

    /// The complex vector (re, im) = (-3, 4) at its largest component
    /// comes out as -5 scaled to unit length: real, with f's sign.
    #[test]
    fn complex_vectors_are_turned_as_dgeev_turns_them() {
        let mut vr = DMatrix::from_column_slice(2, 2, &[-3.0, 1.0, 4.0, 0.5]);
        normalize_like_dgeev(&mut vr, &[1.0, -1.0]);
        let norm = (9.0f64 + 1.0 + 16.0 + 0.25).sqrt();
        assert!((vr[(0, 0)] + 5.0 / norm).abs() < 1e-15, "{vr}");
        assert_eq!(vr[(0, 1)], 0.0);
        let length: f64 = vr.iter().map(|v| v * v).sum();
        assert!((length - 1.0).abs() < 1e-15);
    }
}
