//! How a moldable call's time shrinks with workers (seed 003's USL), per
//! cost model key (function and path): a prior from the kernel's structure
//! until runs at several widths have been seen, then the fit to them.
//!
//! An observation is the speedup a run showed: the step's one-worker time
//! at the same sizes, measured on one worker in a recent run, over its
//! time at width k. Both are measured: a one-worker time the models
//! predict was learnt from wide runs through this very curve, and would
//! only give it back (see `Predictor::observe`).

use std::collections::HashMap;

/// The USL's two coefficients for one function and path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Usl {
    pub sigma: f64,
    pub kappa: f64,
    /// The most pieces the call's work splits into (kmeans: its starts):
    /// past that many workers, the others would only wait. `None`: no
    /// limit.
    pub widest: Option<usize>,
}

impl Usl {
    pub const fn new(sigma: f64, kappa: f64) -> Usl {
        Usl {
            sigma,
            kappa,
            widest: None,
        }
    }

    /// The same curve for a call that splits into at most `pieces`
    /// (`None`: no limit).
    pub fn up_to(self, pieces: Option<usize>) -> Usl {
        Usl {
            widest: pieces.map(|p| p.max(1)),
            ..self
        }
    }

    /// Speedup on `k` workers over one. A call of a few pieces runs them
    /// in rounds: 3 kmeans starts on 2 workers take two rounds, 1.5x at
    /// best, however well each scales.
    pub fn speedup(&self, k: usize) -> f64 {
        let k = match self.widest {
            Some(pieces) => k.clamp(1, pieces.max(1)),
            None => k.max(1),
        };
        let kf = k as f64;
        let d = 1.0 + self.sigma * (kf - 1.0) + self.kappa * kf * (kf - 1.0);
        let usl = if d > 0.0 && d.is_finite() {
            kf / d
        } else {
            1.0
        };
        match self.widest {
            Some(pieces) => {
                let pieces = pieces.max(1);
                usl.min(pieces as f64 / pieces.div_ceil(k) as f64)
            }
            None => usl,
        }
    }

    /// The width, at most `max`, that runs fastest.
    pub fn best_width(&self, max: usize) -> usize {
        (1..=max.max(1))
            .max_by(|&a, &b| self.speedup(a).total_cmp(&self.speedup(b)).then(b.cmp(&a)))
            .unwrap_or(1)
    }

    /// Least squares on the USL's linear form, k/S(k) − 1 = σ(k−1) + κk(k−1),
    /// from observed (k, speedup) pairs. With one width above 1 only σ can
    /// be told (κ = 0). `None` without any observation above k = 1.
    pub fn fit(observed: &[(usize, f64)]) -> Option<Usl> {
        let pts: Vec<(f64, f64, f64)> = observed
            .iter()
            .filter(|&&(k, s)| k > 1 && s.is_finite() && s > 0.0)
            .map(|&(k, s)| {
                let k = k as f64;
                (k - 1.0, k * (k - 1.0), k / s - 1.0)
            })
            .collect();
        if pts.is_empty() {
            return None;
        }
        let widths: std::collections::BTreeSet<u64> = pts.iter().map(|p| p.0.to_bits()).collect();
        let sigma_only = |pts: &[(f64, f64, f64)]| {
            let sxx: f64 = pts.iter().map(|p| p.0 * p.0).sum();
            let sxy: f64 = pts.iter().map(|p| p.0 * p.2).sum();
            Usl::new((sxy / sxx).clamp(0.0, 1.0), 0.0)
        };
        if widths.len() < 2 {
            return Some(sigma_only(&pts));
        }
        // Normal equations of the two-variable fit without intercept.
        let (mut a, mut b, mut c, mut d, mut e) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x1, x2, y) in &pts {
            a += x1 * x1;
            b += x1 * x2;
            c += x2 * x2;
            d += x1 * y;
            e += x2 * y;
        }
        let det = a * c - b * b;
        if det.abs() <= 1e-12 * a * c {
            return Some(sigma_only(&pts));
        }
        let sigma = (d * c - b * e) / det;
        let kappa = (a * e - b * d) / det;
        if kappa < 0.0 {
            // Contention cannot speed a kernel up: refit σ alone.
            return Some(sigma_only(&pts));
        }
        if sigma < 0.0 {
            let kappa = (e / c).max(0.0);
            return Some(Usl::new(0.0, kappa));
        }
        Some(Usl::new(sigma.min(1.0), kappa))
    }
}

