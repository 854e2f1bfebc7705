//! Time axes: tick steps a person can read (1, 2 or 5 times a power of ten)
//! and short labels for seconds.

/// A tick step for an axis from 0 to `span` seconds with about `target`
/// ticks: 1, 2 or 5 × 10^k.
pub fn tick_step(span: f64, target: usize) -> f64 {
    if !(span.is_finite() && span > 0.0) {
        return 1.0;
    }
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Tick positions from `from` to `to` inclusive, multiples of `step`.
pub fn ticks(from: f64, to: f64, step: f64) -> Vec<f64> {
    if !(step > 0.0 && from.is_finite() && to.is_finite()) || to < from {
        return Vec::new();
    }
    let first = (from / step).ceil() as i64;
    let last = (to / step + 1e-9).floor() as i64;
    (first..=last.min(first + 1000))
        .map(|k| k as f64 * step)
        .collect()
}

/// `0s`, `0.25s`, `1.5s`, `2m30s`: as short as the step allows.
pub fn label(t: f64, step: f64) -> String {
    if t >= 120.0 && step >= 1.0 {
        // Whole seconds first, as `report::units::seconds` does: a tick a
        // hair under 3 minutes reads 3m, not 2m60s.
        let whole = t.round() as u64;
        let (m, s) = (whole / 60, whole % 60);
        return if s == 0 {
            format!("{m}m")
        } else {
            format!("{m}m{s}s")
        };
    }
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil().clamp(0.0, 6.0) as usize
    };
    format!("{t:.decimals$}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minute_labels_carry_rounded_seconds() {
        assert_eq!(label(150.0, 30.0), "2m30s");
        assert_eq!(label(180.0, 60.0), "3m");
        assert_eq!(label(180.0 - 1e-7, 60.0), "3m");
        assert_eq!(label(1.5, 0.5), "1.5s");
        assert_eq!(label(60.0, 10.0), "60s");
    }
}
