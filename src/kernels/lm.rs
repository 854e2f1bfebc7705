//! `lm(formula, data, subset, weights)`: least squares through R's own
//! `dqrls` (LINPACK QR with limited pivoting, tol 1e-7), so aliased columns
//! get NA coefficients as in R, plus the numbers `summary.lm` prints.
//!
//! The formula arrives with its terms expanded and evaluated (in `data`
//! when there is one: see `graph::formula`); the design matrix is R's
//! `model.matrix` (`model_matrix`). Rows follow `model.frame`:
//! `subset` first, then rows with an NA anywhere dropped (`na.omit`).
//! Weights follow `lm.wfit`: rows and response scaled by `sqrt(w)`, rows of
//! weight zero left out of the fit but given fitted values and residuals.

use nalgebra::DMatrix;

use super::factor::{as_factor, drop_unused, text_is_na};
use super::index;
use super::linalg::linpack::{dqrls, Dqrls};
use super::linalg::qr_value;
use super::model_matrix::{self, Coded};
use super::na_action::NaAction;
use super::nmath::{pf, pt};
use super::summary::{mean, sum};
use super::value::{Factor, Formula, List, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "lm",
        params: &[
            req("formula"),
            opt("data"),
            opt("subset"),
            opt("weights"),
            opt("na.action"),
            opt("contrasts"),
            opt("offset"),
        ],
        random: false,
        shape: lm_shape,
        eval: lm_eval,
    },
    Kernel {
        name: "model.matrix",
        params: &[
            req("object"),
            opt("data"),
            opt("contrasts.arg"),
            opt("xlev"),
            DOTS,
        ],
        random: false,
        shape: model_matrix_shape,
        eval: model_matrix_eval,
    },
    // `offset(x)`: x as it is; in a formula a known part of the linear
    // predictor (the evaluator marks it: `model_matrix::offset_term`).
    Kernel {
        name: "offset",
        params: &[req("object")],
        random: false,
        shape: |args, _| Ok(args.ty("object").cloned().unwrap_or(Type::Null)),
        eval: |args, _| Ok(args.get("object").cloned().unwrap_or(Value::Null)),
    },
    // `I(x)`: x as it is. In a formula it makes `x^2` arithmetic rather
    // than a formula operator (`y ~ x + I(x^2)`).
    Kernel {
        name: "I",
        params: &[req("x")],
        random: false,
        shape: |args, _| Ok(args.ty("x").cloned().unwrap_or(Type::Null)),
        eval: |args, _| Ok(args.get("x").cloned().unwrap_or(Value::Null)),
    },
];

pub(super) fn lm_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = super::models::mlm::shape(args, super::models::mlm::CLASS)? {
        return Ok(t);
    }
    let (n, p) = match args.ty("formula") {
        Some(Type::Formula {
            response,
            terms,
            intercept,
        }) => {
            let n = match response.as_deref() {
                Some(Type::Num { len, .. } | Type::Bool { len, .. }) => *len,
                Some(Type::Mat {
                    rows,
                    cols: Some(1),
                }) => *rows,
                Some(Type::Any) => None,
                Some(t) => {
                    return Err(args.error(
                        "formula",
                        format!("lm() needs a numeric vector response, not {}", t.describe()),
                    ))
                }
                None => return Err(args.error("formula", "lm() needs a response: y ~ x")),
            };
            let p = model_matrix::columns_type(terms, *intercept)
                .map_err(|m| args.error("formula", m))?
                // A contrast matrix may have fewer columns than levels.
                .filter(|_| !given_contrasts(args));
            for (label, t) in terms {
                if let (Some(n), Some(len)) = (n, model_matrix::term_len(t)) {
                    if len != n {
                        return Err(args.error(
                            "formula",
                            format!("variable lengths differ (found for '{label}')"),
                        ));
                    }
                }
            }
            (n, p)
        }
        None | Some(Type::Any) => (None, None),
        Some(t) => {
            return Err(args.error(
                "formula",
                format!("lm() needs a formula, not {}", t.describe()),
            ))
        }
    };
    if let Some(w) = args.get_if_formal("weights") {
        // R: "'weights' must be a numeric vector"; logicals are not numeric.
        if !matches!(
            w,
            Type::Num { .. } | Type::Mat { .. } | Type::Any | Type::Null
        ) {
            return Err(args.error(
                "weights",
                format!("'weights' must be a numeric vector, not {}", w.describe()),
            ));
        }
        if let (Some(n), Some(len)) = (n, w.len()) {
            if len != n && !matches!(w, Type::Any | Type::Null) {
                return Err(
                    args.error("weights", "variable lengths differ (found for '(weights)')")
                );
            }
        }
    }
    if let Some(s) = args.ty("subset") {
        if !matches!(
            s,
            Type::Num { .. } | Type::Bool { .. } | Type::Any | Type::Null
        ) {
            return Err(args.error(
                "subset",
                format!(
                    "'subset' must be logical or row numbers, not {}",
                    s.describe()
                ),
            ));
        }
    }
    let num = |len| Type::Num { len, value: None };
    let mut fields = vec![
        ("coefficients", num(p)),
        (
            "coefficient.names",
            Type::Str {
                len: p,
                value: None,
            },
        ),
        ("residuals", Type::num_unknown()),
        ("effects", Type::num_unknown()),
        ("fitted.values", Type::num_unknown()),
        ("rank", Type::num(1)),
        ("df.residual", Type::num(1)),
        ("std.error", num(p)),
        ("t.value", num(p)),
        ("p.value", num(p)),
        ("sigma", Type::num(1)),
        ("r.squared", Type::num(1)),
        ("adj.r.squared", Type::num(1)),
        ("fstatistic", Type::num(3)),
        ("f.p.value", Type::num(1)),
    ];
    if args
        .get_if_formal("weights")
        .is_some_and(|w| !matches!(w, Type::Null))
    {
        fields.insert(5, ("weights", Type::num_unknown()));
    }
    let terms = match args.ty("formula") {
        Some(Type::Formula { terms, .. }) => Some(
            terms
                .iter()
                .filter(|(_, t)| !model_matrix::is_offset_type(t))
                .count(),
        ),
        _ => None,
    };
    fields.extend([
        (
            "qr",
            Type::record(
                "qr",
                vec![
                    // Rows of nonzero weight without NA: known at run time.
                    (
                        "qr",
                        Type::Mat {
                            rows: None,
                            cols: p,
                        },
                    ),
                    ("rank", Type::num(1)),
                    ("qraux", num(p)),
                    ("pivot", num(p)),
                ],
            ),
        ),
        ("assign", num(p)),
        ("terms", terms_type(terms)),
        // R's model.matrix(object), which drop1.lm refits on.
        (
            "x",
            Type::Mat {
                rows: None,
                cols: p,
            },
        ),
        ("y", Type::num_unknown()),
        ("obs.names", obs_names_type()),
        // Present when the NA action dropped cases.
        ("na.action", Type::Any),
    ]);
    Ok(Type::record("lm", fields))
}

