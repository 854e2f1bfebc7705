//! The families `glm` fits, as R's family functions define them (R 4.2's
//! `src/library/stats/R/family.R`: `gaussian`, `binomial`, `poisson`,
//! `Gamma`, `inverse.gaussian`, `quasibinomial`, `quasipoisson`, `quasi`,
//! with `make.link`'s links, and `src/library/stats/src/family.c` for the
//! logit's and the binomial's C helpers), so that IRLS walks the same path
//! as R's.

use super::super::nmath::dfun::{dcauchy, dgamma};
use super::super::nmath::gamma::{bd0, dpois_raw, stirlerr};
use super::super::nmath::pcont::pcauchy;
use super::super::nmath::pnorm::{dnorm, pnorm};
use super::super::nmath::qfun::qcauchy;
use super::super::nmath::qnorm::qnorm;
use super::super::summary::sum;
use super::super::value::List;
use super::super::{KernelError, Value};

/// The error distribution (R's `family$family`), with `quasi`'s variance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dist {
    Gaussian,
    Binomial,
    Poisson,
    Gamma,
    InverseGaussian,
    QuasiBinomial,
    QuasiPoisson,
    Quasi(Variance),
}

/// `quasi(variance = )`'s named variance functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variance {
    Constant,
    MuOneMinusMu,
    Mu,
    Mu2,
    Mu3,
}

/// `make.link`'s links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    Logit,
    Probit,
    Cauchit,
    Cloglog,
    Identity,
    Log,
    Sqrt,
    InverseSquare,
    Inverse,
}

/// A family object: its distribution and link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Family {
    pub dist: Dist,
    pub link: Link,
}

/// `.Machine$double.eps`, R's DBL_EPSILON.
const EPS: f64 = f64::EPSILON;
/// family.c's THRESH and MTHRESH: beyond them the logistic saturates.
const THRESH: f64 = 30.0;
const MTHRESH: f64 = -30.0;

