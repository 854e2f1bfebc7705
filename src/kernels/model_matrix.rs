//! R's `model.matrix` (`modelmatrix` in R's `src/library/stats/src/model.c`)
//! for every fit: `lm`, `glm` and `aov` build their design matrices here,
//! and `predict` builds newdata's.
//!
//! A formula's term is one variable or an interaction of several; the
//! evaluator hands an interaction over as its variables (an [`INTERACTION`]
//! list), never as a product, because a factor in an interaction is coded
//! by how the other terms include it. Each variable is coded once: numbers
//! as their columns, factors (text, logicals and factors, as R makes them)
//! by treatment contrasts or by an indicator per level, as R's `TermCode`
//! decides from the terms before it. A term's columns are the products of
//! its variables' columns, the first variable's varying fastest, named
//! `a:b` from the variables' column names.

use super::contrasts::FactorContrasts;
use super::value::{Formula, List, NA};
use super::{KernelError, Type, Value};

/// The class of a formula term's value that joins several variables.
pub const INTERACTION: &str = "interaction";

/// A formula term `a:b:…` as the evaluator hands it to a fit: each
/// variable's label and value, in R's variable order.
pub fn interaction(variables: Vec<(String, Value)>) -> Value {
    let (names, items) = variables.into_iter().unzip();
    Value::List(List {
        class: Some(INTERACTION.to_string()),
        names: Some(names),
        items,
        row_names: None,
    })
}

/// The class of a formula term's value that is an offset
/// (`offset(log(t))`): no column of the model matrix, but a known part of
/// the linear predictor (R's `attr(terms, "offset")`).
pub const OFFSET: &str = "offset";

/// A formula term `offset(v)` as the evaluator hands it to a fit.
pub fn offset_term(v: Value) -> Value {
    Value::List(List {
        class: Some(OFFSET.to_string()),
        names: None,
        items: vec![v],
        row_names: None,
    })
}

/// The values of an offset term (see [`offset_term`]).
pub fn offset_of(v: &Value) -> Option<&Value> {
    match v {
        Value::List(l) if l.class.as_deref() == Some(OFFSET) => l.items.first(),
        _ => None,
    }
}

/// The type of an offset term.
pub fn offset_type(t: Type) -> Type {
    Type::Record {
        class: OFFSET.to_string(),
        fields: vec![("offset".to_string(), t)],
    }
}

/// Whether a term's type is an offset's.
pub fn is_offset_type(t: &Type) -> bool {
    matches!(t, Type::Record { class, .. } if class == OFFSET)
}

/// The variables of a formula term's value: its own when it is an
/// interaction, else the term itself.
fn term_variables<'a>(label: &'a str, v: &'a Value) -> Vec<(&'a str, &'a Value)> {
    match v {
        Value::List(l) if l.class.as_deref() == Some(INTERACTION) => l
            .names
            .iter()
            .flatten()
            .map(String::as_str)
            .zip(&l.items)
            .collect(),
        v => vec![(label, v)],
    }
}

/// The variables a formula's terms are made of, each once, and each
/// term's variables as ascending indices into them. The order is R's
/// wherever a term joins variables: a variable an interaction names first
/// goes before those it names after it (R's order is that of the
/// formula's text, which the terms no longer hold; variables no term
/// joins keep the order the terms first name them in).
pub fn variables(f: &Formula) -> (Vec<(&str, &Value)>, Vec<Vec<usize>>) {
    let lists: Vec<Vec<(&str, &Value)>> = f
        .terms
        .iter()
        .map(|(label, v)| term_variables(label, v))
        .collect();
    let mut seen: Vec<(&str, &Value)> = Vec::new();
    for &(l, v) in lists.iter().flatten() {
        if !seen.iter().any(|(n, _)| *n == l) {
            seen.push((l, v));
        }
    }
    // Each interaction orders its variables: place the first variable no
    // unplaced one must precede.
    let must_follow = |a: &str, b: &str| {
        lists.iter().any(|list| {
            let at = |x: &str| list.iter().position(|(n, _)| *n == x);
            matches!((at(a), at(b)), (Some(i), Some(j)) if i > j)
        })
    };
    let mut vars: Vec<(&str, &Value)> = Vec::with_capacity(seen.len());
    while !seen.is_empty() {
        let next = (0..seen.len())
            .find(|&i| !seen.iter().any(|(b, _)| must_follow(seen[i].0, b)))
            .unwrap_or(0);
        vars.push(seen.remove(next));
    }
    let terms = lists
        .iter()
        .map(|list| {
            let mut term: Vec<usize> = list
                .iter()
                .filter_map(|(l, _)| vars.iter().position(|(n, _)| n == l))
                .collect();
            term.sort_unstable();
            term
        })
        .collect();
    (vars, terms)
}

