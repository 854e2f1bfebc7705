//! The summary printed after a headless run: one row per step with its
//! kind, status, worker, time and value (numbers in full, large objects as
//! their shape).

use std::fmt::Write;

use super::units::seconds;
use crate::exec::{RunReport, StepError};
use crate::graph::TaskGraph;
use crate::kernels::value::is_na;
use crate::kernels::Value;
use crate::printable::printable;
use crate::printable::{pad_end, pad_start};

/// A number as R users read it, with every digit that matters.
pub fn format_number(x: f64) -> String {
    if is_na(x) {
        "NA".into()
    } else if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Inf" } else { "-Inf" }.into()
    } else if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e15) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn numbers(v: &[f64], limit: usize) -> String {
    let mut s: Vec<String> = v.iter().take(limit).map(|&x| format_number(x)).collect();
    if v.len() > limit {
        s.push("…".into());
    }
    s.join(" ")
}

/// One line describing a value: small ones in full, large ones by shape.
pub fn describe(v: &Value) -> String {
    if let Some(dims) = crate::kernels::arrays::array_dims(v) {
        let d: Vec<String> = dims.iter().map(usize::to_string).collect();
        let kind = match crate::kernels::names::bare(v) {
            Value::Bool(_) => "lgl arr",
            _ => "arr",
        };
        return format!("{kind}[{}]", d.join("x"));
    }
    match v {
        Value::Named(n) => match (&n.names, &n.value) {
            (Some(labels), Value::Num(x)) if x.len() <= 6 => {
                let pairs: Vec<String> = labels
                    .iter()
                    .zip(x)
                    .map(|(l, &x)| format!("{l}={}", format_number(x)))
                    .collect();
                format!("[{}]", pairs.join(" "))
            }
            _ => describe(&n.value),
        },
        Value::Null => "NULL".into(),
        Value::Num(x) if x.len() == 1 => format_number(x[0]),
        Value::Num(x) if x.len() <= 6 => format!("[{}]", numbers(x, 6)),
        Value::Num(x) => format!("num[{}] {}", x.len(), numbers(x, 4)),
        Value::Mat(m) => format!("mat[{}x{}]", m.nrows(), m.ncols()),
        Value::Complex(z) => format!("cplx[{}]", z.len()),
        Value::ComplexMat(m) => format!("cplx mat[{}x{}]", m.nrows(), m.ncols()),
        Value::Str(s) if s.len() == 1 => format!("{:?}", s[0]),
        Value::Str(s) => format!("chr[{}]", s.len()),
        Value::Bool(b) if b.len() == 1 => match b[0] {
            Some(true) => "TRUE",
            Some(false) => "FALSE",
            None => "NA",
        }
        .into(),
        Value::Bool(b) => format!("lgl[{}]", b.len()),
        Value::BoolMat(m) => format!("lgl mat[{}x{}]", m.nrows(), m.ncols()),
        Value::List(l) => match (&l.class, &l.names) {
            (Some(class), Some(names)) => {
                let fields: Vec<String> = names
                    .iter()
                    .zip(&l.items)
                    .filter(|(n, _)| {
                        class != "htest"
                            || !matches!(n.as_str(), "method" | "alternative" | "data.name")
                    })
                    // An htest's names (`c(t = 2.1)`) are left out of its one line.
                    .map(|(n, v)| match crate::kernels::names::bare(v) {
                        Value::Num(x) if x.len() <= 3 => format!("{n} = {}", numbers(x, 3)),
                        Value::Str(s) if s.len() == 1 => format!("{n} = {:?}", s[0]),
                        other => format!("{n} = {}", short_shape(other)),
                    })
                    .collect();
                let method = l
                    .field("method")
                    .and_then(|m| match m {
                        Value::Str(s) if class == "htest" => s.first().cloned(),
                        _ => None,
                    })
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default();
                format!("{class}: {}{method}", fields.join(", "))
            }
            _ => format!("list[{}]", l.items.len()),
        },
        Value::Formula(_) => "formula".into(),
        Value::Factor(f) => format!("fct[{}] ({} levels)", f.codes.len(), f.levels.len()),
    }
}

