//! optim's method "L-BFGS-B": a port of R's src/appl/lbfgsb.c (L-BFGS-B
//! 2.3: setulb, mainlb, cauchy, subsm, formk, dcsrch, ... with LINPACK's
//! dpofa and dtrsl and reference BLAS's sums) under optim.c's lbfgsb
//! driver and fmingr's bounded differences. The workflow
//! tests/fixtures/workflows/library16.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library16.R wrote library16.json) bit for bit: the
//! port does R's arithmetic in R's order, so it evaluates fn where R does,
//! stops where R stops, with R's counts and message. What R refuses,
//! flowcast refuses with R's message (library16_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library16_workflow_matches_r() {
    r_json::assert_bit_for_bit("library16");
}

/// Each case of library16_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library16_errors");
}

/// R's warnings: bounds switch another method to L-BFGS-B, and L-BFGS-B
/// ignores reltol and abstol.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'optim(c(3, 3), function(p) sum((p - 1)^2), lower = 1.5)'",
        &["bounds can only be used with method L-BFGS-B (or Brent)"],
    );
    r_json::assert_warns_once(
        "a = 'optim(c(3, 3), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(reltol = 1e-4))'",
        &["method L-BFGS-B uses 'factr' (and 'pgtol') instead of 'reltol' and 'abstol'"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [common::ODD_VALUES, &["-Inf", "1e308", "rep(1, 10)", "1e9"]].concat();
    let calls = [
        "optim(X, function(p) sum((p - 1)^2), method = \"L-BFGS-B\")",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", lower = X)",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", upper = X)",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", lower = X, upper = X)",
        "optim(c(1, 2), function(p) sum((p - X)^2), method = \"L-BFGS-B\", lower = 0, upper = 3)",
        "optim(c(1, 2), function(p) sum((p - 1)^2), function(p) X, method = \"L-BFGS-B\", lower = 0)",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(lmm = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(factr = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(pgtol = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(maxit = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(REPORT = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(ndeps = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(parscale = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), method = \"L-BFGS-B\", control = list(fnscale = X))",
        "optim(c(1, 2), function(p) sum((p - 1)^2), lower = X, hessian = TRUE)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
