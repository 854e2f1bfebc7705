use std::path::Path;

use super::generate::{generate_stg, Method};
use super::*;
use crate::cost::Comm;
use crate::sched::{plan, Schedule, Scheduler};

const SMALL: &str = "  3
  0  0  0
  1  4  1  0
  2  3  1  0
  3  5  2  1  2
  4  0  1  3
#
# three tasks, the dummies free
";

fn err(text: &str) -> String {
    Dag::from_stg(text).unwrap_err()
}

#[test]
fn parses_the_set_format_dropping_free_dummies() {
    let dag = Dag::from_stg(SMALL).unwrap();
    let names: Vec<&str> = dag.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["1", "2", "3"]);
    assert_eq!(dag.total_work(), 12.0);
    let mut edges: Vec<(usize, usize)> = dag.edges.iter().map(|e| (e.from, e.to)).collect();
    edges.sort();
    assert_eq!(edges, [(0, 2), (1, 2)]);
    assert_eq!(dag.critical_path(), 9.0);
}

#[test]
fn costly_dummies_are_kept_and_order_the_graph() {
    let dag = Dag::from_stg("1\n0 2 0\n1 3 1 0\n2 1 1 1\n").unwrap();
    assert_eq!(dag.nodes.len(), 3);
    assert_eq!(dag.critical_path(), 6.0);
}

#[test]
fn forward_references_are_accepted_when_acyclic() {
    // Task 1 waits for task 2, listed after it.
    let dag = Dag::from_stg("2\n0 0 0\n1 4 1 2\n2 3 1 0\n3 0 1 1\n").unwrap();
    assert_eq!(dag.critical_path(), 7.0);
}

#[test]
fn malformed_numbers_say_line_and_column() {
    assert_eq!(
        err("x\n"),
        "1:1: the number of tasks must be a non-negative integer, not `x`"
    );
    assert_eq!(
        err("1\n0 0 0\n1 -4 1 0\n2 0 1 1\n"),
        "3:3: task 1: cost must be a non-negative number, not -4"
    );
    assert_eq!(
        err("1\n0 0 0\n1 NaN 1 0\n2 0 1 1\n"),
        "3:3: task 1: cost must be a non-negative number, not NaN"
    );
    assert_eq!(
        err("1\n0 0 0\n1 4x 1 0\n"),
        "3:3: task 1: cost `4x` is not a number"
    );
    assert_eq!(
        err("1\n0 0 0\n1 4 1 0.5\n"),
        "3:7: a predecessor id must be a non-negative integer, not `0.5`"
    );
    assert_eq!(
        err("1\n0 0 0\n1 4\n"),
        "3:4: task line ends before its number of predecessors"
    );
    assert_eq!(
        err("1 2\n"),
        "1:3: expected only the number of tasks on this line, found `2`"
    );
    assert_eq!(
        err("# only a comment\n"),
        "empty file: expected the number of tasks on the first line"
    );
}

#[test]
fn wrong_counts_and_ids_are_named() {
    assert_eq!(
        err("1\n0 0 0\n1 4 2 0\n2 0 1 1\n"),
        "3:5: task 1 says it has 2 predecessors but lists 1"
    );
    assert_eq!(
        err("1\n0 0 0\n2 4 1 0\n"),
        "3:1: expected task 1 here (tasks are numbered 0..=2 in order), found 2"
    );
    let e = err("2\n0 0 0\n1 4 1 0\n");
    assert!(
        e.contains("ends after 2 task lines; the header promises 4"),
        "{e}"
    );
    assert_eq!(
        err("1\n0 0 0\n1 4 1 0\n2 0 1 1\n3 0 0\n"),
        "5:1: unexpected data after the last task (2); comments must start with `#`"
    );
}

