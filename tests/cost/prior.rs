//! Priors on a fresh history: each task's operation count at its inferred
//! sizes, at a fixed machine speed (never the wall clock's), and the speed
//! stored in and reloaded from the history.

use crate::common;

use flowcast::cost::{speed, History, ModelKind, Predictor};
use flowcast::diagnostic::SourceFile;
use flowcast::graph::{build, TaskGraph};
use flowcast::kernels::work::Speed;
use flowcast::kernels::Work;

/// A nanosecond per op: round figures.
const SPEED: f64 = 1e-9;

fn graph(steps: &str) -> TaskGraph {
    let text = format!("[steps]\n{steps}");
    let wf = flowcast::workflow::parse(SourceFile::new("w.toml", text.as_str())).unwrap();
    build(&wf).unwrap()
}

fn fresh() -> Predictor {
    let mut p = Predictor::new(ModelKind::LogLinear);
    p.set_seconds_per_op(SPEED);
    p
}

fn predicted(g: &TaskGraph, step: &str) -> f64 {
    fresh().predict(g.task(step).unwrap())
}

#[test]
fn spin_costs_its_argument_whatever_the_speed() {
    let g = graph("s = \"spin(0.4)\"\nl = { for = \"i in 1:8\", do = \"spin(0.25)\" }");
    let s = predicted(&g, "s");
    assert!((s - 0.4).abs() < 1e-3, "{s}");
    let l = predicted(&g, "l");
    assert!((l - 2.0).abs() < 1e-2, "{l}");
    let mut slow = fresh();
    slow.set_seconds_per_op(100.0 * SPEED);
    // The step's own dispatch is ops: 100 times slower, it is a few
    // tenths of a millisecond.
    let s = slow.predict(g.task("s").unwrap());
    assert!((s - 0.4).abs() < 2e-3, "{s}");
}

#[test]
fn spin_costs_its_argument_after_other_spins_were_learnt() {
    // A history that saw only `spin(0.25)` iterations and a `spin(0.4)`
    // step: their sizes are those of any spin's, so only the argument can
    // tell the new ones apart.
    let trained = graph("s = \"spin(0.4)\"\nl = { for = \"i in 1:8\", do = \"spin(0.25)\" }");
    let mut p = fresh();
    for t in &trained.tasks {
        let key = flowcast::cost::model_key(t).unwrap();
        let per_call = if t.name == "l" { 0.25 } else { 0.4 };
        for _ in 0..5 {
            p.observe_one(&key, &flowcast::cost::model_features(t), per_call);
        }
    }
    p.retrain();
    let g = graph("s = \"spin(0.02)\"\nl = { for = \"i in 1:40\", do = \"spin(0.01)\" }");
    let s = p.predict(g.task("s").unwrap());
    assert!((s - 0.02).abs() < 1e-3, "{s}");
    let l = p.predict(g.task("l").unwrap());
    assert!((l - 0.4).abs() < 1e-2, "{l}");
}

#[test]
fn eigen_grows_as_n_cubed_and_general_costs_more_than_symmetric() {
    let g = graph(
        "a = \"matrix(rnorm(900 * 900), 900, 900)\"
b = \"matrix(rnorm(450 * 450), 450, 450)\"
general = \"eigen(a)\"
symmetric = \"eigen(a, symmetric = TRUE)\"
values = \"eigen(a, symmetric = TRUE, only.values = TRUE)\"
half = \"eigen(b)\"",
    );
    let general = predicted(&g, "general");
    let symmetric = predicted(&g, "symmetric");
    let values = predicted(&g, "values");
    assert!(general > 1.5 * symmetric, "{general} vs {symmetric}");
    assert!(symmetric > 1.5 * values, "{symmetric} vs {values}");
    // Seconds, not nanoseconds: 900³ is 7·10⁸ flops, times eigen's constant.
    assert!((1.0..100.0).contains(&general), "{general}");
    let ratio = general / predicted(&g, "half");
    assert!((7.5..8.5).contains(&ratio), "{ratio}");
}

