//! solve, eigen, svd, qr, qr.Q, qr.R and prcomp against R 4.2.2
//! (`tests/fixtures/r/linalg.R`). Decompositions are compared after
//! normalising the arbitrary sign (or complex phase) of each vector so that
//! its largest component is real and positive, as R's own output would be
//! after the same step.

use crate::common;

use common::{call, fixture, mat_of, named, pos, vec_of};
use flowcast::kernels::value::List;
use flowcast::kernels::Value;
use nalgebra::DMatrix;
use num_complex::Complex64;
use serde_json::Value as Json;

const TOL: f64 = 1e-10;

fn cvec_of(j: &Json) -> Vec<Complex64> {
    let (re, im) = (vec_of(&j["re"]), vec_of(&j["im"]));
    re.into_iter()
        .zip(im)
        .map(|(r, i)| Complex64::new(r, i))
        .collect()
}

fn cmat_of(j: &Json) -> DMatrix<Complex64> {
    let dim = vec_of(&j["dim"]);
    let v = cvec_of(j);
    DMatrix::from_vec(dim[0] as usize, dim[1] as usize, v)
}

fn record(v: Value, class: &str) -> List {
    match v {
        Value::List(l) if l.class.as_deref() == Some(class) => l,
        other => panic!("expected a {class} record, got {other:?}"),
    }
}

fn field<'a>(l: &'a List, name: &str) -> &'a Value {
    l.field(name).unwrap_or_else(|| panic!("no field {name}"))
}

fn as_mat(v: &Value) -> DMatrix<f64> {
    match flowcast::kernels::names::bare(v) {
        Value::Mat(m) => m.clone(),
        other => panic!("expected a matrix, got {other:?}"),
    }
}

fn as_vec(v: &Value) -> Vec<f64> {
    v.as_f64_slice().expect("numbers").to_vec()
}

/// Elementwise, relative to the largest entry of the expected column (a
/// vector's tiny components carry its norm's absolute error).
#[track_caller]
fn assert_cols_close(actual: &DMatrix<f64>, expected: &DMatrix<f64>, tol: f64) {
    assert_eq!(actual.shape(), expected.shape(), "shape");
    for j in 0..expected.ncols() {
        let scale = expected.column(j).amax().max(1e-300);
        for i in 0..expected.nrows() {
            let (a, e) = (actual[(i, j)], expected[(i, j)]);
            assert!(
                (a - e).abs() <= tol * scale,
                "[{i},{j}]: got {a:e}, R gives {e:e}"
            );
        }
    }
}

#[track_caller]
fn assert_vec_close(actual: &[f64], expected: &[f64], tol: f64) {
    assert_eq!(actual.len(), expected.len(), "length");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        let ok = (a.is_nan() && e.is_nan()) || (a - e).abs() <= tol * e.abs().max(1e-300);
        assert!(ok, "[{i}]: got {a:e}, R gives {e:e}");
    }
}

/// Flips each column so its largest-magnitude entry (located in R's
/// answer) is positive; applies the same flips to `with`.
fn sign_normalise(m: &mut DMatrix<f64>, reference: &DMatrix<f64>, with: Option<&mut DMatrix<f64>>) {
    let mut flips = Vec::new();
    for j in 0..m.ncols() {
        let k = reference.column(j).iamax();
        let flip = m[(k, j)].signum() != reference[(k, j)].signum();
        flips.push(flip);
        if flip {
            m.column_mut(j).neg_mut();
        }
    }
    if let Some(w) = with {
        for (j, flip) in flips.into_iter().enumerate() {
            if flip && j < w.ncols() {
                w.column_mut(j).neg_mut();
            }
        }
    }
}

fn phase_normalise(m: &mut DMatrix<Complex64>) {
    for mut col in m.column_iter_mut() {
        let k = (0..col.len())
            .max_by(|&a, &b| col[a].norm().total_cmp(&col[b].norm()))
            .unwrap_or(0);
        let c = col[k];
        if c.norm() > 0.0 {
            let phase = c.conj() / c.norm();
            col.iter_mut().for_each(|z| *z *= phase);
        }
    }
}

