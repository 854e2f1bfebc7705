//! Per-function cost models: argument sizes in, seconds out.
//!
//! Two models share one sliding window of the most recent observations:
//! - [`PaperAnn`](super::ann::PaperAnn), the paper's network, kept exactly
//!   as specified so its results can be reproduced;
//! - [`LogLinear`](super::loglinear::LogLinear), the default: least squares of log(time) on log(sizes).
//!   Costs of numerical kernels are power laws in their sizes (n³ for a
//!   decomposition, n·m·k for a product), which are linear in log space, and
//!   timing noise is multiplicative, which log space makes additive. Measured
//!   against the ANN on synthetic curves by [`super::eval`].

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::ann::PaperAnn;
use super::loglinear::LogLinear;

/// The paper's sliding window: the 40 most recent observations.
pub const WINDOW: usize = 40;

/// The most inputs a model takes: the first argument sizes of a call with
/// more (`sum(s1, …, s20000)`). The fits are quadratic in their inputs, so
/// one such call in the history made every later run build a 3.2 GB
/// matrix when the models were loaded.
pub const MAX_INPUTS: usize = 32;

/// One finished task: its argument sizes and its measured seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub features: Vec<f64>,
    pub seconds: f64,
}

/// The most recent observations, oldest first, at most `capacity`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    pub capacity: usize,
    pub items: VecDeque<Observation>,
    /// The input dimension, fixed by the first observation: later feature
    /// vectors are padded with zeros or truncated to it (a function called
    /// with an optional argument more or less).
    pub dim: Option<usize>,
}

impl Window {
    pub fn new(capacity: usize) -> Window {
        Window {
            capacity: capacity.max(1),
            items: VecDeque::new(),
            dim: None,
        }
    }

    /// Adds an observation, dropping the oldest when full. Returns the
    /// observation as stored (resized to the window's dimension). Times that
    /// are not finite and positive carry no information and are ignored.
    pub fn push(&mut self, features: &[f64], seconds: f64) -> Option<&Observation> {
        if !(seconds.is_finite() && seconds > 0.0) {
            return None;
        }
        let dim = *self.dim.get_or_insert(features.len().min(MAX_INPUTS));
        let features = fit_dim(features, dim);
        if self.items.len() == self.capacity {
            self.items.pop_front();
        }
        self.items.push_back(Observation { features, seconds });
        self.items.back()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// `x` padded with zeros or truncated to `dim` entries.
pub fn fit_dim(x: &[f64], dim: usize) -> Vec<f64> {
    let mut v: Vec<f64> = x
        .iter()
        .take(dim)
        .map(|&f| if f.is_finite() { f } else { 0.0 })
        .collect();
    v.resize(dim, 0.0);
    v
}

/// Which model a [`Model`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// The paper's ANN (section III), for reproduction.
    Paper,
    /// Least squares in log space, with priors for 0–2 observations.
    #[default]
    LogLinear,
}

impl ModelKind {
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Paper => "paper",
            ModelKind::LogLinear => "loglinear",
        }
    }

    pub fn parse(s: &str) -> Option<ModelKind> {
        [ModelKind::Paper, ModelKind::LogLinear]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// One function's cost model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Model {
    Paper(PaperAnn),
    LogLinear(LogLinear),
}

impl Model {
    /// A fresh model for `function` (whose name selects the prior exponent).
    pub fn new(kind: ModelKind, function: &str) -> Model {
        match kind {
            ModelKind::Paper => Model::Paper(PaperAnn::new(seed_for(function))),
            ModelKind::LogLinear => Model::LogLinear(LogLinear::for_function(function)),
        }
    }

    pub fn kind(&self) -> ModelKind {
        match self {
            Model::Paper(_) => ModelKind::Paper,
            Model::LogLinear(_) => ModelKind::LogLinear,
        }
    }

