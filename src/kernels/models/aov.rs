//! `aov(formula, data)`, `summary` of one (R's `summary.aov`) and
//! `TukeyHSD` (R's `TukeyHSD.aov` over `model.tables(x, "means")`).
//!
//! An aov is R's lm fit with class `c("aov", "lm")`: here the lm record
//! with class "aov", which every kernel that takes an lm reads as one
//! (`coef`, `residuals`, `fitted`, `anova`, `predict`), plus R's `model`
//! (the model frame: the response and each variable at the rows the fit
//! kept), which `TukeyHSD` groups the rows by; an interaction's cells are
//! the combinations of its factors' levels.
//!
//! `summary`'s table has R's columns and R's row names (each term, then
//! `Residuals`); each `TukeyHSD` matrix's row names ("B-A", …) are also in
//! the trailing field `comparison.names` (one vector per term).

use nalgebra::DMatrix;

use super::super::factor::drop_unused;
use super::super::frame;
use super::super::index;
use super::super::linalg::linpack::{dqrsl, Job};
use super::super::lm;
use super::super::model_matrix;
use super::super::nmath::pf;
use super::super::nmath::tukey::{ptukey, qtukey};
use super::super::summary::{mean, sum};
use super::super::value::{Factor, List, RowNames, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::Fit;

pub(super) const CLASS: &str = "aov";

pub(super) fn aov_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    match lm::lm_shape(args, ctx)? {
        Type::Record { mut fields, .. } => {
            fields.push(("model".to_string(), Type::Any));
            Ok(Type::Record {
                class: CLASS.to_string(),
                fields,
            })
        }
        t => Ok(t),
    }
}

pub(super) fn aov_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (mut record, rows) = lm::fit(args)?;
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(
            "aov() needs a formula as its first argument (y ~ g)",
        ));
    };
    let mut names = Vec::with_capacity(f.terms.len() + 1);
    let mut columns = Vec::with_capacity(f.terms.len() + 1);
    if let Some(y) = f.response.as_deref() {
        names.push(f.response_label.clone().unwrap_or_else(|| "y".to_string()));
        let y = lm::numbers(y, || "the response".to_string())?;
        columns.push(Value::Num(rows.iter().map(|&i| y[i]).collect()));
    }
    // R's model frame holds variables, not terms: `a:b` is columns a and b.
    for (label, v) in model_matrix::variables(f).0 {
        names.push(label.to_string());
        columns.push(rows_of(v, &rows)?);
    }
    record.class = Some(CLASS.to_string());
    if let Some(n) = record.names.as_mut() {
        n.push("model".to_string());
    }
    record.items.push(frame::frame(names, columns));
    Ok(Value::List(record))
}

/// A term's value at the kept rows, as R's model frame holds it: a factor
/// without the levels no kept row has (`drop.unused.levels = TRUE`).
fn rows_of(v: &Value, rows: &[usize]) -> Result<Value, KernelError> {
    Ok(match v {
        Value::Factor(f) => Value::Factor(drop_unused(&lm::pick_factor(f, rows))),
        Value::Mat(m) => Value::Mat(m.select_rows(rows)),
        other => {
            let at = Value::Num(rows.iter().map(|&i| i as f64 + 1.0).collect());
            index::index(other, &[Some(at)])?
        }
    })
}

/// The columns of summary.aov's table.
const COLUMNS: &[&str] = &["Df", "Sum Sq", "Mean Sq", "F value", "Pr(>F)"];

/// `summary(aov)`'s type: a list of one table.
pub(super) fn summary_aov_type() -> Type {
    Type::List {
        len: Some(1),
        elem: Box::new(Type::record(
            frame::CLASS,
            COLUMNS.iter().map(|c| (*c, Type::num_unknown())).collect(),
        )),
    }
}

