//! A bioinformatician's gene-expression script moved from R: 200 genes by
//! 12 samples of rnbinom counts, log2 with a pseudocount, filtering,
//! per-gene t.test and wilcox.test p-values (apply, sapply and do-all
//! loops over the genes), p.adjust by every method, volcano selections,
//! quantile normalisation, scale, Pearson and Spearman correlations,
//! hclust of as.dist(1 - cor) by several methods with cutree and
//! cophenetic correlations, prcomp, kmeans, fisher.test and phyper
//! enrichment and a text report, with row and column names kept. The
//! workflow tests/fixtures/workflows/library43.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/library43.R wrote library43.json). What R refuses,
//! flowcast refuses with R's message (library43_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library43_workflow_matches_r() {
    r_json::assert_matches_r("library43");
}

/// Each case of library43_errors.json fails with R's message and no panic.
#[test]
fn library43_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library43_errors");
}

/// Odd values as a dissimilarity matrix, as a dist's other operand or as
/// cutree's tree give a value or an error, never a panic.
#[test]
fn library43_odd_inputs_do_not_panic() {
    let calls = [
        "as.dist(X)",
        "hclust(as.dist(X))",
        "1 - as.dist(matrix(c(0, 1, 2, 1, 0, 3, 2, 3, 0), 3)) * X",
        "X^dist(c(1, 4, 9))",
        "cor(dist(c(1, 4, 9, 16)), X)",
        "cutree(hclust(dist(c(1, 4, 9, 16))), k = X)",
        "cutree(X, h = 2)",
        "names(p.adjust(X, method = \"BH\"))",
        "prcomp(X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, common::ODD_VALUES);
}
