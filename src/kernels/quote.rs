//! Names and quoting of strings: `make.names` (`do_makenames` of R's
//! src/main/character.c), `make.unique` (`do_makeunique` of unique.c),
//! `abbreviate` (base's character.R over character.c's `stripchars` and
//! `wstripchars`), `shQuote` (utils.R), `sQuote`/`dQuote` (character.R, as
//! in a UTF-8 locale), `noquote` (print.R) and `encodeString`
//! (New-Internal.R over `EncodeString` of printutils.c).

use std::collections::HashSet;

use super::args::{ArgError, Args};
use super::factor::as_text;
use super::names::{bare, named, with_attr};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "make.names",
        params: &[req("names"), opt("unique"), opt("allow_")],
        random: false,
        shape: text_of_first,
        eval: make_names_eval,
    },
    Kernel {
        name: "make.unique",
        params: &[req("names"), opt("sep")],
        random: false,
        shape: text_of_first,
        eval: make_unique_eval,
    },
    Kernel {
        name: "abbreviate",
        params: &[
            req("names.arg"),
            opt("minlength"),
            opt("use.classes"),
            opt("dot"),
            opt("strict"),
            opt("method"),
            opt("named"),
        ],
        random: false,
        shape: text_of_first,
        eval: abbreviate_eval,
    },
    Kernel {
        name: "shQuote",
        params: &[req("string"), opt("type")],
        random: false,
        shape: text_of_first,
        eval: sh_quote_eval,
    },
    Kernel {
        name: "sQuote",
        params: &[req("x"), opt("q")],
        random: false,
        shape: text_of_first,
        eval: quote_eval,
    },
    Kernel {
        name: "dQuote",
        params: &[req("x"), opt("q")],
        random: false,
        shape: text_of_first,
        eval: quote_eval,
    },
    Kernel {
        name: "noquote",
        params: &[req("obj"), opt("right")],
        random: false,
        shape: noquote_shape,
        eval: noquote_eval,
    },
    Kernel {
        name: "encodeString",
        params: &[
            req("x"),
            opt("width"),
            opt("quote"),
            opt("na.encode"),
            opt("justify"),
        ],
        random: false,
        shape: text_of_first,
        eval: encode_string_eval,
    },
];

/// A character vector as long as the first argument.
fn text_of_first(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let first = args.params()[0].name;
    let x = args.ty(first).cloned().unwrap_or(Type::Null);
    if matches!(
        x,
        Type::List { .. } | Type::Record { .. } | Type::Formula { .. }
    ) {
        return Err(args.error(
            first,
            format!(
                "{}() needs a character vector, not {}",
                args.func,
                x.describe()
            ),
        ));
    }
    Ok(Type::Str {
        len: x.len(),
        value: None,
    })
}

fn noquote_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(args.ty("obj").cloned().unwrap_or(Type::Any))
}

/// `as.character(x)`, NA as `None`.
fn texts(args: &Args<&Value>, name: &str) -> Result<Vec<Option<String>>, KernelError> {
    let x = args.get(name).unwrap_or(&Value::Null);
    match bare(x) {
        Value::Null => Ok(Vec::new()),
        v => as_text(v).ok_or_else(|| {
            KernelError::new(format!(
                "{}() needs a character vector, not {}",
                args.func,
                x.type_name()
            ))
        }),
    }
}

/// The strings as R's C code reads them: NA as its text "NA".
fn plain(v: Vec<Option<String>>) -> Vec<String> {
    v.into_iter()
        .map(|s| s.unwrap_or_else(|| "NA".into()))
        .collect()
}

fn flag(args: &Args<&Value>, name: &str, default: bool, msg: &str) -> Result<bool, KernelError> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => v.as_flag().ok_or_else(|| KernelError::new(msg.to_string())),
    }
}

const RESERVED: &[&str] = &[
    "if",
    "else",
    "repeat",
    "while",
    "function",
    "for",
    "next",
    "break",
    "TRUE",
    "FALSE",
    "NULL",
    "Inf",
    "NaN",
    "NA",
    "NA_integer_",
    "NA_real_",
    "NA_character_",
    "NA_complex_",
    "in",
];

/// `isValidName` of gram.y for a name `do_makenames` has already made of
/// letters, digits, dots and underscores: a reserved word is not valid
/// (`...` and `..1` are).
fn is_valid_name(s: &str) -> bool {
    !RESERVED.contains(&s)
}

