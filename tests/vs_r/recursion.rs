//! Functions that call themselves, as R runs them: by their name or by
//! `Recall`, from function steps and local functions, with defaults and
//! `return()`, from a closure written inside them, given to sapply and
//! mapply by name, reading other steps (and not the locals of the call
//! they are made from), and in a loop step. The workflow
//! tests/fixtures/workflows/recursion.toml runs, and every step must equal
//! R's (tests/fixtures/r/recursion.R wrote recursion.json); what R
//! refuses, flowcast refuses with R's message (recursion_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn recursion_workflow_matches_r() {
    r_json::assert_matches_r("recursion");
}

/// Each case of recursion_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("recursion_errors");
}

/// A recursion that never ends is R's error for infinite recursion at the
/// call, not a stack overflow (R 4.2.2 runs out of C stack first and says
/// so; flowcast counts the nesting). Functions calling each other in a
/// cycle cannot be put in place, and say so; so does Recall in a
/// function written in place, which has no name to call.
#[test]
fn endless_and_cyclic_recursion_are_refused() {
    common::assert_refused_saying(
        "",
        &[
            (
                "f = 'function(n) f(n + 1)'\na = 'f(1)'",
                "evaluation nested too deeply: infinite recursion",
            ),
            ("f = 'function(n) f(n + 1)'\na = 'f(1)'", "w.toml:2:18"),
            (
                "f = 'function(n) if (n > 0) g(n - 1) else 0'\n\
                 g = 'function(n) f(n)'\na = 'f(3)'",
                "`f` → `g` → `f` call each other in a cycle",
            ),
            (
                "a = 'sapply(1:3, function(n) if (n < 2) 1 else Recall(n - 1))'",
                "Recall in a function written in place",
            ),
        ],
    );
}
