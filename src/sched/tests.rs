//! Properties every scheduler must keep, on seeded random graphs, and the
//! paper's worked example.

use super::*;
use crate::cost::model::SplitMix;
use crate::cost::Usl;

/// A random DAG: edges only from lower to higher ids, some loops.
pub(crate) fn random_dag(seed: u64) -> Dag {
    let mut g = SplitMix(seed);
    let n = 2 + g.below(30);
    let mut dag = Dag::default();
    for i in 0..n {
        let cost = 0.1 + 10.0 * g.uniform();
        if g.uniform() < 0.25 {
            dag.nodes.push(Node::looped(
                &format!("L{i}"),
                cost * 5.0,
                1 + g.below(2000),
            ));
        } else {
            dag.nodes.push(Node::function(&format!("t{i}"), cost));
        }
    }
    let edges = g.below(2 * n);
    for _ in 0..edges {
        let a = g.below(n);
        let b = g.below(n);
        if a < b && !dag.edges.iter().any(|e| e.from == a && e.to == b) {
            dag.edges.push(Edge {
                from: a,
                to: b,
                bytes: 1e6 * g.uniform(),
            });
        }
    }
    dag
}

fn check_valid(dag: &Dag, s: &Schedule, comm: &Comm, what: &str) {
    let eps = 1e-9;
    // A call's lanes share its process: one rank.
    if let Some(n) = comm.network {
        for it in &s.items {
            assert!(
                it.all_lanes().all(|w| n.rank_of(w) == n.rank_of(it.worker)),
                "{what}: node {} spans ranks: {:?} + {:?}",
                it.node,
                it.worker,
                it.lanes
            );
        }
    }
    // Every function node once; every loop iteration exactly once.
    for (id, node) in dag.nodes.iter().enumerate() {
        let items: Vec<&Item> = s.items.iter().filter(|i| i.node == id).collect();
        match node.iterations() {
            None => assert_eq!(
                items.len(),
                1,
                "{what}: node {id} scheduled {} times",
                items.len()
            ),
            Some(n) => {
                let mut seen = vec![0u32; n];
                for it in &items {
                    for k in it.iterations.clone().expect("loop item has iterations") {
                        seen[k] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&c| c == 1),
                    "{what}: loop {id} iterations not covered exactly once"
                );
            }
        }
    }
    // No worker runs two items at once.
    for w in 0..s.workers {
        let mut q: Vec<&Item> = s.queue(w).collect();
        q.sort_by(|a, b| a.start.total_cmp(&b.start));
        for pair in q.windows(2) {
            assert!(
                pair[0].end <= pair[1].start + eps,
                "{what}: overlap on worker {w}"
            );
        }
    }
    // Precedence, with communication between workers.
    for e in &dag.edges {
        for to in s.items.iter().filter(|i| i.node == e.to) {
            for from in s.items.iter().filter(|i| i.node == e.from) {
                let comm_time = comm.between(from.worker, to.worker, e.bytes);
                assert!(
                    to.start + eps >= from.end + comm_time,
                    "{what}: {} starts at {} before {} ends at {} (+{comm_time})",
                    e.to,
                    to.start,
                    e.from,
                    from.end
                );
            }
        }
    }
    assert!(
        s.makespan() + eps >= dag.lower_bound(s.workers),
        "{what}: makespan {} below the lower bound {}",
        s.makespan(),
        dag.lower_bound(s.workers)
    );
}

#[test]
fn every_scheduler_keeps_the_invariants_on_random_graphs() {
    let comms = [
        Comm::SHARED_MEMORY,
        Comm::local(0.01, 1e-8),
        Comm {
            network: Some(crate::cost::Network {
                per_rank: 3,
                latency: 0.05,
                per_byte: 1e-7,
            }),
            ..Comm::local(0.01, 1e-8)
        },
    ];
    for seed in 0..150 {
        let mut dag = random_dag(seed);
        // Some calls moldable, so that gangs meet the ranks' bounds.
        for (i, n) in dag.nodes.iter_mut().enumerate() {
            if i % 3 == 1 && n.iterations().is_none() {
                n.speedup = Some(Usl::new(0.05, 0.001));
            }
        }
        for p in [1, 2, 3, 8, 16, 32] {
            for comm in &comms {
                for kind in Scheduler::ALL {
                    let s = plan(&dag, comm, p, kind);
                    check_valid(
                        &dag,
                        &s,
                        comm,
                        &format!("seed {seed} p {p} {}", kind.name()),
                    );
                    // Replaying under the same costs keeps it valid.
                    let r = simulate(&s, &dag, comm);
                    check_valid(
                        &dag,
                        &r,
                        comm,
                        &format!("replay seed {seed} p {p} {}", kind.name()),
                    );
                }
            }
        }
    }
}

