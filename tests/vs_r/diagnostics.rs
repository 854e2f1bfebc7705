//! Regression diagnostics against R 4.2.2: hatvalues, rstandard,
//! rstudent, cooks.distance, dffits, dfbeta, dfbetas, covratio,
//! lm.influence, influence and weighted.residuals of lm and glm fits. The
//! workflow tests/fixtures/workflows/diagnostics.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/diagnostics.R wrote diagnostics.json) within
//! r_json's tolerance, names included where a step takes them. What R
//! refuses, flowcast refuses with R's message (diagnostics_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, within r_json's tolerance.
#[test]
fn diagnostics_match_r() {
    r_json::assert_matches_r("diagnostics");
}

/// Each case of diagnostics_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("diagnostics_errors");
}

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'rstandard(glm(c(1, 3, 2, 5, 4) ~ c(1, 2, 3, 4, 5), weights = c(1, 0, 1, 1, 1)))'",
        &["observations with zero weight not used for calculating dispersion"],
    );
}

/// Odd models and arguments give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "NA",
        "1",
        "c(1, 2)",
        "\"a\"",
        "list(1, \"a\")",
        "list(hat = c(0.5, 0.5))",
        "list(hat = 1, sigma = 2, wt.res = 3, coefficients = matrix(1))",
        "data.frame(a = 1:2)",
        "matrix(0, 0, 3)",
        "y ~ x",
        "fit",
        "lm(c(1, 2) ~ 1)",
        "lm(c(1, 2, 3) ~ c(0, 0, 0))",
        "lm(c(1, 2) ~ c(1, 2))",
        "lm(c(1, 2, 3) ~ c(1, 2, 3), weights = c(0, 0, 1))",
        "glm(c(0, 1, 1) ~ c(1, 2, 3), family = binomial)",
    ];
    let calls = [
        "hatvalues(X)",
        "hatvalues(fit, infl = X)",
        "rstandard(X)",
        "rstandard(fit, sd = X)",
        "rstandard(fit, type = X)",
        "rstandard(fit, infl = X)",
        "rstudent(X)",
        "rstudent(fit, res = X)",
        "rstudent(fit, infl = X)",
        "cooks.distance(X)",
        "cooks.distance(fit, hat = X)",
        "cooks.distance(fit, res = X, sd = X)",
        "dffits(X)",
        "dffits(fit, res = X)",
        "dfbeta(X)",
        "dfbeta(fit, infl = X)",
        "dfbetas(X)",
        "dfbetas(fit, infl = X)",
        "covratio(X)",
        "covratio(fit, res = X)",
        "lm.influence(X)",
        "lm.influence(fit, do.coef = X)",
        "influence(X)",
        "weighted.residuals(X)",
        "weighted.residuals(fit, drop0 = X)",
    ];
    common::assert_odd_inputs_do_not_panic(
        "fit = 'lm(c(1, 3, 2, 5) ~ c(1, 2, 3, 4))'\n",
        &calls,
        &odd,
    );
}
