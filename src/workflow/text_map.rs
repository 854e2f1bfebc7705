//! From offsets in a decoded TOML string back to offsets in the file.
//!
//! An expression is parsed from the *decoded* string (escapes resolved, the
//! newline after `"""` dropped, line-ending backslashes folded), but its spans
//! must point into the file, so every decoded byte remembers the file bytes
//! it came from.

use crate::diagnostic::Span;

/// Maps byte offsets of a text to spans of the file it was taken from.
#[derive(Clone, Debug)]
pub struct TextMap {
    kind: MapKind,
    /// The file offset of the end of the text (a string's closing quote):
    /// where "unexpected end of expression" points.
    end: usize,
}

#[derive(Clone, Debug)]
enum MapKind {
    /// The text is the file slice starting at this offset.
    Offset(usize),
    /// For each decoded byte, the file range that produced it.
    Table(Vec<(usize, usize)>),
    /// Every byte maps to this one span (a fallback that stays correct, if
    /// imprecise).
    Whole(Span),
}

impl TextMap {
    /// The text was copied verbatim from the file, starting at `base`.
    pub fn identity(base: usize, len: usize) -> TextMap {
        TextMap {
            kind: MapKind::Offset(base),
            end: base + len,
        }
    }

    /// Every byte of the text is attributed to `span` as a whole.
    pub fn whole(span: Span) -> TextMap {
        TextMap {
            kind: MapKind::Whole(span),
            end: span.end,
        }
    }

    /// The file span of the text's bytes `start..end`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        match &self.kind {
            MapKind::Offset(base) => {
                let end = end.max(start);
                Span::new((base + start).min(self.end), (base + end).min(self.end))
            }
            MapKind::Table(ranges) => {
                if start >= ranges.len() {
                    return Span::new(self.end, self.end);
                }
                let s = ranges[start].0;
                let e = if end > start {
                    ranges[end.min(ranges.len()) - 1].1
                } else {
                    s
                };
                Span::new(s, e.max(s))
            }
            MapKind::Whole(span) => *span,
        }
    }

    /// The empty span at the end of the text.
    pub fn end(&self) -> Span {
        Span::new(self.end, self.end)
    }
}

/// Decodes the TOML string token `raw` (quotes included), which starts at
/// file offset `base`, into its value and the map of every value byte back
/// to the file. `None` for a token this decoder does not understand (the
/// caller then falls back to pointing at the whole token).
pub fn decode_toml_string(raw: &str, base: usize) -> Option<(String, TextMap)> {
    let (open, close, basic) = if raw.starts_with("\"\"\"") {
        (3, 3, true)
    } else if raw.starts_with("'''") {
        (3, 3, false)
    } else if raw.starts_with('"') {
        (1, 1, true)
    } else if raw.starts_with('\'') {
        (1, 1, false)
    } else {
        return None;
    };
    let delim = &raw[..open];
    if raw.len() < open + close || !raw.ends_with(delim) {
        return None;
    }
    let mut start = open;
    if open == 3 {
        // A newline right after the opening delimiter is not part of the value.
        if raw[start..].starts_with('\n') {
            start += 1;
        } else if raw[start..].starts_with("\r\n") {
            start += 2;
        }
    }
    let stop = raw.len() - close;
    if stop < start {
        return None;
    }
    let body = &raw[start..stop];
    let mut out = String::with_capacity(body.len());
    let mut ranges = Vec::with_capacity(body.len());
    let mut push = |out: &mut String, c: char, from: usize, to: usize| {
        out.push(c);
        for _ in 0..c.len_utf8() {
            ranges.push((base + from, base + to));
        }
    };
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = start + i;
        if c != '\\' || !basic {
            push(&mut out, c, at, at + c.len_utf8());
            continue;
        }
        let (_, e) = chars.next()?;
        let decoded = match e {
            'b' => '\u{8}',
            'e' => '\u{1b}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            '\\' => '\\',
            '"' => '"',
            'x' | 'u' | 'U' => {
                let digits = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v = 0u32;
                for _ in 0..digits {
                    let (_, d) = chars.next()?;
                    v = v.checked_mul(16)?.checked_add(d.to_digit(16)?)?;
                }
                char::from_u32(v)?
            }
            ' ' | '\t' | '\n' | '\r' if open == 3 => {
                // Line-ending backslash: drop it and all whitespace after it.
                while let Some(&(_, w)) = chars.peek() {
                    if matches!(w, ' ' | '\t' | '\n' | '\r') {
                        chars.next();
                    } else {
                        break;
                    }
                }
                continue;
            }
            _ => return None,
        };
        let next = chars.peek().map_or(body.len(), |&(j, _)| j);
        push(&mut out, decoded, at, start + next);
    }
    Some((
        out,
        TextMap {
            kind: MapKind::Table(ranges),
            end: base + stop,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_text(raw: &str, base: usize, span: Span) -> String {
        raw[span.start - base..span.end - base].to_string()
    }

    #[test]
    fn basic_string_escapes_map_to_their_source() {
        let raw = r#""f(\"a\\tb\", x\u00e9)""#;
        let (s, map) = decode_toml_string(raw, 10).unwrap();
        assert_eq!(s, "f(\"a\\tb\", xé)");
        // The decoded `"` before `a` came from `\"`.
        assert_eq!(file_text(raw, 10, map.span(2, 3)), "\\\"");
        assert_eq!(file_text(raw, 10, map.span(3, 4)), "a");
        // `é` (two bytes) came from the six-character escape.
        let e = s.find('é').unwrap();
        assert_eq!(file_text(raw, 10, map.span(e, e + 2)), "\\u00e9");
        assert_eq!(map.end(), Span::new(10 + raw.len() - 1, 10 + raw.len() - 1));
    }

    #[test]
    fn literal_strings_keep_backslashes() {
        let raw = r"'a\n'";
        let (s, map) = decode_toml_string(raw, 0).unwrap();
        assert_eq!(s, "a\\n");
        assert_eq!(map.span(1, 3), Span::new(2, 4));
    }

    #[test]
    fn multi_line_strings_drop_the_first_newline_and_fold_backslashes() {
        let raw = "\"\"\"\nmean( \\\n   a)\"\"\"";
        let (s, map) = decode_toml_string(raw, 0).unwrap();
        assert_eq!(s, "mean( a)");
        let a = s.find('a').unwrap();
        assert_eq!(&raw[map.span(a, a + 1).start..map.span(a, a + 1).end], "a");
        let raw = "'''\r\nx\n y'''";
        let (s, map) = decode_toml_string(raw, 0).unwrap();
        assert_eq!(s, "x\n y");
        assert_eq!(map.span(3, 4), Span::new(8, 9));
    }

    #[test]
    fn quotes_before_the_closing_delimiter_belong_to_the_value() {
        let (s, _) = decode_toml_string("\"\"\"a\"\"\"\"\"", 0).unwrap();
        assert_eq!(s, "a\"\"");
    }
}