#[test]
fn schedulers_are_deterministic() {
    let dag = random_dag(7);
    for kind in Scheduler::ALL {
        assert_eq!(
            plan(&dag, &Comm::SHARED_MEMORY, 8, kind),
            plan(&dag, &Comm::SHARED_MEMORY, 8, kind)
        );
    }
}

/// Section V's example: p = 7, 1200 iterations, 185 s loop, functions of
/// 14.4 s and 13.3 s (13.9 s on average, rounded in the paper) → block size 12.
#[test]
fn the_papers_worked_example_cuts_blocks_of_12() {
    assert_eq!(
        loop_granularity(13.9, 185.0, 1200, 7, 8),
        Granularity::Blocks(12)
    );
    assert_eq!(
        loop_granularity((14.4 + 13.3) / 2.0, 185.0, 1200, 7, 8),
        Granularity::Blocks(12)
    );
    let dag = Dag {
        nodes: vec![
            Node::function("f", 14.4),
            Node::function("w", 13.3),
            Node::looped("b", 185.0, 1200),
        ],
        edges: vec![],
    };
    let s = emcp(&dag, &Comm::SHARED_MEMORY, 7, 8);
    check_valid(&dag, &s, &Comm::SHARED_MEMORY, "fig1");
    // One contiguous chunk of the loop per worker after phase 3.
    let chunks: Vec<&Item> = s.items.iter().filter(|i| i.node == 2).collect();
    assert_eq!(chunks.len(), 7);
    for c in &chunks {
        assert_eq!(
            c.iterations.as_ref().map(|r| r.len() % 12),
            Some(0),
            "{c:?}"
        );
    }
    // The two functions share no worker, and the loop fills around them:
    // within one block (12 iterations = 1.85 s) of the perfect balance.
    let perfect = dag.total_work() / 7.0;
    assert!(
        s.makespan() <= perfect + 1.85 + 1e-9,
        "{} vs {perfect}",
        s.makespan()
    );
    let baseline = plan(&dag, &Comm::SHARED_MEMORY, 7, Scheduler::Baseline);
    assert!(s.makespan() < baseline.makespan());
}

#[test]
fn granularity_follows_algorithm_1() {
    // Loop dominates: even split.
    assert_eq!(loop_granularity(1.0, 1000.0, 1000, 4, 8), Granularity::Even);
    // Functions dominate: whole.
    assert_eq!(loop_granularity(100.0, 1.0, 1000, 4, 8), Granularity::Whole);
    // Too few iterations for a test drive, beside functions that dominate
    // it: even.
    assert_eq!(loop_granularity(100.0, 5.0, 31, 4, 8), Granularity::Even);
    // Too few for a test drive, and heavy: blocks that fit between the
    // functions, so a path of calls is not queued behind p long blocks.
    assert_eq!(loop_granularity(1.0, 5.0, 31, 4, 8), Granularity::Blocks(1));
    // No functions at all: even.
    assert_eq!(loop_granularity(0.0, 5.0, 1000, 4, 8), Granularity::Even);
}

#[test]
fn mcp_fills_holes() {
    // a (4) → c (1); b (1) independent: on one worker... on two workers b
    // must not wait for a.
    let dag = Dag {
        nodes: vec![
            Node::function("a", 4.0),
            Node::function("b", 1.0),
            Node::function("c", 1.0),
        ],
        edges: vec![Edge {
            from: 0,
            to: 2,
            bytes: 0.0,
        }],
    };
    let s = mcp(&dag, &Comm::SHARED_MEMORY, 2);
    assert_eq!(s.makespan(), 5.0);
    let b = s.items.iter().find(|i| i.node == 1).unwrap();
    assert_eq!(b.start, 0.0);
}

