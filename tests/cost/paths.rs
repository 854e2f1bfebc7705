//! Path-aware cost models: each call's algorithm path in its model key,
//! symmetric matrices known from the file, the path a run took, and a
//! step's own recent times as its prediction (StarPU's history model).

use std::sync::atomic::AtomicBool;

use flowcast::cost::history::{History, RunRecord, TaskRecord};
use flowcast::cost::{model_key, ModelKind, Predictor, StepTimes};
use flowcast::diagnostic::SourceFile;
use flowcast::exec::RunOptions;
use flowcast::graph::{self, TaskGraph};
use flowcast::pipeline::{self, Learning};
use flowcast::sched::Scheduler;
use flowcast::workflow::{self, Workflow};

fn analyse(steps: &str) -> (Workflow, TaskGraph) {
    let text = format!("[workflow]\nname = \"paths\"\nseed = 3\n\n[steps]\n{steps}");
    let wf = workflow::parse(SourceFile::new("paths.toml", text)).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    (wf, g)
}

fn graph(steps: &str) -> TaskGraph {
    analyse(steps).1
}

fn key(g: &TaskGraph, step: &str) -> String {
    model_key(g.task(step).expect("step")).expect("a model")
}

fn known(g: &TaskGraph, step: &str) -> bool {
    g.task(step)
        .and_then(|t| t.path.as_ref())
        .expect("a path")
        .known
}

const MATRICES: &str = r#"
x = "matrix(rnorm(30 * 20), 30, 20)"
y = "matrix(rnorm(20 * 30), 20, 30)"
sq = "matrix(rnorm(400), 20, 20)"
"#;

#[test]
fn eigen_is_symmetric_on_matrices_known_symmetric() {
    let g = graph(&format!(
        "{MATRICES}
cp = \"eigen(crossprod(x))\"
v = \"eigen(var(x))\"
tx = \"eigen(t(x) %*% x)\"
xt = \"eigen(x %*% t(x))\"
gen = \"eigen(sq)\"
prod = \"eigen(x %*% y)\"
vals = \"eigen(crossprod(x), only.values = TRUE)\"
"
    ));
    for (step, inner) in [
        ("cp", "<crossprod>"),
        ("v", "<var>"),
        ("tx", "<%*%,t>"),
        ("xt", "<%*%,t>"),
    ] {
        assert_eq!(key(&g, step), format!("eigen{inner}[symmetric]"), "{step}");
        assert!(known(&g, step), "{step}");
    }
    assert_eq!(key(&g, "vals"), "eigen<crossprod>[symmetric,values]");
    // Not known to be symmetric: general, but only a guess (R checks).
    assert_eq!(key(&g, "gen"), "eigen[general]");
    assert_eq!(key(&g, "prod"), "eigen<%*%>[general]");
    for step in ["gen", "prod"] {
        assert!(!known(&g, step), "{step}");
    }
}

#[test]
fn eigen_follows_its_symmetric_argument() {
    let g = graph(&format!(
        "{MATRICES}
s = \"eigen(sq, symmetric = TRUE)\"
n = \"eigen(crossprod(x), symmetric = FALSE)\"
"
    ));
    assert_eq!(key(&g, "s"), "eigen[symmetric]");
    assert!(known(&g, "s"));
    assert_eq!(key(&g, "n"), "eigen<crossprod>[general]");
    assert!(known(&g, "n"));
}

#[test]
fn symmetric_flags_follow_the_expressions() {
    let g = graph(&format!(
        "{MATRICES}
cp = \"crossprod(x)\"
cpxx = \"crossprod(x, x)\"
v = \"var(x)\"
tx = \"t(x) %*% x\"
xt = \"x %*% t(x)\"
d = \"diag(3)\"
dv = \"diag(c(1, 2, 3))\"
inv = \"solve(cp)\"
alias = \"cp\"
both = \"sq + t(sq)\"
scaled = \"2 * cp - v\"
square = \"cp %*% cp\"
xy = \"x %*% y\"
cpxy = \"crossprod(x, t(y))\"
anti = \"sq - t(sq)\"
dm = \"diag(sq)\"
raw = \"sq\"
tr = \"t(sq)\"
sys = \"solve(cp, diag(20))\"
"
    ));
    let symmetric = |s: &str| g.task(s).expect("step").symmetric;
    for s in [
        "cp", "cpxx", "v", "tx", "xt", "d", "dv", "inv", "alias", "both", "scaled", "square",
    ] {
        assert!(symmetric(s), "{s} is symmetric");
    }
    for s in ["xy", "cpxy", "anti", "dm", "raw", "tr", "sys", "x"] {
        assert!(!symmetric(s), "{s} is not known to be symmetric");
    }
}

