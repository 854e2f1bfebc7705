//! The data kernels against R 4.2.2 (`tests/fixtures/r/data.R` wrote the
//! fixture): constructors, sequences and `read.csv` give R's values; bad
//! input gives R's messages; shape rules know sizes from constants.

use crate::common;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use common::{call, fixture, named, pos};
use flowcast::kernels::{registry, Args, Ctx, Rng, ShapeCtx, Type, Value};
use nalgebra::DMatrix;
use serde_json::Value as Json;

fn num(j: &Json) -> f64 {
    match j {
        Json::Number(n) => n.as_f64().expect("number"),
        Json::String(s) if s == "Inf" => f64::INFINITY,
        Json::String(s) if s == "-Inf" => f64::NEG_INFINITY,
        Json::String(_) => f64::NAN,
        other => panic!("not a number: {other}"),
    }
}

/// A fixture in flowcast's --out format, as a Value.
fn value(j: &Json) -> Value {
    match j {
        Json::Object(o) => {
            let dim: Vec<usize> = o["dim"]
                .as_array()
                .expect("dim")
                .iter()
                .map(|d| d.as_u64().expect("dim") as usize)
                .collect();
            let data: Vec<f64> = o["data"]
                .as_array()
                .expect("data")
                .iter()
                .map(num)
                .collect();
            Value::Mat(DMatrix::from_vec(dim[0], dim[1], data))
        }
        Json::Array(a) if a.iter().all(Json::is_boolean) => {
            Value::Bool(a.iter().map(serde_json::Value::as_bool).collect())
        }
        Json::Array(a)
            if a.iter().any(|x| {
                x.as_str()
                    .is_some_and(|s| !matches!(s, "NA" | "NaN" | "Inf" | "-Inf"))
            }) =>
        {
            Value::Str(
                a.iter()
                    .map(|s| s.as_str().unwrap_or("").to_string())
                    .collect(),
            )
        }
        Json::Array(a) => Value::Num(a.iter().map(num).collect()),
        other => Value::Num(vec![num(other)]),
    }
}

/// Exact equality, NA equal to NA (the bit patterns of NA differ between R's
/// integer-to-double coercion and ours, the values do not).
#[track_caller]
fn assert_same(got: &Value, want: &Value) {
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
    };
    let ok = match (got, want) {
        (Value::Mat(a), Value::Mat(b)) => {
            a.shape() == b.shape() && same(a.as_slice(), b.as_slice())
        }
        (Value::Num(a), Value::Num(b)) => same(a, b),
        (a, b) => a == b,
    };
    assert!(ok, "got {got:?}\nR gives {want:?}");
}

fn n(x: f64) -> Value {
    Value::scalar(x)
}

fn nv(x: &[f64]) -> Value {
    Value::Num(x.to_vec())
}

fn range(a: usize, b: usize) -> Value {
    Value::Num((a..=b).map(|i| i as f64).collect())
}

fn yes() -> Value {
    Value::flag(true)
}

fn check(case: &str, name: &str, args: Vec<(Option<&str>, Value)>) {
    let f = fixture("data");
    let got = call(name, args).unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_same(&got, &value(&f[case]));
}

#[test]
fn matrix_follows_r() {
    check(
        "matrix_cols",
        "matrix",
        vec![pos(range(1, 6)), pos(n(2.0)), pos(n(3.0))],
    );
    check(
        "matrix_byrow",
        "matrix",
        vec![
            pos(range(1, 6)),
            pos(n(2.0)),
            pos(n(3.0)),
            named("byrow", yes()),
        ],
    );
    check(
        "matrix_nrow_only",
        "matrix",
        vec![pos(range(1, 6)), pos(n(4.0))],
    );
    check(
        "matrix_ncol_only",
        "matrix",
        vec![pos(range(1, 7)), named("ncol", n(2.0))],
    );
    check(
        "matrix_recycle",
        "matrix",
        vec![pos(range(1, 6)), pos(n(4.0)), pos(n(4.0))],
    );
    check(
        "matrix_truncate",
        "matrix",
        vec![pos(range(1, 7)), pos(n(2.0)), pos(n(3.0))],
    );
    check("matrix_vector", "matrix", vec![pos(nv(&[1.5, 2.5, 3.5]))]);
    check(
        "matrix_scalar_fill",
        "matrix",
        vec![pos(n(0.0)), pos(n(2.0)), pos(n(3.0))],
    );
    check(
        "matrix_byrow_recycle",
        "matrix",
        vec![
            pos(range(1, 3)),
            pos(n(3.0)),
            pos(n(2.0)),
            named("byrow", yes()),
        ],
    );
}

