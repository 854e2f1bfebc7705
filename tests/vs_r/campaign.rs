//! A differential campaign: expressions a statistician writes in workflow
//! steps (sprintf, formatC, format, paste, regmatches and gregexpr, sub;
//! seq, sets, order and rank with ties; table, tapply, aggregate, split;
//! cumulative and rolling statistics; do.call, Reduce, Map, mapply;
//! quantile types 1 to 9; round, signif), and the fixes it led to
//! (`stats::filter`, `is.unsorted`, `zapsmall`). The workflow
//! tests/fixtures/workflows/campaign.toml runs and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/campaign.R wrote campaign.json); what R refuses,
//! flowcast refuses with R's message (campaign_errors.json).

use crate::common;
use common::r_json;

#[test]
fn campaign_workflow_matches_r() {
    r_json::assert_matches_r("campaign");
}

#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("campaign_errors");
}