/// `eigen(crossprod(a))` takes R's symmetric path without being told:
/// its prior is the symmetric one (plus the product), not the general one.
#[test]
fn eigen_of_a_matrix_known_symmetric_is_priced_symmetric() {
    let g = graph(
        "a = \"matrix(rnorm(900 * 900), 900, 900)\"
c = \"crossprod(a)\"
inferred = \"eigen(c)\"
told = \"eigen(c, symmetric = TRUE)\"
general = \"eigen(a)\"",
    );
    let inferred = predicted(&g, "inferred");
    let told = predicted(&g, "told");
    let general = predicted(&g, "general");
    assert!(
        (inferred - told).abs() <= 1e-9 * told,
        "{inferred} vs {told}"
    );
    assert!(general > 1.5 * inferred, "{general} vs {inferred}");
}

#[test]
fn the_prior_scales_with_the_machine_speed() {
    let g = graph("a = \"matrix(rnorm(500 * 500), 500, 500)\"\nq = \"qr(a)\"");
    let mut slow = fresh();
    slow.set_seconds_per_op(3.0 * SPEED);
    let ratio = slow.predict(g.task("q").unwrap()) / predicted(&g, "q");
    assert!((ratio - 3.0).abs() < 1e-9, "{ratio}");
}

/// `mean(c %*% a[i, ])` costs the product, 2·n² flops per iteration, not a
/// mean of n numbers.
#[test]
fn a_loop_is_predicted_by_its_whole_body() {
    let g = graph(
        "a = \"matrix(rnorm(900 * 900), 900, 900)\"
c = \"matrix(rnorm(900 * 900), 900, 900)\"
b = { for = \"i in 1:1200\", do = \"mean(c %*% a[i, ])\" }
m = { for = \"i in 1:1200\", do = \"mean(a[i, ])\" }",
    );
    let b = g.task("b").unwrap();
    // A matrix-vector product: 2·n² flops, about an op each (it streams
    // the matrix from the cache).
    let product = 2.0 * 900.0 * 900.0;
    assert_eq!(b.work.streamed + b.work.fetched, 900.0 * 900.0 + 900.0);
    let per_iteration = b.work.equivalent_ops() / product;
    assert!((0.8..1.5).contains(&per_iteration), "{per_iteration}");
    let total = predicted(&g, "b") / (1200.0 * b.work.seconds_at(Speed::at(SPEED)));
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // The same loop without the product: a row copied out and its mean,
    // 50 times cheaper on the development machine (0.55 ms against 11 µs).
    let ratio = predicted(&g, "b") / predicted(&g, "m");
    assert!((30.0..120.0).contains(&ratio), "{ratio}");
}

/// R's long-double sums wait on each add: priced at the machine's
/// measured seconds per add, not at its seconds per op, so a machine
/// whose FPU is slow for its memory gets slower sums and nothing else.
#[test]
fn long_double_sums_are_priced_at_their_own_speed() {
    let g = graph(
        "x = \"rnorm(1e6)\"
s = \"sum(x)\"
m = \"mean(x)\"
l = { for = \"i in 1:100\", do = \"sum(x[1:(i * 1000)])\" }
d = \"dist(matrix(x[1:30000], 1000))\"",
    );
    // One add per element; mean's correction pass is a second.
    assert_eq!(g.task("s").unwrap().work.ld_adds, 1e6);
    assert_eq!(g.task("m").unwrap().work.ld_adds, 2e6);
    assert_eq!(g.task("d").unwrap().work.ld_adds, 0.0);
    let base = fresh();
    let mut slow_fpu = fresh();
    slow_fpu.set_speed(Speed {
        per_ld_add: 3.0 * base.speed().per_ld_add,
        ..Speed::at(SPEED)
    });
    let ratio = |step: &str| {
        let t = g.task(step).unwrap();
        slow_fpu.predict(t) / base.predict(t)
    };
    // A sum is nearly all adds; the loop's gathers are not.
    assert!((2.8..3.0).contains(&ratio("s")), "{}", ratio("s"));
    assert!((1.3..2.8).contains(&ratio("l")), "{}", ratio("l"));
    assert_eq!(ratio("d"), 1.0);
    assert_eq!(ratio("x"), 1.0);
}

/// A matrix-vector product only reads its matrix: priced at the measured
/// speed of the cache when the matrix fits there, of memory when it is
/// far bigger, so a machine with slow memory gets slower products of big
/// matrices and nothing else.
#[test]
fn products_read_their_operands_at_the_measured_bandwidth() {
    let g = graph(
        "small = \"matrix(0, 100, 100)\"
v = \"rnorm(100)\"
near = \"small %*% v\"
t = \"crossprod(small, v)\"
big = \"matrix(0, 40000, 40000)\"
w = \"rnorm(40000)\"
far = \"big %*% w\"
l = { for = \"i in 1:10\", do = \"mean(small %*% v)\" }
e = \"eigen(small)\"",
    );
    let near = g.task("near").unwrap().work;
    // 80 kB fits any last-level cache; 12.8 GB none.
    assert_eq!((near.streamed, near.fetched), (10_100.0, 0.0));
    assert_eq!(g.task("t").unwrap().work.streamed, 10_100.0);
    let far = g.task("far").unwrap().work;
    assert_eq!((far.streamed, far.fetched), (0.0, 1.6e9 + 40_000.0));
    // A loop's iteration reads what its product reads.
    assert_eq!(g.task("l").unwrap().work.streamed, 10_100.0);
    assert_eq!(g.task("e").unwrap().work.streamed, 0.0);
    let base = fresh();
    let mut slow_memory = fresh();
    slow_memory.set_speed(Speed {
        per_fetched: 3.0 * base.speed().per_fetched,
        ..base.speed()
    });
    let ratio = |step: &str| {
        let t = g.task(step).unwrap();
        slow_memory.predict(t) / base.predict(t)
    };
    assert!((2.5..3.0).contains(&ratio("far")), "{}", ratio("far"));
    for step in ["near", "t", "l", "e", "big"] {
        assert_eq!(ratio(step), 1.0, "{step}");
    }
}

/// `x[a:b]` of a vector and `m[, j]` of a matrix copy slices (the
/// evaluator never builds a vector's `a:b`): priced at a fraction of
/// picking as many elements one by one.
#[test]
fn slices_cost_less_than_picked_elements() {
    let g = graph(
        "x = \"rnorm(1e6)\"
m = \"matrix(x, 1000)\"
slice = \"x[1:500000]\"
picked = \"x[500000:1]\"
column = \"m[, 3]\"
reversed = \"m[1000:1, 3]\"",
    );
    let ops = |step: &str| g.task(step).unwrap().work.ops;
    // A copy of 500,000 numbers, and no vector 1:500000 built or read.
    assert!((5e5..6e5).contains(&ops("slice")), "{}", ops("slice"));
    assert!(ops("picked") > 6.0 * ops("slice"), "{}", ops("picked"));
    assert!(ops("reversed") > 3.0 * ops("column"), "{}", ops("column"));
}

#[test]
fn every_step_in_an_expression_counts() {
    let g = graph("a = \"array(rnorm(1000 * 1000), dim = c(1000, 1000))\"");
    let a = g.task("a").unwrap();
    // A million normal draws, then a million copied.
    let r = g.task("a").unwrap().work.ops;
    let draws_only = graph("v = \"rnorm(1000 * 1000)\"").tasks[0].work.ops;
    assert!(r > draws_only + 0.9e6, "{r} vs {draws_only}");
    assert!(predicted(&g, "a") > 1e-3, "{a:?}");
}

#[test]
fn huge_sizes_give_finite_costs() {
    let g = graph(
        "a = \"matrix(0, 1e8, 1e8)\"
e = \"eigen(a)\"
s = \"spin(1e300)\"",
    );
    let p = fresh();
    for t in &g.tasks {
        let s = p.predict(t);
        assert!(s.is_finite() && s >= 0.0, "{}: {s}", t.name);
    }
    let w = Work::ops(f64::INFINITY) + Work::ops(f64::NAN);
    assert!(w.seconds_at(Speed::at(1.0)).is_finite());
}

#[test]
fn the_speed_is_stored_and_reloaded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let h = History::open(&path).unwrap();
    assert_eq!(h.load_speed().unwrap(), None);
    // Without a stored speed a predictor uses the default.
    let p = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    assert_eq!(p.seconds_per_op(), speed::DEFAULT_SECONDS_PER_OP);
    let stored = Speed {
        per_op: 2.5e-9,
        per_ld_add: 7e-9,
        per_streamed: 1e-9,
        per_fetched: 4e-9,
    };
    h.save_speed(stored).unwrap();
    drop(h);
    let h = History::open(&path).unwrap();
    assert_eq!(h.load_speed().unwrap(), Some(stored));
    assert_eq!(speed::stored_or_measured(&h).unwrap(), stored);
    let p = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    assert_eq!(p.speed(), stored);
    let g = graph("a = \"matrix(rnorm(300 * 300), 300, 300)\"\nq = \"qr(a)\"");
    let ratio = p.predict(g.task("q").unwrap()) / predicted(&g, "q");
    assert!((ratio - 2.5).abs() < 1e-9, "{ratio}");
}

#[test]
fn a_fresh_history_measures_the_speed_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let h = History::open(&path).unwrap();
    let s = speed::stored_or_measured(&h).unwrap();
    for v in [s.per_op, s.per_ld_add, s.per_streamed, s.per_fetched] {
        assert!(v > 0.0 && v.is_finite(), "{s:?}");
    }
    assert_eq!(h.load_speed().unwrap(), Some(s));
}

#[test]
fn calibrate_stores_and_prints_the_speed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let out = common::flowcast(&["calibrate", "--history", path.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("s/op"), "{stdout}");
    assert!(stdout.contains("s per long-double add"), "{stdout}");
    let h = History::open(&path).unwrap();
    let s = h.load_speed().unwrap().expect("a stored speed");
    assert!(s.per_op > 0.0 && s.per_ld_add > 0.0, "{s:?}");
}

/// A tall QR is LINPACK's unblocked passes over its columns: its prior
/// grows with every cell, not only with the flops a blocked product would
/// do, so it costs more than copying the matrix, and its columns' passes
/// make it grow faster than its cells.
#[test]
fn a_tall_qr_costs_its_passes_over_the_columns() {
    let g = graph(
        "x2 = \"matrix(rnorm(2000000), 1000000, 2)\"
x8 = \"matrix(rnorm(8000000), 1000000, 8)\"
copy = \"c(x2, x2)\"
q2 = \"qr(x2)\"
q8 = \"qr(x8)\"
fit2 = \"lm.fit(x2, x2[, 1])\"",
    );
    let (copy, q2, q8, fit2) = (
        predicted(&g, "copy"),
        predicted(&g, "q2"),
        predicted(&g, "q8"),
        predicted(&g, "fit2"),
    );
    assert!(q2 > 2.0 * copy, "{q2} vs a copy of twice its cells, {copy}");
    assert!(q8 > 4.0 * q2, "{q8} vs {q2}");
    assert!(fit2 > q2, "{fit2} vs {q2}");
}

/// Measured on the 2-core VM: svd(nu = 0, nv = 0) of 1000 x 1000 took 202
/// ms against 423 ms with vectors, not the 4.5x less their flops say; a
/// 4000 x 200 one took 19 ms for values, 49 ms with its thin u.
#[test]
fn singular_values_alone_cost_half_the_vectors_and_a_tall_u_its_length() {
    let g = graph(
        "sq = \"matrix(rnorm(1000000), 1000)\"
tl = \"matrix(rnorm(800000), 4000)\"
wd = \"t(tl)\"
sq_values = \"svd(sq, nu = 0, nv = 0)\"
sq_vectors = \"svd(sq)\"
tl_values = \"svd(tl, nu = 0, nv = 0)\"
tl_vectors = \"svd(tl)\"
tl_v_only = \"svd(tl, nu = 0)\"
wd_vectors = \"svd(wd)\"
wd_u_only = \"svd(wd, nv = 0)\"",
    );
    let p = |s| predicted(&g, s);
    let square = p("sq_vectors") / p("sq_values");
    assert!((1.5..3.0).contains(&square), "{square}");
    let tall = p("tl_vectors") / p("tl_values");
    assert!((1.7..3.0).contains(&tall), "{tall}");
    // Without u, a tall matrix's vectors are only v: n x n.
    assert!(p("tl_v_only") < 0.7 * p("tl_vectors"));
    // A wide one's long side is v.
    assert!((p("wd_vectors") / p("tl_vectors") - 1.0).abs() < 1e-9);
    assert!(p("wd_u_only") < 0.7 * p("wd_vectors"));
}

/// glm's gaussian family with its identity link converges on IRLS's second
/// iteration; binomial takes more.
#[test]
fn a_gaussian_glm_is_priced_below_a_logistic_one() {
    let g = graph(
        "x = \"rnorm(100000)\"
y = \"runif(100000)\"
gauss = \"glm(x ~ y)\"
logit = \"glm(x > 0 ~ y, family = binomial)\"
named = \"glm(x > 0 ~ y, family = 'binomial')\"
fit = \"lm(x ~ y)\"",
    );
    let (gauss, logit, named, fit) = (
        predicted(&g, "gauss"),
        predicted(&g, "logit"),
        predicted(&g, "named"),
        predicted(&g, "fit"),
    );
    assert!(logit > 1.5 * gauss, "{logit} vs {gauss}");
    assert!((named / logit - 1.0).abs() < 0.05, "{named} vs {logit}");
    assert!(gauss > fit, "{gauss} vs {fit}");
}

/// Kendall's tau costs m·log m per pair of columns, far above a Pearson
/// correlation's one pass; Spearman's ranks each column before it.
#[test]
fn rank_correlations_are_priced_by_their_sorts() {
    let g = graph(
        "x = \"rnorm(15000)\"
y = \"rnorm(15000)\"
m = \"matrix(rnorm(20000 * 30), 20000, 30)\"
pearson = \"cor(x, y)\"
kendall = \"cor(x, y, method = \\\"kendall\\\")\"
spearman = \"cor(m, method = \\\"spearman\\\")\"
columns = \"cor(m)\"
small = \"matrix(rnorm(2000 * 10), 2000, 10)\"
taus = \"cor(small, method = \\\"k\\\")\"",
    );
    // R matches "k" to Kendall's; ten columns make 55 pairs, each counted
    // once.
    let taus = predicted(&g, "taus");
    let counts = 55.0 * 77.0 * 2000.0 * 2000f64.log2() * SPEED;
    assert!((taus - counts).abs() < 0.05 * counts, "{taus} vs {counts}");
    let (pearson, kendall) = (predicted(&g, "pearson"), predicted(&g, "kendall"));
    // One Knight's count, 15000 · log2(15000) · 77 ops, against 16 per
    // element of both: 33x.
    assert!(kendall > 25.0 * pearson, "{kendall} vs {pearson}");
    assert!((1e-3..1e-1).contains(&kendall), "{kendall}");
    let (spearman, columns) = (predicted(&g, "spearman"), predicted(&g, "columns"));
    // 30 columns of 20000 ranked: 30 · 20000 · 14.3 · 11.5 ops.
    let ranks = 30.0 * 20000.0 * 20000f64.log2() * 11.5 * SPEED;
    assert!(
        (spearman - columns - ranks).abs() < 0.05 * ranks,
        "{spearman} - {columns} vs {ranks}"
    );
}

#[test]
fn an_optimisers_objective_is_charged_for_its_typical_calls() {
    // spin(0.001) in the body: the prior counts the body's calls in ms.
    let body = "function(p) { spin(0.001); sum((p - 1:2)^2) }";
    let g = graph(&format!(
        "sann = \"optim(c(0, 0), {body}, method = 'SANN')\"\n\
         nm = \"optim(c(0, 0), {body})\"\n\
         bfgs = \"optim(c(0, 0), {body}, method = 'BFGS')\"\n\
         bfgs_gr = \"optim(c(0, 0), {body}, function(p) 2 * (p - 1:2), method = 'B')\"\n\
         hess = \"optim(c(0, 0), {body}, method = 'BFGS', hessian = TRUE)\"\n\
         nlm = \"nlm({body}, c(0, 0))\"\n\
         nlminb = \"nlminb(c(0, 0), {body})\"\n\
         once = \"optimize(function(x) {{ spin(0.001); x^2 }}, c(-1, 1))\""
    ));
    let ms = |step: &str| predicted(&g, step) / 1e-3;
    // SANN calls fn exactly maxit (10000) times; Nelder-Mead 25n² times
    // below maxit. Each call also binds the closure and runs the sum
    // (about 10 µs at this test's slow speed).
    let sann = ms("sann");
    assert!((10_000.0..10_250.0).contains(&sann), "{sann}");
    let nm = ms("nm");
    assert!((100.0..103.0).contains(&nm), "{nm}");
    // A gradient search calls fn dozens of times, more without gr (the
    // numerical gradient's calls) and more again for the hessian.
    let (bfgs, bfgs_gr, hess) = (ms("bfgs"), ms("bfgs_gr"), ms("hess"));
    assert!((20.0..200.0).contains(&bfgs), "{bfgs}");
    assert!(bfgs_gr < bfgs && bfgs_gr >= 10.0, "{bfgs_gr} {bfgs}");
    assert!(hess > bfgs, "{hess} {bfgs}");
    for step in ["nlm", "nlminb"] {
        let t = ms(step);
        assert!((10.0..200.0).contains(&t), "{step}: {t}");
    }
    let once = ms("once");
    assert!((5.0..30.0).contains(&once), "{once}");
}

#[test]
fn a_sequential_loop_in_a_step_is_charged_for_each_iteration() {
    // spin(0.001) in the body: the prior counts the iterations in ms.
    let g = graph(
        "f = \"{ s <- 0; for (i in 1:40) { spin(0.001); s <- s + i }; s }\"\n\
         nested = \"{ for (i in 1:5) for (j in 1:4) spin(0.001); 1 }\"\n\
         broken = \"{ for (i in 1:40) { spin(0.001); if (i > 3) break }; 1 }\"\n\
         w = \"{ k <- 0; while (k < 40) { spin(0.001); k <- k + 1 }; k }\"\n\
         closure = \"sapply(1:10, function(n) { for (j in 1:3) spin(0.001); n })\"",
    );
    let ms = |step: &str| predicted(&g, step) / 1e-3;
    let f = ms("f");
    assert!((40.0..42.0).contains(&f), "{f}");
    let nested = ms("nested");
    assert!((20.0..21.0).contains(&nested), "{nested}");
    // A loop that may break is charged its whole sequence, at most.
    let broken = ms("broken");
    assert!((40.0..42.0).contains(&broken), "{broken}");
    // How often a while loop runs only the run tells: one iteration until
    // the step's own runs say more.
    let w = ms("w");
    assert!((1.0..1.5).contains(&w), "{w}");
    let closure = ms("closure");
    assert!((30.0..31.0).contains(&closure), "{closure}");
}

#[test]
fn a_simulated_p_value_is_priced_by_its_tables() {
    let g = graph(
        "x = \"matrix(c(12, 5, 7, 9, 3, 8), 2)\"\n\
         plain = \"chisq.test(x)\"\n\
         sim = \"chisq.test(x, simulate.p.value = TRUE, B = 20000)\"\n\
         few = \"chisq.test(x, simulate.p.value = TRUE, B = 2000)\"\n\
         tables = \"r2dtable(1000, c(10, 20), c(5, 10, 15))\"",
    );
    let (plain, sim, few) = (
        predicted(&g, "plain"),
        predicted(&g, "sim"),
        predicted(&g, "few"),
    );
    // 20000 tables of 6 cells at 600 ops each: 72 ms at a nanosecond an op.
    assert!((0.05..0.1).contains(&sim), "{sim}");
    assert!(sim > 200.0 * plain, "{sim} against {plain}");
    let ratio = sim / few;
    assert!((8.0..12.0).contains(&ratio), "{ratio}");
    // 1000 tables of 6 cells.
    let tables = predicted(&g, "tables");
    assert!((2e-3..6e-3).contains(&tables), "{tables}");
}

/// Kernels whose cost has a shape the element count misses: a product's
/// inner dimension (tcrossprod), the lags of an autocorrelation, the sorts
/// of p.adjust and a trimmed mean, strings keyed or formatted.
#[test]
fn priors_follow_each_kernels_own_shape() {
    let g = graph(
        "m = \"matrix(rnorm(400 * 300), 400, 300)\"
cp = \"crossprod(t(m))\"
tcp = \"tcrossprod(m)\"
x = \"rnorm(100000)\"
a10 = \"acf(x, lag.max = 10, plot = FALSE)\"
a40 = \"acf(x, lag.max = 40, plot = FALSE)\"
bh = \"p.adjust(x, 'BH')\"
bonf = \"p.adjust(x, 'bonferroni')\"
plain = \"mean(x)\"
trimmed = \"mean(x, trim = 0.1)\"
s = \"paste0('id', x)\"
xs = \"unique(x)\"
ss = \"unique(s)\"
tn = \"as.character(x)\"
short = \"strrep('ab', 10)\"
long = \"strrep('ab', 1e7)\"",
    );
    let p = |step: &str| predicted(&g, step);
    // x %*% t(x) of a 400 x 300 matrix: 2·400·400·300 flops either way.
    let (cp, tcp) = (p("cp"), p("tcp"));
    assert!(tcp > 0.5 * cp && tcp < 2.0 * cp, "{tcp} vs {cp}");
    // Four times the lags, about four times the work.
    let ratio = p("a40") / p("a10");
    assert!((3.0..4.5).contains(&ratio), "{ratio}");
    // Eleven passes of a multiply-add, against mean's two long-double ones.
    assert!(p("a10") > 4.0 * p("plain"), "{} {}", p("a10"), p("plain"));
    // BH orders the p-values twice; Bonferroni is one pass.
    assert!(p("bh") > 20.0 * p("bonf"), "{} {}", p("bh"), p("bonf"));
    assert!(
        p("trimmed") > 10.0 * p("plain"),
        "{} {}",
        p("trimmed"),
        p("plain")
    );
    // A string key is read from wherever the string lives; a number is in
    // the vector. Formatting a number with 15 digits costs hundreds of ops.
    assert!(p("ss") > 3.0 * p("xs"), "{} {}", p("ss"), p("xs"));
    assert!(p("tn") > 100.0 * p("plain"), "{} {}", p("tn"), p("plain"));
    // strrep copies times · nchar characters.
    assert!(
        p("long") > 100.0 * p("short"),
        "{} {}",
        p("long"),
        p("short")
    );
}

/// cwilcox counts only up to the statistic asked for: a tail far from
/// m·n/2 is cheap whatever m and n, the middle costs the whole table, and
/// qwilcox's answer is placed by the normal approximation.
#[test]
fn wilcoxon_distributions_are_priced_by_the_statistic_reached() {
    let g = graph(
        "far = \"dwilcox(1, 1e5, 1e5)\"
tail = \"pwilcox(10, 24, 24)\"
middle = \"pwilcox(288, 24, 24)\"
upper = \"pwilcox(566, 24, 24)\"
qmiddle = \"qwilcox(0.5, 24, 24)\"
qtail = \"qwilcox(1e-9, 24, 24)\"",
    );
    let p = |step: &str| predicted(&g, step);
    // R runs it in about a tenth of a second; the whole table's count
    // was millions of days.
    assert!(p("far") < 0.1, "{}", p("far"));
    // The whole table of 24 against 24: m·n·(m·n/2) counts of 8 ops.
    let middle = p("middle");
    assert!((1e-3..2e-3).contains(&middle), "{middle}");
    // The symmetry about m·n/2 folds the upper tail onto the lower.
    let (tail, upper) = (p("tail"), p("upper"));
    assert!(tail < middle / 20.0, "{tail} against {middle}");
    assert!((upper / tail - 1.0).abs() < 0.5, "{upper} against {tail}");
    assert!(
        (p("qmiddle") / middle - 1.0).abs() < 0.1,
        "{}",
        p("qmiddle")
    );
    assert!(p("qtail") < middle / 2.0, "{}", p("qtail"));
}
