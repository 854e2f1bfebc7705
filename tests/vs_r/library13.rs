//! smooth.spline: R's cubic smoothing spline, a port of smspline.R's
//! smooth.spline and predict.smooth.spline(.fit) over sbart.c (the fit,
//! and Brent's golden-section search for spar), sgram.f, stxwx.f,
//! sslvrg.f (GCV, leave-one-out CV, df matching), sinerp.f, bsplvd.f,
//! bvalue.f and LINPACK's dpbfa/dpbsl. The workflow
//! tests/fixtures/workflows/library13.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library13.R wrote library13.json) to the 1e-10
//! relative tolerance of the other iterative kernels, then bit for bit:
//! the port does R's arithmetic in R's order (reference BLAS sums left to
//! right, R's long-double sums), so the search visits R's spar values and
//! stops where R stops. What R refuses, flowcast refuses with R's message
//! (library13_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library13_workflow_matches_r() {
    r_json::assert_bit_for_bit("library13");
}

/// Each case of library13_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library13_errors");
}

/// R's warnings: an invalid df is ignored, cross-validation with tied x
/// is doubted, and an oversmoothing spar falls back to df = 1.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "x = 'seq(0, 1, length.out = 20)'\na = 'smooth.spline(x, sin(5 * x), df = 1)'",
        &["not using invalid df; must have 1 < df <= n := #{unique x} = 20"],
    );
    r_json::assert_warns_once(
        "x = 'rep(seq(0, 1, length.out = 10), 2)'\na = 'smooth.spline(x, sin(5 * x) + x / 3, cv = TRUE)'",
        &["cross-validation with non-unique 'x' values seems doubtful"],
    );
    r_json::assert_warns_once(
        "x = 'seq(0, 1, length.out = 20)'\na = 'smooth.spline(x, sin(5 * x), spar = 3)'",
        &[
            "smoothing parameter value too large",
            "setting df = 1  __use with care!__",
        ],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [common::ODD_VALUES, &["1e308", "rep(1, 10)", "1e9"]].concat();
    let calls = [
        "smooth.spline(X)",
        "smooth.spline(X, 1:10)",
        "smooth.spline(1:10, X)",
        "smooth.spline(1:10, sin(1:10), w = X)",
        "smooth.spline(1:10, sin(1:10), df = X)",
        "smooth.spline(1:10, sin(1:10), spar = X)",
        "smooth.spline(1:10, sin(1:10), lambda = X)",
        "smooth.spline(1:10, sin(1:10), cv = X)",
        "smooth.spline(1:10, sin(1:10), all.knots = X)",
        "smooth.spline(1:10, sin(1:10), nknots = X)",
        "smooth.spline(1:10, sin(1:10), df.offset = X)",
        "smooth.spline(1:10, sin(1:10), penalty = X)",
        "smooth.spline(1:10, sin(1:10), control.spar = list(maxit = X))",
        "smooth.spline(1:10, sin(1:10), tol = X)",
        "smooth.spline(1:10, sin(1:10), keep.stuff = X)",
        "predict(smooth.spline(1:10, sin(1:10)), X)",
        "predict(smooth.spline(1:10, sin(1:10)), 1:3, deriv = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
