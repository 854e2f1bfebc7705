//! Issue 17, item 6: glm (gaussian, binomial and poisson by IRLS as R's
//! glm.fit), coef, residuals, fitted, summary, anova and predict on lm and
//! glm fits, and chol, det, backsolve, forwardsolve, kronecker and
//! cmdscale. The workflow tests/fixtures/workflows/models.toml runs and
//! every step must equal what R computed for it
//! (tests/fixtures/r/models.R wrote models.json); what flowcast refuses,
//! it refuses with R's message (or a located one at check time).

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::common;
use common::text;
use common::{call, flowcast, named, pos, r_json};
use flowcast::kernels::Value;
use nalgebra::DMatrix;

#[test]
fn models_workflow_matches_r() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/r/models.json")).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = common::flowcast_command()
        .args(["run", "--headless", "-p", "2", "--out"])
        .arg(dir.path())
        .arg(root.join("tests/fixtures/workflows/models.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let mut errors = Vec::new();
    for (step, rv) in r.as_object().unwrap() {
        let file = dir.path().join(format!("{step}.json"));
        let Ok(t) = std::fs::read_to_string(&file) else {
            errors.push(format!("{step}: no {}", file.display()));
            continue;
        };
        let mut ours: Json = serde_json::from_str(&t).unwrap();
        let mut rv = rv.clone();
        drop_rank_deficient_noise(&mut ours);
        drop_rank_deficient_noise(&mut rv);
        r_json::compare(step, &ours, &rv, &mut errors);
    }
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// In a QR decomposition of rank r < p, dqrdc2 still forms a reflector
/// from what is left of the aliased columns: rounding noise, whose bits
/// depend on the order of every sum before it (R's reference BLAS and
/// flowcast's blocked updates differ there). Those columns of `qr` below
/// the first r rows, and their `qraux`, are not compared.
fn drop_rank_deficient_noise(v: &mut Json) {
    match v {
        Json::Object(m) => {
            let rank = m.get("rank").and_then(Json::as_u64).map(|r| r as usize);
            let dims = m
                .get("qr")
                .and_then(|q| q.get("dim"))
                .and_then(Json::as_array)
                .map(|d| d.iter().filter_map(Json::as_u64).collect::<Vec<_>>());
            if let (Some(rank), Some([n, p])) = (rank, dims.as_deref()) {
                let (n, p) = (*n as usize, *p as usize);
                if let Some(Json::Array(data)) = m.get_mut("qr").and_then(|q| q.get_mut("data")) {
                    for j in rank..p {
                        for i in rank..n {
                            if let Some(x) = data.get_mut(j * n + i) {
                                *x = Json::Null;
                            }
                        }
                    }
                }
                if let Some(Json::Array(aux)) = m.get_mut("qraux") {
                    for x in aux.iter_mut().skip(rank) {
                        *x = Json::Null;
                    }
                }
            }
            m.values_mut().for_each(drop_rank_deficient_noise);
        }
        Json::Array(a) => a.iter_mut().for_each(drop_rank_deficient_noise),
        _ => {}
    }
}

/// A workflow reading tests/fixtures/csv/models.csv as `d`, plus `steps`.
fn workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csv/models.csv");
    std::fs::copy(csv, dir.path().join("models.csv")).unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        format!("[steps]\nd = 'read.csv(\"models.csv\")'\n{steps}\n"),
    )
    .unwrap();
    (dir, path)
}

/// `check` refuses the steps with `message`, pointing at `at` (the steps
/// start on line 3).
#[track_caller]
fn check_fails(step: &str, at: &str, message: &str) {
    let (_dir, path) = workflow(step);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{step}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let offset = step.find(at).expect("`at` is in the step");
    let line = 3 + step[..offset].matches('\n').count();
    let column = offset - step[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
    assert!(
        err.contains(&format!("w.toml:{line}:{column} ")),
        "{step}: {err}"
    );
    assert!(err.contains(message), "{step}: {err}");
}

/// `run` fails the step with `message` (R's).
#[track_caller]
fn run_fails(steps: &str, message: &str) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["run", "--headless", path.to_str().unwrap()]);
    let err = text(&out.stderr) + &text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{steps}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "{steps}: {err}");
}

