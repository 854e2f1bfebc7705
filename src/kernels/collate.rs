//! The order R sorts text in: `sort`, `order`, `rank`, `<` on text, and
//! factor levels (`factor`, `table`, `split`, `aggregate`).
//!
//! R compares strings with the locale's collator: ICU's root collation
//! where R was built with ICU and the locale is not C or POSIX (R 4.2 on
//! Linux with `LANG=C.UTF-8` or `en_US.UTF-8`). ICU compares in three
//! passes over the whole strings, each deciding only when the one before
//! found them equal:
//! 1. primary weights: whitespace, then punctuation and symbols (in
//!    [`SYMBOLS`]' order, not by code point), then digits, then letters
//!    whatever their case or accents (`"_x" < ".z" < "10" < "a" < "B"`);
//! 2. secondary weights: accents, an unaccented letter first (`"e" < "E" <
//!    "é"`: the accent outweighs the case);
//! 3. tertiary weights: case, lower before upper (`"ab" < "aB" < "Ab"`).
//!
//! Control characters and the soft hyphen weigh nothing. This follows
//! ICU's root order for ASCII, Latin-1 and Latin Extended-A (the letters
//! names and labels are written in) and for the common symbols; other
//! scripts' letters compare by code point after the Latin ones, which
//! keeps each alphabet in its order. Strings ICU finds equal (they differ
//! only in ignorable characters) are ordered by their bytes, so that a
//! sort's result does not depend on its input's order.

use std::cmp::Ordering;

use crate::kernels::hashing::FastMap;

/// Whitespace, punctuation and symbols in ICU root's order (R 4.2.2's
/// `sort` of them, with ICU). A character's primary weight among them is
/// its position here.
const SYMBOLS: &str = "\t\n\u{b}\u{c}\r _‗-‐‑‒–—―,;:!¡?¿.․‥…·'‘’‚‛‹›\"“”„‟«»()[]{}‖§¶@*/\\&#%‰‱†‡•‣‧′″‴‵‶‷‸`´^¯¨¸°©®←→↑↓+±÷×<=≠>¬|¦~−⁄∞≤≥¤¢$£¥€";

/// Where the groups of primary weights begin.
const SYMBOL: u32 = 1;
const OTHER_SYMBOL: u32 = 0x1000;
const DIGIT: u32 = 0x20_0000;
const LATIN: u32 = 0x40_0000;
const OTHER_LETTER: u32 = 0x80_0000;

/// A Latin letter's primary weight: four apart, so that the letters ICU
/// gives a weight of their own (`ı`, `ŋ`, `ĸ`) fit after their neighbour.
const fn latin(letter: u8) -> u32 {
    LATIN + 4 * (letter - b'a') as u32
}

/// Secondary weights: no accent, then the accents in ICU root's order
/// (`e é è ĕ ê ě e̊ ë e̋ ẽ ė`…), then the marks ICU gives letters that do
/// not decompose (`ø`, `ł`, `ð`, `ŀ`, and the ligatures `æ`, `œ`, `ß`).
mod mark {
    pub const NONE: u8 = 1;
    pub const ACUTE: u8 = 2;
    pub const GRAVE: u8 = 3;
    pub const BREVE: u8 = 4;
    pub const CIRCUMFLEX: u8 = 5;
    pub const CARON: u8 = 6;
    pub const RING: u8 = 7;
    pub const DIAERESIS: u8 = 8;
    pub const DOUBLE_ACUTE: u8 = 9;
    pub const TILDE: u8 = 10;
    pub const DOT: u8 = 11;
    pub const LONG_STROKE: u8 = 12;
    pub const CEDILLA: u8 = 13;
    pub const OGONEK: u8 = 14;
    pub const MACRON: u8 = 15;
    pub const SHORT_STROKE: u8 = 16;
    pub const ETH: u8 = 17;
    pub const MIDDLE_DOT: u8 = 18;
    pub const LIGATURE: u8 = 19;
    pub const OTHER: u8 = 20;
}

