//! An applied analysis as a statistician writes it in R: a trial held in a
//! data frame of vectors and factors, summarised by group, modelled with
//! lm and glm (factors, interactions, I(), poly(), subsets, weights,
//! nested anovas, predictions with standard errors, confidence
//! intervals), tested (t, Wilcoxon, chi-squared, Fisher, correlation,
//! Shapiro-Wilk, p.adjust) and reported as text. The workflow
//! tests/fixtures/workflows/library36.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library36.R wrote library36.json). What R refuses,
//! flowcast refuses with R's message (library36_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library36_workflow_matches_r() {
    r_json::assert_matches_r("library36");
}

/// Each case of library36_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library36_errors");
}

/// The plan knows replace's type before the run (a string put in a
/// logical vector makes it character, as `[<-` does); and a table of
/// levels known only at run time may be 2x2, so fisher.test's estimate
/// checks as a number.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "x = 'c(TRUE, FALSE, NA)'\n\
                 a = 'replace(x, 2, \"z\")'\n\
                 f = 'fisher.test(table(c(\"u\", \"v\", \"u\", \"v\"), c(1, 1, 0, 0)))$estimate'";
    let all = common::checked(steps);
    assert!(all.contains("chr["), "{all}");
    assert!(all.contains("num[1]"), "{all}");
}

/// Odd values in every argument of replace give a value or an error,
/// never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "list(1, \"a\")",
            "data.frame(a = c(1, 2))",
            "c(a = 1, b = 2)",
        ],
    ]
    .concat();
    let calls = [
        "replace(X, 1, 0)",
        "replace(c(1, 2, 3), X, 0)",
        "replace(c(1, 2, 3), 2, X)",
        "replace(c(\"a\", \"b\"), c(TRUE, FALSE), X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
