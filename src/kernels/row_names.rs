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
//! names, and `rbind` renumbers automatic ones. [`is_automatic`] is R's
//! `.row_names_info(x) < 0`.

use std::collections::HashMap;

use super::value::{List, RowNames, Value};
use super::KernelError;

/// Every row name as text (R's `rownames(d)`): `"1"` … `"n"` when
/// automatic.
pub fn labels(l: &List) -> Vec<String> {
    match &l.row_names {
        Some(r) => r.labels(),
        None => (1..=super::frame::nrow(l)).map(|i| i.to_string()).collect(),
    }
}

/// R's `.row_names_info(x) < 0`: the row names are the automatic `1..n`.
pub fn is_automatic(l: &List) -> bool {
    l.row_names.is_none()
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
    RowNames::Text(if dup { make_unique(&rows, ".") } else { rows })
}

/// The 0-based rows a character row subscript names, as `[.data.frame`
/// finds them (`pmatch(i, rows, duplicates.ok = TRUE)`): an exact name,
/// else the one name it is a prefix of; `None` for neither.
pub fn find(l: &List, wanted: &[String]) -> Vec<Option<usize>> {
    let labels = labels(l);
    let mut exact: HashMap<&str, usize> = HashMap::with_capacity(labels.len());
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

/// R's `make.unique(names, sep)`: the second `x` becomes `x<sep>1`, the
/// third `x<sep>2`, skipping names already taken.
pub fn make_unique(names: &[String], sep: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    let mut taken: std::collections::HashSet<String> = names.iter().cloned().collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut first_seen: std::collections::HashSet<&str> = Default::default();
    for n in names {
        if first_seen.insert(n.as_str()) {
            out.push(n.clone());
            continue;
        }
        let k = counts.entry(n.as_str()).or_insert(0);
        let name = loop {
            *k += 1;
            let candidate = format!("{n}{sep}{k}");
            if !taken.contains(&candidate) {
                break candidate;
            }
        };
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

/// Row names given as a value (`data.frame(..., row.names = )`,
/// `as.data.frame(x, row.names = )`, `write.csv(x, row.names = )`) for
/// `n` rows, refused as R's `row.names<-.data.frame` refuses them. Whole
/// numbers are kept as numbers, as R keeps an integer vector.
pub fn given(v: &Value, n: usize) -> Result<Option<RowNames>, KernelError> {
    let v = super::names::bare(v);
    let rows = match v {
        Value::Null => return Ok(None),
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
    };
    if rows.len() != n {
        return Err(KernelError::new(
            "row names supplied are of the wrong length",
        ));
    }
    let missing = match v {
        Value::Str(s) => s.iter().any(|s| s == "NA"),
        Value::Factor(f) => f.codes.iter().any(Option::is_none),
        _ => v
            .as_f64_slice()
            .is_some_and(|x| x.iter().any(|x| x.is_nan())),
    };
    if missing {
        return Err(KernelError::new("row names contain missing values"));
    }
    let labels = rows.labels();
    let mut seen = std::collections::HashSet::with_capacity(labels.len());
    let mut repeated: Vec<&str> = Vec::new();
    for l in &labels {
        if !seen.insert(l.as_str()) && !repeated.contains(&l.as_str()) {
            repeated.push(l);
        }
    }
    if !repeated.is_empty() {
        return Err(KernelError::new(format!(
            "duplicate row.names: {}",
            repeated.join(", ")
        )));
    }
    Ok(Some(rows))
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

    #[test]
    fn make_unique_skips_taken_names() {
        assert_eq!(
            make_unique(&s(&["a", "a", "a.1", "a"]), "."),
            s(&["a", "a.2", "a.1", "a.3"])
        );
        assert_eq!(make_unique(&s(&["3", "3"]), ""), s(&["3", "31"]));
    }
}
