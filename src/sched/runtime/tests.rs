//! The runtime on simulated runs: exactly once, precedence, no bubble after
//! a test drive, and re-planning that pays for itself under overruns.

use super::*;
use crate::cost::model::SplitMix;
use crate::sched::tests::random_dag;

fn identity() -> Estimator {
    Box::new(|_, s| s)
}

/// Every node once, every iteration once, inputs before readers, no
/// worker running two things at once.
fn check_run(dag: &Dag, ran: &Schedule, what: &str) {
    let eps = 1e-9;
    for (id, node) in dag.nodes.iter().enumerate() {
        let items: Vec<&Item> = ran.items.iter().filter(|i| i.node == id).collect();
        match node.iterations() {
            Some(n) if n > 0 => {
                let mut seen = vec![0u32; n];
                for it in &items {
                    for k in it.iterations.clone().expect("a loop's work has iterations") {
                        seen[k] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&c| c == 1),
                    "{what}: loop {id} iterations not run exactly once: {items:?}"
                );
            }
            _ => assert_eq!(
                items.len(),
                1,
                "{what}: node {id} ran {} times",
                items.len()
            ),
        }
    }
    for e in &dag.edges {
        let end = ran
            .items
            .iter()
            .filter(|i| i.node == e.from)
            .map(|i| i.end)
            .fold(0.0, f64::max);
        for to in ran.items.iter().filter(|i| i.node == e.to) {
            assert!(
                to.start + eps >= end,
                "{what}: {} started at {} before its input {} ended at {end}",
                e.to,
                to.start,
                e.from
            );
        }
    }
    for w in 0..ran.workers {
        let q: Vec<&Item> = ran.queue(w).collect();
        for pair in q.windows(2) {
            assert!(pair[0].end <= pair[1].start + eps, "{what}: overlap on {w}");
        }
    }
}

/// `dag` with each node's cost multiplied by a log-normal factor.
fn noisy(dag: &Dag, g: &mut SplitMix, spread: f64) -> Dag {
    let mut d = dag.clone();
    for n in &mut d.nodes {
        // Sum of uniforms: near-normal, bounded.
        let z = (0..4).map(|_| g.uniform() - 0.5).sum::<f64>() * 1.7;
        n.cost *= (spread * z).exp();
    }
    d
}

fn loops_of(dag: &Dag, p: usize) -> Vec<NodeId> {
    (0..dag.nodes.len())
        .filter(|&i| dag.nodes[i].iterations().is_some_and(|n| n >= p * 8))
        .collect()
}

#[test]
fn simulated_runs_run_everything_once_in_order() {
    let mut g = SplitMix(3);
    for seed in 0..120u64 {
        let dag = random_dag(seed);
        for p in [1, 2, 3, 8] {
            for policy in [Policy::FOLLOW, Policy::ADAPTIVE] {
                let drives = loops_of(&dag, p);
                let mut rt = Runtime::emcp(
                    &dag,
                    &Comm::SHARED_MEMORY,
                    p,
                    8,
                    &drives,
                    policy,
                    identity(),
                );
                let actual = noisy(&dag, &mut g, 0.5);
                let ran = rt.simulate(&actual);
                check_run(&dag, &ran, &format!("seed {seed}, p {p}, {policy:?}"));
            }
        }
    }
}

#[test]
fn the_initial_plan_covers_the_graph_and_follows_it_when_costs_are_right() {
    for seed in 0..60u64 {
        let dag = random_dag(seed);
        let p = 4;
        let mut rt = Runtime::emcp(
            &dag,
            &Comm::SHARED_MEMORY,
            p,
            8,
            &[],
            Policy::FOLLOW,
            identity(),
        );
        let plan = rt.followed();
        validate(&dag, &plan).unwrap();
        let predicted = rt.predicted_makespan();
        let ran = rt.simulate(&dag);
        // Pieces of a block run back to back, so the run ends as planned.
        assert!(
            (ran.makespan() - predicted).abs() <= 1e-6 * predicted.max(1.0),
            "seed {seed}: ran {} planned {predicted}",
            ran.makespan()
        );
    }
}

