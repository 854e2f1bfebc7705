//! fft and mvfft of logical matrices with NA, determinant's `logarithm`
//! attribute, diffinv of a time series, lag and reorder: a logical NA is
//! complex NA in both parts (ComplexFromLogical) where a logical matrix
//! reaches the transform, determinant.matrix's `structure(modulus,
//! logarithm = )`, diffinv.ts's `ts(y, frequency = frequency(x), end =
//! end(x))`, lag.default's shifted tsp, and reorder.default's tapply
//! scores, sorted stably with NA last. The workflow
//! tests/fixtures/workflows/library28.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library28.R wrote library28.json) to 1e-10. What R
//! refuses, flowcast refuses with R's message (library28_errors.json).

use crate::common;
use common::r_json;
use common::{flowcast, steps_workflow as workflow, text};

/// Every step's JSON against R's.
#[test]
fn library28_workflow_matches_r() {
    r_json::assert_matches_r("library28");
}

/// Each case of library28_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library28_errors");
}

/// What R accepts and flowcast cannot hold is refused naming the
/// argument, never run as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            // R gives a plain vector a tsp without the class "ts".
            (
                "a = 'lag(c(1, 2, 3), 1)'",
                "flowcast's lag takes a time series",
            ),
            ("a = 'lag(ts(1:5), Inf)'", "a finite 'k'"),
            (
                "a = 'reorder(factor(c(\"a\", \"b\")), c(1, 2), order = TRUE)'",
                "ordered factors (order = TRUE)",
            ),
            (
                "a = 'reorder(factor(c(\"a\", \"b\")), c(1, 2), FUN = function(v) \"z\")'",
                "numeric or logical scores",
            ),
        ],
    );
}

/// lag.default warns as R does when it rounds `k`.
#[test]
fn lag_warns_of_a_fractional_k() {
    let (_dir, path) = workflow("a = 'lag(ts(1:5), 1.5)'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("'k' is not an integer"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(1, NA)",
            "matrix(c(TRUE, NA, FALSE, TRUE), 2)",
            "ts(1:4)",
            "factor(c(\"a\", \"b\"))",
        ],
    ]
    .concat();
    let calls = [
        "fft(X)",
        "mvfft(X)",
        "as.complex(X)",
        "determinant(matrix(numeric(0), 0, 0), X)",
        "attributes(determinant(diag(2), X)$modulus)",
        "diffinv(X)",
        "diffinv(ts(1:4), lag = X)",
        "diffinv(ts(1:4), differences = X)",
        "diffinv(ts(1:4), xi = X)",
        "diffinv(ts(matrix(1:4, 2)), xi = X)",
        "lag(X)",
        "lag(ts(1:4), X)",
        "lag(ts(matrix(1:4, 2)), X)",
        "reorder(X, c(1, 2))",
        "reorder(factor(c(\"a\", \"b\")), X)",
        "reorder(factor(c(\"a\", \"b\")), c(1, 2), FUN = X)",
        "reorder(factor(c(\"a\", \"b\")), c(1, 2), order = X)",
        "reorder(factor(c(\"a\", \"b\")), c(1, 2), decreasing = X)",
        "reorder(factor(c(\"a\", \"b\")), c(1, 2), FUN = function(v) X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
