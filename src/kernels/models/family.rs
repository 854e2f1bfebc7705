//! The three families `glm` fits, with their canonical links, as R's
//! `gaussian()`, `binomial()` and `poisson()` define them (R 4.2's
//! `src/library/stats/R/family.R`, and `src/library/stats/src/family.c` for
//! the binomial's C helpers), so that IRLS walks the same path as R's.

use super::super::nmath::gamma::{bd0, dpois_raw, stirlerr};
use super::super::summary::sum;
use super::super::value::List;
use super::super::{KernelError, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Gaussian,
    Binomial,
    Poisson,
}

/// `.Machine$double.eps`, R's DBL_EPSILON.
const EPS: f64 = f64::EPSILON;
/// family.c's THRESH and MTHRESH: beyond them the logistic saturates.
const THRESH: f64 = 30.0;
const MTHRESH: f64 = -30.0;

impl Family {
    pub(crate) fn from_name(name: &str) -> Option<Family> {
        match name {
            "gaussian" => Some(Family::Gaussian),
            "binomial" => Some(Family::Binomial),
            "poisson" => Some(Family::Poisson),
            _ => None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Family::Gaussian => "gaussian",
            Family::Binomial => "binomial",
            Family::Poisson => "poisson",
        }
    }

    pub(crate) fn link(self) -> &'static str {
        match self {
            Family::Gaussian => "identity",
            Family::Binomial => "logit",
            Family::Poisson => "log",
        }
    }

    /// What `family$family` and `family$link` print: the object R's
    /// family functions return, reduced to its names.
    pub(crate) fn value(self) -> Value {
        Value::List(List::record(
            "family",
            vec![
                ("family", Value::string(self.name())),
                ("link", Value::string(self.link())),
            ],
        ))
    }

    pub(crate) fn linkfun(self, mu: f64) -> f64 {
        match self {
            Family::Gaussian => mu,
            // family.c logit_link: log(x / (1 - x)).
            Family::Binomial => (mu / (1.0 - mu)).ln(),
            Family::Poisson => mu.ln(),
        }
    }

    pub(crate) fn linkinv(self, eta: f64) -> f64 {
        match self {
            Family::Gaussian => eta,
            Family::Binomial => {
                let tmp = if eta < MTHRESH {
                    EPS
                } else if eta > THRESH {
                    1.0 / EPS
                } else {
                    eta.exp()
                };
                tmp / (1.0 + tmp)
            }
            // pmax(exp(eta), .Machine$double.eps); pmax keeps an NA.
            Family::Poisson => pmax_eps(eta.exp()),
        }
    }

    pub(crate) fn mu_eta(self, eta: f64) -> f64 {
        match self {
            Family::Gaussian => 1.0,
            Family::Binomial => {
                let opexp = 1.0 + eta.exp();
                if !(MTHRESH..=THRESH).contains(&eta) {
                    EPS
                } else {
                    eta.exp() / (opexp * opexp)
                }
            }
            Family::Poisson => pmax_eps(eta.exp()),
        }
    }

    pub(crate) fn variance(self, mu: f64) -> f64 {
        match self {
            Family::Gaussian => 1.0,
            Family::Binomial => mu * (1.0 - mu),
            Family::Poisson => mu,
        }
    }

    pub(crate) fn validmu(self, mu: &[f64]) -> bool {
        match self {
            Family::Gaussian => true,
            Family::Binomial => mu.iter().all(|&m| m.is_finite() && m > 0.0 && m < 1.0),
            Family::Poisson => mu.iter().all(|&m| m.is_finite() && m > 0.0),
        }
    }

    /// `family$dev.resids(y, mu, wt)`.
    pub(crate) fn dev_resids(self, y: &[f64], mu: &[f64], wt: &[f64]) -> Vec<f64> {
        let mu_at = |i: usize| if mu.len() == 1 { mu[0] } else { mu[i] };
        (0..y.len())
            .map(|i| {
                let (y, mu, wt) = (y[i], mu_at(i), wt[i]);
                match self {
                    Family::Gaussian => wt * ((y - mu) * (y - mu)),
                    Family::Binomial => 2.0 * wt * (y_log_y(y, mu) + y_log_y(1.0 - y, 1.0 - mu)),
                    Family::Poisson => {
                        if y > 0.0 {
                            2.0 * (wt * (y * (y / mu).ln() - (y - mu)))
                        } else {
                            2.0 * (mu * wt)
                        }
                    }
                }
            })
            .collect()
    }

    /// `family$aic(y, n, mu, wt, dev)`: minus twice the log-likelihood
    /// (plus 2 for the gaussian's variance); `glm.fit` adds 2 * rank.
    pub(crate) fn aic(self, y: &[f64], n: &[f64], mu: &[f64], wt: &[f64], dev: f64) -> f64 {
        match self {
            Family::Gaussian => {
                let nobs = y.len() as f64;
                let logs: Vec<f64> = wt.iter().map(|w| w.ln()).collect();
                nobs * ((dev / nobs * 2.0 * std::f64::consts::PI).ln() + 1.0) + 2.0
                    - sum(&logs, false)
            }
            Family::Binomial => {
                let m: &[f64] = if n.iter().any(|&n| n > 1.0) { n } else { wt };
                let terms: Vec<f64> = (0..y.len())
                    .map(|i| {
                        let f = if m[i] > 0.0 { wt[i] / m[i] } else { 0.0 };
                        f * dbinom_log(
                            (m[i] * y[i]).round_ties_even(),
                            m[i].round_ties_even(),
                            mu[i],
                        )
                    })
                    .collect();
                -2.0 * sum(&terms, false)
            }
            Family::Poisson => {
                let terms: Vec<f64> = (0..y.len())
                    .map(|i| dpois_log(y[i], mu[i]) * wt[i])
                    .collect();
                -2.0 * sum(&terms, false)
            }
        }
    }

    /// `family$initialize`: checks `y`, turns a two-column binomial
    /// response into proportions with weights, and gives `mustart`.
    /// Returns (y, n, prior weights, mustart).
    pub(crate) fn initialize(
        self,
        y: &[f64],
        failures: Option<&[f64]>,
        weights: &[f64],
    ) -> Result<Initial, KernelError> {
        Ok(match self {
            Family::Gaussian => {
                if failures.is_some() {
                    return Err(KernelError::new(
                        "flowcast's glm() takes a two-column response only for the binomial family",
                    ));
                }
                Initial {
                    y: y.to_vec(),
                    n: vec![1.0; y.len()],
                    weights: weights.to_vec(),
                    mustart: y.to_vec(),
                    warning: None,
                }
            }
            Family::Poisson => {
                if failures.is_some() {
                    return Err(KernelError::new(
                        "flowcast's glm() takes a two-column response only for the binomial family",
                    ));
                }
                if y.iter().any(|&v| v < 0.0) {
                    return Err(KernelError::new(
                        "negative values not allowed for the 'Poisson' family",
                    ));
                }
                Initial {
                    y: y.to_vec(),
                    n: vec![1.0; y.len()],
                    weights: weights.to_vec(),
                    mustart: y.iter().map(|v| v + 0.1).collect(),
                    warning: None,
                }
            }
            Family::Binomial => match failures {
                None => {
                    let y: Vec<f64> = y
                        .iter()
                        .zip(weights)
                        .map(|(&y, &w)| if w == 0.0 { 0.0 } else { y })
                        .collect();
                    if y.iter().any(|&v| !(0.0..=1.0).contains(&v)) {
                        return Err(KernelError::new("y values must be 0 <= y <= 1"));
                    }
                    let mustart = y
                        .iter()
                        .zip(weights)
                        .map(|(y, w)| (w * y + 0.5) / (w + 1.0))
                        .collect();
                    let warning = y
                        .iter()
                        .zip(weights)
                        .any(|(y, w)| {
                            let m = w * y;
                            (m - m.round_ties_even()).abs() > 1e-3
                        })
                        .then_some("non-integer #successes in a binomial glm!");
                    Initial {
                        n: vec![1.0; y.len()],
                        y,
                        weights: weights.to_vec(),
                        mustart,
                        warning,
                    }
                }
                Some(f) => {
                    let warning = y
                        .iter()
                        .chain(f)
                        .any(|v| (v - v.round_ties_even()).abs() > 1e-3)
                        .then_some("non-integer counts in a binomial glm!");
                    let n: Vec<f64> = y.iter().zip(f).map(|(s, f)| s + f).collect();
                    let p: Vec<f64> = y
                        .iter()
                        .zip(&n)
                        .map(|(s, n)| if *n == 0.0 { 0.0 } else { s / n })
                        .collect();
                    let mustart = p
                        .iter()
                        .zip(&n)
                        .map(|(p, n)| (n * p + 0.5) / (n + 1.0))
                        .collect();
                    Initial {
                        weights: weights.iter().zip(&n).map(|(w, n)| w * n).collect(),
                        y: p,
                        n,
                        mustart,
                        warning,
                    }
                }
            },
        })
    }
}

