//! R's model frame: `model.frame` of a formula (stats/R/models.R,
//! `model.frame.default`) or of an `lm`/`glm` fit (`model.frame.lm`), and
//! the functions that read one back, `model.response`, `model.weights`,
//! `model.offset` and `model.extract`.
//!
//! R keeps the formula's `terms` as an attribute of the frame, and the
//! readers ask it which column is the response and which are offsets. A
//! flowcast data frame holds no attributes, so the readers go by the
//! frame's layout instead: the response is its first column (as
//! model.frame puts it), offsets are the columns named `offset(…)` and
//! `(offset)`, weights the column `(weights)`.

use super::args::{ArgError, Args};
use super::factor::{drop_unused, text_is_na};
use super::model_matrix::{offset_of, variables};
use super::na_action::NaAction;
use super::names::{bare, named};
use super::value::{Formula, List, RowNames, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "model.frame",
        params: &[
            req("formula"),
            opt("data"),
            opt("subset"),
            opt("na.action"),
            opt("drop.unused.levels"),
            opt("xlev"),
            DOTS,
            opt("weights"),
            opt("offset"),
        ],
        random: false,
        shape: frame_shape,
        eval: frame_eval,
    },
    Kernel {
        name: "model.response",
        params: &[req("data"), opt("type")],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: response_eval,
    },
    Kernel {
        name: "model.weights",
        params: &[req("x")],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: weights_eval,
    },
    Kernel {
        name: "model.offset",
        params: &[req("x")],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: offset_eval,
    },
    Kernel {
        name: "model.extract",
        params: &[req("frame"), req("component")],
        random: false,
        shape: extract_shape,
        eval: extract_eval,
    },
];

const MATRIX_VARIABLE: &str =
    "flowcast's model.frame holds vector variables only: a data frame column of it cannot be a matrix";

fn frame_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("formula") {
        None | Some(Type::Any | Type::Formula { .. } | Type::Record { .. } | Type::List { .. }) => {
            Ok(Type::Any)
        }
        // model.frame.default's `terms(formula)` of anything else.
        Some(_) => Err(args.error("formula", "invalid formula")),
    }
}

fn frame_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let drop = match args.get("drop.unused.levels") {
        None => false,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'drop.unused.levels' argument"))?,
    };
    if args.get("xlev").is_some_and(|v| !matches!(v, Value::Null)) {
        return Err(KernelError::new("flowcast's model.frame() takes no 'xlev'"));
    }
    match args.get("formula").map(bare) {
        Some(Value::Formula(f)) => {
            let data = match args.get("data").map(bare) {
                None | Some(Value::Null) => None,
                Some(Value::List(l)) => Some(l),
                Some(_) => {
                    return Err(KernelError::new(
                        "'data' must be a data.frame, environment, or list",
                    ))
                }
            };
            of_formula(
                f,
                data,
                args.get("subset"),
                // model.frame.default: a missing na.action is
                // getOption("na.action"), na.omit.
                NaAction::of(args.get("na.action"))?,
                drop,
                args.get("weights"),
                args.get("offset"),
            )
        }
        Some(Value::List(l)) => of_fit(l),
        _ => Err(KernelError::new("invalid formula")),
    }
}

/// Whether element `i` of a frame column is NA (`is.na`, NaN included).
fn is_na(v: &Value, i: usize) -> bool {
    match v {
        Value::Num(x) => x.get(i).is_some_and(|x| x.is_nan()),
        Value::Str(s) => s.get(i).is_some_and(|s| text_is_na(s)),
        Value::Bool(b) => b.get(i).is_some_and(Option::is_none),
        Value::Factor(f) => f.codes.get(i).is_some_and(Option::is_none),
        _ => false,
    }
}

/// A column's elements at `rows` (`None`: a row of NAs, as `[` gives for
/// an NA subscript).
fn pick(v: &Value, rows: &[Option<usize>]) -> Result<Value, KernelError> {
    let at = Value::Num(
        rows.iter()
            .map(|r| r.map_or(NA, |i| i as f64 + 1.0))
            .collect(),
    );
    super::index::index(v, &[Some(at)])
}

