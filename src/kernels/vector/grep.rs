//! Regular expressions: `grepl`, `grep`, `sub`, `gsub`, `regexpr`, `gregexpr`,
//! `regexec`, `regmatches`, `strsplit` and `trimws`, following R's grep.c (`do_grep`, `do_gsub`,
//! `do_regexpr`, `do_strsplit`) for NA, recycling, empty matches and the
//! replacement's back-references.
//!
//! Matching is the `regex` crate's. R's default syntax is POSIX extended
//! (TRE), so [`translate_ere`] rewrites what TRE reads differently: `\` is
//! literal inside brackets, `[:alpha:]` and the other classes are
//! Unicode-aware as glibc's are, a repetition operator with nothing to
//! repeat is dropped, `.` matches a newline, `{,n}` is `{0,n}` (TRE
//! matches up to n+1 there, a quirk flowcast does not copy). The
//! `regex` crate finds the leftmost-first match where POSIX asks for the
//! leftmost-longest, so an alternation whose earlier branch is a prefix
//! of a later one (`a|ab`) matches less than R; TRE's back-references in
//! a pattern (`(a)\1`) are refused with an error. A `perl = TRUE`
//! pattern the `regex` crate cannot hold (PCRE's look-ahead and
//! look-behind, back-references) is matched by `fancy-regex`, which
//! backtracks as PCRE does; a pattern neither compiles is R's "invalid
//! regular expression" (PCRE's own reason is only R's warning).

use regex::{Regex, RegexBuilder};

use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::names::bare;
use crate::kernels::value::{List, Named, NA};
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// glibc's `[:space:]` (no-break spaces are not space), for a bracket.
const SPACE: &str =
    r"\t\n\x0B\x0C\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}";

/// The set a POSIX class name stands for, to go inside a bracket.
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => r"\p{Alphabetic}",
        "digit" => "0-9",
        "alnum" => r"\p{Alphabetic}\p{Nd}",
        "upper" => r"\p{Uppercase}",
        "lower" => r"\p{Lowercase}",
        "space" => SPACE,
        "blank" => r" \t\x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}",
        "punct" => r"\p{P}\p{S}",
        "cntrl" => r"\p{Cc}",
        "xdigit" => "0-9A-Fa-f",
        "print" => r"[^\p{C}]",
        "graph" => r"[^\p{C}\p{White_Space}]",
        _ => return None,
    })
}

/// A character as a literal inside a Rust bracket.
fn class_literal(out: &mut String, c: char) {
    if matches!(c, '\\' | '[' | ']' | '^' | '-' | '&' | '~') {
        out.push('\\');
    }
    out.push(c);
}

/// A character as a literal outside brackets.
fn literal(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    out.push_str(&regex::escape(c.encode_utf8(&mut buf)));
}

/// The bracket expression starting after `[` at `i`: its Rust form and
/// where the pattern goes on.
fn bracket(p: &[char], mut i: usize) -> Result<(String, usize), String> {
    let mut out = String::from("[");
    if p.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    let mut first = true;
    loop {
        let c = *p.get(i).ok_or("Missing ']'")?;
        if c == ']' && !first {
            out.push(']');
            return Ok((out, i + 1));
        }
        first = false;
        if c == '[' {
            match p.get(i + 1) {
                Some(':') => {
                    let rest: String = p[i + 2..].iter().collect();
                    let end = rest.find(":]").ok_or("Missing ']'")?;
                    let name = &rest[..end];
                    out.push_str(posix_class(name).ok_or("Unknown character class name")?);
                    i += 2 + name.chars().count() + 2;
                    continue;
                }
                Some('=' | '.') => return Err("Unknown collating element".into()),
                _ => {}
            }
        }
        i += 1;
        if p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|&e| e != ']') {
            let end = p[i + 1];
            if end < c {
                return Err("Invalid character range".into());
            }
            class_literal(&mut out, c);
            out.push('-');
            class_literal(&mut out, end);
            i += 2;
        } else {
            class_literal(&mut out, c);
        }
    }
}