/// R's `summary.aov` of a single-stratum fit: sums of squares of the
/// effects per term in the QR's pivot order, the residuals' row, and the
/// F tests against it; the intercept's row left out.
pub(super) fn summary_aov(fit: &Fit) -> Result<Value, KernelError> {
    let (qr, effects, asgn) = fit.pivoted_effects()?;
    let rank = qr.rank;
    let mut uasgn: Vec<f64> = Vec::new();
    for &a in &asgn {
        if !uasgn.contains(&a) {
            uasgn.push(a);
        }
    }
    let rdf = fit.scalar("df.residual")?;
    let mut df = Vec::new();
    let mut ss = Vec::new();
    let mut intercept_row = None;
    for (row, &u) in uasgn.iter().enumerate() {
        let sq: Vec<f64> = (0..rank)
            .filter(|&i| asgn[i] == u)
            .map(|i| effects[i] * effects[i])
            .collect();
        df.push(sq.len() as f64);
        ss.push(sum(&sq, false));
        if u == 0.0 && intercept_row.is_none() {
            intercept_row = Some(row);
        }
    }
    if rdf > 0.0 {
        let r = fit.nums("residuals")?;
        let sq: Vec<f64> = match fit.prior_weights() {
            Some(w) if w.len() == r.len() => r
                .iter()
                .zip(w)
                .map(|(r, w)| {
                    let x = r * w.sqrt();
                    x * x
                })
                .collect(),
            _ => r.iter().map(|r| r * r).collect(),
        };
        df.push(rdf);
        ss.push(sum(&sq, false));
    }
    let ms: Vec<f64> = ss
        .iter()
        .zip(&df)
        .map(|(s, &d)| if d > 0.0 { s / d } else { NA })
        .collect();
    let mut cols = vec![df.clone(), ss, ms.clone()];
    if rdf > 0.0 {
        let nt = ms.len() - 1;
        let mut f: Vec<f64> = ms.iter().map(|m| m / ms[nt]).collect();
        let mut p: Vec<f64> = f
            .iter()
            .zip(&df)
            .map(|(&f, &d)| pf(f, d, rdf, false, false))
            .collect();
        f[nt] = NA;
        p[nt] = NA;
        cols.push(f);
        cols.push(p);
    }
    // R names the rows `format(nmrows)`: each term's label, then
    // "Residuals", padded to the widest ("(Intercept)" included, before
    // its row goes).
    let mut rows = fit.effect_names(&uasgn);
    if rdf > 0.0 {
        rows.push("Residuals".to_string());
    }
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut rows: Vec<String> = rows
        .into_iter()
        .map(|r| crate::printable::pad_end(&r, width))
        .collect();
    if let Some(row) = intercept_row {
        for c in &mut cols {
            c.remove(row);
        }
        rows.remove(row);
    }
    let table = frame::named_frame(
        COLUMNS[..cols.len()]
            .iter()
            .map(|c| c.to_string())
            .collect(),
        cols.into_iter().map(Value::Num).collect(),
        Some(RowNames::Text(rows)),
    );
    Ok(Value::List(List {
        class: Some("summary.aov".to_string()),
        names: None,
        items: vec![table],
        row_names: None,
    }))
}

fn no_method(class: &str) -> String {
    format!("no applicable method for 'TukeyHSD' applied to an object of class \"{class}\"")
}

pub(super) fn tukey_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(Type::Record { class, .. }) if class == CLASS => {}
        None | Some(Type::Any) => {}
        Some(Type::Record { class, .. }) => return Err(args.error("x", no_method(class))),
        Some(t) => return Err(args.error("x", no_method(&t.describe()))),
    }
    if let Some(t) = args.ty("which") {
        if !matches!(
            t,
            Type::Str { .. } | Type::Num { .. } | Type::Any | Type::Null
        ) {
            return Err(args.error(
                "which",
                format!("invalid subscript type '{}'", t.describe()),
            ));
        }
    }
    if let Some(t) = args.ty("conf.level") {
        if !matches!(t, Type::Num { .. } | Type::Any) {
            return Err(args.error(
                "conf.level",
                "Non-numeric argument to mathematical function",
            ));
        }
    }
    // Which terms are factors is known only from the fitted data.
    Ok(Type::Any)
}

