//! A statistician's Monte Carlo study moved from R: power of the t and
//! Wilcoxon tests, coverage, bias and MSE of least-squares slopes under t
//! errors, logistic and Poisson fits, proportion tests, a bootstrap and a
//! permutation test, each simulation a do-all loop (iteration k of loop s
//! drawing from set.seed of its documented seed), bodies of one number or
//! several bound into matrices by do.call(rbind, ...) and sapply, a grid
//! of scenarios by expand.grid, then rejection rates, quantiles, apply,
//! replicate, vapply, Map, mapply, arrays, aperm, outer and sprintf
//! tables. The workflow tests/fixtures/workflows/library45.toml runs, and
//! every step must agree with what R computed for the same expression
//! (tests/fixtures/r/library45.R wrote library45.json). What R refuses,
//! flowcast refuses with R's message (library45_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, the loops' random draws included.
#[test]
fn library45_workflow_matches_r() {
    r_json::assert_matches_r("library45");
}

/// Each case of library45_errors.json fails with R's message and no panic.
#[test]
fn library45_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library45_errors");
}

/// `do.call(rbind, ...)` of a named list names the rows, as R's rbind of
/// named arguments does (the names were dropped).
#[test]
fn library45_do_call_keeps_names() {
    let steps = "a = 'do.call(rbind, list(t = 1:2, w = 3:4))'\n\
                 b = 'rownames(a)'\n\
                 c = 'colnames(do.call(cbind, list(x = 1:2, y = 3:4)))'";
    let (_dir, path) = common::steps_workflow(steps);
    let out = tempfile::tempdir().unwrap();
    let run = common::flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        out.path().to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let read = |s: &str| std::fs::read_to_string(out.path().join(format!("{s}.json"))).unwrap();
    assert_eq!(read("b").trim(), r#"["t","w"]"#);
    assert_eq!(read("c").trim(), r#"["x","y"]"#);
}

/// A loop runs over any finite numbers, as R's `for` does; an infinite
/// value is refused before the run, naming the step, not a panic.
#[test]
fn library45_loop_over_fractions() {
    let (_dir, path) = common::steps_workflow(
        "a = { for = \"p in seq(0.25, 1, 0.25)\", do = \"p * 4\" }\nb = 'sum(a)'",
    );
    let out = tempfile::tempdir().unwrap();
    let run = common::flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        out.path().to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let b = std::fs::read_to_string(out.path().join("b.json")).unwrap();
    assert_eq!(b.trim().parse::<f64>().unwrap(), 10.0);
    let (_dir2, bad) = common::steps_workflow("a = { for = \"p in c(1, Inf)\", do = \"p\" }");
    let run = common::flowcast(&["run", "--headless", "--no-cache", bad.to_str().unwrap()]);
    let text =
        String::from_utf8_lossy(&run.stderr).into_owned() + &String::from_utf8_lossy(&run.stdout);
    assert!(!run.status.success());
    assert!(!text.contains("panicked"), "{text}");
    assert!(
        text.contains("loop range must be finite numbers, but it contains Inf"),
        "{text}"
    );
}
