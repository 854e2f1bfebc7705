//! `stack(x)` and `unstack(x)`: R 4.2.2's utils::stack (the vectors of a
//! data frame or named list one after another in `values`, with the
//! factor `ind` of where each came from) and unstack (the first column
//! split by the second, as a data frame when every group is as long,
//! else a list). stack's `select` and unstack's `form` are evaluated
//! among the data frame's columns (graph::formula::data_scope).

use super::args::{ArgError, Args};
use super::data::combine;
use super::frame::{as_frame, frame, named_frame};
use super::grouping::grouping;
use super::names::{bare, names};
use super::value::{Factor, List, RowNames};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "stack",
        params: &[req("x"), opt("select"), opt("drop"), DOTS],
        random: false,
        shape: stack_shape,
        eval: stack_eval,
    },
    Kernel {
        name: "unstack",
        params: &[req("x"), opt("form"), DOTS],
        random: false,
        shape: unstack_shape,
        eval: unstack_eval,
    },
];

/// R's `is.vector`: an atomic vector or list with no attribute but names.
fn is_vector(v: &Value) -> bool {
    matches!(
        bare(v),
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Complex(_) | Value::Null
    ) || matches!(v, Value::List(l) if l.class.is_none() && l.row_names.is_none())
}

fn stack_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let frame_given = as_frame(x).is_some();
    // stack.data.frame: `x[, select, drop = FALSE]`, select's names the
    // columns' positions (see graph::formula::data_scope).
    let picked;
    let x = match args.get("select") {
        Some(vars) if frame_given => {
            picked = super::frame::index_drop(x, &[None, Some(vars.clone())], false)
                .unwrap_or(Ok(Value::Null))?;
            &picked
        }
        Some(_) => {
            return Err(KernelError::new(
                "stack(select = ) is taken for a data frame only",
            ))
        }
        None => x,
    };
    // `as.list(x)` for the default method.
    let (labels, items): (Vec<String>, Vec<Value>) = match bare(x) {
        Value::List(l) => (
            l.names
                .clone()
                .unwrap_or_else(|| vec![String::new(); l.items.len()]),
            l.items.clone(),
        ),
        v @ (Value::Num(_) | Value::Str(_) | Value::Bool(_)) => {
            let n = names(x).map(<[String]>::to_vec);
            let items = super::as_list::elements(v).unwrap_or_default();
            (n.unwrap_or_else(|| vec![String::new(); items.len()]), items)
        }
        _ => return Err(KernelError::new("at least one vector element is required")),
    };
    let keep: Vec<bool> = items.iter().map(is_vector).collect();
    if !keep.contains(&true) {
        return Err(KernelError::new(if frame_given {
            "no vector columns were selected"
        } else {
            "at least one vector element is required"
        }));
    }
    if keep.contains(&false) {
        ctx.warn(if frame_given {
            "non-vector columns will be ignored"
        } else {
            "non-vector elements will be ignored"
        });
    }
    let kept: Vec<(&String, &Value)> = labels
        .iter()
        .zip(&items)
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| p)
        .collect();
    // `factor(names(x), unique(names(x)))`, repeated by the lengths.
    let mut levels: Vec<String> = Vec::new();
    for (n, _) in &kept {
        if !levels.contains(n) {
            levels.push((*n).clone());
        }
    }
    let mut codes = Vec::new();
    for (n, v) in &kept {
        let c = levels.iter().position(|l| l == *n).map(|c| c as u32);
        codes.extend(std::iter::repeat_n(c, v.len()));
    }
    let drop = args
        .get("drop")
        .map_or(Ok(false), super::logical::if_condition)?;
    let mut ind = Factor {
        codes,
        levels,
        ordered: false,
    };
    if drop {
        ind = super::factor::drop_unused(&ind);
    }
    let parts: Vec<Value> = kept
        .iter()
        .map(|(_, v)| super::names::strip_value((*v).clone()))
        .collect();
    let refs: Vec<&Value> = parts.iter().collect();
    let values = combine(&refs)?;
    let values = match values {
        Value::List(_) => {
            return Err(KernelError::new(
                "stack of list elements is not supported: flowcast's data frames hold vectors",
            ))
        }
        v => v,
    };
    Ok(frame(
        vec!["values".into(), "ind".into()],
        vec![values, Value::Factor(ind)],
    ))
}

