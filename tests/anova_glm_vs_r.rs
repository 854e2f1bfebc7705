//! anova() of glm fits: R 4.2's anova.glm (the sequential analysis of
//! deviance, each prefix of terms refitted) and anova.glmlist (nested
//! fits), with stat.anova's Chisq/LRT, F, Rao and Cp tests, across
//! families, links, weights, factors and cbind responses. The workflow
//! tests/fixtures/workflows/anova_glm.toml runs and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/anova_glm.R wrote anova_glm.json) to the 1e-10
//! relative tolerance of the other iterative fits.

mod common;
use common::r_json;
use common::r_json::assert_warns_once as warns;

#[test]
fn anova_glm_workflow_matches_r() {
    r_json::assert_matches_r("anova_glm");
}
