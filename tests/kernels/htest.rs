//! friedman.test, wilcox.test, ks.test and mood.test against R 4.2.2
//! (`tests/fixtures/r/htest.R`): statistic and p-value to 1e-12, method and
//! alternative strings exactly.

use crate::common;

use common::{call, close, fixture, named, pos};
use flowcast::kernels::value::{List, NA};
use flowcast::kernels::Value;
use nalgebra::DMatrix;
use serde_json::Value as Json;

fn num(v: &Json) -> f64 {
    match v {
        Json::Number(n) => n.as_f64().unwrap(),
        Json::String(s) if s == "NA" => NA,
        Json::String(s) if s == "NaN" => f64::NAN,
        Json::String(s) if s == "Inf" => f64::INFINITY,
        Json::String(s) if s == "-Inf" => f64::NEG_INFINITY,
        other => panic!("not a number: {other}"),
    }
}

fn to_value(v: &Json) -> Value {
    match v {
        Json::Bool(b) => Value::flag(*b),
        Json::String(s) if !matches!(s.as_str(), "NA" | "NaN" | "Inf" | "-Inf") => Value::string(s),
        Json::Array(items) => Value::Num(items.iter().map(num).collect()),
        Json::Object(o) if o.contains_key("dim") => {
            let dim: Vec<usize> = o["dim"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap() as usize)
                .collect();
            let data: Vec<f64> = o["data"].as_array().unwrap().iter().map(num).collect();
            Value::Mat(DMatrix::from_column_slice(dim[0], dim[1], &data))
        }
        other => Value::scalar(num(other)),
    }
}

fn field<'a>(l: &'a List, name: &str) -> &'a Value {
    l.field(name).unwrap_or_else(|| panic!("no field {name}"))
}

fn scalar(v: &Value) -> f64 {
    v.as_scalar()
        .unwrap_or_else(|| panic!("not a scalar: {v:?}"))
}

fn string(v: &Value) -> &str {
    match v {
        Value::Str(s) if s.len() == 1 => &s[0],
        other => panic!("not a string: {other:?}"),
    }
}

fn run_case(name: &str, case: &Json) -> Result<(), String> {
    let f = case["fn"].as_str().unwrap();
    let mut args: Vec<(Option<&str>, Value)> = case["args"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (Some(k.as_str()), to_value(v)))
        .collect();
    match &case["dots"] {
        Json::Null => {}
        Json::Array(items) => args.extend(items.iter().map(|v| (None, to_value(v)))),
        Json::Object(o) => args.extend(o.iter().map(|(k, v)| (Some(k.as_str()), to_value(v)))),
        Json::Number(_) => args.push((None, to_value(&case["dots"]))),
        other => panic!("{name}: bad dots {other}"),
    }
    let out = match call(f, args) {
        Ok(Value::List(l)) => l,
        other => return Err(format!("{name}: {other:?}")),
    };
    assert_eq!(out.class.as_deref(), Some("htest"), "{name}");
    let expect = case["out"].as_object().unwrap();
    let names: Vec<&str> = out
        .names
        .as_ref()
        .unwrap()
        .iter()
        .map(String::as_str)
        .collect();
    let mut errs = Vec::new();
    for (k, v) in expect {
        if !names.contains(&k.as_str()) {
            errs.push(format!("missing field {k}"));
            continue;
        }
        let got = field(&out, k);
        match v {
            Json::String(s) if k == "method" || k == "alternative" => {
                if string(got) != s {
                    errs.push(format!("{k}: got {:?}, R {s:?}", string(got)));
                }
            }
            _ => {
                let (g, e) = (scalar(got), num(v));
                if !close(g, e, 1e-12) {
                    errs.push(format!("{k}: got {g:e}, R {e:e}"));
                }
            }
        }
    }
    // R's field order: statistic, parameter, p.value, ..., alternative, method
    let order: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| expect.contains_key(*n))
        .collect();
    // (serde_json sorts object keys, so R's order is spelled out here)
    let r_order: Vec<&str> = ["statistic", "parameter", "p.value", "alternative", "method"]
        .into_iter()
        .filter(|n| expect.contains_key(*n))
        .collect();
    if order != r_order {
        errs.push(format!("field order {order:?}, R {r_order:?}"));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}", errs.join("; ")))
    }
}

