//! The blocked paths of `qr` (compact WY updates above 96 rows and columns)
//! and `solve` (LU in blocks of 64 columns) against R 4.2.2
//! (`tests/fixtures/r/linalg_blocked.R`): rank-deficient matrices whose
//! dependent columns are found at different points of a block, so a wrong
//! norm downdate shows as a wrong pivot or rank.

use crate::common;

use common::{call, fixture, mat_of, pos, vec_of};
use flowcast::kernels::Value;
use nalgebra::DMatrix;
use serde_json::Value as Json;

const TOL: f64 = 1e-10;

fn as_mat(v: &Value) -> DMatrix<f64> {
    match v {
        Value::Mat(m) => m.clone(),
        other => panic!("expected a matrix, got {other:?}"),
    }
}

fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    match v {
        Value::List(l) => l.field(name).unwrap_or_else(|| panic!("no field {name}")),
        other => panic!("expected a record, got {other:?}"),
    }
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_f64_slice().expect("numbers").to_vec()
}

/// Entries of the given columns (and, for `rows`, only those rows),
/// relative to the largest entry of R's column.
#[track_caller]
fn assert_block_close(
    what: &str,
    actual: &DMatrix<f64>,
    expected: &DMatrix<f64>,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) {
    assert_eq!(actual.shape(), expected.shape(), "{what}: shape");
    for j in cols {
        let scale = expected.column(j).amax().max(1e-300);
        for i in rows.clone() {
            let (a, e) = (actual[(i, j)], expected[(i, j)]);
            assert!(
                (a - e).abs() <= TOL * scale,
                "{what} [{i},{j}]: got {a:e}, R gives {e:e}"
            );
        }
    }
}

fn qr_cases(f: &Json) -> Vec<(&String, &Json)> {
    let cases: Vec<_> = f
        .as_object()
        .expect("an object")
        .iter()
        .filter(|(k, _)| k.starts_with("qr_"))
        .collect();
    assert!(cases.len() >= 3, "fixture has its qr cases");
    cases
}

#[test]
fn blocked_qr_pivots_and_ranks_like_r() {
    let f = fixture("linalg_blocked");
    for (name, c) in qr_cases(&f) {
        let q = call("qr", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap();
        let rank = nums(field(&q, "rank"))[0] as usize;
        assert_eq!(rank, vec_of(&c["rank"])[0] as usize, "{name}: rank");
        assert_eq!(
            nums(field(&q, "pivot")),
            vec_of(&c["pivot"]),
            "{name}: pivot"
        );
        assert!(rank < mat_of(&c["x"]).ncols(), "{name} is rank deficient");
    }
}

#[test]
fn blocked_qr_matches_r_up_to_the_rank() {
    // Past the rank dqrdc2 reflects rounding noise: only the first `rank`
    // columns, and the rows of R above `rank`, are determined.
    let f = fixture("linalg_blocked");
    for (name, c) in qr_cases(&f) {
        let q = call("qr", vec![pos(Value::Mat(mat_of(&c["x"])))]).unwrap();
        let rank = vec_of(&c["rank"])[0] as usize;
        let (ours, theirs) = (as_mat(field(&q, "qr")), mat_of(&c["qr"]));
        let (n, p) = theirs.shape();
        assert_block_close(name, &ours, &theirs, 0..n, 0..rank);
        assert_block_close(name, &ours, &theirs, 0..rank, 0..p);
        let qraux = nums(field(&q, "qraux"));
        let want = vec_of(&c["qraux"]);
        for j in 0..rank {
            assert!(
                (qraux[j] - want[j]).abs() <= TOL * want[j].abs(),
                "{name} qraux[{j}]: got {}, R gives {}",
                qraux[j],
                want[j]
            );
        }
        if let Some(qm) = c.get("Q") {
            let ours = as_mat(&call("qr.Q", vec![pos(q)]).unwrap());
            let theirs = mat_of(qm);
            let (n, k) = theirs.shape();
            assert_block_close(&format!("{name} Q"), &ours, &theirs, 0..n, 0..k);
        }
    }
}

#[test]
fn blocked_solve_matches_r() {
    let f = fixture("linalg_blocked");
    for n in [100, 200] {
        let c = &f[format!("solve_{n}")];
        let a = Value::Mat(mat_of(&c["a"]));
        let inv = as_mat(&call("solve", vec![pos(a.clone())]).unwrap());
        let want = mat_of(&c["inverse"]);
        assert_block_close(&format!("solve({n})"), &inv, &want, 0..n, 0..n);
        let x = as_mat(
            &call(
                "solve",
                vec![pos(a.clone()), pos(Value::Mat(mat_of(&c["b"])))],
            )
            .unwrap(),
        );
        let want = mat_of(&c["x"]);
        assert_block_close(&format!("solve({n}, b)"), &x, &want, 0..n, 0..want.ncols());
        let xv = call("solve", vec![pos(a), pos(Value::Num(vec_of(&c["bv"])))]).unwrap();
        let want = DMatrix::from_vec(n, 1, vec_of(&c["xv"]));
        let xv = DMatrix::from_vec(n, 1, nums(&xv));
        assert_block_close(&format!("solve({n}, bv)"), &xv, &want, 0..n, 0..1);
    }
}

#[test]
fn blocked_solve_reports_rs_exact_singularity() {
    let f = fixture("linalg_blocked");
    let c = &f["solve_singular_col80"];
    let e = call("solve", vec![pos(Value::Mat(mat_of(&c["a"])))]).expect_err("singular");
    assert_eq!(e.0, c["msg"].as_str().unwrap());
    assert!(e.0.ends_with("U[80,80] = 0"), "{}", e.0);
    let c = &f["solve_singular_row30"];
    let e = call(
        "solve",
        vec![
            pos(Value::Mat(mat_of(&c["a"]))),
            pos(Value::Num(vec_of(&c["b"]))),
        ],
    )
    .expect_err("singular");
    assert_eq!(e.0, c["msg"].as_str().unwrap());
}