/// A variable of the frame: a vector of `n` elements.
fn column(label: &str, v: &Value, n: usize) -> Result<Value, KernelError> {
    let v = offset_of(v).unwrap_or(v);
    let len = match bare(v) {
        Value::Num(x) => x.len(),
        Value::Str(s) => s.len(),
        Value::Bool(b) => b.len(),
        Value::Factor(f) => f.codes.len(),
        Value::Mat(_) | Value::BoolMat(_) => return Err(KernelError::new(MATRIX_VARIABLE)),
        other => {
            return Err(KernelError::new(format!(
                "invalid type ({}) for variable '{label}'",
                other.type_name()
            )))
        }
    };
    if len != n {
        return Err(KernelError::new(format!(
            "variable lengths differ (found for '{label}')"
        )));
    }
    Ok(bare(v).clone())
}

/// `model.frame.default(formula, data, subset, na.action,
/// drop.unused.levels, weights = , offset = )`: the formula's variables
/// (the response first) with `(weights)` and `(offset)` after them, the
/// rows `subset` picks (as `[.data.frame` picks them, row names and all),
/// then those `na.action` keeps.
fn of_formula(
    f: &Formula,
    data: Option<&List>,
    subset: Option<&Value>,
    na: NaAction,
    drop: bool,
    weights: Option<&Value>,
    offset: Option<&Value>,
) -> Result<Value, KernelError> {
    let (vars, _) = variables(f);
    let mut given: Vec<(String, &Value)> = Vec::with_capacity(vars.len() + 3);
    if let (Some(r), Some(label)) = (f.response.as_deref(), f.response_label.as_deref()) {
        given.push((label.to_string(), r));
    }
    given.extend(vars.iter().map(|(l, v)| ((*l).to_string(), *v)));
    for (name, v) in [("(weights)", weights), ("(offset)", offset)] {
        if let Some(v) = v.filter(|v| !matches!(v, Value::Null)) {
            given.push((name.to_string(), v));
        }
    }
    let n = match (given.first(), data) {
        (Some((label, v)), _) => match bare(offset_of(v).unwrap_or(v)) {
            Value::Factor(f) => f.codes.len(),
            Value::Mat(_) | Value::BoolMat(_) => return Err(KernelError::new(MATRIX_VARIABLE)),
            Value::Num(_) | Value::Str(_) | Value::Bool(_) => bare(v).len(),
            other => {
                return Err(KernelError::new(format!(
                    "invalid type ({}) for variable '{label}'",
                    other.type_name()
                )))
            }
        },
        (None, Some(d)) => super::frame::nrow(d),
        (None, None) => 0,
    };
    let columns = given
        .iter()
        .map(|(label, v)| column(label, v, n))
        .collect::<Result<Vec<Value>, KernelError>>()?;
    let chosen = super::lm::subset_rows(n, subset)?;
    let complete = |r: &Option<usize>| r.is_some_and(|i| columns.iter().all(|c| !is_na(c, i)));
    let rows: Vec<Option<usize>> = match na {
        NaAction::Pass => chosen,
        NaAction::Fail => {
            if !chosen.iter().all(&complete) {
                return Err(KernelError::new("missing values in object"));
            }
            chosen
        }
        NaAction::Omit | NaAction::Exclude => chosen.into_iter().filter(|r| complete(r)).collect(),
    };
    let mut items = columns
        .iter()
        .map(|c| pick(c, &rows))
        .collect::<Result<Vec<Value>, KernelError>>()?;
    if drop {
        for item in &mut items {
            if let Value::Factor(f) = item {
                *f = drop_unused(f);
            }
        }
    }
    let frame_rows = List {
        class: None,
        names: None,
        items: Vec::new(),
        row_names: data.and_then(|d| d.row_names.clone()),
    };
    Ok(frame(
        given.into_iter().map(|(l, _)| l).collect(),
        items,
        super::row_names::picked(&frame_rows, &rows),
    ))
}

/// A data frame, its automatic row names stored as R stores them (none).
fn frame(names: Vec<String>, items: Vec<Value>, rows: RowNames) -> Value {
    let n = items.first().map_or(0, Value::len);
    let automatic = matches!(&rows, RowNames::Numbers(r)
        if r.iter().enumerate().all(|(i, &k)| i64::from(k) == i as i64 + 1))
        && n > 0;
    super::frame::named_frame(names, items, (!automatic).then_some(rows))
}

