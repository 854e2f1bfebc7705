//! Self-starting nonlinear models: every SS model of R's stats (SSasymp,
//! SSasympOff, SSasympOrig, SSbiexp, SSfol, SSfpl, SSgompertz, SSlogis,
//! SSmicmen, SSweibull) on the data set of R's own example for it, typed
//! in from R's datasets: getInitial's start values, the nls fit made
//! without `start` (coefficients, standard errors, residual sum of
//! squares), the models' values and "gradient" attributes, sortedXyData
//! and the NLSst helpers, and nls(..., algorithm = "plinear") fits with
//! and without weights. The workflow tests/fixtures/workflows/library59.toml
//! runs, and every step equals what R computed for the same expression
//! (tests/fixtures/r/library59.R wrote library59.json) to the last bit.
//! What R refuses (too few distinct x values, and the rest), flowcast
//! refuses with R's message (library59_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, bit for bit.
#[test]
fn library59_workflow_matches_r() {
    r_json::assert_bit_for_bit("library59");
}

/// Each case of library59_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library59_errors");
}

/// What flowcast does not do is refused saying what and why.
#[test]
fn flowcast_refusals_say_why() {
    let d = "d = 'data.frame(x = c(1, 2, 3, 4, 5, 6), y = c(1.1, 2.9, 6.2, 8.1, 8.9, 9.2))'\n";
    common::assert_refused_saying(
        d,
        &[
            (
                "a = 'nls(y ~ SSlogis(x, A, m, s), data = d, subset = x > 1)'",
                "takes no 'subset' with a selfStart model and no 'start'",
            ),
            (
                "m = 'nls(y ~ cbind(1, exp(-k * x)), data = d, start = list(k = 0.5), algorithm = \"plinear\")'\n\
                 a = 'predict(m, data.frame(x = 7))'",
                "algorithm = \"plinear\" takes no 'newdata'",
            ),
            (
                "a = 'nls(y ~ SSlogis(x, A, m, s), data = d, algorithm = \"port\")'",
                "not algorithm = \"port\"",
            ),
            (
                "a = 'getInitial(y ~ A * x, data = d)'",
                "no 'getInitial' method found",
            ),
        ],
    );
}

/// Odd values in the new functions' arguments give a value or an error,
/// never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "d = 'data.frame(x = c(1, 2, 3, 4, 5, 6), y = c(1.1, 2.9, 6.2, 8.1, 8.9, 9.2))'\n";
    let calls = [
        "SSlogis(X, 1, 2, 3)",
        "SSfol(X, c(1, 2), 1, 2, 3)",
        "getInitial(y ~ SSlogis(x, A, m, s), data = X)",
        "sortedXyData(X, c(1, 2))",
        "NLSstClosestX(sortedXyData(d$x, d$y), X)",
        "nls(y ~ cbind(1, exp(-k * x)), data = d, start = list(k = X), algorithm = \"plinear\")",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