/// The paper's bubble: a test-driven loop and a long independent call
/// planned beside it. Stage 2 used to wait for the call; now the loop's
/// rest starts as soon as its drive has measured it, and no worker idles
/// while a task is ready.
#[test]
fn a_long_filler_does_not_hold_back_the_test_driven_loop() {
    let mut dag = Dag::default();
    dag.nodes.push(Node::function("a", 0.1)); // 0
    dag.nodes.push(Node::function("long", 5.0)); // 1
    dag.nodes.push(Node::looped("loop", 0.6, 1200)); // 2: predicted far too cheap
    dag.nodes.push(Node::function("x", 1.0)); // 3
    dag.nodes.push(Node::function("y", 1.0)); // 4
    dag.nodes.push(Node::function("z", 0.5)); // 5
    for (from, to) in [(0, 2), (0, 3), (0, 4), (2, 5)] {
        dag.edges.push(Edge {
            from,
            to,
            bytes: 0.0,
        });
    }
    let mut actual = dag.clone();
    actual.nodes[2].cost = 6.0;
    let p = 4;
    let mut rt = Runtime::emcp(
        &dag,
        &Comm::SHARED_MEMORY,
        p,
        8,
        &[2],
        Policy::ADAPTIVE,
        identity(),
    );
    let ran = rt.simulate(&actual);
    check_run(&dag, &ran, "bubble");
    let drive_end = ran
        .items
        .iter()
        .find(|i| i.node == 2 && i.iterations.as_ref().is_some_and(|r| r.start == 0))
        .map(|i| i.end)
        .unwrap();
    let rest_start = ran
        .items
        .iter()
        .filter(|i| i.node == 2 && i.iterations.as_ref().is_some_and(|r| r.start > 0))
        .map(|i| i.start)
        .fold(f64::INFINITY, f64::min);
    assert!(
        rest_start <= drive_end + 1e-9,
        "the loop's rest waited: {rest_start} > {drive_end}"
    );
    assert!(rest_start < 5.0, "the loop waited for the long call");
    // No idle worker while something was ready: every start is at its
    // inputs' end or when some worker... all workers were busy.
    no_idle_while_ready(&dag, &ran);
    // Work is 0.1 + 5 + 6 + 2.5 = 13.6 on 4 workers, the long call 5: the
    // run ends near max(5, 3.4) plus the chain after the loop.
    assert!(ran.makespan() < 6.0, "makespan {}", ran.makespan());
}

/// For every item, no worker was idle between the moment its inputs were
/// complete and its start.
fn no_idle_while_ready(dag: &Dag, ran: &Schedule) {
    let eps = 1e-9;
    let end_of = |n: NodeId| {
        ran.items
            .iter()
            .filter(|i| i.node == n)
            .map(|i| i.end)
            .fold(0.0, f64::max)
    };
    let busy = |w: usize, t: f64| ran.queue(w).any(|i| i.start <= t + eps && t < i.end - eps);
    for item in ran.items.iter().filter(|i| i.iterations.is_none()) {
        let ready = dag
            .edges
            .iter()
            .filter(|e| e.to == item.node)
            .map(|e| end_of(e.from))
            .fold(0.0, f64::max);
        // Sample the interval between ready and start at every event time.
        let mut times: Vec<f64> = ran
            .items
            .iter()
            .flat_map(|i| [i.start, i.end])
            .filter(|&t| t >= ready - eps && t < item.start - eps)
            .collect();
        times.push(ready);
        for t in times.into_iter().filter(|&t| t < item.start - eps) {
            assert!(
                (0..ran.workers).all(|w| busy(w, t)),
                "node {} ready at {ready} started at {}; a worker idled at {t}",
                item.node,
                item.start
            );
        }
    }
}

/// Re-planning on surprise, on random graphs with one task made slow on
/// purpose: never later than following the plan by more than the overrun.
#[test]
fn replanning_under_injected_overruns_costs_at_most_the_overrun() {
    let mut g = SplitMix(11);
    let mut better = 0;
    let mut total = 0;
    for seed in 0..150u64 {
        let dag = random_dag(seed);
        let p = [2, 4, 8][seed as usize % 3];
        let slow = g.below(dag.nodes.len());
        let mut actual = dag.clone();
        let factor = 2.0 + 6.0 * g.uniform();
        actual.nodes[slow].cost *= factor;
        let overrun = actual.nodes[slow].cost - dag.nodes[slow].cost;
        let run = |policy: Policy| {
            let mut rt = Runtime::emcp(&dag, &Comm::SHARED_MEMORY, p, 8, &[], policy, identity());
            let ran = rt.simulate(&actual);
            check_run(&dag, &ran, &format!("seed {seed} {policy:?}"));
            ran.makespan()
        };
        let follow = run(Policy::FOLLOW);
        let adaptive = run(Policy::ADAPTIVE);
        assert!(
            adaptive <= follow + overrun + 1e-9,
            "seed {seed}, p {p}: adaptive {adaptive} vs following {follow} (+{overrun})"
        );
        total += 1;
        if adaptive < follow - 1e-9 {
            better += 1;
        }
    }
    assert!(
        better * 5 >= total,
        "re-planning helped in only {better} of {total}"
    );
}