/// `do_makenames` for one string, in a UTF-8 locale.
fn make_name(this: &str, allow_: bool) -> String {
    let mut chars = this.chars();
    let need_prefix = match chars.next() {
        None => true,
        Some('.') => chars.next().is_some_and(|c| c.is_ascii_digit()),
        Some(c) => !c.is_alphabetic(),
    };
    let mut tmp = String::with_capacity(this.len() + 1);
    if need_prefix {
        tmp.push('X');
    }
    tmp.extend(this.chars().map(|c| {
        if c == '.' || (allow_ && c == '_') || c.is_alphanumeric() {
            c
        } else {
            '.'
        }
    }));
    if !is_valid_name(&tmp) {
        tmp.push('.');
    }
    tmp
}

fn make_names_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let names = plain(texts(args, "names")?);
    let allow_ = flag(args, "allow_", true, "invalid 'allow_' value")?;
    let unique = flag(args, "unique", false, "invalid 'unique' argument")?;
    Ok(Value::Str(make_names(&names, allow_, unique)))
}

/// R's `make.names`: each name made syntactic, then, with `unique`, the
/// repeats numbered, the names left unchanged keeping theirs. What
/// `data.frame`, `read.csv` and `stack` name columns with (`unique =
/// TRUE`).
pub fn make_names(names: &[String], allow_: bool, unique: bool) -> Vec<String> {
    let mut names2: Vec<String> = names.iter().map(|s| make_name(s, allow_)).collect();
    if unique {
        // o <- order(names != names2): the unchanged names first, stably.
        let mut o: Vec<usize> = (0..names.len()).collect();
        o.sort_by_key(|&i| names[i] != names2[i]);
        let ordered: Vec<String> = o.iter().map(|&i| names2[i].clone()).collect();
        for (k, s) in make_unique(&ordered, ".").into_iter().enumerate() {
            names2[o[k]] = s;
        }
    }
    names2
}

/// `do_makeunique`: each later duplicate gets `sep` and the first count
/// from its first occurrence's cache that no name in use has; the names
/// in use are every first occurrence and those already made.
pub fn make_unique(names: &[String], sep: &str) -> Vec<String> {
    let n = names.len();
    let mut ans = names.to_vec();
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut dup = vec![None; n];
    for (i, s) in names.iter().enumerate() {
        match first.get(s.as_str()) {
            Some(&j) => dup[i] = Some(j),
            None => {
                first.insert(s.as_str(), i);
            }
        }
    }
    let mut used: HashSet<String> = first.keys().map(|s| s.to_string()).collect();
    let mut cnts = vec![1usize; n];
    for (i, d) in dup.iter().enumerate().skip(1) {
        let Some(dp) = *d else { continue };
        let mut cnt = cnts[dp];
        let mut buf = format!("{}{sep}{cnt}", names[i]);
        while cnt < n {
            buf = format!("{}{sep}{cnt}", names[i]);
            if !used.contains(&buf) {
                break;
            }
            cnt += 1;
        }
        used.insert(buf.clone());
        ans[i] = buf;
        cnts[dp] = cnt + 1;
    }
    ans
}

fn make_unique_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let names = match args.get("names").map(bare) {
        Some(Value::Str(s)) => s.clone(),
        _ => return Err(KernelError::new("'names' must be a character vector")),
    };
    let sep = match args.get("sep").map(bare) {
        None => ".".to_string(),
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        Some(_) => return Err(KernelError::new("'sep' must be a character string")),
    };
    Ok(Value::Str(make_unique(&names, &sep)))
}

/// Lower-case vowels in English and their accented forms, as
/// `wstripchars` lists them (with R's '.', 0x2e, among them).
const VOWELS: &[u32] = &[
    0x61, 0x65, 0x69, 0x6f, 0x75, 0xe0, 0xe1, 0x2e, 0xe3, 0xe4, 0xe5, 0xe8, 0xe9, 0xea, 0xeb, 0xec,
    0xed, 0xee, 0xef, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0x101, 0x103,
    0x105, 0x113, 0x115, 0x117, 0x118, 0x11b, 0x129, 0x12b, 0x12d, 0x12f, 0x131, 0x14d, 0x14f,
    0x151, 0x169, 0x16b, 0x16d, 0x16f, 0x171, 0x173,
];

/// C's `isspace` in the C locale (and `iswspace` of what R writes).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// One of stripchars' passes: whether the character at a position goes.
type Drops<'a> = dyn Fn(&Vec<char>, usize) -> bool + 'a;

