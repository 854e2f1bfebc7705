//! How a moldable call's time shrinks with workers (seed 003's USL), per
//! cost model key (function and path): a prior from the kernel's structure
//! until runs at several widths have been seen, then the fit to them.
//!
//! An observation is the speedup a run showed: the call's one-worker
//! prediction over its measured time at width k. Fitting to that ratio,
//! not to a measured one-worker time, keeps prediction and speedup
//! consistent even for a call that only ever runs wide: their quotient is
//! what was measured.

use std::collections::HashMap;

use crate::sched::Usl;

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
/// - `eigen` general: not moldable; faer's parallel paths would change
///   its bits.
pub fn prior(key: &str) -> Option<Usl> {
    let function = super::model_function(key);
    let path = key
        .strip_suffix(']')
        .and_then(|k| k.rsplit_once('['))
        .map_or("", |(_, p)| p);
    let usl = |sigma, kappa| Some(Usl { sigma, kappa });
    match function {
        "%*%" | "crossprod" => usl(0.03, 0.0005),
        "dist" => usl(0.02, 0.0002),
        // Runs narrow (see `linalg::eigen`).
        "eigen" if path.split(',').any(|p| p == "general") => None,
        "eigen" => usl(0.35, 0.001),
        "svd" | "prcomp" | "solve" => usl(0.35, 0.001),
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
    pub fn usl(&self, key: &str) -> Option<Usl> {
        let prior = prior(key)?;
        Some(
            self.seen
                .get(key)
                .and_then(|pts| Usl::fit(pts))
                .unwrap_or(prior),
        )
    }

    /// A run of `key` at `width` took `seconds` where one worker was
    /// predicted to take `one`.
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
const STORED_PREFIX: &str = "speedup:";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priors_only_for_kernels_that_split() {
        assert!(prior("%*%").is_some());
        assert!(prior("eigen[general,vectors]").is_none());
        assert!(prior("eigen[symmetric]").is_some());
        assert!(prior("hclust[complete]").is_none());
        assert!(prior("wilcox.test").is_none());
    }

    #[test]
    fn observations_replace_the_prior_and_survive_storage() {
        let mut s = Speedups::default();
        assert_eq!(s.usl("dist"), prior("dist"));
        let truth = Usl {
            sigma: 0.2,
            kappa: 0.0,
        };
        s.observe("dist", 4, 4.0, 4.0 / truth.speedup(4));
        let fit = s.usl("dist").unwrap();
        assert!((fit.sigma - 0.2).abs() < 1e-12, "{fit:?}");
        let mut back = Speedups::default();
        for (k, v) in s.to_states() {
            assert!(back.load_state(&k, &v));
        }
        assert_eq!(back, s);
        assert!(!back.load_state("eigen", "{}"));
    }
}