impl Variance {
    pub(crate) fn from_name(name: &str) -> Result<Variance, KernelError> {
        // quasi() drops the blanks of the variance's text before matching.
        let name: String = name.chars().filter(|c| *c != ' ').collect();
        Ok(match name.as_str() {
            "constant" => Variance::Constant,
            "mu(1-mu)" => Variance::MuOneMinusMu,
            "mu" => Variance::Mu,
            "mu^2" => Variance::Mu2,
            "mu^3" => Variance::Mu3,
            _ => {
                return Err(KernelError::new(format!(
                    "'variance' \"{name}\" is invalid: possible values are \"mu(1-mu)\", \"mu\", \"mu^2\", \"mu^3\" and \"constant\""
                )))
            }
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Variance::Constant => "constant",
            Variance::MuOneMinusMu => "mu(1-mu)",
            Variance::Mu => "mu",
            Variance::Mu2 => "mu^2",
            Variance::Mu3 => "mu^3",
        }
    }
}

impl Link {
    /// `make.link(name)`, or its error.
    pub(crate) fn from_name(name: &str) -> Result<Link, KernelError> {
        Ok(match name {
            "logit" => Link::Logit,
            "probit" => Link::Probit,
            "cloglog" => Link::Cloglog,
            "identity" => Link::Identity,
            "log" => Link::Log,
            "sqrt" => Link::Sqrt,
            "1/mu^2" => Link::InverseSquare,
            "inverse" => Link::Inverse,
            "cauchit" => Link::Cauchit,
            _ => {
                return Err(KernelError::new(format!(
                    "\u{2018}{name}\u{2019} link not recognised"
                )))
            }
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Link::Logit => "logit",
            Link::Probit => "probit",
            Link::Cauchit => "cauchit",
            Link::Cloglog => "cloglog",
            Link::Identity => "identity",
            Link::Log => "log",
            Link::Sqrt => "sqrt",
            Link::InverseSquare => "1/mu^2",
            Link::Inverse => "inverse",
        }
    }

    fn linkfun(self, mu: f64) -> f64 {
        match self {
            // family.c logit_link: log(x / (1 - x)).
            Link::Logit => (mu / (1.0 - mu)).ln(),
            Link::Probit => qnorm(mu, 0.0, 1.0, true, false),
            Link::Cauchit => qcauchy(mu, 0.0, 1.0, true, false),
            Link::Cloglog => (-(1.0 - mu).ln()).ln(),
            Link::Identity => mu,
            Link::Log => mu.ln(),
            Link::Sqrt => mu.sqrt(),
            Link::InverseSquare => 1.0 / (mu * mu),
            Link::Inverse => 1.0 / mu,
        }
    }

    fn linkinv(self, eta: f64) -> f64 {
        match self {
            Link::Logit => {
                let tmp = if eta < MTHRESH {
                    EPS
                } else if eta > THRESH {
                    1.0 / EPS
                } else {
                    eta.exp()
                };
                tmp / (1.0 + tmp)
            }
            Link::Probit => {
                let thresh = -qnorm(EPS, 0.0, 1.0, true, false);
                pnorm(pmin(pmax(eta, -thresh), thresh), 0.0, 1.0, true, false)
            }
            Link::Cauchit => {
                let thresh = -qcauchy(EPS, 0.0, 1.0, true, false);
                pcauchy(pmin(pmax(eta, -thresh), thresh), 0.0, 1.0, true, false)
            }
            Link::Cloglog => pmax(pmin(-(-eta.exp()).exp_m1(), 1.0 - EPS), EPS),
            Link::Identity => eta,
            // pmax(exp(eta), .Machine$double.eps); pmax keeps an NA.
            Link::Log => pmax(eta.exp(), EPS),
            Link::Sqrt => eta * eta,
            Link::InverseSquare => 1.0 / eta.sqrt(),
            Link::Inverse => 1.0 / eta,
        }
    }

    fn mu_eta(self, eta: f64) -> f64 {
        match self {
            Link::Logit => {
                let opexp = 1.0 + eta.exp();
                if !(MTHRESH..=THRESH).contains(&eta) {
                    EPS
                } else {
                    eta.exp() / (opexp * opexp)
                }
            }
            Link::Probit => pmax(dnorm(eta, 0.0, 1.0, false), EPS),
            Link::Cauchit => pmax(dcauchy(eta, 0.0, 1.0, false), EPS),
            Link::Cloglog => {
                let eta = pmin(eta, 700.0);
                pmax(eta.exp() * (-eta.exp()).exp(), EPS)
            }
            Link::Identity => 1.0,
            Link::Log => pmax(eta.exp(), EPS),
            Link::Sqrt => 2.0 * eta,
            Link::InverseSquare => -1.0 / (2.0 * eta.powf(1.5)),
            Link::Inverse => -1.0 / (eta * eta),
        }
    }

    fn valideta(self, eta: &[f64]) -> bool {
        match self {
            Link::Sqrt | Link::InverseSquare => eta.iter().all(|e| e.is_finite() && *e > 0.0),
            Link::Inverse => eta.iter().all(|e| e.is_finite() && *e != 0.0),
            _ => true,
        }
    }
}

impl Dist {
    /// A family function's name (`family$family`), with its default link.
    pub(crate) fn from_name(name: &str) -> Option<Dist> {
        Some(match name {
            "gaussian" => Dist::Gaussian,
            "binomial" => Dist::Binomial,
            "poisson" => Dist::Poisson,
            "Gamma" => Dist::Gamma,
            "inverse.gaussian" => Dist::InverseGaussian,
            "quasibinomial" => Dist::QuasiBinomial,
            "quasipoisson" => Dist::QuasiPoisson,
            "quasi" => Dist::Quasi(Variance::Constant),
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Dist::Gaussian => "gaussian",
            Dist::Binomial => "binomial",
            Dist::Poisson => "poisson",
            Dist::Gamma => "Gamma",
            Dist::InverseGaussian => "inverse.gaussian",
            Dist::QuasiBinomial => "quasibinomial",
            Dist::QuasiPoisson => "quasipoisson",
            Dist::Quasi(_) => "quasi",
        }
    }

    /// The family function's default link.
    pub(crate) fn default_link(self) -> Link {
        match self {
            Dist::Gaussian | Dist::Quasi(_) => Link::Identity,
            Dist::Binomial | Dist::QuasiBinomial => Link::Logit,
            Dist::Poisson | Dist::QuasiPoisson => Link::Log,
            Dist::Gamma => Link::Inverse,
            Dist::InverseGaussian => Link::InverseSquare,
        }
    }
}

impl Family {
    pub(crate) fn new(dist: Dist, link: Link) -> Family {
        Family { dist, link }
    }

    /// A family by name, with its default link.
    pub(crate) fn from_name(name: &str) -> Option<Family> {
        Dist::from_name(name).map(|d| Family::new(d, d.default_link()))
    }

    pub(crate) fn name(self) -> &'static str {
        self.dist.name()
    }

    pub(crate) fn link(self) -> &'static str {
        self.link.name()
    }

    /// summary.glm fixes the dispersion at 1 for these two families only;
    /// every other one estimates it.
    pub(crate) fn fixed_dispersion(self) -> bool {
        matches!(self.dist, Dist::Binomial | Dist::Poisson)
    }

    /// Whether the binomial's two-column response is taken.
    pub(crate) fn binomial_like(self) -> bool {
        matches!(self.dist, Dist::Binomial | Dist::QuasiBinomial)
    }

