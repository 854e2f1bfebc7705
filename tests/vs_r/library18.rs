//! ksmooth, isoreg, medpolish and supsmu: ports of R's ksmooth.R over
//! ksmooth.c's BDRksmooth, isoreg.R over isoreg.c (with fitted.isoreg
//! and residuals.isoreg), medpolish.R (with R's median), and supsmu over
//! ppr.f's supsmu and smooth. The workflow
//! tests/fixtures/workflows/library18.toml runs, and every step must agree
//! with what R computed for the same expression
//! (tests/fixtures/r/library18.R wrote library18.json) bit for bit: the
//! ports do R's arithmetic in R's order. What R refuses, flowcast refuses
//! with R's message (library18_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's, then bit for bit.
#[test]
fn library18_workflow_matches_r() {
    r_json::assert_bit_for_bit("library18");
}

/// Each case of library18_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library18_errors");
}

/// R's warnings: medpolish stopped by maxiter, supsmu dropping
/// observations that are not finite.
#[test]
fn warnings_are_rs() {
    r_json::assert_warns_once(
        "a = 'medpolish(matrix(c(14, 22, 17, 9, 31, 12, 20, 25, 18), 3), maxiter = 1)'",
        &["medpolish() did not converge in 1 iteration"],
    );
    r_json::assert_warns_once(
        "a = 'medpolish(matrix(c(14, 22, 17, 9, 31, 12, 20, 25, 18), 3), maxiter = 2)'",
        &["medpolish() did not converge in 2 iterations"],
    );
    r_json::assert_warns_once(
        "a = 'supsmu(c(1, 2, NA, 4, 5, 6), c(1, 3, 2, 5, 4, 6))'",
        &["1 observation with NA, NaN or Inf deleted"],
    );
    r_json::assert_warns_once(
        "a = 'supsmu(c(1, 2, NA, 4, 5, 6), c(1, Inf, 2, 5, 4, 6))'",
        &["2 observations with NAs, NaNs and/or Infs deleted"],
    );
}

/// What R 4.2.2 cannot finish (isoreg of an infinite y, supsmu of fewer
/// than four points none of whose x is positive: both loop for ever) or
/// reads past its arrays for (a periodic supsmu window wider than the
/// data) is refused, saying why.
#[test]
fn rs_endless_loops_are_refused() {
    let cases = [
        (
            "a = 'isoreg(c(1, Inf, 2))'",
            "non-finite sum(y) == inf is not allowed",
        ),
        ("a = 'supsmu(c(-3, -2, -1), c(1, 3, 2))'", "loops for ever"),
        (
            "a = 'supsmu(c(0.2, 0.7), c(1, 3), periodic = TRUE)'",
            "reads past its arrays",
        ),
        (
            "a = 'supsmu(seq(0.1, 1, by = 0.1), 1:10, span = 1, periodic = TRUE)'",
            "reads past its arrays",
        ),
    ];
    common::assert_refused_saying("", &cases);
}

/// Odd shapes and values give a value or an error, never a panic.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [
        common::ODD_VALUES,
        &[
            "-Inf",
            "1e308",
            "rep(1, 10)",
            "c(3, 1, 2, 1)",
            "matrix(c(1, NA, 3, 4), 2)",
        ],
    ]
    .concat();
    let calls = [
        "ksmooth(X, c(1, 2, 3, 4))",
        "ksmooth(c(1, 2, 3, 4), X)",
        "ksmooth(c(1, 2, 3, 4), c(4, 3, 2, 1), bandwidth = X)",
        "ksmooth(c(1, 2, 3, 4), c(4, 3, 2, 1), \"normal\", x.points = X)",
        "ksmooth(c(1, 2, 3, 4), c(4, 3, 2, 1), range.x = X)",
        "ksmooth(c(1, 2, 3, 4), c(4, 3, 2, 1), n.points = X)",
        "ksmooth(c(1, 2, 3, 4), c(4, 3, 2, 1), kernel = X)",
        "isoreg(X)",
        "isoreg(X, c(1, 2, 3, 4))",
        "fitted(isoreg(X))",
        "residuals(isoreg(c(1, 2, 3, 4), X))",
        "medpolish(X)",
        "medpolish(matrix(c(1, 2, 3, 4), 2), eps = X)",
        "medpolish(matrix(c(1, 2, 3, 4), 2), maxiter = X)",
        "medpolish(matrix(c(1, 2, 3, 4), 2), na.rm = X)",
        "medpolish(matrix(c(1, 2, 3, 5), 2), trace.iter = X)",
        "supsmu(X, c(1, 2, 3, 4))",
        "supsmu(c(1, 2, 3, 4), X)",
        "supsmu(c(0.1, 0.2, 0.3, 0.4), c(1, 3, 2, 4), wt = X)",
        "supsmu(c(0.1, 0.2, 0.3, 0.4), c(1, 3, 2, 4), span = X)",
        "supsmu(c(0.1, 0.2, 0.3, 0.4), c(1, 3, 2, 4), bass = X)",
        "supsmu(c(0.1, 0.2, 0.3, 0.4), c(1, 3, 2, 4), periodic = X)",
        "supsmu(seq(0, 1, by = 0.05), sin(seq(0, 20)), periodic = TRUE, span = X)",
    ];
    common::assert_odd_inputs_do_not_panic("", &calls, &odd);
}

