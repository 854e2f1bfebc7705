//! R's random streams, bit for bit: every number here was printed by R 4.2.2
//! (`tests/fixtures/r/rng.R`), and is compared by its bit pattern, because a
//! workflow's results must equal R's exactly after `set.seed`.

mod common;

use common::{call_seeded, fixture, named, pos};
use flowcast::kernels::nmath::qnorm::qnorm;
use flowcast::kernels::{Rng, Value};
use serde_json::Value as Json;

/// A fixture vector (a bare number is a vector of length one).
fn nums(j: &Json) -> Vec<f64> {
    let one = |x: &Json| match x {
        Json::Number(n) => n.as_f64().expect("number"),
        Json::String(s) if s == "Inf" => f64::INFINITY,
        Json::String(s) if s == "-Inf" => f64::NEG_INFINITY,
        Json::String(s) if s == "NaN" || s == "NA" => f64::NAN,
        other => panic!("not a number: {other}"),
    };
    match j {
        Json::Array(v) => v.iter().map(one).collect(),
        x => vec![one(x)],
    }
}

#[track_caller]
fn assert_bits(actual: &[f64], expected: &[f64]) {
    assert_eq!(actual.len(), expected.len(), "length differs");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            a.to_bits() == e.to_bits() || (a.is_nan() && e.is_nan()),
            "element {i}: got {a:?}, R gives {e:?}"
        );
    }
}

fn num_value(v: Value) -> Vec<f64> {
    match v {
        Value::Num(v) => v,
        other => panic!("expected a numeric vector, got {other:?}"),
    }
}

fn run(name: &str, args: Vec<(Option<&str>, Value)>, seed: i64) -> Vec<f64> {
    num_value(call_seeded(name, args, seed).expect("kernel failed"))
}

fn v(x: &[f64]) -> Value {
    Value::Num(x.to_vec())
}

fn s(x: f64) -> Value {
    Value::scalar(x)
}

fn yes() -> Value {
    Value::flag(true)
}

/// The values as R-SEMANTICS.md prints them (17 significant digits).
fn parse(v: &[&str]) -> Vec<f64> {
    v.iter().map(|s| s.parse().expect("number")).collect()
}

#[test]
fn r_semantics_checks() {
    let mut g = Rng::from_seed(42);
    let got: Vec<f64> = (0..5).map(|_| g.norm_rand()).collect();
    assert_bits(
        &got,
        &parse(&[
            "1.37095844714666848",
            "-0.56469817139608869",
            "0.36312841133733920",
            "0.63286260496104041",
            "0.40426832314099903",
        ]),
    );
    let mut g = Rng::from_seed(1);
    let got: Vec<f64> = (0..3).map(|_| g.norm_rand()).collect();
    assert_bits(
        &got,
        &parse(&[
            "-0.62645381074233242",
            "0.18364332422208224",
            "-0.83562861241004716",
        ]),
    );
    let mut g = Rng::from_seed(42);
    let got: Vec<f64> = (0..3).map(|_| g.unif_rand()).collect();
    assert_bits(
        &got,
        &parse(&[
            "0.91480604349635541",
            "0.93707541329786181",
            "0.28613953478634357",
        ]),
    );
    assert_eq!(
        Rng::from_seed(123).sample_int(100, 5),
        vec![31, 79, 51, 14, 67]
    );
    // kmeans(P8, 3) after set.seed(42) starts from rows 1 5 8.
    assert_eq!(Rng::from_seed(42).sample_int(8, 3), vec![1, 5, 8]);
}

#[test]
fn streams_for_several_seeds() {
    let f = fixture("rng");
    for case in f["streams"].as_array().expect("streams") {
        let seed = case["seed"].as_f64().expect("seed") as i64;
        assert_bits(
            &run("rnorm", vec![pos(s(25.0))], seed),
            &nums(&case["rnorm"]),
        );
        assert_bits(
            &run("runif", vec![pos(s(25.0))], seed),
            &nums(&case["runif"]),
        );
        assert_bits(
            &run("sample.int", vec![pos(s(100.0)), pos(s(10.0))], seed),
            &nums(&case["sample_int"]),
        );
        assert_bits(
            &run(
                "sample.int",
                vec![pos(s(7.0)), pos(s(30.0)), named("replace", yes())],
                seed,
            ),
            &nums(&case["sample_int_replace"]),
        );
        let mut g = Rng::from_seed(seed);
        let direct: Vec<f64> = (0..25).map(|_| g.norm_rand()).collect();
        assert_bits(&direct, &nums(&case["rnorm"]));
    }
}

#[test]
fn long_streams_cross_the_state_regeneration() {
    let f = fixture("rng");
    let mut g = Rng::from_seed(42);
    let got: Vec<f64> = (0..2000).map(|_| g.norm_rand()).collect();
    assert_bits(&got, &nums(&f["long_rnorm"]));
    assert_bits(
        &run("runif", vec![pos(s(3000.0))], 42),
        &nums(&f["long_runif"]),
    );
}

