//! An analyst pulling pieces out of formulas and fits: model frames of a
//! formula (subset, weights, offsets, NA rows under na.omit and na.pass,
//! unused factor levels kept or dropped) and of lm, glm and aov fits
//! (na.exclude among them), model.response, model.weights, model.offset
//! and model.extract of a frame, weights (prior and working), case.names,
//! variable.names, effects and dummy.coef of fits with aliased and
//! zero-weight cases, family, make.link and glm.control. The workflow
//! tests/fixtures/workflows/library62.toml runs, and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library62.R wrote library62.json). What R refuses,
//! flowcast refuses with R's message (library62_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library62_workflow_matches_r() {
    r_json::assert_matches_r("library62");
}

/// Each case of library62_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library62_errors");
}

/// What R accepts and flowcast cannot hold is refused saying why: a
/// matrix variable in a model frame, the frame of a fit with an offset
/// (whose values the fit does not keep) or made without `data =`.
#[test]
fn flowcast_refusals_say_why() {
    let d = "d = 'data.frame(y = c(5, 6, 7, 8, 6, 9), x = c(1, 2, 3, 4, 5, 6), o = c(1, 2, 1, 2, 1, 2))'\n";
    common::assert_refused_saying(
        d,
        &[
            (
                "a = 'model.frame(y ~ x, data = 3)'",
                "'data' must be a data frame or a named list",
            ),
            (
                "a = 'dummy.coef(lm(y ~ x * o, data = d))'",
                "takes main effects only, not the interaction `x:o`",
            ),
            (
                "a = 'dummy.coef(lm(y ~ log(x), data = d))'",
                "takes numeric terms that are variables, not `log(x)`",
            ),
            (
                "a = 'model.frame(y ~ poly(x, 2), data = d)'",
                "a data frame column of it cannot be a matrix",
            ),
            (
                "m = 'glm(y ~ x + offset(o), family = poisson, data = d)'\na = 'model.frame(m)'",
                "the fit keeps no offset values",
            ),
            (
                "y = 'c(5, 6, 7, 8)'\nx = 'c(1, 2, 3, 5)'\nm = 'lm(y ~ x)'\na = 'model.frame(m)'",
                "needs a fit made with `data =`",
            ),
        ],
    );
}

/// Odd values in the new functions' arguments give a value or an error,
/// never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let before = "d = 'data.frame(y = c(5, 6, 7, 8), x = c(1, 2, 3, 5), f = factor(c(\"a\", \"b\", \"a\", \"b\")))'\n\
                  m = 'lm(y ~ x + f, data = d)'\n\
                  mf = 'model.frame(y ~ x, data = d)'\n";
    let calls = [
        "model.frame(X)",
        "model.frame(y ~ x, data = d, subset = X)",
        "model.frame(y ~ x, data = d, weights = X)",
        "model.response(X)",
        "model.response(mf, X)",
        "model.extract(mf, X)",
        "model.offset(X)",
        "weights(X)",
        "weights(m, X)",
        "case.names(m, X)",
        "variable.names(X)",
        "effects(m, set.sign = X)",
        "family(X)",
        "make.link(X)",
        "glm.control(X)",
        "dummy.coef(X)",
        "dummy.coef(m, use.na = X)",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, common::ODD_VALUES);
}