/// Tertiary weights: lower case (and uncased), a compatibility variant
/// (`ª`, `¹`, `ĳ`, a no-break space), upper case.
const LOWER: u8 = 1;
const VARIANT: u8 = 2;
const UPPER: u8 = 3;

/// One collation element: a character's three weights. A combining mark
/// is an element with no primary weight.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Element {
    primary: u32,
    secondary: u8,
    tertiary: u8,
}

impl Element {
    const fn base(primary: u32, tertiary: u8) -> Element {
        Element {
            primary,
            secondary: mark::NONE,
            tertiary,
        }
    }

    const fn mark(secondary: u8) -> Element {
        Element {
            primary: 0,
            secondary,
            tertiary: LOWER,
        }
    }
}

/// The ASCII characters' primary weights (0: ignorable).
const ASCII: [u32; 128] = ascii_primaries();

const fn ascii_primaries() -> [u32; 128] {
    let mut t = [0u32; 128];
    let bytes = SYMBOLS.as_bytes();
    let (mut i, mut rank) = (0, 0);
    while i < bytes.len() {
        // Count characters, not bytes: a UTF-8 continuation byte starts
        // none.
        if bytes[i] & 0xC0 != 0x80 {
            if bytes[i] < 128 {
                t[bytes[i] as usize] = SYMBOL + rank;
            }
            rank += 1;
        }
        i += 1;
    }
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = DIGIT + (d - b'0') as u32;
        d += 1;
    }
    let mut c = b'a';
    while c <= b'z' {
        t[c as usize] = latin(c);
        t[c.to_ascii_uppercase() as usize] = latin(c);
        c += 1;
    }
    t
}