#[test]
fn qnorm_matches_r_4_2() {
    let f = fixture("rng");
    let q = &f["qnorm"];
    let p = nums(&q["p"]);
    let lower: Vec<f64> = p.iter().map(|&p| qnorm(p, 0.0, 1.0, true, false)).collect();
    let upper: Vec<f64> = p
        .iter()
        .map(|&p| qnorm(p, 0.0, 1.0, false, false))
        .collect();
    let shifted: Vec<f64> = p.iter().map(|&p| qnorm(p, 3.0, 2.0, true, false)).collect();
    assert_bits(&lower, &nums(&q["lower"]));
    assert_bits(&upper, &nums(&q["upper"]));
    assert_bits(&shifted, &nums(&q["mu3sd2"]));
    let q = &f["qnorm_log"];
    let p = nums(&q["p"]);
    let lower: Vec<f64> = p.iter().map(|&p| qnorm(p, 0.0, 1.0, true, true)).collect();
    let upper: Vec<f64> = p.iter().map(|&p| qnorm(p, 0.0, 1.0, false, true)).collect();
    assert_bits(&lower, &nums(&q["lower"]));
    assert_bits(&upper, &nums(&q["upper"]));
}

#[test]
fn sample_without_weights() {
    let f = fixture("rng");
    assert_bits(
        &run("sample", vec![pos(s(10.0))], 42),
        &nums(&f["sample_n10"]),
    );
    assert_bits(
        &run("sample.int", vec![pos(s(5.0)), pos(s(2.0))], 1),
        &nums(&f["sample_5_2"]),
    );
    assert_bits(
        &run("sample.int", vec![pos(s(8.0)), pos(s(3.0))], 42),
        &nums(&f["sample_8_3"]),
    );
    assert_bits(
        &run("sample.int", vec![pos(s(1.0)), pos(s(1.0))], 42),
        &nums(&f["sample_1"]),
    );
    let x = [5.0, 3.0, 9.0, 1.0, 7.0];
    assert_bits(&run("sample", vec![pos(v(&x))], 42), &nums(&f["sample_x"]));
    assert_bits(
        &run(
            "sample",
            vec![pos(v(&x)), pos(s(12.0)), named("replace", yes())],
            42,
        ),
        &nums(&f["sample_x_replace"]),
    );
    // Large populations: R's sample.int picks the hashing algorithm.
    assert_bits(
        &run("sample.int", vec![pos(s(2e7)), pos(s(5.0))], 42),
        &nums(&f["sample_big"]),
    );
    assert_bits(
        &run(
            "sample.int",
            vec![pos(s(2f64.powi(40))), pos(s(4.0)), named("replace", yes())],
            3,
        ),
        &nums(&f["sample_huge_replace"]),
    );
}

#[test]
fn sample_of_strings_keeps_strings() {
    let f = fixture("rng");
    let x = Value::Str(["a", "b", "c", "d"].map(String::from).to_vec());
    let got = call_seeded("sample", vec![pos(x)], 42).expect("sample");
    let want: Vec<String> = f["sample_chr"]
        .as_array()
        .expect("array")
        .iter()
        .map(|j| j.as_str().expect("string").to_string())
        .collect();
    assert_eq!(got, Value::Str(want));
}

#[test]
fn sample_with_weights() {
    let f = fixture("rng");
    let pr = &f["prob"];
    let p = v(&nums(&pr["p"]));
    assert_bits(
        &run(
            "sample.int",
            vec![
                pos(s(5.0)),
                pos(s(40.0)),
                pos(yes()),
                named("prob", p.clone()),
            ],
            42,
        ),
        &nums(&pr["replace"]),
    );
    assert_bits(
        &run(
            "sample.int",
            vec![pos(s(5.0)), pos(s(4.0)), named("prob", p)],
            42,
        ),
        &nums(&pr["noreplace"]),
    );
    assert_bits(
        &run(
            "sample",
            vec![
                pos(v(&[10.0, 20.0, 30.0])),
                pos(s(6.0)),
                pos(yes()),
                named("prob", v(&[2.0, 0.0, 5.0])),
            ],
            9,
        ),
        &nums(&pr["unnormalised"]),
    );
    // Over 200 likely outcomes: Walker's alias method.
    let w = &f["walker"];
    assert_bits(
        &run(
            "sample.int",
            vec![
                pos(s(300.0)),
                pos(s(60.0)),
                pos(yes()),
                named("prob", v(&nums(&w["p"]))),
            ],
            42,
        ),
        &nums(&w["replace"]),
    );
    assert_bits(
        &run(
            "sample.int",
            vec![
                pos(s(300.0)),
                pos(s(20.0)),
                pos(yes()),
                named("prob", v(&[1.0; 300])),
            ],
            42,
        ),
        &nums(&w["flat"]),
    );
}

