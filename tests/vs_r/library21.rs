//! hist (graphics' hist.default over stem.c's C_bincount), pretty
//! (pretty.default over pretty.c's R_pretty) and grDevices' nclass.Sturges,
//! nclass.scott and nclass.FD; besselJ and besselY (nmath's bessel_j.c and
//! bessel_y.c); bw.SJ, bw.ucv and bw.bcv (stats' bandwidths.R over
//! bandwidths.c) and density's bw rules that use them; smoothEnds
//! (runmed.R's). The workflow
//! tests/fixtures/workflows/library21.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library21.R wrote library21.json) bit for bit: the
//! ports do R's arithmetic in R's order. What R refuses, flowcast refuses
//! with R's message (library21_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library21_workflow_matches_r() {
    r_json::assert_bit_for_bit("library21");
}

/// Each case of library21_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library21_errors");
}

/// R's warnings: hist's unused arguments and ignored include.lowest,
/// nmath's Bessel warnings, a cross-validated minimum at an end.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'besselJ(1e6, 1)'",
        &["value out of range in 'J_bessel'"],
    );
    r_json::assert_warns_once(
        "a = 'besselY(-1, 1)'",
        &["value out of range in 'bessel_y'", "NaNs produced"],
    );
    r_json::assert_warns_once(
        "a = 'besselJ(2, 2e7)'",
        &["besselJ(x, nu): nu=2e+07 too large for bessel_j() algorithm"],
    );
    r_json::assert_warns_once(
        "a = 'besselY(0.1, 200)'",
        &["bessel_y(0.1,nu=200): precision lost in result"],
    );
    r_json::assert_warns_once(
        "a = 'bw.ucv(c(2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8, 7.1, 6.0, 3.9))'",
        &["minimum occurred at one end of the range"],
    );
    r_json::assert_warns_once(
        "a = 'hist(c(1, 2, 3), plot = FALSE, main = \"m\")'",
        &["argument \u{2018}main\u{2019} is not made use of"],
    );
    r_json::assert_warns_once(
        "a = 'hist(c(1, 2, 3), include.lowest = FALSE)'",
        &["'include.lowest' ignored as 'breaks' is not a vector"],
    );
    r_json::assert_warns_once(
        "a = 'hist(c(1, 2, 3), breaks = c(0, 4), nclass = 3)'",
        &["'nclass' not used when 'breaks' is specified"],
    );
}

/// What flowcast cannot return is refused, saying why.
#[test]
fn unsupported_is_refused() {
    let cases = [
        (
            "a = 'hist(c(1, 2, 3), breaks = c(0, NA, 4))'",
            "does not take NA",
        ),
        // R's bw_den writes past its counts here.
        (
            "a = 'bw.SJ(c(10, 10.2, 10.7, 11), nb = 8)'",
            "too small for these data",
        ),
    ];
    common::assert_refused_saying("", &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "-Inf",
            "1e308",
            "c(-1e308, 1e308)",
            "rep(1, 10)",
            "1e7",
            "\"FD\"",
        ],
    ]
    .concat();
    let calls = [
        "hist(X)",
        "hist(X, breaks = \"FD\")",
        "hist(X, breaks = \"Scott\")",
        "hist(c(1, 2, 3, 4), breaks = X)",
        "hist(c(1, 2, 3, 4), breaks = c(0, 5), right = X)",
        "hist(c(1, 2, 3, 4), include.lowest = X)",
        "hist(c(1, 2, 3, 4), fuzz = X)",
        "hist(c(1, 2, 3, 4), nclass = X)",
        "hist(c(1, 2, 3, 4), plot = X, main = \"m\")",
        "hist(c(1, 2, 3, 4), freq = X, probability = FALSE)",
        "pretty(X)",
        "pretty(c(1, 2), n = X)",
        "pretty(c(1, 2), min.n = X)",
        "pretty(c(1, 2), shrink.sml = X)",
        "pretty(c(1, 2), high.u.bias = X)",
        "pretty(c(1, 2), u5.bias = X)",
        "pretty(c(1, 2), eps.correct = X)",
        "pretty(c(1, 2), f.min = X)",
        "nclass.Sturges(X)",
        "nclass.scott(X)",
        "nclass.FD(X)",
        "nclass.FD(c(1, 2, 5), digits = X)",
        "besselJ(X, 1)",
        "besselJ(2, X)",
        "besselY(X, 1)",
        "besselY(2, X)",
        "besselJ(X, -2.5)",
        "besselY(X, -2.5)",
        "bw.SJ(X)",
        "bw.SJ(c(1, 2, 4, 8, 9), nb = X)",
        "bw.SJ(c(1, 2, 4, 8, 9), lower = X)",
        "bw.SJ(c(1, 2, 4, 8, 9), upper = X)",
        "bw.SJ(c(1, 2, 4, 8, 9), method = X)",
        "bw.SJ(c(1, 2, 4, 8, 9), tol = X)",
        "bw.SJ(c(-1, 1, 2, 3), nb = X)",
        "bw.ucv(X)",
        "bw.ucv(c(1, 2, 4, 8, 9), nb = X)",
        "bw.ucv(c(1, 2, 4, 8, 9), lower = X)",
        "bw.ucv(c(1, 2, 4, 8, 9), tol = X)",
        "bw.bcv(X)",
        "bw.bcv(c(1, 2, 4, 8, 9), upper = X)",
        "density(X, bw = \"SJ\")",
        "density(X, bw = \"ucv\")",
        "smoothEnds(X)",
        "smoothEnds(X, 5)",
        "smoothEnds(c(1, 2, 3, 4, 5), X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
