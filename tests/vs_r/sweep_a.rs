//! A differential sweep against R 4.2 over functions flowcast already had:
//! table's useNA, tabulate and paste of factors, logical matrices (matrix,
//! t, dim, which's arr.ind), nchar's type and keepNA, the names of
//! strsplit, Map and mapply, unique/duplicated's fromLast and
//! incomparables, match's incomparables and factors, ifelse of text,
//! split's recycling, mean of text, factor's exclude = NULL and
//! predict.lm's intervals. The workflow
//! tests/fixtures/workflows/sweep_a.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/sweep_a.R
//! wrote sweep_a.json) bit for bit; predict's intervals
//! (sweep_a_models.toml) agree to rounding. What R refuses, flowcast
//! refuses with R's message (sweep_a_errors.json).

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn sweep_a_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("sweep_a");
}

/// predict.lm's intervals against R's, within r_json's tolerance.
#[test]
fn sweep_a_predict_intervals_match_r() {
    r_json::assert_matches_r("sweep_a_models");
}

/// Each case of sweep_a_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("sweep_a_errors");
}

use common::r_json::assert_warns_once as warns;

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'mean(\"a\")'",
        &["argument is not numeric or logical: returning NA"],
    );
    warns(
        "a = 'split(1:5, c(1, 2))'",
        &["data length is not a multiple of split variable"],
    );
}

/// A prediction interval on the fit's own data warns as R does; of a
/// weighted fit (whose prediction variance R takes from the weights) it is
/// refused, not silently given another meaning.
#[test]
fn predict_interval_without_newdata() {
    warns(
        "d = 'data.frame(x = c(1, 2, 3), y = c(1, 3, 2))'\na = 'predict(lm(y ~ x, data = d), interval = \"prediction\")'",
        &["predictions on current data refer to _future_ responses"],
    );
    let (_dir, path) = workflow(
        "d = 'data.frame(x = c(1, 2, 3), y = c(1, 3, 2), w = c(1, 2, 1))'\na = 'predict(lm(y ~ x, data = d, weights = w), interval = \"prediction\")'",
    );
    let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all = text(&out.stderr) + &text(&out.stdout);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("without 'newdata' of a weighted fit"), "{all}");
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
        "c(NaN, Inf)",
        "matrix(0, 0, 3)",
        "matrix(NA, 2, 2)",
        "matrix(TRUE, 0, 2)",
        "table(c(1, 1))",
        "y ~ x",
        "c(a = 1)",
        "m > 0",
    ];
    let calls = [
        "table(X, useNA = \"always\")",
        "table(c(1, NA), useNA = X)",
        "tabulate(X)",
        "paste(X)",
        "matrix(X, 2)",
        "t(X)",
        "which(X, arr.ind = TRUE)",
        "nchar(X, type = \"bytes\")",
        "nchar(\"a\", type = X)",
        "nchar(\"a\", keepNA = X)",
        "strsplit(X, \"a\")",
        "Map(function(u) u, X)",
        "unique(X, fromLast = TRUE)",
        "unique(c(1, 2), incomparables = X)",
        "duplicated(X, fromLast = X)",
        "match(X, c(1, 2), incomparables = X)",
        "ifelse(X, 1, 2)",
        "split(1:3, X)",
        "mean(X)",
        "factor(X, exclude = NULL)",
        "predict(lm(y ~ x, data = data.frame(x = 1:3, y = c(1, 3, 2))), data.frame(x = 4), interval = X)",
        "predict(lm(y ~ x, data = data.frame(x = 1:3, y = c(1, 3, 2))), data.frame(x = 4), interval = \"confidence\", level = X)",
    ];
    common::assert_odd_inputs_do_not_panic("m = 'matrix(c(1, -2, 3, 4), 2)'\n", &calls, &odd);
}