fn run_prefix(prefixes: &[&str]) {
    let fx = fixture("htest");
    let mut n = 0;
    let mut failures = Vec::new();
    for (name, case) in fx.as_object().unwrap() {
        if !prefixes.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        n += 1;
        if let Err(e) = run_case(name, case) {
            failures.push(e);
        }
    }
    assert!(n > 0, "no cases for {prefixes:?}");
    assert!(
        failures.is_empty(),
        "{} of {n} cases differ from R:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn friedman_matches_r() {
    run_prefix(&["fr_"]);
}

#[test]
fn wilcox_matches_r() {
    run_prefix(&["wx_", "ws_", "wp_", "w2_"]);
}

#[test]
fn ks_matches_r() {
    run_prefix(&["ks_", "ks1_", "ks2_"]);
}

#[test]
fn mood_matches_r() {
    run_prefix(&["mood_"]);
}

fn err(f: &str, args: Vec<(Option<&'static str>, Value)>) -> String {
    match call(f, args) {
        Err(e) => e.0,
        Ok(v) => panic!("{f} should fail, gave {v:?}"),
    }
}

#[test]
fn r_error_messages() {
    let nums = |v: &[f64]| Value::Num(v.to_vec());
    assert_eq!(
        err("wilcox.test", vec![pos(nums(&[NA, NA]))]),
        "not enough (non-missing) 'x' observations"
    );
    assert_eq!(
        err("wilcox.test", vec![pos(Value::string("a"))]),
        "'x' must be numeric"
    );
    assert_eq!(
        err(
            "wilcox.test",
            vec![pos(nums(&[1.0, 2.0])), pos(nums(&[NA]))]
        ),
        "not enough 'y' observations"
    );
    assert_eq!(
        err(
            "wilcox.test",
            vec![pos(nums(&[1.0])), named("paired", Value::flag(true))]
        ),
        "'y' is missing for paired test"
    );
    assert_eq!(
        err("wilcox.test", vec![pos(nums(&[1.0])), named("alternative", Value::string("up"))]),
        "'arg' should be one of \u{201c}two.sided\u{201d}, \u{201c}less\u{201d}, \u{201c}greater\u{201d}"
    );
    assert_eq!(
        err("mood.test", vec![pos(nums(&[1.0])), pos(nums(&[2.0]))]),
        "not enough observations"
    );
    assert_eq!(
        err("ks.test", vec![pos(nums(&[NA])), pos(nums(&[1.0]))]),
        "not enough 'x' data"
    );
    assert_eq!(
        err("ks.test", vec![pos(nums(&[1.0])), pos(nums(&[NA]))]),
        "not enough 'y' data"
    );
    assert_eq!(
        err("friedman.test", vec![pos(nums(&[1.0, 2.0, 3.0]))]),
        "argument \"groups\" is missing, with no default"
    );
    let one_col = Value::Mat(DMatrix::from_column_slice(4, 1, &[1.0, 2.0, 3.0, 4.0]));
    assert_eq!(
        err("friedman.test", vec![pos(one_col)]),
        "dim(X) must have a positive length"
    );
}

/// The values R-SEMANTICS.md quotes, as literals.
#[test]
fn r_semantics_reference_values() {
    let get = |v: Value, f: &str| match v {
        Value::List(l) => l.field(f).and_then(Value::as_scalar).unwrap(),
        other => panic!("{other:?}"),
    };
    let m = DMatrix::from_row_slice(4, 3, &[1., 2., 3., 2., 3., 1., 3., 1., 2., 4., 5., 6.]);
    let r = call("friedman.test", vec![pos(Value::Mat(m))]).unwrap();
    assert_eq!(get(r.clone(), "statistic"), 0.5);
    assert!(close(get(r, "p.value"), 0.778800783071405, 1e-13));

    let w = DMatrix::from_column_slice(
        4,
        3,
        &[
            1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3, -0.4, 0.9, -1.2,
        ],
    );
    let r = call("wilcox.test", vec![pos(Value::Mat(w.clone()))]).unwrap();
    assert_eq!(get(r.clone(), "statistic"), 73.0);
    assert!(close(get(r, "p.value"), 0.0048828125, 1e-13));
    let r = call(
        "wilcox.test",
        vec![pos(Value::Mat(w)), named("exact", Value::flag(false))],
    )
    .unwrap();
    assert!(close(get(r, "p.value"), 0.0085899572511856, 1e-12));

    let x = Value::Num(vec![
        0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46,
    ]);
    let y = Value::Num(vec![1.15, 0.88, 0.90, 0.74, 1.21]);
    let r = call("wilcox.test", vec![pos(x.clone()), pos(y.clone())]).unwrap();
    assert_eq!(get(r.clone(), "statistic"), 35.0);
    assert!(close(get(r, "p.value"), 0.254412254412254, 1e-12));
    let r = call("ks.test", vec![pos(x.clone()), pos(y.clone())]).unwrap();
    assert!(close(get(r.clone(), "statistic"), 0.6, 1e-14));
    assert!(close(get(r, "p.value"), 0.165834165834164, 1e-12));
    let r = call(
        "ks.test",
        vec![
            pos(Value::Num(vec![1., 2., 2., 3., 4., 5.])),
            pos(Value::Num(vec![2., 3., 3., 6., 7.])),
        ],
    )
    .unwrap();
    assert!(close(get(r.clone(), "statistic"), 0.4, 1e-14));
    assert!(close(get(r, "p.value"), 0.532467532467534, 1e-12));
    let r = call("mood.test", vec![pos(x), pos(y)]).unwrap();
    assert!(close(get(r.clone(), "statistic"), 1.38266579688743, 1e-12));
    assert!(close(get(r, "p.value"), 0.166767363982984, 1e-12));
}