#[test]
fn ranges_map_through_gaps() {
    let rs = vec![2..5, 8..10, 20..21];
    assert_eq!(map_range(&rs, 0..6), vec![2..5, 8..10, 20..21]);
    assert_eq!(map_range(&rs, 2..4), vec![4..5, 8..9]);
    assert_eq!(map_range(&rs, 5..6), vec![20..21]);
    assert!(map_range(&rs, 6..9).is_empty());
}

#[test]
fn follow_refuses_a_plan_that_runs_something_twice() {
    let mut dag = Dag::default();
    dag.nodes.push(Node::looped("l", 1.0, 10));
    let item = |r: Range<usize>, w| Item {
        node: 0,
        iterations: Some(r),
        worker: w,
        start: 0.0,
        end: 1.0,
        lanes: Vec::new(),
    };
    let twice = Schedule::sorted(2, vec![item(0..6, 0), item(5..10, 1)]);
    assert!(Runtime::follow(&dag, &Comm::SHARED_MEMORY, &twice, Policy::FOLLOW).is_err());
    let gap = Schedule::sorted(2, vec![item(0..4, 0), item(5..10, 1)]);
    assert!(Runtime::follow(&dag, &Comm::SHARED_MEMORY, &gap, Policy::FOLLOW).is_err());
    let ok = Schedule::sorted(2, vec![item(0..5, 0), item(5..10, 1)]);
    assert!(Runtime::follow(&dag, &Comm::SHARED_MEMORY, &ok, Policy::FOLLOW).is_ok());
}

#[test]
fn a_wide_call_lends_its_lanes_until_it_ends() {
    let mut dag = Dag::default();
    dag.nodes
        .push(Node::function("w", 1.0).moldable(crate::cost::Usl::new(0.0, 0.0)));
    let wide = Item {
        node: 0,
        iterations: None,
        worker: 0,
        start: 0.0,
        end: 0.5,
        lanes: vec![1],
    };
    let plan = Schedule::sorted(3, vec![wide]);
    let mut rt = Runtime::follow(&dag, &Comm::SHARED_MEMORY, &plan, Policy::FOLLOW).unwrap();
    assert!(!rt.is_lent(1));
    let work = rt.next(0, 0.0).expect("the call starts");
    assert_eq!(work.lanes, vec![1]);
    assert!(rt.is_lent(1), "held while the call runs");
    assert!(!rt.is_lent(0) && !rt.is_lent(2) && !rt.is_lent(9));
    rt.finish(0, 0.5, 0.0);
    assert!(!rt.is_lent(1));
}

/// How the runtime's policy was chosen: random workflow-like graphs whose
/// real costs are the predictions times log-normal noise, replayed at
/// p = 2…32; mean makespan over the lower bound from the real costs, and
/// greedy list scheduling with the real costs (what work-stealing does at
/// best) beside. `cargo test --release policy_table -- --ignored --nocapture`
#[test]
#[ignore]
fn policy_table() {
    let variants: Vec<(&str, Policy)> = vec![
        ("follow", Policy::FOLLOW),
        (
            "steal fits",
            Policy {
                steal: Steal::Fits,
                ..Policy::FOLLOW
            },
        ),
        (
            "replan 1.3",
            Policy {
                steal: Steal::Never,
                ..Policy::ADAPTIVE
            },
        ),
        (
            "both 1.2",
            Policy {
                surprise_factor: 1.2,
                ..Policy::ADAPTIVE
            },
        ),
        ("both 1.3", Policy::ADAPTIVE),
        (
            "both 1.5",
            Policy {
                surprise_factor: 1.5,
                ..Policy::ADAPTIVE
            },
        ),
        (
            "both 2.0",
            Policy {
                surprise_factor: 2.0,
                ..Policy::ADAPTIVE
            },
        ),
    ];
    for spread in [0.1, 0.3, 0.6] {
        for p in [2, 8, 16, 32] {
            let mut g = SplitMix(7 + p as u64);
            let mut sums = vec![0.0; variants.len() + 1];
            let graphs = 200;
            for seed in 0..graphs {
                let dag = random_dag(1000 + seed);
                let actual = noisy(&dag, &mut g, spread);
                let lb = actual.lower_bound(p);
                for (k, (_, policy)) in variants.iter().enumerate() {
                    let drives = loops_of(&dag, p);
                    let mut rt = Runtime::emcp(
                        &dag,
                        &Comm::SHARED_MEMORY,
                        p,
                        8,
                        &drives,
                        *policy,
                        identity(),
                    );
                    sums[k] += rt.simulate(&actual).makespan() / lb;
                }
                let greedy = super::super::plan(
                    &actual,
                    &Comm::SHARED_MEMORY,
                    p,
                    super::super::Scheduler::Dynamic,
                );
                sums[variants.len()] += greedy.makespan() / lb;
            }
            let row: Vec<String> = sums
                .iter()
                .map(|s| format!("{:.3}", s / graphs as f64))
                .collect();
            println!(
                "spread {spread} p {p:2}: {} | greedy {}",
                row[..variants.len()].join(" "),
                row[variants.len()]
            );
        }
    }
    println!(
        "columns: {}",
        variants.iter().map(|v| v.0).collect::<Vec<_>>().join(", ")
    );
}

