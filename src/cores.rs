//! How many cores this process may use.
//!
//! `std::thread::available_parallelism` reads the cgroup files on Linux
//! each time it is called: 40-70 µs on a 2-core VM, as long as a small
//! step. A run asked it inside its clock, so it is read once per process.

use std::sync::OnceLock;

/// The cores the OS lets this process use (1 when it cannot say).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}
