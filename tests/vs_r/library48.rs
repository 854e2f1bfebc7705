//! An applied statistician's vaccine-cohort analysis moved from R: six
//! hundred simulated subjects over four clinics, age groups by cut and
//! findInterval, logistic and probit regression with interactions and
//! relevel, Poisson and quasipoisson rate models with offsets (their
//! sequential anova and add1 refit with the fit's offset, as anova.glm and
//! add1.glm pass `offset = object$offset`), weighted and grouped binomial
//! fits, residuals of every type, predictions with standard errors, Wald
//! limits, the exact tests, quantiles of all nine types, weighted means,
//! ecdf values, format.pval, and do-all loops of bootstrap, simulation and
//! per-clinic fits. The workflow tests/fixtures/workflows/library48.toml
//! runs, and every step must agree with what R computed for the same
//! expression (tests/fixtures/r/library48.R wrote library48.json). What R
//! refuses, flowcast refuses with R's message (library48_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library48_workflow_matches_r() {
    r_json::assert_matches_r("library48");
}

/// Each case of library48_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library48_errors");
}

/// add1's Rao score with an offset is refused, naming the offset, rather
/// than computed from a null deviance R does not use there.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "d = 'data.frame(k = c(2, 0, 5, 3, 1, 4, 6, 2), t = c(10, 12, 9, 14, 8, 11, 13, 7), x = c(1.5, 2.5, 0.5, 3, 2, 1, 2.2, 0.7), z = c(1, 0, 1, 1, 0, 0, 1, 0))'\n\
         m = 'glm(k ~ x + offset(log(t)), family = poisson, data = d)'\n",
        &[(
            "a = 'add1(m, ~ . + z, test = \"Rao\")'",
            "only for a fit without an offset",
        )],
    );
}

/// The plan knows format.pval's value before the run: one string per
/// p-value.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked("a = 'format.pval(c(0.5, 1e-20, 0.03))'");
    assert!(all.contains("chr[3]"), "{all}");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(0.5, NA, 1e-30)", "\"a\"", "c(-1, 2)"],
    ]
    .concat();
    let calls = [
        "format.pval(X)",
        "format.pval(c(0.2, 1e-20), digits = X)",
        "format.pval(c(0.2, 1e-20), eps = X)",
        "format.pval(c(0.2, NA), na.form = X)",
        "anova(glm(c(2, 0, 5, 3, 4) ~ c(1, 2, 3, 5, 4), offset = X, family = poisson), test = \"Rao\")",
        "add1(glm(c(2, 0, 5, 3, 4) ~ c(1, 2, 3, 5, 4), offset = X, family = poisson), ~ . + c(1, 0, 1, 1, 0))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