/// What `family$initialize` leaves behind.
pub(crate) struct Initial {
    pub y: Vec<f64>,
    pub n: Vec<f64>,
    pub weights: Vec<f64>,
    pub mustart: Vec<f64>,
    pub warning: Option<&'static str>,
}

fn pmax_eps(x: f64) -> f64 {
    if x.is_nan() || x >= EPS {
        x
    } else {
        EPS
    }
}

/// family.c's `y_log_y`.
fn y_log_y(y: f64, mu: f64) -> f64 {
    if y != 0.0 {
        y * (y / mu).ln()
    } else {
        0.0
    }
}

/// `dbinom(x, n, p, log = TRUE)` for whole x and n (nmath `dbinom_raw`,
/// R 4.2).
fn dbinom_log(x: f64, n: f64, p: f64) -> f64 {
    if x.is_nan() || n.is_nan() || p.is_nan() {
        return x + n + p;
    }
    if !(0.0..=1.0).contains(&p) || n < 0.0 {
        return f64::NAN;
    }
    if x < 0.0 || !x.is_finite() {
        return f64::NEG_INFINITY;
    }
    let q = 1.0 - p;
    if p == 0.0 {
        return if x == 0.0 { 0.0 } else { f64::NEG_INFINITY };
    }
    if q == 0.0 {
        return if x == n { 0.0 } else { f64::NEG_INFINITY };
    }
    if x == 0.0 {
        if n == 0.0 {
            return 0.0;
        }
        return if p < 0.1 {
            -bd0(n, n * q) - n * p
        } else {
            n * q.ln()
        };
    }
    if x == n {
        return if q < 0.1 {
            -bd0(n, n * p) - n * q
        } else {
            n * p.ln()
        };
    }
    if x > n {
        return f64::NEG_INFINITY;
    }
    const M_LN_2PI: f64 = 1.837_877_066_409_345_483_560_659_472_811;
    let lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
    let lf = M_LN_2PI + x.ln() + (-x / n).ln_1p();
    lc - 0.5 * lf
}

