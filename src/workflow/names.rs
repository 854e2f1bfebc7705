//! R's rules for names, and "did you mean" suggestions for misspelt keys.

/// Words that cannot name a step or a loop variable. `T` and `F` are ordinary
/// variables in R, but here they always mean `TRUE` and `FALSE`, so they are
/// reserved too.
pub const RESERVED: &[&str] = &[
    "TRUE", "FALSE", "T", "F", "NULL", "NA", "NaN", "Inf", "if", "else", "for", "while", "in",
    "function", "repeat", "break", "next",
];

pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// R's other reserved words (`?Reserved`): the typed NAs, which a step of
/// that name would be hidden behind, and `...`, `..1`, `..2`, … which R
/// reads only as a function's arguments. Not in [`RESERVED`], as R's
/// deparse writes them without backticks.
fn is_reserved_value(name: &str) -> bool {
    name == super::ast::DOTS
        || super::ast::is_dots_element(name)
        || ["NA_integer_", "NA_real_", "NA_character_", "NA_complex_"].contains(&name)
}

/// A syntactic R name: letters, digits, `.` and `_`, starting with a letter or
/// a dot that is not followed by a digit (`.5` is a number).
pub fn is_syntactic(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if first == '.' {
        if name[1..].starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
    } else if !first.is_alphabetic() {
        return false;
    }
    chars.all(is_name_char)
}

/// A character that may continue an R name.
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '_'
}

/// Why `name` cannot name a step or a loop variable, if it cannot.
pub fn name_problem(name: &str) -> Option<String> {
    if name == "T" || name == "F" {
        // R lets `T <- 3` hide TRUE; here `T` and `F` are always the
        // constants, so saying "reserved in R" would be wrong.
        let full = if name == "T" { "TRUE" } else { "FALSE" };
        Some(format!(
            "`{name}` always means `{full}` in flowcast (in R it is a variable that a \
             script may change): choose another name"
        ))
    } else if is_reserved(name) || is_reserved_value(name) {
        Some(format!("`{name}` is a reserved word in R"))
    } else if !is_syntactic(name) {
        Some(format!(
            "`{name}` is not a syntactic R name (use letters, digits, `.` and `_`, \
             starting with a letter or a dot not followed by a digit)"
        ))
    } else {
        None
    }
}

/// The candidate closest to `word`, when it is close enough to be a likely
/// misspelling (a third of the word's length, at least one edit).
pub fn suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .iter()
        .map(|c| (distance(&word.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Optimal string alignment distance: edits, with a swap of two adjacent
/// characters counting as one (`shceduler`).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntactic_names_follow_r() {
        for ok in ["a", "p.value", ".x", "x_1", "friedman.test", "..", ".", "é"] {
            assert!(is_syntactic(ok), "{ok}");
        }
        for bad in ["", "1a", "_a", ".1", "a-b", "a b", "a$b"] {
            assert!(!is_syntactic(bad), "{bad}");
        }
    }

    #[test]
    fn reserved_words_are_not_names() {
        assert!(name_problem("TRUE").is_some());
        assert!(name_problem("in").is_some());
        assert!(name_problem("T").is_some());
        assert!(name_problem("Tr").is_none());
        for word in ["...", "..1", "..20", "NA_integer_", "NA_character_"] {
            assert!(name_problem(word).is_some(), "{word}");
        }
        for name in ["..", "..a", "..1a", ".x"] {
            assert!(name_problem(name).is_none(), "{name}");
        }
    }

    #[test]
    fn suggestions_catch_typos_only() {
        let keys = ["name", "seed", "processors", "scheduler", "out"];
        assert_eq!(suggest("sceduler", &keys), Some("scheduler"));
        assert_eq!(suggest("shceduler", &keys), Some("scheduler"));
        assert_eq!(suggest("processor", &keys), Some("processors"));
        assert_eq!(suggest("Seed", &keys), Some("seed"));
        assert_eq!(suggest("colour", &keys), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
