//! `read.csv(file, header = TRUE, sep = ",", na.strings = "NA", skip = 0,
//! stringsAsFactors = FALSE)`: a data frame, as in R.
//!
//! Follows R's `read.csv`: quoted fields (`""` escapes a quote), blank lines
//! skipped, short rows filled with NA (`fill = TRUE`), cells among
//! `na.strings` NA in every column and empty cells NA in numeric and
//! logical ones (a text column's NA is the text `"NA"`: flowcast's text has
//! no NA of its own), `skip` lines dropped before the header, and a header one field shorter than
//! the data meaning the first column holds the row names (as written, and
//! neither missing nor repeated, as R requires). Each column gets its type as R's
//! `type.convert` gives it: logical when every cell is `T`, `F`, `TRUE`,
//! `FALSE` or missing, else numeric when every cell reads as a number,
//! else text. Names are made as R's `make.names` makes them.
//!
//! The shape rule parses the file too, so a bad file fails at analysis, and
//! every column's type and length is known before the run.

use std::path::Path;

use crate::kernels::frame;
use crate::kernels::value::{Factor, NA};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// A parsed table: named columns of one length.
#[derive(Debug)]
pub struct Table {
    pub rows: usize,
    pub names: Vec<String>,
    pub columns: Vec<Column>,
    /// The first column's cells, when the header names one column fewer.
    pub row_names: Option<Vec<String>>,
}

#[derive(Debug)]
pub enum Column {
    Num(Vec<f64>),
    Text(Vec<String>),
    /// A text column read with `stringsAsFactors = TRUE`.
    Factor(Factor),
    /// A logical column; `None` is NA.
    Logical(Vec<Option<bool>>),
}

impl Column {
    fn value(self) -> Value {
        match self {
            Column::Num(v) => Value::Num(v),
            Column::Text(v) => Value::Str(v),
            Column::Factor(f) => Value::Factor(f),
            Column::Logical(v) => Value::Bool(v),
        }
    }

    fn shape(&self, rows: usize) -> Type {
        let len = Some(rows);
        match self {
            Column::Num(_) => Type::Num { len, value: None },
            Column::Text(_) => Type::Str { len, value: None },
            Column::Factor(f) => Type::Factor {
                len,
                levels: Some(f.levels.clone()),
                ordered: false,
            },
            Column::Logical(_) => Type::Bool { len, value: None },
        }
    }
}

impl Table {
    fn value(self) -> Value {
        frame::named_frame(
            self.names,
            self.columns.into_iter().map(Column::value).collect(),
            self.row_names.map(crate::kernels::value::RowNames::Text),
        )
    }

    fn shape(&self) -> Type {
        Type::Record {
            class: frame::CLASS.to_string(),
            fields: self
                .names
                .iter()
                .zip(&self.columns)
                .map(|(n, c)| (n.clone(), c.shape(self.rows)))
                .collect(),
        }
    }
}

/// R's `type.convert` test for a logical cell (`StringTrue`/`StringFalse`
/// as `type.convert` uses them: `T`, `TRUE`, `F`, `FALSE`); `Some(None)`
/// for a missing one (`None` is a cell among `na.strings`).
fn parse_logical(cell: Option<&str>) -> Option<Option<bool>> {
    let Some(cell) = cell else {
        return Some(None);
    };
    match cell.trim() {
        "" => Some(None),
        "T" | "TRUE" => Some(Some(true)),
        "F" | "FALSE" => Some(Some(false)),
        _ => None,
    }
}

/// One record: its fields and the (1-based) line it starts on.
struct Record {
    line: usize,
    fields: Vec<String>,
}