/// The lower-case Latin letters past ASCII that decompose into a letter
/// and an accent (or two letters), sorted by character.
const DECOMPOSED: &[(char, &str, u8)] = &[
    ('ª', "a", 0),
    ('º', "o", 0),
    ('ß', "ss", mark::LIGATURE),
    ('à', "a", mark::GRAVE),
    ('á', "a", mark::ACUTE),
    ('â', "a", mark::CIRCUMFLEX),
    ('ã', "a", mark::TILDE),
    ('ä', "a", mark::DIAERESIS),
    ('å', "a", mark::RING),
    ('æ', "ae", mark::LIGATURE),
    ('ç', "c", mark::CEDILLA),
    ('è', "e", mark::GRAVE),
    ('é', "e", mark::ACUTE),
    ('ê', "e", mark::CIRCUMFLEX),
    ('ë', "e", mark::DIAERESIS),
    ('ì', "i", mark::GRAVE),
    ('í', "i", mark::ACUTE),
    ('î', "i", mark::CIRCUMFLEX),
    ('ï', "i", mark::DIAERESIS),
    ('ð', "d", mark::ETH),
    ('ñ', "n", mark::TILDE),
    ('ò', "o", mark::GRAVE),
    ('ó', "o", mark::ACUTE),
    ('ô', "o", mark::CIRCUMFLEX),
    ('õ', "o", mark::TILDE),
    ('ö', "o", mark::DIAERESIS),
    ('ø', "o", mark::LONG_STROKE),
    ('ù', "u", mark::GRAVE),
    ('ú', "u", mark::ACUTE),
    ('û', "u", mark::CIRCUMFLEX),
    ('ü', "u", mark::DIAERESIS),
    ('ý', "y", mark::ACUTE),
    ('ÿ', "y", mark::DIAERESIS),
    ('ā', "a", mark::MACRON),
    ('ă', "a", mark::BREVE),
    ('ą', "a", mark::OGONEK),
    ('ć', "c", mark::ACUTE),
    ('ĉ', "c", mark::CIRCUMFLEX),
    ('ċ', "c", mark::DOT),
    ('č', "c", mark::CARON),
    ('ď', "d", mark::CARON),
    ('đ', "d", mark::SHORT_STROKE),
    ('ē', "e", mark::MACRON),
    ('ĕ', "e", mark::BREVE),
    ('ė', "e", mark::DOT),
    ('ę', "e", mark::OGONEK),
    ('ě', "e", mark::CARON),
    ('ĝ', "g", mark::CIRCUMFLEX),
    ('ğ', "g", mark::BREVE),
    ('ġ', "g", mark::DOT),
    ('ģ', "g", mark::CEDILLA),
    ('ĥ', "h", mark::CIRCUMFLEX),
    ('ħ', "h", mark::SHORT_STROKE),
    ('ĩ', "i", mark::TILDE),
    ('ī', "i", mark::MACRON),
    ('ĭ', "i", mark::BREVE),
    ('į', "i", mark::OGONEK),
    ('ĳ', "ij", 0),
    ('ĵ', "j", mark::CIRCUMFLEX),
    ('ķ', "k", mark::CEDILLA),
    ('ĺ', "l", mark::ACUTE),
    ('ļ', "l", mark::CEDILLA),
    ('ľ', "l", mark::CARON),
    ('ŀ', "l", mark::MIDDLE_DOT),
    ('ł', "l", mark::SHORT_STROKE),
    ('ń', "n", mark::ACUTE),
    ('ņ', "n", mark::CEDILLA),
    ('ň', "n", mark::CARON),
    ('ō', "o", mark::MACRON),
    ('ŏ', "o", mark::BREVE),
    ('ő', "o", mark::DOUBLE_ACUTE),
    ('œ', "oe", mark::LIGATURE),
    ('ŕ', "r", mark::ACUTE),
    ('ŗ', "r", mark::CEDILLA),
    ('ř', "r", mark::CARON),
    ('ś', "s", mark::ACUTE),
    ('ŝ', "s", mark::CIRCUMFLEX),
    ('ş', "s", mark::CEDILLA),
    ('š', "s", mark::CARON),
    ('ţ', "t", mark::CEDILLA),
    ('ť', "t", mark::CARON),
    ('ŧ', "t", mark::SHORT_STROKE),
    ('ũ', "u", mark::TILDE),
    ('ū', "u", mark::MACRON),
    ('ŭ', "u", mark::BREVE),
    ('ů', "u", mark::RING),
    ('ű', "u", mark::DOUBLE_ACUTE),
    ('ų', "u", mark::OGONEK),
    ('ŵ', "w", mark::CIRCUMFLEX),
    ('ŷ', "y", mark::CIRCUMFLEX),
    ('ź', "z", mark::ACUTE),
    ('ż', "z", mark::DOT),
    ('ž', "z", mark::CARON),
    ('ſ', "s", mark::LIGATURE),
];

/// The combining accents (U+0300…U+036F) as marks.
fn combining(c: char) -> u8 {
    match c {
        '\u{301}' => mark::ACUTE,
        '\u{300}' => mark::GRAVE,
        '\u{306}' => mark::BREVE,
        '\u{302}' => mark::CIRCUMFLEX,
        '\u{30C}' => mark::CARON,
        '\u{30A}' => mark::RING,
        '\u{308}' => mark::DIAERESIS,
        '\u{30B}' => mark::DOUBLE_ACUTE,
        '\u{303}' => mark::TILDE,
        '\u{307}' => mark::DOT,
        '\u{338}' => mark::LONG_STROKE,
        '\u{327}' => mark::CEDILLA,
        '\u{328}' => mark::OGONEK,
        '\u{304}' => mark::MACRON,
        '\u{335}' => mark::SHORT_STROKE,
        _ => mark::OTHER,
    }
}

/// A character's collation elements: none (ignorable), one, or up to
/// three (a ligature: two letters and its mark).
#[derive(Clone, Copy, Default)]
struct Elements {
    items: [Element; 3],
    len: u8,
}

