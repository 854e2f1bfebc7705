//! Printing a [`Report`]: Figure 7 as a table, Tables IV and V, the
//! normalised improvement, the real runs, Table I and the targets, each
//! measured value beside the paper's (or the issue's) target. Also JSON.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::fig7::Curves;
use super::real::{self, REAL_PLANS};
use super::schedules::{summarise, Plan, Summary, PROCESSORS};
use super::{normalised_at, Case, Report};

/// The plans compared against the baseline in Tables IV and V.
const COMPARED: [Plan; 4] = [Plan::Dynamic, Plan::Emcp, Plan::EmcpAnn, Plan::Ideal];

/// The paper's Table IV averages (p = 8, 16, 32).
pub const PAPER_TABLE_IV_AVERAGE: [f64; 3] = [16.7, 21.2, 12.9];
/// The paper's Table V averages: (5, no loop), (5, loop), (20, no), (20, loop).
pub const PAPER_TABLE_V_AVERAGE: [f64; 4] = [1.9, 5.7, 2.5, 6.8];

/// The dependent classes of Table V, in column order.
const CLASSES: [(usize, bool); 4] = [(5, false), (5, true), (20, false), (20, true)];

pub fn summary(cases: &[&Case], p: usize, plan: Plan) -> Summary {
    let v: Vec<f64> = cases.iter().map(|c| c.improvement(p, plan)).collect();
    summarise(&v)
}

fn class_cases(report: &Report, class: (usize, bool)) -> Vec<&Case> {
    report
        .dependent
        .iter()
        .filter(|c| c.micro.expected_edges == Some(class.0) && c.micro.looped.is_some() == class.1)
        .collect()
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}%")
    } else {
        "-".into()
    }
}

fn summary_rows(out: &mut String, columns: &[Summary]) {
    type Cell = fn(&Summary) -> String;
    let rows: [(&str, Cell); 4] = [
        ("best", |s| pct(s.best)),
        ("worst", |s| pct(s.worst)),
        ("average", |s| pct(s.average)),
        ("improved", |s| format!("{}/{}", s.improved, s.cases)),
    ];
    for (name, f) in rows {
        let _ = write!(out, "    {name:<10}");
        for s in columns {
            let _ = write!(out, "{:>12}", f(s));
        }
        out.push('\n');
    }
}

fn render_fig7(out: &mut String, report: &Report) {
    let (c, ann) = (&report.fig7_default, &report.fig7_ann);
    let _ = writeln!(
        out,
        "Figure 7: median prediction error (%) after k training points ({} model; window = all points); \
         noise: median spread (%) between repetitions of one call, the error an exact model would show",
        c.kind.name()
    );
    let _ = write!(out, "  {:<17}", "function \\ k");
    for k in &c.checkpoints {
        let _ = write!(out, "{k:>7}");
    }
    out.push_str("  noise\n");
    let mut line = |name: &str, values: &[f64], noise: Option<f64>| {
        let _ = write!(out, "  {name:<17}");
        for v in values {
            let _ = write!(out, "{:>7.1}", 100.0 * v);
        }
        if let Some(n) = noise.filter(|n| n.is_finite()) {
            let _ = write!(out, "{:>7.1}", 100.0 * n);
        }
        out.push('\n');
    };
    for (i, (name, values)) in c.functions.iter().enumerate() {
        line(name, values, report.fig7_noise.get(i).copied());
    }
    let mut noise: Vec<f64> = report
        .fig7_noise
        .iter()
        .copied()
        .filter(|n| n.is_finite())
        .collect();
    let pooled_noise = (!noise.is_empty()).then(|| crate::cost::eval::median(&mut noise));
    line("all (default)", &c.pooled, pooled_noise);
    line("all (ANN)", &ann.pooled, None);
    line("all (wall clock)", &report.fig7_wall.pooled, None);
    let _ = writeln!(
        out,
        "  the CPU clock resolves {:.0} ns",
        report.clock_resolution * 1e9
    );
    out.push('\n');
}

fn render_table4(out: &mut String, report: &Report) {
    let cases: Vec<&Case> = report.independent.iter().collect();
    let _ = writeln!(
        out,
        "Table IV: independent microbenchmarks ({}), improvement over baseline, simulated from measured costs",
        cases.len()
    );
    let _ = write!(out, "    {:<10}", "");
    for p in PROCESSORS {
        let _ = write!(out, "{:>12}", format!("p = {p}"));
    }
    out.push('\n');
    for plan in COMPARED {
        let _ = writeln!(out, "  {}", plan.name());
        let columns: Vec<Summary> = (0..3).map(|pi| summary(&cases, pi, plan)).collect();
        summary_rows(out, &columns);
    }
    let _ = write!(out, "  paper ANN+MCP average");
    for v in PAPER_TABLE_IV_AVERAGE {
        let _ = write!(out, "{:>12}", pct(v));
    }
    out.push_str("\n\n");
}