/// `model.frame.lm` (and so of a glm): the frame the fit was made from.
/// R keeps it on the fit (`model = TRUE`); flowcast rebuilds it from the
/// fit's data frame at the rows the fit kept, so each variable must be a
/// column of that frame or a numeric column of the model matrix.
fn of_fit(l: &List) -> Result<Value, KernelError> {
    let fit = super::models::FitParts::of(l).ok_or_else(|| {
        KernelError::new(format!(
            "flowcast's model.frame() takes a formula or a model fitted by lm() or glm(), not a {}",
            l.class.as_deref().unwrap_or("list")
        ))
    })?;
    if fit.has_offset() {
        return Err(KernelError::new(
            "flowcast's model.frame() of a fit with an offset is not supported: the fit keeps no offset values",
        ));
    }
    let obs = match fit.field("obs.names") {
        Some(Value::Str(s)) => s.clone(),
        _ => Vec::new(),
    };
    // aov keeps its frame (R's `model`), with automatic row names.
    if let Some(Value::List(m)) = fit.field("model").map(bare) {
        let mut m = m.clone();
        if obs.len() == super::frame::nrow(&m) {
            m.row_names = Some(RowNames::Text(obs));
        }
        return Ok(Value::List(m));
    }
    let Some(Value::List(data)) = fit.field("data").map(bare) else {
        return Err(KernelError::new(
            "flowcast's model.frame() of a fit needs a fit made with `data =`: it rebuilds the frame from that data frame",
        ));
    };
    let rows = super::row_names::find(data, &obs);
    if rows.iter().any(Option::is_none) {
        return Err(KernelError::new(
            "the fit's cases are not rows of its data frame",
        ));
    }
    let col = |name: &str| -> Option<&Value> {
        let at = data.names.as_ref()?.iter().position(|n| n == name)?;
        data.items.get(at)
    };
    let mut names = Vec::new();
    let mut items = Vec::new();
    let response = fit.field("response").and_then(|r| match r {
        Value::Str(s) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    });
    if let Some(r) = response {
        let v = match col(&r) {
            Some(v) => pick(bare(v), &rows)?,
            None if !fit.binomial() => Value::Num(fit.nums("y")?.to_vec()),
            None => {
                return Err(KernelError::new(format!(
                    "flowcast's model.frame() of a binomial fit needs its response `{r}` to be a column of the fit's data"
                )))
            }
        };
        names.push(r);
        items.push(v);
    }
    let coefficient_names = fit.names();
    for label in fit.variables() {
        let v = match col(&label) {
            Some(v) => match pick(bare(v), &rows)? {
                // lm's model.frame drops the levels no kept row has.
                Value::Factor(f) => Value::Factor(drop_unused(&f)),
                v => v,
            },
            None => match (
                fit.field("x"),
                coefficient_names.iter().position(|c| *c == label),
            ) {
                (Some(Value::Mat(x)), Some(j)) if j < x.ncols() => {
                    Value::Num(x.column(j).iter().copied().collect())
                }
                _ => {
                    return Err(KernelError::new(format!(
                        "flowcast's model.frame() of a fit rebuilds each variable from the fit's data: `{label}` is neither a column of it nor a numeric column of the model matrix"
                    )))
                }
            },
        };
        names.push(label);
        items.push(v);
    }
    if let Some(w) = fit.field("(weights)") {
        names.push("(weights)".to_string());
        items.push(pick(bare(w), &rows)?);
    }
    Ok(frame(names, items, super::row_names::picked(data, &rows)))
}

/// The frame argument of the readers: R's `attr(data, "terms")` is
/// NULL for anything else, and `if (NULL)` fails.
fn model_frame(v: Option<&Value>) -> Result<&List, KernelError> {
    match v.map(bare) {
        Some(Value::List(l)) if l.class.as_deref() == Some(super::frame::CLASS) => Ok(l),
        _ => Err(KernelError::new("argument is of length zero")),
    }
}

/// The frame's row names on a vector of its rows (model.response and
/// model.extract name it so).
fn named_by_rows(l: &List, v: Value) -> Value {
    let rows = super::row_names::labels(l);
    match v {
        Value::Num(_) | Value::Str(_) | Value::Bool(_) if v.len() == rows.len() => named(v, rows),
        v => v,
    }
}

