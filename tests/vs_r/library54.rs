//! An agronomist's designed field experiments in base R: a randomised
//! complete block trial, a split-plot analysed by its strata's error
//! terms, a Latin square and a factorial, with TukeyHSD, model.tables
//! (means and effects, with their standard errors, as model.tables.aov
//! and se.aov compute them from the fit's projections), replications,
//! pairwise t tests under every p.adjust method, the tests of equal
//! variances and the rank tests (friedman.test's `y ~ groups | blocks`
//! formula among them), contrast matrices and fits under each coding,
//! cell means by tapply and aggregate, a quadratic response by poly()
//! with its predictions, Mitscherlich and logistic curves by nls, power
//! of the next trial, do-all loops of simulated trials, and the report's
//! formatting. The workflow tests/fixtures/workflows/library54.toml runs,
//! and every step must agree with what R computed for the same expression
//! (tests/fixtures/r/library54.R wrote library54.json). What R refuses,
//! flowcast refuses with R's message (library54_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library54_workflow_matches_r() {
    r_json::assert_matches_r("library54");
}

/// Each case of library54_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library54_errors");
}

/// What R accepts and flowcast cannot hold is refused naming the step,
/// its line and column, and why: aov's Error() strata (R's aovlist) and a
/// factor's contrasts attribute (C() and contrasts()).
#[test]
fn flowcast_refusals_say_why() {
    let d = "d = 'data.frame(y = c(5, 6, 7, 8, 6, 9, 4, 7), f = factor(c(\"a\", \"b\", \"a\", \"b\", \"a\", \"b\", \"a\", \"b\")), b = factor(c(1, 1, 2, 2, 3, 3, 4, 4)), x = c(1, 2, 3, 4, 5, 6, 7, 8))'\n";
    common::assert_refused_saying(
        d,
        &[
            (
                "a = 'aov(y ~ f + Error(b), data = d)'",
                "Error() strata (R's multistratum aovlist) are not supported",
            ),
            (
                "a = 'aov(y ~ f + Error(b), data = d)'",
                "w.toml:3:18 (step `a`)",
            ),
            (
                "a = 'lm(y ~ C(f, sum), data = d)'",
                "factors carry no contrasts attribute",
            ),
            (
                "a = 'contrasts(d$f)'",
                "could not find function `contrasts` (factors carry no contrasts attribute",
            ),
            (
                "a = '{ v <- d$f; contrasts(v) <- contr.sum(2); v }'",
                "cannot assign to this with `<-`",
            ),
            (
                "m = 'aov(y ~ f * x, data = d)'\na = 'model.tables(m)'",
                "model.tables needs factor terms: `x` has a variable that is no factor",
            ),
            (
                "m = 'aov(y ~ f, data = d)'\na = 'model.tables(m, cterms = \"f\")'",
                "model.tables' cterms is not supported",
            ),
        ],
    );
}

/// The plan knows a fit's parameters are named before the run, and
/// model.tables and replications are known functions to the check.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "d = 'data.frame(y = c(5, 6, 7, 8), f = factor(c(\"a\", \"b\", \"a\", \"b\")))'\n\
         m = 'aov(y ~ f, data = d)'\n\
         t = 'model.tables(m, \"means\", se = TRUE)'\n\
         r = 'replications(y ~ f, data = d)'",
    );
    assert!(all.contains("model.tables"), "{all}");
}

/// Odd values in the arguments this campaign touched give a value or an
/// error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(\"a\", \"b\")", "factor(c(\"u\", \"v\", \"u\", \"v\"))"],
    ]
    .concat();
    let before = "d = 'data.frame(y = c(5, 6, 7, 8), f = factor(c(\"a\", \"b\", \"a\", \"b\")), g = c(\"p\", \"p\", \"q\", \"q\"))'\n\
                  m = 'aov(y ~ f, data = d)'\n";
    let calls = [
        "model.tables(X)",
        "model.tables(m, X)",
        "model.tables(m, \"means\", se = X)",
        "replications(X)",
        "replications(y ~ f + g, data = X)",
        "replications(~ X)",
        "friedman.test(y ~ f | g, data = X)",
        "friedman.test(X ~ f | g, data = d)",
    ];
    common::assert_odd_inputs_do_not_panic(before, &calls, &odd);
}