/// Observations kept per key: the most recent.
const WINDOW: usize = 32;

/// A call shorter than this runs on one worker: handing it to a pool of
/// threads and back costs more than its share of the gain.
pub const MIN_MOLDABLE_SECONDS: f64 = 0.005;

/// The USL a kernel's structure suggests, for the functions whose kernels
/// split their work (see `kernels::width`); `None` for the rest.
///
/// - `%*%`, `crossprod`: a blocked product, every block independent;
///   limited by memory bandwidth (κ).
/// - `dist`: independent rows of distances.
/// - `eigen` symmetric, `svd`, `prcomp`, `solve`: the reductions' blocked
///   updates split (faer's parallel paths), the panel factorisations and
///   the divide-and-conquer leaves do not: about a third serial.
/// - `wilcox.test`, `kruskal.test`, `mood.test`: their time is the sort
///   behind the ranks, which splits into runs sorted apart and merged
///   (`width::sort_by`; only for 2^15 values and more). 2 workers ran a
///   1200 x 1200 `wilcox.test` 2.1-2.9x as fast, the runs fitting caches
///   better, but the last merge is one worker's.
/// - `friedman.test`: each block (row) ranked apart.
/// - `cor`, `cov`, `var` of a matrix: each row of the answer apart, and
///   Spearman's ranking column by column.
/// - `kmeans`: its `nstart` starts are independent runs.
/// - `eigen` general: not moldable; faer's parallel paths would change
///   its bits.
/// - `svd` of values alone: not moldable; it ran slower wide.
pub fn prior(key: &str) -> Option<Usl> {
    let function = super::model_function(key);
    let path = key
        .strip_suffix(']')
        .and_then(|k| k.rsplit_once('['))
        .map_or("", |(_, p)| p);
    let usl = |sigma, kappa| Some(Usl::new(sigma, kappa));
    match function {
        "%*%" | "crossprod" => usl(0.03, 0.0005),
        "dist" => usl(0.02, 0.0002),
        // Runs narrow (see `linalg::eigen`).
        "eigen" if path.split(',').any(|p| p == "general") => None,
        "eigen" => usl(0.35, 0.001),
        // Values alone: faer's bidiagonalisation is memory-bound, and on
        // the 16-core machine 5 workers took 0.216 s where one took
        // 0.186 s (1000 x 1000).
        "svd" if path == "values" => None,
        "svd" | "prcomp" | "solve" => usl(0.35, 0.001),
        "wilcox.test" | "kruskal.test" | "mood.test" => usl(0.1, 0.001),
        "friedman.test" => usl(0.05, 0.0005),
        // The answer's rows apart (see `summary::corcov`): long double
        // sums over columns that mostly stay in cache.
        "cor" | "cov" | "var" => usl(0.05, 0.0005),
        // Its starts run apart, one per worker (see `up_to`); their
        // times differ, and the slowest of a round sets its end.
        "kmeans" => usl(0.1, 0.0),
        _ => None,
    }
}

/// The speedups seen, per model key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Speedups {
    seen: HashMap<String, Vec<(usize, f64)>>,
}

