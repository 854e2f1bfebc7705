//! glm's further families: Gamma, inverse.gaussian, quasibinomial,
//! quasipoisson and quasi(link, variance), with every link of make.link.
//! The workflow tests/fixtures/workflows/library9.toml runs, and every
//! step must agree with what R computed for the same expression
//! (tests/fixtures/r/library9.R wrote library9.json) to the 1e-10
//! relative tolerance of the other iterative fits (IRLS stops where R's
//! does, but the last bits of a QR solve may differ). What R refuses,
//! flowcast refuses with R's message (library9_errors.json).

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Every step's JSON against R's.
#[test]
fn library9_workflow_matches_r() {
    r_json::assert_matches_r("library9");
}

/// Each case of library9_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library9_errors");
}

use common::r_json::assert_warns_once as warns;

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    // quasibinomial, unlike binomial, takes non-integer successes silently.
    let (_dir, path) =
        workflow("a = 'glm(c(0.2, 0.4, 0.5, 0.9) ~ c(1, 2, 3, 4), family = quasibinomial)'");
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(!all.contains("non-integer"), "{all}");
    warns(
        "a = 'glm(c(0.2, 0.4, 0.5, 0.9) ~ c(1, 2, 3, 4), family = binomial)'",
        &["non-integer #successes in a binomial glm!"],
    );
}

/// The quasi families have no likelihood: AIC and logLik are NA, as R's.
#[test]
fn quasi_families_have_no_aic() {
    let (_dir, path) = workflow(
        "g = 'glm(c(1, 3, 2, 6, 8) ~ c(1, 2, 3, 4, 5), family = quasipoisson)'\n\
         a = 'stopifnot(is.na(AIC(g)), is.na(g$aic), is.na(as.numeric(logLik(g))))'",
    );
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        text(&out.stderr) + &text(&out.stdout)
    );
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
    ];
    let calls = [
        "glm(X ~ c(1, 2), family = Gamma)",
        "glm(c(1, 2, 4) ~ c(1, 2, 3), family = Gamma(link = X))",
        "glm(c(1, 2, 4) ~ c(1, 2, 3), family = inverse.gaussian(link = \"inverse\"), weights = c(1, X, 1))",
        "glm(c(X, 2, 4) ~ c(1, 2, 3), family = quasi(link = \"sqrt\", variance = \"mu^2\"))",
        "glm(c(0, 2, 4) ~ c(1, 2, 3), family = quasi(link = \"log\", variance = X))",
        "glm(c(0, 0.5, X) ~ c(1, 2, 3), family = quasibinomial(link = \"cloglog\"))",
        "glm(c(0, 5, 4) ~ c(1, X, 3), family = quasipoisson(link = \"identity\"))",
        "glm(c(1, 2, 4) ~ c(1, 2, 3), family = inverse.gaussian(link = \"1/mu^2\"), subset = X)",
        "quasi(link = X, variance = \"mu\")",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
