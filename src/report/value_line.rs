//! A step's value in one line, as the run table shows it: what R would
//! print, shortened. Numbers are written in full, a Date as R's
//! `format.Date` writes it, a difftime with R's "Time difference of"
//! line, a factor by its labels, and large objects by their shape. Every
//! place that shows a value to a user writes it with [`describe`], so a
//! value reads the same wherever it is shown.

use crate::kernels::dates;
use crate::kernels::value::{is_na, Factor};
use crate::kernels::Value;

/// Elements a vector shows in full; a longer one shows its length and
/// its first [`FIRST`] elements.
const SHORT: usize = 6;
const FIRST: usize = 4;

/// Characters of text shown whole: a longer string shows its start and
/// its length, so one long value does not stretch its row of the table
/// far past the screen.
const LONG_TEXT: usize = 60;

/// A string quoted as R prints it, shortened past [`LONG_TEXT`]
/// characters: `"abcabc…" (2000 chars)`.
fn quoted(s: &str) -> String {
    let n = s.chars().count();
    if n <= LONG_TEXT {
        return format!("{s:?}");
    }
    let start: String = s.chars().take(LONG_TEXT - 12).collect();
    let q = format!("{start:?}");
    format!("{}…\" ({n} chars)", &q[..q.len() - 1])
}

/// Characters an object's fields take in its line: an `lm` fit's
/// twenty-odd fields, or a data frame's hundred columns, made a row of
/// the table a thousand columns wide.
const LONG_OBJECT: usize = 160;

/// `fields` joined by commas, as many whole ones as fit in `limit`
/// characters (at least one), then how many `noun` there are in all.
fn within(fields: &[String], limit: usize, noun: &str) -> String {
    let mut used = 0;
    let mut kept = 0;
    for f in fields {
        let width = f.chars().count() + if kept > 0 { 2 } else { 0 };
        if kept > 0 && used + width > limit {
            break;
        }
        used += width;
        kept += 1;
    }
    if kept == fields.len() {
        fields.join(", ")
    } else {
        format!("{}, … ({} {noun})", fields[..kept].join(", "), fields.len())
    }
}

/// A number as R users read it, with every digit that matters.
pub fn format_number(x: f64) -> String {
    if is_na(x) {
        "NA".into()
    } else if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Inf" } else { "-Inf" }.into()
    } else if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e15) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn numbers(v: &[f64], limit: usize) -> String {
    let mut s: Vec<String> = v.iter().take(limit).map(|&x| format_number(x)).collect();
    if v.len() > limit {
        s.push("…".into());
    }
    s.join(" ")
}

/// One line describing a value: small ones in full, large ones by shape.
pub fn describe(v: &Value) -> String {
    if dates::is_date(v) {
        return date_line(v);
    }
    if dates::is_difftime(v) {
        return difftime_line(v);
    }
    if let Some(dims) = crate::kernels::arrays::array_dims(v) {
        let d: Vec<String> = dims.iter().map(usize::to_string).collect();
        let kind = match crate::kernels::names::bare(v) {
            Value::Bool(_) => "lgl arr",
            _ => "arr",
        };
        return format!("{kind}[{}]", d.join("x"));
    }
    match v {
        Value::Named(n) => match (&n.names, &n.value) {
            (Some(labels), Value::Num(x)) if x.len() <= 6 => {
                let pairs: Vec<String> = labels
                    .iter()
                    .zip(x)
                    .map(|(l, &x)| format!("{l}={}", format_number(x)))
                    .collect();
                format!("[{}]", pairs.join(" "))
            }
            _ => describe(&n.value),
        },
        Value::Null => "NULL".into(),
        Value::Num(x) if x.len() == 1 => format_number(x[0]),
        Value::Num(x) if x.len() <= 6 => format!("[{}]", numbers(x, 6)),
        Value::Num(x) => format!("num[{}] {}", x.len(), numbers(x, 4)),
        Value::Mat(m) => format!("mat[{}x{}]", m.nrows(), m.ncols()),
        Value::Complex(z) => format!("cplx[{}]", z.len()),
        Value::ComplexMat(m) => format!("cplx mat[{}x{}]", m.nrows(), m.ncols()),
        Value::Str(s) if s.len() == 1 => quoted(&s[0]),
        Value::Str(s) => format!("chr[{}]", s.len()),
        Value::StrMat(m) => format!("chr mat[{}x{}]", m.nrows(), m.ncols()),
        Value::Bool(b) if b.len() == 1 => match b[0] {
            Some(true) => "TRUE",
            Some(false) => "FALSE",
            None => "NA",
        }
        .into(),
        Value::Bool(b) => format!("lgl[{}]", b.len()),
        Value::BoolMat(m) => format!("lgl mat[{}x{}]", m.nrows(), m.ncols()),
        Value::List(l) => match (&l.class, &l.names) {
            (Some(class), Some(names)) => {
                let fields: Vec<String> = names
                    .iter()
                    .zip(&l.items)
                    .filter(|(n, _)| {
                        class != "htest"
                            || !matches!(n.as_str(), "method" | "alternative" | "data.name")
                    })
                    // An htest's names (`c(t = 2.1)`) are left out of its one line.
                    .map(|(n, v)| match crate::kernels::names::bare(v) {
                        Value::Num(x) if x.len() <= 3 => format!("{n} = {}", numbers(x, 3)),
                        Value::Str(s) if s.len() == 1 => format!("{n} = {}", quoted(&s[0])),
                        other => format!("{n} = {}", short_shape(other)),
                    })
                    .collect();
                let method = l
                    .field("method")
                    .and_then(|m| match m {
                        Value::Str(s) if class == "htest" => s.first().cloned(),
                        _ => None,
                    })
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default();
                let noun = if class == "data.frame" {
                    "columns"
                } else {
                    "fields"
                };
                format!("{class}: {}{method}", within(&fields, LONG_OBJECT, noun))
            }
            _ => format!("list[{}]", l.items.len()),
        },
        Value::Formula(_) => "formula".into(),
        Value::Lang(_) => crate::kernels::deparse::report_text(v),
        Value::Factor(f) => factor_line(f),
    }
}