impl Elements {
    fn one(e: Element) -> Elements {
        Elements {
            items: [e, Element::default(), Element::default()],
            len: 1,
        }
    }

    fn push(&mut self, e: Element) {
        self.items[self.len as usize] = e;
        self.len += 1;
    }

    fn as_slice(&self) -> &[Element] {
        &self.items[..self.len as usize]
    }
}

fn is_ignorable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}'
        )
}

fn elements(c: char) -> Elements {
    if c.is_ascii() {
        let primary = ASCII[c as usize];
        if primary == 0 {
            return Elements::default();
        }
        let tertiary = if c.is_ascii_uppercase() { UPPER } else { LOWER };
        return Elements::one(Element::base(primary, tertiary));
    }
    if is_ignorable(c) {
        return Elements::default();
    }
    if ('\u{300}'..='\u{36F}').contains(&c) {
        return Elements::one(Element::mark(combining(c)));
    }
    if c.is_whitespace() {
        return Elements::one(Element::base(ASCII[b' ' as usize], VARIANT));
    }
    if let Some(rank) = SYMBOLS.chars().position(|s| s == c) {
        return Elements::one(Element::base(SYMBOL + rank as u32, LOWER));
    }
    let lower = c.to_lowercase().next().unwrap_or(c);
    let case = if lower != c { UPPER } else { LOWER };
    match lower {
        'ı' => return Elements::one(Element::base(latin(b'i') + 1, case)),
        'ĸ' => return Elements::one(Element::base(latin(b'q') + 1, case)),
        'ŋ' => return Elements::one(Element::base(latin(b'n') + 1, case)),
        'þ' => return Elements::one(Element::base(latin(b'z') + 4, case)),
        'µ' => return elements('μ'),
        '¹' => return variant(b'1'),
        '²' => return variant(b'2'),
        '³' => return variant(b'3'),
        _ => {}
    }
    if let Ok(k) = DECOMPOSED.binary_search_by_key(&lower, |&(c, _, _)| c) {
        let (_, letters, accent) = DECOMPOSED[k];
        // A letter without an accent of its own is a variant (`ª`, `ĳ`).
        let tertiary = if accent == 0 && case == LOWER {
            VARIANT
        } else {
            case
        };
        let mut out = Elements::default();
        for (i, b) in letters.bytes().enumerate() {
            out.push(Element::base(ASCII[b as usize], tertiary));
            // A ligature's mark sits after its first letter, as ICU's.
            if i == 0 && accent != 0 {
                out.push(Element::mark(accent));
            }
        }
        return out;
    }
    if c.is_numeric() {
        return Elements::one(Element::base(DIGIT + 10 + c as u32, LOWER));
    }
    if c.is_alphabetic() {
        return Elements::one(Element::base(OTHER_LETTER + lower as u32, case));
    }
    Elements::one(Element::base(OTHER_SYMBOL + c as u32, LOWER))
}

fn variant(digit: u8) -> Elements {
    Elements::one(Element::base(ASCII[digit as usize], VARIANT))
}

fn weights(s: &str) -> impl Iterator<Item = Element> + '_ {
    s.chars().flat_map(|c| {
        let e = elements(c);
        (0..e.len as usize).map(move |i| e.as_slice()[i])
    })
}

/// R's comparison of two strings under ICU's root collation.
pub fn compare(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return compare_ascii(a.as_bytes(), b.as_bytes());
    }
    let primary = |s| weights(s).map(|e| e.primary).filter(|&p| p != 0);
    let secondary = |s| weights(s).map(|e| e.secondary);
    let tertiary = |s| weights(s).map(|e| e.tertiary);
    primary(a)
        .cmp(primary(b))
        .then_with(|| secondary(a).cmp(secondary(b)))
        .then_with(|| tertiary(a).cmp(tertiary(b)))
        .then_with(|| a.cmp(b))
}

