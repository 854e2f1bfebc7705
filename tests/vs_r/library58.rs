//! A hydrologist's and an energy analyst's structural time series in
//! base R: StructTS's local level, local linear trend and basic
//! structural model fitted by optim's "L-BFGS-B" (the Nile's flow, log10
//! UK gas consumption by quarter, log airline passengers by month, a
//! gauge record with missing years), fixed and started variances, the
//! fits' likelihoods, residuals, filtered states and models, predict and
//! tsSmooth of a fit, and R's Kalman functions (KalmanLike, KalmanRun,
//! KalmanSmooth, KalmanForecast) on StructTS's models and makeARIMA's.
//! The workflow tests/fixtures/workflows/library58.toml runs, and every
//! step must agree with what R computed for the same expression
//! (tests/fixtures/r/library58.R wrote library58.json). What R refuses,
//! flowcast refuses with R's message (library58_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library58_workflow_matches_r() {
    r_json::assert_matches_r("library58");
}

/// Each case of library58_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library58_errors");
}

/// What R accepts and flowcast cannot hold is refused saying why: a
/// `fixed` of the wrong length (R recycles it with a warning),
/// `update = TRUE` (R's "mod" attribute on a list), and a model whose
/// parts do not fit together (R's C reads past them).
#[test]
fn flowcast_refusals_say_why() {
    let x = "x = 'ts(c(5, 7, 6, 8, 9, 8, 10, 12), start = 2001)'\n";
    common::assert_refused_saying(
        x,
        &[
            (
                "a = 'StructTS(x, \"trend\", fixed = c(NA, 1))'",
                "takes a 'fixed' of length 3",
            ),
            (
                "m = 'StructTS(x, \"level\")$model'\na = 'KalmanLike(x, m, update = TRUE)'",
                "takes update = FALSE",
            ),
            (
                "a = 'KalmanRun(x, list(Z = c(1, 0), a = 0, P = matrix(1), T = matrix(1), V = matrix(1), h = 1, Pn = matrix(1)))'",
                "whose 'Z' has length(a) = 1",
            ),
            ("a = 'tsSmooth(x)'", "takes a StructTS fit"),
        ],
    );
}

/// optim's code and message, when it stops short, are R's warning, once.
#[test]
fn convergence_problems_warn_as_r() {
    r_json::assert_warns_once(
        "x = 'ts(c(1120, 1160, 963, 1210, 1160, 1160, 813, 1230, 1370, 1140, 995, 935), start = 1871)'\n\
         f = 'StructTS(x, \"trend\", optim.control = list(maxit = 2))'",
        &["possible convergence problem: 'optim' gave code = 1 and message \u{2018}NEW_X\u{2019}"],
    );
}

/// The plan knows a fit's fields before the run.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "x = 'ts(c(5, 7, 6, 8, 9, 8, 10, 12), start = 2001)'\n\
         f = 'StructTS(x, \"level\")'\n\
         c = 'f$coef'\n\
         k = 'KalmanLike(x, f$model0)$Lik'",
    );
    assert!(all.contains("StructTS"), "{all}");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "x = 'ts(c(5, 7, 6, 8, 9, 8, 10, 12), start = 2001)'\n\
                  m = 'StructTS(x, \"level\")$model'\n";
    let calls = [
        "StructTS(X, \"level\")",
        "StructTS(x, X)",
        "StructTS(x, \"trend\", fixed = X)",
        "KalmanLike(X, m)",
        "KalmanRun(x, X)",
        "KalmanSmooth(x, m, nit = X)",
        "KalmanForecast(X, m)",
        "makeARIMA(X, 0.2, numeric(0))",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