fn render_table5(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "Table V: dependent microbenchmarks ({}), p = 8, improvement over baseline",
        report.dependent.len()
    );
    let _ = write!(out, "    {:<10}", "edges/loop");
    for (e, l) in CLASSES {
        let _ = write!(
            out,
            "{:>12}",
            format!("{e}/{}", if l { "yes" } else { "no" })
        );
    }
    out.push('\n');
    for plan in COMPARED {
        let _ = writeln!(out, "  {}", plan.name());
        let columns: Vec<Summary> = CLASSES
            .iter()
            .map(|&cl| summary(&class_cases(report, cl), 0, plan))
            .collect();
        summary_rows(out, &columns);
    }
    let _ = write!(out, "  paper ANN+MCP average");
    for v in PAPER_TABLE_V_AVERAGE {
        let _ = write!(out, "{:>12}", pct(v));
    }
    out.push('\n');
    // The other processor counts, averages only.
    for (pi, p) in PROCESSORS.iter().enumerate().skip(1) {
        let _ = write!(out, "  emcp average, p = {p:<3}");
        for cl in CLASSES {
            let _ = write!(
                out,
                "{:>12}",
                pct(summary(&class_cases(report, cl), pi, Plan::Emcp).average)
            );
        }
        out.push('\n');
    }
    out.push('\n');
}

fn render_normalised(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "Normalised improvement (VI-E): (t_base - t_emcp) / (t_base - t_ideal), mean over the top 10 independent benchmarks"
    );
    let _ = write!(out, "  {:<16}", "training points");
    for p in PROCESSORS {
        let _ = write!(out, "{:>10}", format!("p = {p}"));
    }
    out.push('\n');
    for n in &report.normalised {
        let _ = write!(out, "  {:<16}", n.points);
        for v in n.per_p {
            let _ = write!(out, "{:>10}", v.map_or("-".into(), |v| format!("{v:.2}")));
        }
        out.push('\n');
    }
    out.push_str("  paper: about 0.5 after 10 points, 0.7-0.8 after 20\n\n");
}

fn render_real(out: &mut String, report: &Report) {
    if report.real.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Real runs on {} workers: wall makespan (s), simulated in brackets",
        report.real_workers
    );
    let _ = write!(out, "  {:<16}", "benchmark");
    for k in REAL_PLANS {
        let _ = write!(out, "{:>18}", k.name());
    }
    out.push('\n');
    for r in &report.real {
        let _ = write!(out, "  {:<16}", r.label);
        for k in 0..4 {
            let _ = write!(
                out,
                "{:>18}",
                format!("{:.3} ({:.3})", r.actual[k], r.simulated[k])
            );
        }
        out.push('\n');
    }
    let _ = write!(out, "  {:<16}", "avg improvement");
    for k in 0..4 {
        let mean = report
            .real
            .iter()
            .map(|r| real::improvement(&r.actual, k))
            .sum::<f64>()
            / report.real.len() as f64;
        let _ = write!(out, "{:>18}", pct(mean));
    }
    out.push_str("\n\n");
}

fn render_table1(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "Table I: scheduling time against graph size (random DAGs, p = 8)"
    );
    let _ = writeln!(
        out,
        "  {:>8} {:>12} {:>12} {:>14}",
        "nodes", "MCP ms", "emcp ms", "paper MCP ms"
    );
    for r in &report.table1 {
        let _ = writeln!(
            out,
            "  {:>8} {:>12.3} {:>12.3} {:>14.1}",
            r.nodes, r.mcp_ms, r.emcp_ms, r.paper_ms
        );
    }
    out.push('\n');
}

/// One target: what, the measured value, the target, and whether it is met.
pub struct Target {
    pub what: String,
    pub measured: String,
    pub target: String,
    pub met: bool,
}

