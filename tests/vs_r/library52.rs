//! Multivariate linear models: lm of a matrix response (R's "mlm", one
//! QR for every column of y, as lm.fit), with coef, residuals, fitted,
//! deviance, sigma, vcov (R's Kronecker layout), SSD, estVar, summary.mlm
//! (a summary.lm per response), predict.mlm, anova.mlm and anova.mlmlist
//! (Pillai, Wilks, Hotelling-Lawley and Roy), and manova with
//! summary.manova, after R's lm.R, mlm.R and manova.R. The workflow
//! tests/fixtures/workflows/library52.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library52.R wrote library52.json). What R refuses,
//! flowcast refuses with R's message (library52_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library52_workflow_matches_r() {
    r_json::assert_matches_r("library52");
}

/// Each case of library52_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library52_errors");
}

/// What R accepts and flowcast does not do is refused naming it, never
/// run as something else: weights (R's SSD refuses them too), the
/// responses' transformations of anova.mlm, its sphericity test, and
/// accessors that have no mlm method here.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "d = 'data.frame(y1 = c(1, 3, 2, 5, 4, 6), y2 = c(2, 1, 4, 3, 6, 5), x = c(1, 2, 3, 4, 5, 6))'\n\
         f = 'lm(cbind(y1, y2) ~ x, data = d)'\n",
        &[
            (
                "a = 'lm(cbind(y1, y2) ~ x, data = d, weights = x)'",
                "matrix response takes no weights",
            ),
            (
                "a = 'anova(f, X = ~1)'",
                "takes no 'X'",
            ),
            (
                "a = 'anova(f, test = \"Spherical\")'",
                "not \"Spherical\"",
            ),
            (
                "a = 'confint(f)'",
                "does not take an mlm fit",
            ),
            (
                "a = 'predict(f, newdata = data.frame(x = 1), interval = \"confidence\")'",
                "gives no intervals",
            ),
            ("a = 'residuals(f, type = \"partial\")'", "\"partial\""),
        ],
    );
}

/// The plan knows an mlm's shape before the run: the coefficients' p x m
/// matrix and one sigma per response.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "d = 'data.frame(y1 = c(1, 3, 2, 5), y2 = c(2, 1, 4, 3), y3 = c(1, 1, 2, 2), x = c(1, 2, 3, 4))'\n\
                 f = 'lm(cbind(y1, y2, y3) ~ x, data = d)'\n\
                 c = 'coef(f)'\n\
                 s = 'sigma(f)'";
    let all = common::checked(steps);
    assert!(all.contains("mlm"), "{all}");
    assert!(all.contains("mat[2x3]"), "{all}");
    assert!(all.contains("num[3]"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "d = 'data.frame(y1 = c(1, 3, 2, 5, 4, 6), y2 = c(2, 1, 4, 3, 6, 5), x = c(1, 2, 3, 4, 5, 6))'\n\
                  f = 'lm(cbind(y1, y2) ~ x, data = d)'\n";
    let calls = [
        "lm(cbind(X, d$y2) ~ d$x)",
        "anova(f, test = X)",
        "predict(f, newdata = X)",
        "SSD(X)",
        "estVar(X)",
        "manova(cbind(d$y1, X) ~ d$x)",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
