//! Figure 7 (section VI-D): prediction error against the number of
//! training points. Training points are inserted one at a time (the model
//! retrained after each); after the first and after every tenth, the model
//! predicts held-out queries (sizes beyond the bottom 5 % of the range) and
//! the median relative error is recorded.
//!
//! The window holds every training point here, as the paper's experiment
//! varies the training-set size; the schedulers' models keep the 40 most
//! recent.

use crate::cost::eval::median;
use crate::cost::model::{Model, ModelKind};

use super::calls::Call;

/// One function's measured training points (in arrival order) and queries.
#[derive(Clone, Debug)]
pub struct Measurements {
    pub function: String,
    pub train: Vec<(Call, f64)>,
    pub queries: Vec<(Call, f64)>,
}

/// Median relative error (fraction) per checkpoint, per function and over
/// all functions' queries pooled.
#[derive(Clone, Debug, PartialEq)]
pub struct Curves {
    pub kind: ModelKind,
    pub checkpoints: Vec<usize>,
    /// (function, median error at each checkpoint).
    pub functions: Vec<(String, Vec<f64>)>,
    pub pooled: Vec<f64>,
}

/// 1, 10, 20, … up to `points`.
pub fn checkpoints(points: usize) -> Vec<usize> {
    std::iter::once(1)
        .chain((10..=points).step_by(10))
        .filter(|&k| k <= points)
        .collect()
}

/// Relative errors of a model trained on the first `k` points of each
/// function, for every checkpoint `k`.
pub fn curves(data: &[Measurements], kind: ModelKind, points: usize) -> Curves {
    let checkpoints = checkpoints(points);
    let mut pooled: Vec<Vec<f64>> = vec![Vec::new(); checkpoints.len()];
    let mut functions = Vec::new();
    for m in data {
        let mut model = Model::new(kind, &m.function);
        if let Model::Paper(ann) = &mut model {
            ann.window.capacity = points.max(1);
        }
        if let Model::LogLinear(ll) = &mut model {
            ll.window.capacity = points.max(1);
        }
        let mut medians = Vec::with_capacity(checkpoints.len());
        let mut next = 0;
        for (k, (call, secs)) in m.train.iter().take(points).enumerate() {
            model.observe(&call.features(), *secs);
            model.retrain();
            if checkpoints.get(next) == Some(&(k + 1)) {
                let mut errs: Vec<f64> = m
                    .queries
                    .iter()
                    .map(|(q, t)| (model.predict(&q.features()) - t).abs() / t)
                    .collect();
                pooled[next].extend_from_slice(&errs);
                medians.push(median(&mut errs));
                next += 1;
            }
        }
        functions.push((m.function.clone(), medians));
    }
    Curves {
        kind,
        checkpoints,
        functions,
        pooled: pooled.iter_mut().map(|v| median(v)).collect(),
    }
}

impl Curves {
    /// The pooled median error after `k` points, if `k` is a checkpoint.
    pub fn at(&self, k: usize) -> Option<f64> {
        let i = self.checkpoints.iter().position(|&c| c == k)?;
        self.pooled.get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::super::calls::Function;
    use super::*;

    #[test]
    fn checkpoints_are_one_then_every_ten() {
        assert_eq!(checkpoints(35), vec![1, 10, 20, 30]);
        assert_eq!(checkpoints(5), vec![1]);
    }

    #[test]
    fn an_exact_power_law_is_learnt() {
        let call = |n: usize| Call {
            function: Function::Table2(0),
            n_a: n,
            n_b: n,
        };
        let time = |c: &Call| 1e-9 * (c.n_a as f64).powi(3);
        let train: Vec<(Call, f64)> = (0..30)
            .map(|k| call(20 + 7 * k))
            .map(|c| {
                let t = time(&c);
                (c, t)
            })
            .collect();
        let queries = [55, 120, 190]
            .map(|n| {
                let c = call(n);
                let t = time(&c);
                (c, t)
            })
            .to_vec();
        let data = [Measurements {
            function: "eigen".into(),
            train,
            queries,
        }];
        let c = curves(&data, ModelKind::LogLinear, 30);
        assert_eq!(c.checkpoints, vec![1, 10, 20, 30]);
        // The prior exponent of eigen is already n³: one point pins the scale.
        assert!(c.at(1).is_some_and(|e| e < 1e-3), "{c:?}");
        assert!(c.at(30).is_some_and(|e| e < 1e-3), "{c:?}");
        assert_eq!(c.functions[0].1.len(), 4);
    }
}
