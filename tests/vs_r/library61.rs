//! Autoregressive fits in all of R's methods flowcast has: ar.ols and
//! `ar(method = "ols")` (with and without an intercept or the mean, the
//! order by AIC or fixed, order 0), the generics ar.yw and ar.burg (both
//! variance methods) called by name, forecasts of each fit by predict,
//! acf2AR, and spec.ar of a series (by each method) and of a fit, on
//! LakeHuron, lh, log10(lynx) and sunspot.year. The workflow
//! tests/fixtures/workflows/library61.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library61.R wrote library61.json). What R refuses,
//! flowcast refuses with R's message (library61_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library61_workflow_matches_r() {
    r_json::assert_matches_r("library61");
}

/// Each case of library61_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library61_errors");
}

/// What R computes and flowcast cannot is refused saying why: ar.mle
/// (R fits each order by arima0) and several series at once (R's
/// coefficients are a 3-d array).
#[test]
fn flowcast_refusals_say_why() {
    let m = "m = 'cbind(c(1, 3, 2, 5, 4, 6, 5, 7), c(2, 1, 3, 2, 4, 3, 5, 4))'\n";
    common::assert_refused_saying(
        m,
        &[
            ("a = 'ar.mle(c(1, 3, 2, 5, 4, 6))'", "arima0"),
            (
                "a = 'ar(c(1, 3, 2, 5, 4, 6), method = \"mle\")'",
                "flowcast's ar has no method \"mle\"",
            ),
            ("a = 'ar.ols(m)'", "flowcast's ar.ols takes one series"),
            ("a = 'ar.yw(m)'", "flowcast's ar takes one series"),
            (
                "a = 'spec.ar(m, plot = FALSE)'",
                "flowcast's ar takes one series",
            ),
        ],
    );
}

/// The plan knows the fits' and spectra's fields before the run.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "f = 'ar.ols(c(1, 3, 2, 5, 4, 6, 5, 7), order.max = 2)'\n\
         i = 'f$x.intercept'\n\
         g = 'ar(c(1, 3, 2, 5, 4, 6, 5, 7), method = \"ols\")$asy.se.coef'\n\
         s = 'spec.ar(f, n.freq = 5, plot = FALSE)$freq'\n\
         a = 'acf2AR(c(1, 0.5, 0.1))'",
    );
    assert!(all.contains("ar.ols    -           ar"), "{all}");
    assert!(all.contains("mat[2x2]"), "{all}");
}

/// Odd values in the arguments these functions take give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "x = 'c(1, 3, 2, 5, 4, 6, 5, 7, 6, 8)'\nf = 'ar.ols(x, order.max = 2)'\n";
    let calls = [
        "ar.ols(X)",
        "ar.ols(x, order.max = X)",
        "ar.ols(x, aic = X)",
        "ar.ols(x, intercept = X)",
        "ar.ols(x, demean = X)",
        "ar.yw(x, order.max = X)",
        "ar.burg(x, var.method = X)",
        "acf2AR(X)",
        "spec.ar(X, plot = FALSE)",
        "spec.ar(x, n.freq = X, plot = FALSE)",
        "spec.ar(x, order = X, plot = FALSE)",
        "spec.ar(f, n.freq = X)",
        "predict(f, n.ahead = X)",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