/// A data frame's stack before the run: its vector columns (a factor is
/// none, as `is.vector` says) one after another, where they are all
/// numbers or all text.
fn stack_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.has("select") {
        return Ok(Type::Any);
    }
    let Some(fields) = args.ty("x").and_then(super::frame::frame_fields) else {
        return Ok(Type::Any);
    };
    let kept: Vec<&(String, Type)> = fields
        .iter()
        .filter(|(_, t)| !matches!(t, Type::Factor { .. }))
        .collect();
    let all_num = kept.iter().all(|(_, t)| matches!(t, Type::Num { .. }));
    let all_str = kept.iter().all(|(_, t)| matches!(t, Type::Str { .. }));
    if kept.is_empty() || !(all_num || all_str) {
        return Ok(Type::Any);
    }
    let len = kept
        .iter()
        .try_fold(0usize, |a, (_, t)| t.len().map(|n| a + n));
    let mut levels: Vec<String> = Vec::new();
    for (n, _) in &kept {
        if !levels.contains(n) {
            levels.push(n.clone());
        }
    }
    let drop = args.ty("drop").and_then(Type::const_scalar).unwrap_or(0.0) != 0.0;
    let values = if all_num {
        Type::Num { len, value: None }
    } else {
        Type::Str { len, value: None }
    };
    Ok(Type::Record {
        class: super::frame::CLASS.to_string(),
        fields: vec![
            ("values".to_string(), values),
            (
                "ind".to_string(),
                Type::Factor {
                    len,
                    levels: (!drop).then_some(levels),
                    ordered: false,
                },
            ),
        ],
    })
}

fn unstack_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let Some(l) = as_frame(x) else {
        return Err(KernelError::new(
            "unstack() takes a data frame: its first column split by its second",
        ));
    };
    // `form`, evaluated among the columns (graph::formula::data_scope):
    // its response split by its one term.
    if let Some(form) = args.get("form") {
        let Value::Formula(f) = form else {
            return Err(KernelError::new("'form' must be a two-sided formula"));
        };
        return match (f.response.as_deref(), &f.terms[..]) {
            (Some(values), [(_, by)]) => unstacked(values, by),
            (None, _) => Err(KernelError::new("'form' must be a two-sided formula")),
            _ => Err(KernelError::new(
                "unstack(form = ) takes one grouping variable on the right: values ~ g",
            )),
        };
    }
    // `formula(x)`: the first column by the sum of the others.
    if l.items.len() < 2 {
        return Err(KernelError::new("'form' must be a two-sided formula"));
    }
    let values = &l.items[0];
    let by = if l.items.len() == 2 {
        bare(&l.items[1]).clone()
    } else {
        let mut total: Vec<f64> = Vec::new();
        for col in &l.items[1..] {
            let v = match bare(col) {
                c @ (Value::Num(_) | Value::Bool(_)) => c.as_f64_slice().unwrap_or_default(),
                _ => return Err(KernelError::new("non-numeric argument to binary operator")),
            };
            total = if total.is_empty() {
                v.into_owned()
            } else {
                total.iter().zip(v.iter()).map(|(a, b)| a + b).collect()
            };
        }
        Value::Num(total)
    };
    unstacked(values, &by)
}

/// R's `c(tapply(values, by, as.vector))`, as a data frame when every
/// group is as long, else a list.
fn unstacked(values: &Value, by: &Value) -> Result<Value, KernelError> {
    let f = grouping(bare(by), "ind")?;
    if f.codes.len() != values.len() {
        return Err(KernelError::new("arguments must have same length"));
    }
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); f.levels.len()];
    for (i, c) in f.codes.iter().enumerate() {
        if let Some(c) = c {
            groups[*c as usize].push(i);
        }
    }
    let items: Vec<Value> = groups
        .iter()
        .map(|rows| {
            if rows.is_empty() {
                return Ok(Value::Null);
            }
            let i = Value::Num(rows.iter().map(|&r| r as f64 + 1.0).collect());
            super::index::index(values, &[Some(i)]).map(super::names::strip_value)
        })
        .collect::<Result<_, _>>()?;
    let lengths: Vec<usize> = items.iter().map(Value::len).collect();
    // tapply simplifies groups of one value each to one vector (NA for an
    // empty group), which data.frame makes its one column, `res`.
    if lengths.iter().all(|&n| n <= 1) && lengths.contains(&1) {
        let na = items
            .iter()
            .find(|v| v.len() == 1)
            .map_or(Value::Null, |v| {
                super::index::index(v, &[Some(Value::scalar(super::value::NA))])
                    .unwrap_or(Value::Null)
            });
        let cells: Vec<&Value> = items
            .iter()
            .map(|v| if v.len() == 1 { v } else { &na })
            .collect();
        let res = combine(&cells)?;
        return Ok(named_frame(
            vec!["res".into()],
            vec![res],
            Some(RowNames::Text(f.levels.clone())),
        ));
    }
    if items.len() >= 2 && lengths.windows(2).any(|w| w[0] != w[1]) {
        return Ok(Value::List(List {
            class: None,
            names: Some(f.levels.clone()),
            items,
            row_names: None,
        }));
    }
    let names = super::quote::make_names(&f.levels, true, true);
    Ok(frame(names, items))
}

fn unstack_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}