/// A factor term of the model frame: its cells and each row's cell. A
/// term of one factor has a cell per level; an interaction, a cell per
/// combination of its factors' levels, the first factor's varying fastest
/// and named "a:b" (`tapply` over them, named by `expand.grid`).
pub(super) struct FactorTerm {
    pub(super) levels: Vec<String>,
    pub(super) codes: Vec<usize>,
}

/// A model-frame column as `replications` sees it: a factor, or text made
/// one (`as.factor`); anything else (numbers, logicals) is no factor.
fn factor_variable(fit: &Fit, label: &str, column: Option<&Value>) -> Option<FactorTerm> {
    match column? {
        Value::Factor(Factor { codes, levels, .. }) => Some(FactorTerm {
            levels: levels.clone(),
            codes: codes
                .iter()
                .map(|c| c.map(|c| c as usize))
                .collect::<Option<Vec<usize>>>()?,
        }),
        Value::Str(s) => {
            let levels = fit.xlevels(label)?.to_vec();
            let codes = s
                .iter()
                .map(|v| levels.iter().position(|l| l == v))
                .collect::<Option<Vec<usize>>>()?;
            Some(FactorTerm { levels, codes })
        }
        _ => None,
    }
}

/// A term's cells when all its variables are factors.
pub(super) fn factor_term(fit: &Fit, model: &List, variables: &[&str]) -> Option<FactorTerm> {
    let parts = variables
        .iter()
        .map(|v| factor_variable(fit, v, model.field(v)))
        .collect::<Option<Vec<_>>>()?;
    crossed(parts)
}

/// The mean of `data` in each of `cells`' cells, row order kept; NA in an
/// empty one.
pub(super) fn cell_means(cells: &FactorTerm, data: &[f64]) -> Vec<f64> {
    (0..cells.levels.len())
        .map(|l| {
            let v: Vec<f64> = data
                .iter()
                .zip(&cells.codes)
                .filter(|&(_, &c)| c == l)
                .map(|(&d, _)| d)
                .collect();
            if v.is_empty() {
                NA
            } else {
                mean(&v)
            }
        })
        .collect()
}

/// The cells of several factors crossed, the first varying fastest; `None`
/// when their lengths differ.
pub(super) fn crossed(parts: Vec<FactorTerm>) -> Option<FactorTerm> {
    let mut cells: Option<FactorTerm> = None;
    for f in parts {
        cells = Some(match cells {
            None => f,
            Some(c) if c.codes.len() == f.codes.len() => FactorTerm {
                levels: f
                    .levels
                    .iter()
                    .flat_map(|b| c.levels.iter().map(move |a| format!("{a}:{b}")))
                    .collect(),
                codes: c
                    .codes
                    .iter()
                    .zip(&f.codes)
                    .map(|(a, b)| a + c.levels.len() * b)
                    .collect(),
            },
            Some(_) => return None,
        });
    }
    cells
}

/// R's `proj(x, unweighted.scale = TRUE)` without the residuals: each
/// term's projection (assign value, column), from `qr.Q(qr, Dvec =
/// effects)`, the terms in the QR's pivot order.
pub(super) fn projections(fit: &Fit) -> Result<Vec<(usize, Vec<f64>)>, KernelError> {
    let (qr, effects, asgn) = fit.pivoted_effects()?;
    let rank = qr.rank;
    let job = Job {
        qy: true,
        qty: false,
        b: false,
        rsd: false,
        xb: false,
    };
    let mut out: Vec<(usize, Vec<f64>)> = Vec::new();
    for j in 0..rank {
        let mut e = vec![0.0; qr.n];
        e[j] = effects[j];
        let col = dqrsl(&qr, rank, &e, job).qy;
        let a = asgn[j] as usize;
        match out.iter_mut().find(|(t, _)| *t == a) {
            Some((_, acc)) => acc.iter_mut().zip(&col).for_each(|(s, c)| *s += c),
            None => out.push((a, col)),
        }
    }
    Ok(out)
}

/// What `model.tables` gives `TukeyHSD` as `mm$n`: `None` without factor
/// terms; balanced, a count per factor term (R's named vector, in which
/// other names are NA); unbalanced, R's list, in which other names are
/// NULL rather than NA.
enum Replications {
    None,
    Balanced,
    Unbalanced,
}