fn split_records(text: &str, sep: Option<char>) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut line = 1;
    let mut start_line = 1;
    let mut chars = text.chars().peekable();
    let mut any = false;
    let end_record = |fields: &mut Vec<String>,
                      field: &mut String,
                      any: &mut bool,
                      records: &mut Vec<Record>,
                      start: usize| {
        if *any || !field.is_empty() || !fields.is_empty() {
            fields.push(std::mem::take(field));
            records.push(Record {
                line: start,
                fields: std::mem::take(fields),
            });
        }
        *any = false;
    };
    while let Some(c) = chars.next() {
        // As R's scan: a line ends at LF, CRLF or a lone CR, quoted or not.
        let c = match c {
            '\r' if chars.peek() == Some(&'\n') => continue,
            '\r' => '\n',
            c => c,
        };
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                any = true;
            }
            '\n' => {
                end_record(&mut fields, &mut field, &mut any, &mut records, start_line);
                line += 1;
                start_line = line;
            }
            c if Some(c) == sep => {
                fields.push(std::mem::take(&mut field));
                any = true;
            }
            c if sep.is_none() && (c == ' ' || c == '\t') => {
                if !field.is_empty() || any {
                    fields.push(std::mem::take(&mut field));
                    any = false;
                }
            }
            _ => {
                field.push(c);
                any = true;
            }
        }
    }
    if in_quotes {
        return Err(format!("line {start_line}: unterminated quoted field"));
    }
    end_record(&mut fields, &mut field, &mut any, &mut records, start_line);
    if sep.is_none() {
        for r in &mut records {
            r.fields.retain(|f| !f.is_empty());
        }
        records.retain(|r| !r.fields.is_empty());
    }
    Ok(records)
}

/// R's `R_strtod` as `type.convert` uses it, on a trimmed cell.
pub fn parse_number(cell: &str) -> Option<f64> {
    let s = cell.trim();
    if s.is_empty() || s == "NA" {
        return Some(NA);
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()? as f64
    } else if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        f64::INFINITY
    } else if body == "NaN" {
        f64::NAN
    } else if body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        body.parse::<f64>().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// How to read a file: `read.csv`'s arguments beside the file.
pub struct Options<'a> {
    pub header: bool,
    pub sep: &'a str,
    pub na_strings: Vec<String>,
    pub skip: usize,
    pub strings_as_factors: bool,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            header: true,
            sep: ",",
            na_strings: vec!["NA".to_string()],
            skip: 0,
            strings_as_factors: false,
        }
    }
}

/// A cell as `type.convert` reads it: `None` when among `na.strings`.
fn cell_number(cell: Option<&str>) -> Option<f64> {
    match cell {
        None => Some(NA),
        Some(c) if c.trim().is_empty() => Some(NA),
        // "NA" not among na.strings is text, as in R.
        Some(c) if c.trim() == "NA" => None,
        Some(c) => parse_number(c),
    }
}

/// Drops the first `skip` lines of `text`.
fn skip_lines(text: &str, skip: usize) -> &str {
    let mut rest = text;
    for _ in 0..skip {
        match rest.find(['\n', '\r']) {
            Some(i) => {
                let after = &rest[i..];
                let len = if after.starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + len..];
            }
            None => return "",
        }
    }
    rest
}

/// Where a relative path that is not there was looked for: R reads it from
/// the working directory, flowcast from the workflow file's, and a user
/// who ran R from elsewhere needs to see which.
fn not_found_hint(shown: &str, path: &Path) -> String {
    if Path::new(shown).is_absolute() {
        return String::new();
    }
    let tried = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let cwd = std::env::current_dir().ok();
    let elsewhere = cwd
        .as_ref()
        .map(|d| d.join(shown))
        .filter(|p| *p != tried && p.is_file());
    match (elsewhere, cwd) {
        (Some(_), Some(cwd)) => format!(
            " (flowcast looked for {}: a path is read from the workflow file's directory, \
             not from the working directory {}, where '{shown}' is; write the path from \
             the workflow's directory, or in full)",
            tried.display(),
            cwd.display()
        ),
        _ => format!(
            " (flowcast looked for {}: a path is read from the workflow file's directory, \
             not from the working directory)",
            tried.display()
        ),
    }
}