pub fn targets(report: &Report) -> Vec<Target> {
    let mut t = Vec::new();
    let ind: Vec<&Case> = report.independent.iter().collect();
    for (pi, p) in PROCESSORS.iter().enumerate() {
        let avg = summary(&ind, pi, Plan::Emcp).average;
        t.push(Target {
            what: format!("emcp average improvement, independent, p = {p}"),
            measured: pct(avg),
            target: format!(">= {}", pct(PAPER_TABLE_IV_AVERAGE[pi])),
            met: avg >= PAPER_TABLE_IV_AVERAGE[pi],
        });
    }
    let at20 = normalised_at(report, 20);
    let worst = at20.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    t.push(Target {
        what: "normalised improvement after 20 points (worst p)".into(),
        measured: if worst.is_finite() {
            format!("{worst:.2}")
        } else {
            "-".into()
        },
        target: ">= 0.90".into(),
        met: worst.is_finite() && worst >= 0.9,
    });
    for (k, limit) in [(10, 0.05), (90, 0.02)] {
        let e = report.fig7_default.at(k);
        t.push(Target {
            what: format!("median prediction error after {k} points (default model)"),
            measured: e.map_or("-".into(), |e| pct(100.0 * e)),
            target: format!("<= {}", pct(100.0 * limit)),
            met: e.is_some_and(|e| e <= limit),
        });
    }
    if let Some(r) = report.table1.iter().max_by_key(|r| r.nodes) {
        t.push(Target {
            what: format!("MCP on a {}-node graph", r.nodes),
            measured: format!("{:.1} ms", r.mcp_ms),
            target: "< 150 ms".into(),
            met: r.mcp_ms < 150.0,
        });
    }
    t.push(Target {
        what: "retrain a window of 40 (default model)".into(),
        measured: format!("{:.3} ms", report.speed_default.retrain_ms),
        target: "< 5 ms".into(),
        met: report.speed_default.retrain_ms < 5.0,
    });
    t.push(Target {
        what: "one prediction (default model)".into(),
        measured: format!("{:.3} µs", report.speed_default.predict_us),
        target: "< 10 µs".into(),
        met: report.speed_default.predict_us < 10.0,
    });
    t
}

fn render_targets(out: &mut String, report: &Report) {
    let _ = writeln!(out, "Targets");
    for t in targets(report) {
        let _ = writeln!(
            out,
            "  {:<58} {:>12}  target {:<10} {}",
            t.what,
            t.measured,
            t.target,
            if t.met { "met" } else { "MISSED" }
        );
    }
    let _ = writeln!(
        out,
        "  (paper ANN: retrain {:.3} ms, prediction {:.3} µs)",
        report.speed_ann.retrain_ms, report.speed_ann.predict_us
    );
}

/// The whole report as text.
pub fn render(report: &Report) -> String {
    let c = &report.config;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "flowcast bench paper (seed {}): sizes x{} of the paper's; task costs are {}, best of {}; {:.0} s\n",
        report.seed, c.sizes.size, super::calls::CLOCK, c.reps, report.seconds
    );
    render_fig7(&mut out, report);
    render_table4(&mut out, report);
    render_table5(&mut out, report);
    render_normalised(&mut out, report);
    render_cluster(&mut out, report);
    render_real(&mut out, report);
    render_table1(&mut out, report);
    render_targets(&mut out, report);
    out
}

fn render_cluster(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "On the paper's cluster: values cross nodes at l = 0.69 ms + 2.6e-6 ms/byte, one worker per node; \
         baseline and emcp planned with communication and replayed by the simulator under the measured costs. \
         emcp's mean improvement over baseline, beside the same on shared memory:"
    );
    let _ = writeln!(
        out,
        "{:>6} {:>18} {:>18} {:>18} {:>18}",
        "nodes", "independent", "(shared memory)", "dependent", "(shared memory)"
    );
    for r in &report.cluster {
        let _ = writeln!(
            out,
            "{:>6} {:>17.1}% {:>17.1}% {:>17.1}% {:>17.1}%",
            r.nodes, r.independent, r.independent_shared, r.dependent, r.dependent_shared
        );
    }
    let _ = writeln!(out);
}

fn summary_json(s: &Summary) -> Value {
    json!({
        "best": s.best, "worst": s.worst, "average": s.average,
        "improved": s.improved, "cases": s.cases,
    })
}

