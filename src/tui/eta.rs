//! How long a running run has left, from its plan and how far its running
//! tasks have got.
//!
//! Each worker's remaining time is what its running task still has by its
//! prediction (`max(0, predicted − elapsed)`), then the work the plan still
//! gives it, each pending block no earlier than its planned start (which is
//! where the plan waits for other workers' results). The run ends when the
//! last worker does. Nothing is scaled by the pace of finished tasks: one
//! badly predicted short task used to stretch the whole plan (112 s on a
//! first run) or shrink it to "ETA 0s".

use std::fmt;

use crate::report::gantt::{Gantt, Slot, Status};
use crate::report::units::seconds;

/// The time left, as the header shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eta {
    /// Nothing to go on: the plan's times are placeholders, or every task
    /// still to finish has run past its prediction.
    Unknown,
    /// About this many seconds (never zero: a run that has not ended has
    /// something left).
    About(f64),
}

impl fmt::Display for Eta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eta::Unknown => f.write_str("?"),
            Eta::About(s) => f.write_str(&seconds(*s)),
        }
    }
}

/// Below this an estimate would print as `0µs`.
const LEAST: f64 = 1e-6;

/// The time left of the run charted by `gantt`, `now` seconds after its
/// start. `guessed`: the plan's times are placeholders, not predictions.
pub fn eta(gantt: &Gantt, now: f64, guessed: bool) -> Eta {
    if guessed || !now.is_finite() {
        return Eta::Unknown;
    }
    let workers = gantt.workers.max(1);
    // Running blocks first (they hold their worker now), then pending ones
    // in planned order.
    let mut running: Vec<(Slot, f64)> = Vec::new();
    let mut pending: Vec<Slot> = Vec::new();
    for r in &gantt.rows {
        let Some(a) = r.actual.as_ref() else {
            pending.extend(r.predicted.iter().cloned());
            continue;
        };
        if a.status != Status::Running {
            continue;
        }
        for s in &r.predicted {
            if a.chunks.iter().any(|c| c.iterations == s.iterations) && s.iterations.is_some() {
                continue;
            }
            // A block of a running loop started when its worker's last
            // block of it ended, or with the loop.
            let began = a
                .chunks
                .iter()
                .filter(|c| c.worker == s.worker)
                .map(|c| c.end)
                .fold(a.start, f64::max);
            running.push((s.clone(), (now - began).max(0.0)));
        }
    }
    let duration = |s: &Slot| (s.end - s.start).max(0.0);
    if running.is_empty() && pending.is_empty() {
        return Eta::Unknown;
    }
    if running
        .iter()
        .map(|(s, _)| s)
        .chain(&pending)
        .all(|s| duration(s) <= 0.0 || !duration(s).is_finite())
    {
        return Eta::Unknown;
    }
    let mut free = vec![now; workers];
    for (s, elapsed) in &running {
        let w = s.worker.min(workers - 1);
        free[w] += (duration(s) - elapsed).max(0.0);
    }
    pending.sort_by(|a, b| a.start.total_cmp(&b.start));
    for s in &pending {
        let w = s.worker.min(workers - 1);
        free[w] = free[w].max(s.start) + duration(s);
    }
    let end = free.into_iter().fold(now, f64::max);
    let left = end - now;
    if left.is_finite() && left >= LEAST {
        Eta::About(left)
    } else {
        Eta::Unknown
    }
}
