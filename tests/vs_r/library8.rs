//! spline, runmed, smooth, boxplot.stats and nextn. The workflow
//! tests/fixtures/workflows/library8.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/library8.R
//! wrote library8.json) bit for bit. What R refuses, flowcast refuses
//! with R's message (library8_errors.json).

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn library8_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("library8");
}

/// Each case of library8_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library8_errors");
}

use common::r_json::assert_warns_once as warns;

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'spline(c(1, 1, 2, 3), c(1, 2, 3, 5))'",
        &["collapsing to unique 'x' values"],
    );
    warns(
        "a = 'spline(c(1, 3), c(2, 5), method = \"periodic\")'",
        &["spline: first and last y values differ - using y[1] for both"],
    );
    warns(
        "a = 'runmed(c(1, 5, 2, 8, 3), 4)'",
        &["'k' must be odd!  Changing 'k' to 5"],
    );
    warns(
        "a = 'runmed(c(1, 5, 2, 8), 7)'",
        &["'k' is bigger than 'n'!  Changing 'k' to 3"],
    );
    warns(
        "a = 'runmed(c(1, 5), 0)'",
        &["'k' must be odd!  Changing 'k' to 1"],
    );
}

/// R's two running-median algorithms agree, and flowcast's ports of both
/// give the same numbers on data with many ties, at each end rule.
#[test]
fn stuetzle_and_turlach_agree() {
    for endrule in ["median", "keep", "constant"] {
        for k in [1, 3, 5, 21, 51] {
            let x = "round(20 * sin(1:200 / 4) + (1:200 %% 7))";
            let steps = format!(
                "s = 'runmed({x}, {k}, endrule = \"{endrule}\", algorithm = \"Stuetzle\")'\n\
                 t = 'runmed({x}, {k}, endrule = \"{endrule}\", algorithm = \"Turlach\")'\n\
                 same = 'stopifnot(identical(s, t))'"
            );
            let (_dir, path) = workflow(&steps);
            let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "k = {k}, {endrule}: {}",
                text(&out.stderr) + &text(&out.stdout)
            );
        }
    }
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "list(1, \"a\")",
        "data.frame(a = 1:2)",
        "factor(c(\"a\", NA))",
        "-1",
        "1e15",
        "matrix(0, 0, 0)",
        "c(NaN, Inf)",
        "c(Inf, -Inf, 1, 2, Inf)",
    ];
    let calls = [
        "spline(X)",
        "spline(X, X)",
        "spline(1:4, c(1, 3, 2, 5), n = X)",
        "spline(1:4, c(1, 3, 2, 5), xout = X)",
        "spline(1:4, c(1, 3, 2, 5), method = X)",
        "spline(X, method = \"periodic\")",
        "spline(X, method = \"natural\")",
        "spline(X, method = \"hyman\")",
        "spline(1:5, c(1, 2, 2, 3, 9), method = \"hyman\", xmin = X)",
        "runmed(X, 3)",
        "runmed(1:9, X)",
        "runmed(X, 3, algorithm = \"Turlach\")",
        "runmed(c(1, NA, 3, NaN, 5), 3, na.action = X)",
        "runmed(c(NA, NA, NA, 2), 3, na.action = \"na.omit\")",
        "runmed(c(1, 2, 3), 3, endrule = X)",
        "smooth(X)",
        "smooth(X, kind = \"3RSR\", twiceit = TRUE)",
        "smooth(c(1, 5, 2), kind = X)",
        "smooth(c(Inf, 1, -Inf, 2, Inf, 7), twiceit = X)",
        "boxplot.stats(X)",
        "boxplot.stats(1:9, coef = X)",
        "boxplot.stats(1:9, do.conf = X)",
        "nextn(X)",
        "nextn(100, X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}
