//! Benchmarks of flowcast's heavy kernels, optionally against R in the same
//! run, and the reproduction of the paper's section VI, for `flowcast bench`.

pub mod cluster;
pub mod kernels;
pub mod library;
pub mod loops;
pub mod paper;
pub mod priors;
pub mod rerun;
pub mod schedule;
pub mod workflows;

/// A workflow's analysis errors as one message.
pub(crate) fn diagnostics(d: &[crate::diagnostic::Diagnostic]) -> String {
    d.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Deletes a benchmark's scratch history store and SQLite's files beside it.
pub(crate) fn remove_store(store: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", store.display()));
    }
}
