//! factanal, varimax and promax: factanal.R's maximum-likelihood factor
//! analysis (factanal, factanal.fit.mle with FAfn, FAgr and FAout, and
//! sortLoadings), its uniquenesses found by optim's L-BFGS-B port with
//! FAgr as the gradient, and the varimax and promax rotations (as
//! functions and as factanal's `rotation`). The workflow
//! tests/fixtures/workflows/library25.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library25.R wrote library25.json) to the 1e-10
//! relative tolerance of the other iterative kernels. What R refuses,
//! flowcast refuses with R's message (library25_errors.json).

use crate::common;
use common::r_json;
use common::{flowcast, steps_workflow as workflow, text};

/// Every step's JSON against R's, to 1e-10: loadings, rotation matrices
/// and scores relative to their largest entry.
#[test]
fn library25_workflow_matches_r() {
    r_json::assert_matches_r_scaled("library25", &["loadings", "rotmat", "scores"]);
}

/// Each case of library25_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library25_errors");
}

const X: &str = "X = 'matrix(c(1, 3, 2, 5, 4, 7, 8, 6, 2, 9, 1, 4, 6, 2, 8, 3, 5, 7, 9, 1, 2, 2, 5, 1, 3, 8, 6, 4, 7, 5), 6)'";

/// What flowcast's port does not do is refused saying so, never run as
/// something else.
#[test]
fn flowcast_refusals_say_why() {
    let cases = [
        ("a = 'factanal(~ X, 1)'", "formula method is refused"),
        ("a = 'factanal(X, 1, subset = 1:4)'", "'subset' is refused"),
        (
            "a = 'factanal(X, 1, na.action = \"na.exclude\")'",
            "'na.action' is refused",
        ),
        (
            "a = 'factanal(X, 1, rotation = \"oblimin\")'",
            "rotation \"oblimin\" is refused",
        ),
        (
            "a = 'factanal(X, 1, control = list(nstart = 3))'",
            "nstart > 1",
        ),
        ("a = 'factanal(X, 1, nstart = 2)'", "nstart > 1"),
        (
            "a = 'factanal(X, 1, control = list(trace = TRUE))'",
            "trace = TRUE is refused",
        ),
        (
            "a = 'factanal(X, 1, control = list(rotate = list(m = 3)))'",
            "'rotate' control is refused",
        ),
        (
            "a = 'factanal(X, 1, control = list(opt = list(maxit = 5)))'",
            "'opt' control is refused",
        ),
        ("a = 'factanal(X, 0)'", "'factors' must be at least 1"),
        ("a = 'factanal(X, 1.5)'", "single whole number"),
    ];
    common::assert_refused_saying(&format!("{X}\n"), &cases);
}

/// Odd inputs (NA, a column with no variance, one column, no factors)
/// are errors, never a panic.
#[test]
fn odd_inputs_are_errors() {
    for call in [
        "factanal(cbind(X, c(1, NA, 3, 4, 5, 6)), 1)",
        "factanal(cbind(X, 2), 1)",
        "factanal(X[, 1, drop = FALSE], 1)",
        "factanal(X, 0)",
        "factanal(covmat = diag(c(1, 1, NA, 1)), factors = 1)",
        "factanal(covmat = diag(c(1, 1, 0, 1)), factors = 1)",
        "varimax(cbind(c(1, NA, 3), c(1, 2, 3)))",
        "promax(cbind(c(1, Inf, 3), c(1, 2, 3)))",
        "varimax(cbind(c(0, 1, 2), c(0, 2, 3)))",
    ] {
        let (_dir, path) = workflow(&format!("{X}\na = '{call}'"));
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!out.status.success(), "{call}: {all}");
        assert!(!all.contains("panicked"), "{call}: {all}");
    }
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &["c(1, NA, 3)", "numeric(0)", "c(1, 2)", "matrix(1:6, 3)"],
    ]
    .concat();
    let calls = [
        "factanal(X)",
        "factanal(X, 1)",
        "factanal(X, 1, start = X)",
        "factanal(X, 1, scores = X)",
        "factanal(X, 1, rotation = X)",
        "factanal(X, 1, control = X)",
        "factanal(X, 1, lower = X)",
        "factanal(covmat = X, factors = 1)",
        "factanal(covmat = X, factors = 1, n.obs = 10)",
        "varimax(X)",
        "varimax(m, normalize = X)",
        "varimax(m, eps = X)",
        "promax(X)",
        "promax(m, m = X)",
    ];
    for x in odd {
        for call in calls {
            let steps = format!(
                "m = 'matrix(c(0.8, 0.7, 0.6, 0.2, 0.1, 0.3, 0.2, 0.1, 0.7, 0.8), 5)'\na = '{}'",
                call.replace('X', x)
            );
            let (_dir, path) = workflow(&steps);
            let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
            let all = text(&out.stderr) + &text(&out.stdout);
            assert!(!all.contains("panicked"), "{steps}: {all}");
        }
    }
}