fn short_shape(v: &Value) -> String {
    match v {
        Value::Num(x) => format!("num[{}]", x.len()),
        Value::List(l) => format!("list[{}]", l.items.len()),
        other => describe(other),
    }
}

/// The elements of a vector to show: all when it is short, else the
/// first few.
fn shown<T>(x: &[T]) -> &[T] {
    &x[..x.len().min(if x.len() <= SHORT { SHORT } else { FIRST })]
}

/// A vector as the column writes it, from its shown elements: `[a b c]`
/// when it is short, else `kind[n] a b c d …`.
fn elements(kind: &str, len: usize, shown: &[String]) -> String {
    if len <= SHORT {
        format!("[{}]", shown.join(" "))
    } else {
        format!("{kind}[{len}] {} …", shown.join(" "))
    }
}

/// A Date vector as R prints it: each day as `format.Date` writes it,
/// quoted, and NA bare (`"2024-01-05"`, `["2024-01-05" NA]`).
fn date_line(v: &Value) -> String {
    let days = dates::days(v);
    let text: Vec<String> = shown(&days)
        .iter()
        .map(|&z| match dates::strftime(z, "%Y-%m-%d") {
            Ok(Some(s)) => format!("{s:?}"),
            _ => "NA".into(),
        })
        .collect();
    let names = match v {
        Value::Named(n) if days.len() <= SHORT => n.names.as_deref(),
        _ => None,
    };
    match (&text[..], names) {
        (_, Some(names)) => {
            let pairs: Vec<String> = names
                .iter()
                .zip(&text)
                .map(|(n, d)| format!("{n}={d}"))
                .collect();
            format!("[{}]", pairs.join(" "))
        }
        ([one], None) if days.len() == 1 => one.clone(),
        _ => elements("Date", days.len(), &text),
    }
}

/// A difftime as R's `print.difftime` writes it: "Time difference of 1
/// days" for one, "Time differences in days" and then the numbers for
/// several, at R's 7 significant digits.
fn difftime_line(v: &Value) -> String {
    let units = dates::difftime_units(v);
    let x = dates::days(v);
    let text = crate::kernels::format_common(shown(&x), 7);
    match &text[..] {
        [one] if x.len() == 1 => format!("Time difference of {one} {units}"),
        _ => format!(
            "Time differences in {units}: {}",
            elements("num", x.len(), &text)
        ),
    }
}

/// A factor by its labels, as R prints it (NA as `<NA>`), then how many
/// levels it has: `fct[3] a b a (2 levels)`.
fn factor_line(f: &Factor) -> String {
    let labels: Vec<&str> = shown(&f.codes)
        .iter()
        .map(|c| {
            c.and_then(|c| f.levels.get(c as usize))
                .map_or("<NA>", String::as_str)
        })
        .collect();
    let more = if f.codes.len() > labels.len() {
        " …"
    } else {
        ""
    };
    let levels = match f.levels.len() {
        1 => "1 level".to_string(),
        k => format!("{k} levels"),
    };
    let n = f.codes.len();
    if n == 0 {
        format!("fct[0] ({levels})")
    } else {
        format!("fct[{n}] {}{more} ({levels})", labels.join(" "))
    }
}
