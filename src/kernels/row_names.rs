//! A data frame's row names, R's `row.names` attribute.
//!
//! R keeps automatic row names (`1..n`, what `read.csv` and `data.frame()`
//! give) as just the count, and so does flowcast: [`List::row_names`] is
//! `None`. Any other row names are stored ([`RowNames`]): the row numbers
//! a frame was cut from (`d[order(d$y), ]`, `head(d)`, `na.omit(d)`) or
//! text (`data.frame(x, row.names = ...)`, a named vector's names).
//!
//! The difference is visible in R beyond `rownames(d)`: `as.matrix(d)`,
//! `is.na(d)` and `t(d)` name their rows only after non-automatic row
//! names, and `rbind` renumbers automatic ones (R's `.row_names_info(x) <
//! 0` is `row_names.is_none()`).
//!
//! `rownames(m) <- v` and `row.names(d) <- v` call `` `rownames<-` `` and
//! `` `row.names<-` `` here (the parser rewrites them as R defines them;
//! see `replace`), which may also be called by name.

use super::value::{List, RowNames, Value};
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "row.names",
        params: &[req("x")],
        random: false,
        shape: get_shape,
        eval: get_eval,
    },
    Kernel {
        name: "row.names<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: set_shape,
        eval: set_eval,
    },
    Kernel {
        name: "rownames<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: set_shape,
        eval: set_eval,
    },
];

/// Every row name as text (R's `rownames(d)`): `"1"` … `"n"` when
/// automatic.
pub fn labels(l: &List) -> Vec<String> {
    match &l.row_names {
        Some(r) => r.labels(),
        None => (1..=super::frame::nrow(l)).map(|i| i.to_string()).collect(),
    }
}

/// The row names a matrix made of the frame has (`as.matrix`, `is.na`):
/// none for automatic ones.
pub fn matrix_rownames(l: &List) -> Option<Vec<String>> {
    l.row_names.as_ref().map(RowNames::labels)
}

/// Row numbers `1..=n` as R's integer row names, text when they do not fit
/// R's integers.
fn numbers(rows: impl Iterator<Item = usize>) -> RowNames {
    let rows: Vec<usize> = rows.collect();
    match rows.iter().map(|&r| i32::try_from(r)).collect() {
        Ok(v) => RowNames::Numbers(v),
        Err(_) => RowNames::Text(rows.iter().map(usize::to_string).collect()),
    }
}

/// The row names `[.data.frame` gives the rows at `pos` (0-based; `None`
/// for a subscript that selects no row, which R names "NA"): the original
/// rows' names, made unique with `make.unique` where a row is taken twice
/// or an NA row appears beside a row named "NA".
pub fn picked(l: &List, pos: &[Option<usize>]) -> RowNames {
    let any_na = pos.iter().any(Option::is_none);
    let mut seen = std::collections::HashSet::with_capacity(pos.len());
    // Positions repeat exactly when names do: row names are unique.
    let mut dup = !pos.iter().all(|p| seen.insert(*p));
    let text = matches!(l.row_names, Some(RowNames::Text(_)));
    if !dup && any_na && text {
        dup = pos
            .iter()
            .flatten()
            .any(|&i| l.row_names.as_ref().is_some_and(|r| r.label(i) == "NA"));
    }
    if !any_na && !dup {
        return match &l.row_names {
            None => numbers(pos.iter().flatten().map(|&i| i + 1)),
            Some(RowNames::Numbers(v)) => {
                RowNames::Numbers(pos.iter().flatten().map(|&i| v[i]).collect())
            }
            Some(RowNames::Text(v)) => {
                RowNames::Text(pos.iter().flatten().map(|&i| v[i].clone()).collect())
            }
        };
    }
    let label = |i: usize| match &l.row_names {
        None => (i + 1).to_string(),
        Some(r) => r.label(i),
    };
    let rows: Vec<String> = pos
        .iter()
        .map(|p| p.map_or_else(|| "NA".to_string(), label))
        .collect();
    RowNames::Text(if dup {
        super::quote::make_unique(&rows, ".")
    } else {
        rows
    })
}

