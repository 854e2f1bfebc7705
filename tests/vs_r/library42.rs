//! A forecaster's ARIMA script moved from R: an AR(2) series and a
//! monthly seasonal series fitted by arima (with and without a mean,
//! differenced, seasonal, by CSS) and read through R's generic functions:
//! residuals, resid, logLik, AIC, BIC (one fit and tables of several) and
//! predict with its standard errors 1 to 12 steps ahead. The workflow
//! tests/fixtures/workflows/library42.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library42.R wrote library42.json). What R refuses,
//! flowcast refuses with R's message (library42_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library42_workflow_matches_r() {
    r_json::assert_matches_r("library42");
}

/// Each case of library42_errors.json fails with R's message and no panic.
#[test]
fn library42_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library42_errors");
}

/// Odd values as a fit's series or as `n.ahead` give a value or an
/// error, never a panic.
#[test]
fn library42_odd_inputs_do_not_panic() {
    let calls = [
        "predict(arima(c(3, 5, 4, 6, 8, 7, 9, 11), order = c(1, 0, 0)), n.ahead = X)",
        "predict(arima(X, order = c(0, 1, 1)), n.ahead = 3)",
        "AIC(arima(X, order = c(1, 0, 0)))",
        "residuals(arima(X, order = c(1, 0, 0), method = \"CSS\"))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
