//! arima.sim, ls.diag and loglin: arima.sim.R's burn-in and filters over
//! the workflow's random stream (rnorm or the given `rand.gen`), ls.diag's
//! hat values and covariances from lsfit's LINPACK QR, and loglin's
//! iterative proportional fitting (AS 51's loglin, collap and adjust). The
//! workflow tests/fixtures/workflows/library27.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library27.R wrote library27.json) to the 1e-10
//! relative tolerance of the other iterative kernels. What R refuses,
//! flowcast refuses with R's message (library27_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library27_workflow_matches_r() {
    r_json::assert_matches_r("library27");
}

/// Each case of library27_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library27_errors");
}

/// What R accepts and flowcast's port does not is refused naming the
/// argument, never run as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'arima.sim(list(ar = \"a\"), n = 5)'",
                "numeric 'model$ar'",
            ),
            ("a = 'arima.sim(list(ar = 0.5), n = \"a\")'", "numeric 'n'"),
            (
                "a = 'arima.sim(list(ar = 0.5), n = 5, rand.gen = function(n, ...) rep(\"a\", n))'",
                "numbers from 'rand.gen'",
            ),
            (
                "a = 'arima.sim(list(order = c(0, 20000, 0)), n = 5)'",
                "'model$order'",
            ),
            (
                "a = 'arima.sim(list(ar = 0.5), n = 1e9)'",
                "more than 1e8 points",
            ),
            (
                "a = 'ls.diag(list(a = 1))'",
                "an lsfit() result as 'ls.out'",
            ),
            (
                "a = 'ls.diag(lsfit(c(0, 0, 0), c(1, 2, 3), intercept = FALSE))'",
                "rank 1 or more",
            ),
            ("a = 'loglin(\"a\", list(1))'", "'table'"),
            (
                "a = 'loglin(matrix(c(1, 2, 3, 4), 2), list(1), start = \"a\")'",
                "numeric 'start'",
            ),
            (
                "a = 'loglin(matrix(c(1, 2, 3, 4), 2), list(1), fit = \"yes\")'",
                "'fit' as TRUE or FALSE",
            ),
        ],
    );
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(1, NA)",
            "matrix(1:6, 3)",
            "c(0.5, 0.5)",
            "list(ar = NA)",
            "list(ma = c(NaN, 1))",
            "list(order = c(NA, 0, 0))",
            "lsfit(c(1, 2, 3), c(1, NA, 3))",
            "list(c(1, 2), 2)",
            "-0.5",
        ],
    ]
    .concat();
    let calls = [
        "arima.sim(X, n = 5)",
        "arima.sim(list(ar = 0.5), n = X)",
        "arima.sim(list(ar = 0.5), n = 5, n.start = X)",
        "arima.sim(list(ar = 0.5), n = 5, innov = X)",
        "arima.sim(list(ar = 0.5), n = 5, start.innov = X)",
        "arima.sim(list(ar = 0.5), n = 5, rand.gen = function(n, ...) X)",
        "arima.sim(list(ar = X), n = 5)",
        "arima.sim(list(ma = X), n = 5)",
        "arima.sim(list(order = X), n = 5)",
        "arima.sim(list(ar = 0.5), n = 5, sd = X)",
        "ls.diag(X)",
        "ls.diag(lsfit(c(1, 2, 3, 4), c(1, 3, 2, 5), wt = X))",
        "ls.diag(lsfit(X, c(1, 3, 2)))",
        "loglin(X, list(1, 2))",
        "loglin(matrix(c(1, 2, 3, 4), 2), X)",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(X))",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(1, 2), start = X)",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(1, 2), eps = X)",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(1, 2), iter = X)",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(1, 2), param = X)",
        "loglin(matrix(c(1, 2, 3, 4), 2), list(1, 2), fit = X, param = TRUE)",
        "loglin(table(c(1, 1, 2)), X, param = TRUE)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
