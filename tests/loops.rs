//! Issue 16, items 4 and 5: loops whose iterations differ. Shape inference
//! writes a body's work as a function of the loop index; the scheduler
//! cuts such a loop into blocks of equal predicted cost; the test drive
//! samples the whole range; each loop gets a policy (static, cyclic or
//! guided, on p workers or fewer), shown by `flowcast plan`; and values
//! are the same under every policy.

mod common;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use common::step_values;
use flowcast::cost::{Comm, Profile};
use flowcast::diagnostic::SourceFile;
use flowcast::exec::loop_policy::run_loop;
use flowcast::exec::{Event, RunOptions};
use flowcast::graph::{self, TaskGraph};
use flowcast::kernels::Value;
use flowcast::pipeline::{self, Learning};
use flowcast::sched::loop_policy::{choose, BlockTime};
use flowcast::sched::runtime::drive_ranges;
use flowcast::sched::{
    emcp, Dag, LoopKind, LoopPolicy, Node, Policy, Runtime, Scheduler, DEFAULT_M,
};
use flowcast::workflow::{self, Workflow};

fn analyse(text: &str) -> (Workflow, TaskGraph) {
    let wf = workflow::parse(SourceFile::new("loops.toml", text)).expect("parses");
    let g = graph::build(&wf).expect("analyses");
    (wf, g)
}

fn task<'a>(g: &'a TaskGraph, name: &str) -> &'a graph::Task {
    g.tasks.iter().find(|t| t.name == name).unwrap()
}

#[test]
fn shape_inference_writes_the_work_as_a_function_of_the_index() {
    let (_, g) = analyse(
        r#"
[steps]
x = "rnorm(400000)"
prefix = { for = "i in 1:2000", do = "sum(x[1:i])" }
scaled = { for = "i in 1:1500", do = "sum(x[1:(i * 200)])" }
flat = { for = "i in 1:100", do = "sum(x[1:1000]) * i" }
"#,
    );
    // sum(x[1:i]) reads i elements: linear in i.
    let prefix = task(&g, "prefix")
        .index_work
        .as_ref()
        .expect("depends on i");
    assert_eq!(prefix.degree(), Some(1));
    let w = prefix.weights(&[1.0, 1000.0, 2000.0]);
    assert!(w[0] < w[1] && w[1] < w[2], "{w:?}");
    // Linear: the work grows by the same step per index.
    let step = (w[2] - w[1]) / 1000.0;
    assert!(
        ((w[1] - w[0]) / 999.0 - step).abs() <= 0.02 * step.abs(),
        "{w:?}"
    );
    // x[1:(i*200)]: 200 times the step of x[1:i].
    let scaled = task(&g, "scaled")
        .index_work
        .as_ref()
        .expect("depends on i");
    assert_eq!(scaled.degree(), Some(1));
    let w2 = scaled.weights(&[1.0, 1001.0]);
    let step2 = (w2[1] - w2[0]) / 1000.0;
    assert!((step2 / step - 200.0).abs() < 4.0, "{step2} / {step}");
    // The loop's prior work is the mean iteration's, not one at an unknown i.
    let t = task(&g, "scaled");
    let mean = scaled.mean(t.iterations.as_ref().unwrap());
    assert!((t.work.ops - mean.ops).abs() <= 1e-9 * mean.ops);
    // sum's long-double adds are counted apart, one per element read.
    assert!((t.work.ld_adds - mean.ld_adds).abs() <= 1e-9 * mean.ld_adds);
    assert!((t.work.ld_adds - 200.0 * 750.5).abs() <= 1e-6 * t.work.ld_adds);
    assert!(t.work.equivalent_ops() > scaled.ops[0] * 100.0);
    // A body whose sizes do not depend on i has no index work: flat.
    assert!(task(&g, "flat").index_work.is_none());
    assert!(flowcast::cost::shape_profile(task(&g, "flat")).is_flat());
    // The profile: the last iteration costs more than the first.
    let p = flowcast::cost::shape_profile(task(&g, "prefix"));
    // (Each call's fixed cost is counted too: about 3.7x, not 2000x.)
    assert!(p.spread(2000) > 2.0, "{}", p.spread(2000));
}