    /// What `family$family` and `family$link` (and quasi's `varfun`)
    /// print: the object R's family functions return, reduced to its
    /// names.
    pub(crate) fn value(self) -> Value {
        let mut fields = vec![
            ("family", Value::string(self.name())),
            ("link", Value::string(self.link())),
        ];
        if let Dist::Quasi(v) = self.dist {
            fields.push(("varfun", Value::string(v.name())));
        }
        Value::List(List::record("family", fields))
    }

    pub(crate) fn linkfun(self, mu: f64) -> f64 {
        self.link.linkfun(mu)
    }

    pub(crate) fn linkinv(self, eta: f64) -> f64 {
        self.link.linkinv(eta)
    }

    pub(crate) fn mu_eta(self, eta: f64) -> f64 {
        self.link.mu_eta(eta)
    }

    pub(crate) fn valideta(self, eta: &[f64]) -> bool {
        self.link.valideta(eta)
    }

    pub(crate) fn variance(self, mu: f64) -> f64 {
        match self.dist {
            Dist::Gaussian | Dist::Quasi(Variance::Constant) => 1.0,
            Dist::Binomial | Dist::QuasiBinomial | Dist::Quasi(Variance::MuOneMinusMu) => {
                mu * (1.0 - mu)
            }
            Dist::Poisson | Dist::QuasiPoisson | Dist::Quasi(Variance::Mu) => mu,
            Dist::Gamma | Dist::Quasi(Variance::Mu2) => mu * mu,
            Dist::InverseGaussian | Dist::Quasi(Variance::Mu3) => mu.powi(3),
        }
    }

    pub(crate) fn validmu(self, mu: &[f64]) -> bool {
        match self.dist {
            Dist::Gaussian | Dist::InverseGaussian | Dist::Quasi(Variance::Constant) => true,
            Dist::Binomial | Dist::QuasiBinomial => {
                mu.iter().all(|&m| m.is_finite() && m > 0.0 && m < 1.0)
            }
            Dist::Poisson | Dist::QuasiPoisson | Dist::Gamma => {
                mu.iter().all(|&m| m.is_finite() && m > 0.0)
            }
            // quasi's own: all(mu > 0) && all(mu < 1), an NA failing.
            Dist::Quasi(Variance::MuOneMinusMu) => mu.iter().all(|&m| m > 0.0 && m < 1.0),
            Dist::Quasi(_) => mu.iter().all(|&m| m > 0.0),
        }
    }

    /// `family$dev.resids(y, mu, wt)`.
    pub(crate) fn dev_resids(self, y: &[f64], mu: &[f64], wt: &[f64]) -> Vec<f64> {
        let mu_at = |i: usize| if mu.len() == 1 { mu[0] } else { mu[i] };
        (0..y.len())
            .map(|i| {
                let (y, mu, wt) = (y[i], mu_at(i), wt[i]);
                match self.dist {
                    Dist::Gaussian | Dist::Quasi(Variance::Constant) => wt * ((y - mu) * (y - mu)),
                    Dist::Binomial | Dist::QuasiBinomial | Dist::Quasi(Variance::MuOneMinusMu) => {
                        2.0 * wt * (y_log_y(y, mu) + y_log_y(1.0 - y, 1.0 - mu))
                    }
                    Dist::Poisson | Dist::QuasiPoisson => {
                        if y > 0.0 {
                            2.0 * (wt * (y * (y / mu).ln() - (y - mu)))
                        } else {
                            2.0 * (mu * wt)
                        }
                    }
                    Dist::Quasi(Variance::Mu) => {
                        let r = if y == 0.0 { 1.0 } else { y / mu };
                        2.0 * wt * (y * r.ln() - (y - mu))
                    }
                    Dist::Gamma => {
                        let r = if y == 0.0 { 1.0 } else { y / mu };
                        -2.0 * wt * (r.ln() - (y - mu) / mu)
                    }
                    // pmax(-2 * wt * (log(ifelse(y == 0, 1, y)/mu) - (y - mu)/mu), 0)
                    Dist::Quasi(Variance::Mu2) => {
                        let r = if y == 0.0 { 1.0 } else { y };
                        pmax(-2.0 * wt * ((r / mu).ln() - (y - mu) / mu), 0.0)
                    }
                    Dist::InverseGaussian | Dist::Quasi(Variance::Mu3) => {
                        wt * ((y - mu) * (y - mu)) / (y * (mu * mu))
                    }
                }
            })
            .collect()
    }

