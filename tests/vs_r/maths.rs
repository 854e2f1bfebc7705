//! The inverse trigonometric and hyperbolic functions, cospi/sinpi/tanpi,
//! digamma/trigamma, integer, vector, lengths, NROW, NCOL, is.element and
//! integrate. The workflow tests/fixtures/workflows/maths.toml runs, and
//! every step must equal what R computed for the same expression
//! (tests/fixtures/r/maths.R wrote maths.json) bit for bit: glibc's
//! asinh/acosh/atanh, R's cospi.c, dpsifn and QUADPACK are ported to
//! round where they round. What R refuses, flowcast refuses with R's
//! message (maths_errors.json), and it warns where R warns
//! (maths_warnings.json).

use crate::common;
use common::text;
use common::{flowcast, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn maths_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("maths");
}

/// Each case of maths_errors.json (steps, and R's message for the last)
/// is refused with that message, before or during the run, and nothing
/// panics.
#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("maths_errors");
}

/// R's math1 warns "NaNs produced" when a function makes NaN of a number:
/// flowcast warns the same, naming the call as R does.
#[test]
fn nan_warnings_are_rs() {
    let cases = common::fixture("maths_warnings");
    let mut failures = Vec::new();
    for (name, case) in cases.as_object().unwrap() {
        let steps = case["steps"].as_str().unwrap();
        let message = case["message"].as_str().unwrap();
        let call = steps
            .split_once(" = '")
            .and_then(|(_, e)| e.strip_suffix('\''))
            .unwrap();
        let (_dir, path) = workflow(steps);
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        let want = format!("warning: In {call} : {message}");
        if !out.status.success() || !all.contains(&want) {
            failures.push(format!("{name}: expected {want:?} in:\n{all}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// No warning where R gives none: NA and NaN pass through, and infinities
/// that have a value.
#[test]
fn no_warning_where_r_gives_none() {
    let (_dir, path) = workflow(
        "a = 'asin(c(NA, NaN, 0.5))'\nb = 'trigamma(c(-Inf, -2, Inf))'\nc = 'atanh(c(-1, 1))'\nd = 'tanh(c(-Inf, Inf))'",
    );
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(!all.contains("NaNs produced"), "{all}");
}

/// `check` refuses the one-step workflow with `message`, before the run.
#[track_caller]
fn check_fails(step: &str, message: &str) {
    let (_dir, path) = workflow(step);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{step}: {err}");
    assert!(err.contains("w.toml:2:"), "{step}: {err}");
    assert!(
        err.contains(message),
        "{step}: expected {message:?} in: {err}"
    );
}

/// What R's types decide is refused before the run, with R's message.
#[test]
fn type_mistakes_are_found_at_check() {
    check_fails(
        "a = 'asin(\"a\")'",
        "non-numeric argument to mathematical function",
    );
    check_fails(
        "a = 'digamma(factor(\"a\"))'",
        "\u{2018}digamma\u{2019} not meaningful for factors",
    );
    check_fails(
        "a = 'tanpi(data.frame(a = \"x\", b = 1))'",
        "non-numeric-alike variable(s) in data frame: a",
    );
    check_fails(
        "a = 'vector(\"foo\", 2)'",
        "vector: cannot make a vector of mode 'foo'.",
    );
    // R makes these; flowcast has no such vectors and says so.
    check_fails("a = 'vector(\"raw\", 2)'", "flowcast has no raw vectors");
    check_fails(
        "a = 'integrate(function(x) x, c(0, 1), 1)'",
        "length(lower) == 1 is not TRUE",
    );
    check_fails("a = 'integrate(function(x) x + zz, 0, 1)'", "zz");
}
