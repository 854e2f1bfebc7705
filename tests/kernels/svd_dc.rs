//! `svd` and `prcomp` on the divide-and-conquer path (min(dim) >= 100)
//! against R 4.2.2 (`tests/fixtures/r/svd_dc.R`): singular values, leading
//! singular vectors after sign normalisation, and the factorization itself.

use crate::common;

use common::{call, fixture, mat_of, named, pos, vec_of};
use flowcast::kernels::Value;
use nalgebra::DMatrix;

fn field(v: &Value, name: &str) -> Value {
    match v {
        Value::List(l) => l
            .field(name)
            .unwrap_or_else(|| panic!("no field {name}"))
            .clone(),
        other => panic!("expected a record, got {other:?}"),
    }
}

fn as_mat(v: &Value) -> DMatrix<f64> {
    match flowcast::kernels::names::bare(v) {
        Value::Mat(m) => m.clone(),
        other => panic!("expected a matrix, got {other:?}"),
    }
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_f64_slice().expect("numbers").to_vec()
}

/// Values at 1e-10 relative; those below 1e-5 of the largest are rounding
/// noise in both programs and only checked at 1e-13 of the largest.
#[track_caller]
fn assert_values(what: &str, ours: &[f64], r: &[f64]) {
    assert_eq!(ours.len(), r.len(), "{what}: length");
    for (i, (a, e)) in ours.iter().zip(r).enumerate() {
        let ok = if *e >= 1e-5 * r[0] {
            (a - e).abs() <= 1e-10 * e
        } else {
            (a - e).abs() <= 1e-13 * r[0]
        };
        assert!(ok, "{what} d[{i}]: got {a:e}, R gives {e:e}");
    }
}

/// Columns equal up to sign, at 1e-10 of the column's largest entry.
#[track_caller]
fn assert_vectors(what: &str, ours: &DMatrix<f64>, r: &DMatrix<f64>) {
    assert_eq!(ours.nrows(), r.nrows(), "{what}: rows");
    for j in 0..r.ncols() {
        let (a, e) = (ours.column(j), r.column(j));
        let sign = if a.dot(&e) < 0.0 { -1.0 } else { 1.0 };
        let err = (a * sign - e).amax();
        assert!(err <= 1e-10 * e.amax(), "{what} column {j}: off by {err:e}");
    }
}

#[test]
fn svd_matches_r_for_square_tall_and_wide() {
    let f = fixture("svd_dc");
    for name in ["square_130", "tall_160x120", "tall_300x110", "wide_110x250"] {
        let c = &f[name];
        let x = mat_of(&c["x"]);
        let s = call("svd", vec![pos(Value::Mat(x.clone()))]).unwrap();
        let d = nums(&field(&s, "d"));
        assert_values(name, &d, &vec_of(&c["d"]));
        let (u, v) = (as_mat(&field(&s, "u")), as_mat(&field(&s, "v")));
        assert_eq!(u.shape(), (x.nrows(), d.len()), "{name}: u shape");
        assert_eq!(v.shape(), (x.ncols(), d.len()), "{name}: v shape");
        assert_vectors(
            &format!("{name} u"),
            &u.columns(0, 8).into_owned(),
            &mat_of(&c["u"]),
        );
        assert_vectors(
            &format!("{name} v"),
            &v.columns(0, 8).into_owned(),
            &mat_of(&c["v"]),
        );
        // The whole factorization, not just the leading vectors.
        let k = d.len();
        let rebuilt =
            &u * DMatrix::from_diagonal(&nalgebra::DVector::from_vec(d.clone())) * v.transpose();
        let err = (rebuilt - &x).amax();
        assert!(err <= 1e-12 * d[0], "{name}: residual {err:e}");
        let ou = (u.transpose() * &u - DMatrix::identity(k, k)).amax();
        let ov = (v.transpose() * &v - DMatrix::identity(k, k)).amax();
        assert!(
            ou <= 1e-12 && ov <= 1e-12,
            "{name}: orthogonality {ou:e} {ov:e}"
        );
    }
}

