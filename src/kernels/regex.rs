//! The part of R's extended regular expressions (TRE, `regexpr(extended =
//! TRUE)`) file patterns use: literals, `.`, escapes (`\.`, `\d`, `\w`,
//! `\s`), bracket expressions (`[a-z]`, `[^_]`, `[[:digit:]]`), anchors
//! `^` and `$`, groups with `|`, and the quantifiers `*`, `+`, `?` and
//! `{m,n}`. Matching backtracks, finding a match anywhere in the text, as
//! `grepl(pattern, x)` does.

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Regex {
    alt: Vec<Vec<Node>>,
}

#[derive(Clone, Debug)]
enum Node {
    Char(char),
    Any,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Start,
    End,
    Group(Vec<Vec<Node>>),
    Repeat {
        node: Box<Node>,
        min: usize,
        max: usize,
    },
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')];
const SPACE: &[(char, char)] = &[(' ', ' '), ('\t', '\r')];

fn named_class(name: &str) -> Option<Vec<(char, char)>> {
    Some(match name {
        "digit" => DIGIT.to_vec(),
        "alpha" => vec![('A', 'Z'), ('a', 'z')],
        "alnum" => vec![('0', '9'), ('A', 'Z'), ('a', 'z')],
        "upper" => vec![('A', 'Z')],
        "lower" => vec![('a', 'z')],
        "space" => SPACE.to_vec(),
        "punct" => vec![('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        _ => return None,
    })
}

impl Parser<'_> {
    fn alternation(&mut self, depth: usize) -> Result<Vec<Vec<Node>>, String> {
        if depth > 100 {
            return Err("pattern nests too deeply".into());
        }
        let mut alt = vec![Vec::new()];
        while let Some(&c) = self.chars.peek() {
            match c {
                '|' => {
                    self.chars.next();
                    alt.push(Vec::new());
                }
                ')' => break,
                _ => {
                    let node = self.atom(depth)?;
                    let node = self.quantified(node)?;
                    if let Some(s) = alt.last_mut() {
                        s.push(node);
                    }
                }
            }
        }
        Ok(alt)
    }

    fn atom(&mut self, depth: usize) -> Result<Node, String> {
        let c = self.chars.next().ok_or("unexpected end of pattern")?;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '(' => {
                let g = self.alternation(depth + 1)?;
                if self.chars.next() != Some(')') {
                    return Err("missing ')'".into());
                }
                Node::Group(g)
            }
            '[' => self.bracket()?,
            '\\' => match self.chars.next().ok_or("trailing backslash")? {
                'd' => Node::Class {
                    negated: false,
                    ranges: DIGIT.to_vec(),
                },
                'w' => Node::Class {
                    negated: false,
                    ranges: WORD.to_vec(),
                },
                's' => Node::Class {
                    negated: false,
                    ranges: SPACE.to_vec(),
                },
                'D' => Node::Class {
                    negated: true,
                    ranges: DIGIT.to_vec(),
                },
                c => Node::Char(c),
            },
            '*' | '+' | '?' => return Err(format!("nothing to repeat before '{c}'")),
            c => Node::Char(c),
        })
    }

    fn bracket(&mut self) -> Result<Node, String> {
        let negated = self.chars.peek() == Some(&'^');
        if negated {
            self.chars.next();
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.chars.next().ok_or("missing ']'")?;
            match c {
                ']' if !first => break,
                '[' if self.chars.peek() == Some(&':') => {
                    self.chars.next();
                    let name: String = self.chars.by_ref().take_while(|&c| c != ':').collect();
                    if self.chars.next() != Some(']') {
                        return Err("invalid character class".into());
                    }
                    ranges.extend(named_class(&name).ok_or("invalid character class")?);
                }
                c => {
                    let mut ahead = self.chars.clone();
                    if ahead.next() == Some('-') && ahead.peek().is_some_and(|&e| e != ']') {
                        self.chars.next();
                        let end = self.chars.next().ok_or("missing ']'")?;
                        if end < c {
                            return Err("invalid character range".into());
                        }
                        ranges.push((c, end));
                    } else {
                        ranges.push((c, c));
                    }
                }
            }
            first = false;
        }
        Ok(Node::Class { negated, ranges })
    }

    fn number(&mut self) -> Option<usize> {
        let mut s = String::new();
        while let Some(c) = self.chars.peek().filter(|c| c.is_ascii_digit()) {
            s.push(*c);
            self.chars.next();
        }
        s.parse().ok()
    }

