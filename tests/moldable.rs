//! Moldable calls (issue 16): kernels run k wide give the one-worker
//! numbers, and plans with k-wide calls keep every scheduling invariant.

mod common;
use common::{call, named, pos};
use flowcast::cost::{Comm, Usl};
use flowcast::kernels::value::List;
use flowcast::kernels::width::run_wide;
use flowcast::kernels::Value;
use flowcast::sched::{
    allot, emcp, plan, simulate, Dag, Edge, Item, Node, Policy, Runtime, Schedule, Scheduler,
};
use nalgebra::DMatrix;

const STACK: usize = 32 << 20;

/// A reproducible matrix with no structure (a small LCG).
fn matrix(n: usize, m: usize, seed: u64) -> DMatrix<f64> {
    let mut s = seed;
    DMatrix::from_fn(n, m, |_, _| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    })
}

/// Every number a value holds, in order (complex parts interleaved).
fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Num(x) => x.clone(),
        Value::Mat(m) => m.as_slice().to_vec(),
        Value::Complex(x) => x.iter().flat_map(|c| [c.re, c.im]).collect(),
        Value::ComplexMat(m) => m.iter().flat_map(|c| [c.re, c.im]).collect(),
        Value::List(List { items, .. }) => items.iter().flat_map(numbers).collect(),
        _ => Vec::new(),
    }
}

