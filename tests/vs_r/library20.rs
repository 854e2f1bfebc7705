//! splineDesign, bs and ns: ports of the splines package's splines.R
//! over splines.c's spline_basis (set_cursor, diff_table, basis_funcs,
//! evaluate), alone and as terms of lm and glm formulas, with predict at
//! the fit's knots (R's makepredictcall). The workflow
//! tests/fixtures/workflows/library20.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library20.R wrote library20.json) bit for bit: the
//! ports do R's arithmetic in R's order. What R refuses, flowcast refuses
//! with R's message (library20_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library20_workflow_matches_r() {
    r_json::assert_bit_for_bit("library20");
}

/// Each case of library20_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library20_errors");
}

/// R's warnings: x beyond the boundary knots, a df too small.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'bs(c(1, 2, 3, 4, 5, 6), df = 4, Boundary.knots = c(2, 5))'",
        &["some 'x' values beyond boundary knots may cause ill-conditioned bases"],
    );
    r_json::assert_warns_once(
        "a = 'bs(c(1, 2, 3, 4, 5, 6), df = 1)'",
        &["'df' was too small; have used 3"],
    );
    r_json::assert_warns_once(
        "a = 'ns(c(1, 2, 3, 4, 5, 6), df = 1, intercept = TRUE)'",
        &["'df' was too small; have used 2"],
    );
}

/// What flowcast cannot return is refused, saying why.
#[test]
fn unsupported_is_refused() {
    let cases = [
        (
            "a = 'splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), 4.5, sparse = TRUE)'",
            "Matrix package",
        ),
        (
            "a = 'splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), c(0, NA, 4), outer.ok = TRUE)'",
            "cannot take NA",
        ),
        // Knots the fit could not fix are not rebuilt from newdata.
        (
            "x = 'c(1.2, 3.4, 2.2, 5.1, 2.5, 6.1, 4.4, 7.3, 1.1, 8.8)'\n\
             f = 'lm(x ~ bs(x + 0 * runif(10), df = 4))'\n\
             a = 'predict(f, data.frame(x = c(2, 3)))'",
            "cannot rebuild `bs(x + 0 * runif(10), df = 4)` in newdata at the fit's knots",
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
            "rep(1, 10)",
            "c(3, 1, 2, 1)",
            "matrix(c(1, NA, 3, 4), 2)",
        ],
    ]
    .concat();
    let calls = [
        "splineDesign(X, c(4, 5))",
        "splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), X)",
        "splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), X, outer.ok = TRUE)",
        "splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), 4.5, ord = X)",
        "splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), c(4.5, 5), derivs = X)",
        "splineDesign(c(1, 2, 3, 4, 5, 6, 7, 8), c(0, 4.5), outer.ok = X)",
        "splineDesign(c(1, 1, 1, 1), c(0, 1, 2), ord = 2, outer.ok = TRUE)",
        "bs(X)",
        "bs(X, df = 5)",
        "bs(c(1, 2, 3, 4, 5, 6), df = X)",
        "bs(c(1, 2, 3, 4, 5, 6), knots = X)",
        "bs(c(1, 2, 3, 4, 5, 6), degree = X)",
        "bs(c(1, 2, 3, 4, 5, 6), intercept = X)",
        "bs(c(1, 2, 3, 4, 5, 6), Boundary.knots = X)",
        "ns(X)",
        "ns(X, df = 4)",
        "ns(c(1, 2, 3, 4, 5, 6), df = X)",
        "ns(c(1, 2, 3, 4, 5, 6), knots = X)",
        "ns(c(1, 2, 3, 4, 5, 6), intercept = X)",
        "ns(c(1, 2, 3, 4, 5, 6), Boundary.knots = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
