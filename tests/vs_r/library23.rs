//! ccf, prop.trend.test, lsfit, line, PP.test and glm.fit: ports of stats' ccf
//! (acf of the intersected pair, over filter.c's acf0),
//! prop.trend.test.R (lm.wfit's Cdqrls and anova.lm's sum of squares),
//! lsfit.R (Cdqrls on the √wt-scaled rows, R's qr object), line.c's
//! Tukey line with `iter`, and PP.test.R (lm's dqrls, summary.lm's
//! chol2inv, PPsum.c's R_pp_sum, approx's table interpolation), and
//! glm.fit on a model matrix through glm's IRLS. The workflow
//! tests/fixtures/workflows/library23.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library23.R wrote library23.json) bit for bit. What
//! R refuses, flowcast refuses with R's message (library23_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library23_workflow_matches_r() {
    r_json::assert_bit_for_bit("library23");
}

/// Each case of library23_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library23_errors");
}

/// R's warnings: lsfit's dropped rows and collinear columns, anova.lm's
/// perfect fit under prop.trend.test.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'lsfit(c(1, 2, NA, 4), c(2, 3, 5, 4))'",
        &["1 missing value deleted"],
    );
    r_json::assert_warns_once(
        "a = 'lsfit(cbind(1:4, 2 * (1:4)), c(2, 3, 5, 4))'",
        &["'X' matrix was collinear"],
    );
    r_json::assert_warns_once(
        "a = 'prop.trend.test(1, 5)'",
        &["ANOVA F-tests on an essentially perfect fit are unreliable"],
    );
}

/// What flowcast's ports do not do is refused saying so, never run as
/// something else.
#[test]
fn flowcast_refusals_say_why() {
    let cases = [
        (
            "a = 'lsfit(1:4, cbind(c(2, 3, 5, 4), c(1, 0, 2, 1)))'",
            "one response",
        ),
        ("a = 'lsfit(1:4, c(2, 3, 5, 4), yname = \"y\")'", "yname"),
        (
            "a = 'ccf(1:5, 1:5, na.action = na.pass, plot = FALSE)'",
            "na.action",
        ),
        (
            "a = 'prop.trend.test(c(1, 2), c(5, 5, 5))'",
            "of one length",
        ),
        ("a = 'PP.test(c(1, 3, NA, 2, 5, 4, 6))'", "without NA"),
        (
            "a = 'glm.fit(cbind(1, 1:4), c(1, 0, 2, 3), start = c(0, 0))'",
            "takes no 'start'",
        ),
        (
            "a = 'glm.fit(cbind(1, 1:4), cbind(1:4, 4:1), family = binomial())'",
            "a vector 'y'",
        ),
    ];
    common::assert_refused_saying("", &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(1, NA, 3)", "numeric(0)", "c(1, 2)", "matrix(1:6, 3)"],
    ]
    .concat();
    let calls = [
        "ccf(X, y, plot = FALSE)",
        "ccf(y, X, plot = FALSE)",
        "ccf(y, y, lag.max = X, plot = FALSE)",
        "ccf(y, y, type = X, plot = FALSE)",
        "prop.trend.test(X, n)",
        "prop.trend.test(k, X)",
        "prop.trend.test(k, n, score = X)",
        "lsfit(X, y)",
        "lsfit(y, X)",
        "lsfit(y, y, wt = X)",
        "lsfit(y, y, intercept = X)",
        "line(X, y)",
        "line(y, X)",
        "line(y, y, iter = X)",
        "line(X)",
        "PP.test(X)",
        "PP.test(y, lshort = X)",
        "glm.fit(X, y)",
        "glm.fit(cbind(1, y), X, family = poisson())",
        "glm.fit(cbind(1, y), y, weights = X)",
        "glm.fit(cbind(1, y), y, family = X)",
        "glm.fit(cbind(1, y), y, intercept = X)",
    ];
    common::assert_odd_inputs_do_not_panic(
        "y = 'c(2.1, 3.4, 1.9, 4.2, 5.5, 3.3, 6.1, 4.8)'\nk = 'c(3, 5, 9, 4)'\nn = 'c(10, 12, 15, 9)'\n",
        &calls,
        &odd,
    );
}