    /// Predicted seconds for these argument sizes (never negative).
    pub fn predict(&self, features: &[f64]) -> f64 {
        match self {
            Model::Paper(m) => m.predict(features),
            Model::LogLinear(m) => m.predict(features),
        }
    }

    /// Adds an observation to the window; [`Model::retrain`] makes
    /// predictions use it.
    pub fn observe(&mut self, features: &[f64], seconds: f64) {
        match self {
            Model::Paper(m) => m.observe(features, seconds),
            Model::LogLinear(m) => m.observe(features, seconds),
        }
    }

    pub fn retrain(&mut self) {
        match self {
            Model::Paper(m) => m.retrain(),
            Model::LogLinear(m) => m.retrain(),
        }
    }

    pub fn window(&self) -> &Window {
        match self {
            Model::Paper(m) => &m.window,
            Model::LogLinear(m) => &m.window,
        }
    }

    /// The model's typical relative error on its own window, in log space
    /// (standard deviation of ln(observed / predicted)); `None` with too few
    /// observations to say.
    pub fn log_spread(&self) -> Option<f64> {
        let w = self.window();
        if w.len() < 3 {
            return None;
        }
        let ss: f64 = w
            .items
            .iter()
            .map(|o| {
                let p = self.predict(&o.features).max(1e-12);
                (o.seconds / p).ln().powi(2)
            })
            .sum();
        Some((ss / (w.len() - 1) as f64).sqrt())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "null".into())
    }

    pub fn from_json(s: &str) -> Result<Model, String> {
        let m: Model = serde_json::from_str(s).map_err(|e| e.to_string())?;
        // A state saved before inputs were bounded is rebuilt from its
        // observations, which are then bounded.
        match m.window().dim {
            Some(d) if d > MAX_INPUTS => Err(format!("a model of {d} inputs")),
            _ => Ok(m),
        }
    }
}

/// A deterministic seed per function, so the ANN's initial weights are
/// reproducible.
pub fn seed_for(function: &str) -> u64 {
    // FNV-1a.
    function.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A small deterministic generator (SplitMix64): the ANN's initial weights
/// and the synthetic benchmarks must be the same on every run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi].
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform().max(f64::MIN_POSITIVE);
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_keeps_the_most_recent_and_fixes_the_dimension() {
        let mut w = Window::new(3);
        for i in 1..=5 {
            w.push(&[i as f64, 2.0], i as f64);
        }
        let secs: Vec<f64> = w.items.iter().map(|o| o.seconds).collect();
        assert_eq!(secs, [3.0, 4.0, 5.0]);
        w.push(&[7.0], 1.0);
        assert_eq!(
            w.items.back().map(|o| o.features.clone()),
            Some(vec![7.0, 0.0])
        );
        assert!(w.push(&[1.0, 1.0], f64::NAN).is_none());
    }

    /// A call of thousands of arguments (`sum(s0, ..., s19999)`) once gave
    /// its model as many inputs, and fitting it a matrix of gigabytes at
    /// every later load: a model takes the first [`MAX_INPUTS`] sizes, and
    /// a wider state saved before is refused, to be rebuilt.
    #[test]
    fn a_model_takes_at_most_max_inputs() {
        let mut w = Window::new(3);
        let wide = vec![1.0; 20_000];
        let kept = w.push(&wide, 1.0).map(|o| o.features.len());
        assert_eq!(kept, Some(MAX_INPUTS));
        let mut m = Model::new(ModelKind::LogLinear, "sum");
        m.observe(&wide, 0.5);
        m.observe(&vec![2.0; 20_000], 1.0);
        m.retrain();
        assert_eq!(m.window().dim, Some(MAX_INPUTS));
        let saved = m.to_json();
        assert!(Model::from_json(&saved).is_ok());
        let widened = saved.replace(&format!("\"dim\":{MAX_INPUTS}"), "\"dim\":20000");
        assert_ne!(widened, saved, "the state names its dimension");
        assert!(Model::from_json(&widened).is_err());
    }
}