/// A POSIX extended regular expression as TRE reads it, in the `regex`
/// crate's syntax; the error is TRE's reason.
pub(super) fn translate_ere(pattern: &str) -> Result<String, String> {
    let p: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    // Where a repetition operator has nothing to repeat.
    let mut nothing_before = true;
    let mut depth = 0usize;
    while i < p.len() {
        let c = p[i];
        i += 1;
        let was_nothing = nothing_before;
        nothing_before = false;
        match c {
            '\\' => {
                let e = *p.get(i).ok_or("Trailing backslash")?;
                i += 1;
                match e {
                    '1'..='9' => return Err("back-references are not supported by flowcast".into()),
                    'd' => out.push_str("[0-9]"),
                    'D' => out.push_str("[^0-9]"),
                    's' => out.push_str(&format!("[{SPACE}]")),
                    'S' => out.push_str(&format!("[^{SPACE}]")),
                    'w' | 'W' | 'b' | 'B' => {
                        out.push('\\');
                        out.push(e);
                    }
                    '<' => out.push_str(r"\b{start}"),
                    '>' => out.push_str(r"\b{end}"),
                    'n' => out.push_str(r"\n"),
                    't' => out.push_str(r"\t"),
                    'r' => out.push_str(r"\r"),
                    'f' => out.push_str(r"\f"),
                    'v' => out.push_str(r"\v"),
                    'e' => out.push_str(r"\x1B"),
                    other => literal(&mut out, other),
                }
            }
            '[' => {
                let (class, next) = bracket(&p, i)?;
                out.push_str(&class);
                i = next;
            }
            // A repetition of nothing repeats the empty string.
            '*' | '+' | '?' if was_nothing => nothing_before = true,
            '{' if was_nothing => {
                let close = p[i..].iter().position(|&d| d == '}').ok_or("Missing '}'")?;
                i += close + 1;
                nothing_before = true;
            }
            '(' => {
                depth += 1;
                out.push('(');
                nothing_before = true;
            }
            ')' if depth == 0 => literal(&mut out, c),
            ')' => {
                depth -= 1;
                out.push(')');
            }
            '|' => {
                out.push('|');
                nothing_before = true;
            }
            '{' => {
                out.push('{');
                if p.get(i) == Some(&',') {
                    out.push('0');
                }
            }
            '^' => {
                out.push('^');
                nothing_before = was_nothing;
            }
            // Meta only in Rust's syntax.
            '#' | '&' | '~' | '-' | ' ' => literal(&mut out, c),
            c => out.push(c),
        }
    }
    // TRE's REG_EPAREN, in R's words (tre_error's messages).
    if depth > 0 {
        return Err("Missing ')'".into());
    }
    Ok(out)
}

/// A compiled pattern: `fixed = TRUE` text, or a regular expression.
pub(super) enum Pattern {
    Fixed(String),
    Regex(Regex),
    /// A `perl = TRUE` pattern with look-around or back-references.
    Fancy(fancy_regex::Regex),
}

fn invalid_regex(pattern: &str, reason: &str) -> KernelError {
    KernelError::new(format!(
        "invalid regular expression '{pattern}', reason '{reason}'"
    ))
}

impl Pattern {
    pub(super) fn new(
        pattern: &str,
        fixed: bool,
        perl: bool,
        ignore_case: bool,
    ) -> Result<Pattern, KernelError> {
        if fixed {
            return Ok(Pattern::Fixed(pattern.to_string()));
        }
        let source = if perl {
            pattern.to_string()
        } else {
            translate_ere(pattern).map_err(|r| invalid_regex(pattern, &r))?
        };
        let built = RegexBuilder::new(&source)
            .case_insensitive(ignore_case)
            // TRE's `.` matches a newline; PCRE's does not.
            .dot_matches_new_line(!perl)
            .build();
        match built {
            Ok(re) => Ok(Pattern::Regex(re)),
            Err(_) if perl => {
                // PCRE's syntax beyond the crate's: R's do_grep reports a
                // pattern PCRE refuses with no reason in the error.
                let source = if ignore_case {
                    format!("(?i){pattern}")
                } else {
                    pattern.to_string()
                };
                fancy_regex::Regex::new(&source)
                    .map(Pattern::Fancy)
                    .map_err(|_| {
                        KernelError::new(format!("invalid regular expression '{pattern}'"))
                    })
            }
            Err(e) => {
                // The crate's message shows the translated pattern; keep
                // only its reason.
                let text = e.to_string();
                let reason = text
                    .lines()
                    .rev()
                    .find_map(|l| l.trim().strip_prefix("error: "))
                    .unwrap_or_else(|| text.lines().next().unwrap_or("invalid"))
                    .to_string();
                Err(invalid_regex(pattern, &reason))
            }
        }
    }

    /// The first match starting at or after byte `start`, as byte offsets.
    pub(super) fn find_at(&self, s: &str, start: usize) -> Option<(usize, usize)> {
        match self {
            Pattern::Fixed(p) => s[start..]
                .find(p.as_str())
                .map(|i| (start + i, start + i + p.len())),
            Pattern::Regex(re) => re.find_at(s, start).map(|m| (m.start(), m.end())),
            // Past its backtracking limit fancy-regex gives up; PCRE would
            // report a match-limit error, taken here as no match.
            Pattern::Fancy(re) => re
                .find_from_pos(s, start)
                .ok()
                .flatten()
                .map(|m| (m.start(), m.end())),
        }
    }

