//! A hydrologist's river-gauge script moved from R: fifteen years of
//! monthly rainfall and flow as ts objects (window, lag, seasonal
//! differences, cbind), smoothed (filter, decompose, stl, HoltWinters,
//! lowess, loess with `data =`), its correlation read (acf, pacf, ccf,
//! Ljung-Box), modelled (arima, ar), summarised by month (tapply on
//! cycle, quantile types 6 and 7, a years-by-months matrix, runmed,
//! embed), its floods studied (annual maxima, ranks, ecdf, Gumbel fits by
//! moments and optim, a bootstrap) and reported as text. The workflow
//! tests/fixtures/workflows/library40.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library40.R wrote library40.json). What R refuses,
//! flowcast refuses with R's message (library40_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library40_workflow_matches_r() {
    r_json::assert_matches_r("library40");
}

/// Each case of library40_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library40_errors");
}

/// Odd values in the arguments this campaign touched (series of odd
/// times and frequencies among them) give a value or an error, never a
/// panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "ts(c(3, 1, 2), start = c(2000, 2), frequency = 4)",
            "ts(1:8, start = 2000.3, frequency = 4)",
            "ts(1:30, start = 1e9, frequency = 12)",
            "ts(1:6, frequency = 0.5)",
            "ts(matrix(1:8, 4), frequency = 2)",
            "c(a = 1, b = 5, c = 2, d = 7)",
        ],
    ]
    .concat();
    let calls = [
        "ccf(X, ts(1:8, frequency = 4), plot = FALSE)$lag",
        "ccf(ts(1:8, start = 2001, frequency = 4), X, plot = FALSE)",
        "acf(X, plot = FALSE)$lag",
        "pacf(X, plot = FALSE)$lag",
        "tsp(diff(X, lag = 2))",
        "tsp(filter(X, c(0.5, 0.5)))",
        "stl(X, \"periodic\", robust = TRUE)$weights",
        "loess(y ~ x, data = data.frame(x = 1:4, y = X))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
