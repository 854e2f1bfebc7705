//! `switch`: the workflow tests/fixtures/workflows/switch.toml runs, and
//! every step must equal what R computed for the same expression
//! (tests/fixtures/r/switch.R wrote switch.json) bit for bit, the random
//! steps between the switches included: only the alternative picked may
//! draw. What R refuses, flowcast refuses with R's message
//! (switch_errors.json).

use crate::common;
use common::{flowcast, steps_workflow as workflow};

#[test]
fn switch_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("switch");
}

#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("switch_errors");
}

/// R warns on a factor `EXPR` (and picks by its code) and on a switch with
/// no alternatives (NULL).
#[test]
fn warnings_are_rs() {
    common::r_json::assert_warns_once(
        "a = 'switch(factor(\"b\", levels = c(\"b\", \"a\")), \"first\", \"second\")'",
        &["EXPR is a \"factor\", treated as integer."],
    );
    common::r_json::assert_warns_once("a = 'switch(\"a\")'", &["'switch' with no alternatives"]);
}

/// An empty argument is an alternative that falls through, and nothing
/// else: any other call refuses it where it stands.
#[test]
fn an_empty_argument_is_refused_outside_switch() {
    let (_dir, path) = workflow("a = 'sum(1, na.rm = )'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("argument `na.rm` is empty"), "{err}");
    assert!(err.contains(":2:13 "), "{err}");
}

/// When `EXPR` is known before the run, analysis knows the alternative's
/// type; otherwise the alternatives' types joined, a `stop` left out.
#[test]
fn analysis_knows_the_picked_alternative() {
    let (_dir, path) = workflow(
        "m = 'matrix(0, 3, 4)'\n\
         a = 'switch(\"b\", a = 1, b = m)'\n\
         k = 'sample(c(\"x\", \"y\"), 1)'\n\
         b = 'switch(k, x = m + 1, y = m * 2, stop(\"no\"))'\n\
         c = 'switch(k, x = m + 1, y = 1:3)'",
    );
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ty = |step: &str| {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(step));
        line.and_then(|l| l.split_whitespace().last())
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(ty("a"), "mat[3x4]", "{text}");
    assert_eq!(ty("b"), "mat[3x4]", "{text}");
    assert_eq!(ty("c"), "?", "{text}");
}