    /// Like [`find_at`](Self::find_at), with groups 1 to 9 (`None`: not
    /// taking part, or no such group).
    fn captures_at(&self, s: &str, start: usize) -> Option<[Option<(usize, usize)>; 10]> {
        match self {
            Pattern::Fixed(_) => {
                let m = self.find_at(s, start)?;
                let mut g = [None; 10];
                g[0] = Some(m);
                Some(g)
            }
            Pattern::Regex(re) => {
                let c = re.captures_at(s, start)?;
                let mut g = [None; 10];
                for (k, slot) in g.iter_mut().enumerate() {
                    *slot = c.get(k).map(|m| (m.start(), m.end()));
                }
                Some(g)
            }
            Pattern::Fancy(re) => {
                let c = re.captures_from_pos(s, start).ok().flatten()?;
                let mut g = [None; 10];
                for (k, slot) in g.iter_mut().enumerate() {
                    *slot = c.get(k).map(|m| (m.start(), m.end()));
                }
                Some(g)
            }
        }
    }

    pub(super) fn is_match(&self, s: &str) -> bool {
        match self {
            Pattern::Fixed(p) => s.contains(p.as_str()),
            Pattern::Regex(re) => re.is_match(s),
            Pattern::Fancy(re) => re.is_match(s).unwrap_or(false),
        }
    }
}

/// `x` as text (`as.character`), or R's error for what is not.
fn text_arg(
    args: &Args<&Value>,
    name: &str,
    what: &str,
) -> Result<Vec<Option<String>>, KernelError> {
    as_character(args.get(name).unwrap_or(&Value::Null))
        .ok_or_else(|| KernelError::new(format!("invalid '{what}' argument")))
}

/// The pattern argument `name`: its first element (R warns when there
/// are more), `None` for NA.
fn first_string(
    args: &Args<&Value>,
    name: &str,
    ctx: &mut Ctx,
) -> Result<Option<String>, KernelError> {
    let v = text_arg(args, name, name)?;
    if v.is_empty() {
        return Err(KernelError::new(format!("invalid '{name}' argument")));
    }
    if v.len() > 1 {
        ctx.warn(format!(
            "argument '{name}' has length > 1 and only the first element will be used"
        ));
    }
    Ok(v.into_iter().next().flatten())
}

/// `fixed`, `perl` and `ignore.case` as `do_grep` reads them (NA is
/// FALSE), with its warnings for the combinations it ignores. `useBytes`
/// is accepted and changes nothing: flowcast's text is always UTF-8.
struct Options {
    fixed: bool,
    perl: bool,
    ignore_case: bool,
}

fn flag(args: &Args<&Value>, name: &str) -> Result<bool, KernelError> {
    match args.get(name) {
        None => Ok(false),
        Some(v) => match v.as_logicals() {
            Some(l) if !l.is_empty() => Ok(l[0] == Some(true)),
            _ => Err(KernelError::new(format!("invalid '{name}' argument"))),
        },
    }
}

fn options(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Options, KernelError> {
    let fixed = flag(args, "fixed")?;
    let mut perl = flag(args, "perl")?;
    let ignore_case = flag(args, "ignore.case")?;
    if fixed && ignore_case {
        ctx.warn("argument 'ignore.case = TRUE' will be ignored");
    }
    if fixed && perl {
        ctx.warn("argument 'perl = TRUE' will be ignored");
        perl = false;
    }
    Ok(Options {
        fixed,
        perl,
        ignore_case: ignore_case && !fixed,
    })
}

/// `grepl` and `grep`, as `do_grep`: an NA element does not match, an NA
/// pattern matches nothing and gives NA everywhere.
pub(super) fn grep_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let o = options(args, ctx)?;
    let value = args.func == "grep" && flag(args, "value")?;
    let invert = args.func == "grep" && flag(args, "invert")?;
    let pattern = first_string(args, "pattern", ctx)?;
    let x = text_arg(args, "x", "text")?;
    let Some(pattern) = pattern else {
        return Ok(if value {
            Value::Str(vec!["NA".into(); x.len()])
        } else if args.func == "grepl" {
            Value::Bool(vec![None; x.len()])
        } else {
            Value::Num(vec![crate::kernels::value::NA; x.len()])
        });
    };
    let pat = Pattern::new(&pattern, o.fixed, o.perl, o.ignore_case)?;
    let hits: Vec<bool> = x
        .iter()
        .map(|s| s.as_deref().is_some_and(|s| pat.is_match(s)))
        .collect();
    if args.func == "grepl" {
        return Ok(Value::logical(&hits));
    }
    let keep = (0..x.len()).filter(|&i| hits[i] != invert);
    Ok(if value {
        Value::Str(
            keep.map(|i| x[i].clone().unwrap_or_else(|| "NA".into()))
                .collect(),
        )
    } else {
        Value::Num(keep.map(|i| (i + 1) as f64).collect())
    })
}

