//! row, col, norm, rcond, kappa, isSymmetric, qr.solve, lm.fit,
//! dmultinom, stopifnot, is.function, as.list, double, the bitw*
//! functions, gregexpr, unsplit, stack, unstack, poly, princomp and
//! cancor. The workflow tests/fixtures/workflows/library6.toml runs, and
//! every step must equal what R computed for the same expression
//! (tests/fixtures/r/library6.R wrote library6.json) bit for bit; the
//! decompositions of library6_decomp.toml (faer's SVD and eigen where R
//! calls LAPACK) agree to rounding. What R refuses, flowcast refuses with
//! R's message (library6_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, bit for bit.
#[test]
fn library6_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("library6");
}

/// The decompositions' steps against R's, within r_json's tolerance
/// (columns' signs aligned).
#[test]
fn library6_decompositions_match_r() {
    r_json::assert_matches_r("library6_decomp");
}

/// Each case of library6_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library6_errors");
}

use common::r_json::assert_warns_once as warns;

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'bitwAnd(3e9, 1)'",
        &["NAs introduced by coercion to integer range"],
    );
    warns(
        "a = 'kappa(diag(2), exact = TRUE, norm = \"1\")'",
        &["norm '1' currently always uses exact = FALSE"],
    );
    warns(
        "a = 'lm.fit(cbind(1, c(1, 2, 3)), c(1, 2, 4), method = \"chol\")'",
        &["method = 'chol' is not supported. Using 'qr'"],
    );
    warns(
        "a = 'stack(data.frame(a = c(1, 2), f = factor(c(\"x\", \"y\"))))'",
        &["non-vector columns will be ignored"],
    );
    warns(
        "a = 'stack(list(a = 1, b = factor(\"x\")))'",
        &["non-vector elements will be ignored"],
    );
    warns(
        "a = 'unsplit(list(c(1, 2), 3), c(1, 1, 1, 2, 2))'",
        &["number of items to replace is not a multiple of replacement length"],
    );
    warns(
        "a = 'cbind(1:3, matrix(1:4, 2))'",
        &["number of rows of result is not a multiple of vector length (arg 1)"],
    );
    warns(
        "a = 'rbind(NULL, 1:3, 1:2)'",
        &["number of columns of result is not a multiple of vector length (arg 3)"],
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
        "c(NaN, Inf)",
        "matrix(0, 0, 3)",
        "matrix(NA, 2, 2)",
        "table(c(1, 1))",
        "y ~ x",
        "complex(real = 1, imaginary = 1)",
        "c(a = 1)",
        "m > 0",
        "m",
    ];
    let calls = [
        "row(X)",
        "col(X)",
        "norm(X)",
        "norm(X, \"2\")",
        "norm(m, X)",
        "rcond(X)",
        "rcond(m, X)",
        "kappa(X)",
        "kappa(X, exact = TRUE)",
        "kappa(m, norm = X)",
        "isSymmetric(X)",
        "qr.solve(X)",
        "qr.solve(m, X)",
        "qr.solve(X, c(1, 2))",
        "lm.fit(X, c(1, 2))",
        "lm.fit(m, X)",
        "lm.fit(cbind(1, 1:2), c(1, 2), offset = X)",
        "dmultinom(X, prob = c(1, 1))",
        "dmultinom(c(1, 1), prob = X)",
        "dmultinom(c(1, 1), size = X, prob = c(1, 2))",
        "stopifnot(X)",
        "is.function(X)",
        "as.list(X)",
        "double(X)",
        "bitwAnd(X, 1)",
        "bitwNot(X)",
        "bitwShiftL(1, X)",
        "bitwShiftR(X, 1)",
        "gregexpr(\"a\", X)",
        "gregexpr(X, \"a\")",
        "poly(X, 1)",
        "poly(c(1, 2, 3), X)",
        "poly(c(1, 2, 3), 1, coefs = X)",
        "poly(X, 2, raw = TRUE)",
        "princomp(X)",
        "cancor(X, m)",
        "cancor(m, X)",
        "stack(X)",
        "unstack(X)",
        "unsplit(X, c(1, 2))",
        "unsplit(list(1, 2), X)",
    ];
    common::assert_odd_inputs_do_not_panic("m = 'matrix(c(1, -2, 3, 4), 2)'\n", &calls, &odd);
}
