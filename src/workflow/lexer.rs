//! Tokens of R's expression syntax (the subset workflows use, plus enough of
//! the rest to say clearly what is not supported).
//!
//! Offsets here are byte offsets into the expression text; the parser maps
//! them to the file.

use super::names::is_name_char;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    /// An imaginary constant, `2i`: its imaginary part.
    Imag(f64),
    Str(String),
    /// A bare name, reserved words included (the parser tells them apart).
    Ident(String),
    /// A backtick-quoted name: never a reserved word.
    Quoted(String),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Colon,
    Tilde,
    Dollar,
    /// `%*%`
    MatMul,
    /// `%in%`
    In,
    /// `%%`
    Mod,
    /// `%/%`
    IntDiv,
    /// `%o%` (R's `outer`) or `%x%` (R's `kronecker`), as written.
    FnOp(&'static str),
    /// `|>`, R's pipe: `x |> f(y)` is `f(x, y)`.
    Pipe,
    /// `==`, `!=`, `<`, `>`, `<=`, `>=`, `&`, `&&`, `|`, `||` (as written).
    Logic(&'static str),
    /// `!`
    Bang,
    /// `\`, R 4.1's short `function`.
    Lambda,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Assign,
    /// `<-`
    LeftAssign,
    LBrace,
    RBrace,
    /// `;`, which ends a statement as a line break does.
    Semi,
    /// R syntax outside the workflow language (`<<-`, `->`, `|>`, `::`, …),
    /// kept as written for the error message.
    Unsupported(String),
    Eof,
}

impl Tok {
    /// How the token is named in "unexpected …" messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Num(_) | Tok::Imag(_) => "number".into(),
            Tok::Str(_) => "string".into(),
            Tok::Ident(n) => match n.as_str() {
                "TRUE" | "FALSE" | "T" | "F" | "NULL" | "NA" | "NaN" | "Inf" => {
                    format!("constant `{n}`")
                }
                "if" | "else" | "for" | "while" | "in" | "function" | "repeat" | "break"
                | "next" => format!("keyword `{n}`"),
                _ => format!("name `{n}`"),
            },
            Tok::Quoted(n) => format!("name `{n}`"),
            Tok::Eof => "end of expression".into(),
            Tok::Unsupported(s) => format!("`{s}`"),
            other => format!("`{}`", other.symbol()),
        }
    }

    fn symbol(&self) -> &'static str {
        match self {
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Caret => "^",
            Tok::Colon => ":",
            Tok::Tilde => "~",
            Tok::Dollar => "$",
            Tok::MatMul => "%*%",
            Tok::In => "%in%",
            Tok::Mod => "%%",
            Tok::IntDiv => "%/%",
            Tok::FnOp(op) => op,
            Tok::Pipe => "|>",
            Tok::Logic(op) => op,
            Tok::Bang => "!",
            Tok::Lambda => "\\",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Assign => "=",
            Tok::LeftAssign => "<-",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Semi => ";",
            _ => "?",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
    /// A line break stands between this token and the previous one; outside
    /// brackets that ends an R expression.
    pub newline_before: bool,
}

/// A lexical error: message and the byte range it concerns.
#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    pub message: String,
    pub start: usize,
    pub end: usize,
}

/// The tokens of `text`, ending with [`Tok::Eof`].
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let mut lx = Lexer {
        text,
        pos: 0,
        newline: false,
        out: Vec::new(),
    };
    lx.run()?;
    Ok(lx.out)
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    newline: bool,
    out: Vec<Token>,
}

/// The packages R attaches at start, whose functions `pkg::name` names.
const ATTACHED: &[&str] = &[
    "base",
    "stats",
    "utils",
    "methods",
    "graphics",
    "grDevices",
    "datasets",
];

const UNSUPPORTED: &[&str] = &["<<-", "->>", ":::", "->", "::", "?", "@"];