/// `string_adj` (and `R_pcre_string_adj` with `perl`): the replacement
/// with `\1`..`\9` as the groups' text, `\U`, `\L` and `\E` switching case
/// under `perl`, any other escaped character as itself.
fn expand(out: &mut String, s: &str, groups: &[Option<(usize, usize)>; 10], rep: &str, perl: bool) {
    #[derive(Clone, Copy, PartialEq)]
    enum Case {
        Keep,
        Upper,
        Lower,
    }
    let mut case = Case::Keep;
    let mut chars = rep.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            None => {}
            Some(d @ '1'..='9') => {
                let k = d as usize - '0' as usize;
                if let Some((a, b)) = groups[k] {
                    let g = &s[a..b];
                    match case {
                        Case::Keep => out.push_str(g),
                        Case::Upper => out.push_str(&g.to_uppercase()),
                        Case::Lower => out.push_str(&g.to_lowercase()),
                    }
                }
            }
            Some('U') if perl => case = Case::Upper,
            Some('L') if perl => case = Case::Lower,
            Some('E') if perl => case = Case::Keep,
            Some(other) => out.push(other),
        }
    }
}

/// One element of `sub` or `gsub`, as `do_gsub`'s loop: after an empty
/// match one character is copied and the search goes on past it, and an
/// empty match right where the previous one ended is not replaced.
/// `None` when nothing matched.
pub(super) fn substitute(
    pat: &Pattern,
    rep: &str,
    s: &str,
    global: bool,
    perl: bool,
) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut offset = 0;
    let mut nmatch = 0;
    let mut last_end: Option<usize> = None;
    while let Some(groups) = pat.captures_at(s, offset) {
        let (so, eo) = groups[0]?;
        nmatch += 1;
        out.push_str(&s[offset..so]);
        if last_end.is_none_or(|l| eo > l) {
            match pat {
                Pattern::Fixed(_) => out.push_str(rep),
                Pattern::Regex(_) | Pattern::Fancy(_) => expand(&mut out, s, &groups, rep, perl),
            }
            last_end = Some(eo);
        }
        offset = eo;
        if offset >= s.len() || !global {
            break;
        }
        if eo == so {
            let c = s[offset..].chars().next()?;
            out.push(c);
            offset += c.len_utf8();
        }
    }
    if nmatch == 0 {
        return None;
    }
    out.push_str(&s[offset..]);
    Some(out)
}

/// `sub` and `gsub`.
pub(super) fn sub_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let o = options(args, ctx)?;
    let pattern = first_string(args, "pattern", ctx)?;
    let replacement = first_string(args, "replacement", ctx)?;
    let x = text_arg(args, "x", "text")?;
    let Some(pattern) = pattern else {
        return Ok(Value::Str(vec!["NA".into(); x.len()]));
    };
    if o.fixed && pattern.is_empty() {
        return Err(KernelError::new("zero-length pattern"));
    }
    let pat = Pattern::new(&pattern, o.fixed, o.perl, o.ignore_case)?;
    let global = args.func == "gsub";
    let rep = replacement.as_deref().unwrap_or("");
    Ok(Value::Str(
        x.into_iter()
            .map(|s| {
                let Some(s) = s else {
                    return "NA".to_string();
                };
                match substitute(&pat, rep, &s, global, o.perl) {
                    None => s,
                    Some(_) if replacement.is_none() => "NA".to_string(),
                    Some(r) => r,
                }
            })
            .collect(),
    ))
}

/// `regexpr`: where the first match starts, in characters from 1; -1
/// where there is none, NA for NA; the lengths of the matches (-1, NA)
/// ride along as R's `match.length` attribute, for `regmatches`.
pub(super) fn regexpr_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let o = options(args, ctx)?;
    let pattern = first_string(args, "pattern", ctx)?
        .ok_or_else(|| KernelError::new("invalid 'pattern' argument"))?;
    let x = text_arg(args, "text", "text")?;
    let pat = Pattern::new(&pattern, o.fixed, o.perl, o.ignore_case)?;
    let (starts, lengths): (Vec<f64>, Vec<f64>) = x
        .iter()
        .map(|s| match s {
            None => (NA, NA),
            Some(s) => pat.find_at(s, 0).map_or((-1.0, -1.0), |(a, b)| {
                (
                    (s[..a].chars().count() + 1) as f64,
                    s[a..b].chars().count() as f64,
                )
            }),
        })
        .unzip();
    Ok(match_data(starts, lengths))
}

