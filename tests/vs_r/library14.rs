//! loess: R's local polynomial regression, a port of loess.R's loess,
//! simpleLoess and predLoess over loessc.c and the dloess Fortran
//! (loessf.f: the k-d tree, the vertex fits with LINPACK's dqrdc, dqrsl
//! and dsvdc, blending interpolation, the direct fit, the delta
//! approximations, robustness weights and pseudovalues). The workflow
//! tests/fixtures/workflows/library14.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library14.R wrote library14.json) to the 1e-10
//! relative tolerance of the other iterative kernels. The arithmetic
//! follows the Fortran's order, and most values are R's to the bit; the
//! rest part in the last bits or, after the robustness iterations, near
//! the 13th digit. What R refuses, flowcast refuses with R's message
//! (library14_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, to 1e-10.
#[test]
fn library14_workflow_matches_r() {
    r_json::assert_matches_r("library14");
}

/// Each case of library14_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library14_errors");
}

/// R's warnings: both span and enp.target given, and a span so small
/// that a neighbourhood has fewer points than the local model.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "x = '1:20'\na = 'loess(sin(x) ~ x, span = 0.5, enp.target = 4)'",
        &["both 'span' and 'enp.target' specified: 'span' will be used"],
    );
    r_json::assert_warns_once(
        "x = '1:20'\na = 'loess(sin(x) ~ x, span = 0.1)'",
        &["span too small.   fewer data values than degrees of freedom."],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [common::ODD_VALUES, &["1e308", "rep(1, 10)", "1e9"]].concat();
    let calls = [
        "loess(X ~ c(1, 3, 2, 5, 4, 6, 8, 7, 9, 10))",
        "loess(sin(1:10) ~ X)",
        "loess(sin(1:10) ~ c(1:10), weights = X)",
        "loess(sin(1:10) ~ c(1:10), span = X)",
        "loess(sin(1:10) ~ c(1:10), degree = X)",
        "loess(sin(1:10) ~ c(1:10), enp.target = X)",
        "loess(sin(1:10) ~ c(1:10), family = X)",
        "loess(sin(1:10) ~ c(1:10), normalize = X)",
        "loess(sin(1:10) ~ c(1:10), parametric = X)",
        "loess(sin(1:10) ~ c(1:10), drop.square = X)",
        "loess(sin(1:10) ~ c(1:10), surface = X)",
        "loess(sin(1:10) ~ c(1:10), statistics = X)",
        "loess(sin(1:10) ~ c(1:10), trace.hat = X)",
        "loess(sin(1:10) ~ c(1:10), cell = X)",
        "loess(sin(1:10) ~ c(1:10), iterations = X, family = \"symmetric\")",
        "loess(sin(1:10) ~ c(1:10), control = X)",
        "loess(sin(1:10) ~ c(1:10) + cos(1:10), span = X)",
        "loess(sin(1:10) ~ c(1:10) + cos(1:10), normalize = X)",
        "predict(loess(sin(1:10) ~ c(1:10)), X)",
        "predict(loess(sin(1:10) ~ c(1:10)), 1:3, se = X)",
        "predict(loess(sin(1:10) ~ c(1:10), surface = \"direct\"), X, se = TRUE)",
        "loess.control(cell = X)",
        "loess.control(iterations = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
