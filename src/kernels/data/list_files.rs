//! `list.files(path = ".", pattern = NULL, all.files = FALSE, full.names =
//! FALSE)`: the names in a directory, as R lists them: sorted as R sorts
//! text ([`collate`](crate::kernels::collate)), hidden names only with
//! `all.files = TRUE`, names matching `pattern` (R's extended regular
//! expressions, see [`regex`](crate::kernels::regex)) only, and with
//! `full.names = TRUE` each prefixed with `path/`. A directory that cannot
//! be read lists nothing, as in R.
//!
//! The shape rule lists the directory too, so a loop over the files
//! (`for = "f in list.files('data', pattern = '\\.csv$', full.names =
//! TRUE)"`) has its iterations fixed at analysis.

use std::path::Path;

use crate::kernels::collate;
use crate::kernels::regex::Regex;
use crate::kernels::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

/// The options of one call.
pub struct Listing<'a> {
    pub path: &'a str,
    pub pattern: Option<&'a str>,
    pub all_files: bool,
    pub full_names: bool,
}

/// What `list.files` gives for `l`, directories relative to `base`.
pub fn list(base: &Path, l: &Listing) -> Result<Vec<String>, String> {
    let pattern = l
        .pattern
        .map(|p| Regex::new(p).map_err(|e| format!("invalid 'pattern' regular expression: {e}")))
        .transpose()?;
    let dir = base.join(if l.path.is_empty() { "." } else { l.path });
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| l.all_files || !n.starts_with('.'))
        .filter(|n| pattern.as_ref().is_none_or(|p| p.is_match(n)))
        .collect();
    if l.all_files {
        names.extend([".".to_string(), "..".to_string()]);
    }
    let mut out: Vec<String> = if l.full_names {
        let prefix = l.path.strip_suffix('/').unwrap_or(l.path);
        names.iter().map(|n| format!("{prefix}/{n}")).collect()
    } else {
        names
    };
    out.sort_by(|a, b| collate::compare(a, b));
    Ok(out)
}

fn const_bool(a: &Args<Type>, name: &str) -> Result<Option<bool>, ArgError> {
    match a.ty(name) {
        None => Ok(Some(false)),
        Some(t @ (Type::Bool { .. } | Type::Num { .. })) => Ok(t.const_scalar().map(|x| x != 0.0)),
        Some(Type::Any) => Ok(None),
        Some(_) => Err(a.error(name, format!("invalid '{name}' argument"))),
    }
}

fn unsupported_flags(names: impl Iterator<Item = Option<String>>) -> Option<String> {
    names
        .flatten()
        .next()
        .map(|n| format!("flowcast's list.files() does not support argument `{n}`"))
}

pub(super) fn shape_list_files(a: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(m) = unsupported_flags(a.dots().map(|(n, _)| n.map(str::to_string))) {
        return Err(a.dots_error(0, m));
    }
    if a.dots().next().is_some() {
        return Err(a.dots_error(0, "unused argument"));
    }
    let path = match a.ty("path") {
        None => Some("."),
        Some(Type::Str { .. }) => a.const_str("path"),
        Some(Type::Any) => None,
        Some(_) => return Err(a.error("path", "invalid 'path' argument")),
    };
    let pattern = match a.ty("pattern") {
        None | Some(Type::Null) => Some(None),
        Some(Type::Str { .. }) => a.const_str("pattern").map(Some),
        Some(Type::Any) => None,
        Some(_) => return Err(a.error("pattern", "invalid 'pattern' argument")),
    };
    let all_files = const_bool(a, "all.files")?;
    let full_names = const_bool(a, "full.names")?;
    let (Some(path), Some(pattern), Some(all_files), Some(full_names)) =
        (path, pattern, all_files, full_names)
    else {
        return Ok(Type::Str {
            len: None,
            value: None,
        });
    };
    let names = list(
        ctx.base_dir,
        &Listing {
            path,
            pattern,
            all_files,
            full_names,
        },
    )
    .map_err(|m| a.error("pattern", m))?;
    Ok(Type::Str {
        len: Some(names.len()),
        value: Some(names),
    })
}

pub(super) fn eval_list_files(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some((name, _)) = a.dots().next() {
        return Err(KernelError::new(
            unsupported_flags(std::iter::once(name.map(str::to_string)))
                .unwrap_or_else(|| "unused argument".to_string()),
        ));
    }
    let pattern = match a.get("pattern") {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].as_str()),
        Some(_) => return Err(KernelError::new("invalid 'pattern' argument")),
    };
    let names = list(
        ctx.base_dir,
        &Listing {
            path: a.str_or("path", ".")?,
            pattern,
            all_files: a.bool_or("all.files", false)?,
            full_names: a.bool_or("full.names", false)?,
        },
    )
    .map_err(KernelError::new)?;
    Ok(Value::Str(names))
}
