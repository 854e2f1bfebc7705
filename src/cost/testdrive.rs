//! The loop "test drive" (paper section IV): run a loop's first iteration,
//! time it, and extrapolate the per-iteration cost to the rest of the loop.
//! Below p·M iterations it is not worth the bubble it puts in the schedule:
//! the loop is split evenly instead.

/// Assumed spread of one measured iteration around the loop's mean
/// iteration time, in log space (about 25 %): the first iteration pays for
/// cold caches and first allocations, and one sample of anything is noisy.
pub const TEST_DRIVE_LOG_SPREAD: f64 = 0.25;

/// Whether a loop of `iterations` on `p` workers is test-driven: only at
/// p·M iterations or more.
pub fn needs_test_drive(iterations: usize, p: usize, m: usize) -> bool {
    iterations > 0 && iterations >= p.max(1).saturating_mul(m.max(1))
}

/// A model's per-iteration prediction and how much to trust it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelEstimate {
    /// Predicted seconds per iteration.
    pub seconds: f64,
    /// Its spread on its own window, in log space
    /// ([`super::Model::log_spread`]).
    pub log_spread: f64,
}

/// Predicted seconds per iteration from the test drive's measured first
/// iteration, blended with the loop's model when it has one.
///
/// The blend is inverse-variance weighting in log space: the test drive is
/// one sample with spread [`TEST_DRIVE_LOG_SPREAD`]; the model was trained
/// on whole loops (each observation an average over all iterations) and
/// states its own spread. A model that has fitted past runs of this loop
/// well outweighs one cold first iteration; a poor or new one does not.
pub fn per_iteration(first_iteration: f64, model: Option<ModelEstimate>) -> f64 {
    let td = first_iteration.max(0.0);
    let Some(m) = model.filter(|m| m.seconds > 0.0 && m.log_spread.is_finite()) else {
        return td;
    };
    if td <= 0.0 {
        return m.seconds;
    }
    // Floor the model's spread: a perfect fit on its window says little
    // about this call.
    let vm = m.log_spread.max(0.02).powi(2);
    let vt = TEST_DRIVE_LOG_SPREAD.powi(2);
    let wm = 1.0 / vm;
    let wt = 1.0 / vt;
    ((wt * td.ln() + wm * m.seconds.ln()) / (wt + wm)).exp()
}

/// Predicted seconds for the whole loop of `iterations`, the first of which
/// (already run) took `first_iteration` seconds: that one is known, the
/// rest are extrapolated.
pub fn extrapolate(first_iteration: f64, iterations: usize, model: Option<ModelEstimate>) -> f64 {
    if iterations == 0 {
        return 0.0;
    }
    first_iteration.max(0.0) + per_iteration(first_iteration, model) * (iterations - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_is_p_times_m() {
        assert!(!needs_test_drive(55, 7, 8));
        assert!(needs_test_drive(56, 7, 8));
        assert!(needs_test_drive(1200, 7, 8));
        assert!(!needs_test_drive(0, 1, 1));
    }

    #[test]
    fn blending_trusts_the_better_source() {
        assert_eq!(per_iteration(0.2, None), 0.2);
        let good = ModelEstimate {
            seconds: 0.1,
            log_spread: 0.02,
        };
        let b = per_iteration(0.2, Some(good));
        assert!(b > 0.1 && b < 0.105, "{b}");
        let poor = ModelEstimate {
            seconds: 0.1,
            log_spread: 2.0,
        };
        let b = per_iteration(0.2, Some(poor));
        assert!(b > 0.19 && b <= 0.2, "{b}");
        assert!((extrapolate(0.3, 11, None) - 3.3).abs() < 1e-12);
    }
}