/// R's comparison and logical operators, longest first.
const LOGIC: &[&str] = &["<=", ">=", "==", "!=", "&&", "||", "<", ">", "&", "|"];

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.text[self.pos..].chars().nth(n)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.out.push(Token {
            tok,
            start,
            end: self.pos,
            newline_before: self.newline,
        });
        self.newline = false;
    }

    fn err<T>(&self, message: impl Into<String>, start: usize, end: usize) -> Result<T, LexError> {
        Err(LexError {
            message: message.into(),
            start,
            end,
        })
    }

    fn run(&mut self) -> Result<(), LexError> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                '\n' => {
                    self.newline = true;
                    self.pos += 1;
                }
                c if c.is_whitespace() => self.pos += c.len_utf8(),
                '#' => {
                    // A comment runs to the end of the line.
                    self.pos = self.text[start..]
                        .find('\n')
                        .map_or(self.text.len(), |i| start + i);
                }
                '0'..='9' => self.number()?,
                '.' if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) => self.number()?,
                // R 4.2's pipe placeholder, `d |> lm(y ~ x, data = _)`.
                '_' if !self.peek_at(1).is_some_and(is_name_char) => {
                    self.pos += 1;
                    self.push(Tok::Ident("_".into()), start);
                }
                c if c == '.' || c.is_alphabetic() => {
                    while self.peek().is_some_and(is_name_char) {
                        self.pos += self.peek().map_or(1, char::len_utf8);
                    }
                    let name = self.text[start..self.pos].to_string();
                    let rest = &self.text[self.pos..];
                    if rest.starts_with("::") && !rest.starts_with(":::") {
                        // `stats::filter` is `filter`: flowcast's functions
                        // are those of R's packages attached at start.
                        if !ATTACHED.contains(&name.as_str()) {
                            return self.err(
                                format!(
                                    "there is no package called \u{2018}{name}\u{2019}: \
                                     `pkg::name` reaches only R's packages attached at \
                                     start ({})",
                                    ATTACHED.join(", ")
                                ),
                                start,
                                self.pos + 2,
                            );
                        }
                        self.pos += 2;
                        continue;
                    }
                    self.push(Tok::Ident(name), start);
                }
                '"' | '\'' => self.string(c)?,
                '`' => {
                    let Some(len) = self.text[start + 1..].find('`') else {
                        return self.err("unterminated backtick name", start, start + 1);
                    };
                    self.pos = start + 1 + len + 1;
                    let name = self.text[start + 1..start + 1 + len].to_string();
                    if name.is_empty() {
                        return self.err("empty backtick name", start, self.pos);
                    }
                    self.push(Tok::Quoted(name), start);
                }
                '%' => self.percent_op()?,
                _ => self.punct(c)?,
            }
        }
        self.push(Tok::Eof, self.pos);
        Ok(())
    }

    fn punct(&mut self, c: char) -> Result<(), LexError> {
        let start = self.pos;
        let rest = &self.text[start..];
        if let Some(op) = UNSUPPORTED.iter().find(|op| rest.starts_with(**op)) {
            // R syntax outside the language, kept for a precise message.
            self.pos += op.len();
            self.push(Tok::Unsupported((*op).to_string()), start);
            return Ok(());
        }
        if rest.starts_with("|>") {
            self.pos += 2;
            self.push(Tok::Pipe, start);
            return Ok(());
        }
        if rest.starts_with("<-") {
            // `x<-1` is an assignment in R too, not `x < -1`.
            self.pos += 2;
            self.push(Tok::LeftAssign, start);
            return Ok(());
        }
        if let Some(op) = LOGIC.iter().find(|op| rest.starts_with(**op)) {
            self.pos += op.len();
            self.push(Tok::Logic(op), start);
            return Ok(());
        }
        let tok = match c {
            '!' => Tok::Bang,
            '\\' => Tok::Lambda,
            '+' => Tok::Plus,
            '-' => Tok::Minus,
            '*' if rest.starts_with("**") => {
                // R reads `**` as `^`.
                self.pos += 1;
                Tok::Caret
            }
            '*' => Tok::Star,
            '/' => Tok::Slash,
            '^' => Tok::Caret,
            ':' => Tok::Colon,
            '~' => Tok::Tilde,
            '$' => Tok::Dollar,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            ',' => Tok::Comma,
            '=' => Tok::Assign,
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            ';' => Tok::Semi,
            other => {
                return self.err(
                    format!("unexpected character `{}`", other.escape_debug()),
                    start,
                    start + other.len_utf8(),
                )
            }
        };
        self.pos += c.len_utf8();
        self.push(tok, start);
        Ok(())
    }

    fn percent_op(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        let rest = &self.text[start + 1..];
        let close = rest.find(['%', '\n']);
        let Some(len) = close.filter(|&i| rest.as_bytes()[i] == b'%') else {
            return self.err("unterminated `%` operator", start, start + 1);
        };
        self.pos = start + 1 + len + 1;
        let op = &self.text[start..self.pos];
        let tok = if op == "%*%" {
            Tok::MatMul
        } else if op == "%in%" {
            Tok::In
        } else if op == "%%" {
            Tok::Mod
        } else if op == "%/%" {
            Tok::IntDiv
        } else if op == "%o%" {
            Tok::FnOp("%o%")
        } else if op == "%x%" {
            Tok::FnOp("%x%")
        } else {
            Tok::Unsupported(op.to_string())
        };
        self.push(tok, start);
        Ok(())
    }

    /// R's numeric constants: decimal with optional fraction and exponent,
    /// hexadecimal, an `L` suffix for integers.
    fn number(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let digits = |mut i: usize, hex: bool| {
            while i < bytes.len()
                && (bytes[i].is_ascii_digit() || hex && bytes[i].is_ascii_hexdigit())
            {
                i += 1;
            }
            i
        };
        let mut i = start;
        let value;
        if bytes[i] == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X')) {
            let end = digits(i + 2, true);
            let text = &self.text[i + 2..end];
            i = end;
            value = if text.is_empty() {
                None
            } else {
                // Hexadecimal constants beyond u64 are still numbers in R.
                Some(
                    text.chars()
                        .filter_map(|d| d.to_digit(16))
                        .fold(0.0, |acc, d| acc * 16.0 + f64::from(d)),
                )
            };
        } else {
            i = digits(i, false);
            if bytes.get(i) == Some(&b'.') {
                i = digits(i + 1, false);
            }
            let mut ok = true;
            if matches!(bytes.get(i), Some(b'e' | b'E')) {
                let mut j = i + 1;
                if matches!(bytes.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                let end = digits(j, false);
                ok = end > j;
                i = end.max(j);
            }
            value = if ok {
                self.text[start..i].parse::<f64>().ok()
            } else {
                None
            };
        }
        if bytes.get(i) == Some(&b'L') {
            i += 1;
        }
        // A number runs into whatever name characters follow it: `2x`, `1.2.3`
        // and `1e` are one bad token, not a number and a name.
        let mut end = i;
        while let Some(c) = self.text[end..].chars().next().filter(|&c| is_name_char(c)) {
            end += c.len_utf8();
        }
        let text = &self.text[start..end];
        match value {
            Some(v) if end == i => {
                self.pos = end;
                self.push(Tok::Num(v), start);
                Ok(())
            }
            Some(v) if end == i + 1 && text.ends_with('i') => {
                self.pos = end;
                self.push(Tok::Imag(v), start);
                Ok(())
            }
            _ => self.err(format!("invalid number `{text}`"), start, end),
        }
    }

    /// R strings with R's escapes.
    fn string(&mut self, quote: char) -> Result<(), LexError> {
        let start = self.pos;
        let mut out = String::new();
        let mut chars = self.text[start + 1..].char_indices();
        loop {
            let Some((i, c)) = chars.next() else {
                return self.err("unterminated string", start, start + 1);
            };
            let at = start + 1 + i;
            if c == quote {
                self.pos = at + 1;
                break;
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, e)) = chars.next() else {
                return self.err("unterminated string", start, start + 1);
            };
            let simple = match e {
                'n' => Some('\n'),
                't' => Some('\t'),
                'r' => Some('\r'),
                'a' => Some('\u{7}'),
                'b' => Some('\u{8}'),
                'f' => Some('\u{c}'),
                'v' => Some('\u{b}'),
                '\\' | '"' | '\'' | '`' | ' ' => Some(e),
                '\n' => Some('\n'),
                _ => None,
            };
            if let Some(s) = simple {
                out.push(s);
                continue;
            }
            let (radix, max, braces) = match e {
                '0'..='7' => (8, 3, false),
                'x' => (16, 2, false),
                'u' => (16, 4, true),
                'U' => (16, 8, true),
                _ => {
                    return self.err(
                        format!("'\\{e}' is an unrecognized escape in a string"),
                        at,
                        at + 1 + e.len_utf8(),
                    )
                }
            };
            let rest = &self.text[at + 2..];
            let (digits, used) = if e.is_digit(8) {
                let n = 1 + rest
                    .chars()
                    .take(max - 1)
                    .take_while(|d| d.is_digit(8))
                    .count();
                (&self.text[at + 1..at + 1 + n], n - 1)
            } else if braces && rest.starts_with('{') {
                let n = rest.find('}').unwrap_or(0);
                (&rest[1..n.max(1)], n + 1)
            } else {
                let n = rest
                    .chars()
                    .take(max)
                    .take_while(|d| d.is_digit(radix))
                    .count();
                (&rest[..n], n)
            };
            let code = u32::from_str_radix(digits, radix).ok();
            match code.and_then(char::from_u32) {
                Some('\0') | None => {
                    return self.err(
                        format!("invalid escape `\\{e}{digits}` in a string"),
                        at,
                        at + 2 + used,
                    )
                }
                Some(ch) => out.push(ch),
            }
            for _ in 0..used {
                chars.next();
            }
        }
        self.push(Tok::Str(out), start);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        lex(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_follow_r() {
        for (text, v) in [
            ("12", 12.0),
            ("1.5", 1.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e-3", 1e-3),
            ("1E+2", 100.0),
            ("2L", 2.0),
            ("0x1F", 31.0),
            ("0XffL", 255.0),
        ] {
            assert_eq!(toks(text), vec![Tok::Num(v), Tok::Eof], "{text}");
        }
        // R's imaginary constants.
        assert_eq!(toks("3i"), vec![Tok::Imag(3.0), Tok::Eof]);
        assert_eq!(toks("1.5e1i"), vec![Tok::Imag(15.0), Tok::Eof]);
        for bad in ["1e", "0x", "2x", "1.2.3", "1e+", "3ix"] {
            let e = lex(bad).unwrap_err();
            assert!(e.message.starts_with("invalid number"), "{bad}: {e:?}");
            assert_eq!((e.start, e.end), (0, bad.len()), "{bad}");
        }
    }

    /// `stats::f` is `f`; another package is R's error.
    #[test]
    fn attached_packages_name_their_functions() {
        assert_eq!(
            toks("stats::filter"),
            vec![Tok::Ident("filter".into()), Tok::Eof]
        );
        let e = lex("dplyr::filter").unwrap_err();
        assert!(
            e.message
                .starts_with("there is no package called \u{2018}dplyr\u{2019}"),
            "{e:?}"
        );
        assert!(matches!(
            toks("a:::b")[1],
            Tok::Unsupported(ref op) if op == ":::"
        ));
    }

    #[test]
    fn strings_decode_r_escapes() {
        assert_eq!(
            toks(r#""a\tb\"c" 'it\'s' "\x41\101\u00e9\u{e9}""#),
            vec![
                Tok::Str("a\tb\"c".into()),
                Tok::Str("it's".into()),
                Tok::Str("AAéé".into()),
                Tok::Eof
            ]
        );
        let e = lex(r#"f("a\qb")"#).unwrap_err();
        assert_eq!((e.start, e.end), (4, 6));
        let e = lex("f('abc)").unwrap_err();
        assert_eq!((e.message.as_str(), e.start), ("unterminated string", 2));
    }

    #[test]
    fn operators_and_names() {
        assert_eq!(
            toks("t$p.value %*% x[[1]] ** 2 ~ .x"),
            vec![
                Tok::Ident("t".into()),
                Tok::Dollar,
                Tok::Ident("p.value".into()),
                Tok::MatMul,
                Tok::Ident("x".into()),
                Tok::LBracket,
                Tok::LBracket,
                Tok::Num(1.0),
                Tok::RBracket,
                Tok::RBracket,
                Tok::Caret,
                Tok::Num(2.0),
                Tok::Tilde,
                Tok::Ident(".x".into()),
                Tok::Eof
            ]
        );
        assert_eq!(
            toks("a %in% b == c"),
            vec![
                Tok::Ident("a".into()),
                Tok::In,
                Tok::Ident("b".into()),
                Tok::Logic("=="),
                Tok::Ident("c".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_and_newlines() {
        let t = lex("a # note\n+ b").unwrap();
        assert_eq!(t.len(), 4);
        assert!(t[1].newline_before);
        assert!(!t[2].newline_before);
    }
}
