//! Steps too large for the machine: shape inference knows most sizes before
//! the run, so `check` can say which step will fail to allocate its value.

use super::{TaskGraph, TaskId};
use crate::kernels::alloc::type_bytes;

/// Bytes this process can hope to hold: memory and swap, or less under an
/// address-space limit (`ulimit -v`). `None` where the system does not say.
pub fn machine_memory() -> Option<f64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb = |key: &str| -> Option<f64> {
        let line = meminfo.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let physical = (kb("MemTotal:")? + kb("SwapTotal:").unwrap_or(0.0)) * 1024.0;
    Some(address_space_limit().map_or(physical, |l| l.min(physical)))
}

/// The soft `RLIMIT_AS`, from `/proc/self/limits`.
fn address_space_limit() -> Option<f64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The tasks whose value alone needs more than `available` bytes, with
/// what each needs.
pub fn oversized(graph: &TaskGraph, available: f64) -> Vec<(TaskId, f64)> {
    graph
        .tasks
        .iter()
        .filter_map(|t| Some((t.id, type_bytes(&t.ty)?)))
        .filter(|&(_, bytes)| bytes > available)
        .collect()
}
