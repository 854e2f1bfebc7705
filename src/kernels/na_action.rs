//! R's `na.action` of a model fit, as stats' nafns.R and model.frame
//! handle it: which action a call asks for (`na.omit`, `na.exclude`,
//! `na.fail`, `na.pass`, by name or as a string), the record of the rows
//! it dropped (an integer vector named by the rows, class "omit" or
//! "exclude"), and `naresid`/`napredict`, which put NAs back at an
//! excluded fit's dropped rows. `na.action(fit)` reads it back.
//!
//! R keeps that record as an attribute of the model frame and as the
//! fit's `na.action` element; flowcast keeps it as the fit's element, and
//! as the attribute of what `na.omit` and `na.exclude` return where a
//! vector or matrix can hold one. A data frame holds no attributes in
//! flowcast, so `na.action()` of one is refused rather than answered NULL.

use super::args::{ArgError, Args};
use super::names::{bare, with_attr};
use super::value::{List, Named, NA};
use super::{req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "naresid",
        params: &[req("omit"), req("x"), DOTS],
        random: false,
        shape: x_shape,
        eval: naresid_eval,
    },
    Kernel {
        name: "napredict",
        params: &[req("omit"), req("x"), DOTS],
        random: false,
        shape: x_shape,
        eval: naresid_eval,
    },
    Kernel {
        name: "na.action",
        params: &[req("object"), DOTS],
        random: false,
        shape: |_, _| Ok(Type::Any),
        eval: na_action_eval,
    },
];

/// The actions model.frame applies to the rows of a model's variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NaAction {
    Omit,
    Exclude,
    Fail,
    Pass,
}

impl NaAction {
    /// The action a call's `na.action` names: a function given by name
    /// (the evaluator hands its name over) or a string; R's default,
    /// `na.omit`, when absent. NULL applies none (R then meets the NAs in
    /// lm.fit, as with `na.pass`).
    pub(crate) fn of(v: Option<&Value>) -> Result<NaAction, KernelError> {
        let name = match v.map(bare) {
            None => return Ok(NaAction::Omit),
            Some(Value::Null) => return Ok(NaAction::Pass),
            Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
            // model.frame calls what it is given.
            Some(_) => return Err(KernelError::new("attempt to apply non-function")),
        };
        Ok(match name {
            "na.omit" => NaAction::Omit,
            "na.exclude" => NaAction::Exclude,
            "na.fail" => NaAction::Fail,
            "na.pass" => NaAction::Pass,
            other if super::registry().get(other).is_some() => {
                return Err(KernelError::new(format!(
                    "flowcast's na.action is one of na.omit, na.exclude, na.fail and na.pass, not {other}"
                )))
            }
            other => {
                return Err(KernelError::new(format!(
                    "could not find function \"{other}\""
                )))
            }
        })
    }

    /// The rows of `n` this action keeps, `complete(i)` saying whether row
    /// `i` has no NA: na.fail's error when one has.
    pub(crate) fn rows(
        self,
        n: usize,
        complete: impl Fn(usize) -> bool,
    ) -> Result<Vec<usize>, KernelError> {
        match self {
            NaAction::Omit | NaAction::Exclude => Ok((0..n).filter(|&i| complete(i)).collect()),
            NaAction::Fail if !(0..n).all(complete) => {
                Err(KernelError::new("missing values in object"))
            }
            NaAction::Fail | NaAction::Pass => Ok((0..n).collect()),
        }
    }

    /// R's class of the record of dropped rows.
    pub(crate) fn class(self) -> &'static str {
        match self {
            NaAction::Exclude => "exclude",
            _ => "omit",
        }
    }
}

/// The record of the dropped cases: their 1-based positions, named by
/// `names` when there are any, of class "omit" or "exclude" (nafns.R's
/// `omit`).
pub(crate) fn record(positions: &[usize], names: Option<Vec<String>>, class: &str) -> Value {
    let v = Value::Num(positions.iter().map(|&i| i as f64 + 1.0).collect());
    let v = match names {
        Some(n) if n.len() == positions.len() => super::names::named(v, n),
        _ => v,
    };
    with_attr(v, "class", Value::string(class))
}

/// The 0-based positions and names of a record of class "exclude"; `None`
/// for any other (naresid.default leaves `x` as it is).
fn excluded(omit: &Value) -> Option<(Vec<usize>, Option<Vec<String>>)> {
    let Value::Named(n) = omit else { return None };
    let class = n.attrs.iter().find(|(k, _)| k == "class")?;
    if !matches!(&class.1, Value::Str(s) if s.len() == 1 && s[0] == "exclude") {
        return None;
    }
    let at = n.value.as_f64_slice()?;
    let at = at
        .iter()
        .map(|&p| (p >= 1.0).then(|| p as usize - 1))
        .collect::<Option<Vec<usize>>>()?;
    Some((at, n.names.clone()))
}

/// The fit's record of dropped rows, when it excluded them.
pub(crate) fn fit_excluded(fit: &List) -> Option<&Value> {
    fit.field("na.action").filter(|v| excluded(v).is_some())
}

/// Where each of `n + omitted` cases comes from: `Some(k)` for the k-th
/// kept case, `None` for an omitted one (naresid.exclude's `keep`).
fn layout(n: usize, at: &[usize]) -> Option<Vec<Option<usize>>> {
    let total = n + at.len();
    let mut out = vec![Some(0); total];
    for &i in at {
        *out.get_mut(i)? = None;
    }
    for (k, o) in out.iter_mut().filter(|o| o.is_some()).enumerate() {
        *o = Some(k);
    }
    Some(out)
}

