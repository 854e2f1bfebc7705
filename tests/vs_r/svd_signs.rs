//! Singular vectors with R's signs (`tests/fixtures/r/svd_signs.R`, R 4.2.2):
//! `svd()$u`, `svd()$v` and `prcomp()$rotation` compared entry by entry,
//! not up to sign, on tall, wide, square and long matrices on both sides
//! of LAPACK's 25-column switch from QR iteration to divide and conquer.

use crate::common;

use common::{call, fixture, mat_of, named, pos, vec_of};
use flowcast::kernels::Value;
use nalgebra::DMatrix;

fn field(v: &Value, name: &str) -> DMatrix<f64> {
    let Value::List(l) = v else {
        panic!("expected a record, got {v:?}")
    };
    match l.field(name) {
        Some(Value::Mat(m)) => m.clone(),
        // prcomp's rotation carries its dimnames.
        Some(Value::Named(n)) => match &n.value {
            Value::Mat(m) => m.clone(),
            other => panic!("{name}: expected a matrix, got {other:?}"),
        },
        other => panic!("{name}: expected a matrix, got {other:?}"),
    }
}

#[track_caller]
fn assert_same(case: &str, what: &str, ours: &DMatrix<f64>, r: &DMatrix<f64>) {
    assert_eq!(ours.shape(), r.shape(), "{case} {what}: shape");
    for j in 0..r.ncols() {
        for i in 0..r.nrows() {
            let (a, e) = (ours[(i, j)], r[(i, j)]);
            assert!(
                (a - e).abs() <= 1e-12,
                "{case} {what}[{i},{j}]: got {a:e}, R gives {e:e}"
            );
        }
    }
}

#[test]
fn singular_vectors_have_r_signs() {
    let f = fixture("svd_signs");
    let cases = f.as_object().expect("an object");
    assert!(cases.len() >= 13, "fixture has its cases");
    let mut rotations = 0;
    for (name, c) in cases {
        let x = mat_of(&c["x"]);
        let s = call("svd", vec![pos(Value::Mat(x.clone()))]).expect("svd");
        let Value::List(l) = &s else {
            panic!("svd gives a record")
        };
        let d = l
            .field("d")
            .and_then(Value::as_f64_slice)
            .expect("d")
            .to_vec();
        let want = vec_of(&c["d"]);
        for (a, e) in d.iter().zip(&want) {
            assert!((a - e).abs() <= 1e-12 * want[0], "{name} d: {a:e} vs {e:e}");
        }
        assert_same(name, "u", &field(&s, "u"), &mat_of(&c["u"]));
        assert_same(name, "v", &field(&s, "v"), &mat_of(&c["v"]));
        if let Some(rot) = c.get("rotation") {
            let p = call(
                "prcomp",
                vec![pos(Value::Mat(x)), named("scale.", Value::flag(false))],
            )
            .expect("prcomp");
            assert_same(name, "rotation", &field(&p, "rotation"), &mat_of(rot));
            rotations += 1;
        }
    }
    assert!(rotations >= 5, "prcomp compared in {rotations} cases");
}