/// Match starts with R's `match.length` attribute beside them.
fn match_data(starts: Vec<f64>, lengths: Vec<f64>) -> Value {
    Value::Named(Box::new(Named {
        match_length: Some(lengths),
        ..Named::plain(Value::Num(starts))
    }))
}

/// `gregexpr`: per element of `text`, where each match starts, in
/// characters from 1 (R's `gregexpr_Regexc`: the search goes on after
/// each match, one character on after an empty one, and `^` matches only
/// at the very start); -1 where there is none or the text is empty, NA
/// for NA; each with its `match.length`, as for regexpr.
pub(super) fn gregexpr_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let o = options(args, ctx)?;
    let pattern = first_string(args, "pattern", ctx)?
        .ok_or_else(|| KernelError::new("invalid 'pattern' argument"))?;
    let x = text_arg(args, "text", "text")?;
    let pat = Pattern::new(&pattern, o.fixed, o.perl, o.ignore_case)?;
    let items = x
        .iter()
        .map(|s| {
            let Some(s) = s else {
                return match_data(vec![NA], vec![NA]);
            };
            let mut starts = Vec::new();
            let mut lengths = Vec::new();
            let mut offset = 0;
            while offset < s.len() {
                let Some((a, b)) = pat.find_at(s, offset) else {
                    break;
                };
                starts.push((s[..a].chars().count() + 1) as f64);
                lengths.push(s[a..b].chars().count() as f64);
                offset = if b > a {
                    b
                } else {
                    a + s[a..].chars().next().map_or(1, char::len_utf8)
                };
            }
            if starts.is_empty() {
                starts.push(-1.0);
                lengths.push(-1.0);
            }
            match_data(starts, lengths)
        })
        .collect();
    Ok(Value::List(List::sequence(items)))
}

/// `regexec`: per element of `text`, the first match's start and each
/// group's (R's do_regexec: a group that took no part starts at 0 with
/// length 0), in characters from 1, with their `match.length`; -1 where
/// nothing matched, NA for NA. With `fixed` there are no groups.
pub(super) fn regexec_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let o = options(args, ctx)?;
    let pattern = first_string(args, "pattern", ctx)?
        .ok_or_else(|| KernelError::new("invalid 'pattern' argument"))?;
    let x = text_arg(args, "text", "text")?;
    let pat = Pattern::new(&pattern, o.fixed, o.perl, o.ignore_case)?;
    let groups = match &pat {
        Pattern::Fixed(_) => 0,
        Pattern::Regex(re) => re.captures_len().saturating_sub(1).min(9),
        Pattern::Fancy(re) => re.captures_len().saturating_sub(1).min(9),
    };
    let items = x
        .iter()
        .map(|s| {
            let Some(s) = s else {
                return match_data(vec![NA], vec![NA]);
            };
            match pat.captures_at(s, 0) {
                None => match_data(vec![-1.0], vec![-1.0]),
                Some(g) => {
                    let (starts, lengths) = g[..=groups]
                        .iter()
                        .map(|m| match m {
                            Some((a, b)) => (
                                (s[..*a].chars().count() + 1) as f64,
                                s[*a..*b].chars().count() as f64,
                            ),
                            None => (0.0, 0.0),
                        })
                        .unzip();
                    match_data(starts, lengths)
                }
            }
        })
        .collect();
    Ok(Value::List(List::sequence(items)))
}

/// A match data vector's starts and `match.length`, as `regmatches`
/// reads them (`None` when `m` carries none).
fn starts_and_lengths(m: &Value) -> Option<(Vec<f64>, Vec<f64>)> {
    match m {
        Value::Named(n) => {
            let ml = n.match_length.clone()?;
            let so = n.value.as_f64_slice()?.into_owned();
            (so.len() == ml.len()).then_some((so, ml))
        }
        _ => None,
    }
}

/// R's `substring(u, so, eo)` of one string, in characters: from `so`
/// (at least 1) to `eo`, empty when that is before `so`.
fn substring(chars: &[char], so: f64, eo: f64) -> Option<String> {
    if so.is_nan() || eo.is_nan() {
        return None;
    }
    let from = so.max(1.0);
    let to = eo.min(chars.len() as f64);
    if to < from {
        return Some(String::new());
    }
    Some(chars[(from as usize - 1)..(to as usize)].iter().collect())
}

fn no_match_data() -> KernelError {
    KernelError::new(
        "regmatches(): 'm' must be match data from regexpr, gregexpr or regexec \
         (flowcast keeps its match.length only there)",
    )
}

