//! extractAIC and drop1 of lm and glm fits: ports of stats' add.R
//! (extractAIC.lm, extractAIC.glm, drop1.lm, drop1.glm, drop.scope and
//! factor.scope's drop half, safe_pchisq, safe_pf). The workflow
//! tests/fixtures/workflows/library19.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library19.R wrote library19.json) bit for bit: drop1
//! refits on the fit's model matrix through the same dqrls and glm.fit
//! ports, in R's order. What R refuses, flowcast refuses with R's message
//! (library19_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library19_workflow_matches_r() {
    r_json::assert_bit_for_bit("library19");
}

/// Each case of library19_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library19_errors");
}

const D: &str = "d = 'data.frame(x1 = c(1.2, 2.3, 0.8, 3.1, 2.9, 3.5), x2 = c(0.3, -1.2, 0.8, 0.1, -0.5, 1.4), k = c(1, 0, 2, 4, 3, 6), b = c(0, 1, 0, 1, 1, 1))'";

/// R's warnings: drop1.glm's F test of a binomial or poisson fit, and
/// check_exact's for a perfect lm fit.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        &format!(
            "{D}\np = 'glm(k ~ x1 + x2, family = poisson, data = d)'\na = 'drop1(p, test = \"F\")'"
        ),
        &["F test assumes 'quasipoisson' family"],
    );
    r_json::assert_warns_once(
        &format!(
            "{D}\np = 'glm(b ~ x1, family = binomial, data = d)'\na = 'drop1(p, test = \"F\")'"
        ),
        &["F test assumes 'quasibinomial' family"],
    );
    r_json::assert_warns_once(
        "a = 'drop1(lm(c(1, 2, 3, 4) ~ c(2, 4, 6, 8)))'",
        &["attempting model selection on an essentially perfect fit is nonsense"],
    );
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(\"x1\", \"x1\")",
            "character(0)",
            "matrix(c(1, NA, 3, 4), 2)",
        ],
    ]
    .concat();
    let calls = [
        "extractAIC(X)",
        "extractAIC(l, scale = X)",
        "extractAIC(p, k = X)",
        "drop1(X)",
        "drop1(l, X)",
        "drop1(p, X)",
        "drop1(l, scale = X)",
        "drop1(p, scale = X, test = \"LRT\")",
        "drop1(l, test = X)",
        "drop1(p, test = X)",
        "drop1(l, k = X, test = \"F\")",
        "drop1(p, k = X, test = \"Rao\")",
        "drop1(l, all.cols = X)",
    ];
    let before = format!(
        "{D}\nl = 'lm(k ~ x1 + x2, data = d)'\np = 'glm(k ~ x1 + x2, family = poisson, data = d)'\n"
    );
    common::assert_odd_inputs_do_not_panic(&before, &calls, &odd);
}

/// A step() scope flowcast does not read (term labels: R's step takes
/// formulas) is refused saying so, never run as something else.
#[test]
fn step_scope_is_refused() {
    let cases = [
        (
            "a = 'step(l, scope = \"x1\")'",
            "takes 'scope' as a formula",
        ),
        (
            "a = 'step(l, direction = \"forward\", scope = c(\"x1\", \"x2\"))'",
            "takes 'scope' as a formula",
        ),
    ];
    let fit = format!("{D}\nl = 'lm(k ~ x1 + x2, data = d)'\n");
    common::assert_refused_saying(&fit, &cases);
}
