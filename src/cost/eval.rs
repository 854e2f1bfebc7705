//! Measuring the cost models on realistic synthetic cost curves, the way the
//! paper's section VI-D does: insert training points one at a time
//! (retraining after each), and after 10 and after 90 of them ask for 100
//! query points drawn from the same size range minus its bottom 5 %,
//! comparing each prediction with the query's own (noisy) time.
//!
//! Also the speed checks: one prediction, one retrain of a full window.

use std::time::Instant;

use super::model::{Model, ModelKind, SplitMix};

/// A synthetic cost curve: how a feature vector is drawn, and its true time.
#[derive(Clone, Copy, Debug)]
pub struct Curve {
    pub name: &'static str,
    /// The function name (selects the prior of the default model).
    pub function: &'static str,
    /// Draws a feature vector from a size drawn uniformly in `[lo, hi]`.
    pub sizes: fn(&mut SplitMix, f64) -> Vec<f64>,
    pub lo: f64,
    pub hi: f64,
    /// Noise-free seconds.
    pub time: fn(&[f64]) -> f64,
}

/// Five curves of the shapes flowcast's kernels have: n³ decompositions,
/// a rectangular product n·m·k, n² distance matrices, n log n rank tests,
/// and an n³ kernel with a fixed 0.2 ms overhead.
pub fn curves() -> Vec<Curve> {
    vec![
        Curve {
            name: "eigen n^3",
            function: "eigen",
            sizes: |_, n| vec![n.round(), n.round()],
            lo: 50.0,
            hi: 1500.0,
            time: |x| 3e-9 * x[0].powi(3),
        },
        Curve {
            name: "matmul n*m*k",
            function: "%*%",
            sizes: |r, n| {
                let m = r.range(50.0, 1500.0).round();
                let k = r.range(50.0, 1500.0).round();
                vec![n.round(), m, m, k]
            },
            lo: 50.0,
            hi: 1500.0,
            time: |x| 1e-9 * x[0] * x[1] * x[3],
        },
        Curve {
            name: "dist n^2 d",
            function: "dist",
            sizes: |r, n| vec![n.round(), r.range(2.0, 50.0).round()],
            lo: 100.0,
            hi: 5000.0,
            time: |x| 2e-9 * x[0] * x[0] * x[1],
        },
        Curve {
            name: "wilcox n log n",
            function: "wilcox.test",
            sizes: |_, n| vec![n.round()],
            lo: 1e3,
            hi: 1e6,
            time: |x| 5e-8 * x[0] * x[0].ln(),
        },
        Curve {
            name: "solve n^3 + 0.2 ms",
            function: "solve",
            sizes: |_, n| vec![n.round(), n.round()],
            lo: 50.0,
            hi: 1500.0,
            time: |x| 2e-4 + 1e-9 * x[0].powi(3),
        },
    ]
}

/// Median relative errors of one model on one curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accuracy {
    pub after_10: f64,
    pub after_90: f64,
}

/// Trains a fresh `kind` model on `curve` with multiplicative log-normal
/// noise of relative size `noise`, and measures it after 10 and 90 points.
pub fn accuracy(kind: ModelKind, curve: &Curve, noise: f64, seed: u64) -> Accuracy {
    let mut rng = SplitMix(seed);
    let noisy = |rng: &mut SplitMix, t: f64| t * (noise * rng.normal()).exp();
    // Queries: sizes beyond the bottom 5 % of the range, as in the paper.
    let qlo = curve.lo + 0.05 * (curve.hi - curve.lo);
    let queries: Vec<(Vec<f64>, f64)> = (0..100)
        .map(|_| {
            let n = rng.range(qlo, curve.hi);
            let x = (curve.sizes)(&mut rng, n);
            let t = noisy(&mut rng, (curve.time)(&x));
            (x, t)
        })
        .collect();
    let mut model = Model::new(kind, curve.function);
    let mut at = [0.0; 2];
    for k in 1..=90 {
        let n = rng.range(curve.lo, curve.hi);
        let x = (curve.sizes)(&mut rng, n);
        let t = noisy(&mut rng, (curve.time)(&x));
        model.observe(&x, t);
        model.retrain();
        if k == 10 || k == 90 {
            let mut errs: Vec<f64> = queries
                .iter()
                .map(|(x, t)| (model.predict(x) - t).abs() / t)
                .collect();
            at[usize::from(k == 90)] = median(&mut errs);
        }
    }
    Accuracy {
        after_10: at[0],
        after_90: at[1],
    }
}

/// Accuracy of `kind` on every curve, each the median over `seeds` runs.
pub fn accuracy_table(kind: ModelKind, noise: f64, seeds: u64) -> Vec<(&'static str, Accuracy)> {
    curves()
        .iter()
        .map(|c| {
            let runs: Vec<Accuracy> = (0..seeds)
                .map(|s| accuracy(kind, c, noise, s + 1))
                .collect();
            let mut a10: Vec<f64> = runs.iter().map(|a| a.after_10).collect();
            let mut a90: Vec<f64> = runs.iter().map(|a| a.after_90).collect();
            (
                c.name,
                Accuracy {
                    after_10: median(&mut a10),
                    after_90: median(&mut a90),
                },
            )
        })
        .collect()
}

pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// How long the model takes: one prediction (µs) and one retrain of a full
/// window of 40 (ms). For `flowcast bench` and the ignored timing test.
#[derive(Clone, Copy, Debug)]
pub struct Speed {
    pub predict_us: f64,
    pub retrain_ms: f64,
}

pub fn speed(kind: ModelKind) -> Speed {
    let curve = curves()[1];
    let mut rng = SplitMix(7);
    let mut model = Model::new(kind, curve.function);
    for _ in 0..40 {
        let n = rng.range(curve.lo, curve.hi);
        let x = (curve.sizes)(&mut rng, n);
        model.observe(&x, (curve.time)(&x));
    }
    let rounds = 20;
    let t0 = Instant::now();
    for _ in 0..rounds {
        model.retrain();
    }
    let retrain_ms = t0.elapsed().as_secs_f64() * 1e3 / rounds as f64;
    let x = vec![700.0, 800.0, 800.0, 900.0];
    let reps = 100_000;
    let t0 = Instant::now();
    let mut sink = 0.0;
    for i in 0..reps {
        let mut q = x.clone();
        q[0] += (i % 7) as f64;
        sink += model.predict(std::hint::black_box(&q));
    }
    std::hint::black_box(sink);
    let predict_us = t0.elapsed().as_secs_f64() * 1e6 / reps as f64;
    Speed {
        predict_us,
        retrain_ms,
    }
}