#[test]
fn lower_bound_is_critical_path_or_work_over_p() {
    let dag = Dag {
        nodes: vec![
            Node::function("a", 3.0),
            Node::function("b", 2.0),
            Node::function("c", 1.0),
        ],
        edges: vec![Edge {
            from: 0,
            to: 1,
            bytes: 0.0,
        }],
    };
    assert_eq!(dag.lower_bound(1), 6.0);
    assert_eq!(dag.lower_bound(8), 5.0);
}

/// Work that cannot start before its inputs exist cannot use the workers
/// idle until then: two 1 s inputs on 4 workers, then 6 s of work that
/// needs them (a divisible loop among it) cannot end before 1 + 6/4, though
/// critical path and work/p both say 2.
#[test]
fn lower_bound_counts_the_idle_wait_for_inputs() {
    let edge = |from, to| Edge {
        from,
        to,
        bytes: 0.0,
    };
    let dag = Dag {
        nodes: vec![
            Node::function("a", 1.0),
            Node::function("c", 1.0),
            Node::function("f", 1.0),
            Node::function("w", 1.0),
            Node::looped("b", 4.0, 100),
        ],
        edges: vec![edge(0, 2), edge(1, 3), edge(0, 4), edge(1, 4)],
    };
    // The path a → b with b spread over 4 is 1 + 4/4; work/p is 8/4.
    assert_eq!(dag.total_work() / 4.0, 2.0);
    assert_eq!(dag.lower_bound(4), 2.5);
    // And a schedule meets it: a, c side by side, then the rest spread.
    let s = mcp(&dag, &Comm::SHARED_MEMORY, 4);
    assert!(s.makespan() >= 2.5 - 1e-12, "{}", s.makespan());
}

/// pR (Figure 1(b)): the loop is divided evenly by the number of workers,
/// one block each, even on the workers busy with calls.
#[test]
fn baseline_gives_every_worker_one_block_of_a_loop() {
    let dag = Dag {
        nodes: vec![
            Node::function("f", 4.0),
            Node::function("w", 4.0),
            Node::looped("L", 8.0, 8),
        ],
        edges: vec![],
    };
    let s = plan(&dag, &Comm::SHARED_MEMORY, 4, Scheduler::Baseline);
    check_valid(&dag, &s, &Comm::SHARED_MEMORY, "pR");
    for w in 0..4 {
        assert_eq!(s.queue(w).filter(|i| i.node == 2).count(), 1, "worker {w}");
    }
    // The blocks behind the calls end at 4 + 2.
    assert_eq!(s.makespan(), 6.0);
    // emcp fills around the calls instead: (4 + 4 + 8) / 4 = 4.
    let e = plan(&dag, &Comm::SHARED_MEMORY, 4, Scheduler::Emcp);
    assert!(e.makespan() < s.makespan(), "{}", e.makespan());
}