#[test]
fn a_window_that_moves_with_the_index_is_priced_at_its_length() {
    // Every iteration reads 5001 elements, wherever the window starts; with
    // the index unknown, so would be the window's length.
    let (_, g) = analyse(
        r#"
[steps]
x = "rnorm(400000)"
moving = { for = "b in 1:300", do = "sum(x[(b * 50):(b * 50 + 5000)])" }
fixed = { for = "b in 1:300", do = "sum(x[1:5001])" }
"#,
    );
    let (moving, fixed) = (task(&g, "moving"), task(&g, "fixed"));
    assert!(moving.index_work.is_none(), "flat: no profile");
    let ratio = moving.work.equivalent_ops() / fixed.work.equivalent_ops();
    // The moving window also computes its two ends.
    assert!((0.95..1.3).contains(&ratio), "{ratio}");
}

#[test]
fn a_body_whose_size_cycles_with_the_index_is_priced_at_its_mean() {
    // At k = 1, 12, 24, …, the evenly spaced values of 1:96, `k %% 12` is 0
    // or 1: typed only there, the loop looked 100x cheaper than it is.
    let (_, g) = analyse(
        r#"
[steps]
x = "rnorm(300000)"
cycling = { for = "k in 1:96", do = "sum(x[1:(2000 * (k %% 12) + 100)])" }
"#,
    );
    let t = task(&g, "cycling");
    let iw = t.index_work.as_ref().expect("depends on k");
    // Typed at every value of so short a range: each one exact.
    let ks: Vec<f64> = (1..=96).map(f64::from).collect();
    let w = iw.weights(&ks);
    for k in 0..84 {
        assert!((w[k] - w[k + 12]).abs() <= 1e-9 * w[k], "{k}: {w:?}");
    }
    assert!(
        w[10] > 10.0 * w[11],
        "k = 11 reads 22,100, k = 12 reads 100: {w:?}"
    );
    // The loop's work is the mean iteration's: about 11,100 elements.
    let (short, long) = (iw.at(12.0), iw.at(11.0));
    let per_element = (long - short) / 22_000.0;
    let mean = t.work.equivalent_ops();
    let expected = short + per_element * 11_000.0;
    assert!(
        (mean / expected - 1.0).abs() < 0.05,
        "{mean} against {expected}"
    );
}

#[test]
fn the_test_drive_samples_the_whole_range() {
    assert_eq!(
        drive_ranges(2000),
        vec![0..2, 500..501, 1000..1001, 1500..1501, 1999..2000]
    );
    assert_eq!(drive_ranges(16), vec![0..2, 4..5, 8..9, 12..13, 15..16]);
    // Too short to sample: the first two only, or nothing.
    assert_eq!(drive_ranges(5), vec![0..2]);
    assert!(drive_ranges(2).is_empty());
}

/// A loop of `n` iterations whose iteration k costs `unit·(k + 1)`.
fn triangular(n: usize, unit: f64) -> Node {
    let total = unit * (n * (n + 1) / 2) as f64;
    Node::looped("tri", total, n).with_profile(Profile::linear(n, 1.0, 1.0))
}

#[test]
fn a_triangular_loop_is_measured_as_triangular_by_its_drive() {
    // The plan knows nothing of the profile, and guesses the cost 100x
    // too low, as the issue's emcp did (0.1 s against 6 s).
    let n = 1500;
    let actual = Dag {
        nodes: vec![triangular(n, 4e-6)],
        edges: vec![],
    };
    let guess = Dag {
        nodes: vec![Node::looped("tri", actual.nodes[0].cost / 100.0, n)],
        edges: vec![],
    };
    let mut rt = Runtime::emcp(
        &guess,
        &Comm::SHARED_MEMORY,
        2,
        DEFAULT_M,
        &[0],
        Policy::ADAPTIVE,
        Box::new(|_, s| s),
    );
    let ran = rt.simulate(&actual);
    // The drive's samples: iterations 2, 376, 751, 1126 and 1500.
    let driven = rt.test_driven()[0].1;
    let truth = actual.nodes[0].cost;
    assert!((driven / truth - 1.0).abs() < 0.01, "{driven} vs {truth}");
    let profile = &rt.dag().nodes[0].profile;
    assert!(profile.spread(n) > 100.0, "{}", profile.spread(n));
    // Each iteration ran once, and the two workers ended together: within
    // the cost of a few of the dearest iterations of the best split.
    let mut seen = vec![0; n];
    for i in &ran.items {
        i.iterations.clone().unwrap().for_each(|k| seen[k] += 1);
    }
    assert!(seen.iter().all(|&c| c == 1));
    let bound = truth / 2.0;
    assert!(
        ran.makespan() < bound * 1.05,
        "{} vs {bound}",
        ran.makespan()
    );
}

