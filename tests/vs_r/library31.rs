//! nlminb: nlminb.R over port.c's driver and Gay's PORT routines (DRMNF
//! and DRMNG without bounds, DRMNFB and DRMNGB with them, DS7GRD's and
//! DS3GRD's finite-difference gradients). The workflow
//! tests/fixtures/workflows/library31.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library31.R wrote library31.json): the same
//! iterations and evaluations, par and objective to 1e-10 relative. What R
//! refuses, flowcast refuses with R's message (library31_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library31_workflow_matches_r() {
    r_json::assert_matches_r("library31");
}

/// Each case of library31_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library31_errors");
}

/// What R accepts and flowcast's port does not is refused naming it,
/// never run as something else.
#[test]
fn flowcast_refusals_say_why() {
    common::assert_refused_saying(
        "",
        &[
            (
                "a = 'nlminb(1, function(p) p^2, function(p) 2 * p, hessian = \"sum\")'",
                "Hessian routines",
            ),
            (
                "a = 'nlminb(1, function(p) p^2, function(p) 2 * p, hessian = function(p) matrix(2, 1, 1))'",
                "`nlminb` does not take one here",
            ),
            ("a = 'nlminb(\"a\", function(p) 1)'", "'start' must be numeric"),
        ],
    );
}

/// An objective that is NA or infinite away from the start is R's +Inf,
/// with R's warning, and the search goes on as R's does.
#[test]
fn na_objective_warns_and_goes_on() {
    let steps = "a = 'nlminb(c(1, 1), function(p) if (p[1] > 3) NA else sum((p - 4)^2))'\n\
                 b = 'a$convergence'";
    let (_dir, path) = common::steps_workflow(steps);
    let out = common::flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{all}");
    assert!(all.contains("NA/NaN function evaluation"), "{all}");
}

/// Odd values in every argument give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "c(1, NA)",
            "c(Inf, 1)",
            "c(2, 1)",
            "list(iter.max = NA)",
            "list(eval.max = -1)",
            "list(rel.tol = NaN)",
            "list(step.max = Inf)",
        ],
    ]
    .concat();
    let calls = [
        "nlminb(X, function(p) sum(p^2))",
        "nlminb(c(1, 2), function(p) X)",
        "nlminb(c(1, 2), function(p) sum(p^2), function(p) X)",
        "nlminb(c(1, 2), function(p) sum(p^2), scale = X)",
        "nlminb(c(1, 2), function(p) sum(p^2), control = X)",
        "nlminb(c(1, 2), function(p) sum(p^2), lower = X)",
        "nlminb(c(1, 2), function(p) sum(p^2), upper = X)",
        "nlminb(c(1, 2), function(p) sum(p^2), lower = X, upper = X)",
        "nlminb(c(1, 2), function(p) sum(p^2), function(p) 2 * p, lower = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}

/// A start too long for PORT's n(n + 27)/2 workspace is refused before
/// the allocation, in R's words.
#[test]
fn huge_start_is_refused_before_allocating() {
    common::assert_refused_saying(
        "",
        &[(
            "a = 'nlminb(numeric(30000), function(p) sum(p^2))'",
            "cannot allocate vector of size",
        )],
    );
}