/// One element of `tabs[which]`: a term of the model, or a name or index
/// that is none (R's `NA` element).
type Selected = Option<usize>;

fn select(which: Option<&Value>, labels: &[String]) -> Result<Vec<Selected>, KernelError> {
    let all = || (0..labels.len()).map(Some).collect();
    match which {
        None | Some(Value::Null) => Ok(all()),
        Some(Value::Str(s)) => Ok(s
            .iter()
            .map(|n| labels.iter().position(|l| l == n))
            .collect()),
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            let k = v.as_f64_slice().unwrap_or_default();
            if k.iter().any(|x| x.is_nan()) {
                return Ok(k
                    .iter()
                    .filter(|x| x.is_nan() || x.trunc() != 0.0)
                    .map(|&x| position(x, labels.len()))
                    .collect());
            }
            let neg = k.iter().any(|&x| x.trunc() < 0.0);
            if neg {
                if k.iter().any(|&x| x.trunc() > 0.0) {
                    return Err(KernelError::new(
                        "can't mix positive and negative subscripts",
                    ));
                }
                let drop: Vec<usize> = k.iter().map(|&x| (-x.trunc()) as usize).collect();
                return Ok((0..labels.len())
                    .filter(|i| !drop.contains(&(i + 1)))
                    .map(Some)
                    .collect());
            }
            Ok(k.iter()
                .filter(|x| x.trunc() != 0.0)
                .map(|&x| position(x, labels.len()))
                .collect())
        }
        Some(v) => Err(KernelError::new(format!(
            "invalid subscript type '{}'",
            v.type_name()
        ))),
    }
}

/// A 1-based index as `[` reads it: truncated; beyond the end, NA.
fn position(x: f64, len: usize) -> Selected {
    let i = x.trunc();
    (i >= 1.0 && i <= len as f64).then(|| i as usize - 1)
}

