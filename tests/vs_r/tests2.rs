//! ansari.test, fligner.test, quade.test, mantelhaen.test, poisson.test,
//! power.t.test, power.prop.test, pbirthday and qbirthday. The workflow
//! tests/fixtures/workflows/tests2.toml runs, and every step must equal
//! what R computed for the same expression (tests/fixtures/r/tests2.R
//! wrote tests2.json) bit for bit: the ports of ansari.c, d2x2xk.c and
//! pnt.c count and sum in R's order (pnt's series in long double, as
//! R's), R's sums are long double, and the roots R finds with uniroot
//! (ansari's and mantelhaen's intervals, the power calculations) are
//! found by the same Brent steps from the same intervals, so they are
//! R's to the last bit too. What R refuses, flowcast refuses with R's
//! message (tests2_errors.json).

use crate::common;
use common::text;
use common::{flowcast, steps_workflow as workflow};

/// Every step's JSON against R's, bit for bit.
#[test]
fn tests2_workflow_matches_r_bit_for_bit() {
    common::r_json::assert_bit_for_bit("tests2");
}

/// Each case of tests2_errors.json fails, before or during the run, with
/// R's message and no panic.
#[test]
fn refusals_are_rs() {
    common::r_json::assert_refusals_are_rs("tests2_errors");
}

use common::r_json::assert_warns_once as warns;

/// The tests warn where R warns, once each.
#[test]
fn warnings_are_rs() {
    warns(
        "a = 'ansari.test(c(1, 2, 2, 3, 5), c(4, 5, 6, 2))'",
        &["cannot compute exact p-value with ties"],
    );
    warns(
        "a = 'ansari.test(c(1.2, 3.4, 0.5, 2.2, 5.1), c(2.0, 2.5, 1.9, 2.8, 3.3, 2.1), conf.int = TRUE)'",
        &["samples differ in location: cannot compute confidence set, returning NA"],
    );
    warns(
        "a = 'ansari.test(c(1.2, 3.4, 0.5, 2.2, 5.1), c(2.0, 2.5, 1.9, 2.8, 3.3, 2.1), conf.int = TRUE, exact = FALSE)'",
        &[
            "samples differ in location: cannot compute confidence set, returning NA",
            "cannot compute estimate, returning NA",
        ],
    );
    warns(
        "a = 'ansari.test(c(1e308, -1, 2), c(1e-10, -3, 4), conf.int = TRUE, exact = FALSE)'",
        &["cannot compute asymptotic confidence set or estimator"],
    );
    warns(
        "a = 'power.prop.test(n = 10, p1 = 0.8, power = 0.9)'",
        &[
            "NaNs produced",
            "No p2 in [p1, 1] can be found to achieve the desired power",
        ],
    );
}

