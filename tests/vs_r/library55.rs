//! A field ecologist's survey with gaps in base R: complete.cases over
//! several arguments; na.omit, na.exclude, na.fail and na.pass of
//! vectors, a matrix and a data frame, with the na.action attribute
//! (nafns.R's na.omit.default, whose matrix rows are listed in the order
//! their NAs come); lm, glm and aov under na.omit and na.exclude, whose
//! residuals, fitted values, predictions (with se.fit and intervals) and
//! influence measures are padded back to every row as naresid.exclude and
//! lm.influence pad them (NA, or 0 leverage and 0 coefficient change);
//! naresid, napredict and na.action; aggregate with na.action = na.pass;
//! xtabs with addNA and na.action as R 4.2.2's xtabs builds its model
//! frame; addNA with ifany; and two do-all loops. The workflow
//! tests/fixtures/workflows/library55.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library55.R wrote library55.json). What R refuses,
//! flowcast refuses with R's message (library55_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library55_workflow_matches_r() {
    r_json::assert_matches_r("library55");
}

/// Each case of library55_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library55_errors");
}

/// What R answers and flowcast cannot hold is refused naming the step and
/// why: a data frame's na.action attribute (flowcast's data frames hold no
/// attributes), influence.measures of an excluded fit, an na.action R's
/// model.frame would call but flowcast does not know, and aggregate's
/// data-frame method given one.
#[test]
fn flowcast_refusals_say_why() {
    let d = "d = 'data.frame(y = c(5, 6, NA, 8, 7, 9), x = c(1, 2, 3, NA, 5, 6))'\n";
    common::assert_refused_saying(
        d,
        &[
            (
                "a = 'na.action(na.omit(d))'",
                "flowcast's data frames hold no na.action attribute",
            ),
            ("a = 'na.action(na.omit(d))'", "w.toml:3:6 (step `a`)"),
            (
                "m = 'lm(y ~ x, data = d, na.action = na.exclude)'\na = 'influence.measures(m)'",
                "does not take a fit made with na.action = na.exclude",
            ),
            (
                "a = 'lm(y ~ x, data = d, na.action = \"na.contiguous\")'",
                "could not find function \"na.contiguous\"",
            ),
            (
                "a = 'lm(y ~ x, data = d, na.action = \"mean\")'",
                "flowcast's na.action is one of na.omit, na.exclude, na.fail and na.pass, not mean",
            ),
            (
                "a = 'aggregate(d, list(g = c(1, 1, 2, 2, 3, 3)), mean, na.action = na.pass)'",
                "takes na.action only with a formula",
            ),
        ],
    );
}

/// The plan knows the new functions before the run.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "f = 'factor(c(\"a\", NA, \"b\"))'\n\
         g = 'addNA(f)'\n\
         x = 'c(1, NA, 3)'\n\
         e = 'na.exclude(x)'\n\
         p = 'na.pass(x)'\n\
         r = 'naresid(attr(e, \"na.action\"), c(5, 6))'",
    );
    assert!(all.contains("addNA"), "{all}");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "d = 'data.frame(y = c(5, 6, NA, 8), x = c(1, NA, 3, 4), g = factor(c(\"a\", \"b\", NA, \"b\")))'\n\
                  m = 'lm(y ~ x, data = d, na.action = na.exclude)'\n";
    let calls = ["lm(y ~ x, data = d, na.action = X)"];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