/// A loop of no iterations (`for i in seq_len(0)`, or the files of an
/// empty directory) has nothing to cut into blocks, but must still run once
/// to make its value, `list()`, or whatever reads it never starts.
#[test]
fn a_loop_of_no_iterations_is_planned_once_and_followed_to_the_end() {
    let dag = Dag {
        nodes: vec![
            Node::function("a", 1.0),
            Node::looped("empty", 0.0, 0),
            Node::looped("costed", 2.0, 0),
            Node::looped("full", 8.0, 64),
            Node::function("n", 0.5),
        ],
        edges: [(0, 1), (1, 4), (2, 4), (0, 3), (3, 4)]
            .into_iter()
            .map(|(from, to)| Edge {
                from,
                to,
                bytes: 8.0,
            })
            .collect(),
    };
    let comm = Comm::local(0.001, 1e-9);
    for p in [1, 2, 4] {
        for kind in Scheduler::ALL {
            let what = format!("{} p {p}", kind.name());
            let s = plan(&dag, &comm, p, kind);
            check_valid(&dag, &s, &comm, &what);
            for id in [0, 1, 2, 4] {
                assert_eq!(
                    s.items.iter().filter(|i| i.node == id).count(),
                    1,
                    "{what}: node {id}"
                );
            }
            assert!(s.makespan().is_finite(), "{what}: {}", s.makespan());
            let mut rt = Runtime::follow(&dag, &comm, &s, Policy::FOLLOW).expect(&what);
            let ran = rt.simulate(&dag);
            assert!(rt.done(), "{what}: the run stalled: {ran:?}");
            // The runtime's replay: threads share memory.
            check_valid(&dag, &ran, &Comm::SHARED_MEMORY, &format!("run {what}"));
        }
        let mut rt = Runtime::emcp(
            &dag,
            &comm,
            p,
            DEFAULT_M,
            &[1, 2, 3],
            Policy::FOLLOW,
            Box::new(|_, s| s),
        );
        let ran = rt.simulate(&dag);
        assert!(rt.done(), "test-driven p {p}: the run stalled: {ran:?}");
        check_valid(
            &dag,
            &ran,
            &Comm::SHARED_MEMORY,
            &format!("test-driven p {p}"),
        );
    }
}

#[test]
fn a_loop_keeps_to_its_policys_workers_when_others_idle() {
    // A loop that stopped scaling at two workers, alone on four: emcp cuts
    // it in two, and idle workers, though they split blocks, leave it be.
    let mut dag = Dag {
        nodes: vec![Node::looped("memory_bound", 8.0, 4000)],
        edges: Vec::new(),
    };
    dag.nodes[0].policy = Some(LoopPolicy {
        kind: super::LoopKind::Guided,
        threads: 2,
    });
    let comm = Comm::SHARED_MEMORY;
    let s = plan(&dag, &comm, 4, Scheduler::Emcp);
    let planned: std::collections::BTreeSet<usize> = s.items.iter().map(|i| i.worker).collect();
    assert_eq!(planned.len(), 2, "{s:?}");
    // One block runs twice as long as predicted: a free worker would split it.
    let mut slow = dag.clone();
    slow.nodes[0].profile = crate::cost::profile::Profile::linear(4000, 1.0, 0.001);
    let mut rt = Runtime::follow(&dag, &comm, &s, Policy::ADAPTIVE).expect("follow");
    let ran = rt.simulate(&slow);
    assert!(rt.done());
    for item in &ran.items {
        let at = 0.5 * (item.start + item.end);
        let alongside = ran
            .items
            .iter()
            .filter(|o| o.start <= at && at < o.end)
            .map(|o| o.worker)
            .collect::<std::collections::BTreeSet<_>>();
        assert!(alongside.len() <= 2, "{alongside:?} at {at}: {ran:?}");
    }
    // Without the limit, the idle workers do join in.
    dag.nodes[0].policy = None;
    let s = plan(&dag, &comm, 4, Scheduler::Emcp);
    let mut rt = Runtime::follow(&dag, &comm, &s, Policy::ADAPTIVE).expect("follow");
    let ran = rt.simulate(&slow);
    let used: std::collections::BTreeSet<usize> = ran.items.iter().map(|i| i.worker).collect();
    assert_eq!(used.len(), 4, "{ran:?}");
}

/// emcp tries the all-narrow allotment among its candidates, so moldable
/// calls can only shorten its plan (issue 16: never slower than without).
#[test]
fn moldable_calls_never_lengthen_the_emcp_plan() {
    for seed in 0..200 {
        let mut dag = random_dag(seed);
        let mut g = crate::cost::model::SplitMix(seed ^ 0x5eed);
        for n in dag.nodes.iter_mut() {
            if n.iterations().is_none() && g.uniform() < 0.5 {
                n.speedup = Some(Usl::new(0.3 * g.uniform(), 0.01 * g.uniform()));
            }
        }
        for p in [2, 4, 8, 16] {
            let mut narrow = dag.clone();
            for n in narrow.nodes.iter_mut() {
                n.speedup = None;
            }
            let rigid_p = emcp(&narrow, &Comm::SHARED_MEMORY, p, DEFAULT_M).makespan();
            let molded = emcp(&dag, &Comm::SHARED_MEMORY, p, DEFAULT_M).makespan();
            assert!(
                molded <= rigid_p * (1.0 + 1e-9),
                "seed {seed} p {p}: moldable {molded} against narrow {rigid_p}"
            );
        }
    }
}

