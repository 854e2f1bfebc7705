//! A Mermaid gantt chart: a section per worker for the plan and for the run.
//! Mermaid's time unit here is the millisecond (`dateFormat x`), so a task is
//! `name :id, start_ms, end_ms`.

use std::fmt::Write;

use crate::report::gantt::{Gantt, Status};

/// Mermaid splits a task line at `:` and `,`; `#` and `;` start comments.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if matches!(c, ':' | ',' | '#' | ';') {
                '_'
            } else {
                c
            }
        })
        .collect()
}

fn ms(t: f64) -> i64 {
    (t * 1000.0).round() as i64
}

pub fn render(g: &Gantt) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "gantt");
    let _ = writeln!(
        s,
        "    title {} ({}, {} workers)",
        clean(&g.workflow),
        clean(&g.scheduler),
        g.workers
    );
    let _ = writeln!(s, "    dateFormat x");
    let _ = writeln!(s, "    axisFormat %S.%L");
    let mut n = 0;
    for w in 0..g.workers.max(1) {
        let _ = writeln!(s, "    section predicted w{w}");
        for r in &g.rows {
            for slot in r.predicted.iter().filter(|sl| sl.worker == w) {
                n += 1;
                let name = match slot.iterations {
                    Some((a, b)) => format!("{} [{}..{}]", r.name, a + 1, b),
                    None => r.name.clone(),
                };
                // Mermaid draws a zero-length task as nothing: at least 1 ms.
                let end = ms(slot.end).max(ms(slot.start) + 1);
                let _ = writeln!(s, "    {} :p{n}, {}, {end}", clean(&name), ms(slot.start));
            }
        }
    }
    for w in 0..g.workers.max(1) {
        let bars: Vec<_> = g
            .rows
            .iter()
            .filter(|r| matches!(r.status(), Status::Done | Status::Failed))
            .flat_map(|r| r.actual_bars().into_iter().map(move |b| (r, b)))
            .filter(|(_, b)| b.worker == w)
            .collect();
        if bars.is_empty() {
            continue;
        }
        let _ = writeln!(s, "    section actual w{w}");
        for (r, b) in bars {
            n += 1;
            let tag = if r.status() == Status::Failed {
                "crit, "
            } else {
                ""
            };
            let name = match b.iterations {
                Some((i, j)) => format!("{} [{}..{}]", r.name, i + 1, j),
                None => r.name.clone(),
            };
            let end = ms(b.end).max(ms(b.start) + 1);
            let _ = writeln!(s, "    {} :{tag}a{n}, {}, {end}", clean(&name), ms(b.start));
        }
    }
    // Steps taken from the cache ran nowhere: milestones at the start.
    let cached = g.cached();
    if !cached.is_empty() {
        let _ = writeln!(s, "    section cached");
        for name in cached {
            n += 1;
            let _ = writeln!(s, "    {} :milestone, c{n}, 0, 0", clean(name));
        }
    }
    s
}