/// The 0-based rows a character row subscript names, as `[.data.frame`
/// finds them (`pmatch(i, rows, duplicates.ok = TRUE)`): an exact name,
/// else the one name it is a prefix of; `None` for neither.
pub fn find(l: &List, wanted: &[String]) -> Vec<Option<usize>> {
    let labels = labels(l);
    let mut exact: crate::kernels::hashing::FastMap<&str, usize> =
        crate::kernels::hashing::FastMap::with_capacity_and_hasher(
            labels.len(),
            Default::default(),
        );
    for (i, n) in labels.iter().enumerate().rev() {
        exact.insert(n.as_str(), i);
    }
    wanted
        .iter()
        .map(|w| {
            if let Some(&i) = exact.get(w.as_str()) {
                return Some(i);
            }
            if w.is_empty() {
                return None;
            }
            let mut hits = labels
                .iter()
                .enumerate()
                .filter(|(_, n)| n.starts_with(w.as_str()));
            match (hits.next(), hits.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        })
        .collect()
}

/// Row names as a value gives them: text, or whole numbers, kept as
/// numbers as R keeps an integer vector.
fn parse(v: &Value) -> Result<RowNames, KernelError> {
    Ok(match v {
        Value::Str(s) => RowNames::Text(s.clone()),
        Value::Factor(f) => RowNames::Text(f.labels()),
        other => match other.as_f64_slice() {
            Some(x)
                if x.iter()
                    .all(|x| x.fract() == 0.0 && x.abs() <= i32::MAX as f64) =>
            {
                RowNames::Numbers(x.iter().map(|&x| x as i32).collect())
            }
            Some(x) => RowNames::Text(x.iter().map(|&x| super::data::r_num_to_string(x)).collect()),
            None => {
                return Err(KernelError::new(format!(
                    "row names must be a character vector, not {}",
                    other.type_name()
                )))
            }
        },
    })
}

fn has_missing(v: &Value) -> bool {
    match v {
        Value::Str(s) => s.iter().any(|s| s == "NA"),
        Value::Factor(f) => f.codes.iter().any(Option::is_none),
        _ => v
            .as_f64_slice()
            .is_some_and(|x| x.iter().any(|x| x.is_nan())),
    }
}

/// The names that repeat, each once, in order of their second place.
fn repeated(rows: &RowNames) -> Vec<String> {
    let labels = rows.labels();
    let mut seen = std::collections::HashSet::with_capacity(labels.len());
    let mut out: Vec<String> = Vec::new();
    for l in &labels {
        if !seen.insert(l.as_str()) && !out.contains(l) {
            out.push(l.clone());
        }
    }
    out
}

/// Row names given as a value to `data.frame(..., row.names = )` (and
/// `as.data.frame`) for `n` rows, refused with `data.frame`'s messages.
pub fn given(v: &Value, n: usize) -> Result<Option<RowNames>, KernelError> {
    let v = super::names::bare(v);
    if matches!(v, Value::Null) {
        return Ok(None);
    }
    let rows = parse(v)?;
    if rows.len() != n {
        return Err(KernelError::new(
            "row names supplied are of the wrong length",
        ));
    }
    if has_missing(v) {
        return Err(KernelError::new("row names contain missing values"));
    }
    let repeats = repeated(&rows);
    if !repeats.is_empty() {
        return Err(KernelError::new(format!(
            "duplicate row.names: {}",
            repeats.join(", ")
        )));
    }
    Ok(Some(rows))
}

/// `row.names<-` and `rownames<-`: a data frame's row names replaced
/// (NULL: automatic), a matrix's row dimnames; R's messages for what does
/// not fit.
fn set_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let value = super::names::bare(args.get("value").unwrap_or(&Value::Null));
    if let Some(l) = super::frame::as_frame(x) {
        let mut out = l.clone();
        out.row_names = match value {
            Value::Null => None,
            v => {
                let rows = parse(v)?;
                if rows.len() != super::frame::nrow(l) {
                    return Err(KernelError::new("invalid 'row.names' length"));
                }
                if has_missing(v) {
                    return Err(KernelError::new(
                        "missing values in 'row.names' are not allowed",
                    ));
                }
                let repeats = repeated(&rows);
                if !repeats.is_empty() {
                    let quoted: Vec<String> = repeats
                        .iter()
                        .map(|r| format!("\u{2018}{r}\u{2019}"))
                        .collect();
                    ctx.warn(format!(
                        "non-unique value{} when setting 'row.names': {}",
                        if repeats.len() > 1 { "s" } else { "" },
                        quoted.join(", ")
                    ));
                    return Err(KernelError::new("duplicate 'row.names' are not allowed"));
                }
                Some(rows)
            }
        };
        return Ok(Value::List(out));
    }
    let Some((nrow, _)) = x.dims() else {
        return Err(KernelError::new(
            "attempt to set 'rownames' on an object with no dimensions",
        ));
    };
    let (_, cols) = super::names::dimnames(x);
    let rows = match value {
        Value::Null => None,
        v => {
            let labels = parse(v)?.labels();
            if labels.len() != nrow {
                return Err(KernelError::new(
                    "length of 'dimnames' [1] not equal to array extent",
                ));
            }
            Some(labels)
        }
    };
    Ok(super::names::dimnamed(
        super::names::bare(x).clone(),
        rows,
        cols.map(<[String]>::to_vec),
    ))
}