impl Speedups {
    /// The USL of model `key`: fitted once a width above one was seen,
    /// else the prior; `None` for a call that cannot use more workers.
    ///
    /// The prior counts as one observation at each width seen. A single
    /// run slowed by a busy machine would otherwise fit a flat curve, and a
    /// call planned narrow is never measured wide again to correct it;
    /// after a few runs the measurements outweigh the prior.
    pub fn usl(&self, key: &str) -> Option<Usl> {
        let prior = prior(key)?;
        let Some(seen) = self.seen.get(key).filter(|pts| !pts.is_empty()) else {
            return Some(prior);
        };
        let mut widths: Vec<usize> = seen.iter().map(|&(k, _)| k).collect();
        widths.sort_unstable();
        widths.dedup();
        let pts: Vec<(usize, f64)> = seen
            .iter()
            .copied()
            .chain(widths.into_iter().map(|k| (k, prior.speedup(k))))
            .collect();
        Some(Usl::fit(&pts).unwrap_or(prior))
    }

    /// Whether a speedup of `key` was ever observed.
    pub fn measured(&self, key: &str) -> bool {
        self.seen.get(key).is_some_and(|pts| !pts.is_empty())
    }

    /// A run of `key` at `width` took `seconds` where one worker took
    /// `one`.
    pub fn observe(&mut self, key: &str, width: usize, one: f64, seconds: f64) {
        if !(width >= 2 && one > 0.0 && seconds > 0.0 && one.is_finite() && seconds.is_finite()) {
            return;
        }
        let pts = self.seen.entry(key.to_string()).or_default();
        pts.push((width, one / seconds));
        if pts.len() > WINDOW {
            pts.remove(0);
        }
    }

    /// As stored beside the models: one JSON array of `[width, speedup]`
    /// per key.
    pub fn to_states(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .seen
            .iter()
            .map(|(k, pts)| {
                let json = serde_json::to_string(pts).unwrap_or_else(|_| "[]".into());
                (format!("{STORED_PREFIX}{k}"), json)
            })
            .collect();
        out.sort();
        out
    }

    /// Reads one stored state back; `false` when `stored` is not a
    /// speedup's (a model's).
    pub fn load_state(&mut self, stored: &str, state: &str) -> bool {
        if stored.starts_with(UNANCHORED_PREFIX) {
            return true;
        }
        let Some(key) = stored.strip_prefix(STORED_PREFIX) else {
            return false;
        };
        if let Ok(pts) = serde_json::from_str::<Vec<(usize, f64)>>(state) {
            let pts: Vec<(usize, f64)> = pts
                .into_iter()
                .filter(|&(k, s)| k >= 1 && s.is_finite() && s > 0.0)
                .collect();
            self.seen.insert(key.to_string(), pts);
        }
        true
    }
}

/// Speedups are stored in the models table under this prefix: no schema
/// change, and an older flowcast that finds one sees a model it cannot
/// read and ignores it.
const STORED_PREFIX: &str = "speedup.anchored:";

