//! Step values as JSON, in the format other tools read (DESIGN section 8):
//! a matrix is `{"dim":[r,c],"data":[column-major]}`, a vector an array (a
//! single number bare), a named list or result object an object with R's
//! field names, an unnamed list an array. Non-finite numbers are strings as
//! R's jsonlite writes them: "NA", "NaN", "Inf", "-Inf".

use serde_json::{json, Map, Number, Value as Json};

use crate::kernels::formula_text::rhs_text;
use crate::kernels::value::{is_na, Formula};
use crate::kernels::Value;

/// A number: integral values without a fraction, others in the shortest
/// form that reads back to the same double.
pub fn number(x: f64) -> Json {
    if is_na(x) {
        return Json::from("NA");
    }
    if x.is_nan() {
        return Json::from("NaN");
    }
    if x.is_infinite() {
        return Json::from(if x > 0.0 { "Inf" } else { "-Inf" });
    }
    if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 {
        return Json::from(x as i64);
    }
    Number::from_f64(x).map_or(Json::Null, Json::Number)
}

/// A logical: `true`, `false`, or `"NA"` as R's NA is written.
fn logical(b: Option<bool>) -> Json {
    b.map_or_else(|| Json::from("NA"), Json::from)
}

fn numbers(v: &[f64]) -> Json {
    Json::Array(v.iter().map(|&x| number(x)).collect())
}

/// The full JSON of a value.
pub fn to_json(v: &Value) -> Json {
    match v {
        // A name or a call as R's deparse1 writes it.
        Value::Lang(_) => Json::from(crate::kernels::deparse::report_text(v)),
        // Names are R attributes; the value is what R's `as.vector` gives.
        Value::Named(n) => to_json(&n.value),
        Value::Null => Json::Null,
        Value::Num(x) if x.len() == 1 => number(x[0]),
        Value::Num(x) => numbers(x),
        Value::Mat(m) => json!({"dim": [m.nrows(), m.ncols()], "data": numbers(m.as_slice())}),
        Value::Complex(z) => json!({
            "re": numbers(&z.iter().map(|c| c.re).collect::<Vec<_>>()),
            "im": numbers(&z.iter().map(|c| c.im).collect::<Vec<_>>()),
        }),
        Value::ComplexMat(m) => json!({
            "dim": [m.nrows(), m.ncols()],
            "re": numbers(&m.iter().map(|c| c.re).collect::<Vec<_>>()),
            "im": numbers(&m.iter().map(|c| c.im).collect::<Vec<_>>()),
        }),
        Value::Str(s) if s.len() == 1 => Json::from(s[0].clone()),
        Value::Str(s) => Json::from(s.clone()),
        Value::StrMat(m) => json!({"dim": [m.nrows(), m.ncols()], "data": m.as_slice()}),
        Value::Bool(b) if b.len() == 1 => logical(b[0]),
        Value::Bool(b) => Json::Array(b.iter().map(|&b| logical(b)).collect()),
        Value::BoolMat(m) => json!({
            "dim": [m.nrows(), m.ncols()],
            "data": m.iter().map(|&b| logical(b)).collect::<Vec<_>>(),
        }),
        // A dist object is R's lower triangle, as `as.vector(d)` gives it.
        Value::List(l) if l.class.as_deref() == Some("dist") => {
            l.field("values").map_or(Json::Null, to_json)
        }
        Value::List(l) => match &l.names {
            Some(names) => Json::Object(
                names
                    .iter()
                    .zip(&l.items)
                    .map(|(n, v)| (n.clone(), to_json(v)))
                    .collect::<Map<_, _>>(),
            ),
            None => Json::Array(l.items.iter().map(to_json).collect()),
        },
        // A factor as its labels, as R's `as.vector(f)` gives them.
        Value::Factor(f) if f.codes.len() == 1 => Json::from(f.labels().remove(0)),
        Value::Factor(f) => Json::from(f.labels()),
        // As R deparses the formula terms.formula(simplify = TRUE) gives
        // (what update() returns): the response, the term labels, `- 1`.
        Value::Formula(Formula {
            text: Some(text), ..
        }) => Json::from(text.as_str()),
        Value::Formula(Formula {
            source: Some(text), ..
        }) => Json::from(text.as_str()),
        Value::Formula(f) => {
            let terms: Vec<&str> = f.terms.iter().map(|(n, _)| n.as_str()).collect();
            let rhs = rhs_text(&terms, f.intercept);
            Json::from(match &f.response_label {
                Some(l) => format!("{l} ~ {rhs}"),
                None => format!("~ {rhs}"),
            })
        }
    }
}

/// Elements above which a value is summarised rather than printed in full
/// (the table and `--json`; `--out` always writes everything).
pub const SUMMARY_LIMIT: usize = 1000;

/// The value in full when small; otherwise its shape only, e.g.
/// `{"dim":[1200,1200]}` or `{"length":5000}`.
pub fn to_json_summary(v: &Value) -> Json {
    match v {
        Value::Mat(m) if m.len() > SUMMARY_LIMIT => json!({"dim": [m.nrows(), m.ncols()]}),
        Value::ComplexMat(m) if m.len() > SUMMARY_LIMIT => json!({"dim": [m.nrows(), m.ncols()]}),
        Value::BoolMat(m) if m.len() > SUMMARY_LIMIT => json!({"dim": [m.nrows(), m.ncols()]}),
        Value::StrMat(m) if m.len() > SUMMARY_LIMIT => json!({"dim": [m.nrows(), m.ncols()]}),
        Value::Num(_) | Value::Complex(_) | Value::Str(_) | Value::Bool(_)
            if v.len() > SUMMARY_LIMIT =>
        {
            json!({"length": v.len()})
        }
        Value::List(l) if l.class.is_some() || l.names.is_some() => match &l.names {
            Some(names) if l.class.as_deref() != Some("dist") => Json::Object(
                names
                    .iter()
                    .zip(&l.items)
                    .map(|(n, v)| (n.clone(), to_json_summary(v)))
                    .collect(),
            ),
            _ => json!({"length": v.len()}),
        },
        Value::List(l) if l.items.len() > SUMMARY_LIMIT => json!({"length": l.items.len()}),
        Value::List(l) => Json::Array(l.items.iter().map(to_json_summary).collect()),
        other => to_json(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::value::{List, NA};
    use nalgebra::DMatrix;

    #[test]
    fn formats_follow_section_8() {
        let m = Value::Mat(DMatrix::from_column_slice(2, 2, &[1.0, 2.0, 3.5, 4.0]));
        assert_eq!(
            to_json(&m).to_string(),
            r#"{"dim":[2,2],"data":[1,2,3.5,4]}"#
        );
        assert_eq!(to_json(&Value::scalar(0.25)).to_string(), "0.25");
        assert_eq!(
            to_json(&Value::Num(vec![1.0, NA, f64::NAN, f64::NEG_INFINITY])).to_string(),
            r#"[1,"NA","NaN","-Inf"]"#
        );
        let t = Value::List(List::record(
            "htest",
            vec![
                ("statistic", Value::scalar(0.5)),
                ("method", Value::string("x")),
            ],
        ));
        assert_eq!(to_json(&t).to_string(), r#"{"statistic":0.5,"method":"x"}"#);
    }

    #[test]
    fn doubles_round_trip() {
        let x = 0.1 + 0.2;
        let s = to_json(&Value::scalar(x)).to_string();
        assert_eq!(s.parse::<f64>().unwrap().to_bits(), x.to_bits());
    }
}