fn cases<'a>(f: &'a Json, prefix: &str) -> Vec<(&'a String, &'a Json)> {
    let v: Vec<_> = f
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| k.starts_with(prefix))
        .collect();
    assert!(!v.is_empty(), "no fixture cases {prefix}");
    v
}

fn err_of(r: Result<Value, flowcast::kernels::KernelError>) -> String {
    r.expect_err("R fails here").0
}

#[test]
fn solve_matches_r() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "solve_") {
        if name == "solve_errors" {
            continue;
        }
        let a = mat_of(&c["a"]);
        let inv = as_mat(&call("solve", vec![pos(Value::Mat(a.clone()))]).unwrap());
        assert_cols_close(&inv, &mat_of(&c["inverse"]), 1e-10);
        if c.get("b").is_some() {
            let x = call(
                "solve",
                vec![pos(Value::Mat(a.clone())), pos(Value::Mat(mat_of(&c["b"])))],
            )
            .unwrap();
            assert_cols_close(&as_mat(&x), &mat_of(&c["x"]), 1e-10);
            let xv = call(
                "solve",
                vec![pos(Value::Mat(a)), named("b", Value::Num(vec_of(&c["bv"])))],
            )
            .unwrap();
            assert!(
                matches!(xv, Value::Num(_)),
                "{name}: a vector b gives a vector"
            );
            assert_vec_close(&as_vec(&xv), &vec_of(&c["xv"]), 1e-10);
        }
    }
}

#[test]
fn solve_fails_with_rs_messages() {
    let f = fixture("linalg");
    let e = &f["solve_errors"];
    let m = |v: &[f64], n| Value::Mat(DMatrix::from_column_slice(n, v.len() / n, v));
    let nine: Vec<f64> = (1..=9).map(f64::from).collect();
    assert_eq!(
        err_of(call("solve", vec![pos(m(&nine, 3))])),
        e["exact3"].as_str().unwrap()
    );
    assert_eq!(
        err_of(call(
            "solve",
            vec![pos(m(&[1.0, 1.0, 1.0, 1.0 + 1e-17], 2))]
        )),
        e["exact2"].as_str().unwrap()
    );
    // 50 and 100 columns: LAPACK's recursive and blocked dgetrf paths.
    for case in ["near", "hilbert", "sing50", "sing100"] {
        let a = Value::Mat(mat_of(&e[case]["a"]));
        assert_eq!(
            err_of(call("solve", vec![pos(a)])),
            e[case]["msg"].as_str().unwrap()
        );
    }
    let twelve: Vec<f64> = (1..=12).map(f64::from).collect();
    assert_eq!(
        err_of(call("solve", vec![pos(m(&twelve, 3))])),
        e["nonsquare"].as_str().unwrap()
    );
    let b = Value::Num(vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        err_of(call(
            "solve",
            vec![pos(Value::Mat(DMatrix::identity(3, 3))), pos(b)]
        )),
        e["incompatible"].as_str().unwrap()
    );
}

#[test]
fn symmetric_eigen_matches_r() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "eigen_sym_") {
        let l = record(
            call("eigen", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap(),
            "eigen",
        );
        let want = vec_of(&c["values"]);
        let got = as_vec(field(&l, "values"));
        let top = want[0].abs();
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= TOL * top, "{name}: {g} vs {w}");
        }
        let expected = mat_of(&c["vectors"]);
        let mut v = as_mat(field(&l, "vectors"));
        sign_normalise(&mut v, &expected, None);
        assert_cols_close(&v, &expected, 1e-10);
    }
}