#[test]
fn unsupported_calls_fail_at_check_with_the_place() {
    check_fails(
        "g = 'glm(y ~ x1, family = binomial(link = \"logistic\"), data = d)'",
        "link =",
        "\u{2018}logistic\u{2019} link not recognised",
    );
    check_fails(
        "g = 'glm(y ~ x1, family = \"negative.binomial\", data = d)'",
        "family =",
        // R's own (negative.binomial is MASS's, not attached).
        "object 'negative.binomial' of mode 'function' was not found",
    );
    check_fails(
        "m = 'chol(matrix(1, 2, 3))'",
        "matrix(",
        "'a' must be a square matrix",
    );
    check_fails(
        "m = 'det(c(1, 2))'",
        "c(1, 2)",
        "no applicable method for 'determinant'",
    );
    check_fails(
        "m = 'cmdscale(dist(matrix(1, 3, 2)), k = 3)'",
        "k = 3",
        "'k' must be in {1, 2, ..  n - 1}",
    );
    check_fails(
        "f = 'lm(y ~ x1, data = d)'\np = 'predict(f, type = \"terms\")'",
        "type =",
        "not supported",
    );
}

#[test]
fn r_errors_fail_their_step_at_run_time() {
    run_fails(
        "g = 'glm(count ~ x1, family = binomial, data = d)'",
        "y values must be 0 <= y <= 1",
    );
    run_fails(
        "g = 'glm(x1 ~ x2, family = poisson, data = d)'",
        "negative values not allowed for the 'Poisson' family",
    );
    run_fails(
        "m = 'chol(matrix(c(1, 2, 2, 1), 2))'",
        "the leading minor of order 2 is not positive definite",
    );
    run_fails(
        "b = 'backsolve(matrix(c(1, 0, 0, 0), 2), c(1, 2))'",
        "singular matrix in 'backsolve'. First zero in diagonal [2]",
    );
    run_fails(
        "f = 'lm(y ~ x1 + x2, data = d)'\np = 'predict(f, newdata = d[, c(1, 4)])'",
        "object `x2` not found",
    );
    run_fails(
        "f = 'lm(y ~ x1, data = d)'\ng = 'lm(y ~ x1 + age, data = d)'\na = 'anova(f, g)'",
        "models were not all fitted to the same size of dataset",
    );
}

/// Factor interactions (tests/fixtures/workflows/interactions.toml) that
/// R refuses, or that no fit takes, fail with what is wrong named.
#[test]
fn interaction_errors_name_the_variable() {
    let g = "g = 'ifelse(d$dose < 2, \"lo\", \"hi\")'\nf = 'lm(y ~ x1 * g, data = d)'";
    run_fails(
        &format!("{g}\np = 'predict(f, data.frame(x1 = 1, g = \"mid\"))'"),
        "factor g has new level mid",
    );
    run_fails(
        &format!("{g}\np = 'predict(f, data.frame(x1 = 1, g = 2))'"),
        "variable 'g' was fitted with type \"factor\" but type \"numeric\" was supplied",
    );
    run_fails(
        "g = 'rep(\"one\", 40)'\nf = 'lm(y ~ x1:g, data = d)'",
        "contrasts can be applied only to factors with 2 or more levels (variable 'g')",
    );
    check_fails(
        "f = 'lm(y ~ x1:d, data = d)'",
        "x1:d",
        "for variable `d` in the interaction `x1:d`",
    );
}