/// `model.response(data, type)`: the frame's first column, named by its
/// rows.
fn response(l: &List, ty: &str) -> Result<Value, KernelError> {
    let Some(v) = l.items.first() else {
        return Ok(Value::Null);
    };
    let v = match (ty, bare(v)) {
        ("any", v) | ("numeric", v @ Value::Factor(_)) => v.clone(),
        ("numeric" | "double", Value::Bool(b)) => {
            Value::Num(b.iter().map(|b| super::value::logical_f64(*b)).collect())
        }
        ("numeric" | "double", v @ Value::Num(_)) => v.clone(),
        ("numeric" | "double", v) => {
            return Err(KernelError::new(format!(
            "flowcast's model.response() makes a number of a numeric or logical response, not {}",
            v.type_name()
        )))
        }
        _ => return Err(KernelError::new("invalid response type")),
    };
    Ok(named_by_rows(l, v))
}

fn response_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let l = model_frame(args.get("data"))?;
    response(l, args.str_or("type", "any")?)
}

/// `.subset2(x, name)`: a list's element of exactly that name, NULL when
/// it has none; R's error for anything but a list.
fn dollar<'a>(x: Option<&'a Value>, name: &str) -> Result<Option<&'a Value>, KernelError> {
    match x.map(bare) {
        Some(Value::List(l)) => Ok(l
            .names
            .as_ref()
            .and_then(|n| n.iter().position(|n| n == name))
            .and_then(|i| l.items.get(i))),
        Some(Value::Null) => Ok(None),
        _ => Err(KernelError::new("subscript out of bounds")),
    }
}

fn weights_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(dollar(args.get("x"), "(weights)")?
        .cloned()
        .unwrap_or(Value::Null))
}

/// `model.offset(x)`: `(offset)` plus each `offset(…)` variable (R reads
/// which from the terms; flowcast from the columns' names).
fn offset(x: Option<&Value>) -> Result<Value, KernelError> {
    let given = dollar(x, "(offset)")?;
    let Some(Value::List(l)) = x.map(bare) else {
        return Ok(Value::Null);
    };
    let terms: Vec<&Value> = l
        .names
        .iter()
        .flatten()
        .zip(&l.items)
        .filter(|(n, _)| n.starts_with("offset(") && n.ends_with(')'))
        .map(|(_, v)| v)
        .collect();
    let numbers = |v: &Value| match bare(v) {
        Value::Num(x) => Ok(x.clone()),
        _ => Err(KernelError::new("'offset' must be numeric")),
    };
    if terms.is_empty() {
        return given.map_or(Ok(Value::Null), |v| numbers(v).map(Value::Num));
    }
    let mut total = match given {
        Some(v) => numbers(v)?,
        None => vec![0.0],
    };
    for t in terms {
        let t = numbers(t)?;
        // `ans + x[[i]]`: a scalar 0 recycles to the column's length.
        total = if total.len() == 1 {
            t.iter().map(|x| total[0] + x).collect()
        } else {
            total.iter().zip(&t).map(|(a, b)| a + b).collect()
        };
    }
    Ok(Value::Num(total))
}

fn offset_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    offset(args.get("x"))
}

fn extract_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("component") {
        None | Some(Type::Any | Type::Str { .. }) => Ok(Type::Any),
        Some(_) => Err(args.error(
            "component",
            "flowcast's model.extract() takes the component's name as a string (\"response\")",
        )),
    }
}

/// `model.extract(frame, component)`: the response, the offset, or the
/// column `(component)`, named by the frame's rows when it has one
/// element a row.
fn extract_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let component =
        match args.get("component").map(bare) {
            Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
            _ => return Err(KernelError::new(
                "flowcast's model.extract() takes the component's name as a string (\"response\")",
            )),
        };
    let frame = args.get("frame");
    let v = match component.as_str() {
        "response" => return response(model_frame(frame)?, "any"),
        "offset" => offset(frame)?,
        c => dollar(frame, &format!("({c})"))?
            .map(|v| bare(v).clone())
            .unwrap_or(Value::Null),
    };
    Ok(match frame.map(bare) {
        Some(Value::List(l)) if l.class.as_deref() == Some(super::frame::CLASS) => {
            named_by_rows(l, v)
        }
        _ => v,
    })
}
