//! Timings, not tests. `bench_bidiag`: our reduction against faer's on the
//! same matrices, in one process, interleaved (the machine is shared: min
//! and median of many runs): `cargo test --release --lib bench_bidiag --
//! --ignored --nocapture`, with `BD_SIZES=1000x1000,2000x500`, `BD_NB`,
//! `BD_NX`, `BD_REPS`, `BD_ONLY` (ours only, for profiling), `BD_VS=nb,nx`
//! (ours with these sizes in place of faer's). `bench_gemv`: the bandwidth
//! of the products' kernels.

use super::tests::{faers, noise, ours};
use super::{BLOCK, CROSSOVER};

/// Seconds since the first call. Wall-clock: the thread's CPU time from
/// /proc is updated only at scheduler ticks, too coarse here; the minimum
/// of many runs filters out the other processes.
fn now() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

#[test]
#[ignore]
fn bench_bidiag() {
    let sizes: Vec<(usize, usize)> = std::env::var("BD_SIZES")
        .unwrap_or("250x250,500x500,1000x1000,2000x2000,2000x500".into())
        .split(',')
        .map(|s| {
            let mut it = s.split('x').map(|x| x.parse().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    let nb: usize = std::env::var("BD_NB")
        .map(|s| s.parse().unwrap())
        .unwrap_or(BLOCK);
    let nx: usize = std::env::var("BD_NX")
        .map(|s| s.parse().unwrap())
        .unwrap_or(CROSSOVER);
    let vs: Option<(usize, usize)> = std::env::var("BD_VS").ok().map(|s| {
        let (a, b) = s.split_once(',').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    });
    for (m, n) in sizes {
        let a = noise(1, m, n);
        let reps = std::env::var("BD_REPS")
            .map(|s| s.parse().unwrap())
            .unwrap_or((4e9 / (m * n * n) as f64).clamp(3.0, 40.0) as usize);
        let (mut to, mut tf) = (vec![], vec![]);
        for _ in 0..reps {
            let t0 = now();
            let r = ours(&a, nb, nx);
            to.push(now() - t0);
            std::hint::black_box(r);
            if std::env::var("BD_ONLY").is_ok() {
                tf.push(1.0);
                continue;
            }
            let t0 = now();
            // BD_VS=nb,nx: ours with other sizes in place of faer's.
            let r = match &vs {
                Some((nb2, nx2)) => ours(&a, *nb2, *nx2),
                None => faers(&a),
            };
            tf.push(now() - t0);
            std::hint::black_box(r);
        }
        to.sort_by(f64::total_cmp);
        tf.sort_by(f64::total_cmp);
        println!(
            "{m}x{n} nb={nb} nx={nx} reps={reps}: ours min {:.4} med {:.4} | faer min {:.4} med {:.4} | ours/faer {:.3}",
            to[0], to[reps / 2], tf[0], tf[reps / 2], to[0] / tf[0]
        );
    }
}

#[test]
#[ignore]
fn bench_gemv() {
    use super::super::gemv::{dots_then_combine, gemv_n_add, gemv_t};

    for (m, n) in [(1000, 1000), (600, 600), (300, 300), (2000, 1000)] {
        let a = noise(3, m, n);
        let u = vec![0.5; m];
        let c = vec![0.25; n];
        let mut o1 = vec![0.0; n];
        let mut o2 = vec![0.0; m];
        let reps = 200_000_000 / (m * n);
        let (mut bt, mut bn, mut bf) = (f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..reps {
            let t0 = now();
            gemv_t(a.as_ref(), &u, &mut o1);
            let t1 = now();
            gemv_n_add(a.as_ref(), &c, &mut o2);
            let t2 = now();
            let mut z = vec![0.0; m];
            dots_then_combine(a.as_ref(), &u, |j, d| d * 1e-3 + j as f64, &mut z);
            let t3 = now();
            std::hint::black_box(&z);
            bt = bt.min(t1 - t0);
            bn = bn.min(t2 - t1);
            bf = bf.min(t3 - t2);
        }
        let gb = (m * n * 8) as f64 / 1e9;
        println!(
            "{m}x{n}: gemv_t {:.1} GB/s, gemv_n {:.1} GB/s, fused {:.1} GB/s",
            gb / bt,
            gb / bn,
            gb / bf
        );
    }
}
