use std::process::ExitCode;

use flowcast::workflow::depth::WALK_STACK;

fn main() -> ExitCode {
    // `check` and the terminal UI walk expressions on this thread: give it
    // the stack every such thread has (see `workflow::depth`).
    match std::thread::Builder::new()
        .name("flowcast".into())
        .stack_size(WALK_STACK)
        .spawn(flowcast::cli::main)
    {
        Ok(main) => main.join().unwrap_or(ExitCode::from(101)),
        Err(_) => flowcast::cli::main(),
    }
}
