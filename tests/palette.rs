//! Function colours (issue 14, item 8): the palette cycled eight colours,
//! so a legend could not tell three functions apart.

use flowcast::report::palette::{colour, hex, oklch, pattern, text_on, Pattern, DISTINCT};

/// Distance in OKLab, where equal distances look about equally different.
fn distance(i: usize, j: usize) -> f64 {
    let lab = |k: usize| {
        let (l, c, h) = oklch(k);
        (l, c * h.cos(), c * h.sin())
    };
    let (a, b) = (lab(i), lab(j));
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2) + (a.2 - b.2).powi(2)).sqrt()
}

#[test]
fn the_first_colours_are_all_told_apart() {
    const { assert!(DISTINCT >= 16) };
    for i in 0..DISTINCT {
        for j in 0..i {
            assert_ne!(colour(i), colour(j), "{i} and {j}");
            assert!(distance(i, j) > 0.08, "{i} and {j}: {}", distance(i, j));
        }
    }
}

#[test]
fn past_the_distinct_colours_a_pattern_tells_functions_apart() {
    let mut seen = std::collections::HashSet::new();
    for i in 0..4 * DISTINCT {
        assert!(seen.insert((colour(i), pattern(i))), "{i} repeats");
    }
    assert_eq!(pattern(0), Pattern::Solid);
    assert_eq!(pattern(DISTINCT - 1), Pattern::Solid);
    assert_eq!(pattern(DISTINCT), Pattern::Hatched);
}

#[test]
fn colours_are_valid_and_labels_read_on_them() {
    for i in 0..DISTINCT {
        assert_eq!(hex(i).len(), 7);
        let (r, g, b) = colour(i);
        let ink = text_on(i);
        // Relative luminance, roughly: text and bar differ by half the range.
        let y = |(r, g, b): (u8, u8, u8)| {
            0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)
        };
        assert!(
            (y((r, g, b)) - y(ink)).abs() > 80.0,
            "{i}: {:?} on {:?}",
            ink,
            (r, g, b)
        );
    }
}