/// Reads and parses `path` (as the user wrote it, for messages) into a
/// numeric table.
pub fn read_table(shown: &str, path: &Path, opts: &Options) -> Result<Table, String> {
    let (header, sep) = (opts.header, opts.sep);
    let sep = match sep.chars().count() {
        0 => None,
        1 => sep.chars().next(),
        _ => return Err("invalid 'sep' value: must be one byte".into()),
    };
    let bytes = crate::regular_file::read(path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("No such file or directory{}", not_found_hint(shown, path))
            }
            std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
            _ => e.to_string(),
        };
        format!("cannot open file '{shown}': {why}")
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let text = skip_lines(text, opts.skip);
    let mut records = split_records(text, sep).map_err(|m| format!("'{shown}' {m}"))?;
    if records.is_empty() {
        return Err(format!("no lines available in input ('{shown}')"));
    }
    let names = if header {
        Some(records.remove(0).fields)
    } else {
        None
    };
    // R sizes the table from the first five lines.
    let data_width = records.iter().take(5).map(|r| r.fields.len()).max();
    let width = match (&names, data_width) {
        (Some(n), Some(w)) => n.len().max(w),
        (Some(n), None) => n.len(),
        (None, Some(w)) => w,
        (None, None) => 0,
    };
    let row_names = names.as_ref().is_some_and(|n| n.len() + 1 == width);
    if names.as_ref().is_some_and(|n| n.len() + 1 < width) {
        return Err(format!("more columns than column names in '{shown}'"));
    }
    let skip = usize::from(row_names);
    let cols = width - skip;
    let rows = records.len();
    // A cell a short row lacks is NA (`fill = TRUE`).
    let na_cell = opts.na_strings.first().map_or("NA", String::as_str);
    let mut cells: Vec<Vec<&str>> = vec![vec![na_cell; rows]; cols];
    for (i, r) in records.iter().enumerate() {
        if r.fields.len() > width {
            return Err(format!(
                "'{shown}' line {}: {} fields, more than the {width} columns",
                r.line,
                r.fields.len()
            ));
        }
        for (j, cell) in r.fields.iter().enumerate().skip(skip) {
            cells[j - skip][i] = cell;
        }
    }
    let columns = cells
        .into_iter()
        .map(|col| {
            let col: Vec<Option<&str>> = col
                .into_iter()
                .map(|c| (!opts.na_strings.iter().any(|n| n == c)).then_some(c))
                .collect();
            if let Some(v) = col.iter().map(|c| parse_logical(*c)).collect() {
                // An all-missing column is logical in R too.
                return Column::Logical(v);
            }
            let nums: Option<Vec<f64>> = col.iter().map(|c| cell_number(*c)).collect();
            if let Some(v) = nums {
                return Column::Num(v);
            }
            let text: Vec<String> = col
                .into_iter()
                .map(|c| c.unwrap_or("NA").to_string())
                .collect();
            if opts.strings_as_factors {
                // Never fails on text.
                match crate::kernels::factor::as_factor(&Value::Str(text)) {
                    Ok(f) => Column::Factor(f),
                    Err(_) => Column::Text(Vec::new()),
                }
            } else {
                Column::Text(text)
            }
        })
        .collect();
    let row_names = match row_names {
        false => None,
        true => {
            let labels: Vec<String> = records
                .iter()
                .map(|r| r.fields.first().map_or(na_cell, String::as_str).to_string())
                .collect();
            if labels
                .iter()
                .any(|l| opts.na_strings.iter().any(|n| n == l))
            {
                return Err("missing values in 'row.names' are not allowed".into());
            }
            let mut seen = std::collections::HashSet::with_capacity(labels.len());
            if !labels.iter().all(|l| seen.insert(l.as_str())) {
                return Err("duplicate 'row.names' are not allowed".into());
            }
            Some(labels)
        }
    };
    let raw_names: Vec<String> = match names {
        Some(n) => (0..cols)
            .map(|j| n.get(j).cloned().unwrap_or_else(|| format!("V{}", j + 1)))
            .collect(),
        None => (1..=cols).map(|j| format!("V{j}")).collect(),
    };
    Ok(Table {
        rows,
        names: crate::kernels::quote::make_names(&raw_names, true, true),
        columns,
        row_names,
    })
}

