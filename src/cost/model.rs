//! Per-function cost models: argument sizes in, seconds out.
//!
//! Two models share one sliding window of the most recent observations:
//! - [`PaperAnn`](super::ann::PaperAnn), the paper's network, kept exactly
//!   as specified so its results can be reproduced;
//! - [`LogLinear`], the default: least squares of log(time) on log(sizes).
//!   Costs of numerical kernels are power laws in their sizes (n³ for a
//!   decomposition, n·m·k for a product), which are linear in log space, and
//!   timing noise is multiplicative, which log space makes additive. Measured
//!   against the ANN on synthetic curves by [`super::eval`].

use std::collections::VecDeque;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::ann::PaperAnn;

/// The paper's sliding window: the 40 most recent observations.
pub const WINDOW: usize = 40;

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
        let dim = *self.dim.get_or_insert(features.len());
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
            ModelKind::LogLinear => Model::LogLinear(LogLinear::new(prior_exponent(function))),
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
        serde_json::from_str(s).map_err(|e| e.to_string())
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

/// How a function's time grows with its inputs' geometric-mean size before
/// anything is observed: a decomposition or product of n×n matrices is n³,
/// a distance matrix n²·d, most element-wise work linear.
pub fn prior_exponent(function: &str) -> f64 {
    match function {
        "%*%" | "crossprod" | "solve" | "eigen" | "svd" | "qr" | "prcomp" | "lm" => 3.0,
        "dist" | "hclust" => 2.0,
        "friedman.test" | "wilcox.test" | "ks.test" | "mood.test" | "kmeans" => 1.2,
        _ => 1.0,
    }
}

/// Seconds per unit of "size" before anything is observed: a rough figure
/// for compiled numerical code (about a nanosecond per element operation).
pub const PRIOR_SECONDS_PER_UNIT: f64 = 1e-9;

/// How strongly the fitted exponents are pulled toward the prior (ridge
/// penalty in log-size units). Small: two observations a factor e apart
/// already outweigh it fifty-fold.
const RIDGE: f64 = 0.02;

/// The default model: `ln t = a + Σ b_i ln max(x_i, 1)`, fitted by ridge
/// least squares over the window, the ridge pulling the exponents toward a
/// per-function prior. So 0 observations give the prior, 1 observation
/// scales its time by the size ratio to the prior exponent, 2 fit the
/// exponent along the direction they differ, and more fit every exponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLinear {
    pub window: Window,
    /// Total exponent expected before any data (split evenly over features).
    pub prior_exponent: f64,
    /// Fitted intercept and exponents (empty before the first retrain).
    #[serde(default)]
    coef: Vec<f64>,
}

impl LogLinear {
    pub fn new(prior_exponent: f64) -> LogLinear {
        LogLinear {
            window: Window::new(WINDOW),
            prior_exponent,
            coef: Vec::new(),
        }
    }

    pub fn observe(&mut self, features: &[f64], seconds: f64) {
        self.window.push(features, seconds);
    }

    /// `[intercept, exponents...]` of the last fit.
    pub fn coefficients(&self) -> &[f64] {
        &self.coef
    }

    pub fn predict(&self, features: &[f64]) -> f64 {
        let d = self.window.dim.unwrap_or(features.len());
        let prior_b = self.prior_exponent / d.max(1) as f64;
        let (a, b): (f64, &[f64]) = match self.coef.split_first() {
            Some((a, b)) if b.len() == d => (*a, b),
            _ => (PRIOR_SECONDS_PER_UNIT.ln(), &[]),
        };
        let mut z = a;
        for (i, &x) in features.iter().take(d).enumerate() {
            z += b.get(i).copied().unwrap_or(prior_b) * log_size(x);
        }
        z.exp()
    }

    pub fn retrain(&mut self) {
        let Some(d) = self.window.dim else {
            self.coef.clear();
            return;
        };
        let n = self.window.len();
        let prior_b = self.prior_exponent / d.max(1) as f64;
        if n == 0 {
            self.coef.clear();
            return;
        }
        let nf = n as f64;
        let logs: Vec<Vec<f64>> = self
            .window
            .items
            .iter()
            .map(|o| o.features.iter().map(|&x| log_size(x)).collect())
            .collect();
        let ys: Vec<f64> = self.window.items.iter().map(|o| o.seconds.ln()).collect();
        let mean_x: Vec<f64> = (0..d)
            .map(|j| logs.iter().map(|r| r[j]).sum::<f64>() / nf)
            .collect();
        let mean_y = ys.iter().sum::<f64>() / nf;
        // (XcᵀXc + λI) b = Xcᵀyc + λ b0: ridge toward the prior exponents.
        let mut a = DMatrix::<f64>::zeros(d, d);
        let mut rhs = DVector::<f64>::zeros(d);
        for (r, &y) in logs.iter().zip(&ys) {
            for j in 0..d {
                let xj = r[j] - mean_x[j];
                rhs[j] += xj * (y - mean_y);
                for k in 0..d {
                    a[(j, k)] += xj * (r[k] - mean_x[k]);
                }
            }
        }
        for j in 0..d {
            a[(j, j)] += RIDGE;
            rhs[j] += RIDGE * prior_b;
        }
        let b: Vec<f64> = match a.cholesky() {
            Some(ch) => ch.solve(&rhs).iter().copied().collect(),
            None => vec![prior_b; d],
        };
        if b.iter().any(|v| !v.is_finite()) {
            return;
        }
        let intercept = mean_y - b.iter().zip(&mean_x).map(|(b, x)| b * x).sum::<f64>();
        self.coef = std::iter::once(intercept).chain(b).collect();
    }
}

/// A size on the log scale; sizes below 1 (unknown, empty) count as 1.
pub fn log_size(x: f64) -> f64 {
    if x > 1.0 && x.is_finite() {
        x.ln()
    } else {
        0.0
    }
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

    #[test]
    fn loglinear_one_observation_scales_by_the_prior_exponent() {
        let mut m = LogLinear::new(3.0);
        m.observe(&[100.0, 100.0], 1.0);
        m.retrain();
        let p = m.predict(&[200.0, 200.0]);
        assert!((p - 8.0).abs() < 1e-9, "{p}");
    }

    #[test]
    fn loglinear_fits_an_exact_power_law() {
        let mut m = LogLinear::new(1.0);
        for n in [100.0, 300.0, 700.0, 1500.0] {
            m.observe(&[n], 2e-9 * n * n);
        }
        m.retrain();
        let p = m.predict(&[1000.0]);
        assert!((p / 2e-3 - 1.0).abs() < 0.02, "{p}");
    }
}