#[test]
fn general_eigen_matches_r() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "eigen_gen_")
        .into_iter()
        .chain(cases(&f, "eigen_r"))
    {
        let l = record(
            call("eigen", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap(),
            "eigen",
        );
        match (&c["values"], field(&l, "values")) {
            (Json::Array(_), Value::Num(got)) => {
                assert_vec_close(got, &vec_of(&c["values"]), 1e-10);
                let expected = mat_of(&c["vectors"]);
                let mut v = as_mat(field(&l, "vectors"));
                sign_normalise(&mut v, &expected, None);
                assert_cols_close(&v, &expected, 1e-10);
            }
            (Json::Object(_), Value::Complex(got)) => {
                let want = cvec_of(&c["values"]);
                assert_eq!(got.len(), want.len());
                let top = want[0].norm();
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!((g - w).norm() <= 1e-10 * top, "{name}[{i}]: {g} vs {w}");
                }
                let Value::ComplexMat(v) = field(&l, "vectors") else {
                    panic!("{name}: complex vectors expected");
                };
                let (mut v, mut w) = (v.clone(), cmat_of(&c["vectors"]));
                phase_normalise(&mut v);
                phase_normalise(&mut w);
                for j in 0..w.ncols() {
                    for i in 0..w.nrows() {
                        assert!(
                            (v[(i, j)] - w[(i, j)]).norm() <= 1e-10,
                            "{name} vector [{i},{j}]: {} vs {}",
                            v[(i, j)],
                            w[(i, j)]
                        );
                    }
                }
            }
            (want, got) => panic!("{name}: R gives {want}, got {got:?}"),
        }
    }
}

#[test]
fn eigen_only_values_and_errors() {
    let f = fixture("linalg");
    let c = &f["eigen_sym_10"];
    let l = record(
        call(
            "eigen",
            vec![
                pos(Value::Mat(mat_of(&c["x"]))),
                named("only.values", Value::flag(true)),
            ],
        )
        .unwrap(),
        "eigen",
    );
    assert_eq!(field(&l, "vectors"), &Value::Null);
    assert_vec_close(&as_vec(field(&l, "values")), &vec_of(&c["values"]), 1e-10);
    let e = &f["eigen_errors"];
    let six = Value::Mat(DMatrix::from_column_slice(
        2,
        3,
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ));
    assert_eq!(
        err_of(call("eigen", vec![pos(six)])),
        e["nonsquare"].as_str().unwrap()
    );
    let na = Value::Mat(DMatrix::from_column_slice(2, 2, &[1.0, f64::NAN, 3.0, 4.0]));
    assert_eq!(
        err_of(call("eigen", vec![pos(na)])),
        e["missing"].as_str().unwrap()
    );
}

#[test]
fn svd_matches_r() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "svd_") {
        if name == "svd_errors" {
            continue;
        }
        let x = Value::Mat(mat_of(&c["x"]));
        let args = if name == "svd_full_u" {
            vec![
                pos(x),
                named("nu", Value::scalar(7.0)),
                named("nv", Value::scalar(0.0)),
            ]
        } else {
            vec![pos(x)]
        };
        let l = record(call("svd", args).unwrap(), "svd");
        assert_vec_close(&as_vec(field(&l, "d")), &vec_of(&c["d"]), TOL);
        let u_want = mat_of(&c["u"]);
        let mut u = as_mat(field(&l, "u"));
        let d = vec_of(&c["d"]);
        // Columns of u beyond the rank (full u) are any orthonormal basis of
        // the complement: compare only the leading ones.
        let k = d.len();
        let mut u_lead = u.columns(0, k).into_owned();
        sign_normalise(&mut u_lead, &u_want.columns(0, k).into_owned(), None);
        assert_cols_close(&u_lead, &u_want.columns(0, k).into_owned(), 1e-10);
        if name == "svd_full_u" {
            assert_eq!(field(&l, "v"), &Value::Null);
            assert_eq!(u.shape(), (7, 7));
            let gram = u.transpose() * &u;
            assert!((gram - DMatrix::identity(7, 7)).amax() < 1e-12);
            u.fill(0.0);
            continue;
        }
        let v_want = mat_of(&c["v"]);
        let mut v = as_mat(field(&l, "v"));
        sign_normalise(&mut v, &v_want, None);
        assert_cols_close(&v, &v_want, 1e-10);
    }
    let na = Value::Mat(DMatrix::from_element(2, 2, f64::NAN));
    assert_eq!(
        err_of(call("svd", vec![pos(na)])),
        f["svd_errors"]["missing"].as_str().unwrap()
    );
}

