//! `write.csv(x, file, row.names = TRUE)`: a data frame, matrix or vector
//! written as R's `write.csv` writes it, byte for byte; the step's value is
//! NULL.
//!
//! R's format (`write.table` with `sep = ","`, `qmethod = "double"` and
//! `col.names = NA`): a header of quoted names, led by `""` when row names
//! are written; the row names, quoted; text and factor labels quoted with
//! `"` doubled; numbers with up to 15 significant digits, as
//! `as.character` gives them; NA (or `na`), TRUE and FALSE bare; lines end
//! in `eol`. `quote = FALSE` quotes nothing, `quote = c(1, 3)` only those
//! columns (and the header and row names).
//!
//! What is written is what `write.table` makes of `x`: a data frame as it
//! is, its row names included; a matrix with its dimnames (rows numbered,
//! columns `V1` … `Vk` where it has none; a two-way table is one); any
//! other vector as `data.frame(x)`: the one column `"x"` with the vector's
//! names as row names, or, for a one-way table, its counts in long form
//! (`Var1`, `Freq`).
//!
//! The file is written whole to a temporary file beside it, then renamed
//! over it, so a crash or a failed step never leaves half a file.

use std::io::Write;
use std::path::Path;

use super::combine::r_num_to_string;
use crate::kernels::factor::text_is_na;
use crate::kernels::frame::as_frame;
use crate::kernels::names;
use crate::kernels::value::{is_na, Value};
use crate::kernels::{row_names, ArgError, Args, Ctx, KernelError, ShapeCtx, Type};

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// What `write.table` writes of `x`: columns with their names, row names,
/// and which columns `quote = TRUE` quotes.
struct Sheet {
    names: Vec<String>,
    columns: Vec<Value>,
    rows: Vec<String>,
    /// The columns `quote = TRUE` quotes: a data frame's text and factor
    /// columns (a matrix here is never text, so none of its).
    quoted: Vec<bool>,
}

/// `write.csv`'s `row.names`.
pub enum Rows {
    /// TRUE: x's own row names.
    Own,
    /// FALSE: none.
    Nothing,
    /// These, one per row.
    Given(Vec<String>),
}

/// `write.csv`'s `quote`.
pub enum Quote {
    /// TRUE: text and factor columns, the header and the row names.
    Text,
    /// FALSE: nothing.
    Nothing,
    /// Numbers: these columns (1-based; only text and factors among them
    /// show it), the header and the row names.
    Columns(Vec<usize>),
}

/// How `write.csv` was asked to write.
pub struct Options {
    pub row_names: Rows,
    pub quote: Quote,
    pub na: String,
    pub eol: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            row_names: Rows::Own,
            quote: Quote::Text,
            na: "NA".to_string(),
            eol: "\n".to_string(),
        }
    }
}

/// One column's cells as written, quoted where `quoted`.
fn cells(v: &Value, name: &str, quoted: bool, na: &str) -> Result<Vec<String>, KernelError> {
    let text = |s: &str| if quoted { quote(s) } else { s.to_string() };
    Ok(match v {
        Value::Num(x) => x
            .iter()
            .map(|&x| {
                if is_na(x) {
                    na.to_string()
                } else {
                    r_num_to_string(x)
                }
            })
            .collect(),
        Value::Bool(b) => b
            .iter()
            .map(|&b| match b {
                Some(true) => "TRUE".to_string(),
                Some(false) => "FALSE".to_string(),
                None => na.to_string(),
            })
            .collect(),
        Value::Str(s) => s
            .iter()
            .map(|s| {
                if text_is_na(s) {
                    na.to_string()
                } else {
                    text(s)
                }
            })
            .collect(),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| c.map_or_else(|| na.to_string(), |c| text(&f.levels[c as usize])))
            .collect(),
        other => {
            return Err(KernelError::new(format!(
                "write.csv() cannot write column `{name}`: it is a {}",
                other.type_name()
            )))
        }
    })
}

