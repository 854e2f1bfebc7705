//! `dummy.coef` of a fit (stats/R/dummy.coef.R, `dummy.coef.lm`): each
//! term's coefficient at every level of its factor, the baseline's 0.
//! R builds a model matrix of one row per level and multiplies it by the
//! coefficients; for the terms flowcast takes (numeric variables and
//! factor main effects under treatment coding) that product is the
//! coefficient of the level's column, or 0 for the level no column codes.

use super::super::names::named;
use super::super::value::List;
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::fit::{model_type, Fit};

pub(super) fn dummy_coef_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    model_type(args, "object")?;
    Ok(Type::Any)
}

pub(super) fn dummy_coef_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let use_na = match args.get("use.na") {
        None => false,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))?,
    };
    let fit = Fit::from_arg(args, "object", "dummy.coef")?;
    let mut coef = fit.nums("coefficients")?.to_vec();
    if !use_na {
        // `coef[is.na(coef)] <- 0`
        for c in coef.iter_mut().filter(|c| c.is_nan()) {
            *c = 0.0;
        }
    }
    let assign = fit.nums("assign")?;
    if assign.len() != coef.len() {
        return Err(KernelError::new(
            "the fit's assign does not match its coefficients",
        ));
    }
    let labels = fit.term_labels();
    let (vars, terms) = fit.term_variables();
    let intercept = fit.intercept();
    let mut names = Vec::with_capacity(labels.len() + 1);
    let mut items = Vec::with_capacity(labels.len() + 1);
    if intercept {
        let at = assign.iter().position(|&a| a == 0.0);
        if let Some(i) = at {
            names.push("(Intercept)".to_string());
            items.push(named(
                Value::Num(vec![coef[i]]),
                vec!["(Intercept)".to_string()],
            ));
        }
    }
    // Without an intercept, the first factor term codes every level.
    let mut full_coded = !intercept;
    for (j, label) in labels.iter().enumerate() {
        let columns: Vec<usize> = (0..assign.len())
            .filter(|&i| assign[i] == (j + 1) as f64)
            .collect();
        let term_vars = terms.get(j).cloned().unwrap_or_default();
        let [v] = term_vars.as_slice() else {
            return Err(KernelError::new(format!(
                "flowcast's dummy.coef() takes main effects only, not the interaction `{label}`"
            )));
        };
        let var = vars.get(*v).cloned().unwrap_or_default();
        // R takes a character variable's levels as none (`levels` of
        // text is NULL): a quantitative variable.
        let text = matches!(fit.exact("data"), Some(Value::List(data))
            if matches!(data.field(&var), Some(Value::Str(_))));
        let value = match fit.xlevels(&var).filter(|_| !text) {
            None => {
                // A quantitative variable: its coefficient times the
                // variable at 1, which R evaluates each term's text at;
                // a term that is a function of it (`log(x)`) is refused.
                let plain = label.starts_with(|c: char| c.is_alphabetic() || c == '.')
                    && label
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '.' || c == '_');
                if !plain {
                    return Err(KernelError::new(format!(
                        "flowcast's dummy.coef() takes numeric terms that are variables, not `{label}`"
                    )));
                }
                let [c] = columns.as_slice() else {
                    // `mm[ij, keep] %*% cf` of one column and several
                    // coefficients.
                    return Err(KernelError::new("non-conformable arguments"));
                };
                named(Value::Num(vec![coef[*c]]), vec![label.clone()])
            }
            Some(levels) => {
                if fit.contrast_of(&var).is_some() {
                    return Err(KernelError::new(format!(
                        "flowcast's dummy.coef() takes factors under treatment contrasts, and `{var}` has others"
                    )));
                }
                let values: Vec<f64> = if full_coded && columns.len() == levels.len() {
                    columns.iter().map(|&c| coef[c]).collect()
                } else if columns.len() + 1 == levels.len() {
                    std::iter::once(0.0)
                        .chain(columns.iter().map(|&c| coef[c]))
                        .collect()
                } else {
                    return Err(KernelError::new(format!(
                        "the fit's columns of `{label}` do not match its levels"
                    )));
                };
                full_coded = false;
                named(Value::Num(values), levels.to_vec())
            }
        };
        names.push(label.clone());
        items.push(value);
    }
    Ok(Value::List(List {
        class: Some("dummy_coef".to_string()),
        names: Some(names),
        items,
        row_names: None,
    }))
}
