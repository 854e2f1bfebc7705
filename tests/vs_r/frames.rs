//! Issue 13, items 12, 13, 15 and 16: `read.csv` gives a data frame, lm
//! reads formulas as R's `terms()` does and takes `data`, `subset` and
//! `weights`, and `$` matches prefixes as R does. The workflow
//! tests/fixtures/workflows/frames.toml runs, and every step must equal
//! what R computed for it (tests/fixtures/r/frames.R wrote frames.json);
//! what flowcast does not support fails with a located message.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::common;
use common::text;
use common::{flowcast, r_json};

#[test]
fn frames_workflow_matches_r() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/r/frames.json")).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = common::flowcast_command()
        .args(["run", "--headless", "-p", "2", "--out"])
        .arg(dir.path())
        .arg(root.join("tests/fixtures/workflows/frames.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let mut errors = Vec::new();
    r_json::compare_dir(&r, dir.path(), &mut errors);
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

/// A workflow reading tests/fixtures/csv/frame.csv as `d`, plus `steps`.
fn workflow(steps: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/csv/frame.csv");
    std::fs::copy(csv, dir.path().join("frame.csv")).unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        format!("[steps]\nd = 'read.csv(\"frame.csv\")'\n{steps}\n"),
    )
    .unwrap();
    (dir, path)
}

/// `check` refuses the step on line 3 with `message`, pointing at `at`
/// (text of the step) by line and column.
#[track_caller]
fn check_fails(step: &str, at: &str, message: &str) {
    let (_dir, path) = workflow(step);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{step}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let column = step.find(at).expect("`at` is in the step") + 1;
    assert!(
        err.contains(&format!("w.toml:3:{column} ")),
        "{step}: {err}"
    );
    assert!(err.contains(message), "{step}: {err}");
}

#[test]
fn unsupported_formulas_and_frames_fail_at_check_with_the_place() {
    check_fails(
        "f = 'lm(weight ~ nosuch, data = d)'",
        "nosuch",
        "`nosuch` not found",
    );
    check_fails(
        "f = 'lm(d$weight ~ .)'",
        ".",
        "'.' in formula and no 'data' argument",
    );
    check_fails(
        "f = 'lm(d$weight ~ d$height^d$age)'",
        "d$age",
        "invalid power in formula",
    );
    check_fails(
        "f = 'lm(weight ~ height:d, data = d)'",
        "height:",
        "for variable `d` in the interaction `height:d`",
    );
    check_fails(
        "f = 'lm(weight ~ height, data = d, weights = group)'",
        "weights =",
        "'weights' must be a numeric vector",
    );
    check_fails(
        "f = 'lm(weight ~ height, data = 3)'",
        "data =",
        "'data' must be a data frame",
    );
    check_fails("m = 'colMeans(d)'", "d)", "column `group` is character");
    check_fails("m = 'd[, 20]'", "20", "undefined columns selected");
}

#[test]
fn unsupported_values_fail_their_step_at_run_time() {
    let (_dir, path) = workflow("f = 'lm(weight ~ height, data = d, weights = -w)'");
    let out = flowcast(&["run", "--headless", path.to_str().unwrap()]);
    let err = text(&out.stderr) + &text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("missing or negative weights not allowed"),
        "{err}"
    );
}