#[test]
fn array_and_c_follow_r() {
    check(
        "array_2d",
        "array",
        vec![pos(range(1, 5)), named("dim", nv(&[2.0, 4.0]))],
    );
    check(
        "array_1d",
        "array",
        vec![pos(range(1, 3)), named("dim", n(5.0))],
    );
    check(
        "c_nums",
        "c",
        vec![pos(n(1.0)), pos(n(2.5)), pos(nv(&[3.0, 4.0]))],
    );
    let m = Value::Mat(DMatrix::from_vec(2, 2, vec![1.0, 2.0, 3.0, 4.0]));
    check("c_matrix", "c", vec![pos(m), pos(Value::Null), pos(n(9.0))]);
    let t = |b: bool| Value::flag(b);
    check(
        "c_logical_num",
        "c",
        vec![pos(t(true)), pos(n(2.0)), pos(t(false))],
    );
    check(
        "c_logical",
        "c",
        vec![pos(t(true)), pos(t(false)), pos(t(true))],
    );
    let mut args = vec![pos(n(1.0)), pos(Value::string("a")), pos(t(true))];
    for x in [
        1e5,
        0.1 + 0.2,
        123456.0,
        1e-4,
        1.0 / 3.0,
        1e15,
        100.0,
        -2.5,
        f64::INFINITY,
        123456.7,
        0.000123,
    ] {
        args.push(pos(n(x)));
    }
    check("c_strings", "c", args);
    // as.character's choice of digits and notation, on awkward numbers.
    let f = fixture("data");
    let many = &f["c_strings_many"];
    let Value::Num(x) = value(&many["x"]) else {
        panic!("numbers")
    };
    let got = call("c", vec![pos(Value::string("")), pos(Value::Num(x))]).expect("c");
    let Value::Str(mut got) = got else {
        panic!("strings")
    };
    got.remove(0);
    assert_same(&Value::Str(got), &value(&many["s"]));
    assert_eq!(call("c", vec![]).expect("c()"), Value::Null);
}

#[test]
fn seq_follows_r() {
    let s = |case: &str, args| check(case, "seq", args);
    s(
        "seq_by",
        vec![pos(n(1.0)), pos(n(10.0)), named("by", n(2.0))],
    );
    s(
        "seq_by_frac",
        vec![pos(n(0.0)), pos(n(1.0)), named("by", n(0.1))],
    );
    s(
        "seq_by_neg",
        vec![pos(n(10.0)), pos(n(1.0)), named("by", n(-3.0))],
    );
    s("seq_colon", vec![pos(n(2.0)), pos(n(6.0))]);
    s("seq_down", vec![pos(n(5.0)), pos(n(1.0))]);
    s("seq_frac_from", vec![pos(n(1.5)), pos(n(4.0))]);
    s("seq_one", vec![pos(n(5.0))]);
    s("seq_one_neg", vec![pos(n(-1.0))]);
    s(
        "seq_length",
        vec![pos(n(0.0)), pos(n(1.0)), named("length.out", n(11.0))],
    );
    s(
        "seq_length_from",
        vec![pos(n(2.0)), pos(n(11.0)), named("length.out", n(4.0))],
    );
    s(
        "seq_length_frac",
        vec![pos(n(1.0)), pos(n(10.0)), named("length", n(2.5))],
    );
    s(
        "seq_by_length",
        vec![
            pos(n(1.0)),
            named("by", n(2.0)),
            named("length.out", n(3.0)),
        ],
    );
    s(
        "seq_to_by_length",
        vec![
            named("to", n(10.0)),
            named("by", n(2.0)),
            named("length.out", n(3.0)),
        ],
    );
    s("seq_length_only", vec![named("length.out", n(3.0))]);
    s(
        "seq_by_overshoot",
        vec![pos(n(1.0)), pos(n(2.0)), named("by", n(0.3))],
    );
    s(
        "seq_same",
        vec![pos(n(5.0)), pos(n(5.0)), named("by", n(0.0))],
    );
    s(
        "seq_thirds",
        vec![pos(n(0.0)), pos(n(1.0)), named("length.out", n(4.0))],
    );
    check("seq_len", "seq_len", vec![pos(n(4.0))]);
}

