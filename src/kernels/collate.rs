//! The order R sorts text in, for factor levels (`factor`, `table`,
//! `split`, `aggregate`).
//!
//! R sorts character vectors with the locale's collator: ICU's root
//! collation where R was built with ICU and the locale is not C or POSIX
//! (R 4.2 on Linux with `LANG=C.UTF-8` or `en_US.UTF-8`). This follows that
//! order for the characters labels are made of: punctuation and symbols
//! first, then digits, then letters regardless of case; a lowercase letter
//! before its uppercase only when the texts are otherwise equal
//! (`"a" < "A" < "b" < "B"`, `"_x" < "10" < "9" < "a"`). Punctuation is
//! ordered by code point here, which is not ICU's order among punctuation
//! marks.

use std::cmp::Ordering;

/// A character's primary weight: its group, then its rank in the group.
fn primary(c: char) -> (u8, u32) {
    // Labels are mostly ASCII, whose classes need no Unicode tables.
    if c.is_ascii() {
        let b = c as u8;
        return if b.is_ascii_digit() {
            (1, u32::from(b - b'0'))
        } else if b.is_ascii_alphabetic() {
            (2, u32::from(b.to_ascii_lowercase()))
        } else {
            (0, u32::from(b))
        };
    }
    if c.is_numeric() {
        (1, c.to_digit(10).unwrap_or(c as u32))
    } else if c.is_alphabetic() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        (2, lower as u32)
    } else {
        (0, c as u32)
    }
}

/// R's comparison of two strings under ICU's root collation (see the
/// module's note on what is approximated).
pub fn compare(a: &str, b: &str) -> Ordering {
    let by_primary = a.chars().map(primary).cmp(b.chars().map(primary));
    if by_primary != Ordering::Equal {
        return by_primary;
    }
    // Tertiary level: at the first difference in case, lowercase first.
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            return match (x.is_lowercase(), y.is_lowercase()) {
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ => x.cmp(&y),
            };
        }
    }
    a.cmp(b)
}

/// `sort(unique(x))` for text, as R gives it.
pub fn sorted_unique<'a>(values: impl Iterator<Item = &'a str>) -> Vec<String> {
    // Distinct texts first (a hash per value), then only they are
    // collated: a factor of 2000 values has a handful of levels. `compare`
    // orders different texts as different, so this is the same order.
    let mut seen = std::collections::HashSet::new();
    let mut v: Vec<&str> = values.filter(|s| seen.insert(*s)).collect();
    v.sort_by(|a, b| compare(a, b));
    v.into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_r_under_icu() {
        // R 4.2.2, LANG=C.UTF-8: sort(c("b","A","a","B","_x","10","9"))
        let got = sorted_unique(["b", "A", "a", "B", "_x", "10", "9", "a"].into_iter());
        assert_eq!(got, ["_x", "10", "9", "a", "A", "b", "B"]);
        assert_eq!(compare("ab", "Aa"), Ordering::Greater);
        assert_eq!(compare("ctrl", "trt1"), Ordering::Less);
    }

    /// The ASCII shortcut weighs characters as the Unicode classes do.
    #[test]
    fn ascii_weights_are_the_unicode_ones() {
        for b in 0u8..128 {
            let c = char::from(b);
            let unicode = if c.is_numeric() {
                (1, c.to_digit(10).unwrap_or(c as u32))
            } else if c.is_alphabetic() {
                (2, c.to_lowercase().next().unwrap_or(c) as u32)
            } else {
                (0, c as u32)
            };
            assert_eq!(primary(c), unicode, "{c:?}");
        }
    }
}