/// Whether the call gives `contrasts`, whose matrices set a factor's
/// columns.
pub(super) fn given_contrasts(args: &Args<Type>) -> bool {
    args.get_if_formal("contrasts")
        .is_some_and(|t| !matches!(t, Type::Null))
}

/// The design matrix (column-major, intercept first), its column names,
/// the response and the weights, over the rows `model.frame` keeps.
#[derive(Clone)]
pub(super) struct Design {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub w: Option<Vec<f64>>,
    pub names: Vec<String>,
    pub n: usize,
    pub p: usize,
    /// The rows of the formula's variables kept, in order.
    pub rows: Vec<usize>,
    /// R's `assign`: each column's term, 1-based (0 for the intercept).
    pub assign: Vec<usize>,
    /// R's `attr(terms, "term.labels")`.
    pub labels: Vec<String>,
    /// The variables the terms are made of, and each term's variables.
    pub variables: Vec<String>,
    /// R's `predvars`: each variable's R text for `newdata` (its label,
    /// or the call at the fit's knots for a spline basis).
    pub predvars: Vec<String>,
    pub term_variables: Vec<Vec<usize>>,
    /// R's `xlevels`: each factor or text variable's levels as the fit
    /// coded them.
    pub xlevels: Vec<(String, Vec<String>)>,
    /// The contrasts `contrasts.arg` gave factors, as given, which
    /// `predict` codes newdata's factors by.
    pub contrasts: Vec<(String, Value)>,
    /// The offset at each row kept (R's `model.offset`: the formula's
    /// `offset()` terms and the `offset` argument, summed), when any.
    pub offset: Option<Vec<f64>>,
    /// The labels of the formula's `offset()` terms, which `predict`
    /// evaluates in newdata.
    pub offset_labels: Vec<String>,
    /// The cases the NA action dropped: each one's position among the
    /// rows `subset` chose (0-based, what R's `na.action` numbers) and its
    /// row of the variables (`None` for a row an NA subscript made).
    pub omitted: Vec<(usize, Option<usize>)>,
    /// The formula as R prints it ([`Formula::source`]), which
    /// `formula(fit)` gives back.
    pub formula: Option<String>,
}

impl Design {
    /// A model matrix given as it is (`glm.fit`'s `x`, a refit's columns):
    /// every row kept, no terms, unnamed columns.
    pub(super) fn matrix(x: Vec<f64>, y: Vec<f64>, w: Vec<f64>, n: usize) -> Design {
        let p = x.len().checked_div(n).unwrap_or(0);
        Design {
            x,
            y,
            w: Some(w),
            names: vec![String::new(); p],
            n,
            p,
            rows: (0..n).collect(),
            assign: vec![0; p],
            labels: Vec::new(),
            variables: Vec::new(),
            predvars: Vec::new(),
            term_variables: Vec::new(),
            xlevels: Vec::new(),
            contrasts: Vec::new(),
            offset: None,
            offset_labels: Vec::new(),
            omitted: Vec::new(),
            formula: None,
        }
    }
}

/// One variable over all rows, before rows are chosen.
enum Raw {
    Numbers(Vec<Vec<f64>>),
    /// Text: a factor in R, whose levels are those of the rows
    /// `model.frame` keeps (R's `model.matrix` makes it one after the rows
    /// are chosen).
    Text(Vec<String>),
    Logical(Vec<Option<bool>>),
    /// A factor: coded with the levels its kept rows have (lm's
    /// `drop.unused.levels = TRUE`).
    Factor(Factor),
}

pub(super) fn numbers(v: &Value, what: impl Fn() -> String) -> Result<Vec<f64>, KernelError> {
    v.as_f64_slice()
        .map(std::borrow::Cow::into_owned)
        .ok_or_else(|| KernelError::new(format!("invalid type ({}) for {}", v.type_name(), what())))
}

