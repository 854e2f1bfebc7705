//! A forecaster's script moved from R, finishing the time-series pieces
//! earlier campaigns left: ar by Yule-Walker and Burg (a fixed order and
//! AIC's choice, Burg's second variance) with every field R users read,
//! predict of an ar fit (its own series or newdata, with standard
//! errors), cbind of series as an mts, ts.union and ts.intersect, window,
//! lag and diff of an mts, aggregate of a monthly series to quarters and
//! years, arima with a regressor, a CSS fit's logLik, AIC and BIC, and
//! Box.test with fitdf. The workflow tests/fixtures/workflows/library46.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library46.R wrote library46.json). What R
//! refuses, flowcast refuses with R's message (library46_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library46_workflow_matches_r() {
    r_json::assert_matches_r("library46");
}

/// Each case of library46_errors.json fails with R's message and no panic.
#[test]
fn library46_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library46_errors");
}

/// Odd values as a series, an order or `n.ahead` give a value or an
/// error, never a panic.
#[test]
fn library46_odd_inputs_do_not_panic() {
    let calls = [
        "ar(X, method = \"burg\", order.max = 2, aic = FALSE)",
        "ar(c(3, 5, 4, 6, 8, 7, 9, 11, 10, 12), method = \"burg\", order.max = X)",
        "predict(ar(c(3, 5, 4, 6, 8, 7, 9, 11, 10, 12), order.max = 2, aic = FALSE), n.ahead = X)",
        "predict(ar(c(3, 5, 4, 6, 8, 7, 9, 11, 10, 12), order.max = 2, aic = FALSE), newdata = X)",
        "ts.union(ts(1:5, start = 2000), X)",
        "ts.intersect(ts(1:5, start = 2000), X)",
        "aggregate(ts(1:24, frequency = 12), nfrequency = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
