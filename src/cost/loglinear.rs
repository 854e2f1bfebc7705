//! The default cost model: least squares of log(time) on log(sizes), with
//! per-function priors for the first observations and derived terms for
//! costs a product of powers cannot fit.

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::model::{fit_dim, Window, WINDOW};

/// How a function's time grows with each of its size features (a
/// matrix's rows and columns, a vector's length) before anything is
/// observed. Per feature, so that element-wise work and tests on an r×c
/// matrix grow with its r·c elements: a decomposition of n×n is n³ (1.5
/// each), a product of two n×n is n³ over four features, hclust of a
/// distance vector of ~n²/2 is ~n³.
pub fn prior_exponent(function: &str) -> f64 {
    match function {
        "solve" | "eigen" | "svd" | "qr" | "prcomp" | "dist" | "hclust" | "chol" | "det"
        | "cmdscale" => 1.5,
        // Two matrices' four dimensions; crossprod's one matrix, two.
        "%*%" => 0.75,
        "crossprod" => 1.5,
        "friedman.test" | "wilcox.test" | "ks.test" | "mood.test" | "kmeans" => 1.1,
        _ => 1.0,
    }
}

/// How a function's size features combine before anything is observed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pool {
    /// The dimensions of one object: work grows with rows × columns.
    #[default]
    Product,
    /// Separate samples or pieces: a two-sample test ranks n1 + n2 values,
    /// `c` copies them all.
    Sum,
    /// Operands recycled to the longer: `x + y` is as long as the longer.
    Max,
}

/// How `function`'s features combine in its prior.
pub fn prior_pool(function: &str) -> Pool {
    match function {
        "wilcox.test" | "ks.test" | "mood.test" | "c" | "cbind" | "rbind" | "sum" | "max"
        | "min" | "range" | "paste" => Pool::Sum,
        "+" | "-" | "*" | "/" | "^" | "%%" | "%/%" | "==" | "!=" | "<" | ">" | "<=" | ">="
        | "&" | "|" => Pool::Max,
        _ => Pool::Product,
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
///
/// A product of powers cannot fit every cost: a two-sample test sorts the
/// pooled sample, (n1 + n2)·log(n1 + n2), a sum; some kernels change regime
/// with size. So with enough observations the fit may add [`Extra`] terms
/// derived from the same sizes (sums, or squares and products of the log
/// sizes), each candidate set fitted with a ridge pulling the extra
/// coefficients to zero (the extra columns are nearly collinear with the
/// log sizes), and keeps the candidate with the smallest leave-one-out
/// error: a term is only kept when it predicts points it was not fitted to
/// better, so a plain power law stays a plain power law.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLinear {
    pub window: Window,
    /// Exponent per feature expected before any data. A model loaded
    /// from the history takes its function's current prior
    /// ([`Predictor::load`](super::Predictor::load)): stores written when
    /// this was a total over all features stay right.
    pub prior_exponent: f64,
    /// How the features combine in the prior (stores written before it
    /// multiplied them all).
    #[serde(default)]
    pub prior_pool: Pool,
    /// Fitted intercept and exponents (empty before the first retrain).
    #[serde(default)]
    coef: Vec<f64>,
    /// Derived terms chosen by the last fit, with their coefficients.
    #[serde(default)]
    extra: Vec<(Extra, f64)>,
}

/// A term derived from the argument sizes, beyond the log sizes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Extra {
    /// ln Σ x_i: the total size when the arguments are vectors.
    Sum,
    /// ln Σ x_2k·x_2k+1: the total number of elements when the arguments
    /// are matrices (each gives rows, columns).
    Elements,
    /// (ln x_i − c_i)·(ln x_j − c_j): curvature in log space (a change of
    /// regime), centred on the window's mean so the linear part keeps its
    /// meaning.
    Product {
        i: usize,
        j: usize,
        ci: f64,
        cj: f64,
    },
}

