//! constrOptim, determinant, toeplitz and mvfft: constrOptim.R's
//! logarithmic barrier over flowcast's optim port, determinant's LU (as
//! det's), toeplitz and mvfft over the fft port. The workflow
//! tests/fixtures/workflows/library26.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library26.R wrote library26.json) to the 1e-10
//! relative tolerance of the other iterative kernels. What R refuses,
//! flowcast refuses with R's message (library26_errors.json).

use crate::common;
use common::r_json;
use common::{flowcast, steps_workflow as workflow, text};

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
    for (steps, says) in [
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
    ] {
        let (_dir, path) = workflow(steps);
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!out.status.success(), "{steps}: {all}");
        assert!(all.contains(says), "{steps}: {all}");
        assert!(!all.contains("panicked"), "{steps}: {all}");
    }
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
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