fn csv_path(f: &str) -> Value {
    Value::string(&format!("tests/fixtures/csv/{f}"))
}

/// read.csv gives a data frame, as in R; the fixture holds R's
/// `unname(as.matrix(d))`, so the frame is compared as that matrix.
fn check_csv(case: &str, args: Vec<(Option<&str>, Value)>) {
    let f = fixture("data");
    let got = call("read.csv", args).unwrap_or_else(|e| panic!("{case}: {e}"));
    let Value::List(d) = &got else {
        panic!("{case}: not a data frame: {got:?}")
    };
    assert_eq!(d.class.as_deref(), Some("data.frame"), "{case}");
    let m = flowcast::kernels::frame::numeric_matrix(d, "as.matrix").unwrap();
    assert_same(&Value::Mat(m), &value(&f[case]));
}

#[test]
fn read_csv_follows_r() {
    check_csv("csv_basic", vec![pos(csv_path("basic.csv"))]);
    check_csv("csv_missing", vec![pos(csv_path("missing.csv"))]);
    check_csv("csv_quoted", vec![pos(csv_path("quoted.csv"))]);
    check_csv("csv_rownames", vec![pos(csv_path("rownames.csv"))]);
    check_csv(
        "csv_semicolon",
        vec![
            pos(csv_path("semicolon.csv")),
            named("sep", Value::string(";")),
        ],
    );
    check_csv(
        "csv_noheader",
        vec![
            pos(csv_path("noheader.csv")),
            named("header", Value::flag(false)),
        ],
    );
    check_csv("csv_crlf", vec![pos(csv_path("crlf.csv"))]);
    // Issue 13: R takes LF, CRLF or a lone CR as a line end (?scan); cr.csv
    // is crlf.csv with CR-only line ends, so R reads the same table.
    check_csv("csv_crlf", vec![pos(csv_path("cr.csv"))]);
    check_csv("csv_precision", vec![pos(csv_path("precision.csv"))]);
    check_csv(
        "csv_whitespace",
        vec![
            pos(csv_path("whitespace.csv")),
            named("sep", Value::string("")),
        ],
    );
    check_csv("csv_toomany", vec![pos(csv_path("toomany.csv"))]);
}

/// A column with a cell that is not a number is text, as in R: the file
/// reads as a data frame whose numeric columns stay usable.
#[test]
fn read_csv_keeps_text_columns_as_r_does() {
    let Value::List(d) = call("read.csv", vec![pos(csv_path("bad.csv"))]).unwrap() else {
        panic!("a data frame");
    };
    assert_eq!(d.class.as_deref(), Some("data.frame"));
    assert_eq!(d.field("a"), Some(&Value::Num(vec![1.0, 3.0, 5.0])));
    assert_eq!(
        d.field("b"),
        Some(&Value::Str(vec!["2".into(), "abc".into(), "6".into()]))
    );
}

#[test]
fn read_csv_errors_name_the_file() {
    let e = call("read.csv", vec![pos(csv_path("nope.csv"))]).expect_err("missing");
    assert!(
        e.0.starts_with(
            "cannot open file 'tests/fixtures/csv/nope.csv': No such file or directory"
        ),
        "{}",
        e.0
    );
}

fn err(name: &str, args: Vec<(Option<&str>, Value)>) -> String {
    call(name, args).expect_err("should fail").0
}