/// `stripchars` (ASCII) and `wstripchars` (any other text) of
/// character.c, in their shape: `s` is the buffer, a position past its
/// end reads as the terminator.
fn stripchars(inchar: &str, minlen: usize, usecl: bool) -> String {
    let wide = !inchar.is_ascii();
    let mut s: Vec<char> = inchar.chars().collect();
    let at = |s: &Vec<char>, i: usize| s.get(i).copied().unwrap_or('\0');
    let first_char = |s: &Vec<char>, i: usize| is_space(s[i - 1]);
    let last_char = |s: &Vec<char>, i: usize| {
        !is_space(s[i - 1]) && (at(s, i + 1) == '\0' || is_space(at(s, i + 1)))
    };
    let lc_vowel = |c: char| {
        if wide {
            VOWELS.contains(&(c as u32))
        } else {
            matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
        }
    };
    let upper = |s: &Vec<char>| s.len() as isize - 1;
    let mut nspace = 0usize;
    'done: {
        if s.len() < minlen {
            break 'done;
        }
        let mut j = true;
        let mut i = upper(&s);
        while i > 0 {
            let u = i as usize;
            if is_space(s[u]) {
                if j {
                    s.truncate(u);
                } else {
                    nspace += 1;
                }
            } else {
                j = false;
            }
            if s.len().saturating_sub(nspace) <= minlen {
                break 'done;
            }
            i -= 1;
        }
        let passes: &[&Drops<'_>] = &[
            &|s, i| lc_vowel(s[i]) && last_char(s, i),
            &|s, i| lc_vowel(s[i]) && !first_char(s, i),
            &|s, i| s[i].is_ascii_lowercase() && last_char(s, i),
            &|s, i| s[i].is_ascii_lowercase() && !first_char(s, i),
        ];
        let brute: &Drops<'_> = &|s, i| !first_char(s, i) && !is_space(s[i]);
        let used = if usecl { passes } else { &passes[..0] };
        for drop in used.iter().chain(std::iter::once(&brute)) {
            let mut i = upper(&s);
            while i > 0 {
                let u = i as usize;
                if u < s.len() && drop(&s, u) {
                    s.remove(u);
                }
                if s.len().saturating_sub(nspace) <= minlen {
                    break 'done;
                }
                i -= 1;
            }
        }
    }
    let upper = s.len();
    if upper > minlen {
        let mut i = upper - 1;
        while i > 0 {
            if i < s.len() && is_space(s[i]) {
                s.remove(i);
            }
            i -= 1;
        }
    }
    s.into_iter().collect()
}

/// `.Internal(abbreviate(x, minlength, use.classes))`.
fn abbreviate_internal(x: &[String], minlen: usize, usecl: bool) -> Vec<String> {
    x.iter()
        .map(|s| {
            if s.chars().count() > minlen {
                stripchars(s, minlen, usecl)
            } else {
                s.clone()
            }
        })
        .collect()
}

fn duplicated(x: &[String]) -> Vec<bool> {
    let mut seen = HashSet::new();
    x.iter().map(|s| !seen.insert(s.as_str())).collect()
}

/// `x[at]`.
fn picked(x: &[String], at: &[bool]) -> Vec<String> {
    x.iter()
        .zip(at)
        .filter(|(_, d)| **d)
        .map(|(s, _)| s.clone())
        .collect()
}

/// `x[at] <- values`.
fn put_where(x: &mut [String], at: &[bool], values: Vec<String>) {
    let mut values = values.into_iter();
    for (xi, d) in x.iter_mut().zip(at) {
        if *d {
            if let Some(v) = values.next() {
                *xi = v;
            }
        }
    }
}

fn rev_chars(x: &[String]) -> Vec<String> {
    x.iter().map(|s| s.chars().rev().collect()).collect()
}