#[test]
fn svd_full_and_partial_vectors() {
    let f = fixture("svd_dc");
    let x = mat_of(&f["tall_300x110"]["x"]);
    let (n, p) = x.shape();
    // nu = n: full U, whose extra columns complete an orthonormal basis.
    let s = call(
        "svd",
        vec![
            pos(Value::Mat(x.clone())),
            named("nu", Value::Num(vec![n as f64])),
            named("nv", Value::Num(vec![3.0])),
        ],
    )
    .unwrap();
    let u = as_mat(&field(&s, "u"));
    assert_eq!(u.shape(), (n, n));
    assert!((u.transpose() * &u - DMatrix::identity(n, n)).amax() <= 1e-12);
    assert_eq!(as_mat(&field(&s, "v")).shape(), (p, 3));
    assert_vectors(
        "full u",
        &u.columns(0, 8).into_owned(),
        &mat_of(&f["tall_300x110"]["u"]),
    );
    // No vectors, only U, only V: the same values.
    for (nu, nv) in [(0.0, 0.0), (5.0, 0.0), (0.0, 5.0)] {
        let s = call(
            "svd",
            vec![
                pos(Value::Mat(x.clone())),
                named("nu", Value::Num(vec![nu])),
                named("nv", Value::Num(vec![nv])),
            ],
        )
        .unwrap();
        assert_values(
            "partial",
            &nums(&field(&s, "d")),
            &vec_of(&f["tall_300x110"]["d"]),
        );
        if nu > 0.0 {
            assert_vectors(
                "only u",
                &as_mat(&field(&s, "u")),
                &mat_of(&f["tall_300x110"]["u"]).columns(0, 5).into_owned(),
            );
        }
        if nv > 0.0 {
            assert_vectors(
                "only v",
                &as_mat(&field(&s, "v")),
                &mat_of(&f["tall_300x110"]["v"]).columns(0, 5).into_owned(),
            );
        }
    }
}

#[test]
fn svd_repeated_values_match_r() {
    let f = fixture("svd_dc");
    let c = &f["repeated_150"];
    let x = mat_of(&c["x"]);
    let s = call("svd", vec![pos(Value::Mat(x.clone()))]).unwrap();
    let d = nums(&field(&s, "d"));
    assert_values("repeated", &d, &vec_of(&c["d"]));
    let (u, v) = (as_mat(&field(&s, "u")), as_mat(&field(&s, "v")));
    let rebuilt =
        &u * DMatrix::from_diagonal(&nalgebra::DVector::from_vec(d.clone())) * v.transpose();
    assert!((rebuilt - &x).amax() <= 1e-12 * d[0]);
    assert!((v.transpose() * &v - DMatrix::identity(150, 150)).amax() <= 1e-12);
}

#[test]
fn prcomp_matches_r() {
    let f = fixture("svd_dc");
    let c = &f["prcomp_200x120"];
    let p = call("prcomp", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap();
    assert_values("sdev", &nums(&field(&p, "sdev")), &vec_of(&c["sdev"]));
    let rot = as_mat(&field(&p, "rotation"));
    assert_vectors(
        "rotation",
        &rot.columns(0, 8).into_owned(),
        &mat_of(&c["rotation"]),
    );
}

#[test]
fn svd_full_v_of_a_wide_matrix() {
    let f = fixture("svd_dc");
    let c = &f["wide_110x250"];
    let x = mat_of(&c["x"]);
    let s = call(
        "svd",
        vec![
            pos(Value::Mat(x.clone())),
            named("nv", Value::Num(vec![250.0])),
        ],
    )
    .unwrap();
    let v = as_mat(&field(&s, "v"));
    assert_eq!(v.shape(), (250, 250));
    assert!((v.transpose() * &v - DMatrix::identity(250, 250)).amax() <= 1e-12);
    assert_vectors("full v", &v.columns(0, 8).into_owned(), &mat_of(&c["v"]));
    // The extra columns span the null space of x.
    assert!((&x * v.columns(110, 140)).amax() <= 1e-12 * vec_of(&c["d"])[0]);
}

#[test]
fn svd_of_extremely_scaled_matrices() {
    let f = fixture("svd_dc");
    let c = &f["square_130"];
    let x = mat_of(&c["x"]);
    let want = vec_of(&c["d"]);
    for scale in [1e-300, 1e300] {
        let s = call("svd", vec![pos(Value::Mat(&x * scale))]).unwrap();
        let d: Vec<f64> = nums(&field(&s, "d")).iter().map(|v| v / scale).collect();
        assert_values(&format!("scaled by {scale:e}"), &d, &want);
        let v = as_mat(&field(&s, "v"));
        assert!((v.transpose() * &v - DMatrix::identity(130, 130)).amax() <= 1e-12);
    }
    // Below the divide and conquer's size (faer's path), and values only.
    let small = x.view((0, 0), (12, 9)).into_owned();
    let d_of = |x: DMatrix<f64>, only: bool| {
        let mut args = vec![pos(Value::Mat(x))];
        if only {
            args.push(named("nu", Value::scalar(0.0)));
            args.push(named("nv", Value::scalar(0.0)));
        }
        nums(&field(&call("svd", args).unwrap(), "d"))
    };
    let want = d_of(small.clone(), false);
    for scale in [1e-300, 1e300] {
        for only in [false, true] {
            let d: Vec<f64> = d_of(&small * scale, only)
                .iter()
                .map(|v| v / scale)
                .collect();
            assert_values(&format!("12 x 9 scaled by {scale:e}"), &d, &want);
        }
    }
}
