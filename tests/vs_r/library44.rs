//! A psychologist's questionnaire and experiment script moved from R: 150
//! respondents answering ten Likert items (three keyed in reverse) in one
//! of three conditions, reverse-scored and summed into scales, with
//! Cronbach's alpha and item-total correlations by hand, correlations
//! with missing answers, factanal with varimax and promax, prcomp, the
//! design cross-tabulated (table, xtabs of two and three factors, ftable,
//! prop.table, addmargins, chisq.test) and the conditions compared (aov,
//! TukeyHSD, pairwise.t.test, kruskal.test, bartlett.test, fligner.test,
//! t.test, Cohen's d), some inside suppressWarnings. The workflow
//! tests/fixtures/workflows/library44.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library44.R wrote library44.json). What R refuses,
//! flowcast refuses with R's message (library44_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's; factanal's loadings are products of
/// eigenvectors, compared relative to their largest entry.
#[test]
fn library44_workflow_matches_r() {
    r_json::assert_matches_r_scaled("library44", &["fa_v_load", "fa_p_load"]);
}

/// Each case of library44_errors.json fails with R's message and no panic.
#[test]
fn library44_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library44_errors");
}

/// Odd values as ftable's table or its row.vars, and inside
/// suppressWarnings, give a value or an error, never a panic.
#[test]
fn library44_odd_inputs_do_not_panic() {
    let calls = [
        "ftable(X)",
        "ftable(table(c(1, 2, 2), c(1, 1, 2), c(3, 3, 4)), row.vars = X)",
        "ftable(table(c(1, 2, 2), c(1, 1, 2), c(3, 3, 4)), col.vars = X)",
        "ftable(table(c(1, 2, 2), c(1, 1, 2), c(3, 3, 4)), row.vars = 1, col.vars = X)",
        "suppressWarnings(X)",
        "xtabs(~ X + X + X)",
        "table(X, X, X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
