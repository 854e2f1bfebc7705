//! A differential sweep of everyday statistics against R 4.2.2 on edge
//! inputs: the type tests `is.integer`, `is.double`, `is.list` and
//! `is.vector` and `as.double`; chisq.test and fisher.test of two vectors
//! (R's `table(x, y)` of the complete pairs); integer cumsum's overflow to
//! NA; NA winning over NaN in `sum` and `mean` (R's long-double loads) and
//! in the d/p/q functions' arguments (distn.c's `if_NA_Math*_set`);
//! `cut(ordered_result)`; apply's ragged results named by the margin;
//! `table` of a matrix; `log` with a vector of bases; `c()` of factors;
//! pbeta's point masses in R 4.2.2's order; R 4.2's discrete quantile
//! search (qDiscrete_search.h) for qbinom, qpois and qnbinom, and the
//! negative binomial by `mu` (dnbinom_mu, pnbinom_mu, qnbinom_mu);
//! `sort(index.return = TRUE)` and `sort(method = "radix")`; and a spread
//! of the edge cases that already agreed. The workflow
//! tests/fixtures/workflows/library70.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library70.R wrote library70.json); what R refuses,
//! flowcast refuses with R's message (library70_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library70_workflow_matches_r() {
    r_json::assert_matches_r("library70");
}

/// Each case of library70_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library70_errors");
}

/// R's warnings where it gives a value: a non-integer x of a discrete
/// density, matrix()'s uneven data, an integer cumsum past the integer
/// range, and summary.lm of an exact fit.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once("a = 'dbinom(1.5, 5, 0.5)'", &["non-integer x = 1.500000"]);
    r_json::assert_warns_once(
        "a = 'matrix(1:5, 2)'",
        &["data length [5] is not a sub-multiple or multiple of the number of rows [2]"],
    );
    r_json::assert_warns_once(
        "a = 'matrix(1:4, 2, 3)'",
        &["data length [4] is not a sub-multiple or multiple of the number of columns [3]"],
    );
    r_json::assert_warns_once(
        "a = 'matrix(1:12, 2, 3)'",
        &["data length differs from size of matrix: [12 != 2 x 3]"],
    );
    r_json::assert_warns_once(
        "a = 'cumsum(c(.Machine$integer.max, 1L))'",
        &["integer overflow in 'cumsum'; use 'cumsum(as.numeric(.))'"],
    );
    r_json::assert_warns_once(
        "a = 'summary(lm(y ~ x, data = data.frame(x = c(1, 2, 3), y = c(2, 4, 6))))$sigma'",
        &["essentially perfect fit: summary may be unreliable"],
    );
}
