//! Formulas as R's language: `update` of a formula held in a step (as
//! R's update.formula simplifies it), `all.vars`, `all.names`, `deparse`
//! and `deparse1` (of formulas, their parts and plain values, lines broken
//! where R breaks them), a formula's parts (`f[[2]]`, `f[[3]]`,
//! `length(f)`, `as.character(f)`), the tests' formula methods with their
//! data given by position (`t.test(f, d)`), a step named as its formula's
//! variable (`x0 = 'x0 ~ x0'`), and a formula's parentheses kept as R
//! keeps them (`y ~ (x * z)`). The workflow
//! tests/fixtures/workflows/library69.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library69.R wrote library69.json); what R refuses,
//! flowcast refuses with R's message (library69_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library69_workflow_matches_r() {
    r_json::assert_matches_r("library69");
}

/// Each case of library69_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library69_errors");
}

/// What R deparses and flowcast cannot write (a data frame, a complex
/// number) is refused with flowcast's own message, never a wrong text.
#[test]
fn deparse_refuses_what_it_cannot_write() {
    for steps in [
        "d = 'data.frame(a = c(1, 2))'\na = 'deparse(d)'",
        "a = 'deparse(1 + 2i)'",
    ] {
        let (_dir, path) = common::steps_workflow(steps);
        let out = common::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{steps}: {all}");
        assert!(
            all.contains("flowcast's deparse() writes"),
            "{steps}: {all}"
        );
        assert!(!all.contains("panicked"), "{steps}: {all}");
    }
}