pub(super) fn tukey_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let fit = match (x, Fit::from_value(x)) {
        (Value::List(l), Some(fit)) if l.class.as_deref() == Some(CLASS) => fit,
        (Value::List(l), _) if l.class.is_some() => {
            return Err(KernelError::new(no_method(
                l.class.as_deref().unwrap_or(""),
            )))
        }
        (v, _) => return Err(KernelError::new(no_method(v.type_name()))),
    };
    let conf = args.scalar_or("conf.level", 0.95)?;
    let ordered = args.bool_or("ordered", false)?;
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
    let factors: Vec<Option<FactorTerm>> = (0..labels.len())
        .map(|t| factor_term(&fit, model, &names_of(t)))
        .collect();
    let mut reps = Replications::None;
    for (t, f) in factors.iter().enumerate() {
        match f {
            None => ctx.warn(format!("non-factors ignored: {}", names_of(t).join(", "))),
            Some(f) => {
                let counts = counts(f);
                let balanced = counts.windows(2).all(|w| w[0] == w[1]);
                reps = match (reps, balanced) {
                    (Replications::Unbalanced, _) | (_, false) => Replications::Unbalanced,
                    _ => Replications::Balanced,
                };
            }
        }
    }
    if let Replications::None = reps {
        return Err(KernelError::new("no factors in the fitted model"));
    }
    let mut chosen = select(args.get("which"), &labels)?;
    if let Replications::Balanced = reps {
        let is_factor = |s: &Selected| s.is_some_and(|i| factors[i].is_some());
        if !chosen.iter().any(is_factor) {
            return Err(KernelError::new("'which' specified no factors"));
        }
        if !chosen.iter().all(is_factor) {
            ctx.warn("'which' specified some non-factors which will be dropped");
            chosen.retain(is_factor);
        }
    }
    let residuals = fit.nums("residuals")?;
    let rdf = fit.scalar("df.residual")?;
    let sq: Vec<f64> = residuals.iter().map(|r| r * r).collect();
    let mse = sum(&sq, false) / rdf;
    let proj = projections(&fit)?;
    let n_rows = residuals.len();
    let mut names = Vec::new();
    let mut items = Vec::new();
    let mut comparisons = Vec::new();
    let mut nan = false;
    for s in &chosen {
        let Some(t) = *s else {
            // R's `tabs[[NA]]`: no means, an empty table (qtukey of 0
            // means is NaN).
            nan = true;
            names.push("NA".to_string());
            items.push(Value::Mat(DMatrix::zeros(0, 4)));
            comparisons.push(Value::Str(Vec::new()));
            continue;
        };
        let Some(f) = &factors[t] else {
            // Unbalanced: `mm$n` is a list, whose missing names give NULL.
            return Err(KernelError::new("unimplemented type 'NULL' in 'rep3'"));
        };
        if f.codes.len() != n_rows {
            return Err(KernelError::new(
                "the aov fit's model frame does not match its residuals",
            ));
        }
        // model.tables' means: the grand mean's projection plus those of
        // the terms within this one (its margins and itself).
        let within = |a: usize| {
            a == 0
                || term_variables
                    .get(a - 1)
                    .is_some_and(|u| u.iter().all(|v| term_variables[t].contains(v)))
        };
        let mut data = vec![0.0; n_rows];
        for (a, col) in &proj {
            if within(*a) {
                data.iter_mut().zip(col).for_each(|(d, c)| *d += c);
            }
        }
        let k = f.levels.len();
        let mut means = cell_means(f, &data);
        // An empty cell of an interaction: `replications` makes its count
        // NA, and so its comparisons.
        let mut n: Vec<f64> = counts(f)
            .into_iter()
            .map(|c| if c == 0.0 { NA } else { c })
            .collect();
        let mut level_names = f.levels.clone();
        if ordered {
            let mut ord: Vec<usize> = (0..k).collect();
            ord.sort_by(|&a, &b| means[a].total_cmp(&means[b]));
            means = ord.iter().map(|&i| means[i]).collect();
            n = ord.iter().map(|&i| n[i]).collect();
            level_names = ord.iter().map(|&i| level_names[i].clone()).collect();
        }
        let q = qtukey(conf, 1.0, k as f64, rdf, true, false);
        nan |= q.is_nan() && !conf.is_nan() && !rdf.is_nan();
        let m = k * k.saturating_sub(1) / 2;
        let mut table = DMatrix::<f64>::zeros(m, 4);
        let mut rows = Vec::with_capacity(m);
        let mut r = 0;
        // lower.tri in column-major order: (i, j) for i > j, j outer.
        for j in 0..k {
            for i in j + 1..k {
                let center = means[i] - means[j];
                let se = ((mse / 2.0) * (1.0 / n[i] + 1.0 / n[j])).sqrt();
                let width = q * se;
                let est = center / se;
                let p = ptukey(est.abs(), 1.0, k as f64, rdf, false, false);
                nan |= p.is_nan() && !est.is_nan() && !rdf.is_nan();
                table[(r, 0)] = center;
                table[(r, 1)] = center - width;
                table[(r, 2)] = center + width;
                table[(r, 3)] = p;
                rows.push(format!("{}-{}", level_names[i], level_names[j]));
                r += 1;
            }
        }
        names.push(labels[t].clone());
        items.push(crate::kernels::names::dimnamed(
            Value::Mat(table),
            Some(rows.clone()),
            Some(
                ["diff", "lwr", "upr", "p adj"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        ));
        comparisons.push(Value::Str(rows));
    }
    if nan {
        ctx.warn("NaNs produced");
    }
    let comparison_names = Value::List(List {
        class: None,
        names: Some(names.clone()),
        items: comparisons,
        row_names: None,
    });
    names.push("comparison.names".to_string());
    items.push(comparison_names);
    Ok(Value::List(List {
        class: Some("TukeyHSD".to_string()),
        names: Some(names),
        items,
        row_names: None,
    }))
}

/// Rows per level.
pub(super) fn counts(f: &FactorTerm) -> Vec<f64> {
    let mut n = vec![0.0; f.levels.len()];
    for &c in &f.codes {
        if let Some(x) = n.get_mut(c) {
            *x += 1.0;
        }
    }
    n
}