#[test]
fn emcp_cuts_a_triangular_loop_into_blocks_of_equal_cost() {
    // 1000 iterations costing k + 1 (k from 0): total 500500; on two
    // workers the cut is where 1 + … + m is nearest 250250: m = 707
    // (250278), so 0..707 and 707..1000, costs 250278 and 250222.
    let dag = Dag {
        nodes: vec![triangular(1000, 1.0)],
        edges: vec![],
    };
    let s = emcp(&dag, &Comm::SHARED_MEMORY, 2, DEFAULT_M);
    let mut ranges: Vec<_> = s
        .items
        .iter()
        .map(|i| i.iterations.clone().unwrap())
        .collect();
    ranges.sort_by_key(|r| r.start);
    assert_eq!(ranges, vec![0..707, 707..1000]);
    assert!((s.makespan() - 250278.0).abs() < 1e-6, "{}", s.makespan());
    // The same loop taken as flat: 500 and 500, the second half 3/4 of it.
    let flat = Dag {
        nodes: vec![Node::looped("tri", 500500.0, 1000)],
        edges: vec![],
    };
    let s = emcp(&flat, &Comm::SHARED_MEMORY, 2, DEFAULT_M);
    let re = flowcast::sched::simulate(&s, &dag, &Comm::SHARED_MEMORY);
    // 501 + … + 1000 = 375250.
    assert!((re.makespan() - 375250.0).abs() < 1e-6, "{}", re.makespan());
    // A policy of one thread keeps the loop on one worker.
    let mut one = dag.clone();
    one.nodes[0].policy = Some(LoopPolicy {
        kind: LoopKind::Static,
        threads: 1,
    });
    let s = emcp(&one, &Comm::SHARED_MEMORY, 2, DEFAULT_M);
    assert_eq!(s.items.len(), 1);
}

fn blocks(n: usize, parts: usize, per: impl Fn(usize) -> f64, slow: f64) -> Vec<BlockTime> {
    flowcast::cost::profile::even_blocks(n, parts)
        .into_iter()
        .map(|r| BlockTime {
            seconds: r.clone().map(&per).sum::<f64>() * slow,
            iterations: r,
            concurrent: parts,
        })
        .collect()
}

#[test]
fn policies_follow_the_history() {
    // Flat: guided on every worker (measured best on 2 and 16 cores).
    let (p, _) = choose(1000, 4, &Profile::FLAT, &blocks(1000, 4, |_| 1e-4, 1.0));
    assert_eq!(
        p,
        LoopPolicy {
            kind: LoopKind::Guided,
            threads: 4
        }
    );
    // Triangular, seen only in the blocks: guided on every worker, and the
    // profile learnt for emcp's blocks.
    let (p, profile) = choose(
        1000,
        4,
        &Profile::FLAT,
        &blocks(1000, 4, |k| 1e-6 * k as f64, 1.0),
    );
    assert_eq!(p.kind, LoopKind::Guided);
    assert_eq!(p.threads, 4);
    assert!(!profile.is_flat());
    // Triangular on two workers, as a static run leaves it in the history:
    // the first block ends long before the second, so they ran alongside
    // each other only in part (concurrency 2, then 1). Still triangular.
    let times: Vec<(std::ops::Range<usize>, f64, f64)> =
        vec![(0..500, 0.0, 1.25), (500..1000, 0.0, 3.75)];
    let (p, profile) = choose(
        1000,
        2,
        &Profile::FLAT,
        &flowcast::sched::loop_policy::with_concurrency(&times),
    );
    assert_eq!(p.kind, LoopKind::Guided);
    assert!(!profile.is_flat());
    // Memory-bound: twice as slow per iteration at 4 as at 2, no faster
    // in all: 2 threads.
    let mut h = blocks(1000, 2, |_| 1e-4, 1.0);
    h.extend(blocks(1000, 4, |_| 1e-4, 2.0));
    assert_eq!(choose(1000, 4, &Profile::FLAT, &h).0.threads, 2);
    // Memory-bound down to one worker: nothing to deal out.
    let mut h = blocks(1000, 1, |_| 1e-4, 1.0);
    h.extend(blocks(1000, 4, |_| 1e-4, 4.0));
    assert_eq!(
        choose(1000, 4, &Profile::FLAT, &h).0,
        LoopPolicy {
            kind: LoopKind::Static,
            threads: 1
        }
    );
}