#[test]
fn svd_reference_values() {
    // R-SEMANTICS.md: svd(X)$d.
    let x = DMatrix::from_column_slice(
        6,
        3,
        &[
            1., 2., 3., 4., 5., 6., 2., 1., 4., 3., 6., 5., 1., 1., 2., 3., 5., 8.,
        ],
    );
    let l = record(call("svd", vec![pos(Value::Mat(x))]).unwrap(), "svd");
    assert_vec_close(
        &as_vec(field(&l, "d")),
        &[16.64075072103538, 2.69907623574727, 1.34179093527442],
        1e-13,
    );
}

#[test]
fn qr_is_rs_dqrdc2() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "qr_") {
        let l = record(
            call("qr", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap(),
            "qr",
        );
        assert_cols_close(&as_mat(field(&l, "qr")), &mat_of(&c["qr"]), 1e-12);
        assert_eq!(as_vec(field(&l, "rank")), vec_of(&c["rank"]), "{name} rank");
        assert_eq!(
            as_vec(field(&l, "pivot")),
            vec_of(&c["pivot"]),
            "{name} pivot"
        );
        assert_vec_close(&as_vec(field(&l, "qraux")), &vec_of(&c["qraux"]), 1e-12);
        let q = Value::List(l);
        let qm = as_mat(&call("qr.Q", vec![pos(q.clone())]).unwrap());
        assert_cols_close(&qm, &mat_of(&c["Q"]), 1e-12);
        let qc = as_mat(
            &call(
                "qr.Q",
                vec![pos(q.clone()), named("complete", Value::flag(true))],
            )
            .unwrap(),
        );
        assert_cols_close(&qc, &mat_of(&c["Qc"]), 1e-12);
        let r = as_mat(&call("qr.R", vec![pos(q)]).unwrap());
        assert_cols_close(&r, &mat_of(&c["R"]), 1e-12);
    }
    // R-SEMANTICS.md: diag(qr.R(qr(X))).
    let r = mat_of(&f["qr_X"]["R"]);
    let want = [-9.539392014169456, 2.429217754977702, 2.60067316883508];
    for (i, w) in want.iter().enumerate() {
        assert!((r[(i, i)] - w).abs() < 1e-14);
    }
}

#[test]
fn prcomp_matches_r() {
    let f = fixture("linalg");
    for (name, c) in cases(&f, "prcomp_") {
        let mut args = vec![pos(Value::Mat(mat_of(&c["x"])))];
        if name == "prcomp_scaled" {
            args.push(named("scale.", Value::flag(true)));
        }
        if name == "prcomp_rank2" {
            args.push(named("rank.", Value::scalar(2.0)));
        }
        if name == "prcomp_nocenter" {
            args.push(named("center", Value::flag(false)));
        }
        let l = record(call("prcomp", args).unwrap(), "prcomp");
        let sdev = as_vec(field(&l, "sdev"));
        let want = vec_of(&c["sdev"]);
        for (g, w) in sdev.iter().zip(&want) {
            assert!((g - w).abs() <= TOL * want[0], "{name}: sdev {g} vs {w}");
        }
        for (key, ours) in [("center", "center"), ("scale", "scale")] {
            match &c[key] {
                Json::Bool(false) => {
                    assert_eq!(field(&l, ours), &Value::flag(false), "{name}")
                }
                j => assert_vec_close(&as_vec(field(&l, ours)), &vec_of(j), 1e-13),
            }
        }
        let rot_want = mat_of(&c["rotation"]);
        let mut rot = as_mat(field(&l, "rotation"));
        let mut scores = as_mat(field(&l, "x"));
        sign_normalise(&mut rot, &rot_want, Some(&mut scores));
        // A 4 x 7 input has a null last component whose direction is arbitrary.
        let k = want
            .iter()
            .filter(|&&s| s > 1e-8 * want[0])
            .count()
            .min(rot_want.ncols());
        assert_eq!(rot.shape(), rot_want.shape(), "{name}: rotation shape");
        assert_cols_close(
            &rot.columns(0, k).into_owned(),
            &rot_want.columns(0, k).into_owned(),
            1e-8,
        );
        let sc_want = mat_of(&c["scores"]);
        assert_cols_close(
            &scores.columns(0, k).into_owned(),
            &sc_want.columns(0, k).into_owned(),
            1e-8,
        );
    }
    // R-SEMANTICS.md: prcomp(X)$sdev.
    let sd = vec_of(&f["prcomp_X"]["sdev"]);
    assert_vec_close(
        &sd,
        &[3.632146889361179, 1.011330011134686, 0.501385330209101],
        1e-13,
    );
}