/// nafns.R's `naresid.exclude(omit, x)`: `x` (a vector, or a matrix by
/// rows) padded with `fill` at the omitted cases; names, where `x` has
/// them, padded with the omitted cases' names. Anything else is returned
/// as it is.
pub(crate) fn pad(omit: &Value, x: Value, fill: f64) -> Result<Value, KernelError> {
    let Some((at, omit_names)) = excluded(omit) else {
        return Ok(x);
    };
    let (value, names, rownames, colnames) = match x {
        Value::Named(n) => {
            let Named {
                value,
                names,
                rownames,
                colnames,
                ..
            } = *n;
            (value, names, rownames, colnames)
        }
        Value::List(mut l) => {
            // predict(se.fit = TRUE): napredict of the fit and of se.fit.
            for (name, item) in l.names.clone().unwrap_or_default().iter().zip(&mut l.items) {
                if name == "fit" || name == "se.fit" {
                    *item = pad(omit, std::mem::replace(item, Value::Null), fill)?;
                }
            }
            return Ok(Value::List(l));
        }
        other => (other, None, None, None),
    };
    let fill_names = |kept: Option<Vec<String>>, lay: &[Option<usize>]| {
        kept.map(|kept| {
            lay.iter()
                .enumerate()
                .map(|(i, o)| match o {
                    Some(k) => kept.get(*k).cloned().unwrap_or_default(),
                    // `temp[omit] <- names(omit)`: the name listed with
                    // the position, in whatever order omit lists them.
                    None => at
                        .iter()
                        .position(|&a| a == i)
                        .and_then(|j| omit_names.as_ref()?.get(j).cloned())
                        .unwrap_or_else(|| "NA".to_string()),
                })
                .collect::<Vec<String>>()
        })
    };
    let bad = || KernelError::new("invalid argument 'omit'");
    match value {
        Value::Num(v) => {
            let lay = layout(v.len(), &at).ok_or_else(bad)?;
            let out = lay.iter().map(|o| o.map_or(fill, |k| v[k])).collect();
            let out = Value::Num(out);
            Ok(match fill_names(names, &lay) {
                Some(n) => super::names::named(out, n),
                None => out,
            })
        }
        Value::Mat(m) => {
            let lay = layout(m.nrows(), &at).ok_or_else(bad)?;
            let out = nalgebra::DMatrix::from_fn(lay.len(), m.ncols(), |i, j| {
                lay[i].map_or(fill, |k| m[(k, j)])
            });
            let rows = fill_names(rownames, &lay);
            Ok(super::names::dimnamed(Value::Mat(out), rows, colnames))
        }
        other => Err(KernelError::new(format!(
            "flowcast's naresid pads numeric vectors and matrices, not {}",
            other.type_name()
        ))),
    }
}

/// A fitted model's cases padded back to every row (naresid/napredict of
/// its `na.action`), NA at the dropped ones.
pub(crate) fn pad_fit(fit: &List, x: Value) -> Result<Value, KernelError> {
    pad_fit_with(fit, x, NA)
}

/// [`pad_fit`] with `fill` at the dropped rows (lm.influence's 0 hat
/// values and coefficient changes).
pub(crate) fn pad_fit_with(fit: &List, x: Value, fill: f64) -> Result<Value, KernelError> {
    match fit_excluded(fit) {
        Some(omit) => pad(omit, x, fill),
        None => Ok(x),
    }
}

/// The functions that pad a fit's cases with naresid or napredict.
const PADDING: &[&str] = &[
    "residuals",
    "resid",
    "fitted",
    "fitted.values",
    "predict",
    "hatvalues",
    "rstandard",
    "rstudent",
    "cooks.distance",
    "dffits",
    "covratio",
    "dfbeta",
    "dfbetas",
    "influence",
    "lm.influence",
    "weighted.residuals",
    "influence.measures",
    "weights",
    "case.names",
];

/// Whether `func` must see the fit `v` whole: the evaluator hands kernels
/// values stripped of names and attributes, which would take the class
/// "exclude" off the fit's record of dropped rows.
pub fn keeps_fit(func: &str, v: &Value) -> bool {
    PADDING.contains(&func)
        && matches!(v, Value::List(l) if l.class.is_some() && fit_excluded(l).is_some())
}

fn x_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Num { .. }) => Type::num_unknown(),
        Some(Type::Mat { cols, .. }) => Type::Mat {
            rows: None,
            cols: *cols,
        },
        Some(t) => t.clone(),
        None => Type::Any,
    })
}

fn naresid_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").cloned().unwrap_or(Value::Null);
    match args.get("omit") {
        Some(omit) if !matches!(x, Value::Null) => pad(omit, x, NA),
        _ => Ok(x),
    }
}

/// `na.action(object)`: a fit's `na.action` element, or a vector's
/// attribute of that name (na.action.default).
fn na_action_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let object = args.get("object").unwrap_or(&Value::Null);
    match object {
        Value::List(l) if l.class.as_deref() == Some(super::frame::CLASS) => Err(KernelError::new(
            "flowcast's data frames hold no na.action attribute: \
                 take complete.cases(d) or which(!complete.cases(d)) instead",
        )),
        Value::List(l) => Ok(l.field("na.action").cloned().unwrap_or(Value::Null)),
        Value::Named(n) => Ok(n
            .attrs
            .iter()
            .find(|(k, _)| k == "na.action")
            .map_or(Value::Null, |(_, v)| v.clone())),
        _ => Ok(Value::Null),
    }
}