/// Where flowcast stored its speedups before the history kept the workers
/// each call held (its `widths` table). Those were the time model's
/// one-worker prediction over the wall, and so returned the speedup
/// assumed (see `Predictor::observe`): counted as measured, they would
/// keep a call from ever being run narrow to learn its real one. They are
/// read and dropped.
const UNANCHORED_PREFIX: &str = "speedup:";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_sigma_and_kappa() {
        let truth = Usl::new(0.12, 0.004);
        let obs: Vec<(usize, f64)> = [1, 2, 4, 8, 16]
            .iter()
            .map(|&k| (k, truth.speedup(k)))
            .collect();
        let fit = Usl::fit(&obs).unwrap();
        assert!((fit.sigma - 0.12).abs() < 1e-9, "{fit:?}");
        assert!((fit.kappa - 0.004).abs() < 1e-9, "{fit:?}");
        // One width: σ alone.
        let fit = Usl::fit(&[(1, 1.0), (4, 2.5)]).unwrap();
        assert_eq!(fit.kappa, 0.0);
        assert!((truth_sigma(4, 2.5) - fit.sigma).abs() < 1e-12);
        assert!(Usl::fit(&[(1, 1.0)]).is_none());
    }

    fn truth_sigma(k: usize, s: f64) -> f64 {
        let k = k as f64;
        (k / s - 1.0) / (k - 1.0)
    }

    #[test]
    fn the_best_width_is_the_peak() {
        let usl = Usl::new(0.05, 0.01);
        // S'(k) = 0 at k = sqrt((1 - σ) / κ) ≈ 9.7.
        assert_eq!(usl.best_width(32), 10);
        assert_eq!(usl.best_width(4), 4);
        assert_eq!(Usl::new(0.0, 0.0).best_width(16), 16);
    }

    #[test]
    fn one_slow_wide_run_does_not_flatten_the_curve() {
        // A 4-wide run that took as long as one worker: alone it fits
        // σ = 1, a call never to be widened again.
        let mut s = Speedups::default();
        s.observe("dist", 4, 1.0, 1.0);
        let fit = s.usl("dist").unwrap();
        assert!(fit.sigma < 0.6, "{fit:?}");
        assert!(fit.speedup(4) > 1.5, "{fit:?}");
        // Runs that keep showing it win over the prior.
        for _ in 0..8 {
            s.observe("dist", 4, 1.0, 1.0);
        }
        assert!(s.usl("dist").unwrap().speedup(4) < 1.2);
    }

    #[test]
    fn a_call_splits_among_no_more_workers_than_its_pieces() {
        let usl = Usl::new(0.0, 0.0).up_to(Some(3));
        assert_eq!(usl.speedup(3), 3.0);
        assert_eq!(usl.speedup(16), 3.0);
        assert_eq!(usl.best_width(16), 3);
        // In rounds: 3 pieces on 2 workers take two.
        assert_eq!(usl.speedup(2), 1.5);
        // 25 starts: 13 workers take two rounds, as 16 would.
        let starts = Usl::new(0.0, 0.0).up_to(Some(25));
        assert_eq!(starts.speedup(13), 12.5);
        assert_eq!(starts.speedup(16), 12.5);
        assert_eq!(starts.best_width(16), 13);
    }

    #[test]
    fn priors_only_for_kernels_that_split() {
        assert!(prior("%*%").is_some());
        assert!(prior("eigen[general,vectors]").is_none());
        assert!(prior("eigen[symmetric]").is_some());
        assert!(prior("svd[values]").is_none());
        assert!(prior("svd[vectors]").is_some());
        assert!(prior("hclust[complete]").is_none());
        assert!(prior("ks.test").is_none());
        assert!(prior("wilcox.test").is_some());
    }

    #[test]
    fn observations_replace_the_prior_and_survive_storage() {
        let mut s = Speedups::default();
        assert_eq!(s.usl("dist"), prior("dist"));
        let truth = Usl::new(0.2, 0.0);
        for _ in 0..WINDOW {
            s.observe("dist", 4, 4.0, 4.0 / truth.speedup(4));
        }
        // The prior (σ = 0.02) weighs as one of 33 observations.
        let fit = s.usl("dist").unwrap();
        assert!((fit.sigma - 0.2).abs() < 0.01, "{fit:?}");
        assert!(fit.sigma < 0.2, "{fit:?}");
        let mut back = Speedups::default();
        for (k, v) in s.to_states() {
            assert!(back.load_state(&k, &v));
        }
        assert_eq!(back, s);
        assert!(!back.load_state("eigen", "{}"));
    }

    #[test]
    fn speedups_stored_before_widths_were_kept_are_dropped() {
        let mut s = Speedups::default();
        // Consumed, so not mistaken for a time model, but not loaded.
        assert!(s.load_state("speedup:dist", "[[4,3.9]]"));
        assert!(!s.measured("dist"));
        assert_eq!(s.usl("dist"), prior("dist"));
    }
}
