//! constrOptim, determinant, toeplitz, mvfft, power.anova.test and
//! diffinv: constrOptim.R's logarithmic barrier over flowcast's optim
//! port, determinant's LU (as det's), toeplitz, mvfft over the fft port,
//! power.anova.test's uniroot solves and diffinv's recursion down to
//! intgrt_vec. The workflow
//! tests/fixtures/workflows/library26.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library26.R wrote library26.json) to the 1e-10
//! relative tolerance of the other iterative kernels. What R refuses,
//! flowcast refuses with R's message (library26_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library26_workflow_matches_r() {
    r_json::assert_matches_r("library26");
}

/// Each case of library26_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library26_errors");
}

/// What R accepts and flowcast's port does not is refused naming the
/// argument, never run as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
        (
            "a = 'constrOptim(c(1, 2, 3), function(p) sum(p^2), NULL, ui = diag(3), ci = c(0, 0))'",
            "'ci' whose length does not divide",
        ),
        (
            "a = 'constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), method = \"SANN\")'",
            "\"SANN\"",
        ),
        (
            "a = 'constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), outer.eps = c(1, 2))'",
            "'outer.eps' as one number",
        ),
        ("a = 'toeplitz(list(1, 2))'", "refuses a list 'x'"),
        ("a = 'diffinv(c(\"1\", \"2\"))'", "numeric or logical 'x'"),
        ("a = 'diffinv(list(1, 2))'", "numeric or logical 'x'"),
        ("a = 'diffinv(c(1, 2), lag = c(1, 2))'", "'lag' as one number"),
        (
            "a = 'diffinv(c(1, 2), differences = c(1, 2))'",
            "'differences' as one number",
        ),
        ],
    );
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(1, NA)", "matrix(1:6, 3)", "c(0.5, 0.5)"],
    ]
    .concat();
    let calls = [
        "constrOptim(X, function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0))",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = X, ci = c(0, 0))",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), function(p) X, ui = diag(2), ci = c(0, 0))",
        "constrOptim(c(1, 2), function(p) X, NULL, ui = diag(2), ci = c(0, 0))",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), mu = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), control = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), method = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), outer.iterations = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), outer.eps = X)",
        "constrOptim(c(1, 2), function(p) sum(p^2), NULL, ui = diag(2), ci = c(0, 0), hessian = X)",
        "determinant(X)",
        "determinant(matrix(c(2, 1, 1, 3), 2), logarithm = X)",
        "determinant(matrix(numeric(0), 0, 0), logarithm = X)",
        "toeplitz(X)",
        "mvfft(X)",
        "mvfft(matrix(c(1, 2, 3, 4), 2), inverse = X)",
        "power.anova.test(groups = X, n = 5, between.var = 1, within.var = 3)",
        "power.anova.test(groups = 3, n = X, between.var = 1, within.var = 3)",
        "power.anova.test(groups = 3, n = 5, between.var = X, within.var = 3)",
        "power.anova.test(groups = 3, n = 5, between.var = 1, within.var = X)",
        "power.anova.test(groups = 3, n = 5, between.var = 1, within.var = 3, sig.level = X)",
        "power.anova.test(groups = 3, between.var = 1, within.var = 3, power = X)",
        "power.anova.test(groups = X, between.var = 1, within.var = 3, power = 0.8)",
        "power.anova.test(groups = 3, n = 5, between.var = X, power = 0.8)",
        "power.anova.test(groups = 3, n = 5, within.var = X, power = 0.8)",
        "power.anova.test(groups = 3, n = 5, between.var = 1, within.var = X, power = 0.8, sig.level = NULL)",
        "diffinv(X)",
        "diffinv(c(1, 2, 3), lag = X)",
        "diffinv(c(1, 2, 3), differences = X)",
        "diffinv(c(1, 2, 3), xi = X)",
        "diffinv(matrix(c(1, 2, 3, 4), 2), lag = X)",
        "diffinv(matrix(c(1, 2, 3, 4), 2), xi = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
