//! HoltWinters with two or three free parameters, found as R finds them:
//! HoltWinters.R's `optim(optim.start, error, method = "L-BFGS-B",
//! lower = 0, upper = 1, control = optim.control)` over flowcast's port
//! of optim.c and lbfgsb.c, with R's "optimization failure" and its
//! "optimization difficulties" warning; and `window` of a series (ts.R's
//! window.default: start and end as times or c(year, period), a new
//! frequency or deltat, extend = TRUE padding with NA); and spec.pgram
//! (spectrum.R's periodogram, smoothed by modified Daniell kernels, over
//! R's fft). The workflow
//! tests/fixtures/workflows/library17.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library17.R wrote library17.json) bit for bit: the
//! filter runs where R's optim evaluates it, so the search stops where
//! R's stops. What R refuses, flowcast refuses with R's message
//! (library17_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library17_workflow_matches_r() {
    r_json::assert_bit_for_bit("library17");
}

/// Each case of library17_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library17_errors");
}

/// R's warnings: L-BFGS-B's errors (codes 51 and 52) are only warned of
/// by HoltWinters, optim's warning for an unknown control reaches the
/// caller, and window says which of its arguments it did not honour.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'HoltWinters(ts(50 + cumsum(sin(1:40))), gamma = FALSE, optim.control = list(parscale = c(-1, -1)))'",
        &["optimization difficulties: ERROR: NO FEASIBLE SOLUTION"],
    );
    r_json::assert_warns_once(
        "a = 'HoltWinters(ts(10 + sin(1:48) + (1:48) / 10, frequency = 4), optim.control = list(foo = 3))'",
        &["unknown names in control: foo"],
    );
    r_json::assert_warns_once(
        "a = 'window(ts(1:24, start = c(2000, 1), frequency = 12), start = 1990)'",
        &["'start' value not changed"],
    );
    r_json::assert_warns_once(
        "a = 'window(ts(1:24, start = c(2000, 1), frequency = 12), end = 2010)'",
        &["'end' value not changed"],
    );
    r_json::assert_warns_once(
        "a = 'window(ts(1:24, start = c(2000, 1), frequency = 12), frequency = 5)'",
        &["'frequency' not changed"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "-Inf",
            "1e308",
            "rep(1, 10)",
            "list(alpha = 1, beta = \"a\")",
            "1e9",
            "0.5",
            "c(2000, 1)",
            "ts(1:30, frequency = 4)",
            "ts(c(1:10, NA, 12:30), frequency = 4)",
            "matrix(1:4, 2)",
        ],
    ]
    .concat();
    let calls = [
        "HoltWinters(X)",
        "HoltWinters(X, gamma = FALSE)",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.start = X)",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), beta = FALSE, optim.start = X)",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.control = X)",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.control = list(factr = X))",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.control = list(maxit = X))",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.control = list(parscale = X))",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), optim.control = list(lmm = X))",
        "HoltWinters(ts(sin(1:30) + 5), gamma = FALSE, l.start = X)",
        "HoltWinters(ts(sin(1:30) + 5, frequency = 4), s.start = X)",
        "window(X, 2)",
        "window(ts(1:30, frequency = 4), start = X)",
        "window(ts(1:30, frequency = 4), end = X)",
        "window(ts(1:30, frequency = 4), start = X, extend = TRUE)",
        "window(ts(1:30, frequency = 4), end = X, extend = TRUE)",
        "window(ts(1:30, frequency = 4), frequency = X)",
        "window(ts(1:30, frequency = 4), deltat = X)",
        "window(ts(1:30, frequency = 4), frequency = X, extend = TRUE)",
        "window(ts(1:30, frequency = 4), extend = X)",
        "window(ts(1:30, frequency = 4), ts.eps = X)",
        "spec.pgram(X, plot = FALSE)",
        "spec.pgram(ts(sin(1:30), frequency = 4), spans = X, plot = FALSE)",
        "spec.pgram(sin(1:30), taper = X, plot = FALSE)",
        "spec.pgram(sin(1:30), pad = X, plot = FALSE)",
        "spec.pgram(sin(1:30), fast = X, detrend = X, demean = X, plot = FALSE)",
        "spectrum(sin(1:30), method = X, plot = FALSE)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
