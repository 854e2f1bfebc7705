//! Time axes: tick steps a person can read (1, 2 or 5 times a power of ten)
//! and short labels for seconds.

/// A tick step for an axis from 0 to `span` seconds with about `target`
/// ticks: 1, 2 or 5 × 10^k, and past 20 s per tick half minutes, minutes,
/// hours or days.
pub fn tick_step(span: f64, target: usize) -> f64 {
    if !(span.is_finite() && span > 0.0) {
        return 1.0;
    }
    let raw = span / target.max(1) as f64;
    if raw > 20.0 {
        // Past 20 s a tick falls on the clock's own steps: ticks every
        // 1000 s would read 16m40s, 33m20s, ...
        const CLOCK: [f64; 12] = [
            30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1_800.0, 3_600.0, 7_200.0, 10_800.0, 21_600.0,
            43_200.0,
        ];
        if let Some(&step) = CLOCK.iter().find(|&&c| c >= raw) {
            return step;
        }
        return (raw / 86_400.0).ceil() * 86_400.0;
    }
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

/// `0s`, `0.25s`, `1.5s`, `2m30s`, `3h`, `2h30m`: as short as the step
/// allows.
pub fn label(t: f64, step: f64) -> String {
    if t >= 7_200.0 && step >= 60.0 {
        let whole = (t / 60.0).round() as u64;
        let (h, m) = (whole / 60, whole % 60);
        return if m == 0 {
            format!("{h}h")
        } else {
            format!("{h}h{m}m")
        };
    }
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
        assert_eq!(label(9_000.0, 1_800.0), "2h30m");
        assert_eq!(label(10_800.0, 3_600.0), "3h");
        assert_eq!(label(7_200.0, 30.0), "120m");
        assert_eq!(tick_step(600.0, 10), 60.0);
        assert_eq!(tick_step(3_000.0, 10), 300.0);
        assert_eq!(tick_step(36_000.0, 10), 3_600.0);
        assert_eq!(tick_step(30.0 * 86_400.0, 10), 3.0 * 86_400.0);
    }
}
