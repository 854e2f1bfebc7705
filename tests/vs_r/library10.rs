//! Grouping as a statistician's workflow reaches for it: `tapply` over a
//! list of two factors (a matrix with dimnames, NA or `default` where a
//! cell has no elements), `tapply` whose FUN gives several values (a
//! list, NULL for an empty cell), and `by` over a data frame by one or
//! two factors, read back with `[[`, `unlist` and `as.list`. The workflow
//! tests/fixtures/workflows/library10.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library10.R wrote library10.json). What R refuses,
//! flowcast refuses with R's message (library10_errors.json); what R
//! answers with a value flowcast has no form for (a
//! list matrix, an array of three dimensions) is refused with a message
//! that says so.

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Every step's JSON against R's.
#[test]
fn library10_workflow_matches_r() {
    r_json::assert_matches_r("library10");
}

/// Each case of library10_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library10_errors");
}

/// R's answers that flowcast has no value for are refused, saying what
/// R would return, whether the rule before the run or the run finds them.
#[test]
fn values_flowcast_lacks_are_refused_by_name() {
    let cases = [
        (
            "a = 'tapply(c(1, 2, 3, 4), list(c(\"a\", \"b\", \"a\", \"b\"), c(\"u\", \"u\", \"v\", \"v\")), range)'",
            "R's answer is a list matrix",
        ),
        (
            "a = 'tapply(c(1, 2, 3), list(c(1, 2, 1), c(1, 1, 2), c(2, 2, 2)), sum)'",
            "3-dimensional array",
        ),
        (
            "d = 'data.frame(x = c(1, 2, 3, 4), g = c(1, 1, 2, 2), h = c(1, 2, 1, 2))'\n\
             a = 'by(d, list(d$g, d$h), function(s) range(s$x))'",
            "R's answer is a list matrix",
        ),
        (
            "a = 'by(matrix(c(1, 2, 3, 4), 2), c(1, 2), nrow)'",
            "by() takes a data frame or a vector",
        ),
    ];
    common::assert_refused_saying("", &cases);
}

/// A `by` of several values per cell keeps R's class; of one value per
/// cell it is the numbers, as tapply's.
#[test]
fn by_values_read_as_rs() {
    let (_dir, path) = workflow(
        "d = 'data.frame(x = c(1, 2, 3, 4, 5), g = c(\"a\", \"b\", \"a\", \"b\", \"a\"))'\n\
         a = 'stopifnot(identical(class(by(d, d$g, function(s) range(s$x))), \"by\"), \
         identical(by(d, d$g, function(s) sum(s$x))[[\"b\"]], 6), \
         identical(unname(unlist(by(d, d$g, function(s) range(s$x)))), c(1, 5, 2, 4)), \
         is.null(tapply(c(1, 2), factor(c(\"p\", \"p\"), levels = c(\"p\", \"q\")), range)[[\"q\"]]))'",
    );
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        text(&out.stderr) + &text(&out.stdout)
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "numeric(0)",
        "NA",
        "list()",
        "list(NULL)",
        "c(NaN, Inf)",
        "factor(character(0))",
        "data.frame(x = 1)",
        "matrix(1:4, 2)",
    ];
    let calls = [
        "tapply(c(1, 2), list(X, c(1, 2)), sum)",
        "tapply(X, list(c(1, 2), c(1, 2)), mean)",
        "tapply(c(1, 2), list(c(1, 2), c(1, 2)), sum, default = X)",
        "tapply(X, X, function(v) v)",
        "tapply(c(1, 2), X)",
        "by(X, c(1, 2), nrow)",
        "by(data.frame(x = c(1, 2)), X, nrow)",
        "by(data.frame(x = c(1, 2)), list(c(1, 2), X), function(s) X)",
        "outer(X, c(1, 2), paste)",
        "outer(c(1, 2), X, function(x, y) X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
