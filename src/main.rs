use std::process::ExitCode;

use flowcast::workflow::depth::WALK_STACK;

// glibc's malloc hands every block over its (adaptive) mmap threshold back to
// the kernel on free: a loop whose vectors grow with its index, or workers
// that allocate matrices in turn, then page-fault on fresh memory each time.
// On 2 cores that was over a third of a run's CPU time, spent in the kernel,
// and faults contend on the one memory map as cores are added; mimalloc
// keeps freed pages per thread for reuse.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Before any kernel runs, in any command (see the function).
    flowcast::kernels::width::faer_on_given_workers();
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
