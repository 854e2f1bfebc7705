//! dist, hclust, cutree and kmeans against R 4.2.2
//! (fixtures from tests/fixtures/r/clustering.R).

use crate::common;

use common::{assert_all_close, call, call_seeded, fixture, named, pos};
use flowcast::kernels::value::NA;
use flowcast::kernels::{registry, Args, ShapeCtx, Type, Value};
use nalgebra::DMatrix;
use serde_json::Value as Json;

/// A JSON number, array or "NA"/"Inf" string as numbers (R writes a
/// length-one vector as a bare number).
fn nums(j: &Json) -> Vec<f64> {
    fn one(j: &Json) -> f64 {
        match j {
            Json::Number(n) => n.as_f64().expect("number"),
            Json::String(s) if s == "NA" => NA,
            Json::String(s) if s == "NaN" => f64::NAN,
            Json::String(s) if s == "Inf" => f64::INFINITY,
            Json::String(s) if s == "-Inf" => f64::NEG_INFINITY,
            other => panic!("not a number: {other}"),
        }
    }
    match j {
        Json::Array(a) => a.iter().map(one).collect(),
        Json::Object(o) if o.contains_key("data") => nums(&o["data"]),
        other => vec![one(other)],
    }
}

fn matrix(j: &Json) -> DMatrix<f64> {
    let dim = nums(&j["dim"]);
    DMatrix::from_column_slice(dim[0] as usize, dim[1] as usize, &nums(&j["data"]))
}

fn string(s: &str) -> Value {
    Value::string(s)
}

fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    match v {
        Value::List(l) => l.field(name).unwrap_or_else(|| panic!("no field {name}")),
        other => panic!("not a list: {other:?}"),
    }
}

fn values(v: &Value) -> Vec<f64> {
    v.as_f64_slice().expect("numeric").into_owned()
}

/// Equal as numbers, NA matching NA exactly.
#[track_caller]
fn assert_same_na(actual: &[f64], expected: &[f64], rel: f64, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        if e.is_nan() {
            assert!(
                a.to_bits() == e.to_bits(),
                "{what}[{i}]: got {a}, R gives NA"
            );
        } else {
            assert!(
                common::close(*a, *e, rel),
                "{what}[{i}]: got {a:e}, R gives {e:e}"
            );
        }
    }
}

fn dist_of(x: &DMatrix<f64>, method: &str) -> Value {
    call(
        "dist",
        vec![pos(Value::Mat(x.clone())), named("method", string(method))],
    )
    .expect("dist")
}

#[test]
fn dist_every_method_matches_r() {
    let f = fixture("clustering");
    let cases = f["dist"].as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let method = case["method"].as_str().unwrap();
        let x = matrix(&case["x"]);
        let mut args = vec![pos(Value::Mat(x.clone())), named("method", string(method))];
        if let Some(p) = case.get("p") {
            args.push(named("p", Value::Num(nums(p))));
        }
        let d = call("dist", args).expect("dist");
        let what = format!("dist {method} {}x{}", x.nrows(), x.ncols());
        assert_same_na(
            &values(field(&d, "values")),
            &nums(&case["values"]),
            1e-13,
            &what,
        );
        assert_eq!(values(field(&d, "size")), vec![x.nrows() as f64]);
    }
}

#[test]
fn hclust_all_methods_match_r() {
    let f = fixture("clustering");
    for case in f["hclust"].as_array().unwrap() {
        let data = case["data"].as_str().unwrap();
        let method = case["method"].as_str().unwrap();
        let dm = case["dist_method"].as_str().unwrap();
        let what = format!("hclust({data}, {dm}, {method})");
        let d = dist_of(&matrix(&f["data"][data]), dm);
        let h = call("hclust", vec![pos(d), named("method", string(method))])
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let merge = matrix(&case["merge"]);
        assert_eq!(field(&h, "merge"), &Value::Mat(merge), "{what}: merge");
        assert_eq!(
            values(field(&h, "order")),
            nums(&case["order"]),
            "{what}: order"
        );
        assert_all_close(&values(field(&h, "height")), &nums(&case["height"]), 1e-10);
        assert_eq!(field(&h, "method"), &string(method));
        assert_eq!(field(&h, "dist.method"), &string(dm));
        check_cutree(&h, case, &what);
    }
}