/// Runs `name` at widths 1, 2 and 4; each result within R's tolerance of
/// the one-worker result, and the count of bit differences.
fn across_widths(
    name: &str,
    args: impl Fn() -> Vec<(Option<&'static str>, Value)> + Sync,
) -> usize {
    let one = numbers(&call(name, args()).expect(name));
    assert!(!one.is_empty(), "{name}: no numbers");
    let mut differing = 0;
    for k in [2, 4] {
        let wide = numbers(&run_wide(k, STACK, || call(name, args()).expect(name)));
        assert_eq!(one.len(), wide.len(), "{name} at {k}");
        let scale = one.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
        for (i, (a, b)) in one.iter().zip(&wide).enumerate() {
            if a.to_bits() != b.to_bits() {
                differing += 1;
                assert!(
                    (a - b).abs() <= 1e-10 * scale,
                    "{name} at width {k}, element {i}: {a} against {b}"
                );
            }
        }
    }
    differing
}

#[test]
fn products_and_distances_are_bit_identical_at_every_width() {
    let a = matrix(300, 280, 1);
    let b = matrix(280, 260, 2);
    assert_eq!(
        across_widths("%*%", || vec![
            pos(Value::Mat(a.clone())),
            pos(Value::Mat(b.clone()))
        ]),
        0
    );
    assert_eq!(
        across_widths("crossprod", || vec![pos(Value::Mat(a.clone()))]),
        0
    );
    let x = matrix(400, 12, 3);
    for method in ["euclidean", "manhattan", "maximum"] {
        let d = across_widths("dist", || {
            vec![
                pos(Value::Mat(x.clone())),
                named("method", Value::Str(vec![method.into()])),
            ]
        });
        assert_eq!(d, 0, "dist {method}");
    }
}

/// The factorisations give the one-worker bits too: their parallel paths
/// split only the blocked updates' products, whose output blocks are each
/// summed whole; general eigen, whose parallel path does not, runs narrow.
#[test]
fn factorisations_are_bit_identical_at_every_width() {
    let g = matrix(260, 260, 4);
    let s = &g + g.transpose();
    for (what, m) in [("general", &g), ("symmetric", &s)] {
        let d = across_widths("eigen", || vec![pos(Value::Mat(m.clone()))]);
        assert_eq!(d, 0, "eigen of a {what} matrix");
    }
    assert_eq!(
        across_widths("svd", || vec![pos(Value::Mat(g.clone()))]),
        0,
        "svd"
    );
    assert_eq!(
        across_widths("solve", || vec![pos(Value::Mat(g.clone()))]),
        0,
        "solve"
    );
}

/// Rank tests: the sort behind the ranks splits into runs merged stably,
/// and friedman's blocks are ranked apart; both keep the one-worker bits,
/// ties included (the rounded data has many).
#[test]
fn rank_tests_are_bit_identical_at_every_width() {
    let x = matrix(220, 200, 5);
    let tied = x.map(|v| (v * 50.0).round());
    for (what, m) in [("distinct", &x), ("tied", &tied)] {
        let d = across_widths("wilcox.test", || vec![pos(Value::Mat(m.clone()))]);
        assert_eq!(d, 0, "one-sample wilcox.test, {what}");
        let d = across_widths("wilcox.test", || {
            vec![
                pos(Value::Mat(m.clone())),
                pos(Value::Mat(m.map(|v| v + 0.25))),
            ]
        });
        assert_eq!(d, 0, "two-sample wilcox.test, {what}");
        let d = across_widths("friedman.test", || vec![pos(Value::Mat(m.clone()))]);
        assert_eq!(d, 0, "friedman.test, {what}");
        let d = across_widths("mood.test", || {
            vec![
                pos(Value::Mat(m.clone())),
                pos(Value::Mat(m.map(|v| v * 2.0))),
            ]
        });
        assert_eq!(d, 0, "mood.test, {what}");
    }
}

#[test]
fn covariance_matrices_are_bit_identical_at_every_width() {
    // Ties (values rounded to tenths) for the rank methods, and a few NA
    // for the `use` settings that drop or pair them.
    let x = matrix(400, 9, 5).map(|v| (v * 10.0).round() / 10.0);
    let mut holed = matrix(300, 7, 6);
    for (k, at) in [(3, 0), (40, 2), (41, 2), (299, 6)] {
        holed[(k, at)] = f64::NAN;
    }
    let y = matrix(400, 3, 7);
    let text = |s: &'static str| Value::Str(vec![s.to_string()]);
    for method in ["pearson", "kendall", "spearman"] {
        let m = || named("method", text(method));
        for f in ["cor", "cov"] {
            assert_eq!(
                across_widths(f, || vec![pos(Value::Mat(x.clone())), m()]),
                0,
                "{f} {method}"
            );
            assert_eq!(
                across_widths(f, || vec![
                    pos(Value::Mat(x.clone())),
                    pos(Value::Mat(y.clone())),
                    m()
                ]),
                0,
                "{f}(x, y) {method}"
            );
        }
        for using in ["complete.obs", "pairwise.complete.obs"] {
            assert_eq!(
                across_widths("cor", || vec![
                    pos(Value::Mat(holed.clone())),
                    m(),
                    named("use", text(using)),
                ]),
                0,
                "cor {method} {using}"
            );
        }
    }
    assert_eq!(across_widths("var", || vec![pos(Value::Mat(x.clone()))]), 0);
}

#[test]
fn kmeans_starts_run_apart_with_one_worker_s_draws_and_winner() {
    // Three loose groups: different starts end in different local optima,
    // so the winner depends on running every start and comparing in order.
    let mut x = matrix(600, 4, 9);
    for (i, mut row) in x.row_iter_mut().enumerate() {
        row.add_scalar_mut((i % 3) as f64 * 0.6);
    }
    for algorithm in ["Hartigan-Wong", "Lloyd", "MacQueen"] {
        let args = || {
            vec![
                pos(Value::Mat(x.clone())),
                pos(Value::scalar(5.0)),
                named("nstart", Value::scalar(11.0)),
                named("algorithm", Value::Str(vec![algorithm.into()])),
            ]
        };
        assert_eq!(across_widths("kmeans", args), 0, "{algorithm}");
    }
}

#[test]
fn a_width_is_seen_only_inside_the_call() {
    assert_eq!(flowcast::kernels::width::width(), 1);
    assert_eq!(run_wide(3, STACK, flowcast::kernels::width::width), 3);
    assert_eq!(flowcast::kernels::width::width(), 1);
}

const LINEAR: Usl = Usl::new(0.0, 0.0);

#[test]
fn calls_of_one_width_at_once_run_on_threads_of_their_own() {
    let both = std::sync::Barrier::new(2);
    let call = || {
        run_wide(2, STACK, || {
            // Both calls are running from here on.
            both.wait();
            rayon::broadcast(|_| std::thread::current().name().map(str::to_string))
        })
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(call);
        let b = s.spawn(call);
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!((a.len(), b.len()), (2, 2));
    // Sharing two threads, each call would get one worker's speed.
    assert!(
        a.iter().all(|t| t.is_some() && !b.contains(t)),
        "{a:?} {b:?}"
    );
}

fn edge(from: usize, to: usize) -> Edge {
    Edge {
        from,
        to,
        bytes: 0.0,
    }
}

/// Hand-computed: a 4-second linear call on 2 of 3 workers beside a
/// 1-second call. The wide call takes 2 s on workers holding it; the
/// simulator starts it only when both are free.
#[test]
fn the_simulator_runs_a_wide_call_on_all_its_lanes() {
    let dag = Dag {
        nodes: vec![
            Node::function("short", 1.0),
            Node::function("wide", 4.0).moldable(LINEAR),
            Node::function("after", 1.0),
        ],
        edges: vec![edge(1, 2)],
    };
    let schedule = Schedule {
        workers: 3,
        items: vec![
            Item {
                node: 0,
                iterations: None,
                worker: 0,
                start: 0.0,
                end: 1.0,
                lanes: Vec::new(),
            },
            Item {
                node: 1,
                iterations: None,
                worker: 1,
                start: 1.0,
                end: 3.0,
                lanes: vec![0],
            },
            Item {
                node: 2,
                iterations: None,
                worker: 2,
                start: 3.0,
                end: 4.0,
                lanes: Vec::new(),
            },
        ],
    };
    let s = simulate(&schedule, &dag, &Comm::SHARED_MEMORY);
    let wide = s.items.iter().find(|i| i.node == 1).unwrap();
    assert_eq!((wide.start, wide.end), (1.0, 3.0));
    assert_eq!(wide.lanes, vec![0]);
    let after = s.items.iter().find(|i| i.node == 2).unwrap();
    assert_eq!((after.start, after.end), (3.0, 4.0));
    assert_eq!(s.makespan(), 4.0);
}

#[test]
fn emcp_widens_a_chain_and_beats_its_rigid_plan() {
    let usl = Usl::new(0.1, 0.001);
    let dag = Dag {
        nodes: vec![
            Node::function("a", 8.0).moldable(usl),
            Node::function("b", 8.0).moldable(usl),
            Node::function("c", 1.0),
        ],
        edges: vec![edge(0, 1), edge(1, 2)],
    };
    let w = allot(&dag, 8);
    assert!(w[0] > 1 && w[1] > 1 && w[2] == 1, "{w:?}");
    let molded = emcp(&dag, &Comm::SHARED_MEMORY, 8, 8);
    let mut rigid_dag = dag.clone();
    for n in &mut rigid_dag.nodes {
        n.speedup = None;
    }
    let rigid = emcp(&rigid_dag, &Comm::SHARED_MEMORY, 8, 8);
    assert_eq!(rigid.makespan(), 17.0);
    let expected = 8.0 / usl.speedup(w[0]) + 8.0 / usl.speedup(w[1]) + 1.0;
    assert!((molded.makespan() - expected).abs() < 1e-9, "{molded:?}");
    // Lanes are distinct workers and never overlap another item.
    check_no_overlap(&molded);
}

fn check_no_overlap(s: &Schedule) {
    for w in 0..s.workers {
        let lane = s.lane(w);
        for pair in lane.windows(2) {
            assert!(
                pair[1].start >= pair[0].end - 1e-9,
                "worker {w}: {:?} overlaps {:?}",
                pair[0],
                pair[1]
            );
        }
    }
    for i in &s.items {
        let mut all: Vec<usize> = i.all_lanes().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), i.width());
        assert!(all.iter().all(|&l| l < s.workers));
    }
}