/// base R's regmatches(x, m, invert): the matched substrings of `x`
/// (`invert = TRUE`: the pieces between them; NA: both, interleaved), as
/// grep.R computes them with `substring`.
pub(super) fn regmatches_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let x_value = args.get("x").ok_or_else(|| missing("x"))?;
    let m = args.get("m").ok_or_else(|| missing("m"))?;
    let x = as_character(bare(x_value)).ok_or_else(|| KernelError::new("invalid 'x' argument"))?;
    let is_list = matches!(m, Value::List(_));
    let m_len = if is_list { m.len() } else { bare(m).len() };
    if x.len() != m_len {
        return Err(KernelError::new(
            "\u{2018}x\u{2019} and \u{2018}m\u{2019} must have the same length",
        ));
    }
    // invert: FALSE, TRUE, or NA (both).
    let invert = match args.get("invert").map(bare) {
        None => Some(false),
        Some(v) => match v.as_logicals() {
            Some(l) if !l.is_empty() => l[0],
            _ => Some(v.as_flag().unwrap_or(false)),
        },
    };
    let items: Vec<(Vec<f64>, Vec<f64>)> = if is_list {
        match m {
            Value::List(l) => l
                .items
                .iter()
                .map(|i| starts_and_lengths(i).ok_or_else(no_match_data))
                .collect::<Result<_, _>>()?,
            _ => Vec::new(),
        }
    } else {
        let (so, ml) = starts_and_lengths(m).ok_or_else(no_match_data)?;
        so.into_iter()
            .zip(ml)
            .map(|(s, l)| (vec![s], vec![l]))
            .collect()
    };
    let names = crate::kernels::names::names(x_value).map(<[String]>::to_vec);
    if !is_list && invert == Some(false) {
        // substring(x[ind], so, eo): x's names come along.
        let mut out = Vec::new();
        let mut kept = Vec::new();
        for (i, (u, (so, ml))) in x.iter().zip(&items).enumerate() {
            let (so, ml) = (so[0], ml[0]);
            if so.is_nan() || so <= -1.0 {
                continue;
            }
            let chars: Vec<char> = u.as_deref().unwrap_or("NA").chars().collect();
            out.push(substring(&chars, so, so + ml - 1.0).unwrap_or_else(|| "NA".into()));
            kept.push(i);
        }
        return Ok(match names {
            Some(n) => crate::kernels::names::named(
                Value::Str(out),
                kept.iter().filter_map(|&i| n.get(i).cloned()).collect(),
            ),
            None => Value::Str(out),
        });
    }
    let mut out = Vec::with_capacity(x.len());
    for (u, (so, ml)) in x.iter().zip(&items) {
        let chars: Vec<char> = u.as_deref().unwrap_or("NA").chars().collect();
        let n = so.len();
        let piece = |a: f64, b: f64| substring(&chars, a, b).unwrap_or_else(|| "NA".into());
        let single_na = n == 1 && so[0].is_nan();
        let single_none = n == 1 && so[0] == -1.0;
        let value = match invert {
            Some(false) => {
                if single_na || single_none || n == 0 {
                    Value::Str(Vec::new())
                } else {
                    Value::Str(
                        so.iter()
                            .zip(ml)
                            .map(|(&s, &l)| piece(s, s + l - 1.0))
                            .collect(),
                    )
                }
            }
            _ if single_na => Value::Str(vec!["NA".into()]),
            _ if single_none => Value::Str(vec![u.clone().unwrap_or_else(|| "NA".into())]),
            inv => {
                let eo: Vec<f64> = so.iter().zip(ml).map(|(&s, &l)| s + l - 1.0).collect();
                if n > 1 && (0..n - 1).any(|i| eo[i] >= so[i + 1]) {
                    let which = if inv.is_none() { "NA" } else { "TRUE" };
                    return Err(KernelError::new(format!(
                        "need non-overlapping matches for \u{2018}invert = {which}\u{2019}"
                    )));
                }
                let total = chars.len() as f64;
                let (beg, end): (Vec<f64>, Vec<f64>) = if inv.is_none() {
                    let mut beg = vec![1.0];
                    let mut end = Vec::new();
                    for i in 0..n {
                        beg.push(so[i]);
                        beg.push(eo[i] + 1.0);
                        end.push(so[i] - 1.0);
                        end.push(eo[i]);
                    }
                    end.push(total);
                    (beg, end)
                } else {
                    let mut beg = vec![1.0];
                    beg.extend(eo.iter().map(|e| e + 1.0));
                    let mut end: Vec<f64> = so.iter().map(|s| s - 1.0).collect();
                    end.push(total);
                    (beg, end)
                };
                Value::Str(beg.iter().zip(&end).map(|(&a, &b)| piece(a, b)).collect())
            }
        };
        out.push(value);
    }
    Ok(Value::List(List {
        class: None,
        names,
        items: out,
        row_names: None,
    }))
}

