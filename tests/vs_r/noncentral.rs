//! The non-central t, chi-squared, F and beta distributions: the
//! workflow tests/fixtures/workflows/noncentral.toml runs, and every step
//! must equal what R computed for the same expression
//! (tests/fixtures/r/noncentral.R wrote noncentral.json) bit for bit:
//! p/d/q over grids of both tails and the log scale, `ncp = 0` given
//! (R's non-central routine, not the central one), ncp past pnchisq's
//! switch at 80, df = Inf, NA and NaN, recycling and a matrix, and the
//! draws of rchisq/rt/rf/rbeta with ncp between runif steps that check
//! the stream after them.
//!
//! Known difference: `pchisq(50, 3, ncp = 2, log.p = TRUE)` is
//! -3.945421633965716e-08 here, R's -3.945421633960295e-08 (1.4e-12
//! relative): logl of a long-double probability 4e-8 below 1 magnifies a
//! last-bit difference of that long double (expl is computed on the FPU,
//! not by glibc's routine), so pc_log stops at q = 20.

use crate::common;

#[test]
fn noncentral_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("noncentral");
}

/// A negative ncp is NaN with R's warning, as is a NaN from the
/// generators.
#[test]
fn warnings_are_rs() {
    common::r_json::assert_warns_once("a = 'pchisq(1, 2, ncp = -1)'", &["NaNs produced"]);
    common::r_json::assert_warns_once("a = 'qbeta(0.5, 2, 3, ncp = -1)'", &["NaNs produced"]);
    common::r_json::assert_warns_once("a = 'rchisq(2, 3, ncp = -1)'", &["NAs produced"]);
}