#[test]
fn draws_recycle_their_parameters() {
    let f = fixture("rng");
    let got = run(
        "rnorm",
        vec![
            pos(s(6.0)),
            named("mean", v(&[0.0, 10.0, 100.0])),
            named("sd", v(&[1.0, 2.0])),
        ],
        42,
    );
    assert_bits(&got, &nums(&f["rnorm_args"]));
    let got = run(
        "rnorm",
        vec![
            pos(s(4.0)),
            named("mean", s(5.0)),
            named("sd", v(&[0.0, 1.0])),
        ],
        42,
    );
    assert_bits(&got, &nums(&f["rnorm_sd0"]));
    let got = run(
        "runif",
        vec![
            pos(s(5.0)),
            named("min", s(-2.0)),
            named("max", v(&[3.0, 4.0])),
        ],
        42,
    );
    assert_bits(&got, &nums(&f["runif_args"]));
    let got = run(
        "runif",
        vec![
            pos(s(3.0)),
            named("min", s(2.0)),
            named("max", v(&[2.0, 5.0, 2.0])),
        ],
        42,
    );
    assert_bits(&got, &nums(&f["runif_eq"]));
    assert_bits(
        &run("rnorm", vec![pos(v(&[9.0, 9.0, 9.0]))], 42),
        &nums(&f["rnorm_vec_n"]),
    );
    assert_bits(
        &run("rnorm", vec![pos(s(2.9))], 42),
        &nums(&f["rnorm_frac_n"]),
    );
}

#[test]
fn bad_counts_and_sizes_fail_like_r() {
    let err = |name: &str, args| call_seeded(name, args, 1).expect_err("should fail").0;
    assert_eq!(err("rnorm", vec![pos(s(-1.0))]), "invalid arguments");
    assert_eq!(err("rnorm", vec![pos(s(f64::NAN))]), "invalid arguments");
    assert_eq!(
        err("rnorm", vec![pos(Value::string("a"))]),
        "invalid arguments"
    );
    assert_eq!(
        err("sample", vec![pos(s(5.0)), pos(s(6.0))]),
        "cannot take a sample larger than the population when 'replace = FALSE'"
    );
    assert_eq!(
        err("sample", vec![pos(s(5.0)), named("prob", v(&[1.0, 2.0]))]),
        "incorrect number of probabilities"
    );
    assert_eq!(
        err(
            "sample",
            vec![
                pos(s(3.0)),
                pos(s(2.0)),
                named("prob", v(&[1.0, -1.0, 1.0]))
            ]
        ),
        "negative probability"
    );
    assert_eq!(
        err(
            "sample",
            vec![pos(s(3.0)), pos(s(3.0)), named("prob", v(&[1.0, 0.0, 1.0]))]
        ),
        "too few positive probabilities"
    );
    assert_eq!(
        err("sample", vec![pos(s(5.0)), pos(s(-1.0))]),
        "invalid 'size' argument"
    );
    assert_eq!(
        err("sample.int", vec![pos(s(-1.0))]),
        "invalid first argument"
    );
    assert_eq!(
        err("sample.int", vec![pos(s(0.0)), pos(s(1.0))]),
        "invalid first argument"
    );
}

#[test]
fn iteration_streams_do_not_depend_on_order() {
    // Drawing iteration 7 first or last gives the same numbers.
    let mut a = Rng::for_iteration(42, "b", 7);
    let first: Vec<f64> = (0..5).map(|_| a.norm_rand()).collect();
    for i in 0..7 {
        let mut g = Rng::for_iteration(42, "b", i);
        g.norm_rand();
    }
    let mut b = Rng::for_iteration(42, "b", 7);
    let again: Vec<f64> = (0..5).map(|_| b.norm_rand()).collect();
    assert_bits(&first, &again);
    // And it is R's set.seed of the documented integer seed.
    let k = Rng::iteration_seed(42, "b", 7);
    let mut c = Rng::from_seed(i64::from(k));
    let replay: Vec<f64> = (0..5).map(|_| c.norm_rand()).collect();
    assert_bits(&first, &replay);
}

/// Skipping n outputs leaves the stream exactly where n draws would, from
/// any position (within a block of 624, at its edge, across many).
#[test]
fn skip_equals_drawing() {
    for start in [0usize, 1, 300, 623, 624, 625] {
        for n in [0u64, 1, 2, 100, 623, 624, 625, 1247, 1248, 5000, 100_003] {
            let mut drawn = Rng::from_seed(42);
            let mut skipped = Rng::from_seed(42);
            for _ in 0..start {
                drawn.unif_rand();
                skipped.unif_rand();
            }
            for _ in 0..n {
                drawn.unif_rand();
            }
            skipped.skip(n);
            assert_eq!(drawn.drawn(), skipped.drawn());
            let next: Vec<f64> = (0..700).map(|_| drawn.unif_rand()).collect();
            let after: Vec<f64> = (0..700).map(|_| skipped.unif_rand()).collect();
            assert_bits(&after, &next);
        }
    }
}

/// `norm_rand` takes two uniforms, `unif_rand` one: the counts the graph
/// skips by.
#[test]
fn draws_are_counted() {
    let mut r = Rng::from_seed(3);
    r.norm_rand();
    assert_eq!(r.drawn(), 2);
    r.unif_rand();
    assert_eq!(r.drawn(), 3);
}