pub(super) fn regexec_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::List {
        len: text_like(args, "text")?,
        elem: Box::new(Type::num_unknown()),
    })
}

pub(super) fn regmatches_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    text_like(args, "x")?;
    Ok(Type::Any)
}

/// One element of `strsplit`, as `do_strsplit`: the text before each
/// match is a piece; an empty match (or one at the very start of what is
/// left) makes the next character a piece; the rest, if any, is the last.
/// The search starts afresh on what is left, so `^` matches there.
fn split_one(pat: &Pattern, s: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let Some((so, eo)) = pat.find_at(rest, 0) else {
            break;
        };
        if eo > 0 {
            pieces.push(rest[..so].to_string());
            rest = &rest[eo..];
        } else {
            let n = rest.chars().next().map_or(1, char::len_utf8);
            pieces.push(rest[..n].to_string());
            rest = &rest[n..];
        }
    }
    if !rest.is_empty() {
        pieces.push(rest.to_string());
    }
    pieces
}

/// `strsplit(x, split, fixed, perl)`: a list with one character vector
/// per element of `x`, `split` recycled along `x`; NA stays NA, an NA
/// split leaves the element whole, an empty one splits into characters.
pub(super) fn strsplit_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let fixed = flag(args, "fixed")?;
    let mut perl = flag(args, "perl")?;
    if fixed && perl {
        ctx.warn("argument 'perl = TRUE' will be ignored");
        perl = false;
    }
    let strings = |name: &str| match args.get(name) {
        Some(Value::Str(s)) => Ok(s
            .iter()
            .map(|s| (s != "NA").then(|| s.clone()))
            .collect::<Vec<_>>()),
        // A factor too: R's strsplit takes text only.
        _ => Err(KernelError::new("non-character argument")),
    };
    let x = strings("x")?;
    // split = NULL (or character(0)) splits into characters, as "" does.
    let mut split = match args.get("split") {
        Some(Value::Null) => Vec::new(),
        _ => strings("split")?,
    };
    if split.is_empty() {
        split.push(Some(String::new()));
    }
    // Each split compiled once, as R groups the elements by split.
    let patterns = split
        .iter()
        .map(|t| match t {
            Some(t) if !t.is_empty() => Pattern::new(t, fixed, perl, false).map(Some),
            _ => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let items = x
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let k = i % split.len();
            Value::Str(match (s, &split[k], &patterns[k]) {
                (None, _, _) => vec!["NA".into()],
                (Some(s), None, _) => vec![s.clone()],
                (Some(s), Some(_), None) => s.chars().map(String::from).collect(),
                (Some(s), Some(_), Some(p)) => split_one(p, s),
            })
        })
        .collect();
    Ok(Value::List(List::sequence(items)))
}

/// R's `match.arg(arg, choices)` for a single string.
pub(crate) fn match_arg<'a>(given: &str, choices: &[&'a str]) -> Result<&'a str, KernelError> {
    if let Some(c) = choices.iter().find(|c| **c == given) {
        return Ok(c);
    }
    let mut partial = choices
        .iter()
        .filter(|c| !given.is_empty() && c.starts_with(given));
    match (partial.next(), partial.next()) {
        (Some(c), None) => Ok(c),
        _ => {
            let quoted: Vec<String> = choices
                .iter()
                .map(|c| format!("\u{201c}{c}\u{201d}"))
                .collect();
            Err(KernelError::new(format!(
                "'arg' should be one of {}",
                quoted.join(", ")
            )))
        }
    }
}

/// A `match.arg` argument: absent or R's whole default vector is the
/// first choice.
pub(crate) fn choice<'a>(
    args: &Args<&Value>,
    name: &str,
    choices: &[&'a str],
) -> Result<&'a str, KernelError> {
    match args.get(name) {
        None => Ok(choices[0]),
        Some(Value::Str(s)) if s.len() == 1 => match_arg(&s[0], choices),
        Some(Value::Str(s)) if s.iter().map(String::as_str).eq(choices.iter().copied()) => {
            Ok(choices[0])
        }
        Some(Value::Str(s)) if s.len() > 1 => Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

/// `trimws(x, which, whitespace)`: R's, `sub` with `perl = TRUE` of
/// `^[ \t\r\n]+` and `[ \t\r\n]+$`.
pub(super) fn trimws_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let which = choice(args, "which", &["both", "left", "right"])?;
    let ws = match args.get("whitespace") {
        None => "[ \t\r\n]".to_string(),
        Some(_) => first_string_quiet(args, "whitespace")?,
    };
    let x = text_arg(args, "x", "text")?;
    let left = Pattern::new(&format!("^{ws}+"), false, true, false)?;
    let right = Pattern::new(&format!("{ws}+$"), false, true, false)?;
    let trim = |p: &Pattern, s: String| substitute(p, "", &s, false, true).unwrap_or(s);
    Ok(Value::Str(
        x.into_iter()
            .map(|s| match s {
                None => "NA".to_string(),
                Some(s) => match which {
                    "left" => trim(&left, s),
                    "right" => trim(&right, s),
                    _ => trim(&right, trim(&left, s)),
                },
            })
            .collect(),
    ))
}