#[test]
fn bad_input_gives_r_messages() {
    let m = || range(1, 6);
    assert_eq!(
        err("matrix", vec![pos(m()), named("nrow", Value::string("a"))]),
        "non-numeric matrix extent"
    );
    assert_eq!(
        err("matrix", vec![pos(m()), named("nrow", n(-1.0))]),
        "invalid 'nrow' value (< 0)"
    );
    assert_eq!(
        err("matrix", vec![pos(m()), named("ncol", n(f64::NAN))]),
        "invalid 'ncol' value (too large or NA)"
    );
    assert_eq!(
        err("matrix", vec![pos(m()), pos(n(0.0))]),
        "data is too long"
    );
    assert_eq!(
        err("array", vec![pos(m()), named("dim", Value::Num(vec![]))]),
        "'dims' cannot be of length 0"
    );
    assert_eq!(
        err("array", vec![pos(m()), named("dim", nv(&[2.0, -1.0]))]),
        "negative length vectors are not allowed"
    );
    // An array of three dimensions is built (R's own dim attribute on its
    // numbers); dimnames on one are refused, naming the limit.
    let a = call("array", vec![pos(m()), named("dim", nv(&[1.0, 2.0, 3.0]))]).unwrap();
    assert_eq!(
        flowcast::kernels::arrays::array_dims(&a),
        Some(vec![1, 2, 3])
    );
    let no_names = flowcast::kernels::value::List::sequence(vec![Value::Null; 3]);
    let dimnames = Value::List(flowcast::kernels::value::List {
        items: vec![Value::Str(vec!["a".into()]), Value::Null, Value::Null],
        ..no_names
    });
    assert!(err(
        "array",
        vec![
            pos(m()),
            named("dim", nv(&[1.0, 2.0, 3.0])),
            named("dimnames", dimnames)
        ]
    )
    .contains("more than 2 dimensions"));
    let seq = |args| err("seq", args);
    assert_eq!(
        seq(vec![pos(n(1.0)), pos(n(10.0)), named("by", n(-1.0))]),
        "wrong sign in 'by' argument"
    );
    assert_eq!(
        seq(vec![pos(n(1.0)), pos(n(10.0)), named("by", n(0.0))]),
        "invalid '(to - from)/by'"
    );
    assert_eq!(
        seq(vec![pos(n(1.0)), pos(n(2.0)), pos(n(3.0)), pos(n(4.0))]),
        "too many arguments"
    );
    assert_eq!(
        seq(vec![pos(n(0.0)), pos(n(1.0)), named("length.out", n(-1.0))]),
        "'length.out' must be a non-negative number"
    );
    assert_eq!(
        seq(vec![pos(n(f64::NAN)), pos(n(1.0))]),
        "'from' must be a finite number"
    );
    assert_eq!(
        seq(vec![pos(nv(&[1.0, 2.0])), pos(n(1.0))]),
        "'from' must be of length 1"
    );
    assert_eq!(
        err("seq_len", vec![pos(n(-1.0))]),
        "argument must be coercible to non-negative integer"
    );
}

fn shape(name: &str, args: Vec<(Option<&str>, Type)>) -> Result<Type, String> {
    let k = registry().get(name).expect("kernel");
    let given = args
        .into_iter()
        .map(|(n, t)| (n.map(str::to_string), t))
        .collect();
    let a = Args::match_call(k.name, k.params, given).map_err(|e| e.message)?;
    let ctx = ShapeCtx {
        base_dir: Path::new(env!("CARGO_MANIFEST_DIR")),
        written: &[],
        closure: None,
        closure2: None,
    };
    (k.shape)(&a, &ctx).map_err(|e| e.message)
}

fn tc(x: f64) -> (Option<&'static str>, Type) {
    (None, Type::scalar_const(x))
}

#[test]
fn shapes_use_constants() {
    assert_eq!(
        shape("rnorm", vec![tc(1_440_000.0)]),
        Ok(Type::num(1_440_000))
    );
    assert_eq!(shape("runif", vec![(None, Type::num(7))]), Ok(Type::num(7)));
    assert_eq!(
        shape("rnorm", vec![(None, Type::num(1))]),
        Ok(Type::num_unknown())
    );
    let data = (None, Type::num(1_440_000));
    assert_eq!(
        shape("matrix", vec![data.clone(), tc(1200.0), tc(1200.0)]),
        Ok(Type::mat(1200, 1200))
    );
    assert_eq!(
        shape("matrix", vec![data, tc(1200.0)]),
        Ok(Type::mat(1200, 1200))
    );
    assert_eq!(
        shape("matrix", vec![(None, Type::num_unknown()), tc(3.0)]),
        Ok(Type::Mat {
            rows: Some(3),
            cols: None
        })
    );
    assert_eq!(
        shape(
            "seq",
            vec![tc(1.0), tc(10.0), (Some("by"), Type::scalar_const(2.0))]
        ),
        Ok(Type::num_const(vec![1.0, 3.0, 5.0, 7.0, 9.0]))
    );
    assert_eq!(
        shape("seq", vec![tc(1.0), tc(1e6)]),
        Ok(Type::num(1_000_000))
    );
    assert_eq!(
        shape(
            "seq",
            vec![
                tc(0.0),
                (None, Type::num(1)),
                (Some("length.out"), Type::scalar_const(50.0))
            ]
        ),
        Ok(Type::num(50))
    );
    assert_eq!(
        shape("c", vec![tc(1.0), tc(2.0), tc(3.0)]),
        Ok(Type::num_const(vec![1.0, 2.0, 3.0]))
    );
    assert_eq!(
        shape(
            "array",
            vec![tc(0.0), (Some("dim"), Type::num_const(vec![4.0, 5.0]))]
        ),
        Ok(Type::mat(4, 5))
    );
    assert_eq!(shape("sample", vec![tc(10.0), tc(3.0)]), Ok(Type::num(3)));
    let csv = shape(
        "read.csv",
        vec![(None, Type::str_const("tests/fixtures/csv/missing.csv"))],
    )
    .unwrap();
    assert_eq!(
        flowcast::kernels::frame::type_dims(&csv),
        Some((Some(4), Some(3)))
    );
    assert_eq!(shape("spin", vec![tc(0.5)]), Ok(Type::num(1)));
}

