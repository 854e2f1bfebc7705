//! Ctrl-C outside the terminal UI (which reads it as a key): the first
//! SIGINT sets a flag, so the command can cancel its run, record it as
//! cancelled and exit with [`STATUS`]; a second one ends the process at once.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use signal_hook::consts::SIGINT;

/// The exit status of an interrupted command: 128 + SIGINT, what shells
/// report for a command Ctrl-C killed.
pub const STATUS: u8 = 130;

/// A flag the next Ctrl-C sets. Should the handler not install, Ctrl-C
/// keeps its default (the process ends, status 130 all the same).
pub fn flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    // Registered first, so it sees the flag as the previous Ctrl-C left it.
    let _ = signal_hook::flag::register_conditional_shutdown(
        SIGINT,
        i32::from(STATUS),
        Arc::clone(&flag),
    );
    let _ = signal_hook::flag::register(SIGINT, Arc::clone(&flag));
    flag
}
