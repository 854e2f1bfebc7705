//! The terminal UI: app state, screens, widgets, mouse, the runner and a real pty.
//!
//! One test binary for the group: each binary links the whole library.

#[path = "../tui_support/mod.rs"]
mod support;

mod app;
mod eta;
mod mouse;
mod pty;
mod runner;
mod screen;
mod widgets;
