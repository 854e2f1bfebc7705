//! Functions that return functions: ecdf, approxfun, splinefun (fmm,
//! natural, periodic, monoH.FC, hyman) and stepfun, whose values a step
//! holds and another step, a statement's variable or a loop body calls
//! (`Fn(q)`, `S(x, deriv = 2)`, `sapply(q, Fn)`), with knots and
//! quantile of an ecdf. The workflow tests/fixtures/workflows/library30.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library30.R wrote library30.json) to 1e-10.
//! What R refuses, flowcast refuses with R's message
//! (library30_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library30_workflow_matches_r() {
    r_json::assert_matches_r("library30");
}

/// Each case of library30_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library30_errors");
}

/// A call of a value that is no function says what the value is, where
/// the call is; `check` finds it before anything runs.
#[test]
fn calling_a_value_that_is_no_function_says_so() {
    common::assert_refused_saying(
        "",
        &[
            (
                "x = 'c(1, 2)'\na = 'x(1)'",
                "could not find function \"x\": `x` holds num[2], not a function",
            ),
            (
                "x = 'c(1, 2)'\na = '{ g <- x; g(1) }'",
                "could not find function \"g\"",
            ),
            ("Fn = 'ecdf(c(1, 2, 3))'\na = 'Fn(1, 2)'", "unused argument"),
            // Not a name: R evaluates it, then cannot apply it.
            ("a = 'c(1, 2)(1)'", "attempt to apply non-function"),
            ("a = 'nofun(1)'", "could not find function `nofun`"),
        ],
    );
}