    fn quantified(&mut self, node: Node) -> Result<Node, String> {
        let (min, max) = match self.chars.peek() {
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('?') => (0, 1),
            Some('{') => {
                self.chars.next();
                let min = self.number().unwrap_or(0);
                let max = if self.chars.peek() == Some(&',') {
                    self.chars.next();
                    self.number().unwrap_or(usize::MAX)
                } else {
                    min
                };
                if self.chars.next() != Some('}') || max < min {
                    return Err("invalid repetition count".into());
                }
                return Ok(Node::Repeat {
                    node: Box::new(node),
                    min,
                    max,
                });
            }
            _ => return Ok(node),
        };
        self.chars.next();
        Ok(Node::Repeat {
            node: Box::new(node),
            min,
            max,
        })
    }
}

impl Regex {
    /// Compiles `pattern`; the error says why it is not one.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let mut p = Parser {
            chars: pattern.chars().peekable(),
        };
        let alt = p.alternation(0)?;
        if p.chars.next().is_some() {
            return Err("unmatched ')'".into());
        }
        Ok(Regex { alt })
    }

    /// Whether the pattern matches somewhere in `text` (`grepl`).
    pub fn is_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        (0..=chars.len()).any(|start| {
            let mut budget = 100_000usize;
            alternation(&self.alt, &chars, start, &mut |_| true, &mut budget)
        })
    }
}

/// Matches one of `alt` at `pos`, then `rest`.
fn alternation(
    alt: &[Vec<Node>],
    text: &[char],
    pos: usize,
    rest: &mut dyn FnMut(usize) -> bool,
    budget: &mut usize,
) -> bool {
    alt.iter().any(|seq| sequence(seq, text, pos, rest, budget))
}

fn sequence(
    seq: &[Node],
    text: &[char],
    pos: usize,
    rest: &mut dyn FnMut(usize) -> bool,
    budget: &mut usize,
) -> bool {
    // A bound on the work, so a pathological pattern gives up rather than
    // running on: it is then no match.
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Some((first, tail)) = seq.split_first() else {
        return rest(pos);
    };
    let mut after = |p: usize, budget: &mut usize| sequence(tail, text, p, rest, budget);
    node(first, text, pos, &mut after, budget)
}

fn node(
    n: &Node,
    text: &[char],
    pos: usize,
    then: &mut dyn FnMut(usize, &mut usize) -> bool,
    budget: &mut usize,
) -> bool {
    let one = |ok: bool, then: &mut dyn FnMut(usize, &mut usize) -> bool, budget: &mut usize| {
        ok && then(pos + 1, budget)
    };
    match n {
        Node::Char(c) => one(text.get(pos) == Some(c), then, budget),
        Node::Any => one(pos < text.len(), then, budget),
        Node::Class { negated, ranges } => {
            let ok = text
                .get(pos)
                .is_some_and(|&c| ranges.iter().any(|&(a, b)| a <= c && c <= b) != *negated);
            one(ok, then, budget)
        }
        Node::Start => pos == 0 && then(pos, budget),
        Node::End => pos == text.len() && then(pos, budget),
        Node::Group(alt) => {
            // The continuation's work is bounded by its own share.
            let mut share = *budget;
            alternation(alt, text, pos, &mut |p| then(p, &mut share), budget)
        }
        Node::Repeat {
            node: inner,
            min,
            max,
        } => repeat(inner, *min, *max, 0, text, pos, then, budget),
    }
}

/// `inner` `count` times so far; greedy: one more first, then stop.
#[allow(clippy::too_many_arguments)]
fn repeat(
    inner: &Node,
    min: usize,
    max: usize,
    count: usize,
    text: &[char],
    pos: usize,
    then: &mut dyn FnMut(usize, &mut usize) -> bool,
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if count < max {
        let mut more = |p: usize, budget: &mut usize| {
            // An empty iteration would repeat forever.
            p != pos && repeat(inner, min, max, count + 1, text, p, then, budget)
        };
        if node(inner, text, pos, &mut more, budget) {
            return true;
        }
    }
    count >= min && then(pos, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, t: &str) -> bool {
        Regex::new(p).unwrap().is_match(t)
    }

    #[test]
    fn file_patterns_match_as_in_r() {
        assert!(m("\\.csv$", "data/a.csv"));
        assert!(!m("\\.csv$", "a.csv.bak"));
        assert!(!m("\\.csv$", "acsv"));
        assert!(m("^run[0-9]+\\.(csv|txt)$", "run12.txt"));
        assert!(!m("^run[0-9]+\\.(csv|txt)$", "run.txt"));
        assert!(m("[[:digit:]]{2}", "a12"));
        assert!(!m("[[:digit:]]{2}", "a1b2"));
        assert!(m("a.*b", "xxa---b"));
        assert!(m("", "anything"));
        assert!(Regex::new("(a").is_err());
        assert!(Regex::new("*a").is_err());
    }
}