impl Extra {
    fn value(&self, x: &[f64]) -> f64 {
        match *self {
            Extra::Sum => log_size(x.iter().filter(|v| v.is_finite()).map(|v| v.max(0.0)).sum()),
            Extra::Elements => log_size(
                x.chunks(2)
                    .map(|p| {
                        let r = p[0].max(1.0);
                        let c = p.get(1).map_or(1.0, |c| c.max(1.0));
                        if (r * c).is_finite() {
                            r * c
                        } else {
                            0.0
                        }
                    })
                    .sum(),
            ),
            Extra::Product { i, j, ci, cj } => {
                let l = |k: usize| x.get(k).map_or(0.0, |&v| log_size(v));
                (l(i) - ci) * (l(j) - cj)
            }
        }
    }
}

/// Observations per fitted coefficient before derived terms are tried:
/// below that, leave-one-out error cannot tell a real curve from noise.
const POINTS_PER_TERM: usize = 3;

/// A fitted candidate: intercept, exponents, extra coefficients, and its
/// mean absolute leave-one-out residual in log space.
struct Fit {
    coef: Vec<f64>,
    extra: Vec<(Extra, f64)>,
    loo: f64,
}

impl LogLinear {
    pub fn new(prior_exponent: f64) -> LogLinear {
        LogLinear {
            window: Window::new(WINDOW),
            prior_exponent,
            prior_pool: Pool::Product,
            coef: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// A model of `function` starting from its prior.
    pub fn for_function(function: &str) -> LogLinear {
        let mut m = LogLinear::new(0.0);
        m.set_prior(function);
        m
    }

    /// Takes `function`'s current prior, also for a model loaded from a
    /// store written when the priors were different.
    pub fn set_prior(&mut self, function: &str) {
        self.prior_exponent = prior_exponent(function);
        self.prior_pool = prior_pool(function);
    }

    pub fn observe(&mut self, features: &[f64], seconds: f64) {
        self.window.push(features, seconds);
    }

    /// `[intercept, exponents...]` of the last fit.
    pub fn coefficients(&self) -> &[f64] {
        &self.coef
    }

    /// The derived terms the last fit kept.
    pub fn extras(&self) -> &[(Extra, f64)] {
        &self.extra
    }

    pub fn predict(&self, features: &[f64]) -> f64 {
        let d = self.window.dim.unwrap_or(features.len());
        let (a, b): (f64, &[f64]) = match self.coef.split_first() {
            Some((a, b)) if b.len() == d => (*a, b),
            _ => (PRIOR_SECONDS_PER_UNIT.ln(), &[]),
        };
        let x = features.iter().take(d).copied();
        if b.is_empty() {
            let size = match self.prior_pool {
                Pool::Product => x.map(log_size).sum(),
                Pool::Sum => log_size(x.filter(|v| v.is_finite()).sum()),
                Pool::Max => log_size(x.fold(0.0, f64::max)),
            };
            return (a + self.prior_exponent * size).exp();
        }
        let mut z = a + x.zip(b).map(|(x, b)| b * log_size(x)).sum::<f64>();
        let x = fit_dim(features, d);
        for (e, c) in &self.extra {
            z += c * e.value(&x);
        }
        z.exp()
    }

    pub fn retrain(&mut self) {
        let Some(d) = self.window.dim else {
            self.coef.clear();
            self.extra.clear();
            return;
        };
        let n = self.window.len();
        if n == 0 {
            self.coef.clear();
            self.extra.clear();
            return;
        }
        let prior_b = self.prior_exponent;
        let xs: Vec<&[f64]> = self.window.items.iter().map(|o| &o.features[..]).collect();
        let ys: Vec<f64> = self.window.items.iter().map(|o| o.seconds.ln()).collect();
        let mut best: Option<Fit> = None;
        for extras in candidates(&xs, d) {
            if !extras.is_empty()
                && n < POINTS_PER_TERM * (distinct_columns(&xs, d).len() + extras.len() + 1)
            {
                continue;
            }
            let Some(fit) = ridge_fit(&xs, &ys, d, prior_b, &extras) else {
                continue;
            };
            // A derived term must earn its place: 10 % less held-out error.
            if best.as_ref().is_none_or(|b| fit.loo < 0.9 * b.loo) {
                best = Some(fit);
            }
        }
        if let Some(fit) = best {
            self.coef = fit.coef;
            self.extra = fit.extra;
        }
    }
}

/// Indices of the log-size columns that vary over the window and are not
/// copies of an earlier column (square matrices give rows = columns).
fn distinct_columns(xs: &[&[f64]], d: usize) -> Vec<usize> {
    let col = |j: usize| xs.iter().map(move |x| log_size(x[j]));
    (0..d)
        .filter(|&j| {
            let first = log_size(xs[0][j]);
            col(j).any(|v| v != first) && !(0..j).any(|k| col(k).zip(col(j)).all(|(a, b)| a == b))
        })
        .collect()
}

/// The candidate sets of derived terms, plainest first.
fn candidates(xs: &[&[f64]], d: usize) -> Vec<Vec<Extra>> {
    let mut out = vec![Vec::new()];
    if d >= 2 {
        out.push(vec![Extra::Sum]);
        out.push(vec![Extra::Elements]);
    }
    let cols = distinct_columns(xs, d);
    let nf = xs.len() as f64;
    let centre = |j: usize| xs.iter().map(|x| log_size(x[j])).sum::<f64>() / nf;
    let mut quad = Vec::new();
    for (a, &i) in cols.iter().enumerate() {
        for &j in &cols[a..] {
            quad.push(Extra::Product {
                i,
                j,
                ci: centre(i),
                cj: centre(j),
            });
        }
    }
    if !quad.is_empty() {
        out.push(quad);
    }
    out
}

/// How strongly derived terms are pulled to zero, relative to [`RIDGE`]:
/// enough to keep nearly collinear columns from cancelling each other out
/// with few points, little enough to let a real curve through.
const EXTRA_RIDGE: f64 = 0.1;

/// Ridge least squares of `ys` on the log sizes plus `extras`, exponents
/// pulled toward `prior_b` and extra coefficients toward zero; `None` if
/// the system is singular.
fn ridge_fit(xs: &[&[f64]], ys: &[f64], d: usize, prior_b: f64, extras: &[Extra]) -> Option<Fit> {
    let n = xs.len();
    let nf = n as f64;
    let p = d + extras.len();
    let rows: Vec<Vec<f64>> = xs
        .iter()
        .map(|x| {
            x.iter()
                .map(|&v| log_size(v))
                .chain(extras.iter().map(|e| e.value(x)))
                .collect()
        })
        .collect();
    // Huber weights by iterated reweighting: timings on a loaded machine
    // have occasional slow outliers (preempted, cache-cold), which plain
    // least squares chases; in log space a point more than HUBER robust
    // standard deviations off the fit counts linearly, not quadratically.
    let mut w = vec![1.0; n];
    let mut fit = weighted_ridge(&rows, ys, &w, d, prior_b)?;
    if n >= ROBUST_MIN_POINTS {
        for _ in 0..ROBUST_ROUNDS {
            let res: Vec<f64> = rows
                .iter()
                .zip(ys)
                .map(|(r, y)| y - fit.fitted(r))
                .collect();
            let mut abs: Vec<f64> = res.iter().map(|r| r.abs()).collect();
            let scale = 1.4826 * super::eval::median(&mut abs);
            if scale.is_nan() || scale <= 1e-9 {
                break;
            }
            w = res
                .iter()
                .map(|r| (HUBER * scale / r.abs().max(1e-300)).min(1.0))
                .collect();
            fit = weighted_ridge(&rows, ys, &w, d, prior_b)?;
        }
    }
    // Leave-one-out residuals of a linear smoother: e_i / (1 − h_ii), with
    // h_ii = w_i (1/W + xcᵢᵀ (XcᵀWXc + Λ)⁻¹ xcᵢ) (the ridge's pull toward
    // the prior is ignored, which only matters with very few points).
    let total_w: f64 = w.iter().sum();
    let mut loo = 0.0;
    for ((r, &y), &wi) in rows.iter().zip(ys).zip(&w) {
        let xc = DVector::from_iterator(p, r.iter().zip(&fit.mean_x).map(|(v, m)| v - m));
        let h = wi * (1.0 / total_w + xc.dot(&(&fit.inv * &xc)));
        loo += ((y - fit.fitted(r)) / (1.0 - h).max(1e-3)).abs();
    }
    Some(Fit {
        coef: std::iter::once(fit.intercept)
            .chain(fit.b[..d].iter().copied())
            .collect(),
        extra: extras
            .iter()
            .copied()
            .zip(fit.b[d..].iter().copied())
            .collect(),
        loo: loo / nf,
    })
}

/// Huber's tuning constant (95 % efficiency for Gaussian noise).
const HUBER: f64 = 1.345;
/// Reweighting rounds, and the points needed before outliers are told
/// apart from the fit at all.
const ROBUST_ROUNDS: usize = 4;
const ROBUST_MIN_POINTS: usize = 8;

/// One weighted ridge solution on the columns of `rows`.
struct Solved {
    intercept: f64,
    b: Vec<f64>,
    mean_x: Vec<f64>,
    /// (XcᵀWXc + Λ)⁻¹, for the leave-one-out leverages.
    inv: DMatrix<f64>,
}

impl Solved {
    fn fitted(&self, r: &[f64]) -> f64 {
        self.intercept + self.b.iter().zip(r).map(|(b, x)| b * x).sum::<f64>()
    }
}

/// (XcᵀWXc + Λ) b = XcᵀWyc + Λ b0, centred by the weighted means: the first
/// `d` columns (log sizes) pulled toward `prior_b`, the rest toward zero.
fn weighted_ridge(
    rows: &[Vec<f64>],
    ys: &[f64],
    w: &[f64],
    d: usize,
    prior_b: f64,
) -> Option<Solved> {
    let p = rows.first().map_or(0, Vec::len);
    let total_w: f64 = w.iter().sum();
    let mean_x: Vec<f64> = (0..p)
        .map(|j| rows.iter().zip(w).map(|(r, wi)| wi * r[j]).sum::<f64>() / total_w)
        .collect();
    let mean_y = ys.iter().zip(w).map(|(y, wi)| wi * y).sum::<f64>() / total_w;
    let mut a = DMatrix::<f64>::zeros(p, p);
    let mut rhs = DVector::<f64>::zeros(p);
    for ((r, &y), &wi) in rows.iter().zip(ys).zip(w) {
        for j in 0..p {
            let xj = wi * (r[j] - mean_x[j]);
            rhs[j] += xj * (y - mean_y);
            for k in 0..p {
                a[(j, k)] += xj * (r[k] - mean_x[k]);
            }
        }
    }
    for j in 0..p {
        if j < d {
            a[(j, j)] += RIDGE;
            rhs[j] += RIDGE * prior_b;
        } else {
            a[(j, j)] += EXTRA_RIDGE;
        }
    }
    let ch = a.cholesky()?;
    let b: Vec<f64> = ch.solve(&rhs).iter().copied().collect();
    if b.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let intercept = mean_y - b.iter().zip(&mean_x).map(|(b, x)| b * x).sum::<f64>();
    Some(Solved {
        intercept,
        b,
        mean_x,
        inv: ch.inverse(),
    })
}

/// A size on the log scale; sizes below 1 (unknown, empty) count as 1.
pub fn log_size(x: f64) -> f64 {
    if x > 1.0 && x.is_finite() {
        x.ln()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::model::{Model, ModelKind, SplitMix};

    /// Before any observation a test on an r×c matrix costs by its r·c
    /// elements: doubling the rows doubles the work (times the test's
    /// slight super-linearity), whatever the other dimension.
    #[test]
    fn a_prior_grows_with_a_matrix_s_elements() {
        let m = Model::new(ModelKind::LogLinear, "friedman.test");
        let ratio = m.predict(&[2400.0, 1200.0]) / m.predict(&[1200.0, 1200.0]);
        assert!((ratio - 2f64.powf(1.1)).abs() < 1e-9, "{ratio}");
        let eigen = Model::new(ModelKind::LogLinear, "eigen");
        let s = eigen.predict(&[1000.0, 1000.0]);
        assert!((s - PRIOR_SECONDS_PER_UNIT * 1e9).abs() < 1e-9, "{s}");
    }

    /// Before any observation, a two-sample test of 10⁵ values each is
    /// priced by the 2·10⁵ values it ranks (not 10¹⁰), `c` by what it
    /// copies, and `x + y` by the longer operand.
    #[test]
    fn priors_pool_separate_samples_and_recycled_operands() {
        let prior = |f: &str, x: &[f64]| Model::new(ModelKind::LogLinear, f).predict(x);
        let two = prior("wilcox.test", &[1e5, 1e5]);
        assert!(
            (two / prior("wilcox.test", &[2e5]) - 1.0).abs() < 1e-12,
            "{two}"
        );
        assert!(two < 1.0, "{two}");
        let c = prior("c", &[1e6, 1e6, 1e6]);
        assert!((c - PRIOR_SECONDS_PER_UNIT * 3e6).abs() < 1e-12, "{c}");
        let plus = prior("+", &[1e6, 1.0]);
        assert!(
            (plus - PRIOR_SECONDS_PER_UNIT * 1e6).abs() < 1e-12,
            "{plus}"
        );
        assert_eq!(plus, prior("+", &[1e6, 1e6]));
        // crossprod of one n×n matrix is n³ work.
        let cp = prior("crossprod", &[1000.0, 1000.0]);
        assert!((cp - PRIOR_SECONDS_PER_UNIT * 1e9).abs() < 1e-9, "{cp}");
    }

    #[test]
    fn loglinear_one_observation_scales_by_the_prior_exponent() {
        let mut m = LogLinear::new(1.5);
        m.observe(&[100.0, 100.0], 1.0);
        m.retrain();
        let p = m.predict(&[200.0, 200.0]);
        assert!((p - 8.0).abs() < 1e-9, "{p}");
    }

    /// A two-sample test sorts the pooled sample: a·(n1+n2)·ln(n1+n2). No
    /// product of powers of n1 and n2 fits that when their ratio varies; the
    /// derived sum term does, through 5 % timing noise.
    #[test]
    fn loglinear_learns_a_cost_of_the_sum_of_sizes() {
        let cost = |n1: f64, n2: f64| 1e-8 * (n1 + n2) * (n1 + n2).ln();
        let mut rng = SplitMix(7);
        let mut m = LogLinear::new(prior_exponent("ks.test"));
        m.window.capacity = 90;
        for _ in 0..90 {
            let (n1, n2) = (rng.range(100.0, 20_000.0), rng.range(100.0, 20_000.0));
            m.observe(&[n1, n2], cost(n1, n2) * (0.05 * rng.normal()).exp());
            m.retrain();
        }
        let mut errs: Vec<f64> = (0..200)
            .map(|_| {
                let (n1, n2) = (rng.range(100.0, 20_000.0), rng.range(100.0, 20_000.0));
                (m.predict(&[n1, n2]) / cost(n1, n2) - 1.0).abs()
            })
            .collect();
        let e = super::super::eval::median(&mut errs);
        assert!(e < 0.02, "median error {e}, extras {:?}", m.extras());
        assert!(
            m.extras().iter().any(|(x, _)| *x == Extra::Sum),
            "{:?}",
            m.extras()
        );
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
