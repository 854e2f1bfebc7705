//! `replications(formula, data)` and `model.tables(x, type, se)` of a
//! single-stratum aov fit: R's `replications` and `model.tables.aov` (with
//! `make.tables.aovproj` and `se.aov`) of stats' model.tables.R.
//!
//! A factor term's table is the mean, over each cell of its factors, of
//! the term's projection (`proj(x, unweighted.scale = TRUE)`): "effects";
//! with the grand mean's and its margins' projections added, "means". A
//! table of one factor is a vector named by its levels, of two factors a
//! matrix with both factors' levels as dimnames, the first factor's
//! levels down the rows.

use super::super::factor::as_factor;
use super::super::model_matrix;
use super::super::names;
use super::super::summary::{mean, sum};
use super::super::value::{List, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::aov::{cell_means, counts, crossed, factor_term, projections, FactorTerm, CLASS};
use super::fit::Fit;

pub(super) fn replications_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("formula") {
        None | Some(Type::Any | Type::Formula { .. }) => Ok(Type::Any),
        Some(t) => Err(args.error(
            "formula",
            format!(
                "replications() needs a formula (~ a + b), not {}",
                t.describe()
            ),
        )),
    }
}

/// Whether row `i` of a variable is NA, as `model.frame`'s `na.omit`
/// reads it.
fn na_at(v: &Value, i: usize) -> bool {
    match v {
        Value::Factor(f) => f.codes.get(i).is_some_and(Option::is_none),
        Value::Str(s) => s.get(i).is_some_and(|x| x == "NA"),
        Value::Bool(b) => b.get(i).is_some_and(Option::is_none),
        other => other
            .as_f64_slice()
            .and_then(|x| x.get(i).copied())
            .is_some_and(f64::is_nan),
    }
}

/// A variable as `replications` reads it: a factor, or text made one
/// (`as.factor`); anything else is no factor.
fn cells_of(v: &Value, rows: &[usize]) -> Option<FactorTerm> {
    let f = match v {
        Value::Factor(_) | Value::Str(_) => as_factor(v).ok()?,
        _ => return None,
    };
    let codes = rows
        .iter()
        .map(|&i| f.codes.get(i).copied().flatten().map(|c| c as usize))
        .collect::<Option<Vec<usize>>>()?;
    Some(FactorTerm {
        levels: f.levels,
        codes,
    })
}

/// One term's replications: its count when every cell has the same
/// number of rows, else the table of counts (R's `tapply(dummy, …,
/// length)` with its NAs made 0).
enum Reps {
    Same(f64),
    Table(Vec<f64>),
}

fn reps_of(f: &FactorTerm) -> Reps {
    let n = counts(f);
    // `unique(as.vector(tble))`: an empty cell is NA, another value.
    match n.first() {
        Some(&first) if first > 0.0 && n.iter().all(|&c| c == first) => Reps::Same(first),
        _ => Reps::Table(n),
    }
}

/// The shape R gives a term's table over `dims` (each factor's levels): a
/// vector named by the levels, or a matrix with dimnames.
fn shaped(values: Vec<f64>, dims: &[Vec<String>]) -> Result<Value, KernelError> {
    match dims {
        [levels] => Ok(names::named(Value::Num(values), levels.clone())),
        [rows, cols] => {
            let m = nalgebra::DMatrix::from_column_slice(rows.len(), cols.len(), &values);
            Ok(names::dimnamed(
                Value::Mat(m),
                Some(rows.clone()),
                Some(cols.clone()),
            ))
        }
        _ => Err(KernelError::new(
            "a table of a term of three or more factors is an array, which flowcast \
             does not hold: ask for the terms of one or two factors",
        )),
    }
}

/// `replications`' value: a named vector when every term is balanced,
/// else a list holding each term's count or table.
fn replications_value(
    labels: Vec<String>,
    reps: Vec<(Reps, Vec<Vec<String>>)>,
) -> Result<Value, KernelError> {
    if reps.iter().all(|(r, _)| matches!(r, Reps::Same(_))) {
        let n = reps
            .iter()
            .map(|(r, _)| match r {
                Reps::Same(n) => *n,
                Reps::Table(_) => NA,
            })
            .collect();
        return Ok(names::named(Value::Num(n), labels));
    }
    let items = reps
        .into_iter()
        .map(|(r, dims)| match r {
            Reps::Same(n) => Ok(Value::scalar(n)),
            Reps::Table(t) => shaped(t, &dims),
        })
        .collect::<Result<Vec<Value>, KernelError>>()?;
    Ok(Value::List(List {
        class: None,
        names: Some(labels),
        items,
        row_names: None,
    }))
}

