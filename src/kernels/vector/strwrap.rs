//! `strwrap(x, width, indent, exdent, prefix, simplify, initial)`: text
//! filled into lines of at most `width` display columns, as strwrap.R of
//! R 4.2.2 does it: paragraphs split at blank lines, words at single
//! blanks (so runs of blanks leave empty words, kept only after a
//! sentence's end, where they add a space), then a greedy fill.

use std::sync::OnceLock;

use regex::Regex;

use super::strtrim::display_width;
use super::text::as_character;
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::List;
use crate::kernels::{Ctx, KernelError, ShapeCtx, Type, Value};

/// `0.9 * getOption("width")` at R's default width of 80.
const DEFAULT_WIDTH: f64 = 72.0;

pub(super) fn strwrap_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if matches!(
        args.ty("x"),
        Some(Type::List { .. } | Type::Record { .. } | Type::Formula { .. })
    ) {
        return Err(args.error("x", "strwrap() needs a character vector"));
    }
    let simplify = args.ty("simplify").and_then(Type::const_scalar);
    let text = Type::Str {
        len: None,
        value: None,
    };
    Ok(match simplify {
        Some(0.0) => Type::List {
            len: args.ty("x").and_then(Type::len),
            elem: Box::new(text),
        },
        _ => text,
    })
}

/// R's `strsplit(s, split, perl = TRUE)` of one string: the text before
/// each match, and what follows the last match unless it is empty.
fn strsplit<'a>(s: &'a str, split: &Regex) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        match split.find(rest) {
            Some(m) if m.end() > 0 => {
                out.push(&rest[..m.start()]);
                rest = &rest[m.end()..];
            }
            Some(_) => {
                // An empty match takes one character (R's tokens of one).
                let c = rest.chars().next().map_or(1, char::len_utf8);
                out.push(&rest[..c]);
                rest = &rest[c..];
            }
            None => {
                out.push(rest);
                break;
            }
        }
    }
    out
}

fn paragraph_break() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new("\n[ \t\n]*\n").expect("a valid pattern"))
}

fn blank() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new("[ \t\n]").expect("a valid pattern"))
}

/// `grepl("[.?!][)\"']{0,1}$", word)`: the word ends a sentence.
fn ends_sentence(word: &str) -> bool {
    let b = word.as_bytes();
    let end = |c: u8| matches!(c, b'.' | b'?' | b'!');
    match b {
        [.., c] if end(*c) => true,
        [.., c, q] => end(*c) && matches!(q, b')' | b'"' | b'\''),
        _ => false,
    }
}

/// R's `a:b` of 1-based indices, as strwrap's `words[lower:upper]`.
fn range(a: usize, b: usize) -> Vec<usize> {
    if a <= b {
        (a..=b).collect()
    } else {
        (b..=a).rev().collect()
    }
}

fn single_string(args: &Args<&Value>, name: &str, default: &str) -> Result<String, KernelError> {
    match args.get(name) {
        None => Ok(default.to_string()),
        Some(v) => match as_character(v) {
            Some(s) if s.len() == 1 => Ok(s[0].clone().unwrap_or_else(|| "NA".into())),
            _ => Err(KernelError::new(format!(
                "strwrap's '{name}' must be one string (flowcast does not recycle it)"
            ))),
        },
    }
}

/// strrep(" ", n)'s count: R's "invalid 'times' value" for a negative one.
fn blanks(args: &Args<&Value>, name: &str) -> Result<(String, f64), KernelError> {
    let n = args.scalar_or(name, 0.0)?;
    // as.integer(n): NA past R's integers, which strrep refuses too.
    if n.is_nan() || !(0.0..2147483648.0).contains(&n) {
        return Err(KernelError::new("invalid 'times' value"));
    }
    crate::kernels::alloc::ensure_room(n)?;
    Ok((" ".repeat(n.trunc() as usize), n))
}

pub(super) fn strwrap_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = super::arg_or_null(args, "x");
    let texts =
        as_character(x).ok_or_else(|| KernelError::new("strwrap() needs a character vector"))?;
    let width = args.scalar_or("width", DEFAULT_WIDTH)?;
    let (indent_string, indent) = blanks(args, "indent")?;
    let (exdent_string, exdent) = blanks(args, "exdent")?;
    let prefix = single_string(args, "prefix", "")?;
    let mut initial = match args.get("initial") {
        None => prefix.clone(),
        Some(_) => single_string(args, "initial", "")?,
    };
    let simplify = args.bool_or("simplify", true)?;
    let mut y: Vec<Vec<String>> = Vec::new();
    for t in &texts {
        let t = t.as_deref().unwrap_or("NA");
        let mut yi: Vec<String> = Vec::new();
        for para in strsplit(t, paragraph_break()) {
            let mut words = strsplit(para, blank());
            let mut nc: Vec<usize> = words.iter().map(|w| display_width(w)).collect();
            if nc.contains(&0) {
                let keep: Vec<bool> = (0..words.len())
                    .map(|i| nc[i] != 0 || (i > 0 && ends_sentence(words[i - 1])))
                    .collect();
                let mut it = keep.iter();
                words.retain(|_| *it.next().unwrap_or(&true));
                let mut it = keep.iter();
                nc.retain(|_| *it.next().unwrap_or(&true));
            }
            if words.is_empty() {
                yi.push(String::new());
                yi.push(initial.clone());
                continue;
            }
            let mut current = 0usize;
            let mut lower = vec![1usize];
            let mut upper: Vec<usize> = Vec::new();
            let mut lens: Vec<f64> = nc
                .iter()
                .scan(0.0, |acc, &n| {
                    *acc += n as f64 + 1.0;
                    Some(*acc)
                })
                .collect();
            let mut first = true;
            let mut max_length = width - display_width(&initial) as f64 - indent;
            while !lens.is_empty() {
                let mut k = lens.iter().filter(|&&l| l <= max_length).count().max(1);
                if first {
                    first = false;
                    max_length = width - display_width(&prefix) as f64 - exdent;
                }
                current += k;
                upper.push(if nc[current - 1] == 0 {
                    current - 1
                } else {
                    current
                });
                if lens.len() > k {
                    if nc[current] == 0 {
                        current += 1;
                        k += 1;
                    }
                    lower.push(current + 1);
                }
                if lens.len() > k {
                    let base = lens[k - 1];
                    lens = lens[k..].iter().map(|l| l - base).collect();
                } else {
                    lens.clear();
                }
            }
            for (b, &up) in upper.iter().enumerate() {
                let mut line = if b == 0 {
                    format!("{initial}{indent_string}")
                } else {
                    format!("{prefix}{exdent_string}")
                };
                let picked: Vec<&str> = range(lower[b], up)
                    .into_iter()
                    // Index 0 (`words[0]`) is nothing in R.
                    .filter_map(|i| i.checked_sub(1).and_then(|i| words.get(i)).copied())
                    .collect();
                line.push_str(&picked.join(" "));
                yi.push(line);
            }
            initial = prefix.clone();
            yi.push(prefix.clone());
        }
        if yi.is_empty() {
            y.push(vec![String::new()]);
        } else {
            yi.pop();
            y.push(yi);
        }
    }
    Ok(if simplify {
        Value::Str(y.into_iter().flatten().collect())
    } else {
        Value::List(List {
            class: None,
            names: None,
            items: y.into_iter().map(Value::Str).collect(),
            row_names: None,
        })
    })
}