/// The rows `subset` selects, as `[.data.frame` selects them: `None` for
/// an NA or out-of-range row, which then holds NAs and is dropped.
pub(crate) fn subset_rows(
    n: usize,
    subset: Option<&Value>,
) -> Result<Vec<Option<usize>>, KernelError> {
    let Some(s) = subset.filter(|s| !matches!(s, Value::Null)) else {
        return Ok((0..n).map(Some).collect());
    };
    if !matches!(
        s,
        Value::Num(_) | Value::Bool(_) | Value::Mat(_) | Value::BoolMat(_)
    ) {
        return Err(KernelError::new(format!(
            "'subset' must be logical or row numbers, not {}",
            s.type_name()
        )));
    }
    let rows = Value::Num((0..n).map(|i| i as f64).collect());
    let picked = index::index(&rows, &[Some(s.clone())])?;
    let picked = picked.as_f64_slice().unwrap_or_default();
    Ok(picked
        .iter()
        .map(|&r| (!r.is_nan()).then_some(r as usize))
        .collect())
}

/// A variable of `n` rows as the model frame holds it.
fn raw(label: &str, v: &Value, n: usize) -> Result<Raw, KernelError> {
    let differ = || KernelError::new(format!("variable lengths differ (found for '{label}')"));
    match v {
        Value::Str(s) if s.len() == n => return Ok(Raw::Text(s.clone())),
        Value::Bool(b) if b.len() == n => return Ok(Raw::Logical(b.clone())),
        Value::Factor(f) if f.codes.len() == n => return Ok(Raw::Factor(f.clone())),
        Value::Str(_) | Value::Bool(_) | Value::Factor(_) => return Err(differ()),
        _ => {}
    }
    let (data, k) = match v {
        Value::Mat(m) => (m.as_slice().to_vec(), m.ncols()),
        other => (numbers(other, || format!("variable '{label}'"))?, 1),
    };
    if k == 0 || data.len() != n * k {
        return Err(differ());
    }
    Ok(Raw::Numbers(if n == 0 {
        // No rows, no columns to cut: R fails below with "0 (non-NA) cases".
        Vec::new()
    } else {
        data.chunks(n).map(<[f64]>::to_vec).collect()
    }))
}

pub(super) fn design(
    f: &Formula,
    subset: Option<&Value>,
    weights: Option<&Value>,
    contrasts: Option<&Value>,
    offset: Option<&Value>,
) -> Result<Design, KernelError> {
    design_na(f, subset, weights, contrasts, offset, NaAction::Omit)
}

/// [`design`] under the NA action `na`: model.frame's rows after `subset`
/// pass through it, and lm.fit meets what it lets pass.
pub(super) fn design_na(
    f: &Formula,
    subset: Option<&Value>,
    weights: Option<&Value>,
    contrasts: Option<&Value>,
    offset: Option<&Value>,
    na: NaAction,
) -> Result<Design, KernelError> {
    // The offset terms are no columns: the model is the other terms.
    let (offsets, model_terms): (Vec<_>, Vec<_>) = f
        .terms
        .iter()
        .partition(|(_, v)| model_matrix::offset_of(v).is_some());
    let reduced;
    let f = if offsets.is_empty() {
        f
    } else {
        reduced = Formula {
            response: f.response.clone(),
            response_label: f.response_label.clone(),
            terms: model_terms.into_iter().cloned().collect(),
            intercept: f.intercept,
            text: None,
            source: f.source.clone(),
            predvars: f.predvars.clone(),
        };
        &reduced
    };
    let contrasts = contrasts_arg(contrasts, f)?;
    let y: Vec<f64> = match f.response.as_deref() {
        None => return Err(KernelError::new("lm() needs a response: y ~ x")),
        Some(Value::Mat(m)) if m.ncols() != 1 => {
            return Err(KernelError::new(
                "lm() with a matrix response is not supported",
            ))
        }
        Some(v) => numbers(v, || "the response".to_string())?,
    };
    let n = y.len();
    let (vars, term_variables) = model_matrix::variables(f);
    let raws = vars
        .iter()
        .map(|(label, v)| raw(label, v, n))
        .collect::<Result<Vec<Raw>, KernelError>>()?;
    let w: Option<Vec<f64>> = match weights.filter(|w| !matches!(w, Value::Null)) {
        Some(w @ (Value::Num(_) | Value::Mat(_))) => {
            let w = numbers(w, || "'weights'".to_string())?;
            if w.len() != n {
                return Err(KernelError::new(
                    "variable lengths differ (found for '(weights)')",
                ));
            }
            Some(w)
        }
        Some(w) => {
            return Err(KernelError::new(format!(
                "'weights' must be a numeric vector, not {}",
                w.type_name()
            )))
        }
        None => None,
    };
    let offset = model_offset(&offsets, offset, n)?;
    // The model's variables, the response aside: lm.fit's 'x'.
    let x_complete = |i: usize| {
        raws.iter().all(|t| match t {
            Raw::Numbers(cols) => cols.iter().all(|c| !c[i].is_nan()),
            Raw::Text(s) => !text_is_na(&s[i]),
            Raw::Logical(b) => b[i].is_some(),
            Raw::Factor(f) => f.codes[i].is_some(),
        })
    };
    let complete = |i: usize| {
        !y[i].is_nan()
            && w.as_ref().is_none_or(|w| !w[i].is_nan())
            && offset.as_ref().is_none_or(|o| !o[i].is_nan())
            && x_complete(i)
    };
    let chosen = subset_rows(n, subset)?;
    let omitted: Vec<(usize, Option<usize>)> = chosen
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none_or(|i| !complete(i)))
        .map(|(k, r)| (k, *r))
        .collect();
    if !omitted.is_empty() {
        match na {
            NaAction::Fail => return Err(KernelError::new("missing values in object")),
            NaAction::Pass => {
                // lm.fit's checks, x before y: what the NA is in.
                let in_x = omitted
                    .iter()
                    .any(|(_, r)| r.is_none_or(|i| !x_complete(i)));
                let in_w = omitted
                    .iter()
                    .any(|(_, r)| r.zip(w.as_ref()).is_some_and(|(i, w)| w[i].is_nan()));
                return Err(KernelError::new(if in_x {
                    "NA/NaN/Inf in 'x'"
                } else if in_w {
                    "missing or negative weights not allowed"
                } else {
                    "NA/NaN/Inf in 'y'"
                }));
            }
            NaAction::Omit | NaAction::Exclude => {}
        }
    }
    let keep: Vec<usize> = chosen
        .into_iter()
        .flatten()
        .filter(|&i| complete(i))
        .collect();
    if keep.is_empty() {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    let pick = |c: &[f64]| keep.iter().map(|&i| c[i]).collect::<Vec<f64>>();
    let mut xlevels = Vec::new();
    let mut kept_contrasts = Vec::new();
    let mut coded = Vec::with_capacity(vars.len());
    for ((label, _), r) in vars.iter().zip(raws) {
        let spec = contrasts.iter().find(|(n, _)| n == label).map(|(_, v)| *v);
        if let (Some(_), Raw::Numbers(_)) = (spec, &r) {
            // `contrasts<-` of a numeric variable.
            return Err(KernelError::new("contrasts apply only to factors"));
        }
        let mut c = match r {
            Raw::Numbers(cols) => Coded::Numbers(cols.iter().map(|c| pick(c)).collect()),
            Raw::Logical(b) => Coded::logical(&keep.iter().map(|&i| b[i]).collect::<Vec<_>>()),
            Raw::Text(s) => {
                let kept = Value::Str(keep.iter().map(|&i| s[i].clone()).collect());
                factor_coded(label, as_factor(&kept)?, &mut xlevels)
            }
            // lm's model.frame drops levels no kept row has.
            Raw::Factor(f) => {
                factor_coded(label, drop_unused(&pick_factor(&f, &keep)), &mut xlevels)
            }
        };
        if let (
            Some(spec),
            Coded::Factor {
                levels, contrasts, ..
            },
        ) = (spec, &mut c)
        {
            *contrasts = Some(super::contrasts::for_factor(spec, levels)?);
            kept_contrasts.push((label.to_string(), spec.clone()));
        }
        coded.push((*label, c));
    }
    let m = model_matrix::build(&coded, &term_variables, f.intercept, keep.len())?;
    let kept_offset = offset.map(|o| pick(&o));
    let p = m.names.len();
    Ok(Design {
        x: m.x,
        y: pick(&y),
        w: w.map(|w| pick(&w)),
        names: m.names,
        n: keep.len(),
        p,
        labels: f.terms.iter().map(|(l, _)| l.clone()).collect(),
        variables: vars.iter().map(|(l, _)| (*l).to_string()).collect(),
        predvars: vars
            .iter()
            .map(|(l, _)| {
                f.predvars
                    .iter()
                    .find(|(v, _)| v == l)
                    .map_or_else(|| (*l).to_string(), |(_, p)| p.clone())
            })
            .collect(),
        term_variables,
        rows: keep,
        assign: m.assign,
        xlevels,
        contrasts: kept_contrasts,
        offset: kept_offset,
        offset_labels: offsets.iter().map(|(l, _)| l.clone()).collect(),
        omitted,
        formula: f.source.clone(),
    })
}

