//! lm against R 4.2.2 (`tests/fixtures/r/lm.R`): coefficients (NA where
//! aliased), residuals, fitted values and the `summary.lm` numbers.

use crate::common;

use common::{call, fixture, pos, vec_of};
use flowcast::kernels::value::{is_na, Formula, List};
use flowcast::kernels::Value;
use nalgebra::DMatrix;
use serde_json::Value as Json;

fn term(j: &Json) -> Value {
    if j.get("dim").is_some() {
        let dim = vec_of(&j["dim"]);
        Value::Mat(DMatrix::from_vec(
            dim[0] as usize,
            dim[1] as usize,
            vec_of(&j["data"]),
        ))
    } else {
        Value::Num(vec_of(j))
    }
}

fn formula(c: &Json) -> Value {
    // JSON objects lose their key order here; the fixture lists the
    // formula's order separately (it decides which column is aliased).
    let terms = match &c["term_names"] {
        Json::Array(names) => names
            .iter()
            .map(|n| {
                let n = n.as_str().unwrap();
                (n.to_string(), term(&c["terms"][n]))
            })
            .collect(),
        Json::String(n) => vec![(n.clone(), term(&c["terms"][n.as_str()]))],
        _ => Vec::new(),
    };
    Value::Formula(Formula {
        response: Some(Box::new(Value::Num(vec_of(&c["y"])))),
        response_label: Some("y".into()),
        terms,
        intercept: c["intercept"].as_bool().unwrap(),
        predvars: Vec::new(),
        text: None,
        source: None,
    })
}

fn fit(c: &Json) -> List {
    match call("lm", vec![pos(formula(c))]).unwrap() {
        Value::List(l) if l.class.as_deref() == Some("lm") => l,
        other => panic!("expected an lm record, got {other:?}"),
    }
}

fn get(l: &List, name: &str) -> Vec<f64> {
    l.field(name)
        .and_then(Value::as_f64_slice)
        .unwrap_or_else(|| panic!("no numeric field {name}"))
        .to_vec()
}

/// Relative closeness; NA must meet NA (and NaN NaN).
#[track_caller]
fn check(case: &str, what: &str, got: &[f64], want: &[f64], tol: f64, scale: Option<f64>) {
    assert_eq!(got.len(), want.len(), "{case} {what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if w.is_nan() {
            assert!(g.is_nan(), "{case} {what}[{i}]: got {g}, R gives NA");
            continue;
        }
        let s = scale.unwrap_or(w.abs()).max(1e-300);
        assert!(
            (g - w).abs() <= tol * s,
            "{case} {what}[{i}]: got {g:e}, R gives {w:e}"
        );
    }
}

#[test]
fn lm_matches_r() {
    let f = fixture("lm");
    for (name, c) in f.as_object().unwrap() {
        let l = fit(c);
        let y_scale = vec_of(&c["y"]).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        check(
            name,
            "coefficients",
            &get(&l, "coefficients"),
            &vec_of(&c["coefficients"]),
            1e-10,
            None,
        );
        check(
            name,
            "residuals",
            &get(&l, "residuals"),
            &vec_of(&c["residuals"]),
            1e-10,
            Some(y_scale),
        );
        check(
            name,
            "fitted.values",
            &get(&l, "fitted.values"),
            &vec_of(&c["fitted"]),
            1e-10,
            Some(y_scale),
        );
        assert_eq!(get(&l, "rank"), vec_of(&c["rank"]), "{name} rank");
        assert_eq!(
            get(&l, "df.residual"),
            vec_of(&c["df.residual"]),
            "{name} df"
        );
        for key in [
            "std.error",
            "t.value",
            "sigma",
            "r.squared",
            "adj.r.squared",
            "fstatistic",
        ] {
            check(name, key, &get(&l, key), &vec_of(&c[key]), 1e-10, None);
        }
        check(
            name,
            "p.value",
            &get(&l, "p.value"),
            &vec_of(&c["p.value"]),
            1e-12,
            None,
        );
        check(
            name,
            "f.p.value",
            &get(&l, "f.p.value"),
            &vec_of(&c["f.p.value"]),
            1e-12,
            None,
        );
    }
}

#[test]
fn aliased_coefficients_are_na() {
    let f = fixture("lm");
    let l = fit(&f["aliased"]);
    let coef = get(&l, "coefficients");
    assert!(is_na(coef[3]), "b = d - a is aliased: {coef:?}");
    assert_eq!(get(&l, "rank"), vec![3.0]);
}

#[test]
fn reference_values() {
    // R-SEMANTICS.md's lm example.
    let f = fixture("lm");
    let l = fit(&f["reference"]);
    check(
        "ref",
        "coef",
        &get(&l, "coefficients"),
        &[-0.0104166666666669, 0.839583333333333, 0.172916666666667],
        1e-12,
        Some(1.0),
    );
    check(
        "ref",
        "sigma",
        &get(&l, "sigma"),
        &[0.0897527467855748],
        1e-13,
        None,
    );
    check(
        "ref",
        "r2",
        &get(&l, "r.squared"),
        &[0.9985861934477379],
        1e-14,
        None,
    );
    check(
        "ref",
        "F",
        &get(&l, "fstatistic"),
        &[1059.46551724139, 2.0, 3.0],
        1e-12,
        None,
    );
}

/// Issue 13: an empty model frame is R's error, not a panic.
#[test]
fn an_empty_fit_has_no_cases() {
    let empty = Value::Num(vec![]);
    let f = Value::Formula(Formula {
        response: Some(Box::new(empty.clone())),
        response_label: None,
        terms: vec![("rnorm(0)".into(), empty)],
        intercept: true,
        predvars: Vec::new(),
        text: None,
        source: None,
    });
    let e = call("lm", vec![pos(f)]).unwrap_err();
    assert_eq!(e.0, "0 (non-NA) cases");
}

/// A model's `$coefficients` carries its names as in R, so picking one by
/// name gives its value (it gave NA) (R 4.2.2's values, printed with 17
/// digits).
#[test]
fn model_coefficients_are_named_as_in_r() {
    let (dir, path) = common::steps_workflow(
        "x = 'c(1, 2, 3, 4, 5)'\n\
         y = 'c(2.1, 3.9, 6.2, 7.8, 10.1)'\n\
         fit = 'lm(y ~ x)'\n\
         slope = 'fit$coefficients[\"x\"]'\n\
         intercept = 'fit[[\"coefficients\"]][[\"(Intercept)\"]]'\n\
         labels = 'names(fit$coef)'\n\
         g = 'glm(c(0, 0, 1, 0, 1, 1) ~ c(1, 2, 3, 4, 5, 6), family = binomial)'\n\
         g_slope = 'g$coefficients[2]'\n\
         g_labels = 'names(g$coefficients)'",
    );
    let out_dir = dir.path().join("out");
    let out = common::flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        out_dir.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |step: &str| -> Json {
        let text = std::fs::read_to_string(out_dir.join(format!("{step}.json"))).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(vec_of(&read("slope")), [1.9899999999999998]);
    assert_eq!(vec_of(&read("intercept")), [0.050000000000002619]);
    assert_eq!(read("labels"), serde_json::json!(["(Intercept)", "x"]));
    // glm's iterations end within R's tolerance, not bit for bit.
    let g_slope = vec_of(&read("g_slope"));
    assert!(
        common::close(g_slope[0], 1.2140275858506053, 1e-12),
        "{g_slope:?}"
    );
    assert_eq!(
        read("g_labels"),
        serde_json::json!(["(Intercept)", "c(1, 2, 3, 4, 5, 6)"])
    );
}