pub(super) fn replications_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = match args.get("formula") {
        Some(Value::Formula(f)) => f,
        Some(v) => {
            return Err(KernelError::new(format!(
                "replications() needs a formula (~ a + b), not {}",
                v.type_name()
            )))
        }
        None => {
            return Err(KernelError::new(
                "argument \"formula\" is missing, with no default",
            ))
        }
    };
    let (vars, terms) = model_matrix::variables(f);
    let n = vars
        .iter()
        .map(|(_, v)| v.len())
        .chain(f.response.as_deref().map(Value::len))
        .max()
        .unwrap_or(0);
    let mut columns: Vec<&Value> = vars.iter().map(|(_, v)| *v).collect();
    columns.extend(f.response.as_deref());
    if columns.iter().any(|v| v.len() != n) {
        return Err(KernelError::new(
            "variable lengths differ in replications()'s formula",
        ));
    }
    // model.frame's na.omit: rows with an NA in any variable go.
    let rows: Vec<usize> = (0..n)
        .filter(|&i| !columns.iter().any(|v| na_at(v, i)))
        .collect();
    let mut labels = Vec::new();
    let mut reps = Vec::new();
    for ((label, _), term) in f.terms.iter().zip(&terms) {
        let parts: Option<Vec<FactorTerm>> =
            term.iter().map(|&v| cells_of(vars[v].1, &rows)).collect();
        let Some(parts) = parts else {
            let names: Vec<&str> = term.iter().map(|&v| vars[v].0).collect();
            ctx.warn(format!("non-factors ignored: {}", names.join(", ")));
            continue;
        };
        let dims: Vec<Vec<String>> = parts.iter().map(|p| p.levels.clone()).collect();
        let Some(cells) = crossed(parts) else {
            continue;
        };
        labels.push(label.clone());
        reps.push((reps_of(&cells), dims));
    }
    replications_value(labels, reps)
}

pub(super) fn tables_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        None | Some(Type::Any) => {}
        Some(Type::Record { class, .. }) if class == CLASS => {}
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "no applicable method for 'model.tables' applied to an object of class \"{}\"",
                    match t {
                        Type::Record { class, .. } => class.clone(),
                        t => t.describe(),
                    }
                ),
            ))
        }
    }
    if let Some(t) = args.ty("type") {
        if !matches!(t, Type::Str { .. } | Type::Any) {
            return Err(args.error("type", "'arg' must be NULL or a character vector"));
        }
    }
    if args.has("cterms") {
        return Err(args.error(
            "cterms",
            "model.tables' cterms is not supported: pick the table by name from $tables",
        ));
    }
    Ok(Type::Any)
}

