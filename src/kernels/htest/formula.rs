//! The tests' formula methods, as R 4.2's `t.test.formula`,
//! `wilcox.test.formula`, `var.test.formula`, `kruskal.test.formula` and
//! `bartlett.test.formula`: `response ~ group` (or `response ~ 1` for a
//! one-sample test), its variables read inside `data` (the evaluator
//! scopes them, see `graph::formula::data_scope`), the rows `subset` picks
//! and `na.action` keeps as `model.frame` keeps them, then the default
//! method on the samples, with R's `data.name`, "response by group".

use super::{ansari, cortest, fligner, groups, mood, ttest, wilcox};
use crate::kernels::factor::{as_factor, drop_unused};
use crate::kernels::na_action::NaAction;
use crate::kernels::{ArgError, Args, Ctx, EvalFn, KernelError, ShapeCtx, ShapeFn, Type, Value};

/// How a formula method hands its samples to the default method.
#[derive(Clone, Copy)]
enum Split {
    /// `x` and `y`: the response in the group's two levels; `response ~ 1`
    /// is `x` alone when `one_sample`.
    TwoLevels { one_sample: bool },
    /// `x` and `g`: the response and its groups.
    Groups,
}

pub(super) fn t_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default_named(
        args,
        ctx,
        Split::TwoLevels { one_sample: true },
        ttest::t_eval,
        true,
    )
}

pub(super) fn t_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: true },
        ttest::t_shape,
    )
}

pub(super) fn wilcox_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: true },
        wilcox::eval,
    )
}

pub(super) fn wilcox_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: true },
        wilcox::shape,
    )
}

pub(super) fn var_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        ttest::var_eval,
    )
}

pub(super) fn var_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        ttest::var_shape,
    )
}

pub(super) fn ansari_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        ansari::eval,
    )
}

pub(super) fn ansari_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        ansari::shape,
    )
}

pub(super) fn mood_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        mood::eval,
    )
}

pub(super) fn mood_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(
        args,
        ctx,
        Split::TwoLevels { one_sample: false },
        mood::shape,
    )
}

/// cor.test.formula: `~ x + y`, the two variables of the model frame
/// handed to the default method, with R's `data.name`, "x and y".
pub(super) fn cor_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("x") else {
        return cortest::eval(args, ctx);
    };
    if f.response.is_some() {
        return Err(KernelError::new("'formula' missing or invalid"));
    }
    let [(xl, x), (yl, y)] = &f.terms[..] else {
        return Err(KernelError::new("invalid formula"));
    };
    let n = x.len();
    if y.len() != n {
        return Err(KernelError::new(format!(
            "variable lengths differ (found for '{yl}')"
        )));
    }
    let rows = frame_rows(n, args, |i| !is_missing(x, i) && !is_missing(y, i))?;
    let at = args.position("x").unwrap_or(0);
    let mut call = args.clone();
    for name in ["data", "subset", "na.action"] {
        call.set(name, None, at);
    }
    let (x, y) = (pick_rows(x, &rows)?, pick_rows(y, &rows)?);
    call.set("x", Some(&x), at);
    call.set("y", Some(&y), at);
    let mut result = cortest::eval(&call, ctx)?;
    if let Value::List(l) = &mut result {
        set_data_name(l, &format!("{xl} and {yl}"));
    }
    Ok(result)
}

pub(super) fn cor_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(Type::Formula {
        response, terms, ..
    }) = args.ty("x")
    else {
        if data_by_position(args, "y") {
            return Ok(Type::Any);
        }
        return cortest::shape(args, ctx);
    };
    if response.is_some() {
        return Err(args.error("x", "'formula' missing or invalid"));
    }
    if terms.len() != 2 {
        return Err(args.error("x", "invalid formula"));
    }
    let at = args.position("x").unwrap_or(0);
    let mut call = args.clone();
    call.set("data", None, at);
    call.set("x", Some(Type::num_unknown()), at);
    call.set("y", Some(Type::num_unknown()), at);
    cortest::shape(&call, ctx)
}

pub(super) fn kruskal_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(args, ctx, Split::Groups, groups::kruskal_eval)
}

pub(super) fn fligner_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(args, ctx, Split::Groups, fligner::eval)
}

pub(super) fn bartlett_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    or_default(args, ctx, Split::Groups, groups::bartlett_eval)
}

pub(super) fn groups_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    shape_or_default(args, ctx, Split::Groups, groups::shape)
}

/// The formal after `x` that the default method takes: what a data frame
/// given by position lands in.
fn second(split: Split) -> &'static str {
    match split {
        Split::TwoLevels { .. } => "y",
        Split::Groups => "g",
    }
}

fn incorrect() -> KernelError {
    KernelError::new("'formula' missing or incorrect")
}

/// The formula method when `x` is a formula, else the default method.
fn or_default(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    split: Split,
    default: EvalFn,
) -> Result<Value, KernelError> {
    or_default_named(args, ctx, split, default, false)
}

