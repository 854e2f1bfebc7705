//! Operators, matrix functions, summaries and indexing against R 4.2.2
//! (`tests/fixtures/r/arith.R`), and their shape rules.

use crate::common;

use std::path::Path;

use common::{call, fixture};
use flowcast::kernels::index::{field, index, index2, index2_type, index_type};
use flowcast::kernels::value::{is_na, List, NA};
use flowcast::kernels::{registry, ArgError, Args, ShapeCtx, Type, Value};
use nalgebra::DMatrix;
use serde_json::Value as Json;

fn num(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => match s.as_str() {
            "NA" => Some(NA),
            "NaN" => Some(f64::NAN),
            "Inf" => Some(f64::INFINITY),
            "-Inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

fn to_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::flag(*b),
        Json::Array(a) if !a.is_empty() && a.iter().all(Json::is_boolean) => {
            Value::Bool(a.iter().map(serde_json::Value::as_bool).collect())
        }
        Json::Array(a) if a.iter().all(|x| num(x).is_some()) => {
            Value::Num(a.iter().filter_map(num).collect())
        }
        Json::Array(a) => Value::Str(
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect(),
        ),
        Json::Object(o) if o.contains_key("dim") => {
            let d: Vec<usize> = o["dim"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect();
            let data: Vec<f64> = o["data"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(num)
                .collect();
            Value::Mat(DMatrix::from_vec(d[0], d[1], data))
        }
        Json::Object(o) if o.contains_key("list_items") => {
            let names = match &o["list_names"] {
                Json::Null => None,
                Json::String(s) => Some(vec![s.clone()]),
                n => Some(
                    n.as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect(),
                ),
            };
            let items = match &o["list_items"] {
                Json::Array(a) => a.iter().map(to_value).collect(),
                one => vec![to_value(one)],
            };
            Value::List(List {
                class: None,
                names,
                items,
                row_names: None,
            })
        }
        other => match num(other) {
            Some(x) => Value::scalar(x),
            None => Value::string(other.as_str().unwrap_or("")),
        },
    }
}

/// Same number, NA and NaN told apart, within `rel` (0: bit for bit).
fn same(a: f64, e: f64, rel: f64) -> bool {
    if is_na(e) || is_na(a) {
        return is_na(a) && is_na(e);
    }
    if e.is_nan() || a.is_nan() {
        return a.is_nan() && e.is_nan();
    }
    rel == 0.0 && a == e || rel > 0.0 && (a - e).abs() <= rel
}

/// Checks `actual` against R's JSON, returning a description of the first
/// difference.
fn compare(actual: &Value, expected: &Json, rel: f64) -> Result<(), String> {
    let nums = |a: &[f64], e: &[f64]| -> Result<(), String> {
        if a.len() != e.len() {
            return Err(format!("length {} vs R's {}", a.len(), e.len()));
        }
        // A tolerance is relative to the largest entry: summation order
        // only moves results by rounding of the partial sums.
        let scale = e.iter().fold(
            0.0f64,
            |m, x| if x.is_finite() { m.max(x.abs()) } else { m },
        );
        let rel = rel * scale;
        for (i, (x, y)) in a.iter().zip(e).enumerate() {
            if !same(*x, *y, rel) {
                return Err(format!("element {i}: {x:e} vs R's {y:e}"));
            }
        }
        Ok(())
    };
    let exp = to_value(expected);
    match (actual, &exp) {
        (Value::Mat(a), Value::Mat(e)) => {
            if a.shape() != e.shape() {
                return Err(format!("dims {:?} vs R's {:?}", a.shape(), e.shape()));
            }
            nums(a.as_slice(), e.as_slice())
        }
        (Value::Num(a), Value::Num(e)) => nums(a, e),
        (Value::List(a), Value::List(e)) => {
            if a.names != e.names || a.items.len() != e.items.len() {
                return Err(format!("list {a:?} vs R's {e:?}"));
            }
            Ok(())
        }
        (a, e) if a == e => Ok(()),
        (a, e) => Err(format!("{a:?} vs R's {e:?}")),
    }
}

fn expected_error(j: &Json) -> Option<&str> {
    j.as_object()
        .and_then(|o| o.get("error"))
        .and_then(Json::as_str)
}

/// The static type of a value, with small numeric constants kept, as
/// inference sees literals.
fn type_of(v: &Value) -> Type {
    match v {
        Value::Null => Type::Null,
        Value::Num(x) => Type::num_const(x.clone()),
        Value::Mat(m) => Type::mat(m.nrows(), m.ncols()),
        Value::Bool(b) => Type::Bool {
            len: Some(b.len()),
            value: Some(b.clone()),
        },
        Value::Str(s) => Type::Str {
            len: Some(s.len()),
            value: Some(s.clone()),
        },
        Value::List(l) => Type::List {
            len: Some(l.items.len()),
            elem: Box::new(Type::Any),
        },
        _ => Type::Any,
    }
}

fn shape(name: &str, args: Vec<(Option<&str>, Type)>) -> Result<Type, ArgError> {
    let k = registry()
        .get(name)
        .unwrap_or_else(|| panic!("no kernel {name}"));
    let given = args
        .into_iter()
        .map(|(n, t)| (n.map(str::to_string), t))
        .collect();
    let a = Args::match_call(k.name, k.params, given)?;
    (k.shape)(
        &a,
        &ShapeCtx {
            base_dir: Path::new("."),
            written: &[],
            closure: None,
            closure2: None,
        },
    )
}

/// Whether a shape rule's type describes the value R computed.
fn type_fits(t: &Type, v: &Value) -> bool {
    match (t, v) {
        (Type::Any, _) => true,
        (Type::Null, Value::Null) => true,
        (Type::Mat { rows, cols }, Value::Mat(m)) => {
            rows.is_none_or(|r| r == m.nrows()) && cols.is_none_or(|c| c == m.ncols())
        }
        (Type::Num { len, value }, Value::Num(x)) => {
            len.is_none_or(|l| l == x.len())
                && value.as_ref().is_none_or(|c| {
                    c.len() == x.len() && c.iter().zip(x).all(|(a, b)| same(*a, *b, 0.0))
                })
        }
        _ => false,
    }
}

/// Products summed in a different order than R's (faer's blocking).
const ROUNDING_ONLY: &[&str] = &["big_mm_faer"];

#[test]
fn calls_match_r() {
    let f = fixture("arith");
    let mut failures = Vec::new();
    for (case, c) in f["calls"].as_object().unwrap() {
        let fname = c["fn"].as_str().unwrap();
        let args: Vec<(Option<&str>, Value)> = c["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let n = a["name"].as_str().unwrap();
                (
                    if n.is_empty() { None } else { Some(n) },
                    to_value(&a["value"]),
                )
            })
            .collect();
        let types: Vec<(Option<&str>, Type)> = args.iter().map(|(n, v)| (*n, type_of(v))).collect();
        let static_type = shape(fname, types);
        let got = call(fname, args);
        let rel = if ROUNDING_ONLY.contains(&case.as_str()) {
            1e-13
        } else {
            0.0
        };
        match (expected_error(&c["output"]), got) {
            (Some(msg), Err(e)) => {
                if e.0 != msg {
                    failures.push(format!("{case}: error {:?}, R says {msg:?}", e.0));
                }
                if static_type.is_ok() {
                    failures.push(format!(
                        "{case}: shape rule accepted what R rejects ({msg})"
                    ));
                }
            }
            (Some(msg), Ok(v)) => failures.push(format!("{case}: got {v:?}, R fails: {msg}")),
            (None, Err(e)) => failures.push(format!("{case}: failed: {}", e.0)),
            (None, Ok(v)) => {
                if let Err(d) = compare(&v, &c["output"], rel) {
                    failures.push(format!("{case}: {d}"));
                }
                match static_type {
                    Ok(t) if !type_fits(&t, &v) => failures.push(format!(
                        "{case}: shape rule says {}, value is {v:?}",
                        t.describe()
                    )),
                    Err(e) => failures.push(format!("{case}: shape rule rejected: {}", e.message)),
                    Ok(_) => {}
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn indexing_matches_r() {
    let f = fixture("arith");
    let mut failures = Vec::new();
    for (case, c) in f["index"].as_object().unwrap() {
        let x = to_value(&c["x"]);
        let entries: Vec<Option<Value>> = c["index"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| {
                if j.as_str() == Some("_") {
                    None
                } else {
                    Some(to_value(j))
                }
            })
            .collect();
        let got = match c["op"].as_str().unwrap() {
            "[" => index(&x, &entries),
            "[[" => index2(&x, entries[0].as_ref().unwrap()),
            _ => match &entries[0] {
                Some(Value::Str(s)) => field(&x, &s[0]),
                _ => panic!("{case}: $ needs a name"),
            },
        };
        match (expected_error(&c["output"]), got) {
            (Some(msg), Err(e)) if e.0 == msg => {}
            (Some(msg), r) => failures.push(format!("{case}: {r:?}, R fails: {msg}")),
            (None, Err(e)) => failures.push(format!("{case}: failed: {}", e.0)),
            (None, Ok(v)) => {
                if let Err(d) = compare(&v, &c["output"], 0.0) {
                    failures.push(format!("{case}: {d}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn pos(t: Type) -> (Option<&'static str>, Type) {
    (None, t)
}

#[test]
fn constants_fold_during_analysis() {
    assert_eq!(
        shape(
            "*",
            vec![
                pos(Type::scalar_const(1200.0)),
                pos(Type::scalar_const(1200.0))
            ]
        ),
        Ok(Type::scalar_const(1_440_000.0))
    );
    let n = shape("nrow", vec![pos(Type::mat(1200, 1200))]).unwrap();
    assert_eq!(n, Type::scalar_const(1200.0));
    let r = shape(":", vec![pos(Type::scalar_const(1.0)), pos(n)]).unwrap();
    assert_eq!(r.len(), Some(1200));
    let small = shape(
        ":",
        vec![pos(Type::scalar_const(1.0)), pos(Type::scalar_const(10.0))],
    )
    .unwrap();
    assert_eq!(small, Type::num_const((1..=10).map(f64::from).collect()));
    assert_eq!(
        shape("-", vec![pos(Type::scalar_const(3.0))]),
        Ok(Type::scalar_const(-3.0))
    );
    assert_eq!(shape("ncol", vec![pos(Type::num(5))]), Ok(Type::Null));
    assert_eq!(
        shape("length", vec![pos(Type::mat(3, 4))]),
        Ok(Type::scalar_const(12.0))
    );
}

#[test]
fn matrix_product_shapes() {
    let mm = |a: Type, b: Type| shape("%*%", vec![pos(a), pos(b)]);
    assert_eq!(mm(Type::mat(3, 4), Type::mat(4, 6)), Ok(Type::mat(3, 6)));
    let e = mm(Type::mat(3, 4), Type::mat(5, 6)).unwrap_err();
    assert_eq!(e.message, "non-conformable arguments: 3x4 %*% 5x6");
    assert_eq!(e.arg, Some(1));
    // The hot loop body: a matrix times one row of another.
    assert_eq!(
        mm(Type::mat(1200, 1200), Type::num(1200)),
        Ok(Type::mat(1200, 1))
    );
    assert_eq!(mm(Type::num(4), Type::mat(4, 2)), Ok(Type::mat(1, 2)));
    assert_eq!(mm(Type::num(3), Type::num(3)), Ok(Type::mat(1, 1)));
    assert!(mm(Type::num(3), Type::num(4)).is_err());
    // Unknown sizes are accepted; what is known is kept.
    let unknown = Type::Mat {
        rows: None,
        cols: Some(4),
    };
    assert_eq!(
        mm(unknown, Type::mat(4, 2)),
        Ok(Type::Mat {
            rows: None,
            cols: Some(2)
        })
    );
    assert_eq!(
        mm(Type::mat(5, 4), Type::num_unknown()),
        Ok(Type::Mat {
            rows: Some(5),
            cols: Some(1)
        })
    );
    assert_eq!(
        mm(Type::Any, Type::mat(4, 2)),
        Ok(Type::Mat {
            rows: None,
            cols: Some(2)
        })
    );
    assert_eq!(
        shape("crossprod", vec![pos(Type::mat(10, 3))]),
        Ok(Type::mat(3, 3))
    );
    assert_eq!(shape("t", vec![pos(Type::num(7))]), Ok(Type::mat(1, 7)));
}

#[test]
fn elementwise_shapes() {
    let add = |a: Type, b: Type| shape("+", vec![pos(a), pos(b)]);
    assert_eq!(add(Type::mat(3, 4), Type::num(3)), Ok(Type::mat(3, 4)));
    assert_eq!(add(Type::num(2), Type::mat(3, 4)), Ok(Type::mat(3, 4)));
    let e = add(Type::mat(3, 4), Type::mat(4, 3)).unwrap_err();
    assert_eq!(e.message, "non-conformable arrays: 3x4 + 4x3");
    let e = add(Type::mat(2, 2), Type::num(5)).unwrap_err();
    assert!(
        e.message
            .starts_with("dims [product 4] do not match the length of object [5]"),
        "{}",
        e.message
    );
    assert_eq!(e.arg, Some(1));
    assert_eq!(add(Type::num(6), Type::num(4)), Ok(Type::num(6)));
    assert_eq!(
        add(Type::num_unknown(), Type::num(4)),
        Ok(Type::num_unknown())
    );
    assert_eq!(add(Type::Any, Type::mat(2, 3)), Ok(Type::mat(2, 3)));
    assert!(add(Type::str_const("a"), Type::num(1)).is_err());
}

#[test]
fn summary_shapes() {
    assert_eq!(shape("mean", vec![pos(Type::mat(5, 5))]), Ok(Type::num(1)));
    assert_eq!(
        shape("sum", vec![pos(Type::num_const(vec![0.1, 0.2, 0.3]))]),
        Ok(Type::scalar_const(0.6))
    );
    assert_eq!(
        shape("colMeans", vec![pos(Type::mat(5, 7))]),
        Ok(Type::num(7))
    );
    assert_eq!(
        shape("rowMeans", vec![pos(Type::mat(5, 7))]),
        Ok(Type::num(5))
    );
    assert!(shape("colMeans", vec![pos(Type::num(5))]).is_err());
    assert_eq!(
        shape("var", vec![pos(Type::mat(5, 7))]),
        Ok(Type::mat(7, 7))
    );
    assert_eq!(shape("var", vec![pos(Type::num(5))]), Ok(Type::num(1)));
    assert!(shape("var", vec![pos(Type::mat(5, 7)), pos(Type::mat(6, 2))]).is_err());
    assert_eq!(
        shape("diag", vec![pos(Type::scalar_const(4.0))]),
        Ok(Type::mat(4, 4))
    );
    assert_eq!(shape("diag", vec![pos(Type::mat(4, 6))]), Ok(Type::num(4)));
    assert_eq!(shape("diag", vec![pos(Type::num(3))]), Ok(Type::mat(3, 3)));
}

#[test]
fn index_shapes() {
    let m = Type::mat(5, 10);
    let row7 = index_type(&m, &[Some(Type::scalar_const(7.0)), None]).unwrap_err();
    assert_eq!(
        row7,
        (
            Some(0),
            "subscript out of bounds: row 7 of a 5x10 matrix".to_string()
        )
    );
    let col11 = index_type(&m, &[None, Some(Type::scalar_const(11.0))]).unwrap_err();
    assert_eq!(col11.0, Some(1));
    let big = Type::mat(1200, 1200);
    assert_eq!(
        index_type(&big, &[Some(Type::num(1)), None]),
        Ok(Type::num(1200))
    );
    assert_eq!(
        index_type(&big, &[None, Some(Type::num(1))]),
        Ok(Type::num(1200))
    );
    assert_eq!(
        index_type(
            &m,
            &[
                Some(Type::num_const(vec![1.0, 2.0])),
                Some(Type::num_const(vec![-1.0]))
            ]
        ),
        Ok(Type::mat(2, 9))
    );
    assert_eq!(
        index_type(
            &m,
            &[Some(Type::scalar_const(2.0)), Some(Type::scalar_const(3.0))]
        ),
        Ok(Type::num(1))
    );
    assert!(index_type(&Type::num(4), &[None, None]).is_err());
    let v = Type::num_const(vec![10.0, 20.0, 30.0]);
    assert_eq!(
        index_type(&v, &[Some(Type::scalar_const(-1.0))]),
        Ok(Type::num_const(vec![20.0, 30.0]))
    );
    let list = Type::List {
        len: Some(3),
        elem: Box::new(Type::mat(2, 2)),
    };
    assert_eq!(index2_type(&list, &Type::num(1)), Ok(Type::mat(2, 2)));
    assert!(index2_type(&list, &Type::scalar_const(4.0)).is_err());
    assert_eq!(index2_type(&Type::num(5), &Type::num(1)), Ok(Type::num(1)));
}

#[test]
fn hot_loop_body_is_bit_exact_with_a_row_gather() {
    // mean(c %*% a[i, ]) on a small instance: the row is gathered, the
    // product summed in BLAS order, the mean corrected in long double.
    let a = DMatrix::from_fn(4, 4, |i, j| (i * 4 + j) as f64 / 7.0);
    let c = DMatrix::from_fn(4, 4, |i, j| 1.0 / (1.0 + i as f64 + j as f64));
    let row = index(&Value::Mat(a.clone()), &[Some(Value::scalar(2.0)), None]).unwrap();
    assert_eq!(row, Value::Num(a.row(1).iter().copied().collect()));
    let p = call("%*%", vec![(None, Value::Mat(c.clone())), (None, row)]).unwrap();
    let Value::Mat(p) = p else {
        panic!("not a matrix")
    };
    let expect: Vec<f64> = (0..4)
        .map(|i| (0..4).fold(0.0, |s, l| s + c[(i, l)] * a[(1, l)]))
        .collect();
    assert_eq!(p.as_slice(), expect.as_slice());
}

/// Timing of the hot loop body at full size (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn hot_loop_body_timing() {
    let n = 1200;
    let a = Value::Mat(DMatrix::from_fn(n, n, |i, j| {
        ((i * 7 + j * 3) % 11) as f64 - 5.0
    }));
    let c = Value::Mat(DMatrix::from_fn(n, n, |i, j| {
        ((i + 2 * j) % 13) as f64 / 13.0
    }));
    let start = std::time::Instant::now();
    let mut acc = 0.0;
    for i in 1..=50 {
        let row = index(&a, &[Some(Value::scalar(i as f64)), None]).unwrap();
        let p = call("%*%", vec![(None, c.clone()), (None, row)]).unwrap();
        let m = call("mean", vec![(None, p)]).unwrap();
        acc += m.as_scalar().unwrap();
    }
    let per = start.elapsed().as_secs_f64() / 50.0;
    eprintln!("per iteration: {:.3} ms (acc {acc})", per * 1e3);
    let big = Value::Mat(DMatrix::from_fn(n, n, |i, j| (i as f64 - j as f64) / 7.0));
    let start = std::time::Instant::now();
    let _ = call("colMeans", vec![(None, big.clone())]).unwrap();
    eprintln!(
        "colMeans 1200x1200: {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let start = std::time::Instant::now();
    let _ = call("%*%", vec![(None, big.clone()), (None, big)]).unwrap();
    eprintln!(
        "1200^3 matmul: {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
}

#[test]
fn absurd_sizes_fail_instead_of_aborting() {
    let e = call(
        ":",
        vec![(None, Value::scalar(1.0)), (None, Value::scalar(1e15))],
    )
    .unwrap_err();
    assert!(e.0.contains("cannot allocate"), "{}", e.0);
    let e = call("diag", vec![(None, Value::scalar(1e6))]).unwrap_err();
    assert!(e.0.contains("cannot allocate"), "{}", e.0);
    let r = index2_type(&Type::num(3), &Type::scalar_const(f64::NAN));
    assert!(r.is_err());
    let e = index2(&Value::Num(vec![1.0]), &Value::scalar(NA)).unwrap_err();
    assert_eq!(e.0, "subscript out of bounds");
}