/// `dpois(x, lambda, log = TRUE)` (nmath `dpois`): a non-integer count
/// has density 0 (R also warns).
fn dpois_log(x: f64, lambda: f64) -> f64 {
    if x.is_nan() || lambda.is_nan() {
        return x + lambda;
    }
    if lambda < 0.0 {
        return f64::NAN;
    }
    let r = x.round_ties_even();
    if (x - r).abs() > 1e-7 * 1f64.max(x.abs()) {
        return f64::NEG_INFINITY;
    }
    if x < 0.0 || !x.is_finite() {
        return f64::NEG_INFINITY;
    }
    dpois_raw(r, lambda, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logit_saturates_as_family_c() {
        let b = Family::Binomial;
        assert_eq!(b.linkinv(-40.0), EPS / (1.0 + EPS));
        assert_eq!(b.mu_eta(31.0), EPS);
        assert!((b.linkfun(b.linkinv(0.3)) - 0.3).abs() < 1e-15);
    }

    #[test]
    fn dbinom_matches_known_values() {
        // dbinom(3, 10, 0.4, log = TRUE) in R: -1.5371598192023539.
        assert!((dbinom_log(3.0, 10.0, 0.4) - -1.537_159_819_202_353_9).abs() < 1e-14);
        assert_eq!(dbinom_log(0.0, 1.0, 0.25), 0.75f64.ln());
    }
}