mod shapes {
    use flowcast::kernels::{registry, Args, ShapeCtx, Type};
    use std::path::Path;

    fn shape(name: &str, args: Vec<(Option<&str>, Type)>) -> Result<Type, String> {
        let k = registry().get(name).unwrap();
        let given = args
            .into_iter()
            .map(|(n, t)| (n.map(str::to_string), t))
            .collect();
        let args = Args::match_call(k.name, k.params, given).map_err(|e| e.message)?;
        (k.shape)(
            &args,
            &ShapeCtx {
                base_dir: Path::new("."),
                written: &[],
                closure: None,
                closure2: None,
            },
        )
        .map_err(|e| e.message)
    }

    fn field(t: &Type, name: &str) -> Type {
        t.field(name)
            .unwrap_or_else(|| panic!("no {name} in {t:?}"))
            .clone()
    }

    #[test]
    fn solve_shapes() {
        assert_eq!(
            shape("solve", vec![(None, Type::mat(5, 5))]),
            Ok(Type::mat(5, 5))
        );
        assert_eq!(
            shape(
                "solve",
                vec![(None, Type::mat(5, 5)), (None, Type::mat(5, 2))]
            ),
            Ok(Type::mat(5, 2))
        );
        assert_eq!(
            shape("solve", vec![(None, Type::mat(5, 5)), (None, Type::num(5))]),
            Ok(Type::num(5))
        );
        assert_eq!(
            shape("solve", vec![(None, Type::mat(3, 4))]),
            Err("'a' (3 x 4) must be square".into())
        );
        assert!(shape("solve", vec![(None, Type::mat(3, 3)), (None, Type::num(4))]).is_err());
        let unknown = Type::Mat {
            rows: None,
            cols: None,
        };
        assert_eq!(shape("solve", vec![(None, unknown.clone())]), Ok(unknown));
        assert!(shape("solve", vec![(None, Type::Any)]).is_ok());
    }

    #[test]
    fn decomposition_shapes() {
        let t = shape("svd", vec![(None, Type::mat(10, 4))]).unwrap();
        assert_eq!(field(&t, "d"), Type::num(4));
        assert_eq!(field(&t, "u"), Type::mat(10, 4));
        assert_eq!(field(&t, "v"), Type::mat(4, 4));
        let t = shape("qr", vec![(None, Type::mat(10, 4))]).unwrap();
        assert_eq!(field(&t, "qr"), Type::mat(10, 4));
        assert_eq!(shape("qr.Q", vec![(None, t.clone())]), Ok(Type::mat(10, 4)));
        assert_eq!(shape("qr.R", vec![(None, t)]), Ok(Type::mat(4, 4)));
        let t = shape("prcomp", vec![(None, Type::mat(20, 5))]).unwrap();
        assert_eq!(field(&t, "rotation"), Type::mat(5, 5));
        assert_eq!(field(&t, "x"), Type::mat(20, 5));
        let sym = Type::Bool {
            len: Some(1),
            value: Some(vec![Some(true)]),
        };
        let t = shape(
            "eigen",
            vec![(None, Type::mat(6, 6)), (Some("symmetric"), sym)],
        )
        .unwrap();
        assert_eq!(field(&t, "values"), Type::num(6));
        assert!(shape("eigen", vec![(None, Type::mat(2, 3))]).is_err());
        assert!(shape("svd", vec![(None, Type::Any)]).is_ok());
    }