/// [`or_default`]; `group_names` renames a two-sample estimate and null
/// value by the group's levels, as t.test.formula does.
fn or_default_named(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    split: Split,
    default: EvalFn,
    group_names: bool,
) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("x") else {
        return default(args, ctx);
    };
    let at = args.position("x").unwrap_or(0);
    let label = f.response_label.as_deref().unwrap_or("x");
    let response = f.response.as_deref().ok_or_else(incorrect)?;
    let y = response
        .as_f64_slice()
        .filter(|_| !matches!(response, Value::Str(_) | Value::Factor(_)))
        .ok_or_else(|| KernelError::new(format!("the response `{label}` must be numeric")))?;
    let mut call = args.clone();
    for name in ["data", "subset", "na.action"] {
        call.set(name, None, at);
    }
    let mut levels: Vec<String> = Vec::new();
    let (samples, data_name) = match (&f.terms[..], split) {
        ([], Split::TwoLevels { one_sample: true }) if f.intercept => {
            let rows = frame_rows(y.len(), args, |i| !y[i].is_nan())?;
            let x: Vec<f64> = rows
                .iter()
                .map(|r| r.map_or(f64::NAN, |i| y[i]))
                .filter(|v| !v.is_nan())
                .collect();
            (vec![Value::Num(x)], label.to_string())
        }
        ([(term, group)], _) => {
            let (x, g) = complete_cases(&y, group, term, args)?;
            let samples = match split {
                Split::TwoLevels { .. } => {
                    levels.clone_from(&g.levels);
                    if g.levels.len() != 2 {
                        return Err(KernelError::new(
                            "grouping factor must have exactly 2 levels",
                        ));
                    }
                    (0..2)
                        .map(|level| {
                            Value::Num(
                                x.iter()
                                    .zip(&g.codes)
                                    .filter(|(_, c)| **c == Some(level))
                                    .map(|(v, _)| *v)
                                    .collect(),
                            )
                        })
                        .collect()
                }
                Split::Groups => vec![Value::Num(x), Value::Factor(g)],
            };
            (samples, format!("{label} by {term}"))
        }
        (_, Split::Groups) if f.terms.len() > 1 => {
            return Err(KernelError::new(
                "'formula' should be of the form response ~ group",
            ))
        }
        _ => return Err(incorrect()),
    };
    call.set("x", samples.first(), at);
    call.set(second(split), samples.get(1), at);
    let mut result = default(&call, ctx)?;
    if let Value::List(l) = &mut result {
        if group_names && levels.len() == 2 {
            rename_by_groups(l, &levels);
        }
        set_data_name(l, &data_name);
    }
    Ok(result)
}

/// The formula method's `y$data.name <- DNAME`, where the default
/// method's result has it: after the method, but before it in
/// bartlett.test's.
fn set_data_name(l: &mut crate::kernels::value::List, data_name: &str) {
    let bartlett = matches!(
        l.field("method"),
        Some(Value::Str(m)) if m.first().is_some_and(|m| m.starts_with("Bartlett"))
    );
    if let Some(names) = &mut l.names {
        if let Some(i) = names.iter().position(|n| n == "data.name") {
            l.items[i] = Value::string(data_name);
            return;
        }
        let at = names
            .iter()
            .position(|n| n == "method")
            .map_or(names.len(), |i| i + usize::from(!bartlett));
        names.insert(at, "data.name".to_string());
        l.items.insert(at, Value::string(data_name));
    }
}

/// t.test.formula's `names(y$estimate) <- paste("mean in group",
/// levels(g))` and its null value's "difference in means between group a
/// and group b".
fn rename_by_groups(l: &mut crate::kernels::value::List, levels: &[String]) {
    use crate::kernels::names::{bare, named};
    let Some(names) = l.names.clone() else {
        return;
    };
    if l.field("estimate").map_or(0, Value::len) != 2 {
        return;
    }
    for (name, item) in names.iter().zip(l.items.iter_mut()) {
        let new: Vec<String> = match name.as_str() {
            "estimate" => levels
                .iter()
                .map(|g| format!("mean in group {g}"))
                .collect(),
            "null.value" => vec![format!(
                "difference in means between group {} and group {}",
                levels[0], levels[1]
            )],
            _ => continue,
        };
        *item = named(bare(item).clone(), new);
    }
}

/// model.frame's rows of a formula method's `n`: those `subset` picks (an
/// NA or out-of-range pick is a row of NAs, `None`), then those
/// `na.action` keeps (R's default `na.omit`), `complete(i)` telling
/// whether row `i` has no NA.
pub(super) fn frame_rows(
    n: usize,
    args: &Args<&Value>,
    complete: impl Fn(usize) -> bool,
) -> Result<Vec<Option<usize>>, KernelError> {
    let picked = crate::kernels::lm::subset_rows(n, args.get("subset"))?;
    let na = NaAction::of(args.get("na.action"))?;
    let keep = na.rows(picked.len(), |k| picked[k].is_some_and(&complete))?;
    Ok(keep.into_iter().map(|k| picked[k]).collect())
}