/// `x` as `write.table` sees it.
fn sheet(x: &Value) -> Result<Sheet, KernelError> {
    if let Some(l) = as_frame(x) {
        let columns: Vec<Value> = l
            .items
            .iter()
            .map(|c| names::strip_value(c.clone()))
            .collect();
        return Ok(Sheet {
            names: l.names.clone().unwrap_or_default(),
            quoted: columns
                .iter()
                .map(|c| matches!(c, Value::Str(_) | Value::Factor(_)))
                .collect(),
            columns,
            rows: row_names::labels(l),
        });
    }
    if names::table_dnn(x).is_some() && x.dims().is_none() {
        let long = crate::kernels::coerce::table_frame(x, "Freq", true)?;
        return sheet(&long);
    }
    let (labels, (rownames, colnames)) = (names::names(x), names::dimnames(x));
    let matrix = |nrow: usize, ncol: usize, column: &dyn Fn(usize) -> Value| Sheet {
        names: match colnames {
            Some(c) => c.to_vec(),
            None => (1..=ncol).map(|j| format!("V{j}")).collect(),
        },
        columns: (0..ncol).map(column).collect(),
        rows: match rownames {
            Some(r) => r.to_vec(),
            None => (1..=nrow).map(|i| i.to_string()).collect(),
        },
        quoted: vec![false; ncol],
    };
    match names::bare(x) {
        Value::Mat(m) => Ok(matrix(m.nrows(), m.ncols(), &|j| {
            Value::Num(m.column(j).iter().copied().collect())
        })),
        Value::BoolMat(m) => Ok(matrix(m.nrows(), m.ncols(), &|j| {
            Value::Bool(m.column(j).iter().copied().collect())
        })),
        v @ (Value::Num(_) | Value::Bool(_) | Value::Str(_) | Value::Factor(_)) => {
            let rows = match row_names::from_names(labels) {
                Some(r) => r.labels(),
                None => (1..=v.len()).map(|i| i.to_string()).collect(),
            };
            Ok(Sheet {
                names: vec!["x".to_string()],
                quoted: vec![matches!(v, Value::Str(_) | Value::Factor(_))],
                columns: vec![v.clone()],
                rows,
            })
        }
        other => Err(KernelError::new(format!(
            "write.csv() writes a data frame, a matrix or a vector, not {}",
            other.type_name()
        ))),
    }
}

/// The text R's `write.csv(x, row.names = row_names)` writes.
pub fn render(x: &Value, row_names: bool) -> Result<String, KernelError> {
    render_with(
        x,
        &Options {
            row_names: if row_names { Rows::Own } else { Rows::Nothing },
            ..Options::default()
        },
    )
}

/// The text R's `write.csv(x, ...)` writes, with `opts`.
pub fn render_with(x: &Value, opts: &Options) -> Result<String, KernelError> {
    let sheet = sheet(x)?;
    let p = sheet.columns.len();
    let nrow = sheet.rows.len();
    let rows: Option<&[String]> = match &opts.row_names {
        Rows::Own => Some(&sheet.rows),
        Rows::Nothing => None,
        Rows::Given(given) => {
            if given.len() != nrow {
                return Err(KernelError::new("invalid 'row.names' specification"));
            }
            Some(given)
        }
    };
    // Which columns are quoted, and whether the header and row names are.
    let (quoted, quote_labels): (Vec<bool>, bool) = match &opts.quote {
        Quote::Text => (sheet.quoted.clone(), true),
        Quote::Nothing => (vec![false; p], false),
        Quote::Columns(cols) => {
            if cols.iter().any(|&c| c < 1 || c > p) {
                return Err(KernelError::new("invalid numbers in 'quote'"));
            }
            ((1..=p).map(|j| cols.contains(&j)).collect(), true)
        }
    };
    let label = |s: &str| {
        if quote_labels {
            quote(s)
        } else {
            s.to_string()
        }
    };
    let written: Vec<Vec<String>> = sheet
        .columns
        .iter()
        .zip(&sheet.names)
        .zip(&quoted)
        .map(|((v, n), &q)| cells(v, n, q, &opts.na))
        .collect::<Result<_, _>>()?;
    if written.iter().any(|c| c.len() != nrow) {
        return Err(KernelError::new(
            "write.csv(): the columns differ in length",
        ));
    }
    let mut out = String::new();
    let mut header: Vec<String> = Vec::with_capacity(p + 1);
    if rows.is_some() {
        header.push(label(""));
    }
    header.extend(sheet.names.iter().map(|n| label(n)));
    out.push_str(&header.join(","));
    out.push_str(&opts.eol);
    for i in 0..nrow {
        let mut line: Vec<String> = Vec::with_capacity(p + 1);
        if let Some(r) = rows {
            line.push(label(&r[i]));
        }
        line.extend(written.iter().map(|c| c[i].clone()));
        out.push_str(&line.join(","));
        // R's writetable puts the separator after the row name, whether
        // or not a column follows.
        if rows.is_some() && p == 0 {
            out.push(',');
        }
        out.push_str(&opts.eol);
    }
    Ok(out)
}

