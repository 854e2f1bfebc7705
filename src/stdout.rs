//! Everything the command line prints to standard output goes through here.
//!
//! `println!` panics when stdout is a pipe whose reader has gone
//! (`flowcast history | head -1`). A reader that stops reading has chosen
//! to, so a closed pipe ends the process quietly with status 0; any other
//! write error (a full disk) is reported, status 1.

use std::io::Write;

/// Writes `text` to stdout and flushes it (so a pipe sees each part as it
/// is printed, as with `println!`).
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        gone(&e);
    }
}

/// Ends the process for a failed write to stdout.
fn gone(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    let _ = writeln!(std::io::stderr(), "error: writing to stdout: {e}");
    std::process::exit(1);
}

/// `print!` that cannot panic: see the module's doc.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::print(&format!($($arg)*))
    };
}

/// `println!` that cannot panic: see the module's doc.
macro_rules! outln {
    () => {
        $crate::stdout::print("\n")
    };
    ($($arg:tt)*) => {
        $crate::stdout::print(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that cannot panic: `eprintln!` panics when stderr is closed
/// (`flowcast … 2>&-`), and a message that cannot be shown is no reason to
/// abort the command.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub(crate) use {errln, out, outln};