#[test]
fn plan_shows_each_loops_policy() {
    let (wf, g) = analyse(
        r#"
[steps]
x = "rnorm(20000)"
tri = { for = "i in 1:200", do = "sum(x[1:(i * 100)])" }
flat = { for = "i in 1:200", do = "sum(x[1:100]) + i" }
"#,
    );
    let plan = pipeline::plan(&wf, &g, &mut Learning::none(), 2, Scheduler::Emcp);
    let tri = task(&g, "tri").id;
    let flat = task(&g, "flat").id;
    assert_eq!(plan.dag.nodes[tri].policy.unwrap().kind, LoopKind::Guided);
    assert_eq!(plan.dag.nodes[flat].policy.unwrap().kind, LoopKind::Guided);
    let text = flowcast::report::plan::render(&g, &plan);
    assert!(
        text.contains("loop `tri` policy: guided on 2 workers"),
        "{text}"
    );
    assert!(text.contains("linear in the index"), "{text}");
    assert!(
        text.contains("loop `flat` policy: guided on 2 workers"),
        "{text}"
    );
    let json = flowcast::report::plan::to_json(&g, &plan);
    assert_eq!(json["loops"]["tri"]["policy"], "guided");
    assert_eq!(json["loops"]["tri"]["threads"], 2);
    assert_eq!(json["loops"]["tri"]["cost_degree"], 1);
    assert_eq!(json["loops"]["flat"]["policy"], "guided");
    // What a run does with a planned loop is said as well: the kind is how
    // it runs alone.
    assert!(
        text.contains("loop `tri` in this run: the blocks above"),
        "{text}"
    );
    assert!(json["loops"]["tri"]["in_a_run"]
        .as_str()
        .is_some_and(|s| s.contains("half of the largest unclaimed rest")));
    // The plan's blocks of `tri` have equal predicted cost, not count.
    let lens: Vec<usize> = plan
        .schedule
        .items
        .iter()
        .filter(|i| i.node == tri)
        .filter_map(|i| i.iterations.as_ref().map(|r| r.len()))
        .collect();
    if lens.len() == 2 {
        assert_ne!(lens[0], lens[1], "{lens:?}");
    }
}

/// A loop whose body draws, over a triangular range of sizes.
const RANDOM: &str = r#"
[workflow]
seed = 3

[steps]
x = "rnorm(3000)"
tri = { for = "i in 1:60", do = "sum(x[1:(i * 50)]) + mean(rnorm(i))" }
z = "sum(tri)"
"#;

fn run_all(
    wf: &Workflow,
    g: &TaskGraph,
    scheduler: Scheduler,
    p: usize,
) -> flowcast::exec::RunReport {
    let events = Mutex::new(Vec::new());
    let sink = |e: Event| events.lock().unwrap().push(e);
    let cancel = AtomicBool::new(false);
    let opts = RunOptions::new(p, 3);
    let f = pipeline::run(
        wf,
        g,
        &mut Learning::none(),
        &opts,
        scheduler,
        &sink,
        &cancel,
    )
    .expect("runs");
    f.report
}

#[test]
fn values_are_identical_under_every_policy() {
    let (wf, g) = analyse(RANDOM);
    let dynamic = run_all(&wf, &g, Scheduler::Dynamic, 2);
    let want = step_values(&g, &dynamic);
    for p in [1, 2, 3] {
        let emcp = run_all(&wf, &g, Scheduler::Emcp, p);
        assert_eq!(step_values(&g, &emcp), want, "emcp p = {p}");
    }
    let tri = task(&g, "tri");
    let x = dynamic.outcomes[task(&g, "x").id].value.clone().unwrap();
    let inputs: HashMap<String, Arc<Value>> = [("x".to_string(), x)].into();
    let expected = dynamic.outcomes[tri.id].value.clone().unwrap();
    let shape = flowcast::cost::shape_profile(tri);
    assert!(!shape.is_flat());
    for kind in LoopKind::ALL {
        for threads in [1, 2, 3, 7] {
            for profile in [Profile::FLAT, shape.clone()] {
                let run = run_loop(
                    &wf,
                    &g,
                    tri.id,
                    &inputs,
                    3,
                    LoopPolicy { kind, threads },
                    &profile,
                )
                .expect("runs");
                assert_eq!(run.value, *expected, "{kind:?} x{threads}");
                // Each iteration exactly once.
                let mut seen = vec![0; 60];
                for (r, ..) in &run.blocks {
                    r.clone().for_each(|k| seen[k] += 1);
                }
                assert!(
                    seen.iter().all(|&c| c == 1),
                    "{kind:?} x{threads}: {seen:?}"
                );
            }
        }
    }
}

