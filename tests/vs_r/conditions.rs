//! `tryCatch`: the workflow tests/fixtures/workflows/conditions.toml runs,
//! and every step must equal what R computed for the same expression
//! (tests/fixtures/r/conditions.R wrote conditions.json) bit for bit, the
//! random steps between included: a handler draws only when it runs. What
//! R refuses, flowcast refuses with R's message (conditions_errors.json).

use crate::common;
use common::{flowcast, steps_workflow as workflow};

#[test]
fn conditions_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("conditions");
}

#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("conditions_errors");
}

/// A warning a handler catches is not reported; one nobody catches is,
/// once, beside the error handler's value.
#[test]
fn caught_warnings_are_not_reported() {
    let (_dir, path) = workflow("a = 'tryCatch(log(-1), warning = function(w) 0)'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(!all.contains("NaNs produced"), "{all}");
    common::r_json::assert_warns_once(
        "a = 'tryCatch(log(-1), error = function(e) 0)'",
        &["NaNs produced"],
    );
}

/// What analysis finds wrong inside `expr` is R's error at run time, for
/// the handler to catch; with no handler for errors, analysis refuses it.
#[test]
fn analysis_leaves_caught_errors_to_the_run() {
    let (_dir, path) = workflow("a = 'tryCatch(log(\"a\"), error = function(e) -1)'");
    let out = flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--json",
        path.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["steps"]["a"]["value"], serde_json::json!(-1), "{text}");
    let (_dir, path) = workflow("a = 'tryCatch(log(\"a\"), warning = function(w) -1)'");
    let out = flowcast(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("non-numeric argument"));
}