#[test]
fn bad_predecessors_are_named() {
    assert_eq!(
        err("1\n0 0 0\n1 4 1 7\n2 0 1 1\n"),
        "3:7: task 1: predecessor 7 is out of range (tasks are 0..=2)"
    );
    assert_eq!(
        err("1\n0 0 0\n1 4 1 1\n2 0 1 1\n"),
        "3:7: task 1 lists itself as a predecessor"
    );
    // 1 waits for 3, 3 for 2, 2 for 1.
    assert_eq!(
        err("3\n0 0 0\n1 1 1 3\n2 1 1 1\n3 1 1 2\n4 0 1 3\n"),
        "4:7: the predecessors make a cycle: tasks 2 -> 3 -> 1 -> 2"
    );
}

#[test]
fn the_cycle_error_points_at_an_edge_of_the_cycle() {
    let e = err("3\n0 0 0\n1 4 1 0\n2 3 1 3\n3 5 2 1 2\n4 0 1 3\n");
    assert_eq!(e, "5:9: the predecessors make a cycle: tasks 3 -> 2 -> 3");
}

#[test]
fn json_errors_name_the_offending_id_or_place() {
    let j = |t: &str| Dag::from_json(t).unwrap_err();
    assert_eq!(
        j("{\"tasks\":[{\"id\":\"a\",\"cost\":1}\n,{\"id\":\"b\" \"cost\":1}]}"),
        "2:12: expected `,` or `}`"
    );
    assert!(j(r#"{"tasks":[{"id":"a","cost":1},{"id":"a","cost":2}]}"#)
        .contains("task `a` is defined twice"));
    assert!(
        j(r#"{"tasks":[{"id":"a","cost":1}],"edges":[{"from":"z","to":"a"}]}"#)
            .contains("edge 0: no task `z`")
    );
    assert!(j(r#"{"tasks":[{"id":"q","cost":-2}]}"#)
        .contains("task `q`: cost must be a non-negative number, not -2"));
    // JSON has no NaN literal: it is a syntax error with its place.
    assert!(j(r#"{"tasks":[{"id":"q","cost":NaN}]}"#).starts_with("1:"));
    assert!(j(r#"{"tasks":[{"id":"q","cost":1e999}]}"#).starts_with("1:"));
    assert_eq!(
        j(
            r#"{"tasks":[{"id":"a","cost":1},{"id":"b","cost":1},{"id":"c","cost":1}],
              "edges":[{"from":"a","to":"b"},{"from":"b","to":"c"},{"from":"c","to":"b"}]}"#
        ),
        "the edges make a cycle: tasks c -> b -> c"
    );
    assert!(
        j(r#"{"tasks":[{"id":"a","cost":1}],"edges":[{"from":"a","to":"a"}]}"#)
            .contains("tasks a -> a")
    );
}

#[test]
fn the_file_kind_comes_from_the_extension_or_the_content() {
    let json = r#"{"tasks":[{"id":"a","cost":1}]}"#;
    assert_eq!(
        Dag::from_file_text(Path::new("g.json"), json)
            .unwrap()
            .nodes
            .len(),
        1
    );
    assert_eq!(
        Dag::from_file_text(Path::new("g.txt"), json)
            .unwrap()
            .nodes
            .len(),
        1
    );
    assert_eq!(
        Dag::from_file_text(Path::new("g.stg"), SMALL)
            .unwrap()
            .nodes
            .len(),
        3
    );
    assert_eq!(
        Dag::from_file_text(Path::new("rand0000"), SMALL)
            .unwrap()
            .nodes
            .len(),
        3
    );
    // An `.stg` that holds JSON is read as STG and says so in STG's terms.
    assert!(Dag::from_file_text(Path::new("g.stg"), json)
        .unwrap_err()
        .starts_with("1:1:"));
    let e = Dag::from_file_text(Path::new("g"), "garbage").unwrap_err();
    assert!(e.contains("read as STG"), "{e}");
}

/// Precedence (no communication: shared memory), one item per task, no
/// overlap on a worker, and the lower bound, in O(items + edges).
fn check(dag: &Dag, s: &Schedule, what: &str) {
    let eps = 1e-9;
    let mut span = vec![None; dag.nodes.len()];
    for it in &s.items {
        assert!(span[it.node].is_none(), "{what}: task {} twice", it.node);
        assert!(
            (it.end - it.start - dag.nodes[it.node].cost).abs() < eps,
            "{what}: wrong length"
        );
        span[it.node] = Some((it.start, it.end));
    }
    assert!(
        span.iter().all(Option::is_some),
        "{what}: a task is missing"
    );
    for e in &dag.edges {
        let (from, to) = (span[e.from].unwrap(), span[e.to].unwrap());
        assert!(
            to.0 + eps >= from.1,
            "{what}: task {} starts before {} ends",
            dag.nodes[e.to].name,
            dag.nodes[e.from].name
        );
    }
    for pair in s.items.windows(2) {
        if pair[0].worker == pair[1].worker {
            assert!(
                pair[1].start + eps >= pair[0].end,
                "{what}: overlap on worker {}",
                pair[0].worker
            );
        }
    }
    assert!(
        s.makespan() + eps >= dag.lower_bound(s.workers),
        "{what}: below the lower bound"
    );
}

#[test]
fn schedules_of_generated_stg_graphs_respect_precedence_and_the_bound() {
    let mut at_bound = 0;
    let mut runs = 0;
    for method in Method::ALL {
        for (seed, n) in [(1u64, 10usize), (2, 50), (3, 120)] {
            for avg in [1.0, 3.0] {
                let text = generate_stg(method, n, avg, seed);
                let dag = Dag::from_stg(&text).unwrap();
                assert_eq!(dag.nodes.len(), n, "{}: dummies dropped", method.name());
                for p in [1, 2, 3, 8] {
                    for kind in [
                        Scheduler::Mcp,
                        Scheduler::Emcp,
                        Scheduler::Baseline,
                        Scheduler::Dynamic,
                    ] {
                        let s = plan(&dag, &Comm::SHARED_MEMORY, p, kind);
                        check(
                            &dag,
                            &s,
                            &format!("{} n={n} p={p} {}", method.name(), kind.name()),
                        );
                        runs += 1;
                        at_bound += usize::from(s.makespan() <= dag.lower_bound(p) + 1e-9);
                    }
                }
            }
        }
    }
    // On one worker every list scheduler is at the bound (the total work).
    assert!(at_bound >= runs / 4, "{at_bound} of {runs} at the bound");
}

#[test]
fn generated_graphs_round_trip_their_structure() {
    for method in Method::ALL {
        let text = generate_stg(method, 200, 3.0, 7);
        let dag = Dag::from_stg(&text).unwrap();
        assert!(
            dag.edges.iter().all(|e| e.from < e.to),
            "{}: topological numbering",
            method.name()
        );
        assert!(dag
            .nodes
            .iter()
            .all(|n| (1.0..=10.0).contains(&n.cost) && n.cost.fract() == 0.0));
        // Average predecessors near the asked-for 3 (layered graphs lose
        // the first layer's).
        let avg = dag.edges.len() as f64 / 200.0;
        assert!(
            (1.5..=4.5).contains(&avg),
            "{}: {avg} predecessors on average",
            method.name()
        );
    }
}

#[test]
fn the_communication_cost_variant_gives_edge_bytes() {
    let dag = Dag::from_stg("2\n0 0 0\n1 4 1 0 0\n2 3 1 1 7\n3 0 1 2 0\n").unwrap();
    assert_eq!(dag.edges.len(), 1);
    assert_eq!(dag.edges[0].bytes, 7.0);
    assert_eq!(
        err("2\n0 0 0\n1 4 1 0\n2 3 1 1 x\n3 0 1 2\n"),
        "4:9: task 2: communication cost must be a non-negative number, not `x`"
    );
    // Three numbers for one predecessor are neither variant.
    assert_eq!(
        err("2\n0 0 0\n1 4 1 0\n2 3 1 1 7 8\n3 0 1 2\n"),
        "4:5: task 2 says it has 1 predecessors but lists 3"
    );
}
