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

/// The mean iteration's seconds by a drive's samples, each its seconds
/// and how many mean iterations its iterations weigh (by the loop's
/// profile): the weighted median of what each sample makes the mean,
/// weighted by its size. A ratio of the sums would do as well on quiet
/// samples, but one single-iteration sample preempted or faulting its
/// first pages (3.5 ms where 0.35 ms was its due, on the 2-core VM) moved
/// triangular's whole-loop forecast 2x; the median is moved by no one
/// sample. `None` without a sample of positive weight.
pub fn mean_iteration(samples: &[(f64, f64)]) -> Option<f64> {
    let mut implied: Vec<(f64, f64)> = samples
        .iter()
        .filter(|(t, w)| t.is_finite() && *t >= 0.0 && w.is_finite() && *w > 0.0)
        .map(|&(t, w)| (t / w, w))
        .collect();
    if implied.is_empty() {
        return None;
    }
    implied.sort_by(|a, b| a.0.total_cmp(&b.0));
    let half = implied.iter().map(|(_, w)| w).sum::<f64>() / 2.0;
    let mut below = 0.0;
    for (k, &(value, w)) in implied.iter().enumerate() {
        below += w;
        if below > half * (1.0 + 1e-12) {
            return Some(value);
        }
        if below >= half * (1.0 - 1e-12) {
            // Exactly half below: between this value and the next, as an
            // even count's median.
            let next = implied.get(k + 1).map_or(value, |n| n.0);
            return Some((value + next) / 2.0);
        }
    }
    implied.last().map(|l| l.0)
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

    /// Quiet samples give the ratio of the sums; one sample ten times its
    /// due moves the mean by none of it.
    #[test]
    fn one_slow_sample_does_not_move_the_mean_iteration() {
        // A triangular loop's samples: iteration i weighs i / mean.
        let quiet = [(0.1e-3, 0.1), (0.5e-3, 0.5), (1.0e-3, 1.0), (1.5e-3, 1.5)];
        let m = mean_iteration(&quiet).unwrap();
        assert!((m - 1e-3).abs() < 1e-15, "{m}");
        let mut noisy = quiet;
        noisy[1].0 *= 10.0;
        let m = mean_iteration(&noisy).unwrap();
        assert!((m - 1e-3).abs() < 1e-15, "{m}");
        // The ratio of the sums would have said 1.73e-3.
        let ratio = noisy.iter().map(|s| s.0).sum::<f64>() / noisy.iter().map(|s| s.1).sum::<f64>();
        assert!(ratio > 1.7e-3, "{ratio}");
        // Two equal halves: between them.
        assert_eq!(mean_iteration(&[(1.0, 1.0), (3.0, 1.0)]), Some(2.0));
        assert_eq!(mean_iteration(&[(2.0, 1.0)]), Some(2.0));
        assert_eq!(mean_iteration(&[(2.0, 0.0)]), None);
        assert_eq!(mean_iteration(&[]), None);
        assert_eq!(mean_iteration(&[(f64::NAN, 1.0), (4.0, 2.0)]), Some(2.0));
    }
}
