//! Monte Carlo p-values and random tables. `r2dtable`, and `chisq.test`
//! and `fisher.test` with `simulate.p.value = TRUE`, follow R 4.2's
//! rcont2 (rcont.c), chisqsim.c and chisq.test's `sample.int(prob = p)`
//! draw for draw. The workflow tests/fixtures/workflows/library53.toml
//! runs on several workers, each simulated step followed by a
//! `runif(3)`, and every value must equal what R computed for the same
//! expressions in file order from the same seed
//! (tests/fixtures/r/library53.R wrote library53.json), bit for bit: the
//! p-values, tables and the stream left behind are R's. What R refuses,
//! flowcast refuses with R's message (library53_errors.json).

use crate::common;
use common::r_json;
use flowcast::graph::draws_random;
use flowcast::workflow::parse_expr_str;

/// Every step's JSON against R's, to the last bit.
#[test]
fn library53_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("library53");
}

/// Each case of library53_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library53_errors");
}

/// Only a call that asks for a simulated p-value draws, so the tests
/// without one still run in parallel with everything; one that does
/// takes its place on the stream in file order, also when the argument
/// is passed on through an apply or abbreviated.
#[test]
fn only_simulating_calls_draw() {
    let draws = |e: &str| draws_random(&parse_expr_str(e).unwrap());
    for e in [
        "chisq.test(m, simulate.p.value = TRUE)",
        "chisq.test(m, sim = TRUE, B = 10)",
        "fisher.test(m, simulate.p.value = s)",
        "chisq.test(m, NULL, TRUE, 1, FALSE, TRUE)",
        "sapply(l, fisher.test, simulate.p.value = TRUE)",
        "lapply(l, function(t) chisq.test(t, simulate.p.value = TRUE)$p.value)",
        "r2dtable(1, c(1, 2), c(2, 1))",
    ] {
        assert!(draws(e), "{e}");
    }
    for e in [
        "chisq.test(m)",
        "chisq.test(m, simulate.p.value = FALSE)",
        "fisher.test(m, correct = TRUE)",
        "chisq.test(c(1, 2), p = c(0.5, 0.5), rescale.p = TRUE)",
    ] {
        assert!(!draws(e), "{e}");
    }
}

/// What R would simulate from tables its C code misreads is refused,
/// saying why: non-whole counts whose truncated margins disagree, and a
/// goodness-of-fit sample of a non-whole size.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'chisq.test(matrix(c(1.5, 1.5, 2, 2), 2), simulate.p.value = TRUE)'",
                "truncated to integers, differ",
            ),
            (
                "a = 'chisq.test(c(1.5, 2, 3), simulate.p.value = TRUE)'",
                "whole counts only",
            ),
        ],
    );
}

/// The plan knows r2dtable's list before the run: its length and each
/// table's dimensions.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked("a = 'r2dtable(4, c(1, 2, 3), c(3, 3))'");
    assert!(all.contains("list[4] of mat[3x2]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(0, 0)",
            "c(3, 0, 2)",
            "matrix(c(0, 0, 0, 5), 2)",
            "matrix(c(1e6, 2e6, 3e6, 1), 2)",
        ],
    ]
    .concat();
    let calls = [
        "r2dtable(X, c(1, 2), c(2, 1))",
        "r2dtable(2, X, c(2, 1, 0, 2))",
        "r2dtable(2, c(1, 4), X)",
        "chisq.test(X, simulate.p.value = TRUE, B = 20)",
        "chisq.test(matrix(c(1, 2, 3, 4), 2), simulate.p.value = TRUE, B = X)",
        "chisq.test(c(4, 5, 6), p = X, rescale.p = TRUE, simulate.p.value = TRUE, B = 20)",
        "fisher.test(X, simulate.p.value = TRUE, B = 20)",
        "fisher.test(matrix(c(1, 2, 3, 4, 5, 6), 2), simulate.p.value = X, B = 20)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}

/// A table with a zero margin cannot be simulated: R warns, then gives
/// the asymptotic test (and its own warning about small expected counts),
/// drawing nothing.
#[test]
fn zero_margins_warn_as_r_does() {
    r_json::assert_warns_once(
        "a = 'chisq.test(matrix(c(3, 5, 0, 0, 4, 2), 2), simulate.p.value = TRUE)'",
        &[
            "cannot compute simulated p-value with zero marginals",
            "Chi-squared approximation may be incorrect",
        ],
    );
}