/// Each kernel called directly with degenerate values (empty, NA, NaN,
/// infinite, huge, denormal, matrices, lists, text) at every argument, two
/// at a time: an error or a value, never a panic.
#[test]
fn degenerate_arguments_do_not_panic() {
    use flowcast::kernels::value::{List, Value, NA};
    use nalgebra::DMatrix;
    let num = |v: &[f64]| Value::Num(v.to_vec());
    let pool = vec![
        Value::Null,
        num(&[]),
        num(&[1.0]),
        num(&[0.0]),
        num(&[NA]),
        num(&[f64::NAN, 1.0, 2.0, 3.0]),
        num(&[f64::INFINITY, -1.0, 2.0, 0.5]),
        num(&[1e308, -1e308, 1.7e308, -1.7e308]),
        num(&[5e-324, 1e-320, 5e-324, 2e-310]),
        num(&[3.0; 6]),
        num(&[0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8]),
        num(&[-3.0, -2.0, -1.0]),
        num(&[2.0, 1.0]),
        num(&[-1.0]),
        num(&[1e4]),
        Value::Bool(vec![Some(true), None, Some(false)]),
        Value::Str(vec!["a".into(), "b".into()]),
        Value::Mat(DMatrix::from_element(3, 3, NA)),
        Value::Mat(DMatrix::from_fn(4, 3, |i, j| ((i * 3 + j) % 5) as f64)),
        Value::Mat(DMatrix::from_element(0, 2, 0.0)),
        Value::List(List::named(vec![
            ("x", num(&[1.0, 2.0])),
            ("y", num(&[2.0])),
        ])),
        Value::List(List::sequence(vec![num(&[1.0])])),
    ];
    let kernels: [(&str, &[&str]); 4] = [
        (
            "ksmooth",
            &[
                "x",
                "y",
                "kernel",
                "bandwidth",
                "range.x",
                "n.points",
                "x.points",
            ],
        ),
        ("isoreg", &["x", "y"]),
        ("medpolish", &["x", "eps", "maxiter", "trace.iter", "na.rm"]),
        (
            "supsmu",
            &["x", "y", "wt", "span", "periodic", "bass", "trace"],
        ),
    ];
    for (name, params) in kernels {
        for (a, pa) in params.iter().enumerate() {
            for pb in &params[a..] {
                for va in &pool {
                    for vb in &pool {
                        let mut args = vec![(Some(*pa), va.clone())];
                        if pb != pa {
                            args.push((Some(*pb), vb.clone()));
                        }
                        // The required arguments not being fuzzed: ordinary.
                        for (req, v) in [
                            ("x", num(&[0.3, 0.1, 0.2, 0.4, 0.6])),
                            ("y", num(&[1.0, 3.0, 2.0, 5.0, 4.0])),
                        ] {
                            if params.contains(&req)
                                && *pa != req
                                && *pb != req
                                && name != "medpolish"
                            {
                                args.push((Some(req), v));
                            }
                        }
                        let shown = format!("{name}({args:?})");
                        let result = std::panic::catch_unwind(|| {
                            let r = common::call(name, args.clone());
                            if let Ok(v) = &r {
                                for f in ["fitted", "residuals"] {
                                    let _ = common::call(f, vec![(None, v.clone())]);
                                }
                            }
                        });
                        assert!(result.is_ok(), "{shown} panicked");
                    }
                }
            }
        }
    }
}