fn set_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t) if super::frame::frame_fields(t).is_some() => Ok(t.clone()),
        Some(
            t @ (Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::ComplexMat { .. }
            | Type::StrMat { .. }),
        ) => Ok(t.clone()),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(_) => Err(args.error(
            "x",
            "attempt to set 'rownames' on an object with no dimensions",
        )),
    }
}

/// `row.names(x)`: a data frame's row names as text, else `rownames(x)`.
fn get_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    Ok(match super::frame::as_frame(x) {
        Some(l) => Value::Str(labels(l)),
        None => super::names::dimnames(x)
            .0
            .map_or(Value::Null, |r| Value::Str(r.to_vec())),
    })
}

fn get_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(t) if super::frame::frame_fields(t).is_some() => Type::Str {
            len: super::frame::type_dims(t).and_then(|(r, _)| r),
            value: None,
        },
        Some(
            Type::Any
            | Type::Mat { .. }
            | Type::BoolMat { .. }
            | Type::ComplexMat { .. }
            | Type::StrMat { .. },
        ) => Type::Any,
        _ => Type::Null,
    })
}

/// A named vector's names as a data frame's row names (R's
/// `as.data.frame.vector`): kept unless they repeat or the vector is
/// empty.
pub fn from_names(names: Option<&[String]>) -> Option<RowNames> {
    let names = names?;
    if names.is_empty() {
        return None;
    }
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    names
        .iter()
        .all(|n| seen.insert(n.as_str()))
        .then(|| RowNames::Text(names.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::frame::frame;

    fn l(v: Value) -> List {
        match v {
            Value::List(l) => l,
            _ => unreachable!(),
        }
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn picking_rows_names_them_as_r_does() {
        let d = l(frame(s(&["x"]), vec![Value::Num(vec![1.0, 2.0, 3.0])]));
        assert_eq!(
            picked(&d, &[Some(2), Some(0)]),
            RowNames::Numbers(vec![3, 1])
        );
        assert_eq!(
            picked(&d, &[Some(0), Some(0), Some(1)]),
            RowNames::Text(s(&["1", "1.1", "2"]))
        );
        assert_eq!(
            picked(&d, &[Some(0), None, None]),
            RowNames::Text(s(&["1", "NA", "NA.1"]))
        );
        let mut named = d.clone();
        named.row_names = Some(RowNames::Text(s(&["a", "NA", "b"])));
        assert_eq!(
            picked(&named, &[Some(1), None]),
            RowNames::Text(s(&["NA", "NA.1"]))
        );
        assert_eq!(
            find(&named, &s(&["b", "a", "N", "z", ""])),
            vec![Some(2), Some(0), Some(1), None, None]
        );
    }
}
