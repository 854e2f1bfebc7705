//! Quantities as people read them, in every view (terminal UI, headless
//! table, charts): durations in a unit that fits, relative errors.

/// Seconds for tables: `40µs`, `0.4ms`, `12ms`, `1.23s`, `4m05s`,
/// `3h07m`, `5d02h`, and past 999 days `4e14d` (a cost model's guess for
/// an absurd size, which must still read as a duration).
pub fn seconds(t: f64) -> String {
    if !t.is_finite() {
        return "-".into();
    }
    if t <= 0.0 {
        "0s".into()
    } else if t < 0.000_1 {
        format!("{:.0}µs", t * 1e6)
    } else if t < 0.01 {
        format!("{:.1}ms", t * 1000.0)
    } else if t < 1.0 {
        format!("{:.0}ms", t * 1000.0)
    } else if t < 120.0 {
        format!("{t:.2}s")
    } else if t.round() < 7_200.0 {
        // Whole seconds first, so that 179.6 s reads 3m00s, not 2m60s.
        let whole = t.round() as u64;
        format!("{}m{:02}s", whole / 60, whole % 60)
    } else if (t / 60.0).round() < 2_880.0 {
        let whole = (t / 60.0).round() as u64;
        format!("{}h{:02}m", whole / 60, whole % 60)
    } else if (t / 3_600.0).round() < 999.0 * 24.0 {
        let whole = (t / 3_600.0).round() as u64;
        format!("{}d{:02}h", whole / 24, whole % 24)
    } else {
        format!("{:.0e}d", t / 86_400.0)
    }
}

/// Bytes in a unit that fits: `512 B`, `1.5 KiB`, `12.0 MiB`, `3.2 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A relative error `(actual - predicted) / predicted` for tables: `+12%`,
/// `-40%`, and past +999 % the ratio: `×85` (85 times the prediction),
/// `×2e5`.
pub fn error(e: f64) -> String {
    if !e.is_finite() {
        "-".into()
    } else if e < 9.995 {
        format!("{:+.0}%", e * 100.0)
    } else if e + 1.0 < 999.5 {
        format!("×{:.0}", e + 1.0)
    } else {
        format!("×{:.0e}", e + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_carry_rounded_seconds() {
        assert_eq!(seconds(245.0), "4m05s");
        assert_eq!(seconds(179.6), "3m00s");
        assert_eq!(seconds(120.0), "2m00s");
        assert_eq!(seconds(7_199.6), "2h00m");
        assert_eq!(seconds(7_200.0), "2h00m");
        assert_eq!(seconds(11_220.0), "3h07m");
        assert_eq!(seconds(172_799.0), "2d00h");
        assert_eq!(seconds(5.0 * 86_400.0 + 7_000.0), "5d02h");
        assert_eq!(seconds(1e20), "1e15d");
        assert_eq!(seconds(f64::MAX), "2e303d");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
    }
}