/// Random workflow-like graphs with moldable calls and loops, run through
/// the runtime with real costs off the predictions: every node and
/// iteration runs once, no worker runs two things at once.
#[test]
fn the_runtime_keeps_its_invariants_with_wide_calls() {
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (seed >> 33) as f64 / (1u64 << 31) as f64
    };
    for case in 0..40 {
        let n = 6 + (next() * 14.0) as usize;
        let mut dag = Dag::default();
        for i in 0..n {
            let cost = 0.1 + next() * 3.0;
            let node = if next() < 0.2 {
                Node::looped(&format!("l{i}"), cost, 50 + (next() * 200.0) as usize)
            } else if next() < 0.5 {
                Node::function(&format!("m{i}"), cost)
                    .moldable(Usl::new(next() * 0.5, next() * 0.01))
            } else {
                Node::function(&format!("f{i}"), cost)
            };
            dag.nodes.push(node);
            for j in 0..i {
                if next() < 0.2 {
                    dag.edges.push(edge(j, i));
                }
            }
        }
        let mut actual = dag.clone();
        for node in &mut actual.nodes {
            node.cost *= 0.5 + next() * 1.5;
        }
        for p in [2, 4, 16] {
            let planned = plan(&dag, &Comm::SHARED_MEMORY, p, Scheduler::Emcp);
            check_no_overlap(&planned);
            let mut rt = Runtime::follow(&dag, &Comm::SHARED_MEMORY, &planned, Policy::ADAPTIVE)
                .unwrap_or_else(|e| panic!("case {case} p {p}: {e}"));
            let ran = rt.simulate(&actual);
            assert!(rt.done(), "case {case} p {p}: not done");
            flowcast::sched::runtime::validate(&dag, &ran)
                .unwrap_or_else(|e| panic!("case {case} p {p}: {e}"));
            check_no_overlap(&ran);
            let drives: Vec<usize> = (0..n)
                .filter(|&i| dag.nodes[i].iterations().is_some())
                .collect();
            let mut rt = Runtime::emcp(
                &dag,
                &Comm::SHARED_MEMORY,
                p,
                8,
                &drives,
                Policy::ADAPTIVE,
                Box::new(|_, s| s),
            );
            let ran = rt.simulate(&actual);
            assert!(rt.done(), "case {case} p {p}: emcp runtime not done");
            flowcast::sched::runtime::validate(&dag, &ran)
                .unwrap_or_else(|e| panic!("case {case} p {p}: {e}"));
            check_no_overlap(&ran);
        }
    }
}

