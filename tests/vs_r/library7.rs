//! lchoose, lfactorial, nzchar, anyDuplicated, setequal, Position, Find,
//! aperm, arrayInd, slice.index, regexec, regmatches, prettyNum, besselI,
//! besselK and cov.wt. The workflow
//! tests/fixtures/workflows/library7.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/library7.R
//! wrote library7.json) bit for bit. What R refuses, flowcast refuses
//! with R's message (library7_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, bit for bit.
#[test]
fn library7_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("library7");
}

/// Each case of library7_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library7_errors");
}

use common::r_json::assert_warns_once as warns;

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'lchoose(5, 2.5)'",
        &["'k' (2.50) must be integer, rounded to 2"],
    );
    warns(
        "a = 'besselI(-1, 0)'",
        &["value out of range in 'bessel_i'", "NaNs produced"],
    );
    warns(
        "a = 'besselK(-1, 0)'",
        &["value out of range in 'bessel_k'", "NaNs produced"],
    );
    warns(
        "a = 'prettyNum(1234, big.mark = \".\")'",
        &["'big.mark' and 'decimal.mark' are both '.', which could be confusing"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "list(1, \"a\")",
        "data.frame(a = 1:2)",
        "factor(c(\"a\", NA))",
        "-1",
        "1e15",
        "matrix(0, 0, 0)",
        "c(NaN, Inf)",
    ];
    let calls = [
        "lchoose(X, X)",
        "lfactorial(X)",
        "nzchar(X)",
        "nzchar(\"a\", keepNA = X)",
        "anyDuplicated(X)",
        "anyDuplicated(X, fromLast = TRUE)",
        "setequal(X, X)",
        "Position(function(v) TRUE, X)",
        "Find(function(v) TRUE, X)",
        "Position(function(v) TRUE, 1:2, right = X)",
        "aperm(X)",
        "aperm(matrix(1:4, 2), X)",
        "arrayInd(X, X)",
        "arrayInd(1:3, c(2, 2), useNames = X)",
        "slice.index(X, 1)",
        "slice.index(matrix(0, 2, 2), X)",
        "prettyNum(X, big.mark = \",\")",
        "prettyNum(1234, big.mark = X)",
        "besselI(X, 1)",
        "besselK(1, X)",
        "besselI(1, 1, expon.scaled = X)",
        "regexec(\"a\", X)",
        "regmatches(X, regexpr(\"a\", X))",
        "regmatches(\"a\", X)",
        "cov.wt(X)",
        "cov.wt(matrix(1:4, 2), wt = X)",
        "cov.wt(matrix(1:4, 2), center = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
