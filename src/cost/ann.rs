//! The paper's cost model (section III), exactly: a three-layer network
//! with 2 hidden sigmoid neurons and a linear output, back-propagation with
//! momentum (learning rate 0.1, momentum 0.9), initial weights uniform in
//! [-0.01, 0.01], a sliding window of the 40 most recent observations, and
//! dynamic normalisation: inputs and output are scaled to the window's
//! min/max, and the window is re-normalised when a new value falls outside
//! the current range (and re-examined at every retrain, so the range also
//! shrinks once old extremes leave the window).
//!
//! Training is online (one sample at a time, in window order) for a fixed
//! [`PAPER_EPOCHS`] per retrain, continuing from the current weights: the
//! paper trains incrementally as points arrive.

use serde::{Deserialize, Serialize};

use super::model::{SplitMix, Window, WINDOW};

pub const HIDDEN: usize = 2;
pub const LEARNING_RATE: f64 = 0.1;
pub const MOMENTUM: f64 = 0.9;
pub const INIT_RANGE: f64 = 0.01;
/// Epochs over the window per retrain. The paper does not say; this many
/// keeps a retrain of 40 observations around a millisecond.
pub const PAPER_EPOCHS: usize = 300;

/// Min and max of one normalised quantity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    pub min: f64,
    pub max: f64,
}

impl Range {
    fn of(values: impl Iterator<Item = f64>) -> Range {
        values.fold(
            Range {
                min: f64::INFINITY,
                max: f64::NEG_INFINITY,
            },
            |r, v| Range {
                min: r.min.min(v),
                max: r.max.max(v),
            },
        )
    }

    fn contains(&self, v: f64) -> bool {
        v >= self.min && v <= self.max
    }

    /// `v` scaled to [0, 1] (0 when the range is a single value).
    pub fn scale(&self, v: f64) -> f64 {
        let w = self.max - self.min;
        if w > 0.0 && w.is_finite() {
            (v - self.min) / w
        } else {
            0.0
        }
    }