#[test]
fn equal_cost_blocks_by_hand() {
    // Iteration k costs k + 1: 1..=8, total 36, cumulative 1 3 6 10 15
    // 21 28 36. Three parts of 12: the cuts nearest 12 (10, k = 4) and 24
    // (21, k = 6).
    let p = Profile::from_weights(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    assert_eq!(p.equal_cost_blocks(8, 3), vec![0..4, 4..6, 6..8]);
    assert!((p.share(8, &(7..8)) - 8.0 / 36.0).abs() < 1e-15);
    assert_eq!(p.spread(8), 8.0);
    // Flat: even blocks.
    assert_eq!(
        Profile::FLAT.equal_cost_blocks(10, 3),
        flowcast::cost::profile::even_blocks(10, 3)
    );
    assert!(Profile::from_weights(&[2.0; 5]).is_flat());
    // A sub-range keeps its iterations' weights.
    let q = Profile::from_weights(&[1.0, 2.0, 3.0, 4.0]).concat(4, &[3..4, 0..1]);
    assert!((q.share(2, &(0..1)) - 0.8).abs() < 1e-15);
}

#[test]
fn a_line_through_measured_blocks() {
    // Iteration k costs 2 + 0.5 k.
    let cost = |r: std::ops::Range<usize>| r.map(|k| 2.0 + 0.5 * k as f64).sum::<f64>();
    let blocks: Vec<(std::ops::Range<usize>, f64)> = [0..10, 10..15, 15..40, 40..41]
        .into_iter()
        .map(|r| (r.clone(), cost(r)))
        .collect();
    let (a, b) = flowcast::cost::profile::fit_linear(&blocks).unwrap();
    assert!((a - 2.0).abs() < 1e-9 && (b - 0.5).abs() < 1e-9, "{a} {b}");
    assert_eq!(flowcast::cost::profile::fit_linear(&blocks[..1]), None);
    // A flat loop's last sample at ten times its due (preempted) tilts
    // neither slope nor intercept.
    let mut flat: Vec<(std::ops::Range<usize>, f64)> =
        [0..5, 100..105, 200..205, 300..305, 400..405]
            .into_iter()
            .map(|r| (r, 5e-3))
            .collect();
    flat[4].1 = 5e-2;
    let (a, b) = flowcast::cost::profile::fit_linear(&flat).unwrap();
    assert_eq!(b, 0.0);
    assert!((a - 1e-3).abs() < 1e-15, "{a}");
    // Blocks all at one position say nothing of a slope.
    assert_eq!(
        flowcast::cost::profile::fit_linear(&[(3..5, 1.0), (3..5, 2.0)]),
        None
    );
    // Concurrency from overlaps.
    let b = flowcast::sched::loop_policy::with_concurrency(&[
        (0..5, 0.0, 1.0),
        (5..10, 0.0, 1.0),
        (10..12, 1.0, 1.5),
    ]);
    assert_eq!(
        b.iter().map(|b| b.concurrent).collect::<Vec<_>>(),
        vec![2, 2, 1]
    );
}

#[test]
fn guided_chunks_shrink_and_cyclic_deals_every_iteration_once() {
    use flowcast::exec::loop_policy::{assigned, guided_chunk};
    let profile = Profile::linear(103, 1.0, 1.0);
    for kind in [LoopKind::Static, LoopKind::Cyclic] {
        let mut seen = vec![0; 103];
        for t in 0..4 {
            for r in assigned(kind, 103, 4, t, &profile).unwrap() {
                r.for_each(|i| seen[i] += 1);
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "{kind:?}");
    }
    // 103 on 4 workers: ⌈103/8⌉ = 13, ⌈90/8⌉ = 12, ⌈78/8⌉ = 10, ⌈68/8⌉ = 9.
    let mut left = 103;
    let mut chunks = Vec::new();
    while left > 0 {
        let c = guided_chunk(left, 4);
        chunks.push(c);
        left -= c;
    }
    assert_eq!(&chunks[..4], &[13, 12, 10, 9]);
    assert_eq!(chunks.iter().sum::<usize>(), 103);
}

#[test]
fn irregular_loops_get_guided_chunks_and_scaling_ones_every_worker() {
    let mut h = blocks(800, 8, |_| 1e-3, 1.0);
    for (j, b) in h.iter_mut().enumerate() {
        if j % 3 == 0 {
            b.seconds *= 4.0;
        }
    }
    assert_eq!(choose(800, 8, &Profile::FLAT, &h).0.kind, LoopKind::Guided);
    // Alone 1 ms per iteration, four at a time 1.05 ms: it scales, so it
    // gets all 16 workers, not the 4 seen.
    let mut h = blocks(400, 1, |_| 1e-3, 1.0);
    h.extend(blocks(400, 4, |_| 1e-3, 1.05));
    assert_eq!(choose(400, 16, &Profile::FLAT, &h).0.threads, 16);
}

/// Every recorded run keeps its loops' blocks in the history, headless
/// runs included, and the next plan chooses the loop's policy from them.
#[test]
fn a_runs_loop_blocks_are_recorded_and_read_back() {
    let (wf, g) = analyse(
        r#"
[workflow]
name = "blocks"
[steps]
x = "rnorm(20000)"
tri = { for = "i in 1:300", do = "sum(x[1:(i * 60)])" }
"#,
    );
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("history.sqlite");
    let mut learning = Learning::open(Some(&store)).unwrap();
    let cancel = AtomicBool::new(false);
    let f = pipeline::run(
        &wf,
        &g,
        &mut learning,
        &RunOptions::new(2, 7),
        Scheduler::Emcp,
        &|_| {},
        &cancel,
    )
    .unwrap();
    let h = learning.history.as_ref().unwrap();
    let tasks = h.tasks(f.run_id.unwrap()).unwrap();
    let tri = tasks.iter().find(|t| t.step == "tri").unwrap();
    // The blocks cover every iteration exactly once, each with a time.
    let mut covered: Vec<_> = tri.blocks.iter().map(|b| b.iterations.clone()).collect();
    covered.sort_by_key(|r| r.start);
    assert_eq!(covered.first().map(|r| r.start), Some(0));
    assert_eq!(covered.last().map(|r| r.end), Some(300));
    assert!(
        covered.windows(2).all(|w| w[0].end == w[1].start),
        "{covered:?}"
    );
    assert!(tri
        .blocks
        .iter()
        .all(|b| b.end >= b.start && b.start >= 0.0));
    assert!(tasks
        .iter()
        .filter(|t| t.step != "tri")
        .all(|t| t.blocks.is_empty()));
    let past = flowcast::pipeline::loop_policy::past_blocks(h, "blocks");
    let read: usize = past["tri"].iter().map(|b| b.iterations.len()).sum();
    assert_eq!(read, 300);
}

/// `x[a:b]` copies a slice without building `a:b`: for every pair of ends
/// (running up, one long, descending, from 0, fractional, past the end)
/// it gives what the general subscript `x[c(a:b)]` gives.
#[test]
fn a_range_subscript_equals_the_general_one() {
    let (wf, g) = analyse(
        r#"
[steps]
x = "rnorm(10)"
a = "c(1, 3, 5, 0, 1.5, 2, 9, 10, 4, 10, 7, 1)"
b = "c(5, 3, 2, 3, 3, 3.5, 12, 10, 4, 11, 1, 10)"
fast = { for = "k in 1:12", do = "x[a[k]:b[k]]" }
slow = { for = "k in 1:12", do = "x[c(a[k]:b[k])]" }
"#,
    );
    let r = run_all(&wf, &g, Scheduler::Dynamic, 1);
    let value = |step: &str| r.outcomes[task(&g, step).id].value.clone().unwrap();
    // Printed, since NA past the end is a NaN, unequal to itself.
    assert_eq!(
        format!("{:?}", value("fast")),
        format!("{:?}", value("slow"))
    );
    let Value::List(l) = &*value("fast") else {
        panic!("a list")
    };
    assert_eq!(l.items.len(), 12);
    assert_eq!(l.items[11].len(), 10);
}
