//! The MPI transport (cargo feature `mpi`): rsmpi over the system's Open
//! MPI, with every rank's worker threads sending and receiving at once
//! (`MPI_THREAD_MULTIPLE`).

use std::time::Instant;

use mpi::environment::Universe;
use mpi::traits::{Communicator, Destination, MatchedReceiveVec, Source};
use mpi::Threading;

use super::remote::Transport;
use crate::cost::comm::{fit, CommSample};

/// MPI counts are C ints: a message longer than this goes in parts.
const PART: usize = 1 << 30;

/// The channel the start-up ping-pong uses, apart from the workers'.
const PING: u16 = 32_000;

/// This process's place in `mpirun`'s job.
pub struct Mpi {
    universe: Universe,
}

impl Mpi {
    /// Joins the job. Fails outside `mpirun`/`srun` only where the MPI
    /// library itself cannot start, and where it cannot let threads send
    /// at once.
    pub fn init() -> Result<Mpi, String> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Multiple)
            .ok_or("MPI was already initialised")?;
        if threading < Threading::Multiple {
            return Err(format!(
                "this MPI library gives {threading:?} threading; flowcast needs Multiple \
                 (Open MPI built with thread support, as Debian's is)"
            ));
        }
        Ok(Mpi { universe })
    }

    /// The network between rank 0 and every other rank, `(l, b)` in
    /// seconds and seconds per byte: the median one-way time of an empty
    /// message, and the slope over messages of 64 KiB to 16 MiB (half a
    /// round trip each, the median of five). Every rank must call it.
    pub fn measure_network(&self) -> (f64, f64) {
        let sizes = [0usize, 1 << 16, 1 << 20, 1 << 22, 1 << 24];
        let reps = 5;
        let world = self.universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        let mut latencies = Vec::new();
        let mut samples = Vec::new();
        for r in 1..size {
            for &bytes in &sizes {
                let buf = vec![7u8; bytes];
                let mut times = Vec::new();
                for _ in 0..reps {
                    if rank == 0 {
                        let t = Instant::now();
                        self.send(r, PING, &buf);
                        let _ = self.recv(r, PING);
                        times.push(t.elapsed().as_secs_f64() / 2.0);
                    } else if rank == r {
                        if let Ok(b) = self.recv(0, PING) {
                            self.send(0, PING, &b);
                        }
                    }
                }
                if rank == 0 {
                    let t = crate::cost::eval::median(&mut times);
                    if bytes == 0 {
                        latencies.push(t);
                    } else {
                        samples.push(CommSample {
                            bytes: bytes as f64,
                            seconds: t,
                        });
                    }
                }
            }
        }
        if rank != 0 || latencies.is_empty() {
            return (0.0, 0.0);
        }
        let latency = crate::cost::eval::median(&mut latencies);
        let c = fit(latency, &samples);
        (c.latency, c.per_byte)
    }
}

impl Transport for Mpi {
    fn rank(&self) -> usize {
        self.universe.world().rank() as usize
    }

    fn size(&self) -> usize {
        self.universe.world().size() as usize
    }

    fn send(&self, to: usize, tag: u16, bytes: &[u8]) {
        let world = self.universe.world();
        let to = world.process_at_rank(to as i32);
        let len = (bytes.len() as u64).to_le_bytes();
        to.send_with_tag(&len[..], i32::from(tag));
        for part in bytes.chunks(PART) {
            to.send_with_tag(part, i32::from(tag));
        }
    }

    fn recv(&self, from: usize, tag: u16) -> Result<Vec<u8>, String> {
        let world = self.universe.world();
        let from = world.process_at_rank(from as i32);
        let len = receive_part(&from, tag);
        let len: [u8; 8] = len
            .try_into()
            .map_err(|_| "a message without its length".to_string())?;
        let len = usize::try_from(u64::from_le_bytes(len)).map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(len.min(PART));
        while out.len() < len {
            let part = receive_part(&from, tag);
            if part.is_empty() {
                return Err("a message shorter than its length".into());
            }
            out.extend_from_slice(&part);
        }
        Ok(out)
    }
}

/// The next message from `from` on `tag`. A blocking MPI receive spins on
/// its core until the message comes; a rank has a waiting thread per
/// worker it serves (rank 0 one per worker of every other rank), which
/// would take the cores the computing workers need. So it probes, yielding
/// at first, then sleeping up to a millisecond between looks.
fn receive_part(from: &mpi::topology::Process<'_>, tag: u16) -> Vec<u8> {
    let mut looks = 0u32;
    loop {
        if let Some(probed) = from.immediate_matched_probe_with_tag(i32::from(tag)) {
            return probed.matched_receive_vec::<u8>().0;
        }
        looks += 1;
        if looks < 64 {
            std::thread::yield_now();
        } else {
            let micros = 20u64 << ((looks - 64) / 8).min(6);
            std::thread::sleep(std::time::Duration::from_micros(micros.min(1000)));
        }
    }
}