#[test]
fn separation_warns_as_r_does() {
    // R: glm.fit: fitted probabilities numerically 0 or 1 occurred.
    let (_dir, path) = workflow(
        "x = 'c(1, 2, 3, 4, 5, 6)'\ny = 'c(0, 0, 0, 1, 1, 1)'\ng = 'glm(y ~ x, family = binomial)'",
    );
    let out = flowcast(&["run", "--headless", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains("fitted probabilities numerically 0 or 1 occurred"),
        "{all}"
    );
}

#[test]
fn small_cases_give_r_values() {
    // det(matrix(0, 0, 0)) is 1 and a singular matrix's is exactly 0.
    let empty = Value::Mat(DMatrix::zeros(0, 0));
    assert_eq!(call("det", vec![pos(empty)]).unwrap(), Value::scalar(1.0));
    let singular = Value::Mat(DMatrix::from_vec(2, 2, vec![1.0, 2.0, 2.0, 4.0]));
    assert_eq!(
        call("det", vec![pos(singular)]).unwrap(),
        Value::scalar(0.0)
    );
    // chol of a 1x1: its square root.
    let one = Value::Mat(DMatrix::from_element(1, 1, 9.0));
    assert_eq!(
        call("chol", vec![pos(one)]).unwrap(),
        Value::Mat(DMatrix::from_element(1, 1, 3.0))
    );
    // backsolve uses the first k rows of a longer x: R gives c(1, 2).
    let eye = Value::Mat(DMatrix::identity(2, 2));
    assert_eq!(
        call(
            "backsolve",
            vec![pos(eye), pos(Value::Num(vec![1.0, 2.0, 3.0]))]
        )
        .unwrap(),
        Value::Num(vec![1.0, 2.0])
    );
    // kronecker(diag(2), matrix(1:4, 2), FUN = "+") as R prints it.
    let k = call(
        "kronecker",
        vec![
            pos(Value::Mat(DMatrix::identity(2, 2))),
            pos(Value::Mat(DMatrix::from_vec(
                2,
                2,
                vec![1.0, 2.0, 3.0, 4.0],
            ))),
            named("FUN", Value::string("+")),
        ],
    )
    .unwrap();
    let want = DMatrix::from_row_slice(
        4,
        4,
        &[
            2., 4., 1., 3., 3., 5., 2., 4., 1., 3., 2., 4., 2., 4., 3., 5.,
        ],
    );
    assert_eq!(k, Value::Mat(want));
}

/// summary.lm's and summary.glm's standard errors come from R's own
/// (R'R)^-1, La_chol2inv's LAPACK dpotri: R's numbers to the last bit
/// (four of these ten differed by an ulp through hand-written inverses).
#[test]
fn summary_standard_errors_are_rs_to_the_bit() {
    // R 4.2.2: x, z, w, y as below;
    // cat(sprintf("%.17g", summary(lm(y ~ x + z + w + I(x^2)))$coefficients[, 2]), sep = "\n")
    const LM: [f64; 5] = [
        0.96447372766487027,
        0.32627945203732539,
        0.29844233023280092,
        0.18293267761516416,
        0.022836301689482488,
    ];
    // cat(sprintf("%.17g", summary(glm(y ~ x + z + w + I(x^2)))$coefficients[, 2]), sep = "\n")
    const GLM: [f64; 5] = [
        0.96447372766487083,
        0.32627945203732561,
        0.29844233023280109,
        0.18293267761516424,
        0.022836301689482502,
    ];
    let (dir, path) = common::steps_workflow(
        "x = \"c(1.3, 2.1, 3.7, 4.2, 5.9, 6.1, 7.4, 8.8, 9.5, 10.2, 11.7, 12.3)\"
z = \"c(0.5, 1.7, 0.2, 2.9, 1.1, 3.3, 0.8, 2.2, 1.9, 0.4, 2.6, 1.5)\"
w = \"c(0.3, -1.2, 2.2, 0.7, 1.9, -0.4, 3.1, 0.2, -2.5, 1.4, 0.9, 2.8)\"
y = \"c(2.2, 4.1, 5.8, 8.9, 10.1, 13.3, 14.2, 17.9, 18.1, 21.0, 23.7, 24.1)\"
l = \"summary(lm(y ~ x + z + w + I(x^2)))$coefficients[, 2]\"
g = \"summary(glm(y ~ x + z + w + I(x^2)))$coefficients[, 2]\"",
    );
    let out = dir.path().join("out");
    let run = common::flowcast_command()
        .args(["run", "--headless", "-p", "1", "--out"])
        .arg(&out)
        .arg(&path)
        .output()
        .expect("runs");
    assert!(run.status.success(), "{}", text(&run.stderr));
    for (step, r) in [("l", LM), ("g", GLM)] {
        let v: Json = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("{step}.json"))).unwrap(),
        )
        .unwrap();
        let got: Vec<f64> = v
            .as_array()
            .expect("a vector")
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(got.len(), r.len(), "{step}");
        for (i, (a, b)) in got.iter().zip(r).enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "{step}[{i}]: {a} against R's {b}");
        }
    }
}
