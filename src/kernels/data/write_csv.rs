//! `write.csv(x, file, row.names = TRUE)`: a data frame, matrix or vector
//! written as R's `write.csv` writes it, byte for byte; the step's value is
//! NULL.
//!
//! R's format (`write.table` with `sep = ","`, `qmethod = "double"`):
//! a header of quoted names, led by `""` when row names are written; row
//! names `"1"` … `"n"`; text and factor labels quoted with `"` doubled;
//! numbers with up to 15 significant digits, as `as.character` gives them;
//! NA, TRUE and FALSE bare; lines end in `\n`. A vector is the one column
//! `"x"` (R's `data.frame(x)` inside `write.table`), a matrix's columns are
//! `"V1"` … `"Vk"`.
//!
//! The file is written whole to a temporary file beside it, then renamed
//! over it, so a crash or a failed step never leaves half a file.

use std::io::Write;
use std::path::Path;

use super::combine::r_num_to_string;
use crate::kernels::factor::text_is_na;
use crate::kernels::frame::as_frame;
use crate::kernels::value::{is_na, Value};
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type};

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// One column's cells as written.
fn cells(v: &Value, name: &str) -> Result<Vec<String>, KernelError> {
    Ok(match v {
        Value::Num(x) => x.iter().map(|&x| number(x)).collect(),
        Value::Bool(b) => b
            .iter()
            .map(|&b| match b {
                Some(true) => "TRUE",
                Some(false) => "FALSE",
                None => "NA",
            })
            .map(str::to_string)
            .collect(),
        Value::Str(s) => s
            .iter()
            .map(|s| {
                if text_is_na(s) {
                    "NA".to_string()
                } else {
                    quote(s)
                }
            })
            .collect(),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| c.map_or_else(|| "NA".to_string(), |c| quote(&f.levels[c as usize])))
            .collect(),
        other => {
            return Err(KernelError::new(format!(
                "write.csv() cannot write column `{name}`: it is a {}",
                other.type_name()
            )))
        }
    })
}

fn number(x: f64) -> String {
    if is_na(x) {
        "NA".to_string()
    } else {
        r_num_to_string(x)
    }
}

/// The columns `x` is written as: names and values.
fn columns(x: &Value) -> Result<Vec<(String, Value)>, KernelError> {
    if let Some(l) = as_frame(x) {
        let names = l.names.clone().unwrap_or_default();
        return Ok(names.into_iter().zip(l.items.iter().cloned()).collect());
    }
    match x {
        Value::Mat(m) => Ok((0..m.ncols())
            .map(|j| {
                (
                    format!("V{}", j + 1),
                    Value::Num(m.column(j).iter().copied().collect()),
                )
            })
            .collect()),
        Value::Num(_) | Value::Bool(_) | Value::Str(_) | Value::Factor(_) => {
            Ok(vec![("x".to_string(), x.clone())])
        }
        other => Err(KernelError::new(format!(
            "write.csv() writes a data frame, a matrix or a vector, not {}",
            other.type_name()
        ))),
    }
}

/// The text R's `write.csv(x, row.names = row_names)` writes.
pub fn render(x: &Value, row_names: bool) -> Result<String, KernelError> {
    let cols = columns(x)?;
    let rows = cols.first().map_or(0, |(_, v)| v.len());
    let written: Vec<Vec<String>> = cols
        .iter()
        .map(|(n, v)| cells(v, n))
        .collect::<Result<_, _>>()?;
    let mut out = String::new();
    let mut header: Vec<String> = Vec::with_capacity(cols.len() + 1);
    if row_names {
        header.push("\"\"".to_string());
    }
    header.extend(cols.iter().map(|(n, _)| quote(n)));
    out.push_str(&header.join(","));
    out.push('\n');
    for i in 0..rows {
        let mut line: Vec<&str> = Vec::with_capacity(cols.len() + 1);
        let name = quote(&(i + 1).to_string());
        if row_names {
            line.push(&name);
        }
        line.extend(written.iter().map(|c| c[i].as_str()));
        out.push_str(&line.join(","));
        out.push('\n');
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

pub(super) fn eval_write_csv(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let file = file_arg(a)?;
    let row_names = a.bool_or("row.names", true)?;
    let text = render(x, row_names)?;
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
        if !matches!(t, Type::Bool { .. } | Type::Any) {
            return Err(a.error(
                "row.names",
                "flowcast's write.csv() takes row.names = TRUE or FALSE",
            ));
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