/// The known options of a `read.csv` call at analysis; `None` when one
/// is not a constant.
fn shape_options<'a>(a: &'a Args<Type>) -> Result<Option<Options<'a>>, ArgError> {
    if let Some((k, (name, _))) = a.dots().enumerate().next() {
        return Err(a.dots_error(k, unsupported(name)));
    }
    let header = match a.get("header") {
        None => Some(true),
        Some(t) => t.const_scalar().map(|h| h != 0.0),
    };
    let sep = match a.get("sep") {
        None => Some(","),
        Some(Type::Str { .. }) => a.const_str("sep"),
        Some(_) => return Err(a.error("sep", "invalid 'sep' argument")),
    };
    let na_strings = match a.get("na.strings") {
        None => Some(vec!["NA".to_string()]),
        Some(Type::Str { value, .. }) => value.clone(),
        Some(Type::Null) => Some(Vec::new()),
        Some(Type::Any) => None,
        Some(_) => return Err(a.error("na.strings", "invalid 'na.strings' argument")),
    };
    let skip = match a.get("skip") {
        None => Some(0.0),
        Some(t) if t.is_numeric() => t.const_scalar(),
        Some(_) => return Err(a.error("skip", "invalid 'skip' argument")),
    };
    let factors = match a.get("stringsAsFactors") {
        None => Some(false),
        Some(t) => t.const_scalar().map(|h| h != 0.0),
    };
    Ok(match (header, sep, na_strings, skip, factors) {
        (Some(header), Some(sep), Some(na_strings), Some(skip), Some(strings_as_factors)) => {
            Some(Options {
                header,
                sep,
                na_strings,
                skip: skip_count(skip).map_err(|m| a.error("skip", m))?,
                strings_as_factors,
            })
        }
        _ => None,
    })
}

/// R's read.csv takes these through `...` (`quote`, `dec`, …): flowcast
/// reads with their defaults only.
fn unsupported(name: Option<&str>) -> String {
    match name {
        Some(n) => format!("flowcast's read.csv() does not support argument `{n}`"),
        None => "flowcast's read.csv() takes file, header and sep by position, \
                 and na.strings, skip and stringsAsFactors by name"
            .to_string(),
    }
}

fn skip_count(skip: f64) -> Result<usize, String> {
    if skip.is_nan() || skip < 0.0 {
        return Err("invalid 'skip' argument".into());
    }
    Ok(skip.min(1e9) as usize)
}

pub(super) fn shape_read_csv(a: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let file = match a.get("file") {
        Some(Type::Str { .. }) => a.const_str("file"),
        Some(Type::Any) => None,
        Some(_) => return Err(a.error("file", "'file' must be a character string")),
        None => None,
    };
    let (Some(file), Some(opts)) = (file, shape_options(a)?) else {
        // A data frame whose columns are not known before the run.
        return Ok(Type::Any);
    };
    let path = ctx.base_dir.join(file);
    if ctx.written.contains(&crate::regular_file::normal(&path)) {
        // A step writes it: what it holds is known only after that step.
        return Ok(Type::Any);
    }
    let t = read_table(file, &path, &opts).map_err(|m| a.error("file", m))?;
    Ok(t.shape())
}

pub(super) fn eval_read_csv(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let file = match a.get("file") {
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        _ => return Err(KernelError::new("'file' must be a character string")),
    };
    if let Some((name, _)) = a.dots().next() {
        return Err(KernelError::new(unsupported(name)));
    }
    let na_strings = match a.get("na.strings") {
        None => vec!["NA".to_string()],
        Some(Value::Str(s)) => s.clone(),
        Some(Value::Null) => Vec::new(),
        Some(_) => return Err(KernelError::new("invalid 'na.strings' argument")),
    };
    let opts = Options {
        header: a.bool_or("header", true)?,
        sep: a.str_or("sep", ",")?,
        na_strings,
        skip: skip_count(a.scalar_or("skip", 0.0)?).map_err(KernelError::new)?,
        strings_as_factors: a.bool_or("stringsAsFactors", false)?,
    };
    let t = read_table(file, &ctx.base_dir.join(file), &opts).map_err(KernelError::new)?;
    Ok(t.value())
}
