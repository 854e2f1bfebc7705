//! An epidemiologist's case-control and cohort script moved from R: four
//! hundred simulated subjects, age and BMI groups (cut with labels and
//! right = FALSE, findInterval), releveled and dropped factors, 2x2 and
//! stratified tables with margins and proportions, the classical tests
//! (prop.test, chisq.test, fisher.test, mantelhaen, mcnemar, binom,
//! trend, poisson), odds and risk ratios with Wald limits by hand, rates
//! per 1000 person-years, logistic and Poisson regression (predict with
//! se.fit, anova, drop1 of a fit with an offset), a merge, ordering,
//! aggregate and tapply, a report, a bootstrap and a power simulation.
//! The workflow tests/fixtures/workflows/library41.toml runs, and every
//! step must agree with what R computed for the same expression
//! (tests/fixtures/r/library41.R wrote library41.json). What R refuses,
//! flowcast refuses with R's message (library41_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library41_workflow_matches_r() {
    r_json::assert_matches_r("library41");
}

/// Each case of library41_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library41_errors");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(1, 2)",
            "c(a = 1, b = 2)",
            "table(c(1, 2, 2), c(\"a\", \"b\", \"b\"))",
        ],
    ]
    .concat();
    let calls = [
        "addmargins(table(c(1, 2, 2), c(\"a\", \"b\", \"b\")), X)",
        "dimnames(addmargins(table(c(1, 2, 2), c(\"a\", \"b\", \"b\")), X))",
        "names(addmargins(X))",
        "dimnames(addmargins(X))",
        "glm(c(1, 2, 4) ~ c(1, 2, 3), family = X)",
        "drop1(glm(c(1, 2, 4, 3) ~ c(1, 2, 3, 5), offset = X, family = poisson))",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