/// [`compare`] for ASCII, the common case, without decomposing: no
/// accents, so the secondary pass cannot decide.
fn compare_ascii(a: &[u8], b: &[u8]) -> Ordering {
    fn weighed(s: &[u8]) -> impl Iterator<Item = &u8> {
        s.iter().filter(|&&c| ASCII[c as usize] != 0)
    }
    let by_primary = weighed(a)
        .map(|&c| ASCII[c as usize])
        .cmp(weighed(b).map(|&c| ASCII[c as usize]));
    if by_primary != Ordering::Equal {
        return by_primary;
    }
    // Equal primaries: the same letters in the same places, so the first
    // difference in case decides, lower case first.
    for (x, y) in weighed(a).zip(weighed(b)) {
        if x != y {
            return x.is_ascii_uppercase().cmp(&y.is_ascii_uppercase());
        }
    }
    a.cmp(b)
}

/// The distinct texts among `values` in collation order (a factor's
/// levels), and each value's 0-based place among them (its code; `None`
/// stays NA). Each value is hashed once and only the distinct texts are
/// collated: a factor of a million values often has a handful of levels.
/// `compare` orders different texts as different, so equal texts, and
/// only they, share a code.
pub fn factorise<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
) -> (Vec<&'a str>, Vec<Option<u32>>) {
    factorise_by(values, compare)
}

/// [`factorise`] in the order `cmp` gives (which must tell different
/// texts apart).
fn factorise_by<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
    cmp: fn(&str, &str) -> Ordering,
) -> (Vec<&'a str>, Vec<Option<u32>>) {
    let mut index: FastMap<&str, u32> = FastMap::default();
    let mut distinct: Vec<&str> = Vec::new();
    let first: Vec<Option<u32>> = values
        .map(|v| {
            v.map(|s| {
                *index.entry(s).or_insert_with(|| {
                    distinct.push(s);
                    (distinct.len() - 1) as u32
                })
            })
        })
        .collect();
    let mut by_order: Vec<u32> = (0..distinct.len() as u32).collect();
    by_order.sort_unstable_by(|&i, &j| cmp(distinct[i as usize], distinct[j as usize]));
    let mut code_of = vec![0u32; distinct.len()];
    for (code, &i) in by_order.iter().enumerate() {
        code_of[i as usize] = code as u32;
    }
    let levels = by_order.iter().map(|&i| distinct[i as usize]).collect();
    let codes = first
        .into_iter()
        .map(|i| i.map(|i| code_of[i as usize]))
        .collect();
    (levels, codes)
}

/// `sort(unique(x))` for text, as R gives it.
pub fn sorted_unique<'a>(values: impl Iterator<Item = &'a str>) -> Vec<String> {
    let (levels, _) = factorise(values.map(Some));
    levels.into_iter().map(str::to_string).collect()
}