/// base's `abbreviate`: the strings trimmed of outer blanks, duplicates
/// set aside, then abbreviated with `minlength` grown until the results
/// are unique.
fn abbreviate_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let given = plain(texts(args, "names.arg")?);
    let minlength = match args.get("minlength") {
        None => 4.0,
        Some(v) => match v.as_scalar() {
            Some(m) if !m.is_nan() => m,
            // `if(minlength <= 0L)` of an NA.
            _ => return Err(KernelError::new("missing value where TRUE/FALSE needed")),
        },
    };
    let use_classes = flag(args, "use.classes", true, "invalid 'use.classes' argument")?;
    let dot = flag(
        args,
        "dot",
        false,
        "argument is not interpretable as logical",
    )?;
    let strict = flag(
        args,
        "strict",
        false,
        "argument is not interpretable as logical",
    )?;
    let named_out = flag(
        args,
        "named",
        true,
        "argument is not interpretable as logical",
    )?;
    let both_sides = match args.get("method").map(bare) {
        None => false,
        Some(Value::Str(m)) if m.len() == 2 => false,
        Some(Value::Str(m)) if m.len() == 1 && !m[0].is_empty() => {
            if "left.kept".starts_with(m[0].as_str()) {
                false
            } else if "both.sides".starts_with(m[0].as_str()) {
                true
            } else {
                return Err(KernelError::new(
                    "'arg' should be one of \u{201c}left.kept\u{201d}, \u{201c}both.sides\u{201d}",
                ));
            }
        }
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    let finish = |x: Vec<String>, old: &[String]| {
        if named_out {
            named(Value::Str(x), old.to_vec())
        } else {
            Value::Str(x)
        }
    };
    if minlength <= 0.0 {
        return Ok(finish(vec![String::new(); given.len()], &given));
    }
    let mut minlen = minlength.trunc().min(1e9) as usize;
    let old: Vec<String> = given
        .iter()
        .map(|s| s.trim_start_matches(' ').trim_end_matches(' ').to_string())
        .collect();
    let dups = duplicated(&old);
    let names_arg: Vec<String> = old
        .iter()
        .zip(&dups)
        .filter(|(_, d)| !**d)
        .map(|(s, _)| s.clone())
        .collect();
    let mut x = names_arg.clone();
    if strict {
        x = abbreviate_internal(&x, minlen, use_classes);
    } else {
        let mut dup2 = vec![true; names_arg.len()];
        let mut these = names_arg.clone();
        loop {
            put_where(
                &mut x,
                &dup2,
                abbreviate_internal(&these, minlen, use_classes),
            );
            dup2 = duplicated(&x);
            if !dup2.iter().any(|d| *d) {
                break;
            }
            if both_sides {
                let back = rev_chars(&abbreviate_internal(
                    &rev_chars(&picked(&names_arg, &dup2)),
                    minlen,
                    use_classes,
                ));
                put_where(&mut x, &dup2, back);
                dup2 = duplicated(&x);
                if !dup2.iter().any(|d| *d) {
                    break;
                }
            }
            minlen += 1;
            // dup2 | match(x, x[dup2], 0L): every holder of a duplicated value.
            let clash: HashSet<String> = picked(&x, &dup2).into_iter().collect();
            dup2 = x.iter().map(|s| clash.contains(s)).collect();
            these = picked(&names_arg, &dup2);
        }
    }
    let mut x: Vec<String> = if dups.iter().any(|d| *d) {
        old.iter()
            .map(|s| {
                let i = names_arg.iter().position(|t| t == s).unwrap_or(0);
                x[i].clone()
            })
            .collect()
    } else {
        x
    };
    if dot {
        for (xi, o) in x.iter_mut().zip(&old) {
            if xi != o {
                xi.push('.');
            }
        }
    }
    Ok(finish(x, &old))
}

fn match_type(v: Option<&Value>) -> Result<&'static str, KernelError> {
    const TYPES: [&str; 4] = ["sh", "csh", "cmd", "cmd2"];
    let s = match v.map(bare) {
        None => return Ok("sh"),
        Some(Value::Str(s)) if s.len() == TYPES.len() && s.iter().eq(TYPES.iter()) => {
            return Ok("sh")
        }
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(Value::Str(_)) => return Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if let Some(t) = TYPES.iter().find(|t| **t == s) {
        return Ok(*t);
    }
    let hits: Vec<&&str> = TYPES.iter().filter(|t| t.starts_with(s)).collect();
    match hits[..] {
        [one] if !s.is_empty() => Ok(*one),
        _ => Err(KernelError::new(
            "'arg' should be one of \u{201c}sh\u{201d}, \u{201c}csh\u{201d}, \u{201c}cmd\u{201d}, \u{201c}cmd2\u{201d}",
        )),
    }
}

/// Each character of `escape` found in `s` preceded by `by`.
fn escaped(s: &str, escape: &str, by: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        if escape.contains(c) {
            out.push_str(by);
        }
        out.push(c);
    }
    out
}