/// R's `model.offset` of the model frame: the `offset()` terms and the
/// `offset` argument summed, over all `n` rows; `None` without any.
fn model_offset(
    terms: &[&(String, Value)],
    arg: Option<&Value>,
    n: usize,
) -> Result<Option<Vec<f64>>, KernelError> {
    let arg = arg.filter(|v| !matches!(v, Value::Null));
    let parts = terms
        .iter()
        .map(|(l, v)| (l.as_str(), model_matrix::offset_of(v).unwrap_or(v)))
        .chain(arg.map(|v| ("(offset)", v)));
    let mut total: Option<Vec<f64>> = None;
    for (label, v) in parts {
        let x = numbers(v, || format!("variable '{label}'"))?;
        if x.len() != n {
            return Err(KernelError::new(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
        match &mut total {
            None => total = Some(x),
            Some(t) => t.iter_mut().zip(&x).for_each(|(t, x)| *t += x),
        }
    }
    Ok(total)
}

/// `contrasts.arg` as `model.matrix.default` reads it: a named list of
/// each factor's contrasts (a contrast function's name or a matrix); a
/// name no variable of the model has is ignored (R warns that it is
/// absent: an update() that drops the variable keeps the fit's value).
fn contrasts_arg<'v>(
    spec: Option<&'v Value>,
    f: &Formula,
) -> Result<Vec<(String, &'v Value)>, KernelError> {
    let Some(spec) = spec.filter(|v| !matches!(v, Value::Null)) else {
        return Ok(Vec::new());
    };
    // R ignores a contrasts argument that is no list, with a warning.
    let Value::List(List { names, items, .. }) = spec else {
        return Ok(Vec::new());
    };
    let Some(names) = names else {
        return Err(KernelError::new("'contrasts.arg' argument must be named"));
    };
    let (vars, _) = model_matrix::variables(f);
    let mut out = Vec::with_capacity(items.len());
    for (n, v) in names.iter().zip(items) {
        if vars.iter().any(|(l, _)| l == n) {
            out.push((n.clone(), v));
        }
    }
    Ok(out)
}

/// A factor variable coded by its levels, which `xlevels` records.
fn factor_coded(label: &str, f: Factor, xlevels: &mut Vec<(String, Vec<String>)>) -> Coded {
    xlevels.push((label.to_string(), f.levels.clone()));
    Coded::Factor {
        levels: f.levels,
        codes: f.codes.iter().map(|c| c.map(|c| c as usize)).collect(),
        contrasts: None,
    }
}

/// The factor's elements at rows `keep`, every level kept.
pub(super) fn pick_factor(f: &Factor, keep: &[usize]) -> Factor {
    Factor {
        codes: keep.iter().map(|&i| f.codes[i]).collect(),
        levels: f.levels.clone(),
        ordered: f.ordered,
    }
}

fn lm_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(Value::Formula(f)) = args.get("formula") {
        if super::models::mlm::response_matrix(f).is_some() {
            super::models::mlm::refuse_weights(
                args.get_if_formal("weights"),
                args.get_if_formal("offset"),
            )?;
            return super::models::mlm::fit(
                f,
                args.get("subset"),
                args.get("data"),
                args.get_if_formal("contrasts"),
                NaAction::of(args.get_if_formal("na.action"))?,
                super::models::mlm::CLASS,
            )
            .map(Value::List);
        }
    }
    let mut record = fit(args)?.0;
    if let Some(Value::Formula(f)) = args.get("formula") {
        keep_model(
            &mut record,
            f.response_label.as_deref(),
            args.get("data"),
            args.get_if_formal("weights"),
        );
    }
    Ok(Value::List(record))
}

/// What `update`, `add1` and `step` with a scope refit on, kept on an lm
/// or glm record: the response's text (`response`), the call's data frame
/// (`data`, as R's glm keeps it) and its weights (`(weights)`, as R's
/// model frame names them). R refits by evaluating the call again in the
/// fit's environment; a flowcast step sees only the steps it names, so
/// the fit carries the data itself. That costs a copy of the data frame
/// per fit (and per fit step() makes), which R's environment does not,
/// but keeps the refit a function of the fit alone, as the cache and the
/// MPI wire need.
pub(super) fn keep_model(
    record: &mut List,
    response: Option<&str>,
    data: Option<&Value>,
    weights: Option<&Value>,
) {
    let mut push = |name: &str, v: Value| {
        let names = record.names.get_or_insert_with(Vec::new);
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
            record.items.push(v);
        }
    };
    if let Some(r) = response {
        push("response", Value::Str(vec![r.to_string()]));
    }
    if let Some(d @ Value::List(List { names: Some(_), .. })) = data.map(super::names::bare) {
        push("data", d.clone());
    }
    if let Some(w @ (Value::Num(_) | Value::Mat(_))) = weights {
        push("(weights)", w.clone());
    }
}

