//! anova() of glm fits: R 4.2's anova.glm (the sequential analysis of
//! deviance, each prefix of terms refitted) and anova.glmlist (nested
//! fits), with stat.anova's Chisq/LRT, F, Rao and Cp tests, across
//! families, links, weights, factors and cbind responses. The workflow
//! tests/fixtures/workflows/anova_glm.toml runs and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/anova_glm.R wrote anova_glm.json) to the 1e-10
//! relative tolerance of the other iterative fits.

use crate::common;
use common::r_json;
use common::r_json::assert_warns_once as warns;

#[test]
fn anova_glm_workflow_matches_r() {
    r_json::assert_matches_r("anova_glm");
}

/// What R refuses (a test stat.anova does not know, a dispersion with no
/// degrees of freedom to estimate it, fits of different sizes, an empty
/// model R cannot fit for the score test), flowcast refuses with R's
/// message (anova_glm_errors.json), and nothing panics.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("anova_glm_errors");
}

const D: &str = "d = 'data.frame(x = c(1.2, 2.3, 0.8, 3.1, 2.9, 3.5), z = c(0.3, -1.2, 0.8, 0.1, -0.5, 1.4), k = c(1, 0, 2, 4, 3, 6), pos = c(1, 2, 3, 2, 4, 3))'";

/// An F test where the dispersion is not estimated, or fits of another
/// response, warn as R does.
#[test]
fn f_test_warnings_are_rs() {
    warns(
        &format!(
            "{D}\np = 'glm(k ~ x + z, family = poisson, data = d)'\na = 'anova(p, test = \"F\")'"
        ),
        &["using F test with a 'poisson' family is inappropriate"],
    );
    warns(
        &format!("{D}\np = 'glm(k ~ x + z, family = poisson, data = d)'\nq = 'glm(k ~ x, family = poisson, data = d)'\na = 'anova(p, q, test = \"F\")'"),
        &["using F test with a 'poisson' family is inappropriate"],
    );
    warns(
        &format!(
            "{D}\ng = 'glm(pos ~ x + z, data = d)'\na = 'anova(g, test = \"F\", dispersion = 2)'"
        ),
        &["using F test with a fixed dispersion is inappropriate"],
    );
    // anova.glmlist keeps the fits of the first one's response.
    warns(
        &format!("{D}\np = 'glm(k ~ x + z, family = poisson, data = d)'\nq = 'glm(pos ~ x, family = Gamma, data = d)'\na = 'anova(p, q)'"),
        &["models with response \u{2018}\"pos\"\u{2019} removed because response differs from model 1"],
    );
}

/// Odd arguments give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "character(0)",
        "NA",
        "-1",
        "0",
        "c(\"F\", \"Chisq\")",
        "\"\"",
    ];
    let calls = [
        "anova(p, test = X)",
        "anova(p, dispersion = X, test = \"F\")",
        "anova(p, q, dispersion = X, test = \"Chisq\")",
        "anova(p, X, test = \"Rao\")",
    ];
    let fits = format!(
        "{D}\np = 'glm(k ~ x + z, family = quasipoisson, data = d)'\nq = 'glm(k ~ x, family = quasipoisson, data = d)'\n"
    );
    common::assert_odd_inputs_do_not_panic(&fits, &calls, &odd);
}

/// anova.lmlist's other tests and scale are not flowcast's: several lm
/// fits with them are refused, not answered with an F test.
#[test]
fn lm_lists_refuse_other_tests() {
    let (_dir, path) = common::steps_workflow(&format!(
        "{D}\nf = 'lm(pos ~ x, data = d)'\ng = 'lm(pos ~ x + z, data = d)'\na = 'anova(f, g, test = \"Chisq\")'"
    ));
    let out = common::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("only test = \"F\""), "{all}");
}