/// `shQuote` of utils.R; the choice between quotings looks at every
/// string, as R's `any(grepl(...))` does.
fn sh_quote_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let ty = match_type(args.get("type"))?;
    let strings = plain(texts(args, "string")?);
    let out: Vec<String> = match ty {
        "cmd" => strings
            .iter()
            .map(|s| {
                let c: Vec<char> = s.chars().collect();
                let mut out = String::from("\"");
                let mut run = 0usize;
                for &ch in &c {
                    if ch == '\\' {
                        run += 1;
                        continue;
                    }
                    if ch == '"' {
                        out.push_str(&"\\".repeat(2 * run));
                        out.push_str("\\\"");
                    } else {
                        out.push_str(&"\\".repeat(run));
                        out.push(ch);
                    }
                    run = 0;
                }
                out.push_str(&"\\".repeat(2 * run));
                out.push('"');
                out
            })
            .collect(),
        "cmd2" => strings
            .iter()
            .map(|s| escaped(s, "()%!^\"<>&|", "^"))
            .collect(),
        _ if !strings.iter().any(|s| s.contains('\'')) => {
            strings.iter().map(|s| format!("'{s}'")).collect()
        }
        "sh" => strings
            .iter()
            .map(|s| format!("\"{}\"", escaped(s, "\"$`\\", "\\")))
            .collect(),
        _ if !strings.iter().any(|s| s.contains(['$', '`'])) => strings
            .iter()
            .map(|s| format!("\"{}\"", escaped(s, "\"!\\", "\\")))
            .collect(),
        _ => strings
            .iter()
            .map(|s| format!("'{}'", s.replace('\'', "'\"'\"'")))
            .collect(),
    };
    Ok(Value::Str(out))
}

/// `sQuote` and `dQuote` of character.R in a UTF-8 locale: `q` TRUE (the
/// default `useFancyQuotes`) or "UTF-8" gives the typographic quotes,
/// "TeX" TeX's, four strings their own, anything else the ASCII ones.
fn quote_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let double = args.func == "dQuote";
    let x = plain(texts(args, "x")?);
    if x.is_empty() {
        return Ok(Value::Str(Vec::new()));
    }
    let ascii = if double { "\"" } else { "'" };
    let (mut before, mut after) = (ascii.to_string(), ascii.to_string());
    let fancy = || {
        if double {
            ("\u{201c}".to_string(), "\u{201d}".to_string())
        } else {
            ("\u{2018}".to_string(), "\u{2019}".to_string())
        }
    };
    match args.get("q").map(bare) {
        None => (before, after) = fancy(),
        Some(Value::Null) => {}
        Some(Value::Bool(b)) if b.len() == 1 && b[0] == Some(true) => (before, after) = fancy(),
        Some(Value::Str(q)) if q.len() == 1 && q[0] == "UTF-8" => (before, after) = fancy(),
        Some(Value::Str(q)) if q.len() == 1 && q[0] == "TeX" => {
            (before, after) = if double {
                (String::from("``"), String::from("''"))
            } else {
                (String::from("`"), String::from("'"))
            }
        }
        Some(Value::Str(q)) if q.len() >= 4 => {
            let k = if double { 2 } else { 0 };
            (before, after) = (q[k].clone(), q[k + 1].clone());
        }
        Some(_) => {}
    }
    Ok(Value::Str(
        x.iter().map(|s| format!("{before}{s}{after}")).collect(),
    ))
}

/// `noquote`: the object with class "noquote" added.
fn noquote_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let obj = args.get("obj").unwrap_or(&Value::Null);
    let right = flag(
        args,
        "right",
        false,
        "argument is not interpretable as logical",
    )?;
    if let Some(class) = super::class::class_attr(obj) {
        if class.iter().any(|c| c == "noquote") {
            return Ok(obj.clone());
        }
        return Err(KernelError::new(format!(
            "flowcast's noquote() takes a vector without a class, not one of class \"{}\"",
            class.join("\", \"")
        )));
    }
    match obj {
        Value::Null => Err(KernelError::new("attempt to set an attribute on NULL")),
        Value::Str(_)
        | Value::Num(_)
        | Value::Bool(_)
        | Value::Named(_)
        | Value::Mat(_)
        | Value::Complex(_) => {
            let class = Value::string("noquote");
            let class = if right {
                named(class, vec!["right".into()])
            } else {
                class
            };
            Ok(with_attr(obj.clone(), "class", class))
        }
        other => Err(KernelError::new(format!(
            "flowcast's noquote() takes a vector, not {}",
            other.type_name()
        ))),
    }
}