/// Each text's rank in the order `cmp` gives ([`compare`], or bytes
/// for the C locale's), 0 for the first: equal texts share a rank.
/// Sorting by the ranks sorts by `cmp`.
pub fn ranks(values: &[String], cmp: fn(&str, &str) -> Ordering) -> Vec<u32> {
    let (_, codes) = factorise_by(values.iter().map(|s| Some(s.as_str())), cmp);
    codes.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| compare(a, b));
        v
    }

    /// R 4.2.2 with ICU, LANG=C.UTF-8, `sort()` of each set.
    #[test]
    fn follows_r_under_icu() {
        let cases: &[&[&str]] = &[
            &["_x", ".z", "10", "a", "b", "B"],
            &["a", "a b", "a-b", "ab", "aB", "Ab", "b", "B"],
            &["a_1", "a-1", "a.1", "a1", "a10", "a2"],
            &["e", "E", "é", "É", "f"],
            &["ab", "aB", "Ab", "AB"],
            &["ae", "AE", "aé", "æ"],
            &["a", "A", "á", "à", "ă", "â", "å", "ä", "Ä", "ã", "ą", "ā"],
            &["o", "ó", "ò", "ŏ", "ô", "ö", "ő", "õ", "ø", "ō"],
            &["c", "ć", "ĉ", "č", "ċ", "ç"],
            &["d", "ď", "đ", "ð"],
            &["l", "ĺ", "ľ", "ļ", "ł", "ŀ"],
            &["s", "ś", "š", "ş", "ſ", "ß"],
            &["ss", "Ss", "SS", "ß", "st"],
            &["i", "í", "ï", "ı", "j"],
            &["n", "ñ", "ŋ", "o"],
            &["z", "ź", "ž", "ż", "þ"],
            &["oe", "oé", "œ"],
            &["ij", "ĳ", "ik"],
            &["a", "ª", "b", "o", "º"],
            &["1", "¹", "2", "²", "3", "³"],
            &["øa", "ob"],
            &["ła", "lb"],
            &["ib", "ıa"],
            &["nb", "ŋa"],
            &["ða", "db", "ea"],
        ];
        for &case in cases {
            let mut shuffled: Vec<&str> = case.iter().rev().copied().collect();
            shuffled.rotate_left(case.len() / 2);
            assert_eq!(sorted(&shuffled), case, "{case:?}");
        }
    }

    /// R's `sort()` of every printable ASCII character and the symbols of
    /// Latin-1 and General Punctuation is [`SYMBOLS`], then the digits and
    /// letters.
    #[test]
    fn symbols_sort_in_the_tables_order() {
        let mut all: Vec<String> = SYMBOLS.chars().map(String::from).collect();
        all.extend(('0'..='9').map(String::from));
        for c in 'a'..='z' {
            all.push(c.to_string());
            all.push(c.to_ascii_uppercase().to_string());
        }
        let mut shuffled = all.clone();
        shuffled.reverse();
        shuffled.sort_by(|a, b| compare(a, b));
        assert_eq!(shuffled, all);
    }

    /// Characters of no weight (controls, the soft hyphen) are skipped,
    /// but strings differing only in them are still told apart.
    #[test]
    fn ignorables_weigh_nothing() {
        assert_eq!(sorted(&["ab", "a\u{1}b", "a b"]), ["a b", "a\u{1}b", "ab"]);
        assert_eq!(compare("a\u{AD}c", "ab"), Ordering::Greater);
        assert_ne!(compare("a\u{1}b", "ab"), Ordering::Equal);
    }

    /// The ASCII shortcut agrees with the general comparison.
    #[test]
    fn ascii_path_is_the_general_one() {
        let texts: Vec<String> = (0u8..128)
            .flat_map(|a| [b'a', b'B', b' ', b'_', 1].map(move |b| [a, b]))
            .map(|p| String::from_utf8(p.to_vec()).unwrap())
            .collect();
        for x in &texts {
            for y in &texts {
                let primary = |s| weights(s).map(|e| e.primary).filter(|&p| p != 0);
                let general = primary(x)
                    .cmp(primary(y))
                    .then_with(|| {
                        weights(x)
                            .map(|e| e.tertiary)
                            .cmp(weights(y).map(|e| e.tertiary))
                    })
                    .then_with(|| x.cmp(y));
                assert_eq!(
                    compare_ascii(x.as_bytes(), y.as_bytes()),
                    general,
                    "{x:?} {y:?}"
                );
            }
        }
    }

    #[test]
    fn ranks_follow_the_collation() {
        let v: Vec<String> = ["b", "B", "a", "b", "_"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(ranks(&v, compare), [2, 3, 1, 2, 0]);
        assert_eq!(ranks(&v, |a, b| a.cmp(b)), [3, 0, 2, 3, 1]);
        let levels = sorted_unique(v.iter().map(String::as_str));
        assert_eq!(levels, ["_", "a", "b", "B"]);
    }
}