#[test]
fn a_call_run_only_wide_is_run_narrow_once_and_plan_says_so() {
    use flowcast::diagnostic::SourceFile;
    use flowcast::exec::RunOptions;
    use flowcast::pipeline::{self, Learning};
    use std::sync::atomic::AtomicBool;
    let text = "[workflow]\nname = \"narrow\"\nseed = 1\n\n[steps]\n\
                x = \"matrix(rnorm(600 * 100), 600)\"\nd = \"dist(x)\"\n";
    let wf = flowcast::workflow::parse(SourceFile::new("narrow.toml", text)).unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let d = g.task("d").unwrap().id;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    let mut learning = Learning::open(Some(path.as_path())).unwrap();
    let cancel = AtomicBool::new(false);
    let run = |learning: &mut Learning| {
        let f = pipeline::run(
            &wf,
            &g,
            learning,
            &RunOptions::new(2, 1),
            Scheduler::Emcp,
            &|_| {},
            &cancel,
        )
        .expect("runs");
        let o = &f.report.outcomes[d];
        // The table's and `--json`'s workers: each the call held.
        let held: Vec<usize> = o.spans().iter().map(|s| s.0).collect();
        assert_eq!(held.len(), 1 + o.lanes.len(), "{held:?}");
        assert!(o.worker.is_some_and(|w| held.contains(&w)));
        held.len()
    };
    // A fresh history: the prior's speedup, so two wide.
    assert_eq!(run(&mut learning), 2);
    let plan = pipeline::plan(&wf, &g, &mut learning, 2, Scheduler::Emcp);
    assert_eq!(plan.measuring, vec![d]);
    let text = flowcast::report::plan::render(&g, &plan);
    assert!(text.contains("`d` runs on one worker this time"), "{text}");
    let json = flowcast::report::plan::to_json(&g, &plan);
    assert_eq!(json["measuring_speedup"], serde_json::json!(["d"]));
    assert_eq!(run(&mut learning), 1);
    // Measured against that run: wide again, and nothing to explain.
    let plan = pipeline::plan(&wf, &g, &mut learning, 2, Scheduler::Emcp);
    assert!(plan.measuring.is_empty());
    assert_eq!(run(&mut learning), 2);
}
