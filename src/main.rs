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
    // faer's convenience calls (`singular_values`, `svd`, `inverse`, …)
    // run on every core by default. Called from a planned worker, that
    // put a second thread on the core another worker was planned to use,
    // and woke rayon's pool thousands of times a run: an svd's matrix-
    // vector products ran 1.2x slower beside a loop, and the loop too. A
    // call runs on the workers the plan gives it (`kernels::width`), so
    // faer is sequential unless a kernel asks for more.
    faer::set_global_parallelism(faer::Par::Seq);
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