    /// `family$aic(y, n, mu, wt, dev)`: minus twice the log-likelihood
    /// (plus 2 for an estimated dispersion); `glm.fit` adds 2 * rank. The
    /// quasi families have none (NA).
    pub(crate) fn aic(self, y: &[f64], n: &[f64], mu: &[f64], wt: &[f64], dev: f64) -> f64 {
        match self.dist {
            Dist::Gaussian => {
                let nobs = y.len() as f64;
                let logs: Vec<f64> = wt.iter().map(|w| w.ln()).collect();
                nobs * ((dev / nobs * 2.0 * std::f64::consts::PI).ln() + 1.0) + 2.0
                    - sum(&logs, false)
            }
            Dist::Binomial => {
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
            Dist::Poisson => {
                let terms: Vec<f64> = (0..y.len())
                    .map(|i| dpois_log(y[i], mu[i]) * wt[i])
                    .collect();
                -2.0 * sum(&terms, false)
            }
            Dist::Gamma => {
                let disp = dev / sum(wt, false);
                let terms: Vec<f64> = (0..y.len())
                    .map(|i| dgamma(y[i], 1.0 / disp, mu[i] * disp, true) * wt[i])
                    .collect();
                -2.0 * sum(&terms, false) + 2.0
            }
            Dist::InverseGaussian => {
                let sw = sum(wt, false);
                let logs: Vec<f64> = y.iter().zip(wt).map(|(y, w)| y.ln() * w).collect();
                sw * (1.0 + (dev / sw * 2.0 * std::f64::consts::PI).ln())
                    + 3.0 * sum(&logs, false)
                    + 2.0
            }
            Dist::QuasiBinomial | Dist::QuasiPoisson | Dist::Quasi(_) => super::super::value::NA,
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
        if failures.is_some() && !self.binomial_like() {
            return Err(KernelError::new(
                "flowcast's glm() takes a two-column response only for the binomial families",
            ));
        }
        let plain = |mustart: Vec<f64>| Initial {
            y: y.to_vec(),
            n: vec![1.0; y.len()],
            weights: weights.to_vec(),
            mustart,
            warning: None,
        };
        let refuse = |bad: fn(f64) -> bool, message: &str| {
            if y.iter().any(|&v| bad(v)) {
                Err(KernelError::new(message))
            } else {
                Ok(())
            }
        };
        // quasi's `y + 0.1 * (y == 0)`.
        let off_zero = || {
            y.iter()
                .map(|&v| v + if v == 0.0 { 0.1 } else { 0.0 })
                .collect()
        };
        Ok(match self.dist {
            Dist::Gaussian => {
                let bad = match self.link {
                    Link::Inverse => y.contains(&0.0),
                    Link::Log => y.iter().any(|&v| v <= 0.0),
                    _ => false,
                };
                if bad {
                    return Err(KernelError::new(
                        "cannot find valid starting values: please specify some",
                    ));
                }
                plain(y.to_vec())
            }
            Dist::Quasi(Variance::Constant) => plain(y.to_vec()),
            Dist::Poisson => {
                refuse(
                    |v| v < 0.0,
                    "negative values not allowed for the 'Poisson' family",
                )?;
                plain(y.iter().map(|v| v + 0.1).collect())
            }
            Dist::QuasiPoisson => {
                refuse(
                    |v| v < 0.0,
                    "negative values not allowed for the 'quasiPoisson' family",
                )?;
                plain(y.iter().map(|v| v + 0.1).collect())
            }
            Dist::Gamma => {
                refuse(
                    |v| v <= 0.0,
                    "non-positive values not allowed for the 'Gamma' family",
                )?;
                plain(y.to_vec())
            }
            Dist::InverseGaussian => {
                refuse(
                    |v| v <= 0.0,
                    "positive values only are allowed for the 'inverse.gaussian' family",
                )?;
                plain(y.to_vec())
            }
            Dist::Quasi(Variance::MuOneMinusMu) => {
                plain(y.iter().map(|&v| pmax(0.001, pmin(0.999, v))).collect())
            }
            Dist::Quasi(_) => plain(off_zero()),
            Dist::Binomial | Dist::QuasiBinomial => {
                // Only binomial() itself warns about non-integer counts.
                let strict = self.dist == Dist::Binomial;
                match failures {
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
                        let warning = (strict
                            && y.iter().zip(weights).any(|(y, w)| {
                                let m = w * y;
                                (m - m.round_ties_even()).abs() > 1e-3
                            }))
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
                        let warning = (strict
                            && y.iter()
                                .chain(f)
                                .any(|v| (v - v.round_ties_even()).abs() > 1e-3))
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
                }
            }
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

/// R's `pmax(x, m)` for a non-NA `m`: an NA `x` stays NA.
fn pmax(x: f64, m: f64) -> f64 {
    if x.is_nan() || x >= m {
        x
    } else {
        m
    }
}

/// R's `pmin(x, m)` for a non-NA `m`.
fn pmin(x: f64, m: f64) -> f64 {
    if x.is_nan() || x <= m {
        x
    } else {
        m
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
        let b = Family::from_name("binomial").unwrap();
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
