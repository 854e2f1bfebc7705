//! append, ordered factors, psigamma, La.svd, loadings, cophenetic, rapply
//! and try: append.R's pieces joined as `c` joins them, nmath's psigamma
//! over Amos' dpsifn, and the rest as R's R code computes them. The
//! workflow tests/fixtures/workflows/library29.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library29.R wrote library29.json) to 1e-10. What R
//! refuses, flowcast refuses with R's message (library29_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library29_workflow_matches_r() {
    r_json::assert_matches_r("library29");
}

/// Each case of library29_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library29_errors");
}

/// What R accepts and flowcast cannot hold is refused naming the
/// argument, never run as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'append(factor(c(\"a\", \"b\")), \"c\")'",
                "does not join factors",
            ),
            ("a = 'La.svd(c(1i, 2))'", "must be a numeric matrix"),
            ("a = 'cophenetic(list(a = 1))'", "an hclust() result as 'x'"),
            (
                "a = 'cophenetic(list(merge = matrix(c(-1, 5), 1), height = 1, order = c(1, 2)))'",
                "an hclust() result as 'x'",
            ),
            ("a = 'try(silent = TRUE)'", "argument \"expr\" is missing"),
            ("a = 'try(1, sielnt = TRUE)'", "unused argument"),
        ],
    );
}

/// try's value is R's "try-error" text, whose class `inherits` and
/// `class` read.
#[test]
fn try_error_is_classed() {
    let (_dir, path) = common::steps_workflow(
        "a = 'try(stop(\"no\"), silent = TRUE)'\nb = 'class(a)'\nc = 'inherits(a, \"try-error\")'",
    );
    let out = common::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = common::text(&out.stderr) + &common::text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("try-error"), "{all}");
    assert!(all.contains("TRUE"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(1, NA)", "list(a = 1, b = list(2, 3))", "-0.5", "2.5"],
    ]
    .concat();
    let calls = [
        "append(X, 1)",
        "append(c(1, 2), X)",
        "append(c(1, 2, 3), 4, after = X)",
        "append(list(1, 2), X, after = 1)",
        "psigamma(X)",
        "psigamma(X, 1)",
        "psigamma(2, X)",
        "La.svd(X)",
        "La.svd(matrix(c(1, 2, 3, 4), 2), nu = X)",
        "La.svd(matrix(c(1, 2, 3, 4), 2), nv = X)",
        "loadings(X)",
        "cophenetic(X)",
        "try(log(X), silent = TRUE)",
        "try(X, silent = X)",
        "ordered(X)",
        "as.ordered(X)",
        "is.ordered(X)",
        "ordered(c(\"a\", \"b\")) < X",
        "max(ordered(c(\"a\", \"b\")), X)",
        "range(ordered(c(\"a\", NA)), na.rm = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