    #[test]
    fn lm_shape_counts_coefficients() {
        let f = Type::Formula {
            response: Some(Box::new(Type::num(30))),
            terms: vec![("a".into(), Type::num(30)), ("M".into(), Type::mat(30, 3))],
            intercept: true,
        };
        let t = shape("lm", vec![(None, f)]).unwrap();
        assert_eq!(field(&t, "coefficients"), Type::num(5));
        let bad = Type::Formula {
            response: Some(Box::new(Type::num(30))),
            terms: vec![("a".into(), Type::num(29))],
            intercept: true,
        };
        assert!(shape("lm", vec![(None, bad)]).is_err());
    }
}

/// Entries near 1e-300 or 1e300 are scaled into range first, as LAPACK's
/// drivers do: the eigenvalues scale with the matrix, the vectors do not
/// change. (R's `isSymmetric` calls a 1e-300-sized matrix symmetric, so
/// `symmetric` is given.)
#[test]
fn eigen_of_extremely_scaled_matrices() {
    let a = DMatrix::from_fn(5, 5, |i, j| {
        ((i * 7 + j * 3) % 11) as f64 - 5.0 + 0.1 * i as f64
    });
    let s = &a + a.transpose();
    for (x, symmetric) in [(&a, false), (&s, true)] {
        let values = |m: DMatrix<f64>| {
            let Value::List(l) = call(
                "eigen",
                vec![
                    pos(Value::Mat(m)),
                    named("symmetric", Value::flag(symmetric)),
                ],
            )
            .unwrap() else {
                panic!("a record")
            };
            match field(&l, "values") {
                Value::Num(v) => v.iter().map(|&v| Complex64::new(v, 0.0)).collect(),
                Value::Complex(v) => v.clone(),
                other => panic!("{other:?}"),
            }
        };
        let want: Vec<Complex64> = values(x.clone());
        for scale in [1e-300, 1e300] {
            let got = values(x * scale);
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g / scale - w).norm() <= 1e-12 * want[0].norm(),
                    "{scale:e}: {got:?}"
                );
            }
        }
    }
}

/// Issue 13: a rank-0 `qr` (of a zero matrix) fits nothing, so R's `qr.Q`
/// is the identity; it used to panic.
#[test]
fn qr_q_of_a_zero_matrix_is_the_identity() {
    let q = call("qr", vec![pos(Value::Mat(DMatrix::zeros(4, 4)))]).unwrap();
    let Value::List(l) = &q else {
        panic!("a record")
    };
    assert_eq!(field(l, "rank"), &Value::scalar(0.0));
    let got = as_mat(&call("qr.Q", vec![pos(q.clone())]).unwrap());
    assert_eq!(got, DMatrix::identity(4, 4));
    let r = as_mat(&call("qr.R", vec![pos(q)]).unwrap());
    assert_eq!(r, DMatrix::zeros(4, 4));
}

/// Issue 13: denormal entries are scaled into range like any tiny matrix;
/// the scale factor used to be infinite (svd said "infinite values", eigen
/// overflowed an integer). `matrix(a, 3, 3)` has rank one and singular
/// value (and eigenvalue) 3a, exact even among denormals.
#[test]
fn svd_and_eigen_of_a_denormal_matrix() {
    let a = 1e-320;
    let x = || pos(Value::Mat(DMatrix::from_element(3, 3, a)));
    let Value::List(s) = call("svd", vec![x()]).unwrap() else {
        panic!("a record")
    };
    let d = as_vec(field(&s, "d"));
    assert_eq!(d[0], 3.0 * a, "{d:?}");
    assert!(d[1..].iter().all(|v| v.abs() < a / 100.0), "{d:?}");
    let Value::List(e) = call("eigen", vec![x()]).unwrap() else {
        panic!("a record")
    };
    let values = as_vec(field(&e, "values"));
    assert_eq!(values[0], 3.0 * a, "{values:?}");
    assert!(
        values[1..].iter().all(|v| v.abs() < a / 100.0),
        "{values:?}"
    );
}
