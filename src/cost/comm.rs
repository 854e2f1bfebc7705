//! The communication model `l + b·bytes` (paper section III), calibrated on
//! this machine.
//!
//! flowcast's workers are threads sharing memory: handing a value to
//! another worker moves an `Arc`, which is nearly free. What does cost is
//! the consumer's first touch of a value the producer wrote on another core:
//! its cache lines must travel. So the calibration measures, for values of
//! 1 KiB to 64 MiB, a hand-off through a channel plus a full read on the
//! other thread, minus the same read done by the producer itself (the read a
//! consumer on the same worker would pay anyway: the scheduler charges
//! communication only between workers). `l` is the median hand-off of a tiny
//! value; `b` the least-squares slope of the extra read time through `l`.

use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// The communication model: `latency + per_byte × bytes` seconds to move a
/// value between two workers; nothing on the same worker. Under MPI the
/// workers are spread over ranks, `network` says how, and a value that
/// crosses ranks costs the network's figure instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comm {
    pub latency: f64,
    pub per_byte: f64,
    pub network: Option<Network>,
}

/// Workers on several ranks (MPI processes): rank r holds workers
/// `r·per_rank .. (r+1)·per_rank`, and a value between ranks costs
/// `latency + per_byte × bytes`, measured by a ping-pong at start-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Network {
    pub per_rank: usize,
    pub latency: f64,
    pub per_byte: f64,
}

impl Network {
    /// The rank that holds `worker`.
    pub fn rank_of(&self, worker: usize) -> usize {
        worker / self.per_rank.max(1)
    }
}

impl Comm {
    /// Threads share memory: values are passed by reference.
    pub const SHARED_MEMORY: Comm = Comm {
        latency: 0.0,
        per_byte: 0.0,
        network: None,
    };

    /// The model on one machine.
    pub const fn local(latency: f64, per_byte: f64) -> Comm {
        Comm {
            latency,
            per_byte,
            network: None,
        }
    }

    /// Moving a value between two workers on the same rank.
    pub fn cost(&self, bytes: f64) -> f64 {
        self.latency + self.per_byte * bytes
    }

    /// Moving a value from worker `from` to worker `to`: nothing on the
    /// same worker, the network's figure between ranks.
    pub fn between(&self, from: usize, to: usize, bytes: f64) -> f64 {
        if from == to {
            return 0.0;
        }
        match self.network {
            Some(n) if n.rank_of(from) != n.rank_of(to) => n.latency + n.per_byte * bytes,
            _ => self.cost(bytes),
        }
    }

    /// The most a move between two different workers can cost: what
    /// bottom levels count, as the paper's MCP does before placing.
    pub fn worst(&self, bytes: f64) -> f64 {
        match self.network {
            Some(n) => self.cost(bytes).max(n.latency + n.per_byte * bytes),
            None => self.cost(bytes),
        }
    }

    /// The most workers one call may hold: a moldable call's threads share
    /// one process.
    pub fn widest(&self, p: usize) -> usize {
        match self.network {
            Some(n) => p.min(n.per_rank.max(1)),
            None => p,
        }
    }
}

/// The model before `flowcast calibrate` has measured this machine: waking
/// another worker to take a value costs tens of microseconds (a futex and a
/// context switch), which is all that matters for tiny tasks, and keeps
/// a chain of them on one worker where handing it around would lose.
pub const UNCALIBRATED: Comm = Comm::local(20e-6, 0.0);

/// Value sizes calibrated, in bytes: 1 KiB, 4 KiB, …, 64 MiB.
pub fn calibration_sizes() -> Vec<usize> {
    (0..9).map(|k| 1024usize << (2 * k)).collect()
}

/// One measured point: bytes and the extra seconds of a cross-thread first
/// read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommSample {
    pub bytes: f64,
    pub seconds: f64,
}

/// Measures this machine (about a second) and fits `l + b·bytes`.
pub fn calibrate() -> Comm {
    let (latency, samples) = measure(&calibration_sizes(), 5);
    fit(latency, &samples)
}

/// `l` and `b` from a latency and samples: `b` is the least-squares slope
/// of `seconds - l` on `bytes` (through the origin), never negative.
pub fn fit(latency: f64, samples: &[CommSample]) -> Comm {
    let latency = latency.max(0.0);
    let (sxy, sxx) = samples.iter().fold((0.0, 0.0), |(sxy, sxx), s| {
        (
            sxy + s.bytes * (s.seconds - latency),
            sxx + s.bytes * s.bytes,
        )
    });
    let per_byte = if sxx > 0.0 { (sxy / sxx).max(0.0) } else { 0.0 };
    Comm::local(latency, per_byte)
}

/// The median hand-off latency of a tiny value, and per size the median
/// (over `reps`) extra time of a cross-thread first read.
pub fn measure(sizes: &[usize], reps: usize) -> (f64, Vec<CommSample>) {
    let reps = reps.max(1);
    let mut lat: Vec<f64> = (0..reps * 4).map(|_| handoff(8).0).collect();
    let latency = super::eval::median(&mut lat);
    let samples = sizes
        .iter()
        .map(|&bytes| {
            let mut extra: Vec<f64> = (0..reps)
                .map(|_| {
                    let (cross, local) = handoff(bytes);
                    cross - local
                })
                .collect();
            CommSample {
                bytes: bytes as f64,
                seconds: super::eval::median(&mut extra).max(0.0),
            }
        })
        .collect();
    (latency, samples)
}

/// Writes `bytes` of f64s on a producer thread, then times (a) handing it
/// to a consumer thread that reads it all, from the send to the end of the
/// read, and (b) the producer reading a value of the same size it has just
/// written. Returns (a, b) in seconds.
fn handoff(bytes: usize) -> (f64, f64) {
    let n = (bytes / 8).max(1);
    let (tx, rx) = mpsc::channel::<(Arc<Vec<f64>>, Instant)>();
    let consumer = thread::spawn(move || {
        rx.recv().map_or(0.0, |(v, sent)| {
            std::hint::black_box(sum(&v));
            sent.elapsed().as_secs_f64()
        })
    });
    let v: Arc<Vec<f64>> = Arc::new((0..n).map(|i| i as f64).collect());
    let _ = tx.send((Arc::clone(&v), Instant::now()));
    let cross = consumer.join().unwrap_or(0.0);
    let w: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let t0 = Instant::now();
    std::hint::black_box(sum(&w));
    let local = t0.elapsed().as_secs_f64();
    (cross, local)
}

fn sum(v: &[f64]) -> f64 {
    // Every cache line is read; the strided walk keeps the arithmetic cheap
    // next to the memory traffic being measured.
    v.iter().step_by(8).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_line_through_the_latency() {
        let samples: Vec<CommSample> = [1e3, 1e6, 1e7]
            .iter()
            .map(|&b| CommSample {
                bytes: b,
                seconds: 1e-5 + 2e-10 * b,
            })
            .collect();
        let c = fit(1e-5, &samples);
        assert!((c.per_byte / 2e-10 - 1.0).abs() < 1e-9);
        assert_eq!(fit(-1.0, &[]).latency, 0.0);
    }
}