/// A two-worker plan: `a` then `d` on worker 0, `b` (which reads `a`) on
/// worker 1, handing a value costs `latency`.
fn handed_over(latency: f64, d: bool) -> (Dag, Comm, Schedule) {
    let mut nodes = vec![Node::function("a", 1.0), Node::function("b", 0.1)];
    let item = |node, worker, start, end| Item {
        node,
        iterations: None,
        worker,
        start,
        end,
        lanes: Vec::new(),
    };
    let mut items = vec![item(0, 0, 0.0, 1.0), item(1, 1, 1.0, 1.1)];
    if d {
        nodes.push(Node::function("d", 1.0));
        items.push(item(2, 0, 1.0, 2.0));
    }
    let dag = Dag {
        nodes,
        edges: vec![Edge {
            from: 0,
            to: 1,
            bytes: 0.0,
        }],
    };
    (dag, Comm::local(latency, 0.0), Schedule::sorted(2, items))
}

#[test]
fn a_ready_item_waits_for_its_sleeping_worker_no_longer_than_a_hand_off() {
    let (dag, comm, s) = handed_over(0.01, false);
    let mut rt = Runtime::follow(&dag, &comm, &s, Policy::ADAPTIVE).expect("follow");
    assert_eq!(rt.next(0, 0.0).map(|w| w.node), Some(0));
    assert_eq!(rt.next(1, 0.0), None, "b waits for a");
    rt.finish(0, 1.0, 0.0);
    // Worker 1 has not asked since: it is asleep. Within a hand-off, b is
    // left for it...
    assert_eq!(rt.next(0, 1.005), None);
    // ...past one, the awake worker takes it.
    assert_eq!(rt.next(0, 1.02).map(|w| w.node), Some(1));
    rt.finish(0, 1.12, 0.0);
    assert!(rt.done());

    // A worker with its own ready work does that first.
    let (dag, comm, s) = handed_over(0.01, true);
    let mut rt = Runtime::follow(&dag, &comm, &s, Policy::ADAPTIVE).expect("follow");
    assert_eq!(rt.next(0, 0.0).map(|w| w.node), Some(0));
    rt.finish(0, 1.0, 0.0);
    assert_eq!(rt.next(0, 1.5).map(|w| w.node), Some(2));
    // Worker 1 woke meanwhile and takes its own.
    assert_eq!(rt.next(1, 1.6).map(|w| w.node), Some(1));
}

#[test]
fn a_surprise_smaller_than_a_few_re_plans_is_not_re_planned() {
    // A chain and a side task: the chain's head ends at twice its
    // prediction, far off by the policy's factor and share.
    let dag = Dag {
        nodes: vec![
            Node::function("head", 1.0),
            Node::function("tail", 1.0),
            Node::function("side", 1.5),
        ],
        edges: vec![Edge {
            from: 0,
            to: 1,
            bytes: 0.0,
        }],
    };
    let comm = Comm::SHARED_MEMORY;
    let run = |replan_seconds: f64| {
        let mut rt = Runtime::emcp(
            &dag,
            &comm,
            2,
            DEFAULT_M,
            &[],
            Policy::ADAPTIVE,
            Box::new(|_, s| s),
        );
        rt.replan_took(replan_seconds);
        let w = (0..2)
            .find(|&w| rt.next(w, 0.0).is_some_and(|work| work.node == 0))
            .expect("the head starts at once");
        rt.finish(w, 2.0, 0.0)
    };
    // A re-plan that takes a tenth of a second is worth computing for a
    // second's surprise...
    assert!(run(0.1).planned);
    // ...one that takes half a second is not.
    let f = run(0.5);
    assert!(!f.planned && !f.replanned, "{f:?}");
}