/// `match.arg(type, c("effects", "means", "residuals"))`.
fn table_type(v: Option<&Value>) -> Result<bool, KernelError> {
    let choices = ["effects", "means", "residuals"];
    let t = match v {
        None => return Ok(false),
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(Value::Str(s)) if s.len() == choices.len() => s[0].as_str(),
        Some(Value::Str(_)) => return Err(KernelError::new("'arg' must be of length 1")),
        Some(_) => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    let hits: Vec<&str> = choices
        .iter()
        .copied()
        .filter(|c| !t.is_empty() && c.starts_with(t))
        .collect();
    match hits.as_slice() {
        ["effects"] => Ok(false),
        ["means"] => Ok(true),
        ["residuals"] => Err(KernelError::new(
            "type 'residuals' is not implemented yet",
        )),
        _ => Err(KernelError::new(
            "'arg' should be one of \u{201c}effects\u{201d}, \u{201c}means\u{201d}, \u{201c}residuals\u{201d}",
        )),
    }
}

pub(super) fn tables_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let fit = match (x, Fit::from_value(x)) {
        (Value::List(l), Some(fit)) if l.class.as_deref() == Some(CLASS) => fit,
        (Value::List(l), _) => {
            return Err(KernelError::new(format!(
                "no applicable method for 'model.tables' applied to an object of class \"{}\"",
                l.class.as_deref().unwrap_or("list")
            )))
        }
        (v, _) => {
            return Err(KernelError::new(format!(
                "no applicable method for 'model.tables' applied to an object of class \"{}\"",
                v.type_name()
            )))
        }
    };
    let means = table_type(args.get("type"))?;
    let se = crate::kernels::logical::if_given(args.get("se"), false)?;
    let labels = fit.term_labels();
    let Some(Value::List(model)) = fit.exact("model") else {
        return Err(KernelError::new("the aov fit has no model frame ('model')"));
    };
    let (variables, term_variables) = fit.term_variables();
    let names_of = |t: usize| -> Vec<&str> {
        term_variables
            .get(t)
            .map(|vs| vs.iter().map(|&v| variables[v].as_str()).collect())
            .unwrap_or_default()
    };
    let proj = projections(&fit)?;
    let residuals = fit.nums("residuals")?;
    let n_rows = residuals.len();
    let mut table_names = Vec::new();
    let mut tables = Vec::new();
    let mut reps = Vec::new();
    for (t, label) in labels.iter().enumerate() {
        let vars = names_of(t);
        let Some(cells) = factor_term(&fit, model, &vars) else {
            return Err(KernelError::new(format!(
                "model.tables needs factor terms: `{label}` has a variable that is no factor"
            )));
        };
        if cells.codes.len() != n_rows {
            return Err(KernelError::new(
                "the aov fit's model frame does not match its residuals",
            ));
        }
        let dims: Vec<Vec<String>> = vars
            .iter()
            .map(|v| factor_term(&fit, model, &[*v]).map(|f| f.levels))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| KernelError::new("the aov fit's model frame lacks a factor"))?;
        // "effects": the term's own projection; "means": the grand mean's
        // and every term within this one (its margins and itself).
        let within = |a: usize| {
            if means {
                a == 0
                    || term_variables
                        .get(a - 1)
                        .is_some_and(|u| u.iter().all(|v| term_variables[t].contains(v)))
            } else {
                a == t + 1
            }
        };
        let mut data = vec![0.0; n_rows];
        for (a, col) in &proj {
            if within(*a) {
                data.iter_mut().zip(col).for_each(|(d, c)| *d += c);
            }
        }
        let values = cell_means(&cells, &data);
        tables.push(shaped(values, &dims)?);
        table_names.push(label.clone());
        reps.push((reps_of(&cells), dims));
    }
    let balanced = reps.iter().all(|(r, _)| matches!(r, Reps::Same(_)));
    let counts: Vec<f64> = reps
        .iter()
        .map(|(r, _)| match r {
            Reps::Same(n) => *n,
            Reps::Table(_) => NA,
        })
        .collect();
    let n = replications_value(table_names.clone(), reps)?;
    if means {
        let grand = proj
            .iter()
            .find(|(a, _)| *a == 0)
            .map(|(_, col)| mean(col))
            .unwrap_or(0.0);
        table_names.insert(0, "Grand mean".to_string());
        tables.insert(0, Value::scalar(grand));
    }
    let mut fields = vec![
        (
            "tables",
            Value::List(List {
                class: None,
                names: Some(table_names),
                items: tables,
                row_names: None,
            }),
        ),
        ("n", n),
    ];
    // se.aov, for balanced designs only (R says "Design is unbalanced -
    // use se.contrast() for se's" and leaves them out).
    if se && balanced {
        let rdf = fit.scalar("df.residual")?;
        let sq: Vec<f64> = residuals.iter().map(|r| r * r).collect();
        let rse = (sum(&sq, false) / rdf).sqrt();
        let labels: Vec<String> = labels.clone();
        let se = if means {
            Value::List(List {
                class: None,
                names: Some(labels),
                items: counts
                    .iter()
                    .map(|&n| {
                        let text = super::super::data::r_num_to_string(n);
                        names::dimnamed(
                            Value::Mat(nalgebra::DMatrix::from_element(
                                1,
                                1,
                                rse * (2.0 / n).sqrt(),
                            )),
                            Some(vec![text.clone()]),
                            Some(vec![text]),
                        )
                    })
                    .collect(),
                row_names: None,
            })
        } else {
            names::named(
                Value::Num(counts.iter().map(|&n| rse / n.sqrt()).collect()),
                labels,
            )
        };
        fields.push(("se", se));
    }
    Ok(Value::List(List::record("tables_aov", fields)))
}