/// The first string of argument `name`, which must not be NA.
fn first_string_quiet(args: &Args<&Value>, name: &str) -> Result<String, KernelError> {
    text_arg(args, name, name)?
        .into_iter()
        .next()
        .flatten()
        .ok_or_else(|| KernelError::new(format!("invalid '{name}' argument")))
}

/// The shape of a string function whose value is as long as `x`.
fn text_like(args: &Args<Type>, name: &str) -> Result<Option<usize>, ArgError> {
    match args.ty(name) {
        None => Ok(Some(0)),
        Some(Type::Record { .. } | Type::Formula { .. }) => {
            Err(args.error(name, format!("invalid '{name}' argument")))
        }
        Some(t) => Ok(t.len()),
    }
}

pub(super) fn grepl_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::logical(text_like(args, "x")?))
}

pub(super) fn grep_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    text_like(args, "x")?;
    let value = args
        .ty("value")
        .and_then(Type::const_scalar)
        .is_some_and(|v| v != 0.0);
    Ok(if value {
        Type::Str {
            len: None,
            value: None,
        }
    } else {
        Type::num_unknown()
    })
}

pub(super) fn sub_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: text_like(args, "x")?,
        value: None,
    })
}

pub(super) fn regexpr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Num {
        len: text_like(args, "text")?,
        value: None,
    })
}

pub(super) fn gregexpr_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::List {
        len: text_like(args, "text")?,
        elem: Box::new(Type::num_unknown()),
    })
}

pub(super) fn strsplit_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "split"] {
        match args.ty(name) {
            Some(Type::Str { .. } | Type::Any) => {}
            Some(Type::Null) if name == "split" => {}
            _ => return Err(args.error(name, "non-character argument")),
        }
    }
    Ok(Type::List {
        len: args.ty("x").and_then(Type::len),
        elem: Box::new(Type::Str {
            len: None,
            value: None,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(p: &str) -> Pattern {
        Pattern::new(p, false, false, false).unwrap()
    }

    fn gsub(p: &str, r: &str, s: &str) -> String {
        substitute(&re(p), r, s, true, false).unwrap_or_else(|| s.to_string())
    }

    #[test]
    fn posix_syntax_reads_as_tre_reads_it() {
        assert!(re("[\\d]").is_match("\\"));
        assert!(!re("[\\d]").is_match("1"));
        assert!(re("[[:alpha:]]").is_match("é"));
        assert!(re("[]a]").is_match("]"));
        assert!(!re("[^]a]").is_match("]"));
        assert!(re("*a").is_match("*a"));
        assert_eq!(gsub("*", "+", "a*b"), "+a+*+b+");
        assert_eq!(gsub("{2}", "X", "aa"), "XaXaX");
        assert!(re("a)").is_match("a)"));
        assert!(re("a{,2}").is_match("aa"));
        assert!(re("a\\nb").is_match("a\nb"));
        assert!(re(".").is_match("\n"));
        assert!(re("[a&&b]").is_match("&"));
        assert!(!re("[[:space:]]").is_match("\u{a0}"));
        for bad in [
            "(",
            "[",
            "a{",
            "\\",
            "[[:foo:]]",
            "[z-a]",
            "[[=a=]]",
            "(a)\\1",
        ] {
            assert!(Pattern::new(bad, false, false, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn empty_matches_advance_as_in_r() {
        assert_eq!(gsub("", "-", "abc"), "-a-b-c-");
        assert_eq!(gsub("x*", "-", "abc"), "-a-b-c-");
        assert_eq!(gsub("b*", "-", "abc"), "-a-c-");
        assert_eq!(gsub("(a)(b)?", "[\\1\\2]", "abac"), "[ab][a]c");
        assert_eq!(gsub("(a)", "\\0\\0", "abc"), "00bc");
        assert_eq!(gsub("a", "\\\\", "banana"), "b\\n\\n\\");
        assert_eq!(gsub("é", "e", "café résumé"), "cafe resume");
        let split = |p: &str, s: &str| split_one(&re(p), s);
        assert_eq!(split("b*", "abc"), ["a", "", "c"]);
        assert_eq!(split(".", "a.b"), ["", "", ""]);
        assert_eq!(split(" ", "  a  b  "), ["", "", "a", "", "b", ""]);
        assert_eq!(split("^a", "aaa"), ["", "", ""]);
    }
}
