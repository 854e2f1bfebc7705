//! The headless progress bar on stderr, fed by run events. On a terminal it
//! redraws one line; otherwise it prints nothing, so logs stay clean.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

use crate::exec::Event;
use crate::graph::TaskGraph;
use crate::printable::printable;

pub struct Progress {
    total: usize,
    names: Vec<String>,
    state: Mutex<(usize, Vec<String>)>,
    enabled: bool,
    started: Instant,
}

impl Progress {
    pub fn new(graph: &TaskGraph) -> Progress {
        Progress {
            total: graph.tasks.len(),
            names: graph
                .tasks
                .iter()
                .map(|t| printable(&t.name).into_owned())
                .collect(),
            state: Mutex::new((0, Vec::new())),
            enabled: std::io::stderr().is_terminal(),
            started: Instant::now(),
        }
    }

    pub fn on_event(&self, event: &Event) {
        if !self.enabled {
            return;
        }
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        match event {
            Event::Started { task, .. } => st.1.push(self.names[*task].clone()),
            Event::Finished { task, .. } | Event::Failed { task, .. } => {
                st.0 += 1;
                let name = &self.names[*task];
                st.1.retain(|n| n != name);
            }
            Event::Skipped { .. } => st.0 += 1,
            Event::Chunk { .. }
            | Event::Replanned { .. }
            | Event::Lanes { .. }
            | Event::Transfer { .. } => return,
        }
        let width = 30;
        let filled = (st.0 * width).checked_div(self.total).unwrap_or(width);
        let running = st.1.join(", ");
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{}{}] {}/{} {:.1}s {}",
            "#".repeat(filled),
            " ".repeat(width - filled),
            st.0,
            self.total,
            self.started.elapsed().as_secs_f64(),
            truncate(&running, 40)
        );
        let _ = err.flush();
    }

    /// Clears the bar before the summary is printed.
    pub fn finish(&self) {
        if self.enabled {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(std::iter::once('…')).collect()
    }
}