/// Odd shapes and values give a value or an error, never a panic, and
/// memory and time stay bounded.
#[test]
fn odd_inputs_do_not_panic() {
    for expr in [
        "ansari.test(1:200, 2:150, exact = TRUE)",
        "ansari.test(1:3000, 2:2500, exact = TRUE)",
        "ansari.test(c(Inf, -Inf, 1), c(0, 2, NaN), conf.int = TRUE)",
        "ansari.test(c(0, 0, 1), c(0, 2, 3), conf.int = TRUE)",
        "ansari.test(c(0, 0, 1), c(0, 2, 3), conf.int = TRUE, exact = FALSE)",
        "ansari.test(c(1e308, -1e308), c(1e-308, 5e-324), conf.int = TRUE)",
        "ansari.test(c(1e308, -1e308), c(1e-308, 5e-324), conf.int = TRUE, exact = FALSE)",
        "ansari.test(\"a\", 1:3)",
        "ansari.test(list(1, 2), 1:3)",
        "ansari.test(1:3, 4:6, conf.int = NA)",
        "ansari.test(1:3, 4:6, exact = NA)",
        "fligner.test(list(1, \"a\"))",
        "fligner.test(c(Inf, -Inf, 1, 2), c(1, 1, 2, 2))",
        "fligner.test(1:4, list(1, 2, 1, 2))",
        "quade.test(matrix(Inf, 3, 3))",
        "quade.test(matrix(numeric(0), 0, 3))",
        "quade.test(1:4, list(1, 2), 1:2)",
        "quade.test(\"a\")",
        "mantelhaen.test(1:1000, 1:1000, rep(1:2, 500))",
        "mantelhaen.test(c(1, 2, 1, 2), c(1, 2, 2, 1), c(NA, NA, 1, 1))",
        "mantelhaen.test(list(1, 2), 1:2, 1:2)",
        "mantelhaen.test(rep(1:2, 50), rep(1:2, each = 50), rep(1:5, 20), exact = TRUE)",
        "mantelhaen.test(rep(1:2, 4), rep(1:2, each = 4), rep(1:2, each = 2, 2), exact = TRUE)",
        "poisson.test(1e300, 1)",
        "poisson.test(3, 1e300)",
        "poisson.test(3, Inf)",
        "poisson.test(0, 1e-300)",
        "poisson.test(1e15, 1e15, r = 1.0000001)",
        "poisson.test(1, 1e15)",
        "poisson.test(\"a\")",
        "poisson.test(3, conf.level = 5)",
        "poisson.test(c(3, 4), c(Inf, 1))",
        "power.t.test(n = 1e308, delta = 1)",
        "power.t.test(n = 2, delta = 1e-300, power = NULL)",
        "power.t.test(delta = 1e-300, power = 0.999999)",
        "power.t.test(n = NA, delta = 1)",
        "power.t.test(n = numeric(0), delta = 1)",
        "power.t.test(power = 0.9, delta = c(1, 2))",
        "power.t.test(n = 5, delta = NULL, power = 1)",
        "power.t.test(n = 5, sd = NULL, delta = 0, power = 0.5)",
        "power.t.test(n = 5, delta = 1, sig.level = NULL, power = 0.01)",
        "power.t.test(n = 5, delta = 1, tol = -1)",
        "power.prop.test(n = 10, p1 = 2, p2 = NULL, power = 0.5)",
        "power.prop.test(p1 = 0.5, p2 = 0.5, power = 0.9)",
        "power.prop.test(n = 1, p1 = 0.5, p2 = 0.51, power = NULL, sig.level = 0)",
        "power.prop.test(n = 10, p1 = 0.5, p2 = 0.6, sig.level = NULL, power = 0.999)",
        "pbirthday(1e308)",
        "pbirthday(1e9, classes = 1e12)",
        "pbirthday(1e308, classes = 1e308, coincident = 5)",
        "pbirthday(5, classes = 0)",
        "pbirthday(5, classes = Inf)",
        "pbirthday(Inf)",
        "pbirthday(c(1, 2))",
        "qbirthday(0.5, classes = 1e308)",
        "qbirthday(0.999999999, classes = 1e12, coincident = 2)",
        "qbirthday(0.5, classes = 1e10, coincident = 50)",
        "qbirthday(0.5, classes = -5)",
        "qbirthday(0.5, coincident = Inf)",
        "qbirthday(0.5, classes = 0)",
    ] {
        let (_dir, path) = workflow(&format!("a = '{expr}'"));
        let start = std::time::Instant::now();
        let out = flowcast(&["run", "--headless", "--no-cache", path.to_str().unwrap()]);
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(!all.contains("panicked"), "{expr}: {all}");
        assert!(!all.contains("internal error"), "{expr}: {all}");
        assert!(
            start.elapsed().as_secs() < 30,
            "{expr}: took {:?}",
            start.elapsed()
        );
    }
}

/// The new functions are listed, with R's formals.
#[test]
fn functions_are_listed() {
    let out = flowcast(&["functions", "birthday"]);
    assert_eq!(
        text(&out.stdout),
        "- `pbirthday(n, [classes], [coincident])`\n- `qbirthday([prob], [classes], [coincident])`\n"
    );
}