#[test]
fn svd_solve_hclust_kmeans_and_dist_paths() {
    let g = graph(&format!(
        "{MATRICES}
sv = \"svd(x)\"
sd0 = \"svd(x, nu = 0, nv = 0)\"
su = \"svd(x, nu = 0)\"
inv = \"solve(sq)\"
sys = \"solve(sq, sq)\"
d = \"dist(x)\"
dm = \"dist(x, method = \\\"minkowski\\\", p = 3)\"
hc = \"hclust(d)\"
ha = \"hclust(d, method = \\\"average\\\")\"
hw = \"hclust(d, \\\"ward.D2\\\")\"
hp = \"hclust(d, method = \\\"av\\\")\"
k = \"kmeans(x, 3)\"
kn = \"kmeans(x, 3, nstart = 10)\"
kl = \"kmeans(x, 3, iter.max = 20, algorithm = \\\"Forgy\\\")\"
"
    ));
    assert_eq!(key(&g, "sv"), "svd[vectors]");
    assert_eq!(key(&g, "sd0"), "svd[values]");
    assert_eq!(key(&g, "su"), "svd[vectors]");
    assert_eq!(key(&g, "inv"), "solve[inverse]");
    assert_eq!(key(&g, "sys"), "solve[system]");
    assert_eq!(key(&g, "d"), "dist[euclidean]");
    assert_eq!(key(&g, "dm"), "dist[minkowski]");
    assert_eq!(key(&g, "hc"), "hclust[complete]");
    assert_eq!(key(&g, "ha"), "hclust[average]");
    assert_eq!(key(&g, "hw"), "hclust[ward.D2]");
    assert_eq!(key(&g, "hp"), "hclust[average]");
    assert_eq!(key(&g, "k"), "kmeans[Hartigan-Wong]");
    assert_eq!(key(&g, "kn"), "kmeans[Hartigan-Wong,nstart=10]");
    assert_eq!(key(&g, "kl"), "kmeans[Lloyd,iter.max=20]");
    for s in ["sv", "sd0", "inv", "sys", "hc", "ha", "k", "kn", "kl"] {
        assert!(known(&g, s), "{s}");
    }
    // Functions with one algorithm keep their plain key.
    let g = graph("x = \"matrix(rnorm(30 * 20), 30, 20)\"\np = \"prcomp(x)\"\nq = \"qr(x)\"\n");
    assert_eq!(key(&g, "p"), "prcomp");
    assert_eq!(key(&g, "q"), "qr");
}

#[test]
fn rank_tests_are_exact_or_asymptotic_by_r_rule() {
    let g = graph(
        r#"
small = "rnorm(30)"
big = "rnorm(80)"
w1 = "wilcox.test(small)"
w2 = "wilcox.test(big)"
w3 = "wilcox.test(small, exact = FALSE)"
w4 = "wilcox.test(small, big)"
w5 = "wilcox.test(small, small)"
w6 = "wilcox.test(big, exact = TRUE)"
k1 = "ks.test(small, big)"
k2 = "ks.test(rnorm(200), rnorm(200))"
k3 = "ks.test(big, \"pnorm\")"
k4 = "ks.test(rnorm(150), \"pnorm\")"
"#,
    );
    // Exact by R's rule, a guess: ties fall back to the approximation.
    assert_eq!(key(&g, "w1"), "wilcox.test[exact]");
    assert!(!known(&g, "w1"));
    assert_eq!(key(&g, "w2"), "wilcox.test[asymptotic]");
    assert!(known(&g, "w2"));
    assert_eq!(key(&g, "w3"), "wilcox.test[asymptotic]");
    assert_eq!(key(&g, "w4"), "wilcox.test[asymptotic]");
    assert_eq!(key(&g, "w5"), "wilcox.test[exact]");
    assert_eq!(key(&g, "w6"), "wilcox.test[exact]");
    assert_eq!(key(&g, "k1"), "ks.test[exact]");
    assert!(known(&g, "k1"));
    assert_eq!(key(&g, "k2"), "ks.test<rnorm>[asymptotic]");
    assert_eq!(key(&g, "k3"), "ks.test[exact]");
    assert!(!known(&g, "k3"));
    assert_eq!(key(&g, "k4"), "ks.test<rnorm>[asymptotic]");
}