fn check_cutree(h: &Value, case: &Json, what: &str) {
    let ks = nums(&case["cutree_k"]);
    for (k, expected) in ks.iter().zip(case["cutree"].as_array().unwrap()) {
        let g = call(
            "cutree",
            vec![pos(h.clone()), named("k", Value::scalar(*k))],
        )
        .unwrap_or_else(|e| panic!("{what}: cutree: {e}"));
        assert_eq!(values(&g), nums(expected), "{what}: cutree k = {k}");
    }
    let g = call(
        "cutree",
        vec![pos(h.clone()), named("k", Value::Num(ks.clone()))],
    )
    .unwrap();
    assert_eq!(
        g,
        Value::Mat(matrix(&case["cutree_kvec"])),
        "{what}: cutree k = {ks:?}"
    );
    if let Some(hs) = case.get("cutree_h").filter(|v| !v.is_null()) {
        let g = call(
            "cutree",
            vec![pos(h.clone()), named("h", Value::Num(nums(hs)))],
        )
        .unwrap();
        assert_eq!(
            g,
            Value::Mat(matrix(&case["cutree_by_h"])),
            "{what}: cutree by h"
        );
    }
}

#[test]
fn hclust_with_members_matches_r() {
    let f = fixture("clustering");
    let d = dist_of(&matrix(&f["data"]["tied10"]), "euclidean");
    let members = Value::Num(nums(&f["members_weights"]));
    for case in f["members"].as_array().unwrap() {
        let method = case["method"].as_str().unwrap();
        let h = call(
            "hclust",
            vec![
                pos(d.clone()),
                named("method", string(method)),
                named("members", members.clone()),
            ],
        )
        .unwrap();
        assert_eq!(
            field(&h, "merge"),
            &Value::Mat(matrix(&case["merge"])),
            "{method}"
        );
        assert_eq!(values(field(&h, "order")), nums(&case["order"]), "{method}");
        assert_all_close(&values(field(&h, "height")), &nums(&case["height"]), 1e-10);
    }
}

#[test]
fn hclust_five_points_reference_heights() {
    // R-SEMANTICS.md: the last two heights of P for each method.
    let p = DMatrix::from_column_slice(5, 2, &[1., 2., 6., 7., 15., 1., 1., 5., 8., 14.]);
    let expect = [
        ("complete", 9.21954445729289, 19.10497317454280),
        ("single", 5.65685424949238, 10.0),
        ("average", 7.47046205281519, 15.05441788668772),
        ("ward.D2", 10.51189802081432, 19.01841213140571),
        ("ward.D", 12.85978527554618, 20.68265603155744),
        ("centroid", 6.42989263777309, 12.92666001972340),
    ];
    for (method, h3, h4) in expect {
        let h = call(
            "hclust",
            vec![
                pos(dist_of(&p, "euclidean")),
                named("method", string(method)),
            ],
        )
        .unwrap();
        let height = values(field(&h, "height"));
        assert_all_close(&height[2..], &[h3, h4], 1e-13);
        assert_eq!(values(field(&h, "order")), vec![5., 1., 2., 3., 4.]);
    }
}

fn check_kmeans(km: &Value, out: &Json, what: &str) {
    for name in ["cluster", "size", "iter"] {
        assert_eq!(values(field(km, name)), nums(&out[name]), "{what}: {name}");
    }
    let centers = match field(km, "centers") {
        Value::Mat(m) => m.as_slice().to_vec(),
        other => panic!("{what}: centers {other:?}"),
    };
    assert_all_close(&centers, &nums(&out["centers"]), 1e-10);
    for name in ["totss", "withinss", "tot.withinss", "betweenss"] {
        let (a, e) = (values(field(km, name)), nums(&out[name]));
        assert_eq!(a.len(), e.len(), "{what}: {name}");
        for (a, e) in a.iter().zip(&e) {
            assert!(
                common::close(*a, *e, 1e-10),
                "{what}: {name} {a:e} vs R {e:e}"
            );
        }
    }
    match &out["ifault"] {
        Json::Null => assert_eq!(field(km, "ifault"), &Value::Null, "{what}: ifault"),
        j => assert_eq!(values(field(km, "ifault")), nums(j), "{what}: ifault"),
    }
}

