//! `run --mpi` and `calibrate --mpi`: every rank of an `mpirun`/`srun` job
//! runs the same command. All ranks measure the network together; then
//! rank 0 runs the workflow as `run` does, with the other ranks' workers
//! added to its own (see [`crate::exec::remote`]), while the others serve
//! it until it says the program ends.

#[cfg(not(feature = "mpi"))]
use std::process::ExitCode;

use super::args::RunArgs;
use crate::exec::remote::Cluster;

/// The ranks of a job, as rank 0 runs a workflow on them.
pub struct Ranks {
    pub cluster: Cluster,
    /// The network between ranks, `l` and `b`, measured at start-up.
    pub latency: f64,
    pub per_byte: f64,
}

#[cfg(not(feature = "mpi"))]
const NOT_BUILT: &str =
    "error: --mpi needs a flowcast built with MPI: install Open MPI and libclang \
     (apt-get install openmpi-bin libopenmpi-dev libclang-dev), then \
     cargo build --release --features mpi";

#[cfg(not(feature = "mpi"))]
pub fn run(_args: &RunArgs) -> ExitCode {
    crate::stdout::errln!("{NOT_BUILT}");
    ExitCode::from(2)
}

#[cfg(not(feature = "mpi"))]
pub fn calibrate(_history: Option<&std::path::Path>) -> ExitCode {
    crate::stdout::errln!("{NOT_BUILT}");
    ExitCode::from(2)
}

#[cfg(not(feature = "mpi"))]
pub fn bench(
    _files: Vec<std::path::PathBuf>,
    _runs: usize,
    _per_rank: usize,
    _seed: i64,
) -> ExitCode {
    crate::stdout::errln!("{NOT_BUILT}");
    ExitCode::from(2)
}

#[cfg(feature = "mpi")]
pub use with_mpi::{bench, calibrate, run};

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::process::ExitCode;
    use std::sync::Arc;

    use super::{Ranks, RunArgs};
    use crate::exec::mpi::Mpi;
    use crate::exec::remote::{self, Cluster, InFlight, Transport};
    use crate::stdout::{errln, outln};

    /// The paper's cluster network (section V), beside which a measured
    /// one is shown.
    const PAPER: (f64, f64) = (0.69e-3, 2.6e-9);

    pub fn run(args: &RunArgs) -> ExitCode {
        // Every rank sees the same arguments, so every rank refuses alike
        // and none waits for another.
        if args.watch {
            errln!("error: --mpi runs once; --watch is for one machine");
            return ExitCode::from(2);
        }
        let (cluster, latency, per_byte) = match lead(1) {
            Ok(x) => x,
            Err(code) => return code,
        };
        watch_for_termination(cluster.in_flight());
        let ranks = Ranks {
            cluster: cluster.clone(),
            latency,
            per_byte,
        };
        let code = super::super::run_on(args, Some(ranks));
        cluster.shut_down();
        code
    }

    pub fn calibrate(history: Option<&std::path::Path>) -> ExitCode {
        let (mpi, latency, per_byte) = match join() {
            Ok(x) => x,
            Err(code) => return code,
        };
        if mpi.rank() != 0 {
            return ExitCode::SUCCESS;
        }
        if mpi.size() < 2 {
            errln!(
                "error: calibrate --mpi measures between ranks: run it under mpirun -np 2 or more"
            );
            return ExitCode::from(2);
        }
        drop(mpi);
        super::super::with_history(history, super::super::Access::Write, |h| {
            outln!(
                "network between ranks: l = {:.3} ms, b = {:.3e} ms/byte (the paper's cluster: l = {} ms, b = {:.1e} ms/byte)",
                latency * 1e3,
                per_byte * 1e3,
                PAPER.0 * 1e3,
                PAPER.1 * 1e3
            );
            h.save_network(latency, per_byte)?;
            outln!("stored in {}", h.path().display());
            Ok(())
        })
    }

    pub fn bench(
        files: Vec<std::path::PathBuf>,
        runs: usize,
        per_rank: usize,
        seed: i64,
    ) -> ExitCode {
        if files.is_empty() || runs == 0 || per_rank == 0 {
            errln!("error: give workflow files (none in ./workflows), --runs and -p of at least 1");
            return ExitCode::from(2);
        }
        let (cluster, latency, per_byte) = match lead(per_rank) {
            Ok(x) => x,
            Err(code) => return code,
        };
        let opts = crate::bench::cluster::Options {
            files,
            per_rank,
            runs,
            seed,
            latency,
            per_byte,
        };
        let result = crate::bench::cluster::run(&cluster, &opts);
        cluster.shut_down();
        match result {
            Ok(table) => {
                crate::stdout::out!("{table}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                errln!("error: {e}");
                ExitCode::from(1)
            }
        }
    }

    /// Joins the job; every rank measures the network with the others.
    fn join() -> Result<(Mpi, f64, f64), ExitCode> {
        let mpi = Mpi::init().map_err(|e| {
            errln!("error: {e}");
            ExitCode::from(1)
        })?;
        let (latency, per_byte) = mpi.measure_network();
        Ok((mpi, latency, per_byte))
    }

    /// [`join`], then on rank 0 its view of the ranks (`per_rank` workers
    /// each) and the network; every other rank serves rank 0 until the
    /// program ends and returns its exit status as the error.
    fn lead(per_rank: usize) -> Result<(Cluster, f64, f64), ExitCode> {
        let (mpi, latency, per_byte) = join()?;
        if mpi.rank() != 0 {
            return Err(serve(&mpi));
        }
        let transport: Arc<dyn Transport> = Arc::new(mpi);
        Ok((Cluster::new(transport, per_rank), latency, per_byte))
    }

    fn serve(mpi: &Mpi) -> ExitCode {
        match remote::serve(mpi) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("error: {e}");
                ExitCode::from(1)
            }
        }
    }

    /// When one rank dies, mpirun ends the others with SIGTERM: rank 0
    /// then says what the other ranks were running before it goes. It has
    /// written nothing to the history yet (a run is recorded in one
    /// transaction at its end), so the history stays as it was.
    fn watch_for_termination(in_flight: InFlight) {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("flowcast-mpi-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    let running = in_flight.list();
                    let what = if running.is_empty() {
                        "no other rank was running a step".to_string()
                    } else {
                        running
                            .iter()
                            .map(|(r, s)| format!("rank {r} was running `{s}`"))
                            .collect::<Vec<_>>()
                            .join("; ")
                    };
                    errln!(
                        "error: the MPI job was stopped (signal {sig}: mpirun stops every rank when one dies, or on Ctrl-C): {what}. The run is not recorded; the history is unchanged."
                    );
                    std::process::exit(128 + sig);
                }
            });
    }
}
