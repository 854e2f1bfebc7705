//! Chrome trace event JSON, which Perfetto and `chrome://tracing` open: the
//! plan and the run as two processes (pid 1 "predicted", pid 2 "actual"),
//! one thread per worker, each task a complete event (`"ph":"X"`) with
//! `ts`/`dur` in microseconds, and `"M"` metadata events naming them.

use serde_json::{json, Value};

use crate::report::gantt::{Gantt, Status};

pub const PREDICTED_PID: u64 = 1;
pub const ACTUAL_PID: u64 = 2;

fn us(seconds: f64) -> f64 {
    (seconds * 1e6).round()
}

pub fn trace(g: &Gantt) -> Value {
    let mut events = Vec::new();
    for (pid, name) in [(PREDICTED_PID, "predicted"), (ACTUAL_PID, "actual")] {
        events.push(
            json!({"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
            "args": {"name": format!("{} ({name}, {})", g.workflow, g.scheduler)}}),
        );
        events.push(
            json!({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0,
            "args": {"sort_index": pid}}),
        );
        for w in 0..g.workers.max(1) {
            events.push(
                json!({"name": "thread_name", "ph": "M", "pid": pid, "tid": w,
                "args": {"name": format!("worker {w}")}}),
            );
        }
    }
    for r in &g.rows {
        for s in &r.predicted {
            let mut args = json!({"function": r.function, "kind": r.kind});
            if let Some((a, b)) = s.iterations {
                args["iterations"] = json!(format!("{}..{}", a + 1, b));
            }
            events.push(json!({"name": r.name, "cat": r.function, "ph": "X",
                "ts": us(s.start), "dur": us(s.end - s.start),
                "pid": PREDICTED_PID, "tid": s.worker, "args": args}));
        }
        let Some(a) = r
            .actual
            .as_ref()
            .filter(|a| matches!(a.status, Status::Done | Status::Failed))
        else {
            continue;
        };
        for bar in r.actual_bars() {
            let mut args =
                json!({"function": r.function, "kind": r.kind, "status": a.status.as_str()});
            if let Some((i, j)) = bar.iterations {
                args["iterations"] = json!(format!("{}..{}", i + 1, j));
            }
            if let Some(m) = &a.message {
                args["message"] = json!(m);
            }
            if let Some(e) = r.error_percent() {
                args["error_percent"] = json!(e);
            }
            events.push(json!({"name": r.name, "cat": r.function, "ph": "X",
                "ts": us(bar.start), "dur": us(bar.end - bar.start),
                "pid": ACTUAL_PID, "tid": bar.worker, "args": args}));
        }
    }
    // Steps taken from the cache ran nowhere: an instant event each, at
    // the start of the run, so the trace lists them.
    for r in g.rows.iter().filter(|r| r.status() == Status::Cached) {
        events.push(json!({"name": r.name, "cat": "cached", "ph": "i", "s": "p",
            "ts": 0.0, "pid": ACTUAL_PID, "tid": 0,
            "args": {"function": r.function, "kind": r.kind, "status": "cached"}}));
    }
    // Each re-plan: an instant event across the actual lanes.
    for &t in &g.replans {
        events.push(
            json!({"name": "re-planned", "cat": "plan", "ph": "i", "s": "p",
            "ts": us(t), "pid": ACTUAL_PID, "tid": 0}),
        );
    }
    json!({"traceEvents": events, "displayTimeUnit": "ms"})
}

pub fn render(g: &Gantt) -> String {
    trace(g).to_string()
}
