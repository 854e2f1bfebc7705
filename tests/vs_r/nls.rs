//! nls: nonlinear least squares by Gauss-Newton, as R's nls() fits it.
//! The workflow tests/fixtures/workflows/nls.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/nls.R wrote nls.json) to 1e-10 relative: the
//! iterations follow R's path (numericDeriv's forward differences,
//! nls_iter's step halving), so estimates, standard errors, convergence
//! tolerances and iteration counts are R's. What R refuses, flowcast
//! refuses with R's message (nls_errors.json).

use crate::common;
use common::r_json;
use common::r_json::assert_warns_once as warns;

/// Every step's JSON against R's.
#[test]
fn nls_workflow_matches_r() {
    r_json::assert_matches_r("nls");
}

/// Each case of nls_errors.json fails, before or during the run, with
/// R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("nls_errors");
}

const DEC: &str = "dec = 'data.frame(t = c(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), y = c(10.2, 7.9, 6.1, 4.9, 3.8, 3.1, 2.4, 1.9, 1.6, 1.2, 1.05))'\n";

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    warns(
        &format!("{DEC}a = 'nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), control = list(maxiter = 2, warnOnly = TRUE))'"),
        &["number of iterations exceeded maximum of 2"],
    );
    warns(
        &format!("{DEC}a = 'nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), lower = 0)'"),
        &["upper and lower bounds ignored unless algorithm = \"port\""],
    );
    // Without start, the parameters found nowhere start at 1.
    warns(
        &format!("{DEC}fit = 'nls(y ~ a * exp(-b * t / 10), data = dec)'"),
        &["No starting values specified for some parameters."],
    );
}

/// What flowcast does not do is refused in words that say so.
#[test]
fn other_algorithms_and_tracing_are_refused() {
    let cases = [
        (
            "a = 'nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), algorithm = \"port\")'",
            "not algorithm = \"port\"",
        ),
        (
            "a = 'nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), trace = TRUE)'",
            "does not print its iterations",
        ),
    ];
    common::assert_refused_saying(DEC, &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "numeric(0)",
        "NA",
        "-1",
        "0",
        "c(NaN, Inf)",
        "1e308",
        "list()",
        "\"a\"",
    ];
    let calls = [
        "nls(y ~ a * exp(-b * t), data = dec, start = X)",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = X, b = 0.1))",
        "nls(y ~ a * exp(-b * X), data = dec, start = list(a = 8, b = 0.1))",
        "nls(X ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1))",
        "nls(y ~ a * exp(-b * t), data = X, start = list(a = 8, b = 0.1))",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), weights = X)",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), subset = X)",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), control = X)",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), control = list(maxiter = X))",
        "nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), algorithm = X)",
        "nls(y ~ b[1] * exp(-b[2] * t), data = dec, start = list(b = X))",
        "nls(~ a * X, start = list(a = 1))",
        "nls.control(maxiter = X, tol = X)",
        "predict(nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1)), newdata = X)",
        "summary(nls(y ~ a * exp(-b * t), data = dec, start = list(a = 8, b = 0.1), subset = X))",
    ];
    common::assert_odd_inputs_do_not_panic(DEC, &calls, &odd);
}
