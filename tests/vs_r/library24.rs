//! influence.measures, ARMAacf, ARMAtoMA and the contr.* contrasts.
//! influence.measures: lm.influence.R's table of dfbetas, dffits,
//! covariance ratios, Cook's distances and hat values of an lm or glm,
//! with `is.influential`'s flags and `abbreviate`'s column names (a port
//! of character.c's stripchars). ARMAacf: ARMAtheory.R's linear system
//! solved by dgesv, continued by filter.c's rfilter (an MA by cfilter),
//! its partial autocorrelations by uni_pacf; ARMAtoMA: arima.c's.
//! contr.treatment, contr.SAS, contr.sum, contr.helmert and contr.poly:
//! contrast.R's (make.poly through dqrdc2 and qr.qy). The workflow
//! tests/fixtures/workflows/library24.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library24.R wrote library24.json) bit for bit. What
//! R refuses, flowcast refuses with R's message (library24_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library24_workflow_matches_r() {
    r_json::assert_bit_for_bit("library24");
}

/// Each case of library24_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library24_errors");
}

/// What flowcast's ports do not do is refused saying so, never run as
/// something else.
#[test]
fn flowcast_refusals_say_why() {
    let cases = [
        // R 4.2.2 crashes here (pacf1 writes past its answer).
        (
            "a = 'ARMAacf(0.5, lag.max = 0, pacf = TRUE)'",
            "lag.max >= 1",
        ),
        ("a = 'ARMAacf(0.5, lag.max = 2.5)'", "whole 'lag.max'"),
        ("a = 'ARMAacf(ma = 0.5, lag.max = -1)'", "lag.max >= 0"),
        ("a = 'ARMAacf(\"a\")'", "numeric 'ar'"),
        (
            "a = 'contr.sum(3, sparse = TRUE)'",
            "sparse = TRUE is refused",
        ),
        ("a = 'contr.treatment(2.5)'", "whole number of levels"),
        ("a = 'contr.treatment(3, base = 1.5)'", "whole 'base'"),
    ];
    common::assert_refused_saying("", &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(1, NA, 3)", "numeric(0)", "c(1, 2)", "matrix(1:6, 3)"],
    ]
    .concat();
    let calls = [
        "influence.measures(X)",
        "influence.measures(f, infl = X)",
        "influence.measures(f, infl = list(hat = X))",
        "influence.measures(f, infl = list(hat = X, sigma = X, wt.res = X, coefficients = X))",
        "ARMAacf(X)",
        "ARMAacf(ma = X)",
        "ARMAacf(0.5, X)",
        "ARMAacf(c(0.5, 0.2), lag.max = X)",
        "ARMAacf(ma = c(0.5, 0.2), lag.max = X)",
        "ARMAacf(c(0.5, 0.2), lag.max = X, pacf = TRUE)",
        "ARMAacf(0.5, pacf = X)",
        "ARMAtoMA(X, 0.3, 5)",
        "ARMAtoMA(0.5, X, 5)",
        "ARMAtoMA(0.5, 0.3, X)",
        "contr.treatment(X)",
        "contr.treatment(3, base = X)",
        "contr.treatment(3, contrasts = X)",
        "contr.SAS(X)",
        "contr.sum(X)",
        "contr.helmert(X)",
        "contr.poly(X)",
        "contr.poly(3, scores = X)",
        "contr.poly(2, scores = X)",
    ];
    common::assert_odd_inputs_do_not_panic(
        "y = 'c(2.1, 3.4, 1.9, 4.2, 5.5, 3.3, 6.1, 4.8)'\nx = 'c(1, 3, 2, 5, 4, 7, 8, 6)'\nf = 'lm(y ~ x)'\n",
        &calls,
        &odd,
    );
}