#[test]
fn shapes_reject_what_r_would() {
    let e = shape(
        "read.csv",
        vec![(None, Type::str_const("tests/fixtures/csv/nope.csv"))],
    );
    assert!(
        e.as_ref().is_err_and(|m| m.contains("cannot open file")),
        "{e:?}"
    );
    assert_eq!(
        shape(
            "seq",
            vec![tc(1.0), tc(10.0), (Some("by"), Type::scalar_const(-1.0))]
        ),
        Err("wrong sign in 'by' argument".to_string())
    );
    assert_eq!(
        shape("sample", vec![tc(5.0), tc(6.0)]),
        Err("cannot take a sample larger than the population when 'replace = FALSE'".to_string())
    );
    assert_eq!(
        shape("rnorm", vec![tc(-1.0)]),
        Err("invalid arguments".to_string())
    );
    assert_eq!(
        shape(
            "matrix",
            vec![
                (None, Type::num(6)),
                (Some("nrow"), Type::scalar_const(-2.0))
            ]
        ),
        Err("invalid 'nrow' value (< 0)".to_string())
    );
}

#[test]
fn spin_burns_the_time_and_stops_when_cancelled() {
    let got = call("spin", vec![pos(n(0.05))]).expect("spin");
    let secs = got.as_scalar().expect("number");
    assert!((0.05..1.0).contains(&secs), "{secs}");

    let k = registry().get("spin").expect("spin");
    let arg = n(30.0);
    let a = Args::match_call(k.name, k.params, vec![(None, &arg)]).expect("args");
    let mut rng = Rng::from_seed(1);
    let cancel = AtomicBool::new(true);
    let mut ctx = Ctx {
        rng: &mut rng,
        base_dir: Path::new("."),
        cancel: &cancel,
        warnings: Vec::new(),
        closure: None,
        closure2: None,
        integers: Vec::new(),
        messages: Default::default(),
    };
    let start = std::time::Instant::now();
    assert_eq!(
        (k.eval)(&a, &mut ctx).expect_err("cancelled").0,
        "cancelled"
    );
    assert!(start.elapsed().as_secs_f64() < 1.0);
}

/// `apply` over a margin of extent 0 gives FUN's type, emptied, as R's
/// `apply` does (R 4.2.2: `apply(matrix(numeric(0), 0, 3), 1, sum)` is
/// `numeric(0)`, with `range` too; `any` gives `logical(0)`, `paste`
/// `character(0)`); over the other margin FUN sees empty slices.
#[test]
fn apply_over_an_empty_margin_keeps_funs_type() {
    let empty = || Value::Mat(nalgebra::DMatrix::zeros(0, 3));
    let apply = |fun: &str, margin: f64| {
        call(
            "apply",
            vec![
                pos(empty()),
                pos(Value::scalar(margin)),
                pos(Value::string(fun)),
            ],
        )
        .unwrap()
    };
    assert_eq!(apply("sum", 1.0), Value::Num(Vec::new()));
    assert_eq!(apply("range", 1.0), Value::Num(Vec::new()));
    assert_eq!(apply("any", 1.0), Value::Bool(Vec::new()));
    assert_eq!(apply("paste", 1.0), Value::Str(Vec::new()));
    assert_eq!(apply("sum", 2.0), Value::Num(vec![0.0; 3]));
}