#[test]
fn kmeans_given_centers_all_algorithms_match_r() {
    let f = fixture("clustering");
    for case in f["kmeans"].as_array().unwrap() {
        let data = case["data"].as_str().unwrap();
        let alg = case["algorithm"].as_str().unwrap();
        let centers = matrix(&case["centers"]);
        let iter_max = nums(&case["iter.max"]);
        let what = format!(
            "kmeans({data}, k = {}, {alg}, iter.max = {iter_max:?})",
            centers.nrows()
        );
        let km = call(
            "kmeans",
            vec![
                pos(Value::Mat(matrix(&f["data"][data]))),
                pos(Value::Mat(centers)),
                named("iter.max", Value::Num(iter_max)),
                named("algorithm", string(alg)),
            ],
        );
        match (&case["error"], km) {
            (Json::String(msg), Err(e)) => assert_eq!(&e.0, msg, "{what}"),
            (Json::String(msg), Ok(_)) => panic!("{what}: R fails with {msg}"),
            (_, Err(e)) => panic!("{what}: {e}"),
            (_, Ok(km)) => check_kmeans(&km, &case["output"], &what),
        }
    }
}

/// `set.seed(s); kmeans(x, k, nstart)`: needs R's generator bit for bit.
#[test]
fn kmeans_random_starts_match_r() {
    let f = fixture("clustering");
    for case in f["kmeans_seeded"].as_array().unwrap() {
        let data = case["data"].as_str().unwrap();
        let x = match case.get("x") {
            Some(x) => matrix(x),
            None => matrix(&f["data"][data]),
        };
        let alg = case["algorithm"].as_str().unwrap();
        let k = nums(&case["k"])[0];
        let nstart = nums(&case["nstart"])[0];
        let seed = nums(&case["seed"])[0] as i64;
        let what = format!("set.seed({seed}); kmeans({data}, {k}, nstart = {nstart}, {alg})");
        let km = call_seeded(
            "kmeans",
            vec![
                pos(Value::Mat(x)),
                pos(Value::scalar(k)),
                named("nstart", Value::scalar(nstart)),
                named("algorithm", string(alg)),
            ],
            seed,
        );
        match (&case["error"], km) {
            (Json::String(msg), Err(e)) => assert_eq!(&e.0, msg, "{what}"),
            (Json::String(msg), Ok(_)) => panic!("{what}: R fails with {msg}"),
            (_, Err(e)) => panic!("{what}: {e}"),
            (_, Ok(km)) => check_kmeans(&km, &case["output"], &what),
        }
    }
}