/// `EncodeString` of printutils.c for one string in a UTF-8 locale: the
/// escapes R prints, the quote doubled with a backslash.
fn encode(s: &str, quote: Option<char>) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    if let Some(q) = quote {
        out.push(q);
    }
    for c in s.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            c if Some(c) == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c if c.is_control() => {
                let u = c as u32;
                if u > 0xffff {
                    out.push_str(&format!("\\U{u:08x}"));
                } else {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    if let Some(q) = quote {
        out.push(q);
    }
    out
}

/// `encodeString(x, width, quote, na.encode, justify)`.
fn encode_string_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = texts(args, "x")?;
    let quote = match args.get("quote").map(bare) {
        None => None,
        Some(Value::Str(q)) if q.len() == 1 => q[0].chars().next(),
        Some(_) => return Err(KernelError::new("invalid 'quote' argument")),
    };
    let na_encode = flag(args, "na.encode", true, "invalid 'na.encode' value")?;
    const JUSTIFY: [&str; 4] = ["left", "right", "centre", "none"];
    let justify = match args.get("justify").map(bare) {
        None => 0,
        Some(Value::Str(j)) if j.len() == 4 && j.iter().eq(JUSTIFY.iter()) => 0,
        Some(Value::Str(j)) if j.len() == 1 && !j[0].is_empty() => JUSTIFY
            .iter()
            .position(|t| t.starts_with(j[0].as_str()))
            .ok_or_else(|| {
                KernelError::new(
                    "'arg' should be one of \u{201c}left\u{201d}, \u{201c}right\u{201d}, \u{201c}centre\u{201d}, \u{201c}none\u{201d}",
                )
            })?,
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    let encoded: Vec<Option<String>> = x
        .iter()
        .map(|s| match s {
            Some(s) => Some(encode(s, quote)),
            // R_print.na_string, or na_string_noquote where unquoted.
            None if na_encode && quote.is_some() => Some("NA".to_string()),
            None if na_encode => Some("<NA>".to_string()),
            None => None,
        })
        .collect();
    let widths: Vec<usize> = encoded
        .iter()
        .map(|s| s.as_deref().map_or(2, |s| s.chars().count()))
        .collect();
    // `width = NA`: the widest string that is not NA, as do_encodeString
    // measures.
    let widest = widths
        .iter()
        .zip(&x)
        .filter(|(_, s)| s.is_some())
        .map(|(w, _)| *w)
        .max()
        .unwrap_or(0);
    let width = match args.get("width").map(bare) {
        None | Some(Value::Null) => 0,
        Some(Value::Bool(b)) if b.len() == 1 && b[0].is_none() => widest,
        Some(v) => match v.as_scalar() {
            Some(w) if w.is_nan() => widest,
            Some(w) if w >= 0.0 => w.min(1e6) as usize,
            _ => return Err(KernelError::new("invalid 'width' value")),
        },
    };
    // The padded strings, before they are made.
    super::alloc::ensure_room(width as f64 * encoded.len() as f64)?;
    let out: Vec<String> = encoded
        .into_iter()
        .zip(&widths)
        .map(|(s, &w)| {
            let Some(s) = s else {
                return "NA".to_string();
            };
            if justify == 3 || w >= width {
                return s;
            }
            let pad = width - w;
            match justify {
                0 => format!("{s}{}", " ".repeat(pad)),
                1 => format!("{}{s}", " ".repeat(pad)),
                _ => format!("{}{s}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2)),
            }
        })
        .collect();
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(match super::names::names(x) {
        Some(n) if n.len() == out.len() => named(Value::Str(out), n.to_vec()),
        _ => Value::Str(out),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    /// R 4.2.2: `make.unique(c("a", "a", "a.1", "a"))` and
    /// `make.unique(c("3", "3"), "")`.
    #[test]
    fn make_unique_skips_taken_names() {
        assert_eq!(
            make_unique(&s(&["a", "a", "a.1", "a"]), "."),
            s(&["a", "a.2", "a.1", "a.3"])
        );
        assert_eq!(make_unique(&s(&["3", "3"]), ""), s(&["3", "31"]));
    }

    /// R 4.2.2: `make.names(c("a b", "1x", "ok", "a b", "if"), unique =
    /// TRUE)`: the unchanged `ok` keeps its name.
    #[test]
    fn make_names_numbers_repeats_after_the_unchanged() {
        assert_eq!(
            make_names(&s(&["a b", "1x", "ok", "a b", "if"]), true, true),
            s(&["a.b", "X1x", "ok", "a.b.1", "if."])
        );
        assert_eq!(
            make_names(&s(&["a.1", "a 1"]), true, true),
            s(&["a.1", "a.1.1"])
        );
    }
}
