//! update, add1 and step with a scope for lm and glm fits: ports of
//! stats' models.R (update.formula through C's updateform, simplified as
//! terms.formula(simplify = TRUE) writes it; update.default refitting the
//! call on the fit's data) and add.R (add1.lm, add1.glm, add.scope,
//! factor.scope, step's forward and both directions). The workflow
//! tests/fixtures/workflows/library22.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library22.R wrote library22.json) bit for bit: the
//! refits go through the same dqrls and glm.fit ports, on R's columns in
//! R's order. What R refuses, flowcast refuses with R's message
//! (library22_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library22_workflow_matches_r() {
    r_json::assert_bit_for_bit("library22");
}

/// Each case of library22_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library22_errors");
}

const D: &str = "d = 'data.frame(x1 = c(1.2, 2.3, 0.8, 3.1, 2.9, 3.5), x2 = c(0.3, -1.2, 0.8, 0.1, -0.5, 1.4), x3 = c(5.1, 4.2, 6.3, 5.5, 4.9, 5.8), k = c(1, 0, 2, 4, 3, 6), w = c(1, 2, 1, 1, 3, 1))'";

/// R's warning: add1.glm's F test of a poisson fit (worded unlike
/// drop1.glm's).
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        &format!(
            "{D}\np = 'glm(k ~ x1, family = poisson, data = d)'\na = 'add1(p, ~ . + x2, test = \"F\")'"
        ),
        &["F test assumes quasipoisson family"],
    );
}

/// What flowcast's update and step do not do is refused saying so, never
/// run as something else.
#[test]
fn flowcast_refusals_say_why() {
    let cases = [
        (
            "l = 'lm(k ~ x1, data = d)'\na = 'update(l, . ~ . + x2, weights = d$w)'",
            "takes only a new formula",
        ),
        (
            "l = 'lm(k ~ x1, data = d)'\na = 'update(l, . ~ . + x2, evaluate = FALSE)'",
            "evaluate = FALSE",
        ),
        (
            "x = 'c(1, 2, 3, 4)'\ny = 'c(2, 3, 5, 4)'\nl = 'lm(y ~ x)'\na = 'update(l, . ~ . - x)'",
            "keeps none",
        ),
        (
            "l = 'lm(k ~ x1, data = d, subset = x2 > -1)'\na = 'update(l, . ~ . + x3)'",
            "left some",
        ),
        (
            "l = 'aov(k ~ x1, data = d)'\na = 'update(l, . ~ . + x3)'",
            "not aov",
        ),
        (
            "l = 'lm(k ~ x1, data = d)'\na = 'step(l, scope = ~ x1 + x2, keep = function(m, a) a, trace = 0)'",
            "does not take one here",
        ),
        (
            "l = 'lm(k ~ x1, data = d)'\na = 'add1(l, 3)'",
            "takes 'scope' as",
        ),
    ];
    common::assert_refused_saying(&format!("{D}\n"), &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(\"x1\", \"x1\")", "character(0)", "~ .", "~ x2 + x3"],
    ]
    .concat();
    let calls = [
        "update(X, . ~ . + x2)",
        "update(l, X)",
        "add1(X, ~ . + x2)",
        "add1(l, X)",
        "add1(p, X, test = \"Rao\")",
        "add1(l, ~ . + x2, scale = X)",
        "add1(p, ~ . + x2, k = X)",
        "add1(l, ~ . + x2, test = X)",
        "step(l, scope = X, trace = 0)",
        "step(p, scope = list(lower = ~ 1, upper = X), trace = 0)",
        "step(l, scope = ~ x1 + x2 + x3, direction = X, trace = 0)",
        "step(p, scope = ~ x1 + x2 + x3, steps = X, trace = 0)",
    ];
    let before =
        format!("{D}\nl = 'lm(k ~ x1, data = d)'\np = 'glm(k ~ x1, family = poisson, data = d)'\n");
    common::assert_odd_inputs_do_not_panic(&before, &calls, &odd);
}