/// One benchmark: what it holds, its measured costs and every plan's makespans.
fn case_json(c: &Case) -> Value {
    let m = &c.micro;
    json!({
        "suite": if m.expected_edges.is_some() { "dependent" } else { "independent" },
        "id": m.id,
        "expected_edges": m.expected_edges,
        "edges": m.edges.len(),
        "tasks": m.tasks.iter().zip(&c.measured.tasks).map(|(t, s)| json!({"function": t.function.name(), "n_a": t.n_a, "n_b": t.n_b, "seconds": s})).collect::<Vec<_>>(),
        "loop": m.looped.as_ref().zip(c.measured.looped.as_ref()).map(|(l, t)| json!({"name": l.name(), "iterations": l.iterations, "n": l.n, "position": m.loop_position, "seconds": t.total, "test_drive": t.test_drive})),
        "plans": Plan::ALL.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "makespans": PROCESSORS.iter().zip(&c.makespans).map(|(p, row)| json!({"p": p, "seconds": row})).collect::<Vec<_>>(),
    })
}

/// The whole report as JSON.
pub fn to_json(report: &Report) -> Value {
    let ind: Vec<&Case> = report.independent.iter().collect();
    let table4: Value = COMPARED
        .iter()
        .map(|&plan| {
            let per_p: Vec<Value> = (0..3)
                .map(|pi| {
                    let mut v = summary_json(&summary(&ind, pi, plan));
                    v["p"] = json!(PROCESSORS[pi]);
                    v
                })
                .collect();
            (plan.name().to_string(), Value::Array(per_p))
        })
        .collect::<serde_json::Map<String, Value>>()
        .into();
    let table5: Value = COMPARED
        .iter()
        .map(|&plan| {
            let mut rows = Vec::new();
            for (pi, p) in PROCESSORS.iter().enumerate() {
                for cl in CLASSES {
                    let mut v = summary_json(&summary(&class_cases(report, cl), pi, plan));
                    v["p"] = json!(p);
                    v["expected_edges"] = json!(cl.0);
                    v["loop"] = json!(cl.1);
                    rows.push(v);
                }
            }
            (plan.name().to_string(), Value::Array(rows))
        })
        .collect::<serde_json::Map<String, Value>>()
        .into();
    let curves = |c: &Curves| {
        json!({
            "model": c.kind.name(),
            "checkpoints": c.checkpoints,
            "pooled_median_error": c.pooled,
            "functions": c.functions.iter().map(|(f, v)| json!({"function": f, "median_error": v})).collect::<Vec<_>>(),
        })
    };
    json!({
        "seed": report.seed,
        "seconds": report.seconds,
        "size_scale": report.config.sizes.size,
        "figure7": [curves(&report.fig7_default), curves(&report.fig7_ann)],
        "figure7_wall_clock": curves(&report.fig7_wall),
        "figure7_noise": report.fig7_default.functions.iter().zip(&report.fig7_noise)
            .map(|((f, _), n)| json!({"function": f, "median_spread": n})).collect::<Vec<_>>(),
        "figure7_points": report.fig7_points.iter().map(|(f, set, c, t)| json!({"function": f, "set": set, "order": t.seq, "n_a": c.n_a, "n_b": c.n_b, "cpu_s": t.cpu, "wall_s": t.wall, "spread": t.spread.is_finite().then_some(t.spread)})).collect::<Vec<_>>(),
        "clock_resolution_s": report.clock_resolution,
        "table4": table4,
        "table5": table5,
        "normalised": report.normalised.iter().map(|n| json!({"points": n.points, "p8": n.per_p[0], "p16": n.per_p[1], "p32": n.per_p[2]})).collect::<Vec<_>>(),
        "paper_cluster": report.cluster.iter().map(|r| json!({"nodes": r.nodes, "independent_gain": r.independent, "dependent_gain": r.dependent, "independent_gain_shared_memory": r.independent_shared, "dependent_gain_shared_memory": r.dependent_shared})).collect::<Vec<_>>(),
        "real": {
            "workers": report.real_workers,
            "plans": REAL_PLANS.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "cases": report.real.iter().map(|r| json!({"benchmark": r.label, "actual": r.actual, "simulated": r.simulated})).collect::<Vec<_>>(),
        },
        "table1": report.table1.iter().map(|r| json!({"nodes": r.nodes, "mcp_ms": r.mcp_ms, "emcp_ms": r.emcp_ms, "paper_ms": r.paper_ms})).collect::<Vec<_>>(),
        "cases": report.independent.iter().chain(&report.dependent).map(case_json).collect::<Vec<_>>(),
        "targets": targets(report).iter().map(|t| json!({"what": t.what, "measured": t.measured, "target": t.target, "met": t.met})).collect::<Vec<_>>(),
    })
}