/// The lm record of `args`' formula, and the rows of its variables the
/// fit kept (R's model frame, which `aov` keeps).
pub(super) fn fit(args: &Args<&Value>) -> Result<(List, Vec<usize>), KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(
            "lm() needs a formula as its first argument (y ~ x)",
        ));
    };
    fit_formula_na(
        f,
        args.get("subset"),
        args.get_if_formal("weights"),
        args.get("data"),
        args.get_if_formal("contrasts"),
        args.get_if_formal("offset"),
        NaAction::of(args.get_if_formal("na.action"))?,
    )
}

/// `lm(formula, data, subset, weights)` of an evaluated formula.
pub(super) fn fit_formula(
    f: &Formula,
    subset: Option<&Value>,
    weights: Option<&Value>,
    data: Option<&Value>,
    contrasts: Option<&Value>,
    offset: Option<&Value>,
) -> Result<(List, Vec<usize>), KernelError> {
    fit_formula_na(f, subset, weights, data, contrasts, offset, NaAction::Omit)
}

/// [`fit_formula`] under the NA action `na`.
pub(super) fn fit_formula_na(
    f: &Formula,
    subset: Option<&Value>,
    weights: Option<&Value>,
    data: Option<&Value>,
    contrasts: Option<&Value>,
    offset: Option<&Value>,
    na: NaAction,
) -> Result<(List, Vec<usize>), KernelError> {
    let d = design_na(f, subset, weights, contrasts, offset, na)?;
    if d.x.iter().chain(&d.y).any(|v| v.is_infinite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    let obs = obs_names(data, &d.rows);
    let rows = d.rows.clone();
    let omitted = omitted_record(data, &d.omitted, na);
    let mut record = fit_design(d, f.intercept, obs)?;
    if let Some(o) = omitted {
        record
            .names
            .get_or_insert_with(Vec::new)
            .push("na.action".into());
        record.items.push(o);
    }
    Ok((record, rows))
}

/// The fit's `na.action` element: the dropped cases' positions named by
/// their rows' names (model.frame's `attr(, "na.action")`); `None` when
/// no case was dropped, as R's fit then has none.
pub(super) fn omitted_record(
    data: Option<&Value>,
    omitted: &[(usize, Option<usize>)],
    na: NaAction,
) -> Option<Value> {
    if omitted.is_empty() {
        return None;
    }
    let rows: Vec<usize> = omitted.iter().filter_map(|(_, r)| *r).collect();
    let labels = match obs_names(data, &rows) {
        Value::Str(s) => s,
        _ => Vec::new(),
    };
    let mut labels = labels.into_iter();
    let names = omitted
        .iter()
        .map(|(_, r)| match r {
            Some(_) => labels.next().unwrap_or_default(),
            None => "NA".to_string(),
        })
        .collect();
    let positions: Vec<usize> = omitted.iter().map(|(k, _)| *k).collect();
    Some(super::na_action::record(
        &positions,
        Some(names),
        na.class(),
    ))
}

/// The lm record of a design: lm.fit or lm.wfit of its matrix, with R's
/// summaries, the terms, the model matrix `x` and response `y` (which
/// drop1 and step refit on), and the rows' names `obs`.
pub(super) fn fit_design(d: Design, intercept: bool, obs: Value) -> Result<List, KernelError> {
    let terms = terms_value(&d, intercept);
    let x = Value::Mat(DMatrix::from_vec(d.n, d.p, d.x.clone()));
    let y = Value::Num(d.y.clone());
    // lm.fit with an offset fits `y - offset`, and adds the offset back
    // to the fitted values after summary.lm's sums (which leave it out).
    let fit_y: Vec<f64> = match &d.offset {
        Some(o) => d.y.iter().zip(o).map(|(y, o)| y - o).collect(),
        None => d.y.clone(),
    };
    let mut fields = match &d.w {
        None => {
            let fit = dqrls(d.x, d.n, d.p, &fit_y, 1e-7);
            let residuals = fit.residuals.clone();
            // The fitted values with the offset back in: R 4.2's
            // summary.lm takes its sums of squares of these.
            let fitted: Vec<f64> = d.y.iter().zip(&residuals).map(|(y, r)| y - r).collect();
            summarise(
                &fit,
                Fitted {
                    residuals,
                    fitted,
                    weights: None,
                },
                intercept,
            )?
        }
        Some(w) => weighted(d.x, d.n, d.p, &fit_y, w, intercept, d.offset.as_deref())?,
    };
    // --out writes a named vector as an array (as jsonlite does), so the
    // names travel beside it; they label std.error, t.value and p.value too.
    fields.insert(1, ("coefficient.names", Value::Str(d.names)));
    fields.push((
        "assign",
        Value::Num(d.assign.iter().map(|&a| a as f64).collect()),
    ));
    fields.push(("terms", terms));
    fields.push(("x", x));
    fields.push(("y", y));
    fields.push(("obs.names", obs));
    Ok(List::record("lm", fields))
}

/// The names of the rows a fit kept, as its model frame has them (the
/// names of its residuals in R, which the influence measures keep): the
/// data's row names, else the row numbers.
pub(super) fn obs_names(data: Option<&Value>, rows: &[usize]) -> Value {
    let labels = match data.map(super::names::bare) {
        Some(Value::List(l)) if l.class.as_deref() == Some(super::frame::CLASS) => {
            Some(super::row_names::labels(l))
        }
        _ => None,
    };
    Value::Str(
        rows.iter()
            .map(|&i| {
                labels
                    .as_ref()
                    .and_then(|l| l.get(i).cloned())
                    .unwrap_or_else(|| (i + 1).to_string())
            })
            .collect(),
    )
}

/// The type of [`obs_names`].
pub(super) fn obs_names_type() -> Type {
    Type::Str {
        len: None,
        value: None,
    }
}

/// What flowcast keeps of R's `terms` object: the term labels and whether
/// the model has an intercept (`anova` and `predict` read them), the
/// variables the terms are made of with R's `factors` matrix (a row per
/// variable, a column per term: 0 where the term lacks the variable, else
/// 1 for contrasts and 2 for every level), which `predict` and `TukeyHSD`
/// read the terms' variables from, and the fit's `xlevels` (`predict`
/// codes newdata's factors by them).
pub(super) fn terms_value(d: &Design, intercept: bool) -> Value {
    let (names, levels) = d
        .xlevels
        .iter()
        .map(|(n, l)| (n.clone(), Value::Str(l.clone())))
        .unzip();
    let (contrast_names, contrast_specs) = d.contrasts.iter().cloned().unzip();
    let codes = model_matrix::codings(&d.term_variables);
    let mut factors = DMatrix::<f64>::zeros(d.variables.len(), d.term_variables.len());
    for (k, term) in d.term_variables.iter().enumerate() {
        for (&v, c) in term.iter().zip(&codes[k]) {
            factors[(v, k)] = f64::from(*c as u8);
        }
    }
    Value::List(List::record(
        "terms",
        vec![
            ("term.labels", Value::Str(d.labels.clone())),
            ("intercept", Value::Bool(vec![Some(intercept)])),
            ("variables", Value::Str(d.variables.clone())),
            ("predvars", Value::Str(d.predvars.clone())),
            ("factors", Value::Mat(factors)),
            (
                "xlevels",
                Value::List(List {
                    class: None,
                    names: Some(names),
                    items: levels,
                    row_names: None,
                }),
            ),
            (
                "contrasts",
                Value::List(List {
                    class: None,
                    names: Some(contrast_names),
                    items: contrast_specs,
                    row_names: None,
                }),
            ),
            ("offset", Value::Str(d.offset_labels.clone())),
            (
                "formula",
                d.formula.as_deref().map_or(Value::Null, Value::string),
            ),
        ],
    ))
}

/// The type of [`terms_value`].
pub(super) fn terms_type(labels: Option<usize>) -> Type {
    Type::record(
        "terms",
        vec![
            (
                "term.labels",
                Type::Str {
                    len: labels,
                    value: None,
                },
            ),
            (
                "intercept",
                Type::Bool {
                    len: Some(1),
                    value: None,
                },
            ),
            (
                "variables",
                Type::Str {
                    len: None,
                    value: None,
                },
            ),
            (
                "predvars",
                Type::Str {
                    len: None,
                    value: None,
                },
            ),
            (
                "factors",
                Type::Mat {
                    rows: None,
                    cols: labels,
                },
            ),
            ("xlevels", Type::Any),
            ("contrasts", Type::Any),
            (
                "offset",
                Type::Str {
                    len: None,
                    value: None,
                },
            ),
            ("formula", Type::Any),
        ],
    )
}

/// R's `lm.wfit`.
fn weighted(
    x: Vec<f64>,
    n: usize,
    p: usize,
    y: &[f64],
    w: &[f64],
    intercept: bool,
    offset: Option<&[f64]>,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    if w.iter().any(|&w| w < 0.0) {
        return Err(KernelError::new("missing or negative weights not allowed"));
    }
    let ok: Vec<usize> = (0..n).filter(|&i| w[i] != 0.0).collect();
    if ok.is_empty() {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    let m = ok.len();
    let wts: Vec<f64> = ok.iter().map(|&i| w[i].sqrt()).collect();
    let mut xw = Vec::with_capacity(m * p);
    for j in 0..p {
        xw.extend(ok.iter().zip(&wts).map(|(&i, s)| x[j * n + i] * s));
    }
    let yw: Vec<f64> = ok.iter().zip(&wts).map(|(&i, s)| y[i] * s).collect();
    let fit = dqrls(xw, m, p, &yw, 1e-7);
    let coef = coefficients(&fit);
    let mut residuals = y.to_vec();
    let mut fitted = y.to_vec();
    for (k, &i) in ok.iter().enumerate() {
        let r = fit.residuals[k] / wts[k];
        residuals[i] = r;
        fitted[i] = y[i] - r;
    }
    // Rows of weight zero: fitted from the coefficients (aliased ones 0),
    // as R's `x0 %*% coef`.
    for i in (0..n).filter(|&i| w[i] == 0.0) {
        let f0 = (0..p).fold(0.0, |acc, j| {
            let c = if coef[j].is_nan() { 0.0 } else { coef[j] };
            acc + x[j * n + i] * c
        });
        residuals[i] = y[i] - f0;
        fitted[i] = f0;
    }
    if let Some(o) = offset {
        fitted.iter_mut().zip(o).for_each(|(f, o)| *f += o);
    }
    summarise(
        &fit,
        Fitted {
            residuals,
            fitted,
            weights: Some(w.to_vec()),
        },
        intercept,
    )
}

/// Coefficients back in formula order; those beyond the rank are aliased.
fn coefficients(fit: &Dqrls) -> Vec<f64> {
    let mut coef = vec![NA; fit.qr.p];
    for i in 0..fit.qr.rank {
        coef[fit.qr.pivot[i] - 1] = fit.coef[i];
    }
    coef
}

/// What the fit gives per row: residuals and fitted values (all rows, zero
/// weights included), and the weights.
struct Fitted {
    residuals: Vec<f64>,
    fitted: Vec<f64>,
    weights: Option<Vec<f64>>,
}

/// The lm object's fields and `summary.lm`'s numbers.
fn summarise(
    fit: &Dqrls,
    out: Fitted,
    intercept: bool,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    // `n` is the rows of the QR, those of nonzero weight (summary.lm's
    // NROW(Qr$qr)).
    let (n, p) = (fit.qr.n, fit.qr.p);
    let rank = fit.qr.rank;
    let pivot = &fit.qr.pivot;
    let coef = coefficients(fit);
    let Fitted {
        residuals,
        fitted,
        weights,
    } = out;
    let rdf = (n - rank) as f64;
    let squares = |v: &[f64]| -> Vec<f64> { v.iter().map(|r| r * r).collect() };
    let rss = match &weights {
        None => sum(&squares(&residuals), false),
        Some(w) => {
            let wr: Vec<f64> = w.iter().zip(&residuals).map(|(w, r)| w * (r * r)).collect();
            sum(&wr, false)
        }
    };
    let mut se = vec![NA; p];
    let mut tval = vec![NA; p];
    let mut pval = vec![NA; p];
    let na3 = || Value::Num(vec![NA; 3]);
    let mut fields = vec![
        ("coefficients", Value::Num(coef)),
        ("residuals", Value::Num(residuals)),
        ("effects", Value::Num(fit.effects.clone())),
        ("fitted.values", Value::Num(fitted.clone())),
        ("rank", Value::scalar(rank as f64)),
        ("df.residual", Value::scalar(rdf)),
    ];
    if let Some(w) = &weights {
        fields.insert(4, ("weights", Value::Num(w.clone())));
    }
    fields.push(("qr", qr_value(fit.qr.clone())));
    if rank == 0 {
        fields.extend([
            ("std.error", Value::Num(se)),
            ("t.value", Value::Num(tval)),
            ("p.value", Value::Num(pval)),
            ("sigma", Value::scalar((rss / rdf).sqrt())),
            ("r.squared", Value::scalar(0.0)),
            ("adj.r.squared", Value::scalar(0.0)),
            ("fstatistic", na3()),
            ("f.p.value", Value::scalar(NA)),
        ]);
        return Ok(fields);
    }
    let mss = match (&weights, intercept) {
        (None, true) => {
            let m = mean(&fitted);
            sum(
                &squares(&fitted.iter().map(|f| f - m).collect::<Vec<_>>()),
                false,
            )
        }
        (None, false) => sum(&squares(&fitted), false),
        (Some(w), true) => {
            let sw = sum(w, false);
            let wf: Vec<f64> = w.iter().zip(&fitted).map(|(w, f)| w * f / sw).collect();
            let m = sum(&wf, false);
            let d: Vec<f64> = w
                .iter()
                .zip(&fitted)
                .map(|(w, f)| w * ((f - m) * (f - m)))
                .collect();
            sum(&d, false)
        }
        (Some(w), false) => {
            let d: Vec<f64> = w.iter().zip(&fitted).map(|(w, f)| w * (f * f)).collect();
            sum(&d, false)
        }
    };
    let resvar = rss / rdf;
    // summary.lm: sqrt(diag(chol2inv(R)) * resvar).
    let cov = super::linalg::la_chol2inv(&fit.qr.qr, n, rank)?;
    for i in 0..rank {
        let s = (cov[i * rank + i] * resvar).sqrt();
        let t = fit.coef[i] / s;
        let o = pivot[i] - 1;
        se[o] = s;
        tval[o] = t;
        pval[o] = 2.0 * pt(t.abs(), rdf, false, false);
    }
    fields.extend([
        ("std.error", Value::Num(se)),
        ("t.value", Value::Num(tval)),
        ("p.value", Value::Num(pval)),
        ("sigma", Value::scalar(resvar.sqrt())),
    ]);
    let df_int = usize::from(intercept);
    if rank != df_int {
        let r2 = mss / (mss + rss);
        let adj = 1.0 - (1.0 - r2) * ((n - df_int) as f64 / rdf);
        let numdf = (rank - df_int) as f64;
        let fstat = (mss / numdf) / resvar;
        fields.extend([
            ("r.squared", Value::scalar(r2)),
            ("adj.r.squared", Value::scalar(adj)),
            ("fstatistic", Value::Num(vec![fstat, numdf, rdf])),
            (
                "f.p.value",
                Value::scalar(pf(fstat, numdf, rdf, false, false)),
            ),
        ]);
    } else {
        fields.extend([
            ("r.squared", Value::scalar(0.0)),
            ("adj.r.squared", Value::scalar(0.0)),
            ("fstatistic", na3()),
            ("f.p.value", Value::scalar(NA)),
        ]);
    }
    Ok(fields)
}

const MODEL_MATRIX_OBJECT: &str =
    "flowcast's model.matrix() takes a formula (with its data) or a fit of lm() or glm(), not another fitted model";
const XLEV: &str = "model.matrix(xlev = ) is not supported by flowcast: \
     a factor's levels are those of its data";

fn model_matrix_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.ty("xlev").is_some_and(|t| !matches!(t, Type::Null)) {
        return Err(args.error("xlev", XLEV));
    }
    let p = match args.ty("object") {
        Some(Type::Formula {
            terms, intercept, ..
        }) => model_matrix::columns_type(terms, *intercept).map_err(|m| args.error("object", m))?,
        // model.matrix.lm: an lm's or glm's own design matrix.
        Some(Type::Record { class, .. }) if matches!(class.as_str(), "lm" | "glm") => None,
        Some(Type::Record { .. }) => return Err(args.error("object", MODEL_MATRIX_OBJECT)),
        _ => None,
    };
    Ok(Type::Mat {
        rows: None,
        cols: p,
    })
}

/// model.matrix.lm of an lm or glm: the design matrix the fit keeps (its
/// `x`, which lm and glm always keep), rows named by the cases and columns
/// by the coefficients, as `model.matrix(formula, data)` names them.
fn fit_model_matrix(l: &List) -> Result<Value, KernelError> {
    let fit = super::models::FitParts::of(l)
        .filter(|_| matches!(l.class.as_deref(), Some("lm" | "glm")))
        .ok_or_else(|| KernelError::new(MODEL_MATRIX_OBJECT))?;
    let Some(Value::Mat(x)) = fit.field("x").map(super::names::bare) else {
        return Err(KernelError::new(MODEL_MATRIX_OBJECT));
    };
    let strings = |name: &str| match fit.field(name).map(super::names::bare) {
        Some(Value::Str(s)) => Some(s.clone()),
        _ => None,
    };
    Ok(super::names::dimnamed(
        Value::Mat(x.clone()),
        strings("obs.names"),
        strings("coefficient.names"),
    ))
}

/// `model.matrix(formula, data)`: R's design matrix of the rows
/// `model.frame` keeps (na.omit), factors in treatment contrasts or those
/// of `contrasts.arg`, named by
/// the rows and columns as R names them.
fn model_matrix_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if args.get("xlev").is_some_and(|v| !matches!(v, Value::Null)) {
        return Err(KernelError::new(XLEV));
    }
    let f = match args.get("object") {
        Some(Value::Formula(f)) => f,
        Some(Value::List(l)) if l.class.is_some() => return fit_model_matrix(l),
        Some(v) => {
            return Err(KernelError::new(format!(
                "model.matrix() needs a formula, not a {}",
                v.type_name()
            )))
        }
        None => {
            return Err(KernelError::new(
                "argument \"object\" is missing, with no default",
            ))
        }
    };
    // A one-sided formula: a response of ones, of the variables' (or the
    // data's) rows, stands in for none.
    let f = if f.response.is_some() {
        std::borrow::Cow::Borrowed(f)
    } else {
        let (vars, _) = model_matrix::variables(f);
        let n = match vars.first() {
            Some((_, Value::Mat(m))) => m.nrows(),
            Some((_, v)) => v.len(),
            None => match args.get("data").map(super::names::bare) {
                Some(Value::List(l)) if l.class.as_deref() == Some(super::frame::CLASS) => {
                    super::frame::nrow(l)
                }
                _ => 1,
            },
        };
        std::borrow::Cow::Owned(Formula {
            response: Some(Box::new(Value::Num(vec![1.0; n]))),
            response_label: None,
            terms: f.terms.clone(),
            intercept: f.intercept,
            text: None,
            source: f.source.clone(),
            predvars: f.predvars.clone(),
        })
    };
    let d = design(&f, None, None, args.get("contrasts.arg"), None)?;
    let rows = match obs_names(args.get("data"), &d.rows) {
        Value::Str(s) => s,
        _ => Vec::new(),
    };
    let m = DMatrix::from_vec(d.n, d.p, d.x);
    Ok(super::names::dimnamed(
        Value::Mat(m),
        Some(rows),
        Some(d.names),
    ))
}