#[test]
fn errors_are_rs() {
    let f = fixture("clustering");
    let e = &f["errors"];
    let p = Value::Mat(matrix(&f["data"]["P"]));
    let p8 = matrix(&f["data"]["P8"]);
    let rows = |r: &[usize]| Value::Mat(p8.select_rows(r));
    let msg = |r: Result<Value, flowcast::kernels::KernelError>| r.expect_err("should fail").0;
    let expect = |name: &str| e[name].as_str().unwrap().to_string();

    let one = call(
        "dist",
        vec![pos(Value::Mat(DMatrix::from_element(1, 2, 1.0)))],
    )
    .unwrap();
    assert_eq!(msg(call("hclust", vec![pos(one)])), expect("hclust_one"));
    let d = call("dist", vec![pos(p.clone())]).unwrap();
    assert_eq!(
        msg(call("hclust", vec![pos(d.clone()), pos(string("foo"))])),
        expect("hclust_method")
    );
    assert!(msg(call("hclust", vec![pos(p.clone())])).contains("dist object"));
    assert_eq!(
        msg(call("dist", vec![pos(p.clone()), pos(string("foo"))])),
        expect("dist_method")
    );
    assert_eq!(
        msg(call(
            "dist",
            vec![
                pos(p.clone()),
                pos(string("minkowski")),
                named("p", Value::scalar(-1.0))
            ]
        )),
        expect("dist_p")
    );
    let h = call("hclust", vec![pos(d)]).unwrap();
    assert_eq!(
        msg(call("cutree", vec![pos(h), named("k", Value::scalar(6.0))])),
        expect("cutree_k")
    );
    let x8 = || pos(Value::Mat(p8.clone()));
    let km = |args| msg(call("kmeans", args));
    assert_eq!(
        km(vec![x8(), pos(rows(&[0, 0]))]),
        expect("kmeans_distinct")
    );
    assert_eq!(
        km(vec![pos(rows(&[0, 1])), pos(rows(&[0, 1, 2]))]),
        expect("kmeans_more")
    );
    assert_eq!(
        km(vec![x8(), pos(Value::Mat(p8.clone()))]),
        expect("kmeans_k_eq_m")
    );
    assert_eq!(
        km(vec![
            x8(),
            pos(Value::Mat(DMatrix::from_column_slice(3, 1, &[1., 2., 3.])))
        ]),
        expect("kmeans_cols")
    );
    assert_eq!(
        km(vec![
            pos(Value::Mat(DMatrix::from_column_slice(
                4,
                1,
                &[0., 0., 0., 10.]
            ))),
            pos(Value::Mat(DMatrix::from_column_slice(
                3,
                1,
                &[0., 100., 200.]
            ))),
        ]),
        expect("kmeans_empty")
    );
    assert_eq!(
        km(vec![
            x8(),
            pos(rows(&[0, 1])),
            named("iter.max", Value::scalar(0.0))
        ]),
        expect("kmeans_iter")
    );
    let mut with_na = p8.clone().insert_row(8, 1.0);
    with_na[(8, 0)] = NA;
    assert_eq!(
        km(vec![pos(Value::Mat(with_na)), pos(rows(&[0, 1]))]),
        expect("kmeans_na")
    );
    assert_eq!(
        km(vec![
            x8(),
            pos(Value::scalar(2.0)),
            named("algorithm", string("foo"))
        ]),
        expect("kmeans_alg")
    );
    let doubled = Value::Mat(p8.clone().insert_rows(8, 8, 0.0));
    let mut twice = match doubled {
        Value::Mat(m) => m,
        _ => unreachable!(),
    };
    for i in 0..8 {
        for j in 0..2 {
            twice[(i + 8, j)] = p8[(i, j)];
        }
    }
    assert_eq!(
        km(vec![
            pos(Value::Mat(twice)),
            pos(Value::scalar(9.0)),
            named("nstart", Value::scalar(2.0))
        ]),
        expect("kmeans_distinct_points")
    );
}

#[test]
fn kmeans_reference_example() {
    // R-SEMANTICS.md: Hartigan-Wong and Lloyd part ways on P8.
    let f = fixture("clustering");
    let p8 = matrix(&f["data"]["P8"]);
    let centers = Value::Mat(p8.rows(0, 3).into_owned());
    let run = |alg: &str| {
        call(
            "kmeans",
            vec![
                pos(Value::Mat(p8.clone())),
                pos(centers.clone()),
                named("algorithm", string(alg)),
            ],
        )
        .unwrap()
    };
    let hw = run("Hartigan-Wong");
    assert_eq!(
        values(field(&hw, "cluster")),
        vec![1., 1., 2., 2., 3., 1., 2., 3.]
    );
    assert_eq!(values(field(&hw, "tot.withinss")), vec![30.0]);
    let lloyd = run("Lloyd");
    assert_eq!(
        values(field(&lloyd, "cluster")),
        vec![1., 1., 2., 2., 3., 1., 3., 3.]
    );
    assert_all_close(
        &values(field(&lloyd, "tot.withinss")),
        &[34.3333333333333],
        1e-13,
    );
    // set.seed(42); kmeans(P8, 3) starts from rows 1 5 8.
    let seeded = call_seeded(
        "kmeans",
        vec![pos(Value::Mat(p8.clone())), pos(Value::scalar(3.0))],
        42,
    )
    .unwrap();
    assert_eq!(values(field(&seeded, "tot.withinss")), vec![30.0]);
    assert_eq!(
        values(field(&seeded, "cluster")),
        vec![1., 1., 3., 3., 2., 1., 3., 2.]
    );
}

fn shape_of(name: &str, args: Vec<(Option<&str>, Type)>) -> Result<Type, String> {
    let kernel = registry().get(name).unwrap();
    let given = args
        .into_iter()
        .map(|(n, t)| (n.map(str::to_string), t))
        .collect();
    let args = Args::match_call(kernel.name, kernel.params, given).map_err(|e| e.message)?;
    let ctx = ShapeCtx {
        base_dir: std::path::Path::new("."),
        written: &[],
        closure: None,
        closure2: None,
    };
    (kernel.shape)(&args, &ctx).map_err(|e| e.message)
}