/// How emcp's allotment of moldable calls was chosen: random
/// workflow-like graphs, half their calls moldable, whose real costs are
/// the predictions times log-normal noise and whose real speedups are the
/// predicted USL's with σ and κ off by a log-normal factor; replayed by
/// the adaptive runtime at p = 4…32. Mean makespan over the lower bound
/// of the real costs, per variant, with every call narrow and greedy list
/// scheduling with the real costs beside.
/// `cargo test --release allotment_table -- --ignored --nocapture`
#[test]
#[ignore]
fn allotment_table() {
    use crate::cost::Usl;
    use crate::sched::moldable::{Variant, VARIANT};
    let variants = [Variant::Mcpa, Variant::NearOnly, Variant::Shipped];
    for spread in [0.1, 0.3] {
        for p in [4, 8, 16, 32] {
            let mut g = SplitMix(11 + p as u64);
            let mut sums = vec![0.0; variants.len() + 2];
            let graphs = 300;
            for seed in 0..graphs {
                let mut dag = random_dag(5000 + seed);
                let mut actual = noisy(&dag, &mut g, spread);
                for (n, a) in dag.nodes.iter_mut().zip(actual.nodes.iter_mut()) {
                    if n.iterations().is_none() && g.uniform() < 0.5 {
                        let usl = Usl::new(0.02 + 0.38 * g.uniform(), 0.005 * g.uniform());
                        n.speedup = Some(usl);
                        let off = |g: &mut SplitMix| {
                            let z = (0..4).map(|_| g.uniform() - 0.5).sum::<f64>() * 1.7;
                            (0.5 * z).exp()
                        };
                        a.speedup = Some(Usl::new(
                            (usl.sigma * off(&mut g)).min(1.0),
                            usl.kappa * off(&mut g),
                        ));
                    }
                }
                let lb = actual.lower_bound(p);
                let run = |dag: &Dag, actual: &Dag| {
                    let mut rt = Runtime::emcp(
                        dag,
                        &Comm::SHARED_MEMORY,
                        p,
                        8,
                        &loops_of(dag, p),
                        Policy::ADAPTIVE,
                        identity(),
                    );
                    rt.simulate(actual).makespan()
                };
                for (k, v) in variants.iter().enumerate() {
                    VARIANT.set(*v);
                    sums[k] += run(&dag, &actual) / lb;
                }
                VARIANT.set(Variant::Shipped);
                let mut narrow = dag.clone();
                for n in &mut narrow.nodes {
                    n.speedup = None;
                }
                sums[variants.len()] += run(&narrow, &actual) / lb;
                let greedy = super::super::plan(
                    &actual,
                    &Comm::SHARED_MEMORY,
                    p,
                    super::super::Scheduler::Dynamic,
                );
                sums[variants.len() + 1] += greedy.makespan() / lb;
            }
            let row: Vec<String> = sums
                .iter()
                .map(|s| format!("{:.3}", s / graphs as f64))
                .collect();
            println!("spread {spread} p {p:2}: {}", row.join(" "));
        }
    }
    println!(
        "columns: MCPA, near-critical, shipped (near-critical + candidates), all narrow, greedy"
    );
}