fn short_shape(v: &Value) -> String {
    match v {
        Value::Num(x) => format!("num[{}]", x.len()),
        Value::List(l) => format!("list[{}]", l.items.len()),
        other => describe(other),
    }
}

/// How many steps there are, and how many of them ran and were reused
/// when any were: `13 steps` or `13 steps (1 ran, 12 cached)`.
pub fn steps_summary(report: &RunReport) -> String {
    let n = report.outcomes.len();
    let (ran, reused) = report.ran_and_reused();
    let plural = if n == 1 { "step" } else { "steps" };
    if reused == 0 {
        format!("{n} {plural}")
    } else {
        format!("{n} {plural} ({ran} ran, {reused} cached)")
    }
}

/// Every worker that ran a step: `0,1` for a loop run on two.
fn workers(o: &crate::exec::StepOutcome) -> String {
    let spans = o.spans();
    if spans.is_empty() {
        return "-".into();
    }
    let ws: Vec<String> = spans.iter().map(|s| s.0.to_string()).collect();
    ws.join(",")
}

/// Relative prediction error in percent, signed (positive: slower than predicted).
pub fn error_percent(predicted: f64, actual: f64) -> Option<f64> {
    (predicted > 0.0).then(|| 100.0 * (actual - predicted) / predicted)
}

/// The whole table (with predictions beside measurements), plus a closing
/// line with the predicted and actual makespan.
pub fn render(
    graph: &TaskGraph,
    report: &RunReport,
    predicted: &[f64],
    predicted_makespan: f64,
) -> String {
    const NUMERIC: [bool; 8] = [false, false, false, true, true, true, true, false];
    let rows: Vec<[String; 8]> = graph
        .tasks
        .iter()
        .zip(&report.outcomes)
        .map(|(t, o)| {
            let (status, value) = match &o.value {
                Ok(v) if o.reused => ("cached", describe(v)),
                Ok(v) => ("ok", describe(v)),
                Err(StepError::Failed { message, .. }) => ("FAILED", message.clone()),
                Err(StepError::Skipped { reason }) => ("skipped", reason.clone()),
            };
            // A cached step did not run: it has neither a prediction nor a time.
            let pred = predicted.get(t.id).copied().filter(|_| !o.reused);
            let actual = (o.value.is_ok() && !o.reused).then(|| o.work());
            let error = match (pred, actual) {
                (Some(p), Some(a)) => {
                    error_percent(p, a).map_or("-".into(), |e| super::units::error(e / 100.0))
                }
                _ => "-".into(),
            };
            [
                t.name.clone(),
                t.kind.as_str().to_string(),
                status.to_string(),
                workers(o),
                pred.map_or("-".into(), seconds),
                actual.map_or("-".into(), seconds),
                error,
                value,
            ]
            .map(|cell| printable(&cell).into_owned())
        })
        .collect();
    let header = [
        "step",
        "kind",
        "status",
        "workers",
        "predicted",
        "work",
        "error",
        "value",
    ];
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: &[&str], out: &mut String| {
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(c);
            } else if NUMERIC[i] {
                out.push_str(&pad_start(c, widths[i]));
                out.push_str("  ");
            } else {
                out.push_str(&pad_end(c, widths[i]));
                out.push_str("  ");
            }
        }
        out.push('\n');
    };
    line(&header, &mut out);
    for (r, o) in rows.iter().zip(&report.outcomes) {
        line(&r.iter().map(String::as_str).collect::<Vec<_>>(), &mut out);
        // Under its step, as R prints a warning after the value.
        for w in &o.warnings {
            let _ = writeln!(out, "  warning: {}", printable(&w.to_string()));
        }
    }
    let failed = report.outcomes.iter().filter(|o| o.value.is_err()).count();
    let warned = report
        .outcomes
        .iter()
        .filter(|o| !o.warnings.is_empty())
        .count();
    let warned = if warned == 0 {
        String::new()
    } else {
        format!(", {warned} with warnings")
    };
    let _ = writeln!(
        out,
        "\n{}, {} failed or skipped{warned}; makespan {} (predicted {}) on {} workers (seed {})",
        steps_summary(report),
        failed,
        seconds(report.makespan.as_secs_f64()),
        seconds(predicted_makespan),
        report.workers,
        report.seed
    );
    out
}
