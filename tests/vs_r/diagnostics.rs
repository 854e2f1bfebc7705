//! Regression diagnostics against R 4.2.2: hatvalues, rstandard,
//! rstudent, cooks.distance, dffits, dfbeta, dfbetas, covratio,
//! lm.influence, influence and weighted.residuals of lm and glm fits. The
//! workflow tests/fixtures/workflows/diagnostics.toml runs, and every step
//! must agree with what R computed for the same expression
//! (tests/fixtures/r/diagnostics.R wrote diagnostics.json) within
//! r_json's tolerance, names included where a step takes them. What R
//! refuses, flowcast refuses with R's message (diagnostics_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, within r_json's tolerance.
#[test]
fn diagnostics_match_r() {
    r_json::assert_matches_r("diagnostics");
}

/// Each case of diagnostics_errors.json fails, before or during the run,
/// with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("diagnostics_errors");
}

/// Where R warns, flowcast warns once with R's words.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'rstandard(glm(c(1, 3, 2, 5, 4) ~ c(1, 2, 3, 4, 5), weights = c(1, 0, 1, 1, 1)))'",
        &["observations with zero weight not used for calculating dispersion"],
    );
}

/// Odd models and arguments give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        "NULL",
        "NA",
        "1",
        "c(1, 2)",
        "\"a\"",
        "list(1, \"a\")",
        "list(hat = c(0.5, 0.5))",
        "list(hat = 1, sigma = 2, wt.res = 3, coefficients = matrix(1))",
        "data.frame(a = 1:2)",
        "matrix(0, 0, 3)",
        "y ~ x",
        "fit",
        "lm(c(1, 2) ~ 1)",
        "lm(c(1, 2, 3) ~ c(0, 0, 0))",
        "lm(c(1, 2) ~ c(1, 2))",
        "lm(c(1, 2, 3) ~ c(1, 2, 3), weights = c(0, 0, 1))",
        "glm(c(0, 1, 1) ~ c(1, 2, 3), family = binomial)",
    ];
    let calls = [
        "hatvalues(X)",
        "hatvalues(fit, infl = X)",
        "rstandard(X)",
        "rstandard(fit, sd = X)",
        "rstandard(fit, type = X)",
        "rstandard(fit, infl = X)",
        "rstudent(X)",
        "rstudent(fit, res = X)",
        "rstudent(fit, infl = X)",
        "cooks.distance(X)",
        "cooks.distance(fit, hat = X)",
        "cooks.distance(fit, res = X, sd = X)",
        "dffits(X)",
        "dffits(fit, res = X)",
        "dfbeta(X)",
        "dfbeta(fit, infl = X)",
        "dfbetas(X)",
        "dfbetas(fit, infl = X)",
        "covratio(X)",
        "covratio(fit, res = X)",
        "lm.influence(X)",
        "lm.influence(fit, do.coef = X)",
        "influence(X)",
        "weighted.residuals(X)",
        "weighted.residuals(fit, drop0 = X)",
    ];
    common::assert_odd_inputs_do_not_panic(
        "fit = 'lm(c(1, 3, 2, 5) ~ c(1, 2, 3, 4))'\n",
        &calls,
        &odd,
    );
}

/// dfbetas scales by R's own (X'X)^-1, LAPACK's dpotri as La_chol2inv
/// runs it: R's numbers to the last bit (10 of these 36 differed by an ulp
/// through a hand-written inverse).
#[test]
fn dfbetas_are_rs_to_the_bit() {
    // R 4.2.2: x, z, y as below;
    // cat(sprintf("%.17g", as.vector(dfbetas(lm(y ~ x + z)))), sep = "\n")
    const R: [f64; 36] = [
        0.58829799189708132,
        0.1020328919133016,
        -0.54696960838702946,
        0.015424898343700522,
        -0.48668417505774875,
        -0.095346472085990383,
        0.014771717212840586,
        -0.025213943710887927,
        0.1024322932359982,
        0.43378018354568054,
        0.019845616400528114,
        0.087419320700257347,
        -0.40982088488849727,
        -0.11429673451918654,
        0.21159671186810028,
        -0.066389615136180052,
        0.11852993814828716,
        -0.16292798234805866,
        0.0059701677535719663,
        0.037455202147559964,
        -0.26351097456901712,
        1.3623357879966882,
        -0.022386420379628492,
        -0.2287144484601398,
        -0.23839100389144532,
        0.029807515116436811,
        0.39950549731514778,
        0.095574416573027898,
        0.26154166138580409,
        0.52001954190087396,
        -0.017593327286630163,
        0.04670747751341553,
        -0.069930550142578735,
        -1.6333546027738663,
        -0.014848153634077857,
        0.055546856429384298,
    ];
    let (dir, path) = common::steps_workflow(
        "x = \"c(1.3, 2.1, 3.7, 4.2, 5.9, 6.1, 7.4, 8.8, 9.5, 10.2, 11.7, 12.3)\"
z = \"c(0.5, 1.7, 0.2, 2.9, 1.1, 3.3, 0.8, 2.2, 1.9, 0.4, 2.6, 1.5)\"
y = \"c(2.2, 4.1, 5.8, 8.9, 10.1, 13.3, 14.2, 17.9, 18.1, 21.0, 23.7, 24.1)\"
d = \"dfbetas(lm(y ~ x + z))\"",
    );
    let out = dir.path().join("out");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_flowcast"))
        .args(["run", "--headless", "--no-cache", "-p", "1", "--out"])
        .arg(&out)
        .arg(&path)
        .output()
        .expect("runs");
    assert!(status.status.success(), "{}", common::text(&status.stderr));
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("d.json")).unwrap()).unwrap();
    let got: Vec<f64> = d["data"]
        .as_array()
        .expect("a matrix")
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(got.len(), R.len());
    for (i, (a, b)) in got.iter().zip(R).enumerate() {
        assert_eq!(a.to_bits(), b.to_bits(), "element {i}: {a} against R's {b}");
    }
}
