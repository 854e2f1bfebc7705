//! One CSV row per task: what was planned, what happened, and the error.
//! A loop planned in blocks shows the span of its blocks and the first
//! block's worker.

use std::fmt::Write;

use super::gantt::Gantt;

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

pub const HEADER: &str = "task,function,kind,predicted_worker,predicted_start,predicted_end,actual_worker,actual_start,actual_end,status,error_percent";

pub fn render(g: &Gantt) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{HEADER}");
    for r in &g.rows {
        let span = r.predicted_span();
        let a = r.actual.as_ref();
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{}",
            field(&r.name),
            field(&r.function),
            field(&r.kind),
            r.predicted
                .first()
                .map(|p| p.worker.to_string())
                .unwrap_or_default(),
            num(span.map(|x| x.0)),
            num(span.map(|x| x.1)),
            a.and_then(|a| a.worker)
                .map(|w| w.to_string())
                .unwrap_or_default(),
            num(a.map(|a| a.start)),
            num(a.map(|a| a.end)),
            r.status().as_str(),
            r.error_percent()
                .map(|e| format!("{e:.1}"))
                .unwrap_or_default(),
        );
    }
    s
}