#[test]
fn shapes_are_known_before_running() {
    let d = shape_of("dist", vec![(None, Type::mat(10, 3))]).unwrap();
    assert_eq!(d.field("values"), Some(&Type::num(45)));
    let h = shape_of(
        "hclust",
        vec![
            (None, d.clone()),
            (Some("method"), Type::str_const("ward.D2")),
        ],
    )
    .unwrap();
    assert_eq!(h.field("merge"), Some(&Type::mat(9, 2)));
    assert_eq!(h.field("height"), Some(&Type::num(9)));
    assert_eq!(h.field("order"), Some(&Type::num(10)));
    assert_eq!(h.field("method"), Some(&Type::str_const("ward.D2")));
    assert_eq!(h.field("dist.method"), Some(&Type::str_const("euclidean")));
    let g = shape_of(
        "cutree",
        vec![(None, h.clone()), (Some("k"), Type::scalar_const(3.0))],
    );
    assert_eq!(g.unwrap(), Type::num(10));
    let g = shape_of(
        "cutree",
        vec![
            (None, h.clone()),
            (Some("k"), Type::num_const(vec![2.0, 3.0])),
        ],
    );
    assert_eq!(g.unwrap(), Type::mat(10, 2));
    let e = shape_of(
        "cutree",
        vec![(None, h), (Some("k"), Type::scalar_const(11.0))],
    );
    assert_eq!(e.unwrap_err(), "elements of 'k' must be between 1 and 10");
    let e = shape_of(
        "hclust",
        vec![(None, d.clone()), (Some("method"), Type::str_const("foo"))],
    );
    assert_eq!(e.unwrap_err(), "invalid clustering method foo");
    assert!(shape_of("hclust", vec![(None, Type::mat(3, 3))]).is_err());
    let e = shape_of(
        "dist",
        vec![(None, Type::mat(3, 3)), (None, Type::str_const("m"))],
    );
    assert_eq!(e.unwrap_err(), "invalid distance method");

    let km = shape_of(
        "kmeans",
        vec![(None, Type::mat(100, 4)), (None, Type::scalar_const(5.0))],
    )
    .unwrap();
    assert_eq!(km.field("cluster"), Some(&Type::num(100)));
    assert_eq!(km.field("centers"), Some(&Type::mat(5, 4)));
    assert_eq!(km.field("size"), Some(&Type::num(5)));
    let km = shape_of(
        "kmeans",
        vec![(None, Type::mat(100, 4)), (None, Type::mat(3, 4))],
    )
    .unwrap();
    assert_eq!(km.field("withinss"), Some(&Type::num(3)));
    let e = shape_of(
        "kmeans",
        vec![(None, Type::mat(100, 4)), (None, Type::mat(3, 2))],
    );
    assert_eq!(
        e.unwrap_err(),
        "must have same number of columns in 'x' and 'centers'"
    );
    let e = shape_of(
        "kmeans",
        vec![(None, Type::mat(4, 4)), (None, Type::scalar_const(5.0))],
    );
    assert!(e.unwrap_err().contains("cannot take a sample larger"));
    // Unknown sizes are accepted.
    let km = shape_of("kmeans", vec![(None, Type::Any), (None, Type::Any)]).unwrap();
    assert_eq!(km.field("cluster"), Some(&Type::num_unknown()));
    let h = shape_of("hclust", vec![(None, Type::Any)]).unwrap();
    assert_eq!(h.field("merge").and_then(Type::dims), Some((None, Some(2))));
}

#[test]
fn shape_errors_point_at_arguments() {
    let e = shape_of(
        "kmeans",
        vec![
            (None, Type::mat(10, 2)),
            (None, Type::scalar_const(2.0)),
            (Some("iter.max"), Type::scalar_const(0.0)),
        ],
    );
    assert_eq!(e.unwrap_err(), "'iter.max' must be positive");
    let h = shape_of("hclust", vec![(None, Type::Any)]).unwrap();
    let k_unknown = Type::num_unknown();
    assert_eq!(
        shape_of("cutree", vec![(None, h), (Some("k"), k_unknown)]).unwrap(),
        Type::Any
    );
    let e = shape_of("cutree", vec![(None, Type::mat(3, 3))]);
    assert!(e.unwrap_err().contains("hclust object"));
}
