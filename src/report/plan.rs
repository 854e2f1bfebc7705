//! `flowcast plan`: a predicted schedule as text (a Gantt chart per worker,
//! the tasks with their predicted times, each loop's partition) or JSON.

use std::fmt::Write;

use serde_json::json;

use crate::graph::TaskGraph;
use crate::pipeline::Plan;

const WIDTH: usize = 60;

/// A character per task, cycling through letters, for the text chart.
fn glyph(task: usize) -> char {
    const GLYPHS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    GLYPHS[task % GLYPHS.len()] as char
}

pub fn render(graph: &TaskGraph, plan: &Plan) -> String {
    let s = &plan.schedule;
    let makespan = s.makespan().max(1e-12);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} on {} workers: predicted makespan {:.3} s (lower bound {:.3} s)\n",
        plan.scheduler.name(),
        plan.workers,
        s.makespan(),
        plan.dag.lower_bound(plan.workers)
    );
    for w in 0..s.workers {
        let mut lane = vec!['.'; WIDTH];
        for item in s.lane(w) {
            let a = ((item.start / makespan) * WIDTH as f64).floor() as usize;
            let b = (((item.end / makespan) * WIDTH as f64).ceil() as usize).clamp(a + 1, WIDTH);
            for c in lane.iter_mut().take(b).skip(a.min(WIDTH - 1)) {
                *c = glyph(item.node);
            }
        }
        let _ = writeln!(out, "w{w:<3} |{}|", lane.into_iter().collect::<String>());
    }
    let _ = writeln!(
        out,
        "     0{:>w$}\n",
        format!("{:.3} s", s.makespan()),
        w = WIDTH + 1
    );
    let _ = writeln!(
        out,
        "{:<2} {:<20} {:<6} {:>6} {:>12} {:>10} {:>10}",
        "", "task", "kind", "worker", "predicted", "start", "end"
    );
    for item in &s.items {
        let t = &graph.tasks[item.node];
        let name = match &item.iterations {
            Some(r) => format!("{}[{}..{}]", t.name, r.start + 1, r.end),
            None => t.name.clone(),
        };
        // A moldable call lists every worker it holds.
        let workers = item
            .all_lanes()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let _ = writeln!(
            out,
            "{:<2} {:<20} {:<6} {:>6} {:>12.4} {:>10.4} {:>10.4}",
            glyph(item.node),
            name,
            t.kind.as_str(),
            workers,
            item.end - item.start,
            item.start,
            item.end
        );
    }
    for t in plan.measuring.iter().filter_map(|&id| graph.tasks.get(id)) {
        let _ = writeln!(
            out,
            "\n`{}` runs on one worker this time: it has only run wide so far, and its \
             one-worker time is what its speedup is measured against",
            t.name
        );
    }
    for t in graph.tasks.iter().filter(|t| t.iterations.is_some()) {
        let blocks: Vec<String> = s
            .items
            .iter()
            .filter(|i| i.node == t.id)
            .filter_map(|i| {
                i.iterations
                    .as_ref()
                    .map(|r| format!("w{}: {}", i.worker, r.len()))
            })
            .collect();
        let blocks = if blocks.is_empty() {
            "none, no iterations".to_string()
        } else {
            blocks.join(", ")
        };
        let _ = writeln!(out, "\nloop `{}` partition: {blocks}", t.name);
        if let Some(node) = plan.dag.nodes.get(t.id) {
            if let Some(policy) = node.policy {
                let _ = writeln!(
                    out,
                    "loop `{}` policy: {} on {} worker{} ({})",
                    t.name,
                    policy.kind.name(),
                    policy.threads,
                    if policy.threads == 1 { "" } else { "s" },
                    cost_shape(t, node)
                );
                // The kind is how the loop runs on its own (`bench loops`);
                // within a workflow the plan's blocks run, and say so.
                let _ = writeln!(
                    out,
                    "loop `{}` in this run: {}",
                    t.name,
                    crate::sched::runtime::how_loops_run()
                );
            }
        }
    }
    out
}

/// How a loop's iteration cost varies, in words.
fn cost_shape(t: &crate::graph::Task, node: &crate::sched::Node) -> String {
    let n = node.iterations().unwrap_or(0);
    let spread = node.profile.spread(n);
    if node.profile.is_flat() {
        return "iterations cost alike".into();
    }
    let by = match t.index_work.as_ref().and_then(|iw| iw.degree()) {
        Some(1) => "linear in the index, from the shapes",
        Some(2) => "quadratic in the index, from the shapes",
        Some(_) => "polynomial in the index, from the shapes",
        None if t.index_work.is_some() => "from the shapes",
        None => "measured",
    };
    format!("iteration costs vary {spread:.0}x, {by}")
}

/// Each loop's policy for `--json`: how its iterations are dealt out, to
/// how many workers, and how its iterations' costs vary.
fn loops_json(graph: &TaskGraph, plan: &Plan) -> serde_json::Value {
    graph
        .tasks
        .iter()
        .filter(|t| t.iterations.is_some())
        .filter_map(|t| {
            let node = plan.dag.nodes.get(t.id)?;
            let policy = node.policy?;
            let n = node.iterations().unwrap_or(0);
            let spread = node.profile.spread(n);
            Some((
                t.name.clone(),
                json!({
                    "policy": policy.kind.name(),
                    "threads": policy.threads,
                    "in_a_run": crate::sched::runtime::how_loops_run(),
                    "cost_spread": spread.is_finite().then_some(spread),
                    "cost_degree": t.index_work.as_ref().and_then(|iw| iw.degree()),
                }),
            ))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

pub fn to_json(graph: &TaskGraph, plan: &Plan) -> serde_json::Value {
    let mut v = plan.schedule.to_json(&plan.dag, plan.scheduler.name());
    v["predicted_s"] = graph
        .tasks
        .iter()
        .map(|t| (t.name.clone(), json!(plan.predicted.get(t.id))))
        .collect::<serde_json::Map<_, _>>()
        .into();
    // What the schedule was made with: the measured costs under `ideal`.
    v["planned_s"] = graph
        .tasks
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                json!(plan.dag.nodes.get(t.id).map(|n| n.cost)),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    v["loops"] = loops_json(graph, plan);
    v["measuring_speedup"] = plan
        .measuring
        .iter()
        .filter_map(|&id| graph.tasks.get(id))
        .map(|t| json!(t.name))
        .collect();
    v
}