/// A variable as `model.matrix` codes it, at the rows of the matrix.
pub enum Coded {
    /// Numbers: a vector's one column or a matrix's columns.
    Numbers(Vec<Vec<f64>>),
    /// A factor: its levels and each row's level (`None` for NA).
    Factor {
        levels: Vec<String>,
        codes: Vec<Option<usize>>,
        /// The contrasts `contrasts.arg` gave it; `None`: treatment.
        contrasts: Option<FactorContrasts>,
    },
}

impl Coded {
    /// A logical as R's `model.matrix` makes it a factor: levels FALSE and
    /// TRUE whichever occur.
    pub fn logical(b: &[Option<bool>]) -> Coded {
        Coded::Factor {
            levels: vec!["FALSE".to_string(), "TRUE".to_string()],
            codes: b.iter().map(|b| b.map(usize::from)).collect(),
            contrasts: None,
        }
    }
}

/// How a factor is coded in a term: R's `factors` attribute of `terms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// Treatment contrasts: a column per level but the first.
    Contrasts = 1,
    /// An indicator column per level.
    Indicators = 2,
}

/// R's `TermCode`: variable `v` of term `k` is coded by contrasts when the
/// term without it is empty or is within an earlier term (S's rule,
/// "Statistical Models in S" p. 38), else by indicators. Numeric variables
/// get a code too, which their coding ignores.
pub fn codings(terms: &[Vec<usize>]) -> Vec<Vec<Coding>> {
    terms
        .iter()
        .enumerate()
        .map(|(k, term)| {
            term.iter()
                .map(|&v| {
                    let rest: Vec<usize> = term.iter().copied().filter(|&u| u != v).collect();
                    let marginal = rest.is_empty()
                        || terms[..k]
                            .iter()
                            .any(|t| rest.iter().all(|u| t.contains(u)));
                    if marginal {
                        Coding::Contrasts
                    } else {
                        Coding::Indicators
                    }
                })
                .collect()
        })
        .collect()
}

/// A model matrix: column-major, `n` rows.
pub struct ModelMatrix {
    pub x: Vec<f64>,
    pub names: Vec<String>,
    /// R's `assign`: each column's term, 1-based (0 for the intercept).
    pub assign: Vec<usize>,
}

/// One column of a term being built: its name and values.
type Column = (String, Vec<f64>);

