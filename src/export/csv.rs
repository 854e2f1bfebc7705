//! One CSV row per block: each block of a task as planned (`plan`) and as
//! it ran (`run`), so a loop that ran on two workers shows both. A task
//! that is not a loop is one block. Iterations are numbered from 1, as in R.

use std::fmt::Write;

use crate::report::gantt::{Gantt, Slot};

/// RFC 4180 quoting, only where needed.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn num(x: Option<f64>) -> String {
    x.map(|v| format!("{v:.6}")).unwrap_or_default()
}

pub const HEADER: &str =
    "task,function,kind,part,worker,start,end,first_iteration,last_iteration,status,error_percent";

pub fn render(g: &Gantt) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{HEADER}");
    for r in &g.rows {
        let mut row = |part: &str, slot: Option<&Slot>, status: &str, error: String| {
            let (first, last) = slot
                .and_then(|b| b.iterations)
                .map_or((String::new(), String::new()), |(a, b)| {
                    ((a + 1).to_string(), b.to_string())
                });
            let _ = writeln!(
                s,
                "{},{},{},{part},{},{},{},{first},{last},{status},{error}",
                field(&r.name),
                field(&r.function),
                field(&r.kind),
                slot.map(|b| b.worker.to_string()).unwrap_or_default(),
                num(slot.map(|b| b.start)),
                num(slot.map(|b| b.end)),
            );
        };
        for p in &r.predicted {
            row("plan", Some(p), "planned", String::new());
        }
        let error = r
            .error_percent()
            .map(|e| format!("{e:.1}"))
            .unwrap_or_default();
        let bars = r.actual_bars();
        if bars.is_empty() {
            // Skipped, or not run yet: the task is still listed.
            row("run", None, r.status().as_str(), error);
        } else {
            for b in &bars {
                row("run", Some(b), r.status().as_str(), error.clone());
            }
        }
    }
    s
}
