//! A differential sweep of the hypothesis tests against R 4.2.2: NA in
//! the inputs, ties, zeros, samples of one to three, constant data, every
//! `alternative`, `exact`, `correct`, `conf.int` and `conf.level`
//! extremes, `mu`, `paired`, `var.equal`, formula interfaces, count
//! matrices with empty rows and columns, p.adjust's methods with NA,
//! pairwise tests and power calculations. tests/fixtures/workflows/
//! sweep_b.toml runs and every step must equal what R computed for the
//! same expression (tests/fixtures/r/sweep_b.R wrote sweep_b.json) bit for
//! bit; what R refuses, flowcast refuses with R's message
//! (sweep_b_errors.json); where R warns, flowcast warns alike.

use crate::common;
use common::r_json;
use common::r_json::assert_warns_once as warns;

#[test]
fn sweep_b_workflow_matches_r_bit_for_bit() {
    r_json::assert_bit_for_bit("sweep_b");
}

#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("sweep_b_errors");
}

#[test]
fn warnings_are_rs() {
    warns(
        "a = 'fisher.test(matrix(c(3.5, 1, 1, 3), 2))'",
        &["'x' has been rounded to integer: Mean relative difference: 0.1428571"],
    );
    warns(
        "a = 'ks.test(c(0.1, 0.1, 1.2, 0.3), \"pnorm\")'",
        &["ties should not be present for the Kolmogorov-Smirnov test"],
    );
    warns(
        "a = 'ks.test(c(0.1, -0.4, 1.2, 0.3), c(0.1, 2.1, -1.1), exact = FALSE)'",
        &["p-value will be approximate in the presence of ties"],
    );
    warns(
        "a = 'cor.test(c(1, 1, 1, 1), c(2, 1, 4, 3), method = \"kendall\")'",
        &["the standard deviation is zero"],
    );
    warns(
        "a = 'wilcox.test(c(1, 2, 2, 3, 3, -1), exact = TRUE)'",
        &["cannot compute exact p-value with ties"],
    );
    warns(
        "a = 'chisq.test(matrix(c(1, 2, 3, 4), 2))'",
        &["Chi-squared approximation may be incorrect"],
    );
}