#[test]
fn loops_key_the_body_path() {
    let g = graph(&format!(
        "{MATRICES}
l = {{ for = \"i in 1:3\", do = \"eigen(crossprod(x) + i)\" }}
m = {{ for = \"i in 1:3\", do = \"mean(x)\" }}
"
    ));
    assert_eq!(key(&g, "l"), "loop:eigen<crossprod>[symmetric]");
    assert_eq!(key(&g, "m"), "loop:mean");
}

/// A step's model is keyed by the calls it makes beyond its outermost
/// one: `matrix(rnorm(n))` spends its time drawing, `matrix(1:n)` none, so
/// they must not train one model. Arithmetic, `c`, `:` and subscripts do
/// not split models; an assignment's outermost call is its value's, and a
/// block's is its last working statement's, in braces (a block's cost is
/// its own, not that call's).
#[test]
fn inner_calls_key_the_model() {
    let g = graph(&format!(
        r#"{MATRICES}
drawn = "matrix(rnorm(400 * 30) + 1, 400, 30)"
counted = "matrix(1:12000, 400, 30)"
literal = "matrix(c(1, 2, 3, 4), 2)"
summed = "sum(dist(x[1:10, ]))"
product = {{ for = "i in 1:3", do = "mean(x %*% y[, i])" }}
block = "{{ s <- crossprod(x); eigen(s, symmetric = TRUE)$values }}"
many = "sum(sqrt(abs(log(exp(sin(x))))))"
compared = "sum(runif(10) < 0.5)"
"#
    ));
    assert_eq!(key(&g, "drawn"), "matrix<rnorm>");
    assert_eq!(key(&g, "counted"), "matrix");
    assert_eq!(key(&g, "literal"), "matrix");
    assert_eq!(key(&g, "summed"), "sum<dist>");
    assert_eq!(key(&g, "product"), "loop:mean<%*%>");
    assert_eq!(key(&g, "block"), "{$}<crossprod,eigen>");
    // At most three inner calls, outermost first.
    assert_eq!(key(&g, "many"), "sum<sqrt,abs,log>");
    assert_eq!(key(&g, "compared"), "sum<runif>");
}

fn record(step: &str, model: Option<&str>, features: Vec<f64>, secs: f64) -> TaskRecord {
    TaskRecord {
        step: step.into(),
        function: "eigen".into(),
        features,
        kind: "call".into(),
        iterations: None,
        predicted: Some(1.0),
        actual: Some(secs),
        worker: Some(0),
        start: Some(0.0),
        end: Some(secs),
        model: model.map(str::to_string),
        observed: model.map(|_| secs),
        blocks: Vec::new(),
        width: None,
        lanes: Vec::new(),
    }
}

fn store(h: &mut History, workflow: &str, tasks: Vec<TaskRecord>) {
    h.record_run(&RunRecord {
        id: 0,
        workflow: workflow.into(),
        path: "/tmp/paths.toml".into(),
        scheduler: "emcp".into(),
        processors: 2,
        started_at: 1.7e9,
        predicted_makespan: None,
        actual_makespan: None,
        tasks,
    })
    .expect("records");
}

#[test]
fn a_steps_recent_times_at_its_sizes_predict_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    let g = graph("x = \"matrix(rnorm(900 * 900), 900, 900)\"\ne = \"eigen(x)\"\n");
    let e = g.task("e").unwrap();
    let model = "eigen[general]";
    let at = vec![900.0, 900.0];
    for secs in [1.0, 1.3, 0.9] {
        store(
            &mut h,
            "paths",
            vec![record("e", Some(model), at.clone(), secs)],
        );
    }
    // A failed run teaches nothing; another workflow's step neither.
    store(&mut h, "paths", vec![record("e", None, at.clone(), 50.0)]);
    store(
        &mut h,
        "other",
        vec![record("e", Some(model), at.clone(), 7.0)],
    );

    let mut p = Predictor::load(&h, ModelKind::LogLinear).unwrap();
    let model_only = p.predict(e);
    p.set_steps(StepTimes::load(&h, "paths").unwrap());
    assert_eq!(p.predict(e), 1.0, "the median of 1.0, 1.3, 0.9");
    assert_ne!(model_only, 1.0);

    // Other sizes: the model.
    let g2 = graph("x = \"matrix(rnorm(500 * 500), 500, 500)\"\ne = \"eigen(x)\"\n");
    let e2 = g2.task("e").unwrap();
    assert_eq!(p.predict(e2), p.predict_features(model, &[500.0, 500.0]));
}

#[test]
fn an_undecided_path_is_the_one_the_last_run_took() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(dir.path().join("h.sqlite")).unwrap();
    let g = graph(
        "x = \"matrix(rnorm(400), 20, 20)\"\ne = \"eigen(x)\"\nf = \"eigen(x, symmetric = FALSE)\"\n",
    );
    let last = |m: &str| {
        vec![
            record("e", Some(m), vec![20.0, 20.0], 0.5),
            record("f", Some(m), vec![20.0, 20.0], 0.5),
        ]
    };
    store(&mut h, "paths", last("eigen[general]"));
    store(&mut h, "paths", last("eigen[symmetric]"));
    let mut p = Predictor::new(ModelKind::LogLinear);
    p.set_steps(StepTimes::load(&h, "paths").unwrap());
    let e = g.task("e").unwrap();
    assert_eq!(p.task_key(e).as_deref(), Some("eigen[symmetric]"));
    // Told by its argument: the last run does not matter.
    let f = g.task("f").unwrap();
    assert_eq!(p.task_key(f).as_deref(), Some("eigen[general]"));
}

#[test]
fn a_run_records_the_path_the_kernel_took() {
    // Symmetric, but nothing in the file says so: R's isSymmetric decides.
    let (wf, g) = analyse(
        r#"
m = "cbind(c(2, 1, 0), c(1, 3, 1), c(0, 1, 4))"
e = "eigen(m)"
w = "wilcox.test(c(1, 1, 2, 3, 5, 8))"
"#,
    );
    assert_eq!(key(&g, "e"), "eigen[general]");
    assert_eq!(key(&g, "w"), "wilcox.test[exact]");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut learning = Learning::open(Some(path.as_path())).unwrap();
    let opts = RunOptions::new(1, 3);
    let cancel = AtomicBool::new(false);
    let f = pipeline::run(
        &wf,
        &g,
        &mut learning,
        &opts,
        Scheduler::Emcp,
        &|_| {},
        &cancel,
    )
    .expect("runs");
    let h = History::open(&path).unwrap();
    let rows = h.tasks(f.run_id.expect("recorded")).unwrap();
    let model = |s: &str| {
        rows.iter()
            .find(|r| r.step == s)
            .and_then(|r| r.model.clone())
    };
    assert_eq!(model("e").as_deref(), Some("eigen[symmetric]"));
    // Ties: R's normal approximation.
    assert_eq!(model("w").as_deref(), Some("wilcox.test[asymptotic]"));
    // The next plan takes those paths.
    let _ = pipeline::plan(&wf, &g, &mut learning, 1, Scheduler::Emcp);
    let e = g.task("e").unwrap();
    assert_eq!(
        learning.predictor.task_key(e).as_deref(),
        Some("eigen[symmetric]")
    );
}

/// Tables and charts name a step by the call whose value it picks a piece
/// of; the model key keeps the accessor, as the cost is the whole step's.
#[test]
fn labels_name_the_call_a_piece_is_picked_from() {
    let g = graph(
        "x = \"rnorm(50)\"\n\
         y = \"rnorm(50)\"\n\
         p = \"t.test(x, y)$p.value\"\n\
         b = \"{ fit <- lm(y ~ x); coef(fit)[2] }\"\n\
         o = \"x[order(y)]\"\n\
         s = \"x[3]\"\n\
         m = \"mean(x)\"\n",
    );
    let label = |s: &str| g.task(s).expect("step").label();
    assert_eq!(label("p"), "t.test");
    assert_eq!(key(&g, "p"), "$<t.test>");
    assert_eq!(label("b"), "{lm}");
    assert_eq!(label("o"), "order");
    assert_eq!(label("s"), "[");
    assert_eq!(label("m"), "mean");
}