/// Writes `text` to `path` through a temporary file in the same directory
/// and a rename, so the file is either the old one or the new one whole.
pub fn write_atomically(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.flowcast-tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn file_arg<'a>(a: &'a Args<&'a Value>) -> Result<&'a str, KernelError> {
    match a.get("file") {
        Some(Value::Str(s)) if s.len() == 1 && !s[0].is_empty() => Ok(&s[0]),
        Some(Value::Str(s)) if s.len() == 1 => Err(KernelError::new(
            "flowcast's write.csv() needs a file: it does not print to the console",
        )),
        None => Err(KernelError::new(
            "write.csv() needs a file: write.csv(x, \"out.csv\")",
        )),
        Some(_) => Err(KernelError::new("'file' must be a character string")),
    }
}

/// The write.table arguments write.csv fixes: R warns that each given is
/// ignored.
const FIXED: &[&str] = &["append", "col.names", "sep", "dec", "qmethod"];

fn options(a: &Args<&Value>) -> Result<Options, KernelError> {
    let mut opts = Options::default();
    if let Some(r) = a.get("row.names") {
        opts.row_names = match names::bare(r) {
            Value::Bool(b) if b.len() == 1 => match b[0] {
                Some(true) => Rows::Own,
                Some(false) => Rows::Nothing,
                None => return Err(KernelError::new("invalid 'row.names' specification")),
            },
            Value::Str(s) => Rows::Given(s.clone()),
            Value::Factor(f) => Rows::Given(f.labels()),
            Value::Num(x) => Rows::Given(x.iter().map(|&x| r_num_to_string(x)).collect()),
            _ => return Err(KernelError::new("invalid 'row.names' specification")),
        };
    }
    if let Some(q) = a.get("quote") {
        opts.quote = match names::bare(q) {
            Value::Bool(b) if b.len() == 1 && b[0].is_some() => {
                if b[0] == Some(true) {
                    Quote::Text
                } else {
                    Quote::Nothing
                }
            }
            Value::Bool(_) => {
                return Err(KernelError::new(
                    "'quote' must be 'TRUE', 'FALSE' or numeric",
                ))
            }
            Value::Num(x) => {
                if x.iter().any(|x| x.is_nan() || *x < 1.0) {
                    return Err(KernelError::new("invalid numbers in 'quote'"));
                }
                Quote::Columns(x.iter().map(|&x| x as usize).collect())
            }
            _ => return Err(KernelError::new("invalid 'quote' specification")),
        };
    }
    for (name, slot) in [("na", &mut opts.na), ("eol", &mut opts.eol)] {
        if let Some(v) = a.get(name) {
            match names::bare(v) {
                Value::Str(s) if s.len() == 1 => *slot = s[0].clone(),
                _ => {
                    return Err(KernelError::new(format!(
                        "invalid '{name}' argument: a character string is needed"
                    )))
                }
            }
        }
    }
    Ok(opts)
}

pub(super) fn eval_write_csv(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let file = file_arg(a)?;
    for name in FIXED {
        if a.has(name) {
            ctx.warn(format!("attempt to set '{name}' ignored"));
        }
    }
    let opts = options(a)?;
    let text = render_with(x, &opts)?;
    let path = ctx.base_dir.join(file);
    write_atomically(&path, text.as_bytes())
        .map_err(|e| KernelError::new(format!("cannot open file '{file}': {e}")))?;
    Ok(Value::Null)
}

pub(super) fn shape_write_csv(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match a.ty("file") {
        None => {
            return Err(ArgError::call(
                "write.csv() needs a file: write.csv(x, \"out.csv\")",
            ))
        }
        Some(Type::Str { .. } | Type::Any) => {}
        Some(_) => return Err(a.error("file", "'file' must be a character string")),
    }
    match a.ty("x") {
        Some(
            Type::Num { .. }
            | Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::Bool { .. }
            | Type::Str { .. }
            | Type::Factor { .. }
            | Type::Any,
        ) => {}
        Some(Type::Record { class, .. }) if class == crate::kernels::frame::CLASS => {}
        Some(t) => {
            return Err(a.error(
                "x",
                format!(
                    "write.csv() writes a data frame, a matrix or a vector, not {}",
                    t.describe()
                ),
            ))
        }
        None => return Err(ArgError::call("argument \"x\" is missing, with no default")),
    }
    if let Some(t) = a.ty("row.names") {
        if !matches!(
            t,
            Type::Bool { .. }
                | Type::Str { .. }
                | Type::Num { .. }
                | Type::Factor { .. }
                | Type::Any
        ) {
            return Err(a.error(
                "row.names",
                "write.csv() takes row.names = TRUE, FALSE or the names to write",
            ));
        }
    }
    if let Some(t) = a.ty("quote") {
        if !matches!(t, Type::Bool { .. } | Type::Num { .. } | Type::Any) {
            return Err(a.error("quote", "'quote' must be 'TRUE', 'FALSE' or numeric"));
        }
    }
    for name in ["na", "eol"] {
        if let Some(t) = a.ty(name) {
            if !matches!(
                t,
                Type::Str {
                    len: Some(1) | None,
                    ..
                } | Type::Any
            ) {
                return Err(a.error(
                    name,
                    format!("invalid '{name}' argument: a character string is needed"),
                ));
            }
        }
    }
    Ok(Type::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::frame::frame;
    use crate::kernels::value::NA;

    #[test]
    fn frames_are_written_as_r_writes_them() {
        let d = frame(
            vec!["g".into(), "y".into()],
            vec![
                Value::Str(vec!["a \"q\"".into(), "NA".into()]),
                Value::Num(vec![0.1 + 0.2, NA]),
            ],
        );
        assert_eq!(
            render(&d, true).unwrap(),
            "\"\",\"g\",\"y\"\n\"1\",\"a \"\"q\"\"\",0.3\n\"2\",NA,NA\n"
        );
        assert_eq!(
            render(&Value::Num(vec![1.0, 1e-20]), false).unwrap(),
            "\"x\"\n1\n1e-20\n"
        );
    }
}
