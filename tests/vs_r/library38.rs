//! A regression analysis against R: contrasts given to lm, glm and
//! model.matrix (`contrasts<-` of each `contrasts.arg` entry, a contrast
//! function's name or a matrix, in R's `model.matrix.default`), which
//! predict codes newdata by; offsets in formulas and as an argument
//! (`model.offset`: lm.fit on `y - offset`, glm.fit's `eta = offset + X
//! beta`, the null deviance refitted with the offset as R's glm() does,
//! predict evaluating the offset in newdata); AIC and BIC of several
//! models (AIC.default's table, rows named by the calls' arguments);
//! median's integer type; within.data.frame. The workflow
//! tests/fixtures/workflows/library38.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library38.R wrote library38.json). What R refuses,
//! flowcast refuses with R's message (library38_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library38_workflow_matches_r() {
    r_json::assert_matches_r("library38");
}

/// Each case of library38_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library38_errors");
}

/// The plan knows AIC of several models is a table, and that an offset
/// is no column of the model: `count ~ x + offset(log(e))` has two
/// coefficients.
#[test]
fn shape_is_known_before_the_run() {
    let steps = "d = 'data.frame(x = c(1, 2, 3, 4), e = c(2, 3, 4, 5), count = c(1, 3, 2, 6))'\n\
                 m1 = 'glm(count ~ x + offset(log(e)), family = poisson, data = d)'\n\
                 m2 = 'glm(count ~ 1, family = poisson, data = d)'\n\
                 b = 'coef(m1)'\n\
                 a = 'AIC(m1, m2)'";
    let all = common::checked(steps);
    let typed = |step: &str| {
        all.lines()
            .find(|l| l.split_whitespace().next() == Some(step))
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(typed("a"), "data.frame", "{all}");
    assert_eq!(typed("b"), "num[2]", "{all}");
}

/// drop1 refits model matrices, which hold no offset: where flowcast
/// cannot pass the fit's own offset to the refit (an lm, the Rao score's
/// refit of a glm in drop1 and add1) the fit is refused, never refitted
/// without it. A glm's LRT refit keeps it (library41's drop1 and
/// library48's add1 and anova of Poisson rate models).
#[test]
fn an_offset_is_never_dropped() {
    common::assert_refused_saying(
        "d = 'data.frame(x = c(1, 2, 3, 4), e = c(2, 3, 4, 5), count = c(1, 3, 2, 6))'\n\
         m = 'glm(count ~ x + offset(log(e)), family = poisson, data = d)'\n\
         l = 'lm(count ~ x + offset(log(e)), data = d)'\n",
        &[
            ("a = 'drop1(m, test = \"Rao\")'", "a fit without an offset"),
            ("a = 'drop1(l)'", "a fit without an offset"),
            (
                "a = 'add1(m, ~ . + I(x^2), test = \"Rao\")'",
                "a fit without an offset",
            ),
        ],
    );
}