    pub fn unscale(&self, u: f64) -> f64 {
        let w = self.max - self.min;
        if w > 0.0 && w.is_finite() {
            self.min + u * w
        } else {
            self.min
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperAnn {
    pub window: Window,
    /// Hidden layer: `HIDDEN` rows of `dim` input weights then the bias.
    pub hidden: Vec<Vec<f64>>,
    /// Output: one weight per hidden neuron, then the bias.
    pub output: Vec<f64>,
    /// The last weight changes, for the momentum term.
    hidden_delta: Vec<Vec<f64>>,
    output_delta: Vec<f64>,
    /// Normalisation ranges of each input and of the output.
    pub input_range: Vec<Range>,
    pub output_range: Option<Range>,
    /// How many times the window was re-normalised (for tests and display).
    pub renormalisations: u64,
    rng: SplitMix,
}

impl PaperAnn {
    /// An untrained network; the weights are drawn when the first
    /// observation fixes the input dimension.
    pub fn new(seed: u64) -> PaperAnn {
        PaperAnn {
            window: Window::new(WINDOW),
            hidden: Vec::new(),
            output: Vec::new(),
            hidden_delta: Vec::new(),
            output_delta: Vec::new(),
            input_range: Vec::new(),
            output_range: None,
            renormalisations: 0,
            rng: SplitMix(seed),
        }
    }

    fn init_weights(&mut self, dim: usize) {
        let draw = |rng: &mut SplitMix| rng.range(-INIT_RANGE, INIT_RANGE);
        self.hidden = (0..HIDDEN)
            .map(|_| (0..=dim).map(|_| draw(&mut self.rng)).collect())
            .collect();
        self.output = (0..=HIDDEN).map(|_| draw(&mut self.rng)).collect();
        self.hidden_delta = vec![vec![0.0; dim + 1]; HIDDEN];
        self.output_delta = vec![0.0; HIDDEN + 1];
    }

    pub fn observe(&mut self, features: &[f64], seconds: f64) {
        let Some(o) = self.window.push(features, seconds).cloned() else {
            return;
        };
        if self.hidden.is_empty() {
            self.init_weights(o.features.len());
        }
        let outside = self.output_range.is_none_or(|r| !r.contains(o.seconds))
            || self.input_range.len() != o.features.len()
            || o.features
                .iter()
                .zip(&self.input_range)
                .any(|(&x, r)| !r.contains(x));
        if outside {
            self.renormalise();
        }
    }

    /// Sets every range to the window's current min/max.
    pub fn renormalise(&mut self) {
        let Some(dim) = self.window.dim else { return };
        let items = &self.window.items;
        self.input_range = (0..dim)
            .map(|j| Range::of(items.iter().map(|o| o.features[j])))
            .collect();
        self.output_range = Some(Range::of(items.iter().map(|o| o.seconds)));
        self.renormalisations += 1;
    }

    fn forward(&self, x: &[f64]) -> ([f64; HIDDEN], f64) {
        let mut h = [0.0; HIDDEN];
        for (hj, w) in h.iter_mut().zip(&self.hidden) {
            let dim = w.len() - 1;
            let z = w[dim] + w[..dim].iter().zip(x).map(|(w, x)| w * x).sum::<f64>();
            *hj = 1.0 / (1.0 + (-z).exp());
        }
        let y = self.output[HIDDEN] + h.iter().zip(&self.output).map(|(h, w)| h * w).sum::<f64>();
        (h, y)
    }

    fn normalised_inputs(&self, features: &[f64]) -> Vec<f64> {
        self.input_range
            .iter()
            .enumerate()
            .map(|(j, r)| r.scale(features.get(j).copied().unwrap_or(0.0)))
            .collect()
    }

    pub fn predict(&self, features: &[f64]) -> f64 {
        let Some(out) = self.output_range else {
            return 0.0;
        };
        if self.hidden.is_empty() {
            return out.min;
        }
        let x = self.normalised_inputs(features);
        let (_, y) = self.forward(&x);
        out.unscale(y).max(0.0)
    }

    /// [`PAPER_EPOCHS`] of online back-propagation with momentum over the
    /// window, after re-examining its range.
    pub fn retrain(&mut self) {
        if self.window.is_empty() || self.hidden.is_empty() {
            return;
        }
        self.renormalise();
        let Some(out) = self.output_range else { return };
        let samples: Vec<(Vec<f64>, f64)> = self
            .window
            .items
            .iter()
            .map(|o| (self.normalised_inputs(&o.features), out.scale(o.seconds)))
            .collect();
        for _ in 0..PAPER_EPOCHS {
            for (x, t) in &samples {
                self.step(x, *t);
            }
        }
    }

    /// One back-propagation step on squared error, with momentum.
    fn step(&mut self, x: &[f64], target: f64) {
        let (h, y) = self.forward(x);
        let e = y - target;
        // Hidden deltas use the output weights before this step's update.
        for (j, &hj) in h.iter().enumerate() {
            let delta = e * self.output[j] * hj * (1.0 - hj);
            let inputs = x.iter().copied().chain(std::iter::once(1.0));
            for ((w, dw), input) in self.hidden[j]
                .iter_mut()
                .zip(self.hidden_delta[j].iter_mut())
                .zip(inputs)
            {
                let d = -LEARNING_RATE * delta * input + MOMENTUM * *dw;
                *dw = d;
                *w += d;
            }
        }
        let inputs = h.iter().copied().chain(std::iter::once(1.0));
        for ((w, dw), input) in self
            .output
            .iter_mut()
            .zip(self.output_delta.iter_mut())
            .zip(inputs)
        {
            let d = -LEARNING_RATE * e * input + MOMENTUM * *dw;
            *dw = d;
            *w += d;
        }
    }
}