/// `model.matrix` of coded variables (each `n` rows, in R's order) and
/// terms (their variables, ascending); the intercept first when asked.
pub fn build(
    vars: &[(&str, Coded)],
    terms: &[Vec<usize>],
    intercept: bool,
    n: usize,
) -> Result<ModelMatrix, KernelError> {
    for (label, c) in vars {
        let (rows, cols) = match c {
            Coded::Numbers(cols) => (cols.first().map_or(n, Vec::len), cols.len()),
            Coded::Factor { levels, codes, .. } => {
                if levels.len() < 2 {
                    return Err(KernelError::new(format!(
                        "contrasts can be applied only to factors with 2 or more levels \
                         (variable '{label}')"
                    )));
                }
                (codes.len(), 1)
            }
        };
        if rows != n || cols == 0 {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
    }
    let mut codes = codings(terms);
    if !intercept {
        // Without an intercept the first factor of the first term that has
        // one is coded by every level.
        let first = terms.iter().enumerate().find_map(|(k, term)| {
            let j = term
                .iter()
                .position(|&v| matches!(vars[v].1, Coded::Factor { .. }))?;
            Some((k, j))
        });
        if let Some((k, j)) = first {
            codes[k][j] = Coding::Indicators;
        }
    }
    // The matrix, and a term's columns beside it while they are copied in.
    // Grown as the columns came, `model.matrix(~ factor(1:1e4))` aborted
    // the process on the 1.3 GB its doubling asked for under a 4 GB limit.
    let cells = n.saturating_mul(columns_at_most(vars, terms));
    let mut out = ModelMatrix {
        x: super::alloc::vec_with_capacity(cells)?,
        names: Vec::new(),
        assign: Vec::new(),
    };
    super::alloc::ensure_room(cells as f64 * 8.0)?;
    if intercept {
        out.x.extend(std::iter::repeat_n(1.0, n));
        out.names.push("(Intercept)".to_string());
        out.assign.push(0);
    }
    for (k, term) in terms.iter().enumerate() {
        let mut cols: Vec<Column> = Vec::new();
        for (j, &v) in term.iter().enumerate() {
            let (label, coded) = (&vars[v].0, &vars[v].1);
            let new = variable_columns(label, coded, codes[k][j]);
            cols = if j == 0 {
                new
            } else {
                // R's `addvar`/`addfactor`: the new variable's columns
                // outermost, the term's columns so far innermost.
                let mut joined = Vec::with_capacity(cols.len() * new.len());
                for (nn, nv) in &new {
                    for (cn, cv) in &cols {
                        let v = cv.iter().zip(nv).map(|(a, b)| b * a).collect();
                        joined.push((format!("{cn}:{nn}"), v));
                    }
                }
                joined
            };
        }
        for (name, col) in cols {
            out.x.extend(col);
            out.names.push(name);
            out.assign.push(k + 1);
        }
    }
    Ok(out)
}

/// How many columns [`build`] makes at most: the intercept's, and a
/// factor's by all its levels (or its contrasts' columns) whatever its
/// coding.
fn columns_at_most(vars: &[(&str, Coded)], terms: &[Vec<usize>]) -> usize {
    terms
        .iter()
        .map(|term| {
            term.iter()
                .map(|&v| match &vars[v].1 {
                    Coded::Numbers(cols) => cols.len(),
                    Coded::Factor {
                        levels, contrasts, ..
                    } => contrasts
                        .as_ref()
                        .map_or(0, |c| c.columns.len())
                        .max(levels.len()),
                })
                .fold(1usize, usize::saturating_mul)
        })
        .fold(1usize, usize::saturating_add)
}

/// One variable's columns in a term: a number's as they are (`x`, or
/// `x1`, `x2`… for a matrix), a factor's by its coding (`aB`).
fn variable_columns(label: &str, c: &Coded, coding: Coding) -> Vec<Column> {
    match c {
        Coded::Numbers(cols) if cols.len() == 1 => vec![(label.to_string(), cols[0].clone())],
        Coded::Numbers(cols) => cols
            .iter()
            .enumerate()
            .map(|(j, c)| (format!("{label}{}", j + 1), c.clone()))
            .collect(),
        Coded::Factor {
            codes,
            contrasts: Some(c),
            ..
        } if coding == Coding::Contrasts => {
            // R's `addfactor` with a contrast matrix: each column's value
            // at the row's level, named by the matrix's column names or
            // else numbered.
            c.columns
                .iter()
                .enumerate()
                .map(|(j, col)| {
                    let values = codes
                        .iter()
                        .map(|c| c.and_then(|c| col.get(c).copied()).unwrap_or(NA))
                        .collect();
                    let name = match c.names.as_ref().and_then(|n| n.get(j)) {
                        Some(n) => format!("{label}{n}"),
                        None => format!("{label}{}", j + 1),
                    };
                    (name, values)
                })
                .collect()
        }
        Coded::Factor { levels, codes, .. } => {
            let first = match coding {
                Coding::Contrasts => 1,
                Coding::Indicators => 0,
            };
            (first..levels.len())
                .map(|l| {
                    let col = codes
                        .iter()
                        .map(|c| match c {
                            None => NA,
                            Some(c) => f64::from(u8::from(*c == l)),
                        })
                        .collect();
                    (format!("{label}{}", levels[l]), col)
                })
                .collect()
        }
    }
}

/// The type of an interaction term's value.
pub fn interaction_type(variables: Vec<(String, Type)>) -> Type {
    Type::Record {
        class: INTERACTION.to_string(),
        fields: variables,
    }
}

/// Whether a variable's type is a factor to `model.matrix`.
fn factor_type(t: &Type) -> bool {
    matches!(
        t,
        Type::Bool { .. } | Type::Str { .. } | Type::Factor { .. }
    )
}

/// What a term's size is read from: an interaction's first variable (all
/// have the model's rows), any other term itself.
pub fn sized_by(t: &Type) -> &Type {
    match t {
        Type::Record { class, fields } if class == INTERACTION => {
            fields.first().map_or(t, |(_, f)| f)
        }
        t => t,
    }
}

/// The rows of a term's type, when known.
pub fn term_len(t: &Type) -> Option<usize> {
    match t {
        Type::Mat { rows, .. } => *rows,
        Type::Record { class, fields } if class == INTERACTION || class == OFFSET => {
            fields.iter().find_map(|(_, t)| term_len(t))
        }
        Type::Any => None,
        t => t.len(),
    }
}

/// The model matrix's columns from a formula's term types, when known.
/// `Err` names the term whose variable no fit takes.
pub fn columns_type(terms: &[(String, Type)], intercept: bool) -> Result<Option<usize>, String> {
    let mut p = Some(usize::from(intercept));
    // Without an intercept the first factor is coded with all its levels.
    let mut first_factor = !intercept;
    for (label, t) in terms {
        let cols = match t {
            t if is_offset_type(t) => Some(0),
            Type::Record { class, fields } if class == INTERACTION => {
                if fields.iter().any(|(_, t)| factor_type(t)) {
                    // Contrasts or indicators: known from the data's levels.
                    first_factor = false;
                    None
                } else {
                    let mut k = Some(1);
                    for (_, t) in fields {
                        let c = single_columns(t, false).map_err(|m| format!("{m} '{label}'"))?;
                        k = k.zip(c).map(|(a, b)| a * b);
                    }
                    k
                }
            }
            t => {
                let c = single_columns(t, first_factor).map_err(|m| format!("{m} '{label}'"))?;
                first_factor &= !factor_type(t);
                c
            }
        };
        p = p.zip(cols).map(|(a, b)| a + b);
    }
    Ok(p)
}

/// Columns one variable contributes to the design matrix, when known.
/// `first_factor`: no intercept, and no factor term before this one, so
/// a factor term is coded with all its levels.
fn single_columns(t: &Type, first_factor: bool) -> Result<Option<usize>, String> {
    let dummies = |levels: usize| {
        if first_factor {
            levels
        } else {
            levels.saturating_sub(1)
        }
    };
    match t {
        Type::Num { .. } => Ok(Some(1)),
        Type::Bool { .. } => Ok(Some(dummies(2))),
        Type::Mat { cols, .. } => Ok(*cols),
        Type::Any => Ok(None),
        // Text levels are those of the rows the fit keeps: known at run time.
        Type::Str { .. } => Ok(None),
        Type::Factor { levels, .. } => Ok(levels.as_ref().map(|l| dummies(l.len()))),
        other => Err(format!(
            "invalid type ({}) for a variable in lm()",
            other.describe()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(levels: &[&str], codes: &[usize]) -> Coded {
        Coded::Factor {
            levels: levels.iter().map(|s| s.to_string()).collect(),
            codes: codes.iter().map(|&c| Some(c)).collect(),
            contrasts: None,
        }
    }

    #[test]
    fn term_codes_follow_rs_margins() {
        use Coding::*;
        // a + b + a:b: both margins present, contrasts throughout.
        assert_eq!(
            codings(&[vec![0], vec![1], vec![0, 1]]),
            [vec![Contrasts], vec![Contrasts], vec![Contrasts, Contrasts]]
        );
        // a:b alone: neither margin, indicators for both.
        assert_eq!(codings(&[vec![0, 1]]), [vec![Indicators, Indicators]]);
        // x + x:a: a's margin is x, so a by contrasts; x's margin a is not.
        assert_eq!(
            codings(&[vec![0], vec![0, 1]]),
            [vec![Contrasts], vec![Indicators, Contrasts]]
        );
    }

    #[test]
    fn interaction_columns_are_named_and_ordered_as_r() {
        let a = factor(&["p", "q", "r"], &[0, 1, 2, 0]);
        let x = Coded::Numbers(vec![vec![1.0, 2.0, 3.0, 4.0]]);
        let vars = [("a", a), ("x", x)];
        let m = build(&vars, &[vec![0], vec![1], vec![0, 1]], true, 4).unwrap();
        assert_eq!(m.names, ["(Intercept)", "aq", "ar", "x", "aq:x", "ar:x"]);
        assert_eq!(m.assign, [0, 1, 1, 2, 3, 3]);
        assert_eq!(&m.x[16..20], &[0.0, 2.0, 0.0, 0.0]);
        let m = build(&vars, &[vec![0, 1]], false, 4).unwrap();
        assert_eq!(m.names, ["ap:x", "aq:x", "ar:x"]);
    }

    #[test]
    fn a_one_level_factor_is_refused() {
        let vars = [("a", factor(&["p"], &[0, 0]))];
        let e = build(&vars, &[vec![0]], true, 2).err().unwrap();
        assert!(e.0.contains("2 or more levels"), "{}", e.0);
    }
}
