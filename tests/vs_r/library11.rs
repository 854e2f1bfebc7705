//! nlm: R's Newton-type minimiser, a port of uncmin.c's optif9 (method 1,
//! line search; forward-difference gradients, central ones after a failed
//! search; the factored secant Hessian of secfac) and of optimize.c's nlm
//! driver, with its table of recent values. The workflow
//! tests/fixtures/workflows/library11.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library11.R wrote library11.json) to the 1e-10
//! relative tolerance of the other iterative kernels, far tighter than the
//! 1e-6 an optimiser's answer is good to: the port evaluates f at R's
//! points in R's order and does R's arithmetic in R's order, so estimates,
//! gradients, codes and iteration counts are R's; only the last bits of
//! a finite difference could part, and they would show here first. What
//! R refuses, flowcast refuses with R's message (library11_errors.json).

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library11_workflow_matches_r() {
    r_json::assert_bit_for_bit("library11");
}

/// Each case of library11_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library11_errors");
}

/// Where f is not finite R warns and reads the largest double; flowcast
/// warns with R's words (R warns twice here: once per point its table of
/// recent values does not hold).
#[test]
fn non_finite_values_warn_as_rs() {
    let (_dir, path) =
        workflow("a = 'nlm(function(x) -sum(log(x)) + sum(x * c(1, 2)), c(0.5, 3))'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("NA/Inf replaced by maximum positive value"),
        "{all}"
    );
}

/// print.level > 0 prints iterations, which a step cannot show: refused,
/// saying so.
#[test]
fn printing_is_refused() {
    let (_dir, path) = workflow("a = 'nlm(function(x) sum(x^2), c(1, 2), print.level = 1)'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("print.level = 0"), "{all}");
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "-1",
        "0",
        "c(NaN, Inf)",
        "1e308",
        "c(1e-300, -1e300)",
        "TRUE",
        "list(1)",
    ];
    let calls = [
        "nlm(function(x) sum((x - 1)^2), X)",
        "nlm(function(x) sum(x^2) + X, c(1, 2))",
        "nlm(function(x) X * sum(x^2), c(1, 2))",
        "nlm(function(x) sum(x^2), c(1, 2), typsize = X)",
        "nlm(function(x) sum(x^2), c(1, 2), fscale = X)",
        "nlm(function(x) sum(x^2), c(1, 2), ndigit = X, hessian = TRUE)",
        "nlm(function(x) sum(x^2), c(1, 2), gradtol = X)",
        "nlm(function(x) sum(x^2), c(1, 2), stepmax = X)",
        "nlm(function(x) sum(x^2), c(1, 2), steptol = X)",
        "nlm(function(x) sum(x^2), c(1, 2), iterlim = X)",
        "nlm(function(x) sum(x^2), c(1, 2), hessian = X)",
        "nlm(function(x) sum(x^2), c(1, 2), print.level = X)",
        "nlm(function(x, a) sum((x - a)^2), c(1, 2), a = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