/// The columns of friedman.test.formula's and quade.test.formula's model
/// frame: the rows `subset`
/// picks and `na.action` keeps (the evaluator hands the formula's three
/// variables over with R's default, `na.omit`).
pub(super) fn block_frame(
    args: &Args<&Value>,
    y: &Value,
    groups: &Value,
    blocks: &Value,
) -> Result<(Value, Value, Value), KernelError> {
    let n = y.len();
    if groups.len() != n || blocks.len() != n {
        return Err(KernelError::new(
            "'y', 'groups' and 'blocks' must have the same length",
        ));
    }
    let rows = frame_rows(n, args, |i| {
        !is_missing(y, i) && !is_missing(groups, i) && !is_missing(blocks, i)
    })?;
    Ok((
        pick_rows(y, &rows)?,
        pick_rows(groups, &rows)?,
        pick_rows(blocks, &rows)?,
    ))
}

/// Whether element `i` of a model frame's variable is NA.
fn is_missing(v: &Value, i: usize) -> bool {
    match crate::kernels::names::bare(v) {
        Value::Factor(f) => f.codes[i].is_none(),
        Value::Str(s) => s[i] == "NA",
        Value::Bool(b) => b[i].is_none(),
        Value::Num(x) => x[i].is_nan(),
        Value::Mat(m) => m.as_slice()[i].is_nan(),
        _ => false,
    }
}

/// `v[rows]`: the model frame's rows of a variable, a `None` row NA.
fn pick_rows(v: &Value, rows: &[Option<usize>]) -> Result<Value, KernelError> {
    let at: Vec<f64> = rows
        .iter()
        .map(|r| r.map_or(f64::NAN, |i| (i + 1) as f64))
        .collect();
    crate::kernels::index::index(v, &[Some(Value::Num(at))])
}

/// The response and its groups in the model frame's rows
/// ([`frame_rows`]), the groups a factor of the levels left (`factor(g)`).
fn complete_cases(
    y: &[f64],
    group: &Value,
    term: &str,
    args: &Args<&Value>,
) -> Result<(Vec<f64>, crate::kernels::value::Factor), KernelError> {
    if group.len() != y.len() {
        return Err(KernelError::new(format!(
            "variable lengths differ (found for '{term}')"
        )));
    }
    let g = as_factor(group)?;
    let rows = frame_rows(y.len(), args, |i| !y[i].is_nan() && g.codes[i].is_some())?;
    let g = drop_unused(&crate::kernels::value::Factor {
        codes: rows.iter().map(|r| r.and_then(|i| g.codes[i])).collect(),
        levels: g.levels,
        ordered: false,
    });
    Ok((
        rows.iter().map(|r| r.map_or(f64::NAN, |i| y[i])).collect(),
        g,
    ))
}

/// Whether `x`, of a type known only as it runs, comes with a data frame
/// by position (`t.test(f, d)`, `f` a formula built from text): the
/// formula method's `data`, which the default method would take for its
/// second sample.
fn data_by_position(args: &Args<Type>, second: &str) -> bool {
    matches!(args.ty("x"), Some(Type::Any))
        && matches!(args.ty(second), Some(Type::Record { class, .. }) if class == "data.frame")
}

/// The shape rule of a formula method: the formula's form checked, then
/// the default method's rule on numeric samples of unknown length.
fn shape_or_default(
    args: &Args<Type>,
    ctx: &ShapeCtx,
    split: Split,
    default: ShapeFn,
) -> Result<Type, ArgError> {
    let Some(Type::Formula {
        response,
        terms,
        intercept,
    }) = args.ty("x")
    else {
        if data_by_position(args, second(split)) {
            return Ok(Type::Any);
        }
        return default(args, ctx);
    };
    let wrong = |m: &str| Err(args.error("x", m));
    match response.as_deref() {
        None => return wrong("'formula' missing or incorrect"),
        Some(Type::Str { .. } | Type::Factor { .. }) => {
            return wrong("the response must be numeric")
        }
        _ => {}
    }
    let at = args.position("x").unwrap_or(0);
    let mut call = args.clone();
    call.set("data", None, at);
    call.set("x", Some(Type::num_unknown()), at);
    match (terms.len(), split) {
        (0, Split::TwoLevels { one_sample: true }) if *intercept => {
            call.set("y", None, at);
        }
        (1, Split::TwoLevels { .. }) => call.set("y", Some(Type::num_unknown()), at),
        (1, Split::Groups) => call.set("g", Some(Type::Any), at),
        (n, Split::Groups) if n > 1 => {
            return wrong("'formula' should be of the form response ~ group")
        }
        _ => return wrong("'formula' missing or incorrect"),
    }
    default(&call, ctx)
}
